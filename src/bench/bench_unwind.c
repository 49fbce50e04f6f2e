/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * bench_unwind.c - "sframe-bench unwind".
 *
 * In process: bench_chain_run() builds a chain of BENCH_CHAIN_DEPTH frames
 * (assembled with SFrame and frame pointers) and captures the registers at
 * its bottom. From there the same frames, the chain and its caller, are
 * walked by
 *   - sframe: sframe_unwind_stack() over this executable's own .sframe, as
 *     mapped in memory, the stack read through the callback (memcpy within
 *     the stack's bounds), no cache: every frame is a full lookup;
 *   - sframe-copy: the same with the stack as a direct window over a copy
 *     of it, as a profiler holds its sample, still without a cache;
 *   - sframe-cached: the same with a cache of decoded rows
 *     (struct sframe_unwind_cache, 256 entries, warm: the walk is repeated)
 *     and the stack as a direct window over a copy of it, as a profiler
 *     holds its sample;
 *   - sframe-pcs: sframe_unwind_pcs() with the same cache and window: the
 *     return addresses only, what a profiler's call chain needs (and what
 *     the frame-pointer walk produces);
 *   - fp: a plain frame-pointer walk with the same bounds check, the floor
 *     (one dependent load per frame);
 *   - libgcc: _Unwind_Backtrace() of libgcc_s (DWARF .eh_frame);
 *   - libunwind: unw_backtrace() of libunwind.so.8, and _Unwind_Backtrace()
 *     of LLVM's libunwind.so.1, when they can be loaded.
 * Every walk must find the same return addresses, or the command fails.
 * With --index, the section gets a lookup index of the default block size
 * (sframe_index_build()), which every lookup then uses, and its modules a
 * row table (sframe_rows_build()), which every walk then asks first: what
 * the uncached walks measure (the cached ones look up nothing once warm);
 * their lines end index_bytes=N (the two together).
 *
 * Each timed walk ends with a fence (lfence on x86_64): a walk is timed
 * from its start to its end, as a profiler takes one per sample. Without
 * it, a short walk overlaps the next one in the CPU (they are independent:
 * each starts from the same registers), and the frame-pointer walk then
 * measures under one load latency per frame, below its own floor. The
 * back-to-back figures (no fence) of sframe-pcs and fp are printed too.
 * The DWARF unwinders start in the function that calls them, a few frames
 * below the chain, and stop at the chain's caller: their cost is divided by
 * the frames they actually walked.
 *
 * Offline (bench_offline.c): every sample of every snapshot fixture (the
 * folders of fixtures/unwind), walked as "sframe unwind" walks them; then again by
 * sframe_unwind_pcs() with each sample's stack as the window and one cache
 * for all the samples of a program, as a profiler would (the PCs found
 * must add up to the same number of frames). --index gives each fixture's
 * section a lookup index too.
 */
#include "bench_unwind.h"

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unwind.h>

#include <sframe/sframe_unwind.h>

#include "bench_chain.h"
#include "bench_util.h"
#include "target/unwind_target.h"

/* The chain and its caller. */
#define WALK_FRAMES (BENCH_CHAIN_DEPTH + 1)

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_ASAN __attribute__((no_sanitize_address))
#endif
#endif
#if !defined(NO_ASAN) && defined(__SANITIZE_ADDRESS__)
#define NO_ASAN __attribute__((no_sanitize_address))
#endif
#ifndef NO_ASAN
#define NO_ASAN
#endif

/* Walks end with a fence unless this is false (see above). */
static bool fence_walks = true;

static inline void walk_end(void)
{
#if defined(__x86_64__) || defined(__i386__)
	if (fence_walks)
		__asm__ volatile("lfence" ::: "memory");
#endif
}

struct stack_bounds {
	uint64_t lo;
	uint64_t hi;
};

/* An implementation of _Unwind_Backtrace(), with its own _Unwind_GetIP(). */
struct gcc_like {
	void *handle;
	_Unwind_Reason_Code (*backtrace)(_Unwind_Trace_Fn fn, void *arg);
	_Unwind_Ptr (*get_ip)(struct _Unwind_Context *ctx);
};

struct trace_state {
	const struct gcc_like *lib;
	uint64_t stop;
	uint64_t pcs[MAX_TRACE];
	uint32_t n;
};

