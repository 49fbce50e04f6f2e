/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_env_kernel.h - the environment of the core inside the Linux kernel.
 *
 * Selected with -DSFRAME_ENV_HEADER='"sframe_env_kernel.h"' (see
 * include/sframe/sframe_env.h); the core's files are compiled unchanged.
 * The kernel provides the fixed-width types (uint8_t .. uint64_t,
 * int8_t .. int64_t), size_t, bool/true/false and NULL itself; every other
 * name of the environment is mapped to the kernel's own below, so that the
 * kernel's configuration (branch profiling, its prefetch() per architecture,
 * its compiler support) applies to the core as to any kernel code.
 *
 * SFRAME_READ_HOOK is left undefined: the test module reads through a
 * callback. A kernel reading sections from user memory inside
 * user_read_access_begin()/user_read_access_end() would define it here.
 */
#ifndef SFRAME_ENV_KERNEL_H
#define SFRAME_ENV_KERNEL_H

#include <linux/types.h>
#include <linux/stddef.h>
#include <linux/compiler.h>
#include <linux/limits.h>
#include <linux/prefetch.h>
#include <linux/string.h>

#define SFRAME_MEMCPY(dst, src, len) memcpy((dst), (src), (len))
#define SFRAME_LIKELY(x) likely(x)
#define SFRAME_UNLIKELY(x) unlikely(x)
#define SFRAME_PREFETCH(p) prefetch(p)
#define SFRAME_ALWAYS_INLINE __always_inline
#define SFRAME_NOINLINE noinline
#define SFRAME_OPTIMIZER_HIDE_VAR(var) OPTIMIZER_HIDE_VAR(var)

#define SFRAME_INT32_MIN S32_MIN
#define SFRAME_INT32_MAX S32_MAX
#define SFRAME_UINT32_MAX U32_MAX
#define SFRAME_INT64_MAX S64_MAX
#define SFRAME_UINT64_MAX U64_MAX

#endif /* SFRAME_ENV_KERNEL_H */
