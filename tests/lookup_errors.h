/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * lookup_errors.h - what sframe_lookup() may return on any section whose
 * bytes can all be read (in memory, or behind a reader that never fails):
 * found, not found, or a code saying the section is corrupt. Anything else
 * (an invalid argument, a read error) is a bug there. Shared by the hostile
 * input tests and the fuzz targets.
 */
#ifndef SFRAME_TEST_LOOKUP_ERRORS_H
#define SFRAME_TEST_LOOKUP_ERRORS_H

#include <stdbool.h>

#include <sframe/sframe.h>

static inline bool sfx_lookup_result(int err)
{
	switch (-err) {
	case 0:
	case SFRAME_ERR_NOT_FOUND:
	case SFRAME_ERR_FDE:
	case SFRAME_ERR_FRE_TYPE:
	case SFRAME_ERR_FDE_TYPE:
	case SFRAME_ERR_REP_SIZE:
	case SFRAME_ERR_UNSUPPORTED:
	case SFRAME_ERR_FRE:
	case SFRAME_ERR_WORD_SIZE:
	case SFRAME_ERR_WORDS:
		return true;
	default:
		return false;
	}
}

#endif /* SFRAME_TEST_LOOKUP_ERRORS_H */
