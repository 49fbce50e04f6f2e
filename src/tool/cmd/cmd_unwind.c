/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * cmd_unwind.c - unwind stack snapshots offline and print each walk:
 *
 *   sample 0: pc 0x4015e4 sp 0x55007ffe80
 *     #0   0x00000000004015e4 big_frame+0x64
 *     #1   0x0000000000401814 with_alloca+0x110 [pac]
 *     ...
 *     stop: no SFrame row for 0x401a90
 *
 * Frame marks: [fp] found by the frame-pointer fallback, [signal] a signal
 * trampoline, [pac] a PAuth-signed return address was stripped.
 *
 * As a profiler would, each sample's stack copy is given to the unwinder as
 * its window and one cache of decoded rows serves all the samples of a run
 * (the walks are those of the plain unwinder, frame for frame).
 */
#include "cmd/cmd_unwind.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tool_cli.h"
#include "target/unwind_target.h"

#define MAX_FRAMES 256
#define CACHE_ENTRIES 1024

const char sf_unwind_usage[] =
	"Usage: sframe unwind --elf EXE [--fp-fallback] [--sframe-dir DIR]... [--no-convert] SNAPSHOT...\n"
	"\n"
	"Walk the stack of every sample in each SNAPSHOT file (registers and a copy of\n"
	"the stack, as a profiler records them, taken from a process running EXE)\n"
	"with the SFrame section of EXE; an EXE without one, with its side-car\n"
	"(sframe convert), found by build id, or else its .eh_frame converted.\n"
	"\n"
	"Options:\n"
	"  --elf EXE      the executable (or shared library) the samples were taken from\n"
	"  --fp-fallback  follow frame pointers through code without SFrame\n"
	SF_SFRAME_OPTS_HELP
	"  -h, --help     show this help\n"
	"\n"
	"Output, per sample: 'sample N: pc 0xPC sp 0xSP', one line per frame\n"
	"  #N   0xPC SYMBOL+0xOFFSET [marks]\n"
	"(?? for an unknown symbol; marks: [fp] found by following frame pointers,\n"
	"[signal] a signal frame, [pac] a PAuth-signed return address, stripped), then\n"
	"'  stop: REASON', why the walk ended.\n"
	"\n"
	SF_EXIT_STATUS_TEXT;

static void print_symbol(const struct sf_target *t, const struct sframe_frame *f)
{
	/* A return address may be just past its function: name PC - 1. */
	bool ret_addr = !(f->flags & (SFRAME_FRAME_TOPMOST | SFRAME_FRAME_INTERRUPTED));
	uint64_t at = ret_addr && f->pc ? f->pc - 1 : f->pc;
	const struct sf_symbol *s = sf_symbol_find(&t->info, at);

	if (s)
		printf(" %s+0x%" PRIx64, s->name, f->pc - s->addr);
	else
		printf(" ??");
}

static void print_stop(const struct sframe_frame *last, int r)
{
	if (r == SFRAME_UNWIND_END)
		printf("  stop: outermost frame\n");
	else if (r == SFRAME_UNWIND_FULL)
		printf("  stop: %d frames shown, more not walked\n", MAX_FRAMES);
	else if (r == -SFRAME_ERR_NOT_FOUND)
		printf("  stop: no SFrame row for 0x%" PRIx64 "\n", last ? last->pc : 0);
	else
		printf("  stop: %s (%s)\n", sframe_strerror(r), sframe_errname(r));
}

static int unwind_file(const struct sf_target *t, const char *path, uint32_t flags,
		       struct sframe_unwind_cache *cache)
{
	static struct sframe_frame frames[MAX_FRAMES];
	struct sframe_unwinder u;
	struct sframe_regs regs;
	struct sf_snapshot snap;
	struct sf_sample smp;
	char err[512];
	unsigned long idx = 0;
	uint32_t n, i;
	int r;

