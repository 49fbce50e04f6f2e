/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_internal.h - helpers shared by the core's files; not installed.
 */
#ifndef SFRAME_INTERNAL_H
#define SFRAME_INTERNAL_H

#include <sframe/sframe.h>

/*
 * The compile-time assume mask (see SFRAME_ASSUME_MASK in sframe.h): the
 * checks sframe_lookup() may skip. Everything else, sframe_check() and the
 * iteration API included, always checks in full.
 */
#ifndef SFRAME_ASSUME_MASK
#define SFRAME_ASSUME_MASK 0
#endif
#define SF_LOOKUP_ASSUME ((unsigned int)(SFRAME_ASSUME_MASK) & SFRAME_ASSUME_VALID)

/* Largest valid FRE: 4-byte start, info byte, six 4-byte words. */
#define SF_FRE_MAX_BYTES (SFRAME_FRE_START_BYTES(SFRAME_FRE_TYPE_ADDR4) + 1 + \
			  SFRAME_MAX_WORDS * SFRAME_WORD_BYTES(SFRAME_WORD_SIZE_4))
/* Smallest FRE: 1-byte start, info byte, no words. */
#define SF_FRE_MIN_BYTES (SFRAME_FRE_START_BYTES(SFRAME_FRE_TYPE_ADDR1) + 1)

/*
 * sf_fetch() - the bytes at @off of a section behind a callback, already
 * checked to lie inside it: through the embedder's SFRAME_READ_HOOK() when
 * the env header defines one (inline, no indirect call), else the callback.
 * A positive value from a misbehaving reader is turned into
 * -SFRAME_ERR_READ so that success is never faked.
 */
static SFRAME_ALWAYS_INLINE int sf_fetch(const struct sframe_section *sec, uint64_t off,
					 void *dst, size_t len)
{
#ifdef SFRAME_READ_HOOK
	int ret = SFRAME_READ_HOOK(sec, sec->base + off, dst, len);
#else
	int ret = sec->read(sec->read_ctx, sec->base + off, dst, len);
#endif

	if (ret > 0)
		return -SFRAME_ERR_READ;
	return ret;
}

/*
 * sf_read() - the one checked way to read section bytes.
 *
 * Bounds are checked overflow-first against the section size; a range
 * outside the section returns @oob_err (the caller knows which part of the
 * section it was reading, so the error can name it). A callback (or read
 * hook) error is passed through unchanged, as sf_fetch() says.
 */
static inline int sf_read(const struct sframe_section *sec, uint64_t off, void *dst,
			  size_t len, int oob_err)
{
	if (len == 0 || len > SFRAME_MAX_READ)
		return -SFRAME_ERR_INVAL;
	if (off > sec->size || len > sec->size - off)
		return oob_err;
	if (sec->data) {
		SFRAME_MEMCPY(dst, sec->data + off, len);
		return 0;
	}
	return sf_fetch(sec, off, dst, len);
}

/*
 * sf_view() - sf_read() without the copy where possible: *@p points at the
 * @len bytes at @off, inside the section itself when it is in memory, else
 * in @tmp (at least @len bytes) after a callback read. Same checks, same
 * errors as sf_read().
 */
static inline int sf_view(const struct sframe_section *sec, uint64_t off, size_t len,
			  uint8_t *tmp, int oob_err, const uint8_t **p)
{
	int ret;

	if (len == 0 || len > SFRAME_MAX_READ)
		return -SFRAME_ERR_INVAL;
	if (off > sec->size || len > sec->size - off)
		return oob_err;
	if (sec->data) {
		*p = sec->data + off;
		return 0;
	}
	ret = sf_fetch(sec, off, tmp, len);
	*p = tmp;
	return ret;
}

/*
 * Fixed-order loads for code specialised on the byte order (the hot loops
 * of sframe_lookup()); compilers turn them into one load (and a bswap).
 */
