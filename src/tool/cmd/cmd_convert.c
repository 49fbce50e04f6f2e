/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * cmd_convert.c - "sframe convert FILE -o OUT": the DWARF call-frame
 * information of FILE (.eh_frame, .debug_frame) made into an SFrame section
 * by the library's converter (sframe_convert.h), written to OUT, a side-car
 * ELF file in the manner of a separate debug file:
 *
 *   [0] null
 *   [1] .note.gnu.build-id  SHT_NOTE   FILE's build-id note, at its address
 *   [2] .sframe             SHT_GNU_SFRAME, SHF_ALLOC, at the address the
 *                           section was converted for
 *   [3] .shstrtab
 *
 * (no note when FILE has no build id). No program headers: nothing in it is
 * meant to be loaded as it stands; every reader of .sframe sections (dump,
 * lookup, check, objdump --sframe) takes the section's address from its
 * sh_addr, so the PCs looked up in OUT are FILE's.
 *
 * With --elf, OUT is instead a copy of FILE with the section in a new
 * PT_LOAD segment and a PT_GNU_SFRAME program header, where the kernel
 * finds it (elf_add.c lays the copy out).
 */
#include "cmd/cmd_convert.h"

#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sframe/sframe.h>
#include <sframe/sframe_convert.h>

#include "read/cfi_input.h"
#include "read/elf_add.h"
#include "read/elf_input.h"
#include "read/elf_layout.h"
#include "read/sframe_find.h"
#include "tool_cli.h"

const char sf_convert_usage[] =
	"Usage: sframe convert FILE (-o OUT | --sframe-dir DIR) [--format v2|v3] [--sframe-addr ADDR | --elf [--force]]\n"
	"\n"
	"Make an SFrame section of the DWARF call-frame information of FILE (its\n"
	".eh_frame, and its .debug_frame for the functions .eh_frame leaves out) and\n"
	"write it to OUT, an ELF file that goes with FILE as a separate debug file\n"
	"does: the sections .note.gnu.build-id (FILE's build id), .sframe and\n"
	".shstrtab. dump, lookup and check read OUT as any file with a .sframe\n"
	"section, at FILE's addresses. A function whose rules SFrame cannot express\n"
	"is left out, and counted.\n"
	"\n"
	"With --elf, OUT is a copy of FILE that runs as FILE does, with the section\n"
	"added where the Linux kernel and binutils find it: in a new read-only PT_LOAD\n"
	"segment after FILE's, named by a PT_GNU_SFRAME program header and a .sframe\n"
	"section header. The program header table grows in place when zeros after\n"
	"it leave room, else it moves into that segment; every other byte of FILE\n"
	"keeps its offset and address. OUT gets FILE's permission bits (not\n"
	"set-user-ID or set-group-ID).\n"
	"\n"
	"Options:\n"
	"  -o OUT              the file to write (replaced whole; never FILE itself)\n"
	"  --sframe-dir DIR    write the side-car where stack, perf and unwind look for\n"
	"                      it: DIR/.build-id/NN/REST.sframe, by FILE's build id\n"
	"                      (DIR and the rest made as needed); instead of -o\n"
	"  --format v2|v3      the SFrame version to write; default: v3\n"
	"  --sframe-addr ADDR  the address (hex, a multiple of 8) the .sframe section\n"
	"                      is made for; default: the first one after FILE's\n"
	"                      segments, rounded up to their alignment\n"
	"  --elf               write a copy of FILE with the section loaded, not a\n"
	"                      side-car\n"
	"  --force             with --elf: replace the SFrame FILE has (its .sframe\n"
	"                      section and PT_GNU_SFRAME header now name the new\n"
	"                      section); without it such a FILE is refused\n"
	"  -h, --help          show this help\n"
	"\n"
	"FILE is a linked 64-bit ELF executable, shared library or separate debug file\n"
	"(with --elf: executable or shared library) of x86-64, AArch64 or s390x,\n"
	"either byte order. Options may come before or after FILE.\n"
	"\n"
	"Output: what was converted, then what was left out and why:\n"
	"  FILE: N of M FDEs converted (SFrame vV, F functions, R rows, T bytes of text)\n"
	"    left out: N REASON (B bytes of text)\n"
	"    output: OUT (.sframe at 0xADDR: S bytes; ...)\n"
	"    segment: PT_LOAD at 0xADDR, file offset 0xOFF, S bytes: ... (--elf)\n"
	"\n"
	SF_EXIT_STATUS_TEXT;

