/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_stack.c - "sframe stack PID" on live processes: tests/stack_child.c,
 * built with SFrame, spins at known call depths; the tool must print its
 * threads' stacks in eu-stack's layout, frame by frame, and leave it running.
 *
 *   test_stack SFRAME_TOOL STACK_CHILD SKIP_REASON LLD_DIR README MANPAGE
 *
 * LLD_DIR (fixtures/lld-x86_64, "" on hosts that cannot run its x86_64
 * programs) holds a program linked by LLVM lld, whose .sframe is a run of
 * sections, and the same linked by GNU ld, whose .sframe is empty.
 *
 * The example of a live process in README and MANPAGE (doc_examples.h) is
 * compared with the tool's output on the child, ids, addresses and offsets
 * aside.
 *
 * A PLT entry is named as objdump names it: the test single-steps the
 * child's plt_spin loop with ptrace until it calls out (the call lands on
 * the first instruction of getppid's PLT entry), leaves it stopped there
 * (detached with SIGSTOP), and the tool must print "getppid@plt" as frame #0.
 *
 * With "ns" after MANPAGE, only the tests of processes in another mount
 * namespace run (they need root, util-linux's unshare, nsenter and setpriv,
 * and mount; else exit 77, the reason printed): the child's own path exists
 * only in its namespace, and the tool must read it inside /proc/PID/root,
 * say so, never open a file of ours that a link planted in the namespace
 * points to, nor use another file at the mapped path; a chroot in our
 * namespace is read in ours.
 *
 * A non-empty SKIP_REASON (the compiler cannot make SFrame, or a cross
 * build run under an emulator, which has no ptrace) skips the whole test:
 * exit 77, the reason printed. When ptrace is not permitted
 * here (Yama ptrace_scope, containers without CAP_SYS_PTRACE) the tests
 * that need it are skipped, with the tool's message.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "doc_examples.h"
#include "read/elf_input.h"
#include "read/proc_maps.h"
#include "target/ptrace_target.h"

#define END ((const char *)NULL)	/* ends run_tool()'s arguments */

static const char *tool_path;
static const char *child_path;
static const char *lld_dir;	/* fixtures/lld-x86_64, "" where its programs cannot run */
static const char *doc_paths[2];

/* ---- Children ------------------------------------------------------------------ */

struct child {
	pid_t pid;
	int out;	/* its standard output */
};

#define MAX_CHILDREN 4
static struct child children[MAX_CHILDREN];

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One line from @fd within @timeout_ms; false on timeout or EOF. */
static bool read_line(int fd, char *buf, size_t size, long timeout_ms)
{
	long deadline = now_ms() + timeout_ms;
	size_t len = 0;

	while (len + 1 < size) {
		struct pollfd p = { fd, POLLIN, 0 };
		long left = deadline - now_ms();
		ssize_t n;

		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			break;
		n = read(fd, buf + len, 1);
		if (n <= 0)
			break;
		if (buf[len] == '\n') {
			buf[len] = '\0';
			return true;
		}
		len++;
	}
	buf[len] = '\0';
	return false;
}

/* Start ARGV and wait for its "ready". */
static struct child *start_argv(const char *const *argv)
{
	struct child *c = NULL;
	char line[64];
	int p[2], i;

	for (i = 0; i < MAX_CHILDREN; i++)
		if (children[i].pid == 0)
			c = &children[i];
	assert_non_null(c);
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	c->pid = fork();
	assert_true(c->pid >= 0);
	if (c->pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(p[1]);
	c->out = p[0];
	if (!read_line(c->out, line, sizeof(line), 10000) || strcmp(line, "ready") != 0)
		fail_msg("%s %s did not get ready (got '%s')", argv[0], argv[1], line);
	return c;
}

/* Start PATH MODE and wait for its "ready". */
static struct child *start_program(const char *path, const char *mode)
{
	const char *argv[] = { path, mode, NULL };

	return start_argv(argv);
}

/* Start stack_child MODE and wait for its "ready". */
static struct child *start_child(const char *mode)
{
	return start_program(child_path, mode);
}

/* The child must still run: answer SIGUSR1 with "bye" and exit 0. */
static void expect_child_runs_and_ends(struct child *c)
{
	char path[64], line[256];
	int status;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/status", (long)c->pid);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "State:", 6) == 0) {
			const char *st = line + 6 + strspn(line + 6, " \t");

			/* Running or sleeping: not stopped (T) nor in a trace stop (t). */
			if (*st != 'R' && *st != 'S')
				fail_msg("stack_child left in state %s", st);
		}
		if (strncmp(line, "TracerPid:", 10) == 0)
			assert_int_equal(atol(line + 10), 0);
	}
	fclose(f);
	assert_int_equal(kill(c->pid, SIGUSR1), 0);
	if (!read_line(c->out, line, sizeof(line), 10000))
		fail_msg("stack_child does not respond after the tool detached");
	assert_string_equal(line, "bye");
	assert_int_equal(waitpid(c->pid, &status, 0), c->pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	close(c->out);
	c->pid = 0;
}

static int kill_children(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < MAX_CHILDREN; i++) {
		if (children[i].pid > 0) {
			kill(children[i].pid, SIGKILL);
			waitpid(children[i].pid, NULL, 0);
			close(children[i].out);
		}
		children[i].pid = 0;
	}
	return 0;
}

/* ---- Running the tool -------------------------------------------------------------- */

/*
 * How run_tool() runs the tool: as we are, or (root) with no capability
 * but CAP_SYS_PTRACE, so that /proc/PID/map_files (CAP_SYS_ADMIN or
 * CAP_CHECKPOINT_RESTORE) is closed to it and it must find files by their
 * paths; and so, with openat2() failing ENOSYS (a seccomp filter) as on
 * kernels before 5.6.
 */
enum tool_mode { AS_WE_ARE, NO_MAP_FILES, NO_OPENAT2 };
static enum tool_mode tool_mode;

/* In the child of run_tool(): exec the tool (@argv) as tool_mode says. */
static void exec_tool(const char *const *argv)
{
	static const char *const drop[] = { "setpriv", "--inh-caps=-all", "--ambient-caps=-all",
					    "--bounding-set=-all,+sys_ptrace" };
	const char *v[16];
	size_t n = 0, i;

	if (tool_mode == NO_OPENAT2) {
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

		/* (Root may install it without no_new_privs; the tool is native.) */
		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
			_exit(126);
	}
	if (tool_mode != AS_WE_ARE)
		for (i = 0; i < 4; i++)
			v[n++] = drop[i];
	for (i = 0; argv[i] && n + 1 < 16; i++)
		v[n++] = argv[i];
	v[n] = NULL;
	execvp(v[0], (char *const *)v);
	_exit(127);
}

struct run {
	int status;	/* exit status, or 128 + signal */
	char out[65536];
	char err[4096];
};

