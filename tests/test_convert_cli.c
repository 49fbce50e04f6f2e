/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_convert_cli.c - "sframe convert" on the fixtures, run as the built
 * tool:
 *   - the side-car: an ELF file of the input's identity, no program headers,
 *     exactly null, .note.gnu.build-id (the input's note and build id),
 *     .sframe (at the input's first free address, or --sframe-addr's),
 *     .shstrtab, read independently (elf_peek.h); its .sframe is what
 *     sframe_convert() makes of the input's CFI, byte for byte;
 *   - sframe check passes on it, sframe dump says its version (--format v2),
 *     and sframe lookup on it answers a PC of main as on gas's own section:
 *     the same function and rules;
 *   - the summary's numbers are sframe_convert()'s statistics;
 *   - refusals: a .o, OUT that is FILE, a file that is not ELF, a 32-bit ELF
 *     file, another machine; usage and I/O errors, the temporary file gone;
 *   - a .o's .eh_frame, relocated as cfi_input.c relocates it and converted,
 *     answers lookups as gas's relocated .sframe of that .o does;
 *   - the manual page names every reason a function is left out, and the
 *     summary it and README.md show is the tool's.
 *
 *   test_convert_cli SFRAME_TOOL FIXTURES_DIR MANPAGE
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sframe/sframe.h>
#include <sframe/sframe_convert.h>

#include "read/cfi_input.h"
#include "doc_examples.h"
#include "read/elf_input.h"
#include "elf_peek.h"
#include "rules_equal.h"
#include "tool_run.h"

static const char *tool, *fixtures, *manpage;
static char tmpdir[256];

#define NOARG ((char *)NULL)

/* ---- Running the tool ---------------------------------------------------------- */

static void run(struct tu_result *r, ...)
{
	va_list ap;

	va_start(ap, r);
	tu_vrun_tool(r, tool, ap);
	va_end(ap);
}

static char *tmp(const char *name);
static void write_all(const char *path, const void *d, size_t n);

/* sframe lookup FILE with @pcs (lines) on standard input: its output. */
static char *lookup(const char *file, const char *pcs)
{
	char *argv[] = { (char *)tool, "lookup", (char *)file, NULL }, *in = tmp("pcs");
	size_t len;
	int status;
	char *out;

	write_all(in, pcs, strlen(pcs));
	out = tu_run(argv, in, 1, &len, &status);
	unlink(in);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("sframe lookup %s: status %d\n%s", file, status, out);
	return out;
}

static char *fx(const char *rel)
{
	return tu_path(fixtures, rel);
}

static char *tmp(const char *name)
{
	return tu_path(tmpdir, name);
}

static void write_all(const char *path, const void *d, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(d, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* ---- What the library makes of the same input ---------------------------------- */

struct converted {
	struct sframe_convert_stats st;
	unsigned char *sec;
	size_t len;
	uint64_t addr;
};

static void convert_here(const char *path, uint8_t version, bool have_addr, uint64_t addr,
			 struct converted *c)
{
	struct sf_cfi_input cfi;
	char err[512];
	size_t n, size;
	unsigned char *d = tu_read_all(path, &n);
	int r;

	if (sf_cfi_input_load(d, n, &cfi, path, err, sizeof(err)))
		fail_msg("%s", err);
	cfi.conv.version = version;
	if (have_addr)
		cfi.conv.sframe_addr = addr;
	c->addr = cfi.conv.sframe_addr;
	r = sframe_convert_size(&cfi.conv, &size, &c->st);
	if (r)
		fail_msg("%s: sframe_convert_size: %s", path, sframe_convert_strerror(r));
	c->sec = malloc(size);
	assert_non_null(c->sec);
	r = sframe_convert(&cfi.conv, c->sec, size, &c->len, &c->st);
	if (r)
		fail_msg("%s: sframe_convert: %s", path, sframe_convert_strerror(r));
	sf_cfi_input_free(&cfi);
	free(d);
}

/* ---- The summary --------------------------------------------------------------- */

/* The number just before @word in @line (commas ignored); fails when there is none. */
static uint64_t num_before(const char *line, const char *word)
{
	const char *w = strstr(line, word), *p;
	uint64_t v = 0, scale = 1;

	if (!w || w == line || !(w[-1] >= '0' && w[-1] <= '9'))
		fail_msg("no number before '%s' in: %s", word, line);
	for (p = w - 1; p >= line && ((*p >= '0' && *p <= '9') || *p == ','); p--) {
		if (*p == ',')
			continue;
		v += (uint64_t)(*p - '0') * scale;
		scale *= 10;
	}
	return v;
}

/* The line of @out that starts with @prefix, or NULL. */
static const char *line_of(const char *out, const char *prefix)
{
	const char *p = out;

	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, prefix, strlen(prefix)) == 0)
			return p;
	return NULL;
}

/* Every number of the summary @out against @c (for @file written to @out_path). */
static void check_summary(const char *out, const char *file, const char *out_path,
			  uint8_t version, const struct converted *c)
{
	const struct sframe_convert_stats *st = &c->st;
	char prefix[1100], *first;
	const char *l;
	uint64_t left = 0;
	unsigned i;

	snprintf(prefix, sizeof(prefix), "%s: ", file);
	l = line_of(out, prefix);
	if (!l)
		fail_msg("no summary line for %s in:\n%s", file, out);
	first = strndup(l, strcspn(l, "\n"));
	for (i = 0; i < SFRAME_SKIP_COUNT; i++)
		left += st->skipped[i];
	assert_int_equal(num_before(first, " of "), st->fdes - left);
	assert_int_equal(num_before(first, " FDE"), st->fdes);
	assert_int_equal(num_before(first, ", "), version);	/* "SFrame vV, " */
	assert_int_equal(num_before(first, " function"), st->functions);
	assert_int_equal(num_before(first, " row"), st->rows);
	assert_int_equal(num_before(first, " bytes of text"), st->text_bytes);
	free(first);
	l = line_of(out, "  among them: ");
	if (st->flex || st->pcmask || st->signal || st->outermost) {
		assert_non_null(l);
		assert_int_equal(num_before(l, " FLEX"), st->flex);
		assert_int_equal(num_before(l, " PCMASK"), st->pcmask);
		assert_int_equal(num_before(l, " signal-frame"), st->signal);
		assert_int_equal(num_before(l, " outermost-frame"), st->outermost);
	} else {
		assert_null(l);
	}
	for (i = 0; i < SFRAME_SKIP_COUNT; i++) {
		char want[128];
		const char *name = sframe_convert_skip_name(i);

		snprintf(want, sizeof(want), " %s (", name);
		for (l = line_of(out, "  left out: "); l; l = line_of(l + 1, "  left out: ")) {
			char *line = strndup(l, strcspn(l, "\n"));
			bool mine = strstr(line, want) != NULL;

			if (mine) {
				assert_int_equal(num_before(line, want), st->skipped[i]);
				assert_int_equal(num_before(line, " bytes of text"),
						 st->skipped_bytes[i]);
			}
			free(line);
			if (mine)
				break;
		}
		if (!l != !st->skipped[i])
			fail_msg("%s: %" PRIu32 " left out as %s, summary:\n%s", file,
				 st->skipped[i], name, out);
	}
	l = line_of(out, "  output: ");
	assert_non_null(l);
	snprintf(prefix, sizeof(prefix), "  output: %s (.sframe at 0x%" PRIx64 ": ", out_path,
		 c->addr);
	if (strncmp(l, prefix, strlen(prefix)) != 0)
		fail_msg("expected '%s' in:\n%s", prefix, out);
	assert_int_equal(num_before(l, " bytes"), c->len);
	if (st->problem_offset != UINT64_MAX) {
		snprintf(prefix, sizeof(prefix), "  %s offset 0x%" PRIx64 ": malformed CIE or FDE left "
			 "out", st->problem_in_debug_frame ? ".debug_frame" : ".eh_frame",
			 st->problem_offset);
		if (!line_of(out, prefix))
			fail_msg("no '%s' in:\n%s", prefix, out);
	} else {
		assert_null(strstr(out, "malformed CIE or FDE"));
	}
}

/* ---- The side-car -------------------------------------------------------------- */

/*
 * @out_path against its input @in_path: identity, sections, note, and the
 * .sframe bytes @c holds at @c->addr.
 */
static void check_sidecar(const char *in_path, const char *out_path, const struct converted *c,
			  bool expect_note)
{
	static const char *const names[] = { "", ".note.gnu.build-id", ".sframe", ".shstrtab" };
	struct peek_elf ie, oe;
	struct peek_shdr s, note;
	const unsigned char *iid, *oid;
	size_t in_n, out_n, ilen, olen;
	unsigned char *in = tu_read_all(in_path, &in_n), *out = tu_read_all(out_path, &out_n);
	unsigned i, k = 0;

	assert_true(peek_open(&ie, in, in_n));
	if (!peek_open(&oe, out, out_n))
		fail_msg("%s is no ELF64 file", out_path);
	assert_int_equal(oe.be, ie.be);
	assert_int_equal(oe.osabi, ie.osabi);
	assert_int_equal(oe.type, ie.type);
	assert_int_equal(oe.machine, ie.machine);
	assert_int_equal(oe.flags, ie.flags);
	assert_int_equal(oe.phnum, 0);
	assert_int_equal(oe.phoff, 0);
	assert_int_equal(oe.shnum, expect_note ? 4 : 3);
	assert_int_equal(oe.shstrndx, oe.shnum - 1);
	for (i = 0; i < oe.shnum; i++) {
		if (!expect_note && i == 1)
			k++;
		peek_shdr_at(&oe, i, &s);
		assert_string_equal(s.name, names[k++]);
		assert_true(s.offset <= out_n && s.size <= out_n - s.offset);
	}
	peek_shdr_at(&oe, 0, &s);
	assert_int_equal(s.type, 0);
	assert_true(peek_section(&oe, ".sframe", &s));
	assert_int_equal(s.type, 0x6ffffff4u);
	assert_int_equal(s.flags, 2);	/* SHF_ALLOC */
	assert_int_equal(s.align, 8);
	assert_int_equal(s.offset % 8, 0);
	assert_int_equal(s.addr, c->addr);
	assert_int_equal(s.size, c->len);
	assert_memory_equal(out + s.offset, c->sec, c->len);
	assert_true(peek_section(&oe, ".shstrtab", &s));
	assert_int_equal(s.type, 3);
	if (expect_note) {
		assert_true(peek_section(&oe, ".note.gnu.build-id", &s));
		assert_int_equal(s.type, 7);
		assert_true(peek_section(&ie, ".note.gnu.build-id", &note));
		assert_int_equal(s.addr, note.addr);
		assert_int_equal(s.size, note.size);
		assert_memory_equal(out + s.offset, in + note.offset, note.size);
		assert_true(sf_elf_build_id(in, in_n, &iid, &ilen));
		assert_true(sf_elf_build_id(out, out_n, &oid, &olen));
		assert_int_equal(olen, ilen);
		assert_memory_equal(oid, iid, ilen);
	} else {
		assert_false(peek_section(&oe, ".note.gnu.build-id", &s));
		assert_false(sf_elf_build_id(out, out_n, &oid, &olen));
	}
	free(in);
	free(out);
}

/* ---- Lookups on the side-car against gas's section ------------------------------ */

/*
 * PCs of main: the .lookup file's PCs whose function is main (from .names),
 * or for the unwind fixtures main's first, second, middle and last bytes
 * (from .syms). One per line.
 */
static char *main_pcs(const char *rel)
{
	char path[1100], *text, *line, *pcs = calloc(1, 65536);
	uint64_t start = 0, size = 0;
	size_t len, n = 0;
	bool found = false;

	assert_non_null(pcs);
	snprintf(path, sizeof(path), "%s/%s.syms", fixtures, rel);
	text = tu_read_file(path, &len);
	if (text) {
		for (line = strtok(text, "\n"); line && !found; line = strtok(NULL, "\n"))
			if (strlen(line) > 5 && strcmp(line + strlen(line) - 5, " main") == 0)
				found = sscanf(line, "%" SCNx64 " %" SCNx64, &start, &size) == 2;
		free(text);
		assert_true(found && size > 2);
		snprintf(pcs, 65536, "0x%" PRIx64 "\n0x%" PRIx64 "\n0x%" PRIx64 "\n0x%" PRIx64 "\n",
			 start, start + 1, start + size / 2, start + size - 1);
		return pcs;
	}
	snprintf(path, sizeof(path), "%s/%s.names", fixtures, rel);
	text = tu_read_file(path, &len);
	assert_non_null(text);
	for (line = strtok(text, "\n"); line && !found; line = strtok(NULL, "\n"))
		if (strlen(line) > 5 && strcmp(line + strlen(line) - 5, " main") == 0)
			found = sscanf(line, "%" SCNx64, &start) == 1;
	free(text);
	assert_true(found);
	snprintf(path, sizeof(path), "%s/%s.lookup", fixtures, rel);
	text = tu_read_file(path, &len);
	assert_non_null(text);
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		uint64_t pc, fn;

		if (sscanf(line, "%" SCNx64 " %" SCNx64, &pc, &fn) == 2 && fn == start)
			n += (size_t)snprintf(pcs + n, 65536 - n, "0x%" PRIx64 "\n", pc);
	}
	free(text);
	assert_true(n > 0);
	return pcs;
}

