/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_unwind.c - one step from a frame to its caller, and whole walks.
 *
 * Nothing read from the stack is trusted: every address is computed with
 * overflow checks, every read goes through the caller's callback and its
 * failure ends the walk, and the CFA must rise from frame to frame so that a
 * corrupt or hostile stack cannot make the walk loop.
 */
#include "sframe_internal.h"
#include <sframe/sframe_unwind.h>

static bool abi_ok(uint8_t abi)
{
	return abi >= SFRAME_ABI_AARCH64_BE && abi <= SFRAME_ABI_S390X_BE;
}

static bool is_aarch64(uint8_t abi)
{
	return abi == SFRAME_ABI_AARCH64_BE || abi == SFRAME_ABI_AARCH64_LE;
}

/* Read one 64-bit stack value, in the target's byte order. */
static int read_u64(const struct sframe_unwinder *u, uint64_t addr, uint64_t *val)
{
	uint8_t b[8];
	uint64_t v = 0;
	int ret, i;

	/*
	 * Compilers save registers in aligned slots on every supported ABI; a
	 * misaligned address comes from garbage (a register that was not a
	 * frame pointer), and the callback is promised aligned reads.
	 */
	if ((addr & 7) || addr > UINT64_MAX - 7)
		return -SFRAME_ERR_BAD_CFA;
	ret = u->read_stack(u->stack_ctx, addr, b, sizeof(b));
	if (ret > 0)
		return -SFRAME_ERR_READ;
	if (ret)
		return ret;
	if (u->abi == SFRAME_ABI_AARCH64_BE || u->abi == SFRAME_ABI_S390X_BE) {
		for (i = 0; i < 8; i++)
			v = v << 8 | b[i];
	} else {
		for (i = 7; i >= 0; i--)
			v = v << 8 | b[i];
	}
	*val = v;
	return 0;
}

/* base + off without wrapping around the address space. */
static bool add_off(uint64_t base, int64_t off, uint64_t *out)
{
	uint64_t m;

	if (off >= 0) {
		if (base > UINT64_MAX - (uint64_t)off)
			return false;
		*out = base + (uint64_t)off;
		return true;
	}
	m = (uint64_t)(-(off + 1)) + 1;
	if (base < m)
		return false;
	*out = base - m;
	return true;
}

/*
 * amd64 signal frames: the kernel's struct rt_sigframe, as seen by the
 * restorer after the handler returned into it, starts with the ucontext.
 * Its mcontext (struct sigcontext) begins 40 bytes in, with the general
 * registers in this order: r8-r15, rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp,
 * rip. Indexed by DWARF register number 0..16.
 */
#define AMD64_UC_MCONTEXT 40
static const uint8_t amd64_sigctx_slot[17] = {
	13, 12, 14, 11, 9, 8, 10, 15,	/* rax rdx rcx rbx rsi rdi rbp rsp */
	0, 1, 2, 3, 4, 5, 6, 7,		/* r8 .. r15 */
	16,				/* rip */
};

/* The value of DWARF register @reg in the current frame. */
static int reg_value(const struct sframe_unwinder *u, const struct sframe_cursor *c,
		     unsigned int reg, uint64_t *v)
{
	const struct sframe_regs *r = &c->regs;

	if ((int)reg == sframe_abi_sp_reg(u->abi) && (r->valid & SFRAME_REG_SP)) {
		*v = r->sp;
		return 0;
	}
	if ((int)reg == sframe_abi_fp_reg(u->abi) && (r->valid & SFRAME_REG_FP)) {
		*v = r->fp;
		return 0;
	}
	if (u->abi != SFRAME_ABI_AMD64_LE && (int)reg == sframe_abi_ra_reg(u->abi) &&
	    (r->valid & SFRAME_REG_RA)) {
		*v = r->ra;
		return 0;
	}
	/* Other registers survive only in the topmost frame... */
	if ((c->flags & SFRAME_FRAME_TOPMOST) && u->get_reg)
		return u->get_reg(u->reg_ctx, reg, v);
	/* ...or in the register block of a signal frame. */
	if (c->sigctx && u->abi == SFRAME_ABI_AMD64_LE && reg < sizeof(amd64_sigctx_slot))
		return read_u64(u, c->sigctx + 8u * amd64_sigctx_slot[reg], v);
	return -SFRAME_ERR_NO_REG;
}

/* A RA/FP rule's value; -SFRAME_ERR_NO_REG for "unchanged" when unknown. */
static int loc_value(const struct sframe_unwinder *u, const struct sframe_cursor *c,
		     const struct sframe_loc *loc, uint64_t cfa, uint64_t *v)
{
	uint64_t base, addr;
	int ret;

	switch (loc->kind) {
	case SFRAME_LOC_CFA:
		base = cfa;
		break;
	case SFRAME_LOC_REG:
		ret = reg_value(u, c, loc->reg, &base);
		if (ret)
			return ret;
		break;
	default:
		return -SFRAME_ERR_NO_REG;
	}
	if (!add_off(base, loc->offset, &addr))
		return -SFRAME_ERR_BAD_CFA;
	if (!loc->deref) {
		*v = addr;
		return 0;
	}
	return read_u64(u, addr, v);
}

