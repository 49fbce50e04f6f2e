/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_format.h - the on-disk SFrame format, every version.
 *
 * Written from the published format description; every number below is a
 * fact of the format, named in this library's own words. All multi-byte
 * fields are stored in the byte order of the target the section describes;
 * the magic number tells a reader which order that is. Nothing here is a
 * C struct overlay: the core decodes each field from bytes, so the section
 * may be unaligned and of either byte order.
 */
#ifndef SFRAME_FORMAT_H
#define SFRAME_FORMAT_H

/* ---- Preamble and header (identical layout in v1, v2, v3) ------------- */

/* Magic number, first two bytes: e2 de little endian, de e2 big endian. */
#define SFRAME_MAGIC			0xdee2u

#define SFRAME_VERSION_1		1	/* binutils 2.40 */
#define SFRAME_VERSION_2		2	/* binutils 2.41 .. 2.45 */
#define SFRAME_VERSION_3		3	/* binutils 2.46 and later */

/* Header flag bits (byte 3). */
#define SFRAME_F_FDE_SORTED		0x1u	/* FDEs sorted by start PC: all versions */
#define SFRAME_F_FRAME_POINTER		0x2u	/* "all functions keep FP": v1 and v2 only */
#define SFRAME_F_FDE_FUNC_START_PCREL	0x4u	/* FDE start relative to the field: v2 (2.45) and v3 */

/* Flags each version may carry; any other bit makes the header invalid. */
#define SFRAME_V1_FLAGS_ALLOWED		(SFRAME_F_FDE_SORTED | SFRAME_F_FRAME_POINTER)
#define SFRAME_V2_FLAGS_ALLOWED		(SFRAME_F_FDE_SORTED | SFRAME_F_FRAME_POINTER | \
					 SFRAME_F_FDE_FUNC_START_PCREL)
#define SFRAME_V3_FLAGS_ALLOWED		(SFRAME_F_FDE_SORTED | SFRAME_F_FDE_FUNC_START_PCREL)

/* ABI/architecture identifiers (byte 4). */
#define SFRAME_ABI_AARCH64_BE		1
#define SFRAME_ABI_AARCH64_LE		2
#define SFRAME_ABI_AMD64_LE		3
#define SFRAME_ABI_S390X_BE		4	/* since v2 (binutils 2.45) */

/*
 * Header byte offsets. The header is 28 bytes, followed by
 * auxhdr_len bytes of auxiliary header. fde_off and fre_off count from the
 * end of the auxiliary header.
 */
#define SFRAME_HDR_MAGIC		0	/* u16 */
#define SFRAME_HDR_VERSION		2	/* u8 */
#define SFRAME_HDR_FLAGS		3	/* u8 */
#define SFRAME_HDR_ABI			4	/* u8 */
#define SFRAME_HDR_FIXED_FP		5	/* s8: FP at CFA + this; 0 = not fixed */
#define SFRAME_HDR_FIXED_RA		6	/* s8: RA at CFA + this; 0 = not fixed */
#define SFRAME_HDR_AUXHDR_LEN		7	/* u8 */
#define SFRAME_HDR_NUM_FDES		8	/* u32 */
#define SFRAME_HDR_NUM_FRES		12	/* u32: FREs only (v3: not the attribute records) */
#define SFRAME_HDR_FRE_LEN		16	/* u32: bytes of the FRE area (v3: with attribute records) */
#define SFRAME_HDR_FDE_OFF		20	/* u32 */
#define SFRAME_HDR_FRE_OFF		24	/* u32 */
#define SFRAME_HDR_SIZE			28

/* ---- Function descriptor entries ---------------------------------------- */

/*
 * v1: 17 bytes, packed (unaligned after the first):
 *   s32 start, u32 size, u32 fre_off, u32 num_fres, u8 info
 * v2: 20 bytes:
 *   s32 start, u32 size, u32 fre_off, u32 num_fres, u8 info, u8 rep_size, u16 pad
 * v3: 16-byte index entry in the FDE area:
 *   s64 start, u32 size, u32 fre_off (to the attribute record)
 *   and a 5-byte attribute record at the start of the function's FRE run:
 *   u16 num_fres, u8 info, u8 info2, u8 rep_size
 * fre_off counts from the start of the FRE area in every version.
 */
#define SFRAME_V1_FDE_SIZE		17
#define SFRAME_V2_FDE_SIZE		20
#define SFRAME_V3_FDE_SIZE		16
#define SFRAME_V3_FDE_ATTR_SIZE		5

#define SFRAME_FDE_START		0	/* offset of the start field in every version */
#define SFRAME_V12_FDE_SIZE_FIELD	4
#define SFRAME_V12_FDE_FRE_OFF		8
#define SFRAME_V12_FDE_NUM_FRES		12
#define SFRAME_V12_FDE_INFO		16
#define SFRAME_V2_FDE_REP_SIZE		17
#define SFRAME_V3_FDE_SIZE_FIELD	8
#define SFRAME_V3_FDE_FRE_OFF		12
#define SFRAME_V3_ATTR_NUM_FRES		0
#define SFRAME_V3_ATTR_INFO		2
#define SFRAME_V3_ATTR_INFO2		3
#define SFRAME_V3_ATTR_REP_SIZE		4

