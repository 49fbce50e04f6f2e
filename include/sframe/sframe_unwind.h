/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_unwind.h - walk a stack with SFrame sections.
 *
 * The caller owns everything: the module table (text ranges, each with its
 * opened section), the cursor, the frame array. Stack memory is read through
 * a fallible callback like section bytes are, so the same code serves
 *   - the kernel: copy_from_user() on a user stack;
 *   - a profiler: a copy of the stack taken with a sample;
 *   - a debugger: ptrace() or process_vm_readv() on a stopped thread.
 *
 * One step turns the registers of frame N into those of frame N+1 (its
 * caller) using the row that describes frame N's PC:
 *   amd64:   CFA = SP|FP + offset (or a FLEX rule); RA at CFA-8 unless a FLEX
 *            rule says otherwise; FP from its slot when saved, else unchanged;
 *            caller SP = CFA.
 *   aarch64: RA and FP from their slots when saved; when not saved (leaf,
 *            prologue) the RA is still in x30, which is known only in the
 *            topmost frame; a PAuth-signed RA is stripped; caller SP = CFA.
 *            FLEX rules (gas writes none for aarch64, the format allows
 *            them) are followed as on amd64.
 *   s390x:   CFA offsets are stored biased and scaled (decoded by the
 *            section reader); caller SP = CFA - 160; RA/FP kept in registers
 *            (v2 register numbers, v3 FLEX rules) only in the topmost frame.
 * Rows with an undefined RA, and v3 FDEs without rows (outermost frames),
 * end the walk cleanly. Each step checks what the kernel's unwinders check:
 * the CFA above the previous one and aligned, a non-zero return address, a
 * depth bound; a failed memory read for the CFA or the RA ends the walk with
 * that read's error. A saved-FP rule that cannot be evaluated (a stale rule
 * on an epilogue row whose base register was already restored) leaves the
 * caller's FP unknown (SFRAME_FRAME_FP_LOST) rather than ending the walk; a
 * later rule needing that FP fails with -SFRAME_ERR_NO_REG. In a frame whose
 * PC and SP are exact (the topmost, or one a signal interrupted), an FP slot
 * CFA + k below SP has been popped already (a sample after x86_64's "leave"):
 * the FP register then holds the caller's FP and is kept, not read back.
 */
#ifndef SFRAME_UNWIND_H
#define SFRAME_UNWIND_H

#include "sframe.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bits of struct sframe_regs.valid. */
#define SFRAME_REG_PC	0x1u
#define SFRAME_REG_SP	0x2u
#define SFRAME_REG_FP	0x4u	/* amd64 rbp, aarch64 x29, s390x r11 */
#define SFRAME_REG_RA	0x8u	/* link register: aarch64 x30, s390x r14; unused on amd64 */

/**
 * struct sframe_regs - the registers the walk needs, of one frame.
 * @pc: program counter.
 * @sp: stack pointer.
 * @fp: frame pointer.
 * @ra: link register (aarch64 x30, s390x r14).
 * @valid: SFRAME_REG_* bits of the fields that hold known values. PC and
 *	SP are required for the topmost frame.
 */
struct sframe_regs {
	uint64_t pc;
	uint64_t sp;
	uint64_t fp;
	uint64_t ra;
	uint32_t valid;
};

/**
 * typedef sframe_get_reg_fn - read any DWARF register of the topmost frame.
 * @ctx: the caller's context.
 * @dwarf_reg: DWARF register number (FLEX rules and s390x register-saved
 *	RA/FP may name registers other than PC, SP, FP and RA; a FLEX rule
 *	can name any number up to 2^29 - 1: refuse the ones the ABI lacks).
 * @value: where to store the register's value.
 *
 * Return: 0, or a negative error (returned unchanged by the step).
 */
typedef int (*sframe_get_reg_fn)(void *ctx, unsigned int dwarf_reg, uint64_t *value);

/**
 * typedef sframe_strip_ra_fn - remove a PAuth signature from a return address.
 * @ctx: the caller's context.
 * @ra: the signed return address as found on the stack or in x30.
 *
 * Return: the address without its signature (an embedder may use XPACI, or
 * its knowledge of the address-space layout).
 */
typedef uint64_t (*sframe_strip_ra_fn)(void *ctx, uint64_t ra);

/* A row table (sframe_rows_build()): opaque, its layout the unwinder's own. */
struct sframe_rows;

/**
 * struct sframe_module - one text range and the section describing it.
 * @start: first address of the range.
 * @end: first address after it.
 * @sec: its opened section, with vaddr = the section's run-time address;
 *	NULL for code without SFrame (then only the frame-pointer fallback
 *	can go through it).
 * @rows: the row table of @sec (sframe_rows_build()), or NULL: set with
 *	sframe_modules_set_rows(); sframe_modules_add() leaves it NULL.
 * @user: the caller's own data (a name, a file, ...).
 */
struct sframe_module {
	uint64_t start;
	uint64_t end;
	const struct sframe_section *sec;
	const struct sframe_rows *rows;
	void *user;
};

/**
 * struct sframe_module_table - caller-owned, sorted table of modules.
 * @slots: the caller's array, sorted by start address.
 * @count: the number of modules in it.
 * @capacity: its length.
 *
 * Set up with sframe_modules_init() over an array the caller provides.
 */
struct sframe_module_table {
	struct sframe_module *slots;
	uint32_t count;
	uint32_t capacity;
};

/**
 * sframe_modules_init() - set up an empty table over @slots.
 * @t: the table.
 * @slots: caller-owned array of @capacity entries.
 * @capacity: its length.
 */
void sframe_modules_init(struct sframe_module_table *t, struct sframe_module *slots,
			 uint32_t capacity);

/**
 * sframe_modules_add() - add a text range, keeping the table sorted.
 * @t: the table.
 * @start: first address.
 * @end: first address after the range; must be above @start.
 * @sec: its section, or NULL.
 * @user: stored as is.
 *
 * Return: 0; -SFRAME_ERR_INVAL (empty range); -SFRAME_ERR_OVERLAP;
 * -SFRAME_ERR_FULL.
 */
int sframe_modules_add(struct sframe_module_table *t, uint64_t start, uint64_t end,
		       const struct sframe_section *sec, void *user);

/**
 * sframe_modules_remove() - remove the module that starts at @start.
 * @t: the table.
 * @start: the module's first address.
 *
 * Return: 0 or -SFRAME_ERR_NOT_FOUND.
 */
int sframe_modules_remove(struct sframe_module_table *t, uint64_t start);

/**
 * DOC: row table - the unwinder's memo of a section's rows.
 *
 * A walk looks up a row for every frame: a binary search of the FDEs (or
 * of the few the section's lookup index gives), then a scan of the
 * function's rows, decoding each. A row table answers the same question
 * from memory the caller owns: the text the section describes cut into
 * spans of one answer each (a row's rule, a gap, or "ask the section"),
 * each span its start (4 bytes) and its rule packed in 8 (the form the
 * unwinder's cache keeps too), plus 4 bytes per block of the span index
 * (by default one block per two spans, blocks of 4 to 16 bytes). About 12
 * to 16 bytes per row: the figure of the kernel's ORC tables (10 bytes a
 * row), and more than the section itself.
 *
 * A walk gives the same frames with or without it: what the table cannot
 * hold (PCMASK functions, functions without rows, rules that name
 * registers other than SP and FP or offsets beyond 16 bits) it leaves to
 * the section. A table describes the section's bytes when it was built:
 * one built for other bytes (a section reopened over a different count of
 * FDEs, or of another ABI) is not used. The memory must stay in place,
 * unchanged, as long as a module uses it.
 */

/* sframe_rows_size()'s and sframe_rows_build()'s @bits: choose the block size. */
#define SFRAME_ROWS_AUTO	0u

/* The largest block size, in bits, a row table takes. */
#define SFRAME_ROWS_MAX_BITS	62u

/**
 * sframe_rows_size() - how many bytes a section's row table needs.
 * @sec: an opened section with at least one FDE, whose starts never
 *	decrease (linker output; or assembler output whose FDEs happen to be
 *	in address order).
 * @bits: log2 of the block size, up to SFRAME_ROWS_MAX_BITS (below 2:
 *	2); or SFRAME_ROWS_AUTO: the smallest size of at least 4 bytes that
 *	makes at most one block per two spans, but at most 16 bytes.
 * @size: set on success: the bytes sframe_rows_build() needs for @bits.
 *
 * Reads every FDE and FRE (the spans are counted). Allocates nothing.
 *
 * Return: 0; -SFRAME_ERR_INVAL (NULL argument, @bits above
 * SFRAME_ROWS_MAX_BITS, or more than 2^28 blocks: choose a larger block);
 * -SFRAME_ERR_UNSUPPORTED when the section has no FDE or an ABI the
 * unwinder does not know, when its functions span 4 GB or more, or when
 * its starts decrease and it is not flagged sorted; -SFRAME_ERR_FDE_ORDER
 * for that in a section flagged sorted; -SFRAME_ERR_FRE for rows out of
 * order; any error of sframe_get_fde() or sframe_fre_iter_next(); or the
 * callback's error.
 */
int sframe_rows_size(const struct sframe_section *sec, unsigned int bits, size_t *size);

/**
 * sframe_rows_build() - build a section's row table.
 * @sec: an opened section that sframe_check() accepted.
 * @bits: as for sframe_rows_size().
 * @mem: caller-owned memory, aligned for a uint64_t, that holds the table
 *	from now on.
 * @size: the bytes at @mem: at least what sframe_rows_size() said.
 * @rows: set on success: the table (at @mem), for sframe_modules_set_rows().
 *
 * Reads every FDE and FRE twice (the spans are counted, then stored). A
 * table built for a section that sframe_check() did not accept may make
 * walks through it give other frames (never read outside the section or
 * the table).
 *
 * Return: 0; any error of sframe_rows_size(); -SFRAME_ERR_INVAL also for a
 * NULL @rows, a NULL or misaligned @mem, @size too small, or a section
 * whose spans differ from those counted (its bytes changed).
 */
int sframe_rows_build(const struct sframe_section *sec, unsigned int bits, void *mem,
		      size_t size, const struct sframe_rows **rows);

/**
 * sframe_modules_set_rows() - give the module at @start its row table.
 * @t: the table.
 * @start: the module's first address.
 * @rows: a row table of the module's section, or NULL for none.
 *
 * Return: 0; -SFRAME_ERR_INVAL (NULL @t, or a module without a section
 * given a table); -SFRAME_ERR_NOT_FOUND when no module starts at @start.
 */
int sframe_modules_set_rows(struct sframe_module_table *t, uint64_t start,
			    const struct sframe_rows *rows);

/**
 * sframe_modules_find() - the module containing @pc (binary search).
 * @t: the table.
 * @pc: an address.
 *
 * Return: the module, or NULL.
 */
const struct sframe_module *sframe_modules_find(const struct sframe_module_table *t,
						uint64_t pc);

/**
 * struct sframe_cache_entry - storage for one remembered step of struct
 * sframe_unwind_cache.
 * @opaque: the unwinder's own encoding of the step (the PC, its rule, its
 *	module, a guess at the next entry); callers never read or write it.
 *
 * Callers provide arrays of them and nothing else: sframe_unwind_cache_init()
 * empties them. 32 bytes on every host, two to a 64-byte cache line.
 */
struct sframe_cache_entry {
	uint64_t opaque[4];
};

/**
 * struct sframe_unwind_cache - optional caller-owned cache of decoded rows.
 * @entries: @mask + 1 entries, a power of two.
 * @mask: number of entries minus one.
 * @hits: steps served from the cache (statistics; the caller may reset them).
 * @misses: steps that had to look their row up.
 *
 * Return addresses repeat from walk to walk (a profiler samples the same
 * hot call paths again and again), and so do the PCs of hot loops, so a
 * step can skip the module search, the section's binary search and the row
 * decoding: the unwinder keeps the decoded rule of each frame it steps from
 * (or that it has none, or that the stack ends there) in this table, keyed
 * by the PC and whether it is exact (the topmost or an interrupted frame)
 * or a return address (looked up at PC - 1), and a later step from the
 * same PC costs one probe. Only plain rules are kept
 * (CFA from SP or FP, RA and FP in stack slots or unchanged); every check
 * of a step is made on a hit as on a miss, and anything unusual (a failed
 * read, a register not known, an implausible CFA) takes the full step.
 *
 * The entries describe the module table and sections the unwinder had when
 * they were made: call sframe_unwind_cache_clear() whenever a module is
 * added or removed or a section changes, and use one cache per unwinder
 * configuration (module table, ABI). A walk writes to the cache, so
 * walks that may run at the same time need a cache each: per thread, and in
 * a kernel per CPU and per context (a walk from an NMI can interrupt one
 * from a task on the same CPU). A torn or stale entry can misdirect a walk,
 * but not past the checks: every read still goes through the window's
 * bounds or the callback, and every step's CFA, RA and depth checks hold.
 */
struct sframe_unwind_cache {
	struct sframe_cache_entry *entries;
	uint32_t mask;
	uint64_t hits;
	uint64_t misses;
};

/**
 * sframe_unwind_cache_init() - set up an empty cache over @entries.
 * @cache: the cache.
 * @entries: caller-owned array of @count entries (32 bytes each).
 * @count: a power of two, at least 1.
 * Return: 0, or -SFRAME_ERR_INVAL (NULL pointer, @count not a power of two).
 */
int sframe_unwind_cache_init(struct sframe_unwind_cache *cache, struct sframe_cache_entry *entries,
			     uint32_t count);

/**
 * sframe_unwind_cache_clear() - forget every entry (modules changed).
 * @cache: an initialised cache.
 */
void sframe_unwind_cache_clear(struct sframe_unwind_cache *cache);

/* struct sframe_unwinder.flags */
#define SFRAME_UNWIND_FP_FALLBACK	0x1u	/* walk frame pointers (s390x: the back
						 * chain) where there is no SFrame */

