/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/* ref_lookup.c - the reference lookup (ref_lookup.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_assert.h"
#include "ref_lookup.h"

void fz_ref_init(struct fz_ref *r, const uint8_t *b, uint64_t size,
		 const struct sframe_section *sec)
{
	uint32_t i;

	r->s.b = b;
	r->s.size = size;
	r->s.sec = sec;
	r->n = sec->num_fdes < FZ_MAX_FDES ? sec->num_fdes : FZ_MAX_FDES;
	r->fdes = calloc(r->n ? r->n : 1, sizeof(*r->fdes));
	FZ_ASSERT(r->fdes != NULL);
	for (i = 0; i < r->n; i++)
		fz_ref_fde(&r->s, i, &r->fdes[i]);
}

void fz_ref_free(struct fz_ref *r)
{
	free(r->fdes);
	r->fdes = NULL;
}

int fz_ref_lookup(const struct fz_ref *r, uint64_t pc, uint32_t *fde_idx, uint32_t *fre_idx,
		  struct fz_fre *fre_out, uint64_t span[2])
{
	uint64_t block, next, room;
	const struct sframe_section *sec = r->s.sec;
	int64_t target = fz_s64(pc - sec->vaddr);
	uint64_t rel, off, end = sec->fre_start + sec->fre_len;
	const struct fz_fde *f;
	uint32_t i, best = SFRAME_NO_INDEX;
	bool have = false;

	*fde_idx = SFRAME_NO_INDEX;
	*fre_idx = SFRAME_NO_INDEX;
	for (i = 0; i < r->n; i++) {
		FZ_ASSERT(r->fdes[i].ok);
		if (r->fdes[i].offset > target)
			continue;
		if (best == SFRAME_NO_INDEX || r->fdes[i].offset >= r->fdes[best].offset)
			best = i;
	}
	if (best == SFRAME_NO_INDEX)
		return -SFRAME_ERR_NOT_FOUND;
	f = &r->fdes[best];
	if ((uint64_t)target - (uint64_t)f->offset >= f->size || pc < f->start ||
	    pc - f->start >= f->size)
		return -SFRAME_ERR_NOT_FOUND;
	*fde_idx = best;
	rel = (uint64_t)target - (uint64_t)f->offset;
	block = f->size;
	if ((f->info >> 4) & 1u) {
		unsigned int rep = sec->version == SFRAME_VERSION_1 ? 16 : f->rep;

		FZ_ASSERT(rep != 0);
		rel %= rep;
		block = rep;
	}
	next = block;
	off = f->fres_off;
	for (i = 0; i < f->num_fres; i++) {
		struct fz_fre fr;

		fz_ref_fre(&r->s, f->info & 0xfu, off, end, &fr);
		FZ_ASSERT(fr.ok);
		off += fr.size;
		if (fr.start <= rel) {
			*fre_idx = i;
			*fre_out = fr;
			have = true;
		} else if (fr.start < next) {
			next = fr.start;
		}
	}
	if (!have)
		return -SFRAME_ERR_NOT_FOUND;
	/*
	 * The span (rows in order, as in accepted sections): from the row's
	 * start to the first start past the PC, within the block and the
	 * function, below 2^64.
	 */
	room = f->size - (pc - f->start);
	if (next - rel < room)
		room = next - rel;
	span[0] = pc - (rel - fre_out->start);
	span[1] = pc + room < pc ? UINT64_MAX : pc + room;
	return 0;
}

void fz_iter_rules(const struct sframe_section *sec, uint32_t i, uint32_t j,
		   struct sframe_fde *fde, struct sframe_fre *fre, struct sframe_rules *rules)
{
	struct sframe_fre_iter it;
	uint32_t k;

	FZ_ASSERT_ERR(sframe_get_fde(sec, i, fde), 0);
	FZ_ASSERT_ERR(sframe_fre_iter_init(sec, fde, &it), 0);
	for (k = 0; k <= j; k++)
		FZ_ASSERT_ERR(sframe_fre_iter_next(sec, &it, fre), 1);
	FZ_ASSERT_ERR(sframe_fre_rules(sec, fde, fre, rules), 0);
}

