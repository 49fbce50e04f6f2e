/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * elf_file.h - the ELF reader's insides, shared by its files (elf_input.c,
 * elf_rel.c, elf_symbols.c, elf_plt.c, elf_notes.c) and by no one else: one
 * decoder of the header and one set of checked getters, so that every part
 * of the reader trusts the same bounds checks.
 */
#ifndef SFRAME_TOOL_ELF_FILE_H
#define SFRAME_TOOL_ELF_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/elf_input.h"
#include "read/elf_layout.h"

/* An ELF file's header, extended numbering applied (by elf_parse_ehdr()). */
struct elf_file {
	const unsigned char *data;
	size_t size;
	const struct elf_layout *L;
	bool be;
	uint16_t type;
	uint16_t machine;
	uint64_t shoff;
	uint64_t shnum;
	uint64_t shentsize;
	uint64_t shstrndx;
	uint64_t phoff;
	uint64_t phnum;
	uint64_t phentsize;
};

/* A section header. */
struct elf_shdr {
	uint32_t name;
	uint32_t type;
	uint64_t flags;
	uint64_t addr;
	uint64_t offset;
	uint64_t size;
	uint32_t link;
	uint32_t info;
	uint64_t entsize;
};

/* ---- Byte decoding -------------------------------------------------------- */

/* Two's-complement sign extension of a @width-byte value, without UB. */
static inline int64_t sign_extend(uint64_t v, unsigned width)
{
	uint64_t sign = (uint64_t)1 << (8 * width - 1);

	if (width < 8)
		v &= (sign << 1) - 1;
	if (v & sign)
		return -(int64_t)(~v & (sign - 1)) - 1;
	return (int64_t)v;
}

/* True when [off, off + len) lies inside a buffer of @size bytes. */
static inline bool in_bounds(uint64_t off, uint64_t len, uint64_t size)
{
	return !(off > size || len > size - off);
}

/* Field @f of the structure at @rec. */
static inline uint64_t get(const struct elf_file *ef, const unsigned char *rec,
			   struct elf_field f)
{
	return sf_get_uint(rec + f.off, f.width, ef->be);
}

/* Section @idx; the table was bounds-checked by elf_parse_ehdr(). */
static inline void get_shdr(const struct elf_file *ef, uint64_t idx, struct elf_shdr *sh)
{
	const unsigned char *s = ef->data + ef->shoff + idx * ef->shentsize;

	sh->name = (uint32_t)get(ef, s, ef->L->sh_name);
	sh->type = (uint32_t)get(ef, s, ef->L->sh_type);
	sh->flags = get(ef, s, ef->L->sh_flags);
	sh->addr = get(ef, s, ef->L->sh_addr);
	sh->offset = get(ef, s, ef->L->sh_offset);
	sh->size = get(ef, s, ef->L->sh_size);
	sh->link = (uint32_t)get(ef, s, ef->L->sh_link);
	sh->info = (uint32_t)get(ef, s, ef->L->sh_info);
	sh->entsize = get(ef, s, ef->L->sh_entsize);
}

/* Entries large enough, all inside the file. */
static inline bool phdr_table_ok(const struct elf_file *ef)
{
	/* phnum < 2^32 and phentsize < 2^16: the product cannot wrap. */
	return ef->phentsize >= ef->L->phentsize && ef->phnum <= UINT32_MAX &&
	       in_bounds(ef->phoff, ef->phnum * ef->phentsize, ef->size);
}

/* Program header @idx; the table passed phdr_table_ok(). */
static inline void get_phdr(const struct elf_file *ef, uint64_t idx, struct sf_elf_segment *ph)
{
	const unsigned char *p = ef->data + ef->phoff + idx * ef->phentsize;

	ph->type = (uint32_t)get(ef, p, ef->L->p_type);
	ph->flags = (uint32_t)get(ef, p, ef->L->p_flags);
	ph->offset = get(ef, p, ef->L->p_offset);
	ph->vaddr = get(ef, p, ef->L->p_vaddr);
	ph->filesz = get(ef, p, ef->L->p_filesz);
	ph->memsz = get(ef, p, ef->L->p_memsz);
	ph->align = get(ef, p, ef->L->p_align);
}

/* The ELF header as written: 0, or -1 with "PATH: message" in @err. */
int elf_parse_ehdr_fields(struct elf_file *ef, const char *path, char *err, size_t errlen);

/* The ELF header with extended numbering applied, the section header table checked. */
int elf_parse_ehdr(struct elf_file *ef, const char *path, char *err, size_t errlen);

/* *@p: section @sh's bytes, once checked against the file (@what names it). */
int elf_section_bytes(const struct elf_file *ef, const struct elf_shdr *sh, const char *what,
		      const unsigned char **p, const char *path, char *err, size_t errlen);

/* @ef over @file, its section header table checked; -1 with @err set. */
int elf_open_sections(struct elf_file *ef, const unsigned char *file, size_t size,
		      const char *path, char *err, size_t errlen);

/* A .o's .sframe (section @sec_idx): @in->sec becomes its relocated copy. */
int elf_relocate_sframe(const struct elf_file *ef, uint64_t sec_idx, struct sf_input *in,
			const char *path, char *err, size_t errlen);

/* Where a section is at run time, [start, end); start == end when it is not allocated. */
struct sec_range {
	uint64_t start;
	uint64_t end;
};

/* struct sf_symbol.rank: a class (global, weak, local, PLT entry) | table index. */
#define RANK_WEAK		(UINT64_C(1) << 32)
#define RANK_LOCAL		(UINT64_C(2) << 32)
#define RANK_PLT		(UINT64_C(3) << 32)
#define RANK_CLASS(r)		((r) >> 32)

/* One symbol into @info->syms (elf_symbols.c says which are kept). */
void elf_add_symbol(struct sf_elf_info *info, const struct sec_range *sec, uint64_t addr,
		    uint64_t size, uint64_t rank, const char *name);

/* The PLT entries with a name, as "name@plt" symbols into @info (elf_plt.c). */
int elf_add_plt_symbols(const struct elf_file *ef, const struct sec_range *secs,
			struct sf_elf_info *info, char *err, size_t errlen);

#endif /* SFRAME_TOOL_ELF_FILE_H */
