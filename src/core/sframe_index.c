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
 */
#include "sframe_internal.h"

/* More blocks than this: the caller asked for a block too small for its text. */
#define SF_INDEX_MAX_BLOCKS	((uint32_t)1 << 28)
/* The smallest block SFRAME_INDEX_AUTO picks: no function is shorter. */
#define SF_INDEX_MIN_AUTO_BITS	4u

static const uint32_t *index_entries(const struct sframe_index *idx)
{
	return (const uint32_t *)(const void *)(idx + 1);
}

static size_t index_bytes(const struct sframe_index *h)
{
	return sizeof(*h) + ((size_t)h->blocks + 1) * sizeof(uint32_t);
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
	h->start = first;
	h->num_fdes = sec->num_fdes;
	h->blocks = (uint32_t)(span >> bits) + 1;
	h->bits = bits;
	return 0;
}

int sframe_index_size(const struct sframe_section *sec, unsigned int bits, size_t *size)
{
	struct sframe_index h;
	int ret;

	if (!size)
		return -SFRAME_ERR_INVAL;
	ret = index_shape(sec, bits, &h);
	if (ret)
		return ret;
	*size = index_bytes(&h);
	return 0;
}

int sframe_index_build(struct sframe_section *sec, unsigned int bits, void *mem, size_t size)
{
	struct sframe_index h, *out = mem;
	uint32_t *first, i, fsize;
	uint64_t next = 0, d, c;
	int64_t prev, key;
	int ret;

	ret = index_shape(sec, bits, &h);
	if (ret)
		return ret;
	if (!mem || ((uintptr_t)mem & (_Alignof(uint64_t) - 1)) || size < index_bytes(&h))
		return -SFRAME_ERR_INVAL;
	first = (uint32_t *)(void *)(out + 1);
	prev = h.start;
	/*
	 * Blocks starting before FDE i's start and at or after FDE i - 1's
	 * belong to FDE i - 1. One pass over the FDEs; @next only grows, up
	 * to h.blocks + 1 entries in all.
	 */
	for (i = 1; i < h.num_fdes; i++) {
		ret = sf_fde_key(sec, i, &key, &fsize);
		if (ret)
			return ret;
		if (key < prev)
			return order_error(sec);
		prev = key;
		d = (uint64_t)key - (uint64_t)h.start;
		c = d ? ((d - 1) >> h.bits) + 1 : 0;
		/* (Only bytes read differently than by index_shape() pass h.blocks.) */
		if (c > h.blocks)
			c = h.blocks;
		for (; next < c; next++)
			first[next] = i - 1;
	}
	for (; next <= h.blocks; next++)
		first[next] = h.num_fdes - 1;
	*out = h;
	sec->index = out;
	return 0;
}

bool sf_index_range(const struct sframe_section *sec, int64_t target, uint32_t *base,
		    uint32_t *n)
{
	const struct sframe_index *idx = sec->index;
	const uint32_t *first = index_entries(idx);
	uint64_t b;
	uint32_t lo, hi;

	/* An index of other bytes (a section reopened by hand) is not used. */
	if (idx->num_fdes != sec->num_fdes || idx->bits > SFRAME_INDEX_MAX_BITS)
		return false;
	if (target < idx->start) {
		/* Before the first function: FDE 0, or none for the linear scan. */
		*base = 0;
		*n = (sec->flags & SFRAME_F_FDE_SORTED) ? 1 : 0;
		return true;
	}
	b = ((uint64_t)target - (uint64_t)idx->start) >> idx->bits;
	if (b >= idx->blocks) {
		lo = first[idx->blocks];
		hi = lo;
	} else {
		lo = first[b];
		hi = first[b + 1];
	}
	if (lo > hi || hi >= sec->num_fdes)
		return false;
	*base = lo;
	*n = hi - lo + 1;
	return true;
}
