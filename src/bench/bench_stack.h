/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * bench_stack.h - "sframe-bench stack-usage DIR...": the core's largest
 * stack frame from gcc's -fstack-usage files (.su), and, when gcc also
 * wrote -fcallgraph-info=su files (.ci), the deepest call path from each
 * public entry point.
 */
#ifndef SFRAME_TOOL_BENCH_STACK_H
#define SFRAME_TOOL_BENCH_STACK_H

/* Return: exit status (0; 1 when no .su file was found; 2 usage). */
int bench_cmd_stack_usage(int argc, char **argv);

#endif /* SFRAME_TOOL_BENCH_STACK_H */
