/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * convert_internal.h - the converter's parts and how they meet.
 *
 *   cfi_read.c	  the DWARF side: bounds-checked reads, LEB128, pointer
 *		  encodings, CIE and FDE headers, expression shapes;
 *   cfi_eval.c	  runs an FDE's instructions into rows and says what each
 *		  row is in SFrame terms (struct sframe_rules) or why it
 *		  cannot be said;
 *   sframe_write.c the SFrame side: a row's bytes, an FDE's, the header;
 *   convert.c	  the two passes, sorting, the public entry points.
 *
 * A row's SFrame meaning is a struct sframe_rules, as the reader decodes
 * it: what the converter writes is what the reader will read back, which
 * the tests and the fuzz target check row by row.
 */
#ifndef SFRAME_CONVERT_INTERNAL_H
#define SFRAME_CONVERT_INTERNAL_H

#include <sframe/sframe.h>
#include <sframe/sframe_convert.h>

/* ---- Reading (cfi_read.c) ------------------------------------------------ */

/*
 * A cursor over one section's bytes. Every read of CFI goes through
 * cv_bytes(): a read past @end sets @bad and yields zeros, so callers test
 * @bad once after a run of reads instead of after each.
 */
struct cv_cursor {
	const uint8_t *data;
	uint64_t pos;
	uint64_t end;
	uint64_t addr;	/* run-time address of data[0] */
	bool be;
	bool bad;
};

void cv_bytes(struct cv_cursor *c, void *dst, uint64_t n);
uint64_t cv_uint_slow(struct cv_cursor *c, unsigned int width);

/* The common case of cv_uint(): the bytes are there. */
static inline uint64_t cv_uint(struct cv_cursor *c, unsigned int width)
{
	const uint8_t *p;
	uint64_t v = 0;
	unsigned int i;

	if (c->bad || width > c->end || c->pos > c->end - width)
		return cv_uint_slow(c, width);
	p = c->data + c->pos;
	c->pos += width;
	if (c->be) {
		for (i = 0; i < width; i++)
			v = (v << 8) | p[i];
	} else {
		for (i = width; i-- > 0;)
			v = (v << 8) | p[i];
	}
	return v;
}
uint64_t cv_uleb_slow(struct cv_cursor *c);
int64_t cv_sleb_slow(struct cv_cursor *c);

/* LEB128 of one byte, most operands, without a call. */
static inline uint64_t cv_uleb(struct cv_cursor *c)
{
	if (!c->bad && c->pos < c->end && c->data[c->pos] < 0x80)
		return c->data[c->pos++];
	return cv_uleb_slow(c);
}

static inline int64_t cv_sleb(struct cv_cursor *c)
{
	uint8_t b;

	if (!c->bad && c->pos < c->end && (b = c->data[c->pos]) < 0x80) {
		c->pos++;
		return b & 0x40 ? (int64_t)b - 0x80 : (int64_t)b;
	}
	return cv_sleb_slow(c);
}
void cv_skip(struct cv_cursor *c, uint64_t n);
bool cv_pointer(struct cv_cursor *c, uint8_t enc, uint64_t *val);
bool cv_skip_pointer(struct cv_cursor *c, uint8_t enc);

/*
 * .eh_frame_hdr: where .eh_frame is, and the search table that maps a
 * function's first address to its FDE, from cv_hdr_read().
 */
struct cv_hdr {
	struct cv_cursor c;	/* over the whole header */
	uint64_t eh_frame;	/* .eh_frame's address; valid when @has_eh_frame */
	uint64_t count;		/* table entries; 0 without a table */
	uint64_t table;		/* the table's offset in the header */
	uint8_t table_enc;
	unsigned int width;	/* of one table field */
	bool has_eh_frame;
};

bool cv_hdr_read(const uint8_t *data, uint64_t size, uint64_t addr, bool be, struct cv_hdr *h);
bool cv_hdr_entry(struct cv_hdr *h, uint64_t i, uint64_t *start, uint64_t *fde);

/* Which section an entry is in. */
enum cv_kind {
	CV_EH_FRAME,
	CV_DEBUG_FRAME,
};

/* One entry's framing, from cv_entry(). */
struct cv_entry {
	uint64_t off;		/* the length field */
	uint64_t body;		/* after the CIE id / CIE pointer */
	uint64_t end;		/* the next entry */
	uint64_t id_off;	/* the CIE id / pointer field */
	uint64_t id;		/* its value */
	bool is64;		/* 64-bit DWARF */
	bool is_cie;
};

enum cv_entry_result {
	CV_ENTRY_OK,
	CV_ENTRY_END,		/* no more entries: section end or terminator */
	CV_ENTRY_SKIP,		/* an entry to step over (64-bit .eh_frame) */
	CV_ENTRY_BAD,		/* its length runs past the end */
};

enum cv_entry_result cv_entry(const struct cv_cursor *sec, enum cv_kind kind, uint64_t off,
			      struct cv_entry *e);

/* A parsed CIE: what its FDEs need. */
struct cv_cie {
	uint64_t off;
	uint64_t code_align;
	int64_t data_align;
	uint64_t ra_col;
	uint64_t insns;
	uint64_t insns_end;
	uint8_t fde_enc;	/* R, DW_EH_PE_absptr without it */
	bool aug_z;
	bool signal;		/* S */
	bool bkey;		/* B */
};

/* A parsed FDE header. */
struct cv_fde {
	uint64_t off;
	uint64_t cie_off;
	uint64_t pc_begin;
	uint64_t pc_range;
	uint64_t insns;
	uint64_t insns_end;
};

