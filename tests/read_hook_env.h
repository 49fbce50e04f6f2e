/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * read_hook_env.h - an environment header that defines SFRAME_READ_HOOK,
 * for tests/test_read_hook.c: the core is built with
 * -DSFRAME_ENV_HEADER='"read_hook_env.h"' and reads the sections opened
 * over a callback with read_hook_load(), a direct call, instead of the
 * callback.
 * Everything else keeps sframe_env.h's defaults.
 */
#ifndef READ_HOOK_ENV_H
#define READ_HOOK_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * struct read_hook_src - what the sections are opened with as read_ctx.
 * @data: the section's bytes, at callback addresses @base .. @base + @size - 1.
 * @base: the callback address of @data[0].
 * @size: the number of bytes.
 * @calls: read_hook_load() calls so far.
 * @fail_at: the call (counted from 1) that returns @fail_ret instead; 0 none.
 * @fail_ret: what it returns.
 */
struct read_hook_src {
	const uint8_t *data;
	uint64_t base;
	uint64_t size;
	unsigned long calls;
	unsigned long fail_at;
	int fail_ret;
};

/* What read_hook_load() returns for a range outside the section. */
#define READ_HOOK_OUTSIDE (-77)

/*
 * Reads @len bytes at callback address @addr of the section behind @ctx (a
 * struct read_hook_src) into @dst: 0, @fail_ret on the call chosen to fail,
 * or READ_HOOK_OUTSIDE for a range outside the section. Defined in
 * test_read_hook.c: a call the compiler cannot see into, as
 * copy_from_user() is for the kernel, which the core must work with.
 */
int read_hook_load(void *ctx, uint64_t addr, void *dst, size_t len);

#define SFRAME_READ_HOOK(sec, addr, dst, len) read_hook_load((sec)->read_ctx, (addr), (dst), (len))

#endif /* READ_HOOK_ENV_H */