/* Remove a PAuth signature: the embedder's hook, or keep the VA bits. */
static uint64_t strip_ra(const struct sframe_unwinder *u, uint64_t ra)
{
	unsigned int bits = u->va_bits ? u->va_bits : 48;

	if (u->strip_ra)
		return u->strip_ra(u->strip_ctx, ra);
	if (bits >= 64)
		return ra;
	return ra & ((UINT64_C(1) << bits) - 1);
}

/* CFA of the current frame must be aligned, at or above SP, above the last. */
static int check_cfa(const struct sframe_cursor *c, uint64_t cfa)
{
	if (cfa & 7)
		return -SFRAME_ERR_BAD_CFA;
	if ((c->regs.valid & SFRAME_REG_SP) && cfa < c->regs.sp)
		return -SFRAME_ERR_BAD_CFA;
	if (c->prev_cfa && cfa <= c->prev_cfa)
		return -SFRAME_ERR_BAD_CFA;
	return 0;
}

/* Caller SP from the CFA: s390x keeps a 160-byte register save area. */
static int caller_sp(const struct sframe_unwinder *u, uint64_t cfa, uint64_t *sp)
{
	if (u->abi != SFRAME_ABI_S390X_BE) {
		*sp = cfa;
		return 0;
	}
	if (cfa < (uint64_t)-SFRAME_S390X_SP_VAL_OFFSET)
		return -SFRAME_ERR_BAD_CFA;
	*sp = cfa - (uint64_t)-SFRAME_S390X_SP_VAL_OFFSET;
	return 0;
}

static int step_rules(const struct sframe_unwinder *u, struct sframe_cursor *c,
		      const struct sframe_row *row)
{
	const struct sframe_rules *r = &row->rules;
	struct sframe_regs n = { 0 };
	uint64_t base, cfa, ra, fp = 0;
	uint32_t flags = 0;
	int ret;

	ret = reg_value(u, c, r->cfa.reg, &base);
	if (ret)
		return ret;
	if (!add_off(base, r->cfa.offset, &cfa))
		return -SFRAME_ERR_BAD_CFA;
	if (r->cfa.deref) {
		ret = read_u64(u, cfa, &cfa);
		if (ret)
			return ret;
	}
	ret = check_cfa(c, cfa);
	if (ret)
		return ret;

	if (r->ra.kind == SFRAME_LOC_SAME) {
		/* Not saved: still in the link register, if that is known. */
		if (u->abi == SFRAME_ABI_AMD64_LE || !(c->regs.valid & SFRAME_REG_RA))
			return -SFRAME_ERR_NO_REG;
		ra = c->regs.ra;
	} else {
		ret = loc_value(u, c, &r->ra, cfa, &ra);
		if (ret)
			return ret;
	}
	if (r->ra_mangled) {
		uint64_t plain = strip_ra(u, ra);

		if (plain != ra)
			flags |= SFRAME_FRAME_RA_SIGNED;
		ra = plain;
	}
	if (ra == 0)
		return -SFRAME_ERR_BAD_RA;

	/*
	 * The CFA and the RA are what the walk needs; the FP only matters if
	 * a caller's CFA is based on it. A saved-FP rule that cannot be
	 * evaluated (compilers leave stale FP rules on epilogue rows, e.g. the
	 * DRAP epilogue's "*(fp+0)" after fp was popped) leaves the caller's FP
	 * unknown instead of ending the walk: a rule that later needs it fails
	 * with -SFRAME_ERR_NO_REG, and no value is ever guessed.
	 */
	if (r->fp.kind == SFRAME_LOC_SAME) {
		fp = c->regs.fp;
		n.valid |= c->regs.valid & SFRAME_REG_FP;
	} else if (loc_value(u, c, &r->fp, cfa, &fp) == 0) {
		n.valid |= SFRAME_REG_FP;
	} else {
		fp = 0;
		flags |= SFRAME_FRAME_FP_LOST;
	}

	ret = caller_sp(u, cfa, &n.sp);
	if (ret)
		return ret;
	n.pc = ra;
	n.fp = fp;
	n.valid |= SFRAME_REG_PC | SFRAME_REG_SP;
	/* A signal trampoline's rows lead to the interrupted PC itself. */
	if (row->fde.signal)
		flags |= SFRAME_FRAME_INTERRUPTED;

	c->regs = n;
	c->prev_cfa = cfa;
	c->sigctx = 0;
	c->prev_flags = row->fde.signal ? SFRAME_FRAME_SIGNAL : 0;
	c->flags = flags;
	c->depth++;
	return 0;
}