/* Run "sframe stack ARGS..." (NULL-terminated), collecting its output. */
static void run_tool(struct run *r, ...)
{
	const char *argv[8];
	int po[2], pe[2], status, n = 0;
	size_t lo = 0, le = 0;
	long deadline = now_ms() + 60000;
	bool open_o = true, open_e = true;
	va_list ap;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	argv[n++] = tool_path;
	argv[n++] = "stack";
	va_start(ap, r);
	while (n < 7 && (argv[n] = va_arg(ap, const char *)) != NULL)
		n++;
	va_end(ap);
	argv[n] = NULL;

	assert_int_equal(pipe2(po, O_CLOEXEC), 0);
	assert_int_equal(pipe2(pe, O_CLOEXEC), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(po[1], STDOUT_FILENO);
		dup2(pe[1], STDERR_FILENO);
		exec_tool(argv);
	}
	close(po[1]);
	close(pe[1]);
	while ((open_o || open_e) && now_ms() < deadline) {
		struct pollfd p[2] = { { open_o ? po[0] : -1, POLLIN, 0 },
				       { open_e ? pe[0] : -1, POLLIN, 0 } };
		ssize_t k;

		if (poll(p, 2, 1000) < 0 && errno != EINTR)
			break;
		if (p[0].revents) {
			k = read(po[0], r->out + lo, sizeof(r->out) - 1 - lo);
			if (k <= 0)
				open_o = false;
			else
				lo += (size_t)k;
		}
		if (p[1].revents) {
			k = read(pe[0], r->err + le, sizeof(r->err) - 1 - le);
			if (k <= 0)
				open_e = false;
			else
				le += (size_t)k;
		}
	}
	if (open_o || open_e)
		kill(pid, SIGKILL);
	close(po[0]);
	close(pe[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (r->status != 0 || r->err[0]) {
		printf("sframe stack");
		for (n = 2; argv[n]; n++)
			printf(" %s", argv[n]);
		printf(": exit %d\n%s", r->status, r->err);
		fflush(stdout);
	}
}

/* Skip (not fail) when this machine does not let the tool trace the child. */
static void skip_if_not_permitted(const struct run *r)
{
	if (r->status == 2 && (strstr(r->err, "Operation not permitted") ||
			       strstr(r->err, "not supported on this architecture"))) {
		printf("SKIP: ptrace is not available here: %s", r->err);
		fflush(stdout);
		kill_children(NULL);
		skip();
	}
}

/* ---- Parsing eu-stack's layout ------------------------------------------------------- */

struct frame {
	unsigned int idx;
	uint64_t pc;
	char sym[128];		/* the name, without +0xOFFSET; "??" when unknown */
	bool has_offset;
	char module[512];	/* "" when none is printed */
	bool fp;		/* [fp] */
	bool no_sframe;		/* [no sframe] */
	bool converted;		/* [converted] */
};

struct thread_block {
	long tid;
	struct frame frames[64];
	unsigned int n;
	char stop[1024];
};

struct parsed {
	long pid;
	char root[256];		/* the "root: " line's text, "" when there is none */
	struct thread_block th[8];
	unsigned int nth;
};

/* "#N  0x<16 hex> SYMBOL[+0xOFF] [- MODULE] [marks]": false when malformed. */
static bool parse_frame(const char *s, struct frame *f)
{
	const char *p, *q, *tok_end;
	char *end;
	size_t len;
	int i;

	memset(f, 0, sizeof(*f));
	if (*s++ != '#' || !isdigit((unsigned char)*s))
		return false;
	f->idx = (unsigned int)strtoul(s, &end, 10);
	/* eu-stack's "#%-2u 0x": "#0  0x", "#10 0x". */
	if (end - s < 2) {
		if (end[0] != ' ' || end[1] != ' ')
			return false;
		p = end + 2;
	} else {
		if (end[0] != ' ')
			return false;
		p = end + 1;
	}
	if (p[0] != '0' || p[1] != 'x')
		return false;
	p += 2;
	for (i = 0; i < 16; i++)
		if (!isxdigit((unsigned char)p[i]))
			return false;
	if (p[16] != ' ')
		return false;
	f->pc = strtoull(p, NULL, 16);
	p += 17;

	tok_end = strchr(p, ' ');
	if (!tok_end)
		tok_end = p + strlen(p);
	len = (size_t)(tok_end - p);
	if (len == 0 || len >= sizeof(f->sym))
		return false;
	memcpy(f->sym, p, len);
	f->sym[len] = '\0';
	if (strcmp(f->sym, "??") != 0) {
		char *plus = strrchr(f->sym, '+');

		if (!plus || plus[1] != '0' || plus[2] != 'x' || !plus[3])
			return false;
		for (q = plus + 3; *q; q++)
			if (!isxdigit((unsigned char)*q))
				return false;
		*plus = '\0';
		f->has_offset = true;
	}
	p = tok_end;
	if (strncmp(p, " - ", 3) == 0) {
		p += 3;
		q = strstr(p, " [");
		len = q ? (size_t)(q - p) : strlen(p);
		if (len == 0 || len >= sizeof(f->module))
			return false;
		memcpy(f->module, p, len);
		f->module[len] = '\0';
		p += len;
	}
	while (*p) {
		if (strncmp(p, " [fp]", 5) == 0) {
			f->fp = true;
			p += 5;
		} else if (strncmp(p, " [no sframe]", 12) == 0) {
			f->no_sframe = true;
			p += 12;
		} else if (strncmp(p, " [converted]", 12) == 0) {
			f->converted = true;
			p += 12;
		} else if (strncmp(p, " [signal]", 9) == 0) {
			p += 9;
		} else if (strncmp(p, " [pac]", 6) == 0) {
			p += 6;
		} else {
			return false;
		}
	}
	return true;
}

static void parse_output(const char *text, struct parsed *out)
{
	struct thread_block *t = NULL;
	const char *line = text;

	memset(out, 0, sizeof(*out));
	out->pid = -1;
	while (*line) {
		const char *nl = strchr(line, '\n');
		char buf[1024];
		size_t len;

		assert_non_null(nl);	/* every line ends with a newline */
		len = (size_t)(nl - line);
		assert_true(len < sizeof(buf));
		memcpy(buf, line, len);
		buf[len] = '\0';
		line = nl + 1;

		if (strncmp(buf, "PID ", 4) == 0) {
			assert_int_equal(out->pid, -1);
			assert_non_null(strstr(buf, " - process"));
			out->pid = atol(buf + 4);
		} else if (strncmp(buf, "root: ", 6) == 0) {
			assert_true(out->pid != -1 && out->nth == 0 && !out->root[0]);
			snprintf(out->root, sizeof(out->root), "%.200s", buf + 6);
		} else if (strncmp(buf, "TID ", 4) == 0) {
			assert_true(out->nth < 8);
			assert_int_equal(buf[len - 1], ':');
			t = &out->th[out->nth++];
			t->tid = atol(buf + 4);
		} else if (buf[0] == '#') {
			assert_non_null(t);
			assert_true(t->n < 64);
			if (!parse_frame(buf, &t->frames[t->n]))
				fail_msg("malformed frame line: '%s'", buf);
			assert_int_equal(t->frames[t->n].idx, t->n);
			t->n++;
		} else if (strncmp(buf, "stop: ", 6) == 0) {
			assert_non_null(t);
			assert_int_equal(t->stop[0], '\0');	/* one per thread */
			snprintf(t->stop, sizeof(t->stop), "%s", buf);
		} else {
			fail_msg("unexpected line: '%s'", buf);
		}
	}
	/* Every thread block ends with its stop reason. */
	for (unsigned int i = 0; i < out->nth; i++)
		if (!out->th[i].stop[0])
			fail_msg("TID %ld has no stop line", out->th[i].tid);
}

/* Frames 0.. of @t are @names, in order, in @module, described by SFrame. */
static void expect_chain_in(const struct thread_block *t, const char *const *names,
			    unsigned int n, const char *module)
{
	unsigned int i;

	if (t->n < n)
		fail_msg("TID %ld: %u frames, expected at least %u (%s)", t->tid, t->n, n, t->stop);
	for (i = 0; i < n; i++) {
		const struct frame *f = &t->frames[i];

		if (strcmp(f->sym, names[i]) != 0)
			fail_msg("TID %ld frame #%u is '%s', expected '%s'", t->tid, i, f->sym,
				 names[i]);
		assert_true(f->has_offset);
		assert_non_null(strstr(f->module, module));
		assert_false(f->no_sframe);
		assert_false(f->fp);
		assert_true(f->pc != 0);
	}
}

static void expect_chain(const struct thread_block *t, const char *const *names, unsigned int n)
{
	expect_chain_in(t, names, n, "stack_child");
}

/* What holds for every walk: marks and stop reasons agree. */
static void expect_consistent(const struct thread_block *t, bool fp_fallback)
{
	unsigned int i;

	assert_true(t->n > 0);
	for (i = 0; i < t->n; i++) {
		if (t->frames[i].fp)
			assert_true(fp_fallback);
		/*
		 * Described by a conversion, or by nothing: not both. The child
		 * has SFrame of its own, used as it is: only _start, from the C
		 * runtime, which gas did not assemble, comes from its .eh_frame.
		 */
		assert_false(t->frames[i].converted && t->frames[i].no_sframe);
		if (strstr(t->frames[i].module, "stack_child") && t->frames[i].converted)
			assert_string_equal(t->frames[i].sym, "_start");
	}
	if (strncmp(t->stop, "stop: no SFrame for 0x", 22) == 0) {
		assert_false(fp_fallback);
		assert_true(t->frames[t->n - 1].no_sframe);
		assert_int_equal(strtoull(t->stop + 20, NULL, 16), t->frames[t->n - 1].pc);
	}
}

static const char *const main_chain[] = { "level3", "level2", "level1", "main" };
static const char *const thread_chain[] = { "thread_level2", "thread_level1", "thread_start" };

/*
 * Run the tool on @pid (options @opt, or none) until every thread's frame #0
 * is its spin loop: the child says "ready" just before its loop, and a fast
 * tool may catch the thread still in write() or in say(). 200 tries 10 ms
 * apart; the last run's output stays in @r and @p either way.
 */
static void run_spinning(struct run *r, struct parsed *p, const char *pid, const char *opt)
{
	int tries;

	for (tries = 0; tries < 200; tries++) {
		unsigned int i, spinning = 0;

		run_tool(r, pid, opt, END);
		skip_if_not_permitted(r);
		assert_int_equal(r->status, 0);
		parse_output(r->out, p);
		for (i = 0; i < p->nth; i++)
			spinning += p->th[i].n > 0 && (strcmp(p->th[i].frames[0].sym, "level3") == 0 ||
						       strcmp(p->th[i].frames[0].sym, "thread_level2") == 0);
		if (p->nth && spinning == p->nth)
			return;
		usleep(10000);
	}
}

/* ---- Tests ------------------------------------------------------------------------- */

static void test_single_thread(void **state)
{
	static struct run r;
	static struct parsed p;
	const struct frame *last;
	struct child *c;
	char pid[32];
	int round;

	(void)state;
	c = start_child("single");
	snprintf(pid, sizeof(pid), "%ld", (long)c->pid);
	/* Twice: the first run must have detached cleanly for the second to attach. */
	for (round = 0; round < 2; round++) {
		run_spinning(&r, &p, pid, NULL);
		assert_int_equal(p.pid, c->pid);
		assert_int_equal(p.nth, 1);
		assert_int_equal(p.th[0].tid, c->pid);
		expect_chain(&p.th[0], main_chain, 4);
		expect_consistent(&p.th[0], false);
		/*
		 * Through the C library to the C runtime's _start, which the
		 * child's own section lacks: its .eh_frame fills the gap, and
		 * its CFI marks the outermost frame.
		 */
		last = &p.th[0].frames[p.th[0].n - 1];
		assert_string_equal(last->sym, "_start");
		assert_non_null(strstr(last->module, "stack_child"));
		assert_true(last->converted);
		assert_string_equal(p.th[0].stop, "stop: outermost frame");
		assert_non_null(strstr(r.err, "stack_child: its .sframe lacks 1 function the walks "
					      "reached: converted from .eh_frame"));
	}
	fputs(r.out, stdout);
	expect_child_runs_and_ends(c);
}

static void test_fp_fallback(void **state)
{
	static struct run r;
	static struct parsed p;
	struct child *c;
	char pid[32];

	(void)state;
	c = start_child("single");
	snprintf(pid, sizeof(pid), "%ld", (long)c->pid);
	run_spinning(&r, &p, pid, "--fp-fallback");	/* options after the PID too */
	assert_int_equal(p.nth, 1);
	expect_chain(&p.th[0], main_chain, 4);
	expect_consistent(&p.th[0], true);
	fputs(r.out, stdout);
	expect_child_runs_and_ends(c);
}

static void test_threads(void **state)
{
	static struct run r;
	static struct parsed p;
	const struct thread_block *main_t, *other;
	struct child *c;
	char pid[32];

	(void)state;
	c = start_child("threads");
	snprintf(pid, sizeof(pid), "%ld", (long)c->pid);
	run_spinning(&r, &p, pid, NULL);
	assert_int_equal(p.nth, 2);
	/* The main thread has TID = PID (and is listed first, as eu-stack does). */
	main_t = &p.th[0];
	other = &p.th[1];
	assert_int_equal(main_t->tid, c->pid);
	assert_true(other->tid > 0 && other->tid != c->pid);
	expect_chain(main_t, main_chain, 4);
	expect_chain(other, thread_chain, 3);
	expect_consistent(main_t, false);
	expect_consistent(other, false);
	fputs(r.out, stdout);
	expect_child_runs_and_ends(c);
}

/*
 * The run-time range of function @name of @pid's executable (child_path),
 * and of the executable's code.
 */
static void function_range(pid_t pid, const char *name, uint64_t *lo, uint64_t *hi,
			   uint64_t *text_lo, uint64_t *text_hi)
{
	char err[512], real[4096];
	const struct sf_symbol *s = NULL;
	struct sf_elf_info info;
	struct sf_input in;
	struct sf_maps maps;
	bool found = false;
	size_t i;

	assert_non_null(realpath(child_path, real));
	if (sf_input_load(real, 0, 0, &in, err, sizeof(err)))
		fail_msg("%s", err);
	if (sf_elf_info_load(&in, &info, err, sizeof(err)))
		fail_msg("%s", err);
	for (i = 0; i < info.nsyms && !s; i++)
		if (strcmp(info.syms[i].name, name) == 0)
			s = &info.syms[i];
	assert_non_null(s);
	assert_int_equal(sf_maps_read(pid, &maps, err, sizeof(err)), 0);
	for (i = 0; i < maps.n && !found; i++) {
		const struct sf_map *m = &maps.v[i];
		uint64_t bias;

		if (m->perms[2] == 'x' && strcmp(m->path, real) == 0 &&
		    sf_elf_load_bias(in.file, in.file_size, m->start, m->offset, &bias)) {
			*lo = s->addr + bias;
			*hi = s->end + bias;
			*text_lo = m->start;
			*text_hi = m->end;
			found = true;
		}
	}
	assert_true(found);
	sf_maps_free(&maps);
	sf_elf_info_free(&info);
	sf_input_free(&in);
}

static uint64_t pc_of(pid_t pid)
{
	struct sf_arch_regs r;
	char err[256];

	if (sf_arch_get_regs(pid, &r, err, sizeof(err)))
		fail_msg("%s", err);
	return r.regs.pc;
}

static void single_step(pid_t pid)
{
	int st;

	assert_int_equal(ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL), 0);
	assert_int_equal(waitpid(pid, &st, __WALL), pid);
	assert_true(WIFSTOPPED(st));
}

/*
 * Single-step @pid into [@lo, @hi) (plt_spin), then on until it leaves
 * that range: the first instruction of what its loop calls, getppid()'s PLT
 * entry. Return that PC, the process left stopped there (detached with
 * SIGSTOP: a group-stop, as after kill -STOP).
 */
static uint64_t stop_at_callee(pid_t pid, uint64_t lo, uint64_t hi)
{
	uint64_t pc = 0;
	int st, i;

	if (ptrace(PTRACE_SEIZE, pid, NULL, NULL) != 0) {
		printf("SKIP: ptrace is not available here: %s\n", strerror(errno));
		kill_children(NULL);
		skip();
	}
	assert_int_equal(ptrace(PTRACE_INTERRUPT, pid, NULL, NULL), 0);
	assert_int_equal(waitpid(pid, &st, __WALL), pid);
	assert_true(WIFSTOPPED(st));
	for (i = 0; i < 100000 && !((pc = pc_of(pid)) >= lo && pc < hi); i++)
		single_step(pid);
	for (; i < 200000 && (pc = pc_of(pid)) >= lo && pc < hi; i++)
		single_step(pid);
	if (pc >= lo && pc < hi)
		fail_msg("plt_spin (0x%" PRIx64 "..0x%" PRIx64 ") never called out", lo, hi);
	assert_int_equal(ptrace(PTRACE_DETACH, pid, NULL, (void *)(long)SIGSTOP), 0);
	assert_int_equal(waitpid(pid, &st, WUNTRACED), pid);
	assert_true(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP);
	return pc;
}

static void test_in_plt_entry(void **state)
{
	static struct run r;
	static struct parsed p;
	const struct thread_block *t;
	uint64_t lo, hi, text_lo, text_hi, pc;
	struct child *c;
	char pid[32];

	(void)state;
	c = start_child("plt");
	function_range(c->pid, "plt_spin", &lo, &hi, &text_lo, &text_hi);
	pc = stop_at_callee(c->pid, lo, hi);
	if (pc < text_lo || pc >= text_hi) {
		printf("SKIP: stack_child calls getppid() without a PLT entry here\n");
		kill_children(NULL);
		skip();
	}
	snprintf(pid, sizeof(pid), "%ld", (long)c->pid);
	run_tool(&r, pid, END);
	skip_if_not_permitted(&r);
	assert_int_equal(r.status, 0);
	fputs(r.out, stdout);
	parse_output(r.out, &p);
	assert_int_equal(p.nth, 1);
	t = &p.th[0];
	assert_true(t->n >= 1);
	assert_int_equal(t->frames[0].pc, pc);
	/* The entry's first instruction: objdump's "<getppid@plt>" label. */
	assert_string_equal(t->frames[0].sym, "getppid@plt");
	assert_non_null(strstr(t->frames[0].module, "stack_child"));
	/* Where the linker describes its PLT with SFrame (x86_64, s390x), the walk goes on. */
	if (!t->frames[0].no_sframe) {
		static const char *const chain[] = { "getppid@plt", "plt_spin", "main" };

		expect_chain(t, chain, 3);
	}
	expect_consistent(t, false);
	assert_int_equal(kill(c->pid, SIGCONT), 0);
	expect_child_runs_and_ends(c);
}

static void test_no_such_process(void **state)
{
	static struct run r;
	char pid[32], want[64];
	pid_t gone;

	(void)state;
	/* A PID that just ended (and was reaped) names no process. */
	gone = fork();
	assert_true(gone >= 0);
	if (gone == 0)
		_exit(0);
	assert_int_equal(waitpid(gone, NULL, 0), gone);
	snprintf(pid, sizeof(pid), "%ld", (long)gone);
	run_tool(&r, pid, END);
	assert_int_equal(r.status, 2);	/* as for a file that does not exist */
	assert_string_equal(r.out, "");
	snprintf(want, sizeof(want), "no process with PID %ld", (long)gone);
	assert_non_null(strstr(r.err, want));
}

/* An exited child not reaped yet: the tool says so, rather than "not permitted". */
static void test_zombie(void **state)
{
	static struct run r;
	char pid[32], want[80], path[64], line[512];
	pid_t z;
	int tries;

	(void)state;
	z = fork();
	assert_true(z >= 0);
	if (z == 0)
		_exit(0);
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)z);
	for (tries = 0; tries < 1000; tries++) {
		FILE *f = fopen(path, "r");
		char *close_paren;

		assert_non_null(f);
		assert_non_null(fgets(line, sizeof(line), f));
		fclose(f);
		close_paren = strrchr(line, ')');
		if (close_paren && close_paren[2] == 'Z')
			break;
		usleep(1000);
	}
	assert_true(tries < 1000);
	snprintf(pid, sizeof(pid), "%ld", (long)z);
	run_tool(&r, pid, END);
	assert_int_equal(waitpid(z, NULL, 0), z);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	snprintf(want, sizeof(want), "process %ld is a zombie", (long)z);
	assert_non_null(strstr(r.err, want));
	assert_null(strstr(r.err, "Operation not permitted"));
}

