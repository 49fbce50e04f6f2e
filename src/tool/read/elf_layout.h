/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * elf_layout.h - where the fields of the ELF structures lie, per class: the
 * tables elf_input.c reads files with and cmd_convert.c and elf_add.c write
 * theirs with, so that each offset is written once for all.
 */
#ifndef SFRAME_TOOL_ELF_LAYOUT_H
#define SFRAME_TOOL_ELF_LAYOUT_H

/* Where a field of an ELF structure lies, and its width in bytes. */
struct elf_field {
	unsigned char off;
	unsigned char width;
};

/*
 * The layout of the structures read here, one table per ELF class: the ELF
 * header, a section header (section 0's size, link and info fields carry
 * extended numbering), a program header, a symbol, a relocation (r_info
 * splits into symbol and type by @r_sym_shift).
 */
struct elf_layout {
	unsigned char ehsize, shentsize, phentsize, symentsize, relentsize, relaentsize;
	struct elf_field e_type, e_machine, e_version, e_entry, e_phoff, e_shoff, e_flags,
		e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
	struct elf_field sh_name, sh_type, sh_flags, sh_addr, sh_offset, sh_size, sh_link,
		sh_info, sh_entsize, sh_addralign;
	struct elf_field p_type, p_flags, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
	struct elf_field st_name, st_info, st_shndx, st_value, st_size;
	struct elf_field r_offset, r_info, r_addend;
	unsigned char r_sym_shift;
};

/* ELFCLASS64 and ELFCLASS32 (defined in elf_input.c). */
extern const struct elf_layout sf_elf64_layout;
extern const struct elf_layout sf_elf32_layout;

#endif /* SFRAME_TOOL_ELF_LAYOUT_H */