#define SFRAME_UNWIND_DEFAULT_DEPTH	256

/**
 * struct sframe_unwinder - what a walk needs besides the registers.
 * @abi: SFRAME_ABI_* of the stack (decides register roles and the byte order
 *	of stack values); sections of another ABI are refused.
 * @va_bits: aarch64: number of virtual-address bits, used to strip PAuth
 *	signatures when @strip_ra is NULL; 0 means 48.
 * @flags: SFRAME_UNWIND_*.
 * @max_depth: most frames a walk produces; 0 means SFRAME_UNWIND_DEFAULT_DEPTH.
 * @modules: the module table.
 * @read_stack: reads stack memory: always 8-byte values at 8-byte-aligned
 *	addresses (a rule leading to a misaligned address fails with
 *	-SFRAME_ERR_BAD_CFA before any read); its errors end the walk and are
 *	returned unchanged. May be NULL when @stack_data is set: reads outside
 *	the window then fail with -SFRAME_ERR_READ.
 * @stack_ctx: passed to @read_stack.
 * @get_reg: optional; other registers of the topmost frame.
 * @reg_ctx: passed to @get_reg.
 * @strip_ra: optional; aarch64 signature stripping.
 * @strip_ctx: passed to @strip_ra.
 * @stack_data: optional window of stack memory the caller holds in its own
 *	address space (a profiler's copy of the sampled stack, or the live
 *	stack of the calling thread): the @stack_len bytes at @stack_data are
 *	those of target addresses @stack_addr ..; 8-byte values wholly inside
 *	it are loaded directly (in the target's byte order, any alignment of
 *	@stack_data), every other read goes to @read_stack.
 * @stack_addr: target address of the window's first byte.
 * @stack_len: window length in bytes.
 * @cache: optional; see struct sframe_unwind_cache.
 */
