/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * unwind_fixture.c - the unwinder tests' shared sections, stack, hooks and
 * walk() with its cross-checks (see unwind_fixture.h).
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

#define ADDR1	SFRAME_FRE_TYPE_ADDR1
#define INC	SFRAME_PC_TYPE_INC
#define SP	SFRAME_BASE_REG_SP
#define FP	SFRAME_BASE_REG_FP
#define V3_FLAGS (SFRAME_F_FDE_SORTED | SFRAME_F_FDE_FUNC_START_PCREL)

struct stack stk;

static int stack_read(void *ctx, uint64_t addr, void *dst, size_t len)
{
	struct stack *s = ctx;
	unsigned n = ++s->calls;

	if (n <= LOG_MAX)
		s->log[n - 1] = addr;
	if (len != 8)
		fail_msg("stack read of %zu bytes at 0x%llx: expected 8", len,
			 (unsigned long long)addr);
	if (addr & 7)
		s->misaligned++;
	if (s->fail_at && n == s->fail_at)
		return s->fail_err;
	if (addr < s->base || addr - s->base > STK_SIZE - len)
		return EFAULT_ERR;
	memcpy(dst, s->mem + (addr - s->base), len);
	return 0;
}

void put64(uint64_t addr, uint64_t v)
{
	size_t off, i;

	if (addr < stk.base || addr - stk.base > STK_SIZE - 8)
		fail_msg("put64 outside the stack: 0x%llx", (unsigned long long)addr);
	off = (size_t)(addr - stk.base);
	for (i = 0; i < 8; i++) {
		unsigned shift = stk.be ? (unsigned)(7 - i) * 8 : (unsigned)i * 8;

		stk.mem[off + i] = (uint8_t)(v >> shift);
	}
}

struct regfile rf;

int get_reg(void *ctx, unsigned int reg, uint64_t *v)
{
	struct regfile *r = ctx;

	r->calls++;
	r->last = reg;
	if (r->err)
		return r->err;
	if (reg >= 32 || !(r->have & (UINT32_C(1) << reg)))
		return -SFRAME_ERR_NO_REG;
	*v = r->val[reg];
	return 0;
}

void set_reg(unsigned reg, uint64_t v)
{
	rf.val[reg] = v;
	rf.have |= UINT32_C(1) << reg;
}

struct stripper strp;

uint64_t strip_low32(void *ctx, uint64_t ra)
{
	struct stripper *s = ctx;

	if (s->calls < ARRAY_SIZE(s->args))
		s->args[s->calls] = ra;
	s->calls++;
	return ra & UINT64_C(0xffffffff);
}

struct tsec amd, a64, s390, s390v2;

/* Emit, open, check the section is valid input, and reset the read count. */
static void finish(struct tsec *t, uint64_t base)
{
	sfb_open(&t->b, t->buf, sizeof(t->buf), &t->sec, &t->rd, base);
	assert_err(sframe_check(&t->sec, NULL), 0);
	t->rd.calls = 0;
}

static struct sfb_fde *flex_fde(struct sfb *b, uint64_t start, uint32_t size)
{
	struct sfb_fde *f = sfb_fde(b, start, size, ADDR1, INC);

	f->fde_type = SFRAME_FDE_TYPE_FLEX;
	return f;
}

