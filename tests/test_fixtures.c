/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * Conformance against sections made by real toolchains (binutils 2.40, 2.44,
 * 2.47.50; x86_64, aarch64, s390x). For every fixture F:
 *   sframe dump F          == F.objdump, byte for byte (binutils' own output)
 *   sframe lookup F < F.pcs == F.lookup, line for line ('?' lines skipped:
 *                             v1 PCMASK rows, which binutils leaves undefined)
 *   sframe check F         exits 0.
 * The same for the hand-built sections of fixtures/handmade (dump and check;
 * NAME.check, when present, is the problem check must report instead). For
 * the v1/v2 relocatable objects, binutils' own dumps (F.objdump-2.40,
 * F.objdump-2.47) differ from the tool's in exactly the functions'
 * addresses (see test_objdump_o()).
 * Usage: test_fixtures SFRAME_TOOL FIXTURES_DIR
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tool_run.h"

static const char *tool;

enum kind { DUMP, LOOKUP, CHECK, OBJDUMP_O };

struct fixture {
	char path[1024];
	enum kind kind;
	char vaddr[32];		/* raw sections: --vaddr for the dump; "" for ELF files */
	const char *binutils;	/* OBJDUMP_O: "2.40" or "2.47", F.objdump-<that> */
};

/* ELF fixtures are used as they are; hand-built ones are NAME.sframe. */
static void input_path(const struct fixture *fx, char *buf, size_t size)
{
	if (snprintf(buf, size, "%s%s", fx->path, fx->vaddr[0] ? ".sframe" : "") >= (int)size)
		fail_msg("path too long: %s", fx->path);
}

static void report_first_diff(const char *got, const char *want)
{
	int line = 1;
	const char *g = got, *w = want;

	while (*g && *g == *w) {
		if (*g == '\n')
			line++;
		g++;
		w++;
	}
	while (g > got && g[-1] != '\n')
		g--;
	while (w > want && w[-1] != '\n')
		w--;
	print_error("first difference at line %d:\n  got:  %.*s\n  want: %.*s\n", line,
		    (int)strcspn(g, "\n"), g, (int)strcspn(w, "\n"), w);
}

static void test_dump(void **state)
{
	const struct fixture *fx = *state;
	char exp_path[1100];
	char input[1100];
	char *argv[] = { (char *)tool, "dump", input, NULL, NULL, NULL };
	size_t got_len, want_len;
	int status;
	char *got, *want;

	input_path(fx, input, sizeof(input));
	if (fx->vaddr[0]) {
		argv[3] = "--vaddr";
		argv[4] = (char *)fx->vaddr;
	}
	snprintf(exp_path, sizeof(exp_path), "%s.objdump", fx->path);
	want = tu_read_file(exp_path, &want_len);
	assert_non_null(want);
	got = tu_run(argv, NULL, 1, &got_len, &status);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	if (got_len != want_len || memcmp(got, want, want_len) != 0) {
		report_first_diff(got, want);
		fail_msg("dump of %s differs from binutils", fx->path);
	}
	free(got);
	free(want);
}

static void test_lookup(void **state)
{
	const struct fixture *fx = *state;
	char pcs[1100], exp_path[1100];
	char *argv[] = { (char *)tool, "lookup", (char *)fx->path, NULL };
	size_t got_len, want_len, checked = 0;
	int status, lineno = 0;
	char *got, *want, *gs, *ws, *gl, *wl;

	snprintf(pcs, sizeof(pcs), "%s.pcs", fx->path);
	snprintf(exp_path, sizeof(exp_path), "%s.lookup", fx->path);
	want = tu_read_file(exp_path, &want_len);
	assert_non_null(want);
	got = tu_run(argv, pcs, 1, &got_len, &status);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	gl = strtok_r(got, "\n", &gs);
	wl = strtok_r(want, "\n", &ws);
	while (wl) {
		lineno++;
		if (!gl)
			fail_msg("%s: output ends before expected line %d: %s", fx->path, lineno, wl);
		/* The PC column must agree even where the answer is undefined. */
		if (strlen(wl) > 2 && strcmp(wl + strlen(wl) - 2, " ?") == 0) {
			assert_int_equal(strncmp(gl, wl, strlen(wl) - 1), 0);
		} else {
			if (strcmp(gl, wl) != 0)
				fail_msg("%s line %d:\n  got:  %s\n  want: %s", fx->path, lineno, gl, wl);
			checked++;
		}
		gl = strtok_r(NULL, "\n", &gs);
		wl = strtok_r(NULL, "\n", &ws);
	}
	if (gl)
		fail_msg("%s: extra output line: %s", fx->path, gl);
	assert_true(checked > 0);
	free(got);
	free(want);
}

