/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * cmd_perf.h - "sframe perf [--folded | --flamegraph OUT.svg] FILE": the
 * samples of a perf.data file, their user stacks unwound with SFrame.
 */
#ifndef SFRAME_TOOL_CMD_PERF_H
#define SFRAME_TOOL_CMD_PERF_H

/* Its help text. */
extern const char sf_perf_usage[];

/* argv[0] is "perf". Returns the exit status. */
int sf_cmd_perf(int argc, char **argv);

#endif /* SFRAME_TOOL_CMD_PERF_H */