#define usage_error(...) sf_cli_usage_error("sframe", "convert", __VA_ARGS__)

struct convert_opts {
	const char *file;
	const char *out;
	const char *sframe_dir;
	char dir_out[SF_SIDECAR_PATH_MAX];
	uint8_t version;
	bool have_addr;
	uint64_t addr;
	bool elf;
	bool force;
};

/* Parse argv into @o; return -1 to go on, or an exit status. */
static int parse_args(int argc, char **argv, struct convert_opts *o)
{
	bool end_of_options = false;
	int i, r;

	memset(o, 0, sizeof(*o));
	o->version = SFRAME_VERSION_3;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val;

		if (end_of_options || a[0] != '-' || a[1] == '\0') {
			if (o->file)
				return usage_error("unexpected argument '%s'", a);
			o->file = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			end_of_options = true;
		} else if (strcmp(a, "-o") == 0) {
			if (i + 1 == argc)
				return usage_error("option '-o' needs a file");
			o->out = argv[++i];
		} else if (strcmp(a, "--format") == 0 || strncmp(a, "--format=", 9) == 0) {
			if (a[8] == '=')
				val = a + 9;
			else if (i + 1 < argc)
				val = argv[++i];
			else
				return usage_error("option '--format' needs v2 or v3");
			if (strcmp(val, "v2") == 0)
				o->version = SFRAME_VERSION_2;
			else if (strcmp(val, "v3") == 0)
				o->version = SFRAME_VERSION_3;
			else
				return usage_error("invalid format '%s' (expected v2 or v3)", val);
		} else if (strcmp(a, "--sframe-addr") == 0 || strncmp(a, "--sframe-addr=", 14) == 0) {
			if (a[13] == '=')
				val = a + 14;
			else if (i + 1 < argc)
				val = argv[++i];
			else
				return usage_error("option '--sframe-addr' needs an address");
			if (!sf_cli_parse_hex(val, &o->addr))
				return usage_error("invalid address '%s' (expected hex)", val);
			/* sh_addr must be a multiple of sh_addralign (8). */
			if (o->addr % 8)
				return usage_error("address '%s' is not a multiple of 8", val);
			o->have_addr = true;
		} else if (strcmp(a, "--sframe-dir") == 0) {
			if (i + 1 == argc || !argv[i + 1][0])
				return usage_error("option '--sframe-dir' needs a directory");
			o->sframe_dir = argv[++i];
		} else if (strcmp(a, "--elf") == 0) {
			o->elf = true;
		} else if (strcmp(a, "--force") == 0) {
			o->force = true;
		} else {
			r = sf_cli_info_option(a, "sframe", sf_convert_usage);
			if (r >= 0)
				return r;
			return usage_error("unknown option '%s'", a);
		}
	}
	if (!o->file)
		return usage_error("missing FILE");
	if (o->out && o->sframe_dir)
		return usage_error("-o and --sframe-dir both name the output: give one");
	if (o->elf && o->sframe_dir)
		return usage_error("--sframe-dir is where side-cars go; --elf writes a copy of FILE "
				   "(give -o)");
	if (!o->out && !o->sframe_dir)
		return usage_error("missing -o OUT (or --sframe-dir DIR)");
	if (o->elf && o->have_addr)
		return usage_error("--sframe-addr does not go with --elf: the new segment's "
				   "place decides the address");
	if (o->force && !o->elf)
		return usage_error("--force goes with --elf (a side-car is made of any file)");
	return -1;
}

