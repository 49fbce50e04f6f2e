/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_find.c - SFrame for files without it: a side-car by build id, else
 * a conversion of the file's call-frame information, made once per file and
 * kept as long as the file is.
 */
#include "read/sframe_find.h"

#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sframe/sframe.h>

#include "read/cfi_input.h"
#include "tool_cli.h"

/*
 * The buffer the conversion tries first, for @cfi_bytes of CFI; a test
 * builds this file with a smaller one to take the second path.
 */
#ifndef SF_CONVERT_FIRST_TRY
#define SF_CONVERT_FIRST_TRY(cfi_bytes) (2 * (size_t)(cfi_bytes) + SFRAME_HDR_SIZE)
#endif

/* The same for a conversion by function: a page holds the few functions of a stack. */
#ifndef SF_CONVERT_FUNCTION_TRY
#define SF_CONVERT_FUNCTION_TRY 4096
#endif

int sf_sframe_opt(int argc, char **argv, size_t *i, struct sf_sframe_opts *o, const char *cmd)
{
	const char *a = argv[*i];

	if (strcmp(a, "--no-convert") == 0) {
		o->no_convert = true;
		return 1;
	}
	if (strcmp(a, "--sframe-dir") != 0)
		return 0;
	if (*i + 1 >= (size_t)argc || !argv[*i + 1][0])
		return -sf_cli_usage_error("sframe", cmd, "option '%s' needs a value", a);
	if (o->ndirs == SF_SFRAME_DIRS_MAX)
		return -sf_cli_usage_error("sframe", cmd, "at most %d --sframe-dir options",
					   SF_SFRAME_DIRS_MAX);
	o->dirs[o->ndirs++] = argv[++*i];
	return 1;
}

bool sf_sidecar_path(char *buf, size_t len, const char *dir, const char *hex)
{
	int n = snprintf(buf, len, "%s/.build-id/%.2s/%s.sframe", dir, hex, hex + 2);

	return n > 0 && (size_t)n < len && strlen(hex) > 2;
}

/*
 * A side-car in @dir for the build id @id: the section is used only when
 * the side-car names the same build id and machine (a stale side-car left
 * from an older build of the file must not describe the new one).
 */
static bool try_sidecar(const char *dir, const char *hex, const unsigned char *id, size_t len,
			uint16_t machine, struct sf_sframe_found *found)
{
	const unsigned char *sid;
	size_t slen;
	char err[512];

	if (!sf_sidecar_path(found->sidecar_path, sizeof(found->sidecar_path), dir, hex) ||
	    access(found->sidecar_path, R_OK) != 0)
		return false;
	if (sf_input_load(found->sidecar_path, 0, 0, &found->sidecar, err, sizeof(err))) {
		snprintf(found->refused, sizeof(found->refused), "side-car refused: %.200s", err);
		return false;
	}
	if (!found->sidecar.sec || !sf_input_is_elf(&found->sidecar) ||
	    !sf_elf_build_id(found->sidecar.file, found->sidecar.file_size, &sid, &slen) ||
	    slen != len || memcmp(sid, id, len) != 0 ||
	    sf_elf_machine(found->sidecar.file, found->sidecar.file_size) != machine) {
		snprintf(found->refused, sizeof(found->refused),
			 "side-car %.200s refused: not made from this file", found->sidecar_path);
		sf_input_free(&found->sidecar);
		return false;
	}
	return true;
}

static bool find_sidecar(const struct sf_sframe_opts *opts, const struct sf_input *in,
			 struct sf_sframe_found *found)
{
	char hex[2 * SF_BUILD_ID_MAX + 1];
	const unsigned char *id;
	uint16_t machine = sf_elf_machine(in->file, in->file_size);
	size_t len, i;

	if (!sf_elf_build_id(in->file, in->file_size, &id, &len) || len < 2)
		return false;
	sf_build_id_hex(hex, id, len);
	for (i = 0; opts && i < opts->ndirs; i++) {
		if (try_sidecar(opts->dirs[i], hex, id, len, machine, found))
			return true;
	}
	return try_sidecar(SF_SFRAME_DIR, hex, id, len, machine, found);
}

