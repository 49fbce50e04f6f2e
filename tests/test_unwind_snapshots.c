/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * Real stacks: unwind every sample of fixtures/unwind/<version>-<arch>/ offline
 * and check each frame against the program's known call structure.
 *
 * The program (fixtures/src/unwind.c) runs a fixed chain main -> with_fp ->
 * ... -> leaf, each function with exactly one caller (fixtures/unwind/CHAIN)
 * and no tail calls, and samples itself with a profiling timer. So for a
 * sample whose PC is in chain function F, a correct walk is exactly
 * F, caller(F), caller(caller(F)), ..., main: frame k+1's return address
 * must lie in the function that calls frame k's function (symbols from the
 * binary's own symbol table).
 *
 * A sample is in scope when its PC is in main or the chain, an SFrame row
 * describes that PC, and every function on its path to main has an FDE. Every
 * in-scope sample must unwind correctly; the rest are counted and reported
 * (on x86_64 v1/v2, gas could not describe the DRAP function, so samples in
 * it and in its callee are beyond SFrame). Each combination must have at
 * least 1000 in-scope samples.
 *
 * Every sample is also walked with a cache of decoded rows shared by all the
 * samples of a combination (small, so that entries are evicted) and the
 * sample's stack as a direct window, by sframe_unwind_stack() and
 * sframe_unwind_pcs(): the frames must be those of the plain walk, field
 * for field, and the cache must have served most steps.
 *
 * Usage: test_unwind_snapshots FIXTURES_DIR
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "frames_equal.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "target/unwind_target.h"

#define MAX_CHAIN 16
#define MIN_IN_SCOPE 1000

static const char *fixtures;

static const char *const combos[] = {
	"v1-x86_64", "v1-aarch64", "v2-x86_64", "v2-aarch64",
	"v3-x86_64", "v3-aarch64", "v3-s390x",
};

struct chain {
	char callee[MAX_CHAIN][64];
	char caller[MAX_CHAIN][64];
	int n;
};

static void load_chain(struct chain *ch)
{
	char path[1024], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/unwind/CHAIN", fixtures);
	f = fopen(path, "r");
	assert_non_null(f);
	ch->n = 0;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		assert_true(ch->n < MAX_CHAIN);
		assert_int_equal(sscanf(line, "%63s %63s", ch->callee[ch->n], ch->caller[ch->n]), 2);
		ch->n++;
	}
	fclose(f);
	assert_true(ch->n > 0);
}

static const char *caller_of(const struct chain *ch, const char *fn)
{
	int i;

	for (i = 0; i < ch->n; i++)
		if (strcmp(ch->callee[i], fn) == 0)
			return ch->caller[i];
	return NULL;
}

static bool in_chain(const struct chain *ch, const char *fn)
{
	return strcmp(fn, "main") == 0 || caller_of(ch, fn) != NULL;
}

/* Name of the function containing a frame's PC (PC - 1 for return addresses). */
static const char *frame_fn(const struct sf_target *t, const struct sframe_frame *f)
{
	bool exact = f->flags & (SFRAME_FRAME_TOPMOST | SFRAME_FRAME_INTERRUPTED);
	const struct sf_symbol *s = sf_symbol_find(&t->info, exact ? f->pc : f->pc - 1);

	return s ? s->name : "??";
}

static const struct sf_symbol *symbol_named(const struct sf_target *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->info.nsyms; i++)
		if (strcmp(t->info.syms[i].name, name) == 0)
			return &t->info.syms[i];
	return NULL;
}

/* Does some FDE describe function @name? */
static bool has_fde(const struct sf_target *t, const char *name)
{
	const struct sf_symbol *s = symbol_named(t, name);
	struct sframe_row row;
	int r;

	if (!s)
		return false;
	r = sframe_lookup(&t->sec, s->addr, &row);
	return r == 0 || (r == -SFRAME_ERR_NOT_FOUND && row.fde.index != SFRAME_NO_INDEX);
}

#define CACHE_ENTRIES 64