/*
 * sframe check accepts the section; or, for a hand-built section with a
 * NAME.check file (rows the library refuses but objdump prints), exits 1
 * naming the problem that file states.
 */
static void test_check(void **state)
{
	const struct fixture *fx = *state;
	char input[1100], check_path[1100];
	char *argv[] = { (char *)tool, "check", input, NULL };
	size_t len, want_len;
	int status;
	char *out, *want = NULL;

	input_path(fx, input, sizeof(input));
	if (fx->vaddr[0]) {
		snprintf(check_path, sizeof(check_path), "%s.check", fx->path);
		want = tu_read_file(check_path, &want_len);
	}
	out = tu_run(argv, NULL, want ? 2 : 1, &len, &status);

	assert_true(WIFEXITED(status));
	if (want) {
		want[strcspn(want, "\n")] = '\0';
		if (WEXITSTATUS(status) != 1 || !strstr(out, want))
			fail_msg("sframe check %s exited %d: %s\nexpected 1 and: %s", fx->path,
				 WEXITSTATUS(status), out, want);
	} else if (WEXITSTATUS(status) != 0) {
		fail_msg("sframe check %s exited %d: %s", fx->path, WEXITSTATUS(status), out);
	}
	free(want);
	free(out);
}

/* ---- Relocatable v1/v2 objects: where the dump differs from objdump's ---- */

/* Byte @off of the raw section, or fail. */
static uint64_t raw_uint(const uint8_t *raw, size_t len, size_t off, size_t width, bool be)
{
	uint64_t v = 0;
	size_t i;

	if (off > len || width > len - off)
		fail_msg("section field at %zu past its end (%zu bytes)", off, len);
	for (i = 0; i < width; i++)
		v |= (uint64_t)raw[off + i] << (8 * (be ? width - 1 - i : i));
	return v;
}

/* The next line of *@text (without its newline) into @line; false at the end. */
static bool next_line(const char **text, char *line, size_t size)
{
	size_t len = strcspn(*text, "\n");

	if (!**text)
		return false;
	if (len >= size)
		fail_msg("line too long: %.40s", *text);
	memcpy(line, *text, len);
	line[len] = '\0';
	*text += len + ((*text)[len] == '\n');
	return true;
}

/* A row line: "    " and 16 hex digits, then the columns at 22. */
static bool row_line(const char *line, uint64_t *addr)
{
	char *end;

	if (strncmp(line, "    ", 4) != 0 || strlen(line) < 22 || line[20] != ' ')
		return false;
	*addr = strtoull(line + 4, &end, 16);
	return end == line + 20;
}

/*
 * gas writes the FDE start of a v1 or v2 relocatable object as a
 * PC-relative relocation against the field itself, and no v1/v2 header flag
 * says so (v3, and v2 with SFRAME_F_FDE_FUNC_START_PCREL, do). sframe dump
 * applies it and reads it as PC-relative: every function at its offset in
 * its section, F.objdump (as objdump 2.47 prints v3 objects). binutils'
 * objdump reads the field as section-relative, so each "func idx" line's pc,
 * and each PCINC row's STARTPC (function start + row offset), is:
 *   2.40 (F.objdump-2.40, v1): the field unrelocated: its stored value (0,
 *        the addend being in .rela.sframe);
 *   2.47 (F.objdump-2.47, v2): the field relocated, S + A - P: the
 *        function's offset minus P, the field's own offset in .sframe.
 * Everything else is the same but for binutils 2.40's layout of amd64's
 * fixed RA offset: no "CFA fixed RA offset" line, "u" instead of "f" in the
 * RA column (src/tool/README.md: the dump prints v1 in the later layout).
 */
