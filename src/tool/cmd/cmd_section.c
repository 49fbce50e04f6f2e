/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * cmd_section.c - the commands on one file's SFrame section:
 *
 *   sframe dump FILE          what objdump --sframe prints, byte for byte
 *   sframe lookup FILE [PC]   the row that describes each PC
 *   sframe check FILE         validate every FDE and FRE
 *
 * The tool's main parses their arguments (options may come before the
 * command word); each opens FILE's section, lld's parts included, here.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sframe/sframe.h>

#include "abi/tool_abi.h"
#include "cmd/cmd_section.h"
#include "out/format_row.h"
#include "read/elf_input.h"
#include "read/parts.h"
#include "tool_cli.h"

#define EXIT_BAD	SF_EXIT_BAD
#define EXIT_USAGE	SF_EXIT_USAGE

/* The input and the option of dump, lookup and check. */
#define VADDR_OPTION_TEXT \
	"  --vaddr ADDR  run-time address (hex) of the section's first byte; default:\n" \
	"                the ELF section or segment address, 0 for a raw section\n" \
	"  -h, --help    show this help\n"
#define FILE_TEXT \
	"FILE is an ELF file (32 or 64 bit, either byte order) with a .sframe section\n" \
	"or a PT_GNU_SFRAME segment, or a raw section (as written by objcopy -O binary\n" \
	"--only-section=.sframe). Relocatable objects get their .sframe relocations\n" \
	"applied first. Options may come before or after FILE.\n"
#define FILE_COMMAND_TAIL \
	"Options:\n" VADDR_OPTION_TEXT "\n" FILE_TEXT "\n" SF_EXIT_STATUS_TEXT

const char sf_dump_usage[] =
	"Usage: sframe dump [--vaddr ADDR] FILE\n"
	"\n"
	"Print the SFrame section of FILE as 'objdump --sframe FILE' (binutils 2.47)\n"
	"does, from its line 'Contents of the SFrame section .sframe:' on: the header,\n"
	"then every function (FDE) with its rows (FREs): start address, CFA, FP and RA.\n"
	"\n"
	FILE_COMMAND_TAIL;

const char sf_lookup_usage[] =
	"Usage: sframe lookup [--vaddr ADDR] FILE [PC...]\n"
	"\n"
	"Print the row of the SFrame section of FILE that describes each PC (hex, 0x\n"
	"optional), given as arguments or else one per line on standard input:\n"
	"  0xPC 0xFUNC +0xOFFSET CFA FP RA   the function's start, the row's offset in\n"
	"                                    it, and the row's rules as dump prints them\n"
	"  0xPC -                            no row covers PC\n"
	"  0xPC !ERROR                       the lookup failed; ERROR names why\n"
	"\n"
	FILE_COMMAND_TAIL;

const char sf_check_usage[] =
	"Usage: sframe check [--vaddr ADDR] FILE\n"
	"\n"
	"Validate every FDE and FRE of the SFrame section of FILE. Prints\n"
	"'FILE: valid (N FDEs, M FREs, SFrame vV, ABI)', or, on standard error, the\n"
	"first FDE or FRE that is invalid and why.\n"
	"\n"
	FILE_COMMAND_TAIL;

/* Finish writing stdout; a write error is an I/O error. */
static int finish(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fputs("sframe: write error on standard output\n", stderr);
		return EXIT_USAGE;
	}
	return status;
}

static void report(const char *file, const char *what, int err)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s%s%s (%s)\n", file, what, *what ? ": " : "",
		sframe_strerror(err), sframe_errname(err));
}

/* ---- dump ----------------------------------------------------------------- */

static void dump_flags(const struct sframe_section *sec)
{
	static const struct {
		unsigned bit;
		const char *name;
		bool v12_only;
	} names[] = {
		{ SFRAME_F_FDE_SORTED, "SFRAME_F_FDE_SORTED", false },
		{ SFRAME_F_FRAME_POINTER, "SFRAME_F_FRAME_POINTER", true },
		{ SFRAME_F_FDE_FUNC_START_PCREL, "SFRAME_F_FDE_FUNC_START_PCREL", false },
	};
	unsigned left = sec->flags;
	const char *prefix = "Flags: ";
	size_t i;

	if (left == 0) {
		printf("    Flags: NONE\n");
		return;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(left & names[i].bit) ||
		    (names[i].v12_only && sec->version > SFRAME_VERSION_2))
			continue;
		left &= ~names[i].bit;
		printf("%11s%s%s\n", prefix, names[i].name, left ? "," : "");
		prefix = " ";
	}
	if (left)
		printf("%11s%u\n", prefix, left);
}

