/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_find.h - SFrame for a file that has none (hosted tool): a side-car
 * made by "sframe convert", found by the file's build id, else a section
 * converted from the file's .eh_frame in memory. The commands that unwind
 * (stack, stack --core, perf) ask for it for every mapped file without a
 * section of its own, so that stock programs unwind through libraries no
 * distribution builds with SFrame.
 */
#ifndef SFRAME_TOOL_SFRAME_FIND_H
#define SFRAME_TOOL_SFRAME_FIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <sframe/sframe_convert.h>

#include "read/cfi_input.h"
#include "read/elf_input.h"

/* Where side-cars are looked for after the --sframe-dir ones, as
 * /usr/lib/debug is for separate debug files. */
#ifndef SF_SFRAME_DIR
#define SF_SFRAME_DIR "/usr/lib/sframe"
#endif

/* How many --sframe-dir options a command takes. */
#define SF_SFRAME_DIRS_MAX 16

/* The longest side-car path (PATH_MAX is not in strict C). */
#define SF_SIDECAR_PATH_MAX 4096

/**
 * struct sf_sframe_opts - the commands' choices (--sframe-dir, --no-convert).
 * @dirs: side-car directories, searched in this order, before SF_SFRAME_DIR:
 *	a file with build id NNRR... is DIR/.build-id/NN/RR....sframe.
 * @ndirs: their number.
 * @no_convert: do not convert .eh_frame when no side-car is found.
 */
struct sf_sframe_opts {
	const char *dirs[SF_SFRAME_DIRS_MAX];
	size_t ndirs;
	bool no_convert;
};

/* The options' help lines, for the commands' usage texts. */
#define SF_SFRAME_OPTS_HELP \
	"  --sframe-dir DIR  look for side-cars (sframe convert) of files without\n" \
	"                 SFrame in DIR/.build-id/NN/REST.sframe (repeatable; then\n" \
	"                 in " SF_SFRAME_DIR ")\n" \
	"  --no-convert   without a side-car, do not convert a file's .eh_frame\n"

/**
 * sf_sframe_opt() - take one of the options at @argv[*@i].
 * @argc: the argument count.
 * @argv: the arguments.
 * @i: the current one; moved past an option's value.
 * @o: the choices, updated.
 * @cmd: the command, for messages.
 *
 * Return: 1 when the argument was one of them, 0 when not, or SF_EXIT_USAGE
 * (as a negative number) after printing a usage error.
 */
int sf_sframe_opt(int argc, char **argv, size_t *i, struct sf_sframe_opts *o, const char *cmd);

/**
 * sf_sidecar_path() - where the side-car of a file with build id @hex goes
 * in @dir: DIR/.build-id/NN/REST.sframe, NN the id's first byte in hex.
 * @buf: receives the path.
 * @len: its size.
 * @dir: the directory (an --sframe-dir, or SF_SFRAME_DIR).
 * @hex: the build id in lowercase hex, at least two bytes of it.
 *
 * Return: false when the path does not fit or the id is too short.
 */
bool sf_sidecar_path(char *buf, size_t len, const char *dir, const char *hex);

/**
 * enum sf_sframe_from - where a file's SFrame section came from.
 * @SF_SFRAME_NONE: nowhere: the file has none, and none could be made.
 * @SF_SFRAME_OWN: the file's own .sframe section or PT_GNU_SFRAME segment.
 * @SF_SFRAME_SIDECAR: a side-car file found by build id.
 * @SF_SFRAME_CONVERTED: converted from the file's .eh_frame (and
 *	.debug_frame) now.
 */
enum sf_sframe_from {
	SF_SFRAME_NONE,
	SF_SFRAME_OWN,
	SF_SFRAME_SIDECAR,
	SF_SFRAME_CONVERTED,
};

/**
 * struct sf_sframe_found - what sf_sframe_find() found.
 * @from: enum sf_sframe_from.
 * @empty: the file's own section is there, but empty.
 * @sidecar: the side-car file, which the section's bytes are in (owned).
 * @sidecar_path: its path.
 * @pending: the conversion was put off (sf_sframe_find()'s @later): do it
 *	with sf_sframe_convert_pc() when the file's SFrame is needed.
 * @by_function: the file is converted function by function, as
 *	sf_sframe_convert_pc() is asked for addresses; @cfi, @fde_offsets and
 *	@num_fde_offsets are its state.
 * @stats: the conversion's (the side-car's are not known); by function, of
 *	the functions converted so far.
 * @cfi: the file's call-frame information, kept for the next function
 *	(owned).
 * @fde_offsets: the .eh_frame FDEs converted or tried (owned).
 * @num_fde_offsets: their number.
 * @supplement: for a file with a section of its own, the functions it lacks
 *	that sf_sframe_supplement_pc() converted (owned), or NULL.
 * @supplement_len: its length.
 * @supplement_vaddr: its address among the file's own (link-time) ones.
 * @supplement_tried: 0 not yet, 1 under way, 2 the file has no
 *	.eh_frame_hdr to find functions with.
 * @why: why nothing was found or made, when @from is SF_SFRAME_NONE.
 * @refused: a side-car that was found but not used, and why; "" for none.
 */
