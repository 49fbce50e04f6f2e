/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/* fuzz_errors.c - classes of error codes (fuzz_errors.h). */
#include <sframe/sframe.h>

#include "fuzz_errors.h"
/*
 * tests/lookup_errors.h, found through the helper library's include path
 * (fuzz/meson.build): one list for the tests and the fuzz targets.
 */
#include "lookup_errors.h"

bool fz_section_err(int err)
{
	switch (-err) {
	case SFRAME_ERR_BAD_MAGIC:
	case SFRAME_ERR_VERSION:
	case SFRAME_ERR_ABI:
	case SFRAME_ERR_UNSUPPORTED:
	case SFRAME_ERR_TRUNCATED:
	case SFRAME_ERR_FLAGS:
	case SFRAME_ERR_HEADER:
	case SFRAME_ERR_FDE:
	case SFRAME_ERR_FDE_ORDER:
	case SFRAME_ERR_FRE_TYPE:
	case SFRAME_ERR_FDE_TYPE:
	case SFRAME_ERR_REP_SIZE:
	case SFRAME_ERR_FRE:
	case SFRAME_ERR_WORD_SIZE:
	case SFRAME_ERR_WORDS:
	case SFRAME_ERR_FRE_COUNT:
	case SFRAME_ERR_TRAILING:
	case SFRAME_ERR_CONCAT:
		return true;
	default:
		return false;
	}
}

bool fz_lookup_result(int err)
{
	return sfx_lookup_result(err);
}
