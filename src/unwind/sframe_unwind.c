/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_unwind.c - one step from a frame to its caller, and whole walks.
 *
 * Nothing read from the stack is trusted: every address is computed with
 * overflow checks, every read goes through the caller's callback and its
 * failure ends the walk, and the CFA must rise from frame to frame so that a
 * corrupt or hostile stack cannot make the walk loop.
 *
 * A step finds the frame's rule (struct unwind_rule) in the cache or turns
 * the frame's row into one, and apply_rule() computes the caller from it:
 * the same checks and the same results whichever way the rule came. What
 * differs between ABIs is read from their description (unwind_abi.h).
 */
#include "sframe_internal.h"
#include <sframe/sframe_unwind.h>
#include "sframe_cache.h"
#include "unwind_abi.h"
#include "unwind_rule.h"

/*
 * What a step reads of the unwinder, loaded once per walk: the walks keep
 * it in registers, where the unwinder's own fields would be loaded again
 * after every store to the caller's array (which the compiler must assume
 * may alias them). @window_only, set for cached_run(), leaves a read the
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
};

/* The unwinder's window lies 2^32 bytes or more from both ends of the address space. */
static SFRAME_ALWAYS_INLINE bool window_far(const struct sframe_unwinder *u)
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
}

/* An unwinder with an ABI and a way to read the stack. */
static bool usable(const struct sframe_unwinder *u)
{
	return u && unwind_abi_of(u->abi) && (u->read_stack || u->stack_data);
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
static int saved_reg(const struct sframe_unwinder *u, uint32_t frame_flags, uint64_t sigctx,
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

/*
 * The value of DWARF register @reg in the current frame. (Inline, the
 * rest of the registers out of line in saved_reg(): the cursor's address
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
	ret = saved_reg(u, c->flags, c->sigctx, reg, &x);
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

	if (u->strip_ra)
		plain = u->strip_ra(u->strip_ctx, ra);
	if (plain != ra)
		*frame_flags |= SFRAME_FRAME_RA_SIGNED;
	return plain;
}

/*
 * The lowest CFA the current frame may have: at or above SP, above the
 * last CFA. (A last CFA of 2^64 - 1 leaves only 2^64 - 1, which is
 * misaligned: no CFA passes.)
 */
static SFRAME_ALWAYS_INLINE uint64_t cfa_floor(const struct sframe_cursor *c)
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
	if (SFRAME_UNLIKELY(!add_off(base, r->cfa_off, cfa)))
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
	if (ret == WINDOW_MISS)
		return ret;
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

/* find_row()'s @tried when find_rule() did not look the PC up. */
#define NOT_TRIED 1

/* A row table in @sec's index: sframe_lookup_rules() answers from it. */
static SFRAME_ALWAYS_INLINE bool has_row_table(const struct sframe_section *sec)
{
	return sec->index && sec->index->row_blocks;
}

/*
 * Find the row for the current frame's PC, and the section it came from:
 * on 0 and on -SFRAME_ERR_NOT_FOUND, @row as sframe_lookup() leaves it,
 * for find_rule() to tell a gap from a function without rows.
 * *@mod receives the module of the PC itself, the frame's: a return
 * address is looked up at PC - 1, which lies in another module when the
 * call was the last instruction of its module. On entry, *@mod is a guess
 * at the module of PC - 1 (the last frame's, in a walk) or NULL. @tried:
 * what find_rule() got from sframe_lookup_rules() in that guess, which
 * then is PC - 1's module and the PC's (NOT_FOUND or an error), else
 * NOT_TRIED.
 */
static int find_row(const struct sframe_unwinder *u, uint64_t pc, uint32_t frame_flags,
		    struct sframe_row *row, const struct sframe_section **sec,
		    const struct sframe_module **mod, int tried)
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
		/*
		 * find_rule()'s try, or the whole row: its code is the one
		 * sframe_lookup() would give, and only NOT_FOUND needs the
		 * row it leaves out.
		 */
		ret = tried;
		if (tried == NOT_TRIED || tried == -SFRAME_ERR_NOT_FOUND)
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

/* The rule of a decoded row, its registers sorted into roles once. */
static SFRAME_ALWAYS_INLINE void rule_from_rules(const struct unwind_abi *abi,
						 const struct sframe_rules *s, struct unwind_rule *r)
{
	r->kind = loc_kind(&s->ra, RULE_RA_LINK, RULE_RA_REG, RULE_RA_DEREF, RULE_RA_END) |
		  loc_kind(&s->fp, RULE_FP_SAME, RULE_FP_REG, RULE_FP_DEREF, RULE_FP_NONE);
	if (s->ra_undefined)
		r->kind |= RULE_RA_END;
	if (s->cfa.reg == abi->reg.fp_reg)
		r->kind |= RULE_CFA_FP;
	else if (s->cfa.reg != abi->reg.sp_reg)
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

/* find_rule(): a v3 signal trampoline without rows (step_signal()). */
#define ROWLESS_SIGNAL 1

/*
 * find_rule() for the frames its first try does not serve: the row from
 * find_row() (@tried as there), the rule from the row. Out of line: its
 * row stays off the walks' frames.
 */
static SFRAME_NOINLINE int find_rule_row(const struct sframe_unwinder *u, uint64_t pc,
					 uint32_t frame_flags, struct unwind_rule *r,
					 const struct sframe_module **mod, int tried)
{
	const struct sframe_section *sec;
	struct sframe_row row;
	int ret;

	ret = find_row(u, pc, frame_flags, &row, &sec, mod, tried);
	if (ret == 0) {
		rule_from_rules(unwind_abi_of(u->abi), &row.rules, r);
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

/*
 * The rule for the frame at @pc (@frame_flags its flags) from its row: 0
 * (a rule, or the end of the stack as a rule), ROWLESS_SIGNAL,
 * -SFRAME_ERR_NOT_FOUND (no SFrame for this PC) or another error. *@mod
 * receives the frame's module (on entry, find_row()'s guess). (The PC and
 * flags by value: a walk's cursor stays in registers.)
 *
 * What most frames of a walk are, it tries first: PC - 1 and the PC in one
 * module (the last frame's, mostly), and a row there from the section's
 * row table. The rest as find_row() finds it.
 */
static SFRAME_ALWAYS_INLINE int find_rule(const struct sframe_unwinder *u, uint64_t pc,
					  uint32_t frame_flags, struct unwind_rule *r,
					  const struct sframe_module **mod)
{
	const uint64_t at = lookup_pc(pc, frame_flags);
	const struct sframe_module *m = module_of(u, *mod, at);
	struct sframe_rules rules;
	int ret = NOT_TRIED;

	/* (The guess find_row() takes: it does not search again.) */
	*mod = m;
	if (m && pc < m->end && m->sec && m->sec->abi == u->abi && has_row_table(m->sec)) {
		ret = sframe_lookup_rules(m->sec, at, &rules);
		if (ret == 0) {
			rule_from_rules(unwind_abi_of(u->abi), &rules, r);
			return 0;
		}
	}
	return find_rule_row(u, pc, frame_flags, r, mod, ret);
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
 * The start shared by sframe_unwind_stack() and sframe_unwind_pcs(): the
 * argument checks, *@count = 0, the cursor at @regs. Returns 0 when there
 * is room for a frame, else the walk's result (an error, or
 * SFRAME_UNWIND_FULL for an empty array).
 */
static int walk_begin(const struct sframe_unwinder *u, const struct sframe_regs *regs,
		      bool have_array, uint32_t max, uint32_t *count, struct sframe_cursor *c)
{
	int ret;

	if (!count)
		return -SFRAME_ERR_INVAL;
	*count = 0;
	if (!have_array && max)
		return -SFRAME_ERR_INVAL;
	ret = sframe_unwind_init(u, c, regs);
	if (ret)
		return ret;
	if (max == 0)
		return SFRAME_UNWIND_FULL;
	return 0;
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

static SFRAME_ALWAYS_INLINE void pend_set(struct pending *pend, int found,
					  const struct unwind_rule *rule,
					  const struct sframe_module *mod)
{
	pend->found = found;
	pend->rule = *rule;
	pend->mod = mod;
}

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
	if (reads)
		w->win_fits = 0;
}

/*
 * The index past the last frame a run may add from @n: by the array, by
 * the depth bound (step() checks), and none unless the frame's PC, SP and
 * FP are known.
 */
static SFRAME_ALWAYS_INLINE uint32_t run_end(const struct sframe_cursor *c, uint32_t n,
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
 * never takes.
 */
static SFRAME_ALWAYS_INLINE bool run_rule(const struct sframe_unwinder *u,
					  const struct sframe_cursor *c,
					  const struct sframe_cache_entry *e, struct unwind_rule *r,
					  const struct sframe_module **mod, struct pending *pend,
					  bool memo)
{
	struct unwind_rule looked;
	int found;

	if (memo)
		return e && sf_cache_rule(e, r);
	/* (Into a local whose address calls take: @r stays in registers.) */
	found = find_rule(u, c->regs.pc, c->flags, &looked, mod);
	if (found || !sf_rule_plain(&looked)) {
		pend_set(pend, found, &looked, *mod);
		return false;
	}
	*r = looked;
	r->kind &= SF_CACHE_RULE_BITS;
	return true;
}

/*
 * The last frame of a run: no CFA yet, and the module of the step that
 * ended the walk with @ret (its END or error is the walk's result) or none
 * (the caller gives it from the step it takes).
 */
static SFRAME_ALWAYS_INLINE void run_last(struct sframe_frame *f, int ret,
					  const struct sframe_module *mod)
{
	frame_unset(f);
	if (ret)
		f->module = mod;
}

/*
 * What a step by a plain rule leaves in these fields (commit()), the FP
 * known (run_steps() tests it): stated at the top of a run's loop, so that
 * the compiler need not carry them around it. Before the first step they
 * may differ, but such a step reads none of them (its rule names no
 * register, and the frame's SP and FP are known).
 */
static SFRAME_ALWAYS_INLINE void run_state(struct sframe_cursor *c)
{
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
 * last one's guess (sf_cache_follow()), so that the next rule is loaded
 * while the return address is still on its way; or, without a cache, from
 * find_rule(), plain rules only (sf_rule_plain()), the others left in
 * *@pend for step_found(). The rule's constant mask leaves out the branches
 * of apply_rule() such a rule never takes. Measured on the bench's
 * in-process chain (33 frames, release build), ns a frame: warm cache 5.5
 * for the PCs and 6.1-6.4 for the frame records, against 10-11 through
 * step() for every frame and 6.1-6.3 for libunwind's unw_backtrace(); no
 * cache, row table: 18 over a stack copy and 24 through the callback,
 * against 24.5 and 32 through step().
 *
 * Fills either @pcs (a PC per frame) or @frames (the other is NULL, a
 * constant in each copy), as the walks do, from index @n on. Stops, the
 * cursor at the last frame reached, at the first frame it does not step
 * (no rule of that shape, a read outside the window, the FP unknown), at
 * the depth bound or at @max; *@res receives the result of a step that
 * ended the walk (END or an error), else 0. Returns the new number of
 * frames. (With frame records and the cache, the module table is read when
 * an entry's module differs from the last.)
 */
static SFRAME_ALWAYS_INLINE uint32_t run_steps(const struct sframe_unwinder *u,
					       struct sframe_cursor *cursor, uint64_t *pcs,
					       struct sframe_frame *frames, uint32_t n, uint32_t max,
					       int *res, struct pending *pend, bool memo, bool reads)
{
	const struct sframe_module *mod = NULL;
	struct sframe_cursor c = *cursor;
	struct sframe_cache_entry *e = NULL;
	uint32_t k = n, end, mod_index = 0;
	uint64_t floor = cfa_floor(&c);
	struct unwind_rule r;
	struct walk w;
	int ret = 0;

	run_init(&w, u, reads);
	end = run_end(&c, n, max, w.max_depth);
	if (memo && k < end)
		e = sf_cache_find(u->cache, c.regs.pc, exact_pc(c.flags));
	while (k < end) {
		if (!run_rule(u, &c, e, &r, &mod, pend, memo))
			break;
		run_state(&c);
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
			e = sf_cache_follow(u->cache, e, c.regs.pc);
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
static bool runs(const struct sframe_unwinder *u)
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
static SFRAME_NOINLINE uint32_t run_pcs(const struct sframe_unwinder *u,
					struct sframe_cursor *cursor, uint64_t *pcs, uint32_t n,
					uint32_t max, int *res, struct pending *pend)
{
	if (!u->stack_data)
		return run_steps(u, cursor, pcs, NULL, n, max, res, pend, false, true);
	if (u->cache)
		return run_steps(u, cursor, pcs, NULL, n, max, res, pend, true, false);
	return run_steps(u, cursor, pcs, NULL, n, max, res, pend, false, false);
}

static SFRAME_NOINLINE uint32_t run_frames(const struct sframe_unwinder *u,
					   struct sframe_cursor *cursor, struct sframe_frame *frames,
					   uint32_t n, uint32_t max, int *res, struct pending *pend)
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
	struct pending pend = { .found = NO_PENDING };
	const struct sframe_module *m = NULL;
	struct sframe_cursor c;
	uint32_t n;
	bool run;
	int ret;

	ret = walk_begin(u, regs, frames != NULL, max, count, &c);
	if (ret)
		return ret;
	run = runs(u);
	frame_from(&frames[0], &c);
	n = 1;
	/*
	 * Each round adds a frame or returns; step() bounds depth. A frame's
	 * module is the one its step found (from the module table or the
	 * cache); only a frame no step looked at needs a search of its own.
	 */
	while (n < max) {
		ret = 0;
		if (run) {
			n = run_frames(u, &c, frames, n, max, &ret, &pend);
			if (n >= max)
				break;
		}
		if (!ret) {
			ret = step_after(u, &c, &pend, &m);
			frames[n - 1].module = ret == -SFRAME_ERR_DEPTH ?
				sframe_modules_find(u->modules, frames[n - 1].pc) : m;
		}
		if (ret) {
			if (ret == -SFRAME_ERR_NOT_FOUND)
				frames[n - 1].flags |= SFRAME_FRAME_NO_SFRAME;
			frames[n - 1].flags |= c.flags & SFRAME_FRAME_NO_SFRAME;
			*count = n;
			return ret;
		}
		frame_stepped(&frames[n - 1], &c);
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
	struct pending pend = { .found = NO_PENDING };
	const struct sframe_module *m = NULL;
	struct sframe_cursor c;
	uint32_t n;
	bool run;
	int ret;

	ret = walk_begin(u, regs, pcs != NULL, max, count, &c);
	if (ret)
		return ret;
	run = runs(u);
	pcs[0] = c.regs.pc;
	n = 1;
	/* Each round adds at least one PC or returns; step() bounds depth. */
	while (n < max) {
		if (run) {
			n = run_pcs(u, &c, pcs, n, max, &ret, &pend);
			if (ret || n >= max)
				break;
		}
		ret = step_after(u, &c, &pend, &m);
		if (ret)
			break;
		pcs[n++] = c.regs.pc;
	}
	*count = n;
	return ret ? ret : SFRAME_UNWIND_FULL;
}