static void build_amd64(void)
{
	struct sfb *b = &amd.b;
	struct sfb_fde *f;

	sfb_init(b, SFRAME_VERSION_3, SFRAME_ABI_AMD64_LE, false, V3_FLAGS, 0x400000);
	sfb_fde(b, X_LEAF, 0x20, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 1, 8);
	sfb_fde(b, X_MID, 0x40, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 1, 8);
	sfb_fre(b, 4, SP, 1, 2, 16, -16);
	sfb_fde(b, X_NEXT, 0x40, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 1, 8);
	sfb_fde(b, X_OUTER, 0x80, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 1, 8);
	sfb_fre(b, 1, SP, 1, 2, 16, -16);
	sfb_fre(b, 4, FP, 1, 2, 16, -16);
	sfb_fde(b, X_START, 0x40, ADDR1, INC);
	sfb_fre(b, 0, FP, 1, 0);			/* info 0x00: RA undefined */
	sfb_fde(b, X_START0, 0x40, ADDR1, INC);		/* no rows: outermost */
	sfb_fde(b, X_HANDLER, 0x40, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 1, 8);
	sfb_fde(b, X_H, 0x80, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 1, 8);
	flex_fde(b, X_G, 0x40);
	sfb_fre(b, 0, FP, 1, 2, SFB_FLEX_CTRL(10, 0, 1), 8);
	sfb_fde(b, X_REC, 0x40, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 1, 8);
	sfb_fre(b, 1, SP, 1, 1, 16);
	flex_fde(b, X_R10, 0x40);
	sfb_fre(b, 0, FP, 1, 2, SFB_FLEX_CTRL(10, 0, 1), 0);
	flex_fde(b, X_DRAP, 0x40);
	sfb_fre(b, 0, FP, 1, 5, SFB_FLEX_CTRL(6, 1, 1), -40, 0, SFB_FLEX_CTRL(6, 1, 1), 0);
	flex_fde(b, X_FLEXRA, 0x40);
	sfb_fre(b, 0, FP, 1, 6, SFB_FLEX_CTRL(7, 0, 1), 32, SFB_FLEX_CTRL(0, 1, 0), -24,
		SFB_FLEX_CTRL(0, 1, 0), -16);
	flex_fde(b, X_FLEXRA4, 0x40);
	sfb_fre(b, 0, FP, 1, 4, SFB_FLEX_CTRL(7, 0, 1), 32, SFB_FLEX_CTRL(0, 1, 0), -24);
	sfb_fde(b, X_LOOP, 0x40, ADDR1, INC);
	sfb_fre(b, 0, FP, 1, 2, 16, -16);
	sfb_fde(b, X_MISAL, 0x40, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 1, 12);
	flex_fde(b, X_FPRULE, 0x40);
	sfb_fre(b, 0, FP, 1, 5, SFB_FLEX_CTRL(7, 0, 1), 16, 0, SFB_FLEX_CTRL(6, 1, 1), 0);
	/* gcc's frame-pointer function: "leave" leaves the FP rule as it was. */
	sfb_fde(b, X_EPI, 0x40, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 1, 8);
	sfb_fre(b, 1, SP, 1, 2, 16, -16);
	sfb_fre(b, 4, FP, 1, 2, 16, -16);
	sfb_fre(b, 0x20, SP, 1, 2, 8, -16);
	f = sfb_fde(b, X_TRAMP, 0x10, ADDR1, INC);
	f->signal = true;
	finish(&amd, 0x1000);
}

