/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_rules.c - sframe_fre_rules(): CFA, RA and FP rules per ABI, version
 * and FDE type, on one-row hand-built sections.
 *
 * Expected values follow sframe_format.h ("Frame row entries", "FLEX
 * values", "Unwinding, per ABI"): default FDEs carry the
 * signed words CFA, [RA], [FP] (no RA word when the header fixes RA, as on
 * amd64); s390x stores the CFA offset as (off - 160) / 8 and, in v2 only,
 * RA/FP words with the low bit set as (regnum << 1) | 1; v3 FLEX FDEs carry
 * (control, offset) pairs for CFA, RA, FP, control 0 being padding.
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
static struct sframe_fde fde;
static struct sframe_fre fre;

#define BOTH_AARCH64(i)	((i) ? SFRAME_ABI_AARCH64_BE : SFRAME_ABI_AARCH64_LE)

/*
 * Build a section with one function holding one row of @n words (given as
 * ints) and decode that row's rules into @r. Returns sframe_fre_rules().
 */
static int rules(uint8_t version, uint8_t abi, uint8_t fde_type, unsigned base_reg,
		 bool mangled, unsigned word_bytes, struct sframe_rules *r, unsigned n, ...)
{
	struct sframe_fre_iter it;
	struct sfb_fde *f;
	struct sfb_fre *row;
	va_list ap;
	unsigned i;
	bool be = abi == SFRAME_ABI_AARCH64_BE || abi == SFRAME_ABI_S390X_BE;

	sfb_init(&b, version, abi, be,
		 version >= 2 ? SFRAME_F_FDE_SORTED | SFRAME_F_FDE_FUNC_START_PCREL :
				SFRAME_F_FDE_SORTED,
		 0x10000);
	f = sfb_fde(&b, 0x20000, 0x100, SFRAME_FRE_TYPE_ADDR2, SFRAME_PC_TYPE_INC);
	f->fde_type = fde_type;
	row = sfb_fre(&b, 0, base_reg, word_bytes, 0);
	row->num_words = (uint8_t)n;
	row->mangled = mangled;
	va_start(ap, n);
	for (i = 0; i < n; i++)
		row->words[i] = va_arg(ap, int);
	va_end(ap);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0x1000);
	assert_err(sframe_get_fde(&sec, 0, &fde), 0);
	assert_err(sframe_fre_iter_init(&sec, &fde, &it), 0);
	assert_err(sframe_fre_iter_next(&sec, &it, &fre), 1);
	memset(r, 0x5a, sizeof(*r));
	return sframe_fre_rules(&sec, &fde, &fre, r);
}

static void check_cfa(const struct sframe_cfa *c, unsigned reg, bool deref, int32_t offset)
{
	assert_int_equal(c->reg, reg);
	assert_int_equal(c->deref, deref);
	assert_int_equal(c->offset, offset);
}

/* A stack slot: value = *(CFA + off). */
static void check_slot(const struct sframe_loc *l, int32_t off)
{
	assert_int_equal(l->kind, SFRAME_LOC_CFA);
	assert_int_equal(l->deref, true);
	assert_int_equal(l->offset, off);
}

static void check_same(const struct sframe_loc *l)
{
	assert_int_equal(l->kind, SFRAME_LOC_SAME);
}

static void check_reg(const struct sframe_loc *l, unsigned reg, bool deref, int32_t off)
{
	assert_int_equal(l->kind, SFRAME_LOC_REG);
	assert_int_equal(l->reg, reg);
	assert_int_equal(l->deref, deref);
	assert_int_equal(l->offset, off);
}

/* ---- amd64 ---------------------------------------------------------------- */

