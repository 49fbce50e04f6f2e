/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_fault_injection.c - every public entry point, with the k-th memory
 * read failing, for every k.
 *
 * For each toolchain-made section (F.sframe of the v1/v2/v3 fixture folders
 * and of lld-x86_64, at the address in F.addr) and each entry point that
 * reads (sframe_open(), sframe_get_fde() of every FDE, the FRE iteration of
 * every FDE, sframe_lookup() at every PC of F.pcs or around every function,
 * sframe_check(), sframe_part_size() and sframe_check() of every part), the call is made
 * once to count its reads N; then for k = 1 .. N it is made again with the
 * k-th read failing with a distinctive error (-77), and it must return
 * exactly -77: never success with partial data, never another error, never
 * a crash. sframe_fre_iter_init(), sframe_fre_rules() and
 * sframe_unwind_init() must read nothing at all.
 *
 * The unwinder, on real samples (fixtures/unwind/<combo>/: the executable's
 * section and the samples' stack copies), with section and stack reads
 * counted together: sframe_unwind_stack() for whole walks and
 * sframe_unwind_step() for each step, with and without the frame-pointer
 * fallback. A failed read must end the walk (or
 * fail the step, leaving the cursor unchanged) with -77; the only
 * exception is a failed stack read of a saved FP, which the unwinder
 * documents as SFRAME_FRAME_FP_LOST on that frame (the walk goes on, with
 * the FP unknown).
 *
 * Usage: test_fault_injection FIXTURES_DIR
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "builder.h"
#include "tool_run.h"
#include "target/unwind_target.h"

#define INJ (-77)
#define MAX_FIXTURES 64
#define MAX_PCS 400

static const char *fixtures;

enum { KIND_NONE, KIND_SECTION, KIND_STACK };

/* The read sequence shared by all the readers of one call. */
struct fault {
	unsigned long count;
	unsigned long fail_at;	/* 1-based; 0 = never */
	int kind;		/* what the failed read was */
};

struct reader {
	const uint8_t *data;
	uint64_t base;
	uint64_t size;
	int kind;
	struct fault *f;
};

static int fi_read(void *ctx, uint64_t addr, void *dst, size_t len)
{
	struct reader *r = ctx;
	unsigned long n = ++r->f->count;

	if (len == 0 || len > SFRAME_MAX_READ)
		fail_msg("read of %zu bytes", len);
	if (r->f->fail_at && n == r->f->fail_at) {
		r->f->kind = r->kind;
		return INJ;
	}
	if (addr < r->base || addr - r->base > r->size || len > r->size - (addr - r->base)) {
		/* A stack read may go anywhere; a section read may not. */
		if (r->kind == KIND_STACK)
			return -14;
		fail_msg("section read of %zu bytes at 0x%llx outside [0x%llx, +0x%llx)", len,
			 (unsigned long long)addr, (unsigned long long)r->base,
			 (unsigned long long)r->size);
	}
	memcpy(dst, r->data + (addr - r->base), len);
	return 0;
}

/* ---- Sections ----------------------------------------------------------------- */

struct sec_fixture {
	char name[128];
	char path[1024];	/* without .sframe */
};

static struct sec_fixture sec_fixtures[MAX_FIXTURES];
static size_t nsec_fixtures;

struct op {
	struct sframe_section *sec;
	struct reader *rd;
	const struct sframe_fde *fde;
	uint32_t index;
	uint64_t pc;
	uint64_t vaddr;
};

typedef int (*op_fn)(struct op *o);

static int op_open(struct op *o)
{
	struct sframe_section s;

	return sframe_open(&s, fi_read, o->rd, o->rd->base, o->rd->size, o->vaddr);
}

static int op_get_fde(struct op *o)
{
	struct sframe_fde fde;

	return sframe_get_fde(o->sec, o->index, &fde);
}

static int op_iterate(struct op *o)
{
	struct sframe_fre_iter it;
	struct sframe_fre fre;
	int r;

	r = sframe_fre_iter_init(o->sec, o->fde, &it);
	while (r == 0 && (r = sframe_fre_iter_next(o->sec, &it, &fre)) == 1)
		r = 0;
	return r;
}

static int op_lookup(struct op *o)
{
	struct sframe_row row;

	return sframe_lookup(o->sec, o->pc, &row);
}

static int op_check(struct op *o)
{
	struct sframe_problem where;

	return sframe_check(o->sec, &where);
}

static int op_part_size(struct op *o)
{
	uint64_t len;

	return sframe_part_size(o->sec, &len);
}

struct tally {
	unsigned long calls;
	unsigned long faults;
};

/* Count op's reads, then fail each one in turn: op must return exactly INJ. */
static void inject(const char *what, op_fn fn, struct op *o, struct fault *f, struct tally *t)
{
	unsigned long n, k;
	int r0, r;

	f->count = 0;
	f->fail_at = 0;
	f->kind = KIND_NONE;
	r0 = fn(o);
	if (sframe_is_read_error(r0))
		fail_msg("%s: read error %d without an injected failure", what, r0);
	n = f->count;
	for (k = 1; k <= n; k++) {
		f->count = 0;
		f->fail_at = k;
		f->kind = KIND_NONE;
		r = fn(o);
		if (r != INJ)
			fail_msg("%s: read %lu of %lu failed, the call returned %d (%s), not the "
				 "callback's error", what, k, n, r, sframe_errname(r));
		assert_int_equal(f->kind, KIND_SECTION);
	}
	f->fail_at = 0;
	t->calls++;
	t->faults += n;
}

static uint64_t read_addr(const char *path)
{
	unsigned long long v = 0;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%llx", &v), 1);
	fclose(f);
	return v;
}

static size_t load_pcs(const char *path, uint64_t *pcs, size_t max)
{
	unsigned long long v;
	size_t n = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	while (n < max && fscanf(f, "%llx", &v) == 1)
		pcs[n++] = v;
	fclose(f);
	return n;
}

static void test_section(void **state)
{
	const struct sec_fixture *fx = *state;
	static uint64_t pcs[MAX_PCS];
	char p[1100], what[256];
	struct sframe_section sec;
	struct sframe_fde fde;
	struct sframe_fre_iter it;
	struct sframe_fre fre;
	struct sframe_rules rules;
	struct fault f = { 0 };
	struct tally t = { 0 };
	struct reader rd;
	struct op o;
	uint8_t *data;
	size_t len = 0, npcs, i, off;
	uint64_t part_len;
	uint32_t j;

	snprintf(p, sizeof(p), "%s.sframe", fx->path);
	data = (uint8_t *)tu_read_file(p, &len);
	assert_non_null(data);
	if (len == 0) {
		/* GNU ld's empty section: nothing to read, no SFrame data. */
		assert_err(sframe_open(&sec, fi_read, &rd, 0x7000, 0, 0), -SFRAME_ERR_EMPTY);
		free(data);
		return;
	}
	rd.data = data;
	rd.base = 0x7000;
	rd.size = len;
	rd.kind = KIND_SECTION;
	rd.f = &f;
	memset(&o, 0, sizeof(o));
	o.rd = &rd;
	snprintf(p, sizeof(p), "%s.addr", fx->path);
	o.vaddr = read_addr(p);

	inject("sframe_open", op_open, &o, &f, &t);
	assert_err(sframe_open(&sec, fi_read, &rd, rd.base, len, o.vaddr), 0);
	o.sec = &sec;

	for (o.index = 0; o.index < sec.num_fdes; o.index++) {
		snprintf(what, sizeof(what), "%s: sframe_get_fde(%u)", fx->name, o.index);
		inject(what, op_get_fde, &o, &f, &t);
		assert_err(sframe_get_fde(&sec, o.index, &fde), 0);
		o.fde = &fde;
		snprintf(what, sizeof(what), "%s: FREs of FDE %u", fx->name, o.index);
		inject(what, op_iterate, &o, &f, &t);
		/* sframe_fre_iter_init() and sframe_fre_rules() read nothing. */
		f.count = 0;
		assert_err(sframe_fre_iter_init(&sec, &fde, &it), 0);
		assert_int_equal(f.count, 0);
		for (j = 0; j < fde.num_fres; j++) {
			assert_err(sframe_fre_iter_next(&sec, &it, &fre), 1);
			f.count = 0;
			assert_err(sframe_fre_rules(&sec, &fde, &fre, &rules), 0);
			assert_int_equal(f.count, 0);
		}
	}

	/* The fixture's own PCs, else the start, middle and end of every function. */
	snprintf(p, sizeof(p), "%s.pcs", fx->path);
	npcs = load_pcs(p, pcs, MAX_PCS);
	for (j = 0; j < sec.num_fdes && npcs + 4 <= MAX_PCS; j++) {
		assert_err(sframe_get_fde(&sec, j, &fde), 0);
		pcs[npcs++] = fde.func_start;
		pcs[npcs++] = fde.func_start + fde.func_size / 2;
		pcs[npcs++] = fde.func_start + fde.func_size - 1;
		pcs[npcs++] = fde.func_start + fde.func_size;
	}
	for (i = 0; i < npcs; i++) {
		o.pc = pcs[i];
		snprintf(what, sizeof(what), "%s: sframe_lookup(0x%llx)", fx->name,
			 (unsigned long long)o.pc);
		inject(what, op_lookup, &o, &f, &t);
	}

	snprintf(what, sizeof(what), "%s: sframe_check", fx->name);
	inject(what, op_check, &o, &f, &t);

	/* Every part (LLVM lld: several), opened over the rest, then over its extent. */
	for (off = 0; off < len; off += part_len) {
		struct sframe_section part;

		assert_err(sframe_open(&part, fi_read, &rd, rd.base + off, len - off, o.vaddr + off), 0);
		o.sec = &part;
		snprintf(what, sizeof(what), "%s: sframe_part_size at 0x%zx", fx->name, off);
		inject(what, op_part_size, &o, &f, &t);
		assert_err(sframe_part_size(&part, &part_len), 0);
		assert_err(sframe_open(&part, fi_read, &rd, rd.base + off, part_len, o.vaddr + off), 0);
		snprintf(what, sizeof(what), "%s: sframe_check of the part at 0x%zx", fx->name, off);
		inject(what, op_check, &o, &f, &t);
	}
	print_message("%s: %lu calls, %lu injected read failures, each returned unchanged\n",
		      fx->name, t.calls, t.faults);
	assert_true(t.calls > 3);
	free(data);
}

/* ---- The unwinder ---------------------------------------------------------------- */

static const char *const combos[] = {
	"v1-x86_64", "v1-aarch64", "v2-x86_64", "v2-aarch64",
	"v3-x86_64", "v3-aarch64", "v3-s390x",
};

#define MAX_FRAMES 64
#define WALK_EVERY 10	/* samples whose whole walk is tested */
#define STEP_EVERY 50	/* samples whose every step is tested */

struct uw {
	struct sf_target t;
	struct sframe_section sec;
	struct sframe_module slots[SF_MAX_TEXT];
	struct sframe_module_table mods;
	struct reader secr, stackr;
	struct fault f;
	struct sf_sample smp;
	struct sframe_unwinder u;
	struct sframe_regs regs;
};

static void uw_setup(struct uw *w, const char *combo)
{
	char exe[1024], err[512];
	size_t i;

	snprintf(exe, sizeof(exe), "%s/unwind/%s/unwind", fixtures, combo);
	if (sf_target_load(exe, NULL, &w->t, err, sizeof(err)))
		fail_msg("%s", err);
	/* The same section and text ranges, read through the failing reader. */
	w->secr.data = w->t.in.sec;
	w->secr.base = 0x100000;
	w->secr.size = w->t.in.sec_size;
	w->secr.kind = KIND_SECTION;
	w->secr.f = &w->f;
	assert_err(sframe_open(&w->sec, fi_read, &w->secr, w->secr.base, w->secr.size,
			       w->t.in.vaddr), 0);
	sframe_modules_init(&w->mods, w->slots, SF_MAX_TEXT);
	for (i = 0; i < w->t.info.ntext; i++)
		assert_err(sframe_modules_add(&w->mods, w->t.info.text[i].start,
					      w->t.info.text[i].end, &w->sec, NULL), 0);
	w->stackr.kind = KIND_STACK;
	w->stackr.f = &w->f;
	memset(&w->u, 0, sizeof(w->u));
	w->u.abi = w->sec.abi;
	w->u.modules = &w->mods;
	w->u.read_stack = fi_read;
	w->u.stack_ctx = &w->stackr;
	w->u.get_reg = sf_sample_get_reg;
	w->u.reg_ctx = &w->smp;
}

static void uw_sample(struct uw *w)
{
	w->stackr.data = w->smp.stack;
	w->stackr.base = w->smp.stack_addr;
	w->stackr.size = w->smp.stack_len;
	memset(&w->regs, 0, sizeof(w->regs));
	w->regs.pc = w->smp.pc;
	w->regs.sp = w->smp.sp;
	w->regs.fp = w->smp.fp;
	w->regs.valid = SFRAME_REG_PC | SFRAME_REG_SP | SFRAME_REG_FP;
	if (w->u.abi != SFRAME_ABI_AMD64_LE) {
		w->regs.ra = w->smp.ra;
		w->regs.valid |= SFRAME_REG_RA;
	}
}

static bool same_frame(const struct sframe_frame *a, const struct sframe_frame *b)
{
	return a->pc == b->pc && a->sp == b->sp && a->valid == b->valid &&
	       (!(a->valid & SFRAME_REG_FP) || a->fp == b->fp);
}

/* Whole walks: every read of the walk fails once. */
static void walk_faults(struct uw *w, const char *combo, unsigned long sample, struct tally *t)
{
	static struct sframe_frame ref[MAX_FRAMES], got[MAX_FRAMES];
	uint32_t nref, n, i, j;
	unsigned long reads, k;
	int rref, r;

	w->f.count = 0;
	w->f.fail_at = 0;
	rref = sframe_unwind_stack(&w->u, &w->regs, ref, MAX_FRAMES, &nref);
	reads = w->f.count;
	for (k = 1; k <= reads; k++) {
		w->f.count = 0;
		w->f.fail_at = k;
		w->f.kind = KIND_NONE;
		r = sframe_unwind_stack(&w->u, &w->regs, got, MAX_FRAMES, &n);
		assert_int_not_equal(w->f.kind, KIND_NONE);
		if (r == INJ) {
			/* The frames found before the failed step are the true ones. */
			assert_true(n >= 1 && n <= nref);
			for (i = 0; i < n; i++)
				if (!same_frame(&got[i], &ref[i]))
					fail_msg("%s sample %lu, read %lu of %lu failed: frame %u "
						 "differs", combo, sample, k, reads, i);
			continue;
		}
		/*
		 * Else: only a saved FP's slot, which makes that frame's FP unknown:
		 * the first frame that differs from the true walk must be that one,
		 * with the same PC and SP and SFRAME_FRAME_FP_LOST.
		 */
		for (j = 0; j < n && j < nref; j++)
			if (!same_frame(&got[j], &ref[j]) || got[j].flags != ref[j].flags)
				break;
		if (w->f.kind == KIND_STACK && j == n && n == nref && r == rref) {
			/* No difference: that FP slot was unreadable anyway. */
			for (i = 0; i < n; i++)
				if (got[i].flags & SFRAME_FRAME_FP_LOST)
					break;
			if (i < n)
				continue;
		}
		if (w->f.kind != KIND_STACK || j >= n || j >= nref || got[j].pc != ref[j].pc ||
		    got[j].sp != ref[j].sp || !(got[j].flags & SFRAME_FRAME_FP_LOST) ||
		    (ref[j].flags & SFRAME_FRAME_FP_LOST) || (got[j].valid & SFRAME_REG_FP))
			fail_msg("%s sample %lu: read %lu of %lu (%s) failed, the walk returned %d "
				 "(%s) after %u frames (%u without the failure, %s)", combo, sample,
				 k, reads, w->f.kind == KIND_STACK ? "stack" : "section", r,
				 r > 0 ? "end/full" : sframe_errname(r), n, nref,
				 rref > 0 ? "end/full" : sframe_errname(rref));
	}
	t->calls++;
	t->faults += reads;
}

/* Each step of the walk, on its own: -77 and the cursor unchanged, or FP_LOST. */
static void step_faults(struct uw *w, const char *combo, unsigned long sample, struct tally *t)
{
	struct sframe_cursor c, before;
	unsigned long reads, k;
	uint32_t steps = 0;
	int r;

	w->f.count = 0;
	w->f.fail_at = 0;
	assert_err(sframe_unwind_init(&w->u, &c, &w->regs), 0);
	assert_int_equal(w->f.count, 0);	/* reads nothing */
	for (;;) {
		before = c;
		w->f.count = 0;
		w->f.fail_at = 0;
		r = sframe_unwind_step(&w->u, &c);
		reads = w->f.count;
		for (k = 1; k <= reads; k++) {
			struct sframe_cursor x = before;
			int rx;

			w->f.count = 0;
			w->f.fail_at = k;
			w->f.kind = KIND_NONE;
			rx = sframe_unwind_step(&w->u, &x);
			if (rx == INJ) {
				if (memcmp(&x.regs, &before.regs, sizeof(x.regs)) != 0 ||
				    x.prev_cfa != before.prev_cfa || x.depth != before.depth ||
				    x.flags != before.flags)
					fail_msg("%s sample %lu step %u: failed step changed the cursor",
						 combo, sample, steps);
				continue;
			}
			if (w->f.kind != KIND_STACK || rx != 0 || r != 0 ||
			    !(x.flags & SFRAME_FRAME_FP_LOST) || x.regs.pc != c.regs.pc ||
			    x.regs.sp != c.regs.sp || (x.regs.valid & SFRAME_REG_FP))
				fail_msg("%s sample %lu step %u: read %lu of %lu (%s) failed, the step "
					 "returned %d (%s)", combo, sample, steps, k, reads,
					 w->f.kind == KIND_STACK ? "stack" : "section", rx,
					 sframe_errname(rx));
		}
		t->calls++;
		t->faults += reads;
		if (r != 0)
			break;
		steps++;
	}
}

static void test_unwind(void **state)
{
	const char *combo = *state;
	static struct uw w;
	struct sf_snapshot snap;
	struct tally t = { 0 }, ts = { 0 };
	char path[1024], err[512];
	unsigned long i = 0;
	int r;

	memset(&w, 0, sizeof(w));
	uw_setup(&w, combo);
	snprintf(path, sizeof(path), "%s/unwind/%s/unwind.snap", fixtures, combo);
	if (sf_snapshot_open(path, &snap, err, sizeof(err)))
		fail_msg("%s", err);
	while ((r = sf_snapshot_next(&snap, &w.smp, err, sizeof(err))) == 1) {
		if (i % WALK_EVERY == 0 || i % STEP_EVERY == 7) {
			uw_sample(&w);
			if (i % WALK_EVERY == 0) {
				/* With and without the frame-pointer fallback. */
				w.u.flags = 0;
				walk_faults(&w, combo, i, &t);
				w.u.flags = SFRAME_UNWIND_FP_FALLBACK;
				walk_faults(&w, combo, i, &t);
				w.u.flags = 0;
			}
			if (i % STEP_EVERY == 7) {
				w.u.flags = 0;
				step_faults(&w, combo, i, &ts);
				w.u.flags = SFRAME_UNWIND_FP_FALLBACK;
				step_faults(&w, combo, i, &ts);
				w.u.flags = 0;
			}
		}
		i++;
	}
	if (r < 0)
		fail_msg("%s: %s", path, err);
	print_message("%s: %lu walks with %lu injected read failures, %lu steps with %lu\n",
		      combo, t.calls, t.faults, ts.calls, ts.faults);
	assert_true(t.faults > 100 && ts.faults > 10);
	sf_snapshot_close(&snap);
	sf_target_free(&w.t);
}

/* ---- main ------------------------------------------------------------------------ */

static int cmp_fx(const void *a, const void *b)
{
	return strcmp(((const struct sec_fixture *)a)->name, ((const struct sec_fixture *)b)->name);
}

static void find_sections(void)
{
	struct dirent *de, *fe;
	DIR *d, *fd;

	d = opendir(fixtures);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char sub[1024];

		if (!strchr(de->d_name, '-') ||
		    (de->d_name[0] != 'v' && strncmp(de->d_name, "lld-", 4) != 0))
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", fixtures, de->d_name) >= (int)sizeof(sub))
			continue;
		fd = opendir(sub);
		if (!fd)
			continue;
		while ((fe = readdir(fd)) && nsec_fixtures < MAX_FIXTURES) {
			struct sec_fixture *fx = &sec_fixtures[nsec_fixtures];
			size_t l = strlen(fe->d_name);

			if (l < 8 || strcmp(fe->d_name + l - 7, ".sframe") != 0)
				continue;
			if (snprintf(fx->name, sizeof(fx->name), "%s/%.*s", de->d_name, (int)(l - 7),
				     fe->d_name) >= (int)sizeof(fx->name) ||
			    snprintf(fx->path, sizeof(fx->path), "%s/%.*s", sub, (int)(l - 7),
				     fe->d_name) >= (int)sizeof(fx->path))
				continue;
			nsec_fixtures++;
		}
		closedir(fd);
	}
	closedir(d);
	qsort(sec_fixtures, nsec_fixtures, sizeof(sec_fixtures[0]), cmp_fx);
}

int main(int argc, char **argv)
{
	static struct CMUnitTest tests[MAX_FIXTURES + 8];
	size_t i, n = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FIXTURES_DIR\n", argv[0]);
		return 2;
	}
	fixtures = argv[1];
	find_sections();
	if (nsec_fixtures < 20) {
		fprintf(stderr, "%s: only %zu fixture sections found\n", fixtures, nsec_fixtures);
		return 1;
	}
	for (i = 0; i < nsec_fixtures; i++)
		tests[n++] = (struct CMUnitTest){ sec_fixtures[i].name, test_section, NULL, NULL,
						  &sec_fixtures[i] };
	for (i = 0; i < sizeof(combos) / sizeof(combos[0]); i++)
		tests[n++] = (struct CMUnitTest){ combos[i], test_unwind, NULL, NULL,
						  (void *)combos[i] };
	return _cmocka_run_group_tests("fault-injection", tests, n, NULL, NULL);
}