/* @in's CFI into @cfi, or false with @found->why set. */
static bool load_cfi(struct sf_input *in, const char *name, struct sf_sframe_found *found,
		     struct sf_cfi_input *cfi)
{
	char err[512];

	if (sf_cfi_input_load(in->file, in->file_size, cfi, name, err, sizeof(err))) {
		const char *msg = strstr(err, ": ");

		snprintf(found->why, sizeof(found->why), "%.200s", msg ? msg + 2 : err);
		return false;
	}
	/* Unwinding runs linked code: an object's addresses are not its own yet. */
	if (cfi->type != ET_EXEC && cfi->type != ET_DYN) {
		snprintf(found->why, sizeof(found->why),
			 "not an executable or shared library, nothing to convert");
		sf_cfi_input_free(cfi);
		return false;
	}
	if (!cfi->conv.eh_frame.size && !cfi->conv.debug_frame.size) {
		snprintf(found->why, sizeof(found->why), "no .sframe, no .eh_frame to convert");
		sf_cfi_input_free(cfi);
		return false;
	}
	return true;
}

/*
 * @conv converted into a buffer of its own (*@buf, *@len), with a first
 * try of @guess bytes; 0, or the converter's error; -ENOMEM.
 */
static int run_conversion(const struct sframe_convert_input *conv, size_t guess,
			  struct sframe_convert_stats *stats, unsigned char **buf, size_t *len)
{
	size_t size = guess;
	unsigned char *b = malloc(size);
	int r = b ? sframe_convert(conv, b, size, len, stats) : 0;

	if (!b || r == -SFRAME_CONVERT_ERR_SPACE) {
		free(b);
		r = sframe_convert_size(conv, &size, stats);
		if (r)
			return r;
		b = malloc(size);
		if (!b)
			return -ENOMEM;
		r = sframe_convert(conv, b, size, len, stats);
	}
	if (r) {
		free(b);
		return r;
	}
	/* The working records past the section are not kept. */
	if (*len < size) {
		unsigned char *shrunk = realloc(b, *len ? *len : 1);

		if (shrunk)
			b = shrunk;
	}
	*buf = b;
	return 0;
}

/* @in's section from now on: @buf (owned), @len bytes at @vaddr. */
static void install(struct sf_input *in, unsigned char *buf, size_t len, uint64_t vaddr)
{
	free(in->owned_copy);
	in->owned_copy = buf;
	in->sec = buf;
	in->sec_size = len;
	in->vaddr = vaddr;
	in->how = "conversion";
}

/* The section converted from @in's CFI, as "sframe convert" would write it. */
static bool convert(struct sf_input *in, const char *name, struct sf_sframe_found *found)
{
	struct sf_cfi_input cfi;
	unsigned char *buf = NULL;
	size_t len = 0;
	int r;

	if (!load_cfi(in, name, found, &cfi))
		return false;
	/*
	 * One pass where it is enough (sframe_convert.h): twice the CFI's
	 * bytes holds the section of every file measured; the size query,
	 * which reads the CFI once more, only when it does not.
	 */
	r = run_conversion(&cfi.conv,
			   SF_CONVERT_FIRST_TRY(cfi.conv.eh_frame.size + cfi.conv.debug_frame.size),
			   &found->stats, &buf, &len);
	if (r == -ENOMEM) {
		snprintf(found->why, sizeof(found->why), "out of memory converting .eh_frame");
	} else if (r) {
		snprintf(found->why, sizeof(found->why), "converting .eh_frame: %s (%s)",
			 sframe_convert_strerror(r), sframe_convert_errname(r));
	} else if (!found->stats.functions) {
		snprintf(found->why, sizeof(found->why),
			 "no function of .eh_frame could be converted");
		free(buf);
		r = -1;
	}
	if (r == 0)
		install(in, buf, len, cfi.conv.sframe_addr);
	sf_cfi_input_free(&cfi);
	return r == 0;
}

/*
 * Set @found up for conversion by function: the CFI kept, with an
 * .eh_frame_hdr whose table finds .eh_frame's FDEs. False when the file
 * has none (or no CFI at all: @found->why says so).
 */
static bool start_by_function(struct sf_input *in, const char *name,
			      struct sf_sframe_found *found)
{
	struct sf_cfi_input *cfi = calloc(1, sizeof(*cfi));
	uint64_t at, off;
	int r;