static void test_amd64_default(void **state)
{
	struct sframe_rules r;
	uint8_t v;

	(void)state;
	for (v = 1; v <= 3; v++) {
		/* CFA = SP + 8, RA at the header's fixed CFA - 8, FP untouched. */
		assert_err(rules(v, SFRAME_ABI_AMD64_LE, 0, SFRAME_BASE_REG_SP, false, 1, &r, 1, 8), 0);
		check_cfa(&r.cfa, SFRAME_AMD64_DWARF_SP, false, 8);
		check_slot(&r.ra, -8);
		check_same(&r.fp);
		assert_false(r.ra_undefined);
		assert_false(r.ra_mangled);

		/* N = 2 with RA fixed: word 1 is the FP slot. */
		assert_err(rules(v, SFRAME_ABI_AMD64_LE, 0, SFRAME_BASE_REG_FP, false, 1, &r, 2,
				 16, -16), 0);
		check_cfa(&r.cfa, SFRAME_AMD64_DWARF_FP, false, 16);
		check_slot(&r.ra, -8);
		check_slot(&r.fp, -16);
		assert_false(r.ra_undefined);

		/* 2- and 4-byte words, large offsets. */
		assert_err(rules(v, SFRAME_ABI_AMD64_LE, 0, SFRAME_BASE_REG_SP, false, 2, &r, 2,
				 0x1008, -0x1000), 0);
		check_cfa(&r.cfa, SFRAME_AMD64_DWARF_SP, false, 0x1008);
		check_slot(&r.fp, -0x1000);
		assert_err(rules(v, SFRAME_ABI_AMD64_LE, 0, SFRAME_BASE_REG_SP, false, 4, &r, 1,
				 0x100008), 0);
		check_cfa(&r.cfa, SFRAME_AMD64_DWARF_SP, false, 0x100008);
	}
}

static void test_amd64_ra_undefined(void **state)
{
	struct sframe_rules r;
	uint8_t v;

	(void)state;
	/* N = 0: outermost frame, even though the header fixes RA at CFA - 8. */
	for (v = 2; v <= 3; v++) {
		assert_err(rules(v, SFRAME_ABI_AMD64_LE, 0, SFRAME_BASE_REG_FP, false, 1, &r, 0), 0);
		assert_true(r.ra_undefined);
		assert_int_equal(r.ra.kind, SFRAME_LOC_UNDEFINED);
	}
}

static void test_amd64_bad_counts(void **state)
{
	struct sframe_rules r;

	(void)state;
	/* amd64 rows have 1 or 2 words (CFA, FP). */
	assert_err(rules(2, SFRAME_ABI_AMD64_LE, 0, SFRAME_BASE_REG_SP, false, 1, &r, 3, 8, -8, -16),
		   -SFRAME_ERR_WORDS);
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, 0, SFRAME_BASE_REG_SP, false, 1, &r, 3, 8, -8, -16),
		   -SFRAME_ERR_WORDS);
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, 0, SFRAME_BASE_REG_SP, false, 1, &r, 6,
			 8, -8, -16, 0, 0, 0), -SFRAME_ERR_WORDS);
}

/* ---- aarch64 -------------------------------------------------------------- */

static void test_aarch64_default(void **state)
{
	struct sframe_rules r;
	uint8_t v;
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		for (v = 1; v <= 3; v++) {
			/* N = 1: RA still in LR, FP unchanged. */
			assert_err(rules(v, BOTH_AARCH64(i), 0, SFRAME_BASE_REG_SP, false, 1, &r, 1,
					 0), 0);
			check_cfa(&r.cfa, SFRAME_AARCH64_DWARF_SP, false, 0);
			check_same(&r.ra);
			check_same(&r.fp);
			assert_false(r.ra_undefined);
			assert_false(r.ra_mangled);

			/* N = 3: RA at CFA + w1, FP at CFA + w2 (the frame record). */
			assert_err(rules(v, BOTH_AARCH64(i), 0, SFRAME_BASE_REG_FP, false, 1, &r, 3,
					 32, -8, -16), 0);
			check_cfa(&r.cfa, SFRAME_AARCH64_DWARF_FP, false, 32);
			check_slot(&r.ra, -8);
			check_slot(&r.fp, -16);

			assert_err(rules(v, BOTH_AARCH64(i), 0, SFRAME_BASE_REG_SP, false, 2, &r, 3,
					 0x210, -0x208, -0x210), 0);
			check_cfa(&r.cfa, SFRAME_AARCH64_DWARF_SP, false, 0x210);
			check_slot(&r.ra, -0x208);
			check_slot(&r.fp, -0x210);
		}
	}
}

