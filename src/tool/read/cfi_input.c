/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * cfi_input.c - the converter's input from an ELF file (see cfi_input.h).
 *
 * Only what the ELF reader (elf_input.c, elf_notes.c) decodes is used here:
 * its program header, section and note readers, which check every offset
 * and size against the file; the few bytes read here directly (e_ident,
 * e_flags, the segments' bytes) are checked the same way, overflow first.
 */
#include "read/cfi_input.h"

#include "abi/tool_abi.h"

#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sframe/sframe.h>
#include <sframe/sframe_format.h>

#include "read/elf_layout.h"

/* True when [off, off + len) lies inside a buffer of @size bytes. */
static bool in_bounds(uint64_t off, uint64_t len, uint64_t size)
{
	return !(off > size || len > size - off);
}

/* The header and program header table, with "PATH: " before the reader's message. */
static int read_phdrs(const unsigned char *file, size_t size, struct sf_elf_phdrs *ph,
		      const char *path, char *err, size_t errlen)
{
	char msg[256];

	if (sf_elf_phdrs_read(file, size, ph, msg, sizeof(msg)) == 0)
		return 0;
	sf_errf(err, errlen, path, "%s", msg);
	return -1;
}

int sf_elf_free_addr(const unsigned char *file, size_t size, uint64_t *addr, const char *path,
		     char *err, size_t errlen)
{
	struct sf_elf_phdrs ph;
	struct sf_elf_loads l;
	uint64_t i;

	*addr = 0;
	if (read_phdrs(file, size, &ph, path, err, errlen))
		return -1;
	sf_elf_loads_init(&l);
	for (i = 0; i < ph.phnum; i++) {
		struct sf_elf_segment seg;

		sf_elf_segment_get(file, &ph, i, &seg);
		if (seg.type == PT_LOAD && sf_elf_loads_add(&l, &seg, i, path, err, errlen))
			return -1;
	}
	if (!l.any)
		return 0;
	/* Any p_align, not only powers of two: a multiple of it, by division. */
	if (l.end > UINT64_MAX - (l.align - 1)) {
		sf_errf(err, errlen, path, "no address after the segments (they end at 0x%" PRIx64
		        ", aligned to 0x%" PRIx64 ")", l.end, l.align);
		return -1;
	}
	*addr = (l.end + l.align - 1) / l.align * l.align;
	return 0;
}

/*
 * Which ELF files can be converted: 64-bit ones of a machine SFrame has an
 * ABI for, in that machine's byte order (AArch64: either).
 */
static int check_machine(const struct sf_elf_phdrs *ph, const char *path, char *err,
			 size_t errlen)
{
	const struct sf_abi *a;
	char m[32];

	if (!ph->is64) {
		sf_errf(err, errlen, path, "a 32-bit ELF file (ELFCLASS32): SFrame describes 64-bit "
		        "code only (x86-64, AArch64, s390x)");
		return -1;
	}
	a = sf_abi_of_machine(ph->machine);
	if (a) {
		if (!(ph->be ? a->sframe_be : a->sframe_le)) {
			sf_errf(err, errlen, path, "an ELF file for %s in %s-endian byte order",
			        sf_machine_name(ph->machine, m, sizeof(m)), ph->be ? "big" : "little");
			return -1;
		}
		return 0;
	}
	sf_errf(err, errlen, path, "an ELF file for %s: SFrame has no ABI for it (only for x86-64, "
	        "AArch64 and s390x)", sf_machine_name(ph->machine, m, sizeof(m)));
	return -1;
}

/* The executable PT_LOAD ranges into @cfi->text. */
static int load_text(const unsigned char *file, const struct sf_elf_phdrs *ph,
		     struct sf_cfi_input *cfi, const char *path, char *err, size_t errlen)
{
	uint64_t i, n = 0;

	for (i = 0; i < ph->phnum; i++) {
		struct sf_elf_segment seg;

		sf_elf_segment_get(file, ph, i, &seg);
		if (seg.type == PT_LOAD && (seg.flags & PF_X) && seg.memsz)
			n++;
	}
	if (n == 0)
		return 0;
	cfi->text = calloc((size_t)n, sizeof(*cfi->text));
	if (!cfi->text) {
		sf_errf(err, errlen, path, "out of memory");
		return SF_INPUT_EFORMAT;
	}
	for (i = 0; i < ph->phnum; i++) {
		struct sf_elf_segment seg;

		sf_elf_segment_get(file, ph, i, &seg);
		if (seg.type != PT_LOAD || !(seg.flags & PF_X) || !seg.memsz)
			continue;
		/* sf_elf_free_addr() refused segments that wrap. */
		cfi->text[cfi->num_text].start = seg.vaddr;
		cfi->text[cfi->num_text].end = seg.vaddr + seg.memsz;
		cfi->num_text++;
	}
	return 0;
}

/*
 * No section headers: .eh_frame_hdr (PT_GNU_EH_FRAME) says where .eh_frame
 * is; its size is unknown, so it is bounded by the end of the file bytes of
 * the PT_LOAD segment it lies in (the converter's walk also ends at the
 * zero terminator).
 */
/*
 * The PT_GNU_EH_FRAME segment's bytes into @cfi->eh_frame_hdr; @off its
 * offset. Out of bounds it is an error only when it is the one way to
 * .eh_frame (@required: no section headers); else only not used.
 */
static int load_hdr(const unsigned char *file, size_t size, const struct sf_elf_phdrs *ph,
		    struct sf_cfi_input *cfi, bool required, uint64_t *off, const char *path,
		    char *err, size_t errlen)
{
	struct sf_elf_segment seg;
	uint64_t i;

	for (i = 0; i < ph->phnum; i++) {
		sf_elf_segment_get(file, ph, i, &seg);
		if (seg.type != PT_GNU_EH_FRAME)
			continue;
		if (!in_bounds(seg.offset, seg.filesz, size)) {
			if (!required)
				return 0;
			sf_errf(err, errlen, path, "PT_GNU_EH_FRAME segment out of bounds (offset "
			        "0x%" PRIx64 ", size 0x%" PRIx64 ", file size 0x%zx)", seg.offset,
			        seg.filesz, size);
			return -1;
		}
		cfi->eh_frame_hdr.data = file + seg.offset;
		cfi->eh_frame_hdr.size = seg.filesz;
		cfi->eh_frame_hdr.addr = seg.vaddr;
		*off = seg.offset;
		return 0;
	}
	return 0;
}

static int eh_frame_from_hdr(const unsigned char *file, size_t size,
			     const struct sf_elf_phdrs *ph, struct sf_cfi_input *cfi,
			     uint64_t hdr_off, const char *path, char *err, size_t errlen)
{
	struct sf_elf_segment seg;
	uint64_t i, addr;
	int r;

	if (!cfi->eh_frame_hdr.data)
		return 0;
	r = sframe_eh_frame_hdr_ptr(&cfi->eh_frame_hdr, ph->be, &addr);
	if (r) {
		sf_errf(err, errlen, path, ".eh_frame_hdr (PT_GNU_EH_FRAME at offset 0x%" PRIx64
		        "): %s (%s)", hdr_off, sframe_convert_strerror(r),
		        sframe_convert_errname(r));
		return -1;
	}
	for (i = 0; i < ph->phnum; i++) {
		sf_elf_segment_get(file, ph, i, &seg);
		if (seg.type != PT_LOAD || addr < seg.vaddr || addr - seg.vaddr >= seg.filesz)
			continue;
		if (!in_bounds(seg.offset, seg.filesz, size)) {
			sf_errf(err, errlen, path, "PT_LOAD segment %" PRIu64 " out of bounds (offset "
			        "0x%" PRIx64 ", size 0x%" PRIx64 ", file size 0x%zx)", i, seg.offset,
			        seg.filesz, size);
			return -1;
		}
		cfi->conv.eh_frame.data = file + seg.offset + (addr - seg.vaddr);
		cfi->conv.eh_frame.size = seg.filesz - (addr - seg.vaddr);
		cfi->conv.eh_frame.addr = addr;
		cfi->eh_frame_from = "PT_GNU_EH_FRAME";
		return 0;
	}
	sf_errf(err, errlen, path, ".eh_frame at 0x%" PRIx64 " (from .eh_frame_hdr) is in the file "
	        "bytes of no PT_LOAD segment", addr);
	return -1;
}

/*
 * Section @sec (@name) into @out, relocated into *@copy in a relocatable object.
 * Return SF_INPUT_OK or SF_INPUT_EFORMAT.
 */
static int load_section(const unsigned char *file, size_t size, const struct sf_elf_section *sec,
			const char *name, bool is_rel, struct sframe_cfi_bytes *out,
			unsigned char **copy, const char *path, char *err, size_t errlen)
{
	if (is_rel && sf_elf_section_relocated(file, size, sec, name, copy, path, err, errlen))
		return SF_INPUT_EFORMAT;
	out->data = *copy ? *copy : sec->data;
	out->size = sec->size;
	/* A .o's sections all sit at 0 (sf_elf_section_relocated()). */
	out->addr = is_rel ? 0 : sec->addr;
	return SF_INPUT_OK;
}

/* .eh_frame, .debug_frame and .sframe from the section headers. */
static int load_sections(const unsigned char *file, size_t size, struct sf_cfi_input *cfi,
			 const char *path, char *err, size_t errlen)
{
	bool is_rel = cfi->type == ET_REL;
	struct sf_elf_section sec;
	int r;

	r = sf_elf_section_find(file, size, ".sframe", &sec, path, err, errlen);
	if (r < 0)
		return SF_INPUT_EFORMAT;
	if (r)
		cfi->has_sframe = true;

	r = sf_elf_section_find(file, size, ".eh_frame", &sec, path, err, errlen);
	if (r < 0)
		return SF_INPUT_EFORMAT;
	if (r && sec.flags & SHF_COMPRESSED) {
		sf_errf(err, errlen, path, "section .eh_frame is compressed (not supported)");
		return SF_INPUT_EFORMAT;
	}
	if (r && sec.type == SHT_NOBITS) {
		cfi->eh_frame_nobits = true;
	} else if (r) {
		r = load_section(file, size, &sec, ".eh_frame", is_rel, &cfi->conv.eh_frame,
				 &cfi->eh_frame_copy, path, err, errlen);
		if (r)
			return r;
		cfi->eh_frame_from = "section";
	}

	r = sf_elf_section_find(file, size, ".debug_frame", &sec, path, err, errlen);
	if (r < 0)
		return SF_INPUT_EFORMAT;
	if (r && sec.type == SHT_PROGBITS) {
		/* No zlib or zstd here: such a section is left out, and said so. */
		if (sec.flags & SHF_COMPRESSED) {
			cfi->debug_frame_compressed = true;
			return SF_INPUT_OK;
		}
		return load_section(file, size, &sec, ".debug_frame", is_rel, &cfi->conv.debug_frame,
				    &cfi->debug_frame_copy, path, err, errlen);
	}
	return SF_INPUT_OK;
}

int sf_cfi_input_load(const unsigned char *file, size_t size, struct sf_cfi_input *cfi,
		      const char *path, char *err, size_t errlen)
{
	const struct elf_layout *L = &sf_elf64_layout;
	struct sf_elf_phdrs ph;
	uint64_t i, hdr_off = 0;
	bool no_sections;
	int r;

	memset(cfi, 0, sizeof(*cfi));
	if (errlen)
		err[0] = '\0';
	if (size < SELFMAG || memcmp(file, ELFMAG, SELFMAG) != 0) {
		sf_errf(err, errlen, path, size ? "not an ELF file" : "empty file");
		return SF_INPUT_EFORMAT;
	}
	/* The header is in the file (sf_elf_phdrs_read() checked its size). */
	if (read_phdrs(file, size, &ph, path, err, errlen) ||
	    check_machine(&ph, path, err, errlen) ||
	    sf_elf_free_addr(file, size, &cfi->conv.sframe_addr, path, err, errlen))
		return SF_INPUT_EFORMAT;
	cfi->type = ph.type;
	cfi->osabi = file[EI_OSABI];
	cfi->abiversion = file[EI_ABIVERSION];
	cfi->flags = (uint32_t)sf_get_uint(file + L->e_flags.off, L->e_flags.width, ph.be);
	cfi->conv.machine = ph.machine;
	cfi->conv.big_endian = ph.be;
	for (i = 0; i < ph.phnum; i++) {
		struct sf_elf_segment seg;

		sf_elf_segment_get(file, &ph, i, &seg);
		if (seg.type == SFRAME_PT_GNU_SFRAME)
			cfi->has_sframe = true;
	}
	no_sections = sf_elf_num_sections(file, size) == 0;
	r = load_text(file, &ph, cfi, path, err, errlen);
	if (r == 0 && load_hdr(file, size, &ph, cfi, no_sections, &hdr_off, path, err, errlen))
		r = SF_INPUT_EFORMAT;
	if (r == 0)
		r = load_sections(file, size, cfi, path, err, errlen);
	if (r == 0 && no_sections &&
	    eh_frame_from_hdr(file, size, &ph, cfi, hdr_off, path, err, errlen))
		r = SF_INPUT_EFORMAT;
	if (r) {
		sf_cfi_input_free(cfi);
		return r;
	}
	cfi->conv.text = cfi->text;
	cfi->conv.num_text = cfi->num_text;
	cfi->has_build_id = sf_elf_build_id_note(file, size, &cfi->build_id);
	return SF_INPUT_OK;
}

void sf_cfi_input_free(struct sf_cfi_input *cfi)
{
	free(cfi->text);
	free(cfi->eh_frame_copy);
	free(cfi->debug_frame_copy);
	memset(cfi, 0, sizeof(*cfi));
}
