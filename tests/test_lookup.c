/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_lookup.c - sframe_lookup() on hand-built sections.
 *
 * Rules (sframe_format.h, "Lookup", and sframe_lookup()): the function
 * is the one with the greatest start <= PC and PC < start + size; the row is
 * the last FRE whose start <= PC - start (PCMASK: (PC - start) % rep_size);
 * anything else is -SFRAME_ERR_NOT_FOUND.
 *
 * Every lookup runs twice: through the builder's read callback (the
 * sections are opened with sframe_open()) and over the same bytes in memory
 * (sframe_open_buffer(), another search and scan); both must give the same
 * answer, field for field.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "builder.h"
#include "rules_equal.h"

static struct sfb b;
static uint8_t buf[SFB_MAX_OUT];
static struct sframe_section sec;
static struct sfb_reader rd;

#define NFUNC		50
#define FUNC_BASE	0x401000u
#define FUNC_STRIDE	0x40u
#define FUNC_SIZE	0x30u	/* 0x10-byte gap after each function */

/*
 * sframe_lookup() of @pc on the callback section and on the same bytes in
 * memory: same result, same row. Returns the result.
 */
static int lookup(uint64_t pc, struct sframe_row *row)
{
	struct sframe_section msec;
	struct sframe_buffer mbuf;
	struct sframe_row m;
	int err, merr;
	unsigned i;

	assert_err(sframe_open_buffer(&msec, &mbuf, rd.data, rd.size, sec.vaddr), 0);
	err = sframe_lookup(&sec, pc, row);
	memset(&m, 0x5a, sizeof(m));
	merr = sframe_lookup(&msec, pc, &m);
	assert_err(merr, err);
	if (err && err != -SFRAME_ERR_NOT_FOUND)
		return err;
	assert_int_equal(m.fde.index, row->fde.index);
	if (err && row->fde.index == SFRAME_NO_INDEX)
		return err;
	assert_int_equal(m.fde.func_start, row->fde.func_start);
	assert_int_equal(m.fde.func_offset, row->fde.func_offset);
	assert_int_equal(m.fde.func_size, row->fde.func_size);
	assert_int_equal(m.fde.start_field, row->fde.start_field);
	assert_int_equal(m.fde.start_field_off, row->fde.start_field_off);
	assert_int_equal(m.fde.fres_off, row->fde.fres_off);
	assert_int_equal(m.fde.num_fres, row->fde.num_fres);
	assert_int_equal(m.fde.info, row->fde.info);
	assert_int_equal(m.fde.info2, row->fde.info2);
	assert_int_equal(m.fde.rep_size, row->fde.rep_size);
	assert_int_equal(m.fde.fre_type, row->fde.fre_type);
	assert_int_equal(m.fde.pc_type, row->fde.pc_type);
	assert_int_equal(m.fde.fde_type, row->fde.fde_type);
	assert_int_equal(m.fde.pauth_key, row->fde.pauth_key);
	assert_int_equal(m.fde.signal, row->fde.signal);
	assert_int_equal(m.fde.rowless, row->fde.rowless);
	if (err)
		return err;
	assert_int_equal(m.fre.start, row->fre.start);
	assert_int_equal(m.fre.info, row->fre.info);
	assert_int_equal(m.fre.num_words, row->fre.num_words);
	assert_int_equal(m.fre.word_bytes, row->fre.word_bytes);
	assert_int_equal(m.fre.size, row->fre.size);
	assert_int_equal(m.fre.mangled_ra, row->fre.mangled_ra);
	for (i = 0; i < SFRAME_MAX_WORDS; i++)
		assert_int_equal(m.fre.words[i], row->fre.words[i]);
	assert_rules_equal(&m.rules, &row->rules);
	assert_int_equal(m.span_start, row->span_start);
	assert_int_equal(m.span_end, row->span_end);
	assert_true(row->span_start <= pc && (pc < row->span_end || pc == UINT64_MAX));
	return 0;
}

/*
 * The span of @pc's row is [@lo, @hi), and every PC in it (and no PC next
 * to it) gets the same row: the promise of struct sframe_row's span. (The
 * tests' rows differ from their neighbours, so the span is the whole run.)
 */
static void expect_span(uint64_t pc, uint64_t lo, uint64_t hi)
{
	struct sframe_row row, other;
	uint64_t p;

	assert_err(lookup(pc, &row), 0);
	assert_int_equal(row.span_start, lo);
	assert_int_equal(row.span_end, hi);
	for (p = lo; p < hi; p++) {
		assert_err(lookup(p, &other), 0);
		assert_int_equal(other.fde.index, row.fde.index);
		assert_int_equal(other.fre.start, row.fre.start);
		assert_int_equal(other.span_start, lo);
		assert_int_equal(other.span_end, hi);
	}
	if (lo > 0 && lookup(lo - 1, &other) == 0)
		assert_true(other.fde.index != row.fde.index || other.fre.start != row.fre.start ||
			    other.span_end != lo);
	if (hi < UINT64_MAX && lookup(hi, &other) == 0)
		assert_true(other.fde.index != row.fde.index || other.fre.start != row.fre.start ||
			    other.span_start != hi);
}

/* The CFA offset the rules must report for stored word @w. */
static int32_t cfa_of(int32_t w)
{
	return b.abi == SFRAME_ABI_S390X_BE ? w * 8 + 160 : w;
}

static uint64_t func_start(unsigned j)
{
	return FUNC_BASE + (uint64_t)j * FUNC_STRIDE;
}

