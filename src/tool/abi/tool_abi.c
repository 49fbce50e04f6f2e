/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * tool_abi.c - the tool's architectures (see tool_abi.h).
 */
#include "abi/tool_abi.h"

#include <elf.h>
#include <string.h>

#include <sframe/sframe_format.h>

#define NO_REG SF_ABI_NO_REG

/* ---- x86-64 --------------------------------------------------------------------- */

static const struct sf_abi_perf_regs x86_64_perf = {
	.nperf = 24, .ndwarf = 17,
	.pc = 8, .sp = 7, .fp = 6, .ra = NO_REG,
	/* ax bx cx dx si di bp sp ip, flags cs ss ds es fs gs, r8-r15 */
	.dwarf = { 0, 3, 2, 1, 4, 5, 6, 7, 16,
		   NO_REG, NO_REG, NO_REG, NO_REG, NO_REG, NO_REG, NO_REG,
		   8, 9, 10, 11, 12, 13, 14, 15 },
};

static const struct sf_abi_prstatus x86_64_prstatus = {
	/*
	 * user_regs_struct: r15 r14 r13 r12 rbp rbx r11 r10 r9 r8 rax rcx rdx
	 * rsi rdi orig_rax rip cs eflags rsp ss fs_base gs_base ds es fs gs.
	 * DWARF: rax rdx rcx rbx rsi rdi rbp rsp r8-r15 rip.
	 */
	.nslots = 27, .pc = 16, .sp = 19, .fp = 4, .ra = NO_REG,
	.ndwarf = 17,
	.dwarf = { 10, 12, 11, 5, 13, 14, 4, 19, 9, 8, 7, 6, 3, 2, 1, 0, 16 },
};

static const struct sf_abi_reloc x86_64_relocs[] = {
	{ R_X86_64_NONE, 0, true },
	{ R_X86_64_PC32, 4, true },
	{ R_X86_64_PC64, 8, true },
	{ R_X86_64_32, 4, false },
	{ R_X86_64_32S, 4, false },
	{ R_X86_64_64, 8, false },
	{ 0, -1, false },
};

/* ---- AArch64 -------------------------------------------------------------------- */

static const struct sf_abi_perf_regs aarch64_perf = {
	.nperf = 33, .ndwarf = 32,
	.pc = 32, .sp = 31, .fp = 29, .ra = 30,
	/* x0-x30, sp, pc */
	.dwarf = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
		   17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
		   NO_REG },
};

static const struct sf_abi_prstatus aarch64_prstatus = {
	/* user_pt_regs: x0-x30 sp pc pstate. DWARF: x0-x30, sp. */
	.nslots = 34, .pc = 32, .sp = 31, .fp = 29, .ra = 30,
	.ndwarf = 32,
	.dwarf = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
		   20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31 },
};

static const struct sf_abi_reloc aarch64_relocs[] = {
	{ R_AARCH64_NONE, 0, true },
	{ R_AARCH64_PREL32, 4, true },
	{ R_AARCH64_PREL64, 8, true },
	{ R_AARCH64_ABS32, 4, false },
	{ R_AARCH64_ABS64, 8, false },
	{ 0, -1, false },
};

/* ---- s390x ---------------------------------------------------------------------- */

static const struct sf_abi_perf_regs s390x_perf = {
	.nperf = 34, .ndwarf = 16,
	.pc = 33, .sp = 15, .fp = 11, .ra = 14,
	/* r0-r15, f0-f15, PSW mask, PSW address */
	.dwarf = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		   NO_REG, NO_REG, NO_REG, NO_REG, NO_REG, NO_REG, NO_REG, NO_REG,
		   NO_REG, NO_REG, NO_REG, NO_REG, NO_REG, NO_REG, NO_REG, NO_REG,
		   NO_REG, NO_REG },
};

static const struct sf_abi_prstatus s390x_prstatus = {
	/*
	 * s390_regs: PSW mask, PSW address, r0-r15, then 16 32-bit access
	 * registers and orig_gpr2 (27 slots). DWARF: r0-r15 (the
	 * floating-point ones are not in the set).
	 */
	.nslots = 27, .pc = 1, .sp = 17, .fp = 13, .ra = 16,
	.ndwarf = 16,
	.dwarf = { 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17 },
};

