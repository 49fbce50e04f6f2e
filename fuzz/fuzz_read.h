/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * fuzz_read.h - a read callback over the bytes a target was given, that
 * abort()s on any read outside them and fails the k-th read on request.
 */
#ifndef SFRAME_FUZZ_READ_H
#define SFRAME_FUZZ_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A distinctive error for injected read failures; never a library code. */
#define FZ_INJECTED (-77)

/* What fz_read() returns for a legitimate read outside the bytes (@oob_ok). */
#define FZ_EFAULT (-14)

/*
 * struct fz_mem - @size bytes at callback address @base. A read outside
 * them, of length 0 or of more than SFRAME_MAX_READ bytes is a library bug:
 * abort(). Counts reads; the @fail_at-th (1-based, 0 = never) fails with
 * @fail_err. @shared_count, when set, is a counter shared by several
 * callbacks (section and stack reads of an unwind count as one sequence).
 */
struct fz_mem {
	const uint8_t *data;
	uint64_t base;
	uint64_t size;
	unsigned long calls;
	unsigned long fail_at;
	int fail_err;
	bool failed;		/* the injected failure happened */
	bool len8;		/* every read must be 8 bytes (stack reads) */
	bool oob_ok;		/* out-of-range reads are legitimate: return -EFAULT */
	unsigned long *shared_count;
	unsigned long *shared_fail_at;
};

/* The read callback; @ctx is a struct fz_mem. */
int fz_read(void *ctx, uint64_t addr, void *dst, size_t len);

/* @size bytes of @data at address @base, no read failing, fail_err FZ_INJECTED. */
void fz_mem_init(struct fz_mem *m, const uint8_t *data, uint64_t size, uint64_t base);

#endif /* SFRAME_FUZZ_READ_H */