static void test_aarch64_mangled(void **state)
{
	struct sframe_rules r;
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		/* PAuth: fre_info bit 7; the RA rule itself is unchanged. */
		assert_err(rules(3, BOTH_AARCH64(i), 0, SFRAME_BASE_REG_SP, true, 1, &r, 1, 0), 0);
		assert_true(r.ra_mangled);
		check_same(&r.ra);
		assert_err(rules(2, BOTH_AARCH64(i), 0, SFRAME_BASE_REG_FP, true, 1, &r, 3,
				 16, -8, -16), 0);
		assert_true(r.ra_mangled);
		check_slot(&r.ra, -8);
		check_slot(&r.fp, -16);
	}
}

static void test_aarch64_ra_padding(void **state)
{
	struct sframe_rules r;

	(void)state;
	/*
	 * sframe_format.h: "An RA word of 0 on an ABI that tracks RA is padding:
	 * RA not saved". aarch64 tracks RA (no fixed RA offset).
	 */
	assert_err(rules(2, SFRAME_ABI_AARCH64_LE, 0, SFRAME_BASE_REG_FP, false, 1, &r, 3, 16, 0,
			 -16), 0);
	check_same(&r.ra);
	check_slot(&r.fp, -16);
}

static void test_aarch64_ra_undefined_and_bad_counts(void **state)
{
	struct sframe_rules r;
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		assert_err(rules(3, BOTH_AARCH64(i), 0, SFRAME_BASE_REG_FP, false, 1, &r, 0), 0);
		assert_true(r.ra_undefined);
		assert_int_equal(r.ra.kind, SFRAME_LOC_UNDEFINED);
		/*
		 * Two words, CFA and RA: LR saved without FP, as gas writes for
		 * a function built with -fomit-frame-pointer that calls
		 * (str x30, [sp, -16]!; objdump --sframe: "fp u, ra c-16").
		 */
		assert_err(rules(2, BOTH_AARCH64(i), 0, SFRAME_BASE_REG_SP, false, 1, &r, 2, 16, -16),
			   0);
		check_cfa(&r.cfa, SFRAME_AARCH64_DWARF_SP, false, 16);
		check_slot(&r.ra, -16);
		assert_int_equal(r.fp.kind, SFRAME_LOC_SAME);
		assert_err(rules(3, BOTH_AARCH64(i), 0, SFRAME_BASE_REG_SP, false, 1, &r, 2, 16, -16),
			   0);
		check_slot(&r.ra, -16);
		assert_int_equal(r.fp.kind, SFRAME_LOC_SAME);
		assert_err(rules(3, BOTH_AARCH64(i), 0, SFRAME_BASE_REG_SP, false, 1, &r, 4,
				 16, -8, -16, 0), -SFRAME_ERR_WORDS);
	}
}

/* ---- s390x ---------------------------------------------------------------- */

static void test_s390x_default(void **state)
{
	struct sframe_rules r;
	uint8_t v;

	(void)state;
	for (v = 2; v <= 3; v++) {
		/* CFA word 0 means SP + 160: (0 * 8) + 160. */
		assert_err(rules(v, SFRAME_ABI_S390X_BE, 0, SFRAME_BASE_REG_SP, false, 1, &r, 1,
				 SFB_S390X_CFA(160)), 0);
		check_cfa(&r.cfa, SFRAME_S390X_DWARF_SP, false, 160);
		check_same(&r.ra);
		check_same(&r.fp);
		assert_false(r.ra_undefined);

		/* Stored 20 -> 20 * 8 + 160 = 320; RA slot at CFA - 48. */
		assert_err(rules(v, SFRAME_ABI_S390X_BE, 0, SFRAME_BASE_REG_SP, false, 1, &r, 2,
				 SFB_S390X_CFA(320), -48), 0);
		assert_int_equal(SFB_S390X_CFA(320), 20);
		check_cfa(&r.cfa, SFRAME_S390X_DWARF_SP, false, 320);
		check_slot(&r.ra, -48);
		check_same(&r.fp);

		/* Negative stored value: -19 * 8 + 160 = 8; FP-based CFA. */
		assert_err(rules(v, SFRAME_ABI_S390X_BE, 0, SFRAME_BASE_REG_FP, false, 1, &r, 3,
				 -19, -48, -72), 0);
		check_cfa(&r.cfa, SFRAME_S390X_DWARF_FP, false, 8);
		check_slot(&r.ra, -48);
		check_slot(&r.fp, -72);

		/* 2-byte words: stored 1000 -> 8160. */
		assert_err(rules(v, SFRAME_ABI_S390X_BE, 0, SFRAME_BASE_REG_SP, false, 2, &r, 3,
				 1000, -0x100, -0x108), 0);
		check_cfa(&r.cfa, SFRAME_S390X_DWARF_SP, false, 8160);
		check_slot(&r.ra, -0x100);
		check_slot(&r.fp, -0x108);
	}
}

