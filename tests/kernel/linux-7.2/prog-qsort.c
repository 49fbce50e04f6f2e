/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * prog-qsort.c - a program as distributions build them (no -Wa,--gsframe,
 * no frame pointers) that spends its time in the C library's qsort() and
 * in the comparison it calls back: a walk from a sample passes from cmp()
 * through the C library's msort to main. Its last quarter looks a symbol
 * up with dlsym() again and again, so that walks also start in ld.so's
 * symbol lookup, which libc's dlsym() calls. run.sh converts it, the C
 * library and ld.so with "sframe convert --elf" and runs it on those.
 * Usage: prog-qsort SECONDS
 */
/* RTLD_DEFAULT */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>

#include "work.h"

volatile unsigned long sft_sink;

__attribute__((noinline)) static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int main(int argc, char **argv)
{
	static int v[65536];
	double secs = argc > 1 ? atof(argv[1]) : 1;
	double end = sft_cpu_seconds(RUSAGE_SELF) + secs;
	unsigned int x = 1;
	int i;

	/*
	 * dlsym's first call binds its PLT slot through ld.so's lazy-binding
	 * trampoline, which realigns the stack and keeps its CFA in rbx: no
	 * SFrame walk can pass a frame whose CFA is neither SP nor FP, so the
	 * binding is done here, before run.sh's recording starts.
	 */
	sft_sink += (unsigned long)dlsym(RTLD_DEFAULT, "qsort");
	/* CPU time by getrusage(): the guest's tiny kernel has no POSIX timers. */
	while (sft_cpu_seconds(RUSAGE_SELF) < end - secs / 4) {
		for (i = 0; i < 65536; i++)
			v[i] = (int)((x = x * 1103515245u + 12345u) >> 8);
		qsort(v, 65536, sizeof(v[0]), cmp);
	}
	while (sft_cpu_seconds(RUSAGE_SELF) < end)
		for (i = 0; i < 1000; i++)
			sft_sink += (unsigned long)dlsym(RTLD_DEFAULT, "qsort");
	return 0;
}