/* The walk of @smp again, cached and with the stack window: the same frames. */
static void check_cached(const struct sf_target *t, const struct sf_sample *smp,
			 struct sframe_unwind_cache *cache, const struct sframe_frame *frames,
			 uint32_t n, int stop)
{
	static struct sframe_frame f2[64];
	static uint64_t pcs[64];
	struct sframe_unwinder u;
	struct sframe_regs regs;
	uint32_t n2, k;

	sf_target_unwinder(t, smp, 0, &u, &regs);
	u.cache = cache;
	u.stack_data = smp->stack;
	u.stack_addr = smp->stack_addr;
	u.stack_len = smp->stack_len;
	memset(f2, 0, sizeof(f2));
	assert_int_equal(sframe_unwind_stack(&u, &regs, f2, 64, &n2), stop);
	assert_int_equal(n2, n);
	assert_frames_equal(f2, frames, n);
	/* Without the callback, only the window: same walk (samples hold their stack). */
	u.read_stack = NULL;
	assert_int_equal(sframe_unwind_pcs(&u, &regs, pcs, 64, &n2), stop);
	assert_int_equal(n2, n);
	for (k = 0; k < n; k++)
		assert_int_equal(pcs[k], frames[k].pc);
}

/*
 * The x86_64 samples hold the red zone below SP as well; a profiler that
 * copies the stack from SP up (perf does) has only the part from SP. After
 * an epilogue's "leave" or "pop %rbp", the row's FP slot lies in the red
 * zone: the FP already restored must be kept, so the walk must be the same
 * without it, frame for frame (the slot held the very value restored).
 */
static void check_from_sp(const struct sf_target *t, const struct sf_sample *smp,
			  const struct sframe_frame *frames, uint32_t n, int stop,
			  unsigned long *count)
{
	static struct sframe_frame f2[64];
	struct sf_sample cut = *smp;
	uint32_t n2;

	cut.stack += smp->sp - smp->stack_addr;
	cut.stack_len -= smp->sp - smp->stack_addr;
	cut.stack_addr = smp->sp;
	assert_int_equal(sf_target_unwind(t, &cut, 0, f2, 64, &n2), stop);
	assert_int_equal(n2, n);
	assert_frames_equal(f2, frames, n);
	(*count)++;
}

