/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_elf_input.c - sf_input_load() (src/tool/read/elf_input.c) on ELF images
 * built here in memory: ELF32 and ELF64, both byte orders; the .sframe
 * section, the PT_GNU_SFRAME segment, raw sections; the relocations of
 * relocatable objects (RELA and REL, x86_64, aarch64, s390); every error it
 * reports; and every truncation and many one-byte corruptions of valid
 * images (meant to run under ASan/UBSan). The images are written to
 * temporary files (mkstemp in $TMPDIR or /tmp) and removed again.
 *
 * Usage: test_elf_input [FIXTURES_DIR]
 * With FIXTURES_DIR, the real toolchain outputs there are loaded as well;
 * without it those tests are skipped.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/elf_input.h"

static const char *fixtures_dir;

/* ---- ELF numbers (gABI, psABIs), written out independently of the tool --- */

#define ET_REL			1
#define ET_EXEC			2
#define ET_DYN			3

#define EM_386			3
#define EM_S390			22
#define EM_X86_64		62
#define EM_AARCH64		183

#define SHT_PROGBITS		1
#define SHT_SYMTAB		2
#define SHT_STRTAB		3
#define SHT_RELA		4
#define SHT_NOTE		7
#define SHT_NOBITS		8
#define SHT_REL			9
#define SHT_GNU_SFRAME		0x6ffffff4u

#define SHF_ALLOC		0x2u
#define SHF_EXECINSTR		0x4u
#define SHF_INFO_LINK		0x40u
#define SHF_COMPRESSED		0x800u

#define PT_LOAD			1
#define PT_NOTE			4
#define PT_GNU_SFRAME		0x6474e554u

#define R_X86_64_NONE		0
#define R_X86_64_64		1
#define R_X86_64_PC32		2
#define R_X86_64_PC64		24
#define R_AARCH64_NONE		0
#define R_AARCH64_ABS64		257
#define R_AARCH64_PREL64	260
#define R_AARCH64_PREL32	261
#define R_390_NONE		0
#define R_390_64		22
#define R_390_PC32		5
#define R_390_PC64		23

/* SFrame header flag: FDE start addresses are relative to the field. */
#define SF_PCREL		0x4u

/* ---- Byte helpers ----------------------------------------------------------- */

static void put(unsigned char *p, unsigned w, bool be, uint64_t v)
{
	unsigned i;

	for (i = 0; i < w; i++)
		p[be ? w - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get(const unsigned char *p, unsigned w, bool be)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < w; i++)
		v |= (uint64_t)p[be ? w - 1 - i : i] << (8 * i);
	return v;
}

static int64_t sext(uint64_t v, unsigned w)
{
	if (w < 8 && (v >> (8 * w - 1)) & 1)
		v |= ~(uint64_t)0 << (8 * w);
	return (int64_t)v;
}

/* ---- A small SFrame section --------------------------------------------------- */

/*
 * 28-byte header, two FDEs right after it (fde_off 0), 12 bytes of FRE
 * area. FDE start fields are 0 (as gas leaves them under RELA); every other
 * byte after the header carries a position-dependent pattern so that a
 * stray write anywhere is seen.
 */
#define SF_FDE0		28u
#define SF_FRE_LEN	12u
#define SF_MAX		128u

static unsigned sf_fde_size(uint8_t version)
{
	return version == 3 ? 16 : version == 2 ? 20 : 17;
}

/* Offset of FDE 1's start field. v3: 44 (0x2c), v2: 48 (0x30), v1: 45. */
static unsigned sf_fde1(uint8_t version)
{
	return SF_FDE0 + sf_fde_size(version);
}

static unsigned sf_start_width(uint8_t version)
{
	return version == 3 ? 8 : 4;
}

static size_t make_sframe(unsigned char *out, bool be, uint8_t version, uint8_t flags)
{
	unsigned fde = sf_fde_size(version), w = sf_start_width(version);
	size_t len = SF_FDE0 + 2 * fde + SF_FRE_LEN, k;

	memset(out, 0, SF_MAX);
	put(out, 2, be, 0xdee2);		/* e2 de (LE) or de e2 (BE) */
	out[2] = version;
	out[3] = flags;
	out[4] = be ? 4 : 3;			/* s390x BE / amd64 LE */
	out[6] = be ? 0 : 0xf8;			/* fixed RA offset -8 on amd64 */
	put(out + 8, 4, be, 2);			/* num_fdes */
	put(out + 12, 4, be, 2);		/* num_fres */
	put(out + 16, 4, be, SF_FRE_LEN);	/* fre_len */
	put(out + 20, 4, be, 0);		/* fde_off */
	put(out + 24, 4, be, 2 * fde);		/* fre_off */
	for (k = SF_FDE0; k < len; k++)
		out[k] = (unsigned char)(k * 13 + 7);
	memset(out + SF_FDE0, 0, w);
	memset(out + sf_fde1(version), 0, w);
	return len;
}

/* ---- A small ELF writer ------------------------------------------------------- */

/* Position of a field in an ELF structure: ELF64 offset/width, ELF32 offset/width. */
struct fld {
	unsigned char o64, w64, o32, w32;
};

static const struct fld E_TYPE = { 16, 2, 16, 2 }, E_MACHINE = { 18, 2, 18, 2 },
	E_VERSION = { 20, 4, 20, 4 }, E_PHOFF = { 32, 8, 28, 4 }, E_SHOFF = { 40, 8, 32, 4 },
	E_EHSIZE = { 52, 2, 40, 2 }, E_PHENTSIZE = { 54, 2, 42, 2 }, E_PHNUM = { 56, 2, 44, 2 },
	E_SHENTSIZE = { 58, 2, 46, 2 }, E_SHNUM = { 60, 2, 48, 2 }, E_SHSTRNDX = { 62, 2, 50, 2 };
static const struct fld SH_NAME = { 0, 4, 0, 4 }, SH_TYPE = { 4, 4, 4, 4 },
	SH_FLAGS = { 8, 8, 8, 4 }, SH_ADDR = { 16, 8, 12, 4 }, SH_OFFSET = { 24, 8, 16, 4 },
	SH_SIZE = { 32, 8, 20, 4 }, SH_LINK = { 40, 4, 24, 4 }, SH_INFO = { 44, 4, 28, 4 },
	SH_ADDRALIGN = { 48, 8, 32, 4 }, SH_ENTSIZE = { 56, 8, 36, 4 };
static const struct fld P_TYPE = { 0, 4, 0, 4 }, P_FLAGS = { 4, 4, 24, 4 },
	P_OFFSET = { 8, 8, 4, 4 }, P_VADDR = { 16, 8, 8, 4 }, P_PADDR = { 24, 8, 12, 4 },
	P_FILESZ = { 32, 8, 16, 4 }, P_MEMSZ = { 40, 8, 20, 4 }, P_ALIGN = { 48, 8, 28, 4 };

#define MAX_SEC		10
#define MAX_PH		4
#define IMG_MAX		8192
#define SCRATCH		1024

struct sec_spec {
	const char *name;
	uint32_t type;
	uint64_t flags, addr;
	const void *data;
	size_t size;
	uint32_t lnk, info;
	uint64_t entsize;
};

struct ph_spec {
	uint32_t type;
	unsigned sec;		/* the section whose bytes it covers; 0: the whole file */
	uint64_t vaddr;
};

struct elf_img {
	/* What to write. */
	bool is64, be, no_shdrs;
	uint16_t type, machine;
	unsigned nsec;				/* sections 1..nsec; .shstrtab follows */
	struct sec_spec sec[MAX_SEC + 1];
	unsigned nph;
	struct ph_spec ph[MAX_PH];
	unsigned char scratch[4][SCRATCH];	/* storage for section contents */
	/* What was written. */
	unsigned char buf[IMG_MAX];
	size_t len, phoff, shoff;
	size_t data_off[MAX_SEC + 2];
	unsigned shnum, shstrndx;
};

static void img_init(struct elf_img *im, bool is64, bool be, uint16_t type, uint16_t machine)
{
	memset(im, 0, sizeof(*im));
	im->is64 = is64;
	im->be = be;
	im->type = type;
	im->machine = machine;
}

static unsigned img_add(struct elf_img *im, const char *name, uint32_t type, uint64_t flags,
			const void *data, size_t size)
{
	unsigned idx = ++im->nsec;

	assert_true(idx <= MAX_SEC);
	im->sec[idx].name = name;
	im->sec[idx].type = type;
	im->sec[idx].flags = flags;
	im->sec[idx].data = data;
	im->sec[idx].size = size;
	return idx;
}

static void img_add_ph(struct elf_img *im, uint32_t type, unsigned sec, uint64_t vaddr)
{
	assert_true(im->nph < MAX_PH);
	im->ph[im->nph].type = type;
	im->ph[im->nph].sec = sec;
	im->ph[im->nph].vaddr = vaddr;
	im->nph++;
}

/* Store @v in field @f of the structure at file offset @base. */
static void set(struct elf_img *im, size_t base, struct fld f, uint64_t v)
{
	unsigned off = im->is64 ? f.o64 : f.o32, w = im->is64 ? f.w64 : f.w32;

	assert_true(base + off + w <= IMG_MAX);
	put(im->buf + base + off, w, im->be, v);
}

static size_t shdr_at(const struct elf_img *im, unsigned idx)
{
	return im->shoff + (size_t)idx * (im->is64 ? 64 : 40);
}

static size_t phdr_at(const struct elf_img *im, unsigned idx)
{
	return im->phoff + (size_t)idx * (im->is64 ? 56 : 32);
}

static size_t align8(size_t v)
{
	return (v + 7) & ~(size_t)7;
}

/*
 * Layout: ELF header, program headers, section contents (8-aligned), then
 * .shstrtab and the section header table at the end (unless no_shdrs).
 */
static void img_build(struct elf_img *im)
{
	unsigned ehsize = im->is64 ? 64 : 52, phent = im->is64 ? 56 : 32;
	unsigned shent = im->is64 ? 64 : 40, i;
	size_t off = ehsize, nameoff[MAX_SEC + 2], slen = 1;
	char strtab[512];

	memset(im->buf, 0, sizeof(im->buf));
	im->phoff = 0;
	if (im->nph) {
		im->phoff = off;
		off += im->nph * phent;
	}
	for (i = 1; i <= im->nsec; i++) {
		off = align8(off);
		assert_true(off + im->sec[i].size <= IMG_MAX);
		im->data_off[i] = off;
		if (im->sec[i].size)
			memcpy(im->buf + off, im->sec[i].data, im->sec[i].size);
		off += im->sec[i].size;
	}
	im->shoff = 0;
	im->shnum = 0;
	im->shstrndx = 0;
	if (!im->no_shdrs) {
		strtab[0] = '\0';
		im->shstrndx = im->nsec + 1;
		im->sec[0].name = "";
		for (i = 1; i <= im->shstrndx; i++) {
			const char *name = i == im->shstrndx ? ".shstrtab" : im->sec[i].name;
			size_t n = strlen(name) + 1;

			assert_true(slen + n <= sizeof(strtab));
			nameoff[i] = slen;
			memcpy(strtab + slen, name, n);
			slen += n;
		}
		im->data_off[im->shstrndx] = off;
		assert_true(off + slen <= IMG_MAX);
		memcpy(im->buf + off, strtab, slen);
		off = align8(off + slen);
		im->shoff = off;
		im->shnum = im->shstrndx + 1;
		off += (size_t)im->shnum * shent;
		assert_true(off <= IMG_MAX);
		for (i = 1; i <= im->nsec; i++) {
			size_t sh = shdr_at(im, i);

			set(im, sh, SH_NAME, nameoff[i]);
			set(im, sh, SH_TYPE, im->sec[i].type);
			set(im, sh, SH_FLAGS, im->sec[i].flags);
			set(im, sh, SH_ADDR, im->sec[i].addr);
			set(im, sh, SH_OFFSET, im->data_off[i]);
			set(im, sh, SH_SIZE, im->sec[i].size);
			set(im, sh, SH_LINK, im->sec[i].lnk);
			set(im, sh, SH_INFO, im->sec[i].info);
			set(im, sh, SH_ADDRALIGN, 8);
			set(im, sh, SH_ENTSIZE, im->sec[i].entsize);
		}
		set(im, shdr_at(im, im->shstrndx), SH_NAME, nameoff[im->shstrndx]);
		set(im, shdr_at(im, im->shstrndx), SH_TYPE, SHT_STRTAB);
		set(im, shdr_at(im, im->shstrndx), SH_OFFSET, im->data_off[im->shstrndx]);
		set(im, shdr_at(im, im->shstrndx), SH_SIZE, slen);
		set(im, shdr_at(im, im->shstrndx), SH_ADDRALIGN, 1);
	}
	im->len = off;

	memcpy(im->buf, "\177ELF", 4);
	im->buf[4] = im->is64 ? 2 : 1;
	im->buf[5] = im->be ? 2 : 1;
	im->buf[6] = 1;				/* EV_CURRENT */
	set(im, 0, E_TYPE, im->type);
	set(im, 0, E_MACHINE, im->machine);
	set(im, 0, E_VERSION, 1);
	set(im, 0, E_PHOFF, im->phoff);
	set(im, 0, E_SHOFF, im->shoff);
	set(im, 0, E_EHSIZE, ehsize);
	set(im, 0, E_PHENTSIZE, im->nph ? phent : 0);
	set(im, 0, E_PHNUM, im->nph);
	set(im, 0, E_SHENTSIZE, im->no_shdrs ? 0 : shent);
	set(im, 0, E_SHNUM, im->shnum);
	set(im, 0, E_SHSTRNDX, im->shstrndx);
	for (i = 0; i < im->nph; i++) {
		size_t ph = phdr_at(im, i);
		unsigned s = im->ph[i].sec;
		uint64_t size = s ? im->sec[s].size : im->len;

		set(im, ph, P_TYPE, im->ph[i].type);
		set(im, ph, P_FLAGS, 4);	/* PF_R */
		set(im, ph, P_OFFSET, s ? im->data_off[s] : 0);
		set(im, ph, P_VADDR, im->ph[i].vaddr);
		set(im, ph, P_PADDR, im->ph[i].vaddr);
		set(im, ph, P_FILESZ, size);
		set(im, ph, P_MEMSZ, size);
		set(im, ph, P_ALIGN, s ? 8 : 0x1000);
	}
}

