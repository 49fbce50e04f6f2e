/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_man3.c - the library's manual pages (the .3 files of src/man/) in
 * step with the public headers (the .h files of include/sframe/), as
 * test_cli.c keeps sframe(1) in step with --help:
 *
 *   - every function the headers declare (prototypes and static inline
 *     definitions) has its prototype in the SYNOPSIS of some page, the same
 *     after whitespace is normalised, and every prototype a SYNOPSIS shows
 *     is one of the headers' (so a changed parameter fails too);
 *   - a page's NAME line lists exactly the functions of its SYNOPSIS;
 *   - every struct and enum the headers define is shown whole in some page
 *     ("struct NAME {" ... "};" in an .EX block), member for member as the
 *     header has it, and every typedef is shown; every such definition a page
 *     shows is the header's;
 *   - every "sframe_*()" and "struct sframe_*" a page mentions exists (an
 *     opaque struct, declared "struct NAME;" and defined in no header, is
 *     mentioned but never shown).
 *
 *   test_man3 INCLUDE_DIR MAN_DIR
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DECLS 512

/* K_OPAQUE: a struct declared ("struct NAME;") but defined in no header. */
enum kind { K_FUNC, K_TYPE, K_TYPEDEF, K_OPAQUE };

struct decl {
	enum kind kind;
	char name[128];
	char *text;		/* normalised: the prototype, or "struct x{...};" */
	char where[256];
	bool seen;
};

struct decls {
	struct decl v[MAX_DECLS];
	size_t n;
};

static const char *include_dir, *man_dir;
static bool quiet;	/* test_checker: the problems it makes are expected */

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long len;

	if (!f)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

static bool is_ident(int c)
{
	return isalnum(c) || c == '_';
}

/*
 * @s with whitespace removed but where it separates two identifier
 * characters (one blank there), and leading "static " and "inline " dropped.
 */
static char *normalise(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;
	size_t n, skip = 0;
	bool blank = false;

	assert_non_null(out);
	for (; *s; s++) {
		if (isspace((unsigned char)*s)) {
			blank = true;
			continue;
		}
		if (blank && o > out && is_ident((unsigned char)o[-1]) && is_ident((unsigned char)*s))
			*o++ = ' ';
		blank = false;
		*o++ = *s;
	}
	*o = '\0';
	n = (size_t)(o - out);
	while (n - skip >= 7 &&
	       (strncmp(out + skip, "static ", 7) == 0 || strncmp(out + skip, "inline ", 7) == 0))
		skip += 7;
	memmove(out, out + skip, n - skip + 1);
	return out;
}

/*
 * C text with comments and preprocessor lines blanked out, in place (a
 * comment that starts on a preprocessor line may go on past it).
 */
static void strip_c(char *t)
{
	char *p = t;
	bool line_start = true, in_pp = false;

	while (*p) {
		if (p[0] == '/' && p[1] == '*') {
			char *e = strstr(p + 2, "*/");

			e = e ? e + 2 : p + strlen(p);
			for (; p < e; p++)
				if (*p != '\n')
					*p = ' ';
			continue;
		}
		if (p[0] == '/' && p[1] == '/') {
			for (; *p && *p != '\n'; p++)
				*p = ' ';
			continue;
		}
		if (in_pp) {
			if (*p == '\n' && p[-1] != '\\')
				in_pp = false;
			else if (*p != '\n')
				*p = ' ';
			p++;
			continue;
		}
		if (line_start && *p == '#') {
			in_pp = true;
			*p++ = ' ';
			continue;
		}
		if (*p == '\n')
			line_start = true;
		else if (!isspace((unsigned char)*p))
			line_start = false;
		p++;
	}
}

/* The identifier that ends just before @end (skipping blanks), into @name. */
static void ident_before(const char *start, const char *end, char *name, size_t size)
{
	const char *e = end, *b;

	while (e > start && isspace((unsigned char)e[-1]))
		e--;
	b = e;
	while (b > start && is_ident((unsigned char)b[-1]))
		b--;
	snprintf(name, size, "%.*s", (int)(e - b), b);
}

