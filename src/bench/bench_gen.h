/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * bench_gen.h - "sframe-bench gen-c N": a C file of N functions of the
 * shapes real code has, for building large real SFrame sections with a
 * real toolchain (see src/bench/README.md).
 */
#ifndef SFRAME_TOOL_BENCH_GEN_H
#define SFRAME_TOOL_BENCH_GEN_H

/* Return: exit status (0, or 2 for usage errors). */
int bench_cmd_gen_c(int argc, char **argv);

#endif /* SFRAME_TOOL_BENCH_GEN_H */
