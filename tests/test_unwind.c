/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_unwind.c - the unwinder (sframe_unwind.h) on hand-built sections and
 * synthetic stacks: what no single ABI owns. The frame-pointer fallback,
 * signal frames, the sanity rules (the CFA must rise, no zero RA, aligned
 * reads), the depth limit, arguments, and every stack or section read
 * failing in turn.
 *
 * The sections, stacks and walk() are unwind_fixture.h's; so are the rules
 * every expected value follows.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "unwind_fixture.h"

/* ---- Frame-pointer fallback ---------------------------------------------- */

/*
 * FP fallback through code without SFrame (M_NOSF):
 * frame 0  leaf (SFrame), sp S0, fp STK+0x200: RA at S0 -> X_NOSF+0x110.
 * frame 1  X_NOSF+0x110, sp S0+8, fp STK+0x200 (unchanged). No SFrame:
 *          [fp] = STK+0x240 caller fp, [fp+8] = X_NOSF+0x290 RA, CFA = fp+16.
 * frame 2  X_NOSF+0x290, sp STK+0x210, fp STK+0x240: [fp] = 0, [fp+8] =
 *          X_NOSF+0x310, CFA = STK+0x250.
 * frame 3  X_NOSF+0x310, sp STK+0x250, fp 0: a zero FP ends the chain.
 */
static struct sframe_regs amd64_fp_chain(void)
{
	put64(S0, X_NOSF + 0x110);
	put64(STK + 0x200, STK + 0x240);
	put64(STK + 0x208, X_NOSF + 0x290);
	put64(STK + 0x240, 0);
	put64(STK + 0x248, X_NOSF + 0x310);
	return mkregs(X_LEAF + 4, S0, STK + 0x200, 0, V_PSF);
}

static void test_amd64_fp_fallback(void **state)
{
	struct sframe_regs r = amd64_fp_chain();
	const struct xf x[4] = {
		{ X_LEAF + 4, S0, STK + 0x200, S0 + 8, V_PSF, F_TOP, M_AMD },
		/* No SFrame for its PC: NO_SFRAME; it was found by SFrame. */
		{ X_NOSF + 0x110, S0 + 8, STK + 0x200, STK + 0x210, V_PSF, F_NOSF, M_NOSF },
		/* Found by the fallback, and itself without SFrame. */
		{ X_NOSF + 0x290, STK + 0x210, STK + 0x240, STK + 0x250, V_PSF,
		  F_FPFB | F_NOSF, M_NOSF },
	};

	(void)state;
	u.flags = SFRAME_UNWIND_FP_FALLBACK;
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 4);
	EXPECT_FRAMES(x, 3);
	/* Frame 3: found by the fallback, fp 0 ends the walk. */
	assert_int_equal(fr[3].pc, X_NOSF + 0x310);
	assert_int_equal(fr[3].sp, STK + 0x250);
	assert_int_equal(fr[3].fp, 0);
	assert_true(fr[3].flags & F_FPFB);
	assert_int_equal(fr[3].cfa, 0);
	assert_ptr_equal(fr[3].module, M_NOSF);
}

static void test_amd64_fp_fallback_last_frame_no_sframe(void **state)
{
	struct sframe_regs r = amd64_fp_chain();

	(void)state;
	/*
	 * Frame 3's PC is in M_NOSF (no section at all): "no SFrame row
	 * describes this PC" holds for it as for frames 1 and 2, so it
	 * carries SFRAME_FRAME_NO_SFRAME too, even though the walk ended
	 * cleanly (fp 0) instead of failing.
	 */
	u.flags = SFRAME_UNWIND_FP_FALLBACK;
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 4);
	assert_int_equal(fr[3].flags, F_FPFB | F_NOSF);
}

static void test_amd64_fp_fallback_read_error(void **state)
{
	struct sframe_regs r = amd64_fp_chain();
	unsigned k;

	(void)state;
	/*
	 * The fallback's RA read ([fp+8] = STK+0x208, step 1) fails with -5:
	 * the walk ends with -5 after frames 0 and 1.
	 */
	u.flags = SFRAME_UNWIND_FP_FALLBACK;
	stk.calls = 0;
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	for (k = 1; k <= stk.calls && stk.log[k - 1] != STK + 0x208; k++)
		;
	assert_true(k <= stk.calls);
	stk.calls = 0;
	stk.fail_at = k;
	stk.fail_err = EIO_ERR;
	assert_err(walk(&r, 16), EIO_ERR);
	assert_int_equal(nfr, 2);
	assert_int_equal(fr[1].pc, X_NOSF + 0x110);
	assert_int_equal(fr[1].cfa, 0);
	assert_int_equal(fr[0].cfa, S0 + 8);
}

static void test_amd64_fp_fallback_off(void **state)
{
	struct sframe_regs r = amd64_fp_chain();

	(void)state;
	/* Without SFRAME_UNWIND_FP_FALLBACK: NOT_FOUND at frame 1. */
	assert_err(walk(&r, 16), -SFRAME_ERR_NOT_FOUND);
	assert_int_equal(nfr, 2);
	assert_int_equal(fr[1].flags, F_NOSF);
	assert_int_equal(fr[1].cfa, 0);
	assert_int_equal(fr[0].cfa, S0 + 8);
}

