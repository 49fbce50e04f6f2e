/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_cache.h - the unwinder's memo of frame rules (struct
 * sframe_unwind_cache); not installed.
 *
 * An entry remembers, for one PC and whether that PC is exact (a topmost
 * or interrupted frame) or a return address (looked up at PC - 1), the
 * outcome of looking it up: a frame rule of the plain shape most rows have
 * (CFA from SP or FP; RA in a stack slot; FP in a stack slot or
 * unchanged), the end of the stack, or "no SFrame here". It also keeps the
 * PC's module and a guess at the entry the next frame will need.
 *
 * The public struct sframe_cache_entry is four 64-bit words of storage;
 * the fields are packed into them with shifts (never by reading the words
 * as another struct, which would break the aliasing rules):
 *   word 0: PC (0: empty entry)
 *   word 1: cfa_off (bits 0-31), ra_off / 8 (bits 32-63)
 *   word 2: fp_off / 8 (bits 0-31), kind (bits 32-63: RULE_* | SF_CACHE_*)
 * The slot offsets are kept in units of 8 bytes: an entry holds aligned
 * slots only (a misaligned one fails every step), so that the step can
 * see that a slot is aligned when the CFA is.
 *   word 3: module (bits 0-31: 1 + index in the module table, 0: none),
 *           next (bits 32-63: the slot of the guessed next entry)
 */
#ifndef SF_CACHE_H
#define SF_CACHE_H

#include <sframe/sframe_unwind.h>
#include "unwind_rule.h"

/* Bits of an entry's kind besides the rule's. */
#define SF_CACHE_EXACT		0x10000u	/* for an exact PC, not a return address */
#define SF_CACHE_NOSF		0x20000u	/* no SFrame row for this PC */

/*
 * The rule bits an entry can hold. Masking with this constant also tells
 * the compiler which branches of the step a cached rule never takes.
 */
#define SF_CACHE_RULE_BITS	(RULE_CFA_FP | RULE_RA_DEREF | RULE_RA_END | RULE_RA_MANGLED | \
				 RULE_FP_DEREF | RULE_FP_SAME)

/* The low and high halves of a word as signed 32-bit values. */
static inline int32_t sf_cache_s32(uint32_t v)
{
	/* (No conversion of an out-of-range value: that is implementation-defined.) */
	return v < 0x80000000u ? (int32_t)v : (int32_t)(v - 0x80000000u) + SFRAME_INT32_MIN;
}

static inline uint64_t sf_cache_pack(int64_t lo, int64_t hi)
{
	return (uint64_t)(uint32_t)lo | (uint64_t)(uint32_t)hi << 32;
}

static inline uint64_t sf_cache_pc(const struct sframe_cache_entry *e)
{
	return e->opaque[0];
}

static inline int32_t sf_cache_cfa_off(const struct sframe_cache_entry *e)
{
	return sf_cache_s32((uint32_t)e->opaque[1]);
}

static inline int32_t sf_cache_ra_off(const struct sframe_cache_entry *e)
{
	return sf_cache_s32((uint32_t)(e->opaque[1] >> 32)) * 8;
}

static inline int32_t sf_cache_fp_off(const struct sframe_cache_entry *e)
{
	return sf_cache_s32((uint32_t)e->opaque[2]) * 8;
}

static inline uint32_t sf_cache_kind(const struct sframe_cache_entry *e)
{
	return (uint32_t)(e->opaque[2] >> 32);
}

static inline uint32_t sf_cache_module(const struct sframe_cache_entry *e)
{
	return (uint32_t)e->opaque[3];
}

static inline uint32_t sf_cache_next(const struct sframe_cache_entry *e)
{
	return (uint32_t)(e->opaque[3] >> 32);
}

static inline void sf_cache_set_next(struct sframe_cache_entry *e, uint32_t next)
{
	e->opaque[3] = sf_cache_pack(sf_cache_module(e), next);
}

/* Fill every field of @e (@ra_off and @fp_off multiples of 8). */
static inline void sf_cache_set(struct sframe_cache_entry *e, uint64_t pc, uint32_t kind,
				int32_t cfa_off, int32_t ra_off, int32_t fp_off, uint32_t module,
				uint32_t next)
{
	e->opaque[0] = pc;
	e->opaque[1] = sf_cache_pack(cfa_off, ra_off / 8);
	e->opaque[2] = sf_cache_pack(fp_off / 8, kind);
	e->opaque[3] = sf_cache_pack(module, next);
}

/*
 * The rule of @e, unless it has none (SF_CACHE_NOSF). The registers of
 * the *_REG kinds are never needed: an entry holds none of those kinds.
 * (Every rule an entry holds has its RA in a slot, the end aside, which
 * the step tests first: stated as a constant, for the compiler.)
 */