static inline uint32_t sf_le32(const uint8_t *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static inline uint32_t sf_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* (Written out byte by byte so that compilers emit one 8-byte load.) */
static inline uint64_t sf_le64(const uint8_t *p)
{
	return (uint64_t)p[7] << 56 | (uint64_t)p[6] << 48 | (uint64_t)p[5] << 40 |
	       (uint64_t)p[4] << 32 | (uint64_t)p[3] << 24 | (uint64_t)p[2] << 16 |
	       (uint64_t)p[1] << 8 | p[0];
}

static inline uint64_t sf_be64(const uint8_t *p)
{
	return (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 | (uint64_t)p[2] << 40 |
	       (uint64_t)p[3] << 32 | (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 |
	       (uint64_t)p[6] << 8 | p[7];
}

/* Loads in the byte order @be names (a constant, or a section's). */
static inline uint32_t sf_load32(const uint8_t *p, bool be)
{
	return be ? sf_be32(p) : sf_le32(p);
}

static inline uint64_t sf_load64(const uint8_t *p, bool be)
{
	return be ? sf_be64(p) : sf_le64(p);
}

/*
 * The byte order the SFrame magic at @p (two bytes) stands for: 0 little
 * endian, 1 big endian, -1 not the magic.
 */
static inline int sf_magic_order(const uint8_t *p)
{
	if (p[0] == (SFRAME_MAGIC & 0xffu) && p[1] == SFRAME_MAGIC >> 8)
		return 0;
	if (p[0] == SFRAME_MAGIC >> 8 && p[1] == (SFRAME_MAGIC & 0xffu))
		return 1;
	return -1;
}

/* Loads in the section's byte order. */
static inline uint16_t sf_u16(const struct sframe_section *sec, const uint8_t *p)
{
	if (sec->big_endian)
		return (uint16_t)((unsigned)p[0] << 8 | p[1]);
	return (uint16_t)((unsigned)p[1] << 8 | p[0]);
}

static inline uint32_t sf_u32(const struct sframe_section *sec, const uint8_t *p)
{
	return sf_load32(p, sec->big_endian);
}

/* Two's-complement reinterpretations without implementation-defined casts. */
static inline int64_t sf_s64(uint64_t v)
{
	if (v <= (uint64_t)SFRAME_INT64_MAX)
		return (int64_t)v;
	return -(int64_t)(~v) - 1;
}

static inline int8_t sf_s8(uint8_t v)
{
	if (v <= 0x7f)
		return (int8_t)v;
	return (int8_t)(-(int)(uint8_t)~v - 1);
}

static inline int16_t sf_s16(uint16_t v)
{
	if (v <= 0x7fff)
		return (int16_t)v;
	return (int16_t)(-(int)(uint16_t)~v - 1);
}

static inline int32_t sf_s32(uint32_t v)
{
	if (v <= (uint32_t)SFRAME_INT32_MAX)
		return (int32_t)v;
	return -(int32_t)(~v) - 1;
}

/**
 * struct sf_abi - what the reader knows of one ABI: the DWARF numbers its
 * rows' rules name, and the format version that first defines it. The
 * unwinder's per-ABI table (src/unwind/unwind_abi.h) starts with one.
 * @sp_reg: the stack pointer.
 * @fp_reg: the frame pointer.
 * @ra_reg: the return address (the link register where there is one).
 * @since: the first SFRAME_VERSION_* that has the ABI.
 */
struct sf_abi {
	uint16_t sp_reg;
	uint16_t fp_reg;
	uint16_t ra_reg;
	uint8_t since;
};

/* Each ABI's struct sf_abi, as an initializer for the unwinder's table too. */
#define SF_ABI_AARCH64 { SFRAME_AARCH64_DWARF_SP, SFRAME_AARCH64_DWARF_FP, \
			 SFRAME_AARCH64_DWARF_RA, SFRAME_VERSION_1 }
#define SF_ABI_AMD64 { SFRAME_AMD64_DWARF_SP, SFRAME_AMD64_DWARF_FP, \
		       SFRAME_AMD64_DWARF_RA, SFRAME_VERSION_1 }
/* s390x was defined with v2 (binutils 2.45); no v1 section has it. */
#define SF_ABI_S390X { SFRAME_S390X_DWARF_SP, SFRAME_S390X_DWARF_FP, \
		       SFRAME_S390X_DWARF_RA, SFRAME_VERSION_2 }