static void test_objdump_o(void **state)
{
	const struct fixture *fx = *state;
	char *argv[] = { (char *)tool, "dump", (char *)fx->path, NULL };
	char path[1100], ol[256], tl[256];
	bool v247 = strcmp(fx->binutils, "2.47") == 0, be, fixed_ra = false, pcmask = false;
	uint64_t fde_start, ours_pc = 0, theirs_pc = 0, oa, ta;
	size_t raw_len, len, fde_size, funcs = 0, rows = 0, moved = 0;
	const char *o, *t;
	char *ours, *theirs;
	uint8_t *raw;
	int status;

	snprintf(path, sizeof(path), "%s.objdump-%s", fx->path, fx->binutils);
	theirs = tu_read_file(path, &len);
	assert_non_null(theirs);
	snprintf(path, sizeof(path), "%s.sframe", fx->path);
	raw = (uint8_t *)tu_read_file(path, &raw_len);
	assert_non_null(raw);
	ours = tu_run(argv, NULL, 1, &len, &status);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	/* The FDE area: header (28) + auxiliary header + fde_off; 17 or 20 bytes each. */
	be = raw_uint(raw, raw_len, 0, 2, false) == 0xe2de;
	assert_true(raw[2] == 1 || raw[2] == 2);
	assert_int_equal(raw[2] == 2, v247);
	fde_start = 28 + raw[7] + raw_uint(raw, raw_len, 20, 4, be);
	fde_size = raw[2] == 1 ? 17 : 20;

	o = ours;
	t = theirs;
	while (next_line(&o, ol, sizeof(ol))) {
		unsigned idx;
		uint64_t field_off, want;
		int32_t stored;
		const char *ot, *tt;

		if (strncmp(ol, "    CFA fixed RA offset: ", 25) == 0 && !v247 &&
		    strncmp(t, ol, strlen(ol)) != 0) {
			fixed_ra = true;	/* 2.40's layout: no such line */
			continue;
		}
		assert_true(next_line(&t, tl, sizeof(tl)));
		if (sscanf(ol, "    func idx [%u]: pc = 0x%" SCNx64, &idx, &ours_pc) == 2) {
			assert_int_equal(sscanf(tl, "    func idx [%u]: pc = 0x%" SCNx64, &idx,
						&theirs_pc), 2);
			field_off = fde_start + (uint64_t)idx * fde_size;
			stored = (int32_t)(uint32_t)raw_uint(raw, raw_len, field_off, 4, be);
			want = v247 ? ours_pc - field_off : (uint64_t)(int64_t)stored;
			if (theirs_pc != want)
				fail_msg("%s FDE %u: objdump %s pc 0x%" PRIx64 ", expected 0x%" PRIx64
					 " from ours 0x%" PRIx64, fx->path, idx, fx->binutils,
					 theirs_pc, want, ours_pc);
			ot = strstr(ol, ", size");
			tt = strstr(tl, ", size");
			assert_non_null(ot);
			assert_non_null(tt);
			assert_string_equal(tt, ot);
			funcs++;
			moved += theirs_pc != ours_pc;
			continue;
		}
		if (strncmp(ol, "    STARTPC", 11) == 0)
			pcmask = strstr(ol, "[m]") != NULL;
		if (row_line(ol, &oa)) {
			assert_true(row_line(tl, &ta));
			/* PCINC rows show the function's start plus the row's offset. */
			assert_int_equal(ta, pcmask ? oa : oa - ours_pc + theirs_pc);
			if (fixed_ra && strlen(ol) > 42 && ol[42] == 'f' && tl[42] == 'u')
				tl[42] = 'f';
			assert_string_equal(tl + 20, ol + 20);
			rows++;
			continue;
		}
		assert_string_equal(tl, ol);
	}
	assert_false(next_line(&t, tl, sizeof(tl)));
	/* Each object has functions, and objdump shows some elsewhere. */
	assert_true(funcs > 0 && rows >= funcs && moved > 0);
	free(ours);
	free(theirs);
	free(raw);
}

static size_t count_lines_with(const char *text, const char *needle)
{
	size_t n = 0;
	const char *line = text;

	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		const char *hit = memmem(line, len, needle, strlen(needle));

		if (hit)
			n++;
		line += len + (nl ? 1 : 0);
	}
	return n;
}

/*
 * sframe unwind on real snapshots: every sample of v3-s390x and v3-aarch64
 * (big-endian target; PAuth-signed return addresses) is walked down to main,
 * where the walk stops at main's caller, which has no SFrame.
 */
