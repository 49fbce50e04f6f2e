/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_cli.c - the command line of "sframe" and "sframe-bench":
 *   - every command prints its own usage for -h, --help and "help COMMAND",
 *     and --version the Meson project version; an unknown option exits 2;
 *   - the manual page lists the commands, synopses and options that --help
 *     does, no more and no fewer, and groff renders it without a warning;
 *   - one exit-status rule (0 success, 1 bad content or a failed lookup,
 *     2 usage or I/O error), one case of each kind per command;
 *   - messages name things: machines, not "machine 62"; "1 FDE"; an
 *     unknown fixtures folder; a libsframe that cannot read a version.
 * (A zombie process and a vanished one: tests/test_stack.c.)
 *
 *   test_cli SFRAME_TOOL SFRAME_BENCH VERSION MANPAGE FIXTURES_DIR
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "doc_examples.h"
#include "tool_run.h"

static const char *tool, *bench, *version, *manpage, *fixtures;
static char tmpdir[256];

#define NOARG ((char *)NULL)

static void vrun(struct tu_result *r, const char *prog, va_list ap)
{
	char *argv[16];
	size_t n = 0;

	argv[n++] = (char *)prog;
	while (n < 15 && (argv[n] = va_arg(ap, char *)) != NULL)
		n++;
	argv[n] = NULL;
	tu_run_both(argv, NULL, r);
}

/* Run @prog with the NULL-terminated arguments that follow. */
static void run(struct tu_result *r, const char *prog, ...)
{
	va_list ap;

	va_start(ap, prog);
	vrun(r, prog, ap);
	va_end(ap);
}

/* FIXTURES_DIR/@rel; each test asks for fewer paths than there are buffers. */
static char *fx(const char *rel)
{
	static char bufs[64][1024];
	static unsigned int next;
	char *b = bufs[next++ % 64];

	snprintf(b, sizeof(bufs[0]), "%s/%s", fixtures, rel);
	return b;
}

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void expect(const struct tu_result *r, int status, const char *in_err)
{
	if (r->status != status || (in_err && !strstr(r->err, in_err)))
		fail_msg("exit status %d (expected %d), stderr:\n%s(expected in it: %s)", r->status,
			 status, r->err, in_err ? in_err : "-");
}

/* Run @prog with the NULL-terminated arguments that follow; expect as expect(). */
static void expect_run(int status, const char *in_err, const char *prog, ...)
{
	struct tu_result r;
	va_list ap;

	va_start(ap, prog);
	vrun(&r, prog, ap);
	va_end(ap);
	expect(&r, status, in_err);
	tu_result_free(&r);
}

/* ---- Help and version ----------------------------------------------------------- */

static const char *const commands[] = { "dump", "lookup", "check", "unwind", "stack",
					"perf", "convert" };
static const char *const bench_commands[] = { "lookup", "scale", "unwind", "pcs", "gen-c",
					      "stack-usage" };

/* @prog's help of @cmd (NULL: the general one) by every way of asking for it. */
static char *help_of(const char *prog, const char *cmd)
{
	struct tu_result r, again;
	char first[128];

	if (cmd)
		run(&r, prog, cmd, "--help", NOARG);
	else
		run(&r, prog, "--help", NOARG);
	expect(&r, 0, NULL);
	assert_string_equal(r.err, "");
	snprintf(first, sizeof(first), "Usage: %s %s", strrchr(prog, '/') + 1,
		 cmd ? cmd : "COMMAND");
	if (!starts_with(r.out, first))
		fail_msg("%s --help does not start with '%s':\n%s", cmd ? cmd : "", first, r.out);
	if (cmd)
		run(&again, prog, cmd, "-h", NOARG);
	else
		run(&again, prog, "-h", NOARG);
	expect(&again, 0, NULL);
	assert_string_equal(again.out, r.out);
	tu_result_free(&again);
	run(&again, prog, "help", cmd, NOARG);
	expect(&again, 0, NULL);
	assert_string_equal(again.out, r.out);
	tu_result_free(&again);
	free(r.err);
	return r.out;
}

/* An unknown option: exit 2, nothing on stdout, and where the help is. */
static void expect_bad_option(const char *prog, const char *cmd, const char *hint)
{
	struct tu_result r;

	run(&r, prog, cmd, "--bogus", NOARG);
	expect(&r, 2, hint);
	assert_string_equal(r.out, "");
	tu_result_free(&r);
}

