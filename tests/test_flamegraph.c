/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_flamegraph.c - folded stacks and SVG flame graphs
 * (src/tool/out/flamegraph.c, built for this test with its malloc, calloc and
 * realloc renamed to the counting ones below).
 *
 * The expected folded lines, counts and coordinates are worked out in the
 * comments next to them. The SVGs are also read as XML by
 * tests/check_flamegraph.py, which checks their geometry (widths in
 * proportion to the samples, each frame on its parent, children in name
 * order) and prints the drawn tree, compared here with the expected one.
 *
 * Usage: test_flamegraph PYTHON3 CHECK_FLAMEGRAPH_PY
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "out/flamegraph.h"

static const char *python3, *check_script;

/*
 * flamegraph.c's allocations, all through fg_realloc(): the fail_at-th
 * fails (0: none).
 */
static unsigned long calls, fail_at;
static bool failed;

void *fg_malloc(size_t n);
void *fg_calloc(size_t n, size_t size);
void *fg_realloc(void *p, size_t n);

void *fg_realloc(void *p, size_t n)
{
	if (fail_at && ++calls == fail_at) {
		failed = true;
		return NULL;
	}
	return realloc(p, n);
}

void *fg_malloc(size_t n)
{
	return fg_realloc(NULL, n);
}

void *fg_calloc(size_t n, size_t size)
{
	void *p = size && n > SIZE_MAX / size ? NULL : fg_realloc(NULL, n * size);

	return p ? memset(p, 0, n * size) : NULL;
}

static void arm(unsigned long k)
{
	calls = 0;
	fail_at = k;
	failed = false;
}

/* Add one stack of the names that follow @count, up to a NULL. */
static void add(struct sf_fold *f, uint64_t count, ...)
{
	const char *names[16];
	size_t n = 0;
	va_list ap;

	va_start(ap, count);
	while ((names[n] = va_arg(ap, const char *)) != NULL) {
		n++;
		assert_true(n < 16);
	}
	va_end(ap);
	assert_int_equal(sf_fold_add(f, names, n, count), 0);
}

static char *folded(const struct sf_fold *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(sf_fold_write(f, out), 0);
	assert_int_equal(fclose(out), 0);
	return buf;
}

static char *svg(const struct sf_fold *f, const char *title)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(sf_flamegraph_write(f, out, title), 0);
	assert_int_equal(fclose(out), 0);
	return buf;
}

static void assert_ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), e = strlen(end);

	assert_true(n >= e);
	assert_string_equal(s + n - e, end);
}

static size_t occurrences(const char *s, const char *what)
{
	size_t n = 0;

	for (; (s = strstr(s, what)) != NULL; s++)
		n++;
	return n;
}

/* check_flamegraph.py's output for @image (asserting it found no fault). */
static char *xml_check(const char *image)
{
	const char *tmp = getenv("TMPDIR");
	char *path, *buf = NULL, *cmd;
	size_t cap = 0, len = 0, got;
	FILE *p;
	int fd, status;

	assert_true(asprintf(&path, "%s/test_flamegraph_XXXXXX", tmp && *tmp ? tmp : "/tmp") > 0);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, image, strlen(image)), (ssize_t)strlen(image));
	assert_int_equal(close(fd), 0);
	assert_true(asprintf(&cmd, "'%s' -B '%s' '%s'", python3, check_script, path) > 0);
	p = popen(cmd, "r");
	assert_non_null(p);
	do {
		if (cap - len < 4096) {
			cap += 65536;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		got = fread(buf + len, 1, cap - len - 1, p);
		len += got;
	} while (got);
	buf[len] = '\0';
	status = pclose(p);
	unlink(path);
	free(path);
	free(cmd);
	assert_int_equal(status, 0);
	return buf;
}

/* The tree check_flamegraph.py draws from @image is @want. */
static void assert_tree(const char *image, const char *want)
{
	char *tree = xml_check(image);

	assert_string_equal(tree, want);
	free(tree);
}

/* Each test's stacks, empty at its start. */
static int fold_setup(void **state)
{
	struct sf_fold *f = malloc(sizeof(*f));

	if (!f)
		return -1;
	sf_fold_init(f);
	*state = f;
	return 0;
}

static int fold_teardown(void **state)
{
	sf_fold_free(*state);
	free(*state);
	return 0;
}

