/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * The vDSO: main -> clk_outer -> clk_leaf, which reads the clock with
 * clock_gettime (the vDSO's __vdso_clock_gettime, no system call) in a
 * loop, so that samples land in the vDSO. A walk from there needs the
 * vDSO's own unwinding information; its frames are named from the copy
 * perf record keeps in its build-id cache.
 */
#include <time.h>
#include "work.h"

volatile unsigned long sft_sink;

NOINLINE unsigned long clk_leaf(unsigned long n)
{
	unsigned long s = n + sft_sink;
	struct timespec ts;

	for (unsigned long i = 0; i < n; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		s += (unsigned long)ts.tv_nsec;
	}
	return s;
}

SFT_LEVEL(, clk_outer, clk_leaf)

int main(int argc, char **argv)
{
	sft_loop(sft_budget(argc, argv), RUSAGE_SELF, clk_outer, 20000);
	printf("clock: done\n");
	return 0;
}
