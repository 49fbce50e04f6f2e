/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * elf_input.h - load a file and find the SFrame section in it (hosted tool).
 * The tools' one ELF reader: symbols, PLT entries, executable segments and
 * load biases come from here too.
 *
 * FILE may be an ELF file of either class and byte order (the .sframe
 * section, or the PT_GNU_SFRAME segment when there is no such section), or a
 * raw section as written by "objcopy -O binary --only-section=.sframe".
 * Every ELF field is decoded from bytes in the file's own byte order, and
 * every offset and size is checked against the file before it is used.
 */
#ifndef SFRAME_TOOL_ELF_INPUT_H
#define SFRAME_TOOL_ELF_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/**
 * struct sf_input - a loaded file and the SFrame section found in it.
 * @file: the whole file (owned): mapped read-only, or read into memory.
 * @file_size: its size.
 * @mapped: @file is a mapping (else allocated).
 * @sec: the section bytes: inside @file, or @owned_copy for a relocated
 *	section of a relocatable object.
 * @sec_size: their number.
 * @vaddr: run-time address of the section's first byte (sh_addr, p_vaddr,
 *	0 for raw sections, or the caller's override).
 * @is_rel: the file is a relocatable object (ET_REL).
 * @how: "section", "segment" or "raw": where the bytes were found.
 * @owned_copy: the relocated copy of the section, or NULL.
 */
struct sf_input {
	unsigned char *file;
	size_t file_size;
	bool mapped;
	unsigned char *sec;
	uint64_t sec_size;
	uint64_t vaddr;
	int is_rel;
	const char *how;
	unsigned char *owned_copy;
};

/* Return values of sf_input_load(). */
#define SF_INPUT_OK		0
#define SF_INPUT_EIO		(-1)	/* the file could not be read */
#define SF_INPUT_EFORMAT	(-2)	/* its content is unusable */

/**
 * sf_input_load() - read @path and locate its SFrame section.
 * @path: the file.
 * @have_vaddr: use @vaddr instead of the address the file gives.
 * @vaddr: the override.
 * @in: filled on success; all zero on failure.
 * @err: receives "PATH: message" on failure.
 * @errlen: size of @err.
 *
 * Relocatable objects get the relocations of their .sframe section applied
 * to a private copy (see elf_rel.c for the value written).
 *
 * Return: SF_INPUT_OK, SF_INPUT_EIO or SF_INPUT_EFORMAT.
 */
int sf_input_load(const char *path, int have_vaddr, uint64_t vaddr, struct sf_input *in,
		  char *err, size_t errlen);

/**
 * sf_machine_name() - the name of an ELF e_machine, as people call it.
 * @machine: e_machine.
 * @buf: where "machine N" is written when the machine has no name here.
 * @len: size of @buf.
 *
 * Return: "x86-64", "AArch64", "s390x", ... or @buf.
 */
const char *sf_machine_name(uint16_t machine, char *buf, size_t len);

/**
 * sf_get_uint() - an unsigned integer stored in a given byte order.
 * @p: its first byte.
 * @width: its size in bytes, 1 to 8.
 * @be: stored big-endian (else little-endian).
 *
 * The tools' one decoder of file integers (ELF fields, snapshot records),
 * for bytes of any alignment on a host of either byte order.
 *
 * Return: the value.
 */
static inline uint64_t sf_get_uint(const unsigned char *p, unsigned width, bool be)
{
	uint64_t v = 0;
	unsigned i;

	/* The perf.data reader's u64s, millions of them: one load. */
	if (width == 8) {
		bool host_be = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

		memcpy(&v, p, 8);
		return be == host_be ? v : __builtin_bswap64(v);
	}
	for (i = 0; i < width; i++)
		v |= (uint64_t)p[be ? i : width - 1 - i] << (8 * (width - 1 - i));
	return v;
}

/**
 * sf_put_uint() - store an unsigned integer in a given byte order: the
 * inverse of sf_get_uint(), for the fields the tools write (relocated
 * values, the side-car's ELF headers).
 * @p: where its first byte goes.
 * @width: its size in bytes, 1 to 8.
 * @be: store it big-endian (else little-endian).
 * @v: the value; its bits above @width bytes are dropped.
 */