/* ---- Symbols and relocations ---------------------------------------------------- */

struct rel {
	uint64_t off;
	uint32_t sym, type;
	int64_t addend;		/* RELA only */
};

/* A symbol table: the null symbol, then one .text symbol per value. */
static size_t enc_syms(const struct elf_img *im, const uint64_t *val, unsigned n,
		       unsigned char *out)
{
	unsigned ent = im->is64 ? 24 : 16, i;

	assert_true((n + 1) * ent <= SCRATCH);
	memset(out, 0, (n + 1) * ent);
	for (i = 1; i <= n; i++) {
		unsigned char *s = out + i * ent;
		/* STT_SECTION (local) for value 0, else STT_FUNC (global). */
		unsigned char st_info = val[i - 1] ? 0x12 : 0x03;

		if (im->is64) {
			s[4] = st_info;
			put(s + 6, 2, im->be, 1);	/* st_shndx: .text */
			put(s + 8, 8, im->be, val[i - 1]);
		} else {
			put(s + 4, 4, im->be, val[i - 1]);
			s[12] = st_info;
			put(s + 14, 2, im->be, 1);
		}
	}
	return (n + 1) * ent;
}

static size_t enc_rels(const struct elf_img *im, bool rela, const struct rel *r, unsigned n,
		       unsigned char *out)
{
	unsigned w = im->is64 ? 8 : 4, ent = (rela ? 3 : 2) * w, i;

	assert_true(n * ent <= SCRATCH);
	for (i = 0; i < n; i++) {
		unsigned char *e = out + i * ent;
		uint64_t info = im->is64 ? ((uint64_t)r[i].sym << 32 | r[i].type)
					 : ((uint64_t)r[i].sym << 8 | (r[i].type & 0xffu));

		put(e, w, im->be, r[i].off);
		put(e + w, w, im->be, info);
		if (rela)
			put(e + 2 * w, w, im->be, (uint64_t)r[i].addend);
	}
	return n * ent;
}

/* Section indices of a relocatable object made by relobj_setup(). */
#define IDX_TEXT	1
#define IDX_SFRAME	2
#define IDX_SYMTAB	3
#define IDX_STRTAB	4
#define IDX_RELSF	5

/* Scratch slots. */
#define SC_SFRAME	0
#define SC_SYMS		1
#define SC_RELS		2
#define SC_MISC		3

static const unsigned char text_bytes[0x80] = { 0xc3 };
static const char strtab_bytes[] = "\0g\0h";

struct relobj {
	bool is64, be;
	uint16_t machine;
	uint8_t version, flags;	/* of the SFrame header */
	int sf_order;		/* 0: the ELF's byte order, 1: LE, 2: BE */
	const uint64_t *symval;	/* symbols 1..nsym, in .text */
	unsigned nsym;
	bool rela;
	const struct rel *rels;
	unsigned nrel;
};

/*
 * A relocatable object: [1] .text, [2] .sframe, [3] .symtab, [4] .strtab,
 * [5] .rela.sframe or .rel.sframe (when there are relocations). The
 * unrelocated .sframe bytes are im->scratch[SC_SFRAME]; they may still be
 * edited (REL addends) before img_build().
 */
static void relobj_setup(struct elf_img *im, const struct relobj *o)
{
	bool sf_be = o->sf_order ? o->sf_order == 2 : o->be;
	size_t n;
	unsigned i;

	img_init(im, o->is64, o->be, ET_REL, o->machine);
	i = img_add(im, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, text_bytes,
		    sizeof(text_bytes));
	assert_int_equal(i, IDX_TEXT);
	n = make_sframe(im->scratch[SC_SFRAME], sf_be, o->version, o->flags);
	i = img_add(im, ".sframe", SHT_GNU_SFRAME, SHF_ALLOC, im->scratch[SC_SFRAME], n);
	assert_int_equal(i, IDX_SFRAME);
	n = enc_syms(im, o->symval, o->nsym, im->scratch[SC_SYMS]);
	i = img_add(im, ".symtab", SHT_SYMTAB, 0, im->scratch[SC_SYMS], n);
	assert_int_equal(i, IDX_SYMTAB);
	im->sec[i].lnk = IDX_STRTAB;
	im->sec[i].info = 1;
	im->sec[i].entsize = o->is64 ? 24 : 16;
	i = img_add(im, ".strtab", SHT_STRTAB, 0, strtab_bytes, sizeof(strtab_bytes));
	assert_int_equal(i, IDX_STRTAB);
	if (o->nrel) {
		n = enc_rels(im, o->rela, o->rels, o->nrel, im->scratch[SC_RELS]);
		i = img_add(im, o->rela ? ".rela.sframe" : ".rel.sframe",
			    o->rela ? SHT_RELA : SHT_REL, SHF_INFO_LINK, im->scratch[SC_RELS], n);
		assert_int_equal(i, IDX_RELSF);
		im->sec[i].lnk = IDX_SYMTAB;
		im->sec[i].info = IDX_SFRAME;
		im->sec[i].entsize = (o->rela ? 3 : 2) * (o->is64 ? 8 : 4);
	}
}

/* ---- Loading through a temporary file ------------------------------------------ */

/* Temporary files still present; removed by rm_tmp(), or by cleanup() after a failure. */
static char live[4][PATH_MAX];

static void tmp_path(char *path, size_t len)
{
	const char *dir = getenv("TMPDIR");
	unsigned i;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	assert_true((size_t)snprintf(path, len, "%s/test_elf_input.XXXXXX", dir) < len);
	fd = mkstemp(path);
	if (fd < 0)
		fail_msg("mkstemp(%s) failed", path);
	close(fd);
	for (i = 0; i < 4; i++) {
		if (!live[i][0]) {
			assert_true(strlen(path) < sizeof(live[i]));
			strcpy(live[i], path);
			return;
		}
	}
	fail_msg("too many temporary files");
}

static void rm_tmp(const char *path)
{
	unsigned i;

	unlink(path);
	for (i = 0; i < 4; i++)
		if (strcmp(live[i], path) == 0)
			live[i][0] = '\0';
}

/* Teardown of every test: remove what a failed test left behind. */
static int cleanup(void **state)
{
	unsigned i;

	(void)state;
	for (i = 0; i < 4; i++) {
		if (live[i][0]) {
			unlink(live[i]);
			live[i][0] = '\0';
		}
	}
	return 0;
}

static void put_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	if (len)
		assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* The contract of sf_input_load() whatever the input: checked after every call. */
static void check_contract(const char *path, int ret, const struct sf_input *in, const char *err)
{
	if (ret == SF_INPUT_OK) {
		assert_string_equal(err, "");
		assert_non_null(in->file);
		assert_non_null(in->how);
		assert_non_null(in->sec);
		if (in->owned_copy) {
			assert_ptr_equal(in->sec, in->owned_copy);
			assert_true(in->is_rel);
		} else {
			/* Inside the file. */
			assert_true(in->sec >= in->file);
			assert_true((size_t)(in->sec - in->file) <= in->file_size);
			assert_true(in->sec_size <= in->file_size - (size_t)(in->sec - in->file));
		}
	} else {
		if (ret != SF_INPUT_EFORMAT && ret != SF_INPUT_EIO)
			fail_msg("unexpected return value %d", ret);
		if (err[0] == '\0' || strncmp(err, path, strlen(path)) != 0)
			fail_msg("bad error message \"%s\" for %s", err, path);
		assert_null(in->file);
		assert_null(in->sec);
		assert_null(in->owned_copy);
		assert_null(in->how);
		assert_int_equal(in->file_size, 0);
		assert_int_equal(in->sec_size, 0);
		assert_int_equal(in->vaddr, 0);
		assert_int_equal(in->is_rel, 0);
	}
}

/* Write @data to a fresh temporary file, load it, remove the file. */
static int load_bytes(const void *data, size_t len, int have_vaddr, uint64_t vaddr,
		      struct sf_input *in, char *err, size_t errlen)
{
	char path[PATH_MAX];
	int ret;

	tmp_path(path, sizeof(path));
	put_file(path, data, len);
	ret = sf_input_load(path, have_vaddr, vaddr, in, err, errlen);
	rm_tmp(path);
	check_contract(path, ret, in, err);
	return ret;
}

static int load_img(const struct elf_img *im, struct sf_input *in, char *err, size_t errlen)
{
	return load_bytes(im->buf, im->len, 0, 0, in, err, errlen);
}

/* The name of the table row being run, for the failure messages; NULL outside tables. */
static const char *row;

/* The load must fail with SF_INPUT_EFORMAT and a message containing @needle. */
static void expect_error(const void *data, size_t len, const char *needle)
{
	struct sf_input in;
	char err[512];
	int ret = load_bytes(data, len, 0, 0, &in, err, sizeof(err));

	if (ret != SF_INPUT_EFORMAT)
		fail_msg("%s: expected SF_INPUT_EFORMAT (\"%s\"), got %d", row ? row : "",
			 needle ? needle : "", ret);
	if (needle && !strstr(err, needle))
		fail_msg("%s: error \"%s\" does not mention \"%s\"", row ? row : "", err, needle);
}

static void expect_img_error(const struct elf_img *im, const char *needle)
{
	expect_error(im->buf, im->len, needle);
}

/* Load @im, which must succeed, finding .sframe bytes equal to @want. */
static void expect_img_ok(const struct elf_img *im, struct sf_input *in, const void *want,
			  size_t want_len)
{
	char err[512];
	int ret = load_img(im, in, err, sizeof(err));

	if (ret != SF_INPUT_OK)
		fail_msg("load failed: %s", err);
	assert_int_equal(in->file_size, im->len);
	assert_memory_equal(in->file, im->buf, im->len);
	assert_int_equal(in->sec_size, want_len);
	if (want_len)
		assert_memory_equal(in->sec, want, want_len);
}

/* ---- Sections ------------------------------------------------------------------- */

/* An executable with .text and .sframe (at @addr) in the given class and order. */
static void exec_with_sframe(struct elf_img *im, bool is64, bool be, uint32_t shtype,
			     uint64_t addr)
{
	size_t n;
	unsigned i;

	img_init(im, is64, be, ET_EXEC, be ? EM_S390 : EM_X86_64);
	img_add(im, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, text_bytes, 16);
	n = make_sframe(im->scratch[SC_SFRAME], be, 3, SF_PCREL | 1);
	i = img_add(im, ".sframe", shtype, SHF_ALLOC, im->scratch[SC_SFRAME], n);
	im->sec[i].addr = addr;
}

static void check_section(bool is64, bool be)
{
	struct elf_img im;
	struct sf_input in;
	uint64_t addr = is64 ? 0x40123400ull : 0x8049000ull;

	exec_with_sframe(&im, is64, be, SHT_PROGBITS, addr);
	img_build(&im);
	expect_img_ok(&im, &in, im.scratch[SC_SFRAME], im.sec[2].size);
	assert_string_equal(in.how, "section");
	assert_int_equal(in.vaddr, addr);
	assert_false(in.is_rel);
	assert_null(in.owned_copy);
	/* Straight from the file, no copy. */
	assert_ptr_equal(in.sec, in.file + im.data_off[2]);
	sf_input_free(&in);
	assert_null(in.file);
}
/*
 * ELF64 and ELF32, LSB and MSB: .sframe found by name, bytes/size from
 * sh_offset/sh_size, vaddr = sh_addr, every header field decoded in the
 * file's class and byte order.
 */
static void test_section_classes(void **state)
{
	unsigned k;

	(void)state;
	for (k = 0; k < 4; k++)
		check_section(k & 2, k & 1);
}

/* SHT_GNU_SFRAME (0x6ffffff4) is accepted as well as PROGBITS, in a shared object. */
static void test_section_gnu_sframe_type(void **state)
{
	struct elf_img im;
	struct sf_input in;

	(void)state;
	exec_with_sframe(&im, true, false, SHT_GNU_SFRAME, 0x2c3a8);
	im.type = ET_DYN;
	img_build(&im);
	expect_img_ok(&im, &in, im.scratch[SC_SFRAME], im.sec[2].size);
	assert_string_equal(in.how, "section");
	assert_int_equal(in.vaddr, 0x2c3a8);
	sf_input_free(&in);
}

