/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/* fuzz_assert.c - the one way an invariant fails. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_assert.h"

void fz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: invariant violated: %s\n", file, line, what);
	fflush(stderr);
	abort();
}
