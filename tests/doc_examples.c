/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * doc_examples.c - see doc_examples.h.
 */
#define _GNU_SOURCE
#include "doc_examples.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tool_run.h"

/* @text cut into lines in place (at '\n'); a last line without one counts. */
static char **split_lines(char *text, size_t *n)
{
	size_t cap = 64;
	char **v = malloc(cap * sizeof(*v));
	char *p = text;

	assert_non_null(v);
	*n = 0;
	while (*p) {
		char *nl = strchr(p, '\n');

		if (*n == cap) {
			cap *= 2;
			v = realloc(v, cap * sizeof(*v));
			assert_non_null(v);
		}
		v[(*n)++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	return v;
}

static void rtrim(char *s)
{
	size_t len = strlen(s);

	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		s[--len] = '\0';
}

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* False on an escape not listed (so that none slips through unnoticed). */
bool doc_unroff(const char *in, char *out, size_t size)
{
	size_t n = 0;

	while (*in) {
		const char *rep = NULL;
		char one[2] = { *in, 0 };

		if (*in != '\\') {
			rep = one;
			in++;
		} else if (in[1] == '-' || in[1] == 'e') {
			rep = in[1] == '-' ? "-" : "\\";
			in += 2;
		} else if (in[1] == '&') {
			rep = "";
			in += 2;
		} else if (in[1] == 'f' && in[2] && strchr("BIRP", in[2])) {
			rep = "";
			in += 3;
		} else if (starts_with(in, "\\(aq")) {
			rep = "'";
			in += 4;
		} else {
			return false;
		}
		if (n + strlen(rep) >= size)
			return false;
		memcpy(out + n, rep, strlen(rep));
		n += strlen(rep);
	}
	out[n] = '\0';
	return true;
}

/* "", " in DIR" or " of a live process": what follows "example" in a marker. */
static void parse_marker(const char *rest, struct doc_example *ex)
{
	while (*rest == ' ')
		rest++;
	if (*rest == '\0')
		return;
	if (strcmp(rest, "of a live process") == 0) {
		ex->live = true;
		return;
	}
	if (starts_with(rest, "in ") && strlen(rest + 3) < sizeof(ex->dir) &&
	    !strchr(rest + 3, ' ')) {
		strcpy(ex->dir, rest + 3);
		return;
	}
	fail_msg("%s: unknown example marker 'example %s'", ex->where, rest);
}

/* The block's lines (already unescaped): a "$ " line, then the output. */
static void set_block(struct doc_example *ex, char **lines, size_t n)
{
	char *save, *w;
	size_t i, argc = 0;

	if (n == 0 || !starts_with(lines[0], "$ "))
		fail_msg("%s: the example's block does not start with '$ COMMAND'", ex->where);
	ex->command = strdup(lines[0] + 2);
	assert_non_null(ex->command);
	w = strdup(ex->command);
	assert_non_null(w);
	for (w = strtok_r(w, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		assert_true(argc < DOC_MAX_ARGS);
		ex->argv[argc++] = w;	/* all words live in the first one's copy */
	}
	ex->argv[argc] = NULL;
	assert_true(argc > 0);
	ex->lines = calloc(n, sizeof(*ex->lines));
	assert_non_null(ex->lines);
	for (i = 1; i < n; i++) {
		ex->lines[i - 1] = strdup(lines[i]);
		assert_non_null(ex->lines[i - 1]);
		rtrim(ex->lines[i - 1]);
	}
	ex->nlines = n - 1;
}

/* The marker in @line ("example..." after @prefix, before @suffix), or NULL. */
static const char *marker_text(char *line, const char *prefix, const char *suffix)
{
	size_t len;

	if (!starts_with(line, prefix))
		return NULL;
	line += strlen(prefix);
	while (*line == ' ')
		line++;
	if (!starts_with(line, "example") || (line[7] != ' ' && line[7] != '\0' &&
					      !(suffix && starts_with(line + 7, suffix))))
		return NULL;
	line += strlen("example");
	len = strlen(line);
	if (suffix) {
		if (len < strlen(suffix) || strcmp(line + len - strlen(suffix), suffix) != 0)
			return NULL;
		line[len - strlen(suffix)] = '\0';
	}
	rtrim(line);
	return line;
}

/*
 * The block after the marker on line @i: the lines, unescaped, in *@out
 * (malloc'd strings); returns the index of the first line after it.
 */
static size_t read_block(char **lines, size_t n, size_t i, bool man, const char *where,
			 char ***out, size_t *nout)
{
	char **v = calloc(n + 1, sizeof(*v));
	size_t k = 0;

	assert_non_null(v);
	i++;
	if (man) {
		while (i < n && strcmp(lines[i], ".nf") != 0 && lines[i][0] == '.')
			i++;
		if (i == n || strcmp(lines[i], ".nf") != 0)
			fail_msg("%s: no .nf block after the example marker", where);
		for (i++; i < n && strcmp(lines[i], ".fi") != 0; i++) {
			char buf[4096];

			if (lines[i][0] == '.')
				continue;	/* a request */
			if (!doc_unroff(lines[i], buf, sizeof(buf)))
				fail_msg("%s: an escape the test does not undo: %s", where, lines[i]);
			v[k++] = strdup(buf);
		}
	} else {
		while (i < n && lines[i][0] == '\0')
			i++;
		if (i < n && starts_with(lines[i], "```")) {
			for (i++; i < n && !starts_with(lines[i], "```"); i++)
				v[k++] = strdup(lines[i]);
			i++;
		} else {
			for (; i < n && (starts_with(lines[i], "    ") || lines[i][0] == '\0'); i++)
				v[k++] = strdup(lines[i][0] ? lines[i] + 4 : "");
			while (k && v[k - 1][0] == '\0')
				free(v[--k]);
		}
	}
	if (k == 0)
		fail_msg("%s: no block after the example marker", where);
	*out = v;
	*nout = k;
	return i;
}

size_t doc_examples_read(const char *path, struct doc_example **out)
{
	size_t len, n, i, count = 0;
	bool man = strlen(path) > 2 && strcmp(path + strlen(path) - 2, ".1") == 0;
	const char *name = path, *p;
	char *text = tu_read_file(path, &len), **lines;
	struct doc_example *v;
	size_t checked_to = 0;

	/* Named by its folder and file ("tool/README.md"): there are several README.md. */
	for (p = path; *p; p++)
		if (*p == '/' && p[1] && strchr(p + 1, '/'))
			name = p + 1;

	if (!text)
		fail_msg("cannot read %s", path);
	lines = split_lines(text, &n);
	v = calloc(n ? n : 1, sizeof(*v));
	assert_non_null(v);
	for (i = 0; i < n; i++) {
		char **block, buf[4096];
		const char *m;
		size_t nblock, next, k;

		/* A command's output shown, but no marker: nothing would check it. */
		if (i >= checked_to) {
			const char *s = lines[i];

			if (man && doc_unroff(lines[i], buf, sizeof(buf)))
				s = buf;
			else if (!man && starts_with(s, "    "))
				s += 4;
			if (starts_with(s, "$ sframe"))
				fail_msg("%s:%zu: an example without a marker: %s", name, i + 1, s);
		}
		m = man ? marker_text(lines[i], ".\\\"", NULL)
			: marker_text(lines[i], "<!--", "-->");
		if (!m)
			continue;
		snprintf(v[count].where, sizeof(v[count].where), "%s:%zu", name, i + 1);
		parse_marker(m, &v[count]);
		next = read_block(lines, n, i, man, v[count].where, &block, &nblock);
		set_block(&v[count], block, nblock);
		for (k = 0; k < nblock; k++)
			free(block[k]);
		free(block);
		count++;
		checked_to = next;
		i = next - 1;
	}
	free(lines);
	free(text);
	*out = v;
	return count;
}

void doc_examples_free(struct doc_example *v, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		free(v[i].command);
		free(v[i].argv[0]);
		for (k = 0; k < v[i].nlines; k++)
			free(v[i].lines[k]);
		free(v[i].lines);
	}
	free(v);
}

static bool is_ellipsis(const char *s)
{
	while (*s == ' ')
		s++;
	return strcmp(s, "...") == 0;
}

/* Do want[0..nw) equal got[at..at+nw)? */
static bool run_equal(char *const *want, size_t nw, char **got, size_t at)
{
	size_t k;

	for (k = 0; k < nw; k++)
		if (strcmp(want[k], got[at + k]) != 0)
			return false;
	return true;
}

/*
 * Glob matching over lines: the runs between "..." lines are found in
 * order, the first at the start and the last at the end unless a "..."
 * stands there; taking each middle run at its first place is enough.
 */
static bool match_lines(char *const *want, size_t nwant, char **got, size_t ngot,
			const char **why)
{
	size_t w = 0, g = 0;
	bool first = true;

	while (w <= nwant) {
		size_t end = w, nw;
		bool open_before = !first, last;

		while (end < nwant && !is_ellipsis(want[end]))
			end++;
		nw = end - w;
		last = end == nwant;
		if (last && open_before) {
			/* The final run: at the very end. */
			if (nw > ngot - g || !run_equal(want + w, nw, got, ngot - nw)) {
				*why = "the end of the output differs";
				return false;
			}
			return true;
		}
		if (!open_before) {
			/* The first run: at the very start. */
			if (nw > ngot || !run_equal(want + w, nw, got, 0) || (last && nw != ngot)) {
				*why = last ? "the output differs" : "the start of the output differs";
				return false;
			}
			g = nw;
		} else {
			while (g + nw <= ngot && !run_equal(want + w, nw, got, g))
				g++;
			if (g + nw > ngot) {
				*why = "a run of lines between '...' is not in the output";
				return false;
			}
			g += nw;
		}
		if (last)
			return true;
		first = false;
		w = end + 1;
	}
	return true;
}

bool doc_lines_match(char *const *want, size_t nwant, const char *text, const char *where)
{
	char *copy = strdup(text), **got;
	const char *why = "";
	size_t ngot, k;
	bool ok;

	assert_non_null(copy);
	got = split_lines(copy, &ngot);
	for (k = 0; k < ngot; k++)
		rtrim(got[k]);
	ok = match_lines(want, nwant, got, ngot, &why);
	if (!ok && where) {
		print_error("%s: %s. The example shows:\n", where, why);
		for (k = 0; k < nwant; k++)
			print_error("  | %s\n", want[k]);
		print_error("The command printed:\n");
		for (k = 0; k < ngot && k < 200; k++)
			print_error("  | %s\n", got[k]);
		if (ngot > 200)
			print_error("  (%zu lines more)\n", ngot - 200);
	}
	free(got);
	free(copy);
	return ok;
}
