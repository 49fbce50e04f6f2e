/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * unwind_abi.h - everything the unwinder knows of each ABI, in one table;
 * not installed. The step, the frame-pointer fallback and the signal frame
 * read these descriptions, so that adding an ABI means adding an entry
 * here rather than a branch in each of them. Each entry starts with the
 * reader's (struct sf_abi, sframe_internal.h): the registers are named once.
 */
#ifndef SFRAME_UNWIND_ABI_H
#define SFRAME_UNWIND_ABI_H

#include "sframe_internal.h"

/*
 * The frame-pointer chain of amd64 and aarch64 (what compilers build with
 * -fno-omit-frame-pointer): FP points at the saved caller's FP, the return
 * address is the next slot, and the CFA is just above the pair.
 */
#define UNWIND_FP_CHAIN_FP	0
#define UNWIND_FP_CHAIN_RA	8
#define UNWIND_FP_CHAIN_CFA	16

/*
 * The s390x back chain: the word at SP is the caller's SP, whose 160-byte
 * register save area holds general register n at 8 * n; the caller's CFA
 * is its SP + 160 (the same bias as SFRAME_S390X_SP_VAL_OFFSET).
 */
#define UNWIND_S390X_SAVE_SLOT(dwarf_reg)	(8 * (dwarf_reg))
#define UNWIND_S390X_FRAME_SIZE			(-SFRAME_S390X_SP_VAL_OFFSET)

/*
 * amd64 signal frames: the kernel's struct rt_sigframe, as seen by the
 * restorer after the handler returned into it, starts with the ucontext,
 * whose mcontext (struct sigcontext) begins 40 bytes in with the general
 * registers as 8-byte slots in this order: r8-r15, rdi, rsi, rbp, rbx,
 * rdx, rax, rcx, rsp, rip.
 */
#define UNWIND_AMD64_UC_MCONTEXT	40
#define UNWIND_AMD64_SC_R8		0
#define UNWIND_AMD64_SC_RDI		8
#define UNWIND_AMD64_SC_RSI		9
#define UNWIND_AMD64_SC_RBP		10
#define UNWIND_AMD64_SC_RBX		11
#define UNWIND_AMD64_SC_RDX		12
#define UNWIND_AMD64_SC_RAX		13
#define UNWIND_AMD64_SC_RCX		14
#define UNWIND_AMD64_SC_RSP		15
#define UNWIND_AMD64_SC_RIP		16
#define UNWIND_AMD64_SC_SLOTS		17

/* The most registers a signal frame's block holds (amd64's DWARF 0 .. 16). */
#define UNWIND_SIG_SLOTS_MAX		UNWIND_AMD64_SC_SLOTS

/*
 * Linux on aarch64 uses 48-bit virtual addresses unless configured for
 * more: the bits kept of a PAuth-signed return address when the embedder
 * says nothing (struct sframe_unwinder.va_bits 0, no strip hook).
 */
#define UNWIND_DEFAULT_VA_BITS	48

/**
 * struct unwind_abi - one ABI, as the unwinder sees it.
 * @reg: the reader's description: the DWARF numbers of SP, FP and RA.
 * @stack_be: stack values are big-endian.
 * @ra_in_link: calls leave the return address in @ra_reg until the callee
 *	saves it, so an RA rule "unchanged" means that register (known in the
 *	topmost frame only); amd64 pushes it instead.
 * @pauth: return addresses may be PAuth-signed, in frame records too.
 * @sp_bias: the caller's SP is its CFA minus this.
 * @back_chain: the fallback follows the back chain (link = the word at SP,
 *	which must lie above SP) rather than the frame pointer (link = FP).
 * @chain_fp: offset from the link of the caller's saved FP.
 * @chain_ra: offset from the link of the return address.
 * @chain_cfa: offset from the link of the CFA.
 * @sig_regs: offset from a signal trampoline's SP of the interrupted
 *	registers; 0 when the layout is not known.
 * @sig_nslots: entries of @sig_slot in use.
 * @sig_slot: 8-byte slot of each DWARF register in that block (kept in the
 *	table, not pointed to: the table needs no relocation).
 */
