/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * Threads: four threads start in thr_start and each runs a call path of
 * its own (0 to 3 levels above thr_leaf, one through a function with a
 * 4 KB frame); the main thread runs main -> path2_a -> path2_b -> thr_leaf
 * meanwhile. Every thread's chain ends in the C library's start_thread or
 * __libc_start_call_main.
 */
#include <pthread.h>
#include "work.h"

volatile unsigned long sft_sink;

SFT_LEAF(, thr_leaf, 3)
SFT_LEVEL(, path1_a, thr_leaf)
SFT_LEVEL(, path2_b, thr_leaf)
SFT_LEVEL(, path2_a, path2_b)

/* A frame larger than a page: the stack pointer moves 4 KB at once. */
NOINLINE unsigned long big_frame(unsigned long n)
{
	volatile unsigned char buf[4096];
	unsigned long s = n + sft_sink;

	for (size_t i = 0; i < sizeof(buf); i += 64)
		buf[i] = (unsigned char)(s + i);
	SFT_WORK(n, s);
	s += thr_leaf(n);
	return s + buf[4032];
}

SFT_LEVEL(, path3_b, big_frame)
SFT_LEVEL(, path3_a, path3_b)

static unsigned long (*const paths[])(unsigned long) = { thr_leaf, path1_a, path2_a, path3_a };
#define NTHREADS (sizeof(paths) / sizeof(paths[0]))
static double budget;

NOINLINE void *thr_start(void *arg)
{
	unsigned long (*path)(unsigned long) = *(unsigned long (*const *)(unsigned long))arg;

	sft_loop(budget, RUSAGE_THREAD, path, 20000);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[NTHREADS];

	budget = sft_budget(argc, argv) / (NTHREADS + 1);
	for (size_t i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, thr_start, (void *)&paths[i])) {
			fprintf(stderr, "threads: pthread_create failed\n");
			return 1;
		}
	sft_loop(budget, RUSAGE_THREAD, path2_a, 20000);
	for (size_t i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	printf("threads: done\n");
	return 0;
}
