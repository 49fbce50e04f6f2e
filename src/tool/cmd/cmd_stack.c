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

#include "read/proc_maps.h"
#include "target/ptrace_target.h"
#include "tool_cli.h"

#define MAX_FRAMES 256	/* as eu-stack's default */

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

/* ---- Printing ------------------------------------------------------------------ */

/* Return addresses are looked up at PC - 1: a call may end its function. */
static uint64_t lookup_pc(const struct sframe_frame *f)
{
	bool exact = f->flags & (SFRAME_FRAME_TOPMOST | SFRAME_FRAME_INTERRUPTED);

	return !exact && f->pc ? f->pc - 1 : f->pc;
}

/*
 * Does SFrame describe this frame's PC (as the unwinder looks it up)? In
 * which part of its file's (@part, when not NULL)?
 */
static bool has_sframe(const struct sf_proc_modules *pm, const struct sframe_frame *f,
		       const struct sframe_section **part)
{
	uint64_t at = lookup_pc(f);
	const struct sf_proc_image *img = sf_proc_image_at(pm, at);
	const struct sframe_section *dummy;
	const struct sframe_section **sec = part ? part : &dummy;
	struct sframe_row row;
	int r;

	*sec = NULL;
	if (f->flags & SFRAME_FRAME_NO_SFRAME)
		return false;
	if (!img || !img->has_sec)
		return false;
	r = sf_parts_lookup(&img->parts, at, &row, sec);
	if (r == -SFRAME_ERR_NOT_FOUND && at != f->pc) {
		/* A signal trampoline is looked up at its exact address. */
		const struct sframe_section *sig_sec;
		struct sframe_row sig;
		int r2 = sf_parts_lookup(&img->parts, f->pc, &sig, &sig_sec);

		if ((r2 == 0 || r2 == -SFRAME_ERR_NOT_FOUND) && sig.fde.index != SFRAME_NO_INDEX &&
		    sig.fde.signal) {
			r = r2;
			row = sig;
			*sec = sig_sec;
		}
	}
	if (r != -SFRAME_ERR_NOT_FOUND)
		return true;
	/* A v3 function without rows: an outermost or signal frame, described. */
	return row.fde.index != SFRAME_NO_INDEX && row.fde.num_fres == 0 && *sec &&
	       (*sec)->version == SFRAME_VERSION_3;
}

static void print_frame(FILE *out, const struct sf_proc_modules *pm,
			const struct sframe_frame *f, unsigned int idx)
{
	uint64_t at = lookup_pc(f);
	const struct sf_proc_image *img = sf_proc_image_at(pm, at);
	const struct sframe_section *part;
	const struct sf_symbol *s = NULL;

	/* "#%-2u 0x%016" as eu-stack prints it: "#0  0x...", "#10 0x...". */
	fprintf(out, "#%-2u 0x%016" PRIx64, idx, f->pc);
	if (img && img->bias_known)
		s = sf_symbol_find(&img->file->info, at - img->bias);
	if (s)
		fprintf(out, " %s+0x%" PRIx64, s->name, f->pc - (s->addr + img->bias));
	else
		fputs(" ??", out);
	if (img)
		fprintf(out, " - %s", img->file->key_path);
	if (f->flags & SFRAME_FRAME_FP_FALLBACK)
		fputs(" [fp]", out);
	if (!has_sframe(pm, f, &part))
		fputs(" [no sframe]", out);
	else if (img && (img->file->found.from >= SF_SFRAME_SIDECAR ||
			 sf_parts_is_supplement(&img->parts, part)))
		fputs(" [converted]", out);
	if (f->flags & SFRAME_FRAME_SIGNAL)
		fputs(" [signal]", out);
	if (f->flags & SFRAME_FRAME_RA_SIGNED)
		fputs(" [pac]", out);
	fputc('\n', out);
}

static void print_stop(FILE *out, const struct sf_proc_modules *pm,
		       const struct sframe_frame *last, int r, bool fp_fallback)
{
	if (r == SFRAME_UNWIND_END) {
		if (last && !has_sframe(pm, last, NULL))
			fputs("stop: end of the frame-pointer chain\n", out);
		else
			fputs("stop: outermost frame\n", out);
	} else if (r == SFRAME_UNWIND_FULL || r == -SFRAME_ERR_DEPTH) {
		fprintf(out, "stop: %d frames shown, more not walked\n", MAX_FRAMES);
	} else if (r == -SFRAME_ERR_NOT_FOUND) {
		const struct sf_proc_image *img = last ? sf_proc_image_at(pm, lookup_pc(last)) : NULL;

		fprintf(out, "stop: no SFrame for 0x%" PRIx64, last ? last->pc : 0);
		if (!img)
			fputs(": not in a mapped file", out);
		else if (!img->has_sec && img->file->why[0])
			fprintf(out, ": %s", img->file->why);
		fprintf(out, "%s\n", fp_fallback ? "" : " (--fp-fallback follows frame pointers)");
	} else if (r < 0 && r > -SFRAME_ERR_BASE) {
		fprintf(out, "stop: cannot read the stack: %s\n", strerror(-r));
	} else {
		fprintf(out, "stop: %s (%s)\n", sframe_strerror(r), sframe_errname(r));
	}
}

