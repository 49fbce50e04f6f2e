/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * fuzz_common.h - what every fuzz target shares: input splitting, a read
 * callback that abort()s on any read outside the bytes it was given, error
 * classes, and the slow, obviously-correct reference decoder and lookup the
 * targets compare the library with.
 *
 * Each target is built three ways (fuzz/meson.build): linked with replay.c
 * (a main() that runs corpus files; every meson build), with libFuzzer
 * (clang only), and both again against a core compiled with
 * -DSFRAME_ASSUME_MASK=SFRAME_ASSUME_VALID. FZ_ASSUME tells the targets which
 * core they run against.
 */
#ifndef SFRAME_FUZZ_COMMON_H
#define SFRAME_FUZZ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sframe/sframe.h>
#include <sframe/sframe_unwind.h>

/* (sfx_lookup_result(): the errors a lookup may return, shared with the tests.) */
#include "../tests/lookup_errors.h"

#ifndef FZ_ASSUME
#define FZ_ASSUME 0	/* 1: the core was built with SFRAME_ASSUME_MASK=SFRAME_ASSUME_VALID */
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A distinctive error for injected read failures; never a library code. */
#define FZ_INJECTED (-77)

/* ---- Invariants ------------------------------------------------------------ */

#if defined(__GNUC__)
__attribute__((noreturn, unused))
#endif
static void fz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: invariant violated: %s\n", file, line, what);
	fflush(stderr);
	abort();
}

#define FZ_ASSERT(cond)							\
	do {								\
		if (!(cond))						\
			fz_fail(__FILE__, __LINE__, #cond);		\
	} while (0)

/* Two results must be equal; print both names when they are not. */
#define FZ_ASSERT_ERR(got, want)					\
	do {								\
		int fz_g_ = (got), fz_w_ = (want);			\
		if (fz_g_ != fz_w_) {					\
			fprintf(stderr, "%s = %d (%s), expected %d (%s)\n", #got, fz_g_, \
				sframe_errname(fz_g_), fz_w_, sframe_errname(fz_w_)); \
			fz_fail(__FILE__, __LINE__, #got " == " #want);	\
		}							\
	} while (0)

/* ---- Splitting the input ---------------------------------------------------- */

struct fz_in {
	const uint8_t *p;
	size_t n;
};

/* Little-endian integer of @bytes bytes; missing bytes read as 0. */
static inline uint64_t fz_uint(struct fz_in *in, unsigned int bytes)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < bytes; i++) {
		if (in->n) {
			v |= (uint64_t)in->p[0] << (8 * i);
			in->p++;
			in->n--;
		}
	}
	return v;
}

/* Up to @max bytes; *@len says how many. */
static inline const uint8_t *fz_take(struct fz_in *in, size_t max, size_t *len)
{
	const uint8_t *p = in->p;

	*len = in->n < max ? in->n : max;
	in->p += *len;
	in->n -= *len;
	return p;
}

/* An exactly-sized heap copy, so that ASan sees any access past its end. */
static inline uint8_t *fz_dup(const uint8_t *p, size_t n)
{
	uint8_t *d = malloc(n ? n : 1);

	FZ_ASSERT(d != NULL);
	if (n)
		memcpy(d, p, n);
	else
		d[0] = 0;
	return d;
}

/* ---- A bounded read callback ------------------------------------------------- */

/*
 * struct fz_mem - @size bytes at callback address @base. A read outside
 * them, of length 0 or of more than SFRAME_MAX_READ bytes is a library bug:
 * abort(). Counts reads; the @fail_at-th (1-based, 0 = never) fails with
 * @fail_err. @shared_count, when set, is a counter shared by several
 * callbacks (section and stack reads of an unwind count as one sequence).
 */
struct fz_mem {
	const uint8_t *data;
	uint64_t base;
	uint64_t size;
	unsigned long calls;
	unsigned long fail_at;
	int fail_err;
	bool failed;		/* the injected failure happened */
	bool len8;		/* every read must be 8 bytes (stack reads) */
	bool oob_ok;		/* out-of-range reads are legitimate: return -EFAULT */
	unsigned long *shared_count;
	unsigned long *shared_fail_at;
};

#define FZ_EFAULT (-14)