/* ---- The documented example ------------------------------------------------------------ */

/*
 * What does not vary from run to run: ids, addresses and offsets become
 * N and 0x?, an absolute module path "/.../NAME" (a relative one stays).
 */
static char *normalise(const char *line)
{
	size_t cap = strlen(line) + 16, n = 0;
	char *out = malloc(cap);
	const char *p = line;

	assert_non_null(out);
	if (strncmp(p, "PID ", 4) == 0 || strncmp(p, "TID ", 4) == 0) {
		memcpy(out, p, 4);
		n = 4;
		p += 4;
		if (isdigit((unsigned char)*p)) {
			out[n++] = 'N';
			p += strspn(p, "0123456789");
		}
	}
	while (*p) {
		if (n + 8 >= cap) {
			cap *= 2;
			out = realloc(out, cap);
			assert_non_null(out);
		}
		if (p[0] == '0' && p[1] == 'x' && isxdigit((unsigned char)p[2])) {
			memcpy(out + n, "0x?", 3);
			n += 3;
			p += 2 + strspn(p + 2, "0123456789abcdef");
		} else if (strncmp(p, " - /", 4) == 0) {
			size_t len = strcspn(p + 3, " ");
			const char *base = p + 3 + len;

			while (base > p + 3 && base[-1] != '/')
				base--;
			memcpy(out + n, " - /.../", 8);
			n += 8;
			p = base;
		} else {
			out[n++] = *p++;
		}
	}
	out[n] = '\0';
	/*
	 * The C library's frames are named by its separate debug file when
	 * that is installed (libc6-dbg), else by .dynsym or "??": compared
	 * as "??".
	 */
	if (strstr(out, " - /.../libc.")) {
		char *sym = strstr(out, "0x? "), *end = strstr(out, " - /.../libc.");

		if (sym && sym + 4 < end) {
			sym += 4;
			memmove(sym + 2, end, strlen(end) + 1);
			memcpy(sym, "??", 2);
		}
	}
	return out;
}

