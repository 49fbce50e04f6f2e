/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_core_file.c - the core file reader (src/tool/read/core_file.c) and
 * "sframe stack --core" (src/tool/cmd/cmd_core.c).
 *
 *   test_core_file files SFRAME_TOOL FIXTURES_DIR
 *   test_core_file gcore SFRAME_TOOL FIXTURES_DIR STACK_CHILD SKIP_REASON
 *
 * files: the cores of fixtures/core/ (aarch64, little-endian; s390x,
 * big-endian; written by qemu-user, see fixtures/core/README.md): every
 * thread, register, the command name and the auxiliary vector as
 * eu-readelf -n read them (core.notes), and the frames of
 * "sframe stack --core" as gdb's bt gave them (core.gdb). Then copies
 * corrupted on purpose (truncated, a note past its segment, overlapping
 * segments, a program header table past the end, not a core, another
 * machine): each a clean error naming the offset at fault.
 *
 * gcore: tests/stack_child.c, stopped (SIGSTOP) with its threads at known
 * depths, is read by "sframe stack PID", then dumped by gdb's gcore: the
 * reader must read what eu-readelf -n reads in that core (threads,
 * registers, NT_FILE, NT_AUXV) and what gdb reads of its memory, and
 * "sframe stack --core" must print what the live command printed, line for
 * line but the first ("PID N - core"). Mapped files that are not the ones
 * the core mapped (--exe of another program) or are missing (--sysroot of
 * an empty folder) are named, and the walk stops at them. A corrupt
 * NT_FILE (a count that overflows, an unterminated name) is a clean error.
 * Exits 77 (skipped), saying why, when SKIP_REASON is set (no SFrame
 * compiler, a cross build, a sanitizer build: gcore would dump the child's
 * shadow memory, tens of GB), or gdb's gcore or eu-readelf are not
 * installed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <elf.h>
#include <errno.h>
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

#include "read/core_file.h"
#include "read/elf_input.h"
#include "tool_run.h"

#ifndef NT_FILE
#define NT_FILE 0x46494c45
#endif

static const char *tool, *fixtures, *child_path;
static char tmpdir[256];

/* ---- Helpers --------------------------------------------------------------------- */

static char *path_in(const char *dir, const char *a, const char *b)
{
	static char bufs[8][1024];
	static unsigned int next;
	char *p = bufs[next++ % 8];

	snprintf(p, sizeof(bufs[0]), "%s/%s%s%s", dir, a, b ? "/" : "", b ? b : "");
	return p;
}

/* Run argv (NULL-terminated), through SFRAME_TEST_WRAPPER when set; its result in @r. */
static void run(struct tu_result *r, const char *first, ...)
{
	char *argv[16];
	size_t n = 0;
	va_list ap;

	argv[n++] = (char *)first;
	va_start(ap, first);
	while (n < 15 && (argv[n] = va_arg(ap, char *)) != NULL)
		n++;
	va_end(ap);
	argv[n] = NULL;
	tu_run_both(argv, NULL, r);
}

/*
 * The standard output of the shell command @cmd, a program of this host
 * (gcore, gdb, eu-readelf: never through SFRAME_TEST_WRAPPER); allocated.
 * *@status: its exit status.
 */
static char *host_output(const char *cmd, int *status)
{
	size_t cap = 65536, n = 0, k;
	char *out = malloc(cap);
	FILE *f = popen(cmd, "r");
	int st;

	assert_non_null(out);
	assert_non_null(f);
	while ((k = fread(out + n, 1, cap - 1 - n, f)) > 0) {
		n += k;
		if (n == cap - 1) {
			cap *= 2;
			out = realloc(out, cap);
			assert_non_null(out);
		}
	}
	out[n] = '\0';
	st = pclose(f);
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return out;
}

static bool on_path(const char *prog)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", prog);
	return system(cmd) == 0;
}

/*
 * The block of eu-readelf -n's output for the @n-th note (from 0) of type
 * @type ("PRSTATUS"): from its header line ("  CORE   336  PRSTATUS") to
 * the next header. Allocated; NULL when there is no such note.
 */
static char *note_block(const char *text, const char *type, unsigned int n)
{
	const char *line = text, *start = NULL;

	while (*line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		bool header = len > 3 && line[0] == ' ' && line[1] == ' ' && line[2] != ' ';

		if (header && start)
			return strndup(start, (size_t)(line - start));
		if (header && len >= strlen(type) &&
		    strncmp(line + len - strlen(type), type, strlen(type)) == 0 &&
		    line[len - strlen(type) - 1] == ' ' && n-- == 0)
			start = line;
		line += len + (end ? 1 : 0);
	}
	return start ? strdup(start) : NULL;
}

