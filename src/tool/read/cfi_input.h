/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * cfi_input.h - what the DWARF-CFI-to-SFrame converter (sframe_convert.h)
 * reads of an ELF file, and what "sframe convert" writes beside it: the
 * .eh_frame and .debug_frame bytes, the executable ranges, the machine and
 * byte order, the address the new .sframe section will have, the build-id
 * note that ties the side-car to its input.
 *
 * Every ELF structure is decoded by elf_input.c; every offset and size taken
 * from the file is checked against it before use.
 */
#ifndef SFRAME_TOOL_CFI_INPUT_H
#define SFRAME_TOOL_CFI_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sframe/sframe_convert.h>

#include "read/elf_input.h"

/**
 * struct sf_cfi_input - an ELF file's call-frame information, ready for
 * sframe_convert_size() and sframe_convert().
 * @conv: the converter's input: @conv.eh_frame and @conv.debug_frame (data
 *	inside the file, or inside @eh_frame_copy and @debug_frame_copy),
 *	@conv.machine, @conv.big_endian, @conv.text (= @text), @conv.sframe_addr
 *	(the default, sf_elf_free_addr()'s), @conv.version 0 (v3). The caller
 *	may change @conv.version and @conv.sframe_addr.
 * @type: e_type (ET_EXEC, ET_DYN, ET_REL, ...).
 * @osabi: e_ident[EI_OSABI].
 * @abiversion: e_ident[EI_ABIVERSION].
 * @flags: e_flags.
 * @eh_frame_from: where .eh_frame was found: "section", "PT_GNU_EH_FRAME"
 *	(a file without section headers: through .eh_frame_hdr, its size then
 *	bounded by the end of its PT_LOAD segment's file bytes), or NULL when
 *	there is none.
 * @eh_frame_hdr: the .eh_frame_hdr the PT_GNU_EH_FRAME segment holds (its
 *	bytes in the file, its address), or nothing (@eh_frame_hdr.data NULL):
 *	the search table a conversion by function finds FDEs with
 *	(sframe_eh_frame_hdr_find()).
 * @eh_frame_nobits: the .eh_frame section has no bytes in the file
 *	(SHT_NOBITS: a separate debug file); @conv.eh_frame is empty.
 * @debug_frame_compressed: the .debug_frame section is compressed
 *	(SHF_COMPRESSED), which is not read: @conv.debug_frame is empty.
 * @has_sframe: the file has a .sframe section or a PT_GNU_SFRAME segment.
 * @has_build_id: @build_id is the file's GNU build-id note.
 * @build_id: the note (sf_elf_build_id_note()).
 * @text: the executable PT_LOAD segments' ranges [p_vaddr, p_vaddr +
 *	p_memsz) (owned); NULL when there are none (a relocatable object):
 *	the converter then keeps every FDE.
 * @num_text: their number.
 * @eh_frame_copy: a relocatable object's .eh_frame, relocated (owned), or
 *	NULL.
 * @debug_frame_copy: its .debug_frame, relocated (owned), or NULL.
 *
 * A relocatable object (ET_REL) is laid out as sf_input_load() lays it out
 * for its .sframe: every section at address 0. So @conv.eh_frame.addr is 0,
 * the relocated PC-relative pointers of .eh_frame (and the absolute ones of
 * .debug_frame) give each function's offset in its own section, and a
 * section converted for @conv.sframe_addr (0: no segments) answers lookups
 * at the addresses the object's own relocated .sframe answers them at.
 */
struct sf_cfi_input {
	struct sframe_convert_input conv;
	uint16_t type;
	uint8_t osabi;
	uint8_t abiversion;
	uint32_t flags;
	const char *eh_frame_from;
	struct sframe_cfi_bytes eh_frame_hdr;
	bool eh_frame_nobits;
	bool debug_frame_compressed;
	bool has_sframe;
	bool has_build_id;
	struct sf_build_id_note build_id;
	struct sframe_addr_range *text;
	size_t num_text;
	unsigned char *eh_frame_copy;
	unsigned char *debug_frame_copy;
};

/**
 * sf_cfi_input_load() - find the call-frame information of an ELF file.
 * @file: the file's bytes (&struct sf_input.file of sf_input_bytes()); they
 *	must outlive @cfi.
 * @size: their number.
 * @cfi: filled on success; free with sf_cfi_input_free(). Zeroed on failure.
 * @path: the file's name, for messages.
 * @err: "PATH: message" on failure.
 * @errlen: its size.
 *
 * Refuses files that are not ELF, ELFCLASS32 ones (SFrame describes 64-bit
 * code only) and machines without an SFrame ABI (all but x86-64, AArch64
 * and s390x), and corrupt headers. A file with neither .eh_frame nor
 * .debug_frame is not refused: @conv says so (both empty).
 *
 * Return: SF_INPUT_OK, or SF_INPUT_EFORMAT with @err set (out of memory
 * too, as for sf_input_load()).
 */
int sf_cfi_input_load(const unsigned char *file, size_t size, struct sf_cfi_input *cfi,
		      const char *path, char *err, size_t errlen);

/**
 * sf_cfi_input_free() - release what sf_cfi_input_load() allocated.
 * @cfi: a loaded input, or one zeroed by a failed load; zeroed again.
 */
void sf_cfi_input_free(struct sf_cfi_input *cfi);

/**
 * sf_elf_free_addr() - the first address after an ELF file's segments,
 * where a new segment can go: the highest p_vaddr + p_memsz of its PT_LOAD
 * segments, rounded up to the largest p_align among them (at least 4096).
 * "sframe convert" gives its .sframe section that address, so that the
 * section can be added to the file as a PT_LOAD segment of its own later.
 * @file: the file's bytes.
 * @size: their number.
 * @addr: set on success; 0 for a file without PT_LOAD segments (a
 *	relocatable object, whose sections all sit at 0).
 * @path: the file's name, for messages.
 * @err: "PATH: message" on failure.
 * @errlen: its size.
 *
 * Return: 0, or -1 for a program header table that cannot be read or
 * segments that end at the top of the address space.
 */
int sf_elf_free_addr(const unsigned char *file, size_t size, uint64_t *addr, const char *path,
		     char *err, size_t errlen);

#endif /* SFRAME_TOOL_CFI_INPUT_H */
