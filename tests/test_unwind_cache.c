/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_unwind_cache.c - the unwinder's cache of decoded rows: its
 * arguments, hits and misses, clearing, the guesses that link each entry
 * to the next frame's, the packing of its entries (sframe_cache.h), what
 * it keeps and where, and that a step from it is the step from the row.
 *
 * The sections, stacks and walk() are unwind_fixture.h's; so are the rules
 * every expected value follows.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "unwind_fixture.h"
#include "sframe_cache.h"

static void test_cache_init(void **state)
{
	struct sframe_cache_entry e[8];
	struct sframe_unwind_cache c;
	int i;

	(void)state;
	assert_err(sframe_unwind_cache_init(NULL, e, 8), -SFRAME_ERR_INVAL);
	assert_err(sframe_unwind_cache_init(&c, NULL, 8), -SFRAME_ERR_INVAL);
	assert_err(sframe_unwind_cache_init(&c, e, 0), -SFRAME_ERR_INVAL);
	assert_err(sframe_unwind_cache_init(&c, e, 6), -SFRAME_ERR_INVAL);
	memset(e, 0x5a, sizeof(e));
	assert_err(sframe_unwind_cache_init(&c, e, 8), 0);
	assert_int_equal(c.mask, 7);
	for (i = 0; i < 4; i++)
		assert_int_equal(e[7].opaque[i], 0);
	assert_int_equal(c.hits + c.misses, 0);
	/* One entry is a valid (if small) cache. */
	assert_err(sframe_unwind_cache_init(&c, e, 1), 0);
	assert_int_equal(c.mask, 0);
	sframe_unwind_cache_clear(NULL);
}

/* The second walk of the same stack comes from the cache; clearing forgets. */
static void test_cache_hits(void **state)
{
	struct sframe_regs r = amd64_three_frames(X_START_RA);
	static struct sframe_cache_entry e[256];
	struct sframe_unwind_cache c;
	struct xf x[4];
	int i;

	(void)state;
	amd64_three_frames_expect(x, X_START_RA);
	/* Large enough that these four PCs do not collide. */
	assert_err(sframe_unwind_cache_init(&c, e, 256), 0);
	u.cache = &c;
	for (i = 0; i < 2; i++) {
		assert_err(walk(&r, 16), SFRAME_UNWIND_END);
		assert_int_equal(nfr, 4);
		EXPECT_FRAMES(x, 4);
	}
	/* Walk 1: 4 steps looked up (the last one ends it); walk 2: all served. */
	assert_int_equal(c.misses, 4);
	assert_int_equal(c.hits, 4);
	sframe_unwind_cache_clear(&c);
	assert_int_equal(c.hits + c.misses, 0);
	assert_err(walk(&r, 16), SFRAME_UNWIND_END);
	assert_int_equal(c.misses, 4);
	u.cache = NULL;
}

/* The slot of the entry for @pc, exact or not, or -1. */
static int entry_slot(const struct sframe_cache_entry *e, int n, uint64_t pc, bool exact)
{
	int i;

	for (i = 0; i < n; i++)
		if (sf_cache_pc(&e[i]) == pc && sf_cache_exact(&e[i]) == exact)
			return i;
	return -1;
}

/* Each entry's @next names the entry its successor used (pcs[0] exact). */
static void assert_links(const struct sframe_cache_entry *e, int n, const uint64_t *pcs,
			 uint32_t count)
{
	uint32_t i;

	for (i = 0; i + 1 < count; i++) {
		int from = entry_slot(e, n, pcs[i], i == 0), to = entry_slot(e, n, pcs[i + 1], false);

		assert_true(from >= 0 && to >= 0);
		assert_int_equal(sf_cache_next(&e[from]), to);
	}
}

/*
 * The walks of amd64_three_frames() with a cache of 256 entries @e (@c)
 * and the stack as a window: @x receives the expected frames, @pcs their
 * PCs.
 */
static void guesses_setup(struct xf *x, uint64_t *pcs, struct sframe_unwind_cache *c,
			  struct sframe_cache_entry *e)
{
	uint32_t i;

