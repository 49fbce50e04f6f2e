/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * ptrace_target.h - stop every thread of a live process with ptrace, read
 * its registers and memory, and let it go again (hosted tool, Linux).
 *
 * The architecture-specific part is only the register layout: x86_64,
 * aarch64 and s390x (see sf_arch_get_regs()); elsewhere sf_arch_abi()
 * returns 0 and the rest still compiles.
 */
#ifndef SFRAME_TOOL_PTRACE_TARGET_H
#define SFRAME_TOOL_PTRACE_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <sframe/sframe_unwind.h>

/* struct sf_thread.state */
enum sf_thread_state {
	SF_THREAD_SEIZED,	/* attached, asked to stop, not stopped yet */
	SF_THREAD_STOPPED,	/* in a ptrace stop: registers readable */
	SF_THREAD_TIMEOUT,	/* did not stop in time (uninterruptible sleep, vfork) */
	SF_THREAD_GONE,		/* exited meanwhile */
	SF_THREAD_DETACHED,	/* let go */
};

/**
 * struct sf_thread - one thread of the target.
 * @tid: its id.
 * @state: enum sf_thread_state.
 * @pending_sig: a signal it was about to receive when it stopped; given
 *	back on detach.
 */
struct sf_thread {
	pid_t tid;
	int state;
	int pending_sig;
};

/**
 * struct sf_ptrace - the threads of one process under ptrace.
 */
struct sf_ptrace {
	pid_t pid;
	struct sf_thread *threads;
	size_t n;
	size_t cap;
};

/* Seconds a thread gets to reach its ptrace stop. */
#define SF_STOP_TIMEOUT 2

/**
 * sf_ptrace_signals_install() - catch SIGINT, SIGTERM, SIGHUP, SIGQUIT (and
 * SIGALRM for the stop timeout) so that an interrupted run detaches first.
 * sf_ptrace_signals_restore() puts the old actions back.
 */
void sf_ptrace_signals_install(void);
void sf_ptrace_signals_restore(void);

/** sf_ptrace_interrupted() - the terminating signal caught, or 0. */
int sf_ptrace_interrupted(void);

/**
 * sf_ptrace_stop_all() - attach to and stop every thread of @pid.
 * @pt: filled; release with sf_ptrace_detach_all() and sf_ptrace_free().
 * @pid: the process.
 *
 * PTRACE_SEIZE and PTRACE_INTERRUPT each thread listed in /proc/PID/task,
 * wait for its stop (waitpid with __WALL, SF_STOP_TIMEOUT seconds at most),
 * and list the tasks again until no new thread appeared. Threads that exit
 * meanwhile are dropped. @pt->threads keeps the order of /proc/PID/task
 * (the main thread first), threads found in later rounds after. On any failure, and when a signal from
 * sf_ptrace_signals_install() arrives, the threads stopped so far are
 * detached before returning.
 *
 * Return: 0; -ESRCH (no such process), -EPERM (not allowed to trace it),
 * -EINTR (a terminating signal arrived), -ENOMEM, or another -errno.
 */
int sf_ptrace_stop_all(struct sf_ptrace *pt, pid_t pid);

/**
 * sf_ptrace_detach_all() - let every thread run again, handing back the
 * signals they were stopped with. Safe to call more than once.
 */
void sf_ptrace_detach_all(struct sf_ptrace *pt);

void sf_ptrace_free(struct sf_ptrace *pt);

/**
 * struct sf_mem - context of sf_mem_read().
 * @pid: the process whose memory is read.
 * @tid: a thread of it in a ptrace stop (for PTRACE_PEEKDATA), or 0.
 * @use_peek: process_vm_readv() failed with ENOSYS or EPERM once: use
 *	PTRACE_PEEKDATA from then on.
 */
struct sf_mem {
	pid_t pid;
	pid_t tid;
	bool use_peek;
};

/**
 * sf_mem_read() - sframe_read_fn over another process's memory:
 * process_vm_readv(), or PTRACE_PEEKDATA when that is unavailable.
 * Any @len is accepted.
 *
 * Return: 0 or a negative errno (-EFAULT for unmapped memory).
 */
int sf_mem_read(void *ctx, uint64_t addr, void *dst, size_t len);

/* ---- The architecture-specific part --------------------------------------- */

#define SF_ARCH_MAX_DWARF 32

/**
 * struct sf_arch_regs - one stopped thread's registers.
 * @regs: what the unwinder needs (PC, SP, FP, and the link register).
 * @dwarf: general registers by DWARF number, for FLEX rules of the
 *	topmost frame.
 * @ndwarf: dwarf[0 .. ndwarf - 1] are known.
 */
struct sf_arch_regs {
	struct sframe_regs regs;
	uint64_t dwarf[SF_ARCH_MAX_DWARF];
	unsigned int ndwarf;
};

struct sf_abi;

/*
 * sf_arch_regs_from_prstatus() - @r from an NT_PRSTATUS register set of
 * architecture @a (a core's, or PTRACE_GETREGSET's), in byte order @be.
 */
void sf_arch_regs_from_prstatus(const struct sf_abi *a, const unsigned char *set, bool be,
				struct sf_arch_regs *r);

/** sf_arch_abi() - the SFrame ABI of this build's processes, 0 if unsupported. */
uint8_t sf_arch_abi(void);

/**
 * sf_arch_get_regs() - PTRACE_GETREGSET NT_PRSTATUS of a stopped thread.
 * @tid: the thread.
 * @r: filled on success.
 * @err: message on failure.
 * @errlen: its size.
 *
 * Return: 0 or -1.
 */
int sf_arch_get_regs(pid_t tid, struct sf_arch_regs *r, char *err, size_t errlen);

/** sf_arch_get_reg() - sframe_get_reg_fn over a struct sf_arch_regs. */
int sf_arch_get_reg(void *ctx, unsigned int dwarf_reg, uint64_t *value);

#endif /* SFRAME_TOOL_PTRACE_TARGET_H */