enum method { M_SFRAME, M_COPY, M_CACHED, M_PCS, M_FP, M_LIBGCC, M_LIBUNWIND, M_LLVM, M_COUNT };

static const char *const method_name[M_COUNT] = {
	"sframe", "sframe-copy", "sframe-cached", "sframe-pcs", "fp", "libgcc", "libunwind",
	"llvm-libunwind"
};

struct method_result {
	int state;		/* 0 not run, 1 ok, -1 failed or unavailable */
	const char *why;	/* when state is -1 */
	uint32_t frames;	/* per walk */
	struct bench_result r;
	long heap;
};

struct inproc {
	struct sf_input in;
	struct sf_elf_info info;
	struct sframe_section sec;
	struct sframe_buffer buf;
	struct sframe_module slots[SF_MAX_TEXT];
	struct sframe_module_table mods;
	struct sframe_unwinder u;
	struct sframe_unwinder uc;	/* with the cache and the stack window */
	struct sframe_unwinder un;	/* with the stack window, no cache */
	struct sframe_unwind_cache cache;
	struct sframe_cache_entry centries[CACHE_ENTRIES];
	unsigned char *stack_copy;
	struct stack_bounds bounds;
	struct sframe_regs regs;
	uint64_t ref[WALK_FRAMES];	/* the frame-pointer walk's PCs */
	struct gcc_like libgcc, llvm;
	const struct gcc_like *cur;	/* the one being timed */
	void *unw_handle;
	int (*unw_backtrace)(void **buf, int size);
	int unw_size;			/* frames asked of unw_backtrace; 0 uncalibrated */
	uint64_t chain_lo, chain_hi;
	double seconds;
	struct method_result res[M_COUNT];
	struct trace_state ts;
	uint32_t timed_n;
	uint64_t caller_local;		/* a local of the chain's caller: above the chain */
	struct bench_result b2b_pcs, b2b_fp;	/* sframe-pcs and fp without fences */
	bool index;			/* --index: the section has a lookup index and row table */
	void *imem, *rmem;
	const struct sframe_rows *rows;
	size_t ibytes;
};

/* Stack reads for our unwinder: straight from this process's memory. */
NO_ASAN static int read_own_stack(void *ctx, uint64_t addr, void *dst, size_t len)
{
	const struct stack_bounds *b = ctx;

	if (addr < b->lo || addr > b->hi || len > b->hi - addr)
		return -EFAULT;
	memcpy(dst, (const void *)(uintptr_t)addr, len);
	return 0;
}

/* The floor: [fp] = caller's fp, [fp + 8] = return address, bounds-checked. */
NO_ASAN __attribute__((noinline)) static uint32_t fp_walk(const struct inproc *ip,
							    uint64_t *pcs, uint32_t max)
{
	uint64_t fp = ip->regs.fp;
	uint32_t n = 1;

	pcs[0] = ip->regs.pc;
	while (n < max) {
		const uint64_t *f = (const uint64_t *)(uintptr_t)fp;

		if (fp < ip->bounds.lo || fp > ip->bounds.hi - 16 || (fp & 7))
			break;
		pcs[n++] = f[1];
		fp = f[0];
	}
	return n;
}

static int main_bias_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	*(uint64_t *)data = (uint64_t)info->dlpi_addr;
	return 1;	/* the first object is the executable */
}

/* The [stack] mapping, where the chain lives. */
static int stack_top(uint64_t sp, uint64_t *hi)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long lo, top;

		if (sscanf(line, "%llx-%llx", &lo, &top) == 2 && sp >= lo && sp < top) {
			*hi = top;
			found = 0;
			break;
		}
	}
	fclose(f);
	return found;
}

static void gcc_like_load(struct gcc_like *g, const char *lib)
{
	memset(g, 0, sizeof(*g));
	g->handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!g->handle)
		return;
	{
		void *bt = dlsym(g->handle, "_Unwind_Backtrace");
		void *ip = dlsym(g->handle, "_Unwind_GetIP");

		if (!bt || !ip) {
			dlclose(g->handle);
			g->handle = NULL;
			return;
		}
		memcpy(&g->backtrace, &bt, sizeof(bt));
		memcpy(&g->get_ip, &ip, sizeof(ip));
	}
}

