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

/* An index's bytes: the header and its entries. */
static uint64_t index_bytes(const struct sframe_index *h)
{
	return sizeof(*h) + ((uint64_t)h->blocks + 1) * sizeof(uint32_t);
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
		return sf_order_error(sec);
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

int sframe_index_size(const struct sframe_section *sec, unsigned int bits, size_t *size)
{
	struct sframe_index h;
	int ret;

	if (!size)
		return -SFRAME_ERR_INVAL;
	ret = index_shape(sec, bits, &h);
	return ret ? ret : sf_size_of(index_bytes(&h), size);
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
			return sf_order_error(sec);
		prev = key;
		c = sf_blocks_before((uint64_t)key - (uint64_t)h->start, h->bits);
		/* (Only bytes read differently than by index_shape() pass h->blocks.) */
		sf_fill_blocks(first, &next, c < h->blocks ? c : h->blocks, i - 1);
	}
	sf_fill_blocks(first, &next, (uint64_t)h->blocks + 1, h->num_fdes - 1);
	return 0;
}

int sframe_index_build(struct sframe_section *sec, unsigned int bits, void *mem, size_t size)
{
	struct sframe_index h, *out = mem;
	int ret;

	ret = index_shape(sec, bits, &h);
	if (ret)
		return ret;
	if (!mem || ((uintptr_t)mem & (_Alignof(uint64_t) - 1)) || size < index_bytes(&h))
		return -SFRAME_ERR_INVAL;
	ret = fde_blocks(sec, &h, (uint32_t *)(void *)(out + 1));
	if (ret)
		return ret;
	*out = h;
	sec->index = out;
	return 0;
}