/*
 * Function j: rows at 0 (word 1), 1 (word 2) and 0x10 (word 3 + j % 64), all
 * CFA = SP + word, one word (valid on every ABI). Added in the order @perm.
 */
static void build_many(uint8_t version, uint8_t abi, bool be, uint8_t flags, uint64_t vaddr,
		       const unsigned *perm)
{
	unsigned p;

	sfb_init(&b, version, abi, be, flags, vaddr);
	for (p = 0; p < NFUNC; p++) {
		unsigned j = perm ? perm[p] : p;

		sfb_fde(&b, func_start(j), FUNC_SIZE, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 1);
		sfb_fre(&b, 1, SFRAME_BASE_REG_SP, 1, 1, 2);
		sfb_fre(&b, 0x10, SFRAME_BASE_REG_SP, 1, 1, (int)(3 + j % 64));
	}
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0x1000);
	assert_err(sframe_check(&sec, NULL), 0);
}

static void expect_row(uint64_t pc, uint32_t index, uint64_t start, uint32_t fre_start,
		       int32_t word)
{
	struct sframe_row row;

	memset(&row, 0x5a, sizeof(row));
	assert_err(lookup(pc, &row), 0);
	assert_int_equal(row.fde.index, index);
	assert_int_equal(row.fde.func_start, start);
	assert_int_equal(row.fre.start, fre_start);
	assert_int_equal(row.fre.num_words, b.fres[b.fdes[index].first_fre].num_words);
	assert_int_equal(row.fre.words[0], word);
	assert_int_equal(row.rules.cfa.offset, cfa_of(word));
	assert_int_equal(row.rules.cfa.reg, sframe_abi_sp_reg(sec.abi));
	assert_false(row.rules.ra_undefined);
}

static void expect_none(uint64_t pc)
{
	struct sframe_row row;

	assert_err(lookup(pc, &row), -SFRAME_ERR_NOT_FOUND);
}

/* Probe every function of build_many(): @index_of[j] is its FDE index. */
static void probe_many(const unsigned *index_of)
{
	unsigned j;

	for (j = 0; j < NFUNC; j++) {
		uint64_t s = func_start(j);
		uint32_t idx = index_of ? index_of[j] : j;
		int32_t w3 = (int32_t)(3 + j % 64);

		expect_row(s, idx, s, 0, 1);
		expect_row(s + 1, idx, s, 1, 2);
		expect_row(s + 0xf, idx, s, 1, 2);
		expect_row(s + 0x10, idx, s, 0x10, w3);
		expect_row(s + FUNC_SIZE / 2, idx, s, 0x10, w3);
		expect_row(s + FUNC_SIZE - 1, idx, s, 0x10, w3);
		/* At start + size: in the gap. */
		expect_none(s + FUNC_SIZE);
		expect_none(s + FUNC_STRIDE - 1);
	}
	expect_none(FUNC_BASE - 1);
	expect_none(0);
	expect_none(func_start(NFUNC - 1) + FUNC_SIZE);
	expect_none(func_start(NFUNC));
	expect_none(UINT64_MAX);
}

static void test_sorted_many(void **state)
{
	(void)state;
	build_many(1, SFRAME_ABI_AMD64_LE, false, SFRAME_F_FDE_SORTED, 0x600000, NULL);
	probe_many(NULL);
	build_many(1, SFRAME_ABI_AARCH64_BE, true, SFRAME_F_FDE_SORTED, 0x600000, NULL);
	probe_many(NULL);
	build_many(2, SFRAME_ABI_AMD64_LE, false, SFRAME_F_FDE_SORTED, 0x600000, NULL);
	probe_many(NULL);
	build_many(2, SFRAME_ABI_AARCH64_LE, false, 0x5, 0x600000, NULL);
	probe_many(NULL);
	/* Big-endian v2 + PCREL: written by no toolchain, allowed by the format. */
	build_many(2, SFRAME_ABI_AARCH64_BE, true, 0x5, 0x600000, NULL);
	probe_many(NULL);
	build_many(2, SFRAME_ABI_S390X_BE, true, 0x5, 0x300000, NULL);
	probe_many(NULL);
	build_many(3, SFRAME_ABI_AMD64_LE, false, 0x5, 0x600000, NULL);
	probe_many(NULL);
	build_many(3, SFRAME_ABI_AMD64_LE, false, SFRAME_F_FDE_SORTED, 0x200000, NULL);
	probe_many(NULL);
	build_many(3, SFRAME_ABI_S390X_BE, true, 0x5, 0x3ff0000000, NULL);
	probe_many(NULL);
}

static void test_unsorted_many(void **state)
{
	unsigned perm[NFUNC], index_of[NFUNC], p;

	(void)state;
	/* 7 is coprime with 50: a permutation. */
	for (p = 0; p < NFUNC; p++) {
		perm[p] = (p * 7 + 3) % NFUNC;
		index_of[perm[p]] = p;
	}
	build_many(1, SFRAME_ABI_AMD64_LE, false, 0, 0x600000, perm);
	probe_many(index_of);
	build_many(2, SFRAME_ABI_AMD64_LE, false, 0, 0x600000, perm);
	probe_many(index_of);
	build_many(2, SFRAME_ABI_AARCH64_BE, true, SFRAME_F_FDE_FUNC_START_PCREL, 0x600000, perm);
	probe_many(index_of);
	build_many(3, SFRAME_ABI_AARCH64_LE, false, SFRAME_F_FDE_FUNC_START_PCREL, 0x600000, perm);
	probe_many(index_of);
	build_many(3, SFRAME_ABI_S390X_BE, true, SFRAME_F_FDE_FUNC_START_PCREL, 0x600000, perm);
	probe_many(index_of);
}

