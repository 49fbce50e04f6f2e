/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * cmd_perf.c - print the samples of a perf.data file recorded with
 * "perf record --call-graph=dwarf" (user registers and a copy of the user
 * stack in every sample), their user stacks unwound with the SFrame
 * sections of the files the processes had mapped, in perf script's layout
 * (its fields comm,tid,time,period,event,ip,sym,symoff,dso):
 *
 *   prog 4242 25759.535710:   10101010 cpu-clock:
 *   	ffffffff81a0b2c7 [unknown] ([kernel.kallsyms])
 *   	            11ee leaf+0x1e (/usr/bin/prog)
 *   	            1214 main+0x14 (/usr/bin/prog)
 *   	           27249 [unknown] (/usr/lib/x86_64-linux-gnu/libc.so.6)
 *   	# stop: no SFrame for 0x7f3a1c02724a in /usr/lib/x86_64-linux-gnu/libc.so.6
 *
 * or as collapsed stacks (--folded) or a flame graph (--flamegraph).
 *
 * The records are processed in time order, as perf does (perf/perf_order.c);
 * the processes, threads and their mappings are perf/perf_procs.c's, the
 * files they mapped are read where perf/buildid_cache.c finds them (perf's
 * build-id cache, the paths, --symfs), kernel frames are named by
 * perf/kallsyms.c. Per process the mappings become a module table over one
 * set of files shared by all processes: each file is loaded and its
 * .sframe opened once.
 */
#include "cmd/cmd_perf.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sframe/sframe_unwind.h>

#include "out/flamegraph.h"
#include "out/perf_print.h"
#include "perf/buildid_cache.h"
#include "perf/kallsyms.h"
#include "perf/perf_order.h"
#include "perf/perf_procs.h"
#include "perf/perf_walk.h"
#include "read/perf_data.h"
#include "target/perf_regs.h"
#include "read/proc_maps.h"
#include "tool_cli.h"
#include "target/unwind_target.h"

#define DEFAULT_MAX_STACK 127	/* perf's own default (kernel.perf_event_max_stack) */

const char sf_perf_usage[] =
	"Usage: sframe perf [--folded | --flamegraph OUT] [--max-stack N] [--symfs DIR] [--buildid-dir DIR] [--fp-fallback] [--sframe-dir DIR]... [--no-convert] [--quiet] FILE\n"
	"\n"
	"Print the samples of FILE, a perf.data file recorded with\n"
	"'perf record --call-graph=dwarf', their user stacks unwound with the SFrame\n"
	"sections of the executables and libraries the processes had mapped. FILE\n"
	"'-' reads standard input.\n"
	"\n"
	"Each recorded file is read, as perf script reads it, from perf's build-id\n"
	"cache when it holds a copy (DIR/.build-id/NN/REST/elf, the file as it was\n"
	"recorded; also the vDSO and kallsyms), else from the path the recording\n"
	"names; a file whose build id is not the recorded one is not used. A file\n"
	"without SFrame gets its side-car (sframe convert), found by build id, or\n"
	"else a section converted from its .eh_frame; the summary names each.\n"
	"\n"
	"Options:\n"
	"  --folded             print collapsed stacks, one line per distinct stack:\n"
	"                       'comm;outermost;...;leaf COUNT'\n"
	"  --flamegraph OUT     write an interactive SVG flame graph to OUT\n"
	"  --max-stack N        at most N user frames per sample (default 127)\n"
	"  --symfs DIR          read the recorded files under DIR: DIR/PATH, else\n"
	"                       DIR/BASENAME; debug files under DIR/usr/lib/debug\n"
	"  --buildid-dir DIR    perf's build-id cache (default: $PERF_BUILDID_DIR,\n"
	"                       else buildid.dir of ~/.perfconfig or\n"
	"                       /etc/perfconfig, else ~/.debug)\n"
	"  --fp-fallback        follow frame pointers through code without SFrame\n"
	"  --sframe-dir DIR     look for side-cars in DIR/.build-id/NN/REST.sframe\n"
	"                       (repeatable; then in " SF_SFRAME_DIR ")\n"
	"  --no-convert         without a side-car, do not convert a file's .eh_frame\n"
	"  -q, --quiet          no progress and no summary on standard error\n"
	"  -h, --help           show this help\n"
	"\n"
	"Output, as 'perf script -F comm,tid,time,period,event,ip,sym,symoff,dso'\n"
	"prints it: per sample 'COMM TID TIME: PERIOD EVENT:', then one line per\n"
	"frame, kernel frames first, then user frames,\n"
	"  <tab>ADDRESS SYMBOL+0xOFFSET (DSO)\n"
	"(addresses in a file relative to it, as perf prints them; caller frames at\n"
	"the return address minus one; [unknown] for no symbol), then, when the walk\n"
	"ended before the outermost frame, '<tab># stop: REASON', and a blank line.\n"
	"A summary of the walks goes to standard error.\n"
	"\n"
	SF_EXIT_STATUS_TEXT;