static void expect_documented(const struct doc_example *ex)
{
	static struct run r;
	static struct parsed p;
	struct child *c;
	char pid[32], *want[64], text[65536], *line, *save;
	size_t i, n = 0;
	bool ok;

	if (!ex->argv[2] || ex->argv[3] || strcmp(ex->argv[0], "sframe") != 0 ||
	    strcmp(ex->argv[1], "stack") != 0 || strspn(ex->argv[2], "0123456789") !=
	    strlen(ex->argv[2]))
		fail_msg("%s: not 'sframe stack PID': %s", ex->where, ex->command);
	assert_true(ex->nlines < 64);
	c = start_child("threads");
	snprintf(pid, sizeof(pid), "%ld", (long)c->pid);
	/* The example shows both threads in their loops, as the child is once ready. */
	run_spinning(&r, &p, pid, NULL);
	for (i = 0; i < ex->nlines; i++)
		want[i] = normalise(ex->lines[i]);
	text[0] = '\0';
	for (line = strtok_r(r.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *norm = normalise(line);

		if (strlen(text) + strlen(norm) + 2 < sizeof(text))
			strcat(strcat(text, norm), "\n");
		/* A C library with SFrame of its own is walked otherwise. */
		if (strstr(norm, "/.../libc.") && !strstr(norm, "[no sframe]") &&
		    !strstr(norm, "[converted]"))
			n++;
		free(norm);
	}
	ok = doc_lines_match(want, ex->nlines, text, ex->where);
	for (i = 0; i < ex->nlines; i++)
		free(want[i]);
	expect_child_runs_and_ends(c);
	if (!ok && n) {
		printf("SKIP: %s shows a C library without SFrame of its own; this one has some\n",
		       ex->where);
		skip();
	}
	assert_true(ok);
}

/* The documents' examples, kept for the teardown to free (a skip jumps out). */
static struct doc_example *doc_ex[2];
static size_t doc_n[2];

static void test_documented_example(void **state)
{
	size_t d;

	(void)state;
	for (d = 0; d < 2; d++) {
		size_t i, live = 0;

		doc_n[d] = doc_examples_read(doc_paths[d], &doc_ex[d]);
		for (i = 0; i < doc_n[d]; i++) {
			if (!doc_ex[d][i].live)
				continue;
			expect_documented(&doc_ex[d][i]);
			live++;
		}
		assert_int_equal(live, 1);
	}
}

static int free_documents(void **state)
{
	size_t d;

	for (d = 0; d < 2; d++) {
		if (doc_ex[d])
			doc_examples_free(doc_ex[d], doc_n[d]);
		doc_ex[d] = NULL;
	}
	return kill_children(state);
}

static void test_usage(void **state)
{
	static struct run r;

	(void)state;
	run_tool(&r, END);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "missing PID"));
	run_tool(&r, "12ab", END);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "invalid PID"));
	run_tool(&r, "0", END);
	assert_int_equal(r.status, 2);
	run_tool(&r, "1", "--bogus", END);
	assert_int_equal(r.status, 2);
	run_tool(&r, "1", "2", END);
	assert_int_equal(r.status, 2);
	run_tool(&r, "--help", END);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "Usage: sframe stack (PID | --core CORE"));
}