static void test_unsorted_nested(void **state)
{
	uint8_t v;

	(void)state;
	/*
	 * Unsorted, one function nested in another (possible in relocatable
	 * objects): a PC inside both belongs to the one starting last.
	 */
	for (v = 1; v <= 3; v++) {
		sfb_init(&b, v, SFRAME_ABI_AMD64_LE, false, v == 1 ? 0 : 0x4, 0x10000);
		sfb_fde(&b, 0x20080, 0x10, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 16);
		sfb_fde(&b, 0x20000, 0x100, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
		sfb_fde(&b, 0x20040, 0x10, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 24);
		sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
		expect_row(0x20000, 1, 0x20000, 0, 8);
		expect_row(0x20085, 0, 0x20080, 0, 16);
		expect_row(0x2004f, 2, 0x20040, 0, 24);
		expect_none(0x20100);
	}
}

static void test_unsorted_nested_after_inner_end(void **state)
{
	uint8_t v;

	(void)state;
	/*
	 * The header's rule, read literally: "the function is the one with the
	 * greatest start <= pc, and pc must be below its end". At 0x20095 the
	 * greatest start <= pc is 0x20080, whose function ended at 0x20090: not
	 * found, even though the outer function [0x20000, 0x20100) covers it.
	 * (This is also what the binary search gives for the same starts.)
	 */
	for (v = 1; v <= 3; v++) {
		sfb_init(&b, v, SFRAME_ABI_AMD64_LE, false, v == 1 ? 0 : 0x4, 0x10000);
		sfb_fde(&b, 0x20080, 0x10, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 16);
		sfb_fde(&b, 0x20000, 0x100, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
		sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
		expect_row(0x2007f, 1, 0x20000, 0, 8);
		expect_none(0x20095);
	}
}

static void test_sorted_small_counts(void **state)
{
	unsigned n, j;

	(void)state;
	/* Binary search edge cases: 1..9 adjacent functions (no gaps). */
	for (n = 1; n <= 9; n++) {
		sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0x10000);
		for (j = 0; j < n; j++) {
			sfb_fde(&b, 0x20000 + j * 0x20, 0x20, SFRAME_FRE_TYPE_ADDR1,
				SFRAME_PC_TYPE_INC);
			sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, (int)(8 + j));
		}
		sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
		expect_none(0x1ffff);
		for (j = 0; j < n; j++) {
			uint64_t s = 0x20000 + j * 0x20;

			expect_row(s, j, s, 0, (int32_t)(8 + j));
			expect_row(s + 0x1f, j, s, 0, (int32_t)(8 + j));
		}
		expect_none(0x20000 + n * 0x20);
	}
}

static unsigned ceil_log2(unsigned n)
{
	unsigned k = 0;

	while ((1u << k) < n)
		k++;
	return k;
}

/*
 * The binary search at every count up to 66 and around powers of two up
 * to 2500 FDEs (where the halves it probes change shape, and where the
 * in-memory search starts prefetching), in both forms (lookup()). Through the callback a lookup makes exactly ceil(log2(n))
 * probes, then reads the FDE, (v3) its attribute record, and its FREs.
 */
static void search_counts(uint8_t version, uint8_t flags)
{
	/* (Past 2048 v3 or 1638 v2 FDEs the array exceeds 32 KB: prefetching search.) */
	static const unsigned big[] = { 127, 128, 129, 255, 256, 257, 1023, 1024, 1025,
					2047, 2049, 2500 };
	const unsigned small = 66, extra = version == 3 ? 3 : 2;
	unsigned t, n, j;

	for (t = 0; t < small + sizeof(big) / sizeof(big[0]); t++) {
		n = t < small ? t + 1 : big[t - small];
		sfb_init(&b, version, SFRAME_ABI_AMD64_LE, false, flags, 0x10000);
		for (j = 0; j < n; j++) {
			sfb_fde(&b, 0x20000 + j * 0x20, 0x18, SFRAME_FRE_TYPE_ADDR1,
				SFRAME_PC_TYPE_INC);
			sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, (int)(8 + j % 100));
		}
		sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
		expect_none(0x1ffff);
		for (j = 0; j < n; j++) {
			uint64_t s = 0x20000 + j * 0x20;

			rd.calls = 0;
			expect_row(s, j, s, 0, (int32_t)(8 + j % 100));
			assert_int_equal(rd.calls, ceil_log2(n) + extra);
			expect_row(s + 0x17, j, s, 0, (int32_t)(8 + j % 100));
			expect_none(s + 0x18);
		}
		expect_none(0x20000 + n * 0x20);
	}
}

static void test_search_counts(void **state)
{
	(void)state;
	search_counts(3, SFRAME_F_FDE_SORTED | SFRAME_F_FDE_FUNC_START_PCREL);
	search_counts(3, SFRAME_F_FDE_SORTED);
	search_counts(2, SFRAME_F_FDE_SORTED);
}

/*
 * A v3 PC-relative start whose sum with its offset passes INT64_MAX (a
 * corrupt section): both search forms order it after every PC, so lookups
 * whose search probes it go on as if it started past them, and only its own
 * PCs (which the search leaves to FDE 4, which does not contain them) are
 * not found. Decoding it reports the corruption.
 */