/* eu-readelf's "NAME: VALUE" in @block (decimal, maybe negative, or 0x hex). */
static bool field(const char *block, const char *name, uint64_t *v)
{
	size_t len = strlen(name);
	const char *p;

	for (p = strstr(block, name); p; p = strstr(p + 1, name)) {
		if ((p == block || p[-1] == ' ' || p[-1] == '\n') && p[len] == ':') {
			char *end;

			errno = 0;
			*v = strtoull(p + len + 1, &end, 0);
			return errno == 0 && end != p + len + 1;
		}
	}
	return false;
}

static uint64_t must_field(const char *block, const char *name)
{
	uint64_t v = 0;

	if (!field(block, name, &v))
		fail_msg("eu-readelf gives no '%s' in:\n%s", name, block);
	return v;
}

/*
 * The general registers by DWARF number, named as eu-readelf names them
 * (the psABIs' numbering: x86-64 rax rdx rcx rbx rsi rdi rbp rsp r8-r15,
 * then rip as the return address column; AArch64 x0-x30, sp; s390x r0-r15),
 * and the names of PC, SP, FP and the link register.
 */
struct reg_names {
	uint16_t machine;
	const char *dwarf[32];
	unsigned int ndwarf;
	const char *pc, *sp, *fp, *ra;
};

static const struct reg_names reg_names[] = {
	{ EM_X86_64,
	  { "rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11",
	    "r12", "r13", "r14", "r15", "rip" },
	  17, "rip", "rsp", "rbp", NULL },
	{ EM_AARCH64,
	  { "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12",
	    "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23", "x24",
	    "x25", "x26", "x27", "x28", "x29", "x30", "sp" },
	  32, "pc", "sp", "x29", "x30" },
	{ EM_S390,
	  { "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12",
	    "r13", "r14", "r15" },
	  16, "pswa", "r15", "r11", "r14" },
};

/* Threads, registers, command and auxiliary vector of @c against eu-readelf -n's @notes. */
static void expect_notes(const struct sf_core *c, const char *notes)
{
	const struct reg_names *rn = NULL;
	char *b, fname[32];
	const char *p;
	uint64_t v;
	size_t i, k;

	for (i = 0; i < sizeof(reg_names) / sizeof(reg_names[0]); i++)
		if (reg_names[i].machine == c->machine)
			rn = &reg_names[i];
	assert_non_null(rn);
	for (i = 0; (b = note_block(notes, "PRSTATUS", (unsigned int)i)) != NULL; i++) {
		const struct sf_core_thread *t = &c->threads[i];

		assert_true(i < c->nthreads);
		assert_int_equal(t->tid, (int32_t)must_field(b, "pid"));
		assert_int_equal(t->signo, (int)must_field(b, "cursig"));
		assert_int_equal(t->regs.ndwarf, rn->ndwarf);
		for (k = 0; k < rn->ndwarf; k++)
			if (t->regs.dwarf[k] != must_field(b, rn->dwarf[k]))
				fail_msg("thread %zu: DWARF register %zu (%s) is 0x%" PRIx64
					 ", eu-readelf reads 0x%" PRIx64, i, k, rn->dwarf[k],
					 t->regs.dwarf[k], must_field(b, rn->dwarf[k]));
		assert_true(t->regs.regs.pc == must_field(b, rn->pc));
		assert_true(t->regs.regs.sp == must_field(b, rn->sp));
		assert_true(t->regs.regs.fp == must_field(b, rn->fp));
		if (rn->ra)
			assert_true(t->regs.regs.ra == must_field(b, rn->ra));
		free(b);
	}
	assert_int_equal(i, c->nthreads);
	b = note_block(notes, "PRPSINFO", 0);
	assert_non_null(b);
	assert_true(c->has_psinfo);
	assert_int_equal(c->pid, (int32_t)must_field(b, "pid"));
	p = strstr(b, "fname: ");
	assert_non_null(p);
	snprintf(fname, sizeof(fname), "%.*s", (int)strcspn(p + 7, ",\n"), p + 7);
	assert_string_equal(c->fname, fname);
	free(b);
	b = note_block(notes, "AUXV", 0);
	assert_non_null(b);
	assert_true(sf_core_auxv(c, AT_PHDR, &v));
	assert_true(v == must_field(b, "PHDR"));
	assert_true(sf_core_auxv(c, AT_PAGESZ, &v));
	assert_true(v == must_field(b, "PAGESZ"));
	free(b);
}