static int inproc_setup(struct inproc *ip, char *err, size_t errlen)
{
	uint64_t bias = 0;
	const void *mapped;
	size_t i;
	int r;

	if (sf_input_load("/proc/self/exe", 0, 0, &ip->in, err, errlen))
		return -1;
	if (ip->in.is_rel || strcmp(ip->in.how, "raw") == 0) {
		snprintf(err, errlen, "/proc/self/exe: not a linked executable");
		return -1;
	}
	if (sf_elf_info_load(&ip->in, &ip->info, err, errlen))
		return -1;
	dl_iterate_phdr(main_bias_cb, &bias);
	/* Look up in the section as it is mapped, as an in-process profiler does. */
	mapped = (const void *)(uintptr_t)(ip->in.vaddr + bias);
	if (memcmp(mapped, ip->in.sec, ip->in.sec_size) != 0) {
		snprintf(err, errlen, "the mapped .sframe differs from the file's");
		return -1;
	}
	r = sframe_open_buffer(&ip->sec, &ip->buf, mapped, ip->in.sec_size, ip->in.vaddr + bias);
	if (r) {
		snprintf(err, errlen, "own .sframe: %s", sframe_strerror(r));
		return -1;
	}
	if (ip->index && (bench_attach_index(&ip->sec, &ip->imem, &ip->ibytes) ||
			  bench_build_rows(&ip->sec, &ip->rows, &ip->rmem, &ip->ibytes))) {
		snprintf(err, errlen, "own .sframe: no lookup index");
		return -1;
	}
	sframe_modules_init(&ip->mods, ip->slots, SF_MAX_TEXT);
	for (i = 0; i < ip->info.ntext; i++) {
		r = sframe_modules_add(&ip->mods, ip->info.text[i].start + bias,
				       ip->info.text[i].end + bias, &ip->sec, NULL);
		if (!r)
			r = sframe_modules_set_rows(&ip->mods, ip->info.text[i].start + bias,
						    ip->rows);
		if (r) {
			snprintf(err, errlen, "module table: %s", sframe_strerror(r));
			return -1;
		}
	}
	memset(&ip->u, 0, sizeof(ip->u));
	ip->u.abi = ip->sec.abi;
	ip->u.modules = &ip->mods;
	ip->u.read_stack = read_own_stack;
	ip->u.stack_ctx = &ip->bounds;
	ip->chain_lo = bench_chain_text_start();
	ip->chain_hi = bench_chain_text_end();

	gcc_like_load(&ip->libgcc, "libgcc_s.so.1");
	gcc_like_load(&ip->llvm, "libunwind.so.1");
	ip->unw_handle = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
	if (ip->unw_handle) {
		void *p = dlsym(ip->unw_handle, "unw_backtrace");

		if (p)
			memcpy(&ip->unw_backtrace, &p, sizeof(p));
	}
	return 0;
}

static void inproc_free(struct inproc *ip)
{
	if (ip->libgcc.handle)
		dlclose(ip->libgcc.handle);
	if (ip->llvm.handle)
		dlclose(ip->llvm.handle);
	if (ip->unw_handle)
		dlclose(ip->unw_handle);
	free(ip->stack_copy);
	free(ip->imem);
	free(ip->rmem);
	sf_elf_info_free(&ip->info);
	sf_input_free(&ip->in);
}

static bool in_chain(const struct inproc *ip, uint64_t pc)
{
	return pc >= ip->chain_lo && pc < ip->chain_hi;
}

/* Do the last 32 PCs of a walk ending at the chain's caller match ours? */
static bool tail_agrees(const struct inproc *ip, const uint64_t *pcs, uint32_t n)
{
	uint32_t k;

	if (n < WALK_FRAMES - 1)
		return false;
	for (k = 1; k < WALK_FRAMES; k++)
		if (pcs[n - WALK_FRAMES + k] != ip->ref[k])
			return false;
	return true;
}

static uint64_t walk_with(const struct sframe_unwinder *u, const struct inproc *ip,
			  uint64_t count)
{
	struct sframe_frame frames[WALK_FRAMES];
	uint64_t acc = 0, k;
	uint32_t n;

	for (k = 0; k < count; k++) {
		sframe_unwind_stack(u, &ip->regs, frames, WALK_FRAMES, &n);
		acc += n + frames[n - 1].pc;
		walk_end();
	}
	return acc;
}