/*
 * The side-car's answers for @pcs against gas's: the same function start,
 * and (@rules) the same rules; the row's offset in its function may differ
 * where one writer merges rows the other does not.
 */
static void compare_lookups(const char *gas_file, const char *sidecar, const char *pcs,
			    bool rules)
{
	char *want = lookup(gas_file, pcs), *got = lookup(sidecar, pcs);
	char *ws, *gs, *wl, *gl;

	for (wl = strtok_r(want, "\n", &ws), gl = strtok_r(got, "\n", &gs); wl || gl;
	     wl = strtok_r(NULL, "\n", &ws), gl = strtok_r(NULL, "\n", &gs)) {
		char wpc[32], wfn[32], gpc[32], gfn[32];
		int wrest = 0, grest = 0;

		if (!wl || !gl)
			fail_msg("%s and %s answer a different number of PCs", gas_file, sidecar);
		if (sscanf(wl, "%31s %31s %*s %n", wpc, wfn, &wrest) < 2 ||
		    sscanf(gl, "%31s %31s %*s %n", gpc, gfn, &grest) < 2)
			fail_msg("unexpected lookup lines:\n%s\n%s", wl, gl);
		if (strcmp(wfn, gfn) != 0 || (rules && strcmp(wl + wrest, gl + grest) != 0))
			fail_msg("%s: gas's section says '%s', the side-car %s '%s'", wpc, wl, sidecar,
				 gl);
	}
	free(want);
	free(got);
}

