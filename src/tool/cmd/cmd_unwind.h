/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * cmd_unwind.h - "sframe unwind --elf EXE SNAPSHOT...".
 */
#ifndef SFRAME_TOOL_CMD_UNWIND_H
#define SFRAME_TOOL_CMD_UNWIND_H

/* Its help text. */
extern const char sf_unwind_usage[];

/* argv[0] is "unwind". Returns the exit status. */
int sf_cmd_unwind(int argc, char **argv);

#endif /* SFRAME_TOOL_CMD_UNWIND_H */