static void test_amd64_fp_fallback_gap_then_sframe(void **state)
{
	struct sframe_regs r;

	(void)state;
	/*
	 * Leaf returns into the gap after X_LEAF (a module with a section
	 * but no FDE): the fallback reads [fp] = S0+0x38 (caller fp), [fp+8]
	 * = X_OUTER_RA, CFA = fp+16 = STK+0x210. Back in SFrame code, outer's
	 * row FP+16 gives CFA S0+0x48 from fp S0+0x38.
	 */
	put64(S0, X_LEAF + 0x40);
	put64(STK + 0x200, S0 + 0x38);
	put64(STK + 0x208, X_OUTER_RA);
	put64(S0 + 0x38, 0);
	put64(S0 + 0x40, X_START_RA);
	r = mkregs(X_LEAF + 4, S0, STK + 0x200, 0, V_PSF);
	u.flags = SFRAME_UNWIND_FP_FALLBACK;
	/*
	 * outer's CFA (S0+0x48 = STK+0x148) is below the fallback frame's CFA
	 * (STK+0x210): the CFA must rise, so this is BAD_CFA at frame 2.
	 */
	assert_err(walk(&r, 16), -SFRAME_ERR_BAD_CFA);
	assert_int_equal(nfr, 3);
	assert_int_equal(fr[1].flags, F_NOSF);
	assert_int_equal(fr[1].cfa, STK + 0x210);
	assert_int_equal(fr[2].pc, X_OUTER_RA);
	assert_int_equal(fr[2].sp, STK + 0x210);
	assert_int_equal(fr[2].fp, S0 + 0x38);
	assert_int_equal(fr[2].flags, F_FPFB);

	/* Same with outer's frame record above: fp = STK+0x300. */
	put64(STK + 0x200, STK + 0x300);
	put64(STK + 0x300, 0x4444);
	put64(STK + 0x308, X_START_RA);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 4);
	{
		const struct xf x[4] = {
			{ X_LEAF + 4, S0, STK + 0x200, S0 + 8, V_PSF, F_TOP, M_AMD },
			{ X_LEAF + 0x40, S0 + 8, STK + 0x200, STK + 0x210, V_PSF, F_NOSF, M_AMD },
			/* SFrame again: CFA = fp + 16, RA at CFA-8, FP at CFA-16. */
			{ X_OUTER_RA, STK + 0x210, STK + 0x300, STK + 0x310, V_PSF, F_FPFB, M_AMD },
			{ X_START_RA, STK + 0x310, 0x4444, 0, V_PSF, 0, M_AMD },
		};
		EXPECT_FRAMES(x, 4);
	}
}

/*
 * A frame found after the frame-pointer fallback whose CFA equals the
 * fallback frame's: not above it, so BAD_CFA. The walks with a window
 * (cross_check()) step that frame in their own loop, the fallback's step
 * just before it: their first CFA bound there comes from that step's CFA,
 * not from the SP (here equal to it).
 */
static void test_amd64_fp_fallback_then_same_cfa(void **state)
{
	struct sframe_regs r;

	(void)state;
	/*
	 * As above: frame 1 (the gap) by the fallback, CFA = fp + 16 =
	 * STK+0x210, RA X_OUTER_RA, its caller's FP [fp] = STK+0x200 again
	 * (a self-pointing record). outer's row FP+16: CFA STK+0x210 again.
	 */
	put64(S0, X_LEAF + 0x40);
	put64(STK + 0x200, STK + 0x200);
	put64(STK + 0x208, X_OUTER_RA);
	r = mkregs(X_LEAF + 4, S0, STK + 0x200, 0, V_PSF);
	u.flags = SFRAME_UNWIND_FP_FALLBACK;
	assert_err(walk(&r, 16), -SFRAME_ERR_BAD_CFA);
	assert_int_equal(nfr, 3);
	assert_int_equal(fr[1].cfa, STK + 0x210);
	assert_int_equal(fr[2].pc, X_OUTER_RA);
	assert_int_equal(fr[2].sp, STK + 0x210);
	assert_int_equal(fr[2].fp, STK + 0x200);
	assert_int_equal(fr[2].cfa, 0);
}

static void test_a64_fp_fallback_signed(void **state)
{
	struct sframe_regs r = mkregs(Y_L + 4, STK + 0x100, STK + 0x200, Y_NOSF + 0x10, V_ALL);
	const struct xf x[3] = {
		{ Y_L + 4, STK + 0x100, STK + 0x200, STK + 0x100, V_ALL, F_TOP, M_A64 },
		/* No SFrame: frame record at fp: [fp] = 0, [fp+8] = signed RA;
		 * CFA = fp + 16. */
		{ Y_NOSF + 0x10, STK + 0x100, STK + 0x200, STK + 0x210, V_PSF, F_NOSF, &slots[1] },
		/* The RA from the frame record is stripped too (va_bits 48). */
		{ Y_S_RA, STK + 0x210, 0, 0, V_PSF, F_FPFB | F_SIGNED, M_A64 },
	};

	(void)state;
	assert_err(sframe_modules_add(&mt, Y_NOSF, Y_NOSF + 0x1000, NULL, NULL), 0);
	u.flags = SFRAME_UNWIND_FP_FALLBACK;
	put64(STK + 0x200, 0);
	put64(STK + 0x208, sign48(Y_S_RA));
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 3);
	EXPECT_FRAMES(x, 3);
}

/* ---- amd64 signal frame ---------------------------------------------------- */

#define UC	(S0 + 8 + 40)	/* uc_mcontext of the ucontext at the trampoline's SP */

/*
 * frame 0  handler (SP+8), sp S0: RA at S0 = X_TRAMP, the trampoline's first
 *          instruction (PC - 1 is in the gap before it).
 * frame 1  X_TRAMP, sp S0+8: zero-FRE signal FDE. The ucontext is at sp;
 *          uc_mcontext at +40 = UC, registers r8..r15, rdi, rsi, rbp, rbx,
 *          rdx, rax, rcx, rsp, rip: slot i at UC + 8*i. Each slot holds a
 *          distinct value, so a wrong slot shows.
 *          rip (16) = X_G, rsp (15) = STK+0x300, rbp (10) = 0xb0b0,
 *          r10 (slot 2) = STK+0x3f8.
 * frame 2  X_G, interrupted: looked up exactly (at PC - 1 it would be X_H).
 *          FLEX CFA = r10 + 8 = STK+0x400, r10 read from the ucontext
 *          (DWARF 10 = r10); RA at STK+0x3f8 = X_START_RA.
 * frame 3  X_START_RA, sp STK+0x400, fp 0xb0b0 (unchanged): END.
 */
