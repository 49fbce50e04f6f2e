/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * flamegraph.h - stacks counted into "folded" form and drawn as an SVG
 * flame graph (hosted tool, for sframe perf).
 *
 * A stack is a list of frame names, outermost first. Names are interned
 * once and each distinct stack is kept once with its count, both in hash
 * tables: adding a stack costs O(depth) expected, and the memory grows with
 * the distinct names and stacks, never with the number of samples.
 *
 * Names are stored as the folded format can carry them: ';' (the frame
 * separator) becomes ':', and control bytes (0x00-0x1f, 0x7f; among them
 * newline, which ends a line) become '?'. Any other byte, invalid UTF-8
 * included, is kept as it is. Names that only differ there are one frame.
 * The SVG shows the same names, XML-escaped (see sf_flamegraph_write()).
 */
#ifndef SFRAME_TOOL_FLAMEGRAPH_H
#define SFRAME_TOOL_FLAMEGRAPH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/**
 * struct sf_fold - distinct stacks and their counts.
 * @names: interned names (as stored), by name id.
 * @n_names: names interned.
 * @cap_names: room in @names.
 * @name_tab: open-addressing table of the names: each slot holds a name id
 *	+ 1 (0: empty slot) and the name's hash.
 * @name_tab_cap: its slots (a power of two, or 0).
 * @frames: the name ids of every distinct stack, one after the other.
 * @n_frames: ids used in @frames.
 * @cap_frames: room in @frames.
 * @stacks: the distinct stacks (first id in @frames, depth, count).
 * @n_stacks: distinct stacks.
 * @cap_stacks: room in @stacks.
 * @stack_tab: open-addressing table of the stacks, as @name_tab.
 * @stack_tab_cap: its slots (a power of two, or 0).
 * @total: the sum of all counts.
 *
 * The fields are for flamegraph.c; read the result through the writers.
 */
struct sf_fold {
	char **names;
	size_t n_names, cap_names;
	struct sf_fold_slot {
		uint32_t index;
		uint32_t hash;
	} *name_tab;
	size_t name_tab_cap;
	uint32_t *frames;
	size_t n_frames, cap_frames;
	struct sf_fold_stack {
		size_t first;
		size_t depth;
		uint64_t count;
	} *stacks;
	size_t n_stacks, cap_stacks;
	struct sf_fold_slot *stack_tab;
	size_t stack_tab_cap;
	uint64_t total;
};

/**
 * sf_fold_init() - start an empty set of stacks.
 * @f: the set; release with sf_fold_free().
 *
 * Return: 0 (nothing is allocated before the first stack).
 */
int sf_fold_init(struct sf_fold *f);

/**
 * sf_fold_add() - count one stack.
 * @f: the set.
 * @frames: the frame names, @frames[0] the outermost (for perf: the
 *	process name, then the outermost function ... the leaf). Copied.
 * @n: how many (at least 1).
 * @count: added to the stack's count; 0 records nothing.
 *
 * Return: 0; -EINVAL when @n is 0 or a name is NULL; -EOVERFLOW when the
 * sum of all counts would pass UINT64_MAX; -ENOMEM. On failure no count
 * has changed.
 */
int sf_fold_add(struct sf_fold *f, const char *const *frames, size_t n, uint64_t count);

/**
 * sf_fold_write() - the stacks in folded form (the interchange format of
 * flame graph tools, as stackcollapse scripts write it).
 * @f: the set.
 * @out: where to write.
 *
 * One line per distinct stack, "outer;...;leaf COUNT\n", sorted by the
 * line's bytes (unsigned) up to the space.
 *
 * Return: 0, or a negative errno when writing failed (-EIO when the stream
 * did not say why).
 */
int sf_fold_write(const struct sf_fold *f, FILE *out);

/**
 * sf_flamegraph_write() - a self-contained SVG flame graph of the stacks.
 * @f: the set.
 * @out: where to write.
 * @title: printed at the top (NULL: "Flame Graph").
 *
 * One rectangle per node of the merged call tree, "all" at the bottom,
 * each node's children sorted by name from left to right, widths in
 * proportion to the samples; a rectangle's <title> is "name (N samples,
 * P%)". Frames narrower than 0.1 px are left out (an XML comment says how
 * many). Colours come from a hash of the name. Inline script: click a frame
 * to zoom into it, "Reset Zoom" (or Escape) to go back; "Search" (or
 * Ctrl-F) highlights the frames whose names match a regular expression and
 * shows the share of samples under them; the line at the bottom describes
 * the frame under the mouse. In names and @title, & < > " ' are written as
 * entities, control bytes as '?', and each byte that is not part of a
 * valid UTF-8 XML character as U+FFFD.
 *
 * Return: 0, -ENOMEM, or a negative errno when writing failed (-EIO when
 * the stream did not say why).
 */
int sf_flamegraph_write(const struct sf_fold *f, FILE *out, const char *title);

/**
 * sf_fold_free() - release what @f holds; it is empty afterwards.
 * @f: the set.
 */
void sf_fold_free(struct sf_fold *f);

#endif /* SFRAME_TOOL_FLAMEGRAPH_H */
