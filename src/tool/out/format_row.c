/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * format_row.c - the text objdump --sframe prints for one row.
 *
 * This formats the raw data words, not the decoded rules of
 * sframe_fre_rules(): the dump must show what the section says, including
 * rows the rule decoder would refuse, exactly as binutils shows them.
 */
#include "out/format_row.h"

#include <inttypes.h>
#include <stdio.h>

/*
 * s390x stores CFA offsets as (offset - 160) / 8. The sum is done modulo
 * 2^32, as binutils' 32-bit arithmetic does, but without signed overflow.
 */
static int32_t cfa_offset(const struct sframe_section *sec, int32_t word)
{
	if (sec->abi == SFRAME_ABI_S390X_BE)
		return (int32_t)((uint32_t)word * SFRAME_S390X_CFA_SCALE +
				 SFRAME_S390X_CFA_BIAS);
	return word;
}

/* s390x v2 only: an odd RA/FP word holds a register number, not an offset. */
static bool s390x_v2_regnum(const struct sframe_section *sec, int32_t word)
{
	return sec->abi == SFRAME_ABI_S390X_BE && sec->version == SFRAME_VERSION_2 &&
	       SFRAME_S390X_V2_IS_REGNUM(word);
}

/* A default-FDE RA or FP slot: "c-16", or "r14" for the s390x v2 encoding. */
static void slot_text(char *buf, const struct sframe_section *sec, int32_t word)
{
	if (s390x_v2_regnum(sec, word))
		snprintf(buf, SF_COLUMN_MAX, "r%d", SFRAME_S390X_V2_REGNUM(word));
	else
		snprintf(buf, SF_COLUMN_MAX, "c%+d", word);
}

static void format_default(const struct sframe_section *sec, const struct sframe_fre *fre,
			   struct sf_row_text *out)
{
	unsigned n = fre->num_words;
	unsigned fp_idx = sec->fixed_ra != 0 ? 1 : 2;

	snprintf(out->cfa, SF_COLUMN_MAX, "%s+%d",
		 SFRAME_FRE_INFO_BASE_REG(fre->info) == SFRAME_BASE_REG_SP ? "sp" : "fp",
		 cfa_offset(sec, fre->words[0]));

	if (sec->fixed_fp != 0)
		snprintf(out->fp, SF_COLUMN_MAX, "c%+d", sec->fixed_fp);
	else if (n > fp_idx)
		slot_text(out->fp, sec, fre->words[fp_idx]);
	else
		snprintf(out->fp, SF_COLUMN_MAX, "u");

	if (sec->fixed_ra != 0)
		snprintf(out->ra, SF_COLUMN_MAX, "f");
	else if (n > 1 && fre->words[1] == 0)
		snprintf(out->ra, SF_COLUMN_MAX, "U");	/* padding: RA not saved */
	else if (n > 1)
		slot_text(out->ra, sec, fre->words[1]);
	else
		snprintf(out->ra, SF_COLUMN_MAX, "u");
}

/*
 * A FLEX location: "c-16", "r10+0", "(fp-40)". As objdump shows them, the
 * dereference mark goes with register-based rules only: a CFA-based rule
 * reads like a default row's "c-16" (a stack slot), whatever its deref bit.
 */
static void flex_text(char *buf, const struct sframe_section *sec, uint32_t ctrl,
		      int32_t offset)
{
	bool reg_p = SFRAME_FLEX_REG_P(ctrl);
	bool deref = SFRAME_FLEX_DEREF_P(ctrl);
	uint32_t regnum = SFRAME_FLEX_REGNUM(ctrl);
	char name[16];

	if (!reg_p) {
		snprintf(name, sizeof(name), "c");
		deref = false;
	} else if ((int64_t)regnum == sframe_abi_sp_reg(sec->abi)) {
		snprintf(name, sizeof(name), "sp");
	} else if ((int64_t)regnum == sframe_abi_fp_reg(sec->abi)) {
		snprintf(name, sizeof(name), "fp");
	} else {
		snprintf(name, sizeof(name), "r%" PRIu32, regnum);
	}
	snprintf(buf, SF_COLUMN_MAX, deref ? "(%s%+d)" : "%s%+d", name, offset);
}

/*
 * FLEX words are (control, offset) pairs for CFA, RA and FP. A lone RA
 * control word of 0 is padding ("no RA rule"), and shifts the FP pair down
 * by one word. objdump reads each word at its position and prints what it
 * finds, also in rows the library refuses: an RA control word without its
 * offset word gets the header's fixed RA offset, else -1 (libsframe's error
 * value); an FP offset word after an FP control word of 0 is shown.
 */
static void format_flex(const struct sframe_section *sec, const struct sframe_fre *fre,
			struct sf_row_text *out)
{
	unsigned n = fre->num_words;
	bool ra_ctrl_p = n > 2, fp_ctrl_p, fp_off_p;
	uint32_t ra_ctrl = ra_ctrl_p ? sframe_fre_uword(fre, 2) : 0;
	int32_t ra_off = n > 3 ? fre->words[3] : sec->fixed_ra != 0 ? sec->fixed_ra : -1;
	unsigned fp_idx = ra_ctrl_p && ra_ctrl == 0 ? 3 : 4;
	int32_t fp_off = 0;

	flex_text(out->cfa, sec, sframe_fre_uword(fre, 0), cfa_offset(sec, n > 1 ? fre->words[1] : 0));

	fp_ctrl_p = n > fp_idx;
	fp_off_p = n > fp_idx + 1;
	if (fp_off_p) {
		fp_off = fre->words[fp_idx + 1];
	} else if (sec->fixed_fp != 0) {
		fp_off = sec->fixed_fp;
		fp_off_p = true;
	}
	if (fp_ctrl_p && fp_off_p)
		flex_text(out->fp, sec, sframe_fre_uword(fre, fp_idx), fp_off);
	else
		snprintf(out->fp, SF_COLUMN_MAX, "u");

	if (!ra_ctrl_p)
		snprintf(out->ra, SF_COLUMN_MAX, "%s", sec->fixed_ra != 0 ? "f" : "u");
	else if (ra_ctrl == 0)
		snprintf(out->ra, SF_COLUMN_MAX, "U");
	else
		flex_text(out->ra, sec, ra_ctrl, ra_off);
}

void sf_format_row(const struct sframe_section *sec, const struct sframe_fde *fde,
		   const struct sframe_fre *fre, struct sf_row_text *out)
{
	out->cfa[0] = out->fp[0] = out->ra[0] = '\0';
	out->ra_undefined = fre->num_words == 0;
	out->ra_mangled = SFRAME_FRE_INFO_MANGLED_RA(fre->info) != 0;
	if (out->ra_undefined)
		return;
	if (fde->fde_type == SFRAME_FDE_TYPE_FLEX)
		format_flex(sec, fre, out);
	else
		format_default(sec, fre, out);
}

void sf_print_row_dump(FILE *f, const struct sf_row_text *t)
{
	char ra[SF_COLUMN_MAX + 4];

	if (t->ra_undefined) {
		fputs("  RA undefined", f);
		return;
	}
	snprintf(ra, sizeof(ra), "%s%s", t->ra, t->ra_mangled ? "[s]" : "   ");
	fprintf(f, "  %-10s%-10s%-13s", t->cfa, t->fp, ra);
}

void sf_print_row_compact(FILE *f, const struct sf_row_text *t)
{
	if (t->ra_undefined) {
		fputs("RA undefined", f);
		return;
	}
	fprintf(f, "%s %s %s%s", t->cfa, t->fp, t->ra, t->ra_mangled ? "[s]" : "");
}