/*
 * Run "sframe stack PID [ARGS]" (up to three ARGS) until the main thread's
 * frame #0 is level3, where the child spins; fills @r and @p.
 */
static void run_in_level3(struct run *r, struct parsed *p, const char *pid, const char *a1,
			  const char *a2, const char *a3)
{
	int tries;

	for (tries = 0; tries < 200; tries++) {
		run_tool(r, pid, a1, a2, a3, END);
		skip_if_not_permitted(r);
		assert_int_equal(r->status, 0);
		parse_output(r->out, p);
		assert_int_equal(p->nth, 1);
		if (p->th[0].n > 0 && strcmp(p->th[0].frames[0].sym, "level3") == 0)
			return;
		usleep(10000);
	}
	fail_msg("the thread never showed up in level3:\n%s", r->out);
}

/* The first frame of @t in the C library, or NULL. */
static const struct frame *libc_frame(const struct thread_block *t)
{
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if (strstr(t->frames[i].module, "/libc."))
			return &t->frames[i];
	return NULL;
}

/*
 * Where a file without SFrame gets its own: a conversion by default, none
 * with --no-convert, a side-car of "sframe convert" found by build id under
 * --sframe-dir (the same frames), and a side-car of another file refused.
 */
static void test_sframe_sources(void **state)
{
	static struct run r, conv;
	static struct parsed p, pc;
	char pid[32], libc[512], dir[] = "/tmp/sframe-test-sidecar-XXXXXX", sub[600], car[800];
	char hex[2 * SF_BUILD_ID_MAX + 1], cmd[2048], err[512], ldso[512] = "";
	const struct frame *f;
	const unsigned char *id;
	struct sf_input in;
	struct child *c;
	size_t len, i;

	(void)state;
	c = start_child("single");
	snprintf(pid, sizeof(pid), "%ld", (long)c->pid);
	run_in_level3(&conv, &pc, pid, NULL, NULL, NULL);
	f = libc_frame(&pc.th[0]);
	assert_non_null(f);
	if (!f->converted) {
		printf("SKIP: the C library has SFrame of its own\n");
		skip();
	}
	snprintf(libc, sizeof(libc), "%s", f->module);
	/* Through the C library to its start, as a debugger walks it. */
	assert_true(pc.th[0].n > f->idx + 1);
	assert_non_null(strstr(conv.err, ": converted .eh_frame: "));

	run_in_level3(&r, &p, pid, "--no-convert", NULL, NULL);
	f = libc_frame(&p.th[0]);
	assert_non_null(f);
	assert_true(f->no_sframe);
	assert_int_equal(f->idx, p.th[0].n - 1);
	assert_non_null(strstr(p.th[0].stop, "(--no-convert)"));
	assert_null(strstr(r.err, "converted"));

	/* A side-car where the build id says, made by sframe convert. */
	assert_non_null(mkdtemp(dir));
	assert_int_equal(sf_input_bytes(libc, &in, err, sizeof(err)), SF_INPUT_OK);
	assert_true(sf_elf_build_id(in.file, in.file_size, &id, &len));
	sf_build_id_hex(hex, id, len);
	sf_input_free(&in);
	snprintf(sub, sizeof(sub), "%s/.build-id/%.2s", dir, hex);
	snprintf(car, sizeof(car), "%s/%s.sframe", sub, hex + 2);
	/* (--sframe-dir puts it there, making the directories.) */
	snprintf(cmd, sizeof(cmd), "'%s' convert '%s' --sframe-dir '%s' | grep -qF 'output: %s '",
		 tool_path, libc, dir, car);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(access(car, R_OK), 0);
	run_in_level3(&r, &p, pid, "--sframe-dir", dir, NULL);
	assert_int_equal(p.th[0].n, pc.th[0].n);
	/* Frame #0 is wherever in its loop the thread was; the callers are fixed. */
	for (i = 1; i < p.th[0].n; i++) {
		assert_int_equal(p.th[0].frames[i].pc, pc.th[0].frames[i].pc);
		assert_int_equal(p.th[0].frames[i].converted, pc.th[0].frames[i].converted);
	}
	assert_non_null(strstr(r.err, ": SFrame from side-car "));
	assert_non_null(strstr(r.err, car));
	assert_null(strstr(r.err, "libc.so.6: converted"));

	/* Another file's side-car in its place is not used. */
	for (i = 0; i < pc.th[0].n; i++)
		if (strstr(pc.th[0].frames[i].module, "/ld-linux"))
			snprintf(ldso, sizeof(ldso), "%s", pc.th[0].frames[i].module);
	if (!ldso[0])
		snprintf(ldso, sizeof(ldso), "%s", tool_path);
	snprintf(cmd, sizeof(cmd), "'%s' convert '%s' -o '%s' >/dev/null", tool_path, ldso, car);
	assert_int_equal(system(cmd), 0);
	run_in_level3(&r, &p, pid, "--sframe-dir", dir, NULL);
	assert_non_null(strstr(r.err, "refused: not made from this file"));
	assert_non_null(strstr(r.err, "libc.so.6: converted .eh_frame: "));
	assert_int_equal(p.th[0].n, pc.th[0].n);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	expect_child_runs_and_ends(c);
}

