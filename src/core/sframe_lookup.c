/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_lookup.c - from a PC to its function and row.
 *
 * Reads are what an embedder pays for (a page fault in the kernel, a
 * syscall under ptrace), so the search reads only the 8 or 12 bytes of each
 * probed FDE, then the chosen FDE, then the function's FREs in windows of
 * SFRAME_MAX_READ bytes.
 */
#include "sframe_internal.h"

/* Window over the FRE area: one read serves several FREs. */
struct fre_window {
	uint64_t start;		/* section offset of buf[0] */
	uint64_t end;		/* end of the FRE area */
	size_t len;		/* valid bytes in buf */
	size_t pos;		/* next FRE within buf */
	uint8_t buf[SFRAME_MAX_READ];
};

static int window_next(const struct sframe_section *sec, struct fre_window *w,
		       unsigned int fre_type, struct sframe_fre *fre)
{
	int ret;

	/* Refill when a maximal FRE might not fit in what is left. */
	if (w->len - w->pos < SF_FRE_MAX_BYTES && w->start + w->len < w->end) {
		uint64_t from = w->start + w->pos;
		uint64_t left = w->end - from;

		w->len = left < sizeof(w->buf) ? (size_t)left : sizeof(w->buf);
		w->start = from;
		w->pos = 0;
		ret = sf_read(sec, from, w->buf, w->len, -SFRAME_ERR_FRE);
		if (ret)
			return ret;
	}
	ret = sf_parse_fre(sec, fre_type, w->buf + w->pos, w->len - w->pos, fre);
	if (ret < 0)
		return ret;
	w->pos += (unsigned int)ret;
	return 0;
}

/* Signed distance of @pc from the section start, modulo 2^64. */
static int64_t pc_offset(const struct sframe_section *sec, uint64_t pc)
{
	return sf_s64(pc - sec->vaddr);
}

/* Binary search for the last FDE starting at or before @target. */
static int search_sorted(const struct sframe_section *sec, int64_t target, uint32_t *index)
{
	uint32_t lo = 0, hi = sec->num_fdes;
	uint32_t size;
	int64_t key;
	int ret;

	/* Halves [lo, hi) every round: at most 33 rounds. */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		ret = sf_fde_key(sec, mid, &key, &size);
		if (ret)
			return ret;
		if (key <= target)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -SFRAME_ERR_NOT_FOUND;
	*index = lo - 1;
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
	struct fre_window w;
	struct sframe_fre fre;
	uint64_t rel;
	int64_t target;
	uint32_t index, i;
	bool have = false;
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
	ret = sframe_get_fde(sec, index, &row->fde);
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
		rel %= (unsigned int)ret;
	}

	w.start = row->fde.fres_off;
	w.end = sec->fre_start + sec->fre_len;
	w.len = 0;
	w.pos = 0;
	/* Rows are sorted by start: the last one at or before @rel wins. */
	for (i = 0; i < row->fde.num_fres; i++) {
		ret = window_next(sec, &w, row->fde.fre_type, &fre);
		if (ret)
			return ret;
		if (fre.start > rel)
			break;
		row->fre = fre;
		have = true;
	}
	if (!have)
		return -SFRAME_ERR_NOT_FOUND;
	return sframe_fre_rules(sec, &row->fde, &row->fre, &row->rules);
}
