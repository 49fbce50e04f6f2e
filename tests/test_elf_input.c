/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_elf_input.c - sf_input_load() (src/tool/elf_input.c) on ELF images
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

#include "elf_input.h"

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

/* The load must fail with SF_INPUT_EFORMAT and a message containing @needle. */
static void expect_error(const void *data, size_t len, const char *needle)
{
	struct sf_input in;
	char err[512];
	int ret = load_bytes(data, len, 0, 0, &in, err, sizeof(err));

	if (ret != SF_INPUT_EFORMAT)
		fail_msg("expected SF_INPUT_EFORMAT (\"%s\"), got %d", needle ? needle : "", ret);
	if (needle && !strstr(err, needle))
		fail_msg("error \"%s\" does not mention \"%s\"", err, needle);
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

/* ELF64 LSB: .sframe found by name, bytes/size from sh_offset/sh_size, vaddr = sh_addr. */
static void test_section_elf64_le(void **state)
{
	(void)state;
	check_section(true, false);
}

/* ELF64 MSB: the same, with every header field decoded big endian. */
static void test_section_elf64_be(void **state)
{
	(void)state;
	check_section(true, true);
}

/* ELF32 LSB: the same with the 32-bit header/section header layout. */
static void test_section_elf32_le(void **state)
{
	(void)state;
	check_section(false, false);
}

/* ELF32 MSB: the same, 32-bit layout, big endian. */
static void test_section_elf32_be(void **state)
{
	(void)state;
	check_section(false, true);
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

/* ELF64 LSB without section headers: PT_GNU_SFRAME's p_offset/p_filesz, vaddr = p_vaddr. */
static void test_segment_elf64_le(void **state)
{
	(void)state;
	check_segment(true, false);
}

/* ELF64 MSB without section headers: the same, big endian. */
static void test_segment_elf64_be(void **state)
{
	(void)state;
	check_segment(true, true);
}

/* ELF32 LSB without section headers: the 32-bit program header layout. */
static void test_segment_elf32_le(void **state)
{
	(void)state;
	check_segment(false, false);
}

/* ELF32 MSB without section headers: the 32-bit layout, big endian. */
static void test_segment_elf32_be(void **state)
{
	(void)state;
	check_segment(false, true);
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
		fail_msg("load failed: %s", err);
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
			fail_msg("field at 0x%x: got 0x%" PRIx64 ", want 0x%" PRIx64, w[i].off, got,
				 w[i].v);
	}
	for (k = 0; k < len; k++) {
		bool in_field = false;

		for (i = 0; i < nw; i++)
			if (k >= w[i].off && k < w[i].off + w[i].width)
				in_field = true;
		if (!in_field && in.sec[k] != orig[k])
			fail_msg("byte 0x%zx changed: 0x%02x -> 0x%02x", k, orig[k], in.sec[k]);
	}
	sf_input_free(&in);
}

/* x86_64 ELF64 LE, RELA R_X86_64_PC64, v3 PCREL header: S + A - P in 64-bit fields. */
static void test_reloc_x86_64_rela_pc64_pcrel(void **state)
{
	static const uint64_t syms[] = { 0, 0x30 };		/* 1: .text, 2: g at 0x30 */
	static const struct rel rels[] = {
		{ 0x1c, 1, R_X86_64_PC64, 0x10 },
		{ 0x2c, 2, R_X86_64_PC64, 0 },
	};
	/*
	 * FDE 0 (P = 0x1c): 0 + 0x10 - 0x1c = -0xc = 0xfffffffffffffff4.
	 * FDE 1 (P = 0x2c): 0x30 + 0 - 0x2c = 0x4.
	 */
	static const struct want w[] = {
		{ 0x1c, 8, 0xfffffffffffffff4ull },
		{ 0x2c, 8, 0x4 },
	};
	struct relobj o = { .is64 = true, .be = false, .machine = EM_X86_64, .version = 3,
			    .flags = SF_PCREL, .symval = syms, .nsym = 2, .rela = true,
			    .rels = rels, .nrel = 2 };
	struct elf_img im;

	(void)state;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_relocated(&im, false, w, 2);
}

/* x86_64 ELF64 LE, RELA R_X86_64_PC32, v2 header without PCREL: S + A in 32-bit fields. */
static void test_reloc_x86_64_rela_pc32_abs(void **state)
{
	static const uint64_t syms[] = { 0, 0x30 };
	static const struct rel rels[] = {
		{ 0x1c, 1, R_X86_64_PC32, 0x10 },
		{ 0x30, 2, R_X86_64_PC32, 5 },
	};
	/* FDE 0: 0 + 0x10 = 0x10. FDE 1: 0x30 + 5 = 0x35. P is not subtracted. */
	static const struct want w[] = {
		{ 0x1c, 4, 0x10 },
		{ 0x30, 4, 0x35 },
	};
	struct relobj o = { .is64 = true, .be = false, .machine = EM_X86_64, .version = 2,
			    .flags = 0, .symval = syms, .nsym = 2, .rela = true,
			    .rels = rels, .nrel = 2 };
	struct elf_img im;

	(void)state;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_relocated(&im, false, w, 2);
}

/* x86_64 ELF64 LE, RELA PC32 with the v2 PCREL flag: S + A - P in 32-bit fields. */
static void test_reloc_x86_64_rela_pc32_pcrel(void **state)
{
	static const uint64_t syms[] = { 0, 0x30 };
	static const struct rel rels[] = {
		{ 0x1c, 2, R_X86_64_PC32, 0x8 },
		{ 0x30, 1, R_X86_64_PC32, 0 },
	};
	/* FDE 0: 0x30 + 8 - 0x1c = 0x1c. FDE 1: 0 + 0 - 0x30 = -0x30 = 0xffffffd0. */
	static const struct want w[] = {
		{ 0x1c, 4, 0x1c },
		{ 0x30, 4, 0xffffffd0 },
	};
	struct relobj o = { .is64 = true, .be = false, .machine = EM_X86_64, .version = 2,
			    .flags = SF_PCREL, .symval = syms, .nsym = 2, .rela = true,
			    .rels = rels, .nrel = 2 };
	struct elf_img im;

	(void)state;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_relocated(&im, false, w, 2);
}

/* x86_64 ELF64 LE, RELA PC64 with a v3 header without PCREL: S + A in 64-bit fields. */
static void test_reloc_x86_64_rela_pc64_abs(void **state)
{
	static const uint64_t syms[] = { 0, 0x123456789ull };
	static const struct rel rels[] = {
		{ 0x1c, 2, R_X86_64_PC64, -9 },
		{ 0x2c, 1, R_X86_64_PC64, -1 },
	};
	/* FDE 0: 0x123456789 - 9 = 0x123456780. FDE 1: 0 - 1 = 0xffffffffffffffff. */
	static const struct want w[] = {
		{ 0x1c, 8, 0x123456780ull },
		{ 0x2c, 8, 0xffffffffffffffffull },
	};
	struct relobj o = { .is64 = true, .be = false, .machine = EM_X86_64, .version = 3,
			    .flags = 0, .symval = syms, .nsym = 2, .rela = true,
			    .rels = rels, .nrel = 2 };
	struct elf_img im;

	(void)state;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_relocated(&im, false, w, 2);
}

/* aarch64 ELF64 BE, RELA R_AARCH64_PREL64, v3 PCREL, BE section: written big endian. */
static void test_reloc_aarch64_be_prel64_pcrel(void **state)
{
	static const uint64_t syms[] = { 0, 0x40 };
	static const struct rel rels[] = {
		{ 0x1c, 1, R_AARCH64_PREL64, 0x40 },
		{ 0x2c, 2, R_AARCH64_PREL64, 0x1000 },
	};
	/* FDE 0: 0 + 0x40 - 0x1c = 0x24. FDE 1: 0x40 + 0x1000 - 0x2c = 0x1014. */
	static const struct want w[] = {
		{ 0x1c, 8, 0x24 },
		{ 0x2c, 8, 0x1014 },
	};
	struct relobj o = { .is64 = true, .be = true, .machine = EM_AARCH64, .version = 3,
			    .flags = SF_PCREL, .symval = syms, .nsym = 2, .rela = true,
			    .rels = rels, .nrel = 2 };
	struct elf_img im;

	(void)state;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_relocated(&im, true, w, 2);
}

/* aarch64 ELF64 LE, RELA R_AARCH64_PREL32: v2 PCREL (S + A - P) and v1 plain (S + A). */
static void test_reloc_aarch64_le_prel32(void **state)
{
	static const uint64_t syms[] = { 0, 0x1c };
	static const struct rel rels_v2[] = {
		{ 0x1c, 2, R_AARCH64_PREL32, 0 },
		{ 0x30, 1, R_AARCH64_PREL32, 0x4 },
	};
	/* v2, PCREL: FDE 0: 0x1c + 0 - 0x1c = 0. FDE 1: 0 + 4 - 0x30 = -0x2c = 0xffffffd4. */
	static const struct want w_v2[] = {
		{ 0x1c, 4, 0 },
		{ 0x30, 4, 0xffffffd4 },
	};
	/* v1 (17-byte FDEs, FDE 1 start at 0x2d), no PCREL: 0 + 0x1c + 0x20 = 0x3c, 0x1c - 4 = 0x18. */
	static const struct rel rels_v1[] = {
		{ 0x1c, 1, R_AARCH64_PREL32, 0x1c + 0x20 },
		{ 0x2d, 2, R_AARCH64_PREL32, -4 },
	};
	static const struct want w_v1[] = {
		{ 0x1c, 4, 0x3c },
		{ 0x2d, 4, 0x18 },
	};
	struct relobj o = { .is64 = true, .be = false, .machine = EM_AARCH64, .version = 2,
			    .flags = SF_PCREL, .symval = syms, .nsym = 2, .rela = true,
			    .rels = rels_v2, .nrel = 2 };
	struct elf_img im;

	(void)state;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_relocated(&im, false, w_v2, 2);

	o.version = 1;
	o.flags = 0;
	o.rels = rels_v1;
	assert_int_equal(sf_fde1(1), 0x2d);
	relobj_setup(&im, &o);
	img_build(&im);
	expect_relocated(&im, false, w_v1, 2);
}

/* s390x ELF64 BE, RELA R_390_PC64: v3 PCREL (S + A - P) and v3 plain (S + A), big endian. */
static void test_reloc_s390x_rela_pc64(void **state)
{
	static const uint64_t syms[] = { 0, 0x30 };
	static const struct rel rels[] = {
		{ 0x1c, 2, R_390_PC64, 0x8 },
		{ 0x2c, 1, R_390_PC64, 0x100 },
	};
	/* PCREL: 0x30 + 8 - 0x1c = 0x1c; 0 + 0x100 - 0x2c = 0xd4. */
	static const struct want w_pcrel[] = {
		{ 0x1c, 8, 0x1c },
		{ 0x2c, 8, 0xd4 },
	};
	/* Plain: 0x30 + 8 = 0x38; 0 + 0x100 = 0x100. */
	static const struct want w_abs[] = {
		{ 0x1c, 8, 0x38 },
		{ 0x2c, 8, 0x100 },
	};
	struct relobj o = { .is64 = true, .be = true, .machine = EM_S390, .version = 3,
			    .flags = SF_PCREL, .symval = syms, .nsym = 2, .rela = true,
			    .rels = rels, .nrel = 2 };
	struct elf_img im;

	(void)state;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_relocated(&im, true, w_pcrel, 2);
	o.flags = 0;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_relocated(&im, true, w_abs, 2);
}

/* s390 ELF32 BE, RELA R_390_PC32: 32-bit r_info/r_addend (sign-extended), both flag settings. */
static void test_reloc_s390_elf32_rela_pc32(void **state)
{
	static const uint64_t syms[] = { 0, 0x30 };
	static const struct rel rels[] = {
		{ 0x1c, 2, R_390_PC32, -0x10 },	/* stored as 0xfffffff0 */
		{ 0x30, 1, R_390_PC32, 0x4 },
	};
	/* Plain: 0x30 - 0x10 = 0x20; 0 + 4 = 0x4. */
	static const struct want w_abs[] = {
		{ 0x1c, 4, 0x20 },
		{ 0x30, 4, 0x4 },
	};
	/* PCREL: 0x30 - 0x10 - 0x1c = 0x4; 0 + 4 - 0x30 = -0x2c = 0xffffffd4. */
	static const struct want w_pcrel[] = {
		{ 0x1c, 4, 0x4 },
		{ 0x30, 4, 0xffffffd4 },
	};
	struct relobj o = { .is64 = false, .be = true, .machine = EM_S390, .version = 2,
			    .flags = 0, .symval = syms, .nsym = 2, .rela = true,
			    .rels = rels, .nrel = 2 };
	struct elf_img im;

	(void)state;
	relobj_setup(&im, &o);
	img_build(&im);
	/* The addend really is 32 bits wide in the file. */
	assert_int_equal(get(im.buf + im.data_off[IDX_RELSF] + 8, 4, true), 0xfffffff0);
	expect_relocated(&im, true, w_abs, 2);
	o.flags = SF_PCREL;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_relocated(&im, true, w_pcrel, 2);
}

/* ELF32 LE (x32) REL R_X86_64_PC32: the implicit addend is read from the section field. */
static void test_reloc_elf32_le_rel_implicit(void **state)
{
	static const uint64_t syms[] = { 0, 0x100 };
	static const struct rel rels[] = {
		{ 0x1c, 2, R_X86_64_PC32, 0 },
		{ 0x30, 1, R_X86_64_PC32, 0 },
	};
	/*
	 * Fields hold A: 0xfffffffc (-4) at 0x1c, 0x10 at 0x30.
	 * PCREL: 0x100 - 4 - 0x1c = 0xe0; 0 + 0x10 - 0x30 = -0x20 = 0xffffffe0.
	 * Plain: 0x100 - 4 = 0xfc; 0 + 0x10 = 0x10.
	 */
	static const struct want w_pcrel[] = {
		{ 0x1c, 4, 0xe0 },
		{ 0x30, 4, 0xffffffe0 },
	};
	static const struct want w_abs[] = {
		{ 0x1c, 4, 0xfc },
		{ 0x30, 4, 0x10 },
	};
	struct relobj o = { .is64 = false, .be = false, .machine = EM_X86_64, .version = 2,
			    .flags = SF_PCREL, .symval = syms, .nsym = 2, .rela = false,
			    .rels = rels, .nrel = 2 };
	struct elf_img im;

	(void)state;
	relobj_setup(&im, &o);
	put(im.scratch[SC_SFRAME] + 0x1c, 4, false, 0xfffffffc);
	put(im.scratch[SC_SFRAME] + 0x30, 4, false, 0x10);
	img_build(&im);
	assert_int_equal(im.sec[IDX_RELSF].size, 2 * 8);	/* Elf32_Rel: 8 bytes */
	expect_relocated(&im, false, w_pcrel, 2);

	o.flags = 0;
	relobj_setup(&im, &o);
	put(im.scratch[SC_SFRAME] + 0x1c, 4, false, 0xfffffffc);
	put(im.scratch[SC_SFRAME] + 0x30, 4, false, 0x10);
	img_build(&im);
	expect_relocated(&im, false, w_abs, 2);
}

/* ELF64 LE REL R_X86_64_PC64: 64-bit implicit addends, PCREL and plain. */
static void test_reloc_elf64_le_rel_implicit_pc64(void **state)
{
	static const uint64_t syms[] = { 0, 0x40 };
	static const struct rel rels[] = {
		{ 0x1c, 2, R_X86_64_PC64, 0 },
		{ 0x2c, 1, R_X86_64_PC64, 0 },
	};
	/*
	 * Fields hold A: 0xfffffffffffffff8 (-8) at 0x1c, 0x7 at 0x2c.
	 * Plain: 0x40 - 8 = 0x38; 0 + 7 = 0x7.
	 * PCREL: 0x40 - 8 - 0x1c = 0x1c; 0 + 7 - 0x2c = -0x25 = 0xffffffffffffffdb.
	 */
	static const struct want w_abs[] = {
		{ 0x1c, 8, 0x38 },
		{ 0x2c, 8, 0x7 },
	};
	static const struct want w_pcrel[] = {
		{ 0x1c, 8, 0x1c },
		{ 0x2c, 8, 0xffffffffffffffdbull },
	};
	struct relobj o = { .is64 = true, .be = false, .machine = EM_X86_64, .version = 3,
			    .flags = 0, .symval = syms, .nsym = 2, .rela = false,
			    .rels = rels, .nrel = 2 };
	struct elf_img im;
	int pass;

	(void)state;
	for (pass = 0; pass < 2; pass++) {
		o.flags = pass ? SF_PCREL : 0;
		relobj_setup(&im, &o);
		put(im.scratch[SC_SFRAME] + 0x1c, 8, false, 0xfffffffffffffff8ull);
		put(im.scratch[SC_SFRAME] + 0x2c, 8, false, 0x7);
		img_build(&im);
		assert_int_equal(im.sec[IDX_RELSF].size, 2 * 16);	/* Elf64_Rel: 16 bytes */
		expect_relocated(&im, false, pass ? w_pcrel : w_abs, 2);
	}
}

/* ELF32 BE (s390) REL R_390_PC32: the implicit addend is read big endian. */
static void test_reloc_elf32_be_rel_implicit(void **state)
{
	static const uint64_t syms[] = { 0, 0x50 };
	static const struct rel rels[] = {
		{ 0x1c, 2, R_390_PC32, 0 },
		{ 0x30, 1, R_390_PC32, 0 },
	};
	/*
	 * Fields hold A: 0x20 at 0x1c, 0xffffff00 (-0x100) at 0x30.
	 * PCREL: 0x50 + 0x20 - 0x1c = 0x54; 0 - 0x100 - 0x30 = -0x130 = 0xfffffed0.
	 */
	static const struct want w[] = {
		{ 0x1c, 4, 0x54 },
		{ 0x30, 4, 0xfffffed0 },
	};
	struct relobj o = { .is64 = false, .be = true, .machine = EM_S390, .version = 2,
			    .flags = SF_PCREL, .symval = syms, .nsym = 2, .rela = false,
			    .rels = rels, .nrel = 2 };
	struct elf_img im;

	(void)state;
	relobj_setup(&im, &o);
	put(im.scratch[SC_SFRAME] + 0x1c, 4, true, 0x20);
	put(im.scratch[SC_SFRAME] + 0x30, 4, true, 0xffffff00);
	img_build(&im);
	expect_relocated(&im, true, w, 2);
}

/* R_*_NONE entries change nothing, on each machine, and later entries still apply. */
static void test_reloc_none_is_noop(void **state)
{
	static const uint64_t syms[] = { 0, 0x30 };
	static const uint16_t machines[] = { EM_X86_64, EM_AARCH64, EM_S390 };
	static const uint32_t pc64[] = { R_X86_64_PC64, R_AARCH64_PREL64, R_390_PC64 };
	/* NONE is type 0 on all three. FDE 1: 0x30 + 4 - 0x2c = 0x8; FDE 0 untouched (0). */
	static const struct want w[] = { { 0x2c, 8, 0x8 } };
	struct elf_img im;
	unsigned m;

	(void)state;
	for (m = 0; m < 3; m++) {
		struct rel rels[3] = {
			{ 0x1c, 2, 0, 0x1234 },
			{ 0x2c, 2, pc64[m], 4 },
			{ 0x1c, 0, 0, 0 },
		};
		struct relobj o = { .is64 = true, .be = m == 2, .machine = machines[m],
				    .version = 3, .flags = SF_PCREL, .symval = syms, .nsym = 2,
				    .rela = true, .rels = rels, .nrel = 3 };

		relobj_setup(&im, &o);
		img_build(&im);
		expect_relocated(&im, m == 2, w, 1);
	}
	/* ELF32 BE REL with only a NONE entry: a copy identical to the section. */
	{
		static const struct rel none[] = { { 0x1c, 1, R_390_NONE, 0 } };
		struct relobj o = { .is64 = false, .be = true, .machine = EM_S390, .version = 2,
				    .flags = 0, .symval = syms, .nsym = 2, .rela = false,
				    .rels = none, .nrel = 1 };

		relobj_setup(&im, &o);
		put(im.scratch[SC_SFRAME] + 0x1c, 4, true, 0xdeadbeef);
		img_build(&im);
		expect_relocated(&im, true, NULL, 0);
	}
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

/* The relocated fields follow the SFrame magic's byte order, not the ELF header's. */
static void test_reloc_section_byte_order_from_magic(void **state)
{
	static const uint64_t syms[] = { 0, 0x30 };
	static const struct rel rels[] = { { 0x1c, 2, R_X86_64_PC64, 0 } };
	/* 0x30 - 0x1c = 0x14, stored big endian although the ELF file is LE. */
	static const struct want w[] = { { 0x1c, 8, 0x14 } };
	struct relobj o = { .is64 = true, .be = false, .machine = EM_X86_64, .version = 3,
			    .flags = SF_PCREL, .sf_order = 2, .symval = syms, .nsym = 2,
			    .rela = true, .rels = rels, .nrel = 1 };
	struct elf_img im;

	(void)state;
	relobj_setup(&im, &o);
	img_build(&im);
	assert_int_equal(im.scratch[SC_SFRAME][0], 0xde);
	expect_relocated(&im, true, w, 1);
}

/* 32-bit results of exactly INT32_MAX and INT32_MIN still fit and are stored. */
static void test_reloc_int32_limits(void **state)
{
	static const uint64_t syms[] = { 0, 0x7fffffff };
	static const struct rel rels[] = {
		{ 0x1c, 2, R_X86_64_PC32, 0 },
		{ 0x30, 1, R_X86_64_PC32, -0x80000000ll },
	};
	/* Plain: 0x7fffffff + 0 = INT32_MAX; 0 - 0x80000000 = INT32_MIN = 0x80000000. */
	static const struct want w[] = {
		{ 0x1c, 4, 0x7fffffff },
		{ 0x30, 4, 0x80000000 },
	};
	struct relobj o = { .is64 = true, .be = false, .machine = EM_X86_64, .version = 2,
			    .flags = 0, .symval = syms, .nsym = 2, .rela = true,
			    .rels = rels, .nrel = 2 };
	struct elf_img im;

	(void)state;
	relobj_setup(&im, &o);
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

/* A bad EI_CLASS or EI_DATA, or an ELF header cut short, is rejected. */
static void test_err_bad_ident(void **state)
{
	struct elf_img im;

	(void)state;
	exec_with_sframe(&im, true, false, SHT_PROGBITS, 0);
	img_build(&im);
	im.buf[4] = 3;
	expect_img_error(&im, "class");
	im.buf[4] = 2;
	im.buf[5] = 0;
	expect_img_error(&im, "data encoding");
	im.buf[5] = 1;
	expect_error(im.buf, 40, "truncated ELF header");	/* ELF64 needs 64 bytes */
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

/* .sframe's sh_offset/sh_size beyond the file, or wrapping around, are rejected. */
static void test_err_section_beyond_file(void **state)
{
	struct elf_img im;
	bool is64;

	(void)state;
	for (is64 = false;; is64 = true) {
		uint64_t max = is64 ? UINT64_MAX : UINT32_MAX;

		exec_with_sframe(&im, is64, is64, SHT_PROGBITS, 0x1000);
		img_build(&im);
		/* Offset just past the end, size 1. */
		set(&im, shdr_at(&im, 2), SH_OFFSET, im.len);
		set(&im, shdr_at(&im, 2), SH_SIZE, 1);
		expect_img_error(&im, "section .sframe out of bounds");
		/* Offset at the end with size 0 is fine: an empty section. */
		set(&im, shdr_at(&im, 2), SH_SIZE, 0);
		{
			struct sf_input in;
			char err[256];

			assert_int_equal(load_img(&im, &in, err, sizeof(err)), SF_INPUT_OK);
			assert_int_equal(in.sec_size, 0);
			sf_input_free(&in);
		}
		/* In range, but one byte too long. */
		set(&im, shdr_at(&im, 2), SH_OFFSET, im.data_off[2]);
		set(&im, shdr_at(&im, 2), SH_SIZE, im.len - im.data_off[2] + 1);
		expect_img_error(&im, "section .sframe out of bounds");
		/* offset + size wraps around to a small number. */
		set(&im, shdr_at(&im, 2), SH_OFFSET, max - 7);
		set(&im, shdr_at(&im, 2), SH_SIZE, 16);
		expect_img_error(&im, "section .sframe out of bounds");
		set(&im, shdr_at(&im, 2), SH_OFFSET, 8);
		set(&im, shdr_at(&im, 2), SH_SIZE, max);
		expect_img_error(&im, "section .sframe out of bounds");
		if (is64)
			break;
	}
}

/* PT_GNU_SFRAME's p_offset/p_filesz beyond the file, or wrapping, are rejected. */
static void test_err_segment_beyond_file(void **state)
{
	struct elf_img im;
	size_t n;
	bool is64;

	(void)state;
	for (is64 = false;; is64 = true) {
		uint64_t max = is64 ? UINT64_MAX : UINT32_MAX;
		unsigned s;

		img_init(&im, is64, !is64, ET_EXEC, EM_X86_64);
		im.no_shdrs = true;
		n = make_sframe(im.scratch[SC_SFRAME], !is64, 3, 0);
		s = img_add(&im, "", SHT_PROGBITS, 0, im.scratch[SC_SFRAME], n);
		img_add_ph(&im, PT_GNU_SFRAME, s, 0x1000);
		img_build(&im);
		set(&im, phdr_at(&im, 0), P_OFFSET, im.len + 1);
		set(&im, phdr_at(&im, 0), P_FILESZ, 0);
		expect_img_error(&im, "PT_GNU_SFRAME segment out of bounds");
		set(&im, phdr_at(&im, 0), P_OFFSET, im.data_off[s]);
		set(&im, phdr_at(&im, 0), P_FILESZ, n + 1);
		expect_img_error(&im, "PT_GNU_SFRAME segment out of bounds");
		set(&im, phdr_at(&im, 0), P_OFFSET, max);
		set(&im, phdr_at(&im, 0), P_FILESZ, 2);
		expect_img_error(&im, "PT_GNU_SFRAME segment out of bounds");
		/* The program header table itself outside the file. */
		img_build(&im);
		set(&im, 0, E_PHOFF, im.len - 8);
		expect_img_error(&im, "program header table out of bounds");
		img_build(&im);
		set(&im, 0, E_PHENTSIZE, is64 ? 55 : 31);
		expect_img_error(&im, "program header entry size");
		if (is64)
			break;
	}
}

/* e_shstrndx out of range, or .shstrtab's bytes outside the file, are rejected. */
static void test_err_shstrtab_out_of_range(void **state)
{
	struct elf_img im;
	bool is64;

	(void)state;
	for (is64 = false;; is64 = true) {
		exec_with_sframe(&im, is64, !is64, SHT_PROGBITS, 0);
		img_build(&im);
		set(&im, 0, E_SHSTRNDX, im.shnum);
		expect_img_error(&im, "section name string table index");
		set(&im, 0, E_SHSTRNDX, 0xfeff);
		expect_img_error(&im, "section name string table index");
		/* Only the null section: one, in the singular. */
		set(&im, 0, E_SHNUM, 1);
		set(&im, 0, E_SHSTRNDX, 1);
		expect_img_error(&im, "section name string table index 1 out of range (1 section)");
		set(&im, 0, E_SHNUM, im.shnum);
		set(&im, 0, E_SHSTRNDX, im.shstrndx);
		set(&im, shdr_at(&im, im.shstrndx), SH_OFFSET, im.len);
		expect_img_error(&im, "section name string table out of bounds");
		set(&im, shdr_at(&im, im.shstrndx), SH_OFFSET, im.data_off[im.shstrndx]);
		set(&im, shdr_at(&im, im.shstrndx), SH_SIZE, im.len);
		expect_img_error(&im, "section name string table out of bounds");
		if (is64)
			break;
	}
}

/* A section name offset past the end of .shstrtab just does not match (no overread). */
static void test_section_name_outside_shstrtab(void **state)
{
	struct elf_img im;

	(void)state;
	exec_with_sframe(&im, true, false, SHT_PROGBITS, 0);
	img_build(&im);
	/* .shstrtab is "\0.text\0.sframe\0.shstrtab\0"; ".sframe" sits at 7. */
	set(&im, shdr_at(&im, 2), SH_NAME, 0xffffffffu);
	expect_img_error(&im, "no .sframe section");
	/* Cut .shstrtab right inside ".sframe\0": the name no longer fits. */
	set(&im, shdr_at(&im, 2), SH_NAME, 7);
	set(&im, shdr_at(&im, im.shstrndx), SH_SIZE, 7 + 7);
	expect_img_error(&im, "no .sframe section");
}

/* A section header table beyond the file or with too small entries is rejected. */
static void test_err_section_header_table(void **state)
{
	struct elf_img im;

	(void)state;
	exec_with_sframe(&im, false, false, SHT_PROGBITS, 0);
	img_build(&im);
	set(&im, 0, E_SHOFF, im.len - 39);
	expect_img_error(&im, "section header table out of bounds");
	set(&im, 0, E_SHOFF, 0xfffffff0u);
	expect_img_error(&im, "section header table out of bounds");
	set(&im, 0, E_SHOFF, im.shoff);
	set(&im, 0, E_SHENTSIZE, 39);
	expect_img_error(&im, "section header entry size");
	/* Extended numbering with a count that does not fit the file. */
	set(&im, 0, E_SHENTSIZE, 40);
	set(&im, 0, E_SHNUM, 0);
	set(&im, shdr_at(&im, 0), SH_SIZE, 0x10000);
	expect_img_error(&im, "section header table out of bounds");
}

/* A .sframe of the wrong type, compressed, or SHT_NOBITS is rejected. */
static void test_err_sframe_section_kind(void **state)
{
	struct elf_img im;

	(void)state;
	exec_with_sframe(&im, true, true, SHT_NOTE, 0);
	img_build(&im);
	expect_img_error(&im, "unexpected type");
	exec_with_sframe(&im, true, true, SHT_PROGBITS, 0);
	im.sec[2].flags |= SHF_COMPRESSED;
	img_build(&im);
	expect_img_error(&im, "compressed");
	exec_with_sframe(&im, false, false, SHT_NOBITS, 0);
	img_build(&im);
	expect_img_error(&im, "SHT_NOBITS");
}

/* A relocation's symbol index equal to the symbol count (one past the end) is rejected. */
static void test_err_symbol_index(void **state)
{
	static const uint64_t syms[] = { 0, 0x30 };	/* 3 symbols with the null one */
	static const struct rel rels[] = {
		{ 0x1c, 2, R_X86_64_PC64, 0 },
		{ 0x2c, 3, R_X86_64_PC64, 0 },
	};
	static const struct rel rels32[] = { { 0x1c, 0xffffff, R_390_PC32, 0 } };
	static const struct rel rels32_sym2[] = { { 0x1c, 2, R_390_PC32, 0 } };
	struct relobj o = { .is64 = true, .be = false, .machine = EM_X86_64, .version = 3,
			    .flags = SF_PCREL, .symval = syms, .nsym = 2, .rela = true,
			    .rels = rels, .nrel = 2 };
	struct elf_img im;

	(void)state;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_img_error(&im, "symbol index 3 out of range (3 symbols)");
	/* ELF32 BE REL, largest 24-bit symbol index. */
	o.is64 = false;
	o.be = true;
	o.machine = EM_S390;
	o.version = 2;
	o.rela = false;
	o.rels = rels32;
	o.nrel = 1;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_img_error(&im, "symbol index 16777215 out of range");
	/* Only the null symbol: one, in the singular. */
	o.nsym = 0;
	o.rels = rels32_sym2;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_img_error(&im, "symbol index 2 out of range (1 symbol)");
}

/* A relocation section whose sh_link is 0, out of range, or not a symbol table is rejected. */
static void test_err_symtab_link(void **state)
{
	static const uint64_t syms[] = { 0 };
	static const struct rel rels[] = { { 0x1c, 1, R_X86_64_PC64, 0 } };
	struct relobj o = { .is64 = true, .be = false, .machine = EM_X86_64, .version = 3,
			    .flags = SF_PCREL, .symval = syms, .nsym = 1, .rela = true,
			    .rels = rels, .nrel = 1 };
	struct elf_img im;

	(void)state;
	relobj_setup(&im, &o);
	img_build(&im);
	set(&im, shdr_at(&im, IDX_RELSF), SH_LINK, 0);
	expect_img_error(&im, "symbol table index 0 out of range");
	set(&im, shdr_at(&im, IDX_RELSF), SH_LINK, im.shnum);
	expect_img_error(&im, "out of range");
	set(&im, shdr_at(&im, IDX_RELSF), SH_LINK, IDX_STRTAB);
	expect_img_error(&im, "is not a symbol table");
	set(&im, shdr_at(&im, IDX_RELSF), SH_LINK, IDX_SYMTAB);
	set(&im, shdr_at(&im, IDX_SYMTAB), SH_OFFSET, im.len);
	expect_img_error(&im, "symbol table out of bounds");
}

/* A relocation section with a wrong sh_entsize, a ragged size, or outside the file is rejected. */
static void test_err_relocation_section_shape(void **state)
{
	static const uint64_t syms[] = { 0 };
	static const struct rel rels[] = { { 0x1c, 1, R_390_PC32, 0 } };
	struct relobj o = { .is64 = false, .be = true, .machine = EM_S390, .version = 2,
			    .flags = SF_PCREL, .symval = syms, .nsym = 1, .rela = true,
			    .rels = rels, .nrel = 1 };
	struct elf_img im;

	(void)state;
	relobj_setup(&im, &o);
	img_build(&im);
	set(&im, shdr_at(&im, IDX_RELSF), SH_ENTSIZE, 8);	/* Elf32_Rela is 12 */
	expect_img_error(&im, "unexpected entry size");
	set(&im, shdr_at(&im, IDX_RELSF), SH_ENTSIZE, 12);
	set(&im, shdr_at(&im, IDX_RELSF), SH_SIZE, 13);
	expect_img_error(&im, "is not a multiple of 12");
	set(&im, shdr_at(&im, IDX_RELSF), SH_SIZE, 12);
	set(&im, shdr_at(&im, IDX_RELSF), SH_OFFSET, im.len - 11);
	expect_img_error(&im, "out of bounds");
}

/* A relocation reaching past the end of .sframe (or wrapping around) is rejected. */
static void test_err_reloc_offset(void **state)
{
	static const uint64_t syms[] = { 0 };
	struct rel rels[1] = { { 0, 1, R_X86_64_PC32, 0 } };
	struct relobj o = { .is64 = true, .be = false, .machine = EM_X86_64, .version = 3,
			    .flags = SF_PCREL, .symval = syms, .nsym = 1, .rela = true,
			    .rels = rels, .nrel = 1 };
	struct elf_img im;
	size_t len;

	(void)state;
	relobj_setup(&im, &o);
	len = im.sec[IDX_SFRAME].size;
	/* 4 bytes at len - 3: one byte past the end. */
	rels[0].off = len - 3;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_img_error(&im, "outside the .sframe section");
	/* 8 bytes at len - 7. */
	rels[0].off = len - 7;
	rels[0].type = R_X86_64_PC64;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_img_error(&im, "outside the .sframe section");
	/* Offset near 2^64: offset + width wraps. */
	rels[0].off = UINT64_MAX - 1;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_img_error(&im, "outside the .sframe section");
	/* The last field that fits (len - 8) is fine. */
	rels[0].off = len - 8;
	relobj_setup(&im, &o);
	img_build(&im);
	{
		struct sf_input in;
		char err[256];

		assert_int_equal(load_img(&im, &in, err, sizeof(err)), SF_INPUT_OK);
		sf_input_free(&in);
	}
	/* ELF32 REL: the implicit addend is never read from outside the section. */
	o.is64 = false;
	o.rela = false;
	rels[0].off = 0xffffffffu;
	rels[0].type = R_X86_64_PC32;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_img_error(&im, "outside the .sframe section");
}

/* Relocation types other than NONE/PC32/PC64 (and unknown machines) are rejected. */
static void test_err_reloc_type(void **state)
{
	static const uint64_t syms[] = { 0 };
	static const struct {
		bool is64, be;
		uint16_t machine;
		uint32_t type;
		const char *msg;
	} cases[] = {
		{ true, false, EM_X86_64, R_X86_64_64, "unsupported relocation type 1 for x86-64" },
		{ true, false, EM_X86_64, R_AARCH64_PREL64, "unsupported relocation type 260" },
		{ true, true, EM_AARCH64, R_AARCH64_ABS64, "unsupported relocation type 257 for AArch64" },
		{ true, false, EM_AARCH64, R_X86_64_PC32, "unsupported relocation type 2 for AArch64" },
		{ true, true, EM_S390, R_390_64, "unsupported relocation type 22 for s390x" },
		{ false, true, EM_S390, 0xff, "unsupported relocation type 255" },
		{ false, false, EM_386, 2, "unsupported relocation type 2 for i386" },
		/* A machine without a name here: its number. */
		{ false, false, 4242, 2, "unsupported relocation type 2 for machine 4242" },
	};
	struct elf_img im;
	unsigned c;

	(void)state;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct rel rels[1] = { { 0x1c, 1, cases[c].type, 0 } };
		struct relobj o = { .is64 = cases[c].is64, .be = cases[c].be,
				    .machine = cases[c].machine, .version = 3, .flags = SF_PCREL,
				    .symval = syms, .nsym = 1, .rela = c % 2 == 0,
				    .rels = rels, .nrel = 1 };

		relobj_setup(&im, &o);
		img_build(&im);
		expect_img_error(&im, cases[c].msg);
	}
}

/* A 32-bit relocation whose result does not fit int32 is rejected, in either direction. */
static void test_err_reloc_overflow(void **state)
{
	static const uint64_t syms[] = { 0, 0x80000000ull, 0x7fffffff };
	/* Plain: 0x80000000 + 0 = 2^31 > INT32_MAX. */
	static const struct rel up[] = { { 0x1c, 2, R_X86_64_PC32, 0 } };
	/* PCREL: 0 + (-0x80000000) - 0x30 = -2^31 - 0x30 < INT32_MIN. */
	static const struct rel down[] = { { 0x30, 1, R_X86_64_PC32, -0x80000000ll } };
	/* ELF32, plain: 0x7fffffff + 1 = 2^31 (no wrap to INT32_MIN in 32 bits). */
	static const struct rel up32[] = { { 0x1c, 3, R_390_PC32, 1 } };
	/* PC64 is not limited: 0x80000000 + 0 = 0x80000000 is stored as is. */
	static const struct rel wide[] = { { 0x1c, 2, R_X86_64_PC64, 0 } };
	static const struct want w_wide[] = { { 0x1c, 8, 0x80000000ull } };
	struct relobj o = { .is64 = true, .be = false, .machine = EM_X86_64, .version = 2,
			    .flags = 0, .symval = syms, .nsym = 3, .rela = true,
			    .rels = up, .nrel = 1 };
	struct elf_img im;

	(void)state;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_img_error(&im, "value 2147483648 does not fit a 32-bit field");

	o.flags = SF_PCREL;
	o.rels = down;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_img_error(&im, "value -2147483696 does not fit a 32-bit field");

	o.is64 = false;
	o.be = true;
	o.machine = EM_S390;
	o.flags = 0;
	o.rels = up32;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_img_error(&im, "value 2147483648 does not fit a 32-bit field");

	o.is64 = true;
	o.be = false;
	o.machine = EM_X86_64;
	o.version = 3;
	o.rels = wide;
	relobj_setup(&im, &o);
	img_build(&im);
	expect_relocated(&im, false, w_wide, 1);
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
		T(test_section_elf64_le),
		T(test_section_elf64_be),
		T(test_section_elf32_le),
		T(test_section_elf32_be),
		T(test_section_gnu_sframe_type),
		T(test_section_exact_name),
		T(test_section_vaddr_override),
		T(test_section_preferred_over_segment),
		T(test_section_extended_numbering),
		T(test_section_name_outside_shstrtab),
		T(test_segment_elf64_le),
		T(test_segment_elf64_be),
		T(test_segment_elf32_le),
		T(test_segment_elf32_be),
		T(test_segment_vaddr_override),
		T(test_segment_fallback_with_sections),
		T(test_segment_extended_phnum),
		T(test_raw_le),
		T(test_raw_be_vaddr_override),
		T(test_reloc_x86_64_rela_pc64_pcrel),
		T(test_reloc_x86_64_rela_pc32_abs),
		T(test_reloc_x86_64_rela_pc32_pcrel),
		T(test_reloc_x86_64_rela_pc64_abs),
		T(test_reloc_aarch64_be_prel64_pcrel),
		T(test_reloc_aarch64_le_prel32),
		T(test_reloc_s390x_rela_pc64),
		T(test_reloc_s390_elf32_rela_pc32),
		T(test_reloc_elf32_le_rel_implicit),
		T(test_reloc_elf64_le_rel_implicit_pc64),
		T(test_reloc_elf32_be_rel_implicit),
		T(test_reloc_none_is_noop),
		T(test_reloc_several_sections),
		T(test_reloc_section_byte_order_from_magic),
		T(test_reloc_int32_limits),
		T(test_reloc_object_without_relocations),
		T(test_reloc_not_applied_when_linked),
		T(test_err_not_elf_not_sframe),
		T(test_err_bad_ident),
		T(test_err_no_sframe),
		T(test_err_section_beyond_file),
		T(test_err_segment_beyond_file),
		T(test_err_shstrtab_out_of_range),
		T(test_err_section_header_table),
		T(test_err_sframe_section_kind),
		T(test_err_symbol_index),
		T(test_err_symtab_link),
		T(test_err_relocation_section_shape),
		T(test_err_reloc_offset),
		T(test_err_reloc_type),
		T(test_err_reloc_overflow),
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
	};

	if (argc > 1)
		fixtures_dir = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
