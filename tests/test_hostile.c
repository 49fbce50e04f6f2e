/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_hostile.c - the hand-built hostile sections of fixtures/hostile/.
 *
 * For every line of fixtures/hostile/EXPECTED ("<name> <error> open" or
 * "<name> <error> check <fde|-> <fre|->"):
 *   - sframe_open() (through a reader that fails the test on any read
 *     outside the file) and sframe_open_buffer() return the error, or accept
 *     the header and sframe_check() returns it, at that FDE and FRE;
 *   - "sframe check FILE" exits 1 (0 for the valid bases) and names the
 *     error when the file is recognisably SFrame;
 *   - on sections that open, every FDE and FRE is iterated and PCs around
 *     every function are looked up with every read inside the section, each
 *     call returning success or a documented error.
 * And: EXPECTED lists every file of the directory and nothing else; every
 * section made by binutils (the .sframe files of the v1/v2/v3 fixture
 * folders and of the unwind fixtures) passes sframe_check() and
 * "sframe check".
 *
 * Usage: test_hostile SFRAME_TOOL FIXTURES_DIR
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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

#include "builder.h"
#include "lookup_errors.h"
#include "tool_run.h"

#define MAX_CASES 512

struct hostile {
	char name[128];
	char err[64];
	bool at_open;
	uint32_t fde, fre;
};

static const char *tool;
static const char *fixtures;
static struct hostile cases[MAX_CASES];
static size_t ncases;

/* Runs "TOOL check FILE"; returns its exit status and stderr (owned). */
static int run_check(const char *file, char **err_out)
{
	char *argv[] = { (char *)tool, "check", (char *)file, NULL };
	size_t len;
	int status;

	*err_out = tu_run(argv, NULL, 2, &len, &status);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* Iterate and look up everything; the reader fails the test on a stray read. */
static void exercise(const struct sframe_section *sec)
{
	struct sframe_fde fde;
	struct sframe_fre_iter it;
	struct sframe_fre fre;
	struct sframe_rules rules;
	struct sframe_row row;
	uint32_t i, j;
	int r;

	for (i = 0; i < sec->num_fdes && i < 1024; i++) {
		r = sframe_get_fde(sec, i, &fde);
		if (r) {
			assert_true(r == -SFRAME_ERR_FDE || r == -SFRAME_ERR_FRE_TYPE ||
				    r == -SFRAME_ERR_FDE_TYPE);
			continue;
		}
		assert_err(sframe_fre_iter_init(sec, &fde, &it), 0);
		for (j = 0; j <= fde.num_fres; j++) {
			r = sframe_fre_iter_next(sec, &it, &fre);
			if (r <= 0) {
				assert_true(r == 0 || r == -SFRAME_ERR_FRE ||
					    r == -SFRAME_ERR_WORD_SIZE || r == -SFRAME_ERR_WORDS);
				break;
			}
			r = sframe_fre_rules(sec, &fde, &fre, &rules);
			assert_true(r == 0 || r == -SFRAME_ERR_WORDS);
			r = sframe_lookup(sec, fde.func_start + fre.start, &row);
			assert_true(sfx_lookup_result(r));
		}
		{
			uint64_t pcs[4] = { fde.func_start, fde.func_start - 1,
					    fde.func_start + fde.func_size / 2,
					    fde.func_start + fde.func_size };

			for (j = 0; j < 4; j++) {
				r = sframe_lookup(sec, pcs[j], &row);
				assert_true(sfx_lookup_result(r));
			}
		}
	}
}

static void test_case(void **state)
{
	const struct hostile *h = *state;
	uint8_t *data;
	struct sframe_section sec;
	struct sframe_buffer buf;
	struct sframe_problem where;
	struct sfb_reader rd;
	char path[1024], *msg;
	size_t len;
	int r, status;

	snprintf(path, sizeof(path), "%s/hostile/%s.sframe", fixtures, h->name);
	data = (uint8_t *)tu_read_file(path, &len);
	assert_non_null(data);

	memset(&rd, 0, sizeof(rd));
	rd.data = data;
	rd.base = 0x10000;
	rd.size = len;
	r = sframe_open(&sec, sfb_read, &rd, rd.base, len, 0);
	assert_int_equal(sframe_open_buffer(&sec, &buf, data, len, 0), r);
	if (h->at_open) {
		assert_string_equal(sframe_errname(r), h->err);
	} else {
		assert_err(sframe_open(&sec, sfb_read, &rd, rd.base, len, 0), 0);
		memset(&where, 0x5a, sizeof(where));
		r = sframe_check(&sec, &where);
		if (strcmp(sframe_errname(r), h->err) != 0)
			fail_msg("%s: sframe_check() = %s, expected %s", h->name, sframe_errname(r),
				 h->err);
		if (r) {
			assert_int_equal(where.fde, h->fde);
			assert_int_equal(where.fre, h->fre);
		}
		exercise(&sec);
	}

	status = run_check(path, &msg);
	if (r == 0) {
		if (status != 0)
			fail_msg("sframe check %s exited %d: %s", path, status, msg);
	} else {
		if (status != 1)
			fail_msg("sframe check %s exited %d, expected 1: %s", path, status, msg);
		/* Files that start with the magic are SFrame to the tool: it names the error. */
		if (len >= 2 && ((data[0] == 0xe2 && data[1] == 0xde) ||
				 (data[0] == 0xde && data[1] == 0xe2)) && !strstr(msg, h->err))
			fail_msg("sframe check %s does not name %s: %s", path, h->err, msg);
		assert_true(strlen(msg) > 0);
	}
	free(msg);
	free(data);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* EXPECTED lists every .sframe file of the directory, and only those. */
static void test_expected_complete(void **state)
{
	char dir[1024], *names[MAX_CASES];
	struct dirent *de;
	size_t n = 0, i, j;
	DIR *d;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/hostile", fixtures);
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (de->d_name[0] == '.' || strcmp(de->d_name, "EXPECTED") == 0 ||
		    strcmp(de->d_name, "README.md") == 0)
			continue;
		if (l < 8 || strcmp(de->d_name + l - 7, ".sframe") != 0)
			fail_msg("unexpected file in %s: %s", dir, de->d_name);
		assert_true(n < MAX_CASES);
		names[n] = strndup(de->d_name, l - 7);
		assert_non_null(names[n]);
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_names);
	assert_int_equal(n, ncases);
	for (i = 0; i < n; i++) {
		for (j = 0; j < ncases; j++)
			if (strcmp(cases[j].name, names[i]) == 0)
				break;
		if (j == ncases)
			fail_msg("%s.sframe is not in EXPECTED", names[i]);
		free(names[i]);
	}
	/* The list, at least: every kind of damage is represented. */
	assert_true(ncases >= 100);
}

/* Every binutils-made section is valid, for the library and for the tool. */
static void test_binutils_valid(void **state)
{
	char dir[1024], path[1400], addrp[1400], *msg;
	struct sframe_section sec;
	struct sframe_problem where;
	struct sfb_reader rd;
	struct dirent *de, *fe;
	size_t len, checked = 0;
	DIR *d, *fd;
	int pass;

	(void)state;
	for (pass = 0; pass < 2; pass++) {
		snprintf(dir, sizeof(dir), "%s%s", fixtures, pass ? "/unwind" : "");
		d = opendir(dir);
		assert_non_null(d);
		while ((de = readdir(d))) {
			char sub[1200];

			if (de->d_name[0] != 'v' || !strchr(de->d_name, '-'))
				continue;
			if (snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name) >= (int)sizeof(sub))
				continue;
			fd = opendir(sub);
			assert_non_null(fd);
			while ((fe = readdir(fd))) {
				size_t l = strlen(fe->d_name);
				unsigned long long vaddr = 0;
				uint8_t *data;
				FILE *af;

				if (l < 8 || strcmp(fe->d_name + l - 7, ".sframe") != 0)
					continue;
				if (snprintf(path, sizeof(path), "%s/%s", sub, fe->d_name) >=
					    (int)sizeof(path) ||
				    snprintf(addrp, sizeof(addrp), "%s/%.*s.addr", sub, (int)(l - 7),
					     fe->d_name) >= (int)sizeof(addrp))
					fail_msg("path too long in %s", sub);
				af = fopen(addrp, "r");
				assert_non_null(af);
				assert_int_equal(fscanf(af, "%llx", &vaddr), 1);
				fclose(af);
				data = (uint8_t *)tu_read_file(path, &len);
				assert_non_null(data);
				memset(&rd, 0, sizeof(rd));
				rd.data = data;
				rd.base = 0;
				rd.size = len;
				assert_err(sframe_open(&sec, sfb_read, &rd, 0, len, vaddr), 0);
				if (sframe_check(&sec, &where) != 0)
					fail_msg("%s: sframe_check() rejects a binutils section", path);
				exercise(&sec);
				if (run_check(path, &msg) != 0)
					fail_msg("sframe check %s: %s", path, msg);
				free(msg);
				free(data);
				checked++;
			}
			closedir(fd);
		}
		closedir(d);
	}
	assert_true(checked >= 30);
}