/* The description of SFRAME_ABI_* @abi (numbered 1 .. 4), or NULL. */
static inline const struct sf_abi *sf_abi_of(uint8_t abi)
{
	static const struct sf_abi abis[] = {
		[SFRAME_ABI_AARCH64_BE - 1] = SF_ABI_AARCH64,
		[SFRAME_ABI_AARCH64_LE - 1] = SF_ABI_AARCH64,
		[SFRAME_ABI_AMD64_LE - 1] = SF_ABI_AMD64,
		[SFRAME_ABI_S390X_BE - 1] = SF_ABI_S390X,
	};

	if (abi < SFRAME_ABI_AARCH64_BE || abi > SFRAME_ABI_S390X_BE)
		return NULL;
	return &abis[abi - 1];
}

/* sframe_abi_sp_reg() and sframe_abi_fp_reg(), inline for the rule decoder. */
static inline int sf_sp_reg(uint8_t abi)
{
	const struct sf_abi *a = sf_abi_of(abi);

	return a ? a->sp_reg : -1;
}

static inline int sf_fp_reg(uint8_t abi)
{
	const struct sf_abi *a = sf_abi_of(abi);

	return a ? a->fp_reg : -1;
}

/*
 * sf_fde_key() - a function's start relative to the section, and its size,
 * from the FDE index entry alone (one small read): what the binary search
 * compares. A start that cannot be represented (a v3 PC-relative field
 * whose sum with its offset passes INT64_MAX: a corrupt section) gives
 * INT64_MAX, after every PC, as the in-memory search also orders it; the
 * search never settles on it, and decoding that FDE reports it. Returns 0
 * or the read's error.
 */
int sf_fde_key(const struct sframe_section *sec, uint32_t index, int64_t *key, uint32_t *size);

/* The PCMASK block size of @fde, or a negative error (v1 has none). */
int sf_rep_size(const struct sframe_section *sec, const struct sframe_fde *fde);

/*
 * Block tables: the lookup index (sframe_index.c) and the unwinder's row
 * table (src/unwind/sframe_rows.c) cut text into blocks of 2^bits bytes,
 * each entry the first item (FDE, span) a lookup in the block may settle
 * on, and both are built from items in address order.
 */

/* How many blocks of 2^@bits bytes start before offset @d: those an item at @d follows. */
static inline uint64_t sf_blocks_before(uint64_t d, unsigned int bits)
{
	return d ? ((d - 1) >> bits) + 1 : 0;
}

/*
 * The entries of a block table, in item order: the blocks from *@next up
 * to @upto (not included) begin inside item @item (or after it, in a gap
 * it precedes).
 */
static inline void sf_fill_blocks(uint32_t *first, uint64_t *next, uint64_t upto, uint32_t item)
{
	for (; *next < upto; (*next)++)
		first[*next] = item;
}

/*
 * Starts that decrease: corrupt when the section is flagged sorted; valid
 * but not indexable in assembler output (gas writes FDEs in the order of
 * its text sections, not of their final addresses).
 */
static inline int sf_order_error(const struct sframe_section *sec)
{
	if (sec->flags & SFRAME_F_FDE_SORTED)
		return -SFRAME_ERR_FDE_ORDER;
	return -SFRAME_ERR_UNSUPPORTED;
}

/* @n bytes as a size_t in *@size, or -SFRAME_ERR_INVAL (a 32-bit host). */
static inline int sf_size_of(uint64_t n, size_t *size)
{
	if ((uint64_t)(size_t)n != n)
		return -SFRAME_ERR_INVAL;
	*size = (size_t)n;
	return 0;
}

#endif /* SFRAME_INTERNAL_H */