static void test_unwind_tool(void **state)
{
	const char *fixtures = *state;
	static const char *const combos[] = { "v3-s390x", "v3-aarch64" };
	char exe[1100], snap[1100];
	size_t len, i;
	int status;

	for (i = 0; i < 2; i++) {
		char *argv[] = { (char *)tool, "unwind", "--elf", exe, snap, NULL };
		char *out;

		snprintf(exe, sizeof(exe), "%s/unwind/%s/unwind", fixtures, combos[i]);
		snprintf(snap, sizeof(snap), "%s/unwind/%s/unwind.snap", fixtures, combos[i]);
		out = tu_run(argv, NULL, 1, &len, &status);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
		assert_int_equal(count_lines_with(out, "sample "), 2000);
		assert_int_equal(count_lines_with(out, " main+"), 2000);
		assert_int_equal(count_lines_with(out, "  stop: no SFrame row for "), 2000);
		assert_int_equal(count_lines_with(out, "  #0 "), 2000);
		free(out);
	}
}

/* --help succeeds; usage errors exit 2; a missing file exits 2. */
static void test_cli_errors(void **state)
{
	char *help[] = { (char *)tool, "--help", NULL };
	char *bad_cmd[] = { (char *)tool, "frobnicate", "x", NULL };
	char *no_file[] = { (char *)tool, "dump", NULL };
	char *missing[] = { (char *)tool, "check", "/nonexistent/sframe/file", NULL };
	char *bad_pc[] = { (char *)tool, "lookup", (char *)*state, "0xzz", NULL };
	size_t len;
	int status;
	char *out;

	out = tu_run(help, NULL, 1, &len, &status);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_non_null(strstr(out, "Usage: sframe"));
	free(out);
	free(tu_run(bad_cmd, NULL, 1, &len, &status));
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 2);
	free(tu_run(no_file, NULL, 1, &len, &status));
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 2);
	free(tu_run(missing, NULL, 1, &len, &status));
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 2);
	free(tu_run(bad_pc, NULL, 1, &len, &status));
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 2);
}

