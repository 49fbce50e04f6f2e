/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * convert.c - DWARF CFI to an SFrame section in the caller's memory.
 *
 * One pass over the CFI writes each function's rows from the start of the
 * output buffer on, in .eh_frame order, and a record of the function (where
 * its rows are, what its FDE entry will say) from the buffer's end down.
 * The records are then sorted in place, functions described twice dropped,
 * the rows moved up to make room for the FDE entries, and the entries
 * written from the records. The output buffer is the only memory used;
 * sframe_convert_size() runs the same pass writing nothing.
 */
#include "convert_internal.h"

/*
 * A record per function, at the end of the output buffer while the rows
 * are written from its start: where its rows went and what its FDE entry
 * will say. Sorted and thinned in place, then turned into the entries.
 * v3 keeps start, size and the rows' offset (16 bytes): the rest is in the
 * attribute record in front of the rows. v2 has no such record and keeps
 * the row count, info and repetition size too (24 bytes). Either way the
 * records cost less than the rows and entries they describe.
 */
#define REC_V3_SIZE		16
#define REC_V2_SIZE		24

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

struct rec {
	uint64_t start;
	uint32_t size;
	uint32_t fre_off;	/* from the FRE area's start; grows in input order */
	uint32_t num_fres;
	uint32_t outermost;
	uint8_t info;
	uint8_t info2;
	uint8_t rep;
};

struct conv {
	const struct sframe_convert_input *in;
	struct sframe_convert_stats *st;
	struct cv_abi abi;
	uint8_t version;
	unsigned int fde_size;
	unsigned int attr_size;
	unsigned int rec_size;
	struct cv_cursor sec[2];
	struct cv_cie_state cie;
	struct cv_out out;	/* rows from SFRAME_HDR_SIZE up to the records */
	uint64_t buf_size;	/* the records from here down */
	uint64_t fre_base;	/* where the FRE area is now */
	uint64_t nrec;
};

/*
 * How one FDE's rows are written. A row is mapped into the sink's @next
 * and, when it differs from the last, becomes the last by trading places
 * with it: no row is copied.
 */
struct emit {
	struct cv_sink sink;
	struct cv_row rows[2];
	const struct cv_row *last;
	bool flex;
	uint8_t fre_type;
	uint32_t rows_out;
	uint32_t max_rows;
	uint32_t outermost;
	struct cv_out *out;
	const struct cv_abi *abi;
};

static bool emit_row(struct cv_sink *sink, struct cv_row *row)
{
	struct emit *e = sink->ctx;

	if (e->last && cv_rows_equal(e->last, row))
		return true;
	if (e->rows_out == e->max_rows)
		return false;
	sink->next = row == &e->rows[0] ? &e->rows[1] : &e->rows[0];
	e->last = row;
	e->rows_out++;
	if (row->rules.ra_undefined)
		e->outermost++;
	/* A DEFAULT run stops at its first FLEX row: the FDE is redone. */
	if (row->flex && !e->flex)
		return true;
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
	    !cv_parse_cie(sec, &e, &cs->cie)) {
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
	if (!cv_parse_fde(sec, e, &cs->cie, cie_off, fde)) {
		fde->pc_range = 0;
		return SFRAME_SKIP_MALFORMED + 1;
	}
	/*
	 * Linkers leave .debug_frame FDEs of discarded code at 0; .eh_frame's
	 * they remove, so one at 0 there is code at 0 (a relocatable object's
	 * sections are laid out from 0).
	 */
	if (fde->pc_range == 0 || (kind == CV_DEBUG_FRAME && fde->pc_begin == 0))
		return SFRAME_SKIP_EMPTY + 1;
	if (fde->pc_begin + fde->pc_range < fde->pc_begin) {
		fde->pc_range = 0;
		return SFRAME_SKIP_MALFORMED + 1;
	}
	if (!in_text(cv->in, fde->pc_begin, fde->pc_begin + fde->pc_range))
		return SFRAME_SKIP_NOT_TEXT + 1;
	if (fde->pc_range > SFRAME_UINT32_MAX)
		return SFRAME_SKIP_RANGE + 1;
	if (cv->version == SFRAME_VERSION_2 &&
	    (!v2_start_ok(cv, fde->pc_begin) || !v2_start_ok(cv, fde->pc_begin + fde->pc_range)))
		return SFRAME_SKIP_RANGE + 1;
	return cs->skip;
}

/* ---- Records ---------------------------------------------------------------- */

