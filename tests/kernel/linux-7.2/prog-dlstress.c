/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * Stress (run-debug.sh only): mappings with SFrame that come and go, change
 * protection and are mapped again while the process is sampled.
 *
 * - two workers run dls_start -> dls_mid -> dls_leaf in the program;
 * - two churn threads, each with a library of its own (libsfs0.so,
 *   libsfs1.so: libsf.c), loop: dlopen() it, call into it, mprotect() its
 *   text read-write (not executable) and back, call it, make the pages of
 *   its .sframe inaccessible (PROT_NONE) and call it (the kernel's reads of
 *   that section fault: the walk must stop there), restore them, dlclose()
 *   it (nothing else holds it: text and .sframe are unmapped);
 * - a mapper thread maps the program's own file and the libraries
 *   executable somewhere else and unmaps them again (each unmap of a
 *   mapping of a file drops the kernel's entry for that file while the
 *   workers' walks use it), and maps, splits, mremap()s and unmaps
 *   anonymous regions.
 *
 * Runs argv[last] seconds of wall time (default 3); exits 0.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include "stress.h"

volatile unsigned long sft_sink;

SFT_LEAF(, dls_leaf, 3)
SFT_LEVEL(, dls_mid, dls_leaf)

static double deadline;
static const char *const libs[2] = { "libsfs0.so", "libsfs1.so" };
static const char *const outers[2] = { "sfs0_outer", "sfs1_outer" };
static char lib_paths[2][4096];
static unsigned long rounds[2], maps;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

NOINLINE void *dls_start(void *arg)
{
	while (sft_now() < deadline)
		sft_sink += dls_mid(20000);
	return arg;
}

static void protect(uintptr_t a, uintptr_t len, int prot)
{
	if (mprotect((void *)a, len, prot))
		die("mprotect");
}

NOINLINE unsigned long dls_round(int i)
{
	unsigned long (*fn)(unsigned long);
	struct link_map *lm;
	struct sft_module m;
	unsigned long s = 0;
	void *h = dlopen(libs[i], RTLD_NOW);

	if (!h || !(fn = (unsigned long (*)(unsigned long))dlsym(h, outers[i]))) {
		fprintf(stderr, "dlstress: %s\n", dlerror());
		exit(1);
	}
	if (dlinfo(h, RTLD_DI_LINKMAP, &lm) || !sft_module(&m, 0, lm->l_addr)) {
		fprintf(stderr, "dlstress: %s: no PT_GNU_SFRAME found\n", libs[i]);
		exit(1);
	}
	if (!lib_paths[i][0])
		snprintf(lib_paths[i], sizeof(lib_paths[i]), "%s", lm->l_name);
	s += fn(20000);
	/* The text, not executable for a moment: its VMA splits and merges. */
	protect(m.text, m.text_len, PROT_READ | PROT_WRITE);
	protect(m.text, m.text_len, PROT_READ | PROT_EXEC);
	s += fn(20000);
	if (!m.sframe_in_text) {
		protect(m.sf_pages, m.sf_pages_len, PROT_NONE);
		s += fn(20000);
		protect(m.sf_pages, m.sf_pages_len, PROT_READ);
	}
	s += fn(20000);
	dlclose(h);
	return s;
}

NOINLINE void *dls_churn(void *arg)
{
	int i = (int)(intptr_t)arg;

	while (sft_now() < deadline) {
		sft_sink += dls_round(i);
		rounds[i]++;
	}
	return NULL;
}

/* Maps PATH's first 64 KB (or less) executable and unmaps it in two steps. */
static void map_file(const char *path)
{
	long pg = sysconf(_SC_PAGESIZE);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	off_t size;
	char *p;

	if (fd < 0)
		return;
	size = lseek(fd, 0, SEEK_END);
	if (size > 16 * pg)
		size = 16 * pg;
	size &= ~(pg - 1);
	if (size >= 2 * pg) {
		p = mmap(NULL, size, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED)
			die("mmap file");
		if (munmap(p + pg, pg) || munmap(p, size))
			die("munmap file");
		maps++;
	}
	close(fd);
}

NOINLINE void *dls_mapper(void *arg)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t seed = 0x9e3779b97f4a7c15ull;

	while (sft_now() < deadline) {
		size_t n = 4 + sft_rand(&seed) % 28;
		char *p, *q;

		map_file("/proc/self/exe");
		for (int i = 0; i < 2; i++)
			if (lib_paths[i][0])
				map_file(lib_paths[i]);
		p = mmap(NULL, n * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			die("mmap");
		memset(p, 1, n * pg);
		if (munmap(p + 2 * pg, pg))
			die("munmap");
		q = mremap(p, 2 * pg, 8 * pg, MREMAP_MAYMOVE);
		if (q == MAP_FAILED)
			die("mremap");
		if (munmap(q, 8 * pg) || munmap(p + 3 * pg, (n - 3) * pg))
			die("munmap");
		sft_sink += dls_mid(2000);
	}
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t[5];
	int n = 0;

	deadline = sft_now() + sft_wall_budget(argc, argv);
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[n++], NULL, dls_start, NULL))
			die("pthread_create");
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[n++], NULL, dls_churn, (void *)(intptr_t)i))
			die("pthread_create");
	if (pthread_create(&t[n++], NULL, dls_mapper, NULL))
		die("pthread_create");
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("dlstress: %lu and %lu dlopen rounds, %lu file maps\n", rounds[0], rounds[1], maps);
	return 0;
}
