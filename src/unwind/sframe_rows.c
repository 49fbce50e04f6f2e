/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_rows.c - the row table's build (sframe_rows_size(),
 * sframe_rows_build()); its layout and lookup are in unwind_rows.h.
 *
 * Why the table cannot change a walk: each span holds the answer the
 * lookup gives for every PC in it, worked out here from the lookup's own
 * rules. FDE i's territory is where a lookup settles on it (from its start
 * to the next FDE's) and finds the PC inside it (below its end); in it,
 * each row holds from its start to the next row's. PCs before the first
 * row, after the end, and in territories of functions that are empty (a
 * later FDE with the same start) or zero-sized are not found; what the
 * table cannot say it leaves to the lookup (RULE_PACKED_ASK), which gives
 * the same answer as without the table by definition.
 */
#include "unwind_rows.h"

/* More blocks than this: the caller asked for a block too small for its text. */
#define SF_ROWS_MAX_BLOCKS	((uint32_t)1 << 28)

/*
 * A span's start is 32 bits wide: the functions span less than 4 GB (less
 * a margin, so that no PC of theirs compares above the padding).
 */
#define SF_SPAN_LIMIT	(((uint64_t)1 << 32) - 256)

/*
 * The table's blocks by default: the smallest, at least 4 bytes, that
 * makes at most one block per two spans, but no larger than 16 bytes, so
 * that a block holds a few spans (a function's rows are a few bytes apart)
 * and a lookup compares them at once (rows_find()); in text with a large
 * hole (a PLT far from the functions) larger blocks would also crowd the
 * functions' spans into a few of them. That costs at most 256 bytes per KB
 * of the range the functions span, holes included: a caller short of
 * memory gives a larger block (the lookup then halves among its spans).
 */
#define SF_ROWS_MIN_BITS	2u
#define SF_ROWS_MAX_BITS	4u

/*
 * The spans as they are found, in order of start. With @starts NULL only
 * counted (sframe_rows_size()); the build's second pass stores them.
 */
struct span_out {
	uint32_t *starts;
	uint64_t *vals;
	uint32_t cap;
	uint32_t count;
	uint64_t last_start;	/* of the last span kept */
	uint64_t last_val;	/* its answer (after any replacement) */
};

/* Answer @val from @start (relative to the first function) on. */
static int span_add(struct span_out *o, uint64_t start, uint64_t val)
{
	if (start >= SF_SPAN_LIMIT)
		return -SFRAME_ERR_UNSUPPORTED;
	if (o->count) {
		/* Only rows out of order get here: sframe_check() refuses them. */
		if (start < o->last_start)
			return -SFRAME_ERR_FRE;
		/* A later answer from the same start replaces the earlier one. */
		if (start == o->last_start) {
			o->last_val = val;
			if (o->starts)
				o->vals[o->count - 1] = val;
			return 0;
		}
		if (val == o->last_val)
			return 0;
	}
	if (o->count == SFRAME_UINT32_MAX || (o->starts && o->count >= o->cap))
		return -SFRAME_ERR_INVAL;
	if (o->starts) {
		o->starts[o->count] = (uint32_t)start;
		o->vals[o->count] = val;
	}
	o->count++;
	o->last_start = start;
	o->last_val = val;
	return 0;
}

/* The packed answer for a row of @fde: its rule, or ask the lookup. */
static uint64_t row_answer(const struct sframe_section *sec, const struct sframe_fde *fde,
			   const struct sframe_fre *fre)
{
	struct sframe_rules rules;
	struct unwind_rule r;

	if (sframe_fre_rules(sec, fde, fre, &rules))
		return rule_packed_mark(RULE_PACKED_ASK);
	rule_from_rules(sf_abi_of(sec->abi), &rules, &r);
	return rule_pack(&r);
}

/*
 * The spans of the rows of @fde, whose territory is [@rel, @rel + @len).
 * (Out of line: its row, rules and iterator do not add to the frame that
 * holds the FDE.)
 */
static SFRAME_NOINLINE int fde_row_spans(const struct sframe_section *sec,
					  const struct sframe_fde *fde, uint64_t rel,
					  uint64_t len, struct span_out *o)
{
	struct sframe_fre_iter it;
	struct sframe_fre fre;
	int ret;

	/* (A territory that wraps around 2^64 fails lookups by address.) */
	if (fde->pc_type == SFRAME_PC_TYPE_MASK || fde->num_fres == 0 ||
	    fde->func_start > SFRAME_UINT64_MAX - (len - 1))
		return span_add(o, rel, rule_packed_mark(RULE_PACKED_ASK));
	ret = sframe_fre_iter_init(sec, fde, &it);
	if (ret)
		return ret;
	while ((ret = sframe_fre_iter_next(sec, &it, &fre)) > 0) {
		/* Rows at or past the end cover nothing. */
		if (fre.start >= len)
			break;
		ret = span_add(o, rel + fre.start, row_answer(sec, fde, &fre));
		if (ret)
			return ret;
	}
	return ret < 0 ? ret : 0;
}

/*
 * The spans of FDE @fde (@key its start), whose successor starts at @next,
 * into @o; the first function starts at @first.
 */
static int fde_spans(const struct sframe_section *sec, const struct sframe_fde *fde,
		     int64_t first, int64_t next, struct span_out *o)
{
	const uint64_t rel = (uint64_t)fde->func_offset - (uint64_t)first;
	const uint64_t room = (uint64_t)next - (uint64_t)fde->func_offset;
	const uint64_t len = fde->func_size < room ? fde->func_size : room;
	int ret;

	/* Not found until a row starts (or at all, for size 0). */
	ret = span_add(o, rel, rule_packed_mark(RULE_PACKED_NONE));
	if (!ret && len)
		ret = fde_row_spans(sec, fde, rel, len, o);
	if (!ret && len < room)
		ret = span_add(o, rel + len, rule_packed_mark(RULE_PACKED_NONE));
	return ret;
}