static int dump_fde(const struct sframe_section *sec, uint32_t idx, const char *file)
{
	struct sframe_fre_iter it;
	struct sframe_fre fre;
	struct sframe_fde fde;
	char what[64];
	bool pcmask;
	uint32_t n;
	int r;

	r = sframe_get_fde(sec, idx, &fde);
	if (r) {
		snprintf(what, sizeof(what), "FDE %" PRIu32, idx);
		report(file, what, r);
		return -1;
	}
	pcmask = fde.pc_type == SFRAME_PC_TYPE_MASK;
	printf("\n    func idx [%" PRIu32 "]: pc = 0x%" PRIx64 ", size = %" PRId32 " bytes", idx,
	       fde.func_start, (int32_t)fde.func_size);
	if (fde.signal || fde.fde_type == SFRAME_FDE_TYPE_FLEX)
		printf(", attr = \"%s%s\"", fde.signal ? "S" : "",
		       fde.fde_type == SFRAME_FDE_TYPE_FLEX ? "F" : "");
	if ((sec->abi == SFRAME_ABI_AARCH64_BE || sec->abi == SFRAME_ABI_AARCH64_LE) &&
	    fde.pauth_key == SFRAME_PAUTH_KEY_B)
		printf(", pauth = B key");
	printf("\n    %-7s%-8s %-10s%-10s%-13s", "STARTPC", pcmask ? "[m]" : "   ", "CFA", "FP",
	       "RA");

	r = sframe_fre_iter_init(sec, &fde, &it);
	for (n = 0; r == 0; n++) {
		struct sf_row_text text;

		r = sframe_fre_iter_next(sec, &it, &fre);
		if (r != 1)
			break;
		r = 0;
		printf("\n    %016" PRIx64, pcmask ? (uint64_t)fre.start : fde.func_start + fre.start);
		sf_format_row(sec, &fde, &fre, &text);
		sf_print_row_dump(stdout, &text);
	}
	if (r < 0) {
		printf("\n");
		snprintf(what, sizeof(what), "FDE %" PRIu32 ", FRE %" PRIu32, idx, n);
		report(file, what, r);
		return -1;
	}
	printf("\n");
	return 0;
}

/*
 * One part: what objdump prints for a section, under @title. A damaged FDE
 * or FRE stops only its own function's dump: the others are printed
 * (objdump's layout on standard output), the problem goes to standard error
 * where the function would be, and the part counts as failed.
 */
static bool dump_part(const struct sframe_section *sec, const char *file, const char *title)
{
	bool ok = true;
	uint32_t i;

	printf("%s\n  Header :\n\n", title);
	printf("    Version: SFRAME_VERSION_%u\n", sec->version);
	dump_flags(sec);
	if (sec->fixed_fp != 0)
		printf("    CFA fixed FP offset: %d\n", sec->fixed_fp);
	if (sec->fixed_ra != 0)
		printf("    CFA fixed RA offset: %d\n", sec->fixed_ra);
	printf("    Num FDEs: %" PRId32 "\n", (int32_t)sec->num_fdes);
	printf("    Num FREs: %" PRId32 "\n", (int32_t)sec->num_fres);
	printf("\n  Function Index :\n");
	for (i = 0; i < sec->num_fdes; i++)
		if (dump_fde(sec, i, file))
			ok = false;
	return ok;
}

/*
 * A section of several parts: each part as objdump prints it when it is
 * cut out and dumped as a section at its own address, the title line
 * naming the part; a blank line between parts. A damaged part does not
 * stop the others.
 */
