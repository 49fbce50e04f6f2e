/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * bench_convert.c - "sframe-bench convert FILE...": sframe_convert_size()
 * and sframe_convert() timed apart and together on each file's .eh_frame
 * (and .debug_frame), the memory the conversion needs (the output buffer:
 * the converter allocates nothing), and the output's size against the
 * input's and against the assembler's own .sframe when the file has one;
 * and, where .eh_frame_hdr has a search table, the conversion by function
 * a 16-function walk makes (sframe_eh_frame_hdr_find() and
 * sframe_convert_input.fde_offsets, as "sframe stack" uses them).
 *
 * The converter's input comes from the tool's loader (cfi_input.h), as
 * "sframe convert" reads it: the CFI sections (a relocatable object's
 * relocated), the executable segments as text ranges, the address after the
 * file's segments as sframe_addr.
 */
#include "bench_convert.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sframe/sframe.h>
#include <sframe/sframe_convert.h>

#include "bench_util.h"
#include "read/cfi_input.h"
#include "read/elf_input.h"
#include "tool_cli.h"

/* ---- Timing ------------------------------------------------------------------ */

struct cv_ctx {
	const struct sframe_convert_input *in;
	unsigned char *out;
	size_t size;
	unsigned char *guess;	/* twice the CFI's bytes, or the size if more */
	size_t guess_size;
	uint64_t fallbacks;
	struct sframe_convert_stats stats;
};

static uint64_t op_size(void *ctx, uint64_t first, uint64_t count)
{
	struct cv_ctx *c = ctx;
	uint64_t acc = 0, k;
	size_t size = 0;

	(void)first;
	for (k = 0; k < count; k++) {
		if (sframe_convert_size(c->in, &size, &c->stats) == 0)
			acc += size;
	}
	return acc;
}

static uint64_t op_convert(void *ctx, uint64_t first, uint64_t count)
{
	struct cv_ctx *c = ctx;
	uint64_t acc = 0, k;
	size_t len = 0;

	(void)first;
	for (k = 0; k < count; k++) {
		if (sframe_convert(c->in, c->out, c->size, &len, &c->stats) == 0)
			acc += len;
	}
	return acc;
}

/* Both, as a caller does them: the size, then the conversion. */
static uint64_t op_both(void *ctx, uint64_t first, uint64_t count)
{
	struct cv_ctx *c = ctx;
	uint64_t acc = 0, k;
	size_t size = 0, len = 0;

	(void)first;
	for (k = 0; k < count; k++) {
		if (sframe_convert_size(c->in, &size, &c->stats) == 0 && size <= c->size &&
		    sframe_convert(c->in, c->out, size, &len, &c->stats) == 0)
			acc += len;
	}
	return acc;
}

/*
 * The one-call path sframe_convert.h describes: convert into a buffer of
 * twice the CFI's bytes, and only when that is too small ask the size and
 * convert again.
 */
static uint64_t op_guess(void *ctx, uint64_t first, uint64_t count)
{
	struct cv_ctx *c = ctx;
	const size_t guess = (size_t)(2 * (c->in->eh_frame.size + c->in->debug_frame.size));
	uint64_t acc = 0, k;
	size_t size = 0, len = 0;
	int r;

	(void)first;
	for (k = 0; k < count; k++) {
		r = sframe_convert(c->in, c->guess, guess, &len, &c->stats);
		if (r == -SFRAME_CONVERT_ERR_SPACE) {
			c->fallbacks++;
			if (sframe_convert_size(c->in, &size, &c->stats) == 0 &&
			    size <= c->guess_size)
				r = sframe_convert(c->in, c->guess, size, &len, &c->stats);
		}
		if (r == 0)
			acc += len;
	}
	return acc;
}

/*
 * By function, as "sframe stack" converts a file its walk passes through
 * (sf_sframe_convert_pc()): for each of BY_FN_WALK functions in turn, its
 * FDE found through .eh_frame_hdr, then the section made again of it and
 * the ones before. One op is such a walk's conversions.
 */
#define BY_FN_WALK 16

struct fn_ctx {
	const struct sframe_convert_input *in;
	const struct sframe_cfi_bytes *hdr;
	uint64_t pcs[BY_FN_WALK];
	unsigned int npcs;
	unsigned char out[65536];
};

static uint64_t op_by_function(void *ctx, uint64_t first, uint64_t count)
{
	struct fn_ctx *c = ctx;
	struct sframe_convert_input in = *c->in;
	uint64_t offs[BY_FN_WALK], acc = 0, k;
	unsigned int i, n;
	size_t len = 0;

	(void)first;
	in.debug_frame = (struct sframe_cfi_bytes){ 0 };
	in.fde_offsets = offs;
	for (k = 0; k < count; k++) {
		for (i = 0, n = 0; i < c->npcs; i++) {
			if (sframe_eh_frame_hdr_find(c->hdr, in.big_endian, in.eh_frame.addr,
						     c->pcs[i], &offs[n]))
				continue;
			in.num_fde_offsets = ++n;
			if (sframe_convert(&in, c->out, sizeof(c->out), &len, NULL) == 0)
				acc += len;
		}
	}
	return acc;
}