void build_a64(uint8_t abi)
{
	struct sfb *b = &a64.b;
	struct sfb_fde *f;

	sfb_init(b, SFRAME_VERSION_3, abi, abi == SFRAME_ABI_AARCH64_BE, V3_FLAGS, 0x8000);
	sfb_fde(b, Y_L, 0x20, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 1, 0);
	sfb_fde(b, Y_LM, 0x20, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 1, 0)->mangled = true;
	sfb_fde(b, Y_F, 0x40, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 1, 0);
	sfb_fre(b, 4, SP, 1, 3, 32, -24, -32);
	sfb_fde(b, Y_FM, 0x40, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 1, 0)->mangled = true;
	sfb_fre(b, 4, SP, 1, 3, 32, -24, -32)->mangled = true;
	sfb_fde(b, Y_G, 0x40, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 1, 0);
	sfb_fre(b, 4, FP, 1, 3, 16, -8, -16);
	sfb_fde(b, Y_S, 0x40, ADDR1, INC);
	sfb_fre(b, 0, FP, 1, 0);
	f = sfb_fde(b, Y_TRAMP, 0x10, ADDR1, INC);
	f->signal = true;
	sfb_fde(b, Y_N1, 0x40, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 1, 16);
	f = sfb_fde(b, Y_TRAMP2, 0x10, ADDR1, INC);
	f->signal = true;
	sfb_fre(b, 0, SP, 1, 3, 64, -56, -64);
	/* FLEX on aarch64: gas writes none, but the format allows it. */
	flex_fde(b, Y_XF, 0x40);
	sfb_fre(b, 0, 0, 2, 6, SFB_FLEX_CTRL(31, 0, 1), 16, SFB_FLEX_CTRL(0, 1, 0), -8,
		SFB_FLEX_CTRL(0, 1, 0), -16)->mangled = true;
	flex_fde(b, Y_XR, 0x40);
	sfb_fre(b, 0, 0, 2, 4, SFB_FLEX_CTRL(19, 0, 1), 0, 0, 0);
	flex_fde(b, Y_XW, 0x40);
	sfb_fre(b, 0, 0, 4, 4, SFB_FLEX_CTRL(31, 0, 1), 32, SFB_FLEX_CTRL(70000, 0, 1), 0);
	finish(&a64, 0x2000);
}

static void build_s390(void)
{
	struct sfb *b = &s390.b;

	sfb_init(b, SFRAME_VERSION_3, SFRAME_ABI_S390X_BE, true, V3_FLAGS, 0x18000);
	sfb_fde(b, Z_F, 0x40, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 3, SFB_S390X_CFA(160), 0, -72);
	sfb_fde(b, Z_F1, 0x40, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 1, SFB_S390X_CFA(160));
	sfb_fde(b, Z_G, 0x80, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 1, SFB_S390X_CFA(160));
	sfb_fre(b, 6, SP, 1, 3, SFB_S390X_CFA(320), -48, -72);
	sfb_fde(b, Z_S, 0x40, ADDR1, INC);
	sfb_fre(b, 0, FP, 1, 0);
	flex_fde(b, Z_FX, 0x40);
	sfb_fre(b, 0, FP, 1, 4, SFB_FLEX_CTRL(15, 0, 1), SFB_S390X_CFA(168),
		SFB_FLEX_CTRL(16, 0, 1), 0);
	finish(&s390, 0x3000);

	b = &s390v2.b;
	sfb_init(b, SFRAME_VERSION_2, SFRAME_ABI_S390X_BE, true, V3_FLAGS, 0x18000);
	sfb_fde(b, Z2_RA, 0x40, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 2, SFB_S390X_CFA(160), (16 << 1) | 1);
	sfb_fde(b, Z2_RAFP, 0x40, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 3, SFB_S390X_CFA(160), (16 << 1) | 1, (17 << 1) | 1);
	sfb_fde(b, Z2_RAF, 0x40, ADDR1, INC);
	sfb_fre(b, 0, SP, 1, 2, SFB_S390X_CFA(320), (16 << 1) | 1);
	finish(&s390v2, 0x4000);
}

struct sframe_module slots[8];
struct sframe_module_table mt;
struct sframe_unwinder u;
struct sframe_frame fr[320];
uint32_t nfr;

static void reset_common(uint8_t abi, bool be)
{
	memset(&stk, 0, sizeof(stk));
	stk.base = STK;
	stk.be = be;
	memset(&rf, 0, sizeof(rf));
	memset(&strp, 0, sizeof(strp));
	memset(slots, 0, sizeof(slots));
	sframe_modules_init(&mt, slots, ARRAY_SIZE(slots));
	memset(&u, 0, sizeof(u));
	u.abi = abi;
	u.modules = &mt;
	u.read_stack = stack_read;
	u.stack_ctx = &stk;
}

int setup_amd64(void **state)
{
	(void)state;
	build_amd64();
	reset_common(SFRAME_ABI_AMD64_LE, false);
	assert_err(sframe_modules_add(&mt, X_NOSF, X_NOSF + 0x1000, NULL, NULL), 0);
	assert_err(sframe_modules_add(&mt, X_LEAF, X_MOD_END, &amd.sec, NULL), 0);
	return 0;
}

