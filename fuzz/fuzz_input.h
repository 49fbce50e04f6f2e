/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * fuzz_input.h - splitting the fuzzer's bytes into the fields of a target's
 * input, and copies that ASan watches.
 */
#ifndef SFRAME_FUZZ_INPUT_H
#define SFRAME_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct fz_in {
	const uint8_t *p;
	size_t n;
};

/* Little-endian integer of @bytes bytes; missing bytes read as 0. */
uint64_t fz_uint(struct fz_in *in, unsigned int bytes);

/* Up to @max bytes; *@len says how many. */
const uint8_t *fz_take(struct fz_in *in, size_t max, size_t *len);

/* An exactly-sized heap copy, so that ASan sees any access past its end. */
uint8_t *fz_dup(const uint8_t *p, size_t n);

#endif /* SFRAME_FUZZ_INPUT_H */
