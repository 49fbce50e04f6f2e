/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_unwind_cache.c - the unwinder's cache of decoded rows: its
 * arguments, hits and misses, clearing, and the guesses that link each
 * entry to the next frame's.
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
		if (sf_cache_pc(&e[i]) == pc && !!(sf_cache_kind(&e[i]) & SF_CACHE_EXACT) == exact)
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
	struct xf x[4];
	int s0, s1, spare;

	(void)state;
	amd64_three_frames_expect(x, X_START_RA);
	for (i = 0; i < 4; i++)
		want[i] = x[i].pc;
	assert_err(sframe_unwind_cache_init(&c, e, 256), 0);
	u.cache = &c;
	u.stack_data = stk.mem;
	u.stack_addr = stk.base;
	u.stack_len = STK_SIZE;
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
	sf_cache_set(&e[spare], want[1], SF_CACHE_EXACT | RULE_RA_DEREF | RULE_FP_SAME,
		     (int32_t)(x[2].cfa - x[1].sp), -8, 0, sf_cache_module(&e[s1]),
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_cache_init, setup_amd64),
		T(test_cache_hits, setup_amd64),
		T(test_cache_guesses, setup_amd64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
