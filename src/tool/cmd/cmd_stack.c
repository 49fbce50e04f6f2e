/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * cmd_stack.c - print the stack of every thread of a live process, unwound
 * with the SFrame sections of its executable and libraries, in eu-stack's
 * layout (eu-stack -m, plus symbol offsets and a stop reason):
 *
 *   PID 4242 - process
 *   TID 4242:
 *   #0  0x000055d0c8a4a15f level3+0x1f - /usr/bin/prog
 *   #1  0x000055d0c8a4a171 level2+0x9 - /usr/bin/prog
 *   ...
 *   #4  0x00007f3a1c02724a ?? - /usr/lib/x86_64-linux-gnu/libc.so.6 [no sframe]
 *   stop: no SFrame for 0x7f3a1c02724a (--fp-fallback follows frame pointers)
 *
 * Every thread is stopped (PTRACE_SEIZE + PTRACE_INTERRUPT) while the stacks
 * are read, and let go before anything is written out, on errors and on
 * SIGINT/SIGTERM/SIGHUP/SIGQUIT too.
 *
 * Exit status: as tool_cli.h says; a process that cannot be read (gone, a
 * zombie, not permitted, a thread whose registers cannot be read) is an I/O
 * error, 2.
 *
 * With --core, the threads of a core file instead (cmd_core.c).
 */
#include "cmd/cmd_stack.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd_core.h"
#include "out/stack_print.h"
#include "read/proc_maps.h"
#include "target/ptrace_target.h"
#include "tool_cli.h"

const char sf_stack_usage[] =
	"Usage: sframe stack (PID | --core CORE [--exe EXE] [--sysroot DIR]) [--fp-fallback] "
	"[--sframe-dir DIR]... [--no-convert]\n"
	"\n"
	"Print the stack of every thread of the running process PID, unwound with\n"
	"the SFrame sections of its executable and shared libraries. The threads are\n"
	"stopped with ptrace while their stacks are read, then resumed. With --core,\n"
	"the stacks of the threads of the core file CORE, with the files it had\n"
	"mapped read from where the core names them. A file without SFrame gets\n"
	"its side-car (sframe convert), found by build id, or else a section\n"
	"converted from its .eh_frame on first use; standard error names each.\n"
	"\n"
	"Options:\n"
	"  --core CORE    read the ELF core file CORE instead of a running process\n"
	"  --exe EXE      with --core: read EXE as the main executable\n"
	"  --sysroot DIR  with --core: read each mapped file PATH as DIR/PATH\n"
	"  --fp-fallback  follow frame pointers through code without SFrame\n"
	SF_SFRAME_OPTS_HELP
	"  -h, --help     show this help\n"
	"\n"
	"Output, as eu-stack's: 'PID N - process' ('PID N - core'; 'root: /proc/N/root\n"
	"(...)' next when the files were read in the process's own mount namespace),\n"
	"'TID N:' per thread, then one line per frame\n"
	"  #N  0xPC SYMBOL+0xOFFSET - MODULE [marks]\n"
	"(?? for an unknown symbol; marks: [no sframe] no SFrame describes the frame,\n"
	"[converted] SFrame from a side-car or a conversion does, [fp] found by\n"
	"following frame pointers, [signal] a signal frame, [pac] a signed return\n"
	"address), and 'stop: REASON', why the walk ended. A mapped\n"
	"file of a core that is missing, or is not the file the core mapped (its\n"
	"build id differs), is named on standard error and not used.\n"
	"\n"
	SF_EXIT_STATUS_TEXT;

#define usage_error(...) sf_cli_usage_error("sframe", "stack", __VA_ARGS__)

static bool parse_pid(const char *s, pid_t *pid)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v <= 0 || v > INT_MAX)
		return false;
	*pid = (pid_t)v;
	return true;
}

