/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_modules.c - the unwinder's module table (sframe_modules_*()):
 * adding in any order, finding by PC, removing, overlaps, a full table
 * and empty ranges.
 *
 * The sections, stacks and walk() are unwind_fixture.h's; so are the rules
 * every expected value follows.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "unwind_fixture.h"

/* ---- Module table ---------------------------------------------------------- */

static void test_modules_init(void **state)
{
	struct sframe_module s[3];
	struct sframe_module_table t;

	(void)state;
	memset(&t, 0x5a, sizeof(t));
	sframe_modules_init(&t, s, 3);
	/* An empty table over the caller's array. */
	assert_ptr_equal(t.slots, s);
	assert_int_equal(t.count, 0);
	assert_int_equal(t.capacity, 3);
	assert_null(sframe_modules_find(&t, 0));
	assert_null(sframe_modules_find(&t, 0x1000));
}

static void test_modules_add_sorted(void **state)
{
	struct sframe_module s[5];
	struct sframe_module_table t;
	int tags[4];

	(void)state;
	sframe_modules_init(&t, s, 5);
	/* Added out of order; adjacent ranges ([0x2000,0x3000) touches both
	 * neighbours) do not overlap because end is exclusive. */
	assert_err(sframe_modules_add(&t, 0x3000, 0x4000, &amd.sec, &tags[0]), 0);
	assert_err(sframe_modules_add(&t, 0x1000, 0x2000, NULL, &tags[1]), 0);
	assert_err(sframe_modules_add(&t, 0x5000, 0x6000, NULL, &tags[2]), 0);
	assert_err(sframe_modules_add(&t, 0x2000, 0x3000, NULL, &tags[3]), 0);
	assert_int_equal(t.count, 4);
	/* Kept sorted by start, fields stored as given. */
	assert_int_equal(s[0].start, 0x1000);
	assert_int_equal(s[0].end, 0x2000);
	assert_ptr_equal(s[0].user, &tags[1]);
	assert_int_equal(s[1].start, 0x2000);
	assert_ptr_equal(s[1].user, &tags[3]);
	assert_int_equal(s[2].start, 0x3000);
	assert_int_equal(s[2].end, 0x4000);
	assert_ptr_equal(s[2].sec, &amd.sec);
	assert_ptr_equal(s[2].user, &tags[0]);
	assert_int_equal(s[3].start, 0x5000);
	assert_ptr_equal(s[3].user, &tags[2]);
	assert_null(s[3].sec);
}

static void test_modules_find(void **state)
{
	struct sframe_module s[4];
	struct sframe_module_table t;

	(void)state;
	sframe_modules_init(&t, s, 4);
	assert_err(sframe_modules_add(&t, 0x5000, 0x6000, NULL, NULL), 0);
	assert_err(sframe_modules_add(&t, 0x1000, 0x2000, NULL, NULL), 0);
	assert_err(sframe_modules_add(&t, 0x2000, 0x3000, NULL, NULL), 0);
	/* s[0] = [0x1000,0x2000), s[1] = [0x2000,0x3000), s[2] = [0x5000,0x6000). */
	assert_null(sframe_modules_find(&t, 0));		/* below the first */
	assert_null(sframe_modules_find(&t, 0xfff));
	assert_ptr_equal(sframe_modules_find(&t, 0x1000), &s[0]);	/* start */
	assert_ptr_equal(sframe_modules_find(&t, 0x1fff), &s[0]);	/* end - 1 */
	assert_ptr_equal(sframe_modules_find(&t, 0x2000), &s[1]);	/* end = next start */
	assert_ptr_equal(sframe_modules_find(&t, 0x2fff), &s[1]);
	assert_null(sframe_modules_find(&t, 0x3000));		/* end, then a gap */
	assert_null(sframe_modules_find(&t, 0x4000));		/* gap */
	assert_null(sframe_modules_find(&t, 0x4fff));
	assert_ptr_equal(sframe_modules_find(&t, 0x5000), &s[2]);
	assert_ptr_equal(sframe_modules_find(&t, 0x5fff), &s[2]);
	assert_null(sframe_modules_find(&t, 0x6000));		/* end of the last */
	assert_null(sframe_modules_find(&t, UINT64_MAX));
}

static void test_modules_find_empty(void **state)
{
	struct sframe_module s[2];
	struct sframe_module_table t;

	(void)state;
	sframe_modules_init(&t, s, 2);
	/* No module: nothing contains any PC. */
	assert_null(sframe_modules_find(&t, 0));
	assert_null(sframe_modules_find(&t, 0x1000));
	assert_null(sframe_modules_find(&t, UINT64_MAX));
	/* Emptied by remove: same. */
	assert_err(sframe_modules_add(&t, 0x1000, 0x2000, NULL, NULL), 0);
	assert_err(sframe_modules_remove(&t, 0x1000), 0);
	assert_null(sframe_modules_find(&t, 0x1000));
}