static struct sframe_regs amd64_signal_stack(void)
{
	unsigned i;

	put64(S0, X_TRAMP);
	for (i = 0; i < 17; i++)
		put64(UC + 8 * i, STK + 0x800 + 0x10 * i);
	put64(UC + 8 * 16, X_G);
	put64(UC + 8 * 15, STK + 0x300);
	put64(UC + 8 * 10, 0xb0b0);
	put64(UC + 8 * 2, STK + 0x3f8);
	put64(STK + 0x3f8, X_START_RA);
	put64(STK + 0x300, 0);		/* what X_H's row would read as RA */
	return mkregs(X_HANDLER + 4, S0, FP0, 0, V_PSF);
}

static void test_amd64_signal_frame(void **state)
{
	struct sframe_regs r = amd64_signal_stack();
	const struct xf x[4] = {
		{ X_HANDLER + 4, S0, FP0, S0 + 8, V_PSF, F_TOP, M_AMD },
		/* The trampoline: SIGNAL. Its step computes no CFA. */
		{ X_TRAMP, S0 + 8, FP0, 0, V_PSF, F_SIG, M_AMD },
		{ X_G, STK + 0x300, 0xb0b0, STK + 0x400, V_PSF, F_INT, M_AMD },
		{ X_START_RA, STK + 0x400, 0xb0b0, 0, V_PSF, 0, M_AMD },
	};

	(void)state;
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 4);
	EXPECT_FRAMES(x, 4);
}

static void test_amd64_signal_cursor(void **state)
{
	struct sframe_regs r = amd64_signal_stack();
	struct sframe_cursor c;

	(void)state;
	assert_err(sframe_unwind_init(&u, &c, &r), 0);
	assert_err(sframe_unwind_step(&u, &c), 0);
	assert_err(sframe_unwind_step(&u, &c), 0);
	/* After the trampoline: interrupted registers, prev_cfa reset (the
	 * handler may have run on another stack), SIGNAL learnt of frame 1. */
	assert_int_equal(c.regs.pc, X_G);
	assert_int_equal(c.regs.sp, STK + 0x300);
	assert_int_equal(c.regs.fp, 0xb0b0);
	assert_int_equal(c.flags, F_INT);
	assert_int_equal(c.prev_flags, F_SIG);
	assert_int_equal(c.prev_cfa, 0);
	assert_int_equal(c.sigctx, UC);
	assert_int_equal(c.depth, 2);
}

static void test_amd64_signal_r10_only_in_interrupted_frame(void **state)
{
	struct sframe_regs r = amd64_signal_stack();

	(void)state;
	/*
	 * X_G's RA now points into X_R10 (CFA = r10): r10 of that frame is
	 * neither in a ucontext nor topmost: NO_REG at frame 3.
	 */
	put64(STK + 0x3f8, X_R10 + 0x10);
	assert_err(walk(&r, 16), -SFRAME_ERR_NO_REG);
	assert_int_equal(nfr, 4);
	assert_int_equal(fr[3].pc, X_R10 + 0x10);
	assert_int_equal(fr[2].cfa, STK + 0x400);
}

static void test_a64_signal_unsupported(void **state)
{
	struct sframe_regs r = mkregs(Y_L + 4, STK + 0x100, 0, Y_TRAMP, V_PS | SFRAME_REG_RA);

	(void)state;
	/*
	 * aarch64 leaf returns (x30) to its zero-FRE signal trampoline's first
	 * instruction: found at the exact PC, but no signal frame layout is
	 * known on aarch64: UNSUPPORTED at frame 1.
	 */
	assert_err(walk(&r, 16), -SFRAME_ERR_UNSUPPORTED);
	assert_int_equal(nfr, 2);
	assert_int_equal(fr[1].pc, Y_TRAMP);
	assert_int_equal(fr[0].cfa, STK + 0x100);
}

static void test_a64_signal_fde_with_rows(void **state)
{
	struct sframe_regs r = mkregs(Y_L + 4, STK + 0x100, A_FP0, Y_TRAMP2, V_ALL);
	const struct xf x[4] = {
		{ Y_L + 4, STK + 0x100, A_FP0, STK + 0x100, V_ALL, F_TOP, M_A64 },
		/* A signal FDE with rows: its row gives the interrupted
		 * registers (CFA sp+64, PC at CFA-56, FP at CFA-64); the
		 * trampoline frame is SIGNAL. */
		{ Y_TRAMP2, STK + 0x100, A_FP0, STK + 0x140, V_PSF, F_SIG, M_A64 },
		/* The interrupted PC Y_G+4 is looked up exactly: row @4 (FP+16).
		 * At PC - 1 it would be row @0 (RA in x30, unknown: NO_REG). */
		{ Y_G + 4, STK + 0x140, STK + 0x1f0, STK + 0x200, V_PSF, F_INT, M_A64 },
		{ Y_S_RA, STK + 0x200, 0, 0, V_PSF, 0, M_A64 },
	};

	(void)state;
	/* Leaf returns (x30) to the trampoline's first instruction. */
	put64(STK + 0x108, Y_G + 4);
	put64(STK + 0x100, STK + 0x1f0);
	put64(STK + 0x1f8, Y_S_RA);
	put64(STK + 0x1f0, 0);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 4);
	EXPECT_FRAMES(x, 4);
}