	amd64_three_frames_expect(x, X_START_RA);
	for (i = 0; i < 4; i++)
		pcs[i] = x[i].pc;
	assert_err(sframe_unwind_cache_init(c, e, 256), 0);
	u.cache = c;
	u.stack_data = stk.mem;
	u.stack_addr = stk.base;
	u.stack_len = STK_SIZE;
}

/*
 * sframe_unwind_pcs() with a cache and a window follows each entry's guess
 * of the next one: wrong guesses (garbage, another PC's entry, the exact
 * entry of the right PC) must change nothing but the time, and be mended.
 */
static void test_cache_guesses(void **state)
{
	struct sframe_regs r = amd64_three_frames(X_START_RA);
	static struct sframe_cache_entry e[256];
	struct sframe_unwind_cache c;
	uint64_t want[4], pcs[16];
	uint64_t misses;
	uint32_t n, i;
	struct unwind_rule skip = { RULE_RA_DEREF | RULE_FP_SAME, 0, -8, 0, 0, 0, 0 };
	struct xf x[4];
	int s0, s1, spare;

	(void)state;
	guesses_setup(x, want, &c, e);
	for (i = 0; i < 2; i++) {
		assert_err(sframe_unwind_pcs(&u, &r, pcs, 16, &n), SFRAME_UNWIND_END);
		assert_int_equal(n, 4);
		assert_memory_equal(pcs, want, sizeof(want));
	}
	assert_links(e, 256, pcs, 4);
	misses = c.misses;

	/* Garbage guesses (out of range: masked), then every guess off by one. */
	for (i = 0; i < 256; i++)
		sf_cache_set_next(&e[i], 0xfffffff0u + i);
	assert_err(sframe_unwind_pcs(&u, &r, pcs, 16, &n), SFRAME_UNWIND_END);
	assert_int_equal(n, 4);
	assert_memory_equal(pcs, want, sizeof(want));
	assert_links(e, 256, pcs, 4);
	for (i = 0; i < 256; i++)
		sf_cache_set_next(&e[i], (sf_cache_next(&e[i]) + 1) & 255);
	assert_err(sframe_unwind_pcs(&u, &r, pcs, 16, &n), SFRAME_UNWIND_END);
	assert_memory_equal(pcs, want, sizeof(want));
	assert_links(e, 256, pcs, 4);

	/*
	 * The guess from the topmost frame leads to an entry with the right
	 * PC but for an exact PC (a sample that stopped at that address):
	 * its rule is for another lookup (PC, not PC - 1) and must not serve.
	 */
	s0 = entry_slot(e, 256, want[0], true);
	s1 = entry_slot(e, 256, want[1], false);
	spare = entry_slot(e, 256, 0, false);
	assert_true(s0 >= 0 && s1 >= 0 && spare >= 0);
	/* Its rule, if used, would skip frame 2: CFA = frame 2's, RA below it. */
	skip.cfa_off = (int32_t)(x[2].cfa - x[1].sp);
	assert_true(rule_off_fits(skip.cfa_off));
	sf_cache_set(&e[spare], want[1], true, rule_pack(&skip), sf_cache_module(&e[s1]),
		     sf_cache_next(&e[s1]));
	sf_cache_set_next(&e[s0], (uint32_t)spare);
	assert_err(sframe_unwind_pcs(&u, &r, pcs, 16, &n), SFRAME_UNWIND_END);
	assert_int_equal(n, 4);
	assert_memory_equal(pcs, want, sizeof(want));
	/* Every step still came from the cache. */
	assert_int_equal(c.misses, misses);
	u.cache = NULL;
	u.stack_data = NULL;
}

/*
 * sframe_unwind_stack() with a cache and a window takes the steps the
 * cache serves as sframe_unwind_pcs() does: it links each entry to the
 * next frame's and follows the links, wrong ones mended, and every field
 * of every frame is what the walk from the rows gives (the expected frames
 * of amd64_three_frames_expect()). The first walk looks every step up;
 * the others are served whole, the last step (the end) included.
 */
