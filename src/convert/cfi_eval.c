/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * cfi_eval.c - run a CIE's and an FDE's call-frame instructions into rows,
 * and say what each row is in SFrame terms, or why SFrame cannot say it.
 *
 * Only the CFA and the rules of the return address, the frame pointer and
 * the stack pointer matter to SFrame; rules of other registers are read
 * past. A row is emitted at each advance that moves past the current
 * location, so a run of advances without instructions between them gives
 * one row, as DWARF defines.
 */
#include "convert_internal.h"

/*
 * remember_state nests no deeper than this. Compilers nest at most one
 * level (checked on glibc, libstdc++ and CPython); a deeper stack is
 * refused as malformed rather than costing every caller more stack.
 */
#define CV_STACK_DEPTH 6

/* Register number of AArch64's RA_SIGN_STATE pseudo-register. */
#define AARCH64_RA_SIGN_STATE 34

/* Larger than any offset SFrame can hold, smaller than overflow. */
#define CV_BIG ((int64_t)1 << 40)

#define SKIP(reason) ((int)(reason) + 1)

struct cv_run {
	const struct cv_abi *abi;
	uint8_t version;
	struct cv_cursor c;
	const struct cv_cie *cie;
	const struct cv_state *init;	/* the CIE's rules, for DW_CFA_restore */
	struct cv_state st;
	struct cv_state stack[CV_STACK_DEPTH];
	unsigned int depth;
	uint64_t pc_begin;
	uint64_t loc;
	bool in_cie;
	bool dirty;	/* the state may differ from the last row's */
};

/* n * factor, saturated to +-CV_BIG: offsets that large are never stored. */
static int64_t factored(int64_t n, int64_t factor)
{
	const int64_t lim = (int64_t)1 << 32;

	if (n > lim || n < -lim || factor > lim || factor < -lim)
		return (n < 0) != (factor < 0) ? -CV_BIG : CV_BIG;
	return n * factor;
}

static int64_t ufactored(uint64_t n, int64_t factor)
{
	return factored(n > (uint64_t)CV_BIG ? CV_BIG : (int64_t)n, factor);
}

static const struct cv_rule *rule_in(const struct cv_state *st, const struct cv_abi *abi,
				     uint64_t reg)
{
	if (reg == abi->ra)
		return &st->ra;
	if (reg == abi->fp)
		return &st->fp;
	if (reg == abi->sp)
		return &st->sp;
	return NULL;
}

static struct cv_rule *rule_of(struct cv_state *st, const struct cv_abi *abi, uint64_t reg)
{
	if (reg == abi->ra)
		return &st->ra;
	if (reg == abi->fp)
		return &st->fp;
	if (reg == abi->sp)
		return &st->sp;
	return NULL;
}

static void set_rule(struct cv_run *r, uint64_t reg, uint8_t kind, uint32_t r2, int64_t off)
{
	struct cv_rule *rule = rule_of(&r->st, r->abi, reg);

	if (r->abi->machine == SFRAME_EM_AARCH64 && reg == AARCH64_RA_SIGN_STATE) {
		r->st.sign_state = true;
		r->dirty = true;
	}
	if (rule) {
		*rule = (struct cv_rule){ .kind = kind, .reg = r2, .off = off };
		r->dirty = true;
	}
}

static void restore_rule(struct cv_run *r, uint64_t reg)
{
	struct cv_rule *rule = rule_of(&r->st, r->abi, reg);

	if (r->abi->machine == SFRAME_EM_AARCH64 && reg == AARCH64_RA_SIGN_STATE) {
		r->st.sign_state = r->init ? r->init->sign_state : false;
		r->dirty = true;
	}
	if (!rule)
		return;
	r->dirty = true;
	if (r->in_cie || !r->init)
		*rule = (struct cv_rule){ .kind = CV_RULE_UNSET };
	else
		*rule = *rule_in(r->init, r->abi, reg);
}

/* A register number operand; numbers past 32 bits name nothing SFrame has. */
static uint32_t reg32(uint64_t reg)
{
	return reg > 0xffffffffu ? 0xffffffffu : (uint32_t)reg;
}

static bool is_base(const struct cv_abi *abi, uint32_t reg)
{
	return reg == abi->sp || reg == abi->fp;
}

