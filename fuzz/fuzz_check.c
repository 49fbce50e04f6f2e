/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * fuzz_check.c - sframe_check(): full validation.
 *
 * Input: the section bytes. Asserts:
 *   - every read stays inside the section (fz_read aborts otherwise);
 *   - the result is 0 or a corrupt-section code, the same with and without
 *     @where, the same when called again; @where names the header, an FDE
 *     that exists, or an FRE of it;
 *   - the verdict and @where equal a reference validation written here on
 *     top of the per-entry API (sframe_get_fde(), the FRE iterator,
 *     sframe_fre_rules()) and the contract of sframe_check();
 *   - if the section is accepted, every lookup (around every function and
 *     row, in the gaps, at PCs from the input's tail) returns a row or "no
 *     row", never an error, and exactly what the reference lookup says; the
 *     same with the sorted flag cleared (linear instead of binary search);
 *   - the k-th read failing makes sframe_check() return that error unchanged;
 *   - sframe_part_size() finds the same parts as the bytes say (zero
 *     padding, then a magic at a multiple of 8), each part opened over its
 *     extent is checked as a section of its own, and the walk over the
 *     parts ends.
 * In the assume-mask build (FZ_ASSUME) the lookups run on accepted sections
 * only, where the results must be the same as without the mask.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sframe/sframe.h>

#include "fuzz_assert.h"
#include "fuzz_errors.h"
#include "fuzz_input.h"
#include "fuzz_read.h"
#include "fuzz_target.h"
#include "ref_decoder.h"
#include "ref_lookup.h"

#define MAX_PCS 512

/*
 * What follows the FRE area, from the raw bytes: nothing but zeros, or
 * zeros and then another section's magic at a multiple of 8 (its offset in
 * *@next), or anything else.
 */
static int ref_tail(const uint8_t *d, uint64_t size, uint64_t end, uint64_t *next)
{
	uint64_t off = end;

	*next = size;
	while (off < size && d[off] == 0)
		off++;
	if (off == size)
		return 0;
	if (off % 8 != 0 || size - off < 2)
		return -SFRAME_ERR_TRAILING;
	if (!(d[off] == 0xe2 && d[off + 1] == 0xde) && !(d[off] == 0xde && d[off + 1] == 0xe2))
		return -SFRAME_ERR_TRAILING;
	*next = off;
	return 0;
}

/* sframe_check()'s contract, step by step, through the per-entry API. */
static int ref_check(const uint8_t *d, const struct sframe_section *sec,
		     struct sframe_problem *where)
{
	struct sframe_fde fde;
	struct sframe_fre_iter it;
	struct sframe_fre fre;
	struct sframe_rules rules;
	uint64_t total = 0, limit, next;
	int64_t prev_start = 0;
	uint32_t prev_size = 0, i, j, prev_fre = 0;
	int ret;

	where->fde = where->fre = SFRAME_NO_INDEX;
	for (i = 0; i < sec->num_fdes; i++) {
		where->fde = i;
		where->fre = SFRAME_NO_INDEX;
		ret = sframe_get_fde(sec, i, &fde);
		if (ret)
			return ret;
		if ((sec->flags & SFRAME_F_FDE_SORTED) && i > 0) {
			/* Ascending starts, and no function reaching into the next. */
			if (fde.func_offset < prev_start)
				return -SFRAME_ERR_FDE_ORDER;
			if ((uint64_t)fde.func_offset - (uint64_t)prev_start < prev_size)
				return -SFRAME_ERR_FDE_ORDER;
		}
		prev_start = fde.func_offset;
		prev_size = fde.func_size;
		limit = fde.func_size;
		if (fde.pc_type == SFRAME_PC_TYPE_MASK) {
			if (sec->version == SFRAME_VERSION_1) {
				if (sec->abi != SFRAME_ABI_AMD64_LE)
					return -SFRAME_ERR_UNSUPPORTED;
				limit = 16;
			} else {
				if (fde.rep_size == 0)
					return -SFRAME_ERR_REP_SIZE;
				limit = fde.rep_size;
			}
		}
		FZ_ASSERT_ERR(sframe_fre_iter_init(sec, &fde, &it), 0);
		for (j = 0; j < fde.num_fres; j++) {
			where->fre = j;
			ret = sframe_fre_iter_next(sec, &it, &fre);
			if (ret < 0)
				return ret;
			FZ_ASSERT_ERR(ret, 1);
			if (j > 0 && fre.start <= prev_fre)
				return -SFRAME_ERR_FRE;
			if (fre.start > limit)
				return -SFRAME_ERR_FRE;
			prev_fre = fre.start;
			ret = sframe_fre_rules(sec, &fde, &fre, &rules);
			if (ret)
				return ret;
		}
		total += fde.num_fres;
	}
	where->fde = where->fre = SFRAME_NO_INDEX;
	if (total != sec->num_fres)
		return -SFRAME_ERR_FRE_COUNT;
	ret = ref_tail(d, sec->size, sec->fre_start + sec->fre_len, &next);
	if (ret == 0 && next < sec->size)
		ret = -SFRAME_ERR_CONCAT;
	return ret;
}

/*
 * Every part of the input as sframe_part_size() documents the walk: each
 * extent as the raw bytes say, at least a header long; each part opened
 * over its extent checks as it would alone; the k-th read failing gives
 * its error back.
 */
static void parts(const uint8_t *d, uint64_t size)
{
	struct sframe_section sec, part;
	struct sframe_problem where;
	struct fz_mem m;
	uint64_t off, len, next;
	unsigned long nparts = 0, reads;
	int ret, ref;

	fz_mem_init(&m, d, size, 0x2000);
	for (off = 0; off < size; off += len) {
		if (sframe_open(&sec, fz_read, &m, 0x2000 + off, size - off, 0x400000 + off))
			return;
		m.calls = 0;
		ret = sframe_part_size(&sec, &len);
		reads = m.calls;
		ref = ref_tail(d + off, size - off, sec.fre_start + sec.fre_len, &next);
		FZ_ASSERT_ERR(ret, ref);
		if (ret)
			return;
		FZ_ASSERT(len == next && len >= 28 && len <= size - off);
		if (reads) {
			m.calls = 0;
			m.fail_at = 1 + (unsigned long)(d[off + 2] ^ size) % reads;
			FZ_ASSERT_ERR(sframe_part_size(&sec, &next), FZ_INJECTED);
			m.fail_at = 0;
		}
		FZ_ASSERT(++nparts <= size / 28);
		FZ_ASSERT_ERR(sframe_open(&part, fz_read, &m, 0x2000 + off, len, 0x400000 + off), 0);
		FZ_ASSERT_ERR(sframe_part_size(&part, &next), 0);
		FZ_ASSERT(next == len);
		ret = sframe_check(&part, &where);
		FZ_ASSERT(ret != -SFRAME_ERR_CONCAT && ret != -SFRAME_ERR_TRAILING);
		FZ_ASSERT_ERR(ret, ref_check(d + off, &part, &where));
	}
	FZ_ASSERT(off == size);
}

/* Every interesting PC and the input's own PCs against the reference. */
static void lookups(const uint8_t *d, uint64_t size, const struct sframe_section *sec,
		    const uint64_t *extra, size_t nextra)
{
	static uint64_t pcs[MAX_PCS];
	struct fz_ref r;
	size_t n, i;

	if (sec->num_fdes > FZ_MAX_FDES)
		return;
	fz_ref_init(&r, d, size, sec);
	n = fz_interesting_pcs(&r, pcs, 0, MAX_PCS);
	for (i = 0; i < nextra && n < MAX_PCS; i++)
		pcs[n++] = extra[i];
	for (i = 0; i < n; i++)
		fz_lookup_vs_ref(&r, sec, pcs[i]);
	fz_ref_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sframe_section sec, sec2;
	struct sframe_problem where, rwhere;
	struct fz_mem m, m2;
	uint8_t *d = fz_dup(data, size), *d2;
	uint64_t extra[8];
	unsigned long reads;
	size_t nextra = 0, i;
	int ret, ref;

	parts(d, size);
	fz_mem_init(&m, d, size, 0x2000);
	if (sframe_open(&sec, fz_read, &m, 0x2000, size, 0x7f0000001000)) {
		free(d);
		return 0;
	}
	m.calls = 0;
	memset(&where, 0x5a, sizeof(where));
	ret = sframe_check(&sec, &where);
	reads = m.calls;
	FZ_ASSERT(ret == 0 || fz_section_err(ret));
	FZ_ASSERT(ret != -SFRAME_ERR_BAD_MAGIC && ret != -SFRAME_ERR_VERSION &&
		  ret != -SFRAME_ERR_ABI && ret != -SFRAME_ERR_TRUNCATED &&
		  ret != -SFRAME_ERR_FLAGS && ret != -SFRAME_ERR_HEADER);
	FZ_ASSERT_ERR(sframe_check(&sec, NULL), ret);
	if (ret == 0) {
		FZ_ASSERT(where.fde == SFRAME_NO_INDEX && where.fre == SFRAME_NO_INDEX);
	} else if (where.fde == SFRAME_NO_INDEX) {
		FZ_ASSERT(where.fre == SFRAME_NO_INDEX);
		FZ_ASSERT(ret == -SFRAME_ERR_FRE_COUNT || ret == -SFRAME_ERR_TRAILING ||
			  ret == -SFRAME_ERR_CONCAT);
	} else {
		struct sframe_fde fde;

		FZ_ASSERT(where.fde < sec.num_fdes);
		if (where.fre != SFRAME_NO_INDEX && sframe_get_fde(&sec, where.fde, &fde) == 0)
			FZ_ASSERT(where.fre < fde.num_fres);
	}

	/* The reference's verdict, at the same place. */
	ref = ref_check(d, &sec, &rwhere);
	FZ_ASSERT_ERR(ret, ref);
	if (ret) {
		FZ_ASSERT(where.fde == rwhere.fde);
		FZ_ASSERT(where.fre == rwhere.fre);
	}

	/* Any failing read: its error, unchanged. */
	if (reads) {
		m.calls = 0;
		m.fail_at = 1 + (size > 2 ? (data[2] | (unsigned long)data[size - 2] << 8) : 0) % reads;
		FZ_ASSERT_ERR(sframe_check(&sec, &where), FZ_INJECTED);
		m.fail_at = 0;
	}

	if (ret == 0) {
		/* PCs from the input's last bytes, as offsets from vaddr. */
		for (i = 0; i < 8 && size >= 4 * (i + 1) + 28; i++) {
			const uint8_t *p = data + size - 4 * (i + 1);
			uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
				     (uint32_t)p[3] << 24;

			extra[nextra++] = sec.vaddr + (uint64_t)(int64_t)fz_sext(v, 4);
		}
		lookups(d, size, &sec, extra, nextra);
		/* Sorted or not, the same answers: clear the flag, search linearly. */
		if (sec.flags & SFRAME_F_FDE_SORTED) {
			d2 = fz_dup(d, size);
			d2[3] &= (uint8_t)~SFRAME_F_FDE_SORTED;
			fz_mem_init(&m2, d2, size, 0x2000);
			FZ_ASSERT_ERR(sframe_open(&sec2, fz_read, &m2, 0x2000, size, sec.vaddr), 0);
			FZ_ASSERT_ERR(sframe_check(&sec2, NULL), 0);
			lookups(d2, size, &sec2, extra, nextra);
			free(d2);
		}
	}
	free(d);
	return 0;
}