static uint64_t op_sframe(void *ctx, uint64_t first, uint64_t count)
{
	(void)first;
	return walk_with(&((struct inproc *)ctx)->u, ctx, count);
}

static uint64_t op_copy(void *ctx, uint64_t first, uint64_t count)
{
	(void)first;
	return walk_with(&((struct inproc *)ctx)->un, ctx, count);
}

static uint64_t op_cached(void *ctx, uint64_t first, uint64_t count)
{
	(void)first;
	return walk_with(&((struct inproc *)ctx)->uc, ctx, count);
}

static uint64_t op_pcs(void *ctx, uint64_t first, uint64_t count)
{
	struct inproc *ip = ctx;
	uint64_t pcs[WALK_FRAMES], acc = 0, k;
	uint32_t n;

	(void)first;
	for (k = 0; k < count; k++) {
		sframe_unwind_pcs(&ip->uc, &ip->regs, pcs, WALK_FRAMES, &n);
		acc += n + pcs[n - 1];
		walk_end();
	}
	return acc;
}

/* sframe_unwind_pcs() must give the frame-pointer walk's PCs too. */
static void check_pcs(struct inproc *ip)
{
	struct method_result *res = &ip->res[M_PCS];
	uint64_t pcs[WALK_FRAMES];
	uint32_t n, i;
	int r;

	r = sframe_unwind_pcs(&ip->uc, &ip->regs, pcs, WALK_FRAMES, &n);
	res->state = 1;
	res->frames = WALK_FRAMES;
	if (r != SFRAME_UNWIND_FULL || n != WALK_FRAMES) {
		res->state = -1;
		res->why = r < 0 ? sframe_errname(r) : "walk ended early";
		return;
	}
	for (i = 0; i < WALK_FRAMES; i++)
		if (pcs[i] != ip->ref[i]) {
			res->state = -1;
			res->why = "frames differ from the frame-pointer walk";
		}
}

/* The stack as a profiler's sample holds it: copied, then read in place. */
NO_ASAN static int copy_stack(struct inproc *ip)
{
	size_t len = (size_t)(ip->bounds.hi - ip->bounds.lo);
	const unsigned char *src = (const unsigned char *)(uintptr_t)ip->bounds.lo;
	size_t i;

	ip->stack_copy = malloc(len ? len : 1);
	if (!ip->stack_copy)
		return -1;
	/* (a byte loop: memcpy() would be checked against the stack's redzones) */
	for (i = 0; i < len; i++)
		ip->stack_copy[i] = src[i];
	ip->uc = ip->u;
	ip->uc.stack_data = ip->stack_copy;
	ip->uc.stack_addr = ip->bounds.lo;
	ip->uc.stack_len = len;
	ip->uc.cache = &ip->cache;
	ip->un = ip->uc;
	ip->un.cache = NULL;
	return sframe_unwind_cache_init(&ip->cache, ip->centries, CACHE_ENTRIES);
}

/* One walk of @u must give the frame-pointer walk's PCs. */
static void check_walk(struct inproc *ip, enum method m, const struct sframe_unwinder *u)
{
	struct sframe_frame frames[WALK_FRAMES];
	struct method_result *res = &ip->res[m];
	uint32_t n, i;
	int r;

	r = sframe_unwind_stack(u, &ip->regs, frames, WALK_FRAMES, &n);
	res->state = 1;
	if (r != SFRAME_UNWIND_FULL || n != WALK_FRAMES) {
		res->state = -1;
		res->why = r < 0 ? sframe_errname(r) : "walk ended early";
		return;
	}
	for (i = 0; i < WALK_FRAMES; i++)
		if (frames[i].pc != ip->ref[i]) {
			res->state = -1;
			res->why = "frames differ from the frame-pointer walk";
		}
	res->frames = WALK_FRAMES;
}

static uint64_t op_fp(void *ctx, uint64_t first, uint64_t count);

