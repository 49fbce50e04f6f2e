/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_lld.c - sections as real linkers write them for clang's SFrame
 * (fixtures/lld-x86_64/, made by fixtures/make-lld-fixtures.sh):
 *
 *   static, exe, lib.so, mixed.so  LLVM lld 23: the .sframe section is a run
 *                                  of whole SFrame sections, one per object
 *   empty                          GNU ld 2.47: an empty .sframe section
 *
 * For every lld file F:
 *   - sframe_part_size() splits F.sframe into the parts F.parts lists (from
 *     the bytes, by tools/lld-goldens.py), each of the version and counts it
 *     lists, each valid on its own; sframe_check() over the whole section
 *     says SFRAME_ERR_CONCAT;
 *   - sframe dump F prints F.objdump (each part as objdump dumps it at its
 *     own address) and warns on standard error, exit 0; the same for the raw
 *     section F.sframe at the section's address;
 *   - sframe lookup F < F.pcs prints F.lookup (read off objdump's dumps,
 *     cross-checked with libsframe), exit 0;
 *   - sframe check F exits 1, names the concatenation and lists each part
 *     as valid.
 * For empty: sframe_open() says SFRAME_ERR_EMPTY, and dump, lookup and check
 * say "no SFrame data" and exit 1 (as for a file without SFrame).
 * sframe unwind on static.snap (samples at every instruction of static's
 * chain) names the frames gdb's backtraces name; with empty as the
 * executable, every walk stops at its first frame: no SFrame.
 *
 * Usage: test_lld SFRAME_TOOL FIXTURES_DIR
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sframe/sframe.h>

#include "tool_run.h"

static const char *tool;
static const char *dir;

static char *fixture(const char *name, const char *suffix, size_t *len)
{
	char path[1024];
	char *data;

	snprintf(path, sizeof(path), "%s/lld-x86_64/%s%s", dir, name, suffix);
	data = tu_read_file(path, len);
	if (!data)
		fail_msg("cannot read %s", path);
	return data;
}

