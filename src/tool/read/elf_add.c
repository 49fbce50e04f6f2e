/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * elf_add.c - a copy of an ELF64 file with .sframe in a new segment (see
 * elf_add.h).
 *
 * Every field of the input is read through elf_input.c's checked readers
 * (sf_elf_phdrs_read(), sf_elf_segment_get(), sf_elf_shtab_read(),
 * sf_elf_section_at(), sf_elf_section_find()); the byte ranges copied whole
 * (the program and section header tables, the name table) are ranges those
 * readers found inside the file, and the zeros after the program header
 * table are bounds-checked here; every sum of offsets or addresses taken
 * from the file is checked for overflow before use.
 *
 * Why the layout is what it is:
 *  - the program header table grows where it is when the bytes after it
 *    are zeros that nothing else claims and the same PT_LOAD maps them;
 *    otherwise (GNU ld and lld put .interp or notes right after it) it
 *    moves into the new segment, since loaders read it from memory
 *    (AT_PHDR, dl_iterate_phdr) and so it must lie in a PT_LOAD; PT_PHDR
 *    follows it;
 *  - the new segment starts above every other one, so the PT_LOAD entries
 *    stay in address order with it placed after the last of them, and one
 *    alignment unit of addresses above the page the last one ends in:
 *    binutils' strip and objcopy lay a segment that holds the program
 *    header table out anew, its start up to that much below where it was,
 *    and would otherwise map it over the last page of .bss;
 *  - its address minus its offset is the first segment's when that costs
 *    little padding: kernels before 5.18 computed AT_PHDR as the first
 *    segment's load address plus e_phoff, right only then;
 *  - the name table and section header table go at the end, outside every
 *    segment, where strip and objcopy expect them; the old ones stay
 *    where they were, unreferenced, so that no other byte moves.
 */
#include "read/elf_add.h"

#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sframe/sframe_format.h>

#include "read/elf_layout.h"

/* The name given to the new section, NUL included. */
static const char sframe_name[] = ".sframe";

/* @v rounded up to @a (a power of two); false when that wraps. */
static bool round_up(uint64_t v, uint64_t a, uint64_t *out)
{
	if (v > UINT64_MAX - (a - 1))
		return false;
	*out = (v + a - 1) & ~(a - 1);
	return true;
}

/* The PT_LOAD segments (where they end, their largest alignment, the first one). */
static int scan_segments(const unsigned char *file, const struct sf_elf_phdrs *ph,
			 bool replace, struct sf_elf_add_plan *p, struct sf_elf_loads *l,
			 const char *path, char *err, size_t errlen)
{
	uint64_t i;

	sf_elf_loads_init(l);
	p->old_ph_sframe = SF_ELF_ADD_NONE;
	for (i = 0; i < ph->phnum; i++) {
		struct sf_elf_segment seg;

		sf_elf_segment_get(file, ph, i, &seg);
		if (seg.type == SFRAME_PT_GNU_SFRAME && p->old_ph_sframe == SF_ELF_ADD_NONE) {
			if (!replace) {
				sf_errf(err, errlen, path, "it has SFrame already (a PT_GNU_SFRAME "
				        "segment); --force replaces it");
				return -1;
			}
			p->old_ph_sframe = i;
		}
		if (seg.type != PT_LOAD)
			continue;
		if (sf_elf_loads_add(l, &seg, i, path, err, errlen))
			return -1;
		/* The loaders' own demand: offsets and addresses agree modulo p_align. */
		if (seg.align > 1 && (seg.align & (seg.align - 1))) {
			sf_errf(err, errlen, path, "PT_LOAD segment %" PRIu64 " has an alignment "
			        "(0x%" PRIx64 ") that is not a power of two", i, seg.align);
			return -1;
		}
	}
	if (!l->any) {
		sf_errf(err, errlen, path, "no PT_LOAD segment: nothing to add one beside");
		return -1;
	}
	return 0;
}

/* The section headers: the .sframe to replace, the name table to grow. */
static int scan_sections(const unsigned char *file, size_t size, bool replace,
			 struct sf_elf_add_plan *p, const char *path, char *err, size_t errlen)
{
	struct sf_elf_section sec;
	int r;

