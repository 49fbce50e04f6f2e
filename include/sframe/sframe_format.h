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
 *
 * Besides the layout, the notes below say how to use it: how a stored
 * start becomes an address ("Function start"), what a FLEX rule's value is
 * ("FLEX values"), which function and row describe a PC ("Lookup"), and
 * how a row unwinds a frame on each ABI ("Unwinding, per ABI").
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

/*
 * Function start. The stored start is a signed offset, not an address.
 * With SFRAME_F_FDE_FUNC_START_PCREL it counts from the start field
 * itself: start = section address + the field's offset in the section +
 * the field. Without the flag (v1, and v2 linked before binutils 2.45) it
 * counts from the section's first byte: start = section address + field.
 * The assembler writes every start as a PC-relative relocation against its
 * field, in v1 and v2 objects too, whose headers have no flag to say so.
 */

/* func_info byte (all versions). */
#define SFRAME_INFO_FRE_TYPE(i)		((unsigned)(i) & 0xfu)		/* bits 0-3 */
#define SFRAME_INFO_PC_TYPE(i)		(((unsigned)(i) >> 4) & 1u)	/* bit 4 */
#define SFRAME_INFO_PAUTH_KEY(i)	(((unsigned)(i) >> 5) & 1u)	/* bit 5, aarch64 */
#define SFRAME_INFO_SIGNAL(i)		(((unsigned)(i) >> 7) & 1u)	/* bit 7, v3 only */

/* FRE types: width of each FRE's start offset. */
#define SFRAME_FRE_TYPE_ADDR1		0
#define SFRAME_FRE_TYPE_ADDR2		1
#define SFRAME_FRE_TYPE_ADDR4		2
/* Bytes of the start offset of FRE type @t, ADDR1 .. ADDR4 only: 1, 2, 4. */
#define SFRAME_FRE_START_BYTES(t)	(1u << (t))

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
/* The fourth size code names no width: an FRE carrying it cannot be read. */
#define SFRAME_WORD_SIZE_UNDEFINED	3
/* Bytes of each data word for size code @c, SFRAME_WORD_SIZE_1 .. _4 only. */
#define SFRAME_WORD_BYTES(c)		(1u << (c))

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

/*
 * FLEX values. base = the control word's register when bit 0 is set, else
 * the CFA; address = base + offset word; value = *address when bit 1 is
 * set, else the address itself. So "RA = CFA + 0" cannot be written (its
 * control word would be 0, padding), while "*(CFA + 0)" can (control 2).
 * An RA or FP without a rule in the row (a padding word, or the row ended
 * before it) takes the header's fixed offset when there is one, else keeps
 * its value; a rule given in the row replaces the fixed offset.
 */

/* s390x: CFA offsets are stored as (offset - 160) / 8. */
#define SFRAME_S390X_CFA_BIAS		160
#define SFRAME_S390X_CFA_SCALE		8
/* s390x: the caller's SP is CFA - 160. */
#define SFRAME_S390X_SP_VAL_OFFSET	(-160)
/* s390x v2 only: an odd RA/FP word encodes (DWARF regnum << 1) | 1. */
#define SFRAME_S390X_V2_IS_REGNUM(w)	((w) & 1)
#define SFRAME_S390X_V2_REGNUM(w)	((w) >> 1)

/* ---- Lookup --------------------------------------------------------------- */

/*
 * Lookup: which function and which row describe a PC.
 *
 * The function is the FDE with the greatest start <= PC, provided
 * PC < start + size: a PC in a gap between functions, below the first one
 * or exactly at a function's end has none. SFRAME_F_FDE_SORTED promises
 * ascending starts, so a binary search finds that FDE; without the flag
 * every FDE has to be looked at.
 *
 * The row (PCINC) is the last FRE whose start offset is <= PC - start. FRE
 * start offsets ascend; a row covers the PCs up to the next row's start,
 * the last one up to the function's end. PCMASK describes a block of code
 * repeated every rep_size bytes (PLT entries): the FRE start offsets count
 * from the block's start and the row is the last one <= (PC - start) %
 * rep_size. rep_size 0 is invalid.
 *
 * There is no row for an FDE without FREs (in v3 a DEFAULT FDE without
 * FREs marks an outermost frame; a signal-frame FDE may have none too), nor
 * for a PC before the function's first FRE. Neither falls back to an
 * earlier row or function.
 *
 * v1 FDEs have no rep_size field, and the only v1 writer of PCMASK FDEs is
 * the amd64 linker, for its 16-byte PLT entries. This library repeats a v1
 * PCMASK FDE every 16 bytes on amd64 and refuses one on any other ABI
 * (-SFRAME_ERR_UNSUPPORTED).
 *
 * In a relocatable object (assembler output) the starts still await their
 * relocations and the FDEs are not sorted. Its rows can be decoded, but a
 * lookup by address means something only once the relocations are
 * applied; each function then starts at its offset in its own section.
 */

/* ---- Unwinding, per ABI ---------------------------------------------------- */

/*
 * Unwinding: a row gives the frame's CFA and where the caller's RA and FP
 * are. CFA = base register (SP or FP by fre_info bit 0; FLEX: the CFA
 * pair's register) + CFA offset. A saved RA or FP is a stack slot,
 * value = *(CFA + offset); one not saved keeps its value. N = 0: the RA is
 * undefined, this is the outermost frame.
 *
 * amd64: the header fixes the RA at CFA - 8, so default rows carry one word
 * (CFA) or two (CFA, FP slot); with one, FP is unchanged. The caller's SP
 * is the CFA.
 *
 * aarch64: the frame record holds FP (x29) and RA (x30, the link register)
 * together, so default rows carry one word (CFA) or three (CFA, RA slot, FP
 * slot), never two. With one word (a leaf function, or a prologue before
 * the record is stored) the RA is still in x30 and FP is unchanged; x30 is
 * known in the topmost frame only. The caller's SP is the CFA. fre_info
 * bit 7 marks a PAuth-signed RA (key: func_info bit 5), whose signature
 * bits must be stripped before it is an address. The assembler writes no
 * FLEX FDEs for aarch64; the format allows them.
 *
 * s390x: the CFA is the caller's SP + 160 (the register save area), so the
 * caller's SP is CFA - 160; CFA offsets are stored as (offset - 160) / 8,
 * in DEFAULT and FLEX rows alike. Default rows carry one to three words:
 * CFA, RA slot, FP slot. An RA word 0 is padding: FP saved, RA not (still
 * in r14, topmost frame only). In v2 an odd RA or FP word names the
 * register holding the value, (regnum << 1) | 1, as leaf functions keep
 * RA and FP in floating-point registers. v3 drops that encoding: such a
 * frame has a FLEX FDE whose RA or FP pair names the register (bit 0 set,
 * no dereference, offset 0).
 *
 * Any ABI: a rule based on a register other than SP and FP (a CFA, RA or
 * FP taken from one, as FLEX rows and s390x v2 words allow) can be
 * followed only where that register's value is known: in the topmost
 * frame, or in a frame interrupted by a signal, from the registers the
 * signal frame saved.
 */

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
