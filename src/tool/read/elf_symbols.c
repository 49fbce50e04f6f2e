/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * elf_symbols.c - the names of addresses: function symbols, sorted and
 * chosen among aliases as eu-stack or perf choose them, so that the
 * frames the tools print name the functions those tools name.
 */
#include "read/elf_file.h"

#include <elf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Symbols and executable segments (for the unwind commands) ---------- */

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
void elf_add_symbol(struct sf_elf_info *info, const struct sec_range *sec, uint64_t addr,
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

/*
 * Section indices too large for st_shndx: in the SHT_SYMTAB_SHNDX section
 * of symbol table @idx, *@n of them; NULL (and *@n 0) without one.
 */
static const unsigned char *shndx_table(const struct elf_file *ef, uint64_t idx, uint64_t *n)
{
	uint64_t i;

	*n = 0;
	for (i = 1; i < ef->shnum; i++) {
		struct elf_shdr xs;

		get_shdr(ef, i, &xs);
		if (xs.type == SHT_SYMTAB_SHNDX && xs.link == idx) {
			if (!in_bounds(xs.offset, xs.size, ef->size))
				return NULL;
			*n = xs.size / 4;
			return ef->data + xs.offset;
		}
	}
	return NULL;
}

/* Function symbols of symbol table section @idx (room for all of them made here). */
static int load_symtab(const struct elf_file *ef, uint64_t idx, const struct sec_range *secs,
		       struct sf_elf_info *info, char *err, size_t errlen)
{
	unsigned entsize = ef->L->symentsize;
	const unsigned char *tab, *str, *xtab;
	struct elf_shdr sh, strsh;
	uint64_t n, i, nx;
	bool str_ends;

	get_shdr(ef, idx, &sh);
	if (sh.link >= ef->shnum) {
		sf_errf(err, errlen, "ELF", "symbol table string section %u out of range", sh.link);
		return -1;
	}
	get_shdr(ef, sh.link, &strsh);
	if (elf_section_bytes(ef, &sh, "symbol table", &tab, "ELF", err, errlen) ||
	    elf_section_bytes(ef, &strsh, "symbol string table", &str, "ELF", err, errlen))
		return -1;
	xtab = shndx_table(ef, idx, &nx);
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
		uint64_t name = get(ef, s, ef->L->st_name), value, size, shndx, rank;
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
		rank = bind == STB_LOCAL ? RANK_LOCAL : bind == STB_WEAK ? RANK_WEAK : 0;
		elf_add_symbol(info, &secs[shndx], value, size, rank | i, (const char *)str + name);
	}
	return 0;
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

/* The executable PT_LOAD segments (but those whose addresses wrap) into @info->text. */
static void load_text(const struct elf_file *ef, struct sf_elf_info *info)
{
	uint64_t i;

	if (!ef->phnum || !phdr_table_ok(ef))
		return;
	for (i = 0; i < ef->phnum && info->ntext < SF_MAX_TEXT; i++) {
		struct sf_elf_segment ph;

		get_phdr(ef, i, &ph);
		if (ph.type != PT_LOAD || !(ph.flags & PF_X) || ph.memsz == 0 ||
		    ph.vaddr > UINT64_MAX - ph.memsz)
			continue;
		info->text[info->ntext].start = ph.vaddr;
		info->text[info->ntext].end = ph.vaddr + ph.memsz;
		info->text[info->ntext].offset = ph.offset;
		info->ntext++;
	}
}

/* The symbol table the names come from: the first .symtab, else .dynsym; UINT64_MAX: none. */
static uint64_t find_symtab(const struct elf_file *ef, struct sf_elf_info *info)
{
	uint64_t i, symtab = UINT64_MAX, dynsym = UINT64_MAX;

	for (i = 0; i < ef->shnum; i++) {
		struct elf_shdr sh;

		get_shdr(ef, i, &sh);
		if (sh.type == SHT_SYMTAB && symtab == UINT64_MAX)
			symtab = i;
		else if (sh.type == SHT_DYNSYM && dynsym == UINT64_MAX)
			dynsym = i;
	}
	info->has_symtab = symtab != UINT64_MAX;
	return symtab != UINT64_MAX ? symtab : dynsym;
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
	uint64_t symtab;

	memset(info, 0, sizeof(*info));
	if (!sf_input_is_elf(in)) {
		sf_errf(err, errlen, "input", "not an ELF file");
		return -1;
	}
	memset(&ef, 0, sizeof(ef));
	ef.data = in->file;
	ef.size = in->file_size;
	if (elf_parse_ehdr(&ef, "ELF", err, errlen))
		return -1;
	info->machine = ef.machine;

	load_text(&ef, info);
	symtab = find_symtab(&ef, info);
	if (symtab == UINT64_MAX && ef.shnum == 0)
		return 0;
	secs = section_ranges(&ef);
	if (!secs) {
		sf_errf(err, errlen, "ELF", "out of memory");
		return -1;
	}
	if ((symtab != UINT64_MAX && load_symtab(&ef, symtab, secs, info, err, errlen)) ||
	    elf_add_plt_symbols(&ef, secs, info, err, errlen)) {
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
