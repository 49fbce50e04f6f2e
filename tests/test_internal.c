/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_internal.c - the core's internal helpers that no public entry point
 * reaches on every compiler: sf_clz32(), the leading-zero count used in
 * place of __builtin_clz where the compiler has none (the search's first
 * step, pow2_below() in sframe_lookup.c, depends on it).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "sframe_internal.h"

/* Leading zeros by the definition: the highest set bit, found bit by bit. */
static unsigned int clz_reference(uint32_t v)
{
	unsigned int n = 0;

	while (!(v & 0x80000000u)) {
		v <<= 1;
		n++;
	}
	return n;
}

static void test_clz32(void **state)
{
	uint32_t x = 0x9e3779b9u;
	unsigned int k, i;

	(void)state;
	for (k = 0; k < 32; k++) {
		uint32_t p = (uint32_t)1 << k;

		/* Each power of two, and every value up to the next one. */
		assert_int_equal(sf_clz32(p), 31 - k);
		assert_int_equal(sf_clz32(p | (p - 1)), 31 - k);
		assert_int_equal(SF_CLZ32(p), 31 - k);
	}
	for (i = 0; i < 100000; i++) {
		uint32_t v;

		/* xorshift32, shifted: non-zero values of every magnitude. */
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		v = x >> (i % 32);
		if (v)
			assert_int_equal(sf_clz32(v), clz_reference(v));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clz32),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