static void test_fold_merge_sort(void **state)
{
	struct sf_fold *f = *state;
	char *out;

	add(f, 1, "a", "c", NULL);
	add(f, 3, "a", NULL);
	add(f, 2, "a-b", NULL);
	add(f, 7, "a", "b", NULL);
	add(f, 1, "a:x", NULL);
	add(f, 4, "a", "c", NULL);
	add(f, 1, "B", NULL);
	add(f, 2, "a", "b", "c", NULL);
	add(f, 3, "a", "b", NULL);
	out = folded(f);
	/*
	 * a;c: 1 + 4, a;b: 7 + 3. In byte order 'B' (0x42) < 'a' (0x61), and
	 * after "a": the end of the stack < '-' (0x2d) < ':' (0x3a) < ';'
	 * (0x3b): so "a-b" and "a:x" come before "a;b", though frame by frame
	 * "a" would come first; "a;b" before "a;b;c" before "a;c".
	 */
	assert_string_equal(out, "B 1\n"
			    "a 3\n"
			    "a-b 2\n"
			    "a:x 1\n"
			    "a;b 10\n"
			    "a;b;c 2\n"
			    "a;c 5\n");
	assert_int_equal(f->total, 1 + 3 + 2 + 7 + 1 + 4 + 1 + 2 + 3);
	free(out);
	sf_fold_free(f);
}

static void test_fold_arguments(void **state)
{
	struct sf_fold *f = *state;
	const char *one[] = { "main" }, *with_null[] = { "main", NULL };
	char *out;

	assert_int_equal(sf_fold_add(f, one, 0, 1), -EINVAL);
	assert_int_equal(sf_fold_add(f, with_null, 2, 1), -EINVAL);
	assert_int_equal(sf_fold_add(f, one, 1, 0), 0);
	assert_int_equal(sf_fold_add(f, one, 1, UINT64_MAX - 1), 0);
	assert_int_equal(sf_fold_add(f, one, 1, 2), -EOVERFLOW);
	assert_int_equal(sf_fold_add(f, one, 1, 1), 0);
	out = folded(f);
	assert_string_equal(out, "main 18446744073709551615\n");
	free(out);
	sf_fold_free(f);
}

#define HOSTILE_TAIL "<&>\"'", "bad\xff\xfe", "trunc\xc3(", "over\xc0\xaf", \
	"surr\xed\xa0\x80", "caf\xc3\xa9", "c\x01\x7f\t\r", "non\xef\xbf\xbe"

static void test_hostile_names(void **state)
{
	struct sf_fold *f = *state;
	char *out;

	add(f, 2, "x;y", "line\nbreak", HOSTILE_TAIL, NULL);
	/* The same stack once ';' and the control bytes are replaced. */
	add(f, 3, "x:y", "line?break", HOSTILE_TAIL, NULL);
	out = folded(f);
	assert_string_equal(out, "x:y;line?break;<&>\"';bad\xff\xfe;trunc\xc3(;over\xc0\xaf;"
			    "surr\xed\xa0\x80;caf\xc3\xa9;c????;non\xef\xbf\xbe 5\n");
	free(out);

	/*
	 * Entities for & < > " ', '?' for control bytes, U+FFFD for each byte
	 * outside valid UTF-8: 0xc3 before '(', both bytes of an overlong '/',
	 * the three of an encoded surrogate and of U+FFFE (not an XML
	 * character).
	 */
	out = svg(f, "t\x01<&>\xff");
	assert_non_null(strstr(out, "<text id=\"title\" x=\"600\" y=\"24\">t?&lt;&amp;&gt;&#xFFFD;<"));
	assert_non_null(strstr(out, "<title>x:y (5 samples, 100.00%)</title>"));
	assert_non_null(strstr(out, "<title>line?break (5 samples"));
	assert_non_null(strstr(out, "<title>&lt;&amp;&gt;&quot;&#39; (5 samples"));
	assert_non_null(strstr(out, "<title>bad&#xFFFD;&#xFFFD; (5 samples"));
	assert_non_null(strstr(out, "<title>trunc&#xFFFD;( (5 samples"));
	assert_non_null(strstr(out, "<title>over&#xFFFD;&#xFFFD; (5 samples"));
	assert_non_null(strstr(out, "<title>surr&#xFFFD;&#xFFFD;&#xFFFD; (5 samples"));
	assert_non_null(strstr(out, "<title>caf\xc3\xa9 (5 samples"));
	assert_non_null(strstr(out, "<title>c???? (5 samples"));
	assert_non_null(strstr(out, "<title>non&#xFFFD;&#xFFFD;&#xFFFD; (5 samples"));
	assert_tree(out, "title \"t?<&>\\ufffd\"\n"
			 "\"all\" 5\n"
			 " \"x:y\" 5\n"
			 "  \"line?break\" 5\n"
			 "   \"<&>\\\"'\" 5\n"
			 "    \"bad\\ufffd\\ufffd\" 5\n"
			 "     \"trunc\\ufffd(\" 5\n"
			 "      \"over\\ufffd\\ufffd\" 5\n"
			 "       \"surr\\ufffd\\ufffd\\ufffd\" 5\n"
			 "        \"caf\\u00e9\" 5\n"
			 "         \"c????\" 5\n"
			 "          \"non\\ufffd\\ufffd\\ufffd\" 5\n");
	free(out);
	sf_fold_free(f);
}

