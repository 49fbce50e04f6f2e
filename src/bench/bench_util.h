/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * bench_util.h - what every sframe-bench command shares: a clock, a timing
 * loop that repeats short runs and reports their median, a seeded random
 * generator, counting read callbacks, a heap-allocation counter and the
 * lookup index of lookup --index and unwind --index.
 */
#ifndef SFRAME_TOOL_BENCH_UTIL_H
#define SFRAME_TOOL_BENCH_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sframe/sframe.h>
#include <sframe/sframe_unwind.h>

/* Monotonic time in nanoseconds. */
uint64_t bench_now_ns(void);

/*
 * bench_op_fn - the operation being timed: perform @count operations,
 * starting at the caller's position @first (commands cycle through their
 * inputs). Return something derived from the results so the work cannot be
 * optimised away.
 */
typedef uint64_t (*bench_op_fn)(void *ctx, uint64_t first, uint64_t count);

/**
 * struct bench_result - per-operation times of a series of runs.
 * @median_ns: median over the runs.
 * @min_ns: fastest run.
 * @runs: number of runs.
 * @ops: total operations timed.
 */
struct bench_result {
	double median_ns;
	double min_ns;
	unsigned int runs;
	uint64_t ops;
};

/**
 * bench_time() - time @fn: a warm-up, then runs of about @run_ms each until
 * @seconds have passed (at least 5 runs), each run's cost per operation
 * recorded. The machine may be shared: short runs and their median keep a
 * burst of other work from moving the figure much.
 */
void bench_time(bench_op_fn fn, void *ctx, double seconds, double run_ms,
		struct bench_result *res);

/**
 * bench_time_pair() - time two operations in alternating blocks of runs, so
 * that a burst of other work on the machine falls on both: what a ratio
 * between them needs. Each gets about @seconds / 2.
 */
void bench_time_pair(bench_op_fn fa, void *ca, bench_op_fn fb, void *cb, double seconds,
		     double run_ms, struct bench_result *ra, struct bench_result *rb);

/* xorshift64*: deterministic, so that PC sets can be regenerated. */
struct bench_rng {
	uint64_t s;
};

void bench_rng_seed(struct bench_rng *r, uint64_t seed);
uint64_t bench_rng_next(struct bench_rng *r);
/* Uniform in [0, n); n > 0. */
uint64_t bench_rng_below(struct bench_rng *r, uint64_t n);

/**
 * struct bench_counter - a read callback wrapped to count what the library
 * asks of it: calls and bytes.
 * @inner: the callback that does the reading.
 * @inner_ctx: its context.
 * @reads: calls so far.
 * @bytes: bytes asked for so far.
 */
struct bench_counter {
	sframe_read_fn inner;
	void *inner_ctx;
	uint64_t reads;
	uint64_t bytes;
};

/* sframe_read_fn over a struct bench_counter. */
int bench_counting_read(void *ctx, uint64_t addr, void *dst, size_t len);

/**
 * struct bench_file_reader - the embedder's side of a callback: the section
 * stays in the file's bytes at file offset @base and is copied out on every
 * read, the calls and bytes counted.
 */
struct bench_file_reader {
	const unsigned char *data;
	uint64_t size;
	uint64_t reads;
	uint64_t bytes;
};

/* sframe_read_fn over a struct bench_file_reader; -EFAULT outside it. */
int bench_file_read(void *ctx, uint64_t addr, void *dst, size_t len);

/*
 * Heap allocations (malloc, calloc, realloc) made by the code linked into
 * the benchmark (the library, the tool's loaders, the benchmark's own
 * callbacks; not the C library's internals, not dlopen()ed peers) between
 * bench_heap_begin() and bench_heap_end(), which returns their number; or
 * -1 when the link does not route those calls to the counter.
 */
void bench_heap_begin(void);
long bench_heap_end(void);

/*
 * Read a file of PCs, one hex number per line ("0x" optional, blank lines
 * and lines starting with '#' skipped). Return: 0 with a malloc'ed array,
 * or -1 with a message on stderr.
 */
int bench_read_pcs(const char *path, uint64_t **pcs, size_t *n);

/* Parse a hex number, "0x" optional; false when malformed. */
bool bench_parse_hex(const char *s, uint64_t *out);

/* Parse a positive decimal number of seconds; false when malformed. */
bool bench_parse_seconds(const char *s, double *out);

/*
 * Attach a lookup index of the default block size (sframe_index_build())
 * to @s, in *@mem (malloc'ed: the caller frees it), of *@bytes bytes.
 * Returns 0, or 1 with a message on stderr.
 */
int bench_attach_index(struct sframe_section *s, void **mem, size_t *bytes);

/*
 * Build @s's row table of the default block size (sframe_rows_build()) into
 * *@rows, in *@mem (malloc'ed: the caller frees it), adding its size to
 * *@bytes. Returns 0, or 1 with a message on stderr.
 */
int bench_build_rows(const struct sframe_section *s, const struct sframe_rows **rows, void **mem,
		     size_t *bytes);

#endif /* SFRAME_TOOL_BENCH_UTIL_H */
