/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * elf_rel.c - the relocations of a relocatable object, applied to a copy of
 * the section they are aimed at: a .o's .sframe, .eh_frame and
 * .debug_frame hold relocations where the linked file holds addresses, and
 * neither dump, lookup nor the converter can read them before they are
 * applied.
 */
#include "read/elf_file.h"

#include <elf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sframe/sframe_format.h>

#include "abi/tool_abi.h"

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

/* A REL or RELA section, checked against the file, and its symbol table. */
struct rel_table {
	bool rela;
	unsigned entsize;
	const unsigned char *rel;
	uint64_t nrel;
	const unsigned char *syms;
	uint64_t nsyms;
	char what[64];		/* "relocation section N", for messages */
};

/* The copy a relocation section is applied to: section @name, by @rule. */
struct rel_target {
	unsigned char *sec;
	uint64_t size;
	const char *name;
	bool be;
	enum reloc_rule rule;
};

/* Relocation section @rsh_idx (@rsh) and the symbol table it names, into @t. */
static int open_rel_table(const struct elf_file *ef, const struct elf_shdr *rsh, uint64_t rsh_idx,
			  struct rel_table *t, const char *path, char *err, size_t errlen)
{
	struct elf_shdr symsh;

	t->rela = rsh->type == SHT_RELA;
	t->entsize = t->rela ? ef->L->relaentsize : ef->L->relentsize;
	snprintf(t->what, sizeof(t->what), "relocation section %" PRIu64, rsh_idx);
	if (rsh->entsize != 0 && rsh->entsize != t->entsize) {
		sf_errf(err, errlen, path, "%s: unexpected entry size %" PRIu64, t->what,
		        rsh->entsize);
		return -1;
	}
	if (elf_section_bytes(ef, rsh, t->what, &t->rel, path, err, errlen))
		return -1;
	if (rsh->size % t->entsize != 0) {
		sf_errf(err, errlen, path, "%s: size 0x%" PRIx64 " is not a multiple of %u",
		        t->what, rsh->size, t->entsize);
		return -1;
	}
	t->nrel = rsh->size / t->entsize;
	if (rsh->link == 0 || rsh->link >= ef->shnum) {
		sf_errf(err, errlen, path, "%s: symbol table index %" PRIu32 " out of range",
		        t->what, rsh->link);
		return -1;
	}
	get_shdr(ef, rsh->link, &symsh);
	if (symsh.type != SHT_SYMTAB && symsh.type != SHT_DYNSYM) {
		sf_errf(err, errlen, path, "%s: section %" PRIu32 " is not a symbol table", t->what,
		        rsh->link);
		return -1;
	}
	if (elf_section_bytes(ef, &symsh, "symbol table", &t->syms, path, err, errlen))
		return -1;
	t->nsyms = symsh.size / ef->L->symentsize;
	return 0;
}

/*
 * The value entry @i of @t writes: its symbol's address plus its addend
 * (from the entry, or for REL from the field it relocates), less the
 * field's address P when @pcrel. Wrapping unsigned arithmetic: the caller
 * reads it back as two's complement.
 */
static uint64_t rel_value(const struct elf_file *ef, const struct rel_table *t, uint64_t i,
			  const struct rel_target *dst, uint64_t sym, unsigned width, bool pcrel)
{
	const unsigned char *r = t->rel + i * t->entsize;
	uint64_t r_offset = get(ef, r, ef->L->r_offset);
	int64_t addend;

	if (t->rela)
		addend = sign_extend(get(ef, r, ef->L->r_addend), ef->L->r_addend.width);
	else
		addend = sign_extend(sf_get_uint(dst->sec + r_offset, width, dst->be), width);
	return get(ef, t->syms + sym * ef->L->symentsize, ef->L->st_value) + (uint64_t)addend -
	       (pcrel ? r_offset : 0);
}