static void test_start_past_int64_max(void **state)
{
	struct sframe_fde fde;
	struct sframe_row row;
	unsigned j;

	(void)state;
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false,
		 SFRAME_F_FDE_SORTED | SFRAME_F_FDE_FUNC_START_PCREL, 0x10000);
	for (j = 0; j < 8; j++) {
		sfb_fde(&b, 0x20000 + j * 0x20, 0x18, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, (int)(8 + j));
	}
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	sfb_put_u64(&b, buf, b.fde_off[5], (uint64_t)INT64_MAX - 4);
	assert_err(sframe_get_fde(&sec, 5, &fde), -SFRAME_ERR_FDE);
	assert_true(sframe_check(&sec, NULL) < 0);
	/* n = 8: probes 4, then 6 or 2, then one of 7, 5, 3, 1. */
	for (j = 0; j < 8; j++) {
		uint64_t s = 0x20000 + j * 0x20;

		if (j == 5) {
			assert_err(lookup(s, &row), -SFRAME_ERR_NOT_FOUND);
			assert_int_equal(row.fde.index, SFRAME_NO_INDEX);
			continue;
		}
		expect_row(s, j, s, 0, (int32_t)(8 + j));
		expect_row(s + 0x17, j, s, 0, (int32_t)(8 + j));
	}
}

