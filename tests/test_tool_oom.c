/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_tool_oom.c - running out of memory while opening the parts of an
 * LLVM lld section (src/tool/read/parts.c, built for this test with its
 * malloc/calloc/realloc renamed to the counting ones below) is out of
 * memory for the tool's loaders too: never a file with bad content (exit
 * 1), nor one quietly without SFrame.
 *
 * For k = 1, 2, ... the k-th allocation of parts.c fails, until a load
 * makes fewer than k:
 *   - sf_target_load() (sframe unwind) fails with SF_INPUT_EIO, "out of
 *     memory" (exit 2, like its other allocations);
 *   - sf_proc_modules_build() (sframe stack), over one mapping of the
 *     file's code, fails with "out of memory".
 * The message of a failed sf_parts_open() is sf_parts_error()'s, which
 * sframe dump, lookup and check print as well.
 *
 * Usage: test_tool_oom FIXTURES_DIR
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "read/proc_maps.h"
#include "target/unwind_target.h"

static char exe[PATH_MAX];

/* parts.c's allocations: the fail_at-th fails (0: none); how many were asked. */
static unsigned long calls, fail_at;
static int failed;

static int should_fail(void)
{
	if (++calls != fail_at)
		return 0;
	failed = 1;
	return 1;
}

void *tp_malloc(size_t n);
void *tp_calloc(size_t n, size_t size);
void *tp_realloc(void *p, size_t n);

void *tp_malloc(size_t n)
{
	return should_fail() ? NULL : malloc(n);
}

void *tp_calloc(size_t n, size_t size)
{
	return should_fail() ? NULL : calloc(n, size);
}

void *tp_realloc(void *p, size_t n)
{
	return should_fail() ? NULL : realloc(p, n);
}

static void arm(unsigned long k)
{
	calls = 0;
	fail_at = k;
	failed = 0;
}

static void test_target_load(void **state)
{
	struct sf_target t;
	char err[512];
	unsigned long k, total;
	int r;

	(void)state;
	arm(0);
	r = sf_target_load(exe, NULL, &t, err, sizeof(err));
	if (r)
		fail_msg("%s", err);
	assert_true(t.parts.n > 1);	/* lld's run of sections */
	sf_target_free(&t);
	total = calls;
	assert_true(total > 0);
	for (k = 1; k <= total; k++) {
		arm(k);
		r = sf_target_load(exe, NULL, &t, err, sizeof(err));
		assert_true(failed);
		if (r != SF_INPUT_EIO || !strstr(err, ": out of memory"))
			fail_msg("allocation %lu of %lu failed: status %d, %s", k, total, r,
				 r ? err : "loaded");
	}
}

static int no_read(void *ctx, uint64_t addr, void *dst, size_t len)
{
	(void)ctx;
	(void)addr;
	(void)dst;
	(void)len;
	return -SFRAME_ERR_READ;
}

static void test_proc_modules(void **state)
{
	struct sf_map m = { 0x10000000, 0x10002000, 0, 0, "", "r-xp", exe };
	struct sf_maps maps = { &m, 1 };
	struct sf_proc_modules pm;
	const struct sf_proc_image *img;
	char err[256];
	unsigned long k, total;
	struct stat st;
	int r;

	(void)state;
	/* The mapping names the file's device and inode, as maps does (they are checked). */
	assert_int_equal(stat(exe, &st), 0);
	m.inode = (uint64_t)st.st_ino;
	snprintf(m.dev, sizeof(m.dev), "%02x:%02x", major(st.st_dev), minor(st.st_dev));
	arm(0);
	r = sf_proc_modules_build(getpid(), &maps, SFRAME_ABI_AMD64_LE, NULL, no_read, NULL, &pm, err,
				  sizeof(err));
	if (r)
		fail_msg("%s", err);
	img = sf_proc_image_at(&pm, m.start);
	assert_non_null(img);
	if (!img->has_sec)
		fail_msg("the mapping of %s has no SFrame: %s", exe, img->file->why);
	assert_true(img->parts.n > 1);
	sf_proc_modules_free(&pm);
	total = calls;
	assert_true(total > 0);
	for (k = 1; k <= total; k++) {
		arm(k);
		r = sf_proc_modules_build(getpid(), &maps, SFRAME_ABI_AMD64_LE, NULL, no_read, NULL, &pm,
					  err, sizeof(err));
		assert_true(failed);
		if (r != -1 || strcmp(err, "out of memory") != 0)
			fail_msg("allocation %lu of %lu failed: status %d, %s", k, total, r,
				 r ? err : "built");
		sf_proc_modules_free(&pm);
	}
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_target_load),
		cmocka_unit_test(test_proc_modules),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s FIXTURES_DIR\n", argv[0]);
		return 2;
	}
	/* An absolute path: the process maps its files so. */
	if (!realpath(argv[1], exe) || strlen(exe) + sizeof("/lld-x86_64/exe") > sizeof(exe)) {
		perror(argv[1]);
		return 2;
	}
	strcat(exe, "/lld-x86_64/exe");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
