/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * ref_decoder.h - the reference: a slow, independent decoder of a section's
 * raw bytes, written from the format description alone, that the targets
 * compare the library's decoding with.
 */
#ifndef SFRAME_FUZZ_REF_DECODER_H
#define SFRAME_FUZZ_REF_DECODER_H

#include <stdbool.h>
#include <stdint.h>

#include <sframe/sframe.h>

/* Two's-complement reinterpretation without implementation-defined casts. */
int64_t fz_s64(uint64_t v);
/* The low @bytes bytes of @v, sign-extended. */
int32_t fz_sext(uint32_t v, unsigned int bytes);

/* Bytes of a section as the targets keep them: the buffer and its header. */
struct fz_sec {
	const uint8_t *b;
	uint64_t size;
	const struct sframe_section *sec;	/* opened over the same bytes */
};

struct fz_fde {
	bool ok;		/* every byte of it was inside the section */
	int64_t offset;		/* function start relative to the section */
	uint64_t start;		/* vaddr + offset, modulo 2^64 */
	uint32_t size;
	uint32_t num_fres;
	uint8_t info, info2, rep;
	uint64_t fres_off;	/* section offset of its first FRE */
	int64_t field;
	uint64_t field_off;
};

/* Decode FDE @i from the raw bytes, by the format description alone. */
void fz_ref_fde(const struct fz_sec *s, uint32_t i, struct fz_fde *f);

struct fz_fre {
	bool ok;
	uint32_t start;
	uint8_t info;
	unsigned int n, wb, size;
	int32_t words[15];
	uint32_t uwords[15];
};

/* Decode the FRE at section offset @off with start width of @fre_type (0..2). */
void fz_ref_fre(const struct fz_sec *s, unsigned int fre_type, uint64_t off, uint64_t end,
		struct fz_fre *r);

/* The library's FRE equals the reference's. */
void fz_assert_fre_eq(const struct sframe_fre *got, const struct fz_fre *want);

#endif /* SFRAME_FUZZ_REF_DECODER_H */
