/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_open.c - header checks, in constant time.
 *
 * Everything later code relies on about the layout is established here once:
 * the FDE array and the FRE area lie inside the section and do not overlap,
 * so per-entry reads only need to check their own small ranges.
 */
#include "sframe_internal.h"

/*
 * The read callback a section opened by sframe_open_buffer() carries, so
 * that its read and read_ctx stay a valid pair for whoever holds the struct;
 * the library itself reads such a section directly through its data pointer.
 */
static int read_buffer(void *ctx, uint64_t addr, void *dst, size_t len)
{
	const struct sframe_buffer *buf = ctx;

	if (!buf || !dst || addr > buf->size || len > buf->size - addr)
		return -SFRAME_ERR_READ;
	SFRAME_MEMCPY(dst, (const uint8_t *)buf->data + addr, len);
	return 0;
}

static uint8_t fde_size_of(uint8_t version)
{
	switch (version) {
	case SFRAME_VERSION_1:
		return SFRAME_V1_FDE_SIZE;
	case SFRAME_VERSION_2:
		return SFRAME_V2_FDE_SIZE;
	default:
		return SFRAME_V3_FDE_SIZE;
	}
}

static uint8_t flags_allowed(uint8_t version)
{
	switch (version) {
	case SFRAME_VERSION_1:
		return SFRAME_V1_FLAGS_ALLOWED;
	case SFRAME_VERSION_2:
		return SFRAME_V2_FLAGS_ALLOWED;
	default:
		return SFRAME_V3_FLAGS_ALLOWED;
	}
}

/*
 * The header fields after the magic, from the @SFRAME_HDR_SIZE bytes at @h
 * into @s (whose byte order is set), and whether this library knows them.
 */
static int decode_header(struct sframe_section *s, const uint8_t *h, uint32_t *fde_off,
			 uint32_t *fre_off)
{
	const struct sf_abi *abi;

	s->version = h[SFRAME_HDR_VERSION];
	if (s->version < SFRAME_VERSION_1 || s->version > SFRAME_VERSION_3)
		return -SFRAME_ERR_VERSION;
	s->flags = h[SFRAME_HDR_FLAGS];
	if (s->flags & ~flags_allowed(s->version))
		return -SFRAME_ERR_FLAGS;
	s->abi = h[SFRAME_HDR_ABI];
	abi = sf_abi_of(s->abi);
	if (!abi || s->version < abi->since)
		return -SFRAME_ERR_ABI;
	s->fixed_fp = sf_s8(h[SFRAME_HDR_FIXED_FP]);
	s->fixed_ra = sf_s8(h[SFRAME_HDR_FIXED_RA]);
	s->auxhdr_len = h[SFRAME_HDR_AUXHDR_LEN];
	s->num_fdes = sf_u32(s, h + SFRAME_HDR_NUM_FDES);
	s->num_fres = sf_u32(s, h + SFRAME_HDR_NUM_FRES);
	s->fre_len = sf_u32(s, h + SFRAME_HDR_FRE_LEN);
	*fde_off = sf_u32(s, h + SFRAME_HDR_FDE_OFF);
	*fre_off = sf_u32(s, h + SFRAME_HDR_FRE_OFF);
	s->fde_size = fde_size_of(s->version);
	return 0;
}