static inline int fz_read(void *ctx, uint64_t addr, void *dst, size_t len)
{
	struct fz_mem *m = ctx;
	unsigned long n, at;
	bool oob;

	FZ_ASSERT(len > 0 && len <= SFRAME_MAX_READ);
	FZ_ASSERT(dst != NULL);
	if (m->len8)
		FZ_ASSERT(len == 8);
	if (m->shared_count) {
		n = ++*m->shared_count;
		at = *m->shared_fail_at;
	} else {
		n = ++m->calls;
		at = m->fail_at;
	}
	oob = addr < m->base || addr - m->base > m->size || len > m->size - (addr - m->base);
	if (oob && !m->oob_ok) {
		fprintf(stderr, "read of %zu bytes at 0x%llx outside [0x%llx, +0x%llx)\n", len,
			(unsigned long long)addr, (unsigned long long)m->base,
			(unsigned long long)m->size);
		fz_fail(__FILE__, __LINE__, "read inside the bytes given");
	}
	if (at && n == at) {
		m->failed = true;
		return m->fail_err;
	}
	if (oob)
		return FZ_EFAULT;
	memcpy(dst, m->data + (addr - m->base), len);
	return 0;
}

static inline void fz_mem_init(struct fz_mem *m, const uint8_t *data, uint64_t size,
			       uint64_t base)
{
	memset(m, 0, sizeof(*m));
	m->data = data;
	m->size = size;
	m->base = base;
	m->fail_err = FZ_INJECTED;
}

/* ---- Error classes ------------------------------------------------------------ */

/* A corrupt- or unsupported-section code: what a section can make a call return. */
static inline bool fz_section_err(int err)
{
	switch (-err) {
	case SFRAME_ERR_BAD_MAGIC:
	case SFRAME_ERR_VERSION:
	case SFRAME_ERR_ABI:
	case SFRAME_ERR_UNSUPPORTED:
	case SFRAME_ERR_TRUNCATED:
	case SFRAME_ERR_FLAGS:
	case SFRAME_ERR_HEADER:
	case SFRAME_ERR_FDE:
	case SFRAME_ERR_FDE_ORDER:
	case SFRAME_ERR_FRE_TYPE:
	case SFRAME_ERR_FDE_TYPE:
	case SFRAME_ERR_REP_SIZE:
	case SFRAME_ERR_FRE:
	case SFRAME_ERR_WORD_SIZE:
	case SFRAME_ERR_WORDS:
	case SFRAME_ERR_FRE_COUNT:
	case SFRAME_ERR_TRAILING:
	case SFRAME_ERR_CONCAT:
		return true;
	default:
		return false;
	}
}

/* Two's-complement reinterpretation without implementation-defined casts. */
static inline int64_t fz_s64(uint64_t v)
{
	return v <= (uint64_t)INT64_MAX ? (int64_t)v : -(int64_t)(~v) - 1;
}

static inline int32_t fz_sext(uint32_t v, unsigned int bytes)
{
	uint32_t sign = 1u << (8 * bytes - 1);
	uint32_t mask = bytes == 4 ? 0xffffffffu : (sign << 1) - 1;

	v &= mask;
	if (!(v & sign))
		return (int32_t)v;
	return -(int32_t)(~v & (sign - 1)) - 1;
}

/* ---- The reference: a slow, independent decoder of the raw bytes ------------ */

/* Bytes of a section as the targets keep them: the buffer and its header. */
struct fz_sec {
	const uint8_t *b;
	uint64_t size;
	const struct sframe_section *sec;	/* opened over the same bytes */
};

static inline bool fz_in_bounds(const struct fz_sec *s, uint64_t off, uint64_t len)
{
	return off <= s->size && len <= s->size - off;
}

static inline uint64_t fz_get(const struct fz_sec *s, uint64_t off, unsigned int bytes)
{
	uint64_t v = 0;
	unsigned int i;

	FZ_ASSERT(fz_in_bounds(s, off, bytes));
	for (i = 0; i < bytes; i++) {
		unsigned int shift = s->sec->big_endian ? 8 * (bytes - 1 - i) : 8 * i;

		v |= (uint64_t)s->b[off + i] << shift;
	}
	return v;
}

struct fz_fde {
	bool ok;		/* every byte of it was inside the section */
	int64_t offset;		/* function start relative to the section */
	uint64_t start;		/* vaddr + offset, modulo 2^64 */
	uint32_t size;
	uint32_t num_fres;
	uint8_t info, info2, rep;
	uint64_t fres_off;	/* section offset of its first FRE */
	int64_t field;
	uint64_t field_off;
};

