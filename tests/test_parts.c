/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_parts.c - runs of SFrame sections back to back, as LLVM lld links
 * them (sframe_part_size(), sframe_check()), and the empty section
 * (sframe_open()).
 *
 * A run is laid out as lld lays it out: each part is a whole section as
 * the builder emits it for the address it ends up at, placed at the next
 * multiple of 8 after the previous one, the bytes between them zero. The
 * builder writes PC-relative starts relative to each part's own fields, as
 * lld's relocation of each input's start fields leaves them, so a part
 * opened where it lies must find its own functions at their addresses.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "builder.h"

#define RUN_VADDR	0x200000	/* run-time address of the run's first byte */
#define RUN_BASE	0x10000		/* callback address of the run's first byte */
#define MAX_PARTS	8

static struct sfb b;
static uint8_t run[SFB_MAX_OUT];
static size_t run_len;
static size_t part_off[MAX_PARTS];
static size_t part_end[MAX_PARTS];	/* where each part's FRE area ends */
static uint64_t part_func[MAX_PARTS];	/* each part's first function */
static unsigned nparts;
static struct sfb_reader rd;

/* The stored CFA offset word (s390x stores it biased and scaled). */
static int cfa_word(uint8_t abi, int cfa)
{
	return abi == SFRAME_ABI_S390X_BE ? SFB_S390X_CFA(cfa) : cfa;
}

/*
 * Append a part of @nfuncs functions at the next multiple of @align (zero
 * bytes in between), built for the address it ends up at. Functions of part
 * k start at 0x401000 + k * 0x1000, 0x40 bytes each, rows at 0 and 4 (CFA
 * SP+16, then SP+24+8k).
 */
static void add_part(uint8_t version, uint8_t abi, bool be, unsigned nfuncs, size_t align)
{
	size_t off = (run_len + align - 1) / align * align, len;
	unsigned i;

	assert_true(nparts < MAX_PARTS);
	memset(run + run_len, 0, off - run_len);
	sfb_init(&b, version, abi, be,
		 SFRAME_F_FDE_SORTED | (version >= 2 ? SFRAME_F_FDE_FUNC_START_PCREL : 0),
		 RUN_VADDR + off);
	part_func[nparts] = 0x401000 + (uint64_t)nparts * 0x1000;
	for (i = 0; i < nfuncs; i++) {
		sfb_fde(&b, part_func[nparts] + i * 0x40, 0x40, SFRAME_FRE_TYPE_ADDR1,
			SFRAME_PC_TYPE_INC);
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, cfa_word(abi, 16));
		sfb_fre(&b, 4, SFRAME_BASE_REG_SP, 1, 1, cfa_word(abi, 24 + 8 * nparts));
	}
	len = sfb_emit(&b, run + off, sizeof(run) - off);
	assert_true(len > 0);
	part_off[nparts] = off;
	part_end[nparts] = off + len;
	nparts++;
	run_len = off + len;
}

static void new_run(void)
{
	memset(run, 0, sizeof(run));
	run_len = 0;
	nparts = 0;
}

static int open_at(struct sframe_section *sec, size_t off, size_t len)
{
	memset(&rd, 0, sizeof(rd));
	rd.data = run;
	rd.base = RUN_BASE;
	rd.size = run_len;
	return sframe_open(sec, sfb_read, &rd, RUN_BASE + off, len, RUN_VADDR + off);
}

/*
 * The walk documented at sframe_part_size(): every part at its offset, over
 * its extent; each checks on its own and finds its own functions.
 */
static void expect_parts(void)
{
	struct sframe_section sec, part;
	struct sframe_problem where;
	struct sframe_row row;
	uint64_t off, len;
	unsigned n = 0;

	for (off = 0; off < run_len; off += len) {
		assert_true(n < nparts);
		assert_int_equal(off, part_off[n]);
		assert_err(open_at(&sec, off, run_len - off), 0);
		assert_err(sframe_part_size(&sec, &len), 0);
		assert_int_equal(len, n + 1 < nparts ? part_off[n + 1] - off : run_len - off);
		assert_err(open_at(&part, off, len), 0);
		assert_err(sframe_check(&part, &where), 0);
		assert_err(sframe_lookup(&part, part_func[n] + 5, &row), 0);
		assert_int_equal(row.fde.index, 0);
		assert_int_equal(row.fde.func_start, part_func[n]);
		assert_int_equal(row.fre.start, 4);
		assert_int_equal(row.rules.cfa.offset, 24 + 8 * n);
		/* Another part's functions are not this one's. */
		if (n > 0)
			assert_err(sframe_lookup(&part, part_func[n - 1] + 5, &row),
				   -SFRAME_ERR_NOT_FOUND);
		n++;
	}
	assert_int_equal(n, nparts);
	assert_int_equal(off, run_len);
}

