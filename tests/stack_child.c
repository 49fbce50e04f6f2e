/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * stack_child.c - a process with known stacks for tests/test_stack.c, built
 * with SFrame (-Wa,--gsframe) and frame pointers.
 *
 *   stack_child single    main -> level1 -> level2 -> level3
 *   stack_child threads   the same, plus a thread:
 *                         thread_start -> thread_level1 -> thread_level2
 *   stack_child plt       main -> plt_spin, which calls getppid() through
 *                         the PLT in its loop
 *
 * Every chain ends in a busy loop, so that each thread's topmost PC is in
 * this program's own code, described by SFrame (a thread blocked in a
 * system call would sit in libc, which has no SFrame on Debian 12). Once
 * every thread spins, "ready\n" is written to standard output. SIGUSR1
 * ends the loops; the program then writes "bye\n" and exits 0, which shows
 * that it still runs normally after the tool detached.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* Keep every function a real frame of its own, named as written. */
#if defined(__clang__)
#define FRAME __attribute__((noinline))
#else
#define FRAME __attribute__((noinline, noclone))
#endif

static volatile sig_atomic_t stop;
static volatile sig_atomic_t thread_spinning;
static volatile unsigned long spins;

static void on_usr1(int sig)
{
	(void)sig;
	stop = 1;
}

static void say(const char *s)
{
	size_t len = strlen(s);

	while (len) {
		ssize_t n = write(STDOUT_FILENO, s, len);

		if (n <= 0)
			_exit(3);
		s += n;
		len -= (size_t)n;
	}
}

int level1(int wait_thread);
int level2(int wait_thread);
int level3(int wait_thread);
int thread_level1(void);
int thread_level2(void);
void *thread_start(void *arg);
int plt_spin(void);

FRAME int level3(int wait_thread)
{
	while (wait_thread && !thread_spinning && !stop)
		spins++;
	say("ready\n");
	while (!stop)
		spins++;
	return wait_thread + 1;
}

FRAME int level2(int wait_thread)
{
	int r = level3(wait_thread);

	__asm__ volatile("" ::: "memory");	/* no tail call */
	return r + 1;
}

FRAME int level1(int wait_thread)
{
	int r = level2(wait_thread);

	__asm__ volatile("" ::: "memory");
	return r + 1;
}

FRAME int thread_level2(void)
{
	thread_spinning = 1;
	while (!stop)
		spins++;
	return 1;
}

FRAME int thread_level1(void)
{
	int r = thread_level2();

	__asm__ volatile("" ::: "memory");
	return r + 1;
}

FRAME void *thread_start(void *arg)
{
	spins += (unsigned long)thread_level1();
	__asm__ volatile("" ::: "memory");
	return arg;
}

FRAME int plt_spin(void)
{
	say("ready\n");
	while (!stop)
		spins += (unsigned long)getppid();
	return 1;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 && strcmp(argv[1], "threads") == 0;
	int plt = argc > 1 && strcmp(argv[1], "plt") == 0;
	struct sigaction sa;
	pthread_t t;
	int r;

	/* Under Yama ptrace_scope 1, let a non-ancestor (the tool) trace us. */
#if defined(PR_SET_PTRACER) && defined(PR_SET_PTRACER_ANY)
	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
#endif
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);

	if (threads && pthread_create(&t, NULL, thread_start, NULL) != 0)
		return 2;
	r = plt ? plt_spin() : level1(threads);
	if (threads)
		pthread_join(t, NULL);
	say("bye\n");
	return r > 0 ? 0 : 1;
}