	p->old_sh_sframe = SF_ELF_ADD_NONE;
	if (sf_elf_shtab_read(file, size, &p->sh, path, err, errlen))
		return -1;
	if (p->sh.shnum == 0)
		return 0;
	r = sf_elf_section_find(file, size, sframe_name, &sec, path, err, errlen);
	if (r < 0)
		return -1;
	if (r) {
		if (!replace) {
			sf_errf(err, errlen, path, "it has SFrame already (a .sframe section); "
			        "--force replaces it");
			return -1;
		}
		p->old_sh_sframe = sec.index;
		return 0;
	}
	if (p->sh.shstrndx == SHN_UNDEF) {
		sf_errf(err, errlen, path, "section headers without a section name table: the new "
		        ".sframe section could not be named");
		return -1;
	}
	if (sf_elf_section_at(file, size, p->sh.shstrndx, &sec, path, err, errlen))
		return -1;
	if (!sec.data || (sec.flags & SHF_ALLOC)) {
		sf_errf(err, errlen, path, "the section name table (section %" PRIu64 ") is %s: it "
		        "cannot be grown in a copy", sec.index,
		        sec.data ? "loaded (SHF_ALLOC)" : "not in the file (SHT_NOBITS)");
		return -1;
	}
	/* Grown by the new name at the end: more than 32 bits is no name table. */
	if (p->sh.shnum >= UINT32_MAX || sec.size > UINT32_MAX - sizeof(sframe_name)) {
		sf_errf(err, errlen, path, "too many sections, or a name table too large");
		return -1;
	}
	p->strtab_offset = sec.offset;
	p->strtab_size = sec.size;
	return 0;
}

/*
 * The new segment's offset and address, see the top of the file. @l->align
 * is a power of two of at least 4096 (scan_segments()).
 */
static int place_segment(struct sf_elf_add_plan *p, const struct sf_elf_loads *l,
			 const char *path, char *err, size_t errlen)
{
	uint64_t a = l->align, delta = l->first.vaddr - l->first.offset, top, past, v, o;

	if (!round_up(l->end, a, &top) || top > UINT64_MAX - a ||
	    !round_up(p->file_size, 4096, &o)) {
		sf_errf(err, errlen, path, "no address after the segments (they end at 0x%" PRIx64
		        ", aligned to 0x%" PRIx64 ")", l->end, a);
		return -1;
	}
	p->seg_align = a;
	top += a;
	/* Padded: V = O + delta, V past the segments, O past the file. */
	if (l->first.vaddr >= l->first.offset && delta % a == 0 &&
	    p->file_size <= UINT64_MAX - delta && round_up(p->file_size + delta, a, &past)) {
		v = past > top ? past : top;
		if (v - delta - p->file_size <= SF_ELF_ADD_PAD_MAX) {
			p->padded = true;
			p->seg_offset = v - delta;
			p->seg_vaddr = v;
			return 0;
		}
	}
	/* Compact: the file rounded to a page, the address congruent to it. */
	p->seg_offset = o;
	if (top > UINT64_MAX - (o % a)) {
		sf_errf(err, errlen, path, "no address after the segments (they end at 0x%" PRIx64
		        ")", l->end);
		return -1;
	}
	p->seg_vaddr = top + o % a;
	return 0;
}

/* Whether [@a, @a + @an) and [@b, @b + @bn) share a byte (sizes from a checked file). */
static bool overlap(uint64_t a, uint64_t an, uint64_t b, uint64_t bn)
{
	return an && bn && a < b + bn && b < a + an;
}

/*
 * Whether the table can grow in place to @p->new_phnum entries: the bytes
 * it grows over are in the file, zero, mapped by the PT_LOAD that maps the
 * table, and in no section, no other segment and not the section header
 * table.
 */