static void setup_a64_abi(uint8_t abi)
{
	build_a64(abi);
	reset_common(abi, abi == SFRAME_ABI_AARCH64_BE);
	assert_err(sframe_modules_add(&mt, Y_L, Y_MOD_END, &a64.sec, NULL), 0);
}

int setup_a64_le(void **state)
{
	(void)state;
	setup_a64_abi(SFRAME_ABI_AARCH64_LE);
	return 0;
}

int setup_a64_be(void **state)
{
	(void)state;
	setup_a64_abi(SFRAME_ABI_AARCH64_BE);
	return 0;
}

int setup_s390(void **state)
{
	(void)state;
	build_s390();
	reset_common(SFRAME_ABI_S390X_BE, true);
	assert_err(sframe_modules_add(&mt, Z_NOSF, Z_NOSF + 0x1000, NULL, NULL), 0);
	assert_err(sframe_modules_add(&mt, Z2_RA, Z2_MOD_END, &s390v2.sec, NULL), 0);
	assert_err(sframe_modules_add(&mt, Z_F, Z_MOD_END, &s390.sec, NULL), 0);
	return 0;
}

/*
 * The same walk with a cache of decoded rows (4 entries: collisions), twice
 * (the second from the cache), and the stack as a direct window besides the
 * callback; with the window and no cache; then sframe_unwind_pcs() with and
 * without them. Everything must be what the plain walk gave. Skipped when a
 * test injects read failures (window reads do not reach the callback, so the
 * failing read moves).
 */
static void cross_check(const struct sframe_regs *r, uint32_t max, int ret)
{
	static struct sframe_frame f2[ARRAY_SIZE(fr)];
	static uint64_t pcs[ARRAY_SIZE(fr)];
	struct sframe_cache_entry entries[4];
	struct sframe_unwind_cache cache;
	struct sframe_unwinder uc = u, up = u, uw;
	struct tsec *secs[4] = { &amd, &a64, &s390, &s390v2 };
	unsigned calls = stk.calls, misaligned = stk.misaligned, sec_calls[4];
	struct stripper strp_saved = strp;
	uint32_t n2, k;
	int pass, i;

	if (stk.fail_at || max > ARRAY_SIZE(fr))
		return;
	for (i = 0; i < 4; i++) {
		if (secs[i]->rd.fail_at)
			return;
		sec_calls[i] = secs[i]->rd.calls;
	}
	up.cache = NULL;
	assert_err(sframe_unwind_cache_init(&cache, entries, 4), 0);
	uc.cache = &cache;
	/* (A test's own window is kept: it decides what can be read.) */
	if (!uc.stack_data && uc.read_stack) {
		uc.stack_data = stk.mem;
		uc.stack_addr = stk.base;
		uc.stack_len = STK_SIZE;
	}
	uw = uc;
	uw.cache = NULL;
	for (pass = 0; pass < 3; pass++) {
		memset(f2, 0x5a, sizeof(f2));
		assert_err(sframe_unwind_stack(pass < 2 ? &uc : &uw, r, f2, max, &n2), ret);
		assert_int_equal(n2, nfr);
		assert_frames_equal(f2, fr, nfr);
	}
	for (pass = 0; pass < 4; pass++) {
		assert_err(sframe_unwind_pcs(pass == 3 ? &uw : pass ? &uc : &up, r, pcs, max, &n2),
			   ret);
		assert_int_equal(n2, nfr);
		for (k = 0; k < nfr; k++)
			assert_int_equal(pcs[k], fr[k].pc);
	}
	stk.calls = calls;
	stk.misaligned = misaligned;
	strp = strp_saved;
	for (i = 0; i < 4; i++)
		secs[i]->rd.calls = sec_calls[i];
}

