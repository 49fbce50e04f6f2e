/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * ptrace_target.c - stop, inspect and release the threads of a live process.
 *
 * Threads are attached with PTRACE_SEIZE and stopped with PTRACE_INTERRUPT,
 * which, unlike PTRACE_ATTACH, sends no SIGSTOP: a process that was running
 * runs on after the detach, one that was stopped (group stop) stays stopped,
 * and a signal that arrived while attaching is handed back on detach. If
 * this tool dies while attached, the kernel detaches its tracees itself.
 */
#include "target/ptrace_target.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "abi/tool_abi.h"
#include "read/elf_input.h"

/* ---- Signals ---------------------------------------------------------------- */

static volatile sig_atomic_t got_signal;
static volatile sig_atomic_t got_alarm;

static const int caught[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM };
static struct sigaction saved[sizeof(caught) / sizeof(caught[0])];
static bool installed[sizeof(caught) / sizeof(caught[0])];

static void on_signal(int sig)
{
	if (sig == SIGALRM)
		got_alarm = 1;
	else
		got_signal = sig;
}

void sf_ptrace_signals_install(void)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: waitpid() must return EINTR */
	for (i = 0; i < sizeof(caught) / sizeof(caught[0]); i++) {
		if (sigaction(caught[i], NULL, &saved[i]) != 0)
			continue;
		/* A signal the user chose to ignore (nohup) stays ignored. */
		if (caught[i] != SIGALRM && saved[i].sa_handler == SIG_IGN)
			continue;
		installed[i] = sigaction(caught[i], &sa, NULL) == 0;
	}
}

void sf_ptrace_signals_restore(void)
{
	size_t i;

	for (i = 0; i < sizeof(caught) / sizeof(caught[0]); i++) {
		if (installed[i])
			sigaction(caught[i], &saved[i], NULL);
		installed[i] = false;
	}
}

int sf_ptrace_interrupted(void)
{
	return got_signal;
}

/* ---- Threads ------------------------------------------------------------------ */

static struct sf_thread *find_thread(struct sf_ptrace *pt, pid_t tid)
{
	size_t i;

	for (i = 0; i < pt->n; i++)
		if (pt->threads[i].tid == tid)
			return &pt->threads[i];
	return NULL;
}

static int add_thread(struct sf_ptrace *pt, pid_t tid)
{
	if (pt->n == pt->cap) {
		size_t ncap = pt->cap ? pt->cap * 2 : 16;
		struct sf_thread *nt = realloc(pt->threads, ncap * sizeof(*nt));

		if (!nt)
			return -ENOMEM;
		pt->threads = nt;
		pt->cap = ncap;
	}
	memset(&pt->threads[pt->n], 0, sizeof(pt->threads[0]));
	pt->threads[pt->n].tid = tid;
	pt->threads[pt->n].state = SF_THREAD_SEIZED;
	pt->n++;
	return 0;
}

/* The thread ids in /proc/PID/task, in *@tids (malloc'd); count or -errno. */
static long list_tasks(pid_t pid, pid_t **tids)
{
	char path[64];
	struct dirent *de;
	size_t n = 0, cap = 0;
	pid_t *v = NULL;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%ld/task", (long)pid);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? -ESRCH : -errno;
	while ((de = readdir(d)) != NULL) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);

		if (*end || tid <= 0 || end == de->d_name)
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			pid_t *nv = realloc(v, ncap * sizeof(*nv));

			if (!nv) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = nv;
			cap = ncap;
		}
		v[n++] = (pid_t)tid;
	}
	closedir(d);
	*tids = v;
	return (long)n;
}

/* Wait until @t is in a ptrace stop, has gone, or the time is up. */
static void wait_stop(struct sf_thread *t)
{
	int status;

	got_alarm = 0;
	alarm(SF_STOP_TIMEOUT);
	for (;;) {
		pid_t r = waitpid(t->tid, &status, __WALL);

		if (r == t->tid) {
			if (WIFEXITED(status) || WIFSIGNALED(status)) {
				t->state = SF_THREAD_GONE;
				break;
			}
			if (!WIFSTOPPED(status))
				continue;
			/*
			 * PTRACE_EVENT_STOP: our interrupt, or a group stop
			 * (the process was stopped). Without an event: a
			 * signal-delivery stop; the signal goes back on detach.
			 */
			if ((status >> 16) == 0)
				t->pending_sig = WSTOPSIG(status);
			t->state = SF_THREAD_STOPPED;
			break;
		}
		if (r < 0 && errno == EINTR) {
			if (got_signal)
				break;
			if (got_alarm) {
				t->state = SF_THREAD_TIMEOUT;
				break;
			}
			continue;
		}
		t->state = SF_THREAD_GONE;	/* ECHILD: not ours any more */
		break;
	}
	alarm(0);
}

