/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_decode.h - decoders of one FDE, one FRE and one row's rules;
 * internal, not installed. sframe_decode.c holds what only the public API
 * and the rarer rows run (2- and 4-byte words, FLEX rules); here are the
 * three decoders a lookup runs every time, inline because a measured
 * lookup said a call costs too much (each says what it cost).
 * One implementation serves both: a lookup and sframe_get_fde() or
 * sframe_fre_rules() cannot disagree.
 */
#ifndef SFRAME_DECODE_H
#define SFRAME_DECODE_H

#include "sframe_internal.h"

/*
 * The FDE index entry: start, size and FRE offset, the first fields of an
 * FDE in every version (the whole of a v3 one), decoded from the entry's
 * bytes @e by these three alone. @v3 and @be are the section's version and
 * byte order: run-time values, or constants for a caller that wants a copy
 * of its own per layout.
 */

/* The stored start, sign-extended: v3 stores 64 bits, v1 and v2 32. */
static SFRAME_ALWAYS_INLINE int64_t sf_entry_start(const uint8_t *e, bool v3, bool be)
{
	if (v3)
		return sf_s64(sf_load64(e, be));
	return sf_s32(sf_load32(e, be));
}

static inline uint32_t sf_entry_size(const uint8_t *e, bool v3, bool be)
{
	return sf_load32(e + (v3 ? SFRAME_V3_FDE_SIZE_FIELD : SFRAME_V12_FDE_SIZE_FIELD), be);
}

static inline uint32_t sf_entry_fre_off(const uint8_t *e, bool v3, bool be)
{
	return sf_load32(e + (v3 ? SFRAME_V3_FDE_FRE_OFF : SFRAME_V12_FDE_FRE_OFF), be);
}

/*
 * Bytes of an entry up to the end of its size field, where its FRE offset
 * begins: all a search reads.
 */
#define SF_ENTRY_KEY_BYTES(v3) ((v3) ? SFRAME_V3_FDE_FRE_OFF : SFRAME_V12_FDE_FRE_OFF)

/*
 * The stored start is relative to the section start, or, with the PCREL
 * flag, to the start field itself. Either way, convert it to an offset from
 * the section start. A v3 start is 64 bits wide, so adding the field's
 * offset can overflow: such a section is corrupt, not something to wrap.
 */
static inline int sf_fde_offset(const struct sframe_section *sec, int64_t field, uint64_t field_off,
				int64_t *offset)
{
	if (!(sec->flags & SFRAME_F_FDE_FUNC_START_PCREL)) {
		*offset = field;
		return 0;
	}
	/* field_off < 2^33, far below INT64_MAX. */
	if (field > SFRAME_INT64_MAX - (int64_t)field_off)
		return -SFRAME_ERR_FDE;
	*offset = field + (int64_t)field_off;
	return 0;
}

/* The rest of an FDE, past its index entry, as sf_decode_fde() needs it. */
struct sf_fde_tail {
	uint64_t run;		/* its first FRE, from the FRE area's start */
	uint32_t num_fres;
	unsigned int info, info2, rep_size;
};

/*
 * v3 keeps the rest in an attribute record at @fre_off, ahead of the
 * function's FREs; it must lie inside the FRE area.
 */
static inline int sf_fde_tail_v3(const struct sframe_section *sec, uint32_t fre_off, bool check,
				 struct sf_fde_tail *t)
{
	uint8_t atmp[SFRAME_V3_FDE_ATTR_SIZE];
	const uint8_t *a;
	int ret;

	if (check && (fre_off > sec->fre_len || SFRAME_V3_FDE_ATTR_SIZE > sec->fre_len - fre_off))
		return -SFRAME_ERR_FDE;
	ret = sf_view(sec, sec->fre_start + fre_off, sizeof(atmp), atmp, -SFRAME_ERR_FDE, &a);
	if (ret)
		return ret;
	t->num_fres = sf_u16(sec, a + SFRAME_V3_ATTR_NUM_FRES);
	t->info = a[SFRAME_V3_ATTR_INFO];
	t->info2 = a[SFRAME_V3_ATTR_INFO2];
	t->rep_size = a[SFRAME_V3_ATTR_REP_SIZE];
	t->run = (uint64_t)fre_off + SFRAME_V3_FDE_ATTR_SIZE;
	return 0;
}

