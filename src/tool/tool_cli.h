/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * tool_cli.h - what every command of "sframe" and "sframe-bench" shares on
 * the command line: one exit-status rule, stated once, and the -h/--help
 * and --version options.
 *
 * The rule: 0 success; 1 the input was read but its content is bad (an
 * invalid section, ELF file or snapshot, no SFrame where some was needed)
 * or a lookup failed; 2 the command could not be carried out: a usage
 * error, or a file, process or stream that cannot be opened, read or
 * written (missing, not permitted, a process that is gone or a zombie).
 */
#ifndef SFRAME_TOOL_CLI_H
#define SFRAME_TOOL_CLI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SF_EXIT_OK	0
#define SF_EXIT_BAD	1
#define SF_EXIT_USAGE	2

/* The rule as every help text ends with it (and the manual page says it). */
#define SF_EXIT_STATUS_TEXT \
	"Exit status: 0 success; 1 bad content (an invalid section, ELF file or\n" \
	"snapshot) or a failed lookup; 2 usage error, or a file, process or stream\n" \
	"that cannot be read or written.\n"

/* Meson sets it to the project's version (bench-real.sh builds without it). */
#ifndef SFRAME_TOOL_VERSION
#define SFRAME_TOOL_VERSION "unknown"
#endif

/*
 * -h/--help prints @usage, --version "@prog VERSION", both on standard
 * output. Returns the exit status when @arg is one of them, -1 otherwise.
 */
static inline int sf_cli_info_option(const char *arg, const char *prog, const char *usage)
{
	if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)
		fputs(usage, stdout);
	else if (strcmp(arg, "--version") == 0)
		printf("%s %s\n", prog, SFRAME_TOOL_VERSION);
	else
		return -1;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: write error on standard output\n", prog);
		return SF_EXIT_USAGE;
	}
	return SF_EXIT_OK;
}

/*
 * A usage error: "PROG: CMD: message" (without "CMD: " when @cmd is NULL)
 * and where the help is, on standard error. Returns SF_EXIT_USAGE.
 */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static inline int sf_cli_usage_error(const char *prog, const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: %s%s", prog, cmd ? cmd : "", cmd ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s%s%s --help' for more information.\n", prog, cmd ? " " : "",
		cmd ? cmd : "");
	return SF_EXIT_USAGE;
}

/*
 * A hex number, "0x" optional, no sign or spaces, as every command takes
 * addresses; false when malformed or wider than 64 bits.
 */
static inline bool sf_cli_parse_hex(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	bool any = false;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (*s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			return false;
		if (v >> 60)
			return false;	/* more than 64 bits */
		v = v << 4 | d;
		any = true;
	}
	*out = v;
	return any;
}

#endif /* SFRAME_TOOL_CLI_H */
