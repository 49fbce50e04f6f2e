/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * unwind_target.c - offline unwinding of stack samples of one executable.
 */
#include "target/unwind_target.h"

#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/tool_abi.h"

uint8_t sf_machine_abi(uint16_t machine, uint8_t section_abi)
{
	const struct sf_abi *a = sf_abi_of_machine(machine);

	if (!a)
		return 0;
	/* The byte order comes with the section. */
	return sf_abi_sframe(a, section_abi && section_abi == a->sframe_be);
}

const char *sf_abi_name(uint8_t abi)
{
	return sf_abi_sframe_name(abi);
}

/*
 * A file without SFrame: a side-car's, or its .eh_frame converted. The
 * error of the search for its own section stands when neither is there.
 */
static int load_without_sframe(const char *path, const struct sf_sframe_opts *opts,
			       struct sf_target *t, char *err, size_t errlen)
{
	char err2[512];

	if (sf_input_bytes(path, &t->in, err2, sizeof(err2)) != SF_INPUT_OK)
		return SF_INPUT_EFORMAT;
	if (sf_sframe_find(opts, &t->in, path, false, &t->found) == SF_SFRAME_NONE) {
		size_t n = strlen(err);

		/* The search's error, then why nothing could stand in. */
		if (t->found.why[0] && sf_input_is_elf(&t->in) && n < errlen)
			snprintf(err + n, errlen - n, "; %s", t->found.why);
		sf_input_free(&t->in);
		sf_sframe_found_free(&t->found);
		return SF_INPUT_EFORMAT;
	}
	return SF_INPUT_OK;
}

/* @path into @t->in: its own SFrame, else what stands in for it. */
static int load_input(const char *path, const struct sf_sframe_opts *opts, struct sf_target *t,
		      char *err, size_t errlen)
{
	int r = sf_input_load(path, 0, 0, &t->in, err, errlen);

	if (r == SF_INPUT_EFORMAT)
		r = load_without_sframe(path, opts, t, err, errlen);
	else if (r == SF_INPUT_OK && !t->in.sec_size && !t->in.is_rel && t->in.how &&
		 strcmp(t->in.how, "raw") != 0)
		(void)sf_sframe_find(opts, &t->in, path, false, &t->found);
	return r;
}

/*
 * The section's parts, and the ABI, which must be the section's: 0,
 * SF_INPUT_EFORMAT with @err set, or SF_INPUT_EIO when out of memory.
 */
static int open_sframe(const char *path, struct sf_target *t, char *err, size_t errlen)
{
	int r = sf_parts_open(&t->parts, t->in.sec, t->in.sec_size, t->in.vaddr);

	if (r && r != -SFRAME_ERR_EMPTY)
		return sf_parts_error(r, path, t->in.how, err, errlen) ? SF_INPUT_EIO
								       : SF_INPUT_EFORMAT;
	/* An empty section: no SFrame at all, as for code without a section. */
	t->has_sframe = r == 0;
	if (t->has_sframe)
		t->sec = t->parts.sec[0];
	t->abi = sf_machine_abi(t->info.machine, t->has_sframe ? t->sec.abi : 0);
	if (t->has_sframe && t->abi != t->sec.abi) {
		char m[32];

		snprintf(err, errlen, "%s: an ELF file for %s with an SFrame section for %s", path,
			 sf_machine_name(t->info.machine, m, sizeof(m)), sf_abi_name(t->sec.abi));
		return SF_INPUT_EFORMAT;
	}
	return 0;
}

/*
 * Every executable segment's ranges (one per part of the section that
 * covers it, or the whole segment without SFrame) appended to *@ranges.
 * Return: 0, or -1 when out of memory (*@ranges holds those appended).
 */
static int text_ranges(const struct sf_target *t, struct sf_range **ranges, size_t *nranges)
{
	size_t i;

	for (i = 0; i < t->info.ntext; i++) {
		struct sf_range *rs, *nv;
		size_t n;

		if (t->has_sframe) {
			if (sf_parts_ranges(&t->parts, t->info.text[i].start, t->info.text[i].end,
					    &rs, &n))
				return -1;
		} else {
			rs = malloc(sizeof(*rs));
			if (!rs)
				return -1;
			rs[0] = (struct sf_range){ t->info.text[i].start, t->info.text[i].end, NULL };
			n = 1;
		}
		nv = realloc(*ranges, (*nranges + n) * sizeof(*nv));
		if (!nv) {
			free(rs);
			return -1;
		}
		*ranges = nv;
		memcpy(*ranges + *nranges, rs, n * sizeof(*rs));
		*nranges += n;
		free(rs);
	}
	return 0;
}