static void test_cache_stack_guesses(void **state)
{
	struct sframe_regs r = amd64_three_frames(X_START_RA);
	static struct sframe_cache_entry e[256];
	struct sframe_unwind_cache c;
	uint64_t pcs[4];
	struct xf x[4];
	uint32_t i;
	int k;

	(void)state;
	guesses_setup(x, pcs, &c, e);
	for (k = 0; k < 4; k++) {
		/* The last walk: every guess off by one. */
		if (k == 3)
			for (i = 0; i < 256; i++)
				sf_cache_set_next(&e[i], (sf_cache_next(&e[i]) + 1) & 255);
		memset(fr, 0x5a, sizeof(fr));
		assert_err(sframe_unwind_stack(&u, &r, fr, 16, &nfr), SFRAME_UNWIND_END);
		assert_int_equal(nfr, 4);
		EXPECT_FRAMES(x, 4);
		if (k > 0)
			assert_links(e, 256, pcs, 4);
	}
	assert_int_equal(c.misses, 4);
	assert_int_equal(c.hits, 12);
	u.cache = NULL;
	u.stack_data = NULL;
	u.stack_addr = 0;
	u.stack_len = 0;
}

/*
 * Every field of an entry reads back as stored, over the edges of its
 * range, and storing one leaves the others alone: the fields share words.
 */
static void test_cache_entry_fields(void **state)
{
	static const uint64_t pcs[] = { 0, 1, UINT64_C(0x8000000000000000), UINT64_MAX };
	static const uint64_t rules[] = { 0, 1, UINT64_C(0x8000000000000000), UINT64_MAX };
	static const uint32_t words[] = { 0, 1, 0x80000000u, UINT32_MAX };
	struct sframe_cache_entry e;
	size_t a, b, k, x;

	(void)state;
	for (a = 0; a < ARRAY_SIZE(pcs); a++)
		for (b = 0; b < ARRAY_SIZE(rules); b++)
			for (k = 0; k < ARRAY_SIZE(words); k++)
				for (x = 0; x < 2; x++) {
					uint32_t w = words[k], w2 = words[ARRAY_SIZE(words) - 1 - k];

					sf_cache_set(&e, pcs[a], x, rules[b], w2, w);
					assert_int_equal(sf_cache_pc(&e), pcs[a]);
					assert_int_equal(e.opaque[1], rules[b]);
					assert_int_equal(sf_cache_exact(&e), x);
					assert_int_equal(sf_cache_module(&e), w2);
					assert_int_equal(sf_cache_next(&e), w);
					sf_cache_set_next(&e, w2);
					assert_int_equal(sf_cache_next(&e), w2);
					assert_int_equal(sf_cache_module(&e), w2);
					assert_int_equal(sf_cache_exact(&e), x);
					assert_int_equal(e.opaque[1], rules[b]);
				}
}

/*
 * The packed rule (the row table's and the cache's one form): every kind
 * bit and the offsets over the edges of their 16 bits come back as
 * packed; what it cannot hold (registers, wider offsets) is refused as
 * RULE_PACKED_ASK, never cut.
 */
