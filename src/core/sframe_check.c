/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_check.c - full validation: every FDE and FRE, once.
 *
 * sframe_open() proves the header consistent; this proves the rest, so that
 * a section accepted here can only give rows or "not found" to lookups.
 */
#include "sframe_internal.h"

static int fail(struct sframe_problem *where, uint32_t fde, uint32_t fre, int err)
{
	if (where) {
		where->fde = fde;
		where->fre = fre;
	}
	return err;
}

static int check_fres(const struct sframe_section *sec, const struct sframe_fde *fde,
		      uint32_t *bad_fre)
{
	struct sframe_fre_iter it;
	struct sframe_fre fre;
	struct sframe_rules rules;
	uint64_t limit = fde->func_size;
	uint32_t j, prev = 0;
	int ret;

	if (fde->pc_type == SFRAME_PC_TYPE_MASK) {
		ret = sf_rep_size(sec, fde);
		if (ret < 0)
			return ret;
		limit = (unsigned int)ret;
	}
	ret = sframe_fre_iter_init(sec, fde, &it);
	if (ret)
		return ret;
	for (j = 0; j < fde->num_fres; j++) {
		*bad_fre = j;
		ret = sframe_fre_iter_next(sec, &it, &fre);
		if (ret < 0)
			return ret;
		if (ret == 0)
			return -SFRAME_ERR_FRE;
		/*
		 * Starts increase strictly and stay inside the function (for
		 * PCMASK, the block). A row starting exactly at the end covers
		 * nothing but gas emits one for CFI after the last instruction,
		 * so it is accepted.
		 */
		if ((j > 0 && fre.start <= prev) || fre.start > limit)
			return -SFRAME_ERR_FRE;
		prev = fre.start;
		ret = sframe_fre_rules(sec, fde, &fre, &rules);
		if (ret)
			return ret;
	}
	return 0;
}

int sframe_check(const struct sframe_section *sec, struct sframe_problem *where)
{
	struct sframe_fde fde;
	uint64_t total = 0, part_size;
	int64_t prev_start = 0;
	uint32_t prev_size = 0, i, bad_fre;
	int ret;

	if (!sec || !sec->read)
		return -SFRAME_ERR_INVAL;
	for (i = 0; i < sec->num_fdes; i++) {
		ret = sframe_get_fde(sec, i, &fde);
		if (ret)
			return fail(where, i, SFRAME_NO_INDEX, ret);
		if ((sec->flags & SFRAME_F_FDE_SORTED) && i > 0) {
			/* Sorted means ascending and, for a binary search to be
			 * right, not overlapping either. */
			if (fde.func_offset < prev_start ||
			    (uint64_t)fde.func_offset - (uint64_t)prev_start < prev_size)
				return fail(where, i, SFRAME_NO_INDEX, -SFRAME_ERR_FDE_ORDER);
		}
		prev_start = fde.func_offset;
		prev_size = fde.func_size;
		bad_fre = SFRAME_NO_INDEX;
		ret = check_fres(sec, &fde, &bad_fre);
		if (ret)
			return fail(where, i, bad_fre, ret);
		total += fde.num_fres;
	}
	if (total != sec->num_fres)
		return fail(where, SFRAME_NO_INDEX, SFRAME_NO_INDEX, -SFRAME_ERR_FRE_COUNT);
	/*
	 * A valid header that describes only the first of several sections
	 * must not pass for the whole: lookups would miss every function of
	 * the others without a word.
	 */
	ret = sframe_part_size(sec, &part_size);
	if (ret == 0 && part_size < sec->size)
		ret = -SFRAME_ERR_CONCAT;
	return fail(where, SFRAME_NO_INDEX, SFRAME_NO_INDEX, ret);
}
