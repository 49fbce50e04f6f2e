/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * unwind_target.c - offline unwinding of stack samples of one executable.
 */
#include "unwind_target.h"

#include <stdio.h>
#include <string.h>

#define EM_S390		22
#define EM_X86_64	62
#define EM_AARCH64	183

uint8_t sf_machine_abi(uint16_t machine, uint8_t section_abi)
{
	switch (machine) {
	case EM_X86_64:
		return SFRAME_ABI_AMD64_LE;
	case EM_AARCH64:
		/* The byte order comes with the section. */
		return section_abi == SFRAME_ABI_AARCH64_BE ? SFRAME_ABI_AARCH64_BE
							    : SFRAME_ABI_AARCH64_LE;
	case EM_S390:
		return SFRAME_ABI_S390X_BE;
	default:
		return 0;
	}
}

const char *sf_abi_name(uint8_t abi)
{
	switch (abi) {
	case SFRAME_ABI_AMD64_LE: return "x86-64";
	case SFRAME_ABI_AARCH64_LE: return "AArch64";
	case SFRAME_ABI_AARCH64_BE: return "AArch64 (big endian)";
	case SFRAME_ABI_S390X_BE: return "s390x";
	}
	return "an unknown ABI";
}

int sf_target_load(const char *path, struct sf_target *t, char *err, size_t errlen)
{
	size_t i;
	int r;

	memset(t, 0, sizeof(*t));
	r = sf_input_load(path, 0, 0, &t->in, err, errlen);
	if (r)
		return r;
	if (t->in.is_rel || strcmp(t->in.how, "raw") == 0) {
		snprintf(err, errlen, "%s: not a linked ELF executable or library", path);
		sf_target_free(t);
		return SF_INPUT_EFORMAT;
	}
	if (sf_elf_info_load(&t->in, &t->info, err, errlen)) {
		sf_target_free(t);
		return SF_INPUT_EFORMAT;
	}
	r = sframe_open_buffer(&t->sec, &t->buf, t->in.sec, t->in.sec_size, t->in.vaddr);
	if (r) {
		snprintf(err, errlen, "%s: %s (%s)", path, sframe_strerror(r), sframe_errname(r));
		sf_target_free(t);
		return SF_INPUT_EFORMAT;
	}
	if (sf_machine_abi(t->info.machine, t->sec.abi) != t->sec.abi) {
		char m[32];

		snprintf(err, errlen, "%s: an ELF file for %s with an SFrame section for %s", path,
			 sf_machine_name(t->info.machine, m, sizeof(m)), sf_abi_name(t->sec.abi));
		sf_target_free(t);
		return SF_INPUT_EFORMAT;
	}
	sframe_modules_init(&t->modules, t->slots, SF_MAX_TEXT);
	for (i = 0; i < t->info.ntext; i++) {
		r = sframe_modules_add(&t->modules, t->info.text[i].start, t->info.text[i].end,
				       &t->sec, NULL);
		if (r) {
			snprintf(err, errlen, "%s: executable segment %zu: %s", path, i,
				 sframe_strerror(r));
			sf_target_free(t);
			return SF_INPUT_EFORMAT;
		}
	}
	return 0;
}

void sf_target_free(struct sf_target *t)
{
	sf_elf_info_free(&t->info);
	sf_input_free(&t->in);
	memset(t, 0, sizeof(*t));
}

void sf_target_unwinder(const struct sf_target *t, const struct sf_sample *smp, uint32_t flags,
			struct sframe_unwinder *u, struct sframe_regs *regs)
{
	memset(u, 0, sizeof(*u));
	u->abi = t->sec.abi;
	u->flags = flags;
	u->modules = &t->modules;
	u->read_stack = sf_sample_read;
	u->stack_ctx = (void *)smp;
	u->get_reg = sf_sample_get_reg;
	u->reg_ctx = (void *)smp;

	memset(regs, 0, sizeof(*regs));
	regs->pc = smp->pc;
	regs->sp = smp->sp;
	regs->fp = smp->fp;
	regs->valid = SFRAME_REG_PC | SFRAME_REG_SP | SFRAME_REG_FP;
	/* The link register is part of the sample on aarch64 and s390x. */
	if (u->abi != SFRAME_ABI_AMD64_LE) {
		regs->ra = smp->ra;
		regs->valid |= SFRAME_REG_RA;
	}
}

int sf_target_unwind(const struct sf_target *t, const struct sf_sample *smp, uint32_t flags,
		     struct sframe_frame *frames, uint32_t max, uint32_t *n)
{
	struct sframe_unwinder u;
	struct sframe_regs regs;

	sf_target_unwinder(t, smp, flags, &u, &regs);
	return sframe_unwind_stack(&u, &regs, frames, max, n);
}
