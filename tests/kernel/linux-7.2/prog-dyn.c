/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * Dynamic program: main -> dyn_lib -> sfa_outer (libsfa.so, through the
 * PLT) -> sfa_inner, and main -> dyn_plug -> sfb_outer (libsfb.so, opened
 * with dlopen, called through a pointer) -> sfb_inner.
 */
#include <dlfcn.h>
#include "work.h"

volatile unsigned long sft_sink;

unsigned long sfa_outer(unsigned long n);
static unsigned long (*plug)(unsigned long);

SFT_LEVEL(, dyn_lib, sfa_outer)
SFT_LEVEL(, dyn_plug, plug)

int main(int argc, char **argv)
{
	double budget = sft_budget(argc, argv) / 2;
	void *h = dlopen("libsfb.so", RTLD_NOW);

	if (!h || !(plug = (unsigned long (*)(unsigned long))dlsym(h, "sfb_outer"))) {
		fprintf(stderr, "dyn: %s\n", dlerror());
		return 1;
	}
	printf("dyn: %lu rounds through the PLT,", sft_loop(budget, RUSAGE_SELF, dyn_lib, 20000));
	printf(" %lu through dlsym's pointer\n", sft_loop(2 * budget, RUSAGE_SELF, dyn_plug, 20000));
	return 0;
}
