/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * Static program: main -> st_a -> st_b -> st_c -> st_leaf, all in one
 * binary.  Also the input of the re-encoded (SFrame v2) and bench builds.
 * With a second argument it runs that many rounds instead of for argv[1]
 * CPU seconds and prints its own times (for bench.sh).
 */
#include "work.h"

volatile unsigned long sft_sink;

SFT_LEAF(, st_leaf, 4)
SFT_LEVEL(, st_c, st_leaf)
SFT_LEVEL(, st_b, st_c)
SFT_LEVEL(, st_a, st_b)

int main(int argc, char **argv)
{
	if (argc > 2) {
		/* Bench mode: a fixed amount of work, not a fixed time; prints
		 * the process's own system and user time and the elapsed time. */
		unsigned long rounds = strtoul(argv[2], NULL, 0);
		struct rusage ru;
		struct timespec t0, t1;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (unsigned long r = 0; r < rounds; r++)
			sft_sink += st_a(20000);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		getrusage(RUSAGE_SELF, &ru);
		printf("rounds %lu sys_us %ld user_us %ld wall_us %ld\n", rounds,
		       (long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec,
		       (long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec,
		       (long)(t1.tv_sec - t0.tv_sec) * 1000000 +
			       (t1.tv_nsec - t0.tv_nsec) / 1000);
		return 0;
	}
	printf("static: %lu rounds\n",
	       sft_loop(sft_budget(argc, argv), RUSAGE_SELF, st_a, 20000));
	return 0;
}
