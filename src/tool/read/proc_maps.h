/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * proc_maps.h - the code mapped into a live process: /proc/PID/maps, each
 * mapped ELF file loaded once, its load bias, its SFrame section opened at
 * its run-time address, and a module table for the unwinder (hosted tool).
 */
#ifndef SFRAME_TOOL_PROC_MAPS_H
#define SFRAME_TOOL_PROC_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <sframe/sframe_unwind.h>

#include "read/elf_input.h"
#include "read/parts.h"
#include "read/sframe_find.h"

/**
 * struct sf_map - one line of /proc/PID/maps.
 * @start: first address.
 * @end: first address after the mapping.
 * @offset: file offset of @start.
 * @inode: inode number (0 for anonymous mappings).
 * @dev: "major:minor" as printed.
 * @perms: "r-xp" and the like.
 * @path: the path column ("" when there is none), e.g. "/usr/lib/libc.so.6",
 *	"[vdso]", "/tmp/a.out (deleted)".
 */
struct sf_map {
	uint64_t start;
	uint64_t end;
	uint64_t offset;
	uint64_t inode;
	char dev[16];
	char perms[8];
	char *path;
};

struct sf_maps {
	struct sf_map *v;
	size_t n;
};

/**
 * sf_maps_read() - read and parse /proc/PID/maps.
 * @pid: the process.
 * @maps: filled on success; free with sf_maps_free().
 * @err: message on failure.
 * @errlen: its size.
 *
 * Return: 0, or a negative errno (-ENOENT when there is no such process).
 */
int sf_maps_read(pid_t pid, struct sf_maps *maps, char *err, size_t errlen);

void sf_maps_free(struct sf_maps *maps);

/**
 * sf_maps_same_code() - do @a and @b map the same code?
 *
 * Return: true when their executable mappings are identical (addresses,
 * offsets, files).
 */
bool sf_maps_same_code(const struct sf_maps *a, const struct sf_maps *b);

/**
 * struct sf_proc_file - one mapped ELF file, loaded once.
 * @key_path: the maps path column, as displayed.
 * @inode: its inode, with @dev, to tell files of the same path apart.
 * @dev: as in maps.
 * @in: the whole file; @in.sec is NULL when it has no usable SFrame section.
 * @debug: its separate debug file (found by build id) when @info's symbols
 *	come from there; else empty.
 * @info: its symbols (from @debug when the file itself has no .symtab and
 *	its debug file is installed).
 * @loaded: @in holds the file (else only the name is known).
 * @why: why there is no SFrame section or no symbols, for messages.
 * @found: where @in's section came from when the file has none of its
 *	own: a side-car or a conversion (sf_sframe_find()).
 */
struct sf_proc_file {
	char *key_path;
	uint64_t inode;
	char dev[16];
	struct sf_input in;
	struct sf_input debug;
	struct sf_elf_info info;
	bool loaded;
	char why[256];
	struct sf_sframe_found found;
};

/**
 * struct sf_proc_image - a file mapped at one load bias.
 * @file: the file.
 * @bias: run-time address minus the file's ELF address.
 * @bias_known: false when the file could not be read or none of its PT_LOAD
 *	segments maps the mapping: then @bias is meaningless and the image
 *	only names the file.
 * @has_sec: @parts is open (the file has SFrame for this process's ABI).
 * @parts: its section, at vaddr = section address + @bias: one part, or
 *	several when LLVM lld concatenated its inputs' sections.
 */
struct sf_proc_image {
	struct sf_proc_file *file;
	uint64_t bias;
	bool bias_known;
	bool has_sec;
	struct sf_parts parts;
};

/**
 * struct sf_image_set - mapped files, each loaded once, and their images,
 * shared by the module tables built over them (one process's, or every
 * process's of a perf.data file).
 * @abi: the processes' SFrame ABI; sections of another ABI are not used.
 * @cmd: the command named in warnings about a section ("stack", "perf").
 * @names: whose choice among aliases the symbols give (eu-stack's by
 *	default, perf's for "sframe perf").
 * @debug_dir: where separate debug files are looked up by build id
 *	(DIR/.build-id/NN/REST.debug); NULL for /usr/lib/debug.
 * @sframe_opts: where files without SFrame get theirs (side-car
 *	directories, whether to convert); NULL for the defaults.
 * @convert_later: convert a file's .eh_frame only when a walk reaches it
 *	(sf_proc_modules_convert_at()), not when the file is loaded.
 * @files: the files.
 * @nfiles: their number.
 * @images: the images.
 * @nimages: their number.
 */
struct sf_image_set {
	uint8_t abi;
	const char *cmd;
	enum sf_names names;
	const char *debug_dir;
	const struct sf_sframe_opts *sframe_opts;
	bool convert_later;
	struct sf_proc_file **files;
	size_t nfiles;
	struct sf_proc_image **images;
	size_t nimages;
};

/** sf_image_set_free() - release every file and image of @set (not @set). */
void sf_image_set_free(struct sf_image_set *set);

/**
 * sf_image_set_report() - a line for each file of @set whose SFrame came
 * from a side-car or a conversion (sf_sframe_found_report()).
 * @set: the files.
 * @out: where to write.
 * @prog: the lines' prefix ("sframe: stack").
 */
void sf_image_set_report(const struct sf_image_set *set, FILE *out, const char *prog);

/**
 * sf_proc_file_open() - load @open_path into @f: with its SFrame section
 * when it has one, else as plain bytes for its symbols.
 * @f: a file of a set, not loaded yet.
 * @open_path: where to read it.
 *
 * Return: 0 (@f->loaded; @f->why says what is missing), or -1 when the file
 * cannot be read at all (@f->why says why: the caller may try another path).
 */
int sf_proc_file_open(struct sf_proc_file *f, const char *open_path);