/* The CFA part of a row. */
static int map_cfa(const struct cv_abi *abi, uint8_t version, const struct cv_state *s,
		   struct cv_row *row)
{
	int64_t off = s->cfa_off;

	switch (s->cfa_kind) {
	case CV_CFA_REG:
		if (!is_base(abi, s->cfa_reg)) {
			if (!abi->flex || version < SFRAME_VERSION_3)
				return SKIP(SFRAME_SKIP_CFA_REG);
			row->flex = true;
		}
		break;
	case CV_CFA_DEREF:
		if (!abi->flex || version < SFRAME_VERSION_3)
			return SKIP(SFRAME_SKIP_CFA_EXPR);
		row->flex = true;
		break;
	case CV_CFA_NONE:
		return SKIP(SFRAME_SKIP_MALFORMED);
	default:
		return SKIP(SFRAME_SKIP_CFA_EXPR);
	}
	/* A FLEX control word holds the register in its bits 3 and up. */
	if (s->cfa_reg >= (1u << 28))
		return SKIP(SFRAME_SKIP_CFA_REG);
	if (off > SFRAME_INT32_MAX || off < SFRAME_INT32_MIN)
		return SKIP(SFRAME_SKIP_RANGE);
	/* s390x stores (offset - 160) / 8: anything else cannot be stored. */
	if (abi->sframe_abi == SFRAME_ABI_S390X_BE &&
	    (off - SFRAME_S390X_CFA_BIAS) % SFRAME_S390X_CFA_SCALE != 0)
		return SKIP(SFRAME_SKIP_RANGE);
	row->rules.cfa.reg = s->cfa_reg;
	row->rules.cfa.deref = s->cfa_kind == CV_CFA_DEREF;
	row->rules.cfa.offset = (int32_t)off;
	return 0;
}

/*
 * The RA or FP part of a row: @is_ra picks the ABI rules. DEFAULT rows hold
 * a slot offset from the CFA (not 0 for the RA of an ABI whose RA word 0
 * is padding; x86-64's RA only at its fixed slot); FLEX rows also hold a
 * register, or a slot based on a register; s390x v2 holds a register as
 * (reg << 1) | 1 in a DEFAULT word, so odd slot offsets cannot be said
 * there.
 */
static int map_loc(const struct cv_abi *abi, uint8_t version, const struct cv_rule *rule,
		   bool is_ra, struct sframe_loc *loc, bool *flex)
{
	const int reason = is_ra ? SKIP(SFRAME_SKIP_RA_RULE) : SKIP(SFRAME_SKIP_FP_RULE);
	const bool can_flex = abi->flex && version >= SFRAME_VERSION_3;
	const bool s390_v2 = abi->sframe_abi == SFRAME_ABI_S390X_BE && version < SFRAME_VERSION_3;
	const bool x86 = abi->fixed_ra != 0;

	switch (rule->kind) {
	case CV_RULE_UNSET:
	case CV_RULE_SAME:
		/* x86-64 has no link register: an RA "unchanged" is no RA. */
		if (is_ra && x86)
			return reason;
		loc->kind = SFRAME_LOC_SAME;
		return 0;
	case CV_RULE_OFFSET:
		if (rule->off > SFRAME_INT32_MAX || rule->off < SFRAME_INT32_MIN)
			return SKIP(SFRAME_SKIP_RANGE);
		loc->kind = SFRAME_LOC_CFA;
		loc->deref = true;
		loc->offset = (int32_t)rule->off;
		if (is_ra && x86 && rule->off == abi->fixed_ra)
			return 0;
		if ((is_ra && x86) || (is_ra && rule->off == 0) || (s390_v2 && (rule->off & 1))) {
			if (!can_flex)
				return reason;
			*flex = true;
		}
		return 0;
	case CV_RULE_REG:
		if (rule->reg >= (1u << 28))
			return reason;
		loc->kind = SFRAME_LOC_REG;
		loc->reg = rule->reg;
		if (s390_v2)
			return 0;
		if (!can_flex)
			return reason;
		*flex = true;
		return 0;
	case CV_RULE_AT_REG:
		if (rule->reg >= (1u << 28))
			return reason;
		if (rule->off > SFRAME_INT32_MAX || rule->off < SFRAME_INT32_MIN)
			return SKIP(SFRAME_SKIP_RANGE);
		if (!can_flex)
			return reason;
		loc->kind = SFRAME_LOC_REG;
		loc->reg = rule->reg;
		loc->deref = true;
		loc->offset = (int32_t)rule->off;
		*flex = true;
		return 0;
	default:
		return reason;
	}
}

