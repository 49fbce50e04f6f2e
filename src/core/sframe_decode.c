/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_decode.c - FDEs, FREs and the per-ABI rules: the public API's
 * decoding, and the parts of the decoders (sframe_decode.h) that a lookup
 * runs only for rows of wide words or of FLEX FDEs.
 */
#include "sframe_decode.h"


int sf_fde_key(const struct sframe_section *sec, uint32_t index, int64_t *key, uint32_t *size)
{
	uint8_t tmp[SF_ENTRY_KEY_BYTES(true)];
	const uint8_t *b;
	uint64_t off;
	bool v3;
	int ret;

	if (index >= sec->num_fdes)
		return -SFRAME_ERR_INVAL;
	off = sec->fde_start + (uint64_t)index * sec->fde_size;
	v3 = sec->version == SFRAME_VERSION_3;
	ret = sf_view(sec, off, SF_ENTRY_KEY_BYTES(v3), tmp, -SFRAME_ERR_FDE, &b);
	if (ret)
		return ret;
	/* (The version again: not one more register kept across the read.) */
	v3 = sec->version == SFRAME_VERSION_3;
	*size = sf_entry_size(b, v3, sec->big_endian);
	/* A start past INT64_MAX sorts after every PC (see sf_fde_key() in sframe_internal.h). */
	if (sf_fde_offset(sec, sf_entry_start(b, v3, sec->big_endian), off + SFRAME_FDE_START, key))
		*key = SFRAME_INT64_MAX;
	return 0;
}

int sframe_get_fde(const struct sframe_section *sec, uint32_t index, struct sframe_fde *fde)
{
	return sf_decode_fde(sec, index, fde, 0);
}

void sf_fre_words_rest(const struct sframe_section *sec, struct sframe_fre *fre, const uint8_t *p,
		       unsigned int n, unsigned int wb)
{
	unsigned int i;

	/* One loop per width. */
	switch (wb) {
	case 1:
		for (i = 0; i < n; i++)
			fre->words[i] = sf_s8(p[i]);
		break;
	case 2:
		for (i = 0; i < n; i++)
			fre->words[i] = sf_s16(sf_u16(sec, p + 2 * i));
		break;
	default:
		for (i = 0; i < n; i++)
			fre->words[i] = sf_s32(sf_u32(sec, p + (size_t)wb * i));
		break;
	}
	for (; i < SFRAME_MAX_WORDS; i++)
		fre->words[i] = 0;
}

int sframe_fre_iter_init(const struct sframe_section *sec, const struct sframe_fde *fde,
			 struct sframe_fre_iter *it)
{
	if (!sec || !fde || !it || fde->fre_type > SFRAME_FRE_TYPE_ADDR4)
		return -SFRAME_ERR_INVAL;
	it->off = fde->fres_off;
	it->end = sec->fre_start + sec->fre_len;
	it->next = 0;
	it->count = fde->num_fres;
	it->fre_type = fde->fre_type;
	return 0;
}

int sframe_fre_iter_next(const struct sframe_section *sec, struct sframe_fre_iter *it,
			 struct sframe_fre *fre)
{
	uint8_t b[SF_FRE_MAX_BYTES];
	uint64_t left;
	size_t n;
	int ret;

	if (!sec || !it || !fre)
		return -SFRAME_ERR_INVAL;
	if (it->next >= it->count)
		return 0;
	if (it->off > it->end || it->end > sec->size)
		return -SFRAME_ERR_INVAL;
	left = it->end - it->off;
	if (left < SF_FRE_MIN_BYTES)
		return -SFRAME_ERR_FRE;
	n = left < sizeof(b) ? (size_t)left : sizeof(b);
	ret = sf_read(sec, it->off, b, n, -SFRAME_ERR_FRE);
	if (ret)
		return ret;
	ret = sf_decode_fre(sec, it->fre_type, b, n, fre, 0);
	if (ret < 0)
		return ret;
	it->off += (unsigned int)ret;
	it->next++;
	return 1;
}

