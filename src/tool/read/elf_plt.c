/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * elf_plt.c - names for PLT entries ("puts@plt"), decoded from each entry's
 * instructions: a PLT slot has no symbol of its own, and a walk through a
 * call to a library stops in one often enough to name it as objdump and
 * gdb do.
 */
#include "read/elf_file.h"

#include <elf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/tool_abi.h"

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
int elf_add_plt_symbols(const struct elf_file *ef, const struct sec_range *secs,
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
			elf_add_symbol(info, &secs[pn.v[i].sec], pn.v[i].addr, pn.v[i].size,
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