/*
 * Run the tool on @c until its thread is back in level3: the program writes
 * "ready" from say(), which level3 calls, and may still be on its way back
 * when the tool stops it.
 */
static void run_tool_in_level3(struct run *r, struct parsed *p, struct child *c)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%ld", (long)c->pid);
	run_in_level3(r, p, pid, NULL, NULL, NULL);
}

/*
 * LLVM lld's run of SFrame sections (fixtures/lld-x86_64/static, with no C
 * library: every frame down to _start is its own): the chain crosses four
 * of its parts, and the tool says the section is not one.
 */
static void test_lld_parts(void **state)
{
	static const char *const chain[] = { "level3", "level2", "level1", "main", "start_main" };
	static struct run r;
	static struct parsed p;
	const struct frame *last;
	char path[1024];
	struct child *c;

	(void)state;
	if (!lld_dir[0])
		skip();
	snprintf(path, sizeof(path), "%s/static", lld_dir);
	c = start_program(path, "single");
	run_tool_in_level3(&r, &p, c);
	assert_non_null(strstr(r.err, "lld-x86_64/static: warning: not one SFrame section but 6 "
				      "concatenated sections (as LLVM lld links them); stack uses "
				      "every one"));
	expect_chain_in(&p.th[0], chain, 5, "lld-x86_64/static");
	/* Then _start, assembly without SFrame, where the walk ends. */
	assert_int_equal(p.th[0].n, 6);
	last = &p.th[0].frames[5];
	assert_string_equal(last->sym, "_start");
	assert_true(last->no_sframe);
	expect_consistent(&p.th[0], false);
	fputs(r.out, stdout);
	expect_child_runs_and_ends(c);
}

/* The same program linked by GNU ld: an empty .sframe, a module without SFrame. */
static void test_lld_empty_section(void **state)
{
	static struct run r;
	static struct parsed p;
	char path[1024], pid[32];
	struct child *c;

	(void)state;
	if (!lld_dir[0])
		skip();
	snprintf(path, sizeof(path), "%s/empty", lld_dir);
	c = start_program(path, "single");
	snprintf(pid, sizeof(pid), "%ld", (long)c->pid);
	run_in_level3(&r, &p, pid, "--no-convert", NULL, NULL);
	assert_int_equal(p.th[0].n, 1);
	assert_string_equal(p.th[0].frames[0].sym, "level3");
	assert_true(p.th[0].frames[0].no_sframe);
	assert_non_null(strstr(p.th[0].stop, ": empty .sframe (no SFrame data); no side-car"));
	expect_consistent(&p.th[0], false);
	fputs(r.out, stdout);
	/*
	 * By default its .eh_frame stands in: the whole chain, to _start,
	 * which has no CFI (a hand-written entry point), as with lld's own
	 * section (test_lld_parts()).
	 */
	run_in_level3(&r, &p, pid, NULL, NULL, NULL);
	expect_chain_in(&p.th[0], main_chain, 4, "empty");
	assert_true(p.th[0].frames[0].converted);
	assert_string_equal(p.th[0].frames[p.th[0].n - 1].sym, "_start");
	assert_true(p.th[0].frames[p.th[0].n - 1].no_sframe);
	assert_non_null(strstr(r.err, "empty: converted .eh_frame: "));
	expect_consistent(&p.th[0], false);
	expect_child_runs_and_ends(c);
}

