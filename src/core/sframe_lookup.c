/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_lookup.c - from a PC to its function and row.
 *
 * Reads are what an embedder pays for (a page fault in the kernel, a
 * syscall under ptrace), so the search reads only the 8 or 12 bytes of each
 * probed FDE, then the chosen FDE, then the function's FREs in windows of
 * SFRAME_MAX_READ bytes: at most ceil(log2(FDEs)) + 3 reads for functions of
 * ordinary size. A section in memory (sframe_open_buffer()) is read in place,
 * with the same bounds checks and no callback.
 */
#include "sframe_decode.h"

/*
 * Window over the FRE area. A section in memory is one window over the
 * whole area from the function's FREs on, never refilled; a section behind
 * a callback is read SFRAME_MAX_READ bytes at a time, so that one read
 * serves several FREs.
 */
struct fre_window {
	const uint8_t *p;	/* bytes from section offset @start on */
	uint64_t start;
	uint64_t end;		/* end of the FRE area */
	size_t len;		/* bytes valid at @p */
	uint8_t buf[SFRAME_MAX_READ];
};

/*
 * Out of line: one copy serves the first window and every refill, and its
 * locals stay out of sframe_lookup()'s frame.
 */
static SFRAME_NOINLINE int window_read(const struct sframe_section *sec, struct fre_window *w,
				       uint64_t from)
{
	uint64_t left = w->end - from;
	size_t n = left < sizeof(w->buf) ? (size_t)left : sizeof(w->buf);
	int ret;

	ret = sf_view(sec, from, n, w->buf, -SFRAME_ERR_FRE, &w->p);
	if (ret)
		return ret;
	w->len = n;
	w->start = from;
	return 0;
}

/* The window from section offset @from (inside the FRE area) on. */
static SFRAME_ALWAYS_INLINE int window_at(const struct sframe_section *sec, struct fre_window *w,
					  uint64_t from)
{
	if (!sec->data)
		return window_read(sec, w, from);
	/* (The FRE area lies inside the section: open checked it.) */
	w->p = sec->data + from;
	w->len = (size_t)(w->end - from);
	w->start = from;
	return 0;
}

/*
 * Find the last FRE of @fde starting at or before @rel and decode it into
 * @fre. Rows are sorted by start, so the scan stops at the first one past
 * @rel; the FREs before it are only parsed (sf_fre_head()), the one chosen
 * in each window decoded before the window moves on. (Inline in
 * sframe_lookup(): out of line, its own frame with the window in it would
 * sit on top of sframe_lookup()'s and deepen the deepest stack path of a
 * lookup, which a kernel caller pays for on its small stack.) For the
 * row's span, *@lo rises to the greatest start scanned (should rows be out
 * of order, the span starts past every row the scan passed) and *@hi
 * becomes the start of the row that stopped the scan, if one did.
 */
static SFRAME_ALWAYS_INLINE int scan_fres(const struct sframe_section *sec,
					  const struct sframe_fde *fde, uint32_t rel,
					  struct sframe_fre *fre, uint32_t *lo, uint32_t *hi)
{
	const unsigned int type = fde->fre_type;
	struct fre_window w;
	const uint8_t *q, *lim, *best;
	uint32_t left = fde->num_fres, start;
	unsigned int info;
	bool refilled = false;
	int ret, stop = 1;

