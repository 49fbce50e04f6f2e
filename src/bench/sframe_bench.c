/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_bench.c - "sframe-bench": how fast are lookups and unwinds, how
 * many callback reads do they cost, and how do they compare with GNU
 * libsframe, frame pointers and DWARF unwinders. Built, not installed.
 *
 *   sframe-bench lookup FILE PCS    time lookups of the PCs in PCS
 *   sframe-bench scale              the same on synthetic sections, 1k..1M
 *   sframe-bench unwind             in-process and offline unwinding
 *   sframe-bench pcs FILE N         N random PCs inside FILE's functions
 *   sframe-bench gen-c N            a C file of N functions, to build big
 *                                   real sections with a real toolchain
 *   sframe-bench stack-usage DIR    the core's stack frames (-fstack-usage)
 *   sframe-bench convert FILE...    DWARF CFI to SFrame: time, memory, sizes
 *
 * Results go to standard output, one "key=value" line per measurement;
 * diagnostics (minimum times, counts of found PCs, heap allocations) to
 * standard error, prefixed with '#'.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sframe/sframe.h>

#include "bench_convert.h"
#include "bench_gen.h"
#include "bench_peer.h"
#include "bench_stack.h"
#include "bench_synth.h"
#include "bench_unwind.h"
#include "bench_util.h"
#include "read/elf_input.h"
#include "tool_cli.h"
/* The row table's lookup, timed on its own (white-box: not installed). */
#include "unwind_rows.h"

/* Each command's synopsis and description: its help, and part of the general one. */
#define LOOKUP_TEXT \
	"lookup FILE PCS [--callback] [--index] [--rows] [--seconds S]\n" \
	"        [--vaddr ADDR] [--libsframe LIB]\n" \
	"        time sframe_lookup() of every PC in the file PCS (one hex PC a line)\n" \
	"        in FILE's section (as for 'sframe'); print\n" \
	"        lookup fdes=N pcs=M ns_per_lookup=X reads_per_lookup=Y\n" \
	"               bytes_per_lookup=Z open_ns=W\n" \
	"        --callback  read the section through a copying, counting callback\n" \
	"                    over the file bytes instead of the in-memory reader\n" \
	"        --index     attach a lookup index (sframe_index_build(), default\n" \
	"                    block size) first; the line ends index_bytes=N\n" \
	"        --rows      time the answers of the unwinder's row table instead\n" \
	"                    (sframe_rows_build(); sframe_lookup() where it has\n" \
	"                    none); the line ends rows_bytes=N api=rows\n" \
	"        --libsframe LIB  also time GNU libsframe (dlopen'ed) on the same PCs:\n" \
	"                    peer libsframe ns_per_lookup=X decode_ns=Y ratio=OURS/THEIRS\n"
#define SCALE_TEXT \
	"scale [--max N] [--pcs M] [--format 2|3] [--callback] [--seconds S]\n" \
	"        [--libsframe LIB]\n" \
	"        the same on synthetic sections of 1k, 10k, 100k and 1M functions\n" \
	"        (up to --max), one line per size\n"
#define UNWIND_TEXT \
	"unwind [--seconds S] [--fixtures DIR] [--no-inproc] [--no-offline]\n" \
	"        [--index]\n" \
	"        in-process: a 32-frame chain built with SFrame, walked by sframe,\n" \
	"        frame pointers, libgcc and libunwind; offline: every sample of\n" \
	"        DIR/unwind/* (default DIR: fixtures, in the current directory)\n" \
	"        --index     attach a lookup index (default block size, with the\n" \
	"                    row table) to each section first, for the uncached\n" \
	"                    walks; their lines end index_bytes=N\n"
#define PCS_TEXT \
	"pcs FILE N [--seed S] [--vaddr ADDR]\n" \
	"        print N random PCs inside FILE's functions\n"
#define GEN_C_TEXT \
	"gen-c N [--seed S] [--part K/P]\n" \
	"        print a C file of N functions of varied shapes (the K-th of P parts)\n"
