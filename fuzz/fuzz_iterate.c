/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * fuzz_iterate.c - the dump path: every FDE (sframe_get_fde()), every FRE
 * (sframe_fre_iter_init/next()), every row's rules (sframe_fre_rules()) and
 * its text (the tool's sf_format_row()).
 *
 * Input: the section bytes. Asserts:
 *   - every read stays inside the section (fz_read aborts otherwise);
 *   - each call returns success or one of its documented errors;
 *   - every decoded FDE and FRE equals an independent decode of the raw
 *     bytes (ref_decoder.c), and FREs stay inside the FRE area;
 *   - an iterator yields exactly num_fres rows, then 0, or stops on an error;
 *   - rules are self-consistent (RA undefined exactly for zero words, default
 *     FDEs use SP or FP for the CFA); the row text never truncates;
 *   - if sframe_check() accepts the section, none of this fails, starts
 *     increase, and the FRE total equals the header's;
 *   - the k-th read failing (k from the input) makes the pass return that
 *     read's error, unchanged.
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
#include "ref_decoder.h"
#include "out/format_row.h"

/* Bound on the FDEs walked: inputs are small, but num_fdes is not checked here. */
#define MAX_WALK 4096

static void check_rules(const struct sframe_section *sec, const struct sframe_fde *fde,
			const struct sframe_fre *fre, const struct sframe_rules *r)
{
	FZ_ASSERT(r->ra_undefined == (fre->num_words == 0));
	if (r->ra_undefined) {
		FZ_ASSERT(r->ra.kind == SFRAME_LOC_UNDEFINED);
		return;
	}
	FZ_ASSERT(r->ra.kind >= SFRAME_LOC_SAME && r->ra.kind <= SFRAME_LOC_REG);
	FZ_ASSERT(r->fp.kind >= SFRAME_LOC_SAME && r->fp.kind <= SFRAME_LOC_REG);
	if (fde->fde_type == SFRAME_FDE_TYPE_FLEX) {
		/* All of the control word's bits 3 and up: up to 29 bits. */
		FZ_ASSERT(r->cfa.reg == SFRAME_FLEX_REGNUM(sframe_fre_uword(fre, 0)));
		FZ_ASSERT(r->ra.kind != SFRAME_LOC_REG || r->ra.reg <= 0x1fffffffu);
		FZ_ASSERT(r->fp.kind != SFRAME_LOC_REG || r->fp.reg <= 0x1fffffffu);
	} else {
		/* The base register bit picks SP or FP. */
		FZ_ASSERT(!r->cfa.deref);
		FZ_ASSERT((int)r->cfa.reg ==
			  (SFRAME_FRE_INFO_BASE_REG(fre->info) == SFRAME_BASE_REG_SP
				   ? sframe_abi_sp_reg(sec->abi)
				   : sframe_abi_fp_reg(sec->abi)));
	}
	if (r->ra_mangled)
		FZ_ASSERT(sec->abi == SFRAME_ABI_AARCH64_LE || sec->abi == SFRAME_ABI_AARCH64_BE);
}

static void check_text(const struct sframe_section *sec, const struct sframe_fde *fde,
		       const struct sframe_fre *fre)
{
	struct sf_row_text t;

	sf_format_row(sec, fde, fre, &t);
	FZ_ASSERT(t.ra_undefined == (fre->num_words == 0));
	if (t.ra_undefined)
		return;
	/* snprintf would truncate silently: every column must fit with room. */
	FZ_ASSERT(strlen(t.cfa) > 0 && strlen(t.cfa) < SF_COLUMN_MAX - 1);
	FZ_ASSERT(strlen(t.fp) > 0 && strlen(t.fp) < SF_COLUMN_MAX - 1);
	FZ_ASSERT(strlen(t.ra) > 0 && strlen(t.ra) < SF_COLUMN_MAX - 1);
}

/* One FDE's fields against the raw bytes. */
static void check_fde(const struct fz_sec *s, const struct sframe_fde *f, uint32_t i)
{
	const struct sframe_section *sec = s->sec;
	struct fz_fde r;

	fz_ref_fde(s, i, &r);
	FZ_ASSERT(r.ok);
	FZ_ASSERT(f->index == i);
	FZ_ASSERT(f->start_field == r.field && f->start_field_off == r.field_off);
	FZ_ASSERT(f->func_offset == r.offset && f->func_start == r.start);
	FZ_ASSERT(f->func_size == r.size && f->num_fres == r.num_fres);
	FZ_ASSERT(f->info == r.info && f->info2 == r.info2 && f->rep_size == r.rep);
	FZ_ASSERT(f->fres_off == r.fres_off);
	FZ_ASSERT(f->fre_type == (r.info & 0xfu) && f->fre_type <= SFRAME_FRE_TYPE_ADDR4);
	FZ_ASSERT(f->pc_type == ((r.info >> 4) & 1u));
	FZ_ASSERT(f->pauth_key == ((r.info >> 5) & 1u));
	FZ_ASSERT(f->signal == (sec->version == 3 && ((r.info >> 7) & 1u)));
	FZ_ASSERT(f->fde_type == (sec->version == 3 ? (r.info2 & 0x1fu) : 0));
	FZ_ASSERT(f->fde_type <= SFRAME_FDE_TYPE_FLEX);
	/* The FRE run starts inside the FRE area, and can hold its FREs. */
	FZ_ASSERT(f->fres_off >= sec->fre_start);
	FZ_ASSERT(f->fres_off <= sec->fre_start + sec->fre_len);
	FZ_ASSERT(2 * (uint64_t)f->num_fres <= sec->fre_start + sec->fre_len - f->fres_off);
	/* The function's offset range does not overflow. */
	FZ_ASSERT(f->func_size == 0 || f->func_offset <= INT64_MAX - (int64_t)(f->func_size - 1));
}

/*
 * The whole dump pass. Returns 0, or the first error of a call (the pass
 * stops there); with @strict (sframe_check() accepted) every call must
 * succeed. *@total counts the FREs seen.
 */
static int walk(const struct fz_sec *s, bool strict, bool verify, uint64_t *total)
{
	const struct sframe_section *sec = s->sec;
	uint64_t area_end = sec->fre_start + sec->fre_len;
	struct sframe_fde fde;
	struct sframe_fre_iter it;
	struct sframe_fre fre;
	struct sframe_rules rules;
	uint32_t i, j, n = sec->num_fdes < MAX_WALK ? sec->num_fdes : MAX_WALK;
	int ret;

	memset(&fre, 0, sizeof(fre));
	*total = 0;
	for (i = 0; i < n; i++) {
		ret = sframe_get_fde(sec, i, &fde);
		if (ret) {
			if (!verify)
				return ret;
			FZ_ASSERT(!strict);
			FZ_ASSERT(ret == -SFRAME_ERR_FDE || ret == -SFRAME_ERR_FRE_TYPE ||
				  ret == -SFRAME_ERR_FDE_TYPE);
			continue;
		}
		if (verify)
			check_fde(s, &fde, i);
		FZ_ASSERT_ERR(sframe_fre_iter_init(sec, &fde, &it), 0);
		for (j = 0;; j++) {
			struct fz_fre want;
			uint64_t off = it.off;
			uint32_t prev = fre.start;

			ret = sframe_fre_iter_next(sec, &it, &fre);
			if (ret == 0) {
				FZ_ASSERT(j == fde.num_fres);
				/* and stays at the end */
				FZ_ASSERT_ERR(sframe_fre_iter_next(sec, &it, &fre), 0);
				break;
			}
			if (ret < 0) {
				if (!verify)
					return ret;
				FZ_ASSERT(!strict);
				FZ_ASSERT(ret == -SFRAME_ERR_FRE || ret == -SFRAME_ERR_WORD_SIZE ||
					  ret == -SFRAME_ERR_WORDS);
				break;
			}
			FZ_ASSERT_ERR(ret, 1);
			FZ_ASSERT(j < fde.num_fres);
			(*total)++;
			if (verify) {
				fz_ref_fre(s, fde.fre_type, off, area_end, &want);
				fz_assert_fre_eq(&fre, &want);
				FZ_ASSERT(it.off == off + fre.size && it.off <= area_end);
				FZ_ASSERT(fre.num_words <= SFRAME_MAX_WORDS);
				if (strict) {
					FZ_ASSERT(j == 0 || fre.start > prev);
					FZ_ASSERT(fre.start <= (fde.pc_type ? (sec->version == 1 ? 16u
									  : fde.rep_size)
									: fde.func_size));
				}
			}
			ret = sframe_fre_rules(sec, &fde, &fre, &rules);
			if (ret) {
				FZ_ASSERT(!strict);
				FZ_ASSERT_ERR(ret, -SFRAME_ERR_WORDS);
			} else if (verify) {
				check_rules(sec, &fde, &fre, &rules);
			}
			if (verify)
				check_text(sec, &fde, &fre);
		}
	}
	/* Past the end: INVAL, never a read. */
	if (verify)
		FZ_ASSERT_ERR(sframe_get_fde(sec, sec->num_fdes, &fde), -SFRAME_ERR_INVAL);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sframe_section sec;
	struct fz_sec s;
	struct fz_mem m;
	uint8_t *d = fz_dup(data, size);
	uint64_t total, base = size ? 0x10000 + data[0] : 0, vaddr = 0x400000;
	unsigned long reads;
	bool strict;
	int ret;

	fz_mem_init(&m, d, size, base);
	if (sframe_open(&sec, fz_read, &m, base, size, vaddr)) {
		free(d);
		return 0;
	}
	s.b = d;
	s.size = size;
	s.sec = &sec;
	strict = sframe_check(&sec, NULL) == 0;
	m.calls = 0;
	FZ_ASSERT_ERR(walk(&s, strict, true, &total), 0);
	if (strict && sec.num_fdes <= MAX_WALK)
		FZ_ASSERT(total == sec.num_fres);

	/* The k-th read fails: the first call to make it returns its error. */
	m.calls = 0;
	walk(&s, strict, false, &total);
	reads = m.calls;
	if (reads) {
		m.calls = 0;
		m.fail_at = 1 + (size > 1 ? (data[1] | (unsigned long)data[size - 1] << 8) : 0) % reads;
		ret = walk(&s, strict, false, &total);
		FZ_ASSERT(m.failed);
		FZ_ASSERT_ERR(ret, FZ_INJECTED);
	}
	free(d);
	return 0;
}