bool cv_parse_cie(struct cv_cursor *sec, const struct cv_entry *e, struct cv_cie *cie);
bool cv_cie_of(const struct cv_cursor *sec, enum cv_kind kind, const struct cv_entry *e,
	       uint64_t *cie_off);
bool cv_parse_fde(struct cv_cursor *sec, const struct cv_entry *e, const struct cv_cie *cie,
		  uint64_t cie_off, struct cv_fde *fde);

/* The shapes of DWARF expressions SFrame has a form for. */
enum cv_expr_shape {
	CV_EXPR_OTHER,
	CV_EXPR_BREG,		/* reg + off */
	CV_EXPR_BREG_DEREF,	/* *(reg + off) */
	CV_EXPR_PLT,		/* x86-64 PLT: rsp + 8 + ((rip & 15) >= k) * 8 */
};

struct cv_expr {
	uint8_t shape;
	uint8_t k;
	uint32_t reg;
	int64_t off;
};

void cv_expr_shape(struct cv_cursor *c, uint64_t len, struct cv_expr *x);

/* ---- ABIs ------------------------------------------------------------------ */

struct cv_abi {
	uint8_t sframe_abi;
	uint16_t machine;
	uint32_t sp;
	uint32_t fp;
	uint32_t ra;
	int8_t fixed_ra;	/* header's fixed RA offset; 0: RA in the rows */
	int32_t sp_val;		/* caller's SP = CFA + this */
	bool flex;		/* v3 FLEX FDEs are written for this ABI */
};

/* ---- Interpretation (cfi_eval.c) -------------------------------------------- */

/* A register's rule, as far as SFrame can care. */
enum cv_rule_kind {
	CV_RULE_UNSET,		/* no rule: same value */
	CV_RULE_UNDEF,
	CV_RULE_SAME,
	CV_RULE_OFFSET,		/* saved at CFA + off */
	CV_RULE_VAL_OFFSET,	/* value CFA + off */
	CV_RULE_REG,		/* value in reg */
	CV_RULE_AT_REG,		/* saved at reg + off (expression) */
	CV_RULE_VAL_REG,	/* value reg + off (val_expression) */
	CV_RULE_OTHER,		/* another expression */
};

struct cv_rule {
	uint8_t kind;
	uint32_t reg;
	int64_t off;
};

enum cv_cfa_kind {
	CV_CFA_NONE,
	CV_CFA_REG,		/* reg + off */
	CV_CFA_DEREF,		/* *(reg + off) */
	CV_CFA_PLT,		/* the PLT expression, k in reg */
	CV_CFA_OTHER,
};

struct cv_state {
	uint8_t cfa_kind;
	bool mangled;		/* AArch64 RA signed */
	bool sign_state;	/* AArch64 RA_SIGN_STATE column has a rule */
	uint32_t cfa_reg;
	int64_t cfa_off;
	struct cv_rule ra;
	struct cv_rule fp;
	struct cv_rule sp;
};

/* One row in SFrame terms, from cv_map_row(). */
struct cv_row {
	uint32_t start;		/* offset from the function (or PCMASK block) start */
	bool flex;		/* needs a FLEX FDE */
	struct sframe_rules rules;
};

int cv_map_row(const struct cv_abi *abi, uint8_t version, const struct cv_state *s,
	       struct cv_row *row);

/*
 * What the run of one FDE gives: a skip reason, or its rows through the
 * sink (scan counts, emit writes).
 */
struct cv_sink;
typedef bool (*cv_row_fn)(struct cv_sink *sink, struct cv_row *row);

struct cv_sink {
	cv_row_fn row;
	struct cv_row *next;	/* where the next row is mapped; the sink's */
	uint64_t limit;		/* rows at or past this offset are not wanted */
	bool flex;		/* the FDE needs FLEX (scan sets it) */
	bool plt;		/* a PLT row was reached (at plt_at) */
	uint8_t plt_k;
	uint64_t plt_at;
	void *ctx;
};

/* The state at the end of a CIE's initial instructions, keyed by CIE. */
struct cv_cie_state {
	bool valid;
	uint8_t kind;
	uint64_t off;
	bool broken;		/* the CIE itself cannot be read */
	int skip;		/* the CIE cannot serve: reason + 1 */
	struct cv_cie cie;
	struct cv_state init;
};

int cv_run_fde(const struct cv_abi *abi, uint8_t version, struct cv_cursor *sec,
	       const struct cv_cie_state *cs, const struct cv_fde *fde, struct cv_sink *sink);
int cv_run_cie(const struct cv_abi *abi, struct cv_cursor *sec, struct cv_cie_state *cs);

/* ---- Writing (sframe_write.c) -------------------------------------------- */

struct cv_out {
	uint8_t *data;
	uint64_t size;
	uint64_t pos;
	bool be;
	bool over;	/* a write did not fit */
};

void cv_put_at(struct cv_out *o, uint64_t at, uint64_t v, unsigned int width);

void cv_fre_write(struct cv_out *o, const struct cv_abi *abi, bool flex, const struct cv_row *row,
		  uint8_t fre_type);
uint8_t cv_fre_type(uint64_t size);
bool cv_rows_equal(const struct cv_row *a, const struct cv_row *b);
void cv_header_write(struct cv_out *o, const struct cv_abi *abi, uint8_t version,
		     uint32_t num_fdes, uint32_t num_fres, uint32_t fre_len);

#endif /* SFRAME_CONVERT_INTERNAL_H */
