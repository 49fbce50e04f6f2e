/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * tool_run.c - see tool_run.h.
 */
#define _GNU_SOURCE
#include "tool_run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdarg.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

char *tu_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return NULL;
	}
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[n] = 0;
		*len = (size_t)n;
	}
	return buf;
}

unsigned char *tu_read_all(const char *path, size_t *len)
{
	unsigned char *d = (unsigned char *)tu_read_file(path, len);

	if (!d)
		fail_msg("cannot read %s", path);
	return d;
}

char *tu_path(const char *dir, const char *rel)
{
	static char bufs[16][1024];
	static unsigned int next;
	char *b = bufs[next++ % 16];

	snprintf(b, sizeof(bufs[0]), "%s/%s", dir, rel);
	return b;
}

/* In the child: exec argv, through SFRAME_TEST_WRAPPER when it is set. */
static void exec_wrapped(char *const argv[])
{
	const char *w = getenv("SFRAME_TEST_WRAPPER");
	char *words, *wargv[64], *tok, *save;
	size_t n = 0, i;

	if (!w || !*w) {
		execv(argv[0], argv);
		return;
	}
	words = strdup(w);
	if (!words)
		return;
	for (tok = strtok_r(words, " ", &save); tok && n < 32; tok = strtok_r(NULL, " ", &save))
		wargv[n++] = tok;
	for (i = 0; argv[i] && n < 63; i++)
		wargv[n++] = argv[i];
	wargv[n] = NULL;
	execvp(wargv[0], wargv);
}

char *tu_run(char *const argv[], const char *in, int capture_fd, size_t *len, int *status)
{
	int pfd[2];
	pid_t pid;
	size_t cap = 1 << 16, n = 0;
	char *out = malloc(cap);
	ssize_t r;

	assert_non_null(out);
	assert_int_equal(pipe(pfd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(in ? in : "/dev/null", O_RDONLY);
		int null = open("/dev/null", O_WRONLY);

		if (fd < 0 || null < 0)
			_exit(127);
		dup2(fd, 0);
		/* The stream not captured: stdout is discarded, stderr kept. */
		if (capture_fd == 2)
			dup2(null, 1);
		dup2(pfd[1], capture_fd);
		close(pfd[0]);
		close(pfd[1]);
		exec_wrapped(argv);
		_exit(127);
	}
	close(pfd[1]);
	for (;;) {
		if (n + 1 >= cap) {
			cap *= 2;
			out = realloc(out, cap);
			assert_non_null(out);
		}
		r = read(pfd[0], out + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(pfd[0]);
	assert_int_equal(waitpid(pid, status, 0), pid);
	out[n] = 0;
	*len = n;
	return out;
}

/* The whole content of @f from its start, NUL-terminated. */
static char *slurp(FILE *f)
{
	size_t cap = 4096, n = 0, k;
	char *buf = malloc(cap);

	assert_non_null(buf);
	rewind(f);
	while ((k = fread(buf + n, 1, cap - 1 - n, f)) > 0) {
		n += k;
		if (n + 1 == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
	}
	buf[n] = 0;
	return buf;
}

void tu_run_both(char *const argv[], const char *out_path, struct tu_result *r)
{
	/* Files, not pipes: nothing to interleave, and no pipe to fill. */
	FILE *out = tmpfile(), *err = tmpfile();
	int status;
	pid_t pid;

	assert_non_null(out);
	assert_non_null(err);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);
		int o = out_path ? open(out_path, O_WRONLY) : fileno(out);

		if (in < 0 || o < 0)
			_exit(127);
		dup2(in, 0);
		dup2(o, 1);
		dup2(fileno(err), 2);
		exec_wrapped(argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	r->out = slurp(out);
	r->err = slurp(err);
	fclose(out);
	fclose(err);
}

void tu_result_free(struct tu_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

void tu_vrun_tool(struct tu_result *r, const char *tool, va_list ap)
{
	char *argv[16];
	size_t n = 0;

	argv[n++] = (char *)tool;
	while (n < 15 && (argv[n] = va_arg(ap, char *)) != NULL)
		n++;
	argv[n] = NULL;
	tu_run_both(argv, NULL, r);
}

void tu_expect(const struct tu_result *r, int status, const char *in_err)
{
	if (r->status != status || (in_err && !strstr(r->err, in_err)))
		fail_msg("exit status %d (expected %d), stdout:\n%sstderr:\n%s(expected in it: %s)",
			 r->status, status, r->out, r->err, in_err ? in_err : "-");
}