/* ---- Processes in another mount namespace ------------------------------------------- */

/* The child's directory: DIR/real, DIR/view, DIR/ours (see start_in_namespace()). */
static char ns_dir[256];

/*
 * stack_child in a mount namespace of its own (unshare -m), where
 * DIR/real (a copy of it) is bind-mounted on DIR/view and a tmpfs hides
 * DIR/ours: it runs as DIR/view/stack_child, a path that is an empty
 * directory in our namespace, and DIR/ours/marker, another copy of it, is
 * ours only.
 */
static struct child *start_in_namespace(void)
{
	static const char script[] =
		"mkdir \"$1/real\" \"$1/view\" \"$1/ours\" && cp \"$2\" \"$1/real/stack_child\" && "
		"cp \"$2\" \"$1/ours/marker\" && mount --bind \"$1/real\" \"$1/view\" && "
		"mount -t tmpfs none \"$1/ours\" && exec \"$1/view/stack_child\" single";
	const char *tmp = getenv("TMPDIR");
	char path[512];
	struct child *c;

	snprintf(ns_dir, sizeof(ns_dir), "%s/sframe-ns-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(ns_dir));
	{
		const char *argv[] = { "unshare", "-m", "--propagation", "private", "sh", "-c",
				       script, "sh", ns_dir, child_path, NULL };

		c = start_argv(argv);
	}
	/* Ours: the path the child runs from names nothing here. */
	snprintf(path, sizeof(path), "%s/view/stack_child", ns_dir);
	assert_int_equal(access(path, F_OK), -1);
	return c;
}

static int kill_namespace_child(void **state)
{
	char cmd[600];

	kill_children(state);
	if (ns_dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", ns_dir);
		if (system(cmd) != 0)
			printf("could not remove %s\n", ns_dir);
		ns_dir[0] = '\0';
	}
	tool_mode = AS_WE_ARE;
	return 0;
}

/* Run COMMAND (sh) in the mount namespace of @c, DIR as $1. */
static void in_namespace(const struct child *c, const char *command)
{
	char pid[32], cmd[1024];

	snprintf(pid, sizeof(pid), "%ld", (long)c->pid);
	snprintf(cmd, sizeof(cmd), "nsenter -t %s -m sh -c '%s' sh '%s'", pid, command, ns_dir);
	assert_int_equal(system(cmd), 0);
}

/*
 * The child in its namespace, in level3 (as the tool sees it), then a tmpfs
 * over DIR/view where COMMAND (sh, DIR as $1) puts something at the
 * mapped path.
 */
static struct child *start_and_plant(const char *command)
{
	static struct run r;
	static struct parsed p;
	char cmd[512];
	struct child *c = start_in_namespace();

	run_tool_in_level3(&r, &p, c);
	snprintf(cmd, sizeof(cmd), "mount -t tmpfs none \"$1/view\" && %s", command);
	in_namespace(c, cmd);
	return c;
}

/* The text of the "root: " line for a process in another mount namespace. */
static void root_line(char *buf, size_t size, long pid)
{
	snprintf(buf, size, "root: /proc/%ld/root (the mount namespace of process %ld)", pid, pid);
}

/* The "root: " line the tool prints for @c. */
static void expect_root_line(const struct parsed *p, const struct child *c)
{
	char want[128];

	root_line(want, sizeof(want), (long)c->pid);
	assert_string_equal(p->root, want + strlen("root: "));
}

/* README shows the line (for process 4242), and the manual page its words. */
static void expect_root_line_documented(void)
{
	static char text[1 << 20];
	char want[128];
	size_t d, n;
	FILE *f;

	for (d = 0; d < 2; d++) {
		f = fopen(doc_paths[d], "r");
		assert_non_null(f);
		n = fread(text, 1, sizeof(text) - 1, f);
		fclose(f);
		text[n] = '\0';
		if (d == 0)
			root_line(want, sizeof(want), 4242);
		else
			snprintf(want, sizeof(want), "/root (the mount namespace of process ");
		if (!strstr(text, want))
			fail_msg("%s does not show '%s'", doc_paths[d], want);
	}
}

static const enum tool_mode by_path[] = { NO_MAP_FILES, NO_OPENAT2 };

/*
 * The whole chain, read from the child's own namespace: through
 * map_files, then (without it) by its path inside /proc/PID/root, with
 * openat2() and without; the tool says which root it used.
 */
static void test_ns_private_mount(void **state)
{
	static const enum tool_mode modes[] = { AS_WE_ARE, NO_MAP_FILES, NO_OPENAT2 };
	static struct run r;
	static struct parsed p;
	struct child *c;
	size_t i;

	(void)state;
	c = start_in_namespace();
	for (i = 0; i < 3; i++) {
		tool_mode = modes[i];
		run_tool_in_level3(&r, &p, c);
		expect_root_line(&p, c);
		expect_chain_in(&p.th[0], main_chain, 4, "/view/stack_child");
		expect_consistent(&p.th[0], false);
		fputs(r.out, stdout);
	}
	expect_child_runs_and_ends(c);
	expect_root_line_documented();
}

/* Run the tool on @c in the mode by_path[@i]; it must name the child's root. */
static void run_by_path(struct run *r, struct parsed *p, const struct child *c, size_t i)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%ld", (long)c->pid);
	tool_mode = by_path[i];
	run_tool(r, pid, END);
	assert_int_equal(r->status, 0);
	parse_output(r->out, p);
	fputs(r->out, stdout);
	expect_root_line(p, c);
}

/* Tool runs by path on @c, whose stack_child frame #0 must have @why. */
static void expect_not_loaded(const struct child *c, const char *why)
{
	static struct run r;
	static struct parsed p;
	size_t i;

	for (i = 0; i < 2; i++) {
		run_by_path(&r, &p, c, i);
		assert_int_equal(p.th[0].n, 1);
		assert_string_equal(p.th[0].frames[0].sym, "??");
		assert_true(p.th[0].frames[0].no_sframe);
		assert_non_null(strstr(p.th[0].frames[0].module, "/view/stack_child"));
		if (!strstr(p.th[0].stop, why))
			fail_msg("expected '%s' in '%s'", why, p.th[0].stop);
	}
}

/*
 * A link planted in the namespace once the child runs: a tmpfs over
 * DIR/view, holding stack_child -> DIR/ours/marker, absolute. In the
 * namespace that names nothing (a tmpfs hides DIR/ours); from our root it
 * is our marker, which a plain open of /proc/PID/root/DIR/view/stack_child
 * reaches (the test checks that it does). Without map_files the tool must
 * find nothing, and never open our file (inotify watches it).
 */
