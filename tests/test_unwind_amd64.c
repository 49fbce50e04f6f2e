/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_unwind_amd64.c - the unwinder on amd64: the three-frame stack
 * step by step, where walks end, v3 FLEX rows (registers, DRAP, RA and FP
 * rules) and a topmost frame whose FP is already restored.
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

#include "frames_equal.h"
#include "unwind_fixture.h"

/* ---- amd64: the three-frame stack ---------------------------------------- */

static void test_amd64_three_frames(void **state)
{
	struct sframe_regs r = amd64_three_frames(X_START_RA);
	struct xf x[4];

	(void)state;
	amd64_three_frames_expect(x, X_START_RA);
	/* X_START's only row has N = 0: RA undefined, frame 3 is outermost. */
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 4);
	EXPECT_FRAMES(x, 4);
	/* Every stack read was an aligned 8-byte one. */
	assert_int_equal(stk.misaligned, 0);
}

static void test_amd64_step_by_step(void **state)
{
	struct sframe_regs r = amd64_three_frames(X_START_RA);
	struct sframe_cursor c;

	(void)state;
	assert_err(sframe_unwind_init(&u, &c, &r), 0);
	/* init: the given registers, depth 0, topmost, no previous CFA. */
	assert_int_equal(c.regs.pc, X_LEAF);
	assert_int_equal(c.regs.sp, S0);
	assert_int_equal(c.depth, 0);
	assert_int_equal(c.flags, F_TOP);
	assert_int_equal(c.prev_cfa, 0);
	assert_err(sframe_unwind_step(&u, &c), 0);
	assert_int_equal(c.regs.pc, X_MID + 0x40);
	assert_int_equal(c.regs.sp, S0 + 8);
	assert_int_equal(c.prev_cfa, S0 + 8);
	assert_int_equal(c.depth, 1);
	assert_int_equal(c.flags, 0);
	assert_err(sframe_unwind_step(&u, &c), 0);
	assert_int_equal(c.regs.pc, X_OUTER_RA);
	assert_int_equal(c.regs.fp, S0 + 0x38);
	assert_int_equal(c.prev_cfa, S0 + 0x18);
	assert_int_equal(c.depth, 2);
	assert_err(sframe_unwind_step(&u, &c), 0);
	assert_int_equal(c.regs.pc, X_START_RA);
	assert_int_equal(c.regs.sp, S0 + 0x48);
	assert_int_equal(c.depth, 3);
	/* Outermost: END, and again END (the cursor stays put). */
	assert_err(sframe_unwind_step(&u, &c), SFRAME_UNWIND_END);
	assert_err(sframe_unwind_step(&u, &c), SFRAME_UNWIND_END);
	assert_int_equal(c.depth, 3);
	assert_int_equal(c.regs.pc, X_START_RA);
}

/*
 * leaf, then X_OUTER's end (0x401280) as a return address, then X_START_RA:
 * a return address equal to the end of its function still belongs to it
 * (PC - 1), so the step uses its FP-based row: CFA = fp + 16. The frames'
 * modules are @m0, @m1, @m2.
 */
static void walk_ra_at_outer_end(const struct sframe_module *m0, const struct sframe_module *m1,
				 const struct sframe_module *m2)
{
	struct sframe_regs r;

	put64(S0, X_OUTER + 0x80);
	put64(S0 + 0x38, 0x1234);	/* outer's caller's fp */
	put64(S0 + 0x40, X_START_RA);
	r = mkregs(X_LEAF + 4, S0, S0 + 0x38, 0, V_PSF);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 3);
	{
		const struct xf x[3] = {
			{ X_LEAF + 4, S0, S0 + 0x38, S0 + 8, V_PSF, F_TOP, m0 },
			{ X_OUTER + 0x80, S0 + 8, S0 + 0x38, S0 + 0x48, V_PSF, 0, m1 },
			{ X_START_RA, S0 + 0x48, 0x1234, 0, V_PSF, 0, m2 },
		};
		EXPECT_FRAMES(x, 3);
	}
}

/* X_OUTER ends at 0x401280 and nothing follows until X_START. */
static void test_amd64_ra_at_end_before_gap(void **state)
{
	(void)state;
	walk_ra_at_outer_end(M_AMD, M_AMD, M_AMD);
}

/*
 * The same return address at the very end of its module, the next module
 * starting there: the row comes from the module of PC - 1, but the frame's
 * module is the one containing the PC itself (as sframe_modules_find()
 * says), which the step must not take from the row's lookup.
 */
