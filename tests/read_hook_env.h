/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * read_hook_env.h - an environment header that defines SFRAME_READ_HOOK,
 * for tests/test_read_hook.c: the core is built with
 * -DSFRAME_ENV_HEADER='"read_hook_env.h"' and reads the sections opened
 * over a callback with read_hook_load(), inline, instead of the callback.
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

/* Byte by byte: the core is built freestanding, with no memcpy to call. */
static inline int read_hook_load(void *ctx, uint64_t addr, void *dst, size_t len)
{
	struct read_hook_src *s = (struct read_hook_src *)ctx;
	uint8_t *d = (uint8_t *)dst;
	size_t i;

	if (++s->calls == s->fail_at)
		return s->fail_ret;
	/* The core promises a range inside the section: hold it to that. */
	if (addr < s->base || addr - s->base > s->size || len > s->size - (addr - s->base))
		return READ_HOOK_OUTSIDE;
	for (i = 0; i < len; i++)
		d[i] = s->data[addr - s->base + i];
	return 0;
}

#define SFRAME_READ_HOOK(sec, addr, dst, len) read_hook_load((sec)->read_ctx, (addr), (dst), (len))

#endif /* READ_HOOK_ENV_H */