/* Where the FDE array and the FRE area lie, and that they fit in @s. */
static int place_parts(struct sframe_section *s, uint32_t fde_off, uint32_t fre_off)
{
	uint64_t hdr_end, fde_bytes, fde_end, fre_end, min_fre_bytes;

	/*
	 * All quantities are 32-bit values combined in 64 bits, so none of
	 * these sums or products can overflow.
	 */
	hdr_end = SFRAME_HDR_SIZE + (uint64_t)s->auxhdr_len;
	s->fde_start = hdr_end + fde_off;
	s->fre_start = hdr_end + fre_off;
	fde_bytes = (uint64_t)s->num_fdes * s->fde_size;
	fde_end = s->fde_start + fde_bytes;
	fre_end = s->fre_start + s->fre_len;
	if (hdr_end > s->size || fde_end > s->size || fre_end > s->size)
		return -SFRAME_ERR_HEADER;
	/* The FDE array comes first and does not reach into the FRE area. */
	if (fde_off > fre_off || fde_end > s->fre_start)
		return -SFRAME_ERR_HEADER;
	/* Every FRE takes at least 2 bytes, every v3 FDE a 5-byte record. */
	min_fre_bytes = (uint64_t)s->num_fres * SF_FRE_MIN_BYTES;
	if (s->version == SFRAME_VERSION_3)
		min_fre_bytes += (uint64_t)s->num_fdes * SFRAME_V3_FDE_ATTR_SIZE;
	if (min_fre_bytes > s->fre_len)
		return -SFRAME_ERR_HEADER;
	return 0;
}

/*
 * @data, when not NULL, is the section's bytes in memory (sframe_open_buffer()):
 * every access is still bounds-checked against @size, but neither the
 * callback nor an embedder's SFRAME_READ_HOOK() ever sees the section.
 */
static int open_section(struct sframe_section *sec, sframe_read_fn read, void *read_ctx,
			uint64_t base, uint64_t size, uint64_t vaddr, const uint8_t *data)
{
	uint8_t h[SFRAME_HDR_SIZE];
	struct sframe_section s = { 0 };
	uint32_t fde_off, fre_off;
	size_t n;
	int ret;

	if (!sec || !read)
		return -SFRAME_ERR_INVAL;
	/*
	 * A linker leaves an empty .sframe when it keeps none of its inputs'
	 * sections (GNU ld 2.47 takes no v2 input): no SFrame data, which is
	 * not damage.
	 */
	if (size == 0)
		return -SFRAME_ERR_EMPTY;
	/* The last byte must be addressable: base + size - 1 may not wrap. */
	if (base > SFRAME_UINT64_MAX - (size - 1))
		return -SFRAME_ERR_INVAL;

	s.read = read;
	s.read_ctx = read_ctx;
	s.base = base;
	s.size = size;
	s.vaddr = vaddr;
	s.data = data;

	/* One read: the magic decides between "not SFrame" and "truncated". */
	n = size < SFRAME_HDR_SIZE ? (size_t)size : SFRAME_HDR_SIZE;
	if (n < 2)
		return -SFRAME_ERR_TRUNCATED;
	ret = sf_read(&s, 0, h, n, -SFRAME_ERR_TRUNCATED);
	if (ret)
		return ret;
	ret = sf_magic_order(h);
	if (ret < 0)
		return -SFRAME_ERR_BAD_MAGIC;
	s.big_endian = ret == 1;
	if (n < SFRAME_HDR_SIZE)
		return -SFRAME_ERR_TRUNCATED;
	ret = decode_header(&s, h, &fde_off, &fre_off);
	if (!ret)
		ret = place_parts(&s, fde_off, fre_off);
	if (ret)
		return ret;
	*sec = s;
	return 0;
}

int sframe_open(struct sframe_section *sec, sframe_read_fn read, void *read_ctx,
		uint64_t base, uint64_t size, uint64_t vaddr)
{
	return open_section(sec, read, read_ctx, base, size, vaddr, NULL);
}

int sframe_open_buffer(struct sframe_section *sec, struct sframe_buffer *buf,
		       const void *data, uint64_t size, uint64_t vaddr)
{
	if (!buf || (!data && size))
		return -SFRAME_ERR_INVAL;
	buf->data = data;
	buf->size = size;
	return open_section(sec, read_buffer, buf, 0, size, vaddr, data);
}

int sframe_abi_sp_reg(uint8_t abi)
{
	return sf_sp_reg(abi);
}

int sframe_abi_fp_reg(uint8_t abi)
{
	return sf_fp_reg(abi);
}

int sframe_abi_ra_reg(uint8_t abi)
{
	const struct sf_abi *a = sf_abi_of(abi);

	return a ? a->ra_reg : -1;
}