static void add(struct decls *d, enum kind kind, const char *name, const char *text,
		const char *where)
{
	struct decl *x;

	assert_true(d->n < MAX_DECLS);
	x = &d->v[d->n++];
	x->kind = kind;
	snprintf(x->name, sizeof(x->name), "%s", name);
	x->text = normalise(text);
	snprintf(x->where, sizeof(x->where), "%s", where);
	x->seen = false;
}

/* Record a top-level statement of a header (without its ';'). */
static void header_statement(struct decls *d, const char *s, const char *where)
{
	char *n = normalise(s), name[128], *paren, full[8192];

	if (strncmp(n, "typedef ", 8) == 0) {
		char *star = strstr(n, "(*");

		if (star)
			ident_before(n, strchr(star, ')'), name, sizeof(name));
		else
			ident_before(n, n + strlen(n), name, sizeof(name));
		snprintf(full, sizeof(full), "%s;", n);
		add(d, K_TYPEDEF, name, full, where);
	} else if ((paren = strchr(n, '(')) != NULL) {
		ident_before(n, paren, name, sizeof(name));
		snprintf(full, sizeof(full), "%s;", n);
		add(d, K_FUNC, name, full, where);
	}
	else if (strncmp(n, "struct ", 7) == 0 && !strchr(n + 7, ' ') && !strchr(n + 7, '*'))
		/* a forward declaration: an opaque type, unless defined too */
		add(d, K_OPAQUE, n + 7, n, where);
	free(n);
}

/* Every declaration of the header text @t (stripped). */
static void parse_header(struct decls *d, char *t, const char *where)
{
	char *p = t, *stmt = t;

	while (*p) {
		if (*p == ';') {
			*p = '\0';
			header_statement(d, stmt, where);
			stmt = ++p;
		} else if (*p == '{') {
			char *head = normalise((*p = '\0', stmt)), *body = p + 1, name[128];
			int depth = 1;

			if (strcmp(head, "extern\"C\"") == 0) {
				free(head);
				stmt = ++p;
				continue;
			}
			for (p++; *p && depth; p++)
				depth += *p == '{' ? 1 : *p == '}' ? -1 : 0;
			if (strncmp(head, "struct ", 7) == 0 || strncmp(head, "enum ", 5) == 0) {
				char full[16384];

				ident_before(head, head + strlen(head), name, sizeof(name));
				snprintf(full, sizeof(full), "%s{%.*s;", head, (int)(p - body), body);
				add(d, K_TYPE, name, full, where);
				while (*p && *p != ';')
					p++;
				if (*p)
					p++;
			} else if (strchr(head, '(')) {
				char full[8192];

				ident_before(head, strchr(head, '('), name, sizeof(name));
				snprintf(full, sizeof(full), "%s;", head);
				add(d, K_FUNC, name, full, where);
			}
			free(head);
			stmt = p;
		} else if (*p == '}') {
			/* the end of extern "C" */
			stmt = ++p;
		} else {
			p++;
		}
	}
}

/* The declaration of @name: its definition rather than a forward declaration. */
static struct decl *find(struct decls *d, const char *name)
{
	struct decl *opaque = NULL;
	size_t i;

	for (i = 0; i < d->n; i++)
		if (strcmp(d->v[i].name, name) == 0) {
			if (d->v[i].kind != K_OPAQUE)
				return &d->v[i];
			opaque = &d->v[i];
		}
	return opaque;
}

/* A roff line as plain text: font changes, \- \e \& and \(xx undone. */
static void unroff(const char *in, char *out, size_t size)
{
	size_t n = 0;

	while (*in && n + 2 < size) {
		if (in[0] == '\\' && in[1] == 'f' && in[2]) {
			in += 3;
		} else if (in[0] == '\\' && in[1] == '(' && in[2] && in[3]) {
			out[n++] = ' ';
			in += 4;
		} else if (in[0] == '\\' && (in[1] == '-' || in[1] == 'e' || in[1] == '&')) {
			if (in[1] != '&')
				out[n++] = in[1] == '-' ? '-' : '\\';
			in += 2;
		} else {
			out[n++] = *in++;
		}
	}
	out[n] = '\0';
}

