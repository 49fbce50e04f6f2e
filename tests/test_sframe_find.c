/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_sframe_find.c - sf_sframe_find()'s conversion of a file without
 * SFrame (src/tool/sframe_find.c): the section it keeps is the one
 * sframe_convert_size() and sframe_convert() make of the same CFI, whether
 * its first buffer was enough (the build "sframe-find") or not (the build
 * "sframe-find-second-pass", whose first buffer is 1 byte); a side-car is
 * not looked for where none is, and --no-convert leaves the file alone.
 *
 * Usage: test_sframe_find FIXTURES_DIR
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfi_input.h"
#include "sframe_find.h"

static const char *fixtures;

/* Fixtures with .eh_frame of each machine; their own .sframe set aside. */
static const char *const files[] = {
	"unwind/v3-x86_64/unwind",
	"unwind/v3-aarch64/unwind",
	"unwind/v3-s390x/unwind",
	"v3-x86_64/lib.so",
};

static void expect_converted(const char *rel)
{
	struct sf_sframe_opts opts = { .ndirs = 0 };
	struct sf_sframe_found found;
	struct sf_cfi_input cfi;
	struct sf_input in;
	char path[1024], err[512];
	unsigned char *want;
	size_t size = 0, len = 0;

	snprintf(path, sizeof(path), "%s/%s", fixtures, rel);
	if (sf_input_bytes(path, &in, err, sizeof(err)))
		fail_msg("%s", err);
	/* The reference: the library's two calls. */
	if (sf_cfi_input_load(in.file, in.file_size, &cfi, path, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(sframe_convert_size(&cfi.conv, &size, NULL), 0);
	want = malloc(size);
	assert_non_null(want);
	assert_int_equal(sframe_convert(&cfi.conv, want, size, &len, NULL), 0);

	/* Without a section, with no side-car (a directory that has none). */
	opts.dirs[opts.ndirs++] = fixtures;
	assert_null(in.sec);
	assert_int_equal(sf_sframe_find(&opts, &in, path, false, &found), SF_SFRAME_CONVERTED);
	assert_non_null(in.sec);
	assert_ptr_equal(in.sec, in.owned_copy);
	assert_string_equal(in.how, "conversion");
	assert_int_equal(in.vaddr, cfi.conv.sframe_addr);
	assert_int_equal(in.sec_size, len);
	assert_memory_equal(in.sec, want, len);
	assert_true(found.stats.functions > 0);
	assert_string_equal(found.refused, "");
	sf_input_free(&in);
	sf_input_free(&found.sidecar);

	/* Put off, then done: the same. */
	if (sf_input_bytes(path, &in, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(sf_sframe_find(&opts, &in, path, true, &found), SF_SFRAME_NONE);
	assert_true(found.pending);
	assert_null(in.sec);
	assert_int_equal(sf_sframe_convert_now(&in, path, &found), SF_SFRAME_CONVERTED);
	assert_int_equal(in.sec_size, len);
	assert_memory_equal(in.sec, want, len);
	sf_input_free(&in);

	/* --no-convert: nothing. */
	if (sf_input_bytes(path, &in, err, sizeof(err)))
		fail_msg("%s", err);
	opts.no_convert = true;
	assert_int_equal(sf_sframe_find(&opts, &in, path, false, &found), SF_SFRAME_NONE);
	assert_null(in.sec);
	assert_non_null(strstr(found.why, "(--no-convert)"));
	sf_input_free(&in);

	free(want);
	sf_cfi_input_free(&cfi);
}

static void test_converted(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		expect_converted(files[i]);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_converted),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: test_sframe_find FIXTURES_DIR\n");
		return 2;
	}
	fixtures = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
