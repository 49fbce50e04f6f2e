/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_index.c - the optional lookup index: per block of text, the FDE
 * that covers or precedes the block's first byte.
 *
 * Why it cannot change an answer: in a section whose starts never
 * decrease, the FDE a lookup settles on is the last one whose start is <=
 * the PC's offset (the binary search settles on the first FDE when none
 * is, the linear scan of a section not flagged sorted finds none), and
 * that FDE lies between the entries of the PC's block and of the next
 * block, both included. The binary search then runs over that range only.
 * The build reads every start, so it refuses the sections where this does
 * not hold.
 *
 * The row table (SFRAME_INDEX_ROWS) answers sframe_lookup_rules(): see
 * "The row table" below.
 */
#include "sframe_internal.h"

/* More blocks than this: the caller asked for a block too small for its text. */
#define SF_INDEX_MAX_BLOCKS	((uint32_t)1 << 28)
/* The smallest block SFRAME_INDEX_AUTO picks: no function is shorter. */
#define SF_INDEX_MIN_AUTO_BITS	4u

/*
 * A span's start is 32 bits wide: the functions span less than 4 GB (less
 * the last block, so that no PC in a block compares above the padding).
 */
#define SF_SPAN_LIMIT	(((uint64_t)1 << 32) - 256)

/*
 * Spans past the last one (a start above every PC of a block, no row): a
 * lookup reads the three spans after its block's first one without a
 * bounds check.
 */
#define SF_SPAN_PAD	3u

/* The FDE blocks' part of an index: the header and its entries. */
static uint64_t fde_part_bytes(const struct sframe_index *h)
{
	return sizeof(*h) + ((uint64_t)h->blocks + 1) * sizeof(uint32_t);
}

/*
 * With a row table, what follows the FDE part (aligned for its packed
 * rules): the spans' packed rules (@rows_at), their starts, and the row
 * table's block entries.
 */
static uint64_t index_bytes(const struct sframe_index *h)
{
	if (!h->row_blocks)
		return fde_part_bytes(h);
	return h->rows_at + (SF_SPAN_PAD + (uint64_t)h->spans) *
	       (sizeof(uint64_t) + sizeof(uint32_t)) + ((uint64_t)h->row_blocks + 1) * sizeof(uint32_t);
}

/*
 * Starts that decrease: corrupt when the section is flagged sorted; valid
 * but not indexable in assembler output (gas writes FDEs in the order of
 * its text sections, not of their final addresses).
 */
static int order_error(const struct sframe_section *sec)
{
	if (sec->flags & SFRAME_F_FDE_SORTED)
		return -SFRAME_ERR_FDE_ORDER;
	return -SFRAME_ERR_UNSUPPORTED;
}

/* The header of @sec's index for @bits: the first start and the blocks. */
static int index_shape(const struct sframe_section *sec, unsigned int bits,
		       struct sframe_index *h)
{
	int64_t first, last;
	uint64_t span;
	uint32_t size;
	int ret;

	if (!sec || bits > SFRAME_INDEX_MAX_BITS)
		return -SFRAME_ERR_INVAL;
	if (sec->num_fdes == 0)
		return -SFRAME_ERR_UNSUPPORTED;
	ret = sf_fde_key(sec, 0, &first, &size);
	if (!ret)
		ret = sf_fde_key(sec, sec->num_fdes - 1, &last, &size);
	if (ret)
		return ret;
	if (last < first)
		return order_error(sec);
	span = (uint64_t)last - (uint64_t)first;
	if (bits == SFRAME_INDEX_AUTO) {
		/* At most one block per FDE; ends by SFRAME_INDEX_MAX_BITS. */
		bits = SF_INDEX_MIN_AUTO_BITS;
		while (bits < SFRAME_INDEX_MAX_BITS && (span >> bits) >= sec->num_fdes)
			bits++;
	}
	if ((span >> bits) >= SF_INDEX_MAX_BLOCKS)
		return -SFRAME_ERR_INVAL;
	*h = (struct sframe_index){ 0 };
	h->start = first;
	h->num_fdes = sec->num_fdes;
	h->blocks = (uint32_t)(span >> bits) + 1;
	h->bits = bits;
	return 0;
}

