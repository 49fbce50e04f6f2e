/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * bench_chain.c - the call chain unwound by "sframe-bench unwind".
 *
 * Built on its own with -Wa,--gsframe (the assembler writes the SFrame
 * rows) and -fno-omit-frame-pointer (so that a plain frame-pointer walk is
 * valid over the same frames and can serve as the floor). The functions
 * live in their own section, so the bench knows which PCs are the chain's.
 */
#include "bench_chain.h"

#define CHAIN_SECTION "sframe_bench_chain"

/* Registers are captured on x86_64, when the build could add SFrame. */
#if defined(__x86_64__) && !defined(BENCH_CHAIN_NO_SFRAME)
#define CAN_CAPTURE 1
#endif

/* Neither inlined, cloned nor turned into tail calls: one frame each. */
#if defined(__clang__)
#define CHAIN_FN __attribute__((noinline, used, section(CHAIN_SECTION)))
#else
#define CHAIN_FN __attribute__((noipa, used, section(CHAIN_SECTION)))
#endif

extern const char __start_sframe_bench_chain[];
extern const char __stop_sframe_bench_chain[];

struct chain_arg {
	bench_chain_fn fn;
	void *ctx;
};

CHAIN_FN static int chain_bottom(struct chain_arg *a)
{
#ifdef CAN_CAPTURE
	struct bench_chain_regs regs;
	volatile int keep = 0;
	int r;

	/* PC, SP and FP at one instruction boundary of this function. */
	__asm__ volatile("lea 0(%%rip), %0\n\t"
			 "mov %%rsp, %1\n\t"
			 "mov %%rbp, %2"
			 : "=r"(regs.pc), "=r"(regs.sp), "=r"(regs.fp));
	r = a->fn(a->ctx, &regs);
	/* Not a tail call: this frame stays while fn runs. */
	return r + keep;
#else
	(void)a;
	return -1;
#endif
}

/*
 * Each link keeps a small array live across its call, of a size of its
 * own, so that frames differ; reading it after the call keeps the call
 * from being a tail call.
 */
#define LINK(n, next, words)						\
	CHAIN_FN static int chain_##n(struct chain_arg *a)		\
	{								\
		volatile uint64_t pad[words];				\
		int r;							\
									\
		pad[(words) - 1] = n;					\
		r = next(a);						\
		return pad[(words) - 1] == (n) ? r : -1;		\
	}

LINK(30, chain_bottom, 1)
LINK(29, chain_30, 2)
LINK(28, chain_29, 3)
LINK(27, chain_28, 40)
LINK(26, chain_27, 5)
LINK(25, chain_26, 1)
LINK(24, chain_25, 7)
LINK(23, chain_24, 8)
LINK(22, chain_23, 300)
LINK(21, chain_22, 2)
LINK(20, chain_21, 11)
LINK(19, chain_20, 12)
LINK(18, chain_19, 1)
LINK(17, chain_18, 14)
LINK(16, chain_17, 15)
LINK(15, chain_16, 16)
LINK(14, chain_15, 2)
LINK(13, chain_14, 18)
LINK(12, chain_13, 19)
LINK(11, chain_12, 20)
LINK(10, chain_11, 1)
LINK(9, chain_10, 22)
LINK(8, chain_9, 23)
LINK(7, chain_8, 24)
LINK(6, chain_7, 3)
LINK(5, chain_6, 26)
LINK(4, chain_5, 27)
LINK(3, chain_4, 28)
LINK(2, chain_3, 1)
LINK(1, chain_2, 30)

/* chain_1 .. chain_30, chain_bottom and this one: BENCH_CHAIN_DEPTH frames. */
CHAIN_FN int bench_chain_run(bench_chain_fn fn, void *ctx)
{
	struct chain_arg a = { fn, ctx };
	volatile int keep = 0;
	int r;

	if (!bench_chain_supported())
		return -1;
	r = chain_1(&a);
	return r + keep;
}

int bench_chain_supported(void)
{
#ifdef CAN_CAPTURE
	return 1;
#else
	return 0;
#endif
}

uint64_t bench_chain_text_start(void)
{
	return (uint64_t)(uintptr_t)__start_sframe_bench_chain;
}

uint64_t bench_chain_text_end(void)
{
	return (uint64_t)(uintptr_t)__stop_sframe_bench_chain;
}