/* sframe_check() over the whole run: the first part alone must not pass. */
static void expect_whole_check(int err)
{
	struct sframe_section sec;
	struct sframe_problem where = { 0x5a5a5a5a, 0x5a5a5a5a };

	assert_err(open_at(&sec, 0, run_len), 0);
	assert_err(sframe_check(&sec, &where), err);
	assert_int_equal(where.fde, SFRAME_NO_INDEX);
	assert_int_equal(where.fre, SFRAME_NO_INDEX);
	assert_err(sframe_check(&sec, NULL), err);
}

/* ---- runs of parts --------------------------------------------------------- */

static void test_two_parts(void **state)
{
	(void)state;
	new_run();
	add_part(2, SFRAME_ABI_AMD64_LE, false, 1, 8);
	add_part(2, SFRAME_ABI_AMD64_LE, false, 2, 8);
	/* The first part (1 FDE, 2 rows: 54 bytes) is not a multiple of 8 long. */
	assert_true(part_end[0] % 8 != 0);
	assert_true(part_off[1] > part_end[0]);
	expect_parts();
	expect_whole_check(-SFRAME_ERR_CONCAT);
}

static void test_three_parts_each_version_and_byte_order(void **state)
{
	static const struct {
		uint8_t version, abi;
		bool be;
	} kinds[] = {
		{ 2, SFRAME_ABI_AMD64_LE, false },
		{ 3, SFRAME_ABI_AMD64_LE, false },
		{ 3, SFRAME_ABI_AARCH64_BE, true },
		{ 3, SFRAME_ABI_S390X_BE, true },
	};
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		new_run();
		add_part(kinds[k].version, kinds[k].abi, kinds[k].be, 1, 8);
		add_part(kinds[k].version, kinds[k].abi, kinds[k].be, 3, 8);
		add_part(kinds[k].version, kinds[k].abi, kinds[k].be, 2, 8);
		expect_parts();
		expect_whole_check(-SFRAME_ERR_CONCAT);
	}
	/* lld concatenates whatever its inputs hold: a v2 part then a v3 one. */
	new_run();
	add_part(2, SFRAME_ABI_AMD64_LE, false, 2, 8);
	add_part(3, SFRAME_ABI_AMD64_LE, false, 2, 8);
	add_part(2, SFRAME_ABI_AMD64_LE, false, 1, 8);
	expect_parts();
	expect_whole_check(-SFRAME_ERR_CONCAT);
}

/* Longer zero padding is padding too: parts at multiples of 16 or 32. */
static void test_wider_alignment(void **state)
{
	(void)state;
	new_run();
	add_part(3, SFRAME_ABI_AMD64_LE, false, 1, 8);
	add_part(3, SFRAME_ABI_AMD64_LE, false, 2, 32);
	add_part(3, SFRAME_ABI_AMD64_LE, false, 1, 16);
	expect_parts();
}

/* One section as GNU ld writes it: one part, nothing after it, not one byte read. */
static void test_single_section(void **state)
{
	struct sframe_section sec;
	uint64_t len = 0;

	(void)state;
	new_run();
	add_part(3, SFRAME_ABI_AMD64_LE, false, 3, 8);
	assert_err(open_at(&sec, 0, run_len), 0);
	rd.calls = 0;
	assert_err(sframe_part_size(&sec, &len), 0);
	assert_int_equal(len, run_len);
	assert_int_equal(rd.calls, 0);
	expect_parts();
	expect_whole_check(0);
}

/* Zeros after the last part, any number of them, are padding (gas pads some sections). */
static void test_zero_tail(void **state)
{
	struct sframe_section sec;
	uint64_t len;
	size_t end, pad;

	(void)state;
	for (pad = 1; pad <= 200; pad++) {
		new_run();
		add_part(3, SFRAME_ABI_AMD64_LE, false, 2, 8);
		add_part(3, SFRAME_ABI_AMD64_LE, false, 1, 8);
		end = run_len;
		memset(run + end, 0, pad);
		run_len = end + pad;
		expect_parts();
		expect_whole_check(-SFRAME_ERR_CONCAT);
		/* The last part's extent takes the padding; read SFRAME_MAX_READ at a time. */
		assert_err(open_at(&sec, part_off[1], run_len - part_off[1]), 0);
		rd.calls = 0;
		assert_err(sframe_part_size(&sec, &len), 0);
		assert_int_equal(len, run_len - part_off[1]);
		assert_int_equal(rd.calls, (pad + SFRAME_MAX_READ - 1) / SFRAME_MAX_READ);
		assert_true(rd.max_len <= SFRAME_MAX_READ);
		assert_err(sframe_check(&sec, NULL), 0);
	}
}

