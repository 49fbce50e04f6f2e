/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * prog-qsort.c - a program as distributions build them (no -Wa,--gsframe,
 * no frame pointers) that spends its time in the C library's qsort() and
 * in the comparison it calls back: a walk from a sample passes from cmp()
 * through the C library's msort to main. run.sh converts it, the C library
 * and ld.so with "sframe convert --elf" and runs it on those.
 * Usage: prog-qsort SECONDS
 */
#include <stdlib.h>

#include "work.h"

__attribute__((noinline)) static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int main(int argc, char **argv)
{
	static int v[65536];
	double end = sft_cpu_seconds(RUSAGE_SELF) + (argc > 1 ? atof(argv[1]) : 1);
	unsigned int x = 1;
	int i;

	/* CPU time by getrusage(): the guest's tiny kernel has no POSIX timers. */
	while (sft_cpu_seconds(RUSAGE_SELF) < end) {
		for (i = 0; i < 65536; i++)
			v[i] = (int)((x = x * 1103515245u + 12345u) >> 8);
		qsort(v, 65536, sizeof(v[0]), cmp);
	}
	return 0;
}
