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

/* An unwinder with an ABI and a way to read the stack. */
static bool usable(const struct sframe_unwinder *u)
{
	return u && abi_ok(u->abi) && (u->read_stack || u->stack_data);
}

static bool is_aarch64(uint8_t abi)
{
	return abi == SFRAME_ABI_AARCH64_BE || abi == SFRAME_ABI_AARCH64_LE;
}

/* Stack values of this ABI are big-endian. */
static inline bool stack_be(uint8_t abi)
{
	return abi == SFRAME_ABI_AARCH64_BE || abi == SFRAME_ABI_S390X_BE;
}

/* The 8 bytes at @b as a value of the target's byte order. */
static inline uint64_t stack_value(const struct sframe_unwinder *u, const uint8_t *b)
{
	return stack_be(u->abi) ? sf_be64(b) : sf_le64(b);
}

/*
 * Read one 64-bit stack value: from the caller's window when it holds all
 * 8 bytes (a load, no call), else through the callback.
 */
static inline int read_u64(const struct sframe_unwinder *u, uint64_t addr, uint64_t *val)
{
	uint8_t b[8];
	uint64_t rel = addr - u->stack_addr;
	int ret;

	/*
	 * Compilers save registers in aligned slots on every supported ABI; a
	 * misaligned address comes from garbage (a register that was not a
	 * frame pointer), and the callback is promised aligned reads.
	 */
	if ((addr & 7) || addr > SFRAME_UINT64_MAX - 7)
		return -SFRAME_ERR_BAD_CFA;
	/* rel wraps for addresses below the window: one unsigned test each side. */
	if (u->stack_data && rel < u->stack_len && u->stack_len - rel >= 8) {
		*val = stack_value(u, (const uint8_t *)u->stack_data + rel);
		return 0;
	}
	if (!u->read_stack)
		return -SFRAME_ERR_READ;
	ret = u->read_stack(u->stack_ctx, addr, b, sizeof(b));
	if (ret > 0)
		return -SFRAME_ERR_READ;
	if (ret)
		return ret;
	*val = stack_value(u, b);
	return 0;
}

