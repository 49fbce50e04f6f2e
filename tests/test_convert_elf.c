/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_convert_elf.c - "sframe convert --elf FILE -o OUT", run as the built
 * tool:
 *   - the copy, read independently (elf_peek.h): FILE's bytes unchanged but
 *     for the ELF header's table fields (and, with --force, the .sframe
 *     section header); the program header table moved into a new read-only
 *     PT_LOAD above every other segment, after the last PT_LOAD entry, every
 *     other entry as it was, PT_PHDR following the table (or the table
 *     grown in place where zeros after it leave room); PT_GNU_SFRAME
 *     inside the new segment; a new .sframe section (SHT_GNU_SFRAME) at
 *     the end of the section header table, every other header as it was but
 *     the grown name table's; the section is sframe_convert()'s of FILE's
 *     CFI at its address, byte for byte; FILE's permission bits;
 *   - on the fixtures of every machine (with --force: gas gave them SFrame),
 *     the host's programs and libraries, a file without section headers,
 *     one whose .bss leaves the file compact;
 *   - stock programs run the same converted: bash, python3, perl (stdout and
 *     exit status); a converted libc.so.6 loaded by stock programs, a
 *     converted ld.so loading them; the static AArch64 and s390x unwind
 *     fixtures under qemu-user;
 *   - sframe stack walks a stock python3 through its converted self and
 *     libc.so.6 to _start;
 *   - sframe dump, check and lookup answer on the copy as on the side-car;
 *   - readelf shows PT_GNU_SFRAME inside a PT_LOAD; eu-elflint --gnu-ld says
 *     nothing of the copy that it does not say of FILE, but what it says of
 *     every file with SFrame (elfutils 0.188 knows neither PT_GNU_SFRAME
 *     nor SHT_GNU_SFRAME); strip and objcopy keep the section, and what
 *     they write runs;
 *   - refusals: SFrame already (without --force), a .o, OUT that is FILE by
 *     any name, --sframe-addr or --force in the wrong place, no address.
 *
 * What needs the host's files or binutils/elfutils is skipped without them
 * (and on hosts other than x86-64, whose programs are not run).
 *
 *   - the example of the manual page is what the tool prints.
 *
 *   test_convert_elf SFRAME_TOOL FIXTURES_DIR MANPAGE
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
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
#include "tool_run.h"

static const char *tool, *fixtures, *manpage;
static char tmpdir[256];

#define NOARG ((char *)NULL)
#define PT_LOAD_ 1u
#define PT_PHDR_ 6u
#define PT_GNU_SFRAME_ 0x6474e554u
#define SHT_GNU_SFRAME_ 0x6ffffff4u

/* ---- Files and processes ------------------------------------------------------- */

static char *fx(const char *rel)
{
	return tu_path(fixtures, rel);
}

static char *tmp(const char *name)
{
	return tu_path(tmpdir, name);
}

static void write_all(const char *path, const void *d, size_t n, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, d, n), (ssize_t)n);
	assert_int_equal(fchmod(fd, mode), 0);
	assert_int_equal(close(fd), 0);
}

static bool exists(const char *path)
{
	return access(path, R_OK) == 0;
}

/*
 * Skip a test for a missing host file or tool, but where CI says it has
 * them all (.ci/run installs the stock binaries and tools, and sets the
 * variable for test_convert_dwarf.c's files, the same ones): a missing one
 * there fails instead.
 */
static void unavailable(const char *what)
{
	if (getenv("SFRAME_TEST_REQUIRE_DWARF_FILES"))
		fail_msg("%s: not on this machine, which should have it "
			 "(SFRAME_TEST_REQUIRE_DWARF_FILES is set)", what);
	skip();
}

/* The tool with the arguments after @r (NOARG-terminated). */
static void run_tool(struct tu_result *r, ...)
{
	va_list ap;

	va_start(ap, r);
	tu_vrun_tool(r, tool, ap);
	va_end(ap);
}

/* sframe convert --elf @in -o @out [@extra]: must succeed. */
static void convert_elf(const char *in, const char *out, const char *extra)
{
	struct tu_result r;

	if (extra)
		run_tool(&r, "convert", "--elf", extra, in, "-o", out, NOARG);
	else
		run_tool(&r, "convert", "--elf", in, "-o", out, NOARG);
	tu_expect(&r, 0, NULL);
	if (!strstr(r.out, "  segment: PT_LOAD at 0x"))
		fail_msg("no segment line in the summary:\n%s", r.out);
	tu_result_free(&r);
}

/*
 * A host program, not through SFRAME_TEST_WRAPPER (it runs host programs
 * only): its standard output and exit status (-1: killed), standard error
 * to @err_path (NULL: /dev/null), with LD_LIBRARY_PATH=@libs when given.
 */
