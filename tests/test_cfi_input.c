/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_cfi_input.c - the converter's input from ELF files
 * (src/tool/read/cfi_input.c): on the fixtures, against their headers read
 * independently (elf_peek.h); the relocated .eh_frame of relocatable objects
 * against gas's own relocated .sframe; and on images built here: SHT_NOBITS
 * and compressed sections, the default .sframe address, machines and classes
 * refused, a file without section headers (.eh_frame through
 * .eh_frame_hdr), relocations of .eh_frame and .debug_frame by type, and
 * every truncation (meant to run under ASan/UBSan).
 *
 *   test_cfi_input FIXTURES_DIR
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sframe/sframe.h>

#include "read/cfi_input.h"
#include "read/elf_input.h"
#include "elf_peek.h"
#include "tool_run.h"

static const char *fixtures;

/* ---- Fixtures ------------------------------------------------------------------- */

static unsigned char *fixture(const char *rel, size_t *n)
{
	char path[1024];
	unsigned char *d;

	snprintf(path, sizeof(path), "%s/%s", fixtures, rel);
	d = (unsigned char *)tu_read_file(path, n);
	if (!d)
		fail_msg("cannot read %s", path);
	return d;
}

static void load_ok(const unsigned char *d, size_t n, struct sf_cfi_input *cfi, const char *what)
{
	char err[512];

	if (sf_cfi_input_load(d, n, cfi, what, err, sizeof(err)) != SF_INPUT_OK)
		fail_msg("%s: %s", what, err);
}

/*
 * A linked fixture: every field as its headers say (read by elf_peek.h),
 * the bytes inside the file, the build-id note sf_elf_build_id() finds.
 */
static void check_linked(const char *rel, bool has_debug_frame)
{
	struct peek_shdr eh, dbg, note;
	struct sf_cfi_input cfi;
	struct peek_elf e;
	const unsigned char *id;
	size_t n, len, ntext = 0;
	unsigned char *d = fixture(rel, &n);
	unsigned i;

	assert_true(peek_open(&e, d, n));
	load_ok(d, n, &cfi, rel);
	assert_int_equal(cfi.conv.machine, e.machine);
	assert_int_equal(cfi.conv.big_endian, e.be);
	assert_int_equal(cfi.type, e.type);
	assert_int_equal(cfi.osabi, e.osabi);
	assert_int_equal(cfi.flags, e.flags);
	assert_int_equal(cfi.conv.version, 0);
	assert_true(peek_section(&e, ".eh_frame", &eh));
	assert_string_equal(cfi.eh_frame_from, "section");
	assert_ptr_equal(cfi.conv.eh_frame.data, d + eh.offset);
	assert_int_equal(cfi.conv.eh_frame.size, eh.size);
	assert_int_equal(cfi.conv.eh_frame.addr, eh.addr);
	assert_null(cfi.eh_frame_copy);
	if (has_debug_frame) {
		assert_true(peek_section(&e, ".debug_frame", &dbg));
		assert_ptr_equal(cfi.conv.debug_frame.data, d + dbg.offset);
		assert_int_equal(cfi.conv.debug_frame.size, dbg.size);
	} else {
		assert_null(cfi.conv.debug_frame.data);
	}
	assert_false(cfi.debug_frame_compressed);
	assert_false(cfi.eh_frame_nobits);
	assert_true(cfi.has_sframe);
	assert_int_equal(cfi.conv.sframe_addr, peek_free_addr(&e));
	assert_true(cfi.conv.sframe_addr % 4096 == 0 && cfi.conv.sframe_addr > 0);
	/* The executable PT_LOADs, in order. */
	for (i = 0; i < e.phnum; i++) {
		struct peek_phdr p;

		peek_phdr_at(&e, i, &p);
		if (p.type != 1 || !(p.flags & 1))
			continue;
		assert_true(ntext < cfi.num_text);
		assert_int_equal(cfi.text[ntext].start, p.vaddr);
		assert_int_equal(cfi.text[ntext].end, p.vaddr + p.memsz);
		ntext++;
	}
	assert_true(ntext > 0);
	assert_int_equal(cfi.num_text, ntext);
	assert_ptr_equal(cfi.conv.text, cfi.text);
	assert_int_equal(cfi.conv.num_text, ntext);
	/* The whole note: 12-byte header, "GNU\0", the id; at its section's address. */
	assert_true(sf_elf_build_id(d, n, &id, &len));
	assert_true(cfi.has_build_id);
	assert_ptr_equal(cfi.build_id.id, id);
	assert_int_equal(cfi.build_id.len, len);
	assert_true(peek_section(&e, ".note.gnu.build-id", &note));
	assert_ptr_equal(cfi.build_id.note, d + note.offset);
	assert_int_equal(cfi.build_id.size, note.size);
	assert_int_equal(cfi.build_id.addr, note.addr);
	assert_int_equal(peek_u(&e, note.offset + 4, 4), len);
	assert_int_equal(peek_u(&e, note.offset + 8, 4), 3);	/* NT_GNU_BUILD_ID */
	assert_memory_equal(d + note.offset + 12, "GNU", 4);
	sf_cfi_input_free(&cfi);
	assert_null(cfi.text);
	free(d);
}

