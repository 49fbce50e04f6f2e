/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * fuzz_assert.h - invariants: a violated one names itself on stderr and
 * abort()s, which both libFuzzer and replay.c report as a finding.
 */
#ifndef SFRAME_FUZZ_ASSERT_H
#define SFRAME_FUZZ_ASSERT_H

#include <stdio.h>

#include <sframe/sframe.h>

_Noreturn void fz_fail(const char *file, int line, const char *what);

#define FZ_ASSERT(cond)							\
	do {								\
		if (!(cond))						\
			fz_fail(__FILE__, __LINE__, #cond);		\
	} while (0)

/* Two results must be equal; print both names when they are not. */
#define FZ_ASSERT_ERR(got, want)					\
	do {								\
		int fz_g_ = (got), fz_w_ = (want);			\
		if (fz_g_ != fz_w_) {					\
			fprintf(stderr, "%s = %d (%s), expected %d (%s)\n", #got, fz_g_, \
				sframe_errname(fz_g_), fz_w_, sframe_errname(fz_w_)); \
			fz_fail(__FILE__, __LINE__, #got " == " #want);	\
		}							\
	} while (0)

#endif /* SFRAME_FUZZ_ASSERT_H */
