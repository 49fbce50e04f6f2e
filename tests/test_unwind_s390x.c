/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_unwind_s390x.c - the unwinder on s390x: the CFA offset bias, RA and
 * FP in registers (v2 register numbers, FLEX) and the back chain where
 * there is no SFrame.
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

static void test_s390_walk(void **state)
{
	struct sframe_regs r = s390_stack();
	const struct xf x[3] = {
		{ Z_F + 4, Z_S0, Z_FP0, Z_S0 + 0xa0, V_ALL, F_TOP, M_Z },
		{ Z_G_RA, Z_S0, 0x5550, Z_S0 + 0x140, V_PSF, 0, M_Z },
		{ Z_S_RA, Z_S0 + 0xa0, 0x6660, 0, V_PSF, 0, M_Z },
	};

	(void)state;
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 3);
	EXPECT_FRAMES(x, 3);
}

static void test_s390_ra_not_saved_n1(void **state)
{
	struct sframe_regs r = s390_stack();
	const struct xf x[3] = {
		{ Z_F1 + 4, Z_S0, Z_FP0, Z_S0 + 0xa0, V_ALL, F_TOP, M_Z },
		/* N = 1: RA in r14, FP unchanged. */
		{ Z_G_RA, Z_S0, Z_FP0, Z_S0 + 0x140, V_PSF, 0, M_Z },
		{ Z_S_RA, Z_S0 + 0xa0, 0x6660, 0, V_PSF, 0, M_Z },
	};

	(void)state;
	r.pc = Z_F1 + 4;
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 3);
	EXPECT_FRAMES(x, 3);
}

static void test_s390_no_ra_reg(void **state)
{
	struct sframe_regs r = s390_stack();

	(void)state;
	/* RA padding in frame 0 but r14 not given: NO_REG. */
	r.valid = V_PSF;
	assert_err(walk(&r, 16), -SFRAME_ERR_NO_REG);
	assert_int_equal(nfr, 1);
}

static void test_s390_v2_regnum_ra(void **state)
{
	struct sframe_regs r = mkregs(Z2_RA + 4, Z_S0, Z_FP0, Z_G_RA, V_ALL);

	(void)state;
	/*
	 * v2 RA word 33 = (16 << 1) | 1: the RA is in DWARF register 16 (f0),
	 * read with get_reg in frame 0 (not r14, which holds a decoy). CFA =
	 * sp + 160, caller SP = Z_S0; FP unchanged (N = 2).
	 */
	u.get_reg = get_reg;
	u.reg_ctx = &rf;
	set_reg(16, Z_S_RA);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 2);
	{
		const struct xf x[2] = {
			{ Z2_RA + 4, Z_S0, Z_FP0, Z_S0 + 0xa0, V_ALL, F_TOP, M_Z2 },
			{ Z_S_RA, Z_S0, Z_FP0, 0, V_PSF, 0, M_Z },
		};
		EXPECT_FRAMES(x, 2);
	}
	assert_int_equal(rf.last, 16);
}

static void test_s390_v2_regnum_fp(void **state)
{
	struct sframe_regs r = mkregs(Z2_RAFP + 4, Z_S0, Z_FP0, Z_G_RA, V_ALL);

	(void)state;
	/* FP word 35 = (17 << 1) | 1: caller FP = DWARF 17's value. */
	u.get_reg = get_reg;
	u.reg_ctx = &rf;
	set_reg(16, Z_S_RA);
	set_reg(17, 0x7770);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 2);
	assert_int_equal(fr[1].pc, Z_S_RA);
	assert_int_equal(fr[1].fp, 0x7770);
	assert_int_equal(fr[1].valid, V_PSF);
}

static void test_s390_v2_regnum_no_get_reg(void **state)
{
	struct sframe_regs r = mkregs(Z2_RA + 4, Z_S0, Z_FP0, Z_G_RA, V_ALL);

	(void)state;
	/* DWARF 16 is none of PC/SP/FP/RA: without get_reg, NO_REG. */
	assert_err(walk(&r, 16), -SFRAME_ERR_NO_REG);
	assert_int_equal(nfr, 1);
}

