/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * fuzz_lookup.c - sframe_lookup(): section bytes and PCs.
 *
 * Input (little-endian): u8 mode, u64 vaddr, u16 section length L, L bytes
 * of section, then PCs: 4-byte signed offsets from vaddr, or 8-byte
 * addresses when mode bit 0 is set. Mode bit 1 places the section's bytes
 * at the top of the callback's address space. Besides the input's PCs,
 * every function's start, end and rows and the gaps are looked up.
 *
 * Asserts:
 *   - every read stays inside the section (fz_read aborts otherwise);
 *   - a lookup returns a row, "no row" or a corrupt-section code, never a
 *     read error or INVAL (the buffer never fails);
 *   - a row found covers the PC: the function contains it and the row starts
 *     at or before its offset; its rules are those sframe_fre_rules() gives;
 *   - if sframe_check() accepts the section: never a corrupt-section code,
 *     and exactly the answer of the slow linear reference (ref_lookup.c);
 *   - the section opened in memory (sframe_open_buffer(), read in place
 *     by its own search) answers every PC exactly as through the callback;
 *   - the k-th read of a lookup failing returns that error unchanged;
 *   - if sframe_check() accepts the section and a lookup index can be
 *     built for it (default block size, and one of 2^1 .. 2^62 bytes taken
 *     from vaddr), every lookup gives the same code and the same row with
 *     the index as without, through the callback and in memory;
 *   - assume-mask build: on accepted sections the same as above; on the
 *     others only memory safety (the bounded reads) and no read error.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sframe/sframe.h>

#include "fuzz_assert.h"
#include "fuzz_errors.h"
#include "fuzz_input.h"
#include "fuzz_read.h"
#include "fuzz_target.h"
#include "ref_decoder.h"
#include "ref_lookup.h"

#define MAX_PCS 256

static void check_row(const struct sframe_section *sec, uint64_t pc, const struct sframe_row *row,
		      int ret)
{
	struct sframe_fde fde;
	struct sframe_rules rules;
	uint64_t rel;

	FZ_ASSERT(fz_lookup_result(ret));
	if (ret == -SFRAME_ERR_NOT_FOUND && row->fde.index == SFRAME_NO_INDEX)
		return;
	if (ret && ret != -SFRAME_ERR_NOT_FOUND)
		return;
	/* A function was found: it contains @pc, as an address and an offset. */
	FZ_ASSERT(row->fde.index < sec->num_fdes);
	FZ_ASSERT(pc >= row->fde.func_start && pc - row->fde.func_start < row->fde.func_size);
	rel = pc - row->fde.func_start;
	FZ_ASSERT((uint64_t)fz_s64(pc - sec->vaddr) - (uint64_t)row->fde.func_offset == rel);
	/* The lookup decodes the FDE as sframe_get_fde() does. */
	FZ_ASSERT_ERR(sframe_get_fde(sec, row->fde.index, &fde), 0);
	FZ_ASSERT(fde.index == row->fde.index && fde.func_start == row->fde.func_start);
	FZ_ASSERT(fde.func_offset == row->fde.func_offset && fde.func_size == row->fde.func_size);
	FZ_ASSERT(fde.start_field == row->fde.start_field);
	FZ_ASSERT(fde.info == row->fde.info && fde.info2 == row->fde.info2);
	FZ_ASSERT(fde.rep_size == row->fde.rep_size && fde.fde_type == row->fde.fde_type);
	FZ_ASSERT(fde.fres_off == row->fde.fres_off && fde.num_fres == row->fde.num_fres);
	if (ret)
		return;
	FZ_ASSERT(row->fde.num_fres > 0);
	if (row->fde.pc_type == SFRAME_PC_TYPE_MASK)
		rel %= sec->version == SFRAME_VERSION_1 ? 16 : row->fde.rep_size;
	FZ_ASSERT(row->fre.start <= rel);
	FZ_ASSERT(row->fre.num_words <= SFRAME_MAX_WORDS);
	/*
	 * The span holds @pc (unless the function reaches 2^64: UINT64_MAX is
	 * then its end, and the PC UINT64_MAX outside it) and stays inside the
	 * function, whatever the rows.
	 */
	FZ_ASSERT(row->span_start <= pc && (pc < row->span_end || pc == UINT64_MAX));
	FZ_ASSERT(row->span_start >= row->fde.func_start);
	FZ_ASSERT(row->span_end - row->fde.func_start <= row->fde.func_size);
	FZ_ASSERT_ERR(sframe_fre_rules(sec, &row->fde, &row->fre, &rules), 0);
	fz_assert_rules_eq(&row->rules, &rules);
}