/* ---- Sanity checks --------------------------------------------------------- */

static void test_bad_cfa_loop(void **state)
{
	struct sframe_regs r = mkregs(X_LOOP + 8, STK + 0xf0, STK + 0x100, 0, V_PSF);

	(void)state;
	/*
	 * X_LOOP: CFA = fp + 16, RA at CFA-8, FP at CFA-16. A self-pointing
	 * frame record ([fp] = fp) and an RA back into X_LOOP: frame 1 gets
	 * the same fp, so the same CFA STK+0x110, not above the previous:
	 * BAD_CFA (instead of looping until the depth bound).
	 */
	put64(STK + 0x100, STK + 0x100);
	put64(STK + 0x108, X_LOOP + 0x10);
	assert_err(walk(&r, 16), -SFRAME_ERR_BAD_CFA);
	assert_int_equal(nfr, 2);
	assert_int_equal(fr[0].cfa, STK + 0x110);
	assert_int_equal(fr[1].pc, X_LOOP + 0x10);
	assert_int_equal(fr[1].sp, STK + 0x110);
	assert_int_equal(fr[1].cfa, 0);
}

static void test_bad_cfa_misaligned(void **state)
{
	struct sframe_regs r = mkregs(X_MISAL, S0, FP0, 0, V_PSF);

	(void)state;
	/* CFA = sp + 12: not 8-byte aligned. */
	put64(S0 + 8, X_START_RA);
	assert_err(walk(&r, 16), -SFRAME_ERR_BAD_CFA);
	assert_int_equal(nfr, 1);
	/* An aligned rule on a misaligned SP: CFA = sp+4+8, misaligned too. */
	r = mkregs(X_LEAF, S0 + 4, FP0, 0, V_PSF);
	assert_err(walk(&r, 16), -SFRAME_ERR_BAD_CFA);
	assert_int_equal(nfr, 1);
}

static void test_bad_ra_zero(void **state)
{
	struct sframe_regs r = mkregs(X_LEAF, S0, FP0, 0, V_PSF);

	(void)state;
	/* RA slot holds 0: BAD_RA, frame 0 only. */
	put64(S0, 0);
	assert_err(walk(&r, 16), -SFRAME_ERR_BAD_RA);
	assert_int_equal(nfr, 1);
	assert_int_equal(fr[0].cfa, 0);
}

static void test_stack_reads_aligned(void **state)
{
	struct sframe_regs r;
	int ret;

	(void)state;
	/*
	 * struct sframe_unwinder: @read_stack "reads stack memory (8-byte
	 * values at 8-byte-aligned addresses)". A hostile FP value (rbp is a
	 * scratch register in code without frame pointers) must not become a
	 * misaligned read: X_DRAP's CFA rule *(fp - 40) with fp = S0 + 0x84,
	 * X_FPRULE's FP rule *(fp + 0) with fp = S0 + 4. Whatever the walk
	 * then returns, the callback sees no misaligned address.
	 */
	r = mkregs(X_DRAP + 0x10, S0, S0 + 0x84, 0, V_PSF);
	ret = walk(&r, 16);
	if (stk.misaligned)
		print_error("X_DRAP, fp misaligned: %u misaligned read(s), first at 0x%llx; walk %s\n",
			    stk.misaligned, (unsigned long long)stk.log[0], sframe_errname(ret));
	assert_int_equal(stk.misaligned, 0);
	stk.calls = 0;
	put64(S0 + 8, X_START_RA);
	r = mkregs(X_FPRULE + 4, S0, S0 + 4, 0, V_PSF);
	ret = walk(&r, 16);
	if (stk.misaligned)
		print_error("X_FPRULE, fp misaligned: %u misaligned read(s); walk %s\n",
			    stk.misaligned, sframe_errname(ret));
	assert_int_equal(stk.misaligned, 0);
}

/* X_REC calling itself: every frame CFA = sp + 16, RA X_REC_RA at sp + 8. */
static struct sframe_regs recursion(unsigned frames)
{
	unsigned i;

	for (i = 0; i < frames; i++)
		put64(S0 + 16 * i + 8, X_REC_RA);
	return mkregs(X_REC + 0x20, S0, FP0, 0, V_PSF);
}

static void test_depth_limit(void **state)
{
	struct sframe_regs r = recursion(300);
	unsigned i;

	(void)state;
	/* max_depth 3: at most 3 frames, then DEPTH. */
	u.max_depth = 3;
	assert_err(walk(&r, 16), -SFRAME_ERR_DEPTH);
	assert_int_equal(nfr, 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(fr[i].sp, S0 + 16 * i);
		assert_int_equal(fr[i].pc, i ? X_REC_RA : X_REC + 0x20);
	}
	/* max_depth 1: the topmost frame only. */
	u.max_depth = 1;
	assert_err(walk(&r, 16), -SFRAME_ERR_DEPTH);
	assert_int_equal(nfr, 1);
	/* A frame array shorter than the bound: FULL first. */
	u.max_depth = 10;
	assert_err(walk(&r, 5), SFRAME_UNWIND_FULL);
	assert_int_equal(nfr, 5);
}

static void test_depth_default(void **state)
{
	struct sframe_regs r = recursion(300);

	(void)state;
	/* max_depth 0 = SFRAME_UNWIND_DEFAULT_DEPTH (256) frames. */
	u.max_depth = 0;
	assert_err(walk(&r, ARRAY_SIZE(fr)), -SFRAME_ERR_DEPTH);
	assert_int_equal(nfr, SFRAME_UNWIND_DEFAULT_DEPTH);
	assert_int_equal(fr[255].sp, S0 + 16 * 255);
	assert_int_equal(fr[255].pc, X_REC_RA);
	assert_int_equal(fr[254].cfa, S0 + 16 * 255);
}