static void test_svg_tree(void **state)
{
	struct sf_fold *f = *state;
	char *out;

	add(f, 30, "prog", "main", "work", "compute", NULL);
	add(f, 10, "prog", "main", "work", "io", NULL);
	add(f, 20, "prog", "main", "parse", NULL);
	add(f, 5, "prog", "main", NULL);
	add(f, 15, "prog", "init", NULL);
	add(f, 20, "daemon", "loop", NULL);
	out = svg(f, "perf");
	/*
	 * 100 samples in 1180 px: 11.8 px each. Five rows (all, prog, main,
	 * work, compute): 60 + 5 * 16 + 36 = 176 px high; row d at y = 176 -
	 * 36 - 16 (d + 1). Under "all" come "daemon" (20) and "prog" (80);
	 * under prog "init" (15) and then "main" (30 + 10 + 20 + 5 = 65) at
	 * sample 20 + 15 = 35: x = 10 + 35 * 11.8 = 423, width 65 * 11.8 = 767,
	 * y = 176 - 36 - 48 = 92.
	 */
	assert_non_null(strstr(out, "height=\"176\" viewBox=\"0 0 1200 176\""));
	assert_non_null(strstr(out, "<title>all (100 samples, 100.00%)</title>"
			       "<rect x=\"10.000\" y=\"124.0\" width=\"1180.000\" height=\"15.0\""));
	assert_non_null(strstr(out, "<title>main (65 samples, 65.00%)</title>"
			       "<rect x=\"423.000\" y=\"92.0\" width=\"767.000\" height=\"15.0\""));
	assert_int_equal(occurrences(out, "<g class=\"f\">"), 10);
	assert_non_null(strstr(out, "<!-- 0 frames narrower than 0.1 px not drawn -->"));
	assert_tree(out, "title \"perf\"\n"
			 "\"all\" 100\n"
			 " \"daemon\" 20\n"
			 "  \"loop\" 20\n"
			 " \"prog\" 80\n"
			 "  \"init\" 15\n"
			 "  \"main\" 65\n"
			 "   \"parse\" 20\n"
			 "   \"work\" 40\n"
			 "    \"compute\" 30\n"
			 "    \"io\" 10\n");
	free(out);
	sf_fold_free(f);
}

static void test_svg_narrow(void **state)
{
	struct sf_fold *f = *state;
	char *out;

	add(f, 100000, "a", NULL);
	add(f, 9, "b", NULL);
	add(f, 5, "zzz", "deep", NULL);
	out = svg(f, NULL);
	/*
	 * 1180 / 100014 px a sample: "b" is 0.106 px wide and drawn, "zzz"
	 * and "deep" 0.059 px and not; the highest row drawn is then row 1:
	 * 60 + 2 * 16 + 36 = 128 px.
	 */
	assert_non_null(strstr(out, "<!-- 2 frames narrower than 0.1 px not drawn -->"));
	assert_non_null(strstr(out, "height=\"128\""));
	assert_null(strstr(out, "zzz"));
	assert_non_null(strstr(out, ">Flame Graph</text>"));
	assert_tree(out, "title \"Flame Graph\"\n"
			 "\"all\" 100014\n"
			 " \"a\" 100000\n"
			 " \"b\" 9\n");
	free(out);
	sf_fold_free(f);
}

