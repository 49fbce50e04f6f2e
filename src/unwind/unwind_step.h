/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * unwind_step.h - the step's rule code, shared by the step and the walks
 * (sframe_unwind.c) and by the run of steps (sframe_run.c); not installed.
 *
 * A step finds the frame's rule (struct unwind_rule) in the cache or turns
 * the frame's row into one (find_rule()), and apply_rule() computes the
 * caller from it: the same checks and the same results whichever way the
 * rule came, and whichever loop asked.
 */
#ifndef SFRAME_UNWIND_STEP_H
#define SFRAME_UNWIND_STEP_H

#include "sframe_internal.h"
#include <sframe/sframe_unwind.h>
#include "sframe_cache.h"
#include "unwind_abi.h"
#include "unwind_rule.h"
#include "unwind_rows.h"

/*
 * What a step reads of the unwinder, loaded once per walk: the walks keep
 * it in registers, where the unwinder's own fields would be loaded again
 * after every store to the caller's array (which the compiler must assume
 * may alias them). @window_only, set for a run (sframe_run.c), leaves a read the
 * window cannot serve to step(), so that no call is left on that loop's
 * path.
 */
struct walk {
	const struct sframe_unwinder *u;
	const struct unwind_abi *abi;
	const uint8_t *win;
	uint64_t win_addr;
	uint64_t win_fits;	/* window offsets an 8-byte read may start at: 0 .. this - 1 */
	uint32_t sp_bias;
	bool be;
	bool window_only;	/* a read the window cannot serve: WINDOW_MISS */
	bool win_far;		/* the window lies 2^32 bytes or more from both ends */
	uint32_t max_depth;
	sframe_strip_ra_fn strip;	/* u->strip_ra; a run's NULL: such frames are step()'s */
};

/* The unwinder's window lies 2^32 bytes or more from both ends of the address space. */
static inline bool window_far(const struct sframe_unwinder *u)
{
	const uint64_t gap = (uint64_t)1 << 32;

	return u->stack_data && u->stack_addr >= gap && u->stack_addr <= -gap &&
	       u->stack_len <= -gap - u->stack_addr;
}

static SFRAME_ALWAYS_INLINE void walk_init(struct walk *w, const struct sframe_unwinder *u,
					   bool window_only)
{
	w->u = u;
	w->abi = unwind_abi_of(u->abi);
	w->win = u->stack_data;
	w->win_addr = u->stack_addr;
	w->win_fits = u->stack_data && u->stack_len >= 8 ? u->stack_len - 7 : 0;
	w->sp_bias = w->abi->sp_bias;
	w->be = w->abi->stack_be;
	w->window_only = window_only;
	w->win_far = window_far(u);
	w->max_depth = u->max_depth ? u->max_depth : SFRAME_UNWIND_DEFAULT_DEPTH;
	w->strip = u->strip_ra;
}

/*
 * A walk whose reads come from a window far from both ends of the address
 * space and that leaves the others to step() (a run): a slot whose address
 * wrapped around lies outside the window, so the window's bounds test is
 * also the wrap test, and such a slot's read gives step() the frame, which
 * then reports what the wrap means.
 */
static SFRAME_ALWAYS_INLINE bool window_bounds_wrap(const struct walk *w)
{
	return w->window_only && w->win_far;
}

/* The 8 bytes at @b as a value of the target's byte order. */
static SFRAME_ALWAYS_INLINE uint64_t stack_value(bool be, const uint8_t *b)
{
	return be ? sf_be64(b) : sf_le64(b);
}

/*
 * The 8 bytes at @addr from the caller's window, when it holds them all:
 * a load, no call. Compilers save registers in aligned slots on every
 * supported ABI; a misaligned address comes from garbage (a register that
 * was not a frame pointer), and the callback is promised aligned reads, so
 * aligned addresses only (whose 8 bytes never pass 2^64).
 */
static SFRAME_ALWAYS_INLINE bool window_read(const struct walk *w, uint64_t addr, uint64_t *val)
{
	/* rel wraps for addresses below the window: one unsigned test for both sides. */
	const uint64_t rel = addr - w->win_addr;

	if (SFRAME_LIKELY(!(addr & 7) & (rel < w->win_fits))) {
		*val = stack_value(w->be, w->win + rel);
		return true;
	}
	return false;
}

