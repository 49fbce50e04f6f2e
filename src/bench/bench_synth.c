/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * bench_synth.c - generate amd64 SFrame sections (v2 or v3) of any size.
 *
 * The encoder is written here from the format (sframe_format.h), not with
 * the tests' builder, so that the bench stays one self-contained tool. Each
 * generated section is checked with sframe_check() by its user.
 */
#include "bench_synth.h"

#include <stdlib.h>
#include <string.h>

#include <sframe/sframe_format.h>

#define TEXT_BASE	UINT64_C(0x400000)
#define MAX_ROWS	16

struct row {
	uint32_t start;
	uint8_t base_sp;	/* CFA from SP (1) or FP (0) */
	int32_t cfa;
	int32_t fp;		/* FP saved at CFA + fp; 0: not saved */
};

struct out {
	unsigned char *p;
	size_t len;
	size_t cap;
};

static int out_reserve(struct out *o, size_t more)
{
	size_t ncap;
	unsigned char *np;

	if (o->len + more <= o->cap)
		return 0;
	ncap = o->cap ? o->cap : 4096;
	while (ncap < o->len + more)
		ncap *= 2;
	np = realloc(o->p, ncap);
	if (!np)
		return -1;
	o->p = np;
	o->cap = ncap;
	return 0;
}