/* ---- Parsing the tool's and gdb's frames ------------------------------------------ */

struct frame {
	unsigned int idx;
	uint64_t pc;
	char sym[128];
};

/* The frames of the first thread of "sframe stack" output: "#N  0xPC SYM+0xOFF - ...". */
static unsigned int tool_frames(const char *out, struct frame *f, unsigned int max)
{
	unsigned int n = 0;
	const char *line;

	for (line = out; line && *line && n < max; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (strncmp(line, "TID ", 4) == 0 && n)
			break;
		if (line[0] != '#' ||
		    sscanf(line, "#%u 0x%" SCNx64 " %127[^+ \n]", &f[n].idx, &f[n].pc, f[n].sym) != 3)
			continue;
		n++;
	}
	return n;
}

/* gdb's bt: "#N  0xPC in SYM ()"; the last backtrace printed (gdb shows #0 first on load). */
static unsigned int gdb_frames(const char *out, struct frame *f, unsigned int max)
{
	unsigned int n = 0;
	const char *line;

	for (line = out; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		struct frame g;

		if (line[0] != '#' ||
		    sscanf(line, "#%u 0x%" SCNx64 " in %127[^ (\n]", &g.idx, &g.pc, g.sym) != 3)
			continue;
		if (g.idx == 0)
			n = 0;
		if (n < max && g.idx == n)
			f[n++] = g;
	}
	return n;
}

/* ---- The fixtures ------------------------------------------------------------------- */