/*
 * v1 and v2 carry it in the FDE itself, after the index entry. (Inline
 * although a v3 lookup never runs it: a call in sf_decode_fde() cost a v3
 * lookup 4%, 42.7 ns against 41.2, for the registers sframe_lookup() then
 * saves.)
 */
static inline void sf_fde_tail_v12(const struct sframe_section *sec, const uint8_t *b,
				   uint32_t fre_off, struct sf_fde_tail *t)
{
	t->num_fres = sf_u32(sec, b + SFRAME_V12_FDE_NUM_FRES);
	t->info = b[SFRAME_V12_FDE_INFO];
	t->info2 = 0;
	t->rep_size = sec->version == SFRAME_VERSION_2 ? b[SFRAME_V2_FDE_REP_SIZE] : 0;
	t->run = fre_off;
}

/*
 * The checks on the rest that sframe_check() proves (@check false: the
 * assume mask skips them).
 */
static inline int sf_fde_tail_check(const struct sframe_section *sec, const struct sf_fde_tail *t)
{
	/*
	 * Each FRE takes at least two bytes: a function claiming more FREs than
	 * its remaining area can hold is corrupt. This bounds every FRE loop
	 * by the section size as well as by the count.
	 */
	if (t->run > sec->fre_len || (uint64_t)t->num_fres * SF_FRE_MIN_BYTES > sec->fre_len - t->run)
		return -SFRAME_ERR_FDE;
	/* (sf_decode_fre() refuses types 3..15 whatever the assume mask.) */
	if (SFRAME_INFO_FRE_TYPE(t->info) > SFRAME_FRE_TYPE_ADDR4)
		return -SFRAME_ERR_FRE_TYPE;
	/*
	 * Any ABI may carry FLEX FDEs (gas writes them for amd64 and s390x
	 * only, but the format ties no FDE type to an ABI); what a rule needs
	 * that the ABI cannot give fails the unwinding step that uses it, not
	 * the decoding.
	 */
	if (sec->version == SFRAME_VERSION_3 && SFRAME_INFO2_FDE_TYPE(t->info2) > SFRAME_FDE_TYPE_FLEX)
		return -SFRAME_ERR_FDE_TYPE;
	return 0;
}

/*
 * sf_decode_fde()'s fields from the FDE's tail @t, set field by field once
 * every check passed (@fde is left alone on an error; a structure built
 * aside and copied costs a lookup more).
 */
static inline void sf_fde_tail_fields(const struct sframe_section *sec, const struct sf_fde_tail *t,
				      bool v3, struct sframe_fde *fde)
{
	fde->fres_off = sec->fre_start + t->run;
	fde->num_fres = t->num_fres;
	fde->info = (uint8_t)t->info;
	fde->info2 = (uint8_t)t->info2;
	fde->rep_size = (uint8_t)t->rep_size;
	fde->fre_type = (uint8_t)SFRAME_INFO_FRE_TYPE(t->info);
	fde->pc_type = (uint8_t)SFRAME_INFO_PC_TYPE(t->info);
	fde->fde_type = (uint8_t)(v3 ? SFRAME_INFO2_FDE_TYPE(t->info2) : SFRAME_FDE_TYPE_DEFAULT);
	fde->pauth_key = (uint8_t)SFRAME_INFO_PAUTH_KEY(t->info);
	/* (Bit 7 of a v1/v2 info byte is unused.) */
	fde->signal = v3 && SFRAME_INFO_SIGNAL(t->info);
	fde->rowless = !v3 || t->num_fres ? SFRAME_ROWLESS_NONE :
		       fde->signal ? SFRAME_ROWLESS_SIGNAL : SFRAME_ROWLESS_OUTERMOST;
}

