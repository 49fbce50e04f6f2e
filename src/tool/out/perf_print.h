/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * perf_print.h - what "sframe perf" prints of a walked sample: perf
 * script's text, or the names of its stack for --folded and --flamegraph;
 * and why a walk stopped.
 */
#ifndef SFRAME_TOOL_PERF_PRINT_H
#define SFRAME_TOOL_PERF_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <sframe/sframe_unwind.h>

#include "out/flamegraph.h"
#include "perf/kallsyms.h"
#include "perf/perf_procs.h"
#include "read/perf_data.h"
#include "target/unwind_target.h"

/*
 * Why user walks ended, for the summary: the outermost frame; code without
 * SFrame (a file without it, or outside any file); the stack copy ended;
 * --max-stack; anything else (a bad section, an implausible frame); the
 * sample has no user registers or stack (a kernel thread).
 */
enum sf_perf_stop {
	SF_PERF_STOP_END,
	SF_PERF_STOP_NO_SFRAME,
	SF_PERF_STOP_COPY,
	SF_PERF_STOP_DEPTH,
	SF_PERF_STOP_ERROR,
	SF_PERF_STOP_NO_REGS,
	SF_PERF_STOP_CLASSES
};

/* The summary's words for each class. */
extern const char *const sf_perf_stop_names[SF_PERF_STOP_CLASSES];

/**
 * sf_perf_stop_reason() - why a walk ended, for the "# stop:" line.
 * @p: the sample's process.
 * @last: the walk's last frame, or NULL.
 * @n: its number of frames.
 * @r: what the walk returned.
 * @smp: the sample as the walk saw it.
 * @buf: the reason; empty for the outermost frame.
 * @len: its size.
 *
 * Return: the class of the reason, for the summary.
 */
enum sf_perf_stop sf_perf_stop_reason(const struct sf_perf_proc *p,
				      const struct sframe_frame *last, uint32_t n, int r,
				      const struct sf_sample *smp, char *buf, size_t len);

/**
 * struct sf_perf_out - where "sframe perf" prints, and what names the frames.
 * @out: perf script's text (standard output).
 * @f: the recording.
 * @files: where kallsyms is read from.
 * @quiet: say nothing on standard error about loading it.
 * @ksyms: the kernel's symbols, loaded at the first kernel frame.
 * @fold: --folded and --flamegraph: the distinct stacks.
 * @names: one stack's frame names, while it is folded...
 * @offs: ...and where each starts in @namebuf.
 * @namebuf: the names' bytes.
 * @namebuf_len: its size.
 */
struct sf_perf_out {
	FILE *out;
	const struct sf_perf_file *f;
	struct sf_perf_files *files;
	bool quiet;
	struct sf_kallsyms ksyms;
	struct sf_fold fold;
	const char **names;
	size_t *offs;
	char *namebuf;
	size_t namebuf_len;
};

/**
 * sf_perf_out_init() - the buffers of one folded stack, and an empty set of stacks.
 * @po: zeroed, its other fields set by the caller; free with sf_perf_out_free().
 * @max_stack: the most user frames a walk gives.
 *
 * Return: 0, or -1 when out of memory.
 */
int sf_perf_out_init(struct sf_perf_out *po, uint32_t max_stack);

/**
 * sf_perf_out_free() - release what @po holds (also when zeroed, or after
 * a failed sf_perf_out_init()).
 * @po: the output.
 */
void sf_perf_out_free(struct sf_perf_out *po);

/**
 * sf_perf_kernel_frames() - where a sample's kernel frames are in its callchain.
 * @f: the recording.
 * @s: the sample.
 * @first: set to the index of the first one.
 *
 * Return: their number: the entries between PERF_CONTEXT_KERNEL and the next marker.
 */
uint64_t sf_perf_kernel_frames(const struct sf_perf_file *f, const struct sf_perf_sample *s,
			       uint64_t *first);

/**
 * struct sf_perf_shown - a walked sample, as it is printed.
 * @s: the sample.
 * @comm: its thread's name.
 * @p: its process.
 * @frames: the user frames the walk found, innermost first...
 * @n: ...and their number.
 * @kfirst: the index of the first kernel frame in @s's callchain...
 * @nk: ...and their number.
 * @why: why the walk ended before the outermost frame; empty when it did not.
 */
struct sf_perf_shown {
	const struct sf_perf_sample *s;
	const char *comm;
	const struct sf_perf_proc *p;
	const struct sframe_frame *frames;
	uint32_t n;
	uint64_t kfirst;
	uint64_t nk;
	const char *why;
};

/**
 * sf_perf_event_width() - the length of the longest event name of the
 * recording (0 when there is none), to which perf script right-aligns them.
 * @f: the recording.
 *
 * Return: the width.
 */
int sf_perf_event_width(const struct sf_perf_file *f);

/**
 * sf_perf_print_sample() - @sh as perf script prints it: the header, the
 * kernel frames, the user frames, the "# stop:" line, a blank line.
 * @po: where, and the kernel's symbols.
 * @sh: the sample.
 * @event_width: from sf_perf_event_width().
 */
void sf_perf_print_sample(struct sf_perf_out *po, const struct sf_perf_shown *sh,
			  int event_width);

/**
 * sf_perf_fold_sample() - count @sh's stack in @po->fold: "comm;outermost;...;leaf".
 * @po: the stacks, and the kernel's symbols.
 * @sh: the sample.
 *
 * Return: 0, or -ENOMEM.
 */
int sf_perf_fold_sample(struct sf_perf_out *po, const struct sf_perf_shown *sh);

#endif /* SFRAME_TOOL_PERF_PRINT_H */
