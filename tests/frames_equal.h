/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * frames_equal.h - one comparison of two walks, field for field, for the
 * CMocka tests that check a cached or windowed walk against a plain one.
 * Include after <cmocka.h>.
 */
#ifndef SFRAME_TEST_FRAMES_EQUAL_H
#define SFRAME_TEST_FRAMES_EQUAL_H

#include <stdint.h>

#include <sframe/sframe_unwind.h>

static inline void assert_frames_equal(const struct sframe_frame *got,
				       const struct sframe_frame *want, uint32_t n)
{
	uint32_t k;

	for (k = 0; k < n; k++) {
		assert_int_equal(got[k].pc, want[k].pc);
		assert_int_equal(got[k].sp, want[k].sp);
		assert_int_equal(got[k].fp, want[k].fp);
		assert_int_equal(got[k].cfa, want[k].cfa);
		assert_int_equal(got[k].valid, want[k].valid);
		assert_int_equal(got[k].flags, want[k].flags);
		assert_ptr_equal(got[k].module, want[k].module);
	}
}

#endif /* SFRAME_TEST_FRAMES_EQUAL_H */
