/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_unwind.c - one step from a frame to its caller, and whole walks.
 *
 * Nothing read from the stack is trusted: every address is computed with
 * overflow checks (a slot in a window far from both ends of the address
 * space by the window's bounds), every read goes through the caller's callback and its
 * failure ends the walk, and the CFA must rise from frame to frame so that a
 * corrupt or hostile stack cannot make the walk loop.
 *
 * A step finds the frame's rule (struct unwind_rule) in the cache or turns
 * the frame's row into one, and apply_rule() (unwind_step.h) computes the
 * caller from it: the same checks and the same results whichever way the
 * rule came. What differs between ABIs is read from their description
 * (unwind_abi.h). The walks take the frames they can in the run of steps
 * (sframe_run.c), the others through step().
 */
#include "unwind_step.h"

/* An unwinder with an ABI and a way to read the stack. */
static bool usable(const struct sframe_unwinder *u)
{
	return u && unwind_abi_of(u->abi) && (u->read_stack || u->stack_data);
}

int sf_saved_reg(const struct sframe_unwinder *u, uint32_t frame_flags, uint64_t sigctx,
		 uint32_t reg, uint64_t *v)
{
	const struct unwind_abi *abi = unwind_abi_of(u->abi);
	struct walk w;

	if ((frame_flags & SFRAME_FRAME_TOPMOST) && u->get_reg)
		return u->get_reg(u->reg_ctx, reg, v);
	if (sigctx && reg < abi->sig_nslots) {
		walk_init(&w, u, false);
		return read_u64(&w, sigctx + 8u * abi->sig_slot[reg], v);
	}
	return -SFRAME_ERR_NO_REG;
}

/* A signal trampoline without rows: the kernel's frame layout, where known. */
static int step_signal(const struct sframe_unwinder *u, struct sframe_cursor *c)
{
	const struct unwind_abi *abi = unwind_abi_of(u->abi);
	struct sframe_regs n = { 0 };
	struct walk walk, *w = &walk;
	uint64_t ctx;
	int ret;

	walk_init(w, u, false);
	if (!abi->sig_regs)
		return -SFRAME_ERR_UNSUPPORTED;
	if (!(c->regs.valid & SFRAME_REG_SP))
		return -SFRAME_ERR_NO_REG;
	if (!add_off(c->regs.sp, abi->sig_regs, &ctx))
		return -SFRAME_ERR_BAD_CFA;
	ret = read_u64(w, ctx + 8u * abi->sig_slot[abi->reg.ra_reg], &n.pc);
	if (!ret)
		ret = read_u64(w, ctx + 8u * abi->sig_slot[abi->reg.sp_reg], &n.sp);
	if (!ret)
		ret = read_u64(w, ctx + 8u * abi->sig_slot[abi->reg.fp_reg], &n.fp);
	if (ret)
		return ret;
	if (n.pc == 0)
		return -SFRAME_ERR_BAD_RA;
	n.valid = SFRAME_REG_PC | SFRAME_REG_SP | SFRAME_REG_FP;
	/* The handler may have run on an alternate stack: restart the order. */
	commit(c, &n, 0, ctx, SFRAME_FRAME_SIGNAL, SFRAME_FRAME_INTERRUPTED);
	return 0;
}

/*
 * No SFrame for this PC: follow the frame-pointer chain or the back chain
 * (unwind_abi.h). A zero link ends the chain, by the ABIs' convention for
 * the outermost frame.
 */
static int step_chain(const struct sframe_unwinder *u, struct sframe_cursor *c)
{
	const struct unwind_abi *abi = unwind_abi_of(u->abi);
	struct sframe_regs n = { 0 };
	uint32_t flags = SFRAME_FRAME_FP_FALLBACK;
	struct walk walk, *w = &walk;
	uint64_t link, cfa;
	int ret;

	walk_init(w, u, false);
	if (!(c->regs.valid & (abi->back_chain ? SFRAME_REG_SP : SFRAME_REG_FP)))
		return -SFRAME_ERR_NO_REG;
	link = c->regs.fp;
	if (abi->back_chain) {
		ret = read_u64(w, c->regs.sp, &link);
		if (ret)
			return ret;
	}
	if (link == 0)
		return SFRAME_UNWIND_END;
	/* (A back chain leads to the caller's SP, above ours.) */
	if ((abi->back_chain && link <= c->regs.sp) || (link & 7) ||
	    !add_off(link, abi->chain_cfa, &cfa))
		return -SFRAME_ERR_BAD_CFA;
	ret = read_u64(w, link + abi->chain_fp, &n.fp);
	if (!ret)
		ret = read_u64(w, link + abi->chain_ra, &n.pc);
	if (ret)
		return ret;
	if (abi->pauth)
		n.pc = strip_ra(w, n.pc, &flags);
	ret = check_cfa(cfa, cfa_floor(c));
	if (ret)
		return ret;
	if (n.pc == 0)
		return SFRAME_UNWIND_END;
	ret = caller_sp(w, cfa, &n.sp);
	if (ret)
		return ret;
	n.valid = SFRAME_REG_PC | SFRAME_REG_SP | SFRAME_REG_FP;
	commit(c, &n, cfa, 0, SFRAME_FRAME_NO_SFRAME, flags);
	return 0;
}

/* The frame-pointer fallback, when the unwinder allows it. */
static int step_no_sframe(const struct sframe_unwinder *u, struct sframe_cursor *c)
{
	uint32_t flags = c->flags;
	int ret;

	if (!(u->flags & SFRAME_UNWIND_FP_FALLBACK))
		return -SFRAME_ERR_NOT_FOUND;
	/* Whatever the fallback finds, this frame had no SFrame. */
	c->flags |= SFRAME_FRAME_NO_SFRAME;
	ret = step_chain(u, c);
	/* On error the cursor is unchanged, as documented. */
	if (ret < 0)
		c->flags = flags;
	return ret;
}

int sframe_unwind_init(const struct sframe_unwinder *u, struct sframe_cursor *c,
		       const struct sframe_regs *regs)
{
	if (!usable(u) || !c || !regs)
		return -SFRAME_ERR_INVAL;
	if ((regs->valid & (SFRAME_REG_PC | SFRAME_REG_SP)) != (SFRAME_REG_PC | SFRAME_REG_SP))
		return -SFRAME_ERR_INVAL;
	c->regs = *regs;
	c->prev_cfa = 0;
	c->sigctx = 0;
	c->depth = 0;
	c->flags = SFRAME_FRAME_TOPMOST;
	c->prev_flags = 0;
	return 0;
}

/*
 * Find the row for the current frame's PC, and the section it came from:
 * on 0 and on -SFRAME_ERR_NOT_FOUND, @row as sframe_lookup() leaves it,
 * for find_rule() to tell a gap from a function without rows.
 * *@mod receives the module of the PC itself, the frame's: a return
 * address is looked up at PC - 1, which lies in another module when the
 * call was the last instruction of its module. On entry, *@mod is a guess
 * at the module of PC - 1 (the last frame's, in a walk) or NULL.
 */
static int find_row(const struct sframe_unwinder *u, uint64_t pc, uint32_t frame_flags,
		    struct sframe_row *row, const struct sframe_section **sec,
		    const struct sframe_module **mod)
{
	const bool exact = exact_pc(frame_flags);
	const uint64_t at = lookup_pc(pc, frame_flags);
	const struct sframe_module *m = module_of(u, *mod, at);
	int ret;

	*mod = at == pc || (m && pc < m->end) ? m : sframe_modules_find(u->modules, pc);
	*sec = m ? m->sec : NULL;
	row->fde.index = SFRAME_NO_INDEX;
	if (m && m->sec) {
		if (m->sec->abi != u->abi)
			return -SFRAME_ERR_ABI;
		ret = sframe_lookup(m->sec, at, row);
		/* Found a row, a function without rows, or an error: done. */
		if (ret != -SFRAME_ERR_NOT_FOUND || exact || row->fde.index != SFRAME_NO_INDEX)
			return ret;
	} else if (exact) {
		return -SFRAME_ERR_NOT_FOUND;
	}
	/*
	 * No function at PC - 1. The return address of a signal handler is
	 * the restorer's first instruction, so PC - 1 lies before it: accept
	 * the exact PC, for signal trampolines only.
	 */
	m = *mod;
	if (!m || !m->sec)
		return -SFRAME_ERR_NOT_FOUND;
	if (m->sec->abi != u->abi)
		return -SFRAME_ERR_ABI;
	ret = sframe_lookup(m->sec, pc, row);
	if (ret != 0 && ret != -SFRAME_ERR_NOT_FOUND)
		return ret;
	if (row->fde.index == SFRAME_NO_INDEX || !row->fde.signal) {
		row->fde.index = SFRAME_NO_INDEX;
		return -SFRAME_ERR_NOT_FOUND;
	}
	*sec = m->sec;
	return ret;
}

/*
 * find_rule() for the frames its first try does not serve: the row from
 * find_row() (@tried as there), the rule from the row. Out of line: its
 * row stays off the walks' frames.
 */
SFRAME_NOINLINE int sf_find_rule_row(const struct sframe_unwinder *u, uint64_t pc,
				      uint32_t frame_flags, struct unwind_rule *r,
				      const struct sframe_module **mod)
{
	const struct sframe_section *sec;
	struct sframe_row row;
	int ret;

	ret = find_row(u, pc, frame_flags, &row, &sec, mod);
	if (ret == 0) {
		rule_from_rules(&unwind_abi_of(u->abi)->reg, &row.rules, r);
		return 0;
	}
	/* A function without rows that the reader says is a frame of its own. */
	if (ret == -SFRAME_ERR_NOT_FOUND && sec && row.fde.index != SFRAME_NO_INDEX &&
	    row.fde.rowless != SFRAME_ROWLESS_NONE) {
		if (row.fde.rowless == SFRAME_ROWLESS_SIGNAL)
			return ROWLESS_SIGNAL;
		r->kind = RULE_RA_END;
		return 0;
	}
	return ret;
}

/* The cache's index of module @m: 1 + its place in the table, 0 for none. */
static uint32_t module_index(const struct sframe_unwinder *u, const struct sframe_module *m)
{
	/* (An index: the entry stays 32 bytes on every host.) */
	return m ? (uint32_t)(m - u->modules->slots) + 1 : 0;
}

/*
 * The steps that apply no rule: the frame-pointer fallback, a signal
 * trampoline without rows, or @found's error.
 */
static int step_other(const struct sframe_unwinder *u, struct sframe_cursor *c, int found)
{
	if (found == ROWLESS_SIGNAL)
		return step_signal(u, c);
	if (found == -SFRAME_ERR_NOT_FOUND)
		return step_no_sframe(u, c);
	return found;
}

/* The step for the outcome @found of find_rule() or the cache (with @rule when 0). */
static int step_found(const struct sframe_unwinder *u, struct sframe_cursor *c, int found,
		      const struct unwind_rule *rule)
{
	struct walk w;

	if (found)
		return step_other(u, c, found);
	walk_init(&w, u, false);
	return apply_rule(&w, c, rule, cfa_floor(c));
}

/*
 * The step: the frame's rule from the cache or from its row (then
 * remembered in the cache), applied. *@mod receives the current frame's
 * module, unless the depth bound ends the walk before the step looks at the
 * frame (-SFRAME_ERR_DEPTH); on entry it is a guess at it (find_row()):
 * the walks pass the last frame's module, which saves the table search for
 * most frames.
 */
static SFRAME_NOINLINE int step(const struct sframe_unwinder *u, struct sframe_cursor *c,
				const struct sframe_module **mod)
{
	struct sframe_unwind_cache *cache = c->regs.pc ? u->cache : NULL;
	const bool exact = exact_pc(c->flags);
	struct sframe_cache_entry *e = NULL;
	struct unwind_rule rule;
	uint32_t max;
	int found;

	max = u->max_depth ? u->max_depth : SFRAME_UNWIND_DEFAULT_DEPTH;
	if (c->depth + 1 >= max)
		return -SFRAME_ERR_DEPTH;
	if (cache)
		e = sf_cache_find(cache, c->regs.pc, exact);
	if (e) {
		cache->hits++;
		*mod = module_at(u->modules, sf_cache_module(e));
		found = sf_cache_rule(e, &rule) ? 0 : -SFRAME_ERR_NOT_FOUND;
	} else {
		found = find_rule(u, c->regs.pc, c->flags, &rule, mod);
		if (cache)
			cache->misses++;
		/* (Errors of the section or its reader are not the PC's to keep.) */
		if (cache && (found == 0 || found == -SFRAME_ERR_NOT_FOUND))
			sf_cache_insert(cache, c->regs.pc, exact, found ? NULL : &rule,
					module_index(u, *mod));
	}
	return step_found(u, c, found, &rule);
}

int sframe_unwind_step(const struct sframe_unwinder *u, struct sframe_cursor *c)
{
	const struct sframe_module *m = NULL;

	if (!usable(u) || !c)
		return -SFRAME_ERR_INVAL;
	return step(u, c, &m);
}

/*
 * What sframe_unwind_stack() and sframe_unwind_pcs() carry from round to
 * round: the cursor, the run's lookup for the frame it stopped at, the
 * last frame's module (step()'s guess), and whether the walk has runs.
 */
struct walk_state {
	struct sframe_cursor c;
	struct pending pend;
	const struct sframe_module *m;
	bool run;
};

/*
 * The start shared by sframe_unwind_stack() and sframe_unwind_pcs(): the
 * argument checks, *@count = 0, the cursor at @regs. Returns 0 when there
 * is room for a frame, else the walk's result (an error, or
 * SFRAME_UNWIND_FULL for an empty array).
 */
static int walk_begin(const struct sframe_unwinder *u, const struct sframe_regs *regs,
		      bool have_array, uint32_t max, uint32_t *count, struct walk_state *ws)
{
	int ret;

	if (!count)
		return -SFRAME_ERR_INVAL;
	*count = 0;
	if (!have_array && max)
		return -SFRAME_ERR_INVAL;
	ret = sframe_unwind_init(u, &ws->c, regs);
	if (ret)
		return ret;
	ws->pend.found = NO_PENDING;
	ws->m = NULL;
	ws->run = sf_runs(u);
	if (max == 0)
		return SFRAME_UNWIND_FULL;
	return 0;
}

/*
 * The step of the frame a run stopped at: the run's lookup (*@pend) when
 * it made one, else step(). *@mod receives the frame's module.
 */
static int step_after(const struct sframe_unwinder *u, struct sframe_cursor *c,
		      struct pending *pend, const struct sframe_module **mod)
{
	const int found = pend->found;

	pend->found = NO_PENDING;
	if (found == NO_PENDING)
		return step(u, c, mod);
	*mod = pend->mod;
	return step_found(u, c, found, &pend->rule);
}

int sframe_unwind_stack(const struct sframe_unwinder *u, const struct sframe_regs *regs,
			struct sframe_frame *frames, uint32_t max, uint32_t *count)
{
	struct walk_state ws;
	uint32_t n;
	int ret;

	ret = walk_begin(u, regs, frames != NULL, max, count, &ws);
	if (ret)
		return ret;
	frame_from(&frames[0], &ws.c);
	n = 1;
	/*
	 * Each round adds a frame or returns; step() bounds depth. A frame's
	 * module is the one its step found (from the module table or the
	 * cache); only a frame no step looked at needs a search of its own.
	 */
	while (n < max) {
		ret = 0;
		if (ws.run) {
			n = sf_run_frames(u, &ws.c, frames, n, max, &ret, &ws.pend);
			if (n >= max)
				break;
		}
		if (!ret) {
			ret = step_after(u, &ws.c, &ws.pend, &ws.m);
			frames[n - 1].module = ret == -SFRAME_ERR_DEPTH ?
				sframe_modules_find(u->modules, frames[n - 1].pc) : ws.m;
		}
		if (ret) {
			if (ret == -SFRAME_ERR_NOT_FOUND)
				frames[n - 1].flags |= SFRAME_FRAME_NO_SFRAME;
			frames[n - 1].flags |= ws.c.flags & SFRAME_FRAME_NO_SFRAME;
			*count = n;
			return ret;
		}
		frame_stepped(&frames[n - 1], &ws.c);
		frame_unset(&frames[n]);
		n++;
	}
	frames[n - 1].module = sframe_modules_find(u->modules, frames[n - 1].pc);
	*count = n;
	return SFRAME_UNWIND_FULL;
}

int sframe_unwind_pcs(const struct sframe_unwinder *u, const struct sframe_regs *regs,
		      uint64_t *pcs, uint32_t max, uint32_t *count)
{
	struct walk_state ws;
	uint32_t n;
	int ret;

	ret = walk_begin(u, regs, pcs != NULL, max, count, &ws);
	if (ret)
		return ret;
	pcs[0] = ws.c.regs.pc;
	n = 1;
	/* Each round adds at least one PC or returns; step() bounds depth. */
	while (n < max) {
		if (ws.run) {
			n = sf_run_pcs(u, &ws.c, pcs, n, max, &ret, &ws.pend);
			if (ret || n >= max)
				break;
		}
		ret = step_after(u, &ws.c, &ws.pend, &ws.m);
		if (ret)
			break;
		pcs[n++] = ws.c.regs.pc;
	}
	*count = n;
	return ret ? ret : SFRAME_UNWIND_FULL;
}
