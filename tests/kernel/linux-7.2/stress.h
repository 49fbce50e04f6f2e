/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * Shared by the stress programs of run-debug.sh (prog-dlstress.c,
 * prog-forkexec.c, prog-scribble.c): a wall-clock deadline, a small
 * random number generator and the look-up of a loaded module's segments.
 * They run a bounded wall time (argv[last] seconds), not CPU time: under
 * the debug kernel in emulation a second of CPU time is a long wait.
 */
#ifndef SFT_STRESS_H
#define SFT_STRESS_H

#include <link.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "work.h"

#ifndef PT_GNU_SFRAME
#define PT_GNU_SFRAME 0x6474e554
#endif

/* CLOCK_MONOTONIC: there without POSIX timers too. */
static inline double sft_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The seconds to run for: the last argument, or 3. */
static inline double sft_wall_budget(int argc, char **argv)
{
	double s = argc > 1 ? strtod(argv[argc - 1], NULL) : 0;

	return s > 0 ? s : 3.0;
}

/* xorshift64: reproducible from the seed each program prints. */
static inline uint64_t sft_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Where a loaded module lies: its load bias, its PT_GNU_SFRAME and its
 * executable PT_LOAD, page-aligned, as addresses of this process.
 */
struct sft_module {
	uintptr_t bias;
	uintptr_t sframe, sframe_len;	/* the section itself */
	uintptr_t sf_pages, sf_pages_len;	/* the pages that hold it */
	uintptr_t text, text_len;	/* the executable segment's pages */
	int sframe_in_text;		/* a page of both */
	int found;
};

struct sft_find {
	uintptr_t bias;
	int main_program;
	struct sft_module *m;
};

static inline int sft_phdr_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct sft_find *f = arg;
	struct sft_module *m = f->m;
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);

	(void)size;
	/* The main program comes first (its name is ""). */
	if (f->main_program ? info->dlpi_name[0] != '\0' : info->dlpi_addr != f->bias)
		return 0;
	memset(m, 0, sizeof(*m));
	m->bias = info->dlpi_addr;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		uintptr_t a = info->dlpi_addr + p->p_vaddr;

		if (p->p_type == PT_GNU_SFRAME) {
			m->sframe = a;
			m->sframe_len = p->p_memsz;
			m->sf_pages = a & ~(pg - 1);
			m->sf_pages_len = ((a + p->p_memsz + pg - 1) & ~(pg - 1)) - m->sf_pages;
		} else if (p->p_type == PT_LOAD && (p->p_flags & PF_X)) {
			m->text = a & ~(pg - 1);
			m->text_len = ((a + p->p_memsz + pg - 1) & ~(pg - 1)) - m->text;
		}
	}
	m->sframe_in_text = m->sframe && m->text &&
			    m->sf_pages < m->text + m->text_len &&
			    m->text < m->sf_pages + m->sf_pages_len;
	m->found = m->sframe != 0;
	return 1;
}

/* The main program's module (bias ignored) or the one loaded at BIAS. */
static inline int sft_module(struct sft_module *m, int main_program, uintptr_t bias)
{
	struct sft_find f = { bias, main_program, m };

	m->found = 0;
	dl_iterate_phdr(sft_phdr_cb, &f);
	return m->found;
}

#endif