static void test_svg_labels(void **state)
{
	struct sf_fold *f = *state;
	char *out;

	add(f, 96, "x", NULL);
	add(f, 3, "abcdefghijklmnop", NULL);
	add(f, 1, "y\xc3\xa9z", NULL);
	out = svg(f, "labels");
	/*
	 * 11.8 px a sample, labels of 7.2 px a character after 6 px of
	 * margins: 3 samples hold (35.4 - 6) / 7.2 = 4.08 characters, so the
	 * first two and ".."; 1 sample holds 0.8, no label.
	 */
	assert_non_null(strstr(out, ">ab..</text>"));
	assert_non_null(strstr(out, "<title>y\xc3\xa9z (1 sample, 1.00%)</title>"));
	assert_non_null(strstr(out, "\"></text></g>"));
	assert_tree(out, "title \"labels\"\n"
			 "\"all\" 100\n"
			 " \"abcdefghijklmnop\" 3\n"
			 " \"x\" 96\n"
			 " \"y\\u00e9z\" 1\n");
	free(out);
	sf_fold_free(f);
}

static void test_deep_stack(void **state)
{
	struct sf_fold *f = *state;
	const char *names[1000];
	char bufs[1000][8], *out, *want, *w;
	size_t i;

	for (i = 0; i < 1000; i++) {
		snprintf(bufs[i], sizeof(bufs[i]), "f%zu", i);
		names[i] = bufs[i];
	}
	assert_int_equal(sf_fold_add(f, names, 1000, 1), 0);
	assert_int_equal(sf_fold_add(f, names, 1000, 2), 0);
	out = folded(f);
	assert_int_equal(strncmp(out, "f0;f1;f2;", 9), 0);
	assert_ends_with(out, ";f998;f999 3\n");
	assert_int_equal(occurrences(out, ";"), 999);
	free(out);

	/* 1001 rows of one frame each: 60 + 1001 * 16 + 36 = 16112 px. */
	out = svg(f, "deep");
	assert_int_equal(occurrences(out, "<g class=\"f\">"), 1001);
	assert_non_null(strstr(out, "height=\"16112\""));
	want = malloc(1001 * 1016 + 32);
	assert_non_null(want);
	w = want + sprintf(want, "title \"deep\"\n\"all\" 3\n");
	for (i = 0; i < 1000; i++)
		w += sprintf(w, "%*s\"f%zu\" 3\n", (int)i + 1, "", i);
	assert_tree(out, want);
	free(want);
	free(out);
	sf_fold_free(f);
}

static void test_many_stacks(void **state)
{
	struct sf_fold *f = *state;
	char m[16], l[16], *out;
	const char *names[] = { "p", m, l };
	size_t i, pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < 100000; i++) {
			snprintf(m, sizeof(m), "m%zu", i / 1000);
			snprintf(l, sizeof(l), "l%zu", i);
			assert_int_equal(sf_fold_add(f, names, 3, i % 7 + 1), 0);
		}
	/*
	 * Counts 1..7 repeat: 14285 rounds of 28 and then 1 + 2 + 3 + 4 + 5,
	 * 399995 a pass. In byte order the first line is i = 0 (1 a pass),
	 * then i = 1 (2 a pass) and i = 10; the last one is not of "m99" but of
	 * "m9" ('9' < ';'): "p;m9;l9999" (9999 % 7 = 3: 4 a pass).
	 */
	assert_int_equal(f->n_stacks, 100000);
	assert_int_equal(f->total, 2 * 399995);
	out = folded(f);
	assert_int_equal(occurrences(out, "\n"), 100000);
	assert_int_equal(strncmp(out, "p;m0;l0 2\np;m0;l1 4\np;m0;l10 ", 29), 0);
	assert_ends_with(out, "\np;m9;l9999 8\n");
	free(out);

	/*
	 * A frame "l..." holds at most 14 samples: 0.02 px, not drawn. A
	 * frame "m..." holds a thousand stacks, about 11.8 px.
	 */
	out = svg(f, "many");
	assert_non_null(strstr(out, "<title>all (799990 samples, 100.00%)</title>"));
	assert_non_null(strstr(out, "<!-- 100000 frames narrower than 0.1 px not drawn -->"));
	assert_int_equal(occurrences(out, "<g class=\"f\">"), 1 + 1 + 100);
	free(xml_check(out));
	free(out);
	sf_fold_free(f);
}