static char *run_host(char *const argv[], const char *libs, const char *err_path, int *status)
{
	char path[600];
	size_t len;
	char *out;
	pid_t pid;
	int st, fd;

	snprintf(path, sizeof(path), "%s/host-stdout", tmpdir);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(126);
		fd = open(err_path ? err_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(126);
		fd = open("/dev/null", O_RDONLY);
		if (fd < 0 || dup2(fd, 0) < 0)
			_exit(126);
		if (libs)
			setenv("LD_LIBRARY_PATH", libs, 1);
		else
			unsetenv("LD_LIBRARY_PATH");
		execv(argv[0], argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	out = tu_read_file(path, &len);
	assert_non_null(out);
	return out;
}

/* ---- What the library makes of the same input ---------------------------------- */

/* FILE's CFI converted for @addr by the library: malloc()ed, *@len bytes. */
static unsigned char *convert_here(const char *path, uint64_t addr, size_t *len)
{
	struct sframe_convert_stats st;
	struct sf_cfi_input cfi;
	char err[512];
	size_t n, size;
	unsigned char *d = tu_read_all(path, &n), *sec;
	int r;

	if (sf_cfi_input_load(d, n, &cfi, path, err, sizeof(err)))
		fail_msg("%s", err);
	cfi.conv.sframe_addr = addr;
	r = sframe_convert_size(&cfi.conv, &size, &st);
	if (r)
		fail_msg("%s: sframe_convert_size: %s", path, sframe_convert_strerror(r));
	sec = malloc(size ? size : 1);
	assert_non_null(sec);
	r = sframe_convert(&cfi.conv, sec, size, len, &st);
	if (r)
		fail_msg("%s: sframe_convert: %s", path, sframe_convert_strerror(r));
	sf_cfi_input_free(&cfi);
	free(d);
	return sec;
}

/* ---- The copy ------------------------------------------------------------------ */

/* What check_copy() found, for the checks after it. */
struct copy {
	struct peek_phdr load, sframe;
	uint64_t in_size;
	bool in_place;
};

static bool same_range(uint64_t off, uint64_t n, uint64_t field, uint64_t width)
{
	return off < field + width && field < off + n;
}

/* Whether byte @i of the input may differ in the copy (see the file's top). */
static bool may_differ(uint64_t i, const struct peek_elf *ie, int64_t replaced_sh,
		       uint64_t table_in_place)
{
	static const uint64_t fields[][2] = {
		{ 32, 8 },	/* e_phoff */
		{ 40, 8 },	/* e_shoff */
		{ 56, 2 },	/* e_phnum */
		{ 60, 2 },	/* e_shnum */
	};
	size_t k;

	for (k = 0; k < sizeof(fields) / sizeof(fields[0]); k++)
		if (same_range(i, 1, fields[k][0], fields[k][1]))
			return true;
	if (same_range(i, 1, ie->phoff, table_in_place))
		return true;
	return replaced_sh >= 0 && same_range(i, 1, ie->shoff + 64 * (uint64_t)replaced_sh, 64);
}

/*
 * @out_path against its input @in_path (see the top of the file); with
 * @force, the input may have had SFrame, which the copy's replaces.
 */
static void check_copy(const char *in_path, const char *out_path, bool force, struct copy *c)
{
	struct peek_elf ie, oe;
	struct peek_shdr is, os, in_sframe;
	struct peek_phdr p, q;
	size_t in_n, out_n, len;
	unsigned char *in = tu_read_all(in_path, &in_n), *out = tu_read_all(out_path, &out_n), *sec;
	int64_t in_ph_sframe = -1, in_sh_sframe = -1, last_load = -1;
	uint64_t i, j, end = 0, align = 4096, phsize;
	unsigned n_sframe = 0, n_phdr = 0;
	bool appended, in_place;

	memset(c, 0, sizeof(*c));
	c->in_size = in_n;
	assert_true(peek_open(&ie, in, in_n));
	if (!peek_open(&oe, out, out_n))
		fail_msg("%s is no ELF64 file", out_path);
	for (i = 0; i < ie.phnum; i++) {
		peek_phdr_at(&ie, (unsigned)i, &p);
		if (p.type == PT_GNU_SFRAME_ && in_ph_sframe < 0)
			in_ph_sframe = (int64_t)i;
		if (p.type != PT_LOAD_)
			continue;
		last_load = (int64_t)i;
		if (p.vaddr + p.memsz > end)
			end = p.vaddr + p.memsz;
		if (p.align > align)
			align = p.align;
	}
	assert_true(last_load >= 0);
	if (ie.shnum && peek_section(&ie, ".sframe", &in_sframe))
		for (i = 0; i < ie.shnum; i++) {
			peek_shdr_at(&ie, (unsigned)i, &is);
			if (strcmp(is.name, ".sframe") == 0) {
				in_sh_sframe = (int64_t)i;
				break;
			}
		}
	if (!force && (in_ph_sframe >= 0 || in_sh_sframe >= 0))
		fail_msg("%s has SFrame: convert it with --force", in_path);

	/* FILE's bytes, but the table fields of the ELF header (and a table grown in place). */
	assert_true(out_n >= in_n);
	in_place = oe.phoff == ie.phoff;
	for (i = 0; i < in_n; i++)
		if (in[i] != out[i] &&
		    !may_differ(i, &ie, in_sh_sframe, in_place ? 56 * (uint64_t)oe.phnum : 0))
			fail_msg("%s: byte 0x%" PRIx64 " differs from %s's", out_path, i, in_path);
	assert_int_equal(oe.phnum, ie.phnum + 1 + (in_ph_sframe < 0));

	/* The program headers: FILE's in their order, the new PT_LOAD after the last. */
	phsize = 56 * (uint64_t)oe.phnum;
	for (i = 0, j = 0; i < oe.phnum; i++) {
		peek_phdr_at(&oe, (unsigned)i, &p);
		if (j == (uint64_t)last_load + 1 && p.type == PT_LOAD_ && c->load.type == 0) {
			c->load = p;
			continue;
		}
		if (j == ie.phnum) {	/* the PT_GNU_SFRAME added at the end */
			assert_int_equal(p.type, PT_GNU_SFRAME_);
			assert_int_equal(i, oe.phnum - 1);
			c->sframe = p;
			n_sframe++;
			continue;
		}
		peek_phdr_at(&ie, (unsigned)j, &q);
		assert_int_equal(p.type, q.type);
		if (p.type == PT_PHDR_) {
			n_phdr++;
			assert_int_equal(p.offset, oe.phoff);
			assert_int_equal(p.filesz, phsize);
			assert_int_equal(p.memsz, phsize);
			assert_int_equal(p.flags, q.flags);
		} else if ((int64_t)j == in_ph_sframe) {
			c->sframe = p;
			n_sframe++;
		} else {
			assert_memory_equal(out + oe.phoff + 56 * i, in + ie.phoff + 56 * j, 56);
			if (p.type == PT_GNU_SFRAME_)
				n_sframe++;
		}
		j++;
	}
	assert_int_equal(j, ie.phnum);
	assert_int_equal(n_sframe, 1);

	/* The new segment: read-only, above the others, the table first, then .sframe. */
	assert_int_equal(c->load.type, PT_LOAD_);
	assert_int_equal(c->load.flags, 4);	/* PF_R */
	if (!in_place)
		assert_int_equal(c->load.offset, oe.phoff);
	assert_true(c->load.offset >= in_n);
	assert_int_equal(c->load.filesz, c->load.memsz);
	assert_true(c->load.offset <= out_n && c->load.filesz <= out_n - c->load.offset);
	assert_int_equal(c->load.align, align);
	assert_int_equal(c->load.vaddr % align, c->load.offset % align);
	/* One alignment unit above the last segment's page (strip and objcopy). */
	assert_true(c->load.vaddr >= (end + align - 1) / align * align + align);
	assert_int_equal(peek_u(&oe, oe.phoff + 56 * (uint64_t)(last_load + 1) + 24, 8),
			 c->load.vaddr);	/* p_paddr */
	if (n_phdr)
		for (i = 0; i < oe.phnum; i++) {
			peek_phdr_at(&oe, (unsigned)i, &p);
			if (p.type == PT_PHDR_ && !in_place)
				assert_int_equal(p.vaddr, c->load.vaddr);
		}
	assert_int_equal(c->sframe.type, PT_GNU_SFRAME_);
	assert_int_equal(c->sframe.flags, 4);
	assert_int_equal(c->sframe.offset,
			 c->load.offset + (in_place ? 0 : (phsize + 7) & ~(uint64_t)7));
	c->in_place = in_place;
	assert_int_equal(c->sframe.vaddr - c->load.vaddr, c->sframe.offset - c->load.offset);
	assert_int_equal(c->sframe.filesz, c->sframe.memsz);
	assert_int_equal(c->sframe.offset + c->sframe.filesz, c->load.offset + c->load.filesz);
	assert_int_equal(c->sframe.vaddr % 8, 0);

	/* The section: what the library makes of FILE's CFI at that address. */
	sec = convert_here(in_path, c->sframe.vaddr, &len);
	assert_int_equal(c->sframe.filesz, len);
	assert_memory_equal(out + c->sframe.offset, sec, len);
	free(sec);

	/* The section headers: FILE's, the name table grown, .sframe at the end. */
	if (ie.shnum == 0) {
		assert_int_equal(oe.shnum, 0);
		assert_int_equal(oe.shoff, ie.shoff);
		goto done;
	}
	appended = in_sh_sframe < 0;
	assert_int_equal(oe.shnum, ie.shnum + appended);
	assert_int_equal(oe.shstrndx, ie.shstrndx);
	for (i = 0; i < ie.shnum; i++) {
		peek_shdr_at(&ie, (unsigned)i, &is);
		peek_shdr_at(&oe, (unsigned)i, &os);
		assert_string_equal(os.name, is.name);
		if (i == ie.shstrndx && appended) {
			assert_true(os.offset >= c->load.offset + c->load.filesz);
			assert_int_equal(os.size, is.size + (appended ? 8 : 0));
			assert_memory_equal(out + os.offset, in + is.offset, is.size);
			assert_int_equal(os.type, is.type);
		} else if ((int64_t)i != in_sh_sframe) {
			assert_memory_equal(out + oe.shoff + 64 * i, in + ie.shoff + 64 * i, 64);
		}
	}
	assert_true(peek_section(&oe, ".sframe", &os));
	if (appended) {
		peek_shdr_at(&oe, oe.shnum - 1u, &os);
		assert_string_equal(os.name, ".sframe");
	}
	assert_int_equal(os.type, SHT_GNU_SFRAME_);
	assert_int_equal(os.flags, 2);	/* SHF_ALLOC */
	assert_int_equal(os.addr, c->sframe.vaddr);
	assert_int_equal(os.offset, c->sframe.offset);
	assert_int_equal(os.size, c->sframe.filesz);
	assert_int_equal(os.align, 8);
	if (appended)
		assert_true(oe.shoff >= c->load.offset + c->load.filesz);
	else
		assert_int_equal(oe.shoff, ie.shoff);
	assert_true(oe.shoff + 64 * (uint64_t)oe.shnum <= out_n);
done:
	free(in);
	free(out);
}

/* Convert @in to @name in the temporary directory and check the copy. */
static const char *convert_and_check(const char *in, const char *name, bool force,
				     struct copy *c)
{
	const char *out = tmp(name);

	convert_elf(in, out, force ? "--force" : NULL);
	check_copy(in, out, force, c);
	return out;
}

/* ---- The layout ---------------------------------------------------------------- */

/* The fixtures of every machine: gas gave them SFrame, which --force replaces. */
static void test_fixture_copies(void **state)
{
	static const char *const files[] = {
		"v3-x86_64/exe", "v3-x86_64/lib.so", "v3-aarch64/exe", "v3-aarch64/lib.so",
		"v2-x86_64/exe", "unwind/v3-aarch64/unwind", "unwind/v3-s390x/unwind",
		"unwind/v3-x86_64/unwind",
	};
	struct tu_result r;
	struct copy c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		unlink(tmp("fixture"));
		run_tool(&r, "convert", "--elf", fx(files[i]), "-o", tmp("fixture"), NOARG);
		tu_expect(&r, 1, "it has SFrame already");
		tu_expect(&r, 1, "--force replaces it");
		tu_result_free(&r);
		assert_false(exists(tmp("fixture")));
		convert_and_check(fx(files[i]), "fixture", true, &c);
	}
}

/* The host's programs and libraries, and a file without section headers. */
static void test_host_copies(void **state)
{
	static const char *const files[] = {
		"/bin/bash", "/usr/bin/python3.11", "/usr/bin/perl",
		"/lib/x86_64-linux-gnu/libc.so.6", "/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
	};
	unsigned char *d;
	struct copy c;
	size_t i, n, any = 0;

	(void)state;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (!exists(files[i]))
			continue;
		convert_and_check(files[i], "host", false, &c);
		any++;
	}
	if (!any)
		unavailable("/bin/bash and the other host files");
	/* No section headers (as sstrip leaves a file): .eh_frame from PT_GNU_EH_FRAME. */
	d = tu_read_all(files[0], &n);
	memset(d + 40, 0, 8);	/* e_shoff */
	memset(d + 58, 0, 6);	/* e_shentsize, e_shnum, e_shstrndx */
	write_all(tmp("noshdr"), d, n, 0755);
	free(d);
	convert_and_check(tmp("noshdr"), "noshdr.elf", false, &c);
}