struct page {
	char name[256];
	char *synopsis;		/* the .nf text of SYNOPSIS, plain */
	char *examples;		/* every .EX block, plain */
	char *text;		/* all of it, plain */
	char *name_line;	/* NAME's line, plain */
};

static void append(char **buf, const char *s)
{
	size_t len = *buf ? strlen(*buf) : 0;

	*buf = realloc(*buf, len + strlen(s) + 2);
	assert_non_null(*buf);
	strcpy(*buf + len, s);
	strcat(*buf, "\n");
}

static void read_page(const char *path, struct page *pg)
{
	char *t = read_all(path), *line, *save, section[64] = "", plain[4096];
	bool nf = false, ex = false, want_name = false;

	memset(pg, 0, sizeof(*pg));
	snprintf(pg->name, sizeof(pg->name), "%s", strrchr(path, '/') + 1);
	append(&pg->synopsis, "");
	append(&pg->examples, "");
	append(&pg->text, "");
	append(&pg->name_line, "");
	for (line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, ".SH ", 4) == 0) {
			snprintf(section, sizeof(section), "%s", line + 4);
			want_name = strcmp(section, "NAME") == 0;
			continue;
		}
		if (strcmp(line, ".nf") == 0 || strcmp(line, ".EX") == 0) {
			nf = nf || line[1] == 'n';
			ex = ex || line[1] == 'E';
			continue;
		}
		if (strcmp(line, ".fi") == 0 || strcmp(line, ".EE") == 0) {
			nf = line[1] == 'f' ? false : nf;
			ex = line[1] == 'E' ? false : ex;
			continue;
		}
		if (strncmp(line, ".\\\"", 3) == 0)
			continue;
		if (line[0] == '.') {
			/* a request: keep its words (.B, .BR, .TP ...) as text */
			const char *sp = strchr(line, ' ');

			if (!sp)
				continue;
			unroff(sp + 1, plain, sizeof(plain));
			if (strncmp(line, ".B #include", 11) != 0)
				append(&pg->text, plain);
			continue;
		}
		unroff(line, plain, sizeof(plain));
		append(&pg->text, plain);
		if (want_name) {
			append(&pg->name_line, plain);
			want_name = false;
		}
		if (nf && strcmp(section, "SYNOPSIS") == 0)
			append(&pg->synopsis, plain);
		if (ex)
			append(&pg->examples, plain);
	}
	free(t);
}

static void free_page(struct page *pg)
{
	free(pg->synopsis);
	free(pg->examples);
	free(pg->text);
	free(pg->name_line);
}