/* ---- Converting the fixtures --------------------------------------------------- */

/* Convert @rel and check everything about the side-car; @main_lookups: compare them. */
static void convert_fixture(const char *rel, bool main_lookups)
{
	struct converted c;
	struct tu_result r;
	char name[256], *out, *pcs;
	size_t i;

	snprintf(name, sizeof(name), "%s.sc", rel);
	for (i = 0; name[i]; i++)
		if (name[i] == '/')
			name[i] = '_';
	out = tmp(name);
	run(&r, "convert", fx(rel), "-o", out, NOARG);
	tu_expect(&r, 0, "warning: it has an SFrame section already");
	convert_here(fx(rel), 0, false, 0, &c);
	check_summary(r.out, fx(rel), out, 3, &c);
	tu_result_free(&r);
	check_sidecar(fx(rel), out, &c, true);
	run(&r, "check", out, NOARG);
	tu_expect(&r, 0, NULL);
	assert_non_null(strstr(r.out, ": valid ("));
	assert_non_null(strstr(r.out, "SFrame v3"));
	tu_result_free(&r);
	if (main_lookups) {
		pcs = main_pcs(rel);
		compare_lookups(fx(rel), out, pcs, true);
		free(pcs);
	}
	free(c.sec);
	unlink(out);
}

