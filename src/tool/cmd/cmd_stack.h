/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * cmd_stack.h - "sframe stack PID [--fp-fallback]": the stacks of a live
 * process's threads, as eu-stack prints them; "sframe stack --core CORE":
 * those of a core file's (cmd_core.c).
 */
#ifndef SFRAME_TOOL_CMD_STACK_H
#define SFRAME_TOOL_CMD_STACK_H

#include <stdbool.h>
#include <stdio.h>

#include "read/proc_maps.h"
#include "target/ptrace_target.h"

/* Its help text. */
extern const char sf_stack_usage[];

/* argv[0] is "stack". Returns the exit status. */
int sf_cmd_stack(int argc, char **argv);

/**
 * sf_stack_print_walk() - unwind one thread and print its frames and the
 * stop line, as "sframe stack" does.
 * @out: where.
 * @pm: the process's modules; files whose conversion was put off are
 *	converted when the walk reaches them.
 * @regs: the thread's registers.
 * @read_mem: reads the process's memory.
 * @mem_ctx: passed to @read_mem.
 * @fp_fallback: follow frame pointers through code without SFrame.
 */
void sf_stack_print_walk(FILE *out, struct sf_proc_modules *pm, struct sf_arch_regs *regs,
			 sframe_read_fn read_mem, void *mem_ctx, bool fp_fallback);

/**
 * sf_stack_core() - "sframe stack --core CORE": every thread's stack of
 * a core file, on standard output.
 * @core: the core file.
 * @exe: the main executable to read instead of the path the core names,
 *	or NULL.
 * @sysroot: the folder the core's paths are read under, or NULL.
 * @fp_fallback: follow frame pointers through code without SFrame.
 * @opts: where files without SFrame get theirs.
 *
 * Return: the exit status.
 */
int sf_stack_core(const char *core, const char *exe, const char *sysroot, bool fp_fallback,
		  const struct sf_sframe_opts *opts);

#endif /* SFRAME_TOOL_CMD_STACK_H */
