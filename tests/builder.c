/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * builder.c - the test-only SFrame section builder (see builder.h).
 *
 * Written from the format description only; it shares no code with the core
 * so that a misreading in one is not silently repeated in the other.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "builder.h"

void sfb_init(struct sfb *b, uint8_t version, uint8_t abi, bool big_endian,
	      uint8_t flags, uint64_t vaddr)
{
	memset(b, 0, sizeof(*b));
	b->version = version;
	b->abi = abi;
	b->big_endian = big_endian;
	b->flags = flags;
	b->vaddr = vaddr;
	b->fixed_ra = abi == SFRAME_ABI_AMD64_LE ? -8 : 0;
}

struct sfb_fde *sfb_fde(struct sfb *b, uint64_t start, uint32_t size,
			uint8_t fre_type, uint8_t pc_type)
{
	struct sfb_fde *f;

	if (b->num_fdes >= SFB_MAX_FDES)
		fail_msg("builder: too many FDEs");
	f = &b->fdes[b->num_fdes++];
	memset(f, 0, sizeof(*f));
	f->start = start;
	f->size = size;
	f->fre_type = fre_type;
	f->pc_type = pc_type;
	f->first_fre = b->num_fres;
	return f;
}

struct sfb_fre *sfb_fre(struct sfb *b, uint32_t start, unsigned base_reg,
			unsigned word_bytes, unsigned n, ...)
{
	struct sfb_fre *r;
	va_list ap;
	unsigned i;

	if (b->num_fdes == 0)
		fail_msg("builder: FRE before any FDE");
	if (b->num_fres >= SFB_MAX_FRES || n > SFB_MAX_WORDS)
		fail_msg("builder: too many FREs or words");
	r = &b->fres[b->num_fres++];
	memset(r, 0, sizeof(*r));
	r->start = start;
	r->base_reg = (uint8_t)base_reg;
	r->word_bytes = (uint8_t)word_bytes;
	r->num_words = (uint8_t)n;
	va_start(ap, n);
	for (i = 0; i < n; i++)
		r->words[i] = va_arg(ap, int);
	va_end(ap);
	b->fdes[b->num_fdes - 1].num_fres++;
	return r;
}

uint8_t sfb_fre_info(unsigned base_reg, unsigned n, unsigned word_bytes, bool mangled)
{
	unsigned code = word_bytes == 1 ? 0 : word_bytes == 2 ? 1 : word_bytes == 4 ? 2 : 3;

	return (uint8_t)((base_reg & 1u) | ((n & 0xfu) << 1) | (code << 5) |
			 ((mangled ? 1u : 0u) << 7));
}

static void put(bool big_endian, uint8_t *p, uint64_t v, size_t width)
{
	size_t i;

	for (i = 0; i < width; i++) {
		size_t shift = big_endian ? (width - 1 - i) * 8 : i * 8;

		p[i] = (uint8_t)(v >> shift);
	}
}

void sfb_put_u8(const struct sfb *b, void *out, size_t off, uint8_t v)
{
	put(b->big_endian, (uint8_t *)out + off, v, 1);
}

void sfb_put_u16(const struct sfb *b, void *out, size_t off, uint16_t v)
{
	put(b->big_endian, (uint8_t *)out + off, v, 2);
}

void sfb_put_u32(const struct sfb *b, void *out, size_t off, uint32_t v)
{
	put(b->big_endian, (uint8_t *)out + off, v, 4);
}

void sfb_put_u64(const struct sfb *b, void *out, size_t off, uint64_t v)
{
	put(b->big_endian, (uint8_t *)out + off, v, 8);
}

uint64_t sfb_get(const struct sfb *b, const void *out, size_t off, size_t width)
{
	const uint8_t *p = (const uint8_t *)out + off;
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < width; i++) {
		size_t shift = b->big_endian ? (width - 1 - i) * 8 : i * 8;

		v |= (uint64_t)p[i] << shift;
	}
	return v;
}