static void put_le(unsigned char *p, uint64_t v, unsigned int bytes)
{
	unsigned int i;

	for (i = 0; i < bytes; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static unsigned int word_bytes(int32_t v)
{
	if (v >= -128 && v <= 127)
		return 1;
	if (v >= -32768 && v <= 32767)
		return 2;
	return 4;
}

static int emit_row(struct out *o, unsigned int fre_type, const struct row *r)
{
	static const unsigned int start_bytes[3] = { 1, 2, 4 };
	unsigned int sb = start_bytes[fre_type], n = r->fp ? 2 : 1, wb, code;
	unsigned char *p;

	wb = word_bytes(r->cfa);
	if (r->fp && word_bytes(r->fp) > wb)
		wb = word_bytes(r->fp);
	code = wb == 1 ? SFRAME_WORD_SIZE_1 : wb == 2 ? SFRAME_WORD_SIZE_2 : SFRAME_WORD_SIZE_4;
	if (out_reserve(o, sb + 1 + n * wb))
		return -1;
	p = o->p + o->len;
	put_le(p, r->start, sb);
	p[sb] = (unsigned char)(r->base_sp | n << 1 | code << 5);
	put_le(p + sb + 1, (uint64_t)(int64_t)r->cfa, wb);
	if (r->fp)
		put_le(p + sb + 1 + wb, (uint64_t)(int64_t)r->fp, wb);
	o->len += sb + 1 + n * wb;
	return 0;
}

/*
 * One function's rows, in the shapes gcc -O2 gives on x86_64 (RA at CFA-8
 * is the header's fixed offset, so rows carry the CFA and maybe the FP).
 */
static unsigned int make_rows(struct bench_rng *rng, struct row *rows, uint32_t *size)
{
	unsigned int kind = (unsigned int)bench_rng_below(rng, 100), n = 0, k, j;
	uint32_t sz, off;

	if (kind < 30) {
		/* Leaf: no frame at all. */
		*size = 8 + (uint32_t)bench_rng_below(rng, 120);
		rows[n++] = (struct row){ 0, 1, 8, 0 };
		return n;
	}
	if (kind < 45) {
		/* push %rbp; mov %rsp,%rbp; ...; leave/pop; ret */
		sz = 32 + (uint32_t)bench_rng_below(rng, 400);
		rows[n++] = (struct row){ 0, 1, 8, 0 };
		rows[n++] = (struct row){ 1, 1, 16, -16 };
		rows[n++] = (struct row){ 4, 0, 16, -16 };
		rows[n++] = (struct row){ sz - 1, 1, 8, 0 };
		*size = sz;
		return n;
	}
	if (kind < 90) {
		/* k pushes, a stack adjustment, the mirror-image epilogue, and
		 * the body's row again after the first ret (remember/restore). */
		int32_t adj = (int32_t)(8 * bench_rng_below(rng, 12));

		k = 1 + (unsigned int)bench_rng_below(rng, 5);
		sz = 64 + (uint32_t)bench_rng_below(rng, 600);
		off = 0;
		rows[n++] = (struct row){ 0, 1, 8, 0 };
		for (j = 1; j <= k; j++) {
			off += j == 1 ? 1 : 2;
			rows[n++] = (struct row){ off, 1, (int32_t)(8 + 8 * j), 0 };
		}
		if (adj) {
			off += 4;
			rows[n++] = (struct row){ off, 1, (int32_t)(8 + 8 * k) + adj, 0 };
		}
		/* Epilogue near the end: add, pops, ret, then the body resumes. */
		off = sz - 2 * k - (adj ? 6 : 2) - 8;
		if (adj) {
			rows[n++] = (struct row){ off, 1, (int32_t)(8 + 8 * k), 0 };
			off += 4;
		}
		for (j = k; j >= 1; j--) {
			off += j == k ? 1 : 2;
			rows[n++] = (struct row){ off, 1, (int32_t)(8 * j), 0 };
		}
		rows[n++] = (struct row){ off + 1, 1, (int32_t)(8 + 8 * k) + adj, 0 };
		*size = sz;
		return n;
	}
	/* A large frame: 2-byte offsets. */
	sz = 256 + (uint32_t)bench_rng_below(rng, 2000);
	{
		int32_t big = 1024 + (int32_t)(16 * bench_rng_below(rng, 300));

		rows[n++] = (struct row){ 0, 1, 8, 0 };
		rows[n++] = (struct row){ 1, 1, 16, 0 };
		rows[n++] = (struct row){ 8, 1, 16 + big, 0 };
		rows[n++] = (struct row){ sz - 10, 1, 16, 0 };
		rows[n++] = (struct row){ sz - 2, 1, 8, 0 };
		rows[n++] = (struct row){ sz - 1, 1, 16 + big, 0 };
	}
	*size = sz;
	return n;
}

int bench_synth_make(struct bench_synth *s, uint32_t nfuncs, unsigned int version,
		     uint64_t seed)
{
	struct out fres = { 0 };
	struct bench_rng rng;
	unsigned char *fdes = NULL;
	unsigned int fde_size = version == 3 ? SFRAME_V3_FDE_SIZE : SFRAME_V2_FDE_SIZE;
	uint64_t addr = TEXT_BASE, text_end, nfres = 0, fde_bytes;
	uint32_t i;

	memset(s, 0, sizeof(*s));
	if (nfuncs == 0 || nfuncs > 4000000 || (version != 2 && version != 3))
		return -1;
	fde_bytes = (uint64_t)nfuncs * fde_size;
	fdes = malloc(fde_bytes);
	s->func_start = malloc(nfuncs * sizeof(*s->func_start));
	s->func_size = malloc(nfuncs * sizeof(*s->func_size));
	if (!fdes || !s->func_start || !s->func_size)
		goto fail;

	bench_rng_seed(&rng, seed);
	for (i = 0; i < nfuncs; i++) {
		struct row rows[MAX_ROWS];
		uint32_t size, fre_off = (uint32_t)fres.len;
		unsigned int n = make_rows(&rng, rows, &size), j;
		unsigned int fre_type = size < 256 ? SFRAME_FRE_TYPE_ADDR1
				      : size < 65536 ? SFRAME_FRE_TYPE_ADDR2
						     : SFRAME_FRE_TYPE_ADDR4;

		s->func_start[i] = addr;
		s->func_size[i] = size;
		if (version == 3) {
			if (out_reserve(&fres, SFRAME_V3_FDE_ATTR_SIZE))
				goto fail;
			put_le(fres.p + fres.len, n, 2);
			fres.p[fres.len + 2] = (unsigned char)fre_type;	/* PCINC, no signal */
			fres.p[fres.len + 3] = SFRAME_FDE_TYPE_DEFAULT;
			fres.p[fres.len + 4] = 0;
			fres.len += SFRAME_V3_FDE_ATTR_SIZE;
		}
		for (j = 0; j < n; j++)
			if (emit_row(&fres, fre_type, &rows[j]))
				goto fail;
		{
			unsigned char *f = fdes + (uint64_t)i * fde_size;

			/* Start fields are patched below, once vaddr is known. */
			memset(f, 0, fde_size);
			if (version == 3) {
				put_le(f + SFRAME_V3_FDE_SIZE_FIELD, size, 4);
				put_le(f + SFRAME_V3_FDE_FRE_OFF, fre_off, 4);
			} else {
				put_le(f + SFRAME_V12_FDE_SIZE_FIELD, size, 4);
				put_le(f + SFRAME_V12_FDE_FRE_OFF, fre_off, 4);
				put_le(f + SFRAME_V12_FDE_NUM_FRES, n, 4);
				f[SFRAME_V12_FDE_INFO] = (unsigned char)fre_type;
			}
		}
		nfres += n;
		/* Functions are 16-byte aligned; some have padding or a gap. */
		addr += (size + 15) & ~UINT64_C(15);
		if (bench_rng_below(&rng, 8) == 0)
			addr += 16;
		if (fres.len > UINT32_MAX - 4096)
			goto fail;
	}
	text_end = addr;
	s->vaddr = (text_end + 0xfff) & ~UINT64_C(0xfff);
	s->size = SFRAME_HDR_SIZE + fde_bytes + fres.len;
	s->data = malloc(s->size);
	if (!s->data)
		goto fail;
	{
		unsigned char *h = s->data;

		put_le(h + SFRAME_HDR_MAGIC, SFRAME_MAGIC, 2);
		h[SFRAME_HDR_VERSION] = (unsigned char)version;
		h[SFRAME_HDR_FLAGS] = SFRAME_F_FDE_SORTED | SFRAME_F_FDE_FUNC_START_PCREL;
		h[SFRAME_HDR_ABI] = SFRAME_ABI_AMD64_LE;
		h[SFRAME_HDR_FIXED_FP] = 0;
		h[SFRAME_HDR_FIXED_RA] = (unsigned char)(int8_t)-8;
		h[SFRAME_HDR_AUXHDR_LEN] = 0;
		put_le(h + SFRAME_HDR_NUM_FDES, nfuncs, 4);
		put_le(h + SFRAME_HDR_NUM_FRES, nfres, 4);
		put_le(h + SFRAME_HDR_FRE_LEN, fres.len, 4);
		put_le(h + SFRAME_HDR_FDE_OFF, 0, 4);
		put_le(h + SFRAME_HDR_FRE_OFF, fde_bytes, 4);
	}
	for (i = 0; i < nfuncs; i++) {
		uint64_t field_off = SFRAME_HDR_SIZE + (uint64_t)i * fde_size + SFRAME_FDE_START;
		/* PC-relative: the function's address minus the field's. */
		int64_t rel = -(int64_t)(s->vaddr + field_off - s->func_start[i]);

		put_le(fdes + (uint64_t)i * fde_size, (uint64_t)rel, version == 3 ? 8 : 4);
	}
	memcpy(s->data + SFRAME_HDR_SIZE, fdes, fde_bytes);
	if (fres.len)
		memcpy(s->data + SFRAME_HDR_SIZE + fde_bytes, fres.p, fres.len);
	free(fdes);
	free(fres.p);
	s->nfuncs = nfuncs;
	s->nfres = nfres;
	return 0;
fail:
	free(fdes);
	free(fres.p);
	bench_synth_free(s);
	return -1;
}

void bench_synth_pcs(const struct bench_synth *s, struct bench_rng *r, uint64_t *pcs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t f = (uint32_t)bench_rng_below(r, s->nfuncs);

		pcs[i] = s->func_start[f] + bench_rng_below(r, s->func_size[f]);
	}
}

void bench_synth_free(struct bench_synth *s)
{
	free(s->data);
	free(s->func_start);
	free(s->func_size);
	memset(s, 0, sizeof(*s));
}
