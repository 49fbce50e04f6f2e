/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * elf_input.c - load a file and find the SFrame section in it.
 *
 * The ELF structures are never overlaid on the file: the file may be of
 * either class and byte order, unaligned, and the host of either byte order,
 * so every field is decoded from bytes at its documented offset. Every
 * offset or size taken from the file is checked overflow-first
 * (off > size || len > size - off) before any byte behind it is read.
 */
#include "elf_input.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sframe/sframe_format.h>

/* ---- ELF facts used here (from the ELF gABI and the psABIs) ------------- */

#define ELF_IDENT_SIZE		16
#define ELF_CLASS_OFF		4
#define ELF_DATA_OFF		5
#define ELF_CLASS32		1
#define ELF_CLASS64		2
#define ELF_DATA_LSB		1
#define ELF_DATA_MSB		2

#define ELF_ET_REL		1

#define ELF_SHT_PROGBITS	1
#define ELF_SHT_SYMTAB		2
#define ELF_SHT_RELA		4
#define ELF_SHT_NOBITS		8
#define ELF_SHT_REL		9
#define ELF_SHT_DYNSYM		11

#define ELF_SHF_COMPRESSED	0x800u

#define ELF_SHN_UNDEF		0
#define ELF_SHN_XINDEX		0xffffu
#define ELF_PN_XNUM		0xffffu

#define ELF_EM_S390		22
#define ELF_EM_X86_64		62
#define ELF_EM_AARCH64		183

/* Relocation types the .sframe section of a gas object carries. */
#define R_X86_64_NONE		0
#define R_X86_64_PC32		2
#define R_X86_64_PC64		24
#define R_AARCH64_NONE		0
#define R_AARCH64_PREL64	260
#define R_AARCH64_PREL32	261
#define R_390_NONE		0
#define R_390_PC32		5
#define R_390_PC64		23

/* Decoded header of the file. */
struct elf_file {
	const unsigned char *data;
	size_t size;
	bool is64;
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

static uint64_t get_uint(const unsigned char *p, unsigned width, bool be)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < width; i++)
		v |= (uint64_t)p[be ? i : width - 1 - i] << (8 * (width - 1 - i));
	return v;
}