	if (type > SFRAME_FRE_TYPE_ADDR4)
		return -SFRAME_ERR_FRE_TYPE;
	w.end = sec->fre_start + sec->fre_len;
	if (left == 0 || fde->fres_off >= w.end)
		return left ? -SFRAME_ERR_FRE : -SFRAME_ERR_NOT_FOUND;
	ret = window_at(sec, &w, fde->fres_off);
	if (ret)
		return ret;
	/* One round per window; every refill moves on (see below). */
	for (;;) {
		q = w.p;
		lim = w.p + w.len;
		best = NULL;
		for (; left; left--) {
			stop = sf_fre_head(sec, type, q, (size_t)(lim - q), rel, &start, &info,
					   SF_LOOKUP_ASSUME);
			if (stop <= 0)
				break;
			*lo = start > *lo ? start : *lo;
			best = q;
			q += stop;
		}
		/*
		 * An FRE running past a window is read again from a window
		 * starting at it, unless the area ends there or that window
		 * does not hold it either (it is larger than a window: corrupt).
		 */
		if (stop < 0 && (stop != -SFRAME_ERR_FRE || w.start + w.len >= w.end ||
				 (refilled && q == w.p)))
			return stop;
		/* The window is about to be reused: decode its candidate now. */
		if (best) {
			/* (sf_fre_head() made the FRE checks on it: not twice.) */
			ret = sf_decode_fre(sec, type, best, (size_t)(lim - best), fre,
					    SF_LOOKUP_ASSUME | SFRAME_ASSUME_VALID_FRES);
			if (ret < 0)
				return ret;
		}
		/* All FREs read, or one past @rel: the scan is over. */
		if (stop >= 0)
			break;
		refilled = true;
		ret = window_read(sec, &w, w.start + (uint64_t)(q - w.p));
		if (ret)
			return ret;
	}
	*hi = stop ? *hi : start;
	return fre->size ? 0 : -SFRAME_ERR_NOT_FOUND;	/* size 0: no candidate decoded */
}

/*
 * The row for offset @rel into the function (PCMASK: the block of @limit
 * bytes; else @limit is the function's size) of @pc, and its span: lo <=
 * rel < hi from the scan, bounded by the block and by the function's end
 * (a PCMASK block may run past it), and short of 2^64.
 */
static SFRAME_ALWAYS_INLINE int scan_row(const struct sframe_section *sec,
					 struct sframe_row *row, uint64_t pc,
					 uint64_t rel, uint32_t limit)
{
	uint32_t lo = 0, hi = limit;
	uint64_t room;
	int ret;

	/* fre.size 0 marks "no row decoded yet" for scan_fres(). */
	row->fre.size = 0;
	ret = scan_fres(sec, &row->fde, (uint32_t)rel, &row->fre, &lo, &hi);
	if (ret)
		return ret;
	if (hi > limit)
		hi = limit;
	room = row->fde.func_size - (pc - row->fde.func_start);
	if (hi - rel < room)
		room = hi - rel;
	row->span_start = pc - (rel - lo);
	row->span_end = pc + room < pc ? SFRAME_UINT64_MAX : pc + room;
	return 0;
}

/* Signed distance of @pc from the section start, modulo 2^64. */
static int64_t pc_offset(const struct sframe_section *sec, uint64_t pc)
{
	return sf_s64(pc - sec->vaddr);
}

/*
 * The binary search, in both forms below, narrows [base, base + n) to the
 * one FDE that can contain @target: each round probes base + n / 2 and
 * keeps the upper half when that FDE starts at or before @target, until
 * n is 1. That is ceil(log2(FDEs)) probes; the FDE left is then decoded in
 * full by sframe_lookup(), which also decides whether it contains the PC
 * (below the first function it does not). Both forms probe the same FDEs in
 * the same order, so a section gives the same answer, corrupt or not,
 * whether it is read in memory or through a callback.
 *
 * (Not halving a power of two, after a first probe at n minus the largest
 * power of two below n: that saves a subtraction per round, but its probes
 * lie power-of-two strides apart, so in a large section they map to the
 * same cache sets and evict each other.)
 */

