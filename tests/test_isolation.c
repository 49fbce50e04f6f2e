/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_isolation.c - one damaged FDE or FRE in the middle of a section fails
 * what reaches it, and nothing else.
 *
 * Five functions F0..F4, 0x40 bytes each with a 0xc0-byte gap after it,
 * rows @0 sp+8, @4 sp+16 with FP at c-16, @8 fp+16 with FP at c-16; F2 is
 * damaged in one way per case (its FDE, or one of its rows). For each case,
 * in sorted and unsorted sections (binary and linear search), against the
 * same section undamaged:
 *   - sframe_lookup(), through a callback and in memory: the rows of F0, F1,
 *     F3, F4 and the gaps after every function (F2's too: a PC past a
 *     function's end is not found, even when its FDE cannot be decoded)
 *     give the undamaged section's answer; F2's rows give the case's error
 *     from the row that reaches the damage on (a damaged row fails the
 *     lookups that select it or scan past it; the scan stops at the first
 *     row that starts past the PC, so the rows before it are found);
 *   - sframe_check() reports the damage at F2 (and its row);
 *   - "sframe check FILE" exits 1 naming it;
 *   - "sframe dump FILE" prints every other function exactly as for the
 *     undamaged section, F2 up to its damaged row (nothing of it when its
 *     FDE cannot be decoded), reports the damage on standard error, and
 *     exits 1. Words the rule decoder refuses are no damage to the dump
 *     (it prints the raw words, as objdump does): exit 0, F2 printed whole;
 *   - "sframe lookup FILE PC..." prints the undamaged answers for the
 *     other functions and "!ERROR" for F2's failing rows, and exits 1.
 *
 * Usage: test_isolation SFRAME_TOOL
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "builder.h"
#include "tool_run.h"

#define NFUNC		5
#define BAD		2	/* the damaged function */
#define NROWS		3
#define FUNC(i)		(UINT64_C(0x20000) + (uint64_t)(i) * 0x100)
#define FUNC_SIZE	0x40
#define VADDR		UINT64_C(0x10000)
#define VADDR_TEXT	"0x10000"

static const char *tool;
static struct sfb b;
static uint8_t good[SFB_MAX_OUT], bad[SFB_MAX_OUT];
static size_t good_len, bad_len;

struct damage {
	const char *name;
	uint8_t version;
	bool flex;		/* F2 is a FLEX function (in both sections) */
	void (*apply)(uint8_t *buf);
	int err;		/* what lookups reaching it and sframe_check() return */
	uint32_t fre;		/* the damaged row, or SFRAME_NO_INDEX for the FDE */
	uint32_t from;		/* F2's rows whose lookups fail: from .. until - 1 */
	uint32_t until;
	bool dump_fails;	/* the damage stops the dump of F2 */
};

/* F2's FRE @j, as an index into the builder's FREs. */
static uint32_t fre_of(uint32_t j)
{
	return b.fdes[BAD].first_fre + j;
}

/* v3: FDE type 31 (reserved). */
static void fde_type_31(uint8_t *buf)
{
	buf[b.attr_off[BAD] + SFRAME_V3_ATTR_INFO2] = 31;
}

/* FRE type 7 (types 3..15 are undefined). */
static void fre_type_7(uint8_t *buf)
{
	buf[b.info_off[BAD]] = (uint8_t)((buf[b.info_off[BAD]] & 0xf0u) | 7u);
}

/* v3: the attribute record's offset past the FRE area. */
static void attr_past_area(uint8_t *buf)
{
	sfb_put_u32(&b, buf, b.fde_off[BAD] + SFRAME_V3_FDE_FRE_OFF, (uint32_t)b.fre_len + 8);
}

/* v2: the FDE's FRE run at the end of the FRE area: its rows would lie past it. */
static void fre_off_past_area(uint8_t *buf)
{
	sfb_put_u32(&b, buf, b.fde_off[BAD] + SFRAME_V12_FDE_FRE_OFF, (uint32_t)b.fre_len);
}

/* Row 1's data-word size code 3 (undefined: the row's length is unknown). */
static void word_size_3(uint8_t *buf)
{
	buf[b.fre_info_off[fre_of(1)]] = sfb_fre_info(SFRAME_BASE_REG_SP, 2, 3, false);
}

/* Row 2 claims 7 data words (no ABI uses more than 6). */
static void words_7(uint8_t *buf)
{
	buf[b.fre_info_off[fre_of(2)]] = sfb_fre_info(SFRAME_BASE_REG_FP, 7, 1, false);
}

/*
 * FLEX row 1 [C c R r F f] with the FP control word zeroed: [C c R r 0 f],
 * a word after the FP entity (test_rules.c). The row keeps its size.
 */
static void flex_word_after_fp(uint8_t *buf)
{
	buf[b.fre_info_off[fre_of(1)] + 1 + 4] = 0;
}

static const struct damage cases[] = {
	{ "FDE type 31", 3, false, fde_type_31, -SFRAME_ERR_FDE_TYPE, SFRAME_NO_INDEX, 0, NROWS,
	  true },
	{ "FRE type 7", 3, false, fre_type_7, -SFRAME_ERR_FRE_TYPE, SFRAME_NO_INDEX, 0, NROWS,
	  true },
	{ "v3 attribute record past the FRE area", 3, false, attr_past_area, -SFRAME_ERR_FDE,
	  SFRAME_NO_INDEX, 0, NROWS, true },
	{ "v2 FRE run at the end of the FRE area", 2, false, fre_off_past_area, -SFRAME_ERR_FDE,
	  SFRAME_NO_INDEX, 0, NROWS, true },
	/* Rows after a row of unknown length cannot be found either. */
	{ "word size code 3 in row 1", 3, false, word_size_3, -SFRAME_ERR_WORD_SIZE, 1, 1, NROWS,
	  true },
	{ "7 data words in row 2", 2, false, words_7, -SFRAME_ERR_WORDS, 2, 2, NROWS, true },
	/* A row's words are checked only when it is the one selected. */
	{ "FLEX word after the FP entity in row 1", 3, true, flex_word_after_fp,
	  -SFRAME_ERR_WORDS, 1, 1, 2, false },
};

/* Both sections: the damage applied to a copy of the good one. */
static void build(const struct damage *d, uint8_t flags)
{
	unsigned i;

	sfb_init(&b, d->version, SFRAME_ABI_AMD64_LE, false, flags, VADDR);
	for (i = 0; i < NFUNC; i++) {
		struct sfb_fde *f = sfb_fde(&b, FUNC(i), FUNC_SIZE, SFRAME_FRE_TYPE_ADDR1,
					    SFRAME_PC_TYPE_INC);

		if (i == BAD && d->flex) {
			f->fde_type = SFRAME_FDE_TYPE_FLEX;
			sfb_fre(&b, 0, 0, 1, 2, SFB_FLEX_CTRL(7, 0, 1), 8);
			sfb_fre(&b, 4, 0, 1, 6, SFB_FLEX_CTRL(7, 0, 1), 16, SFB_FLEX_CTRL(0, 1, 0),
				-8, SFB_FLEX_CTRL(0, 1, 0), -16);
			sfb_fre(&b, 8, 0, 1, 4, SFB_FLEX_CTRL(6, 0, 1), 16, 0, 0);
			continue;
		}
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
		sfb_fre(&b, 4, SFRAME_BASE_REG_SP, 1, 2, 16, -16);
		sfb_fre(&b, 8, SFRAME_BASE_REG_FP, 1, 2, 16, -16);
	}
	good_len = sfb_emit(&b, good, sizeof(good));
	assert_true(good_len > 0);
	memcpy(bad, good, good_len);
	bad_len = good_len;
	d->apply(bad);
}

/* sframe_lookup() of @pc in both forms: the same result, the same row. */
static int lookup_both(const uint8_t *data, size_t len, uint64_t pc, struct sframe_row *row)
{
	struct sframe_section sec, msec;
	struct sframe_buffer mbuf;
	struct sfb_reader rd;
	struct sframe_row m;
	int err;

	memset(&rd, 0, sizeof(rd));
	rd.data = data;
	rd.base = 0x1000;
	rd.size = len;
	assert_err(sframe_open(&sec, sfb_read, &rd, rd.base, len, VADDR), 0);
	assert_err(sframe_open_buffer(&msec, &mbuf, data, len, VADDR), 0);
	memset(row, 0, sizeof(*row));
	memset(&m, 0, sizeof(m));
	err = sframe_lookup(&sec, pc, row);
	assert_err(sframe_lookup(&msec, pc, &m), err);
	assert_int_equal(m.fde.index, row->fde.index);
	if (err == 0) {
		assert_int_equal(m.fre.start, row->fre.start);
		assert_memory_equal(&m.rules, &row->rules, sizeof(m.rules));
	}
	return err;
}

static void expect_same(uint64_t pc)
{
	struct sframe_row g, d;
	int err = lookup_both(good, good_len, pc, &g);

	assert_err(lookup_both(bad, bad_len, pc, &d), err);
	assert_int_equal(d.fde.index, g.fde.index);
	if (err == 0) {
		assert_int_equal(d.fde.func_start, g.fde.func_start);
		assert_int_equal(d.fre.start, g.fre.start);
		assert_memory_equal(&d.rules, &g.rules, sizeof(d.rules));
	}
}

static void check_lookups(const struct damage *d)
{
	struct sframe_row row;
	unsigned i, r;

	for (i = 0; i < NFUNC; i++) {
		/* Past the end, in the gap: not found, F2 included. */
		expect_same(FUNC(i) + FUNC_SIZE);
		expect_same(FUNC(i) + FUNC_SIZE + 0x40);
		for (r = 0; r < NROWS; r++) {
			uint64_t pc = FUNC(i) + 4 * r + 1;

			if (i != BAD || r < d->from || r >= d->until)
				expect_same(pc);
			else
				assert_err(lookup_both(bad, bad_len, pc, &row), d->err);
		}
	}
	/* Before the first function. */
	expect_same(FUNC(0) - 1);
}

static void check_check(const struct damage *d)
{
	struct sframe_section sec;
	struct sframe_buffer buf;
	struct sframe_problem where;

	assert_err(sframe_open_buffer(&sec, &buf, good, good_len, VADDR), 0);
	assert_err(sframe_check(&sec, NULL), 0);
	assert_err(sframe_open_buffer(&sec, &buf, bad, bad_len, VADDR), 0);
	assert_err(sframe_check(&sec, &where), d->err);
	assert_int_equal(where.fde, BAD);
	assert_int_equal(where.fre, d->fre);
}

/* ---- The tool ------------------------------------------------------------- */

static void write_file(const char *path, const uint8_t *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void tmp_file(char *path, size_t size, const char *what)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	assert_true((size_t)snprintf(path, size, "%s/test_isolation-%s.XXXXXX", dir, what) < size);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
}

/* Runs the tool; returns the captured stream, *@code its exit status. */
static char *run(char **argv, int fd, int *code)
{
	size_t len;
	int status;
	char *out = tu_run(argv, NULL, fd, &len, &status);

	assert_true(WIFEXITED(status));
	*code = WEXITSTATUS(status);
	return out;
}

/*
 * The undamaged dump less what the damage takes away: F2's rows from @from
 * on, or (@whole) F2's block and the empty line before it. A block is
 * "\n    func idx [i]: ...\n    STARTPC ...\n" and a line per row.
 */
static char *expected_dump(const char *dump, uint32_t from, bool whole)
{
	char *out = malloc(strlen(dump) + 1), *o = out;
	const char *line = dump;
	bool in_bad = false;
	uint32_t row = 0;

	assert_non_null(out);
	while (*line) {
		size_t len = strcspn(line, "\n");
		unsigned idx;

		len += line[len] == '\n';
		if (strncmp(line, "    func idx [", 14) == 0 && sscanf(line + 14, "%u", &idx) == 1) {
			in_bad = idx == BAD;
			row = 0;
			if (in_bad && whole)
				o--;	/* the empty line before the block */
		} else if (len <= 1) {
			in_bad = false;
		}
		if (!in_bad ||
		    (!whole && (strncmp(line, "    0000", 8) != 0 || row++ < from))) {
			memcpy(o, line, len);
			o += len;
		}
		line += len;
	}
	*o = '\0';
	return out;
}

/* The two sections as files; removed by the test, or by teardown() after a failure. */
static char gpath[512], bpath[512];

static int teardown(void **state)
{
	(void)state;
	if (gpath[0])
		unlink(gpath);
	if (bpath[0])
		unlink(bpath);
	gpath[0] = bpath[0] = '\0';
	return 0;
}

/* @msg names the damage: "<@before>FDE 2[, FRE k]: ..." and the error's name. */
static void names_damage(const char *msg, const char *before, const struct damage *d)
{
	char where[64];

	if (d->fre == SFRAME_NO_INDEX)
		snprintf(where, sizeof(where), "%sFDE %d: ", before, BAD);
	else
		snprintf(where, sizeof(where), "%sFDE %d, FRE %u: ", before, BAD, (unsigned)d->fre);
	if (!strstr(msg, where) || !strstr(msg, sframe_errname(d->err)))
		fail_msg("%s: '%s' does not say '%s' and %s", d->name, msg, where,
			 sframe_errname(d->err));
}

static void check_tool(const struct damage *d)
{
	char pcs[NFUNC * NROWS][24], name[64];
	char *dump_argv[] = { (char *)tool, "dump", "--vaddr", VADDR_TEXT, NULL, NULL };
	char *check_argv[] = { (char *)tool, "check", "--vaddr", VADDR_TEXT, bpath, NULL };
	char *lk_argv[5 + NFUNC * NROWS + 1];
	char *gdump, *bdump, *msg, *want, *glk, *blk, *gs, *bs, *gl, *bl;
	unsigned i, r, n = 0;
	int code;

	tmp_file(gpath, sizeof(gpath), "good");
	tmp_file(bpath, sizeof(bpath), "bad");
	write_file(gpath, good, good_len);
	write_file(bpath, bad, bad_len);

	/* check: exit 1, "FDE 2" (", FRE k") and the error's name. */
	msg = run(check_argv, 2, &code);
	assert_int_equal(code, 1);
	names_damage(msg, "invalid: ", d);
	free(msg);

	/* dump: the undamaged dump less what the damage takes away. */
	dump_argv[4] = gpath;
	gdump = run(dump_argv, 1, &code);
	assert_int_equal(code, 0);
	dump_argv[4] = bpath;
	bdump = run(dump_argv, 1, &code);
	assert_int_equal(code, d->dump_fails ? 1 : 0);
	want = d->dump_fails ? expected_dump(gdump, d->from, d->fre == SFRAME_NO_INDEX) :
			       strdup(gdump);
	assert_non_null(want);
	if (strcmp(bdump, want) != 0)
		fail_msg("%s: dump:\n%s\nexpected:\n%s", d->name, bdump, want);
	msg = run(dump_argv, 2, &code);
	if (d->dump_fails) {
		names_damage(msg, ": ", d);
		/* One line: only F2 is reported. */
		assert_int_equal(strchr(msg, '\n') - msg + 1, (long)strlen(msg));
	} else {
		assert_string_equal(msg, "");
	}
	free(msg);
	free(want);
	free(gdump);
	free(bdump);

	/* lookup: line for line, F2's failing rows as "!ERROR". */
	lk_argv[0] = (char *)tool;
	lk_argv[1] = "lookup";
	lk_argv[2] = "--vaddr";
	lk_argv[3] = VADDR_TEXT;
	for (i = 0; i < NFUNC; i++)
		for (r = 0; r < NROWS; r++, n++) {
			snprintf(pcs[n], sizeof(pcs[n]), "0x%llx",
				 (unsigned long long)(FUNC(i) + 4 * r + 1));
			lk_argv[5 + n] = pcs[n];
		}
	lk_argv[5 + n] = NULL;
	lk_argv[4] = gpath;
	glk = run(lk_argv, 1, &code);
	assert_int_equal(code, 0);
	lk_argv[4] = bpath;
	blk = run(lk_argv, 1, &code);
	assert_int_equal(code, 1);
	gl = strtok_r(glk, "\n", &gs);
	bl = strtok_r(blk, "\n", &bs);
	for (i = 0; i < NFUNC; i++)
		for (r = 0; r < NROWS; r++) {
			assert_non_null(gl);
			assert_non_null(bl);
			if (i == BAD && r >= d->from && r < d->until) {
				snprintf(name, sizeof(name), "0x%llx !%s",
					 (unsigned long long)(FUNC(i) + 4 * r + 1),
					 sframe_errname(d->err));
				assert_string_equal(bl, name);
			} else {
				assert_string_equal(bl, gl);
			}
			gl = strtok_r(NULL, "\n", &gs);
			bl = strtok_r(NULL, "\n", &bs);
		}
	assert_null(bl);
	free(glk);
	free(blk);
	teardown(NULL);
}

static void test_case(void **state)
{
	const struct damage *d = *state;
	int sorted;

	for (sorted = 0; sorted < 2; sorted++) {
		uint8_t flags = (uint8_t)(sorted ? SFRAME_F_FDE_SORTED : 0);

		if (d->version >= 2)
			flags |= SFRAME_F_FDE_FUNC_START_PCREL;
		build(d, flags);
		check_lookups(d);
		check_check(d);
		check_tool(d);
	}
}

int main(int argc, char **argv)
{
	struct CMUnitTest tests[sizeof(cases) / sizeof(cases[0])];
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s SFRAME_TOOL\n", argv[0]);
		return 2;
	}
	tool = argv[1];
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		tests[i] = (struct CMUnitTest){ cases[i].name, test_case, NULL, teardown,
						(void *)&cases[i] };
	return _cmocka_run_group_tests("isolation", tests, i, NULL, NULL);
}
