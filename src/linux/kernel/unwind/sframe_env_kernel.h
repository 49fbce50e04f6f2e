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
 * SFRAME_READ_HOOK: in the kernel's own copy of the reader (built in with
 * CONFIG_UNWIND_USER_SFRAME, kernel/unwind/), every section behind a
 * callback is a process's, opened by kernel/unwind/sframe_user.c with its
 * callback sframe_user_read(): the hook reads those bytes from user memory
 * itself, inline, so that no read is an indirect call (a retpoline where
 * they are on). It loads fixed-size words with unsafe_get_user() between
 * masked_user_read_access_begin() (or user_read_access_begin() where the
 * architecture cannot mask) and user_read_access_end(), with no call in
 * between; x86's copy_from_user() would be an out-of-line call. Reads may
 * fault and sleep (the deferred unwind runs in task context); a fault is
 * -EFAULT, as sframe_user_read() says. A section opened with any other
 * callback is refused (-EINVAL on each read) rather than read as user
 * memory: the hook knows only this one, and calling the others would bring
 * the indirect call back. Sections in kernel memory (sframe_open_buffer())
 * never reach the hook.
 *
 * In a module (MODULE: the test module, tests/kernel/sframe_test_mod.c,
 * built against any kernel) the hook stays undefined and every read calls
 * the section's callback, so that the module's own callbacks (reads of
 * kernel memory with fault injection) keep working.
 */
#ifndef SFRAME_ENV_KERNEL_H
#define SFRAME_ENV_KERNEL_H

#include <linux/types.h>
#include <linux/stddef.h>
#include <linux/compiler.h>
#include <linux/limits.h>
#include <linux/prefetch.h>
#include <linux/string.h>
#if defined(CONFIG_UNWIND_USER_SFRAME) && !defined(MODULE)
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>
#endif

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

#if defined(CONFIG_UNWIND_USER_SFRAME) && !defined(MODULE)
int sframe_user_read(void *ctx, uint64_t addr, void *dst, size_t len);

/* Reads @len (1 .. SFRAME_MAX_READ) bytes of user memory at @addr. */
static __always_inline int sframe_env_user_read(uint64_t addr, void *dst,
						size_t len)
{
	const u8 __user *src = (const u8 __user *)(unsigned long)addr;
	u8 *d = dst;
	u64 v8;
	u32 v4;
	u16 v2;
	u8 v1;

	might_fault();
	/* As copy_from_user(): a kernel address becomes one that faults. */
	if (can_do_masked_user_access())
		src = masked_user_read_access_begin(src);
	else if (!user_read_access_begin(src, len))
		return -EFAULT;
	for (; len >= 8; len -= 8, src += 8, d += 8) {
		unsafe_get_user(v8, (const u64 __user *)src, fault);
		put_unaligned(v8, (u64 *)d);
	}
	if (len & 4) {
		unsafe_get_user(v4, (const u32 __user *)src, fault);
		put_unaligned(v4, (u32 *)d);
		src += 4;
		d += 4;
	}
	if (len & 2) {
		unsafe_get_user(v2, (const u16 __user *)src, fault);
		put_unaligned(v2, (u16 *)d);
		src += 2;
		d += 2;
	}
	if (len & 1) {
		unsafe_get_user(v1, src, fault);
		*d = v1;
	}
	user_read_access_end();
	return 0;
fault:
	user_read_access_end();
	return -EFAULT;
}

#define SFRAME_READ_HOOK(sec, addr, dst, len)				\
	(likely((sec)->read == sframe_user_read) ?			\
	 sframe_env_user_read((addr), (dst), (len)) : -EINVAL)
#endif

#endif /* SFRAME_ENV_KERNEL_H */