static void test_s390x_ra_padding(void **state)
{
	struct sframe_rules r;
	uint8_t v;

	(void)state;
	for (v = 2; v <= 3; v++) {
		/* RA word 0 = padding: FP saved, RA not (still in r14). */
		assert_err(rules(v, SFRAME_ABI_S390X_BE, 0, SFRAME_BASE_REG_SP, false, 1, &r, 3,
				 SFB_S390X_CFA(160), 0, -72), 0);
		check_same(&r.ra);
		check_slot(&r.fp, -72);
	}
}

static void test_s390x_v2_regnum(void **state)
{
	struct sframe_rules r;

	(void)state;
	/* v2: odd words are (regnum << 1) | 1: RA in f0 (16), FP in f2 (17). */
	assert_err(rules(2, SFRAME_ABI_S390X_BE, 0, SFRAME_BASE_REG_SP, false, 1, &r, 3,
			 SFB_S390X_CFA(160), (16 << 1) | 1, (17 << 1) | 1), 0);
	check_cfa(&r.cfa, SFRAME_S390X_DWARF_SP, false, 160);
	check_reg(&r.ra, 16, false, 0);
	check_reg(&r.fp, 17, false, 0);

	/* Only RA in a register, FP on the stack. */
	assert_err(rules(2, SFRAME_ABI_S390X_BE, 0, SFRAME_BASE_REG_SP, false, 2, &r, 3,
			 SFB_S390X_CFA(160), (20 << 1) | 1, -72), 0);
	check_reg(&r.ra, 20, false, 0);
	check_slot(&r.fp, -72);
}

static void test_s390x_v3_odd_is_offset(void **state)
{
	struct sframe_rules r;

	(void)state;
	/* v3 dropped the register-number trick: an odd word is just an offset. */
	assert_err(rules(3, SFRAME_ABI_S390X_BE, 0, SFRAME_BASE_REG_SP, false, 1, &r, 3,
			 SFB_S390X_CFA(160), 33, 35), 0);
	check_slot(&r.ra, 33);
	check_slot(&r.fp, 35);
}

static void test_s390x_ra_undefined_and_bad_counts(void **state)
{
	struct sframe_rules r;
	uint8_t v;

	(void)state;
	for (v = 2; v <= 3; v++) {
		assert_err(rules(v, SFRAME_ABI_S390X_BE, 0, SFRAME_BASE_REG_SP, false, 1, &r, 0), 0);
		assert_true(r.ra_undefined);
		assert_int_equal(r.ra.kind, SFRAME_LOC_UNDEFINED);
		/* s390x rows have 1..3 words. */
		assert_err(rules(v, SFRAME_ABI_S390X_BE, 0, SFRAME_BASE_REG_SP, false, 1, &r, 4,
				 0, -48, -72, 0), -SFRAME_ERR_WORDS);
	}
}

/* ---- v3 FLEX -------------------------------------------------------------- */

#define FLEX	SFRAME_FDE_TYPE_FLEX
#define CTRL	SFB_FLEX_CTRL

static void test_flex_amd64_cfa(void **state)
{
	struct sframe_rules r;

	(void)state;
	/* CFA = r10 + 0 (DRAP); RA falls back to the fixed CFA - 8, FP unchanged. */
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, FLEX, 0, false, 1, &r, 2, CTRL(10, 0, 1), 0), 0);
	check_cfa(&r.cfa, 10, false, 0);
	check_slot(&r.ra, -8);
	check_same(&r.fp);
	assert_false(r.ra_undefined);

	/* CFA = *(rbp - 40): control (6 << 3) | 2 | 1 = 51. */
	assert_int_equal(CTRL(6, 1, 1), 51);
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, FLEX, 0, false, 1, &r, 2, 51, -40), 0);
	check_cfa(&r.cfa, SFRAME_AMD64_DWARF_FP, true, -40);

	/* CFA = rsp + 8 through a FLEX pair. */
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, FLEX, 0, false, 2, &r, 2, CTRL(7, 0, 1), 8), 0);
	check_cfa(&r.cfa, SFRAME_AMD64_DWARF_SP, false, 8);

	/* 4-byte words. */
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, FLEX, 0, false, 4, &r, 2, CTRL(13, 0, 1),
			 0x12345), 0);
	check_cfa(&r.cfa, 13, false, 0x12345);
}