/* A .bss past 1 MiB of padding: the file only rounded up, the address congruent. */
static void test_compact_layout(void **state)
{
	const char *in = "/bin/bash";
	struct peek_elf e;
	struct peek_phdr p;
	unsigned char *d;
	struct copy c;
	size_t n;
	unsigned i, rw = 0;

	(void)state;
	if (!exists(in))
		unavailable(in);
	d = tu_read_all(in, &n);
	assert_true(peek_open(&e, d, n));
	for (i = 0; i < e.phnum; i++) {
		peek_phdr_at(&e, i, &p);
		if (p.type == PT_LOAD_)
			rw = i;
	}
	peek_phdr_at(&e, rw, &p);
	/* 16 MiB more .bss in the last segment: p_memsz. */
	sf_put_uint(d + e.phoff + 56 * (uint64_t)rw + 40, 8, e.be, p.memsz + (16u << 20));
	write_all(tmp("bigbss"), d, n, 0755);
	free(d);
	convert_and_check(tmp("bigbss"), "bigbss.elf", false, &c);
	assert_int_equal(c.load.offset, (c.in_size + 4095) / 4096 * 4096);
	{
		struct tu_result r;

		run_tool(&r, "convert", "--elf", tmp("bigbss"), "-o", tmp("bigbss.elf"), NOARG);
		tu_expect(&r, 0, "needs Linux 5.18 or later");
		tu_result_free(&r);
	}
#if defined(__x86_64__)
	{
		char *argv[] = { tmp("bigbss.elf"), "-c", "echo big", NULL };
		int status;
		char *out = run_host(argv, NULL, NULL, &status);

		assert_string_equal(out, "big\n");
		assert_int_equal(status, 0);
		free(out);
	}
#endif
}

