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
 * Window over the FRE area of a section behind a callback: up to
 * SFRAME_MAX_READ bytes, so one read serves several FREs. (A section in
 * memory is scanned in place: scan_direct().)
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
	size_t n = left < sizeof(w->buf) ? (size_t)left : sizeof(w->buf);
	int ret;

	ret = sf_view(sec, from, n, w->buf, -SFRAME_ERR_FRE, &w->p);
	if (ret)
		return ret;
	w->len = n;
	w->start = from;
	w->pos = 0;
	return 0;
}

/*
 * The start offset and encoded size of the FRE at @p, without decoding its
 * words: a lookup decodes only the row it returns. Returns 0, 1 when the
 * FRE does not fit in @avail, 2 when it starts past @rel (the scan ends
 * there, whatever the rest of that row holds: a damaged row fails only the
 * lookups that select it or scan past it), or the FRE's format error.
 */
static inline int fre_peek(const struct sframe_section *sec, unsigned int sb,
			   const uint8_t *p, size_t avail, uint32_t rel, uint32_t *start,
			   size_t *size)
{
	unsigned int info, n, code;

	if (avail < sb + 1)
		return 1;
	*start = sb == 1 ? p[0] : sb == 2 ? sf_u16(sec, p) : sf_u32(sec, p);
	if (*start > rel)
		return 2;
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

/* SFRAME_FRE_INFO_WORD_SIZE()'s bits of the info byte, in place: 0 for 1-byte words. */
#define SF_WORD_SIZE_BITS 0x60u

/*
 * The scan of scan_fres() over a section in memory, one copy per width of
 * the start field (@sb, a constant) and byte order: the FRE area lies in
 * memory as a whole, so there is no window to refill, and each FRE costs
 * its start and info bytes. The checks are fre_peek()'s, in its order (an
 * FRE's start is compared before the FRE is checked, as in the other form).
 */
static SFRAME_ALWAYS_INLINE int scan_direct(const uint8_t *q, const uint8_t *end, uint32_t count,
					    uint32_t rel, unsigned int sb, bool be,
					    const uint8_t **best)
{
	const uint8_t *b = NULL;

	for (; count; count--) {
		size_t avail = (size_t)(end - q);
		unsigned int info, n, code;
		uint32_t start;
		size_t size;

		if (avail < sb + 1)
			return -SFRAME_ERR_FRE;
		if (sb == 1)
			start = q[0];
		else if (sb == 2)
			start = be ? (uint32_t)q[0] << 8 | q[1] : (uint32_t)q[1] << 8 | q[0];
		else
			start = be ? sf_be32(q) : sf_le32(q);
		if (start > rel)
			break;
		info = q[sb];
		n = SFRAME_FRE_INFO_NUM_WORDS(info);
		/*
		 * The next FRE's address waits for this size: with 1-byte words
		 * (nearly every row) it is start + info + N bytes, a shorter
		 * chain than a shift by the size code, which is left to a
		 * branch that predicts well.
		 */
		if (SFRAME_UNLIKELY(info & SF_WORD_SIZE_BITS)) {
			code = SFRAME_FRE_INFO_WORD_SIZE(info);
			if (!(SF_LOOKUP_ASSUME & SFRAME_ASSUME_VALID_FRES) && code == 3)
				return -SFRAME_ERR_WORD_SIZE;
			size = sb + 1 + ((size_t)n << code);
		} else {
			size = sb + 1 + n;
		}
		if (!(SF_LOOKUP_ASSUME & SFRAME_ASSUME_VALID_FRES) && SFRAME_UNLIKELY(n > SFRAME_MAX_WORDS))
			return -SFRAME_ERR_WORDS;
		if (SFRAME_UNLIKELY(size > avail))
			return -SFRAME_ERR_FRE;
		b = q;
		q += size;
	}
	*best = b;
	return 0;
}

static int scan_fres_direct(const struct sframe_section *sec, const struct sframe_fde *fde,
			    uint32_t rel, const uint8_t **best)
{
	const uint8_t *q = sec->data + fde->fres_off;
	const uint8_t *end = sec->data + sec->fre_start + sec->fre_len;

	switch (fde->fre_type * 2 + sec->big_endian) {
	case 0: return scan_direct(q, end, fde->num_fres, rel, 1, false, best);
	case 1: return scan_direct(q, end, fde->num_fres, rel, 1, true, best);
	case 2: return scan_direct(q, end, fde->num_fres, rel, 2, false, best);
	case 3: return scan_direct(q, end, fde->num_fres, rel, 2, true, best);
	case 4: return scan_direct(q, end, fde->num_fres, rel, 4, false, best);
	default: return scan_direct(q, end, fde->num_fres, rel, 4, true, best);
	}
}

/*
 * Find the last FRE of @fde starting at or before @rel and decode it into
 * @fre. Rows are sorted by start, so the scan stops at the first one past
 * @rel; the FREs before it are only peeked at. (Inline in sframe_lookup():
 * out of line, its own frame with the read window in it would sit on top of
 * sframe_lookup()'s and deepen the deepest stack path of a lookup, which a
 * kernel caller pays for on its small stack.)
 */
static SFRAME_ALWAYS_INLINE int scan_fres(const struct sframe_section *sec,
					  const struct sframe_fde *fde, uint32_t rel,
					  struct sframe_fre *fre)
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
	if (sec->data) {
		ret = scan_fres_direct(sec, fde, rel, &best);
		if (ret)
			return ret;
		if (!best)
			return -SFRAME_ERR_NOT_FOUND;
		/* (scan_direct() made the FRE checks on @best: not twice.) */
		ret = sf_decode_fre(sec, fde->fre_type, best,
				    (size_t)(sec->data + w.end - best), fre,
				    SF_LOOKUP_ASSUME | SFRAME_ASSUME_VALID_FRES);
		return ret < 0 ? ret : 0;
	}
	ret = window_fill(sec, &w, fde->fres_off);
	if (ret)
		return ret;
	for (i = 0; i < fde->num_fres; i++) {
		ret = fre_peek(sec, sb, w.p + w.pos, w.len - w.pos, rel, &start, &size);
		if (ret == 1 && w.start + w.len < w.end) {
			/* A refill reuses the buffer: decode the candidate first. */
			if (best) {
				ret = sf_decode_fre(sec, fde->fre_type, best, best_len, fre,
						    SF_LOOKUP_ASSUME);
				if (ret < 0)
					return ret;
				best = NULL;
			}
			ret = window_fill(sec, &w, w.start + w.pos);
			if (ret)
				return ret;
			ret = fre_peek(sec, sb, w.p, w.len, rel, &start, &size);
		}
		if (ret == 2)
			break;
		if (ret == 1)
			return -SFRAME_ERR_FRE;
		if (ret)
			return ret;
		best = w.p + w.pos;
		/* All the bytes from it on: the decoder may read ahead (see sf_decode_fre()). */
		best_len = w.len - w.pos;
		w.pos += size;
	}
	if (best) {
		ret = sf_decode_fre(sec, fde->fre_type, best, best_len, fre, SF_LOOKUP_ASSUME);
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
static SFRAME_ALWAYS_INLINE int64_t probe_field(const uint8_t *p, bool v3, bool be)
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
 *
 * (Not halving a power of two, after a first probe at n minus the largest
 * power of two below n: that saves a subtraction per round, but its probes
 * lie power-of-two strides apart, so in a large section they map to the
 * same cache sets and evict each other.)
 */

/*
 * Branch-free form for a section in memory (the FDE array was bounds-checked
 * at open): the probes of a lookup are unpredictable, and a mispredicted
 * branch per probe costs more than the loads. Each copy is specialised
 * (the callers pass constants) on the version, the byte order, PC-relative
 * starts and prefetching; the loop count depends only on the number of
 * FDEs.
 *
 * It makes the rounds two at a time. The second round of a pair probes one
 * of two FDEs, which the first round's outcome picks: all three are loaded
 * at once (they lie in [off, off + n), inside the array), and the outcome
 * selects the second round's value, so one load latency serves two rounds.
 * SFRAME_OPTIMIZER_HIDE_VAR() on the two candidates keeps compilers from
 * sinking their loads into a branch on that outcome (a branch per round
 * would mispredict half the time); the selects are then conditional moves.
 *
 * A PC-relative start is field + field_off (the field's section offset):
 * rather than adding that after the load, the field is compared with
 * @target - field_off, computed while the loads are in flight. The caller
 * keeps @target within +-2^62, so that subtraction cannot overflow
 * (field_off < 2^33). A v3 start whose sum with field_off would pass
 * INT64_MAX (a corrupt section) has a field above INT64_MAX - 2^33: it
 * compares as greater than any limit, just as sf_fde_key() orders it
 * after every PC.
 *
 * When the FDE array is too large for the first-level cache, the three
 * FDEs of the next pair are prefetched for each of the four places this
 * pair may leave the search: the probes near the end of a search miss, as
 * they differ from lookup to lookup, and misses that overlap cost about
 * one. Issued while this pair's own loads are in flight, they overlap
 * them; prefetching only one round ahead would leave the second round of
 * each pair to miss on its own.
 */
/* Bytes of FDEs above which the search prefetches (an L1 data cache). */
#define SF_PREFETCH_SPAN 32768

static SFRAME_ALWAYS_INLINE void prefetch_pair(const uint8_t *at, uint64_t t1, uint64_t t2)
{
	SFRAME_PREFETCH(at + t1);
	SFRAME_PREFETCH(at + t2);
	SFRAME_PREFETCH(at + t1 + t2);
}

static SFRAME_ALWAYS_INLINE uint64_t search_direct(const struct sframe_section *sec, int64_t target,
						   bool v3, bool be, bool pcrel, bool prefetch)
{
	const uint8_t *fdes = sec->data + sec->fde_start;
	const uint64_t stride = v3 ? SFRAME_V3_FDE_SIZE : sec->fde_size;
	/* target - field_off = base - (offset of the FDE in the array). */
	const uint64_t base = (uint64_t)target - sec->fde_start - SFRAME_FDE_START;
	uint32_t n = sec->num_fdes;
	uint64_t off = 0;

	while (n > 1) {
		/* The rounds of search_general(): n - h1 left, then n - h1 - h2. */
		uint32_t h1 = n / 2, n1 = n - h1, h2 = n1 / 2;
		/* (h2 is 0 when one round is left: the second is a no-op.) */
		uint64_t s1 = h1 * stride, s2 = h2 * stride;
		uint64_t p1 = off + s1, p2;
		int64_t f1, lo, hi, limit;

		f1 = probe_field(fdes + p1, v3, be);
		lo = probe_field(fdes + off + s2, v3, be);
		hi = probe_field(fdes + p1 + s2, v3, be);
		SFRAME_OPTIMIZER_HIDE_VAR(lo);
		SFRAME_OPTIMIZER_HIDE_VAR(hi);
		if (prefetch) {
			uint32_t m = n1 - h2, g1 = m / 2, g2 = (m - g1) / 2;
			uint64_t t1 = g1 * stride, t2 = g2 * stride;

			prefetch_pair(fdes + off, t1, t2);
			prefetch_pair(fdes + off + s2, t1, t2);
			prefetch_pair(fdes + p1, t1, t2);
			prefetch_pair(fdes + p1 + s2, t1, t2);
		}
		limit = pcrel ? sf_s64(base - p1) : target;
		off = f1 <= limit ? p1 : off;
		hi = f1 <= limit ? hi : lo;
		p2 = off + s2;
		limit = pcrel ? sf_s64(base - p2) : target;
		off = hi <= limit ? p2 : off;
		n = n1 - h2;
	}
	return off;
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

static int search_sorted_direct(const struct sframe_section *sec, int64_t target,
				uint32_t *index)
{
	const bool pcrel = sec->flags & SFRAME_F_FDE_FUNC_START_PCREL;
	const bool v3 = sec->version == SFRAME_VERSION_3;
	const bool pf = (uint64_t)sec->num_fdes * sec->fde_size > SF_PREFETCH_SPAN;
	const uint8_t *fde;
	uint32_t fre_off;
	uint64_t off;

	switch ((pf ? 8 : 0) | (v3 ? 4 : 0) | (sec->big_endian ? 2 : 0) | (pcrel ? 1 : 0)) {
#define SF_SEARCH_CASE(k) \
	case k: off = search_direct(sec, target, k & 4, k & 2, k & 1, k & 8); break
	SF_SEARCH_CASE(0); SF_SEARCH_CASE(1); SF_SEARCH_CASE(2); SF_SEARCH_CASE(3);
	SF_SEARCH_CASE(4); SF_SEARCH_CASE(5); SF_SEARCH_CASE(6); SF_SEARCH_CASE(7);
	SF_SEARCH_CASE(8); SF_SEARCH_CASE(9); SF_SEARCH_CASE(10); SF_SEARCH_CASE(11);
	SF_SEARCH_CASE(12); SF_SEARCH_CASE(13); SF_SEARCH_CASE(14);
	default: SF_SEARCH_CASE(15);
#undef SF_SEARCH_CASE
	}
	/*
	 * The FDE is in cache now, its FREs (and v3 attributes) likely not:
	 * start that load while sframe_lookup() decodes the FDE.
	 */
	fde = sec->data + sec->fde_start + off;
	fre_off = sf_u32(sec, fde + (v3 ? SFRAME_V3_FDE_FRE_OFF : SFRAME_V12_FDE_FRE_OFF));
	if (fre_off < sec->fre_len)
		SFRAME_PREFETCH(sec->data + sec->fre_start + fre_off);
	*index = fde_index(sec, off);
	return 0;
}

/* The general form: one small read (sf_fde_key()) per probe. */
static int search_general(const struct sframe_section *sec, int64_t target, uint32_t *index)
{
	uint32_t base = 0, n = sec->num_fdes, size;
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

static int search_sorted(const struct sframe_section *sec, int64_t target, uint32_t *index)
{
	if (sec->num_fdes == 0)
		return -SFRAME_ERR_NOT_FOUND;
	/* (Targets 2^62 away from the section are left to the general loop.) */
	if (sec->data && target < ((int64_t)1 << 62) && target > -((int64_t)1 << 62))
		return search_sorted_direct(sec, target, index);
	return search_general(sec, target, index);
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
	return sf_decode_rules(sec, &row->fde, &row->fre, &row->rules, SF_LOOKUP_ASSUME);
}