#define usage_error(...) sf_cli_usage_error("sframe", "perf", __VA_ARGS__)

/* ---- The run ----------------------------------------------------------------------- */

enum out_mode { OUT_SCRIPT, OUT_FOLDED, OUT_FLAMEGRAPH };

struct run {
	const char *path;
	struct sf_perf_file f;
	enum out_mode mode;
	struct sf_perf_out po;		/* the text, or the folded stacks; kallsyms */
	bool quiet;
	struct sf_perf_files files;	/* --symfs, the build-id cache, the recorded ids */
	bool ordered;		/* every record carries a time: sort them */
	int event_width;	/* the longest event name's length, 0 until known */

	struct sf_perf_walker walk;	/* the files, the machine, the frames of a walk */
	struct sf_perf_procs ps;

	struct sf_perf_order order;	/* the records waiting for their turn */

	uint64_t samples;
	uint64_t walks[SF_PERF_STOP_CLASSES];
	uint64_t frames_out;
	uint64_t lost;
	uint64_t bad_records;
	uint64_t records_done;
	uint64_t window_end;	/* the file mapped in ahead of here */
	uint64_t dropped;	/* the file unmapped below here */
	struct timespec last_progress;
	bool progress_shown;
	char err[1024];
};

/* ---- One sample ------------------------------------------------------------------------ */

static int do_sample(struct run *run, const struct sf_perf_record *rec)
{
	struct sf_perf_sample s;
	struct sf_perf_user_walk w;
	struct sf_perf_shown sh;
	struct sf_perf_thread *t;
	struct sf_perf_proc *p;
	enum sf_perf_stop cls = SF_PERF_STOP_NO_REGS;
	char why[600], tidname[24];

	if (sf_perf_decode_sample(&run->f, rec, &s, run->err, sizeof(run->err))) {
		run->bad_records++;
		if (run->bad_records <= 5)
			fprintf(stderr, "sframe: perf: %s\n", run->err);
		return 0;
	}
	run->samples++;
	t = sf_perf_thread_find(&run->ps, s.sid.tid);
	snprintf(tidname, sizeof(tidname), ":%" PRIu32, s.sid.tid);
	/* A process without mapping records still gets its topmost frame. */
	p = sf_perf_proc_get(&run->ps, s.sid.pid);
	if (!p || sf_perf_walk_user(&run->walk, p, &s, &w))
		return -ENOMEM;
	sh = (struct sf_perf_shown){ .s = &s, .comm = t && t->comm ? t->comm : tidname, .p = p,
				     .frames = run->walk.frames, .n = w.n, .why = why };
	sh.nk = sf_perf_kernel_frames(&run->f, &s, &sh.kfirst);
	snprintf(why, sizeof(why), "%s", w.why);
	if (w.have_regs)
		cls = sf_perf_stop_reason(p, w.n ? &run->walk.frames[w.n - 1] : NULL, w.n, w.r,
					  &w.smp, why, sizeof(why));
	else if (why[0])
		cls = SF_PERF_STOP_ERROR;
	run->walks[cls]++;
	run->frames_out += w.n;
	if (run->mode != OUT_SCRIPT)
		return sf_perf_fold_sample(&run->po, &sh);
	/* perf script right-aligns the event names to the longest one. */
	if (!run->event_width)
		run->event_width = sf_perf_event_width(&run->f);
	sf_perf_print_sample(&run->po, &sh, run->event_width);
	return 0;
}

/* ---- Other records ----------------------------------------------------------------------- */