	if (!cfi || !load_cfi(in, name, found, cfi)) {
		free(cfi);
		return false;
	}
	/* The table must be .eh_frame's: its pointer says where that is. */
	if (!cfi->eh_frame_hdr.data || !cfi->conv.eh_frame.size ||
	    sframe_eh_frame_hdr_ptr(&cfi->eh_frame_hdr, cfi->conv.big_endian, &at) ||
	    at != cfi->conv.eh_frame.addr) {
		sf_cfi_input_free(cfi);
		free(cfi);
		return false;
	}
	r = sframe_eh_frame_hdr_find(&cfi->eh_frame_hdr, cfi->conv.big_endian, at, UINT64_MAX,
				     &off);
	if (r) {
		sf_cfi_input_free(cfi);
		free(cfi);
		return false;
	}
	found->cfi = cfi;
	return true;
}

/*
 * The section of the functions converted so far and @addr's: 1 with *@buf
 * (owned) and *@len when it has a function more; 0 when not; -1 when out
 * of memory.
 */
static int convert_function(struct sf_sframe_found *found, uint64_t addr, unsigned char **buf,
			    size_t *len)
{
	struct sframe_convert_stats st;
	struct sframe_convert_input conv = found->cfi->conv;
	uint64_t off, *nv;
	size_t i;
	int r;

	if (sframe_eh_frame_hdr_find(&found->cfi->eh_frame_hdr, conv.big_endian,
				     conv.eh_frame.addr, addr, &off))
		return 0;
	for (i = 0; i < found->num_fde_offsets; i++)
		if (found->fde_offsets[i] == off)
			return 0;
	nv = realloc(found->fde_offsets, (found->num_fde_offsets + 1) * sizeof(*nv));
	if (!nv)
		return -1;
	found->fde_offsets = nv;
	nv[found->num_fde_offsets++] = off;
	conv.fde_offsets = nv;
	conv.num_fde_offsets = found->num_fde_offsets;
	conv.debug_frame = (struct sframe_cfi_bytes){ 0 };
	r = run_conversion(&conv, SF_CONVERT_FUNCTION_TRY, &st, buf, len);
	if (r == -ENOMEM)
		return -1;
	/* A failure stays in the list: it is not tried again. */
	if (r)
		return 0;
	if (st.functions <= found->stats.functions) {
		found->stats = st;
		free(*buf);
		return 0;
	}
	found->stats = st;
	return 1;
}

int sf_sframe_convert_pc(struct sf_input *in, const char *name, struct sf_sframe_found *found,
			 uint64_t addr)
{
	unsigned char *buf = NULL;
	size_t len = 0;
	int r;

	if (found->pending) {
		found->pending = false;
		found->why[0] = '\0';
		if (!start_by_function(in, name, found)) {
			if (found->why[0])
				return 0;
			/* No table to search: the whole file, once. */
			if (convert(in, name, found)) {
				found->from = SF_SFRAME_CONVERTED;
				return 1;
			}
			return 0;
		}
		found->by_function = true;
	}
	if (!found->by_function)
		return 0;
	r = convert_function(found, addr, &buf, &len);
	if (r == 1) {
		found->from = SF_SFRAME_CONVERTED;
		install(in, buf, len, found->cfi->conv.sframe_addr);
	}
	return r;
}

/* Does the section @buf (@len bytes at @vaddr) have a function at @addr? */
static bool covers(const unsigned char *buf, size_t len, uint64_t vaddr, uint64_t addr)
{
	struct sframe_section sec;
	struct sframe_buffer b;
	struct sframe_row row;

	if (sframe_open_buffer(&sec, &b, buf, len, vaddr))
		return false;
	return sframe_lookup(&sec, addr, &row) != -SFRAME_ERR_NOT_FOUND ||
	       row.fde.index != SFRAME_NO_INDEX;
}

int sf_sframe_supplement_pc(struct sf_input *in, const char *name,
			    struct sf_sframe_found *found, uint64_t addr)
{
	unsigned char *buf = NULL;
	size_t len = 0;
	int r;