/*
 * A table with loaded zeros after it grows in place: bash
 * without its last two entries (PT_GNU_STACK, PT_GNU_RELRO), zeroed, so
 * that exactly the two new ones fit. The new segment holds .sframe alone.
 */
static void test_in_place(void **state)
{
	const char *in = "/bin/bash";
	struct peek_elf e;
	struct peek_phdr p;
	unsigned char *d;
	struct copy c;
	size_t n;
	unsigned i;

	(void)state;
	if (!exists(in))
		unavailable(in);
	d = tu_read_all(in, &n);
	assert_true(peek_open(&e, d, n));
	assert_true(e.phnum > 4);
	memset(d + e.phoff + 56 * (uint64_t)(e.phnum - 2), 0, 2 * 56);
	sf_put_uint(d + 56, 2, e.be, e.phnum - 2u);
	for (i = 0; i < e.phnum - 2u; i++) {
		peek_phdr_at(&e, i, &p);
		if (p.type != PT_PHDR_)
			continue;
		sf_put_uint(d + e.phoff + 56 * (uint64_t)i + 32, 8, e.be, p.filesz - 112);
		sf_put_uint(d + e.phoff + 56 * (uint64_t)i + 40, 8, e.be, p.memsz - 112);
	}
	write_all(tmp("room"), d, n, 0755);
	free(d);
	convert_and_check(tmp("room"), "room.elf", false, &c);
	assert_true(c.in_place);
	assert_int_equal(c.sframe.offset, c.load.offset);
	/* One entry short of room: moved. */
	d = tu_read_all(tmp("room"), &n);
	d[e.phoff + 56 * (uint64_t)e.phnum - 1] = 1;
	write_all(tmp("room-short"), d, n, 0755);
	free(d);
	convert_and_check(tmp("room-short"), "room-short.elf", false, &c);
	assert_false(c.in_place);
#if defined(__x86_64__)
	{
		char *argv[] = { tmp("room.elf"), "-c", "echo in place", NULL };
		int status;
		char *out = run_host(argv, NULL, NULL, &status);

		assert_string_equal(out, "in place\n");
		assert_int_equal(status, 0);
		free(out);
	}
#endif
}

/* --force: the .sframe section header and PT_GNU_SFRAME entry name the new section. */
static void test_force_replaces(void **state)
{
	struct peek_elf ie, oe;
	struct peek_shdr s;
	unsigned char *in, *out;
	size_t in_n, out_n;
	struct copy c;
	const char *o;

	(void)state;
	o = convert_and_check(fx("v3-x86_64/exe"), "forced", true, &c);
	in = tu_read_all(fx("v3-x86_64/exe"), &in_n);
	out = tu_read_all(o, &out_n);
	assert_true(peek_open(&ie, in, in_n));
	assert_true(peek_open(&oe, out, out_n));
	assert_int_equal(oe.phnum, ie.phnum + 1);
	assert_int_equal(oe.shnum, ie.shnum);
	assert_int_equal(oe.shoff, ie.shoff);
	assert_true(peek_section(&oe, ".sframe", &s));
	assert_int_equal(s.addr, c.sframe.vaddr);
	free(in);
	free(out);
	/* Converting the copy again replaces its section once more. */
	convert_and_check(o, "forced2", true, &c);
}