static uint64_t rec_at(const struct conv *cv, uint64_t i)
{
	return cv->buf_size - (i + 1) * cv->rec_size;
}

/* Start, size and where the rows are: what sorting needs. */
static void rec_get(const struct conv *cv, uint64_t i, struct rec *r)
{
	const uint8_t *p = cv->out.data + rec_at(cv, i);

	SFRAME_MEMCPY(&r->start, p, 8);
	SFRAME_MEMCPY(&r->size, p + 8, 4);
	SFRAME_MEMCPY(&r->fre_off, p + 12, 4);
}

/*
 * A whole record's bytes, out and back. Sorting moves records more than
 * anything else; sizes known at compile time let the copies be inlined.
 */
static void rec_save(const struct conv *cv, uint64_t i, uint8_t *buf)
{
	if (cv->rec_size == REC_V3_SIZE)
		SFRAME_MEMCPY(buf, cv->out.data + rec_at(cv, i), REC_V3_SIZE);
	else
		SFRAME_MEMCPY(buf, cv->out.data + rec_at(cv, i), REC_V2_SIZE);
}

static void rec_load(struct conv *cv, uint64_t i, const uint8_t *buf)
{
	if (cv->rec_size == REC_V3_SIZE)
		SFRAME_MEMCPY(cv->out.data + rec_at(cv, i), buf, REC_V3_SIZE);
	else
		SFRAME_MEMCPY(cv->out.data + rec_at(cv, i), buf, REC_V2_SIZE);
}

static void rec_copy(struct conv *cv, uint64_t to, uint64_t from)
{
	uint8_t tmp[REC_V2_SIZE];

	rec_save(cv, from, tmp);
	rec_load(cv, to, tmp);
}

static void rec_put(struct conv *cv, uint64_t i, const struct rec *r)
{
	uint8_t *p = cv->out.data + rec_at(cv, i);

	SFRAME_MEMCPY(p, &r->start, 8);
	SFRAME_MEMCPY(p + 8, &r->size, 4);
	SFRAME_MEMCPY(p + 12, &r->fre_off, 4);
	if (cv->rec_size == REC_V2_SIZE) {
		SFRAME_MEMCPY(p + 16, &r->num_fres, 4);
		p[20] = r->info;
		p[21] = r->rep;
	}
}

/* A function's rows that mark the outermost frame: those without words. */
static uint32_t outermost_rows(const struct conv *cv, uint64_t at, uint32_t n, uint8_t fre_type)
{
	const unsigned int sb = SFRAME_FRE_START_BYTES(fre_type);
	uint32_t count = 0, i;
	uint8_t info;

	for (i = 0; i < n && at + sb < cv->out.pos; i++) {
		info = cv->out.data[at + sb];
		count += SFRAME_FRE_INFO_NUM_WORDS(info) == 0;
		at += sb + 1 + SFRAME_FRE_INFO_NUM_WORDS(info) *
			      SFRAME_WORD_BYTES(SFRAME_FRE_INFO_WORD_SIZE(info));
	}
	return count;
}

/*
 * The whole record: v3's row count and info from its attribute record;
 * with @rows, the outermost rows counted too.
 */
static void rec_full(const struct conv *cv, uint64_t i, struct rec *r, bool rows)
{
	const uint8_t *p = cv->out.data + rec_at(cv, i);
	uint64_t at;

	rec_get(cv, i, r);
	if (cv->rec_size == REC_V2_SIZE) {
		SFRAME_MEMCPY(&r->num_fres, p + 16, 4);
		r->info = p[20];
		r->rep = p[21];
		r->info2 = 0;
		at = cv->fre_base + r->fre_off;
	} else {
		p = cv->out.data + cv->fre_base + r->fre_off;
		r->num_fres = (uint32_t)p[0] << (cv->out.be ? 8 : 0) |
			      (uint32_t)p[1] << (cv->out.be ? 0 : 8);
		r->info = p[2];
		r->info2 = p[3];
		r->rep = p[4];
		at = cv->fre_base + r->fre_off + SFRAME_V3_FDE_ATTR_SIZE;
	}
	if (rows)
		r->outermost = outermost_rows(cv, at, r->num_fres, SFRAME_INFO_FRE_TYPE(r->info));
}