static int do_mmap(struct run *run, const struct sf_perf_record *rec)
{
	struct sf_perf_mmap m;

	if (sf_perf_decode_mmap(&run->f, rec, &m, run->err, sizeof(run->err))) {
		run->bad_records++;
		if (run->bad_records <= 5)
			fprintf(stderr, "sframe: perf: %s\n", run->err);
		return 0;
	}
	if (m.has_build_id && sf_perf_mmap_is_code(rec, &m) &&
	    sf_perf_add_recorded_id(&run->files, m.filename, m.build_id, m.build_id_size))
		return -ENOMEM;
	return sf_perf_procs_mmap(&run->ps, rec, &m);
}

static int do_comm(struct run *run, const struct sf_perf_record *rec)
{
	struct sf_perf_comm c;

	if (sf_perf_decode_comm(&run->f, rec, &c, run->err, sizeof(run->err))) {
		run->bad_records++;
		return 0;
	}
	return sf_perf_procs_comm(&run->ps, rec, &c);
}

static int do_fork(struct run *run, const struct sf_perf_record *rec)
{
	struct sf_perf_task tk;

	if (sf_perf_decode_task(&run->f, rec, &tk, run->err, sizeof(run->err))) {
		run->bad_records++;
		return 0;
	}
	return sf_perf_procs_fork(&run->ps, &tk);
}

static int do_record(struct run *run, const struct sf_perf_record *rec)
{
	struct sf_perf_lost l;

	switch (rec->type) {
	case SF_PERF_RECORD_SAMPLE:
		return do_sample(run, rec);
	case SF_PERF_RECORD_MMAP:
	case SF_PERF_RECORD_MMAP2:
		return do_mmap(run, rec);
	case SF_PERF_RECORD_COMM:
		return do_comm(run, rec);
	case SF_PERF_RECORD_FORK:
		return do_fork(run, rec);
	case SF_PERF_RECORD_LOST:
		if (sf_perf_decode_lost(&run->f, rec, &l, run->err, sizeof(run->err)) == 0)
			run->lost += l.lost;
		return 0;
	default:
		return 0;	/* exits, and everything not needed to unwind */
	}
}

/* ---- Progress ----------------------------------------------------------------------- */

static void progress(struct run *run, uint64_t pos)
{
	struct timespec now;

	if (run->quiet || !isatty(STDERR_FILENO) || (++run->records_done & 0x3fff))
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (run->progress_shown && now.tv_sec - run->last_progress.tv_sec < 1)
		return;
	run->last_progress = now;
	run->progress_shown = true;
	fprintf(stderr, "\rsframe perf: %3u%% of %s, %" PRIu64 " samples",
		run->f.data_size ? (unsigned)(pos * 100 / run->f.data_size) : 0, run->path,
		run->samples);
}

static void progress_done(struct run *run)
{
	if (run->progress_shown)
		fputs("\r\033[K", stderr);
}

static void summary(const struct run *run)
{
	uint64_t walks = 0;
	int i;

	if (run->quiet)
		return;
	for (i = 0; i < SF_PERF_STOP_NO_REGS; i++)
		walks += run->walks[i];
	fprintf(stderr, "sframe perf: %" PRIu64 " samples, %" PRIu64 " user stacks unwound "
		"(%" PRIu64 " frames, %.2f us per stack)", run->samples, walks, run->frames_out,
		walks ? (double)run->walk.unwind_ns / 1000.0 / (double)walks : 0.0);
	for (i = 0; i < SF_PERF_STOP_CLASSES; i++) {
		if (run->walks[i])
			fprintf(stderr, "; %s: %" PRIu64, sf_perf_stop_names[i], run->walks[i]);
	}
	fputc('\n', stderr);
	if (run->lost)
		fprintf(stderr, "sframe perf: %" PRIu64 " records lost while recording\n",
			run->lost);
	if (run->bad_records)
		fprintf(stderr, "sframe perf: %" PRIu64 " records could not be decoded\n",
			run->bad_records);
	if (run->files.from_cache)
		fprintf(stderr, "sframe perf: %" PRIu64 " recorded file%s read from the build-id "
			"cache %s\n", run->files.from_cache, run->files.from_cache == 1 ? "" : "s",
			run->files.buildid_dir);
	sf_image_set_report(&run->walk.set, stderr, "sframe perf");
}

