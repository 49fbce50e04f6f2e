/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_check.c - sframe_check(): valid sections pass; each kind of damage
 * gives its error code and says where (FDE index, FRE index or
 * SFRAME_NO_INDEX).
 *
 * Assumptions where the header comment leaves details open (noted per test):
 * an ordering problem between FDE i-1 and FDE i is reported at FDE i; a
 * problem of an FDE as a whole (type, rep_size, attribute record) reports
 * fre = SFRAME_NO_INDEX; a header-level FRE count mismatch reports both
 * indexes as SFRAME_NO_INDEX.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "builder.h"

static struct sfb b;
static uint8_t buf[SFB_MAX_OUT];
static struct sframe_section sec;
static struct sfb_reader rd;

#define NO	SFRAME_NO_INDEX

static void open_it(void)
{
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0x1000);
}

/* sframe_check() must return @err at (@fde, @fre); also with where == NULL. */
static void expect_problem(int err, uint32_t fde, uint32_t fre)
{
	struct sframe_problem where = { 0x5a5a5a5a, 0x5a5a5a5a };

	assert_err(sframe_check(&sec, &where), err);
	assert_int_equal(where.fde, fde);
	assert_int_equal(where.fre, fre);
	assert_err(sframe_check(&sec, NULL), err);
}

static void expect_ok(void)
{
	struct sframe_problem where;

	assert_err(sframe_check(&sec, &where), 0);
	assert_err(sframe_check(&sec, NULL), 0);
}

/* ---- valid sections -------------------------------------------------------- */

