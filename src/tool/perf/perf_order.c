/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * perf_order.c - a perf recording's records in time order, as perf
 * processes them: the file is read in rounds (PERF_RECORD_FINISHED_ROUND),
 * the records of a round are queued and sorted, and a round's records go
 * out once the next round has been read, since the per-CPU buffers are
 * drained one after the other and a record of one round may be older than
 * the last of the round before. Memory then stays proportional to two
 * rounds, not to the file.
 */
#include "perf/perf_order.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The time of a record the session uses; false for the ones it skips. */
static bool record_time(const struct sf_perf_order *q, const struct sf_perf_file *f,
			const struct sf_perf_record *rec, uint64_t *time, char *err, size_t err_size)
{
	union {
		struct sf_perf_sample s;
		struct sf_perf_mmap m;
		struct sf_perf_comm c;
		struct sf_perf_task t;
		struct sf_perf_lost l;
	} u;
	const struct sf_perf_sample_id *sid;
	int r;

	switch (rec->type) {
	case SF_PERF_RECORD_SAMPLE:
		r = sf_perf_decode_sample(f, rec, &u.s, err, err_size);
		sid = &u.s.sid;
		break;
	case SF_PERF_RECORD_MMAP:
	case SF_PERF_RECORD_MMAP2:
		r = sf_perf_decode_mmap(f, rec, &u.m, err, err_size);
		sid = &u.m.sid;
		break;
	case SF_PERF_RECORD_COMM:
		r = sf_perf_decode_comm(f, rec, &u.c, err, err_size);
		sid = &u.c.sid;
		break;
	case SF_PERF_RECORD_FORK:
		r = sf_perf_decode_task(f, rec, &u.t, err, err_size);
		sid = &u.t.sid;
		break;
	case SF_PERF_RECORD_LOST:
		r = sf_perf_decode_lost(f, rec, &u.l, err, err_size);
		sid = &u.l.sid;
		break;
	default:
		return false;
	}
	/* A record that does not decode is reported when its turn comes. */
	*time = r == 0 && (sid->present & SF_PERF_SAMPLE_TIME) ? sid->time : q->round_max;
	return true;
}

static int cmp_queued(const void *a, const void *b)
{
	const struct sf_perf_queued *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int sf_perf_order_flush(struct sf_perf_order *q, uint64_t limit, bool all, sf_perf_record_fn *fn,
			void *ctx)
{
	size_t i, n;
	int r = 0;

	qsort(q->v, q->n, sizeof(*q->v), cmp_queued);
	for (n = 0; n < q->n && (all || q->v[n].time <= limit); n++)
		;
	for (i = 0; i < n && !r; i++)
		r = fn(ctx, &q->v[i].rec);
	memmove(q->v, q->v + n, (q->n - n) * sizeof(*q->v));
	q->n -= n;
	return r;
}

int sf_perf_order_add(struct sf_perf_order *q, const struct sf_perf_file *f,
		      const struct sf_perf_record *rec, char *err, size_t err_size)
{
	uint64_t time;

	if (!record_time(q, f, rec, &time, err, err_size))
		return 0;
	if (q->n == q->cap) {
		size_t nc = q->cap ? q->cap * 2 : 4096;
		struct sf_perf_queued *nq = realloc(q->v, nc * sizeof(*nq));

		if (!nq)
			return -ENOMEM;
		q->v = nq;
		q->cap = nc;
	}
	q->v[q->n].time = time;
	q->v[q->n].seq = q->seq++;
	q->v[q->n].rec = *rec;
	q->n++;
	if (time > q->round_max)
		q->round_max = time;
	return 0;
}

int sf_perf_order_round(struct sf_perf_order *q, sf_perf_record_fn *fn, void *ctx)
{
	int r = sf_perf_order_flush(q, q->flush_limit, false, fn, ctx);

	q->flush_limit = q->round_max;
	return r;
}

void sf_perf_order_free(struct sf_perf_order *q)
{
	free(q->v);
}
