/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_convert.c - the DWARF-CFI-to-SFrame converter (sframe_convert.h) on
 * hand-built .eh_frame and .debug_frame bytes.
 *
 * A small CFI writer (struct cfi) lays out CIEs and FDEs as GCC and gas do:
 * 32-bit or 64-bit DWARF, either byte order, CIE versions 1, 3 and 4, the
 * augmentations z, R, P, L, S, B and "eh", every DW_EH_PE pointer format.
 * Each test converts the bytes and reads the result back with the reader
 * alone: sframe_open_buffer() and sframe_check() must accept it, and
 * sframe_lookup() at every PC of every function must
 * give the rules the DWARF instructions define there (DWARF 5, 6.4; the GNU
 * and AArch64 extensions as binutils' readelf -wF interprets them). The
 * expected rows are written beside the instructions; where a row is not
 * obvious a comment derives it.
 *
 * The rules are given as the reader decodes SFrame rows (sframe.h): a saved
 * register is SFRAME_LOC_CFA with deref at its offset from the CFA; one in
 * another register SFRAME_LOC_REG; one not saved SFRAME_LOC_SAME (on AArch64
 * and s390x an RA with no rule is still in the link register); x86-64's RA
 * at CFA-8 is the header's fixed offset.
 *
 * With SFRAME_TEST_CFI_DUMP=DIR set in the environment, every .eh_frame and
 * .debug_frame built here is also written to DIR (one file per conversion,
 * with its address in the name), to check the expectations with binutils:
 * objcopy the bytes into an ELF at that address and run readelf -wF on it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sframe/sframe.h>
#include <sframe/sframe_convert.h>

#include "rules_equal.h"

/* ---- DWARF call-frame constants (DWARF 5, 7.24; GNU; AArch64) ------------- */

enum {
	CFA_advance_loc = 0x40,
	CFA_offset = 0x80,
	CFA_restore = 0xc0,
	CFA_nop = 0x00,
	CFA_set_loc = 0x01,
	CFA_advance_loc1 = 0x02,
	CFA_advance_loc2 = 0x03,
	CFA_advance_loc4 = 0x04,
	CFA_offset_extended = 0x05,
	CFA_restore_extended = 0x06,
	CFA_undefined = 0x07,
	CFA_same_value = 0x08,
	CFA_register = 0x09,
	CFA_remember_state = 0x0a,
	CFA_restore_state = 0x0b,
	CFA_def_cfa = 0x0c,
	CFA_def_cfa_register = 0x0d,
	CFA_def_cfa_offset = 0x0e,
	CFA_def_cfa_expression = 0x0f,
	CFA_expression = 0x10,
	CFA_offset_extended_sf = 0x11,
	CFA_def_cfa_sf = 0x12,
	CFA_def_cfa_offset_sf = 0x13,
	CFA_val_offset = 0x14,
	CFA_val_offset_sf = 0x15,
	CFA_val_expression = 0x16,
	CFA_AARCH64_set_ra_state = 0x2b,
	CFA_AARCH64_negate_ra_state_with_pc = 0x2c,
	CFA_AARCH64_negate_ra_state = 0x2d,
	CFA_GNU_args_size = 0x2e,
	CFA_GNU_negative_offset_extended = 0x2f,
};

enum {
	OP_deref = 0x06,
	OP_and = 0x1a,
	OP_plus = 0x22,
	OP_shl = 0x24,
	OP_ge = 0x2a,
	OP_lit0 = 0x30,
	OP_breg0 = 0x70,
};

/* DW_EH_PE_* */
enum {
	PE_absptr = 0x00,
	PE_uleb128 = 0x01,
	PE_udata2 = 0x02,
	PE_udata4 = 0x03,
	PE_udata8 = 0x04,
	PE_sleb128 = 0x09,
	PE_sdata2 = 0x0a,
	PE_sdata4 = 0x0b,
	PE_sdata8 = 0x0c,
	PE_pcrel = 0x10,
	PE_datarel = 0x30,
	PE_aligned = 0x50,
	PE_indirect = 0x80,
	PE_omit = 0xff,
};

/* DWARF register numbers. */
#define X_RAX	0
#define X_RBX	3
#define X_RBP	6
#define X_RSP	7
#define X_R10	10
#define X_R11	11
#define X_R12	12
#define X_RA	16
#define A_X9	9
#define A_FP	29
#define A_LR	30
#define A_SP	31
#define Z_R11	11
#define Z_R12	12
#define Z_R14	14
#define Z_R15	15
#define Z_F0	16	/* f0 */
#define Z_F2	17	/* f2: FPRs are numbered f0 f2 f4 f6 f1 f3 ... */

/* Where the tests put things: text below .eh_frame (so that PC-relative
 * starts are negative, as in linked files), the output above both. */
#define EH_ADDR		0x4000u
#define SFRAME_ADDR	0x8000u

/* ---- The CFI writer --------------------------------------------------------- */

struct cfi {
	uint8_t b[4096];
	size_t n;
	bool be;
	uint64_t addr;		/* address of byte 0: the base of pcrel pointers */
	bool debug;		/* .debug_frame: CIE id all ones, absolute CIE pointer */
	bool dwarf64;		/* 64-bit DWARF (.debug_frame) */
	size_t start;		/* the entry being written */
	size_t zlen;		/* its augmentation-data length byte, 0: none */
};

static void cfi_init(struct cfi *c, bool be, uint64_t addr, bool debug, bool dwarf64)
{
	memset(c, 0, sizeof(*c));
	c->be = be;
	c->addr = addr;
	c->debug = debug;
	c->dwarf64 = dwarf64;
}

static void c_u8(struct cfi *c, unsigned v)
{
	assert_true(c->n < sizeof(c->b));
	c->b[c->n++] = (uint8_t)v;
}

static void c_put(struct cfi *c, size_t at, uint64_t v, unsigned width)
{
	unsigned i;

	assert_true(at + width <= sizeof(c->b));
	for (i = 0; i < width; i++) {
		unsigned shift = 8 * (c->be ? width - 1 - i : i);

		c->b[at + i] = (uint8_t)(v >> shift);
	}
}

static void c_un(struct cfi *c, uint64_t v, unsigned width)
{
	c_put(c, c->n, v, width);
	c->n += width;
}

static void c_uleb(struct cfi *c, uint64_t v)
{
	do {
		uint8_t byte = v & 0x7f;

		v >>= 7;
		c_u8(c, byte | (v ? 0x80 : 0));
	} while (v);
}

static void c_sleb(struct cfi *c, int64_t v)
{
	for (;;) {
		uint8_t byte = (uint8_t)(v & 0x7f);
		bool done;

		v >>= 7;	/* arithmetic: gcc and clang sign-extend */
		done = (v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40));
		c_u8(c, byte | (done ? 0 : 0x80));
		if (done)
			return;
	}
}

static void c_bytes(struct cfi *c, const void *p, size_t n)
{
	assert_true(c->n + n <= sizeof(c->b));
	memcpy(c->b + c->n, p, n);
	c->n += n;
}

/* The base of DW_EH_PE_datarel as these tests write it (the converter is
 * given none, so it cannot know it). */
#define DATAREL_BASE	0x3000u

/* An encoded pointer (DW_EH_PE_*) whose value is @v, at the current offset. */
static void c_ptr(struct cfi *c, unsigned enc, uint64_t v)
{
	if (enc == PE_omit)
		return;
	if ((enc & 0x70) == PE_aligned) {
		/* Aligned to the pointer size in memory, then an absolute one. */
		while ((c->addr + c->n) % 8)
			c_u8(c, 0);
		c_un(c, v, 8);
		return;
	}
	if ((enc & 0x70) == PE_pcrel)
		v -= c->addr + c->n;
	else if ((enc & 0x70) == PE_datarel)
		v -= DATAREL_BASE;
	switch (enc & 0x0f) {
	case PE_absptr:
	case PE_udata8:
	case PE_sdata8:
		c_un(c, v, 8);
		break;
	case PE_uleb128:
		c_uleb(c, v);
		break;
	case PE_sleb128:
		c_sleb(c, (int64_t)v);
		break;
	case PE_udata2:
	case PE_sdata2:
		c_un(c, v, 2);
		break;
	case PE_udata4:
	case PE_sdata4:
		c_un(c, v, 4);
		break;
	default:
		fail_msg("pointer format %#x", enc);
	}
}

/* Starts an entry: its length field, patched by entry_end(). */
static size_t entry_begin(struct cfi *c)
{
	c->start = c->n;
	if (c->dwarf64) {
		c_un(c, 0xffffffffu, 4);
		c_un(c, 0, 8);
	} else {
		c_un(c, 0, 4);
	}
	return c->start;
}

/*
 * Ends an entry: DW_CFA_nop up to a multiple of 8 bytes (as GCC pads), then
 * the length. @pad false: no padding (for entries that end mid-instruction).
 */
static void entry_end_pad(struct cfi *c, bool pad)
{
	size_t hdr = c->dwarf64 ? 12 : 4;

	while (pad && (c->n - c->start) % 8)
		c_u8(c, CFA_nop);
	if (c->dwarf64)
		c_put(c, c->start + 4, c->n - c->start - hdr, 8);
	else
		c_put(c, c->start, c->n - c->start - hdr, 4);
}

static void entry_end(struct cfi *c)
{
	entry_end_pad(c, true);
}

/*
 * A CIE up to its augmentation data: with "z" in @aug, the caller writes the
 * data (c_u8(), c_ptr()) and calls aug_end(); then the initial instructions
 * and entry_end(). Version 1 stores the RA column in a byte, 3 and 4 as a
 * ULEB128; version 4 adds the address and segment selector sizes.
 */
static size_t cie_begin(struct cfi *c, unsigned version, const char *aug, uint64_t code_align,
			int64_t data_align, unsigned ra)
{
	size_t off = entry_begin(c);

	if (c->debug)
		c_un(c, c->dwarf64 ? UINT64_MAX : 0xffffffffu, c->dwarf64 ? 8 : 4);
	else
		c_un(c, 0, 4);
	c_u8(c, version);
	c_bytes(c, aug, strlen(aug) + 1);
	if (!strcmp(aug, "eh"))
		c_un(c, 0x5a5a5a5a5a5a5a5aull, 8);	/* the old "eh" data pointer */
	if (version == 4) {
		c_u8(c, 8);	/* address_size */
		c_u8(c, 0);	/* segment_selector_size */
	}
	c_uleb(c, code_align);
	c_sleb(c, data_align);
	if (version == 1)
		c_u8(c, ra);
	else
		c_uleb(c, ra);
	c->zlen = 0;
	if (aug[0] == 'z') {
		c->zlen = c->n;
		c_u8(c, 0);
	}
	return off;
}

/* The end of the augmentation data: its length (under 128 here). */
static void aug_end(struct cfi *c)
{
	if (c->zlen) {
		assert_true(c->n - c->zlen - 1 < 128);
		c->b[c->zlen] = (uint8_t)(c->n - c->zlen - 1);
		c->zlen = 0;
	}
}

/*
 * An FDE up to its instructions. .eh_frame: the CIE pointer is the distance
 * back from the field to the CIE; .debug_frame: the CIE's section offset.
 * @enc is the CIE's R encoding (absptr without R); the range takes its
 * format only. @z: the CIE has "z": augmentation data follow, with an LSDA
 * pointer when @lsda_enc is not PE_omit.
 */
static size_t fde_begin_lsda(struct cfi *c, size_t cie, unsigned enc, uint64_t start,
			     uint64_t range, bool z, unsigned lsda_enc, uint64_t lsda)
{
	size_t off = entry_begin(c);

	if (c->debug)
		c_un(c, cie, c->dwarf64 ? 8 : 4);
	else
		c_un(c, c->n - cie, 4);
	c_ptr(c, enc, start);
	c_ptr(c, enc & 0x0f, range);
	if (z) {
		c->zlen = c->n;
		c_u8(c, 0);
		c_ptr(c, lsda_enc, lsda);
		aug_end(c);
	}
	return off;
}

static size_t fde_begin(struct cfi *c, size_t cie, unsigned enc, uint64_t start, uint64_t range,
			bool z)
{
	return fde_begin_lsda(c, cie, enc, start, range, z, PE_omit, 0);
}

/* Instructions. */
static void op(struct cfi *c, unsigned code)
{
	c_u8(c, code);
}

static void op_u(struct cfi *c, unsigned code, uint64_t a)
{
	c_u8(c, code);
	c_uleb(c, a);
}

static void op_uu(struct cfi *c, unsigned code, uint64_t a, uint64_t b)
{
	c_u8(c, code);
	c_uleb(c, a);
	c_uleb(c, b);
}

static void op_us(struct cfi *c, unsigned code, uint64_t a, int64_t b)
{
	c_u8(c, code);
	c_uleb(c, a);
	c_sleb(c, b);
}

static void op_s(struct cfi *c, unsigned code, int64_t a)
{
	c_u8(c, code);
	c_sleb(c, a);
}

/* DW_CFA_advance_loc with its delta in the low six bits. */
static void adv(struct cfi *c, unsigned delta)
{
	assert_true(delta < 64);
	c_u8(c, CFA_advance_loc | delta);
}

/* DW_CFA_offset: register (< 64) in the low six bits, factored offset. */
static void off_(struct cfi *c, unsigned reg, uint64_t factored)
{
	assert_true(reg < 64);
	c_u8(c, CFA_offset | reg);
	c_uleb(c, factored);
}

static void rest(struct cfi *c, unsigned reg)
{
	assert_true(reg < 64);
	c_u8(c, CFA_restore | reg);
}

/* DW_OP_bregN SLEB */
static size_t expr_breg(uint8_t *e, unsigned reg, int8_t k)
{
	assert_true(reg < 32 && k > -64 && k < 64);
	e[0] = (uint8_t)(OP_breg0 + reg);
	e[1] = (uint8_t)k & 0x7f;
	return 2;
}

/* DW_CFA_def_cfa_expression / DW_CFA_expression / DW_CFA_val_expression. */
static void op_expr(struct cfi *c, unsigned code, int reg, const uint8_t *e, size_t n)
{
	c_u8(c, code);
	if (reg >= 0)
		c_uleb(c, (uint64_t)reg);
	c_uleb(c, n);
	c_bytes(c, e, n);
}

/* CFA = *(reg + k): DW_OP_bregN k; DW_OP_deref. */
static void def_cfa_deref(struct cfi *c, unsigned reg, int8_t k)
{
	uint8_t e[3];
	size_t n = expr_breg(e, reg, k);

	e[n++] = OP_deref;
	op_expr(c, CFA_def_cfa_expression, -1, e, n);
}

/* REG saved at reg2 + k: DW_CFA_expression REG (DW_OP_breg<reg2> k). */
static void saved_at_reg(struct cfi *c, unsigned reg, unsigned reg2, int8_t k)
{
	uint8_t e[2];

	op_expr(c, CFA_expression, (int)reg, e, expr_breg(e, reg2, k));
}

/*
 * The x86-64 PLT's CFA expression (GNU ld's lazy PLT entries):
 * CFA = rsp + 8 + ((rip & 15) >= K) << 3.
 */
static void def_cfa_plt(struct cfi *c, unsigned k)
{
	const uint8_t e[] = {
		OP_breg0 + X_RSP, 8, OP_breg0 + X_RA, 0, OP_lit0 + 15, OP_and,
		(uint8_t)(OP_lit0 + k), OP_ge, OP_lit0 + 3, OP_shl, OP_plus,
	};

	assert_true(k < 32);
	op_expr(c, CFA_def_cfa_expression, -1, e, sizeof(e));
}

/* Typical CIEs. */

/* x86-64, as GCC writes it: v1 "zR", CFA = rsp + 8, RA at CFA - 8. */
static size_t cie_x86(struct cfi *c, const char *aug, unsigned enc)
{
	size_t off = cie_begin(c, 1, aug, 1, -8, X_RA);
	const char *a;

	for (a = aug + 1; aug[0] == 'z' && *a; a++) {
		if (*a == 'R')
			c_u8(c, enc);
	}
	aug_end(c);
	op_uu(c, CFA_def_cfa, X_RSP, 8);
	off_(c, X_RA, 1);
	entry_end(c);
	return off;
}

