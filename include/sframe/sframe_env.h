/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_env.h - the environment the core is built in.
 *
 * This is the one file an embedder replaces, and the only place where the
 * core meets the compiler: no other file of the core uses a compiler
 * builtin, an attribute or inline assembly. Build with
 * -DSFRAME_ENV_HEADER='"my_env.h"' to supply the environment; that header
 * must provide
 *   - uint8_t .. uint64_t, int8_t .. int64_t, size_t, bool, true, false;
 * and may define any of the macros below, which otherwise get the defaults
 * at the end of this file (GNU C where the compiler speaks it, plain C
 * elsewhere). Without SFRAME_ENV_HEADER the types come from the headers
 * every C compiler provides even in freestanding mode.
 *
 * SFRAME_MEMCPY(dst, src, len)
 *	copy @len bytes (1 .. SFRAME_MAX_READ, non-overlapping). The default
 *	is the compiler's builtin, which may become a call to memcpy: the
 *	only libc symbol the core can reference.
 * SFRAME_LIKELY(x), SFRAME_UNLIKELY(x)
 *	branch hints; the value of each is !!(x) or (x), used as a condition.
 * SFRAME_PREFETCH(p)
 *	a hint to start loading the memory at @p: no fault, no effect on any
 *	result. The core uses it on memory it holds a pointer to (sections
 *	in memory) only.
 * SFRAME_ALWAYS_INLINE
 *	"inline", and inline it in every caller: the small helpers taking
 *	constant flags get a copy specialised on them.
 * SFRAME_NOINLINE
 *	keep the function out of line (one copy per specialisation).
 * SFRAME_OPTIMIZER_HIDE_VAR(var)
 *	the compiler may no longer assume anything about the value of the
 *	variable @var (an lvalue of integer type): for a load that must stay
 *	unconditional, not be sunk into a branch. No instruction is emitted.
 * SFRAME_INT32_MIN, SFRAME_INT32_MAX, SFRAME_UINT32_MAX, SFRAME_INT64_MAX,
 * SFRAME_UINT64_MAX
 *	the limits of int32_t, uint32_t, int64_t and uint64_t, of those types.
 * SFRAME_READ_HOOK(sec, addr, dst, len)
 *	optional; undefined by default. When defined, the core reads the bytes
 *	of a section that is not in memory with it instead of calling
 *	@sec->read: an expression of type int, 0 when all @len bytes at
 *	callback address @addr were stored at @dst, else a negative error
 *	(returned to the core's caller unchanged, as a callback's is; a
 *	positive value becomes -SFRAME_ERR_READ). @sec is the const struct
 *	sframe_section being read (its read and read_ctx are the ones given
 *	to sframe_open(), for the hook to use or to tell sections apart);
 *	@addr .. @addr + @len - 1 lies inside the section, checked first;
 *	@len is 1 .. SFRAME_MAX_READ. Sections in memory (sframe_open_buffer())
 *	are read with loads and SFRAME_MEMCPY() as always. For a kernel that
 *	reads sections from user memory with inline user-access loads
 *	(calls are not allowed between user_read_access_begin() and
 *	user_read_access_end(), and an indirect call per read costs a
 *	retpoline); src/linux/kernel/unwind/sframe_env_kernel.h defines
 *	one so, for the sections its kernel's adapter opens with its
 *	user-read callback.
 *
 * A Linux kernel copy: src/linux/kernel/unwind/sframe_env_kernel.h.
 */
#ifndef SFRAME_ENV_H
#define SFRAME_ENV_H

#ifdef SFRAME_ENV_HEADER
#include SFRAME_ENV_HEADER
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

#if defined(__GNUC__) || defined(__clang__)
#define SFRAME_ENV_GNUC 1
#else
#define SFRAME_ENV_GNUC 0
#endif

#ifndef SFRAME_MEMCPY
#if SFRAME_ENV_GNUC
#define SFRAME_MEMCPY(dst, src, len) __builtin_memcpy((dst), (src), (len))
#else
/**
 * sframe_env_memcpy() - the default SFRAME_MEMCPY() without GNU C.
 * @dst: where to copy to.
 * @src: where to copy from; does not overlap @dst.
 * @len: the number of bytes.
 *
 * No builtin to name, and no <string.h> in a freestanding build.
 */
static inline void sframe_env_memcpy(void *dst, const void *src, size_t len)
{
	unsigned char *d = (unsigned char *)dst;
	const unsigned char *s = (const unsigned char *)src;

	while (len--)
		*d++ = *s++;
}
#define SFRAME_MEMCPY(dst, src, len) sframe_env_memcpy((dst), (src), (len))
#endif
#endif

#ifndef SFRAME_LIKELY
#if SFRAME_ENV_GNUC
#define SFRAME_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define SFRAME_LIKELY(x) (x)
#endif
#endif

#ifndef SFRAME_UNLIKELY
#if SFRAME_ENV_GNUC
#define SFRAME_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define SFRAME_UNLIKELY(x) (x)
#endif
#endif

#ifndef SFRAME_PREFETCH
#if SFRAME_ENV_GNUC
#define SFRAME_PREFETCH(p) __builtin_prefetch(p)
#else
#define SFRAME_PREFETCH(p) ((void)(p))
#endif
#endif

#ifndef SFRAME_ALWAYS_INLINE
#if SFRAME_ENV_GNUC
#define SFRAME_ALWAYS_INLINE inline __attribute__((__always_inline__))
#else
#define SFRAME_ALWAYS_INLINE inline
#endif
#endif

#ifndef SFRAME_NOINLINE
#if SFRAME_ENV_GNUC
#define SFRAME_NOINLINE __attribute__((__noinline__))
#else
#define SFRAME_NOINLINE
#endif
#endif

#ifndef SFRAME_OPTIMIZER_HIDE_VAR
#if SFRAME_ENV_GNUC
/* @var is in a register, "changed" by an empty asm. */
#define SFRAME_OPTIMIZER_HIDE_VAR(var) __asm__("" : "+r"(var))
#else
#define SFRAME_OPTIMIZER_HIDE_VAR(var) ((void)0)
#endif
#endif

/* From the types alone: nothing else to rely on in every environment. */
#ifndef SFRAME_INT32_MAX
#define SFRAME_INT32_MAX ((int32_t)0x7fffffff)
#endif
#ifndef SFRAME_INT32_MIN
#define SFRAME_INT32_MIN ((int32_t)(-SFRAME_INT32_MAX - 1))
#endif
#ifndef SFRAME_UINT32_MAX
#define SFRAME_UINT32_MAX ((uint32_t)0xffffffffu)
#endif
#ifndef SFRAME_INT64_MAX
#define SFRAME_INT64_MAX ((int64_t)0x7fffffffffffffff)
#endif
#ifndef SFRAME_UINT64_MAX
#define SFRAME_UINT64_MAX ((uint64_t)0xffffffffffffffffu)
#endif

#endif /* SFRAME_ENV_H */