static size_t start_width(uint8_t fre_type)
{
	switch (fre_type) {
	case SFRAME_FRE_TYPE_ADDR2:
		return 2;
	case SFRAME_FRE_TYPE_ADDR4:
		return 4;
	default:	/* ADDR1, and the invalid types 3..15 */
		return 1;
	}
}

static size_t fre_bytes(const struct sfb_fde *f, const struct sfb_fre *r)
{
	size_t wb = r->word_bytes == 2 || r->word_bytes == 4 ? r->word_bytes : 1;

	return start_width(f->fre_type) + 1 + (size_t)r->num_words * wb;
}

static uint8_t fde_info(const struct sfb_fde *f)
{
	return (uint8_t)((f->fre_type & 0xfu) | ((f->pc_type & 1u) << 4) |
			 ((f->pauth_key & 1u) << 5) | ((f->signal ? 1u : 0u) << 7));
}

size_t sfb_emit(struct sfb *b, void *outv, size_t cap)
{
	uint8_t *out = outv;
	size_t fde_size, hdr_end, fre_area, total, pos, i, j;
	uint32_t fre_pos;	/* offset inside the FRE area */

	fde_size = b->version == 1 ? SFRAME_V1_FDE_SIZE :
		   b->version == 2 ? SFRAME_V2_FDE_SIZE : SFRAME_V3_FDE_SIZE;
	hdr_end = SFRAME_HDR_SIZE + b->auxhdr_len;
	fre_area = hdr_end + b->num_fdes * fde_size;

	/* Size everything first so nothing is written past @cap. */
	total = fre_area;
	for (i = 0; i < b->num_fdes; i++) {
		const struct sfb_fde *f = &b->fdes[i];

		if (b->version >= 3)
			total += SFRAME_V3_FDE_ATTR_SIZE;
		for (j = 0; j < f->num_fres; j++)
			total += fre_bytes(f, &b->fres[f->first_fre + j]);
	}
	if (total + b->tail_pad > cap)
		return 0;
	memset(out, 0, total + b->tail_pad);

	b->fde_size = fde_size;
	b->fde_area = hdr_end;
	b->fre_area = fre_area;
	b->fre_len = total - fre_area;
	b->len = total + b->tail_pad;

	/* Header. */
	sfb_put_u16(b, out, SFRAME_HDR_MAGIC, SFRAME_MAGIC);
	out[SFRAME_HDR_VERSION] = b->version;
	out[SFRAME_HDR_FLAGS] = b->flags;
	out[SFRAME_HDR_ABI] = b->abi;
	out[SFRAME_HDR_FIXED_FP] = (uint8_t)b->fixed_fp;
	out[SFRAME_HDR_FIXED_RA] = (uint8_t)b->fixed_ra;
	out[SFRAME_HDR_AUXHDR_LEN] = b->auxhdr_len;
	sfb_put_u32(b, out, SFRAME_HDR_NUM_FDES, b->num_fdes);
	sfb_put_u32(b, out, SFRAME_HDR_NUM_FRES, b->num_fres);
	sfb_put_u32(b, out, SFRAME_HDR_FRE_LEN, (uint32_t)b->fre_len);
	sfb_put_u32(b, out, SFRAME_HDR_FDE_OFF, 0);
	sfb_put_u32(b, out, SFRAME_HDR_FRE_OFF, (uint32_t)(b->num_fdes * fde_size));
	/* A recognisable, non-zero auxiliary header that readers must skip. */
	memset(out + SFRAME_HDR_SIZE, 0xa5, b->auxhdr_len);

	fre_pos = 0;
	for (i = 0; i < b->num_fdes; i++) {
		const struct sfb_fde *f = &b->fdes[i];
		size_t fo = hdr_end + i * fde_size;
		int64_t field;

		b->fde_off[i] = fo;
		/* Stored start: from the field itself (PCREL) or the section start. */
		field = (int64_t)(f->start - b->vaddr);
		if (b->flags & SFRAME_F_FDE_FUNC_START_PCREL)
			field -= (int64_t)fo;
		b->start_field[i] = field;

		if (b->version < 3) {
			sfb_put_u32(b, out, fo + 0, (uint32_t)field);
			sfb_put_u32(b, out, fo + 4, f->size);
			sfb_put_u32(b, out, fo + 8, fre_pos);
			sfb_put_u32(b, out, fo + 12, f->num_fres);
			out[fo + 16] = fde_info(f);
			b->info_off[i] = fo + 16;
			b->attr_off[i] = 0;
			if (b->version == 2)
				out[fo + 17] = f->rep_size;	/* then u16 padding, zero */
		} else {
			size_t ao = fre_area + fre_pos;

			sfb_put_u64(b, out, fo + 0, (uint64_t)field);
			sfb_put_u32(b, out, fo + 8, f->size);
			sfb_put_u32(b, out, fo + 12, fre_pos);
			sfb_put_u16(b, out, ao + 0, (uint16_t)f->num_fres);
			out[ao + 2] = fde_info(f);
			out[ao + 3] = f->fde_type;
			out[ao + 4] = f->rep_size;
			b->attr_off[i] = ao;
			b->info_off[i] = ao + 2;
			fre_pos += SFRAME_V3_FDE_ATTR_SIZE;
		}

		for (j = 0; j < f->num_fres; j++) {
			uint32_t k = f->first_fre + (uint32_t)j;
			const struct sfb_fre *r = &b->fres[k];
			size_t sw = start_width(f->fre_type);
			size_t wb = r->word_bytes == 2 || r->word_bytes == 4 ? r->word_bytes : 1;
			size_t w;

			pos = fre_area + fre_pos;
			b->fre_off[k] = pos;
			put(b->big_endian, out + pos, r->start, sw);
			pos += sw;
			b->fre_info_off[k] = pos;
			out[pos++] = sfb_fre_info(r->base_reg, r->num_words, r->word_bytes,
						  r->mangled);
			for (w = 0; w < r->num_words; w++, pos += wb)
				put(b->big_endian, out + pos, (uint64_t)r->words[w], wb);
			fre_pos = (uint32_t)(pos - fre_area);
		}
	}
	return b->len;
}

