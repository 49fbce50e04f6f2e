/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * tool_run.h - test helpers shared by the tests that read fixture files and
 * run the sframe tool.
 */
#ifndef SFRAME_TEST_TOOL_RUN_H
#define SFRAME_TEST_TOOL_RUN_H

#include <stdarg.h>
#include <stddef.h>

/*
 * tu_read_file() - the whole file, NUL-terminated (so text can be used as a
 * string); *@len excludes the NUL. NULL when it cannot be read.
 */
char *tu_read_file(const char *path, size_t *len);

/* tu_read_all() - tu_read_file(), failing the test when it cannot be read. */
unsigned char *tu_read_all(const char *path, size_t *len);

/*
 * tu_path() - "@dir/@rel" in one of 16 buffers used in turn: a call's
 * result lasts for the next 15 calls.
 */
char *tu_path(const char *dir, const char *rel);

/*
 * tu_run() - run argv (argv[0] is the program's path) with stdin from @in
 * (NULL: /dev/null), and return what it writes to file descriptor
 * @capture_fd, NUL-terminated: 1 captures stdout (stderr is inherited), 2
 * captures stderr (stdout is discarded). *@status is waitpid()'s status.
 * Fails the test when it cannot fork or wait.
 *
 * When SFRAME_TEST_WRAPPER is set (words separated by spaces, e.g.
 * "qemu-s390x-static"), the wrapper runs argv: a cross-built tool cannot be
 * exec'd directly where binfmt_misc is not set up, and meson's exe_wrapper
 * only wraps the test binary itself, not what it spawns.
 */
char *tu_run(char *const argv[], const char *in, int capture_fd, size_t *len, int *status);

/*
 * struct tu_result - what tu_run_both() collected: the waitpid() status and
 * both output streams, NUL-terminated (free with tu_result_free()).
 */
struct tu_result {
	int status;
	char *out;
	char *err;
};

/*
 * tu_run_both() - as tu_run(), with no input, collecting standard output and
 * standard error; -1 in @r->status when the program was killed by a signal,
 * else its exit status. With @out_path, standard output goes to that file
 * instead (/dev/full: a write error) and @r->out is empty.
 */
void tu_run_both(char *const argv[], const char *out_path, struct tu_result *r);

void tu_result_free(struct tu_result *r);

/*
 * tu_vrun_tool() - tu_run_both() of @tool with the arguments in @ap, up to
 * a NULL (at most 14).
 */
void tu_vrun_tool(struct tu_result *r, const char *tool, va_list ap);

/*
 * tu_expect() - fail the test unless @r exited with @status and, when
 * @in_err is given, said it on standard error.
 */
void tu_expect(const struct tu_result *r, int status, const char *in_err);

#endif /* SFRAME_TEST_TOOL_RUN_H */
