/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * bench_util.c - clock, timing loop, random numbers, counting readers, the
 * lookup index.
 */
#include "bench_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Results are folded into this so that no timed call can be dropped. */
static volatile uint64_t bench_sink;

#define MAX_RUNS 4096
#define PAIR_ROUNDS 4

static void summarize(double *per_op, unsigned int runs, uint64_t ops, struct bench_result *res)
{
	qsort(per_op, runs, sizeof(per_op[0]), cmp_double);
	res->runs = runs;
	res->ops = ops;
	res->min_ns = per_op[0];
	res->median_ns = runs % 2 ? per_op[runs / 2] : (per_op[runs / 2 - 1] + per_op[runs / 2]) / 2;
}

/* One run of @batch operations; its cost per operation. */
__attribute__((noinline)) static double one_run(bench_op_fn fn, void *ctx, uint64_t batch, uint64_t *pos, uint64_t *acc)
{
	uint64_t t0 = bench_now_ns(), t1;

	*acc += fn(ctx, *pos, batch);
	t1 = bench_now_ns();
	*pos += batch;
	return (double)(t1 - t0) / (double)batch;
}

/*
 * Warm up, and find how many operations take about @run_ms. Through
 * one_run() like the timed runs: some operations (stack walks) depend on
 * the depth they are called at.
 */
static uint64_t calibrate(bench_op_fn fn, void *ctx, double run_ms, uint64_t *pos, uint64_t *acc)
{
	uint64_t batch = 1;
	double ns;

	/* A first call may fill caches (DWARF unwinders parse tables): not timed. */
	one_run(fn, ctx, 1, pos, acc);
	for (;;) {
		ns = one_run(fn, ctx, batch, pos, acc) * (double)batch;
		if (ns >= run_ms * 1e6 / 4 || batch >= (UINT64_C(1) << 40))
			break;
		batch *= 2;
	}
	if (ns > 0 && run_ms * 1e6 / ns > 1)
		batch = (uint64_t)((double)batch * (run_ms * 1e6 / ns));
	return batch ? batch : 1;
}

void bench_time(bench_op_fn fn, void *ctx, double seconds, double run_ms,
		struct bench_result *res)
{
	static double per_op[MAX_RUNS];
	uint64_t pos = 0, acc = 0, batch, start, budget;
	unsigned int runs = 0;

	batch = calibrate(fn, ctx, run_ms, &pos, &acc);
	start = bench_now_ns();
	budget = (uint64_t)(seconds * 1e9);
	do
		per_op[runs++] = one_run(fn, ctx, batch, &pos, &acc);
	while (runs < MAX_RUNS && (runs < 5 || bench_now_ns() - start < budget));
	summarize(per_op, runs, runs * batch, res);
	bench_sink += acc;
}

void bench_time_pair(bench_op_fn fa, void *ca, bench_op_fn fb, void *cb, double seconds,
		     double run_ms, struct bench_result *ra, struct bench_result *rb)
{
	static double pa[MAX_RUNS], pb[MAX_RUNS];
	bench_op_fn fn[2] = { fa, fb };
	void *ctx[2] = { ca, cb };
	double *per[2] = { pa, pb };
	uint64_t pos[2] = { 0, 0 }, batch[2], acc = 0, block;
	unsigned int runs[2] = { 0, 0 }, round, side;

	batch[0] = calibrate(fa, ca, run_ms, &pos[0], &acc);
	batch[1] = calibrate(fb, cb, run_ms, &pos[1], &acc);
	/*
	 * Blocks of runs, A B A B ...: each block starts with a run that is
	 * not counted, so that neither side is timed on caches the other one
	 * just filled with its own data.
	 */
	block = (uint64_t)(seconds * 1e9 / (2 * PAIR_ROUNDS));
	for (round = 0; round < PAIR_ROUNDS; round++) {
		for (side = 0; side < 2; side++) {
			uint64_t start;
			unsigned int n = 0;

			one_run(fn[side], ctx[side], batch[side], &pos[side], &acc);
			start = bench_now_ns();
			while (runs[side] < MAX_RUNS && (n < 3 || bench_now_ns() - start < block)) {
				per[side][runs[side]++] = one_run(fn[side], ctx[side], batch[side],
								  &pos[side], &acc);
				n++;
			}
		}
	}
	summarize(pa, runs[0], runs[0] * batch[0], ra);
	summarize(pb, runs[1], runs[1] * batch[1], rb);
	bench_sink += acc;
}

void bench_rng_seed(struct bench_rng *r, uint64_t seed)
{
	r->s = seed ? seed : UINT64_C(0x9e3779b97f4a7c15);
}

uint64_t bench_rng_next(struct bench_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * UINT64_C(0x2545f4914f6cdd1d);
}