/**
 * typedef sf_file_loader - load a file met for the first time.
 * @f: the new file (@f->key_path, @f->inode and @f->dev set from @m).
 * @m: the mapping it was met in.
 * @ctx: the loader's context.
 *
 * Loads @f->in with sf_proc_file_open() (or otherwise), or leaves @f not
 * loaded with @f->why set; the symbols are read afterwards.
 */
typedef void (*sf_file_loader)(struct sf_proc_file *f, const struct sf_map *m, void *ctx);

/**
 * struct sf_code_range - an executable mapping and the image it maps.
 * @start: its first address.
 * @end: the first address after it.
 * @img: the image.
 */
struct sf_code_range {
	uint64_t start;
	uint64_t end;
	struct sf_proc_image *img;
};

/**
 * struct sf_proc_modules - the module table of a process.
 * @abi: the process's SFrame ABI.
 * @set: the files and images the table refers to.
 * @own_set: @set was made for this table (sf_proc_modules_build()) and is
 *	freed with it.
 * @slots: the table's array.
 * @table: one module per executable mapping (for a section of several
 *	parts, one per range of a part's functions in the mapping, and the
 *	gaps between them); @user is its struct sf_proc_image, @sec NULL
 *	where the image has no SFrame.
 * @code: the executable mappings the table was made from, to make it again
 *	when a file's SFrame comes later (sf_proc_modules_convert_at()).
 * @ncode: their number.
 * @root: where sf_proc_modules_build() resolved the mapped paths of a
 *	process in another mount namespace: "/proc/PID/root (the mount
 *	namespace of process PID)"; "" when they were resolved in ours.
 */
struct sf_proc_modules {
	uint8_t abi;
	struct sf_image_set *set;
	bool own_set;
	struct sframe_module *slots;
	struct sframe_module_table table;
	struct sf_code_range *code;
	size_t ncode;
	char root[96];
};

/**
 * sf_proc_modules_build() - load every executable mapping of @maps.
 * @pid: the process. Its files are opened through /proc/PID/map_files
 *	where that is permitted (the mapped inode itself, deleted or not),
 *	else by their paths: inside /proc/PID/root when its mount namespace
 *	is not ours (maps paths are then relative to it), resolved as in its
 *	root (openat2()
 *	RESOLVE_IN_ROOT, or step by step without following any link out of
 *	it), else in ours. A file found by its path is used only when it is
 *	the device and inode the mapping names; else @why says so.
 * @maps: its mappings.
 * @abi: the process's SFrame ABI; sections of another ABI are not used.
 * @opts: where files without SFrame get theirs; NULL for the defaults.
 * @read_mem: reads the process's memory (for the [vdso] image); may fail.
 * @mem_ctx: passed to @read_mem.
 * @pm: filled; free with sf_proc_modules_free() (also after a failure).
 * @err: message on failure.
 * @errlen: its size.
 *
 * Files that cannot be read or have no SFrame still get their modules (with
 * a NULL section), so that the frame-pointer fallback and the symbols work
 * through them where possible.
 *
 * Return: 0, or -1 (out of memory) with @err set.
 */
int sf_proc_modules_build(pid_t pid, const struct sf_maps *maps, uint8_t abi,
			  const struct sf_sframe_opts *opts, sframe_read_fn read_mem, void *mem_ctx, struct sf_proc_modules *pm,
			  char *err, size_t errlen);

/**
 * sf_proc_modules_build_in() - sf_proc_modules_build() over a set of files
 * kept by the caller: files and images already in @set are reused, new ones
 * added to it (loaded by @load).
 * @set: the files; outlives @pm.
 * @maps: the mappings (executable ones get modules, as
 *	sf_proc_modules_build() says).
 * @load: loads a file met for the first time.
 * @ctx: passed to @load.
 * @pm: filled; free with sf_proc_modules_free() (also after a failure).
 * @err: message on failure.
 * @errlen: its size.
 *
 * Return: 0, or -1 (out of memory) with @err set.
 */
int sf_proc_modules_build_in(struct sf_image_set *set, const struct sf_maps *maps,
			     sf_file_loader load, void *ctx, struct sf_proc_modules *pm,
			     char *err, size_t errlen);

/**
 * sf_proc_modules_convert_at() - convert the file mapped at @pc now, when
 * its conversion was put off (&struct sf_image_set.convert_later), and
 * make @pm's table again with its section.
 * @pm: the table.
 * @pc: an address a walk reached.
 *
 * Return: 1 when a section was added (walk again), 0 when there was
 * nothing to convert or the conversion gave nothing (the file's @why says
 * why), -1 when out of memory.
 */
int sf_proc_modules_convert_at(struct sf_proc_modules *pm, uint64_t pc);

/** sf_proc_modules_free() - release @pm (and its set when it owns it). */
void sf_proc_modules_free(struct sf_proc_modules *pm);

/**
 * sf_proc_image_at() - the image whose executable mapping contains @addr.
 * Return: the image or NULL.
 */
const struct sf_proc_image *sf_proc_image_at(const struct sf_proc_modules *pm, uint64_t addr);

/**
 * sf_proc_file_load_memory() - load @f from the process's memory, as the
 * [vdso] is (an ELF image mapped at @m->start, @m's size), for loaders.
 * @f: the file, not loaded yet.
 * @m: its mapping.
 * @read_mem: reads the process's memory.
 * @mem_ctx: passed to @read_mem.
 *
 * @f stays not loaded, with @f->why set, when the memory cannot be read.
 */
void sf_proc_file_load_memory(struct sf_proc_file *f, const struct sf_map *m,
			      sframe_read_fn read_mem, void *mem_ctx);

#endif /* SFRAME_TOOL_PROC_MAPS_H */