/* Report a problem; returns 1 to be counted. */
static int problem(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return 1;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

/* Is @name in the comma-separated list before " - " of NAME's line? */
static bool in_name_line(const char *line, const char *name)
{
	const char *end = strstr(line, " - "), *p = line;
	size_t len = strlen(name);

	if (!end)
		return false;
	while (p < end) {
		while (p < end && (*p == ' ' || *p == ',' || *p == '\n'))
			p++;
		if ((size_t)(end - p) >= len && strncmp(p, name, len) == 0 &&
		    !is_ident((unsigned char)p[len]))
			return true;
		while (p < end && *p != ',')
			p++;
	}
	return false;
}

/* Check one page against the headers' @d; returns the number of problems. */
static int check_page(struct decls *d, struct page *pg)
{
	char *syn = strdup(pg->synopsis), *p, *semi, name[128];
	int bad = 0, nfuncs = 0;
	const char *s;

	assert_non_null(syn);
	/* The prototypes of SYNOPSIS. */
	for (p = syn; (semi = strchr(p, ';')) != NULL; p = semi + 1) {
		char *n, *paren;
		struct decl *x;

		*semi = '\0';
		n = normalise(p);
		paren = strchr(n, '(');
		if (paren) {
			ident_before(n, paren, name, sizeof(name));
			x = find(d, name);
			nfuncs++;
			strcat(n, ";");
			if (!x || x->kind != K_FUNC)
				bad += problem("%s: SYNOPSIS shows %s(), which no header declares",
					       pg->name, name);
			else if (strcmp(x->text, n) != 0)
				bad += problem("%s: SYNOPSIS: %s\n  header %s: %s", pg->name, n,
					       x->where, x->text);
			else
				x->seen = true;
			if (!in_name_line(pg->name_line, name))
				bad += problem("%s: NAME does not list %s", pg->name, name);
		}
		free(n);
	}
	free(syn);
	/* NAME lists nothing else (sframe.3 lists only "sframe"). */
	if (strcmp(pg->name, "sframe.3") != 0) {
		char *names = strdup(pg->name_line), *tok, *sv, *end = strstr(names, " - ");
		int listed = 0;

		if (end)
			*end = '\0';
		for (tok = strtok_r(names, ", \n", &sv); tok; tok = strtok_r(NULL, ", \n", &sv))
			listed++;
		if (!end || listed != nfuncs)
			bad += problem("%s: NAME lists %d names, SYNOPSIS %d functions", pg->name,
				       listed, nfuncs);
		free(names);
	}
	/* Every definition shown is the header's. */
	for (s = pg->examples; (s = strstr(s, "struct ")) != NULL; ) {
		const char *b = s;

		s += 7;
		if (b > pg->examples && is_ident((unsigned char)b[-1]))
			continue;
		if (sscanf(s, "%127[a-z0-9_]", name) == 1 &&
		    s[strlen(name) + strspn(s + strlen(name), " ")] == '{') {
			const char *close = strstr(s, "\n};");
			struct decl *x = find(d, name);
			char *n;

			if (!close)
				continue;
			n = strndup(b, (size_t)(close + 3 - b));
			assert_non_null(n);
			{
				char *m = normalise(n);

				if (!x || x->kind != K_TYPE)
					bad += problem("%s: shows struct %s, which no header defines",
						       pg->name, name);
				else if (strcmp(m, x->text) != 0)
					bad += problem("%s: struct %s as shown:\n  %s\n  header %s:\n  %s",
						       pg->name, name, m, x->where, x->text);
				else
					x->seen = true;
				free(m);
			}
			free(n);
		}
	}
	for (s = pg->examples; (s = strstr(s, "enum ")) != NULL; ) {
		s += 5;
		if (sscanf(s, "%127[a-z0-9_]", name) == 1 &&
		    s[strlen(name) + strspn(s + strlen(name), " ")] == '{') {
			const char *close = strstr(s, "\n};");
			struct decl *x = find(d, name);
			char *n, *m;

			if (!close)
				continue;
			n = strndup(s - 5, (size_t)(close + 3 - (s - 5)));
			m = normalise(n);
			if (!x || x->kind != K_TYPE)
				bad += problem("%s: shows enum %s, which no header defines", pg->name, name);
			else if (strcmp(m, x->text) != 0)
				bad += problem("%s: enum %s as shown differs from %s's", pg->name, name,
					       x->where);
			else
				x->seen = true;
			free(m);
			free(n);
		}
	}
	for (s = pg->examples; (s = strstr(s, "typedef ")) != NULL; s++) {
		const char *e = strchr(s, ';');
		char *n, *m, *star;
		struct decl *x;

		if (!e)
			break;
		n = strndup(s, (size_t)(e + 1 - s));
		m = normalise(n);
		star = strstr(m, "(*");
		if (star) {
			ident_before(m, strchr(star, ')'), name, sizeof(name));
			x = find(d, name);
			if (!x || x->kind != K_TYPEDEF || strcmp(x->text, m) != 0)
				bad += problem("%s: typedef %s is not the header's", pg->name, name);
			else
				x->seen = true;
		}
		free(m);
		free(n);
	}
	/* Mentions: sframe_*() and struct/enum sframe_*. */
	for (s = pg->text; (s = strstr(s, "sframe_")) != NULL; ) {
		size_t len = 0;

		if (s > pg->text && (is_ident((unsigned char)s[-1]) || s[-1] == '.' ||
				     s[-1] == '/' || s[-1] == '<')) {
			s++;
			continue;
		}
		while (is_ident((unsigned char)s[len]))
			len++;
		snprintf(name, sizeof(name), "%.*s", (int)len, s);
		if (s[len] == '(' && s[len + 1] == ')' && !find(d, name))
			bad += problem("%s: mentions %s(), which no header declares", pg->name, name);
		if (s >= pg->text + 7 && (strncmp(s - 7, "struct ", 7) == 0 ||
					  (s >= pg->text + 5 && strncmp(s - 5, "enum ", 5) == 0)) &&
		    !find(d, name))
			bad += problem("%s: mentions the type %s, which no header defines", pg->name,
				       name);
		s += len;
	}
	return bad;
}

/*
 * A page beside a meson.build (@build, its text; NULL where there is none)
 * must be named in it ('NAME' for NAME.3, as src/man/meson.build lists the
 * pages it installs): a page left out of that list would be checked here
 * but never installed.
 */
static int check_installed(const char *mdir, const char *build, const char *page)
{
	char want[256];
	size_t len = strlen(page);

	if (!build)
		return 0;
	snprintf(want, sizeof(want), "'%.*s'", (int)(len - 2), page);
	if (!strstr(build, want))
		return problem("%s: %s is not in the pages meson.build installs", mdir, page);
	return 0;
}

/* Headers of @idir against the pages of @mdir: the number of problems. */
static int check_dirs(const char *idir, const char *mdir)
{
	static struct decls d;
	struct dirent **names;
	char path[4096], *build = NULL;
	int n, i, bad = 0, pages = 0;
	size_t k;

	for (k = 0; k < d.n; k++)
		free(d.v[k].text);
	d.n = 0;
	n = scandir(idir, &names, NULL, alphasort);
	if (n < 0)
		fail_msg("cannot read %s", idir);
	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]->d_name);

		if (len > 2 && strcmp(names[i]->d_name + len - 2, ".h") == 0) {
			char *t;

			snprintf(path, sizeof(path), "%s/%s", idir, names[i]->d_name);
			t = read_all(path);
			strip_c(t);
			parse_header(&d, t, names[i]->d_name);
			free(t);
		}
		free(names[i]);
	}
	free(names);
	/* The pages' install list, where there is one (check_installed()). */
	snprintf(path, sizeof(path), "%s/meson.build", mdir);
	if (access(path, F_OK) == 0)
		build = read_all(path);
	n = scandir(mdir, &names, NULL, alphasort);
	if (n < 0)
		fail_msg("cannot read %s", mdir);
	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]->d_name);

		if (len > 2 && strcmp(names[i]->d_name + len - 2, ".3") == 0) {
			struct page pg;

			snprintf(path, sizeof(path), "%s/%s", mdir, names[i]->d_name);
			read_page(path, &pg);
			bad += check_page(&d, &pg);
			free_page(&pg);
			bad += check_installed(mdir, build, names[i]->d_name);
			pages++;
		}
		free(names[i]);
	}
	free(names);
	free(build);
	if (pages == 0)
		bad += problem("%s: no manual page", mdir);
	for (k = 0; k < d.n; k++)
		if (!d.v[k].seen && d.v[k].kind != K_OPAQUE)
			bad += problem("%s: %s%s is in no manual page of %s", d.v[k].where,
				       d.v[k].name, d.v[k].kind == K_FUNC ? "()" : "", mdir);
	return bad;
}