/*
 * A stack read the window cannot serve. (Inline: without a window, every
 * read of a walk comes here, and a call of its own around the callback's
 * showed in the time per frame.)
 */
static inline int read_callback(const struct sframe_unwinder *u, bool be, uint64_t addr,
				uint64_t *val)
{
	uint8_t b[8];
	int ret;

	if (addr & 7)
		return -SFRAME_ERR_BAD_CFA;
	if (!u->read_stack)
		return -SFRAME_ERR_READ;
	ret = u->read_stack(u->stack_ctx, addr, b, sizeof(b));
	if (ret > 0)
		return -SFRAME_ERR_READ;
	if (ret)
		return ret;
	*val = stack_value(be, b);
	return 0;
}

/* A read that @window_only leaves to step() (beside 0, END and errors). */
#define WINDOW_MISS 3

/* Read one 64-bit stack value: from the window, else through the callback. */
static SFRAME_ALWAYS_INLINE int read_u64(const struct walk *w, uint64_t addr, uint64_t *val)
{
	uint64_t v = 0;
	int ret;

	if (window_read(w, addr, val))
		return 0;
	if (w->window_only)
		return WINDOW_MISS;
	/*
	 * (Through a local: @val, often a field of the caller's new
	 * registers, stays out of memory; stored there piecemeal and copied
	 * whole, it would stall the copy.)
	 */
	ret = read_callback(w->u, w->be, addr, &v);
	*val = v;
	return ret;
}

/*
 * base + off without wrapping around the address space: the sum wraps
 * exactly when it comes out below base for a positive offset, or not below
 * it for a negative one (one comparison, no branch on the sign).
 */
static inline bool add_off(uint64_t base, int64_t off, uint64_t *out)
{
	uint64_t sum = base + (uint64_t)off;

	*out = sum;
	return (sum < base) == (off < 0);
}

/*
 * A register the cursor does not hold: known in the topmost frame (the
 * embedder's hook), or in a frame a signal interrupted (the register block
 * its signal frame saved).
 */
int sf_saved_reg(const struct sframe_unwinder *u, uint32_t frame_flags, uint64_t sigctx,
		 uint32_t reg, uint64_t *v);

/*
 * The value of DWARF register @reg in the current frame. (Inline, the
 * rest of the registers out of line in sf_saved_reg(): the cursor's address
 * is taken by no call, so that a walk keeps it in registers.)
 */
static SFRAME_ALWAYS_INLINE int reg_value(const struct sframe_unwinder *u, const struct sframe_cursor *c,
		     uint32_t reg, uint64_t *v)
{
	const struct unwind_abi *abi = unwind_abi_of(u->abi);
	const struct sframe_regs *r = &c->regs;
	uint64_t x = 0;
	int ret;

	if (reg == abi->reg.sp_reg && (r->valid & SFRAME_REG_SP)) {
		*v = r->sp;
		return 0;
	}
	if (reg == abi->reg.fp_reg && (r->valid & SFRAME_REG_FP)) {
		*v = r->fp;
		return 0;
	}
	if (abi->ra_in_link && reg == abi->reg.ra_reg && (r->valid & SFRAME_REG_RA)) {
		*v = r->ra;
		return 0;
	}
	ret = sf_saved_reg(u, c->flags, c->sigctx, reg, &x);
	*v = x;
	return ret;
}

/* (reg or the CFA) + off, loaded from when @deref: an RA or FP rule's value. */
static SFRAME_ALWAYS_INLINE int loc_value(const struct walk *w, const struct sframe_cursor *c,
					  bool from_reg, bool deref, uint32_t reg, int32_t off,
					  uint64_t cfa, uint64_t *v)
{
	uint64_t base = cfa, addr;
	int ret;

	if (from_reg) {
		ret = reg_value(w->u, c, reg, &base);
		if (ret)
			return ret;
	}
	/*
	 * A slot in a window far from both ends of the address space is a
	 * load: had base + off wrapped (|off| < 2^31), it would lie outside.
	 */
	if (deref && w->win_far && window_read(w, base + (uint64_t)(int64_t)off, v))
		return 0;
	if (deref && window_bounds_wrap(w))
		return WINDOW_MISS;
	if (SFRAME_UNLIKELY(!add_off(base, off, &addr)))
		return -SFRAME_ERR_BAD_CFA;
	if (!deref) {
		*v = addr;
		return 0;
	}
	return read_u64(w, addr, v);
}