#define STACK_USAGE_TEXT \
	"stack-usage DIR...\n" \
	"        largest stack frame, and deepest call path, from the .su (and\n" \
	"        .ci) files gcc -fstack-usage (-fcallgraph-info=su) wrote in DIR\n"
#define CONVERT_TEXT \
	"convert FILE... [--seconds S] [--format 2|3]\n" \
	"        time sframe_convert_size() and sframe_convert() on each ELF file's\n" \
	"        .eh_frame (and .debug_frame, read as 'sframe convert' reads them),\n" \
	"        apart and together (the size, then the conversion into a buffer of\n" \
	"        that size), and print one line a file:\n" \
	"        convert file=F machine=M version=V eh_frame_bytes=N debug_frame_bytes=N\n" \
	"               fdes=N functions=N rows=N skipped=N\n" \
	"               size_ms=X size_median_ms=X convert_ms=X convert_median_ms=X\n" \
	"               total_ms=X total_median_ms=X buffer_bytes=N output_bytes=N\n" \
	"               output_per_eh_frame=R buffer_per_output=R heap_allocs=N\n" \
	"               [gas_sframe_bytes=N output_per_gas=R gas_fdes=N gas_fres=N]\n" \
	"        buffer_bytes is all the memory a conversion takes (what\n" \
	"        sframe_convert_size() says; heap_allocs counts any other); the gas_\n" \
	"        fields compare with the file's own .sframe; the output is checked\n" \
	"        (sframe_check()) before it is timed; the reasons for skipped FDEs\n" \
	"        go to standard error\n" \
	"        --seconds S  the budget per file, a third for each figure (each\n" \
	"                    the fastest and the median of single calls; default 1)\n" \
	"        --format 2|3 the output's version (default 3)\n"
#define TIMES_TEXT \
	"Times are the fastest of many short runs, repeated for about --seconds (default 1)\n" \
	"per figure (the median goes to standard error): the machine may be shared.\n"

static const char usage_text[] =
	"Usage: sframe-bench COMMAND [ARGS]\n"
	"       sframe-bench COMMAND --help\n"
	"       sframe-bench --version\n"
	"\n"
	"Commands:\n"
	"  " LOOKUP_TEXT
	"  " SCALE_TEXT
	"  " UNWIND_TEXT
	"  " PCS_TEXT
	"  " GEN_C_TEXT
	"  " STACK_USAGE_TEXT
	"  " CONVERT_TEXT
	"  help [COMMAND]\n"
	"        show this help, or COMMAND's\n"
	"\n"
	TIMES_TEXT
	"\n"
	SF_EXIT_STATUS_TEXT;

static int usage_error(const char *msg, const char *arg)
{
	return sf_cli_usage_error("sframe-bench", NULL, "%s%s%s", msg, arg ? " " : "",
				  arg ? arg : "");
}

/* ---- Measuring one section ---------------------------------------------- */

struct section_src {
	const unsigned char *file;	/* the bytes the callback reads */
	uint64_t file_size;
	uint64_t base;			/* the section's offset in them */
	const unsigned char *sec;	/* the section bytes */
	uint64_t size;
	uint64_t vaddr;
};

struct lookup_ctx {
	const struct sframe_section *sec;
	const uint64_t *pcs;
	size_t n;
	const struct sframe_rows *rows;	/* the row table's answers, or NULL */
};

/*
 * The answer for @pc as a walk gets it from row table @rows (find_rule()):
 * the table's rule, or sframe_lookup() where the table has none; *@cfa
 * receives the CFA offset.
 */
static int rows_lookup(const struct sframe_section *sec, const struct sframe_rows *rows,
		       uint64_t pc, int32_t *cfa)
{
	const uint64_t v = rows_find(rows, sf_s64(pc - sec->vaddr));
	struct sframe_row row;
	struct unwind_rule r;
	int ret;

	if (!(rule_packed_kind(v) & (RULE_PACKED_NONE | RULE_PACKED_ASK))) {
		rule_unpack(v, &r);
		*cfa = r.cfa_off;
		return 0;
	}
	if (rule_packed_kind(v) & RULE_PACKED_NONE)
		return -SFRAME_ERR_NOT_FOUND;
	ret = sframe_lookup(sec, pc, &row);
	if (!ret)
		*cfa = row.rules.cfa.offset;
	return ret;
}