static void test_linked_fixtures(void **state)
{
	(void)state;
	check_linked("v3-x86_64/exe", false);
	check_linked("v3-x86_64/lib.so", false);
	check_linked("v3-aarch64/exe", false);
	check_linked("v3-s390x/exe", false);
	check_linked("unwind/v3-x86_64/unwind", false);
	check_linked("unwind/v3-aarch64/unwind", false);
	check_linked("unwind/v3-s390x/unwind", false);
	check_linked("lld-x86_64/exe", true);
}

/*
 * A relocatable object: its .eh_frame relocated as its .sframe is (every
 * section at 0). gas's FDEs (pcrel|sdata4 starts, udata4 sizes) then give
 * each function's offset in its section: every function gas's relocated
 * .sframe has, with its size.
 */
static void check_object(const char *rel)
{
	struct sf_cfi_input cfi;
	struct sf_input gas;
	struct peek_elf e;
	struct peek_shdr eh;
	char path[1024], err[512];
	size_t n;
	unsigned char *d = fixture(rel, &n);
	uint32_t i;

	assert_true(peek_open(&e, d, n));
	load_ok(d, n, &cfi, rel);
	assert_int_equal(cfi.type, 1);
	assert_non_null(cfi.eh_frame_copy);
	assert_ptr_equal(cfi.conv.eh_frame.data, cfi.eh_frame_copy);
	assert_true(peek_section(&e, ".eh_frame", &eh));
	assert_int_equal(cfi.conv.eh_frame.size, eh.size);
	assert_int_equal(cfi.conv.eh_frame.addr, 0);
	assert_null(cfi.text);
	assert_int_equal(cfi.conv.sframe_addr, 0);
	/* The file's own bytes are not touched. */
	assert_memory_not_equal(cfi.eh_frame_copy, d + eh.offset, eh.size);

	snprintf(path, sizeof(path), "%s/%s", fixtures, rel);
	if (sf_input_load(path, 0, 0, &gas, err, sizeof(err)))
		fail_msg("%s", err);
	{
		struct sframe_section sec;
		struct sframe_buffer buf;
		uint32_t found = 0;

		assert_int_equal(sframe_open_buffer(&sec, &buf, gas.sec, gas.sec_size, gas.vaddr), 0);
		for (i = 0; i < sec.num_fdes; i++) {
			struct sframe_fde fde;
			uint64_t off = 0;
			bool match = false;
			const unsigned char *p = cfi.conv.eh_frame.data;
			struct peek_elf view = e;

			assert_int_equal(sframe_get_fde(&sec, i, &fde), 0);
			view.d = p;
			view.n = (size_t)eh.size;
			while (off + 16 <= eh.size && !match) {
				uint64_t len = peek_u(&view, off, 4), id = peek_u(&view, off + 4, 4);

				if (len == 0)
					break;
				if (id != 0) {
					int32_t start = (int32_t)(uint32_t)peek_u(&view, off + 8, 4);
					uint64_t size = peek_u(&view, off + 12, 4);

					match = off + 8 + (uint64_t)(int64_t)start == fde.func_start &&
						size == fde.func_size;
				}
				off += 4 + len;
			}
			if (!match)
				fail_msg("%s: gas's function at 0x%" PRIx64 " (%" PRIu32 " bytes) is in "
					 "no FDE of the relocated .eh_frame", rel, fde.func_start,
					 fde.func_size);
			found++;
		}
		assert_true(found > 0);
	}
	sf_input_free(&gas);
	sf_cfi_input_free(&cfi);
	free(d);
}

static void test_relocatable_fixtures(void **state)
{
	(void)state;
	check_object("v3-x86_64/cfi.o");
	check_object("v3-x86_64/frames.o");
	check_object("v3-aarch64/cfi.o");
	check_object("v3-aarch64/frames.o");
	check_object("v3-s390x/frames.o");
}

/* ---- Images built here ------------------------------------------------------------ */