/* A signal trampoline without rows: the kernel's frame layout (amd64). */
static int step_signal(const struct sframe_unwinder *u, struct sframe_cursor *c)
{
	struct sframe_regs n = { 0 };
	uint64_t ctx;
	int ret;

	if (u->abi != SFRAME_ABI_AMD64_LE)
		return -SFRAME_ERR_UNSUPPORTED;
	if (!(c->regs.valid & SFRAME_REG_SP))
		return -SFRAME_ERR_NO_REG;
	if (!add_off(c->regs.sp, AMD64_UC_MCONTEXT, &ctx))
		return -SFRAME_ERR_BAD_CFA;
	ret = read_u64(u, ctx + 8u * amd64_sigctx_slot[16], &n.pc);
	if (!ret)
		ret = read_u64(u, ctx + 8u * amd64_sigctx_slot[7], &n.sp);
	if (!ret)
		ret = read_u64(u, ctx + 8u * amd64_sigctx_slot[6], &n.fp);
	if (ret)
		return ret;
	if (n.pc == 0)
		return -SFRAME_ERR_BAD_RA;
	n.valid = SFRAME_REG_PC | SFRAME_REG_SP | SFRAME_REG_FP;
	c->regs = n;
	/* The handler may have run on an alternate stack: restart the order. */
	c->prev_cfa = 0;
	c->sigctx = ctx;
	c->prev_flags = SFRAME_FRAME_SIGNAL;
	c->flags = SFRAME_FRAME_INTERRUPTED;
	c->depth++;
	return 0;
}

/*
 * No SFrame for this PC: follow the frame-pointer chain (amd64, aarch64:
 * [fp] = caller's fp, [fp + 8] = return address) or, on s390x, the back
 * chain ([sp] = caller's sp, its save area holding r11 and r14). A zero link
 * ends the chain, by the ABIs' convention for the outermost frame.
 */
static int step_fp(const struct sframe_unwinder *u, struct sframe_cursor *c)
{
	struct sframe_regs n = { 0 };
	uint64_t link, cfa, ra, fp = 0;
	uint32_t flags = SFRAME_FRAME_FP_FALLBACK;
	int ret;

	if (u->abi == SFRAME_ABI_S390X_BE) {
		if (!(c->regs.valid & SFRAME_REG_SP))
			return -SFRAME_ERR_NO_REG;
		ret = read_u64(u, c->regs.sp, &link);
		if (ret)
			return ret;
		if (link == 0)
			return SFRAME_UNWIND_END;
		if (link <= c->regs.sp || (link & 7) || link > UINT64_MAX - 160)
			return -SFRAME_ERR_BAD_CFA;
		cfa = link + 160;
		ret = read_u64(u, link + 8 * SFRAME_S390X_DWARF_RA, &ra);
		if (!ret)
			ret = read_u64(u, link + 8 * SFRAME_S390X_DWARF_FP, &fp);
		if (ret)
			return ret;
		n.sp = link;
	} else {
		if (!(c->regs.valid & SFRAME_REG_FP))
			return -SFRAME_ERR_NO_REG;
		link = c->regs.fp;
		if (link == 0)
			return SFRAME_UNWIND_END;
		if ((link & 7) || link > UINT64_MAX - 16)
			return -SFRAME_ERR_BAD_CFA;
		cfa = link + 16;
		ret = read_u64(u, link, &fp);
		if (!ret)
			ret = read_u64(u, link + 8, &ra);
		if (ret)
			return ret;
		if (is_aarch64(u->abi)) {
			uint64_t plain = strip_ra(u, ra);

			if (plain != ra)
				flags |= SFRAME_FRAME_RA_SIGNED;
			ra = plain;
		}
		n.sp = cfa;
	}
	ret = check_cfa(c, cfa);
	if (ret)
		return ret;
	if (ra == 0)
		return SFRAME_UNWIND_END;
	n.pc = ra;
	n.fp = fp;
	n.valid = SFRAME_REG_PC | SFRAME_REG_SP | SFRAME_REG_FP;
	c->regs = n;
	c->prev_cfa = cfa;
	c->sigctx = 0;
	c->prev_flags = SFRAME_FRAME_NO_SFRAME;
	c->flags = flags;
	c->depth++;
	return 0;
}

