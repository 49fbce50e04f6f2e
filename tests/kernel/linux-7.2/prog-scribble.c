/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * Stress (run-debug.sh only): the program's own .sframe overwritten while
 * it is walked.  It finds its PT_GNU_SFRAME with dl_iterate_phdr(), makes
 * the pages that hold it writable (mprotect) and keeps a copy; two workers
 * and the scribbler thread itself run sc_start -> sc_mid -> sc_leaf (the
 * main thread main -> sc_mid -> sc_leaf) while the scribbler loops:
 *   - restore the section, work (walks are good again);
 *   - write random bytes: a few at random offsets, a run of them, or over
 *     the header and the FDE table; work (the reader meets what it meets:
 *     it must stop the walk or walk to wrong but harmless addresses);
 *   - now and then make the pages read-only and writable again, and map
 *     and unmap the program's own file elsewhere, which drops the kernel's
 *     entry for the file: its next walk opens the section anew, scribbled
 *     or not, instead of finding it marked corrupt.
 * Runs argv[last] seconds of wall time (default 3); exits 0.  Its seed is
 * printed (SFT_SEED in the environment replays it).
 */
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include "stress.h"

volatile unsigned long sft_sink;

SFT_LEAF(, sc_leaf, 3)
SFT_LEVEL(, sc_mid, sc_leaf)

static double deadline;
static struct sft_module mod;
static unsigned char *orig;
static unsigned long scribbles, restores, remaps;
static uint64_t seed;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static int writable_prot(void)
{
	return PROT_READ | PROT_WRITE | (mod.sframe_in_text ? PROT_EXEC : 0);
}

static void protect(int prot)
{
	if (mprotect((void *)mod.sf_pages, mod.sf_pages_len, prot))
		die("mprotect");
}

/* Maps the program's file (2 pages) elsewhere and unmaps it. */
static void remap_self(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	void *p;

	if (fd < 0)
		die("open /proc/self/exe");
	p = mmap(NULL, 2 * pg, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED || munmap(p, 2 * pg))
		die("mmap /proc/self/exe");
	close(fd);
	remaps++;
}

NOINLINE void scribble(void)
{
	unsigned char *sf = (unsigned char *)mod.sframe;
	size_t len = mod.sframe_len;
	uint64_t r = sft_rand(&seed);

	switch (r % 4) {
	case 0: /* a few bytes anywhere */
		for (int i = 0; i < 1 + (int)(r >> 8) % 8; i++)
			sf[sft_rand(&seed) % len] = (unsigned char)sft_rand(&seed);
		break;
	case 1: { /* a run of bytes */
		size_t at = sft_rand(&seed) % len, n = 1 + sft_rand(&seed) % 64;

		for (size_t i = at; i < at + n && i < len; i++)
			sf[i] = (unsigned char)sft_rand(&seed);
		break;
	}
	case 2: /* the header and the start of the FDE table */
		for (size_t i = 0; i < 64 && i < len; i++)
			if (sft_rand(&seed) % 4 == 0)
				sf[i] = (unsigned char)sft_rand(&seed);
		break;
	default: /* one bit */
		sf[sft_rand(&seed) % len] ^= (unsigned char)(1u << ((r >> 8) % 8));
		break;
	}
	scribbles++;
}

NOINLINE void *sc_start(void *arg)
{
	while (sft_now() < deadline)
		sft_sink += sc_mid(20000);
	return arg;
}

NOINLINE void *sc_scribbler(void *arg)
{
	unsigned long round = 0;

	while (sft_now() < deadline) {
		memcpy((void *)mod.sframe, orig, mod.sframe_len);
		restores++;
		sft_sink += sc_mid(5000);
		for (int i = 0; i < 4; i++) {
			scribble();
			sft_sink += sc_mid(5000);
		}
		if (++round % 4 == 0) {
			protect(PROT_READ | (mod.sframe_in_text ? PROT_EXEC : 0));
			sft_sink += sc_mid(2000);
			protect(writable_prot());
		}
		if (round % 2 == 0)
			remap_self();
	}
	return arg;
}

int main(int argc, char **argv)
{
	const char *env = getenv("SFT_SEED");
	pthread_t t[3];

	deadline = sft_now() + sft_wall_budget(argc, argv);
	seed = env ? strtoull(env, NULL, 0) : ((uint64_t)getpid() << 32 | (uint64_t)time(NULL));
	if (!seed)
		seed = 1;
	printf("scribble: seed %#llx\n", (unsigned long long)seed);
	if (!sft_module(&mod, 1, 0)) {
		fprintf(stderr, "scribble: no PT_GNU_SFRAME in the program\n");
		return 1;
	}
	orig = malloc(mod.sframe_len);
	if (!orig)
		die("malloc");
	memcpy(orig, (void *)mod.sframe, mod.sframe_len);
	protect(writable_prot());
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, sc_start, NULL))
			die("pthread_create");
	if (pthread_create(&t[2], NULL, sc_scribbler, NULL))
		die("pthread_create");
	while (sft_now() < deadline)
		sft_sink += sc_mid(20000);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	memcpy((void *)mod.sframe, orig, mod.sframe_len);
	printf("scribble: %lu scribbles, %lu restores, %lu remaps, section %lu bytes at %#lx%s\n",
	       scribbles, restores, remaps, (unsigned long)mod.sframe_len,
	       (unsigned long)(mod.sframe - mod.bias),
	       mod.sframe_in_text ? " (shares a page with text)" : "");
	return 0;
}