static void test_flex_amd64_ra_fp(void **state)
{
	struct sframe_rules r;

	(void)state;
	/*
	 * RA padding (single word 0), then the FP pair *(CFA - 16) (control 2:
	 * CFA based, deref). RA has no rule: the header's fixed -8 applies.
	 */
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, FLEX, 0, false, 1, &r, 5,
			 CTRL(10, 0, 1), 0, 0, CTRL(0, 1, 0), -16), 0);
	check_cfa(&r.cfa, 10, false, 0);
	check_slot(&r.ra, -8);
	check_slot(&r.fp, -16);

	/* FP = *(rbp + 0): register based, deref. */
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, FLEX, 0, false, 1, &r, 5,
			 CTRL(10, 0, 1), 0, 0, CTRL(6, 1, 1), 0), 0);
	check_reg(&r.fp, SFRAME_AMD64_DWARF_FP, true, 0);
	check_slot(&r.ra, -8);

	/* An RA pair overrides the fixed -8: RA at *(CFA - 16). */
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, FLEX, 0, false, 1, &r, 4,
			 CTRL(7, 0, 1), 16, CTRL(0, 1, 0), -16), 0);
	check_cfa(&r.cfa, SFRAME_AMD64_DWARF_SP, false, 16);
	check_slot(&r.ra, -16);
	check_same(&r.fp);

	/* RA = *(CFA + 0) is encodable with control 2 (control 0 would be padding). */
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, FLEX, 0, false, 1, &r, 4,
			 CTRL(7, 0, 1), 8, CTRL(0, 1, 0), 0), 0);
	check_slot(&r.ra, 0);

	/* All three pairs, 2-byte words. */
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, FLEX, 0, false, 2, &r, 6,
			 CTRL(6, 1, 1), -40, CTRL(0, 1, 0), -24, CTRL(0, 1, 0), -32), 0);
	check_cfa(&r.cfa, SFRAME_AMD64_DWARF_FP, true, -40);
	check_slot(&r.ra, -24);
	check_slot(&r.fp, -32);

	/* RA held in a register plus an offset: value = r3 + 4, no deref. */
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, FLEX, 0, false, 1, &r, 4,
			 CTRL(7, 0, 1), 8, CTRL(3, 0, 1), 4), 0);
	check_reg(&r.ra, 3, false, 4);
}

static void test_flex_s390x(void **state)
{
	struct sframe_rules r;

	(void)state;
	/*
	 * libsframe's DATA-BE-V3 row: CFA control 0x79 (r15, reg_p) offset 0,
	 * which decodes (s390x) to 160; RA in f0 (16) and FP in f2 (17).
	 */
	assert_int_equal(CTRL(16, 0, 1), 0x81);
	assert_err(rules(3, SFRAME_ABI_S390X_BE, FLEX, 0, false, 1, &r, 6,
			 0x79, 0, 0x81, 0, 0x89, 0), 0);
	check_cfa(&r.cfa, SFRAME_S390X_DWARF_SP, false, 160);
	check_reg(&r.ra, 16, false, 0);
	check_reg(&r.fp, 17, false, 0);

	/* Same with 2-byte words and a scaled CFA offset: 2 * 8 + 160. */
	assert_err(rules(3, SFRAME_ABI_S390X_BE, FLEX, 0, false, 2, &r, 6,
			 CTRL(15, 0, 1), SFB_S390X_CFA(176), CTRL(16, 0, 1), 0, CTRL(17, 0, 1), 0), 0);
	check_cfa(&r.cfa, SFRAME_S390X_DWARF_SP, false, 176);
	check_reg(&r.ra, 16, false, 0);
	check_reg(&r.fp, 17, false, 0);

	/* RA padding then FP in f2: s390x has no fixed RA, so RA is unchanged. */
	assert_err(rules(3, SFRAME_ABI_S390X_BE, FLEX, 0, false, 1, &r, 5,
			 0x79, 0, 0, 0x89, 0), 0);
	check_same(&r.ra);
	check_reg(&r.fp, 17, false, 0);

	/* CFA pair only. */
	assert_err(rules(3, SFRAME_ABI_S390X_BE, FLEX, 0, false, 1, &r, 2, 0x79, 0), 0);
	check_same(&r.ra);
	check_same(&r.fp);
}