/* As wait_stop(), but for at most about 100 ms and deaf to signals. */
static void wait_stop_brief(struct sf_thread *t)
{
	const struct timespec ms = { 0, 1000000 };
	unsigned int i;
	int status;

	for (i = 0; i < 100; i++) {
		pid_t r = waitpid(t->tid, &status, __WALL | WNOHANG);

		if (r == t->tid && WIFSTOPPED(status)) {
			if ((status >> 16) == 0)
				t->pending_sig = WSTOPSIG(status);
			t->state = SF_THREAD_STOPPED;
			return;
		}
		if (r == t->tid || (r < 0 && errno != EINTR)) {
			t->state = SF_THREAD_GONE;
			return;
		}
		nanosleep(&ms, NULL);
	}
}

int sf_ptrace_stop_all(struct sf_ptrace *pt, pid_t pid)
{
	unsigned int pass;
	size_t i, stopped = 0;
	bool eperm = false;
	int ret = 0;

	memset(pt, 0, sizeof(*pt));
	pt->pid = pid;
	/* Threads may start while we attach: list again until none is new. */
	for (pass = 0; pass < 100; pass++) {
		pid_t *tids = NULL;
		long n = list_tasks(pid, &tids), j;
		size_t added = 0;

		if (n < 0) {
			ret = pass == 0 ? (int)n : 0;
			break;
		}
		for (j = 0; j < n && !got_signal; j++) {
			if (find_thread(pt, tids[j]))
				continue;
			if (ptrace(PTRACE_SEIZE, tids[j], NULL, NULL) != 0) {
				/*
				 * ESRCH: exited meanwhile. EPERM also comes for a
				 * thread that is exiting, and for a zombie main
				 * thread (after pthread_exit()): it means "not
				 * permitted" only if no thread can be seized.
				 */
				if (errno == EPERM)
					eperm = true;
				else if (errno != ESRCH)
					ret = -errno;
				if (ret)
					break;
				continue;
			}
			ret = add_thread(pt, tids[j]);
			if (ret) {
				ptrace(PTRACE_DETACH, tids[j], NULL, NULL);
				break;
			}
			added++;
			if (ptrace(PTRACE_INTERRUPT, tids[j], NULL, NULL) != 0)
				pt->threads[pt->n - 1].state = SF_THREAD_GONE;
		}
		free(tids);
		if (ret)
			break;
		for (i = 0; i < pt->n && !got_signal; i++)
			if (pt->threads[i].state == SF_THREAD_SEIZED)
				wait_stop(&pt->threads[i]);
		if (got_signal || added == 0)
			break;
	}
	if (!ret && got_signal)
		ret = -EINTR;
	if (!ret && pt->n == 0 && eperm)
		ret = -EPERM;
	for (i = 0; i < pt->n; i++)
		stopped += pt->threads[i].state == SF_THREAD_STOPPED ||
			   pt->threads[i].state == SF_THREAD_TIMEOUT;
	if (!ret && stopped == 0)
		ret = -ESRCH;	/* every thread exited */
	if (ret) {
		sf_ptrace_detach_all(pt);
		return ret;
	}
	return 0;
}

void sf_ptrace_detach_all(struct sf_ptrace *pt)
{
	size_t i;

	for (i = 0; i < pt->n; i++) {
		struct sf_thread *t = &pt->threads[i];

		/*
		 * Asked to stop but not (or not yet) stopped: an aborted attach,
		 * or a timeout. It may stop any moment: give it a little time.
		 */
		if (t->state == SF_THREAD_SEIZED || t->state == SF_THREAD_TIMEOUT)
			wait_stop_brief(t);
		if (t->state == SF_THREAD_STOPPED) {
			ptrace(PTRACE_DETACH, t->tid, NULL, (void *)(long)t->pending_sig);
			t->state = SF_THREAD_DETACHED;
		} else if (t->state != SF_THREAD_GONE && t->state != SF_THREAD_DETACHED) {
			/*
			 * Still running toward its stop: PTRACE_DETACH needs a
			 * stopped tracee. The kernel detaches it, with the
			 * pending interrupt cancelled, when this tool exits.
			 */
			ptrace(PTRACE_DETACH, t->tid, NULL, NULL);
		}
	}
}