static void fixture_path(const char *name, const char *suffix, char *buf, size_t size)
{
	snprintf(buf, size, "%s/lld-x86_64/%s%s", dir, name, suffix);
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Run the tool; return stdout, and stderr in *@err; *@status its exit status. */
static char *run(char *const argv[], const char *in, char **err, int *status)
{
	size_t len;
	int st;
	char *out;

	*err = tu_run(argv, in, 2, &len, &st);
	out = tu_run(argv, in, 1, &len, status);
	assert_true(WIFEXITED(st) && WIFEXITED(*status));
	assert_int_equal(WEXITSTATUS(st), WEXITSTATUS(*status));
	*status = WEXITSTATUS(*status);
	return out;
}

static void expect_text(const char *got, const char *want, const char *what)
{
	int line = 1;
	const char *g = got, *w = want;

	if (strcmp(got, want) == 0)
		return;
	while (*g && *g == *w) {
		line += *g == '\n';
		g++;
		w++;
	}
	fail_msg("%s differs at line %d:\n  got:  %.*s\n  want: %.*s", what, line,
		 (int)strcspn(g, "\n"), g, (int)strcspn(w, "\n"), w);
}

/* ---- the library on the real sections ------------------------------------------- */

static void test_parts_of(const char *name)
{
	struct sframe_section sec, part;
	struct sframe_buffer buf;
	struct sframe_problem where;
	uint64_t vaddr, off, len, want_off, want_len;
	unsigned version, fdes, fres, n = 0;
	size_t size, plen;
	char *data, *addr, *parts, *line, *save;

	data = fixture(name, ".sframe", &size);
	addr = fixture(name, ".addr", &plen);
	parts = fixture(name, ".parts", &plen);
	vaddr = strtoull(addr, NULL, 16);
	line = strtok_r(parts, "\n", &save);
	for (off = 0; off < size; off += len) {
		assert_non_null(line);
		assert_int_equal(sscanf(line, "%" SCNx64 " %" SCNx64 " v%u %u %u", &want_off,
					&want_len, &version, &fdes, &fres), 5);
		assert_int_equal(off, want_off);
		assert_int_equal(sframe_open_buffer(&sec, &buf, data + off, size - off, vaddr + off),
				 0);
		assert_int_equal(sframe_part_size(&sec, &len), 0);
		assert_int_equal(len, want_len);
		assert_int_equal(sframe_open_buffer(&part, &buf, data + off, len, vaddr + off), 0);
		assert_int_equal(part.version, version);
		assert_int_equal(part.num_fdes, fdes);
		assert_int_equal(part.num_fres, fres);
		assert_int_equal(sframe_check(&part, &where), 0);
		line = strtok_r(NULL, "\n", &save);
		n++;
	}
	assert_null(line);
	assert_true(n > 1);
	/* The first header alone is not the whole section. */
	assert_int_equal(sframe_open_buffer(&sec, &buf, data, size, vaddr), 0);
	assert_int_equal(sframe_check(&sec, &where), -SFRAME_ERR_CONCAT);
	assert_int_equal(where.fde, SFRAME_NO_INDEX);
	free(data);
	free(addr);
	free(parts);
}

/* ---- the tool ------------------------------------------------------------------------ */

static void expect_concat_warning(const char *err, const char *name, const char *cmd)
{
	char want[256];
	size_t len;
	char *parts = fixture(name, ".parts", &len);

	snprintf(want, sizeof(want),
		 "warning: not one SFrame section but %zu concatenated sections (as LLVM lld links "
		 "them); %s uses every one\n", count_lines(parts), cmd);
	if (!strstr(err, want))
		fail_msg("sframe %s %s: no warning '%s' on standard error: '%s'", cmd, name, want,
			 err);
	free(parts);
}

static void test_dump(const char *name)
{
	char path[1024], raw[1024], vaddr[64];
	char *argv[] = { (char *)tool, "dump", path, NULL };
	char *rawv[] = { (char *)tool, "dump", "--vaddr", vaddr, raw, NULL };
	char *want, *got, *err, *addr;
	size_t len;
	int status;

	fixture_path(name, "", path, sizeof(path));
	fixture_path(name, ".sframe", raw, sizeof(raw));
	want = fixture(name, ".objdump", &len);
	addr = fixture(name, ".addr", &len);
	snprintf(vaddr, sizeof(vaddr), "%.*s", (int)strcspn(addr, "\n"), addr);

	got = run(argv, NULL, &err, &status);
	assert_int_equal(status, 0);
	expect_text(got, want, "sframe dump");
	expect_concat_warning(err, name, "dump");
	free(got);
	free(err);
	got = run(rawv, NULL, &err, &status);
	assert_int_equal(status, 0);
	expect_text(got, want, "sframe dump of the raw section");
	free(got);
	free(err);
	free(want);
	free(addr);
}

static void test_lookup(const char *name)
{
	char path[1024], pcs[1024];
	char *argv[] = { (char *)tool, "lookup", path, NULL };
	char *want, *got, *err;
	size_t len;
	int status;

	fixture_path(name, "", path, sizeof(path));
	fixture_path(name, ".pcs", pcs, sizeof(pcs));
	want = fixture(name, ".lookup", &len);
	got = run(argv, pcs, &err, &status);
	assert_int_equal(status, 0);
	expect_text(got, want, "sframe lookup");
	expect_concat_warning(err, name, "lookup");
	/* Every part answers: rows are found beyond the first part's functions. */
	assert_true(count_lines(want) > 50);
	free(got);
	free(err);
	free(want);
}

static void test_check(const char *name)
{
	char path[1024], want[1400];
	char *argv[] = { (char *)tool, "check", path, NULL };
	char *got, *err, *parts, *line, *save;
	unsigned k = 0;
	size_t len, n;
	int status;

	fixture_path(name, "", path, sizeof(path));
	parts = fixture(name, ".parts", &len);
	n = count_lines(parts);
	got = run(argv, NULL, &err, &status);
	assert_int_equal(status, 1);
	snprintf(want, sizeof(want), "%s: invalid: not one SFrame section but %zu concatenated "
		 "sections, as LLVM lld links them", path, n);
	if (!strstr(err, want) || !strstr(err, "(SFRAME_ERR_CONCAT)") ||
	    !strstr(err, "each is valid on its own"))
		fail_msg("sframe check %s: '%s'", name, err);
	/* One line per part: its offset, valid. */
	for (line = strtok_r(parts, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		snprintf(want, sizeof(want), "%s: part %u of %zu (offset %.*s): valid (", path, ++k,
			 n, (int)strcspn(line, " "), line);
		if (!strstr(got, want))
			fail_msg("sframe check %s: no line '%s' in '%s'", name, want, got);
	}
	assert_int_equal(count_lines(got), n);
	free(got);
	free(err);
	free(parts);
}

static void test_lld_file(void **state)
{
	const char *name = *state;

	test_parts_of(name);
	test_dump(name);
	test_lookup(name);
	test_check(name);
}

/* GNU ld's empty section: no SFrame data, which is neither a row missing nor damage. */
static void test_empty(void **state)
{
	static const char *const cmds[] = { "dump", "lookup", "check" };
	struct sframe_section sec;
	struct sframe_buffer buf;
	char path[1024], want[1100];
	char *err, *out;
	size_t i, len;
	int status;

	(void)state;
	out = fixture("empty", ".sframe", &len);
	assert_int_equal(len, 0);
	assert_int_equal(sframe_open_buffer(&sec, &buf, out, len, 0x4021c0), -SFRAME_ERR_EMPTY);
	free(out);
	fixture_path("empty", "", path, sizeof(path));
	snprintf(want, sizeof(want), "%s: no SFrame data: the .sframe section is empty\n", path);
	for (i = 0; i < 3; i++) {
		char *argv[] = { (char *)tool, (char *)cmds[i], path, "0x401000", NULL };

		if (i != 1)
			argv[3] = NULL;
		out = run(argv, NULL, &err, &status);
		assert_int_equal(status, 1);
		assert_string_equal(out, "");
		assert_string_equal(err, want);
		free(out);
		free(err);
	}
}

/*
 * sframe unwind on samples of static taken at every instruction of its chain:
 * the frames named, sample by sample, are gdb's (from .eh_frame), which
 * takes every part (the chain spans four of them).
 */
static void test_unwind(void **state)
{
	char exe[1024], snap[1024];
	char *argv[] = { (char *)tool, "unwind", "--elf", exe, snap, NULL };
	char *out, *err, *want, *line, *save, *wline, *wsave, got[512];
	size_t len, n = 0;
	int status;

	(void)state;
	fixture_path("static", "", exe, sizeof(exe));
	fixture_path("static", ".snap", snap, sizeof(snap));
	want = fixture("static", ".unwind", &len);
	out = run(argv, NULL, &err, &status);
	assert_int_equal(status, 0);
	if (!strstr(err, "warning: not one SFrame section but 6 concatenated sections (as LLVM "
			 "lld links them); unwind uses every one"))
		fail_msg("sframe unwind: no warning: '%s'", err);
	got[0] = '\0';
	wline = strtok_r(want, "\n", &wsave);
	for (line = strtok_r(out, "\n", &save);; line = strtok_r(NULL, "\n", &save)) {
		const char *sym;

		/* "sample N: pc ..." starts a sample; "  #K  0xPC NAME+0xOFF" a frame. */
		if (!line || strncmp(line, "sample ", 7) == 0) {
			if (got[0]) {
				assert_non_null(wline);
				if (strcmp(got, wline) != 0)
					fail_msg("got:  %s\nwant: %s (gdb)", got, wline);
				wline = strtok_r(NULL, "\n", &wsave);
				n++;
			}
			if (!line)
				break;
			snprintf(got, sizeof(got), "%.*s", (int)(strchr(line, ':') + 1 - line), line);
		} else if (strncmp(line, "  #", 3) == 0) {
			sym = strstr(line, " 0x") + 20;
			snprintf(got + strlen(got), sizeof(got) - strlen(got), " %.*s",
				 (int)strcspn(sym, "+ "), sym);
		} else {
			/* The walk ends in _start, the assembly entry point without SFrame. */
			assert_true(strncmp(line, "  stop: no SFrame row for 0x", 28) == 0);
		}
	}
	assert_null(wline);
	assert_int_equal(n, 135);
	free(out);
	free(err);
	free(want);
}

/*
 * An executable with an empty section: with --no-convert no SFrame, every
 * walk stops at its first frame (by default its .eh_frame stands in:
 * tests/test_cli.c, test_unwind_converted()).
 */
static void test_unwind_empty(void **state)
{
	char exe[1024], snap[1024];
	char *argv[] = { (char *)tool, "unwind", "--no-convert", "--elf", exe, snap, NULL };
	char *out, *err, *line, *save;
	size_t samples = 0, frames = 0, stops = 0;
	int status;

	(void)state;
	fixture_path("empty", "", exe, sizeof(exe));
	fixture_path("static", ".snap", snap, sizeof(snap));
	out = run(argv, NULL, &err, &status);
	assert_int_equal(status, 0);
	if (!strstr(err, "warning: no SFrame data: the .sframe section is empty"))
		fail_msg("sframe unwind: no warning: '%s'", err);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		samples += strncmp(line, "sample ", 7) == 0;
		frames += strncmp(line, "  #", 3) == 0;
		stops += strncmp(line, "  stop: no SFrame row for 0x", 28) == 0;
	}
	assert_int_equal(samples, 135);
	assert_int_equal(frames, 135);
	assert_int_equal(stops, 135);
	free(out);
	free(err);
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "static", "exe", "lib.so", "mixed.so" };
	struct CMUnitTest tests[7];
	size_t i;

	if (argc != 3) {
		fprintf(stderr, "usage: %s SFRAME_TOOL FIXTURES_DIR\n", argv[0]);
		return 2;
	}
	tool = argv[1];
	dir = argv[2];
	for (i = 0; i < 4; i++) {
		tests[i].name = names[i];
		tests[i].test_func = test_lld_file;
		tests[i].setup_func = NULL;
		tests[i].teardown_func = NULL;
		tests[i].initial_state = (void *)names[i];
	}
	tests[4].name = "empty";
	tests[4].test_func = test_empty;
	tests[4].setup_func = NULL;
	tests[4].teardown_func = NULL;
	tests[4].initial_state = NULL;
	tests[5] = (struct CMUnitTest){ "unwind", test_unwind, NULL, NULL, NULL };
	tests[6] = (struct CMUnitTest){ "unwind, empty section", test_unwind_empty, NULL, NULL, NULL };
	return _cmocka_run_group_tests("lld", tests, 7, NULL, NULL);
}