void sf_stack_print_walk(FILE *out, struct sf_proc_modules *pm, struct sf_arch_regs *regs,
			 sframe_read_fn read_mem, void *mem_ctx, bool fp_fallback)
{
	static struct sframe_frame frames[MAX_FRAMES];
	struct sframe_unwinder u;
	uint32_t n = 0, i;
	int r;

	memset(&u, 0, sizeof(u));
	u.abi = pm->abi;
	u.flags = fp_fallback ? SFRAME_UNWIND_FP_FALLBACK : 0;
	u.max_depth = MAX_FRAMES + 1;	/* the array's end stops the walk first */
	u.modules = &pm->table;
	u.read_stack = read_mem;
	u.stack_ctx = mem_ctx;
	u.get_reg = sf_arch_get_reg;
	u.reg_ctx = regs;

	/*
	 * A file whose conversion was put off is converted when the walk
	 * reaches it, and the walk made again: once per file at most.
	 */
	for (;;) {
		bool again = false;

		r = sframe_unwind_stack(&u, &regs->regs, frames, MAX_FRAMES, &n);
		for (i = 0; i < n && !again; i++)
			again = sf_proc_modules_convert_at(pm, lookup_pc(&frames[i])) == 1;
		if (!again)
			break;
	}
	for (i = 0; i < n; i++)
		print_frame(out, pm, &frames[i], i);
	print_stop(out, pm, n ? &frames[n - 1] : NULL, r, fp_fallback);
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

int sf_cmd_stack(int argc, char **argv)
{
	bool fp_fallback = false, have_pid = false, end_of_options = false;
	struct sf_sframe_opts opts = { .ndirs = 0 };
	const char *core = NULL, *exe = NULL, *sysroot = NULL;
	struct sf_proc_modules pm;
	struct sf_maps maps, now;
	struct sf_mem mem;
	struct sf_ptrace pt;
	char err[512], *text = NULL;
	size_t text_len = 0, i;
	FILE *out;
	pid_t pid = 0;
	uint8_t abi;
	long tgid;
	int r, status = 0, sig, info;

	for (i = 1; i < (size_t)argc; i++) {
		const char *a = argv[i];

		if (!end_of_options && strcmp(a, "--") == 0) {
			end_of_options = true;
		} else if (!end_of_options &&
			   (info = sf_cli_info_option(a, "sframe", sf_stack_usage)) >= 0) {
			return info;
		} else if (!end_of_options && strcmp(a, "--fp-fallback") == 0) {
			fp_fallback = true;
		} else if (!end_of_options && (r = sf_sframe_opt(argc, argv, &i, &opts, "stack"))) {
			if (r < 0)
				return -r;
		} else if (!end_of_options && (strcmp(a, "--core") == 0 || strcmp(a, "--exe") == 0 ||
					       strcmp(a, "--sysroot") == 0)) {
			const char **v = a[2] == 'c' ? &core : a[2] == 'e' ? &exe : &sysroot;

			if (i + 1 == (size_t)argc || !argv[i + 1][0])
				return usage_error("option '%s' needs a value", a);
			if (*v)
				return usage_error("option '%s' given twice", a);
			*v = argv[++i];
		} else if (!end_of_options && a[0] == '-' && a[1]) {
			return usage_error("unknown option '%s'", a);
		} else if (have_pid || core) {
			return usage_error("unexpected argument '%s'", a);
		} else if (!parse_pid(a, &pid)) {
			return usage_error("invalid PID '%s' (expected a positive decimal number)", a);
		} else {
			have_pid = true;
		}
	}
	if (core && have_pid)
		return usage_error("a PID and --core: give one of them");
	if (!core && (exe || sysroot))
		return usage_error("%s needs --core", exe ? "--exe" : "--sysroot");
	if (core)
		return sf_stack_core(core, exe, sysroot, fp_fallback, &opts);
	if (!have_pid)
		return usage_error("missing PID");

	abi = sf_arch_abi();
	if (!abi) {
		fprintf(stderr, "sframe: stack: not supported on this architecture\n");
		return SF_EXIT_USAGE;
	}
	/* A thread id stands for its process. */
	tgid = status_field(pid, "Tgid");
	if (tgid < 0) {
		fprintf(stderr, "sframe: stack: no process with PID %ld\n", (long)pid);
		return SF_EXIT_USAGE;
	}
	pid = (pid_t)tgid;
	if (pid == getpid()) {
		fprintf(stderr, "sframe: stack: a process cannot trace itself\n");
		return SF_EXIT_USAGE;
	}

	/*
	 * Load the modules while the process runs, to keep it stopped for as
	 * short a time as possible; check that nothing changed once it is.
	 */
	r = sf_maps_read(pid, &maps, err, sizeof(err));
	if (r) {
		if (r == -ENOENT || r == -ESRCH)
			fprintf(stderr, "sframe: stack: no process with PID %ld\n", (long)pid);
		else if (r == -EACCES || r == -EPERM)
			explain_eperm(pid);	/* the same ptrace access check */
		else
			fprintf(stderr, "sframe: stack: %s\n", err);
		return SF_EXIT_USAGE;
	}
	memset(&mem, 0, sizeof(mem));
	mem.pid = pid;
	if (sf_proc_modules_build(pid, &maps, abi, &opts, sf_mem_read, &mem, &pm, err,
				  sizeof(err))) {
		fprintf(stderr, "sframe: stack: %s\n", err);
		sf_proc_modules_free(&pm);
		sf_maps_free(&maps);
		return SF_EXIT_USAGE;
	}

	sf_ptrace_signals_install();
	r = sf_ptrace_stop_all(&pt, pid);
	if (r) {
		sig = sf_ptrace_interrupted();
		sf_ptrace_signals_restore();
		sf_proc_modules_free(&pm);
		sf_maps_free(&maps);
		sf_ptrace_free(&pt);
		if (sig) {
			signal(sig, SIG_DFL);
			raise(sig);
		}
		if ((r == -EPERM || r == -ESRCH) && report_zombie(pid))
			return SF_EXIT_USAGE;
		if (r == -EPERM)
			explain_eperm(pid);
		else if (r == -ESRCH)
			fprintf(stderr, "sframe: stack: no process with PID %ld\n", (long)pid);
		else
			fprintf(stderr, "sframe: stack: cannot stop process %ld: %s\n", (long)pid,
				strerror(-r));
		return SF_EXIT_USAGE;
	}

	/* The process is stopped from here on: nothing is written out until it runs. */
	if (sf_maps_read(pid, &now, err, sizeof(err)) == 0) {
		if (!sf_maps_same_code(&maps, &now)) {
			/* Libraries came or went meanwhile: use the current mappings. */
			for (i = 0; i < pt.n; i++)
				if (pt.threads[i].state == SF_THREAD_STOPPED)
					mem.pid = mem.tid = pt.threads[i].tid;
			sf_proc_modules_free(&pm);
			if (sf_proc_modules_build(pid, &now, abi, &opts, sf_mem_read, &mem, &pm, err,
						  sizeof(err)))
				status = SF_EXIT_USAGE;
		}
		sf_maps_free(&now);
	}
	out = status ? NULL : open_memstream(&text, &text_len);
	if (!out) {
		sf_ptrace_detach_all(&pt);
		sf_ptrace_signals_restore();
		fprintf(stderr, "sframe: stack: %s\n", status ? err : "out of memory");
		status = SF_EXIT_USAGE;
		goto done;
	}
	fprintf(out, "PID %ld - process\n", (long)pid);
	if (pm.root[0])
		fprintf(out, "root: %s\n", pm.root);
	for (i = 0; i < pt.n; i++) {
		const struct sf_thread *t = &pt.threads[i];

		sig = sf_ptrace_interrupted();
		if (sig) {
			fclose(out);
			free(text);
			die_of_signal(&pt, sig);
		}
		if (t->state != SF_THREAD_STOPPED && t->state != SF_THREAD_TIMEOUT)
			continue;	/* exited meanwhile */
		if (!print_thread(out, &pm, t, fp_fallback))
			status = SF_EXIT_USAGE;
	}
	sf_ptrace_detach_all(&pt);
	sig = sf_ptrace_interrupted();
	if (sig) {
		fclose(out);
		free(text);
		die_of_signal(&pt, sig);
	}
	sf_ptrace_signals_restore();

	/* Everything runs again: now write. */
	if (fclose(out) != 0 || !text) {
		fprintf(stderr, "sframe: stack: out of memory\n");
		status = SF_EXIT_USAGE;
	} else if (fwrite(text, 1, text_len, stdout) != text_len || fflush(stdout) != 0) {
		fprintf(stderr, "sframe: write error on standard output\n");
		status = SF_EXIT_USAGE;
	} else {
		sf_image_set_report(pm.set, stderr, "sframe: stack");
	}
	free(text);
done:
	sf_ptrace_free(&pt);
	sf_proc_modules_free(&pm);
	sf_maps_free(&maps);
	return status;
}