static inline void sf_put_uint(unsigned char *p, unsigned width, bool be, uint64_t v)
{
	unsigned i;

	for (i = 0; i < width; i++)
		p[be ? width - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/**
 * sf_errf() - "PATH: message" into @err, the tools' error messages about a
 * file (truncated to @errlen; nothing when @errlen is 0).
 * @err: where.
 * @errlen: its size.
 * @path: the file.
 * @fmt: printf format of the message, then its arguments.
 */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
void sf_errf(char *err, size_t errlen, const char *path, const char *fmt, ...);

/**
 * sf_input_is_elf() - whether a loaded file starts with the ELF magic.
 * @in: from sf_input_load() or sf_input_bytes().
 *
 * Return: true for an ELF file (of any class, valid or not).
 */
bool sf_input_is_elf(const struct sf_input *in);

/**
 * sf_input_bytes() - only the bytes of @path, for a file without SFrame.
 * @path: the file.
 * @in: @in->file and @in->file_size set, the rest zero.
 * @err: receives "PATH: message" on failure.
 * @errlen: size of @err.
 *
 * Return: SF_INPUT_OK or SF_INPUT_EIO.
 */
int sf_input_bytes(const char *path, struct sf_input *in, char *err, size_t errlen);

/**
 * sf_input_free() - release what sf_input_load() or sf_input_bytes() allocated.
 * @in: a loaded input, or one zeroed by a failed load; zeroed again.
 */
void sf_input_free(struct sf_input *in);

/**
 * struct sf_symbol - a function symbol, or a PLT entry.
 * @addr: st_value; a PLT entry's first byte.
 * @size: st_size (0 when unknown); a PLT entry's size.
 * @end: the first address after those it names: @addr + @size, or the end
 *	of its section for a symbol without size; never past its section.
 * @rank: among symbols at one address, the lower first (after those with a
 *	size): global, weak, local, then in symbol table order; PLT entries
 *	last. As eu-stack chooses.
 * @name: NUL-terminated, inside the loaded file; "name@plt" for a PLT
 *	entry, inside &struct sf_elf_info.names.
 */
struct sf_symbol {
	uint64_t addr;
	uint64_t size;
	uint64_t end;
	uint64_t rank;
	const char *name;
};

#define SF_MAX_TEXT 16

/**
 * struct sf_elf_info - what the unwind commands need from an ELF file.
 * @machine: e_machine.
 * @has_symtab: @syms come from a .symtab (not only .dynsym).
 * @syms: function symbols (.symtab, else .dynsym) and PLT entries, sorted
 *	by address, then as sf_symbol_find() chooses among them.
 * @nsyms: their number.
 * @names: the names of the PLT entries (owned), or NULL.
 * @text: executable PT_LOAD ranges [start, end), and the file offset of start.
 * @ntext: their number.
 */
struct sf_elf_info {
	uint16_t machine;
	bool has_symtab;
	struct sf_symbol *syms;
	size_t nsyms;
	char *names;
	struct {
		uint64_t start;
		uint64_t end;
		uint64_t offset;
	} text[SF_MAX_TEXT];
	size_t ntext;
};

/**
 * sf_elf_info_load() - read symbols and executable segments of a loaded ELF.
 * @in: from sf_input_load() (an ELF file, not a raw section).
 * @info: filled on success; free with sf_elf_info_free().
 * @err: message on failure.
 * @errlen: its size.
 *
 * Return: 0, or -1 with @err set.
 */
int sf_elf_info_load(const struct sf_input *in, struct sf_elf_info *info, char *err,
		     size_t errlen);

/**
 * enum sf_names - which of several symbols at one address names it.
 * @SF_NAMES_EU_STACK: as eu-stack and gdb: global, then weak, then local,
 *	then the first in the table ("brk").
 * @SF_NAMES_PERF: as perf: not weak, then global, then fewer leading
 *	underscores, then the longest name ("__brk").
 *
 * A symbol with a size always comes before an alias without one, and PLT
 * entries after the symbols.
 */
enum sf_names {
	SF_NAMES_EU_STACK,
	SF_NAMES_PERF,
};

/**
 * sf_elf_info_load_names() - sf_elf_info_load(), naming aliases as @names says.
 * @in: from sf_input_load() (an ELF file, not a raw section).
 * @info: filled on success; free with sf_elf_info_free().
 * @names: whose choice among aliases sf_symbol_find() returns.
 * @err: message on failure.
 * @errlen: its size.
 *
 * Return: 0, or -1 with @err set.
 */
int sf_elf_info_load_names(const struct sf_input *in, struct sf_elf_info *info,
			   enum sf_names names, char *err, size_t errlen);

/**
 * sf_elf_info_free() - release @info.
 * @info: as filled by sf_elf_info_load().
 */
void sf_elf_info_free(struct sf_elf_info *info);

/**
 * sf_symbol_find() - the function symbol containing @addr.
 * @info: loaded info.
 * @addr: an address.
 *
 * Return: among the symbols at the greatest address <= @addr, the first (by
 * &struct sf_symbol.rank) whose &struct sf_symbol.end lies above @addr; NULL
 * when there is none. A symbol without size names the addresses after it in
 * its section up to the next symbol, unless it lies inside a sized one (the
 * sized one names them), as eu-stack names them.
 */
const struct sf_symbol *sf_symbol_find(const struct sf_elf_info *info, uint64_t addr);


/**
 * sf_elf_load_bias() - the load bias of an ELF file from one of its mappings.
 * @file: the file's bytes.
 * @size: their number.
 * @map_start: the mapping's start address.
 * @map_offset: the mapping's file offset.
 * @bias: set on success.
 *
 * Finds the PT_LOAD segment that the mapping maps (preferring executable
 * ones): the segment's file range, rounded down to the page, contains
 * @map_offset. Then the byte at file offset p_offset has run-time address
 * p_vaddr + bias and the mapping's first byte is at file offset
 * @map_offset, so bias = @map_start - p_vaddr + p_offset - @map_offset.
 * That is @map_start minus the page-aligned p_vaddr for a mapping of a whole
 * segment, and right as well for a segment split by mprotect(). Works for
 * ET_EXEC (bias 0), PIE executables and shared libraries alike.
 *
 * Return: true when a segment was found.
 */
bool sf_elf_load_bias(const unsigned char *file, size_t size, uint64_t map_start,
		      uint64_t map_offset, uint64_t *bias);

/**
 * sf_elf_machine() - the e_machine of an ELF file (either class and byte order).
 * @file: the file's bytes.
 * @size: their number.
 *
 * Return: e_machine, or 0 when @file is not an ELF file.
 */
uint16_t sf_elf_machine(const unsigned char *file, size_t size);

/* The longest build id sf_elf_build_id() returns (a SHA-1 is 20 bytes). */
#define SF_BUILD_ID_MAX 64

/**
 * sf_elf_build_id() - the GNU build id of an ELF file (NT_GNU_BUILD_ID).
 * @file: the file's bytes.
 * @size: their number.
 * @id: set to the id's first byte, inside @file.
 * @len: set to its length (1 to SF_BUILD_ID_MAX).
 *
 * Looks in the PT_NOTE segments, then in the SHT_NOTE sections.
 *
 * Return: true when the file has one.
 */
bool sf_elf_build_id(const unsigned char *file, size_t size, const unsigned char **id,
		     size_t *len);

/**
 * struct sf_build_id_note - a file's GNU build-id note, whole.
 * @note: its first byte (n_namesz), inside the file.
 * @size: its size: the 12-byte header, the name and the descriptor, each
 *	padded to @align.
 * @align: the alignment of the notes it is among: 4 or 8.
 * @addr: its address: its PT_NOTE segment's or SHT_NOTE section's address
 *	plus its place in it.
 * @id: the id, inside the note (as sf_elf_build_id() returns it).
 * @len: its length (1 to SF_BUILD_ID_MAX).
 */
struct sf_build_id_note {
	const unsigned char *note;
	uint64_t size;
	uint64_t align;
	uint64_t addr;
	const unsigned char *id;
	size_t len;
};

/**
 * sf_elf_build_id_note() - the GNU build-id note of an ELF file, found as
 * sf_elf_build_id() finds the id (it is the same search).
 * @file: the file's bytes.
 * @size: their number.
 * @note: filled when there is one; zeroed otherwise.
 *
 * Return: true when the file has one.
 */
bool sf_elf_build_id_note(const unsigned char *file, size_t size, struct sf_build_id_note *note);

/**
 * sf_build_id_hex() - a build id in lowercase hex, as paths and tools name it.
 * @out: 2 * @len + 1 bytes: the digits, then a NUL.
 * @id: the id's bytes.
 * @len: their number.
 */
void sf_build_id_hex(char *out, const unsigned char *id, size_t len);

/**
 * sf_notes_build_id() - the GNU build id in a sequence of ELF notes (such
 * as /sys/kernel/notes, the running kernel's).
 * @notes: the notes.
 * @size: their size in bytes.
 * @align: their alignment: 8, else 4.
 * @be: they are big-endian.
 * @id: set to the id's first byte, inside @notes.
 * @len: set to its length (1 to SF_BUILD_ID_MAX).
 *
 * Return: true when one was found.
 */
bool sf_notes_build_id(const unsigned char *notes, size_t size, uint64_t align, bool be,
		       const unsigned char **id, size_t *len);

/**
 * struct sf_elf_phdrs - an ELF file's header, as far as its program header
 * table goes (for readers of core files, whose content is all segments).
 * @be: the file is big-endian (EI_DATA).
 * @is64: ELFCLASS64.
 * @type: e_type.
 * @machine: e_machine.
 * @phoff: e_phoff.
 * @phnum: the number of program headers (extended numbering applied).
 * @phentsize: e_phentsize.
 */
struct sf_elf_phdrs {
	bool be;
	bool is64;
	uint16_t type;
	uint16_t machine;
	uint64_t phoff;
	uint64_t phnum;
	uint64_t phentsize;
};

/**
 * struct sf_elf_segment - one program header.
 * @type: p_type.
 * @flags: p_flags (PF_R, PF_W, PF_X).
 * @offset: p_offset.
 * @vaddr: p_vaddr.
 * @filesz: p_filesz.
 * @memsz: p_memsz.
 * @align: p_align.
 */
struct sf_elf_segment {
	uint32_t type;
	uint32_t flags;
	uint64_t offset;
	uint64_t vaddr;
	uint64_t filesz;
	uint64_t memsz;
	uint64_t align;
};

/**
 * sf_elf_phdrs_read() - decode the ELF header and check the program header
 * table's bounds.
 * @file: the file's bytes.
 * @size: their number.
 * @ph: filled on success.
 * @err: a message on failure (naming the offsets at fault).
 * @errlen: its size.
 *
 * Return: 0, or -1 when @file is no ELF file or its header or program
 * header table do not fit in it.
 */
int sf_elf_phdrs_read(const unsigned char *file, size_t size, struct sf_elf_phdrs *ph,
		      char *err, size_t errlen);

/**
 * sf_elf_segment_get() - program header @idx (below @ph->phnum) of a file
 * that passed sf_elf_phdrs_read().
 */
void sf_elf_segment_get(const unsigned char *file, const struct sf_elf_phdrs *ph, uint64_t idx,
			struct sf_elf_segment *seg);

/**
 * struct sf_elf_loads - where a file's PT_LOAD segments lie, for the
 * writers that put something after them.
 * @end: the highest p_vaddr + p_memsz.
 * @align: the largest p_align, at least 4096.
 * @first: the first PT_LOAD segment.
 * @last: the index of the last one.
 * @any: there is one.
 */
struct sf_elf_loads {
	uint64_t end;
	uint64_t align;
	struct sf_elf_segment first;
	uint64_t last;
	bool any;
};

/**
 * sf_elf_loads_init() - @l with no segment yet.
 * @l: to be filled by sf_elf_loads_add().
 */
void sf_elf_loads_init(struct sf_elf_loads *l);

/**
 * sf_elf_loads_add() - one more PT_LOAD segment into @l, in program
 * header order.
 * @l: from sf_elf_loads_init().
 * @seg: PT_LOAD segment @idx.
 * @idx: its index, for @l->last and messages.
 * @path: the file's name, for messages.
 * @err: "PATH: message" on failure.
 * @errlen: its size.
 *
 * Return: 0, or -1 when the segment's addresses wrap around the end of the
 * address space (@l then unchanged).
 */
int sf_elf_loads_add(struct sf_elf_loads *l, const struct sf_elf_segment *seg, uint64_t idx,
		     const char *path, char *err, size_t errlen);

/**
 * struct sf_elf_note - one ELF note.
 * @type: n_type.
 * @name: its name's bytes (@namesz of them, the NUL included when written).
 * @namesz: n_namesz.
 * @desc: its descriptor's bytes.
 * @descsz: n_descsz.
 */
struct sf_elf_note {
	uint32_t type;
	const unsigned char *name;
	uint32_t namesz;
	const unsigned char *desc;
	uint32_t descsz;
};

/**
 * sf_elf_note_next() - the note at *@pos of a sequence of notes: the one
 * decoder of the note header.
 * @notes: the notes.
 * @size: their size in bytes.
 * @align: their alignment: 8, else 4.
 * @be: they are big-endian.
 * @pos: the offset of the note in @notes; moved past it.
 * @note: filled when one is returned.
 *
 * Return: 1 a note; 0 the end (fewer bytes left than a note header); -1 the
 * note at *@pos (left there) runs past @size.
 */
int sf_elf_note_next(const unsigned char *notes, size_t size, uint64_t align, bool be,
		     uint64_t *pos, struct sf_elf_note *note);

/**
 * struct sf_elf_section - one section header, decoded.
 * @index: its index in the section header table.
 * @type: sh_type.
 * @flags: sh_flags.
 * @addr: sh_addr.
 * @offset: sh_offset.
 * @size: sh_size.
 * @addralign: sh_addralign.
 * @data: its bytes inside the file (checked to lie inside it), or NULL
 *	for an SHT_NOBITS section.
 */
struct sf_elf_section {
	uint64_t index;
	uint32_t type;
	uint64_t flags;
	uint64_t addr;
	uint64_t offset;
	uint64_t size;
	uint64_t addralign;
	const unsigned char *data;
};

/**
 * sf_elf_num_sections() - the number of sections of an ELF file.
 * @file: the file's bytes.
 * @size: their number.
 *
 * Return: the count, extended numbering applied; 0 when the file has no
 * section header table (or is no ELF file, or its table is out of bounds).
 */
uint64_t sf_elf_num_sections(const unsigned char *file, size_t size);

/**
 * sf_elf_section_find() - the first section named @name.
 * @file: the file's bytes.
 * @size: their number.
 * @name: the section name.
 * @sec: filled when it is found.
 * @path: the file's name, for messages.
 * @err: "PATH: message" on failure.
 * @errlen: its size.
 *
 * Return: 1 found, 0 no such section (or no section headers), -1 an ELF
 * header, section header table or name table that cannot be read, or a
 * section whose bytes do not lie inside the file.
 */
int sf_elf_section_find(const unsigned char *file, size_t size, const char *name,
			struct sf_elf_section *sec, const char *path, char *err, size_t errlen);

/**
 * struct sf_elf_shtab - where an ELF file's section header table is, for
 * a writer that copies it.
 * @shoff: e_shoff; 0 when the file has no section headers.
 * @shnum: the number of sections, extended numbering applied; 0 without a table.
 * @shentsize: e_shentsize (at least the class's size when @shnum is not 0).
 * @shstrndx: the index of the section name string table, extended
 *	numbering applied; SHN_UNDEF when there is none.
 * @ext_shnum: e_shnum is 0 and section 0's sh_size holds the count.
 */
struct sf_elf_shtab {
	uint64_t shoff;
	uint64_t shnum;
	uint64_t shentsize;
	uint64_t shstrndx;
	bool ext_shnum;
};

/**
 * sf_elf_shtab_read() - the section header table's place and size.
 * @file: the file's bytes.
 * @size: their number.
 * @t: filled on success.
 * @path: the file's name, for messages.
 * @err: "PATH: message" on failure.
 * @errlen: its size.
 *
 * Return: 0 (the table lies inside the file, @t->shstrndx below
 * @t->shnum or SHN_UNDEF), or -1.
 */
int sf_elf_shtab_read(const unsigned char *file, size_t size, struct sf_elf_shtab *t,
		      const char *path, char *err, size_t errlen);

/**
 * sf_elf_section_at() - section @idx, decoded as sf_elf_section_find() does.
 * @file: the file's bytes.
 * @size: their number.
 * @idx: its index.
 * @sec: filled on success (@sec->data NULL for SHT_NOBITS).
 * @path: the file's name, for messages.
 * @err: "PATH: message" on failure.
 * @errlen: its size.
 *
 * Return: 0, or -1 for an index out of range, an unreadable table or
 * bytes that do not lie inside the file.
 */
int sf_elf_section_at(const unsigned char *file, size_t size, uint64_t idx,
		      struct sf_elf_section *sec, const char *path, char *err, size_t errlen);

/**
 * sf_elf_section_relocated() - a section of a relocatable object with the
 * relocations aimed at it applied, as sf_input_load() applies those of
 * .sframe: every section of the object at address 0, so that a PC-relative
 * value read at the section's address 0 gives the function's offset in its
 * own section (what lookups in the relocated .sframe of that .o answer).
 * The value written is the relocation type's (S + A - P or S + A).
 * @file: the file's bytes.
 * @size: their number.
 * @sec: the section, from sf_elf_section_find().
 * @name: its name, for messages.
 * @copy: set to the relocated copy (malloc()ed, @sec->size bytes); NULL
 *	when nothing is aimed at it or the file is not ET_REL (its bytes are
 *	then used as they are).
 * @path: the file's name, for messages.
 * @err: "PATH: message" on failure.
 * @errlen: its size.
 *
 * Return: 0, or -1 (a relocation that cannot be applied, or no memory).
 */
int sf_elf_section_relocated(const unsigned char *file, size_t size,
			     const struct sf_elf_section *sec, const char *name,
			     unsigned char **copy, const char *path, char *err, size_t errlen);

#endif /* SFRAME_TOOL_ELF_INPUT_H */
