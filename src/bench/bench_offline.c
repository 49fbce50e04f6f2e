/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * bench_offline.c - the offline half of "sframe-bench unwind": the
 * recorded stack snapshots of fixtures/unwind walked as a profiler walks
 * its samples, with and without a cache (and with --index, a lookup index
 * and a row table); the in-process half is bench_unwind.c.
 */
#include "bench_unwind.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sframe/sframe_unwind.h>

#include "bench_util.h"
#include "target/unwind_target.h"

struct offline {
	struct sf_target t;
	struct sf_sample *samples;
	size_t n;
	uint64_t frames;
	struct sframe_unwind_cache cache;
	struct sframe_cache_entry centries[CACHE_ENTRIES];
	size_t ibytes;			/* its lookup index's size; 0: none */
};

/*
 * The profiler's steady state: every sample walked by sframe_unwind_pcs()
 * with its stack as the window and one cache for the whole program (warm
 * after the first pass). Returns the PCs found, which must equal the
 * frames of the plain walks.
 */
static uint64_t op_offline_cached(void *ctx, uint64_t first, uint64_t count)
{
	struct offline *o = ctx;
	static uint64_t pcs[MAX_TRACE];
	struct sframe_unwinder u;
	struct sframe_regs regs;
	uint64_t acc = 0, k;
	size_t i;
	uint32_t n;

	(void)first;
	for (k = 0; k < count; k++)
		for (i = 0; i < o->n; i++) {
			const struct sf_sample *smp = &o->samples[i];

			sf_target_unwinder(&o->t, smp, 0, &u, &regs);
			u.cache = &o->cache;
			u.stack_data = smp->stack;
			u.stack_addr = smp->stack_addr;
			u.stack_len = smp->stack_len;
			sframe_unwind_pcs(&u, &regs, pcs, MAX_TRACE, &n);
			acc += n;
		}
	return acc;
}

static uint64_t op_offline(void *ctx, uint64_t first, uint64_t count)
{
	struct offline *o = ctx;
	static struct sframe_frame frames[MAX_TRACE];
	uint64_t acc = 0, k;
	size_t i;
	uint32_t n;

	(void)first;
	for (k = 0; k < count; k++)
		for (i = 0; i < o->n; i++) {
			sf_target_unwind(&o->t, &o->samples[i], 0, frames, MAX_TRACE, &n);
			acc += n;
		}
	return acc;
}

/*
 * Heap calls of one pass, then the timing; one line "unwind LABEL
 * fixture=NAME ...", ending index_bytes=N when the section has an index.
 */
static void time_offline(struct offline *o, const char *label, const char *name, bench_op_fn op,
			 double seconds)
{
	struct bench_result res;
	long heap;

	bench_heap_begin();
	op(o, 0, 1);
	heap = bench_heap_end();
	bench_time(op, o, seconds, 5, &res);
	printf("unwind %s fixture=%s samples=%zu frames=%" PRIu64
	       " ns_per_sample=%.1f ns_per_frame=%.2f",
	       label, name, o->n, o->frames, res.min_ns / (double)o->n,
	       res.min_ns / (double)o->frames);
	if (heap >= 0)
		printf(" heap_allocs=%ld", heap);
	if (o->ibytes)
		printf(" index_bytes=%zu", o->ibytes);
	printf("\n");
	fprintf(stderr, "# %s %s: median ns_per_frame=%.2f runs=%u\n", label, name,
		res.median_ns / (double)o->frames, res.runs);
}

/*
 * @t's section with a lookup index, and its modules with a row table (in
 * *@imem and *@rmem, malloc'ed; *@bytes their size). Returns 0 or 1.
 */
static int offline_index(struct sf_target *t, void **imem, void **rmem, size_t *bytes)
{
	const struct sframe_rows *rows;
	uint32_t i;

	if (bench_attach_index(&t->sec, imem, bytes) ||
	    bench_build_rows(&t->sec, &rows, rmem, bytes))
		return 1;
	for (i = 0; i < t->modules.count; i++)
		if (t->modules.slots[i].sec == &t->sec &&
		    sframe_modules_set_rows(&t->modules, t->modules.slots[i].start, rows))
			return 1;
	return 0;
}