/* ---- what else may follow a part ---------------------------------------------- */

static void expect_trailing(size_t first_part_extent)
{
	struct sframe_section sec;
	uint64_t len = 0x5a5a;

	assert_err(open_at(&sec, 0, first_part_extent), 0);
	assert_err(sframe_part_size(&sec, &len), -SFRAME_ERR_TRAILING);
	assert_int_equal(len, 0x5a5a);
	expect_whole_check(-SFRAME_ERR_TRAILING);
}

static void test_garbage_after_first_part(void **state)
{
	size_t at, end;

	(void)state;
	/* A non-zero byte anywhere in the padding, or at the aligned offset without a magic. */
	new_run();
	add_part(2, SFRAME_ABI_AMD64_LE, false, 2, 8);
	end = run_len;
	for (at = end; at < end + 24; at++) {
		run_len = end + 24;
		memset(run + end, 0, 24);
		run[at] = 0x01;
		expect_trailing(run_len);
	}
	/* The magic's first byte alone, or the other order's bytes swapped, is not a magic. */
	run_len = (end + 7) / 8 * 8 + 8;
	memset(run + end, 0, run_len - end);
	run[(end + 7) / 8 * 8] = 0xe2;
	expect_trailing(run_len);
	run[(end + 7) / 8 * 8 + 1] = 0xe2;
	expect_trailing(run_len);
	/* A section's bytes one byte off the alignment. */
	new_run();
	add_part(2, SFRAME_ABI_AMD64_LE, false, 2, 8);
	add_part(2, SFRAME_ABI_AMD64_LE, false, 1, 8);
	memmove(run + part_off[1] + 1, run + part_off[1], run_len - part_off[1]);
	run[part_off[1]] = 0;
	run_len++;
	expect_trailing(run_len);
	/* One byte of a magic at the run's very end (it cannot be read whole). */
	new_run();
	add_part(2, SFRAME_ABI_AMD64_LE, false, 2, 8);
	run_len = (run_len + 7) / 8 * 8 + 1;
	run[run_len - 1] = 0xe2;
	expect_trailing(run_len);
}

/* The second part cut short: its own header check says so, after sframe_part_size(). */
static void test_truncated_second_part(void **state)
{
	struct sframe_section sec;
	size_t full, cut;
	uint64_t len;
	int err;

	(void)state;
	new_run();
	add_part(3, SFRAME_ABI_AMD64_LE, false, 1, 8);
	add_part(3, SFRAME_ABI_AMD64_LE, false, 2, 8);
	full = run_len;
	for (cut = part_off[1] + 2; cut < full; cut++) {
		run_len = cut;
		assert_err(open_at(&sec, 0, run_len), 0);
		assert_err(sframe_part_size(&sec, &len), 0);
		assert_int_equal(len, part_off[1]);
		err = open_at(&sec, part_off[1], run_len - part_off[1]);
		assert_err(err, cut - part_off[1] < SFRAME_HDR_SIZE ? -SFRAME_ERR_TRUNCATED
								   : -SFRAME_ERR_HEADER);
		/* The first part alone is fine; over the whole run it is not all there is. */
		expect_whole_check(-SFRAME_ERR_CONCAT);
	}
}

/* ---- reads -------------------------------------------------------------------- */

/* Every read failing in turn: the callback's error, unchanged, and no result. */
static void test_read_failures(void **state)
{
	struct sframe_section sec;
	uint64_t len;
	unsigned reads, k;

	(void)state;
	new_run();
	add_part(3, SFRAME_ABI_AMD64_LE, false, 1, 8);
	add_part(3, SFRAME_ABI_AMD64_LE, false, 1, 8);
	memset(run + run_len, 0, 150);
	run_len += 150;
	for (k = 0; k < 2; k++) {
		size_t off = part_off[k];

		assert_err(open_at(&sec, off, run_len - off), 0);
		rd.calls = 0;
		assert_err(sframe_part_size(&sec, &len), 0);
		reads = rd.calls;
		assert_true(reads >= 1);
		for (rd.fail_at = 1; rd.fail_at <= reads; rd.fail_at++) {
			rd.calls = 0;
			rd.fail_err = -5;	/* -EIO */
			len = 0x5a5a;
			assert_err(sframe_part_size(&sec, &len), -5);
			assert_int_equal(len, 0x5a5a);
		}
		rd.fail_at = 0;
	}
}

