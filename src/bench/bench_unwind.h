/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * bench_unwind.h - "sframe-bench unwind": per-frame cost of our unwinder
 * against a frame-pointer walk, libgcc and libunwind in this process, and
 * over the recorded stack snapshots.
 */
#ifndef SFRAME_TOOL_BENCH_UNWIND_H
#define SFRAME_TOOL_BENCH_UNWIND_H

/**
 * bench_cmd_unwind() - the command.
 * @argc: arguments after the command name, plus one.
 * @argv: argv[0] is "unwind".
 *
 * Return: exit status: 0; 1 when an unwinder disagreed with the others or
 * a snapshot could not be walked; 2 for usage errors.
 */
int bench_cmd_unwind(int argc, char **argv);

#endif /* SFRAME_TOOL_BENCH_UNWIND_H */