static uint64_t op_lookup_rows(const struct lookup_ctx *c, size_t i, uint64_t count)
{
	uint64_t acc = 0, k;
	int32_t cfa;

	for (k = 0; k < count; k++) {
		if (rows_lookup(c->sec, c->rows, c->pcs[i], &cfa) == 0)
			acc += (uint64_t)cfa;
		if (++i == c->n)
			i = 0;
	}
	return acc;
}

static uint64_t op_lookup(void *ctx, uint64_t first, uint64_t count)
{
	const struct lookup_ctx *c = ctx;
	struct sframe_row row;
	size_t i = (size_t)(first % c->n);
	uint64_t acc = 0, k;

	if (c->rows)
		return op_lookup_rows(c, i, count);
	for (k = 0; k < count; k++) {
		if (sframe_lookup(c->sec, c->pcs[i], &row) == 0)
			acc += (uint64_t)row.rules.cfa.offset + row.fre.start;
		if (++i == c->n)
			i = 0;
	}
	return acc;
}

struct open_ctx {
	const struct section_src *src;
	bool callback;
	struct bench_file_reader *reader;
};

static uint64_t op_open(void *ctx, uint64_t first, uint64_t count)
{
	const struct open_ctx *c = ctx;
	struct sframe_section sec;
	struct sframe_buffer buf;
	uint64_t acc = 0, k;

	(void)first;
	for (k = 0; k < count; k++) {
		if (c->callback)
			sframe_open(&sec, bench_file_read, c->reader, c->src->base, c->src->size,
				    c->src->vaddr);
		else
			sframe_open_buffer(&sec, &buf, c->src->sec, c->src->size, c->src->vaddr);
		acc += sec.num_fdes;
	}
	return acc;
}

struct peer_ctx {
	const struct bench_peer *p;
	const void *dctx;
	const uint64_t *pcs;
	size_t n;
	uint64_t vaddr;
};