/* AArch64: v1 "zR" (+ "B"), code 4, data -8, RA x30, CFA = sp. */
static size_t cie_a64(struct cfi *c, const char *aug)
{
	size_t off = cie_begin(c, 1, aug, 4, -8, A_LR);

	c_u8(c, PE_pcrel | PE_sdata4);
	aug_end(c);
	op_uu(c, CFA_def_cfa, A_SP, 0);
	entry_end(c);
	return off;
}

/* s390x: v1 "zR", code 1, data -8, RA r14, CFA = r15 + 160. */
static size_t cie_s390(struct cfi *c)
{
	size_t off = cie_begin(c, 1, "zR", 1, -8, Z_R14);

	c_u8(c, PE_pcrel | PE_sdata4);
	aug_end(c);
	op_uu(c, CFA_def_cfa, Z_R15, 160);
	entry_end(c);
	return off;
}

#define PCREL4	(PE_pcrel | PE_sdata4)

/* ---- Expected rules -------------------------------------------------------- */

static struct sframe_loc same(void)
{
	return (struct sframe_loc){ .kind = SFRAME_LOC_SAME };
}

/* Saved at CFA + @off. */
static struct sframe_loc slot(int32_t off)
{
	return (struct sframe_loc){ .kind = SFRAME_LOC_CFA, .deref = true, .offset = off };
}

/* In register @reg. */
static struct sframe_loc in_reg(uint32_t reg)
{
	return (struct sframe_loc){ .kind = SFRAME_LOC_REG, .reg = reg };
}

/* Saved at @reg + @off. */
static struct sframe_loc at_reg(uint32_t reg, int32_t off)
{
	return (struct sframe_loc){ .kind = SFRAME_LOC_REG, .deref = true, .reg = reg, .offset = off };
}

static struct sframe_rules rl(uint32_t reg, int32_t off, struct sframe_loc ra, struct sframe_loc fp)
{
	return (struct sframe_rules){ .cfa = { .reg = reg, .offset = off }, .ra = ra, .fp = fp };
}

/* CFA = *(reg + off). */
static struct sframe_rules rl_deref(uint32_t reg, int32_t off, struct sframe_loc ra,
				    struct sframe_loc fp)
{
	struct sframe_rules r = rl(reg, off, ra, fp);

	r.cfa.deref = true;
	return r;
}

/* The RA undefined: the reader decodes a row without words this way. */
static struct sframe_rules outermost(void)
{
	struct sframe_rules r = { 0 };

	r.ra_undefined = true;
	r.ra.kind = SFRAME_LOC_UNDEFINED;
	r.fp = same();
	return r;
}

static struct sframe_rules mangled(struct sframe_rules r)
{
	r.ra_mangled = true;
	return r;
}

static struct sframe_rules sig(struct sframe_rules r)
{
	r.signal = true;
	return r;
}

/* x86-64: CFA = rsp + @off, RA at CFA - 8, FP unchanged. */
static struct sframe_rules X(int32_t off)
{
	return rl(X_RSP, off, slot(-8), same());
}

/* x86-64: CFA = @reg + @off, RA at CFA - 8, FP at CFA + @fp. */
static struct sframe_rules XF(uint32_t reg, int32_t off, int32_t fp)
{
	return rl(reg, off, slot(-8), slot(fp));
}

/* ---- Conversion and checks ------------------------------------------------- */

/* A row from function offset @from on. */
struct row {
	uint32_t from;
	struct sframe_rules r;
};

#define OUT_MAX 65536

static uint8_t out_mem[OUT_MAX + 1];
static uint8_t *out = out_mem + 1;	/* the converter's output, unaligned on purpose */
static size_t out_len;
static struct sframe_convert_stats st;
static struct sframe_section sec;
static struct sframe_buffer sbuf;
static unsigned dump_seq;

static const char *errname(int err)
{
	return sframe_convert_errname(err);
}

#define assert_cerr(got, want) do { \
	int got_ = (got), want_ = (want); \
	if (got_ != want_) \
		fail_msg("%s: %d (%s), expected %d (%s)", #got, got_, errname(got_), want_, \
			 errname(want_)); \
} while (0)

static void dump_one(const char *what, const struct sframe_cfi_bytes *b)
{
	const char *dir = getenv("SFRAME_TEST_CFI_DUMP");
	char path[512];
	FILE *f;

	if (!dir || !b->data)
		return;
	snprintf(path, sizeof(path), "%s/%03u-%s-0x%" PRIx64 ".bin", dir, dump_seq, what, b->addr);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b->data, 1, (size_t)b->size, f), (size_t)b->size);
	fclose(f);
}

static struct sframe_convert_input input(uint16_t machine, bool be, uint8_t version,
					 const struct cfi *eh, const struct cfi *dbg)
{
	struct sframe_convert_input in = { 0 };

	in.machine = machine;
	in.big_endian = be;
	in.version = version;
	in.sframe_addr = SFRAME_ADDR;
	if (eh) {
		in.eh_frame.data = eh->b;
		in.eh_frame.size = eh->n;
		in.eh_frame.addr = eh->addr;
	}
	if (dbg) {
		in.debug_frame.data = dbg->b;
		in.debug_frame.size = dbg->n;
	}
	return in;
}

static void stats_equal(const struct sframe_convert_stats *a, const struct sframe_convert_stats *b)
{
	unsigned i;

	assert_int_equal(a->cies, b->cies);
	assert_int_equal(a->fdes, b->fdes);
	assert_int_equal(a->functions, b->functions);
	assert_int_equal(a->rows, b->rows);
	assert_int_equal(a->text_bytes, b->text_bytes);
	assert_int_equal(a->flex, b->flex);
	assert_int_equal(a->pcmask, b->pcmask);
	assert_int_equal(a->signal, b->signal);
	assert_int_equal(a->outermost, b->outermost);
	for (i = 0; i < SFRAME_SKIP_COUNT; i++) {
		assert_int_equal(a->skipped[i], b->skipped[i]);
		assert_int_equal(a->skipped_bytes[i], b->skipped_bytes[i]);
	}
	assert_int_equal(a->problem_offset, b->problem_offset);
	assert_int_equal(a->problem_in_debug_frame, b->problem_in_debug_frame);
}

static uint8_t abi_of(const struct sframe_convert_input *in)
{
	switch (in->machine) {
	case SFRAME_EM_X86_64:
		return SFRAME_ABI_AMD64_LE;
	case SFRAME_EM_AARCH64:
		return in->big_endian ? SFRAME_ABI_AARCH64_BE : SFRAME_ABI_AARCH64_LE;
	default:
		return SFRAME_ABI_S390X_BE;
	}
}

/*
 * Converts @in: sframe_convert_size(), then sframe_convert() into exactly
 * that many bytes (unaligned), again without stats; the section must open,
 * pass sframe_check() and carry the header the converter promises. Fills
 * out/out_len, st (sframe_convert()'s stats) and sec.
 */
static void convert_ok(const struct sframe_convert_input *in)
{
	struct sframe_convert_stats st_size;
	static uint8_t again[OUT_MAX];
	struct sframe_problem where;
	size_t size = 0, len2 = 0;
	unsigned dup;
	int err;

	dump_seq++;
	dump_one("eh_frame", &in->eh_frame);
	dump_one("debug_frame", &in->debug_frame);

	memset(&st_size, 0xa5, sizeof(st_size));
	assert_cerr(sframe_convert_size(in, &size, &st_size), 0);
	assert_true(size >= SFRAME_HDR_SIZE && size <= OUT_MAX);
	memset(&st, 0xa5, sizeof(st));
	memset(out_mem, 0xee, sizeof(out_mem));
	out_len = 0;
	err = sframe_convert(in, out, size, &out_len, &st);
	if (err == -SFRAME_CONVERT_ERR_SPACE) {
		size_t need = size;

		while (need < OUT_MAX && sframe_convert(in, out, need, &out_len, NULL))
			need++;
		fail_msg("sframe_convert_size() said %zu bytes, sframe_convert() needs %zu", size,
			 need);
	}
	assert_cerr(err, 0);
	assert_true(out_len >= SFRAME_HDR_SIZE && out_len <= size);
	/* The same statistics, unless functions were described twice (the
	 * size's exactness is test_size_exact()'s). */
	dup = st.skipped[SFRAME_SKIP_DUPLICATE];
	if (dup == 0)
		stats_equal(&st_size, &st);
	/* The same bytes without stats. */
	assert_cerr(sframe_convert(in, again, size, &len2, NULL), 0);
	assert_int_equal(len2, out_len);
	assert_memory_equal(again, out, out_len);
	/* And in a larger buffer, a caller's guess that skips the size query:
	 * the working records sit further up, the section is the same. */
	if (size + size / 2 + 64 <= OUT_MAX) {
		memset(again, 0xee, sizeof(again));
		assert_cerr(sframe_convert(in, again, size + size / 2 + 64, &len2, NULL), 0);
		assert_int_equal(len2, out_len);
		assert_memory_equal(again, out, out_len);
	}

	assert_cerr(sframe_open_buffer(&sec, &sbuf, out, out_len, in->sframe_addr), 0);
	where.fde = where.fre = 0;
	assert_cerr(sframe_check(&sec, &where), 0);

	/* Header: magic in the input's byte order, version, flags, ABI. */
	if (in->big_endian) {
		assert_int_equal(out[0], 0xde);
		assert_int_equal(out[1], 0xe2);
	} else {
		assert_int_equal(out[0], 0xe2);
		assert_int_equal(out[1], 0xde);
	}
	assert_int_equal(out[SFRAME_HDR_VERSION], in->version ? in->version : SFRAME_VERSION_3);
	assert_int_equal(out[SFRAME_HDR_FLAGS],
			 SFRAME_F_FDE_SORTED | SFRAME_F_FDE_FUNC_START_PCREL);
	assert_int_equal(out[SFRAME_HDR_ABI], abi_of(in));
	assert_int_equal(sec.big_endian, in->big_endian);
	/* x86-64's RA is at CFA - 8 in every frame: the header says so (as gas's). */
	assert_int_equal(sec.fixed_ra, in->machine == SFRAME_EM_X86_64 ? -8 : 0);
	assert_int_equal(sec.fixed_fp, 0);
	assert_int_equal(sec.num_fdes, st.functions);
	assert_int_equal(sec.num_fres, st.rows);
	assert_int_equal(st.problem_offset == UINT64_MAX, !st.skipped[SFRAME_SKIP_MALFORMED]);
}

static void print_rules(const char *what, const struct sframe_rules *r)
{
	print_message("  %s: cfa r%u%s%+d ra k%u r%u%s%+d fp k%u r%u%s%+d%s%s%s\n", what,
		      r->cfa.reg, r->cfa.deref ? "*" : "", r->cfa.offset, r->ra.kind, r->ra.reg,
		      r->ra.deref ? "*" : "", r->ra.offset, r->fp.kind, r->fp.reg,
		      r->fp.deref ? "*" : "", r->fp.offset, r->ra_undefined ? " undef" : "",
		      r->ra_mangled ? " mangled" : "", r->signal ? " signal" : "");
}

static bool rules_same(const struct sframe_rules *a, const struct sframe_rules *b)
{
	return a->cfa.reg == b->cfa.reg && a->cfa.deref == b->cfa.deref &&
	       a->cfa.offset == b->cfa.offset && a->ra.kind == b->ra.kind &&
	       a->ra.deref == b->ra.deref && a->ra.reg == b->ra.reg &&
	       a->ra.offset == b->ra.offset && a->fp.kind == b->fp.kind &&
	       a->fp.deref == b->fp.deref && a->fp.reg == b->fp.reg &&
	       a->fp.offset == b->fp.offset && a->ra_undefined == b->ra_undefined &&
	       a->ra_mangled == b->ra_mangled && a->signal == b->signal;
}

/*
 * The function [@start, @start + @size) is one SFrame FDE of @nfres rows
 * (0: not checked) whose rules at every PC are those of the last of @rows
 * (ascending) starting at or before it. Looked up at every PC by
 * sframe_lookup().
 */
static void expect_fn(uint64_t start, uint32_t size, uint32_t nfres, const struct row *rows,
		      size_t n)
{
	uint64_t pc;

	for (pc = start; pc < start + size; pc++) {
		const struct sframe_rules *want = NULL;
		struct sframe_row row;
		size_t i;
		int err;

		for (i = 0; i < n; i++) {
			if (rows[i].from <= pc - start)
				want = &rows[i].r;
		}
		assert_non_null(want);
		err = sframe_lookup(&sec, pc, &row);
		if (err)
			fail_msg("pc %#" PRIx64 ": %s", pc, errname(err));
		assert_int_equal(row.fde.func_start, start);
		assert_int_equal(row.fde.func_size, size);
		if (nfres)
			assert_int_equal(row.fde.num_fres, nfres);
		if (!rules_same(&row.rules, want)) {
			print_message("pc %#" PRIx64 " (+%#" PRIx64 "):\n", pc, pc - start);
			print_rules("got     ", &row.rules);
			print_rules("expected", want);
		}
		assert_rules_equal(&row.rules, want);
	}
}

/* No function covers [@start, @start + @size). */
static void expect_none(uint64_t start, uint32_t size)
{
	uint64_t pc;

	for (pc = start; pc < start + size; pc++) {
		struct sframe_row row;
		int err = sframe_lookup(&sec, pc, &row);

		if (err == 0)
			fail_msg("pc %#" PRIx64 " is in a function at %#" PRIx64 " (+%#x)", pc,
				 row.fde.func_start, row.fde.func_size);
		assert_cerr(err, -SFRAME_ERR_NOT_FOUND);
		if (row.fde.index != SFRAME_NO_INDEX)
			fail_msg("pc %#" PRIx64 " is in a function at %#" PRIx64, pc,
				 row.fde.func_start);
	}
}

/* The FDE that covers @pc. */
static struct sframe_fde fde_at(uint64_t pc)
{
	struct sframe_row row;

	assert_cerr(sframe_lookup(&sec, pc, &row), 0);
	return row.fde;
}

static unsigned skipped_total(void)
{
	unsigned i, n = 0;

	for (i = 0; i < SFRAME_SKIP_COUNT; i++)
		n += st.skipped[i];
	return n;
}

#define ROWS(...) ((const struct row[]){ __VA_ARGS__ }), \
	sizeof((const struct row[]){ __VA_ARGS__ }) / sizeof(struct row)

/* ---- x86-64: rows, merging, the range, the RA column --------------------- */

/*
 * CIE "zR" (pcrel sdata4) and a decoy CIE whose RA column is 15: an FDE
 * that used the wrong CIE would come out left out or with other rules.
 *
 * F1 at 0x1000, 0x40 bytes:
 *   +0    CFA rsp+8 (CIE)
 *   +1    def_cfa_offset 16, offset rbp c-16 (DW_CFA_offset r6, 2 * -8)
 *   +4    def_cfa_register rbp: CFA rbp+16 (the offset kept)
 *   +0x14 offset rbx: no SFrame rule changes, so no new row
 *   +0x24 def_cfa rsp 8, restore rbp: the CIE's rule for rbp is none: unchanged
 *   +0x28 nothing but nops
 * Four rows.
 * F2 at 0x1100 uses the decoy: left out (ra-column).
 * F3 at 0x1200, 0x20 bytes: a row at +0x10, then one at +0x30, past its end:
 * ignored. Two rows.
 */
