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
#include "sframe_internal.h"

/*
 * Window over the FRE area. For a section in memory it spans the whole rest
 * of the area (no copy, no refill); behind a callback it holds up to
 * SFRAME_MAX_READ bytes, so one read serves several FREs.
 */
struct fre_window {
	const uint8_t *p;	/* bytes from section offset @start on */
	uint64_t start;
	uint64_t end;		/* end of the FRE area */
	size_t len;		/* bytes valid at @p */
	size_t pos;		/* next FRE at p + pos */
	uint8_t buf[SFRAME_MAX_READ];
};

static int window_fill(const struct sframe_section *sec, struct fre_window *w, uint64_t from)
{
	uint64_t left = w->end - from;
	size_t n;

	if (sec->data) {
		/* The open checked that the FRE area lies inside the section. */
		w->p = sec->data + from;
		w->len = (size_t)left;
	} else {
		int ret;

		n = left < sizeof(w->buf) ? (size_t)left : sizeof(w->buf);
		ret = sf_view(sec, from, n, w->buf, -SFRAME_ERR_FRE, &w->p);
		if (ret)
			return ret;
		w->len = n;
	}
	w->start = from;
	w->pos = 0;
	return 0;
}

/*
 * The start offset and encoded size of the FRE at @p, without decoding its
 * words: a lookup decodes only the row it returns. Returns 0, 1 when the
 * FRE does not fit in @avail, or the FRE's format error.
 */
static inline int fre_peek(const struct sframe_section *sec, unsigned int sb,
			   const uint8_t *p, size_t avail, uint32_t *start, size_t *size)
{
	unsigned int info, n, code;

	if (avail < sb + 1)
		return 1;
	*start = sb == 1 ? p[0] : sb == 2 ? sf_u16(sec, p) : sf_u32(sec, p);
	info = p[sb];
	n = SFRAME_FRE_INFO_NUM_WORDS(info);
	code = SFRAME_FRE_INFO_WORD_SIZE(info);
	if (!(SF_LOOKUP_ASSUME & SFRAME_ASSUME_VALID_FRES)) {
		if (code == 3)
			return -SFRAME_ERR_WORD_SIZE;
		if (n > SFRAME_MAX_WORDS)
			return -SFRAME_ERR_WORDS;
	}
	*size = sb + 1 + ((size_t)n << code);
	return *size > avail;
}

/*
 * Find the last FRE of @fde starting at or before @rel and decode it into
 * @fre. Rows are sorted by start, so the scan stops at the first one past
 * @rel; the FREs before it are only peeked at.
 */
static int scan_fres(const struct sframe_section *sec, const struct sframe_fde *fde,
		     uint32_t rel, struct sframe_fre *fre)
{
	static const uint8_t start_bytes[3] = { 1, 2, 4 };
	struct fre_window w;
	const uint8_t *best = NULL;
	size_t best_len = 0, size = 0;
	unsigned int sb;
	uint32_t i, start = 0;
	int ret;

	if (fde->fre_type > SFRAME_FRE_TYPE_ADDR4)
		return -SFRAME_ERR_FRE_TYPE;
	sb = start_bytes[fde->fre_type];
	w.end = sec->fre_start + sec->fre_len;
	if (fde->num_fres == 0 || fde->fres_off >= w.end)
		return fde->num_fres ? -SFRAME_ERR_FRE : -SFRAME_ERR_NOT_FOUND;
	ret = window_fill(sec, &w, fde->fres_off);
	if (ret)
		return ret;
	for (i = 0; i < fde->num_fres; i++) {
		ret = fre_peek(sec, sb, w.p + w.pos, w.len - w.pos, &start, &size);
		if (ret == 1 && w.start + w.len < w.end) {
			/* A refill reuses the buffer: decode the candidate first. */
			if (best) {
				ret = sf_parse_fre(sec, fde->fre_type, best, best_len, fre,
						   SF_LOOKUP_ASSUME);
				if (ret < 0)
					return ret;
				best = NULL;
			}
			ret = window_fill(sec, &w, w.start + w.pos);
			if (ret)
				return ret;
			ret = fre_peek(sec, sb, w.p, w.len, &start, &size);
		}
		if (ret == 1)
			return -SFRAME_ERR_FRE;
		if (ret)
			return ret;
		if (start > rel)
			break;
		best = w.p + w.pos;
		/* All the bytes from it on: the decoder may read ahead (see sf_parse_fre()). */
		best_len = w.len - w.pos;
		w.pos += size;
	}
	if (best) {
		ret = sf_parse_fre(sec, fde->fre_type, best, best_len, fre, SF_LOOKUP_ASSUME);
		return ret < 0 ? ret : 0;
	}
	/* The candidate decoded before a refill, if any (size 0: none). */
	return fre->size ? 0 : -SFRAME_ERR_NOT_FOUND;
}