static void test_fixture(const char *arch, uint16_t machine, bool be)
{
	char *core = strdup(path_in(fixtures, "core", arch)), *notes, *gdb_text, err[512];
	struct frame mine[64], gdb[64];
	unsigned int nm, ng, i;
	struct tu_result r;
	struct sf_core c;
	size_t len;

	notes = tu_read_file(path_in(core, "core.notes", NULL), &len);
	gdb_text = tu_read_file(path_in(core, "core.gdb", NULL), &len);
	assert_non_null(notes);
	assert_non_null(gdb_text);
	if (sf_core_open(path_in(core, "core", NULL), &c, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(c.machine, machine);
	assert_int_equal(c.be, be);
	expect_notes(&c, notes);
	/* qemu-user writes no NT_FILE. */
	assert_int_equal(c.nmaps, 0);
	sf_core_free(&c);

	run(&r, tool, "stack", "--core", path_in(core, "core", NULL), "--exe",
	    path_in(core, "core_crash", NULL), (char *)NULL);
	if (r.status != 0)
		fail_msg("exit %d: %s", r.status, r.err);
	nm = tool_frames(r.out, mine, 64);
	ng = gdb_frames(gdb_text, gdb, 64);
	/* main -> crash_level1 -> crash_level2 -> crash_level3, as gdb read them. */
	assert_int_equal(ng, 4);
	assert_true(nm >= ng);
	for (i = 0; i < ng; i++) {
		if (mine[i].pc != gdb[i].pc || strcmp(mine[i].sym, gdb[i].sym) != 0)
			fail_msg("frame %u: 0x%" PRIx64 " %s, gdb: 0x%" PRIx64 " %s\n%s", i, mine[i].pc,
				 mine[i].sym, gdb[i].pc, gdb[i].sym, r.out);
	}
	assert_true(strncmp(r.out, "PID ", 4) == 0 && strstr(r.out, " - core\n"));
	tu_result_free(&r);
	free(notes);
	free(gdb_text);
	free(core);
}

static void test_fixture_aarch64(void **state)
{
	(void)state;
	test_fixture("aarch64", EM_AARCH64, false);
}

static void test_fixture_s390x(void **state)
{
	(void)state;
	test_fixture("s390x", EM_S390, true);
}

/* ---- Corrupt cores ---------------------------------------------------------------- */

static void put(unsigned char *p, unsigned int width, bool be, uint64_t v)
{
	unsigned int i;

	for (i = 0; i < width; i++)
		p[be ? width - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/* A copy of the s390x fixture core (big-endian: the byte order is taken from the file). */
static unsigned char *fixture_copy(size_t *size, struct sf_elf_phdrs *ph)
{
	unsigned char *b = (unsigned char *)tu_read_file(path_in(fixtures, "core", "s390x/core"),
							 size);
	char err[256];

	assert_non_null(b);
	assert_int_equal(sf_elf_phdrs_read(b, *size, ph, err, sizeof(err)), 0);
	return b;
}

/* Opening @b fails as corrupt, with a message holding each of the NULL-terminated strings. */
static void expect_corrupt(const unsigned char *b, size_t size, ...)
{
	struct sf_core c;
	char err[512];
	const char *want;
	va_list ap;
	int r;

	err[0] = '\0';
	r = sf_core_open_bytes(b, size, &c, err, sizeof(err));
	sf_core_free(&c);
	if (r != SF_CORE_EFORMAT)
		fail_msg("open gave %d (expected SF_CORE_EFORMAT): %s", r, err);
	va_start(ap, size);
	while ((want = va_arg(ap, const char *)) != NULL)
		if (!strstr(err, want))
			fail_msg("'%s' is not in the message: %s", want, err);
	va_end(ap);
}

/* Index of the @n-th program header of type @type. */
static uint64_t nth_segment(const unsigned char *b, const struct sf_elf_phdrs *ph, uint32_t type,
			    unsigned int n, struct sf_elf_segment *s)
{
	uint64_t i;

	for (i = 0; i < ph->phnum; i++) {
		sf_elf_segment_get(b, ph, i, s);
		if (s->type == type && n-- == 0)
			return i;
	}
	fail_msg("no segment %u of type %u", n, type);
	return 0;
}

static void test_truncated(void **state)
{
	struct sf_elf_segment s;
	struct sf_elf_phdrs ph;
	unsigned char *b;
	char at[64];
	size_t size;
	uint64_t i, last = 0, end = 0;

	(void)state;
	b = fixture_copy(&size, &ph);
	/* The segment whose bytes end last is the one cut. */
	for (i = 0; i < ph.phnum; i++) {
		sf_elf_segment_get(b, &ph, i, &s);
		if (s.type == PT_LOAD && s.filesz && s.offset + s.filesz > end) {
			end = s.offset + s.filesz;
			last = i;
		}
	}
	assert_true(end == size);
	sf_elf_segment_get(b, &ph, last, &s);
	snprintf(at, sizeof(at), "PT_LOAD at offset 0x%" PRIx64, ph.phoff + last * ph.phentsize);
	expect_corrupt(b, (size_t)(s.offset + s.filesz / 2), at, "truncated core", (char *)NULL);
	/* Cut inside the program header table. */
	expect_corrupt(b, (size_t)(ph.phoff + 8), "program header table at offset 0x40",
		       (char *)NULL);
	/* Cut inside the ELF header. */
	expect_corrupt(b, 20, "truncated ELF header", (char *)NULL);
	free(b);
}

static void test_note_past_end(void **state)
{
	struct sf_elf_segment s;
	struct sf_elf_phdrs ph;
	unsigned char *b;
	char at[64];
	size_t size;

	(void)state;
	b = fixture_copy(&size, &ph);
	nth_segment(b, &ph, PT_NOTE, 0, &s);
	/* The first note's descriptor size (n_descsz, after n_namesz). */
	put(b + s.offset + 4, 4, ph.be, 0x7ffffff0);
	snprintf(at, sizeof(at), "note at offset 0x%" PRIx64 " runs past the end", s.offset);
	expect_corrupt(b, size, at, (char *)NULL);
	free(b);

	b = fixture_copy(&size, &ph);
	nth_segment(b, &ph, PT_NOTE, 0, &s);
	/* The notes' segment itself past the end of the file. */
	put(b + ph.phoff + 32, 8, ph.be, (uint64_t)size);	/* p_filesz of the first phdr */
	assert_int_equal(nth_segment(b, &ph, PT_NOTE, 0, &s), 0);
	expect_corrupt(b, size, "PT_NOTE at offset 0x40", "run past the end of the file",
		       (char *)NULL);
	free(b);
}

static void test_overlap(void **state)
{
	struct sf_elf_segment s0, s1;
	struct sf_elf_phdrs ph;
	unsigned char *b;
	size_t size;
	uint64_t i1;

	(void)state;
	b = fixture_copy(&size, &ph);
	nth_segment(b, &ph, PT_LOAD, 0, &s0);
	i1 = nth_segment(b, &ph, PT_LOAD, 1, &s1);
	assert_true(s0.memsz > 0x10);
	/* p_vpc (offset 16 in a 64-bit program header) inside the first segment. */
	put(b + ph.phoff + i1 * ph.phentsize + 16, 8, ph.be, s0.vaddr + 0x10);
	expect_corrupt(b, size, "PT_LOAD segments overlap", (char *)NULL);
	/* A segment that wraps around the address space. */
	put(b + ph.phoff + i1 * ph.phentsize + 16, 8, ph.be, UINT64_MAX - 0x10);
	expect_corrupt(b, size, "wraps around the address space", (char *)NULL);
	free(b);
}

static void test_not_a_core(void **state)
{
	struct sf_elf_phdrs ph;
	unsigned char *b;
	size_t size;

	(void)state;
	/* The fixture's program: ET_EXEC. */
	b = (unsigned char *)tu_read_file(path_in(fixtures, "core", "s390x/core_crash"), &size);
	assert_non_null(b);
	expect_corrupt(b, size, "not a core file (ELF type 2)", (char *)NULL);
	free(b);
	expect_corrupt((const unsigned char *)"hello, world\n", 13, "not an ELF file",
		       (char *)NULL);
	/* A core of another machine (e_machine, offset 18: EM_386). */
	b = fixture_copy(&size, &ph);
	put(b + 18, 2, ph.be, EM_386);
	expect_corrupt(b, size, "a core of", "not supported", (char *)NULL);
	free(b);
}

/* The tool on a corrupt core: exit 1 (bad content), the reader's message. */
static void test_cli_corrupt(void **state)
{
	struct sf_elf_phdrs ph;
	struct tu_result r;
	unsigned char *b;
	size_t size;
	char *path = path_in(tmpdir, "truncated.core", NULL);
	FILE *f;

	(void)state;
	b = fixture_copy(&size, &ph);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, size / 2, f), size / 2);
	assert_int_equal(fclose(f), 0);
	free(b);
	run(&r, tool, "stack", "--core", path, (char *)NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "truncated core"));
	assert_string_equal(r.out, "");
	tu_result_free(&r);
	/* A core that cannot be read: exit 2. */
	run(&r, tool, "stack", "--core", path_in(tmpdir, "missing.core", NULL), (char *)NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "No such file"));
	tu_result_free(&r);
	/* Options of --core alone, and PID and --core together: usage errors. */
	run(&r, tool, "stack", "--exe", path, "1", (char *)NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--exe needs --core"));
	tu_result_free(&r);
	run(&r, tool, "stack", "1", "--core", path, (char *)NULL);
	assert_int_equal(r.status, 2);
	tu_result_free(&r);
	run(&r, tool, "stack", "--core", (char *)NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "needs a value"));
	tu_result_free(&r);
}

