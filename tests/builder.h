/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * builder.h - a test-only SFrame section builder.
 *
 * Describe a section (version, byte order, ABI, flags, fixed offsets), add
 * functions (FDEs) with absolute start addresses and their rows (FREs), then
 * emit the bytes the way gas and ld lay them out:
 *
 *   header (28) | auxiliary header (auxhdr_len bytes, filled with 0xa5)
 *   | FDE area (fdeoff 0) | FRE area (freoff = num_fdes * fde_size)
 *
 * In the FRE area each function's run starts with its v3 attribute record
 * (v3 only) followed by its FREs, in the order the FDEs were added. The
 * header's num_fres and fre_len are computed. The FDE start field is computed
 * from the absolute start and the section's vaddr: relative to the field
 * itself when SFRAME_F_FDE_FUNC_START_PCREL is set, else to the section start.
 *
 * Nothing here validates: the builder writes whatever it is told (FRE types
 * 3..15, up to 15 words, starts past the function end ...) so that tests can
 * build broken sections. After sfb_emit() the section offset of every piece is
 * recorded in the builder, and sfb_put_u8/16/32/64() poke raw fields in the
 * section's byte order.
 *
 * No allocation: a builder is one (large) struct; tests keep it static.
 */
#ifndef SFRAME_TEST_BUILDER_H
#define SFRAME_TEST_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sframe/sframe.h"

#define SFB_MAX_FDES	2600
#define SFB_MAX_FRES	2700
#define SFB_MAX_WORDS	15	/* what the 4-bit N field can say */
#define SFB_MAX_OUT	131072

/* One row. */
struct sfb_fre {
	uint32_t start;		/* offset from the function (PCMASK: block) start */
	uint8_t base_reg;	/* SFRAME_BASE_REG_FP or SFRAME_BASE_REG_SP */
	bool mangled;		/* fre_info bit 7 */
	uint8_t word_bytes;	/* 1, 2 or 4 */
	uint8_t num_words;	/* 0 .. SFB_MAX_WORDS */
	int64_t words[SFB_MAX_WORDS];	/* truncated to word_bytes when emitted */
};

/* One function. */
struct sfb_fde {
	uint64_t start;		/* absolute start address */
	uint32_t size;
	uint8_t fre_type;	/* 0..15 written raw; start width 1/2/4 for 0/1/2, else 1 */
	uint8_t pc_type;	/* SFRAME_PC_TYPE_INC or _MASK */
	uint8_t rep_size;	/* v2 FDE byte 17, v3 attribute byte 4; v1: not stored */
	uint8_t pauth_key;	/* info bit 5 */
	bool signal;		/* info bit 7 (meaningful in v3) */
	uint8_t fde_type;	/* v3 info2, written raw */
	uint32_t first_fre;	/* index into sfb.fres */
	uint32_t num_fres;
};

struct sfb {
	/* Section description: set by sfb_init(), change freely before emitting. */
	uint8_t version;
	uint8_t flags;
	uint8_t abi;
	int8_t fixed_fp;
	int8_t fixed_ra;
	uint8_t auxhdr_len;
	bool big_endian;
	uint64_t vaddr;		/* run-time address of the section's byte 0 */
	uint32_t tail_pad;	/* zero bytes appended after the FRE area (not in fre_len) */

	uint32_t num_fdes;
	uint32_t num_fres;
	struct sfb_fde fdes[SFB_MAX_FDES];
	struct sfb_fre fres[SFB_MAX_FRES];

	/* Filled by sfb_emit(): section offsets of everything written. */
	size_t len;			/* bytes emitted */
	size_t fde_size;		/* 17, 20 or 16 */
	size_t fde_area;		/* offset of the FDE area */
	size_t fre_area;		/* offset of the FRE area */
	size_t fre_len;			/* bytes of the FRE area */
	size_t fde_off[SFB_MAX_FDES];	/* each FDE (v3: index entry) */
	size_t attr_off[SFB_MAX_FDES];	/* v3 attribute record (0 before v3) */
	size_t fre_off[SFB_MAX_FRES];	/* each FRE */
	size_t fre_info_off[SFB_MAX_FRES];	/* each FRE's fre_info byte */
	size_t info_off[SFB_MAX_FDES];	/* each FDE's func_info byte (v3: in the record) */
	int64_t start_field[SFB_MAX_FDES];	/* the start value stored */
};

