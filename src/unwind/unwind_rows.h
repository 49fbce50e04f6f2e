/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * unwind_rows.h - the row table's layout and its lookup (struct
 * sframe_rows, built by sframe_rows.c); not installed.
 *
 * From the first function's start on, the text a section describes is cut
 * into spans, each with one answer for all of its PCs, a packed rule
 * (unwind_rule.h): the rule of a row, RULE_PACKED_NONE where a lookup finds
 * no row, or RULE_PACKED_ASK where the lookup must answer (PCMASK
 * functions, functions without rows, rows without a packed form). Adjacent
 * spans with the same answer are one span. A block table, as the reader's
 * lookup index has for FDEs, gives the span that holds each block's first
 * byte, so that a lookup searches only the few spans of its PC's block.
 *
 * In the caller's memory, after the header: the spans' answers (u64), their
 * starts relative to @start (u32), each array followed by SF_ROWS_PAD
 * spans that start past every PC, then @blocks + 1 block entries (u32).
 */
#ifndef SFRAME_UNWIND_ROWS_H
#define SFRAME_UNWIND_ROWS_H

#include <sframe/sframe_unwind.h>
#include "unwind_rule.h"

/*
 * Spans past the last one: a lookup reads the three spans after its
 * block's first one without a bounds check.
 */
#define SF_ROWS_PAD	3u

/**
 * struct sframe_rows - the header of a row table; its arrays follow.
 * @start: the first function's start, relative to the section's first byte.
 * @num_fdes: the section's FDE count when the table was built.
 * @bits: log2 of the block size in bytes.
 * @blocks: the number of blocks.
 * @spans: the number of spans.
 * @abi: the section's SFRAME_ABI_* (the rules name its registers).
 */
struct sframe_rows {
	int64_t start;
	uint32_t num_fdes;
	uint32_t bits;
	uint32_t blocks;
	uint32_t spans;
	uint32_t abi;
};

/* The arrays of @t (the layout above). */
static SFRAME_ALWAYS_INLINE const uint64_t *rows_vals(const struct sframe_rows *t)
{
	return (const uint64_t *)(const void *)(t + 1);
}

static SFRAME_ALWAYS_INLINE const uint32_t *rows_starts(const struct sframe_rows *t)
{
	return (const uint32_t *)(const void *)(rows_vals(t) + t->spans + SF_ROWS_PAD);
}

static SFRAME_ALWAYS_INLINE const uint32_t *rows_first(const struct sframe_rows *t)
{
	return rows_starts(t) + t->spans + SF_ROWS_PAD;
}

/*
 * The packed answer of table @t for @target (relative to the section's
 * first byte): a rule, RULE_PACKED_NONE or RULE_PACKED_ASK.
 */
static SFRAME_ALWAYS_INLINE uint64_t rows_find(const struct sframe_rows *t, int64_t target)
{
	const uint64_t *vals = rows_vals(t);
	const uint32_t *starts = rows_starts(t), *first = rows_first(t);
	uint64_t off, b;
	uint32_t lo, hi, n;

	if (target < t->start)
		return rule_packed_mark(RULE_PACKED_NONE);
	off = (uint64_t)target - (uint64_t)t->start;
	b = off >> t->bits;
	/* (Past the last block, and at or past 2^32: the last span, a gap.) */
	if (b >= t->blocks)
		return vals[t->spans - 1];
	lo = first[b];
	hi = first[b + 1];
	if (lo > hi || hi >= t->spans)
		return rule_packed_mark(RULE_PACKED_ASK);
	/*
	 * The last span starting at or before @off. Mostly at most three follow
	 * the first: the four spans are read at once, their answers with their
	 * starts (the next load waits on none), and the starts at or before
	 * @off counted (those past @hi start past the block, the padding past
	 * every PC of one); selects, not branches, pick the answer
	 * (SFRAME_OPTIMIZER_HIDE_VAR() keeps the loads out of branches). Else
	 * by halving.
	 */
	if (hi - lo <= SF_ROWS_PAD) {
		uint64_t v0 = vals[lo], v1 = vals[lo + 1], v2 = vals[lo + 2], v3 = vals[lo + 3];
		uint32_t k = (uint32_t)(starts[lo + 1] <= off) + (uint32_t)(starts[lo + 2] <= off) +
			     (uint32_t)(starts[lo + 3] <= off);

		SFRAME_OPTIMIZER_HIDE_VAR(v0);
		SFRAME_OPTIMIZER_HIDE_VAR(v1);
		SFRAME_OPTIMIZER_HIDE_VAR(v2);
		SFRAME_OPTIMIZER_HIDE_VAR(v3);
		v0 = k & 1 ? v1 : v0;
		v2 = k & 1 ? v3 : v2;
		return k & 2 ? v2 : v0;
	}
	for (n = hi - lo + 1; n > 1; n -= n / 2)
		lo = starts[lo + n / 2] <= off ? lo + n / 2 : lo;
	return vals[lo];
}

/*
 * Whether @t describes @sec as it is: a table of other bytes (a section
 * reopened by hand, another section) is not used.
 */
static SFRAME_ALWAYS_INLINE bool rows_of(const struct sframe_rows *t,
					 const struct sframe_section *sec)
{
	return t->num_fdes == sec->num_fdes && t->abi == sec->abi;
}

#endif /* SFRAME_UNWIND_ROWS_H */