static void test_amd64_ra_at_module_end(void **state)
{
	(void)state;
	assert_err(sframe_modules_remove(&mt, X_LEAF), 0);
	/* slots[0] up to X_OUTER's end, slots[1] without SFrame, slots[2] the rest. */
	assert_err(sframe_modules_add(&mt, X_LEAF, X_OUTER + 0x80, &amd.sec, NULL), 0);
	assert_err(sframe_modules_add(&mt, X_OUTER + 0x80, X_START, NULL, NULL), 0);
	assert_err(sframe_modules_add(&mt, X_START, X_MOD_END, &amd.sec, NULL), 0);
	walk_ra_at_outer_end(&slots[0], &slots[1], &slots[2]);
}

static void test_amd64_end_zero_fre_fde(void **state)
{
	struct sframe_regs r = amd64_three_frames(X_START0_RA);
	struct xf x[4];

	(void)state;
	/*
	 * Same stack, but outer returns into X_START0: a v3 DEFAULT FDE with
	 * no rows marks an outermost frame, so the walk ends there with END
	 * and frame 3 is stored (not -SFRAME_ERR_NOT_FOUND, not NO_SFRAME).
	 */
	amd64_three_frames_expect(x, X_START0_RA);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 4);
	EXPECT_FRAMES(x, 4);
}

static void test_amd64_end_zero_fre_fde_topmost(void **state)
{
	struct sframe_regs r = mkregs(X_START0 + 4, S0, 0, 0, V_PSF);

	(void)state;
	/* The topmost frame itself in the zero-FRE v3 FDE: END at once. */
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 1);
	assert_int_equal(fr[0].flags, F_TOP);
	assert_int_equal(fr[0].cfa, 0);
}

static void test_amd64_not_found_no_module(void **state)
{
	struct sframe_regs r = amd64_three_frames(UINT64_C(0x900000));
	struct xf x[4];

	(void)state;
	/*
	 * Outer returns to 0x900000, inside no module: the step from frame 3
	 * fails with NOT_FOUND, frame 3 is stored with NO_SFRAME and no module.
	 */
	amd64_three_frames_expect(x, UINT64_C(0x900000));
	x[3].flags = F_NOSF;
	x[3].mod = NULL;
	assert_err(walk(&r, 16), -SFRAME_ERR_NOT_FOUND);
	assert_int_equal(nfr, 4);
	EXPECT_FRAMES(x, 4);
}

static void test_amd64_not_found_no_fde(void **state)
{
	struct sframe_regs r = amd64_three_frames(X_LEAF + 0x40);
	struct xf x[4];

	(void)state;
	/*
	 * X_LEAF + 0x40 is in the module but in the gap between X_LEAF (ends
	 * at +0x20) and X_MID: no FDE at PC - 1 either.
	 */
	amd64_three_frames_expect(x, X_LEAF + 0x40);
	x[3].flags = F_NOSF;
	assert_err(walk(&r, 16), -SFRAME_ERR_NOT_FOUND);
	assert_int_equal(nfr, 4);
	EXPECT_FRAMES(x, 4);
}

static void test_amd64_topmost_not_found(void **state)
{
	struct sframe_regs r = mkregs(X_LEAF + 0x30, S0, 0, 0, V_PSF);

	(void)state;
	/* The topmost PC itself in a gap: one frame, TOPMOST | NO_SFRAME. */
	assert_err(walk(&r, 16), -SFRAME_ERR_NOT_FOUND);
	assert_int_equal(nfr, 1);
	assert_int_equal(fr[0].flags, F_TOP | F_NOSF);
	assert_ptr_equal(fr[0].module, M_AMD);
	assert_int_equal(fr[0].cfa, 0);
}

static void test_amd64_exact_pc_only_for_signal(void **state)
{
	struct sframe_regs r = mkregs(X_LEAF, S0, FP0, 0, V_PSF);

	(void)state;
	/*
	 * The leaf returns to X_MID's first byte. PC - 1 lies in the gap
	 * before X_MID. The exact PC is accepted for signal trampolines
	 * only; X_MID is an ordinary function: NOT_FOUND at frame 1.
	 */
	put64(S0, X_MID);
	assert_err(walk(&r, 16), -SFRAME_ERR_NOT_FOUND);
	assert_int_equal(nfr, 2);
	assert_int_equal(fr[1].pc, X_MID);
	assert_int_equal(fr[1].flags, F_NOSF);
	assert_int_equal(fr[0].cfa, S0 + 8);
}

