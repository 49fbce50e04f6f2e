/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_index.c - the reader's lookup index (sframe_index_size(),
 * sframe_index_build()) and the unwinder's row table (sframe_rows_size(),
 * sframe_rows_build()).
 *
 * The index may only shorten a lookup, never change it: every PC probed
 * here is looked up with the index attached and with the same section
 * without it, through the callback and in memory, and both must give the
 * same return code and the same bytes of row. The PCs: every function's
 * first, last and end bytes and their neighbours, every block's first byte
 * and its neighbours, addresses far below and above the functions, and for
 * the fixtures of fixtures/v*-* and fixtures/lld-* (every part of an lld
 * section on its own, and the parts together as src/tool/read/parts.c looks them
 * up) their .pcs files too.
 *
 * The row table is held to sframe_lookup() the same way: where it answers
 * (a rule, or no row), the same code as sframe_lookup() and on success the
 * rule of the row sframe_lookup() decodes (unwind_rule.h's one conversion);
 * the PCs then include every span's first byte and its neighbours.
 * White-box: the table's layout and lookup are src/unwind/unwind_rows.h.
 *
 * Usage: test_index FIXTURES_DIR
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "read/elf_input.h"
#include "read/parts.h"
#include "rules_equal.h"
#include "unwind_rows.h"

static struct sfb b;
static uint8_t buf[SFB_MAX_OUT];
static struct sframe_section sec;
static struct sfb_reader rd;
static const char *fixtures_dir;
/* Lookups compared, to show that the probes ran; those the row table left to the lookup. */
static unsigned long compared, asked;
/* The row table of the section being probed, or NULL. */
static const struct sframe_rows *cur_rows;

/* Block sizes every section is indexed with, besides SFRAME_INDEX_AUTO. */
static const unsigned int some_bits[] = { 1, 4, 6, 12, 20, 40, SFRAME_INDEX_MAX_BITS };

/*
 * The row table's answer for @pc against sframe_lookup()'s code @err and
 * row @row: the same rule, or no row where the lookup finds none; what it
 * leaves to the lookup only a PCMASK function, a function without rows or
 * a rule without a packed form (or an error of the lookup).
 */
static void rows_agree(const struct sframe_section *s, uint64_t pc, int err,
		       const struct sframe_row *row)
{
	const uint64_t v = rows_find(cur_rows, sf_s64(pc - s->vaddr));
	const uint32_t k = rule_packed_kind(v);
	struct unwind_rule got, want = { 0 };

	if (!err)
		rule_from_rules(sf_abi_of(s->abi), &row->rules, &want);
	if (k & RULE_PACKED_ASK) {
		asked++;
		assert_true(err || row->fde.pc_type == SFRAME_PC_TYPE_MASK ||
			    (rule_pack(&want) & RULE_PACKED_ASK) || err == -SFRAME_ERR_NOT_FOUND);
		return;
	}
	if ((k & RULE_PACKED_NONE) ? err != -SFRAME_ERR_NOT_FOUND : err != 0)
		print_error("pc %#" PRIx64 ": the row table %s, sframe_lookup() %s\n", pc,
			    (k & RULE_PACKED_NONE) ? "no row" : "a rule", sframe_errname(err));
	if (k & RULE_PACKED_NONE) {
		assert_err(err, -SFRAME_ERR_NOT_FOUND);
		return;
	}
	assert_err(err, 0);
	rule_unpack(v, &got);
	assert_int_equal(got.kind, want.kind);
	assert_int_equal(got.cfa_off, want.cfa_off);
	assert_int_equal(got.ra_off, want.ra_off);
	assert_int_equal(got.fp_off, want.fp_off);
}

/* @s with and without its index: the same code and the same row. */
static void agree(const struct sframe_section *s, uint64_t pc)
{
	struct sframe_section plain = *s;
	struct sframe_row with, without;
	int e1, e2;

	plain.index = NULL;
	memset(&with, 0, sizeof(with));
	memset(&without, 0, sizeof(without));
	e1 = sframe_lookup(&plain, pc, &without);
	e2 = sframe_lookup(s, pc, &with);
	if (e1 != e2 || memcmp(&with, &without, sizeof(with)) != 0)
		print_error("pc %#" PRIx64 ": %s with the index, %s without (fde %u, %u)\n", pc,
			    sframe_errname(e2), sframe_errname(e1), with.fde.index,
			    without.fde.index);
	assert_err(e2, e1);
	assert_memory_equal(&with, &without, sizeof(with));
	if (cur_rows)
		rows_agree(s, pc, e1, &without);
	compared++;
}

static void agree_near(const struct sframe_section *s, uint64_t pc)
{
	agree(s, pc - 1);
	agree(s, pc);
	agree(s, pc + 1);
}

/* The first byte of every span of the row table and its neighbours, and of every block. */
static void probe_spans(const struct sframe_section *s)
{
	const uint32_t *starts = rows_starts(cur_rows);
	const uint64_t base = s->vaddr + (uint64_t)cur_rows->start;
	uint32_t k;

	assert_true(cur_rows->spans > 0 && cur_rows->bits >= 2);
	for (k = 0; k < cur_rows->spans; k++)
		agree_near(s, base + starts[k]);
	for (k = 0; k <= cur_rows->blocks && k < 4096; k++)
		agree_near(s, base + ((uint64_t)k << cur_rows->bits));
}

/* Every interesting PC of @s (indexed): functions, blocks, far away. */
static void probe_all(const struct sframe_section *s)
{
	const struct sframe_index *idx = s->index;
	struct sframe_fde fde;
	uint64_t blk, k;
	uint32_t i;

	assert_non_null(idx);
	for (i = 0; i < s->num_fdes; i++) {
		assert_err(sframe_get_fde(s, i, &fde), 0);
		agree_near(s, fde.func_start);
		agree_near(s, fde.func_start + fde.func_size / 2);
		agree_near(s, fde.func_start + fde.func_size - 1);
		agree_near(s, fde.func_start + fde.func_size);
	}
	/* Block boundaries (the first 4096 blocks and the last one). */
	for (k = 0; k <= idx->blocks && k < 4096; k++) {
		blk = s->vaddr + (uint64_t)idx->start + (k << idx->bits);
		agree_near(s, blk);
	}
	agree_near(s, s->vaddr + (uint64_t)idx->start + ((uint64_t)idx->blocks << idx->bits));
	for (k = 0; k < 64; k += 7) {
		agree_near(s, s->vaddr + (uint64_t)idx->start - ((uint64_t)1 << k));
		agree_near(s, s->vaddr + (uint64_t)idx->start + ((uint64_t)1 << k));
	}
	agree_near(s, 0);
	agree_near(s, UINT64_MAX);
	agree_near(s, s->vaddr);
	agree_near(s, (uint64_t)1 << 63);
	if (cur_rows)
		probe_spans(s);
}

/*
 * Index @s with @bits in a fresh allocation of exactly the size
 * sframe_index_size() gives; the caller frees *@mem. Returns the error of
 * the size query or the build.
 */
static int index_with(struct sframe_section *s, unsigned int bits, void **mem)
{
	size_t size = 0;
	int err;

	*mem = NULL;
	err = sframe_index_size(s, bits, &size);
	if (err)
		return err;
	*mem = malloc(size);
	assert_non_null(*mem);
	err = sframe_index_build(s, bits, *mem, size);
	if (!err)
		assert_ptr_equal(s->index, *mem);
	return err;
}

/*
 * The row table of @s for @bits (cur_rows) in a fresh allocation of exactly
 * the size sframe_rows_size() gives; the caller frees *@mem. Returns the
 * error of the size query or the build.
 */
static int rows_with(const struct sframe_section *s, unsigned int bits, void **mem)
{
	const struct sframe_rows *rows = NULL;
	size_t size = 0;
	int err;

	*mem = NULL;
	cur_rows = NULL;
	err = sframe_rows_size(s, bits, &size);
	if (err)
		return err;
	*mem = malloc(size);
	assert_non_null(*mem);
	err = sframe_rows_build(s, bits, *mem, size, &rows);
	if (!err) {
		assert_ptr_equal(rows, *mem);
		cur_rows = rows;
	}
	return err;
}

/* Back to no row table: frees @mem. */
static void rows_done(void *mem)
{
	cur_rows = NULL;
	free(mem);
}

/*
 * @s indexed with every block size, and given a row table of every other
 * size: all PCs agree.
 */
static void probe_every_size(struct sframe_section *s)
{
	struct sframe_fde f0, fn;
	void *mem, *rmem;
	uint64_t span;
	unsigned int i;
	bool wide;
	int err;

	assert_err(sframe_get_fde(s, 0, &f0), 0);
	assert_err(sframe_get_fde(s, s->num_fdes - 1, &fn), 0);
	span = (uint64_t)fn.func_offset - (uint64_t)f0.func_offset;
	/* Functions that span 4 GB or more: no row table (32-bit span starts). */
	wide = span + fn.func_size >= ((uint64_t)1 << 32);
	assert_err(index_with(s, SFRAME_INDEX_AUTO, &mem), 0);
	/* AUTO: the smallest block of 16 bytes or more, no more blocks than FDEs. */
	assert_true(s->index->bits >= 4 && s->index->blocks <= s->num_fdes);
	assert_true(s->index->bits == 4 || (span >> (s->index->bits - 1)) >= s->num_fdes);
	probe_all(s);
	/* With the row table (its blocks of 4 to 16 bytes, at most one per two spans unless 16). */
	err = rows_with(s, SFRAME_ROWS_AUTO, &rmem);
	if (wide) {
		assert_err(err, -SFRAME_ERR_UNSUPPORTED);
	} else {
		assert_err(err, 0);
		assert_true(cur_rows->blocks > 0);
		assert_true(cur_rows->bits == 4 || cur_rows->blocks <= cur_rows->spans / 2 + 1);
		probe_all(s);
	}
	rows_done(rmem);
	free(mem);
	for (i = 0; i < sizeof(some_bits) / sizeof(some_bits[0]); i++) {
		err = index_with(s, some_bits[i], &mem);

		/* Small blocks over a wide span: more than 2^28 blocks. */
		if ((span >> some_bits[i]) >= ((uint64_t)1 << 28)) {
			assert_err(err, -SFRAME_ERR_INVAL);
			continue;
		}
		assert_err(err, 0);
		assert_int_equal(s->index->blocks, (span >> some_bits[i]) + 1);
		probe_all(s);
		/*
		 * The row table with blocks of the same size (4 bytes at
		 * least), for every other size: 1, 6, 20, 62 bits, from one
		 * block per span or so to one block for all of them.
		 */
		if (i % 2) {
			free(mem);
			continue;
		}
		err = rows_with(s, some_bits[i], &rmem);
		if (err == -SFRAME_ERR_INVAL || err == -SFRAME_ERR_UNSUPPORTED) {
			/* Too many blocks of that size, or functions over 4 GB. */
			assert_true(some_bits[i] < 28 || wide);
		} else {
			assert_err(err, 0);
			assert_int_equal(cur_rows->bits, some_bits[i] < 2 ? 2 : some_bits[i]);
			probe_all(s);
		}
		rows_done(rmem);
		free(mem);
	}
	s->index = NULL;
}

/* The built section (global @sec), through the callback and in memory. */
static void probe_built(void)
{
	struct sframe_section msec;
	struct sframe_buffer mbuf;

	assert_err(sframe_check(&sec, NULL), 0);
	probe_every_size(&sec);
	assert_err(sframe_open_buffer(&msec, &mbuf, rd.data, rd.size, sec.vaddr), 0);
	probe_every_size(&msec);
}

/* One row of one word (CFA = SP + @w): valid on every ABI. */
static void one_row(uint32_t start, int w)
{
	sfb_fre(&b, start, SFRAME_BASE_REG_SP, 1, 1, w);
}

struct layout {
	uint8_t version;
	uint8_t abi;
	bool be;
	uint8_t flags;
};

static const struct layout layouts[] = {
	{ 1, SFRAME_ABI_AMD64_LE, false, SFRAME_F_FDE_SORTED },
	{ 1, SFRAME_ABI_AARCH64_BE, true, SFRAME_F_FDE_SORTED },
	{ 2, SFRAME_ABI_AMD64_LE, false, SFRAME_F_FDE_SORTED },
	{ 2, SFRAME_ABI_AMD64_LE, false, SFRAME_F_FDE_SORTED | SFRAME_F_FDE_FUNC_START_PCREL },
	{ 2, SFRAME_ABI_AARCH64_LE, false, SFRAME_F_FDE_SORTED | SFRAME_F_FDE_FUNC_START_PCREL },
	{ 2, SFRAME_ABI_S390X_BE, true, SFRAME_F_FDE_SORTED | SFRAME_F_FDE_FUNC_START_PCREL },
	{ 3, SFRAME_ABI_AMD64_LE, false, SFRAME_F_FDE_SORTED | SFRAME_F_FDE_FUNC_START_PCREL },
	{ 3, SFRAME_ABI_AMD64_LE, false, SFRAME_F_FDE_SORTED },
	{ 3, SFRAME_ABI_AARCH64_BE, true, SFRAME_F_FDE_SORTED | SFRAME_F_FDE_FUNC_START_PCREL },
	{ 3, SFRAME_ABI_S390X_BE, true, SFRAME_F_FDE_SORTED | SFRAME_F_FDE_FUNC_START_PCREL },
	/* Assembler output, functions in address order: the linear scan's answers. */
	{ 1, SFRAME_ABI_AMD64_LE, false, 0 },
	{ 2, SFRAME_ABI_AARCH64_BE, true, 0 },
	{ 3, SFRAME_ABI_AMD64_LE, false, SFRAME_F_FDE_FUNC_START_PCREL },
};

#define NLAYOUTS (sizeof(layouts) / sizeof(layouts[0]))

static void start(const struct layout *l, uint64_t vaddr)
{
	sfb_init(&b, l->version, l->abi, l->be, l->flags, vaddr);
}

static void finish(void)
{
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0x1000);
	probe_built();
}