static SFRAME_ALWAYS_INLINE bool sf_cache_rule(const struct sframe_cache_entry *e,
					       struct unwind_rule *r)
{
	uint32_t kind = sf_cache_kind(e);

	r->kind = (kind & SF_CACHE_RULE_BITS) | RULE_RA_DEREF;
	r->cfa_off = sf_cache_cfa_off(e);
	r->ra_off = sf_cache_ra_off(e);
	r->fp_off = sf_cache_fp_off(e);
	r->cfa_reg = 0;
	r->ra_reg = 0;
	r->fp_reg = 0;
	return !(kind & SF_CACHE_NOSF);
}

/*
 * The plain shape an entry holds: CFA = SP or FP + offset, RA in an
 * aligned stack slot, FP in one or unchanged; or the end of the stack (a misaligned slot fails every step
 * anyway). Rules of signal trampolines are left out: their step differs,
 * and a return address may have found one through the exact-PC retry of
 * the lookup.
 */
static SFRAME_ALWAYS_INLINE bool sf_rule_plain(const struct unwind_rule *r)
{
	uint32_t fp = r->kind & (RULE_FP_DEREF | RULE_FP_SAME);

	if (r->kind & RULE_SIGNAL)
		return false;
	if (r->kind & RULE_RA_END)
		return true;
	return !(r->kind & ~SF_CACHE_RULE_BITS) && (r->kind & RULE_RA_DEREF) &&
	       !(r->ra_off & 7) && (fp == RULE_FP_SAME || (fp == RULE_FP_DEREF && !(r->fp_off & 7)));
}

/*
 * The cache is 2-way set associative: a PC has a pair of slots (one 64-byte
 * line), the first holding the entry used last. A direct-mapped table
 * loses whole walks to two hot return addresses that share a slot; the
 * pair absorbs such collisions. The hash is on the chain from one frame to
 * the next (RA load, probe, next CFA), so it is two instructions: code
 * addresses differ mostly in their low bits already, and folding in bits
 * 12 and up separates the same offset in different pages or libraries.
 */
static inline struct sframe_cache_entry *sf_cache_set_of(const struct sframe_unwind_cache *cache,
							 uint64_t pc)
{
	return &cache->entries[(uint32_t)(pc ^ (pc >> 12)) & cache->mask & ~(uint32_t)1];
}

/* The entry for @pc, exact or not (as @exact), or NULL. */
static SFRAME_ALWAYS_INLINE struct sframe_cache_entry *
sf_cache_find(const struct sframe_unwind_cache *cache, uint64_t pc, bool exact)
{
	struct sframe_cache_entry *set = sf_cache_set_of(cache, pc);
	const uint32_t want = exact ? SF_CACHE_EXACT : 0;

	if (sf_cache_pc(&set[0]) == pc && (sf_cache_kind(&set[0]) & SF_CACHE_EXACT) == want)
		return &set[0];
	/* (A one-entry cache has no second slot.) */
	if (cache->mask && sf_cache_pc(&set[1]) == pc &&
	    (sf_cache_kind(&set[1]) & SF_CACHE_EXACT) == want)
		return &set[1];
	return NULL;
}

/*
 * The entry for return address @pc, the frame after @e's: first where the
 * last walk through @e found it (@e's guess), else by the hash probe, which
 * then corrects the guess. The guess lets a walk load the next entry while
 * the return address is still on its way, the comparison being a branch
 * the CPU predicts.
 */
static SFRAME_ALWAYS_INLINE struct sframe_cache_entry *
sf_cache_follow(const struct sframe_unwind_cache *cache, struct sframe_cache_entry *e, uint64_t pc)
{
	struct sframe_cache_entry *g = &cache->entries[sf_cache_next(e) & cache->mask];

	if (SFRAME_LIKELY(sf_cache_pc(g) == pc && !(sf_cache_kind(g) & SF_CACHE_EXACT)))
		return g;
	g = sf_cache_find(cache, pc, false);
	if (g)
		sf_cache_set_next(e, (uint32_t)(g - cache->entries));
	return g;
}

/*
 * sf_cache_insert() - remember the outcome of a lookup for the frame at @pc.
 * @cache: the cache.
 * @pc: the frame's PC; 0 is never remembered (it marks empty entries).
 * @exact: the PC is exact, not a return address.
 * @rule: its rule, or NULL for "no SFrame row"; rules of another shape
 *	than the cache holds are not remembered.
 * @module: 1 + the index of @pc's module in the module table, 0 for none.
 */
void sf_cache_insert(struct sframe_unwind_cache *cache, uint64_t pc, bool exact,
		     const struct unwind_rule *rule, uint32_t module);

#endif /* SF_CACHE_H */