/* ---- amd64 v3 FLEX --------------------------------------------------------- */

static void test_amd64_flex_cfa_r10(void **state)
{
	struct sframe_regs r = mkregs(X_R10 + 8, S0, FP0, 0, V_PSF);

	(void)state;
	/*
	 * CFA = r10 + 0 with r10 = STK+0x200 (from get_reg, topmost frame);
	 * RA at the fixed CFA-8; FP unchanged (N = 2, no FP rule).
	 */
	u.get_reg = get_reg;
	u.reg_ctx = &rf;
	set_reg(10, STK + 0x200);
	put64(STK + 0x1f8, X_START_RA);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 2);
	{
		const struct xf x[2] = {
			{ X_R10 + 8, S0, FP0, STK + 0x200, V_PSF, F_TOP, M_AMD },
			{ X_START_RA, STK + 0x200, FP0, 0, V_PSF, 0, M_AMD },
		};
		EXPECT_FRAMES(x, 2);
	}
	assert_true(rf.calls >= 1);
	assert_int_equal(rf.last, 10);
}

static void test_amd64_flex_cfa_r10_no_get_reg(void **state)
{
	struct sframe_regs r = mkregs(X_R10 + 8, S0, FP0, 0, V_PSF);

	(void)state;
	/* r10 is not PC/SP/FP: without get_reg it is unknown. */
	put64(STK + 0x1f8, X_START_RA);
	assert_err(walk(&r, 16), -SFRAME_ERR_NO_REG);
	assert_int_equal(nfr, 1);
	assert_int_equal(fr[0].cfa, 0);
	assert_int_equal(fr[0].flags, F_TOP);
}

static void test_amd64_flex_get_reg_error(void **state)
{
	struct sframe_regs r = mkregs(X_R10 + 8, S0, FP0, 0, V_PSF);

	(void)state;
	/* get_reg's own error is returned unchanged. */
	u.get_reg = get_reg;
	u.reg_ctx = &rf;
	rf.err = -22;
	assert_err(walk(&r, 16), -22);
	assert_int_equal(nfr, 1);
}

static void test_amd64_flex_r10_not_topmost(void **state)
{
	struct sframe_regs r = mkregs(X_LEAF + 4, S0, FP0, 0, V_PSF);

	(void)state;
	/*
	 * Frame 1 (a return address into X_R10) needs r10: other registers
	 * are known only in the topmost frame, get_reg must not be asked for
	 * a caller's registers: NO_REG.
	 */
	u.get_reg = get_reg;
	u.reg_ctx = &rf;
	set_reg(10, STK + 0x200);
	put64(S0, X_R10 + 0x10);
	assert_err(walk(&r, 16), -SFRAME_ERR_NO_REG);
	assert_int_equal(nfr, 2);
	assert_int_equal(fr[1].pc, X_R10 + 0x10);
	assert_int_equal(rf.calls, 0);
}

static void test_amd64_flex_drap(void **state)
{
	struct sframe_regs r;

	(void)state;
	/*
	 * X_DRAP: CFA = *(fp - 40), RA padding word (fixed CFA-8), FP =
	 * *(fp + 0). fp = STK+0x180: [STK+0x158] = CFA = STK+0x1c0; RA at
	 * STK+0x1b8 = X_OUTER_RA; FP = [STK+0x180] = STK+0x1f0.
	 * Frame 1 (outer, FP+16): CFA STK+0x200, RA [STK+0x1f8], FP [STK+0x1f0].
	 */
	put64(STK + 0x158, STK + 0x1c0);
	put64(STK + 0x1b8, X_OUTER_RA);
	put64(STK + 0x180, STK + 0x1f0);
	put64(STK + 0x1f0, 0x7777);
	put64(STK + 0x1f8, X_START_RA);
	r = mkregs(X_DRAP + 0x10, S0, STK + 0x180, 0, V_PSF);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 3);
	{
		const struct xf x[3] = {
			{ X_DRAP + 0x10, S0, STK + 0x180, STK + 0x1c0, V_PSF, F_TOP, M_AMD },
			{ X_OUTER_RA, STK + 0x1c0, STK + 0x1f0, STK + 0x200, V_PSF, 0, M_AMD },
			{ X_START_RA, STK + 0x200, 0x7777, 0, V_PSF, 0, M_AMD },
		};
		EXPECT_FRAMES(x, 3);
	}
}

