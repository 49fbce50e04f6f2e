/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * fuzz_errors.h - classes of the library's error codes, for the targets'
 * "results come from the documented error sets" invariants.
 */
#ifndef SFRAME_FUZZ_ERRORS_H
#define SFRAME_FUZZ_ERRORS_H

#include <stdbool.h>

/* A corrupt- or unsupported-section code: what a section can make a call return. */
bool fz_section_err(int err);

/*
 * What sframe_lookup() may return on a section whose bytes can all be read:
 * found, not found or a corrupt-section code. The list is the one the
 * hostile-input tests use (tests/lookup_errors.h).
 */
bool fz_lookup_result(int err);

#endif /* SFRAME_FUZZ_ERRORS_H */