/*
 * Every span of the section, in order, into @o; *@first set to the first
 * function's start. FDEs are read one ahead: an FDE's territory ends where
 * the next one starts.
 */
static int section_spans(const struct sframe_section *sec, int64_t *first, struct span_out *o)
{
	struct sframe_fde fde, next;
	int64_t next_key;
	uint32_t i;
	int ret;

	if (sec->num_fdes == 0)
		return -SFRAME_ERR_UNSUPPORTED;
	ret = sframe_get_fde(sec, 0, &next);
	if (ret)
		return ret;
	*first = next.func_offset;
	for (i = 0; i < sec->num_fdes; i++) {
		fde = next;
		next_key = SFRAME_INT64_MAX;
		if (i + 1 < sec->num_fdes) {
			ret = sframe_get_fde(sec, i + 1, &next);
			if (ret)
				return ret;
			next_key = next.func_offset;
		}
		if (next_key < fde.func_offset)
			return sf_order_error(sec);
		/* A later FDE with the same start takes every PC. */
		if (next_key == fde.func_offset)
			continue;
		ret = fde_spans(sec, &fde, *first, next_key, o);
		if (ret)
			return ret;
	}
	return 0;
}

/* The table's bytes for header @h. */
static uint64_t rows_bytes(const struct sframe_rows *h)
{
	return sizeof(*h) + (SF_ROWS_PAD + (uint64_t)h->spans) *
	       (sizeof(uint64_t) + sizeof(uint32_t)) + ((uint64_t)h->blocks + 1) * sizeof(uint32_t);
}

/* The table's header for @bits (SFRAME_ROWS_AUTO: as above). */
static int rows_shape(const struct sframe_section *sec, unsigned int bits, struct sframe_rows *h)
{
	struct span_out o = { 0 };
	int64_t first;
	int ret;

	if (!sec || bits > SFRAME_ROWS_MAX_BITS)
		return -SFRAME_ERR_INVAL;
	if (!sf_abi_of(sec->abi))
		return -SFRAME_ERR_UNSUPPORTED;
	ret = section_spans(sec, &first, &o);
	if (ret)
		return ret;
	/* (No span: every start unrepresentable, a corrupt section.) */
	if (!o.count)
		return -SFRAME_ERR_FDE;
	if (bits == SFRAME_ROWS_AUTO) {
		/* (Ends by SF_ROWS_MAX_BITS.) */
		bits = SF_ROWS_MIN_BITS;
		while (bits < SF_ROWS_MAX_BITS && (o.last_start >> bits) >= o.count / 2 + 1)
			bits++;
	} else if (bits < SF_ROWS_MIN_BITS) {
		bits = SF_ROWS_MIN_BITS;
	}
	if ((o.last_start >> bits) >= SF_ROWS_MAX_BLOCKS)
		return -SFRAME_ERR_INVAL;
	*h = (struct sframe_rows){ 0 };
	h->start = first;
	h->num_fdes = sec->num_fdes;
	h->bits = bits;
	h->blocks = (uint32_t)(o.last_start >> bits) + 1;
	h->spans = o.count;
	h->abi = sec->abi;
	return 0;
}

int sframe_rows_size(const struct sframe_section *sec, unsigned int bits, size_t *size)
{
	struct sframe_rows h;
	int ret;

	if (!size)
		return -SFRAME_ERR_INVAL;
	ret = rows_shape(sec, bits, &h);
	return ret ? ret : sf_size_of(rows_bytes(&h), size);
}

/* The arrays of table @h at @mem: the spans, then their blocks' entries. */
static int rows_fill(const struct sframe_section *sec, const struct sframe_rows *h,
		     struct sframe_rows *mem)
{
	struct span_out o = { 0 };
	uint32_t *first, k;
	uint64_t next = 0;
	int64_t start;
	int ret;

	o.vals = (uint64_t *)(void *)(mem + 1);
	o.starts = (uint32_t *)(void *)(o.vals + h->spans + SF_ROWS_PAD);
	o.cap = h->spans;
	ret = section_spans(sec, &start, &o);
	if (ret)
		return ret;
	/* (Only a section whose bytes changed since the count differs.) */
	if (start != h->start || o.count != h->spans ||
	    (o.last_start >> h->bits) + 1 != h->blocks)
		return -SFRAME_ERR_INVAL;
	for (k = 0; k < SF_ROWS_PAD; k++) {
		o.vals[h->spans + k] = rule_packed_mark(RULE_PACKED_NONE);
		o.starts[h->spans + k] = SFRAME_UINT32_MAX;
	}
	first = o.starts + h->spans + SF_ROWS_PAD;
	/* Each block's entry: the span holding its first byte. */
	for (k = 1; k < h->spans; k++)
		sf_fill_blocks(first, &next, sf_blocks_before(o.starts[k], h->bits), k - 1);
	sf_fill_blocks(first, &next, (uint64_t)h->blocks + 1, h->spans - 1);
	return 0;
}

int sframe_rows_build(const struct sframe_section *sec, unsigned int bits, void *mem,
		      size_t size, const struct sframe_rows **rows)
{
	struct sframe_rows h, *out = mem;
	int ret;

	if (!rows)
		return -SFRAME_ERR_INVAL;
	ret = rows_shape(sec, bits, &h);
	if (ret)
		return ret;
	if (!mem || ((uintptr_t)mem & (_Alignof(uint64_t) - 1)) || size < rows_bytes(&h))
		return -SFRAME_ERR_INVAL;
	ret = rows_fill(sec, &h, out);
	if (ret)
		return ret;
	*out = h;
	*rows = out;
	return 0;
}