static void test_amd64_flex_drap_misaligned_cfa(void **state)
{
	struct sframe_regs r;

	(void)state;
	/* The dereferenced CFA value is misaligned: BAD_CFA. */
	put64(STK + 0x158, STK + 0x1c4);
	r = mkregs(X_DRAP + 0x10, S0, STK + 0x180, 0, V_PSF);
	assert_err(walk(&r, 16), -SFRAME_ERR_BAD_CFA);
	assert_int_equal(nfr, 1);
}

static void test_amd64_flex_ra_override(void **state)
{
	struct sframe_regs r = mkregs(X_FLEXRA + 4, S0, FP0, 0, V_PSF);

	(void)state;
	/*
	 * CFA = sp + 32 = S0+0x20; RA rule *(CFA - 24) overrides the fixed
	 * -8: RA at S0+8 (not the decoy at S0+0x18); FP = *(CFA - 16).
	 */
	put64(S0 + 0x08, X_START_RA);
	put64(S0 + 0x18, X_OUTER_RA);	/* decoy at CFA-8 */
	put64(S0 + 0x10, 0xabc0);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 2);
	{
		const struct xf x[2] = {
			{ X_FLEXRA + 4, S0, FP0, S0 + 0x20, V_PSF, F_TOP, M_AMD },
			{ X_START_RA, S0 + 0x20, 0xabc0, 0, V_PSF, 0, M_AMD },
		};
		EXPECT_FRAMES(x, 2);
	}
}

static void test_amd64_flex_ra_override_n4(void **state)
{
	struct sframe_regs r = mkregs(X_FLEXRA4 + 4, S0, FP0, 0, V_PSF);

	(void)state;
	/* Same with only CFA and RA pairs: FP unchanged. */
	put64(S0 + 0x08, X_START_RA);
	put64(S0 + 0x18, X_OUTER_RA);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 2);
	{
		const struct xf x[2] = {
			{ X_FLEXRA4 + 4, S0, FP0, S0 + 0x20, V_PSF, F_TOP, M_AMD },
			{ X_START_RA, S0 + 0x20, FP0, 0, V_PSF, 0, M_AMD },
		};
		EXPECT_FRAMES(x, 2);
	}
}

static void test_amd64_flex_fp_rule_unknown_base(void **state)
{
	struct sframe_regs r = mkregs(X_FPRULE + 4, S0, 0, 0, V_PS);

	(void)state;
	/*
	 * X_FPRULE: CFA = sp + 16, RA at CFA-8, FP = *(fp + 0), but the
	 * topmost FP is not known: the FP rule cannot be evaluated, the
	 * caller's FP is unknown (FP_LOST, no FP in valid) and the walk goes
	 * on: X_START_RA's row ends it.
	 */
	put64(S0 + 8, X_START_RA);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 2);
	{
		const struct xf x[2] = {
			{ X_FPRULE + 4, S0, 0, S0 + 0x10, V_PS, F_TOP, M_AMD },
			{ X_START_RA, S0 + 0x10, 0, 0, V_PS, F_LOST, M_AMD },
		};
		EXPECT_FRAMES(x, 2);
	}

	/* When the caller's CFA needs that FP (outer, FP+16): NO_REG there. */
	put64(S0 + 8, X_OUTER_RA);
	assert_err(walk(&r, 16), -SFRAME_ERR_NO_REG);
	assert_int_equal(nfr, 2);
	assert_int_equal(fr[1].pc, X_OUTER_RA);
	assert_int_equal(fr[1].flags, F_LOST);
	assert_false(fr[1].valid & SFRAME_REG_FP);
}

/* ---- amd64: the topmost FP already restored ---------------------------------- */

#define FP1	(S0 + 0x30)	/* the caller's frame pointer */

/*
 * A sample at X_EPI_RET, after "leave": rbp already holds the caller's FP
 * (FP1) and was popped from S0 - 8, below SP; the row still says "CFA =
 * SP+8, FP at CFA-16".
 * frame 0  X_EPI_RET, sp S0, fp FP1: CFA = S0+8, RA at S0 = X_OUTER_RA; the
 *          FP slot S0-8 lies below SP: the FP is kept.
 * frame 1  X_OUTER_RA (row @4 FP+16): CFA = FP1+16, RA at FP1+8 =
 *          X_START_RA, FP at FP1 = 0.
 * frame 2  X_START_RA, sp FP1+16: END.
 */