struct sframe_unwinder {
	uint8_t abi;
	uint8_t va_bits;
	uint32_t flags;
	uint32_t max_depth;
	const struct sframe_module_table *modules;
	sframe_read_fn read_stack;
	void *stack_ctx;
	sframe_get_reg_fn get_reg;
	void *reg_ctx;
	sframe_strip_ra_fn strip_ra;
	void *strip_ctx;
	const void *stack_data;
	uint64_t stack_addr;
	uint64_t stack_len;
	struct sframe_unwind_cache *cache;
};

/* struct sframe_frame.flags and struct sframe_cursor.flags */
#define SFRAME_FRAME_TOPMOST		0x01u	/* registers given by the caller */
#define SFRAME_FRAME_INTERRUPTED	0x02u	/* PC is exact (interrupted), not a return address */
#define SFRAME_FRAME_FP_FALLBACK	0x04u	/* found by the frame-pointer fallback */
#define SFRAME_FRAME_SIGNAL		0x08u	/* the function is a signal trampoline */
#define SFRAME_FRAME_RA_SIGNED		0x10u	/* PC was a PAuth-signed RA, stripped */
#define SFRAME_FRAME_NO_SFRAME		0x20u	/* no SFrame row describes this PC */
#define SFRAME_FRAME_FP_LOST		0x40u	/* the FP rule could not be evaluated: FP unknown */

