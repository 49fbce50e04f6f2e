/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * stack_print.h - one thread's walk as "sframe stack" prints it (live
 * processes and cores).
 */
#ifndef SFRAME_TOOL_STACK_PRINT_H
#define SFRAME_TOOL_STACK_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "read/proc_maps.h"
#include "target/ptrace_target.h"

/* The frames a walk prints at the most, as eu-stack's default. */
#define SF_STACK_MAX_FRAMES 256

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

#endif /* SFRAME_TOOL_STACK_PRINT_H */