static void test_abi_mismatch(void **state)
{
	struct sframe_regs r = mkregs(Y_L + 4, STK + 0x100, 0, Y_F_RA, V_ALL);

	(void)state;
	/* An aarch64-LE section in the table of an amd64 walk: ABI. */
	build_a64(SFRAME_ABI_AARCH64_LE);
	assert_err(sframe_modules_add(&mt, Y_L, Y_MOD_END, &a64.sec, NULL), 0);
	assert_err(walk(&r, 16), -SFRAME_ERR_ABI);
	assert_int_equal(nfr, 1);
	/* aarch64-BE walk, aarch64-LE section: another ABI too. */
	u.abi = SFRAME_ABI_AARCH64_BE;
	assert_err(walk(&r, 16), -SFRAME_ERR_ABI);
	assert_int_equal(nfr, 1);
	/* The matching ABI works. */
	u.abi = SFRAME_ABI_AARCH64_LE;
	stk.be = false;
	put64(STK + 0x108, Y_S_RA);
	put64(STK + 0x100, 0);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 3);
}

/* Only a window, no callback: reads outside it fail with READ. */
static void test_stack_window_only(void **state)
{
	struct sframe_regs r = amd64_three_frames(X_START_RA);
	struct xf x[4];

	(void)state;
	amd64_three_frames_expect(x, X_START_RA);
	u.read_stack = NULL;
	u.stack_data = stk.mem;
	u.stack_addr = stk.base;
	u.stack_len = STK_SIZE;
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	EXPECT_FRAMES(x, 4);
	assert_int_equal(stk.calls, 0);
	/* The window ends before frame 2's RA slot (S0 + 0x10 .. + 0x18). */
	u.stack_len = S0 + 0x14 - STK;
	assert_err(walk(&r, 16), -SFRAME_ERR_READ);
	assert_int_equal(nfr, 2);
	/* Neither a window nor a callback: unusable. */
	u.stack_data = NULL;
	assert_err(walk(&r, 16), -SFRAME_ERR_INVAL);
}

static void test_pcs_args(void **state)
{
	struct sframe_regs r = amd64_three_frames(X_START_RA);
	uint64_t pcs[4];
	uint32_t n = 7;

	(void)state;
	assert_err(sframe_unwind_pcs(&u, &r, pcs, 4, NULL), -SFRAME_ERR_INVAL);
	assert_err(sframe_unwind_pcs(&u, &r, NULL, 4, &n), -SFRAME_ERR_INVAL);
	assert_int_equal(n, 0);
	assert_err(sframe_unwind_pcs(&u, &r, NULL, 0, &n), SFRAME_UNWIND_FULL);
	assert_err(sframe_unwind_pcs(NULL, &r, pcs, 4, &n), -SFRAME_ERR_INVAL);
	assert_err(sframe_unwind_pcs(&u, &r, pcs, 2, &n), SFRAME_UNWIND_FULL);
	assert_int_equal(n, 2);
	assert_int_equal(pcs[1], X_MID + 0x40);
}

static void test_init_inval(void **state)
{
	struct sframe_cursor c;
	struct sframe_regs r = mkregs(X_LEAF, S0, FP0, 0, V_PSF);
	struct sframe_unwinder bad;

	(void)state;
	assert_err(sframe_unwind_init(&u, &c, &r), 0);
	/* PC and SP are required. */
	r.valid = SFRAME_REG_SP | SFRAME_REG_FP;
	assert_err(sframe_unwind_init(&u, &c, &r), -SFRAME_ERR_INVAL);
	r.valid = SFRAME_REG_PC | SFRAME_REG_FP | SFRAME_REG_RA;
	assert_err(sframe_unwind_init(&u, &c, &r), -SFRAME_ERR_INVAL);
	r.valid = 0;
	assert_err(sframe_unwind_init(&u, &c, &r), -SFRAME_ERR_INVAL);
	assert_err(walk(&r, 16), -SFRAME_ERR_INVAL);
	assert_int_equal(nfr, 0);
	r.valid = V_PS;
	assert_err(sframe_unwind_init(&u, &c, &r), 0);
	/* NULL arguments, an unknown ABI, no read callback. */
	assert_err(sframe_unwind_init(NULL, &c, &r), -SFRAME_ERR_INVAL);
	assert_err(sframe_unwind_init(&u, NULL, &r), -SFRAME_ERR_INVAL);
	assert_err(sframe_unwind_init(&u, &c, NULL), -SFRAME_ERR_INVAL);
	bad = u;
	bad.abi = 0;
	assert_err(sframe_unwind_init(&bad, &c, &r), -SFRAME_ERR_INVAL);
	bad = u;
	bad.read_stack = NULL;
	assert_err(sframe_unwind_init(&bad, &c, &r), -SFRAME_ERR_INVAL);
}

/* ---- Read errors ----------------------------------------------------------- */

/* A read whose failure only loses the caller's FP. */
struct fp_case {
	uint64_t addr;		/* the FP slot */
	int ret;		/* how the walk ends then */
	uint32_t count;		/* frames stored */
	uint32_t lost;		/* the frame flagged FP_LOST */
};

/*
 * @a from a failed walk against @b from the reference walk. When @cfa is
 * false, @a is the frame whose step failed: besides its CFA it lacks what
 * only a successful step learns about it (SIGNAL, NO_SFRAME).
 */
