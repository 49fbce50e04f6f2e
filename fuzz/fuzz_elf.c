/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * fuzz_elf.c - the tool's ELF reader (src/tool/read/elf_*.c): finding the
 * .sframe section or the PT_GNU_SFRAME segment, relocating a relocatable
 * object's section, symbols and executable segments.
 *
 * Input: a file. It is written to a memory file and loaded by path, as the
 * tool does. Asserts:
 *   - the result is OK or "unusable content" (never an I/O error), with a
 *     message on failure and an all-zero struct sf_input;
 *   - on success the file bytes are unchanged; a raw section is the whole
 *     file at vaddr 0; an ELF's section lies inside the file, or is the
 *     relocated private copy of a relocatable object's .sframe, of the same
 *     size; every byte of it is readable (ASan checks the range);
 *   - a --vaddr override finds the same bytes and only changes the address;
 *   - the bytes found go through sframe_open() and sframe_check() with
 *     reads inside them (fz_read aborts otherwise);
 *   - "sframe convert --elf" (elf_add.c), with and without replacing: a plan
 *     or a message; a planned copy keeps the file's bytes but the ELF
 *     header's table fields, the replaced section header and a table grown
 *     in place, reads back through the checked readers, its program header
 *     table moved into its new PT_LOAD or grown in place, PT_GNU_SFRAME
 *     naming the section's bytes inside it;
 *   - symbols and executable segments: names inside the file and
 *     NUL-terminated there, or (PLT entries) in the info's own names and
 *     ending in "@plt"; sorted; non-empty ranges; and sf_symbol_find()
 *     returns a symbol containing the address or none.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sframe/sframe.h>
#include <sframe/sframe_format.h>

#include "fuzz_assert.h"
#include "fuzz_errors.h"
#include "fuzz_read.h"
#include "fuzz_target.h"
#include "read/elf_add.h"
#include "read/elf_input.h"

#include <sys/mman.h>
#include <unistd.h>

static int mem_fd = -1;
static char mem_path[64];

static void put_file(const uint8_t *data, size_t size)
{
	size_t done = 0;

	if (mem_fd < 0) {
#ifdef MFD_CLOEXEC
		mem_fd = memfd_create("fuzz-elf", MFD_CLOEXEC);
#endif
		if (mem_fd < 0) {
			char tmpl[] = "/tmp/fuzz-elf-XXXXXX";

			mem_fd = mkstemp(tmpl);
			FZ_ASSERT(mem_fd >= 0);
			unlink(tmpl);
		}
		snprintf(mem_path, sizeof(mem_path), "/proc/self/fd/%d", mem_fd);
	}
	FZ_ASSERT(ftruncate(mem_fd, 0) == 0);
	while (done < size) {
		ssize_t w = pwrite(mem_fd, data + done, size - done, (off_t)done);

		FZ_ASSERT(w > 0);
		done += (size_t)w;
	}
}

static bool all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

static void check_section(const struct sf_input *in)
{
	struct sframe_section sec;
	struct fz_mem m;
	uint64_t i, sum = 0;
	int ret;

	/* Every byte readable: ASan reports any byte outside the allocation. */
	for (i = 0; i < in->sec_size; i++)
		sum += in->sec[i];
	(void)sum;
	fz_mem_init(&m, in->sec, in->sec_size, 0);
	if (sframe_open(&sec, fz_read, &m, 0, in->sec_size, in->vaddr))
		return;
	ret = sframe_check(&sec, NULL);
	FZ_ASSERT(ret == 0 || fz_section_err(ret));
}

