/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_unwind_aarch64.c - the unwinder on aarch64, little and big
 * endian: the link register in the topmost frame, signed return addresses
 * (va_bits, the strip hook) and FLEX rows.
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

static void a64_expect(struct xf *x, bool mangled)
{
	const struct xf e[4] = {
		{ mangled ? Y_LM + 4 : Y_L + 4, STK + 0x100, A_FP0, STK + 0x100, V_ALL, F_TOP,
		  M_A64 },
		/* RA register is not carried to callers: valid loses RA. */
		{ mangled ? Y_FM_RA : Y_F_RA, STK + 0x100, A_FP0, STK + 0x120, V_PSF,
		  mangled ? F_SIGNED : 0, M_A64 },
		{ Y_G_RA, STK + 0x120, STK + 0x130, STK + 0x140, V_PSF, mangled ? F_SIGNED : 0,
		  M_A64 },
		{ Y_S_RA, STK + 0x140, 0, 0, V_PSF, 0, M_A64 },
	};

	memcpy(x, e, sizeof(e));
}

static void test_a64_walk(void **state)
{
	struct sframe_regs r = a64_stack(false, NULL);
	struct xf x[4];

	(void)state;
	a64_expect(x, false);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 4);
	EXPECT_FRAMES(x, 4);
}

static void test_a64_leaf_no_ra(void **state)
{
	struct sframe_regs r = a64_stack(false, NULL);

	(void)state;
	/* N = 1 in the topmost frame but x30 not given: NO_REG. */
	r.valid = V_PSF;
	assert_err(walk(&r, 16), -SFRAME_ERR_NO_REG);
	assert_int_equal(nfr, 1);
	assert_int_equal(fr[0].cfa, 0);
}

static void test_a64_mangled_default_va_bits(void **state)
{
	struct sframe_regs r = a64_stack(true, sign48);
	struct xf x[4];

	(void)state;
	/* va_bits 0 = 48: bits 48..63 cleared from x30 and from the stack RA. */
	a64_expect(x, true);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 4);
	EXPECT_FRAMES(x, 4);
}

static uint64_t sign39(uint64_t ra)
{
	return ra | UINT64_C(0x3cffff8000000000);	/* bits 39..61 */
}

static void test_a64_mangled_va_bits_39(void **state)
{
	struct sframe_regs r = a64_stack(true, sign39);
	struct xf x[4];

	(void)state;
	/* va_bits 39: bits 39..63 cleared (48 would leave bits 39..47). */
	u.va_bits = 39;
	a64_expect(x, true);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 4);
	EXPECT_FRAMES(x, 4);
}

static uint64_t sign_hi32(uint64_t ra)
{
	return ra | UINT64_C(0x1234567800000000);
}

static void test_a64_strip_hook(void **state)
{
	struct sframe_regs r = a64_stack(true, sign_hi32);
	struct xf x[4];

	(void)state;
	/*
	 * The hook (keep the low 32 bits) replaces va_bits (48 would keep
	 * 0x5678 in bits 32..47). It sees the signed values: x30 first (step
	 * from frame 0), then the stack's RA (step from frame 1).
	 */
	u.strip_ra = strip_low32;
	u.strip_ctx = &strp;
	a64_expect(x, true);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 4);
	EXPECT_FRAMES(x, 4);
	assert_int_equal(strp.calls, 2);
	assert_int_equal(strp.args[0], sign_hi32(Y_FM_RA));
	assert_int_equal(strp.args[1], sign_hi32(Y_G_RA));
}

static void test_a64_ra_not_saved_not_topmost(void **state)
{
	struct sframe_regs r = mkregs(Y_L + 4, STK + 0x100, A_FP0, Y_N1 + 0x10, V_ALL);

	(void)state;
	/*
	 * Leaf returns into Y_N1, whose row (N = 1) says the RA is still in
	 * x30; x30 is only known in the topmost frame: NO_REG at frame 1.
	 */
	assert_err(walk(&r, 16), -SFRAME_ERR_NO_REG);
	assert_int_equal(nfr, 2);
	assert_int_equal(fr[1].pc, Y_N1 + 0x10);
	assert_int_equal(fr[1].valid, V_PSF);
	assert_int_equal(fr[0].cfa, STK + 0x100);
}

/*
 * FLEX FDEs in an aarch64 section (the format ties no FDE type to an ABI):
 * frame 0  leaf Y_L (N = 1), sp STK+0x100: CFA = STK+0x100, RA in x30 =
 *          Y_XF_RA, FP unchanged.
 * frame 1  Y_XF_RA, sp STK+0x100: FLEX CFA = sp+16 = STK+0x110, RA at
 *          CFA-8 = STK+0x108 -> Y_G_RA (signed: bits 48.. stripped), FP at
 *          CFA-16 = STK+0x100 -> STK+0x130.
 * frame 2  Y_G_RA (default FDE), sp STK+0x110: row @4 FP+16: CFA =
 *          STK+0x140, RA at STK+0x138 -> Y_S_RA, FP at STK+0x130 -> 0.
 * frame 3  Y_S_RA (N = 0): END.
 */