int walk(const struct sframe_regs *r, uint32_t max)
{
	int ret;

	memset(fr, 0x5a, sizeof(fr));
	nfr = 0xdead;
	ret = sframe_unwind_stack(&u, r, fr, max, &nfr);
	cross_check(r, max, ret);
	return ret;
}

struct sframe_regs mkregs(uint64_t pc, uint64_t sp, uint64_t fp, uint64_t ra,
			  uint32_t valid)
{
	struct sframe_regs r;

	memset(&r, 0, sizeof(r));
	r.pc = pc;
	r.sp = sp;
	r.fp = fp;
	r.ra = ra;
	r.valid = valid;
	return r;
}

static void check_field(const char *file, int line, unsigned i, const char *what,
			uint64_t got, uint64_t want)
{
	if (got == want)
		return;
	print_error("frame %u: %s = 0x%llx, expected 0x%llx\n", i, what,
		    (unsigned long long)got, (unsigned long long)want);
	_fail(file, line);
}

void expect_frames_at(const char *file, int line, const struct xf *x, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		check_field(file, line, i, "pc", fr[i].pc, x[i].pc);
		check_field(file, line, i, "sp", fr[i].sp, x[i].sp);
		check_field(file, line, i, "valid", fr[i].valid, x[i].valid);
		if (x[i].valid & SFRAME_REG_FP)
			check_field(file, line, i, "fp", fr[i].fp, x[i].fp);
		check_field(file, line, i, "cfa", fr[i].cfa, x[i].cfa);
		check_field(file, line, i, "flags", fr[i].flags, x[i].flags);
		check_field(file, line, i, "module", (uintptr_t)fr[i].module,
			    (uintptr_t)x[i].mod);
	}
}

struct sframe_regs amd64_three_frames(uint64_t last_ra)
{
	put64(S0, X_MID + 0x40);
	put64(S0 + 0x08, S0 + 0x38);
	put64(S0 + 0x10, X_OUTER_RA);
	put64(S0 + 0x38, 0);
	put64(S0 + 0x40, last_ra);
	return mkregs(X_LEAF, S0, FP0, 0, V_PSF);
}

void amd64_three_frames_expect(struct xf *x, uint64_t last_ra)
{
	const struct xf e[4] = {
		{ X_LEAF, S0, FP0, S0 + 8, V_PSF, F_TOP, M_AMD },
		/* FP unchanged by leaf (N = 1): still FP0, still valid. */
		{ X_MID + 0x40, S0 + 8, FP0, S0 + 0x18, V_PSF, 0, M_AMD },
		{ X_OUTER_RA, S0 + 0x18, S0 + 0x38, S0 + 0x48, V_PSF, 0, M_AMD },
		/* Outermost: no step from it, so no CFA. */
		{ last_ra, S0 + 0x48, 0, 0, V_PSF, 0, M_AMD },
	};

	memcpy(x, e, sizeof(e));
}

uint64_t sign48(uint64_t ra)
{
	return ra | UINT64_C(0xa55a000000000000);
}

struct sframe_regs a64_stack(bool mangled, uint64_t (*sign)(uint64_t))
{
	put64(STK + 0x108, mangled ? sign(Y_G_RA) : Y_G_RA);
	put64(STK + 0x100, STK + 0x130);
	put64(STK + 0x138, Y_S_RA);
	put64(STK + 0x130, 0);
	if (mangled)
		return mkregs(Y_LM + 4, STK + 0x100, A_FP0, sign(Y_FM_RA), V_ALL);
	return mkregs(Y_L + 4, STK + 0x100, A_FP0, Y_F_RA, V_ALL);
}

struct sframe_regs s390_stack(void)
{
	put64(Z_S0 + 0x58, 0x5550);
	put64(Z_S0 + 0x110, Z_S_RA);
	put64(Z_S0 + 0xf8, 0x6660);
	return mkregs(Z_F + 4, Z_S0, Z_FP0, Z_G_RA, V_ALL);
}