/*
 * FLEX rows with control words of 0. The format (sframe_format.h): after
 * the CFA pair, RA and then FP each take a (control, offset) pair, or one
 * word 0 meaning "no rule for this entity" (its offset word is absent, and
 * the next entity's words follow at once), or nothing when the row has
 * ended. So, with C, R, F non-zero control words and c, r, f offsets, the
 * valid rows are exactly:
 *
 *   [C c]            RA and FP without rule (row ends after the CFA)
 *   [C c 0]          RA padding, FP without rule
 *   [C c 0 0]        RA padding, FP padding
 *   [C c 0 F f]      RA padding, FP pair (gas: FP saved, RA not)
 *   [C c R r]        RA pair, FP without rule
 *   [C c R r 0]      RA pair, FP padding
 *   [C c R r F f]    both pairs
 *
 * and everything else is refused: a control word whose offset word is
 * missing ([C c R], [C c 0 F], [C c R r F]) or words after the FP entity
 * ([C c 0 0 x], [C c 0 F f x], [C c R r 0 x]). "No rule" means the
 * header's fixed offset where there is one (RA on amd64: CFA-8), else
 * "unchanged", whether a padding word or the row's end says so (the
 * decoded rule is the same; the row's words tell them apart).
 *
 * binutils 2.47.50's objdump prints the valid rows consistently with this
 * (fixtures/handmade/v3-flex-padding-*): RA "U" for a padding word, "f"
 * (amd64) or "u" when absent; FP "u" for padding or absent. It reads the
 * invalid ones by fixed word positions (RA offset at word 3, FP control at
 * word 3 after RA padding, else 4, FP offset one after): [C c R r 0 x]
 * prints FP as "c+x", [C c R] prints RA with the fixed offset, or -1.
 */
struct flex_shape {
	unsigned n;
	int w[6];		/* after the CFA pair: words 2.. */
	bool ra_pair, fp_pair;
};

static const struct flex_shape flex_shapes[] = {
	{ 2, { 0 }, false, false },
	{ 3, { 0 }, false, false },
	{ 4, { 0, 0 }, false, false },
	{ 5, { 0, CTRL(0, 1, 0), -16 }, false, true },
	{ 4, { CTRL(0, 1, 0), -8 }, true, false },
	{ 5, { CTRL(0, 1, 0), -8, 0 }, true, false },
	{ 6, { CTRL(0, 1, 0), -8, CTRL(0, 1, 0), -16 }, true, true },
};

/* "No rule" for RA or FP: the header's fixed offset, else unchanged. */
static void check_no_rule(const struct sframe_loc *l, int8_t fixed)
{
	if (fixed)
		check_slot(l, fixed);
	else
		check_same(l);
}

static void test_flex_padding_shapes(void **state)
{
	static const uint8_t abis[] = { SFRAME_ABI_AMD64_LE, SFRAME_ABI_S390X_BE,
					SFRAME_ABI_AARCH64_LE, SFRAME_ABI_AARCH64_BE };
	static const unsigned wbs[] = { 1, 2, 4 };
	struct sframe_rules r;
	size_t a, k, i;

	(void)state;
	for (a = 0; a < sizeof(abis); a++) {
		int sp = sframe_abi_sp_reg(abis[a]);
		int32_t cfa = abis[a] == SFRAME_ABI_S390X_BE ? 2 * 8 + 160 : 2;

		for (k = 0; k < sizeof(wbs) / sizeof(wbs[0]); k++) {
			for (i = 0; i < sizeof(flex_shapes) / sizeof(flex_shapes[0]); i++) {
				const struct flex_shape *s = &flex_shapes[i];

				assert_err(rules(3, abis[a], FLEX, 0, false, wbs[k], &r, s->n,
						 CTRL(sp, 0, 1), 2, s->w[0], s->w[1], s->w[2],
						 s->w[3]), 0);
				check_cfa(&r.cfa, (unsigned)sp, false, cfa);
				assert_false(r.ra_undefined);
				if (s->ra_pair)
					check_slot(&r.ra, -8);
				else
					check_no_rule(&r.ra, sec.fixed_ra);
				if (s->fp_pair)
					check_slot(&r.fp, -16);
				else
					check_no_rule(&r.fp, sec.fixed_fp);
			}
		}
	}
	/* amd64's fixed RA offset is what "no rule" stands for there. */
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, FLEX, 0, false, 1, &r, 3, CTRL(7, 0, 1), 8, 0), 0);
	check_slot(&r.ra, -8);
}