static void account(struct sframe_convert_stats *st, const struct rec *r, uint8_t version,
		    int sign)
{
	st->functions += sign;
	st->rows += sign * r->num_fres;
	st->outermost += sign * r->outermost;
	st->text_bytes += sign * (int64_t)r->size;
	st->flex += sign * ((r->info2 & 0x1f) == SFRAME_FDE_TYPE_FLEX);
	st->pcmask += sign * (SFRAME_INFO_PC_TYPE(r->info) == SFRAME_PC_TYPE_MASK);
	st->signal += sign * (version >= SFRAME_VERSION_3 && SFRAME_INFO_SIGNAL(r->info));
}

/*
 * A function's rows are written; keep its record. Without room for it
 * (the records grow down to meet the rows) the output is too small.
 */
static void add_record(struct conv *cv, const struct rec *r)
{
	struct cv_out *o = &cv->out;

	account(cv->st, r, cv->version, 1);
	cv->nrec++;
	if (!o->data)
		return;
	if (o->over || o->size - o->pos < cv->rec_size) {
		o->over = true;
		return;
	}
	/* Rows are written below the records only. */
	o->size -= cv->rec_size;
	rec_put(cv, cv->nrec - 1, r);
}

/*
 * Where a function starts as the section states it: a signed offset from
 * the section, which is the order readers check (a start below the
 * section's address sorts first, not last).
 */
static int64_t rec_key(const struct conv *cv, const struct rec *r)
{
	return (int64_t)(r->start - cv->in->sframe_addr);
}

/*
 * By start; among equal starts the first converted (.eh_frame before
 * .debug_frame, then in section order), whose rows were written first.
 */
static bool rec_less(const struct conv *cv, const struct rec *a, const struct rec *b)
{
	const int64_t ka = rec_key(cv, a), kb = rec_key(cv, b);

	if (ka != kb)
		return ka < kb;
	return a->fre_off < b->fre_off;
}

static void sift_down(struct conv *cv, uint64_t i, uint64_t n)
{
	struct rec top, child, other;
	uint8_t saved[REC_V2_SIZE];
	uint64_t c;

	rec_get(cv, i, &top);
	rec_save(cv, i, saved);
	while ((c = 2 * i + 1) < n) {
		rec_get(cv, c, &child);
		if (c + 1 < n) {
			rec_get(cv, c + 1, &other);
			if (rec_less(cv, &child, &other)) {
				c++;
				child = other;
			}
		}
		if (!rec_less(cv, &top, &child))
			break;
		rec_copy(cv, i, c);
		i = c;
	}
	rec_load(cv, i, saved);
}

/*
 * Heapsort: in place, no recursion, n log n whatever the input order.
 * Linkers lay .eh_frame out in address order, so most inputs need no
 * sorting at all: one look at each neighbour says so.
 */
static void sort_records(struct conv *cv)
{
	uint8_t tmp[REC_V2_SIZE];
	uint64_t n = cv->nrec, i;
	struct rec a, b;

	for (i = 1; i < n; i++) {
		rec_get(cv, i - 1, &a);
		rec_get(cv, i, &b);
		if (rec_less(cv, &b, &a))
			break;
	}
	if (i >= n)
		return;

	for (i = n / 2; i-- > 0;)
		sift_down(cv, i, n);
	for (i = n; i-- > 1;) {
		rec_save(cv, 0, tmp);
		rec_copy(cv, 0, i);
		rec_load(cv, i, tmp);
		sift_down(cv, 0, i);
	}
}

/*
 * Of functions that overlap, keep the one converted first (.eh_frame
 * before .debug_frame, then in section order: the lower row offset) and
 * count the other as left out; its rows stay in the FRE area,
 * unreferenced. Sorted by start, an overlap is always with the last one
 * kept, which the newcomer may replace.
 */
static void drop_duplicates(struct conv *cv)
{
	uint64_t i, kept = 0;
	struct rec r, last = { 0 }, loser;

	for (i = 0; i < cv->nrec; i++) {
		rec_get(cv, i, &r);
		/* Sorted, so the difference is not negative; unsigned, it
		 * cannot overflow where the end would. */
		if (kept && (uint64_t)rec_key(cv, &r) - (uint64_t)rec_key(cv, &last) < last.size) {
			if (r.fre_off < last.fre_off) {
				rec_full(cv, kept - 1, &loser, true);
				rec_copy(cv, kept - 1, i);
				last = r;
			} else {
				rec_full(cv, i, &loser, true);
			}
			account(cv->st, &loser, cv->version, -1);
			skip(cv, SFRAME_SKIP_DUPLICATE, loser.size);
			continue;
		}
		if (kept != i)
			rec_copy(cv, kept, i);
		last = r;
		kept++;
	}
	cv->nrec = kept;
}

/* ---- Writing one FDE's rows ------------------------------------------------- */