/* base + off without wrapping around the address space. */
static bool add_off(uint64_t base, int64_t off, uint64_t *out)
{
	uint64_t m;

	if (off >= 0) {
		if (base > SFRAME_UINT64_MAX - (uint64_t)off)
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
	return ra & (((uint64_t)1 << bits) - 1);
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

/*
 * Is the caller's FP slot CFA + @off already popped? In a frame whose PC and
 * SP are exact (the topmost, or one a signal interrupted), a slot below SP
 * is no longer part of the frame: the epilogue has restored the FP from it
 * (a sample right after x86_64's "leave" or "pop %rbp", whose row still says
 * "FP at CFA-16"), so the FP register already holds the caller's value.
 * Reading the slot instead fails on a stack copy that starts at SP (a
 * profiler's) and finds whatever was written there since on a live stack.
 */
static inline bool fp_slot_popped(uint32_t frame_flags, uint32_t valid, uint64_t sp,
				  uint64_t cfa, int64_t off)
{
	uint64_t slot;

	return (frame_flags & (SFRAME_FRAME_TOPMOST | SFRAME_FRAME_INTERRUPTED)) &&
	       (valid & SFRAME_REG_SP) && add_off(cfa, off, &slot) && slot < sp;
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
	if (r->fp.kind == SFRAME_LOC_SAME ||
	    (r->fp.kind == SFRAME_LOC_CFA && r->fp.deref &&
	     fp_slot_popped(c->flags, c->regs.valid, c->regs.sp, cfa, r->fp.offset))) {
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
		if (link <= c->regs.sp || (link & 7) || link > SFRAME_UINT64_MAX - 160)
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
		if ((link & 7) || link > SFRAME_UINT64_MAX - 16)
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
	for (i = 0; i <= cache->mask; i++) {
		struct sframe_cache_entry *e = &cache->entries[i];

		e->pc = 0;
		e->cfa_off = 0;
		e->ra_off = 0;
		e->fp_off = 0;
		e->kind = 0;
		e->module = 0;
		e->next = 0;
	}
	cache->hits = 0;
	cache->misses = 0;
}

/*
 * The cache is 2-way set associative: a PC has a pair of slots (one 64-byte
 * line on 64-bit hosts), the first holding the entry used last. A
 * direct-mapped table loses whole walks to two hot return addresses that
 * share a slot; the pair absorbs such collisions. The hash is on the chain
 * from one frame to the next (RA load, probe, next CFA), so it is two
 * instructions: code addresses differ mostly in their low bits already, and
 * folding in bits 12 and up separates the same offset in different pages or
 * libraries.
 */
static inline uint32_t cache_hash(uint64_t pc)
{
	return (uint32_t)(pc ^ (pc >> 12));
}

static inline struct sframe_cache_entry *cache_set(const struct sframe_unwind_cache *cache,
						   uint64_t pc)
{
	return &cache->entries[cache_hash(pc) & cache->mask & ~(uint32_t)1];
}

/* The entry for @pc, exact (SFRAME_CACHE_EXACT) or not (0), or NULL. */
static inline const struct sframe_cache_entry *cache_find(const struct sframe_unwind_cache *cache,
							  uint64_t pc, uint32_t exact)
{
	struct sframe_cache_entry *set = cache_set(cache, pc);

	if (set[0].pc == pc && (set[0].kind & SFRAME_CACHE_EXACT) == exact)
		return &set[0];
	/* (A one-entry cache has no second slot.) */
	if (cache->mask && set[1].pc == pc && (set[1].kind & SFRAME_CACHE_EXACT) == exact)
		return &set[1];
	return NULL;
}

/* SFRAME_CACHE_EXACT when the frame's PC is exact, not a return address. */
static inline uint32_t exact_bit(uint32_t frame_flags)
{
	return (frame_flags & (SFRAME_FRAME_TOPMOST | SFRAME_FRAME_INTERRUPTED)) ?
		SFRAME_CACHE_EXACT : 0;
}

/* The module of entry @e (NULL for none, or when the table has shrunk). */
static const struct sframe_module *cache_module(const struct sframe_unwinder *u,
						const struct sframe_cache_entry *e)
{
	if (e->module == 0 || !u->modules || e->module - 1 >= u->modules->count)
		return NULL;
	return &u->modules->slots[e->module - 1];
}

/* Store @e (pc and kind set), with the module of its PC. */
static void cache_insert(const struct sframe_unwinder *u, struct sframe_cache_entry *e)
{
	const uint32_t exact = e->kind & SFRAME_CACHE_EXACT;
	struct sframe_cache_entry *set = cache_set(u->cache, e->pc);
	const struct sframe_module *m = sframe_modules_find(u->modules, e->pc);

	/* (An index: the entry stays 32 bytes on every host.) */
	e->module = m ? (uint32_t)(m - u->modules->slots) + 1 : 0;
	/*
	 * The newcomer goes first, and the entry it displaces becomes the older
	 * one. An exact PC (a sample's topmost frame, one of many) only takes
	 * a slot no return address holds: it must not push out one that every
	 * walk through that caller uses.
	 */
	if (u->cache->mask && exact) {
		if (!set[0].pc)
			set[0] = *e;
		else if (!set[1].pc || (set[1].kind & SFRAME_CACHE_EXACT))
			set[1] = *e;
		return;
	}
	if (u->cache->mask && (set[0].pc != e->pc || (set[0].kind & SFRAME_CACHE_EXACT) != exact))
		set[1] = set[0];
	set[0] = *e;
}

/*
 * Remember an outcome without rules for the frame at @pc: no SFrame row
 * (SFRAME_CACHE_NOSF: the fallback or "not found" follows) or the end of
 * the stack (SFRAME_CACHE_END). Both depend on the PC and the module table
 * only, like the rows.
 */
static void cache_outcome(const struct sframe_unwinder *u, uint64_t pc, uint32_t exact,
			  uint32_t kind)
{
	struct sframe_cache_entry e = { 0 };

	if (pc == 0)
		return;
	e.pc = pc;
	e.kind = exact | kind;
	cache_insert(u, &e);
}

/*
 * Remember the step just decided for the frame at @pc, when its rules have
 * the plain shape a cache entry can hold. Rows of signal trampolines are
 * not kept (their step differs, and a return address may have found one
 * through the exact-PC retry of find_row()).
 */
static void cache_fill(const struct sframe_unwinder *u, uint64_t pc, uint32_t exact,
		       const struct sframe_row *row)
{
	const struct sframe_rules *r = &row->rules;
	struct sframe_cache_entry e = { 0 };
	bool cfa_sp, cfa_fp;

	if (row->fde.signal || pc == 0)
		return;
	cfa_sp = (int64_t)r->cfa.reg == sframe_abi_sp_reg(u->abi);
	cfa_fp = (int64_t)r->cfa.reg == sframe_abi_fp_reg(u->abi);
	e.pc = pc;
	e.kind = exact;
	if (r->ra_undefined) {
		e.kind |= SFRAME_CACHE_END;
	} else {
		if (r->cfa.deref || (!cfa_sp && !cfa_fp))
			return;
		if (cfa_fp)
			e.kind |= SFRAME_CACHE_CFA_FP;
		e.cfa_off = r->cfa.offset;
		if (r->ra.kind != SFRAME_LOC_CFA || !r->ra.deref)
			return;
		e.ra_off = r->ra.offset;
		/*
		 * A misaligned slot fails every step (read_u64()); not keeping
		 * it lets fast_pcs() check the CFA's alignment alone.
		 */
		if (e.ra_off & 7)
			return;
		if (r->ra_mangled)
			e.kind |= SFRAME_CACHE_RA_MANGLED;
		if (r->fp.kind == SFRAME_LOC_CFA && r->fp.deref) {
			if (r->fp.offset & 7)
				return;
			e.kind |= SFRAME_CACHE_FP_SAVED;
			e.fp_off = r->fp.offset;
		} else if (r->fp.kind == SFRAME_LOC_SAME) {
			/* (The RA slot: fast_pcs() reads it as the FP, unused.) */
			e.fp_off = e.ra_off;
		} else {
			return;
		}
	}
	cache_insert(u, &e);
}

/* cache_step(): the cached rule does not apply, take the full step. */
#define CACHE_FALLBACK (-1)

/*
 * The step of step_rules() for a cached rule: same checks, same result.
 * Returns 0 (stepped), SFRAME_UNWIND_END, or CACHE_FALLBACK when anything
 * is off the plain path (unknown register, implausible CFA, failed read,
 * zero RA): then the cursor is untouched and the full step decides, error
 * included.
 */
static inline int cache_step(const struct sframe_unwinder *u, struct sframe_cursor *c,
			     const struct sframe_cache_entry *e)
{
	const uint32_t valid = c->regs.valid;
	uint64_t base, cfa, addr, ra, fp, sp;
	uint32_t flags = 0, nvalid;

	if (e->kind & SFRAME_CACHE_END)
		return SFRAME_UNWIND_END;
	if (e->kind & SFRAME_CACHE_NOSF)
		return CACHE_FALLBACK;
	if (e->kind & SFRAME_CACHE_CFA_FP) {
		if (!(valid & SFRAME_REG_FP))
			return CACHE_FALLBACK;
		base = c->regs.fp;
	} else {
		if (!(valid & SFRAME_REG_SP))
			return CACHE_FALLBACK;
		base = c->regs.sp;
	}
	if (!add_off(base, e->cfa_off, &cfa) || check_cfa(c, cfa))
		return CACHE_FALLBACK;
	if (!add_off(cfa, e->ra_off, &addr) || read_u64(u, addr, &ra))
		return CACHE_FALLBACK;
	if (e->kind & SFRAME_CACHE_RA_MANGLED) {
		uint64_t plain = strip_ra(u, ra);

		if (plain != ra)
			flags |= SFRAME_FRAME_RA_SIGNED;
		ra = plain;
	}
	if (ra == 0)
		return CACHE_FALLBACK;
	nvalid = SFRAME_REG_PC | SFRAME_REG_SP;
	/* (An exact entry serves only frames with an exact PC, as step_rules() tests.) */
	if ((e->kind & SFRAME_CACHE_FP_SAVED) &&
	    !((e->kind & SFRAME_CACHE_EXACT) &&
	      fp_slot_popped(c->flags, valid, c->regs.sp, cfa, e->fp_off))) {
		if (!add_off(cfa, e->fp_off, &addr) || read_u64(u, addr, &fp))
			return CACHE_FALLBACK;
		nvalid |= SFRAME_REG_FP;
	} else {
		fp = c->regs.fp;
		nvalid |= valid & SFRAME_REG_FP;
	}
	if (caller_sp(u, cfa, &sp))
		return CACHE_FALLBACK;
	c->regs.pc = ra;
	c->regs.sp = sp;
	c->regs.fp = fp;
	c->regs.ra = 0;
	c->regs.valid = nvalid;
	c->prev_cfa = cfa;
	c->sigctx = 0;
	c->prev_flags = 0;
	c->flags = flags;
	c->depth++;
	return 0;
}

/*
 * sframe_unwind_step() without the argument checks. *@mod receives the
 * current frame's module when the cache knew it (else it is left alone).
 */
static int step(const struct sframe_unwinder *u, struct sframe_cursor *c,
		const struct sframe_module **mod)
{
	struct sframe_unwind_cache *cache = u->cache;
	const struct sframe_module *m;
	struct sframe_row row;
	bool cacheable = false;
	uint32_t max;
	int ret;

	max = u->max_depth ? u->max_depth : SFRAME_UNWIND_DEFAULT_DEPTH;
	if (c->depth + 1 >= max)
		return -SFRAME_ERR_DEPTH;

	if (cache && c->regs.pc != 0) {
		const struct sframe_cache_entry *e = cache_find(cache, c->regs.pc, exact_bit(c->flags));

		if (e && (e->kind & SFRAME_CACHE_NOSF)) {
			cache->hits++;
			*mod = cache_module(u, e);
			goto no_sframe;
		}
		if (e) {
			const struct sframe_module *em = cache_module(u, e);

			ret = cache_step(u, c, e);
			if (ret != CACHE_FALLBACK) {
				cache->hits++;
				*mod = em;
				return ret;
			}
		}
		cache->misses++;
		cacheable = true;
	}

	ret = find_row(u, c, &row, &m);
	if (ret == 0) {
		if (cacheable)
			cache_fill(u, c->regs.pc, exact_bit(c->flags), &row);
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
		if (cacheable)
			cache_outcome(u, c->regs.pc, exact_bit(c->flags), SFRAME_CACHE_END);
		return SFRAME_UNWIND_END;
	}
	if (cacheable)
		cache_outcome(u, c->regs.pc, exact_bit(c->flags), SFRAME_CACHE_NOSF);
no_sframe:
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

int sframe_unwind_step(const struct sframe_unwinder *u, struct sframe_cursor *c)
{
	const struct sframe_module *m;

	if (!usable(u) || !c)
		return -SFRAME_ERR_INVAL;
	return step(u, c, &m);
}

/* A new frame; its module is filled in later (see sframe_unwind_stack()). */
static void frame_from(struct sframe_frame *f, const struct sframe_cursor *c)
{
	f->pc = c->regs.pc;
	f->sp = c->regs.sp;
	f->fp = c->regs.fp;
	f->cfa = 0;
	f->valid = c->regs.valid;
	f->flags = c->flags;
	f->module = NULL;
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

int sframe_unwind_stack(const struct sframe_unwinder *u, const struct sframe_regs *regs,
			struct sframe_frame *frames, uint32_t max, uint32_t *count)
{
	struct sframe_cursor c;
	const struct sframe_module *m;
	uint32_t n;
	int ret;

	ret = walk_begin(u, regs, frames != NULL, max, count, &c);
	if (ret)
		return ret;
	frame_from(&frames[0], &c);
	n = 1;
	/*
	 * Each round adds a frame or returns; step() bounds depth. A frame's
	 * module comes from the cache entry its step used, else from the
	 * module table (a step from the cache skips that search).
	 */
	while (n < max) {
		m = NULL;
		ret = step(u, &c, &m);
		frames[n - 1].module = m ? m : sframe_modules_find(u->modules, frames[n - 1].pc);
		if (ret) {
			if (ret == -SFRAME_ERR_NOT_FOUND)
				frames[n - 1].flags |= SFRAME_FRAME_NO_SFRAME;
			frames[n - 1].flags |= c.flags & SFRAME_FRAME_NO_SFRAME;
			*count = n;
			return ret;
		}
		frames[n - 1].cfa = c.prev_cfa;
		frames[n - 1].flags |= c.prev_flags;
		frame_from(&frames[n], &c);
		n++;
	}
	frames[n - 1].module = sframe_modules_find(u->modules, frames[n - 1].pc);
	*count = n;
	return SFRAME_UNWIND_FULL;
}

/* The slot of the entry for @pc (exact or not, as @exact), or -1. */
static inline int64_t cache_slot(const struct sframe_unwind_cache *cache, uint64_t pc,
				 uint32_t exact)
{
	const struct sframe_cache_entry *e = cache_find(cache, pc, exact);

	return e ? e - cache->entries : -1;
}

/*
 * The steps of sframe_unwind_pcs() that the cache serves, with the stack
 * read from the window only: cache_step() with the registers and the
 * cache's fields in locals (a store to @pcs could alias anything reached
 * through a pointer) and one store per frame.
 *
 * Speed comes from the shape of the loop as much as from its length. The
 * frame-pointer walk, the floor, is one dependent load per frame; here each
 * frame needs its entry as well as its stack slots, and finding the entry
 * by hashing the return address just loaded would chain RA load, hash,
 * entry load and address arithmetic before the next RA load. So every
 * entry remembers the slot of the entry the next step used last time
 * (@next): the next entry is loaded from that guess while the RA is still
 * on its way, and only compared with it (a branch the CPU predicts), the
 * hash probe being taken when the guess is wrong, which also corrects it.
 * The kind of rule (CFA from SP or FP, FP saved or not) varies from frame
 * to frame in patterns too long for a branch predictor, so it selects
 * values instead of branching; the checks are branches never taken on a
 * good stack. The window offsets of the RA and FP slots are computed from
 * the base register in one add each (the entry's offsets are summed off
 * that chain), so the chain from one frame to the next is: FP load, two
 * selects, an add, the next load.
 *
 * Conditions on the start keep the loop short:
 *   - FP is known (it then stays known: a step keeps it or reads it);
 *   - the window lies 2^32 bytes or more from both ends of the address
 *     space: as the offsets are 32-bit, a CFA or slot address that wrapped
 *     around can then never land in the window, and the window's bounds
 *     make add_off()'s checks;
 *   - the slot offsets are multiples of 8 (cache_fill() keeps no others),
 *     so the CFA's alignment is the slots' too;
 *   - SP is not 0, so that "CFA >= SP" is "CFA > SP - 1".
 * It starts from the topmost frame (the PC exact, nothing stepped yet) or
 * from a frame a step led to (return-address PC, SP derived from the
 * previous CFA as caller_sp() derives it), where the checks of check_cfa()
 * reduce to "the CFA is aligned and at or above SP", resp. "above the
 * previous CFA". It stops, leaving @c at the last frame it reached, at the
 * first frame needing anything else (a miss, a read outside the window,
 * the depth limit, an implausible CFA or RA), which the full step then
 * takes, errors included.
 *
 * Specialised on the byte order (@be), on s390x (@s390x: the caller's SP
 * is the CFA - 160) and on PAuth (@pauth: only aarch64 signs return
 * addresses; elsewhere a signed-RA entry is left to step()). Returns the
 * new number of PCs.
 */
static SFRAME_ALWAYS_INLINE uint32_t fast_pcs(const struct sframe_unwinder *u,
					      struct sframe_cursor *c, uint64_t *pcs, uint32_t n,
					      uint32_t max, bool be, bool s390x, bool pauth)
{
	struct sframe_unwind_cache *cache = u->cache;
	struct sframe_cache_entry *const entries = cache->entries;
	const uint32_t mask = cache->mask;
	const uint8_t *const win = u->stack_data;
	const uint64_t wlo = u->stack_addr;
	const uint64_t bias = s390x ? (uint64_t)-SFRAME_S390X_SP_VAL_OFFSET : 0;
	const uint32_t max_depth = u->max_depth ? u->max_depth : SFRAME_UNWIND_DEFAULT_DEPTH;
	const unsigned int va_bits = u->va_bits ? u->va_bits : 48;
	const uint64_t va_mask = va_bits >= 64 ? SFRAME_UINT64_MAX : ((uint64_t)1 << va_bits) - 1;
	/* Kinds left to step(); a strip hook is a call, so those too. */
	uint32_t stop = SFRAME_CACHE_END | SFRAME_CACHE_NOSF |
			(pauth && !u->strip_ra ? 0 : SFRAME_CACHE_RA_MANGLED);
	/* prev: the last CFA, or SP - 1 before the first step. */
	uint64_t sp = c->regs.sp, fp = c->regs.fp, prev, raw = 0;
	uint64_t *out = pcs + n, *end;
	struct sframe_cache_entry *e;
	uint64_t wlim;
	uint32_t left, done;
	int64_t slot;
	bool exact;

	if (n >= max || c->depth + 1 >= max_depth || mask == 0 || c->regs.pc == 0 || sp == 0 ||
	    (c->regs.valid & (SFRAME_REG_SP | SFRAME_REG_FP)) != (SFRAME_REG_SP | SFRAME_REG_FP) ||
	    u->stack_len < 8 || wlo < ((uint64_t)1 << 32) || wlo > -((uint64_t)1 << 32) ||
	    u->stack_len > -((uint64_t)1 << 32) - wlo)
		return n;
	if (c->flags == SFRAME_FRAME_TOPMOST && c->depth == 0 && c->prev_cfa == 0) {
		exact = true;
		prev = sp - 1;
	} else if (!(c->flags & (SFRAME_FRAME_TOPMOST | SFRAME_FRAME_INTERRUPTED)) &&
		   c->prev_cfa >= bias && sp == c->prev_cfa - bias) {
		exact = false;
		prev = c->prev_cfa;
	} else {
		return n;
	}
	slot = cache_slot(cache, c->regs.pc, exact ? SFRAME_CACHE_EXACT : 0);
	if (slot < 0)
		return n;
	e = &entries[slot];
	/* A topmost FP already restored is cache_step()'s (not the loop's) to keep. */
	if (exact && (e->kind & SFRAME_CACHE_FP_SAVED)) {
		uint64_t cfa;

		if (add_off((e->kind & SFRAME_CACHE_CFA_FP) ? fp : sp, e->cfa_off, &cfa) &&
		    fp_slot_popped(c->flags, c->regs.valid, sp, cfa, e->fp_off))
			return n;
	}
	/* An 8-byte read at window offset r fits iff r <= wlim. */
	wlim = u->stack_len - 8;
	/* Steps allowed: by the array, and by the depth bound (step() checks). */
	left = max - n;
	if (max_depth - 1 - c->depth < left)
		left = max_depth - 1 - c->depth;
	end = out + left;

	for (;;) {
		const uint32_t kind = e->kind;
		const int64_t co = e->cfa_off;
		const uint64_t base = (kind & SFRAME_CACHE_CFA_FP) ? fp : sp;
		const uint64_t cfa = base + (uint64_t)co;
		/* Window offsets of the slots: base + (offsets - window start). */
		const uint64_t ra_rel = base + ((uint64_t)(co + e->ra_off) - wlo);
		const uint64_t fp_rel = base + ((uint64_t)(co + e->fp_off) - wlo);
		struct sframe_cache_entry *g;
		uint64_t ra, nfp;

		if ((kind & stop) || out >= end)
			break;
		/* check_cfa(), caller_sp(), read_u64(). */
		if ((cfa & 7) || cfa <= prev || (s390x && cfa < bias))
			break;
		if (ra_rel > wlim || fp_rel > wlim)
			break;
		raw = be ? sf_be64(win + ra_rel) : sf_le64(win + ra_rel);
		nfp = be ? sf_be64(win + fp_rel) : sf_le64(win + fp_rel);
		/* strip_ra() without the hook. */
		ra = pauth && (kind & SFRAME_CACHE_RA_MANGLED) ? raw & va_mask : raw;
		if (ra == 0)
			break;
		/* Without a saved FP, fp_off is ra_off (cache_fill()): unused. */
		fp = (kind & SFRAME_CACHE_FP_SAVED) ? nfp : fp;
		prev = cfa;
		sp = cfa - bias;
		/* From here on, return addresses only. */
		stop |= SFRAME_CACHE_EXACT;
		*out++ = ra;

		/* The next entry: the guess, else the hash probe (then fix the guess). */
		g = &entries[e->next & mask];
		if (SFRAME_UNLIKELY(g->pc != ra)) {
			slot = cache_slot(cache, ra, 0);
			if (slot < 0)
				break;
			e->next = (uint32_t)slot;
			g = &entries[slot];
		}
		e = g;
	}
	done = (uint32_t)(out - (pcs + n));
	if (done) {
		c->regs.pc = out[-1];
		c->regs.sp = sp;
		c->regs.fp = fp;
		c->regs.ra = 0;
		c->regs.valid = SFRAME_REG_PC | SFRAME_REG_SP | SFRAME_REG_FP;
		c->prev_cfa = prev;
		c->sigctx = 0;
		c->prev_flags = 0;
		c->flags = out[-1] != raw ? SFRAME_FRAME_RA_SIGNED : 0;
		c->depth += done;
		cache->hits += done;
		n += done;
	}
	return n;
}

/* (Out of line: a loop of its own gets the registers to itself.) */
static SFRAME_NOINLINE uint32_t fast_pcs_amd64(const struct sframe_unwinder *u,
					       struct sframe_cursor *c, uint64_t *pcs, uint32_t n,
					       uint32_t max)
{
	return fast_pcs(u, c, pcs, n, max, false, false, false);
}

static SFRAME_NOINLINE uint32_t fast_pcs_aarch64(const struct sframe_unwinder *u,
						 struct sframe_cursor *c, uint64_t *pcs, uint32_t n,
						 uint32_t max)
{
	return fast_pcs(u, c, pcs, n, max, false, false, true);
}

static SFRAME_NOINLINE uint32_t fast_pcs_aarch64_be(const struct sframe_unwinder *u,
						    struct sframe_cursor *c, uint64_t *pcs, uint32_t n,
						    uint32_t max)
{
	return fast_pcs(u, c, pcs, n, max, true, false, true);
}

static SFRAME_NOINLINE uint32_t fast_pcs_s390x(const struct sframe_unwinder *u,
					       struct sframe_cursor *c, uint64_t *pcs, uint32_t n,
					       uint32_t max)
{
	return fast_pcs(u, c, pcs, n, max, true, true, false);
}

typedef uint32_t (*fast_pcs_fn)(const struct sframe_unwinder *u, struct sframe_cursor *c,
				uint64_t *pcs, uint32_t n, uint32_t max);

static fast_pcs_fn fast_pcs_for(uint8_t abi)
{
	switch (abi) {
	case SFRAME_ABI_AMD64_LE:
		return fast_pcs_amd64;
	case SFRAME_ABI_AARCH64_LE:
		return fast_pcs_aarch64;
	case SFRAME_ABI_AARCH64_BE:
		return fast_pcs_aarch64_be;
	case SFRAME_ABI_S390X_BE:
		return fast_pcs_s390x;
	default:
		return NULL;
	}
}

int sframe_unwind_pcs(const struct sframe_unwinder *u, const struct sframe_regs *regs,
		      uint64_t *pcs, uint32_t max, uint32_t *count)
{
	fast_pcs_fn fast = NULL;
	struct sframe_cursor c;
	const struct sframe_module *m;
	uint32_t n;
	int ret;

	ret = walk_begin(u, regs, pcs != NULL, max, count, &c);
	if (ret)
		return ret;
	if (u->cache && u->stack_data)
		fast = fast_pcs_for(u->abi);
	pcs[0] = c.regs.pc;
	n = 1;
	/* Each round adds at least one PC or returns; the depth bound holds. */
	while (n < max) {
		if (fast) {
			n = fast(u, &c, pcs, n, max);
			if (n >= max)
				break;
		}
		ret = step(u, &c, &m);
		if (ret) {
			*count = n;
			return ret;
		}
		pcs[n++] = c.regs.pc;
	}
	*count = n;
	return SFRAME_UNWIND_FULL;
}