static uint64_t op_peer(void *ctx, uint64_t first, uint64_t count)
{
	const struct peer_ctx *c = ctx;
	size_t i = (size_t)(first % c->n);
	uint64_t acc = 0, k;
	int32_t cfa, extra;

	for (k = 0; k < count; k++) {
		if (bench_peer_lookup(c->p, c->dctx, (int64_t)(c->pcs[i] - c->vaddr), &cfa,
				      &extra) == 0)
			acc += (uint64_t)(cfa + extra);
		if (++i == c->n)
			i = 0;
	}
	return acc;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Whether the peer reads sections of this one's version at all: it must
 * accept the same header with no functions (libsframe 2.40, for one, reads
 * v1 only, and says "Out of Memory." of the others).
 */
static bool peer_reads_version(const struct bench_peer *p, const unsigned char *sec)
{
	unsigned char hdr[SFRAME_HDR_SIZE];
	void *dctx;
	int e = 0;

	memcpy(hdr, sec, SFRAME_HDR_AUXHDR_LEN);
	memset(hdr + SFRAME_HDR_AUXHDR_LEN, 0, SFRAME_HDR_SIZE - SFRAME_HDR_AUXHDR_LEN);
	dctx = p->decode((const char *)hdr, sizeof(hdr), &e);
	if (!dctx)
		return false;
	p->decoder_free(&dctx);
	return true;
}

/*
 * The peer on the same section and PCs: sframe_decode() once (timed on its
 * own: it copies the section), then lookups. Their answers are compared
 * with ours: found or not, and the CFA offset.
 */
static void measure_peer(const char *lib, const struct section_src *src,
			 const struct sframe_section *sec, const uint64_t *pcs, size_t n,
			 const struct sframe_rows *rows, double seconds)
{
	struct bench_peer p;
	struct peer_ctx pc;
	struct lookup_ctx lc;
	struct bench_result res, ours;
	uint64_t times[512], t0, start;
	unsigned int runs = 0;
	size_t i, agree = 0;
	unsigned int shown = 0;
	char err[512];
	void *dctx;
	int e = 0;

	if (bench_peer_load(&p, lib, err, sizeof(err))) {
		printf("peer libsframe unavailable: %s\n", err);
		return;
	}
	start = bench_now_ns();
	do {
		t0 = bench_now_ns();
		dctx = p.decode((const char *)src->sec, (size_t)src->size, &e);
		times[runs++] = bench_now_ns() - t0;
		if (!dctx) {
			if (!peer_reads_version(&p, src->sec))
				printf("peer libsframe unavailable: %s cannot read SFrame v%u sections"
				       " (sframe_decode: %s)\n", lib, sec->version, p.errmsg(e));
			else
				printf("peer libsframe unavailable: %s cannot read this section"
				       " (sframe_decode: %s)\n", lib, p.errmsg(e));
			bench_peer_unload(&p);
			return;
		}
		p.decoder_free(&dctx);
	} while (runs < 512 && (runs < 5 || bench_now_ns() - start < seconds * 0.25e9));
	qsort(times, runs, sizeof(times[0]), cmp_u64);
	dctx = p.decode((const char *)src->sec, (size_t)src->size, &e);

	for (i = 0; i < n; i++) {
		struct sframe_row row;
		int32_t cfa = 0, extra;
		/* (The call that is timed: the whole row, or the table's answer.) */
		int mine = rows ? rows_lookup(sec, rows, pcs[i], &row.rules.cfa.offset) :
				  sframe_lookup(sec, pcs[i], &row);
		int theirs = bench_peer_lookup(&p, dctx, (int64_t)(pcs[i] - src->vaddr), &cfa, &extra);

		if (mine == 0 && theirs == 0 && cfa == row.rules.cfa.offset)
			agree++;
		else if (mine != 0 && theirs != 0)
			agree++;
		else if (shown++ < 3)
			fprintf(stderr, "# peer differs at 0x%" PRIx64 ": ours %s cfa %d, libsframe %s cfa %d\n",
				pcs[i], mine ? sframe_errname(mine) : "found", mine ? 0 : row.rules.cfa.offset,
				theirs ? "not found" : "found", cfa);
	}
	pc.p = &p;
	pc.dctx = dctx;
	pc.pcs = pcs;
	pc.n = n;
	pc.vaddr = src->vaddr;
	lc.sec = sec;
	lc.pcs = pcs;
	lc.n = n;
	lc.rows = rows;
	/* Ours again, in runs alternating with theirs: the ratio's two sides
	 * see the same machine. */
	bench_time_pair(op_lookup, &lc, op_peer, &pc, 2 * seconds, 2, &ours, &res);
	printf("peer libsframe ns_per_lookup=%.1f decode_ns=%" PRIu64 " ratio=%.3f ours_ns=%.1f"
	       " agree=%zu/%zu\n", res.min_ns, times[0], ours.min_ns / res.min_ns, ours.min_ns,
	       agree, n);
	fprintf(stderr, "# peer: %s API, median_ns=%.1f ours_median_ns=%.1f (ratio %.3f) runs=%u"
		" decode_median_ns=%" PRIu64 "\n", p.api3 ? "2.46+" : "2.40-2.45", res.median_ns,
		ours.median_ns, ours.median_ns / res.median_ns, res.runs, times[runs / 2]);
	p.decoder_free(&dctx);
	bench_peer_unload(&p);
}

/*
 * Time lookups of @pcs in @src, then count what one pass asks of the read
 * callback, and the heap allocations it makes. Prints the "<label> ..." line.
 * With @index, both sections get a lookup index first (not counted as heap
 * allocations of the lookups: the embedder makes it once).
 */
static int measure_section(const char *label, const struct section_src *src, const uint64_t *pcs,
			   size_t n, bool callback, bool index, bool rows, double seconds,
			   const char *peer)
{
	const struct sframe_rows *table = NULL;
	void *imem = NULL, *cmem = NULL, *rmem = NULL;
	size_t ibytes = 0, rbytes = 0;
	struct bench_file_reader reader = { src->file, src->file_size, 0, 0 };
	struct bench_counter counter;
	struct sframe_section sec, csec;
	struct sframe_buffer buf;
	struct lookup_ctx lc;
	struct open_ctx oc;
	struct bench_result lookup_res, open_res;
	size_t i, found = 0, notfound = 0, errors = 0;
	uint64_t max_reads = 0;
	int first_err = 0, r;
	long heap;

	if (callback)
		r = sframe_open(&sec, bench_file_read, &reader, src->base, src->size, src->vaddr);
	else
		r = sframe_open_buffer(&sec, &buf, src->sec, src->size, src->vaddr);
	if (r) {
		fprintf(stderr, "sframe-bench: cannot open the section: %s\n", sframe_strerror(r));
		return 1;
	}

	/* The counting pass, separate from the timed ones, over the same bytes. */
	counter.inner = bench_file_read;
	counter.inner_ctx = &reader;
	r = sframe_open(&csec, bench_counting_read, &counter, src->base, src->size, src->vaddr);
	if (r) {
		fprintf(stderr, "sframe-bench: cannot open the section: %s\n", sframe_strerror(r));
		return 1;
	}
	if ((index && (bench_attach_index(&sec, &imem, &ibytes) ||
		       bench_attach_index(&csec, &cmem, &ibytes))) ||
	    (rows && bench_build_rows(&sec, &table, &rmem, &rbytes))) {
		free(imem);
		free(cmem);
		free(rmem);
		return 1;
	}
	counter.reads = 0;
	counter.bytes = 0;
	bench_heap_begin();
	for (i = 0; i < n; i++) {
		struct sframe_row row;
		uint64_t before = counter.reads;

		if (rows)
			r = rows_lookup(&csec, table, pcs[i], &row.rules.cfa.offset);
		else
			r = sframe_lookup(&csec, pcs[i], &row);
		if (counter.reads - before > max_reads)
			max_reads = counter.reads - before;
		if (r == 0) {
			found++;
		} else if (r == -SFRAME_ERR_NOT_FOUND) {
			notfound++;
		} else {
			errors++;
			if (!first_err)
				first_err = r;
		}
	}
	heap = bench_heap_end();

	lc.sec = &sec;
	lc.pcs = pcs;
	lc.n = n;
	lc.rows = table;
	bench_time(op_lookup, &lc, seconds, 2, &lookup_res);
	oc.src = src;
	oc.callback = callback;
	oc.reader = &reader;
	bench_time(op_open, &oc, seconds * 0.2, 1, &open_res);

	printf("%s fdes=%" PRIu32 " pcs=%zu ns_per_lookup=%.1f reads_per_lookup=%.2f"
	       " bytes_per_lookup=%.1f open_ns=%.1f",
	       label, sec.num_fdes, n, lookup_res.min_ns, (double)counter.reads / (double)n,
	       (double)counter.bytes / (double)n, open_res.min_ns);
	if (index)
		printf(" index_bytes=%zu", ibytes);
	if (rows)
		printf(" rows_bytes=%zu api=rows", rbytes);
	printf("\n");
	fprintf(stderr, "# %s: v%u %s, found=%zu not_found=%zu errors=%zu heap_allocs=%ld"
		" max_reads=%" PRIu64 " median_ns=%.1f runs=%u open_median_ns=%.1f\n",
		label, sec.version, callback ? "callback" : "buffer", found, notfound, errors, heap,
		max_reads,
		lookup_res.median_ns, lookup_res.runs, open_res.median_ns);
	if (errors)
		fprintf(stderr, "sframe-bench: %zu lookup%s failed, the first with %s\n", errors,
			errors == 1 ? "" : "s", sframe_errname(first_err));
	fflush(stdout);
	if (peer)
		measure_peer(peer, src, &sec, pcs, n, table, seconds);
	free(imem);
	free(cmem);
	free(rmem);
	return errors ? 1 : 0;
}

/* ---- lookup --------------------------------------------------------------- */

static int load_file(const char *path, bool have_vaddr, uint64_t vaddr, struct sf_input *in,
		     struct section_src *src)
{
	char err[512];
	int r = sf_input_load(path, have_vaddr, vaddr, in, err, sizeof(err));

	if (r) {
		fprintf(stderr, "sframe-bench: %s\n", err);
		return r == SF_INPUT_EIO ? 2 : 1;
	}
	memset(src, 0, sizeof(*src));
	src->sec = in->sec;
	src->size = in->sec_size;
	src->vaddr = in->vaddr;
	if (in->owned_copy) {
		/* A relocated object's section exists only as our copy. */
		src->file = in->owned_copy;
		src->file_size = in->sec_size;
		src->base = 0;
	} else {
		src->file = in->file;
		src->file_size = in->file_size;
		src->base = (uint64_t)(in->sec - in->file);
	}
	return 0;
}

static int cmd_lookup(int argc, char **argv)
{
	const char *file = NULL, *pcs_path = NULL, *peer = NULL;
	bool callback = false, index = false, rows = false, have_vaddr = false;
	double seconds = 1;
	uint64_t vaddr = 0, *pcs;
	struct section_src src;
	struct sf_input in;
	size_t n;
	int i, status;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--callback") == 0) {
			callback = true;
		} else if (strcmp(argv[i], "--index") == 0) {
			index = true;
		} else if (strcmp(argv[i], "--rows") == 0) {
			rows = true;
		} else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
			if (!bench_parse_seconds(argv[++i], &seconds))
				return usage_error("bad --seconds", argv[i]);
		} else if (strcmp(argv[i], "--vaddr") == 0 && i + 1 < argc) {
			if (!bench_parse_hex(argv[++i], &vaddr))
				return usage_error("bad --vaddr", argv[i]);
			have_vaddr = true;
		} else if (strcmp(argv[i], "--libsframe") == 0 && i + 1 < argc) {
			peer = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return usage_error("lookup: unknown option", argv[i]);
		} else if (!file) {
			file = argv[i];
		} else if (!pcs_path) {
			pcs_path = argv[i];
		} else {
			return usage_error("lookup: too many arguments:", argv[i]);
		}
	}
	if (!file || !pcs_path)
		return usage_error("lookup: needs FILE and PCS", NULL);
	status = load_file(file, have_vaddr, vaddr, &in, &src);
	if (status)
		return status;
	if (bench_read_pcs(pcs_path, &pcs, &n)) {
		sf_input_free(&in);
		return 2;
	}
	status = measure_section("lookup", &src, pcs, n, callback, index, rows, seconds, peer);
	free(pcs);
	sf_input_free(&in);
	return status;
}

