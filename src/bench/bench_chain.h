/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * bench_chain.h - a call chain of known depth, assembled with SFrame
 * (-Wa,--gsframe) and frame pointers, for in-process unwinding benchmarks.
 *
 * bench_chain_run() calls through BENCH_CHAIN_DEPTH distinct functions
 * (itself included); the deepest captures its own PC, SP and FP and calls
 * @fn with them. While @fn runs, every frame of the chain is live above
 * the captured SP, so @fn can unwind it as often as it likes.
 */
#ifndef SFRAME_TOOL_BENCH_CHAIN_H
#define SFRAME_TOOL_BENCH_CHAIN_H

#include <stdint.h>

#define BENCH_CHAIN_DEPTH 32

struct bench_chain_regs {
	uint64_t pc;
	uint64_t sp;
	uint64_t fp;
};

typedef int (*bench_chain_fn)(void *ctx, const struct bench_chain_regs *regs);

/**
 * bench_chain_run() - run @fn at the bottom of the chain.
 * Return: @fn's result, or -1 when registers cannot be captured on this
 * architecture (then @fn is not called).
 */
int bench_chain_run(bench_chain_fn fn, void *ctx);

/* Whether bench_chain_run() can capture registers here. */
int bench_chain_supported(void);

/* The chain's code, in a section of its own: [start, end). */
uint64_t bench_chain_text_start(void);
uint64_t bench_chain_text_end(void);

#endif /* SFRAME_TOOL_BENCH_CHAIN_H */