/*
 * Remove a PAuth signature: the embedder's hook, or keep the VA bits. The
 * frame is marked when there was a signature.
 */
static SFRAME_ALWAYS_INLINE uint64_t strip_ra(const struct walk *w, uint64_t ra,
					      uint32_t *frame_flags)
{
	const struct sframe_unwinder *u = w->u;
	const unsigned int bits = u->va_bits ? u->va_bits : UNWIND_DEFAULT_VA_BITS;
	uint64_t plain = bits < 64 ? ra & (((uint64_t)1 << bits) - 1) : ra;

	if (w->strip)
		plain = w->strip(u->strip_ctx, ra);
	if (plain != ra)
		*frame_flags |= SFRAME_FRAME_RA_SIGNED;
	return plain;
}

/*
 * The lowest CFA the current frame may have: at or above SP, above the
 * last CFA. (A last CFA of 2^64 - 1 leaves only 2^64 - 1, which is
 * misaligned: no CFA passes.)
 */
static inline uint64_t cfa_floor(const struct sframe_cursor *c)
{
	const uint64_t sp = (c->regs.valid & SFRAME_REG_SP) ? c->regs.sp : 0;
	const uint64_t prev = c->prev_cfa;
	const uint64_t above = prev + (prev != SFRAME_UINT64_MAX);

	return prev && above > sp ? above : sp;
}

/*
 * The CFA of the current frame must be aligned and at or above @floor
 * (cfa_floor(), or what a walk carries from step to step: after a step, SP
 * is at or below the CFA just found). One branch: the walk's hottest checks.
 */
static SFRAME_ALWAYS_INLINE int check_cfa(uint64_t cfa, uint64_t floor)
{
	if (SFRAME_UNLIKELY((cfa & 7) | (cfa < floor)))
		return -SFRAME_ERR_BAD_CFA;
	return 0;
}

/* Caller SP from the CFA (below it on s390x, by its register save area). */
static SFRAME_ALWAYS_INLINE int caller_sp(const struct walk *w, uint64_t cfa, uint64_t *sp)
{
	if (SFRAME_UNLIKELY(cfa < w->sp_bias))
		return -SFRAME_ERR_BAD_CFA;
	*sp = cfa - w->sp_bias;
	return 0;
}

/*
 * Is the caller's FP slot CFA + @off already popped? In a frame whose PC and
 * SP are exact (the topmost, or one a signal interrupted), a slot below SP
 * is no longer part of the frame: the epilogue has restored the FP from it
 * (a sample right after x86_64's "leave" or "pop %rbp", whose row still says
 * "FP at CFA-16"), so the FP register already holds the caller's value.
 * Reading the slot instead fails on a stack copy that starts at SP (a
 * profiler's) and finds whatever was written there since on a live stack.
 */
static SFRAME_ALWAYS_INLINE bool fp_slot_popped(const struct sframe_cursor *c, uint64_t cfa,
						int64_t off)
{
	uint64_t slot;

	return (c->flags & (SFRAME_FRAME_TOPMOST | SFRAME_FRAME_INTERRUPTED)) &&
	       (c->regs.valid & SFRAME_REG_SP) && add_off(cfa, off, &slot) && slot < c->regs.sp;
}

/* The end of every step that succeeds: the caller becomes the current frame. */
static SFRAME_ALWAYS_INLINE void commit(struct sframe_cursor *c, const struct sframe_regs *n,
					uint64_t cfa, uint64_t sigctx, uint32_t prev_flags,
					uint32_t flags)
{
	c->regs = *n;
	c->prev_cfa = cfa;
	c->sigctx = sigctx;
	c->prev_flags = prev_flags;
	c->flags = flags;
	c->depth++;
}