/*
 * The row table. From the first function's start on, the text is cut into
 * spans, each with one answer of sframe_lookup_rules() for all of its PCs,
 * packed in 8 bytes: no row there (-SFRAME_ERR_NOT_FOUND), a row's rules,
 * or "ask sframe_lookup()". FDE i's territory is where a lookup settles on
 * it (from its start to the next FDE's) and finds the PC inside it (below
 * its end); in it, each row holds from its start to the next row's. PCs
 * before the first row, after the end, and in territories of functions
 * that are empty (a later FDE with the same start) or zero-sized are not
 * found; PCMASK functions (rows repeating), functions without rows and
 * rows whose rules do not fit the packed form are left to sframe_lookup(),
 * which gives the same answer as without the table by definition. Adjacent
 * spans with the same answer are one span.
 *
 * A packed answer: bits 0-1 its kind; for SPAN_ROW, bits 2-3 the RA's
 * location kind, 4-5 the FP's, 6 ra_undefined, 7 ra_mangled, 8 signal,
 * 9-15 the CFA register, then the CFA, RA and FP offsets, 16 bits each
 * (signed). Loaded slots are CFA-relative (SFRAME_LOC_CFA, deref); the
 * build unpacks every packed row and keeps it only if it comes back equal,
 * so the form cannot lose a field.
 */
#define SPAN_NONE	0u
#define SPAN_ROW	1u
#define SPAN_LOOKUP	2u
#define SPAN_RA_KIND(v)	((unsigned int)((v) >> 2) & 3u)
#define SPAN_FP_KIND(v)	((unsigned int)((v) >> 4) & 3u)
#define SPAN_RA_UNDEF	((uint64_t)1 << 6)
#define SPAN_MANGLED	((uint64_t)1 << 7)
#define SPAN_SIGNAL	((uint64_t)1 << 8)
#define SPAN_CFA_REG(v)	((uint32_t)((v) >> 9) & 0x7fu)

/* The rules of a SPAN_ROW answer @v. */
static SFRAME_ALWAYS_INLINE void span_rules(uint64_t v, struct sframe_rules *r)
{
	const unsigned int ra = SPAN_RA_KIND(v), fp = SPAN_FP_KIND(v);

	r->cfa.reg = SPAN_CFA_REG(v);
	r->cfa.deref = false;
	r->cfa.offset = sf_s16((uint16_t)(v >> 16));
	r->ra.kind = (uint8_t)ra;
	r->ra.deref = ra == SFRAME_LOC_CFA;
	r->ra.reg = 0;
	r->ra.offset = sf_s16((uint16_t)(v >> 32));
	r->fp.kind = (uint8_t)fp;
	r->fp.deref = fp == SFRAME_LOC_CFA;
	r->fp.reg = 0;
	r->fp.offset = sf_s16((uint16_t)(v >> 48));
	r->ra_undefined = v & SPAN_RA_UNDEF;
	r->ra_mangled = v & SPAN_MANGLED;
	r->signal = v & SPAN_SIGNAL;
}

static bool loc_equal(const struct sframe_loc *a, const struct sframe_loc *b)
{
	return a->kind == b->kind && a->deref == b->deref && a->reg == b->reg &&
	       a->offset == b->offset;
}

/* Every member of struct sframe_rules (not memcmp(): padding). */
static bool rules_equal(const struct sframe_rules *a, const struct sframe_rules *b)
{
	return a->cfa.reg == b->cfa.reg && a->cfa.deref == b->cfa.deref &&
	       a->cfa.offset == b->cfa.offset && loc_equal(&a->ra, &b->ra) &&
	       loc_equal(&a->fp, &b->fp) && a->ra_undefined == b->ra_undefined &&
	       a->ra_mangled == b->ra_mangled && a->signal == b->signal;
}

/* @r packed as a SPAN_ROW answer, or SPAN_LOOKUP when it does not fit. */
static uint64_t span_pack(const struct sframe_rules *r)
{
	struct sframe_rules back;
	uint64_t v = SPAN_ROW;

	if (r->ra.kind > 3 || r->fp.kind > 3 || r->cfa.reg > 0x7f)
		return SPAN_LOOKUP;
	v |= (uint64_t)r->ra.kind << 2 | (uint64_t)r->fp.kind << 4 | (uint64_t)r->cfa.reg << 9;
	v |= (r->ra_undefined ? SPAN_RA_UNDEF : 0) | (r->ra_mangled ? SPAN_MANGLED : 0) |
	     (r->signal ? SPAN_SIGNAL : 0);
	v |= (uint64_t)((uint32_t)r->cfa.offset & 0xffffu) << 16 |
	     (uint64_t)((uint32_t)r->ra.offset & 0xffffu) << 32 |
	     (uint64_t)((uint32_t)r->fp.offset & 0xffffu) << 48;
	span_rules(v, &back);
	return rules_equal(r, &back) ? v : SPAN_LOOKUP;
}

