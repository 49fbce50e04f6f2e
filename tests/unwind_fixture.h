/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * unwind_fixture.h - what the unwinder's tests share: the hand-built
 * sections and their functions for amd64, aarch64 and s390x, the synthetic
 * stack and register hooks, the module table each setup fills, walk() and
 * EXPECT_FRAMES, and each ABI's standard stack.
 *
 * A stack is a byte array standing for memory at STK .. STK + STK_SIZE,
 * holding 8-byte values in the TARGET's byte order (s390x and aarch64-BE
 * stacks are big endian); reads outside it fail with -14 (-EFAULT). The read
 * callback counts and logs its reads and can fail the k-th one with -5.
 *
 * Every expected value is derived from the rules of sframe_unwind.h and
 * sframe_format.h ("Unwinding, per ABI"), with the reasoning in a comment
 * next to it:
 *   amd64:   CFA = SP|FP + w0; RA at CFA - 8 (fixed); FP at CFA + w1 when
 *            N = 2, else unchanged; caller SP = CFA.
 *   aarch64: CFA = SP|FP + w0; N = 3: RA at CFA + w1, FP at CFA + w2; N = 1:
 *            RA still in x30 (topmost frame only), FP unchanged.
 *   s390x:   CFA offset stored as (off - 160) / 8; caller SP = CFA - 160;
 *            RA word 0 = padding (RA in r14, topmost only).
 *   FLEX (any ABI, aarch64 too): (*)(register or CFA + offset); a register
 *            other than SP, FP and the link register is known in the
 *            topmost frame only (get_reg), else the step fails (NO_REG).
 *   Return addresses are looked up at PC - 1; the topmost and interrupted
 *   frames' PCs exactly.
 *
 * walk() runs every walk again with a row cache, with the stack as a
 * window and as sframe_unwind_pcs(), and fails the test unless they agree
 * (not when a test makes reads fail: a window read would move the failure).
 */
#ifndef SFRAME_TEST_UNWIND_FIXTURE_H
#define SFRAME_TEST_UNWIND_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "builder.h"
#include "sframe/sframe_unwind.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define V_PS	(SFRAME_REG_PC | SFRAME_REG_SP)
#define V_PSF	(SFRAME_REG_PC | SFRAME_REG_SP | SFRAME_REG_FP)
#define V_ALL	(SFRAME_REG_PC | SFRAME_REG_SP | SFRAME_REG_FP | SFRAME_REG_RA)

#define F_TOP	SFRAME_FRAME_TOPMOST
#define F_INT	SFRAME_FRAME_INTERRUPTED
#define F_FPFB	SFRAME_FRAME_FP_FALLBACK
#define F_SIG	SFRAME_FRAME_SIGNAL
#define F_SIGNED SFRAME_FRAME_RA_SIGNED
#define F_NOSF	SFRAME_FRAME_NO_SFRAME
#define F_LOST	SFRAME_FRAME_FP_LOST

#define STK		UINT64_C(0x7ffe00000000)
#define STK_SIZE	0x4000u
#define LOG_MAX		64
#define EFAULT_ERR	(-14)
#define EIO_ERR		(-5)

struct stack {
	uint64_t base;
	bool be;
	unsigned calls;
	unsigned fail_at;	/* 1-based; 0 = never */
	int fail_err;
	unsigned misaligned;
	uint64_t log[LOG_MAX];
	uint8_t mem[STK_SIZE];
};

extern struct stack stk;

/* Store an 8-byte stack value in the target's byte order. */
void put64(uint64_t addr, uint64_t v);

struct regfile {
	uint64_t val[32];
	uint32_t have;		/* bit per DWARF register 0..31 */
	int err;		/* returned when non-zero */
	unsigned calls;
	unsigned last;
};

extern struct regfile rf;

int get_reg(void *ctx, unsigned int reg, uint64_t *v);

void set_reg(unsigned reg, uint64_t v);

struct stripper {
	unsigned calls;
	uint64_t args[8];
};

extern struct stripper strp;

/* Keeps the low 32 bits: narrower than any va_bits, so its use is visible. */
uint64_t strip_low32(void *ctx, uint64_t ra);

struct tsec {
	struct sfb b;
	uint8_t buf[SFB_MAX_OUT];
	struct sframe_section sec;
	struct sfb_reader rd;
};

extern struct tsec amd, a64, s390, s390v2;

