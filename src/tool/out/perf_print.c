/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * perf_print.c - the output of "sframe perf", apart from the session that
 * reads and walks the recording (cmd/cmd_perf.c): what perf script prints
 * of each sample, to the byte, so that the tools that read its output read
 * this one, and the names of the stacks that --folded and --flamegraph
 * count.
 */
#include "out/perf_print.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Callchain context markers (perf_event.h). */
#define CONTEXT_MAX		((uint64_t)-4095)
#define CONTEXT_KERNEL		((uint64_t)-128)

#define MAX_FOLD_KERNEL 1024	/* kernel frames kept per folded stack */

const char *const sf_perf_stop_names[SF_PERF_STOP_CLASSES] = {
	"reached the outermost frame", "no SFrame", "stack copy too short",
	"--max-stack reached", "errors", "no user registers",
};

int sf_perf_out_init(struct sf_perf_out *po, uint32_t max_stack)
{
	po->names = calloc((size_t)max_stack + 1 + MAX_FOLD_KERNEL, sizeof(*po->names));
	po->offs = calloc((size_t)max_stack + 1 + MAX_FOLD_KERNEL, sizeof(*po->offs));
	if (!po->names || !po->offs || sf_fold_init(&po->fold))
		return -1;
	return 0;
}

void sf_perf_out_free(struct sf_perf_out *po)
{
	sf_fold_free(&po->fold);
	sf_kallsyms_free(&po->ksyms);
	free(po->names);
	free(po->offs);
	free(po->namebuf);
}

uint64_t sf_perf_kernel_frames(const struct sf_perf_file *f, const struct sf_perf_sample *s,
			       uint64_t *first)
{
	uint64_t i, n = 0;
	bool kernel = false;

	*first = 0;
	for (i = 0; i < s->callchain_nr; i++) {
		uint64_t ip = sf_perf_u64(f, s->callchain + 8 * i);

		if (ip >= CONTEXT_MAX) {
			if (kernel)
				break;
			kernel = ip == CONTEXT_KERNEL;
			*first = i + 1;
			continue;
		}
		if (kernel)
			n++;
	}
	return n;
}

/* The event's name as the recording gives it, else perf's name of a generic event. */
static const char *event_name(const struct sf_perf_attr *a, char *buf, size_t len)
{
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses", "branches",
		"branch-misses", "bus-cycles", "stalled-cycles-frontend",
		"stalled-cycles-backend", "ref-cycles",
	};
	static const char *const sw[] = {
		"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
		"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
		"bpf-output", "cgroup-switches",
	};

	if (a->name)
		return a->name;
	if (a->type == 0 && a->config < sizeof(hw) / sizeof(hw[0]))
		return hw[a->config];
	if (a->type == 1 && a->config < sizeof(sw) / sizeof(sw[0]))
		return sw[a->config];
	snprintf(buf, len, "event %" PRIu32 ":0x%" PRIx64, a->type, a->config);
	return buf;
}

int sf_perf_event_width(const struct sf_perf_file *f)
{
	char ev[64];
	size_t i, len;
	int width = 0;

	for (i = 0; i < f->nattrs; i++) {
		len = strlen(event_name(&f->attrs[i], ev, sizeof(ev)));
		if (len > (size_t)width && len < 4096)
			width = (int)len;
	}
	return width;
}

/* A caller's PC is its return address: the call is the byte before (perf prints that too). */
static uint64_t frame_pc(const struct sframe_frame *fr)
{
	bool exact = fr->flags & (SFRAME_FRAME_TOPMOST | SFRAME_FRAME_INTERRUPTED);

	return !exact && fr->pc ? fr->pc - 1 : fr->pc;
}

/**
 * struct where - what a user address is in a process.
 * @addr: the address as perf prints it: its offset in the mapped file (the
 *	mapping's file offset plus the distance from its start: for most
 *	shared libraries and position-independent programs the ELF address,
 *	not for an executable linked at 0x400000) when the file is known,
 *	else the address itself.
 * @sym: its symbol, or NULL.
 * @off: the offset into @sym.
 * @dso: the mapped file's path, or "[unknown]".
 * @short_dso: its last path component.
 */