static void test_help(void **state)
{
	size_t i;
	char hint[128];

	(void)state;
	free(help_of(tool, NULL));
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		free(help_of(tool, commands[i]));
		snprintf(hint, sizeof(hint), "Try 'sframe %s --help'", commands[i]);
		expect_bad_option(tool, commands[i], hint);
	}
	expect_bad_option(tool, "help", "unknown option '--bogus'");
	/* Options after the operands, as the help says. */
	{
		struct tu_result r;

		run(&r, tool, "check", fx("v3-x86_64/lib.so"), "--help", NOARG);
		expect(&r, 0, NULL);
		assert_true(starts_with(r.out, "Usage: sframe check "));
		tu_result_free(&r);
	}
}

static void test_bench_help(void **state)
{
	size_t i;

	(void)state;
	free(help_of(bench, NULL));
	for (i = 0; i < sizeof(bench_commands) / sizeof(bench_commands[0]); i++) {
		free(help_of(bench, bench_commands[i]));
		expect_bad_option(bench, bench_commands[i], "sframe-bench");
	}
}

static void test_version(void **state)
{
	char want[128];
	struct tu_result r;
	size_t i;

	(void)state;
	snprintf(want, sizeof(want), "sframe %s\n", version);
	run(&r, tool, "--version", NOARG);
	expect(&r, 0, NULL);
	assert_string_equal(r.out, want);
	tu_result_free(&r);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		run(&r, tool, commands[i], "--version", NOARG);
		expect(&r, 0, NULL);
		assert_string_equal(r.out, want);
		tu_result_free(&r);
	}
	snprintf(want, sizeof(want), "sframe-bench %s\n", version);
	run(&r, bench, "--version", NOARG);
	expect(&r, 0, NULL);
	assert_string_equal(r.out, want);
	tu_result_free(&r);
	run(&r, bench, "gen-c", "--version", NOARG);
	expect(&r, 0, NULL);
	assert_string_equal(r.out, want);
	tu_result_free(&r);
}

/* ---- The manual page against --help ----------------------------------------------- */

#define MAX_ITEMS 64

struct names {
	char *v[MAX_ITEMS];
	size_t n;
};

static void add(struct names *s, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strlen(s->v[i]) == len && strncmp(s->v[i], name, len) == 0)
			return;
	assert_true(s->n < MAX_ITEMS);
	s->v[s->n] = strndup(name, len);
	assert_non_null(s->v[s->n]);
	s->n++;
}

static bool has(const struct names *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->v[i], name) == 0)
			return true;
	return false;
}

static void names_free(struct names *s)
{
	while (s->n)
		free(s->v[--s->n]);
}

/* Every name of @a is in @b and back; @what says what they are. */
static void expect_same(const struct names *a, const char *an, const struct names *b,
			const char *bn, const char *what)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (!has(b, a->v[i]))
			fail_msg("%s '%s' is in %s, not in %s", what, a->v[i], an, bn);
	for (i = 0; i < b->n; i++)
		if (!has(a, b->v[i]))
			fail_msg("%s '%s' is in %s, not in %s", what, b->v[i], bn, an);
}

/* The lines of @text's block headed @title (up to a blank line), in place. */
static char *block(char *text, const char *title)
{
	char *p = strstr(text, title), *end;

	if (!p)
		fail_msg("no '%s' in the help:\n%s", title, text);
	p = strchr(p, '\n') + 1;
	end = strstr(p, "\n\n");
	if (end)
		end[1] = '\0';
	return p;
}

/*
 * The options of an "Options:" block ("  -h, --help  text", "  --vaddr ADDR
 * text"): the column before the text, names split at ", ", without values.
 */
static void help_options(char *help, struct names *opts)
{
	char *line = block(help, "\nOptions:\n");

	while (*line) {
		char *nl = strchr(line, '\n'), *col = line + 2, *gap;

		*nl = '\0';
		if (starts_with(line, "  -")) {
			gap = strstr(col, "  ");
			if (gap)
				*gap = '\0';
			while (*col) {
				size_t len = strcspn(col, " ,");

				add(opts, col, len);
				col += len;
				col += strspn(col, " ");
				if (*col == ',')
					col += 1 + strspn(col + 1, " ");
				else
					col += strcspn(col, ",");	/* skip the value */
			}
		}
		line = nl + 1;
	}
}

