/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * Shared by the guest test programs: every function of a known call chain
 * does some work of its own, before and after its call, so that samples
 * land in every level and not only in the leaf.  NOINLINE keeps the chain
 * from being folded away (noclone: no renamed .constprop copies that the
 * checker would not know).
 */
#ifndef SFT_WORK_H
#define SFT_WORK_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#define NOINLINE __attribute__((noinline, noclone))
#define HIDDEN __attribute__((visibility("hidden")))

extern volatile unsigned long sft_sink;

/* A serial dependency on s, so that the loop is neither vectorised nor
 * replaced by a closed form. */
#define SFT_WORK(n, s)                                                   \
	do {                                                             \
		for (unsigned long i_ = 0; i_ < (n); i_++)               \
			(s) += (i_ * i_) ^ ((s) >> 3);                   \
	} while (0)

/*
 * CPU seconds of the process (RUSAGE_SELF) or of the calling thread
 * (RUSAGE_THREAD).  getrusage, not the CPU-time clocks of clock_gettime: a
 * tiny kernel may be built without POSIX timers.
 */
static inline double sft_cpu_seconds(int who)
{
	struct rusage ru;

	if (getrusage(who, &ru)) {
		perror("getrusage");
		exit(2);
	}
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/*
 * The chain's functions read the volatile sft_sink: a function the compiler
 * found to be const would be called once for a whole loop of calls.
 */

/*
 * The frame-pointer build (SFT_LEAF_FRAME) must set up a frame in leaf
 * functions too, or a frame-pointer walk from a leaf skips its caller;
 * gcc 16 leaves it out of a leaf without stack use even with
 * -mno-omit-leaf-frame-pointer, but not when the function asks for its
 * frame's address.
 */
#ifdef SFT_LEAF_FRAME
#define SFT_FRAME() __asm__ volatile("" : : "r"(__builtin_frame_address(0)))
#else
#define SFT_FRAME() ((void)0)
#endif

/* A leaf of a chain: work only, K times as much as a level. */
#define SFT_LEAF(attrs, name, k)                                         \
	attrs NOINLINE unsigned long name(unsigned long n)               \
	{                                                                \
		unsigned long s = n + sft_sink;                          \
		SFT_FRAME();                                             \
		SFT_WORK((k) * n, s);                                    \
		return s;                                                \
	}

/* A level of a chain: work, the call (not a tail call), work. */
#define SFT_LEVEL(attrs, name, callee)                                   \
	attrs NOINLINE unsigned long name(unsigned long n)               \
	{                                                                \
		unsigned long s = n + sft_sink;                          \
		SFT_WORK(n, s);                                          \
		s += callee(n);                                          \
		SFT_WORK(n, s);                                          \
		return s;                                                \
	}

/*
 * Calls FN(N) until the CPU time of WHO reaches BUDGET; returns the rounds.
 * Always inlined: the caller (main) stays FN's caller in the chain.
 */
static inline __attribute__((always_inline)) unsigned long
sft_loop(double budget, int who, unsigned long (*fn)(unsigned long), unsigned long n)
{
	unsigned long rounds = 0;

	while (sft_cpu_seconds(who) < budget) {
		sft_sink += fn(n);
		rounds++;
	}
	return rounds;
}

/* The CPU seconds to run for: argv[1], or 0.5. */
static inline double sft_budget(int argc, char **argv)
{
	return argc > 1 ? strtod(argv[1], NULL) : 0.5;
}

#endif