/* Only the exact name ".sframe" matches: ".sframe.x" and ".sframex" before it are skipped. */
static void test_section_exact_name(void **state)
{
	static const unsigned char decoy[8] = { 0xe2, 0xde, 9, 9, 9, 9, 9, 9 };
	struct elf_img im;
	struct sf_input in;
	size_t n;
	unsigned i;

	(void)state;
	img_init(&im, true, true, ET_EXEC, EM_S390);
	i = img_add(&im, ".sframe.x", SHT_PROGBITS, SHF_ALLOC, decoy, sizeof(decoy));
	im.sec[i].addr = 0x1000;
	i = img_add(&im, ".sframex", SHT_PROGBITS, SHF_ALLOC, decoy, sizeof(decoy));
	im.sec[i].addr = 0x2000;
	n = make_sframe(im.scratch[SC_SFRAME], true, 2, 0);
	i = img_add(&im, ".sframe", SHT_PROGBITS, SHF_ALLOC, im.scratch[SC_SFRAME], n);
	im.sec[i].addr = 0x3000;
	img_build(&im);
	expect_img_ok(&im, &in, im.scratch[SC_SFRAME], n);
	assert_int_equal(in.vaddr, 0x3000);
	assert_ptr_equal(in.sec, in.file + im.data_off[3]);
	sf_input_free(&in);
}

/* --vaddr overrides sh_addr (and an override of 0 is honoured too). */
static void test_section_vaddr_override(void **state)
{
	struct elf_img im;
	struct sf_input in;
	char err[256];

	(void)state;
	exec_with_sframe(&im, false, true, SHT_PROGBITS, 0x8049000);
	img_build(&im);
	assert_int_equal(load_bytes(im.buf, im.len, 1, 0xffffffff12345678ull, &in, err,
				    sizeof(err)), SF_INPUT_OK);
	assert_int_equal(in.vaddr, 0xffffffff12345678ull);
	assert_string_equal(in.how, "section");
	sf_input_free(&in);
	assert_int_equal(load_bytes(im.buf, im.len, 1, 0, &in, err, sizeof(err)), SF_INPUT_OK);
	assert_int_equal(in.vaddr, 0);
	sf_input_free(&in);
}

/* A .sframe section wins over a PT_GNU_SFRAME segment pointing at other bytes. */
static void test_section_preferred_over_segment(void **state)
{
	static const unsigned char other[4] = { 0xe2, 0xde, 3, 0 };
	struct elf_img im;
	struct sf_input in;
	unsigned o;

	(void)state;
	exec_with_sframe(&im, true, false, SHT_PROGBITS, 0x5000);
	o = img_add(&im, ".other", SHT_PROGBITS, SHF_ALLOC, other, sizeof(other));
	img_add_ph(&im, PT_GNU_SFRAME, o, 0x9000);
	img_build(&im);
	expect_img_ok(&im, &in, im.scratch[SC_SFRAME], im.sec[2].size);
	assert_string_equal(in.how, "section");
	assert_int_equal(in.vaddr, 0x5000);
	sf_input_free(&in);
}

/* Extended numbering: e_shnum 0 and e_shstrndx SHN_XINDEX take section 0's sh_size/sh_link. */
static void test_section_extended_numbering(void **state)
{
	struct elf_img im;
	struct sf_input in;

	(void)state;
	exec_with_sframe(&im, true, true, SHT_PROGBITS, 0x7000);
	img_build(&im);
	set(&im, 0, E_SHNUM, 0);
	set(&im, 0, E_SHSTRNDX, 0xffff);
	set(&im, shdr_at(&im, 0), SH_SIZE, im.shnum);
	set(&im, shdr_at(&im, 0), SH_LINK, im.shstrndx);
	expect_img_ok(&im, &in, im.scratch[SC_SFRAME], im.sec[2].size);
	assert_int_equal(in.vaddr, 0x7000);
	sf_input_free(&in);
}

/* ---- Segments -------------------------------------------------------------------- */

static void check_segment(bool is64, bool be)
{
	struct elf_img im;
	struct sf_input in;
	uint64_t vaddr = is64 ? 0x4000a8ull : 0x80480a8ull;
	size_t n;
	unsigned s;

	img_init(&im, is64, be, ET_EXEC, be ? EM_S390 : EM_X86_64);
	im.no_shdrs = true;
	img_add(&im, "", SHT_PROGBITS, 0, text_bytes, 16);
	n = make_sframe(im.scratch[SC_SFRAME], be, 2, SF_PCREL);
	s = img_add(&im, "", SHT_PROGBITS, 0, im.scratch[SC_SFRAME], n);
	img_add_ph(&im, PT_LOAD, 0, vaddr & ~0xfffull);
	img_add_ph(&im, PT_NOTE, 1, 0x1234);
	img_add_ph(&im, PT_GNU_SFRAME, s, vaddr);
	img_build(&im);
	assert_int_equal(im.shoff, 0);
	expect_img_ok(&im, &in, im.scratch[SC_SFRAME], n);
	assert_string_equal(in.how, "segment");
	assert_int_equal(in.vaddr, vaddr);
	assert_false(in.is_rel);
	assert_null(in.owned_copy);
	assert_ptr_equal(in.sec, in.file + im.data_off[s]);
	sf_input_free(&in);
}
/*
 * ELF64 and ELF32, LSB and MSB, without section headers: PT_GNU_SFRAME's
 * p_offset/p_filesz, vaddr = p_vaddr, in the file's class and byte order.
 */
static void test_segment_classes(void **state)
{
	unsigned k;

	(void)state;
	for (k = 0; k < 4; k++)
		check_segment(k & 2, k & 1);
}

/* --vaddr overrides p_vaddr. */
static void test_segment_vaddr_override(void **state)
{
	struct elf_img im;
	struct sf_input in;
	char err[256];
	size_t n;
	unsigned s;

	(void)state;
	img_init(&im, false, false, ET_DYN, EM_X86_64);
	im.no_shdrs = true;
	n = make_sframe(im.scratch[SC_SFRAME], false, 3, SF_PCREL);
	s = img_add(&im, "", SHT_PROGBITS, 0, im.scratch[SC_SFRAME], n);
	img_add_ph(&im, PT_GNU_SFRAME, s, 0x2000);
	img_build(&im);
	assert_int_equal(load_bytes(im.buf, im.len, 1, 0xabc0, &in, err, sizeof(err)),
			 SF_INPUT_OK);
	assert_string_equal(in.how, "segment");
	assert_int_equal(in.vaddr, 0xabc0);
	assert_int_equal(in.sec_size, n);
	sf_input_free(&in);
}

/* With section headers but no .sframe section, the PT_GNU_SFRAME segment is used. */
static void test_segment_fallback_with_sections(void **state)
{
	struct elf_img im;
	struct sf_input in;
	size_t n;
	unsigned s;

	(void)state;
	img_init(&im, true, false, ET_DYN, EM_X86_64);
	img_add(&im, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, text_bytes, 16);
	n = make_sframe(im.scratch[SC_SFRAME], false, 3, SF_PCREL);
	s = img_add(&im, ".eh_frame", SHT_PROGBITS, SHF_ALLOC, im.scratch[SC_SFRAME], n);
	img_add_ph(&im, PT_GNU_SFRAME, s, 0x3330);
	img_build(&im);
	expect_img_ok(&im, &in, im.scratch[SC_SFRAME], n);
	assert_string_equal(in.how, "segment");
	assert_int_equal(in.vaddr, 0x3330);
	sf_input_free(&in);
}

/* e_phnum PN_XNUM (0xffff) takes the program header count from section 0's sh_info. */
static void test_segment_extended_phnum(void **state)
{
	struct elf_img im;
	struct sf_input in;
	size_t n;
	unsigned s;

	(void)state;
	img_init(&im, false, true, ET_EXEC, EM_S390);
	n = make_sframe(im.scratch[SC_SFRAME], true, 2, 0);
	s = img_add(&im, ".data", SHT_PROGBITS, SHF_ALLOC, im.scratch[SC_SFRAME], n);
	img_add_ph(&im, PT_GNU_SFRAME, s, 0x10000);
	img_build(&im);
	set(&im, 0, E_PHNUM, 0xffff);
	set(&im, shdr_at(&im, 0), SH_INFO, 1);
	expect_img_ok(&im, &in, im.scratch[SC_SFRAME], n);
	assert_string_equal(in.how, "segment");
	assert_int_equal(in.vaddr, 0x10000);
	sf_input_free(&in);
}

/* ---- Raw sections ---------------------------------------------------------------- */

/* A raw little-endian section (e2 de) is the whole file: how "raw", vaddr 0. */
static void test_raw_le(void **state)
{
	unsigned char sf[SF_MAX];
	struct sf_input in;
	char err[256];
	size_t n;

	(void)state;
	n = make_sframe(sf, false, 3, SF_PCREL);
	assert_int_equal(load_bytes(sf, n, 0, 0, &in, err, sizeof(err)), SF_INPUT_OK);
	assert_string_equal(in.how, "raw");
	assert_int_equal(in.vaddr, 0);
	assert_int_equal(in.sec_size, n);
	assert_ptr_equal(in.sec, in.file);
	assert_memory_equal(in.sec, sf, n);
	assert_false(in.is_rel);
	sf_input_free(&in);
}

/* A raw big-endian section (de e2) is recognised, and --vaddr applies to it. */
static void test_raw_be_vaddr_override(void **state)
{
	unsigned char sf[SF_MAX];
	struct sf_input in;
	char err[256];
	size_t n;

	(void)state;
	n = make_sframe(sf, true, 2, 0);
	assert_int_equal(sf[0], 0xde);
	assert_int_equal(load_bytes(sf, n, 1, 0x1000, &in, err, sizeof(err)), SF_INPUT_OK);
	assert_string_equal(in.how, "raw");
	assert_int_equal(in.vaddr, 0x1000);
	assert_memory_equal(in.sec, sf, n);
	sf_input_free(&in);
	/* Just the two magic bytes are enough to be taken as a (raw) section. */
	assert_int_equal(load_bytes(sf, 2, 0, 0, &in, err, sizeof(err)), SF_INPUT_OK);
	assert_int_equal(in.sec_size, 2);
	sf_input_free(&in);
}

/* ---- Relocations ------------------------------------------------------------------ */

struct want {
	unsigned off, width;
	uint64_t v;
};

/*
 * Load the relocatable object @im and check the relocated copy: the fields
 * in @w hold exactly their values (in byte order @sf_be), every other byte
 * is the unrelocated one, and the file itself is untouched.
 */
static void expect_relocated(const struct elf_img *im, bool sf_be, const struct want *w,
			     unsigned nw)
{
	const unsigned char *orig = im->scratch[SC_SFRAME];
	size_t len = im->sec[IDX_SFRAME].size, k;
	struct sf_input in;
	char err[512];
	unsigned i;

	if (load_img(im, &in, err, sizeof(err)) != SF_INPUT_OK)
		fail_msg("%s: load failed: %s", row ? row : "", err);
	assert_true(in.is_rel);
	assert_string_equal(in.how, "section");
	assert_int_equal(in.vaddr, 0);
	assert_int_equal(in.sec_size, len);
	assert_non_null(in.owned_copy);
	assert_ptr_equal(in.sec, in.owned_copy);
	/* The file image keeps the unrelocated bytes. */
	assert_memory_equal(in.file + im->data_off[IDX_SFRAME], orig, len);
	for (i = 0; i < nw; i++) {
		uint64_t got = get(in.sec + w[i].off, w[i].width, sf_be);

		if (got != w[i].v)
			fail_msg("%s: field at 0x%x: got 0x%" PRIx64 ", want 0x%" PRIx64,
				 row ? row : "", w[i].off, got, w[i].v);
	}
	for (k = 0; k < len; k++) {
		bool in_field = false;

		for (i = 0; i < nw; i++)
			if (k >= w[i].off && k < w[i].off + w[i].width)
				in_field = true;
		if (!in_field && in.sec[k] != orig[k])
			fail_msg("%s: byte 0x%zx changed: 0x%02x -> 0x%02x", row ? row : "", k,
				 orig[k], in.sec[k]);
	}
	sf_input_free(&in);
}
/*
 * Symbol values (symbols 1.., all in .text at address 0) and relocations of
 * a relocatable object made by relobj_setup(), as compound literals.
 */
#define SYMS(...)	.symval = (const uint64_t[]){ __VA_ARGS__ }, \
			.nsym = sizeof((const uint64_t[]){ __VA_ARGS__ }) / sizeof(uint64_t)
#define RELS(...)	.rels = (const struct rel[]){ __VA_ARGS__ }, \
			.nrel = sizeof((const struct rel[]){ __VA_ARGS__ }) / sizeof(struct rel)

/*
 * One relocatable object per row: @pre are the implicit addends stored in
 * the section before the build (REL), @w the relocated fields. The value
 * stored is S + A - P under the PCREL flag, else S + A (see elf_input.c);
 * each row's arithmetic is written out next to it. FDE 1's start field is
 * at 0x2c in v3, 0x30 in v2 and 0x2d in v1 (17-byte FDEs).
 */
