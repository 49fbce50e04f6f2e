/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * tool_abi.h - what the tool knows of each architecture, in one table (as
 * elfutils' backends/ has it per architecture): its ELF machine, the names
 * users and perf give it, its SFrame ABIs, and the register layouts of
 * perf samples and of NT_PRSTATUS (cores and ptrace alike), the
 * relocations the tools apply. The DWARF
 * numbers of SP, FP and RA are the library's (sframe_abi_*_reg()).
 *
 * An architecture more is an entry more in tool_abi.c.
 */
#ifndef SFRAME_TOOL_ABI_H
#define SFRAME_TOOL_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A register the layout does not have. */
#define SF_ABI_NO_REG 0xff

/* The most registers a layout numbers. */
#define SF_ABI_MAX_REGS 40

/*
 * perf's user registers (the kernel's uapi asm/perf_regs.h): @dwarf[i] is
 * the DWARF number of perf register i (SF_ABI_NO_REG for those the
 * unwinder has no use for); @pc, @sp, @fp, @ra are perf numbers (@ra
 * SF_ABI_NO_REG without a link register).
 */
struct sf_abi_perf_regs {
	uint8_t nperf;
	uint8_t ndwarf;
	uint8_t pc, sp, fp, ra;
	uint8_t dwarf[SF_ABI_MAX_REGS];
};

/*
 * The NT_PRSTATUS register set (a core's pr_reg, PTRACE_GETREGSET's):
 * @nslots 64-bit slots; the slots of the PC, SP, FP and link register
 * (SF_ABI_NO_REG without one), and @dwarf[i]: the slot of DWARF register i.
 */
struct sf_abi_prstatus {
	uint8_t nslots;
	uint8_t pc, sp, fp, ra;
	uint8_t ndwarf;
	uint8_t dwarf[SF_ABI_MAX_REGS];
};

/*
 * A relocation the tools apply (to .sframe and .eh_frame of relocatable
 * objects): its type, its width in bytes (0 for a no-op), whether it is
 * PC-relative (S + A - P, else S + A). A width of -1 ends a list.
 */
struct sf_abi_reloc {
	uint32_t type;
	signed char width;
	bool pcrel;
};

/**
 * struct sf_abi - one architecture.
 * @machine: ELF e_machine.
 * @name: as messages name it ("x86-64"; readelf's words).
 * @name_be: the same for its big-endian SFrame ABI when that is not its
 *	usual byte order, else NULL.
 * @aliases: what users, uname -m and perf's ARCH feature say, uname -m's
 *	first; NULL-terminated.
 * @sframe_le: its SFrame ABI in little-endian files, 0 for none.
 * @sframe_be: the same for big-endian files.
 * @format_le: @sframe_le's name as the format says it (check prints it).
 * @format_be: the same for @sframe_be.
 * @narrow: why a 32-bit (31-bit) process of it cannot be unwound.
 * @perf: perf's user registers.
 * @prstatus: NT_PRSTATUS's registers.
 * @relocs: the relocations the tools apply.
 * @slot_relocs: the relocations of a PLT entry's slot (jump slot, GOT
 *	entry, IFUNC), which name the entry's function.
 */
struct sf_abi {
	uint16_t machine;
	const char *name;
	const char *name_be;
	const char *aliases[4];
	uint8_t sframe_le;
	uint8_t sframe_be;
	const char *format_le;
	const char *format_be;
	const char *narrow;
	const struct sf_abi_perf_regs *perf;
	const struct sf_abi_prstatus *prstatus;
	const struct sf_abi_reloc *relocs;
	uint32_t slot_relocs[3];
};

/* The architecture of ELF machine @machine, or NULL. */
const struct sf_abi *sf_abi_of_machine(uint16_t machine);

/* The architecture a user or perf names (any alias), or NULL. */
const struct sf_abi *sf_abi_of_name(const char *name);

/* The architecture of SFrame ABI @sframe_abi, or NULL. */
const struct sf_abi *sf_abi_of_sframe(uint8_t sframe_abi);

/* The architecture this tool runs on (ptrace), or NULL. */
const struct sf_abi *sf_abi_host(void);

/*
 * The SFrame ABI of @a's files of that byte order (the other one's when
 * the architecture has only one).
 */
uint8_t sf_abi_sframe(const struct sf_abi *a, bool big_endian);

/*
 * An SFrame ABI's name: @a's name, with " (big endian)" for the byte order
 * that is not the architecture's usual one; "an unknown ABI" otherwise.
 */
const char *sf_abi_sframe_name(uint8_t sframe_abi);

/*
 * An SFrame ABI's name as the format (and check's documented line) says
 * it: "amd64", "aarch64", "aarch64 big-endian", "s390x"; "unknown ABI".
 */
const char *sf_abi_format_name(uint8_t sframe_abi);

#endif /* SFRAME_TOOL_ABI_H */
