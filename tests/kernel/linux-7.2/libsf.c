/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * The test libraries, one source built under several names
 * (build-progs.sh): SFT_OUTER (exported, called from the program) ->
 * SFT_INNER (hidden, a direct call).  libsfa.so: sfa_outer -> sfa_inner,
 * linked by prog-dyn; libsfb.so: sfb_outer -> sfb_inner, prog-dyn's dlopen
 * plug-in; libsfcor.so: cor_entry -> cor_leaf, prog-cor's (corrupted
 * copies of it too); libsfu.so: sfu_outer -> sfu_inner, opened and closed
 * again and again by prog-unmap.
 */
#include "work.h"

/* Its own: a library opened with dlopen cannot count on the program's. */
HIDDEN volatile unsigned long sft_sink;

SFT_LEAF(HIDDEN, SFT_INNER, 3)
SFT_LEVEL(, SFT_OUTER, SFT_INNER)
