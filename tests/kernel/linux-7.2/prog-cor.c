/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * main -> cor_call -> cor_entry (libsfcor.so) -> cor_leaf.  Run with
 * LD_LIBRARY_PATH naming a folder with a corrupted copy of the library:
 * walks that start in it must stop inside it.
 */
#include "work.h"

volatile unsigned long sft_sink;

unsigned long cor_entry(unsigned long n);

SFT_LEVEL(, cor_call, cor_entry)

int main(int argc, char **argv)
{
	printf("cor: %lu rounds\n",
	       sft_loop(sft_budget(argc, argv), RUSAGE_SELF, cor_call, 20000));
	return 0;
}