static void test_ns_planted_link(void **state)
{
	char path[512], buf[4096], why[128];
	struct child *c;
	int in, fd;

	(void)state;
	c = start_and_plant("ln -s \"$1/ours/marker\" \"$1/view/stack_child\"");
	in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	assert_true(in >= 0);
	snprintf(path, sizeof(path), "%s/ours/marker", ns_dir);
	assert_true(inotify_add_watch(in, path, IN_OPEN) >= 0);
	snprintf(why, sizeof(why), ": cannot open it in /proc/%ld/root: %s", (long)c->pid,
		 strerror(ENOENT));
	expect_not_loaded(c, why);
	if (read(in, buf, sizeof(buf)) > 0)
		fail_msg("the tool opened %s, a file outside the process's root", path);
	assert_int_equal(errno, EAGAIN);
	/* What the tool must not do: this open reaches our marker. */
	snprintf(path, sizeof(path), "/proc/%ld/root%s/view/stack_child", (long)c->pid, ns_dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	close(fd);
	assert_true(read(in, buf, sizeof(buf)) > 0);
	close(in);
	expect_child_runs_and_ends(c);
}

/*
 * Another file at the mapped path (a copy of stack_child over it, on a
 * tmpfs): the same bytes, but not the mapped inode, so not used.
 */
static void test_ns_other_file(void **state)
{
	struct child *c;
	char why[128];

	(void)state;
	c = start_and_plant("cp \"$1/real/stack_child\" \"$1/view/stack_child\"");
	snprintf(why, sizeof(why), ": the file at its path in /proc/%ld/root is not the mapped one",
		 (long)c->pid);
	expect_not_loaded(c, why);
	expect_child_runs_and_ends(c);
}

/*
 * Links that stay inside the namespace's root lead to the mapped file,
 * with openat2() and step by step: DIR/view/stack_child ->
 * dir/./stack_child, DIR/view/dir -> ../../../(more than the depth)DIR/real
 * (".." stops at the root), on a tmpfs over DIR/view.
 */
static void test_ns_links_inside(void **state)
{
	static struct run r;
	static struct parsed p;
	struct child *c;
	size_t i;

	(void)state;
	c = start_and_plant("ln -s \"../../../../../../../../../../../../../../..$1/real\" "
			    "\"$1/view/dir\" && ln -s dir/./stack_child \"$1/view/stack_child\"");
	for (i = 0; i < 2; i++) {
		run_by_path(&r, &p, c, i);
		expect_chain_in(&p.th[0], main_chain, 4, "/view/stack_child");
	}
	expect_child_runs_and_ends(c);
}

/*
 * A chroot in our mount namespace (DIR/root, with copies of the child and
 * the libraries ldd names): maps names its files from our root, so they
 * are read in ours, by path (without map_files) too, and no root line.
 * The child is killed, not asked to end: there is no /proc in there, which
 * a sanitized build's LeakSanitizer needs at exit.
 */
static void test_chroot_same_namespace(void **state)
{
	static const char script[] =
		"mkdir -p \"$1/root/prog\" && cp \"$2\" \"$1/root/prog/stack_child\" && "
		"for f in $(ldd \"$2\" | grep -o \"/[^ ]*\"); do "
		"mkdir -p \"$1/root${f%/*}\" && cp \"$f\" \"$1/root$f\" || exit 1; done && "
		"exec chroot \"$1/root\" /prog/stack_child single";
	static const enum tool_mode modes[] = { AS_WE_ARE, NO_MAP_FILES };
	static struct run r;
	static struct parsed p;
	const char *tmp = getenv("TMPDIR");
	char module[512];
	struct child *c;
	size_t i;

	(void)state;
	snprintf(ns_dir, sizeof(ns_dir), "%s/sframe-chroot-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(ns_dir));
	{
		const char *argv[] = { "sh", "-c", script, "sh", ns_dir, child_path, NULL };

		c = start_argv(argv);
	}
	snprintf(module, sizeof(module), "%s/root/prog/stack_child", ns_dir);
	for (i = 0; i < 2; i++) {
		tool_mode = modes[i];
		run_tool_in_level3(&r, &p, c);
		assert_string_equal(p.root, "");
		expect_chain_in(&p.th[0], main_chain, 4, module);
		expect_consistent(&p.th[0], false);
		fputs(r.out, stdout);
	}
}

/* Root, and util-linux's unshare, nsenter and setpriv, or the reason why not. */
static const char *namespace_skip_reason(void)
{
	if (geteuid() != 0)
		return "the mount namespace tests need root (unshare -m, mount)";
	if (system("unshare -m --propagation private true >/dev/null 2>&1") != 0)
		return "unshare -m --propagation private (util-linux) does not work here";
	if (system("(command -v nsenter && command -v setpriv && command -v mount) >/dev/null") != 0)
		return "nsenter, setpriv (util-linux) or mount is not installed";
	return NULL;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_no_such_process),
		cmocka_unit_test(test_zombie),
		cmocka_unit_test_teardown(test_single_thread, kill_children),
		cmocka_unit_test_teardown(test_fp_fallback, kill_children),
		cmocka_unit_test_teardown(test_threads, kill_children),
		cmocka_unit_test_teardown(test_documented_example, free_documents),
		cmocka_unit_test_teardown(test_lld_parts, kill_children),
		cmocka_unit_test_teardown(test_lld_empty_section, kill_children),
		cmocka_unit_test_teardown(test_in_plt_entry, kill_children),
		cmocka_unit_test_teardown(test_sframe_sources, kill_children),
	};
	const struct CMUnitTest ns_tests[] = {
		cmocka_unit_test_teardown(test_ns_private_mount, kill_namespace_child),
		cmocka_unit_test_teardown(test_ns_planted_link, kill_namespace_child),
		cmocka_unit_test_teardown(test_ns_other_file, kill_namespace_child),
		cmocka_unit_test_teardown(test_ns_links_inside, kill_namespace_child),
		cmocka_unit_test_teardown(test_chroot_same_namespace, kill_namespace_child),
	};
	const char *why_not;

	if (argc != 7 && !(argc == 8 && strcmp(argv[7], "ns") == 0)) {
		fprintf(stderr, "usage: %s SFRAME_TOOL STACK_CHILD SKIP_REASON LLD_DIR README MANPAGE "
			"[ns]\n", argv[0]);
		return 2;
	}
	tool_path = argv[1];
	child_path = argv[2];
	lld_dir = argv[4];
	doc_paths[0] = argv[5];
	doc_paths[1] = argv[6];
	if (argv[3][0] || !child_path[0]) {
		printf("SKIP: %s\n", argv[3][0] ? argv[3] : "stack_child was not built");
		return 77;
	}
	signal(SIGPIPE, SIG_IGN);
	if (argc == 8) {
		why_not = namespace_skip_reason();
		if (why_not) {
			printf("SKIP: %s\n", why_not);
			return 77;
		}
		return cmocka_run_group_tests(ns_tests, NULL, kill_namespace_child);
	}
	return cmocka_run_group_tests(tests, NULL, kill_children);
}