static void test_modules_remove(void **state)
{
	struct sframe_module s[4];
	struct sframe_module_table t;

	(void)state;
	sframe_modules_init(&t, s, 4);
	assert_err(sframe_modules_remove(&t, 0x1000), -SFRAME_ERR_NOT_FOUND);	/* empty */
	assert_err(sframe_modules_add(&t, 0x1000, 0x2000, NULL, NULL), 0);
	assert_err(sframe_modules_add(&t, 0x3000, 0x4000, NULL, NULL), 0);
	assert_err(sframe_modules_add(&t, 0x5000, 0x6000, NULL, NULL), 0);
	/* Absent: removal is by start only; an inner address, an end, a gap. */
	assert_err(sframe_modules_remove(&t, 0x3001), -SFRAME_ERR_NOT_FOUND);
	assert_err(sframe_modules_remove(&t, 0x2000), -SFRAME_ERR_NOT_FOUND);
	assert_err(sframe_modules_remove(&t, 0x7000), -SFRAME_ERR_NOT_FOUND);
	assert_err(sframe_modules_remove(&t, 0), -SFRAME_ERR_NOT_FOUND);
	assert_int_equal(t.count, 3);
	/* Present: the middle one; the rest stays sorted and findable. */
	assert_err(sframe_modules_remove(&t, 0x3000), 0);
	assert_int_equal(t.count, 2);
	assert_int_equal(s[0].start, 0x1000);
	assert_int_equal(s[1].start, 0x5000);
	assert_null(sframe_modules_find(&t, 0x3000));
	assert_ptr_equal(sframe_modules_find(&t, 0x5000), &s[1]);
	/* Twice: gone. */
	assert_err(sframe_modules_remove(&t, 0x3000), -SFRAME_ERR_NOT_FOUND);
	/* The freed range can be added again. */
	assert_err(sframe_modules_add(&t, 0x3000, 0x5000, NULL, NULL), 0);
	assert_int_equal(t.count, 3);
	assert_int_equal(s[1].start, 0x3000);
}

static void test_modules_overlap(void **state)
{
	struct sframe_module s[8];
	struct sframe_module_table t;

	(void)state;
	sframe_modules_init(&t, s, 8);
	assert_err(sframe_modules_add(&t, 0x2000, 0x3000, NULL, NULL), 0);
	assert_err(sframe_modules_add(&t, 0x5000, 0x6000, NULL, NULL), 0);
	/* Every way of sharing a byte with [0x2000, 0x3000). */
	assert_err(sframe_modules_add(&t, 0x1800, 0x2001, NULL, NULL), -SFRAME_ERR_OVERLAP);
	assert_err(sframe_modules_add(&t, 0x2fff, 0x4000, NULL, NULL), -SFRAME_ERR_OVERLAP);
	assert_err(sframe_modules_add(&t, 0x2100, 0x2200, NULL, NULL), -SFRAME_ERR_OVERLAP);
	assert_err(sframe_modules_add(&t, 0x1000, 0x7000, NULL, NULL), -SFRAME_ERR_OVERLAP);
	assert_err(sframe_modules_add(&t, 0x2000, 0x3000, NULL, NULL), -SFRAME_ERR_OVERLAP);
	assert_err(sframe_modules_add(&t, 0x2000, 0x2001, NULL, NULL), -SFRAME_ERR_OVERLAP);
	/* Spanning the gap into the next module. */
	assert_err(sframe_modules_add(&t, 0x4000, 0x5001, NULL, NULL), -SFRAME_ERR_OVERLAP);
	/* Nothing was added. */
	assert_int_equal(t.count, 2);
	/* Touching is not overlapping. */
	assert_err(sframe_modules_add(&t, 0x3000, 0x5000, NULL, NULL), 0);
	assert_err(sframe_modules_add(&t, 0x1000, 0x2000, NULL, NULL), 0);
	assert_int_equal(t.count, 4);
}

static void test_modules_full(void **state)
{
	struct sframe_module s[2];
	struct sframe_module_table t;

	(void)state;
	sframe_modules_init(&t, s, 2);
	assert_err(sframe_modules_add(&t, 0x1000, 0x2000, NULL, NULL), 0);
	assert_err(sframe_modules_add(&t, 0x3000, 0x4000, NULL, NULL), 0);
	/* Capacity 2: a third, non-overlapping module does not fit. */
	assert_err(sframe_modules_add(&t, 0x5000, 0x6000, NULL, NULL), -SFRAME_ERR_FULL);
	assert_err(sframe_modules_add(&t, 0x0, 0x1000, NULL, NULL), -SFRAME_ERR_FULL);
	assert_int_equal(t.count, 2);
	/* After a removal there is room again. */
	assert_err(sframe_modules_remove(&t, 0x1000), 0);
	assert_err(sframe_modules_add(&t, 0x5000, 0x6000, NULL, NULL), 0);
	assert_int_equal(s[0].start, 0x3000);
	assert_int_equal(s[1].start, 0x5000);
	/* Capacity 0: always full. */
	sframe_modules_init(&t, s, 0);
	assert_err(sframe_modules_add(&t, 0x1000, 0x2000, NULL, NULL), -SFRAME_ERR_FULL);
}

static void test_modules_empty_range(void **state)
{
	struct sframe_module s[2];
	struct sframe_module_table t;

	(void)state;
	sframe_modules_init(&t, s, 2);
	/* end must be above start. */
	assert_err(sframe_modules_add(&t, 0x1000, 0x1000, NULL, NULL), -SFRAME_ERR_INVAL);
	assert_err(sframe_modules_add(&t, 0x2000, 0x1000, NULL, NULL), -SFRAME_ERR_INVAL);
	assert_err(sframe_modules_add(&t, 0, 0, NULL, NULL), -SFRAME_ERR_INVAL);
	assert_int_equal(t.count, 0);
	/* A one-byte range is fine. */
	assert_err(sframe_modules_add(&t, 0x1000, 0x1001, NULL, NULL), 0);
	assert_ptr_equal(sframe_modules_find(&t, 0x1000), &s[0]);
	assert_null(sframe_modules_find(&t, 0x1001));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modules_init),
		T(test_modules_add_sorted, setup_amd64),
		cmocka_unit_test(test_modules_find),
		cmocka_unit_test(test_modules_find_empty),
		cmocka_unit_test(test_modules_remove),
		cmocka_unit_test(test_modules_overlap),
		cmocka_unit_test(test_modules_full),
		cmocka_unit_test(test_modules_empty_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
