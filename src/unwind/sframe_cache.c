/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_cache.c - the memo of frame rules behind struct
 * sframe_unwind_cache: its set-up and the placement of new entries (the
 * lookups, on every step's path, are inline in sframe_cache.h).
 */
#include "sframe_cache.h"

int sframe_unwind_cache_init(struct sframe_unwind_cache *cache, struct sframe_cache_entry *entries,
			     uint32_t count)
{
	if (!cache || !entries || count == 0 || (count & (count - 1)))
		return -SFRAME_ERR_INVAL;
	cache->entries = entries;
	cache->mask = count - 1;
	sframe_unwind_cache_clear(cache);
	return 0;
}

void sframe_unwind_cache_clear(struct sframe_unwind_cache *cache)
{
	uint64_t i;

	if (!cache || !cache->entries)
		return;
	/* mask + 1 entries (64-bit count: mask may be UINT32_MAX). */
	for (i = 0; i <= cache->mask; i++)
		sf_cache_set(&cache->entries[i], 0, 0, 0, 0, 0, 0, 0);
	cache->hits = 0;
	cache->misses = 0;
}

void sf_cache_insert(struct sframe_unwind_cache *cache, uint64_t pc, bool exact,
		     const struct unwind_rule *rule, uint32_t module)
{
	struct sframe_cache_entry *set = sf_cache_set_of(cache, pc);
	struct sframe_cache_entry e;
	uint32_t kind = exact ? SF_CACHE_EXACT : 0;

	if (pc == 0 || (rule && !sf_rule_plain(rule)))
		return;
	if (!rule)
		sf_cache_set(&e, pc, kind | SF_CACHE_NOSF, 0, 0, 0, module, 0);
	else if (rule->kind & RULE_RA_END)
		sf_cache_set(&e, pc, kind | RULE_RA_END, 0, 0, 0, module, 0);
	else
		sf_cache_set(&e, pc, kind | rule->kind, rule->cfa_off, rule->ra_off,
			     (rule->kind & RULE_FP_SAME) ? 0 : rule->fp_off, module, 0);
	/*
	 * The newcomer goes first, and the entry it displaces becomes the older
	 * one. An exact PC (a sample's topmost frame, one of many) only takes
	 * a slot no return address holds: it must not push out one that every
	 * walk through that caller uses.
	 */
	if (cache->mask && exact) {
		if (!sf_cache_pc(&set[0]))
			set[0] = e;
		else if (!sf_cache_pc(&set[1]) || (sf_cache_kind(&set[1]) & SF_CACHE_EXACT))
			set[1] = e;
		return;
	}
	if (cache->mask && (sf_cache_pc(&set[0]) != pc ||
			    (sf_cache_kind(&set[0]) & SF_CACHE_EXACT) != kind))
		set[1] = set[0];
	set[0] = e;
}