/*
 * @assume: SFRAME_ASSUME_VALID_FDES skips the checks sframe_check() proved
 * (attribute record and FRE run inside the FRE area, FRE type, FDE type);
 * the reads stay bounds-checked and no arithmetic can overflow. (Inline:
 * out of line, a lookup took 12% longer, 45.5 ns against 40.5.)
 */
static SFRAME_ALWAYS_INLINE int sf_decode_fde(const struct sframe_section *sec, uint32_t index,
					      struct sframe_fde *fde, unsigned int assume)
{
	const bool check = !(assume & SFRAME_ASSUME_VALID_FDES);
	uint8_t tmp[SFRAME_V2_FDE_SIZE];
	struct sf_fde_tail t;
	const uint8_t *b;
	uint64_t off;
	int64_t start_field, func_offset;
	uint32_t fre_off, func_size;
	bool v3;
	int ret;

	if (!sec || !fde || index >= sec->num_fdes)
		return -SFRAME_ERR_INVAL;
	off = sec->fde_start + (uint64_t)index * sec->fde_size;
	ret = sf_view(sec, off, sec->fde_size, tmp, -SFRAME_ERR_FDE, &b);
	if (ret)
		return ret;
	v3 = sec->version == SFRAME_VERSION_3;
	start_field = sf_entry_start(b, v3, sec->big_endian);
	func_size = sf_entry_size(b, v3, sec->big_endian);
	fre_off = sf_entry_fre_off(b, v3, sec->big_endian);
	if (v3) {
		ret = sf_fde_tail_v3(sec, fre_off, check, &t);
		if (ret)
			return ret;
	} else {
		sf_fde_tail_v12(sec, b, fre_off, &t);
	}
	if (check && (ret = sf_fde_tail_check(sec, &t)))
		return ret;

	ret = sf_fde_offset(sec, start_field, off + SFRAME_FDE_START, &func_offset);
	if (ret)
		return ret;
	/* The offset range may not overflow (see func_start below). */
	if (func_size && func_offset > SFRAME_INT64_MAX - (int64_t)(func_size - 1))
		return -SFRAME_ERR_FDE;

	fde->index = index;
	/*
	 * The run-time address is vaddr + offset modulo 2^64: a raw section
	 * opened at the wrong vaddr (0 by default) has functions "below" it,
	 * and must still dump. Lookups never wrap (sframe_lookup() checks
	 * containment on addresses).
	 */
	fde->func_start = sec->vaddr + (uint64_t)func_offset;
	fde->func_offset = func_offset;
	fde->func_size = func_size;
	fde->start_field = start_field;
	fde->start_field_off = off + SFRAME_FDE_START;
	sf_fde_tail_fields(sec, &t, v3, fde);
	return 0;
}

/*
 * sf_fre_head() - the one parser of an FRE's header (start offset, info
 * byte): the FRE of type @fre_type (ADDR1 .. ADDR4, checked by the caller)
 * at @p, with @avail bytes from @p on. Stores its start in *@start and its
 * info byte in *@info, and returns its encoded size (> 0). Returns 0 when
 * the start lies past @limit, before the rest is looked at: a scan for a
 * row ends there, whatever the rest of that FRE holds (a damaged row fails
 * only the lookups that select it or scan past it). Else -SFRAME_ERR_FRE
 * when the FRE runs past @avail, and, unless @assume has
 * SFRAME_ASSUME_VALID_FRES, -SFRAME_ERR_WORD_SIZE or -SFRAME_ERR_WORDS.
 */