/* Time @m against the frame-pointer walk, in alternating runs. */
static void time_vs_fp(struct inproc *ip, enum method m, bench_op_fn op)
{
	struct bench_result fp;

	bench_time_pair(op, ip, op_fp, ip, 2 * ip->seconds, 2, &ip->res[m].r, &fp);
	/* The floor is the fastest the frame-pointer walk was in either pairing. */
	if (ip->res[M_FP].r.runs == 0 || fp.min_ns < ip->res[M_FP].r.min_ns)
		ip->res[M_FP].r = fp;
	bench_heap_begin();
	op(ip, 0, 1000);
	ip->res[m].heap = bench_heap_end();
}

static uint64_t op_fp(void *ctx, uint64_t first, uint64_t count)
{
	struct inproc *ip = ctx;
	uint64_t pcs[WALK_FRAMES], acc = 0, k;

	(void)first;
	for (k = 0; k < count; k++) {
		acc += fp_walk(ip, pcs, WALK_FRAMES) + pcs[WALK_FRAMES - 1];
		walk_end();
	}
	return acc;
}

static _Unwind_Reason_Code trace_cb(struct _Unwind_Context *ctx, void *arg)
{
	struct trace_state *ts = arg;
	uint64_t pc = ts->lib->get_ip(ctx);

	ts->pcs[ts->n++] = pc;
	if (pc == ts->stop || ts->n >= MAX_TRACE)
		return _URC_END_OF_STACK;
	return _URC_NO_REASON;
}

static uint64_t op_gcc_like(void *ctx, uint64_t first, uint64_t count)
{
	struct inproc *ip = ctx;
	uint64_t acc = 0, k;

	(void)first;
	for (k = 0; k < count; k++) {
		ip->ts.lib = ip->cur;
		ip->ts.stop = ip->ref[WALK_FRAMES - 1];
		ip->ts.n = 0;
		ip->cur->backtrace(trace_cb, &ip->ts);
		acc += ip->ts.n;
		walk_end();
	}
	return acc;
}

static uint64_t op_unw(void *ctx, uint64_t first, uint64_t count)
{
	struct inproc *ip = ctx;
	void *buf[MAX_TRACE];
	uint64_t acc = 0, k;

	(void)first;
	if (ip->unw_size == 0) {
		/* Calibrate at the depth the timed calls run at. */
		int n = ip->unw_backtrace(buf, MAX_TRACE), i;

		ip->unw_size = -1;
		for (i = 0; i < n; i++) {
			if ((uint64_t)(uintptr_t)buf[i] == ip->ref[WALK_FRAMES - 1]) {
				uint64_t pcs[MAX_TRACE];
				int j;

				for (j = 0; j <= i; j++)
					pcs[j] = (uint64_t)(uintptr_t)buf[j];
				if (tail_agrees(ip, pcs, (uint32_t)i + 1))
					ip->unw_size = i + 1;
				break;
			}
		}
	}
	if (ip->unw_size < 0)
		return 0;
	for (k = 0; k < count; k++) {
		acc += (uint64_t)ip->unw_backtrace(buf, ip->unw_size);
		walk_end();
	}
	return acc;
}

static void time_method(struct inproc *ip, enum method m, bench_op_fn op)
{
	struct method_result *res = &ip->res[m];

	bench_time(op, ip, ip->seconds, 2, &res->r);
	/* The DWARF walks' frame count, at the depth they were timed at. */
	ip->timed_n = ip->ts.n;
	bench_heap_begin();
	op(ip, 0, 1000);
	res->heap = bench_heap_end();
}