static void test_s390_v2_regnum_not_topmost(void **state)
{
	struct sframe_regs r = mkregs(Z_F1 + 4, Z_S0, Z_FP0, Z2_RAF + 0x10, V_ALL);

	(void)state;
	/*
	 * Frame 0 (CFA sp+160 = Z_S0+0xa0) returns into Z2_RAF, whose row
	 * (CFA sp+320: a frame of its own, so the CFA rises to Z_S0+0x1e0)
	 * says the RA is in f0; f0 is known only in the topmost frame: NO_REG.
	 */
	u.get_reg = get_reg;
	u.reg_ctx = &rf;
	set_reg(16, Z_S_RA);
	assert_err(walk(&r, 16), -SFRAME_ERR_NO_REG);
	assert_int_equal(nfr, 2);
	assert_int_equal(fr[1].pc, Z2_RAF + 0x10);
	assert_ptr_equal(fr[1].module, M_Z2);
	assert_int_equal(rf.calls, 0);
}

static void test_s390_flex_ra_reg(void **state)
{
	struct sframe_regs r = mkregs(Z_FX + 4, Z_S0, Z_FP0, Z_G_RA, V_ALL);

	(void)state;
	/*
	 * v3 FLEX: CFA = r15 + 168 (stored (168-160)/8 = 1, decoded for FLEX
	 * too) = Z_S0+0xa8, RA = register 16 (f0) + 0 (from get_reg, not
	 * r14); caller SP = CFA - 160 = Z_S0+8; FP unchanged.
	 */
	u.get_reg = get_reg;
	u.reg_ctx = &rf;
	set_reg(16, Z_S_RA);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 2);
	{
		const struct xf x[2] = {
			{ Z_FX + 4, Z_S0, Z_FP0, Z_S0 + 0xa8, V_ALL, F_TOP, M_Z },
			{ Z_S_RA, Z_S0 + 8, Z_FP0, 0, V_PSF, 0, M_Z },
		};
		EXPECT_FRAMES(x, 2);
	}
}

static void test_s390_back_chain(void **state)
{
	struct sframe_regs r = mkregs(Z_F1 + 4, Z_S0, 0, Z_NOSF + 0x10, V_PS | SFRAME_REG_RA);
	const struct xf x[3] = {
		/* CFA = sp + 160; RA in r14 = Z_NOSF+0x10; caller SP = Z_S0. */
		{ Z_F1 + 4, Z_S0, 0, Z_S0 + 0xa0, V_PS | SFRAME_REG_RA, F_TOP, M_Z },
		/* No SFrame: back chain [sp] = caller sp Z_S0+0x100; CFA =
		 * caller sp + 160. Its FP is unknown (never given). */
		{ Z_NOSF + 0x10, Z_S0, 0, Z_S0 + 0x1a0, V_PS, F_NOSF, M_ZNOSF },
		/* RA from caller_sp+112, FP from caller_sp+88; its own back
		 * chain [Z_S0+0x100] = Z_S0+0x200, CFA Z_S0+0x200+160. */
		{ Z_NOSF + 0x110, Z_S0 + 0x100, 0x8880, Z_S0 + 0x2a0, V_PSF, F_FPFB | F_NOSF,
		  M_ZNOSF },
	};

	(void)state;
	u.flags = SFRAME_UNWIND_FP_FALLBACK;
	put64(Z_S0, Z_S0 + 0x100);
	put64(Z_S0 + 0x100 + 112, Z_NOSF + 0x110);
	put64(Z_S0 + 0x100 + 88, 0x8880);
	put64(Z_S0 + 0x100, Z_S0 + 0x200);
	put64(Z_S0 + 0x200 + 112, Z_NOSF + 0x210);
	put64(Z_S0 + 0x200 + 88, 0x9990);
	put64(Z_S0 + 0x200, 0);		/* frame 3's back chain: 0, outermost */
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(nfr, 4);
	EXPECT_FRAMES(x, 3);
	assert_int_equal(fr[3].pc, Z_NOSF + 0x210);
	assert_int_equal(fr[3].sp, Z_S0 + 0x200);
	assert_int_equal(fr[3].fp, 0x9990);
	assert_int_equal(fr[3].valid, V_PSF);
	assert_true(fr[3].flags & F_FPFB);
	assert_int_equal(fr[3].cfa, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_s390_walk, setup_s390),
		T(test_s390_ra_not_saved_n1, setup_s390),
		T(test_s390_no_ra_reg, setup_s390),
		T(test_s390_v2_regnum_ra, setup_s390),
		T(test_s390_v2_regnum_fp, setup_s390),
		T(test_s390_v2_regnum_no_get_reg, setup_s390),
		T(test_s390_v2_regnum_not_topmost, setup_s390),
		T(test_s390_flex_ra_reg, setup_s390),
		T(test_s390_back_chain, setup_s390),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
