/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_symbols.c - the names the tool gives to addresses
 * (sf_elf_info_load() and sf_symbol_find(), src/tool/read/elf_input.c), against
 * what binutils, elfutils and gdb give on real files.
 *
 * Each fixture F listed below has F.names (made by
 * fixtures/make-symbol-fixtures.sh): "0x<address> <name>" lines, the name
 * as eu-stack prints it ("sym", "sym+0x<offset>", "??"), from objdump -d's
 * "<x@plt>" labels (the first byte and last instruction of each PLT entry),
 * from eu-addr2line -S (every function symbol's first and last byte, and
 * addresses past the last one), and for symbols/labels from eu-addr2line and
 * gdb at every address ("??" where they disagree). Every line must come out
 * the same here.
 *
 * Usage: test_symbols FIXTURES_DIR
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/elf_input.h"

static const char *fixtures;

/* Our answer for @addr, in eu-stack's form. */
static void our_name(const struct sf_elf_info *info, uint64_t addr, char *out, size_t len)
{
	const struct sf_symbol *s = sf_symbol_find(info, addr);

	if (!s)
		snprintf(out, len, "??");
	else if (addr == s->addr)
		snprintf(out, len, "%s", s->name);
	else
		snprintf(out, len, "%s+0x%" PRIx64, s->name, addr - s->addr);
}

struct counts {
	unsigned lines, plt, unnamed;
};

/* Check every line of F.names; fail on the first difference. */
static void check_file(const char *rel, struct counts *c)
{
	char path[PATH_MAX], names[PATH_MAX], err[512], line[1024];
	struct sf_elf_info info;
	struct sf_input in;
	FILE *f;

	assert_true((size_t)snprintf(path, sizeof(path), "%s/%s", fixtures, rel) < sizeof(path));
	assert_true((size_t)snprintf(names, sizeof(names), "%s.names", path) < sizeof(names));
	if (sf_input_load(path, 0, 0, &in, err, sizeof(err)) != SF_INPUT_OK)
		fail_msg("%s", err);
	if (sf_elf_info_load(&in, &info, err, sizeof(err)))
		fail_msg("%s", err);
	f = fopen(names, "r");
	if (!f)
		fail_msg("cannot open %s", names);
	while (fgets(line, sizeof(line), f)) {
		char want[512], got[512];
		unsigned long long addr;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%llx %511s", &addr, want) != 2)
			fail_msg("%s: malformed line '%s'", names, line);
		our_name(&info, addr, got, sizeof(got));
		if (strcmp(got, want) != 0)
			fail_msg("%s: 0x%llx is '%s', expected '%s'", rel, addr, got, want);
		c->lines++;
		c->plt += strstr(want, "@plt") != NULL;
		c->unnamed += strcmp(want, "??") == 0;
	}
	fclose(f);
	sf_elf_info_free(&info);
	sf_input_free(&in);
}

static const char *const dirs[] = { "v1-x86_64", "v1-aarch64", "v2-x86_64", "v2-aarch64",
				    "v3-x86_64", "v3-aarch64", "v3-s390x" };

/* check_file() on @file (a printf format for the directory) of every fixture directory. */
static void check_dirs(const char *file, struct counts *c)
{
	char rel[64];
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(rel, sizeof(rel), file, dirs[i]);
		check_file(rel, c);
	}
}

static void test_linked_fixtures(void **state)
{
	struct counts c = { 0 };

	(void)state;
	check_dirs("%s/exe", &c);
	check_dirs("%s/lib.so", &c);
	print_message("exe, lib.so: %u addresses (%u in PLT entries, %u unnamed)\n", c.lines,
		      c.plt, c.unnamed);
	/*
	 * objdump labels PLT entries in all of them (x86_64, aarch64, s390x);
	 * the far probe of each file is unnamed.
	 */
	assert_true(c.plt >= 2 * 14);
	assert_true(c.unnamed >= 14);
}

/*
 * Static executables: thousands of symbols (aliases, IFUNCs, assembly
 * without sizes); their IRELATIVE PLT entries have no name in objdump or
 * gdb, nor here.
 */
static void test_static_executables(void **state)
{
	struct counts c = { 0 };

	(void)state;
	check_dirs("unwind/%s/unwind", &c);
	print_message("static executables: %u addresses, %u unnamed\n", c.lines, c.unnamed);
	assert_int_equal(c.plt, 0);
	assert_true(c.lines > 7 * 1000);
}

/* .plt.sec (IBT), mark-plt addends, aarch64 BTI+PAC entries, s390x; IFUNCs. */
static void test_plt_layouts(void **state)
{
	static const char *const files[] = { "plt-x86_64-ibt", "plt-x86_64-mark-plt",
					     "plt-aarch64-bti-pac", "plt-s390x" };
	struct counts c = { 0 };
	char rel[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		unsigned before = c.plt;

		snprintf(rel, sizeof(rel), "symbols/%s", files[i]);
		check_file(rel, &c);
		/* Every file has its IRELATIVE entry and the C library's. */
		assert_true(c.plt - before >= 8);
	}
}

/* Sizes, gaps, sections: every address of symbols/labels. */
static void test_labels(void **state)
{
	struct counts c = { 0 };

	(void)state;
	check_file("symbols/labels", &c);
	assert_true(c.lines >= 36);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_plt_layouts),
		cmocka_unit_test(test_linked_fixtures),
		cmocka_unit_test(test_static_executables),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s FIXTURES_DIR\n", argv[0]);
		return 2;
	}
	fixtures = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