/* amd64 functions (one v3 section). */
#define X_LEAF		UINT64_C(0x401000)	/* 0x20: SP+8 */
#define X_MID		UINT64_C(0x401100)	/* 0x40: @0 SP+8; @4 SP+16, FP at c-16 */
#define X_NEXT		UINT64_C(0x401140)	/* 0x40: SP+8 (right after mid) */
#define X_OUTER		UINT64_C(0x401200)	/* 0x80: @0 SP+8; @1 SP+16; @4 FP+16, FP c-16 */
#define X_OUTER_RA	(X_OUTER + 0x30)
#define X_START		UINT64_C(0x401300)	/* 0x40: @0 N = 0, RA undefined */
#define X_START_RA	(X_START + 0x10)
#define X_START0	UINT64_C(0x401380)	/* 0x40: v3 DEFAULT FDE, zero FREs */
#define X_START0_RA	(X_START0 + 0x10)
#define X_HANDLER	UINT64_C(0x401400)	/* 0x40: SP+8 (signal handler) */
#define X_H		UINT64_C(0x401480)	/* 0x80: SP+8 (just before X_G) */
#define X_G		UINT64_C(0x401500)	/* 0x40: FLEX CFA = r10 + 8 */
#define X_REC		UINT64_C(0x401600)	/* 0x40: @0 SP+8; @1 SP+16 (recursive) */
#define X_REC_RA	(X_REC + 0x15)
#define X_R10		UINT64_C(0x401700)	/* 0x40: FLEX CFA = r10 + 0 */
#define X_DRAP		UINT64_C(0x401800)	/* 0x40: FLEX CFA = *(fp-40), RA pad, FP = *(fp+0) */
#define X_FLEXRA	UINT64_C(0x401900)	/* 0x40: FLEX CFA sp+32, RA *(c-24), FP *(c-16) */
#define X_FLEXRA4	UINT64_C(0x401a00)	/* 0x40: FLEX CFA sp+32, RA *(c-24) */
#define X_LOOP		UINT64_C(0x401b00)	/* 0x40: FP+16, FP at c-16 */
#define X_MISAL		UINT64_C(0x401c00)	/* 0x40: SP+12 */
#define X_FPRULE	UINT64_C(0x401d00)	/* 0x40: FLEX CFA sp+16, RA pad, FP = *(fp+0) */
#define X_EPI		UINT64_C(0x401e00)	/* 0x40: @0 SP+8; @1 SP+16, FP c-16; @4 FP+16,
						 * FP c-16; @0x20 (after leave) SP+8, FP c-16 */
#define X_EPI_RET	(X_EPI + 0x20)
#define X_TRAMP		UINT64_C(0x402000)	/* 0x10: v3 signal FDE, zero FREs */
#define X_MOD_END	UINT64_C(0x402100)
#define X_NOSF		UINT64_C(0x600000)	/* module without SFrame, up to 0x601000 */

/* aarch64 functions (one v3 section per byte order). */
#define Y_L		UINT64_C(0x10000)	/* 0x20: N=1 SP+0 */
#define Y_LM		UINT64_C(0x10020)	/* 0x20: N=1 SP+0, mangled */
#define Y_F		UINT64_C(0x10100)	/* 0x40: @0 N=1; @4 SP+32, RA c-24, FP c-32 */
#define Y_F_RA		(Y_F + 0x20)
#define Y_FM		UINT64_C(0x10140)	/* 0x40: same as Y_F, row @4 mangled */
#define Y_FM_RA		(Y_FM + 0x30)
#define Y_G		UINT64_C(0x10200)	/* 0x40: @0 N=1; @4 FP+16, RA c-8, FP c-16 */
#define Y_G_RA		(Y_G + 0x20)
#define Y_S		UINT64_C(0x10300)	/* 0x40: N=0 */
#define Y_S_RA		(Y_S + 0x10)
#define Y_TRAMP		UINT64_C(0x10400)	/* 0x10: signal, zero FREs */
#define Y_N1		UINT64_C(0x10500)	/* 0x40: N=1 only */
#define Y_TRAMP2	UINT64_C(0x10600)	/* 0x10: signal, row SP+64, RA c-56, FP c-64 */
#define Y_XF		UINT64_C(0x10700)	/* 0x40: FLEX sp+16, RA *(c-8), FP *(c-16), signed */
#define Y_XF_RA		(Y_XF + 0x20)
#define Y_XR		UINT64_C(0x10800)	/* 0x40: FLEX CFA = x19 + 0, RA and FP padding */
#define Y_XW		UINT64_C(0x10900)	/* 0x40: FLEX sp+32, RA = register 70000 + 0 */
#define Y_NOSF		UINT64_C(0x40000)	/* code without SFrame, up to 0x41000 */
#define Y_MOD_END	UINT64_C(0x11000)

void build_a64(uint8_t abi);

/* s390x functions: a v3 section and a v2 one. */
#define Z_F		UINT64_C(0x20000)	/* 0x40: CFA sp+160, RA pad (0), FP c-72 */
#define Z_F1		UINT64_C(0x20040)	/* 0x40: N=1 CFA sp+160 */
#define Z_G		UINT64_C(0x20100)	/* 0x80: @0 N=1 sp+160; @6 sp+320, RA c-48, FP c-72 */
#define Z_G_RA		(Z_G + 0x30)
#define Z_S		UINT64_C(0x20200)	/* 0x40: N=0 */
#define Z_S_RA		(Z_S + 0x10)
#define Z_FX		UINT64_C(0x20300)	/* 0x40: FLEX CFA sp+168, RA = f0 (DWARF 16) */
#define Z_MOD_END	UINT64_C(0x21000)
#define Z2_RA		UINT64_C(0x28000)	/* v2, 0x40: sp+160, RA word (16 << 1) | 1 */
#define Z2_RAFP		UINT64_C(0x28040)	/* v2, 0x40: + FP word (17 << 1) | 1 */
#define Z2_RAF		UINT64_C(0x28080)	/* v2, 0x40: sp+320, RA word (16 << 1) | 1 */
#define Z2_MOD_END	UINT64_C(0x29000)
#define Z_NOSF		UINT64_C(0x30000)	/* module without SFrame, up to 0x31000 */