struct where {
	uint64_t addr;
	const struct sf_symbol *sym;
	uint64_t off;
	const char *dso;
	const char *short_dso;
};

static void locate(const struct sf_perf_proc *p, uint64_t pc, struct where *w)
{
	const struct sf_proc_image *img = p->built ? sf_proc_image_at(&p->pm, pc) : NULL;
	const char *slash;

	memset(w, 0, sizeof(*w));
	w->addr = pc;
	w->dso = "[unknown]";
	if (img) {
		w->dso = img->file->key_path;
		if (img->bias_known) {
			const struct sf_elf_info *info = &img->file->info;
			const uint64_t at = pc - img->bias;
			size_t i;

			w->addr = at;
			w->sym = sf_symbol_find(info, at);
			if (w->sym)
				w->off = at - w->sym->addr;
			for (i = 0; i < info->ntext; i++) {
				if (at >= info->text[i].start && at < info->text[i].end) {
					w->addr = at - info->text[i].start + info->text[i].offset;
					break;
				}
			}
		}
	}
	slash = strrchr(w->dso, '/');
	w->short_dso = slash ? slash + 1 : w->dso;
}

/*
 * One frame line, "\t%16" PRIx64 " NAME+0xOFF (DSO)\n" as perf script
 * prints it, formatted here: printf's parsing was most of the time spent
 * printing a profile.
 */
static void put_frame(FILE *out, uint64_t addr, const char *name, uint64_t off, const char *dso)
{
	static const char digits[] = "0123456789abcdef";
	char buf[48], *p = buf + sizeof(buf), *start;
	uint64_t v = addr;

	do {
		*--p = digits[v & 15];
		v >>= 4;
	} while (v);
	while (p > buf + sizeof(buf) - 16)
		*--p = ' ';
	*--p = '\t';
	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), out);
	fputc(' ', out);
	fputs(name ? name : "[unknown]", out);
	if (name) {
		p = buf + sizeof(buf);
		v = off;
		do {
			*--p = digits[v & 15];
			v >>= 4;
		} while (v);
		start = p - 3;
		memcpy(start, "+0x", 3);
		fwrite(start, 1, (size_t)(buf + sizeof(buf) - start), out);
	}
	fputs(" (", out);
	fputs(dso, out);
	fputs(")\n", out);
}

enum sf_perf_stop sf_perf_stop_reason(const struct sf_perf_proc *p,
				      const struct sframe_frame *last, uint32_t n, int r,
				      const struct sf_sample *smp, char *buf, size_t len)
{
	struct where w;

	buf[0] = '\0';
	if (r == SFRAME_UNWIND_END)
		return SF_PERF_STOP_END;
	if (r == SFRAME_UNWIND_FULL || r == -SFRAME_ERR_DEPTH) {
		snprintf(buf, len, "%" PRIu32 " frames shown, more not walked (--max-stack)", n);
		return SF_PERF_STOP_DEPTH;
	}
	if (r == -SFRAME_ERR_NOT_FOUND && last) {
		const struct sf_proc_image *img = p->built ? sf_proc_image_at(&p->pm, frame_pc(last))
							   : NULL;

		locate(p, frame_pc(last), &w);
		if (!img)
			snprintf(buf, len, "no SFrame for 0x%" PRIx64 ": not in a mapped file",
				 last->pc);
		else
			snprintf(buf, len, "no SFrame for 0x%" PRIx64 " in %s%s%s", last->pc,
				 w.dso, img->file->why[0] ? ": " : "", img->file->why);
		return SF_PERF_STOP_NO_SFRAME;
	}
	if (r == -SFRAME_ERR_READ) {
		snprintf(buf, len, "the stack copy ends: %" PRIu64 " bytes from SP 0x%" PRIx64
			 " recorded", smp->stack_len, smp->stack_addr);
		return SF_PERF_STOP_COPY;
	}
	snprintf(buf, len, "%s, %s", sframe_strerror(r), sframe_errname(r));
	return SF_PERF_STOP_ERROR;
}