/* The BY_FN_WALK functions: spread evenly over the whole conversion's. */
static void pick_functions(struct fn_ctx *f, const struct sframe_section *sec)
{
	struct sframe_fde fde;
	unsigned int i;

	f->npcs = 0;
	for (i = 0; i < BY_FN_WALK && sec->num_fdes; i++) {
		uint32_t idx = (uint32_t)((uint64_t)sec->num_fdes * i / BY_FN_WALK);

		if (sframe_get_fde(sec, idx, &fde) == 0)
			f->pcs[f->npcs++] = fde.func_start;
	}
}

static const char *machine_name(const struct sframe_convert_input *in)
{
	switch (in->machine) {
	case SFRAME_EM_X86_64:
		return "x86-64";
	case SFRAME_EM_AARCH64:
		return in->big_endian ? "aarch64-be" : "aarch64";
	case SFRAME_EM_S390:
		return "s390x";
	default:
		return "other";
	}
}

static void print_skipped(const char *path, const struct sframe_convert_stats *st)
{
	unsigned int i;
	bool any = false;

	fprintf(stderr, "# convert %s: cies=%" PRIu32 " flex=%" PRIu32 " pcmask=%" PRIu32
		" signal=%" PRIu32 " outermost=%" PRIu32 " text_bytes=%" PRIu64 " skipped:", path,
		st->cies, st->flex, st->pcmask, st->signal, st->outermost, st->text_bytes);
	for (i = 0; i < SFRAME_SKIP_COUNT; i++) {
		if (!st->skipped[i])
			continue;
		fprintf(stderr, " %s=%" PRIu32 "/%" PRIu64 "B", sframe_convert_skip_name(i),
			st->skipped[i], st->skipped_bytes[i]);
		any = true;
	}
	fprintf(stderr, "%s\n", any ? "" : " none");
}