/**
 * struct sframe_frame - one frame of a walk.
 * @pc: its PC (for callers: the return address).
 * @sp: its stack pointer.
 * @fp: its frame pointer, when known (SFRAME_REG_FP in @valid).
 * @cfa: its CFA, once the step from it computed it; 0 otherwise.
 * @valid: SFRAME_REG_* bits of the known registers.
 * @flags: SFRAME_FRAME_*.
 * @module: the module containing @pc, or NULL.
 */
struct sframe_frame {
	uint64_t pc;
	uint64_t sp;
	uint64_t fp;
	uint64_t cfa;
	uint32_t valid;
	uint32_t flags;
	const struct sframe_module *module;
};

/**
 * struct sframe_cursor - state of a walk; caller-owned, set up by
 * sframe_unwind_init().
 * @regs: the registers of the current frame.
 * @prev_cfa: CFA of the frame just left (0 at the top, and after a signal
 *	frame: it may be on another stack).
 * @sigctx: amd64: address of the interrupted registers, or 0.
 * @depth: 0 for the topmost frame.
 * @flags: SFRAME_FRAME_* of the current frame.
 * @prev_flags: SFRAME_FRAME_* learnt about the frame just left.
 */
struct sframe_cursor {
	struct sframe_regs regs;
	uint64_t prev_cfa;
	uint64_t sigctx;
	uint32_t depth;
	uint32_t flags;
	uint32_t prev_flags;
};