static int exists(const char *dir, const char *name, const char *suffix)
{
	char p[1100];
	struct stat st;

	if (snprintf(p, sizeof(p), "%s/%s%s", dir, name, suffix) >= (int)sizeof(p))
		return 0;
	return stat(p, &st) == 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	static const char *const files[] = { "exe", "lib.so", "frames.o", "cfi.o", "omitfp.o" };
	static struct fixture fx[256];
	static struct CMUnitTest tests[256];
	static char names[256][1100];
	char *dirs[64];
	size_t ndirs = 0, n = 0, i, j;
	int ret;
	struct dirent *de;
	DIR *d;

	if (argc != 3) {
		fprintf(stderr, "usage: %s SFRAME_TOOL FIXTURES_DIR\n", argv[0]);
		return 2;
	}
	tool = argv[1];
	d = opendir(argv[2]);
	if (!d) {
		perror(argv[2]);
		return 2;
	}
	while ((de = readdir(d)) && ndirs < 64)
		if (de->d_name[0] == 'v' && strchr(de->d_name, '-'))
			dirs[ndirs++] = strdup(de->d_name);
	closedir(d);
	qsort(dirs, ndirs, sizeof(dirs[0]), cmp_names);

	for (i = 0; i < ndirs; i++) {
		char dir[600];

		if (snprintf(dir, sizeof(dir), "%s/%s", argv[2], dirs[i]) >= (int)sizeof(dir))
			continue;
		for (j = 0; j < sizeof(files) / sizeof(files[0]); j++) {
			static const char *const kinds[] = { "dump", "lookup", "check" };
			int k;

			if (!exists(dir, files[j], ""))
				continue;
			for (k = DUMP; k <= CHECK; k++) {
				if (k == DUMP && !exists(dir, files[j], ".objdump"))
					continue;
				if (k == LOOKUP && !exists(dir, files[j], ".pcs"))
					continue;
				if (n == 256)
					break;
				if (snprintf(fx[n].path, sizeof(fx[n].path), "%s/%s", dir,
					     files[j]) >= (int)sizeof(fx[n].path) ||
				    snprintf(names[n], sizeof(names[n]), "%s %s/%s", kinds[k],
					     dirs[i], files[j]) >= (int)sizeof(names[n]))
					continue;
				fx[n].kind = (enum kind)k;
				tests[n].name = names[n];
				tests[n].test_func = k == DUMP ? test_dump : k == LOOKUP ? test_lookup : test_check;
				tests[n].setup_func = NULL;
				tests[n].teardown_func = NULL;
				tests[n].initial_state = &fx[n];
				n++;
			}
		}
	}
	/* v1/v2 objects with binutils' own dumps. */
	for (i = 0; i < ndirs; i++) {
		static const char *const objs[] = { "frames.o", "cfi.o" };
		static const char *const versions[] = { "2.40", "2.47" };
		char dir[600];
		size_t v;

		if (snprintf(dir, sizeof(dir), "%s/%s", argv[2], dirs[i]) >= (int)sizeof(dir))
			continue;
		for (j = 0; j < 2; j++) {
			for (v = 0; v < 2; v++) {
				char suffix[32];

				snprintf(suffix, sizeof(suffix), ".objdump-%s", versions[v]);
				if (!exists(dir, objs[j], suffix) || n == 256)
					continue;
				if (snprintf(fx[n].path, sizeof(fx[n].path), "%s/%s", dir,
					     objs[j]) >= (int)sizeof(fx[n].path) ||
				    snprintf(names[n], sizeof(names[n]), "objdump %s of %s/%s",
					     versions[v], dirs[i], objs[j]) >= (int)sizeof(names[n]))
					continue;
				fx[n].kind = OBJDUMP_O;
				fx[n].binutils = versions[v];
				tests[n].name = names[n];
				tests[n].test_func = test_objdump_o;
				tests[n].setup_func = NULL;
				tests[n].teardown_func = NULL;
				tests[n].initial_state = &fx[n];
				n++;
			}
		}
	}
	if (n == 0) {
		fprintf(stderr, "no fixtures found in %s\n", argv[2]);
		for (i = 0; i < ndirs; i++)
			free(dirs[i]);
		return 1;
	}
	/* Hand-built sections: raw files with their dump address. */
	{
		char dir[1100];

		snprintf(dir, sizeof(dir), "%s/handmade", argv[2]);
		d = opendir(dir);
		while (d && (de = readdir(d)) && n + 2 < 254) {
			size_t len = strlen(de->d_name);
			char addr_path[1200];
			FILE *af;
			int k;

			if (len < 8 || strcmp(de->d_name + len - 7, ".sframe") != 0)
				continue;
			for (k = DUMP; k <= CHECK; k += CHECK - DUMP) {
				if (snprintf(fx[n].path, sizeof(fx[n].path), "%s/%.*s", dir,
					     (int)(len - 7), de->d_name) >= (int)sizeof(fx[n].path))
					continue;
				snprintf(addr_path, sizeof(addr_path), "%s.addr", fx[n].path);
				af = fopen(addr_path, "r");
				if (!af || !fgets(fx[n].vaddr, sizeof(fx[n].vaddr), af)) {
					if (af)
						fclose(af);
					continue;
				}
				fclose(af);
				fx[n].vaddr[strcspn(fx[n].vaddr, "\n")] = 0;
				/* The file itself is NAME.sframe; expected output NAME.objdump. */
				snprintf(names[n], sizeof(names[n]), "%s handmade/%s",
					 k == DUMP ? "dump" : "check", de->d_name);
				fx[n].kind = (enum kind)k;
				tests[n].name = names[n];
				tests[n].test_func = k == DUMP ? test_dump : test_check;
				tests[n].setup_func = NULL;
				tests[n].teardown_func = NULL;
				tests[n].initial_state = &fx[n];
				n++;
			}
		}
		if (d)
			closedir(d);
	}
	if (n + 2 <= 256) {
		static char lib[1100];

		snprintf(lib, sizeof(lib), "%s/v3-x86_64/lib.so", argv[2]);
		tests[n].name = "sframe unwind on snapshots";
		tests[n].test_func = test_unwind_tool;
		tests[n].setup_func = NULL;
		tests[n].teardown_func = NULL;
		tests[n].initial_state = argv[2];
		n++;
		tests[n].name = "command-line errors";
		tests[n].test_func = test_cli_errors;
		tests[n].setup_func = NULL;
		tests[n].teardown_func = NULL;
		tests[n].initial_state = lib;
		n++;
	}
	ret = _cmocka_run_group_tests("fixtures", tests, n, NULL, NULL);
	for (i = 0; i < ndirs; i++)
		free(dirs[i]);
	return ret;
}