/* One module table over all the ranges; return as open_sframe(). */
static int add_modules(const char *path, struct sf_target *t, const struct sf_range *ranges,
		       size_t nranges, char *err, size_t errlen)
{
	size_t i;
	int r;

	t->slots = calloc(nranges ? nranges : 1, sizeof(*t->slots));
	if (!t->slots || nranges > UINT32_MAX)
		return SF_INPUT_EIO;
	sframe_modules_init(&t->modules, t->slots, (uint32_t)nranges);
	for (i = 0; i < nranges; i++) {
		r = sframe_modules_add(&t->modules, ranges[i].start, ranges[i].end, ranges[i].sec,
				       NULL);
		if (r) {
			snprintf(err, errlen, "%s: executable segment at 0x%" PRIx64 ": %s", path,
				 ranges[i].start, sframe_strerror(r));
			return SF_INPUT_EFORMAT;
		}
	}
	return 0;
}

int sf_target_load(const char *path, const struct sf_sframe_opts *opts, struct sf_target *t,
		   char *err, size_t errlen)
{
	struct sf_range *ranges = NULL;
	size_t nranges = 0;
	int r;

	memset(t, 0, sizeof(*t));
	r = load_input(path, opts, t, err, errlen);
	if (r)
		return r;
	if (t->in.is_rel || strcmp(t->in.how, "raw") == 0) {
		snprintf(err, errlen, "%s: not a linked ELF executable or library", path);
		r = SF_INPUT_EFORMAT;
	} else if (sf_elf_info_load(&t->in, &t->info, err, errlen)) {
		r = SF_INPUT_EFORMAT;
	} else {
		r = open_sframe(path, t, err, errlen);
	}
	/* Every segment's ranges first, then one table over them all. */
	if (!r && text_ranges(t, &ranges, &nranges))
		r = SF_INPUT_EIO;
	if (!r)
		r = add_modules(path, t, ranges, nranges, err, errlen);
	free(ranges);
	/* Out of memory is not the file's fault: the same exit status as a failed read. */
	if (r == SF_INPUT_EIO)
		snprintf(err, errlen, "%s: out of memory", path);
	if (r)
		sf_target_free(t);
	return r;
}

void sf_target_free(struct sf_target *t)
{
	free(t->slots);
	sf_parts_free(&t->parts);
	sf_elf_info_free(&t->info);
	sf_input_free(&t->in);
	sf_sframe_found_free(&t->found);
	memset(t, 0, sizeof(*t));
}

/* Was DWARF register @reg recorded? (FP and RA are fields of their own.) */
static bool sample_has(const struct sf_sample *smp, unsigned reg)
{
	return !(smp->regs_missing >> reg & 1);
}

void sf_sample_regs(uint8_t abi, const struct sf_sample *smp, struct sframe_regs *regs)
{
	const struct sf_abi *a = sf_abi_of_sframe(abi);
	int fp, ra;

	memset(regs, 0, sizeof(*regs));
	regs->pc = smp->pc;
	regs->sp = smp->sp;
	regs->valid = SFRAME_REG_PC | SFRAME_REG_SP;
	/*
	 * FP and the link register, unless the sample lacks them (a perf
	 * event's register mask may): a rule that needs them then fails as for
	 * any register the sample does not have. x86-64's return address is
	 * on the stack: its DWARF column is no register.
	 */
	fp = sframe_abi_fp_reg(abi);
	ra = a && a->prstatus->ra != SF_ABI_NO_REG ? sframe_abi_ra_reg(abi) : -1;
	if (fp >= 0 && sample_has(smp, (unsigned)fp)) {
		regs->fp = smp->fp;
		regs->valid |= SFRAME_REG_FP;
	}
	if (ra >= 0 && sample_has(smp, (unsigned)ra)) {
		regs->ra = smp->ra;
		regs->valid |= SFRAME_REG_RA;
	}
}

void sf_target_unwinder(const struct sf_target *t, const struct sf_sample *smp, uint32_t flags,
			struct sframe_unwinder *u, struct sframe_regs *regs)
{
	memset(u, 0, sizeof(*u));
	u->abi = t->abi;
	u->flags = flags;
	u->modules = &t->modules;
	u->read_stack = sf_sample_read;
	u->stack_ctx = (void *)smp;
	u->get_reg = sf_sample_get_reg;
	u->reg_ctx = (void *)smp;
	sf_sample_regs(u->abi, smp, regs);
}

int sf_target_unwind(const struct sf_target *t, const struct sf_sample *smp, uint32_t flags,
		     struct sframe_frame *frames, uint32_t max, uint32_t *n)
{
	struct sframe_unwinder u;
	struct sframe_regs regs;

	sf_target_unwinder(t, smp, flags, &u, &regs);
	return sframe_unwind_stack(&u, &regs, frames, max, n);
}
