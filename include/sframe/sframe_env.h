/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_env.h - the environment the core is built in.
 *
 * This is the one file an embedder replaces. The core needs only:
 *   - uint8_t .. uint64_t, int8_t .. int64_t, size_t, bool, true, false;
 *   - SFRAME_MEMCPY(dst, src, len), used only by the ready-made buffer reader.
 * The default below takes them from the headers every C compiler provides
 * even in freestanding mode, plus a compiler builtin for memcpy (which may
 * become a call to memcpy: the only libc symbol the core can reference).
 *
 * A Linux kernel copy would read:
 *   #include <linux/types.h>
 *   #include <linux/string.h>
 *   #define SFRAME_MEMCPY(d, s, n) memcpy(d, s, n)
 */
#ifndef SFRAME_ENV_H
#define SFRAME_ENV_H

#ifdef SFRAME_ENV_HEADER
/* Build with -DSFRAME_ENV_HEADER='"my_env.h"' to supply everything above. */
#include SFRAME_ENV_HEADER
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef SFRAME_MEMCPY
#define SFRAME_MEMCPY(dst, src, len) __builtin_memcpy((dst), (src), (len))
#endif
#endif

#endif /* SFRAME_ENV_H */
