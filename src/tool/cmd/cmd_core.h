/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * cmd_core.h - "sframe stack --core CORE": the stacks of a core file's
 * threads, as "sframe stack" prints a live process's.
 */
#ifndef SFRAME_TOOL_CMD_CORE_H
#define SFRAME_TOOL_CMD_CORE_H

#include <stdbool.h>

#include "read/sframe_find.h"

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

#endif /* SFRAME_TOOL_CMD_CORE_H */
