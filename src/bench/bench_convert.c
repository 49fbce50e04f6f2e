/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * bench_convert.c - "sframe-bench convert FILE...": sframe_convert_size()
 * and sframe_convert() timed apart and together on each file's .eh_frame
 * (and .debug_frame), the memory the conversion needs (the output buffer:
 * the converter allocates nothing), and the output's size against the
 * input's and against the assembler's own .sframe when the file has one.
 *
 * The files are read here with a minimal reader of ELF64 section and
 * program headers (either byte order), every offset checked against the
 * file: the sections by name, the executable PT_LOAD segments as the text
 * ranges, the .sframe section's address as sframe_addr (else the 8-aligned
 * address after .eh_frame). Relocatable objects are converted as they are,
 * without their relocations.
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
#include "tool_cli.h"

#define MAX_TEXT 16

struct cv_file {
	unsigned char *data;
	size_t size;
	struct sframe_convert_input in;
	struct sframe_addr_range text[MAX_TEXT];
	const unsigned char *gas;	/* the file's own .sframe, or NULL */
	uint64_t gas_size;
	uint64_t gas_addr;
};

/* ---- A minimal ELF64 reader ------------------------------------------------ */

static uint64_t get(const unsigned char *p, unsigned int width, bool be)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < width; i++)
		v |= (uint64_t)p[be ? width - 1 - i : i] << (8 * i);
	return v;
}

/* [off, off + len) inside a file of @size bytes. */
static bool inside(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

static int read_file(const char *path, struct cv_file *f, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "rb");
	long n;

	if (!fp || fseek(fp, 0, SEEK_END) || (n = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fp)
			fclose(fp);
		return -1;
	}
	f->size = (size_t)n;
	f->data = malloc(f->size ? f->size : 1);
	if (!f->data || fread(f->data, 1, f->size, fp) != f->size) {
		snprintf(err, errlen, "%s: %s", path, f->data ? "short read" : "out of memory");
		fclose(fp);
		return -1;
	}
	fclose(fp);
	return 0;
}

/*
 * The converter's input from an ELF64 file: 0, or 1 with a message (not
 * an ELF64 file, headers out of bounds, no CFI).
 */
static int elf_input(const char *path, struct cv_file *f, char *err, size_t errlen)
{
	const unsigned char *d = f->data;
	uint64_t shoff, phoff, shnum, phnum, shstrndx, shentsize, phentsize, i;
	const unsigned char *names;
	uint64_t names_size;
	bool be;

	if (f->size < 64 || memcmp(d, "\177ELF", 4) != 0 || d[4] != 2 || (d[5] != 1 && d[5] != 2)) {
		snprintf(err, errlen, "%s: not an ELF64 file", path);
		return 1;
	}
	be = d[5] == 2;
	f->in.machine = (uint16_t)get(d + 18, 2, be);
	f->in.big_endian = be;
	phoff = get(d + 32, 8, be);
	shoff = get(d + 40, 8, be);
	phentsize = get(d + 54, 2, be);
	phnum = get(d + 56, 2, be);
	shentsize = get(d + 58, 2, be);
	shnum = get(d + 60, 2, be);
	shstrndx = get(d + 62, 2, be);
	if (shoff == 0 || shentsize < 64 || !inside(shoff, shentsize, f->size)) {
		snprintf(err, errlen, "%s: no section headers", path);
		return 1;
	}
	/* Extended numbering: the counts in section 0. */
	if (shnum == 0)
		shnum = get(d + shoff + 32, 8, be);
	if (shstrndx == 0xffff)
		shstrndx = get(d + shoff + 40, 4, be);
	if (phnum == 0xffff)
		phnum = get(d + shoff + 44, 4, be);
	if (shnum > f->size / shentsize || !inside(shoff, shnum * shentsize, f->size) ||
	    shstrndx >= shnum) {
		snprintf(err, errlen, "%s: section headers out of bounds", path);
		return 1;
	}
	{
		const unsigned char *sh = d + shoff + shstrndx * shentsize;
		uint64_t off = get(sh + 24, 8, be), size = get(sh + 32, 8, be);

		if (!inside(off, size, f->size)) {
			snprintf(err, errlen, "%s: section names out of bounds", path);
			return 1;
		}
		names = d + off;
		names_size = size;
	}
	for (i = 0; i < shnum; i++) {
		const unsigned char *sh = d + shoff + i * shentsize;
		uint64_t name = get(sh, 4, be), type = get(sh + 4, 4, be);
		uint64_t addr = get(sh + 16, 8, be), off = get(sh + 24, 8, be);
		uint64_t size = get(sh + 32, 8, be);
		const char *s;

		if (name >= names_size || !memchr(names + name, 0, names_size - name) || type == 8)
			continue;	/* no name, or SHT_NOBITS */
		s = (const char *)names + name;
		if (strcmp(s, ".eh_frame") != 0 && strcmp(s, ".debug_frame") != 0 &&
		    strcmp(s, ".sframe") != 0)
			continue;
		if (!inside(off, size, f->size)) {
			snprintf(err, errlen, "%s: section %s out of bounds", path, s);
			return 1;
		}
		if (strcmp(s, ".eh_frame") == 0 && !f->in.eh_frame.data) {
			f->in.eh_frame.data = d + off;
			f->in.eh_frame.size = size;
			f->in.eh_frame.addr = addr;
		} else if (strcmp(s, ".debug_frame") == 0 && !f->in.debug_frame.data) {
			f->in.debug_frame.data = d + off;
			f->in.debug_frame.size = size;
			f->in.debug_frame.addr = addr;
		} else if (strcmp(s, ".sframe") == 0 && !f->gas) {
			f->gas = d + off;
			f->gas_size = size;
			f->gas_addr = addr;
		}
	}
	if (!f->in.eh_frame.data && !f->in.debug_frame.data) {
		snprintf(err, errlen, "%s: no .eh_frame or .debug_frame", path);
		return 1;
	}
	/* The executable PT_LOAD segments. */
	if (phoff && phentsize >= 56 && phnum <= f->size / phentsize &&
	    inside(phoff, phnum * phentsize, f->size)) {
		for (i = 0; i < phnum && f->in.num_text < MAX_TEXT; i++) {
			const unsigned char *ph = d + phoff + i * phentsize;
			uint64_t vaddr = get(ph + 16, 8, be), memsz = get(ph + 40, 8, be);

			if (get(ph, 4, be) != 1 || !(get(ph + 4, 4, be) & 1) || vaddr + memsz < vaddr)
				continue;
			f->text[f->in.num_text].start = vaddr;
			f->text[f->in.num_text].end = vaddr + memsz;
			f->in.num_text++;
		}
	}
	f->in.text = f->in.num_text ? f->text : NULL;
	if (f->gas && f->gas_addr)
		f->in.sframe_addr = f->gas_addr;
	else
		f->in.sframe_addr = (f->in.eh_frame.addr + f->in.eh_frame.size + 7) & ~(uint64_t)7;
	return 0;
}

