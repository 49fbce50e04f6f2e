/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * The shared library of prog-core.c (libcore.so, built with SFrame; linked
 * into the static builds): lib_outer -> lib_inner -> back into the program
 * through the pointer it was given, so that a thread's chain leaves the
 * program, runs through two library frames and comes back.  One name per
 * function (no aliases): gdb and sframe have a single name to print.
 */
#include "work.h"

HIDDEN volatile unsigned long lib_sink;

/* Returns to its caller by its own work, not a tail call, after the call back. */
NOINLINE unsigned long lib_inner(unsigned long n, unsigned long (*back)(unsigned long))
{
	unsigned long s = back(n) + lib_sink;

	return s * 3 + n;
}

NOINLINE unsigned long lib_outer(unsigned long n, unsigned long (*back)(unsigned long))
{
	unsigned long s = n ^ lib_sink;

	SFT_WORK(n, s);
	return lib_inner(n, back) + s;
}