static const struct reloc_case {
	const char *name;
	struct relobj o;
	struct want pre[2];
	struct want w[2];
} reloc_cases[] = {
	/* FDE 0 (P = 0x1c): 0 + 0x10 - 0x1c = -0xc. FDE 1 (P = 0x2c): 0x30 + 0 - 0x2c = 0x4. */
	{ "x86_64 ELF64 LE, RELA R_X86_64_PC64, v3 PCREL: S + A - P in 64-bit fields",
	  { true, false, EM_X86_64, 3, SF_PCREL, 0, SYMS(0, 0x30), true,
	    RELS({ 0x1c, 1, R_X86_64_PC64, 0x10 }, { 0x2c, 2, R_X86_64_PC64, 0 }) },
	  { { 0 } }, { { 0x1c, 8, 0xfffffffffffffff4ull }, { 0x2c, 8, 0x4 } } },
	/* FDE 0: 0 + 0x10 = 0x10. FDE 1: 0x30 + 5 = 0x35. P is not subtracted. */
	{ "x86_64 ELF64 LE, RELA R_X86_64_PC32, v2 without PCREL: S + A in 32-bit fields",
	  { true, false, EM_X86_64, 2, 0, 0, SYMS(0, 0x30), true,
	    RELS({ 0x1c, 1, R_X86_64_PC32, 0x10 }, { 0x30, 2, R_X86_64_PC32, 5 }) },
	  { { 0 } }, { { 0x1c, 4, 0x10 }, { 0x30, 4, 0x35 } } },
	/* FDE 0: 0x30 + 8 - 0x1c = 0x1c. FDE 1: 0 + 0 - 0x30 = -0x30 = 0xffffffd0. */
	{ "x86_64 ELF64 LE, RELA PC32 with the v2 PCREL flag: S + A - P in 32-bit fields",
	  { true, false, EM_X86_64, 2, SF_PCREL, 0, SYMS(0, 0x30), true,
	    RELS({ 0x1c, 2, R_X86_64_PC32, 0x8 }, { 0x30, 1, R_X86_64_PC32, 0 }) },
	  { { 0 } }, { { 0x1c, 4, 0x1c }, { 0x30, 4, 0xffffffd0 } } },
	/* FDE 0: 0x123456789 - 9 = 0x123456780. FDE 1: 0 - 1 = 0xffffffffffffffff. */
	{ "x86_64 ELF64 LE, RELA PC64, v3 without PCREL: S + A in 64-bit fields",
	  { true, false, EM_X86_64, 3, 0, 0, SYMS(0, 0x123456789ull), true,
	    RELS({ 0x1c, 2, R_X86_64_PC64, -9 }, { 0x2c, 1, R_X86_64_PC64, -1 }) },
	  { { 0 } }, { { 0x1c, 8, 0x123456780ull }, { 0x2c, 8, 0xffffffffffffffffull } } },
	/* FDE 0: 0 + 0x40 - 0x1c = 0x24. FDE 1: 0x40 + 0x1000 - 0x2c = 0x1014. */
	{ "aarch64 ELF64 BE, RELA R_AARCH64_PREL64, v3 PCREL: written big endian",
	  { true, true, EM_AARCH64, 3, SF_PCREL, 0, SYMS(0, 0x40), true,
	    RELS({ 0x1c, 1, R_AARCH64_PREL64, 0x40 }, { 0x2c, 2, R_AARCH64_PREL64, 0x1000 }) },
	  { { 0 } }, { { 0x1c, 8, 0x24 }, { 0x2c, 8, 0x1014 } } },
	/* FDE 0: 0x1c + 0 - 0x1c = 0. FDE 1: 0 + 4 - 0x30 = -0x2c = 0xffffffd4. */
	{ "aarch64 ELF64 LE, RELA R_AARCH64_PREL32, v2 PCREL: S + A - P",
	  { true, false, EM_AARCH64, 2, SF_PCREL, 0, SYMS(0, 0x1c), true,
	    RELS({ 0x1c, 2, R_AARCH64_PREL32, 0 }, { 0x30, 1, R_AARCH64_PREL32, 0x4 }) },
	  { { 0 } }, { { 0x1c, 4, 0 }, { 0x30, 4, 0xffffffd4 } } },
	/* FDE 1 start at 0x2d: 0 + 0x1c + 0x20 = 0x3c, 0x1c - 4 = 0x18. */
	{ "aarch64 ELF64 LE, RELA R_AARCH64_PREL32, v1 without PCREL: S + A",
	  { true, false, EM_AARCH64, 1, 0, 0, SYMS(0, 0x1c), true,
	    RELS({ 0x1c, 1, R_AARCH64_PREL32, 0x1c + 0x20 }, { 0x2d, 2, R_AARCH64_PREL32, -4 }) },
	  { { 0 } }, { { 0x1c, 4, 0x3c }, { 0x2d, 4, 0x18 } } },
	/* 0x30 + 8 - 0x1c = 0x1c; 0 + 0x100 - 0x2c = 0xd4. */
	{ "s390x ELF64 BE, RELA R_390_PC64, v3 PCREL: S + A - P",
	  { true, true, EM_S390, 3, SF_PCREL, 0, SYMS(0, 0x30), true,
	    RELS({ 0x1c, 2, R_390_PC64, 0x8 }, { 0x2c, 1, R_390_PC64, 0x100 }) },
	  { { 0 } }, { { 0x1c, 8, 0x1c }, { 0x2c, 8, 0xd4 } } },
	/* 0x30 + 8 = 0x38; 0 + 0x100 = 0x100. */
	{ "s390x ELF64 BE, RELA R_390_PC64, v3 without PCREL: S + A",
	  { true, true, EM_S390, 3, 0, 0, SYMS(0, 0x30), true,
	    RELS({ 0x1c, 2, R_390_PC64, 0x8 }, { 0x2c, 1, R_390_PC64, 0x100 }) },
	  { { 0 } }, { { 0x1c, 8, 0x38 }, { 0x2c, 8, 0x100 } } },
	/* The addend -0x10 is stored as 0xfffffff0. 0x30 - 0x10 = 0x20; 0 + 4 = 0x4. */
	{ "s390 ELF32 BE, RELA R_390_PC32, 32-bit sign-extended addend, without PCREL",
	  { false, true, EM_S390, 2, 0, 0, SYMS(0, 0x30), true,
	    RELS({ 0x1c, 2, R_390_PC32, -0x10 }, { 0x30, 1, R_390_PC32, 0x4 }) },
	  { { 0 } }, { { 0x1c, 4, 0x20 }, { 0x30, 4, 0x4 } } },
	/* 0x30 - 0x10 - 0x1c = 0x4; 0 + 4 - 0x30 = -0x2c = 0xffffffd4. */
	{ "s390 ELF32 BE, RELA R_390_PC32, 32-bit sign-extended addend, PCREL",
	  { false, true, EM_S390, 2, SF_PCREL, 0, SYMS(0, 0x30), true,
	    RELS({ 0x1c, 2, R_390_PC32, -0x10 }, { 0x30, 1, R_390_PC32, 0x4 }) },
	  { { 0 } }, { { 0x1c, 4, 0x4 }, { 0x30, 4, 0xffffffd4 } } },
	/* A: -4 at 0x1c, 0x10 at 0x30. 0x100 - 4 - 0x1c = 0xe0; 0 + 0x10 - 0x30 = 0xffffffe0. */
	{ "x32 ELF32 LE, REL R_X86_64_PC32: the implicit addend from the field, PCREL",
	  { false, false, EM_X86_64, 2, SF_PCREL, 0, SYMS(0, 0x100), false,
	    RELS({ 0x1c, 2, R_X86_64_PC32, 0 }, { 0x30, 1, R_X86_64_PC32, 0 }) },
	  { { 0x1c, 4, 0xfffffffc }, { 0x30, 4, 0x10 } },
	  { { 0x1c, 4, 0xe0 }, { 0x30, 4, 0xffffffe0 } } },
	/* 0x100 - 4 = 0xfc; 0 + 0x10 = 0x10. */
	{ "x32 ELF32 LE, REL R_X86_64_PC32: the implicit addend from the field, plain",
	  { false, false, EM_X86_64, 2, 0, 0, SYMS(0, 0x100), false,
	    RELS({ 0x1c, 2, R_X86_64_PC32, 0 }, { 0x30, 1, R_X86_64_PC32, 0 }) },
	  { { 0x1c, 4, 0xfffffffc }, { 0x30, 4, 0x10 } },
	  { { 0x1c, 4, 0xfc }, { 0x30, 4, 0x10 } } },
	/* A: -8 at 0x1c, 7 at 0x2c. 0x40 - 8 = 0x38; 0 + 7 = 0x7. */
	{ "x86_64 ELF64 LE, REL R_X86_64_PC64: 64-bit implicit addends, plain",
	  { true, false, EM_X86_64, 3, 0, 0, SYMS(0, 0x40), false,
	    RELS({ 0x1c, 2, R_X86_64_PC64, 0 }, { 0x2c, 1, R_X86_64_PC64, 0 }) },
	  { { 0x1c, 8, 0xfffffffffffffff8ull }, { 0x2c, 8, 0x7 } },
	  { { 0x1c, 8, 0x38 }, { 0x2c, 8, 0x7 } } },
	/* 0x40 - 8 - 0x1c = 0x1c; 0 + 7 - 0x2c = -0x25 = 0xffffffffffffffdb. */
	{ "x86_64 ELF64 LE, REL R_X86_64_PC64: 64-bit implicit addends, PCREL",
	  { true, false, EM_X86_64, 3, SF_PCREL, 0, SYMS(0, 0x40), false,
	    RELS({ 0x1c, 2, R_X86_64_PC64, 0 }, { 0x2c, 1, R_X86_64_PC64, 0 }) },
	  { { 0x1c, 8, 0xfffffffffffffff8ull }, { 0x2c, 8, 0x7 } },
	  { { 0x1c, 8, 0x1c }, { 0x2c, 8, 0xffffffffffffffdbull } } },
	/* A: 0x20 at 0x1c, -0x100 at 0x30. 0x50 + 0x20 - 0x1c = 0x54; -0x100 - 0x30 = -0x130. */
	{ "s390 ELF32 BE, REL R_390_PC32: the implicit addend read big endian",
	  { false, true, EM_S390, 2, SF_PCREL, 0, SYMS(0, 0x50), false,
	    RELS({ 0x1c, 2, R_390_PC32, 0 }, { 0x30, 1, R_390_PC32, 0 }) },
	  { { 0x1c, 4, 0x20 }, { 0x30, 4, 0xffffff00 } },
	  { { 0x1c, 4, 0x54 }, { 0x30, 4, 0xfffffed0 } } },
	/* NONE is type 0 on all three machines. FDE 1: 0x30 + 4 - 0x2c = 0x8; FDE 0 stays 0. */
	{ "R_X86_64_NONE entries change nothing, later entries still apply",
	  { true, false, EM_X86_64, 3, SF_PCREL, 0, SYMS(0, 0x30), true,
	    RELS({ 0x1c, 2, 0, 0x1234 }, { 0x2c, 2, R_X86_64_PC64, 4 }, { 0x1c, 0, 0, 0 }) },
	  { { 0 } }, { { 0x2c, 8, 0x8 } } },
	{ "R_AARCH64_NONE entries change nothing, later entries still apply",
	  { true, false, EM_AARCH64, 3, SF_PCREL, 0, SYMS(0, 0x30), true,
	    RELS({ 0x1c, 2, 0, 0x1234 }, { 0x2c, 2, R_AARCH64_PREL64, 4 }, { 0x1c, 0, 0, 0 }) },
	  { { 0 } }, { { 0x2c, 8, 0x8 } } },
	{ "R_390_NONE entries change nothing, later entries still apply",
	  { true, true, EM_S390, 3, SF_PCREL, 0, SYMS(0, 0x30), true,
	    RELS({ 0x1c, 2, 0, 0x1234 }, { 0x2c, 2, R_390_PC64, 4 }, { 0x1c, 0, 0, 0 }) },
	  { { 0 } }, { { 0x2c, 8, 0x8 } } },
	{ "ELF32 BE REL with only a NONE entry: a copy identical to the section",
	  { false, true, EM_S390, 2, 0, 0, SYMS(0, 0x30), false,
	    RELS({ 0x1c, 1, R_390_NONE, 0 }) },
	  { { 0x1c, 4, 0xdeadbeef } }, { { 0 } } },
	/* 0x30 - 0x1c = 0x14, stored big endian although the ELF file is LE. */
	{ "the relocated fields follow the SFrame magic's byte order, not the ELF header's",
	  { true, false, EM_X86_64, 3, SF_PCREL, 2, SYMS(0, 0x30), true,
	    RELS({ 0x1c, 2, R_X86_64_PC64, 0 }) },
	  { { 0 } }, { { 0x1c, 8, 0x14 } } },
	/* 0x7fffffff + 0 = INT32_MAX; 0 - 0x80000000 = INT32_MIN = 0x80000000. */
	{ "32-bit results of exactly INT32_MAX and INT32_MIN still fit and are stored",
	  { true, false, EM_X86_64, 2, 0, 0, SYMS(0, 0x7fffffff), true,
	    RELS({ 0x1c, 2, R_X86_64_PC32, 0 }, { 0x30, 1, R_X86_64_PC32, -0x80000000ll }) },
	  { { 0 } }, { { 0x1c, 4, 0x7fffffff }, { 0x30, 4, 0x80000000 } } },
	/* 0x80000000 + 0 = 0x80000000 is stored as is. */
	{ "PC64 is not limited to 32 bits",
	  { true, false, EM_X86_64, 3, 0, 0, SYMS(0, 0x80000000ull, 0x7fffffff), true,
	    RELS({ 0x1c, 2, R_X86_64_PC64, 0 }) },
	  { { 0 } }, { { 0x1c, 8, 0x80000000ull } } },
};

