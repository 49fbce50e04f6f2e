/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * convert.c - DWARF CFI to an SFrame section in the caller's memory.
 *
 * Two passes over the CFI. The first runs every FDE once, decides whether
 * and how it can be written (DEFAULT or FLEX, one FDE or the PLT's two) and
 * sizes it; sframe_convert() also leaves a small record per function where
 * its FDE entry will go. The records are then sorted in place, functions
 * described twice dropped, and the second pass runs each kept FDE again,
 * writing its rows after the FDE area and its entry over its record. So the
 * output buffer is the only memory used, and the FRE area follows the FDE
 * order as binutils lays it out.
 */
#include "convert_internal.h"

/*
 * A record, in the FDE entry's place until the entry is written: the
 * start (8 bytes, host order), the size (4), and the CFI entry's offset
 * with flags in the top bits (4). It fits the v3 (16) and v2 (20) entry.
 */
#define REC_SIZE		16
#define REC_OFF_MASK		0x0fffffffu
#define REC_DEBUG_FRAME		0x80000000u	/* the entry is in .debug_frame */
#define REC_FLEX		0x40000000u	/* rows are FLEX */
#define REC_PLT_TAIL		0x20000000u	/* the PLT's PCMASK part */

/* v2 starts are 32-bit: keep room for an FDE area of this many bytes. */
#define V2_FDE_AREA_MAX		((int64_t)1 << 24)

/* x86-64 PLT entries, what ld's PCMASK FDE repeats. */
#define PLT_ENTRY		16

static const struct cv_abi abi_x86_64 = {
	.sframe_abi = SFRAME_ABI_AMD64_LE,
	.machine = SFRAME_EM_X86_64,
	.sp = SFRAME_AMD64_DWARF_SP,
	.fp = SFRAME_AMD64_DWARF_FP,
	.ra = SFRAME_AMD64_DWARF_RA,
	.fixed_ra = -8,
	.sp_val = 0,
	.flex = true,
};

static const struct cv_abi abi_aarch64 = {
	.sframe_abi = SFRAME_ABI_AARCH64_LE,
	.machine = SFRAME_EM_AARCH64,
	.sp = SFRAME_AARCH64_DWARF_SP,
	.fp = SFRAME_AARCH64_DWARF_FP,
	.ra = SFRAME_AARCH64_DWARF_RA,
	.fixed_ra = 0,
	.sp_val = 0,
	/* binutils writes no FLEX FDE for AArch64, and readers expect none. */
	.flex = false,
};

static const struct cv_abi abi_s390x = {
	.sframe_abi = SFRAME_ABI_S390X_BE,
	.machine = SFRAME_EM_S390,
	.sp = SFRAME_S390X_DWARF_SP,
	.fp = SFRAME_S390X_DWARF_FP,
	.ra = SFRAME_S390X_DWARF_RA,
	.fixed_ra = 0,
	.sp_val = -SFRAME_S390X_CFA_BIAS,
	.flex = true,
};

struct conv {
	const struct sframe_convert_input *in;
	struct sframe_convert_stats *st;
	struct cv_abi abi;
	uint8_t version;
	unsigned int fde_size;
	unsigned int attr_size;
	struct cv_cursor sec[2];
	struct cv_cie_state cie;
	struct cv_out out;
	uint64_t nrec;
	uint64_t fre_area;
};

/* What a scan of one FDE's rows counts. */
struct scan {
	struct cv_sink sink;
	struct cv_row last;
	bool have_last;
	uint32_t rows;
	uint32_t outermost;
	uint64_t bytes_default;	/* the rows' bytes past their start fields */
	uint64_t bytes_flex;
	uint32_t max_rows;
	const struct cv_abi *abi;
};

static bool scan_row(struct cv_sink *sink, const struct cv_row *row)
{
	struct scan *s = sink->ctx;

	if (s->have_last && cv_rows_equal(&s->last, row))
		return true;
	if (s->rows == s->max_rows)
		return false;
	s->last = *row;
	s->have_last = true;
	s->rows++;
	if (row->rules.ra_undefined)
		s->outermost++;
	/* Sized as ADDR1 and corrected per FRE type by the caller. */
	s->bytes_default += cv_fre_size(s->abi, false, row, SFRAME_FRE_TYPE_ADDR1) - 1;
	s->bytes_flex += cv_fre_size(s->abi, true, row, SFRAME_FRE_TYPE_ADDR1) - 1;
	return true;
}

/* What the emit pass writes. */
struct emit {
	struct cv_sink sink;
	struct cv_row last;
	bool have_last;
	uint32_t rows;
	uint32_t outermost;
	bool flex;
	uint8_t fre_type;
	struct cv_out *out;
	const struct cv_abi *abi;
};

static bool emit_row(struct cv_sink *sink, const struct cv_row *row)
{
	struct emit *e = sink->ctx;

	if (e->have_last && cv_rows_equal(&e->last, row))
		return true;
	e->last = *row;
	e->have_last = true;
	e->rows++;
	if (row->rules.ra_undefined)
		e->outermost++;
	cv_fre_write(e->out, e->abi, e->flex, row, e->fre_type);
	return true;
}

static void note_problem(struct conv *cv, enum cv_kind kind, uint64_t off)
{
	if (cv->st->problem_offset != SFRAME_UINT64_MAX)
		return;
	cv->st->problem_offset = off;
	cv->st->problem_in_debug_frame = kind == CV_DEBUG_FRAME;
}

static void skip(struct conv *cv, int reason, uint64_t bytes)
{
	cv->st->skipped[reason]++;
	cv->st->skipped_bytes[reason] += bytes;
}

/* The CIE at @cie_off, parsed and run once and kept while FDEs share it. */
static const struct cv_cie_state *cie_state(struct conv *cv, enum cv_kind kind, uint64_t cie_off)
{
	struct cv_cie_state *cs = &cv->cie;
	struct cv_cursor *sec = &cv->sec[kind];
	struct cv_entry e;

	if (cs->valid && cs->kind == kind && cs->off == cie_off)
		return cs;
	*cs = (struct cv_cie_state){ .valid = true, .kind = (uint8_t)kind, .off = cie_off };
	if (cv_entry(sec, kind, cie_off, &e) != CV_ENTRY_OK || !e.is_cie ||
	    !cv_parse_cie(sec, kind, &e, &cs->cie)) {
		cs->skip = SFRAME_SKIP_MALFORMED + 1;
		cs->broken = true;
		return cs;
	}
	cv_run_cie(&cv->abi, sec, cs);
	return cs;
}

static bool in_text(const struct sframe_convert_input *in, uint64_t start, uint64_t end)
{
	size_t i;

	if (!in->num_text)
		return true;
	for (i = 0; i < in->num_text; i++) {
		if (start >= in->text[i].start && end <= in->text[i].end)
			return true;
	}
	return false;
}

/* Leave a record where the FDE entry will go (sframe_convert() only). */
static void put_record(struct conv *cv, uint64_t start, uint64_t size, uint32_t word)
{
	uint64_t at = SFRAME_HDR_SIZE + cv->nrec * cv->fde_size;
	uint8_t rec[REC_SIZE];
	uint32_t sz = (uint32_t)size;

	cv->nrec++;
	if (!cv->out.data)
		return;
	if (at > cv->out.size || cv->out.size - at < cv->fde_size) {
		cv->out.over = true;
		return;
	}
	SFRAME_MEMCPY(rec, &start, 8);
	SFRAME_MEMCPY(rec + 8, &sz, 4);
	SFRAME_MEMCPY(rec + 12, &word, 4);
	SFRAME_MEMCPY(cv->out.data + at, rec, REC_SIZE);
}

static bool v2_start_ok(const struct conv *cv, uint64_t start)
{
	int64_t d = (int64_t)(start - cv->in->sframe_addr);

	return d < SFRAME_INT32_MAX - V2_FDE_AREA_MAX && d > SFRAME_INT32_MIN + V2_FDE_AREA_MAX;
}

/* An FDE's header and CIE, and whether it can be written at all; 0 or reason + 1. */
static int fde_header(struct conv *cv, enum cv_kind kind, const struct cv_entry *e,
		      struct cv_fde *fde, const struct cv_cie_state **csp)
{
	struct cv_cursor *sec = &cv->sec[kind];
	const struct cv_cie_state *cs;
	uint64_t cie_off;

	if (!cv_cie_of(sec, kind, e, &cie_off))
		return SFRAME_SKIP_MALFORMED + 1;
	cs = cie_state(cv, kind, cie_off);
	*csp = cs;
	if (cs->broken) {
		note_problem(cv, kind, cie_off);
		return SFRAME_SKIP_MALFORMED + 1;
	}
	if (!cv_parse_fde(sec, e, &cs->cie, cie_off, fde))
		return SFRAME_SKIP_MALFORMED + 1;
	if (fde->pc_begin == 0 || fde->pc_range == 0)
		return SFRAME_SKIP_EMPTY + 1;
	if (fde->pc_begin + fde->pc_range < fde->pc_begin)
		return SFRAME_SKIP_MALFORMED + 1;
	if (!in_text(cv->in, fde->pc_begin, fde->pc_begin + fde->pc_range))
		return SFRAME_SKIP_NOT_TEXT + 1;
	if (fde->pc_range > SFRAME_UINT32_MAX)
		return SFRAME_SKIP_RANGE + 1;
	if (cv->version == SFRAME_VERSION_2 &&
	    (!v2_start_ok(cv, fde->pc_begin) || !v2_start_ok(cv, fde->pc_begin + fde->pc_range)))
		return SFRAME_SKIP_RANGE + 1;
	return cs->skip;
}

/* Run an FDE counting its rows; 0 or reason + 1. */
static int scan_fde(struct conv *cv, enum cv_kind kind, const struct cv_cie_state *cs,
		    const struct cv_fde *fde, struct scan *sc)
{
	*sc = (struct scan){
		.sink = { .row = scan_row, .limit = fde->pc_range, .ctx = sc },
		.abi = &cv->abi,
		.max_rows = cv->version == SFRAME_VERSION_3 ? 0xffffu : SFRAME_UINT32_MAX,
	};
	return cv_run_fde(&cv->abi, cv->version, &cv->sec[kind], cs, fde, &sc->sink);
}

/* Pass one, for one FDE entry. */
static void first_pass_fde(struct conv *cv, enum cv_kind kind, const struct cv_entry *e)
{
	struct sframe_convert_stats *st = cv->st;
	const struct cv_cie_state *cs = NULL;
	struct cv_fde fde = { 0 };
	struct scan sc = { 0 };
	uint64_t head, rows_bytes;
	uint32_t word = (uint32_t)e->off | (kind == CV_DEBUG_FRAME ? REC_DEBUG_FRAME : 0);
	int ret;

	ret = fde_header(cv, kind, e, &fde, &cs);
	if (!ret)
		ret = scan_fde(cv, kind, cs, &fde, &sc);
	if (ret) {
		if (ret == SFRAME_SKIP_MALFORMED + 1)
			note_problem(cv, kind, e->off);
		skip(cv, ret - 1, ret - 1 == SFRAME_SKIP_MALFORMED ? 0 : fde.pc_range);
		return;
	}
	head = sc.sink.plt ? sc.sink.plt_at : fde.pc_range;
	if (sc.sink.flex)
		word |= REC_FLEX;
	if (head) {
		uint8_t t = cv_fre_type(head);

		rows_bytes = sc.sink.flex ? sc.bytes_flex : sc.bytes_default;
		rows_bytes += (uint64_t)sc.rows * SFRAME_FRE_START_BYTES(t);
		put_record(cv, fde.pc_begin, head, word);
		cv->fre_area += cv->attr_size + rows_bytes;
		st->functions++;
		st->rows += sc.rows;
		st->outermost += sc.outermost;
		st->flex += sc.sink.flex;
		st->signal += cs->cie.signal && cv->version == SFRAME_VERSION_3;
	}
	if (sc.sink.plt) {
		uint64_t size = fde.pc_range - head;
		uint32_t n = sc.sink.plt_k ? 2 : 1;

		put_record(cv, fde.pc_begin + head, size, word | REC_PLT_TAIL);
		/* Two rows of one word each: start, info, word. */
		cv->fre_area += cv->attr_size + n * (SFRAME_FRE_START_BYTES(cv_fre_type(size)) + 2);
		st->functions++;
		st->rows += n;
		st->pcmask++;
	}
	st->text_bytes += fde.pc_range;
}

static int first_pass(struct conv *cv, enum cv_kind kind)
{
	struct cv_cursor *sec = &cv->sec[kind];
	struct cv_entry e;
	uint64_t off = 0;

	if (!sec->data)
		return 0;
	for (;;) {
		switch (cv_entry(sec, kind, off, &e)) {
		case CV_ENTRY_END:
			return 0;
		case CV_ENTRY_BAD:
			cv->st->problem_offset = SFRAME_UINT64_MAX;
			note_problem(cv, kind, off);
			return -SFRAME_CONVERT_ERR_ENTRY;
		case CV_ENTRY_SKIP:
			if (e.is_cie) {
				cv->st->cies++;
			} else {
				cv->st->fdes++;
				note_problem(cv, kind, e.off);
				skip(cv, SFRAME_SKIP_MALFORMED, 0);
			}
			break;
		default:
			if (e.is_cie) {
				cv->st->cies++;
			} else {
				cv->st->fdes++;
				if (e.off > REC_OFF_MASK)
					return -SFRAME_CONVERT_ERR_TOO_BIG;
				first_pass_fde(cv, kind, &e);
			}
			break;
		}
		off = e.end;
	}
}

static int setup(struct conv *cv, const struct sframe_convert_input *in,
		 struct sframe_convert_stats *st)
{
	const struct sframe_cfi_bytes *b[2];
	unsigned int i;

	if (!in)
		return -SFRAME_ERR_INVAL;
	*cv = (struct conv){ .in = in, .st = st, .version = in->version ? in->version : 3 };
	*st = (struct sframe_convert_stats){ .problem_offset = SFRAME_UINT64_MAX };
	if (cv->version != SFRAME_VERSION_2 && cv->version != SFRAME_VERSION_3)
		return -SFRAME_ERR_INVAL;
	if (in->num_text && !in->text)
		return -SFRAME_ERR_INVAL;
	switch (in->machine) {
	case SFRAME_EM_X86_64:
		if (in->big_endian)
			return -SFRAME_CONVERT_ERR_MACHINE;
		cv->abi = abi_x86_64;
		break;
	case SFRAME_EM_AARCH64:
		cv->abi = abi_aarch64;
		if (in->big_endian)
			cv->abi.sframe_abi = SFRAME_ABI_AARCH64_BE;
		break;
	case SFRAME_EM_S390:
		if (!in->big_endian)
			return -SFRAME_CONVERT_ERR_MACHINE;
		cv->abi = abi_s390x;
		break;
	default:
		return -SFRAME_CONVERT_ERR_MACHINE;
	}
	cv->fde_size = cv->version == SFRAME_VERSION_2 ? SFRAME_V2_FDE_SIZE : SFRAME_V3_FDE_SIZE;
	cv->attr_size = cv->version == SFRAME_VERSION_2 ? 0 : SFRAME_V3_FDE_ATTR_SIZE;
	b[CV_EH_FRAME] = &in->eh_frame;
	b[CV_DEBUG_FRAME] = &in->debug_frame;
	for (i = 0; i < 2; i++) {
		if (!b[i]->data && b[i]->size)
			return -SFRAME_ERR_INVAL;
		cv->sec[i] = (struct cv_cursor){
			.data = b[i]->data,
			.end = b[i]->size,
			.addr = i == CV_EH_FRAME ? b[i]->addr : 0,
			.be = in->big_endian,
		};
	}
	cv->out.be = in->big_endian;
	return 0;
}

static int size_of(struct conv *cv, uint64_t *size)
{
	int ret = first_pass(cv, CV_EH_FRAME);
	uint64_t fdes;

	if (!ret)
		ret = first_pass(cv, CV_DEBUG_FRAME);
	if (ret)
		return ret;
	fdes = cv->nrec * cv->fde_size;
	if (cv->nrec > SFRAME_UINT32_MAX || fdes > SFRAME_UINT32_MAX ||
	    cv->fre_area > SFRAME_UINT32_MAX || SFRAME_HDR_SIZE + fdes + cv->fre_area > (size_t)-1)
		return -SFRAME_CONVERT_ERR_TOO_BIG;
	*size = SFRAME_HDR_SIZE + fdes + cv->fre_area;
	return 0;
}

int sframe_convert_size(const struct sframe_convert_input *in, size_t *size,
			struct sframe_convert_stats *stats)
{
	struct sframe_convert_stats local;
	struct conv cv;
	uint64_t n;
	int ret;

	if (!size)
		return -SFRAME_ERR_INVAL;
	ret = setup(&cv, in, stats ? stats : &local);
	if (!ret)
		ret = size_of(&cv, &n);
	if (!ret)
		*size = (size_t)n;
	return ret;
}

/* ---- Sorting the records in place --------------------------------------- */

struct rec {
	uint64_t start;
	uint32_t size;
	uint32_t word;
};

static void rec_get(const struct conv *cv, uint64_t i, struct rec *r)
{
	const uint8_t *p = cv->out.data + SFRAME_HDR_SIZE + i * cv->fde_size;

	SFRAME_MEMCPY(&r->start, p, 8);
	SFRAME_MEMCPY(&r->size, p + 8, 4);
	SFRAME_MEMCPY(&r->word, p + 12, 4);
}

static void rec_put(struct conv *cv, uint64_t i, const struct rec *r)
{
	uint8_t *p = cv->out.data + SFRAME_HDR_SIZE + i * cv->fde_size;

	SFRAME_MEMCPY(p, &r->start, 8);
	SFRAME_MEMCPY(p + 8, &r->size, 4);
	SFRAME_MEMCPY(p + 12, &r->word, 4);
}

/* By start; among equal starts .eh_frame first, then the earlier entry. */
static bool rec_less(const struct rec *a, const struct rec *b)
{
	if (a->start != b->start)
		return a->start < b->start;
	if ((a->word & REC_DEBUG_FRAME) != (b->word & REC_DEBUG_FRAME))
		return !(a->word & REC_DEBUG_FRAME);
	return (a->word & REC_OFF_MASK) < (b->word & REC_OFF_MASK);
}

static void sift_down(struct conv *cv, uint64_t i, uint64_t n)
{
	struct rec top, child, other;
	uint64_t c;

	rec_get(cv, i, &top);
	while ((c = 2 * i + 1) < n) {
		rec_get(cv, c, &child);
		if (c + 1 < n) {
			rec_get(cv, c + 1, &other);
			if (rec_less(&child, &other)) {
				c++;
				child = other;
			}
		}
		if (!rec_less(&top, &child))
			break;
		rec_put(cv, i, &child);
		i = c;
	}
	rec_put(cv, i, &top);
}

/* Heapsort: in place, no recursion, n log n whatever the input order. */
static void sort_records(struct conv *cv)
{
	uint64_t n = cv->nrec, i;
	struct rec a, b;

	for (i = n / 2; i-- > 0;)
		sift_down(cv, i, n);
	for (i = n; i-- > 1;) {
		rec_get(cv, 0, &a);
		rec_get(cv, i, &b);
		rec_put(cv, 0, &b);
		rec_put(cv, i, &a);
		sift_down(cv, 0, i);
	}
}

/* Keep the first of functions that overlap; count the others. */
static void drop_duplicates(struct conv *cv)
{
	uint64_t i, kept = 0, end = 0;
	struct rec r;

	for (i = 0; i < cv->nrec; i++) {
		rec_get(cv, i, &r);
		if (kept && r.start < end) {
			skip(cv, SFRAME_SKIP_DUPLICATE, r.size);
			continue;
		}
		end = r.start + r.size;
		rec_put(cv, kept++, &r);
	}
	cv->nrec = kept;
}

/* ---- Pass two ----------------------------------------------------------- */

static void put_fde(struct conv *cv, uint64_t i, const struct rec *r, uint64_t attr_off,
		    uint32_t rows, uint8_t info, uint8_t info2, uint8_t rep)
{
	const uint64_t at = SFRAME_HDR_SIZE + i * cv->fde_size;
	const uint64_t fre0 = SFRAME_HDR_SIZE + cv->nrec * cv->fde_size;
	const uint64_t field = cv->in->sframe_addr + at;
	struct cv_out *o = &cv->out;

	if (cv->version == SFRAME_VERSION_3) {
		cv_put_at(o, at, r->start - field, 8);
		cv_put_at(o, at + 8, r->size, 4);
		cv_put_at(o, at + 12, attr_off - fre0, 4);
		cv_put_at(o, attr_off, rows, 2);
		cv_put_at(o, attr_off + 2, info, 1);
		cv_put_at(o, attr_off + 3, info2, 1);
		cv_put_at(o, attr_off + 4, rep, 1);
	} else {
		cv_put_at(o, at, (uint32_t)(r->start - field), 4);
		cv_put_at(o, at + 4, r->size, 4);
		cv_put_at(o, at + 8, attr_off - fre0, 4);
		cv_put_at(o, at + 12, rows, 4);
		cv_put_at(o, at + 16, info, 1);
		cv_put_at(o, at + 17, rep, 1);
		cv_put_at(o, at + 18, 0, 2);
	}
}

/* The PLT's PCMASK part: CFA sp+8 up to the push, sp+16 from it. */
static uint32_t emit_plt_rows(struct conv *cv, uint8_t k, uint8_t fre_type)
{
	struct cv_row row = { .rules = {
		.cfa = { .reg = cv->abi.sp, .offset = 8 },
		.ra = { .kind = SFRAME_LOC_CFA, .deref = true, .offset = cv->abi.fixed_ra },
		.fp = { .kind = SFRAME_LOC_SAME },
	} };

	cv_fre_write(&cv->out, &cv->abi, false, &row, fre_type);
	if (!k)
		return 1;
	row.start = k;
	row.rules.cfa.offset = 16;
	cv_fre_write(&cv->out, &cv->abi, false, &row, fre_type);
	return 2;
}

static int second_pass_fde(struct conv *cv, uint64_t i)
{
	struct sframe_convert_stats *st = cv->st;
	const enum cv_kind kind = CV_EH_FRAME;
	struct rec r;
	struct cv_entry e;
	struct cv_fde fde;
	const struct cv_cie_state *cs;
	struct scan sc = { 0 };
	struct emit em;
	enum cv_kind k;
	uint64_t attr_off = cv->out.pos;
	uint8_t fre_type, info;
	bool tail;
	int ret;

	rec_get(cv, i, &r);
	k = (r.word & REC_DEBUG_FRAME) ? CV_DEBUG_FRAME : kind;
	tail = r.word & REC_PLT_TAIL;
	fre_type = cv_fre_type(r.size);
	if (cv_entry(&cv->sec[k], k, r.word & REC_OFF_MASK, &e) != CV_ENTRY_OK)
		return -SFRAME_ERR_INVAL;
	/* The same checks as pass one, so the same answer: they cannot fail. */
	if (fde_header(cv, k, &e, &fde, &cs) || (tail && scan_fde(cv, k, cs, &fde, &sc)))
		return -SFRAME_ERR_INVAL;
	cv->out.pos += cv->attr_size;
	info = (uint8_t)(fre_type | (cs->cie.bkey ? 1u << 5 : 0));
	if (cs->cie.signal && cv->version == SFRAME_VERSION_3) {
		info |= 1u << 7;
		st->signal++;
	}
	if (tail) {
		uint32_t n = emit_plt_rows(cv, sc.sink.plt_k, fre_type);

		put_fde(cv, i, &r, attr_off, n, info | (SFRAME_PC_TYPE_MASK << 4), 0, PLT_ENTRY);
		st->rows += n;
		st->pcmask++;
	} else {
		em = (struct emit){
			.sink = { .row = emit_row, .limit = r.size, .ctx = &em },
			.flex = r.word & REC_FLEX,
			.fre_type = fre_type,
			.out = &cv->out,
			.abi = &cv->abi,
		};
		ret = cv_run_fde(&cv->abi, cv->version, &cv->sec[k], cs, &fde, &em.sink);
		if (ret)
			return -SFRAME_ERR_INVAL;
		put_fde(cv, i, &r, attr_off, em.rows, info, em.flex ? SFRAME_FDE_TYPE_FLEX : 0, 0);
		st->rows += em.rows;
		st->outermost += em.outermost;
		st->flex += em.flex;
	}
	st->functions++;
	st->text_bytes += r.size;
	return 0;
}

int sframe_convert(const struct sframe_convert_input *in, void *out, size_t out_size,
		   size_t *len, struct sframe_convert_stats *stats)
{
	struct sframe_convert_stats local;
	struct sframe_convert_stats *st = stats ? stats : &local;
	struct conv cv;
	uint64_t size, i, fres;
	int ret;

	if (!out || !len)
		return -SFRAME_ERR_INVAL;
	ret = setup(&cv, in, st);
	if (ret)
		return ret;
	cv.out.data = out;
	cv.out.size = out_size;
	ret = size_of(&cv, &size);
	if (ret)
		return ret;
	if (cv.out.over || size > out_size)
		return -SFRAME_CONVERT_ERR_SPACE;
	sort_records(&cv);
	drop_duplicates(&cv);
	st->functions = 0;
	st->rows = 0;
	st->text_bytes = 0;
	st->flex = 0;
	st->pcmask = 0;
	st->signal = 0;
	st->outermost = 0;
	cv.out.pos = SFRAME_HDR_SIZE + cv.nrec * cv.fde_size;
	for (i = 0; i < cv.nrec; i++) {
		ret = second_pass_fde(&cv, i);
		if (ret)
			return ret;
	}
	if (cv.out.over)
		return -SFRAME_CONVERT_ERR_SPACE;
	fres = cv.out.pos - (SFRAME_HDR_SIZE + cv.nrec * cv.fde_size);
	cv_header_write(&cv.out, &cv.abi, cv.version, (uint32_t)cv.nrec, st->rows, (uint32_t)fres);
	*len = (size_t)cv.out.pos;
	return 0;
}

int sframe_eh_frame_hdr_ptr(const struct sframe_cfi_bytes *hdr, bool big_endian,
			    uint64_t *eh_frame_addr)
{
	struct cv_cursor c;
	uint8_t enc;

	if (!hdr || !hdr->data || !eh_frame_addr)
		return -SFRAME_ERR_INVAL;
	c = (struct cv_cursor){ .data = hdr->data, .end = hdr->size, .addr = hdr->addr,
				.be = big_endian };
	if (cv_uint(&c, 1) != 1)
		return -SFRAME_CONVERT_ERR_ENTRY;
	enc = (uint8_t)cv_uint(&c, 1);
	cv_skip(&c, 2);
	if (c.bad)
		return -SFRAME_CONVERT_ERR_ENTRY;
	/* datarel counts from the header's start, its one meaning here. */
	if ((enc & 0x70) == 0x30) {
		uint64_t v;

		if (!cv_pointer(&c, enc & 0x0f, &v))
			return -SFRAME_CONVERT_ERR_ENTRY;
		*eh_frame_addr = hdr->addr + v;
		return 0;
	}
	if (!cv_pointer(&c, enc, eh_frame_addr))
		return -SFRAME_CONVERT_ERR_ENTRY;
	return 0;
}

static const char *const skip_names[SFRAME_SKIP_COUNT] = {
	[SFRAME_SKIP_EMPTY] = "empty",
	[SFRAME_SKIP_NOT_TEXT] = "not-in-text",
	[SFRAME_SKIP_DUPLICATE] = "duplicate",
	[SFRAME_SKIP_MALFORMED] = "malformed",
	[SFRAME_SKIP_RA_COLUMN] = "ra-column",
	[SFRAME_SKIP_CFA_EXPR] = "cfa-expression",
	[SFRAME_SKIP_CFA_REG] = "cfa-register",
	[SFRAME_SKIP_RA_RULE] = "ra-rule",
	[SFRAME_SKIP_FP_RULE] = "fp-rule",
	[SFRAME_SKIP_SP_RULE] = "sp-rule",
	[SFRAME_SKIP_FP_WITHOUT_RA] = "fp-without-ra",
	[SFRAME_SKIP_PAUTH] = "pauth",
	[SFRAME_SKIP_RANGE] = "out-of-range",
};

const char *sframe_convert_skip_name(unsigned int skip_reason)
{
	if (skip_reason >= SFRAME_SKIP_COUNT)
		return "unknown";
	return skip_names[skip_reason];
}

struct cv_err_text {
	const char *name;
	const char *msg;
};

#define CV_ERR(code, msg) \
	[SFRAME_CONVERT_ERR_##code - SFRAME_CONVERT_ERR_BASE] = { "SFRAME_CONVERT_ERR_" #code, msg }

static const struct cv_err_text cv_err_texts[SFRAME_CONVERT_ERR_MAX - SFRAME_CONVERT_ERR_BASE + 1] = {
	CV_ERR(MACHINE, "no SFrame ABI for this machine and byte order"),
	CV_ERR(ENTRY, "corrupt call-frame information: an entry runs past the end of its section"),
	CV_ERR(SPACE, "output buffer too small"),
	CV_ERR(TOO_BIG, "the SFrame section would exceed the format's 32-bit limits"),
};

#undef CV_ERR

static const struct cv_err_text *cv_err(int err)
{
	if (err > -SFRAME_CONVERT_ERR_BASE || err < -SFRAME_CONVERT_ERR_MAX)
		return NULL;
	return &cv_err_texts[-err - SFRAME_CONVERT_ERR_BASE];
}

const char *sframe_convert_strerror(int err)
{
	const struct cv_err_text *t = cv_err(err);

	return t ? t->msg : sframe_strerror(err);
}

const char *sframe_convert_errname(int err)
{
	const struct cv_err_text *t = cv_err(err);

	return t ? t->name : sframe_errname(err);
}
