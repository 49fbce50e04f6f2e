/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * unwind_target.h - an executable set up for offline unwinding: its SFrame
 * section opened, its executable segments in a module table, its symbols.
 */
#ifndef SFRAME_TOOL_UNWIND_TARGET_H
#define SFRAME_TOOL_UNWIND_TARGET_H

#include <stdbool.h>

#include <sframe/sframe_unwind.h>

#include "read/elf_input.h"
#include "read/parts.h"
#include "read/sframe_find.h"
#include "target/snapshot.h"

/**
 * struct sf_target - an executable ready for offline unwinding.
 * @in: the file.
 * @info: its symbols and executable segments.
 * @abi: the SFrame ABI of its machine (of its section, when it has one).
 * @has_sframe: it has SFrame data: false for an empty .sframe section,
 *	whose segments are then modules without a section.
 * @sec: the first part of its section (the only one, but for LLVM lld
 *	output: see @parts).
 * @parts: every part of the section.
 * @slots: the module table's entries: for a section of several parts, the
 *	address ranges of each part's functions within each executable
 *	segment, and the gaps between them (without a section).
 * @modules: the module table.
 * @found: where its section came from when it has none of its own.
 */
struct sf_target {
	struct sf_input in;
	struct sf_elf_info info;
	uint8_t abi;
	bool has_sframe;
	struct sframe_section sec;
	struct sf_parts parts;
	struct sframe_module *slots;
	struct sframe_module_table modules;
	struct sf_sframe_found found;
};

/**
 * sf_target_load() - load @path (a linked ELF executable with a .sframe
 * section or PT_GNU_SFRAME segment, possibly empty; or, without one, with
 * a side-car or .eh_frame to convert: sf_sframe_find()).
 * @path: the file.
 * @opts: where a file without SFrame gets its own; NULL for the defaults.
 * @t: filled; free with sf_target_free().
 * @err: why it failed.
 * @errlen: its size.
 * Return: 0; SF_INPUT_EIO when the file cannot be read (or memory runs out),
 * SF_INPUT_EFORMAT when it is not what is needed; @err says why.
 */
int sf_target_load(const char *path, const struct sf_sframe_opts *opts, struct sf_target *t,
		   char *err, size_t errlen);

void sf_target_free(struct sf_target *t);

/**
 * sf_target_unwinder() - the unwinder and registers sf_target_unwind() uses.
 * @t: the executable the sample was taken from.
 * @smp: the sample; the unwinder reads its stack through a callback.
 * @flags: SFRAME_UNWIND_* flags.
 * @u: filled (no cache, no stack window: the caller may add them).
 * @regs: the sample's registers.
 */
void sf_target_unwinder(const struct sf_target *t, const struct sf_sample *smp, uint32_t flags,
			struct sframe_unwinder *u, struct sframe_regs *regs);

/**
 * sf_sample_regs() - the topmost frame's registers of a sample.
 * @abi: the SFrame ABI of the sampled program (decides which DWARF
 *	registers are FP and the link register).
 * @smp: the sample.
 * @regs: filled: PC and SP, and FP and the link register when the sample
 *	has them.
 */
void sf_sample_regs(uint8_t abi, const struct sf_sample *smp, struct sframe_regs *regs);

/**
 * sf_target_unwind() - walk the stack of one sample.
 * @t: the executable the sample was taken from.
 * @smp: the sample (registers and stack copy).
 * @flags: SFRAME_UNWIND_* flags.
 * @frames: output array; @max entries.
 * @n: number of frames stored.
 *
 * Return: as sframe_unwind_stack().
 */
int sf_target_unwind(const struct sf_target *t, const struct sf_sample *smp, uint32_t flags,
		     struct sframe_frame *frames, uint32_t max, uint32_t *n);

/** sf_abi_name() - the machine an SFrame ABI is for: "x86-64", "AArch64", ... */
const char *sf_abi_name(uint8_t abi);

/** sf_machine_abi() - the SFrame ABI of an ELF e_machine (0 if none). */
uint8_t sf_machine_abi(uint16_t machine, uint8_t section_abi);

#endif /* SFRAME_TOOL_UNWIND_TARGET_H */