static void test_x86_rows(void **state)
{
	struct sframe_convert_input in;
	struct cfi c;
	size_t decoy, cie;

	(void)state;
	cfi_init(&c, false, EH_ADDR, false, false);
	decoy = cie_begin(&c, 1, "zR", 1, -8, 15);
	c_u8(&c, PCREL4);
	aug_end(&c);
	op_uu(&c, CFA_def_cfa, X_RSP, 8);
	off_(&c, 15, 1);
	entry_end(&c);
	cie = cie_x86(&c, "zR", PCREL4);

	fde_begin(&c, cie, PCREL4, 0x1000, 0x40, true);
	adv(&c, 1);
	op_u(&c, CFA_def_cfa_offset, 16);
	off_(&c, X_RBP, 2);
	adv(&c, 3);
	op_u(&c, CFA_def_cfa_register, X_RBP);
	op_u(&c, CFA_advance_loc1, 0x10);
	off_(&c, X_RBX, 3);
	op_u(&c, CFA_def_cfa_offset, 16);
	c_u8(&c, CFA_advance_loc2);
	c_un(&c, 0x10, 2);
	op_uu(&c, CFA_def_cfa, X_RSP, 8);
	rest(&c, X_RBP);
	c_u8(&c, CFA_advance_loc4);
	c_un(&c, 4, 4);
	op(&c, CFA_nop);
	op(&c, CFA_nop);
	entry_end(&c);

	fde_begin(&c, decoy, PCREL4, 0x1100, 0x10, true);
	adv(&c, 1);
	op_u(&c, CFA_def_cfa_offset, 16);
	entry_end(&c);

	fde_begin(&c, cie, PCREL4, 0x1200, 0x20, true);
	adv(&c, 0x10);
	op_u(&c, CFA_def_cfa_offset, 16);
	op_u(&c, CFA_advance_loc1, 0x20);
	op_u(&c, CFA_def_cfa_offset, 32);
	entry_end(&c);

	in = input(SFRAME_EM_X86_64, false, 0, &c, NULL);
	convert_ok(&in);
	expect_fn(0x1000, 0x40, 4, ROWS({ 0, X(8) }, { 1, XF(X_RSP, 16, -16) },
					 { 4, XF(X_RBP, 16, -16) }, { 0x24, X(8) }));
	expect_none(0x1100, 0x10);
	expect_fn(0x1200, 0x20, 2, ROWS({ 0, X(8) }, { 0x10, X(16) }));
	expect_none(0x1040, 0x10);

	assert_int_equal(st.cies, 2);
	assert_int_equal(st.fdes, 3);
	assert_int_equal(st.functions, 2);
	assert_int_equal(st.rows, 6);
	assert_int_equal(st.text_bytes, 0x60);
	assert_int_equal(st.flex, 0);
	assert_int_equal(st.pcmask, 0);
	assert_int_equal(st.signal, 0);
	assert_int_equal(st.outermost, 0);
	assert_int_equal(st.skipped[SFRAME_SKIP_RA_COLUMN], 1);
	assert_int_equal(st.skipped_bytes[SFRAME_SKIP_RA_COLUMN], 0x10);
	assert_int_equal(skipped_total(), 1);
	assert_int_equal(st.problem_offset, UINT64_MAX);
	assert_false(st.problem_in_debug_frame);
}

/*
 * The other instructions, on x86-64.
 *
 * F1 at 0x1300 (CIE data_align -8):
 *   +1 def_cfa_offset 16; offset_extended rbp, 2: rbp at c-16
 *   +2 def_cfa_sf rsp, -3: CFA rsp + (-3 * -8) = rsp+24;
 *      offset_extended_sf rbp, 3: rbp at 3 * -8 = c-24
 *   +3 def_cfa_offset_sf -4: CFA rsp+32; GNU_args_size 16 and a nop: nothing
 *   +4 same_value rbp: unchanged
 *   +5 offset_extended RA, 1: c-8, the rule it had: no new row
 * F2 at 0x1400 (CIE data_align 4, RA at c-8 given by offset_extended_sf
 * RA, -2 in the CIE):
 *   +1 def_cfa_offset 16; GNU_negative_offset_extended rbp, 4: rbp at
 *      -(4) * 4 = c-16 (readelf: l = -LEB; offset = l * data_factor)
 *   +2 restore_extended rbp: the CIE has no rule for rbp: unchanged
 *   +3 def_cfa_offset 8
 * F3 at 0x1500: rules for registers SFrame does not track change nothing:
 *   val_offset, val_offset_sf, val_expression, expression, register,
 *   undefined, same_value and offset on rbx/r12/r13/r14; then at +4
 *   def_cfa_offset 16.
 */
static void test_x86_instructions(void **state)
{
	struct sframe_convert_input in;
	uint8_t e[4];
	struct cfi c;
	size_t cie, cie4;

	(void)state;
	cfi_init(&c, false, EH_ADDR, false, false);
	cie = cie_x86(&c, "zR", PCREL4);
	cie4 = cie_begin(&c, 1, "zR", 1, 4, X_RA);
	c_u8(&c, PCREL4);
	aug_end(&c);
	op_uu(&c, CFA_def_cfa, X_RSP, 8);
	op_us(&c, CFA_offset_extended_sf, X_RA, -2);
	entry_end(&c);

	fde_begin(&c, cie, PCREL4, 0x1300, 0x10, true);
	adv(&c, 1);
	op_u(&c, CFA_def_cfa_offset, 16);
	op_uu(&c, CFA_offset_extended, X_RBP, 2);
	adv(&c, 1);
	op_us(&c, CFA_def_cfa_sf, X_RSP, -3);
	op_us(&c, CFA_offset_extended_sf, X_RBP, 3);
	adv(&c, 1);
	op_s(&c, CFA_def_cfa_offset_sf, -4);
	op_u(&c, CFA_GNU_args_size, 16);
	op(&c, CFA_nop);
	adv(&c, 1);
	op_u(&c, CFA_same_value, X_RBP);
	adv(&c, 1);
	op_uu(&c, CFA_offset_extended, X_RA, 1);
	entry_end(&c);

	fde_begin(&c, cie4, PCREL4, 0x1400, 0x10, true);
	adv(&c, 1);
	op_u(&c, CFA_def_cfa_offset, 16);
	op_uu(&c, CFA_GNU_negative_offset_extended, X_RBP, 4);
	adv(&c, 1);
	op_u(&c, CFA_restore_extended, X_RBP);
	adv(&c, 1);
	op_u(&c, CFA_def_cfa_offset, 8);
	entry_end(&c);

	fde_begin(&c, cie, PCREL4, 0x1500, 0x10, true);
	op_uu(&c, CFA_val_offset, X_RBX, 2);
	op_us(&c, CFA_val_offset_sf, X_R12, -1);
	op_expr(&c, CFA_val_expression, 13, e, expr_breg(e, X_RSP, 0));
	op_expr(&c, CFA_expression, 14, e, expr_breg(e, X_RSP, 8));
	op_uu(&c, CFA_register, X_RBX, X_R12);
	op_u(&c, CFA_undefined, X_R12);
	op_u(&c, CFA_same_value, 13);
	off_(&c, 14, 3);
	op_u(&c, CFA_GNU_args_size, 0);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_offset, 16);
	entry_end(&c);

	in = input(SFRAME_EM_X86_64, false, SFRAME_VERSION_3, &c, NULL);
	convert_ok(&in);
	expect_fn(0x1300, 0x10, 5, ROWS({ 0, X(8) }, { 1, XF(X_RSP, 16, -16) },
					 { 2, XF(X_RSP, 24, -24) }, { 3, XF(X_RSP, 32, -24) },
					 { 4, X(32) }));
	expect_fn(0x1400, 0x10, 4, ROWS({ 0, X(8) }, { 1, XF(X_RSP, 16, -16) }, { 2, X(16) },
					 { 3, X(8) }));
	expect_fn(0x1500, 0x10, 2, ROWS({ 0, X(8) }, { 4, X(16) }));
	assert_int_equal(st.functions, 3);
	assert_int_equal(st.rows, 11);
	assert_int_equal(skipped_total(), 0);
}

/*
 * DW_CFA_restore and DW_CFA_restore_extended go back to the CIE's rule,
 * here rbp at c-16 (DW_CFA_offset rbp, 2 in the CIE), not to "unchanged".
 * F at 0x1000:
 *   +0 rbp c-16 (CIE)     +1 same_value rbp: unchanged
 *   +2 restore rbp: c-16  +3 offset rbp, 3: c-24
 *   +4 restore_extended rbp: c-16 again
 */
static void test_x86_restore_to_cie(void **state)
{
	struct sframe_convert_input in;
	struct cfi c;
	size_t cie;

	(void)state;
	cfi_init(&c, false, EH_ADDR, false, false);
	cie = cie_begin(&c, 1, "zR", 1, -8, X_RA);
	c_u8(&c, PCREL4);
	aug_end(&c);
	op_uu(&c, CFA_def_cfa, X_RSP, 8);
	off_(&c, X_RA, 1);
	off_(&c, X_RBP, 2);
	entry_end(&c);

	fde_begin(&c, cie, PCREL4, 0x1000, 0x10, true);
	adv(&c, 1);
	op_u(&c, CFA_same_value, X_RBP);
	adv(&c, 1);
	rest(&c, X_RBP);
	adv(&c, 1);
	off_(&c, X_RBP, 3);
	adv(&c, 1);
	op_u(&c, CFA_restore_extended, X_RBP);
	entry_end(&c);

	in = input(SFRAME_EM_X86_64, false, 0, &c, NULL);
	convert_ok(&in);
	expect_fn(0x1000, 0x10, 5, ROWS({ 0, XF(X_RSP, 8, -16) }, { 1, X(8) },
					 { 2, XF(X_RSP, 8, -16) }, { 3, XF(X_RSP, 8, -24) },
					 { 4, XF(X_RSP, 8, -16) }));
}

/*
 * Where gas's own SFrame generation departs from DWARF (binutils 2.47), the
 * converter must follow DWARF:
 * CFAREG at 0x1000: +1 def_cfa_offset 16 and def_cfa_register rbp at the
 *   same PC: DWARF keeps the current offset, rbp+16 (gas takes the offset of
 *   the last row it emitted, 8).
 * RESTORE at 0x1100: +0 offset rbp, 3 (the first row: c-24); +1 offset rbp,
 *   2 (c-16); +2 restore rbp: the CIE's rule, none: unchanged (gas takes the
 *   first row's rule, c-24).
 * END at 0x1200, 0x10 bytes: +4 rsp+16, then a row at +0x10, the function's
 *   size (a directive after the last instruction): it covers no PC.
 * BIGRA at 0x1300: +1 def_cfa r12, 16; RA at c-296, then at +2 c-70000:
 *   FLEX offsets beyond one byte and beyond two (gas writes x86-64 FLEX RA
 *   offsets in words too small for them).
 */
static void test_x86_gas_differs(void **state)
{
	struct sframe_convert_input in;
	struct cfi c;
	size_t cie;

	(void)state;
	cfi_init(&c, false, EH_ADDR, false, false);
	cie = cie_x86(&c, "zR", PCREL4);
	fde_begin(&c, cie, PCREL4, 0x1000, 0x10, true);
	adv(&c, 1);
	op_u(&c, CFA_def_cfa_offset, 16);
	op_u(&c, CFA_def_cfa_register, X_RBP);
	entry_end(&c);

	fde_begin(&c, cie, PCREL4, 0x1100, 0x10, true);
	off_(&c, X_RBP, 3);
	adv(&c, 1);
	off_(&c, X_RBP, 2);
	adv(&c, 1);
	rest(&c, X_RBP);
	entry_end(&c);

	fde_begin(&c, cie, PCREL4, 0x1200, 0x10, true);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_offset, 16);
	adv(&c, 12);
	op_u(&c, CFA_def_cfa_offset, 8);
	entry_end(&c);

	fde_begin(&c, cie, PCREL4, 0x1300, 0x10, true);
	adv(&c, 1);
	op_uu(&c, CFA_def_cfa, X_R12, 16);
	off_(&c, X_RA, 37);
	adv(&c, 1);
	off_(&c, X_RA, 8750);
	entry_end(&c);

	in = input(SFRAME_EM_X86_64, false, 0, &c, NULL);
	convert_ok(&in);
	expect_fn(0x1000, 0x10, 2, ROWS({ 0, X(8) }, { 1, rl(X_RBP, 16, slot(-8), same()) }));
	expect_fn(0x1100, 0x10, 3, ROWS({ 0, XF(X_RSP, 8, -24) }, { 1, XF(X_RSP, 8, -16) },
					 { 2, X(8) }));
	expect_fn(0x1200, 0x10, 0, ROWS({ 0, X(8) }, { 4, X(16) }));
	expect_none(0x1210, 0x10);
	expect_fn(0x1300, 0x10, 3, ROWS({ 0, X(8) }, { 1, rl(X_R12, 16, slot(-296), same()) },
					 { 2, rl(X_R12, 16, slot(-70000), same()) }));
}

/*
 * DW_CFA_remember_state / DW_CFA_restore_state: the whole row, CFA included,
 * nested.
 * F at 0x1000, 0x20 bytes:
 *   +1 def_cfa_offset 16, rbp c-16
 *   +2 remember; def_cfa_offset 8; restore rbp         -> rsp+8
 *   +3 restore_state                                   -> rsp+16, rbp c-16
 *   +4 remember; def_cfa_offset 24; remember; def_cfa_offset 32 -> rsp+32
 *   +5 restore_state                                   -> rsp+24
 *   +6 restore_state                                   -> rsp+16
 * Rows at 0 1 2 3 4 5 6.
 */
static void test_x86_remember_restore(void **state)
{
	struct sframe_convert_input in;
	struct cfi c;
	size_t cie;

	(void)state;
	cfi_init(&c, false, EH_ADDR, false, false);
	cie = cie_x86(&c, "zR", PCREL4);
	fde_begin(&c, cie, PCREL4, 0x1000, 0x20, true);
	adv(&c, 1);
	op_u(&c, CFA_def_cfa_offset, 16);
	off_(&c, X_RBP, 2);
	adv(&c, 1);
	op(&c, CFA_remember_state);
	op_u(&c, CFA_def_cfa_offset, 8);
	rest(&c, X_RBP);
	adv(&c, 1);
	op(&c, CFA_restore_state);
	adv(&c, 1);
	op(&c, CFA_remember_state);
	op_u(&c, CFA_def_cfa_offset, 24);
	op(&c, CFA_remember_state);
	op_u(&c, CFA_def_cfa_offset, 32);
	adv(&c, 1);
	op(&c, CFA_restore_state);
	adv(&c, 1);
	op(&c, CFA_restore_state);
	entry_end(&c);

	in = input(SFRAME_EM_X86_64, false, 0, &c, NULL);
	convert_ok(&in);
	expect_fn(0x1000, 0x20, 7,
		  ROWS({ 0, X(8) }, { 1, XF(X_RSP, 16, -16) }, { 2, X(8) },
		       { 3, XF(X_RSP, 16, -16) }, { 4, XF(X_RSP, 32, -16) },
		       { 5, XF(X_RSP, 24, -16) }, { 6, XF(X_RSP, 16, -16) }));
}

/*
 * DW_CFA_set_loc: its operand is encoded as the FDE's start (DWARF 5,
 * 6.4.2.1; libgcc and readelf read it with the R encoding), PC-relative to
 * the operand's own position with pcrel.
 * F1 at 0x1000 (pcrel sdata4): set_loc 0x1008: rsp+16; set_loc 0x1010: rsp+24.
 * F2 at 0x1100 (udata8, absolute): the same at 0x1108 and 0x1110.
 */
static void test_x86_set_loc(void **state)
{
	struct sframe_convert_input in;
	struct cfi c;
	size_t cie, cie8;

	(void)state;
	cfi_init(&c, false, EH_ADDR, false, false);
	cie = cie_x86(&c, "zR", PCREL4);
	cie8 = cie_x86(&c, "zR", PE_udata8);

	fde_begin(&c, cie, PCREL4, 0x1000, 0x20, true);
	op(&c, CFA_set_loc);
	c_ptr(&c, PCREL4, 0x1008);
	op_u(&c, CFA_def_cfa_offset, 16);
	op(&c, CFA_set_loc);
	c_ptr(&c, PCREL4, 0x1010);
	op_u(&c, CFA_def_cfa_offset, 24);
	entry_end(&c);

	fde_begin(&c, cie8, PE_udata8, 0x1100, 0x20, true);
	op(&c, CFA_set_loc);
	c_ptr(&c, PE_udata8, 0x1108);
	op_u(&c, CFA_def_cfa_offset, 16);
	op(&c, CFA_set_loc);
	c_ptr(&c, PE_udata8, 0x1110);
	op_u(&c, CFA_def_cfa_offset, 24);
	entry_end(&c);

	in = input(SFRAME_EM_X86_64, false, 0, &c, NULL);
	convert_ok(&in);
	expect_fn(0x1000, 0x20, 3, ROWS({ 0, X(8) }, { 8, X(16) }, { 0x10, X(24) }));
	expect_fn(0x1100, 0x20, 3, ROWS({ 0, X(8) }, { 8, X(16) }, { 0x10, X(24) }));
}