/* ---- The command ------------------------------------------------------------------- */

static bool parse_u32(const char *s, uint32_t *v)
{
	char *end;
	unsigned long x;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	x = strtoul(s, &end, 10);
	if (errno || *end || x == 0 || x > 65536)
		return false;
	*v = (uint32_t)x;
	return true;
}

/*
 * Standard input as a file that can be mapped: itself when it is a regular
 * file, else (a pipe from "perf record -o -") a copy in an unlinked
 * temporary file. NULL, with the message printed, on failure.
 */
static FILE *spool_stdin(char *path, size_t len)
{
	static char buf[1 << 16];
	struct stat st;
	FILE *tmp;
	size_t n;

	if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode)) {
		tmp = fdopen(dup(STDIN_FILENO), "rb");
	} else {
		tmp = tmpfile();
		while (tmp && (n = fread(buf, 1, sizeof(buf), stdin)) > 0) {
			if (fwrite(buf, 1, n, tmp) != n) {
				fprintf(stderr, "sframe: perf: cannot copy standard input to a "
					"temporary file: %s\n", strerror(errno));
				fclose(tmp);
				return NULL;
			}
		}
		if (tmp && (ferror(stdin) || fflush(tmp))) {
			fprintf(stderr, "sframe: perf: standard input: %s\n", strerror(errno));
			fclose(tmp);
			return NULL;
		}
	}
	if (!tmp) {
		fprintf(stderr, "sframe: perf: standard input: %s\n", strerror(errno));
		return NULL;
	}
	snprintf(path, len, "/proc/self/fd/%d", fileno(tmp));
	return tmp;
}

/* Every event carries a time on every record: then the records can be sorted. */
static bool all_timed(const struct sf_perf_file *f)
{
	size_t i;

	for (i = 0; i < f->nattrs; i++) {
		if (!(f->attrs[i].sample_type & SF_PERF_SAMPLE_TIME) || !f->attrs[i].sample_id_all)
			return false;
	}
	return true;
}

/*
 * The mapped file, window by window: the window ahead mapped in one call
 * (not a page fault every few pages), the pages behind the oldest record
 * still queued unmapped (the page cache keeps them; the process's resident
 * memory stays a few windows, however large the file).
 */
#define WINDOW (UINT64_C(32) << 20)

static void slide_window(struct run *run, uint64_t pos)
{
	uint64_t off = run->f.data_off + pos, low = off, page = (uint64_t)sysconf(_SC_PAGESIZE);
	unsigned char *base = run->f.in.file;
	size_t i;

	if (!run->f.in.mapped || off < run->window_end)
		return;
	run->window_end = off + WINDOW < run->f.in.file_size ? off + WINDOW : run->f.in.file_size;
#ifdef MADV_POPULATE_READ
	if (madvise(base + (off & ~(page - 1)), (size_t)(run->window_end - (off & ~(page - 1))),
		    MADV_POPULATE_READ) != 0)
#endif
		(void)madvise(base + (off & ~(page - 1)),
			      (size_t)(run->window_end - (off & ~(page - 1))), MADV_WILLNEED);
	for (i = 0; i < run->order.n; i++) {
		if (run->order.v[i].rec.offset < low)
			low = run->order.v[i].rec.offset;
	}
	low &= ~(page - 1);
	if (low > run->dropped + WINDOW) {
		(void)madvise(base + run->dropped, (size_t)(low - run->dropped), MADV_DONTNEED);
		run->dropped = low;
	}
}

/* The queue's callback: one record's turn. */
static int record_fn(void *ctx, const struct sf_perf_record *rec)
{
	return do_record(ctx, rec);
}

