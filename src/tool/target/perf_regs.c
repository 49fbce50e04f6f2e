/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * perf_regs.c - perf's user registers by DWARF number (see perf_regs.h).
 *
 * perf's numbering is the kernel's uapi asm/perf_regs.h of each
 * architecture; the DWARF numbering is the psABI's.
 */
#include "target/perf_regs.h"

#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define NO_REG 0xff

/*
 * dwarf[i]: the DWARF number of perf register i (NO_REG for those the
 * unwinder has no use for: flags, segment and floating-point registers,
 * the PSW mask). pc: perf's number of the PC, which has no DWARF number
 * among the general registers, except that x86_64's rip is the return
 * address column 16 (a snapshot's regs[16] holds it too).
 */
struct perf_arch {
	uint16_t machine;
	const char *name;
	uint8_t nperf;
	uint8_t ndwarf;
	uint8_t pc, sp, fp, ra;	/* perf numbers; ra NO_REG without a link register */
	uint8_t dwarf[40];
};

static const struct perf_arch arches[] = {
	{
		.machine = EM_X86_64, .name = "x86_64", .nperf = 24, .ndwarf = 17,
		.pc = 8, .sp = 7, .fp = 6, .ra = NO_REG,
		/* ax bx cx dx si di bp sp ip, flags cs ss ds es fs gs, r8-r15 */
		.dwarf = { 0, 3, 2, 1, 4, 5, 6, 7, 16,
			   NO_REG, NO_REG, NO_REG, NO_REG, NO_REG, NO_REG, NO_REG,
			   8, 9, 10, 11, 12, 13, 14, 15 },
	},
	{
		.machine = EM_AARCH64, .name = "aarch64", .nperf = 33, .ndwarf = 32,
		.pc = 32, .sp = 31, .fp = 29, .ra = 30,
		/* x0-x30, sp, pc */
		.dwarf = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
			   17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
			   NO_REG },
	},
	{
		.machine = EM_S390, .name = "s390x", .nperf = 34, .ndwarf = 16,
		.pc = 33, .sp = 15, .fp = 11, .ra = 14,
		/* r0-r15, f0-f15, PSW mask, PSW address */
		.dwarf = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
			   NO_REG, NO_REG, NO_REG, NO_REG, NO_REG, NO_REG, NO_REG, NO_REG,
			   NO_REG, NO_REG, NO_REG, NO_REG, NO_REG, NO_REG, NO_REG, NO_REG,
			   NO_REG, NO_REG },
	},
};

uint16_t sf_perf_arch_machine(const char *uname_m)
{
	if (strcmp(uname_m, "x86_64") == 0)
		return EM_X86_64;
	if (strcmp(uname_m, "aarch64") == 0 || strcmp(uname_m, "aarch64_be") == 0 ||
	    strcmp(uname_m, "arm64") == 0)
		return EM_AARCH64;
	if (strcmp(uname_m, "s390x") == 0 || strcmp(uname_m, "s390") == 0)
		return EM_S390;
	return 0;
}

static unsigned popcount64(uint64_t v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/* The value of perf register @reg, if the mask has it. */
static int perf_reg(uint64_t mask, const struct sf_perf_sample *ps, unsigned reg,
		    uint64_t *value)
{
	if (reg >= 64 || !(mask >> reg & 1))
		return 0;
	/* Registers are packed: its index is the number of mask bits below it. */
	*value = ps->regs[popcount64(mask & ((UINT64_C(1) << reg) - 1))];
	return 1;
}

int sf_perf_regs_sample(uint16_t e_machine, uint64_t regs_mask, const struct sf_perf_sample *ps,
			struct sf_sample *out, char *err, size_t errlen)
{
	const struct perf_arch *a = NULL;
	uint64_t v;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (arches[i].machine == e_machine)
			a = &arches[i];
	if (!a) {
		snprintf(err, errlen, "user registers of ELF machine %u are not known",
			 (unsigned)e_machine);
		return SF_PERF_REGS_EMACHINE;
	}
	if (ps->regs_abi == SF_PERF_REGS_ABI_NONE) {
		snprintf(err, errlen, "the sample has no user registers");
		return SF_PERF_REGS_ENONE;
	}
	if (ps->regs_abi == SF_PERF_REGS_ABI_32) {
		snprintf(err, errlen,
			 "a sample of a 32-bit task: its stack cannot be unwound with %s SFrame",
			 a->name);
		return SF_PERF_REGS_E32;
	}
	if (ps->regs_abi != SF_PERF_REGS_ABI_64) {
		snprintf(err, errlen, "unknown user register ABI %" PRIu64, ps->regs_abi);
		return SF_PERF_REGS_EFORMAT;
	}
	if (ps->nregs != popcount64(regs_mask)) {
		snprintf(err, errlen, "%u user registers for a mask of %u (0x%" PRIx64 ")",
			 (unsigned)ps->nregs, popcount64(regs_mask), regs_mask);
		return SF_PERF_REGS_EFORMAT;
	}
	if (!perf_reg(regs_mask, ps, a->pc, &out->pc) ||
	    !perf_reg(regs_mask, ps, a->sp, &out->sp)) {
		snprintf(err, errlen,
			 "the samples carry no user PC/SP (record with --call-graph=dwarf)");
		return SF_PERF_REGS_ENOPCSP;
	}
	perf_reg(regs_mask, ps, a->fp, &out->fp);
	if (a->ra != NO_REG)
		perf_reg(regs_mask, ps, a->ra, &out->ra);
	out->nregs = a->ndwarf;
	out->regs_missing = (UINT64_C(1) << a->ndwarf) - 1;
	for (i = 0; i < a->nperf; i++) {
		if (a->dwarf[i] == NO_REG || !perf_reg(regs_mask, ps, (unsigned)i, &v))
			continue;
		out->regs[a->dwarf[i]] = v;
		out->regs_missing &= ~(UINT64_C(1) << a->dwarf[i]);
	}
	out->stack = ps->stack;
	out->stack_addr = out->sp;
	out->stack_len = ps->stack ? ps->stack_dyn_size : 0;
	return 0;
}
