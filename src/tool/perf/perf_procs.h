/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * perf_procs.h - the processes and threads of a perf recording.
 *
 * Per process the executable mappings (MMAP/MMAP2 records, copied at fork,
 * dropped at exec) become a module table over one set of files shared by
 * all processes; every process has its own row cache, cleared whenever
 * its mappings change.
 */
#ifndef SFRAME_TOOL_PERF_PROCS_H
#define SFRAME_TOOL_PERF_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sframe/sframe_unwind.h>

#include "read/perf_data.h"
#include "read/proc_maps.h"

/**
 * struct sf_perf_proc - one process of the recording.
 * @pid: its id.
 * @maps: its executable mappings, sorted, not overlapping (perms "r-xp").
 * @pm: the module table over @maps, valid when @built.
 * @built: @pm matches @maps.
 * @entries: the row cache's storage (allocated at the first walk).
 * @cache: the row cache.
 */
struct sf_perf_proc {
	uint32_t pid;
	struct sf_maps maps;
	size_t cap;
	struct sf_proc_modules pm;
	bool built;
	struct sframe_cache_entry *entries;
	struct sframe_unwind_cache cache;
};

struct sf_perf_thread {
	uint32_t tid;
	char *comm;
};

/* An open-addressing table from a u32 id to an object; NULL values are empty slots. */
struct sf_perf_idmap {
	uint32_t *keys;
	void **vals;
	size_t cap;
	size_t n;
};

/* Every process and thread of the recording, by id. */
struct sf_perf_procs {
	struct sf_perf_idmap procs;
	struct sf_perf_idmap threads;
};

/* The process or thread of that id, or NULL. */
struct sf_perf_proc *sf_perf_proc_find(const struct sf_perf_procs *ps, uint32_t pid);
struct sf_perf_thread *sf_perf_thread_find(const struct sf_perf_procs *ps, uint32_t tid);

/* The same, made (empty) when it is new; NULL when out of memory. */
struct sf_perf_proc *sf_perf_proc_get(struct sf_perf_procs *ps, uint32_t pid);
struct sf_perf_thread *sf_perf_thread_get(struct sf_perf_procs *ps, uint32_t tid);

/* A thread's new name (a copy of @comm); -ENOMEM. */
int sf_perf_thread_set_comm(struct sf_perf_thread *t, const char *comm);

/*
 * A copy of @nm (its path copied too) into @p's mappings, cutting away
 * what it covers of older ones; -ENOMEM. The module table is rebuilt at
 * the next walk.
 */
int sf_perf_proc_add_map(struct sf_perf_proc *p, const struct sf_map *nm);

/* @dst's mappings become a copy of @src's (fork); -ENOMEM. */
int sf_perf_proc_copy_maps(struct sf_perf_proc *dst, const struct sf_perf_proc *src);

/* Forget @p's mappings and its module table (exec). */
void sf_perf_proc_drop_maps(struct sf_perf_proc *p);

/* Does an MMAP/MMAP2 record map code of a process (not data, not the kernel's)? */
bool sf_perf_mmap_is_code(const struct sf_perf_record *rec, const struct sf_perf_mmap *m);

/*
 * What a decoded record says of the processes: a code mapping (MMAP,
 * MMAP2; others are passed over), a new name (COMM; at exec the mappings
 * go too), a new thread or process (FORK: the parent's name, and a new
 * process's copy of its mappings). Each returns 0 or -ENOMEM.
 */
int sf_perf_procs_mmap(struct sf_perf_procs *ps, const struct sf_perf_record *rec,
		       const struct sf_perf_mmap *m);
int sf_perf_procs_comm(struct sf_perf_procs *ps, const struct sf_perf_record *rec,
		       const struct sf_perf_comm *c);
int sf_perf_procs_fork(struct sf_perf_procs *ps, const struct sf_perf_task *tk);

void sf_perf_procs_free(struct sf_perf_procs *ps);

#endif /* SFRAME_TOOL_PERF_PROCS_H */
