/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * format_row.h - the text objdump --sframe prints for one row (hosted tool).
 *
 * A row has three columns, CFA, FP and RA, in the notation of binutils'
 * dump: "sp+16" (CFA = SP + 16), "c-16" (saved at CFA - 16), "u" (not
 * saved: unchanged), "f" (at the header's fixed RA offset), "U" (RA not
 * saved, explicitly), "r10+0" / "(fp+0)" (v3 FLEX: register based, with or
 * without dereference), "[s]" after the RA when it is PAuth-signed; or the
 * single text "RA undefined" for the outermost frame.
 */
#ifndef SFRAME_TOOL_FORMAT_ROW_H
#define SFRAME_TOOL_FORMAT_ROW_H

#include <stdbool.h>
#include <stdio.h>

#include <sframe/sframe.h>

/* Large enough for the longest column, "(r536870911-2147483648)". */
#define SF_COLUMN_MAX 32

/**
 * struct sf_row_text - one row's columns.
 * @ra_undefined: the outermost frame; nothing else is set.
 * @ra_mangled: the RA carries a PAuth signature ("[s]").
 * @cfa: CFA column.
 * @fp: FP column.
 * @ra: RA column, without the "[s]" mark.
 */
struct sf_row_text {
	bool ra_undefined;
	bool ra_mangled;
	char cfa[SF_COLUMN_MAX];
	char fp[SF_COLUMN_MAX];
	char ra[SF_COLUMN_MAX];
};

/**
 * sf_format_row() - the columns of @fre as objdump --sframe shows them.
 * @sec: the section (version, ABI, fixed offsets).
 * @fde: the row's function (DEFAULT or FLEX).
 * @fre: the row.
 * @out: filled.
 */
void sf_format_row(const struct sframe_section *sec, const struct sframe_fde *fde,
		   const struct sframe_fre *fre, struct sf_row_text *out);

/**
 * sf_print_row_dump() - print the columns in objdump's fixed-width layout,
 * "  CFA       FP        RA           " (no newline).
 * @f: output.
 * @t: the row.
 */
void sf_print_row_dump(FILE *f, const struct sf_row_text *t);

/**
 * sf_print_row_compact() - print the columns separated by single spaces,
 * "sp+16 c-16 c-8[s]" or "RA undefined" (no newline).
 * @f: output.
 * @t: the row.
 */
void sf_print_row_compact(FILE *f, const struct sf_row_text *t);

#endif /* SFRAME_TOOL_FORMAT_ROW_H */