/*
 * SFrame takes the caller's SP to be the CFA (s390x: CFA - 160). A rule
 * for SP that says so, or none, is fine. On s390x an SP saved on the stack
 * (stmg %r6,%r15 saves it with the others) or kept in a register is too:
 * the ABI defines the CFA as the caller's SP + 160, whatever holds it.
 */
static int check_sp(const struct cv_abi *abi, const struct cv_state *s)
{
	const struct cv_rule *sp = &s->sp;

	switch (sp->kind) {
	case CV_RULE_UNSET:
	case CV_RULE_SAME:
		return 0;
	case CV_RULE_VAL_OFFSET:
		return sp->off == abi->sp_val ? 0 : SKIP(SFRAME_SKIP_SP_RULE);
	case CV_RULE_OFFSET:
	case CV_RULE_REG:
		return abi->sframe_abi == SFRAME_ABI_S390X_BE ? 0 : SKIP(SFRAME_SKIP_SP_RULE);
	case CV_RULE_AT_REG:
		/* Loaded from where the CFA is loaded from: the same value. */
		return abi->sp_val == 0 && s->cfa_kind == CV_CFA_DEREF && s->cfa_reg == sp->reg &&
		       s->cfa_off == sp->off ? 0 : SKIP(SFRAME_SKIP_SP_RULE);
	case CV_RULE_VAL_REG:
		return s->cfa_kind == CV_CFA_REG && s->cfa_reg == sp->reg &&
		       s->cfa_off + abi->sp_val == sp->off ? 0 : SKIP(SFRAME_SKIP_SP_RULE);
	default:
		return SKIP(SFRAME_SKIP_SP_RULE);
	}
}

int cv_map_row(const struct cv_abi *abi, uint8_t version, const struct cv_state *s,
	       struct cv_row *row)
{
	struct sframe_rules *r = &row->rules;
	int ret;

	*r = (struct sframe_rules){ 0 };
	row->flex = false;
	if (s->sign_state)
		return SKIP(SFRAME_SKIP_PAUTH);
	/* The outermost frame: nothing else in the row matters. */
	if (s->ra.kind == CV_RULE_UNDEF) {
		r->ra_undefined = true;
		r->ra.kind = SFRAME_LOC_UNDEFINED;
		r->fp.kind = SFRAME_LOC_SAME;
		return 0;
	}
	ret = map_cfa(abi, version, s, row);
	if (!ret)
		ret = check_sp(abi, s);
	if (!ret)
		ret = map_loc(abi, version, &s->ra, true, &r->ra, &row->flex);
	if (!ret)
		ret = map_loc(abi, version, &s->fp, false, &r->fp, &row->flex);
	if (ret)
		return ret;
	if (abi->sframe_abi == SFRAME_ABI_AARCH64_BE || abi->sframe_abi == SFRAME_ABI_AARCH64_LE) {
		/* Its rows have no padding to say "FP saved, RA in LR". */
		if (r->fp.kind != SFRAME_LOC_SAME && r->ra.kind == SFRAME_LOC_SAME)
			return SKIP(SFRAME_SKIP_FP_WITHOUT_RA);
		r->ra_mangled = s->mangled;
	}
	return 0;
}

/*
 * The row [loc, next) is complete: hand it to the sink, unless it lies past
 * what the sink wants. The PLT's row is the sink's to split off.
 */