/* The pages of the tree against its headers. */
static void test_pages(void **state)
{
	int bad;

	(void)state;
	bad = check_dirs(include_dir, man_dir);
	if (bad)
		fail_msg("%d problems between %s and %s", bad, man_dir, include_dir);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The checker itself, on a made-up header and pages: what it must catch. */
static void test_checker(void **state)
{
	static const char header[] =
		"/** doc */\n#define X 1\nstruct sframe_a {\n\tint x; /* c */\n};\nstruct sframe_o;\n"
		"typedef int (*sframe_f)(void *ctx);\n"
		"int sframe_one(const struct sframe_a *a,\n\t\tint b);\n"
		"static inline int sframe_two(void)\n{\n\treturn 0;\n}\n";
	static const char good[] =
		".TH X 3\n.SH NAME\nsframe_one, sframe_two \\- x\n.SH SYNOPSIS\n.nf\n"
		"int sframe_one(const struct sframe_a *a, int b);\nint sframe_two(void);\n.fi\n"
		".SH DESCRIPTION\n\\fBsframe_one\\fR() takes a \\fBstruct sframe_a\\fR, not a struct sframe_o.\n"
		".EX\nstruct sframe_a {\n    int x;\n};\n"
		"typedef int (*sframe_f)(void *ctx);\n.EE\n";
	static const struct {
		const char *from, *to;
	} breaks[] = {
		{ "int b);\nint", "long b);\nint" },		/* a changed parameter */
		{ "int sframe_two(void);\n", "" },		/* a function left out */
		{ "sframe_one, sframe_two", "sframe_one" },	/* NAME without it */
		{ "    int x;\n", "    long x;\n" },		/* a changed member */
		{ "typedef int (*sframe_f)(void *ctx);\n", "" },	/* a typedef left out */
		{ "takes a", "and sframe_gone() take a" },	/* a function that is not */
		{ "\\fBstruct sframe_a\\fR,", "struct sframe_b," },	/* a type that is not */
		{ "struct sframe_o.", "struct sframe_p." },		/* nor declared */
	};
	char dir[] = "/tmp/test_man3.XXXXXX", inc[64], man[64], page[1024];
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(inc, sizeof(inc), "%s/include", dir);
	snprintf(man, sizeof(man), "%s/man", dir);
	assert_int_equal(mkdir(inc, 0700), 0);
	assert_int_equal(mkdir(man, 0700), 0);
	write_file(inc, "h.h", header);
	write_file(man, "x.3", good);
	assert_int_equal(check_dirs(inc, man), 0);
	quiet = true;
	for (i = 0; i < sizeof(breaks) / sizeof(breaks[0]); i++) {
		const char *at = strstr(good, breaks[i].from);

		assert_non_null(at);
		snprintf(page, sizeof(page), "%.*s%s%s", (int)(at - good), good, breaks[i].to,
			 at + strlen(breaks[i].from));
		write_file(man, "x.3", page);
		if (check_dirs(inc, man) == 0)
			fail_msg("break %zu went unnoticed", i);
	}
	/* A page the meson.build beside it does not install. */
	write_file(man, "x.3", good);
	write_file(man, "meson.build", "lib_man_names = ['y']\n");
	if (check_dirs(inc, man) == 0)
		fail_msg("a page meson.build does not install went unnoticed");
	quiet = false;
	write_file(man, "meson.build", "lib_man_names = ['x']\n");
	assert_int_equal(check_dirs(inc, man), 0);
	snprintf(page, sizeof(page), "%s/meson.build", man);
	unlink(page);
	snprintf(page, sizeof(page), "%s/x.3", man);
	unlink(page);
	snprintf(page, sizeof(page), "%s/h.h", inc);
	unlink(page);
	rmdir(inc);
	rmdir(man);
	rmdir(dir);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checker),
		cmocka_unit_test(test_pages),
	};

	if (argc != 3) {
		fprintf(stderr, "usage: %s INCLUDE_DIR MAN_DIR\n", argv[0]);
		return 2;
	}
	include_dir = argv[1];
	man_dir = argv[2];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