/* @v with thousands separators ("1,234,567"), in @buf (at least 27 bytes). */
static const char *num(char *buf, uint64_t v)
{
	char digits[24];
	int n = snprintf(digits, sizeof(digits), "%" PRIu64, v), i, k = 0;

	for (i = 0; i < n; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = digits[i];
	}
	buf[k] = '\0';
	return buf;
}

/* ---- The side-car ------------------------------------------------------------- */

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/* One section header at @p. */
static void put_shdr(unsigned char *p, bool be, uint32_t name, uint32_t type, uint64_t flags,
		     uint64_t addr, uint64_t off, uint64_t size, uint64_t align)
{
	const struct elf_layout *L = &sf_elf64_layout;

	sf_put_uint(p + L->sh_name.off, L->sh_name.width, be, name);
	sf_put_uint(p + L->sh_type.off, L->sh_type.width, be, type);
	sf_put_uint(p + L->sh_flags.off, L->sh_flags.width, be, flags);
	sf_put_uint(p + L->sh_addr.off, L->sh_addr.width, be, addr);
	sf_put_uint(p + L->sh_offset.off, L->sh_offset.width, be, off);
	sf_put_uint(p + L->sh_size.off, L->sh_size.width, be, size);
	sf_put_uint(p + L->sh_addralign.off, L->sh_addralign.width, be, align);
}

/*
 * The side-car's bytes (malloc()ed, *@size of them): FILE's identity
 * (class, byte order, OSABI, type, machine, flags), its build-id note as it
 * is in FILE, the .sframe section @sec (@len bytes) at @addr. NULL when out
 * of memory.
 */
static unsigned char *sidecar_image(const struct sf_cfi_input *cfi, const void *sec, size_t len,
				    uint64_t addr, size_t *size)
{
	/* Names at offsets 1, 20 and 28. */
	static const char shstrtab[] = "\0.note.gnu.build-id\0.sframe\0.shstrtab";
	const struct elf_layout *L = &sf_elf64_layout;
	bool be = cfi->conv.big_endian, note = cfi->has_build_id;
	uint64_t note_off = L->ehsize, sframe_off, str_off, sh_off, total;
	unsigned nsec = note ? 4 : 3, s = 1;
	unsigned char *img, *h;

	sframe_off = align_up(note_off + (note ? cfi->build_id.size : 0), 8);
	str_off = sframe_off + len;
	sh_off = align_up(str_off + sizeof(shstrtab), 8);
	total = sh_off + (uint64_t)nsec * L->shentsize;
	if (len > SIZE_MAX / 2 || total > SIZE_MAX)
		return NULL;
	img = calloc(1, (size_t)total);
	if (!img)
		return NULL;
	h = img;
	memcpy(h, "\177ELF", 4);
	h[EI_CLASS] = ELFCLASS64;
	h[EI_DATA] = be ? ELFDATA2MSB : ELFDATA2LSB;
	h[EI_VERSION] = EV_CURRENT;
	h[EI_OSABI] = cfi->osabi;
	h[EI_ABIVERSION] = cfi->abiversion;
	sf_put_uint(h + L->e_type.off, L->e_type.width, be, cfi->type);
	sf_put_uint(h + L->e_machine.off, L->e_machine.width, be, cfi->conv.machine);
	sf_put_uint(h + L->e_version.off, L->e_version.width, be, EV_CURRENT);
	sf_put_uint(h + L->e_shoff.off, L->e_shoff.width, be, sh_off);
	sf_put_uint(h + L->e_flags.off, L->e_flags.width, be, cfi->flags);
	sf_put_uint(h + L->e_ehsize.off, L->e_ehsize.width, be, L->ehsize);
	sf_put_uint(h + L->e_shentsize.off, L->e_shentsize.width, be, L->shentsize);
	sf_put_uint(h + L->e_shnum.off, L->e_shnum.width, be, nsec);
	sf_put_uint(h + L->e_shstrndx.off, L->e_shstrndx.width, be, nsec - 1);

	/* Section 0 stays all zero. */
	if (note) {
		memcpy(img + note_off, cfi->build_id.note, (size_t)cfi->build_id.size);
		put_shdr(img + sh_off + s++ * L->shentsize, be, 1, SHT_NOTE, SHF_ALLOC,
			 cfi->build_id.addr, note_off, cfi->build_id.size, cfi->build_id.align);
	}
	memcpy(img + sframe_off, sec, len);
	put_shdr(img + sh_off + s++ * L->shentsize, be, 20, SFRAME_SHT_GNU_SFRAME, SHF_ALLOC,
		 addr, sframe_off, len, 8);
	memcpy(img + str_off, shstrtab, sizeof(shstrtab));
	put_shdr(img + sh_off + s * L->shentsize, be, 28, SHT_STRTAB, 0, 0, str_off,
		 sizeof(shstrtab), 1);
	*size = (size_t)total;
	return img;
}

