/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_tool.c - the "sframe" command's main: the table of its commands,
 * the general help made from it, and the options that may come before a
 * command (dump, lookup and check take theirs anywhere). Each command
 * parses and prints in cmd/, on the machinery of read/, target/, perf/
 * and out/.
 *
 * Every command takes -h/--help (its own usage) and --version. Exit status:
 * as tool_cli.h says, for every command.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_convert.h"
#include "cmd/cmd_perf.h"
#include "cmd/cmd_section.h"
#include "cmd/cmd_stack.h"
#include "cmd/cmd_unwind.h"
#include "tool_cli.h"

/* Where a command's summary starts in the general help. */
#define SUMMARY_COLUMN 22

/*
 * A command. Those that parse their own arguments (@run) are found as the
 * first argument only; dump, lookup and check (@run_section) leave theirs
 * to main, which opens nothing.
 */
struct command {
	const char *name;
	const char *synopsis;	/* after "  " in the general help */
	const char *summary;	/* its lines, from SUMMARY_COLUMN on */
	const char *usage;	/* 'sframe NAME --help' (NULL: the general help) */
	int (*run)(int argc, char **argv);	/* argv[0] is the name */
	int (*run_section)(const struct sf_section_args *a);
	bool buffered;	/* stdout fully buffered: unwind prints a line a frame */
};

