/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * fuzz_unwind.c - the unwinder: section bytes, stack memory and registers.
 *
 * Input (little-endian): u8 mode, u8 abi, u8 max_depth, u8 va_bits,
 * u16 section length L, u16 fde pick, u64 section vaddr, u64 stack address,
 * u64 pc, sp, fp, ra, u8 nregs (at most 32) and nregs u64 registers by
 * DWARF number (what get_reg returns), L bytes of section, then the stack
 * bytes (a stack copy at the stack address, as a profiler's sample).
 * Mode bits: 0 FP fallback, 1 a get_reg callback, 2 a strip_ra hook, 3 the
 * module covers only the functions' range (else the whole address space),
 * 4 FP valid, 5 RA valid, 6 the unwinder's ABI from the abi byte (else the
 * section's), 7 the PC is the picked function's start plus pc modulo its
 * size + 1 (else pc itself).
 *
 * Asserts:
 *   - every section read stays inside the section (fz_read aborts
 *     otherwise); every stack read is 8 bytes (reads outside the stack
 *     buffer are legitimate and fail with -EFAULT);
 *   - the walk terminates within the depth bound and the frame array;
 *   - frames[0] holds the registers given; every later PC is non-zero;
 *   - CFAs are 8-byte aligned, at or above their frame's SP, and strictly
 *     increase between consecutive frames that have one (a signal frame
 *     restarts the order and has none);
 *   - the result is END, FULL or an error from the documented set; never a
 *     corrupt-section code when sframe_check() accepted the section;
 *   - sframe_unwind_step() one frame at a time gives the same frames, and
 *     leaves the cursor unchanged when it fails;
 *   - with a cache of decoded rows (a tiny one, so that entries collide,
 *     walked twice so that the second walk runs from the cache) and the
 *     stack given as a direct window besides the callback, the walk is the
 *     same, field for field, with the same result; sframe_unwind_pcs(),
 *     with and without them, gives the same PCs, count and result;
 *   - the k-th read (section and stack reads counted together) failing
 *     makes the step that made it return that error unchanged, or, only for
 *     a stack read, succeed with SFRAME_FRAME_FP_LOST on the new frame (the
 *     saved-FP slot could not be read).
 * In the assume-mask build, sections sframe_check() rejects are walked for
 * memory safety only.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sframe/sframe.h>
#include <sframe/sframe_unwind.h>

#include "fuzz_assert.h"
#include "fuzz_errors.h"
#include "fuzz_input.h"
#include "fuzz_read.h"
#include "fuzz_target.h"

#define SEC_BASE	UINT64_C(0x5000)
#define MAX_REGS	32
#define MAX_FRAMES	300
#define MAX_STACK	65536

struct ctx {
	struct fz_mem sec_mem;
	struct fz_mem stack_mem;
	unsigned long count;
	unsigned long fail_at;
	unsigned long reg_calls;
	unsigned int nregs;
	uint64_t regs[MAX_REGS];
};

static int get_reg(void *p, unsigned int reg, uint64_t *value)
{
	struct ctx *c = p;

	c->reg_calls++;
	if (reg >= c->nregs)
		return -SFRAME_ERR_NO_REG;
	*value = c->regs[reg];
	return 0;
}

static uint64_t strip(void *p, uint64_t ra)
{
	(void)p;
	return ra & UINT64_C(0x0000ffffffffffff);
}

static bool step_err_ok(int ret, bool accepted)
{
	if (ret == FZ_EFAULT)
		return true;
	switch (-ret) {
	case SFRAME_ERR_NOT_FOUND:
	case SFRAME_ERR_NO_REG:
	case SFRAME_ERR_BAD_CFA:
	case SFRAME_ERR_BAD_RA:
	case SFRAME_ERR_DEPTH:
	case SFRAME_ERR_ABI:
	case SFRAME_ERR_UNSUPPORTED:
		return true;
	case SFRAME_ERR_INVAL:
		/* Only when the assume mask's promise is broken (a 7th data word). */
		return FZ_ASSUME && !accepted;
	default:
		return !accepted && fz_lookup_result(ret);
	}
}

static void check_frames(const struct sframe_frame *f, uint32_t n, const struct sframe_regs *regs)
{
	uint32_t i;

	FZ_ASSERT(n >= 1);
	FZ_ASSERT(f[0].pc == regs->pc && f[0].sp == regs->sp && f[0].valid == regs->valid);
	FZ_ASSERT(f[0].flags & SFRAME_FRAME_TOPMOST);
	for (i = 0; i < n; i++) {
		if (i > 0) {
			FZ_ASSERT(f[i].pc != 0);
			FZ_ASSERT((f[i].valid & (SFRAME_REG_PC | SFRAME_REG_SP)) ==
				  (SFRAME_REG_PC | SFRAME_REG_SP));
			FZ_ASSERT(!(f[i].flags & SFRAME_FRAME_TOPMOST));
		}
		if (f[i].flags & SFRAME_FRAME_FP_LOST)
			FZ_ASSERT(!(f[i].valid & SFRAME_REG_FP));
		if (!f[i].cfa)
			continue;
		FZ_ASSERT((f[i].cfa & 7) == 0);
		if (f[i].valid & SFRAME_REG_SP)
			FZ_ASSERT(f[i].cfa >= f[i].sp);
		if (i > 0 && f[i - 1].cfa)
			FZ_ASSERT(f[i].cfa > f[i - 1].cfa);
	}
}

/* @u's walk from @regs gives @want (@n frames) and @ret, as frames and as PCs. */
static void same_walk(const struct sframe_unwinder *u, const struct sframe_regs *regs,
		      const struct sframe_frame *want, uint32_t n, int ret)
{
	static struct sframe_frame got[MAX_FRAMES];
	static uint64_t pcs[MAX_FRAMES];
	uint32_t count, i;

	memset(got, 0, sizeof(got));
	FZ_ASSERT_ERR(sframe_unwind_stack(u, regs, got, MAX_FRAMES, &count), ret);
	FZ_ASSERT(count == n);
	for (i = 0; i < n; i++) {
		FZ_ASSERT(got[i].pc == want[i].pc && got[i].sp == want[i].sp);
		FZ_ASSERT(got[i].fp == want[i].fp && got[i].cfa == want[i].cfa);
		FZ_ASSERT(got[i].valid == want[i].valid);
		FZ_ASSERT(got[i].flags == want[i].flags);
		FZ_ASSERT(got[i].module == want[i].module);
	}
	FZ_ASSERT_ERR(sframe_unwind_pcs(u, regs, pcs, MAX_FRAMES, &count), ret);
	FZ_ASSERT(count == n);
	for (i = 0; i < n; i++)
		FZ_ASSERT(pcs[i] == want[i].pc);
}

/* Bigger row tables (small blocks over a wide span) are left out. */
#define MAX_ROWS_BYTES (1u << 20)

/*
 * The walks of @u and @u3 again with a row table of @sec in the one module
 * of @mods (a valid section): the same frames. A table is refused only for
 * functions that span 4 GB or more, starts out of order without the sorted
 * flag (UNSUPPORTED) or too many blocks (INVAL).
 */
static void with_rows(struct sframe_module_table *mods, const struct sframe_section *sec,
		      const struct sframe_unwinder *u, const struct sframe_unwinder *u3,
		      const struct sframe_regs *regs, const struct sframe_frame *frames,
		      uint32_t count, int ret)
{
	const struct sframe_rows *rows;
	size_t size;
	void *mem;
	int err;

	err = sframe_rows_size(sec, SFRAME_ROWS_AUTO, &size);
	if (err) {
		FZ_ASSERT(err == -SFRAME_ERR_UNSUPPORTED || err == -SFRAME_ERR_INVAL);
		return;
	}
	if (size > MAX_ROWS_BYTES)
		return;
	mem = malloc(size);
	FZ_ASSERT(mem != NULL);
	FZ_ASSERT_ERR(sframe_rows_build(sec, SFRAME_ROWS_AUTO, mem, size - 1, &rows),
		      -SFRAME_ERR_INVAL);
	FZ_ASSERT_ERR(sframe_rows_build(sec, SFRAME_ROWS_AUTO, mem, size, &rows), 0);
	FZ_ASSERT(rows == mem);
	FZ_ASSERT_ERR(sframe_modules_set_rows(mods, mods->slots[0].start, rows), 0);
	same_walk(u, regs, frames, count, ret);
	same_walk(u3, regs, frames, count, ret);
	FZ_ASSERT_ERR(sframe_modules_set_rows(mods, mods->slots[0].start, NULL), 0);
	free(mem);
}

static bool regs_eq(const struct sframe_regs *a, const struct sframe_regs *b)
{
	return a->pc == b->pc && a->sp == b->sp && a->fp == b->fp && a->ra == b->ra &&
	       a->valid == b->valid;
}

static bool cursor_eq(const struct sframe_cursor *a, const struct sframe_cursor *b)
{
	return regs_eq(&a->regs, &b->regs) && a->prev_cfa == b->prev_cfa &&
	       a->sigctx == b->sigctx && a->depth == b->depth && a->flags == b->flags &&
	       a->prev_flags == b->prev_flags;
}

/*
 * Step by step; records each step's result. With an injected failure,
 * checks the step that hit it. Returns the number of cursors stored.
 */
static uint32_t walk_steps(const struct sframe_unwinder *u, const struct sframe_regs *regs,
			   struct ctx *cx, struct sframe_cursor *cur, int *res, bool accepted,
			   uint32_t max)
{
	uint32_t n = 0;
	int ret;

	FZ_ASSERT_ERR(sframe_unwind_init(u, &cur[0], regs), 0);
	n = 1;
	while (n < max) {
		struct sframe_cursor before = cur[n - 1];
		bool failed_before = cx->sec_mem.failed || cx->stack_mem.failed;

		cur[n] = before;
		ret = sframe_unwind_step(u, &cur[n]);
		res[n - 1] = ret;
		if (!failed_before && (cx->sec_mem.failed || cx->stack_mem.failed)) {
			/* This step hit the injected failure. */
			if (ret == FZ_INJECTED) {
				FZ_ASSERT(cursor_eq(&cur[n], &before));
			} else {
				FZ_ASSERT(cx->stack_mem.failed);
				FZ_ASSERT_ERR(ret, 0);
				FZ_ASSERT(cur[n].flags & SFRAME_FRAME_FP_LOST);
			}
		} else if (ret < 0) {
			FZ_ASSERT(step_err_ok(ret, accepted));
		}
		if (ret != 0) {
			if (ret < 0 && !cursor_eq(&cur[n], &before))
				fprintf(stderr, "step %u returned %s; cursor flags 0x%x -> 0x%x\n", n,
					sframe_errname(ret), before.flags, cur[n].flags);
			if (ret < 0)
				FZ_ASSERT(cursor_eq(&cur[n], &before));
			else
				FZ_ASSERT_ERR(ret, SFRAME_UNWIND_END);
			return n;
		}
		FZ_ASSERT(cur[n].depth == before.depth + 1);
		n++;
	}
	res[n - 1] = SFRAME_UNWIND_FULL;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sframe_frame frames[MAX_FRAMES];
	struct sframe_cache_entry centries[4];
	struct sframe_unwind_cache cache;
	struct sframe_unwinder u2, u3;
	size_t isize;
	void *imem;
	int pass;
	static struct sframe_cursor cur[MAX_FRAMES + 1], cur2[MAX_FRAMES + 1];
	static int res[MAX_FRAMES + 1], res2[MAX_FRAMES + 1];
	struct fz_in in = { data, size };
	struct sframe_section sec;
	struct sframe_module slot;
	struct sframe_module_table mods;
	struct sframe_unwinder u;
	struct sframe_regs regs;
	struct sframe_fde fde;
	struct ctx cx;
	const uint8_t *p;
	uint8_t *secb, *stack;
	unsigned int mode, abi, depth, va_bits, pick;
	uint64_t vaddr, stack_addr, pc, ra, lo = UINT64_MAX, hi = 0;
	size_t len, stack_len;
	uint32_t i, n, count, max;
	unsigned long reads;
	bool accepted;
	int ret;

	mode = (unsigned int)fz_uint(&in, 1);
	abi = (unsigned int)fz_uint(&in, 1);
	depth = (unsigned int)fz_uint(&in, 1);
	va_bits = (unsigned int)fz_uint(&in, 1);
	len = (size_t)fz_uint(&in, 2);
	pick = (unsigned int)fz_uint(&in, 2);
	vaddr = fz_uint(&in, 8);
	stack_addr = fz_uint(&in, 8);
	memset(&regs, 0, sizeof(regs));
	pc = fz_uint(&in, 8);
	regs.sp = fz_uint(&in, 8);
	regs.fp = fz_uint(&in, 8);
	ra = fz_uint(&in, 8);
	memset(&cx, 0, sizeof(cx));
	cx.nregs = (unsigned int)fz_uint(&in, 1);
	if (cx.nregs > MAX_REGS)
		cx.nregs = MAX_REGS;
	for (i = 0; i < cx.nregs; i++)
		cx.regs[i] = fz_uint(&in, 8);
	p = fz_take(&in, len, &len);
	secb = fz_dup(p, len);
	p = fz_take(&in, MAX_STACK, &stack_len);
	stack = fz_dup(p, stack_len);

	fz_mem_init(&cx.sec_mem, secb, len, SEC_BASE);
	fz_mem_init(&cx.stack_mem, stack, stack_len, stack_addr);
	cx.stack_mem.oob_ok = true;
	cx.stack_mem.len8 = true;
	if (sframe_open(&sec, fz_read, &cx.sec_mem, SEC_BASE, len, vaddr))
		goto out;
	accepted = sframe_check(&sec, NULL) == 0;

	/* The topmost PC: as given, or inside the picked function. */
	regs.pc = pc;
	for (i = 0; i < sec.num_fdes && i < 4096; i++) {
		if (sframe_get_fde(&sec, i, &fde))
			continue;
		if ((mode & 0x80) && i == pick % sec.num_fdes)
			regs.pc = fde.func_start + pc % ((uint64_t)fde.func_size + 1);
		/* (a function may straddle 2^64 when the section's vaddr is wrong) */
		if (!fde.func_size || fde.func_start > UINT64_MAX - (fde.func_size - 1))
			continue;
		if (fde.func_start < lo)
			lo = fde.func_start;
		if (fde.func_start + (fde.func_size - 1) >= hi)
			hi = fde.func_start + (fde.func_size - 1);
	}
	regs.ra = ra;
	regs.valid = SFRAME_REG_PC | SFRAME_REG_SP;
	if (mode & 0x10)
		regs.valid |= SFRAME_REG_FP;
	if (mode & 0x20)
		regs.valid |= SFRAME_REG_RA;

	sframe_modules_init(&mods, &slot, 1);
	if ((mode & 8) && lo <= hi && hi < UINT64_MAX)
		FZ_ASSERT_ERR(sframe_modules_add(&mods, lo, hi + 1, &sec, NULL), 0);
	else
		FZ_ASSERT_ERR(sframe_modules_add(&mods, 0, UINT64_MAX, &sec, NULL), 0);

	memset(&u, 0, sizeof(u));
	u.abi = (mode & 0x40) ? (uint8_t)abi : sec.abi;
	u.va_bits = (uint8_t)va_bits;
	u.flags = (mode & 1) ? SFRAME_UNWIND_FP_FALLBACK : 0;
	u.max_depth = depth;
	u.modules = &mods;
	u.read_stack = fz_read;
	u.stack_ctx = &cx.stack_mem;
	if (mode & 2) {
		u.get_reg = get_reg;
		u.reg_ctx = &cx;
	}
	if (mode & 4)
		u.strip_ra = strip;
	if (u.abi < SFRAME_ABI_AARCH64_BE || u.abi > SFRAME_ABI_S390X_BE) {
		FZ_ASSERT_ERR(sframe_unwind_stack(&u, &regs, frames, MAX_FRAMES, &count),
			      -SFRAME_ERR_INVAL);
		FZ_ASSERT(count == 0);
		goto out;
	}

	/* The whole walk. */
	cx.sec_mem.calls = cx.stack_mem.calls = 0;
	ret = sframe_unwind_stack(&u, &regs, frames, MAX_FRAMES, &count);
	max = depth ? depth : SFRAME_UNWIND_DEFAULT_DEPTH;
	if (getenv("FZ_VERBOSE"))
		fprintf(stderr, "walk: %u frames, %s (%s section)\n", count,
			ret > 0 ? (ret == SFRAME_UNWIND_END ? "end" : "full") : sframe_errname(ret),
			accepted ? "valid" : "invalid");
	FZ_ASSERT(count >= 1 && count <= MAX_FRAMES && count <= max);
	check_frames(frames, count, &regs);
	if (ret < 0)
		FZ_ASSERT(step_err_ok(ret, accepted));
	else
		FZ_ASSERT(ret == SFRAME_UNWIND_END || ret == SFRAME_UNWIND_FULL);
	if (ret == -SFRAME_ERR_DEPTH)
		FZ_ASSERT(count == max);

	/* One step at a time: the same frames, the same end. */
	n = walk_steps(&u, &regs, &cx, cur, res, accepted, MAX_FRAMES);
	FZ_ASSERT(n == count);
	FZ_ASSERT_ERR(res[n - 1], ret);
	for (i = 0; i < n; i++) {
		FZ_ASSERT(cur[i].regs.pc == frames[i].pc && cur[i].regs.sp == frames[i].sp);
		FZ_ASSERT(cur[i].regs.valid == frames[i].valid);
		if (frames[i].valid & SFRAME_REG_FP)
			FZ_ASSERT(cur[i].regs.fp == frames[i].fp);
		if (i + 1 < n)
			FZ_ASSERT(cur[i + 1].prev_cfa == frames[i].cfa);
	}

	/* Cached, with a stack window: the same walk, twice. */
	u2 = u;
	FZ_ASSERT_ERR(sframe_unwind_cache_init(&cache, centries, 4), 0);
	u2.cache = &cache;
	u2.stack_data = stack;
	u2.stack_addr = stack_addr;
	u2.stack_len = stack_len;
	for (pass = 0; pass < 2; pass++)
		same_walk(&u2, &regs, frames, count, ret);
	/* The window without a cache: every frame looked up, as by step(). */
	u3 = u2;
	u3.cache = NULL;
	same_walk(&u3, &regs, frames, count, ret);
	/*
	 * With a lookup index (a valid section), then a row table too, and
	 * with the row table alone: the same walks again, through the callback
	 * and with the window.
	 */
	if (accepted && !sframe_index_size(&sec, SFRAME_INDEX_AUTO, &isize) &&
	    isize <= (1u << 20) && (imem = malloc(isize)) != NULL) {
		if (!sframe_index_build(&sec, SFRAME_INDEX_AUTO, imem, isize)) {
			cx.sec_mem.calls = cx.stack_mem.calls = 0;
			same_walk(&u, &regs, frames, count, ret);
			same_walk(&u3, &regs, frames, count, ret);
			with_rows(&mods, &sec, &u, &u3, &regs, frames, count, ret);
		}
		sec.index = NULL;
		free(imem);
	}
	if (accepted)
		with_rows(&mods, &sec, &u, &u3, &regs, frames, count, ret);
	/* Through the callback again, as frames and as PCs (sframe_unwind_pcs()). */
	same_walk(&u, &regs, frames, count, ret);

	/* The k-th read fails, section and stack reads counted together. */
	cx.sec_mem.shared_count = cx.stack_mem.shared_count = &cx.count;
	cx.sec_mem.shared_fail_at = cx.stack_mem.shared_fail_at = &cx.fail_at;
	cx.count = 0;
	cx.fail_at = 0;
	walk_steps(&u, &regs, &cx, cur2, res2, accepted, MAX_FRAMES);
	reads = cx.count;
	if (reads) {
		cx.count = 0;
		cx.fail_at = 1 + (ra ^ pc ^ (ra >> 29) ^ (pc >> 13)) % reads;
		n = walk_steps(&u, &regs, &cx, cur2, res2, accepted, MAX_FRAMES);
		FZ_ASSERT(cx.sec_mem.failed || cx.stack_mem.failed);
	}
out:
	free(secb);
	free(stack);
	return 0;
}