/* Signed distance of @pc from the section start, modulo 2^64. */
static int64_t pc_offset(const struct sframe_section *sec, uint64_t pc)
{
	return sf_s64(pc - sec->vaddr);
}

/*
 * The stored start field at @p, sign-extended, for one combination of
 * version and byte order: the callers below pass constants, so each gets
 * its own straight-line copy.
 */
static SF_ALWAYS_INLINE int64_t probe_field(const uint8_t *p, bool v3, bool be)
{
	if (v3)
		return sf_s64(be ? sf_be64(p) : sf_le64(p));
	return sf_s32(be ? sf_be32(p) : sf_le32(p));
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
 */

/*
 * Branch-free form for a section in memory (the FDE array was bounds-checked
 * at open): the probes of a lookup are unpredictable, and a mispredicted
 * branch per probe costs more than the loads. The candidate @p moves by a
 * select; the loop count depends only on the number of FDEs.
 *
 * A PC-relative start is field + field_off (the field's section offset):
 * rather than adding that after the load, the field is compared with
 * @target - field_off, computed while the load is in flight, which leaves
 * load, compare and select as the only steps from one probe to the next.
 * Both FDEs the next round may probe are prefetched: in a large section
 * the probes miss the caches, and two overlapping misses cost about one.
 * The caller keeps @target within +-2^62, so that subtraction cannot
 * overflow (field_off < 2^33). A probed v3 start whose sum overflows 64
 * bits makes the section corrupt, as sf_fde_key() says in the other form.
 */
/* Bytes of FDEs above which the search prefetches (an L1 data cache). */
#define SF_PREFETCH_SPAN 32768

static SF_ALWAYS_INLINE int search_direct(const struct sframe_section *sec, int64_t target,
					  uint32_t *index, bool v3, bool be, bool pcrel)
{
	const uint8_t *fdes = sec->data + sec->fde_start;
	const uint8_t *p = fdes;
	const uint64_t stride = sec->fde_size;
	uint64_t poff = sec->fde_start + SFRAME_FDE_START;
	uint32_t n = sec->num_fdes;
	const bool prefetch = (uint64_t)n * stride > SF_PREFETCH_SPAN;
	uint64_t off;
	uint32_t fre_off;
	bool bad = false;

	while (n > 1) {
		uint32_t half = n / 2;
		uint64_t step = half * stride;
		int64_t limit = pcrel ? target - (int64_t)(poff + step) : target;
		int64_t field;
		bool le;

		/*
		 * The next round probes one of these two: start both loads now
		 * when the FDE array is too large to stay in the first-level
		 * cache (the probes near the end of a search are the ones that
		 * miss: they differ from lookup to lookup).
		 */
		if (prefetch) {
			uint64_t next = (uint64_t)((n - half) / 2) * stride;

			SF_PREFETCH(p + next);
			SF_PREFETCH(p + step + next);
		}
		field = probe_field(p + step, v3, be);
		if (pcrel && v3)
			bad |= field > INT64_MAX - (int64_t)(poff + step);
		/* Selects (cmov): the probe loads, compares and moves on. */
		le = field <= limit;
		p = le ? p + step : p;
		poff = le ? poff + step : poff;
		n -= half;
	}
	if (bad)
		return -SFRAME_ERR_FDE;
	/*
	 * The FDE is in cache now, its FREs (and v3 attributes) likely not:
	 * start that load while sframe_lookup() decodes the FDE.
	 */
	fre_off = v3 ? (be ? sf_be32(p + SFRAME_V3_FDE_FRE_OFF) : sf_le32(p + SFRAME_V3_FDE_FRE_OFF)) :
		       (be ? sf_be32(p + SFRAME_V12_FDE_FRE_OFF) : sf_le32(p + SFRAME_V12_FDE_FRE_OFF));
	if (fre_off < sec->fre_len)
		SF_PREFETCH(sec->data + sec->fre_start + fre_off);
	/* Division by constants (a multiply), not by the run-time stride. */
	off = (uint64_t)(p - fdes);
	if (v3)
		*index = (uint32_t)(off / SFRAME_V3_FDE_SIZE);
	else if (sec->version == SFRAME_VERSION_2)
		*index = (uint32_t)(off / SFRAME_V2_FDE_SIZE);
	else
		*index = (uint32_t)(off / SFRAME_V1_FDE_SIZE);
	return 0;
}

static int search_sorted_direct(const struct sframe_section *sec, int64_t target,
				uint32_t *index)
{
	const bool pcrel = sec->flags & SFRAME_F_FDE_FUNC_START_PCREL;
	const bool v3 = sec->version == SFRAME_VERSION_3;

	switch ((v3 ? 4 : 0) | (sec->big_endian ? 2 : 0) | (pcrel ? 1 : 0)) {
	case 0: return search_direct(sec, target, index, false, false, false);
	case 1: return search_direct(sec, target, index, false, false, true);
	case 2: return search_direct(sec, target, index, false, true, false);
	case 3: return search_direct(sec, target, index, false, true, true);
	case 4: return search_direct(sec, target, index, true, false, false);
	case 5: return search_direct(sec, target, index, true, false, true);
	case 6: return search_direct(sec, target, index, true, true, false);
	default: return search_direct(sec, target, index, true, true, true);
	}
}

/* The general form: one small read (sf_fde_key()) per probe. */
static int search_sorted(const struct sframe_section *sec, int64_t target, uint32_t *index)
{
	uint32_t base = 0, n = sec->num_fdes;
	uint32_t size;
	int64_t key;
	int ret;

	if (n == 0)
		return -SFRAME_ERR_NOT_FOUND;
	/* (Targets 2^62 away from the section are left to the general loop.) */
	if (sec->data && target < ((int64_t)1 << 62) && target > -((int64_t)1 << 62))
		return search_sorted_direct(sec, target, index);

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

int sframe_lookup(const struct sframe_section *sec, uint64_t pc, struct sframe_row *row)
{
	uint64_t rel;
	int64_t target;
	uint32_t index = 0;
	int ret;

	if (!sec || !row || !sec->read)
		return -SFRAME_ERR_INVAL;
	/* Until a function is found, say so: callers tell gaps from empty FDEs. */
	row->fde.index = SFRAME_NO_INDEX;
	target = pc_offset(sec, pc);
	if (sec->flags & SFRAME_F_FDE_SORTED)
		ret = search_sorted(sec, target, &index);
	else
		ret = search_linear(sec, target, &index);
	if (ret)
		return ret;
	ret = sf_lookup_fde(sec, index, &row->fde);
	if (ret)
		return ret;
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
	if (row->fde.pc_type == SFRAME_PC_TYPE_MASK) {
		ret = sf_rep_size(sec, &row->fde);
		if (ret < 0)
			return ret;
		/* rel < func_size < 2^32: a 32-bit modulo (no libgcc call on 32-bit hosts). */
		rel = (uint32_t)rel % (uint32_t)ret;
	}

	/* fre.size 0 marks "no row decoded yet" for scan_fres(). */
	row->fre.size = 0;
	ret = scan_fres(sec, &row->fde, (uint32_t)rel, &row->fre);
	if (ret)
		return ret;
	return sf_lookup_rules(sec, &row->fde, &row->fre, &row->rules);
}
