/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * hosted_shim.h - just enough of the kernel's API for sframe_test_mod.c to
 * build and run as an ordinary program (the module cannot be loaded in CI).
 * Nothing here is used by the kernel build.
 */
#ifndef HOSTED_SHIM_H
#define HOSTED_SHIM_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define __user
#define __force
#define __init
#define __exit
#define GFP_KERNEL 0
#define pr_info(...) printf(__VA_ARGS__)
#define pr_err(...) printf(__VA_ARGS__)
#define MODULE_LICENSE(s)
#define MODULE_DESCRIPTION(s)
#define module_exit(fn)
/* The module's init becomes main(): exit status 0 when it returns 0. */
#define module_init(fn)                         \
	int main(void)                          \
	{                                       \
		int ret = fn();                 \
		sframe_test_exit();             \
		return ret ? 1 : 0;             \
	}

static inline void *kmemdup(const void *src, size_t len, int gfp)
{
	void *p = malloc(len);

	(void)gfp;
	if (p)
		memcpy(p, src, len);
	return p;
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

/* The callers only pass addresses inside their own buffers. */
static inline long copy_from_kernel_nofault(void *dst, const void *src, size_t size)
{
	memcpy(dst, src, size);
	return 0;
}

#endif /* HOSTED_SHIM_H */