/*
 * Write @n bytes to @path through a temporary file beside it, renamed over
 * it at the end: a failure leaves the old @path as it was. The file gets
 * @mode when @keep_mode, else the mode a new file gets. Returns 0, or -1
 * with a message on standard error.
 */
static int write_file(const char *path, const unsigned char *data, size_t n, bool keep_mode,
		      mode_t mode)
{
	size_t len = strlen(path), done = 0;
	char *tmp = malloc(len + 8);
	mode_t mask;
	int fd;

	if (!tmp) {
		fprintf(stderr, "sframe: %s: out of memory\n", path);
		return -1;
	}
	memcpy(tmp, path, len);
	memcpy(tmp + len, ".XXXXXX", 8);
	fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, "sframe: %s: cannot create a temporary file beside it: %s\n", path,
			strerror(errno));
		free(tmp);
		return -1;
	}
	while (done < n) {
		ssize_t w = write(fd, data + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w == 0)
			errno = EIO;
		if (w <= 0)
			goto fail;
		done += (size_t)w;
	}
	/* mkstemp() makes it 0600: the mode any new file gets instead. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, keep_mode ? mode : 0666 & ~mask) != 0)
		goto fail;
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) != 0)
		goto fail;
	free(tmp);
	return 0;
fail:
	fprintf(stderr, "sframe: %s: %s\n", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	return -1;
}

/* ---- The summary -------------------------------------------------------------- */

