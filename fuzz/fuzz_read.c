/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/* fuzz_read.c - the bounded read callback (fuzz_read.h). */
#include <stdio.h>
#include <string.h>

#include <sframe/sframe.h>

#include "fuzz_assert.h"
#include "fuzz_read.h"

int fz_read(void *ctx, uint64_t addr, void *dst, size_t len)
{
	struct fz_mem *m = ctx;
	unsigned long n, at;
	bool oob;

	FZ_ASSERT(len > 0 && len <= SFRAME_MAX_READ);
	FZ_ASSERT(dst != NULL);
	if (m->len8)
		FZ_ASSERT(len == 8);
	if (m->shared_count) {
		n = ++*m->shared_count;
		at = *m->shared_fail_at;
	} else {
		n = ++m->calls;
		at = m->fail_at;
	}
	oob = addr < m->base || addr - m->base > m->size || len > m->size - (addr - m->base);
	if (oob && !m->oob_ok) {
		fprintf(stderr, "read of %zu bytes at 0x%llx outside [0x%llx, +0x%llx)\n", len,
			(unsigned long long)addr, (unsigned long long)m->base,
			(unsigned long long)m->size);
		fz_fail(__FILE__, __LINE__, "read inside the bytes given");
	}
	if (at && n == at) {
		m->failed = true;
		return m->fail_err;
	}
	if (oob)
		return FZ_EFAULT;
	memcpy(dst, m->data + (addr - m->base), len);
	return 0;
}

void fz_mem_init(struct fz_mem *m, const uint8_t *data, uint64_t size, uint64_t base)
{
	memset(m, 0, sizeof(*m));
	m->data = data;
	m->size = size;
	m->base = base;
	m->fail_err = FZ_INJECTED;
}