/* ---- Timing ------------------------------------------------------------------ */

struct cv_ctx {
	const struct sframe_convert_input *in;
	unsigned char *out;
	size_t size;
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
	struct cv_file f;
	struct cv_ctx c;
	struct sframe_convert_stats st;
	struct sframe_section sec;
	struct sframe_buffer buf;
	struct sframe_problem where;
	struct bench_result rs, rc, rb;
	uint64_t skipped = 0;
	size_t len = 0;
	char err[512];
	long heap;
	unsigned int i;
	int r;

	memset(&f, 0, sizeof(f));
	if (read_file(path, &f, err, sizeof(err))) {
		fprintf(stderr, "sframe-bench: %s\n", err);
		free(f.data);
		return 2;
	}
	r = elf_input(path, &f, err, sizeof(err));
	if (r) {
		fprintf(stderr, "sframe-bench: %s\n", err);
		free(f.data);
		return r;
	}
	f.in.version = (uint8_t)version;

	memset(&c, 0, sizeof(c));
	c.in = &f.in;
	/* The converter's own allocations (none), without the buffer's. */
	bench_heap_begin();
	r = sframe_convert_size(&f.in, &c.size, &st);
	heap = bench_heap_end();
	if (r == 0) {
		c.out = malloc(c.size);
		if (!c.out) {
			fprintf(stderr, "sframe-bench: out of memory\n");
			free(f.data);
			return 1;
		}
		bench_heap_begin();
		r = sframe_convert(&f.in, c.out, c.size, &len, &st);
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
		free(c.out);
		free(f.data);
		return 1;
	}
	/* What is timed must be right: the output passes the full check. */
	r = sframe_open_buffer(&sec, &buf, c.out, len, f.in.sframe_addr);
	if (r == 0)
		r = sframe_check(&sec, &where);
	if (r) {
		fprintf(stderr, "sframe-bench: %s: the converted section is invalid: %s\n", path,
			sframe_errname(r));
		free(c.out);
		free(f.data);
		return 1;
	}

	bench_time(op_size, &c, seconds / 3, 0, &rs);
	bench_time(op_convert, &c, seconds / 3, 0, &rc);
	bench_time(op_both, &c, seconds / 3, 0, &rb);

	for (i = 0; i < SFRAME_SKIP_COUNT; i++)
		skipped += st.skipped[i];
	printf("convert file=%s machine=%s version=%u eh_frame_bytes=%" PRIu64
	       " debug_frame_bytes=%" PRIu64 " fdes=%" PRIu32 " functions=%" PRIu32
	       " rows=%" PRIu32 " skipped=%" PRIu64
	       " size_ms=%.3f size_median_ms=%.3f convert_ms=%.3f convert_median_ms=%.3f"
	       " total_ms=%.3f total_median_ms=%.3f buffer_bytes=%zu output_bytes=%zu"
	       " output_per_eh_frame=%.3f buffer_per_output=%.3f heap_allocs=%ld",
	       path, machine_name(&f.in), sec.version, f.in.eh_frame.size, f.in.debug_frame.size,
	       st.fdes, st.functions, st.rows, skipped, rs.min_ns / 1e6, rs.median_ns / 1e6,
	       rc.min_ns / 1e6, rc.median_ns / 1e6, rb.min_ns / 1e6, rb.median_ns / 1e6, c.size,
	       len, f.in.eh_frame.size ? (double)len / (double)f.in.eh_frame.size : 0.0,
	       (double)c.size / (double)len, heap);
	if (f.gas && f.gas_size) {
		struct sframe_section gas;
		struct sframe_buffer gbuf;

		printf(" gas_sframe_bytes=%" PRIu64 " output_per_gas=%.3f", f.gas_size,
		       (double)len / (double)f.gas_size);
		if (sframe_open_buffer(&gas, &gbuf, f.gas, f.gas_size, f.gas_addr) == 0)
			printf(" gas_fdes=%" PRIu32 " gas_fres=%" PRIu32, gas.num_fdes, gas.num_fres);
	}
	printf("\n");
	print_skipped(path, &st);
	fprintf(stderr, "# convert %s: runs size=%u convert=%u total=%u\n", path, rs.runs, rc.runs,
		rb.runs);
	free(c.out);
	free(f.data);
	return 0;
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
