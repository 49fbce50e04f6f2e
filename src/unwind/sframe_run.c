/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_run.c - the walks' run of steps: the frames a walk can step
 * without step(), in a loop whose cursor stays in registers; the rule
 * code is the step's (unwind_step.h).
 */
#include "unwind_step.h"

/*
 * A run's walk: reads from the window only (a read it cannot serve ends
 * the run), or (@reads) through the callback only; the stack
 * little-endian, the caller's SP the CFA.
 */
static SFRAME_ALWAYS_INLINE void run_init(struct walk *w, const struct sframe_unwinder *u,
					  bool reads)
{
	walk_init(w, u, !reads);
	w->be = false;
	w->sp_bias = 0;
	w->win_far = !reads;
	w->strip = NULL;
	if (reads)
		w->win_fits = 0;
}

/*
 * The index past the last frame a run may add from @n: by the array, by
 * the depth bound (step() checks), and none unless the frame's PC, SP and
 * FP are known.
 */
static inline uint32_t run_end(const struct sframe_cursor *c, uint32_t n,
					     uint32_t max, uint32_t max_depth)
{
	const uint32_t sp_fp = SFRAME_REG_SP | SFRAME_REG_FP;

	if (c->depth + 1 >= max_depth || !c->regs.pc || (c->regs.valid & sp_fp) != sp_fp)
		return n;
	return n + (max - n < max_depth - 1 - c->depth ? max - n : max_depth - 1 - c->depth);
}

/*
 * The next rule of a run: the cache's entry @e (@memo), or looked up, plain
 * rules only (sf_rule_plain()), any other outcome left in *@pend. The
 * rule's constant mask leaves out the branches of apply_rule() such a rule
 * never takes. A signed RA with the embedder's strip hook is step()'s
 * (@hook: RULE_RA_MANGLED, else 0): without that call, the run's cursor
 * stays in registers.
 */
static SFRAME_ALWAYS_INLINE bool run_rule(const struct sframe_unwinder *u,
					  const struct sframe_cursor *c,
					  const struct sframe_cache_entry *e, struct unwind_rule *r,
					  const struct sframe_module **mod, struct pending *pend,
					  uint32_t hook, bool memo)
{
	struct unwind_rule looked;
	int found;

	if (memo) {
		if (!e)
			return false;
		sf_cache_rule(e, r);
		/* (An entry keeps a rule's bits as RULE_*: one test for both.) */
		return !(sf_cache_kind(e) & (RULE_PACKED_NONE | hook));
	}
	/* (Into a local whose address calls take: @r stays in registers.) */
	found = find_rule(u, c->regs.pc, c->flags, &looked, mod);
	if (found || !sf_rule_plain(&looked) || (looked.kind & hook)) {
		pend_set(pend, found, &looked, *mod);
		return false;
	}
	*r = looked;
	r->kind &= SF_CACHE_RULE_BITS;
	return true;
}

/*
 * sf_cache_follow() where the guess missed: the search out of line, so
 * that its registers are not the loop's.
 */
static SFRAME_NOINLINE struct sframe_cache_entry *
run_search(const struct sframe_unwind_cache *cache, struct sframe_cache_entry *e, uint64_t pc)
{
	return sf_cache_follow(cache, e, pc);
}

/* The entry for the caller at @pc: the guess of @e when it holds it. */
static SFRAME_ALWAYS_INLINE struct sframe_cache_entry *
run_follow(const struct sframe_unwind_cache *cache, struct sframe_cache_entry *e, uint64_t pc)
{
	struct sframe_cache_entry *g = &cache->entries[sf_cache_next(e) & cache->mask];

	if (SFRAME_LIKELY(sf_cache_pc(g) == pc && !sf_cache_exact(g)))
		return g;
	return run_search(cache, e, pc);
}

/*
 * The last frame of a run: no CFA yet, and the module of the step that
 * ended the walk with @ret (its END or error is the walk's result) or none
 * (the caller gives it from the step it takes).
 */
static inline void run_last(struct sframe_frame *f, int ret,
					  const struct sframe_module *mod)
{
	frame_unset(f);
	if (ret)
		f->module = mod;
}

/*
 * What a step by a plain rule leaves in these fields (commit()), the FP
 * known (run_steps() tests it), and the depth @depth: stated at the top of
 * a run's loop, so that the compiler need not carry them around it. Before
 * the first step they may differ, but such a step reads none of them (its
 * rule names no register, and the frame's SP and FP are known), and a run
 * that takes no step leaves the caller's cursor as it was.
 */
static inline void run_state(struct sframe_cursor *c, uint32_t depth)
{
	c->depth = depth;
	c->regs.ra = 0;
	c->regs.valid = SFRAME_REG_PC | SFRAME_REG_SP | SFRAME_REG_FP;
	c->sigctx = 0;
	c->prev_flags = 0;
}