/* ---- gcore of a live process ---------------------------------------------------------- */

static pid_t child_pid;
static char *live_out, *core_path;

static int stop_child(void **state)
{
	(void)state;
	if (child_pid > 0) {
		kill(child_pid, SIGKILL);
		waitpid(child_pid, NULL, 0);
	}
	child_pid = 0;
	return 0;
}

/*
 * Is frame #0 of thread @pid (the main thread) in level3? Its callers say
 * nothing: a walk through the C library (converted) shows level3 above a
 * write() too.
 */
static bool main_in_level3(const char *out, const char *pid)
{
	char head[64];
	const char *p, *eol;

	snprintf(head, sizeof(head), "TID %s:\n#0  ", pid);
	p = strstr(out, head);
	if (!p)
		return false;
	eol = strchr(p + strlen(head), '\n');
	p = strstr(p + strlen(head), " level3+0x");
	return p && (!eol || p < eol);
}

/*
 * stack_child threads, stopped once it spins (SIGSTOP: its registers stay
 * put), read by the live command, then dumped by gcore into @core_path.
 */
static int make_core(void **state)
{
	char line[64], pid[32], cmd[400], *text;
	struct tu_result r;
	int p[2], status, tries;
	ssize_t n;

	(void)state;
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	child_pid = fork();
	assert_true(child_pid >= 0);
	if (child_pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		execl(child_path, child_path, "threads", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	n = read(p[0], line, sizeof(line) - 1);
	close(p[0]);
	assert_true(n > 0);
	line[n] = '\0';
	assert_non_null(strstr(line, "ready"));
	snprintf(pid, sizeof(pid), "%ld", (long)child_pid);
	/*
	 * The main thread writes "ready" from level3 and may still be in
	 * write() (libc, without SFrame) when stopped: let it run on until it
	 * is stopped back in level3's loop.
	 */
	for (tries = 0;; tries++) {
		assert_int_equal(kill(child_pid, SIGSTOP), 0);
		assert_int_equal(waitpid(child_pid, &status, WUNTRACED), child_pid);
		assert_true(WIFSTOPPED(status));
		run(&r, tool, "stack", pid, (char *)NULL);
		if (r.status == 2 && strstr(r.err, "not permitted")) {
			printf("SKIP: ptrace is not permitted here: %s", r.err);
			tu_result_free(&r);
			stop_child(NULL);
			exit(77);
		}
		assert_int_equal(r.status, 0);
		if (main_in_level3(r.out, pid))
			break;
		if (tries == 100)
			fail_msg("the child's main thread never stopped in level3:\n%s", r.out);
		tu_result_free(&r);
		assert_int_equal(kill(child_pid, SIGCONT), 0);
		usleep(10000);
	}
	live_out = r.out;
	free(r.err);
	/*
	 * At most 1 GiB (ulimit -f counts 512-byte blocks in sh, 1 KiB ones in
	 * bash): a core of the child is a few MB, and a runaway one must fail
	 * the test, not fill the disk.
	 */
	snprintf(cmd, sizeof(cmd), "ulimit -f 2097152 && gcore -o '%s/child' %s 2>&1", tmpdir,
		 pid);
	text = host_output(cmd, &status);
	if (status != 0)
		fail_msg("%s: exit %d\n%s", cmd, status, text);
	free(text);
	/* gcore -o PREFIX writes PREFIX.PID. */
	core_path = strdup(path_in(tmpdir, "child.", NULL));
	assert_non_null(core_path);
	core_path = realloc(core_path, strlen(core_path) + strlen(pid) + 1);
	assert_non_null(core_path);
	strcat(core_path, pid);
	return stop_child(NULL);
}

static int free_core(void **state)
{
	(void)state;
	free(live_out);
	free(core_path);
	return 0;
}

/*
 * Standard error names the files converted for the walk (the C library,
 * which has no SFrame on Debian 12; the program's _start, which its own
 * section lacks) and nothing else.
 */
static void expect_only_conversions(const char *err)
{
	const char *line = err, *end;

	for (; *line; line = end + 1) {
		end = strchr(line, '\n');
		assert_non_null(end);
		if (strncmp(line, "sframe: stack: ", 15) != 0 ||
		    (!memmem(line, (size_t)(end - line), ": converted .eh_frame: ", 23) &&
		     !memmem(line, (size_t)(end - line),
			     "stack_child: its .sframe lacks 1 function the walks reached: "
			     "converted from .eh_frame", 85)))
			fail_msg("unexpected on standard error: %.*s", (int)(end - line), line);
	}
}

/* The same frames as the live command, the first line aside. */
static void test_gcore_output(void **state)
{
	struct tu_result r;
	const char *live_rest, *core_rest;

	(void)state;
	run(&r, tool, "stack", "--core", core_path, (char *)NULL);
	if (r.status != 0)
		fail_msg("exit %d: %s", r.status, r.err);
	assert_true(strncmp(r.out, "PID ", 4) == 0);
	live_rest = strchr(live_out, '\n');
	core_rest = strchr(r.out, '\n');
	assert_non_null(live_rest);
	assert_non_null(core_rest);
	{
		char want[64];

		snprintf(want, sizeof(want), "PID %ld - core\n", strtol(live_out + 4, NULL, 10));
		assert_true(strncmp(r.out, want, strlen(want)) == 0);
	}
	if (strcmp(live_rest, core_rest) != 0)
		fail_msg("live:\n%s\ncore:\n%s", live_out, r.out);
	/* The main thread's chain, as tests/stack_child.c spins. */
	assert_non_null(strstr(r.out, " level3+0x"));
	assert_non_null(strstr(r.out, " thread_level2+0x"));
	expect_only_conversions(r.err);
	tu_result_free(&r);
}

/* eu-readelf's NT_FILE lines: "START-END OFFSET SIZE PATH", against @c's mappings. */
static void expect_file_note(const struct sf_core *c, const char *notes)
{
	char *b = note_block(notes, "FILE", 0);
	const char *line;
	size_t n = 0;

	assert_non_null(b);
	for (line = strchr(b, '\n'); line; line = strchr(line + 1, '\n')) {
		uint64_t start, end, off, size;
		char path[512];

		if (sscanf(line + 1, " %" SCNx64 "-%" SCNx64 " %" SCNx64 " %" SCNu64 " %511s", &start,
			   &end, &off, &size, path) != 5)
			continue;
		assert_true(n < c->nmaps);
		assert_true(c->maps[n].start == start);
		assert_true(c->maps[n].end == end);
		assert_true(c->maps[n].offset == off);
		assert_string_equal(c->maps[n].name, path);
		n++;
	}
	assert_true(n > 0);
	assert_int_equal(n, c->nmaps);
	free(b);
}

/* The 8-byte words gdb's "x/Ngx ADDR" prints. */
static unsigned int gdb_words(const char *out, uint64_t *w, unsigned int max)
{
	unsigned int n = 0;
	const char *p = out;

	while (n < max && (p = strstr(p, ":\t")) != NULL) {
		char *end;

		p += 2;
		/* Up to the line's end (strtoull() would skip the newline). */
		while (*p && *p != '\n' && n < max) {
			uint64_t v = strtoull(p, &end, 16);

			if (end == p)
				break;
			w[n++] = v;
			p = end;
			while (*p == '\t' || *p == ' ')
				p++;
		}
	}
	return n;
}

static void test_gcore_reader(void **state)
{
	uint64_t words[4], mine[4], pc, vdso;
	const unsigned char *p;
	struct sf_input exe;
	struct sf_core c;
	char err[512], cmd[1200], *text, *b;
	size_t i;
	int status;

	(void)state;
	snprintf(cmd, sizeof(cmd), "eu-readelf -n '%s'", core_path);
	text = host_output(cmd, &status);
	assert_int_equal(status, 0);
	if (sf_core_open(core_path, &c, err, sizeof(err)))
		fail_msg("%s", err);
	expect_notes(&c, text);
	expect_file_note(&c, text);
	/* The vDSO's address, where "sframe stack --core" reads it from. */
	b = note_block(text, "AUXV", 0);
	assert_non_null(b);
	assert_true(sf_core_auxv(&c, AT_SYSINFO_EHDR, &vdso));
	assert_true(vdso == must_field(b, "SYSINFO_EHDR"));
	free(b);
	free(text);

	/* The stack, as gdb reads it. */
	snprintf(cmd, sizeof(cmd), "gdb -batch -nx -ex 'x/4gx 0x%" PRIx64 "' '%s' '%s' 2>/dev/null",
		 c.threads[0].regs.regs.sp, child_path, core_path);
	text = host_output(cmd, &status);
	assert_int_equal(gdb_words(text, words, 4), 4);
	assert_int_equal(sf_core_read(&c, c.threads[0].regs.regs.sp, mine, sizeof(mine)), 0);
	for (i = 0; i < 4; i++)
		assert_true(mine[i] == words[i]);
	free(text);

	/*
	 * Code: gcore leaves the text of mapped files out; it is read from the
	 * file once the caller lends it (gdb reads it from the file too).
	 */
	pc = c.threads[0].regs.regs.pc;
	assert_int_equal(sf_core_dumped(&c, pc, &p), 0);
	assert_int_equal(sf_core_read(&c, pc, mine, 8), -EFAULT);
	assert_int_equal(sf_input_bytes(child_path, &exe, err, sizeof(err)), SF_INPUT_OK);
	for (i = 0; i < c.nmaps; i++) {
		if (strstr(c.maps[i].name, "stack_child")) {
			c.maps[i].file = exe.file;
			c.maps[i].file_size = exe.file_size;
		}
	}
	snprintf(cmd, sizeof(cmd), "gdb -batch -nx -ex 'x/1gx 0x%" PRIx64 "' '%s' '%s' 2>/dev/null",
		 pc, child_path, core_path);
	text = host_output(cmd, &status);
	assert_int_equal(gdb_words(text, words, 1), 1);
	assert_int_equal(sf_core_read(&c, pc, mine, 8), 0);
	assert_true(mine[0] == words[0]);
	free(text);
	/* The vDSO's ELF header, in the core's memory, as gdb reads it. */
	snprintf(cmd, sizeof(cmd), "gdb -batch -nx -ex 'x/2gx 0x%" PRIx64 "' '%s' '%s' 2>/dev/null",
		 vdso, child_path, core_path);
	text = host_output(cmd, &status);
	assert_int_equal(gdb_words(text, words, 2), 2);
	assert_int_equal(sf_core_read(&c, vdso, mine, 16), 0);
	assert_true(mine[0] == words[0] && mine[1] == words[1]);
	assert_memory_equal(mine, "\177ELF", 4);
	free(text);
	/* Outside every segment and mapping: the read fails, not the core. */
	assert_int_equal(sf_core_read(&c, 8, mine, 8), -EFAULT);
	sf_input_free(&exe);
	sf_core_free(&c);
}

/* The NT_FILE note of a gcore'd core: its descriptor's offset in @b and its size. */
static uint64_t file_note(unsigned char *b, size_t size, uint32_t *descsz)
{
	struct sf_elf_phdrs ph;
	struct sf_elf_segment s;
	struct sf_elf_note n;
	char err[256];
	uint64_t i, pos;

	assert_int_equal(sf_elf_phdrs_read(b, size, &ph, err, sizeof(err)), 0);
	for (i = 0; i < ph.phnum; i++) {
		sf_elf_segment_get(b, &ph, i, &s);
		if (s.type != PT_NOTE)
			continue;
		pos = 0;
		while (sf_elf_note_next(b + s.offset, (size_t)s.filesz, 4, ph.be, &pos, &n) == 1) {
			if (n.type == NT_FILE) {
				*descsz = n.descsz;
				return (uint64_t)(n.desc - b);
			}
		}
	}
	fail_msg("no NT_FILE note");
	return 0;
}

static void test_gcore_corrupt_file_note(void **state)
{
	unsigned char *b;
	uint32_t descsz;
	size_t size;
	uint64_t at;

	(void)state;
	b = (unsigned char *)tu_read_file(core_path, &size);
	assert_non_null(b);
	at = file_note(b, size, &descsz);
	/* A count whose entries (24 bytes each) would wrap around 64 bits. */
	put(b + at, 8, false, UINT64_C(0xaaaaaaaaaaaaaab));
	expect_corrupt(b, size, "NT_FILE note at offset", "mappings do not fit", (char *)NULL);
	free(b);
	b = (unsigned char *)tu_read_file(core_path, &size);
	at = file_note(b, size, &descsz);
	/* The last name's NUL, the note's last byte. */
	assert_int_equal(b[at + descsz - 1], 0);
	b[at + descsz - 1] = 'x';
	expect_corrupt(b, size, "runs past the note's end", (char *)NULL);
	free(b);
	b = (unsigned char *)tu_read_file(core_path, &size);
	at = file_note(b, size, &descsz);
	put(b + at + 8, 8, false, 4095);	/* the page size */
	expect_corrupt(b, size, "page size 4095 is not a power of two", (char *)NULL);
	free(b);
}

/* Files that are not the ones the core mapped, or missing: named, and the walk stops there. */
static void test_gcore_other_files(void **state)
{
	struct tu_result r;
	char *empty = path_in(tmpdir, "empty-root", NULL);

	(void)state;
	/* Another program as the main executable: its build id is not the core's. */
	run(&r, tool, "stack", "--core", core_path, "--exe",
	    path_in(fixtures, "core", "aarch64/core_crash"), (char *)NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "stack_child: not used: "));
	assert_non_null(strstr(r.err, "is not the file the core mapped (build id "));
	assert_non_null(strstr(r.out, "\nstop: no SFrame for 0x"));
	assert_non_null(strstr(r.out, "is not the file the core mapped"));
	assert_null(strstr(r.out, "level3"));
	tu_result_free(&r);
	/* A sysroot that holds none of the files. */
	assert_true(mkdir(empty, 0700) == 0 || errno == EEXIST);
	run(&r, tool, "stack", "--core", core_path, "--sysroot", empty, (char *)NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "libc.so.6: not used: "));
	assert_non_null(strstr(r.err, "No such file or directory"));
	assert_non_null(strstr(r.out, "\nstop: no SFrame for 0x"));
	tu_result_free(&r);
}

