/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * parts.c - the SFrame sections inside one .sframe section (see parts.h).
 */
#include "read/parts.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct func {
	uint64_t start;
	uint64_t end;
	size_t part;
};

static int cmp_func(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->part != y->part)
		return x->part < y->part ? -1 : 1;
	return 0;
}

/*
 * Every function of every part by address, merged into runs of one part,
 * kept as a module table (sorted, searched by address). A function whose
 * FDE cannot be decoded is left out: a lookup at it then finds no part,
 * unless a run of its own part spans it.
 */
static int build_runs(struct sf_parts *p)
{
	struct sframe_module *runs;
	struct func *f;
	size_t total = 0, nf = 0, i, j, k;
	uint64_t end;

	for (i = 0; i < p->n; i++)
		total += p->sec[i].num_fdes;
	if (total > UINT32_MAX)
		return -ENOMEM;
	f = malloc((total ? total : 1) * sizeof(*f));
	runs = calloc(total ? total : 1, sizeof(*runs));
	if (!f || !runs) {
		free(f);
		free(runs);
		return -ENOMEM;
	}
	for (i = 0; i < p->n; i++) {
		for (j = 0; j < p->sec[i].num_fdes; j++) {
			struct sframe_fde fde;

			if (sframe_get_fde(&p->sec[i], (uint32_t)j, &fde) || fde.func_size == 0)
				continue;
			end = fde.func_start + fde.func_size;
			f[nf].start = fde.func_start;
			f[nf].end = end < fde.func_start ? UINT64_MAX : end;
			f[nf].part = i;
			nf++;
		}
	}
	qsort(f, nf, sizeof(*f), cmp_func);
	k = 0;
	for (i = 0; i < nf; i++) {
		if (k && runs[k - 1].sec == &p->sec[f[i].part]) {
			if (f[i].end > runs[k - 1].end)
				runs[k - 1].end = f[i].end;
			continue;
		}
		runs[k].start = f[i].start;
		runs[k].end = f[i].end;
		runs[k].sec = &p->sec[f[i].part];
		k++;
	}
	free(f);
	/*
	 * Overlapping functions of different parts: the later start wins.
	 * In address order, each run goes at the table's end.
	 */
	sframe_modules_init(&p->runs, runs, (uint32_t)total);
	for (i = 0; i < k; i++) {
		struct sframe_module r = runs[i];

		if (i + 1 < k && r.end > runs[i + 1].start)
			r.end = runs[i + 1].start;
		if (r.start < r.end)
			(void)sframe_modules_add(&p->runs, r.start, r.end, r.sec, NULL);
	}
	return 0;
}

int sf_parts_open(struct sf_parts *p, const void *data, uint64_t size, uint64_t vaddr)
{
	struct sframe_section sec;
	struct sframe_buffer probe;
	uint64_t off = 0, len;
	size_t cap = 0, i;
	int r;

	memset(p, 0, sizeof(*p));
	if (size == 0)
		return sframe_open_buffer(&sec, &probe, data, 0, vaddr);
	while (off < size) {
		r = sframe_open_buffer(&sec, &probe, (const uint8_t *)data + off, size - off,
				       vaddr + off);
		if (r) {
			if (p->n == 0)
				return r;
			p->err = r;
			p->err_off = off;
			break;
		}
		/* Garbage after a part: keep the part as it opened, say so. */
		r = sframe_part_size(&sec, &len);
		if (r == 0)
			r = sframe_open_buffer(&sec, &probe, (const uint8_t *)data + off, len,
					       vaddr + off);
		if (p->n == cap) {
			size_t ncap = cap ? cap * 2 : 4;
			struct sframe_section *ns = realloc(p->sec, ncap * sizeof(*ns));
			uint64_t *no;

			if (!ns)
				return -ENOMEM;
			p->sec = ns;
			no = realloc(p->off, ncap * sizeof(*no));
			if (!no)
				return -ENOMEM;
			p->off = no;
			cap = ncap;
		}
		p->sec[p->n] = sec;
		p->off[p->n] = off;
		p->n++;
		if (r) {
			p->err = r;
			p->err_off = off;
			break;
		}
		off += len;
	}
	/*
	 * Each part reads through a buffer of its own, which must outlive it:
	 * open them again over buffers that stay, now that their number is known.
	 */
	/* One buffer more, for a supplement: buffers must not move once used. */
	p->buf = calloc(p->n + 1, sizeof(*p->buf));
	if (!p->buf)
		return -ENOMEM;
	for (i = 0; i < p->n; i++) {
		sec = p->sec[i];
		r = sframe_open_buffer(&p->sec[i], &p->buf[i], (const uint8_t *)data + p->off[i],
				       sec.size, sec.vaddr);
		if (r)
			return r;
	}
	return p->n > 1 ? build_runs(p) : 0;
}