static SFRAME_ALWAYS_INLINE int sf_fre_head(const struct sframe_section *sec,
					    unsigned int fre_type, const uint8_t *p, size_t avail,
					    uint32_t limit, uint32_t *start, unsigned int *info,
					    unsigned int assume)
{
	const bool check = !(assume & SFRAME_ASSUME_VALID_FRES);
	const unsigned int sb = SFRAME_FRE_START_BYTES(fre_type);
	unsigned int n, code;
	size_t size;

	if (SFRAME_UNLIKELY(avail < sb + 1))
		return -SFRAME_ERR_FRE;
	if (fre_type == SFRAME_FRE_TYPE_ADDR1)
		*start = p[0];
	else if (fre_type == SFRAME_FRE_TYPE_ADDR2)
		*start = sf_u16(sec, p);
	else
		*start = sf_u32(sec, p);
	if (*start > limit)
		return 0;
	*info = p[sb];
	n = SFRAME_FRE_INFO_NUM_WORDS(*info);
	code = SFRAME_FRE_INFO_WORD_SIZE(*info);
	/* Refused rather than given a guessed width. */
	if (check && code == SFRAME_WORD_SIZE_UNDEFINED)
		return -SFRAME_ERR_WORD_SIZE;
	/*
	 * n * SFRAME_WORD_BYTES(code), as a shift: a scan's next FRE waits
	 * for this size, and compilers emit a multiply for the product.
	 * (Under the assume mask, the undefined code reads as 8 bytes a word.)
	 */
	size = sb + 1 + ((size_t)n << code);
	/*
	 * No ABI or FDE type uses more than six words; refusing more here keeps
	 * the decoded row fixed-size (libsframe overflows its buffer instead).
	 * Without the check (assume mask) words past the sixth are not stored,
	 * and sframe_lookup()'s rule decoding refuses the row.
	 */
	if (check && SFRAME_UNLIKELY(n > SFRAME_MAX_WORDS))
		return -SFRAME_ERR_WORDS;
	if (SFRAME_UNLIKELY(size > avail))
		return -SFRAME_ERR_FRE;
	return (int)size;
}

/*
 * Word @i of a row of @n 1-byte words at @p, zero past the row's words by a
 * mask rather than a branch (the count differs from row to row). Written
 * out once per word (no loop): the six are independent.
 */
static inline void sf_word1(struct sframe_fre *fre, const uint8_t *p, unsigned int n,
			    unsigned int i)
{
	uint8_t v = (uint8_t)(p[i] & (0u - (unsigned int)(i < n)));

	fre->words[i] = sf_s8(v);
}

/*
 * The words of a row other than six readable 1-byte ones (wider words, or
 * a row near the end of the area), zero past them: sframe_decode.c.
 */
void sf_fre_words_rest(const struct sframe_section *sec, struct sframe_fre *fre, const uint8_t *p,
		       unsigned int n, unsigned int wb);

/*
 * The @n words of @wb bytes at @p (@avail bytes there, all of them when
 * the words are 1 byte: the decoder may read ahead), zero past them.
 */
static SFRAME_ALWAYS_INLINE void sf_fre_words(const struct sframe_section *sec,
					      struct sframe_fre *fre, const uint8_t *p,
					      size_t avail, unsigned int n, unsigned int wb)
{
	if (n > SFRAME_MAX_WORDS)
		n = SFRAME_MAX_WORDS;	/* (only with the assume mask; see sf_fre_head()) */
	if (wb == 1 && avail >= SFRAME_MAX_WORDS) {
		/*
		 * The common case, without a branch on the word count (which
		 * differs from row to row): all six bytes are there to read,
		 * and the words past the row's are zero.
		 */
		sf_word1(fre, p, n, 0);
		sf_word1(fre, p, n, 1);
		sf_word1(fre, p, n, 2);
		sf_word1(fre, p, n, 3);
		sf_word1(fre, p, n, 4);
		sf_word1(fre, p, n, 5);
		return;
	}
	sf_fre_words_rest(sec, fre, p, n, wb);
}

/*
 * sf_decode_fre() - decode one FRE from @avail bytes at @p.
 * Returns its encoded size (> 0), or -SFRAME_ERR_FRE when it runs past
 * @avail, -SFRAME_ERR_FRE_TYPE, -SFRAME_ERR_WORD_SIZE or -SFRAME_ERR_WORDS.
 * @assume: SFRAME_ASSUME_* bits whose checks are skipped (0: check all).
 * (Inline: out of line, a lookup took 5% longer, 42.6 ns against 40.5.)
 */
