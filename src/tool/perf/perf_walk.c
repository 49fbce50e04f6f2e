/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * perf_walk.c - the user stacks of a perf recording's samples, unwound with
 * the SFrame sections of the files their processes had mapped.
 */
#include "perf/perf_walk.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "target/perf_regs.h"

#define CACHE_ENTRIES 1024	/* rows remembered per process: 32 KiB */

/*
 * The recorded machine, decided once: from the recording's ARCH feature
 * (uname -m of the machine it was made on), else from the first mapped
 * file that is an ELF file with a machine the unwinder knows.
 */
static void find_machine(struct sf_perf_walker *wk, const struct sf_perf_proc *p)
{
	size_t i;

	if (wk->arch)
		wk->machine = sf_perf_arch_machine(wk->arch);
	for (i = 0; i < p->maps.n && !wk->machine; i++) {
		uint16_t m = sf_perf_file_machine(wk->files, p->maps.v[i].path);

		if (sf_machine_abi(m, 0))
			wk->machine = m;
	}
	if (wk->machine)
		wk->set.abi = sf_machine_abi(wk->machine, 0);
}

int sf_perf_proc_build(struct sf_perf_walker *wk, struct sf_perf_proc *p)
{
	if (p->built)
		return 0;
	if (!wk->machine)
		find_machine(wk, p);
	if (sf_proc_modules_build_in(&wk->set, &p->maps, sf_perf_load_recorded_file, wk->files,
				     &p->pm, wk->err, wk->err_size)) {
		sf_proc_modules_free(&p->pm);
		return -ENOMEM;
	}
	p->built = true;
	if (p->entries)
		sframe_unwind_cache_clear(&p->cache);
	return 0;
}

/* Walk the user stack of @s; 0, or -ENOMEM. */
int sf_perf_walk_user(struct sf_perf_walker *wk, struct sf_perf_proc *p, const struct sf_perf_sample *s,
		      struct sf_perf_user_walk *w)
{
	struct sframe_unwinder u;
	struct sframe_regs regs;
	struct timespec t0, t1;
	int r;

	w->n = 0;
	w->r = 0;
	w->have_regs = false;
	w->why[0] = '\0';
	/* A kernel thread's sample, or an event without user registers. */
	if (s->regs_abi == SF_PERF_REGS_ABI_NONE || !s->nregs)
		return 0;
	if (sf_perf_proc_build(wk, p))
		return -ENOMEM;
	if (!wk->machine) {
		snprintf(w->why, sizeof(w->why), "the recorded machine is not known (no ARCH "
			 "feature, and no mapped file could be read)");
		return 0;
	}
	r = sf_perf_regs_sample(wk->machine, s->attr->sample_regs_user, s, &w->smp, w->why,
				sizeof(w->why));
	if (r == SF_PERF_REGS_ENONE)
		w->why[0] = '\0';
	if (r)
		return 0;
	w->have_regs = true;
	if (!p->entries) {
		p->entries = calloc(CACHE_ENTRIES, sizeof(*p->entries));
		if (p->entries)
			sframe_unwind_cache_init(&p->cache, p->entries, CACHE_ENTRIES);
	}
	memset(&u, 0, sizeof(u));
	u.abi = wk->set.abi;
	u.flags = wk->flags;
	u.max_depth = wk->max_stack + 1;	/* the array's end stops the walk first */
	u.modules = &p->pm.table;
	u.get_reg = sf_sample_get_reg;
	u.reg_ctx = &w->smp;
	u.stack_data = w->smp.stack;
	u.stack_addr = w->smp.stack_addr;
	u.stack_len = w->smp.stack_len;
	u.cache = p->entries ? &p->cache : NULL;
	sf_sample_regs(u.abi, &w->smp, &regs);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	w->r = sframe_unwind_stack(&u, &regs, wk->frames, wk->max_stack, &w->n);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	wk->unwind_ns += (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u +
			  (uint64_t)t1.tv_nsec - (uint64_t)t0.tv_nsec;
	return 0;
}
