/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * elf_notes.c - ELF notes and GNU build ids: a file is matched with the
 * one perf recorded, a core's mapping or a side-car by its build id, never
 * by its path alone.
 */
#include "read/elf_file.h"

#include <elf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sf_elf_note_next(const unsigned char *notes, size_t size, uint64_t align, bool be,
		     uint64_t *pos, struct sf_elf_note *note)
{
	const unsigned char *n;
	uint64_t namesz, descsz, name_pad, desc_pad, left;

	if (align != 8)
		align = 4;
	if (*pos > size || size - *pos < 12)
		return 0;
	left = size - *pos - 12;
	n = notes + *pos;
	namesz = sf_get_uint(n, 4, be);
	descsz = sf_get_uint(n + 4, 4, be);
	/* Sizes below 2^32: the sums cannot wrap. */
	name_pad = (namesz + align - 1) & ~(align - 1);
	desc_pad = (descsz + align - 1) & ~(align - 1);
	if (name_pad > left || desc_pad > left - name_pad)
		return -1;
	note->type = (uint32_t)sf_get_uint(n + 8, 4, be);
	note->name = n + 12;
	note->namesz = (uint32_t)namesz;
	note->desc = n + 12 + name_pad;
	note->descsz = (uint32_t)descsz;
	*pos += 12 + name_pad + desc_pad;
	return 1;
}

/* The GNU build-id note among @notes: also where it starts in them, and its size. */
static bool notes_build_id(const unsigned char *notes, size_t size, uint64_t align, bool be,
			   const unsigned char **id, size_t *len, uint64_t *at, uint64_t *note_size)
{
	struct sf_elf_note n;
	uint64_t pos = 0, start = 0;

	while (sf_elf_note_next(notes, size, align, be, &pos, &n) == 1) {
		if (n.type == NT_GNU_BUILD_ID && n.namesz == 4 && memcmp(n.name, "GNU", 4) == 0 &&
		    n.descsz > 0 && n.descsz <= SF_BUILD_ID_MAX) {
			*id = n.desc;
			*len = n.descsz;
			*at = start;
			*note_size = pos - start;
			return true;
		}
		start = pos;
	}
	return false;
}

bool sf_notes_build_id(const unsigned char *notes, size_t size, uint64_t align, bool be,
		       const unsigned char **id, size_t *len)
{
	uint64_t at, note_size;

	return notes_build_id(notes, size, align, be, id, len, &at, &note_size);
}

/*
 * The GNU build id among the notes at [@off, @off + @size) of the file,
 * loaded at @addr.
 */
static bool find_build_id(const struct elf_file *ef, uint64_t off, uint64_t size, uint64_t align,
			  uint64_t addr, struct sf_build_id_note *note)
{
	uint64_t at;

	if (!in_bounds(off, size, ef->size) ||
	    !notes_build_id(ef->data + off, (size_t)size, align, ef->be, &note->id, &note->len,
			    &at, &note->size))
		return false;
	note->note = ef->data + off + at;
	note->align = align == 8 ? 8 : 4;
	note->addr = addr + at;
	return true;
}

void sf_build_id_hex(char *out, const unsigned char *id, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = digits[id[i] >> 4];
		out[2 * i + 1] = digits[id[i] & 15];
	}
	out[2 * len] = '\0';
}

bool sf_elf_build_id_note(const unsigned char *file, size_t size, struct sf_build_id_note *note)
{
	struct elf_file ef;
	uint64_t i;

	memset(note, 0, sizeof(*note));
	memset(&ef, 0, sizeof(ef));
	ef.data = file;
	ef.size = size;
	if (size < SELFMAG || memcmp(file, ELFMAG, SELFMAG) != 0 ||
	    elf_parse_ehdr_fields(&ef, "", NULL, 0))
		return false;
	if (ef.phnum && phdr_table_ok(&ef)) {
		for (i = 0; i < ef.phnum; i++) {
			struct sf_elf_segment ph;

			get_phdr(&ef, i, &ph);
			if (ph.type == PT_NOTE &&
			    find_build_id(&ef, ph.offset, ph.filesz, ph.align, ph.vaddr, note))
				return true;
		}
	}
	if (elf_parse_ehdr(&ef, "", NULL, 0))
		return false;
	for (i = 0; i < ef.shnum; i++) {
		struct elf_shdr sh;

		get_shdr(&ef, i, &sh);
		if (sh.type == SHT_NOTE &&
		    find_build_id(&ef, sh.offset, sh.size,
				  get(&ef, ef.data + ef.shoff + i * ef.shentsize, ef.L->sh_addralign),
				  sh.addr, note))
			return true;
	}
	memset(note, 0, sizeof(*note));
	return false;
}

bool sf_elf_build_id(const unsigned char *file, size_t size, const unsigned char **id,
		     size_t *len)
{
	struct sf_build_id_note note;

	if (!sf_elf_build_id_note(file, size, &note))
		return false;
	*id = note.id;
	*len = note.len;
	return true;
}
