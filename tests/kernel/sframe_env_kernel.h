/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_env_kernel.h - the environment of the core inside the Linux kernel.
 *
 * Selected with -DSFRAME_ENV_HEADER='"sframe_env_kernel.h"' (see
 * include/sframe/sframe_env.h); the core's files are compiled unchanged.
 * The kernel provides the fixed-width types (uint8_t .. uint64_t,
 * int8_t .. int64_t), size_t, bool/true/false and NULL itself; its limits
 * have other names (S64_MAX, U64_MAX, ...), so the few C99 names the core
 * uses are defined from them here.
 */
#ifndef SFRAME_ENV_KERNEL_H
#define SFRAME_ENV_KERNEL_H

#include <linux/types.h>
#include <linux/stddef.h>
#include <linux/limits.h>
#include <linux/string.h>

#define SFRAME_MEMCPY(dst, src, len) memcpy((dst), (src), (len))

#ifndef INT32_MIN
#define INT32_MIN S32_MIN
#endif
#ifndef INT32_MAX
#define INT32_MAX S32_MAX
#endif
#ifndef UINT32_MAX
#define UINT32_MAX U32_MAX
#endif
#ifndef INT64_MAX
#define INT64_MAX S64_MAX
#endif
#ifndef UINT64_MAX
#define UINT64_MAX U64_MAX
#endif
#ifndef UINT64_C
#define UINT64_C(c) c##ULL
#endif

#endif /* SFRAME_ENV_KERNEL_H */
