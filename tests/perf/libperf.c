/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * The test library, one source built under two names (run.sh):
 * libperfa.so (LIB_OUTER pla_outer, LIB_INNER pla_inner), linked by
 * prog-libs, and libperfb.so (plb_outer, plb_inner), its dlopen plug-in.
 * LIB_OUTER calls LIB_INNER, then the program back through the pointer it
 * was given: chains that leave the program, enter a library and come back.
 */
#include "work.h"

/* Its own: a library opened with dlopen cannot count on the program's. */
HIDDEN volatile unsigned long sft_sink;

SFT_LEAF(HIDDEN, LIB_INNER, 2)

/*
 * LIB_OUTER has two names, as many C library functions have (brk and
 * __brk): itself weak, and a hidden alias, local in the linked library.
 * perf names the address by the name that is not weak ("__pla_outer"),
 * eu-stack by the one that is not local: sframe perf must choose as perf.
 */
#define SFT_STR2(x) #x
#define SFT_STR(x) SFT_STR2(x)
#define SFT_CAT2(a, b) a##b
#define SFT_CAT(a, b) SFT_CAT2(a, b)

__attribute__((weak)) NOINLINE unsigned long LIB_OUTER(unsigned long n,
							unsigned long (*back)(unsigned long));
extern __typeof__(LIB_OUTER) SFT_CAT(__, LIB_OUTER)
	__attribute__((alias(SFT_STR(LIB_OUTER)), visibility("hidden")));

NOINLINE unsigned long LIB_OUTER(unsigned long n, unsigned long (*back)(unsigned long))
{
	unsigned long s = n + sft_sink;

	SFT_WORK(n, s);
	s += LIB_INNER(n);
	s += back(n);
	SFT_WORK(n, s);
	return s;
}