static bool frame_eq(const struct sframe_frame *a, const struct sframe_frame *b, bool cfa)
{
	uint32_t learnt = cfa ? 0 : F_SIG | F_NOSF;

	return a->pc == b->pc && a->sp == b->sp && a->valid == b->valid &&
	       (a->flags & ~learnt) == (b->flags & ~learnt) && a->module == b->module &&
	       (!(a->valid & SFRAME_REG_FP) || a->fp == b->fp) && (!cfa || a->cfa == b->cfa);
}

/* Which step of the walk (0-based) made each read of *@calls. */
static void map_steps(const struct sframe_regs *r, const unsigned *calls, unsigned *step_of,
		      unsigned max)
{
	struct sframe_cursor c;
	unsigned s, k, before;
	int ret = 0;

	assert_err(sframe_unwind_init(&u, &c, r), 0);
	for (s = 0; s < 64; s++) {
		before = *calls;
		ret = sframe_unwind_step(&u, &c);
		for (k = before; k < *calls && k < max; k++)
			step_of[k] = s;
		if (ret)
			break;
	}
	assert_err(ret, SFRAME_UNWIND_END);
}

/*
 * Fail the k-th stack read with -5 for every k of the walk from @r. The walk
 * returns -5 with the frames up to the failing step stored and correct,
 * unless the read was an FP slot in @fc: then that caller's FP is unknown.
 */
static void stack_read_failures(const struct sframe_regs *r, const struct fp_case *fc,
				size_t nfc)
{
	static struct sframe_frame ref[16];
	uint64_t addrs[LOG_MAX];
	unsigned step_of[LOG_MAX], total, k, s, i, nfound = 0;
	uint32_t nref;
	size_t j;
	int ret;

	stk.fail_at = 0;
	stk.calls = 0;
	assert_err(sframe_unwind_stack(&u, r, ref, 16, &nref), SFRAME_UNWIND_END);
	total = stk.calls;
	assert_true(total > 0 && total <= LOG_MAX);
	memcpy(addrs, stk.log, sizeof(addrs[0]) * total);
	stk.calls = 0;
	map_steps(r, &stk.calls, step_of, LOG_MAX);
	assert_int_equal(stk.calls, total);

	for (k = 1; k <= total; k++) {
		const struct fp_case *f = NULL;

		for (j = 0; j < nfc; j++)
			if (fc[j].addr == addrs[k - 1])
				f = &fc[j];
		nfound += f != NULL;
		stk.calls = 0;
		stk.fail_at = k;
		stk.fail_err = EIO_ERR;
		ret = walk(r, 16);
		stk.fail_at = 0;
		if (!f) {
			s = step_of[k - 1];
			if (ret != EIO_ERR || nfr != s + 1) {
				print_error("read %u (0x%llx, step %u): ret %d (%s) count %u, expected -5, %u\n",
					    k, (unsigned long long)addrs[k - 1], s, ret,
					    sframe_errname(ret), nfr, s + 1);
				fail();
			}
			for (i = 0; i <= s; i++)
				if (!frame_eq(&fr[i], &ref[i], i < s)) {
					print_error("read %u: frame %u differs\n", k, i);
					fail();
				}
			assert_int_equal(fr[s].cfa, 0);
		} else {
			if (ret != f->ret || nfr != f->count) {
				print_error("FP read %u (0x%llx): ret %d (%s) count %u, expected %d, %u\n",
					    k, (unsigned long long)f->addr, ret, sframe_errname(ret),
					    nfr, f->ret, f->count);
				fail();
			}
			for (i = 0; i < f->lost; i++)
				if (!frame_eq(&fr[i], &ref[i], true)) {
					print_error("FP read %u: frame %u differs\n", k, i);
					fail();
				}
			assert_true(fr[f->lost].flags & F_LOST);
			assert_false(fr[f->lost].valid & SFRAME_REG_FP);
			for (i = f->lost; i < nfr; i++) {
				assert_int_equal(fr[i].pc, ref[i].pc);
				assert_int_equal(fr[i].sp, ref[i].sp);
			}
		}
	}
	/* Every FP case was one of the walk's reads. */
	assert_int_equal(nfound, nfc);
}

static void test_stack_read_fail_amd64(void **state)
{
	struct sframe_regs r = amd64_three_frames(X_START_RA);
	/*
	 * mid's FP slot S0+8 holds outer's fp; without it outer's FP+16 CFA
	 * cannot be computed: NO_REG after frame 2. outer's FP slot S0+0x38
	 * only loses frame 3's FP: the walk still ends.
	 */
	const struct fp_case fc[] = {
		{ S0 + 0x08, -SFRAME_ERR_NO_REG, 3, 2 },
		{ S0 + 0x38, SFRAME_UNWIND_END, 4, 3 },
	};

	(void)state;
	stack_read_failures(&r, fc, ARRAY_SIZE(fc));
}

static void test_stack_read_fail_drap(void **state)
{
	struct sframe_regs r;
	/*
	 * The DRAP walk: CFA deref, RA, FP *(fp+0) in step 0; outer's RA and
	 * FP in step 1. Losing the FP of step 0 makes outer's CFA
	 * uncomputable (NO_REG); losing outer's only loses frame 2's FP.
	 */
	const struct fp_case fc[] = {
		{ STK + 0x180, -SFRAME_ERR_NO_REG, 2, 1 },
		{ STK + 0x1f0, SFRAME_UNWIND_END, 3, 2 },
	};

	(void)state;
	put64(STK + 0x158, STK + 0x1c0);
	put64(STK + 0x1b8, X_OUTER_RA);
	put64(STK + 0x180, STK + 0x1f0);
	put64(STK + 0x1f0, 0x7777);
	put64(STK + 0x1f8, X_START_RA);
	r = mkregs(X_DRAP + 0x10, S0, STK + 0x180, 0, V_PSF);
	stack_read_failures(&r, fc, ARRAY_SIZE(fc));
}

