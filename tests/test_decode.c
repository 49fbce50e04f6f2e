/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_decode.c - sframe_open() header decoding, sframe_get_fde() and FRE
 * iteration, for every version, ABI and byte order, on hand-built sections.
 * Also checks the test builder itself against bytes written out by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "builder.h"

static struct sfb b;
static uint8_t buf[SFB_MAX_OUT];
static struct sframe_section sec;
static struct sfb_reader rd;

/* ---- the builder, checked against hand-written bytes -------------------- */

static void test_builder_bytes_v2_le(void **state)
{
	/*
	 * v2, amd64, sorted + PCREL, section at 0x1000, one function at 0x2000
	 * of 0x20 bytes (ADDR1, PCINC) with rows sp+8 at 0 and sp+16/fp@-16 at 4.
	 * Start field = 0x2000 - (0x1000 + 28) = 0xfe4.
	 */
	static const uint8_t want[] = {
		0xe2, 0xde, 0x02, 0x05, 0x03, 0x00, 0xf8, 0x00,
		0x01, 0x00, 0x00, 0x00,	/* num_fdes */
		0x02, 0x00, 0x00, 0x00,	/* num_fres */
		0x07, 0x00, 0x00, 0x00,	/* fre_len */
		0x00, 0x00, 0x00, 0x00,	/* fdeoff */
		0x14, 0x00, 0x00, 0x00,	/* freoff = 1 * 20 */
		0xe4, 0x0f, 0x00, 0x00,	/* start */
		0x20, 0x00, 0x00, 0x00,	/* size */
		0x00, 0x00, 0x00, 0x00,	/* fre_off */
		0x02, 0x00, 0x00, 0x00,	/* num_fres */
		0x00, 0x00, 0x00, 0x00,	/* info, rep_size, padding */
		0x00, 0x03, 0x08,	/* FRE 0: start 0, SP, N=1, 1-byte */
		0x04, 0x05, 0x10, 0xf0,	/* FRE 1: start 4, SP, N=2, 1-byte */
	};
	size_t len;

	(void)state;
	sfb_init(&b, 2, SFRAME_ABI_AMD64_LE, false,
		 SFRAME_F_FDE_SORTED | SFRAME_F_FDE_FUNC_START_PCREL, 0x1000);
	sfb_fde(&b, 0x2000, 0x20, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_fre(&b, 4, SFRAME_BASE_REG_SP, 1, 2, 16, -16);
	len = sfb_emit(&b, buf, sizeof(buf));
	assert_int_equal(len, sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(b.fre_off[1], 28 + 20 + 3);
	assert_int_equal(b.fre_info_off[1], 28 + 20 + 4);
}

static void test_builder_bytes_v3_be(void **state)
{
	/*
	 * v3, s390x (BE), sorted + PCREL, section at 0x10000, one FLEX function
	 * at 0x8000 (before the section: negative start) of 0x100 bytes, so
	 * ADDR2; one row with the words 79 00 81 00 89 00 of libsframe's
	 * DATA-BE-V3 example. Start = 0x8000 - (0x10000 + 28) = -0x801c.
	 */
	static const uint8_t want[] = {
		0xde, 0xe2, 0x03, 0x05, 0x04, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x01,	/* num_fdes */
		0x00, 0x00, 0x00, 0x01,	/* num_fres */
		0x00, 0x00, 0x00, 0x0e,	/* fre_len: 5 + 9 */
		0x00, 0x00, 0x00, 0x00,	/* fdeoff */
		0x00, 0x00, 0x00, 0x10,	/* freoff = 1 * 16 */
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0xe4,	/* s64 start */
		0x00, 0x00, 0x01, 0x00,	/* size */
		0x00, 0x00, 0x00, 0x00,	/* fre_off: the attribute record */
		0x00, 0x01, 0x01, 0x01, 0x00,	/* num_fres, info (ADDR2), info2 FLEX, rep */
		0x00, 0x00, 0x0c,	/* FRE start 0, info: FP base, N=6, 1-byte */
		0x79, 0x00, 0x81, 0x00, 0x89, 0x00,
	};
	struct sfb_fde *f;
	size_t len;

	(void)state;
	sfb_init(&b, 3, SFRAME_ABI_S390X_BE, true,
		 SFRAME_F_FDE_SORTED | SFRAME_F_FDE_FUNC_START_PCREL, 0x10000);
	f = sfb_fde(&b, 0x8000, 0x100, SFRAME_FRE_TYPE_ADDR2, SFRAME_PC_TYPE_INC);
	f->fde_type = SFRAME_FDE_TYPE_FLEX;
	sfb_fre(&b, 0, SFRAME_BASE_REG_FP, 1, 6, 0x79, 0, 0x81, 0, 0x89, 0);
	len = sfb_emit(&b, buf, sizeof(buf));
	assert_int_equal(len, sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(b.attr_off[0], 44);
	assert_int_equal(b.fre_off[0], 49);
	assert_int_equal(sfb_get(&b, buf, 28, 8), (uint64_t)-0x801c);
}

static void test_builder_bytes_v1(void **state)
{
	/* v1: 17-byte FDEs, so the second one starts at 28 + 17 = 45, unaligned. */
	size_t len;

	(void)state;
	sfb_init(&b, 1, SFRAME_ABI_AARCH64_LE, false, 0, 0x4000);
	sfb_fde(&b, 0x1000, 0x10, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 0);
	sfb_fde(&b, 0x1010, 0x10, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 0);
	len = sfb_emit(&b, buf, sizeof(buf));
	assert_int_equal(len, 28 + 2 * 17 + 2 * 3);
	assert_int_equal(b.fde_off[1], 45);
	assert_int_equal(sfb_get(&b, buf, SFRAME_HDR_FRE_OFF, 4), 34);
	/* Section relative: 0x1010 - 0x4000. */
	assert_int_equal(sfb_get(&b, buf, 45, 4), (uint32_t)(0x1010 - 0x4000));
	assert_int_equal(sfb_get(&b, buf, 45 + 8, 4), 3);	/* fre_off */
}

/* ---- sframe_open(): header fields ---------------------------------------- */

struct hdr_case {
	uint8_t version, abi, flags;
	bool be;
	uint8_t fde_size;
};

static void test_open_header_fields(void **state)
{
	static const struct hdr_case cases[] = {
		{ 1, SFRAME_ABI_AMD64_LE, 0, false, 17 },
		{ 1, SFRAME_ABI_AARCH64_LE, SFRAME_F_FDE_SORTED | SFRAME_F_FRAME_POINTER, false, 17 },
		{ 1, SFRAME_ABI_AARCH64_BE, SFRAME_F_FDE_SORTED, true, 17 },
		{ 2, SFRAME_ABI_AMD64_LE, SFRAME_F_FDE_SORTED, false, 20 },
		{ 2, SFRAME_ABI_AARCH64_LE, 0x7, false, 20 },
		{ 2, SFRAME_ABI_AARCH64_BE, SFRAME_F_FDE_FUNC_START_PCREL, true, 20 },
		{ 2, SFRAME_ABI_S390X_BE, 0x5, true, 20 },
		{ 3, SFRAME_ABI_AMD64_LE, 0x5, false, 16 },
		{ 3, SFRAME_ABI_AARCH64_LE, 0x4, false, 16 },
		{ 3, SFRAME_ABI_AARCH64_BE, 0x1, true, 16 },
		{ 3, SFRAME_ABI_S390X_BE, 0x5, true, 16 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct hdr_case *c = &cases[i];
		uint8_t aux = (uint8_t)(i * 3);	/* a few auxiliary header lengths, 0..30 */

		sfb_init(&b, c->version, c->abi, c->be, c->flags, 0x7000 + i);
		b.auxhdr_len = aux;
		b.fixed_fp = (int8_t)(c->abi == SFRAME_ABI_AMD64_LE ? 0 : -16);
		sfb_fde(&b, 0x1000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
		sfb_fre(&b, 4, SFRAME_BASE_REG_SP, 2, 1, 16);
		sfb_fde(&b, 0x1040, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
		sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0x1000 * i);

		assert_int_equal(sec.version, c->version);
		assert_int_equal(sec.flags, c->flags);
		assert_int_equal(sec.abi, c->abi);
		assert_int_equal(sec.big_endian, c->be);
		assert_int_equal(sec.fde_size, c->fde_size);
		assert_int_equal(sec.auxhdr_len, aux);
		assert_int_equal(sec.fixed_fp, b.fixed_fp);
		assert_int_equal(sec.fixed_ra, b.fixed_ra);
		assert_int_equal(sec.num_fdes, 2);
		assert_int_equal(sec.num_fres, 3);
		assert_int_equal(sec.fre_len, b.fre_len);
		assert_int_equal(sec.fde_start, 28 + aux);
		assert_int_equal(sec.fre_start, 28 + aux + 2 * c->fde_size);
		assert_int_equal(sec.base, 0x1000 * i);
		assert_int_equal(sec.vaddr, 0x7000 + i);
		assert_int_equal(sec.size, b.len);
		assert_ptr_equal(sec.read, sfb_read);
		assert_ptr_equal(sec.read_ctx, &rd);
		/* The header is read, nothing more: one read of at most 64 bytes. */
		assert_true(rd.calls >= 1);
	}
}

static void test_open_buffer(void **state)
{
	struct sframe_buffer sb;
	struct sframe_fde fde;
	size_t len;

	(void)state;
	sfb_init(&b, 2, SFRAME_ABI_AMD64_LE, false, SFRAME_F_FDE_SORTED, 0x400000);
	sfb_fde(&b, 0x401000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	len = sfb_emit(&b, buf, sizeof(buf));
	assert_err(sframe_open_buffer(&sec, &sb, buf, len, 0x400000), 0);
	assert_int_equal(sec.base, 0);
	assert_int_equal(sec.size, len);
	assert_int_equal(sec.vaddr, 0x400000);
	assert_err(sframe_get_fde(&sec, 0, &fde), 0);
	assert_int_equal(fde.func_start, 0x401000);
}

/*
 * A section opened over a buffer keeps a read callback and context that
 * read that buffer, bounds-checked, for whoever holds the struct.
 */
static void test_read_buffer(void **state)
{
	struct sframe_buffer sb;
	uint8_t data[64], out[8];
	size_t len;

	(void)state;
	sfb_init(&b, 2, SFRAME_ABI_AMD64_LE, false, 0, 0);
	len = sfb_emit(&b, data, sizeof(data));
	assert_err(sframe_open_buffer(&sec, &sb, data, len, 0), 0);
	assert_non_null(sec.read);
	assert_err(sec.read(sec.read_ctx, 0, out, 8), 0);
	assert_memory_equal(out, data, 8);
	assert_err(sec.read(sec.read_ctx, len - 1, out, 1), 0);
	assert_int_equal(out[0], data[len - 1]);
	assert_err(sec.read(sec.read_ctx, len - 1, out, 2), -SFRAME_ERR_READ);
	assert_err(sec.read(sec.read_ctx, len, out, 1), -SFRAME_ERR_READ);
	assert_err(sec.read(sec.read_ctx, UINT64_MAX, out, 2), -SFRAME_ERR_READ);
	assert_err(sec.read(sec.read_ctx, UINT64_MAX - 3, out, 8), -SFRAME_ERR_READ);
}

static void test_abi_regs(void **state)
{
	(void)state;
	assert_int_equal(sframe_abi_sp_reg(SFRAME_ABI_AMD64_LE), 7);
	assert_int_equal(sframe_abi_fp_reg(SFRAME_ABI_AMD64_LE), 6);
	assert_int_equal(sframe_abi_ra_reg(SFRAME_ABI_AMD64_LE), 16);
	assert_int_equal(sframe_abi_sp_reg(SFRAME_ABI_AARCH64_LE), 31);
	assert_int_equal(sframe_abi_fp_reg(SFRAME_ABI_AARCH64_BE), 29);
	assert_int_equal(sframe_abi_ra_reg(SFRAME_ABI_AARCH64_BE), 30);
	assert_int_equal(sframe_abi_sp_reg(SFRAME_ABI_S390X_BE), 15);
	assert_int_equal(sframe_abi_fp_reg(SFRAME_ABI_S390X_BE), 11);
	assert_int_equal(sframe_abi_ra_reg(SFRAME_ABI_S390X_BE), 14);
	assert_int_equal(sframe_abi_sp_reg(0), -1);
	assert_int_equal(sframe_abi_fp_reg(5), -1);
	assert_int_equal(sframe_abi_ra_reg(255), -1);
}

/* ---- sframe_get_fde() ------------------------------------------------------ */

/* Check every decoded field of FDE @i against what the builder was told. */
static void check_fde(uint32_t i, uint8_t rep_size_want)
{
	const struct sfb_fde *f = &b.fdes[i];
	struct sframe_fde fde;
	uint64_t fres_off;

	memset(&fde, 0x5a, sizeof(fde));
	assert_err(sframe_get_fde(&sec, i, &fde), 0);
	assert_int_equal(fde.index, i);
	assert_int_equal(fde.func_start, f->start);
	/* Section-relative start: what the builder placed relative to vaddr. */
	assert_int_equal(fde.func_offset, (int64_t)(f->start - b.vaddr));
	assert_int_equal(fde.func_size, f->size);
	assert_int_equal(fde.start_field, b.start_field[i]);
	assert_int_equal(fde.start_field_off, b.fde_off[i]);
	/* v3: the FREs follow the 5-byte attribute record. */
	fres_off = b.version >= 3 ? b.attr_off[i] + SFRAME_V3_FDE_ATTR_SIZE :
		   f->num_fres ? b.fre_off[f->first_fre] :
		   b.fre_area + sfb_get(&b, buf, b.fde_off[i] + SFRAME_V12_FDE_FRE_OFF, 4);
	assert_int_equal(fde.fres_off, fres_off);
	assert_int_equal(fde.num_fres, f->num_fres);
	assert_int_equal(fde.info, buf[b.info_off[i]]);
	assert_int_equal(fde.info2, b.version >= 3 ? f->fde_type : 0);
	assert_int_equal(fde.rep_size, rep_size_want);
	assert_int_equal(fde.fre_type, f->fre_type);
	assert_int_equal(fde.pc_type, f->pc_type);
	assert_int_equal(fde.fde_type, b.version >= 3 ? f->fde_type : SFRAME_FDE_TYPE_DEFAULT);
	assert_int_equal(fde.pauth_key, f->pauth_key);
	assert_int_equal(fde.signal, b.version >= 3 && f->signal);
	assert_int_equal(fde.rowless, b.version < 3 || f->num_fres ? SFRAME_ROWLESS_NONE :
				      f->signal ? SFRAME_ROWLESS_SIGNAL : SFRAME_ROWLESS_OUTERMOST);
}

/* Four functions around @vaddr: before it (negative start field) and after. */
static void add_four(uint64_t vaddr)
{
	struct sfb_fde *f;

	f = sfb_fde(&b, vaddr - 0x20000, 0x80, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_fre(&b, 1, SFRAME_BASE_REG_SP, 1, 1, 16);
	f = sfb_fde(&b, vaddr - 0x1000, 0x1000, SFRAME_FRE_TYPE_ADDR2, SFRAME_PC_TYPE_INC);
	/* The key bit means something on aarch64 only. */
	if (b.abi == SFRAME_ABI_AARCH64_LE || b.abi == SFRAME_ABI_AARCH64_BE)
		f->pauth_key = SFRAME_PAUTH_KEY_B;
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	/* No FREs. */
	sfb_fde(&b, vaddr + 0x100, 0x10, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	f = sfb_fde(&b, vaddr + 0x200000, 0x20000, SFRAME_FRE_TYPE_ADDR4, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_fre(&b, 0x10000, SFRAME_BASE_REG_FP, 4, 1, 16);
	sfb_fre(&b, 0x1ffff, SFRAME_BASE_REG_SP, 2, 1, 8);
}

static void run_fde_case(uint8_t version, uint8_t abi, bool be, uint8_t flags,
			 uint64_t vaddr, uint64_t base)
{
	uint32_t i;

	sfb_init(&b, version, abi, be, flags, vaddr);
	add_four(vaddr);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, base);
	for (i = 0; i < b.num_fdes; i++)
		check_fde(i, 0);
}

static void test_fde_v1(void **state)
{
	(void)state;
	/* v1 start fields are section relative; 17-byte, unaligned FDEs. */
	run_fde_case(1, SFRAME_ABI_AMD64_LE, false, 0, 0x500000, 0);
	run_fde_case(1, SFRAME_ABI_AARCH64_LE, false, SFRAME_F_FDE_SORTED, 0x500000, 0x1000);
	run_fde_case(1, SFRAME_ABI_AARCH64_BE, true, SFRAME_F_FDE_SORTED, 0x7f0000000000, 3);
	assert_int_equal(b.fde_off[1], 28 + 17);
}

static void test_fde_v2(void **state)
{
	(void)state;
	run_fde_case(2, SFRAME_ABI_AMD64_LE, false, SFRAME_F_FDE_SORTED, 0x500000, 0);
	run_fde_case(2, SFRAME_ABI_AARCH64_LE, false, 0, 0x500000, 0x1000);
	/* Big-endian v2 aarch64: no toolchain wrote one; the format allows it. */
	run_fde_case(2, SFRAME_ABI_AARCH64_BE, true, SFRAME_F_FDE_SORTED, 0x500000, 0x1000);
	run_fde_case(2, SFRAME_ABI_S390X_BE, true, SFRAME_F_FDE_SORTED, 0x3ff00000, 0);
}

static void test_fde_v2_pcrel(void **state)
{
	(void)state;
	/* Errata 1: start relative to the field itself, at 28 + i * 20. */
	run_fde_case(2, SFRAME_ABI_AMD64_LE, false, 0x5, 0x500000, 0);
	assert_int_equal(b.start_field[1], -0x1000 - (28 + 20));
	run_fde_case(2, SFRAME_ABI_AARCH64_LE, false, 0x4, 0x500000, 0x1000);
	run_fde_case(2, SFRAME_ABI_AARCH64_BE, true, 0x5, 0x500000, 0x1000);
	run_fde_case(2, SFRAME_ABI_S390X_BE, true, 0x5, 0x3ff00000, 0);
}

static void test_fde_v3(void **state)
{
	(void)state;
	run_fde_case(3, SFRAME_ABI_AMD64_LE, false, 0x5, 0x500000, 0);
	run_fde_case(3, SFRAME_ABI_AMD64_LE, false, SFRAME_F_FDE_SORTED, 0x500000, 0);
	run_fde_case(3, SFRAME_ABI_AARCH64_LE, false, 0x5, 0x500000, 0x1000);
	run_fde_case(3, SFRAME_ABI_AARCH64_BE, true, 0x4, 0x500000, 0x1000);
	run_fde_case(3, SFRAME_ABI_S390X_BE, true, 0x5, 0x3ff00000, 0);
}

static void test_fde_auxhdr(void **state)
{
	uint32_t i;

	(void)state;
	/* The auxiliary header moves the FDE area; PCREL fields count from their own offset. */
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0x500000);
	b.auxhdr_len = 13;
	add_four(0x500000);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	assert_int_equal(b.fde_off[0], 41);
	for (i = 0; i < b.num_fdes; i++)
		check_fde(i, 0);

	sfb_init(&b, 2, SFRAME_ABI_AARCH64_BE, true, 0x4, 0x500000);
	b.auxhdr_len = 255;
	add_four(0x500000);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0x1000);
	for (i = 0; i < b.num_fdes; i++)
		check_fde(i, 0);
}

static void test_fde_info_bits(void **state)
{
	struct sfb_fde *f;
	uint32_t i;

	(void)state;
	/* v3: PC type, PAuth key, signal bit, FDE type and rep_size, both byte orders. */
	for (i = 0; i < 2; i++) {
		bool be = i == 1;

		sfb_init(&b, 3, be ? SFRAME_ABI_AARCH64_BE : SFRAME_ABI_AARCH64_LE, be, 0x5,
			 0x10000);
		f = sfb_fde(&b, 0x20000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_MASK);
		f->rep_size = 16;
		f->pauth_key = SFRAME_PAUTH_KEY_B;
		f->signal = true;
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 16);
		f = sfb_fde(&b, 0x20040, 0x40, SFRAME_FRE_TYPE_ADDR2, SFRAME_PC_TYPE_INC);
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 16);
		f = sfb_fde(&b, 0x20080, 0x40, SFRAME_FRE_TYPE_ADDR4, SFRAME_PC_TYPE_INC);
		f->signal = true;
		sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
		check_fde(0, 16);
		check_fde(1, 0);
		check_fde(2, 0);
	}

	/* amd64 v3 FLEX + signal + PCMASK. */
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0x10000);
	f = sfb_fde(&b, 0x20000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_MASK);
	f->rep_size = 32;
	f->fde_type = SFRAME_FDE_TYPE_FLEX;
	f->signal = true;
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 2, SFB_FLEX_CTRL(7, 0, 1), 8);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	check_fde(0, 32);

	/* v2 rep_size and PAuth key, big endian. */
	sfb_init(&b, 2, SFRAME_ABI_AARCH64_BE, true, 0x4, 0x10000);
	f = sfb_fde(&b, 0x20000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_MASK);
	f->rep_size = 8;
	f->pauth_key = SFRAME_PAUTH_KEY_B;
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 16);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	check_fde(0, 8);
}

static void test_fde_index_range(void **state)
{
	struct sframe_fde fde;

	(void)state;
	sfb_init(&b, 2, SFRAME_ABI_AMD64_LE, false, 0x5, 0x10000);
	add_four(0x10000000);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	assert_err(sframe_get_fde(&sec, 3, &fde), 0);
	assert_err(sframe_get_fde(&sec, 4, &fde), -SFRAME_ERR_INVAL);
	assert_err(sframe_get_fde(&sec, UINT32_MAX, &fde), -SFRAME_ERR_INVAL);
}

static void test_fde_empty_section(void **state)
{
	struct sframe_fde fde;
	struct sframe_row row;

	(void)state;
	/* A section with no FDE at all (ld writes these, e.g. sframe-empty). */
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0x10000);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	assert_int_equal(sec.num_fdes, 0);
	assert_err(sframe_get_fde(&sec, 0, &fde), -SFRAME_ERR_INVAL);
	assert_err(sframe_lookup(&sec, 0x10000, &row), -SFRAME_ERR_NOT_FOUND);
	assert_err(sframe_check(&sec, NULL), 0);
}