/*
 * Branch-free form for a section in memory (the FDE array was bounds-checked
 * at open): the probes of a lookup are unpredictable, and a mispredicted
 * branch per probe costs more than the loads. The branches left (the
 * layout of the entries, when it is read at run time) go the same way in
 * every round of every lookup of a section, so they predict perfectly; the
 * loop count depends only on the number of FDEs.
 *
 * It makes the rounds two at a time. The second round of a pair probes one
 * of two FDEs, which the first round's outcome picks: all three are loaded
 * at once (they lie in [off, off + n), inside the array), and the outcome
 * selects the second round's value, so one load latency serves two rounds.
 * SFRAME_OPTIMIZER_HIDE_VAR() on the candidates keeps compilers from
 * sinking their loads or sums into a branch on that outcome (a branch per
 * round would mispredict half the time); the selects are then conditional
 * moves.
 *
 * A PC-relative start is field + field_off (the field's section offset):
 * rather than adding that after the load, the field is compared with
 * @limit = @target - field_off. @limit moves with @off, by the same
 * selects, so no sum waits for a select: a mask (all ones for PC-relative
 * starts, zero otherwise) applied to the strides, which depend on the
 * round only, keeps it at @target otherwise. The caller keeps @target
 * within +-2^62, so @limit cannot overflow (field_off < 2^33). A v3 start
 * whose sum with field_off would pass INT64_MAX (a corrupt section) has a
 * field above INT64_MAX - 2^33: it compares as greater than any limit,
 * just as sf_fde_key() orders it after every PC.
 */
/*
 * The rounds for one layout of the index entries: @v3 and @be are
 * constants (see search_direct()) or the section's own.
 */
static SFRAME_ALWAYS_INLINE uint64_t search_rounds(const struct sframe_section *sec, int64_t target,
						   uint32_t base, uint32_t n, bool v3, bool be)
{
	const uint8_t *fdes = sec->data + sec->fde_start;
	const uint64_t stride = v3 ? SFRAME_V3_FDE_SIZE : sec->fde_size;
	uint64_t pcrel = 0u - (uint64_t)!!(sec->flags & SFRAME_F_FDE_FUNC_START_PCREL);
	uint64_t off = (uint64_t)base * stride;
	/* @target - field_off for the FDE at @off (@target without PCREL). */
	uint64_t limit = (uint64_t)target - (pcrel & (sec->fde_start + SFRAME_FDE_START + off));

	/* (A mask in a register, not turned back into a select per round.) */
	SFRAME_OPTIMIZER_HIDE_VAR(pcrel);
	while (n > 1) {
		/* The rounds of search_general(): n - h1 left, then n - h1 - h2. */
		uint32_t h1 = n / 2, n1 = n - h1, h2 = n1 / 2;
		/* (h2 is 0 when one round is left: the second is a no-op.) */
		uint64_t s1 = h1 * stride, s2 = h2 * stride;
		uint64_t p1 = off + s1, l1 = limit - (pcrel & s1), p2, l2;
		int64_t f1, lo, hi;
		bool up;

		f1 = sf_entry_start(fdes + p1, v3, be);
		lo = sf_entry_start(fdes + off + s2, v3, be);
		hi = sf_entry_start(fdes + p1 + s2, v3, be);
		SFRAME_OPTIMIZER_HIDE_VAR(lo);
		SFRAME_OPTIMIZER_HIDE_VAR(hi);
		up = f1 <= sf_s64(l1);
		off = up ? p1 : off;
		limit = up ? l1 : limit;
		hi = up ? hi : lo;
		p2 = off + s2;
		l2 = limit - (pcrel & s2);
		SFRAME_OPTIMIZER_HIDE_VAR(p2);
		SFRAME_OPTIMIZER_HIDE_VAR(l2);
		up = hi <= sf_s64(l2);
		off = up ? p2 : off;
		limit = up ? l2 : limit;
		n = n1 - h2;
	}
	return off;
}

/*
 * The offset in the FDE array of the FDE search_general() settles on for
 * @target. The rounds get a copy of their own for v3 little-endian entries
 * (what binutils 2.46 and later write on x86-64 and aarch64): with the
 * layout read at run time, each probe's value comes through a branch on
 * it, which lengthens the chain of dependent loads. One copy serves every
 * other layout. (Out of line: inlined, its registers would enlarge
 * sframe_lookup()'s frame, the deepest stack path of a lookup.)
 */
static SFRAME_NOINLINE uint64_t search_direct(const struct sframe_section *sec, int64_t target,
					       uint32_t base, uint32_t n)
{
	if (sec->version == SFRAME_VERSION_3 && !sec->big_endian)
		return search_rounds(sec, target, base, n, true, false);
	return search_rounds(sec, target, base, n, sec->version == SFRAME_VERSION_3,
			     sec->big_endian);
}