static void test_packed_rule(void **state)
{
	static const int32_t offs[] = { -32768, -32767, -8, -1, 0, 1, 8, 32767 };
	static const int32_t wide[] = { INT32_MIN, -32769, 32768, INT32_MAX };
	static const uint32_t regs[] = { RULE_CFA_REG, RULE_RA_REG, RULE_FP_REG };
	struct unwind_rule r, back;
	size_t a, b, c;
	uint32_t bit;
	uint64_t v;

	(void)state;
	for (bit = 1; bit <= RULE_SIGNAL; bit <<= 1)
		for (a = 0; a < ARRAY_SIZE(offs); a++)
			for (b = 0; b < ARRAY_SIZE(offs); b++)
				for (c = 0; c < ARRAY_SIZE(offs); c++) {
					r = (struct unwind_rule){ bit & ~RULE_PACKED_REGS,
								  offs[a], offs[b], offs[c],
								  0, 0, 0 };
					v = rule_pack(&r);
					assert_false(rule_packed_kind(v) &
						     (RULE_PACKED_NONE | RULE_PACKED_ASK));
					rule_unpack(v, &back);
					assert_memory_equal(&back, &r, sizeof(r));
				}
	for (a = 0; a < ARRAY_SIZE(wide); a++) {
		r = (struct unwind_rule){ RULE_RA_DEREF, wide[a], 0, 0, 0, 0, 0 };
		assert_int_equal(rule_pack(&r), RULE_PACKED_ASK);
		r = (struct unwind_rule){ RULE_RA_DEREF, 0, wide[a], 0, 0, 0, 0 };
		assert_int_equal(rule_pack(&r), RULE_PACKED_ASK);
		r = (struct unwind_rule){ RULE_RA_DEREF, 0, 0, wide[a], 0, 0, 0 };
		assert_int_equal(rule_pack(&r), RULE_PACKED_ASK);
	}
	for (a = 0; a < ARRAY_SIZE(regs); a++) {
		r = (struct unwind_rule){ RULE_RA_DEREF | regs[a], 16, -8, -16, 7, 7, 7 };
		assert_int_equal(rule_pack(&r), RULE_PACKED_ASK);
	}
}

/* A rule of the given shape, offsets CFA + 16, RA at CFA - 8, FP at CFA - 16. */
static struct unwind_rule rule_of(uint32_t kind)
{
	struct unwind_rule r = { kind, 16, -8, -16, 0, 0, 0 };

	return r;
}

/*
 * What the cache keeps: the plain shapes, read back as stored (and with
 * the module given), the end, "no SFrame"; nothing else, and never PC 0.
 */
static void test_cache_insert_shapes(void **state)
{
	static const uint32_t held[] = {
		RULE_RA_DEREF | RULE_FP_DEREF,
		RULE_CFA_FP | RULE_RA_DEREF | RULE_FP_SAME,
		RULE_CFA_FP | RULE_RA_DEREF | RULE_RA_MANGLED | RULE_FP_DEREF,
	};
	static const uint32_t not_held[] = {
		RULE_CFA_REG | RULE_RA_DEREF | RULE_FP_DEREF,
		RULE_CFA_DEREF | RULE_RA_DEREF | RULE_FP_DEREF,
		RULE_RA_LINK | RULE_FP_SAME,
		RULE_RA_REG | RULE_FP_SAME,
		RULE_FP_DEREF,				/* RA = CFA - 8, not a slot */
		RULE_RA_DEREF | RULE_FP_REG,
		RULE_RA_DEREF | RULE_FP_NONE,
		RULE_RA_DEREF,				/* FP = CFA - 16, not a slot */
		RULE_RA_DEREF | RULE_FP_DEREF | RULE_SIGNAL,
		RULE_RA_END | RULE_SIGNAL,
	};
	struct sframe_cache_entry e[8];
	struct sframe_unwind_cache c;
	struct unwind_rule r, got;
	const uint64_t pc = 0x401234;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(held); i++) {
		assert_err(sframe_unwind_cache_init(&c, e, 8), 0);
		r = rule_of(held[i]);
		sf_cache_insert(&c, pc, false, &r, 7);
		assert_non_null(sf_cache_find(&c, pc, false));
		assert_null(sf_cache_find(&c, pc, true));
		assert_true(sf_cache_rule(sf_cache_find(&c, pc, false), &got));
		assert_int_equal(got.kind, r.kind);
		assert_int_equal(got.cfa_off, 16);
		assert_int_equal(got.ra_off, -8);
		assert_int_equal(got.fp_off, (r.kind & RULE_FP_SAME) ? 0 : -16);
		assert_int_equal(sf_cache_module(sf_cache_find(&c, pc, false)), 7);
	}
	for (i = 0; i < ARRAY_SIZE(not_held); i++) {
		assert_err(sframe_unwind_cache_init(&c, e, 8), 0);
		r = rule_of(not_held[i]);
		sf_cache_insert(&c, pc, false, &r, 1);
		assert_null(sf_cache_find(&c, pc, false));
	}
	/* Misaligned slots fail every step: not kept either. */
	assert_err(sframe_unwind_cache_init(&c, e, 8), 0);
	r = rule_of(RULE_RA_DEREF | RULE_FP_SAME);
	r.ra_off = -12;
	sf_cache_insert(&c, pc, false, &r, 1);
	r = rule_of(RULE_RA_DEREF | RULE_FP_DEREF);
	r.fp_off = -20;
	sf_cache_insert(&c, pc, false, &r, 1);
	assert_null(sf_cache_find(&c, pc, false));
	/* Offsets past the packed form's 16 bits (a frame of 32 KB or more): not kept. */
	r = rule_of(RULE_RA_DEREF | RULE_FP_DEREF);
	r.cfa_off = 32768;
	sf_cache_insert(&c, pc, false, &r, 1);
	r = rule_of(RULE_RA_DEREF | RULE_FP_DEREF);
	r.fp_off = -32776;
	sf_cache_insert(&c, pc, false, &r, 1);
	assert_null(sf_cache_find(&c, pc, false));
	/* An unchanged FP's offset is not the rule's: kept, as 0. */
	r = rule_of(RULE_RA_DEREF | RULE_FP_SAME);
	r.fp_off = 1 << 20;
	sf_cache_insert(&c, pc, false, &r, 1);
	assert_true(sf_cache_rule(sf_cache_find(&c, pc, false), &got));
	assert_int_equal(got.fp_off, 0);
	assert_err(sframe_unwind_cache_init(&c, e, 8), 0);
	/* The end, and "no SFrame" (no rule), exact this time. */
	r = rule_of(RULE_RA_END);
	sf_cache_insert(&c, pc, true, &r, 1);
	assert_true(sf_cache_rule(sf_cache_find(&c, pc, true), &got));
	assert_int_equal(got.kind & RULE_RA_END, RULE_RA_END);
	sf_cache_insert(&c, pc + 1, true, NULL, 1);
	assert_false(sf_cache_rule(sf_cache_find(&c, pc + 1, true), &got));
	/* PC 0 marks empty entries. */
	r = rule_of(held[0]);
	sf_cache_insert(&c, 0, false, &r, 1);
	assert_int_equal(sf_cache_kind(sf_cache_set_of(&c, 0)), 0);
}