/* The CFA by rule @r, checked against the frame. */
static SFRAME_ALWAYS_INLINE int rule_cfa(const struct walk *w, const struct sframe_cursor *c,
					 const struct unwind_rule *r, uint64_t floor, uint64_t *cfa)
{
	const uint32_t valid = c->regs.valid;
	uint64_t base = 0;
	int ret;

	/* SP and FP straight from the cursor when it has them, as reg_value() would. */
	if (!(r->kind & (RULE_CFA_FP | RULE_CFA_REG)) && (valid & SFRAME_REG_SP)) {
		base = c->regs.sp;
	} else if ((r->kind & (RULE_CFA_FP | RULE_CFA_REG)) == RULE_CFA_FP &&
		   (valid & SFRAME_REG_FP)) {
		base = c->regs.fp;
	} else {
		ret = reg_value(w->u, c, (r->kind & RULE_CFA_REG) ? r->cfa_reg :
				(r->kind & RULE_CFA_FP) ? w->abi->reg.fp_reg : w->abi->reg.sp_reg, &base);
		if (ret)
			return ret;
	}
	/* (A CFA that wrapped puts the RA's slot outside the window: see there.) */
	if (window_bounds_wrap(w) && (r->kind & (RULE_RA_DEREF | RULE_RA_REG | RULE_RA_LINK |
						  RULE_CFA_DEREF)) == RULE_RA_DEREF)
		*cfa = base + (uint64_t)(int64_t)r->cfa_off;
	else if (SFRAME_UNLIKELY(!add_off(base, r->cfa_off, cfa)))
		return -SFRAME_ERR_BAD_CFA;
	if (r->kind & RULE_CFA_DEREF) {
		ret = read_u64(w, *cfa, cfa);
		if (ret)
			return ret;
	}
	ret = check_cfa(*cfa, floor);
	/* (Aligned now: saying so lets the compiler see that slots 8k from it are, too.) */
	*cfa &= ~(uint64_t)7;
	return ret;
}

/* The caller's PC: the return address by rule @r, without its signature. */
static SFRAME_ALWAYS_INLINE int rule_ra(const struct walk *w, const struct sframe_cursor *c,
					const struct unwind_rule *r, uint64_t cfa, uint64_t *ra,
					uint32_t *frame_flags)
{
	uint64_t v = 0;
	int ret;

	/*
	 * (Into a local, stored once: the next frame's lookup waits for this
	 * value, and a store and reload of *@ra would lengthen that wait.)
	 */
	if (r->kind & RULE_RA_LINK) {
		/* Not saved: still in the link register, if that is known. */
		if (!w->abi->ra_in_link || !(c->regs.valid & SFRAME_REG_RA))
			return -SFRAME_ERR_NO_REG;
		v = c->regs.ra;
	} else {
		ret = loc_value(w, c, r->kind & RULE_RA_REG, r->kind & RULE_RA_DEREF, r->ra_reg,
				r->ra_off, cfa, &v);
		if (ret)
			return ret;
	}
	if (r->kind & RULE_RA_MANGLED)
		v = strip_ra(w, v, frame_flags);
	*ra = v;
	return SFRAME_LIKELY(v) ? 0 : -SFRAME_ERR_BAD_RA;
}

/*
 * The caller's FP by rule @r, *@valid = SFRAME_REG_FP when it is known.
 *
 * The CFA and the RA are what the walk needs; the FP only matters if a
 * caller's CFA is based on it. A saved-FP rule that cannot be evaluated
 * (compilers leave stale FP rules on epilogue rows, e.g. the DRAP
 * epilogue's "*(fp+0)" after fp was popped) leaves the caller's FP unknown
 * instead of ending the walk: a rule that later needs it fails with
 * -SFRAME_ERR_NO_REG, and no value is ever guessed.
 */
static SFRAME_ALWAYS_INLINE int rule_fp(const struct walk *w, const struct sframe_cursor *c,
					const struct unwind_rule *r, uint64_t cfa, uint64_t *fp,
					uint32_t *valid, uint32_t *frame_flags)
{
	const uint32_t slot = r->kind & (RULE_FP_DEREF | RULE_FP_REG | RULE_FP_SAME | RULE_FP_NONE);
	int ret = -SFRAME_ERR_NO_REG;

	if ((r->kind & RULE_FP_SAME) ||
	    (slot == RULE_FP_DEREF && fp_slot_popped(c, cfa, r->fp_off))) {
		*fp = c->regs.fp;
		*valid = c->regs.valid & SFRAME_REG_FP;
		return 0;
	}
	if (!(r->kind & RULE_FP_NONE))
		ret = loc_value(w, c, r->kind & RULE_FP_REG, r->kind & RULE_FP_DEREF, r->fp_reg,
				r->fp_off, cfa, fp);
	/* (A run leaves that loss to step(): the FP it carries stays known.) */
	if (ret == WINDOW_MISS || (ret && w->window_only))
		return WINDOW_MISS;
	*valid = ret ? 0 : SFRAME_REG_FP;
	if (ret) {
		*fp = 0;
		*frame_flags |= SFRAME_FRAME_FP_LOST;
	}
	return 0;
}

