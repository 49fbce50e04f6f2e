/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * fuzz_convert.c - the DWARF CFI reader and the conversion to SFrame
 * (sframe_convert.h).
 *
 * Input: a 43-byte option prefix, then the CFI bytes. The prefix, fields
 * little-endian, missing bytes read as 0:
 *
 *   0      mode: bits 0-1 the machine (0 x86-64, 1 AArch64 little-endian,
 *          2 AArch64 big-endian, 3 s390x); bits 2-3 the version asked for
 *          (0: 3, 1: 2, 2: 0, which means 3, 3: 3); bits 4-5 the sections
 *          (0: the bytes are .eh_frame, 1: .debug_frame, 2: the first
 *          `split` bytes .eh_frame and the rest .debug_frame, 3: the same
 *          bytes as both); bits 6-7 the number of text ranges (0: none,
 *          NULL: every FDE kept)
 *   1..2   split (mode 2): the .eh_frame part's length, at most the rest
 *   3..10  addr: the address of .eh_frame's first byte
 *   11..18 sframe_addr - addr, modulo 2^64
 *   19..42 three text ranges: a signed 32-bit start relative to addr, then
 *          an unsigned 32-bit length (the first mode >> 6 are used)
 *
 * Each section is an exactly-sized heap copy, so ASan sees any read past
 * its end. Asserts:
 *   - sframe_convert_size() gives 0 or a documented code, and -SFRAME_ERR_INVAL
 *     for versions 1 and 4, -SFRAME_CONVERT_ERR_MACHINE for machine 3 (EM_386);
 *     the size is never 0 and does not depend on @stats being given;
 *   - on -SFRAME_CONVERT_ERR_ENTRY, the problem offset lies inside the section
 *     it names;
 *   - sframe_convert() into exactly that size (malloc'd) succeeds with
 *     len <= size, and the stats agree with sframe_convert_size()'s but for
 *     duplicates; when there are none, all of them do, and the size is the
 *     section's and a working record per function (16 bytes, 24 for v2),
 *     less than twice the section;
 *   - the result opens with sframe_open_buffer() at sframe_addr and passes
 *     sframe_check(); its header says SORTED|PCREL, the version, the ABI and
 *     the byte order asked for; its FDE count is stats.functions, its FRE
 *     count stats.rows; every FDE decodes and iterates, every row decodes
 *     (sframe_fre_rules()); the FLEX, PCMASK, signal and outermost counts and
 *     the code bytes covered equal the stats'; no FLEX or signal FDE in v2;
 *     every function overlaps a text range given; the skipped counts add
 *     up to at most the FDEs read;
 *   - converting again, without stats, into a buffer filled differently (and
 *     with another .debug_frame address, which is ignored) gives the same
 *     bytes;
 *   - a buffer one byte too small gives -SFRAME_CONVERT_ERR_SPACE (or, when
 *     there are duplicates and so the size is an upper bound, possibly the
 *     same section);
 *   - the CFI bytes are not written to;
 *   - sframe_eh_frame_hdr_ptr() on the .eh_frame bytes gives 0,
 *     -SFRAME_ERR_INVAL or -SFRAME_CONVERT_ERR_ENTRY, and
 *     sframe_eh_frame_hdr_find() for each text start 0,
 *     -SFRAME_ERR_NOT_FOUND or -SFRAME_CONVERT_ERR_ENTRY;
 *   - by function (sframe_convert_input.fde_offsets: the text starts as
 *     .eh_frame offsets, and the FDEs the header's table gives for them),
 *     all of the above again; a problem offset may then be one named.
 * The converter has no read callback and no assume mask: the -assume build
 * of this target runs the same checks.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sframe/sframe.h>
#include <sframe/sframe_convert.h>

#include "fuzz_assert.h"
#include "fuzz_input.h"
#include "fuzz_target.h"

#define PREFIX_LEN 43
#define MAX_TEXT 3

/* The working record per function sframe_convert_size() counts beyond the section. */
#define REC_V3 16
#define REC_V2 24

/* A converter result must be one of its documented codes. */
#define FZ_ASSERT_CONV(got, cond)					\
	do {								\
		int fz_c_ = (got);					\
		if (!(cond)) {						\
			fprintf(stderr, "%s = %d (%s)\n", #got, fz_c_,	\
				sframe_convert_errname(fz_c_));		\
			fz_fail(__FILE__, __LINE__, #cond);		\
		}							\
	} while (0)

static const uint16_t machines[4] = {
	SFRAME_EM_X86_64, SFRAME_EM_AARCH64, SFRAME_EM_AARCH64, SFRAME_EM_S390,
};
static const uint8_t abis[4] = {
	SFRAME_ABI_AMD64_LE, SFRAME_ABI_AARCH64_LE, SFRAME_ABI_AARCH64_BE, SFRAME_ABI_S390X_BE,
};
static const uint8_t versions[4] = { SFRAME_VERSION_3, SFRAME_VERSION_2, 0, SFRAME_VERSION_3 };

/* The names are static strings; the reasons' names are theirs, "unknown" past them. */
static void check_names(void)
{
	static bool done;
	unsigned int i;

	if (done)
		return;
	done = true;
	for (i = 0; i < SFRAME_SKIP_COUNT; i++) {
		FZ_ASSERT(sframe_convert_skip_name(i) != NULL);
		FZ_ASSERT(strcmp(sframe_convert_skip_name(i), "unknown") != 0);
	}
	FZ_ASSERT(strcmp(sframe_convert_skip_name(SFRAME_SKIP_COUNT), "unknown") == 0);
	FZ_ASSERT(strcmp(sframe_convert_skip_name(0xffffffffu), "unknown") == 0);
	for (i = SFRAME_CONVERT_ERR_BASE; i <= SFRAME_CONVERT_ERR_MAX; i++) {
		FZ_ASSERT(sframe_convert_strerror(-(int)i) != NULL);
		FZ_ASSERT(sframe_convert_errname(-(int)i) != NULL);
	}
}

/* sframe_convert_size()'s documented codes (convert adds SPACE). */
static bool size_err(int r)
{
	return r == -SFRAME_ERR_INVAL || r == -SFRAME_CONVERT_ERR_MACHINE ||
	       r == -SFRAME_CONVERT_ERR_ENTRY || r == -SFRAME_CONVERT_ERR_TOO_BIG;
}

/* The stats of sframe_convert_size() and sframe_convert() (@dups: convert's). */
static void same_stats(const struct sframe_convert_stats *s, const struct sframe_convert_stats *c)
{
	unsigned int i;

	FZ_ASSERT(s->cies == c->cies);
	FZ_ASSERT(s->fdes == c->fdes);
	FZ_ASSERT(s->problem_offset == c->problem_offset);
	FZ_ASSERT(s->problem_in_debug_frame == c->problem_in_debug_frame);
	FZ_ASSERT(s->skipped[SFRAME_SKIP_DUPLICATE] == 0);
	for (i = 0; i < SFRAME_SKIP_COUNT; i++) {
		if (i == SFRAME_SKIP_DUPLICATE)
			continue;
		FZ_ASSERT(s->skipped[i] == c->skipped[i]);
		FZ_ASSERT(s->skipped_bytes[i] == c->skipped_bytes[i]);
	}
	/* Duplicates only take away. */
	FZ_ASSERT(c->functions <= s->functions);
	FZ_ASSERT(c->rows <= s->rows);
	FZ_ASSERT(c->text_bytes <= s->text_bytes);
	FZ_ASSERT(c->flex <= s->flex);
	FZ_ASSERT(c->pcmask <= s->pcmask);
	FZ_ASSERT(c->signal <= s->signal);
	FZ_ASSERT(c->outermost <= s->outermost);
	if (c->skipped[SFRAME_SKIP_DUPLICATE] == 0) {
		FZ_ASSERT(c->functions == s->functions);
		FZ_ASSERT(c->rows == s->rows);
		FZ_ASSERT(c->text_bytes == s->text_bytes);
		FZ_ASSERT(c->flex == s->flex);
		FZ_ASSERT(c->pcmask == s->pcmask);
		FZ_ASSERT(c->signal == s->signal);
		FZ_ASSERT(c->outermost == s->outermost);
		FZ_ASSERT(c->skipped_bytes[SFRAME_SKIP_DUPLICATE] == 0);
	}
}

/* [@start, @end) is not outside every text range (it may straddle one's edge). */
static bool in_text(const struct sframe_convert_input *in, uint64_t start, uint64_t end)
{
	size_t i;

	for (i = 0; i < in->num_text; i++)
		if (start < in->text[i].end && end > in->text[i].start)
			return true;
	return false;
}

/* The section written: what sframe_check() accepts, and what the stats say. */
static void check_output(const struct sframe_convert_input *in, const uint8_t *out, size_t len,
			 const struct sframe_convert_stats *st, unsigned int mach, bool ranges_sane)
{
	struct sframe_section sec;
	struct sframe_buffer buf;
	struct sframe_problem where;
	struct sframe_fde fde;
	struct sframe_fre_iter it;
	struct sframe_fre fre;
	struct sframe_rules rules;
	uint64_t rows = 0, text = 0;
	uint32_t i, j, flex = 0, pcmask = 0, signal = 0, outermost = 0;
	int r;

	FZ_ASSERT_ERR(sframe_open_buffer(&sec, &buf, out, len, in->sframe_addr), 0);
	r = sframe_check(&sec, &where);
	if (r)
		fprintf(stderr, "sframe_check: FDE %u FRE %u\n", where.fde, where.fre);
	FZ_ASSERT_ERR(r, 0);
	FZ_ASSERT(sec.version == (in->version ? in->version : SFRAME_VERSION_3));
	FZ_ASSERT((sec.flags & SFRAME_F_FDE_SORTED) != 0);
	FZ_ASSERT((sec.flags & SFRAME_F_FDE_FUNC_START_PCREL) != 0);
	FZ_ASSERT(sec.abi == abis[mach]);
	FZ_ASSERT(sec.big_endian == in->big_endian);
	FZ_ASSERT(sec.num_fdes == st->functions);
	FZ_ASSERT(sec.num_fres == st->rows);
	for (i = 0; i < sec.num_fdes; i++) {
		FZ_ASSERT_ERR(sframe_get_fde(&sec, i, &fde), 0);
		FZ_ASSERT(fde.func_size > 0);
		text += fde.func_size;
		if (fde.fde_type == SFRAME_FDE_TYPE_FLEX)
			flex++;
		if (fde.pc_type == SFRAME_PC_TYPE_MASK)
			pcmask++;
		if (fde.signal)
			signal++;
		if (in->num_text && ranges_sane && fde.func_start + fde.func_size > fde.func_start)
			FZ_ASSERT(in_text(in, fde.func_start, fde.func_start + fde.func_size));
		FZ_ASSERT_ERR(sframe_fre_iter_init(&sec, &fde, &it), 0);
		for (j = 0; j < fde.num_fres; j++) {
			FZ_ASSERT_ERR(sframe_fre_iter_next(&sec, &it, &fre), 1);
			FZ_ASSERT_ERR(sframe_fre_rules(&sec, &fde, &fre, &rules), 0);
			if (rules.ra_undefined)
				outermost++;
			FZ_ASSERT(rules.signal == fde.signal);
		}
		FZ_ASSERT_ERR(sframe_fre_iter_next(&sec, &it, &fre), 0);
		rows += fde.num_fres;
	}
	FZ_ASSERT(rows == st->rows);
	FZ_ASSERT(text == st->text_bytes);
	FZ_ASSERT(flex == st->flex);
	FZ_ASSERT(pcmask == st->pcmask);
	FZ_ASSERT(signal == st->signal);
	FZ_ASSERT(outermost == st->outermost);
	if (sec.version == SFRAME_VERSION_2)
		FZ_ASSERT(flex == 0 && signal == 0);
}

/* What the stats must say of themselves. */
static void check_stats(const struct sframe_convert_stats *st)
{
	uint64_t skipped = 0;
	unsigned int i;

	for (i = 0; i < SFRAME_SKIP_COUNT; i++)
		skipped += st->skipped[i];
	FZ_ASSERT(skipped <= st->fdes);
	/* One DWARF FDE gives at most two SFrame FDEs (the x86-64 PLT). */
	FZ_ASSERT(st->functions <= 2 * (uint64_t)st->fdes);
	FZ_ASSERT(st->flex <= st->functions && st->pcmask <= st->functions &&
		  st->signal <= st->functions);
	FZ_ASSERT(st->outermost <= st->rows);
	if (st->skipped[SFRAME_SKIP_MALFORMED])
		FZ_ASSERT(st->problem_offset != UINT64_MAX);
}

/* A problem offset names a place inside the section it names. */
static void check_problem(const struct sframe_convert_input *in,
			  const struct sframe_convert_stats *st)
{
	size_t i;

	if (st->problem_offset == UINT64_MAX)
		return;
	/* Or an offset the caller named, wherever it points. */
	for (i = 0; i < in->num_fde_offsets; i++)
		if (st->problem_offset == in->fde_offsets[i] && !st->problem_in_debug_frame)
			return;
	if (st->problem_in_debug_frame)
		FZ_ASSERT(st->problem_offset < in->debug_frame.size);
	else
		FZ_ASSERT(st->problem_offset < in->eh_frame.size);
}

static void convert(struct sframe_convert_input *in, unsigned int mach, bool ranges_sane)
{
	struct sframe_convert_stats ss, cs, junk;
	struct sframe_convert_input bad;
	size_t size = 0, size2 = 0, len = 0, len2 = 0;
	uint8_t *out, *out2, *small;
	int r;

	/* Bad arguments first: a version the format has not, a machine SFrame has not. */
	bad = *in;
	bad.version = 1;
	FZ_ASSERT_ERR(sframe_convert_size(&bad, &size, NULL), -SFRAME_ERR_INVAL);
	bad.version = 4;
	FZ_ASSERT_ERR(sframe_convert_size(&bad, &size, NULL), -SFRAME_ERR_INVAL);
	bad = *in;
	bad.machine = 3;	/* EM_386 */
	r = sframe_convert_size(&bad, &size, NULL);
	FZ_ASSERT_CONV(r, r == -SFRAME_CONVERT_ERR_MACHINE);

	memset(&ss, 0x5a, sizeof(ss));
	r = sframe_convert_size(in, &size, &ss);
	FZ_ASSERT_CONV(r, r == 0 || size_err(r));
	/* Every machine and version here has an ABI. */
	FZ_ASSERT_CONV(r, r != -SFRAME_ERR_INVAL && r != -SFRAME_CONVERT_ERR_MACHINE);
	FZ_ASSERT_ERR(sframe_convert_size(in, &size2, NULL), r);
	if (r == -SFRAME_CONVERT_ERR_ENTRY) {
		FZ_ASSERT(ss.problem_offset != UINT64_MAX);
		check_problem(in, &ss);
	}
	if (r)
		return;
	FZ_ASSERT(size > 0);
	FZ_ASSERT(size2 == size);
	check_stats(&ss);
	check_problem(in, &ss);

	/* Exactly the size asked for, so that ASan sees a write past it. */
	out = malloc(size);
	FZ_ASSERT(out != NULL);
	memset(out, 0, size);
	memset(&cs, 0xa5, sizeof(cs));
	r = sframe_convert(in, out, size, &len, &cs);
	FZ_ASSERT_CONV(r, r == 0);
	FZ_ASSERT(len > 0 && len <= size);
	check_stats(&cs);
	check_problem(in, &cs);
	same_stats(&ss, &cs);
	/* The section and a working record per function beyond it, exactly. */
	if (cs.skipped[SFRAME_SKIP_DUPLICATE] == 0) {
		FZ_ASSERT(size - len == (uint64_t)cs.functions * (in->version == SFRAME_VERSION_2 ?
								   REC_V2 : REC_V3));
		FZ_ASSERT(size < 2 * (uint64_t)len);
	}
	check_output(in, out, len, &cs, mach, ranges_sane);

	/* Again: without stats, over other bytes, .debug_frame elsewhere. */
	out2 = malloc(size);
	FZ_ASSERT(out2 != NULL);
	memset(out2, 0xff, size);
	in->debug_frame.addr = ~in->debug_frame.addr;
	r = sframe_convert(in, out2, size, &len2, NULL);
	in->debug_frame.addr = ~in->debug_frame.addr;
	FZ_ASSERT_CONV(r, r == 0);
	FZ_ASSERT(len2 == len);
	FZ_ASSERT(memcmp(out, out2, len) == 0);
	free(out2);

	/*
	 * One byte short of what was asked for: no room. With duplicates the
	 * size is an upper bound, and the section may still fit: then it is
	 * the same section.
	 */
	small = malloc(size - 1 ? size - 1 : 1);
	FZ_ASSERT(small != NULL);
	len2 = 12345;
	r = sframe_convert(in, small, size - 1, &len2, &junk);
	if (cs.skipped[SFRAME_SKIP_DUPLICATE] == 0) {
		FZ_ASSERT_CONV(r, r == -SFRAME_CONVERT_ERR_SPACE);
	} else {
		FZ_ASSERT_CONV(r, r == -SFRAME_CONVERT_ERR_SPACE || r == 0);
		if (r == 0)
			FZ_ASSERT(len2 == len && memcmp(small, out, len) == 0);
	}
	free(small);
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in fin = { data, size };
	struct sframe_convert_input in;
	struct sframe_addr_range text[MAX_TEXT];
	const uint8_t *cfi;
	uint8_t *eh = NULL, *dbg = NULL;
	size_t n, split, eh_n = 0, dbg_n = 0, i;
	unsigned int mode, mach, sections, ntext;
	bool ranges_sane = true;
	uint64_t addr, delta, eh_frame_addr;
	int r;

	check_names();
	mode = (unsigned int)fz_uint(&fin, 1);
	split = (size_t)fz_uint(&fin, 2);
	addr = fz_uint(&fin, 8);
	delta = fz_uint(&fin, 8);
	for (i = 0; i < MAX_TEXT; i++) {
		int32_t off = (int32_t)(uint32_t)fz_uint(&fin, 4);
		uint32_t length = (uint32_t)fz_uint(&fin, 4);

		text[i].start = addr + (uint64_t)(int64_t)off;
		text[i].end = text[i].start + length;
		if (text[i].end < text[i].start)
			ranges_sane = false;
	}
	cfi = fz_take(&fin, SIZE_MAX, &n);

	mach = mode & 3;
	sections = (mode >> 4) & 3;
	ntext = mode >> 6;
	if (ntext > MAX_TEXT)
		ntext = MAX_TEXT;

	memset(&in, 0, sizeof(in));
	in.machine = machines[mach];
	in.big_endian = mach >= 2;
	in.version = versions[(mode >> 2) & 3];
	in.sframe_addr = addr + delta;
	in.text = ntext ? text : NULL;
	in.num_text = ntext;
	switch (sections) {
	case 0:
		eh_n = n;
		break;
	case 1:
		dbg_n = n;
		break;
	case 2:
		eh_n = split < n ? split : n;
		dbg_n = n - eh_n;
		break;
	default:
		eh_n = dbg_n = n;
		break;
	}
	/* Exactly-sized copies, one per section: a read past either is seen. */
	if (sections != 1) {
		eh = fz_dup(cfi, eh_n);
		in.eh_frame.data = eh;
		in.eh_frame.size = eh_n;
		in.eh_frame.addr = addr;
	}
	if (sections != 0) {
		dbg = fz_dup(sections == 2 ? cfi + eh_n : cfi, dbg_n);
		in.debug_frame.data = dbg;
		in.debug_frame.size = dbg_n;
		in.debug_frame.addr = addr ^ 0x5555;	/* ignored */
	}

	convert(&in, mach, ranges_sane);

	/*
	 * The same bytes as an .eh_frame_hdr; then by function: the FDEs at
	 * the text ranges' starts taken as .eh_frame offsets, and at what the
	 * header's table gives for those starts.
	 */
	if (eh) {
		struct sframe_cfi_bytes hdr = { eh, eh_n, addr };
		uint64_t offs[2 * MAX_TEXT], o;
		size_t k = 0;

		r = sframe_eh_frame_hdr_ptr(&hdr, in.big_endian, &eh_frame_addr);
		FZ_ASSERT_CONV(r, r == 0 || r == -SFRAME_ERR_INVAL || r == -SFRAME_CONVERT_ERR_ENTRY);
		for (i = 0; i < MAX_TEXT; i++) {
			offs[k++] = (uint32_t)(text[i].start - addr) % (eh_n + 8);
			r = sframe_eh_frame_hdr_find(&hdr, in.big_endian, addr, text[i].start, &o);
			FZ_ASSERT_CONV(r, r == 0 || r == -SFRAME_ERR_NOT_FOUND ||
					  r == -SFRAME_CONVERT_ERR_ENTRY);
			if (r == 0)
				offs[k++] = o;
		}
		in.fde_offsets = offs;
		in.num_fde_offsets = k;
		convert(&in, mach, ranges_sane);
		in.fde_offsets = NULL;
		in.num_fde_offsets = 0;
	}

	/* Read, never written. */
	if (eh)
		FZ_ASSERT(memcmp(eh, cfi, eh_n) == 0);
	if (dbg)
		FZ_ASSERT(memcmp(dbg, sections == 2 ? cfi + eh_n : cfi, dbg_n) == 0);
	free(eh);
	free(dbg);
	return 0;
}