/* ---- scale ---------------------------------------------------------------- */

static bool parse_count(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || v == 0 || v > max)
		return false;
	*out = v;
	return true;
}

static int cmd_scale(int argc, char **argv)
{
	static const uint32_t sizes[] = { 1000, 10000, 100000, 1000000 };
	uint64_t max = 1000000, npcs = 10000, version = 3;
	const char *peer = NULL;
	bool callback = false;
	double seconds = 1;
	size_t s;
	int i, status = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--max") == 0 && i + 1 < argc) {
			if (!parse_count(argv[++i], 4000000, &max))
				return usage_error("bad --max", argv[i]);
		} else if (strcmp(argv[i], "--pcs") == 0 && i + 1 < argc) {
			if (!parse_count(argv[++i], 100000000, &npcs))
				return usage_error("bad --pcs", argv[i]);
		} else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) {
			if (!parse_count(argv[++i], 3, &version) || version < 2)
				return usage_error("bad --format (2 or 3)", argv[i]);
		} else if (strcmp(argv[i], "--callback") == 0) {
			callback = true;
		} else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
			if (!bench_parse_seconds(argv[++i], &seconds))
				return usage_error("bad --seconds", argv[i]);
		} else if (strcmp(argv[i], "--libsframe") == 0 && i + 1 < argc) {
			peer = argv[++i];
		} else {
			return usage_error("scale: unknown argument", argv[i]);
		}
	}
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]) && sizes[s] <= max; s++) {
		struct bench_synth syn;
		struct section_src src;
		struct sframe_section sec;
		struct sframe_buffer buf;
		struct sframe_problem where;
		struct bench_rng rng;
		uint64_t *pcs;
		int r;

		if (bench_synth_make(&syn, sizes[s], (unsigned int)version, 1 + s)) {
			fprintf(stderr, "sframe-bench: cannot generate %u functions\n", sizes[s]);
			return 1;
		}
		/* The generator is checked by the library's full validation. */
		r = sframe_open_buffer(&sec, &buf, syn.data, syn.size, syn.vaddr);
		if (!r)
			r = sframe_check(&sec, &where);
		if (r) {
			fprintf(stderr, "sframe-bench: generated section is invalid: %s at FDE %u FRE %u\n",
				sframe_errname(r), where.fde, where.fre);
			bench_synth_free(&syn);
			return 1;
		}
		pcs = malloc(npcs * sizeof(*pcs));
		if (!pcs) {
			bench_synth_free(&syn);
			fprintf(stderr, "sframe-bench: out of memory\n");
			return 1;
		}
		bench_rng_seed(&rng, 1000 + s);
		bench_synth_pcs(&syn, &rng, pcs, npcs);
		src.file = syn.data;
		src.file_size = syn.size;
		src.base = 0;
		src.sec = syn.data;
		src.size = syn.size;
		src.vaddr = syn.vaddr;
		fprintf(stderr, "# scale: %u functions, %" PRIu64 " rows, section %" PRIu64 " bytes\n",
			syn.nfuncs, syn.nfres, syn.size);
		if (measure_section("scale", &src, pcs, npcs, callback, false, false, seconds, peer))
			status = 1;
		free(pcs);
		bench_synth_free(&syn);
	}
	return status;
}