/* ---- FRE iteration ---------------------------------------------------------- */

/* Iterate FDE @i and compare every FRE with what the builder wrote. */
static void check_fres(uint32_t i)
{
	const struct sfb_fde *f = &b.fdes[i];
	struct sframe_fde fde;
	struct sframe_fre_iter it;
	struct sframe_fre fre;
	uint32_t k;
	unsigned w;

	assert_err(sframe_get_fde(&sec, i, &fde), 0);
	assert_err(sframe_fre_iter_init(&sec, &fde, &it), 0);
	for (k = 0; k < f->num_fres; k++) {
		const struct sfb_fre *r = &b.fres[f->first_fre + k];
		size_t start_bytes = f->fre_type == 0 ? 1 : f->fre_type == 1 ? 2 : 4;

		memset(&fre, 0x5a, sizeof(fre));
		assert_err(sframe_fre_iter_next(&sec, &it, &fre), 1);
		assert_int_equal(fre.start, r->start);
		assert_int_equal(fre.info, buf[b.fre_info_off[f->first_fre + k]]);
		assert_int_equal(fre.num_words, r->num_words);
		assert_int_equal(fre.word_bytes, r->word_bytes);
		assert_int_equal(fre.size, start_bytes + 1 + r->num_words * r->word_bytes);
		assert_int_equal(fre.mangled_ra, r->mangled);
		for (w = 0; w < r->num_words; w++) {
			/* words[]: sign extended from word_bytes; sframe_fre_uword(): zero extended. */
			unsigned bits = r->word_bytes * 8;
			uint32_t u = bits == 32 ? (uint32_t)r->words[w] :
				     (uint32_t)r->words[w] & ((1u << bits) - 1);
			int32_t s = bits == 32 ? (int32_t)u :
				    (u & (1u << (bits - 1))) ? (int32_t)(u - (1u << bits)) :
				    (int32_t)u;

			assert_int_equal(sframe_fre_uword(&fre, w), u);
			assert_int_equal(fre.words[w], s);
		}
	}
	assert_err(sframe_fre_iter_next(&sec, &it, &fre), 0);
	/* Still at the end. */
	assert_err(sframe_fre_iter_next(&sec, &it, &fre), 0);
}

