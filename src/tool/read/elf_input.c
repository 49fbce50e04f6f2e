/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * elf_input.c - load a file and find the SFrame section in it.
 *
 * The ELF reader proper: the file, its header, sections and segments. What
 * only some commands need is in the files beside it (relocations,
 * symbols, PLT entries, notes), over the insides of elf_file.h.
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
#include "read/elf_file.h"
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

/* ---- Messages ------------------------------------------------------------- */

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
#ifndef SF_INPUT_NO_MMAP
/* @fd mapped when it is a regular file with bytes: 1; 0 to read it instead; or SF_INPUT_EIO. */
static int map_file(int fd, const char *path, unsigned char **data, size_t *size, char *err,
		    size_t errlen)
{
	struct stat st;
	void *p;

	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
		return 0;
	if ((uintmax_t)st.st_size > SIZE_MAX) {
		sf_errf(err, errlen, path, "file too large");
		return SF_INPUT_EIO;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return 0;
	*data = p;
	*size = (size_t)st.st_size;
	return 1;
}
#endif

/* Every byte @fd gives, into an allocation of their size. */
static int read_all(int fd, const char *path, unsigned char **data, size_t *size, char *err,
		    size_t errlen)
{
	unsigned char *buf = NULL;
	size_t cap = 0, len = 0;

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
	return SF_INPUT_EIO;
}

static int read_file(const char *path, unsigned char **data, size_t *size, bool *mapped,
		     char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	*mapped = false;
	if (fd < 0) {
		sf_errf(err, errlen, path, "%s", strerror(errno));
		return SF_INPUT_EIO;
	}
#ifndef SF_INPUT_NO_MMAP
	ret = map_file(fd, path, data, size, err, errlen);
	if (ret) {
		close(fd);
		*mapped = ret == 1;
		return ret == 1 ? SF_INPUT_OK : ret;
	}
#endif
	ret = read_all(fd, path, data, size, err, errlen);
	close(fd);
	return ret;
}

/* ---- ELF header and tables ------------------------------------------------ */

/* The ELF header's own fields, as written (no extended numbering applied). */
int elf_parse_ehdr_fields(struct elf_file *ef, const char *path, char *err, size_t errlen)
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
int elf_parse_ehdr(struct elf_file *ef, const char *path, char *err, size_t errlen)
{
	uint64_t e_shnum, e_shstrndx, e_phnum;

	if (elf_parse_ehdr_fields(ef, path, err, errlen))
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

/* The bytes of a section with file contents, bounds-checked. */
int elf_section_bytes(const struct elf_file *ef, const struct elf_shdr *sh, const char *what,
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
	if (elf_section_bytes(ef, &strsh, "section name string table", &strtab, path, err, errlen))
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
	if (elf_parse_ehdr(&ef, path, err, errlen))
		return -1;
	in->is_rel = ef.type == ET_REL;
	if (find_sframe_section(&ef, &idx, path, err, errlen))
		return -1;
	if (idx != UINT64_MAX) {
		struct elf_shdr sh;
		const unsigned char *p;

		get_shdr(&ef, idx, &sh);
		if (elf_section_bytes(&ef, &sh, "section .sframe", &p, path, err, errlen))
			return -1;
		in->sec = in->file + sh.offset;
		in->sec_size = sh.size;
		in->vaddr = sh.addr;
		in->how = "section";
		if (in->is_rel)
			return elf_relocate_sframe(&ef, idx, in, path, err, errlen);
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
int elf_open_sections(struct elf_file *ef, const unsigned char *file, size_t size,
		      const char *path, char *err, size_t errlen)
{
	memset(ef, 0, sizeof(*ef));
	ef->data = file;
	ef->size = size;
	if (size < SELFMAG || memcmp(file, ELFMAG, SELFMAG) != 0) {
		sf_errf(err, errlen, path, "not an ELF file");
		return -1;
	}
	return elf_parse_ehdr(ef, path, err, errlen);
}

uint64_t sf_elf_num_sections(const unsigned char *file, size_t size)
{
	struct elf_file ef;

	return elf_open_sections(&ef, file, size, "", NULL, 0) ? 0 : ef.shnum;
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
	return elf_section_bytes(ef, &sh, what, &sec->data, path, err, errlen);
}

int sf_elf_section_find(const unsigned char *file, size_t size, const char *name,
			struct sf_elf_section *sec, const char *path, char *err, size_t errlen)
{
	struct elf_file ef;
	uint64_t idx;
	char what[80];

	memset(sec, 0, sizeof(*sec));
	if (elf_open_sections(&ef, file, size, path, err, errlen) ||
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
	if (elf_open_sections(&ef, file, size, path, err, errlen))
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
	if (elf_open_sections(&ef, file, size, path, err, errlen))
		return -1;
	if (idx >= ef.shnum) {
		sf_errf(err, errlen, path, "no section %" PRIu64 " (%" PRIu64 " section%s)", idx,
		        ef.shnum, ef.shnum == 1 ? "" : "s");
		return -1;
	}
	snprintf(what, sizeof(what), "section %" PRIu64, idx);
	return fill_section(&ef, idx, what, sec, path, err, errlen);
}

uint16_t sf_elf_machine(const unsigned char *file, size_t size)
{
	struct elf_file ef;

	memset(&ef, 0, sizeof(ef));
	ef.data = file;
	ef.size = size;
	if (size < SELFMAG || memcmp(file, ELFMAG, SELFMAG) != 0 ||
	    elf_parse_ehdr_fields(&ef, "", NULL, 0))
		return 0;
	return ef.machine;
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
	if (elf_parse_ehdr_fields(&ef, "ELF header", err, errlen))
		return -1;
	/* Only extended numbering (PN_XNUM) needs the section headers: section 0. */
	if (ef.phnum == PN_XNUM && elf_parse_ehdr(&ef, "ELF header", err, errlen))
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

void sf_elf_loads_init(struct sf_elf_loads *l)
{
	memset(l, 0, sizeof(*l));
	l->align = 4096;
}

int sf_elf_loads_add(struct sf_elf_loads *l, const struct sf_elf_segment *seg, uint64_t idx,
		     const char *path, char *err, size_t errlen)
{
	if (seg->vaddr > UINT64_MAX - seg->memsz) {
		sf_errf(err, errlen, path, "PT_LOAD segment %" PRIu64 " wraps around the end of "
		        "the address space", idx);
		return -1;
	}
	if (!l->any)
		l->first = *seg;
	l->any = true;
	l->last = idx;
	if (seg->vaddr + seg->memsz > l->end)
		l->end = seg->vaddr + seg->memsz;
	if (seg->align > l->align)
		l->align = seg->align;
	return 0;
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
	    elf_parse_ehdr_fields(&ef, "", NULL, 0) || !phdr_table_ok(&ef))
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