static void test_convert_fixtures(void **state)
{
	(void)state;
	convert_fixture("v3-x86_64/exe", true);
	convert_fixture("v3-x86_64/lib.so", true);
	convert_fixture("v3-aarch64/exe", true);
	convert_fixture("v3-s390x/exe", true);
	convert_fixture("unwind/v3-x86_64/unwind", true);
	convert_fixture("unwind/v3-aarch64/unwind", true);
	convert_fixture("unwind/v3-s390x/unwind", true);
	/* .eh_frame and .debug_frame (duplicates left out). */
	convert_fixture("lld-x86_64/exe", false);
}

/* --format v2: a version 2 section, the same functions. */
static void test_format_v2(void **state)
{
	static const char *const files[] = { "v3-x86_64/exe", "v3-aarch64/exe", "v3-s390x/exe" };
	struct converted c;
	struct tu_result r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *out = tmp("v2.sc"), *pcs = main_pcs(files[i]);

		run(&r, "convert", "--format", "v2", fx(files[i]), "-o", out, NOARG);
		tu_expect(&r, 0, NULL);
		convert_here(fx(files[i]), SFRAME_VERSION_2, false, 0, &c);
		check_summary(r.out, fx(files[i]), out, 2, &c);
		tu_result_free(&r);
		check_sidecar(fx(files[i]), out, &c, true);
		run(&r, "dump", out, NOARG);
		tu_expect(&r, 0, NULL);
		assert_non_null(strstr(r.out, "    Version: SFRAME_VERSION_2\n"));
		tu_result_free(&r);
		run(&r, "check", out, NOARG);
		tu_expect(&r, 0, NULL);
		assert_non_null(strstr(r.out, "SFrame v2"));
		tu_result_free(&r);
		compare_lookups(fx(files[i]), out, pcs, false);
		free(pcs);
		free(c.sec);
		/* The other spelling of the option. */
		run(&r, "convert", fx(files[i]), "--format=v2", "-o", out, NOARG);
		tu_expect(&r, 0, NULL);
		assert_non_null(strstr(r.out, "(SFrame v2, "));
		tu_result_free(&r);
		unlink(out);
	}
}

/* --sframe-addr: the section there, function starts unchanged. */
static void test_sframe_addr(void **state)
{
	struct converted c;
	struct tu_result r;
	char *out = tmp("addr.sc"), *pcs = main_pcs("v3-x86_64/exe");

	(void)state;
	run(&r, "convert", fx("v3-x86_64/exe"), "-o", out, "--sframe-addr", "0x7f0000001000",
	    NOARG);
	tu_expect(&r, 0, NULL);
	convert_here(fx("v3-x86_64/exe"), 0, true, UINT64_C(0x7f0000001000), &c);
	check_summary(r.out, fx("v3-x86_64/exe"), out, 3, &c);
	tu_result_free(&r);
	check_sidecar(fx("v3-x86_64/exe"), out, &c, true);
	compare_lookups(fx("v3-x86_64/exe"), out, pcs, true);
	free(c.sec);
	run(&r, "convert", fx("v3-x86_64/exe"), "-o", out, "--sframe-addr=1008", NOARG);
	tu_expect(&r, 0, NULL);
	assert_non_null(strstr(r.out, "(.sframe at 0x1008: "));
	tu_result_free(&r);
	compare_lookups(fx("v3-x86_64/exe"), out, pcs, true);
	free(pcs);
	unlink(out);
}

/* An input without a build id: no note, and a warning. */
static void test_no_build_id(void **state)
{
	struct peek_shdr note = { 0 };
	struct peek_elf e;
	struct converted c;
	struct tu_result r;
	size_t n;
	unsigned char *d = tu_read_all(fx("v3-x86_64/exe"), &n);
	char *in = tmp("no-id"), *out = tmp("no-id.sc");

	(void)state;
	assert_true(peek_open(&e, d, n));
	assert_true(peek_section(&e, ".note.gnu.build-id", &note));
	d[note.offset + 8] = 0x42;	/* n_type: no longer NT_GNU_BUILD_ID */
	write_all(in, d, n);
	free(d);
	run(&r, "convert", in, "-o", out, NOARG);
	tu_expect(&r, 0, "warning: no GNU build id");
	tu_result_free(&r);
	/* Where --sframe-dir would put it, nothing says. */
	run(&r, "convert", in, "--sframe-dir", "/tmp", NOARG);
	tu_expect(&r, 1, "no GNU build id (or one shorter than 2 bytes): side-cars are found by "
		  "it; link with --build-id, or give -o");
	tu_result_free(&r);
	convert_here(in, 0, false, 0, &c);
	check_sidecar(in, out, &c, false);
	run(&r, "check", out, NOARG);
	tu_expect(&r, 0, NULL);
	tu_result_free(&r);
	free(c.sec);
	unlink(in);
	unlink(out);
}

