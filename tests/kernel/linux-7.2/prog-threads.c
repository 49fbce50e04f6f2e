/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * Threads: two threads run thr_start -> thr_mid -> thr_leaf (their chains
 * end at the start routine), the main thread main -> thr_mid -> thr_leaf.
 */
#include <pthread.h>
#include "work.h"

volatile unsigned long sft_sink;

SFT_LEAF(, thr_leaf, 3)
SFT_LEVEL(, thr_mid, thr_leaf)

static double budget;

NOINLINE void *thr_start(void *arg)
{
	sft_loop(budget, RUSAGE_THREAD, thr_mid, 20000);
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t[2];

	budget = sft_budget(argc, argv) / 3;
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, thr_start, NULL)) {
			fprintf(stderr, "threads: pthread_create failed\n");
			return 1;
		}
	sft_loop(budget, RUSAGE_THREAD, thr_mid, 20000);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("threads: done\n");
	return 0;
}