static struct sframe_regs amd64_after_leave(void)
{
	put64(S0, X_OUTER_RA);
	put64(FP1, 0);
	put64(FP1 + 8, X_START_RA);
	return mkregs(X_EPI_RET, S0, FP1, 0, V_PSF);
}

static const struct xf after_leave_x[3] = {
	{ X_EPI_RET, S0, FP1, S0 + 8, V_PSF, F_TOP, M_AMD },
	{ X_OUTER_RA, S0 + 8, FP1, FP1 + 16, V_PSF, 0, M_AMD },
	{ X_START_RA, FP1 + 16, 0, 0, V_PSF, 0, M_AMD },
};

/*
 * The walk just made (fr, nfr, @ret) again with a cache large enough to
 * keep every entry: a first walk fills it, the second must be the same
 * with @hits steps from the cache (the exact topmost entry among them) and
 * @misses looked up, and so must sframe_unwind_pcs() (its loop over cached
 * steps).
 */
static void expect_cached_rewalk(const struct sframe_regs *r, int ret, uint64_t hits,
				 uint64_t misses)
{
	static struct sframe_frame f2[16];
	struct sframe_cache_entry entries[64];
	struct sframe_unwind_cache cache;
	struct sframe_unwinder uc = u;
	uint64_t pcs[16];
	uint32_t n2, k;

	assert_err(sframe_unwind_cache_init(&cache, entries, 64), 0);
	uc.cache = &cache;
	if (!uc.stack_data) {
		uc.stack_data = stk.mem;
		uc.stack_addr = stk.base;
		uc.stack_len = STK_SIZE;
	}
	assert_err(sframe_unwind_stack(&uc, r, f2, 16, &n2), ret);
	cache.hits = cache.misses = 0;
	assert_err(sframe_unwind_stack(&uc, r, f2, 16, &n2), ret);
	assert_int_equal(n2, nfr);
	assert_frames_equal(f2, fr, nfr);
	assert_int_equal(cache.hits, hits);
	assert_int_equal(cache.misses, misses);
	assert_err(sframe_unwind_pcs(&uc, r, pcs, 16, &n2), ret);
	assert_int_equal(n2, nfr);
	for (k = 0; k < nfr; k++)
		assert_int_equal(pcs[k], fr[k].pc);
}

/* A profiler's stack copy starts at SP: the popped slot is not in it. */
static void test_amd64_fp_popped_window_at_sp(void **state)
{
	struct sframe_regs r = amd64_after_leave();

	(void)state;
	u.read_stack = NULL;
	u.stack_data = stk.mem + (S0 - STK);
	u.stack_addr = S0;
	u.stack_len = STK + STK_SIZE - S0;
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 3);
	EXPECT_FRAMES(after_leave_x, 3);
	expect_cached_rewalk(&r, SFRAME_UNWIND_END, 3, 0);
}

/* On a live stack the slot is readable but stale: it is not read. */
static void test_amd64_fp_popped_live_stack(void **state)
{
	struct sframe_regs r = amd64_after_leave();

	(void)state;
	put64(S0 - 8, 0x1230);	/* as a caller's FP: a CFA far below SP */
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 3);
	EXPECT_FRAMES(after_leave_x, 3);
	/* Three reads: frame 0's RA, frame 1's RA and FP: never the slot. */
	assert_int_equal(stk.calls, 3);
	for (unsigned i = 0; i < 3; i++)
		assert_true(stk.log[i] != S0 - 8);
	expect_cached_rewalk(&r, SFRAME_UNWIND_END, 3, 0);
}

/*
 * Only where SP is exact. Reached through a return address, the row's SP is
 * its callee's CFA, and the rule is followed as written:
 * frame 0  X_LEAF (SP+8), sp S0: RA at S0 = X_EPI_RET + 1 (looked up at
 *          X_EPI_RET).
 * frame 1  sp S0+8: CFA = S0+16, RA at S0+8 = X_START_RA, FP read from
 *          CFA-16 = S0 (below this frame's SP): X_EPI_RET + 1.
 * frame 2  X_START_RA: END, with that FP.
 */