	if (found->from != SF_SFRAME_OWN || found->supplement_tried > 1)
		return 0;
	if (!found->supplement_tried) {
		found->supplement_tried = 1;
		if (!start_by_function(in, name, found)) {
			found->why[0] = '\0';
			found->supplement_tried = 2;
			return 0;
		}
	}
	r = convert_function(found, addr, &buf, &len);
	/*
	 * Only a function at @addr: the table gives the last one starting
	 * below it, which may be one the file's own section describes.
	 */
	if (r == 1 && !covers(buf, len, found->cfi->conv.sframe_addr, addr)) {
		free(buf);
		return 0;
	}
	if (r == 1) {
		free(found->supplement);
		found->supplement = buf;
		found->supplement_len = len;
		found->supplement_vaddr = found->cfi->conv.sframe_addr;
	}
	return r;
}

void sf_sframe_found_free(struct sf_sframe_found *found)
{
	sf_input_free(&found->sidecar);
	if (found->cfi) {
		sf_cfi_input_free(found->cfi);
		free(found->cfi);
	}
	free(found->fde_offsets);
	free(found->supplement);
	found->supplement = NULL;
	found->cfi = NULL;
	found->fde_offsets = NULL;
	found->num_fde_offsets = 0;
}

enum sf_sframe_from sf_sframe_find(const struct sf_sframe_opts *opts, struct sf_input *in,
				   const char *name, bool later, struct sf_sframe_found *found)
{
	memset(found, 0, sizeof(*found));
	if (in->sec && in->sec_size) {
		found->from = SF_SFRAME_OWN;
		return found->from;
	}
	/* An empty section (GNU ld's without input; what objcopy
	 * --remove-section leaves of the segment) is none. */
	found->empty = in->sec != NULL;
	in->sec = NULL;
	if (!sf_input_is_elf(in) || in->owned_copy) {
		snprintf(found->why, sizeof(found->why), "not an ELF file");
		return found->from;
	}
	if (find_sidecar(opts, in, found)) {
		in->sec = found->sidecar.sec;
		in->sec_size = found->sidecar.sec_size;
		in->vaddr = found->sidecar.vaddr;
		in->how = "side-car";
		found->why[0] = '\0';
		found->from = SF_SFRAME_SIDECAR;
		return found->from;
	}
	if (opts && opts->no_convert) {
		snprintf(found->why, sizeof(found->why), "%s; %s (--no-convert)",
			 found->empty ? "empty .sframe (no SFrame data)" : "no .sframe",
			 found->refused[0] ? "its side-car refused" : "no side-car");
		return found->from;
	}
	if (later) {
		found->pending = true;
		snprintf(found->why, sizeof(found->why), "no .sframe; .eh_frame not converted yet");
		return found->from;
	}
	if (convert(in, name, found))
		found->from = SF_SFRAME_CONVERTED;
	return found->from;
}

void sf_sframe_found_report(FILE *out, const char *prog, const char *name,
			    const struct sf_sframe_found *found)
{
	const struct sframe_convert_stats *st = &found->stats;
	const char *sep = "";
	unsigned int i;

	if (found->refused[0])
		fprintf(out, "%s: %s: %s\n", prog, name, found->refused);
	if (found->from == SF_SFRAME_SIDECAR) {
		fprintf(out, "%s: %s: SFrame from side-car %s\n", prog, name, found->sidecar_path);
		return;
	}
	if (found->from == SF_SFRAME_OWN && found->supplement) {
		fprintf(out, "%s: %s: its .sframe lacks %" PRIu32 " function%s the walks reached: "
			"converted from .eh_frame\n", prog, name, st->functions,
			st->functions == 1 ? "" : "s");
		return;
	}
	if (found->from != SF_SFRAME_CONVERTED)
		return;
	fprintf(out, "%s: %s: converted .eh_frame: %" PRIu32 " functions from %" PRIu32 " FDEs%s",
		prog, name, st->functions, st->fdes,
		found->by_function ? " (the ones the walks reached)" : "");
	for (i = 0; i < SFRAME_SKIP_COUNT; i++) {
		if (!st->skipped[i] || i == SFRAME_SKIP_EMPTY)
			continue;
		fprintf(out, "%s %" PRIu32 " %s", *sep ? sep : "; left out:", st->skipped[i],
			sframe_convert_skip_name(i));
		sep = ",";
	}
	fputc('\n', out);
}