/* ---- pcs ------------------------------------------------------------------ */

static int cmd_pcs(int argc, char **argv)
{
	const char *file = NULL;
	uint64_t count = 0, seed = 1, vaddr = 0, *starts = NULL;
	uint32_t *sizes = NULL, nf = 0, j;
	bool have_vaddr = false, have_count = false;
	struct section_src src;
	struct sframe_section sec;
	struct sframe_buffer buf;
	struct bench_rng rng;
	struct sf_input in;
	uint64_t k;
	int i, r, status;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
			if (!parse_count(argv[++i], UINT64_MAX, &seed))
				return usage_error("bad --seed", argv[i]);
		} else if (strcmp(argv[i], "--vaddr") == 0 && i + 1 < argc) {
			if (!bench_parse_hex(argv[++i], &vaddr))
				return usage_error("bad --vaddr", argv[i]);
			have_vaddr = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return usage_error("pcs: unknown option", argv[i]);
		} else if (!file) {
			file = argv[i];
		} else if (!have_count) {
			if (!parse_count(argv[i], 100000000, &count))
				return usage_error("pcs: bad count", argv[i]);
			have_count = true;
		} else {
			return usage_error("pcs: too many arguments:", argv[i]);
		}
	}
	if (!file || !have_count)
		return usage_error("pcs: needs FILE and N", NULL);
	status = load_file(file, have_vaddr, vaddr, &in, &src);
	if (status)
		return status;
	r = sframe_open_buffer(&sec, &buf, src.sec, src.size, src.vaddr);
	if (r) {
		fprintf(stderr, "sframe-bench: %s: %s\n", file, sframe_strerror(r));
		sf_input_free(&in);
		return 1;
	}
	if ((uint64_t)sec.num_fdes + 1 > SIZE_MAX / sizeof(*starts)) {
		fprintf(stderr, "sframe-bench: %s: too many FDEs\n", file);
		status = 1;
		goto out;
	}
	starts = malloc(((size_t)sec.num_fdes + 1) * sizeof(*starts));
	sizes = malloc(((size_t)sec.num_fdes + 1) * sizeof(*sizes));
	if (!starts || !sizes) {
		fprintf(stderr, "sframe-bench: out of memory\n");
		status = 1;
		goto out;
	}
	/* Functions with rows: the PCs a profiler's samples land in. */
	for (j = 0; j < sec.num_fdes; j++) {
		struct sframe_fde fde;

		r = sframe_get_fde(&sec, j, &fde);
		if (r) {
			fprintf(stderr, "sframe-bench: %s: FDE %u: %s\n", file, j, sframe_strerror(r));
			status = 1;
			goto out;
		}
		if (fde.func_size == 0 || fde.num_fres == 0)
			continue;
		starts[nf] = fde.func_start;
		sizes[nf++] = fde.func_size;
	}
	if (nf == 0) {
		fprintf(stderr, "sframe-bench: %s: no function with rows\n", file);
		status = 1;
		goto out;
	}
	bench_rng_seed(&rng, seed);
	for (k = 0; k < count; k++) {
		uint32_t f = (uint32_t)bench_rng_below(&rng, nf);

		printf("0x%" PRIx64 "\n", starts[f] + bench_rng_below(&rng, sizes[f]));
	}
	if (fflush(stdout))
		status = 2;
