/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_doc_examples.c - every example output of the manual page and of the
 * tree's Markdown documents (README.md, and every other *.md below the
 * source root: src/tool/README.md, ...) is what the tool prints: each marked
 * example (doc_examples.h) is run on the bundled fixtures, and its output
 * compared with the one shown; a "$ sframe" block without a marker, in any
 * of them, fails. The examples of a live process are tests/test_stack.c's.
 *
 * When the tool's output changes on purpose, the failure prints the new
 * output: paste it into the example.
 *
 *   test_doc_examples SFRAME_TOOL SOURCE_ROOT MANPAGE
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "doc_examples.h"
#include "tool_run.h"

static const char *tool;
static const char *source_root;
static const char *manpage;

/* Run the examples of @path; returns how many ran (live ones are skipped). */
static size_t run_examples(const char *path)
{
	struct doc_example *ex;
	size_t n = doc_examples_read(path, &ex), i, ran = 0, failed = 0;

	for (i = 0; i < n; i++) {
		char *argv[DOC_MAX_ARGS + 1], dir[2048], *out;
		size_t len, k;
		int status;

		if (ex[i].live)
			continue;
		if (strcmp(ex[i].argv[0], "sframe") != 0)
			fail_msg("%s: not an sframe command: %s", ex[i].where, ex[i].command);
		argv[0] = (char *)tool;
		for (k = 1; ex[i].argv[k - 1]; k++)
			argv[k] = ex[i].argv[k];
		snprintf(dir, sizeof(dir), "%s/%s", source_root, ex[i].dir);
		if (chdir(dir) != 0)
			fail_msg("%s: no folder %s", ex[i].where, ex[i].dir);
		out = tu_run(argv, NULL, 1, &len, &status);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			print_error("%s: '%s' exited with status %d\n", ex[i].where, ex[i].command,
				    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
			failed++;
		} else if (!doc_lines_match(ex[i].lines, ex[i].nlines, out, ex[i].where)) {
			failed++;
		}
		free(out);
		ran++;
	}
	doc_examples_free(ex, n);
	if (failed)
		fail_msg("%s: %zu of %zu examples differ from the tool's output", path, failed, ran);
	return ran;
}

static void test_readme(void **state)
{
	char path[2048];

	(void)state;
	snprintf(path, sizeof(path), "%s/README.md", source_root);
	/* dump, lookup, check, unwind and perf, at least. */
	assert_true(run_examples(path) >= 5);
}

/*
 * Run the examples of every *.md below @dir but the top-level README.md
 * (test_readme's); folders whose names start with '.' and build folders
 * (those holding meson-private) are skipped. Adds to *@docs and *@ran.
 */
static void run_tree(const char *dir, size_t *docs, size_t *ran)
{
	char path[4096];
	struct dirent **names;
	struct stat st;
	int n, i;

	snprintf(path, sizeof(path), "%s/meson-private", dir);
	if (stat(path, &st) == 0)
		return;
	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		fail_msg("cannot read the folder %s", dir);
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		size_t len = strlen(name);

		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (name[0] != '.' && stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode)) {
				run_tree(path, docs, ran);
			} else if (S_ISREG(st.st_mode) && len > 3 &&
				   strcmp(name + len - 3, ".md") == 0 &&
				   strcmp(dir, source_root) != 0) {
				*ran += run_examples(path);
				(*docs)++;
			}
		}
		free(names[i]);
	}
	free(names);
}

static void test_other_documents(void **state)
{
	size_t docs = 0, ran = 0;

	(void)state;
	run_tree(source_root, &docs, &ran);
	/* src/tool/README.md's lookup, check, unwind and perf, at least. */
	assert_true(docs >= 8);
	assert_true(ran >= 4);
}

static void test_manual_page(void **state)
{
	(void)state;
	/* lookup, check, dump and unwind, at least. */
	assert_true(run_examples(manpage) >= 4);
}

/* The matching itself, on made-up lines: "..." and its limits. */
static void test_matching(void **state)
{
	static char *const exact[] = { "a", "b", NULL };
	static char *const head[] = { "a", "...", NULL };
	static char *const tail[] = { "...", "c", NULL };
	static char *const middle[] = { "a", "...", "c", "...", "e", NULL };
	static char *const inner[] = { "...", "b", "c", "...", NULL };
	static const struct {
		char *const *want;
		const char *got;
		bool match;
	} cases[] = {
		{ exact, "a\nb  \n", true },		/* trailing blanks aside */
		{ exact, "a\nb\nc\n", false },
		{ exact, "a\n", false },
		{ head, "a\nb\nc\n", true },
		{ head, "a\n", true },
		{ head, "b\na\n", false },
		{ tail, "a\nb\nc\n", true },
		{ tail, "c\nb\n", false },
		{ middle, "a\nb\nc\nd\ne\n", true },
		{ middle, "a\nc\ne\n", true },
		{ middle, "a\ne\nc\n", false },
		{ inner, "x\nb\nc\ny\n", true },
		{ inner, "x\nb\nx\nc\n", false },
	};
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (n = 0; cases[i].want[n]; n++)
			;
		if (doc_lines_match(cases[i].want, n, cases[i].got, NULL) != cases[i].match)
			fail_msg("case %zu: '%s' should %smatch", i, cases[i].got,
				 cases[i].match ? "" : "not ");
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matching),
		cmocka_unit_test(test_readme),
		cmocka_unit_test(test_other_documents),
		cmocka_unit_test(test_manual_page),
	};

	if (argc != 4) {
		fprintf(stderr, "usage: %s SFRAME_TOOL SOURCE_ROOT MANPAGE\n", argv[0]);
		return 2;
	}
	/* Examples run in their folders: every path must be absolute. */
	tool = realpath(argv[1], NULL);
	source_root = realpath(argv[2], NULL);
	manpage = realpath(argv[3], NULL);
	if (!tool || !source_root || !manpage) {
		perror("realpath");
		return 2;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