/* The chosen FDE's index from its offset: division by constants (a multiply). */
static SFRAME_ALWAYS_INLINE uint32_t fde_index(const struct sframe_section *sec, uint64_t off)
{
	if (sec->version == SFRAME_VERSION_3)
		return (uint32_t)(off / SFRAME_V3_FDE_SIZE);
	if (sec->version == SFRAME_VERSION_2)
		return (uint32_t)(off / SFRAME_V2_FDE_SIZE);
	return (uint32_t)(off / SFRAME_V1_FDE_SIZE);
}

static int search_sorted_direct(const struct sframe_section *sec, int64_t target, uint32_t base,
				uint32_t n, uint32_t *index)
{
	const uint64_t off = search_direct(sec, target, base, n);
	const uint8_t *fde = sec->data + sec->fde_start + off;
	const uint32_t fre_off = sf_entry_fre_off(fde, sec->version == SFRAME_VERSION_3,
						  sec->big_endian);

	/*
	 * The FDE is in cache now, its FREs (and v3 attributes) likely not:
	 * start that load while sframe_lookup() decodes the FDE.
	 */
	if (fre_off < sec->fre_len)
		SFRAME_PREFETCH(sec->data + sec->fre_start + fre_off);
	*index = fde_index(sec, off);
	return 0;
}

/* The general form: one small read (sf_fde_key()) per probe. */
static int search_general(const struct sframe_section *sec, int64_t target, uint32_t base,
			  uint32_t n, uint32_t *index)
{
	uint32_t size;
	int64_t key;
	int ret;

	/* Halves n every round: at most 32 rounds. */
	while (n > 1) {
		uint32_t half = n / 2;

		ret = sf_fde_key(sec, base + half, &key, &size);
		if (ret)
			return ret;
		if (key <= target)
			base += half;
		n -= half;
	}
	*index = base;
	return 0;
}

/* The binary search over FDEs [base, base + n): all of them, or an index's range. */
static int search_sorted(const struct sframe_section *sec, int64_t target, uint32_t base,
			 uint32_t n, uint32_t *index)
{
	if (n == 0)
		return -SFRAME_ERR_NOT_FOUND;
	/* (Targets 2^62 away from the section are left to the general loop.) */
	if (sec->data && target < ((int64_t)1 << 62) && target > -((int64_t)1 << 62))
		return search_sorted_direct(sec, target, base, n, index);
	return search_general(sec, target, base, n, index);
}

/*
 * Unsorted sections (gas output before linking) are scanned in full for the
 * same answer the binary search gives on sorted input: the last FDE with
 * the greatest start <= @target (containment is checked by the caller).
 */
static int search_linear(const struct sframe_section *sec, int64_t target, uint32_t *index)
{
	bool found = false;
	int64_t best = 0, key;
	uint32_t i, size;
	int ret;

	for (i = 0; i < sec->num_fdes; i++) {
		ret = sf_fde_key(sec, i, &key, &size);
		if (ret)
			return ret;
		if (key > target)
			continue;
		if (!found || key >= best) {
			found = true;
			best = key;
			*index = i;
		}
	}
	return found ? 0 : -SFRAME_ERR_NOT_FOUND;
}

/*
 * The FDE the search chose for @target cannot be decoded (@err). It fails
 * only the PCs it covers: a PC past its end (in the gap after it) is not
 * found, as it would be were the FDE intact. Its start and size come from
 * the index entry, which the search could read; read errors are returned
 * unchanged. (Only on this error path: a lookup's reads are not added to.)
 */
static int fde_error(const struct sframe_section *sec, uint32_t index, int64_t target, int err)
{
	int64_t key;
	uint32_t size;
	int ret;

	if (sframe_is_read_error(err))
		return err;
	ret = sf_fde_key(sec, index, &key, &size);
	if (ret)
		return ret;
	if (key > target || (uint64_t)target - (uint64_t)key >= size)
		return -SFRAME_ERR_NOT_FOUND;
	return err;
}