out:
	free(starts);
	free(sizes);
	sf_input_free(&in);
	return status;
}

/* ---- main ----------------------------------------------------------------- */

#define COMMAND_USAGE(text) "Usage: sframe-bench " text "\n" TIMES_TEXT "\n" SF_EXIT_STATUS_TEXT

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;
} commands[] = {
	{ "lookup", cmd_lookup, COMMAND_USAGE(LOOKUP_TEXT) },
	{ "scale", cmd_scale, COMMAND_USAGE(SCALE_TEXT) },
	{ "unwind", bench_cmd_unwind, COMMAND_USAGE(UNWIND_TEXT) },
	{ "pcs", cmd_pcs, COMMAND_USAGE(PCS_TEXT) },
	{ "gen-c", bench_cmd_gen_c, COMMAND_USAGE(GEN_C_TEXT) },
	{ "stack-usage", bench_cmd_stack_usage, COMMAND_USAGE(STACK_USAGE_TEXT) },
	{ "convert", bench_cmd_convert, COMMAND_USAGE(CONVERT_TEXT) },
};

int main(int argc, char **argv)
{
	const char *cmd;
	size_t c;
	int i, r;

	if (argc < 2)
		return usage_error("missing command", NULL);
	/* Results and diagnostics interleave in the order they were made. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	cmd = argv[1];
	r = sf_cli_info_option(cmd, "sframe-bench", usage_text);
	if (r >= 0)
		return r;
	if (strcmp(cmd, "help") == 0) {
		if (argc > 3)
			return usage_error("help: unexpected argument", argv[3]);
		for (c = 0; argc == 3 && c < sizeof(commands) / sizeof(commands[0]); c++)
			if (strcmp(argv[2], commands[c].name) == 0)
				return sf_cli_info_option("--help", "sframe-bench", commands[c].usage);
		if (argc == 3 && strcmp(argv[2], "help") != 0)
			return usage_error("unknown command", argv[2]);
		return sf_cli_info_option("--help", "sframe-bench", usage_text);
	}
	for (c = 0; c < sizeof(commands) / sizeof(commands[0]); c++) {
		if (strcmp(cmd, commands[c].name) != 0)
			continue;
		/* No option of any command takes a value starting with '-'. */
		for (i = 2; i < argc; i++) {
			r = sf_cli_info_option(argv[i], "sframe-bench", commands[c].usage);
			if (r >= 0)
				return r;
		}
		return commands[c].run(argc - 1, argv + 1);
	}
	return usage_error("unknown command", cmd);
}