static void print_summary(const struct convert_opts *o, const struct sf_cfi_input *cfi,
			  const struct sframe_convert_stats *st, uint64_t addr, size_t len,
			  const struct sf_elf_add_plan *plan)
{
	char a[32], b[32], c[32], d[32], e[32];
	uint64_t left = 0;
	unsigned i;

	for (i = 0; i < SFRAME_SKIP_COUNT; i++)
		left += st->skipped[i];
	printf("%s: %s of %s FDE%s converted (SFrame v%u, %s function%s, %s row%s, %s bytes of "
	       "text)\n", o->file, num(a, left < st->fdes ? st->fdes - left : 0), num(b, st->fdes),
	       st->fdes == 1 ? "" : "s", o->version, num(c, st->functions),
	       st->functions == 1 ? "" : "s", num(d, st->rows), st->rows == 1 ? "" : "s",
	       num(e, st->text_bytes));
	if (st->flex || st->pcmask || st->signal || st->outermost)
		printf("  among them: %s FLEX, %s PCMASK, %s signal-frame; %s outermost-frame "
		       "row%s\n", num(a, st->flex), num(b, st->pcmask), num(c, st->signal),
		       num(d, st->outermost), st->outermost == 1 ? "" : "s");
	for (i = 0; i < SFRAME_SKIP_COUNT; i++)
		if (st->skipped[i])
			printf("  left out: %s %s (%s bytes of text)\n", num(a, st->skipped[i]),
			       sframe_convert_skip_name(i), num(b, st->skipped_bytes[i]));
	if (st->problem_offset != UINT64_MAX)
		printf("  %s offset 0x%" PRIx64 ": malformed CIE or FDE left out (the first)\n",
		       st->problem_in_debug_frame ? ".debug_frame" : ".eh_frame",
		       st->problem_offset);
	if (cfi->eh_frame_nobits)
		printf("  not read: .eh_frame (SHT_NOBITS: not in this file)\n");
	if (cfi->debug_frame_compressed)
		printf("  not read: compressed .debug_frame (SHF_COMPRESSED)\n");
	printf("  output: %s (.sframe at 0x%" PRIx64 ": %s bytes", o->out, addr, num(a, len));
	if (cfi->conv.eh_frame.data && strcmp(cfi->eh_frame_from, "section") == 0)
		printf("; .eh_frame %s bytes", num(b, cfi->conv.eh_frame.size));
	else if (cfi->conv.eh_frame.data)
		printf("; .eh_frame at most %s bytes, through .eh_frame_hdr",
		       num(b, cfi->conv.eh_frame.size));
	if (cfi->conv.debug_frame.data)
		printf("; .debug_frame %s bytes", num(c, cfi->conv.debug_frame.size));
	printf(")\n");
	if (plan && plan->in_place)
		printf("  segment: PT_LOAD at 0x%" PRIx64 ", file offset 0x%" PRIx64 ", %s bytes: "
		       ".sframe (PT_GNU_SFRAME); the program headers grown in place\n",
		       plan->seg_vaddr, plan->seg_offset, num(a, len));
	else if (plan)
		printf("  segment: PT_LOAD at 0x%" PRIx64 ", file offset 0x%" PRIx64 ", %s bytes: "
		       "the program headers (moved), .sframe at 0x%" PRIx64 " (PT_GNU_SFRAME)\n",
		       plan->seg_vaddr, plan->seg_offset,
		       num(a, plan->sframe_offset - plan->seg_offset + len), addr);
}

/* ---- The command -------------------------------------------------------------- */

/* A converter error, naming the entry it stopped at when there is one. */
static void report_convert_error(const char *file, int r, const struct sframe_convert_stats *st)
{
	if (r == -SFRAME_CONVERT_ERR_ENTRY && st->problem_offset != UINT64_MAX)
		fprintf(stderr, "sframe: %s: %s offset 0x%" PRIx64 ": %s (%s)\n", file,
			st->problem_in_debug_frame ? ".debug_frame" : ".eh_frame",
			st->problem_offset, sframe_convert_strerror(r), sframe_convert_errname(r));
	else
		fprintf(stderr, "sframe: %s: cannot convert: %s (%s)\n", file,
			sframe_convert_strerror(r), sframe_convert_errname(r));
}

/*
 * The converter promises sections sframe_check() accepts; one that is not
 * is not written where readers would trust it.
 */
static bool section_valid(const char *file, const void *sec, size_t len, uint64_t addr)
{
	struct sframe_section s;
	struct sframe_buffer buf;
	struct sframe_problem where;
	int r = sframe_open_buffer(&s, &buf, sec, len, addr);

	if (r == 0)
		r = sframe_check(&s, &where);
	if (r == 0)
		return true;
	fprintf(stderr, "sframe: %s: the converter wrote an invalid section: %s (%s)\n", file,
		sframe_strerror(r), sframe_errname(r));
	return false;
}

/* The file's CFI, converted into a malloc()ed section: an exit status. */
static int convert(const struct convert_opts *o, struct sf_cfi_input *cfi, unsigned char **sec,
		   size_t *len, struct sframe_convert_stats *st)
{
	size_t size;
	int r;

	*sec = NULL;
	r = sframe_convert_size(&cfi->conv, &size, st);
	if (r) {
		report_convert_error(o->file, r, st);
		return SF_EXIT_BAD;
	}
	*sec = malloc(size ? size : 1);
	if (!*sec) {
		fprintf(stderr, "sframe: %s: out of memory\n", o->file);
		return SF_EXIT_USAGE;
	}
	r = sframe_convert(&cfi->conv, *sec, size, len, st);
	if (r) {
		report_convert_error(o->file, r, st);
		return SF_EXIT_BAD;
	}
	return section_valid(o->file, *sec, *len, cfi->conv.sframe_addr) ? SF_EXIT_OK
									   : SF_EXIT_BAD;
}