/* Rows for [0, @limit) of @fde, FLEX or not; 0 or reason + 1. */
static int write_rows(struct conv *cv, enum cv_kind kind, const struct cv_cie_state *cs,
		      const struct cv_fde *fde, uint64_t limit, bool flex, struct emit *em)
{
	/* Field by field: the rows need no clearing. */
	em->sink = (struct cv_sink){ .row = emit_row, .next = &em->rows[0], .limit = limit,
				     .ctx = em };
	em->last = NULL;
	em->flex = flex;
	em->fre_type = cv_fre_type(limit);
	em->rows_out = 0;
	em->max_rows = cv->version == SFRAME_VERSION_3 ? 0xffffu : SFRAME_UINT32_MAX;
	em->outermost = 0;
	em->out = &cv->out;
	em->abi = &cv->abi;
	return cv_run_fde(&cv->abi, cv->version, &cv->sec[kind], cs, fde, &em->sink);
}

/* The PLT's PCMASK part: CFA sp+8 up to the push, sp+16 from it. */
static uint32_t write_plt_rows(struct conv *cv, uint8_t k, uint8_t fre_type)
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

/* The v3 attribute record, in front of the rows. */
static void put_attr(struct conv *cv, uint64_t at, const struct rec *r)
{
	if (cv->version < SFRAME_VERSION_3)
		return;
	cv_put_at(&cv->out, at, r->num_fres, 2);
	cv_put_at(&cv->out, at + 2, r->info, 1);
	cv_put_at(&cv->out, at + 3, r->info2, 1);
	cv_put_at(&cv->out, at + 4, r->rep, 1);
}

/*
 * One FDE: its rows are written as DEFAULT ones unless a row turns out to
 * need FLEX, or the PLT's expression is reached; then the FDE is written
 * again from where it began (rare: the first run finds out).
 */
static void convert_fde(struct conv *cv, enum cv_kind kind, const struct cv_entry *e)
{
	const uint64_t begin = cv->out.pos;
	const struct cv_cie_state *cs = NULL;
	struct cv_fde fde = { 0 };
	struct emit em;
	struct rec r = { 0 };
	uint64_t head;
	bool flex = false, plt = false;
	uint8_t plt_k = 0;
	int ret;

	ret = fde_header(cv, kind, e, &fde, &cs);
	head = fde.pc_range;
	for (;;) {
		if (ret)
			break;
		/* Rows that did not fit but are written again or dropped: no loss. */
		cv->out.over = false;
		cv->out.pos = begin + cv->attr_size;
		ret = write_rows(cv, kind, cs, &fde, head, flex, &em);
		if (ret)
			break;
		if (em.sink.flex && !flex) {
			flex = true;
			continue;
		}
		if (em.sink.plt && !plt) {
			/* Rows up to the PLT's expression, then its PCMASK part. */
			plt = true;
			plt_k = em.sink.plt_k;
			head = em.sink.plt_at;
			continue;
		}
		break;
	}
	if (ret) {
		cv->out.pos = begin;
		cv->out.over = false;
		if (ret == SFRAME_SKIP_MALFORMED + 1)
			note_problem(cv, kind, e->off);
		skip(cv, ret - 1, fde.pc_range);
		return;
	}
	r.info = (uint8_t)(cs->cie.bkey ? SFRAME_PAUTH_KEY_B << 5 : 0);
	if (cs->cie.signal && cv->version >= SFRAME_VERSION_3)
		r.info |= 1u << 7;
	if (head) {
		r.start = fde.pc_begin;
		r.size = (uint32_t)head;
		r.fre_off = (uint32_t)(begin - SFRAME_HDR_SIZE);
		r.num_fres = em.rows_out;
		r.outermost = em.outermost;
		r.info |= cv_fre_type(head);
		r.info2 = flex ? SFRAME_FDE_TYPE_FLEX : SFRAME_FDE_TYPE_DEFAULT;
		put_attr(cv, begin, &r);
		add_record(cv, &r);
	} else {
		cv->out.pos = begin;
	}
	if (plt) {
		const uint64_t at = cv->out.pos;
		const uint8_t t = cv_fre_type(fde.pc_range - head);

		cv->out.pos += cv->attr_size;
		r.start = fde.pc_begin + head;
		r.size = (uint32_t)(fde.pc_range - head);
		r.fre_off = (uint32_t)(at - SFRAME_HDR_SIZE);
		r.num_fres = write_plt_rows(cv, plt_k, t);
		r.outermost = 0;
		r.info = (uint8_t)((r.info & 0xf0) | t | (SFRAME_PC_TYPE_MASK << 4));
		r.info2 = SFRAME_FDE_TYPE_DEFAULT;
		r.rep = PLT_ENTRY;
		put_attr(cv, at, &r);
		add_record(cv, &r);
	}
}