static unsigned want_count(const struct want *w)
{
	return (unsigned)(w[0].width != 0) + (w[1].width != 0);
}

/*
 * Every row: the section's magic and the relocation entries as written (the
 * builder's own check), then the relocated copy as expect_relocated() sees it.
 */
static void test_reloc_table(void **state)
{
	unsigned c, i;

	(void)state;
	assert_int_equal(sf_fde1(1), 0x2d);
	assert_int_equal(sf_fde1(2), 0x30);
	assert_int_equal(sf_fde1(3), 0x2c);
	for (c = 0; c < sizeof(reloc_cases) / sizeof(reloc_cases[0]); c++) {
		const struct reloc_case *rc = &reloc_cases[c];
		const struct relobj *o = &rc->o;
		bool sf_be = o->sf_order ? o->sf_order == 2 : o->be;
		unsigned w = o->is64 ? 8 : 4, ent = (o->rela ? 3 : 2) * w;
		struct elf_img im;

		row = rc->name;
		relobj_setup(&im, o);
		for (i = 0; i < want_count(rc->pre); i++)
			put(im.scratch[SC_SFRAME] + rc->pre[i].off, rc->pre[i].width, sf_be,
			    rc->pre[i].v);
		img_build(&im);
		assert_int_equal(im.scratch[SC_SFRAME][0], sf_be ? 0xde : 0xe2);
		assert_int_equal(im.sec[IDX_RELSF].size, o->nrel * ent);
		for (i = 0; i < o->nrel && o->rela; i++) {
			const unsigned char *e = im.buf + im.data_off[IDX_RELSF] + i * ent;

			/* r_addend as wide as an address: 0xfffffff0 for -0x10 in ELF32. */
			assert_int_equal(get(e + 2 * w, w, o->be),
					 (uint64_t)o->rels[i].addend & (~(uint64_t)0 >> (64 - 8 * w)));
		}
		expect_relocated(&im, sf_be, rc->w, want_count(rc->w));
	}
	row = NULL;
}


/* Both a .rela.sframe and a .rel.sframe apply; a .rela.text (sh_info .text) is ignored. */
static void test_reloc_several_sections(void **state)
{
	static const uint64_t syms[] = { 0, 0x30 };
	static const struct rel rela[] = { { 0x1c, 2, R_X86_64_PC64, 0x2 } };
	static const struct rel rel[] = { { 0x2c, 1, R_X86_64_PC64, 0 } };
	/* An entry that would fail (unsupported type, bad offset) if it were applied. */
	static const struct rel text_rel[] = { { 0x7fff, 99, R_X86_64_64, 0 } };
	/*
	 * FDE 0 (RELA): 0x30 + 2 - 0x1c = 0x16.
	 * FDE 1 (REL, field holds 0x50): 0 + 0x50 - 0x2c = 0x24.
	 */
	static const struct want w[] = {
		{ 0x1c, 8, 0x16 },
		{ 0x2c, 8, 0x24 },
	};
	struct relobj o = { .is64 = true, .be = false, .machine = EM_X86_64, .version = 3,
			    .flags = SF_PCREL, .symval = syms, .nsym = 2, .rela = true,
			    .rels = rela, .nrel = 1 };
	struct elf_img im;
	size_t n;
	unsigned i;

	(void)state;
	relobj_setup(&im, &o);
	put(im.scratch[SC_SFRAME] + 0x2c, 8, false, 0x50);
	n = enc_rels(&im, false, rel, 1, im.scratch[SC_MISC]);
	i = img_add(&im, ".rel.sframe", SHT_REL, SHF_INFO_LINK, im.scratch[SC_MISC], n);
	im.sec[i].lnk = IDX_SYMTAB;
	im.sec[i].info = IDX_SFRAME;
	n = enc_rels(&im, true, text_rel, 1, im.scratch[SC_MISC] + 512);
	i = img_add(&im, ".rela.text", SHT_RELA, SHF_INFO_LINK, im.scratch[SC_MISC] + 512, n);
	im.sec[i].lnk = IDX_SYMTAB;
	im.sec[i].info = IDX_TEXT;
	img_build(&im);
	expect_relocated(&im, false, w, 2);
}

/* An ET_REL object without relocation sections: bytes straight from the file, no copy. */
static void test_reloc_object_without_relocations(void **state)
{
	static const uint64_t syms[] = { 0 };
	struct relobj o = { .is64 = false, .be = false, .machine = EM_X86_64, .version = 3,
			    .flags = SF_PCREL, .symval = syms, .nsym = 1 };
	struct elf_img im;
	struct sf_input in;

	(void)state;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_img_ok(&im, &in, im.scratch[SC_SFRAME], im.sec[IDX_SFRAME].size);
	assert_true(in.is_rel);
	assert_null(in.owned_copy);
	assert_ptr_equal(in.sec, in.file + im.data_off[IDX_SFRAME]);
	sf_input_free(&in);
}

/* Relocation sections of linked (ET_EXEC, ET_DYN) files are not applied. */
static void test_reloc_not_applied_when_linked(void **state)
{
	static const uint64_t syms[] = { 0, 0x30 };
	static const struct rel rels[] = { { 0x1c, 2, R_X86_64_64, 0 } };	/* unsupported */
	struct relobj o = { .is64 = true, .be = false, .machine = EM_X86_64, .version = 3,
			    .flags = SF_PCREL, .symval = syms, .nsym = 2, .rela = true,
			    .rels = rels, .nrel = 1 };
	static const uint16_t types[] = { ET_EXEC, ET_DYN };
	struct elf_img im;
	struct sf_input in;
	unsigned t;

	(void)state;
	for (t = 0; t < 2; t++) {
		relobj_setup(&im, &o);
		im.type = types[t];
		img_build(&im);
		expect_img_ok(&im, &in, im.scratch[SC_SFRAME], im.sec[IDX_SFRAME].size);
		assert_false(in.is_rel);
		assert_null(in.owned_copy);
		sf_input_free(&in);
	}
}

/* ---- Errors ---------------------------------------------------------------------- */

/* Neither ELF nor SFrame (text, empty, one magic byte, bare ELF magic) is EFORMAT; a missing file or a directory is EIO. */
static void test_err_not_elf_not_sframe(void **state)
{
	static const unsigned char one[1] = { 0xe2 };
	static const unsigned char elfmag[4] = { 0x7f, 'E', 'L', 'F' };
	static const unsigned char swapped[2] = { 0xde, 0xde };
	struct sf_input in;
	char path[PATH_MAX], err[256];

	(void)state;
	expect_error("hello, world\n", 13, "not an ELF file or SFrame section");
	expect_error("", 0, "empty file");
	expect_error(one, sizeof(one), NULL);
	expect_error(swapped, sizeof(swapped), NULL);
	expect_error(elfmag, sizeof(elfmag), "truncated ELF header");

	tmp_path(path, sizeof(path));
	rm_tmp(path);
	assert_int_equal(sf_input_load(path, 0, 0, &in, err, sizeof(err)), SF_INPUT_EIO);
	check_contract(path, SF_INPUT_EIO, &in, err);
	/* A directory opens but cannot be read. */
	*strrchr(path, '/') = '\0';
	assert_int_equal(sf_input_load(path, 0, 0, &in, err, sizeof(err)), SF_INPUT_EIO);
	check_contract(path, SF_INPUT_EIO, &in, err);
}

/* No .sframe section and no PT_GNU_SFRAME segment, with or without section/program headers. */
static void test_err_no_sframe(void **state)
{
	struct elf_img im;

	(void)state;
	/* Sections only, none named .sframe. */
	img_init(&im, true, false, ET_EXEC, EM_X86_64);
	img_add(&im, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, text_bytes, 16);
	img_add(&im, ".sframe_", SHT_PROGBITS, SHF_ALLOC, text_bytes, 16);
	img_build(&im);
	expect_img_error(&im, "no .sframe section or PT_GNU_SFRAME segment");
	/* Program headers only, none PT_GNU_SFRAME. */
	img_init(&im, false, true, ET_EXEC, EM_S390);
	im.no_shdrs = true;
	img_add(&im, "", SHT_PROGBITS, 0, text_bytes, 16);
	img_add_ph(&im, PT_LOAD, 0, 0x400000);
	img_build(&im);
	expect_img_error(&im, "no .sframe section or PT_GNU_SFRAME segment");
	/* Neither. */
	img_init(&im, false, false, ET_DYN, EM_X86_64);
	im.no_shdrs = true;
	img_build(&im);
	expect_img_error(&im, "no .sframe section or PT_GNU_SFRAME segment");
}

/*
 * A field to overwrite after the build: in the ELF header (AT_EH), section
 * header @idx (AT_SH; IDX_SHSTR is .shstrtab) or program header @idx
 * (AT_PH), or byte @idx of the file (AT_BYTE). Its value is @add plus a
 * quantity of the built image (@base).
 */
enum { AT_NONE, AT_EH, AT_SH, AT_PH, AT_BYTE };
enum {
	V_NUM,		/* 0 */
	V_LEN,		/* the file size */
	V_SIZE,		/* the size of the section (the segment) */
	V_REST,		/* the file size less its file offset */
	V_SHNUM,	/* the number of sections */
	V_MAX,		/* UINT32_MAX or UINT64_MAX: the class's largest address */
	V_PHENT,	/* the program header entry size: 32 or 56 */
};
#define IDX_SHSTR	0xff

struct patch {
	uint8_t at, idx;
	const struct fld *f;
	uint8_t base;
	int64_t add;
};

/* Image kinds; the byte order, when it follows the class. */
enum { K_EXEC, K_SEGMENT };
enum { O_LE, O_BE, O_BE32, O_BE64 };
#define ELF32		1u
#define ELF64		2u

/*
 * One load per row and class in @classes (of a relocatable object @obj,
 * else an image of @kind), patched, cut to @cut bytes when not 0: it fails
 * with a message containing @msg or, without @msg, loads @size bytes.
 */