/* Without section headers, .eh_frame is found through .eh_frame_hdr: the same answers. */
static void test_no_section_headers(void **state)
{
	struct tu_result r;
	size_t n;
	unsigned char *d = tu_read_all(fx("v3-x86_64/exe"), &n);
	char *in = tmp("no-shdr"), *out = tmp("no-shdr.sc"), *pcs = main_pcs("v3-x86_64/exe");

	(void)state;
	memset(d + 40, 0, 8);	/* e_shoff */
	memset(d + 60, 0, 4);	/* e_shnum, e_shstrndx */
	write_all(in, d, n);
	free(d);
	run(&r, "convert", in, "-o", out, NOARG);
	tu_expect(&r, 0, NULL);
	assert_non_null(strstr(r.out, "through .eh_frame_hdr"));
	tu_result_free(&r);
	compare_lookups(fx("v3-x86_64/exe"), out, pcs, true);
	free(pcs);
	unlink(in);
	unlink(out);
}

/*
 * Corrupt CFI: an entry whose length runs past .eh_frame stops the
 * converter (exit 1, its offset named, no OUT); an FDE whose CIE pointer
 * leads to no CIE is left out, its offset printed.
 */
static void test_corrupt_cfi(void **state)
{
	struct peek_shdr eh;
	struct peek_elf e;
	struct converted c;
	struct tu_result r;
	char want[256], *in = tmp("corrupt"), *out = tmp("corrupt.sc");
	size_t n;
	unsigned char *d = tu_read_all(fx("v3-x86_64/exe"), &n);
	uint64_t second;

	(void)state;
	assert_true(peek_open(&e, d, n));
	assert_true(peek_section(&e, ".eh_frame", &eh));
	second = 4 + peek_u(&e, eh.offset, 4);
	/* The second entry (an FDE) said to be 2 GiB long. */
	d[eh.offset + second + 3] = 0x7f;
	write_all(in, d, n);
	run(&r, "convert", in, "-o", out, NOARG);
	snprintf(want, sizeof(want), "sframe: %s: .eh_frame offset 0x%" PRIx64 ": %s (%s)\n", in,
		 second, sframe_convert_strerror(-SFRAME_CONVERT_ERR_ENTRY),
		 sframe_convert_errname(-SFRAME_CONVERT_ERR_ENTRY));
	tu_expect(&r, 1, want);
	assert_string_equal(r.out, "");
	tu_result_free(&r);
	assert_int_equal(access(out, F_OK), -1);
	/* Its length back, its CIE pointer astray. */
	d[eh.offset + second + 3] = 0;
	d[eh.offset + second + 6] ^= 0x10;
	write_all(in, d, n);
	free(d);
	run(&r, "convert", in, "-o", out, NOARG);
	tu_expect(&r, 0, NULL);
	convert_here(in, 0, false, 0, &c);
	assert_int_equal(c.st.problem_offset, second);
	assert_true(c.st.skipped[SFRAME_SKIP_MALFORMED] > 0);
	check_summary(r.out, in, out, 3, &c);
	tu_result_free(&r);
	check_sidecar(in, out, &c, true);
	free(c.sec);
	unlink(in);
	unlink(out);
}

/* The section header of @name in @d (@e). */
static unsigned char *shdr_of(const struct peek_elf *e, unsigned char *d, const char *name)
{
	struct peek_shdr s;
	unsigned i;

	for (i = 0; i < e->shnum; i++) {
		peek_shdr_at(e, i, &s);
		if (strcmp(s.name, name) == 0)
			return d + e->shoff + 64 * (uint64_t)i;
	}
	fail_msg("no section %s", name);
	return NULL;
}

/*
 * What is not read is said: .eh_frame without bytes (a separate debug
 * file), a compressed .debug_frame; with neither left, nothing to convert.
 */
static void test_not_read(void **state)
{
	struct peek_elf e;
	struct converted c;
	struct tu_result r;
	char *in = tmp("not-read"), *out = tmp("not-read.sc");
	size_t n;
	unsigned char *d = tu_read_all(fx("lld-x86_64/exe"), &n);

	(void)state;
	assert_true(peek_open(&e, d, n));
	shdr_of(&e, d, ".eh_frame")[4] = 8;		/* sh_type: SHT_NOBITS */
	write_all(in, d, n);
	run(&r, "convert", in, "-o", out, NOARG);
	tu_expect(&r, 0, NULL);
	assert_non_null(line_of(r.out, "  not read: .eh_frame (SHT_NOBITS: not in this file)\n"));
	assert_null(strstr(r.out, "; .eh_frame "));
	assert_non_null(strstr(r.out, "; .debug_frame 464 bytes)\n"));
	convert_here(in, 0, false, 0, &c);
	check_summary(r.out, in, out, 3, &c);
	assert_true(c.st.functions > 0);
	free(c.sec);
	tu_result_free(&r);
	shdr_of(&e, d, ".debug_frame")[9] |= 0x08;	/* sh_flags: SHF_COMPRESSED (0x800) */
	write_all(in, d, n);
	run(&r, "convert", in, "-o", out, NOARG);
	tu_expect(&r, 1, "no DWARF call-frame information to read: .eh_frame has no bytes in this "
		   "file (SHT_NOBITS), .debug_frame is compressed (not read)");
	tu_result_free(&r);
	shdr_of(&e, d, ".eh_frame")[4] = 1;		/* SHT_PROGBITS again */
	write_all(in, d, n);
	free(d);
	run(&r, "convert", in, "-o", out, NOARG);
	tu_expect(&r, 0, NULL);
	assert_non_null(line_of(r.out, "  not read: compressed .debug_frame (SHF_COMPRESSED)\n"));
	assert_null(strstr(r.out, "; .debug_frame "));
	tu_result_free(&r);
	unlink(in);
	unlink(out);
}

