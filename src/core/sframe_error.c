/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_error.c - names and messages of the error codes.
 */
#include <sframe/sframe.h>

struct err_text {
	const char *name;
	const char *msg;
};

/*
 * Indexed by code - SFRAME_ERR_BASE, each entry at its code's place whatever
 * the order here, its name spelt from the code's own identifier.
 */
#define SF_ERR(code, msg) [SFRAME_ERR_##code - SFRAME_ERR_BASE] = { "SFRAME_ERR_" #code, msg }

static const struct err_text err_texts[SFRAME_ERR_MAX - SFRAME_ERR_BASE + 1] = {
	SF_ERR(NOT_FOUND, "no SFrame row covers this address"),
	SF_ERR(INVAL, "invalid argument"),
	SF_ERR(BAD_MAGIC, "not an SFrame section (bad magic)"),
	SF_ERR(VERSION, "unsupported SFrame version"),
	SF_ERR(ABI, "unsupported SFrame ABI/architecture"),
	SF_ERR(UNSUPPORTED, "SFrame feature not supported for this version or ABI"),
	SF_ERR(TRUNCATED, "corrupt section: shorter than the SFrame header"),
	SF_ERR(FLAGS, "corrupt header: flags not allowed for this version"),
	SF_ERR(HEADER, "corrupt header: offsets or counts do not fit the section"),
	SF_ERR(FDE, "corrupt FDE: out of bounds or inconsistent"),
	SF_ERR(FDE_ORDER, "corrupt FDEs: flagged sorted but unsorted or overlapping"),
	SF_ERR(FRE_TYPE, "corrupt FDE: invalid FRE type"),
	SF_ERR(FDE_TYPE, "corrupt FDE: unknown FDE type"),
	SF_ERR(REP_SIZE, "corrupt FDE: PCMASK repetition size is zero"),
	SF_ERR(FRE, "corrupt FRE: out of bounds or start offsets out of order"),
	SF_ERR(WORD_SIZE, "corrupt FRE: invalid data-word size"),
	SF_ERR(WORDS, "corrupt FRE: data words invalid for this ABI and FDE type"),
	SF_ERR(FRE_COUNT, "corrupt section: FRE count disagrees with the header"),
	SF_ERR(READ, "memory read failed"),
	SF_ERR(NO_REG, "unwind rule needs a register not known in this frame"),
	SF_ERR(BAD_CFA, "bad CFA: not above the previous frame's, or misaligned"),
	SF_ERR(BAD_RA, "bad return address"),
	SF_ERR(DEPTH, "unwind depth limit reached"),
	SF_ERR(FULL, "module table is full"),
	SF_ERR(OVERLAP, "module overlaps another module"),
	SF_ERR(EMPTY, "no SFrame data: the section is empty"),
	SF_ERR(TRAILING, "corrupt section: bytes after the FRE area are neither padding nor "
	       "another SFrame section"),
	SF_ERR(CONCAT,
	       "not one SFrame section but several back to back (as LLVM lld links them)"),
};

#undef SF_ERR

static const struct err_text *lookup(int err)
{
	const struct err_text *t;

	if (err > -SFRAME_ERR_BASE || err < -SFRAME_ERR_MAX)
		return NULL;
	t = &err_texts[-err - SFRAME_ERR_BASE];
	/* A gap in the table (tests/test_errors.c checks there is none): no text. */
	return t->name ? t : NULL;
}

const char *sframe_strerror(int err)
{
	const struct err_text *t;

	if (err == 0)
		return "success";
	t = lookup(err);
	if (t)
		return t->msg;
	if (err < 0)
		return "memory read failed";
	return "unknown error";
}

const char *sframe_errname(int err)
{
	const struct err_text *t;

	if (err == 0)
		return "SFRAME_OK";
	t = lookup(err);
	if (t)
		return t->name;
	if (err < 0)
		return "READ_CALLBACK";
	return "UNKNOWN";
}