static void test_write_errors(void **state)
{
	struct sf_fold *f = *state;
	FILE *full = fopen("/dev/full", "w");

	if (!full)
		skip();
	add(f, 1, "main", NULL);
	assert_int_equal(sf_fold_write(f, full), -ENOSPC);
	clearerr(full);
	assert_int_equal(sf_flamegraph_write(f, full, "t"), -ENOSPC);
	fclose(full);
	sf_fold_free(f);
}

/*
 * For k = 1, 2, ... the k-th allocation fails, until a run makes fewer:
 * the add or write that met it says -ENOMEM, the stacks added before it
 * are all there with their counts, and the same add succeeds once memory
 * is back (ASan finds what would leak or overflow).
 */
static void test_out_of_memory(void **state)
{
	char bufs[40][8], *want[4], *out;
	const char *wide[41], *other[] = { "a", "c" };
	const char *const *stacks[] = { wide, other, wide };
	size_t depth[] = { 41, 2, 41 }, i, len;
	unsigned long k;
	FILE *sink;
	int ret;

	(void)state;
	/* 40 names: the names, their table and the frames all grow. */
	wide[0] = "a";
	for (i = 0; i < 40; i++) {
		snprintf(bufs[i], sizeof(bufs[i]), "n%zu", i);
		wide[i + 1] = bufs[i];
	}
	/* After 0, 1, 2, 3 stacks; "a;c" sorts before "a;n0;..." ('c' < 'n'). */
	for (i = 0; i < 4; i++) {
		want[i] = malloc(512);
		assert_non_null(want[i]);
		strcpy(want[i], i >= 2 ? "a;c 1\n" : "");
		if (i >= 1) {
			strcat(want[i], "a");
			for (len = 0; len < 40; len++)
				sprintf(want[i] + strlen(want[i]), ";n%zu", len);
			strcat(want[i], i == 3 ? " 2\n" : " 1\n");
		}
	}
	for (k = 1;; k++) {
		struct sf_fold f;
		bool hit = false;

		sf_fold_init(&f);
		arm(k);
		for (i = 0; i < 3; i++) {
			ret = sf_fold_add(&f, stacks[i], depth[i], 1);
			if (!ret)
				continue;
			assert_int_equal(ret, -ENOMEM);
			assert_true(failed);
			hit = true;
			arm(0);
			out = folded(&f);
			assert_string_equal(out, want[i]);
			free(out);
			/* The set stays usable: the same stack again. */
			assert_int_equal(sf_fold_add(&f, stacks[i], depth[i], 1), 0);
		}
		sink = fopen("/dev/null", "w");
		assert_non_null(sink);
		ret = sf_fold_write(&f, sink);
		if (!ret)
			ret = sf_flamegraph_write(&f, sink, "oom");
		fclose(sink);
		assert_int_equal(ret, failed ? -ENOMEM : 0);
		hit |= failed;
		arm(0);
		out = folded(&f);
		assert_string_equal(out, want[3]);
		free(out);
		sf_fold_free(&f);
		if (!hit)
			break;
	}
	/* Each of the 41 names is copied in an allocation of its own. */
	assert_true(k > 41);
	for (i = 0; i < 4; i++)
		free(want[i]);
}

#define FOLD_TEST(t) cmocka_unit_test_setup_teardown(t, fold_setup, fold_teardown)

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		FOLD_TEST(test_fold_merge_sort),
		FOLD_TEST(test_fold_arguments),
		FOLD_TEST(test_hostile_names),
		FOLD_TEST(test_svg_tree),
		FOLD_TEST(test_svg_narrow),
		FOLD_TEST(test_svg_labels),
		FOLD_TEST(test_deep_stack),
		FOLD_TEST(test_many_stacks),
		FOLD_TEST(test_write_errors),
		cmocka_unit_test(test_out_of_memory),
	};

	if (argc != 3) {
		fprintf(stderr, "usage: %s PYTHON3 CHECK_FLAMEGRAPH_PY\n", argv[0]);
		return 2;
	}
	python3 = argv[1];
	check_script = argv[2];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
