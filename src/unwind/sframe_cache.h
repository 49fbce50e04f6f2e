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
 *   word 1: the rule, packed as the row table packs it (unwind_rule.h);
 *           RULE_PACKED_NONE: no SFrame row for this PC
 *   word 2: module (bits 0-31: 1 + index in the module table, 0: none),
 *           SF_CACHE_EXACT (bits 32-63)
 *   word 3: next (bits 0-31: the slot of the guessed next entry)
 * An entry holds aligned slots only (a misaligned one fails every step),
 * and says so to the compiler (sf_cache_rule()), so that the step can see
 * that a slot is aligned when the CFA is.
 */
#ifndef SF_CACHE_H
#define SF_CACHE_H

#include <sframe/sframe_unwind.h>
#include "unwind_rule.h"

/* Word 2's high half: the entry is for an exact PC, not a return address. */
#define SF_CACHE_EXACT		0x1u

/*
 * The rule bits an entry can hold. Masking with this constant also tells
 * the compiler which branches of the step a cached rule never takes.
 */
#define SF_CACHE_RULE_BITS	(RULE_CFA_FP | RULE_RA_DEREF | RULE_RA_END | RULE_RA_MANGLED | \
				 RULE_FP_DEREF | RULE_FP_SAME)

static inline uint64_t sf_cache_pack(uint32_t lo, uint32_t hi)
{
	return (uint64_t)lo | (uint64_t)hi << 32;
}

static inline uint64_t sf_cache_pc(const struct sframe_cache_entry *e)
{
	return e->opaque[0];
}

/* The packed rule's kind bits: RULE_* of the rule, or RULE_PACKED_NONE. */
static inline uint32_t sf_cache_kind(const struct sframe_cache_entry *e)
{
	return rule_packed_kind(e->opaque[1]);
}

static inline bool sf_cache_exact(const struct sframe_cache_entry *e)
{
	return (e->opaque[2] >> 32) & SF_CACHE_EXACT;
}

static inline uint32_t sf_cache_module(const struct sframe_cache_entry *e)
{
	return (uint32_t)e->opaque[2];
}

static inline uint32_t sf_cache_next(const struct sframe_cache_entry *e)
{
	return (uint32_t)e->opaque[3];
}

static inline void sf_cache_set_next(struct sframe_cache_entry *e, uint32_t next)
{
	e->opaque[3] = next;
}

/* Fill every field of @e (@rule packed). */
static inline void sf_cache_set(struct sframe_cache_entry *e, uint64_t pc, bool exact,
				uint64_t rule, uint32_t module, uint32_t next)
{
	e->opaque[0] = pc;
	e->opaque[1] = rule;
	e->opaque[2] = sf_cache_pack(module, exact ? SF_CACHE_EXACT : 0);
	e->opaque[3] = next;
}

/*
 * The rule of @e, unless it has none (RULE_PACKED_NONE). The registers of
 * the *_REG kinds are never needed: an entry holds none of those kinds.
 * (Every rule an entry holds has its RA in an aligned slot, the end aside,
 * which the step tests first: stated as constants, for the compiler.)
 */
static SFRAME_ALWAYS_INLINE bool sf_cache_rule(const struct sframe_cache_entry *e,
					       struct unwind_rule *r)
{
	rule_unpack(e->opaque[1], r);
	r->kind = (r->kind & SF_CACHE_RULE_BITS) | RULE_RA_DEREF;
	r->ra_off &= ~7;
	r->fp_off &= ~7;
	return !(sf_cache_kind(e) & RULE_PACKED_NONE);
}

/*
 * The plain shape an entry holds: CFA = SP or FP + offset, RA in an
 * aligned stack slot, FP in one or unchanged, the offsets in the packed
 * form's 16 bits; or the end of the stack (a misaligned slot fails every
 * step anyway). Rules of signal trampolines are left out: their step differs,
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
	       !(r->ra_off & 7) && rule_off_fits(r->cfa_off) && rule_off_fits(r->ra_off) &&
	       (fp == RULE_FP_SAME ||
		(fp == RULE_FP_DEREF && !(r->fp_off & 7) && rule_off_fits(r->fp_off)));
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
	if (sf_cache_pc(&set[0]) == pc && sf_cache_exact(&set[0]) == exact)
		return &set[0];
	/* (A one-entry cache has no second slot.) */
	if (cache->mask && sf_cache_pc(&set[1]) == pc && sf_cache_exact(&set[1]) == exact)
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

	if (SFRAME_LIKELY(sf_cache_pc(g) == pc && !sf_cache_exact(g)))
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