static SFRAME_ALWAYS_INLINE int sf_decode_fre(const struct sframe_section *sec,
					      unsigned int fre_type, const uint8_t *p, size_t avail,
					      struct sframe_fre *fre, unsigned int assume)
{
	unsigned int info = 0, sb, code;
	uint32_t start = 0;
	int size;

	if (fre_type > SFRAME_FRE_TYPE_ADDR4)
		return -SFRAME_ERR_FRE_TYPE;
	/* (No start lies past the largest limit: 0 is not returned.) */
	size = sf_fre_head(sec, fre_type, p, avail, SFRAME_UINT32_MAX, &start, &info, assume);
	if (size < 0)
		return size;
	sb = SFRAME_FRE_START_BYTES(fre_type);
	code = SFRAME_FRE_INFO_WORD_SIZE(info);
	fre->start = start;
	fre->info = (uint8_t)info;
	fre->num_words = (uint8_t)SFRAME_FRE_INFO_NUM_WORDS(info);
	fre->word_bytes = (uint8_t)SFRAME_WORD_BYTES(code);
	fre->size = (uint8_t)size;
	fre->mangled_ra = SFRAME_FRE_INFO_MANGLED_RA(info);
	sf_fre_words(sec, fre, p + sb + 1, avail - (sb + 1), fre->num_words, SFRAME_WORD_BYTES(code));
	return size;
}

/* A stack slot relative to the CFA: value = *(CFA + off). */
static inline void sf_loc_slot(struct sframe_loc *loc, int32_t off)
{
	loc->kind = SFRAME_LOC_CFA;
	loc->deref = true;
	loc->reg = 0;
	loc->offset = off;
}

static inline void sf_loc_same(struct sframe_loc *loc)
{
	loc->kind = SFRAME_LOC_SAME;
	loc->deref = false;
	loc->reg = 0;
	loc->offset = 0;
}

/* s390x stores CFA offsets as (off - 160) / 8. */
static inline int sf_cfa_offset(const struct sframe_section *sec, int32_t word, int32_t *off)
{
	int64_t v;

	if (sec->abi != SFRAME_ABI_S390X_BE) {
		*off = word;
		return 0;
	}
	v = (int64_t)word * SFRAME_S390X_CFA_SCALE + SFRAME_S390X_CFA_BIAS;
	if (v > SFRAME_INT32_MAX || v < SFRAME_INT32_MIN)
		return -SFRAME_ERR_WORDS;
	*off = (int32_t)v;
	return 0;
}

/*
 * An RA or FP word of a default FDE. On s390x v2 an odd word names the
 * register holding the value ((regnum << 1) | 1); v3 moved that to FLEX.
 */
static inline int sf_default_word(const struct sframe_section *sec, int32_t w, struct sframe_loc *loc)
{
	if (sec->abi == SFRAME_ABI_S390X_BE && sec->version == SFRAME_VERSION_2 &&
	    SFRAME_S390X_V2_IS_REGNUM(w)) {
		if (w < 0)
			return -SFRAME_ERR_WORDS;
		loc->kind = SFRAME_LOC_REG;
		loc->deref = false;
		loc->reg = (uint32_t)SFRAME_S390X_V2_REGNUM(w);
		loc->offset = 0;
		return 0;
	}
	sf_loc_slot(loc, w);
	return 0;
}

static inline int sf_rules_default(const struct sframe_section *sec, const struct sframe_fre *fre,
				   struct sframe_rules *r, bool check)
{
	unsigned int n = fre->num_words;
	unsigned int max = sec->fixed_ra ? 2 : 3;
	unsigned int fp_idx = sec->fixed_ra ? 1 : 2;
	int ret;

