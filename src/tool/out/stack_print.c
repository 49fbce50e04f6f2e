/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * stack_print.c - one thread's walk as "sframe stack" prints it, for a
 * live process (cmd/cmd_stack.c) and a core file (cmd/cmd_core.c) alike:
 * a line a frame with its symbol, module and marks, then why the walk
 * stopped.
 */
#include "out/stack_print.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Return addresses are looked up at PC - 1: a call may end its function. */
static uint64_t lookup_pc(const struct sframe_frame *f)
{
	bool exact = f->flags & (SFRAME_FRAME_TOPMOST | SFRAME_FRAME_INTERRUPTED);

	return !exact && f->pc ? f->pc - 1 : f->pc;
}

/*
 * The section whose row the walk's step from @f applied (its lookup PC's
 * module's), or NULL: the walk marks the frames no SFrame row described
 * (SFRAME_FRAME_NO_SFRAME: a gap, a function without rows that is not an
 * outermost or signal frame, a module without a section). The last frame
 * of a walk the frame array ended was looked at by no step: it counts as
 * its module's.
 */
static const struct sframe_section *frame_section(const struct sf_proc_modules *pm,
						  const struct sframe_frame *f)
{
	const struct sframe_module *m;

	if (f->flags & SFRAME_FRAME_NO_SFRAME)
		return NULL;
	m = sframe_modules_find(&pm->table, lookup_pc(f));
	return m ? m->sec : NULL;
}

static void print_frame(FILE *out, const struct sf_proc_modules *pm,
			const struct sframe_frame *f, unsigned int idx)
{
	uint64_t at = lookup_pc(f);
	const struct sf_proc_image *img = sf_proc_image_at(pm, at);
	const struct sframe_section *part = frame_section(pm, f);
	const struct sf_symbol *s = NULL;

	/* "#%-2u 0x%016" as eu-stack prints it: "#0  0x...", "#10 0x...". */
	fprintf(out, "#%-2u 0x%016" PRIx64, idx, f->pc);
	if (img && img->bias_known)
		s = sf_symbol_find(&img->file->info, at - img->bias);
	if (s)
		fprintf(out, " %s+0x%" PRIx64, s->name, f->pc - (s->addr + img->bias));
	else
		fputs(" ??", out);
	if (img)
		fprintf(out, " - %s", img->file->key_path);
	if (f->flags & SFRAME_FRAME_FP_FALLBACK)
		fputs(" [fp]", out);
	if (!part)
		fputs(" [no sframe]", out);
	else if (img && (img->file->found.from >= SF_SFRAME_SIDECAR ||
			 sf_parts_is_supplement(&img->parts, part)))
		fputs(" [converted]", out);
	if (f->flags & SFRAME_FRAME_SIGNAL)
		fputs(" [signal]", out);
	if (f->flags & SFRAME_FRAME_RA_SIGNED)
		fputs(" [pac]", out);
	fputc('\n', out);
}

static void print_stop(FILE *out, const struct sf_proc_modules *pm,
		       const struct sframe_frame *last, int r, bool fp_fallback)
{
	if (r == SFRAME_UNWIND_END) {
		if (last && !frame_section(pm, last))
			fputs("stop: end of the frame-pointer chain\n", out);
		else
			fputs("stop: outermost frame\n", out);
	} else if (r == SFRAME_UNWIND_FULL || r == -SFRAME_ERR_DEPTH) {
		fprintf(out, "stop: %d frames shown, more not walked\n", SF_STACK_MAX_FRAMES);
	} else if (r == -SFRAME_ERR_NOT_FOUND) {
		const struct sf_proc_image *img = last ? sf_proc_image_at(pm, lookup_pc(last)) : NULL;

		fprintf(out, "stop: no SFrame for 0x%" PRIx64, last ? last->pc : 0);
		if (!img)
			fputs(": not in a mapped file", out);
		else if (!img->has_sec && img->file->why[0])
			fprintf(out, ": %s", img->file->why);
		fprintf(out, "%s\n", fp_fallback ? "" : " (--fp-fallback follows frame pointers)");
	} else if (r < 0 && r > -SFRAME_ERR_BASE) {
		fprintf(out, "stop: cannot read the stack: %s\n", strerror(-r));
	} else {
		fprintf(out, "stop: %s (%s)\n", sframe_strerror(r), sframe_errname(r));
	}
}

void sf_stack_print_walk(FILE *out, struct sf_proc_modules *pm, struct sf_arch_regs *regs,
			 sframe_read_fn read_mem, void *mem_ctx, bool fp_fallback)
{
	static struct sframe_frame frames[SF_STACK_MAX_FRAMES];
	struct sframe_unwinder u;
	uint32_t n = 0, i;
	int r;

	memset(&u, 0, sizeof(u));
	u.abi = pm->abi;
	u.flags = fp_fallback ? SFRAME_UNWIND_FP_FALLBACK : 0;
	u.max_depth = SF_STACK_MAX_FRAMES + 1;	/* the array's end stops the walk first */
	u.modules = &pm->table;
	u.read_stack = read_mem;
	u.stack_ctx = mem_ctx;
	u.get_reg = sf_arch_get_reg;
	u.reg_ctx = regs;

	/*
	 * A file whose conversion was put off is converted when the walk
	 * reaches it, and the walk made again: once per file at most.
	 */
	for (;;) {
		bool again = false;

		r = sframe_unwind_stack(&u, &regs->regs, frames, SF_STACK_MAX_FRAMES, &n);
		for (i = 0; i < n && !again; i++)
			again = sf_proc_modules_convert_at(pm, lookup_pc(&frames[i])) == 1;
		if (!again)
			break;
	}
	for (i = 0; i < n; i++)
		print_frame(out, pm, &frames[i], i);
	print_stop(out, pm, n ? &frames[n - 1] : NULL, r, fp_fallback);
}