static bool room_in_place(const unsigned char *file, size_t size,
			  const struct sf_elf_phdrs *ph, const struct sf_elf_add_plan *p)
{
	uint64_t old_end = p->phoff + p->phnum * p->phentsize, end, i;
	struct sf_elf_section sec;
	bool loaded = false;
	char err[8];

	/* phoff + phnum * phentsize is inside the file (sf_elf_phdrs_read()). */
	if (p->phoff < sf_elf64_layout.ehsize || (p->new_phnum - p->phnum) * p->phentsize >
	    size - old_end)
		return false;
	end = p->phoff + p->new_phnum * p->phentsize;
	for (i = old_end; i < end; i++)
		if (file[i])
			return false;
	for (i = 0; i < ph->phnum; i++) {
		struct sf_elf_segment seg;

		sf_elf_segment_get(file, ph, i, &seg);
		if (seg.type == PT_LOAD && seg.offset <= p->phoff && seg.filesz <= size &&
		    seg.offset <= size - seg.filesz && end <= seg.offset + seg.filesz)
			loaded = true;
		/* Another segment's bytes, were they zeros (a second mapping too). */
		else if (seg.type != PT_PHDR && seg.offset <= size &&
			 overlap(old_end, end - old_end, seg.offset,
				 seg.filesz < size - seg.offset ? seg.filesz : size - seg.offset))
			return false;
	}
	if (!loaded)
		return false;
	if (p->sh.shnum && overlap(old_end, end - old_end, p->sh.shoff,
				   p->sh.shnum * p->sh.shentsize))
		return false;
	for (i = 0; i < p->sh.shnum; i++) {
		if (sf_elf_section_at(file, size, i, &sec, "", err, sizeof(err)))
			return false;
		if (sec.data && overlap(old_end, end - old_end, sec.offset, sec.size))
			return false;
	}
	return true;
}

int sf_elf_add_plan(const unsigned char *file, size_t size, bool replace,
		    struct sf_elf_add_plan *p, const char *path, char *err, size_t errlen)
{
	const uint64_t limit = SF_ELF_ADD_ADDR_LIMIT;
	struct sf_elf_phdrs ph;
	struct sf_elf_loads l;
	uint64_t table;
	char msg[256];

	memset(p, 0, sizeof(*p));
	if (sf_elf_phdrs_read(file, size, &ph, msg, sizeof(msg))) {
		sf_errf(err, errlen, path, "%s", msg);
		return -1;
	}
	if (!ph.is64) {
		sf_errf(err, errlen, path, "a 32-bit ELF file: only ELF64 files are written");
		return -1;
	}
	if (ph.type != ET_EXEC && ph.type != ET_DYN) {
		sf_errf(err, errlen, path, "%s: only executables and shared libraries get a "
		        "segment", ph.type == ET_REL ? "a relocatable object (link it first)"
		        : ph.type == ET_CORE ? "a core file" : "not an executable");
		return -1;
	}
	/* The header's own count, before sf_elf_phdrs_read() applied PN_XNUM. */
	if (sf_get_uint(file + sf_elf64_layout.e_phnum.off, 2, ph.be) == PN_XNUM ||
	    ph.phnum >= PN_XNUM - 2) {
		sf_errf(err, errlen, path, "too many program headers (extended numbering is not "
		        "written)");
		return -1;
	}
	if (ph.phnum == 0) {
		sf_errf(err, errlen, path, "no program headers: nothing is loaded from it");
		return -1;
	}
	p->be = ph.be;
	p->file_size = size;
	p->phoff = ph.phoff;
	p->phnum = ph.phnum;
	p->phentsize = ph.phentsize;
	if (scan_segments(file, &ph, replace, p, &l, path, err, errlen) ||
	    scan_sections(file, size, replace, p, path, err, errlen) ||
	    place_segment(p, &l, path, err, errlen))
		return -1;
	p->last_load = l.last;
	p->new_phnum = p->phnum + 1 + (p->old_ph_sframe == SF_ELF_ADD_NONE);
	/* new_phnum < 2^16 and phentsize < 2^16: no overflow. */
	p->in_place = room_in_place(file, size, &ph, p);
	table = p->in_place ? 0 : (p->new_phnum * p->phentsize + 7) & ~(uint64_t)7;
	if (p->seg_vaddr >= limit || table >= limit - p->seg_vaddr) {
		sf_errf(err, errlen, path, "no address for the new segment: it would start at 0x%"
		        PRIx64 ", past the segments, too close to the top of the user address "
		        "space (0x%" PRIx64 ")", p->seg_vaddr, limit);
		return -1;
	}
	p->sframe_offset = p->seg_offset + table;
	p->sframe_addr = p->seg_vaddr + table;
	return 0;
}

/* ---- The copy ----------------------------------------------------------------- */