/* ---- Refusals ------------------------------------------------------------------ */

static void test_refused_inputs(void **state)
{
	/* An ELF32 header of i386, ET_EXEC, and nothing else. */
	unsigned char elf32[52] = { 0x7f, 'E', 'L', 'F', 1, 1, 1 };
	struct tu_result r;
	size_t n;
	unsigned char *d;
	char *out = tmp("refused.sc");

	(void)state;
	elf32[16] = 2;
	elf32[18] = 3;
	elf32[20] = 1;
	elf32[40] = 52;
	run(&r, "convert", fx("v3-x86_64/cfi.o"), "-o", out, NOARG);
	tu_expect(&r, 1, "relocatable object: link it first; its .eh_frame needs relocations");
	assert_string_equal(r.out, "");
	tu_result_free(&r);
	run(&r, "convert", fx("README.md"), "-o", out, NOARG);
	tu_expect(&r, 1, "README.md: not an ELF file");
	tu_result_free(&r);
	write_all(tmp("elf32"), elf32, sizeof(elf32));
	run(&r, "convert", tmp("elf32"), "-o", out, NOARG);
	tu_expect(&r, 1, "a 32-bit ELF file (ELFCLASS32)");
	tu_result_free(&r);
	d = tu_read_all(fx("v3-x86_64/exe"), &n);
	d[18] = 243;	/* e_machine: RISC-V */
	d[19] = 0;
	write_all(tmp("riscv"), d, n);
	free(d);
	run(&r, "convert", tmp("riscv"), "-o", out, NOARG);
	tu_expect(&r, 1, "an ELF file for RISC-V: SFrame has no ABI for it");
	tu_result_free(&r);
	assert_int_equal(access(out, F_OK), -1);
	unlink(tmp("elf32"));
	unlink(tmp("riscv"));
}

/* OUT that is FILE, by its name, a hard link or a symbolic link: 2, FILE untouched. */
static void test_refused_same_file(void **state)
{
	struct tu_result r;
	size_t n, m;
	unsigned char *d = tu_read_all(fx("v3-x86_64/exe"), &n), *after;
	char *in = tmp("self"), *hard = tmp("self-hard"), *sym = tmp("self-sym");

	(void)state;
	write_all(in, d, n);
	assert_int_equal(link(in, hard), 0);
	assert_int_equal(symlink(in, sym), 0);
	run(&r, "convert", in, "-o", in, NOARG);
	tu_expect(&r, 2, "is FILE");
	assert_non_null(strstr(r.err, "Try 'sframe convert --help'"));
	tu_result_free(&r);
	run(&r, "convert", in, "-o", hard, NOARG);
	tu_expect(&r, 2, "the input is never written over");
	tu_result_free(&r);
	run(&r, "convert", sym, "-o", in, NOARG);
	tu_expect(&r, 2, "the input is never written over");
	tu_result_free(&r);
	after = tu_read_all(in, &m);
	assert_int_equal(m, n);
	assert_memory_equal(after, d, n);
	free(after);
	free(d);
	unlink(in);
	unlink(hard);
	unlink(sym);
}

/* No temporary file of OUT's left in @dir. */
static void expect_no_temporary(const char *dir, const char *base)
{
	struct dirent *de;
	DIR *dp = opendir(dir);

	assert_non_null(dp);
	while ((de = readdir(dp)) != NULL)
		if (strncmp(de->d_name, base, strlen(base)) == 0 && de->d_name[strlen(base)] == '.')
			fail_msg("temporary file %s/%s left behind", dir, de->d_name);
	closedir(dp);
}