struct manual {
	struct names commands;	/* .SS under COMMANDS */
	struct names synopsis;	/* the lines of SYNOPSIS */
	struct names options;	/* the .TP items of OPTIONS, without values */
	struct names status;	/* the .TP items of EXIT STATUS */
	char th[256];
};

static void read_manual(struct manual *m)
{
	size_t len;
	char *text = tu_read_file(manpage, &len), *line, *section = "";
	bool nofill = false, item = false;

	assert_non_null(text);
	memset(m, 0, sizeof(*m));
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char buf[1024];

		if (starts_with(line, ".TH "))
			snprintf(m->th, sizeof(m->th), "%s", line);
		if (starts_with(line, ".SH ")) {
			section = line + 4 + (line[4] == '"');
			section[strcspn(section, "\"")] = '\0';
			continue;
		}
		if (strcmp(line, ".nf") == 0 || strcmp(line, ".fi") == 0) {
			nofill = line[1] == 'n';
			continue;
		}
		if (strcmp(line, ".TP") == 0) {
			item = true;
			continue;
		}
		if (strcmp(section, "COMMANDS") == 0 && starts_with(line, ".SS "))
			add(&m->commands, line + 4, strlen(line + 4));
		if (item && starts_with(line, ".B "))
			line += 3;	/* a tag in bold */
		else if (line[0] == '.')
			continue;
		if (!doc_unroff(line, buf, sizeof(buf)))
			continue;	/* prose with other escapes */
		if (strcmp(section, "SYNOPSIS") == 0 && nofill)
			add(&m->synopsis, buf, strlen(buf));
		if (item && strcmp(section, "OPTIONS") == 0) {
			char *opt = buf;

			while (*opt) {
				size_t n = strcspn(opt, " ,");

				add(&m->options, opt, n);
				opt += n;
				opt += strspn(opt, " ");
				if (*opt == ',')
					opt += 1 + strspn(opt + 1, " ");
				else
					break;	/* a value */
			}
		}
		if (item && strcmp(section, "EXIT STATUS") == 0)
			add(&m->status, buf, strlen(buf));
		item = false;
	}
	free(text);
}

static void test_manual_page(void **state)
{
	struct names help_cmds = { 0 }, help_syn = { 0 }, help_opts = { 0 };
	struct manual m;
	char *general = help_of(tool, NULL), *list, *status_text;
	size_t i;

	(void)state;
	read_manual(&m);
	/* The version Meson gave the tool. */
	{
		char want[128];

		snprintf(want, sizeof(want), "\"sframe %s\"", version);
		if (!strstr(m.th, want))
			fail_msg("the manual page's %s is not of %s", m.th, want);
	}
	/* Every command of the general help, and its synopsis. */
	status_text = strstr(general, "\nExit status:");
	assert_non_null(status_text);
	status_text = strdup(status_text);
	list = strdup(general);
	help_options(list, &help_opts);
	free(list);
	list = block(general, "\nCommands:\n");
	for (; *list; list = strchr(list, '\n') + 1) {
		if (starts_with(list, "  ") && list[2] != ' ') {
			size_t len = strcspn(list + 2, "\n");
			char *gap = strstr(list + 2, "  ");
			char syn[256];

			if (gap && (size_t)(gap - (list + 2)) < len)
				len = (size_t)(gap - (list + 2));
			snprintf(syn, sizeof(syn), "sframe %.*s", (int)len, list + 2);
			add(&help_syn, syn, strlen(syn));
			add(&help_cmds, list + 2, strcspn(list + 2, " \n"));
		}
	}
	/* The general usage forms but the first (COMMAND [OPTION...] [ARG...]). */
	for (list = strchr(general, '\n') + 1; starts_with(list, "       sframe ");
	     list = strchr(list, '\n') + 1)
		add(&help_syn, list + 7, strcspn(list + 7, "\n"));
	/* Each command's help: its synopsis, its options, the same exit status. */
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		char *help = help_of(tool, commands[i]), *opts = strdup(help);
		char usage[256];
		struct names mine = { 0 };
		size_t k;

		/* Its first line, "Usage: sframe CMD ..." (help_of() checked the start). */
		snprintf(usage, sizeof(usage), "%.*s", (int)strcspn(help, "\n"), help);
		if (!has(&help_syn, usage + strlen("Usage: ")))
			fail_msg("'%s' is not the general help's synopsis of %s", usage, commands[i]);
		help_options(opts, &mine);
		for (k = 0; k < mine.n; k++) {
			add(&help_opts, mine.v[k], strlen(mine.v[k]));
			if (mine.v[k][1] == '-' && strcmp(mine.v[k], "--help") != 0 &&
			    !strstr(usage, mine.v[k]))
				fail_msg("%s: option %s is not in its synopsis", commands[i], mine.v[k]);
		}
		if (!strstr(help, status_text))
			fail_msg("%s --help does not end with the general exit status", commands[i]);
		names_free(&mine);
		free(opts);
		free(help);
	}
	expect_same(&help_cmds, "sframe --help", &m.commands, "the manual's COMMANDS", "command");
	expect_same(&help_syn, "--help", &m.synopsis, "the manual's SYNOPSIS", "synopsis");
	expect_same(&help_opts, "--help", &m.options, "the manual's OPTIONS", "option");
	assert_int_equal(m.status.n, 3);
	assert_true(has(&m.status, "0") && has(&m.status, "1") && has(&m.status, "2"));
	names_free(&help_cmds);
	names_free(&help_syn);
	names_free(&help_opts);
	names_free(&m.commands);
	names_free(&m.synopsis);
	names_free(&m.options);
	names_free(&m.status);
	free(status_text);
	free(general);
}