static void put_uint(unsigned char *p, unsigned width, bool be, uint64_t v)
{
	unsigned i;

	for (i = 0; i < width; i++)
		p[be ? width - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/* Two's-complement sign extension of a @width-byte value, without UB. */
static int64_t sign_extend(uint64_t v, unsigned width)
{
	uint64_t sign = (uint64_t)1 << (8 * width - 1);

	if (width < 8)
		v &= (sign << 1) - 1;
	if (v & sign)
		return -(int64_t)(~v & (sign - 1)) - 1;
	return (int64_t)v;
}

/* True when [off, off + len) lies inside a buffer of @size bytes. */
static bool in_bounds(uint64_t off, uint64_t len, uint64_t size)
{
	return !(off > size || len > size - off);
}

/* Field reader: a field of an ELF structure, in the file's byte order. */
static uint64_t fld(const struct elf_file *ef, const unsigned char *rec, unsigned off,
		    unsigned width)
{
	return get_uint(rec + off, width, ef->be);
}

/* Width of an address-sized field: 4 in ELF32, 8 in ELF64. */
static unsigned aw(const struct elf_file *ef)
{
	return ef->is64 ? 8 : 4;
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void fail(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(err, errlen, "%s: ", path);
	if (n < 0 || (size_t)n >= errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

/* ---- Reading the file ----------------------------------------------------- */

static int read_file(const char *path, unsigned char **data, size_t *size, char *err,
		     size_t errlen)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, len = 0;

	if (!f) {
		fail(err, errlen, path, "%s", strerror(errno));
		return SF_INPUT_EIO;
	}
	for (;;) {
		size_t n;

		if (len == cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			unsigned char *nbuf;

			if (ncap < cap) {
				fail(err, errlen, path, "file too large");
				goto out_err;
			}
			nbuf = realloc(buf, ncap);
			if (!nbuf) {
				fail(err, errlen, path, "out of memory");
				goto out_err;
			}
			buf = nbuf;
			cap = ncap;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		fail(err, errlen, path, "read error: %s", strerror(errno));
		goto out_err;
	}
	fclose(f);
	*data = buf;
	*size = len;
	return SF_INPUT_OK;

out_err:
	free(buf);
	fclose(f);
	return SF_INPUT_EIO;
}

/* ---- ELF header and tables ------------------------------------------------ */

static int parse_ehdr(struct elf_file *ef, const char *path, char *err, size_t errlen)
{
	const unsigned char *h = ef->data;
	unsigned ehsize, shent_min;
	uint64_t e_shnum, e_shstrndx, e_phnum;

	if (ef->size < ELF_IDENT_SIZE) {
		fail(err, errlen, path, "truncated ELF header");
		return -1;
	}
	switch (h[ELF_CLASS_OFF]) {
	case ELF_CLASS32: ef->is64 = false; break;
	case ELF_CLASS64: ef->is64 = true; break;
	default:
		fail(err, errlen, path, "unsupported ELF class %u", h[ELF_CLASS_OFF]);
		return -1;
	}
	switch (h[ELF_DATA_OFF]) {
	case ELF_DATA_LSB: ef->be = false; break;
	case ELF_DATA_MSB: ef->be = true; break;
	default:
		fail(err, errlen, path, "unsupported ELF data encoding %u", h[ELF_DATA_OFF]);
		return -1;
	}
	ehsize = ef->is64 ? 64 : 52;
	if (ef->size < ehsize) {
		fail(err, errlen, path, "truncated ELF header");
		return -1;
	}
	ef->type = (uint16_t)fld(ef, h, 16, 2);
	ef->machine = (uint16_t)fld(ef, h, 18, 2);
	if (ef->is64) {
		ef->phoff = fld(ef, h, 32, 8);
		ef->shoff = fld(ef, h, 40, 8);
		ef->phentsize = fld(ef, h, 54, 2);
		e_phnum = fld(ef, h, 56, 2);
		ef->shentsize = fld(ef, h, 58, 2);
		e_shnum = fld(ef, h, 60, 2);
		e_shstrndx = fld(ef, h, 62, 2);
	} else {
		ef->phoff = fld(ef, h, 28, 4);
		ef->shoff = fld(ef, h, 32, 4);
		ef->phentsize = fld(ef, h, 42, 2);
		e_phnum = fld(ef, h, 44, 2);
		ef->shentsize = fld(ef, h, 46, 2);
		e_shnum = fld(ef, h, 48, 2);
		e_shstrndx = fld(ef, h, 50, 2);
	}
	ef->shnum = e_shnum;
	ef->shstrndx = e_shstrndx;
	ef->phnum = e_phnum;
	if (ef->shoff == 0) {
		ef->shnum = 0;
		ef->shstrndx = ELF_SHN_UNDEF;
	} else {
		shent_min = ef->is64 ? 64 : 40;
		if (ef->shentsize < shent_min) {
			fail(err, errlen, path, "bad section header entry size %" PRIu64,
			     ef->shentsize);
			return -1;
		}
		/*
		 * Extended numbering: section 0 holds the real section count,
		 * string table index and program header count when they do
		 * not fit the ELF header's 16-bit fields.
		 */
		if (e_shnum == 0 || e_shstrndx == ELF_SHN_XINDEX || e_phnum == ELF_PN_XNUM) {
			const unsigned char *s0;

			if (!in_bounds(ef->shoff, ef->shentsize, ef->size)) {
				fail(err, errlen, path, "section header table out of bounds");
				return -1;
			}
			s0 = ef->data + ef->shoff;
			if (e_shnum == 0)
				ef->shnum = fld(ef, s0, ef->is64 ? 32 : 20, aw(ef));
			if (e_shstrndx == ELF_SHN_XINDEX)
				ef->shstrndx = fld(ef, s0, ef->is64 ? 40 : 24, 4);
			if (e_phnum == ELF_PN_XNUM)
				ef->phnum = fld(ef, s0, ef->is64 ? 44 : 28, 4);
		}
		/* shnum < 2^32 and shentsize < 2^16: the product cannot wrap. */
		if (ef->shnum > UINT32_MAX ||
		    !in_bounds(ef->shoff, ef->shnum * ef->shentsize, ef->size)) {
			fail(err, errlen, path, "section header table out of bounds");
			return -1;
		}
	}
	if (ef->phoff == 0)
		ef->phnum = 0;
	return 0;
}

/* Section @idx; the table was bounds-checked by parse_ehdr(). */
static void get_shdr(const struct elf_file *ef, uint64_t idx, struct elf_shdr *sh)
{
	const unsigned char *s = ef->data + ef->shoff + idx * ef->shentsize;

	sh->name = (uint32_t)fld(ef, s, 0, 4);
	sh->type = (uint32_t)fld(ef, s, 4, 4);
	if (ef->is64) {
		sh->flags = fld(ef, s, 8, 8);
		sh->addr = fld(ef, s, 16, 8);
		sh->offset = fld(ef, s, 24, 8);
		sh->size = fld(ef, s, 32, 8);
		sh->link = (uint32_t)fld(ef, s, 40, 4);
		sh->info = (uint32_t)fld(ef, s, 44, 4);
		sh->entsize = fld(ef, s, 56, 8);
	} else {
		sh->flags = fld(ef, s, 8, 4);
		sh->addr = fld(ef, s, 12, 4);
		sh->offset = fld(ef, s, 16, 4);
		sh->size = fld(ef, s, 20, 4);
		sh->link = (uint32_t)fld(ef, s, 24, 4);
		sh->info = (uint32_t)fld(ef, s, 28, 4);
		sh->entsize = fld(ef, s, 36, 4);
	}
}

/* The bytes of a section with file contents, bounds-checked. */
static int section_bytes(const struct elf_file *ef, const struct elf_shdr *sh, const char *what,
			 const unsigned char **p, const char *path, char *err, size_t errlen)
{
	if (sh->type == ELF_SHT_NOBITS) {
		fail(err, errlen, path, "%s has no data in the file (SHT_NOBITS)", what);
		return -1;
	}
	if (!in_bounds(sh->offset, sh->size, ef->size)) {
		fail(err, errlen, path, "%s out of bounds (offset 0x%" PRIx64 ", size 0x%" PRIx64
		     ", file size 0x%zx)", what, sh->offset, sh->size, ef->size);
		return -1;
	}
	*p = ef->data + sh->offset;
	return 0;
}

/*
 * Find the section named ".sframe": 0 with *idx set (UINT64_MAX when there
 * is none), or -1 on error.
 */
static int find_sframe_section(const struct elf_file *ef, uint64_t *idx, const char *path,
			       char *err, size_t errlen)
{
	static const char name[] = ".sframe";
	struct elf_shdr strsh;
	const unsigned char *strtab;
	uint64_t i;

	*idx = UINT64_MAX;
	if (ef->shnum == 0 || ef->shstrndx == ELF_SHN_UNDEF)
		return 0;
	if (ef->shstrndx >= ef->shnum) {
		fail(err, errlen, path, "section name string table index %" PRIu64
		     " out of range (%" PRIu64 " section%s)", ef->shstrndx, ef->shnum,
		     ef->shnum == 1 ? "" : "s");
		return -1;
	}
	get_shdr(ef, ef->shstrndx, &strsh);
	if (section_bytes(ef, &strsh, "section name string table", &strtab, path, err, errlen))
		return -1;
	for (i = 0; i < ef->shnum; i++) {
		struct elf_shdr sh;

		get_shdr(ef, i, &sh);
		if (!in_bounds(sh.name, sizeof(name), strsh.size) ||
		    memcmp(strtab + sh.name, name, sizeof(name)) != 0)
			continue;
		if (sh.type != ELF_SHT_PROGBITS && sh.type != SFRAME_SHT_GNU_SFRAME &&
		    sh.type != ELF_SHT_NOBITS) {
			fail(err, errlen, path, "section .sframe has unexpected type 0x%" PRIx32,
			     sh.type);
			return -1;
		}
		if (sh.flags & ELF_SHF_COMPRESSED) {
			fail(err, errlen, path, "section .sframe is compressed (not supported)");
			return -1;
		}
		*idx = i;
		return 0;
	}
	return 0;
}

/* Find the PT_GNU_SFRAME segment: 0 and *found set, or -1 on error. */
static int find_sframe_segment(const struct elf_file *ef, uint64_t *off, uint64_t *size,
			       uint64_t *vaddr, bool *found, const char *path, char *err,
			       size_t errlen)
{
	unsigned phent_min = ef->is64 ? 56 : 32;
	uint64_t i;

	*found = false;
	if (ef->phnum == 0)
		return 0;
	if (ef->phentsize < phent_min) {
		fail(err, errlen, path, "bad program header entry size %" PRIu64, ef->phentsize);
		return -1;
	}
	/* phnum < 2^32 and phentsize < 2^16: the product cannot wrap. */
	if (ef->phnum > UINT32_MAX || !in_bounds(ef->phoff, ef->phnum * ef->phentsize, ef->size)) {
		fail(err, errlen, path, "program header table out of bounds");
		return -1;
	}
	for (i = 0; i < ef->phnum; i++) {
		const unsigned char *p = ef->data + ef->phoff + i * ef->phentsize;

		if (fld(ef, p, 0, 4) != SFRAME_PT_GNU_SFRAME)
			continue;
		if (ef->is64) {
			*off = fld(ef, p, 8, 8);
			*vaddr = fld(ef, p, 16, 8);
			*size = fld(ef, p, 32, 8);
		} else {
			*off = fld(ef, p, 4, 4);
			*vaddr = fld(ef, p, 8, 4);
			*size = fld(ef, p, 16, 4);
		}
		if (!in_bounds(*off, *size, ef->size)) {
			fail(err, errlen, path, "PT_GNU_SFRAME segment out of bounds (offset 0x%"
			     PRIx64 ", size 0x%" PRIx64 ", file size 0x%zx)", *off, *size,
			     ef->size);
			return -1;
		}
		*found = true;
		return 0;
	}
	return 0;
}

/* ---- Relocations of a relocatable object ---------------------------------- */

/* Width in bytes of a PC-relative relocation, 0 for a no-op, -1 unsupported. */
static int reloc_width(uint16_t machine, uint32_t type)
{
	switch (machine) {
	case ELF_EM_X86_64:
		switch (type) {
		case R_X86_64_NONE: return 0;
		case R_X86_64_PC32: return 4;
		case R_X86_64_PC64: return 8;
		}
		break;
	case ELF_EM_AARCH64:
		switch (type) {
		case R_AARCH64_NONE: return 0;
		case R_AARCH64_PREL32: return 4;
		case R_AARCH64_PREL64: return 8;
		}
		break;
	case ELF_EM_S390:
		switch (type) {
		case R_390_NONE: return 0;
		case R_390_PC32: return 4;
		case R_390_PC64: return 8;
		}
		break;
	}
	return -1;
}

const char *sf_machine_name(uint16_t machine, char *buf, size_t len)
{
	/* e_machine values of the ELF gABI; names as readelf and the kernel use them. */
	static const struct {
		uint16_t machine;
		const char *name;
	} names[] = {
		{ 2, "SPARC" }, { 3, "i386" }, { 8, "MIPS" }, { 20, "PowerPC" },
		{ 21, "PowerPC64" }, { ELF_EM_S390, "s390x" }, { 40, "ARM" },
		{ 43, "SPARC v9" }, { 50, "IA-64" }, { ELF_EM_X86_64, "x86-64" },
		{ ELF_EM_AARCH64, "AArch64" }, { 243, "RISC-V" }, { 258, "LoongArch" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].machine == machine)
			return names[i].name;
	snprintf(buf, len, "machine %u", machine);
	return buf;
}

/*
 * Apply one REL or RELA section to @sec (the .sframe copy).
 *
 * Sections of a .o all sit at address 0, so a symbol's address is its
 * st_value (for STT_SECTION symbols 0 + 0). gas writes every FDE start as a
 * PC-relative relocation. The value stored is S + A - P when the SFrame
 * header says FDE starts are field-relative (PCREL flag), which is what the
 * relocation computes; without the flag (v1, v2) it is S + A, the
 * section-relative convention of those versions' linked output, so that a
 * dump shows each function's real offset in either case.
 */
static int apply_rel_section(const struct elf_file *ef, const struct elf_shdr *rsh, uint64_t rsh_idx,
			     unsigned char *sec, uint64_t sec_size, bool sec_be, bool pcrel,
			     const char *path, char *err, size_t errlen)
{
	bool rela = rsh->type == ELF_SHT_RELA;
	unsigned entsize, symentsize = ef->is64 ? 24 : 16;
	const unsigned char *rel, *syms;
	struct elf_shdr symsh;
	uint64_t nsyms, nrel, i;
	char what[64];

	if (ef->is64)
		entsize = rela ? 24 : 16;
	else
		entsize = rela ? 12 : 8;
	snprintf(what, sizeof(what), "relocation section %" PRIu64, rsh_idx);
	if (rsh->entsize != 0 && rsh->entsize != entsize) {
		fail(err, errlen, path, "%s: unexpected entry size %" PRIu64, what, rsh->entsize);
		return -1;
	}
	if (section_bytes(ef, rsh, what, &rel, path, err, errlen))
		return -1;
	if (rsh->size % entsize != 0) {
		fail(err, errlen, path, "%s: size 0x%" PRIx64 " is not a multiple of %u", what,
		     rsh->size, entsize);
		return -1;
	}
	nrel = rsh->size / entsize;
	if (rsh->link == 0 || rsh->link >= ef->shnum) {
		fail(err, errlen, path, "%s: symbol table index %" PRIu32 " out of range", what,
		     rsh->link);
		return -1;
	}
	get_shdr(ef, rsh->link, &symsh);
	if (symsh.type != ELF_SHT_SYMTAB && symsh.type != ELF_SHT_DYNSYM) {
		fail(err, errlen, path, "%s: section %" PRIu32 " is not a symbol table", what,
		     rsh->link);
		return -1;
	}
	if (section_bytes(ef, &symsh, "symbol table", &syms, path, err, errlen))
		return -1;
	nsyms = symsh.size / symentsize;

	for (i = 0; i < nrel; i++) {
		const unsigned char *r = rel + i * entsize;
		uint64_t r_offset, r_info, sym, value;
		int64_t addend, result;
		uint32_t type;
		int width;

		r_offset = fld(ef, r, 0, aw(ef));
		r_info = fld(ef, r, aw(ef), aw(ef));
		if (ef->is64) {
			sym = r_info >> 32;
			type = (uint32_t)(r_info & 0xffffffffu);
		} else {
			sym = r_info >> 8;
			type = (uint32_t)(r_info & 0xffu);
		}
		width = reloc_width(ef->machine, type);
		if (width < 0) {
			char m[32];

			fail(err, errlen, path, "%s, entry %" PRIu64 ": unsupported relocation type %"
			     PRIu32 " for %s", what, i, type, sf_machine_name(ef->machine, m, sizeof(m)));
			return -1;
		}
		if (width == 0)
			continue;
		if (sym >= nsyms) {
			fail(err, errlen, path, "%s, entry %" PRIu64 ": symbol index %" PRIu64
			     " out of range (%" PRIu64 " symbol%s)", what, i, sym, nsyms,
			     nsyms == 1 ? "" : "s");
			return -1;
		}
		if (!in_bounds(r_offset, (uint64_t)width, sec_size)) {
			fail(err, errlen, path, "%s, entry %" PRIu64 ": offset 0x%" PRIx64
			     " outside the .sframe section (size 0x%" PRIx64 ")", what, i,
			     r_offset, sec_size);
			return -1;
		}
		if (rela)
			addend = sign_extend(fld(ef, r, 2 * aw(ef), aw(ef)), aw(ef));
		else
			addend = sign_extend(get_uint(sec + r_offset, (unsigned)width, sec_be),
					     (unsigned)width);
		value = fld(ef, syms + sym * symentsize, ef->is64 ? 8 : 4, aw(ef));
		/* Wrapping unsigned arithmetic, then read back as two's complement. */
		value = value + (uint64_t)addend - (pcrel ? r_offset : 0);
		result = sign_extend(value, 8);
		if (width == 4 && (result < INT32_MIN || result > INT32_MAX)) {
			fail(err, errlen, path, "%s, entry %" PRIu64 ": value %" PRId64
			     " does not fit a 32-bit field", what, i, result);
			return -1;
		}
		put_uint(sec + r_offset, (unsigned)width, sec_be, value);
	}
	return 0;
}

/* Copy the .sframe section and apply every relocation section aimed at it. */
static int relocate(const struct elf_file *ef, uint64_t sec_idx, struct sf_input *in,
		    const char *path, char *err, size_t errlen)
{
	bool sec_be = ef->be, pcrel = false;
	uint64_t i;

	/* The section's byte order is its magic's; the ELF's if that is broken. */
	if (in->sec_size >= 4) {
		if (in->sec[0] == 0xe2 && in->sec[1] == 0xde)
			sec_be = false;
		else if (in->sec[0] == 0xde && in->sec[1] == 0xe2)
			sec_be = true;
		pcrel = (in->sec[SFRAME_HDR_FLAGS] & SFRAME_F_FDE_FUNC_START_PCREL) != 0;
	}
	for (i = 0; i < ef->shnum; i++) {
		struct elf_shdr rsh;

		get_shdr(ef, i, &rsh);
		if ((rsh.type != ELF_SHT_RELA && rsh.type != ELF_SHT_REL) || rsh.info != sec_idx)
			continue;
		if (!in->owned_copy) {
			in->owned_copy = malloc(in->sec_size ? (size_t)in->sec_size : 1);
			if (!in->owned_copy) {
				fail(err, errlen, path, "out of memory");
				return -1;
			}
			memcpy(in->owned_copy, in->sec, (size_t)in->sec_size);
			in->sec = in->owned_copy;
		}
		if (apply_rel_section(ef, &rsh, i, in->sec, in->sec_size, sec_be, pcrel, path,
				      err, errlen))
			return -1;
	}
	return 0;
}

/* ---- Entry points ------------------------------------------------------------ */

static int load_elf(struct sf_input *in, const char *path, char *err, size_t errlen)
{
	struct elf_file ef;
	uint64_t idx, off, size, vaddr;
	bool found;

	memset(&ef, 0, sizeof(ef));
	ef.data = in->file;
	ef.size = in->file_size;
	if (parse_ehdr(&ef, path, err, errlen))
		return -1;
	in->is_rel = ef.type == ELF_ET_REL;
	if (find_sframe_section(&ef, &idx, path, err, errlen))
		return -1;
	if (idx != UINT64_MAX) {
		struct elf_shdr sh;
		const unsigned char *p;

		get_shdr(&ef, idx, &sh);
		if (section_bytes(&ef, &sh, "section .sframe", &p, path, err, errlen))
			return -1;
		in->sec = in->file + sh.offset;
		in->sec_size = sh.size;
		in->vaddr = sh.addr;
		in->how = "section";
		if (in->is_rel)
			return relocate(&ef, idx, in, path, err, errlen);
		return 0;
	}
	if (find_sframe_segment(&ef, &off, &size, &vaddr, &found, path, err, errlen))
		return -1;
	if (!found) {
		fail(err, errlen, path, "no .sframe section or PT_GNU_SFRAME segment");
		return -1;
	}
	in->sec = in->file + off;
	in->sec_size = size;
	in->vaddr = vaddr;
	in->how = "segment";
	return 0;
}

int sf_input_load(const char *path, int have_vaddr, uint64_t vaddr, struct sf_input *in,
		  char *err, size_t errlen)
{
	static const unsigned char elfmag[4] = { 0x7f, 'E', 'L', 'F' };
	int ret;

	memset(in, 0, sizeof(*in));
	if (errlen)
		err[0] = '\0';
	ret = read_file(path, &in->file, &in->file_size, err, errlen);
	if (ret)
		return ret;

	if (in->file_size >= 4 && memcmp(in->file, elfmag, 4) == 0) {
		if (load_elf(in, path, err, errlen)) {
			sf_input_free(in);
			return SF_INPUT_EFORMAT;
		}
	} else if (in->file_size >= 2 &&
		   ((in->file[0] == 0xe2 && in->file[1] == 0xde) ||
		    (in->file[0] == 0xde && in->file[1] == 0xe2))) {
		in->sec = in->file;
		in->sec_size = in->file_size;
		in->vaddr = 0;
		in->how = "raw";
	} else {
		fail(err, errlen, path, in->file_size ? "not an ELF file or SFrame section"
						       : "empty file");
		sf_input_free(in);
		return SF_INPUT_EFORMAT;
	}
	if (have_vaddr)
		in->vaddr = vaddr;
	return SF_INPUT_OK;
}

void sf_input_free(struct sf_input *in)
{
	free(in->owned_copy);
	free(in->file);
	memset(in, 0, sizeof(*in));
}

/* ---- Symbols and executable segments (for the unwind commands) ---------- */

#define ELF_PT_LOAD		1
#define ELF_PF_X		1u
#define ELF_STT_FUNC		2
#define ELF_STT_GNU_IFUNC	10

static int cmp_sym(const void *a, const void *b)
{
	const struct sf_symbol *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* Larger first, so that a sized symbol wins over an alias without size. */
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Function symbols of one symbol table section. */
static int load_symtab(const struct elf_file *ef, const struct elf_shdr *sh,
		       struct sf_elf_info *info, char *err, size_t errlen)
{
	unsigned entsize = ef->is64 ? 24 : 16;
	const unsigned char *tab, *str;
	struct elf_shdr strsh;
	uint64_t n, i;

	if (sh->link >= ef->shnum) {
		fail(err, errlen, "ELF", "symbol table string section %u out of range", sh->link);
		return -1;
	}
	get_shdr(ef, sh->link, &strsh);
	if (section_bytes(ef, sh, "symbol table", &tab, "ELF", err, errlen) ||
	    section_bytes(ef, &strsh, "symbol string table", &str, "ELF", err, errlen))
		return -1;
	n = sh->size / entsize;
	info->syms = calloc(n ? n : 1, sizeof(*info->syms));
	if (!info->syms) {
		fail(err, errlen, "ELF", "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		const unsigned char *s = tab + i * entsize;
		uint64_t name = fld(ef, s, 0, 4), value, size;
		unsigned type, shndx;

		if (ef->is64) {
			type = s[4] & 0xfu;
			shndx = (unsigned)fld(ef, s, 6, 2);
			value = fld(ef, s, 8, 8);
			size = fld(ef, s, 16, 8);
		} else {
			value = fld(ef, s, 4, 4);
			size = fld(ef, s, 8, 4);
			type = s[12] & 0xfu;
			shndx = (unsigned)fld(ef, s, 14, 2);
		}
		if ((type != ELF_STT_FUNC && type != ELF_STT_GNU_IFUNC) || shndx == ELF_SHN_UNDEF)
			continue;
		/* The name must end inside the string table. */
		if (name >= strsh.size || !memchr(str + name, 0, strsh.size - name))
			continue;
		info->syms[info->nsyms].addr = value;
		info->syms[info->nsyms].size = size;
		info->syms[info->nsyms].name = (const char *)str + name;
		info->nsyms++;
	}
	qsort(info->syms, info->nsyms, sizeof(*info->syms), cmp_sym);
	return 0;
}

int sf_elf_info_load(const struct sf_input *in, struct sf_elf_info *info, char *err,
		     size_t errlen)
{
	static const unsigned char elfmag[4] = { 0x7f, 'E', 'L', 'F' };
	struct elf_file ef;
	uint64_t i, symtab = UINT64_MAX, dynsym = UINT64_MAX;

	memset(info, 0, sizeof(*info));
	if (in->file_size < 4 || memcmp(in->file, elfmag, 4) != 0) {
		fail(err, errlen, "input", "not an ELF file");
		return -1;
	}
	memset(&ef, 0, sizeof(ef));
	ef.data = in->file;
	ef.size = in->file_size;
	if (parse_ehdr(&ef, "ELF", err, errlen))
		return -1;
	info->machine = ef.machine;

	if (ef.phnum && ef.phentsize >= (ef.is64 ? 56u : 32u) && ef.phnum <= UINT32_MAX &&
	    in_bounds(ef.phoff, ef.phnum * ef.phentsize, ef.size)) {
		for (i = 0; i < ef.phnum && info->ntext < SF_MAX_TEXT; i++) {
			const unsigned char *p = ef.data + ef.phoff + i * ef.phentsize;
			uint64_t vaddr, memsz, flags;

			if (fld(&ef, p, 0, 4) != ELF_PT_LOAD)
				continue;
			flags = fld(&ef, p, ef.is64 ? 4 : 24, 4);
			vaddr = fld(&ef, p, ef.is64 ? 16 : 8, aw(&ef));
			memsz = fld(&ef, p, ef.is64 ? 40 : 20, aw(&ef));
			if (!(flags & ELF_PF_X) || memsz == 0 || vaddr > UINT64_MAX - memsz)
				continue;
			info->text[info->ntext].start = vaddr;
			info->text[info->ntext].end = vaddr + memsz;
			info->ntext++;
		}
	}
	for (i = 0; i < ef.shnum; i++) {
		struct elf_shdr sh;

		get_shdr(&ef, i, &sh);
		if (sh.type == ELF_SHT_SYMTAB && symtab == UINT64_MAX)
			symtab = i;
		else if (sh.type == ELF_SHT_DYNSYM && dynsym == UINT64_MAX)
			dynsym = i;
	}
	if (symtab == UINT64_MAX)
		symtab = dynsym;
	if (symtab != UINT64_MAX) {
		struct elf_shdr sh;

		get_shdr(&ef, symtab, &sh);
		if (load_symtab(&ef, &sh, info, err, errlen)) {
			sf_elf_info_free(info);
			return -1;
		}
	}
	return 0;
}

void sf_elf_info_free(struct sf_elf_info *info)
{
	free(info->syms);
	memset(info, 0, sizeof(*info));
}

const struct sf_symbol *sf_symbol_find(const struct sf_elf_info *info, uint64_t addr)
{
	size_t lo = 0, hi = info->nsyms;
	const struct sf_symbol *s;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (info->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	/* Among symbols at the same address the sized one sorts first. */
	s = &info->syms[lo - 1];
	while (s > info->syms && s[-1].addr == s->addr)
		s--;
	if (s->size && addr - s->addr >= s->size)
		return NULL;
	return s;
}
