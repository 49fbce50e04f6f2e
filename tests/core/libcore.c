/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * The shared library of prog-core.c (libcore.so, built with SFrame):
 * lib_outer -> lib_inner, then back into the program through the pointer
 * it was given, so that a thread's chain leaves the program, runs through
 * the library and comes back.  One name per function (no aliases): both
 * gdb and sframe have a single name to print.
 */
#include "work.h"

HIDDEN volatile unsigned long lib_sink;

NOINLINE unsigned long lib_inner(unsigned long n)
{
	unsigned long s = n + lib_sink;

	SFT_WORK(n, s);
	return s;
}

NOINLINE unsigned long lib_outer(unsigned long n, unsigned long (*back)(unsigned long))
{
	unsigned long s = n + lib_sink;

	SFT_WORK(n, s);
	s += lib_inner(n);
	s += back(n);
	SFT_WORK(n, s);
	return s;
}