int bench_offline_one(const char *dir, const char *name, double seconds, bool index)
{
	void *imem = NULL, *rmem = NULL;
	struct offline o;
	struct sf_snapshot snap;
	char path[4096], err[512];
	size_t cap = 0;
	int r, status = 0;

	memset(&o, 0, sizeof(o));
	if (snprintf(path, sizeof(path), "%s/%s/unwind", dir, name) >= (int)sizeof(path))
		return 1;
	if (sf_target_load(path, NULL, &o.t, err, sizeof(err))) {
		fprintf(stderr, "sframe-bench: %s\n", err);
		return 1;
	}
	if (snprintf(path, sizeof(path), "%s/%s/unwind.snap", dir, name) >= (int)sizeof(path)) {
		sf_target_free(&o.t);
		return 1;
	}
	if (sf_snapshot_open(path, &snap, err, sizeof(err))) {
		fprintf(stderr, "sframe-bench: %s\n", err);
		sf_target_free(&o.t);
		return 1;
	}
	if (index && o.t.has_sframe && offline_index(&o.t, &imem, &rmem, &o.ibytes)) {
		status = 1;
		goto out;
	}
	for (;;) {
		if (o.n == cap) {
			size_t ncap = cap ? cap * 2 : 1024;
			struct sf_sample *ns = realloc(o.samples, ncap * sizeof(*ns));

			if (!ns) {
				fprintf(stderr, "sframe-bench: out of memory\n");
				status = 1;
				goto out;
			}
			o.samples = ns;
			cap = ncap;
		}
		r = sf_snapshot_next(&snap, &o.samples[o.n], err, sizeof(err));
		if (r == 0)
			break;
		if (r < 0) {
			fprintf(stderr, "sframe-bench: %s: %s\n", path, err);
			status = 1;
			goto out;
		}
		o.n++;
	}
	if (o.n == 0) {
		fprintf(stderr, "sframe-bench: %s: no samples\n", path);
		status = 1;
		goto out;
	}
	o.frames = op_offline(&o, 0, 1);
	time_offline(&o, "offline", name, op_offline, seconds);

	if (sframe_unwind_cache_init(&o.cache, o.centries, CACHE_ENTRIES)) {
		status = 1;
		goto out;
	}
	if (op_offline_cached(&o, 0, 1) != o.frames) {
		printf("unwind offline-cached fixture=%s: frames differ from the plain walks\n", name);
		status = 1;
		goto out;
	}
	time_offline(&o, "offline-cached", name, op_offline_cached, seconds);
	fprintf(stderr, "# offline-cached %s: cache hits=%" PRIu64 " misses=%" PRIu64 "\n", name,
		o.cache.hits, o.cache.misses);
out:
	free(imem);
	free(rmem);
	free(o.samples);
	sf_snapshot_close(&snap);
	sf_target_free(&o.t);
	return status;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The snapshot fixtures, DIR/unwind/NAME/unwind.snap: their names, sorted,
 * in @names (malloc'd). An exit status when there are none to measure.
 */
int bench_offline_list(const char *dir, char **names, size_t max, size_t *n)
{
	struct dirent *e;
	DIR *d;

	*n = 0;
	d = opendir(dir);
	if (!d) {
		fprintf(stderr, "sframe-bench: unwind: %s: %s (--fixtures DIR names the source tree's"
			" fixtures folder; --no-offline skips the offline walks)\n", dir,
			strerror(errno));
		return 2;
	}
	while ((e = readdir(d)) && *n < max) {
		char snap[4096 + 300];
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(snap, sizeof(snap), "%s/%s/unwind.snap", dir, e->d_name);
		f = fopen(snap, "rb");
		if (!f)
			continue;
		fclose(f);
		names[*n] = strdup(e->d_name);
		if (names[*n])
			(*n)++;
	}
	closedir(d);
	if (*n == 0) {
		fprintf(stderr, "sframe-bench: unwind: no snapshot fixtures in %s (NAME/unwind.snap)\n",
			dir);
		return 1;
	}
	qsort(names, *n, sizeof(names[0]), cmp_str);
	return 0;
}

