/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_write.c - the SFrame side of the converter: a row's bytes, the
 * header. Each row is written in the fewest bytes its words fit (1, 2 or
 * 4 each, as binutils chooses), and so that the reader decodes exactly the
 * struct sframe_rules it came from.
 */
#include "convert_internal.h"

void cv_put_at(struct cv_out *o, uint64_t at, uint64_t v, unsigned int width)
{
	unsigned int i;

	if (o->over || at > o->size || width > o->size - at) {
		o->over = true;
		return;
	}
	if (!o->data)
		return;
	for (i = 0; i < width; i++)
		o->data[at + i] = (uint8_t)(v >> (8 * (o->be ? width - 1 - i : i)));
}

uint8_t cv_fre_type(uint64_t size)
{
	if (size <= 0xff)
		return SFRAME_FRE_TYPE_ADDR1;
	if (size <= 0xffff)
		return SFRAME_FRE_TYPE_ADDR2;
	return SFRAME_FRE_TYPE_ADDR4;
}

static bool loc_equal(const struct sframe_loc *a, const struct sframe_loc *b)
{
	return a->kind == b->kind && a->deref == b->deref && a->reg == b->reg &&
	       a->offset == b->offset;
}

bool cv_rows_equal(const struct cv_row *a, const struct cv_row *b)
{
	const struct sframe_rules *x = &a->rules, *y = &b->rules;

	return x->cfa.reg == y->cfa.reg && x->cfa.deref == y->cfa.deref &&
	       x->cfa.offset == y->cfa.offset && loc_equal(&x->ra, &y->ra) &&
	       loc_equal(&x->fp, &y->fp) && x->ra_undefined == y->ra_undefined &&
	       x->ra_mangled == y->ra_mangled;
}

/*
 * A row's data words, and the range they span for choosing their size:
 * FLEX control words are unsigned (@ctrl_max), the others signed.
 */
struct words {
	unsigned int n;
	int64_t w[SFRAME_MAX_WORDS];
	int64_t lo, hi;
	uint64_t ctrl_max;
	uint8_t info;	/* base register and mangled-RA bits */
};

static void add(struct words *w, int64_t v, bool ctrl)
{
	w->w[w->n++] = v;
	if (ctrl) {
		if ((uint64_t)v > w->ctrl_max)
			w->ctrl_max = (uint64_t)v;
	} else {
		if (v < w->lo)
			w->lo = v;
		if (v > w->hi)
			w->hi = v;
	}
}

static int64_t cfa_word(const struct cv_abi *abi, int32_t off)
{
	if (abi->sframe_abi == SFRAME_ABI_S390X_BE)
		return ((int64_t)off - SFRAME_S390X_CFA_BIAS) / SFRAME_S390X_CFA_SCALE;
	return off;
}

/* s390x v2's DEFAULT word for a value kept in a register. */
static int64_t default_word(const struct sframe_loc *loc)
{
	if (loc->kind == SFRAME_LOC_REG)
		return ((int64_t)loc->reg << 1) | 1;
	return loc->offset;
}

static void default_words(const struct cv_abi *abi, const struct sframe_rules *r, struct words *w)
{
	const bool ra_saved = r->ra.kind != SFRAME_LOC_SAME && abi->fixed_ra == 0;
	const bool fp_saved = r->fp.kind != SFRAME_LOC_SAME;

	if (r->cfa.reg == abi->sp)
		w->info |= SFRAME_BASE_REG_SP;
	add(w, cfa_word(abi, r->cfa.offset), false);
	if (abi->fixed_ra == 0 && (ra_saved || fp_saved))
		add(w, ra_saved ? default_word(&r->ra) : 0, false);
	if (fp_saved)
		add(w, default_word(&r->fp), false);
}

/* One FLEX entity: a (control, offset) pair. */
static void flex_pair(const struct sframe_loc *loc, struct words *w)
{
	uint64_t ctrl = (uint64_t)loc->deref << 1;

	if (loc->kind == SFRAME_LOC_REG)
		ctrl |= ((uint64_t)loc->reg << 3) | 1;
	add(w, (int64_t)ctrl, true);
	add(w, loc->offset, false);
}