static const struct err_case {
	const char *name;
	const struct relobj *obj;
	uint8_t kind, classes, order;
	uint32_t shtype;	/* K_EXEC: .sframe's type (0: PROGBITS) and extra flags */
	uint64_t shflags;
	uint64_t addr;		/* K_EXEC: .sframe's address */
	size_t cut;
	struct patch p[3];
	const char *msg;
	uint64_t size;
} err_cases[] = {
	/* A bad EI_CLASS or EI_DATA, or an ELF header cut short. */
	{ "EI_CLASS 3", NULL, K_EXEC, ELF64, O_LE, .p = { { AT_BYTE, 4, NULL, V_NUM, 3 } },
	  .msg = "class" },
	{ "EI_DATA 0", NULL, K_EXEC, ELF64, O_LE, .p = { { AT_BYTE, 5, NULL, V_NUM, 0 } },
	  .msg = "data encoding" },
	{ "ELF64 header of 40 bytes", NULL, K_EXEC, ELF64, O_LE, .cut = 40,
	  .msg = "truncated ELF header" },

	/* .sframe's sh_offset/sh_size beyond the file, or wrapping around. */
	{ "sh_offset just past the end, size 1", NULL, K_EXEC, ELF32 | ELF64, O_BE64,
	  .addr = 0x1000,
	  .p = { { AT_SH, 2, &SH_OFFSET, V_LEN, 0 }, { AT_SH, 2, &SH_SIZE, V_NUM, 1 } },
	  .msg = "section .sframe out of bounds" },
	{ "sh_offset at the end, size 0: an empty section", NULL, K_EXEC, ELF32 | ELF64, O_BE64,
	  .addr = 0x1000,
	  .p = { { AT_SH, 2, &SH_OFFSET, V_LEN, 0 }, { AT_SH, 2, &SH_SIZE, V_NUM, 0 } },
	  .size = 0 },
	{ "in range, one byte too long", NULL, K_EXEC, ELF32 | ELF64, O_BE64, .addr = 0x1000,
	  .p = { { AT_SH, 2, &SH_SIZE, V_REST, 1 } },
	  .msg = "section .sframe out of bounds" },
	{ "sh_offset + sh_size wraps to a small number", NULL, K_EXEC, ELF32 | ELF64, O_BE64,
	  .addr = 0x1000,
	  .p = { { AT_SH, 2, &SH_OFFSET, V_MAX, -7 }, { AT_SH, 2, &SH_SIZE, V_NUM, 16 } },
	  .msg = "section .sframe out of bounds" },
	{ "sh_size the largest address", NULL, K_EXEC, ELF32 | ELF64, O_BE64, .addr = 0x1000,
	  .p = { { AT_SH, 2, &SH_OFFSET, V_NUM, 8 }, { AT_SH, 2, &SH_SIZE, V_MAX, 0 } },
	  .msg = "section .sframe out of bounds" },

	/* PT_GNU_SFRAME's p_offset/p_filesz beyond the file, or wrapping; the table itself. */
	{ "p_offset past the end", NULL, K_SEGMENT, ELF32 | ELF64, O_BE32,
	  .p = { { AT_PH, 0, &P_OFFSET, V_LEN, 1 }, { AT_PH, 0, &P_FILESZ, V_NUM, 0 } },
	  .msg = "PT_GNU_SFRAME segment out of bounds" },
	{ "p_filesz one byte too long", NULL, K_SEGMENT, ELF32 | ELF64, O_BE32,
	  .p = { { AT_PH, 0, &P_FILESZ, V_SIZE, 1 } },
	  .msg = "PT_GNU_SFRAME segment out of bounds" },
	{ "p_offset + p_filesz wraps", NULL, K_SEGMENT, ELF32 | ELF64, O_BE32,
	  .p = { { AT_PH, 0, &P_OFFSET, V_MAX, 0 }, { AT_PH, 0, &P_FILESZ, V_NUM, 2 } },
	  .msg = "PT_GNU_SFRAME segment out of bounds" },
	{ "program header table 8 bytes before the end", NULL, K_SEGMENT, ELF32 | ELF64, O_BE32,
	  .p = { { AT_EH, 0, &E_PHOFF, V_LEN, -8 } }, .msg = "program header table out of bounds" },
	{ "e_phentsize one byte short", NULL, K_SEGMENT, ELF32 | ELF64, O_BE32,
	  .p = { { AT_EH, 0, &E_PHENTSIZE, V_PHENT, -1 } }, .msg = "program header entry size" },

	/* e_shstrndx out of range, or .shstrtab's bytes outside the file. */
	{ "e_shstrndx = e_shnum", NULL, K_EXEC, ELF32 | ELF64, O_BE32,
	  .p = { { AT_EH, 0, &E_SHSTRNDX, V_SHNUM, 0 } },
	  .msg = "section name string table index" },
	{ "e_shstrndx 0xfeff", NULL, K_EXEC, ELF32 | ELF64, O_BE32,
	  .p = { { AT_EH, 0, &E_SHSTRNDX, V_NUM, 0xfeff } },
	  .msg = "section name string table index" },
	{ "only the null section: one, in the singular", NULL, K_EXEC, ELF32 | ELF64, O_BE32,
	  .p = { { AT_EH, 0, &E_SHNUM, V_NUM, 1 }, { AT_EH, 0, &E_SHSTRNDX, V_NUM, 1 } },
	  .msg = "section name string table index 1 out of range (1 section)" },
	{ ".shstrtab at the end of the file", NULL, K_EXEC, ELF32 | ELF64, O_BE32,
	  .p = { { AT_SH, IDX_SHSTR, &SH_OFFSET, V_LEN, 0 } },
	  .msg = "section name string table out of bounds" },
	{ ".shstrtab as long as the file", NULL, K_EXEC, ELF32 | ELF64, O_BE32,
	  .p = { { AT_SH, IDX_SHSTR, &SH_SIZE, V_LEN, 0 } },
	  .msg = "section name string table out of bounds" },

	/* A name offset past the end of .shstrtab just does not match (no overread). */
	{ "sh_name 0xffffffff", NULL, K_EXEC, ELF64, O_LE,
	  .p = { { AT_SH, 2, &SH_NAME, V_NUM, 0xffffffff } }, .msg = "no .sframe section" },
	/* .shstrtab is "\0.text\0.sframe\0.shstrtab\0"; ".sframe" sits at 7. */
	{ ".shstrtab cut inside \".sframe\\0\"", NULL, K_EXEC, ELF64, O_LE,
	  .p = { { AT_SH, 2, &SH_NAME, V_NUM, 7 }, { AT_SH, IDX_SHSTR, &SH_SIZE, V_NUM, 7 + 7 } },
	  .msg = "no .sframe section" },

	/* A section header table beyond the file or with too small entries. */
	{ "e_shoff 39 bytes before the end", NULL, K_EXEC, ELF32, O_LE,
	  .p = { { AT_EH, 0, &E_SHOFF, V_LEN, -39 } },
	  .msg = "section header table out of bounds" },
	{ "e_shoff 0xfffffff0", NULL, K_EXEC, ELF32, O_LE,
	  .p = { { AT_EH, 0, &E_SHOFF, V_NUM, 0xfffffff0u } },
	  .msg = "section header table out of bounds" },
	{ "e_shentsize 39", NULL, K_EXEC, ELF32, O_LE,
	  .p = { { AT_EH, 0, &E_SHENTSIZE, V_NUM, 39 } }, .msg = "section header entry size" },
	{ "extended numbering with a count that does not fit the file", NULL, K_EXEC, ELF32, O_LE,
	  .p = { { AT_EH, 0, &E_SHNUM, V_NUM, 0 }, { AT_SH, 0, &SH_SIZE, V_NUM, 0x10000 } },
	  .msg = "section header table out of bounds" },

	/* A .sframe of the wrong type, compressed, or SHT_NOBITS. */
	{ ".sframe SHT_NOTE", NULL, K_EXEC, ELF64, O_BE, SHT_NOTE, .msg = "unexpected type" },
	{ ".sframe SHF_COMPRESSED", NULL, K_EXEC, ELF64, O_BE, 0, SHF_COMPRESSED,
	  .msg = "compressed" },
	{ ".sframe SHT_NOBITS", NULL, K_EXEC, ELF32, O_LE, SHT_NOBITS, .msg = "SHT_NOBITS" },

	/* A relocation's symbol index one past the end of the table (3 with the null symbol). */
	{ "symbol index 3 of 3",
	  &(const struct relobj){ true, false, EM_X86_64, 3, SF_PCREL, 0, SYMS(0, 0x30), true,
	    RELS({ 0x1c, 2, R_X86_64_PC64, 0 }, { 0x2c, 3, R_X86_64_PC64, 0 }) },
	  .msg = "symbol index 3 out of range (3 symbols)" },
	{ "ELF32 BE REL, the largest 24-bit symbol index",
	  &(const struct relobj){ false, true, EM_S390, 2, SF_PCREL, 0, SYMS(0, 0x30), false,
	    RELS({ 0x1c, 0xffffff, R_390_PC32, 0 }) },
	  .msg = "symbol index 16777215 out of range" },
	{ "only the null symbol: one, in the singular",
	  &(const struct relobj){ false, true, EM_S390, 2, SF_PCREL, 0, .nsym = 0, .rela = false,
	    RELS({ 0x1c, 2, R_390_PC32, 0 }) },
	  .msg = "symbol index 2 out of range (1 symbol)" },

	/* A relocation section whose sh_link is 0, out of range, or not a symbol table. */
#define OBJ_LINK &(const struct relobj){ true, false, EM_X86_64, 3, SF_PCREL, 0, SYMS(0), true, \
					 RELS({ 0x1c, 1, R_X86_64_PC64, 0 }) }
	{ "sh_link 0", OBJ_LINK, .p = { { AT_SH, IDX_RELSF, &SH_LINK, V_NUM, 0 } },
	  .msg = "symbol table index 0 out of range" },
	{ "sh_link = e_shnum", OBJ_LINK, .p = { { AT_SH, IDX_RELSF, &SH_LINK, V_SHNUM, 0 } },
	  .msg = "out of range" },
	{ "sh_link to .strtab", OBJ_LINK,
	  .p = { { AT_SH, IDX_RELSF, &SH_LINK, V_NUM, IDX_STRTAB } },
	  .msg = "is not a symbol table" },
	{ "symbol table outside the file", OBJ_LINK,
	  .p = { { AT_SH, IDX_SYMTAB, &SH_OFFSET, V_LEN, 0 } },
	  .msg = "symbol table out of bounds" },

	/* A relocation section with a wrong sh_entsize, a ragged size, or outside the file. */
#define OBJ_SHAPE &(const struct relobj){ false, true, EM_S390, 2, SF_PCREL, 0, SYMS(0), true, \
					  RELS({ 0x1c, 1, R_390_PC32, 0 }) }
	{ "Elf32_Rela sh_entsize 8 (it is 12)", OBJ_SHAPE,
	  .p = { { AT_SH, IDX_RELSF, &SH_ENTSIZE, V_NUM, 8 } }, .msg = "unexpected entry size" },
	{ "Elf32_Rela section of 13 bytes", OBJ_SHAPE,
	  .p = { { AT_SH, IDX_RELSF, &SH_SIZE, V_NUM, 13 } }, .msg = "is not a multiple of 12" },
	{ "relocation section 11 bytes before the end", OBJ_SHAPE,
	  .p = { { AT_SH, IDX_RELSF, &SH_OFFSET, V_LEN, -11 } }, .msg = "out of bounds" },

	/* A relocation reaching past the end of the 72-byte v3 .sframe (28 + 2 * 16 + 12). */
#define OBJ_OFF(is64, rela, off, type) \
	&(const struct relobj){ is64, false, EM_X86_64, 3, SF_PCREL, 0, SYMS(0), rela, \
				RELS({ off, 1, type, 0 }) }
	{ "4 bytes at 72 - 3", OBJ_OFF(true, true, 72 - 3, R_X86_64_PC32),
	  .msg = "outside the .sframe section" },
	{ "8 bytes at 72 - 7", OBJ_OFF(true, true, 72 - 7, R_X86_64_PC64),
	  .msg = "outside the .sframe section" },
	{ "offset + width wraps", OBJ_OFF(true, true, UINT64_MAX - 1, R_X86_64_PC64),
	  .msg = "outside the .sframe section" },
	{ "the last field that fits", OBJ_OFF(true, true, 72 - 8, R_X86_64_PC64), .size = 72 },
	{ "ELF32 REL: no implicit addend read from outside the section",
	  OBJ_OFF(false, false, 0xffffffffu, R_X86_64_PC32), .msg = "outside the .sframe section" },

	/* Relocation types other than NONE/PC32/PC64, and unknown machines (RELA and REL). */
#define OBJ_TYPE(is64, be, machine, type, rela) \
	&(const struct relobj){ is64, be, machine, 3, SF_PCREL, 0, SYMS(0), rela, \
				RELS({ 0x1c, 1, type, 0 }) }
	{ "R_X86_64_64", OBJ_TYPE(true, false, EM_X86_64, R_X86_64_64, true),
	  .msg = "unsupported relocation type 1 for x86-64" },
	{ "an aarch64 type on x86_64", OBJ_TYPE(true, false, EM_X86_64, R_AARCH64_PREL64, false),
	  .msg = "unsupported relocation type 260" },
	{ "R_AARCH64_ABS64", OBJ_TYPE(true, true, EM_AARCH64, R_AARCH64_ABS64, true),
	  .msg = "unsupported relocation type 257 for AArch64" },
	{ "an x86_64 type on aarch64", OBJ_TYPE(true, false, EM_AARCH64, R_X86_64_PC32, false),
	  .msg = "unsupported relocation type 2 for AArch64" },
	{ "R_390_64", OBJ_TYPE(true, true, EM_S390, R_390_64, true),
	  .msg = "unsupported relocation type 22 for s390x" },
	{ "type 255 on s390", OBJ_TYPE(false, true, EM_S390, 0xff, false),
	  .msg = "unsupported relocation type 255" },
	{ "i386", OBJ_TYPE(false, false, EM_386, 2, true),
	  .msg = "unsupported relocation type 2 for i386" },
	{ "a machine without a name here: its number", OBJ_TYPE(false, false, 4242, 2, false),
	  .msg = "unsupported relocation type 2 for machine 4242" },

	/* A 32-bit relocation whose result does not fit int32, in either direction. */
	{ "plain: 0x80000000 + 0 = 2^31 > INT32_MAX",
	  &(const struct relobj){ true, false, EM_X86_64, 2, 0, 0,
	    SYMS(0, 0x80000000ull, 0x7fffffff), true, RELS({ 0x1c, 2, R_X86_64_PC32, 0 }) },
	  .msg = "value 2147483648 does not fit a 32-bit field" },
	{ "PCREL: 0 + (-0x80000000) - 0x30 = -2^31 - 0x30 < INT32_MIN",
	  &(const struct relobj){ true, false, EM_X86_64, 2, SF_PCREL, 0,
	    SYMS(0, 0x80000000ull, 0x7fffffff), true,
	    RELS({ 0x30, 1, R_X86_64_PC32, -0x80000000ll }) },
	  .msg = "value -2147483696 does not fit a 32-bit field" },
	{ "ELF32, plain: 0x7fffffff + 1 = 2^31 (no wrap to INT32_MIN in 32 bits)",
	  &(const struct relobj){ false, true, EM_S390, 2, 0, 0,
	    SYMS(0, 0x80000000ull, 0x7fffffff), true, RELS({ 0x1c, 3, R_390_PC32, 1 }) },
	  .msg = "value 2147483648 does not fit a 32-bit field" },
};