static void build_valid(uint8_t version, uint8_t abi, bool be, uint8_t flags)
{
	bool aarch64 = abi == SFRAME_ABI_AARCH64_LE || abi == SFRAME_ABI_AARCH64_BE;
	struct sfb_fde *f;
	struct sfb_fre *r;

	sfb_init(&b, version, abi, be, flags, 0x400000);
	f = sfb_fde(&b, 0x401000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	f->pauth_key = aarch64 ? SFRAME_PAUTH_KEY_B : 0;
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 16);
	if (aarch64) {
		r = sfb_fre(&b, 4, SFRAME_BASE_REG_SP, 1, 3, 32, -8, -16);
		r->mangled = true;
		sfb_fre(&b, 8, SFRAME_BASE_REG_FP, 2, 3, 32, -8, -16);
	} else if (abi == SFRAME_ABI_S390X_BE) {
		sfb_fre(&b, 4, SFRAME_BASE_REG_SP, 1, 2, SFB_S390X_CFA(320), -48);
		sfb_fre(&b, 8, SFRAME_BASE_REG_FP, 2, 3, SFB_S390X_CFA(320), 0, -72);
	} else {
		sfb_fre(&b, 4, SFRAME_BASE_REG_SP, 1, 2, 16, -16);
		sfb_fre(&b, 8, SFRAME_BASE_REG_FP, 4, 2, 16, -16);
	}
	sfb_fre(&b, 0x3f, SFRAME_BASE_REG_FP, 1, 0);	/* RA undefined (info 0x00, as gas) */
	/* PCMASK with rep_size (v1 amd64: the implied 16). */
	if (version >= 2 || abi == SFRAME_ABI_AMD64_LE) {
		f = sfb_fde(&b, 0x401040, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_MASK);
		f->rep_size = 16;
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
		sfb_fre(&b, 15, SFRAME_BASE_REG_SP, 1, 1, 16);
	}
	/* Adjacent functions, ADDR2 and ADDR4. */
	sfb_fde(&b, 0x401080, 0x1000, SFRAME_FRE_TYPE_ADDR2, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_fre(&b, 0xfff, SFRAME_BASE_REG_SP, 2, 1, 8);
	sfb_fde(&b, 0x402080, 0x20000, SFRAME_FRE_TYPE_ADDR4, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 4, 1, 8);
	sfb_fre(&b, 0x1ffff, SFRAME_BASE_REG_SP, 4, 1, 8);
	/*
	 * v3 FLEX (on every ABI: gas writes it for amd64 and s390x only, but
	 * the format allows it anywhere) in every shape of test_rules.c, a
	 * 29-bit register number, and signal frames.
	 */
	if (version >= 3) {
		int cfa = abi == SFRAME_ABI_S390X_BE ? SFB_S390X_CFA(160) : 8;
		int sp = sframe_abi_sp_reg(abi);

		f = sfb_fde(&b, 0x430000, 0x100, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		f->fde_type = SFRAME_FDE_TYPE_FLEX;
		f->signal = true;
		sfb_fre(&b, 0, 0, 1, 2, SFB_FLEX_CTRL(sp, 0, 1), cfa);
		sfb_fre(&b, 1, 0, 1, 4, SFB_FLEX_CTRL(sp, 0, 1), cfa, SFB_FLEX_CTRL(0, 1, 0), -8);
		sfb_fre(&b, 2, 0, 1, 5, SFB_FLEX_CTRL(sp, 0, 1), cfa, 0, SFB_FLEX_CTRL(0, 1, 0),
			-16);
		sfb_fre(&b, 3, 0, 2, 6, SFB_FLEX_CTRL(sp, 1, 1), cfa, SFB_FLEX_CTRL(16, 0, 1), 0,
			SFB_FLEX_CTRL(17, 0, 1), 0);
		sfb_fre(&b, 4, 0, 1, 3, SFB_FLEX_CTRL(sp, 0, 1), cfa, 0);
		sfb_fre(&b, 5, 0, 1, 4, SFB_FLEX_CTRL(sp, 0, 1), cfa, 0, 0);
		sfb_fre(&b, 6, 0, 1, 5, SFB_FLEX_CTRL(sp, 0, 1), cfa, SFB_FLEX_CTRL(0, 1, 0), -8, 0);
		sfb_fre(&b, 7, 0, 4, 6, SFB_FLEX_CTRL(sp, 0, 1), cfa, SFB_FLEX_CTRL(0x1fffffff, 0, 1),
			0, SFB_FLEX_CTRL(70000, 1, 1), 8);
		sfb_fre(&b, 8, 0, 1, 0);
	}
	if (version >= 3) {
		f = sfb_fde(&b, 0x430100, 0x10, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		f->signal = true;
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, abi == SFRAME_ABI_S390X_BE ? 0 : 8);
	}
	/* A trailing function without FREs: its fre_off equals fre_len. */
	sfb_fde(&b, 0x440000, 0x10, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	open_it();
}

static void test_valid_sections(void **state)
{
	static const struct {
		uint8_t version, abi, flags;
		bool be;
	} cases[] = {
		{ 1, SFRAME_ABI_AMD64_LE, 0x1, false },
		{ 1, SFRAME_ABI_AMD64_LE, 0x0, false },
		{ 1, SFRAME_ABI_AARCH64_LE, 0x3, false },
		{ 1, SFRAME_ABI_AARCH64_BE, 0x1, true },
		{ 2, SFRAME_ABI_AMD64_LE, 0x1, false },
		{ 2, SFRAME_ABI_AMD64_LE, 0x5, false },
		{ 2, SFRAME_ABI_AARCH64_LE, 0x5, false },
		{ 2, SFRAME_ABI_AARCH64_BE, 0x5, true },
		{ 2, SFRAME_ABI_AARCH64_BE, 0x0, true },
		{ 2, SFRAME_ABI_S390X_BE, 0x5, true },
		{ 3, SFRAME_ABI_AMD64_LE, 0x5, false },
		{ 3, SFRAME_ABI_AMD64_LE, 0x1, false },
		{ 3, SFRAME_ABI_AARCH64_LE, 0x5, false },
		{ 3, SFRAME_ABI_AARCH64_BE, 0x4, true },
		{ 3, SFRAME_ABI_S390X_BE, 0x5, true },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		build_valid(cases[i].version, cases[i].abi, cases[i].be, cases[i].flags);
		expect_ok();
	}
}

static void test_valid_with_auxhdr_and_padding(void **state)
{
	(void)state;
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0x400000);
	b.auxhdr_len = 7;
	b.tail_pad = 5;
	sfb_fde(&b, 0x401000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	open_it();
	expect_ok();
}

/* ---- FDE order ---------------------------------------------------------------- */

static void add_fn(uint64_t start, uint32_t size)
{
	sfb_fde(&b, start, size, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
}

static void test_fde_order(void **state)
{
	uint8_t v;

	(void)state;
	for (v = 1; v <= 3; v++) {
		uint8_t sorted = v == 1 ? SFRAME_F_FDE_SORTED : 0x5;

		/* Flagged sorted, but FDE 2 starts below FDE 1: reported at FDE 2. */
		sfb_init(&b, v, SFRAME_ABI_AMD64_LE, false, sorted, 0x400000);
		add_fn(0x401000, 0x20);
		add_fn(0x402000, 0x20);
		add_fn(0x401800, 0x20);
		add_fn(0x403000, 0x20);
		open_it();
		expect_problem(-SFRAME_ERR_FDE_ORDER, 2, NO);

		/* The same without the flag is valid: lookups scan. */
		b.flags &= (uint8_t)~SFRAME_F_FDE_SORTED;
		open_it();
		expect_ok();

		/* Overlap: FDE 1 starts inside FDE 0. */
		sfb_init(&b, v, SFRAME_ABI_AMD64_LE, false, sorted, 0x400000);
		add_fn(0x401000, 0x20);
		add_fn(0x40101f, 0x20);
		open_it();
		expect_problem(-SFRAME_ERR_FDE_ORDER, 1, NO);

		/* Two functions at the same start. */
		sfb_init(&b, v, SFRAME_ABI_AMD64_LE, false, sorted, 0x400000);
		add_fn(0x401000, 0x20);
		add_fn(0x401020, 0x20);
		add_fn(0x401020, 0x10);
		open_it();
		expect_problem(-SFRAME_ERR_FDE_ORDER, 2, NO);

		/* Adjacent (end == next start) is fine. */
		sfb_init(&b, v, SFRAME_ABI_AMD64_LE, false, sorted, 0x400000);
		add_fn(0x401000, 0x20);
		add_fn(0x401020, 0x20);
		open_it();
		expect_ok();
	}
}

static void test_fde_order_big_endian_pcrel(void **state)
{
	(void)state;
	/* PCREL values must be compared as absolute starts, not raw fields. */
	sfb_init(&b, 2, SFRAME_ABI_AARCH64_BE, true, 0x5, 0x400000);
	add_fn(0x401000, 0x10);
	add_fn(0x401010, 0x10);
	add_fn(0x401014, 0x10);	/* absolute overlap with FDE 1 */
	open_it();
	expect_problem(-SFRAME_ERR_FDE_ORDER, 2, NO);

	/*
	 * Raw PCREL fields that decrease while the starts increase: with a
	 * 20-byte FDE stride, starts 8 bytes apart give raw fields 12 apart
	 * going down. Valid.
	 */
	sfb_init(&b, 2, SFRAME_ABI_AARCH64_BE, true, 0x5, 0x400000);
	add_fn(0x401000, 0x8);
	add_fn(0x401008, 0x8);
	add_fn(0x401010, 0x8);
	open_it();
	assert_true(b.start_field[1] < b.start_field[0]);
	expect_ok();
}

/* ---- FREs --------------------------------------------------------------------- */

static void test_fre_order(void **state)
{
	uint8_t v;

	(void)state;
	for (v = 1; v <= 3; v++) {
		/* Equal start offsets: not strictly increasing. FDE 1, FRE 2. */
		sfb_init(&b, v, SFRAME_ABI_AMD64_LE, false, 0x1, 0x400000);
		add_fn(0x401000, 0x20);
		sfb_fde(&b, 0x401020, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
		sfb_fre(&b, 8, SFRAME_BASE_REG_SP, 1, 1, 16);
		sfb_fre(&b, 8, SFRAME_BASE_REG_SP, 1, 1, 24);
		open_it();
		expect_problem(-SFRAME_ERR_FRE, 1, 2);

		/* Decreasing. */
		sfb_init(&b, v, SFRAME_ABI_AMD64_LE, false, 0x1, 0x400000);
		sfb_fde(&b, 0x401000, 0x200, SFRAME_FRE_TYPE_ADDR2, SFRAME_PC_TYPE_INC);
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
		sfb_fre(&b, 0x100, SFRAME_BASE_REG_SP, 1, 1, 16);
		sfb_fre(&b, 0x80, SFRAME_BASE_REG_SP, 1, 1, 24);
		open_it();
		expect_problem(-SFRAME_ERR_FRE, 0, 2);

		/* Start past the end of the function. */
		sfb_init(&b, v, SFRAME_ABI_AMD64_LE, false, 0x1, 0x400000);
		add_fn(0x401000, 0x20);
		add_fn(0x401020, 0x20);
		sfb_fre(&b, 0x21, SFRAME_BASE_REG_SP, 1, 1, 16);
		open_it();
		expect_problem(-SFRAME_ERR_FRE, 1, 1);

		/* Start far beyond, ADDR4. */
		sfb_init(&b, v, SFRAME_ABI_AMD64_LE, false, 0x1, 0x400000);
		sfb_fde(&b, 0x401000, 0x20000, SFRAME_FRE_TYPE_ADDR4, SFRAME_PC_TYPE_INC);
		sfb_fre(&b, 0xffffffff, SFRAME_BASE_REG_SP, 1, 1, 16);
		open_it();
		expect_problem(-SFRAME_ERR_FRE, 0, 0);
	}
}

static void test_fre_pcmask_block(void **state)
{
	struct sfb_fde *f;

	(void)state;
	/* PCMASK: FRE starts must lie inside the repeated block. */
	sfb_init(&b, 2, SFRAME_ABI_AMD64_LE, false, 0x5, 0x400000);
	f = sfb_fde(&b, 0x401000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_MASK);
	f->rep_size = 16;
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_fre(&b, 17, SFRAME_BASE_REG_SP, 1, 1, 16);
	open_it();
	expect_problem(-SFRAME_ERR_FRE, 0, 1);
}

static void test_fre_start_at_func_end(void **state)
{
	struct sfb_fde *f;
	uint8_t v;

	(void)state;
	/*
	 * A row starting exactly at func_size (PCINC) or rep_size (PCMASK)
	 * covers no byte, but the sframe_check() contract accepts it (gas emits
	 * such rows for CFI after a function's last instruction); one byte
	 * further is an error (test_fre_order, test_fre_pcmask_block).
	 */
	for (v = 1; v <= 3; v++) {
		sfb_init(&b, v, SFRAME_ABI_AMD64_LE, false, 0x1, 0x400000);
		add_fn(0x401000, 0x20);
		add_fn(0x401020, 0x20);
		sfb_fre(&b, 0x20, SFRAME_BASE_REG_SP, 1, 1, 16);
		open_it();
		expect_ok();
	}
	sfb_init(&b, 2, SFRAME_ABI_AMD64_LE, false, 0x5, 0x400000);
	f = sfb_fde(&b, 0x401000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_MASK);
	f->rep_size = 16;
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_fre(&b, 16, SFRAME_BASE_REG_SP, 1, 1, 16);
	open_it();
	expect_ok();
}

static void test_fre_type(void **state)
{
	uint8_t v;

	(void)state;
	for (v = 1; v <= 3; v++) {
		sfb_init(&b, v, SFRAME_ABI_AMD64_LE, false, 0x1, 0x400000);
		add_fn(0x401000, 0x20);
		add_fn(0x401020, 0x20);
		add_fn(0x401040, 0x20);
		open_it();
		/* Types 3..15 are undefined. */
		buf[b.info_off[1]] = (uint8_t)((buf[b.info_off[1]] & 0xf0) | 3);
		expect_problem(-SFRAME_ERR_FRE_TYPE, 1, NO);
		buf[b.info_off[1]] = (uint8_t)((buf[b.info_off[1]] & 0xf0) | 15);
		expect_problem(-SFRAME_ERR_FRE_TYPE, 1, NO);
		/* The first one is reported. */
		buf[b.info_off[2]] = (uint8_t)((buf[b.info_off[2]] & 0xf0) | 7);
		expect_problem(-SFRAME_ERR_FRE_TYPE, 1, NO);
	}
}

static void test_word_size(void **state)
{
	uint8_t v;

	(void)state;
	for (v = 1; v <= 3; v++) {
		sfb_init(&b, v, SFRAME_ABI_AMD64_LE, false, 0x1, 0x400000);
		add_fn(0x401000, 0x20);
		sfb_fde(&b, 0x401020, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
		sfb_fre(&b, 4, SFRAME_BASE_REG_SP, 1, 1, 8);
		sfb_fre(&b, 8, SFRAME_BASE_REG_SP, 1, 1, 8);
		open_it();
		/* Word size code 3; the byte count matches a 1-byte word. */
		buf[b.fre_info_off[3]] = sfb_fre_info(SFRAME_BASE_REG_SP, 1, 3, false);
		expect_problem(-SFRAME_ERR_WORD_SIZE, 1, 2);
	}
}

static void test_words(void **state)
{
	struct sfb_fde *f;

	(void)state;
	/* Seven words: more than any valid FRE. */
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0x400000);
	add_fn(0x401000, 0x20);
	sfb_fde(&b, 0x401020, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 7, 8, 0, 0, 0, 0, 0, 0);
	open_it();
	expect_problem(-SFRAME_ERR_WORDS, 1, 0);

	/* Fifteen. */
	sfb_init(&b, 2, SFRAME_ABI_AARCH64_LE, false, 0x5, 0x400000);
	sfb_fde(&b, 0x401000, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_fre(&b, 1, SFRAME_BASE_REG_SP, 2, 15, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
	open_it();
	expect_problem(-SFRAME_ERR_WORDS, 0, 1);

	/* amd64 with 3 words. */
	sfb_init(&b, 2, SFRAME_ABI_AMD64_LE, false, 0x5, 0x400000);
	sfb_fde(&b, 0x401000, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_fre(&b, 1, SFRAME_BASE_REG_SP, 1, 3, 16, -8, -16);
	open_it();
	expect_problem(-SFRAME_ERR_WORDS, 0, 1);

	/* aarch64 with 4 words (CFA, RA, FP and one more), both byte orders. */
	sfb_init(&b, 3, SFRAME_ABI_AARCH64_BE, true, 0x5, 0x400000);
	sfb_fde(&b, 0x401000, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 4, 16, -8, -16, 0);
	open_it();
	expect_problem(-SFRAME_ERR_WORDS, 0, 0);
	sfb_init(&b, 1, SFRAME_ABI_AARCH64_LE, false, 0x1, 0x400000);
	add_fn(0x401000, 0x20);
	sfb_fde(&b, 0x401020, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 4, 16, -8, -16, 0);
	open_it();
	expect_problem(-SFRAME_ERR_WORDS, 1, 0);

	/* s390x with 4 words. */
	sfb_init(&b, 2, SFRAME_ABI_S390X_BE, true, 0x5, 0x400000);
	sfb_fde(&b, 0x401000, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 4, 0, -48, -72, 0);
	open_it();
	expect_problem(-SFRAME_ERR_WORDS, 0, 0);

	/* FLEX CFA control word without reg_p. */
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0x400000);
	f = sfb_fde(&b, 0x401000, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	f->fde_type = SFRAME_FDE_TYPE_FLEX;
	sfb_fre(&b, 0, 0, 1, 2, SFB_FLEX_CTRL(7, 0, 1), 8);
	sfb_fre(&b, 1, 0, 1, 2, SFB_FLEX_CTRL(7, 1, 0), 8);
	open_it();
	expect_problem(-SFRAME_ERR_WORDS, 0, 1);
}

static void test_rep_size(void **state)
{
	struct sfb_fde *f;
	uint8_t v;

	(void)state;
	for (v = 2; v <= 3; v++) {
		sfb_init(&b, v, SFRAME_ABI_AMD64_LE, false, 0x5, 0x400000);
		add_fn(0x401000, 0x10);
		f = sfb_fde(&b, 0x401010, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_MASK);
		f->rep_size = 0;
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
		open_it();
		expect_problem(-SFRAME_ERR_REP_SIZE, 1, NO);
	}
	/* rep_size 0 on a PCINC FDE means nothing: valid. */
	sfb_init(&b, 2, SFRAME_ABI_AMD64_LE, false, 0x5, 0x400000);
	add_fn(0x401000, 0x10);
	open_it();
	expect_ok();
}

static void test_fre_count(void **state)
{
	uint8_t v;

	(void)state;
	for (v = 1; v <= 3; v++) {
		sfb_init(&b, v, SFRAME_ABI_AMD64_LE, false, 0x1, 0x400000);
		add_fn(0x401000, 0x20);
		add_fn(0x401020, 0x20);
		sfb_fre(&b, 4, SFRAME_BASE_REG_SP, 1, 1, 16);
		open_it();
		expect_ok();
		sfb_put_u32(&b, buf, SFRAME_HDR_NUM_FRES, 4);
		assert_err(sframe_open(&sec, sfb_read, &rd, rd.base, rd.size, b.vaddr), 0);
		expect_problem(-SFRAME_ERR_FRE_COUNT, NO, NO);
		sfb_put_u32(&b, buf, SFRAME_HDR_NUM_FRES, 2);
		assert_err(sframe_open(&sec, sfb_read, &rd, rd.base, rd.size, b.vaddr), 0);
		expect_problem(-SFRAME_ERR_FRE_COUNT, NO, NO);
		sfb_put_u32(&b, buf, SFRAME_HDR_NUM_FRES, 0);
		assert_err(sframe_open(&sec, sfb_read, &rd, rd.base, rd.size, b.vaddr), 0);
		expect_problem(-SFRAME_ERR_FRE_COUNT, NO, NO);
	}
}

static void test_v3_attr_outside(void **state)
{
	(void)state;
	/* The attribute record starts past the FRE area. */
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0x400000);
	add_fn(0x401000, 0x20);
	add_fn(0x401020, 0x20);
	open_it();
	sfb_put_u32(&b, buf, b.fde_off[1] + SFRAME_V3_FDE_FRE_OFF, (uint32_t)b.fre_len);
	expect_problem(-SFRAME_ERR_FDE, 1, NO);
	/* Straddles the end of the FRE area. */
	sfb_put_u32(&b, buf, b.fde_off[1] + SFRAME_V3_FDE_FRE_OFF, (uint32_t)b.fre_len - 2);
	expect_problem(-SFRAME_ERR_FDE, 1, NO);
	/* ... also when padding after the FRE area keeps the record inside the section. */
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0x400000);
	b.tail_pad = 16;
	add_fn(0x401000, 0x20);
	add_fn(0x401020, 0x20);
	open_it();
	sfb_put_u32(&b, buf, b.fde_off[1] + SFRAME_V3_FDE_FRE_OFF, (uint32_t)b.fre_len - 2);
	expect_problem(-SFRAME_ERR_FDE, 1, NO);
	sfb_put_u32(&b, buf, b.fde_off[1] + SFRAME_V3_FDE_FRE_OFF, (uint32_t)b.fre_len);
	expect_problem(-SFRAME_ERR_FDE, 1, NO);
	/* Far away. */
	sfb_put_u32(&b, buf, b.fde_off[1] + SFRAME_V3_FDE_FRE_OFF, 0xfffffffc);
	expect_problem(-SFRAME_ERR_FDE, 1, NO);
	/* Within the area but in the last 4 bytes: 5-byte record does not fit. */
	sfb_put_u32(&b, buf, b.fde_off[1] + SFRAME_V3_FDE_FRE_OFF, (uint32_t)b.fre_len - 4);
	expect_problem(-SFRAME_ERR_FDE, 1, NO);
	/* get_fde says the same. */
	{
		struct sframe_fde fde;

		assert_err(sframe_get_fde(&sec, 1, &fde), -SFRAME_ERR_FDE);
		assert_err(sframe_get_fde(&sec, 0, &fde), 0);
	}
}

static void test_fre_run_outside(void **state)
{
	struct sframe_problem where;
	int err;

	(void)state;
	/*
	 * v2: fre_off past the FRE area with FREs to read. Whether the FDE
	 * (fields out of bounds) or its first FRE is blamed is left open by
	 * the header; the FDE index must be right either way.
	 */
	sfb_init(&b, 2, SFRAME_ABI_AMD64_LE, false, 0x5, 0x400000);
	add_fn(0x401000, 0x20);
	add_fn(0x401020, 0x20);
	open_it();
	sfb_put_u32(&b, buf, b.fde_off[1] + SFRAME_V12_FDE_FRE_OFF, 0x1000);
	err = sframe_check(&sec, &where);
	assert_true(err == -SFRAME_ERR_FDE || err == -SFRAME_ERR_FRE);
	assert_int_equal(where.fde, 1);
	if (err == -SFRAME_ERR_FDE)
		assert_int_equal(where.fre, NO);
	else
		assert_int_equal(where.fre, 0);
}

static void test_fde_start_overflow(void **state)
{
	(void)state;
	/*
	 * A v3 start field so large that adding the field's own offset (PCREL)
	 * overflows 64 bits: the section is corrupt whatever its address.
	 */
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0);
	add_fn(0x1000, 0x20);
	sfb_fde(&b, 0x2000, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	open_it();
	sfb_put_u64(&b, buf, b.fde_off[1], (uint64_t)INT64_MAX);
	expect_problem(-SFRAME_ERR_FDE, 1, NO);
}

static void test_fde_type(void **state)
{
	struct sfb_fde *f;

	(void)state;
	/* FLEX on aarch64 is valid (the format ties no FDE type to an ABI)... */
	sfb_init(&b, 3, SFRAME_ABI_AARCH64_LE, false, 0x5, 0x400000);
	add_fn(0x401000, 0x20);
	f = sfb_fde(&b, 0x401020, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	f->fde_type = SFRAME_FDE_TYPE_FLEX;
	sfb_fre(&b, 0, 0, 1, 2, SFB_FLEX_CTRL(31, 0, 1), 16);
	open_it();
	expect_ok();
	/* ...an unknown type is not. */
	f->fde_type = 31;
	open_it();
	expect_problem(-SFRAME_ERR_FDE_TYPE, 1, NO);

	sfb_init(&b, 3, SFRAME_ABI_S390X_BE, true, 0x5, 0x400000);
	f = sfb_fde(&b, 0x401000, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	f->fde_type = 9;
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 0);
	open_it();
	expect_problem(-SFRAME_ERR_FDE_TYPE, 0, NO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_sections),
		cmocka_unit_test(test_valid_with_auxhdr_and_padding),
		cmocka_unit_test(test_fde_order),
		cmocka_unit_test(test_fde_order_big_endian_pcrel),
		cmocka_unit_test(test_fre_order),
		cmocka_unit_test(test_fre_pcmask_block),
		cmocka_unit_test(test_fre_start_at_func_end),
		cmocka_unit_test(test_fre_type),
		cmocka_unit_test(test_word_size),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_rep_size),
		cmocka_unit_test(test_fre_count),
		cmocka_unit_test(test_v3_attr_outside),
		cmocka_unit_test(test_fre_run_outside),
		cmocka_unit_test(test_fde_start_overflow),
		cmocka_unit_test(test_fde_type),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