/* The bytes OUT is made of: the side-car, or the copy of FILE (--elf). */
static unsigned char *output_image(const struct convert_opts *o, const struct sf_input *in,
				   const struct sf_cfi_input *cfi, const struct sf_elf_add_plan *plan,
				   const unsigned char *sec, size_t len, size_t *size)
{
	unsigned char *img;
	char err[512];

	if (o->elf) {
		img = sf_elf_add_image(in->file, plan, sec, len, size, o->out, err, sizeof(err));
		if (!img)
			fprintf(stderr, "sframe: %s\n", err);
		return img;
	}
	img = sidecar_image(cfi, sec, len, cfi->conv.sframe_addr, size);
	if (!img)
		fprintf(stderr, "sframe: %s: out of memory\n", o->out);
	return img;
}

/* mkdir @path, which may be there already; false with a message when not made. */
static bool make_dir(const char *path)
{
	struct stat st;

	if (mkdir(path, 0755) == 0 || (errno == EEXIST && stat(path, &st) == 0 &&
				       S_ISDIR(st.st_mode)))
		return true;
	fprintf(stderr, "sframe: %s: cannot make the directory: %s\n", path,
		errno == EEXIST ? "a file of that name is there" : strerror(errno));
	return false;
}

/*
 * --sframe-dir: @o->out is DIR/.build-id/NN/REST.sframe for FILE's build id,
 * as the commands look for it (sframe_find.h), its directories made. -1 to
 * go on, or an exit status.
 */
static int sidecar_place(struct convert_opts *o, const struct sf_input *in)
{
	char hex[2 * SF_BUILD_ID_MAX + 1], dir[SF_SIDECAR_PATH_MAX];
	const unsigned char *id;
	size_t len;
	char *slash;

	if (!sf_elf_build_id(in->file, in->file_size, &id, &len) || len < 2) {
		fprintf(stderr, "sframe: %s: no GNU build id (or one shorter than 2 bytes): side-cars "
			"are found by it; link with --build-id, or give -o\n", o->file);
		return SF_EXIT_BAD;
	}
	sf_build_id_hex(hex, id, len);
	if (!sf_sidecar_path(o->dir_out, sizeof(o->dir_out), o->sframe_dir, hex)) {
		fprintf(stderr, "sframe: %s: the side-car's path is too long\n", o->sframe_dir);
		return SF_EXIT_USAGE;
	}
	/* DIR, DIR/.build-id, DIR/.build-id/NN; DIR's parent must be there. */
	if (!make_dir(o->sframe_dir))
		return SF_EXIT_USAGE;
	snprintf(dir, sizeof(dir), "%s", o->dir_out);
	slash = strrchr(dir, '/');
	*slash = '\0';
	slash = strrchr(dir, '/');
	*slash = '\0';
	if (!make_dir(dir))
		return SF_EXIT_USAGE;
	*slash = '/';
	if (!make_dir(dir))
		return SF_EXIT_USAGE;
	o->out = o->dir_out;
	return -1;
}