static int at_bottom(void *ctx, const struct bench_chain_regs *regs)
{
	struct inproc *ip = ctx;
	uint32_t n, i;

	ip->regs.pc = regs->pc;
	ip->regs.sp = regs->sp;
	ip->regs.fp = regs->fp;
	ip->regs.valid = SFRAME_REG_PC | SFRAME_REG_SP | SFRAME_REG_FP;
	ip->bounds.lo = regs->sp;
	if (stack_top(regs->sp, &ip->bounds.hi))
		ip->bounds.hi = ip->caller_local;

	/* The reference: the frame pointers, checked against the chain's code. */
	n = fp_walk(ip, ip->ref, WALK_FRAMES);
	if (n != WALK_FRAMES || !in_chain(ip, ip->ref[0]))
		goto fp_broken;
	for (i = 1; i < WALK_FRAMES - 1; i++)
		if (!in_chain(ip, ip->ref[i] - 1))
			goto fp_broken;
	if (in_chain(ip, ip->ref[WALK_FRAMES - 1] - 1))
		goto fp_broken;
	ip->res[M_FP].frames = WALK_FRAMES;
	ip->res[M_FP].state = 1;

	check_walk(ip, M_SFRAME, &ip->u);
	if (copy_stack(ip)) {
		ip->res[M_CACHED].state = -1;
		ip->res[M_CACHED].why = "out of memory";
		ip->res[M_COPY] = ip->res[M_CACHED];
	} else {
		check_walk(ip, M_COPY, &ip->un);
		check_walk(ip, M_CACHED, &ip->uc);
		/* ...and again, now from the cache: a profiler's steady state. */
		if (ip->res[M_CACHED].state == 1) {
			check_walk(ip, M_CACHED, &ip->uc);
			check_pcs(ip);
		}
	}
	if (ip->res[M_SFRAME].state == 1)
		time_vs_fp(ip, M_SFRAME, op_sframe);
	if (ip->res[M_COPY].state == 1)
		time_vs_fp(ip, M_COPY, op_copy);
	if (ip->res[M_CACHED].state == 1) {
		time_vs_fp(ip, M_CACHED, op_cached);
		fprintf(stderr, "# unwind sframe-cached: cache hits=%" PRIu64 " misses=%" PRIu64 "\n",
			ip->cache.hits, ip->cache.misses);
	}
	if (ip->res[M_PCS].state == 1) {
		ip->cache.hits = ip->cache.misses = 0;
		time_vs_fp(ip, M_PCS, op_pcs);
		fprintf(stderr, "# unwind sframe-pcs: cache hits=%" PRIu64 " misses=%" PRIu64 "\n",
			ip->cache.hits, ip->cache.misses);
	}
	if (ip->res[M_PCS].state == 1) {
		/* The same pair back to back, for comparison (see the top). */
		fence_walks = false;
		bench_time_pair(op_pcs, ip, op_fp, ip, 2 * ip->seconds, 2, &ip->b2b_pcs, &ip->b2b_fp);
		fence_walks = true;
	}
	if (ip->res[M_FP].r.runs == 0)
		time_method(ip, M_FP, op_fp);
	bench_heap_begin();
	op_fp(ip, 0, 1000);
	ip->res[M_FP].heap = bench_heap_end();

	{
		static const enum method ms[2] = { M_LIBGCC, M_LLVM };
		const struct gcc_like *libs[2] = { &ip->libgcc, &ip->llvm };
		int k;

		for (k = 0; k < 2; k++) {
			struct method_result *res = &ip->res[ms[k]];

			if (!libs[k]->handle) {
				res->state = -1;
				res->why = "not installed";
				continue;
			}
			ip->cur = libs[k];
			op_gcc_like(ip, 0, 1);
			if (ip->ts.n == 0 || ip->ts.pcs[ip->ts.n - 1] != ip->ref[WALK_FRAMES - 1] ||
			    !tail_agrees(ip, ip->ts.pcs, ip->ts.n)) {
				res->state = -1;
				res->why = "frames differ from the frame-pointer walk";
				continue;
			}
			time_method(ip, ms[k], op_gcc_like);
			/* Its walks start a few frames below the chain. */
			res->frames = ip->timed_n;
			res->state = 1;
		}
	}

	if (!ip->unw_backtrace) {
		ip->res[M_LIBUNWIND].state = -1;
		ip->res[M_LIBUNWIND].why = "not installed";
	} else {
		time_method(ip, M_LIBUNWIND, op_unw);
		if (ip->unw_size < 0) {
			ip->res[M_LIBUNWIND].state = -1;
			ip->res[M_LIBUNWIND].why = "frames differ from the frame-pointer walk";
		} else {
			ip->res[M_LIBUNWIND].state = 1;
			ip->res[M_LIBUNWIND].frames = (uint32_t)ip->unw_size;
		}
	}
	return 0;

fp_broken:
	ip->res[M_FP].state = -1;
	ip->res[M_FP].why = "the chain's frame pointers do not lead to its caller";
	return 1;
}

static double per_frame(const struct method_result *m)
{
	return m->r.min_ns / m->frames;
}