/* Register numbers are the control word's bits 3 and up: 29 bits in 4 bytes. */
static void test_flex_wide_registers(void **state)
{
	struct sframe_rules r;

	(void)state;
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, FLEX, 0, false, 4, &r, 6,
			 CTRL(0x1fffffff, 0, 1), 16, CTRL(70000, 1, 1), -8, CTRL(65536, 0, 1), 0), 0);
	check_cfa(&r.cfa, 0x1fffffff, false, 16);
	check_reg(&r.ra, 70000, true, -8);
	check_reg(&r.fp, 65536, false, 0);
	/* The same on aarch64 and s390x, with RA padding; 2-byte words: 13 bits. */
	assert_err(rules(3, SFRAME_ABI_AARCH64_LE, FLEX, 0, false, 4, &r, 5,
			 CTRL(100000, 1, 1), 0, 0, CTRL(0x10000, 1, 1), 8), 0);
	check_cfa(&r.cfa, 100000, true, 0);
	check_same(&r.ra);
	check_reg(&r.fp, 0x10000, true, 8);
	assert_err(rules(3, SFRAME_ABI_S390X_BE, FLEX, 0, false, 2, &r, 4,
			 CTRL(8191, 0, 1), SFB_S390X_CFA(160), CTRL(8190, 0, 1), 0), 0);
	check_cfa(&r.cfa, 8191, false, 160);
	check_reg(&r.ra, 8190, false, 0);
}

static void test_flex_invalid(void **state)
{
	struct sframe_rules r;

	(void)state;
	/* The CFA control word must have reg_p: here CFA-based deref, and padding. */
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, FLEX, 0, false, 1, &r, 2, CTRL(0, 1, 0), 8),
		   -SFRAME_ERR_WORDS);
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, FLEX, 0, false, 1, &r, 2, 0, 8),
		   -SFRAME_ERR_WORDS);
	assert_err(rules(3, SFRAME_ABI_S390X_BE, FLEX, 0, false, 1, &r, 6,
			 CTRL(15, 1, 0), 0, 0x81, 0, 0x89, 0), -SFRAME_ERR_WORDS);
	/* A single word cannot hold the CFA pair. */
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, FLEX, 0, false, 1, &r, 1, CTRL(7, 0, 1)),
		   -SFRAME_ERR_WORDS);
	/* A control word without its offset word (see test_flex_padding_shapes()). */
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, FLEX, 0, false, 1, &r, 3,
			 CTRL(7, 0, 1), 8, CTRL(0, 1, 0)), -SFRAME_ERR_WORDS);
	assert_err(rules(3, SFRAME_ABI_S390X_BE, FLEX, 0, false, 1, &r, 4,
			 CTRL(15, 0, 1), 0, 0, CTRL(0, 1, 0)), -SFRAME_ERR_WORDS);
	assert_err(rules(3, SFRAME_ABI_AARCH64_LE, FLEX, 0, false, 4, &r, 5,
			 CTRL(31, 0, 1), 16, CTRL(0, 1, 0), -8, CTRL(0, 1, 0)), -SFRAME_ERR_WORDS);
	/* Words after the FP entity. */
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, FLEX, 0, false, 1, &r, 5,
			 CTRL(7, 0, 1), 8, 0, 0, 7), -SFRAME_ERR_WORDS);
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, FLEX, 0, false, 1, &r, 6,
			 CTRL(7, 0, 1), 8, 0, CTRL(0, 1, 0), -16, 5), -SFRAME_ERR_WORDS);
	assert_err(rules(3, SFRAME_ABI_AARCH64_BE, FLEX, 0, false, 2, &r, 6,
			 CTRL(31, 0, 1), 16, CTRL(0, 1, 0), -8, 0, -16), -SFRAME_ERR_WORDS);
}