static void flex_words(const struct cv_abi *abi, const struct sframe_rules *r, struct words *w)
{
	const bool ra_fixed = abi->fixed_ra && r->ra.kind == SFRAME_LOC_CFA && r->ra.deref &&
			      r->ra.offset == abi->fixed_ra;
	const bool ra_rule = r->ra.kind != SFRAME_LOC_SAME && !ra_fixed;
	const bool fp_rule = r->fp.kind != SFRAME_LOC_SAME;

	add(w, (int64_t)(((uint64_t)r->cfa.reg << 3) | ((uint64_t)r->cfa.deref << 1) | 1), true);
	add(w, cfa_word(abi, r->cfa.offset), false);
	if (ra_rule)
		flex_pair(&r->ra, w);
	else if (fp_rule)
		add(w, 0, false);	/* no RA rule: the fixed slot or LR */
	if (fp_rule)
		flex_pair(&r->fp, w);
}

static void row_words(const struct cv_abi *abi, bool flex, const struct cv_row *row,
		      struct words *w)
{
	w->n = 0;
	w->lo = 0;
	w->hi = 0;
	w->ctrl_max = 0;
	w->info = 0;
	if (row->rules.ra_undefined)
		return;
	if (flex)
		flex_words(abi, &row->rules, w);
	else
		default_words(abi, &row->rules, w);
	if (row->rules.ra_mangled)
		w->info |= 0x80;
}

static bool fits(const struct words *w, int64_t lo, int64_t hi, uint64_t umax)
{
	return w->lo >= lo && w->hi <= hi && w->ctrl_max <= umax;
}

/* The size code of the narrowest words that hold every word of @w. */
static unsigned int word_size(const struct words *w)
{
	if (fits(w, -128, 127, 0xff))
		return SFRAME_WORD_SIZE_1;
	if (fits(w, -32768, 32767, 0xffff))
		return SFRAME_WORD_SIZE_2;
	return SFRAME_WORD_SIZE_4;
}

static void store(uint8_t *p, uint64_t v, unsigned int width, bool be)
{
	unsigned int i;

	for (i = 0; i < width; i++)
		p[i] = (uint8_t)(v >> (8 * (be ? width - 1 - i : i)));
}

/* One row: bounds checked once for all of its bytes. */
void cv_fre_write(struct cv_out *o, const struct cv_abi *abi, bool flex, const struct cv_row *row,
		  uint8_t fre_type)
{
	const unsigned int sb = SFRAME_FRE_START_BYTES(fre_type);
	struct words w;
	unsigned int size, bytes, i, total;
	uint8_t *p;

	row_words(abi, flex, row, &w);
	size = w.n ? word_size(&w) : 0;
	bytes = SFRAME_WORD_BYTES(size);
	total = sb + 1 + w.n * bytes;
	if (o->over || o->pos > o->size || total > o->size - o->pos) {
		o->over = true;
		return;
	}
	if (o->data) {
		p = o->data + o->pos;
		store(p, row->start, sb, o->be);
		p[sb] = (uint8_t)(w.info | (w.n << 1) | (size << 5));
		p += sb + 1;
		for (i = 0; i < w.n; i++, p += bytes)
			store(p, (uint64_t)w.w[i], bytes, o->be);
	}
	o->pos += total;
}

void cv_header_write(struct cv_out *o, const struct cv_abi *abi, uint8_t version,
		     uint32_t num_fdes, uint32_t num_fres, uint32_t fre_len)
{
	const unsigned int fde_size = version == SFRAME_VERSION_2 ? SFRAME_V2_FDE_SIZE
								  : SFRAME_V3_FDE_SIZE;

	cv_put_at(o, SFRAME_HDR_MAGIC, SFRAME_MAGIC, 2);
	cv_put_at(o, SFRAME_HDR_VERSION, version, 1);
	cv_put_at(o, SFRAME_HDR_FLAGS, SFRAME_F_FDE_SORTED | SFRAME_F_FDE_FUNC_START_PCREL, 1);
	cv_put_at(o, SFRAME_HDR_ABI, abi->sframe_abi, 1);
	cv_put_at(o, SFRAME_HDR_FIXED_FP, 0, 1);
	cv_put_at(o, SFRAME_HDR_FIXED_RA, (uint8_t)abi->fixed_ra, 1);
	cv_put_at(o, SFRAME_HDR_AUXHDR_LEN, 0, 1);
	cv_put_at(o, SFRAME_HDR_NUM_FDES, num_fdes, 4);
	cv_put_at(o, SFRAME_HDR_NUM_FRES, num_fres, 4);
	cv_put_at(o, SFRAME_HDR_FRE_LEN, fre_len, 4);
	cv_put_at(o, SFRAME_HDR_FDE_OFF, 0, 4);
	cv_put_at(o, SFRAME_HDR_FRE_OFF, (uint64_t)num_fdes * fde_size, 4);
}
