/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * unwind_rule.h - the step from one frame to its caller as the unwinder
 * applies it; not installed.
 *
 * A decoded row (struct sframe_rules) names registers by DWARF number; the
 * rule names the roles instead (CFA from SP, from FP or from another
 * register), so that the step does not compare register numbers, and so
 * that the unwinder's memos (the row table and the cache) can keep a rule
 * in 64 bits. Each rule comes from a row once, from a memo or from the
 * lookup, and one function applies it.
 */
#ifndef SFRAME_UNWIND_RULE_H
#define SFRAME_UNWIND_RULE_H

#include "sframe_internal.h"

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

/*
 * RULE_* bits of the RA or FP rule @loc, given that register's bits for
 * "unchanged", "from a register", "loaded" and "no rule".
 */
static SFRAME_ALWAYS_INLINE uint32_t loc_kind(const struct sframe_loc *loc, uint32_t same,
					      uint32_t reg, uint32_t deref, uint32_t none)
{
	const uint32_t load = loc->deref ? deref : 0;

	switch (loc->kind) {
	case SFRAME_LOC_SAME:
		return same;
	case SFRAME_LOC_CFA:
		return load;
	case SFRAME_LOC_REG:
		return reg | load;
	default:
		return none;
	}
}

/* The rule of a decoded row of ABI @abi, its registers sorted into roles once. */
static SFRAME_ALWAYS_INLINE void rule_from_rules(const struct sf_abi *abi,
						 const struct sframe_rules *s, struct unwind_rule *r)
{
	r->kind = loc_kind(&s->ra, RULE_RA_LINK, RULE_RA_REG, RULE_RA_DEREF, RULE_RA_END) |
		  loc_kind(&s->fp, RULE_FP_SAME, RULE_FP_REG, RULE_FP_DEREF, RULE_FP_NONE);
	if (s->ra_undefined)
		r->kind |= RULE_RA_END;
	if (s->cfa.reg == abi->fp_reg)
		r->kind |= RULE_CFA_FP;
	else if (s->cfa.reg != abi->sp_reg)
		r->kind |= RULE_CFA_REG;
	if (s->cfa.deref)
		r->kind |= RULE_CFA_DEREF;
	if (s->ra_mangled)
		r->kind |= RULE_RA_MANGLED;
	if (s->signal)
		r->kind |= RULE_SIGNAL;
	r->cfa_off = s->cfa.offset;
	r->ra_off = s->ra.offset;
	r->fp_off = s->fp.offset;
	r->cfa_reg = s->cfa.reg;
	r->ra_reg = s->ra.reg;
	r->fp_reg = s->fp.reg;
}

/*
 * The packed rule: the one form in which the unwinder's memos keep a rule
 * (the row table, unwind_rows.h, and the cache, sframe_cache.h), 64 bits:
 *   bits 0-15:  the RULE_* bits, or one of the RULE_PACKED_* marks
 *   bits 16-31: cfa_off, bits 32-47: ra_off, bits 48-63: fp_off (signed)
 * It names no register: rules of the *_REG kinds, and offsets beyond 16
 * bits (a frame of 32 KB or more), have no packed form, and are looked up
 * each time. Rows of both kinds are rare: the *_REG kinds come from v3's
 * flexible rows and s390x's register saves.
 */
#define RULE_PACKED_NONE	0x2000u	/* no row for the PC: -SFRAME_ERR_NOT_FOUND */
#define RULE_PACKED_ASK		0x4000u	/* the memo does not know: look the PC up */
#define RULE_PACKED_REGS	(RULE_CFA_REG | RULE_RA_REG | RULE_FP_REG)

static SFRAME_ALWAYS_INLINE int32_t rule_packed_off(uint64_t v, unsigned int shift)
{
	return sf_s16((uint16_t)(v >> shift));
}

/* The kind bits of packed rule @v (RULE_* and RULE_PACKED_*). */
static SFRAME_ALWAYS_INLINE uint32_t rule_packed_kind(uint64_t v)
{
	return (uint32_t)v & 0xffffu;
}

/* The rule @v holds (no RULE_PACKED_* mark): registers 0, never read. */
static SFRAME_ALWAYS_INLINE void rule_unpack(uint64_t v, struct unwind_rule *r)
{
	r->kind = rule_packed_kind(v);
	r->cfa_off = rule_packed_off(v, 16);
	r->ra_off = rule_packed_off(v, 32);
	r->fp_off = rule_packed_off(v, 48);
	r->cfa_reg = 0;
	r->ra_reg = 0;
	r->fp_reg = 0;
}

/* A mark (RULE_PACKED_NONE, RULE_PACKED_ASK) as a packed value. */
static inline uint64_t rule_packed_mark(uint32_t mark)
{
	return mark;
}

static inline bool rule_off_fits(int32_t off)
{
	return off >= -0x8000 && off <= 0x7fff;
}

/* @r packed, or RULE_PACKED_ASK when it has no packed form. */
static inline uint64_t rule_pack(const struct unwind_rule *r)
{
	if ((r->kind & RULE_PACKED_REGS) || r->kind > 0xffffu || !rule_off_fits(r->cfa_off) ||
	    !rule_off_fits(r->ra_off) || !rule_off_fits(r->fp_off))
		return rule_packed_mark(RULE_PACKED_ASK);
	return (uint64_t)r->kind | (uint64_t)((uint32_t)r->cfa_off & 0xffffu) << 16 |
	       (uint64_t)((uint32_t)r->ra_off & 0xffffu) << 32 |
	       (uint64_t)((uint32_t)r->fp_off & 0xffffu) << 48;
}

#endif /* SFRAME_UNWIND_RULE_H */