/* Decode FDE @i from the raw bytes, by the format description alone. */
static inline void fz_ref_fde(const struct fz_sec *s, uint32_t i, struct fz_fde *f)
{
	const struct sframe_section *sec = s->sec;
	uint64_t off = sec->fde_start + (uint64_t)i * sec->fde_size, fre_off, attr;

	memset(f, 0, sizeof(*f));
	if (!fz_in_bounds(s, off, sec->fde_size))
		return;
	f->field_off = off;
	if (sec->version == SFRAME_VERSION_3) {
		f->field = fz_s64(fz_get(s, off, 8));
		f->size = (uint32_t)fz_get(s, off + 8, 4);
		fre_off = fz_get(s, off + 12, 4);
		attr = sec->fre_start + fre_off;
		if (!fz_in_bounds(s, attr, 5))
			return;
		f->num_fres = (uint32_t)fz_get(s, attr, 2);
		f->info = s->b[attr + 2];
		f->info2 = s->b[attr + 3];
		f->rep = s->b[attr + 4];
		f->fres_off = attr + 5;
	} else {
		f->field = fz_sext((uint32_t)fz_get(s, off, 4), 4);
		f->size = (uint32_t)fz_get(s, off + 4, 4);
		fre_off = fz_get(s, off + 8, 4);
		f->num_fres = (uint32_t)fz_get(s, off + 12, 4);
		f->info = s->b[off + 16];
		f->rep = sec->version == SFRAME_VERSION_2 ? s->b[off + 17] : 0;
		f->fres_off = sec->fre_start + fre_off;
	}
	f->offset = f->field;
	if (sec->flags & SFRAME_F_FDE_FUNC_START_PCREL) {
		if (f->field > INT64_MAX - (int64_t)off)
			return;
		f->offset = f->field + (int64_t)off;
	}
	f->start = sec->vaddr + (uint64_t)f->offset;
	f->ok = true;
}

struct fz_fre {
	bool ok;
	uint32_t start;
	uint8_t info;
	unsigned int n, wb, size;
	int32_t words[15];
	uint32_t uwords[15];
};

/* Decode the FRE at section offset @off with start width of @fre_type (0..2). */
static inline void fz_ref_fre(const struct fz_sec *s, unsigned int fre_type, uint64_t off,
			      uint64_t end, struct fz_fre *r)
{
	static const unsigned int sbytes[3] = { 1, 2, 4 };
	unsigned int sb, code, i;

	memset(r, 0, sizeof(*r));
	FZ_ASSERT(fre_type <= 2);
	sb = sbytes[fre_type];
	if (off > end || end - off < sb + 1 || !fz_in_bounds(s, off, sb + 1))
		return;
	r->start = (uint32_t)fz_get(s, off, sb);
	r->info = s->b[off + sb];
	r->n = (r->info >> 1) & 0xfu;
	code = (r->info >> 5) & 3u;
	if (code == 3)
		return;
	r->wb = 1u << code;
	r->size = sb + 1 + r->n * r->wb;
	if (end - off < r->size || !fz_in_bounds(s, off, r->size))
		return;
	for (i = 0; i < r->n; i++) {
		r->uwords[i] = (uint32_t)fz_get(s, off + sb + 1 + i * r->wb, r->wb);
		r->words[i] = fz_sext(r->uwords[i], r->wb);
	}
	r->ok = true;
}

/* The library's FRE equals the reference's. */
static inline void fz_assert_fre_eq(const struct sframe_fre *got, const struct fz_fre *want)
{
	unsigned int i;

	FZ_ASSERT(want->ok);
	FZ_ASSERT(got->start == want->start);
	FZ_ASSERT(got->info == want->info);
	FZ_ASSERT(got->num_words == want->n);
	FZ_ASSERT(got->word_bytes == want->wb);
	FZ_ASSERT(got->size == want->size);
	FZ_ASSERT(got->mangled_ra == (bool)((want->info >> 7) & 1u));
	for (i = 0; i < SFRAME_MAX_WORDS; i++) {
		FZ_ASSERT(got->words[i] == (i < want->n ? want->words[i] : 0));
		FZ_ASSERT(got->uwords[i] == (i < want->n ? want->uwords[i] : 0));
	}
}

static inline void fz_assert_loc_eq(const struct sframe_loc *a, const struct sframe_loc *b)
{
	FZ_ASSERT(a->kind == b->kind);
	FZ_ASSERT(a->flags == b->flags);
	FZ_ASSERT(a->deref == b->deref);
	FZ_ASSERT(a->reg == b->reg);
	FZ_ASSERT(a->offset == b->offset);
}