/* Loaded, converted, written, summed up: an exit status. */
static int run(const struct convert_opts *o, const struct sf_input *in, mode_t mode)
{
	struct sframe_convert_stats st;
	struct sf_elf_add_plan plan;
	struct sf_cfi_input cfi;
	unsigned char *sec = NULL, *img;
	size_t len = 0, img_size;
	char err[512];
	int status;

	if (sf_cfi_input_load(in->file, in->file_size, &cfi, o->file, err, sizeof(err))) {
		fprintf(stderr, "sframe: %s\n", err);
		return SF_EXIT_BAD;
	}
	if (cfi.type == ET_REL) {
		fprintf(stderr, "sframe: %s: relocatable object: link it first; %s\n", o->file,
			o->elf ? "only executables and shared libraries are loaded"
			       : "its .eh_frame needs relocations the side-car cannot carry");
		sf_cfi_input_free(&cfi);
		return SF_EXIT_BAD;
	}
	/* Before converting: the section is made for the address the copy gives it. */
	if (o->elf && sf_elf_add_plan(in->file, in->file_size, o->force, &plan, o->file, err,
				      sizeof(err))) {
		fprintf(stderr, "sframe: %s\n", err);
		sf_cfi_input_free(&cfi);
		return SF_EXIT_BAD;
	}
	if (o->elf && !plan.padded)
		fprintf(stderr, "sframe: %s: warning: the new segment's address minus its offset "
			"is not the first segment's (that would take over 1 MiB of padding): "
			"run as a program, %s needs Linux 5.18 or later to find its program "
			"headers\n", o->file, o->out);
	if (!cfi.conv.eh_frame.data && !cfi.conv.debug_frame.data) {
		fprintf(stderr, "sframe: %s: no DWARF call-frame information to read: %s, %s\n",
			o->file,
			cfi.eh_frame_nobits ? ".eh_frame has no bytes in this file (SHT_NOBITS)"
					    : "no .eh_frame",
			cfi.debug_frame_compressed ? ".debug_frame is compressed (not read)"
						   : "no .debug_frame");
		sf_cfi_input_free(&cfi);
		return SF_EXIT_BAD;
	}
	if (cfi.has_sframe && !o->elf)
		fprintf(stderr, "sframe: %s: warning: it has an SFrame section already; %s is "
			"made of its DWARF CFI all the same\n", o->file, o->out);
	if (!cfi.has_build_id && !o->elf)
		fprintf(stderr, "sframe: %s: warning: no GNU build id: nothing ties the side-car "
			"to it (link with --build-id)\n", o->file);
	cfi.conv.version = o->version;
	if (o->elf)
		cfi.conv.sframe_addr = plan.sframe_addr;
	else if (o->have_addr)
		cfi.conv.sframe_addr = o->addr;
	status = convert(o, &cfi, &sec, &len, &st);
	if (status == SF_EXIT_OK) {
		img = output_image(o, in, &cfi, &plan, sec, len, &img_size);
		if (!img) {
			status = SF_EXIT_USAGE;
		} else {
			if (write_file(o->out, img, img_size, o->elf, mode))
				status = SF_EXIT_USAGE;
			else
				print_summary(o, &cfi, &st, cfi.conv.sframe_addr, len,
					      o->elf ? &plan : NULL);
			free(img);
		}
	}
	free(sec);
	sf_cfi_input_free(&cfi);
	return status;
}

int sf_cmd_convert(int argc, char **argv)
{
	struct convert_opts o;
	struct stat fst, ost;
	struct sf_input in;
	char err[512];
	int status;

	status = parse_args(argc, argv, &o);
	if (status >= 0)
		return status;
	if (sf_input_bytes(o.file, &in, err, sizeof(err))) {
		fprintf(stderr, "sframe: %s\n", err);
		return SF_EXIT_USAGE;
	}
	if (o.sframe_dir) {
		status = sidecar_place(&o, &in);
		if (status >= 0) {
			sf_input_free(&in);
			return status;
		}
	}
	/* Whatever path leads to it (a link, another name): never written over. */
	memset(&fst, 0, sizeof(fst));
	if (stat(o.file, &fst) == 0 && stat(o.out, &ost) == 0 && fst.st_dev == ost.st_dev &&
	    fst.st_ino == ost.st_ino) {
		sf_input_free(&in);
		return usage_error("OUT '%s' is FILE '%s' itself: the input is never written over",
				   o.out, o.file);
	}
	/* The copy runs as FILE does; set-ID bits are not handed on to a new file. */
	status = run(&o, &in, fst.st_mode & 0777);
	sf_input_free(&in);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "sframe: write error on standard output\n");
		status = SF_EXIT_USAGE;
	}
	return status;
}