/* func_info byte (all versions). */
#define SFRAME_INFO_FRE_TYPE(i)		((unsigned)(i) & 0xfu)		/* bits 0-3 */
#define SFRAME_INFO_PC_TYPE(i)		(((unsigned)(i) >> 4) & 1u)	/* bit 4 */
#define SFRAME_INFO_PAUTH_KEY(i)	(((unsigned)(i) >> 5) & 1u)	/* bit 5, aarch64 */
#define SFRAME_INFO_SIGNAL(i)		(((unsigned)(i) >> 7) & 1u)	/* bit 7, v3 only */

/* FRE types: width of each FRE's start offset. */
#define SFRAME_FRE_TYPE_ADDR1		0
#define SFRAME_FRE_TYPE_ADDR2		1
#define SFRAME_FRE_TYPE_ADDR4		2

/* PC types: how a PC selects a row. */
#define SFRAME_PC_TYPE_INC		0	/* rows cover [start_i, start_i+1) */
#define SFRAME_PC_TYPE_MASK		1	/* rows repeat every rep_size bytes (PLT) */

#define SFRAME_PAUTH_KEY_A		0
#define SFRAME_PAUTH_KEY_B		1

/* v3 func_info2: FDE type in bits 0-4. */
#define SFRAME_INFO2_FDE_TYPE(i)	((unsigned)(i) & 0x1fu)
#define SFRAME_FDE_TYPE_DEFAULT		0
#define SFRAME_FDE_TYPE_FLEX		1

/* ---- Frame row entries ---------------------------------------------------- */

/*
 * An FRE is: start offset (1, 2 or 4 bytes, unsigned, by FRE type), the
 * fre_info byte, then N data words of S bytes each. Packed, unaligned.
 */
#define SFRAME_FRE_INFO_BASE_REG(i)	((unsigned)(i) & 1u)		/* 0 = FP, 1 = SP */
#define SFRAME_FRE_INFO_NUM_WORDS(i)	(((unsigned)(i) >> 1) & 0xfu)	/* N: 0..15 */
#define SFRAME_FRE_INFO_WORD_SIZE(i)	(((unsigned)(i) >> 5) & 3u)	/* 0:1 1:2 2:4 3:invalid */
#define SFRAME_FRE_INFO_MANGLED_RA(i)	(((unsigned)(i) >> 7) & 1u)	/* aarch64 PAuth */

#define SFRAME_BASE_REG_FP		0
#define SFRAME_BASE_REG_SP		1

#define SFRAME_WORD_SIZE_1		0
#define SFRAME_WORD_SIZE_2		1
#define SFRAME_WORD_SIZE_4		2

/* Most data words any valid FRE carries (v3 FLEX: three pairs). */
#define SFRAME_MAX_WORDS		6

/*
 * Default FDEs: signed offsets CFA, [RA], [FP]. When the header has a fixed
 * RA offset (amd64), word 1 is the FP offset instead. An RA word of 0 on an
 * ABI that tracks RA is padding: "RA not saved" (s390x: FP saved, RA not).
 * N = 0 means the RA is undefined: the outermost frame.
 *
 * v3 FLEX FDEs: (control, offset) pairs for CFA, RA, FP, in that order.
 * Control word bits: bit 0 = base is a DWARF register (else the CFA), bit 1
 * = dereference, bits 3.. = DWARF register number (29 bits with 4-byte
 * words). The CFA pair always comes first and names a register. For RA and
 * FP, a control word of 0 is padding: "no rule for this entity", one word
 * (no offset word follows it), and the next entity's words come right
 * after. A row may end after any entity. The FDE type is not tied to an
 * ABI (gas writes FLEX FDEs for amd64 and s390x only).
 */
#define SFRAME_FLEX_REG_P(c)		((c) & 1u)
#define SFRAME_FLEX_DEREF_P(c)		(((c) >> 1) & 1u)
#define SFRAME_FLEX_REGNUM(c)		((c) >> 3)

/* s390x: CFA offsets are stored as (offset - 160) / 8. */
#define SFRAME_S390X_CFA_BIAS		160
#define SFRAME_S390X_CFA_SCALE		8
/* s390x: the caller's SP is CFA - 160. */
#define SFRAME_S390X_SP_VAL_OFFSET	(-160)
/* s390x v2 only: an odd RA/FP word encodes (DWARF regnum << 1) | 1. */
#define SFRAME_S390X_V2_IS_REGNUM(w)	((w) & 1)
#define SFRAME_S390X_V2_REGNUM(w)	((w) >> 1)

/* ---- ELF container -------------------------------------------------------- */

#define SFRAME_SHT_GNU_SFRAME		0x6ffffff4u	/* section type since 2.45 */
#define SFRAME_PT_GNU_SFRAME		0x6474e554u	/* program header type */

/* DWARF register numbers of the registers SFrame names. */
#define SFRAME_AMD64_DWARF_FP		6
#define SFRAME_AMD64_DWARF_SP		7
#define SFRAME_AMD64_DWARF_RA		16
#define SFRAME_AARCH64_DWARF_FP		29
#define SFRAME_AARCH64_DWARF_RA		30
#define SFRAME_AARCH64_DWARF_SP		31
#define SFRAME_S390X_DWARF_FP		11
#define SFRAME_S390X_DWARF_RA		14
#define SFRAME_S390X_DWARF_SP		15

#endif /* SFRAME_FORMAT_H */