static int emit(struct cv_run *r, struct cv_sink *sink)
{
	struct cv_row *row = sink->next;
	int ret;

	if (r->loc >= sink->limit)
		return 0;
	/* Nothing SFrame sees changed: the same row as before, merged. */
	if (!r->dirty)
		return 0;
	if (r->st.cfa_kind == CV_CFA_PLT) {
		if (sink->plt)
			return r->st.cfa_off == sink->plt_k ? 0 : SKIP(SFRAME_SKIP_CFA_EXPR);
		/* ld's PCMASK rows hold only for 16-byte entries with RA at CFA-8. */
		if (r->abi->machine != SFRAME_EM_X86_64 || ((r->pc_begin + r->loc) & 15) ||
		    r->st.ra.kind != CV_RULE_OFFSET || r->st.ra.off != -8 ||
		    (r->st.fp.kind != CV_RULE_UNSET && r->st.fp.kind != CV_RULE_SAME) ||
		    (r->st.sp.kind != CV_RULE_UNSET && r->st.sp.kind != CV_RULE_SAME))
			return SKIP(SFRAME_SKIP_CFA_EXPR);
		sink->plt = true;
		sink->plt_k = (uint8_t)r->st.cfa_off;
		sink->plt_at = r->loc;
		return 0;
	}
	if (sink->plt)
		return SKIP(SFRAME_SKIP_CFA_EXPR);
	ret = cv_map_row(r->abi, r->version, &r->st, row);
	if (ret)
		return ret;
	r->dirty = false;
	row->start = (uint32_t)r->loc;
	if (row->flex)
		sink->flex = true;
	return sink->row(sink, row) ? 0 : SKIP(SFRAME_SKIP_RANGE);
}

static int advance(struct cv_run *r, struct cv_sink *sink, uint64_t delta)
{
	uint64_t to = r->loc + delta;
	int ret;

	if (r->in_cie)
		return SKIP(SFRAME_SKIP_MALFORMED);
	if (delta == 0)
		return 0;
	if (to < r->loc)
		to = ~(uint64_t)0;
	ret = emit(r, sink);
	r->loc = to;
	return ret;
}

static int cfa_expression(struct cv_run *r)
{
	struct cv_expr x;
	uint64_t len = cv_uleb(&r->c);

	cv_expr_shape(&r->c, len, &x);
	r->dirty = true;
	r->st.cfa_reg = x.reg;
	r->st.cfa_off = x.off;
	switch (x.shape) {
	case CV_EXPR_BREG:
		r->st.cfa_kind = CV_CFA_REG;
		break;
	case CV_EXPR_BREG_DEREF:
		r->st.cfa_kind = CV_CFA_DEREF;
		break;
	case CV_EXPR_PLT:
		r->st.cfa_kind = CV_CFA_PLT;
		r->st.cfa_reg = 0;
		r->st.cfa_off = x.k;
		break;
	default:
		r->st.cfa_kind = CV_CFA_OTHER;
		break;
	}
	return 0;
}

/* DW_CFA_expression / val_expression: a register-based address or value. */
static void reg_expression(struct cv_run *r, bool val)
{
	uint64_t reg = cv_uleb(&r->c);
	uint64_t len = cv_uleb(&r->c);
	struct cv_expr x;

	cv_expr_shape(&r->c, len, &x);
	if (x.shape == CV_EXPR_BREG)
		set_rule(r, reg, val ? CV_RULE_VAL_REG : CV_RULE_AT_REG, x.reg, x.off);
	else
		set_rule(r, reg, CV_RULE_OTHER, 0, 0);
}

/* def_cfa_register and def_cfa_offset change a reg + offset CFA only. */
static int cfa_part(struct cv_run *r, bool reg, uint64_t reg_no, int64_t off)
{
	if (r->st.cfa_kind != CV_CFA_REG)
		return SKIP(SFRAME_SKIP_MALFORMED);
	r->dirty = true;
	if (reg)
		r->st.cfa_reg = reg32(reg_no);
	else
		r->st.cfa_off = off;
	return 0;
}

static int remember(struct cv_run *r)
{
	if (r->depth == CV_STACK_DEPTH)
		return SKIP(SFRAME_SKIP_MALFORMED);
	r->stack[r->depth++] = r->st;
	return 0;
}

/* restore_state brings back the rules, not the location. */
static int restore_state(struct cv_run *r)
{
	if (r->depth == 0)
		return SKIP(SFRAME_SKIP_MALFORMED);
	r->st = r->stack[--r->depth];
	r->dirty = true;
	return 0;
}

/* The opcodes with an operand in their low six bits. */
static int compact_op(struct cv_run *r, struct cv_sink *sink, uint8_t op)
{
	const uint8_t lo = op & 0x3f;

	switch (op & 0xc0) {
	case 0x40:	/* DW_CFA_advance_loc */
		return advance(r, sink, lo * r->cie->code_align);
	case 0x80:	/* DW_CFA_offset */
		set_rule(r, lo, CV_RULE_OFFSET, 0, ufactored(cv_uleb(&r->c), r->cie->data_align));
		return 0;
	default:	/* DW_CFA_restore */
		restore_rule(r, lo);
		return 0;
	}
}