/* The image of @ec in class @is64, patched; its .sframe is section 2 (K_EXEC) or 1. */
static void err_case_build(struct elf_img *im, const struct err_case *ec, bool is64)
{
	bool be = ec->order == O_BE || (ec->order == O_BE32 && !is64) ||
		  (ec->order == O_BE64 && is64);
	unsigned i, s = 2;

	if (ec->obj) {
		relobj_setup(im, ec->obj);
	} else if (ec->kind == K_EXEC) {
		exec_with_sframe(im, is64, be, ec->shtype ? ec->shtype : SHT_PROGBITS, ec->addr);
		im->sec[2].flags |= ec->shflags;
	} else {
		size_t n;

		img_init(im, is64, be, ET_EXEC, EM_X86_64);
		im->no_shdrs = true;
		n = make_sframe(im->scratch[SC_SFRAME], be, 3, 0);
		s = img_add(im, "", SHT_PROGBITS, 0, im->scratch[SC_SFRAME], n);
		img_add_ph(im, PT_GNU_SFRAME, s, 0x1000);
	}
	img_build(im);
	for (i = 0; i < 3 && ec->p[i].at != AT_NONE; i++) {
		const struct patch *p = &ec->p[i];
		unsigned idx = p->idx == IDX_SHSTR ? im->shstrndx : p->idx;
		unsigned sec = p->at == AT_SH ? idx : s;
		uint64_t base[] = {
			[V_NUM] = 0, [V_LEN] = im->len, [V_SIZE] = im->sec[sec].size,
			[V_REST] = im->len - im->data_off[sec], [V_SHNUM] = im->shnum,
			[V_MAX] = is64 ? UINT64_MAX : UINT32_MAX, [V_PHENT] = is64 ? 56 : 32,
		};
		uint64_t v = base[p->base] + (uint64_t)p->add;

		if (p->at == AT_BYTE)
			im->buf[idx] = (unsigned char)v;
		else if (p->at == AT_EH)
			set(im, 0, *p->f, v);
		else
			set(im, p->at == AT_SH ? shdr_at(im, idx) : phdr_at(im, idx), *p->f, v);
	}
	if (ec->cut)
		im->len = ec->cut;
}

static void test_err_table(void **state)
{
	unsigned c, k;

	(void)state;
	for (c = 0; c < sizeof(err_cases) / sizeof(err_cases[0]); c++) {
		const struct err_case *ec = &err_cases[c];
		unsigned classes = ec->obj ? (ec->obj->is64 ? ELF64 : ELF32) : ec->classes;

		for (k = 0; k < 2; k++) {
			struct elf_img im;
			struct sf_input in;
			char err[512];

			if (!(classes & (1u << k)))
				continue;
			row = ec->name;
			err_case_build(&im, ec, k == 1);
			if (ec->msg) {
				expect_img_error(&im, ec->msg);
				continue;
			}
			if (load_img(&im, &in, err, sizeof(err)) != SF_INPUT_OK)
				fail_msg("%s: %s", ec->name, err);
			assert_int_equal(in.sec_size, ec->size);
			sf_input_free(&in);
		}
	}
	row = NULL;
}

/* The error message is cut to errlen (NUL included) and nothing is written past it. */
static void test_err_short_buffer(void **state)
{
	char err[16];
	struct sf_input in;
	char path[PATH_MAX];
	int ret;

	(void)state;
	tmp_path(path, sizeof(path));
	put_file(path, "xx", 2);
	memset(err, 'X', sizeof(err));
	ret = sf_input_load(path, 0, 0, &in, err, 8);
	rm_tmp(path);
	assert_int_equal(ret, SF_INPUT_EFORMAT);
	assert_int_equal(strlen(err), 7);
	assert_memory_equal(err, path, 7);
	assert_int_equal(err[8], 'X');
	assert_int_equal(err[15], 'X');
}

/* ---- Truncation and corruption (no crash, no overread under ASan) --------------------- */

/* Load every prefix of @im (0 .. full length): each must fail cleanly, the full one succeed. */
static void truncate_all(const struct elf_img *im, const unsigned char *want, size_t want_len)
{
	char path[PATH_MAX], err[512];
	struct sf_input in;
	size_t len;

	tmp_path(path, sizeof(path));
	put_file(path, im->buf, im->len);
	for (len = im->len + 1; len-- > 0;) {
		int ret;

		assert_int_equal(truncate(path, (off_t)len), 0);
		ret = sf_input_load(path, 0, 0, &in, err, sizeof(err));
		check_contract(path, ret, &in, err);
		if (len == im->len) {
			if (ret != SF_INPUT_OK)
				fail_msg("full image: %s", err);
			assert_int_equal(in.sec_size, want_len);
			assert_memory_equal(in.sec, want, want_len);
		} else if (ret != SF_INPUT_EFORMAT) {
			/* The tables reach the end of the file: every prefix lacks something. */
			sf_input_free(&in);
			rm_tmp(path);
			fail_msg("prefix of %zu bytes loaded (%d)", len, ret);
		}
		sf_input_free(&in);
	}
	rm_tmp(path);
}

/* Every truncation of a valid ELF64 LE relocatable object fails cleanly; the whole loads. */
static void test_truncate_elf64(void **state)
{
	static const uint64_t syms[] = { 0, 0x30 };
	static const struct rel rels[] = {
		{ 0x1c, 1, R_X86_64_PC64, 0 },
		{ 0x2c, 2, R_X86_64_PC64, 0 },
	};
	struct relobj o = { .is64 = true, .be = false, .machine = EM_X86_64, .version = 3,
			    .flags = SF_PCREL, .symval = syms, .nsym = 2, .rela = true,
			    .rels = rels, .nrel = 2 };
	struct elf_img im;
	unsigned char want[SF_MAX];
	size_t n;

	(void)state;
	relobj_setup(&im, &o);
	img_build(&im);
	n = im.sec[IDX_SFRAME].size;
	memcpy(want, im.scratch[SC_SFRAME], n);
	put(want + 0x1c, 8, false, (uint64_t)-0x1c);	/* 0 - 0x1c */
	put(want + 0x2c, 8, false, 0x30 - 0x2c);	/* 0x30 - 0x2c = 4 */
	truncate_all(&im, want, n);
}

/* Every truncation of a valid ELF32 BE image (sections; then segment only) fails cleanly. */
static void test_truncate_elf32_be(void **state)
{
	static const uint64_t syms[] = { 0, 0x30 };
	static const struct rel rels[] = { { 0x30, 2, R_390_PC32, 0 } };
	struct relobj o = { .is64 = false, .be = true, .machine = EM_S390, .version = 2,
			    .flags = SF_PCREL, .symval = syms, .nsym = 2, .rela = false,
			    .rels = rels, .nrel = 1 };
	struct elf_img im;
	unsigned char want[SF_MAX];
	size_t n;
	unsigned s;

	(void)state;
	relobj_setup(&im, &o);
	put(im.scratch[SC_SFRAME] + 0x30, 4, true, 0x4);
	img_build(&im);
	n = im.sec[IDX_SFRAME].size;
	memcpy(want, im.scratch[SC_SFRAME], n);
	put(want + 0x30, 4, true, 0x4);			/* 0x30 + 4 - 0x30 = 4 */
	truncate_all(&im, want, n);

	img_init(&im, false, true, ET_EXEC, EM_S390);
	im.no_shdrs = true;
	n = make_sframe(im.scratch[SC_SFRAME], true, 3, SF_PCREL);
	s = img_add(&im, "", SHT_PROGBITS, 0, im.scratch[SC_SFRAME], n);
	img_add_ph(&im, PT_LOAD, 0, 0x10000);
	img_add_ph(&im, PT_GNU_SFRAME, s, 0x10100);
	img_build(&im);
	truncate_all(&im, im.scratch[SC_SFRAME], n);
}

/* Overwrite each byte of @im in turn with several values: every load keeps the contract. */
static void corrupt_all(const struct elf_img *im)
{
	static const unsigned char vals[] = { 0x00, 0xff, 0x7f, 0x80, 0x01 };
	unsigned char *copy = malloc(im->len);
	char path[PATH_MAX], err[512];
	struct sf_input in;
	size_t pos;
	unsigned v;

	assert_non_null(copy);
	tmp_path(path, sizeof(path));
	for (pos = 0; pos < im->len; pos++) {
		for (v = 0; v < sizeof(vals); v++) {
			int ret;

			if (im->buf[pos] == vals[v])
				continue;
			memcpy(copy, im->buf, im->len);
			copy[pos] = vals[v];
			put_file(path, copy, im->len);
			ret = sf_input_load(path, 0, 0, &in, err, sizeof(err));
			check_contract(path, ret, &in, err);
			sf_input_free(&in);
		}
	}
	rm_tmp(path);
	free(copy);
}

/* One-byte corruptions anywhere in valid ELF64 LE / ELF32 BE relocatable objects never crash. */
static void test_corrupt_every_byte(void **state)
{
	static const uint64_t syms[] = { 0, 0x30 };
	static const struct rel rels[] = {
		{ 0x1c, 1, R_X86_64_PC32, 0 },
		{ 0x30, 2, R_X86_64_PC32, 0 },
	};
	static const struct rel rels_be[] = { { 0x2c, 2, R_390_PC64, 0 } };
	struct relobj o = { .is64 = true, .be = false, .machine = EM_X86_64, .version = 2,
			    .flags = SF_PCREL, .symval = syms, .nsym = 2, .rela = true,
			    .rels = rels, .nrel = 2 };
	struct elf_img im;

	(void)state;
	relobj_setup(&im, &o);
	img_build(&im);
	corrupt_all(&im);

	o.is64 = false;
	o.be = true;
	o.machine = EM_S390;
	o.version = 3;
	o.rela = false;
	o.rels = rels_be;
	o.nrel = 1;
	relobj_setup(&im, &o);
	img_build(&im);
	corrupt_all(&im);
}

/* One-byte corruptions of segment-only ELF64 BE / ELF32 LE images never crash. */
static void test_corrupt_segment_images(void **state)
{
	struct elf_img im;
	size_t n;
	unsigned s, pass;

	(void)state;
	for (pass = 0; pass < 2; pass++) {
		img_init(&im, pass == 0, pass == 0, ET_EXEC, pass ? EM_X86_64 : EM_S390);
		im.no_shdrs = true;
		n = make_sframe(im.scratch[SC_SFRAME], pass == 0, 3, SF_PCREL);
		s = img_add(&im, "", SHT_PROGBITS, 0, im.scratch[SC_SFRAME], n);
		img_add_ph(&im, PT_LOAD, 0, 0x10000);
		img_add_ph(&im, PT_GNU_SFRAME, s, 0x10100);
		img_build(&im);
		corrupt_all(&im);
	}
}

/* ---- Real toolchain output (fixtures) ------------------------------------------------- */

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		fail_msg("cannot open %s", path);
	for (;;) {
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			buf = realloc(buf, cap + 1);
			assert_non_null(buf);
		}
		size_t r = fread(buf + n, 1, cap - n, f);

		if (r == 0)
			break;
		n += r;
	}
	fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}

static void fixture_path(char *out, size_t len, const char *sub, const char *file,
			 const char *suffix)
{
	assert_true((size_t)snprintf(out, len, "%s/%s/%s%s", fixtures_dir, sub, file, suffix) <
		    len);
}

/*
 * Build ids, as "readelf -n" prints them (PT_NOTE of LE and BE files); none
 * in an object. Machines, as "readelf -h" names them (EM_X86_64 62, EM_S390
 * 22, EM_AARCH64 183).
 */
static void test_fixture_build_id(void **state)
{
	static const char *const cases[][4] = {
		{ "v3-x86_64", "lib.so", "74735a761c0f34659ccd31e7128c12d5fae58486", "62" },
		{ "unwind/v3-s390x", "unwind", "4b11edec06f1a8028207898f162b2a10afb4ea16", "22" },
		{ "unwind/v3-aarch64", "unwind", "3a58936a61aa7142277fd945d72410e3dd900602", "183" },
		{ "perf", "loop", "cad013119ae42b653e8e55fb086d12fcbf33f030", "62" },
		{ "v1-aarch64", "cfi.o", "", "183" },
	};
	unsigned c;

	(void)state;
	if (!fixtures_dir)
		skip();
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char path[PATH_MAX], err[512], hex[2 * SF_BUILD_ID_MAX + 1] = "";
		const unsigned char *id;
		struct sf_input in;
		size_t len = 0, k;

		fixture_path(path, sizeof(path), cases[c][0], cases[c][1], "");
		assert_int_equal(sf_input_bytes(path, &in, err, sizeof(err)), SF_INPUT_OK);
		if (sf_elf_build_id(in.file, in.file_size, &id, &len)) {
			for (k = 0; k < len; k++)
				snprintf(hex + 2 * k, 3, "%02x", id[k]);
		}
		assert_string_equal(hex, cases[c][2]);
		assert_int_equal(sf_elf_machine(in.file, in.file_size), atoi(cases[c][3]));
		assert_int_equal(sf_elf_machine(in.file, 10), 0);
		/* The header alone: no notes to find, nothing read past it. */
		assert_false(sf_elf_build_id(in.file, 64, &id, &len));
		sf_input_free(&in);
	}
}

