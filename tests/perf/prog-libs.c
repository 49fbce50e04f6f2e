/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * Hot code in shared libraries: main -> via_plt -> pla_outer (libperfa.so,
 * through the PLT) -> pla_inner, then -> back -> back_leaf (this program);
 * and main -> via_dlopen -> plb_outer (libperfb.so, opened with dlopen,
 * called through a pointer) -> plb_inner, then back the same way.
 */
#include <dlfcn.h>
#include "work.h"

volatile unsigned long sft_sink;

unsigned long pla_outer(unsigned long n, unsigned long (*back)(unsigned long));
static unsigned long (*plug)(unsigned long n, unsigned long (*back)(unsigned long));

SFT_LEAF(, back_leaf, 1)
SFT_LEVEL(, back, back_leaf)

NOINLINE unsigned long via_plt(unsigned long n)
{
	unsigned long s = n + sft_sink;

	SFT_WORK(n, s);
	s += pla_outer(n, back);
	return s + sft_sink;
}

NOINLINE unsigned long via_dlopen(unsigned long n)
{
	unsigned long s = n + sft_sink;

	SFT_WORK(n, s);
	s += plug(n, back);
	return s + sft_sink;
}

int main(int argc, char **argv)
{
	double budget = sft_budget(argc, argv) / 2;
	void *h = dlopen("libperfb.so", RTLD_NOW);

	if (!h || !(plug = (unsigned long (*)(unsigned long, unsigned long (*)(unsigned long)))
			   dlsym(h, "plb_outer"))) {
		fprintf(stderr, "libs: %s\n", dlerror());
		return 1;
	}
	printf("libs: %lu rounds through the PLT,", sft_loop(budget, RUSAGE_SELF, via_plt, 20000));
	printf(" %lu through dlsym's pointer\n", sft_loop(2 * budget, RUSAGE_SELF, via_dlopen, 20000));
	return 0;
}