static int dump(const struct sf_parts *p, const struct sf_section_args *a)
{
	const char *file = a->file;
	char title[128];
	bool ok = !p->err;
	size_t i;

	if (p->n == 1)
		return finish(dump_part(&p->sec[0], file, "Contents of the SFrame section .sframe:") &&
			      ok ? EXIT_SUCCESS : EXIT_BAD);
	for (i = 0; i < p->n; i++) {
		snprintf(title, sizeof(title),
			 "Contents of the SFrame section .sframe (part %zu of %zu, at offset 0x%" PRIx64
			 "):", i + 1, p->n, p->off[i]);
		if (i > 0)
			putchar('\n');
		if (!dump_part(&p->sec[i], file, title))
			ok = false;
	}
	return finish(ok ? EXIT_SUCCESS : EXIT_BAD);
}

/* ---- lookup ----------------------------------------------------------------- */

/* One PC; returns false when the lookup failed. */
static bool lookup_pc(const struct sf_parts *p, uint64_t pc, const char *file)
{
	const struct sframe_section *sec;
	struct sframe_row row;
	struct sf_row_text text;
	int r;

	r = sf_parts_lookup(p, pc, &row, &sec);
	if (r == -SFRAME_ERR_NOT_FOUND) {
		printf("0x%" PRIx64 " -\n", pc);
		return true;
	}
	if (r) {
		char what[40];

		printf("0x%" PRIx64 " !%s\n", pc, sframe_errname(r));
		snprintf(what, sizeof(what), "lookup 0x%" PRIx64, pc);
		report(file, what, r);
		return false;
	}
	sf_format_row(sec, &row.fde, &row.fre, &text);
	printf("0x%" PRIx64 " 0x%" PRIx64 " +0x%" PRIx32 " ", pc, row.fde.func_start,
	       row.fre.start);
	sf_print_row_compact(stdout, &text);
	putchar('\n');
	return true;
}

/* Trim leading and trailing blanks (and the line end) in place. */
static char *trim(char *s)
{
	size_t len;

	while (*s == ' ' || *s == '\t')
		s++;
	len = strlen(s);
	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r' || s[len - 1] == ' ' ||
		       s[len - 1] == '\t'))
		s[--len] = '\0';
	return s;
}

static int lookup(const struct sf_parts *p, const struct sf_section_args *o)
{
	bool ok = true;
	uint64_t pc;
	char line[256];
	unsigned long lineno = 0;
	int i;

	for (i = 0; i < o->npcs; i++) {
		if (!sf_cli_parse_hex(o->pcs[i], &pc)) {
			fflush(stdout);
			fprintf(stderr, "sframe: invalid PC '%s' (expected hex)\n", o->pcs[i]);
			finish(EXIT_USAGE);
			return EXIT_USAGE;
		}
		ok &= lookup_pc(p, pc, o->file);
	}
	if (o->npcs > 0)
		return finish(ok && !p->err ? EXIT_SUCCESS : EXIT_BAD);

	while (fgets(line, sizeof(line), stdin)) {
		size_t len = strlen(line);
		char *s;

		lineno++;
		if (len == sizeof(line) - 1 && line[len - 1] != '\n' && !feof(stdin)) {
			fflush(stdout);
			fprintf(stderr, "sframe: stdin:%lu: line too long\n", lineno);
			finish(EXIT_USAGE);
			return EXIT_USAGE;
		}
		s = trim(line);
		if (*s == '\0')
			continue;
		if (!sf_cli_parse_hex(s, &pc)) {
			fflush(stdout);
			fprintf(stderr, "sframe: stdin:%lu: invalid PC '%s' (expected hex)\n",
				lineno, s);
			finish(EXIT_USAGE);
			return EXIT_USAGE;
		}
		ok &= lookup_pc(p, pc, o->file);
	}
	if (ferror(stdin)) {
		fflush(stdout);
		fputs("sframe: read error on standard input\n", stderr);
		finish(EXIT_USAGE);
		return EXIT_USAGE;
	}
	return finish(ok && !p->err ? EXIT_SUCCESS : EXIT_BAD);
}

/* ---- check ------------------------------------------------------------------ */