static int read_records(struct run *run)
{
	struct sf_perf_record rec;
	uint64_t pos = 0;
	int r;

	while ((r = sf_perf_next(&run->f, &pos, &rec, run->err, sizeof(run->err))) == 1) {
		progress(run, pos);
		slide_window(run, pos);
		if (!run->ordered) {
			r = do_record(run, &rec);
		} else if (rec.type == SF_PERF_RECORD_FINISHED_ROUND) {
			r = sf_perf_order_round(&run->order, record_fn, run);
		} else {
			r = sf_perf_order_add(&run->order, &run->f, &rec, run->err, sizeof(run->err));
		}
		if (r)
			return r;
	}
	if (r < 0)
		return r;
	if (pos < run->f.data_size && !run->quiet)
		fprintf(stderr, "sframe: perf: %s: the recording ends inside a record at offset "
			"0x%" PRIx64 " (perf record stopped while writing it): the records before "
			"it are shown\n", run->path, run->f.data_off + pos);
	return run->ordered ? sf_perf_order_flush(&run->order, 0, true, record_fn, run) : 0;
}

static void run_free(struct run *run)
{
	sf_perf_procs_free(&run->ps);
	sf_image_set_free(&run->walk.set);
	sf_perf_out_free(&run->po);
	sf_perf_files_free(&run->files);
	sf_perf_order_free(&run->order);
	free(run->walk.frames);
	sf_perf_close(&run->f);
}

/* What the command line names besides the run's own settings. */
struct perf_args {
	const char *file;	/* the perf.data file, "-" for standard input */
	const char *flame;	/* --flamegraph OUT, or NULL */
	struct sf_sframe_opts opts;
};

/* Parse argv into @run and @a; return -1 to go on, or an exit status. */
static int parse_args(int argc, char **argv, struct run *run, struct perf_args *a)
{
	bool end_of_options = false;
	int i, r;
	size_t k;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!end_of_options && arg[0] == '-' && arg[1]) {
			r = sf_cli_info_option(arg, "sframe", sf_perf_usage);
			if (r >= 0)
				return r;
			if (strcmp(arg, "--") == 0) {
				end_of_options = true;
			} else if (strcmp(arg, "--folded") == 0) {
				run->mode = OUT_FOLDED;
			} else if (strcmp(arg, "--flamegraph") == 0) {
				if (++i == argc)
					return usage_error("--flamegraph needs a file name");
				a->flame = argv[i];
				run->mode = OUT_FLAMEGRAPH;
			} else if (strcmp(arg, "--max-stack") == 0) {
				if (++i == argc || !parse_u32(argv[i], &run->walk.max_stack))
					return usage_error("--max-stack needs a number from 1 to "
							   "65536");
			} else if (strcmp(arg, "--symfs") == 0) {
				if (++i == argc || !argv[i][0])
					return usage_error("--symfs needs a directory");
				run->files.symfs = argv[i];
			} else if (strcmp(arg, "--buildid-dir") == 0) {
				if (++i == argc || !argv[i][0])
					return usage_error("--buildid-dir needs a directory");
				run->files.buildid_dir = argv[i];
			} else if (strcmp(arg, "--fp-fallback") == 0) {
				run->walk.flags |= SFRAME_UNWIND_FP_FALLBACK;
			} else if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) {
				run->quiet = true;
			} else if ((k = (size_t)i,
				    r = sf_sframe_opt(argc, argv, &k, &a->opts, "perf"))) {
				if (r < 0)
					return -r;
				i = (int)k;
			} else {
				return usage_error("unknown option '%s'", arg);
			}
		} else if (!a->file) {
			a->file = arg;
		} else {
			return usage_error("one perf.data file at a time ('%s' is extra)", arg);
		}
	}
	if (!a->file)
		return usage_error("no perf.data file given");
	return -1;
}

/*
 * Open the recording (standard input spooled into @stdin_path first) and
 * take its build ids. Returns -1 to go on, or an exit status.
 */
static int open_recording(struct run *run, const char *file, char *stdin_path, size_t len)
{
	FILE *spool = NULL;
	size_t k;
	int r;

	run->path = file;
	if (strcmp(file, "-") == 0) {
		spool = spool_stdin(stdin_path, len);
		if (!spool)
			return SF_EXIT_USAGE;
		run->path = stdin_path;
	}
	r = sf_perf_open(run->path, &run->f, run->err, sizeof(run->err));
	if (spool)
		fclose(spool);	/* the mapping keeps the bytes */
	if (r) {
		fprintf(stderr, "sframe: perf: %s\n", run->err);
		return r == SF_PERF_EFORMAT ? SF_EXIT_BAD : SF_EXIT_USAGE;
	}
	for (k = 0; k < run->f.nbuild_ids; k++) {
		const struct sf_perf_build_id *b = &run->f.build_ids[k];

		if (sf_perf_add_recorded_id(&run->files, b->filename, b->id, b->size)) {
			fprintf(stderr, "sframe: perf: out of memory\n");
			run_free(run);
			return SF_EXIT_USAGE;
		}
	}
	return -1;
}