static void build_fre_zoo(uint8_t version, uint8_t abi, bool be, uint8_t flags)
{
	struct sfb_fre *r;

	sfb_init(&b, version, abi, be, flags, 0x600000);
	/* ADDR1, every word size, extreme values. */
	sfb_fde(&b, 0x601000, 0xff, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_fre(&b, 1, SFRAME_BASE_REG_SP, 1, 3, 127, -128, -1);
	sfb_fre(&b, 0x10, SFRAME_BASE_REG_FP, 2, 3, 0x7fff, -0x8000, -300);
	r = sfb_fre(&b, 0x80, SFRAME_BASE_REG_FP, 4, 3, 0x7fffffff, (int)INT32_MIN, -100000);
	r->mangled = true;
	sfb_fre(&b, 0xfe, SFRAME_BASE_REG_SP, 2, 1, 0x1234);
	/* ADDR2: starts above 255. */
	sfb_fde(&b, 0x602000, 0xffff, SFRAME_FRE_TYPE_ADDR2, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_fre(&b, 0x1234, SFRAME_BASE_REG_FP, 4, 3, 16, -8, -16);
	sfb_fre(&b, 0xfffe, SFRAME_BASE_REG_SP, 2, 1, -2);
	/* ADDR4: starts above 65535. */
	sfb_fde(&b, 0x700000, 0x200000, SFRAME_FRE_TYPE_ADDR4, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 4, 1, 8);
	sfb_fre(&b, 0x12345, SFRAME_BASE_REG_SP, 1, 1, 0x40);
	sfb_fre(&b, 0x1fffff, SFRAME_BASE_REG_FP, 2, 2, 0x100, -0x100);
	/* RA undefined: N = 0. */
	sfb_fde(&b, 0x900000, 0x10, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_FP, 1, 0);
	/* No FREs. */
	sfb_fde(&b, 0x900010, 0x10, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
}

static void run_fre_zoo(uint8_t version, uint8_t abi, bool be, uint8_t flags)
{
	uint32_t i;

	build_fre_zoo(version, abi, be, flags);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0x1000);
	for (i = 0; i < b.num_fdes; i++)
		check_fres(i);
}

static void test_fre_iter_v1(void **state)
{
	(void)state;
	run_fre_zoo(1, SFRAME_ABI_AMD64_LE, false, 0);
	run_fre_zoo(1, SFRAME_ABI_AARCH64_BE, true, SFRAME_F_FDE_SORTED);
}

static void test_fre_iter_v2(void **state)
{
	(void)state;
	run_fre_zoo(2, SFRAME_ABI_AMD64_LE, false, SFRAME_F_FDE_SORTED);
	run_fre_zoo(2, SFRAME_ABI_AARCH64_LE, false, 0x5);
	run_fre_zoo(2, SFRAME_ABI_AARCH64_BE, true, 0x5);
	run_fre_zoo(2, SFRAME_ABI_S390X_BE, true, 0x1);
}

static void test_fre_iter_v3(void **state)
{
	(void)state;
	run_fre_zoo(3, SFRAME_ABI_AMD64_LE, false, 0x5);
	run_fre_zoo(3, SFRAME_ABI_AARCH64_LE, false, 0x5);
	run_fre_zoo(3, SFRAME_ABI_AARCH64_BE, true, 0x1);
	run_fre_zoo(3, SFRAME_ABI_S390X_BE, true, 0x5);
}

static void test_fre_iter_flex_control_words(void **state)
{
	struct sfb_fde *f;
	struct sframe_fde fde;
	struct sframe_fre_iter it;
	struct sframe_fre fre;

	(void)state;
	/* Control words above 127 in 1-byte words: words[] negative, sframe_fre_uword() not. */
	sfb_init(&b, 3, SFRAME_ABI_S390X_BE, true, 0x5, 0x10000);
	f = sfb_fde(&b, 0x20000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	f->fde_type = SFRAME_FDE_TYPE_FLEX;
	sfb_fre(&b, 0, SFRAME_BASE_REG_FP, 1, 6, 0x79, 0, 0x81, 0, 0x89, -4);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	check_fres(0);
	assert_err(sframe_get_fde(&sec, 0, &fde), 0);
	assert_err(sframe_fre_iter_init(&sec, &fde, &it), 0);
	assert_err(sframe_fre_iter_next(&sec, &it, &fre), 1);
	assert_int_equal(sframe_fre_uword(&fre, 2), 0x81);
	assert_int_equal(fre.words[2], -127);
	assert_int_equal(sframe_fre_uword(&fre, 4), 0x89);
	assert_int_equal(fre.words[5], -4);
	assert_int_equal(sframe_fre_uword(&fre, 5), 0xfc);
}

static void test_fre_iter_same_in_both_orders(void **state)
{
	struct sframe_fre le[16], be[16];
	struct sframe_fde fde;
	struct sframe_fre_iter it;
	unsigned n_le = 0, n_be = 0, i, pass;

	(void)state;
	/* The same logical section in both byte orders decodes identically. */
	for (pass = 0; pass < 2; pass++) {
		struct sframe_fre *out = pass ? be : le;
		unsigned *n = pass ? &n_be : &n_le;
		uint32_t k;

		build_fre_zoo(2, pass ? SFRAME_ABI_AARCH64_BE : SFRAME_ABI_AARCH64_LE, pass == 1,
			      0x5);
		sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
		for (k = 0; k < b.num_fdes; k++) {
			assert_err(sframe_get_fde(&sec, k, &fde), 0);
			assert_err(sframe_fre_iter_init(&sec, &fde, &it), 0);
			while (*n < 16) {
				int ret = sframe_fre_iter_next(&sec, &it, &out[*n]);

				assert_true(ret == 0 || ret == 1);
				if (ret == 0)
					break;
				(*n)++;
			}
		}
	}
	assert_int_equal(n_le, n_be);
	assert_int_equal(n_le, 12);
	for (i = 0; i < n_le; i++) {
		unsigned w;

		assert_int_equal(le[i].start, be[i].start);
		assert_int_equal(le[i].info, be[i].info);
		assert_int_equal(le[i].num_words, be[i].num_words);
		for (w = 0; w < le[i].num_words; w++) {
			assert_int_equal(le[i].words[w], be[i].words[w]);
			assert_int_equal(sframe_fre_uword(&le[i], w), sframe_fre_uword(&be[i], w));
		}
	}
}

static void test_fre_iter_errors(void **state)
{
	struct sframe_fde fde;
	struct sframe_fre_iter it;
	struct sframe_fre fre;

	(void)state;
	/* Word size code 3. */
	sfb_init(&b, 2, SFRAME_ABI_AMD64_LE, false, 0x5, 0x10000);
	sfb_fde(&b, 0x20000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_fre(&b, 4, SFRAME_BASE_REG_SP, 1, 2, 16, -16);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	buf[b.fre_info_off[1]] = sfb_fre_info(SFRAME_BASE_REG_SP, 2, 3, false);
	assert_err(sframe_get_fde(&sec, 0, &fde), 0);
	assert_err(sframe_fre_iter_init(&sec, &fde, &it), 0);
	assert_err(sframe_fre_iter_next(&sec, &it, &fre), 1);
	assert_err(sframe_fre_iter_next(&sec, &it, &fre), -SFRAME_ERR_WORD_SIZE);

	/* Seven words: more than SFRAME_MAX_WORDS. */
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0x10000);
	sfb_fde(&b, 0x20000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 7, 1, 2, 3, 4, 5, 6, 7);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	assert_err(sframe_get_fde(&sec, 0, &fde), 0);
	assert_err(sframe_fre_iter_init(&sec, &fde, &it), 0);
	assert_err(sframe_fre_iter_next(&sec, &it, &fre), -SFRAME_ERR_WORDS);

	/*
	 * The last FRE claims 4 words of 4 bytes but has 2: it runs past the
	 * FRE area, though not past the section (zero padding follows).
	 */
	sfb_init(&b, 2, SFRAME_ABI_AMD64_LE, false, 0x5, 0x10000);
	b.tail_pad = 32;
	sfb_fde(&b, 0x20000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 4, 2, 8, -16);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	/* Claim two more words than there are bytes for (fre_len unchanged). */
	buf[b.fre_info_off[0]] = sfb_fre_info(SFRAME_BASE_REG_SP, 4, 4, false);
	assert_err(sframe_get_fde(&sec, 0, &fde), 0);
	assert_err(sframe_fre_iter_init(&sec, &fde, &it), 0);
	assert_err(sframe_fre_iter_next(&sec, &it, &fre), -SFRAME_ERR_FRE);

	/* num_fres larger than the FRE area holds. */
	sfb_init(&b, 2, SFRAME_ABI_AMD64_LE, false, 0x5, 0x10000);
	sfb_fde(&b, 0x20000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0);
	sfb_put_u32(&b, buf, b.fde_off[0] + SFRAME_V12_FDE_NUM_FRES, 2);
	/* sframe_get_fde() may already refuse (FRE run out of bounds); else the iterator must. */
	{
		int err = sframe_get_fde(&sec, 0, &fde);

		if (err == 0) {
			assert_err(sframe_fre_iter_init(&sec, &fde, &it), 0);
			assert_err(sframe_fre_iter_next(&sec, &it, &fre), 1);
			assert_err(sframe_fre_iter_next(&sec, &it, &fre), -SFRAME_ERR_FRE);
		} else {
			assert_err(err, -SFRAME_ERR_FDE);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builder_bytes_v2_le),
		cmocka_unit_test(test_builder_bytes_v3_be),
		cmocka_unit_test(test_builder_bytes_v1),
		cmocka_unit_test(test_open_header_fields),
		cmocka_unit_test(test_open_buffer),
		cmocka_unit_test(test_read_buffer),
		cmocka_unit_test(test_abi_regs),
		cmocka_unit_test(test_fde_v1),
		cmocka_unit_test(test_fde_v2),
		cmocka_unit_test(test_fde_v2_pcrel),
		cmocka_unit_test(test_fde_v3),
		cmocka_unit_test(test_fde_auxhdr),
		cmocka_unit_test(test_fde_info_bits),
		cmocka_unit_test(test_fde_index_range),
		cmocka_unit_test(test_fde_empty_section),
		cmocka_unit_test(test_fre_iter_v1),
		cmocka_unit_test(test_fre_iter_v2),
		cmocka_unit_test(test_fre_iter_v3),
		cmocka_unit_test(test_fre_iter_flex_control_words),
		cmocka_unit_test(test_fre_iter_same_in_both_orders),
		cmocka_unit_test(test_fre_iter_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