/*
 * The step by rule @r, whether it came from the cache or from the row, the
 * CFA at or above @floor (check_cfa()): 0 with the cursor at the caller;
 * SFRAME_UNWIND_END or an error with the cursor unchanged.
 */
static SFRAME_ALWAYS_INLINE int apply_rule(const struct walk *w, struct sframe_cursor *c,
					   const struct unwind_rule *r, uint64_t floor)
{
	struct sframe_regs n = { 0 };
	uint32_t flags = 0, fp_valid = 0;
	uint64_t cfa = 0;
	int ret;

	if (SFRAME_UNLIKELY(r->kind & RULE_RA_END))
		return SFRAME_UNWIND_END;
	ret = rule_cfa(w, c, r, floor, &cfa);
	if (SFRAME_UNLIKELY(ret))
		return ret;
	ret = rule_ra(w, c, r, cfa, &n.pc, &flags);
	if (SFRAME_UNLIKELY(ret))
		return ret;
	ret = rule_fp(w, c, r, cfa, &n.fp, &fp_valid, &flags);
	if (SFRAME_UNLIKELY(ret))
		return ret;
	ret = caller_sp(w, cfa, &n.sp);
	if (SFRAME_UNLIKELY(ret))
		return ret;
	n.valid = SFRAME_REG_PC | SFRAME_REG_SP | fp_valid;
	/* A signal trampoline's rows lead to the interrupted PC itself. */
	if (r->kind & RULE_SIGNAL)
		flags |= SFRAME_FRAME_INTERRUPTED;
	commit(c, &n, cfa, 0, (r->kind & RULE_SIGNAL) ? SFRAME_FRAME_SIGNAL : 0, flags);
	return 0;
}

/* The PC is exact (topmost or interrupted frame), not a return address. */
static inline bool exact_pc(uint32_t frame_flags)
{
	return frame_flags & (SFRAME_FRAME_TOPMOST | SFRAME_FRAME_INTERRUPTED);
}

/*
 * Where the frame at @pc is looked up: a return address points after the
 * call, which may be the last instruction of its function (noreturn
 * callees), so PC - 1; an exact PC (@frame_flags) itself.
 */
static SFRAME_ALWAYS_INLINE uint64_t lookup_pc(uint64_t pc, uint32_t frame_flags)
{
	return !exact_pc(frame_flags) && pc > 0 ? pc - 1 : pc;
}

/*
 * The module that holds @at: the guess @m when it does, else the table's
 * (modules do not overlap: the one that holds @at is the search's answer).
 */
static SFRAME_ALWAYS_INLINE const struct sframe_module *
module_of(const struct sframe_unwinder *u, const struct sframe_module *m, uint64_t at)
{
	if (!m || at < m->start || at >= m->end)
		m = sframe_modules_find(u->modules, at);
	return m;
}

/* find_rule(): a v3 signal trampoline without rows (step_signal()). */
#define ROWLESS_SIGNAL 1

/*
 * find_rule() for the frames its first try does not serve: the row from
 * find_row(), the rule from the row. Out of line: its row stays off the
 * walks' frames.
 */
SFRAME_NOINLINE int sf_find_rule_row(const struct sframe_unwinder *u, uint64_t pc,
				      uint32_t frame_flags, struct unwind_rule *r,
				      const struct sframe_module **mod);

/*
 * The rule for the frame at @pc (@frame_flags its flags) from its row: 0
 * (a rule, or the end of the stack as a rule), ROWLESS_SIGNAL,
 * -SFRAME_ERR_NOT_FOUND (no SFrame for this PC) or another error. *@mod
 * receives the frame's module (on entry, find_row()'s guess). (The PC and
 * flags by value: a walk's cursor stays in registers.)
 *
 * What most frames of a walk are, it tries first: PC - 1 and the PC in one
 * module (the last frame's, mostly), and a row there from the module's
 * row table. The rest as find_row() finds it.
 */
