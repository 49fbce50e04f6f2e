/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * perf_order.h - a perf recording's records in time order (the
 * round-ordered queue perf uses).
 */
#ifndef SFRAME_TOOL_PERF_ORDER_H
#define SFRAME_TOOL_PERF_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/perf_data.h"

/* A record waiting for its turn. */
struct sf_perf_queued {
	uint64_t time;
	uint64_t seq;
	struct sf_perf_record rec;
};

/* The queue; zeroed to start. */
struct sf_perf_order {
	struct sf_perf_queued *v;
	size_t n;
	size_t cap;
	uint64_t seq;
	uint64_t round_max;	/* greatest time queued so far */
	uint64_t flush_limit;	/* at the next round, records up to this time go out */
};

/* What a record's turn calls; nonzero stops the flush and is returned. */
typedef int sf_perf_record_fn(void *ctx, const struct sf_perf_record *rec);

/*
 * Queue @rec (of @f) if it is a record the session uses; one that does not
 * decode goes with the latest time, to be reported at its turn. -ENOMEM.
 */
int sf_perf_order_add(struct sf_perf_order *q, const struct sf_perf_file *f,
		      const struct sf_perf_record *rec, char *err, size_t err_size);

/* A round ended (PERF_RECORD_FINISHED_ROUND): the records of the one before go to @fn. */
int sf_perf_order_round(struct sf_perf_order *q, sf_perf_record_fn *fn, void *ctx);

/* The queued records up to @limit (all of them with @all) to @fn, in time order. */
int sf_perf_order_flush(struct sf_perf_order *q, uint64_t limit, bool all, sf_perf_record_fn *fn,
			void *ctx);

void sf_perf_order_free(struct sf_perf_order *q);

#endif /* SFRAME_TOOL_PERF_ORDER_H */