static inline void fz_assert_rules_eq(const struct sframe_rules *a, const struct sframe_rules *b)
{
	FZ_ASSERT(a->ra_undefined == b->ra_undefined);
	FZ_ASSERT(a->ra_mangled == b->ra_mangled);
	fz_assert_loc_eq(&a->ra, &b->ra);
	fz_assert_loc_eq(&a->fp, &b->fp);
	FZ_ASSERT(a->cfa.reg == b->cfa.reg);
	FZ_ASSERT(a->cfa.deref == b->cfa.deref);
	FZ_ASSERT(a->cfa.is_sp == b->cfa.is_sp);
	FZ_ASSERT(a->cfa.is_fp == b->cfa.is_fp);
	FZ_ASSERT(a->cfa.offset == b->cfa.offset);
}

/* ---- The reference lookup ---------------------------------------------------- */

#define FZ_MAX_FDES 4096

/*
 * The whole section decoded once by the reference, for sections
 * sframe_check() accepted: the FDEs from the raw bytes, and for each the
 * library's own FDE (sframe_get_fde()), used for the rules.
 */
struct fz_ref {
	struct fz_sec s;
	uint32_t n;
	struct fz_fde *fdes;
};

static inline void fz_ref_init(struct fz_ref *r, const uint8_t *b, uint64_t size,
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

static inline void fz_ref_free(struct fz_ref *r)
{
	free(r->fdes);
	r->fdes = NULL;
}

/*
 * The contract of sframe_lookup(), computed the slow way: the function is
 * the one with the greatest start <= @pc (offsets from the section; the
 * last one of equal starts), @pc must lie inside it (as an offset and as an
 * address), the row is the last FRE whose start is <= the PC's offset into
 * the function (PCMASK: modulo the block size). Returns 0 with *@fde_idx and
 * *@fre_idx set, or -SFRAME_ERR_NOT_FOUND with *@fde_idx the function or
 * SFRAME_NO_INDEX. Only for sections sframe_check() accepted.
 */
static inline int fz_ref_lookup(const struct fz_ref *r, uint64_t pc, uint32_t *fde_idx,
				uint32_t *fre_idx, struct fz_fre *fre_out)
{
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
	if ((f->info >> 4) & 1u) {
		unsigned int rep = sec->version == SFRAME_VERSION_1 ? 16 : f->rep;

		FZ_ASSERT(rep != 0);
		rel %= rep;
	}
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
		}
	}
	return have ? 0 : -SFRAME_ERR_NOT_FOUND;
}

/* The rules of FRE @j of FDE @i, through the iteration API (not the lookup's path). */
static inline void fz_iter_rules(const struct sframe_section *sec, uint32_t i, uint32_t j,
				 struct sframe_fde *fde, struct sframe_fre *fre,
				 struct sframe_rules *rules)
{
	struct sframe_fre_iter it;
	uint32_t k;

	FZ_ASSERT_ERR(sframe_get_fde(sec, i, fde), 0);
	FZ_ASSERT_ERR(sframe_fre_iter_init(sec, fde, &it), 0);
	for (k = 0; k <= j; k++)
		FZ_ASSERT_ERR(sframe_fre_iter_next(sec, &it, fre), 1);
	FZ_ASSERT_ERR(sframe_fre_rules(sec, fde, fre, rules), 0);
}

/*
 * sframe_lookup(@pc) on a section sframe_check() accepted: a row or "no row",
 * never an error, and exactly the reference's answer.
 */
static inline void fz_lookup_vs_ref(const struct fz_ref *r, const struct sframe_section *sec,
				    uint64_t pc)
{
	struct sframe_row row;
	struct sframe_fde fde;
	struct sframe_fre fre;
	struct sframe_rules rules;
	struct fz_fre want;
	uint32_t fi, ri;
	int got, exp;

	memset(&row, 0x5a, sizeof(row));
	memset(&want, 0, sizeof(want));
	exp = fz_ref_lookup(r, pc, &fi, &ri, &want);
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
	fz_iter_rules(sec, fi, ri, &fde, &fre, &rules);
	fz_assert_rules_eq(&row.rules, &rules);
}

/*
 * PCs worth looking up in a section: around every function's start and
 * end, at each row's start, in the gaps; appended to @pcs (up to @max).
 */
static inline size_t fz_interesting_pcs(const struct fz_ref *r, uint64_t *pcs, size_t n,
					size_t max)
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

#endif /* SFRAME_FUZZ_COMMON_H */