/* groff renders the page without a warning (skipped where there is no groff). */
static void test_manual_page_renders(void **state)
{
	FILE *err = tmpfile();
	char *text;
	int status;
	pid_t pid;

	(void)state;
	assert_non_null(err);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fileno(err), 2);
		execlp("groff", "groff", "-man", "-ww", "-z", manpage, (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		fclose(err);
		printf("SKIP: no groff here (Debian: groff-base)\n");
		skip();
	}
	text = calloc(1, 65536);
	assert_non_null(text);
	rewind(err);
	if (fread(text, 1, 65535, err) > 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("groff -man -ww on %s: status %d\n%s", manpage, status, text);
	free(text);
	fclose(err);
}

/* ---- One exit-status rule ------------------------------------------------------------ */

/* @data (@n bytes, freed) written to the temporary folder as @name, @path. */
static char *write_tmp(const char *name, char *data, size_t n, char *path, size_t size)
{
	FILE *f;

	snprintf(path, size, "%s/%s", tmpdir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
	free(data);
	return path;
}

/* A copy of fixture @rel in the temporary folder, with @len bytes at @off replaced. */
static char *patched(const char *rel, const char *name, long off, const void *bytes, size_t len)
{
	static char path[512];
	size_t n;
	char *data = tu_read_file(fx(rel), &n);

	assert_non_null(data);
	assert_true(off >= 0 && (size_t)off + len <= n);
	memcpy(data + off, bytes, len);
	return write_tmp(name, data, n, path, sizeof(path));
}

/* frames.o with its section names changed: ".sframe" is no more. */
static char *elf_without_sframe(void)
{
	static char path[512];
	size_t n, i;
	char *data = tu_read_file(fx("v3-x86_64/frames.o"), &n);
	unsigned int hits = 0;

	assert_non_null(data);
	for (i = 0; i + 8 <= n; i++) {
		if (memcmp(data + i, ".sframe", 8) == 0) {
			data[i + 1] = 'x';
			hits++;
		}
	}
	assert_true(hits > 0);
	return write_tmp("no-sframe.o", data, n, path, sizeof(path));
}

static void test_exit_usage(void **state)
{
	char *lib = fx("v3-x86_64/lib.so");

	(void)state;
	expect_run(2, "no command given", tool, NOARG);
	expect_run(2, "unknown command 'frobnicate'", tool, "frobnicate", lib, NOARG);
	expect_run(2, "unknown command 'frobnicate'", tool, "help", "frobnicate", NOARG);
	expect_run(2, "dump: missing FILE", tool, "dump", NOARG);
	expect_run(2, "check: unexpected argument", tool, "check", lib, lib, NOARG);
	expect_run(2, "invalid address '0xq'", tool, "dump", "--vaddr", "0xq", lib, NOARG);
	expect_run(2, "invalid PC '0xzz'", tool, "lookup", lib, "0xzz", NOARG);
	expect_run(2, "unwind: missing --elf EXE",
		   tool, "unwind", fx("unwind/v3-s390x/unwind.snap"), NOARG);
	expect_run(2, "unwind: missing SNAPSHOT",
		   tool, "unwind", "--elf", fx("unwind/v3-s390x/unwind"), NOARG);
	expect_run(2, "option '--elf' needs a file", tool, "unwind", "--elf", NOARG);
	expect_run(2, "stack: missing PID", tool, "stack", NOARG);
	expect_run(2, "unknown command frobnicate", bench, "frobnicate", NOARG);
}

/* Files that cannot be read, and output that cannot be written: 2. */
static void test_exit_io(void **state)
{
	static const char *const file_commands[] = { "dump", "lookup", "check" };
	char *exe = fx("unwind/v3-s390x/unwind"), *snap = fx("unwind/v3-s390x/unwind.snap");
	char *argv[8];
	struct tu_result r;
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		run(&r, tool, file_commands[i], "/nonexistent/lib.so", NOARG);
		expect(&r, 2, "/nonexistent/lib.so: No such file or directory");
		tu_result_free(&r);
		/* A folder opens, but does not read. */
		run(&r, tool, file_commands[i], fixtures, NOARG);
		expect(&r, 2, "Is a directory");
		tu_result_free(&r);
	}
	/* The executable of unwind as much as its snapshots. */
	expect_run(2, "/nonexistent/exe: No such file or directory",
		   tool, "unwind", "--elf", "/nonexistent/exe", snap, NOARG);
	expect_run(2, "/nonexistent/snap: No such file or directory",
		   tool, "unwind", "--elf", exe, "/nonexistent/snap", NOARG);
	expect_run(2, "No such file or directory",
		   bench, "lookup", "/nonexistent/lib.so", fx("v3-x86_64/lib.so.pcs"), NOARG);

	argv[0] = (char *)tool;
	argv[1] = "check";
	argv[2] = fx("v3-x86_64/lib.so");
	argv[3] = NULL;
	tu_run_both(argv, "/dev/full", &r);
	expect(&r, 2, "write error");
	tu_result_free(&r);
	argv[1] = "unwind";
	argv[2] = "--elf";
	argv[3] = exe;
	argv[4] = snap;
	argv[5] = NULL;
	tu_run_both(argv, "/dev/full", &r);
	expect(&r, 2, "write error");
	tu_result_free(&r);
	argv[1] = "--help";
	argv[2] = NULL;
	tu_run_both(argv, "/dev/full", &r);
	expect(&r, 2, "write error");
	tu_result_free(&r);
}

/* Files that are read but are not what is needed, and failed lookups: 1. */
static void test_exit_content(void **state)
{
	char *exe = fx("unwind/v3-s390x/unwind"), *snap = fx("unwind/v3-s390x/unwind.snap");
	char *nosframe = elf_without_sframe();
	struct tu_result r;

	(void)state;
	expect_run(1, "not an ELF file or SFrame section", tool, "dump", fx("README.md"), NOARG);
	expect_run(1, "no .sframe section or PT_GNU_SFRAME segment",
		   tool, "check", nosframe, NOARG);
	expect_run(1, "SFRAME_ERR_ABI", tool, "dump", fx("hostile/abi-255.sframe"), NOARG);
	expect_run(1, "invalid: FDE 0", tool, "check", fx("hostile/fde-type-2.sframe"), NOARG);
	/* 0x1010 lies in FDE 0, the one of a reserved type (sframe dump). */
	run(&r, tool, "lookup", fx("hostile/fde-type-2.sframe"), "0x1010", NOARG);
	expect(&r, 1, "lookup 0x1010");
	assert_string_equal(r.out, "0x1010 !SFRAME_ERR_FDE_TYPE\n");
	tu_result_free(&r);
	/* unwind: an executable without SFrame, a snapshot that is not one. */
	expect_run(1, "no .sframe section", tool, "unwind", "--elf", nosframe, snap, NOARG);
	expect_run(1, "not a linked ELF executable or library",
		   tool, "unwind", "--elf", fx("v3-x86_64/lib.so.sframe"), snap, NOARG);
	expect_run(1, "not a stack snapshot file",
		   tool, "unwind", "--elf", exe, fx("README.md"), NOARG);
	/* A missing snapshot among good ones: the worst status wins. */
	run(&r, tool, "unwind", "--elf", exe, fx("README.md"), "/nonexistent/snap", snap, NOARG);
	expect(&r, 2, "not a stack snapshot file");
	assert_non_null(strstr(r.out, "sample 1999:"));
	tu_result_free(&r);
	expect_run(1, "abi-255.sframe", bench, "pcs", fx("hostile/abi-255.sframe"), "10", NOARG);
}

/* The sample blocks of sframe unwind's output: "sample N: ..." up to the next. */
static size_t sample_blocks(char *out, char **v, size_t max)
{
	size_t n = 0;
	char *p = out;

	while ((p = strstr(p, "sample ")) && n < max) {
		if (p != out && p[-1] != '\n') {
			p++;
			continue;
		}
		v[n++] = p;
		p++;
	}
	for (size_t i = 0; i + 1 < n; i++)
		v[i + 1][-1] = '\0';
	return n;
}

/*
 * sframe unwind of an executable whose SFrame was removed (objcopy leaves
 * its PT_GNU_SFRAME empty): its .eh_frame, converted, walks every sample
 * through the frames gas's section gave, and further where gas described
 * nothing (the C library linked in); --no-convert walks none of it.
 */
static void test_unwind_converted(void **state)
{
	char *exe = fx("unwind/v3-x86_64/unwind"), *snap = fx("unwind/v3-x86_64/unwind.snap");
	static char *own_v[4096], *conv_v[4096];
	static char path[512];
	char cmd[2048];
	struct tu_result own, conv, none;
	size_t n, i, further = 0;

	(void)state;
	write_tmp("unwind-without-sframe", calloc(1, 1), 0, path, sizeof(path));
	snprintf(cmd, sizeof(cmd), "objcopy --remove-section=.sframe '%s' '%s'", exe, path);
	assert_int_equal(system(cmd), 0);
	run(&own, tool, "unwind", "--elf", exe, snap, NOARG);
	expect(&own, 0, NULL);
	run(&conv, tool, "unwind", "--elf", path, snap, NOARG);
	expect(&conv, 0, ": converted .eh_frame: ");
	n = sample_blocks(own.out, own_v, 4096);
	assert_true(n > 100);
	assert_int_equal(sample_blocks(conv.out, conv_v, 4096), n);
	for (i = 0; i < n; i++) {
		/* Gas's frames, without its stop line. */
		size_t keep = (size_t)(strstr(own_v[i], "  stop:") - own_v[i]);

		assert_true(strstr(own_v[i], "  stop:") != NULL);
		if (strncmp(own_v[i], conv_v[i], keep) != 0)
			fail_msg("sample %zu: gas's section walked\n%s\nthe converted one\n%s", i,
				 own_v[i], conv_v[i]);
		further += strlen(conv_v[i]) > strlen(own_v[i]);
	}
	assert_true(further > 0);
	run(&none, tool, "unwind", "--no-convert", "--elf", path, snap, NOARG);
	expect(&none, 0, "no SFrame data");
	assert_null(strstr(none.err, "converted"));
	tu_result_free(&own);
	tu_result_free(&conv);
	tu_result_free(&none);
}

/* ---- Messages that name things ------------------------------------------------------ */

static void test_message_machines(void **state)
{
	static const unsigned char aarch64[2] = { 183, 0 };	/* e_machine, little endian */
	struct tu_result r;
	char *exe;

	(void)state;
	run(&r, tool, "unwind", "--elf", fx("unwind/v3-s390x/unwind"),
	    fx("unwind/v3-x86_64/unwind.snap"), NOARG);
	expect(&r, 1, "a snapshot of x86-64 code, but the executable is for s390x");
	assert_null(strstr(r.err, "machine 62"));
	tu_result_free(&r);
	/* An x86-64 executable said to be AArch64 (e_machine at offset 18). */
	exe = patched("unwind/v3-x86_64/unwind", "aarch64-said", 18, aarch64, 2);
	expect_run(1, "an ELF file for AArch64 with an SFrame section for x86-64",
		   tool, "unwind", "--elf", exe, fx("unwind/v3-x86_64/unwind.snap"), NOARG);
}

static void test_message_plural(void **state)
{
	char path[512], *pcs;
	struct tu_result r;

	(void)state;
	/* A hand-made section of one function with three rows. */
	run(&r, tool, "check", fx("handmade/v2-fixed-fp-x86_64.sframe"), NOARG);
	expect(&r, 0, NULL);
	if (!strstr(r.out, ": valid (1 FDE, 3 FREs, SFrame v2, amd64)\n"))
		fail_msg("sframe check said: %s", r.out);
	tu_result_free(&r);
	/* One PC whose lookup fails. */
	pcs = write_tmp("one.pcs", strdup("0x1010\n"), 7, path, sizeof(path));
	expect_run(1, "sframe-bench: 1 lookup failed, the first with SFRAME_ERR_FDE_TYPE", bench,
		   "lookup", fx("hostile/fde-type-2.sframe"), pcs, "--seconds", "0.01", NOARG);
}

static void test_message_bench_fixtures(void **state)
{
	char empty[512];
	struct tu_result r;

	(void)state;
	run(&r, bench, "unwind", "--no-inproc", "--fixtures", "/nonexistent/fixtures", NOARG);
	expect(&r, 2, "/nonexistent/fixtures/unwind: No such file or directory");
	assert_string_equal(r.out, "");
	tu_result_free(&r);
	/* A folder with an unwind/ without snapshots measures nothing: an error. */
	snprintf(empty, sizeof(empty), "%s/unwind", tmpdir);
	assert_true(mkdir(empty, 0700) == 0 || errno == EEXIST);
	run(&r, bench, "unwind", "--no-inproc", "--fixtures", tmpdir, NOARG);
	expect(&r, 1, "no snapshot fixtures in");
	assert_string_equal(r.out, "");
	tu_result_free(&r);
}

/*
 * Binutils 2.40's libsframe (Debian 12: libsframe.so.0) reads v1 only; on a
 * v3 section its sframe_decode() says "Out of Memory.". The bench must say
 * which version it cannot read. Skipped where that library is missing.
 */
static void test_message_bench_peer(void **state)
{
	struct tu_result r;

	(void)state;
	run(&r, bench, "lookup", fx("v3-x86_64/lib.so"), fx("v3-x86_64/lib.so.pcs"), "--seconds",
	    "0.01", "--libsframe", "libsframe.so.0", NOARG);
	expect(&r, 0, NULL);
	/* Not loaded (missing, or not of this build's architecture): no verdict. */
	if (strstr(r.out, "peer libsframe unavailable: ") && !strstr(r.out, " cannot read ")) {
		printf("SKIP: no libsframe.so.0 here: %s", r.out);
		tu_result_free(&r);
		skip();
	}
	if (!strstr(r.out, "peer libsframe unavailable: libsframe.so.0 cannot read SFrame v3 "
			   "sections (sframe_decode: "))
		fail_msg("sframe-bench said:\n%s", r.out);
	tu_result_free(&r);
	/* The version it reads. */
	run(&r, bench, "lookup", fx("v1-x86_64/lib.so"), fx("v1-x86_64/lib.so.pcs"), "--seconds",
	    "0.01", "--libsframe", "libsframe.so.0", NOARG);
	expect(&r, 0, NULL);
	assert_non_null(strstr(r.out, "peer libsframe ns_per_lookup="));
	tu_result_free(&r);
}

static int remove_tmpdir(void **state)
{
	char path[600];

	(void)state;
	snprintf(path, sizeof(path), "%s/unwind", tmpdir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/no-sframe.o", tmpdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/aarch64-said", tmpdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/one.pcs", tmpdir);
	unlink(path);
	rmdir(tmpdir);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_bench_help),
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_manual_page),
		cmocka_unit_test(test_manual_page_renders),
		cmocka_unit_test(test_exit_usage),
		cmocka_unit_test(test_exit_io),
		cmocka_unit_test(test_exit_content),
		cmocka_unit_test(test_unwind_converted),
		cmocka_unit_test(test_message_machines),
		cmocka_unit_test(test_message_plural),
		cmocka_unit_test(test_message_bench_fixtures),
		cmocka_unit_test(test_message_bench_peer),
	};
	const char *t = getenv("TMPDIR");

	if (argc != 6) {
		fprintf(stderr, "usage: %s SFRAME_TOOL SFRAME_BENCH VERSION MANPAGE FIXTURES_DIR\n",
			argv[0]);
		return 2;
	}
	tool = argv[1];
	bench = argv[2];
	version = argv[3];
	manpage = argv[4];
	fixtures = argv[5];
	snprintf(tmpdir, sizeof(tmpdir), "%s/sframe-test-cli-XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, remove_tmpdir);
}
