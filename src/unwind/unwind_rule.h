/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * unwind_rule.h - the step from one frame to its caller as the unwinder
 * applies it; not installed.
 *
 * A decoded row (struct sframe_rules) names registers by DWARF number; the
 * rule names the roles instead (CFA from SP, from FP or from another
 * register), so that the step does not compare register numbers, and so
 * that the row cache can keep a rule in a few bits and offsets. Each rule
 * comes from a row once, from the cache or from the lookup, and one
 * function applies it.
 */
#ifndef SFRAME_UNWIND_RULE_H
#define SFRAME_UNWIND_RULE_H

#include <sframe/sframe.h>

/* The CFA: SP + cfa_off unless one of these says otherwise. */
#define RULE_CFA_FP		0x001u	/* FP + cfa_off */
#define RULE_CFA_REG		0x002u	/* register cfa_reg + cfa_off */
#define RULE_CFA_DEREF		0x004u	/* then loaded from that address */
/* The RA: CFA + ra_off unless one of these says otherwise. */
#define RULE_RA_DEREF		0x008u	/* loaded from that address (a stack slot) */
#define RULE_RA_REG		0x010u	/* register ra_reg + ra_off */
#define RULE_RA_LINK		0x020u	/* not saved: still in the link register */
#define RULE_RA_END		0x040u	/* undefined: the outermost frame */
#define RULE_RA_MANGLED		0x080u	/* PAuth-signed: strip it */
/* The caller's FP: CFA + fp_off unless one of these says otherwise. */
#define RULE_FP_DEREF		0x100u	/* loaded from that address (a stack slot) */
#define RULE_FP_REG		0x200u	/* register fp_reg + fp_off */
#define RULE_FP_SAME		0x400u	/* not saved: unchanged */
#define RULE_FP_NONE		0x800u	/* no rule: unknown */
/* The function is a signal trampoline: the caller's PC is exact. */
#define RULE_SIGNAL		0x1000u

/**
 * struct unwind_rule - how to compute the caller's registers.
 * @kind: RULE_* bits.
 * @cfa_off: offset added to the CFA's base.
 * @ra_off: offset added to the RA's base.
 * @fp_off: offset added to the FP's base.
 * @cfa_reg: DWARF register of the CFA's base, for RULE_CFA_REG.
 * @ra_reg: DWARF register of the RA's base, for RULE_RA_REG.
 * @fp_reg: DWARF register of the FP's base, for RULE_FP_REG.
 */
struct unwind_rule {
	uint32_t kind;
	int32_t cfa_off;
	int32_t ra_off;
	int32_t fp_off;
	uint32_t cfa_reg;
	uint32_t ra_reg;
	uint32_t fp_reg;
};

#endif /* SFRAME_UNWIND_RULE_H */