extern struct sframe_module slots[8];
extern struct sframe_module_table mt;
extern struct sframe_unwinder u;
extern struct sframe_frame fr[320];
extern uint32_t nfr;

/* Table: slots[0] = the amd64 section, slots[1] = code without SFrame. */
int setup_amd64(void **state);

#define M_AMD	(&slots[0])
#define M_NOSF	(&slots[1])

int setup_a64_le(void **state);

int setup_a64_be(void **state);

#define M_A64	(&slots[0])

/* Table: slots[0] v3 section, slots[1] v2 section, slots[2] no SFrame. */
int setup_s390(void **state);

#define M_Z	(&slots[0])
#define M_Z2	(&slots[1])
#define M_ZNOSF	(&slots[2])

int walk(const struct sframe_regs *r, uint32_t max);

struct sframe_regs mkregs(uint64_t pc, uint64_t sp, uint64_t fp, uint64_t ra,
			  uint32_t valid);

/* An expected frame. fp is compared only when valid has SFRAME_REG_FP. */
struct xf {
	uint64_t pc, sp, fp, cfa;
	uint32_t valid, flags;
	const struct sframe_module *mod;
};

void expect_frames_at(const char *file, int line, const struct xf *x, uint32_t n);

#define EXPECT_FRAMES(x, n)	expect_frames_at(__FILE__, __LINE__, (x), (n))

#define S0	(STK + 0x100)
#define FP0	UINT64_C(0x5ca1ab1e)	/* rbp used as a scratch register by leaf and mid */

/*
 * frame 0  leaf, pc = its first instruction (topmost: looked up exactly; at
 *          PC - 1 it would miss), sp S0. Row SP+8: CFA = S0+8, RA at S0.
 * frame 1  mid, pc = mid's END (its last instruction is the call), sp S0+8.
 *          Looked up at PC - 1 = mid+0x3f: row @4 SP+16 -> CFA S0+0x18, RA at
 *          S0+0x10, FP at CFA-16 = S0+8. (An exact lookup would land in
 *          X_NEXT, whose SP+8 row reads the RA from S0+8 instead.)
 * frame 2  outer at X_OUTER_RA, sp S0+0x18, fp = [S0+8] = S0+0x38. Row @4
 *          FP+16: CFA = S0+0x48, RA at S0+0x40, FP at S0+0x38 (0).
 * frame 3  @last_ra, sp S0+0x48, fp 0.
 */
struct sframe_regs amd64_three_frames(uint64_t last_ra);

void amd64_three_frames_expect(struct xf *x, uint64_t last_ra);

#define A_FP0	UINT64_C(0x2220)

uint64_t sign48(uint64_t ra);

/*
 * frame 0  leaf (N=1, CFA sp+0), sp STK+0x100: RA in x30 (regs.ra); FP
 *          unchanged. Mangled variant: Y_LM, x30 signed.
 * frame 1  Y_F_RA / Y_FM_RA, sp STK+0x100: row @4: CFA = sp+32 = STK+0x120,
 *          RA at CFA-24 = STK+0x108 -> Y_G_RA, FP at CFA-32 = STK+0x100 ->
 *          STK+0x130.
 * frame 2  Y_G_RA, sp STK+0x120, fp STK+0x130: row @4: CFA = fp+16 =
 *          STK+0x140, RA at STK+0x138 -> Y_S_RA, FP at STK+0x130 -> 0.
 * frame 3  Y_S_RA (N = 0): END.
 */
struct sframe_regs a64_stack(bool mangled, uint64_t (*sign)(uint64_t));

#define Z_S0	(STK + 0x200)
#define Z_FP0	UINT64_C(0x1110)

/*
 * frame 0  Z_F, sp Z_S0: CFA = sp + 160 (stored (160-160)/8 = 0) = Z_S0+0xa0;
 *          RA word 0 = padding: RA in r14 (regs.ra = Z_G_RA); FP at CFA-72 =
 *          Z_S0+0x58 -> 0x5550; caller SP = CFA - 160 = Z_S0.
 * frame 1  Z_G_RA, sp Z_S0: row @6: CFA = sp + 320 (stored 20) = Z_S0+0x140;
 *          RA at CFA-48 = Z_S0+0x110 -> Z_S_RA; FP at CFA-72 = Z_S0+0xf8 ->
 *          0x6660; caller SP = Z_S0+0xa0.
 * frame 2  Z_S_RA (N = 0): END.
 */
struct sframe_regs s390_stack(void);

/* A test with the setup that builds its sections and module table. */
#define T(f, s)	cmocka_unit_test_setup(f, s)

#endif /* SFRAME_TEST_UNWIND_FIXTURE_H */
