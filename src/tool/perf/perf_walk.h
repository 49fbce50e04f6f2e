/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * perf_walk.h - the user stacks of a perf recording's samples.
 */
#ifndef SFRAME_TOOL_PERF_WALK_H
#define SFRAME_TOOL_PERF_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sframe/sframe_unwind.h>

#include "perf/buildid_cache.h"
#include "perf/perf_procs.h"
#include "read/perf_data.h"
#include "target/unwind_target.h"

/**
 * struct sf_perf_walker - what every walk of a recording shares.
 * @set: the files of every process, each loaded once.
 * @files: where they are read.
 * @arch: the recording's ARCH feature (uname -m), or NULL.
 * @machine: ELF e_machine of the recorded processes, 0 until known.
 * @flags: SFRAME_UNWIND_* of every walk.
 * @max_stack: the frames a walk gives at the most.
 * @frames: @max_stack of them, the last walk's.
 * @unwind_ns: the time spent in the unwinder.
 * @err: where the loading of a process's modules says why it failed.
 * @err_size: its size.
 */
struct sf_perf_walker {
	struct sf_image_set set;
	struct sf_perf_files *files;
	const char *arch;
	uint16_t machine;
	uint32_t flags;
	uint32_t max_stack;
	struct sframe_frame *frames;
	uint64_t unwind_ns;
	char *err;
	size_t err_size;
};

/* One sample's walk: @n frames into the walker's, ended by @r. */
struct sf_perf_user_walk {
	uint32_t n;
	int r;
	struct sf_sample smp;
	bool have_regs;
	char why[256];	/* why there was no walk, when the sample has user registers */
};

/* @p's module table, built from its mappings if they changed; 0 or -ENOMEM. */
int sf_perf_proc_build(struct sf_perf_walker *wk, struct sf_perf_proc *p);

/*
 * Walk the user stack of @s, a sample of @p, into @wk's frames; @w says
 * how it went (no walk: why, when the sample has user registers). 0, or
 * -ENOMEM.
 */
int sf_perf_walk_user(struct sf_perf_walker *wk, struct sf_perf_proc *p, const struct sf_perf_sample *s,
		      struct sf_perf_user_walk *w);

#endif /* SFRAME_TOOL_PERF_WALK_H */
