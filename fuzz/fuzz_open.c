/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * fuzz_open.c - sframe_open() and sframe_open_buffer(): the header check.
 *
 * Input: the section bytes. Asserts, for the input and for a set of its
 * prefixes (every truncation of the header), opened at callback address 0
 * and at the very top of the address space:
 *   - the result equals a reference header check written here from the
 *     format description (same error code; on success the same fields);
 *   - on success the FDE array and the FRE area lie inside the section,
 *     in that order, without overlap;
 *   - the one read stays inside the bytes given (fz_read aborts otherwise);
 *   - a failing read's error comes back unchanged;
 *   - a base whose last byte wraps past 2^64 and NULL arguments give INVAL.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sframe/sframe.h>

#include "fuzz_assert.h"
#include "fuzz_input.h"
#include "fuzz_read.h"
#include "fuzz_target.h"

struct ref_hdr {
	int err;
	bool be;
	uint8_t version, flags, abi, auxhdr_len, fde_size;
	int8_t fixed_fp, fixed_ra;
	uint32_t num_fdes, num_fres, fre_len;
	uint64_t fde_start, fre_start;
};

static uint32_t get32(const uint8_t *p, bool be)
{
	if (be)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* The header rules of sframe_open(), from the format description. */
static void ref_open(const uint8_t *d, uint64_t size, struct ref_hdr *h)
{
	static const uint8_t allowed[4] = { 0, 0x3, 0x7, 0x5 };
	static const uint8_t fde_sizes[4] = { 0, 17, 20, 16 };
	uint64_t hdr_end, fde_off, fre_off, fde_end, fre_end, min_fre;

	memset(h, 0, sizeof(*h));
	if (size == 0) {
		h->err = -SFRAME_ERR_EMPTY;
		return;
	}
	if (size < 2) {
		h->err = -SFRAME_ERR_TRUNCATED;
		return;
	}
	if (d[0] == 0xe2 && d[1] == 0xde) {
		h->be = false;
	} else if (d[0] == 0xde && d[1] == 0xe2) {
		h->be = true;
	} else {
		h->err = -SFRAME_ERR_BAD_MAGIC;
		return;
	}
	if (size < 28) {
		h->err = -SFRAME_ERR_TRUNCATED;
		return;
	}
	h->version = d[2];
	h->flags = d[3];
	h->abi = d[4];
	h->fixed_fp = (int8_t)(d[5] > 127 ? (int)d[5] - 256 : (int)d[5]);
	h->fixed_ra = (int8_t)(d[6] > 127 ? (int)d[6] - 256 : (int)d[6]);
	h->auxhdr_len = d[7];
	h->num_fdes = get32(d + 8, h->be);
	h->num_fres = get32(d + 12, h->be);
	h->fre_len = get32(d + 16, h->be);
	fde_off = get32(d + 20, h->be);
	fre_off = get32(d + 24, h->be);
	if (h->version < 1 || h->version > 3) {
		h->err = -SFRAME_ERR_VERSION;
		return;
	}
	if (h->flags & ~allowed[h->version]) {
		h->err = -SFRAME_ERR_FLAGS;
		return;
	}
	if (h->abi < 1 || h->abi > 4 || (h->abi == 4 && h->version == 1)) {
		h->err = -SFRAME_ERR_ABI;
		return;
	}
	h->fde_size = fde_sizes[h->version];
	/* Every quantity is below 2^36: no sum or product below can wrap. */
	hdr_end = 28 + (uint64_t)h->auxhdr_len;
	h->fde_start = hdr_end + fde_off;
	h->fre_start = hdr_end + fre_off;
	fde_end = h->fde_start + (uint64_t)h->num_fdes * h->fde_size;
	fre_end = h->fre_start + h->fre_len;
	min_fre = 2 * (uint64_t)h->num_fres + (h->version == 3 ? 5 * (uint64_t)h->num_fdes : 0);
	if (hdr_end > size || fde_end > size || fre_end > size || fde_off > fre_off ||
	    fde_end > h->fre_start || min_fre > h->fre_len)
		h->err = -SFRAME_ERR_HEADER;
}

static void check_open(const uint8_t *d, uint64_t size, uint64_t base, uint64_t vaddr)
{
	struct sframe_section sec;
	struct ref_hdr h;
	struct fz_mem m;
	int ret;

	ref_open(d, size, &h);
	fz_mem_init(&m, d, size, base);
	memset(&sec, 0x5a, sizeof(sec));
	ret = sframe_open(&sec, fz_read, &m, base, size, vaddr);
	FZ_ASSERT_ERR(ret, h.err);
	/* Constant time: one read at most, of the header only. */
	FZ_ASSERT(m.calls <= 1);
	if (ret)
		return;
	FZ_ASSERT(sec.read == fz_read && sec.read_ctx == &m);
	FZ_ASSERT(sec.base == base && sec.size == size && sec.vaddr == vaddr);
	FZ_ASSERT(sec.big_endian == h.be);
	FZ_ASSERT(sec.version == h.version && sec.flags == h.flags && sec.abi == h.abi);
	FZ_ASSERT(sec.fixed_fp == h.fixed_fp && sec.fixed_ra == h.fixed_ra);
	FZ_ASSERT(sec.auxhdr_len == h.auxhdr_len && sec.fde_size == h.fde_size);
	FZ_ASSERT(sec.num_fdes == h.num_fdes && sec.num_fres == h.num_fres);
	FZ_ASSERT(sec.fre_len == h.fre_len);
	FZ_ASSERT(sec.fde_start == h.fde_start && sec.fre_start == h.fre_start);
	/* What every later read relies on. */
	FZ_ASSERT(sec.fde_start >= 28);
	FZ_ASSERT(sec.fde_start + (uint64_t)sec.num_fdes * sec.fde_size <= sec.fre_start);
	FZ_ASSERT(sec.fre_start + sec.fre_len <= sec.size);

	/* The same read failing: its error, unchanged. */
	fz_mem_init(&m, d, size, base);
	m.fail_at = 1;
	FZ_ASSERT_ERR(sframe_open(&sec, fz_read, &m, base, size, vaddr), FZ_INJECTED);
	m.fail_at = 1;
	m.calls = 0;
	m.fail_err = -SFRAME_ERR_READ;
	FZ_ASSERT_ERR(sframe_open(&sec, fz_read, &m, base, size, vaddr), -SFRAME_ERR_READ);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sframe_section sec;
	struct sframe_buffer buf;
	struct ref_hdr h;
	struct fz_mem m;
	uint8_t *d = fz_dup(data, size);
	uint64_t vaddr = size >= 8 ? (uint64_t)data[size - 1] << 40 | 0x400000 : 0;
	size_t len;

	/* The whole input, at 0 and with its last byte at 2^64 - 1. */
	check_open(d, size, 0, vaddr);
	if (size)
		check_open(d, size, UINT64_MAX - (size - 1), vaddr);
	/* Every truncation of the header, and a few past it. */
	for (len = 0; len < size && len <= 40; len++)
		check_open(d, len, 0x1000, vaddr);
	if (size > 1) {
		check_open(d, size - 1, 0x1000, vaddr);
		check_open(d, size / 2, 0x1000, vaddr);
	}

	/* sframe_open_buffer() agrees with sframe_open(). */
	ref_open(d, size, &h);
	FZ_ASSERT_ERR(sframe_open_buffer(&sec, &buf, d, size, vaddr), h.err);

	/* Arguments. */
	fz_mem_init(&m, d, size, 0);
	FZ_ASSERT_ERR(sframe_open(NULL, fz_read, &m, 0, size, 0), -SFRAME_ERR_INVAL);
	FZ_ASSERT_ERR(sframe_open(&sec, NULL, &m, 0, size, 0), -SFRAME_ERR_INVAL);
	if (size >= 2) {
		/* base + size - 1 wraps past 2^64. */
		FZ_ASSERT_ERR(sframe_open(&sec, fz_read, &m, UINT64_MAX - (size - 2), size, 0),
			      -SFRAME_ERR_INVAL);
	}
	FZ_ASSERT(m.calls == 0);
	free(d);
	return 0;
}
