/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/* ref_decoder.c - the reference decoder (ref_decoder.h). */
#include <string.h>

#include "fuzz_assert.h"
#include "ref_decoder.h"

int64_t fz_s64(uint64_t v)
{
	return v <= (uint64_t)INT64_MAX ? (int64_t)v : -(int64_t)(~v) - 1;
}

int32_t fz_sext(uint32_t v, unsigned int bytes)
{
	uint32_t sign = 1u << (8 * bytes - 1);
	uint32_t mask = bytes == 4 ? 0xffffffffu : (sign << 1) - 1;

	v &= mask;
	if (!(v & sign))
		return (int32_t)v;
	return -(int32_t)(~v & (sign - 1)) - 1;
}

static bool fz_in_bounds(const struct fz_sec *s, uint64_t off, uint64_t len)
{
	return off <= s->size && len <= s->size - off;
}

static uint64_t fz_get(const struct fz_sec *s, uint64_t off, unsigned int bytes)
{
	uint64_t v = 0;
	unsigned int i;

	FZ_ASSERT(fz_in_bounds(s, off, bytes));
	for (i = 0; i < bytes; i++) {
		unsigned int shift = s->sec->big_endian ? 8 * (bytes - 1 - i) : 8 * i;

		v |= (uint64_t)s->b[off + i] << shift;
	}
	return v;
}

void fz_ref_fde(const struct fz_sec *s, uint32_t i, struct fz_fde *f)
{
	const struct sframe_section *sec = s->sec;
	uint64_t off = sec->fde_start + (uint64_t)i * sec->fde_size, fre_off, attr;

	memset(f, 0, sizeof(*f));
	if (!fz_in_bounds(s, off, sec->fde_size))
		return;
	f->field_off = off;
	if (sec->version == SFRAME_VERSION_3) {
		f->field = fz_s64(fz_get(s, off, 8));
		f->size = (uint32_t)fz_get(s, off + 8, 4);
		fre_off = fz_get(s, off + 12, 4);
		attr = sec->fre_start + fre_off;
		if (!fz_in_bounds(s, attr, 5))
			return;
		f->num_fres = (uint32_t)fz_get(s, attr, 2);
		f->info = s->b[attr + 2];
		f->info2 = s->b[attr + 3];
		f->rep = s->b[attr + 4];
		f->fres_off = attr + 5;
	} else {
		f->field = fz_sext((uint32_t)fz_get(s, off, 4), 4);
		f->size = (uint32_t)fz_get(s, off + 4, 4);
		fre_off = fz_get(s, off + 8, 4);
		f->num_fres = (uint32_t)fz_get(s, off + 12, 4);
		f->info = s->b[off + 16];
		f->rep = sec->version == SFRAME_VERSION_2 ? s->b[off + 17] : 0;
		f->fres_off = sec->fre_start + fre_off;
	}
	f->offset = f->field;
	if (sec->flags & SFRAME_F_FDE_FUNC_START_PCREL) {
		if (f->field > INT64_MAX - (int64_t)off)
			return;
		f->offset = f->field + (int64_t)off;
	}
	f->start = sec->vaddr + (uint64_t)f->offset;
	f->ok = true;
}

void fz_ref_fre(const struct fz_sec *s, unsigned int fre_type, uint64_t off, uint64_t end,
		struct fz_fre *r)
{
	static const unsigned int sbytes[3] = { 1, 2, 4 };
	unsigned int sb, code, i;

	memset(r, 0, sizeof(*r));
	FZ_ASSERT(fre_type <= 2);
	sb = sbytes[fre_type];
	if (off > end || end - off < sb + 1 || !fz_in_bounds(s, off, sb + 1))
		return;
	r->start = (uint32_t)fz_get(s, off, sb);
	r->info = s->b[off + sb];
	r->n = (r->info >> 1) & 0xfu;
	code = (r->info >> 5) & 3u;
	if (code == 3)
		return;
	r->wb = 1u << code;
	r->size = sb + 1 + r->n * r->wb;
	if (end - off < r->size || !fz_in_bounds(s, off, r->size))
		return;
	for (i = 0; i < r->n; i++) {
		r->uwords[i] = (uint32_t)fz_get(s, off + sb + 1 + i * r->wb, r->wb);
		r->words[i] = fz_sext(r->uwords[i], r->wb);
	}
	r->ok = true;
}

void fz_assert_fre_eq(const struct sframe_fre *got, const struct fz_fre *want)
{
	unsigned int i;

	FZ_ASSERT(want->ok);
	FZ_ASSERT(got->start == want->start);
	FZ_ASSERT(got->info == want->info);
	FZ_ASSERT(got->num_words == want->n);
	FZ_ASSERT(got->word_bytes == want->wb);
	FZ_ASSERT(got->size == want->size);
	FZ_ASSERT(got->mangled_ra == (bool)((want->info >> 7) & 1u));
	for (i = 0; i < SFRAME_MAX_WORDS; i++) {
		FZ_ASSERT(got->words[i] == (i < want->n ? want->words[i] : 0));
		FZ_ASSERT(sframe_fre_uword(got, i) == (i < want->n ? want->uwords[i] : 0));
	}
}
