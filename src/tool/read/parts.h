/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * parts.h - the SFrame sections inside one .sframe section (hosted tool):
 * one, as GNU ld writes it, or a run of them, as LLVM lld concatenates the
 * sections of its input objects instead of merging them (see
 * sframe_part_size()).
 */
#ifndef SFRAME_TOOL_PARTS_H
#define SFRAME_TOOL_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sframe/sframe_unwind.h>

/**
 * struct sf_range - addresses described by one part, or by none.
 * @start: first address.
 * @end: first address after the range.
 * @sec: the part, or NULL for a gap between the parts' functions.
 */
struct sf_range {
	uint64_t start;
	uint64_t end;
	const struct sframe_section *sec;
};

/**
 * struct sf_parts - the parts of one section, each opened over its extent.
 * @buf: one buffer per part, over its bytes (each part reads through its own).
 * @sec: the parts, in section order.
 * @off: each part's offset in the section.
 * @n: their number.
 * @err: 0 when the parts fill the section; else why the walk stopped after
 *	the last part in @sec (a part after it is truncated or corrupt, or
 *	garbage follows it).
 * @err_off: the section offset @err is about.
 * @runs: for @n > 1, the functions of the parts by address: each module a
 *	run of consecutive functions of one part (@runs.slots).
 * @supplement: the last part is not the file's but sf_parts_supplement()'s.
 */
struct sf_parts {
	struct sframe_buffer *buf;
	struct sframe_section *sec;
	uint64_t *off;
	size_t n;
	int err;
	uint64_t err_off;
	struct sframe_module_table runs;
	bool supplement;
};

/**
 * sf_parts_open() - find and open every part of a section.
 * @p: filled; free with sf_parts_free() (after a failure too).
 * @data: the section bytes; must outlive @p.
 * @size: their number.
 * @vaddr: the run-time address of the first byte.
 *
 * Return: 0 when the first part opened (later problems in @p->err); the
 * first part's sframe_open() error (-SFRAME_ERR_EMPTY for an empty
 * section, ...); or -ENOMEM.
 */
int sf_parts_open(struct sf_parts *p, const void *data, uint64_t size, uint64_t vaddr);

void sf_parts_free(struct sf_parts *p);

/**
 * sf_parts_supplement() - add (or replace) a section made apart from the
 * file's own: functions the file's own section lacks, converted from its
 * .eh_frame (a program's own section covers only the code assembled with
 * --gsframe: not the C runtime's _start). Its functions take part in the
 * runs as any part's; where they overlap the file's, the later start wins.
 * @p: opened parts.
 * @data: the section bytes; must outlive @p (or the next call).
 * @size: their number.
 * @vaddr: the run-time address of the first byte.
 * Return: 0; the section's sframe_open() error; -ENOMEM.
 */
int sf_parts_supplement(struct sf_parts *p, const void *data, uint64_t size, uint64_t vaddr);

/**
 * sf_parts_is_supplement() - is @sec sf_parts_supplement()'s part?
 * @p: opened parts.
 * @sec: a part of @p (from sf_parts_lookup()), or NULL.
 * Return: true for the supplement.
 */
bool sf_parts_is_supplement(const struct sf_parts *p, const struct sframe_section *sec);

/**
 * sf_parts_error() - say why sf_parts_open() failed.
 * @r: its error.
 * @file: the file's name.
 * @how: where the section came from ("section", "segment", "raw").
 * @buf: receives "FILE: message (NAME)"; for an empty section "FILE: no
 *	SFrame data: the .sframe HOW is empty", for no memory "FILE: out of
 *	memory".
 * @len: size of @buf.
 *
 * Return: true when memory ran out: not the file's fault, so the command
 * fails as for a file it cannot read (exit status 2), not as for bad
 * content.
 */
bool sf_parts_error(int r, const char *file, const char *how, char *buf, size_t len);

/**
 * sf_parts_lookup() - sframe_lookup() in the part whose functions cover @pc.
 * @p: opened parts.
 * @pc: the address.
 * @row: as sframe_lookup() fills it.
 * @part: set to the part looked in, or NULL when none covers @pc.
 *
 * Return: as sframe_lookup(); -SFRAME_ERR_NOT_FOUND (@row->fde.index
 * SFRAME_NO_INDEX) when no part has a function at @pc.
 */
int sf_parts_lookup(const struct sf_parts *p, uint64_t pc, struct sframe_row *row,
		    const struct sframe_section **part);

/**
 * sf_parts_ranges() - cut [@start, @end) into the ranges of the parts.
 * @p: opened parts.
 * @start: first address of a text range (a segment, a mapping).
 * @end: first address after it.
 * @out: receives a malloc()ed array covering [@start, @end) without gap
 *	or overlap: the parts' runs clipped to it, the rest with @sec NULL.
 *	One range, the first part, for a section of one part.
 * @n: receives its length (at least 1 when @start < @end).
 *
 * Return: 0 or -ENOMEM.
 */
int sf_parts_ranges(const struct sf_parts *p, uint64_t start, uint64_t end,
		    struct sf_range **out, size_t *n);

/**
 * sf_parts_warn() - say on standard error that @file's section is not one
 * SFrame section but several, and what went wrong after the last part, if
 * anything: "sframe: FILE: warning: ... @user uses every one".
 * @p: opened parts (nothing is said for one part that fills the section).
 * @file: the file's name.
 * @user: the command that goes on with every part ("dump", "unwind", ...).
 */
void sf_parts_warn(const struct sf_parts *p, const char *file, const char *user);

#endif /* SFRAME_TOOL_PARTS_H */