/*
 * Where files are read from, and the buffers of one sample's frames.
 * @cache_dir and @debug_dir hold the paths the run points to. False
 * (said why, the run freed) when out of memory.
 */
static bool prepare_run(struct run *run, const struct sf_sframe_opts *opts, char *cache_dir,
			char *debug_dir)
{
	if (!run->files.buildid_dir)
		run->files.buildid_dir = sf_perf_default_buildid_dir(cache_dir, PATH_MAX);
	run->walk.files = &run->files;
	run->walk.arch = run->f.arch;
	run->walk.err = run->err;
	run->walk.err_size = sizeof(run->err);
	run->walk.set.cmd = "perf";
	run->walk.set.names = SF_NAMES_PERF;
	run->walk.set.sframe_opts = opts;
	if (run->files.symfs) {
		/* Debug files are looked up inside the file system too, as perf does. */
		snprintf(debug_dir, PATH_MAX, "%s/usr/lib/debug", run->files.symfs);
		run->walk.set.debug_dir = debug_dir;
	}
	run->ordered = all_timed(&run->f);
	run->po.f = &run->f;
	run->po.files = &run->files;
	run->po.quiet = run->quiet;
	run->walk.frames = calloc(run->walk.max_stack, sizeof(*run->walk.frames));
	if (!run->walk.frames || sf_perf_out_init(&run->po, run->walk.max_stack)) {
		fprintf(stderr, "sframe: perf: out of memory\n");
		run_free(run);
		return false;
	}
	return true;
}

/* The folded stacks or the flame graph, then standard output flushed. Returns the status. */
static int finish_output(struct run *run, const struct perf_args *a, FILE *svg, int status)
{
	if (run->mode == OUT_FOLDED && sf_fold_write(&run->po.fold, stdout))
		status = SF_EXIT_USAGE;
	if (svg) {
		char title[600];

		snprintf(title, sizeof(title), "%.500s (unwound with SFrame)", a->file);
		if (sf_flamegraph_write(&run->po.fold, svg, title) || fclose(svg)) {
			fprintf(stderr, "sframe: perf: %s: write error\n", a->flame);
			status = SF_EXIT_USAGE;
		}
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "sframe: perf: write error on standard output\n");
		status = SF_EXIT_USAGE;
	}
	return status;
}

int sf_cmd_perf(int argc, char **argv)
{
	static char outbuf[1 << 20];
	struct perf_args a = { .file = NULL, .flame = NULL, .opts = { .ndirs = 0 } };
	struct run run;
	FILE *svg = NULL;
	char stdin_path[64], debug_dir[PATH_MAX], cache_dir[PATH_MAX];
	int r, status = SF_EXIT_OK;

	memset(&run, 0, sizeof(run));
	run.walk.max_stack = DEFAULT_MAX_STACK;
	r = parse_args(argc, argv, &run, &a);
	if (r >= 0)
		return r;
	r = open_recording(&run, a.file, stdin_path, sizeof(stdin_path));
	if (r >= 0)
		return r;
	if (!prepare_run(&run, &a.opts, cache_dir, debug_dir))
		return SF_EXIT_USAGE;
	if (a.flame) {
		svg = fopen(a.flame, "we");
		if (!svg) {
			fprintf(stderr, "sframe: perf: %s: %s\n", a.flame, strerror(errno));
			run_free(&run);
			return SF_EXIT_USAGE;
		}
	}
	run.po.out = stdout;
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));

	r = read_records(&run);
	progress_done(&run);
	if (r == -ENOMEM) {
		fprintf(stderr, "sframe: perf: out of memory\n");
		status = SF_EXIT_USAGE;
	} else if (r) {
		fprintf(stderr, "sframe: perf: %s\n", run.err);
		status = SF_EXIT_BAD;
	}
	status = finish_output(&run, &a, svg, status);
	summary(&run);
	run_free(&run);
	return status;
}