	/* Words are CFA, then RA unless the header fixes it, then FP. */
	if (check && n > max)
		return -SFRAME_ERR_WORDS;

	/* SP or FP as the CFA base, selected without a branch (rows mix both). */
	{
		const unsigned int sp = SFRAME_FRE_INFO_BASE_REG(fre->info) == SFRAME_BASE_REG_SP;
		const unsigned int m = 0u - sp;
		const uint32_t spr = (uint32_t)sf_sp_reg(sec->abi);
		const uint32_t fpr = (uint32_t)sf_fp_reg(sec->abi);

		r->cfa.reg = fpr ^ ((fpr ^ spr) & m);
	}
	ret = sf_cfa_offset(sec, fre->words[0], &r->cfa.offset);
	if (ret)
		return ret;

	if (sec->fixed_ra) {
		sf_loc_slot(&r->ra, sec->fixed_ra);
	} else if (n >= 2) {
		/* RA word 0 is padding: FP saved, RA still in its register. */
		if (fre->words[1] == 0)
			sf_loc_same(&r->ra);
		else if ((ret = sf_default_word(sec, fre->words[1], &r->ra)))
			return ret;
	} else {
		sf_loc_same(&r->ra);
	}

	if (sec->fixed_fp) {
		sf_loc_slot(&r->fp, sec->fixed_fp);
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
	} else if (n > fp_idx) {
		ret = sf_default_word(sec, fre->words[fp_idx], &r->fp);
	} else {
		sf_loc_same(&r->fp);
	}
	return ret;
}

/*
 * Words are entities in the order CFA, RA, FP (sframe_format.h): the CFA
 * pair, then for RA and FP each a pair, one padding word 0, or nothing
 * once the row has ended. So the rows are [C c], [C c 0], [C c 0 0],
 * [C c 0 F f], [C c R r], [C c R r 0] and [C c R r F f] (control words R
 * and F not 0). gas writes the 2-, 4-, 5- (padding then FP) and 6-word
 * ones; the others follow from the same rule. Words left over after the
 * FP entity are refused: no entity follows FP.
 */
int sf_rules_flex(const struct sframe_section *sec, const struct sframe_fre *fre,
		  struct sframe_rules *r, bool check);

/*
 * @assume: SFRAME_ASSUME_VALID_FRES skips the word-count and word-content
 * checks sframe_check() proved; no word outside the decoded six is read.
 * (Inline: out of line, a lookup took 6% longer, 43.0 ns against 40.5.)
 */
static SFRAME_ALWAYS_INLINE int sf_decode_rules(const struct sframe_section *sec,
						const struct sframe_fde *fde,
						const struct sframe_fre *fre,
						struct sframe_rules *rules, unsigned int assume)
{
	const bool check = !(assume & SFRAME_ASSUME_VALID_FRES);
	struct sframe_rules *r = rules;
	int ret;

	if (!sec || !fde || !fre || !rules || fre->num_words > SFRAME_MAX_WORDS)
		return -SFRAME_ERR_INVAL;
	/* Filled in place (on an error the contents are unspecified). */
	*r = (struct sframe_rules){ 0 };
	r->signal = fde->signal;

	/* No words: the RA is undefined, this is the outermost frame. */
	if (fre->num_words == 0) {
		r->ra_undefined = true;
		r->ra.kind = SFRAME_LOC_UNDEFINED;
		sf_loc_same(&r->fp);
		return 0;
	}
	if (fde->fde_type == SFRAME_FDE_TYPE_FLEX)
		ret = sf_rules_flex(sec, fre, r, check);
	else
		ret = sf_rules_default(sec, fre, r, check);
	if (ret)
		return ret;
	/* Only aarch64 signs return addresses; the bit is unused elsewhere. */
	if (sec->abi == SFRAME_ABI_AARCH64_BE || sec->abi == SFRAME_ABI_AARCH64_LE)
		r->ra_mangled = fre->mangled_ra;
	return 0;
}

#endif /* SFRAME_DECODE_H */