/* Convert one file, check the output, time the calls, print its line. */
static int bench_file(const char *path, unsigned int version, double seconds)
{
	struct sf_input file;
	struct sf_cfi_input cfi;
	struct sf_elf_section gas_sec;
	const struct sframe_convert_input *in = &cfi.conv;
	bool have_gas;
	struct cv_ctx c;
	struct sframe_convert_stats st;
	struct sframe_section sec;
	struct sframe_buffer buf;
	struct sframe_problem where;
	struct bench_result rs, rc, rb, rg, rf;
	struct fn_ctx *fn = NULL;
	uint64_t skipped = 0;
	size_t len = 0;
	char err[512];
	long heap;
	unsigned int i;
	int r;

	if (sf_input_bytes(path, &file, err, sizeof(err))) {
		fprintf(stderr, "sframe-bench: %s\n", err);
		return 2;
	}
	r = sf_cfi_input_load(file.file, file.file_size, &cfi, path, err, sizeof(err));
	if (r) {
		fprintf(stderr, "sframe-bench: %s\n", err);
		sf_input_free(&file);
		return 1;
	}
	if (!cfi.conv.eh_frame.size && !cfi.conv.debug_frame.size) {
		fprintf(stderr, "sframe-bench: %s: no .eh_frame or .debug_frame to read\n", path);
		sf_cfi_input_free(&cfi);
		sf_input_free(&file);
		return 1;
	}
	cfi.conv.version = (uint8_t)version;
	/* The assembler's own section, to compare with. */
	have_gas = sf_elf_section_find(file.file, file.file_size, ".sframe", &gas_sec, path, err,
				       sizeof(err)) == 1 && gas_sec.data && gas_sec.size;

	memset(&c, 0, sizeof(c));
	c.in = in;
	/* The converter's own allocations (none), without the buffer's. */
	bench_heap_begin();
	r = sframe_convert_size(in, &c.size, &st);
	heap = bench_heap_end();
	if (r == 0) {
		c.out = malloc(c.size);
		if (!c.out) {
			fprintf(stderr, "sframe-bench: out of memory\n");
			r = 2;
			goto out;
		}
		c.guess_size = (size_t)(2 * (in->eh_frame.size + in->debug_frame.size));
		if (c.guess_size < c.size)
			c.guess_size = c.size;
		c.guess = malloc(c.guess_size);
		if (!c.guess) {
			fprintf(stderr, "sframe-bench: out of memory\n");
			r = 2;
			goto out;
		}
		bench_heap_begin();
		r = sframe_convert(in, c.out, c.size, &len, &st);
		heap = heap < 0 ? heap : heap + bench_heap_end();
	}
	if (r) {
		fprintf(stderr, "sframe-bench: %s: %s (%s)", path, sframe_convert_strerror(r),
			sframe_convert_errname(r));
		if (r == -SFRAME_CONVERT_ERR_ENTRY)
			fprintf(stderr, " at %s offset 0x%" PRIx64,
				st.problem_in_debug_frame ? ".debug_frame" : ".eh_frame",
				st.problem_offset);
		fprintf(stderr, "\n");
		goto fail;
	}
	/* What is timed must be right: the output passes the full check. */
	r = sframe_open_buffer(&sec, &buf, c.out, len, in->sframe_addr);
	if (r == 0)
		r = sframe_check(&sec, &where);
	if (r) {
		fprintf(stderr, "sframe-bench: %s: the converted section is invalid: %s\n", path,
			sframe_errname(r));
		goto fail;
	}

	bench_time(op_size, &c, seconds / 4, 0, &rs);
	bench_time(op_convert, &c, seconds / 4, 0, &rc);
	bench_time(op_both, &c, seconds / 4, 0, &rb);
	bench_time(op_guess, &c, seconds / 4, 0, &rg);
	if (cfi.eh_frame_hdr.data) {
		fn = calloc(1, sizeof(*fn));
		if (!fn) {
			fprintf(stderr, "sframe-bench: out of memory\n");
			r = 2;
			goto out;
		}
		fn->in = in;
		fn->hdr = &cfi.eh_frame_hdr;
		pick_functions(fn, &sec);
		bench_time(op_by_function, fn, seconds / 4, 0, &rf);
	}

	for (i = 0; i < SFRAME_SKIP_COUNT; i++)
		skipped += st.skipped[i];
	printf("convert file=%s machine=%s version=%u eh_frame_bytes=%" PRIu64
	       " debug_frame_bytes=%" PRIu64 " fdes=%" PRIu32 " functions=%" PRIu32
	       " rows=%" PRIu32 " skipped=%" PRIu64
	       " size_ms=%.3f size_median_ms=%.3f convert_ms=%.3f convert_median_ms=%.3f"
	       " total_ms=%.3f total_median_ms=%.3f one_call_ms=%.3f one_call_median_ms=%.3f"
	       " one_call_fallbacks=%" PRIu64 " buffer_bytes=%zu output_bytes=%zu"
	       " output_per_eh_frame=%.3f buffer_per_output=%.3f one_call_buffer_per_output=%.3f"
	       " heap_allocs=%ld",
	       path, machine_name(in), sec.version, in->eh_frame.size, in->debug_frame.size,
	       st.fdes, st.functions, st.rows, skipped, rs.min_ns / 1e6, rs.median_ns / 1e6,
	       rc.min_ns / 1e6, rc.median_ns / 1e6, rb.min_ns / 1e6, rb.median_ns / 1e6,
	       rg.min_ns / 1e6, rg.median_ns / 1e6, c.fallbacks, c.size, len,
	       in->eh_frame.size ? (double)len / (double)in->eh_frame.size : 0.0,
	       (double)c.size / (double)len,
	       (double)(c.fallbacks ? c.size : 2 * (in->eh_frame.size + in->debug_frame.size)) /
		       (double)len,
	       heap);
	if (fn)
		printf(" by_function_walk=%u by_function_walk_us=%.1f by_function_walk_median_us=%.1f",
		       fn->npcs, rf.min_ns / 1e3, rf.median_ns / 1e3);
	if (have_gas) {
		struct sframe_section gas;
		struct sframe_buffer gbuf;

		printf(" gas_sframe_bytes=%" PRIu64 " output_per_gas=%.3f", gas_sec.size,
		       (double)len / (double)gas_sec.size);
		if (sframe_open_buffer(&gas, &gbuf, gas_sec.data, gas_sec.size, gas_sec.addr) == 0)
			printf(" gas_fdes=%" PRIu32 " gas_fres=%" PRIu32, gas.num_fdes, gas.num_fres);
	}
	printf("\n");
	print_skipped(path, &st);
	fprintf(stderr, "# convert %s: runs size=%u convert=%u total=%u one_call=%u\n", path,
		rs.runs, rc.runs, rb.runs, rg.runs);
	r = 0;
	goto out;
fail:
	r = 1;
out:
	free(fn);
	free(c.out);
	free(c.guess);
	sf_cfi_input_free(&cfi);
	sf_input_free(&file);
	return r;
}

int bench_cmd_convert(int argc, char **argv)
{
	double seconds = 1;
	unsigned long version = 3;
	int i, nfiles = 0, status = 0, r;
	char *end;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
			if (!bench_parse_seconds(argv[++i], &seconds))
				return sf_cli_usage_error("sframe-bench", NULL, "bad --seconds %s",
							  argv[i]);
		} else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) {
			errno = 0;
			version = strtoul(argv[++i], &end, 10);
			if (errno || *end || (version != 2 && version != 3))
				return sf_cli_usage_error("sframe-bench", NULL,
							  "bad --format (2 or 3) %s", argv[i]);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return sf_cli_usage_error("sframe-bench", NULL, "convert: unknown option %s",
						  argv[i]);
		} else {
			nfiles++;
		}
	}
	if (nfiles == 0)
		return sf_cli_usage_error("sframe-bench", NULL, "convert: needs FILE");
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--seconds") == 0 || strcmp(argv[i], "--format") == 0) {
			i++;
			continue;
		}
		r = bench_file(argv[i], (unsigned int)version, seconds);
		if (r > status)
			status = r;
	}
	return status;
}