struct sf_sframe_found {
	enum sf_sframe_from from;
	bool empty;
	bool pending;
	bool by_function;
	struct sf_input sidecar;
	char sidecar_path[SF_SIDECAR_PATH_MAX];
	struct sframe_convert_stats stats;
	char why[256];
	char refused[SF_SIDECAR_PATH_MAX + 64];
	struct sf_cfi_input *cfi;
	uint64_t *fde_offsets;
	size_t num_fde_offsets;
	unsigned char *supplement;
	size_t supplement_len;
	uint64_t supplement_vaddr;
	int supplement_tried;
};

/**
 * sf_sframe_find() - give @in, an ELF file without SFrame (no section, or
 * an empty one), a section.
 * @opts: the choices (NULL: the defaults: SF_SFRAME_DIR, then conversion).
 * @in: the file (from sf_input_bytes() or a failed search for its
 *	section). On success @in->sec, @in->sec_size, @in->vaddr and
 *	@in->how ("side-car" or "conversion") are set, and a converted
 *	section is @in->owned_copy (freed with @in).
 * @name: the file's name, for messages.
 * @later: without a side-car, do not convert yet: set @found->pending
 *	instead, for a caller that converts only the files a walk reaches.
 * @found: filled; free it with sf_sframe_found_free() after @in.
 *
 * A side-car is used only when its build id equals @in's and its machine
 * is @in's. Out of memory is as "nothing found" (with @found->why).
 *
 * Return: @found->from.
 */
enum sf_sframe_from sf_sframe_find(const struct sf_sframe_opts *opts, struct sf_input *in,
				   const char *name, bool later, struct sf_sframe_found *found);

/**
 * sf_sframe_convert_pc() - the conversion sf_sframe_find() put off, of the
 * function at @addr only: what a walk that reached @addr needs.
 * @in: the file, as sf_sframe_find() left it; its section (@in->sec,
 *	@in->owned_copy) is replaced when 1 is returned.
 * @name: its name, for messages.
 * @found: as sf_sframe_find() left it (@found->pending or
 *	@found->by_function); updated.
 * @addr: an address in the file's own (link-time) addresses.
 *
 * The FDE is found through the file's .eh_frame_hdr (PT_GNU_EH_FRAME), and
 * the section made again of it and of the functions converted before: a
 * stack reaches a few dozen functions of files of thousands. A file without
 * a search table is converted whole, the first time.
 *
 * Return: 1 when @in's section changed (it now describes @addr); 0 when it
 * did not (@addr's function was converted or tried before, or no FDE or no
 * convertible one describes it); -1 when memory ran out.
 */
int sf_sframe_convert_pc(struct sf_input *in, const char *name, struct sf_sframe_found *found,
			 uint64_t addr);

/**
 * sf_sframe_supplement_pc() - for a file with a section of its own that
 * lacks @addr (a program's own section covers only the code assembled with
 * --gsframe, not the C runtime's _start), the function at @addr converted
 * from its .eh_frame into @found->supplement, by function as
 * sf_sframe_convert_pc() does.
 * @in: the file.
 * @name: its name, for messages.
 * @found: as sf_sframe_find() left it (SF_SFRAME_OWN); updated.
 * @addr: an address in the file's own (link-time) addresses that its own
 *	section does not describe (the caller looked).
 *
 * Return: 1 when @found->supplement changed; 0 when not; -1 when out of
 * memory.
 */
int sf_sframe_supplement_pc(struct sf_input *in, const char *name,
			    struct sf_sframe_found *found, uint64_t addr);

/**
 * sf_sframe_found_free() - release what sf_sframe_find() and the
 * conversions kept in @found (the side-car, the CFI, the offsets); call it
 * after freeing the file's input, whose section may be the side-car's.
 * @found: what sf_sframe_find() filled, or zeroed memory.
 */
void sf_sframe_found_free(struct sf_sframe_found *found);

/**
 * sf_sframe_found_report() - what @found says of the file @name, for the
 * commands' summaries: "NAME: converted .eh_frame: N functions from M FDEs;
 * left out: ..." or "NAME: SFrame from side-car PATH", after a line for a
 * side-car refused. Nothing for a file's own section or none.
 * @out: where to write.
 * @prog: the line's prefix ("sframe: stack").
 * @name: the file.
 * @found: what sf_sframe_find() found.
 */
void sf_sframe_found_report(FILE *out, const char *prog, const char *name,
			    const struct sf_sframe_found *found);

#endif /* SFRAME_TOOL_SFRAME_FIND_H */