uint64_t bench_rng_below(struct bench_rng *r, uint64_t n)
{
	/* The bias of a plain modulo is far below anything measured here. */
	return bench_rng_next(r) % n;
}

int bench_counting_read(void *ctx, uint64_t addr, void *dst, size_t len)
{
	struct bench_counter *c = ctx;

	c->reads++;
	c->bytes += len;
	return c->inner(c->inner_ctx, addr, dst, len);
}

int bench_file_read(void *ctx, uint64_t addr, void *dst, size_t len)
{
	struct bench_file_reader *r = ctx;

	if (addr > r->size || len > r->size - addr)
		return -EFAULT;
	memcpy(dst, r->data + addr, len);
	r->reads++;
	r->bytes += len;
	return 0;
}

bool bench_parse_hex(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	bool any = false;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s; s++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned int)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned int)(*s - 'a' + 10);
		else if (*s >= 'A' && *s <= 'F')
			d = (unsigned int)(*s - 'A' + 10);
		else
			return false;
		if (v >> 60)
			return false;
		v = v << 4 | d;
		any = true;
	}
	*out = v;
	return any;
}

bool bench_parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > 3600)
		return false;
	*out = v;
	return true;
}

int bench_read_pcs(const char *path, uint64_t **pcs, size_t *n)
{
	FILE *f = fopen(path, "r");
	char line[256];
	uint64_t *v = NULL;
	size_t len = 0, cap = 0;
	unsigned long lineno = 0;

	if (!f) {
		fprintf(stderr, "sframe-bench: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *s = line, *e;
		uint64_t pc;

		lineno++;
		while (*s == ' ' || *s == '\t')
			s++;
		e = s + strlen(s);
		while (e > s && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
			*--e = 0;
		if (*s == 0 || *s == '#')
			continue;
		if (!bench_parse_hex(s, &pc)) {
			fprintf(stderr, "sframe-bench: %s:%lu: not a hex PC: '%s'\n", path, lineno, s);
			goto fail;
		}
		if (len == cap) {
			size_t ncap = cap ? cap * 2 : 1024;
			uint64_t *nv = realloc(v, ncap * sizeof(*v));

			if (!nv) {
				fprintf(stderr, "sframe-bench: out of memory\n");
				goto fail;
			}
			v = nv;
			cap = ncap;
		}
		v[len++] = pc;
	}
	if (ferror(f)) {
		fprintf(stderr, "sframe-bench: %s: read error\n", path);
		goto fail;
	}
	fclose(f);
	if (len == 0) {
		fprintf(stderr, "sframe-bench: %s: no PCs\n", path);
		free(v);
		return -1;
	}
	*pcs = v;
	*n = len;
	return 0;
fail:
	fclose(f);
	free(v);
	return -1;
}

int bench_attach_index(struct sframe_section *s, void **mem, size_t *bytes)
{
	uint64_t t0;
	int r;

	r = sframe_index_size(s, SFRAME_INDEX_AUTO, bytes);
	if (!r) {
		*mem = malloc(*bytes);
		if (!*mem)
			r = -ENOMEM;
	}
	if (r) {
		fprintf(stderr, "sframe-bench: cannot index the section: %s\n",
			r == -ENOMEM ? strerror(ENOMEM) : sframe_strerror(r));
		return 1;
	}
	t0 = bench_now_ns();
	r = sframe_index_build(s, SFRAME_INDEX_AUTO, *mem, *bytes);
	if (r) {
		fprintf(stderr, "sframe-bench: cannot index the section: %s\n", sframe_strerror(r));
		return 1;
	}
	fprintf(stderr, "# index: %u blocks of %llu bytes, built in %llu ns\n", s->index->blocks,
		1ull << s->index->bits, (unsigned long long)(bench_now_ns() - t0));
	return 0;
}

int bench_build_rows(const struct sframe_section *s, const struct sframe_rows **rows, void **mem,
		     size_t *bytes)
{
	uint64_t t0;
	size_t size;
	int r;

	r = sframe_rows_size(s, SFRAME_ROWS_AUTO, &size);
	if (!r) {
		*mem = malloc(size);
		if (!*mem)
			r = -ENOMEM;
	}
	if (r) {
		fprintf(stderr, "sframe-bench: no row table for the section: %s\n",
			r == -ENOMEM ? strerror(ENOMEM) : sframe_strerror(r));
		return 1;
	}
	t0 = bench_now_ns();
	r = sframe_rows_build(s, SFRAME_ROWS_AUTO, *mem, size, rows);
	if (r) {
		fprintf(stderr, "sframe-bench: no row table for the section: %s\n",
			sframe_strerror(r));
		return 1;
	}
	*bytes += size;
	fprintf(stderr, "# row table: %zu bytes, built in %llu ns\n", size,
		(unsigned long long)(bench_now_ns() - t0));
	return 0;
}