static int set_loc(struct cv_run *r, struct cv_sink *sink)
{
	uint64_t to;

	if (r->in_cie || !cv_pointer(&r->c, r->cie->fde_enc, &to) || to < r->pc_begin ||
	    to - r->pc_begin < r->loc)
		return SKIP(SFRAME_SKIP_MALFORMED);
	return advance(r, sink, to - r->pc_begin - r->loc);
}

/* AArch64's pointer-authentication opcodes; window_save elsewhere. */
static int vendor_op(struct cv_run *r, uint8_t op)
{
	if (r->abi->machine != SFRAME_EM_AARCH64)
		return SKIP(SFRAME_SKIP_PAUTH);
	switch (op) {
	case 0x2d:	/* DW_CFA_AARCH64_negate_ra_state */
		r->st.mangled = !r->st.mangled;
		r->dirty = true;
		return 0;
	case 0x2b:	/* DW_CFA_AARCH64_set_ra_state: state, offset */
		cv_uleb(&r->c);
		cv_sleb(&r->c);
		return SKIP(SFRAME_SKIP_PAUTH);
	default:	/* 0x2c DW_CFA_AARCH64_negate_ra_state_with_pc */
		return SKIP(SFRAME_SKIP_PAUTH);
	}
}

static int op(struct cv_run *r, struct cv_sink *sink, uint8_t op)
{
	struct cv_cursor *c = &r->c;
	const int64_t daf = r->cie->data_align;
	uint64_t reg, n;

	if (op & 0xc0)
		return compact_op(r, sink, op);
	switch (op) {
	case 0x00:	/* DW_CFA_nop */
		return 0;
	case 0x01:	/* DW_CFA_set_loc */
		return set_loc(r, sink);
	case 0x02:	/* DW_CFA_advance_loc1 */
		return advance(r, sink, cv_uint(c, 1) * r->cie->code_align);
	case 0x03:	/* DW_CFA_advance_loc2 */
		return advance(r, sink, cv_uint(c, 2) * r->cie->code_align);
	case 0x04:	/* DW_CFA_advance_loc4 */
		return advance(r, sink, cv_uint(c, 4) * r->cie->code_align);
	case 0x05:	/* DW_CFA_offset_extended */
		reg = cv_uleb(c);
		set_rule(r, reg, CV_RULE_OFFSET, 0, ufactored(cv_uleb(c), daf));
		return 0;
	case 0x06:	/* DW_CFA_restore_extended */
		restore_rule(r, cv_uleb(c));
		return 0;
	case 0x07:	/* DW_CFA_undefined */
		set_rule(r, cv_uleb(c), CV_RULE_UNDEF, 0, 0);
		return 0;
	case 0x08:	/* DW_CFA_same_value */
		set_rule(r, cv_uleb(c), CV_RULE_SAME, 0, 0);
		return 0;
	case 0x09:	/* DW_CFA_register */
		reg = cv_uleb(c);
		set_rule(r, reg, CV_RULE_REG, reg32(cv_uleb(c)), 0);
		return 0;
	case 0x0a:	/* DW_CFA_remember_state */
		return remember(r);
	case 0x0b:	/* DW_CFA_restore_state */
		return restore_state(r);
	case 0x0c:	/* DW_CFA_def_cfa */
		r->dirty = true;
		r->st.cfa_kind = CV_CFA_REG;
		r->st.cfa_reg = reg32(cv_uleb(c));
		n = cv_uleb(c);
		r->st.cfa_off = n > (uint64_t)CV_BIG ? CV_BIG : (int64_t)n;
		return 0;
	case 0x0d:	/* DW_CFA_def_cfa_register */
		return cfa_part(r, true, cv_uleb(c), 0);
	case 0x0e:	/* DW_CFA_def_cfa_offset */
		n = cv_uleb(c);
		return cfa_part(r, false, 0, n > (uint64_t)CV_BIG ? CV_BIG : (int64_t)n);
	case 0x0f:	/* DW_CFA_def_cfa_expression */
		return cfa_expression(r);
	case 0x10:	/* DW_CFA_expression */
		reg_expression(r, false);
		return 0;
	case 0x11:	/* DW_CFA_offset_extended_sf */
		reg = cv_uleb(c);
		set_rule(r, reg, CV_RULE_OFFSET, 0, factored(cv_sleb(c), daf));
		return 0;
	case 0x12:	/* DW_CFA_def_cfa_sf */
		r->dirty = true;
		r->st.cfa_kind = CV_CFA_REG;
		r->st.cfa_reg = reg32(cv_uleb(c));
		r->st.cfa_off = factored(cv_sleb(c), daf);
		return 0;
	case 0x13:	/* DW_CFA_def_cfa_offset_sf */
		return cfa_part(r, false, 0, factored(cv_sleb(c), daf));
	case 0x14:	/* DW_CFA_val_offset */
		reg = cv_uleb(c);
		set_rule(r, reg, CV_RULE_VAL_OFFSET, 0, ufactored(cv_uleb(c), daf));
		return 0;
	case 0x15:	/* DW_CFA_val_offset_sf */
		reg = cv_uleb(c);
		set_rule(r, reg, CV_RULE_VAL_OFFSET, 0, factored(cv_sleb(c), daf));
		return 0;
	case 0x16:	/* DW_CFA_val_expression */
		reg_expression(r, true);
		return 0;
	case 0x2b:
	case 0x2c:
	case 0x2d:
		return vendor_op(r, op);
	case 0x2e:	/* DW_CFA_GNU_args_size: for landing pads, not for the CFA */
		cv_uleb(c);
		return 0;
	case 0x2f:	/* DW_CFA_GNU_negative_offset_extended */
		reg = cv_uleb(c);
		set_rule(r, reg, CV_RULE_OFFSET, 0, -ufactored(cv_uleb(c), daf));
		return 0;
	default:
		/* An unknown opcode's operands have no known length. */
		return SKIP(SFRAME_SKIP_MALFORMED);
	}
}