/* Linked fixtures (ELF64 LE and BE, v1..v3): the bytes of F.sframe at the address in F.addr. */
static void test_fixture_linked(void **state)
{
	static const char *const cases[][2] = {
		{ "v1-x86_64", "exe" }, { "v1-aarch64", "lib.so" }, { "v2-x86_64", "lib.so" },
		{ "v2-aarch64", "exe" }, { "v3-x86_64", "exe" }, { "v3-x86_64", "lib.so" },
		{ "v3-aarch64", "lib.so" }, { "v3-s390x", "exe" }, { "v3-s390x", "lib.so" },
	};
	unsigned c;

	(void)state;
	if (!fixtures_dir)
		skip();
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char path[PATH_MAX], aux[PATH_MAX], err[512];
		unsigned char *want, *addr_txt;
		size_t want_len, addr_len;
		struct sf_input in;
		int ret;

		fixture_path(path, sizeof(path), cases[c][0], cases[c][1], "");
		fixture_path(aux, sizeof(aux), cases[c][0], cases[c][1], ".sframe");
		want = slurp(aux, &want_len);
		fixture_path(aux, sizeof(aux), cases[c][0], cases[c][1], ".addr");
		addr_txt = slurp(aux, &addr_len);
		ret = sf_input_load(path, 0, 0, &in, err, sizeof(err));
		check_contract(path, ret, &in, err);
		if (ret != SF_INPUT_OK)
			fail_msg("%s", err);
		assert_string_equal(in.how, "section");
		assert_false(in.is_rel);
		assert_null(in.owned_copy);
		assert_int_equal(in.vaddr, strtoull((const char *)addr_txt, NULL, 16));
		assert_int_equal(in.sec_size, want_len);
		assert_memory_equal(in.sec, want, want_len);
		sf_input_free(&in);
		free(want);
		free(addr_txt);
	}
}

/* Real cfi.o/frames.o (v1-v3, 3 arches): relocated FDE starts give objdump's pcs, other bytes unchanged. */
static void test_fixture_objects_relocated(void **state)
{
	static const char *const dirs[] = { "v1-x86_64", "v1-aarch64", "v2-x86_64", "v2-aarch64",
					    "v3-x86_64", "v3-aarch64", "v3-s390x" };
	static const char *const files[] = { "cfi.o", "frames.o" };
	/* pc = field + its offset under PCREL, else the field itself (S + A). */
	unsigned d, f;
	int checked = 0;

	(void)state;
	if (!fixtures_dir)
		skip();
	for (d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		for (f = 0; f < 2; f++) {
			char path[PATH_MAX], aux[PATH_MAX], err[512];
			unsigned char *raw, *dump;
			size_t raw_len, dump_len, k;
			uint64_t pcs[64];
			unsigned npc = 0, i, fde_size, w, nfdes;
			struct sf_input in;
			const char *p;
			size_t fde_area;
			bool be, pcrel;
			int ret;

			fixture_path(path, sizeof(path), dirs[d], files[f], "");
			if (access(path, R_OK) != 0)
				continue;	/* no cfi.o for s390x */
			fixture_path(aux, sizeof(aux), dirs[d], files[f], ".sframe");
			raw = slurp(aux, &raw_len);
			fixture_path(aux, sizeof(aux), dirs[d], files[f], ".objdump");
			dump = slurp(aux, &dump_len);
			for (p = (const char *)dump; (p = strstr(p, "func idx [")) != NULL; p++) {
				unsigned idx;
				unsigned long long pc;

				assert_int_equal(sscanf(p, "func idx [%u]: pc = 0x%llx", &idx, &pc), 2);
				assert_int_equal(idx, npc);
				assert_true(npc < 64);
				pcs[npc++] = pc;
			}
			ret = sf_input_load(path, 0, 0, &in, err, sizeof(err));
			check_contract(path, ret, &in, err);
			if (ret != SF_INPUT_OK)
				fail_msg("%s", err);
			assert_true(in.is_rel);
			assert_int_equal(in.sec_size, raw_len);
			assert_memory_equal(in.sec, raw, SF_FDE0);	/* header untouched */
			be = raw[0] == 0xde;
			pcrel = raw[3] & SF_PCREL;
			fde_size = sf_fde_size(raw[2]);
			w = sf_start_width(raw[2]);
			nfdes = (unsigned)get(raw + 8, 4, be);
			fde_area = SF_FDE0 + raw[7] + get(raw + 20, 4, be);
			assert_int_equal(nfdes, npc);
			for (i = 0; i < nfdes; i++) {
				size_t off = fde_area + (size_t)i * fde_size;
				int64_t v = sext(get(in.sec + off, w, be), w);
				uint64_t pc = (uint64_t)v + (pcrel ? off : 0);

				if (pc != pcs[i])
					fail_msg("%s FDE %u: 0x%" PRIx64 ", objdump 0x%" PRIx64, path,
						 i, pc, pcs[i]);
			}
			for (k = 0; k < raw_len; k++) {
				bool start = k >= fde_area && k < fde_area + (size_t)nfdes * fde_size &&
					     (k - fde_area) % fde_size < w;

				if (!start && in.sec[k] != raw[k])
					fail_msg("%s: byte 0x%zx changed", path, k);
			}
			sf_input_free(&in);
			free(raw);
			free(dump);
			checked++;
		}
	}
	assert_int_equal(checked, 13);
}

/* The fixtures' raw section files load as "raw" with their own bytes. */
static void test_fixture_raw(void **state)
{
	static const char *const cases[][2] = {
		{ "v3-x86_64", "exe" }, { "v3-s390x", "lib.so" }, { "v1-aarch64", "cfi.o" },
	};
	unsigned c;

	(void)state;
	if (!fixtures_dir)
		skip();
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char path[PATH_MAX], err[512];
		unsigned char *want;
		size_t want_len;
		struct sf_input in;
		int ret;

		fixture_path(path, sizeof(path), cases[c][0], cases[c][1], ".sframe");
		want = slurp(path, &want_len);
		ret = sf_input_load(path, 0, 0, &in, err, sizeof(err));
		check_contract(path, ret, &in, err);
		assert_int_equal(ret, SF_INPUT_OK);
		assert_string_equal(in.how, "raw");
		assert_int_equal(in.vaddr, 0);
		assert_int_equal(in.sec_size, want_len);
		assert_memory_equal(in.sec, want, want_len);
		sf_input_free(&in);
		free(want);
	}
}

/* A real fixture's section bytes embedded in a hand-built ELF32 BE file come back unchanged. */
static void test_fixture_bytes_in_elf32_be(void **state)
{
	struct elf_img im;
	struct sf_input in;
	char path[PATH_MAX];
	unsigned char *raw;
	size_t raw_len;
	unsigned i;

	(void)state;
	if (!fixtures_dir)
		skip();
	fixture_path(path, sizeof(path), "v3-s390x", "exe", ".sframe");
	raw = slurp(path, &raw_len);
	assert_true(raw_len <= sizeof(im.scratch[0]));
	img_init(&im, false, true, ET_EXEC, EM_S390);
	memcpy(im.scratch[SC_SFRAME], raw, raw_len);
	img_add(&im, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, text_bytes, 16);
	i = img_add(&im, ".sframe", SHT_GNU_SFRAME, SHF_ALLOC, im.scratch[SC_SFRAME], raw_len);
	im.sec[i].addr = 0x400190;
	img_build(&im);
	expect_img_ok(&im, &in, raw, raw_len);
	assert_int_equal(in.vaddr, 0x400190);
	sf_input_free(&in);
	free(raw);
}

/* ---- Symbols ----------------------------------------------------------------------- */

#define SHT_SYMTAB_SHNDX	18
#define SHN_ABS			0xfff1u
#define SHN_XINDEX		0xffffu

/* One symbol table entry: a global function. */
static void put_func(const struct elf_img *im, unsigned char *tab, unsigned idx, uint32_t name,
		     uint64_t value, uint64_t size, uint16_t shndx)
{
	unsigned char *e = tab + idx * (im->is64 ? 24 : 16);

	put(e, 4, im->be, name);
	if (im->is64) {
		e[4] = 0x12;	/* STB_GLOBAL, STT_FUNC */
		put(e + 6, 2, im->be, shndx);
		put(e + 8, 8, im->be, value);
		put(e + 16, 8, im->be, size);
	} else {
		put(e + 4, 4, im->be, value);
		put(e + 8, 4, im->be, size);
		e[12] = 0x12;
		put(e + 14, 2, im->be, shndx);
	}
}

/*
 * A function symbol names addresses of its own section only: st_shndx, or
 * its SHT_SYMTAB_SHNDX entry when st_shndx is SHN_XINDEX. .text is
 * 0x1000..0x1080 (section 1):
 *   viax     0x1010, 16 bytes, section 1 through SHN_XINDEX
 *   abs      0x1020, 16 bytes, SHN_ABS: in no section, names nothing
 *   outside  0x2000, in section 1 but outside it: names nothing
 *   plain    0x1040, no size: names up to the end of .text
 */
static void check_symbol_sections(bool is64, bool be)
{
	static const char names[] = "\0viax\0abs\0outside\0plain";
	struct sf_elf_info info;
	struct elf_img im;
	struct sf_input in;
	char err[512];
	unsigned char *tab, *xtab;
	unsigned i, sym;
	size_t n;

	img_init(&im, is64, be, ET_EXEC, be ? EM_S390 : EM_X86_64);
	i = img_add(&im, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, text_bytes,
		    sizeof(text_bytes));
	im.sec[i].addr = 0x1000;
	n = make_sframe(im.scratch[SC_SFRAME], be, 3, SF_PCREL | 1);
	img_add(&im, ".sframe", SHT_GNU_SFRAME, SHF_ALLOC, im.scratch[SC_SFRAME], n);
	tab = im.scratch[SC_SYMS];
	memset(tab, 0, 5 * 24);
	put_func(&im, tab, 1, 1, 0x1010, 16, SHN_XINDEX);
	put_func(&im, tab, 2, 6, 0x1020, 16, SHN_ABS);
	put_func(&im, tab, 3, 10, 0x2000, 16, 1);
	put_func(&im, tab, 4, 18, 0x1040, 0, 1);
	sym = img_add(&im, ".symtab", SHT_SYMTAB, 0, tab, 5 * (is64 ? 24 : 16));
	im.sec[sym].lnk = img_add(&im, ".strtab", SHT_STRTAB, 0, names, sizeof(names));
	im.sec[sym].info = 1;
	xtab = im.scratch[SC_MISC];
	memset(xtab, 0, 5 * 4);
	put(xtab + 4, 4, be, 1);	/* viax: section 1 */
	i = img_add(&im, ".symtab_shndx", SHT_SYMTAB_SHNDX, 0, xtab, 5 * 4);
	im.sec[i].lnk = sym;
	img_build(&im);
	expect_img_ok(&im, &in, im.scratch[SC_SFRAME], n);
	if (sf_elf_info_load(&in, &info, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(info.nsyms, 2);
	assert_string_equal(sf_symbol_find(&info, 0x1010)->name, "viax");
	assert_string_equal(sf_symbol_find(&info, 0x101f)->name, "viax");
	assert_null(sf_symbol_find(&info, 0x1020));
	assert_null(sf_symbol_find(&info, 0x103f));
	assert_string_equal(sf_symbol_find(&info, 0x1040)->name, "plain");
	assert_string_equal(sf_symbol_find(&info, 0x107f)->name, "plain");
	assert_null(sf_symbol_find(&info, 0x1080));
	assert_null(sf_symbol_find(&info, 0x2000));
	sf_elf_info_free(&info);
	sf_input_free(&in);
}

static void test_symbol_sections_elf64_le(void **state)
{
	(void)state;
	check_symbol_sections(true, false);
}

static void test_symbol_sections_elf32_be(void **state)
{
	(void)state;
	check_symbol_sections(false, true);
}

#define T(fn) cmocka_unit_test_teardown(fn, cleanup)

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		T(test_section_classes),
		T(test_section_gnu_sframe_type),
		T(test_section_exact_name),
		T(test_section_vaddr_override),
		T(test_section_preferred_over_segment),
		T(test_section_extended_numbering),
		T(test_segment_classes),
		T(test_segment_vaddr_override),
		T(test_segment_fallback_with_sections),
		T(test_segment_extended_phnum),
		T(test_raw_le),
		T(test_raw_be_vaddr_override),
		T(test_reloc_table),
		T(test_reloc_several_sections),
		T(test_reloc_object_without_relocations),
		T(test_reloc_not_applied_when_linked),
		T(test_err_not_elf_not_sframe),
		T(test_err_no_sframe),
		T(test_err_table),
		T(test_err_short_buffer),
		T(test_truncate_elf64),
		T(test_truncate_elf32_be),
		T(test_corrupt_every_byte),
		T(test_corrupt_segment_images),
		T(test_fixture_linked),
		T(test_fixture_objects_relocated),
		T(test_fixture_raw),
		T(test_fixture_bytes_in_elf32_be),
		T(test_symbol_sections_elf64_le),
		T(test_symbol_sections_elf32_be),
		T(test_fixture_build_id),
	};

	if (argc > 1)
		fixtures_dir = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
