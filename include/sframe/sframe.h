/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe.h - read SFrame stack-trace sections: open, iterate, look up, check.
 *
 * The library never allocates, keeps no global state and never recurses.
 * Every byte of a section is read through a caller-supplied, fallible read
 * callback, so a section may live in a file, in another process, in user
 * memory that can fault, or simply in a buffer (sframe_open_buffer()).
 *
 * Two addresses describe a section:
 *   - @base: where its bytes are read from, the callback's address space;
 *   - @vaddr: the run-time address of its first byte, the base of the PCs
 *     it describes.
 * A profiler reads a file's bytes (base = file offset) and looks up run-time
 * PCs (vaddr = section address + load bias).
 *
 * Errors are negative. The library's own codes are -SFRAME_ERR_*, all below
 * -4095 so that any errno-style value (-1 .. -4095) returned by the read
 * callback, such as -EFAULT, comes back to the caller unchanged and cannot
 * be mistaken for one of them (see sframe_is_read_error()).
 */
#ifndef SFRAME_H
#define SFRAME_H

#include "sframe_env.h"
#include "sframe_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * DOC: SFRAME_ASSUME_MASK - checks an embedder may compile out of lookups.
 *
 * Every public function is total: on any section bytes and any read
 * failure it returns 0 or a documented error, never crashes, never reads
 * outside the section it was given, and never loops unboundedly. That costs
 * a few comparisons per lookup that an embedder who validates each section
 * once may not want to pay again (as libfdt's FDT_ASSUME_MASK allows). Build
 * the core with -DSFRAME_ASSUME_MASK=<bits> to skip them in sframe_lookup()
 * (and so in the unwinder, which looks rows up through it):
 *
 *   SFRAME_ASSUME_VALID_FDES: per-FDE format checks (v3 attribute record and
 *	FRE run inside the FRE area, FRE type 0..2, FDE type DEFAULT or FLEX).
 *   SFRAME_ASSUME_VALID_FRES: per-FRE checks (data-word size code 3, more
 *	than six data words, word count and contents valid for ABI and FDE type).
 *   SFRAME_ASSUME_VALID: both.
 *
 * The promise the embedder makes: every section given to sframe_lookup()
 * (or to the unwinder's module table) was accepted by sframe_check() and its
 * bytes do not change afterwards. With that promise kept, results are
 * exactly those of the default build. If it is broken, results are
 * unspecified (a wrong row or another error code), but memory safety stays:
 * every read still goes through the one bounds-checked read helper, no
 * arithmetic can overflow, and every loop stays bounded.
 *
 * sframe_open(), sframe_check(), sframe_get_fde(), the FRE iterator and
 * sframe_fre_rules() always check in full, whatever the mask. The default
 * is 0: nothing is assumed.
 */
#define SFRAME_ASSUME_VALID_FDES	0x1u
#define SFRAME_ASSUME_VALID_FRES	0x2u
#define SFRAME_ASSUME_VALID		(SFRAME_ASSUME_VALID_FDES | SFRAME_ASSUME_VALID_FRES)

/**
 * enum sframe_error - error codes; functions return their negation.
 * @SFRAME_ERR_BASE: the lowest code (above every errno-style value).
 * @SFRAME_ERR_NOT_FOUND: not an error of the input: the section has no row
 *	for this PC.
 * @SFRAME_ERR_INVAL: bad arguments.
 * @SFRAME_ERR_BAD_MAGIC: unsupported: not an SFrame section.
 * @SFRAME_ERR_VERSION: unsupported: a format version this library does not
 *	read.
 * @SFRAME_ERR_ABI: unsupported: an ABI this library does not read (or not
 *	defined for the section's version).
 * @SFRAME_ERR_UNSUPPORTED: unsupported: well-formed, but not something this
 *	library reads.
 * @SFRAME_ERR_TRUNCATED: corrupt: shorter than its header.
 * @SFRAME_ERR_FLAGS: corrupt: flag bits not allowed for the version.
 * @SFRAME_ERR_HEADER: corrupt: offsets or counts do not fit the section.
 * @SFRAME_ERR_FDE: corrupt: an FDE is out of bounds or inconsistent.
 * @SFRAME_ERR_FDE_ORDER: corrupt: FDEs flagged sorted are not, or overlap.
 * @SFRAME_ERR_FRE_TYPE: corrupt: FRE type 3..15.
 * @SFRAME_ERR_FDE_TYPE: corrupt: v3 FDE type unknown (2..31).
 * @SFRAME_ERR_REP_SIZE: corrupt: PCMASK FDE with repetition size 0.
 * @SFRAME_ERR_FRE: corrupt: an FRE is out of bounds or misordered.
 * @SFRAME_ERR_WORD_SIZE: corrupt: data-word size code 3.
 * @SFRAME_ERR_WORDS: corrupt: data-word count or contents invalid for the
 *	ABI and FDE type.
 * @SFRAME_ERR_FRE_COUNT: corrupt: FRE counts disagree with the header.
 * @SFRAME_ERR_READ: the read callback failed without an errno-style code of
 *	its own.
 * @SFRAME_ERR_NO_REG: unwinding: a rule needs a register unknown in this
 *	frame.
 * @SFRAME_ERR_BAD_CFA: unwinding: CFA not above the previous one, or
 *	misaligned.
 * @SFRAME_ERR_BAD_RA: unwinding: return address zero or not a code address.
 * @SFRAME_ERR_DEPTH: unwinding: the depth bound was reached.
 * @SFRAME_ERR_FULL: the module table is full.
 * @SFRAME_ERR_OVERLAP: a module overlaps one already in the table.
 * @SFRAME_ERR_EMPTY: not corrupt: the section has no bytes, so no SFrame
 *	data at all.
 * @SFRAME_ERR_TRAILING: bytes after the FRE area that are neither padding
 *	nor another section (see sframe_part_size()).
 * @SFRAME_ERR_CONCAT: another SFrame section follows this one (LLVM lld;
 *	see sframe_part_size()).
 * @SFRAME_ERR_MAX: the highest code.
 *
 * Values are pinned: they are part of the ABI. The codes for corrupt
 * sections name the part that is.
 */
enum sframe_error {
	SFRAME_ERR_BASE = 4096,
	SFRAME_ERR_NOT_FOUND = 4096,
	SFRAME_ERR_INVAL = 4097,
	SFRAME_ERR_BAD_MAGIC = 4098,
	SFRAME_ERR_VERSION = 4099,
	SFRAME_ERR_ABI = 4100,
	SFRAME_ERR_UNSUPPORTED = 4101,
	SFRAME_ERR_TRUNCATED = 4102,
	SFRAME_ERR_FLAGS = 4103,
	SFRAME_ERR_HEADER = 4104,
	SFRAME_ERR_FDE = 4105,
	SFRAME_ERR_FDE_ORDER = 4106,
	SFRAME_ERR_FRE_TYPE = 4107,
	SFRAME_ERR_FDE_TYPE = 4108,
	SFRAME_ERR_REP_SIZE = 4109,
	SFRAME_ERR_FRE = 4110,
	SFRAME_ERR_WORD_SIZE = 4111,
	SFRAME_ERR_WORDS = 4112,
	SFRAME_ERR_FRE_COUNT = 4113,
	SFRAME_ERR_READ = 4114,
	SFRAME_ERR_NO_REG = 4115,
	SFRAME_ERR_BAD_CFA = 4116,
	SFRAME_ERR_BAD_RA = 4117,
	SFRAME_ERR_DEPTH = 4118,
	SFRAME_ERR_FULL = 4119,
	SFRAME_ERR_OVERLAP = 4120,
	SFRAME_ERR_EMPTY = 4121,
	SFRAME_ERR_TRAILING = 4122,
	SFRAME_ERR_CONCAT = 4123,
	SFRAME_ERR_MAX = 4123
};

/**
 * typedef sframe_read_fn - read section bytes.
 * @ctx: the caller's context, as given to sframe_open().
 * @addr: address to read from, in the callback's own address space.
 * @dst: where to store @len bytes.
 * @len: number of bytes; never 0, never more than 64.
 *
 * Return: 0 when all @len bytes were read, else a negative error that the
 * library returns to its caller unchanged. Use an errno-style value
 * (-EFAULT, -EIO, ...) or -SFRAME_ERR_READ.
 */
typedef int (*sframe_read_fn)(void *ctx, uint64_t addr, void *dst, size_t len);

/* Largest single read the library asks of a callback. */
#define SFRAME_MAX_READ 64

struct sframe_index;

/**
 * struct sframe_section - an opened section.
 * @read: the read callback given to sframe_open().
 * @read_ctx: its context.
 * @base: the callback address byte 0 is read from.
 * @vaddr: the run-time address of byte 0.
 * @size: the section's size in bytes.
 * @fde_start: section offset of the FDE area.
 * @fre_start: section offset of the FRE area.
 * @num_fdes: the header's FDE count.
 * @num_fres: the header's FRE count.
 * @fre_len: the header's FRE area length in bytes.
 * @version: SFRAME_VERSION_*.
 * @flags: the header's SFRAME_F_* flags.
 * @abi: SFRAME_ABI_*.
 * @fixed_fp: the header's fixed FP offset from the CFA; 0: not fixed.
 * @fixed_ra: the header's fixed RA offset from the CFA; 0: not fixed.
 * @auxhdr_len: length of the auxiliary header after the fixed one.
 * @fde_size: bytes per FDE index entry: 17, 20 or 16 (v1, v2, v3).
 * @big_endian: the section is in big-endian byte order.
 * @data: the section's bytes when they are in memory (opened over a struct
 *	sframe_buffer): reads then become bounds-checked loads, without a
 *	callback or a copy. NULL for sections behind any other callback.
 * @index: the lookup index sframe_index_build() attached, or NULL (what
 *	sframe_open() sets). Set it back to NULL to stop using one.
 *
 * Caller-owned; treat as opaque but for the header fields, which
 * sframe_open() decodes and never changes.
 */
struct sframe_section {
	sframe_read_fn read;
	void *read_ctx;
	uint64_t base;
	uint64_t vaddr;
	uint64_t size;
	uint64_t fde_start;
	uint64_t fre_start;
	uint32_t num_fdes;
	uint32_t num_fres;
	uint32_t fre_len;
	uint8_t version;
	uint8_t flags;
	uint8_t abi;
	int8_t fixed_fp;
	int8_t fixed_ra;
	uint8_t auxhdr_len;
	uint8_t fde_size;
	bool big_endian;
	const uint8_t *data;
	const struct sframe_index *index;
};

/**
 * struct sframe_fde - one function descriptor, every field decoded.
 * @index: position in the FDE area.
 * @func_start: run-time start address: vaddr + @func_offset.
 * @func_offset: start relative to the section's first byte.
 * @func_size: the function's size in bytes.
 * @start_field: the stored start value, sign-extended.
 * @start_field_off: section offset of the stored start value.
 * @fres_off: section offset of the first FRE.
 * @num_fres: the function's FRE count.
 * @info: raw func_info.
 * @info2: raw v3 func_info2 (0 before v3).
 * @rep_size: PCMASK block size (v2, v3; v1 see sframe_lookup()).
 * @fre_type: SFRAME_FRE_TYPE_*.
 * @pc_type: SFRAME_PC_TYPE_INC or _MASK.
 * @fde_type: SFRAME_FDE_TYPE_DEFAULT or _FLEX.
 * @pauth_key: SFRAME_PAUTH_KEY_A or _B (aarch64).
 * @signal: the v3 signal-frame bit.
 * @rowless: what the function is when it has no rows (SFRAME_ROWLESS_*):
 *	in v3, a function without FREs is the outermost frame, or a signal
 *	trampoline (@signal) whose caller the kernel's signal frame gives;
 *	SFRAME_ROWLESS_NONE when it has rows, and for every v1/v2 function
 *	(their functions without rows say nothing).
 */
struct sframe_fde {
	uint32_t index;
	uint64_t func_start;
	int64_t func_offset;
	uint32_t func_size;
	int64_t start_field;
	uint64_t start_field_off;
	uint64_t fres_off;
	uint32_t num_fres;
	uint8_t info;
	uint8_t info2;
	uint8_t rep_size;
	uint8_t fre_type;
	uint8_t pc_type;
	uint8_t fde_type;
	uint8_t pauth_key;
	bool signal;
	uint8_t rowless;
};

/* struct sframe_fde's @rowless. */
#define SFRAME_ROWLESS_NONE	0	/* has rows, or v1/v2 */
#define SFRAME_ROWLESS_OUTERMOST 1	/* v3, no rows: the outermost frame */
#define SFRAME_ROWLESS_SIGNAL	2	/* v3, no rows, signal bit: a signal trampoline */

/**
 * struct sframe_fre - one frame row entry, raw words decoded.
 * @start: offset from the function's (PCMASK: the block's) start.
 * @info: raw fre_info.
 * @num_words: the number of data words, 0..SFRAME_MAX_WORDS.
 * @word_bytes: the size of each, 1, 2 or 4.
 * @size: encoded size in bytes.
 * @mangled_ra: aarch64: the RA carries a PAuth signature.
 * @words: the data words, sign-extended from @word_bytes; 0 past
 *	@num_words. sframe_fre_uword() gives one zero-extended (FLEX control
 *	words are unsigned).
 */
struct sframe_fre {
	uint32_t start;
	uint8_t info;
	uint8_t num_words;
	uint8_t word_bytes;
	uint8_t size;
	bool mangled_ra;
	int32_t words[SFRAME_MAX_WORDS];
};

/**
 * sframe_fre_uword() - one data word of a row, zero-extended.
 * @fre: a decoded row.
 * @i: 0 .. SFRAME_MAX_WORDS - 1.
 *
 * Return: the word as stored, in @fre->word_bytes bytes, as an unsigned
 * value (how a FLEX control word is read); 0 past @fre->num_words.
 */
static inline uint32_t sframe_fre_uword(const struct sframe_fre *fre, unsigned int i)
{
	uint32_t w = (uint32_t)fre->words[i];

	if (fre->word_bytes >= 4)
		return w;
	return w & ((1u << (8 * fre->word_bytes)) - 1);
}

/**
 * enum sframe_loc_kind - where a register's value in the caller comes from.
 * @SFRAME_LOC_UNDEFINED: no value: the RA is undefined, outermost frame.
 * @SFRAME_LOC_SAME: not saved by this frame: the value is unchanged (for
 *	the RA on aarch64/s390x: still in the link register, topmost frame).
 * @SFRAME_LOC_CFA: based on the CFA: value = CFA + offset, or
 *	*(CFA + offset) when deref is set (a stack slot, the usual case).
 * @SFRAME_LOC_REG: based on DWARF register @reg: value = reg + offset, or
 *	*(reg + offset) when deref is set; "in a register" is offset 0, no deref.
 */
enum sframe_loc_kind {
	SFRAME_LOC_UNDEFINED = 0,
	SFRAME_LOC_SAME = 1,
	SFRAME_LOC_CFA = 2,
	SFRAME_LOC_REG = 3,
};

/**
 * struct sframe_loc - the rule recovering one register of the caller.
 * @kind: enum sframe_loc_kind.
 * @deref: the value is loaded from the computed address.
 * @reg: DWARF register, SFRAME_LOC_REG only: any number a row can name (a v3
 *	FLEX control word carries it in its bits 3 and up, 29 bits with 4-byte
 *	data words).
 * @offset: added to the CFA or to @reg.
 */
struct sframe_loc {
	uint8_t kind;
	bool deref;
	uint32_t reg;
	int32_t offset;
};

/**
 * struct sframe_cfa - the rule computing the CFA: (*)(reg + offset).
 * @reg: DWARF register number (SP or FP for default FDEs).
 * @deref: CFA = *(@reg + @offset).
 * @offset: s390x bias and scale already applied.
 */
struct sframe_cfa {
	uint32_t reg;
	bool deref;
	int32_t offset;
};

/**
 * struct sframe_rules - a row fully decoded: how to compute the caller's
 * frame.
 * @cfa: the CFA rule.
 * @ra: the return address rule.
 * @fp: the caller's frame pointer rule.
 * @ra_undefined: the row marks the outermost frame; nothing else is
 *	meaningful.
 * @ra_mangled: aarch64: the return address is PAuth-signed.
 * @signal: the row's function is a signal trampoline (v3 FDE flag; the
 *	same in every row of the function).
 */
struct sframe_rules {
	struct sframe_cfa cfa;
	struct sframe_loc ra;
	struct sframe_loc fp;
	bool ra_undefined;
	bool ra_mangled;
	bool signal;
};

/**
 * struct sframe_row - answer of sframe_lookup(): the function and its row.
 * @fde: the function.
 * @fre: the row.
 * @rules: the row decoded.
 * @span_start: the first of the PCs around the one looked up that the
 *	function gives this row: the row's start (past the start of every
 *	row before it, should they be out of order).
 * @span_end: one past the last of them: the next row's start, else the
 *	function's end (PCMASK: the block's end, within the function's);
 *	UINT64_MAX at most (the PC UINT64_MAX is in no span). A caller may keep the row for every PC in the
 *	span without looking it up again, unless another function starts
 *	inside it: only this function's rows decide, and functions may nest
 *	(in unsorted sections, as relocatable objects have; a sorted one
 *	whose functions overlap fails sframe_check() but still answers
 *	lookups). In a sorted section, the next FDE's start
 *	(sframe_get_fde()) bounds the span.
 */
struct sframe_row {
	struct sframe_fde fde;
	struct sframe_fre fre;
	struct sframe_rules rules;
	uint64_t span_start;
	uint64_t span_end;
};

/**
 * struct sframe_fre_iter - cursor over one function's FREs.
 * @off: section offset of the next FRE.
 * @end: section offset of the end of the FRE area.
 * @next: index of the next FRE.
 * @count: the number of FREs in the function.
 * @fre_type: the function's SFRAME_FRE_TYPE_*.
 */
struct sframe_fre_iter {
	uint64_t off;
	uint64_t end;
	uint32_t next;
	uint32_t count;
	uint8_t fre_type;
};

/**
 * struct sframe_problem - where sframe_check() found a problem.
 * @fde: FDE index, or UINT32_MAX when the problem is in the header.
 * @fre: FRE index inside that FDE, or UINT32_MAX when it is the FDE itself.
 */
struct sframe_problem {
	uint32_t fde;
	uint32_t fre;
};

#define SFRAME_NO_INDEX 0xffffffffu

/**
 * struct sframe_buffer - a section that is already in memory.
 * @data: its bytes, read at callback addresses 0 .. @size - 1.
 * @size: length of @data.
 */
struct sframe_buffer {
	const void *data;
	uint64_t size;
};

/**
 * sframe_open() - check a section's header and prepare it for reading.
 * @sec: filled on success.
 * @read: read callback for the section bytes.
 * @read_ctx: passed to @read.
 * @base: callback address of the section's first byte.
 * @size: section size in bytes.
 * @vaddr: run-time address of the section's first byte.
 *
 * Reads the 28-byte header only and checks it in constant time: magic (either
 * byte order), version, flags allowed for that version, ABI, and that the
 * FDE and FRE areas lie inside @size without overflow.
 *
 * Bytes after the FRE area are not looked at here (sframe_check() and
 * sframe_part_size() do): a section opened over a run of several, as LLVM
 * lld links them, describes the first of them only.
 *
 * Return: 0; -SFRAME_ERR_INVAL (NULL @sec or @read, @base + @size wraps);
 * -SFRAME_ERR_EMPTY (@size 0: no SFrame data, not damage; GNU ld leaves an
 * empty .sframe when it keeps none of its inputs' sections);
 * -SFRAME_ERR_TRUNCATED, -SFRAME_ERR_BAD_MAGIC, -SFRAME_ERR_VERSION,
 * -SFRAME_ERR_FLAGS, -SFRAME_ERR_ABI, -SFRAME_ERR_HEADER; or the callback's
 * error.
 */
int sframe_open(struct sframe_section *sec, sframe_read_fn read, void *read_ctx,
		uint64_t base, uint64_t size, uint64_t vaddr);

/**
 * sframe_open_buffer() - sframe_open() for a section in memory.
 * @sec: filled on success.
 * @buf: caller-owned; must live as long as @sec. Filled here.
 * @data: the section bytes.
 * @size: their number.
 * @vaddr: run-time address of the first byte.
 *
 * The section is read directly from @data, every access bounds-checked
 * against @size: neither a callback nor SFRAME_READ_HOOK() sees it. Its
 * read and read_ctx members are a callback over @buf, for whoever holds the
 * struct.
 *
 * Return: as sframe_open(); -SFRAME_ERR_INVAL also for a NULL @buf, or a
 * NULL @data with a nonzero @size.
 */
int sframe_open_buffer(struct sframe_section *sec, struct sframe_buffer *buf,
		       const void *data, uint64_t size, uint64_t vaddr);

/**
 * sframe_get_fde() - decode one FDE (v3: with its attribute record).
 * @sec: an opened section.
 * @index: 0 .. num_fdes - 1.
 * @fde: filled on success.
 *
 * Checks what one FDE can say about itself: fields in bounds, FRE type
 * 0..2, v3 FDE type DEFAULT or FLEX (on any ABI: the format does not tie
 * FDE types to ABIs), the function's offset range within 64 bits.
 * func_start is vaddr + func_offset modulo 2^64 (a section opened at a
 * wrong vaddr may show functions "below" address 0); lookups never wrap.
 *
 * Return: 0; -SFRAME_ERR_INVAL (@index out of range); -SFRAME_ERR_FDE,
 * -SFRAME_ERR_FRE_TYPE, -SFRAME_ERR_FDE_TYPE; or the callback's error.
 */
int sframe_get_fde(const struct sframe_section *sec, uint32_t index, struct sframe_fde *fde);

/**
 * sframe_fre_iter_init() - start iterating the FREs of @fde.
 * @sec: an opened section.
 * @fde: from sframe_get_fde().
 * @it: cursor to set up.
 *
 * Return: 0 or -SFRAME_ERR_INVAL.
 */
int sframe_fre_iter_init(const struct sframe_section *sec, const struct sframe_fde *fde,
			 struct sframe_fre_iter *it);

/**
 * sframe_fre_iter_next() - decode the next FRE.
 * @sec: an opened section.
 * @it: cursor from sframe_fre_iter_init().
 * @fre: filled when 1 is returned.
 *
 * Return: 1 when @fre holds the next FRE, 0 after the last one;
 * -SFRAME_ERR_FRE (runs past the FRE area), -SFRAME_ERR_WORD_SIZE,
 * -SFRAME_ERR_WORDS (more than SFRAME_MAX_WORDS); or the callback's error.
 */
int sframe_fre_iter_next(const struct sframe_section *sec, struct sframe_fre_iter *it,
			 struct sframe_fre *fre);

/**
 * sframe_fre_rules() - decode a row into CFA, RA and FP rules.
 * @sec: the section (ABI, version, fixed offsets).
 * @fde: the row's function.
 * @fre: the row.
 * @rules: filled on success.
 *
 * Applies the ABI's rules: which word is RA or FP, the fixed header offsets,
 * s390x CFA bias/scale and v2 register-number encoding, v3 FLEX pairs.
 *
 * Return: 0; -SFRAME_ERR_WORDS when the word count or contents are not
 * valid for the ABI and FDE type; -SFRAME_ERR_INVAL (NULL argument, or @fre
 * with more than SFRAME_MAX_WORDS words).
 */
int sframe_fre_rules(const struct sframe_section *sec, const struct sframe_fde *fde,
		     const struct sframe_fre *fre, struct sframe_rules *rules);

/**
 * sframe_lookup() - find the row that describes @pc.
 * @sec: an opened section.
 * @pc: run-time address.
 * @row: filled on success: function, row and rules.
 *
 * The function is the one with the greatest start <= @pc, and @pc must be
 * below its end (binary search when the section is flagged sorted, a linear
 * scan otherwise). The row is the last FRE whose start offset is <= the PC's
 * offset into the function; for PCMASK functions the offset is taken modulo
 * the repetition size. v1 sections have no repetition size: on amd64 (the
 * only ABI whose v1 linker output has PCMASK FDEs, for 16-byte PLT entries)
 * a v1 PCMASK FDE repeats every 16 bytes; on other ABIs it is unsupported.
 * With a lookup index attached (@sec->index, sframe_index_build()), either
 * search runs over the few FDEs the index gives for @pc, with the same
 * result and row.
 *
 * Damage fails only the lookups that reach it: an FDE that cannot be
 * decoded fails the PCs inside its function (by the start and size of its
 * index entry; a PC past its end is not found), a damaged row the PCs whose
 * row it is or whose scan passes it (the scan stops at the first row
 * starting past the PC). Other functions are found as in an intact section,
 * as long as the search itself can proceed (unsorted starts in a section
 * flagged sorted mislead the binary search; sframe_check() finds those).
 *
 * On -SFRAME_ERR_NOT_FOUND, @row->fde.index is SFRAME_NO_INDEX when no
 * function covers @pc; otherwise @row->fde is the function, which has no row
 * for @pc (zero FREs: in v3 an outermost or signal frame; or @pc lies before
 * its first FRE).
 *
 * Return: 0; -SFRAME_ERR_NOT_FOUND when no function or no row covers @pc
 * (gaps, before the first function, at a function's end, zero-FRE FDEs, PC
 * before the first FRE); -SFRAME_ERR_REP_SIZE; -SFRAME_ERR_UNSUPPORTED;
 * any error of sframe_get_fde(), sframe_fre_iter_next() or
 * sframe_fre_rules(); or the callback's error.
 */
int sframe_lookup(const struct sframe_section *sec, uint64_t pc, struct sframe_row *row);

/**
 * DOC: lookup index - an optional table that shortens sframe_lookup().
 *
 * sframe_lookup() binary-searches the FDE index entries: ceil(log2(FDEs))
 * dependent probes. A lookup index divides the text the section describes
 * into blocks of 2^bits bytes and keeps, for each block, the index of the
 * FDE whose function covers or precedes the block's first byte (as the
 * kernel's ORC unwinder does for its tables); a lookup then searches only
 * the FDEs that start inside the PC's block, one or two for the default
 * block size.
 *
 * The index is host data (no byte order of its own), 4 bytes per block plus
 * a small header, in memory the caller owns: sframe_index_size() says how
 * much, sframe_index_build() fills it and attaches it to the section
 * (@sec->index), after which every sframe_lookup() of that section uses it,
 * and so does the unwinder's module table, which looks rows up through
 * sframe_lookup(): an attached pointer rather than a lookup entry point of
 * its own, so that no caller of sframe_lookup() changes. With or without
 * it, a lookup gives the same return code and the same row for every PC.
 * (An unwinder that wants the rows themselves memoized builds a row table,
 * sframe_rows_build() in sframe_unwind.h.)
 *
 * The index describes the section's bytes when it was built: sframe_open()
 * clears @sec->index, and a caller that reopens the section over other
 * bytes builds the index again. The memory must stay in place, unchanged,
 * as long as the section uses it.
 */

/**
 * struct sframe_index - the header of a lookup index; its entries follow.
 * @start: the first function's start, relative to the section's first byte.
 * @num_fdes: the section's FDE count when the index was built.
 * @blocks: the number of blocks; @blocks + 1 u32 entries follow the header.
 * @bits: log2 of the block size in bytes.
 *
 * Filled by sframe_index_build() only.
 */
struct sframe_index {
	int64_t start;
	uint32_t num_fdes;
	uint32_t blocks;
	uint32_t bits;
};

/* sframe_index_size()'s and sframe_index_build()'s @bits: choose the size. */
#define SFRAME_INDEX_AUTO	0u

/* The largest block size, in bits, the index takes. */
#define SFRAME_INDEX_MAX_BITS	62u

/**
 * sframe_index_size() - how many bytes a section's lookup index needs.
 * @sec: an opened section with at least one FDE: linker output (flagged
 *	sorted), or assembler output whose FDEs happen to be in address order
 *	(as in each part of an LLVM lld section, where the index also saves
 *	the linear scan).
 * @bits: log2 of the block size, 1 .. SFRAME_INDEX_MAX_BITS; or
 *	SFRAME_INDEX_AUTO: the smallest size, at least 16 bytes, that makes
 *	at most one block per function (4 bytes of index or fewer per FDE).
 * @size: set on success: the bytes sframe_index_build() needs for @bits.
 *
 * Reads the first and the last FDE's start (the text they span sets the
 * number of blocks). Allocates nothing.
 *
 * Return: 0; -SFRAME_ERR_INVAL (NULL argument, @bits above
 * SFRAME_INDEX_MAX_BITS, or more than 2^28 blocks: choose a larger block);
 * -SFRAME_ERR_UNSUPPORTED when the section has no FDE, or is not flagged
 * sorted and its last function starts before its first (nothing to index:
 * a linear scan looks its PCs up); -SFRAME_ERR_FDE_ORDER for that in a
 * section flagged sorted; or the callback's error.
 */
int sframe_index_size(const struct sframe_section *sec, unsigned int bits, size_t *size);

/**
 * sframe_index_build() - build a section's lookup index and attach it.
 * @sec: an opened section that sframe_check() accepted.
 * @bits: as for sframe_index_size().
 * @mem: caller-owned memory, aligned for a uint64_t, that holds the index
 *	from now on.
 * @size: the bytes at @mem: at least what sframe_index_size() said.
 *
 * Reads the start of every FDE once, in order, and refuses a section whose
 * starts decrease; the rest of sframe_check()'s findings it
 * does not see: an index built for a section that sframe_check() did not
 * accept may make lookups of it give other answers (never read outside the
 * section or the index). On success, sets @sec->index to @mem; on failure
 * leaves @sec->index as it was.
 *
 * Return: 0; any error of sframe_index_size(); -SFRAME_ERR_INVAL also for a
 * NULL or misaligned @mem or @size too small; -SFRAME_ERR_FDE_ORDER when
 * the starts decrease in a section flagged sorted, -SFRAME_ERR_UNSUPPORTED
 * in one that is not; or the callback's error.
 */
int sframe_index_build(struct sframe_section *sec, unsigned int bits, void *mem, size_t size);

/**
 * sframe_check() - validate the whole section.
 * @sec: an opened section.
 * @where: optional; on failure says which FDE/FRE the problem is in.
 *
 * Walks every FDE and FRE once: everything in bounds; FRE types and FDE
 * types known; data-word counts and contents valid for the ABI and FDE
 * type; PCMASK repetition size non-zero; FRE start offsets strictly
 * increasing and not beyond the function's size (or the repeated block's; a
 * row starting exactly at the end covers nothing, but gas emits such rows
 * for CFI after a function's last instruction, so it is accepted); FDEs
 * flagged sorted really sorted and not overlapping; v3 attribute records
 * inside the FRE area; the FRE total equal to the header's count; and
 * nothing but zero padding after the FRE area, up to @sec->size (see
 * sframe_part_size()). Problems after the FRE area are the header's
 * (@where->fde is SFRAME_NO_INDEX).
 *
 * Return: 0 when valid; the first problem's error code otherwise:
 * -SFRAME_ERR_CONCAT when another SFrame section follows (open and check
 * each part on its own, see sframe_part_size()), -SFRAME_ERR_TRAILING when
 * other bytes do.
 */
int sframe_check(const struct sframe_section *sec, struct sframe_problem *where);

/**
 * sframe_part_size() - the extent of one SFrame section in a run of them.
 * @sec: opened at the first byte of an SFrame section, with @sec->size
 *	reaching to the end of the whole range (an ELF .sframe section).
 * @part_size: set on success: the bytes from @sec's first byte to the
 *	start of the next SFrame section in the range, or @sec->size when no
 *	other follows.
 *
 * GNU ld merges the .sframe sections of its inputs into one; LLVM lld
 * (up to 23 at least) concatenates them instead: the output is a run of
 * complete SFrame sections, one per input object, each at a multiple of 8
 * bytes from the first, and the first header describes the first object's
 * functions only. Each part is a valid section where it lies: its function
 * starts are PC-relative (the PCREL flag), relative to its own fields.
 *
 * A part's own bytes end with its FRE area. Zero bytes after it are
 * padding, any number of them (the alignment; gas pads some sections
 * itself). The first non-zero byte after it must be at a multiple of 8 from
 * @sec's first byte and start the SFrame magic (either byte order): the next
 * part, not opened nor checked here. Reads the bytes after the FRE area
 * SFRAME_MAX_READ at a time, up to the read that holds that byte (and a
 * 2-byte read of the magic when that byte ends a read); none for a section
 * that ends with its FRE area, as GNU ld writes them.
 *
 * To use every part of a range (@size bytes at @base, run-time address
 * @vaddr), open each one over its own extent, which sframe_check() then
 * validates on its own:
 *
 *	for (off = 0; off < size; off += len) {
 *		err = sframe_open(&sec, read, ctx, base + off, size - off, vaddr + off);
 *		if (!err)
 *			err = sframe_part_size(&sec, &len);
 *		if (!err)
 *			err = sframe_open(&part[n++], read, ctx, base + off, len, vaddr + off);
 *		if (err)
 *			break;
 *	}
 *
 * Every part has at least a header, so the loop ends after at most
 * @size / 28 parts.
 *
 * Return: 0; -SFRAME_ERR_TRAILING when a non-zero byte after the FRE area is
 * not the start of a part (misaligned, no magic, or the range's last byte);
 * -SFRAME_ERR_INVAL (NULL argument); or the callback's error.
 */
int sframe_part_size(const struct sframe_section *sec, uint64_t *part_size);

/**
 * sframe_strerror() - message for an error code.
 * @err: a value returned by this library (negative), or 0.
 *
 * Return: a static string; for errors that came from the read callback,
 * "memory read failed".
 */
const char *sframe_strerror(int err);

/**
 * sframe_errname() - the name of an error code ("SFRAME_ERR_FDE", ...).
 * @err: as for sframe_strerror().
 *
 * Return: a static string; "SFRAME_OK" for 0, "READ_CALLBACK" for callback
 * errors.
 */
const char *sframe_errname(int err);

/**
 * sframe_is_read_error() - did @err come from the read callback?
 * @err: a value returned by this library.
 *
 * Return: true for -SFRAME_ERR_READ and for any negative value that is not
 * one of the library's codes.
 */
static inline bool sframe_is_read_error(int err)
{
	return err == -SFRAME_ERR_READ ||
	       (err < 0 && (err > -SFRAME_ERR_BASE || err < -SFRAME_ERR_MAX));
}

/**
 * sframe_abi_sp_reg() - DWARF number of the ABI's stack pointer.
 * @abi: SFRAME_ABI_*.
 *
 * Return: the register number, or -1 for an unknown ABI.
 */
int sframe_abi_sp_reg(uint8_t abi);

/**
 * sframe_abi_fp_reg() - DWARF number of the ABI's frame pointer.
 * @abi: SFRAME_ABI_*.
 *
 * Return: the register number, or -1 for an unknown ABI.
 */
int sframe_abi_fp_reg(uint8_t abi);

/**
 * sframe_abi_ra_reg() - DWARF number of the ABI's return-address register.
 * @abi: SFRAME_ABI_*.
 *
 * Return: the register number, or -1 for an unknown ABI.
 */
int sframe_abi_ra_reg(uint8_t abi);

#ifdef __cplusplus
}
#endif

#endif /* SFRAME_H */