static void fz_assert_loc_eq(const struct sframe_loc *a, const struct sframe_loc *b)
{
	FZ_ASSERT(a->kind == b->kind);
	FZ_ASSERT(a->deref == b->deref);
	FZ_ASSERT(a->reg == b->reg);
	FZ_ASSERT(a->offset == b->offset);
}

void fz_assert_rules_eq(const struct sframe_rules *a, const struct sframe_rules *b)
{
	FZ_ASSERT(a->ra_undefined == b->ra_undefined);
	FZ_ASSERT(a->ra_mangled == b->ra_mangled);
	FZ_ASSERT(a->signal == b->signal);
	fz_assert_loc_eq(&a->ra, &b->ra);
	fz_assert_loc_eq(&a->fp, &b->fp);
	FZ_ASSERT(a->cfa.reg == b->cfa.reg);
	FZ_ASSERT(a->cfa.deref == b->cfa.deref);
	FZ_ASSERT(a->cfa.offset == b->cfa.offset);
}

void fz_lookup_vs_ref(const struct fz_ref *r, const struct sframe_section *sec, uint64_t pc)
{
	struct sframe_row row;
	struct sframe_fde fde;
	struct sframe_fre fre;
	struct sframe_rules rules;
	struct fz_fre want;
	uint64_t span[2];
	uint32_t fi, ri;
	int got, exp;

	memset(&row, 0x5a, sizeof(row));
	memset(&want, 0, sizeof(want));
	exp = fz_ref_lookup(r, pc, &fi, &ri, &want, span);
	got = sframe_lookup(sec, pc, &row);
	if (got != exp)
		fprintf(stderr, "pc 0x%llx: reference FDE %u FRE %u\n", (unsigned long long)pc,
			fi, ri);
	FZ_ASSERT_ERR(got, exp);
	FZ_ASSERT(row.fde.index == fi);
	if (fi == SFRAME_NO_INDEX)
		return;
	FZ_ASSERT(row.fde.func_start == r->fdes[fi].start);
	FZ_ASSERT(row.fde.func_size == r->fdes[fi].size);
	FZ_ASSERT(row.fde.num_fres == r->fdes[fi].num_fres);
	if (got)
		return;
	fz_assert_fre_eq(&row.fre, &want);
	FZ_ASSERT(row.span_start == span[0] && row.span_end == span[1]);
	fz_iter_rules(sec, fi, ri, &fde, &fre, &rules);
	fz_assert_rules_eq(&row.rules, &rules);
}

size_t fz_interesting_pcs(const struct fz_ref *r, uint64_t *pcs, size_t n, size_t max)
{
	const struct sframe_section *sec = r->s.sec;
	uint64_t end = sec->fre_start + sec->fre_len;
	uint32_t i, j;

#define FZ_ADD(v) do { if (n < max) pcs[n++] = (v); } while (0)
	FZ_ADD(sec->vaddr);
	FZ_ADD(sec->vaddr - 1);
	for (i = 0; i < r->n && n < max; i++) {
		const struct fz_fde *f = &r->fdes[i];
		uint64_t off = f->fres_off;

		if (!f->ok)
			continue;
		FZ_ADD(f->start);
		FZ_ADD(f->start - 1);
		FZ_ADD(f->start + f->size);
		FZ_ADD(f->start + f->size - 1);
		FZ_ADD(f->start + f->size / 2);
		if ((f->info & 0xfu) > 2)
			continue;
		for (j = 0; j < f->num_fres && j < 8 && n < max; j++) {
			struct fz_fre fr;

			fz_ref_fre(&r->s, f->info & 0xfu, off, end, &fr);
			if (!fr.ok)
				break;
			off += fr.size;
			FZ_ADD(f->start + fr.start);
			FZ_ADD(f->start + fr.start - 1);
			if ((f->info >> 4) & 1u)
				FZ_ADD(f->start + fr.start + (f->rep ? f->rep : 16));
		}
	}
#undef FZ_ADD
	return n;
}
