/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * bench_unwind.h - "sframe-bench unwind": per-frame cost of our unwinder
 * against a frame-pointer walk, libgcc and libunwind in this process, and
 * over the recorded stack snapshots.
 */
#ifndef SFRAME_TOOL_BENCH_UNWIND_H
#define SFRAME_TOOL_BENCH_UNWIND_H

#include <stdbool.h>
#include <stddef.h>

/* Both halves': the frames a walk may return, and each walk's cache entries. */
#define MAX_TRACE 256
#define CACHE_ENTRIES 256

/**
 * bench_cmd_unwind() - the command.
 * @argc: arguments after the command name, plus one.
 * @argv: argv[0] is "unwind".
 *
 * Return: exit status: 0; 1 when an unwinder disagreed with the others or
 * a snapshot could not be walked; 2 for usage errors.
 */
int bench_cmd_unwind(int argc, char **argv);

/*
 * The offline half (bench_offline.c): the names of the snapshot folders of
 * @dir (at most @max, sorted, malloc'ed; *@n of them), then one walked:
 * each returns 0, or 1 with a message on stderr.
 */
int bench_offline_list(const char *dir, char **names, size_t max, size_t *n);
int bench_offline_one(const char *dir, const char *name, double seconds, bool index);

#endif /* SFRAME_TOOL_BENCH_UNWIND_H */
