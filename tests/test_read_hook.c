/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_read_hook.c - the core built with an env header that defines
 * SFRAME_READ_HOOK (tests/read_hook_env.h): sections opened over a callback
 * are read through the hook, never through the callback, with the same
 * results.
 *
 * Every PC of the fixtures' .lookup files (the answers taken from binutils'
 * dumps, see fixtures/README.md) is looked up in the section opened over
 * the callback, so read through the hook, and in the same bytes in memory,
 * which this build reads as the default build does (with loads, no hook,
 * no callback). Both answers must be the same, field for field, and the
 * function start and row offset those of the .lookup file. The hook's
 * errors come back as a callback's would.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <sframe/sframe.h>

#include "tool_run.h"

#ifndef SFRAME_READ_HOOK
#error "build with -DSFRAME_ENV_HEADER='\"read_hook_env.h\"'"
#endif

/* The hook the core calls (read_hook_env.h); byte by byte, like a user copy. */
int read_hook_load(void *ctx, uint64_t addr, void *dst, size_t len)
{
	struct read_hook_src *s = (struct read_hook_src *)ctx;
	uint8_t *d = (uint8_t *)dst;
	size_t i;

	if (++s->calls == s->fail_at)
		return s->fail_ret;
	/* The core promises a range inside the section: hold it to that. */
	if (addr < s->base || addr - s->base > s->size || len > s->size - (addr - s->base))
		return READ_HOOK_OUTSIDE;
	for (i = 0; i < len; i++)
		d[i] = s->data[addr - s->base + i];
	return 0;
}

static const char *fixtures;
static unsigned long callback_calls;

/* The section's callback: with the hook in place, never called. */
static int callback(void *ctx, uint64_t addr, void *dst, size_t len)
{
	(void)ctx;
	(void)addr;
	(void)dst;
	(void)len;
	callback_calls++;
	return -SFRAME_ERR_READ;
}

/* Callback addresses: not the section offsets, so that base is added. */
#define BASE 0x10000u

struct fixture {
	char *bytes;
	size_t size;
	uint64_t vaddr;
	char *lookup;
	struct read_hook_src src;
	struct sframe_section sec;	/* over the callback: read by the hook */
	struct sframe_section msec;	/* in memory */
	struct sframe_buffer mbuf;
};

static void fixture_open(struct fixture *f, const char *name)
{
	char path[512];
	char *addr;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s.sframe", fixtures, name);
	f->bytes = tu_read_file(path, &f->size);
	assert_non_null(f->bytes);
	snprintf(path, sizeof(path), "%s/%s.addr", fixtures, name);
	addr = tu_read_file(path, &len);
	assert_non_null(addr);
	f->vaddr = strtoull(addr, NULL, 16);
	free(addr);
	snprintf(path, sizeof(path), "%s/%s.lookup", fixtures, name);
	f->lookup = tu_read_file(path, &len);
	assert_non_null(f->lookup);

	memset(&f->src, 0, sizeof(f->src));
	f->src.data = (const uint8_t *)f->bytes;
	f->src.base = BASE;
	f->src.size = f->size;
	assert_int_equal(sframe_open(&f->sec, callback, &f->src, BASE, f->size, f->vaddr), 0);
	assert_int_equal(sframe_open_buffer(&f->msec, &f->mbuf, f->bytes, f->size, f->vaddr), 0);
	assert_null(f->sec.data);
	assert_non_null(f->msec.data);
}

static void fixture_close(struct fixture *f)
{
	free(f->bytes);
	free(f->lookup);
}

static void rows_equal(const struct sframe_row *a, const struct sframe_row *b)
{
	const struct sframe_loc *la[2] = { &a->rules.ra, &a->rules.fp };
	const struct sframe_loc *lb[2] = { &b->rules.ra, &b->rules.fp };
	unsigned int i;

	assert_int_equal(a->fde.index, b->fde.index);
	assert_int_equal(a->fde.func_start, b->fde.func_start);
	assert_int_equal(a->fde.func_size, b->fde.func_size);
	assert_int_equal(a->fde.fres_off, b->fde.fres_off);
	assert_int_equal(a->fde.info, b->fde.info);
	assert_int_equal(a->fre.start, b->fre.start);
	assert_int_equal(a->fre.info, b->fre.info);
	assert_int_equal(a->fre.num_words, b->fre.num_words);
	for (i = 0; i < a->fre.num_words; i++)
		assert_int_equal(a->fre.words[i], b->fre.words[i]);
	assert_int_equal(a->rules.cfa.reg, b->rules.cfa.reg);
	assert_int_equal(a->rules.cfa.offset, b->rules.cfa.offset);
	assert_int_equal(a->rules.cfa.deref, b->rules.cfa.deref);
	assert_int_equal(a->rules.ra_undefined, b->rules.ra_undefined);
	assert_int_equal(a->rules.ra_mangled, b->rules.ra_mangled);
	for (i = 0; i < 2; i++) {
		assert_int_equal(la[i]->kind, lb[i]->kind);
		assert_int_equal(la[i]->deref, lb[i]->deref);
		assert_int_equal(la[i]->reg, lb[i]->reg);
		assert_int_equal(la[i]->offset, lb[i]->offset);
	}
}