/*
 * DW_CFA_undefined of the RA column: RA-undefined rows (the outermost
 * frame); DW_CFA_restore of it brings the CIE's rule back.
 * F1 at 0x1000: undefined RA from the first instruction: one row.
 * F2 at 0x1100: +4 undefined RA, +8 restore RA: rows rsp+8, undefined, rsp+8.
 */
static void test_x86_outermost(void **state)
{
	struct sframe_convert_input in;
	struct cfi c;
	size_t cie;

	(void)state;
	cfi_init(&c, false, EH_ADDR, false, false);
	cie = cie_x86(&c, "zR", PCREL4);
	fde_begin(&c, cie, PCREL4, 0x1000, 0x10, true);
	op_u(&c, CFA_undefined, X_RA);
	entry_end(&c);
	fde_begin(&c, cie, PCREL4, 0x1100, 0x10, true);
	adv(&c, 4);
	op_u(&c, CFA_undefined, X_RA);
	adv(&c, 4);
	rest(&c, X_RA);
	entry_end(&c);

	in = input(SFRAME_EM_X86_64, false, 0, &c, NULL);
	convert_ok(&in);
	expect_fn(0x1000, 0x10, 1, ROWS({ 0, outermost() }));
	expect_fn(0x1100, 0x10, 3, ROWS({ 0, X(8) }, { 4, outermost() }, { 8, X(8) }));
	assert_int_equal(st.outermost, 2);
	assert_int_equal(st.rows, 4);

	/* v2 has RA-undefined rows too (no data words). */
	in.version = SFRAME_VERSION_2;
	convert_ok(&in);
	expect_fn(0x1000, 0x10, 1, ROWS({ 0, outermost() }));
	expect_fn(0x1100, 0x10, 3, ROWS({ 0, X(8) }, { 4, outermost() }, { 8, X(8) }));
	assert_int_equal(st.outermost, 2);
}

/*
 * What needs v3 FLEX on x86-64, and the same input as v2 (left out).
 *
 * DRAP at 0x1000, 0x40 bytes, as GCC writes a stack-realigning prologue:
 *   +0    lea 8(%rsp),%r10        (5 bytes)
 *   +5    def_cfa r10, 0                      -> CFA r10+0
 *         and $-16,%rsp; pushq -8(%r10); push %rbp; mov %rsp,%rbp
 *   +17   expression rbp (breg6 0)            -> rbp saved at *(rbp + 0)
 *         push %r10
 *   +19   def_cfa_expression (breg6 -8; deref) -> CFA = *(rbp - 8)
 *   +0x30 def_cfa r10, 0; restore rbp         -> CFA r10+0, rbp unchanged
 *   +0x34 def_cfa rsp, 8                      -> rsp+8
 * FPREG at 0x1100: +1 register rbp, rbx: FP in rbx; +4 same_value rbp.
 * RAREG at 0x1200: +2 register RA, r11: RA in r11; +4 restore RA: c-8.
 * RASLOT at 0x1300: +1 def_cfa_offset 16, offset RA, 2: RA at c-16.
 * CFAREG at 0x1400: +3 def_cfa r12, 16.
 * RAEXPR at 0x1500: +2 expression RA (breg6 8): RA saved at *(rbp + 8)
 *   while the CFA is rsp-based (not expressible through the CFA).
 * CFADEREF at 0x1600: +1 def_cfa_expression (breg6 -8; deref).
 * NORMAL at 0x1700: +1 def_cfa_offset 16.
 */
static void build_flex_x86(struct cfi *c)
{
	uint8_t e[2];
	size_t cie;

	cfi_init(c, false, EH_ADDR, false, false);
	cie = cie_x86(c, "zR", PCREL4);

	fde_begin(c, cie, PCREL4, 0x1000, 0x40, true);
	adv(c, 5);
	op_uu(c, CFA_def_cfa, X_R10, 0);
	adv(c, 12);
	saved_at_reg(c, X_RBP, X_RBP, 0);
	adv(c, 2);
	def_cfa_deref(c, X_RBP, -8);
	adv(c, 0x30 - 19);
	op_uu(c, CFA_def_cfa, X_R10, 0);
	rest(c, X_RBP);
	adv(c, 4);
	op_uu(c, CFA_def_cfa, X_RSP, 8);
	entry_end(c);

	fde_begin(c, cie, PCREL4, 0x1100, 0x10, true);
	adv(c, 1);
	op_uu(c, CFA_register, X_RBP, X_RBX);
	adv(c, 3);
	op_u(c, CFA_same_value, X_RBP);
	entry_end(c);

	fde_begin(c, cie, PCREL4, 0x1200, 0x10, true);
	adv(c, 2);
	op_uu(c, CFA_register, X_RA, X_R11);
	adv(c, 2);
	rest(c, X_RA);
	entry_end(c);

	fde_begin(c, cie, PCREL4, 0x1300, 0x10, true);
	adv(c, 1);
	op_u(c, CFA_def_cfa_offset, 16);
	off_(c, X_RA, 2);
	entry_end(c);

	fde_begin(c, cie, PCREL4, 0x1400, 0x10, true);
	adv(c, 3);
	op_uu(c, CFA_def_cfa, X_R12, 16);
	entry_end(c);

	fde_begin(c, cie, PCREL4, 0x1500, 0x10, true);
	adv(c, 2);
	op_expr(c, CFA_expression, X_RA, e, expr_breg(e, X_RBP, 8));
	entry_end(c);

	fde_begin(c, cie, PCREL4, 0x1600, 0x10, true);
	adv(c, 1);
	def_cfa_deref(c, X_RBP, -8);
	entry_end(c);

	fde_begin(c, cie, PCREL4, 0x1700, 0x10, true);
	adv(c, 1);
	op_u(c, CFA_def_cfa_offset, 16);
	entry_end(c);
}

static void test_x86_flex(void **state)
{
	struct sframe_convert_input in;
	static struct cfi c;

	(void)state;
	build_flex_x86(&c);
	in = input(SFRAME_EM_X86_64, false, SFRAME_VERSION_3, &c, NULL);
	convert_ok(&in);
	expect_fn(0x1000, 0x40, 6,
		  ROWS({ 0, X(8) }, { 5, rl(X_R10, 0, slot(-8), same()) },
		       { 17, rl(X_R10, 0, slot(-8), at_reg(X_RBP, 0)) },
		       { 19, rl_deref(X_RBP, -8, slot(-8), at_reg(X_RBP, 0)) },
		       { 0x30, rl(X_R10, 0, slot(-8), same()) }, { 0x34, X(8) }));
	assert_int_equal(fde_at(0x1000).fde_type, SFRAME_FDE_TYPE_FLEX);
	expect_fn(0x1100, 0x10, 3, ROWS({ 0, X(8) }, { 1, rl(X_RSP, 8, slot(-8), in_reg(X_RBX)) },
					 { 4, X(8) }));
	expect_fn(0x1200, 0x10, 3, ROWS({ 0, X(8) }, { 2, rl(X_RSP, 8, in_reg(X_R11), same()) },
					 { 4, X(8) }));
	expect_fn(0x1300, 0x10, 2, ROWS({ 0, X(8) }, { 1, rl(X_RSP, 16, slot(-16), same()) }));
	expect_fn(0x1400, 0x10, 2, ROWS({ 0, X(8) }, { 3, rl(X_R12, 16, slot(-8), same()) }));
	expect_fn(0x1500, 0x10, 2,
		  ROWS({ 0, X(8) }, { 2, rl(X_RSP, 8, at_reg(X_RBP, 8), same()) }));
	expect_fn(0x1600, 0x10, 2, ROWS({ 0, X(8) }, { 1, rl_deref(X_RBP, -8, slot(-8), same()) }));
	expect_fn(0x1700, 0x10, 2, ROWS({ 0, X(8) }, { 1, X(16) }));
	assert_int_equal(fde_at(0x1700).fde_type, SFRAME_FDE_TYPE_DEFAULT);
	assert_int_equal(st.functions, 8);
	assert_int_equal(st.flex, 7);
	assert_int_equal(skipped_total(), 0);

	/* v2: no FLEX; only NORMAL is left. */
	in.version = SFRAME_VERSION_2;
	convert_ok(&in);
	expect_none(0x1000, 0x700);
	expect_fn(0x1700, 0x10, 2, ROWS({ 0, X(8) }, { 1, X(16) }));
	assert_int_equal(st.functions, 1);
	assert_int_equal(st.flex, 0);
	assert_int_equal(skipped_total(), 7);
	/* The first thing v2 cannot say: DRAP's and CFAREG's CFA register;
	 * FPREG's FP; RAREG's, RASLOT's and RAEXPR's RA. (CFADEREF: a CFA
	 * expression or register, either way not SP/FP + offset.) */
	assert_int_equal(st.skipped[SFRAME_SKIP_CFA_REG] + st.skipped[SFRAME_SKIP_CFA_EXPR], 3);
	assert_true(st.skipped[SFRAME_SKIP_CFA_REG] >= 2);
	assert_int_equal(st.skipped[SFRAME_SKIP_FP_RULE], 1);
	assert_int_equal(st.skipped[SFRAME_SKIP_RA_RULE], 3);
	assert_int_equal(st.skipped_bytes[SFRAME_SKIP_FP_RULE], 0x10);
}

/*
 * Rules SFrame cannot express on any version: left out, per reason.
 *   0x1000 val_offset RA, 2: RA = CFA - 16 as a value        -> ra-rule
 *   0x1100 val_expression RA (breg7 0)                        -> ra-rule
 *   0x1200 val_offset_sf rbp, 2: rbp = CFA - 16 as a value    -> fp-rule
 *   0x1300 val_offset rsp, 2: the caller's rsp = CFA - 16     -> sp-rule
 *   0x1400 def_cfa_expression (breg7 8; breg0 0; plus)        -> cfa-expression
 *   0x1500 negate_ra_state on x86-64                          -> pauth
 *   0x1600 a plain function, kept
 */
static void test_x86_unexpressible(void **state)
{
	const uint8_t sum[] = { OP_breg0 + X_RSP, 8, OP_breg0 + X_RAX, 0, OP_plus };
	struct sframe_convert_input in;
	uint8_t e[2];
	struct cfi c;
	size_t cie;

	(void)state;
	cfi_init(&c, false, EH_ADDR, false, false);
	cie = cie_x86(&c, "zR", PCREL4);
	fde_begin(&c, cie, PCREL4, 0x1000, 0x10, true);
	adv(&c, 1);
	op_uu(&c, CFA_val_offset, X_RA, 2);
	entry_end(&c);
	fde_begin(&c, cie, PCREL4, 0x1100, 0x10, true);
	adv(&c, 1);
	op_expr(&c, CFA_val_expression, X_RA, e, expr_breg(e, X_RSP, 0));
	entry_end(&c);
	fde_begin(&c, cie, PCREL4, 0x1200, 0x10, true);
	adv(&c, 1);
	op_us(&c, CFA_val_offset_sf, X_RBP, 2);
	entry_end(&c);
	fde_begin(&c, cie, PCREL4, 0x1300, 0x10, true);
	adv(&c, 1);
	op_uu(&c, CFA_val_offset, X_RSP, 2);
	entry_end(&c);
	fde_begin(&c, cie, PCREL4, 0x1400, 0x10, true);
	adv(&c, 1);
	op_expr(&c, CFA_def_cfa_expression, -1, sum, sizeof(sum));
	entry_end(&c);
	fde_begin(&c, cie, PCREL4, 0x1500, 0x10, true);
	adv(&c, 1);
	op(&c, CFA_AARCH64_negate_ra_state);
	entry_end(&c);
	fde_begin(&c, cie, PCREL4, 0x1600, 0x10, true);
	adv(&c, 1);
	op_u(&c, CFA_def_cfa_offset, 16);
	entry_end(&c);

	in = input(SFRAME_EM_X86_64, false, 0, &c, NULL);
	convert_ok(&in);
	expect_none(0x1000, 0x600);
	expect_fn(0x1600, 0x10, 2, ROWS({ 0, X(8) }, { 1, X(16) }));
	assert_int_equal(st.functions, 1);
	assert_int_equal(st.fdes, 7);
	assert_int_equal(st.skipped[SFRAME_SKIP_RA_RULE], 2);
	assert_int_equal(st.skipped[SFRAME_SKIP_FP_RULE], 1);
	assert_int_equal(st.skipped[SFRAME_SKIP_SP_RULE], 1);
	assert_int_equal(st.skipped[SFRAME_SKIP_CFA_EXPR], 1);
	assert_int_equal(st.skipped[SFRAME_SKIP_PAUTH], 1);
	assert_int_equal(st.skipped_bytes[SFRAME_SKIP_RA_RULE], 0x20);
	assert_int_equal(skipped_total(), 6);
	assert_int_equal(st.problem_offset, UINT64_MAX);
}

/*
 * The x86-64 PLT: GNU ld's CFA expression for the lazy PLT entries,
 * CFA = rsp + 8 + ((rip & 15) >= K) * 8, becomes a PCMASK FDE with 16-byte
 * blocks from its row on: rsp+8 at 0, rsp+16 at K.
 * PLT at 0x1020, 0x40 bytes: PLT0 (+0 def_cfa_offset 16, +6 def_cfa_offset
 * 24), then from +0x10 the expression with K = 11: a PCINC FDE for
 * [0x1020, 0x1030) and a PCMASK FDE for [0x1030, 0x1060).
 * PLT2 at 0x1100, 0x30 bytes: the expression (K = 10) from its first byte:
 * one PCMASK FDE.
 * The expected CFA at each PC is the expression evaluated at that PC.
 */
static void check_plt_pcs(uint64_t start, uint32_t size, unsigned k)
{
	uint64_t pc;

	for (pc = start; pc < start + size; pc++) {
		struct sframe_rules want = X(8 + ((pc & 15) >= k ? 8 : 0));
		struct sframe_row row;

		assert_cerr(sframe_lookup(&sec, pc, &row), 0);
		assert_int_equal(row.fde.func_start, start);
		assert_int_equal(row.fde.func_size, size);
		assert_int_equal(row.fde.pc_type, SFRAME_PC_TYPE_MASK);
		assert_int_equal(row.fde.rep_size, 16);
		assert_int_equal(row.fde.num_fres, 2);
		assert_rules_equal(&row.rules, &want);
	}
}

static void test_x86_plt(void **state)
{
	struct sframe_convert_input in;
	struct cfi c;
	size_t cie;
	int v;

	(void)state;
	cfi_init(&c, false, EH_ADDR, false, false);
	cie = cie_x86(&c, "zR", PCREL4);
	fde_begin(&c, cie, PCREL4, 0x1020, 0x40, true);
	op_u(&c, CFA_def_cfa_offset, 16);
	adv(&c, 6);
	op_u(&c, CFA_def_cfa_offset, 24);
	adv(&c, 10);
	def_cfa_plt(&c, 11);
	entry_end(&c);
	fde_begin(&c, cie, PCREL4, 0x1100, 0x30, true);
	def_cfa_plt(&c, 10);
	entry_end(&c);

	for (v = 3; v >= 2; v--) {
		in = input(SFRAME_EM_X86_64, false, (uint8_t)v, &c, NULL);
		convert_ok(&in);
		expect_fn(0x1020, 0x10, 2, ROWS({ 0, X(16) }, { 6, X(24) }));
		assert_int_equal(fde_at(0x1020).pc_type, SFRAME_PC_TYPE_INC);
		check_plt_pcs(0x1030, 0x30, 11);
		check_plt_pcs(0x1100, 0x30, 10);
		assert_int_equal(st.fdes, 2);
		assert_int_equal(st.functions, 3);
		assert_int_equal(st.pcmask, 2);
		assert_int_equal(st.rows, 6);
		assert_int_equal(st.text_bytes, 0x70);
		assert_int_equal(skipped_total(), 0);
	}
}