static void test_amd64_fp_slot_below_sp_not_topmost(void **state)
{
	struct sframe_regs r = mkregs(X_LEAF, S0, FP0, 0, V_PSF);
	const struct xf x[3] = {
		{ X_LEAF, S0, FP0, S0 + 8, V_PSF, F_TOP, M_AMD },
		{ X_EPI_RET + 1, S0 + 8, FP0, S0 + 16, V_PSF, 0, M_AMD },
		{ X_START_RA, S0 + 16, X_EPI_RET + 1, 0, V_PSF, 0, M_AMD },
	};

	(void)state;
	put64(S0, X_EPI_RET + 1);
	put64(S0 + 8, X_START_RA);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 3);
	EXPECT_FRAMES(x, 3);
	expect_cached_rewalk(&r, SFRAME_UNWIND_END, 3, 0);
}

/*
 * A signal interrupted X_EPI after "leave": its SP (from the ucontext) is
 * exact too, and its FP is kept the same way.
 * frame 0  X_HANDLER (SP+8), sp S0: RA at S0 = X_TRAMP.
 * frame 1  X_TRAMP: ucontext at S0+8, rip X_EPI_RET, rsp S2, rbp FP2.
 * frame 2  X_EPI_RET, interrupted: CFA = S2+8, RA at S2 = X_OUTER_RA, the
 *          FP slot S2-8 (holding 0x1230) below SP: FP2 kept.
 * frame 3  X_OUTER_RA: CFA = FP2+16, RA at FP2+8 = X_START_RA, FP at FP2 = 0.
 * frame 4  X_START_RA: END.
 */
#define S2	(STK + 0x300)

#define FP2	(STK + 0x330)

static void test_amd64_fp_popped_interrupted(void **state)
{
	struct sframe_regs r = mkregs(X_HANDLER + 4, S0, FP0, 0, V_PSF);
	const uint64_t uc = S0 + 8 + 40;
	const struct xf x[5] = {
		{ X_HANDLER + 4, S0, FP0, S0 + 8, V_PSF, F_TOP, M_AMD },
		{ X_TRAMP, S0 + 8, FP0, 0, V_PSF, F_SIG, M_AMD },
		{ X_EPI_RET, S2, FP2, S2 + 8, V_PSF, F_INT, M_AMD },
		{ X_OUTER_RA, S2 + 8, FP2, FP2 + 16, V_PSF, 0, M_AMD },
		{ X_START_RA, FP2 + 16, 0, 0, V_PSF, 0, M_AMD },
	};

	(void)state;
	put64(S0, X_TRAMP);
	put64(uc + 8 * 16, X_EPI_RET);	/* rip */
	put64(uc + 8 * 15, S2);		/* rsp */
	put64(uc + 8 * 10, FP2);	/* rbp */
	put64(S2, X_OUTER_RA);
	put64(S2 - 8, 0x1230);
	put64(FP2, 0);
	put64(FP2 + 8, X_START_RA);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 5);
	EXPECT_FRAMES(x, 5);
	/* Every step but the trampoline's (signal frames are never cached). */
	expect_cached_rewalk(&r, SFRAME_UNWIND_END, 4, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_amd64_three_frames, setup_amd64),
		T(test_amd64_step_by_step, setup_amd64),
		T(test_amd64_ra_at_end_before_gap, setup_amd64),
		T(test_amd64_ra_at_module_end, setup_amd64),
		T(test_amd64_end_zero_fre_fde, setup_amd64),
		T(test_amd64_end_zero_fre_fde_topmost, setup_amd64),
		T(test_amd64_not_found_no_module, setup_amd64),
		T(test_amd64_not_found_no_fde, setup_amd64),
		T(test_amd64_topmost_not_found, setup_amd64),
		T(test_amd64_exact_pc_only_for_signal, setup_amd64),

		T(test_amd64_flex_cfa_r10, setup_amd64),
		T(test_amd64_flex_cfa_r10_no_get_reg, setup_amd64),
		T(test_amd64_flex_get_reg_error, setup_amd64),
		T(test_amd64_flex_r10_not_topmost, setup_amd64),
		T(test_amd64_flex_drap, setup_amd64),
		T(test_amd64_flex_drap_misaligned_cfa, setup_amd64),
		T(test_amd64_flex_ra_override, setup_amd64),
		T(test_amd64_flex_ra_override_n4, setup_amd64),
		T(test_amd64_flex_fp_rule_unknown_base, setup_amd64),
		T(test_amd64_fp_popped_window_at_sp, setup_amd64),
		T(test_amd64_fp_popped_live_stack, setup_amd64),
		T(test_amd64_fp_slot_below_sp_not_topmost, setup_amd64),
		T(test_amd64_fp_popped_interrupted, setup_amd64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