static void test_flex_ra_undefined(void **state)
{
	struct sframe_rules r;

	(void)state;
	assert_err(rules(3, SFRAME_ABI_AMD64_LE, FLEX, 0, false, 1, &r, 0), 0);
	assert_true(r.ra_undefined);
	assert_int_equal(r.ra.kind, SFRAME_LOC_UNDEFINED);
	assert_err(rules(3, SFRAME_ABI_S390X_BE, FLEX, 0, false, 1, &r, 0), 0);
	assert_true(r.ra_undefined);
}

static void test_fde_types(void **state)
{
	struct sframe_rules r;
	struct sframe_fde f;
	struct sfb_fde *d;
	int i;

	(void)state;
	/*
	 * gas never emits FLEX on aarch64, but the format ties no FDE type to
	 * an ABI: such an FDE decodes, and so do its rows.
	 */
	for (i = 0; i < 2; i++) {
		sfb_init(&b, 3, BOTH_AARCH64(i), i == 1, 0x5, 0x10000);
		d = sfb_fde(&b, 0x20000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		d->fde_type = SFRAME_FDE_TYPE_FLEX;
		sfb_fre(&b, 0, 0, 1, 6, CTRL(31, 0, 1), 16, CTRL(0, 1, 0), -8, CTRL(0, 1, 0), -16);
		sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
		assert_err(sframe_get_fde(&sec, 0, &f), 0);
		assert_int_equal(f.fde_type, SFRAME_FDE_TYPE_FLEX);
		assert_err(rules(3, BOTH_AARCH64(i), FLEX, 0, true, 1, &r, 6, CTRL(29, 0, 1), 16,
				 CTRL(0, 1, 0), -8, CTRL(0, 1, 0), -16), 0);
		check_cfa(&r.cfa, SFRAME_AARCH64_DWARF_FP, false, 16);
		check_slot(&r.ra, -8);
		check_slot(&r.fp, -16);
		assert_true(r.ra_mangled);
	}
	/* Reserved FDE types 2..31 on every ABI. */
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0x10000);
	d = sfb_fde(&b, 0x20000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	d->fde_type = 2;
	sfb_fre(&b, 0, 1, 1, 1, 8);
	d = sfb_fde(&b, 0x20040, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	d->fde_type = 31;
	sfb_fre(&b, 0, 1, 1, 1, 8);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	assert_err(sframe_get_fde(&sec, 0, &f), -SFRAME_ERR_FDE_TYPE);
	assert_err(sframe_get_fde(&sec, 1, &f), -SFRAME_ERR_FDE_TYPE);
	for (i = 0; i < 2; i++) {
		sfb_init(&b, 3, i ? SFRAME_ABI_S390X_BE : SFRAME_ABI_AARCH64_LE, i == 1, 0x5,
			 0x10000);
		d = sfb_fde(&b, 0x20000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		d->fde_type = 5;
		sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
		assert_err(sframe_get_fde(&sec, 0, &f), -SFRAME_ERR_FDE_TYPE);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_amd64_default),
		cmocka_unit_test(test_amd64_ra_undefined),
		cmocka_unit_test(test_amd64_bad_counts),
		cmocka_unit_test(test_aarch64_default),
		cmocka_unit_test(test_aarch64_mangled),
		cmocka_unit_test(test_aarch64_ra_padding),
		cmocka_unit_test(test_aarch64_ra_undefined_and_bad_counts),
		cmocka_unit_test(test_s390x_default),
		cmocka_unit_test(test_s390x_ra_padding),
		cmocka_unit_test(test_s390x_v2_regnum),
		cmocka_unit_test(test_s390x_v3_odd_is_offset),
		cmocka_unit_test(test_s390x_ra_undefined_and_bad_counts),
		cmocka_unit_test(test_flex_amd64_cfa),
		cmocka_unit_test(test_flex_amd64_ra_fp),
		cmocka_unit_test(test_flex_s390x),
		cmocka_unit_test(test_flex_padding_shapes),
		cmocka_unit_test(test_flex_wide_registers),
		cmocka_unit_test(test_flex_invalid),
		cmocka_unit_test(test_flex_ra_undefined),
		cmocka_unit_test(test_fde_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
