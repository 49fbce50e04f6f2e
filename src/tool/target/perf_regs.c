/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * perf_regs.c - perf's user registers by DWARF number (see perf_regs.h).
 *
 * perf's numbering is the kernel's uapi asm/perf_regs.h of each
 * architecture, the DWARF numbering the psABI's; both are in the tool's
 * ABI table (abi/tool_abi.c).
 */
#include "target/perf_regs.h"

#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "abi/tool_abi.h"

#define NO_REG SF_ABI_NO_REG

uint16_t sf_perf_arch_machine(const char *uname_m)
{
	const struct sf_abi *a = sf_abi_of_name(uname_m);

	return a ? a->machine : 0;
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
	const struct sf_abi *arch = sf_abi_of_machine(e_machine);
	const struct sf_abi_perf_regs *a = arch ? arch->perf : NULL;
	uint64_t v;
	size_t i;

	memset(out, 0, sizeof(*out));
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
			 arch->aliases[0]);
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