/* One program header's fields, the rest of the entry left as it is. */
static void put_phdr(unsigned char *e, bool be, uint32_t type, uint32_t flags, uint64_t off,
		     uint64_t vaddr, uint64_t size, uint64_t align)
{
	const struct elf_layout *L = &sf_elf64_layout;

	sf_put_uint(e + L->p_type.off, L->p_type.width, be, type);
	sf_put_uint(e + L->p_flags.off, L->p_flags.width, be, flags);
	sf_put_uint(e + L->p_offset.off, L->p_offset.width, be, off);
	sf_put_uint(e + L->p_vaddr.off, L->p_vaddr.width, be, vaddr);
	sf_put_uint(e + L->p_paddr.off, L->p_paddr.width, be, vaddr);
	sf_put_uint(e + L->p_filesz.off, L->p_filesz.width, be, size);
	sf_put_uint(e + L->p_memsz.off, L->p_memsz.width, be, size);
	sf_put_uint(e + L->p_align.off, L->p_align.width, be, align);
}

/*
 * The program header table, moved or grown in place: the input's entries
 * in their order (read from @file, so that growing in place overwrites
 * nothing still to be read), the new PT_LOAD after the last PT_LOAD.
 */
static void write_phdrs(unsigned char *img, const unsigned char *file,
			const struct sf_elf_add_plan *p, uint64_t seg_size, uint64_t len)
{
	const struct elf_layout *L = &sf_elf64_layout;
	unsigned char *t = img + (p->in_place ? p->phoff : p->seg_offset), *e;
	uint64_t i, n = 0, table = p->new_phnum * p->phentsize;
	bool be = p->be;

	for (i = 0; i < p->phnum; i++) {
		e = t + n++ * p->phentsize;
		memcpy(e, file + p->phoff + i * p->phentsize, (size_t)p->phentsize);
		switch (sf_get_uint(e + L->p_type.off, L->p_type.width, be)) {
		case PT_PHDR:
			if (p->in_place) {
				sf_put_uint(e + L->p_filesz.off, L->p_filesz.width, be, table);
				sf_put_uint(e + L->p_memsz.off, L->p_memsz.width, be, table);
				break;
			}
			put_phdr(e, be, PT_PHDR, (uint32_t)sf_get_uint(e + L->p_flags.off,
				 L->p_flags.width, be), p->seg_offset, p->seg_vaddr, table, 8);
			break;
		case SFRAME_PT_GNU_SFRAME:
			if (i == p->old_ph_sframe)
				put_phdr(e, be, SFRAME_PT_GNU_SFRAME, PF_R, p->sframe_offset,
					 p->sframe_addr, len, 8);
			break;
		}
		if (i == p->last_load)
			put_phdr(t + n++ * p->phentsize, be, PT_LOAD, PF_R, p->seg_offset,
				 p->seg_vaddr, seg_size, p->seg_align);
	}
	if (p->old_ph_sframe == SF_ELF_ADD_NONE)
		put_phdr(t + n * p->phentsize, be, SFRAME_PT_GNU_SFRAME, PF_R, p->sframe_offset,
			 p->sframe_addr, len, 8);
}

/* The .sframe section header at @e (a new entry, or the one replaced). */
static void put_sframe_shdr(unsigned char *e, const struct sf_elf_add_plan *p, uint64_t len)
{
	const struct elf_layout *L = &sf_elf64_layout;
	bool be = p->be;

	sf_put_uint(e + L->sh_type.off, L->sh_type.width, be, SFRAME_SHT_GNU_SFRAME);
	sf_put_uint(e + L->sh_flags.off, L->sh_flags.width, be, SHF_ALLOC);
	sf_put_uint(e + L->sh_addr.off, L->sh_addr.width, be, p->sframe_addr);
	sf_put_uint(e + L->sh_offset.off, L->sh_offset.width, be, p->sframe_offset);
	sf_put_uint(e + L->sh_size.off, L->sh_size.width, be, len);
	sf_put_uint(e + L->sh_link.off, L->sh_link.width, be, 0);
	sf_put_uint(e + L->sh_info.off, L->sh_info.width, be, 0);
	sf_put_uint(e + L->sh_addralign.off, L->sh_addralign.width, be, 8);
	sf_put_uint(e + L->sh_entsize.off, L->sh_entsize.width, be, 0);
}