int sf_rep_size(const struct sframe_section *sec, const struct sframe_fde *fde)
{
	if (sec->version == SFRAME_VERSION_1) {
		/*
		 * v1 has no repetition size. Its only PCMASK producer is the
		 * amd64 linker's description of 16-byte PLT entries, so that is
		 * the block size used there; elsewhere the meaning is unknown.
		 */
		if (sec->abi == SFRAME_ABI_AMD64_LE)
			return 16;
		return -SFRAME_ERR_UNSUPPORTED;
	}
	if (fde->rep_size == 0)
		return -SFRAME_ERR_REP_SIZE;
	return fde->rep_size;
}

/* One FLEX (control, offset) pair, control not 0. */
static void sf_flex_pair(uint32_t ctrl, int32_t off, struct sframe_loc *loc)
{
	loc->kind = SFRAME_FLEX_REG_P(ctrl) ? SFRAME_LOC_REG : SFRAME_LOC_CFA;
	loc->reg = SFRAME_FLEX_REG_P(ctrl) ? SFRAME_FLEX_REGNUM(ctrl) : 0;
	loc->deref = SFRAME_FLEX_DEREF_P(ctrl);
	loc->offset = off;
}

/* No rule in the FRE: the header's fixed offset, else unchanged. */
static void sf_flex_default(int8_t fixed, struct sframe_loc *loc)
{
	if (fixed)
		sf_loc_slot(loc, fixed);
	else
		sf_loc_same(loc);
}

/*
 * The RA or FP entity of a FLEX row, at word *@at: absent (the row ended),
 * one padding word 0 ("no rule"), or a (control, offset) pair. *@at moves
 * past its words. A control word without its offset word is refused
 * whatever the assume mask: the offset would lie past the decoded words.
 */
static int sf_flex_entity(const struct sframe_fre *fre, unsigned int *at, int8_t fixed,
				 struct sframe_loc *loc)
{
	unsigned int i = *at;

	if (i >= fre->num_words) {
		sf_flex_default(fixed, loc);
		return 0;
	}
	if (fre->words[i] == 0) {
		sf_flex_default(fixed, loc);
		*at = i + 1;
		return 0;
	}
	if (i + 1 >= fre->num_words)
		return -SFRAME_ERR_WORDS;
	sf_flex_pair(sframe_fre_uword(fre, i), fre->words[i + 1], loc);
	*at = i + 2;
	return 0;
}

/* FLEX rows: sframe_decode.h gives their layout. */
int sf_rules_flex(const struct sframe_section *sec, const struct sframe_fre *fre,
		  struct sframe_rules *r, bool check)
{
	uint32_t ctrl = sframe_fre_uword(fre, 0);
	unsigned int at = 2;
	int ret;

	/* The CFA pair always names a register. */
	if (check && (fre->num_words < 2 || !SFRAME_FLEX_REG_P(ctrl)))
		return -SFRAME_ERR_WORDS;
	r->cfa.reg = SFRAME_FLEX_REGNUM(ctrl);
	r->cfa.deref = SFRAME_FLEX_DEREF_P(ctrl);
	ret = sf_cfa_offset(sec, fre->words[1], &r->cfa.offset);
	if (ret)
		return ret;
	ret = sf_flex_entity(fre, &at, sec->fixed_ra, &r->ra);
	if (ret)
		return ret;
	ret = sf_flex_entity(fre, &at, sec->fixed_fp, &r->fp);
	if (ret)
		return ret;
	if (check && at < fre->num_words)
		return -SFRAME_ERR_WORDS;
	return 0;
}

int sframe_fre_rules(const struct sframe_section *sec, const struct sframe_fde *fde,
		     const struct sframe_fre *fre, struct sframe_rules *rules)
{
	return sf_decode_rules(sec, fde, fre, rules, 0);
}
