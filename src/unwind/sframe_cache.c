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
		sf_cache_set(&cache->entries[i], 0, false, 0, 0, 0);
	cache->hits = 0;
	cache->misses = 0;
}

void sf_cache_insert(struct sframe_unwind_cache *cache, uint64_t pc, bool exact,
		     const struct unwind_rule *rule, uint32_t module)
{
	struct sframe_cache_entry *set = sf_cache_set_of(cache, pc);
	struct sframe_cache_entry e;
	struct unwind_rule keep = { .kind = RULE_RA_END };

	if (pc == 0 || (rule && !sf_rule_plain(rule)))
		return;
	/* (What a plain rule does not use is kept as 0: the end's offsets, an unchanged FP's.) */
	if (rule && !(rule->kind & RULE_RA_END)) {
		keep = *rule;
		if (keep.kind & RULE_FP_SAME)
			keep.fp_off = 0;
	}
	sf_cache_set(&e, pc, exact, rule ? rule_pack(&keep) : rule_packed_mark(RULE_PACKED_NONE),
		     module, 0);
	/*
	 * The newcomer goes first, and the entry it displaces becomes the older
	 * one. An exact PC (a sample's topmost frame, one of many) only takes
	 * a slot no return address holds: it must not push out one that every
	 * walk through that caller uses.
	 */
	if (cache->mask && exact) {
		if (!sf_cache_pc(&set[0]))
			set[0] = e;
		else if (!sf_cache_pc(&set[1]) || sf_cache_exact(&set[1]))
			set[1] = e;
		return;
	}
	if (cache->mask && (sf_cache_pc(&set[0]) != pc || sf_cache_exact(&set[0]) != exact))
		set[1] = set[0];
	set[0] = e;
}