void sf_ptrace_free(struct sf_ptrace *pt)
{
	free(pt->threads);
	memset(pt, 0, sizeof(*pt));
}

/* ---- Memory ---------------------------------------------------------------------- */

static int peek_read(pid_t tid, uint64_t addr, unsigned char *dst, size_t len)
{
	const size_t w = sizeof(long);
	uint64_t a = addr & ~(uint64_t)(w - 1);

	if (tid <= 0)
		return -EPERM;
	while (len) {
		size_t skip = (size_t)(addr - a), n = w - skip;
		long word;

		if (n > len)
			n = len;
		errno = 0;
		word = ptrace(PTRACE_PEEKDATA, tid, (void *)(uintptr_t)a, NULL);
		if (word == -1 && errno)
			return -errno;
		memcpy(dst, (unsigned char *)&word + skip, n);
		dst += n;
		len -= n;
		addr += n;
		a += w;
	}
	return 0;
}

int sf_mem_read(void *ctx, uint64_t addr, void *dst, size_t len)
{
	struct sf_mem *m = ctx;

	if (len == 0)
		return 0;
	if (addr > UINT64_MAX - len || addr + len > (uint64_t)UINTPTR_MAX || len > SSIZE_MAX)
		return -EFAULT;
	if (!m->use_peek) {
		struct iovec local = { dst, len };
		struct iovec remote = { (void *)(uintptr_t)addr, len };
		ssize_t n = process_vm_readv(m->pid, &local, 1, &remote, 1, 0);

		if (n == (ssize_t)len)
			return 0;
		if (n >= 0)
			return -EFAULT;	/* partly unmapped */
		if (errno != ENOSYS && errno != EPERM)
			return -errno;
		m->use_peek = true;
	}
	return peek_read(m->tid, addr, dst, len);
}

/* ---- Registers: laid out as tool_abi.c says ---------------------------------------- */

static uint64_t slot(const unsigned char *set, unsigned int i, bool be)
{
	return sf_get_uint(set + 8 * i, 8, be);
}

void sf_arch_regs_from_prstatus(const struct sf_abi *a, const unsigned char *set, bool be,
				struct sf_arch_regs *r)
{
	const struct sf_abi_prstatus *l = a->prstatus;
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->regs.pc = slot(set, l->pc, be);
	r->regs.sp = slot(set, l->sp, be);
	r->regs.fp = slot(set, l->fp, be);
	r->regs.valid = SFRAME_REG_PC | SFRAME_REG_SP | SFRAME_REG_FP;
	if (l->ra != SF_ABI_NO_REG) {
		r->regs.ra = slot(set, l->ra, be);
		r->regs.valid |= SFRAME_REG_RA;
	}
	for (i = 0; i < l->ndwarf; i++)
		r->dwarf[i] = slot(set, l->dwarf[i], be);
	r->ndwarf = l->ndwarf;
}

static bool host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 0;
}

uint8_t sf_arch_abi(void)
{
	const struct sf_abi *a = sf_abi_host();

	return a ? sf_abi_sframe(a, host_big_endian()) : 0;
}

int sf_arch_get_regs(pid_t tid, struct sf_arch_regs *r, char *err, size_t errlen)
{
	const struct sf_abi *a = sf_abi_host();
	uint64_t set[SF_ABI_MAX_REGS];
	struct iovec iov = { set, 0 };

	memset(r, 0, sizeof(*r));
	if (!a) {
		snprintf(err, errlen, "registers of this architecture are not supported");
		return -1;
	}
	/* The 64-bit layout; a shorter set is a thread of the 32-bit (31-bit) ABI. */
	iov.iov_len = 8u * a->prstatus->nslots;
	if (ptrace(PTRACE_GETREGSET, tid, (void *)NT_PRSTATUS, &iov) != 0) {
		snprintf(err, errlen, "cannot read registers: %s", strerror(errno));
		return -1;
	}
	if (iov.iov_len < 8u * a->prstatus->nslots) {
		snprintf(err, errlen, "not a 64-bit thread (%s)", a->narrow);
		return -1;
	}
	sf_arch_regs_from_prstatus(a, (const unsigned char *)set, host_big_endian(), r);
	return 0;
}

int sf_arch_get_reg(void *ctx, unsigned int dwarf_reg, uint64_t *value)
{
	const struct sf_arch_regs *r = ctx;

	if (dwarf_reg >= r->ndwarf)
		return -SFRAME_ERR_NO_REG;
	*value = r->dwarf[dwarf_reg];
	return 0;
}