static int load_expected(void)
{
	char path[1024], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/hostile/EXPECTED", fixtures);
	f = fopen(path, "r");
	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct hostile *h;
		char stage[16], fde[16], fre[16];
		int n;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (ncases == MAX_CASES) {
			fprintf(stderr, "%s: too many lines\n", path);
			fclose(f);
			return -1;
		}
		h = &cases[ncases];
		n = sscanf(line, "%127s %63s %15s %15s %15s", h->name, h->err, stage, fde, fre);
		h->at_open = n == 3 && strcmp(stage, "open") == 0;
		if (!h->at_open && !(n == 5 && strcmp(stage, "check") == 0)) {
			fprintf(stderr, "%s: bad line: %s", path, line);
			fclose(f);
			return -1;
		}
		if (!h->at_open) {
			h->fde = strcmp(fde, "-") ? (uint32_t)strtoul(fde, NULL, 10) : SFRAME_NO_INDEX;
			h->fre = strcmp(fre, "-") ? (uint32_t)strtoul(fre, NULL, 10) : SFRAME_NO_INDEX;
		}
		ncases++;
	}
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	static struct CMUnitTest tests[MAX_CASES + 2];
	size_t i, n = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: %s SFRAME_TOOL FIXTURES_DIR\n", argv[0]);
		return 2;
	}
	tool = argv[1];
	fixtures = argv[2];
	if (load_expected())
		return 1;
	tests[n++] = (struct CMUnitTest){ "EXPECTED lists every file", test_expected_complete,
					  NULL, NULL, NULL };
	tests[n++] = (struct CMUnitTest){ "binutils sections are valid", test_binutils_valid,
					  NULL, NULL, NULL };
	for (i = 0; i < ncases; i++)
		tests[n++] = (struct CMUnitTest){ cases[i].name, test_case, NULL, NULL, &cases[i] };
	return _cmocka_run_group_tests("hostile", tests, n, NULL, NULL);
}