static void test_usage_and_io(void **state)
{
	struct tu_result r;
	char *exe = fx("v3-x86_64/exe"), *out = tmp("io.sc"), *dir = tmp("a-dir");

	(void)state;
	run(&r, "convert", NOARG);
	tu_expect(&r, 2, "sframe: convert: missing FILE");
	tu_result_free(&r);
	run(&r, "convert", exe, NOARG);
	tu_expect(&r, 2, "sframe: convert: missing -o OUT (or --sframe-dir DIR)");
	tu_result_free(&r);
	run(&r, "convert", exe, "-o", out, "--sframe-dir", tmpdir, NOARG);
	tu_expect(&r, 2, "-o and --sframe-dir both name the output: give one");
	tu_result_free(&r);
	run(&r, "convert", exe, "--elf", "--sframe-dir", tmpdir, NOARG);
	tu_expect(&r, 2, "--sframe-dir is where side-cars go; --elf writes a copy of FILE");
	tu_result_free(&r);
	run(&r, "convert", exe, "--sframe-dir", NOARG);
	tu_expect(&r, 2, "option '--sframe-dir' needs a directory");
	tu_result_free(&r);
	/* Its directories are made, DIR's parent must be there. */
	run(&r, "convert", exe, "--sframe-dir", "/nonexistent/dir", NOARG);
	tu_expect(&r, 2, "/nonexistent/dir: cannot make the directory: No such file");
	tu_result_free(&r);
	run(&r, "convert", exe, "-o", NOARG);
	tu_expect(&r, 2, "option '-o' needs a file");
	tu_result_free(&r);
	run(&r, "convert", exe, exe, "-o", out, NOARG);
	tu_expect(&r, 2, "unexpected argument");
	tu_result_free(&r);
	run(&r, "convert", exe, "-o", out, "--format", "v1", NOARG);
	tu_expect(&r, 2, "invalid format 'v1' (expected v2 or v3)");
	tu_result_free(&r);
	run(&r, "convert", exe, "-o", out, "--sframe-addr", "0x1004", NOARG);
	tu_expect(&r, 2, "address '0x1004' is not a multiple of 8");
	tu_result_free(&r);
	run(&r, "convert", exe, "-o", out, "--sframe-addr", "zz", NOARG);
	tu_expect(&r, 2, "invalid address 'zz' (expected hex)");
	tu_result_free(&r);
	run(&r, "convert", "/nonexistent/exe", "-o", out, NOARG);
	tu_expect(&r, 2, "/nonexistent/exe: No such file or directory");
	tu_result_free(&r);
	run(&r, "convert", exe, "-o", "/nonexistent/dir/out.sc", NOARG);
	tu_expect(&r, 2, "/nonexistent/dir/out.sc: cannot create a temporary file beside it");
	tu_result_free(&r);
	/* A folder as OUT: the rename fails, the temporary file goes. */
	assert_int_equal(mkdir(dir, 0700), 0);
	run(&r, "convert", exe, "-o", dir, NOARG);
	tu_expect(&r, 2, "a-dir: ");
	assert_string_equal(r.out, "");
	tu_result_free(&r);
	expect_no_temporary(tmpdir, "a-dir");
	rmdir(dir);
	/* A file already there is replaced whole, and no temporary file stays. */
	write_all(out, "old", 3);
	run(&r, "convert", exe, "-o", out, NOARG);
	tu_expect(&r, 0, NULL);
	tu_result_free(&r);
	run(&r, "check", out, NOARG);
	tu_expect(&r, 0, NULL);
	tu_result_free(&r);
	expect_no_temporary(tmpdir, "io.sc");
	unlink(out);
}

/* ---- A .o: its relocated .eh_frame converted, against gas's relocated .sframe ---- */

/*
 * Both are laid out with every section at 0: each function at its offset in
 * its section. Every PC of every function gas described gets the same
 * function and rules from both, but for functions at 0, which the
 * converter leaves out as a linker's discarded ones (SFRAME_SKIP_EMPTY).
 */
