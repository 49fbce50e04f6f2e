/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_convert.h - make an SFrame section out of DWARF call-frame
 * information (.eh_frame, .debug_frame).
 *
 * Every binary carries .eh_frame; almost all of it fits SFrame. The
 * converter reads the CFI bytes the caller holds and writes a new SFrame
 * section into memory the caller owns: ask for the size first
 * (sframe_convert_size()), then convert (sframe_convert()). Like the reader
 * it never allocates, keeps no global state, never recurses and reads every
 * input byte through one bounds-checked helper: any bytes give an error or
 * a section that sframe_check() accepts.
 *
 * What a row of the output says is exactly what DWARF says for that PC, or
 * the function is left out: a CFA or register rule SFrame cannot express
 * for the ABI (an arbitrary DWARF expression, a CFA based on a register the
 * ABI's SFrame cannot name, a return address column SFrame does not track)
 * drops the whole function, and struct sframe_convert_stats counts why.
 * SFrame's own forms are used where they say the same thing: a v3 FLEX FDE
 * for a CFA in another register or loaded from the stack (stack-realigning
 * prologues), for a return address or frame pointer kept in a register or
 * at an unusual slot; the PCMASK FDE GNU ld writes for the x86-64 PLT's CFA
 * expression; RA-undefined rows for the outermost frame; the signal-frame
 * bit (v3) for CIEs with augmentation "S"; the mangled-RA bit and the B key
 * for AArch64 pointer authentication.
 *
 * Pointers are read in every encoding whose base the CFI itself gives:
 * absolute or PC-relative, any width, LEB128, "aligned". Text-, data- and
 * function-relative and indirect FDE pointers have bases only a loader
 * knows (none of gcc, clang or ld writes them for these machines): their
 * CIEs' FDEs are left out as malformed.
 */
#ifndef SFRAME_CONVERT_H
#define SFRAME_CONVERT_H

#include "sframe_env.h"
#include "sframe_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * ELF machines the converter writes SFrame for (e_machine values). SFrame
 * defines no other ABI.
 */
#define SFRAME_EM_X86_64	62
#define SFRAME_EM_AARCH64	183
#define SFRAME_EM_S390		22

/**
 * enum sframe_convert_error - the converter's own error codes (negated on
 * return), beside the reader's enum sframe_error.
 * @SFRAME_CONVERT_ERR_BASE: the lowest code.
 * @SFRAME_CONVERT_ERR_MACHINE: the machine has no SFrame ABI (only x86-64,
 *	AArch64 of either byte order and s390x have one).
 * @SFRAME_CONVERT_ERR_ENTRY: corrupt CFI: an entry's length runs past the
 *	end of its section, so the entries after it cannot be found.
 *	&struct sframe_convert_stats.problem_offset says where. (An FDE whose
 *	CIE pointer leads nowhere is only left out, as SFRAME_SKIP_MALFORMED.)
 * @SFRAME_CONVERT_ERR_SPACE: the output buffer is smaller than
 *	sframe_convert_size() said.
 * @SFRAME_CONVERT_ERR_TOO_BIG: the output would exceed what SFrame's 32-bit
 *	counts and offsets can hold.
 * @SFRAME_CONVERT_ERR_MAX: the highest code.
 *
 * Values are pinned. sframe_convert_strerror() names these and the
 * reader's codes alike.
 */
enum sframe_convert_error {
	SFRAME_CONVERT_ERR_BASE = 4200,
	SFRAME_CONVERT_ERR_MACHINE = 4200,
	SFRAME_CONVERT_ERR_ENTRY = 4201,
	SFRAME_CONVERT_ERR_SPACE = 4202,
	SFRAME_CONVERT_ERR_TOO_BIG = 4203,
	SFRAME_CONVERT_ERR_MAX = 4203
};

/**
 * enum sframe_convert_skip - why a DWARF FDE (or part of one) is not in the
 * output.
 * @SFRAME_SKIP_EMPTY: covers no code: a zero range, or in .debug_frame a
 *	start of 0 (what linkers leave there for discarded functions; in
 *	.eh_frame they remove such FDEs, so a start of 0 is code at 0, as in a
 *	relocatable object laid out from 0). Not a loss.
 * @SFRAME_SKIP_NOT_TEXT: outside every executable range the caller gave.
 * @SFRAME_SKIP_DUPLICATE: overlaps a function another FDE covers (the same
 *	function in .eh_frame and .debug_frame, or overlapping FDEs): SFrame
 *	cannot say two things of one address. Of two that overlap, the one
 *	first in .eh_frame, then .debug_frame order is kept.
 * @SFRAME_SKIP_MALFORMED: the FDE or its CIE cannot be decoded: an unknown
 *	instruction, an operand past the end, an unknown augmentation,
 *	restore_state without remember_state, rows going backwards.
 * @SFRAME_SKIP_RA_COLUMN: the CIE's return-address column is not the ABI's.
 * @SFRAME_SKIP_CFA_EXPR: the CFA is a DWARF expression SFrame cannot
 *	express.
 * @SFRAME_SKIP_CFA_REG: the CFA is based on a register SFrame cannot name
 *	for this ABI and version (only SP and FP, but for v3 FLEX on x86-64 and
 *	s390x).
 * @SFRAME_SKIP_RA_RULE: the return address's rule cannot be expressed (an
 *	expression, a value rule, a register or unusual slot without v3 FLEX).
 * @SFRAME_SKIP_FP_RULE: the frame pointer's rule cannot be expressed.
 * @SFRAME_SKIP_SP_RULE: the stack pointer is not the CFA (x86-64, AArch64)
 *	or the CFA - 160 (s390x), as SFrame assumes.
 * @SFRAME_SKIP_FP_WITHOUT_RA: AArch64: the frame pointer is saved on the
 *	stack while the return address is not, which SFrame's AArch64 rows
 *	cannot say.
 * @SFRAME_SKIP_PAUTH: AArch64 return-address signing SFrame cannot express
 *	(DW_CFA_AARCH64_negate_ra_state_with_pc, _set_ra_state), or
 *	negate_ra_state on another machine.
 * @SFRAME_SKIP_RANGE: an offset, a size or a row count beyond what the
 *	output format holds (32-bit offsets, 65535 rows in v3, a v2 start
 *	beyond 2 GiB of the section, an s390x CFA offset not a multiple of 8).
 * @SFRAME_SKIP_COUNT: the number of reasons.
 */
enum sframe_convert_skip {
	SFRAME_SKIP_EMPTY,
	SFRAME_SKIP_NOT_TEXT,
	SFRAME_SKIP_DUPLICATE,
	SFRAME_SKIP_MALFORMED,
	SFRAME_SKIP_RA_COLUMN,
	SFRAME_SKIP_CFA_EXPR,
	SFRAME_SKIP_CFA_REG,
	SFRAME_SKIP_RA_RULE,
	SFRAME_SKIP_FP_RULE,
	SFRAME_SKIP_SP_RULE,
	SFRAME_SKIP_FP_WITHOUT_RA,
	SFRAME_SKIP_PAUTH,
	SFRAME_SKIP_RANGE,
	SFRAME_SKIP_COUNT
};

/**
 * struct sframe_cfi_bytes - one section of call-frame information, in memory.
 * @data: its bytes; NULL (with @size 0) when the file has no such section.
 * @size: their number. For .eh_frame this may be an upper bound (the
 *	section's size is unknown when it was found through .eh_frame_hdr in a
 *	process's memory): the walk also ends at a zero-length terminator.
 * @addr: the run-time (or link-time) address of the first byte: the base of
 *	PC-relative pointers in .eh_frame. Ignored for .debug_frame, whose
 *	addresses are absolute.
 */
struct sframe_cfi_bytes {
	const void *data;
	uint64_t size;
	uint64_t addr;
};

/**
 * struct sframe_addr_range - a range of addresses [@start, @end).
 * @start: its first address.
 * @end: the first address after it.
 */
struct sframe_addr_range {
	uint64_t start;
	uint64_t end;
};

/**
 * struct sframe_convert_input - what to convert, and how.
 * @eh_frame: the .eh_frame section (or nothing).
 * @debug_frame: the .debug_frame section (or nothing); its FDEs fill in for
 *	functions .eh_frame does not describe.
 * @machine: the ELF e_machine: SFRAME_EM_X86_64, SFRAME_EM_AARCH64 or
 *	SFRAME_EM_S390.
 * @big_endian: the CFI (and so the output) is big-endian. x86-64 is always
 *	little-endian and s390x big-endian; AArch64 is either.
 * @version: the output's format version: SFRAME_VERSION_3 (0 means 3, what
 *	binutils 2.46 and later write) or SFRAME_VERSION_2 (for readers that
 *	take only v2: no FLEX FDEs, no signal bit; functions that need FLEX
 *	are left out and counted).
 * @sframe_addr: the address the output section will have (its sh_addr or
 *	run-time address): function starts are stored relative to their own
 *	position in it, as binutils stores them.
 * @text: the executable ranges (PT_LOAD segments with PF_X); FDEs outside
 *	all of them are left out. NULL (with @num_text 0) keeps every FDE.
 * @num_text: the number of @text ranges.
 * @fde_offsets: convert only the .eh_frame FDEs at these offsets into
 *	.eh_frame (sframe_eh_frame_hdr_find() gives the one for a PC), in any
 *	order: a consumer that needs a few functions (the frames of one stack)
 *	gets them without interpreting the rest. .debug_frame is then not
 *	read. An offset given twice gives the function once and counts a
 *	SFRAME_SKIP_DUPLICATE; one that is not an FDE's counts a
 *	SFRAME_SKIP_MALFORMED. NULL (with @num_fde_offsets 0): every FDE.
 * @num_fde_offsets: the number of @fde_offsets.
 */
struct sframe_convert_input {
	struct sframe_cfi_bytes eh_frame;
	struct sframe_cfi_bytes debug_frame;
	uint16_t machine;
	bool big_endian;
	uint8_t version;
	uint64_t sframe_addr;
	const struct sframe_addr_range *text;
	size_t num_text;
	const uint64_t *fde_offsets;
	size_t num_fde_offsets;
};

/**
 * struct sframe_convert_stats - what a conversion read, wrote and left out.
 * @cies: CIEs read.
 * @fdes: DWARF FDEs read.
 * @functions: SFrame FDEs written (one DWARF FDE may give two: the x86-64
 *	PLT's first entry and its PCMASK part).
 * @rows: SFrame FREs written.
 * @text_bytes: the bytes of code the written FDEs cover.
 * @flex: FLEX FDEs among @functions.
 * @pcmask: PCMASK FDEs among @functions.
 * @signal: signal-frame FDEs among @functions.
 * @outermost: FREs that mark the outermost frame (the RA undefined).
 * @skipped: DWARF FDEs left out, per enum sframe_convert_skip.
 * @skipped_bytes: the bytes of code those FDEs cover, per reason (for
 *	SFRAME_SKIP_MALFORMED, of those whose address range could be read).
 * @problem_offset: the section offset of the first malformed CIE or FDE
 *	(SFRAME_SKIP_MALFORMED), or of the entry a SFRAME_CONVERT_ERR_ENTRY
 *	error stopped at; UINT64_MAX when there was none.
 * @problem_in_debug_frame: @problem_offset is in .debug_frame, not
 *	.eh_frame.
 */
struct sframe_convert_stats {
	uint32_t cies;
	uint32_t fdes;
	uint32_t functions;
	uint32_t rows;
	uint64_t text_bytes;
	uint32_t flex;
	uint32_t pcmask;
	uint32_t signal;
	uint32_t outermost;
	uint32_t skipped[SFRAME_SKIP_COUNT];
	uint64_t skipped_bytes[SFRAME_SKIP_COUNT];
	uint64_t problem_offset;
	bool problem_in_debug_frame;
};

/**
 * sframe_convert_size() - the number of bytes sframe_convert() may write.
 * @in: the input.
 * @size: set on success: the bytes sframe_convert() needs: the section, and
 *	beyond it a working record per function (16 bytes; 24 for v2) that it
 *	keeps at the buffer's end while it sorts. Less than twice the
 *	section's length; the section itself is shorter still when functions
 *	are described twice (SFRAME_SKIP_DUPLICATE).
 * @stats: if not NULL, filled as sframe_convert() would fill it, but for
 *	duplicates, which only sorting reveals.
 *
 * Reads and interprets the whole input once, as sframe_convert() does. A
 * section with no function to write still has a header: @size is never 0
 * on success.
 *
 * Return: 0, -SFRAME_ERR_INVAL for a bad @in (a version other than 2 or 3),
 * -SFRAME_CONVERT_ERR_MACHINE, -SFRAME_CONVERT_ERR_ENTRY or
 * -SFRAME_CONVERT_ERR_TOO_BIG.
 */
int sframe_convert_size(const struct sframe_convert_input *in, size_t *size,
			struct sframe_convert_stats *stats);

/**
 * sframe_convert() - write the SFrame section for @in.
 * @in: the input, as given to sframe_convert_size().
 * @out: where to write; need not be aligned.
 * @out_size: its size: at least what sframe_convert_size() returned.
 * @len: set on success to the section's length (at most @out_size).
 * @stats: if not NULL, what was read, written and left out.
 *
 * The section is sorted (SFRAME_F_FDE_SORTED), its starts PC-relative
 * (SFRAME_F_FDE_FUNC_START_PCREL), in @in's byte order, for
 * @in->sframe_addr. Consecutive rows that say the same are merged. Uses
 * no memory but @out and a few hundred bytes of stack; the bytes of @out
 * past *@len are scratch.
 *
 * @out_size may be more than sframe_convert_size() says: the section is the
 * same. A caller that would rather not read the CFI twice can guess (twice
 * the CFI's bytes was enough on every file measured), and only on
 * -SFRAME_CONVERT_ERR_SPACE ask for the size and convert again; a buffer
 * too small is never written past.
 *
 * Return: 0, or the errors of sframe_convert_size(), or
 * -SFRAME_CONVERT_ERR_SPACE.
 */
int sframe_convert(const struct sframe_convert_input *in, void *out, size_t out_size,
		   size_t *len, struct sframe_convert_stats *stats);

/**
 * sframe_eh_frame_hdr_ptr() - where .eh_frame is, from .eh_frame_hdr.
 * @hdr: the .eh_frame_hdr bytes (PT_GNU_EH_FRAME): @hdr->addr is required.
 * @big_endian: their byte order.
 * @eh_frame_addr: set on success to the address of .eh_frame.
 *
 * A process's memory has no section headers; PT_GNU_EH_FRAME finds the
 * header, and the header the .eh_frame, whose walk then ends at its
 * terminator (see &struct sframe_cfi_bytes.size).
 *
 * Return: 0, -SFRAME_ERR_INVAL, or -SFRAME_CONVERT_ERR_ENTRY for a header
 * that is not version 1 or whose pointer encoding is not one an address can
 * be read from without more context.
 */
int sframe_eh_frame_hdr_ptr(const struct sframe_cfi_bytes *hdr, bool big_endian,
			    uint64_t *eh_frame_addr);

/**
 * sframe_eh_frame_hdr_find() - the FDE that .eh_frame_hdr's search table
 * gives for @pc: the one for the last function that starts at or below it.
 * @hdr: the .eh_frame_hdr section, @hdr->addr its address (the base of its
 *	datarel pointers).
 * @big_endian: the header's byte order.
 * @eh_frame_addr: the address of .eh_frame (sframe_eh_frame_hdr_ptr()'s
 *	answer, or the section's), which the table's FDE addresses are made
 *	relative to.
 * @pc: the address to look up, in the same address space as @hdr->addr.
 * @fde_off: set on success: the FDE's offset in .eh_frame, for
 *	&struct sframe_convert_input.fde_offsets. That FDE may end before
 *	@pc (a gap between functions): the conversion says whether it covers
 *	it.
 *
 * A binary search of the table (bounded by its halving), every read checked
 * against @hdr->size: an unsorted table gives a wrong FDE, never a read out
 * of bounds.
 *
 * Return: 0; -SFRAME_ERR_NOT_FOUND when @pc is below the table's first
 * function; -SFRAME_CONVERT_ERR_ENTRY when the header cannot be read or
 * has no table to search (no count, fields without a fixed width, a table
 * past the header's end), or the FDE's address is below @eh_frame_addr;
 * -SFRAME_ERR_INVAL.
 */
int sframe_eh_frame_hdr_find(const struct sframe_cfi_bytes *hdr, bool big_endian,
			     uint64_t eh_frame_addr, uint64_t pc, uint64_t *fde_off);

/**
 * sframe_convert_skip_name() - a short name for a reason a function was left
 * out, as the tool prints it.
 * @skip: enum sframe_convert_skip.
 *
 * Return: a static string such as "cfa-expression"; "unknown" past
 * SFRAME_SKIP_COUNT.
 */
const char *sframe_convert_skip_name(unsigned int skip);

/**
 * sframe_convert_strerror() - the message for an error of the converter or
 * the reader.
 * @err: a negative return value.
 *
 * Return: a static string.
 */
const char *sframe_convert_strerror(int err);

/**
 * sframe_convert_errname() - the name of an error of the converter or the
 * reader ("SFRAME_CONVERT_ERR_ENTRY").
 * @err: a negative return value.
 *
 * Return: a static string.
 */
const char *sframe_convert_errname(int err);

#ifdef __cplusplus
}
#endif

#endif /* SFRAME_CONVERT_H */
