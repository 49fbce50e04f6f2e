/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * cmd_stack.h - "sframe stack PID [--fp-fallback]": the stacks of a live
 * process's threads, as eu-stack prints them; "sframe stack --core CORE":
 * those of a core file's (cmd_core.h).
 */
#ifndef SFRAME_TOOL_CMD_STACK_H
#define SFRAME_TOOL_CMD_STACK_H

/* Its help text. */
extern const char sf_stack_usage[];

/* argv[0] is "stack". Returns the exit status. */
int sf_cmd_stack(int argc, char **argv);

#endif /* SFRAME_TOOL_CMD_STACK_H */