/*
 * CIE augmentation "S": a signal frame. v3: the signal bit on every row of
 * the function (one of two functions of another CIE has no bit); v2 has no
 * such bit: the function is written without it.
 * SIG at 0x1000: +0 def_cfa_offset 160 (as a kernel's rt_sigreturn
 * trampoline describes the frame); +4 def_cfa_offset 168.
 */
static void test_x86_signal(void **state)
{
	struct sframe_convert_input in;
	struct cfi c;
	size_t cie, cies;

	(void)state;
	cfi_init(&c, false, EH_ADDR, false, false);
	cie = cie_x86(&c, "zR", PCREL4);
	cies = cie_x86(&c, "zRS", PCREL4);
	fde_begin(&c, cies, PCREL4, 0x1000, 0x10, true);
	op_u(&c, CFA_def_cfa_offset, 160);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_offset, 168);
	entry_end(&c);
	fde_begin(&c, cie, PCREL4, 0x1100, 0x10, true);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_offset, 16);
	entry_end(&c);

	in = input(SFRAME_EM_X86_64, false, 0, &c, NULL);
	convert_ok(&in);
	expect_fn(0x1000, 0x10, 2, ROWS({ 0, sig(X(160)) }, { 4, sig(X(168)) }));
	assert_true(fde_at(0x1000).signal);
	expect_fn(0x1100, 0x10, 2, ROWS({ 0, X(8) }, { 4, X(16) }));
	assert_int_equal(st.signal, 1);

	in.version = SFRAME_VERSION_2;
	convert_ok(&in);
	expect_fn(0x1000, 0x10, 2, ROWS({ 0, X(160) }, { 4, X(168) }));
	expect_fn(0x1100, 0x10, 2, ROWS({ 0, X(8) }, { 4, X(16) }));
	assert_int_equal(st.signal, 0);
}

/* ---- Pointer encodings and augmentations ----------------------------------- */

/*
 * One CIE per encoding of the FDE start (R), each with one FDE of its own
 * function: 0x10-byte functions whose single row change (at +4,
 * def_cfa_offset 16) tells them apart from the CIE's rule. Absolute formats
 * hold their address; pcrel ones the distance from the field, negative
 * below .eh_frame (0x4000), positive for the unsigned formats above it.
 */
struct enc_case {
	unsigned enc;
	uint64_t start;
};

static const struct enc_case enc_cases[] = {
	{ PE_absptr, 0x1000 },
	{ PE_uleb128, 0x1100 },
	{ PE_udata2, 0x1200 },
	{ PE_udata4, 0x1300 },
	{ PE_udata8, 0x1400 },
	{ PE_sleb128, 0x1500 },
	{ PE_sdata2, 0x1600 },
	{ PE_sdata4, 0x1700 },
	{ PE_sdata8, 0x1800 },
	{ PE_pcrel | PE_absptr, 0x1900 },
	{ PE_pcrel | PE_sleb128, 0x1a00 },
	{ PE_pcrel | PE_sdata2, 0x1b00 },
	{ PE_pcrel | PE_sdata4, 0x1c00 },
	{ PE_pcrel | PE_sdata8, 0x1d00 },
	{ PE_pcrel | PE_udata8, 0x1e00 },
	{ PE_pcrel | PE_uleb128, 0x5000 },
	{ PE_pcrel | PE_udata2, 0x5100 },
	{ PE_pcrel | PE_udata4, 0x5200 },
};

static void test_pointer_encodings(void **state)
{
	struct sframe_convert_input in;
	static struct cfi c;
	size_t i;

	(void)state;
	cfi_init(&c, false, EH_ADDR, false, false);
	for (i = 0; i < sizeof(enc_cases) / sizeof(enc_cases[0]); i++) {
		size_t cie = cie_x86(&c, "zR", enc_cases[i].enc);

		fde_begin(&c, cie, enc_cases[i].enc, enc_cases[i].start, 0x10, true);
		adv(&c, 4);
		op_u(&c, CFA_def_cfa_offset, 16);
		entry_end(&c);
	}
	in = input(SFRAME_EM_X86_64, false, 0, &c, NULL);
	convert_ok(&in);
	for (i = 0; i < sizeof(enc_cases) / sizeof(enc_cases[0]); i++) {
		print_message("encoding %#x\n", enc_cases[i].enc);
		expect_fn(enc_cases[i].start, 0x10, 2, ROWS({ 0, X(8) }, { 4, X(16) }));
		expect_none(enc_cases[i].start + 0x10, 0x10);
	}
	assert_int_equal(st.functions, sizeof(enc_cases) / sizeof(enc_cases[0]));
	assert_int_equal(skipped_total(), 0);
}

/*
 * The augmentations before R move it: P (personality: its encoding, then a
 * pointer in it: aligned, indirect pcrel sdata4, udata8), L (the LSDA's
 * encoding in the CIE, and a pointer in each FDE's augmentation data), the
 * old "eh" (a pointer-sized word after the string, no z: FDE starts absptr),
 * S and B (no data), CIE versions 1 and 3. Each FDE's function must come out
 * where it is.
 *   0x1000 "zPLR": P aligned (padding inside the data), L sdata4 pcrel,
 *                  FDE LSDA 4 bytes
 *   0x1100 "zPR":  P indirect|pcrel|sdata4
 *   0x1200 "zLR":  L udata8, FDE LSDA 8 bytes
 *   0x1300 "zPLR" with P udata8 and L omitted (0xff): FDE data empty
 *   0x1400 "eh":   CIE v1, absptr start
 *   0x1500 "zR" CIE version 3 (RA column as ULEB128)
 *   0x1600 "zRS" is test_x86_signal's; "zRB" test_aarch64's
 */
static void test_augmentations(void **state)
{
	struct sframe_convert_input in;
	static struct cfi c;
	size_t cie;

	(void)state;
	cfi_init(&c, false, EH_ADDR, false, false);

	cie = cie_begin(&c, 1, "zPLR", 1, -8, X_RA);
	c_u8(&c, PE_aligned);
	c_ptr(&c, PE_aligned, 0x123456789abcdef0ull);
	c_u8(&c, PCREL4);	/* L */
	c_u8(&c, PCREL4);	/* R */
	aug_end(&c);
	op_uu(&c, CFA_def_cfa, X_RSP, 8);
	off_(&c, X_RA, 1);
	entry_end(&c);
	fde_begin_lsda(&c, cie, PCREL4, 0x1000, 0x10, true, PCREL4, 0x6000);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_offset, 16);
	entry_end(&c);

	cie = cie_begin(&c, 1, "zPR", 1, -8, X_RA);
	c_u8(&c, PE_indirect | PCREL4);
	c_ptr(&c, PE_indirect | PCREL4, 0x7000);
	c_u8(&c, PCREL4);
	aug_end(&c);
	op_uu(&c, CFA_def_cfa, X_RSP, 8);
	off_(&c, X_RA, 1);
	entry_end(&c);
	fde_begin(&c, cie, PCREL4, 0x1100, 0x10, true);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_offset, 16);
	entry_end(&c);

	cie = cie_begin(&c, 1, "zLR", 1, -8, X_RA);
	c_u8(&c, PE_udata8);
	c_u8(&c, PCREL4);
	aug_end(&c);
	op_uu(&c, CFA_def_cfa, X_RSP, 8);
	off_(&c, X_RA, 1);
	entry_end(&c);
	fde_begin_lsda(&c, cie, PCREL4, 0x1200, 0x10, true, PE_udata8, 0x6100);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_offset, 16);
	entry_end(&c);

	cie = cie_begin(&c, 1, "zPLR", 1, -8, X_RA);
	c_u8(&c, PE_udata8);
	c_ptr(&c, PE_udata8, 0x7100);
	c_u8(&c, PE_omit);
	c_u8(&c, PE_sdata4);
	aug_end(&c);
	op_uu(&c, CFA_def_cfa, X_RSP, 8);
	off_(&c, X_RA, 1);
	entry_end(&c);
	fde_begin(&c, cie, PE_sdata4, 0x1300, 0x10, true);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_offset, 16);
	entry_end(&c);

	cie = cie_begin(&c, 1, "eh", 1, -8, X_RA);
	op_uu(&c, CFA_def_cfa, X_RSP, 8);
	off_(&c, X_RA, 1);
	entry_end(&c);
	fde_begin(&c, cie, PE_absptr, 0x1400, 0x10, false);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_offset, 16);
	entry_end(&c);

	cie = cie_begin(&c, 3, "zR", 1, -8, X_RA);
	c_u8(&c, PCREL4);
	aug_end(&c);
	op_uu(&c, CFA_def_cfa, X_RSP, 8);
	off_(&c, X_RA, 1);
	entry_end(&c);
	fde_begin(&c, cie, PCREL4, 0x1500, 0x10, true);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_offset, 16);
	entry_end(&c);

	in = input(SFRAME_EM_X86_64, false, 0, &c, NULL);
	convert_ok(&in);
	for (uint64_t f = 0x1000; f <= 0x1500; f += 0x100) {
		print_message("function %#" PRIx64 "\n", f);
		expect_fn(f, 0x10, 2, ROWS({ 0, X(8) }, { 4, X(16) }));
	}
	assert_int_equal(st.cies, 6);
	assert_int_equal(st.functions, 6);
	assert_int_equal(skipped_total(), 0);
}

/* ---- .debug_frame ------------------------------------------------------------ */

/*
 * .debug_frame: CIE id all ones, the FDE's CIE pointer an offset from the
 * section's start, starts absolute in address_size bytes (8; v4 says so in
 * the CIE), no augmentation. A decoy CIE comes first (RA column 15): an FDE
 * read as pointing elsewhere would be left out. CIE versions 1, 3 and 4, in
 * 32-bit and 64-bit DWARF.
 *   0x1000 (CIE v1): +2 def_cfa_offset 16
 *   0x1100 (CIE v3): +3 def_cfa_offset 24
 *   0x1200 (CIE v4): +4 def_cfa_offset 32
 *   0x1300 (decoy): ra-column
 */
/* ---- By function: .eh_frame_hdr's table and sframe_convert_input.fde_offsets ---- */

#define HDR_ADDR	0x3000u

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* .eh_frame_hdr as GNU ld writes it: pcrel .eh_frame pointer, datarel table. */
static size_t build_hdr(uint8_t *h, uint8_t table_enc, uint32_t count, const uint64_t *start,
			const uint64_t *fde, size_t n)
{
	size_t at = 12;

	memset(h, 0, 12 + 8 * n);
	h[0] = 1;
	h[1] = PE_pcrel | PE_sdata4;
	h[2] = PE_udata4;
	h[3] = table_enc;
	put_le32(h + 4, (uint32_t)(EH_ADDR - (HDR_ADDR + 4)));
	put_le32(h + 8, count);
	for (size_t i = 0; i < n; i++, at += 8) {
		put_le32(h + at, (uint32_t)(start[i] - HDR_ADDR));
		put_le32(h + at + 4, (uint32_t)(fde[i] - HDR_ADDR));
	}
	return at;
}

static void test_by_function(void **state)
{
	static const uint64_t starts[3] = { 0x1000, 0x1100, 0x1200 };
	static const uint32_t sizes[3] = { 0x40, 0x10, 0x20 };
	static uint8_t whole[OUT_MAX];
	struct sframe_section whole_sec;
	struct sframe_buffer whole_buf;
	struct sframe_convert_input in;
	struct sframe_cfi_bytes hdr;
	uint64_t off[3], fde_addr[3], got, list[3];
	uint8_t h[64];
	size_t whole_len, cie, i;
	struct cfi c;

	(void)state;
	cfi_init(&c, false, EH_ADDR, false, false);
	cie = cie_x86(&c, "zR", PCREL4);
	for (i = 0; i < 3; i++) {
		off[i] = fde_begin(&c, cie, PCREL4, starts[i], sizes[i], true);
		adv(&c, 1);
		op_u(&c, CFA_def_cfa_offset, 16 + 8 * i);
		adv(&c, 2);
		op_u(&c, CFA_def_cfa_offset, 8);
		entry_end(&c);
		fde_addr[i] = EH_ADDR + off[i];
	}
	c_un(&c, 0, 4);
	in = input(SFRAME_EM_X86_64, false, 0, &c, NULL);
	convert_ok(&in);
	assert_int_equal(st.functions, 3);
	memcpy(whole, out, out_len);
	whole_len = out_len;
	assert_cerr(sframe_open_buffer(&whole_sec, &whole_buf, whole, whole_len, SFRAME_ADDR), 0);

	/* The table: the last function starting at or below the PC, gaps too. */
	hdr = (struct sframe_cfi_bytes){ h, build_hdr(h, PE_datarel | PE_sdata4, 3, starts,
						       fde_addr, 3), HDR_ADDR };
	assert_cerr(sframe_eh_frame_hdr_ptr(&hdr, false, &got), 0);
	assert_int_equal(got, EH_ADDR);
	assert_cerr(sframe_eh_frame_hdr_find(&hdr, false, EH_ADDR, 0xfff, &got),
		    -SFRAME_ERR_NOT_FOUND);
	for (uint64_t pc = 0x1000; pc < 0x1300; pc += 4) {
		size_t want = pc >= 0x1200 ? 2 : pc >= 0x1100 ? 1 : 0;

		got = ~(uint64_t)0;
		assert_cerr(sframe_eh_frame_hdr_find(&hdr, false, EH_ADDR, pc, &got), 0);
		assert_int_equal(got, off[want]);
	}
	assert_cerr(sframe_eh_frame_hdr_find(&hdr, false, EH_ADDR, ~(uint64_t)0, &got), 0);
	assert_int_equal(got, off[2]);

	/* Two of the three, in any order: the same rows as the whole, no more. */
	list[0] = off[2];
	list[1] = off[0];
	in.fde_offsets = list;
	in.num_fde_offsets = 2;
	convert_ok(&in);
	assert_int_equal(st.fdes, 2);
	assert_int_equal(st.functions, 2);
	assert_int_equal(skipped_total(), 0);
	for (uint64_t pc = 0x0ff0; pc < 0x1240; pc++) {
		struct sframe_row a, b;
		int ra = sframe_lookup(&sec, pc, &a);
		int rb = sframe_lookup(&whole_sec, pc, &b);

		if (pc >= 0x1100 && pc < 0x1110) {
			assert_cerr(ra, -SFRAME_ERR_NOT_FOUND);
			assert_cerr(rb, 0);
			continue;
		}
		assert_cerr(ra, rb);
		if (!ra)
			assert_true(rules_same(&a.rules, &b.rules));
	}

	/* Given twice: converted once, the second counted a duplicate. */
	list[1] = off[2];
	convert_ok(&in);
	assert_int_equal(st.functions, 1);
	assert_int_equal(st.skipped[SFRAME_SKIP_DUPLICATE], 1);

	/* A CIE's offset, the terminator's, one past the end: malformed, named. */
	list[0] = cie;
	list[1] = c.n - 4;
	list[2] = c.n + 100;
	in.num_fde_offsets = 3;
	convert_ok(&in);
	assert_int_equal(st.functions, 0);
	assert_int_equal(st.skipped[SFRAME_SKIP_MALFORMED], 3);
	assert_int_equal(st.problem_offset, cie);
	in.fde_offsets = NULL;
	assert_cerr(sframe_convert_size(&in, &whole_len, NULL), -SFRAME_ERR_INVAL);

	/* Headers the search cannot use. */
	assert_cerr(sframe_eh_frame_hdr_find(NULL, false, EH_ADDR, 0x1000, &got), -SFRAME_ERR_INVAL);
	assert_cerr(sframe_eh_frame_hdr_find(&hdr, false, EH_ADDR, 0x1000, NULL), -SFRAME_ERR_INVAL);
	/* FDE addresses below .eh_frame. */
	assert_cerr(sframe_eh_frame_hdr_find(&hdr, false, EH_ADDR + 0x100, 0x1000, &got),
		    -SFRAME_CONVERT_ERR_ENTRY);
	/* A count the table's bytes do not hold. */
	build_hdr(h, PE_datarel | PE_sdata4, 4, starts, fde_addr, 3);
	assert_cerr(sframe_eh_frame_hdr_find(&hdr, false, EH_ADDR, 0x1000, &got),
		    -SFRAME_CONVERT_ERR_ENTRY);
	/* Fields of varying width (LEB128), or applied PC-relative: no search;
	 * the .eh_frame pointer is still there. */
	build_hdr(h, PE_datarel | PE_uleb128, 3, starts, fde_addr, 3);
	assert_cerr(sframe_eh_frame_hdr_find(&hdr, false, EH_ADDR, 0x1000, &got),
		    -SFRAME_CONVERT_ERR_ENTRY);
	assert_cerr(sframe_eh_frame_hdr_ptr(&hdr, false, &got), 0);
	build_hdr(h, PE_pcrel | PE_sdata4, 3, starts, fde_addr, 3);
	assert_cerr(sframe_eh_frame_hdr_find(&hdr, false, EH_ADDR, 0x1000, &got),
		    -SFRAME_CONVERT_ERR_ENTRY);
	/* An omitted table, an empty one, another version. */
	build_hdr(h, PE_omit, 3, starts, fde_addr, 3);
	assert_cerr(sframe_eh_frame_hdr_find(&hdr, false, EH_ADDR, 0x1000, &got),
		    -SFRAME_CONVERT_ERR_ENTRY);
	build_hdr(h, PE_datarel | PE_sdata4, 0, starts, fde_addr, 0);
	assert_cerr(sframe_eh_frame_hdr_find(&hdr, false, EH_ADDR, 0x1000, &got),
		    -SFRAME_CONVERT_ERR_ENTRY);
	build_hdr(h, PE_datarel | PE_sdata4, 3, starts, fde_addr, 3);
	h[0] = 2;
	assert_cerr(sframe_eh_frame_hdr_find(&hdr, false, EH_ADDR, 0x1000, &got),
		    -SFRAME_CONVERT_ERR_ENTRY);
	assert_cerr(sframe_eh_frame_hdr_ptr(&hdr, false, &got), -SFRAME_CONVERT_ERR_ENTRY);
	/* Cut short anywhere: an error, never a read past the end. */
	h[0] = 1;
	for (size_t n = 0; n < 12 + 8 * 3; n++) {
		hdr.size = n;
		assert_true(sframe_eh_frame_hdr_find(&hdr, false, EH_ADDR, 0x1200, &got) ==
			    -SFRAME_CONVERT_ERR_ENTRY);
	}
}