static SFRAME_ALWAYS_INLINE int find_rule(const struct sframe_unwinder *u, uint64_t pc,
					  uint32_t frame_flags, struct unwind_rule *r,
					  const struct sframe_module **mod)
{
	const uint64_t at = lookup_pc(pc, frame_flags);
	const struct sframe_module *m = module_of(u, *mod, at);
	uint64_t v;

	/* (The guess find_row() takes: it does not search again.) */
	*mod = m;
	if (m && pc < m->end && m->rows && m->sec && m->sec->abi == u->abi &&
	    rows_of(m->rows, m->sec)) {
		v = rows_find(m->rows, sf_s64(at - m->sec->vaddr));
		if (!(rule_packed_kind(v) & (RULE_PACKED_NONE | RULE_PACKED_ASK))) {
			rule_unpack(v, r);
			return 0;
		}
	}
	return sf_find_rule_row(u, pc, frame_flags, r, mod);
}

/*
 * The module of cache index @index in table @t (0: none; NULL also when
 * the table has shrunk). (Inline: the cached walk of sframe_unwind_stack()
 * asks at every change of module.)
 */
static SFRAME_ALWAYS_INLINE const struct sframe_module *
module_at(const struct sframe_module_table *t, uint32_t index)
{
	if (index == 0 || !t || index - 1 >= t->count)
		return NULL;
	return &t->slots[index - 1];
}

/* The frame's fields that come from the cursor. */
static SFRAME_ALWAYS_INLINE void frame_regs(struct sframe_frame *f, const struct sframe_cursor *c)
{
	f->pc = c->regs.pc;
	f->sp = c->regs.sp;
	f->fp = c->regs.fp;
	f->valid = c->regs.valid;
	f->flags = c->flags;
}

/* What a frame no step has left yet has: no CFA, and no module so far. */
static SFRAME_ALWAYS_INLINE void frame_unset(struct sframe_frame *f)
{
	f->cfa = 0;
	f->module = NULL;
}

/* A new frame; its module is filled in later (see sframe_unwind_stack()). */
static SFRAME_ALWAYS_INLINE void frame_from(struct sframe_frame *f, const struct sframe_cursor *c)
{
	frame_regs(f, c);
	frame_unset(f);
}

/*
 * After a step from frame @f[0] that succeeded: what the step found of
 * that frame, and the caller's registers in @f[1] (its CFA and module are
 * its own step's: frame_unset() until then).
 */
static SFRAME_ALWAYS_INLINE void frame_stepped(struct sframe_frame *f,
					       const struct sframe_cursor *c)
{
	f[0].cfa = c->prev_cfa;
	f[0].flags |= c->prev_flags;
	frame_regs(&f[1], c);
}

/*
 * A rule a run looked up for a frame it does not step, which step_found()
 * then applies: a lookup is never made twice (a read of the section may
 * be a syscall). @found: find_rule()'s outcome, or NO_PENDING.
 */
struct pending {
	int found;
	struct unwind_rule rule;
	const struct sframe_module *mod;
};

#define NO_PENDING 2

static inline void pend_set(struct pending *pend, int found,
					  const struct unwind_rule *rule,
					  const struct sframe_module *mod)
{
	pend->found = found;
	pend->rule = *rule;
	pend->mod = mod;
}

/*
 * The walks' run of steps (sframe_run.c), for sframe_unwind_pcs() (@pcs)
 * and sframe_unwind_stack() (@frames), where sf_runs() says it can take
 * the walk: from frame @n on, at most up to @max; returns the new number
 * of frames, *@res the result of a step that ended the walk (else 0), and
 * *@pend a rule it looked up for the frame it stopped at.
 */
bool sf_runs(const struct sframe_unwinder *u);
uint32_t sf_run_pcs(const struct sframe_unwinder *u, struct sframe_cursor *cursor,
		    uint64_t *pcs, uint32_t n, uint32_t max, int *res, struct pending *pend);
uint32_t sf_run_frames(const struct sframe_unwinder *u, struct sframe_cursor *cursor,
		       struct sframe_frame *frames, uint32_t n, uint32_t max, int *res,
		       struct pending *pend);

#endif /* SFRAME_UNWIND_STEP_H */