/* Bigger indexes (small blocks over a wide span) are left out. */
#define MAX_INDEX_BYTES (1u << 20)

/*
 * @s indexed with @bits (when it can be): the same answers for @pcs from
 * sframe_lookup() as without the index. An accepted section is refused
 * only for having no FDE or FDEs out of order without the sorted flag
 * (UNSUPPORTED), or for too many blocks (INVAL).
 */
static void index_agrees(struct sframe_section *s, unsigned int bits, const uint64_t *pcs,
			 size_t n)
{
	struct sframe_section plain = *s;
	struct sframe_row with, without;
	size_t size, i;
	void *mem;
	int ret;

	ret = sframe_index_size(s, bits, &size);
	if (ret) {
		FZ_ASSERT(ret == -SFRAME_ERR_UNSUPPORTED || ret == -SFRAME_ERR_INVAL);
		FZ_ASSERT(ret == -SFRAME_ERR_UNSUPPORTED || bits != SFRAME_INDEX_AUTO);
		FZ_ASSERT(ret == -SFRAME_ERR_INVAL || s->num_fdes == 0 ||
			  !(s->flags & SFRAME_F_FDE_SORTED));
		return;
	}
	if (size > MAX_INDEX_BYTES)
		return;
	mem = malloc(size);
	FZ_ASSERT(mem != NULL);
	FZ_ASSERT_ERR(sframe_index_build(s, bits, mem, size - 1), -SFRAME_ERR_INVAL);
	ret = sframe_index_build(s, bits, mem, size);
	if (ret) {
		FZ_ASSERT_ERR(ret, -SFRAME_ERR_UNSUPPORTED);
		FZ_ASSERT(!(s->flags & SFRAME_F_FDE_SORTED));
		free(mem);
		return;
	}
	FZ_ASSERT(s->index == mem);
	plain.index = NULL;
	for (i = 0; i < n; i++) {
		memset(&with, 0, sizeof(with));
		memset(&without, 0, sizeof(without));
		ret = sframe_lookup(&plain, pcs[i], &without);
		FZ_ASSERT_ERR(sframe_lookup(s, pcs[i], &with), ret);
		FZ_ASSERT(memcmp(&with, &without, sizeof(with)) == 0);
	}
	s->index = NULL;
	free(mem);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint64_t pcs[MAX_PCS];
	struct fz_in in = { data, size };
	struct sframe_section sec, bsec;
	struct sframe_buffer buf;
	struct sframe_row row, row2;
	struct fz_ref r;
	struct fz_mem m;
	const uint8_t *secp;
	uint8_t *d;
	uint64_t vaddr, base;
	unsigned int mode;
	size_t len, n = 0, i;
	unsigned long reads;
	bool accepted;
	int ret;

	mode = (unsigned int)fz_uint(&in, 1);
	vaddr = fz_uint(&in, 8);
	secp = fz_take(&in, (size_t)fz_uint(&in, 2), &len);
	d = fz_dup(secp, len);
	base = (mode & 2) && len ? UINT64_MAX - (len - 1) : 0x3000;
	fz_mem_init(&m, d, len, base);
	if (sframe_open(&sec, fz_read, &m, base, len, vaddr)) {
		free(d);
		return 0;
	}
	accepted = sframe_check(&sec, NULL) == 0;

	while (in.n && n < MAX_PCS / 2) {
		if (mode & 1)
			pcs[n++] = fz_uint(&in, 8);
		else
			pcs[n++] = vaddr + (uint64_t)(int64_t)fz_sext((uint32_t)fz_uint(&in, 4), 4);
	}
	fz_ref_init(&r, d, len, &sec);
	n = fz_interesting_pcs(&r, pcs, n, MAX_PCS);

	for (i = 0; i < n; i++) {
		if (accepted && sec.num_fdes <= FZ_MAX_FDES) {
			fz_lookup_vs_ref(&r, &sec, pcs[i]);
			continue;
		}
		memset(&row, 0, sizeof(row));
		ret = sframe_lookup(&sec, pcs[i], &row);
		if (FZ_ASSUME && !accepted) {
			/* Assumption broken: any answer, but no crash and no read error. */
			FZ_ASSERT(ret <= 0 && !sframe_is_read_error(ret));
			continue;
		}
		if (accepted)
			FZ_ASSERT(ret == 0 || ret == -SFRAME_ERR_NOT_FOUND);
		check_row(&sec, pcs[i], &row, ret);
		/* Deterministic. */
		memset(&row2, 0, sizeof(row2));
		FZ_ASSERT_ERR(sframe_lookup(&sec, pcs[i], &row2), ret);
		FZ_ASSERT(row2.fde.index == row.fde.index);
	}
	fz_ref_free(&r);

	/* In memory: the same answers, row for row. */
	FZ_ASSERT_ERR(sframe_open_buffer(&bsec, &buf, d, len, vaddr), 0);
	for (i = 0; i < n; i++) {
		int bret;

		memset(&row, 0, sizeof(row));
		memset(&row2, 0, sizeof(row2));
		ret = sframe_lookup(&sec, pcs[i], &row);
		bret = sframe_lookup(&bsec, pcs[i], &row2);
		if (FZ_ASSUME && !accepted)
			continue;
		FZ_ASSERT_ERR(bret, ret);
		FZ_ASSERT(row2.fde.index == row.fde.index);
		if (ret)
			continue;
		FZ_ASSERT(row2.fde.func_start == row.fde.func_start);
		FZ_ASSERT(row2.fde.func_offset == row.fde.func_offset);
		FZ_ASSERT(row2.fde.func_size == row.fde.func_size);
		FZ_ASSERT(row2.fde.fres_off == row.fde.fres_off);
		FZ_ASSERT(row2.fde.num_fres == row.fde.num_fres);
		FZ_ASSERT(row2.fde.info == row.fde.info && row2.fde.info2 == row.fde.info2);
		FZ_ASSERT(row2.fre.start == row.fre.start && row2.fre.size == row.fre.size);
		FZ_ASSERT(row2.fre.info == row.fre.info && row2.fre.num_words == row.fre.num_words);
		FZ_ASSERT(memcmp(row2.fre.words, row.fre.words, sizeof(row.fre.words)) == 0);
		fz_assert_rules_eq(&row2.rules, &row.rules);
	}

	/* The k-th read of one lookup fails: that error, unchanged. */
	if (n) {
		uint64_t pc = pcs[data[0] % n];

		m.calls = 0;
		ret = sframe_lookup(&sec, pc, &row);
		reads = m.calls;
		if (reads) {
			m.calls = 0;
			m.fail_at = 1 + (vaddr ^ (vaddr >> 17)) % reads;
			FZ_ASSERT_ERR(sframe_lookup(&sec, pc, &row), FZ_INJECTED);
			FZ_ASSERT(m.failed);
		}
	}
	if (accepted) {
		unsigned int bits = 1 + (unsigned int)(vaddr >> 58) % SFRAME_INDEX_MAX_BITS;

		m.fail_at = 0;
		index_agrees(&sec, SFRAME_INDEX_AUTO, pcs, n);
		index_agrees(&bsec, SFRAME_INDEX_AUTO, pcs, n);
		index_agrees(&sec, bits, pcs, n);
		index_agrees(&bsec, bits, pcs, n);
	}
	FZ_ASSERT_ERR(sframe_lookup(&sec, vaddr, NULL), -SFRAME_ERR_INVAL);
	FZ_ASSERT_ERR(sframe_lookup(NULL, vaddr, &row), -SFRAME_ERR_INVAL);
	free(d);
	return 0;
}
