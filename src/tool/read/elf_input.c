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
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L	/* open(O_CLOEXEC), mmap() */
#endif
#include "read/elf_input.h"

#include "abi/tool_abi.h"
#include "read/elf_layout.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sframe/sframe_format.h>

/* The ELF numbers are <elf.h>'s; older C libraries lack this one. */
#ifndef EM_LOONGARCH
#define EM_LOONGARCH		258
#endif

const struct elf_layout sf_elf64_layout = {
	.ehsize = 64, .shentsize = 64, .phentsize = 56, .symentsize = 24,
	.relentsize = 16, .relaentsize = 24,
	.e_type = { 16, 2 }, .e_machine = { 18, 2 }, .e_version = { 20, 4 }, .e_entry = { 24, 8 },
	.e_phoff = { 32, 8 }, .e_shoff = { 40, 8 }, .e_flags = { 48, 4 }, .e_ehsize = { 52, 2 },
	.e_phentsize = { 54, 2 }, .e_phnum = { 56, 2 }, .e_shentsize = { 58, 2 }, .e_shnum = { 60, 2 },
	.e_shstrndx = { 62, 2 },
	.sh_name = { 0, 4 }, .sh_type = { 4, 4 }, .sh_flags = { 8, 8 }, .sh_addr = { 16, 8 },
	.sh_offset = { 24, 8 }, .sh_size = { 32, 8 }, .sh_link = { 40, 4 },
	.sh_info = { 44, 4 }, .sh_entsize = { 56, 8 }, .sh_addralign = { 48, 8 },
	.p_type = { 0, 4 }, .p_flags = { 4, 4 }, .p_offset = { 8, 8 }, .p_vaddr = { 16, 8 },
	.p_paddr = { 24, 8 }, .p_filesz = { 32, 8 }, .p_memsz = { 40, 8 }, .p_align = { 48, 8 },
	.st_name = { 0, 4 }, .st_info = { 4, 1 }, .st_shndx = { 6, 2 }, .st_value = { 8, 8 },
	.st_size = { 16, 8 },
	.r_offset = { 0, 8 }, .r_info = { 8, 8 }, .r_addend = { 16, 8 },
	.r_sym_shift = 32,
};

const struct elf_layout sf_elf32_layout = {
	.ehsize = 52, .shentsize = 40, .phentsize = 32, .symentsize = 16,
	.relentsize = 8, .relaentsize = 12,
	.e_type = { 16, 2 }, .e_machine = { 18, 2 }, .e_version = { 20, 4 }, .e_entry = { 24, 4 },
	.e_phoff = { 28, 4 }, .e_shoff = { 32, 4 }, .e_flags = { 36, 4 }, .e_ehsize = { 40, 2 },
	.e_phentsize = { 42, 2 }, .e_phnum = { 44, 2 }, .e_shentsize = { 46, 2 }, .e_shnum = { 48, 2 },
	.e_shstrndx = { 50, 2 },
	.sh_name = { 0, 4 }, .sh_type = { 4, 4 }, .sh_flags = { 8, 4 }, .sh_addr = { 12, 4 },
	.sh_offset = { 16, 4 }, .sh_size = { 20, 4 }, .sh_link = { 24, 4 },
	.sh_info = { 28, 4 }, .sh_entsize = { 36, 4 }, .sh_addralign = { 32, 4 },
	.p_type = { 0, 4 }, .p_flags = { 24, 4 }, .p_offset = { 4, 4 }, .p_vaddr = { 8, 4 },
	.p_paddr = { 12, 4 }, .p_filesz = { 16, 4 }, .p_memsz = { 20, 4 }, .p_align = { 28, 4 },
	.st_name = { 0, 4 }, .st_info = { 12, 1 }, .st_shndx = { 14, 2 }, .st_value = { 4, 4 },
	.st_size = { 8, 4 },
	.r_offset = { 0, 4 }, .r_info = { 4, 4 }, .r_addend = { 8, 4 },
	.r_sym_shift = 8,
};

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

/* Field @f of the structure at @rec. */
static uint64_t get(const struct elf_file *ef, const unsigned char *rec, struct elf_field f)
{
	return sf_get_uint(rec + f.off, f.width, ef->be);
}

void sf_errf(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!errlen)
		return;
	n = snprintf(err, errlen, "%s: ", path);
	if (n < 0 || (size_t)n >= errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

/* ---- Reading the file ----------------------------------------------------- */

/*
 * A regular file is mapped read-only, so that only the pages read are
 * loaded: the headers, the .sframe section, the symbol tables, not the
 * code (a large static executable is megabytes of it). If the file shrinks
 * while mapped, touching the pages past its new end raises SIGBUS, as in
 * every tool that maps its input. Anything else (a pipe, a device), and
 * every file in builds with SF_INPUT_NO_MMAP (the fuzz targets: the heap
 * copy lets the sanitizer see a read past the end), is read into memory.
 */
static int read_file(const char *path, unsigned char **data, size_t *size, bool *mapped,
		     char *err, size_t errlen)
{
	unsigned char *buf = NULL;
	size_t cap = 0, len = 0;
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*mapped = false;
	if (fd < 0) {
		sf_errf(err, errlen, path, "%s", strerror(errno));
		return SF_INPUT_EIO;
	}
#ifndef SF_INPUT_NO_MMAP
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		void *p;

		if ((uintmax_t)st.st_size > SIZE_MAX) {
			sf_errf(err, errlen, path, "file too large");
			close(fd);
			return SF_INPUT_EIO;
		}
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p != MAP_FAILED) {
			close(fd);
			*data = p;
			*size = (size_t)st.st_size;
			*mapped = true;
			return SF_INPUT_OK;
		}
	}
#else
	(void)st;