static const struct sf_abi_reloc s390x_relocs[] = {
	{ R_390_NONE, 0, true },
	{ R_390_PC32, 4, true },
	{ R_390_PC64, 8, true },
	{ R_390_32, 4, false },
	{ R_390_64, 8, false },
	{ 0, -1, false },
};

/* ---- The table ------------------------------------------------------------------ */

static const struct sf_abi abis[] = {
	{ EM_X86_64, "x86-64", NULL, { "x86_64", "amd64", "x86-64", NULL },
	  SFRAME_ABI_AMD64_LE, 0, "amd64", NULL, "32-bit processes are not supported",
	  &x86_64_perf, &x86_64_prstatus, x86_64_relocs,
	  { R_X86_64_JUMP_SLOT, R_X86_64_GLOB_DAT, R_X86_64_IRELATIVE } },
	{ EM_AARCH64, "AArch64", "AArch64 (big endian)", { "aarch64", "aarch64_be", "arm64", NULL },
	  SFRAME_ABI_AARCH64_LE, SFRAME_ABI_AARCH64_BE, "aarch64", "aarch64 big-endian",
	  "AArch32 is not supported",
	  &aarch64_perf, &aarch64_prstatus, aarch64_relocs,
	  { R_AARCH64_JUMP_SLOT, R_AARCH64_GLOB_DAT, R_AARCH64_IRELATIVE } },
	{ EM_S390, "s390x", NULL, { "s390x", "s390", NULL, NULL },
	  0, SFRAME_ABI_S390X_BE, NULL, "s390x", "31-bit processes are not supported",
	  &s390x_perf, &s390x_prstatus, s390x_relocs,
	  { R_390_JMP_SLOT, R_390_GLOB_DAT, R_390_IRELATIVE } },
};

#define NABIS (sizeof(abis) / sizeof(abis[0]))

const struct sf_abi *sf_abi_of_machine(uint16_t machine)
{
	size_t i;

	for (i = 0; i < NABIS; i++)
		if (abis[i].machine == machine)
			return &abis[i];
	return NULL;
}

const struct sf_abi *sf_abi_of_name(const char *name)
{
	size_t i, j;

	for (i = 0; i < NABIS; i++)
		for (j = 0; j < sizeof(abis[i].aliases) / sizeof(abis[i].aliases[0]) &&
			    abis[i].aliases[j]; j++)
			if (strcmp(abis[i].aliases[j], name) == 0)
				return &abis[i];
	return NULL;
}

const struct sf_abi *sf_abi_of_sframe(uint8_t sframe_abi)
{
	size_t i;

	if (!sframe_abi)
		return NULL;
	for (i = 0; i < NABIS; i++)
		if (abis[i].sframe_le == sframe_abi || abis[i].sframe_be == sframe_abi)
			return &abis[i];
	return NULL;
}

const struct sf_abi *sf_abi_host(void)
{
#if defined(__x86_64__)
	return sf_abi_of_machine(EM_X86_64);
#elif defined(__aarch64__)
	return sf_abi_of_machine(EM_AARCH64);
#elif defined(__s390x__)
	return sf_abi_of_machine(EM_S390);
#else
	return NULL;
#endif
}

uint8_t sf_abi_sframe(const struct sf_abi *a, bool big_endian)
{
	if (big_endian)
		return a->sframe_be ? a->sframe_be : a->sframe_le;
	return a->sframe_le ? a->sframe_le : a->sframe_be;
}

const char *sf_abi_sframe_name(uint8_t sframe_abi)
{
	const struct sf_abi *a = sf_abi_of_sframe(sframe_abi);

	if (!a)
		return "an unknown ABI";
	return sframe_abi == a->sframe_be && a->name_be ? a->name_be : a->name;
}

const char *sf_abi_format_name(uint8_t sframe_abi)
{
	const struct sf_abi *a = sf_abi_of_sframe(sframe_abi);

	if (!a)
		return "unknown ABI";
	return sframe_abi == a->sframe_be ? a->format_be : a->format_le;
}