int sframe_unwind_init(const struct sframe_unwinder *u, struct sframe_cursor *c,
		       const struct sframe_regs *regs)
{
	if (!u || !c || !regs || !abi_ok(u->abi) || !u->read_stack)
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

/* Find the row for the current frame's PC. */
static int find_row(const struct sframe_unwinder *u, const struct sframe_cursor *c,
		    struct sframe_row *row, const struct sframe_module **modp)
{
	bool exact = c->flags & (SFRAME_FRAME_TOPMOST | SFRAME_FRAME_INTERRUPTED);
	uint64_t pc = c->regs.pc;
	const struct sframe_module *m;
	struct sframe_row sig;
	int ret;

	/*
	 * A return address points after the call, which may be the last
	 * instruction of its function (noreturn callees): look up PC - 1.
	 */
	if (!exact && pc > 0)
		pc--;
	row->fde.index = SFRAME_NO_INDEX;
	m = sframe_modules_find(u->modules, pc);
	*modp = m;
	if (m && m->sec) {
		if (m->sec->abi != u->abi)
			return -SFRAME_ERR_ABI;
		ret = sframe_lookup(m->sec, pc, row);
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
	m = sframe_modules_find(u->modules, c->regs.pc);
	if (!m || !m->sec)
		return -SFRAME_ERR_NOT_FOUND;
	if (m->sec->abi != u->abi)
		return -SFRAME_ERR_ABI;
	ret = sframe_lookup(m->sec, c->regs.pc, &sig);
	if (ret != 0 && ret != -SFRAME_ERR_NOT_FOUND)
		return ret;
	if (sig.fde.index == SFRAME_NO_INDEX || !sig.fde.signal)
		return -SFRAME_ERR_NOT_FOUND;
	*row = sig;
	*modp = m;
	return ret;
}

int sframe_unwind_step(const struct sframe_unwinder *u, struct sframe_cursor *c)
{
	const struct sframe_module *m;
	struct sframe_row row;
	uint32_t max;
	int ret;

	if (!u || !c || !abi_ok(u->abi) || !u->read_stack)
		return -SFRAME_ERR_INVAL;
	max = u->max_depth ? u->max_depth : SFRAME_UNWIND_DEFAULT_DEPTH;
	if (c->depth + 1 >= max)
		return -SFRAME_ERR_DEPTH;

	ret = find_row(u, c, &row, &m);
	if (ret == 0) {
		if (row.rules.ra_undefined)
			return SFRAME_UNWIND_END;
		return step_rules(u, c, &row);
	}
	if (ret != -SFRAME_ERR_NOT_FOUND)
		return ret;
	/* v3: a function without rows is an outermost or a signal frame. */
	if (row.fde.index != SFRAME_NO_INDEX && row.fde.num_fres == 0 && m && m->sec &&
	    m->sec->version == SFRAME_VERSION_3) {
		if (row.fde.signal)
			return step_signal(u, c);
		return SFRAME_UNWIND_END;
	}
	if (u->flags & SFRAME_UNWIND_FP_FALLBACK) {
		uint32_t flags = c->flags;

		/* Whatever the fallback finds, this frame had no SFrame. */
		c->flags |= SFRAME_FRAME_NO_SFRAME;
		ret = step_fp(u, c);
		/* On error the cursor is unchanged, as documented. */
		if (ret < 0)
			c->flags = flags;
		return ret;
	}
	return -SFRAME_ERR_NOT_FOUND;
}

static void frame_from(struct sframe_frame *f, const struct sframe_unwinder *u,
		       const struct sframe_cursor *c)
{
	f->pc = c->regs.pc;
	f->sp = c->regs.sp;
	f->fp = c->regs.fp;
	f->cfa = 0;
	f->valid = c->regs.valid;
	f->flags = c->flags;
	f->module = sframe_modules_find(u->modules, c->regs.pc);
}

int sframe_unwind_stack(const struct sframe_unwinder *u, const struct sframe_regs *regs,
			struct sframe_frame *frames, uint32_t max, uint32_t *count)
{
	struct sframe_cursor c;
	uint32_t n;
	int ret;

	if (!count)
		return -SFRAME_ERR_INVAL;
	*count = 0;
	if (!frames && max)
		return -SFRAME_ERR_INVAL;
	ret = sframe_unwind_init(u, &c, regs);
	if (ret)
		return ret;
	if (max == 0)
		return SFRAME_UNWIND_FULL;
	frame_from(&frames[0], u, &c);
	n = 1;
	/* Each round adds a frame or returns; sframe_unwind_step bounds depth. */
	while (n < max) {
		ret = sframe_unwind_step(u, &c);
		if (ret) {
			if (ret == -SFRAME_ERR_NOT_FOUND)
				frames[n - 1].flags |= SFRAME_FRAME_NO_SFRAME;
			frames[n - 1].flags |= c.flags & SFRAME_FRAME_NO_SFRAME;
			*count = n;
			return ret;
		}
		frames[n - 1].cfa = c.prev_cfa;
		frames[n - 1].flags |= c.prev_flags;
		frame_from(&frames[n], u, &c);
		n++;
	}
	*count = n;
	return SFRAME_UNWIND_FULL;
}