static void test_combo(void **state)
{
	const char *combo = *state;
	static struct sframe_frame frames[64];
	char exe[1024], snap_path[1024], err[512];
	struct sf_snapshot snap;
	struct sf_target t;
	struct sf_sample smp;
	struct chain ch;
	unsigned long total = 0, in_scope = 0, ok = 0, outside = 0, no_row = 0, no_fde = 0;
	unsigned long stop_end = 0, stop_not_found = 0, from_sp = 0;
	bool fde_ok[MAX_CHAIN + 1];
	static struct sframe_cache_entry entries[CACHE_ENTRIES];
	struct sframe_unwind_cache cache;
	int r, i;

	assert_int_equal(sframe_unwind_cache_init(&cache, entries, CACHE_ENTRIES), 0);

	load_chain(&ch);
	snprintf(exe, sizeof(exe), "%s/unwind/%s/unwind", fixtures, combo);
	snprintf(snap_path, sizeof(snap_path), "%s/unwind/%s/unwind.snap", fixtures, combo);
	if (sf_target_load(exe, NULL, &t, err, sizeof(err)))
		fail_msg("%s", err);
	if (sf_snapshot_open(snap_path, &snap, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(sf_machine_abi(snap.machine, t.sec.abi), t.sec.abi);
	for (i = 0; i < ch.n; i++)
		fde_ok[i] = has_fde(&t, ch.callee[i]);
	fde_ok[ch.n] = has_fde(&t, "main");
	assert_true(fde_ok[ch.n]);

	while ((r = sf_snapshot_next(&snap, &smp, err, sizeof(err))) == 1) {
		const char *expect[MAX_CHAIN + 2];
		const struct sf_symbol *s0 = sf_symbol_find(&t.info, smp.pc);
		struct sframe_row row;
		int depth = 0, k;
		bool scope = true;
		uint32_t n;
		int stop;

		total++;
		if (!s0 || !in_chain(&ch, s0->name)) {
			outside++;
			continue;
		}
		/* The path this sample's walk must take, and whether SFrame covers it. */
		for (const char *fn = s0->name; fn; fn = caller_of(&ch, fn)) {
			assert_true(depth <= MAX_CHAIN);
			expect[depth++] = fn;
			for (k = 0; k < ch.n; k++)
				if (strcmp(ch.callee[k], fn) == 0 && !fde_ok[k])
					scope = false;
		}
		assert_string_equal(expect[depth - 1], "main");
		if (!scope) {
			no_fde++;
			continue;
		}
		if (sframe_lookup(&t.sec, smp.pc, &row) != 0) {
			no_row++;
			continue;
		}
		in_scope++;

		stop = sf_target_unwind(&t, &smp, 0, frames, 64, &n);
		check_cached(&t, &smp, &cache, frames, n, stop);
		if (smp.stack_addr < smp.sp)
			check_from_sp(&t, &smp, frames, n, stop, &from_sp);
		for (k = 0; k < depth; k++) {
			if ((uint32_t)k >= n || strcmp(frame_fn(&t, &frames[k]), expect[k]) != 0)
				break;
		}
		if (k == depth) {
			ok++;
			if (stop == SFRAME_UNWIND_END)
				stop_end++;
			else if (stop == -SFRAME_ERR_NOT_FOUND)
				stop_not_found++;
			continue;
		}
		/* Show the whole walk of the first failures. */
		print_error("%s: sample %lu pc 0x%" PRIx64 " (%s): frame %d is %s, expected %s; "
			    "walk stopped with %s\n", combo, total - 1, smp.pc, s0->name, k,
			    (uint32_t)k < n ? frame_fn(&t, &frames[k]) : "(none)", expect[k],
			    stop > 0 ? "end" : sframe_errname(stop));
		for (uint32_t j = 0; j < n; j++)
			print_error("    #%u 0x%" PRIx64 " %s cfa 0x%" PRIx64 " flags 0x%x\n", j,
				    frames[j].pc, frame_fn(&t, &frames[j]), frames[j].cfa,
				    frames[j].flags);
	}
	if (r < 0)
		fail_msg("%s: %s", snap_path, err);
	print_message("%s: %lu samples, %lu in scope, %lu unwound correctly to main "
		      "(then: %lu outermost, %lu no SFrame for main's caller); outside the "
		      "chain %lu, beyond SFrame %lu, PC without row %lu\n",
		      combo, total, in_scope, ok, stop_end, stop_not_found, outside, no_fde,
		      no_row);
	if (from_sp)
		print_message("%s: %lu in-scope samples walked again with the stack from SP only "
			      "(no red zone): the same frames\n", combo, from_sp);
	print_message("%s: cache: %" PRIu64 " steps served, %" PRIu64 " looked up\n", combo,
		      cache.hits, cache.misses);
	sf_snapshot_close(&snap);
	sf_target_free(&t);
	assert_int_equal(ok, in_scope);
	/*
	 * Two walks per sample over a chain of a dozen return addresses (and
	 * main's caller, with or without SFrame): all but the topmost steps
	 * (often a new PC; on aarch64 a leaf's RA still in x30, never cached)
	 * should be served.
	 */
	assert_true(cache.hits > 4 * cache.misses);
	assert_true(in_scope >= MIN_IN_SCOPE);
}

int main(int argc, char **argv)
{
	struct CMUnitTest tests[sizeof(combos) / sizeof(combos[0])];
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FIXTURES_DIR\n", argv[0]);
		return 2;
	}
	fixtures = argv[1];
	for (i = 0; i < sizeof(combos) / sizeof(combos[0]); i++) {
		tests[i].name = combos[i];
		tests[i].test_func = test_combo;
		tests[i].setup_func = NULL;
		tests[i].teardown_func = NULL;
		tests[i].initial_state = (void *)combos[i];
	}
	return _cmocka_run_group_tests("unwind-snapshots", tests, i, NULL, NULL);
}