/* OUT gets FILE's permission bits, never its set-ID bits. */
static void test_mode(void **state)
{
	unsigned char *d;
	struct stat st;
	size_t n;

	(void)state;
	d = tu_read_all(fx("v3-x86_64/exe"), &n);
	write_all(tmp("mode-in"), d, n, 0750);
	free(d);
	convert_elf(tmp("mode-in"), tmp("mode-out"), "--force");
	assert_int_equal(stat(tmp("mode-out"), &st), 0);
	assert_int_equal(st.st_mode & 07777, 0750);
	assert_int_equal(chmod(tmp("mode-in"), 04755), 0);
	convert_elf(tmp("mode-in"), tmp("mode-out"), "--force");
	assert_int_equal(stat(tmp("mode-out"), &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	assert_int_equal(chmod(tmp("mode-in"), 0640), 0);
	convert_elf(tmp("mode-in"), tmp("mode-out"), "--force");
	assert_int_equal(stat(tmp("mode-out"), &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
}

/* ---- Refusals ------------------------------------------------------------------ */

static void test_refusals(void **state)
{
	struct tu_result r;
	struct peek_elf e;
	struct peek_phdr p;
	unsigned char *d;
	size_t n;
	unsigned i, last = 0;

	(void)state;
	/* A relocatable object. */
	run_tool(&r, "convert", "--elf", fx("v3-x86_64/frames.o"), "-o", tmp("o"), NOARG);
	tu_expect(&r, 1, "relocatable object");
	tu_result_free(&r);
	/* OUT that is FILE: the same name, a hard link, a symbolic link. */
	d = tu_read_all(fx("v3-x86_64/exe"), &n);
	write_all(tmp("self"), d, n, 0755);
	run_tool(&r, "convert", "--elf", "--force", tmp("self"), "-o", tmp("self"), NOARG);
	tu_expect(&r, 2, "is FILE");
	tu_result_free(&r);
	unlink(tmp("self-link"));
	assert_int_equal(link(tmp("self"), tmp("self-link")), 0);
	run_tool(&r, "convert", "--elf", "--force", tmp("self"), "-o", tmp("self-link"), NOARG);
	tu_expect(&r, 2, "is FILE");
	tu_result_free(&r);
	unlink(tmp("self-sym"));
	assert_int_equal(symlink(tmp("self"), tmp("self-sym")), 0);
	run_tool(&r, "convert", "--elf", "--force", tmp("self"), "-o", tmp("self-sym"), NOARG);
	tu_expect(&r, 2, "is FILE");
	tu_result_free(&r);
	{
		unsigned char *again;
		size_t m;

		again = tu_read_all(tmp("self"), &m);
		assert_int_equal(m, n);
		assert_memory_equal(again, d, n);
		free(again);
	}
	/* Options that do not go together. */
	run_tool(&r, "convert", "--elf", "--sframe-addr", "0x100000", fx("v3-x86_64/exe"), "-o",
		 tmp("x"), NOARG);
	tu_expect(&r, 2, "--sframe-addr does not go with --elf");
	tu_result_free(&r);
	run_tool(&r, "convert", "--force", fx("v3-x86_64/exe"), "-o", tmp("x"), NOARG);
	tu_expect(&r, 2, "--force goes with --elf");
	tu_result_free(&r);
	/* No address: the last segment near the top of the user address space. */
	assert_true(peek_open(&e, d, n));
	for (i = 0; i < e.phnum; i++) {
		peek_phdr_at(&e, i, &p);
		if (p.type == PT_LOAD_)
			last = i;
	}
	peek_phdr_at(&e, last, &p);
	sf_put_uint(d + e.phoff + 56 * (uint64_t)last + 16, 8, e.be,
		    UINT64_C(0x7ffffffff000) + p.vaddr % 4096);
	write_all(tmp("top"), d, n, 0755);
	run_tool(&r, "convert", "--elf", "--force", tmp("top"), "-o", tmp("x"), NOARG);
	tu_expect(&r, 1, "no address for the new segment");
	tu_result_free(&r);
	/* Segments that wrap around the address space. */
	sf_put_uint(d + e.phoff + 56 * (uint64_t)last + 16, 8, e.be, UINT64_C(0xfffffffffffff000));
	write_all(tmp("top"), d, n, 0755);
	run_tool(&r, "convert", "--elf", "--force", tmp("top"), "-o", tmp("x"), NOARG);
	tu_expect(&r, 1, NULL);
	tu_result_free(&r);
	assert_false(exists(tmp("x")));
	free(d);
}

/* ---- Running the copies --------------------------------------------------------- */

struct cmd {
	const char *prog;
	const char *args[6];
};

/* @c run as it is and as @copy: the same standard output and exit status. */
static void same_run(const struct cmd *c, const char *copy, const char *libs_a,
		     const char *libs_b)
{
	char *argv[8], *a, *b;
	int sa, sb;
	size_t i;

	argv[0] = (char *)c->prog;
	for (i = 0; c->args[i]; i++)
		argv[i + 1] = (char *)c->args[i];
	argv[i + 1] = NULL;
	a = run_host(argv, libs_a, NULL, &sa);
	argv[0] = (char *)copy;
	b = run_host(argv, libs_b, NULL, &sb);
	if (sa != sb || strcmp(a, b) != 0)
		fail_msg("%s %s: status %d, output:\n%s\nconverted: status %d, output:\n%s",
			 c->prog, c->args[0] ? c->args[0] : "", sa, a, sb, b);
	free(a);
	free(b);
}

/* bash, python3 and perl, converted, run as they are. */
static void test_programs_run(void **state)
{
	static const struct cmd cmds[] = {
		{ "/bin/bash", { "-c", "echo $((6 * 7)); f() { [ $1 -le 1 ] && echo 1 || "
				 "echo $(( $1 * $(f $(($1 - 1))) )); }; f 10", NULL } },
		{ "/bin/bash", { "-c", "for i in a b c; do printf '%s-' $i; done; exit 3", NULL } },
		{ "/bin/bash", { "--version", NULL } },
		{ "/usr/bin/python3.11", { "-c", "import json, re, sys; "
			"print(json.dumps(sorted({'b': 1, 'a': [1, 2]}.items()))); "
			"print(re.sub(r'(\\d+)', lambda m: str(int(m.group(1)) * 2), 'x21 y4')); "
			"sys.exit(5)", NULL } },
		{ "/usr/bin/python3.11", { "-c", "def f(n): return 1 if n < 2 else n * f(n - 1)\n"
			"print(f(200) % 1000003)\nraise SystemExit(f(5))", NULL } },
		{ "/usr/bin/python3.11", { "-c", "import sqlite3, hashlib; c = sqlite3.connect(':memory:'); "
			"print(c.execute('select 6*7').fetchone()[0], "
			"hashlib.sha256(b'sframe').hexdigest())", NULL } },
		{ "/usr/bin/perl", { "-e", "my %h = map { $_ => $_ ** 2 } 1..10; "
			"print join(',', map { \"$_=$h{$_}\" } sort { $a <=> $b } keys %h), \"\\n\"; "
			"exit 7", NULL } },
		{ "/usr/bin/perl", { "-MPOSIX", "-e", "print floor(7.9), ' ', "
			"join('', reverse split //, 'sframe'), \"\\n\"", NULL } },
	};
	size_t i;

	(void)state;
#if !defined(__x86_64__)
	skip();
#endif
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char name[64];
		const char *base = strrchr(cmds[i].prog, '/') + 1;

		if (!exists(cmds[i].prog))
			unavailable(cmds[i].prog);
		snprintf(name, sizeof(name), "run-%s", base);
		if (!exists(tmp(name)))
			convert_elf(cmds[i].prog, tmp(name), NULL);
		same_run(&cmds[i], tmp(name), NULL, NULL);
	}
}

/* Whether @needle is in the /proc/self/maps that @prog (with @libs) prints of itself. */
static bool maps_have(const char *prog, const char *libs, const char *needle)
{
	char *argv[] = { (char *)prog, "/proc/self/maps", NULL }, *out;
	bool r;
	int st;

	out = run_host(argv, libs, NULL, &st);
	r = st == 0 && strstr(out, needle) != NULL;
	free(out);
	return r;
}

/* A converted libc.so.6 loaded by stock programs, a converted ld.so loading them. */
static void test_libc_and_ldso(void **state)
{
	static const char *const libc = "/lib/x86_64-linux-gnu/libc.so.6",
			  *const ldso = "/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2";
	static const struct cmd cmds[] = {
		{ "/bin/ls", { "-d", "/", "/proc", NULL } },
		{ "/bin/echo", { "loaded", NULL } },
		{ "/bin/sh", { "-c", "echo $((1 << 10)); exit 9", NULL } },
		{ "/usr/bin/sha256sum", { "/bin/true", NULL } },
		{ "/bin/false", { NULL } },
	};
	char lib_dir[600], copy[700], need[710];
	size_t i;

	(void)state;
#if !defined(__x86_64__)
	skip();
#endif
	if (!exists(libc) || !exists(ldso) || !exists("/bin/cat"))
		unavailable("libc.so.6, ld.so or cat");
	snprintf(lib_dir, sizeof(lib_dir), "%s/lib", tmpdir);
	mkdir(lib_dir, 0755);
	snprintf(copy, sizeof(copy), "%s/libc.so.6", lib_dir);
	convert_elf(libc, copy, NULL);
	/* The copy is what gets loaded. */
	snprintf(need, sizeof(need), "%s\n", copy);
	assert_true(maps_have("/bin/cat", lib_dir, need));
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (exists(cmds[i].prog))
			same_run(&cmds[i], cmds[i].prog, NULL, lib_dir);

	/* ld.so converted, with the stock libc, then with the converted one. */
	convert_elf(ldso, tmp("ld.so"), NULL);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char *argv[10], *a, *b;
		int sa, sb;
		size_t k;

		if (!exists(cmds[i].prog))
			continue;
		argv[0] = (char *)cmds[i].prog;
		for (k = 0; cmds[i].args[k]; k++)
			argv[k + 1] = (char *)cmds[i].args[k];
		argv[k + 1] = NULL;
		a = run_host(argv, NULL, NULL, &sa);
		argv[0] = tmp("ld.so");
		argv[1] = "--library-path";
		argv[2] = lib_dir;
		argv[3] = (char *)cmds[i].prog;
		for (k = 0; cmds[i].args[k]; k++)
			argv[k + 4] = (char *)cmds[i].args[k];
		argv[k + 4] = NULL;
		b = run_host(argv, NULL, NULL, &sb);
		if (sa != sb || strcmp(a, b) != 0)
			fail_msg("ld.so --library-path %s: status %d, output:\n%s\nstock %s: "
				 "status %d, output:\n%s", cmds[i].prog, sb, b, cmds[i].prog, sa, a);
		free(a);
		free(b);
	}
	{
		char *argv[] = { tmp("ld.so"), "--library-path", lib_dir, "/bin/true", NULL }, *o;
		int st;

		o = run_host(argv, NULL, NULL, &st);
		assert_int_equal(st, 0);
		free(o);
	}
	{
		char *argv[] = { tmp("ld.so"), "/bin/cat", "/proc/self/maps", NULL }, *o;
		int st;

		o = run_host(argv, NULL, NULL, &st);
		assert_int_equal(st, 0);
		assert_non_null(strstr(o, tmp("ld.so")));
		free(o);
	}
}

/*
 * The point of the copies: sframe stack walks a stock python3 through its
 * converted self and libc.so.6 from the sleep in libc to _start, where the
 * stock files stop at the first frame (no SFrame).
 */
static void test_stack_through_copies(void **state)
{
	static const char script[] =
		"import sys, time\n"
		"try:\n"
		"    import ctypes\n"
		"    ctypes.CDLL(None).prctl(0x59616d61, ctypes.c_ulong(-1), 0, 0, 0)\n"
		"except Exception:\n"
		"    pass\n"
		"def f(n):\n"
		"    if n == 0:\n"
		"        print('ready', flush=True)\n"
		"        time.sleep(60)\n"
		"    else:\n"
		"        f(n - 1)\n"
		"f(3)\n";
	const char *py = "/usr/bin/python3.11", *libc = "/lib/x86_64-linux-gnu/libc.so.6";
	char lib_dir[600], copy[700], pid_s[32], line[16] = "";
	struct tu_result r;
	int pfd[2], st;
	pid_t pid;

	(void)state;
#if !defined(__x86_64__)
	skip();
#endif
	if (!exists(py) || !exists(libc))
		unavailable("python3.11 or libc.so.6");
	snprintf(lib_dir, sizeof(lib_dir), "%s/stack-lib", tmpdir);
	mkdir(lib_dir, 0755);
	snprintf(copy, sizeof(copy), "%s/libc.so.6", lib_dir);
	convert_elf(libc, copy, NULL);
	convert_elf(py, tmp("stack-py"), NULL);
	assert_int_equal(pipe(pfd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *argv[] = { tmp("stack-py"), "-c", (char *)script, NULL };

		dup2(pfd[1], 1);
		close(pfd[0]);
		setenv("LD_LIBRARY_PATH", lib_dir, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	/* "ready": it sleeps in libc, under f(0). */
	{
		size_t n = 0;

		while (n + 1 < sizeof(line) && read(pfd[0], line + n, 1) == 1 && line[n] != '\n')
			n++;
		line[n] = '\0';
	}
	if (strcmp(line, "ready") != 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		fail_msg("the converted python3 did not start (it said '%s')", line);
	}
	snprintf(pid_s, sizeof(pid_s), "%d", (int)pid);
	/* --no-convert: the copies' own sections, nothing made on the fly. */
	run_tool(&r, "stack", "--no-convert", pid_s, NOARG);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	close(pfd[0]);
	if (r.status == 2 && strstr(r.err, "not permitted")) {
		tu_result_free(&r);
		skip();
	}
	if (r.status != 0 || !strstr(r.out, "stop: outermost frame") ||
	    !strstr(r.out, " _start+") || !strstr(r.out, "__libc_start_call_main+") ||
	    !strstr(r.out, "PyEval_EvalCode+") || !strstr(r.out, copy) ||
	    strstr(r.out, "[no sframe]") || strstr(r.out, "[converted]"))
		fail_msg("sframe stack of python3 converted: status %d, output:\n%s%s", r.status,
			 r.out, r.err);
	tu_result_free(&r);
}

/*
 * The static unwind fixtures of AArch64 (little-endian) and s390x
 * (big-endian), converted, run under qemu-user as they are: their C library
 * finds its TLS segment through AT_PHDR, the moved table. The program
 * samples itself for a while: the number of runs it prints varies.
 */
static void test_qemu_static(void **state)
{
	static const char *const arch[] = { "aarch64", "s390x" };
	char qemu[64], snap[600];
	size_t i, any = 0;

	(void)state;
	snprintf(snap, sizeof(snap), "%s/qemu.snap", tmpdir);
	for (i = 0; i < sizeof(arch) / sizeof(arch[0]); i++) {
		char name[64], *o;
		char *argv[] = { qemu, NULL, snap, NULL };
		int st;

		snprintf(qemu, sizeof(qemu), "/usr/bin/qemu-%s-static", arch[i]);
		if (!exists(qemu))
			continue;
		any++;
		snprintf(name, sizeof(name), "unwind/v3-%s/unwind", arch[i]);
		convert_elf(fx(name), tmp("qemu-static"), "--force");
		argv[1] = tmp("qemu-static");
		o = run_host(argv, NULL, NULL, &st);
		if (st != 0 || !strstr(o, "unwind: 2000 samples, ")) {
			char *stock;
			int st2;

			/* Only a failure where the program itself runs is the copy's. */
			argv[1] = fx(name);
			stock = run_host(argv, NULL, NULL, &st2);
			if (st2 == 0 && strstr(stock, "unwind: 2000 samples, "))
				fail_msg("%s converted, under qemu-%s: status %d, output:\n%s",
					 name, arch[i], st, o);
			free(stock);
			any--;
		}
		free(o);
	}
	if (!any)
		unavailable("qemu-aarch64-static and qemu-s390x-static");
}

/* ---- The readers ---------------------------------------------------------------- */

/* PCs of every function of @sec: its start, one byte in, its middle, its last byte. */
static char *function_pcs(const unsigned char *sec, size_t len, uint64_t addr)
{
	struct sframe_section s;
	struct sframe_buffer buf;
	struct sframe_fde fde;
	size_t cap, n = 0;
	char *out;
	uint32_t i;

	assert_int_equal(sframe_open_buffer(&s, &buf, sec, len, addr), 0);
	cap = (size_t)s.num_fdes * 4 * 24 + 64;
	out = malloc(cap);
	assert_non_null(out);
	for (i = 0; i < s.num_fdes; i++) {
		uint64_t sz;

		assert_int_equal(sframe_get_fde(&s, i, &fde), 0);
		sz = fde.func_size ? fde.func_size : 1;
		n += (size_t)snprintf(out + n, cap - n, "%" PRIx64 "\n%" PRIx64 "\n%" PRIx64 "\n%"
				      PRIx64 "\n", fde.func_start, fde.func_start + 1,
				      fde.func_start + sz / 2, fde.func_start + sz - 1);
	}
	n += (size_t)snprintf(out + n, cap - n, "0\n%" PRIx64 "\n", addr);
	return out;
}

/* sframe lookup FILE with @pcs on standard input. */
static char *lookup(const char *file, const char *pcs)
{
	char *argv[] = { (char *)tool, "lookup", (char *)file, NULL }, *in = tmp("pcs"), *out;
	size_t len;
	int status;

	write_all(in, pcs, strlen(pcs), 0600);
	out = tu_run(argv, in, 1, &len, &status);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("sframe lookup %s: status %d\n%s", file, status, out);
	return out;
}

/* dump, check and lookup answer on the copy as on the side-car. */
static void test_readers(void **state)
{
	static const char *const files[] = {
		"/bin/bash", "/lib/x86_64-linux-gnu/libc.so.6", NULL, NULL,
	};
	const char *list[4];
	size_t i, n = 0;

	(void)state;
	list[n++] = fx("unwind/v3-aarch64/unwind");
	list[n++] = fx("unwind/v3-s390x/unwind");
	for (i = 0; files[i]; i++)
		if (exists(files[i]))
			list[n++] = files[i];
	for (i = 0; i < n; i++) {
		struct tu_result r, s;
		unsigned char *out, *sec;
		struct peek_elf e;
		struct peek_shdr sh;
		size_t out_n;
		char *pcs, *a, *b;
		bool force = strstr(list[i], "unwind/") != NULL;

		convert_elf(list[i], tmp("reader"), force ? "--force" : NULL);
		run_tool(&r, "convert", list[i], "-o", tmp("reader.sidecar"), NOARG);
		tu_expect(&r, 0, NULL);
		tu_result_free(&r);

		run_tool(&r, "dump", tmp("reader"), NOARG);
		run_tool(&s, "dump", tmp("reader.sidecar"), NOARG);
		tu_expect(&r, 0, NULL);
		if (strcmp(r.out, s.out) != 0)
			fail_msg("%s: sframe dump of the copy and the side-car differ", list[i]);
		tu_result_free(&r);
		tu_result_free(&s);
		run_tool(&r, "check", tmp("reader"), NOARG);
		tu_expect(&r, 0, NULL);
		if (!strstr(r.out, ": valid ("))
			fail_msg("sframe check %s: %s", list[i], r.out);
		tu_result_free(&r);

		out = tu_read_all(tmp("reader"), &out_n);
		assert_true(peek_open(&e, out, out_n));
		assert_true(peek_section(&e, ".sframe", &sh));
		sec = out + sh.offset;
		pcs = function_pcs(sec, (size_t)sh.size, sh.addr);
		a = lookup(tmp("reader"), pcs);
		b = lookup(tmp("reader.sidecar"), pcs);
		if (strcmp(a, b) != 0)
			fail_msg("%s: sframe lookup of the copy and the side-car differ", list[i]);
		assert_true(strlen(a) > 0);
		free(a);
		free(b);
		free(pcs);
		free(out);
	}
}

/* ---- binutils and elfutils ---------------------------------------------------------- */

/* Every line of @prog's output (stdout and stderr) on @file, into @out, NUL-terminated. */
static char *tool_lines(const char *prog, const char *arg, const char *arg2, const char *file,
			int *status)
{
	char path[600];
	char *argv[] = { (char *)prog, (char *)arg, (char *)arg2, (char *)file, NULL }, *out;
	char *err;
	size_t len, elen;

	if (!arg2) {
		argv[2] = (char *)file;
		argv[3] = NULL;
	}
	snprintf(path, sizeof(path), "%s/host-stderr", tmpdir);
	out = run_host(argv, NULL, path, status);
	err = tu_read_file(path, &elen);
	assert_non_null(err);
	len = strlen(out);
	out = realloc(out, len + elen + 1);
	assert_non_null(out);
	memcpy(out + len, err, elen + 1);
	free(err);
	return out;
}

/* The absolute path of @prog in PATH, in @buf. */
static const char *which(const char *prog, char *buf, size_t len)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;

	if (!path)
		return NULL;
	copy = strdup(path);
	assert_non_null(copy);
	for (dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(buf, len, "%s/%s", dir, prog);
		if (access(buf, X_OK) == 0) {
			free(copy);
			return buf;
		}
	}
	free(copy);
	return NULL;
}

/* readelf -lW: the GNU_SFRAME segment lies inside a LOAD one. */
static void expect_readelf_sframe_in_load(const char *readelf, const char *file)
{
	char *out, *line, *save = NULL;
	uint64_t lo[64], hi[64], s_lo = 0, s_hi = 0;
	size_t n = 0, i;
	bool found = false;
	int st;

	out = tool_lines(readelf, "-lSW", NULL, file, &st);
	assert_int_equal(st, 0);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char type[32];
		uint64_t off, va, pa, fs, ms;

		if (sscanf(line, " %31s %" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64,
			   type, &off, &va, &pa, &fs, &ms) != 6)
			continue;
		if (strcmp(type, "LOAD") == 0 && n < 64) {
			lo[n] = va;
			hi[n++] = va + ms;
		} else if (strcmp(type, "GNU_SFRAME") == 0) {
			found = true;
			s_lo = va;
			s_hi = va + ms;
		}
	}
	if (!found)
		fail_msg("readelf -lW %s shows no GNU_SFRAME segment", file);
	for (i = 0; i < n; i++)
		if (lo[i] <= s_lo && s_hi <= hi[i])
			break;
	if (i == n)
		fail_msg("readelf -lW %s: GNU_SFRAME [0x%" PRIx64 ", 0x%" PRIx64 ") in no LOAD",
			 file, s_lo, s_hi);
	free(out);
}

/* readelf, eu-elflint, strip and objcopy on the copies. */
static void test_binutils(void **state)
{
	static const char *const files[] = {
		"/bin/bash", "/usr/bin/perl", "/lib/x86_64-linux-gnu/libc.so.6",
		"/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
	};
	char readelf[512], elflint[512], strip[512], objcopy[512];
	bool have_readelf, have_elflint, have_strip, have_objcopy;
	size_t i, any = 0;

	(void)state;
	have_readelf = which("readelf", readelf, sizeof(readelf)) != NULL;
	have_elflint = which("eu-elflint", elflint, sizeof(elflint)) != NULL;
	have_strip = which("strip", strip, sizeof(strip)) != NULL;
	have_objcopy = which("objcopy", objcopy, sizeof(objcopy)) != NULL;
	if (!have_readelf)
		unavailable("readelf");
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		const char *copy = tmp("bin.elf"), *stripped = tmp("bin.stripped"),
			   *copied = tmp("bin.objcopy");
		struct tu_result r;
		int st;

		if (!exists(files[i]))
			continue;
		any++;
		convert_elf(files[i], copy, NULL);
		expect_readelf_sframe_in_load(readelf, copy);

		/* Each is checked where it is there; CI has them all. */
		if ((!have_elflint || !have_strip || !have_objcopy) &&
		    getenv("SFRAME_TEST_REQUIRE_DWARF_FILES"))
			unavailable("eu-elflint, strip or objcopy");
		if (have_elflint) {
			char *a = tool_lines(elflint, "--gnu-ld", NULL, files[i], &st);
			char *b = tool_lines(elflint, "--gnu-ld", NULL, copy, &st), *line, *save = NULL;

			for (line = strtok_r(b, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save)) {
				/* What 0.188 says of every file with SFrame, binutils' own too. */
				if (strstr(line, "unknown program header entry type 0x6474e554") ||
				    (strstr(line, "'.sframe' has unsupported type 1879048180")) ||
				    strcmp(line, "No errors") == 0)
					continue;
				if (!strstr(a, line))
					fail_msg("eu-elflint --gnu-ld on the copy of %s: %s\n(on the "
						 "file itself:\n%s)", files[i], line, a);
			}
			free(a);
			free(b);
		}
		if (have_strip) {
			char *o = tool_lines(strip, "-o", stripped, copy, &st);

			if (st != 0)
				fail_msg("strip -o of the copy of %s: status %d\n%s", files[i], st, o);
			free(o);
			expect_readelf_sframe_in_load(readelf, stripped);
			run_tool(&r, "check", stripped, NOARG);
			tu_expect(&r, 0, NULL);
			assert_non_null(strstr(r.out, ": valid ("));
			tu_result_free(&r);
		}
		if (have_objcopy) {
			char *o = tool_lines(objcopy, copy, copied, NULL, &st);

			if (st != 0)
				fail_msg("objcopy of the copy of %s: status %d\n%s", files[i], st, o);
			free(o);
			expect_readelf_sframe_in_load(readelf, copied);
			run_tool(&r, "check", copied, NOARG);
			tu_expect(&r, 0, NULL);
			assert_non_null(strstr(r.out, ": valid ("));
			tu_result_free(&r);
		}
#if defined(__x86_64__)
		/* What they wrote still runs. */
		if (have_strip && strcmp(files[i], "/bin/bash") == 0) {
			char *argv[] = { (char *)stripped, "-c", "echo stripped $((2 + 3))", NULL };
			char *o = run_host(argv, NULL, NULL, &st);

			assert_string_equal(o, "stripped 5\n");
			assert_int_equal(st, 0);
			free(o);
			if (have_objcopy) {
				argv[0] = (char *)copied;
				o = run_host(argv, NULL, NULL, &st);
				assert_string_equal(o, "stripped 5\n");
				free(o);
			}
		}
#endif
	}
	if (!any)
		unavailable("bash, perl, libc.so.6 and ld.so");
}

/* ---- The manual ----------------------------------------------------------------- */

/* The example of sframe(1): its "output" and "segment" lines are the tool's. */
static void test_documented_example(void **state)
{
	char *text, *line, *save = NULL, *shown, *got;
	const char *first = "  output: unwind.elf (";
	size_t len, n = 0;
	struct tu_result r;
	bool in = false;

	(void)state;
	shown = calloc(1, 4096);
	assert_non_null(shown);
	text = tu_read_file(manpage, &len);
	assert_non_null(text);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char buf[1024];

		if (in && strcmp(line, ".fi") == 0)
			break;
		if (!doc_unroff(line, buf, sizeof(buf)))
			continue;
		if (!in && strncmp(buf, first, strlen(first)) == 0)
			in = true;
		if (in)
			n += (size_t)snprintf(shown + n, 4096 - n, "%s\n", buf);
	}
	free(text);
	if (!in)
		fail_msg("%s: no example starting with '%s'", manpage, first);
	/* Run where the manual runs it, so that the paths are the same. */
	assert_int_equal(chdir(tmpdir), 0);
	unlink("unwind");
	assert_int_equal(symlink(fx("unwind/v3-aarch64/unwind"), "unwind"), 0);
	run_tool(&r, "convert", "--elf", "--force", "unwind", "-o", "unwind.elf", NOARG);
	tu_expect(&r, 0, NULL);
	got = strstr(r.out, first);
	assert_non_null(got);
	if (strcmp(got, shown) != 0)
		fail_msg("the manual page shows:\n%sthe tool prints:\n%s", shown, got);
	tu_result_free(&r);
	free(shown);
}

/* ---- Main ----------------------------------------------------------------------- */

static int remove_tmpdir(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_copies),
		cmocka_unit_test(test_host_copies),
		cmocka_unit_test(test_compact_layout),
		cmocka_unit_test(test_in_place),
		cmocka_unit_test(test_force_replaces),
		cmocka_unit_test(test_mode),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_programs_run),
		cmocka_unit_test(test_libc_and_ldso),
		cmocka_unit_test(test_stack_through_copies),
		cmocka_unit_test(test_qemu_static),
		cmocka_unit_test(test_readers),
		cmocka_unit_test(test_binutils),
		cmocka_unit_test(test_documented_example),
	};
	const char *t = getenv("TMPDIR");

	if (argc != 4) {
		fprintf(stderr, "usage: %s SFRAME_TOOL FIXTURES_DIR MANPAGE\n", argv[0]);
		return 2;
	}
	/* Absolute: test_documented_example() runs the tool from the temporary directory. */
	tool = realpath(argv[1], NULL);
	fixtures = realpath(argv[2], NULL);
	manpage = argv[3];
	if (!tool || !fixtures) {
		perror("realpath");
		return 2;
	}
	snprintf(tmpdir, sizeof(tmpdir), "%s/sframe-test-convert-elf-XXXXXX",
		 t && *t ? t : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, remove_tmpdir);
}