static int cmp_syms(const struct sf_symbol *a, const struct sf_symbol *b)
{
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (!a->size != !b->size)
		return a->size ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void check_info(const struct sf_input *in, const struct sf_elf_info *info)
{
	const unsigned char *end = in->file + in->file_size;
	size_t i;

	FZ_ASSERT(info->ntext <= SF_MAX_TEXT);
	for (i = 0; i < info->ntext; i++)
		FZ_ASSERT(info->text[i].start < info->text[i].end);
	for (i = 0; i < info->nsyms; i++) {
		const struct sf_symbol *s = &info->syms[i];
		const unsigned char *nm = (const unsigned char *)s->name;

		if (nm >= in->file && nm < end) {
			FZ_ASSERT(memchr(nm, 0, (size_t)(end - nm)) != NULL);
		} else {
			size_t len;

			/* (ASan checks that the string ends inside the allocation.) */
			FZ_ASSERT(info->names && s->name >= info->names);
			len = strlen(s->name);
			FZ_ASSERT(len >= 4 && strcmp(s->name + len - 4, "@plt") == 0);
		}
		FZ_ASSERT(s->addr < s->end);
		FZ_ASSERT(s->size == 0 || s->end - s->addr <= s->size);
		if (i > 0)
			FZ_ASSERT(cmp_syms(&info->syms[i - 1], s) <= 0);
	}
	for (i = 0; i < info->nsyms && i < 64; i++) {
		const struct sf_symbol *s = &info->syms[i];
		uint64_t probe[3] = { s->addr, s->addr + (s->size ? s->size - 1 : 0),
				      s->addr + s->size };
		unsigned int k;

		for (k = 0; k < 3; k++) {
			const struct sf_symbol *f = sf_symbol_find(info, probe[k]);

			if (!f)
				continue;
			FZ_ASSERT(f >= info->syms && f < info->syms + info->nsyms);
			FZ_ASSERT(f->addr <= probe[k] && probe[k] < f->end);
			FZ_ASSERT(f->size == 0 || probe[k] - f->addr < f->size);
		}
	}
}

/* Whether byte @i of a file planned by @p may differ in its copy. */
static bool may_differ(uint64_t i, const struct sf_elf_add_plan *p)
{
	if ((i >= 32 && i < 48) || (i >= 56 && i < 58) || (i >= 60 && i < 62))
		return true;	/* e_phoff, e_shoff, e_phnum, e_shnum */
	if (p->in_place && i - p->phoff < p->new_phnum * p->phentsize)
		return true;
	return p->old_sh_sframe != SF_ELF_ADD_NONE &&
	       i - p->sh.shoff - p->old_sh_sframe * p->sh.shentsize < p->sh.shentsize;
}

/* The copy with a new .sframe of 13 bytes (of no meaning: only placed). */
static void check_elf_add(const uint8_t *data, size_t size, bool replace)
{
	static const unsigned char sec[13] = "fuzz-sframe!";
	struct sf_elf_add_plan p;
	struct sf_elf_phdrs ph;
	struct sf_elf_segment seg;
	unsigned char *img;
	char err[512];
	size_t n, i;
	uint64_t k, found = 0;

	memset(err, 0x5a, sizeof(err));
	if (sf_elf_add_plan(data, size, replace, &p, "in", err, sizeof(err))) {
		FZ_ASSERT(memchr(err, 0, sizeof(err)) != NULL && err[0] != '\0');
		return;
	}
	FZ_ASSERT(p.seg_offset >= size && p.sframe_offset >= p.seg_offset);
	FZ_ASSERT(p.in_place == (p.sframe_offset == p.seg_offset));
	FZ_ASSERT(p.sframe_addr - p.seg_vaddr == p.sframe_offset - p.seg_offset);
	FZ_ASSERT(p.seg_vaddr % p.seg_align == p.seg_offset % p.seg_align);
	FZ_ASSERT(p.sframe_addr < SF_ELF_ADD_ADDR_LIMIT);
	img = sf_elf_add_image(data, &p, sec, sizeof(sec), &n, "out", err, sizeof(err));
	if (!img)
		return;		/* too large a copy for this process */
	FZ_ASSERT(n >= p.sframe_offset + sizeof(sec));
	for (i = 0; i < size; i++)
		FZ_ASSERT(img[i] == data[i] || may_differ(i, &p));
	FZ_ASSERT(memcmp(img + p.sframe_offset, sec, sizeof(sec)) == 0);
	FZ_ASSERT(sf_elf_phdrs_read(img, n, &ph, err, sizeof(err)) == 0);
	FZ_ASSERT(ph.phoff == (p.in_place ? p.phoff : p.seg_offset) && ph.phnum == p.new_phnum);
	for (k = 0; k < ph.phnum; k++) {
		sf_elf_segment_get(img, &ph, k, &seg);
		if (seg.type != SFRAME_PT_GNU_SFRAME)
			continue;
		if (!found++) {
			FZ_ASSERT(seg.offset == p.sframe_offset && seg.vaddr == p.sframe_addr);
			FZ_ASSERT(seg.filesz == sizeof(sec));
		}
	}
	FZ_ASSERT(found >= 1);
	sf_elf_segment_get(img, &ph, p.last_load + 1, &seg);
	FZ_ASSERT(seg.type == 1 /* PT_LOAD */ && seg.offset == p.seg_offset &&
		  seg.vaddr == p.seg_vaddr && seg.filesz == p.sframe_offset - p.seg_offset +
		  sizeof(sec));
	free(img);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sf_input in, in2;
	struct sf_elf_info info;
	char err[512];
	int ret;

	check_elf_add(data, size, false);
	check_elf_add(data, size, true);
	put_file(data, size);
	memset(err, 0x5a, sizeof(err));
	ret = sf_input_load(mem_path, 0, 0, &in, err, sizeof(err));
	FZ_ASSERT(ret == SF_INPUT_OK || ret == SF_INPUT_EFORMAT);
	FZ_ASSERT(memchr(err, 0, sizeof(err)) != NULL);
	if (ret) {
		FZ_ASSERT(err[0] != '\0');
		FZ_ASSERT(all_zero(&in, sizeof(in)));
		return 0;
	}
	FZ_ASSERT(in.file_size == size && (size == 0 || memcmp(in.file, data, size) == 0));
	FZ_ASSERT(in.how != NULL);
	if (strcmp(in.how, "raw") == 0) {
		FZ_ASSERT(in.sec == in.file && in.sec_size == in.file_size && in.vaddr == 0);
		FZ_ASSERT(!in.owned_copy && !in.is_rel);
	} else {
		FZ_ASSERT(strcmp(in.how, "section") == 0 || strcmp(in.how, "segment") == 0);
		FZ_ASSERT(in.sec_size <= in.file_size);
		if (in.owned_copy) {
			FZ_ASSERT(in.sec == in.owned_copy);
			FZ_ASSERT(in.is_rel && strcmp(in.how, "section") == 0);
		} else {
			FZ_ASSERT(in.sec >= in.file && in.sec <= in.file + in.file_size);
			FZ_ASSERT(in.sec_size <= (uint64_t)(in.file + in.file_size - in.sec));
		}
	}
	check_section(&in);

	/* A --vaddr override: the same bytes at another address. */
	FZ_ASSERT(sf_input_load(mem_path, 1, 0x12345000, &in2, err, sizeof(err)) == SF_INPUT_OK);
	FZ_ASSERT(in2.vaddr == 0x12345000 && in2.sec_size == in.sec_size);
	FZ_ASSERT(strcmp(in2.how, in.how) == 0);
	FZ_ASSERT(in.sec_size == 0 || memcmp(in2.sec, in.sec, (size_t)in.sec_size) == 0);
	sf_input_free(&in2);
	FZ_ASSERT(all_zero(&in2, sizeof(in2)));

	if (strcmp(in.how, "raw") != 0) {
		if (sf_elf_info_load(&in, &info, err, sizeof(err)) == 0) {
			check_info(&in, &info);
			sf_elf_info_free(&info);
		} else {
			FZ_ASSERT(info.syms == NULL && info.nsyms == 0);
		}
	}
	sf_input_free(&in);
	return 0;
}