static const struct command commands[] = {
	{ "dump", "dump [--vaddr ADDR] FILE",
	  "print the section as objdump --sframe does",
	  sf_dump_usage, NULL, sf_cmd_dump, false },
	{ "lookup", "lookup [--vaddr ADDR] FILE [PC...]",
	  "print the row that describes each PC",
	  sf_lookup_usage, NULL, sf_cmd_lookup, false },
	{ "check", "check [--vaddr ADDR] FILE",
	  "validate the whole section",
	  sf_check_usage, NULL, sf_cmd_check, false },
	{ "unwind", "unwind --elf EXE [--fp-fallback] [--sframe-dir DIR]... [--no-convert] SNAPSHOT...",
	  "walk the stack of every sample in snapshot files taken\n"
	  "from EXE (registers and a copy of the stack)",
	  sf_unwind_usage, sf_cmd_unwind, NULL, true },
	{ "stack", "stack (PID | --core CORE [--exe EXE] [--sysroot DIR]) [--fp-fallback] "
	  "[--sframe-dir DIR]... [--no-convert]",
	  "print the stack of every thread of the running process\n"
	  "PID, or of the core file CORE, as eu-stack does",
	  sf_stack_usage, sf_cmd_stack, NULL, false },
	{ "perf", "perf [--folded | --flamegraph OUT] [--max-stack N] [--symfs DIR] "
	  "[--buildid-dir DIR] [--fp-fallback] [--sframe-dir DIR]... [--no-convert] [--quiet] FILE",
	  "unwind the samples of a perf.data file recorded with\n"
	  "--call-graph=dwarf; print them as perf script does",
	  sf_perf_usage, sf_cmd_perf, NULL, false },
	{ "convert", "convert FILE (-o OUT | --sframe-dir DIR) [--format v2|v3] "
	  "[--sframe-addr ADDR | --elf [--force]]",
	  "make an SFrame section of FILE's DWARF call-frame\n"
	  "information (.eh_frame) and write it to OUT, an ELF\n"
	  "file that goes with FILE as a separate debug file does\n"
	  "(--elf: a copy of FILE with the section loaded)",
	  sf_convert_usage, sf_cmd_convert, NULL, false },
	{ "help", "help [COMMAND]", "show this help, or COMMAND's",
	  NULL, NULL, NULL, false },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char general_head[] =
	"Usage: sframe COMMAND [OPTION...] [ARG...]\n"
	"       sframe COMMAND --help\n"
	"       sframe --version\n"
	"\n"
	"Read SFrame stack-trace sections (.sframe) and unwind stacks with them.\n"
	"\n"
	"Commands:\n";

static const char general_tail[] =
	"\n"
	"Options:\n"
	"  -h, --help          show this help; after a command, that command's\n"
	"  --version           print the version\n"
	"\n"
	"'sframe COMMAND --help' tells COMMAND's options, input and output.\n"
	"\n"
	SF_EXIT_STATUS_TEXT;

/* Append to @buf (@size bytes, *@n used); what does not fit is cut. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void put(char *buf, size_t size, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (*n >= size)
		return;
	va_start(ap, fmt);
	r = vsnprintf(buf + *n, size - *n, fmt, ap);
	va_end(ap);
	*n = r < 0 ? size : *n + (size_t)r;
}

/* The general help, written once from the table (4 KiB hold it twice over). */
static const char *general_text(void)
{
	static char text[4096];
	size_t n = 0, i;

	if (text[0])
		return text;
	put(text, sizeof(text), &n, "%s", general_head);
	for (i = 0; i < NCOMMANDS; i++) {
		const struct command *c = &commands[i];
		const char *line = c->summary, *end;
		int pad = SUMMARY_COLUMN - 2 - (int)strlen(c->synopsis);

		/* A short synopsis has its summary beside it, a long one below. */
		if (pad > 0)
			put(text, sizeof(text), &n, "  %s%*s", c->synopsis, pad, "");
		else
			put(text, sizeof(text), &n, "  %s\n%*s", c->synopsis, SUMMARY_COLUMN, "");
		while ((end = strchr(line, '\n')) != NULL) {
			put(text, sizeof(text), &n, "%.*s\n%*s", (int)(end - line), line,
			    SUMMARY_COLUMN, "");
			line = end + 1;
		}
		put(text, sizeof(text), &n, "%s\n", line);
	}
	put(text, sizeof(text), &n, "%s", general_tail);
	return text;
}

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/* The help of @cmd (NULL: the general one), or NULL for an unknown command. */
static const char *command_usage(const char *cmd)
{
	const struct command *c;

	if (!cmd)
		return general_text();
	c = find_command(cmd);
	if (!c)
		return NULL;
	return c->usage ? c->usage : general_text();
}

struct options {
	const struct command *cmd;
	struct sf_section_args a;
};

/* The command a usage error is about (its help is the one to read), or NULL. */
static const char *usage_cmd;

#define usage_error(...) sf_cli_usage_error("sframe", usage_cmd, __VA_ARGS__)

/* Parse argv into @o; return -1 to go on, or an exit status. */
static int parse_args(int argc, char **argv, struct options *o)
{
	bool end_of_options = false, help = false;
	int i, npos = 0;

	memset(o, 0, sizeof(*o));
	for (i = 1; i < argc && !usage_cmd; i++)
		if (argv[i][0] != '-' && strcmp(argv[i], "help") != 0 && command_usage(argv[i]))
			usage_cmd = argv[i];
	/* Positional arguments are gathered in place at the front of argv. */
	for (i = 1; i < argc; i++) {
		char *a = argv[i];
		const char *val = NULL;

		if (end_of_options || a[0] != '-' || a[1] == '\0') {
			argv[1 + npos++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			end_of_options = true;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			help = true;
		} else if (strcmp(a, "--version") == 0) {
			return sf_cli_info_option(a, "sframe", general_text());
		} else if (strcmp(a, "--vaddr") == 0 || strncmp(a, "--vaddr=", 8) == 0) {
			if (a[7] == '=') {
				val = a + 8;
			} else if (i + 1 < argc) {
				val = argv[++i];
			} else {
				return usage_error("option '%s' needs an address", a);
			}
			if (!sf_cli_parse_hex(val, &o->a.vaddr))
				return usage_error("invalid address '%s' (expected hex)", val);
			o->a.have_vaddr = true;
		} else {
			return usage_error("unknown option '%s'", a);
		}
	}
	/* "sframe help [COMMAND]" and "sframe [COMMAND] --help": that command's help. */
	if (help || (npos > 0 && strcmp(argv[1], "help") == 0)) {
		const char *name = npos > 0 ? argv[1] : NULL, *text;

		if (name && strcmp(name, "help") == 0) {
			if (npos > 2)
				return usage_error("help: unexpected argument '%s'", argv[3]);
			name = npos > 1 ? argv[2] : NULL;
		}
		text = command_usage(name);
		if (!text)
			return usage_error("unknown command '%s'", name);
		return sf_cli_info_option("--help", "sframe", text);
	}
	if (npos == 0)
		return usage_error("no command given");
	o->cmd = find_command(argv[1]);
	if (!o->cmd || !o->cmd->run_section)
		return usage_error("unknown command '%s'", argv[1]);
	if (npos < 2)
		return usage_error("missing FILE");
	o->a.file = argv[2];
	o->a.pcs = argv + 3;
	o->a.npcs = npos - 2;
	if (o->a.npcs > 0 && o->cmd->run_section != sf_cmd_lookup)
		return usage_error("unexpected argument '%s'", o->a.pcs[0]);
	return -1;
}

int main(int argc, char **argv)
{
	static char outbuf[1 << 16];
	const struct command *c = argc > 1 ? find_command(argv[1]) : NULL;
	struct options o;
	int r;

	if (c && c->run) {
		if (c->buffered)
			setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
		return c->run(argc - 1, argv + 1);
	}
	r = parse_args(argc, argv, &o);
	if (r >= 0) {
		if (fflush(stdout) != 0 || ferror(stdout)) {
			fputs("sframe: write error on standard output\n", stderr);
			return SF_EXIT_USAGE;
		}
		return r;
	}
	return o.cmd->run_section(&o.a);
}