/*
 * Placement in a pair: a return address goes first and pushes the older
 * entry second; an exact PC only takes a slot no return address holds.
 */
static void test_cache_insert_placement(void **state)
{
	struct sframe_cache_entry e[8];
	struct sframe_unwind_cache c;
	struct unwind_rule r = rule_of(RULE_RA_DEREF | RULE_FP_SAME);
	/* Three PCs of one pair (the hash keeps bits 0-2 of pc ^ pc >> 12). */
	const uint64_t a = 0x402000, b = 0x402008, x = 0x402010;
	struct sframe_cache_entry *set;

	(void)state;
	assert_err(sframe_unwind_cache_init(&c, e, 8), 0);
	set = sf_cache_set_of(&c, a);
	assert_ptr_equal(set, sf_cache_set_of(&c, b));
	assert_ptr_equal(set, sf_cache_set_of(&c, x));
	sf_cache_insert(&c, a, false, &r, 1);
	sf_cache_insert(&c, b, false, &r, 1);
	assert_int_equal(sf_cache_pc(&set[0]), b);
	assert_int_equal(sf_cache_pc(&set[1]), a);
	/* Both slots hold return addresses: the exact PC is not kept. */
	sf_cache_insert(&c, x, true, &r, 1);
	assert_null(sf_cache_find(&c, x, true));
	assert_non_null(sf_cache_find(&c, a, false));
	/* Once a slot holds an exact PC, the next exact PC may replace it. */
	sframe_unwind_cache_clear(&c);
	sf_cache_insert(&c, a, false, &r, 1);
	sf_cache_insert(&c, x, true, &r, 1);
	assert_ptr_equal(sf_cache_find(&c, x, true), &set[1]);
	sf_cache_insert(&c, b, true, &r, 1);
	assert_ptr_equal(sf_cache_find(&c, b, true), &set[1]);
	assert_ptr_equal(sf_cache_find(&c, a, false), &set[0]);
	/* A return address pushes an exact PC out of the first slot, too. */
	sframe_unwind_cache_clear(&c);
	sf_cache_insert(&c, x, true, &r, 1);
	assert_ptr_equal(sf_cache_find(&c, x, true), &set[0]);
	sf_cache_insert(&c, a, false, &r, 1);
	assert_ptr_equal(sf_cache_find(&c, a, false), &set[0]);
	assert_ptr_equal(sf_cache_find(&c, x, true), &set[1]);
}

