/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_error.c - names and messages of the error codes.
 */
#include <sframe/sframe.h>

struct err_text {
	const char *name;
	const char *msg;
};

/* Indexed by code - SFRAME_ERR_BASE. */
static const struct err_text err_texts[SFRAME_ERR_MAX - SFRAME_ERR_BASE + 1] = {
	{ "SFRAME_ERR_NOT_FOUND", "no SFrame row covers this address" },
	{ "SFRAME_ERR_INVAL", "invalid argument" },
	{ "SFRAME_ERR_BAD_MAGIC", "not an SFrame section (bad magic)" },
	{ "SFRAME_ERR_VERSION", "unsupported SFrame version" },
	{ "SFRAME_ERR_ABI", "unsupported SFrame ABI/architecture" },
	{ "SFRAME_ERR_UNSUPPORTED", "SFrame feature not supported for this version or ABI" },
	{ "SFRAME_ERR_TRUNCATED", "corrupt section: shorter than the SFrame header" },
	{ "SFRAME_ERR_FLAGS", "corrupt header: flags not allowed for this version" },
	{ "SFRAME_ERR_HEADER", "corrupt header: offsets or counts do not fit the section" },
	{ "SFRAME_ERR_FDE", "corrupt FDE: out of bounds or inconsistent" },
	{ "SFRAME_ERR_FDE_ORDER", "corrupt FDEs: flagged sorted but unsorted or overlapping" },
	{ "SFRAME_ERR_FRE_TYPE", "corrupt FDE: invalid FRE type" },
	{ "SFRAME_ERR_FDE_TYPE", "corrupt FDE: unknown FDE type" },
	{ "SFRAME_ERR_REP_SIZE", "corrupt FDE: PCMASK repetition size is zero" },
	{ "SFRAME_ERR_FRE", "corrupt FRE: out of bounds or start offsets out of order" },
	{ "SFRAME_ERR_WORD_SIZE", "corrupt FRE: invalid data-word size" },
	{ "SFRAME_ERR_WORDS", "corrupt FRE: data words invalid for this ABI and FDE type" },
	{ "SFRAME_ERR_FRE_COUNT", "corrupt section: FRE count disagrees with the header" },
	{ "SFRAME_ERR_READ", "memory read failed" },
	{ "SFRAME_ERR_NO_REG", "unwind rule needs a register not known in this frame" },
	{ "SFRAME_ERR_BAD_CFA", "bad CFA: not above the previous frame's, or misaligned" },
	{ "SFRAME_ERR_BAD_RA", "bad return address" },
	{ "SFRAME_ERR_DEPTH", "unwind depth limit reached" },
	{ "SFRAME_ERR_FULL", "module table is full" },
	{ "SFRAME_ERR_OVERLAP", "module overlaps another module" },
	{ "SFRAME_ERR_EMPTY", "no SFrame data: the section is empty" },
	{ "SFRAME_ERR_TRAILING", "corrupt section: bytes after the FRE area are neither padding nor another SFrame section" },
	{ "SFRAME_ERR_CONCAT", "not one SFrame section but several back to back (as LLVM lld links them)" },
};

static const struct err_text *lookup(int err)
{
	if (err <= -SFRAME_ERR_BASE && err >= -SFRAME_ERR_MAX)
		return &err_texts[-err - SFRAME_ERR_BASE];
	return NULL;
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