static void test_stack_read_fail_a64(void **state)
{
	struct sframe_regs r = a64_stack(false, NULL);
	/* As on amd64: Y_G's CFA is FP-based. */
	const struct fp_case fc[] = {
		{ STK + 0x100, -SFRAME_ERR_NO_REG, 3, 2 },
		{ STK + 0x130, SFRAME_UNWIND_END, 4, 3 },
	};

	(void)state;
	stack_read_failures(&r, fc, ARRAY_SIZE(fc));
}

static void test_stack_read_fail_s390(void **state)
{
	struct sframe_regs r = s390_stack();
	/* Z_G's CFA is SP-based: losing either FP never stops the walk. */
	const struct fp_case fc[] = {
		{ Z_S0 + 0x58, SFRAME_UNWIND_END, 3, 1 },
		{ Z_S0 + 0xf8, SFRAME_UNWIND_END, 3, 2 },
	};

	(void)state;
	stack_read_failures(&r, fc, ARRAY_SIZE(fc));
}

static void test_stack_read_fail_signal(void **state)
{
	struct sframe_regs r = amd64_signal_stack();
	unsigned k, total;

	(void)state;
	/*
	 * Reads of the signal walk: the handler's RA, the ucontext's rip and
	 * rsp, then r10 and X_G's RA. All of them are CFA/RA inputs: each
	 * failure ends the walk with -5. (The ucontext's rbp is left out:
	 * the contract does not say whether it is an FP slot.)
	 */
	stk.calls = 0;
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	total = stk.calls;
	for (k = 1; k <= total; k++) {
		uint64_t addr = stk.log[k - 1];

		if (addr == UC + 8 * 10)
			continue;
		stk.calls = 0;
		stk.fail_at = k;
		stk.fail_err = EIO_ERR;
		if (walk(&r, 16) != EIO_ERR) {
			print_error("read %u at 0x%llx did not end the walk with -5\n", k,
				    (unsigned long long)addr);
			fail();
		}
		stk.fail_at = 0;
		stk.calls = 0;
		assert_err(walk(&r, 16), SFRAME_UNWIND_END);
		assert_int_equal(stk.log[k - 1], addr);
	}
}

static void test_stack_read_outside(void **state)
{
	struct sframe_regs r = mkregs(X_LEAF, STK + STK_SIZE, FP0, 0, V_PSF);

	(void)state;
	/* The RA slot (at sp) is past the stack: the callback's -14 comes back. */
	assert_err(walk(&r, 16), EFAULT_ERR);
	assert_int_equal(nfr, 1);
	assert_true(sframe_is_read_error(EFAULT_ERR));
}

/*
 * Fail the k-th SECTION read (the sfb_reader behind @t) for every k of the
 * walk: the error comes back unchanged, frames before are correct.
 */
static void section_read_failures(struct tsec *t, const struct sframe_regs *r)
{
	static struct sframe_frame ref[16];
	unsigned step_of[256], total, k, s, i, bad = 0;
	uint32_t nref;
	int ret;

	t->rd.fail_at = 0;
	t->rd.calls = 0;
	assert_err(sframe_unwind_stack(&u, r, ref, 16, &nref), SFRAME_UNWIND_END);
	total = t->rd.calls;
	assert_true(total > 0 && total <= 256);
	t->rd.calls = 0;
	map_steps(r, &t->rd.calls, step_of, 256);
	assert_int_equal(t->rd.calls, total);

	/* Every k is tried, and every mismatch printed, before failing. */
	for (k = 1; k <= total; k++) {
		s = step_of[k - 1];
		t->rd.calls = 0;
		t->rd.fail_at = k;
		t->rd.fail_err = -77;
		ret = walk(r, 16);
		t->rd.fail_at = 0;
		if (ret != -77 || nfr != s + 1) {
			print_error("section read %u of %u (step %u): ret %d (%s) count %u, expected -77, %u\n",
				    k, total, s, ret, sframe_errname(ret), nfr, s + 1);
			bad++;
			continue;
		}
		for (i = 0; i <= s; i++)
			if (!frame_eq(&fr[i], &ref[i], i < s)) {
				print_error("section read %u: frame %u differs\n", k, i);
				bad++;
				break;
			}
	}
	assert_int_equal(bad, 0);
}

static void test_section_read_fail_amd64(void **state)
{
	struct sframe_regs r = amd64_three_frames(X_START_RA);

	(void)state;
	section_read_failures(&amd, &r);
}

static void test_section_read_fail_signal(void **state)
{
	struct sframe_regs r = amd64_signal_stack();

	(void)state;
	/* Includes the second, exact-PC lookup for the trampoline. */
	section_read_failures(&amd, &r);
}

static void test_section_read_fail_a64(void **state)
{
	struct sframe_regs r = a64_stack(true, sign48);

	(void)state;
	section_read_failures(&a64, &r);
}

static void test_section_read_fail_s390(void **state)
{
	struct sframe_regs r = s390_stack();

	(void)state;
	section_read_failures(&s390, &r);
}

