/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * perf_regs.h - the user registers and stack of a perf.data sample as an
 * unwinder's sample (struct sf_sample): perf numbers the registers per
 * architecture (the bits of the event's sample_regs_user), the unwinder by
 * DWARF number.
 *
 * Architectures: x86_64 (EM_X86_64), aarch64 (EM_AARCH64) and s390x
 * (EM_S390), 64-bit tasks only.
 */
#ifndef SFRAME_TOOL_PERF_REGS_H
#define SFRAME_TOOL_PERF_REGS_H

#include <stddef.h>
#include <stdint.h>

#include "read/perf_data.h"
#include "target/snapshot.h"

/* Failures of sf_perf_regs_sample(). */
#define SF_PERF_REGS_EMACHINE	(-1)	/* an architecture not handled here */
#define SF_PERF_REGS_ENONE	(-2)	/* the sample has no user registers (ABI NONE) */
#define SF_PERF_REGS_E32	(-3)	/* a 32-bit task */
#define SF_PERF_REGS_ENOPCSP	(-4)	/* the event records no user PC or SP */
#define SF_PERF_REGS_EFORMAT	(-5)	/* registers inconsistent with the mask */

/**
 * sf_perf_arch_machine() - the ELF machine of a perf.data file's architecture.
 * @uname_m: the architecture as "uname -m" names it (perf's HEADER_ARCH):
 *	"x86_64", "aarch64" (also "aarch64_be", "arm64"), "s390x" or "s390".
 *
 * Return: EM_X86_64, EM_AARCH64 or EM_S390; 0 for any other name.
 */
uint16_t sf_perf_arch_machine(const char *uname_m);

/**
 * sf_perf_regs_sample() - a perf sample's user registers and stack as an
 * unwinder's sample.
 * @e_machine: the sampled program's architecture (EM_X86_64, EM_AARCH64,
 *	EM_S390).
 * @regs_mask: the event's sample_regs_user: which perf registers @ps->regs
 *	holds, lowest bit first.
 * @ps: the decoded sample (its regs_abi, nregs, regs, stack, stack_dyn_size).
 * @out: filled on success: pc, sp, fp, ra; regs[] by DWARF number, nregs
 *	the highest DWARF number this architecture has in perf's numbering
 *	plus one (17 x86_64 with rip at 16, 32 aarch64, 16 s390x), regs_missing
 *	those of them the mask lacks (sf_sample_get_reg() refuses them, fp and
 *	ra are then 0); the stack window: the STACK_USER copy, which starts at
 *	the user SP (stack_addr = sp, stack_len = its dyn_size; empty without
 *	STACK_USER).
 * @err: a message on failure.
 * @errlen: size of @err.
 *
 * @out->stack points into @ps's bytes (the mapped perf.data file).
 *
 * Return: 0, or SF_PERF_REGS_EMACHINE, _ENONE (a sample without user
 * registers, such as one of a kernel thread), _E32, _ENOPCSP or _EFORMAT
 * with a message in @err.
 */
int sf_perf_regs_sample(uint16_t e_machine, uint64_t regs_mask, const struct sf_perf_sample *ps,
			struct sf_sample *out, char *err, size_t errlen);

#endif /* SFRAME_TOOL_PERF_REGS_H */