/*
 * The spans as they are found, in order of start. With @starts NULL only
 * counted (sframe_index_size()); the build's second pass stores them.
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
	struct sframe_rules rules;
	struct sframe_fre fre;
	int ret;

	/* (A territory that wraps around 2^64 fails lookups by address.) */
	if (fde->pc_type == SFRAME_PC_TYPE_MASK || fde->num_fres == 0 ||
	    fde->func_start > SFRAME_UINT64_MAX - (len - 1))
		return span_add(o, rel, SPAN_LOOKUP);
	ret = sframe_fre_iter_init(sec, fde, &it);
	if (ret)
		return ret;
	while ((ret = sframe_fre_iter_next(sec, &it, &fre)) > 0) {
		/* Rows at or past the end cover nothing. */
		if (fre.start >= len)
			break;
		ret = sframe_fre_rules(sec, fde, &fre, &rules);
		ret = span_add(o, rel + fre.start, ret ? SPAN_LOOKUP : span_pack(&rules));
		if (ret)
			return ret;
	}
	return ret < 0 ? ret : 0;
}

/* Every span of the section, in order, into @o. */
static int row_spans(const struct sframe_section *sec, const struct sframe_index *h,
		     struct span_out *o)
{
	struct sframe_fde fde;
	int64_t key, next;
	uint64_t rel, len, room;
	uint32_t i, size;
	int ret;

	ret = sf_fde_key(sec, 0, &next, &size);
	for (i = 0; !ret && i < h->num_fdes; i++) {
		key = next;
		next = SFRAME_INT64_MAX;
		if (i + 1 < h->num_fdes && (ret = sf_fde_key(sec, i + 1, &next, &size)))
			break;
		if (next < key || key < h->start)
			return order_error(sec);
		/* A later FDE with the same start takes every PC. */
		if (next == key)
			continue;
		ret = sframe_get_fde(sec, i, &fde);
		if (ret)
			break;
		rel = (uint64_t)key - (uint64_t)h->start;
		room = (uint64_t)next - (uint64_t)key;
		len = fde.func_size < room ? fde.func_size : room;
		/* Not found until a row starts (or at all, for size 0). */
		ret = span_add(o, rel, SPAN_NONE);
		if (!ret && len)
			ret = fde_row_spans(sec, &fde, rel, len, o);
		if (!ret && len < room)
			ret = span_add(o, rel + len, SPAN_NONE);
	}
	return ret;
}

/*
 * The row table's blocks by default: the smallest, at least 4 bytes, that
 * makes at most one block per two spans, but no larger than 16 bytes, so
 * that a block holds a few spans (a function's rows are a few bytes apart)
 * and a lookup compares them at once (index_rules()); in text with a large
 * hole (a PLT far from the functions) larger blocks would also crowd the
 * functions' spans into a few of them. That costs at most 256 bytes per KB
 * of the range the functions span, holes included: a caller short of
 * memory gives a larger block (the lookup then halves among its spans).
 */
#define SF_ROW_MIN_BITS	2u
#define SF_ROW_MAX_BITS	4u

/*
 * The row table's shape in @h (its FDE part set), its blocks of 2^@bits
 * bytes (at least 4), or for SFRAME_INDEX_AUTO as above.
 */
static int rows_shape(const struct sframe_section *sec, struct sframe_index *h,
		      unsigned int bits)
{
	struct span_out o = { 0 };
	int ret;

	ret = row_spans(sec, h, &o);
	if (ret)
		return ret;
	/* (No span: every start unrepresentable, a corrupt section.) */
	if (!o.count)
		return -SFRAME_ERR_FDE;
	if (bits == SFRAME_INDEX_AUTO) {
		/* (Ends by SF_ROW_MAX_BITS.) */
		bits = SF_ROW_MIN_BITS;
		while (bits < SF_ROW_MAX_BITS && (o.last_start >> bits) >= o.count / 2 + 1)
			bits++;
	} else if (bits < SF_ROW_MIN_BITS) {
		bits = SF_ROW_MIN_BITS;
	}
	/* As for the FDE part: a block too small for the text. */
	if ((o.last_start >> bits) >= SF_INDEX_MAX_BLOCKS)
		return -SFRAME_ERR_INVAL;
	h->row_bits = bits;
	h->row_blocks = (uint32_t)(o.last_start >> bits) + 1;
	h->spans = o.count;
	h->rows_at = (fde_part_bytes(h) + 7) & ~(uint64_t)7;
	return 0;
}