static int run_inproc(double seconds, bool index)
{
	static struct inproc ip;
	char err[512];
	int i, status = 0;

	if (!bench_chain_supported()) {
		printf("unwind inproc skipped: no register capture for this architecture\n");
		return 0;
	}
	memset(&ip, 0, sizeof(ip));
	ip.seconds = seconds;
	ip.index = index;
	if (inproc_setup(&ip, err, sizeof(err))) {
		printf("unwind inproc skipped: %s\n", err);
		inproc_free(&ip);
		return 0;
	}
	/* Without /proc/self/maps, the stack ends (for the walks) at this frame. */
	ip.caller_local = (uint64_t)(uintptr_t)&status;
	if (bench_chain_run(at_bottom, &ip) != 0)
		status = 1;
	for (i = 0; i < M_COUNT; i++) {
		const struct method_result *m = &ip.res[i];

		if (m->state == 1) {
			printf("unwind method=%s frames=%" PRIu32 " ns_per_walk=%.1f ns_per_frame=%.2f",
			       method_name[i], m->frames, m->r.min_ns, per_frame(m));
			/* (The counter does not see into the peers' libraries.) */
			if (m->heap >= 0 && i <= M_FP)
				printf(" heap_allocs=%ld", m->heap);
			if (ip.index && (i == M_SFRAME || i == M_COPY))
				printf(" index_bytes=%zu", ip.ibytes);
			printf("\n");
			fprintf(stderr, "# unwind %s: median ns_per_frame=%.2f runs=%u\n", method_name[i],
				m->r.median_ns / m->frames, m->r.runs);
		} else if (m->state == -1) {
			printf("unwind method=%s unavailable: %s\n", method_name[i], m->why);
			/* A disagreement is a bug somewhere; a missing library is not. */
			if (strcmp(m->why, "not installed") != 0)
				status = 1;
		}
	}
	for (i = M_SFRAME; i <= M_PCS; i++) {
		double ours;
		int j;

		if (ip.res[i].state != 1)
			continue;
		ours = per_frame(&ip.res[i]);
		printf("unwind ratios method=%s", method_name[i]);
		if (ip.res[M_FP].state == 1)
			printf(" sframe/fp=%.2f", ours / per_frame(&ip.res[M_FP]));
		for (j = M_LIBGCC; j < M_COUNT; j++)
			if (ip.res[j].state == 1)
				printf(" %s/sframe=%.2f", method_name[j], per_frame(&ip.res[j]) / ours);
		printf("\n");
	}
	if (ip.b2b_pcs.runs && ip.b2b_fp.runs)
		printf("unwind back-to-back method=sframe-pcs ns_per_frame=%.2f fp_ns_per_frame=%.2f "
		       "sframe/fp=%.2f\n", ip.b2b_pcs.min_ns / WALK_FRAMES,
		       ip.b2b_fp.min_ns / WALK_FRAMES, ip.b2b_pcs.min_ns / ip.b2b_fp.min_ns);
	inproc_free(&ip);
	return status;
}

int bench_cmd_unwind(int argc, char **argv)
{
	const char *fixtures = "fixtures";
	char dir[4096], *names[64];
	double seconds = 1;
	bool inproc = true, offline = true, index = false;
	size_t n = 0, k;
	int i, status = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
			if (!bench_parse_seconds(argv[++i], &seconds)) {
				fprintf(stderr, "sframe-bench: bad --seconds '%s'\n", argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "--fixtures") == 0 && i + 1 < argc) {
			fixtures = argv[++i];
		} else if (strcmp(argv[i], "--no-offline") == 0) {
			offline = false;
		} else if (strcmp(argv[i], "--no-inproc") == 0) {
			inproc = false;
		} else if (strcmp(argv[i], "--index") == 0) {
			index = true;
		} else {
			fprintf(stderr, "sframe-bench: unwind: unknown argument '%s'\n", argv[i]);
			return 2;
		}
	}
	/* Before anything is measured: a wrong folder would measure nothing. */
	snprintf(dir, sizeof(dir), "%s/unwind", fixtures);
	if (offline) {
		status = bench_offline_list(dir, names, 64, &n);
		if (status)
			return status;
	}
	if (inproc && run_inproc(seconds, index))
		status = 1;
	for (k = 0; k < n; k++) {
		if (bench_offline_one(dir, names[k], seconds, index))
			status = 1;
		free(names[k]);
	}
	return status;
}
