/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * bench_convert.h - "sframe-bench convert FILE...": how long the DWARF CFI
 * to SFrame conversion (sframe_convert.h) takes on real files, the memory
 * it needs, and how its output compares with the assembler's own .sframe.
 */
#ifndef SFRAME_TOOL_BENCH_CONVERT_H
#define SFRAME_TOOL_BENCH_CONVERT_H

/* Return: exit status (0; 1 a file that cannot be converted; 2 usage or I/O). */
int bench_cmd_convert(int argc, char **argv);

#endif /* SFRAME_TOOL_BENCH_CONVERT_H */