	r = sf_snapshot_open(path, &snap, err, sizeof(err));
	if (r) {
		fprintf(stderr, "sframe: %s\n", err);
		return r == SF_SNAP_EIO ? SF_EXIT_USAGE : SF_EXIT_BAD;
	}
	if (sf_machine_abi(snap.machine, t->abi) != t->abi) {
		char m1[32], m2[32];

		fprintf(stderr, "sframe: %s: a snapshot of %s code, but the executable is for %s\n",
			path, sf_machine_name(snap.machine, m1, sizeof(m1)),
			sf_machine_name(t->info.machine, m2, sizeof(m2)));
		sf_snapshot_close(&snap);
		return SF_EXIT_BAD;
	}
	while ((r = sf_snapshot_next(&snap, &smp, err, sizeof(err))) == 1) {
		printf("sample %lu: pc 0x%" PRIx64 " sp 0x%" PRIx64 "\n", idx++, smp.pc, smp.sp);
		sf_target_unwinder(t, &smp, flags, &u, &regs);
		u.cache = cache;
		u.stack_data = smp.stack;
		u.stack_addr = smp.stack_addr;
		u.stack_len = smp.stack_len;
		r = sframe_unwind_stack(&u, &regs, frames, MAX_FRAMES, &n);
		for (i = 0; i < n; i++) {
			printf("  #%-3u 0x%016" PRIx64, i, frames[i].pc);
			print_symbol(t, &frames[i]);
			if (frames[i].flags & SFRAME_FRAME_FP_FALLBACK)
				printf(" [fp]");
			if (frames[i].flags & SFRAME_FRAME_SIGNAL)
				printf(" [signal]");
			if (frames[i].flags & SFRAME_FRAME_RA_SIGNED)
				printf(" [pac]");
			putchar('\n');
		}
		print_stop(n ? &frames[n - 1] : NULL, r);
	}
	sf_snapshot_close(&snap);
	if (r < 0) {
		fprintf(stderr, "sframe: %s: %s\n", path, err);
		return SF_EXIT_BAD;
	}
	return SF_EXIT_OK;
}

#define usage_error(...) sf_cli_usage_error("sframe", "unwind", __VA_ARGS__)

/* What the command line asks for. */
struct unwind_args {
	const char *elf;
	uint32_t flags;
	struct sf_sframe_opts opts;
};

/* Parse argv into @a; return -1 to go on, or an exit status. */
static int parse_args(int argc, char **argv, struct unwind_args *a)
{
	int i, r, files = 0;
	size_t k;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (strcmp(arg, "--elf") == 0) {
			if (i + 1 == argc)
				return usage_error("option '--elf' needs a file");
			a->elf = argv[++i];
		} else if (strncmp(arg, "--elf=", 6) == 0) {
			a->elf = arg + 6;
		} else if (strcmp(arg, "--fp-fallback") == 0) {
			a->flags |= SFRAME_UNWIND_FP_FALLBACK;
		} else if ((k = (size_t)i, r = sf_sframe_opt(argc, argv, &k, &a->opts, "unwind"))) {
			if (r < 0)
				return -r;
			i = (int)k;
		} else if (arg[0] == '-' && arg[1]) {
			r = sf_cli_info_option(arg, "sframe", sf_unwind_usage);
			if (r >= 0)
				return r;
			return usage_error("unknown option '%s'", arg);
		} else {
			files++;
		}
	}
	if (!a->elf)
		return usage_error("missing --elf EXE");
	if (files == 0)
		return usage_error("missing SNAPSHOT");
	return -1;
}

/* Load EXE and say what its SFrame is; returns -1 to go on, or an exit status. */
static int load_target(const struct unwind_args *a, struct sf_target *t)
{
	char err[512];
	int r = sf_target_load(a->elf, &a->opts, t, err, sizeof(err));

	if (r) {
		fprintf(stderr, "sframe: %s\n", err);
		return r == SF_INPUT_EIO ? SF_EXIT_USAGE : SF_EXIT_BAD;
	}
	if (!t->has_sframe)
		fprintf(stderr, "sframe: %s: warning: no SFrame data: the .sframe %s is empty\n",
			a->elf, t->in.how);
	else
		sf_parts_warn(&t->parts, a->elf, "unwind");
	sf_sframe_found_report(stderr, "sframe: unwind", a->elf, &t->found);
	return -1;
}

int sf_cmd_unwind(int argc, char **argv)
{
	static struct sframe_cache_entry entries[CACHE_ENTRIES];
	struct unwind_args a = { .elf = NULL, .flags = 0, .opts = { .ndirs = 0 } };
	struct sframe_unwind_cache cache;
	struct sf_target t;
	int i, r, status = 0;

	r = parse_args(argc, argv, &a);
	if (r >= 0)
		return r;
	r = load_target(&a, &t);
	if (r >= 0)
		return r;
	/* One module table for the whole run: one cache. */
	sframe_unwind_cache_init(&cache, entries, CACHE_ENTRIES);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--elf") == 0 || strcmp(argv[i], "--sframe-dir") == 0) {
			i++;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1])
			continue;
		r = unwind_file(&t, argv[i], a.flags, &cache);
		if (r > status)
			status = r;
	}
	sf_target_free(&t);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "sframe: write error on standard output\n");
		status = SF_EXIT_USAGE;
	}
	return status;
}
