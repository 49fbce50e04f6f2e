/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * doc_examples.h - the example commands and outputs of the Markdown
 * documents (README.md, src/tool/README.md, ...) and of the manual page, for
 * the tests that run them.
 *
 * An example is marked, then shown as a block whose first line is the
 * command ("$ sframe ...") and whose other lines are its standard output:
 *
 *   *.md:       <!-- example -->, <!-- example in DIR -->, or
 *               <!-- example of a live process -->, then a code block
 *               (indented by four spaces, or fenced with ```);
 *   sframe.1:   .\" example, .\" example in DIR, or
 *               .\" example of a live process, then a .nf ... .fi block
 *               (roff escapes such as \- are undone; requests are skipped).
 *
 * DIR is relative to the source tree (where the command runs without one).
 * A line "..." in the output stands for any number of lines, so a block may
 * show the start of a long output, or an excerpt. Trailing blanks are not
 * compared (editors strip them; the dump's columns end with some).
 */
#ifndef SFRAME_TEST_DOC_EXAMPLES_H
#define SFRAME_TEST_DOC_EXAMPLES_H

#include <stdbool.h>
#include <stddef.h>

#define DOC_MAX_ARGS 16

struct doc_example {
	char where[256];	/* "FILE:LINE" of the marker, for messages */
	char dir[256];		/* "" or the DIR of "in DIR" */
	bool live;		/* "of a live process" */
	char *command;		/* the "$ " line without "$ " */
	char *argv[DOC_MAX_ARGS + 1];	/* its words; NULL-terminated */
	char **lines;		/* the expected output lines */
	size_t nlines;
};

/*
 * doc_examples_read() - every example marked in @path (a manual page when
 * its name ends in ".1", Markdown otherwise). Fails the test on a marker
 * without a block, a block without a "$ " line, and a block whose first
 * line is "$ sframe" that is not marked (an output nothing would check).
 * Returns their number; free them with doc_examples_free().
 */
size_t doc_examples_read(const char *path, struct doc_example **out);

void doc_examples_free(struct doc_example *v, size_t n);

/*
 * doc_unroff() - @in with the roff escapes a manual page's plain text uses
 * undone (\- \e \& \(aq and font changes) into @out; false on any other.
 */
bool doc_unroff(const char *in, char *out, size_t size);

/*
 * doc_lines_match() - does @text (lines ending in '\n') match the @nwant
 * lines of @want, "..." lines matching any run of lines? On a mismatch,
 * print what differs and the whole @text, headed by @where (unless NULL).
 */
bool doc_lines_match(char *const *want, size_t nwant, const char *text, const char *where);

#endif /* SFRAME_TEST_DOC_EXAMPLES_H */
