/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * rules_equal.h - one comparison of two decoded rows' rules, member for
 * member (not memcmp(): padding), for the CMocka tests that hold one
 * lookup to another. Include after <cmocka.h>.
 */
#ifndef SFRAME_TEST_RULES_EQUAL_H
#define SFRAME_TEST_RULES_EQUAL_H

#include <sframe/sframe.h>

static inline void assert_locs_equal(const struct sframe_loc *got, const struct sframe_loc *want)
{
	assert_int_equal(got->kind, want->kind);
	assert_int_equal(got->deref, want->deref);
	assert_int_equal(got->reg, want->reg);
	assert_int_equal(got->offset, want->offset);
}

static inline void assert_rules_equal(const struct sframe_rules *got,
				      const struct sframe_rules *want)
{
	assert_int_equal(got->cfa.reg, want->cfa.reg);
	assert_int_equal(got->cfa.deref, want->cfa.deref);
	assert_int_equal(got->cfa.offset, want->cfa.offset);
	assert_locs_equal(&got->ra, &want->ra);
	assert_locs_equal(&got->fp, &want->fp);
	assert_int_equal(got->ra_undefined, want->ra_undefined);
	assert_int_equal(got->ra_mangled, want->ra_mangled);
	assert_int_equal(got->signal, want->signal);
}

#endif /* SFRAME_TEST_RULES_EQUAL_H */