#endif
	for (;;) {
		ssize_t n;

		if (len == cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			unsigned char *nbuf;

			if (ncap < cap) {
				sf_errf(err, errlen, path, "file too large");
				goto out_err;
			}
			nbuf = realloc(buf, ncap);
			if (!nbuf) {
				sf_errf(err, errlen, path, "out of memory");
				goto out_err;
			}
			buf = nbuf;
			cap = ncap;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			sf_errf(err, errlen, path, "read error: %s", strerror(errno));
			goto out_err;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	/* Exactly the bytes read: a read past them is outside the allocation. */
	if (len) {
		unsigned char *nbuf = realloc(buf, len);

		if (nbuf)
			buf = nbuf;
	}
	*data = buf;
	*size = len;
	return SF_INPUT_OK;

out_err:
	free(buf);
	close(fd);
	return SF_INPUT_EIO;
}

/* ---- ELF header and tables ------------------------------------------------ */

/* The ELF header's own fields, as written (no extended numbering applied). */
static int parse_ehdr_fields(struct elf_file *ef, const char *path, char *err, size_t errlen)
{
	const unsigned char *h = ef->data;
	if (ef->size < EI_NIDENT) {
		sf_errf(err, errlen, path, "truncated ELF header");
		return -1;
	}
	switch (h[EI_CLASS]) {
	case ELFCLASS32: ef->L = &sf_elf32_layout; break;
	case ELFCLASS64: ef->L = &sf_elf64_layout; break;
	default:
		sf_errf(err, errlen, path, "unsupported ELF class %u", h[EI_CLASS]);
		return -1;
	}
	switch (h[EI_DATA]) {
	case ELFDATA2LSB: ef->be = false; break;
	case ELFDATA2MSB: ef->be = true; break;
	default:
		sf_errf(err, errlen, path, "unsupported ELF data encoding %u", h[EI_DATA]);
		return -1;
	}
	if (ef->size < ef->L->ehsize) {
		sf_errf(err, errlen, path, "truncated ELF header");
		return -1;
	}
	ef->type = (uint16_t)get(ef, h, ef->L->e_type);
	ef->machine = (uint16_t)get(ef, h, ef->L->e_machine);
	ef->phoff = get(ef, h, ef->L->e_phoff);
	ef->shoff = get(ef, h, ef->L->e_shoff);
	ef->phentsize = get(ef, h, ef->L->e_phentsize);
	ef->phnum = get(ef, h, ef->L->e_phnum);
	ef->shentsize = get(ef, h, ef->L->e_shentsize);
	ef->shnum = get(ef, h, ef->L->e_shnum);
	ef->shstrndx = get(ef, h, ef->L->e_shstrndx);
	return 0;
}

/* The ELF header, with extended numbering, and the section header table's bounds. */
static int parse_ehdr(struct elf_file *ef, const char *path, char *err, size_t errlen)
{
	uint64_t e_shnum, e_shstrndx, e_phnum;

	if (parse_ehdr_fields(ef, path, err, errlen))
		return -1;
	e_shnum = ef->shnum;
	e_shstrndx = ef->shstrndx;
	e_phnum = ef->phnum;
	if (ef->shoff == 0) {
		ef->shnum = 0;
		ef->shstrndx = SHN_UNDEF;
	} else {
		if (ef->shentsize < ef->L->shentsize) {
			sf_errf(err, errlen, path, "bad section header entry size %" PRIu64,
			        ef->shentsize);
			return -1;
		}
		/*
		 * Extended numbering: section 0 holds the real section count,
		 * string table index and program header count when they do
		 * not fit the ELF header's 16-bit fields.
		 */
		if (e_shnum == 0 || e_shstrndx == SHN_XINDEX || e_phnum == PN_XNUM) {
			const unsigned char *s0;

			if (!in_bounds(ef->shoff, ef->shentsize, ef->size)) {
				sf_errf(err, errlen, path, "section header table out of bounds");
				return -1;
			}
			s0 = ef->data + ef->shoff;
			if (e_shnum == 0)
				ef->shnum = get(ef, s0, ef->L->sh_size);
			if (e_shstrndx == SHN_XINDEX)
				ef->shstrndx = get(ef, s0, ef->L->sh_link);
			if (e_phnum == PN_XNUM)
				ef->phnum = get(ef, s0, ef->L->sh_info);
		}
		/* shnum < 2^32 and shentsize < 2^16: the product cannot wrap. */
		if (ef->shnum > UINT32_MAX ||
		    !in_bounds(ef->shoff, ef->shnum * ef->shentsize, ef->size)) {
			sf_errf(err, errlen, path, "section header table out of bounds");
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
static bool phdr_table_ok(const struct elf_file *ef)
{
	/* phnum < 2^32 and phentsize < 2^16: the product cannot wrap. */
	return ef->phentsize >= ef->L->phentsize && ef->phnum <= UINT32_MAX &&
	       in_bounds(ef->phoff, ef->phnum * ef->phentsize, ef->size);
}

/* Program header @idx; the table passed phdr_table_ok(). */
static void get_phdr(const struct elf_file *ef, uint64_t idx, struct sf_elf_segment *ph)
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

/* The bytes of a section with file contents, bounds-checked. */
static int section_bytes(const struct elf_file *ef, const struct elf_shdr *sh, const char *what,
			 const unsigned char **p, const char *path, char *err, size_t errlen)
{
	if (sh->type == SHT_NOBITS) {
		sf_errf(err, errlen, path, "%s has no data in the file (SHT_NOBITS)", what);
		return -1;
	}
	if (!in_bounds(sh->offset, sh->size, ef->size)) {
		sf_errf(err, errlen, path, "%s out of bounds (offset 0x%" PRIx64 ", size 0x%" PRIx64
		        ", file size 0x%zx)", what, sh->offset, sh->size, ef->size);
		return -1;
	}
	*p = ef->data + sh->offset;
	return 0;
}

/*
 * Find the first section named @name: 0 with *idx set (UINT64_MAX when
 * there is none), or -1 when the names cannot be read.
 */
static int find_section(const struct elf_file *ef, const char *name, uint64_t *idx,
			const char *path, char *err, size_t errlen)
{
	size_t len = strlen(name) + 1;
	struct elf_shdr strsh;
	const unsigned char *strtab;
	uint64_t i;

	*idx = UINT64_MAX;
	if (ef->shnum == 0 || ef->shstrndx == SHN_UNDEF)
		return 0;
	if (ef->shstrndx >= ef->shnum) {
		sf_errf(err, errlen, path, "section name string table index %" PRIu64
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
		if (in_bounds(sh.name, len, strsh.size) && memcmp(strtab + sh.name, name, len) == 0) {
			*idx = i;
			return 0;
		}
	}
	return 0;
}

/*
 * Find the section named ".sframe": 0 with *idx set (UINT64_MAX when there
 * is none), or -1 on error.
 */
static int find_sframe_section(const struct elf_file *ef, uint64_t *idx, const char *path,
			       char *err, size_t errlen)
{
	struct elf_shdr sh;

	if (find_section(ef, ".sframe", idx, path, err, errlen))
		return -1;
	if (*idx == UINT64_MAX)
		return 0;
	get_shdr(ef, *idx, &sh);
	if (sh.type != SHT_PROGBITS && sh.type != SFRAME_SHT_GNU_SFRAME && sh.type != SHT_NOBITS) {
		sf_errf(err, errlen, path, "section .sframe has unexpected type 0x%" PRIx32, sh.type);
		return -1;
	}
	if (sh.flags & SHF_COMPRESSED) {
		sf_errf(err, errlen, path, "section .sframe is compressed (not supported)");
		return -1;
	}
	return 0;
}

/* Find the PT_GNU_SFRAME segment: 0 and *found set, or -1 on error. */
static int find_sframe_segment(const struct elf_file *ef, uint64_t *off, uint64_t *size,
			       uint64_t *vaddr, bool *found, const char *path, char *err,
			       size_t errlen)
{
	struct sf_elf_segment ph;
	uint64_t i;

	*found = false;
	if (ef->phnum == 0)
		return 0;
	if (ef->phentsize < ef->L->phentsize) {
		sf_errf(err, errlen, path, "bad program header entry size %" PRIu64, ef->phentsize);
		return -1;
	}
	if (!phdr_table_ok(ef)) {
		sf_errf(err, errlen, path, "program header table out of bounds");
		return -1;
	}
	for (i = 0; i < ef->phnum; i++) {
		get_phdr(ef, i, &ph);
		if (ph.type != SFRAME_PT_GNU_SFRAME)
			continue;
		*off = ph.offset;
		*vaddr = ph.vaddr;
		*size = ph.filesz;
		if (!in_bounds(*off, *size, ef->size)) {
			sf_errf(err, errlen, path, "PT_GNU_SFRAME segment out of bounds (offset 0x%"
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

/*
 * How a relocated value is computed. In .sframe gas writes PC-relative
 * relocations only, and the value depends on the section's header (see
 * apply_rel_section()); in any other section (.eh_frame, .debug_frame) it
 * is what the relocation type says: S + A - P or S + A.
 */
enum reloc_rule {
	RELOC_SFRAME,		/* .sframe without the PCREL flag: S + A */
	RELOC_SFRAME_PCREL,	/* .sframe with it: S + A - P */
	RELOC_BY_TYPE,
};

/*
 * Width in bytes of a relocation the tools apply, 0 for a no-op, -1 for
 * another; *@pcrel set when it is PC-relative (S + A - P, else S + A).
 */
static int reloc_width(uint16_t machine, uint32_t type, bool *pcrel)
{
	const struct sf_abi *a = sf_abi_of_machine(machine);
	const struct sf_abi_reloc *r;

	for (r = a ? a->relocs : NULL; r && r->width >= 0; r++) {
		if (r->type == type) {
			*pcrel = r->pcrel;
			return r->width;
		}
	}
	return -1;
}

const char *sf_machine_name(uint16_t machine, char *buf, size_t len)
{
	/*
	 * e_machine values of the ELF gABI; names as readelf and the kernel use
	 * them. Those SFrame has an ABI for are the ABI table's.
	 */
	static const struct {
		uint16_t machine;
		const char *name;
	} names[] = {
		{ EM_SPARC, "SPARC" }, { EM_386, "i386" }, { EM_MIPS, "MIPS" },
		{ EM_PPC, "PowerPC" }, { EM_PPC64, "PowerPC64" },
		{ EM_ARM, "ARM" }, { EM_SPARCV9, "SPARC v9" }, { EM_IA_64, "IA-64" },
		{ EM_RISCV, "RISC-V" }, { EM_LOONGARCH, "LoongArch" },
	};
	const struct sf_abi *a = sf_abi_of_machine(machine);
	size_t i;

	if (a)
		return a->name;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].machine == machine)
			return names[i].name;
	snprintf(buf, len, "machine %u", machine);
	return buf;
}

/*
 * Apply one REL or RELA section to @sec (a copy of section @name), by @rule.
 *
 * Sections of a .o all sit at address 0, so a symbol's address is its
 * st_value (for STT_SECTION symbols 0 + 0) and a field's address P its
 * offset in its section. gas writes every .sframe FDE start as a
 * PC-relative relocation. The value stored there is S + A - P when the
 * SFrame header says FDE starts are field-relative (PCREL flag), which is
 * what the relocation computes; without the flag (v1, v2) it is S + A, the
 * section-relative convention of those versions' linked output, so that a
 * dump shows each function's real offset in either case. In .eh_frame and
 * .debug_frame each value is the type's own: read at address 0 (.eh_frame's
 * PC-relative pointers) it gives each function's offset in its section, as
 * .sframe's starts do.
 */
static int apply_rel_section(const struct elf_file *ef, const struct elf_shdr *rsh, uint64_t rsh_idx,
			     unsigned char *sec, uint64_t sec_size, const char *name, bool sec_be,
			     enum reloc_rule rule, const char *path, char *err, size_t errlen)
{
	bool rela = rsh->type == SHT_RELA;
	unsigned entsize = rela ? ef->L->relaentsize : ef->L->relentsize;
	unsigned symentsize = ef->L->symentsize;
	const unsigned char *rel, *syms;
	struct elf_shdr symsh;
	uint64_t nsyms, nrel, i;
	char what[64];

	snprintf(what, sizeof(what), "relocation section %" PRIu64, rsh_idx);
	if (rsh->entsize != 0 && rsh->entsize != entsize) {
		sf_errf(err, errlen, path, "%s: unexpected entry size %" PRIu64, what, rsh->entsize);
		return -1;
	}
	if (section_bytes(ef, rsh, what, &rel, path, err, errlen))
		return -1;
	if (rsh->size % entsize != 0) {
		sf_errf(err, errlen, path, "%s: size 0x%" PRIx64 " is not a multiple of %u", what,
		        rsh->size, entsize);
		return -1;
	}
	nrel = rsh->size / entsize;
	if (rsh->link == 0 || rsh->link >= ef->shnum) {
		sf_errf(err, errlen, path, "%s: symbol table index %" PRIu32 " out of range", what,
		        rsh->link);
		return -1;
	}
	get_shdr(ef, rsh->link, &symsh);
	if (symsh.type != SHT_SYMTAB && symsh.type != SHT_DYNSYM) {
		sf_errf(err, errlen, path, "%s: section %" PRIu32 " is not a symbol table", what,
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
		bool type_pcrel, pcrel;
		int width;

		r_offset = get(ef, r, ef->L->r_offset);
		r_info = get(ef, r, ef->L->r_info);
		sym = r_info >> ef->L->r_sym_shift;
		type = (uint32_t)(r_info & (((uint64_t)1 << ef->L->r_sym_shift) - 1));
		width = reloc_width(ef->machine, type, &type_pcrel);
		if (width < 0 || (width > 0 && rule != RELOC_BY_TYPE && !type_pcrel)) {
			char m[32];

			sf_errf(err, errlen, path, "%s, entry %" PRIu64 ": unsupported relocation type %"
			        PRIu32 " for %s", what, i, type, sf_machine_name(ef->machine, m, sizeof(m)));
			return -1;
		}
		if (width == 0)
			continue;
		if (sym >= nsyms) {
			sf_errf(err, errlen, path, "%s, entry %" PRIu64 ": symbol index %" PRIu64
			        " out of range (%" PRIu64 " symbol%s)", what, i, sym, nsyms,
			        nsyms == 1 ? "" : "s");
			return -1;
		}
		if (!in_bounds(r_offset, (uint64_t)width, sec_size)) {
			sf_errf(err, errlen, path, "%s, entry %" PRIu64 ": offset 0x%" PRIx64
			        " outside the %s section (size 0x%" PRIx64 ")", what, i,
			        r_offset, name, sec_size);
			return -1;
		}
		if (rela)
			addend = sign_extend(get(ef, r, ef->L->r_addend), ef->L->r_addend.width);
		else
			addend = sign_extend(sf_get_uint(sec + r_offset, (unsigned)width, sec_be),
					     (unsigned)width);
		value = get(ef, syms + sym * symentsize, ef->L->st_value);
		/* Wrapping unsigned arithmetic, then read back as two's complement. */
		pcrel = rule == RELOC_BY_TYPE ? type_pcrel : rule == RELOC_SFRAME_PCREL;
		value = value + (uint64_t)addend - (pcrel ? r_offset : 0);
		result = sign_extend(value, 8);
		/* Signed fields for PC-relative types; either kind for absolute ones. */
		if (width == 4 && (result < INT32_MIN ||
				   result > (type_pcrel ? INT32_MAX : (int64_t)UINT32_MAX))) {
			sf_errf(err, errlen, path, "%s, entry %" PRIu64 ": value %" PRId64
			        " does not fit a 32-bit field", what, i, result);
			return -1;
		}
		sf_put_uint(sec + r_offset, (unsigned)width, sec_be, value);
	}
	return 0;
}

/*
 * Apply every relocation section aimed at section @sec_idx (@name: @size
 * bytes at @bytes, in byte order @be) by @rule, to a copy made at the first
 * one: *@copy (malloc()ed), left NULL when none is aimed at it.
 */
static int relocate(const struct elf_file *ef, uint64_t sec_idx, const char *name,
		    const unsigned char *bytes, uint64_t size, bool be, enum reloc_rule rule,
		    unsigned char **copy, const char *path, char *err, size_t errlen)
{
	uint64_t i;

	*copy = NULL;
	for (i = 0; i < ef->shnum; i++) {
		struct elf_shdr rsh;

		get_shdr(ef, i, &rsh);
		if ((rsh.type != SHT_RELA && rsh.type != SHT_REL) || rsh.info != sec_idx)
			continue;
		if (!*copy) {
			*copy = malloc(size ? (size_t)size : 1);
			if (!*copy) {
				sf_errf(err, errlen, path, "out of memory");
				return -1;
			}
			memcpy(*copy, bytes, (size_t)size);
		}
		if (apply_rel_section(ef, &rsh, i, *copy, size, name, be, rule, path, err, errlen)) {
			free(*copy);
			*copy = NULL;
			return -1;
		}
	}
	return 0;
}

/* The .sframe section of a relocatable object, relocated into @in->owned_copy. */
static int relocate_sframe(const struct elf_file *ef, uint64_t sec_idx, struct sf_input *in,
			   const char *path, char *err, size_t errlen)
{
	enum reloc_rule rule = RELOC_SFRAME;
	bool sec_be = ef->be;

	/* The section's byte order is its magic's; the ELF's if that is broken. */
	if (in->sec_size >= 4) {
		if (in->sec[0] == 0xe2 && in->sec[1] == 0xde)
			sec_be = false;
		else if (in->sec[0] == 0xde && in->sec[1] == 0xe2)
			sec_be = true;
		if (in->sec[SFRAME_HDR_FLAGS] & SFRAME_F_FDE_FUNC_START_PCREL)
			rule = RELOC_SFRAME_PCREL;
	}
	if (relocate(ef, sec_idx, ".sframe", in->sec, in->sec_size, sec_be, rule,
		     &in->owned_copy, path, err, errlen))
		return -1;
	if (in->owned_copy)
		in->sec = in->owned_copy;
	return 0;
}

/* ---- Entry points ------------------------------------------------------------ */

bool sf_input_is_elf(const struct sf_input *in)
{
	return in->file_size >= SELFMAG && memcmp(in->file, ELFMAG, SELFMAG) == 0;
}

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
	in->is_rel = ef.type == ET_REL;
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
			return relocate_sframe(&ef, idx, in, path, err, errlen);
		return 0;
	}
	if (find_sframe_segment(&ef, &off, &size, &vaddr, &found, path, err, errlen))
		return -1;
	if (!found) {
		sf_errf(err, errlen, path, "no .sframe section or PT_GNU_SFRAME segment");
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
	int ret;

	memset(in, 0, sizeof(*in));
	if (errlen)
		err[0] = '\0';
	ret = read_file(path, &in->file, &in->file_size, &in->mapped, err, errlen);
	if (ret)
		return ret;

	if (sf_input_is_elf(in)) {
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
		sf_errf(err, errlen, path, in->file_size ? "not an ELF file or SFrame section"
						       : "empty file");
		sf_input_free(in);
		return SF_INPUT_EFORMAT;
	}
	if (have_vaddr)
		in->vaddr = vaddr;
	return SF_INPUT_OK;
}

int sf_input_bytes(const char *path, struct sf_input *in, char *err, size_t errlen)
{
	memset(in, 0, sizeof(*in));
	if (errlen)
		err[0] = '\0';
	return read_file(path, &in->file, &in->file_size, &in->mapped, err, errlen);
}

void sf_input_free(struct sf_input *in)
{
	free(in->owned_copy);
	if (in->mapped)
		munmap(in->file, in->file_size);
	else
		free(in->file);
	memset(in, 0, sizeof(*in));
}

/* ---- Sections by name (for sframe convert) ------------------------------- */

/* @file's header and section header table, or -1 with @err set. */
static int open_sections(struct elf_file *ef, const unsigned char *file, size_t size,
			 const char *path, char *err, size_t errlen)
{
	memset(ef, 0, sizeof(*ef));
	ef->data = file;
	ef->size = size;
	if (size < SELFMAG || memcmp(file, ELFMAG, SELFMAG) != 0) {
		sf_errf(err, errlen, path, "not an ELF file");
		return -1;
	}
	return parse_ehdr(ef, path, err, errlen);
}

uint64_t sf_elf_num_sections(const unsigned char *file, size_t size)
{
	struct elf_file ef;

	return open_sections(&ef, file, size, "", NULL, 0) ? 0 : ef.shnum;
}

/*
 * Section @idx of @ef into @sec, its bytes checked against the file (none
 * for SHT_NOBITS); @what names it in messages. Return: 0 or -1.
 */
static int fill_section(const struct elf_file *ef, uint64_t idx, const char *what,
			struct sf_elf_section *sec, const char *path, char *err, size_t errlen)
{
	struct elf_shdr sh;

	get_shdr(ef, idx, &sh);
	sec->index = idx;
	sec->type = sh.type;
	sec->flags = sh.flags;
	sec->addr = sh.addr;
	sec->offset = sh.offset;
	sec->size = sh.size;
	sec->addralign = get(ef, ef->data + ef->shoff + idx * ef->shentsize, ef->L->sh_addralign);
	if (sh.type == SHT_NOBITS)
		return 0;
	return section_bytes(ef, &sh, what, &sec->data, path, err, errlen);
}

int sf_elf_section_find(const unsigned char *file, size_t size, const char *name,
			struct sf_elf_section *sec, const char *path, char *err, size_t errlen)
{
	struct elf_file ef;
	uint64_t idx;
	char what[80];

	memset(sec, 0, sizeof(*sec));
	if (open_sections(&ef, file, size, path, err, errlen) ||
	    find_section(&ef, name, &idx, path, err, errlen))
		return -1;
	if (idx == UINT64_MAX)
		return 0;
	snprintf(what, sizeof(what), "section %s", name);
	return fill_section(&ef, idx, what, sec, path, err, errlen) ? -1 : 1;
}

int sf_elf_shtab_read(const unsigned char *file, size_t size, struct sf_elf_shtab *t,
		      const char *path, char *err, size_t errlen)
{
	struct elf_file ef;

	memset(t, 0, sizeof(*t));
	if (open_sections(&ef, file, size, path, err, errlen))
		return -1;
	t->shoff = ef.shoff;
	t->shnum = ef.shnum;
	t->shentsize = ef.shentsize;
	t->shstrndx = ef.shstrndx;
	t->ext_shnum = ef.shoff && get(&ef, file, ef.L->e_shnum) == 0;
	if (t->shnum && t->shstrndx != SHN_UNDEF && t->shstrndx >= t->shnum) {
		sf_errf(err, errlen, path, "section name string table index %" PRIu64
		        " out of range (%" PRIu64 " section%s)", t->shstrndx, t->shnum,
		        t->shnum == 1 ? "" : "s");
		return -1;
	}
	return 0;
}

int sf_elf_section_at(const unsigned char *file, size_t size, uint64_t idx,
		      struct sf_elf_section *sec, const char *path, char *err, size_t errlen)
{
	struct elf_file ef;
	char what[40];

	memset(sec, 0, sizeof(*sec));
	if (open_sections(&ef, file, size, path, err, errlen))
		return -1;
	if (idx >= ef.shnum) {
		sf_errf(err, errlen, path, "no section %" PRIu64 " (%" PRIu64 " section%s)", idx,
		        ef.shnum, ef.shnum == 1 ? "" : "s");
		return -1;
	}
	snprintf(what, sizeof(what), "section %" PRIu64, idx);
	return fill_section(&ef, idx, what, sec, path, err, errlen);
}

int sf_elf_section_relocated(const unsigned char *file, size_t size,
			     const struct sf_elf_section *sec, const char *name,
			     unsigned char **copy, const char *path, char *err, size_t errlen)
{
	struct elf_file ef;

	*copy = NULL;
	if (open_sections(&ef, file, size, path, err, errlen))
		return -1;
	if (ef.type != ET_REL || !sec->data)
		return 0;
	return relocate(&ef, sec->index, name, sec->data, sec->size, ef.be, RELOC_BY_TYPE, copy,
			path, err, errlen);
}

/* ---- Symbols and executable segments (for the unwind commands) ---------- */

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

static unsigned leading_underscores(const char *s)
{
	unsigned n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/*
 * Among aliases, the one perf keeps of duplicates: not weak, then global,
 * then with fewer leading underscores, then the longest name ("__brk"
 * where eu-stack says "brk"). 0 when they tie.
 */
static int cmp_perf(const struct sf_symbol *x, const struct sf_symbol *y)
{
	uint64_t cx = RANK_CLASS(x->rank), cy = RANK_CLASS(y->rank);
	unsigned ux, uy;
	size_t lx, ly;

	if ((cx == 1) != (cy == 1))
		return cx == 1 ? 1 : -1;
	if ((cx == 0) != (cy == 0))
		return cx == 0 ? -1 : 1;
	ux = leading_underscores(x->name);
	uy = leading_underscores(y->name);
	if (ux != uy)
		return ux < uy ? -1 : 1;
	lx = strlen(x->name);
	ly = strlen(y->name);
	return lx == ly ? 0 : lx > ly ? -1 : 1;
}

static int cmp_sym(const struct sf_symbol *x, const struct sf_symbol *y, enum sf_names names)
{
	int r;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* A sized symbol before an alias without size. */
	if (!x->size != !y->size)
		return x->size ? -1 : 1;
	if (names == SF_NAMES_PERF &&
	    RANK_CLASS(x->rank) != RANK_CLASS(RANK_PLT) &&
	    RANK_CLASS(y->rank) != RANK_CLASS(RANK_PLT) && (r = cmp_perf(x, y)) != 0)
		return r;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->name, y->name);
}

static struct sec_range *section_ranges(const struct elf_file *ef)
{
	struct sec_range *r = calloc(ef->shnum ? ef->shnum : 1, sizeof(*r));
	uint64_t i;

	if (!r)
		return NULL;
	for (i = 1; i < ef->shnum; i++) {
		struct elf_shdr sh;

		get_shdr(ef, i, &sh);
		if ((sh.flags & SHF_ALLOC) && sh.addr <= UINT64_MAX - sh.size) {
			r[i].start = sh.addr;
			r[i].end = sh.addr + sh.size;
		}
	}
	return r;
}

/*
 * Add a symbol of @size bytes at @addr in section range @sec (room was made
 * by the caller). A symbol outside its section names nothing. One without
 * a size names up to its section's end at most (see sf_symbol_find()).
 */
static void add_symbol(struct sf_elf_info *info, const struct sec_range *sec, uint64_t addr,
		       uint64_t size, uint64_t rank, const char *name)
{
	struct sf_symbol *s;

	if (addr < sec->start || addr >= sec->end)
		return;
	s = &info->syms[info->nsyms++];
	s->addr = addr;
	s->size = size;
	s->end = size && size < sec->end - addr ? addr + size : sec->end;
	s->rank = rank;
	s->name = name;
}

/* Function symbols of symbol table section @idx (room for all of them made here). */
static int load_symtab(const struct elf_file *ef, uint64_t idx, const struct sec_range *secs,
		       struct sf_elf_info *info, char *err, size_t errlen)
{
	unsigned entsize = ef->L->symentsize;
	const unsigned char *tab, *str, *xtab = NULL;
	struct elf_shdr sh, strsh;
	uint64_t n, i, nx = 0;
	bool str_ends;

	get_shdr(ef, idx, &sh);
	if (sh.link >= ef->shnum) {
		sf_errf(err, errlen, "ELF", "symbol table string section %u out of range", sh.link);
		return -1;
	}
	get_shdr(ef, sh.link, &strsh);
	if (section_bytes(ef, &sh, "symbol table", &tab, "ELF", err, errlen) ||
	    section_bytes(ef, &strsh, "symbol string table", &str, "ELF", err, errlen))
		return -1;
	/* Section indices too large for st_shndx: in the table's SHT_SYMTAB_SHNDX section. */
	for (i = 1; i < ef->shnum; i++) {
		struct elf_shdr xs;

		get_shdr(ef, i, &xs);
		if (xs.type == SHT_SYMTAB_SHNDX && xs.link == idx) {
			if (in_bounds(xs.offset, xs.size, ef->size)) {
				xtab = ef->data + xs.offset;
				nx = xs.size / 4;
			}
			break;
		}
	}
	/* A table ending in NUL ends every name in it. */
	str_ends = strsh.size && str[strsh.size - 1] == '\0';
	n = sh.size / entsize;
	info->syms = calloc(n ? n : 1, sizeof(*info->syms));
	if (!info->syms) {
		sf_errf(err, errlen, "ELF", "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		const unsigned char *s = tab + i * entsize;
		uint64_t name = get(ef, s, ef->L->st_name), value, size, shndx;
		unsigned st_info = (unsigned)get(ef, s, ef->L->st_info);
		unsigned type = ELF64_ST_TYPE(st_info), bind = ELF64_ST_BIND(st_info);

		shndx = get(ef, s, ef->L->st_shndx);
		value = get(ef, s, ef->L->st_value);
		size = get(ef, s, ef->L->st_size);
		if (type != STT_FUNC && type != STT_GNU_IFUNC)
			continue;
		if (shndx == SHN_XINDEX)
			shndx = i < nx ? sf_get_uint(xtab + 4 * i, 4, ef->be) : SHN_UNDEF;
		else if (shndx >= SHN_LORESERVE)
			continue;	/* absolute or common: in no section */
		if (shndx == SHN_UNDEF || shndx >= ef->shnum)
			continue;
		/* The name must end inside the string table. */
		if (name >= strsh.size || (!str_ends && !memchr(str + name, 0, strsh.size - name)))
			continue;
		add_symbol(info, &secs[shndx], value, size,
			   (bind == STB_LOCAL ? RANK_LOCAL : bind == STB_WEAK ? RANK_WEAK : 0) | i,
			   (const char *)str + name);
	}
	return 0;
}

/* ---- PLT entries: "name@plt" ------------------------------------------------ */

/*
 * objdump and gdb name each PLT entry after the dynamic relocation of the
 * GOT slot it jumps through: "puts@plt" (JUMP_SLOT in .rela.plt, or
 * GLOB_DAT in .rela.dyn for .plt.got entries), "*ABS*+0x1190@plt" for an
 * IRELATIVE one (no symbol: the resolver's address). So each entry's
 * instructions are decoded for its GOT slot, and the slot is looked up among
 * those relocations: that serves every layout (lazy, IBT's .plt.sec, BTI and
 * PAC entries of other sizes) without knowing which one a linker chose.
 * Relocations not against the dynamic symbol table (a static executable's
 * IRELATIVE ones) name nothing, as in objdump and gdb. (objdump counts
 * aarch64 entries by relocation index instead, so it also names the TLS
 * descriptor trampoline after the TLSDESC relocations that follow the
 * others: that code is no PLT entry, and stays unnamed here.)
 */

struct plt_reloc {
	uint64_t slot;		/* r_offset: the GOT slot */
	uint64_t sym;		/* symbol index, 0 for none */
	uint64_t addend;
	uint64_t symtab;	/* the dynamic symbol table's section index */
};

struct plt_names {
	char *pool;		/* "name@plt" strings, NUL-separated */
	size_t len, cap;
	struct {
		uint64_t addr, size, sec;
		size_t name;	/* offset in pool */
	} *v;
	size_t n, cap_v;
};

static int cmp_plt_reloc(const void *a, const void *b)
{
	const struct plt_reloc *x = a, *y = b;

	return x->slot < y->slot ? -1 : x->slot > y->slot;
}

static bool plt_reloc_type(uint16_t machine, uint32_t type)
{
	const struct sf_abi *a = sf_abi_of_machine(machine);
	size_t i;

	for (i = 0; a && i < sizeof(a->slot_relocs) / sizeof(a->slot_relocs[0]); i++)
		if (a->slot_relocs[i] == type)
			return true;
	return false;
}

/* The relocations that may name PLT entries, sorted by slot; *@n = 0 for none. */
static struct plt_reloc *plt_relocs(const struct elf_file *ef, size_t *n)
{
	struct plt_reloc *v = NULL;
	size_t cap = 0;
	uint64_t i, k;

	*n = 0;
	for (i = 1; i < ef->shnum; i++) {
		struct elf_shdr sh, symsh;

		get_shdr(ef, i, &sh);
		if (sh.type != SHT_RELA || !(sh.flags & SHF_ALLOC) || sh.link == 0 ||
		    sh.link >= ef->shnum || !in_bounds(sh.offset, sh.size, ef->size))
			continue;
		get_shdr(ef, sh.link, &symsh);
		if (symsh.type != SHT_DYNSYM)
			continue;
		for (k = 0; k + ef->L->relaentsize <= sh.size; k += ef->L->relaentsize) {
			const unsigned char *r = ef->data + sh.offset + k;
			uint64_t info = get(ef, r, ef->L->r_info);
			uint64_t type_mask = ((uint64_t)1 << ef->L->r_sym_shift) - 1;

			if (!plt_reloc_type(ef->machine, (uint32_t)(info & type_mask)))
				continue;
			if (*n == cap) {
				size_t ncap = cap ? 2 * cap : 64;
				struct plt_reloc *nv = realloc(v, ncap * sizeof(*v));

				if (!nv) {
					free(v);
					*n = 0;
					return NULL;
				}
				v = nv;
				cap = ncap;
			}
			v[*n].slot = get(ef, r, ef->L->r_offset);
			v[*n].sym = info >> ef->L->r_sym_shift;
			v[*n].addend = get(ef, r, ef->L->r_addend);
			v[*n].symtab = sh.link;
			(*n)++;
		}
	}
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_plt_reloc);
	return v;
}

/*
 * x86_64: "jmp *disp32(%rip)" (ff 25) through the slot, at the entry's
 * start, after endbr64 (f3 0f 1e fa: IBT), after a bnd prefix (f2: MPX), or
 * both. The lazy .plt entries of IBT layouts push and jump to PLT0 instead,
 * and PLT0 jumps through GOT[2], which no relocation fills: no names there.
 */
static bool x86_64_plt_slot(const unsigned char *p, uint64_t n, uint64_t addr, uint64_t *slot)
{
	static const unsigned char endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
	uint64_t at = 0;

	if (n >= 4 && memcmp(p, endbr64, 4) == 0)
		at = 4;
	if (at < n && p[at] == 0xf2)
		at++;
	if (n < at + 6 || p[at] != 0xff || p[at + 1] != 0x25)
		return false;
	*slot = addr + at + 6 + (uint64_t)sign_extend(sf_get_uint(p + at + 2, 4, false), 4);
	return true;
}

/*
 * aarch64 (instructions are little-endian in either data byte order):
 * "adrp x16, page" then "ldr x17, [x16, #off]" load the slot.
 */
static bool aarch64_plt_slot(const unsigned char *p, uint64_t addr, uint64_t *slot)
{
	uint64_t adrp = sf_get_uint(p, 4, false), ldr = sf_get_uint(p + 4, 4, false);
	uint64_t imm;

	if ((adrp & 0x9f00001fu) != 0x90000010u || (ldr & 0xffc003ffu) != 0xf9400211u)
		return false;
	/* immhi:immlo, a signed count of 4 KiB pages. */
	imm = ((adrp >> 5) & 0x7ffffu) << 2 | ((adrp >> 29) & 3u);
	if (imm & 0x100000u)
		imm |= ~(uint64_t)0x1fffff;
	*slot = (addr & ~(uint64_t)0xfff) + (imm << 12) + ((ldr >> 10) & 0xfffu) * 8;
	return true;
}

/* s390x: "larl %r1, slot" (c0 10, a signed count of halfwords, big-endian). */
static bool s390x_plt_slot(const unsigned char *p, uint64_t addr, uint64_t *slot)
{
	if (p[0] != 0xc0 || p[1] != 0x10)
		return false;
	*slot = addr + 2 * (uint64_t)sign_extend(sf_get_uint(p + 2, 4, true), 4);
	return true;
}

static int plt_add_name(struct plt_names *pn, const struct elf_file *ef,
			const struct plt_reloc *r, uint64_t addr, uint64_t size, uint64_t sec)
{
	char buf[64];
	const char *sym = "*ABS*";
	struct elf_shdr symsh, strsh;
	size_t need;
	int len;

	if (r->sym) {
		/* The name in the relocations' symbol table, as in the relocation section. */
		uint64_t name;

		get_shdr(ef, r->symtab, &symsh);
		if (symsh.link >= ef->shnum || r->sym >= symsh.size / ef->L->symentsize ||
		    !in_bounds(symsh.offset, symsh.size, ef->size))
			return 0;
		get_shdr(ef, symsh.link, &strsh);
		name = get(ef, ef->data + symsh.offset + r->sym * ef->L->symentsize, ef->L->st_name);
		if (strsh.type == SHT_NOBITS || !in_bounds(strsh.offset, strsh.size, ef->size) ||
		    name >= strsh.size ||
		    !memchr(ef->data + strsh.offset + name, 0, strsh.size - name))
			return 0;
		sym = (const char *)ef->data + strsh.offset + name;
	}
	/*
	 * Only a relocation without a symbol shows its addend (ld's "-z
	 * mark-plt" stores each entry's address in the JUMP_SLOT addends).
	 */
	len = !r->sym && r->addend ? snprintf(buf, sizeof(buf), "+0x%" PRIx64 "@plt", r->addend)
				   : snprintf(buf, sizeof(buf), "@plt");
	need = strlen(sym) + (size_t)len + 1;
	if (pn->cap - pn->len < need) {
		size_t ncap = pn->cap * 2 + need + 256;
		char *np = realloc(pn->pool, ncap);

		if (!np)
			return -1;
		pn->pool = np;
		pn->cap = ncap;
	}
	if (pn->n == pn->cap_v) {
		size_t ncap = pn->cap_v ? 2 * pn->cap_v : 32;
		void *nv = realloc(pn->v, ncap * sizeof(*pn->v));

		if (!nv)
			return -1;
		pn->v = nv;
		pn->cap_v = ncap;
	}
	pn->v[pn->n].addr = addr;
	pn->v[pn->n].size = size;
	pn->v[pn->n].sec = sec;
	pn->v[pn->n].name = pn->len;
	pn->n++;
	memcpy(pn->pool + pn->len, sym, strlen(sym));
	memcpy(pn->pool + pn->len + strlen(sym), buf, (size_t)len + 1);
	pn->len += need;
	return 0;
}

static const struct plt_reloc *find_plt_reloc(const struct plt_reloc *v, size_t n, uint64_t slot)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].slot < slot)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].slot == slot ? &v[lo] : NULL;
}

static bool is_plt_section(const char *name, uint64_t len)
{
	static const char *const names[] = { ".plt", ".plt.sec", ".plt.got", ".plt.bnd" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (len > strlen(names[i]) && memcmp(name, names[i], strlen(names[i]) + 1) == 0)
			return true;
	return false;
}

/* The entries of PLT section @idx (@sh), named into @pn. */
static int plt_section(const struct elf_file *ef, uint64_t idx, const struct elf_shdr *sh,
		       const struct plt_reloc *rel, size_t nrel, struct plt_names *pn)
{
	const unsigned char *p = ef->data + sh->offset;
	const struct plt_reloc *r;
	uint64_t stride, off, slot, prev = UINT64_MAX, prev_slot = 0;

	switch (ef->machine) {
	case EM_X86_64:
	case EM_S390:
		/*
		 * Entries of sh_entsize bytes: s390x 32; x86_64 16, or 8 in a
		 * .plt.got without IBT (mold leaves sh_entsize 0 there: 8-byte
		 * steps find either size).
		 */
		if (ef->machine == EM_S390)
			stride = 32;
		else
			stride = sh->entsize == 16 ? 16 : 8;
		for (off = 0; off + stride <= sh->size; off += stride) {
			bool ok = ef->machine == EM_S390
					  ? s390x_plt_slot(p + off, sh->addr + off, &slot)
					  : x86_64_plt_slot(p + off, stride, sh->addr + off, &slot);

			r = ok ? find_plt_reloc(rel, nrel, slot) : NULL;
			if (r && plt_add_name(pn, ef, r, sh->addr + off, stride, idx))
				return -1;
		}
		return 0;
	case EM_AARCH64:
		/*
		 * Entries of 16 or 24 bytes (PAC, BTI+PAC) after a 32-byte PLT0;
		 * one may begin with "bti c" before its adrp. Each runs to the
		 * next one, the last to the section's end.
		 */
		for (off = 0; off + 8 <= sh->size; off += 4) {
			uint64_t start = off;

			if (!aarch64_plt_slot(p + off, sh->addr + off, &slot))
				continue;
			if (off >= 4 && sf_get_uint(p + off - 4, 4, false) == 0xd503245fu)
				start = off - 4;
			if (prev != UINT64_MAX && (r = find_plt_reloc(rel, nrel, prev_slot)) &&
			    plt_add_name(pn, ef, r, sh->addr + prev, start - prev, idx))
				return -1;
			prev = start;
			prev_slot = slot;
		}
		if (prev != UINT64_MAX && (r = find_plt_reloc(rel, nrel, prev_slot)) &&
		    plt_add_name(pn, ef, r, sh->addr + prev, sh->size - prev, idx))
			return -1;
		return 0;
	}
	return 0;
}

/* Add a "name@plt" symbol for every PLT entry that has a name. */
static int add_plt_symbols(const struct elf_file *ef, const struct sec_range *secs,
			   struct sf_elf_info *info, char *err, size_t errlen)
{
	struct plt_names pn;
	struct elf_shdr strsh;
	struct plt_reloc *rel;
	struct sf_symbol *nsyms;
	size_t nrel, i;
	uint64_t k;
	int ret = -1;

	if (ef->L != &sf_elf64_layout || (ef->machine != EM_X86_64 && ef->machine != EM_AARCH64 &&
			  ef->machine != EM_S390) ||
	    ef->shstrndx == SHN_UNDEF || ef->shstrndx >= ef->shnum)
		return 0;
	get_shdr(ef, ef->shstrndx, &strsh);
	if (strsh.type == SHT_NOBITS || !in_bounds(strsh.offset, strsh.size, ef->size))
		return 0;
	memset(&pn, 0, sizeof(pn));
	rel = plt_relocs(ef, &nrel);
	if (!rel && nrel == 0) {
		/* No relocation to name entries after (or no memory to hold them). */
		return 0;
	}
	for (k = 1; k < ef->shnum; k++) {
		struct elf_shdr sh;

		get_shdr(ef, k, &sh);
		if (sh.type != SHT_PROGBITS || !(sh.flags & SHF_EXECINSTR) ||
		    sh.name >= strsh.size || secs[k].start == secs[k].end ||
		    !in_bounds(sh.offset, sh.size, ef->size) ||
		    !is_plt_section((const char *)ef->data + strsh.offset + sh.name,
				    strsh.size - sh.name))
			continue;
		if (plt_section(ef, k, &sh, rel, nrel, &pn))
			goto out;
	}
	if (pn.n) {
		nsyms = realloc(info->syms, (info->nsyms + pn.n) * sizeof(*nsyms));
		if (!nsyms)
			goto out;
		info->syms = nsyms;
		info->names = pn.pool;
		pn.pool = NULL;
		for (i = 0; i < pn.n; i++)
			add_symbol(info, &secs[pn.v[i].sec], pn.v[i].addr, pn.v[i].size,
				   RANK_PLT | i, info->names + pn.v[i].name);
	}
	ret = 0;
out:
	if (ret)
		sf_errf(err, errlen, "ELF", "out of memory");
	free(pn.pool);
	free(pn.v);
	free(rel);
	return ret;
}

/*
 * Sort by address, as a radix sort (8 bits a pass, only over the bits that
 * differ between addresses: a few passes, linear in the number of symbols,
 * where a comparison sort of a large executable's whole table would
 * dominate loading its symbols); then each run of aliases at one address by
 * cmp_sym(). Return -1 when out of memory (@info is then unchanged).
 */
static int cmp_sym_eu_stack(const void *a, const void *b)
{
	return cmp_sym(a, b, SF_NAMES_EU_STACK);
}

static int cmp_sym_perf(const void *a, const void *b)
{
	return cmp_sym(a, b, SF_NAMES_PERF);
}

static int sort_symbols(struct sf_elf_info *info, enum sf_names names)
{
	struct sf_symbol *src = info->syms, *dst, *tmp;
	uint64_t any = 0, all = UINT64_MAX, differ;
	size_t n = info->nsyms, i, j;
	unsigned shift;

	for (i = 0; i < n; i++) {
		any |= src[i].addr;
		all &= src[i].addr;
	}
	differ = any ^ all;
	dst = malloc((n ? n : 1) * sizeof(*dst));
	if (!dst)
		return -1;
	for (shift = 0; shift < 64; shift += 8) {
		size_t pos[256] = { 0 }, sum = 0;

		if (!((differ >> shift) & 0xff))
			continue;
		for (i = 0; i < n; i++)
			pos[(src[i].addr >> shift) & 0xff]++;
		for (i = 0; i < 256; i++) {
			size_t c = pos[i];

			pos[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[pos[(src[i].addr >> shift) & 0xff]++] = src[i];
		tmp = src;
		src = dst;
		dst = tmp;
	}
	free(dst);
	info->syms = src;
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && src[j].addr == src[i].addr; j++)
			;
		if (j - i > 1)
			qsort(src + i, j - i, sizeof(*src),
			      names == SF_NAMES_PERF ? cmp_sym_perf : cmp_sym_eu_stack);
	}
	return 0;
}

/*
 * Sort, then drop the symbols that can never be chosen: one without size
 * inside a sized one (a label within a function, which eu-stack does not
 * use there either), and one that ends no later than an alias at the same
 * address chosen before it (so ends rise along each address's symbols).
 */
static int finish_symbols(struct sf_elf_info *info, enum sf_names names)
{
	uint64_t covered = 0, group_end = 0;
	size_t i, n = 0;

	if (sort_symbols(info, names))
		return -1;
	for (i = 0; i < info->nsyms; i++) {
		const struct sf_symbol *s = &info->syms[i];
		bool alias = n && info->syms[n - 1].addr == s->addr;

		if (!s->size && s->addr < covered)
			continue;
		if (alias && s->end <= group_end)
			continue;
		group_end = s->end;
		if (s->size && s->end > covered)
			covered = s->end;
		info->syms[n++] = *s;
	}
	info->nsyms = n;
	return 0;
}

int sf_elf_info_load(const struct sf_input *in, struct sf_elf_info *info, char *err,
		     size_t errlen)
{
	return sf_elf_info_load_names(in, info, SF_NAMES_EU_STACK, err, errlen);
}

int sf_elf_info_load_names(const struct sf_input *in, struct sf_elf_info *info,
			   enum sf_names names, char *err, size_t errlen)
{
	struct sec_range *secs = NULL;
	struct elf_file ef;
	uint64_t i, symtab = UINT64_MAX, dynsym = UINT64_MAX;

	memset(info, 0, sizeof(*info));
	if (!sf_input_is_elf(in)) {
		sf_errf(err, errlen, "input", "not an ELF file");
		return -1;
	}
	memset(&ef, 0, sizeof(ef));
	ef.data = in->file;
	ef.size = in->file_size;
	if (parse_ehdr(&ef, "ELF", err, errlen))
		return -1;
	info->machine = ef.machine;

	if (ef.phnum && phdr_table_ok(&ef)) {
		for (i = 0; i < ef.phnum && info->ntext < SF_MAX_TEXT; i++) {
			struct sf_elf_segment ph;

			get_phdr(&ef, i, &ph);
			if (ph.type != PT_LOAD || !(ph.flags & PF_X) || ph.memsz == 0 ||
			    ph.vaddr > UINT64_MAX - ph.memsz)
				continue;
			info->text[info->ntext].start = ph.vaddr;
			info->text[info->ntext].end = ph.vaddr + ph.memsz;
			info->text[info->ntext].offset = ph.offset;
			info->ntext++;
		}
	}
	for (i = 0; i < ef.shnum; i++) {
		struct elf_shdr sh;

		get_shdr(&ef, i, &sh);
		if (sh.type == SHT_SYMTAB && symtab == UINT64_MAX)
			symtab = i;
		else if (sh.type == SHT_DYNSYM && dynsym == UINT64_MAX)
			dynsym = i;
	}
	info->has_symtab = symtab != UINT64_MAX;
	if (symtab == UINT64_MAX)
		symtab = dynsym;
	if (symtab == UINT64_MAX && ef.shnum == 0)
		return 0;
	secs = section_ranges(&ef);
	if (!secs) {
		sf_errf(err, errlen, "ELF", "out of memory");
		return -1;
	}
	if ((symtab != UINT64_MAX && load_symtab(&ef, symtab, secs, info, err, errlen)) ||
	    add_plt_symbols(&ef, secs, info, err, errlen)) {
		free(secs);
		sf_elf_info_free(info);
		return -1;
	}
	free(secs);
	if (info->syms && finish_symbols(info, names)) {
		sf_errf(err, errlen, "ELF", "out of memory");
		sf_elf_info_free(info);
		return -1;
	}
	return 0;
}

void sf_elf_info_free(struct sf_elf_info *info)
{
	free(info->syms);
	free(info->names);
	memset(info, 0, sizeof(*info));
}

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

uint16_t sf_elf_machine(const unsigned char *file, size_t size)
{
	struct elf_file ef;

	memset(&ef, 0, sizeof(ef));
	ef.data = file;
	ef.size = size;
	if (size < SELFMAG || memcmp(file, ELFMAG, SELFMAG) != 0 ||
	    parse_ehdr_fields(&ef, "", NULL, 0))
		return 0;
	return ef.machine;
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
	    parse_ehdr_fields(&ef, "", NULL, 0))
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
	if (parse_ehdr(&ef, "", NULL, 0))
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

int sf_elf_phdrs_read(const unsigned char *file, size_t size, struct sf_elf_phdrs *ph,
		      char *err, size_t errlen)
{
	struct elf_file ef;

	memset(ph, 0, sizeof(*ph));
	memset(&ef, 0, sizeof(ef));
	ef.data = file;
	ef.size = size;
	if (size < SELFMAG || memcmp(file, ELFMAG, SELFMAG) != 0) {
		snprintf(err, errlen, "not an ELF file");
		return -1;
	}
	if (parse_ehdr_fields(&ef, "ELF header", err, errlen))
		return -1;
	/* Only extended numbering (PN_XNUM) needs the section headers: section 0. */
	if (ef.phnum == PN_XNUM && parse_ehdr(&ef, "ELF header", err, errlen))
		return -1;
	if (ef.phoff == 0)
		ef.phnum = 0;
	if (ef.phnum && !phdr_table_ok(&ef)) {
		snprintf(err, errlen,
			 "program header table at offset 0x%" PRIx64 " (%" PRIu64 " entries of %"
			 PRIu64 " bytes) does not fit in the file (%zu bytes)",
			 ef.phoff, ef.phnum, ef.phentsize, size);
		return -1;
	}
	ph->be = ef.be;
	ph->is64 = ef.L == &sf_elf64_layout;
	ph->type = ef.type;
	ph->machine = ef.machine;
	ph->phoff = ef.phoff;
	ph->phnum = ef.phnum;
	ph->phentsize = ef.phentsize;
	return 0;
}

void sf_elf_segment_get(const unsigned char *file, const struct sf_elf_phdrs *ph, uint64_t idx,
			struct sf_elf_segment *seg)
{
	struct elf_file ef;

	memset(&ef, 0, sizeof(ef));
	ef.data = file;
	ef.L = ph->is64 ? &sf_elf64_layout : &sf_elf32_layout;
	ef.be = ph->be;
	ef.phoff = ph->phoff;
	ef.phentsize = ph->phentsize;
	get_phdr(&ef, idx, seg);
}

/*
 * The header as written: a program header table at offset 0 or a count of
 * PN_XNUM is taken as it stands here, unlike when looking for SFrame.
 */
bool sf_elf_load_bias(const unsigned char *file, size_t size, uint64_t map_start,
		      uint64_t map_offset, uint64_t *bias)
{
	uint64_t i, page = (uint64_t)sysconf(_SC_PAGESIZE);
	struct elf_file ef;
	struct sf_elf_segment ph;
	bool found = false;

	if (page == 0 || (page & (page - 1)))
		page = 4096;
	memset(&ef, 0, sizeof(ef));
	ef.data = file;
	ef.size = size;
	if (size < SELFMAG || memcmp(file, ELFMAG, SELFMAG) != 0 ||
	    parse_ehdr_fields(&ef, "", NULL, 0) || !phdr_table_ok(&ef))
		return false;
	for (i = 0; i < ef.phnum; i++) {
		get_phdr(&ef, i, &ph);
		if (ph.type != PT_LOAD)
			continue;
		/* The mapping starts in this segment's (page-rounded) file range. */
		if (map_offset < (ph.offset & ~(page - 1)) || ph.offset > UINT64_MAX - ph.filesz ||
		    map_offset >= ph.offset + ph.filesz)
			continue;
		*bias = map_start - ph.vaddr + ph.offset - map_offset;
		found = true;
		if (ph.flags & PF_X)
			break;	/* an executable segment for an executable mapping: best */
	}
	return found;
}

/*
 * Symbols are matched as eu-stack matches them: within their size and
 * their section. A symbol without a size (hand-written assembly, _init and
 * _fini of crti.o) names the addresses after it up to the next symbol, in
 * its own section only, and not inside a sized symbol. So a PC past the
 * last function of a file, or in another section, has no name (gdb does the
 * same, but for a label inside a sized function, which it names past that
 * function's end).
 */
const struct sf_symbol *sf_symbol_find(const struct sf_elf_info *info, uint64_t addr)
{
	size_t lo = 0, hi = info->nsyms, first;
	uint64_t at;

	/* The last symbol at or below @addr... */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (info->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	/* ...and the first one at its address. */
	at = info->syms[lo - 1].addr;
	hi = lo;
	lo = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (info->syms[mid].addr < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (first = lo; first < info->nsyms && info->syms[first].addr == at; first++)
		if (addr < info->syms[first].end)
			return &info->syms[first];
	return NULL;
}