/* The FDE index's entries, after its header. */
static const uint32_t *index_entries(const struct sframe_index *idx)
{
	return (const uint32_t *)(const void *)(idx + 1);
}

/*
 * index_range() - the FDEs [*@base, *@base + *@n) among which the search
 * for @target settles, from @sec's attached index (sec->index, not NULL).
 * *@n is 0 when no function starts at or before @target in a section not
 * flagged sorted (the linear scan finds none). Returns false, leaving them
 * unset, when the index does not fit the section: it is not used.
 */
static bool index_range(const struct sframe_section *sec, int64_t target, uint32_t *base,
			uint32_t *n)
{
	const struct sframe_index *idx = sec->index;
	const uint32_t *first = index_entries(idx);
	uint64_t b;
	uint32_t lo, hi;

	/* An index of other bytes (a section reopened by hand) is not used. */
	if (idx->num_fdes != sec->num_fdes || idx->bits > SFRAME_INDEX_MAX_BITS)
		return false;
	if (target < idx->start) {
		/* Before the first function: FDE 0, or none for the linear scan. */
		*base = 0;
		*n = (sec->flags & SFRAME_F_FDE_SORTED) ? 1 : 0;
		return true;
	}
	b = ((uint64_t)target - (uint64_t)idx->start) >> idx->bits;
	if (b >= idx->blocks) {
		lo = first[idx->blocks];
		hi = lo;
	} else {
		lo = first[b];
		hi = first[b + 1];
	}
	if (lo > hi || hi >= sec->num_fdes)
		return false;
	*base = lo;
	*n = hi - lo + 1;
	return true;
}

int sframe_lookup(const struct sframe_section *sec, uint64_t pc, struct sframe_row *row)
{
	uint64_t rel;
	int64_t target;
	uint32_t index = 0, base, n, limit;
	bool sorted;
	int ret;

	if (!sec || !row || !sec->read)
		return -SFRAME_ERR_INVAL;
	/* Until a function is found, say so: callers tell gaps from empty FDEs. */
	row->fde.index = SFRAME_NO_INDEX;
	target = pc_offset(sec, pc);
	sorted = sec->flags & SFRAME_F_FDE_SORTED;
	base = 0;
	n = sec->num_fdes;
	/*
	 * An index narrows either search to a range of FDEs, searched by
	 * halving (sframe_index.c says why). (One call of search_sorted():
	 * inline, it adds no frame to a lookup's stack.)
	 */
	if (sec->index && index_range(sec, target, &base, &n))
		sorted = true;
	if (sorted)
		ret = search_sorted(sec, target, base, n, &index);
	else
		ret = search_linear(sec, target, &index);
	if (ret)
		return ret;
	ret = sf_decode_fde(sec, index, &row->fde, SF_LOOKUP_ASSUME);
	if (ret)
		return fde_error(sec, index, target, ret);
	/*
	 * Half-open [start, start + size): a PC at the end is not inside. The
	 * address test keeps a function that straddles 2^64 (a section opened
	 * at a wrong vaddr) from claiming PCs past the wrap.
	 */
	if (row->fde.func_offset > target ||
	    (uint64_t)target - (uint64_t)row->fde.func_offset >= row->fde.func_size ||
	    pc < row->fde.func_start || pc - row->fde.func_start >= row->fde.func_size) {
		row->fde.index = SFRAME_NO_INDEX;
		return -SFRAME_ERR_NOT_FOUND;
	}
	rel = (uint64_t)target - (uint64_t)row->fde.func_offset;
	limit = row->fde.func_size;
	if (row->fde.pc_type == SFRAME_PC_TYPE_MASK) {
		ret = sf_rep_size(sec, &row->fde);
		if (ret < 0)
			return ret;
		/* rel < func_size < 2^32: a 32-bit modulo (no libgcc call on 32-bit hosts). */
		rel = (uint32_t)rel % (uint32_t)ret;
		limit = (uint32_t)ret;
	}
	ret = scan_row(sec, row, pc, rel, limit);
	if (ret)
		return ret;
	return sf_decode_rules(sec, &row->fde, &row->fre, &row->rules, SF_LOOKUP_ASSUME);
}
