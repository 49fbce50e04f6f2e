/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * main -> un_round -> sfu_outer (libsfu.so) -> sfu_inner, where un_round
 * opens the library, calls it a few times and closes it again: nothing else
 * holds it, so each dlclose unmaps it (and its .sframe) while the program is
 * being sampled, and the next dlopen maps it anew.
 */
#include <dlfcn.h>
#include "work.h"

volatile unsigned long sft_sink;

NOINLINE unsigned long un_round(unsigned long n)
{
	unsigned long (*fn)(unsigned long);
	unsigned long s = n;
	void *h = dlopen("libsfu.so", RTLD_NOW);

	if (!h || !(fn = (unsigned long (*)(unsigned long))dlsym(h, "sfu_outer"))) {
		fprintf(stderr, "unmap: %s\n", dlerror());
		exit(1);
	}
	for (int i = 0; i < 4; i++) {
		SFT_WORK(n / 4, s);
		s += fn(n);
	}
	dlclose(h);
	return s;
}

int main(int argc, char **argv)
{
	printf("unmap: %lu rounds (each one dlopen and dlclose)\n",
	       sft_loop(sft_budget(argc, argv), RUSAGE_SELF, un_round, 50000));
	return 0;
}