/* @bits and SFRAME_INDEX_ROWS: the whole index's shape. */
static int shape(const struct sframe_section *sec, unsigned int bits, struct sframe_index *h)
{
	int ret;

	ret = index_shape(sec, bits & ~SFRAME_INDEX_ROWS, h);
	if (!ret && (bits & SFRAME_INDEX_ROWS))
		ret = rows_shape(sec, h, bits & ~SFRAME_INDEX_ROWS);
	return ret;
}

int sframe_index_size(const struct sframe_section *sec, unsigned int bits, size_t *size)
{
	struct sframe_index h;
	uint64_t n;
	int ret;

	if (!size)
		return -SFRAME_ERR_INVAL;
	ret = shape(sec, bits, &h);
	if (ret)
		return ret;
	n = index_bytes(&h);
	/* (A 32-bit host cannot hold some row tables.) */
	if ((uint64_t)(size_t)n != n)
		return -SFRAME_ERR_INVAL;
	*size = (size_t)n;
	return 0;
}

/* How many blocks of 2^@bits bytes start before offset @d: those an item at @d follows. */
static uint64_t blocks_before(uint64_t d, unsigned int bits)
{
	return d ? ((d - 1) >> bits) + 1 : 0;
}

/*
 * The entries of a block table (the FDE part's or the row table's), in
 * item order: the blocks from *@next up to @upto (not included) begin
 * inside @item (or after it, in a gap it precedes).
 */
static void fill_blocks(uint32_t *first, uint64_t *next, uint64_t upto, uint32_t item)
{
	for (; *next < upto; (*next)++)
		first[*next] = item;
}

/*
 * The FDE part's entries: blocks starting before FDE i's start and at or
 * after FDE i - 1's belong to FDE i - 1. One pass over the FDEs; @next
 * only grows, up to h.blocks + 1 entries in all.
 */
static int fde_blocks(const struct sframe_section *sec, const struct sframe_index *h,
		      uint32_t *first)
{
	uint64_t next = 0, c;
	int64_t prev = h->start, key;
	uint32_t i, fsize;
	int ret;

	for (i = 1; i < h->num_fdes; i++) {
		ret = sf_fde_key(sec, i, &key, &fsize);
		if (ret)
			return ret;
		if (key < prev)
			return order_error(sec);
		prev = key;
		c = blocks_before((uint64_t)key - (uint64_t)h->start, h->bits);
		/* (Only bytes read differently than by index_shape() pass h->blocks.) */
		fill_blocks(first, &next, c < h->blocks ? c : h->blocks, i - 1);
	}
	fill_blocks(first, &next, (uint64_t)h->blocks + 1, h->num_fdes - 1);
	return 0;
}

/* The row table of shape @h at @mem: the spans, then their blocks' entries. */
static int row_table(const struct sframe_section *sec, const struct sframe_index *h,
		     uint8_t *mem)
{
	struct span_out o = { 0 };
	uint32_t *first, k;
	uint64_t next = 0;
	int ret;

	o.vals = (uint64_t *)(void *)(mem + h->rows_at);
	o.starts = (uint32_t *)(void *)(o.vals + h->spans + SF_SPAN_PAD);
	o.cap = h->spans;
	ret = row_spans(sec, h, &o);
	if (ret)
		return ret;
	/* (Only a section whose bytes changed since the count differs.) */
	if (o.count != h->spans || (o.last_start >> h->row_bits) + 1 != h->row_blocks)
		return -SFRAME_ERR_INVAL;
	for (k = 0; k < SF_SPAN_PAD; k++) {
		o.vals[h->spans + k] = SPAN_NONE;
		o.starts[h->spans + k] = SFRAME_UINT32_MAX;
	}
	first = o.starts + h->spans + SF_SPAN_PAD;
	/* Each block's entry: the span holding its first byte (as fde_blocks()). */
	for (k = 1; k < h->spans; k++)
		fill_blocks(first, &next, blocks_before(o.starts[k], h->row_bits), k - 1);
	fill_blocks(first, &next, (uint64_t)h->row_blocks + 1, h->spans - 1);
	return 0;
}

