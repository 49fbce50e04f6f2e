/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * Deep recursion: main -> dive -> rec_plain -> rec_alloca -> rec_plain ...
 * down to a depth that changes from call to call (up to 90 levels); dive
 * tail-calls rec_plain, so its frame is gone by then and main is
 * rec_plain's caller in the stacks.
 * rec_plain has a fixed frame (its CFA is an offset from the stack
 * pointer); rec_alloca allocates a different size on every level, which
 * makes gcc address its frame from a frame pointer even under
 * -fomit-frame-pointer (the CFA from rbp). 90 levels stay within perf's
 * default 127-frame limit and well within a 16 KB stack copy.
 */
#include <alloca.h>
#include "work.h"

volatile unsigned long sft_sink;

NOINLINE unsigned long rec_alloca(unsigned long depth, unsigned long n);

NOINLINE unsigned long rec_plain(unsigned long depth, unsigned long n)
{
	unsigned long s = n + sft_sink;

	SFT_WORK(n, s);
	if (depth)
		s += rec_alloca(depth - 1, n);
	SFT_WORK(n, s);
	return s;
}

NOINLINE unsigned long rec_alloca(unsigned long depth, unsigned long n)
{
	size_t len = 16 + (depth * 40) % 200;
	volatile unsigned char *buf = alloca(len);
	unsigned long s = n + sft_sink;

	for (size_t i = 0; i < len; i++)
		buf[i] = (unsigned char)(s + i);
	SFT_WORK(n, s);
	if (depth)
		s += rec_plain(depth - 1, n);
	s += buf[len - 1];
	SFT_WORK(n, s);
	return s;
}

/* Each call one level deeper than the last, from 1 to 90 and around. */
NOINLINE unsigned long dive(unsigned long n)
{
	static unsigned long depth;

	depth = depth % 90 + 1;
	return rec_plain(depth, n);
}

int main(int argc, char **argv)
{
	printf("recurse: %lu dives\n", sft_loop(sft_budget(argc, argv), RUSAGE_SELF, dive, 200));
	return 0;
}