/* Positive results of sframe_unwind_step() and sframe_unwind_stack(). */
#define SFRAME_UNWIND_END	1	/* the current frame is the outermost */
#define SFRAME_UNWIND_FULL	2	/* the frame array is full */

/**
 * sframe_unwind_init() - start a walk at @regs.
 * @u: the unwinder.
 * @c: cursor to set up.
 * @regs: registers of the topmost frame; PC and SP must be valid.
 *
 * Return: 0 or -SFRAME_ERR_INVAL.
 */
int sframe_unwind_init(const struct sframe_unwinder *u, struct sframe_cursor *c,
		       const struct sframe_regs *regs);

/**
 * sframe_unwind_step() - move @c from a frame to its caller.
 * @u: the unwinder.
 * @c: the cursor.
 *
 * Return: 0 when @c now holds the caller's registers; SFRAME_UNWIND_END when
 * the current frame is the outermost (RA undefined, or a v3 outermost FDE);
 * -SFRAME_ERR_NOT_FOUND when no SFrame row describes the PC (and the
 * fallback is off or impossible); -SFRAME_ERR_NO_REG, -SFRAME_ERR_BAD_CFA,
 * -SFRAME_ERR_BAD_RA, -SFRAME_ERR_DEPTH, -SFRAME_ERR_ABI (section of another
 * ABI), -SFRAME_ERR_UNSUPPORTED (a signal frame on an ABI whose signal frame
 * layout is not known); a section error; or a read callback's error. On
 * error @c is unchanged.
 */
int sframe_unwind_step(const struct sframe_unwinder *u, struct sframe_cursor *c);

/**
 * sframe_unwind_stack() - walk the whole stack into @frames.
 * @u: the unwinder.
 * @regs: registers of the topmost frame.
 * @frames: caller-provided array; frames[0] is the topmost frame.
 * @max: its length.
 * @count: set to the number of frames stored.
 *
 * Return: why the walk stopped: SFRAME_UNWIND_END (the outermost frame was
 * reached), SFRAME_UNWIND_FULL (@frames is full), or the negative error of
 * the step that failed (the frames stored before it are valid).
 */
int sframe_unwind_stack(const struct sframe_unwinder *u, const struct sframe_regs *regs,
			struct sframe_frame *frames, uint32_t max, uint32_t *count);

/**
 * sframe_unwind_pcs() - walk the whole stack, keeping only the PCs.
 * @u: the unwinder.
 * @regs: registers of the topmost frame.
 * @pcs: caller-provided array; pcs[0] is the topmost PC, then the return
 *	addresses (PAuth signatures stripped).
 * @max: its length.
 * @count: set to the number of PCs stored.
 *
 * What a profiler's call chain needs, and exactly the PCs, count and result
 * sframe_unwind_stack() gives for the same walk. With a cache and a stack
 * window (struct sframe_unwinder @cache, @stack_data) the steps served from
 * the cache run in a loop that keeps the registers in locals, stores one
 * word per frame and finds each next entry where the last walk through the
 * same return address found it; every other step is the full
 * sframe_unwind_step(), and so is any step of that loop that would need
 * more than the window (it makes the same checks). That loop needs FP known
 * and a window at least 4 GiB from either end of the address space (true of
 * every user and kernel stack); otherwise the cache serves full steps.
 *
 * Return: as sframe_unwind_stack().
 */
int sframe_unwind_pcs(const struct sframe_unwinder *u, const struct sframe_regs *regs,
		      uint64_t *pcs, uint32_t max, uint32_t *count);

#ifdef __cplusplus
}
#endif

#endif /* SFRAME_UNWIND_H */