static void test_step_error_cursor_unchanged(void **state)
{
	struct sframe_regs r;
	struct sframe_cursor c, before;

	(void)state;
	/* "On error @c is unchanged": a read error at depth 1 ... */
	r = amd64_three_frames(X_START_RA);
	assert_err(sframe_unwind_init(&u, &c, &r), 0);
	assert_err(sframe_unwind_step(&u, &c), 0);
	memcpy(&before, &c, sizeof(c));
	stk.calls = 0;
	stk.fail_at = 1;
	stk.fail_err = EIO_ERR;
	assert_err(sframe_unwind_step(&u, &c), EIO_ERR);
	assert_memory_equal(&before, &c, sizeof(c));
	stk.fail_at = 0;
	/* ... then the same step succeeds. */
	assert_err(sframe_unwind_step(&u, &c), 0);
	assert_int_equal(c.regs.pc, X_OUTER_RA);

	/* BAD_CFA of the loop. */
	put64(STK + 0x100, STK + 0x100);
	put64(STK + 0x108, X_LOOP + 0x10);
	r = mkregs(X_LOOP + 8, STK + 0xf0, STK + 0x100, 0, V_PSF);
	assert_err(sframe_unwind_init(&u, &c, &r), 0);
	assert_err(sframe_unwind_step(&u, &c), 0);
	memcpy(&before, &c, sizeof(c));
	assert_err(sframe_unwind_step(&u, &c), -SFRAME_ERR_BAD_CFA);
	assert_memory_equal(&before, &c, sizeof(c));

	/* NO_REG, NOT_FOUND, DEPTH. */
	r = mkregs(X_R10 + 8, S0, FP0, 0, V_PSF);
	assert_err(sframe_unwind_init(&u, &c, &r), 0);
	memcpy(&before, &c, sizeof(c));
	assert_err(sframe_unwind_step(&u, &c), -SFRAME_ERR_NO_REG);
	assert_memory_equal(&before, &c, sizeof(c));
	r = mkregs(X_LEAF + 0x30, S0, FP0, 0, V_PSF);
	assert_err(sframe_unwind_init(&u, &c, &r), 0);
	memcpy(&before, &c, sizeof(c));
	assert_err(sframe_unwind_step(&u, &c), -SFRAME_ERR_NOT_FOUND);
	assert_memory_equal(&before, &c, sizeof(c));
	u.max_depth = 1;
	r = mkregs(X_LEAF, S0, FP0, 0, V_PSF);
	assert_err(sframe_unwind_init(&u, &c, &r), 0);
	memcpy(&before, &c, sizeof(c));
	assert_err(sframe_unwind_step(&u, &c), -SFRAME_ERR_DEPTH);
	assert_memory_equal(&before, &c, sizeof(c));
}

/* ---- sframe_unwind_stack() arguments --------------------------------------- */

static void test_stack_max(void **state)
{
	struct sframe_regs r = amd64_three_frames(X_START_RA);
	struct xf x[4];

	(void)state;
	amd64_three_frames_expect(x, X_START_RA);
	/* max 1: the topmost frame only, no step taken, so no CFA. */
	x[0].cfa = 0;
	assert_err(walk(&r, 1), SFRAME_UNWIND_FULL);
	assert_int_equal(nfr, 1);
	EXPECT_FRAMES(x, 1);
	/* max 2: one step; frame 0 has its CFA, frame 1 has none yet. */
	amd64_three_frames_expect(x, X_START_RA);
	x[1].cfa = 0;
	assert_err(walk(&r, 2), SFRAME_UNWIND_FULL);
	assert_int_equal(nfr, 2);
	EXPECT_FRAMES(x, 2);
	/* Nothing written past max. */
	assert_int_equal(fr[2].pc, UINT64_C(0x5a5a5a5a5a5a5a5a));
}

static void test_stack_null_count(void **state)
{
	struct sframe_regs r = amd64_three_frames(X_START_RA);

	(void)state;
	assert_err(sframe_unwind_stack(&u, &r, fr, 16, NULL), -SFRAME_ERR_INVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_amd64_fp_fallback, setup_amd64),
		T(test_amd64_fp_fallback_last_frame_no_sframe, setup_amd64),
		T(test_amd64_fp_fallback_off, setup_amd64),
		T(test_amd64_fp_fallback_read_error, setup_amd64),
		T(test_amd64_fp_fallback_gap_then_sframe, setup_amd64),
		T(test_amd64_fp_fallback_then_same_cfa, setup_amd64),

		T(test_amd64_signal_frame, setup_amd64),
		T(test_amd64_signal_cursor, setup_amd64),
		T(test_amd64_signal_r10_only_in_interrupted_frame, setup_amd64),
		T(test_a64_signal_unsupported, setup_a64_le),
		T(test_a64_signal_fde_with_rows, setup_a64_le),
		T(test_a64_signal_fde_with_rows, setup_a64_be),
		T(test_a64_fp_fallback_signed, setup_a64_le),
		T(test_a64_fp_fallback_signed, setup_a64_be),

		T(test_bad_cfa_loop, setup_amd64),
		T(test_bad_cfa_misaligned, setup_amd64),
		T(test_bad_ra_zero, setup_amd64),
		T(test_stack_reads_aligned, setup_amd64),
		T(test_depth_limit, setup_amd64),
		T(test_depth_default, setup_amd64),
		T(test_abi_mismatch, setup_amd64),
		T(test_init_inval, setup_amd64),
		T(test_stack_window_only, setup_amd64),
		T(test_pcs_args, setup_amd64),

		T(test_stack_read_fail_amd64, setup_amd64),
		T(test_stack_read_fail_drap, setup_amd64),
		T(test_stack_read_fail_a64, setup_a64_be),
		T(test_stack_read_fail_s390, setup_s390),
		T(test_stack_read_fail_signal, setup_amd64),
		T(test_stack_read_outside, setup_amd64),
		T(test_section_read_fail_amd64, setup_amd64),
		T(test_section_read_fail_signal, setup_amd64),
		T(test_section_read_fail_a64, setup_a64_be),
		T(test_section_read_fail_s390, setup_s390),
		T(test_step_error_cursor_unchanged, setup_amd64),

		T(test_stack_max, setup_amd64),
		T(test_stack_null_count, setup_amd64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