/* ---- main ------------------------------------------------------------------------------ */

static void remove_tmpdir(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest file_tests[] = {
		cmocka_unit_test(test_fixture_aarch64),
		cmocka_unit_test(test_fixture_s390x),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_note_past_end),
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_not_a_core),
		cmocka_unit_test(test_cli_corrupt),
	};
	const struct CMUnitTest gcore_tests[] = {
		cmocka_unit_test(test_gcore_output),
		cmocka_unit_test(test_gcore_reader),
		cmocka_unit_test(test_gcore_corrupt_file_note),
		cmocka_unit_test(test_gcore_other_files),
	};
	int r;

	if (argc < 4 || (strcmp(argv[1], "gcore") == 0 && argc < 6)) {
		fprintf(stderr, "usage: test_core_file files|gcore SFRAME_TOOL FIXTURES_DIR "
			"[STACK_CHILD SKIP_REASON]\n");
		return 2;
	}
	tool = argv[2];
	fixtures = argv[3];
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/sframe-test-core-XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 2;
	}
	atexit(remove_tmpdir);
	if (strcmp(argv[1], "files") == 0)
		return cmocka_run_group_tests(file_tests, NULL, NULL);
	child_path = argv[4];
	if (argv[5][0]) {
		printf("SKIP: %s\n", argv[5]);
		return 77;
	}
	if (!on_path("gcore") || !on_path("gdb")) {
		printf("SKIP: gdb's gcore is not installed (apt-get install gdb)\n");
		return 77;
	}
	if (!on_path("eu-readelf")) {
		printf("SKIP: eu-readelf is not installed (apt-get install elfutils)\n");
		return 77;
	}
	r = cmocka_run_group_tests(gcore_tests, make_core, free_core);
	return r;
}
