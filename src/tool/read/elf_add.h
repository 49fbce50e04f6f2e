/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * elf_add.h - a copy of a linked ELF64 file with an SFrame section added as
 * the kernel loads one: in a new read-only PT_LOAD segment, named by a
 * PT_GNU_SFRAME program header ("sframe convert --elf").
 *
 * The copy is the input's bytes unchanged, then the new segment (the
 * program header table, moved there when the input's has no room for two
 * more entries, then .sframe), then a grown section name string table and a
 * section header table with a .sframe section. Only the ELF header, the
 * program header table (grown in place when it has room) and, with a
 * replaced SFrame, the .sframe section header change; all else keeps its
 * offset and address.
 *
 * Planning comes first, because the section must be converted for the
 * address it will have: sf_elf_add_plan() says where it goes, then
 * sf_elf_add_image() writes the copy around the converted bytes.
 */
#ifndef SFRAME_TOOL_ELF_ADD_H
#define SFRAME_TOOL_ELF_ADD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/elf_input.h"

/* No such entry: the index fields of struct sf_elf_add_plan. */
#define SF_ELF_ADD_NONE UINT64_MAX

/**
 * struct sf_elf_add_plan - where the new segment and section go.
 * @be: the file is big-endian.
 * @file_size: the input's size.
 * @phoff: the input's e_phoff.
 * @phnum: its number of program headers.
 * @phentsize: its e_phentsize (kept: the moved table's entries are copied whole).
 * @new_phnum: the copy's number of program headers.
 * @last_load: the index of the input's last PT_LOAD entry: the new one
 *	follows it, as loaders want PT_LOAD entries in address order.
 * @old_ph_sframe: the PT_GNU_SFRAME entry replaced (SF_ELF_ADD_NONE: a new
 *	one goes at the end of the table).
 * @in_place: the table grows where it is (the zero bytes after it are
 *	loaded and claimed by nothing else); else it moves to the start of
 *	the new segment.
 * @seg_offset: the new segment's file offset (the new e_phoff when the
 *	table moves).
 * @seg_vaddr: its address.
 * @seg_align: its p_align: the largest of the input's PT_LOAD segments (at
 *	least 4096).
 * @padded: the segment's address minus its offset is that of the first
 *	PT_LOAD, the file padded with zeros up to it (else the file is only
 *	rounded up to 4096 and the address chosen congruent to the offset).
 * @sframe_offset: the .sframe section's file offset, after the table when
 *	it moved, else at the segment's start.
 * @sframe_addr: its address: what the section is converted for.
 * @sh: the input's section header table (@sh.shnum 0: none, and the copy
 *	has none either).
 * @old_sh_sframe: the .sframe section header replaced (SF_ELF_ADD_NONE: a
 *	new section is appended to the table).
 * @strtab_offset: the section name string table's file offset (used when
 *	a section is appended).
 * @strtab_size: its size.
 */
struct sf_elf_add_plan {
	bool be;
	uint64_t file_size;
	uint64_t phoff;
	uint64_t phnum;
	uint64_t phentsize;
	uint64_t new_phnum;
	uint64_t last_load;
	uint64_t old_ph_sframe;
	bool in_place;
	uint64_t seg_offset;
	uint64_t seg_vaddr;
	uint64_t seg_align;
	bool padded;
	uint64_t sframe_offset;
	uint64_t sframe_addr;
	struct sf_elf_shtab sh;
	uint64_t old_sh_sframe;
	uint64_t strtab_offset;
	uint64_t strtab_size;
};

/*
 * The highest address the new segment may reach: the top of x86-64's
 * 47-bit user address space, the smallest of those the tool converts for.
 */
#define SF_ELF_ADD_ADDR_LIMIT (UINT64_C(1) << 47)

/*
 * The most zero bytes sf_elf_add_plan() pads the file with to keep the
 * new segment's address minus offset equal to the first segment's (see
 * elf_add.c); past that the file stays compact.
 */
#define SF_ELF_ADD_PAD_MAX (UINT64_C(1) << 20)

/**
 * sf_elf_add_plan() - plan the copy of an ELF file with a new .sframe.
 * @file: the input's bytes.
 * @size: their number.
 * @replace: the input may have SFrame already (a .sframe section, a
 *	PT_GNU_SFRAME entry): the new section takes their place.
 * @p: filled on success.
 * @path: the file's name, for messages.
 * @err: "PATH: message" on failure.
 * @errlen: its size.
 *
 * Refuses what cannot be loaded or has no room: a file that is not ELF64,
 * not an executable or shared library (ET_EXEC, ET_DYN), without PT_LOAD
 * segments, with extended program header numbering or a table that would
 * need it, with SFrame already unless @replace, with section headers but
 * no name table (or one that is loaded), or segments that leave no address
 * below SF_ELF_ADD_ADDR_LIMIT.
 *
 * Return: 0, or -1 with @err set.
 */
int sf_elf_add_plan(const unsigned char *file, size_t size, bool replace,
		    struct sf_elf_add_plan *p, const char *path, char *err, size_t errlen);

/**
 * sf_elf_add_image() - the copy, in a malloc()ed buffer.
 * @file: the input's bytes, as given to sf_elf_add_plan().
 * @p: its plan.
 * @sec: the .sframe section, converted for @p->sframe_addr.
 * @len: its size.
 * @out_size: set to the copy's size.
 * @path: the output's name, for messages.
 * @err: "PATH: message" on failure.
 * @errlen: its size.
 *
 * Return: the copy, or NULL with @err set (out of memory, or a section
 * that would end past SF_ELF_ADD_ADDR_LIMIT).
 */
unsigned char *sf_elf_add_image(const unsigned char *file, const struct sf_elf_add_plan *p,
				const void *sec, size_t len, size_t *out_size, const char *path,
				char *err, size_t errlen);

#endif /* SFRAME_TOOL_ELF_ADD_H */