static void test_pcinc_row_selection(void **state)
{
	struct sframe_row row;
	uint32_t off;

	(void)state;
	sfb_init(&b, 2, SFRAME_ABI_AMD64_LE, false, 0x5, 0x10000);
	sfb_fde(&b, 0x20000, 0x1000, SFRAME_FRE_TYPE_ADDR2, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 4, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_fre(&b, 5, SFRAME_BASE_REG_SP, 1, 2, 16, -16);
	sfb_fre(&b, 0x108, SFRAME_BASE_REG_FP, 1, 2, 16, -16);
	sfb_fre(&b, 0xfff, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	for (off = 0; off < 0x1000; off++) {
		int err = lookup(0x20000 + off, &row);
		/* Last FRE with start <= off; none before the first FRE (at 4). */
		uint32_t want = off < 4 ? UINT32_MAX : off < 5 ? 4 : off < 0x108 ? 5 :
				off < 0xfff ? 0x108 : 0xfff;

		if (want == UINT32_MAX) {
			assert_err(err, -SFRAME_ERR_NOT_FOUND);
			continue;
		}
		assert_err(err, 0);
		assert_int_equal(row.fre.start, want);
		/* The row holds until the next one starts, the last to the end. */
		assert_int_equal(row.span_start, 0x20000 + want);
		assert_int_equal(row.span_end, 0x20000 + (want == 4 ? 5 : want == 5 ? 0x108 :
							  want == 0x108 ? 0xfff : 0x1000));
	}
	expect_span(0x20000 + 0x100, 0x20000 + 5, 0x20000 + 0x108);
	assert_err(lookup(0x20000 + 0x108, &row), 0);
	assert_int_equal(row.rules.cfa.reg, SFRAME_AMD64_DWARF_FP);
	assert_int_equal(row.rules.fp.kind, SFRAME_LOC_CFA);
	assert_int_equal(row.rules.fp.offset, -16);
	assert_int_equal(row.rules.ra.offset, -8);
	assert_int_equal(row.fre.num_words, 2);
	assert_int_equal(row.fde.num_fres, 4);
	assert_int_equal(row.fde.func_size, 0x1000);
	expect_none(0x21000);
}

static void test_zero_fre_fdes(void **state)
{
	uint8_t v;

	(void)state;
	for (v = 1; v <= 3; v++) {
		sfb_init(&b, v, SFRAME_ABI_AMD64_LE, false,
			 v == 1 ? SFRAME_F_FDE_SORTED : 0x5, 0x10000);
		sfb_fde(&b, 0x20000, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
		sfb_fde(&b, 0x20020, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		sfb_fde(&b, 0x20040, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 16);
		sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
		expect_row(0x2001f, 0, 0x20000, 0, 8);
		/* v3: a DEFAULT FDE with no FREs marks an outermost frame: still no row. */
		expect_none(0x20020);
		expect_none(0x2003f);
		expect_row(0x20040, 2, 0x20040, 0, 16);
	}
}

static void test_ra_undefined_row(void **state)
{
	struct sframe_row row;

	(void)state;
	/* An N = 0 row is a row: found, marked RA undefined. */
	sfb_init(&b, 3, SFRAME_ABI_AARCH64_LE, false, 0x5, 0x10000);
	sfb_fde(&b, 0x20000, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_FP, 1, 0);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	assert_err(lookup(0x20004, &row), 0);
	assert_true(row.rules.ra_undefined);
	assert_int_equal(row.rules.ra.kind, SFRAME_LOC_UNDEFINED);
	assert_int_equal(row.fre.num_words, 0);
}

/* PLT-like: plt0 PCINC (16 bytes), pltN PCMASK over 4 entries of 16 bytes. */
static void build_plt(uint8_t version, uint8_t abi, bool be, uint8_t rep, uint32_t first)
{
	struct sfb_fde *f;

	sfb_init(&b, version, abi, be, version == 1 ? SFRAME_F_FDE_SORTED : 0x5, 0x10000);
	sfb_fde(&b, 0x1000, 16, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 16);
	sfb_fre(&b, 6, SFRAME_BASE_REG_SP, 1, 1, 24);
	f = sfb_fde(&b, 0x1010, 64, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_MASK);
	f->rep_size = rep;
	sfb_fre(&b, first, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_fre(&b, 6, SFRAME_BASE_REG_SP, 1, 1, 16);
	sfb_fre(&b, 11, SFRAME_BASE_REG_SP, 1, 1, 24);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
}

static void probe_plt(uint32_t first)
{
	unsigned e, o;

	expect_row(0x1000, 0, 0x1000, 0, 16);
	expect_row(0x100f, 0, 0x1000, 6, 24);
	for (e = 0; e < 4; e++) {
		for (o = 0; o < 16; o++) {
			uint64_t pc = 0x1010 + e * 16 + o;

			if (o < first)
				expect_none(pc);
			else if (o < 6)
				expect_row(pc, 1, 0x1010, first, 8);
			else if (o < 11)
				expect_row(pc, 1, 0x1010, 6, 16);
			else
				expect_row(pc, 1, 0x1010, 11, 24);
		}
		/* Spans repeat with the entries: [first, 6), [6, 11), [11, 16). */
		expect_span(0x1010 + e * 16 + 7, 0x1010 + e * 16 + 6, 0x1010 + e * 16 + 11);
		expect_span(0x1010 + e * 16 + 15, 0x1010 + e * 16 + 11, 0x1010 + e * 16 + 16);
		expect_span(0x1010 + e * 16 + 5, 0x1010 + e * 16 + first, 0x1010 + e * 16 + 6);
	}
	expect_none(0x1050);
}

static void test_pcmask(void **state)
{
	(void)state;
	/* Entry 0, entry 3 and the last byte of each entry. */
	build_plt(2, SFRAME_ABI_AMD64_LE, false, 16, 0);
	expect_row(0x1010, 1, 0x1010, 0, 8);
	expect_row(0x1010 + 3 * 16 + 7, 1, 0x1010, 6, 16);
	expect_row(0x1010 + 2 * 16 + 15, 1, 0x1010, 11, 24);
	probe_plt(0);
	build_plt(3, SFRAME_ABI_AMD64_LE, false, 16, 0);
	probe_plt(0);
	build_plt(3, SFRAME_ABI_S390X_BE, true, 16, 0);
	probe_plt(0);
	build_plt(2, SFRAME_ABI_S390X_BE, true, 16, 0);
	probe_plt(0);
	/* First row at 2: offsets 0 and 1 of every entry have no row. */
	build_plt(3, SFRAME_ABI_AMD64_LE, false, 16, 2);
	probe_plt(2);
}

static void test_pcmask_rep_size_32(void **state)
{
	struct sframe_row row;

	(void)state;
	/* rep 32 over 64 bytes: offsets 16..31 of each block select the row at 11. */
	build_plt(3, SFRAME_ABI_AMD64_LE, false, 32, 0);
	assert_err(lookup(0x1010 + 32 + 20, &row), 0);
	assert_int_equal(row.fre.start, 11);
	assert_err(lookup(0x1010 + 32 + 3, &row), 0);
	assert_int_equal(row.fre.start, 0);
	/* The last row of a block runs to the block's end, not the entry's. */
	expect_span(0x1010 + 32 + 20, 0x1010 + 32 + 11, 0x1010 + 64);
	/* rep 48 over 64 bytes: the second block stops at the function's end. */
	build_plt(3, SFRAME_ABI_AMD64_LE, false, 48, 0);
	expect_span(0x1010 + 48 + 3, 0x1010 + 48, 0x1010 + 48 + 6);
	expect_span(0x1010 + 48 + 14, 0x1010 + 48 + 11, 0x1010 + 64);
	expect_span(0x1010 + 20, 0x1010 + 11, 0x1010 + 48);
}

static void test_span_rows_out_of_order(void **state)
{
	(void)state;
	/*
	 * Rows at 0, 0x10, 8, 0x20 (corrupt: out of order). A scan stops at
	 * the first row past the PC, so PCs 0..0xf get the row at 0, 0x10..0x1f
	 * the row at 8 (the last one before the stop): its span starts at
	 * 0x10, past the row at 0x10 it was scanned over, not at 8.
	 */
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0x10000);
	sfb_fde(&b, 0x20000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_fre(&b, 0x10, SFRAME_BASE_REG_SP, 1, 1, 16);
	sfb_fre(&b, 8, SFRAME_BASE_REG_SP, 1, 1, 24);
	sfb_fre(&b, 0x20, SFRAME_BASE_REG_SP, 1, 1, 32);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	expect_row(0x20009, 0, 0x20000, 0, 8);
	expect_span(0x20009, 0x20000, 0x20010);
	expect_row(0x20012, 0, 0x20000, 8, 24);
	expect_span(0x20012, 0x20010, 0x20020);
	expect_span(0x2003f, 0x20020, 0x20040);
}

static void test_span_near_top(void **state)
{
	struct sframe_row row;

	(void)state;
	/* A function ending at 2^64 exactly: the span stops one short. */
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0xffffffffffff0000ull);
	sfb_fde(&b, 0xfffffffffffff000ull, 0x1000, SFRAME_FRE_TYPE_ADDR2, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_fre(&b, 0x800, SFRAME_BASE_REG_SP, 1, 1, 16);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	assert_err(lookup(UINT64_MAX - 1, &row), 0);
	assert_int_equal(row.span_start, 0xfffffffffffff800ull);
	assert_int_equal(row.span_end, UINT64_MAX);
	/* The last PC has its row, outside every span. */
	assert_err(lookup(UINT64_MAX, &row), 0);
	assert_int_equal(row.fre.start, 0x800);
	assert_int_equal(row.span_end, UINT64_MAX);
	expect_span(0xfffffffffffff7ffull, 0xfffffffffffff000ull, 0xfffffffffffff800ull);
}

static void test_pcmask_rep_size_zero(void **state)
{
	struct sframe_row row;
	unsigned o;

	(void)state;
	/* Division by zero in libsframe; an error code here. */
	build_plt(2, SFRAME_ABI_AMD64_LE, false, 0, 0);
	for (o = 0; o < 64; o++)
		assert_err(lookup(0x1010 + o, &row), -SFRAME_ERR_REP_SIZE);
	expect_row(0x1000, 0, 0x1000, 0, 16);
	build_plt(3, SFRAME_ABI_S390X_BE, true, 0, 0);
	assert_err(lookup(0x1010, &row), -SFRAME_ERR_REP_SIZE);
	assert_err(sframe_check(&sec, NULL), -SFRAME_ERR_REP_SIZE);
}

static void test_pcmask_v1(void **state)
{
	struct sframe_row row;

	(void)state;
	/* v1 amd64: no rep_size field; PCMASK repeats every 16 bytes. */
	build_plt(1, SFRAME_ABI_AMD64_LE, false, 0, 0);
	probe_plt(0);
	expect_row(0x1010 + 3 * 16 + 7, 1, 0x1010, 6, 16);
	/* v1 aarch64: unsupported. */
	build_plt(1, SFRAME_ABI_AARCH64_LE, false, 0, 0);
	assert_err(lookup(0x1010, &row), -SFRAME_ERR_UNSUPPORTED);
	assert_err(lookup(0x1047, &row), -SFRAME_ERR_UNSUPPORTED);
	expect_row(0x1000, 0, 0x1000, 0, 16);
	build_plt(1, SFRAME_ABI_AARCH64_BE, true, 0, 0);
	assert_err(lookup(0x1020, &row), -SFRAME_ERR_UNSUPPORTED);
}

static void test_not_found_fde_index(void **state)
{
	struct sframe_row row;
	uint8_t v;

	(void)state;
	/*
	 * On NOT_FOUND, row->fde.index is SFRAME_NO_INDEX when no function
	 * covers the PC, else row->fde is the function that has no row for it.
	 */
	for (v = 1; v <= 3; v++) {
		sfb_init(&b, v, SFRAME_ABI_AMD64_LE, false, v == 1 ? 0x1 : 0x5, 0x10000);
		sfb_fde(&b, 0x20000, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		sfb_fre(&b, 4, SFRAME_BASE_REG_SP, 1, 1, 8);
		sfb_fde(&b, 0x20040, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);

		/* Before the first FRE of function 0. */
		memset(&row, 0x5a, sizeof(row));
		assert_err(lookup(0x20003, &row), -SFRAME_ERR_NOT_FOUND);
		assert_int_equal(row.fde.index, 0);
		assert_int_equal(row.fde.func_start, 0x20000);
		/* Function 1 has no FREs. */
		memset(&row, 0x5a, sizeof(row));
		assert_err(lookup(0x20050, &row), -SFRAME_ERR_NOT_FOUND);
		assert_int_equal(row.fde.index, 1);
		assert_int_equal(row.fde.num_fres, 0);
		/* No function: before, at an end, in the gap, after. */
		memset(&row, 0x5a, sizeof(row));
		assert_err(lookup(0x1ffff, &row), -SFRAME_ERR_NOT_FOUND);
		assert_int_equal(row.fde.index, SFRAME_NO_INDEX);
		memset(&row, 0x5a, sizeof(row));
		assert_err(lookup(0x20020, &row), -SFRAME_ERR_NOT_FOUND);
		assert_int_equal(row.fde.index, SFRAME_NO_INDEX);
		memset(&row, 0x5a, sizeof(row));
		assert_err(lookup(0x2003f, &row), -SFRAME_ERR_NOT_FOUND);
		assert_int_equal(row.fde.index, SFRAME_NO_INDEX);
		memset(&row, 0x5a, sizeof(row));
		assert_err(lookup(0x20060, &row), -SFRAME_ERR_NOT_FOUND);
		assert_int_equal(row.fde.index, SFRAME_NO_INDEX);
		memset(&row, 0x5a, sizeof(row));
		assert_err(lookup(UINT64_MAX, &row), -SFRAME_ERR_NOT_FOUND);
		assert_int_equal(row.fde.index, SFRAME_NO_INDEX);
	}

	/* PCMASK: offset 0..1 of each entry precede the first row (at 2). */
	build_plt(3, SFRAME_ABI_AMD64_LE, false, 16, 2);
	memset(&row, 0x5a, sizeof(row));
	assert_err(lookup(0x1010 + 16 + 1, &row), -SFRAME_ERR_NOT_FOUND);
	assert_int_equal(row.fde.index, 1);

	/* An empty section. */
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0x10000);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	memset(&row, 0x5a, sizeof(row));
	assert_err(lookup(0x10000, &row), -SFRAME_ERR_NOT_FOUND);
	assert_int_equal(row.fde.index, SFRAME_NO_INDEX);
}

static void test_pc_near_top(void **state)
{
	(void)state;
	/* A function ending 16 bytes below 2^64. */
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0xffffffffffff0000ull);
	sfb_fde(&b, 0xfffffffffffff000ull, 0xff0, SFRAME_FRE_TYPE_ADDR2, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_fre(&b, 0xfe0, SFRAME_BASE_REG_SP, 1, 1, 16);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	expect_row(0xfffffffffffff000ull, 0, 0xfffffffffffff000ull, 0, 8);
	expect_row(0xffffffffffffffefull, 0, 0xfffffffffffff000ull, 0xfe0, 16);
	expect_none(0xfffffffffffffff0ull);
	expect_none(UINT64_MAX);
	expect_none(0);
	expect_none(0xffffffffffffefffull);

	/* v2 non-PCREL, same place: field = start - vaddr. */
	sfb_init(&b, 2, SFRAME_ABI_AMD64_LE, false, SFRAME_F_FDE_SORTED, 0xffffffffffff0000ull);
	sfb_fde(&b, 0xfffffffffffff000ull, 0xff0, SFRAME_FRE_TYPE_ADDR2, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	expect_row(0xffffffffffffffefull, 0, 0xfffffffffffff000ull, 0, 8);
	expect_none(UINT64_MAX);

	/* Low function, PCs at the top: no wrap-around match. */
	sfb_init(&b, 2, SFRAME_ABI_AMD64_LE, false, 0x5, 0x1000);
	sfb_fde(&b, 0x0, 0x100, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_fde(&b, 0x2000, 0x100, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 16);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	expect_row(0, 0, 0, 0, 8);
	expect_row(0xff, 0, 0, 0, 8);
	expect_none(0x100);
	expect_row(0x20ff, 1, 0x2000, 0, 16);
	expect_none(UINT64_MAX);
	expect_none(UINT64_MAX - 0xff);
	expect_none(0x8000000000000000ull);
}

static void test_fde_end_past_2_64(void **state)
{
	struct sframe_fde fde;
	struct sframe_row row;
	int err;

	(void)state;
	/*
	 * A function at 0xfffffffffffff000 of 0x2000 bytes straddles 2^64 (as a
	 * section opened at a wrong vaddr can): the FDE itself decodes, since
	 * its offsets are fine, but lookups never wrap: PCs just above 0 are not
	 * in it, PCs below 2^64 are.
	 */
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0xffffffffffff0000ull);
	sfb_fde(&b, 0xfffffffffffff000ull, 0x2000, SFRAME_FRE_TYPE_ADDR2, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	err = lookup(0x10, &row);
	assert_err(err, -SFRAME_ERR_NOT_FOUND);
	assert_err(lookup(0xffffffffffffff00ull, &row), 0);
	assert_int_equal(row.fde.func_start, 0xfffffffffffff000ull);
	assert_err(sframe_get_fde(&sec, 0, &fde), 0);
	assert_int_equal(fde.func_size, 0x2000);
}

static void test_lookup_flex_row(void **state)
{
	struct sframe_row row;
	struct sfb_fde *f;

	(void)state;
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0x10000);
	f = sfb_fde(&b, 0x20000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	f->fde_type = SFRAME_FDE_TYPE_FLEX;
	f->signal = true;
	sfb_fre(&b, 0, 0, 1, 2, SFB_FLEX_CTRL(7, 0, 1), 8);
	sfb_fre(&b, 8, 0, 1, 5, SFB_FLEX_CTRL(10, 0, 1), 0, 0, SFB_FLEX_CTRL(6, 1, 1), 0);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	assert_err(lookup(0x20009, &row), 0);
	assert_int_equal(row.fde.fde_type, SFRAME_FDE_TYPE_FLEX);
	assert_true(row.fde.signal);
	assert_int_equal(row.fre.start, 8);
	assert_int_equal(row.rules.cfa.reg, 10);
	assert_int_equal(row.rules.fp.kind, SFRAME_LOC_REG);
	assert_int_equal(row.rules.fp.reg, 6);
	assert_true(row.rules.fp.deref);
	assert_int_equal(row.rules.ra.kind, SFRAME_LOC_CFA);
	assert_int_equal(row.rules.ra.offset, -8);
}

/*
 * FLEX rows with "no rule" words in every valid shape (test_rules.c says
 * which rows are valid and what they mean) and a 29-bit register, in a
 * FLEX function between two default ones, on every ABI (aarch64 too: the
 * format ties no FDE type to an ABI). sframe_check() accepts the section;
 * each row is found, in both forms, with the rules sframe_fre_rules() gives
 * for the same FRE through the iterator; the other functions are found.
 */
static void test_lookup_flex_shapes(void **state)
{
	static const uint8_t abis[] = { SFRAME_ABI_AMD64_LE, SFRAME_ABI_S390X_BE,
					SFRAME_ABI_AARCH64_LE, SFRAME_ABI_AARCH64_BE };
	struct sframe_fre_iter it;
	struct sframe_rules want;
	struct sframe_row row;
	struct sframe_fre fre;
	struct sfb_fde *f;
	size_t a;
	unsigned j;

	(void)state;
	for (a = 0; a < sizeof(abis); a++) {
		bool be = abis[a] == SFRAME_ABI_S390X_BE || abis[a] == SFRAME_ABI_AARCH64_BE;
		int c = SFB_FLEX_CTRL(sframe_abi_sp_reg(abis[a]), 0, 1);
		int slot = SFB_FLEX_CTRL(0, 1, 0);
		int w0 = abis[a] == SFRAME_ABI_S390X_BE ? SFB_S390X_CFA(176) : 16;

		sfb_init(&b, 3, abis[a], be, 0x5, 0x10000);
		sfb_fde(&b, 0x20000, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, w0);
		f = sfb_fde(&b, 0x20020, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		f->fde_type = SFRAME_FDE_TYPE_FLEX;
		sfb_fre(&b, 0, 0, 1, 2, c, w0);
		sfb_fre(&b, 4, 0, 1, 3, c, w0, 0);
		sfb_fre(&b, 8, 0, 2, 4, c, w0, 0, 0);
		sfb_fre(&b, 12, 0, 2, 5, c, w0, 0, slot, -16);
		sfb_fre(&b, 16, 0, 4, 4, c, w0, slot, -8);
		sfb_fre(&b, 20, 0, 1, 5, c, w0, slot, -8, 0);
		sfb_fre(&b, 24, 0, 1, 6, c, w0, slot, -8, slot, -16);
		sfb_fre(&b, 28, 0, 4, 5, SFB_FLEX_CTRL(0x1fffffff, 1, 1), 8,
			SFB_FLEX_CTRL(70000, 0, 1), 0, 0);
		sfb_fde(&b, 0x20060, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, w0);
		sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
		assert_err(sframe_check(&sec, NULL), 0);

		assert_err(lookup(0x20021, &row), 0);
		assert_err(sframe_fre_iter_init(&sec, &row.fde, &it), 0);
		for (j = 0; j < 8; j++) {
			assert_err(sframe_fre_iter_next(&sec, &it, &fre), 1);
			assert_err(sframe_fre_rules(&sec, &row.fde, &fre, &want), 0);
			assert_err(lookup(0x20020 + 4 * j + 3, &row), 0);
			assert_int_equal(row.fde.index, 1);
			assert_int_equal(row.fre.start, 4 * j);
			assert_rules_equal(&row.rules, &want);
			/* RA at CFA-8: rows 4..6 say so, and amd64's fixed RA offset in rows 0..3. */
			assert_int_equal(row.rules.ra.kind == SFRAME_LOC_CFA && row.rules.ra.deref &&
					 row.rules.ra.offset == -8,
					 j < 7 && (j >= 4 || sec.fixed_ra == -8));
		}
		assert_int_equal(row.rules.cfa.reg, 0x1fffffff);
		assert_true(row.rules.cfa.deref);
		assert_int_equal(row.rules.ra.kind, SFRAME_LOC_REG);
		assert_int_equal(row.rules.ra.reg, 70000);
		assert_err(lookup(0x20005, &row), 0);
		assert_int_equal(row.fde.index, 0);
		assert_err(lookup(0x20065, &row), 0);
		assert_int_equal(row.fde.index, 2);
	}
}

static void test_lookup_errors_propagate(void **state)
{
	struct sframe_row row;
	struct sfb_fde *f;

	(void)state;
	/* The selected row has 3 words on amd64. */
	sfb_init(&b, 2, SFRAME_ABI_AMD64_LE, false, 0x5, 0x10000);
	sfb_fde(&b, 0x20000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 3, 8, -8, -16);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	assert_err(lookup(0x20000, &row), -SFRAME_ERR_WORDS);

	/* FRE type 3 in the function holding the PC. */
	sfb_init(&b, 2, SFRAME_ABI_AMD64_LE, false, 0x5, 0x10000);
	sfb_fde(&b, 0x20000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	buf[b.info_off[0]] = 3;
	assert_err(lookup(0x20000, &row), -SFRAME_ERR_FRE_TYPE);

	/* An unknown FDE type (FLEX is 1; 2..31 are reserved). */
	sfb_init(&b, 3, SFRAME_ABI_AARCH64_LE, false, 0x5, 0x10000);
	f = sfb_fde(&b, 0x20000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	f->fde_type = 31;
	sfb_fre(&b, 0, 0, 1, 1, 16);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	assert_err(lookup(0x20000, &row), -SFRAME_ERR_FDE_TYPE);

	/* Word size code 3 in the selected row. */
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0x10000);
	sfb_fde(&b, 0x20000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	buf[b.fre_info_off[0]] = sfb_fre_info(SFRAME_BASE_REG_SP, 1, 3, false);
	assert_err(lookup(0x20000, &row), -SFRAME_ERR_WORD_SIZE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sorted_many),
		cmocka_unit_test(test_unsorted_many),
		cmocka_unit_test(test_unsorted_nested),
		cmocka_unit_test(test_unsorted_nested_after_inner_end),
		cmocka_unit_test(test_sorted_small_counts),
		cmocka_unit_test(test_search_counts),
		cmocka_unit_test(test_start_past_int64_max),
		cmocka_unit_test(test_pcinc_row_selection),
		cmocka_unit_test(test_zero_fre_fdes),
		cmocka_unit_test(test_ra_undefined_row),
		cmocka_unit_test(test_pcmask),
		cmocka_unit_test(test_pcmask_rep_size_32),
		cmocka_unit_test(test_span_rows_out_of_order),
		cmocka_unit_test(test_span_near_top),
		cmocka_unit_test(test_pcmask_rep_size_zero),
		cmocka_unit_test(test_pcmask_v1),
		cmocka_unit_test(test_not_found_fde_index),
		cmocka_unit_test(test_pc_near_top),
		cmocka_unit_test(test_fde_end_past_2_64),
		cmocka_unit_test(test_lookup_flex_row),
		cmocka_unit_test(test_lookup_flex_shapes),
		cmocka_unit_test(test_lookup_errors_propagate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