int sf_parts_supplement(struct sf_parts *p, const void *data, uint64_t size, uint64_t vaddr)
{
	const size_t at = p->supplement ? p->n - 1 : p->n;
	struct sframe_section *ns;
	uint64_t *no;
	int r;

	if (!p->buf || !p->n)
		return -SFRAME_ERR_INVAL;
	ns = realloc(p->sec, (at + 1) * sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	p->sec = ns;
	no = realloc(p->off, (at + 1) * sizeof(*no));
	if (!no)
		return -ENOMEM;
	p->off = no;
	/* The file's parts keep their buffers (p->buf[i]); the sections moved with p->sec. */
	r = sframe_open_buffer(&p->sec[at], &p->buf[at], data, size, vaddr);
	if (r) {
		if (p->supplement) {
			p->n--;
			p->supplement = false;
		}
	} else {
		p->off[at] = UINT64_MAX;
		p->n = at + 1;
		p->supplement = true;
	}
	free(p->runs.slots);
	memset(&p->runs, 0, sizeof(p->runs));
	if (p->n > 1) {
		int b = build_runs(p);

		if (b)
			return b;
	}
	return r;
}

bool sf_parts_is_supplement(const struct sf_parts *p, const struct sframe_section *sec)
{
	return p->supplement && sec == &p->sec[p->n - 1];
}

void sf_parts_free(struct sf_parts *p)
{
	free(p->buf);
	free(p->sec);
	free(p->off);
	free(p->runs.slots);
	memset(p, 0, sizeof(*p));
}

bool sf_parts_error(int r, const char *file, const char *how, char *buf, size_t len)
{
	if (r == -ENOMEM)
		snprintf(buf, len, "%s: out of memory", file);
	else if (r == -SFRAME_ERR_EMPTY)
		snprintf(buf, len, "%s: no SFrame data: the .sframe %s is empty", file, how);
	else
		snprintf(buf, len, "%s: %s (%s)", file, sframe_strerror(r), sframe_errname(r));
	return r == -ENOMEM;
}

int sf_parts_lookup(const struct sf_parts *p, uint64_t pc, struct sframe_row *row,
		    const struct sframe_section **part)
{
	const struct sframe_module *r;

	if (p->n == 1) {
		*part = &p->sec[0];
		return sframe_lookup(&p->sec[0], pc, row);
	}
	r = sframe_modules_find(&p->runs, pc);
	*part = r ? r->sec : NULL;
	if (r)
		return sframe_lookup(r->sec, pc, row);
	memset(row, 0, sizeof(*row));
	row->fde.index = SFRAME_NO_INDEX;
	return -SFRAME_ERR_NOT_FOUND;
}

int sf_parts_ranges(const struct sf_parts *p, uint64_t start, uint64_t end,
		    struct sf_range **out, size_t *n)
{
	struct sf_range *v;
	uint64_t cur = start;
	size_t i, k = 0;

	*out = NULL;
	*n = 0;
	/* Each run adds at most itself and the gap before it; one gap at the end. */
	v = malloc((2 * (size_t)p->runs.count + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (p->n == 1) {
		v[k++] = (struct sf_range){ start, end, &p->sec[0] };
		cur = end;
	}
	for (i = 0; i < p->runs.count && cur < end; i++) {
		const struct sframe_module *r = &p->runs.slots[i];
		uint64_t rs = r->start > start ? r->start : start;
		uint64_t re = r->end < end ? r->end : end;

		if (rs >= re)
			continue;
		if (rs > cur)
			v[k++] = (struct sf_range){ cur, rs, NULL };
		v[k++] = (struct sf_range){ rs, re, r->sec };
		cur = re;
	}
	if (cur < end)
		v[k++] = (struct sf_range){ cur, end, NULL };
	*out = v;
	*n = k;
	return 0;
}

void sf_parts_warn(const struct sf_parts *p, const char *file, const char *user)
{
	fflush(stdout);
	if (p->n > 1)
		fprintf(stderr, "sframe: %s: warning: not one SFrame section but %zu concatenated "
			"sections (as LLVM lld links them); %s uses every one\n", file, p->n, user);
	if (p->err)
		fprintf(stderr, "%s: %s the part at offset 0x%" PRIx64 ": %s (%s)\n", file,
			p->err == -SFRAME_ERR_TRAILING ? "after" : "in", p->err_off,
			sframe_strerror(p->err), sframe_errname(p->err));
}