/*
 * The grown name table at @str_off and the section header table at
 * @sh_off of @img: the input's, then a .sframe section (@shnum counts it).
 */
static void append_shdrs(unsigned char *img, const unsigned char *file,
			 const struct sf_elf_add_plan *p, size_t len, uint64_t str_off,
			 uint64_t sh_off, uint64_t shnum)
{
	const struct elf_layout *L = &sf_elf64_layout;
	unsigned char *s0 = img + sh_off, *strh, *e;
	uint64_t old = p->sh.shnum * p->sh.shentsize;
	bool be = p->be;

	memcpy(img + str_off, file + p->strtab_offset, (size_t)p->strtab_size);
	memcpy(img + str_off + p->strtab_size, sframe_name, sizeof(sframe_name));
	memcpy(s0, file + p->sh.shoff, (size_t)old);
	strh = s0 + p->sh.shstrndx * p->sh.shentsize;
	sf_put_uint(strh + L->sh_offset.off, L->sh_offset.width, be, str_off);
	sf_put_uint(strh + L->sh_size.off, L->sh_size.width, be,
		    p->strtab_size + sizeof(sframe_name));
	e = s0 + old;
	sf_put_uint(e + L->sh_name.off, L->sh_name.width, be, p->strtab_size);
	put_sframe_shdr(e, p, len);
	sf_put_uint(img + L->e_shoff.off, L->e_shoff.width, be, sh_off);
	/* A count that no longer fits e_shnum goes to section 0 (extended numbering). */
	if (p->sh.ext_shnum || shnum >= SHN_LORESERVE) {
		sf_put_uint(img + L->e_shnum.off, L->e_shnum.width, be, 0);
		sf_put_uint(s0 + L->sh_size.off, L->sh_size.width, be, shnum);
	} else {
		sf_put_uint(img + L->e_shnum.off, L->e_shnum.width, be, shnum);
	}
}

unsigned char *sf_elf_add_image(const unsigned char *file, const struct sf_elf_add_plan *p,
				const void *sec, size_t len, size_t *out_size, const char *path,
				char *err, size_t errlen)
{
	const struct elf_layout *L = &sf_elf64_layout;
	uint64_t table = p->sframe_offset - p->seg_offset, seg_size, end, str_off = 0, sh_off;
	uint64_t shnum = p->sh.shnum, total;
	bool append = shnum && p->old_sh_sframe == SF_ELF_ADD_NONE, be = p->be;
	unsigned char *img;

	*out_size = 0;
	if (len > SF_ELF_ADD_ADDR_LIMIT - p->sframe_addr) {
		sf_errf(err, errlen, path, "a .sframe section of %zu bytes at 0x%" PRIx64 " would end "
		        "past the top of the user address space (0x%" PRIx64 ")", len, p->sframe_addr,
		        SF_ELF_ADD_ADDR_LIMIT);
		return NULL;
	}
	/* Every term below is under 2^47 or the file's own size. */
	seg_size = table + len;
	end = p->seg_offset + seg_size;
	sh_off = p->sh.shoff;
	if (append) {
		str_off = end;
		end = (str_off + p->strtab_size + sizeof(sframe_name) + 7) & ~(uint64_t)7;
		sh_off = end;
		shnum++;
		end += shnum * p->sh.shentsize;
	}
	total = end > p->file_size ? end : p->file_size;
	if (total > SIZE_MAX || !(img = calloc(1, (size_t)total))) {
		sf_errf(err, errlen, path, "out of memory (a copy of 0x%" PRIx64 " bytes)", total);
		return NULL;
	}
	memcpy(img, file, (size_t)p->file_size);

	write_phdrs(img, file, p, seg_size, len);
	memcpy(img + p->sframe_offset, sec, len);
	if (!p->in_place)
		sf_put_uint(img + L->e_phoff.off, L->e_phoff.width, be, p->seg_offset);
	sf_put_uint(img + L->e_phnum.off, L->e_phnum.width, be, p->new_phnum);

	if (append)
		append_shdrs(img, file, p, len, str_off, sh_off, shnum);
	else if (shnum)
		put_sframe_shdr(img + p->sh.shoff + p->old_sh_sframe * p->sh.shentsize, p, len);
	*out_size = (size_t)total;
	return img;
}
