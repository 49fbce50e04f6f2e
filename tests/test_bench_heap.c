/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_bench_heap.c - the benchmark's heap counter (src/bench/bench_heap.c)
 * counts the allocations of the code linked with it, and only between its
 * marks: a "heap_allocs=0" of sframe-bench means no call, not a counter
 * that was never wired in.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include "bench_util.h"

/* Kept from being elided (the allocation itself is what is counted). */
static void *volatile sink;

static void test_counts_each_call(void **state)
{
	void *p;

	(void)state;
	bench_heap_begin();
	assert_int_equal(bench_heap_end(), 0);

	bench_heap_begin();
	sink = malloc(24);
	free(sink);
	sink = calloc(3, 8);
	p = realloc(sink, 64);
	assert_non_null(p);
	free(p);
	/* malloc, calloc, realloc; free() is not an allocation. */
	assert_int_equal(bench_heap_end(), 3);

	/* Calls before the mark are not counted. */
	sink = malloc(8);
	bench_heap_begin();
	free(sink);
	assert_int_equal(bench_heap_end(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_each_call),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