/* In memory and behind a callback: the same extents. */
static void test_buffer_form(void **state)
{
	struct sframe_section sec;
	struct sframe_buffer buf;
	uint64_t off, len;
	unsigned n = 0;

	(void)state;
	new_run();
	add_part(3, SFRAME_ABI_AMD64_LE, false, 2, 8);
	add_part(2, SFRAME_ABI_AMD64_LE, false, 1, 8);
	add_part(3, SFRAME_ABI_AMD64_LE, false, 3, 8);
	for (off = 0; off < run_len; off += len) {
		assert_err(sframe_open_buffer(&sec, &buf, run + off, run_len - off, RUN_VADDR + off),
			   0);
		assert_err(sframe_part_size(&sec, &len), 0);
		assert_int_equal(off + len, n + 1 < nparts ? part_off[n + 1] : run_len);
		n++;
	}
	assert_int_equal(n, 3);
}

static void test_part_size_arguments(void **state)
{
	struct sframe_section sec;
	uint64_t len;

	(void)state;
	new_run();
	add_part(3, SFRAME_ABI_AMD64_LE, false, 1, 8);
	assert_err(open_at(&sec, 0, run_len), 0);
	assert_err(sframe_part_size(NULL, &len), -SFRAME_ERR_INVAL);
	assert_err(sframe_part_size(&sec, NULL), -SFRAME_ERR_INVAL);
	sec.read = NULL;
	assert_err(sframe_part_size(&sec, &len), -SFRAME_ERR_INVAL);
}

/* ---- the empty section -------------------------------------------------------- */

static void test_empty_section(void **state)
{
	struct sframe_section sec;
	struct sframe_buffer buf;
	uint8_t byte = 0xe2;

	(void)state;
	memset(&rd, 0, sizeof(rd));
	rd.data = &byte;
	rd.base = RUN_BASE;
	rd.size = 1;
	/* No byte to read: "no SFrame data", not a truncated section; nothing is read. */
	assert_err(sframe_open(&sec, sfb_read, &rd, RUN_BASE, 0, RUN_VADDR), -SFRAME_ERR_EMPTY);
	assert_err(sframe_open(&sec, sfb_read, &rd, UINT64_MAX, 0, RUN_VADDR), -SFRAME_ERR_EMPTY);
	assert_int_equal(rd.calls, 0);
	assert_err(sframe_open_buffer(&sec, &buf, NULL, 0, RUN_VADDR), -SFRAME_ERR_EMPTY);
	assert_err(sframe_open_buffer(&sec, &buf, &byte, 0, RUN_VADDR), -SFRAME_ERR_EMPTY);
	/* One byte is a truncated section still. */
	assert_err(sframe_open_buffer(&sec, &buf, &byte, 1, RUN_VADDR), -SFRAME_ERR_TRUNCATED);
	/* Arguments first. */
	assert_err(sframe_open(NULL, sfb_read, &rd, RUN_BASE, 0, 0), -SFRAME_ERR_INVAL);
	assert_err(sframe_open(&sec, NULL, &rd, RUN_BASE, 0, 0), -SFRAME_ERR_INVAL);
	/* Named apart from "no row for this PC" and from damage. */
	assert_string_equal(sframe_errname(-SFRAME_ERR_EMPTY), "SFRAME_ERR_EMPTY");
	assert_string_equal(sframe_strerror(-SFRAME_ERR_EMPTY), "no SFrame data: the section is empty");
	assert_false(sframe_is_read_error(-SFRAME_ERR_EMPTY));
	assert_string_equal(sframe_errname(-SFRAME_ERR_CONCAT), "SFRAME_ERR_CONCAT");
	assert_string_equal(sframe_errname(-SFRAME_ERR_TRAILING), "SFRAME_ERR_TRAILING");
	assert_false(sframe_is_read_error(-SFRAME_ERR_CONCAT));
	assert_false(sframe_is_read_error(-SFRAME_ERR_TRAILING));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_parts),
		cmocka_unit_test(test_three_parts_each_version_and_byte_order),
		cmocka_unit_test(test_wider_alignment),
		cmocka_unit_test(test_single_section),
		cmocka_unit_test(test_zero_tail),
		cmocka_unit_test(test_garbage_after_first_part),
		cmocka_unit_test(test_truncated_second_part),
		cmocka_unit_test(test_read_failures),
		cmocka_unit_test(test_buffer_form),
		cmocka_unit_test(test_part_size_arguments),
		cmocka_unit_test(test_empty_section),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