/*
 * The run of steps a walk takes without step(), for the ABIs whose stack
 * is little-endian and whose caller's SP is the CFA (amd64, aarch64): those
 * facts constants, and the cursor a copy whose address no call takes, in
 * registers. Reads come from a window far from both ends of the address
 * space, or (@reads: no window, no cache) all through the callback. The
 * rules come from the cache (@memo), each next entry found through the
 * last one's guess (run_follow()), so that the next rule is loaded
 * while the return address is still on its way; or, without a cache, from
 * find_rule(), plain rules only (sf_rule_plain()), the others left in
 * *@pend for step_found(). The rule's constant mask leaves out the branches
 * of apply_rule() such a rule never takes. Measured on the bench's
 * in-process chain (33 frames, release build), ns a frame: warm cache
 * 4.8-4.9 for the PCs and 5.3-5.4 for the frame records, against 10-11
 * through step() for every frame and 6.1-6.3 for libunwind's
 * unw_backtrace(); no cache, the modules' row table: 13.8-14.0 over a
 * stack copy and 18.6-18.9 through the callback, against 20.4-20.5 and
 * 24.8-25.0 through step().
 *
 * Fills either @pcs (a PC per frame) or @frames (the other is NULL, a
 * constant in each copy), as the walks do, from index @n on. Stops, the
 * cursor at the last frame reached, at the first frame it does not step
 * (no rule of that shape, a read outside the window, an FP it would lose,
 * the FP unknown), at the depth bound or at @max; *@res receives the
 * result of a step that ended the walk (END or an error), else 0. Returns
 * the new number of frames. (With frame records and the cache, the
 * module table is read when an entry's module differs from the last.)
 */
static SFRAME_ALWAYS_INLINE uint32_t run_steps(const struct sframe_unwinder *u,
					       struct sframe_cursor *cursor, uint64_t *pcs,
					       struct sframe_frame *frames, uint32_t n, uint32_t max,
					       int *res, struct pending *pend, bool memo, bool reads)
{
	const struct sframe_module *mod = NULL;
	struct sframe_cursor c = *cursor;
	struct sframe_cache_entry *e = NULL;
	uint32_t k = n, end, mod_index = 0, depth0 = c.depth;
	uint64_t floor = cfa_floor(&c);
	const uint32_t hook = u->strip_ra ? RULE_RA_MANGLED : 0;
	struct unwind_rule r;
	struct walk w;
	int ret = 0;

	run_init(&w, u, reads);
	end = run_end(&c, n, max, w.max_depth);
	if (memo && k < end)
		e = sf_cache_find(u->cache, c.regs.pc, exact_pc(c.flags));
	while (k < end) {
		run_state(&c, depth0 + (k - n));
		if (!run_rule(u, &c, e, &r, &mod, pend, hook, memo))
			break;
		if (memo && frames && sf_cache_module(e) != mod_index) {
			mod_index = sf_cache_module(e);
			mod = module_at(u->modules, mod_index);
		}
		ret = apply_rule(&w, &c, &r, floor);
		if (ret)
			break;
		floor = c.prev_cfa + 1;
		if (frames) {
			/* (The caller's CFA and module: its own step's, or after the run.) */
			frames[k - 1].module = mod;
			frame_stepped(&frames[k - 1], &c);
		} else {
			pcs[k] = c.regs.pc;
		}
		if (++k >= end || !(c.regs.valid & SFRAME_REG_FP))
			break;
		if (memo)
			e = run_follow(u->cache, e, c.regs.pc);
	}
	if (k != n)
		*cursor = c;
	/* (A step that ended the walk from the cache was served by it too.) */
	if (memo)
		u->cache->hits += (uint64_t)(k - n) + (ret != 0 && ret != WINDOW_MISS);
	/* A looked-up rule whose read the window did not serve: step_found()'s. */
	if (ret == WINDOW_MISS && !memo)
		pend_set(pend, 0, &r, mod);
	if (ret == WINDOW_MISS)
		ret = 0;
	if (frames)
		run_last(&frames[k - 1], ret, mod);
	*res = ret;
	return k;
}

/*
 * A walk run_steps() can take: an ABI of its shape, and a window far from
 * the ends of the address space, or no window and no cache (every read
 * through the callback).
 */
bool sf_runs(const struct sframe_unwinder *u)
{
	const struct unwind_abi *abi = unwind_abi_of(u->abi);

	return !abi->stack_be && !abi->sp_bias &&
	       (window_far(u) || (!u->stack_data && !u->cache));
}

/*
 * run_steps() for sframe_unwind_pcs() (PCs) and sframe_unwind_stack()
 * (frames), a copy for each rule source. (Out of line: the walks' own
 * frames stay small on the way to step().)
 */
uint32_t sf_run_pcs(const struct sframe_unwinder *u, struct sframe_cursor *cursor,
		    uint64_t *pcs, uint32_t n, uint32_t max, int *res, struct pending *pend)
{
	if (!u->stack_data)
		return run_steps(u, cursor, pcs, NULL, n, max, res, pend, false, true);
	if (u->cache)
		return run_steps(u, cursor, pcs, NULL, n, max, res, pend, true, false);
	return run_steps(u, cursor, pcs, NULL, n, max, res, pend, false, false);
}

uint32_t sf_run_frames(const struct sframe_unwinder *u, struct sframe_cursor *cursor,
		       struct sframe_frame *frames, uint32_t n, uint32_t max, int *res,
		       struct pending *pend)
{
	/* (Never taken: tells the copies that they store frames, not PCs.) */
	if (!frames) {
		*res = 0;
		return n;
	}
	if (!u->stack_data)
		return run_steps(u, cursor, NULL, frames, n, max, res, pend, false, true);
	if (u->cache)
		return run_steps(u, cursor, NULL, frames, n, max, res, pend, true, false);
	return run_steps(u, cursor, NULL, frames, n, max, res, pend, false, false);
}