/*
 * Apply entry @i of @t to @dst.
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
static int apply_rel(const struct elf_file *ef, const struct rel_table *t, uint64_t i,
		     const struct rel_target *dst, const char *path, char *err, size_t errlen)
{
	const unsigned char *r = t->rel + i * t->entsize;
	uint64_t r_offset = get(ef, r, ef->L->r_offset), r_info = get(ef, r, ef->L->r_info);
	uint64_t sym = r_info >> ef->L->r_sym_shift, value;
	uint32_t type = (uint32_t)(r_info & (((uint64_t)1 << ef->L->r_sym_shift) - 1));
	bool type_pcrel, pcrel;
	int64_t result;
	int width = reloc_width(ef->machine, type, &type_pcrel);

	if (width < 0 || (width > 0 && dst->rule != RELOC_BY_TYPE && !type_pcrel)) {
		char m[32];

		sf_errf(err, errlen, path, "%s, entry %" PRIu64 ": unsupported relocation type %"
		        PRIu32 " for %s", t->what, i, type,
		        sf_machine_name(ef->machine, m, sizeof(m)));
		return -1;
	}
	if (width == 0)
		return 0;
	if (sym >= t->nsyms) {
		sf_errf(err, errlen, path, "%s, entry %" PRIu64 ": symbol index %" PRIu64
		        " out of range (%" PRIu64 " symbol%s)", t->what, i, sym, t->nsyms,
		        t->nsyms == 1 ? "" : "s");
		return -1;
	}
	if (!in_bounds(r_offset, (uint64_t)width, dst->size)) {
		sf_errf(err, errlen, path, "%s, entry %" PRIu64 ": offset 0x%" PRIx64
		        " outside the %s section (size 0x%" PRIx64 ")", t->what, i,
		        r_offset, dst->name, dst->size);
		return -1;
	}
	pcrel = dst->rule == RELOC_BY_TYPE ? type_pcrel : dst->rule == RELOC_SFRAME_PCREL;
	value = rel_value(ef, t, i, dst, sym, (unsigned)width, pcrel);
	result = sign_extend(value, 8);
	/* Signed fields for PC-relative types; either kind for absolute ones. */
	if (width == 4 && (result < INT32_MIN ||
			   result > (type_pcrel ? INT32_MAX : (int64_t)UINT32_MAX))) {
		sf_errf(err, errlen, path, "%s, entry %" PRIu64 ": value %" PRId64
		        " does not fit a 32-bit field", t->what, i, result);
		return -1;
	}
	sf_put_uint(dst->sec + r_offset, (unsigned)width, dst->be, value);
	return 0;
}

/* Apply one REL or RELA section to @sec (a copy of section @name), by @rule. */
static int apply_rel_section(const struct elf_file *ef, const struct elf_shdr *rsh, uint64_t rsh_idx,
			     unsigned char *sec, uint64_t sec_size, const char *name, bool sec_be,
			     enum reloc_rule rule, const char *path, char *err, size_t errlen)
{
	const struct rel_target dst = { sec, sec_size, name, sec_be, rule };
	struct rel_table t;
	uint64_t i;

	if (open_rel_table(ef, rsh, rsh_idx, &t, path, err, errlen))
		return -1;
	for (i = 0; i < t.nrel; i++)
		if (apply_rel(ef, &t, i, &dst, path, err, errlen))
			return -1;
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
int elf_relocate_sframe(const struct elf_file *ef, uint64_t sec_idx, struct sf_input *in,
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

int sf_elf_section_relocated(const unsigned char *file, size_t size,
			     const struct sf_elf_section *sec, const char *name,
			     unsigned char **copy, const char *path, char *err, size_t errlen)
{
	struct elf_file ef;

	*copy = NULL;
	if (elf_open_sections(&ef, file, size, path, err, errlen))
		return -1;
	if (ef.type != ET_REL || !sec->data)
		return 0;
	return relocate(&ef, sec->index, name, sec->data, sec->size, ef.be, RELOC_BY_TYPE, copy,
			path, err, errlen);
}