int sframe_index_build(struct sframe_section *sec, unsigned int bits, void *mem, size_t size)
{
	struct sframe_index h, *out = mem;
	int ret;

	ret = shape(sec, bits, &h);
	if (ret)
		return ret;
	if (!mem || ((uintptr_t)mem & (_Alignof(uint64_t) - 1)) || size < index_bytes(&h))
		return -SFRAME_ERR_INVAL;
	ret = fde_blocks(sec, &h, (uint32_t *)(void *)(out + 1));
	if (!ret && h.row_blocks)
		ret = row_table(sec, &h, mem);
	if (ret)
		return ret;
	*out = h;
	sec->index = out;
	return 0;
}

/*
 * The row table's answer for @target: 0 with @rules, -SFRAME_ERR_NOT_FOUND,
 * or 1 when sframe_lookup() answers (no table, a SPAN_LOOKUP span).
 */
static SFRAME_ALWAYS_INLINE int index_rules(const struct sframe_section *sec, int64_t target,
					    struct sframe_rules *rules)
{
	const struct sframe_index *idx = sec->index;
	const uint64_t *vals;
	const uint32_t *starts, *first;
	uint64_t t, b, v;
	uint32_t lo, hi, n;

	/* An index of other bytes (a section reopened by hand) is not used. */
	if (!idx->row_blocks || idx->num_fdes != sec->num_fdes)
		return 1;
	if (target < idx->start)
		return -SFRAME_ERR_NOT_FOUND;
	vals = (const uint64_t *)(const void *)((const uint8_t *)idx + idx->rows_at);
	starts = (const uint32_t *)(const void *)(vals + idx->spans + SF_SPAN_PAD);
	first = starts + idx->spans + SF_SPAN_PAD;
	t = (uint64_t)target - (uint64_t)idx->start;
	b = t >> idx->row_bits;
	/* (Past the last block, and at or past 2^32: the last span, a gap.) */
	if (b >= idx->row_blocks) {
		v = vals[idx->spans - 1];
	} else {
		lo = first[b];
		hi = first[b + 1];
		if (lo > hi || hi >= idx->spans)
			return 1;
		/*
		 * The last span starting at or before @t. Mostly at most three
		 * follow the first: the four spans are read at once, their
		 * answers with their starts (the next load waits on none), and
		 * the starts at or before @t counted (those past @hi start past
		 * the block, the padding past every PC of one); selects, not
		 * branches, pick the answer (SFRAME_OPTIMIZER_HIDE_VAR() keeps
		 * the loads out of branches). Else by halving.
		 */
		if (hi - lo <= SF_SPAN_PAD) {
			uint64_t v0 = vals[lo], v1 = vals[lo + 1], v2 = vals[lo + 2], v3 = vals[lo + 3];
			uint32_t k = (uint32_t)(starts[lo + 1] <= t) + (uint32_t)(starts[lo + 2] <= t) +
				     (uint32_t)(starts[lo + 3] <= t);

			SFRAME_OPTIMIZER_HIDE_VAR(v0);
			SFRAME_OPTIMIZER_HIDE_VAR(v1);
			SFRAME_OPTIMIZER_HIDE_VAR(v2);
			SFRAME_OPTIMIZER_HIDE_VAR(v3);
			v0 = k & 1 ? v1 : v0;
			v2 = k & 1 ? v3 : v2;
			v = k & 2 ? v2 : v0;
		} else {
			for (n = hi - lo + 1; n > 1; n -= n / 2)
				lo = starts[lo + n / 2] <= t ? lo + n / 2 : lo;
			v = vals[lo];
		}
	}
	if ((v & 3) == SPAN_ROW) {
		span_rules(v, rules);
		return 0;
	}
	return (v & 3) == SPAN_NONE ? -SFRAME_ERR_NOT_FOUND : 1;
}

/*
 * sframe_lookup_rules() without the row table. (Out of line: the row is
 * on its own frame, not on the table's path.)
 */
static SFRAME_NOINLINE int rules_of_row(const struct sframe_section *sec, uint64_t pc,
					struct sframe_rules *rules)
{
	struct sframe_row row;
	int ret;

	ret = sframe_lookup(sec, pc, &row);
	if (ret == 0)
		*rules = row.rules;
	return ret;
}

int sframe_lookup_rules(const struct sframe_section *sec, uint64_t pc, struct sframe_rules *rules)
{
	int ret;

	if (!sec || !rules || !sec->read)
		return -SFRAME_ERR_INVAL;
	if (sec->index) {
		ret = index_rules(sec, sf_s64(pc - sec->vaddr), rules);
		if (ret <= 0)
			return ret;
	}
	return rules_of_row(sec, pc, rules);
}
