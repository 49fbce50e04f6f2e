/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * elf_peek.h - a few fields of ELF64 files of either byte order, read with
 * the offsets of the gABI written out here: the tests of "sframe convert"
 * check the tool's ELF reader and side-car writer (src/tool/) against it,
 * not against themselves. Trusting input: for fixtures and the tool's own
 * output only (every read is bounds-checked, but a bad file fails the test).
 */
#ifndef SFRAME_TEST_ELF_PEEK_H
#define SFRAME_TEST_ELF_PEEK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct peek_elf {
	const unsigned char *d;
	size_t n;
	bool be;
	uint8_t osabi;
	uint16_t type, machine;
	uint32_t flags;
	uint64_t phoff, shoff;
	uint16_t phnum, shnum, shstrndx;
};

struct peek_shdr {
	const char *name;
	uint32_t type;
	uint64_t flags, addr, offset, size, align;
};

struct peek_phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, filesz, memsz, align;
};

static inline uint64_t peek_u(const struct peek_elf *e, uint64_t off, unsigned w)
{
	uint64_t v = 0;
	unsigned i;

	if (off > e->n || w > e->n - off)
		return 0;
	for (i = 0; i < w; i++)
		v |= (uint64_t)e->d[off + (e->be ? i : w - 1 - i)] << (8 * (w - 1 - i));
	return v;
}

/* The ELF64 header of @d; false for anything else. */
static inline bool peek_open(struct peek_elf *e, const void *d, size_t n)
{
	memset(e, 0, sizeof(*e));
	e->d = d;
	e->n = n;
	if (n < 64 || memcmp(d, "\177ELF", 4) != 0 || e->d[4] != 2)
		return false;
	e->be = e->d[5] == 2;
	e->osabi = e->d[7];
	e->type = (uint16_t)peek_u(e, 16, 2);
	e->machine = (uint16_t)peek_u(e, 18, 2);
	e->phoff = peek_u(e, 32, 8);
	e->shoff = peek_u(e, 40, 8);
	e->flags = (uint32_t)peek_u(e, 48, 4);
	e->phnum = (uint16_t)peek_u(e, 56, 2);
	e->shnum = (uint16_t)peek_u(e, 60, 2);
	e->shstrndx = (uint16_t)peek_u(e, 62, 2);
	return true;
}

static inline void peek_shdr_at(const struct peek_elf *e, unsigned i, struct peek_shdr *s)
{
	uint64_t h = e->shoff + 64 * (uint64_t)i, str = e->shoff + 64 * (uint64_t)e->shstrndx;
	uint64_t name = peek_u(e, h, 4), stroff = peek_u(e, str + 24, 8);

	s->type = (uint32_t)peek_u(e, h + 4, 4);
	s->flags = peek_u(e, h + 8, 8);
	s->addr = peek_u(e, h + 16, 8);
	s->offset = peek_u(e, h + 24, 8);
	s->size = peek_u(e, h + 32, 8);
	s->align = peek_u(e, h + 48, 8);
	s->name = stroff + name < e->n ? (const char *)e->d + stroff + name : "";
}

/* The first section named @name. */
static inline bool peek_section(const struct peek_elf *e, const char *name, struct peek_shdr *s)
{
	unsigned i;

	/* Defined when not found too: callers assert, which may return. */
	memset(s, 0, sizeof(*s));
	for (i = 0; i < e->shnum; i++) {
		peek_shdr_at(e, i, s);
		if (strcmp(s->name, name) == 0)
			return true;
	}
	return false;
}

static inline void peek_phdr_at(const struct peek_elf *e, unsigned i, struct peek_phdr *p)
{
	uint64_t h = e->phoff + 56 * (uint64_t)i;

	p->type = (uint32_t)peek_u(e, h, 4);
	p->flags = (uint32_t)peek_u(e, h + 4, 4);
	p->offset = peek_u(e, h + 8, 8);
	p->vaddr = peek_u(e, h + 16, 8);
	p->filesz = peek_u(e, h + 32, 8);
	p->memsz = peek_u(e, h + 40, 8);
	p->align = peek_u(e, h + 48, 8);
}

/*
 * Where "sframe convert" puts .sframe by default: past every PT_LOAD,
 * rounded up to the largest p_align (at least 4096); 0 without PT_LOAD.
 */
static inline uint64_t peek_free_addr(const struct peek_elf *e)
{
	uint64_t end = 0, align = 4096;
	bool any = false;
	unsigned i;

	for (i = 0; i < e->phnum; i++) {
		struct peek_phdr p;

		peek_phdr_at(e, i, &p);
		if (p.type != 1)
			continue;
		any = true;
		if (p.vaddr + p.memsz > end)
			end = p.vaddr + p.memsz;
		if (p.align > align)
			align = p.align;
	}
	return any ? (end + align - 1) / align * align : 0;
}

#endif /* SFRAME_TEST_ELF_PEEK_H */