static void build_debug_x86(struct cfi *c, bool dwarf64)
{
	size_t decoy, v1, v3, v4;
	unsigned ver[3] = { 1, 3, 4 };
	size_t cies[3];
	unsigned i;

	cfi_init(c, false, 0, true, dwarf64);
	decoy = cie_begin(c, 1, "", 1, -8, 15);
	op_uu(c, CFA_def_cfa, X_RSP, 8);
	off_(c, 15, 1);
	entry_end(c);
	for (i = 0; i < 3; i++) {
		cies[i] = cie_begin(c, ver[i], "", 1, -8, X_RA);
		op_uu(c, CFA_def_cfa, X_RSP, 8);
		off_(c, X_RA, 1);
		entry_end(c);
	}
	v1 = cies[0];
	v3 = cies[1];
	v4 = cies[2];
	fde_begin(c, v1, PE_absptr, 0x1000, 0x10, false);
	adv(c, 2);
	op_u(c, CFA_def_cfa_offset, 16);
	entry_end(c);
	fde_begin(c, v3, PE_absptr, 0x1100, 0x10, false);
	adv(c, 3);
	op_u(c, CFA_def_cfa_offset, 24);
	entry_end(c);
	fde_begin(c, v4, PE_absptr, 0x1200, 0x10, false);
	adv(c, 4);
	op_u(c, CFA_def_cfa_offset, 32);
	entry_end(c);
	fde_begin(c, decoy, PE_absptr, 0x1300, 0x10, false);
	adv(c, 4);
	op_u(c, CFA_def_cfa_offset, 32);
	entry_end(c);
}

static void test_debug_frame(void **state)
{
	struct sframe_convert_input in;
	static struct cfi c;
	int d64;

	(void)state;
	for (d64 = 0; d64 <= 1; d64++) {
		build_debug_x86(&c, d64);
		in = input(SFRAME_EM_X86_64, false, 0, NULL, &c);
		convert_ok(&in);
		expect_fn(0x1000, 0x10, 2, ROWS({ 0, X(8) }, { 2, X(16) }));
		expect_fn(0x1100, 0x10, 2, ROWS({ 0, X(8) }, { 3, X(24) }));
		expect_fn(0x1200, 0x10, 2, ROWS({ 0, X(8) }, { 4, X(32) }));
		expect_none(0x1300, 0x10);
		assert_int_equal(st.cies, 4);
		assert_int_equal(st.fdes, 4);
		assert_int_equal(st.functions, 3);
		assert_int_equal(st.skipped[SFRAME_SKIP_RA_COLUMN], 1);
		assert_int_equal(skipped_total(), 1);
	}
}

/*
 * Both sections: .debug_frame fills in for the functions .eh_frame does not
 * describe; a function described in both (or starting inside one already
 * taken) keeps the FDE first in .eh_frame, then .debug_frame order.
 * .eh_frame:    A  0x1000+0x10  +4 rsp+16
 *               B  0x1100+0x10  +4 rsp+24
 *               B' 0x1100+0x10  +4 rsp+32   (B again, later: left out)
 * .debug_frame: A' 0x1000+0x10  +4 rsp+40   (A again: left out)
 *               A" 0x1008+0x10  +2 rsp+48   (starts inside A: left out)
 *               D  0x1200+0x10  +4 rsp+56   (kept)
 */
static void build_dup_eh(struct cfi *eh, const uint64_t *start, const uint32_t *size,
			 const unsigned *off, size_t n)
{
	size_t cie, i;

	cfi_init(eh, false, EH_ADDR, false, false);
	cie = cie_x86(eh, "zR", PCREL4);
	for (i = 0; i < n; i++) {
		fde_begin(eh, cie, PCREL4, start[i], size[i], true);
		adv(eh, 4);
		op_u(eh, CFA_def_cfa_offset, off[i]);
		entry_end(eh);
	}
}

static void build_dup_debug(struct cfi *dbg, const uint64_t *start, const uint32_t *size,
			    const unsigned *off, size_t n)
{
	size_t cie, i;

	cfi_init(dbg, false, 0, true, false);
	cie = cie_begin(dbg, 1, "", 1, -8, X_RA);
	op_uu(dbg, CFA_def_cfa, X_RSP, 8);
	off_(dbg, X_RA, 1);
	entry_end(dbg);
	for (i = 0; i < n; i++) {
		fde_begin(dbg, cie, PE_absptr, start[i], size[i], false);
		adv(dbg, 4);
		op_u(dbg, CFA_def_cfa_offset, off[i]);
		entry_end(dbg);
	}
}

static void test_duplicates(void **state)
{
	static const uint64_t es[] = { 0x1000, 0x1100, 0x1100 };
	static const uint32_t ez[] = { 0x10, 0x10, 0x10 };
	static const unsigned eo[] = { 16, 24, 32 };
	static const uint64_t ds[] = { 0x1000, 0x1008, 0x1200 };
	static const uint32_t dz[] = { 0x10, 0x10, 0x10 };
	static const unsigned doff[] = { 40, 48, 56 };
	struct sframe_convert_input in;
	static struct cfi eh, dbg;

	(void)state;
	build_dup_eh(&eh, es, ez, eo, 3);
	build_dup_debug(&dbg, ds, dz, doff, 3);
	in = input(SFRAME_EM_X86_64, false, 0, &eh, &dbg);
	convert_ok(&in);
	expect_fn(0x1000, 0x10, 2, ROWS({ 0, X(8) }, { 4, X(16) }));
	expect_none(0x1010, 0xf0);
	expect_fn(0x1100, 0x10, 2, ROWS({ 0, X(8) }, { 4, X(24) }));
	expect_fn(0x1200, 0x10, 2, ROWS({ 0, X(8) }, { 4, X(56) }));
	assert_int_equal(st.fdes, 6);
	assert_int_equal(st.functions, 3);
	assert_int_equal(st.rows, 6);
	assert_int_equal(st.skipped[SFRAME_SKIP_DUPLICATE], 3);
	assert_int_equal(st.skipped_bytes[SFRAME_SKIP_DUPLICATE], 0x30);
	assert_int_equal(skipped_total(), 3);
	assert_int_equal(st.text_bytes, 0x30);
}

/*
 * Overlapping FDEs where the later one in section order starts first: the
 * first in .eh_frame, then .debug_frame order is the one kept
 * (sframe_convert.h, SFRAME_SKIP_DUPLICATE), whatever the addresses.
 * .eh_frame:    C2 0x1110+0x20  +4 rsp+24   (first: kept)
 *               C1 0x1100+0x20  +4 rsp+32   (overlaps C2: left out)
 *               E  0x1300+0x20  +4 rsp+40   (kept)
 * .debug_frame: E' 0x12f8+0x10  +4 rsp+48   (overlaps E, .eh_frame's: left out)
 */
static void test_overlap_order(void **state)
{
	static const uint64_t es[] = { 0x1110, 0x1100, 0x1300 };
	static const uint32_t ez[] = { 0x20, 0x20, 0x20 };
	static const unsigned eo[] = { 24, 32, 40 };
	static const uint64_t ds[] = { 0x12f8 };
	static const uint32_t dz[] = { 0x10 };
	static const unsigned doff[] = { 48 };
	struct sframe_convert_input in;
	static struct cfi eh, dbg;

	(void)state;
	build_dup_eh(&eh, es, ez, eo, 3);
	build_dup_debug(&dbg, ds, dz, doff, 1);
	in = input(SFRAME_EM_X86_64, false, 0, &eh, &dbg);
	convert_ok(&in);
	expect_none(0x1100, 0x10);
	expect_fn(0x1110, 0x20, 2, ROWS({ 0, X(8) }, { 4, X(24) }));
	expect_none(0x12f8, 0x8);
	expect_fn(0x1300, 0x20, 2, ROWS({ 0, X(8) }, { 4, X(40) }));
	assert_int_equal(st.functions, 2);
	assert_int_equal(st.skipped[SFRAME_SKIP_DUPLICATE], 2);
	assert_int_equal(st.skipped_bytes[SFRAME_SKIP_DUPLICATE], 0x30);
}

/*
 * Left out, not lost: EMPTY (a zero range; in .debug_frame a start of 0,
 * what linkers leave there for discarded functions) and NOT_TEXT (outside
 * every executable range given). Text: [0, 0x2000) and [0x3000, 0x3100).
 *   0x1000+0x10 kept; 0x1100+0 empty; 0+0x10 kept (.eh_frame: linkers
 *   remove discarded FDEs there, so this is code at 0, as in a relocatable
 *   object laid out from 0); 0x2800+0x10 not-text; 0x3000+0x10 kept.
 * Then a .debug_frame FDE at 0: empty.
 */
static void test_empty_not_text(void **state)
{
	static const struct sframe_addr_range text[] = { { 0, 0x2000 }, { 0x3000, 0x3100 } };
	struct sframe_convert_input in;
	struct cfi c;
	static struct cfi d;
	size_t cie, cie_abs;

	(void)state;
	cfi_init(&c, false, EH_ADDR, false, false);
	cie = cie_x86(&c, "zR", PCREL4);
	cie_abs = cie_x86(&c, "zR", PE_udata8);
	fde_begin(&c, cie, PCREL4, 0x1000, 0x10, true);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_offset, 16);
	entry_end(&c);
	fde_begin(&c, cie, PCREL4, 0x1100, 0, true);
	entry_end(&c);
	fde_begin(&c, cie_abs, PE_udata8, 0, 0x10, true);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_offset, 16);
	entry_end(&c);
	fde_begin(&c, cie, PCREL4, 0x2800, 0x10, true);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_offset, 16);
	entry_end(&c);
	fde_begin(&c, cie, PCREL4, 0x3000, 0x10, true);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_offset, 24);
	entry_end(&c);

	in = input(SFRAME_EM_X86_64, false, 0, &c, NULL);
	in.text = text;
	in.num_text = 2;
	convert_ok(&in);
	expect_fn(0x1000, 0x10, 2, ROWS({ 0, X(8) }, { 4, X(16) }));
	expect_fn(0x3000, 0x10, 2, ROWS({ 0, X(8) }, { 4, X(24) }));
	expect_fn(0, 0x10, 2, ROWS({ 0, X(8) }, { 4, X(16) }));
	expect_none(0x2800, 0x10);
	assert_int_equal(st.fdes, 5);
	assert_int_equal(st.functions, 3);
	assert_int_equal(st.skipped[SFRAME_SKIP_EMPTY], 1);
	assert_int_equal(st.skipped[SFRAME_SKIP_NOT_TEXT], 1);
	assert_int_equal(st.skipped_bytes[SFRAME_SKIP_NOT_TEXT], 0x10);
	assert_int_equal(skipped_total(), 2);

	/* Without ranges every FDE with code is kept. */
	in.text = NULL;
	in.num_text = 0;
	convert_ok(&in);
	expect_fn(0x2800, 0x10, 2, ROWS({ 0, X(8) }, { 4, X(16) }));
	assert_int_equal(st.functions, 4);
	assert_int_equal(st.skipped[SFRAME_SKIP_EMPTY], 1);
	assert_int_equal(skipped_total(), 1);

	/* .debug_frame: the start of 0 is a discarded function's. */
	cfi_init(&d, false, 0, true, false);
	cie = cie_begin(&d, 1, "", 1, -8, X_RA);
	op_uu(&d, CFA_def_cfa, X_RSP, 8);
	off_(&d, X_RA, 1);
	entry_end(&d);
	fde_begin(&d, cie, PE_absptr, 0, 0x10, false);
	adv(&d, 4);
	op_u(&d, CFA_def_cfa_offset, 16);
	entry_end(&d);
	in = input(SFRAME_EM_X86_64, false, 0, NULL, &d);
	convert_ok(&in);
	expect_none(0, 0x10);
	assert_int_equal(st.functions, 0);
	assert_int_equal(st.skipped[SFRAME_SKIP_EMPTY], 1);
	assert_int_equal(skipped_total(), 1);
}

/*
 * Malformed FDEs and CIEs are left out one by one; problem_offset is the
 * first of them. In .eh_frame order:
 *   0x1000 kept
 *   0x1100 unknown instruction 0x17 (none in DWARF 5 has that code)  <- first
 *   0x1200 restore_state without remember_state
 *   0x1300 set_loc backwards (rows going backwards)
 *   0x1400 def_cfa_expression of 16 bytes with 2 left in the entry
 *   0x1500 a start in datarel (no data base given to the converter)
 *   0x1600 its CIE has augmentation "X" (unknown, no z to skip it)
 *   0x1700 kept
 * The same malformed FDE alone in .debug_frame: problem_in_debug_frame.
 */