/* Every field of two cursors. */
static void assert_cursor_equal(const struct sframe_cursor *a, const struct sframe_cursor *b)
{
	assert_int_equal(a->regs.pc, b->regs.pc);
	assert_int_equal(a->regs.sp, b->regs.sp);
	assert_int_equal(a->regs.fp, b->regs.fp);
	assert_int_equal(a->regs.ra, b->regs.ra);
	assert_int_equal(a->regs.valid, b->regs.valid);
	assert_int_equal(a->prev_cfa, b->prev_cfa);
	assert_int_equal(a->sigctx, b->sigctx);
	assert_int_equal(a->depth, b->depth);
	assert_int_equal(a->flags, b->flags);
	assert_int_equal(a->prev_flags, b->prev_flags);
}

/*
 * Step by step from @r, without a cache and then from a full one: each
 * step's result and the whole cursor after it must be the same (walk()
 * compares only what the frames show). Returns the number of steps from
 * the cache.
 */
static uint64_t compare_steps(const struct sframe_regs *r)
{
	static struct sframe_cache_entry e[64];
	struct sframe_cursor plain, cached;
	struct sframe_unwind_cache c;
	int ret, ret2, pass, i;

	assert_err(sframe_unwind_cache_init(&c, e, 64), 0);
	for (pass = 0; pass < 2; pass++) {
		/* Pass 0 fills the cache; pass 1 steps from it. */
		c.hits = 0;
		u.cache = NULL;
		assert_err(sframe_unwind_init(&u, &plain, r), 0);
		assert_err(sframe_unwind_init(&u, &cached, r), 0);
		for (i = 0; i < 16; i++) {
			u.cache = NULL;
			ret = sframe_unwind_step(&u, &plain);
			u.cache = &c;
			ret2 = sframe_unwind_step(&u, &cached);
			assert_int_equal(ret2, ret);
			assert_cursor_equal(&cached, &plain);
			if (ret)
				break;
		}
	}
	u.cache = NULL;
	return c.hits;
}

static void test_cache_steps_amd64(void **state)
{
	struct sframe_regs r = amd64_three_frames(X_START_RA);

	(void)state;
	/* All four steps (the last one ends the walk) from the cache. */
	assert_int_equal(compare_steps(&r), 4);
}

static void test_cache_steps_a64(void **state)
{
	struct sframe_regs r = a64_stack(true, sign48);

	(void)state;
	/* Signed return addresses: the cached rule strips them too. */
	assert_int_equal(compare_steps(&r), 3);
}

static void test_cache_steps_s390(void **state)
{
	struct sframe_regs r = s390_stack();

	(void)state;
	/* The caller's SP is CFA - 160 from the cache too. */
	assert_int_equal(compare_steps(&r), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_cache_init, setup_amd64),
		T(test_cache_hits, setup_amd64),
		T(test_cache_guesses, setup_amd64),
		T(test_cache_stack_guesses, setup_amd64),
		T(test_cache_entry_fields, setup_amd64),
		T(test_packed_rule, setup_amd64),
		T(test_cache_insert_shapes, setup_amd64),
		T(test_cache_insert_placement, setup_amd64),
		T(test_cache_steps_amd64, setup_amd64),
		T(test_cache_steps_a64, setup_a64_le),
		T(test_cache_steps_s390, setup_s390),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
