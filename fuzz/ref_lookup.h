/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * ref_lookup.h - the reference lookup: sframe_lookup()'s contract computed
 * the slow way, by a linear scan over the reference decoder's FDEs and FREs
 * (ref_decoder.h), and the check that the library gives exactly its answer.
 */
#ifndef SFRAME_FUZZ_REF_LOOKUP_H
#define SFRAME_FUZZ_REF_LOOKUP_H

#include <stddef.h>
#include <stdint.h>

#include <sframe/sframe.h>

#include "ref_decoder.h"

#define FZ_MAX_FDES 4096

/*
 * The whole section decoded once by the reference, for sections
 * sframe_check() accepted: the FDEs from the raw bytes, and for each the
 * library's own FDE (sframe_get_fde()), used for the rules.
 */
struct fz_ref {
	struct fz_sec s;
	uint32_t n;
	struct fz_fde *fdes;
};

void fz_ref_init(struct fz_ref *r, const uint8_t *b, uint64_t size,
		 const struct sframe_section *sec);
void fz_ref_free(struct fz_ref *r);

/*
 * The contract of sframe_lookup(), computed the slow way: the function is
 * the one with the greatest start <= @pc (offsets from the section; the
 * last one of equal starts), @pc must lie inside it (as an offset and as an
 * address), the row is the last FRE whose start is <= the PC's offset into
 * the function (PCMASK: modulo the block size). Returns 0 with *@fde_idx,
 * *@fre_idx and @span (the row's PCs around @pc, [span[0], span[1])) set,
 * or -SFRAME_ERR_NOT_FOUND with *@fde_idx the function or SFRAME_NO_INDEX.
 * Only for sections sframe_check() accepted.
 */
int fz_ref_lookup(const struct fz_ref *r, uint64_t pc, uint32_t *fde_idx, uint32_t *fre_idx,
		  struct fz_fre *fre_out, uint64_t span[2]);

/* The rules of FRE @j of FDE @i, through the iteration API (not the lookup's path). */
void fz_iter_rules(const struct sframe_section *sec, uint32_t i, uint32_t j,
		   struct sframe_fde *fde, struct sframe_fre *fre, struct sframe_rules *rules);

/* Two sets of rules are equal, field for field. */
void fz_assert_rules_eq(const struct sframe_rules *a, const struct sframe_rules *b);

/*
 * sframe_lookup(@pc) on a section sframe_check() accepted: a row or "no row",
 * never an error, and exactly the reference's answer.
 */
void fz_lookup_vs_ref(const struct fz_ref *r, const struct sframe_section *sec, uint64_t pc);

/*
 * PCs worth looking up in a section: around every function's start and
 * end, at each row's start, in the gaps; appended to @pcs (up to @max).
 */
size_t fz_interesting_pcs(const struct fz_ref *r, uint64_t *pcs, size_t n, size_t max);

#endif /* SFRAME_FUZZ_REF_LOOKUP_H */