static void test_malformed(void **state)
{
	struct sframe_convert_input in;
	static struct cfi c, d;
	size_t cie, bad, first_bad;

	(void)state;
	cfi_init(&c, false, EH_ADDR, false, false);
	cie = cie_x86(&c, "zR", PCREL4);
	fde_begin(&c, cie, PCREL4, 0x1000, 0x10, true);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_offset, 16);
	entry_end(&c);
	first_bad = fde_begin(&c, cie, PCREL4, 0x1100, 0x10, true);
	adv(&c, 4);
	op(&c, 0x17);
	entry_end(&c);
	fde_begin(&c, cie, PCREL4, 0x1200, 0x10, true);
	adv(&c, 4);
	op(&c, CFA_restore_state);
	entry_end(&c);
	fde_begin(&c, cie, PCREL4, 0x1300, 0x10, true);
	op(&c, CFA_set_loc);
	c_ptr(&c, PCREL4, 0x1308);
	op_u(&c, CFA_def_cfa_offset, 16);
	op(&c, CFA_set_loc);
	c_ptr(&c, PCREL4, 0x1304);
	op_u(&c, CFA_def_cfa_offset, 24);
	entry_end(&c);
	fde_begin(&c, cie, PCREL4, 0x1400, 0x10, true);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_expression, 16);
	op_u(&c, OP_breg0 + X_RSP, 8);
	entry_end_pad(&c, false);
	bad = cie_x86(&c, "zR", PE_datarel | PE_sdata4);
	fde_begin(&c, bad, PE_datarel | PE_sdata4, 0x1500, 0x10, true);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_offset, 16);
	entry_end(&c);
	bad = cie_begin(&c, 1, "X", 1, -8, X_RA);
	op_uu(&c, CFA_def_cfa, X_RSP, 8);
	off_(&c, X_RA, 1);
	entry_end(&c);
	fde_begin(&c, bad, PE_absptr, 0x1600, 0x10, false);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_offset, 16);
	entry_end(&c);
	fde_begin(&c, cie, PCREL4, 0x1700, 0x10, true);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_offset, 24);
	entry_end(&c);

	in = input(SFRAME_EM_X86_64, false, 0, &c, NULL);
	convert_ok(&in);
	expect_fn(0x1000, 0x10, 2, ROWS({ 0, X(8) }, { 4, X(16) }));
	expect_none(0x1100, 0x600);
	expect_fn(0x1700, 0x10, 2, ROWS({ 0, X(8) }, { 4, X(24) }));
	assert_int_equal(st.fdes, 8);
	assert_int_equal(st.functions, 2);
	assert_int_equal(st.skipped[SFRAME_SKIP_MALFORMED], 6);
	assert_int_equal(skipped_total(), 6);
	assert_int_equal(st.problem_offset, first_bad);
	assert_false(st.problem_in_debug_frame);
	/*
	 * skipped_bytes "the bytes of code those FDEs cover": known for the
	 * four whose start and range decode (0x1100 .. 0x1400), not for the
	 * datarel start nor the FDE of the unknown CIE. So between 0x40 and
	 * 0x60.
	 */
	assert_true(st.skipped_bytes[SFRAME_SKIP_MALFORMED] >= 0x40);
	assert_true(st.skipped_bytes[SFRAME_SKIP_MALFORMED] <= 0x60);

	cfi_init(&d, false, 0, true, false);
	cie = cie_begin(&d, 1, "", 1, -8, X_RA);
	op_uu(&d, CFA_def_cfa, X_RSP, 8);
	off_(&d, X_RA, 1);
	entry_end(&d);
	first_bad = fde_begin(&d, cie, PE_absptr, 0x1800, 0x10, false);
	adv(&d, 4);
	op(&d, 0x17);
	entry_end(&d);
	in = input(SFRAME_EM_X86_64, false, 0, NULL, &d);
	convert_ok(&in);
	assert_int_equal(st.functions, 0);
	assert_int_equal(sec.num_fdes, 0);
	assert_int_equal(st.skipped[SFRAME_SKIP_MALFORMED], 1);
	assert_int_equal(st.problem_offset, first_bad);
	assert_true(st.problem_in_debug_frame);
}

/* ---- AArch64 ------------------------------------------------------------------ */

/* AArch64 rules: CFA = reg + off, RA and FP as given. */
static struct sframe_rules A(uint32_t reg, int32_t off, struct sframe_loc ra, struct sframe_loc fp)
{
	return rl(reg, off, ra, fp);
}

/*
 * AArch64, code_align 4 (an advance of 1 is one instruction).
 * PAC at 0x2000, 0x30 bytes (A key):
 *   +0  CFA sp+0, RA in LR (no rule), FP unchanged
 *   +4  negate_ra_state (paciasp): mangled
 *   +8  def_cfa_offset 16; offset x29, 2 (c-16); offset x30, 1 (c-8)
 *   +12 def_cfa_register x29                   -> fp+16
 *   +16 remember_state; def_cfa sp, 16         -> sp+16
 *   +20 def_cfa_offset 0; restore x29; restore x30 -> sp+0, in LR, mangled
 *   +24 negate_ra_state (autiasp): not mangled
 *   +28 restore_state: the row remembered at +16 (fp+16, saved, mangled)
 * KEYB at 0x2100 (CIE "zRB"): +4 negate; +8 the frame record: key B.
 * RAONLY at 0x2200: +4 def_cfa_offset 16; offset x30, 2: RA at c-16, FP
 *   unchanged (two words).
 * Left out:
 *   0x2300 offset x29 without x30                  -> fp-without-ra
 *   0x2400 def_cfa x9, 0                            -> cfa-register
 *   0x2500 register x30, x9                         -> ra-rule
 *   0x2600 negate_ra_state_with_pc (0x2c)          -> pauth
 *   0x2700 set_ra_state (0x2b, an operand 0 or a nop after it) -> pauth
 *   0x2800 register x29, x9                         -> fp-rule
 *   0x2900 def_cfa_expression (breg29 -8; deref): no FLEX on AArch64
 */
static void build_a64(struct cfi *c, bool be)
{
	size_t cie, cieb;

	cfi_init(c, be, EH_ADDR, false, false);
	cie = cie_a64(c, "zR");
	cieb = cie_a64(c, "zRB");

	fde_begin(c, cie, PCREL4, 0x2000, 0x30, true);
	adv(c, 1);
	op(c, CFA_AARCH64_negate_ra_state);
	adv(c, 1);
	op_u(c, CFA_def_cfa_offset, 16);
	off_(c, A_FP, 2);
	off_(c, A_LR, 1);
	adv(c, 1);
	op_u(c, CFA_def_cfa_register, A_FP);
	adv(c, 1);
	op(c, CFA_remember_state);
	op_uu(c, CFA_def_cfa, A_SP, 16);
	adv(c, 1);
	op_u(c, CFA_def_cfa_offset, 0);
	rest(c, A_FP);
	rest(c, A_LR);
	adv(c, 1);
	op(c, CFA_AARCH64_negate_ra_state);
	adv(c, 1);
	op(c, CFA_restore_state);
	entry_end(c);

	fde_begin(c, cieb, PCREL4, 0x2100, 0x10, true);
	adv(c, 1);
	op(c, CFA_AARCH64_negate_ra_state);
	adv(c, 1);
	op_u(c, CFA_def_cfa_offset, 16);
	off_(c, A_FP, 2);
	off_(c, A_LR, 1);
	entry_end(c);

	fde_begin(c, cie, PCREL4, 0x2200, 0x10, true);
	adv(c, 1);
	op_u(c, CFA_def_cfa_offset, 16);
	off_(c, A_LR, 2);
	entry_end(c);

	fde_begin(c, cie, PCREL4, 0x2300, 0x10, true);
	adv(c, 1);
	op_u(c, CFA_def_cfa_offset, 16);
	off_(c, A_FP, 2);
	entry_end(c);
	fde_begin(c, cie, PCREL4, 0x2400, 0x10, true);
	adv(c, 1);
	op_uu(c, CFA_def_cfa, A_X9, 0);
	entry_end(c);
	fde_begin(c, cie, PCREL4, 0x2500, 0x10, true);
	adv(c, 1);
	op_uu(c, CFA_register, A_LR, A_X9);
	entry_end(c);
	fde_begin(c, cie, PCREL4, 0x2600, 0x10, true);
	adv(c, 1);
	op(c, CFA_AARCH64_negate_ra_state_with_pc);
	entry_end(c);
	fde_begin(c, cie, PCREL4, 0x2700, 0x10, true);
	adv(c, 1);
	op(c, CFA_AARCH64_set_ra_state);
	c_u8(c, 0);
	entry_end(c);
	fde_begin(c, cie, PCREL4, 0x2800, 0x10, true);
	adv(c, 1);
	op_uu(c, CFA_register, A_FP, A_X9);
	entry_end(c);
	fde_begin(c, cie, PCREL4, 0x2900, 0x10, true);
	adv(c, 1);
	def_cfa_deref(c, A_FP, -8);
	entry_end(c);
}

static void check_a64(bool be, uint8_t version)
{
	struct sframe_convert_input in;
	static struct cfi c;
	struct sframe_rules framed = A(A_SP, 16, slot(-8), slot(-16));

	build_a64(&c, be);
	in = input(SFRAME_EM_AARCH64, be, version, &c, NULL);
	convert_ok(&in);
	expect_fn(0x2000, 0x30, 8,
		  ROWS({ 0, A(A_SP, 0, same(), same()) },
		       { 4, mangled(A(A_SP, 0, same(), same())) },
		       { 8, mangled(framed) },
		       { 12, mangled(A(A_FP, 16, slot(-8), slot(-16))) },
		       { 16, mangled(framed) },
		       { 20, mangled(A(A_SP, 0, same(), same())) },
		       { 24, A(A_SP, 0, same(), same()) },
		       { 28, mangled(A(A_FP, 16, slot(-8), slot(-16))) }));
	assert_int_equal(fde_at(0x2000).pauth_key, SFRAME_PAUTH_KEY_A);
	expect_fn(0x2100, 0x10, 3, ROWS({ 0, A(A_SP, 0, same(), same()) },
					 { 4, mangled(A(A_SP, 0, same(), same())) },
					 { 8, mangled(framed) }));
	assert_int_equal(fde_at(0x2100).pauth_key, SFRAME_PAUTH_KEY_B);
	expect_fn(0x2200, 0x10, 2, ROWS({ 0, A(A_SP, 0, same(), same()) },
					 { 4, A(A_SP, 16, slot(-16), same()) }));
	expect_none(0x2300, 0x700);
	assert_int_equal(st.functions, 3);
	assert_int_equal(st.flex, 0);
	assert_int_equal(st.skipped[SFRAME_SKIP_FP_WITHOUT_RA], 1);
	/* 0x2400's CFA register; 0x2900's dereferenced CFA, a register or an
	 * expression SFrame cannot say for AArch64, either way. */
	assert_true(st.skipped[SFRAME_SKIP_CFA_REG] >= 1);
	assert_int_equal(st.skipped[SFRAME_SKIP_CFA_REG] + st.skipped[SFRAME_SKIP_CFA_EXPR], 2);
	assert_int_equal(st.skipped[SFRAME_SKIP_RA_RULE], 1);
	assert_int_equal(st.skipped[SFRAME_SKIP_FP_RULE], 1);
	assert_int_equal(st.skipped[SFRAME_SKIP_PAUTH], 2);
	assert_int_equal(skipped_total(), 7);
}

static void test_aarch64_le(void **state)
{
	(void)state;
	check_a64(false, SFRAME_VERSION_3);
	check_a64(false, SFRAME_VERSION_2);
}

static void test_aarch64_be(void **state)
{
	(void)state;
	check_a64(true, SFRAME_VERSION_3);
	check_a64(true, SFRAME_VERSION_2);
}

/* ---- s390x -------------------------------------------------------------------- */

/*
 * s390x (big-endian), CFA = r15 + 160 (the caller's SP + its register save
 * area), RA r14 with no rule in the CIE: still in r14.
 * FRAME at 0x3000, 0x40 bytes, as GCC's prologue:
 *   +6    stmg %r11,%r15,88(%r15): offset r11, 9 (c-72); r14, 6 (c-48);
 *         r15, 5 (c-40: the caller's SP, the CFA - 160 SFrame assumes)
 *   +12   aghi %r15,-168: def_cfa_offset 328
 *   +16   lgr %r11,%r15: def_cfa_register r11
 *   +0x30 lmg: def_cfa r15, 160; restore r11, r14, r15
 * LEAF at 0x3100, 0x20 bytes (a leaf keeping RA and FP in FPRs):
 *   +4 register r14, f0 (16)   +8 register r11, f2 (17)
 *   +16 restore r14, r11
 *   v3: a FLEX FDE; v2: the RA/FP words (regnum << 1) | 1 - the same rules.
 * FPONLY at 0x3200: +2 offset r11, 9: FP at c-72, RA still in r14.
 * Left out:
 *   0x3300 def_cfa_offset 164: not 160 + 8n            -> range
 * CFAR12 at 0x3400: +2 def_cfa r12, 160: v3 FLEX; v2 left out.
 */
static void build_s390(struct cfi *c)
{
	size_t cie;

	cfi_init(c, true, EH_ADDR, false, false);
	cie = cie_s390(c);
	fde_begin(c, cie, PCREL4, 0x3000, 0x40, true);
	adv(c, 6);
	off_(c, Z_R11, 9);
	off_(c, Z_R14, 6);
	off_(c, Z_R15, 5);
	adv(c, 6);
	op_u(c, CFA_def_cfa_offset, 328);
	adv(c, 4);
	op_u(c, CFA_def_cfa_register, Z_R11);
	adv(c, 0x20);
	op_uu(c, CFA_def_cfa, Z_R15, 160);
	rest(c, Z_R11);
	rest(c, Z_R14);
	rest(c, Z_R15);
	entry_end(c);

	fde_begin(c, cie, PCREL4, 0x3100, 0x20, true);
	adv(c, 4);
	op_uu(c, CFA_register, Z_R14, Z_F0);
	adv(c, 4);
	op_uu(c, CFA_register, Z_R11, Z_F2);
	adv(c, 8);
	rest(c, Z_R14);
	rest(c, Z_R11);
	entry_end(c);

	fde_begin(c, cie, PCREL4, 0x3200, 0x10, true);
	adv(c, 2);
	off_(c, Z_R11, 9);
	entry_end(c);

	fde_begin(c, cie, PCREL4, 0x3300, 0x10, true);
	adv(c, 2);
	op_u(c, CFA_def_cfa_offset, 164);
	entry_end(c);

	fde_begin(c, cie, PCREL4, 0x3400, 0x10, true);
	adv(c, 2);
	op_uu(c, CFA_def_cfa, Z_R12, 160);
	entry_end(c);
}

static struct sframe_rules Z(uint32_t reg, int32_t off, struct sframe_loc ra, struct sframe_loc fp)
{
	return rl(reg, off, ra, fp);
}

static void test_s390x(void **state)
{
	struct sframe_convert_input in;
	static struct cfi c;
	struct sframe_rules base = Z(Z_R15, 160, same(), same());
	int v;

	(void)state;
	build_s390(&c);
	for (v = 3; v >= 2; v--) {
		in = input(SFRAME_EM_S390, true, (uint8_t)v, &c, NULL);
		convert_ok(&in);
		expect_fn(0x3000, 0x40, 5,
			  ROWS({ 0, base }, { 6, Z(Z_R15, 160, slot(-48), slot(-72)) },
			       { 12, Z(Z_R15, 328, slot(-48), slot(-72)) },
			       { 16, Z(Z_R11, 328, slot(-48), slot(-72)) }, { 0x30, base }));
		expect_fn(0x3100, 0x20, 4,
			  ROWS({ 0, base }, { 4, Z(Z_R15, 160, in_reg(Z_F0), same()) },
			       { 8, Z(Z_R15, 160, in_reg(Z_F0), in_reg(Z_F2)) }, { 16, base }));
		assert_int_equal(fde_at(0x3100).fde_type,
				 v == 3 ? SFRAME_FDE_TYPE_FLEX : SFRAME_FDE_TYPE_DEFAULT);
		expect_fn(0x3200, 0x10, 2, ROWS({ 0, base }, { 2, Z(Z_R15, 160, same(), slot(-72)) }));
		expect_none(0x3300, 0x10);
		assert_int_equal(st.skipped[SFRAME_SKIP_RANGE], 1);
		if (v == 3) {
			expect_fn(0x3400, 0x10, 2,
				  ROWS({ 0, base }, { 2, Z(Z_R12, 160, same(), same()) }));
			assert_int_equal(st.functions, 4);
			assert_int_equal(st.flex, 2);
			assert_int_equal(skipped_total(), 1);
		} else {
			expect_none(0x3400, 0x10);
			assert_int_equal(st.functions, 3);
			assert_int_equal(st.flex, 0);
			assert_int_equal(st.skipped[SFRAME_SKIP_CFA_REG], 1);
			assert_int_equal(skipped_total(), 2);
		}
	}
}

