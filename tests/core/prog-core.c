/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * The program tests/core/run.sh takes cores of: five threads, each stopped
 * at a different depth of a call chain of its own, all in code with SFrame
 * but for the blocked thread's last frame (a system call in the C library):
 *
 *   recurse  thr_start -> recurse -> rec_level -> ... (10 levels,
 *            alloca frames of different sizes) -> spin
 *   big      thr_start -> big_frame (a 4 KB frame) -> spin
 *   lib      thr_start -> via_lib -> lib_outer -> lib_inner -> back
 *            through a pointer -> spin (libcore.so, or linked in statically)
 *   blocked  thr_start -> blocked_a -> blocked_b -> read() of a pipe no one
 *            writes
 *   main     main -> main_a -> main_b -> spin
 *
 * Usage: prog-core wait|crash
 *   wait   prints "ready" once every thread is in place, then spins until
 *          it is killed (gcore takes its core meanwhile, or qemu-user
 *          dumps it on SIGABRT)
 *   crash  the same, then main calls crash_a -> crash_alloca -> crash_leaf,
 *          which writes through a null pointer: SIGSEGV, a kernel core
 * Either way it ends itself after 60 s (SIGALRM, no core) if no one does.
 */
#include <alloca.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include "work.h"

volatile unsigned long sft_sink;
static volatile int ready;

unsigned long lib_outer(unsigned long n, unsigned long (*back)(unsigned long));

/* Where every chain but the blocked one ends: busy, never returning in practice. */
NOINLINE unsigned long spin(unsigned long n)
{
	unsigned long s = n + sft_sink;

	__atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
	while (sft_sink != 1)
		SFT_WORK(n, s);
	return s;
}

/*
 * One level of the recursion: an alloca (so the frame is addressed from the
 * frame pointer) of 1 byte on even levels, of 33 bytes and more on odd ones:
 * frames of different sizes.
 */
NOINLINE unsigned long rec_level(unsigned long depth, unsigned long n)
{
	size_t len = depth % 2 ? 8 + depth * 24 : 0;
	volatile unsigned char *buf = alloca(len + 1);
	unsigned long s;

	buf[len] = (unsigned char)depth;
	s = depth ? rec_level(depth - 1, n) : spin(n);
	return s + buf[len];
}

NOINLINE unsigned long recurse(unsigned long n)
{
	return rec_level(9, n) + sft_sink;
}

/* A frame larger than a page: the stack pointer moves 4 KB at once. */
NOINLINE unsigned long big_frame(unsigned long n)
{
	volatile unsigned char buf[4096];
	unsigned long s = n + sft_sink;

	for (size_t i = 0; i < sizeof(buf); i += 64)
		buf[i] = (unsigned char)(s + i);
	s += spin(n);
	return s + buf[4032];
}

NOINLINE unsigned long via_lib(unsigned long n)
{
	unsigned long s = n + sft_sink;

	SFT_WORK(n, s);
	s += lib_outer(n, spin);
	return s + sft_sink;
}

static int never[2];

NOINLINE unsigned long blocked_b(unsigned long n)
{
	char c;

	__atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
	if (read(never[0], &c, 1) != 1)
		return n;
	return n + (unsigned long)c;
}

SFT_LEVEL(, blocked_a, blocked_b)
SFT_LEVEL(, main_b, spin)
SFT_LEVEL(, main_a, main_b)

NOINLINE void crash_leaf(unsigned long n)
{
	volatile int *volatile p = NULL;

	*p = (int)n;
}

NOINLINE unsigned long crash_alloca(unsigned long n)
{
	size_t len = 24 + n % 100;
	volatile unsigned char *buf = alloca(len);

	memset((void *)buf, 1, len);
	crash_leaf(n + buf[len - 1]);
	return buf[0];
}

SFT_LEVEL(, crash_a, crash_alloca)

static unsigned long (*const paths[])(unsigned long) = { recurse, big_frame, via_lib, blocked_a };
#define NTHREADS (sizeof(paths) / sizeof(paths[0]))

NOINLINE void *thr_start(void *arg)
{
	unsigned long (*path)(unsigned long) = *(unsigned long (*const *)(unsigned long))arg;

	sft_sink += path(100);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[NTHREADS];
	int crash = argc == 2 && strcmp(argv[1], "crash") == 0;

	if (argc != 2 || (!crash && strcmp(argv[1], "wait") != 0)) {
		fprintf(stderr, "usage: prog-core wait|crash\n");
		return 2;
	}
	alarm(60);
	if (pipe(never)) {
		perror("pipe");
		return 1;
	}
	for (size_t i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, thr_start, (void *)&paths[i])) {
			fprintf(stderr, "prog-core: pthread_create failed\n");
			return 1;
		}
	while (__atomic_load_n(&ready, __ATOMIC_SEQ_CST) < (int)NTHREADS)
		usleep(1000);
	printf("ready\n");
	fflush(stdout);
	sft_sink += crash ? crash_a(100) : main_a(100);
	return 0;
}