static int convert_section(struct conv *cv, enum cv_kind kind)
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
				convert_fde(cv, kind, &e);
			}
			break;
		}
		if (cv->out.over)
			return -SFRAME_CONVERT_ERR_SPACE;
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
	if ((in->num_text && !in->text) || (in->num_fde_offsets && !in->fde_offsets))
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
	cv->rec_size = cv->version == SFRAME_VERSION_2 ? REC_V2_SIZE : REC_V3_SIZE;
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
	cv->out = (struct cv_out){ .size = SFRAME_UINT64_MAX, .pos = SFRAME_HDR_SIZE,
				   .be = in->big_endian };
	cv->fre_base = SFRAME_HDR_SIZE;
	return 0;
}

/* Only the FDEs the caller named (sframe_convert_input.fde_offsets). */
static int convert_listed(struct conv *cv)
{
	struct cv_cursor *sec = &cv->sec[CV_EH_FRAME];
	struct cv_entry e;
	size_t i;

	for (i = 0; i < cv->in->num_fde_offsets; i++) {
		const uint64_t off = cv->in->fde_offsets[i];

		enum cv_entry_result r = cv_entry(sec, CV_EH_FRAME, off, &e);

		cv->st->fdes++;
		if (r == CV_ENTRY_BAD) {
			cv->st->problem_offset = SFRAME_UINT64_MAX;
			note_problem(cv, CV_EH_FRAME, off);
			return -SFRAME_CONVERT_ERR_ENTRY;
		}
		if (r == CV_ENTRY_OK && !e.is_cie) {
			convert_fde(cv, CV_EH_FRAME, &e);
		} else {
			/* A CIE, the terminator, a 64-bit entry, or past the end. */
			note_problem(cv, CV_EH_FRAME, off);
			skip(cv, SFRAME_SKIP_MALFORMED, 0);
		}
		if (cv->out.over)
			return -SFRAME_CONVERT_ERR_SPACE;
	}
	return 0;
}

/* Both sections (or the FDEs named) into the FRE area and the records. */
static int convert_all(struct conv *cv)
{
	int ret;

	if (cv->in->num_fde_offsets)
		return convert_listed(cv);
	ret = convert_section(cv, CV_EH_FRAME);

	if (!ret)
		ret = convert_section(cv, CV_DEBUG_FRAME);
	return ret;
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
		ret = convert_all(&cv);
	if (ret)
		return ret;
	/* Room for the rows, the entries, and the records beside them. */
	n = cv.out.pos - SFRAME_HDR_SIZE;
	if (cv.nrec > SFRAME_UINT32_MAX / REC_V2_SIZE || n > SFRAME_UINT32_MAX)
		return -SFRAME_CONVERT_ERR_TOO_BIG;
	n += SFRAME_HDR_SIZE + cv.nrec * (cv.fde_size + cv.rec_size);
	if (n > (size_t)-1)
		return -SFRAME_CONVERT_ERR_TOO_BIG;
	*size = (size_t)n;
	return 0;
}

/*
 * Move @len bytes from @from up to @to (> @from), from the end: a chunk no
 * longer than the distance moved never overlaps its destination.
 */
static void move_up(uint8_t *data, uint64_t to, uint64_t from, uint64_t len)
{
	const uint64_t most = to - from < SFRAME_MAX_READ ? to - from : SFRAME_MAX_READ;

	while (len && most) {
		uint64_t n = len < most ? len : most;

		len -= n;
		SFRAME_MEMCPY(data + to + len, data + from + len, n);
	}
}

static void put_fde(struct conv *cv, uint64_t i, const struct rec *r)
{
	const uint64_t at = SFRAME_HDR_SIZE + i * cv->fde_size;
	const uint64_t field = cv->in->sframe_addr + at;
	struct cv_out *o = &cv->out;

	if (cv->version >= SFRAME_VERSION_3) {
		cv_put_at(o, at, r->start - field, 8);
		cv_put_at(o, at + 8, r->size, 4);
		cv_put_at(o, at + 12, r->fre_off, 4);
	} else {
		cv_put_at(o, at, (uint32_t)(r->start - field), 4);
		cv_put_at(o, at + 4, r->size, 4);
		cv_put_at(o, at + 8, r->fre_off, 4);
		cv_put_at(o, at + 12, r->num_fres, 4);
		cv_put_at(o, at + 16, r->info, 1);
		cv_put_at(o, at + 17, r->rep, 1);
		cv_put_at(o, at + 18, 0, 2);
	}
}