int sfb_read(void *ctx, uint64_t addr, void *dst, size_t len)
{
	struct sfb_reader *r = ctx;

	r->calls++;
	if (len == 0 || len > SFRAME_MAX_READ)
		fail_msg("read of %zu bytes at 0x%llx: len must be 1..%d", len,
			 (unsigned long long)addr, SFRAME_MAX_READ);
	if (addr < r->base || addr - r->base > r->size || len > r->size - (addr - r->base))
		fail_msg("read of %zu bytes at 0x%llx outside [0x%llx, 0x%llx)", len,
			 (unsigned long long)addr, (unsigned long long)r->base,
			 (unsigned long long)(r->base + r->size));
	if (len > r->max_len)
		r->max_len = (unsigned)len;
	if (r->fail_at && r->calls == r->fail_at)
		return r->fail_err;
	memcpy(dst, r->data + (addr - r->base), len);
	return 0;
}

void sfb_open(struct sfb *b, void *out, size_t cap, struct sframe_section *sec,
	      struct sfb_reader *r, uint64_t base)
{
	size_t len = sfb_emit(b, out, cap);
	int err;

	if (len == 0)
		fail_msg("builder: section does not fit");
	memset(r, 0, sizeof(*r));
	r->data = out;
	r->base = base;
	r->size = len;
	err = sframe_open(sec, sfb_read, r, base, len, b->vaddr);
	if (err)
		fail_msg("sframe_open: %d (%s)", err, sframe_errname(err));
}

void sfb_assert_err(long long got, long long want, const char *expr,
		    const char *file, int line)
{
	if (got == want)
		return;
	print_error("%s:%d: %s = %lld (%s), expected %lld (%s)\n", file, line, expr,
		    got, got >= INT32_MIN && got <= 0 ? sframe_errname((int)got) : "-",
		    want, want >= INT32_MIN && want <= 0 ? sframe_errname((int)want) : "-");
	_fail(file, line);
}
