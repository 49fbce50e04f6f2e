/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_errors.c - header errors from sframe_open(), read-callback errors
 * (propagated unchanged), reads confined to the section even on hostile
 * input, and the error-code strings.
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
static uint8_t tmp[SFB_MAX_OUT];
static struct sframe_section sec;
static struct sfb_reader rd;

/* A valid v2 amd64 section with two functions, emitted into buf. */
static size_t build_base(uint8_t version, uint8_t flags)
{
	size_t len;

	sfb_init(&b, version, SFRAME_ABI_AMD64_LE, false, flags, 0x10000);
	sfb_fde(&b, 0x20000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_fre(&b, 1, SFRAME_BASE_REG_SP, 1, 2, 16, -16);
	sfb_fde(&b, 0x20040, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	len = sfb_emit(&b, buf, sizeof(buf));
	assert_true(len > 0);
	return len;
}

/* sframe_open() @len bytes of @data through the bounds-checking reader at @base. */
static int open_bytes(const uint8_t *data, size_t len, uint64_t base)
{
	/* Keep a pending injected failure (see FOR_EACH_FAILING_READ). */
	unsigned fail_at = rd.fail_at, max_len = rd.max_len;
	int fail_err = rd.fail_err;

	memset(&rd, 0, sizeof(rd));
	rd.fail_at = fail_at;
	rd.fail_err = fail_err;
	rd.max_len = max_len;
	rd.data = data;
	rd.base = base;
	rd.size = len;
	memset(&sec, 0, sizeof(sec));
	return sframe_open(&sec, sfb_read, &rd, base, len, 0x10000);
}

/* Copy buf to tmp, poke one header field, open. */
static int open_poked(size_t len, size_t off, size_t width, uint64_t v)
{
	memcpy(tmp, buf, len);
	switch (width) {
	case 1:
		sfb_put_u8(&b, tmp, off, (uint8_t)v);
		break;
	case 2:
		sfb_put_u16(&b, tmp, off, (uint16_t)v);
		break;
	default:
		sfb_put_u32(&b, tmp, off, (uint32_t)v);
		break;
	}
	return open_bytes(tmp, len, 0x1000);
}

/* ---- sframe_open() ---------------------------------------------------------- */

static void test_open_truncated(void **state)
{
	size_t len, n;

	(void)state;
	len = build_base(2, 0x5);
	/* No byte at all is no SFrame data (test_parts.c); shorter than the header: truncated. */
	assert_err(open_bytes(buf, 0, 0x1000), -SFRAME_ERR_EMPTY);
	/* Nothing may be read past @len. */
	for (n = 1; n < SFRAME_HDR_SIZE; n++)
		assert_err(open_bytes(buf, n, 0x1000), -SFRAME_ERR_TRUNCATED);
	/* A whole header, but the areas it describes run past the end. */
	for (n = SFRAME_HDR_SIZE; n < len; n++)
		assert_err(open_bytes(buf, n, 0x1000), -SFRAME_ERR_HEADER);
	assert_err(open_bytes(buf, len, 0x1000), 0);
	/* Trailing bytes after the FRE area are allowed (tools pad sections). */
	memset(buf + len, 0, 16);
	assert_err(open_bytes(buf, len + 16, 0x1000), 0);
}

static void test_open_bad_magic(void **state)
{
	size_t len;

	(void)state;
	len = build_base(2, 0x5);
	assert_err(open_poked(len, 0, 2, 0xdee3), -SFRAME_ERR_BAD_MAGIC);
	assert_err(open_poked(len, 0, 2, 0x0000), -SFRAME_ERR_BAD_MAGIC);
	assert_err(open_poked(len, 0, 2, 0xe2e2), -SFRAME_ERR_BAD_MAGIC);
	assert_err(open_poked(len, 0, 2, 0xdede), -SFRAME_ERR_BAD_MAGIC);
	assert_err(open_poked(len, 0, 2, 0xffff), -SFRAME_ERR_BAD_MAGIC);
	/* Magic ok, in either order. */
	assert_err(open_poked(len, 0, 2, SFRAME_MAGIC), 0);
	assert_false(sec.big_endian);
}

static void test_open_version(void **state)
{
	size_t len;

	(void)state;
	len = build_base(2, 0x1);
	assert_err(open_poked(len, SFRAME_HDR_VERSION, 1, 0), -SFRAME_ERR_VERSION);
	assert_err(open_poked(len, SFRAME_HDR_VERSION, 1, 4), -SFRAME_ERR_VERSION);
	assert_err(open_poked(len, SFRAME_HDR_VERSION, 1, 255), -SFRAME_ERR_VERSION);
}

static void test_open_flags(void **state)
{
	size_t len;
	uint8_t v;

	(void)state;
	/* PCREL did not exist in v1. */
	len = build_base(1, 0);
	assert_err(open_poked(len, SFRAME_HDR_FLAGS, 1, 0x4), -SFRAME_ERR_FLAGS);
	assert_err(open_poked(len, SFRAME_HDR_FLAGS, 1, 0x5), -SFRAME_ERR_FLAGS);
	assert_err(open_poked(len, SFRAME_HDR_FLAGS, 1, 0x3), 0);
	/* FRAME_POINTER is not a v3 flag. */
	len = build_base(3, 0x5);
	assert_err(open_poked(len, SFRAME_HDR_FLAGS, 1, 0x2), -SFRAME_ERR_FLAGS);
	assert_err(open_poked(len, SFRAME_HDR_FLAGS, 1, 0x7), -SFRAME_ERR_FLAGS);
	assert_err(open_poked(len, SFRAME_HDR_FLAGS, 1, 0x4), 0);
	len = build_base(2, 0x5);
	assert_err(open_poked(len, SFRAME_HDR_FLAGS, 1, 0x7), 0);
	/* Undefined bits, every version. */
	for (v = 1; v <= 3; v++) {
		len = build_base(v, 0);
		assert_err(open_poked(len, SFRAME_HDR_FLAGS, 1, 0x8), -SFRAME_ERR_FLAGS);
		assert_err(open_poked(len, SFRAME_HDR_FLAGS, 1, 0x9), -SFRAME_ERR_FLAGS);
		assert_err(open_poked(len, SFRAME_HDR_FLAGS, 1, 0x80), -SFRAME_ERR_FLAGS);
		assert_err(open_poked(len, SFRAME_HDR_FLAGS, 1, 0xff), -SFRAME_ERR_FLAGS);
	}
}

static void test_open_abi(void **state)
{
	size_t len;
	uint8_t v;

	(void)state;
	for (v = 1; v <= 3; v++) {
		len = build_base(v, 0);
		assert_err(open_poked(len, SFRAME_HDR_ABI, 1, 0), -SFRAME_ERR_ABI);
		assert_err(open_poked(len, SFRAME_HDR_ABI, 1, 5), -SFRAME_ERR_ABI);
		assert_err(open_poked(len, SFRAME_HDR_ABI, 1, 255), -SFRAME_ERR_ABI);
	}
	/* s390x arrived with v2 (binutils 2.45): there is no v1 s390x. */
	len = build_base(1, 0);
	assert_err(open_poked(len, SFRAME_HDR_ABI, 1, SFRAME_ABI_S390X_BE), -SFRAME_ERR_ABI);
	len = build_base(2, 0);
	assert_err(open_poked(len, SFRAME_HDR_ABI, 1, SFRAME_ABI_S390X_BE), 0);
}

static void test_open_areas(void **state)
{
	size_t len;
	uint8_t v;

	(void)state;
	for (v = 1; v <= 3; v++) {
		uint32_t fde_size = v == 1 ? 17 : v == 2 ? 20 : 16;

		len = build_base(v, v == 1 ? 0 : 0x5);
		assert_err(open_poked(len, SFRAME_HDR_NUM_FDES, 4, 100), -SFRAME_ERR_HEADER);
		assert_err(open_poked(len, SFRAME_HDR_FDE_OFF, 4, 0x1000), -SFRAME_ERR_HEADER);
		assert_err(open_poked(len, SFRAME_HDR_FRE_OFF, 4, 0x1000), -SFRAME_ERR_HEADER);
		assert_err(open_poked(len, SFRAME_HDR_FRE_LEN, 4, b.fre_len + 1), -SFRAME_ERR_HEADER);
		/* FRE area moved one byte on: its end is past the section. */
		assert_err(open_poked(len, SFRAME_HDR_FRE_OFF, 4, 2 * fde_size + 1),
			   -SFRAME_ERR_HEADER);
		/* Huge values. */
		assert_err(open_poked(len, SFRAME_HDR_NUM_FDES, 4, 0xffffffff), -SFRAME_ERR_HEADER);
		assert_err(open_poked(len, SFRAME_HDR_FRE_LEN, 4, 0xffffffff), -SFRAME_ERR_HEADER);
		assert_err(open_poked(len, SFRAME_HDR_FDE_OFF, 4, 0xffffffff), -SFRAME_ERR_HEADER);
		assert_err(open_poked(len, SFRAME_HDR_FRE_OFF, 4, 0xffffffff), -SFRAME_ERR_HEADER);
		assert_err(open_poked(len, SFRAME_HDR_FRE_OFF, 4, 0xfffffff0), -SFRAME_ERR_HEADER);
		/* num_fdes * fde_size wraps to a small number in 32 bits. */
		assert_err(open_poked(len, SFRAME_HDR_NUM_FDES, 4,
				      (uint32_t)((0x100000000ull + fde_size - 1) / fde_size)),
			   -SFRAME_ERR_HEADER);
	}
	assert_int_equal((uint32_t)(0x0ccccccdull * 20), 4);
}

static void test_open_fdeoff_after_freoff(void **state)
{
	size_t len;

	(void)state;
	/*
	 * One v2 FDE (20 bytes) and a 3-byte FRE area, plus zero padding so that
	 * both areas still fit when swapped around: FRE area at 0, FDE area at 4.
	 * The format requires fdeoff <= freoff (libsframe checks it too).
	 */
	sfb_init(&b, 2, SFRAME_ABI_AMD64_LE, false, 0x5, 0x10000);
	b.tail_pad = 64;
	sfb_fde(&b, 0x20000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	len = sfb_emit(&b, buf, sizeof(buf));
	assert_err(open_bytes(buf, len, 0), 0);
	memcpy(tmp, buf, len);
	sfb_put_u32(&b, tmp, SFRAME_HDR_FDE_OFF, 4);
	sfb_put_u32(&b, tmp, SFRAME_HDR_FRE_OFF, 0);
	assert_err(open_bytes(tmp, len, 0), -SFRAME_ERR_HEADER);
	/* fdeoff > 0 with freoff after it is fine. */
	memcpy(tmp, buf, len);
	memmove(tmp + 28 + 8, buf + 28, len - 28 - 8);
	sfb_put_u32(&b, tmp, SFRAME_HDR_FDE_OFF, 8);
	sfb_put_u32(&b, tmp, SFRAME_HDR_FRE_OFF, 28);
	assert_err(open_bytes(tmp, len, 0), 0);
	assert_int_equal(sec.fde_start, 36);
	assert_int_equal(sec.fre_start, 56);
}

static void test_open_auxhdr(void **state)
{
	struct sframe_fde fde;
	int err;

	(void)state;
	/* auxhdr_len bytes are skipped: see also test_decode.c. */
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0x10000);
	b.auxhdr_len = 200;
	sfb_fde(&b, 0x20000, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_open(&b, buf, sizeof(buf), &sec, &rd, 0x1000);
	assert_int_equal(sec.fde_start, 228);
	assert_err(sframe_get_fde(&sec, 0, &fde), 0);
	assert_int_equal(fde.func_start, 0x20000);
	assert_err(sframe_check(&sec, NULL), 0);

	/*
	 * A 28-byte section claiming an auxiliary header: the header (with its
	 * auxiliary part) does not fit. The header comments leave open whether
	 * that is TRUNCATED ("shorter than its header") or HEADER; accept both.
	 */
	sfb_init(&b, 3, SFRAME_ABI_AMD64_LE, false, 0x5, 0x10000);
	sfb_emit(&b, buf, sizeof(buf));
	buf[SFRAME_HDR_AUXHDR_LEN] = 10;
	err = open_bytes(buf, 28, 0x1000);
	assert_true(err == -SFRAME_ERR_TRUNCATED || err == -SFRAME_ERR_HEADER);
}

static void test_open_inval(void **state)
{
	size_t len;

	(void)state;
	len = build_base(2, 0x5);
	memset(&rd, 0, sizeof(rd));
	rd.data = buf;
	rd.size = len;
	assert_err(sframe_open(NULL, sfb_read, &rd, 0, len, 0), -SFRAME_ERR_INVAL);
	assert_err(sframe_open(&sec, NULL, &rd, 0, len, 0), -SFRAME_ERR_INVAL);
	/* base + size wraps. */
	rd.base = UINT64_MAX - 10;
	assert_err(sframe_open(&sec, sfb_read, &rd, UINT64_MAX - 10, len, 0), -SFRAME_ERR_INVAL);
	assert_int_equal(rd.calls, 0);
	/* High base that does not wrap. */
	assert_err(open_bytes(buf, len, UINT64_MAX - len), 0);
	assert_int_equal(sec.base, UINT64_MAX - len);
}

/* ---- read callback errors ------------------------------------------------- */

/* A section exercising every read path: v3 with FLEX, PCMASK, several FDEs. */
static void build_rich(uint8_t version, uint8_t abi, bool be, uint8_t flags)
{
	struct sfb_fde *f;

	sfb_init(&b, version, abi, be, flags, 0x10000);
	f = sfb_fde(&b, 0x20000, 0x100, SFRAME_FRE_TYPE_ADDR2, SFRAME_PC_TYPE_INC);
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_fre(&b, 4, SFRAME_BASE_REG_SP, 1, 1, 16);
	sfb_fre(&b, 8, SFRAME_BASE_REG_FP, 2, 1, 16);
	f = sfb_fde(&b, 0x20100, 0x40, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_MASK);
	f->rep_size = 16;
	sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 1, 1, 8);
	sfb_fre(&b, 6, SFRAME_BASE_REG_SP, 1, 1, 16);
	f = sfb_fde(&b, 0x20140, 0x20000, SFRAME_FRE_TYPE_ADDR4, SFRAME_PC_TYPE_INC);
	if (version >= 3 && abi == SFRAME_ABI_AMD64_LE) {
		f->fde_type = SFRAME_FDE_TYPE_FLEX;
		sfb_fre(&b, 0, 0, 1, 2, SFB_FLEX_CTRL(7, 0, 1), 8);
		sfb_fre(&b, 0x10000, 0, 4, 6, SFB_FLEX_CTRL(10, 0, 1), 0,
			SFB_FLEX_CTRL(0, 1, 0), -8, SFB_FLEX_CTRL(6, 1, 1), 0);
	} else {
		sfb_fre(&b, 0, SFRAME_BASE_REG_SP, 4, 1, 8);
		sfb_fre(&b, 0x10000, SFRAME_BASE_REG_SP, 4, 1, 16);
	}
	sfb_fde(&b, 0x40140, 0x10, SFRAME_FRE_TYPE_ADDR1, SFRAME_PC_TYPE_INC);
}

#define EIO_LIKE	(-5)

/*
 * Run @op with a reader failing its k-th read, for every k up to the number of
 * reads @op makes when nothing fails: each must return exactly @err.
 */
#define FOR_EACH_FAILING_READ(op, err)						\
	do {									\
		unsigned n_, k_;						\
		int ret_;							\
		rd.calls = 0;							\
		rd.fail_at = 0;							\
		ret_ = (op);							\
		assert_true(ret_ >= 0);						\
		n_ = rd.calls;							\
		assert_true(n_ > 0);						\
		for (k_ = 1; k_ <= n_; k_++) {					\
			rd.calls = 0;						\
			rd.fail_at = k_;					\
			rd.fail_err = (err);					\
			assert_err((op), (err));				\
		}								\
		rd.fail_at = 0;							\
	} while (0)

static int do_get_all_fdes(void)
{
	struct sframe_fde fde;
	uint32_t i;
	int err;

	for (i = 0; i < sec.num_fdes; i++) {
		err = sframe_get_fde(&sec, i, &fde);
		if (err)
			return err;
	}
	return 0;
}

static int do_iterate_all(void)
{
	struct sframe_fde fde;
	struct sframe_fre_iter it;
	struct sframe_fre fre;
	uint32_t i;
	int err;

	for (i = 0; i < sec.num_fdes; i++) {
		err = sframe_get_fde(&sec, i, &fde);
		if (err)
			return err;
		err = sframe_fre_iter_init(&sec, &fde, &it);
		if (err)
			return err;
		while ((err = sframe_fre_iter_next(&sec, &it, &fre)) == 1)
			;
		if (err)
			return err;
	}
	return 0;
}

static int do_lookup(uint64_t pc)
{
	struct sframe_row row;

	return sframe_lookup(&sec, pc, &row);
}

static void run_read_errors(int err)
{
	static const uint64_t pcs[] = { 0x20000, 0x200ff, 0x20100 + 0x27, 0x20140 + 0x10005,
					0x1ffff, 0x40145, 0x40150 };
	size_t len, i;

	len = sfb_emit(&b, buf, sizeof(buf));
	assert_true(len > 0);
	FOR_EACH_FAILING_READ(open_bytes(buf, len, 0x1000), err);
	assert_err(open_bytes(buf, len, 0x1000), 0);
	FOR_EACH_FAILING_READ(do_get_all_fdes(), err);
	FOR_EACH_FAILING_READ(do_iterate_all(), err);
	/* Lookups that find a row and lookups that do not: any read may fail. */
	for (i = 0; i < sizeof(pcs) / sizeof(pcs[0]); i++) {
		unsigned n, k;
		int want;

		rd.calls = 0;
		want = do_lookup(pcs[i]);
		assert_true(want == 0 || want == -SFRAME_ERR_NOT_FOUND);
		n = rd.calls;
		for (k = 1; k <= n; k++) {
			rd.calls = 0;
			rd.fail_at = k;
			rd.fail_err = err;
			assert_err(do_lookup(pcs[i]), err);
		}
		rd.fail_at = 0;
		assert_err(do_lookup(pcs[i]), want);
	}
	FOR_EACH_FAILING_READ(sframe_check(&sec, NULL), err);
}

static void test_read_errors_propagate(void **state)
{
	(void)state;
	build_rich(3, SFRAME_ABI_AMD64_LE, false, 0x5);
	run_read_errors(EIO_LIKE);
	run_read_errors(-SFRAME_ERR_READ);
	run_read_errors(-4095);
	run_read_errors(-1);
	build_rich(2, SFRAME_ABI_AARCH64_BE, true, 0x5);
	run_read_errors(EIO_LIKE);
	build_rich(1, SFRAME_ABI_AMD64_LE, false, SFRAME_F_FDE_SORTED);
	run_read_errors(EIO_LIKE);
	build_rich(3, SFRAME_ABI_S390X_BE, true, 0x4);
	run_read_errors(EIO_LIKE);
}

static void test_read_error_in_check_where(void **state)
{
	struct sframe_problem where;
	size_t len;

	(void)state;
	build_rich(3, SFRAME_ABI_AMD64_LE, false, 0x5);
	len = sfb_emit(&b, buf, sizeof(buf));
	assert_err(open_bytes(buf, len, 0x1000), 0);
	rd.calls = 0;
	rd.fail_at = 2;
	rd.fail_err = EIO_LIKE;
	assert_err(sframe_check(&sec, &where), EIO_LIKE);
	rd.fail_at = 0;
}

static void test_is_read_error(void **state)
{
	int code;

	(void)state;
	assert_true(sframe_is_read_error(-5));
	assert_true(sframe_is_read_error(-1));
	assert_true(sframe_is_read_error(-4095));
	assert_true(sframe_is_read_error(-SFRAME_ERR_READ));
	assert_true(sframe_is_read_error(-SFRAME_ERR_MAX - 1));
	assert_false(sframe_is_read_error(0));
	assert_false(sframe_is_read_error(1));
	for (code = SFRAME_ERR_BASE; code <= SFRAME_ERR_MAX; code++)
		assert_int_equal(sframe_is_read_error(-code), code == SFRAME_ERR_READ);
	assert_false(sframe_is_read_error(-SFRAME_ERR_FDE));
	assert_false(sframe_is_read_error(-SFRAME_ERR_NOT_FOUND));
}

/* ---- hostile input: reads stay inside the section ------------------------ */

/* Every API call on the current section; results must be 0/1 or library codes. */
static void exercise(void)
{
	static const uint64_t pcs[] = { 0, 0x20000, 0x20050, 0x200ff, 0x20100, 0x20127,
					0x30000, 0x40140, 0x40148, UINT64_MAX };
	struct sframe_problem where;
	struct sframe_fde fde;
	struct sframe_fre_iter it;
	struct sframe_fre fre;
	struct sframe_rules rules;
	struct sframe_row row;
	uint32_t i;
	size_t p;
	int err;

	err = sframe_check(&sec, &where);
	assert_true(err == 0 || (err <= -SFRAME_ERR_BASE && err >= -SFRAME_ERR_MAX));
	for (i = 0; i < sec.num_fdes && i < 8; i++) {
		unsigned steps = 0;

		err = sframe_get_fde(&sec, i, &fde);
		assert_true(err <= 0 && !sframe_is_read_error(err));
		if (err)
			continue;
		if (sframe_fre_iter_init(&sec, &fde, &it))
			continue;
		while ((err = sframe_fre_iter_next(&sec, &it, &fre)) == 1) {
			/* Bounded: the header holds at most a few dozen FREs. */
			assert_true(++steps < 1000);
			assert_true(fre.num_words <= SFRAME_MAX_WORDS);
			err = sframe_fre_rules(&sec, &fde, &fre, &rules);
			assert_true(err == 0 || err == -SFRAME_ERR_WORDS);
		}
		assert_true(err <= 0 && !sframe_is_read_error(err));
	}
	for (p = 0; p < sizeof(pcs) / sizeof(pcs[0]); p++) {
		err = sframe_lookup(&sec, pcs[p], &row);
		assert_true(err <= 0 && !sframe_is_read_error(err));
	}
}

static void sweep(void)
{
	static const uint8_t vals[] = { 0x00, 0x01, 0x02, 0x03, 0x07, 0x0f, 0x10, 0x1f,
					0x7f, 0x80, 0xc0, 0xe0, 0xfe, 0xff };
	size_t len, off, v, opened = 0;

	len = sfb_emit(&b, buf, sizeof(buf));
	assert_true(len > 0);
	/* Every byte (header included), several values each, base 0x1000. */
	for (off = 0; off < len; off++) {
		for (v = 0; v < sizeof(vals); v++) {
			memcpy(tmp, buf, len);
			tmp[off] = vals[v];
			if (open_bytes(tmp, len, 0x1000) != 0)
				continue;
			opened++;
			exercise();
		}
	}
	/* Bytes past the header never stop sframe_open(): most variants get exercised. */
	assert_true(opened >= (len - SFRAME_HDR_SIZE) * sizeof(vals));
	/* Every truncation, with the header's claims left as they are. */
	for (off = 0; off < len; off++) {
		if (open_bytes(buf, off, 0x1000) == 0)
			exercise();
	}
}

static void test_hostile_sweep(void **state)
{
	(void)state;
	build_rich(3, SFRAME_ABI_AMD64_LE, false, 0x5);
	sweep();
	build_rich(3, SFRAME_ABI_S390X_BE, true, 0x5);
	sweep();
	build_rich(2, SFRAME_ABI_AARCH64_BE, true, 0x5);
	sweep();
	build_rich(2, SFRAME_ABI_S390X_BE, true, 0x1);
	sweep();
	build_rich(1, SFRAME_ABI_AMD64_LE, false, 0x1);
	sweep();
	/* The largest read the library asked for. */
	assert_true(rd.max_len <= SFRAME_MAX_READ);
}

/* ---- strings ----------------------------------------------------------------- */

static void test_strings(void **state)
{
	const char *names[SFRAME_ERR_MAX - SFRAME_ERR_BASE + 1];
	int code, j;

	(void)state;
	for (code = SFRAME_ERR_BASE; code <= SFRAME_ERR_MAX; code++) {
		const char *msg = sframe_strerror(-code);
		const char *name = sframe_errname(-code);

		assert_non_null(msg);
		assert_non_null(name);
		assert_true(msg[0] != '\0');
		/*
		 * -SFRAME_ERR_READ is both a library code and a callback error
		 * (sframe_is_read_error()): either name is fine for it.
		 */
		if (code == SFRAME_ERR_READ && strcmp(name, "READ_CALLBACK") == 0)
			;
		else
			assert_true(strncmp(name, "SFRAME_ERR_", 11) == 0 && name[11] != '\0');
		names[code - SFRAME_ERR_BASE] = name;
		for (j = SFRAME_ERR_BASE; j < code; j++)
			assert_string_not_equal(names[j - SFRAME_ERR_BASE], name);
	}
	assert_string_equal(sframe_errname(-SFRAME_ERR_FDE), "SFRAME_ERR_FDE");
	assert_string_equal(sframe_errname(-SFRAME_ERR_NOT_FOUND), "SFRAME_ERR_NOT_FOUND");
	assert_string_equal(sframe_errname(-SFRAME_ERR_TRUNCATED), "SFRAME_ERR_TRUNCATED");

	assert_string_equal(sframe_errname(0), "SFRAME_OK");
	assert_non_null(sframe_strerror(0));
	assert_true(sframe_strerror(0)[0] != '\0');

	/* Callback errors: errno-style values, and anything outside the library's range. */
	assert_string_equal(sframe_errname(-5), "READ_CALLBACK");
	assert_string_equal(sframe_strerror(-5), "memory read failed");
	assert_string_equal(sframe_errname(-1), "READ_CALLBACK");
	assert_string_equal(sframe_errname(-4095), "READ_CALLBACK");
	assert_string_equal(sframe_strerror(-4095), "memory read failed");
	assert_string_equal(sframe_errname(-SFRAME_ERR_MAX - 1), "READ_CALLBACK");
	assert_string_equal(sframe_strerror(-SFRAME_ERR_MAX - 1), "memory read failed");
	assert_non_null(sframe_strerror(-SFRAME_ERR_READ));
	/* Messages are distinct from one another, too. */
	assert_string_not_equal(sframe_strerror(-SFRAME_ERR_FDE), sframe_strerror(-SFRAME_ERR_FRE));
	assert_string_not_equal(sframe_strerror(-SFRAME_ERR_NOT_FOUND),
				sframe_strerror(-SFRAME_ERR_HEADER));
	/* Values no function returns still give a string (callers print them blindly). */
	assert_non_null(sframe_strerror(1));
	assert_non_null(sframe_errname(1));
	assert_non_null(sframe_strerror(INT32_MIN));
	assert_non_null(sframe_errname(INT32_MIN));
}

/*
 * Every code from SFRAME_ERR_BASE to SFRAME_ERR_MAX has its own name (the
 * identifier of sframe.h's enum, written out here) and a message of its own
 * (only SFRAME_ERR_READ's is the one callback errors get). A code added to
 * the enum without a line here, or without an entry in the table of
 * sframe_error.c, fails.
 */
static void test_every_code(void **state)
{
	static const struct {
		int code;
		const char *name;
	} codes[] = {
		{ SFRAME_ERR_NOT_FOUND, "SFRAME_ERR_NOT_FOUND" },
		{ SFRAME_ERR_INVAL, "SFRAME_ERR_INVAL" },
		{ SFRAME_ERR_BAD_MAGIC, "SFRAME_ERR_BAD_MAGIC" },
		{ SFRAME_ERR_VERSION, "SFRAME_ERR_VERSION" },
		{ SFRAME_ERR_ABI, "SFRAME_ERR_ABI" },
		{ SFRAME_ERR_UNSUPPORTED, "SFRAME_ERR_UNSUPPORTED" },
		{ SFRAME_ERR_TRUNCATED, "SFRAME_ERR_TRUNCATED" },
		{ SFRAME_ERR_FLAGS, "SFRAME_ERR_FLAGS" },
		{ SFRAME_ERR_HEADER, "SFRAME_ERR_HEADER" },
		{ SFRAME_ERR_FDE, "SFRAME_ERR_FDE" },
		{ SFRAME_ERR_FDE_ORDER, "SFRAME_ERR_FDE_ORDER" },
		{ SFRAME_ERR_FRE_TYPE, "SFRAME_ERR_FRE_TYPE" },
		{ SFRAME_ERR_FDE_TYPE, "SFRAME_ERR_FDE_TYPE" },
		{ SFRAME_ERR_REP_SIZE, "SFRAME_ERR_REP_SIZE" },
		{ SFRAME_ERR_FRE, "SFRAME_ERR_FRE" },
		{ SFRAME_ERR_WORD_SIZE, "SFRAME_ERR_WORD_SIZE" },
		{ SFRAME_ERR_WORDS, "SFRAME_ERR_WORDS" },
		{ SFRAME_ERR_FRE_COUNT, "SFRAME_ERR_FRE_COUNT" },
		{ SFRAME_ERR_READ, "SFRAME_ERR_READ" },
		{ SFRAME_ERR_NO_REG, "SFRAME_ERR_NO_REG" },
		{ SFRAME_ERR_BAD_CFA, "SFRAME_ERR_BAD_CFA" },
		{ SFRAME_ERR_BAD_RA, "SFRAME_ERR_BAD_RA" },
		{ SFRAME_ERR_DEPTH, "SFRAME_ERR_DEPTH" },
		{ SFRAME_ERR_FULL, "SFRAME_ERR_FULL" },
		{ SFRAME_ERR_OVERLAP, "SFRAME_ERR_OVERLAP" },
		{ SFRAME_ERR_EMPTY, "SFRAME_ERR_EMPTY" },
		{ SFRAME_ERR_TRAILING, "SFRAME_ERR_TRAILING" },
		{ SFRAME_ERR_CONCAT, "SFRAME_ERR_CONCAT" },
	};
	const size_t n = sizeof(codes) / sizeof(codes[0]);
	int seen[SFRAME_ERR_MAX - SFRAME_ERR_BASE + 1] = { 0 };
	size_t i, j;

	(void)state;
	assert_int_equal(n, SFRAME_ERR_MAX - SFRAME_ERR_BASE + 1);
	for (i = 0; i < n; i++) {
		const char *msg = sframe_strerror(-codes[i].code);

		assert_true(codes[i].code >= SFRAME_ERR_BASE && codes[i].code <= SFRAME_ERR_MAX);
		assert_int_equal(seen[codes[i].code - SFRAME_ERR_BASE]++, 0);
		assert_string_equal(sframe_errname(-codes[i].code), codes[i].name);
		assert_true(msg[0] != '\0');
		if (codes[i].code != SFRAME_ERR_READ)
			assert_string_not_equal(msg, sframe_strerror(-5));
		for (j = 0; j < i; j++)
			assert_string_not_equal(sframe_strerror(-codes[j].code), msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_code),
		cmocka_unit_test(test_open_truncated),
		cmocka_unit_test(test_open_bad_magic),
		cmocka_unit_test(test_open_version),
		cmocka_unit_test(test_open_flags),
		cmocka_unit_test(test_open_abi),
		cmocka_unit_test(test_open_areas),
		cmocka_unit_test(test_open_fdeoff_after_freoff),
		cmocka_unit_test(test_open_auxhdr),
		cmocka_unit_test(test_open_inval),
		cmocka_unit_test(test_read_errors_propagate),
		cmocka_unit_test(test_read_error_in_check_where),
		cmocka_unit_test(test_is_read_error),
		cmocka_unit_test(test_hostile_sweep),
		cmocka_unit_test(test_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