/* Every PC of @name's .lookup file; returns how many rows were found. */
static unsigned int lookups(const char *name)
{
	struct fixture f;
	unsigned int found = 0;
	char *line;

	fixture_open(&f, name);
	for (line = strtok(f.lookup, "\n"); line; line = strtok(NULL, "\n")) {
		struct sframe_row row, mrow;
		unsigned long before = f.src.calls;
		uint64_t pc, start, off;
		char *rest;
		int err;

		pc = strtoull(line, &rest, 16);
		err = sframe_lookup(&f.sec, pc, &row);
		assert_int_equal(sframe_lookup(&f.msec, pc, &mrow), err);
		/* Every lookup reads at least the FDE it searches. */
		assert_true(f.src.calls > before);
		if (err == 0)
			rows_equal(&row, &mrow);
		else if (err == -SFRAME_ERR_NOT_FOUND)
			assert_int_equal(mrow.fde.index, row.fde.index);
		if (strcmp(rest, " ?") == 0)
			continue;	/* v1 PCMASK: no expected answer */
		if (strcmp(rest, " -") == 0) {
			if (err != -SFRAME_ERR_NOT_FOUND)
				fail_msg("%s: 0x%" PRIx64 ": %s, expected no row", name, pc,
					 sframe_errname(err));
			continue;
		}
		start = strtoull(rest, &rest, 16);
		assert_true(rest[0] == ' ' && rest[1] == '+');
		off = strtoull(rest + 2, NULL, 16);
		if (err)
			fail_msg("%s: 0x%" PRIx64 ": %s", name, pc, sframe_errname(err));
		assert_int_equal(row.fde.func_start, start);
		assert_int_equal(row.fre.start, off);
		found++;
	}
	assert_int_equal(sframe_check(&f.sec, NULL), 0);
	assert_int_equal(callback_calls, 0);
	fixture_close(&f);
	return found;
}

static void test_lookups(void **state)
{
	static const char *const combos[] = { "v1-x86_64", "v2-x86_64", "v3-x86_64", "v1-aarch64",
					      "v2-aarch64", "v3-aarch64", "v3-s390x" };
	char name[64];
	unsigned int i, j;

	(void)state;
	for (i = 0; i < sizeof(combos) / sizeof(combos[0]); i++) {
		for (j = 0; j < 2; j++) {
			snprintf(name, sizeof(name), "%s/%s", combos[i], j ? "lib.so" : "exe");
			/* Each fixture has functions with rows (see fixtures/src). */
			assert_true(lookups(name) > 0);
		}
	}
}

/*
 * The hook's errors, at each of a lookup's reads in turn: a negative value
 * comes back unchanged, a positive one as -SFRAME_ERR_READ (as a callback's).
 */
static void test_hook_errors(void **state)
{
	static const int rets[] = { -14, 1 };
	struct fixture f;
	struct sframe_row row;
	unsigned long n, k;
	unsigned int i;
	char *l;
	uint64_t pc;

	(void)state;
	fixture_open(&f, "v3-x86_64/lib.so");
	/* The first PC with a row: the lookup reads the FDE, then its FREs. */
	for (l = f.lookup, pc = strtoull(l, NULL, 16); sframe_lookup(&f.msec, pc, &row) != 0;) {
		l = strchr(l, '\n');
		assert_non_null(l);
		pc = strtoull(++l, NULL, 16);
	}
	f.src.calls = 0;
	assert_int_equal(sframe_lookup(&f.sec, pc, &row), 0);
	n = f.src.calls;
	assert_true(n >= 2);
	for (i = 0; i < 2; i++) {
		f.src.fail_ret = rets[i];
		for (k = 1; k <= n; k++) {
			f.src.calls = 0;
			f.src.fail_at = k;
			assert_int_equal(sframe_lookup(&f.sec, pc, &row),
					 rets[i] < 0 ? rets[i] : -SFRAME_ERR_READ);
		}
	}
	assert_int_equal(callback_calls, 0);
	fixture_close(&f);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookups),
		cmocka_unit_test(test_hook_errors),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s FIXTURES_DIR\n", argv[0]);
		return 2;
	}
	fixtures = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