int sframe_convert(const struct sframe_convert_input *in, void *out, size_t out_size,
		   size_t *len, struct sframe_convert_stats *stats)
{
	struct sframe_convert_stats local;
	struct sframe_convert_stats *st = stats ? stats : &local;
	struct cv_out *o;
	struct conv cv;
	uint64_t fre_len, fdes, i;
	struct rec r;
	int ret;

	if (!out || !len)
		return -SFRAME_ERR_INVAL;
	ret = setup(&cv, in, st);
	if (ret)
		return ret;
	o = &cv.out;
	o->data = out;
	o->size = out_size;
	cv.buf_size = out_size;
	if (out_size < SFRAME_HDR_SIZE)
		return -SFRAME_CONVERT_ERR_SPACE;
	ret = convert_all(&cv);
	if (ret)
		return ret;
	fre_len = o->pos - SFRAME_HDR_SIZE;
	if (cv.nrec > SFRAME_UINT32_MAX / REC_V2_SIZE || fre_len > SFRAME_UINT32_MAX)
		return -SFRAME_CONVERT_ERR_TOO_BIG;
	sort_records(&cv);
	drop_duplicates(&cv);
	/* The entries go in front of the rows; the records stay clear of both. */
	fdes = cv.nrec * cv.fde_size;
	if (o->pos + fdes > cv.buf_size - cv.nrec * cv.rec_size)
		return -SFRAME_CONVERT_ERR_SPACE;
	o->size = cv.buf_size - cv.nrec * cv.rec_size;
	move_up(o->data, SFRAME_HDR_SIZE + fdes, SFRAME_HDR_SIZE, fre_len);
	cv.fre_base = SFRAME_HDR_SIZE + fdes;
	for (i = 0; i < cv.nrec; i++) {
		rec_full(&cv, i, &r, false);
		put_fde(&cv, i, &r);
	}
	cv_header_write(o, &cv.abi, cv.version, (uint32_t)cv.nrec, st->rows, (uint32_t)fre_len);
	if (o->over)
		return -SFRAME_CONVERT_ERR_SPACE;
	*len = (size_t)(SFRAME_HDR_SIZE + fdes + fre_len);
	return 0;
}

int sframe_eh_frame_hdr_ptr(const struct sframe_cfi_bytes *hdr, bool big_endian,
			    uint64_t *eh_frame_addr)
{
	struct cv_hdr h;

	if (!hdr || !hdr->data || !eh_frame_addr)
		return -SFRAME_ERR_INVAL;
	if (!cv_hdr_read(hdr->data, hdr->size, hdr->addr, big_endian, &h) || !h.has_eh_frame)
		return -SFRAME_CONVERT_ERR_ENTRY;
	*eh_frame_addr = h.eh_frame;
	return 0;
}

int sframe_eh_frame_hdr_find(const struct sframe_cfi_bytes *hdr, bool big_endian,
			     uint64_t eh_frame_addr, uint64_t pc, uint64_t *fde_off)
{
	uint64_t lo = 0, hi, start, fde;
	struct cv_hdr h;

	if (!hdr || !hdr->data || !fde_off)
		return -SFRAME_ERR_INVAL;
	if (!cv_hdr_read(hdr->data, hdr->size, hdr->addr, big_endian, &h) || !h.count)
		return -SFRAME_CONVERT_ERR_ENTRY;
	if (!cv_hdr_entry(&h, 0, &start, &fde))
		return -SFRAME_CONVERT_ERR_ENTRY;
	if (pc < start)
		return -SFRAME_ERR_NOT_FOUND;
	/* The last entry starting at or below @pc; halving bounds the loop. */
	hi = h.count;
	while (hi - lo > 1) {
		const uint64_t mid = lo + (hi - lo) / 2;

		if (!cv_hdr_entry(&h, mid, &start, &fde))
			return -SFRAME_CONVERT_ERR_ENTRY;
		if (start <= pc)
			lo = mid;
		else
			hi = mid;
	}
	if (!cv_hdr_entry(&h, lo, &start, &fde) || fde < eh_frame_addr)
		return -SFRAME_CONVERT_ERR_ENTRY;
	*fde_off = fde - eh_frame_addr;
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
