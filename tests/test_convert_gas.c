/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_convert_gas.c - gas as the oracle of the DWARF-CFI-to-SFrame
 * converter.
 *
 * Every fixture ELF file was assembled with -Wa,--gsframe: gas wrote its
 * .sframe from the same CFI directives it wrote .eh_frame from (binutils
 * 2.40 v1, 2.44 v2, 2.47.50 v3). So the converter, given the file's
 * .eh_frame, must say what gas said, for every function gas described and at
 * every byte of it: sframe_lookup() of gas's section and of the
 * converted one give the same CFA (register, dereference, offset), RA and FP
 * rules, the same RA-undefined and mangled-RA bits, the same signal bit (when
 * gas's section is v3: earlier versions have none), and on AArch64 the same
 * PAuth key (sframe_lookup()'s FDE). The converted section also covers every
 * function gas covered; the functions it describes beyond gas's (glibc's
 * assembly in the static programs, built without --gsframe; the PLT on
 * AArch64) are counted and printed.
 *
 * The conversion runs twice, as v3 and as v2. v2 has no FLEX FDEs: the
 * functions gas described with FLEX rows may be missing from it, but
 * every one of gas's DEFAULT FDEs must be there; wherever both have a row,
 * they must agree (but for the signal bit v2 cannot carry).
 *
 * Where gas's section and the converted one disagree, DWARF decides
 * (readelf -wF FILE shows its rows). Gas has a few known bugs; each place
 * where gas's section contradicts DWARF is listed in gas_quirks[] below with
 * the file, the PC range, the field that differs and why: a mismatch
 * passes only when an entry names its PC and field, and every entry must
 * be used.
 *
 * The files are read by a minimal ELF64 section-header reader (either byte
 * order): .sframe, .eh_frame, .debug_frame and the executable PT_LOAD
 * segments (the converter's text ranges). The converted section is placed
 * at the first page after the last segment.
 *
 * Usage: test_convert_gas FIXTURES_DIR
 */
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
#include <sframe/sframe_convert.h>

#include "read/cfi_input.h"
#include "read/elf_input.h"

static const char *fixtures;

/* The linked files: v{1,2,3}-ARCH/{exe,lib.so} and unwind/v*-ARCH/unwind. */
static const char *const files[] = {
	"v1-x86_64/exe", "v1-x86_64/lib.so",
	"v1-aarch64/exe", "v1-aarch64/lib.so",
	"v2-x86_64/exe", "v2-x86_64/lib.so",
	"v2-aarch64/exe", "v2-aarch64/lib.so",
	"v3-x86_64/exe", "v3-x86_64/lib.so",
	"v3-aarch64/exe", "v3-aarch64/lib.so",
	"v3-s390x/exe", "v3-s390x/lib.so",
	"unwind/v1-x86_64/unwind", "unwind/v1-aarch64/unwind",
	"unwind/v2-x86_64/unwind", "unwind/v2-aarch64/unwind",
	"unwind/v3-x86_64/unwind", "unwind/v3-aarch64/unwind",
	"unwind/v3-s390x/unwind",
	/* Relocatable objects: .eh_frame and .sframe relocated by the tool's
	 * loaders (cfi_input.c, elf_input.c), every section at 0. */
	"v1-x86_64/cfi.o", "v1-aarch64/cfi.o", "v2-x86_64/cfi.o", "v2-aarch64/cfi.o",
	"v3-x86_64/cfi.o", "v3-aarch64/cfi.o",
	"v1-x86_64/frames.o", "v1-aarch64/frames.o", "v2-x86_64/frames.o",
	"v2-aarch64/frames.o", "v3-x86_64/frames.o", "v3-aarch64/frames.o",
	"v3-s390x/frames.o",
	"v1-aarch64/omitfp.o", "v3-aarch64/omitfp.o",
};

/* ---- Known gas bugs: where gas's .sframe contradicts the DWARF CFI ---------- */

/* Fields of a row that can differ. */
enum {
	F_CFA = 1 << 0,		/* register, dereference, offset */
	F_RA = 1 << 1,
	F_FP = 1 << 2,
	F_UNDEF = 1 << 3,	/* ra_undefined */
	F_MANGLED = 1 << 4,
	F_SIGNAL = 1 << 5,
	F_KEY = 1 << 6,		/* the FDE's PAuth key */
	F_MISSING = 1 << 7,	/* gas has a row, the conversion none */
};

/*
 * One place where binutils' section contradicts DWARF: @file, the PCs
 * [@start, @end), the fields that may differ there (only those), what
 * readelf -wF FILE says the row is (@dwarf, as fmt_rules() prints it: the
 * converted row must be exactly that), and why.
 */
struct quirk {
	const char *file;
	uint64_t start;
	uint64_t end;
	unsigned fields;
	const char *dwarf;
	const char *why;
	unsigned used;
};

/* gas 2.40 and 2.44 drop .cfi_undefined of the RA (cfi-*.s's outermost()). */
#define UNDEF_RA "gas 2.40/2.44 ignore .cfi_undefined of the RA column: no RA-undefined row"
/* GNU ld 2.44 and 2.47 describe .plt.got (one jmp *GOT(%rip), 8 bytes) as
 * the lazy PLT's sp+16 block; its .eh_frame FDE has no instructions: the
 * CIE's CFA rsp+8, which a jmp keeps. */
#define PLT_GOT "ld 2.44/2.47 write sp+16 for .plt.got; its DWARF FDE (and the jmp) say rsp+8"

static struct quirk gas_quirks[] = {
	{ "v1-x86_64/exe", 0x255ca, 0x255d2, F_CFA | F_RA | F_UNDEF, "RA undefined", UNDEF_RA, 0 },
	{ "v1-x86_64/lib.so", 0x2b6ba, 0x2b6c2, F_CFA | F_RA | F_UNDEF, "RA undefined", UNDEF_RA, 0 },
	{ "v1-x86_64/cfi.o", 0x1d, 0x25, F_CFA | F_RA | F_UNDEF, "RA undefined", UNDEF_RA, 0 },
	{ "v1-aarch64/exe", 0x20ca4, 0x20cb0, F_CFA | F_RA | F_UNDEF, "RA undefined", UNDEF_RA, 0 },
	{ "v1-aarch64/lib.so", 0x24ffc, 0x25008, F_CFA | F_RA | F_UNDEF, "RA undefined", UNDEF_RA, 0 },
	{ "v2-x86_64/exe", 0x255da, 0x255e2, F_CFA | F_RA | F_UNDEF, "RA undefined", UNDEF_RA, 0 },
	{ "v2-x86_64/lib.so", 0x2b6ea, 0x2b6f2, F_CFA | F_RA | F_UNDEF, "RA undefined", UNDEF_RA, 0 },
	{ "v2-x86_64/cfi.o", 0x1d, 0x25, F_CFA | F_RA | F_UNDEF, "RA undefined", UNDEF_RA, 0 },
	{ "v2-aarch64/exe", 0x20cf4, 0x20d00, F_CFA | F_RA | F_UNDEF, "RA undefined", UNDEF_RA, 0 },
	{ "v2-aarch64/lib.so", 0x2500c, 0x25018, F_CFA | F_RA | F_UNDEF, "RA undefined", UNDEF_RA, 0 },
	{ "v1-aarch64/cfi.o", 0x30, 0x3c, F_CFA | F_RA | F_UNDEF, "RA undefined", UNDEF_RA, 0 },
	{ "v2-aarch64/cfi.o", 0x30, 0x3c, F_CFA | F_RA | F_UNDEF, "RA undefined", UNDEF_RA, 0 },
	{ "v2-x86_64/exe", 0x1050, 0x1058, F_CFA, "cfa r7+8 ra c-8 fp u", PLT_GOT, 0 },
	{ "v2-x86_64/lib.so", 0x1120, 0x1128, F_CFA, "cfa r7+8 ra c-8 fp u", PLT_GOT, 0 },
	{ "v3-x86_64/exe", 0x1050, 0x1058, F_CFA, "cfa r7+8 ra c-8 fp u", PLT_GOT, 0 },
	{ "v3-x86_64/lib.so", 0x1120, 0x1128, F_CFA, "cfa r7+8 ra c-8 fp u", PLT_GOT, 0 },
	{ NULL, 0, 0, 0, NULL, NULL, 0 },
};

/* The quirk that allows @fields to differ at @pc of @file, or NULL. */
static struct quirk *find_quirk(const char *file, uint64_t pc, unsigned fields)
{
	struct quirk *q;

	for (q = gas_quirks; q->file; q++) {
		if (!strcmp(q->file, file) && pc >= q->start && pc < q->end &&
		    !(fields & ~q->fields))
			return q;
	}
	return NULL;
}

/* ---- A minimal ELF64 reader ------------------------------------------------------ */

struct elf {
	unsigned char *data;
	size_t size;
	bool be;
	uint16_t machine;
	uint16_t type;
	struct sframe_cfi_bytes sframe;		/* .sframe: bytes and sh_addr */
	struct sframe_cfi_bytes eh_frame;
	struct sframe_cfi_bytes debug_frame;
	struct sframe_addr_range text[16];
	size_t ntext;
	uint64_t end;				/* the end of the last PT_LOAD */
};

static uint64_t get(const struct elf *e, uint64_t off, unsigned width)
{
	uint64_t v = 0;
	unsigned i;

	assert_true(off <= e->size && width <= e->size - off);
	for (i = 0; i < width; i++) {
		unsigned b = e->data[off + (e->be ? i : width - 1 - i)];

		v = v << 8 | b;
	}
	return v;
}

static void load_elf(const char *path, struct elf *e)
{
	uint64_t shoff, phoff, shstr_off, i;
	unsigned shnum, phnum, shstrndx;
	FILE *f;
	long n;

	memset(e, 0, sizeof(*e));
	f = fopen(path, "rb");
	if (!f)
		fail_msg("%s: cannot open", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 64);
	assert_int_equal(fseek(f, 0, SEEK_SET), 0);
	e->size = (size_t)n;
	e->data = malloc(e->size);
	assert_non_null(e->data);
	assert_int_equal(fread(e->data, 1, e->size, f), e->size);
	fclose(f);

	assert_memory_equal(e->data, "\177ELF", 4);
	assert_int_equal(e->data[4], 2);	/* ELFCLASS64 */
	e->be = e->data[5] == 2;
	e->type = (uint16_t)get(e, 16, 2);
	e->machine = (uint16_t)get(e, 18, 2);
	phoff = get(e, 32, 8);
	shoff = get(e, 40, 8);
	phnum = (unsigned)get(e, 56, 2);
	shnum = (unsigned)get(e, 60, 2);
	shstrndx = (unsigned)get(e, 62, 2);
	assert_int_equal(get(e, 54, 2), 56);
	assert_int_equal(get(e, 58, 2), 64);

	for (i = 0; i < phnum; i++) {
		uint64_t ph = phoff + i * 56;
		uint32_t type = (uint32_t)get(e, ph, 4), flags = (uint32_t)get(e, ph + 4, 4);
		uint64_t vaddr = get(e, ph + 16, 8), memsz = get(e, ph + 40, 8);

		if (type != 1)	/* PT_LOAD */
			continue;
		if (vaddr + memsz > e->end)
			e->end = vaddr + memsz;
		if (flags & 1) {	/* PF_X */
			assert_true(e->ntext < 16);
			e->text[e->ntext].start = vaddr;
			e->text[e->ntext].end = vaddr + memsz;
			e->ntext++;
		}
	}

	assert_true(shstrndx < shnum);
	shstr_off = get(e, shoff + shstrndx * 64ull + 24, 8);
	for (i = 0; i < shnum; i++) {
		uint64_t sh = shoff + i * 64;
		uint64_t name = get(e, sh, 4), type = get(e, sh + 4, 4);
		uint64_t addr = get(e, sh + 16, 8), off = get(e, sh + 24, 8), size = get(e, sh + 32, 8);
		const char *nm = (const char *)e->data + shstr_off + name;
		struct sframe_cfi_bytes *b = NULL;

		assert_true(shstr_off + name < e->size);
		if (!strcmp(nm, ".sframe"))
			b = &e->sframe;
		else if (!strcmp(nm, ".eh_frame"))
			b = &e->eh_frame;
		else if (!strcmp(nm, ".debug_frame"))
			b = &e->debug_frame;
		if (!b || type == 8)	/* SHT_NOBITS */
			continue;
		assert_true(off <= e->size && size <= e->size - off);
		b->data = e->data + off;
		b->size = size;
		b->addr = addr;
	}
}

/* ---- Comparing rows ---------------------------------------------------------------- */

static void fmt_loc(char *buf, size_t len, const struct sframe_loc *l)
{
	switch (l->kind) {
	case SFRAME_LOC_UNDEFINED:
		snprintf(buf, len, "undef");
		break;
	case SFRAME_LOC_SAME:
		snprintf(buf, len, "u");
		break;
	case SFRAME_LOC_CFA:
		snprintf(buf, len, l->deref ? "c%+d" : "=c%+d", l->offset);
		break;
	default:
		if (l->deref)
			snprintf(buf, len, "*(r%u%+d)", l->reg, l->offset);
		else if (l->offset)
			snprintf(buf, len, "=r%u%+d", l->reg, l->offset);
		else
			snprintf(buf, len, "r%u", l->reg);
		break;
	}
}

static void fmt_rules(char *buf, size_t len, const struct sframe_rules *r, int key)
{
	char ra[40], fp[40];

	if (r->ra_undefined) {
		snprintf(buf, len, "RA undefined%s", r->signal ? " S" : "");
		return;
	}
	fmt_loc(ra, sizeof(ra), &r->ra);
	fmt_loc(fp, sizeof(fp), &r->fp);
	snprintf(buf, len, "cfa %sr%u%+d ra %s%s fp %s%s%s", r->cfa.deref ? "*" : "", r->cfa.reg,
		 r->cfa.offset, ra, r->ra_mangled ? "[m]" : "", fp, r->signal ? " S" : "",
		 key < 0 ? "" : key ? " keyB" : "");
}

static bool loc_eq(const struct sframe_loc *a, const struct sframe_loc *b)
{
	return a->kind == b->kind && a->deref == b->deref && a->reg == b->reg &&
	       a->offset == b->offset;
}

/* The fields in which two rows differ. */
static unsigned row_diff(const struct sframe_row *g, const struct sframe_row *c, bool signal,
			 bool key)
{
	const struct sframe_rules *a = &g->rules, *b = &c->rules;
	unsigned d = 0;

	if (a->ra_undefined != b->ra_undefined)
		d |= F_UNDEF;
	if (!a->ra_undefined || !b->ra_undefined) {
		if (a->cfa.reg != b->cfa.reg || a->cfa.deref != b->cfa.deref ||
		    a->cfa.offset != b->cfa.offset)
			d |= F_CFA;
		if (!loc_eq(&a->ra, &b->ra))
			d |= F_RA;
		if (!loc_eq(&a->fp, &b->fp))
			d |= F_FP;
		if (a->ra_mangled != b->ra_mangled)
			d |= F_MANGLED;
	}
	if (signal && a->signal != b->signal)
		d |= F_SIGNAL;
	if (key && g->fde.pauth_key != c->fde.pauth_key)
		d |= F_KEY;
	return d;
}

/* What one comparison counted. */
struct tally {
	unsigned long fdes;		/* gas FDEs compared */
	unsigned long pcs;		/* PCs where both have a row */
	unsigned long gas_no_row;	/* PCs of gas FDEs without a gas row */
	unsigned long mismatches;	/* differing PCs no quirk explains */
	unsigned long quirk_pcs;	/* differing PCs a quirk explains */
	unsigned long missing;		/* PCs gas describes and the conversion not */
	unsigned long extra_fdes;	/* converted FDEs gas has no FDE for */
	unsigned long extra_bytes;
	unsigned long ambiguous;	/* gas FDEs overlapping another (.o) */
	unsigned long printed;
};

/*
 * In a relocatable object every code section starts at 0: functions of two
 * sections (frames.o's .text and .text.startup) overlap, and an address
 * cannot tell them apart. Such FDEs are not compared (the linked files
 * have the same functions apart).
 */
static bool overlaps_another(const struct sframe_section *gas, uint32_t i,
			     const struct sframe_fde *f)
{
	uint32_t j;

	for (j = 0; j < gas->num_fdes; j++) {
		struct sframe_fde g;

		if (j == i)
			continue;
		assert_int_equal(sframe_get_fde(gas, j, &g), 0);
		if (g.func_start < f->func_start + f->func_size &&
		    f->func_start < g.func_start + g.func_size)
			return true;
	}
	return false;
}

/*
 * Compare gas's section @gas with the converted @conv at every PC of every
 * gas FDE. @v2: @conv is a v2 conversion (FLEX functions may be missing).
 */
static void compare(const char *file, const struct sframe_section *gas,
		    const struct sframe_section *conv, bool v2, struct tally *t)
{
	const bool key = gas->abi == SFRAME_ABI_AARCH64_LE || gas->abi == SFRAME_ABI_AARCH64_BE;
	const bool signal = gas->version == SFRAME_VERSION_3 && !v2;
	uint32_t i;

	for (i = 0; i < gas->num_fdes; i++) {
		struct sframe_fde fde;
		uint64_t pc;
		bool may_miss;

		assert_int_equal(sframe_get_fde(gas, i, &fde), 0);
		may_miss = v2 && fde.fde_type == SFRAME_FDE_TYPE_FLEX;
		if (overlaps_another(gas, i, &fde)) {
			t->ambiguous++;
			continue;
		}
		t->fdes++;
		for (pc = fde.func_start; pc < fde.func_start + fde.func_size; pc++) {
			struct sframe_row g, c;
			char gs[160], cs[160];
			struct quirk *q;
			unsigned d;
			int ge, ce;

			ge = sframe_lookup(gas, pc, &g);
			ce = sframe_lookup(conv, pc, &c);
			if (ge == -SFRAME_ERR_NOT_FOUND) {
				t->gas_no_row++;
				continue;
			}
			assert_int_equal(ge, 0);
			if (ce == -SFRAME_ERR_NOT_FOUND && may_miss)
				continue;
			if (ce == -SFRAME_ERR_NOT_FOUND) {
				d = F_MISSING;
			} else {
				assert_int_equal(ce, 0);
				t->pcs++;
				d = row_diff(&g, &c, signal, key);
			}
			if (!d)
				continue;
			q = find_quirk(file, pc, d);
			if (q) {
				/* The converted row is DWARF's, as readelf -wF shows it. */
				fmt_rules(cs, sizeof(cs), &c.rules, -1);
				if (strcmp(cs, q->dwarf))
					fail_msg("%s: pc 0x%" PRIx64 ": converted \"%s\", DWARF \"%s\"",
						 file, pc, cs, q->dwarf);
				q->used++;
				t->quirk_pcs++;
				continue;
			}
			if (d & F_MISSING)
				t->missing++;
			t->mismatches++;
			if (t->printed++ < 40) {
				fmt_rules(gs, sizeof(gs), &g.rules, key ? g.fde.pauth_key : -1);
				if (ce)
					snprintf(cs, sizeof(cs), "no row (%s)", sframe_errname(ce));
				else
					fmt_rules(cs, sizeof(cs), &c.rules, key ? c.fde.pauth_key : -1);
				print_message("%s%s: pc 0x%" PRIx64 " (function 0x%" PRIx64
					      " +0x%" PRIx64 "), fields 0x%x\n    gas:       %s\n"
					      "    converted: %s\n", file, v2 ? " (v2)" : "", pc,
					      fde.func_start, pc - fde.func_start, d, gs, cs);
			}
		}
	}

	/* Converted functions gas has no FDE for. */
	for (i = 0; i < conv->num_fdes; i++) {
		struct sframe_fde fde;
		struct sframe_row g;
		int ge;

		assert_int_equal(sframe_get_fde(conv, i, &fde), 0);
		ge = sframe_lookup(gas, fde.func_start, &g);
		if (ge == 0 || (ge == -SFRAME_ERR_NOT_FOUND && g.fde.index != SFRAME_NO_INDEX))
			continue;
		t->extra_fdes++;
		t->extra_bytes += fde.func_size;
	}
}

/* Convert @base as @version into a new buffer; opened and checked into @sec. */
static uint8_t *convert(const struct sframe_convert_input *base, uint8_t version,
			struct sframe_section *sec, struct sframe_buffer *buf,
			struct sframe_convert_stats *st)
{
	struct sframe_convert_input in = *base;
	struct sframe_problem where;
	size_t size = 0, len = 0;
	uint8_t *out;
	int err;

	in.version = version;
	err = sframe_convert_size(&in, &size, NULL);
	if (err)
		fail_msg("sframe_convert_size: %s", sframe_convert_errname(err));
	out = malloc(size);
	assert_non_null(out);
	err = sframe_convert(&in, out, size, &len, st);
	if (err)
		fail_msg("sframe_convert: %s", sframe_convert_errname(err));
	assert_int_equal(sframe_open_buffer(sec, buf, out, len, in.sframe_addr), 0);
	assert_int_equal(sframe_check(sec, &where), 0);
	assert_int_equal(sec->version, version);
	return out;
}

static void print_stats(const char *what, const struct sframe_convert_stats *st)
{
	char skipped[512] = "";
	size_t n = 0;
	unsigned i;

	for (i = 0; i < SFRAME_SKIP_COUNT; i++) {
		if (st->skipped[i] && n < sizeof(skipped))
			n += (size_t)snprintf(skipped + n, sizeof(skipped) - n, " %s=%u",
					      sframe_convert_skip_name(i), st->skipped[i]);
	}
	print_message("  %s: %u CIEs, %u FDEs -> %u functions (%u FLEX, %u PCMASK, %u signal), "
		      "%u rows; left out:%s\n", what, st->cies, st->fdes, st->functions, st->flex,
		      st->pcmask, st->signal, st->rows, n ? skipped : " none");
}

static void print_tally(const char *file, const char *what, const struct tally *t)
{
	print_message("%s %s: %lu FDEs, %lu PCs compared, %lu mismatches, %lu PCs of known gas "
		      "bugs, %lu PCs without a gas row, %lu converted FDEs (%lu bytes) gas did "
		      "not have", file, what, t->fdes, t->pcs, t->mismatches, t->quirk_pcs,
		      t->gas_no_row, t->extra_fdes, t->extra_bytes);
	if (t->ambiguous)
		print_message(", %lu overlapping FDEs of the .o's sections not compared",
			      t->ambiguous);
	print_message("\n");
}

/*
 * A relocatable object: its .sframe relocated as sf_input_load() does it and
 * its .eh_frame as sf_cfi_input_load() does (every section at 0, so each
 * function at its offset in its own section), the converted section at 0.
 */
struct rel {
	struct sf_input sin;
	struct sf_input bytes;
	struct sf_cfi_input cfi;
};

static void load_rel(const char *path, struct rel *r, struct sframe_section *gas,
		     struct sframe_buffer *gb, struct sframe_convert_input *in)
{
	char err[512];

	memset(r, 0, sizeof(*r));
	if (sf_input_load(path, 0, 0, &r->sin, err, sizeof(err)) != SF_INPUT_OK)
		fail_msg("%s", err);
	assert_true(r->sin.is_rel);
	if (sf_input_bytes(path, &r->bytes, err, sizeof(err)) != SF_INPUT_OK)
		fail_msg("%s", err);
	if (sf_cfi_input_load(r->bytes.file, r->bytes.file_size, &r->cfi, path, err,
			      sizeof(err)) != SF_INPUT_OK)
		fail_msg("%s", err);
	assert_non_null(r->cfi.conv.eh_frame.data);
	assert_int_equal(sframe_open_buffer(gas, gb, r->sin.sec, r->sin.sec_size, r->sin.vaddr), 0);
	*in = r->cfi.conv;
	in->sframe_addr = 0;
}

static void free_rel(struct rel *r)
{
	sf_cfi_input_free(&r->cfi);
	sf_input_free(&r->bytes);
	sf_input_free(&r->sin);
}

static void test_file(void **state)
{
	const char *file = *state;
	const size_t flen = strlen(file);
	const bool is_rel = flen > 2 && !strcmp(file + flen - 2, ".o");
	struct sframe_convert_stats st3, st2;
	struct sframe_section gas, c3, c2;
	struct sframe_buffer gb, b3, b2;
	struct sframe_convert_input in = { 0 };
	struct sframe_problem where;
	struct tally t3 = { 0 }, t2 = { 0 };
	uint8_t *o3, *o2;
	char path[1024];
	struct elf e = { 0 };
	struct rel r;

	snprintf(path, sizeof(path), "%s/%s", fixtures, file);
	if (is_rel) {
		load_rel(path, &r, &gas, &gb, &in);
	} else {
		load_elf(path, &e);
		assert_non_null(e.sframe.data);
		assert_non_null(e.eh_frame.data);
		assert_int_equal(sframe_open_buffer(&gas, &gb, e.sframe.data, e.sframe.size,
						    e.sframe.addr), 0);
		in.eh_frame = e.eh_frame;
		in.debug_frame = e.debug_frame;
		in.machine = e.machine;
		in.big_endian = e.be;
		/* The first page after the last segment. */
		in.sframe_addr = (e.end + 0xfff) / 0x1000 * 0x1000;
		in.text = e.text;
		in.num_text = e.ntext;
	}
	assert_int_equal(sframe_check(&gas, &where), 0);
	assert_true(gas.num_fdes > 0);

	o3 = convert(&in, SFRAME_VERSION_3, &c3, &b3, &st3);
	compare(file, &gas, &c3, false, &t3);
	print_tally(file, "v3", &t3);
	print_stats("v3", &st3);

	o2 = convert(&in, SFRAME_VERSION_2, &c2, &b2, &st2);
	compare(file, &gas, &c2, true, &t2);
	print_tally(file, "v2", &t2);
	print_stats("v2", &st2);

	/* Every PC gas describes, the conversion describes as gas does (or a
	 * known gas bug), and there were PCs to compare. */
	assert_true(t3.pcs > 0);
	assert_int_equal(t3.mismatches, 0);
	assert_int_equal(t2.mismatches, 0);
	free(o3);
	free(o2);
	if (is_rel)
		free_rel(&r);
	free(e.data);
}

/* Every known gas bug must still be one: used by some PC. */
static void test_quirks_used(void **state)
{
	const struct quirk *q;
	bool ok = true;

	(void)state;
	for (q = gas_quirks; q->file; q++) {
		if (!q->used) {
			print_message("gas quirk not seen: %s [0x%" PRIx64 ", 0x%" PRIx64 "): %s\n",
				      q->file, q->start, q->end, q->why);
			ok = false;
		}
	}
	assert_true(ok);
}

int main(int argc, char **argv)
{
	enum { N = sizeof(files) / sizeof(files[0]) };
	struct CMUnitTest tests[N + 1];
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FIXTURES_DIR\n", argv[0]);
		return 2;
	}
	fixtures = argv[1];
	for (i = 0; i < N; i++) {
		tests[i].name = files[i];
		tests[i].test_func = test_file;
		tests[i].setup_func = NULL;
		tests[i].teardown_func = NULL;
		tests[i].initial_state = (void *)files[i];
	}
	tests[N].name = "gas-quirks-used";
	tests[N].test_func = test_quirks_used;
	tests[N].setup_func = NULL;
	tests[N].teardown_func = NULL;
	tests[N].initial_state = NULL;
	return _cmocka_run_group_tests("convert-gas", tests, N + 1, NULL, NULL);
}