static void test_a64_flex_walk(void **state)
{
	struct sframe_regs r = mkregs(Y_L + 4, STK + 0x100, A_FP0, Y_XF_RA, V_ALL);
	const struct xf x[4] = {
		{ Y_L + 4, STK + 0x100, A_FP0, STK + 0x100, V_ALL, F_TOP, M_A64 },
		{ Y_XF_RA, STK + 0x100, A_FP0, STK + 0x110, V_PSF, 0, M_A64 },
		{ Y_G_RA, STK + 0x110, STK + 0x130, STK + 0x140, V_PSF, F_SIGNED, M_A64 },
		{ Y_S_RA, STK + 0x140, 0, 0, V_PSF, 0, M_A64 },
	};

	(void)state;
	put64(STK + 0x108, sign48(Y_G_RA));
	put64(STK + 0x100, STK + 0x130);
	put64(STK + 0x138, Y_S_RA);
	put64(STK + 0x130, 0);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 4);
	EXPECT_FRAMES(x, 4);
}

/*
 * FLEX CFA = x19 + 0 with RA and FP padding ("no rule": RA still in x30, FP
 * unchanged). x19 is known in the topmost frame only, through get_reg:
 * frame 0  Y_XR+4, x19 = STK+0x120: CFA STK+0x120, RA = x30 = Y_G_RA, FP
 *          unchanged (STK+0x130).
 * frame 1  Y_G_RA: FP+16 = STK+0x140, RA at STK+0x138 -> Y_S_RA: END.
 * Without get_reg, only the step that needs x19 fails (NO_REG, frame 0).
 */
static void test_a64_flex_cfa_x19(void **state)
{
	struct sframe_regs r = mkregs(Y_XR + 4, STK + 0x100, STK + 0x130, Y_G_RA, V_ALL);
	const struct xf x[3] = {
		{ Y_XR + 4, STK + 0x100, STK + 0x130, STK + 0x120, V_ALL, F_TOP, M_A64 },
		{ Y_G_RA, STK + 0x120, STK + 0x130, STK + 0x140, V_PSF, 0, M_A64 },
		{ Y_S_RA, STK + 0x140, 0, 0, V_PSF, 0, M_A64 },
	};

	(void)state;
	put64(STK + 0x138, Y_S_RA);
	put64(STK + 0x130, 0);
	assert_err(walk(&r, 16), -SFRAME_ERR_NO_REG);
	assert_int_equal(nfr, 1);
	assert_int_equal(fr[0].cfa, 0);
	u.get_reg = get_reg;
	u.reg_ctx = &rf;
	set_reg(19, STK + 0x120);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 3);
	EXPECT_FRAMES(x, 3);
	assert_int_equal(rf.last, 19);
}

/*
 * A return address into the x19-based FLEX function: frame 0's step (leaf,
 * RA in x30) succeeds; frame 1's needs x19, which no frame but the topmost
 * knows: NO_REG there, get_reg never asked.
 */
static void test_a64_flex_x19_not_topmost(void **state)
{
	struct sframe_regs r = mkregs(Y_L + 4, STK + 0x100, A_FP0, Y_XR + 0x10, V_ALL);

	(void)state;
	u.get_reg = get_reg;
	u.reg_ctx = &rf;
	set_reg(19, STK + 0x120);
	assert_err(walk(&r, 16), -SFRAME_ERR_NO_REG);
	assert_int_equal(nfr, 2);
	assert_int_equal(fr[0].cfa, STK + 0x100);
	assert_int_equal(fr[1].pc, Y_XR + 0x10);
	assert_int_equal(rf.calls, 0);
}

/*
 * RA in DWARF register 70000 (past 16 bits; no aarch64 register has that
 * number): get_reg is asked for 70000 itself, and its refusal is the step's
 * error. The CFA (sp+32) was computed first, from SP.
 */
static void test_a64_flex_wide_register(void **state)
{
	struct sframe_regs r = mkregs(Y_XW + 4, STK + 0x100, A_FP0, Y_G_RA, V_ALL);

	(void)state;
	assert_err(walk(&r, 16), -SFRAME_ERR_NO_REG);
	assert_int_equal(nfr, 1);
	u.get_reg = get_reg;
	u.reg_ctx = &rf;
	assert_err(walk(&r, 16), -SFRAME_ERR_NO_REG);
	assert_int_equal(nfr, 1);
	assert_int_equal(rf.last, 70000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_a64_walk, setup_a64_le),
		T(test_a64_walk, setup_a64_be),
		T(test_a64_leaf_no_ra, setup_a64_le),
		T(test_a64_leaf_no_ra, setup_a64_be),
		T(test_a64_mangled_default_va_bits, setup_a64_le),
		T(test_a64_mangled_default_va_bits, setup_a64_be),
		T(test_a64_mangled_va_bits_39, setup_a64_le),
		T(test_a64_mangled_va_bits_39, setup_a64_be),
		T(test_a64_strip_hook, setup_a64_le),
		T(test_a64_strip_hook, setup_a64_be),
		T(test_a64_ra_not_saved_not_topmost, setup_a64_le),
		T(test_a64_ra_not_saved_not_topmost, setup_a64_be),
		T(test_a64_flex_walk, setup_a64_le),
		T(test_a64_flex_walk, setup_a64_be),
		T(test_a64_flex_cfa_x19, setup_a64_le),
		T(test_a64_flex_cfa_x19, setup_a64_be),
		T(test_a64_flex_x19_not_topmost, setup_a64_le),
		T(test_a64_flex_x19_not_topmost, setup_a64_be),
		T(test_a64_flex_wide_register, setup_a64_le),
		T(test_a64_flex_wide_register, setup_a64_be),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