static void check_object(const char *rel)
{
	struct sframe_section gas_sec, conv_sec;
	struct sframe_buffer gas_buf, conv_buf;
	struct sf_cfi_input cfi;
	struct sf_input gas;
	char err[512];
	size_t n, size, len;
	unsigned char *d = tu_read_all(fx(rel), &n), *sec;
	uint32_t i, compared = 0;

	if (sf_cfi_input_load(d, n, &cfi, rel, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(cfi.conv.sframe_addr, 0);
	assert_int_equal(sframe_convert_size(&cfi.conv, &size, NULL), 0);
	sec = malloc(size);
	assert_non_null(sec);
	assert_int_equal(sframe_convert(&cfi.conv, sec, size, &len, NULL), 0);
	if (sf_input_load(fx(rel), 0, 0, &gas, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(sframe_open_buffer(&gas_sec, &gas_buf, gas.sec, gas.sec_size, gas.vaddr),
			 0);
	assert_int_equal(sframe_open_buffer(&conv_sec, &conv_buf, sec, len, 0), 0);
	for (i = 0; i < gas_sec.num_fdes; i++) {
		struct sframe_fde fde;
		uint64_t pc;

		assert_int_equal(sframe_get_fde(&gas_sec, i, &fde), 0);
		if (fde.func_start == 0)
			continue;
		for (pc = fde.func_start; pc < fde.func_start + fde.func_size; pc++) {
			struct sframe_row want, got;
			int rw = sframe_lookup(&gas_sec, pc, &want), rg;

			if (rw == -SFRAME_ERR_NOT_FOUND)
				continue;
			assert_int_equal(rw, 0);
			rg = sframe_lookup(&conv_sec, pc, &got);
			if (rg)
				fail_msg("%s: 0x%" PRIx64 ": no row in the converted section (%s)", rel,
					 pc, sframe_errname(rg));
			if (got.fde.func_start != want.fde.func_start)
				fail_msg("%s: 0x%" PRIx64 ": function 0x%" PRIx64 ", gas's 0x%" PRIx64,
					 rel, pc, got.fde.func_start, want.fde.func_start);
			assert_rules_equal(&got.rules, &want.rules);
			compared++;
		}
	}
	assert_true(compared > 0);
	sf_input_free(&gas);
	sf_cfi_input_free(&cfi);
	free(sec);
	free(d);
}

static void test_object_lookups(void **state)
{
	(void)state;
	check_object("v3-x86_64/cfi.o");
	check_object("v3-x86_64/frames.o");
	check_object("v3-aarch64/cfi.o");
	check_object("v3-s390x/frames.o");
}

/* ---- The manual page ------------------------------------------------------------- */

/* Every reason the summary can print is explained there, by the name printed. */
static void test_manual_skip_names(void **state)
{
	size_t len;
	char *text = tu_read_file(manpage, &len);
	unsigned i;

	(void)state;
	assert_non_null(text);
	for (i = 0; i < SFRAME_SKIP_COUNT; i++) {
		const char *name = sframe_convert_skip_name(i);
		char want[128];
		size_t k = 0;

		k += (size_t)snprintf(want, sizeof(want), ".B ");
		for (; *name && k + 3 < sizeof(want); name++) {
			if (*name == '-')
				want[k++] = '\\';
			want[k++] = *name;
		}
		want[k] = '\0';
		if (!strstr(text, want))
			fail_msg("the manual page does not explain '%s' (no line '%s')",
				 sframe_convert_skip_name(i), want);
	}
	free(text);
}

/* @s with every @from replaced by @to (malloc()ed). */
static char *replace(const char *s, const char *from, const char *to)
{
	size_t cap = strlen(s) * 2 + 1024, n = 0;
	char *out = malloc(cap);
	const char *p;

	assert_non_null(out);
	while ((p = strstr(s, from)) != NULL) {
		assert_true(n + (size_t)(p - s) + strlen(to) < cap);
		memcpy(out + n, s, (size_t)(p - s));
		n += (size_t)(p - s);
		memcpy(out + n, to, strlen(to));
		n += strlen(to);
		s = p + strlen(from);
	}
	assert_true(n + strlen(s) < cap);
	strcpy(out + n, s);
	return out;
}

/*
 * The output block of a document that starts with the line @first: in
 * README.md the indented lines from there, in the manual page the lines up
 * to ".fi", unescaped. Newline-terminated lines.
 */
static char *doc_block(const char *path, bool man, const char *first)
{
	size_t len, n = 0;
	char *text = tu_read_file(path, &len), *line, *save, *out = calloc(1, 8192);
	bool in = false;

	assert_non_null(text);
	assert_non_null(out);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char buf[1024];
		const char *l = line;

		if (man) {
			if (in && strcmp(line, ".fi") == 0)
				break;
			if (!doc_unroff(line, buf, sizeof(buf)))
				continue;
			l = buf;
		} else {
			if (strncmp(line, "    ", 4) != 0) {
				if (in)
					break;
				continue;
			}
			l = line + 4;
		}
		if (!in && strncmp(l, first, strlen(first)) == 0)
			in = true;
		if (in)
			n += (size_t)snprintf(out + n, 8192 - n, "%s\n", l);
	}
	free(text);
	if (!in)
		fail_msg("%s: no block starting with '%s'", path, first);
	return out;
}

/* The summary README.md and the manual page show: what the tool prints. */
static void test_documented_summary(void **state)
{
	struct tu_result r;
	char readme[1100], *out = tmp("unwind.sframe"), *in = fx("unwind/v3-aarch64/unwind");
	char *shown, *a, *b;

	(void)state;
	run(&r, "convert", in, "-o", out, NOARG);
	tu_expect(&r, 0, NULL);
	snprintf(readme, sizeof(readme), "%s/../README.md", fixtures);
	shown = doc_block(readme, false, "fixtures/unwind/v3-aarch64/unwind: ");
	a = replace(r.out, in, "fixtures/unwind/v3-aarch64/unwind");
	b = replace(a, out, "unwind.sframe");
	if (strcmp(b, shown) != 0)
		fail_msg("README.md shows:\n%sthe tool prints:\n%s", shown, b);
	free(a);
	free(b);
	free(shown);
	shown = doc_block(manpage, true, "unwind: ");
	a = replace(r.out, in, "unwind");
	b = replace(a, out, "unwind.sframe");
	if (strcmp(b, shown) != 0)
		fail_msg("the manual page shows:\n%sthe tool prints:\n%s", shown, b);
	free(a);
	free(b);
	free(shown);
	tu_result_free(&r);
	unlink(out);
}

static int remove_tmpdir(void **state)
{
	(void)state;
	rmdir(tmpdir);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_convert_fixtures),
		cmocka_unit_test(test_format_v2),
		cmocka_unit_test(test_sframe_addr),
		cmocka_unit_test(test_no_build_id),
		cmocka_unit_test(test_no_section_headers),
		cmocka_unit_test(test_corrupt_cfi),
		cmocka_unit_test(test_not_read),
		cmocka_unit_test(test_refused_inputs),
		cmocka_unit_test(test_refused_same_file),
		cmocka_unit_test(test_usage_and_io),
		cmocka_unit_test(test_object_lookups),
		cmocka_unit_test(test_manual_skip_names),
		cmocka_unit_test(test_documented_summary),
	};
	const char *t = getenv("TMPDIR");

	if (argc != 4) {
		fprintf(stderr, "usage: %s SFRAME_TOOL FIXTURES_DIR MANPAGE\n", argv[0]);
		return 2;
	}
	tool = argv[1];
	fixtures = argv[2];
	manpage = argv[3];
	snprintf(tmpdir, sizeof(tmpdir), "%s/sframe-test-convert-XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, remove_tmpdir);
}