static void test_one_function(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < NLAYOUTS; i++) {
		start(&layouts[i], 0x400000);
		sfb_fde(&b, 0x401000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		one_row(0, 8);
		one_row(4, 16);
		finish();
	}
}

/*
 * Functions much larger than a 16-byte block, next to small ones and gaps of
 * many empty blocks, some FDEs with no rows and one row starting past the
 * function's first byte.
 */
static void test_large_functions_and_gaps(void **state)
{
	unsigned int i, j;

	(void)state;
	for (i = 0; i < NLAYOUTS; i++) {
		start(&layouts[i], 0x400000);
		sfb_fde(&b, 0x401000, 0x3000, SFRAME_FRE_TYPE_ADDR2, SFRAME_PC_TYPE_INC);
		one_row(0, 8);
		sfb_fre(&b, 0x2000, SFRAME_BASE_REG_SP, 1, 1, 16);
		for (j = 0; j < 20; j++) {
			sfb_fde(&b, 0x404000 + j * 0x18, 0x11, SFRAME_FRE_TYPE_ADDR1,
				SFRAME_PC_TYPE_INC);
			if (j % 5 != 4)
				one_row(j % 3, (int)(8 + j));
		}
		/* After a gap of 4096 16-byte blocks. */
		sfb_fde(&b, 0x414000, 0x10, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		one_row(1, 8);
		sfb_fde(&b, 0x420000, 0x20000, SFRAME_FRE_TYPE_ADDR4, SFRAME_PC_TYPE_INC);
		one_row(0, 8);
		sfb_fre(&b, 0x1fff0, SFRAME_BASE_REG_SP, 1, 1, 24);
		finish();
	}
}

/* Adjacent functions (no gaps), starting below the section's address. */
static void test_adjacent_below_section(void **state)
{
	unsigned int i, j;

	(void)state;
	for (i = 0; i < NLAYOUTS; i++) {
		start(&layouts[i], 0x10000000);
		for (j = 0; j < 300; j++) {
			sfb_fde(&b, 0x400000 + j * 0x21, 0x21, SFRAME_FRE_TYPE_ADDR1,
				SFRAME_PC_TYPE_INC);
			one_row(0, 8);
			one_row(0x20, 16);
		}
		finish();
	}
}

/* PLT-like PCMASK functions among PCINC ones. */
static void test_pcmask(void **state)
{
	struct sfb_fde *f;
	unsigned int i;

	(void)state;
	for (i = 0; i < NLAYOUTS; i++) {
		/* v1 PCMASK is read on amd64 only (16-byte entries). */
		bool mask = layouts[i].version > 1 || layouts[i].abi == SFRAME_ABI_AMD64_LE;

		start(&layouts[i], 0x10000);
		sfb_fde(&b, 0x1000, 16, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		one_row(0, 16);
		one_row(6, 24);
		f = sfb_fde(&b, 0x1010, 0x400, SFRAME_FRE_TYPE_ADDR1,
			    mask ? SFRAME_PC_TYPE_MASK : SFRAME_PC_TYPE_INC);
		f->rep_size = 16;
		one_row(0, 8);
		one_row(6, 16);
		one_row(11, 24);
		sfb_fde(&b, 0x1410, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		one_row(0, 8);
		finish();
	}
}

/*
 * v3 starts are 64 bits: functions from just above 2^62 (where the
 * in-memory search hands over to the general one) up to the last bytes
 * below 2^63 from the section, the largest offset a start can have.
 */
static void test_largest_v3_starts(void **state)
{
	static const uint8_t flags[] = { SFRAME_F_FDE_SORTED,
					 SFRAME_F_FDE_SORTED | SFRAME_F_FDE_FUNC_START_PCREL };
	unsigned int i, j;

	(void)state;
	for (i = 0; i < 2; i++) {
		sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, flags[i], 0);
		sfb_fde(&b, 0x1000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		one_row(0, 8);
		sfb_fde(&b, ((uint64_t)1 << 62) - 0x20, 0x40, SFRAME_FRE_TYPE_ADDR1,
			SFRAME_PC_TYPE_INC);
		one_row(0, 8);
		for (j = 0; j < 4; j++) {
			sfb_fde(&b, (uint64_t)INT64_MAX - 0x4000 + j * 0x1000, 0x800,
				SFRAME_FRE_TYPE_ADDR2, SFRAME_PC_TYPE_INC);
			one_row(0, 8);
			one_row(0x7ff, 16);
		}
		sfb_fde(&b, (uint64_t)INT64_MAX - 0x3f, 0x40, SFRAME_FRE_TYPE_ADDR1,
			SFRAME_PC_TYPE_INC);
		one_row(0, 8);
		finish();
	}
}

/*
 * A v3 amd64 section with @flags at address 0 into @s, through the
 * callback: @n functions of 0x30 bytes with one row each, starting at
 * @starts[j], or @stride apart from 0x1000 when @starts is NULL.
 */
static void build_v3(struct sframe_section *s, uint8_t flags, const uint64_t *starts,
		     unsigned int n, uint64_t stride)
{
	unsigned int j;

	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, flags, 0);
	for (j = 0; j < n; j++) {
		sfb_fde(&b, starts ? starts[j] : 0x1000 + j * stride, 0x30, SFRAME_FRE_TYPE_ADDR1,
			SFRAME_PC_TYPE_INC);
		one_row(0, (int)(8 + j % 64));
	}
	sfb_open(&b, buf, sizeof(buf), s, &rd, 0x1000);
}

/*
 * The index is used: with one block per function (AUTO), a lookup among
 * 2048 functions reads at most 2 start fields (the range of a block holds
 * the FDE before it and at most one starting inside it) instead of 11
 * (ceil(log2 2048)); the FDE and its rows are read as before. So at least
 * 9 reads fewer.
 */
static void test_fewer_reads(void **state)
{
	unsigned int j, without, with;
	struct sframe_row row;
	void *mem;

	(void)state;
	build_v3(&sec, SFRAME_F_FDE_SORTED | SFRAME_F_FDE_FUNC_START_PCREL, NULL, 2048, 0x40);
	assert_err(sframe_check(&sec, NULL), 0);
	for (j = 0; j < 2048; j += 97) {
		uint64_t pc = 0x1000 + j * 0x40 + 0x10;

		sec.index = NULL;
		rd.calls = 0;
		assert_err(sframe_lookup(&sec, pc, &row), 0);
		without = rd.calls;
		assert_err(index_with(&sec, SFRAME_INDEX_AUTO, &mem), 0);
		rd.calls = 0;
		assert_err(sframe_lookup(&sec, pc, &row), 0);
		with = rd.calls;
		assert_int_equal(row.fde.index, j);
		assert_true(with + 9 <= without);
		free(mem);
	}
	sec.index = NULL;
}

/*
 * Sizes: 64 functions 0x40 apart span 63 * 0x40 = 0xfc0 bytes from the
 * first start. AUTO takes the smallest block of at least 16 bytes with
 * fewer than 64 block steps in that span: 0xfc0 >> 6 = 63, so 64-byte
 * blocks, 64 blocks, 65 entries of 4 bytes after the header.
 */
static void test_sizes(void **state)
{
	size_t size = 0;

	(void)state;
	build_v3(&sec, SFRAME_F_FDE_SORTED, NULL, 64, 0x40);
	assert_err(sframe_index_size(&sec, SFRAME_INDEX_AUTO, &size), 0);
	assert_int_equal(size, sizeof(struct sframe_index) + 65 * 4);
	/* 16-byte blocks: 0xfc0 >> 4 = 252 steps, 253 blocks, 254 entries. */
	assert_err(sframe_index_size(&sec, 4, &size), 0);
	assert_int_equal(size, sizeof(struct sframe_index) + 254 * 4);
	/* One block holds them all. */
	assert_err(sframe_index_size(&sec, SFRAME_INDEX_MAX_BITS, &size), 0);
	assert_int_equal(size, sizeof(struct sframe_index) + 2 * 4);
}

/*
 * The row table's size: build_v3()'s 64 functions of 0x30 bytes, 0x40
 * apart, one row each (all CFA offsets differ), make two spans each: the
 * row from the function's start and the gap from its end, 128 in all, the
 * last starting at 63 * 0x40 + 0x30 = 0xff0. Row blocks: the smallest of 4
 * bytes or more with at most 128 / 2 + 1 = 65 of them, but 16 bytes at
 * most: 0xff0 >> 4 = 255, so 16-byte blocks, 256 blocks, 257 entries.
 * After the header: 8 + 4 bytes per span and per each of 3 spans of
 * padding, then the blocks' entries.
 */
static void test_row_table_size(void **state)
{
	const size_t header = sizeof(struct sframe_rows);
	const struct sframe_rows *rows = NULL;
	size_t size = 0;
	void *mem;

	(void)state;
	build_v3(&sec, SFRAME_F_FDE_SORTED, NULL, 64, 0x40);
	assert_err(sframe_rows_size(&sec, SFRAME_ROWS_AUTO, &size), 0);
	assert_int_equal(size, header + (128 + 3) * 12 + 257 * 4);
	mem = malloc(size);
	assert_non_null(mem);
	assert_err(sframe_rows_build(&sec, SFRAME_ROWS_AUTO, mem, size - 1, &rows),
		   -SFRAME_ERR_INVAL);
	assert_null(rows);
	assert_err(sframe_rows_build(&sec, SFRAME_ROWS_AUTO, mem, size, &rows), 0);
	assert_ptr_equal(rows, mem);
	assert_int_equal(rows->spans, 128);
	assert_int_equal(rows->bits, 4);
	assert_int_equal(rows->blocks, 256);
	assert_int_equal(rows->num_fdes, 64);
	free(mem);
}

/*
 * What the row table answers itself, and what it leaves to the lookup
 * (RULE_PACKED_ASK): rows whose rules it packs and the gaps, against a
 * PCMASK function, a function without rows, a row whose CFA offset passes
 * 16 bits and a row with an FP rule (FLEX: FP in register 12). Every
 * answer equals sframe_lookup()'s.
 */
static void test_row_table_answers(void **state)
{
	static const struct {
		uint64_t pc;
		bool from_table;
	} probes[] = {
		{ 0x1000, true }, { 0x1004, true }, { 0x102f, true },	/* rows */
		{ 0x1030, true }, { 0x103f, true },			/* gap */
		{ 0x1040, false }, { 0x1055, false },			/* PCMASK */
		{ 0x1060, true },					/* before its first row */
		{ 0x1064, false },					/* CFA + 0x12345 */
		{ 0x1068, true },
		{ 0x1080, false },					/* no rows (v3) */
		{ 0x10a0, false },					/* FP in a register */
		{ 0x10a8, true },					/* end of the functions */
		{ 0xfff, true },					/* before them */
	};
	struct sframe_row row;
	struct sfb_fde *f;
	unsigned int k;
	uint64_t v;
	void *mem;
	int e;

	(void)state;
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, SFRAME_F_FDE_SORTED, 0);
	sfb_fde(&b, 0x1000, 0x30, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	one_row(0, 8);
	sfb_fre(&b, 4, SFRAME_BASE_REG_SP, 1, 2, 16, -16);
	f = sfb_fde(&b, 0x1040, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_MASK);
	f->rep_size = 16;
	one_row(0, 8);
	one_row(6, 16);
	sfb_fde(&b, 0x1060, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	one_row(2, 8);
	sfb_fre(&b, 4, SFRAME_BASE_REG_SP, 4, 1, 0x12345);
	one_row(8, 8);
	sfb_fde(&b, 0x1080, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	f = sfb_fde(&b, 0x10a0, 0x8, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	f->fde_type = SFRAME_FDE_TYPE_FLEX;
	/*
	 * CFA = r7 (SP) + 16, RA padding, FP = r12: control words are
	 * regnum << 3 | deref << 1 | 1 for a register (sframe_format.h).
	 */
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 5, 7 << 3 | 1, 16, 0, 12 << 3 | 1, 0);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0x1000);
	assert_err(sframe_check(&sec, NULL), 0);
	assert_err(rows_with(&sec, SFRAME_ROWS_AUTO, &mem), 0);
	for (k = 0; k < sizeof(probes) / sizeof(probes[0]); k++) {
		memset(&row, 0, sizeof(row));
		e = sframe_lookup(&sec, probes[k].pc, &row);
		v = rows_find(cur_rows, sf_s64(probes[k].pc - sec.vaddr));
		if (probes[k].from_table == !!(rule_packed_kind(v) & RULE_PACKED_ASK))
			print_error("pc %#" PRIx64 ": packed answer %#" PRIx64 "\n", probes[k].pc, v);
		assert_int_equal(probes[k].from_table, !(rule_packed_kind(v) & RULE_PACKED_ASK));
		rows_agree(&sec, probes[k].pc, e, &row);
	}
	rows_done(mem);
}

static void test_errors(void **state)
{
	static const uint64_t down[] = { 0x2000, 0x1000 };
	static const uint64_t middle[] = { 0x1000, 0x3000, 0x2000, 0x4000 };
	static uint64_t mem[1024];
	size_t size = 0;

	(void)state;
	build_v3(&sec, SFRAME_F_FDE_SORTED, NULL, 8, 0x40);
	assert_err(sframe_index_size(&sec, SFRAME_INDEX_AUTO, &size), 0);

	/* Arguments. */
	assert_err(sframe_index_size(NULL, 0, &size), -SFRAME_ERR_INVAL);
	assert_err(sframe_index_size(&sec, 0, NULL), -SFRAME_ERR_INVAL);
	assert_err(sframe_index_size(&sec, SFRAME_INDEX_MAX_BITS + 1, &size), -SFRAME_ERR_INVAL);
	assert_err(sframe_index_build(NULL, 0, mem, sizeof(mem)), -SFRAME_ERR_INVAL);
	assert_err(sframe_index_build(&sec, 0, NULL, sizeof(mem)), -SFRAME_ERR_INVAL);
	/* Undersized, misaligned: refused, nothing attached. */
	assert_err(sframe_index_build(&sec, 0, mem, size - 1), -SFRAME_ERR_INVAL);
	assert_null(sec.index);
	/* (One byte off: i386 aligns a uint64_t to 4 bytes only.) */
	assert_err(sframe_index_build(&sec, 0, (char *)mem + 1, sizeof(mem) - 8),
		   -SFRAME_ERR_INVAL);
	assert_null(sec.index);
	assert_err(sframe_index_build(&sec, 0, mem, size), 0);
	assert_ptr_equal(sec.index, mem);
	/* sframe_open() drops it. */
	build_v3(&sec, SFRAME_F_FDE_SORTED, NULL, 8, 0x40);
	assert_null(sec.index);

	/* 1-byte blocks over 2^40 bytes: more than 2^28 blocks. */
	build_v3(&sec, SFRAME_F_FDE_SORTED, NULL, 2, (uint64_t)1 << 40);
	assert_err(sframe_check(&sec, NULL), 0);
	assert_err(sframe_index_size(&sec, 1, &size), -SFRAME_ERR_INVAL);
	assert_err(sframe_index_build(&sec, 1, mem, sizeof(mem)), -SFRAME_ERR_INVAL);
	assert_null(sec.index);

	/*
	 * Not flagged sorted (assembler output), starts out of order: valid
	 * (sframe_check() accepts it), searched linearly, no index; at the
	 * end (the size query sees it), then in the middle (the build does).
	 */
	build_v3(&sec, 0, down, 2, 0);
	assert_err(sframe_check(&sec, NULL), 0);
	assert_err(sframe_index_size(&sec, 0, &size), -SFRAME_ERR_UNSUPPORTED);
	assert_err(sframe_index_build(&sec, 0, mem, sizeof(mem)), -SFRAME_ERR_UNSUPPORTED);
	assert_null(sec.index);
	build_v3(&sec, 0, middle, 4, 0);
	assert_err(sframe_check(&sec, NULL), 0);
	assert_err(sframe_index_size(&sec, 0, &size), 0);
	assert_err(sframe_index_build(&sec, 0, mem, sizeof(mem)), -SFRAME_ERR_UNSUPPORTED);
	assert_null(sec.index);

	/* Flagged sorted, no FDE. */
	build_v3(&sec, SFRAME_F_FDE_SORTED, NULL, 0, 0);
	assert_err(sframe_index_size(&sec, 0, &size), -SFRAME_ERR_UNSUPPORTED);

	/* Flagged sorted, starts decreasing: at the end, then in the middle. */
	build_v3(&sec, SFRAME_F_FDE_SORTED, down, 2, 0);
	assert_err(sframe_index_size(&sec, 0, &size), -SFRAME_ERR_FDE_ORDER);
	assert_err(sframe_index_build(&sec, 0, mem, sizeof(mem)), -SFRAME_ERR_FDE_ORDER);
	build_v3(&sec, SFRAME_F_FDE_SORTED, middle, 4, 0);
	assert_err(sframe_index_size(&sec, 0, &size), 0);
	assert_err(sframe_index_build(&sec, 0, mem, sizeof(mem)), -SFRAME_ERR_FDE_ORDER);
	assert_null(sec.index);

	/* A read error while building comes back unchanged. */
	build_v3(&sec, SFRAME_F_FDE_SORTED, NULL, 8, 0x40);
	rd.fail_at = 5;
	rd.fail_err = -5;
	assert_err(sframe_index_build(&sec, 0, mem, sizeof(mem)), -5);
	assert_null(sec.index);
}

/* The row table's refusals, as the index's above, and of its own. */
static void test_row_table_errors(void **state)
{
	static const uint64_t down[] = { 0x2000, 0x1000 };
	static const uint64_t middle[] = { 0x1000, 0x3000, 0x2000, 0x4000 };
	static const uint64_t far[] = { 0x1000, 0x1000 + ((uint64_t)1 << 32) };
	const struct sframe_rows *rows = NULL;
	static uint64_t mem[1024];
	size_t size = 0;

	(void)state;
	build_v3(&sec, SFRAME_F_FDE_SORTED, NULL, 8, 0x40);
	assert_err(sframe_rows_size(&sec, SFRAME_ROWS_AUTO, &size), 0);
	assert_err(sframe_rows_size(NULL, 0, &size), -SFRAME_ERR_INVAL);
	assert_err(sframe_rows_size(&sec, 0, NULL), -SFRAME_ERR_INVAL);
	assert_err(sframe_rows_size(&sec, SFRAME_ROWS_MAX_BITS + 1, &size), -SFRAME_ERR_INVAL);
	assert_err(sframe_rows_build(NULL, 0, mem, sizeof(mem), &rows), -SFRAME_ERR_INVAL);
	assert_err(sframe_rows_build(&sec, 0, NULL, sizeof(mem), &rows), -SFRAME_ERR_INVAL);
	assert_err(sframe_rows_build(&sec, 0, mem, sizeof(mem), NULL), -SFRAME_ERR_INVAL);
	assert_err(sframe_rows_build(&sec, 0, (char *)mem + 1, sizeof(mem) - 8, &rows),
		   -SFRAME_ERR_INVAL);
	assert_null(rows);
	assert_err(sframe_rows_build(&sec, 0, mem, size, &rows), 0);
	assert_ptr_equal(rows, mem);

	/* Functions 4 GB apart: span starts are 32 bits. */
	build_v3(&sec, SFRAME_F_FDE_SORTED, far, 2, 0);
	assert_err(sframe_check(&sec, NULL), 0);
	assert_err(sframe_rows_size(&sec, 0, &size), -SFRAME_ERR_UNSUPPORTED);
	/* Out of order: unsupported without the sorted flag, corrupt with it. */
	build_v3(&sec, 0, down, 2, 0);
	assert_err(sframe_rows_size(&sec, 0, &size), -SFRAME_ERR_UNSUPPORTED);
	build_v3(&sec, 0, middle, 4, 0);
	assert_err(sframe_rows_build(&sec, 0, mem, sizeof(mem), &rows), -SFRAME_ERR_UNSUPPORTED);
	build_v3(&sec, SFRAME_F_FDE_SORTED, middle, 4, 0);
	assert_err(sframe_rows_size(&sec, 0, &size), -SFRAME_ERR_FDE_ORDER);
	/* No FDE. */
	build_v3(&sec, SFRAME_F_FDE_SORTED, NULL, 0, 0);
	assert_err(sframe_rows_size(&sec, 0, &size), -SFRAME_ERR_UNSUPPORTED);
	/* A read error while building comes back unchanged. */
	build_v3(&sec, SFRAME_F_FDE_SORTED, NULL, 8, 0x40);
	rd.fail_at = 5;
	rd.fail_err = -5;
	assert_err(sframe_rows_build(&sec, 0, mem, sizeof(mem), &rows), -5);
	rd.fail_at = 0;
}

/*
 * A row table of another section given to a module (the table of a
 * section of 3 functions, the module's of 64): not used, the walk's rules
 * are the module's own section's (rows_of()); the module table takes and
 * drops a table, and refuses one for a module without a section.
 */
static void test_row_table_of_other(void **state)
{
	static uint64_t mem[1024];
	const struct sframe_rows *rows;
	struct sframe_section a;
	struct sframe_module slots[2];
	struct sframe_module_table t;

	(void)state;
	build_v3(&a, SFRAME_F_FDE_SORTED, NULL, 3, 0x1000);
	assert_err(sframe_rows_build(&a, 0, mem, sizeof(mem), &rows), 0);
	assert_true(rows_of(rows, &a));
	build_v3(&sec, SFRAME_F_FDE_SORTED, NULL, 64, 0x40);
	assert_false(rows_of(rows, &sec));
	sframe_modules_init(&t, slots, 2);
	assert_err(sframe_modules_add(&t, 0x1000, 0x2000, &sec, NULL), 0);
	assert_err(sframe_modules_add(&t, 0x3000, 0x4000, NULL, NULL), 0);
	assert_null(t.slots[0].rows);
	assert_err(sframe_modules_set_rows(&t, 0x1000, rows), 0);
	assert_ptr_equal(t.slots[0].rows, rows);
	assert_err(sframe_modules_set_rows(&t, 0x3000, rows), -SFRAME_ERR_INVAL);
	assert_err(sframe_modules_set_rows(&t, 0x1001, rows), -SFRAME_ERR_NOT_FOUND);
	assert_err(sframe_modules_set_rows(NULL, 0x1000, rows), -SFRAME_ERR_INVAL);
	assert_err(sframe_modules_set_rows(&t, 0x1000, NULL), 0);
	assert_null(t.slots[0].rows);
}

/*
 * An index of another section attached by hand (the struct copied over
 * another section's): with another FDE count it is not used, so the
 * lookups are the section's own. Section A: 3 functions 0x1000 apart from
 * 0x1000 (4096-byte blocks: block 0 holds FDEs 0 and 1 of A); B: 64
 * functions 0x40 apart from 0x1000, whose PC 0x1140 (FDE 5) A's index
 * would send to B's FDEs 0 and 1.
 */
static void test_stale_index(void **state)
{
	static uint64_t mem[1024];
	struct sframe_section a;
	unsigned int j;

	(void)state;
	build_v3(&a, SFRAME_F_FDE_SORTED, NULL, 3, 0x1000);
	assert_err(sframe_index_build(&a, 12, mem, sizeof(mem)), 0);
	build_v3(&sec, SFRAME_F_FDE_SORTED, NULL, 64, 0x40);
	sec.index = a.index;
	for (j = 0; j < 64; j++)
		agree_near(&sec, 0x1000 + j * 0x40);
	sec.index = NULL;
}

/* The PCs of FILE.pcs (one hex address a line), if there is one. */
static void probe_pcs_file(const char *path, const struct sf_parts *p)
{
	char line[128];
	FILE *f = fopen(path, "r");
	size_t i;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		uint64_t pc = strtoull(line, NULL, 16);
		const struct sframe_index *saved[64];
		const struct sframe_section *part;
		struct sframe_row r1, r2;
		int e1, e2;

		for (i = 0; i < p->n; i++)
			agree_near(&p->sec[i], pc);
		/* The parts together, with every part indexed and not. */
		memset(&r1, 0, sizeof(r1));
		memset(&r2, 0, sizeof(r2));
		e1 = sf_parts_lookup(p, pc, &r1, &part);
		for (i = 0; i < p->n; i++) {
			saved[i] = p->sec[i].index;
			p->sec[i].index = NULL;
		}
		e2 = sf_parts_lookup(p, pc, &r2, &part);
		for (i = 0; i < p->n; i++)
			p->sec[i].index = saved[i];
		assert_err(e1, e2);
		assert_memory_equal(&r1, &r2, sizeof(r1));
	}
	fclose(f);
}

/* Every part of FILE's section, with every block size. */
static void probe_fixture(const char *path)
{
	struct sf_input in;
	struct sf_parts p;
	char err[512], pcs[1100];
	void *mem[64];
	unsigned int k;
	size_t i;

	if (sf_input_load(path, 0, 0, &in, err, sizeof(err)) != SF_INPUT_OK)
		fail_msg("%s", err);
	assert_err(sf_parts_open(&p, in.sec, in.sec_size, in.vaddr), 0);
	assert_true(p.n <= 64);
	snprintf(pcs, sizeof(pcs), "%s.pcs", path);
	for (i = 0; i < p.n; i++) {
		assert_err(sframe_check(&p.sec[i], NULL), 0);
		probe_every_size(&p.sec[i]);
	}
	for (k = 0; k <= sizeof(some_bits) / sizeof(some_bits[0]); k++) {
		unsigned int bits = k ? some_bits[k - 1] : SFRAME_INDEX_AUTO;
		int e = 0;

		for (i = 0; i < p.n; i++)
			e |= index_with(&p.sec[i], bits, &mem[i]);
		if (!e)
			probe_pcs_file(pcs, &p);
		for (i = 0; i < p.n; i++) {
			p.sec[i].index = NULL;
			free(mem[i]);
		}
	}
	sf_parts_free(&p);
	sf_input_free(&in);
}

static void test_fixtures(void **state)
{
	static const char *const files[] = { "exe", "lib.so", "mixed.so", "static" };
	struct dirent *de;
	unsigned int n = 0, i;
	char path[1024];
	DIR *d;

	(void)state;
	d = opendir(fixtures_dir);
	assert_non_null(d);
	while ((de = readdir(d))) {
		/* v1-x86_64, ..., lld-x86_64: the sections linkers wrote. */
		if (!strchr(de->d_name, '-') ||
		    (de->d_name[0] != 'v' && strncmp(de->d_name, "lld-", 4) != 0))
			continue;
		for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			FILE *f;

			snprintf(path, sizeof(path), "%s/%s/%s", fixtures_dir, de->d_name, files[i]);
			f = fopen(path, "rb");
			if (!f)
				continue;
			fclose(f);
			probe_fixture(path);
			n++;
		}
	}
	closedir(d);
	/* Seven v* folders of exe and lib.so, lld's four files. */
	assert_true(n >= 18);
	print_message("%u fixture files, %lu lookups compared, %lu of them left to the lookup by the"
		      " row table\n", n, compared, asked);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_row_table_size),
		cmocka_unit_test(test_row_table_answers),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_row_table_errors),
		cmocka_unit_test(test_row_table_of_other),
		cmocka_unit_test(test_fewer_reads),
		cmocka_unit_test(test_stale_index),
		cmocka_unit_test(test_one_function),
		cmocka_unit_test(test_large_functions_and_gaps),
		cmocka_unit_test(test_adjacent_below_section),
		cmocka_unit_test(test_pcmask),
		cmocka_unit_test(test_largest_v3_starts),
		cmocka_unit_test(test_fixtures),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: test_index FIXTURES_DIR\n");
		return 2;
	}
	fixtures_dir = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