/* Validate one part; @part names it ("" for a section of one part). */
static bool check_part(const struct sframe_section *sec, const char *file, const char *part)
{
	struct sframe_problem where;
	char what[160];
	int r;

	r = sframe_check(sec, &where);
	if (r == 0) {
		printf("%s: %svalid (%" PRIu32 " FDE%s, %" PRIu32 " FRE%s, SFrame v%u, %s)\n", file,
		       part, sec->num_fdes, sec->num_fdes == 1 ? "" : "s", sec->num_fres,
		       sec->num_fres == 1 ? "" : "s", sec->version, sf_abi_format_name(sec->abi));
		return true;
	}
	if (r == -SFRAME_ERR_TRAILING)
		snprintf(what, sizeof(what), "%sinvalid: after the FRE area", part);
	else if (where.fde == SFRAME_NO_INDEX)
		snprintf(what, sizeof(what), "%sinvalid: header", part);
	else if (where.fre == SFRAME_NO_INDEX)
		snprintf(what, sizeof(what), "%sinvalid: FDE %" PRIu32, part, where.fde);
	else
		snprintf(what, sizeof(what), "%sinvalid: FDE %" PRIu32 ", FRE %" PRIu32, part,
			 where.fde, where.fre);
	report(file, what, r);
	return false;
}

/*
 * Several parts are not one valid section, whatever each is worth: every
 * reader of the first header (objdump, libsframe, the kernel) sees only the
 * first part's functions. Each part is checked on its own as well.
 */
static int check(const struct sf_parts *p, const struct sf_section_args *a)
{
	const char *file = a->file;
	/* Garbage after the last part is that part's problem (sframe_check() says so). */
	bool broken_next = p->err && p->err != -SFRAME_ERR_TRAILING;
	size_t total = p->n + (broken_next ? 1 : 0), i;
	char part[96], what[96];
	bool ok = true;

	if (total == 1)
		return finish(check_part(&p->sec[0], file, "") ? EXIT_SUCCESS : EXIT_BAD);
	for (i = 0; i < p->n; i++) {
		snprintf(part, sizeof(part), "part %zu of %zu (offset 0x%" PRIx64 "): ", i + 1,
			 total, p->off[i]);
		ok &= check_part(&p->sec[i], file, part);
	}
	if (broken_next) {
		snprintf(what, sizeof(what), "part %zu of %zu (offset 0x%" PRIx64 "): invalid",
			 total, total, p->err_off);
		report(file, what, p->err);
	}
	fflush(stdout);
	fprintf(stderr, "%s: invalid: not one SFrame section but %zu concatenated sections, as "
		"LLVM lld links them (one per input object, unmerged: readers of the first "
		"header see only the first object's functions)%s (%s)\n", file, total,
		ok && !broken_next ? "; each is valid on its own" : "",
		sframe_errname(-SFRAME_ERR_CONCAT));
	return finish(EXIT_BAD);
}

/* ---- opening FILE ------------------------------------------------------------ */

typedef int section_fn(const struct sf_parts *p, const struct sf_section_args *a);

/* Load @a->file's section and its parts, then run @fn on them. */
static int on_section(const struct sf_section_args *a, const char *cmd, section_fn *fn)
{
	static char outbuf[1 << 16];
	struct sf_parts parts;
	struct sf_input in;
	char err[512];
	int r;

	r = sf_input_load(a->file, a->have_vaddr, a->vaddr, &in, err, sizeof(err));
	if (r) {
		fprintf(stderr, "%s\n", err);
		return r == SF_INPUT_EIO ? EXIT_USAGE : EXIT_BAD;
	}
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));

	r = sf_parts_open(&parts, in.sec, in.sec_size, in.vaddr);
	if (r) {
		bool oom = sf_parts_error(r, a->file, in.how, err, sizeof(err));

		fprintf(stderr, "%s\n", err);
		sf_parts_free(&parts);
		sf_input_free(&in);
		return oom ? EXIT_USAGE : EXIT_BAD;
	}
	if (fn != check && (parts.n > 1 || parts.err))
		sf_parts_warn(&parts, a->file, cmd);
	r = fn(&parts, a);
	sf_parts_free(&parts);
	sf_input_free(&in);
	return r;
}

int sf_cmd_dump(const struct sf_section_args *a)
{
	return on_section(a, "dump", dump);
}

int sf_cmd_lookup(const struct sf_section_args *a)
{
	return on_section(a, "lookup", lookup);
}

int sf_cmd_check(const struct sf_section_args *a)
{
	return on_section(a, "check", check);
}