/* Append @name to the name buffer; its offset goes to @po->offs[(*count)++]. */
static int put_name(struct sf_perf_out *po, size_t *used, const char *name, size_t *count)
{
	size_t len = strlen(name) + 1;

	if (len > po->namebuf_len - *used) {
		size_t nl = (po->namebuf_len + len) * 2;
		char *nb = realloc(po->namebuf, nl);

		if (!nb)
			return -ENOMEM;
		po->namebuf = nb;
		po->namebuf_len = nl;
	}
	memcpy(po->namebuf + *used, name, len);
	po->offs[(*count)++] = *used;
	*used += len;
	return 0;
}

/* A kernel frame's line; its symbol from kallsyms. */
static void print_kernel_line(struct sf_perf_out *po, uint64_t addr)
{
	const struct sf_ksym *k = sf_kallsyms_find(&po->ksyms, po->files, po->quiet, addr);

	put_frame(po->out, addr, k ? k->name : NULL, k ? addr - k->addr : 0,
		  k && k->module ? k->module : "[kernel.kallsyms]");
}

/* Kernel frame @i of @sh's callchain. */
static uint64_t kernel_pc(const struct sf_perf_out *po, const struct sf_perf_shown *sh, uint64_t i)
{
	return sf_perf_u64(po->f, sh->s->callchain + 8 * (sh->kfirst + i));
}

void sf_perf_print_sample(struct sf_perf_out *po, const struct sf_perf_shown *sh,
			  int event_width)
{
	const struct sf_perf_sample *s = sh->s;
	char ev[64];
	uint64_t i;

	fprintf(po->out, "%s %5" PRIu32 " %5" PRIu64 ".%06" PRIu64 ": %10" PRIu64 " %*s: \n",
		sh->comm, s->sid.tid, s->sid.time / 1000000000u, s->sid.time % 1000000000u / 1000u,
		s->period, event_width, event_name(s->attr, ev, sizeof(ev)));
	for (i = 0; i < sh->nk; i++)
		print_kernel_line(po, kernel_pc(po, sh, i));
	for (i = 0; i < sh->n; i++) {
		struct where wh;

		locate(sh->p, frame_pc(&sh->frames[i]), &wh);
		put_frame(po->out, wh.addr, wh.sym ? wh.sym->name : NULL, wh.off, wh.dso);
	}
	if (sh->why[0])
		fprintf(po->out, "\t# stop: %s\n", sh->why);
	fputc('\n', po->out);
}

int sf_perf_fold_sample(struct sf_perf_out *po, const struct sf_perf_shown *sh)
{
	size_t used = 0, count = 0, i;
	uint64_t nk = sh->nk > MAX_FOLD_KERNEL ? MAX_FOLD_KERNEL : sh->nk;

	/* Outermost first: the process, its user frames, then the kernel's. */
	if (put_name(po, &used, sh->comm, &count))
		return -ENOMEM;
	for (i = sh->n; i-- > 0;) {
		struct where wh;
		char b[300];

		locate(sh->p, frame_pc(&sh->frames[i]), &wh);
		if (!wh.sym)
			snprintf(b, sizeof(b), "[%.290s]", wh.short_dso);
		if (put_name(po, &used, wh.sym ? wh.sym->name : b, &count))
			return -ENOMEM;
	}
	for (i = nk; i-- > 0;) {
		const struct sf_ksym *k = sf_kallsyms_find(&po->ksyms, po->files, po->quiet,
							   kernel_pc(po, sh, i));

		if (put_name(po, &used, k ? k->name : "[kernel.kallsyms]", &count))
			return -ENOMEM;
	}
	/* The buffer may have moved while it grew: point at the names now. */
	for (i = 0; i < count; i++)
		po->names[i] = po->namebuf + po->offs[i];
	return sf_fold_add(&po->fold, po->names, count, 1);
}
