/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_convert_dwarf.c - the converter (sframe_convert.h) against an
 * independent DWARF CFI evaluator: elfutils' libdw.
 *
 * For each ELF file (the stock Debian 12 programs and libraries below and
 * two libraries of Debian sid's, or the files named on the command line):
 *
 *   - its .eh_frame and .debug_frame bytes and addresses and its executable
 *     PT_LOAD ranges are read with libelf, and converted with
 *     sframe_convert_size() + sframe_convert() (v3; the machine from
 *     e_machine, the byte order from EI_DATA, the section placed on the
 *     first page after the last PT_LOAD); the result must open
 *     (sframe_open_buffer()) and pass sframe_check();
 *   - the DWARF FDEs are counted with dwarf_next_cfi() and their ranges
 *     decoded here (CIE augmentation 'R' pointer encodings): total, empty
 *     (no bytes, or a start of 0), outside the executable ranges,
 *     duplicates (a start inside an FDE before it in the converter's order,
 *     .eh_frame's then .debug_frame's); a DWARF FDE is "converted" when an
 *     SFrame FDE starts where it starts, and then the SFrame functions from
 *     there (one, or the PLT's two) must cover its range exactly.
 *     Coverage = converted / (total - empty - outside text - duplicates);
 *     below 99.5% fails;
 *   - for every SFrame FDE written (sframe_get_fde()) and EVERY byte address
 *     in [start, start + size), libdw's frame for that address
 *     (dwarf_cfi_addrframe() on .eh_frame, then on .debug_frame, the
 *     converter's order) is compared with sframe_lookup() on the
 *     converted section: the CFA (register, offset, dereference), the
 *     return address (dwarf_frame_info() names its column), the frame
 *     pointer (x86-64 6, AArch64 29, s390x 11), the RA-undefined mark, the
 *     signal-frame bit (CIE augmentation "S") and, on AArch64, the mangled
 *     RA bit. Any difference is a mismatch and fails the file.
 *
 * How libdw's answers are read (libdw.h, checked against elfutils 0.188):
 *   - dwarf_frame_cfa(): "reg + off" is one DW_OP_bregx reg, off; a
 *     DW_CFA_def_cfa_expression comes back as the expression's operations,
 *     evaluated here symbolically (registers plus constants, one
 *     DW_OP_deref): the x86-64 PLT's expression
 *     rsp + 8 + ((rip & 15) >= K) * 8 is evaluated at each PC (rip = PC),
 *     which is exactly what the PCMASK FDE must give; a stack-realigning
 *     "*(reg + off)" is a dereferenced CFA.
 *   - dwarf_frame_register(): no operations and a NULL pointer is "same
 *     value", no operations and a non-NULL pointer "undefined";
 *     DW_OP_call_frame_cfa [DW_OP_plus_uconst N] is offset(N), the value
 *     loaded from CFA + N, and with DW_OP_stack_value after it
 *     val_offset(N); DW_OP_regx R is register(R); expression rules come
 *     with DW_OP_call_frame_cfa pushed first (and val_expression rules
 *     with DW_OP_stack_value last). Registers the CFI never mentions get
 *     libdw's ABI defaults (same value for the callee-saved ones on all
 *     three machines); a frame pointer that libdw calls undefined is
 *     compared as "same" (SFrame has no undefined frame pointer).
 *   - AArch64 return-address signing: libdw 0.188 cannot say it. Its
 *     execute_cfi() (libdw/cfi.c) handles DW_CFA_AARCH64_negate_ra_state
 *     (0x2d, DW_CFA_GNU_window_save's number) on EM_AARCH64 with an empty
 *     branch ("XXX not handled yet"; Debian's patches leave it alone), and
 *     no public call returns the state: column 34 never gets a rule. So
 *     the mangled bit is compared with two readings of the same CFI that
 *     share no code with the converter nor with each other, and must equal
 *     both:
 *       . this test's own scan of the CIE's and the FDE's instruction bytes
 *         (the FDE's bounds from dwarf_next_cfi()) up to the PC, 0x2d
 *         toggling the state, remember_state / restore_state saving and
 *         restoring it as they do every rule (the AArch64 DWARF ABI makes
 *         the state pseudo-register 34, RA_SIGN_STATE; GCC's unwinder keeps
 *         it among the remembered registers);
 *       . binutils' readelf: its raw listing (readelf
 *         --debug-dump=frames, run once per AArch64 file) read here, each
 *         FDE's DW_CFA_AARCH64_negate_ra_state lines toggling the state at
 *         the address of the advance_loc before them ("... to ADDR"), with
 *         the same remember / restore rule. readelf decodes the pointers
 *         and the advances itself; its entry for an FDE is the one at the
 *         FDE's section offset, and must list the same start. PCs it says
 *         nothing about (no such entry, or an instruction this reading
 *         does not follow) count like libdw's unanswered ones: more than
 *         0.01% fails the file. Without readelf the file fails when
 *         SFRAME_TEST_REQUIRE_DWARF_FILES=1, and is checked against the
 *         scan alone otherwise (the report says so).
 *   - The stack pointer: where DWARF gives it a value rule (val_offset),
 *     it must be what SFrame assumes (CFA on x86-64 and AArch64, CFA - 160
 *     on s390x); a saved slot (s390x's stmg stores r15) or no rule is
 *     accepted.
 *
 * libdw interprets an FDE's instructions up to the PC it is asked about and
 * says which addresses its answer covers (dwarf_frame_info()'s [start,
 * end): up to the next DW_CFA_advance_loc or set_loc); every address in
 * that range is compared against that one answer, so libdw is asked once
 * per DWARF row rather than once per byte (--libdw-every-byte asks it at
 * every byte; both give the same comparisons, the second several times
 * slower). Addresses where libdw cannot answer although this test's own
 * FDE table has an FDE for them (a libdw error, an expression operation
 * the evaluator does not know) are counted and listed apart; more than
 * 0.01% of a file's compared PCs fails it. An SFrame row where no DWARF FDE
 * covers the PC is a mismatch.
 *
 * At the end a table: file, DWARF FDEs, converted, coverage, left out by
 * reason (sframe_convert_skip_name()).
 *
 * Debian 12's aarch64 libc signs no return address, so the mangled bit is
 * never set there; Debian sid's is built with return-address signing. Two
 * files from sid come too, a newer compiler's and glibc's output: the
 * libc.so.6 of sid's libc6-arm64-cross (thousands of negate_ra_state, the
 * mangled bit on most rows) and of libc6-s390x-cross (more functions that
 * keep the frame pointer or the stack pointer in a floating-point register,
 * DW_CFA_register: v3 FLEX rows with a register rule). They are not
 * installed but unpacked (dpkg-deb -x) into the directory that
 * SFRAME_TEST_SID_ROOT names; .ci/run fetches them with an apt state of its
 * own, leaving the machine's sources alone. Without that variable their
 * rows are skipped with the reason. Each file's report counts the PCs with
 * a signed RA and those whose RA or FP DWARF keeps in another register, so
 * that a log shows these forms were compared, not absent.
 *
 * A file that is missing is skipped with a message, unless the environment
 * sets SFRAME_TEST_REQUIRE_DWARF_FILES=1 (.ci/run does: CI installs or
 * fetches them all), which makes it a failure. Exit status 0 when every
 * file passed, 77 when none could be read, else 1; the last line says
 * which.
 *
 * Usage: test_convert_dwarf [--libdw-every-byte] [--version 2|3] [FILE...]
 * (--version 2 converts to v2, where functions that need FLEX are left
 * out: the coverage is printed, and the 99.5% floor is v3's only.)
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sframe/sframe.h>
#include <sframe/sframe_convert.h>

#ifndef HAVE_LIBDW

int main(void)
{
	printf("SKIP: built without libdw (elfutils; Debian package libdw-dev): "
	       "the converter is not compared with DWARF\n");
	return 77;
}

#else /* HAVE_LIBDW */

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define MIN_COVERAGE		99.5
#define MAX_UNANSWERED_PPM	100	/* 0.01% of the compared PCs */
#define MAX_DETAILS		10

/* The files under test: stock Debian binaries, and where they may be. */
struct target {
	const char *label;
	const char *package;
	const char *paths[4];
	/* Set: the paths are inside the directory this variable names. */
	const char *root_env;
};

static const struct target targets[] = {
	{ "libc.so.6 (x86-64)", "libc6",
	  { "/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6" }, NULL },
	{ "ld-linux-x86-64.so.2", "libc6",
	  { "/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
	    "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", "/lib64/ld-linux-x86-64.so.2" },
	  NULL },
	{ "libstdc++.so.6", "libstdc++6",
	  { "/usr/lib/x86_64-linux-gnu/libstdc++.so.6", "/lib/x86_64-linux-gnu/libstdc++.so.6" },
	  NULL },
	{ "libm.so.6", "libc6",
	  { "/lib/x86_64-linux-gnu/libm.so.6", "/usr/lib/x86_64-linux-gnu/libm.so.6" }, NULL },
	{ "libpython3.11.so.1.0", "libpython3.11",
	  { "/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0",
	    "/lib/x86_64-linux-gnu/libpython3.11.so.1.0" }, NULL },
	{ "bash", "bash", { "/bin/bash", "/usr/bin/bash" }, NULL },
	{ "python3.11", "python3.11-minimal", { "/usr/bin/python3.11", "/bin/python3.11" }, NULL },
	{ "perl", "perl-base", { "/usr/bin/perl", "/bin/perl" }, NULL },
	{ "libc.so.6 (aarch64)", "libc6-arm64-cross",
	  { "/usr/aarch64-linux-gnu/lib/libc.so.6" }, NULL },
	{ "libc.so.6 (s390x)", "libc6-s390x-cross",
	  { "/usr/s390x-linux-gnu/lib/libc.so.6" }, NULL },
	{ "libc.so.6 (aarch64, sid)", "libc6-arm64-cross from Debian sid",
	  { "/usr/aarch64-linux-gnu/lib/libc.so.6" }, "SFRAME_TEST_SID_ROOT" },
	{ "libc.so.6 (s390x, sid)", "libc6-s390x-cross from Debian sid",
	  { "/usr/s390x-linux-gnu/lib/libc.so.6" }, "SFRAME_TEST_SID_ROOT" },
};

#define NUM_TARGETS (sizeof(targets) / sizeof(targets[0]))

static bool every_byte;
static bool require_files;	/* SFRAME_TEST_REQUIRE_DWARF_FILES=1 */
static uint8_t out_version = SFRAME_VERSION_3;

/* ---- Small helpers ------------------------------------------------------------ */

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	return p;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Two's-complement reinterpretation without implementation-defined casts. */
static int64_t s64(uint64_t v)
{
	int64_t r;

	memcpy(&r, &v, sizeof(r));
	return r;
}

static bool fits_s32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

/* A byte reader over [p, end) in the file's byte order. */
struct cursor {
	const uint8_t *p;
	const uint8_t *end;
	bool be;
};

static bool rd_uint(struct cursor *c, unsigned int n, uint64_t *v)
{
	uint64_t r = 0;

	if ((size_t)(c->end - c->p) < n)
		return false;
	for (unsigned int i = 0; i < n; i++) {
		unsigned int k = c->be ? i : n - 1 - i;

		r = (r << 8) | c->p[k];
	}
	c->p += n;
	*v = r;
	return true;
}

static bool rd_uleb(struct cursor *c, uint64_t *v)
{
	uint64_t r = 0;
	unsigned int shift = 0;

	while (c->p < c->end) {
		uint8_t b = *c->p++;

		if (shift < 64)
			r |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			*v = r;
			return true;
		}
	}
	return false;
}

static bool rd_sleb(struct cursor *c, int64_t *v)
{
	uint64_t r = 0;
	unsigned int shift = 0;

	while (c->p < c->end) {
		uint8_t b = *c->p++;

		if (shift < 64)
			r |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				r |= ~(uint64_t)0 << shift;
			*v = s64(r);
			return true;
		}
	}
	return false;
}

static bool skip(struct cursor *c, uint64_t n)
{
	if ((uint64_t)(c->end - c->p) < n)
		return false;
	c->p += n;
	return true;
}

/* ---- The DWARF FDEs, decoded here ------------------------------------------- */

/* One CFI section as the file holds it. */
struct cfi_sec {
	const char *name;
	Elf_Data *data;		/* NULL: the file has none */
	uint64_t addr;		/* sh_addr */
	bool eh;
};

struct cie_info {
	uint64_t offset;
	uint64_t caf;		/* code alignment factor */
	uint8_t fde_enc;	/* 'R' */
	bool z;			/* augmentation data sized ("z...") */
	bool known;		/* the augmentation string was understood */
	bool b_key;		/* 'B': AArch64 return addresses signed with key B */
	size_t fde_aug_size;	/* without "z": libdw's count */
	const uint8_t *insns, *insns_end;
};

struct fde_info {
	uint64_t start, end;
	uint64_t off;		/* the entry's section offset */
	uint8_t sec;		/* 0 .eh_frame, 1 .debug_frame */
	uint32_t cie;		/* index into the file's CIEs */
	const uint8_t *insns, *insns_end;	/* NULL: could not be decoded */
};

struct dwarf_fdes {
	struct cie_info *cies;
	size_t num_cies;
	struct fde_info *fdes;
	size_t num_fdes;
	size_t per_sec[2];
	size_t undecoded;
	bool is64, be;
};

/* Read a pointer of DW_EH_PE encoding @enc; @field_addr is its own address. */
static bool rd_encoded(struct cursor *c, uint8_t enc, uint64_t field_addr, bool is64,
		       bool apply, uint64_t *val)
{
	uint64_t v = 0, base = 0;
	int64_t sv;

	if (enc == DW_EH_PE_omit || (enc & DW_EH_PE_indirect))
		return false;
	switch (enc & 0x0f) {
	case DW_EH_PE_absptr:
		if (!rd_uint(c, is64 ? 8 : 4, &v))
			return false;
		break;
	case DW_EH_PE_uleb128:
		if (!rd_uleb(c, &v))
			return false;
		break;
	case DW_EH_PE_udata2:
		if (!rd_uint(c, 2, &v))
			return false;
		break;
	case DW_EH_PE_udata4:
		if (!rd_uint(c, 4, &v))
			return false;
		break;
	case DW_EH_PE_udata8:
		if (!rd_uint(c, 8, &v))
			return false;
		break;
	case DW_EH_PE_sleb128:
		if (!rd_sleb(c, &sv))
			return false;
		v = (uint64_t)sv;
		break;
	case DW_EH_PE_sdata2:
		if (!rd_uint(c, 2, &v))
			return false;
		v = (uint64_t)(int64_t)(int16_t)(uint16_t)v;
		break;
	case DW_EH_PE_sdata4:
		if (!rd_uint(c, 4, &v))
			return false;
		v = (uint64_t)(int64_t)(int32_t)(uint32_t)v;
		break;
	case DW_EH_PE_sdata8:
		if (!rd_uint(c, 8, &v))
			return false;
		break;
	default:
		return false;
	}
	if (apply) {
		switch (enc & 0x70) {
		case DW_EH_PE_absptr:
			break;
		case DW_EH_PE_pcrel:
			base = field_addr;
			break;
		default:
			return false;
		}
	}
	*val = base + v;
	if (!is64 && apply)
		*val &= 0xffffffffu;
	return true;
}

static int cie_by_offset(const struct dwarf_fdes *d, uint64_t off)
{
	size_t lo = 0, hi = d->num_cies;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->cies[mid].offset == off)
			return (int)mid;
		if (d->cies[mid].offset < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static void parse_cie(const Dwarf_CIE *cie, uint64_t off, bool is64, bool be,
		      struct cie_info *ci)
{
	const char *aug = cie->augmentation;
	struct cursor c = { cie->augmentation_data,
			    cie->augmentation_data + cie->augmentation_data_size, be };

	memset(ci, 0, sizeof(*ci));
	ci->offset = off;
	ci->caf = cie->code_alignment_factor;
	ci->fde_enc = DW_EH_PE_absptr;
	ci->insns = cie->initial_instructions;
	ci->insns_end = cie->initial_instructions_end;
	ci->fde_aug_size = cie->fde_augmentation_data_size;
	ci->known = true;
	if (aug[0] != 'z') {
		ci->known = aug[0] == '\0';
		return;
	}
	ci->z = true;
	for (const char *a = aug + 1; *a; a++) {
		uint64_t v, penc;

		switch (*a) {
		case 'R':
			if (!rd_uint(&c, 1, &v)) {
				ci->known = false;
				return;
			}
			ci->fde_enc = (uint8_t)v;
			break;
		case 'L':
			if (!skip(&c, 1)) {
				ci->known = false;
				return;
			}
			break;
		case 'P':
			if (!rd_uint(&c, 1, &penc) ||
			    !rd_encoded(&c, (uint8_t)(penc & 0x7f), 0, is64, false, &v)) {
				ci->known = false;
				return;
			}
			break;
		case 'B':
			ci->b_key = true;
			break;
		case 'S':
		case 'G':
			break;
		default:
			/* The 'z' size lets FDEs be read all the same. */
			return;
		}
	}
}

/* Every CIE and FDE of one section, with dwarf_next_cfi(). */
static bool collect_section(const unsigned char *ident, const struct cfi_sec *s, unsigned int si,
			    struct dwarf_fdes *d, char *err, size_t errlen)
{
	Dwarf_Off off, next;
	Dwarf_CFI_Entry e;
	size_t first_cie = d->num_cies;
	int rc;

	if (!s->data)
		return true;
	/* CIEs first: an FDE may name a CIE further on. */
	for (off = 0; (rc = dwarf_next_cfi(ident, s->data, s->eh, off, &next, &e)) == 0; off = next) {
		if (dwarf_cfi_cie_p(&e)) {
			d->cies = xrealloc(d->cies, (d->num_cies + 1) * sizeof(*d->cies));
			parse_cie(&e.cie, off, d->is64, d->be, &d->cies[d->num_cies]);
			d->num_cies++;
		}
	}
	if (rc < 0) {
		snprintf(err, errlen, "dwarf_next_cfi(%s) at offset %#" PRIx64 ": %s", s->name,
			 (uint64_t)off, dwarf_errmsg(-1));
		return false;
	}
	for (off = 0; dwarf_next_cfi(ident, s->data, s->eh, off, &next, &e) == 0; off = next) {
		struct dwarf_fdes sub = { .cies = d->cies + first_cie,
					  .num_cies = d->num_cies - first_cie };
		struct fde_info fi = { .sec = (uint8_t)si, .off = off };
		const uint8_t *base = s->data->d_buf;
		struct cursor c;
		const struct cie_info *ci;
		uint64_t range;
		int k;

		if (dwarf_cfi_cie_p(&e))
			continue;
		d->per_sec[si]++;
		d->fdes = xrealloc(d->fdes, (d->num_fdes + 1) * sizeof(*d->fdes));
		k = cie_by_offset(&sub, e.fde.CIE_pointer);
		c = (struct cursor){ e.fde.start, e.fde.end, d->be };
		if (k < 0 || !sub.cies[k].known) {
			d->undecoded++;
			d->fdes[d->num_fdes++] = fi;
			continue;
		}
		ci = &sub.cies[k];
		fi.cie = (uint32_t)(first_cie + (size_t)k);
		if (s->eh) {
			uint64_t field = s->addr + (uint64_t)(e.fde.start - base);

			if (!rd_encoded(&c, ci->fde_enc, field, d->is64, true, &fi.start) ||
			    !rd_encoded(&c, ci->fde_enc & 0x0f, 0, d->is64, false, &range)) {
				d->undecoded++;
				d->fdes[d->num_fdes++] = fi;
				continue;
			}
		} else if (!rd_uint(&c, d->is64 ? 8 : 4, &fi.start) ||
			   !rd_uint(&c, d->is64 ? 8 : 4, &range)) {
			d->undecoded++;
			d->fdes[d->num_fdes++] = fi;
			continue;
		}
		fi.end = fi.start + range;
		if (fi.end < fi.start)
			fi.end = UINT64_MAX;
		if (ci->z) {
			uint64_t len;

			if (rd_uleb(&c, &len) && skip(&c, len))
				fi.insns = c.p;
		} else if (skip(&c, ci->fde_aug_size)) {
			fi.insns = c.p;
		}
		fi.insns_end = e.fde.end;
		if (!fi.insns)
			d->undecoded++;
		d->fdes[d->num_fdes++] = fi;
	}
	return true;
}

static int cmp_fde(const void *a, const void *b)
{
	const struct fde_info *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->sec != y->sec)
		return (int)x->sec - (int)y->sec;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* The FDE the converter uses for @pc: .eh_frame's first, then .debug_frame's. */
static const struct fde_info *fde_for_pc(const struct dwarf_fdes *d, uint64_t pc)
{
	const struct fde_info *best = NULL;
	size_t lo = 0, hi = d->num_fdes;

	/* The last FDE starting at or before @pc, then back over overlaps. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->fdes[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0;) {
		const struct fde_info *f = &d->fdes[i];

		if (f->start == 0 || f->end == f->start)
			continue;
		if (pc < f->end && (!best || f->sec < best->sec))
			best = f;
		/* FDEs are short: a few hundred back is more than any overlap. */
		if (lo - i > 256)
			break;
	}
	return best;
}

/*
 * AArch64 return-address signing: the state after the CIE's and the FDE's
 * instructions up to @pc, DW_CFA_AARCH64_negate_ra_state (0x2d) toggling
 * it. Return false on an instruction this scan does not know.
 */
static bool scan_ra_state(const struct dwarf_fdes *d, const struct fde_info *f, uint64_t pc,
			  bool *mangled)
{
	const struct cie_info *ci = &d->cies[f->cie];
	bool stack[64];
	unsigned int depth = 0;
	bool m = false;
	uint64_t loc = f->start;

	for (int part = 0; part < 2; part++) {
		struct cursor c = { part ? f->insns : ci->insns, part ? f->insns_end : ci->insns_end,
				    d->be };

		while (c.p < c.end) {
			uint8_t op = *c.p++;
			uint64_t a, b;
			int64_t sa;
			uint64_t delta = UINT64_MAX;

			switch (op & 0xc0) {
			case DW_CFA_advance_loc:
				delta = op & 0x3f;
				break;
			case DW_CFA_offset:
				if (!rd_uleb(&c, &a))
					return false;
				continue;
			case DW_CFA_restore:
				continue;
			default:
				break;
			}
			if (delta == UINT64_MAX) {
				switch (op) {
				case DW_CFA_nop:
					break;
				case DW_CFA_set_loc:
					return false;
				case DW_CFA_advance_loc1:
					if (!rd_uint(&c, 1, &delta))
						return false;
					break;
				case DW_CFA_advance_loc2:
					if (!rd_uint(&c, 2, &delta))
						return false;
					break;
				case DW_CFA_advance_loc4:
					if (!rd_uint(&c, 4, &delta))
						return false;
					break;
				case DW_CFA_offset_extended:
				case DW_CFA_register:
				case DW_CFA_def_cfa:
				case DW_CFA_val_offset:
				case DW_CFA_GNU_negative_offset_extended:
					if (!rd_uleb(&c, &a) || !rd_uleb(&c, &b))
						return false;
					break;
				case DW_CFA_restore_extended:
				case DW_CFA_undefined:
				case DW_CFA_same_value:
				case DW_CFA_def_cfa_register:
				case DW_CFA_def_cfa_offset:
				case DW_CFA_GNU_args_size:
					if (!rd_uleb(&c, &a))
						return false;
					break;
				case DW_CFA_offset_extended_sf:
				case DW_CFA_def_cfa_sf:
				case DW_CFA_val_offset_sf:
					if (!rd_uleb(&c, &a) || !rd_sleb(&c, &sa))
						return false;
					break;
				case DW_CFA_def_cfa_offset_sf:
					if (!rd_sleb(&c, &sa))
						return false;
					break;
				case DW_CFA_def_cfa_expression:
					if (!rd_uleb(&c, &a) || !skip(&c, a))
						return false;
					break;
				case DW_CFA_expression:
				case DW_CFA_val_expression:
					if (!rd_uleb(&c, &a) || !rd_uleb(&c, &b) || !skip(&c, b))
						return false;
					break;
				case DW_CFA_remember_state:
					if (depth == sizeof(stack) / sizeof(stack[0]))
						return false;
					stack[depth++] = m;
					break;
				case DW_CFA_restore_state:
					if (depth == 0)
						return false;
					m = stack[--depth];
					break;
				case 0x2d:	/* DW_CFA_AARCH64_negate_ra_state */
					m = !m;
					break;
				default:
					return false;
				}
				if (delta == UINT64_MAX)
					continue;
			}
			if (part == 0)
				return false;	/* an advance in a CIE */
			loc += delta * ci->caf;
			if (loc > pc) {
				*mangled = m;
				return true;
			}
		}
	}
	*mangled = m;
	return true;
}

/* ---- AArch64 return-address signing as readelf lists it -------------------- */

/* From @addr on (to the next change or the FDE's end) the state is @mangled. */
struct ra_change {
	uint64_t addr;
	bool mangled;
};

/* One FDE of readelf's listing: its changes are ch[first, first + count). */
struct ra_fde {
	uint64_t off, start;
	uint8_t sec;		/* 0 .eh_frame, 1 .debug_frame */
	bool unknown;		/* an instruction this reading does not follow */
	size_t first, count;
};

struct ra_cie {
	uint64_t off;
	uint8_t sec;
	bool mangled, unknown;
};

struct readelf_ra {
	bool have;		/* readelf ran and its listing was read */
	char err[200];
	struct ra_fde *fdes;
	size_t num_fdes;
	struct ra_change *ch;
	size_t num_ch;
	struct ra_cie *cies;
	size_t num_cies;
};

static int cmp_ra_fde(const void *a, const void *b)
{
	const struct ra_fde *x = a, *y = b;

	if (x->sec != y->sec)
		return (int)x->sec - (int)y->sec;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* The address after " to " (advance_loc) or ": " (set_loc) on @line. */
static bool listed_addr(const char *line, const char *after, uint64_t *addr)
{
	const char *p = strstr(line, after);
	char *end;

	if (!p)
		return false;
	p += strlen(after);
	errno = 0;
	*addr = strtoull(p, &end, 16);
	return end != p && errno == 0;
}

/* @fde's state is @m from @loc on. */
static void ra_set(struct readelf_ra *re, struct ra_fde *fde, uint64_t loc, bool m)
{
	struct ra_change *last = fde->count ? &re->ch[fde->first + fde->count - 1] : NULL;

	if (last && last->addr == loc) {
		last->mangled = m;
		return;
	}
	if (last && loc < last->addr) {
		fde->unknown = true;	/* set_loc backwards: not followed */
		return;
	}
	re->ch = xrealloc(re->ch, (re->num_ch + 1) * sizeof(*re->ch));
	re->ch[re->num_ch++] = (struct ra_change){ loc, m };
	fde->count++;
}

/*
 * Read readelf's raw listing of @path's CFI (LC_ALL=C: its headings are
 * translated). Only what moves the location or the signing state matters:
 * the CIE and FDE headings, advance_loc / set_loc, negate_ra_state,
 * remember_state / restore_state; any other AArch64 signing instruction
 * (negate_ra_state_with_pc, set_ra_state) or an opcode readelf does not
 * name makes its entry unknown.
 */
static void readelf_ra_read(const char *path, struct readelf_ra *re)
{
	const char *prog = getenv("READELF") ? getenv("READELF") : "readelf";
	char *argv[] = { (char *)prog, (char *)"--debug-dump=frames",
			 (char *)"--debug-dump=no-follow-links", (char *)path, NULL };
	posix_spawn_file_actions_t fa;
	int pfd[2], status, sec = -1;
	pid_t pid;
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	struct ra_fde *fde = NULL;
	struct ra_cie *cie = NULL;
	bool m = false, stack[64];
	unsigned int depth = 0;
	uint64_t loc = 0;

	memset(re, 0, sizeof(*re));
	if (pipe(pfd) != 0) {
		snprintf(re->err, sizeof(re->err), "pipe: %s", strerror(errno));
		return;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, pfd[0]);
	posix_spawn_file_actions_addclose(&fa, pfd[1]);
	status = posix_spawnp(&pid, prog, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (status != 0) {
		close(pfd[0]);
		snprintf(re->err, sizeof(re->err), "cannot run %s: %s", prog, strerror(status));
		return;
	}
	f = fdopen(pfd[0], "r");
	if (!f) {
		close(pfd[0]);
		waitpid(pid, &status, 0);
		snprintf(re->err, sizeof(re->err), "fdopen: %s", strerror(errno));
		return;
	}
	while (getline(&line, &cap, f) > 0) {
		uint64_t off, a, b, c, start, end;
		char kind[8];
		const char *insn;

		if (strncmp(line, "Contents of the ", 16) == 0) {
			sec = strncmp(line + 16, ".eh_frame ", 10) == 0 ? 0 :
			      strncmp(line + 16, ".debug_frame ", 13) == 0 ? 1 : -1;
			fde = NULL;
			cie = NULL;
			continue;
		}
		if (sec < 0)
			continue;
		if (sscanf(line, "%" SCNx64 " %" SCNx64 " %" SCNx64 " FDE cie=%" SCNx64
			   " pc=%" SCNx64 "..%" SCNx64, &off, &a, &b, &c, &start, &end) == 6) {
			const struct ra_cie *base = NULL;

			for (size_t i = re->num_cies; i-- > 0;)
				if (re->cies[i].sec == sec && re->cies[i].off == c) {
					base = &re->cies[i];
					break;
				}
			re->fdes = xrealloc(re->fdes, (re->num_fdes + 1) * sizeof(*re->fdes));
			fde = &re->fdes[re->num_fdes++];
			*fde = (struct ra_fde){ off, start, (uint8_t)sec, !base || base->unknown,
						re->num_ch, 0 };
			cie = NULL;
			m = base && base->mangled;
			depth = 0;
			loc = start;
			ra_set(re, fde, loc, m);
			continue;
		}
		if (sscanf(line, "%" SCNx64 " %" SCNx64 " %" SCNx64 " %7s", &off, &a, &b,
			   kind) == 4 && strcmp(kind, "CIE") == 0) {
			re->cies = xrealloc(re->cies, (re->num_cies + 1) * sizeof(*re->cies));
			cie = &re->cies[re->num_cies++];
			*cie = (struct ra_cie){ off, (uint8_t)sec, false, false };
			fde = NULL;
			m = false;
			depth = 0;
			continue;
		}
		if (strncmp(line, "  DW_CFA_", 9) != 0 || (!fde && !cie))
			continue;
		insn = line + 2;
		if (strncmp(insn, "DW_CFA_advance_loc", 18) == 0 ||
		    strncmp(insn, "DW_CFA_MIPS_advance_loc8", 24) == 0) {
			if (!listed_addr(insn, " to ", &loc) || cie) {
				if (fde)
					fde->unknown = true;
				else
					cie->unknown = true;
			}
			continue;
		}
		if (strncmp(insn, "DW_CFA_set_loc", 14) == 0) {
			if (!listed_addr(insn, ": ", &loc) || cie) {
				if (fde)
					fde->unknown = true;
				else
					cie->unknown = true;
			}
			continue;
		}
		/* 0x2d is named for the file's machine; both names are the toggle. */
		if (strcmp(insn, "DW_CFA_AARCH64_negate_ra_state\n") == 0 ||
		    strcmp(insn, "DW_CFA_GNU_window_save\n") == 0) {
			m = !m;
		} else if (strcmp(insn, "DW_CFA_remember_state\n") == 0) {
			if (depth == sizeof(stack) / sizeof(stack[0])) {
				if (fde)
					fde->unknown = true;
				else
					cie->unknown = true;
				continue;
			}
			stack[depth++] = m;
			continue;
		} else if (strcmp(insn, "DW_CFA_restore_state\n") == 0) {
			if (depth == 0) {
				if (fde)
					fde->unknown = true;
				else
					cie->unknown = true;
				continue;
			}
			m = stack[--depth];
		} else if (strncmp(insn, "DW_CFA_AARCH64_", 15) == 0 ||
			   strncmp(insn, "DW_CFA_???", 10) == 0) {
			if (fde)
				fde->unknown = true;
			else
				cie->unknown = true;
			continue;
		} else {
			continue;
		}
		if (fde)
			ra_set(re, fde, loc, m);
		else
			cie->mangled = m;
	}
	free(line);
	fclose(f);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(re->err, sizeof(re->err), "%s --debug-dump=frames %s failed (status %#x)",
			 prog, path, (unsigned int)status);
		return;
	}
	if (!re->num_fdes) {
		snprintf(re->err, sizeof(re->err), "%s --debug-dump=frames %s listed no FDE", prog,
			 path);
		return;
	}
	qsort(re->fdes, re->num_fdes, sizeof(*re->fdes), cmp_ra_fde);
	re->have = true;
}

static void readelf_ra_free(struct readelf_ra *re)
{
	free(re->fdes);
	free(re->ch);
	free(re->cies);
	memset(re, 0, sizeof(*re));
}

/* readelf's entry for the FDE at @f, when it lists the same range start. */
static const struct ra_fde *readelf_ra_fde(const struct readelf_ra *re,
					   const struct fde_info *f)
{
	size_t lo = 0, hi = re->num_fdes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ra_fde *r = &re->fdes[mid];

		if (r->sec == f->sec && r->off == f->off)
			return r->start == f->start && !r->unknown ? r : NULL;
		if (r->sec < f->sec || (r->sec == f->sec && r->off < f->off))
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The state at @pc of readelf's @r. */
static bool readelf_ra_at(const struct readelf_ra *re, const struct ra_fde *r, uint64_t pc)
{
	const struct ra_change *ch = re->ch + r->first;
	size_t lo = 0, hi = r->count;

	/* The last change at or before @pc; the first is at the FDE's start. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ch[mid].addr <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? ch[lo - 1].mangled : false;
}

/* ---- libdw's answers as rules ------------------------------------------------- */

/* A value of the symbolic evaluator. */
enum { V_CONST, V_REG, V_CFA, V_DEREF_REG, V_DEREF_CFA };

struct sval {
	int kind;
	uint32_t reg;
	uint64_t off;		/* V_CONST: the value */
};

/* The machine's facts this test needs. */
struct abi {
	const char *name;
	uint16_t machine;
	int sp, fp, ra, pc;	/* DWARF numbers; pc -1 when the CFI has none */
	int64_t sp_cfa;		/* SP = CFA + this, as SFrame assumes */
};

static const struct abi abis[] = {
	{ "x86-64", SFRAME_EM_X86_64, 7, 6, 16, 16, 0 },
	{ "aarch64", SFRAME_EM_AARCH64, 31, 29, 30, -1, 0 },
	{ "s390x", SFRAME_EM_S390, 15, 11, 14, -1, -160 },
};

enum eval_result {
	EVAL_OK,
	EVAL_UNREPRESENTABLE,	/* computed, but not a form SFrame has */
	EVAL_UNKNOWN,		/* an operation this evaluator does not know */
};

/*
 * Evaluate @ops symbolically, at @pc. @cfa_pushed: DW_OP_call_frame_cfa
 * is allowed (register rules). *@value: the expression ended with
 * DW_OP_stack_value. *@pc_dep: the result depends on @pc.
 */
static enum eval_result eval_ops(const struct abi *abi, const Dwarf_Op *ops, size_t nops,
				 uint64_t pc, bool cfa_ok, struct sval *res, bool *value,
				 bool *pc_dep)
{
	struct sval st[16];
	size_t n = 0;

	*value = false;
	for (size_t i = 0; i < nops; i++) {
		const Dwarf_Op *op = &ops[i];
		uint8_t a = op->atom;
		struct sval x, y;

#define NEED(k) do { if (n < (k)) return EVAL_UNREPRESENTABLE; } while (0)
#define PUSH(v) do { struct sval pv_ = (v); if (n == 16) return EVAL_UNKNOWN; st[n] = pv_; n++; } while (0)
		if (a >= DW_OP_lit0 && a <= DW_OP_lit31) {
			PUSH(((struct sval){ V_CONST, 0, (uint64_t)(a - DW_OP_lit0) }));
			continue;
		}
		if ((a >= DW_OP_breg0 && a <= DW_OP_breg31) || a == DW_OP_bregx) {
			uint32_t r = a == DW_OP_bregx ? (uint32_t)op->number
						       : (uint32_t)(a - DW_OP_breg0);
			uint64_t o = a == DW_OP_bregx ? op->number2 : op->number;

			if (abi->pc >= 0 && r == (uint32_t)abi->pc) {
				*pc_dep = true;
				PUSH(((struct sval){ V_CONST, 0, pc + o }));
			} else {
				PUSH(((struct sval){ V_REG, r, o }));
			}
			continue;
		}
		if ((a >= DW_OP_reg0 && a <= DW_OP_reg31) || a == DW_OP_regx) {
			/* A register location: only as the whole expression. */
			if (nops != 1)
				return EVAL_UNKNOWN;
			*res = (struct sval){ V_REG, a == DW_OP_regx ? (uint32_t)op->number
								      : (uint32_t)(a - DW_OP_reg0), 0 };
			*value = true;
			return EVAL_OK;
		}
		switch (a) {
		case DW_OP_const1u: case DW_OP_const1s: case DW_OP_const2u: case DW_OP_const2s:
		case DW_OP_const4u: case DW_OP_const4s: case DW_OP_const8u: case DW_OP_const8s:
		case DW_OP_constu: case DW_OP_consts:
			PUSH(((struct sval){ V_CONST, 0, op->number }));
			break;
		case DW_OP_call_frame_cfa:
			if (!cfa_ok)
				return EVAL_UNREPRESENTABLE;
			PUSH(((struct sval){ V_CFA, 0, 0 }));
			break;
		case DW_OP_dup:
			NEED(1);
			PUSH(st[n - 1]);
			break;
		case DW_OP_drop:
			NEED(1);
			n--;
			break;
		case DW_OP_over:
			NEED(2);
			PUSH(st[n - 2]);
			break;
		case DW_OP_swap:
			NEED(2);
			x = st[n - 1];
			st[n - 1] = st[n - 2];
			st[n - 2] = x;
			break;
		case DW_OP_plus_uconst:
			NEED(1);
			if (st[n - 1].kind == V_DEREF_REG || st[n - 1].kind == V_DEREF_CFA)
				return EVAL_UNREPRESENTABLE;
			st[n - 1].off += op->number;
			break;
		case DW_OP_deref:
			NEED(1);
			if (st[n - 1].kind == V_REG)
				st[n - 1].kind = V_DEREF_REG;
			else if (st[n - 1].kind == V_CFA)
				st[n - 1].kind = V_DEREF_CFA;
			else
				return EVAL_UNREPRESENTABLE;
			break;
		case DW_OP_stack_value:
			if (i + 1 != nops)
				return EVAL_UNKNOWN;
			*value = true;
			break;
		case DW_OP_plus:
		case DW_OP_minus:
			NEED(2);
			y = st[--n];
			x = st[n - 1];
			if (y.kind == V_CONST && x.kind != V_DEREF_REG && x.kind != V_DEREF_CFA) {
				x.off = a == DW_OP_plus ? x.off + y.off : x.off - y.off;
			} else if (a == DW_OP_plus && x.kind == V_CONST && y.kind != V_DEREF_REG &&
				   y.kind != V_DEREF_CFA) {
				y.off += x.off;
				x = y;
			} else {
				return EVAL_UNREPRESENTABLE;
			}
			st[n - 1] = x;
			break;
		case DW_OP_and: case DW_OP_or: case DW_OP_xor: case DW_OP_mul: case DW_OP_shl:
		case DW_OP_shr: case DW_OP_shra: case DW_OP_ge: case DW_OP_gt: case DW_OP_le:
		case DW_OP_lt: case DW_OP_eq: case DW_OP_ne: {
			uint64_t u, v, r = 0;

			NEED(2);
			y = st[--n];
			x = st[n - 1];
			if (x.kind != V_CONST || y.kind != V_CONST)
				return EVAL_UNREPRESENTABLE;
			u = x.off;
			v = y.off;
			switch (a) {
			case DW_OP_and: r = u & v; break;
			case DW_OP_or: r = u | v; break;
			case DW_OP_xor: r = u ^ v; break;
			case DW_OP_mul: r = u * v; break;
			case DW_OP_shl: r = v >= 64 ? 0 : u << v; break;
			case DW_OP_shr: r = v >= 64 ? 0 : u >> v; break;
			case DW_OP_shra:
				r = v >= 64 ? (s64(u) < 0 ? UINT64_MAX : 0)
					    : (s64(u) < 0 ? ~(~u >> v) : u >> v);
				break;
			case DW_OP_ge: r = s64(u) >= s64(v); break;
			case DW_OP_gt: r = s64(u) > s64(v); break;
			case DW_OP_le: r = s64(u) <= s64(v); break;
			case DW_OP_lt: r = s64(u) < s64(v); break;
			case DW_OP_eq: r = u == v; break;
			case DW_OP_ne: r = u != v; break;
			}
			st[n - 1] = (struct sval){ V_CONST, 0, r };
			break;
		}
		case DW_OP_neg: case DW_OP_not: case DW_OP_abs:
			NEED(1);
			if (st[n - 1].kind != V_CONST)
				return EVAL_UNREPRESENTABLE;
			if (a == DW_OP_neg)
				st[n - 1].off = 0 - st[n - 1].off;
			else if (a == DW_OP_not)
				st[n - 1].off = ~st[n - 1].off;
			else if (s64(st[n - 1].off) < 0)
				st[n - 1].off = 0 - st[n - 1].off;
			break;
		case DW_OP_nop:
			break;
		default:
			return EVAL_UNKNOWN;
		}
#undef NEED
#undef PUSH
	}
	if (n == 0)
		return EVAL_UNREPRESENTABLE;
	*res = st[n - 1];
	return EVAL_OK;
}

/* What DWARF says at one PC, in the converter's terms. */
struct expect {
	struct sframe_rules r;
	enum eval_result cfa_eval, ra_eval, fp_eval;
	bool sp_bad;		/* SP has a value rule SFrame does not assume */
	bool mangled_known;
	bool pc_dep;
	int ra_col;
	char sp_text[48];
};

static void loc_from_sval(const struct sval *v, bool value, struct sframe_loc *l,
			  enum eval_result *er)
{
	int64_t off = s64(v->off);

	memset(l, 0, sizeof(*l));
	if (!fits_s32(off)) {
		*er = EVAL_UNREPRESENTABLE;
		return;
	}
	l->offset = (int32_t)off;
	switch (v->kind) {
	case V_REG:
		l->kind = SFRAME_LOC_REG;
		l->reg = v->reg;
		l->deref = !value;
		break;
	case V_CFA:
		l->kind = SFRAME_LOC_CFA;
		l->deref = !value;
		break;
	case V_DEREF_REG:
	case V_DEREF_CFA:
		if (!value) {
			*er = EVAL_UNREPRESENTABLE;
			return;
		}
		l->kind = v->kind == V_DEREF_REG ? SFRAME_LOC_REG : SFRAME_LOC_CFA;
		l->reg = v->kind == V_DEREF_REG ? v->reg : 0;
		l->deref = true;
		break;
	default:
		*er = EVAL_UNREPRESENTABLE;
	}
}

/* One register's rule. *@undefined: DWARF says undefined. */
static enum eval_result reg_rule(const struct abi *abi, Dwarf_Frame *fr, int regno, uint64_t pc,
				 struct sframe_loc *l, bool *undefined, bool *pc_dep)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;
	struct sval v;
	bool value;
	enum eval_result er;

	memset(l, 0, sizeof(*l));
	*undefined = false;
	if (dwarf_frame_register(fr, regno, mem, &ops, &nops) != 0)
		return EVAL_UNKNOWN;
	if (nops == 0) {
		if (ops == NULL) {
			l->kind = SFRAME_LOC_SAME;
		} else {
			l->kind = SFRAME_LOC_UNDEFINED;
			*undefined = true;
		}
		return EVAL_OK;
	}
	er = eval_ops(abi, ops, nops, pc, true, &v, &value, pc_dep);
	if (er != EVAL_OK)
		return er;
	loc_from_sval(&v, value, l, &er);
	/* register(R) of the register itself: unchanged. */
	if (er == EVAL_OK && l->kind == SFRAME_LOC_REG && !l->deref && l->offset == 0 &&
	    l->reg == (uint32_t)regno)
		l->kind = SFRAME_LOC_SAME, l->reg = 0;
	return er;
}

static void expect_at(const struct abi *abi, Dwarf_Frame *fr, int ra_col, bool signal,
		      uint64_t pc, struct expect *e)
{
	Dwarf_Op *ops;
	size_t nops;
	struct sval v;
	bool value, undef;
	struct sframe_loc sp;
	enum eval_result er;

	memset(e, 0, sizeof(*e));
	e->ra_col = ra_col;
	e->r.signal = signal;

	/* CFA. */
	if (dwarf_frame_cfa(fr, &ops, &nops) != 0) {
		e->cfa_eval = EVAL_UNKNOWN;
	} else if (nops == 0) {
		e->cfa_eval = EVAL_UNREPRESENTABLE;	/* no CFA rule: no row */
	} else {
		e->cfa_eval = eval_ops(abi, ops, nops, pc, false, &v, &value, &e->pc_dep);
		if (e->cfa_eval == EVAL_OK) {
			if (value || (v.kind != V_REG && v.kind != V_DEREF_REG) ||
			    !fits_s32(s64(v.off))) {
				e->cfa_eval = EVAL_UNREPRESENTABLE;
			} else {
				e->r.cfa.reg = v.reg;
				e->r.cfa.deref = v.kind == V_DEREF_REG;
				e->r.cfa.offset = (int32_t)s64(v.off);
			}
		}
	}

	/* RA: the column the CIE names. */
	e->ra_eval = reg_rule(abi, fr, ra_col, pc, &e->r.ra, &undef, &e->pc_dep);
	if (e->ra_eval == EVAL_OK && undef)
		e->r.ra_undefined = true;

	/* FP: undefined in libdw's terms is SFrame's "unchanged". */
	e->fp_eval = reg_rule(abi, fr, abi->fp, pc, &e->r.fp, &undef, &e->pc_dep);
	if (e->fp_eval == EVAL_OK && undef)
		e->r.fp.kind = SFRAME_LOC_SAME;

	/*
	 * SP: a value rule must be SFrame's assumption. (On s390x the ABI
	 * defines the CFA as the caller's r15 + 160, so whatever holds the
	 * caller's r15, a register or a slot, holds CFA - 160.)
	 */
	er = reg_rule(abi, fr, abi->sp, pc, &sp, &undef, &e->pc_dep);
	if (er == EVAL_OK && !sp.deref && (sp.kind == SFRAME_LOC_CFA || sp.kind == SFRAME_LOC_REG) &&
	    !(sp.kind == SFRAME_LOC_CFA && sp.offset == abi->sp_cfa) &&
	    !(sp.kind == SFRAME_LOC_REG && abi->machine == SFRAME_EM_S390)) {
		e->sp_bad = true;
		if (sp.kind == SFRAME_LOC_CFA)
			snprintf(e->sp_text, sizeof(e->sp_text), "sp=cfa%+" PRId32, sp.offset);
		else
			snprintf(e->sp_text, sizeof(e->sp_text), "sp=r%" PRIu32 "%+" PRId32, sp.reg,
				 sp.offset);
	}
}

/* ---- Printing ------------------------------------------------------------------ */

static void fmt_loc(char *b, size_t n, const struct sframe_loc *l)
{
	const char *base;
	char reg[16];

	switch (l->kind) {
	case SFRAME_LOC_UNDEFINED:
		snprintf(b, n, "undefined");
		return;
	case SFRAME_LOC_SAME:
		snprintf(b, n, "same");
		return;
	case SFRAME_LOC_CFA:
		base = "cfa";
		break;
	case SFRAME_LOC_REG:
		snprintf(reg, sizeof(reg), "r%" PRIu32, l->reg);
		base = reg;
		break;
	default:
		snprintf(b, n, "kind%u", l->kind);
		return;
	}
	if (l->deref)
		snprintf(b, n, "[%s%+" PRId32 "]", base, l->offset);
	else
		snprintf(b, n, "%s%+" PRId32, base, l->offset);
}

static void fmt_rules(char *b, size_t n, const struct sframe_rules *r, bool show_mangled)
{
	char ra[48], fp[48];

	fmt_loc(ra, sizeof(ra), &r->ra);
	fmt_loc(fp, sizeof(fp), &r->fp);
	if (r->ra_undefined)
		snprintf(b, n, "ra undefined (outermost)%s", r->signal ? " signal" : "");
	else
		snprintf(b, n, "cfa=%sr%" PRIu32 "%+" PRId32 "%s ra=%s fp=%s%s%s",
			 r->cfa.deref ? "[" : "", r->cfa.reg, r->cfa.offset,
			 r->cfa.deref ? "]" : "", ra, fp, r->signal ? " signal" : "",
			 show_mangled ? (r->ra_mangled ? " mangled" : " unmangled") : "");
}

static void fmt_ops(char *b, size_t n, const Dwarf_Op *ops, size_t nops, bool null)
{
	size_t used = 0;

	if (nops == 0) {
		snprintf(b, n, "%s", null ? "(same value)" : "(undefined)");
		return;
	}
	b[0] = '\0';
	for (size_t i = 0; i < nops && used < n; i++) {
		int w = snprintf(b + used, n - used, "%s%#x(%" PRId64 ",%" PRId64 ")", i ? " " : "",
				 ops[i].atom, s64(ops[i].number), s64(ops[i].number2));

		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/* libdw's raw answer for the CFA, the RA and the FP, for mismatch reports. */
static void fmt_libdw(char *b, size_t n, Dwarf_Frame *fr, int ra_col, const struct abi *abi)
{
	char cfa[160], ra[160], fp[160];
	Dwarf_Op mem[3], *ops;
	size_t nops;

	if (dwarf_frame_cfa(fr, &ops, &nops) == 0)
		fmt_ops(cfa, sizeof(cfa), ops, nops, ops == NULL);
	else
		snprintf(cfa, sizeof(cfa), "error");
	if (dwarf_frame_register(fr, ra_col, mem, &ops, &nops) == 0)
		fmt_ops(ra, sizeof(ra), ops, nops, ops == NULL);
	else
		snprintf(ra, sizeof(ra), "error");
	if (dwarf_frame_register(fr, abi->fp, mem, &ops, &nops) == 0)
		fmt_ops(fp, sizeof(fp), ops, nops, ops == NULL);
	else
		snprintf(fp, sizeof(fp), "error");
	snprintf(b, n, "libdw ops: cfa={%s} r%d={%s} r%d={%s}", cfa, ra_col, ra, abi->fp, fp);
}

/* ---- One file ------------------------------------------------------------------- */

struct result {
	const char *label;
	char path[PATH_MAX];
	const char *arch;
	bool skipped, failed;
	char why[256];
	size_t fdes, fdes_eh, fdes_debug, empty, outside, duplicates, converted;
	double coverage;
	struct sframe_convert_stats stats;
	uint64_t pcs, mismatches, unanswered, libdw_queries, mangled_unchecked, mangled_pcs;
	/* AArch64: readelf's reading (no listing: readelf_why says why). */
	uint64_t readelf_mangled_pcs, readelf_unchecked;
	bool readelf_ran;
	char readelf_why[200];
	uint64_t reg_pcs;	/* the RA or the FP kept in another register */
	double seconds;
};

struct sframe_fn {
	uint64_t start;
	uint32_t size;
	uint8_t pc_type;
	uint8_t pauth_key;
};

static int cmp_fn(const void *a, const void *b)
{
	const struct sframe_fn *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static bool has_fn_at(const struct sframe_fn *fns, size_t n, uint64_t start)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (fns[mid].start == start)
			return true;
		if (fns[mid].start < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/*
 * A converted DWARF FDE: the SFrame functions from its start on (one, or
 * the PLT's first entry and its PCMASK part) cover its range exactly.
 */
static void check_extent(const struct sframe_fn *fns, size_t n, const struct fde_info *f,
			 struct result *res, size_t *details)
{
	size_t lo = 0, hi = n;
	uint64_t at = f->start;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (fns[mid].start < f->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && fns[lo].start == at && at < f->end; lo++)
		at += fns[lo].size;
	if (at == f->end)
		return;
	res->mismatches++;
	if ((*details)++ < MAX_DETAILS)
		printf("  MISMATCH at %#" PRIx64 " (extent): DWARF FDE [%#" PRIx64 ", %#" PRIx64
		       "); the SFrame functions from its start cover up to %#" PRIx64 "\n",
		       f->start, f->start, f->end, at);
}

static bool in_text(const struct sframe_addr_range *t, size_t n, uint64_t pc)
{
	for (size_t i = 0; i < n; i++)
		if (pc >= t[i].start && pc < t[i].end)
			return true;
	return false;
}

/*
 * The FDEs sorted by start, then section, then offset: FDE @i is a
 * duplicate when an FDE before it in the converter's order (.eh_frame's
 * first, each section in its own order), not empty and in text, covers its
 * start.
 */
static bool is_duplicate(const struct dwarf_fdes *d, size_t i,
			 const struct sframe_addr_range *t, size_t n)
{
	const struct fde_info *f = &d->fdes[i];

	for (size_t k = i; k-- > 0 && i - k <= 256;) {
		const struct fde_info *g = &d->fdes[k];

		if (g->start == 0 || g->end == g->start || !in_text(t, n, g->start))
			continue;
		if (g->start <= f->start && f->start < g->end &&
		    (g->sec < f->sec || (g->sec == f->sec && g->off < f->off)))
			return true;
	}
	return false;
}

static void fail(struct result *res, const char *fmt, const char *a, const char *b)
{
	res->failed = true;
	if (!res->why[0])
		snprintf(res->why, sizeof(res->why), fmt, a, b);
}

/* libdw's current frame and what it says over [start, end). */
struct cur_frame {
	Dwarf_Frame *fr;
	uint64_t start, end;
	int ra_col;
	bool signal;
	bool have;		/* a frame (else: none for [start, end)) */
	bool fde_known;		/* this test's FDE table has an FDE here */
	bool mangled, mangled_known;
	const struct ra_fde *readelf;	/* readelf's entry for the FDE, or NULL */
	const char *err;
	struct expect e;
};

static void query(Dwarf_CFI *cfis[2], const struct dwarf_fdes *d, const struct readelf_ra *re,
		  const struct abi *abi, uint64_t pc, struct cur_frame *cf)
{
	const struct fde_info *f = fde_for_pc(d, pc);

	free(cf->fr);
	memset(cf, 0, sizeof(*cf));
	cf->fde_known = f != NULL;
	cf->start = pc;
	cf->end = pc + 1;
	cf->err = "no FDE";
	for (int i = 0; i < 2; i++) {
		Dwarf_Addr s, e;

		if (!cfis[i])
			continue;
		/* The converter's order: the FDE's own section only. */
		if (f && f->sec != i)
			continue;
		if (dwarf_cfi_addrframe(cfis[i], pc, &cf->fr) != 0) {
			cf->fr = NULL;
			cf->err = dwarf_errmsg(-1);
			continue;
		}
		cf->ra_col = dwarf_frame_info(cf->fr, &s, &e, &cf->signal);
		if (cf->ra_col < 0) {
			free(cf->fr);
			cf->fr = NULL;
			cf->err = dwarf_errmsg(-1);
			continue;
		}
		cf->have = true;
		if (s <= pc && pc < e && !every_byte) {
			cf->start = s;
			cf->end = e;
		}
		break;
	}
	if (!cf->have)
		return;
	expect_at(abi, cf->fr, cf->ra_col, cf->signal, pc, &cf->e);
	if (abi->machine == SFRAME_EM_AARCH64 && f && f->insns)
		cf->mangled_known = scan_ra_state(d, f, pc, &cf->mangled);
	else if (abi->machine != SFRAME_EM_AARCH64)
		cf->mangled_known = true;
	if (abi->machine == SFRAME_EM_AARCH64 && f && re->have)
		cf->readelf = readelf_ra_fde(re, f);
}

static bool loc_equal(const struct sframe_loc *a, const struct sframe_loc *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == SFRAME_LOC_UNDEFINED || a->kind == SFRAME_LOC_SAME)
		return true;
	if (a->deref != b->deref || a->offset != b->offset)
		return false;
	return a->kind != SFRAME_LOC_REG || a->reg == b->reg;
}

/*
 * Compare at @pc; on a difference fill @what. @re_mangled: readelf's
 * signing state at @pc, -1 where it has none.
 */
static bool compare(const struct cur_frame *cf, const struct expect *e, const struct sframe_rules *a,
		    const struct abi *abi, int re_mangled, char *what, size_t n)
{
	char d[80] = "";

	if (out_version >= SFRAME_VERSION_3 && e->r.signal != a->signal)
		snprintf(d, sizeof(d), "signal");
	else if (e->r.ra_undefined != a->ra_undefined)
		snprintf(d, sizeof(d), "ra_undefined");
	else if (e->r.ra_undefined)
		return true;
	else if (e->r.cfa.reg != a->cfa.reg || e->r.cfa.offset != a->cfa.offset ||
		 e->r.cfa.deref != a->cfa.deref)
		snprintf(d, sizeof(d), "cfa");
	else if (!loc_equal(&e->r.ra, &a->ra))
		snprintf(d, sizeof(d), "ra");
	else if (!loc_equal(&e->r.fp, &a->fp))
		snprintf(d, sizeof(d), "fp");
	else if (cf->mangled_known && abi->machine == SFRAME_EM_AARCH64 &&
		 cf->mangled != a->ra_mangled)
		snprintf(d, sizeof(d), "ra_mangled");
	else if (re_mangled >= 0 && (re_mangled != 0) != a->ra_mangled)
		snprintf(d, sizeof(d), "ra_mangled: readelf lists it %s",
			 re_mangled ? "signed" : "not signed");
	else if (e->sp_bad)
		snprintf(d, sizeof(d), "sp (%s)", e->sp_text);
	else
		return true;
	snprintf(what, n, "%s", d);
	return false;
}

static const char *eval_name(enum eval_result r)
{
	return r == EVAL_OK ? "ok" : r == EVAL_UNKNOWN ? "unknown operation" : "not an SFrame form";
}

/* Two functions' FDE fields and rows, byte for byte as decoded. */
static bool same_function(const struct sframe_section *a, const struct sframe_fde *fa,
			  const struct sframe_section *b, const struct sframe_fde *fb)
{
	struct sframe_fre_iter ia, ib;
	struct sframe_fre ra, rb;
	int na, nb;

	if (fa->func_start != fb->func_start || fa->func_size != fb->func_size ||
	    fa->num_fres != fb->num_fres || fa->info != fb->info || fa->info2 != fb->info2 ||
	    fa->rep_size != fb->rep_size || sframe_fre_iter_init(a, fa, &ia) ||
	    sframe_fre_iter_init(b, fb, &ib))
		return false;
	for (;;) {
		na = sframe_fre_iter_next(a, &ia, &ra);
		nb = sframe_fre_iter_next(b, &ib, &rb);
		if (na != nb || na < 0)
			return false;
		if (na == 0)
			return true;
		if (ra.start != rb.start || ra.info != rb.info || ra.num_words != rb.num_words ||
		    memcmp(ra.words, rb.words, sizeof(ra.words)) != 0)
			return false;
	}
}

/*
 * The converter's by-function mode, as a profiler uses it: each .eh_frame
 * FDE found through .eh_frame_hdr's table (sframe_eh_frame_hdr_find(), against
 * this file's own walk of .eh_frame) and converted alone gives the function
 * the whole conversion @full gave, row for row. Returns the FDEs checked.
 */
static size_t check_by_function(Elf *elf, size_t shstrndx, const struct dwarf_fdes *d,
				const struct sframe_convert_input *whole,
				const struct sframe_section *full, struct result *res)
{
	struct sframe_cfi_bytes hdr = { 0 };
	struct sframe_convert_input in = *whole;
	Elf_Scn *scn = NULL;
	static uint8_t small[4096];
	size_t checked = 0, bad = 0;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *data;

		if (gelf_getshdr(scn, &sh) && (name = elf_strptr(elf, shstrndx, sh.sh_name)) &&
		    strcmp(name, ".eh_frame_hdr") == 0 && (data = elf_getdata(scn, NULL)))
			hdr = (struct sframe_cfi_bytes){ data->d_buf, data->d_size, sh.sh_addr };
	}
	if (!hdr.data)
		return 0;
	in.debug_frame = (struct sframe_cfi_bytes){ 0 };
	in.num_fde_offsets = 1;
	for (size_t i = 0; i < d->num_fdes && !res->failed; i++) {
		const struct fde_info *f = &d->fdes[i];
		struct sframe_convert_stats st;
		struct sframe_section one;
		struct sframe_buffer buf;
		struct sframe_fde fs, ff;
		struct sframe_row row;
		uint64_t off = 0;
		size_t len = 0;
		int rc;

		if (f->sec != 0 || f->start == f->end || !f->insns)
			continue;
		rc = sframe_eh_frame_hdr_find(&hdr, d->be, whole->eh_frame.addr, f->start, &off);
		if (rc || off != f->off) {
			if (bad++ < MAX_DETAILS)
				printf("  by function: .eh_frame_hdr gives %s %#" PRIx64 " for %#" PRIx64
				       ", the FDE there is at %#" PRIx64 "\n",
				       rc ? sframe_convert_errname(rc) : "offset", off, f->start, f->off);
			continue;
		}
		/* What the whole conversion left out, alone it leaves out too. */
		if (sframe_lookup(full, f->start, &row) != 0 || row.fde.func_start != f->start)
			continue;
		in.fde_offsets = &off;
		rc = sframe_convert(&in, small, sizeof(small), &len, &st);
		if (rc == 0)
			rc = sframe_open_buffer(&one, &buf, small, len, in.sframe_addr);
		if (rc == 0)
			rc = sframe_get_fde(&one, 0, &fs);
		if (rc == 0)
			rc = sframe_get_fde(full, row.fde.index, &ff);
		if (rc || !same_function(&one, &fs, full, &ff) || st.fdes != 1) {
			if (bad++ < MAX_DETAILS)
				printf("  by function: FDE at .eh_frame+%#" PRIx64 " for %#" PRIx64
				       " converted alone differs from the whole conversion (%s)\n",
				       f->off, f->start, rc ? sframe_convert_errname(rc) : "rows");
			continue;
		}
		checked++;
	}
	if (bad) {
		res->failed = true;
		snprintf(res->why, sizeof(res->why),
			 "%zu FDEs found through .eh_frame_hdr or converted alone differ", bad);
	}
	return checked;
}

static void check_file(const char *label, const char *path, struct result *res)
{
	struct dwarf_fdes d = { 0 };
	struct cfi_sec secs[2] = { { ".eh_frame", NULL, 0, true }, { ".debug_frame", NULL, 0, false } };
	struct sframe_addr_range *text = NULL;
	size_t num_text = 0, shstrndx, phnum, out_size = 0, out_len = 0, num_fns = 0;
	uint64_t last_end = 0;
	const struct abi *abi = NULL;
	Dwarf_CFI *cfis[2] = { NULL, NULL };
	Dwarf *dw = NULL;
	Elf *elf = NULL;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	const unsigned char *ident;
	struct sframe_convert_input in;
	struct sframe_section sec;
	struct sframe_buffer buf;
	struct sframe_problem where;
	struct sframe_fn *fns = NULL;
	struct cur_frame cf = { 0 };
	struct readelf_ra re = { 0 };
	void *out = NULL;
	double t0 = now();
	int fd, rc;
	size_t details = 0, un_details = 0, not_conv = 0;

	res->label = label;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fail(res, "cannot open %s: %s", path, strerror(errno));
		goto out;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0 || elf_getphdrnum(elf, &phnum) != 0) {
		fail(res, "%s: not an ELF file libelf reads (%s)", path, elf_errmsg(-1));
		goto out;
	}
	ident = eh.e_ident;
	for (size_t i = 0; i < sizeof(abis) / sizeof(abis[0]); i++)
		if (abis[i].machine == eh.e_machine)
			abi = &abis[i];
	if (!abi) {
		res->failed = true;
		snprintf(res->why, sizeof(res->why), "%s: e_machine %u has no SFrame ABI", path,
			 (unsigned int)eh.e_machine);
		goto out;
	}
	res->arch = abi->name;
	if (abi->machine == SFRAME_EM_AARCH64) {
		readelf_ra_read(path, &re);
		res->readelf_ran = re.have;
		if (!re.have) {
			snprintf(res->readelf_why, sizeof(res->readelf_why), "%s", re.err);
			if (require_files) {
				fail(res, "RA signing cannot be checked against readelf: %s%s",
				     re.err, "");
				goto out;
			}
		}
	}
	d.is64 = ident[EI_CLASS] == ELFCLASS64;
	d.be = ident[EI_DATA] == ELFDATA2MSB;

	/* The CFI sections, by name. */
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		for (int i = 0; i < 2; i++) {
			if (strcmp(name, secs[i].name) != 0 || sh.sh_type == SHT_NOBITS)
				continue;
			if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
				continue;
			secs[i].data = elf_getdata(scn, NULL);
			secs[i].addr = sh.sh_addr;
			if (secs[i].data && secs[i].data->d_size == 0)
				secs[i].data = NULL;
		}
	}
	if (!secs[0].data && !secs[1].data) {
		fail(res, "%s: no .eh_frame nor .debug_frame%s", path, "");
		goto out;
	}

	/* The executable ranges, and where the SFrame section goes. */
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (ph.p_vaddr + ph.p_memsz > last_end)
			last_end = ph.p_vaddr + ph.p_memsz;
		if (!(ph.p_flags & PF_X))
			continue;
		text = xrealloc(text, (num_text + 1) * sizeof(*text));
		text[num_text++] = (struct sframe_addr_range){ ph.p_vaddr, ph.p_vaddr + ph.p_memsz };
	}

	/* The DWARF FDEs, counted and decoded here. */
	if (!collect_section(ident, &secs[0], 0, &d, res->why, sizeof(res->why)) ||
	    !collect_section(ident, &secs[1], 1, &d, res->why, sizeof(res->why))) {
		res->failed = true;
		goto out;
	}
	qsort(d.fdes, d.num_fdes, sizeof(*d.fdes), cmp_fde);
	res->fdes = d.num_fdes;
	res->fdes_eh = d.per_sec[0];
	res->fdes_debug = d.per_sec[1];
	for (size_t i = 0; i < d.num_fdes; i++) {
		const struct fde_info *f = &d.fdes[i];

		if (!f->insns && f->start == 0 && f->end == 0)
			continue;	/* undecoded: in neither count */
		if (f->start == 0 || f->end == f->start)
			res->empty++;
		else if (!in_text(text, num_text, f->start))
			res->outside++;
	}

	/* libdw's view of the same sections. */
	if (secs[0].data)
		cfis[0] = dwarf_getcfi_elf(elf);
	if (secs[1].data) {
		dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
		if (dw)
			cfis[1] = dwarf_getcfi(dw);
	}
	if ((secs[0].data && !cfis[0]) || (secs[1].data && !cfis[1]))
		printf("  note: libdw reads %s (%s)\n", cfis[0] ? ".eh_frame only" : ".debug_frame only",
		       dwarf_errmsg(-1));

	/* Convert. */
	memset(&in, 0, sizeof(in));
	for (int i = 0; i < 2; i++) {
		struct sframe_cfi_bytes *b = i ? &in.debug_frame : &in.eh_frame;

		if (secs[i].data)
			*b = (struct sframe_cfi_bytes){ secs[i].data->d_buf, secs[i].data->d_size,
							secs[i].addr };
	}
	in.machine = abi->machine;
	in.big_endian = d.be;
	in.version = out_version;
	in.sframe_addr = (last_end + 0xfff) & ~(uint64_t)0xfff;
	in.text = text;
	in.num_text = num_text;
	rc = sframe_convert_size(&in, &out_size, NULL);
	if (rc) {
		fail(res, "sframe_convert_size: %s (%s)", sframe_convert_errname(rc),
		     sframe_convert_strerror(rc));
		goto out;
	}
	out = xrealloc(NULL, out_size);
	rc = sframe_convert(&in, out, out_size, &out_len, &res->stats);
	if (rc) {
		fail(res, "sframe_convert: %s (%s)", sframe_convert_errname(rc),
		     sframe_convert_strerror(rc));
		goto out;
	}
	rc = sframe_open_buffer(&sec, &buf, out, out_len, in.sframe_addr);
	if (rc) {
		fail(res, "sframe_open_buffer: %s (%s)", sframe_errname(rc), sframe_strerror(rc));
		goto out;
	}
	rc = sframe_check(&sec, &where);
	if (rc) {
		char at[64];

		snprintf(at, sizeof(at), "FDE %" PRIu32 " FRE %" PRIu32, where.fde, where.fre);
		fail(res, "sframe_check: %s at %s", sframe_errname(rc), at);
		goto out;
	}

	{
		size_t n = check_by_function(elf, shstrndx, &d, &in, &sec, res);

		printf("  by function: %zu FDEs found through .eh_frame_hdr, each converted "
		       "alone as in the whole\n", n);
		if (res->failed)
			goto out;
	}

	/* The SFrame FDEs, and the DWARF FDEs they stand for. */
	fns = xrealloc(NULL, (size_t)sec.num_fdes * sizeof(*fns));
	for (uint32_t i = 0; i < sec.num_fdes; i++) {
		struct sframe_fde f;

		rc = sframe_get_fde(&sec, i, &f);
		if (rc) {
			fail(res, "sframe_get_fde: %s%s", sframe_errname(rc), "");
			goto out;
		}
		fns[num_fns++] = (struct sframe_fn){ f.func_start, f.func_size, f.pc_type,
						     f.pauth_key };
	}
	qsort(fns, num_fns, sizeof(*fns), cmp_fn);
	for (size_t i = 0; i < d.num_fdes; i++) {
		const struct fde_info *f = &d.fdes[i];

		if (f->start == 0 || f->end == f->start || !in_text(text, num_text, f->start))
			continue;
		/* Described twice: the converter keeps the first. */
		if (is_duplicate(&d, i, text, num_text)) {
			res->duplicates++;
			continue;
		}
		if (has_fn_at(fns, num_fns, f->start)) {
			res->converted++;
			check_extent(fns, num_fns, f, res, &details);
		} else if (not_conv++ < MAX_DETAILS)
			printf("  not converted: FDE at %s+%#" PRIx64 " for [%#" PRIx64 ", %#" PRIx64
			       ")\n", secs[f->sec].name, f->off, f->start, f->end);
	}

	/* Every byte of every SFrame function. */
	for (size_t i = 0; i < num_fns; i++) {
		uint64_t end = fns[i].start + fns[i].size;
		const struct fde_info *df = fde_for_pc(&d, fns[i].start);

		/* AArch64: the FDE's key is its CIE's ('B' or not). */
		if (abi->machine == SFRAME_EM_AARCH64 && df && df->insns &&
		    fns[i].pauth_key != (d.cies[df->cie].b_key ? SFRAME_PAUTH_KEY_B
							       : SFRAME_PAUTH_KEY_A)) {
			res->mismatches++;
			if (details++ < MAX_DETAILS)
				printf("  MISMATCH at %#" PRIx64 " (pauth key): DWARF: CIE "
				       "augmentation %s 'B'; converted: key %s\n", fns[i].start,
				       d.cies[df->cie].b_key ? "with" : "without",
				       fns[i].pauth_key == SFRAME_PAUTH_KEY_B ? "B" : "A");
		}

		for (uint64_t pc = fns[i].start; pc < end; pc++) {
			struct sframe_row row;
			struct sframe_rules act;
			struct expect pe;
			const struct expect *e;
			struct sframe_rules dwr;
			char what[96], dwtxt[200], sftxt[200], raw[600];
			int re_mangled = -1;
			bool ok;

			if (pc < cf.start || pc >= cf.end) {
				query(cfis, &d, &re, abi, pc, &cf);
				res->libdw_queries++;
			}
			res->pcs++;
			rc = sframe_lookup(&sec, pc, &row);
			act = row.rules;
			if (!cf.have) {
				if (cf.fde_known) {
					res->unanswered++;
					if (un_details++ < MAX_DETAILS)
						printf("  cannot answer at %#" PRIx64 ": libdw: %s\n", pc,
						       cf.err);
					continue;
				}
				res->mismatches++;
				if (details++ < MAX_DETAILS)
					printf("  MISMATCH at %#" PRIx64 ": no DWARF FDE covers it; "
					       "converted: %s\n", pc,
					       rc ? sframe_errname(rc) : "a row");
				continue;
			}
			e = &cf.e;
			if (cf.e.pc_dep) {
				expect_at(abi, cf.fr, cf.ra_col, cf.signal, pc, &pe);
				e = &pe;
			}
			if (e->ra_eval == EVAL_UNKNOWN ||
			    (!e->r.ra_undefined && (e->cfa_eval == EVAL_UNKNOWN ||
						    e->fp_eval == EVAL_UNKNOWN))) {
				res->unanswered++;
				if (un_details++ < MAX_DETAILS) {
					fmt_libdw(raw, sizeof(raw), cf.fr, cf.ra_col, abi);
					printf("  cannot answer at %#" PRIx64 ": cfa %s, ra %s, fp %s; %s\n",
					       pc, eval_name(e->cfa_eval), eval_name(e->ra_eval),
					       eval_name(e->fp_eval), raw);
				}
				continue;
			}
			if (!cf.mangled_known)
				res->mangled_unchecked++;
			else if (cf.mangled && !e->r.ra_undefined)
				res->mangled_pcs++;
			if (abi->machine == SFRAME_EM_AARCH64 && re.have) {
				if (!cf.readelf) {
					if (res->readelf_unchecked++ == 0)
						printf("  not in readelf's listing (no entry at the "
						       "FDE's offset with its start, or an "
						       "instruction not followed): %#" PRIx64 "\n",
						       pc);
				} else {
					re_mangled = readelf_ra_at(&re, cf.readelf, pc);
				}
				if (re_mangled > 0 && !e->r.ra_undefined)
					res->readelf_mangled_pcs++;
			}
			if (!e->r.ra_undefined &&
			    ((e->r.ra.kind == SFRAME_LOC_REG && !e->r.ra.deref) ||
			     (e->r.fp.kind == SFRAME_LOC_REG && !e->r.fp.deref)))
				res->reg_pcs++;
			if (rc == 0 && e->ra_col == abi->ra &&
			    (e->r.ra_undefined || (e->cfa_eval == EVAL_OK && e->ra_eval == EVAL_OK &&
						   e->fp_eval == EVAL_OK)) &&
			    compare(&cf, e, &act, abi, re_mangled, what, sizeof(what)))
				continue;
			res->mismatches++;
			if (details++ >= MAX_DETAILS)
				continue;
			fmt_libdw(raw, sizeof(raw), cf.fr, cf.ra_col, abi);
			if (!e->r.ra_undefined && (e->cfa_eval != EVAL_OK || e->ra_eval != EVAL_OK ||
						   e->fp_eval != EVAL_OK))
				snprintf(dwtxt, sizeof(dwtxt), "not expressible in SFrame (cfa %s, ra %s, "
					 "fp %s)", eval_name(e->cfa_eval), eval_name(e->ra_eval),
					 eval_name(e->fp_eval));
			else if (e->ra_col != abi->ra)
				snprintf(dwtxt, sizeof(dwtxt), "return address in column %d", e->ra_col);
			else {
				/* The expectation holds no signing state: the scan's. */
				dwr = e->r;
				dwr.ra_mangled = cf.mangled;
				fmt_rules(dwtxt, sizeof(dwtxt), &dwr,
					  abi->machine == SFRAME_EM_AARCH64 && cf.mangled_known);
			}
			if (rc)
				snprintf(sftxt, sizeof(sftxt), "%s", sframe_errname(rc));
			else
				fmt_rules(sftxt, sizeof(sftxt), &act,
					  abi->machine == SFRAME_EM_AARCH64);
			ok = rc == 0;
			printf("  MISMATCH at %#" PRIx64 " (%s):\n    DWARF:     %s\n"
			       "    converted: %s\n    %s\n", pc,
			       ok ? what : "no row", dwtxt, sftxt, raw);
		}
	}
	if (res->mismatches)
		fail(res, "%s mismatch%s", res->mismatches == 1 ? "one" : "several",
		     res->mismatches == 1 ? "" : "es");
	if (res->pcs && res->unanswered * 1000000 / res->pcs > MAX_UNANSWERED_PPM)
		fail(res, "libdw could not answer at too many PCs%s%s", "", "");
	if (res->pcs && res->readelf_unchecked * 1000000 / res->pcs > MAX_UNANSWERED_PPM)
		fail(res, "readelf's listing says nothing at too many PCs%s%s", "", "");

	/* Coverage, and the converter's own counts beside this test's. */
	{
		size_t scope = res->fdes - res->empty - res->outside - res->duplicates;

		res->coverage = scope ? 100.0 * (double)res->converted / (double)scope : 100.0;
		if (res->coverage < MIN_COVERAGE && out_version >= SFRAME_VERSION_3)
			fail(res, "coverage below 99.5%%%s%s", "", "");
		if (res->stats.fdes != res->fdes) {
			char a[32], b[32];

			snprintf(a, sizeof(a), "%" PRIu32, res->stats.fdes);
			snprintf(b, sizeof(b), "%zu", res->fdes);
			fail(res, "the converter read %s DWARF FDEs, dwarf_next_cfi() counts %s", a, b);
		}
		if (res->stats.skipped[SFRAME_SKIP_EMPTY] != res->empty ||
		    res->stats.skipped[SFRAME_SKIP_NOT_TEXT] != res->outside ||
		    res->stats.skipped[SFRAME_SKIP_DUPLICATE] != res->duplicates)
			printf("  note: the converter counts %" PRIu32 " empty, %" PRIu32
			       " outside text and %" PRIu32 " duplicates; this test %zu, %zu and %zu\n",
			       res->stats.skipped[SFRAME_SKIP_EMPTY],
			       res->stats.skipped[SFRAME_SKIP_NOT_TEXT],
			       res->stats.skipped[SFRAME_SKIP_DUPLICATE], res->empty, res->outside,
			       res->duplicates);
	}
	if (d.undecoded)
		printf("  note: %zu FDEs whose range this test could not decode\n", d.undecoded);

out:
	readelf_ra_free(&re);
	free(cf.fr);
	if (cfis[0])
		dwarf_cfi_end(cfis[0]);
	if (dw)
		dwarf_end(dw);
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	free(out);
	free(fns);
	free(text);
	free(d.cies);
	free(d.fdes);
	res->seconds = now() - t0;
}

/* ---- Reports --------------------------------------------------------------------- */

static void left_out(char *b, size_t n, const struct sframe_convert_stats *s)
{
	size_t used = 0;

	b[0] = '\0';
	for (unsigned int k = 0; k < SFRAME_SKIP_COUNT && used < n; k++) {
		int w;

		if (!s->skipped[k])
			continue;
		w = snprintf(b + used, n - used, "%s%s %" PRIu32, used ? ", " : "",
			     sframe_convert_skip_name(k), s->skipped[k]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
	if (!used)
		snprintf(b, n, "none");
}

static void print_file(const struct result *r)
{
	char lo[512];

	if (r->skipped) {
		printf("  SKIP: %s\n", r->why);
		return;
	}
	left_out(lo, sizeof(lo), &r->stats);
	printf("  DWARF FDEs: %zu (.eh_frame %zu, .debug_frame %zu); empty %zu, outside text %zu, "
	       "duplicates %zu\n", r->fdes, r->fdes_eh, r->fdes_debug, r->empty, r->outside,
	       r->duplicates);
	printf("  converted: %zu of %zu (%.2f%%); SFrame FDEs %" PRIu32 " (FLEX %" PRIu32
	       ", PCMASK %" PRIu32 ", signal %" PRIu32 "), rows %" PRIu32 ", outermost rows %" PRIu32
	       "\n", r->converted, r->fdes - r->empty - r->outside - r->duplicates, r->coverage, r->stats.functions,
	       r->stats.flex, r->stats.pcmask, r->stats.signal, r->stats.rows, r->stats.outermost);
	printf("  left out: %s\n", lo);
	printf("  PCs compared: %" PRIu64 " (libdw asked %" PRIu64 " times); mismatches %" PRIu64
	       "; libdw could not answer %" PRIu64 "%s\n", r->pcs, r->libdw_queries, r->mismatches,
	       r->unanswered, r->mangled_unchecked ? "" : "");
	if (r->arch && strcmp(r->arch, "aarch64") == 0) {
		printf("  PCs with a signed return address (DW_CFA_AARCH64_negate_ra_state): %"
		       PRIu64 " by this test's scan", r->mangled_pcs);
		if (r->readelf_ran)
			printf(", %" PRIu64 " by readelf's listing (not listed there: %" PRIu64
			       " PCs)\n", r->readelf_mangled_pcs, r->readelf_unchecked);
		else
			printf("; not checked against readelf: %s\n", r->readelf_why);
	}
	if (r->reg_pcs)
		printf("  PCs where DWARF keeps the RA or the FP in another register: %"
		       PRIu64 "\n", r->reg_pcs);
	if (r->mangled_unchecked)
		printf("  RA signing not checked at %" PRIu64 " PCs (an instruction this test's "
		       "scan does not know)\n", r->mangled_unchecked);
	printf("  %s (%.1f s)%s%s\n", r->failed ? "FAIL" : "PASS", r->seconds,
	       r->failed ? ": " : "", r->failed ? r->why : "");
}

static void print_table(const struct result *rs, size_t n)
{
	printf("\nCoverage of the converter (SFrame v%u):\n\n", out_version);
	printf("| File | Arch | DWARF FDEs | Converted | Coverage | Left out (by reason) |\n");
	printf("|------|------|-----------:|----------:|---------:|----------------------|\n");
	for (size_t i = 0; i < n; i++) {
		const struct result *r = &rs[i];
		char lo[512];

		if (r->skipped || (r->failed && !r->stats.fdes))
			continue;
		left_out(lo, sizeof(lo), &r->stats);
		printf("| %s | %s | %zu | %zu | %.2f%% | %s |\n", r->label, r->arch, r->fdes,
		       r->converted, r->coverage, lo);
	}
}

int main(int argc, char **argv)
{
	const char *files[64];
	size_t num_files = 0, passed = 0, failed = 0, skipped = 0;
	struct result *rs;
	const char *env = getenv("SFRAME_TEST_REQUIRE_DWARF_FILES");
	uint64_t pcs = 0, mism = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (env && strcmp(env, "1") == 0)
		require_files = true;
	/* readelf's headings, which its listing is read by, are translated. */
	setenv("LC_ALL", "C", 1);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--libdw-every-byte") == 0) {
			every_byte = true;
		} else if (strcmp(argv[i], "--version") == 0 && i + 1 < argc) {
			out_version = (uint8_t)atoi(argv[++i]);
		} else if (num_files < sizeof(files) / sizeof(files[0])) {
			files[num_files++] = argv[i];
		}
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		printf("test_convert_dwarf: FAIL: libelf: %s\n", elf_errmsg(-1));
		return 1;
	}
	rs = calloc(num_files ? num_files : NUM_TARGETS, sizeof(*rs));
	if (!rs)
		return 1;
	printf("test_convert_dwarf: the converter against libdw, every byte of every converted "
	       "function (SFrame v%u)\n", out_version);
	for (size_t i = 0; i < (num_files ? num_files : NUM_TARGETS); i++) {
		struct result *r = &rs[i];
		const char *found = NULL;
		char under[PATH_MAX];

		if (num_files) {
			r->label = files[i];
			found = access(files[i], R_OK) == 0 ? files[i] : NULL;
			if (!found)
				snprintf(r->why, sizeof(r->why), "%s: not readable", files[i]);
		} else if (targets[i].root_env) {
			const struct target *t = &targets[i];
			const char *root = getenv(t->root_env);

			r->label = t->label;
			if (!root || !root[0]) {
				snprintf(r->why, sizeof(r->why), "%s is not set (the directory "
					 "where %s is unpacked; .ci/run fetches it)", t->root_env,
					 t->package);
			} else {
				for (size_t k = 0; k < 4 && t->paths[k] && !found; k++) {
					snprintf(under, sizeof(under), "%s%s", root, t->paths[k]);
					if (access(under, R_OK) == 0)
						found = under;
				}
				if (!found)
					snprintf(r->why, sizeof(r->why),
						 "%s not found under %s=%s (%s)", t->paths[0],
						 t->root_env, root, t->package);
			}
		} else {
			r->label = targets[i].label;
			for (size_t k = 0; k < 4 && targets[i].paths[k]; k++) {
				if (access(targets[i].paths[k], R_OK) == 0) {
					found = targets[i].paths[k];
					break;
				}
			}
			if (!found)
				snprintf(r->why, sizeof(r->why),
					 "%s not found (Debian package %s)", targets[i].label,
					 targets[i].package);
		}
		if (!found) {
			printf("\n== %s\n", r->label);
			if (require_files) {
				r->failed = true;
				printf("  FAIL: %s; SFRAME_TEST_REQUIRE_DWARF_FILES=1 requires it\n",
				       r->why);
				failed++;
			} else {
				r->skipped = true;
				print_file(r);
				skipped++;
			}
			continue;
		}
		if (!realpath(found, r->path))
			snprintf(r->path, sizeof(r->path), "%s", found);
		printf("\n== %s: %s\n", r->label, r->path);
		check_file(r->label, r->path, r);
		if (r->arch)
			printf("  %s, %s-endian\n", r->arch, r->arch[0] == 's' ? "big" : "little");
		print_file(r);
		pcs += r->pcs;
		mism += r->mismatches;
		if (r->failed)
			failed++;
		else
			passed++;
	}
	print_table(rs, num_files ? num_files : NUM_TARGETS);
	free(rs);
	printf("\n");
	if (failed) {
		printf("test_convert_dwarf: FAIL: %zu of %zu files failed (%" PRIu64 " mismatches in %"
		       PRIu64 " PCs)\n", failed, passed + failed + skipped, mism, pcs);
		return 1;
	}
	if (!passed) {
		printf("test_convert_dwarf: SKIP: none of the files is installed\n");
		return 77;
	}
	printf("test_convert_dwarf: PASS: %zu files (%zu skipped), %" PRIu64 " PCs, no mismatch\n",
	       passed, skipped, pcs);
	return 0;
}

#endif /* HAVE_LIBDW */