static int run(struct cv_run *r, struct cv_sink *sink)
{
	uint8_t b;
	int ret;

	while (r->c.pos < r->c.end) {
		b = (uint8_t)cv_uint(&r->c, 1);
		ret = op(r, sink, b);
		if (r->c.bad)
			return SKIP(SFRAME_SKIP_MALFORMED);
		if (ret)
			return ret;
		/* Rows past the range describe nothing. */
		if (sink && r->loc >= sink->limit)
			return 0;
	}
	return 0;
}

/*
 * The CIE's initial instructions, once per CIE. A CIE whose return column
 * is not the ABI's cannot serve any FDE; its reason is kept for them.
 */
int cv_run_cie(const struct cv_abi *abi, struct cv_cursor *sec, struct cv_cie_state *cs)
{
	struct cv_run r = { .abi = abi, .c = *sec, .cie = &cs->cie, .in_cie = true };

	cs->skip = 0;
	if (cs->cie.ra_col != abi->ra) {
		cs->skip = SKIP(SFRAME_SKIP_RA_COLUMN);
		return cs->skip;
	}
	if (cs->cie.code_align > 0xffffffffu) {
		cs->skip = SKIP(SFRAME_SKIP_MALFORMED);
		return cs->skip;
	}
	r.c.pos = cs->cie.insns;
	r.c.end = cs->cie.insns_end;
	r.c.bad = false;
	cs->skip = run(&r, NULL);
	cs->init = r.st;
	return cs->skip;
}

int cv_run_fde(const struct cv_abi *abi, uint8_t version, struct cv_cursor *sec,
	       const struct cv_cie_state *cs, const struct cv_fde *fde, struct cv_sink *sink)
{
	struct cv_run r;
	int ret;

	if (cs->skip)
		return cs->skip;
	/* Field by field: the remember stack needs no clearing. */
	r.abi = abi;
	r.version = version;
	r.c = *sec;
	r.cie = &cs->cie;
	r.init = &cs->init;
	r.st = cs->init;
	r.depth = 0;
	r.pc_begin = fde->pc_begin;
	r.loc = 0;
	r.in_cie = false;
	r.dirty = true;
	r.c.pos = fde->insns;
	r.c.end = fde->insns_end;
	r.c.bad = false;
	sink->flex = false;
	sink->plt = false;
	ret = run(&r, sink);
	if (!ret)
		ret = emit(&r, sink);
	return ret;
}
