/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_sframe_find.c - sf_sframe_find()'s conversion of a file without
 * SFrame (src/tool/read/sframe_find.c): the section it keeps is the one
 * sframe_convert_size() and sframe_convert() make of the same CFI, whether
 * its first buffer was enough (the build "sframe-find") or not (the build
 * "sframe-find-second-pass", whose first buffers are 1 byte); converted
 * function by function (sf_sframe_convert_pc()), each function has the
 * whole conversion's rows; a side-car is not looked for where none is, and
 * --no-convert leaves the file alone.
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

#include <sframe/sframe.h>

#include "read/cfi_input.h"
#include "read/sframe_find.h"

static const char *fixtures;
/* Files without and with .eh_frame_hdr were both seen. */
static bool has_hdr_or_not[2];

/* Fixtures with .eh_frame of each machine; their own .sframe set aside. */
static const char *const files[] = {
	"unwind/v3-x86_64/unwind",
	"unwind/v3-aarch64/unwind",
	"unwind/v3-s390x/unwind",
	"v3-x86_64/lib.so",
};

/* @in's section describes @f's function as @whole does: the same FDE and rows. */
static void expect_same_function(const struct sf_input *in, const struct sframe_section *whole,
				 const struct sframe_fde *f)
{
	struct sframe_section sec;
	struct sframe_buffer buf;
	struct sframe_fre_iter ia, ib;
	struct sframe_fre ra, rb;
	struct sframe_row row;
	int na, nb;

	assert_int_equal(sframe_open_buffer(&sec, &buf, in->sec, in->sec_size, in->vaddr), 0);
	assert_int_equal(sframe_lookup(&sec, f->func_start, &row), 0);
	assert_int_equal(row.fde.func_start, f->func_start);
	assert_int_equal(row.fde.func_size, f->func_size);
	assert_int_equal(row.fde.num_fres, f->num_fres);
	assert_int_equal(row.fde.info, f->info);
	assert_int_equal(row.fde.info2, f->info2);
	assert_int_equal(row.fde.rep_size, f->rep_size);
	assert_int_equal(sframe_fre_iter_init(&sec, &row.fde, &ia), 0);
	assert_int_equal(sframe_fre_iter_init(whole, f, &ib), 0);
	do {
		na = sframe_fre_iter_next(&sec, &ia, &ra);
		nb = sframe_fre_iter_next(whole, &ib, &rb);
		assert_int_equal(na, nb);
		if (na == 1) {
			assert_int_equal(ra.start, rb.start);
			assert_int_equal(ra.info, rb.info);
			assert_memory_equal(ra.words, rb.words, sizeof(ra.words));
		}
	} while (na == 1);
}

static void expect_converted(const char *rel)
{
	struct sf_sframe_opts opts = { .ndirs = 0 };
	struct sf_sframe_found found;
	struct sf_cfi_input cfi;
	struct sf_input in;
	struct sframe_section whole;
	struct sframe_buffer whole_buf;
	char path[1024], err[512];
	unsigned char *want;
	size_t size = 0, len = 0;
	uint32_t i;
	bool prev_pcmask = false;

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
	sf_sframe_found_free(&found);

	/*
	 * Put off, then done function by function, in the order a walk might
	 * ask (from the last function down): each address's function comes
	 * once, with the rows the whole conversion gives it; at the end every
	 * function is there.
	 */
	if (sf_input_bytes(path, &in, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(sf_sframe_find(&opts, &in, path, true, &found), SF_SFRAME_NONE);
	assert_true(found.pending);
	assert_null(in.sec);
	assert_int_equal(sframe_open_buffer(&whole, &whole_buf, want, len, cfi.conv.sframe_addr), 0);
	/* Without .eh_frame_hdr's table (a static program): the whole file, at once. */
	if (!cfi.eh_frame_hdr.data) {
		assert_int_equal(sf_sframe_convert_pc(&in, path, &found, cfi.text[0].start), 1);
		assert_false(found.by_function);
		assert_int_equal(in.sec_size, len);
		assert_memory_equal(in.sec, want, len);
		assert_int_equal(sf_sframe_convert_pc(&in, path, &found, cfi.text[0].start), 0);
		has_hdr_or_not[0] = true;
	} else {
		has_hdr_or_not[1] = true;
	}
	for (i = cfi.eh_frame_hdr.data ? whole.num_fdes : 0; i-- > 0;) {
		struct sframe_fde f;
		int r;

		assert_int_equal(sframe_get_fde(&whole, i, &f), 0);
		r = sf_sframe_convert_pc(&in, path, &found, f.func_start + f.func_size - 1);
		/* The x86-64 PLT: one DWARF FDE gives two functions, both at once. */
		assert_true(r == 1 || (r == 0 && f.pc_type == SFRAME_PC_TYPE_MASK) ||
			    (r == 0 && i + 1 < whole.num_fdes && prev_pcmask));
		prev_pcmask = f.pc_type == SFRAME_PC_TYPE_MASK;
		assert_true(found.by_function);
		assert_int_equal(found.from, SF_SFRAME_CONVERTED);
		assert_int_equal(sf_sframe_convert_pc(&in, path, &found, f.func_start), 0);
		assert_string_equal(in.how, "conversion");
		assert_ptr_equal(in.sec, in.owned_copy);
		expect_same_function(&in, &whole, &f);
	}
	assert_int_equal(found.stats.functions, whole.num_fdes);
	/* Below every function: no FDE, nothing new. */
	assert_int_equal(sf_sframe_convert_pc(&in, path, &found, 0), 0);
	sf_input_free(&in);
	sf_sframe_found_free(&found);

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
	assert_true(has_hdr_or_not[0] && has_hdr_or_not[1]);
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