/*
 * sfb_init() - start a section. fixed_ra defaults to -8 for amd64 (what gas
 * writes), 0 elsewhere; fixed_fp to 0.
 */
void sfb_init(struct sfb *b, uint8_t version, uint8_t abi, bool big_endian,
	      uint8_t flags, uint64_t vaddr);

/*
 * sfb_fde() - add a function. Its FREs are the ones added by sfb_fre() until
 * the next sfb_fde(). Returns the FDE so tests can set rep_size, pauth_key,
 * signal and fde_type.
 */
struct sfb_fde *sfb_fde(struct sfb *b, uint64_t start, uint32_t size,
			uint8_t fre_type, uint8_t pc_type);

/*
 * sfb_fre() - add a row to the last function: start offset, base register,
 * word size in bytes (1, 2, 4) and n words given as int arguments (the low
 * word_bytes bytes of each are stored). Returns the FRE (for ->mangled).
 */
struct sfb_fre *sfb_fre(struct sfb *b, uint32_t start, unsigned base_reg,
			unsigned word_bytes, unsigned n, ...);

/*
 * sfb_emit() - write the section into @out. Returns its length, or 0 when it
 * does not fit @cap (or the builder overflowed).
 */
size_t sfb_emit(struct sfb *b, void *out, size_t cap);

/* Poke a field at section offset @off, in the section's byte order. */
void sfb_put_u8(const struct sfb *b, void *out, size_t off, uint8_t v);
void sfb_put_u16(const struct sfb *b, void *out, size_t off, uint16_t v);
void sfb_put_u32(const struct sfb *b, void *out, size_t off, uint32_t v);
void sfb_put_u64(const struct sfb *b, void *out, size_t off, uint64_t v);
/* Read back a field, for tests that check the builder itself. */
uint64_t sfb_get(const struct sfb *b, const void *out, size_t off, size_t width);

/* fre_info byte for base reg, N, word size in bytes (1/2/4; anything else: code 3), mangled. */
uint8_t sfb_fre_info(unsigned base_reg, unsigned n, unsigned word_bytes, bool mangled);

/* s390x: the stored CFA word for a CFA offset: (off - 160) / 8. */
#define SFB_S390X_CFA(off)	(((off) - SFRAME_S390X_CFA_BIAS) / SFRAME_S390X_CFA_SCALE)
/* v3 FLEX control word: DWARF register, dereference, register-based. */
#define SFB_FLEX_CTRL(reg, deref, regp) \
	((int)(((unsigned)(reg) << 3) | ((unsigned)(deref) << 1) | (unsigned)(regp)))

/* ---- Read callbacks for tests ------------------------------------------ */

/*
 * struct sfb_reader - a read callback over a buffer placed at callback
 * address @base that fails the test (cmocka fail()) on any read outside
 * [base, base + size), on len 0 or len > SFRAME_MAX_READ; counts reads and can
 * fail the @fail_at-th one (1-based; 0 = never) with @fail_err.
 */
struct sfb_reader {
	const uint8_t *data;
	uint64_t base;
	uint64_t size;
	unsigned calls;
	unsigned fail_at;
	int fail_err;
	unsigned max_len;	/* largest read seen */
};

int sfb_read(void *ctx, uint64_t addr, void *dst, size_t len);

/* Emit @b into @out and sframe_open() it through @r at @base. Fails the test on error. */
void sfb_open(struct sfb *b, void *out, size_t cap, struct sframe_section *sec,
	      struct sfb_reader *r, uint64_t base);

/* assert_int_equal for error codes that prints their names on mismatch. */
#define assert_err(got, want)	sfb_assert_err((got), (want), #got, __FILE__, __LINE__)
void sfb_assert_err(long long got, long long want, const char *expr,
		    const char *file, int line);

#endif /* SFRAME_TEST_BUILDER_H */