struct unwind_abi {
	struct sf_abi reg;
	bool stack_be;
	bool ra_in_link;
	bool pauth;
	uint32_t sp_bias;
	bool back_chain;
	int32_t chain_fp;
	int32_t chain_ra;
	int32_t chain_cfa;
	uint32_t sig_regs;
	uint32_t sig_nslots;
	uint8_t sig_slot[UNWIND_SIG_SLOTS_MAX];
};

#define UNWIND_AARCH64(be) {						\
	.reg = SF_ABI_AARCH64,						\
	.stack_be = (be),						\
	.ra_in_link = true,						\
	.pauth = true,							\
	.sp_bias = 0,							\
	.back_chain = false,						\
	.chain_fp = UNWIND_FP_CHAIN_FP,					\
	.chain_ra = UNWIND_FP_CHAIN_RA,					\
	.chain_cfa = UNWIND_FP_CHAIN_CFA,				\
}

/* Indexed by SFRAME_ABI_* - 1 (the ABIs are numbered 1 .. 4). */
static const struct unwind_abi unwind_abis[] = {
	[SFRAME_ABI_AARCH64_BE - 1] = UNWIND_AARCH64(true),
	[SFRAME_ABI_AARCH64_LE - 1] = UNWIND_AARCH64(false),
	[SFRAME_ABI_AMD64_LE - 1] = {
		.reg = SF_ABI_AMD64,
		.stack_be = false,
		.ra_in_link = false,
		.pauth = false,
		.sp_bias = 0,
		.back_chain = false,
		.chain_fp = UNWIND_FP_CHAIN_FP,
		.chain_ra = UNWIND_FP_CHAIN_RA,
		.chain_cfa = UNWIND_FP_CHAIN_CFA,
		.sig_regs = UNWIND_AMD64_UC_MCONTEXT,
		.sig_nslots = UNWIND_AMD64_SC_SLOTS,
		/* Slot of each DWARF register (0 .. 16) in the sigcontext. */
		.sig_slot = {
			[0] = UNWIND_AMD64_SC_RAX,
			[1] = UNWIND_AMD64_SC_RDX,
			[2] = UNWIND_AMD64_SC_RCX,
			[3] = UNWIND_AMD64_SC_RBX,
			[4] = UNWIND_AMD64_SC_RSI,
			[5] = UNWIND_AMD64_SC_RDI,
			[SFRAME_AMD64_DWARF_FP] = UNWIND_AMD64_SC_RBP,
			[SFRAME_AMD64_DWARF_SP] = UNWIND_AMD64_SC_RSP,
			[8] = UNWIND_AMD64_SC_R8,
			[9] = UNWIND_AMD64_SC_R8 + 1,
			[10] = UNWIND_AMD64_SC_R8 + 2,
			[11] = UNWIND_AMD64_SC_R8 + 3,
			[12] = UNWIND_AMD64_SC_R8 + 4,
			[13] = UNWIND_AMD64_SC_R8 + 5,
			[14] = UNWIND_AMD64_SC_R8 + 6,
			[15] = UNWIND_AMD64_SC_R8 + 7,
			[SFRAME_AMD64_DWARF_RA] = UNWIND_AMD64_SC_RIP,
		},
	},
	[SFRAME_ABI_S390X_BE - 1] = {
		.reg = SF_ABI_S390X,
		.stack_be = true,
		.ra_in_link = true,
		.pauth = false,
		.sp_bias = UNWIND_S390X_FRAME_SIZE,
		.back_chain = true,
		.chain_fp = UNWIND_S390X_SAVE_SLOT(SFRAME_S390X_DWARF_FP),
		.chain_ra = UNWIND_S390X_SAVE_SLOT(SFRAME_S390X_DWARF_RA),
		.chain_cfa = UNWIND_S390X_FRAME_SIZE,
	},
};

#undef UNWIND_AARCH64

/* The description of SFRAME_ABI_* @abi, or NULL for an unknown ABI. */
static inline const struct unwind_abi *unwind_abi_of(uint8_t abi)
{
	if (abi < SFRAME_ABI_AARCH64_BE || abi > SFRAME_ABI_S390X_BE)
		return NULL;
	return &unwind_abis[abi - 1];
}

#endif /* SFRAME_UNWIND_ABI_H */