/* ---- Errors ---------------------------------------------------------------------- */

/* An entry whose length runs past the end: the walk cannot go on. */
static void test_err_entry(void **state)
{
	struct sframe_convert_input in;
	struct sframe_convert_stats s;
	static struct cfi c, d;
	size_t cie, badoff, size = 0, len = 0;

	(void)state;
	cfi_init(&c, false, EH_ADDR, false, false);
	cie = cie_x86(&c, "zR", PCREL4);
	fde_begin(&c, cie, PCREL4, 0x1000, 0x10, true);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_offset, 16);
	entry_end(&c);
	badoff = c.n;
	c_un(&c, 0x100, 4);	/* 0x100 bytes said, 8 there */
	c_un(&c, 0, 4);
	c_un(&c, 0, 4);

	in = input(SFRAME_EM_X86_64, false, 0, &c, NULL);
	memset(&s, 0, sizeof(s));
	assert_cerr(sframe_convert_size(&in, &size, &s), -SFRAME_CONVERT_ERR_ENTRY);
	assert_int_equal(s.problem_offset, badoff);
	assert_false(s.problem_in_debug_frame);
	memset(&s, 0, sizeof(s));
	assert_cerr(sframe_convert(&in, out, OUT_MAX, &len, &s), -SFRAME_CONVERT_ERR_ENTRY);
	assert_int_equal(s.problem_offset, badoff);
	assert_false(s.problem_in_debug_frame);

	/* In .debug_frame, 64-bit DWARF. */
	cfi_init(&d, false, 0, true, true);
	cie = cie_begin(&d, 1, "", 1, -8, X_RA);
	op_uu(&d, CFA_def_cfa, X_RSP, 8);
	off_(&d, X_RA, 1);
	entry_end(&d);
	badoff = d.n;
	c_un(&d, 0xffffffffu, 4);
	c_un(&d, 0x1000, 8);
	c_un(&d, 0, 8);
	in = input(SFRAME_EM_X86_64, false, 0, NULL, &d);
	memset(&s, 0, sizeof(s));
	assert_cerr(sframe_convert(&in, out, OUT_MAX, &len, &s), -SFRAME_CONVERT_ERR_ENTRY);
	assert_int_equal(s.problem_offset, badoff);
	assert_true(s.problem_in_debug_frame);
	(void)cie;

	/*
	 * An FDE whose CIE pointer leads before the section: the entries
	 * after it are still found, so it is only left out (malformed), as
	 * sframe_convert.h says; problem_offset names it.
	 */
	cfi_init(&c, false, EH_ADDR, false, false);
	cie = cie_x86(&c, "zR", PCREL4);
	badoff = entry_begin(&c);
	c_un(&c, c.n + 0x100, 4);
	c_ptr(&c, PCREL4, 0x1000);
	c_ptr(&c, PE_sdata4, 0x10);
	c_u8(&c, 0);
	entry_end(&c);
	in = input(SFRAME_EM_X86_64, false, 0, &c, NULL);
	memset(&s, 0, sizeof(s));
	assert_cerr(sframe_convert(&in, out, OUT_MAX, &len, &s), 0);
	assert_int_equal(s.problem_offset, badoff);
	assert_int_equal(s.skipped[SFRAME_SKIP_MALFORMED], 1);
	assert_int_equal(s.functions, 0);
	(void)cie;
}

/* Sizes, arguments, machines, versions, the terminator. */
static void test_err_misc(void **state)
{
	struct sframe_convert_input in;
	static struct cfi c;
	size_t cie, size = 0, len = 0;

	(void)state;
	cfi_init(&c, false, EH_ADDR, false, false);
	cie = cie_x86(&c, "zR", PCREL4);
	fde_begin(&c, cie, PCREL4, 0x1000, 0x10, true);
	adv(&c, 4);
	op_u(&c, CFA_def_cfa_offset, 16);
	entry_end(&c);

	in = input(SFRAME_EM_X86_64, false, 0, &c, NULL);
	assert_cerr(sframe_convert_size(&in, &size, NULL), 0);
	/* One byte short. */
	assert_cerr(sframe_convert(&in, out, size - 1, &len, NULL), -SFRAME_CONVERT_ERR_SPACE);
	assert_cerr(sframe_convert(&in, out, 0, &len, NULL), -SFRAME_CONVERT_ERR_SPACE);
	/* Exactly enough. */
	assert_cerr(sframe_convert(&in, out, size, &len, NULL), 0);
	assert_true(len <= size);

	/* i386 has no SFrame ABI. */
	in.machine = 3;
	assert_cerr(sframe_convert_size(&in, &size, NULL), -SFRAME_CONVERT_ERR_MACHINE);
	assert_cerr(sframe_convert(&in, out, OUT_MAX, &len, NULL), -SFRAME_CONVERT_ERR_MACHINE);
	in.machine = SFRAME_EM_X86_64;

	/* Versions other than 2 and 3 (0 meaning 3). */
	in.version = 1;
	assert_cerr(sframe_convert_size(&in, &size, NULL), -SFRAME_ERR_INVAL);
	assert_cerr(sframe_convert(&in, out, OUT_MAX, &len, NULL), -SFRAME_ERR_INVAL);
	in.version = 4;
	assert_cerr(sframe_convert_size(&in, &size, NULL), -SFRAME_ERR_INVAL);
	in.version = 0;
	convert_ok(&in);
	assert_int_equal(sec.version, SFRAME_VERSION_3);

	assert_cerr(sframe_convert_size(NULL, &size, NULL), -SFRAME_ERR_INVAL);
	assert_cerr(sframe_convert(NULL, out, OUT_MAX, &len, NULL), -SFRAME_ERR_INVAL);

	/* Nothing to convert: a header, no functions. */
	in = input(SFRAME_EM_X86_64, false, 0, NULL, NULL);
	convert_ok(&in);
	assert_int_equal(sec.num_fdes, 0);
	assert_int_equal(out_len, SFRAME_HDR_SIZE);

	/*
	 * .eh_frame found through .eh_frame_hdr: its size an upper bound, the
	 * walk ends at the zero terminator; what follows is not read.
	 */
	c_un(&c, 0, 4);
	memset(c.b + c.n, 0xff, 64);
	c.n += 64;
	in = input(SFRAME_EM_X86_64, false, 0, &c, NULL);
	convert_ok(&in);
	expect_fn(0x1000, 0x10, 2, ROWS({ 0, X(8) }, { 4, X(16) }));
	assert_int_equal(st.fdes, 1);
	assert_int_equal(st.functions, 1);
}

/*
 * sframe_convert_size(): the section and a working record per function
 * (16 bytes in v3, 24 in v2) that sframe_convert() keeps at the buffer's
 * end while it sorts; "less than twice the section's length". Inputs
 * without duplicates, from one function to many: size = length + records,
 * exactly, and below twice the length.
 */
static void test_size_exact(void **state)
{
	struct sframe_convert_input in;
	static struct cfi c;
	size_t size, len;
	unsigned n, i, fns;
	size_t cie;

	(void)state;
	for (n = 0; n <= 40; n += 8) {
		fns = n ? n : 1;
		cfi_init(&c, false, EH_ADDR, false, false);
		cie = cie_x86(&c, "zR", PCREL4);
		for (i = 0; i < fns; i++) {
			fde_begin(&c, cie, PCREL4, 0x1000 + 0x40 * i, 0x20, true);
			adv(&c, 1 + i % 8);
			op_u(&c, CFA_def_cfa_offset, 16);
			adv(&c, 4);
			op_u(&c, CFA_def_cfa_offset, 8 + 8 * i);
			entry_end(&c);
		}
		for (i = 0; i < 2; i++) {
			in = input(SFRAME_EM_X86_64, false, i ? SFRAME_VERSION_2 : SFRAME_VERSION_3,
				   &c, NULL);
			size = len = 0;
			assert_cerr(sframe_convert_size(&in, &size, NULL), 0);
			assert_cerr(sframe_convert(&in, out, size, &len, NULL), 0);
			if (len + fns * (i ? 24u : 16u) != size)
				print_message("%u functions, v%u: size %zu, length %zu\n", fns,
					      i ? 2 : 3, size, len);
			assert_int_equal(len + fns * (i ? 24u : 16u), size);
			assert_true(size < 2 * len);
			/* One byte less is too little. */
			assert_cerr(sframe_convert(&in, out, size - 1, &len, NULL),
				    -SFRAME_CONVERT_ERR_SPACE);
		}
	}
}

/* ---- .eh_frame_hdr -------------------------------------------------------------- */

/*
 * .eh_frame_hdr (LSB): version 1, eh_frame_ptr_enc, fde_count_enc,
 * table_enc, then eh_frame_ptr. GNU ld writes pcrel|sdata4 (0x1b): relative
 * to the field at offset 4.
 */
static void test_eh_frame_hdr(void **state)
{
	struct sframe_cfi_bytes hdr;
	struct cfi h;
	uint64_t addr;
	int be;

	(void)state;
	for (be = 0; be <= 1; be++) {
		cfi_init(&h, be, 0x3000, false, false);
		c_u8(&h, 1);
		c_u8(&h, PCREL4);
		c_u8(&h, PE_udata4);
		c_u8(&h, PE_datarel | PE_sdata4);
		c_ptr(&h, PCREL4, 0x4000);	/* at 0x3004: 0xffc */
		c_un(&h, 0, 4);
		hdr = (struct sframe_cfi_bytes){ h.b, h.n, h.addr };
		addr = 0;
		assert_cerr(sframe_eh_frame_hdr_ptr(&hdr, be, &addr), 0);
		assert_int_equal(addr, 0x4000);

		/* Below the header: negative. */
		h.n = 4;
		c_ptr(&h, PCREL4, 0x1000);
		addr = 0;
		assert_cerr(sframe_eh_frame_hdr_ptr(&hdr, be, &addr), 0);
		assert_int_equal(addr, 0x1000);

		/* Absolute: udata4, udata8, sdata4, absptr (8 bytes). */
		h.b[1] = PE_udata4;
		h.n = 4;
		c_ptr(&h, PE_udata4, 0x12345678);
		hdr.size = h.n + 4;
		assert_cerr(sframe_eh_frame_hdr_ptr(&hdr, be, &addr), 0);
		assert_int_equal(addr, 0x12345678);
		h.b[1] = PE_udata8;
		h.n = 4;
		c_ptr(&h, PE_udata8, 0x123456789aull);
		hdr.size = h.n + 4;
		assert_cerr(sframe_eh_frame_hdr_ptr(&hdr, be, &addr), 0);
		assert_int_equal(addr, 0x123456789aull);
		h.b[1] = PE_absptr;
		assert_cerr(sframe_eh_frame_hdr_ptr(&hdr, be, &addr), 0);
		assert_int_equal(addr, 0x123456789aull);
		h.b[1] = PE_sdata4;
		h.n = 4;
		c_ptr(&h, PE_sdata4, 0x4000);
		hdr.size = h.n + 4;
		assert_cerr(sframe_eh_frame_hdr_ptr(&hdr, be, &addr), 0);
		assert_int_equal(addr, 0x4000);

		/* Not version 1; omitted pointer; truncated; no header. */
		h.b[0] = 2;
		assert_cerr(sframe_eh_frame_hdr_ptr(&hdr, be, &addr), -SFRAME_CONVERT_ERR_ENTRY);
		h.b[0] = 1;
		h.b[1] = PE_omit;
		assert_cerr(sframe_eh_frame_hdr_ptr(&hdr, be, &addr), -SFRAME_CONVERT_ERR_ENTRY);
		h.b[1] = PCREL4;
		hdr.size = 6;
		assert_true(sframe_eh_frame_hdr_ptr(&hdr, be, &addr) < 0);
		hdr.size = 0;
		assert_true(sframe_eh_frame_hdr_ptr(&hdr, be, &addr) < 0);
		assert_cerr(sframe_eh_frame_hdr_ptr(NULL, be, &addr), -SFRAME_ERR_INVAL);
		hdr.size = h.n;
		assert_cerr(sframe_eh_frame_hdr_ptr(&hdr, be, NULL), -SFRAME_ERR_INVAL);
	}
}

/* ---- Names ---------------------------------------------------------------------- */

static void test_names(void **state)
{
	static const char *const errnames[] = {
		"SFRAME_CONVERT_ERR_MACHINE", "SFRAME_CONVERT_ERR_ENTRY",
		"SFRAME_CONVERT_ERR_SPACE", "SFRAME_CONVERT_ERR_TOO_BIG",
	};
	const char *names[SFRAME_SKIP_COUNT];
	unsigned i, j;
	int e;

	(void)state;
	for (i = 0; i < SFRAME_SKIP_COUNT; i++) {
		const char *p;

		names[i] = sframe_convert_skip_name(i);
		assert_non_null(names[i]);
		assert_true(names[i][0] != '\0');
		assert_string_not_equal(names[i], "unknown");
		/* Short lowercase words joined by '-', as the tool prints them. */
		for (p = names[i]; *p; p++)
			assert_true((*p >= 'a' && *p <= 'z') || *p == '-');
		for (j = 0; j < i; j++)
			assert_string_not_equal(names[i], names[j]);
	}
	/* The one name the header gives. */
	assert_string_equal(sframe_convert_skip_name(SFRAME_SKIP_CFA_EXPR), "cfa-expression");
	assert_string_equal(sframe_convert_skip_name(SFRAME_SKIP_COUNT), "unknown");
	assert_string_equal(sframe_convert_skip_name(1000), "unknown");

	for (e = SFRAME_CONVERT_ERR_BASE; e <= SFRAME_CONVERT_ERR_MAX; e++) {
		const char *msg = sframe_convert_strerror(-e);

		assert_non_null(msg);
		assert_true(msg[0] != '\0');
		assert_string_equal(sframe_convert_errname(-e), errnames[e - SFRAME_CONVERT_ERR_BASE]);
		/* Not the reader's text for a code it does not know. */
		assert_string_not_equal(msg, sframe_strerror(-e));
		for (j = SFRAME_CONVERT_ERR_BASE; j < (unsigned)e; j++)
			assert_string_not_equal(msg, sframe_convert_strerror(-(int)j));
	}
	/* The reader's codes: the reader's own texts and names. */
	for (e = SFRAME_ERR_BASE; e <= SFRAME_ERR_MAX; e++) {
		assert_string_equal(sframe_convert_strerror(-e), sframe_strerror(-e));
		assert_string_equal(sframe_convert_errname(-e), sframe_errname(-e));
	}
	assert_string_equal(sframe_convert_strerror(0), sframe_strerror(0));
	assert_string_equal(sframe_convert_errname(0), sframe_errname(0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_rows),
		cmocka_unit_test(test_x86_instructions),
		cmocka_unit_test(test_x86_restore_to_cie),
		cmocka_unit_test(test_x86_remember_restore),
		cmocka_unit_test(test_x86_gas_differs),
		cmocka_unit_test(test_x86_set_loc),
		cmocka_unit_test(test_x86_outermost),
		cmocka_unit_test(test_x86_flex),
		cmocka_unit_test(test_x86_unexpressible),
		cmocka_unit_test(test_x86_plt),
		cmocka_unit_test(test_x86_signal),
		cmocka_unit_test(test_pointer_encodings),
		cmocka_unit_test(test_augmentations),
		cmocka_unit_test(test_debug_frame),
		cmocka_unit_test(test_by_function),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_overlap_order),
		cmocka_unit_test(test_empty_not_text),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_aarch64_le),
		cmocka_unit_test(test_aarch64_be),
		cmocka_unit_test(test_s390x),
		cmocka_unit_test(test_err_entry),
		cmocka_unit_test(test_err_misc),
		cmocka_unit_test(test_size_exact),
		cmocka_unit_test(test_eh_frame_hdr),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
