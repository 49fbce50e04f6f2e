/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/* fuzz_input.c - splitting the fuzzer's bytes (fuzz_input.h). */
#include <stdlib.h>
#include <string.h>

#include "fuzz_assert.h"
#include "fuzz_input.h"

uint64_t fz_uint(struct fz_in *in, unsigned int bytes)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < bytes; i++) {
		if (in->n) {
			v |= (uint64_t)in->p[0] << (8 * i);
			in->p++;
			in->n--;
		}
	}
	return v;
}

const uint8_t *fz_take(struct fz_in *in, size_t max, size_t *len)
{
	const uint8_t *p = in->p;

	*len = in->n < max ? in->n : max;
	in->p += *len;
	in->n -= *len;
	return p;
}

uint8_t *fz_dup(const uint8_t *p, size_t n)
{
	uint8_t *d = malloc(n ? n : 1);

	FZ_ASSERT(d != NULL);
	if (n)
		memcpy(d, p, n);
	else
		d[0] = 0;
	return d;
}
