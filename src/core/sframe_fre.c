/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_fre.c - frame row entries: decoding and the per-ABI rules.
 */
#include "sframe_internal.h"

int sf_parse_fre(const struct sframe_section *sec, unsigned int fre_type, const uint8_t *p,
		 size_t avail, struct sframe_fre *fre, unsigned int assume)
{
	const bool check = !(assume & SFRAME_ASSUME_VALID_FRES);
	static const uint8_t start_bytes[3] = { 1, 2, 4 };
	unsigned int sb, info, n, code, wb, i;
	size_t total;

	if (fre_type > SFRAME_FRE_TYPE_ADDR4)
		return -SFRAME_ERR_FRE_TYPE;
	sb = start_bytes[fre_type];
	if (avail < sb + 1)
		return -SFRAME_ERR_FRE;
	switch (sb) {
	case 1:
		fre->start = p[0];
		break;
	case 2:
		fre->start = sf_u16(sec, p);
		break;
	default:
		fre->start = sf_u32(sec, p);
		break;
	}
	info = p[sb];
	n = SFRAME_FRE_INFO_NUM_WORDS(info);
	code = SFRAME_FRE_INFO_WORD_SIZE(info);
	/* Size code 3 is undefined: refuse it rather than guess a width. */
	if (check && code == 3)
		return -SFRAME_ERR_WORD_SIZE;
	/*
	 * No ABI or FDE type uses more than six words; refusing more here keeps
	 * the decoded row fixed-size (libsframe overflows its buffer instead).
	 * Without the check (assume mask) words past the sixth are not stored,
	 * and sframe_lookup()'s rule decoding refuses the row.
	 */
	if (check && n > SFRAME_MAX_WORDS)
		return -SFRAME_ERR_WORDS;
	wb = 1u << code;
	total = sb + 1 + (size_t)n * wb;
	if (total > avail)
		return -SFRAME_ERR_FRE;

	fre->info = (uint8_t)info;
	fre->num_words = (uint8_t)n;
	fre->word_bytes = (uint8_t)wb;
	fre->size = (uint8_t)total;
	fre->mangled_ra = SFRAME_FRE_INFO_MANGLED_RA(info);
	p += sb + 1;
	if (n > SFRAME_MAX_WORDS)
		n = SFRAME_MAX_WORDS;	/* (only with the assume mask; see above) */
	/* One loop per width: the common 1-byte words cost a load each. */
	switch (wb) {
	case 1:
		if (avail - (sb + 1) >= SFRAME_MAX_WORDS) {
			/*
			 * The common case, without a branch on the word count
			 * (which differs from row to row): all six bytes are
			 * there to read, and the words past the row's are zero.
			 */
			for (i = 0; i < SFRAME_MAX_WORDS; i++) {
				/* (a mask, not a branch: zero past the row's words) */
				uint8_t v = (uint8_t)(p[i] & (0u - (unsigned int)(i < n)));

				fre->uwords[i] = v;
				fre->words[i] = sf_s8(v);
			}
			return (int)total;
		}
		for (i = 0; i < n; i++) {
			fre->uwords[i] = p[i];
			fre->words[i] = sf_s8(p[i]);
		}
		break;
	case 2:
		for (i = 0; i < n; i++) {
			fre->uwords[i] = sf_u16(sec, p + 2 * i);
			fre->words[i] = sf_s16((uint16_t)fre->uwords[i]);
		}
		break;
	default:
		for (i = 0; i < n; i++) {
			fre->uwords[i] = sf_u32(sec, p + (size_t)wb * i);
			fre->words[i] = sf_s32(fre->uwords[i]);
		}
		break;
	}
	for (; i < SFRAME_MAX_WORDS; i++) {
		fre->uwords[i] = 0;
		fre->words[i] = 0;
	}
	return (int)total;
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
	if (left < 2)
		return -SFRAME_ERR_FRE;
	n = left < sizeof(b) ? (size_t)left : sizeof(b);
	ret = sf_read(sec, it->off, b, n, -SFRAME_ERR_FRE);
	if (ret)
		return ret;
	ret = sf_parse_fre(sec, it->fre_type, b, n, fre, 0);
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

/* A stack slot relative to the CFA: value = *(CFA + off). */
static void loc_slot(struct sframe_loc *loc, int32_t off, uint8_t flags)
{
	loc->kind = SFRAME_LOC_CFA;
	loc->deref = true;
	loc->reg = 0;
	loc->offset = off;
	loc->flags = flags;
}

static void loc_same(struct sframe_loc *loc, uint8_t flags)
{
	loc->kind = SFRAME_LOC_SAME;
	loc->deref = false;
	loc->reg = 0;
	loc->offset = 0;
	loc->flags = flags;
}

/* s390x stores CFA offsets as (off - 160) / 8. */
static int cfa_offset(const struct sframe_section *sec, int32_t word, int32_t *off)
{
	int64_t v;

	if (sec->abi != SFRAME_ABI_S390X_BE) {
		*off = word;
		return 0;
	}
	v = (int64_t)word * SFRAME_S390X_CFA_SCALE + SFRAME_S390X_CFA_BIAS;
	if (v > INT32_MAX || v < INT32_MIN)
		return -SFRAME_ERR_WORDS;
	*off = (int32_t)v;
	return 0;
}

/*
 * An RA or FP word of a default FDE. On s390x v2 an odd word names the
 * register holding the value ((regnum << 1) | 1); v3 moved that to FLEX.
 */
static int default_word(const struct sframe_section *sec, int32_t w, struct sframe_loc *loc)
{
	if (sec->abi == SFRAME_ABI_S390X_BE && sec->version == SFRAME_VERSION_2 &&
	    SFRAME_S390X_V2_IS_REGNUM(w)) {
		if (w < 0)
			return -SFRAME_ERR_WORDS;
		loc->kind = SFRAME_LOC_REG;
		loc->deref = false;
		loc->reg = (uint16_t)SFRAME_S390X_V2_REGNUM(w);
		loc->offset = 0;
		loc->flags = SFRAME_LOCF_V2_REGNUM;
		return 0;
	}
	loc_slot(loc, w, 0);
	return 0;
}

static int rules_default(const struct sframe_section *sec, const struct sframe_fre *fre,
			 struct sframe_rules *r, bool check)
{
	unsigned int n = fre->num_words;
	unsigned int max = sec->fixed_ra ? 2 : 3;
	unsigned int fp_idx = sec->fixed_ra ? 1 : 2;
	int ret;

	/* Words are CFA, then RA unless the header fixes it, then FP. */
	if (check && n > max)
		return -SFRAME_ERR_WORDS;
	/* aarch64 saves FP and LR as a pair: never one without the other. */
	if (check && (sec->abi == SFRAME_ABI_AARCH64_BE || sec->abi == SFRAME_ABI_AARCH64_LE) && n == 2)
		return -SFRAME_ERR_WORDS;

	/* SP or FP as the CFA base, selected without a branch (rows mix both). */
	{
		const unsigned int sp = SFRAME_FRE_INFO_BASE_REG(fre->info) == SFRAME_BASE_REG_SP;
		const unsigned int m = 0u - sp;
		const unsigned int spr = (uint16_t)sf_sp_reg(sec->abi);
		const unsigned int fpr = (uint16_t)sf_fp_reg(sec->abi);

		r->cfa.reg = (uint16_t)(fpr ^ ((fpr ^ spr) & m));
		r->cfa.is_sp = sp != 0;
		r->cfa.is_fp = sp == 0;
	}
	ret = cfa_offset(sec, fre->words[0], &r->cfa.offset);
	if (ret)
		return ret;

	if (sec->fixed_ra) {
		loc_slot(&r->ra, sec->fixed_ra, SFRAME_LOCF_FIXED);
	} else if (n >= 2) {
		/* RA word 0 is padding: FP saved, RA still in its register. */
		if (fre->words[1] == 0)
			loc_same(&r->ra, SFRAME_LOCF_PADDING);
		else if ((ret = default_word(sec, fre->words[1], &r->ra)))
			return ret;
	} else {
		loc_same(&r->ra, 0);
	}

	if (sec->fixed_fp) {
		loc_slot(&r->fp, sec->fixed_fp, SFRAME_LOCF_FIXED);
	} else if (sec->abi != SFRAME_ABI_S390X_BE) {
		/*
		 * Saved in a slot or unchanged, chosen without a branch: rows
		 * with and without the FP word alternate unpredictably.
		 */
		const unsigned int m = 0u - (unsigned int)(n > fp_idx);

		r->fp.kind = (uint8_t)(SFRAME_LOC_SAME ^ ((SFRAME_LOC_SAME ^ SFRAME_LOC_CFA) & m));
		r->fp.deref = m != 0;
		r->fp.reg = 0;
		r->fp.offset = sf_s32((uint32_t)fre->words[fp_idx] & m);
		r->fp.flags = 0;
	} else if (n > fp_idx) {
		ret = default_word(sec, fre->words[fp_idx], &r->fp);
	} else {
		loc_same(&r->fp, 0);
	}
	return ret;
}

/* One FLEX (control, offset) pair; control 0 is "no rule". */
static int flex_pair(uint32_t ctrl, int32_t off, struct sframe_loc *loc)
{
	if (SFRAME_FLEX_REGNUM(ctrl) > 0xffff)
		return -SFRAME_ERR_WORDS;
	loc->kind = SFRAME_FLEX_REG_P(ctrl) ? SFRAME_LOC_REG : SFRAME_LOC_CFA;
	loc->reg = SFRAME_FLEX_REG_P(ctrl) ? (uint16_t)SFRAME_FLEX_REGNUM(ctrl) : 0;
	loc->deref = SFRAME_FLEX_DEREF_P(ctrl);
	loc->offset = off;
	loc->flags = 0;
	return 0;
}

/* No rule in the FRE: the header's fixed offset, else unchanged. */
static void flex_default(int8_t fixed, uint8_t flags, struct sframe_loc *loc)
{
	if (fixed)
		loc_slot(loc, fixed, (uint8_t)(flags | SFRAME_LOCF_FIXED));
	else
		loc_same(loc, flags);
}

static int rules_flex(const struct sframe_section *sec, const struct sframe_fre *fre,
		      struct sframe_rules *r, bool check)
{
	unsigned int n = fre->num_words;
	uint32_t ctrl = fre->uwords[0];
	unsigned int fp_at;
	int ret;

	/*
	 * Layouts: CFA pair (2); + RA pair (4); + RA pair + FP pair (6);
	 * + one padding word for RA + FP pair (5). The CFA always names a
	 * register.
	 */
	if (check && n != 2 && n != 4 && n != 5 && n != 6)
		return -SFRAME_ERR_WORDS;
	if (check && (!SFRAME_FLEX_REG_P(ctrl) || SFRAME_FLEX_REGNUM(ctrl) > 0xffff))
		return -SFRAME_ERR_WORDS;
	r->cfa.reg = (uint16_t)SFRAME_FLEX_REGNUM(ctrl);
	r->cfa.deref = SFRAME_FLEX_DEREF_P(ctrl);
	r->cfa.is_sp = r->cfa.reg == sf_sp_reg(sec->abi);
	r->cfa.is_fp = r->cfa.reg == sf_fp_reg(sec->abi);
	ret = cfa_offset(sec, fre->words[1], &r->cfa.offset);
	if (ret)
		return ret;

	fp_at = 0;
	if (n <= 2) {
		flex_default(sec->fixed_ra, 0, &r->ra);
	} else if (n == 5) {
		if (check && fre->uwords[2] != 0)
			return -SFRAME_ERR_WORDS;
		flex_default(sec->fixed_ra, SFRAME_LOCF_PADDING, &r->ra);
		fp_at = 3;
	} else {
		/* A padding word is never followed by an RA offset. */
		if (check && fre->uwords[2] == 0)
			return -SFRAME_ERR_WORDS;
		ret = flex_pair(fre->uwords[2], fre->words[3], &r->ra);
		if (ret)
			return ret;
		if (n == 6)
			fp_at = 4;
	}

	if (!fp_at)
		flex_default(sec->fixed_fp, 0, &r->fp);
	else if (fre->uwords[fp_at] == 0)
		flex_default(sec->fixed_fp, SFRAME_LOCF_PADDING, &r->fp);
	else
		return flex_pair(fre->uwords[fp_at], fre->words[fp_at + 1], &r->fp);
	return 0;
}

/*
 * @assume: SFRAME_ASSUME_VALID_FRES skips the word-count and word-content
 * checks sframe_check() proved; no word outside the decoded six is read.
 */
static int fre_rules(const struct sframe_section *sec, const struct sframe_fde *fde,
		     const struct sframe_fre *fre, struct sframe_rules *rules, unsigned int assume)
{
	const bool check = !(assume & SFRAME_ASSUME_VALID_FRES);
	struct sframe_rules r = { 0 };
	int ret;

	if (!sec || !fde || !fre || !rules || fre->num_words > SFRAME_MAX_WORDS)
		return -SFRAME_ERR_INVAL;

	/* No words: the RA is undefined, this is the outermost frame. */
	if (fre->num_words == 0) {
		r.ra_undefined = true;
		r.ra.kind = SFRAME_LOC_UNDEFINED;
		loc_same(&r.fp, 0);
		*rules = r;
		return 0;
	}
	if (fde->fde_type == SFRAME_FDE_TYPE_FLEX)
		ret = rules_flex(sec, fre, &r, check);
	else
		ret = rules_default(sec, fre, &r, check);
	if (ret)
		return ret;
	/* Only aarch64 signs return addresses; the bit is unused elsewhere. */
	if (sec->abi == SFRAME_ABI_AARCH64_BE || sec->abi == SFRAME_ABI_AARCH64_LE)
		r.ra_mangled = fre->mangled_ra;
	*rules = r;
	return 0;
}

int sframe_fre_rules(const struct sframe_section *sec, const struct sframe_fde *fde,
		     const struct sframe_fre *fre, struct sframe_rules *rules)
{
	return fre_rules(sec, fde, fre, rules, 0);
}

int sf_lookup_rules(const struct sframe_section *sec, const struct sframe_fde *fde,
		    const struct sframe_fre *fre, struct sframe_rules *rules)
{
	return fre_rules(sec, fde, fre, rules, SF_LOOKUP_ASSUME);
}