/* A number field ("Tgid:", "TracerPid:") of /proc/PID/status, or -1. */
static long status_field(pid_t pid, const char *name)
{
	char path[64], line[256];
	size_t len = strlen(name);
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/status", (long)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, name, len) == 0 && line[len] == ':') {
			v = strtol(line + len + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

/* The state letter of /proc/PID/stat ('R', 'S', 'Z', ...) and the parent; 0 if unknown. */
static char proc_state(pid_t pid, long *ppid)
{
	char path[64], buf[1024], *p;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "PID (COMM) STATE PPID ...": COMM may hold anything, ')' too. */
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || !p[2] || sscanf(p + 3, "%ld", ppid) != 1)
		return 0;
	return p[2];
}

/*
 * A zombie has exited: nothing is left to trace, and ptrace says EPERM.
 * True, with the message printed, when @pid is one.
 */
static bool report_zombie(pid_t pid)
{
	long ppid = 0;

	if (proc_state(pid, &ppid) != 'Z')
		return false;
	fprintf(stderr, "sframe: stack: process %ld is a zombie: it has exited, and its parent "
		"(process %ld) has not reaped it\n", (long)pid, ppid);
	return true;
}

/* Why ptrace was refused, as precisely as can be told. */
static void explain_eperm(pid_t pid)
{
	long tracer = status_field(pid, "TracerPid");
	FILE *f;
	int scope = -1;

	fprintf(stderr, "sframe: stack: cannot attach to process %ld: %s", (long)pid,
		strerror(EPERM));
	if (tracer > 0) {
		fprintf(stderr, " (already traced by process %ld)\n", tracer);
		return;
	}
	f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");
	if (f) {
		if (fscanf(f, "%d", &scope) != 1)
			scope = -1;
		fclose(f);
	}
	if (scope > 0)
		fprintf(stderr, " (kernel.yama.ptrace_scope is %d; ptrace needs CAP_SYS_PTRACE)\n",
			scope);
	else
		fprintf(stderr, " (ptrace needs the same user, or CAP_SYS_PTRACE)\n");
}

/* Unwind one stopped thread into @out; false when its registers are unreadable. */
static bool print_thread(FILE *out, struct sf_proc_modules *pm,
			 const struct sf_thread *t, bool fp_fallback)
{
	struct sf_arch_regs regs;
	struct sf_mem mem;
	char err[256];

	fprintf(out, "TID %ld:\n", (long)t->tid);
	if (t->state == SF_THREAD_TIMEOUT) {
		fprintf(out, "stop: the thread did not stop within %d s (uninterruptible sleep?)\n",
			SF_STOP_TIMEOUT);
		return false;
	}
	if (sf_arch_get_regs(t->tid, &regs, err, sizeof(err))) {
		fprintf(out, "stop: %s\n", err);
		return false;
	}
	/* Any thread's id names the process's memory, even if the main thread is a zombie. */
	memset(&mem, 0, sizeof(mem));
	mem.pid = t->tid;
	mem.tid = t->tid;
	sf_stack_print_walk(out, pm, &regs, sf_mem_read, &mem, fp_fallback);
	return true;
}

/* ---- The command --------------------------------------------------------------- */

/* Let the process go, then die of the signal that interrupted us. */
static void die_of_signal(struct sf_ptrace *pt, int sig)
{
	sf_ptrace_detach_all(pt);
	sf_ptrace_signals_restore();
	signal(sig, SIG_DFL);
	raise(sig);
	_exit(128 + sig);
}

/* What the command line asks for. */
struct stack_args {
	bool fp_fallback;
	bool have_pid;
	pid_t pid;
	const char *core, *exe, *sysroot;
	struct sf_sframe_opts opts;
};

/* Parse argv into @a; return -1 to go on, or an exit status. */
static int parse_args(int argc, char **argv, struct stack_args *a)
{
	bool end_of_options = false;
	size_t i;
	int r, info;

	memset(a, 0, sizeof(*a));
	for (i = 1; i < (size_t)argc; i++) {
		const char *arg = argv[i];

		if (!end_of_options && strcmp(arg, "--") == 0) {
			end_of_options = true;
		} else if (!end_of_options &&
			   (info = sf_cli_info_option(arg, "sframe", sf_stack_usage)) >= 0) {
			return info;
		} else if (!end_of_options && strcmp(arg, "--fp-fallback") == 0) {
			a->fp_fallback = true;
		} else if (!end_of_options && (r = sf_sframe_opt(argc, argv, &i, &a->opts, "stack"))) {
			if (r < 0)
				return -r;
		} else if (!end_of_options && (strcmp(arg, "--core") == 0 ||
					       strcmp(arg, "--exe") == 0 ||
					       strcmp(arg, "--sysroot") == 0)) {
			const char **v = arg[2] == 'c' ? &a->core : arg[2] == 'e' ? &a->exe :
				&a->sysroot;

			if (i + 1 == (size_t)argc || !argv[i + 1][0])
				return usage_error("option '%s' needs a value", arg);
			if (*v)
				return usage_error("option '%s' given twice", arg);
			*v = argv[++i];
		} else if (!end_of_options && arg[0] == '-' && arg[1]) {
			return usage_error("unknown option '%s'", arg);
		} else if (a->have_pid || a->core) {
			return usage_error("unexpected argument '%s'", arg);
		} else if (!parse_pid(arg, &a->pid)) {
			return usage_error("invalid PID '%s' (expected a positive decimal number)",
					   arg);
		} else {
			a->have_pid = true;
		}
	}
	if (a->core && a->have_pid)
		return usage_error("a PID and --core: give one of them");
	if (!a->core && (a->exe || a->sysroot))
		return usage_error("%s needs --core", a->exe ? "--exe" : "--sysroot");
	if (!a->core && !a->have_pid)
		return usage_error("missing PID");
	return -1;
}

/* The process @pid stands for (a thread id its process's); 0 when none may be traced. */
static pid_t traced_process(pid_t pid)
{
	/* A thread id stands for its process. */
	long tgid = status_field(pid, "Tgid");

	if (tgid < 0) {
		fprintf(stderr, "sframe: stack: no process with PID %ld\n", (long)pid);
		return 0;
	}
	if ((pid_t)tgid == getpid()) {
		fprintf(stderr, "sframe: stack: a process cannot trace itself\n");
		return 0;
	}
	return (pid_t)tgid;
}

/* Read @pid's maps and load its modules; false (said why) on failure. */
static bool load_modules(pid_t pid, uint8_t abi, const struct sf_sframe_opts *opts,
			 struct sf_maps *maps, struct sf_mem *mem, struct sf_proc_modules *pm)
{
	char err[512];
	int r = sf_maps_read(pid, maps, err, sizeof(err));

	if (r) {
		if (r == -ENOENT || r == -ESRCH)
			fprintf(stderr, "sframe: stack: no process with PID %ld\n", (long)pid);
		else if (r == -EACCES || r == -EPERM)
			explain_eperm(pid);	/* the same ptrace access check */
		else
			fprintf(stderr, "sframe: stack: %s\n", err);
		return false;
	}
	memset(mem, 0, sizeof(*mem));
	mem->pid = pid;
	if (sf_proc_modules_build(pid, maps, abi, opts, sf_mem_read, mem, pm, err, sizeof(err))) {
		fprintf(stderr, "sframe: stack: %s\n", err);
		sf_proc_modules_free(pm);
		sf_maps_free(maps);
		return false;
	}
	return true;
}

/* Say why the process could not be stopped (after a signal, die of it). */
static void report_stop_error(pid_t pid, int r, int sig)
{
	if (sig) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	if ((r == -EPERM || r == -ESRCH) && report_zombie(pid))
		return;
	if (r == -EPERM)
		explain_eperm(pid);
	else if (r == -ESRCH)
		fprintf(stderr, "sframe: stack: no process with PID %ld\n", (long)pid);
	else
		fprintf(stderr, "sframe: stack: cannot stop process %ld: %s\n", (long)pid,
			strerror(-r));
}

/*
 * With the process stopped: if libraries came or went while the modules
 * were loaded, load them again from the current mappings. Returns 0, or
 * an exit status with the reason in @err.
 */
static int refresh_modules(pid_t pid, uint8_t abi, const struct sf_sframe_opts *opts,
			   const struct sf_maps *maps, const struct sf_ptrace *pt,
			   struct sf_mem *mem, struct sf_proc_modules *pm, char *err, size_t err_size)
{
	struct sf_maps now;
	int status = 0;
	size_t i;

	if (sf_maps_read(pid, &now, err, err_size) != 0)
		return 0;
	if (!sf_maps_same_code(maps, &now)) {
		for (i = 0; i < pt->n; i++)
			if (pt->threads[i].state == SF_THREAD_STOPPED)
				mem->pid = mem->tid = pt->threads[i].tid;
		sf_proc_modules_free(pm);
		if (sf_proc_modules_build(pid, &now, abi, opts, sf_mem_read, mem, pm, err, err_size))
			status = SF_EXIT_USAGE;
	}
	sf_maps_free(&now);
	return status;
}

/*
 * Every stopped thread's stack into @out (a memory stream over *@text),
 * then the process let go; a signal meanwhile lets it go and kills us.
 * Returns the exit status.
 */
static int print_threads(FILE *out, char **text, pid_t pid, struct sf_ptrace *pt,
			 struct sf_proc_modules *pm, bool fp_fallback)
{
	int status = 0, sig;
	size_t i;

	fprintf(out, "PID %ld - process\n", (long)pid);
	if (pm->root[0])
		fprintf(out, "root: %s\n", pm->root);
	for (i = 0; i < pt->n; i++) {
		const struct sf_thread *t = &pt->threads[i];

		sig = sf_ptrace_interrupted();
		if (sig) {
			fclose(out);
			free(*text);
			die_of_signal(pt, sig);
		}
		if (t->state != SF_THREAD_STOPPED && t->state != SF_THREAD_TIMEOUT)
			continue;	/* exited meanwhile */
		if (!print_thread(out, pm, t, fp_fallback))
			status = SF_EXIT_USAGE;
	}
	sf_ptrace_detach_all(pt);
	sig = sf_ptrace_interrupted();
	if (sig) {
		fclose(out);
		free(*text);
		die_of_signal(pt, sig);
	}
	sf_ptrace_signals_restore();
	return status;
}

/* Write what @out gathered once everything runs again. Returns the exit status. */
static int write_out(FILE *out, char **text, size_t *text_len, const struct sf_proc_modules *pm,
		     int status)
{
	if (fclose(out) != 0 || !*text) {
		fprintf(stderr, "sframe: stack: out of memory\n");
		return SF_EXIT_USAGE;
	}
	if (fwrite(*text, 1, *text_len, stdout) != *text_len || fflush(stdout) != 0) {
		fprintf(stderr, "sframe: write error on standard output\n");
		return SF_EXIT_USAGE;
	}
	sf_image_set_report(pm->set, stderr, "sframe: stack");
	return status;
}

/* A live process: its modules loaded while it runs, its threads read while it is stopped. */
static int stack_process(pid_t pid, const struct stack_args *a)
{
	struct sf_proc_modules pm;
	struct sf_maps maps;
	struct sf_mem mem;
	struct sf_ptrace pt;
	char err[512], *text = NULL;
	size_t text_len = 0;
	FILE *out;
	uint8_t abi;
	int r, status;

	abi = sf_arch_abi();
	if (!abi) {
		fprintf(stderr, "sframe: stack: not supported on this architecture\n");
		return SF_EXIT_USAGE;
	}
	pid = traced_process(pid);
	if (!pid)
		return SF_EXIT_USAGE;
	/*
	 * Load the modules while the process runs, to keep it stopped for as
	 * short a time as possible; check that nothing changed once it is.
	 */
	if (!load_modules(pid, abi, &a->opts, &maps, &mem, &pm))
		return SF_EXIT_USAGE;

	sf_ptrace_signals_install();
	r = sf_ptrace_stop_all(&pt, pid);
	if (r) {
		int sig = sf_ptrace_interrupted();

		sf_ptrace_signals_restore();
		sf_proc_modules_free(&pm);
		sf_maps_free(&maps);
		sf_ptrace_free(&pt);
		report_stop_error(pid, r, sig);
		return SF_EXIT_USAGE;
	}

	/* The process is stopped from here on: nothing is written out until it runs. */
	status = refresh_modules(pid, abi, &a->opts, &maps, &pt, &mem, &pm, err, sizeof(err));
	out = status ? NULL : open_memstream(&text, &text_len);
	if (!out) {
		sf_ptrace_detach_all(&pt);
		sf_ptrace_signals_restore();
		fprintf(stderr, "sframe: stack: %s\n", status ? err : "out of memory");
		status = SF_EXIT_USAGE;
	} else {
		status = print_threads(out, &text, pid, &pt, &pm, a->fp_fallback);
		status = write_out(out, &text, &text_len, &pm, status);
		free(text);
	}
	sf_ptrace_free(&pt);
	sf_proc_modules_free(&pm);
	sf_maps_free(&maps);
	return status;
}

int sf_cmd_stack(int argc, char **argv)
{
	struct stack_args a;
	int r = parse_args(argc, argv, &a);

	if (r >= 0)
		return r;
	if (a.core)
		return sf_stack_core(a.core, a.exe, a.sysroot, a.fp_fallback, &a.opts);
	return stack_process(a.pid, &a);
}