#define MAX_PARTS 8

struct img {
	bool is32, be, no_shdrs;
	uint16_t type, machine;
	struct {
		const char *name;
		uint32_t type, link, info;
		uint64_t flags, addr, entsize;
		const void *data;
		uint64_t size;
	} sec[MAX_PARTS];	/* after the null section */
	unsigned nsec;
	struct {
		uint32_t type, flags;
		uint64_t vaddr, memsz, align;
		int sec;	/* the section whose bytes it maps, or -1 */
	} seg[MAX_PARTS];
	unsigned nseg;
	uint64_t sec_off[MAX_PARTS];	/* filled by build() */
	unsigned char *built;		/* what expect_load() loaded */
};

static void put(unsigned char *p, unsigned w, bool be, uint64_t v)
{
	unsigned i;

	for (i = 0; i < w; i++)
		p[be ? w - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

static struct img *img_new(uint16_t machine, bool be)
{
	static struct img im;

	memset(&im, 0, sizeof(im));
	im.machine = machine;
	im.be = be;
	im.type = 2;	/* ET_EXEC */
	return &im;
}

static void add_sec(struct img *im, const char *name, uint32_t type, uint64_t flags,
		    uint64_t addr, const void *data, uint64_t size)
{
	assert_true(im->nsec < MAX_PARTS);
	im->sec[im->nsec].name = name;
	im->sec[im->nsec].type = type;
	im->sec[im->nsec].flags = flags;
	im->sec[im->nsec].addr = addr;
	im->sec[im->nsec].data = data;
	im->sec[im->nsec].size = size;
	im->nsec++;
}

static void add_seg(struct img *im, uint32_t type, uint32_t flags, uint64_t vaddr, uint64_t memsz,
		    uint64_t align, int sec)
{
	assert_true(im->nseg < MAX_PARTS);
	im->seg[im->nseg].type = type;
	im->seg[im->nseg].flags = flags;
	im->seg[im->nseg].vaddr = vaddr;
	im->seg[im->nseg].memsz = memsz;
	im->seg[im->nseg].align = align;
	im->seg[im->nseg].sec = sec;
	im->nseg++;
}

/* An ELF64 file (ELF32: the header alone) of @im, *@n bytes, malloc()ed. */
static unsigned char *build(struct img *im, size_t *n)
{
	unsigned char *d = calloc(1, 65536);
	uint64_t off, phoff = 64, shoff, stroff, names[MAX_PARTS + 2];
	char strtab[512] = "";
	size_t strlen_ = 1;
	unsigned i;

	assert_non_null(d);
	memcpy(d, "\177ELF", 4);
	d[4] = im->is32 ? 1 : 2;
	d[5] = im->be ? 2 : 1;
	d[6] = 1;
	put(d + 16, 2, im->be, im->type);
	put(d + 18, 2, im->be, im->machine);
	put(d + 20, 4, im->be, 1);
	if (im->is32) {
		put(d + 40, 2, im->be, 52);
		*n = 52;
		return d;
	}
	off = phoff + 56 * (uint64_t)im->nseg;
	for (i = 0; i < im->nsec; i++) {
		off = (off + 7) & ~(uint64_t)7;
		im->sec_off[i] = off;
		if (im->sec[i].type != 8 && im->sec[i].data) {
			memcpy(d + off, im->sec[i].data, (size_t)im->sec[i].size);
			off += im->sec[i].size;
		}
		names[i] = strlen_;
		strcpy(strtab + strlen_, im->sec[i].name);
		strlen_ += strlen(im->sec[i].name) + 1;
	}
	names[im->nsec] = strlen_;
	strcpy(strtab + strlen_, ".shstrtab");
	strlen_ += 10;
	stroff = off;
	memcpy(d + stroff, strtab, strlen_);
	shoff = (stroff + strlen_ + 7) & ~(uint64_t)7;
	for (i = 0; i < im->nsec + 1; i++) {
		unsigned char *h = d + shoff + 64 * (i + 1);
		bool str = i == im->nsec;

		put(h, 4, im->be, names[i]);
		put(h + 4, 4, im->be, str ? 3 : im->sec[i].type);
		put(h + 8, 8, im->be, str ? 0 : im->sec[i].flags);
		put(h + 16, 8, im->be, str ? 0 : im->sec[i].addr);
		put(h + 24, 8, im->be, str ? stroff : im->sec_off[i]);
		put(h + 32, 8, im->be, str ? strlen_ : im->sec[i].size);
		put(h + 40, 4, im->be, str ? 0 : im->sec[i].link);
		put(h + 44, 4, im->be, str ? 0 : im->sec[i].info);
		put(h + 48, 8, im->be, 8);
		put(h + 56, 8, im->be, str ? 0 : im->sec[i].entsize);
	}
	for (i = 0; i < im->nseg; i++) {
		unsigned char *h = d + phoff + 56 * i;
		int s = im->seg[i].sec;

		put(h, 4, im->be, im->seg[i].type);
		put(h + 4, 4, im->be, im->seg[i].flags);
		put(h + 8, 8, im->be, s >= 0 ? im->sec_off[s] : 0);
		put(h + 16, 8, im->be, im->seg[i].vaddr);
		put(h + 32, 8, im->be, s >= 0 ? im->sec[s].size : 0);
		put(h + 40, 8, im->be, im->seg[i].memsz);
		put(h + 48, 8, im->be, im->seg[i].align);
	}
	put(d + 32, 8, im->be, im->nseg ? phoff : 0);
	put(d + 54, 2, im->be, 56);
	put(d + 56, 2, im->be, im->nseg);
	if (!im->no_shdrs) {
		put(d + 40, 8, im->be, shoff);
		put(d + 58, 2, im->be, 64);
		put(d + 60, 2, im->be, im->nsec + 2);
		put(d + 62, 2, im->be, im->nsec + 1);
	}
	*n = shoff + 64 * (size_t)(im->nsec + 2);
	assert_true(*n <= 65536);
	return d;
}

/* Load @im; expect @status, and @msg in the error when it fails. */
static void expect_load(struct img *im, int status, const char *msg, struct sf_cfi_input *cfi)
{
	char err[512];
	size_t n;
	unsigned char *d = build(im, &n);
	int r = sf_cfi_input_load(d, n, cfi, "img", err, sizeof(err));

	if (r != status || (r && msg && !strstr(err, msg)))
		fail_msg("status %d (expected %d): '%s' (expected in it: %s)", r, status,
			 r ? err : "", msg ? msg : "-");
	/* What @cfi points into lives on until free_img(). */
	if (r == 0)
		im->built = d;
	else
		free(d);
}

static void free_img(struct img *im, struct sf_cfi_input *cfi)
{
	sf_cfi_input_free(cfi);
	free(im->built);
	im->built = NULL;
}

#define EM_X86_64_	62
#define EM_AARCH64_	183
#define EM_S390_	22
#define PF_RX		5u

static const unsigned char cfi_bytes[32] = { 1, 2, 3, 4 };

static void test_nobits_and_compressed(void **state)
{
	struct sf_cfi_input cfi;
	struct img *im;

	(void)state;
	/* A separate debug file: .eh_frame without bytes, .debug_frame with them. */
	im = img_new(EM_X86_64_, false);
	add_sec(im, ".eh_frame", 8, 2, 0x2000, NULL, 0x100);
	add_sec(im, ".debug_frame", 1, 0, 0, cfi_bytes, sizeof(cfi_bytes));
	add_seg(im, 1, PF_RX, 0x1000, 0x2000, 0x1000, -1);
	expect_load(im, 0, NULL, &cfi);
	assert_true(cfi.eh_frame_nobits);
	assert_null(cfi.eh_frame_from);
	assert_null(cfi.conv.eh_frame.data);
	assert_int_equal(cfi.conv.eh_frame.size, 0);
	assert_non_null(cfi.conv.debug_frame.data);
	assert_memory_equal(cfi.conv.debug_frame.data, cfi_bytes, sizeof(cfi_bytes));
	assert_int_equal(cfi.conv.debug_frame.size, sizeof(cfi_bytes));
	assert_false(cfi.has_sframe);
	assert_false(cfi.has_build_id);
	free_img(im, &cfi);

	/* A compressed .debug_frame is left out, and said so. */
	im = img_new(EM_AARCH64_, true);
	add_sec(im, ".eh_frame", 1, 2, 0x2000, cfi_bytes, sizeof(cfi_bytes));
	add_sec(im, ".debug_frame", 1, 0x800, 0, cfi_bytes, sizeof(cfi_bytes));
	add_sec(im, ".sframe", 0x6ffffff4u, 2, 0x3000, cfi_bytes, 8);
	expect_load(im, 0, NULL, &cfi);
	assert_true(cfi.debug_frame_compressed);
	assert_null(cfi.conv.debug_frame.data);
	assert_int_equal(cfi.conv.eh_frame.addr, 0x2000);
	assert_true(cfi.conv.big_endian);
	assert_int_equal(cfi.conv.machine, EM_AARCH64_);
	assert_true(cfi.has_sframe);
	/* No PT_LOAD: nothing filters, and .sframe would sit at 0. */
	assert_null(cfi.conv.text);
	assert_int_equal(cfi.conv.num_text, 0);
	assert_int_equal(cfi.conv.sframe_addr, 0);
	free_img(im, &cfi);

	/* A compressed .eh_frame cannot be: refused. */
	im = img_new(EM_X86_64_, false);
	add_sec(im, ".eh_frame", 1, 0x802, 0x2000, cfi_bytes, sizeof(cfi_bytes));
	expect_load(im, SF_INPUT_EFORMAT, "section .eh_frame is compressed", &cfi);
	/* A section past the end of the file. */
	im = img_new(EM_X86_64_, false);
	add_sec(im, ".eh_frame", 1, 2, 0x2000, cfi_bytes, sizeof(cfi_bytes));
	add_sec(im, ".debug_frame", 1, 0, 0, cfi_bytes, sizeof(cfi_bytes));
	im->sec[1].size = 1u << 20;
	im->sec[1].data = NULL;
	expect_load(im, SF_INPUT_EFORMAT, "section .debug_frame out of bounds", &cfi);
	/* A PT_GNU_SFRAME segment says there is SFrame too. */
	im = img_new(EM_S390_, true);
	add_sec(im, ".eh_frame", 1, 2, 0x2000, cfi_bytes, sizeof(cfi_bytes));
	add_seg(im, 0x6474e554u, 4, 0x2000, 8, 8, 0);
	expect_load(im, 0, NULL, &cfi);
	assert_true(cfi.has_sframe);
	free_img(im, &cfi);
}

static void test_free_addr(void **state)
{
	struct sf_cfi_input cfi;
	struct img *im;
	char err[256];
	uint64_t addr;
	size_t n;
	unsigned char *d;

	(void)state;
	/* The largest alignment wins; the executable ranges in order. */
	im = img_new(EM_X86_64_, false);
	add_sec(im, ".eh_frame", 1, 2, 0x400800, cfi_bytes, sizeof(cfi_bytes));
	add_seg(im, 1, 4, 0x3ff000, 0x100, 0x1000, -1);
	add_seg(im, 1, PF_RX, 0x400000, 0x1234, 0x1000, -1);
	add_seg(im, 1, 6, 0x600000, 0x10, 0x200000, -1);
	add_seg(im, 1, PF_RX, 0x500000, 0x20, 0x1000, -1);
	expect_load(im, 0, NULL, &cfi);
	assert_int_equal(cfi.conv.sframe_addr, 0x800000);
	assert_int_equal(cfi.num_text, 2);
	assert_int_equal(cfi.text[0].start, 0x400000);
	assert_int_equal(cfi.text[0].end, 0x401234);
	assert_int_equal(cfi.text[1].start, 0x500000);
	assert_int_equal(cfi.text[1].end, 0x500020);
	free_img(im, &cfi);

	/* At least 4096, whatever the segments say; an end already aligned stays. */
	im = img_new(EM_X86_64_, false);
	add_seg(im, 1, PF_RX, 0x5000, 0x1, 0x10, -1);
	d = build(im, &n);
	assert_int_equal(sf_elf_free_addr(d, n, &addr, "img", err, sizeof(err)), 0);
	assert_int_equal(addr, 0x6000);
	free(d);
	im = img_new(EM_X86_64_, false);
	add_seg(im, 1, PF_RX, 0x5000, 0x1000, 0, -1);
	d = build(im, &n);
	assert_int_equal(sf_elf_free_addr(d, n, &addr, "img", err, sizeof(err)), 0);
	assert_int_equal(addr, 0x6000);
	free(d);
	/* A p_align that is no power of two: a multiple of it all the same. */
	im = img_new(EM_X86_64_, false);
	add_seg(im, 1, PF_RX, 0x5000, 0x1, 0x3000, -1);
	d = build(im, &n);
	assert_int_equal(sf_elf_free_addr(d, n, &addr, "img", err, sizeof(err)), 0);
	assert_int_equal(addr, 0x6000);
	free(d);
	/* Segments at the top of the address space leave no address after them. */
	im = img_new(EM_X86_64_, false);
	add_seg(im, 1, PF_RX, UINT64_C(0xfffffffffffff000), 0x800, 0x1000, -1);
	d = build(im, &n);
	assert_int_equal(sf_elf_free_addr(d, n, &addr, "img", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no address after the segments"));
	free(d);
	im = img_new(EM_X86_64_, false);
	add_seg(im, 1, PF_RX, UINT64_C(0xfffffffffffff000), 0x2000, 0x1000, -1);
	expect_load(im, SF_INPUT_EFORMAT, "wraps around the end of the address space", &cfi);
}

static void test_refused(void **state)
{
	static const unsigned char text[] = "not an ELF file\n";
	struct sf_cfi_input cfi;
	struct img *im;
	char err[256];

	(void)state;
	im = img_new(EM_X86_64_, false);
	im->is32 = true;
	expect_load(im, SF_INPUT_EFORMAT, "a 32-bit ELF file (ELFCLASS32)", &cfi);
	im = img_new(3 /* EM_386 */, false);
	im->is32 = true;
	expect_load(im, SF_INPUT_EFORMAT, "SFrame describes 64-bit code only", &cfi);
	im = img_new(243 /* EM_RISCV */, false);
	expect_load(im, SF_INPUT_EFORMAT, "an ELF file for RISC-V: SFrame has no ABI for it", &cfi);
	im = img_new(4242, false);
	expect_load(im, SF_INPUT_EFORMAT, "an ELF file for machine 4242", &cfi);
	im = img_new(EM_X86_64_, true);
	expect_load(im, SF_INPUT_EFORMAT, "an ELF file for x86-64 in big-endian byte order", &cfi);
	im = img_new(EM_S390_, false);
	expect_load(im, SF_INPUT_EFORMAT, "an ELF file for s390x in little-endian byte order",
		    &cfi);
	assert_int_equal(sf_cfi_input_load(text, sizeof(text), &cfi, "t", err, sizeof(err)),
			 SF_INPUT_EFORMAT);
	assert_string_equal(err, "t: not an ELF file");
	assert_int_equal(sf_cfi_input_load(text, 0, &cfi, "t", err, sizeof(err)),
			 SF_INPUT_EFORMAT);
	assert_string_equal(err, "t: empty file");
	assert_int_equal(sf_cfi_input_load((const unsigned char *)"\177ELF\2\1", 6, &cfi, "t", err,
					   sizeof(err)), SF_INPUT_EFORMAT);
	assert_non_null(strstr(err, "truncated ELF header"));
}

/*
 * Without section headers: PT_GNU_EH_FRAME's .eh_frame_hdr gives .eh_frame's
 * address (version 1, a pcrel|sdata4 pointer, no table), and .eh_frame runs
 * to the end of its PT_LOAD's file bytes.
 */
static void test_no_section_headers(void **state)
{
	unsigned char hdr[8] = { 1, 0x1b, 0xff, 0xff };
	struct sf_cfi_input cfi;
	struct img *im;
	char err[256];
	size_t n;
	unsigned char *d;
	int r;

	(void)state;
	/* .eh_frame_hdr at 0x2000, .eh_frame right after it at 0x2008 (file offsets too). */
	put(hdr + 4, 4, false, 0x2008 - 0x2004);
	im = img_new(EM_X86_64_, false);
	add_sec(im, ".eh_frame_hdr", 1, 2, 0x2000, hdr, sizeof(hdr));
	add_sec(im, ".eh_frame", 1, 2, 0x2008, cfi_bytes, sizeof(cfi_bytes));
	add_seg(im, 1, PF_RX, 0x2000, 0x2000, 0x1000, 0);
	add_seg(im, 0x6474e550u, 4, 0x2000, sizeof(hdr), 4, 0);
	im->no_shdrs = true;
	d = build(im, &n);
	assert_int_equal(im->sec_off[1], im->sec_off[0] + 8);
	/* The PT_LOAD's file bytes: both sections (p_filesz of program header 0). */
	put(d + 64 + 32, 8, false, 8 + sizeof(cfi_bytes));
	r = sf_cfi_input_load(d, n, &cfi, "img", err, sizeof(err));
	if (r)
		fail_msg("%s", err);
	assert_string_equal(cfi.eh_frame_from, "PT_GNU_EH_FRAME");
	assert_int_equal(cfi.conv.eh_frame.addr, 0x2008);
	assert_ptr_equal(cfi.conv.eh_frame.data, d + im->sec_off[1]);
	assert_int_equal(cfi.conv.eh_frame.size, sizeof(cfi_bytes));
	sf_cfi_input_free(&cfi);
	/* .eh_frame outside the segment's file bytes. */
	put(d + 64 + 32, 8, false, 8);
	assert_int_equal(sf_cfi_input_load(d, n, &cfi, "img", err, sizeof(err)),
			 SF_INPUT_EFORMAT);
	assert_non_null(strstr(err, ".eh_frame at 0x2008 (from .eh_frame_hdr) is in the file "
				    "bytes of no PT_LOAD segment"));
	/* A header of another version. */
	put(d + 64 + 32, 8, false, 8 + sizeof(cfi_bytes));
	d[im->sec_off[0]] = 2;
	assert_int_equal(sf_cfi_input_load(d, n, &cfi, "img", err, sizeof(err)),
			 SF_INPUT_EFORMAT);
	assert_non_null(strstr(err, ".eh_frame_hdr (PT_GNU_EH_FRAME at offset 0x"));
	free(d);
}

/* A real executable with its section headers gone: the same .eh_frame. */
static void test_no_section_headers_fixture(void **state)
{
	static const char *const files[] = { "v3-x86_64/exe", "v3-aarch64/exe", "v3-s390x/exe",
					      "v3-x86_64/lib.so" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct sf_cfi_input with, without;
		struct peek_elf e;
		size_t n;
		unsigned char *d = fixture(files[i], &n), *copy = malloc(n);

		assert_non_null(copy);
		memcpy(copy, d, n);
		assert_true(peek_open(&e, d, n));
		memset(copy + 40, 0, 8);	/* e_shoff */
		memset(copy + 60, 0, 4);	/* e_shnum, e_shstrndx */
		load_ok(d, n, &with, files[i]);
		load_ok(copy, n, &without, files[i]);
		assert_string_equal(without.eh_frame_from, "PT_GNU_EH_FRAME");
		assert_int_equal(without.conv.eh_frame.addr, with.conv.eh_frame.addr);
		assert_int_equal((const unsigned char *)without.conv.eh_frame.data - copy,
				 (const unsigned char *)with.conv.eh_frame.data - d);
		assert_true(without.conv.eh_frame.size >= with.conv.eh_frame.size);
		assert_int_equal(without.conv.sframe_addr, with.conv.sframe_addr);
		assert_int_equal(without.num_text, with.num_text);
		assert_true(without.has_build_id);	/* from PT_NOTE */
		assert_int_equal(without.has_sframe, with.has_sframe);	/* PT_GNU_SFRAME */
		sf_cfi_input_free(&with);
		sf_cfi_input_free(&without);
		free(copy);
		free(d);
	}
}

/*
 * Relocations of a relocatable object, applied by type: .eh_frame's
 * R_X86_64_PC32 as S + A - P, .debug_frame's R_X86_64_64 and R_X86_64_32
 * as S + A; an unsupported type refused. The file's bytes stay as they are.
 */
static void test_relocations_by_type(void **state)
{
	unsigned char eh[32] = { 0 }, dbg[48] = { 0 }, syms[3 * 24] = { 0 };
	unsigned char rela_eh[24], rela_dbg[2 * 24], strtab[8] = "\0f";
	struct sf_cfi_input cfi;
	struct img *im;
	char err[256];
	size_t n;
	unsigned char *d;
	int r;

	(void)state;
	/* Symbol 1: value 0x30; symbol 2: value 0x1000. */
	put(syms + 24 + 8, 8, false, 0x30);
	put(syms + 48 + 8, 8, false, 0x1000);
	/* .eh_frame + 8: PC32 against symbol 1, addend -4. */
	put(rela_eh, 8, false, 8);
	put(rela_eh + 8, 8, false, (UINT64_C(1) << 32) | 2);
	put(rela_eh + 16, 8, false, (uint64_t)-4);
	/* .debug_frame + 0x10: R_X86_64_64 against symbol 2, + 0x20; + 0x4: R_X86_64_32, + 4. */
	put(rela_dbg, 8, false, 0x10);
	put(rela_dbg + 8, 8, false, (UINT64_C(2) << 32) | 1);
	put(rela_dbg + 16, 8, false, 0x20);
	put(rela_dbg + 24, 8, false, 4);
	put(rela_dbg + 32, 8, false, (UINT64_C(1) << 32) | 10);
	put(rela_dbg + 40, 8, false, 4);
	im = img_new(EM_X86_64_, false);
	im->type = 1;	/* ET_REL */
	add_sec(im, ".eh_frame", 1, 2, 0, eh, sizeof(eh));			/* 1 */
	add_sec(im, ".debug_frame", 1, 0, 0, dbg, sizeof(dbg));		/* 2 */
	add_sec(im, ".symtab", 2, 0, 0, syms, sizeof(syms));			/* 3 */
	im->sec[2].link = 4;
	im->sec[2].entsize = 24;
	add_sec(im, ".strtab", 3, 0, 0, strtab, sizeof(strtab));		/* 4 */
	add_sec(im, ".rela.eh_frame", 4, 0x40, 0, rela_eh, sizeof(rela_eh));	/* 5 */
	im->sec[4].link = 3;
	im->sec[4].info = 1;
	im->sec[4].entsize = 24;
	add_sec(im, ".rela.debug_frame", 4, 0x40, 0, rela_dbg, sizeof(rela_dbg));	/* 6 */
	im->sec[5].link = 3;
	im->sec[5].info = 2;
	im->sec[5].entsize = 24;
	d = build(im, &n);
	r = sf_cfi_input_load(d, n, &cfi, "img", err, sizeof(err));
	if (r)
		fail_msg("%s", err);
	assert_non_null(cfi.eh_frame_copy);
	assert_non_null(cfi.debug_frame_copy);
	assert_ptr_equal(cfi.conv.debug_frame.data, cfi.debug_frame_copy);
	assert_int_equal(sf_get_uint(cfi.eh_frame_copy + 8, 4, false), 0x30 - 4 - 8);
	assert_int_equal(sf_get_uint(cfi.debug_frame_copy + 0x10, 8, false), 0x1020);
	assert_int_equal(sf_get_uint(cfi.debug_frame_copy + 4, 4, false), 0x34);
	assert_memory_equal(d + im->sec_off[0], eh, sizeof(eh));
	assert_memory_equal(d + im->sec_off[1], dbg, sizeof(dbg));
	assert_int_equal(cfi.conv.eh_frame.addr, 0);
	sf_cfi_input_free(&cfi);
	/* R_X86_64_GOTPCREL (9): not a relocation CFI has. */
	put(d + im->sec_off[5] + 32, 8, false, (UINT64_C(1) << 32) | 9);
	assert_int_equal(sf_cfi_input_load(d, n, &cfi, "img", err, sizeof(err)),
			 SF_INPUT_EFORMAT);
	assert_non_null(strstr(err, "unsupported relocation type 9 for x86-64"));
	/* A field past the end of the section it relocates. */
	put(d + im->sec_off[5] + 32, 8, false, (UINT64_C(1) << 32) | 10);
	put(d + im->sec_off[5] + 24, 8, false, sizeof(dbg) - 2);
	assert_int_equal(sf_cfi_input_load(d, n, &cfi, "img", err, sizeof(err)),
			 SF_INPUT_EFORMAT);
	assert_non_null(strstr(err, "outside the .debug_frame section"));
	free(d);
}

/* Every truncation of an image fails cleanly or loads; never reads past the end. */
static void test_truncations(void **state)
{
	unsigned char hdr[8] = { 1, 0x1b, 0xff, 0xff };
	struct sf_cfi_input cfi;
	struct img *im;
	char err[256];
	size_t n, len;
	unsigned char *d;

	(void)state;
	put(hdr + 4, 4, true, 0x2010 - 0x2004);
	im = img_new(EM_AARCH64_, true);
	add_sec(im, ".eh_frame_hdr", 1, 2, 0x2000, hdr, sizeof(hdr));
	add_sec(im, ".eh_frame", 1, 2, 0x2010, cfi_bytes, sizeof(cfi_bytes));
	add_sec(im, ".debug_frame", 1, 0, 0, cfi_bytes, sizeof(cfi_bytes));
	add_sec(im, ".note.gnu.build-id", 7, 2, 0x1000, "\4\0\0\0\4\0\0\0\3\0\0\0GNU\0abcd", 20);
	add_seg(im, 1, PF_RX, 0x2000, 0x1000, 0x1000, 0);
	add_seg(im, 0x6474e550u, 4, 0x2000, 8, 4, 0);
	for (unsigned pass = 0; pass < 2; pass++) {
		im->no_shdrs = pass == 1;
		d = build(im, &n);
		for (len = 0; len <= n; len++) {
			unsigned char *copy = malloc(len ? len : 1);

			assert_non_null(copy);
			memcpy(copy, d, len);
			if (sf_cfi_input_load(copy, len, &cfi, "img", err, sizeof(err)) == 0)
				sf_cfi_input_free(&cfi);
			free(copy);
		}
		free(d);
	}
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linked_fixtures),
		cmocka_unit_test(test_relocatable_fixtures),
		cmocka_unit_test(test_nobits_and_compressed),
		cmocka_unit_test(test_free_addr),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_no_section_headers),
		cmocka_unit_test(test_no_section_headers_fixture),
		cmocka_unit_test(test_relocations_by_type),
		cmocka_unit_test(test_truncations),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s FIXTURES_DIR\n", argv[0]);
		return 2;
	}
	fixtures = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
