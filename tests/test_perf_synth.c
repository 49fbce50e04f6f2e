/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_perf_synth.c - perf.data of x86_64, aarch64 and s390x programs, made
 * from the real stack snapshots of fixtures/unwind/ (aarch64 and s390x
 * cannot be recorded on an x86_64 host): each snapshot sample becomes a
 * PERF_RECORD_SAMPLE as perf record --call-graph=dwarf writes it, in the
 * byte order of the sampled machine (big-endian throughout for s390x).
 * The files are then read back with src/tool/read/perf_data.c and converted with
 * src/tool/target/perf_regs.c: each sample must give the snapshot's registers and
 * stack again, and the unwinder must walk it to the same frames; converted
 * as from an event whose mask lacks FP and the link register, its walk
 * must be the same or stop for want of one of them, after the same frames.
 *
 * What perf would write, and how it is made here:
 * - one event (software cpu-clock) with sample_type IP, TID, TIME, PERIOD,
 *   CALLCHAIN, REGS_USER, STACK_USER and sample_id_all; sample_regs_user is
 *   perf 6.1's mask for the architecture (its PERF_REGS_MASK: x86_64 all of
 *   ax..r15 but ds, es, fs, gs; aarch64 x0..pc; s390x r0..pc, floating-point
 *   registers included);
 * - CALLCHAIN holds no entry: with --call-graph=dwarf perf excludes the
 *   user callchain and a sample taken in user mode has no kernel one;
 * - REGS_USER: perf's numbering (the kernel's uapi asm/perf_regs.h, table
 *   below) filled from the snapshot's DWARF-numbered registers and PC; the
 *   registers a snapshot lacks (flags, segment and floating-point
 *   registers, the PSW mask) get fixed values that must not come back;
 * - STACK_USER: perf copies the stack from the user SP, where the snapshot
 *   copy starts at SP (x86_64: SP - 128, the red zone). Every sample's size
 *   is the event's sample_stack_user, here the longest copy of the run
 *   rounded up to 8 bytes, so that no sample is cut; dyn_size is what the
 *   snapshot has from SP to the end of the stack (the kernel's copy stops
 *   where the stack mapping ends);
 * - an MMAP2 of the binary's executable segment: the fixture binaries are
 *   static ET_EXEC files, loaded at their link addresses (load bias 0), so
 *   the snapshots' PCs are link-time addresses and the mapping starts at
 *   the segment's page, file offset its page's offset;
 * - a COMM naming the process, then behind the data section the feature
 *   sections HOSTNAME (perf always writes it) and ARCH ("uname -m").
 *
 * Then "sframe perf" prints each file: its frames, sample by sample, must
 * be those "sframe unwind" prints for the snapshot, address, symbol and
 * offset (the binaries are ET_EXEC: an address relative to the file, as
 * perf script's layout shows it, is the address itself; a caller frame is
 * shown at its return address minus one), and a walk must end early (a
 * "stop" line other than "outermost frame") in both or in neither.
 *
 * Usage: test_perf_synth FIXTURES_DIR OUT_DIR SFRAME_TOOL (the .data files
 * stay in OUT_DIR, perf-synth-<combo>.data).
 */
#define _XOPEN_SOURCE 700	/* realpath() */
#include <setjmp.h>
#include <elf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "frames_equal.h"
#include "target/perf_regs.h"
#include "perf_writer.h"
#include "tool_run.h"
#include "target/unwind_target.h"

#define PID 4242
#define PERIOD 1000000		/* cpu-clock at 1 ms, in ns */
#define MISC_USER 2		/* PERF_RECORD_MISC_USER */
#define SAMPLE_TYPE (SF_PERF_SAMPLE_IP | SF_PERF_SAMPLE_TID | SF_PERF_SAMPLE_TIME | \
		     SF_PERF_SAMPLE_PERIOD | SF_PERF_SAMPLE_CALLCHAIN | \
		     SF_PERF_SAMPLE_REGS_USER | SF_PERF_SAMPLE_STACK_USER)
#define MAX_FRAMES 64

static const char *fixtures, *out_dir, *sframe_tool;

/*
 * perf's numbering, per architecture: perf_of_dwarf[d] is the perf number
 * of the snapshot's regs[d] (x86_64 DWARF: rax rdx rcx rbx rsi rdi rbp rsp
 * r8..r15 rip; perf: ax 0, bx 1, cx 2, dx 3, si 4, di 5, bp 6, sp 7, ip 8,
 * r8..r15 16..23; aarch64 x0..x30, sp are 0..31 in both; s390x r0..r15 are
 * 0..15 in both), pc the perf number of the PC (x86_64 ip 8, aarch64 pc 32,
 * s390x PSW address 33). other[] are the perf registers without a DWARF
 * number here, with the value written for them.
 */
struct arch {
	uint16_t machine;
	const char *uname;
	uint64_t mask;
	unsigned ndwarf;
	unsigned char perf_of_dwarf[32];
	unsigned pc;
	struct { unsigned reg; uint64_t value; } other[4];
	uint64_t fp_ra;		/* perf's FP and link register (x86_64: FP) */
};

static const struct arch arches[] = {
	{ EM_X86_64, "x86_64", 0xff0fff, 17,
	  { 0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8 }, 8,
	  /* flags, cs, ss as a 64-bit user task has them */
	  { { 9, 0x246 }, { 10, 0x33 }, { 11, 0x2b }, { 0, 0 } }, UINT64_C(1) << 6 },
	{ EM_AARCH64, "aarch64", (UINT64_C(1) << 33) - 1, 32,
	  { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
	    22, 23, 24, 25, 26, 27, 28, 29, 30, 31 }, 32,
	  { { 0, 0 } }, UINT64_C(3) << 29 },
	{ EM_S390, "s390x", (UINT64_C(1) << 34) - 1, 16,
	  { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 }, 33,
	  /* the PSW mask of a 64-bit problem-state task; f0 and f15 */
	  { { 32, UINT64_C(0x0705000180000000) }, { 16, 0x3ff0000000000000 },
	    { 31, 0x4000000000000000 }, { 0, 0 } }, UINT64_C(1) << 11 | UINT64_C(1) << 14 },
};

static const struct arch *arch_of(uint16_t machine)
{
	size_t i;

	for (i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (arches[i].machine == machine)
			return &arches[i];
	fail_msg("no perf numbering for machine %u", (unsigned)machine);
	return NULL;
}

/* The executable segment of a static ET_EXEC file: the MMAP2 perf writes for it. */
struct exec_map {
	uint64_t addr, len, pgoff;
};

static struct exec_map exec_segment(const struct sf_input *in)
{
	const unsigned char *e = in->file;
	bool be = e[EI_DATA] == ELFDATA2MSB;
	uint64_t phoff = sf_get_uint(e + 32, 8, be);
	unsigned phentsize = (unsigned)sf_get_uint(e + 54, 2, be);
	unsigned phnum = (unsigned)sf_get_uint(e + 56, 2, be), i, found = 0;
	struct exec_map map = { 0, 0, 0 };

	assert_int_equal(e[EI_CLASS], ELFCLASS64);
	/* ET_EXEC: loaded at its link addresses, so run-time PCs are link-time ones. */
	assert_int_equal(sf_get_uint(e + 16, 2, be), ET_EXEC);
	assert_true(phoff + (uint64_t)phnum * phentsize <= in->file_size);
	for (i = 0; i < phnum; i++) {
		const unsigned char *ph = e + phoff + (uint64_t)i * phentsize;
		uint64_t off, vaddr, memsz;

		if (sf_get_uint(ph, 4, be) != PT_LOAD || !(sf_get_uint(ph + 4, 4, be) & PF_X))
			continue;
		off = sf_get_uint(ph + 8, 8, be);
		vaddr = sf_get_uint(ph + 16, 8, be);
		memsz = sf_get_uint(ph + 40, 8, be);
		map.addr = vaddr & ~UINT64_C(0xfff);
		map.pgoff = off & ~UINT64_C(0xfff);
		map.len = ((vaddr + memsz + 0xfff) & ~UINT64_C(0xfff)) - map.addr;
		found++;
	}
	assert_int_equal(found, 1);
	return map;
}

/* The trailer of a non-sample record: TID (pid, tid) and TIME. */
static void add_id_trailer(struct img *m, uint64_t time)
{
	add(m, PID, 4);
	add(m, PID, 4);
	add(m, time, 8);
}

static void add_sample(struct img *m, const struct arch *a, const struct sf_sample *s,
		       uint32_t stack_user, uint64_t time)
{
	uint64_t perf[64] = { 0 }, off = s->sp - s->stack_addr, len;
	unsigned d, i;

	assert_int_equal(s->nregs, a->ndwarf);
	for (d = 0; d < a->ndwarf; d++)
		perf[a->perf_of_dwarf[d]] = s->regs[d];
	perf[a->pc] = s->pc;
	for (i = 0; a->other[i].reg; i++)
		perf[a->other[i].reg] = a->other[i].value;
	assert_true(s->sp >= s->stack_addr && off <= s->stack_len);
	len = s->stack_len - off;

	rec_begin(m, SF_PERF_RECORD_SAMPLE, MISC_USER);
	add(m, s->pc, 8);
	add(m, PID, 4);
	add(m, PID, 4);
	add(m, time, 8);
	add(m, PERIOD, 8);
	add(m, 0, 8);				/* callchain: no entries */
	add(m, SF_PERF_REGS_ABI_64, 8);
	for (i = 0; i < 64; i++)
		if (a->mask >> i & 1)
			add(m, perf[i], 8);
	add(m, stack_user, 8);
	add_bytes(m, s->stack + off, (size_t)len);
	while (len++ < stack_user)
		add(m, 0, 1);
	add(m, s->stack_len - off, 8);		/* dyn_size */
	rec_end(m);
}

/* The longest stack copy from SP of a snapshot, rounded up to 8 bytes. */
static uint32_t longest_stack(const char *snap_path)
{
	struct sf_snapshot snap;
	struct sf_sample s;
	uint64_t longest = 0;
	char err[512];
	int r;

	if (sf_snapshot_open(snap_path, &snap, err, sizeof(err)))
		fail_msg("%s", err);
	while ((r = sf_snapshot_next(&snap, &s, err, sizeof(err))) == 1)
		if (s.stack_len - (s.sp - s.stack_addr) > longest)
			longest = s.stack_len - (s.sp - s.stack_addr);
	if (r < 0)
		fail_msg("%s: %s", snap_path, err);
	sf_snapshot_close(&snap);
	/* A record's size is a u16: the stack and the rest of the sample must fit. */
	assert_true(longest < 60000);
	return (uint32_t)((longest + 7) & ~UINT64_C(7));
}

/* Write perf-synth-<combo>.data from the snapshot; the number of samples. */
static unsigned long write_perf_data(const char *combo, const char *exe, const char *snap_path,
				     const struct sf_target *t, const char *out)
{
	static struct img m;
	struct exec_map map = exec_segment(&t->in);
	struct sf_snapshot snap;
	struct sf_sample s;
	const struct arch *a;
	struct ev ev = { .sample_type = SAMPLE_TYPE, .sample_id_all = true };
	struct pw_feature features[2] = {
		{ PW_HEADER_HOSTNAME, "sframe-test" }, { PW_HEADER_ARCH, NULL },
	};
	unsigned long n = 0;
	char err[512];
	int r;

	ev.stack_user = longest_stack(snap_path);
	if (sf_snapshot_open(snap_path, &snap, err, sizeof(err)))
		fail_msg("%s", err);
	a = arch_of(snap.machine);
	ev.regs_user = a->mask;
	begin(&m, snap.be, &ev, 1);
	rec_begin(&m, SF_PERF_RECORD_COMM, 0);
	add(&m, PID, 4);
	add(&m, PID, 4);
	add_string(&m, "unwind");
	add_id_trailer(&m, 0);
	rec_end(&m);
	rec_begin(&m, SF_PERF_RECORD_MMAP2, MISC_USER);
	add(&m, PID, 4);
	add(&m, PID, 4);
	add(&m, map.addr, 8);
	add(&m, map.len, 8);
	add(&m, map.pgoff, 8);
	add(&m, 8, 4);				/* maj, min, ino, ino_generation */
	add(&m, 1, 4);
	add(&m, 1234567, 8);
	add(&m, 0, 8);
	add(&m, 5, 4);				/* PROT_READ | PROT_EXEC */
	add(&m, 2, 4);				/* MAP_PRIVATE */
	add_string(&m, exe);
	add_id_trailer(&m, 0);
	rec_end(&m);
	while ((r = sf_snapshot_next(&snap, &s, err, sizeof(err))) == 1) {
		n++;
		add_sample(&m, a, &s, ev.stack_user, n * PERIOD);
	}
	if (r < 0)
		fail_msg("%s: %s", snap_path, err);
	features[1].value = a->uname;
	end_with_features(&m, features, 2);
	sf_snapshot_close(&snap);
	write_img(&m, out);
	print_message("%s: %lu samples of %" PRIu32 " stack bytes each, %s-endian: %zu bytes\n",
		      combo, n, ev.stack_user, m.be ? "big" : "little", m.len);
	return n;
}

/*
 * The feature sections behind the data: the bitmap has HOSTNAME and ARCH,
 * the table their offsets and sizes (u32 length, string padded to 64).
 */
static void check_features(const struct sf_perf_file *f, const char *uname)
{
	static const char *const value[2] = { "sframe-test", NULL };
	const unsigned char *p = f->in.file;
	uint64_t table = f->data_off + f->data_size, off, size;
	unsigned i;

	assert_int_equal(f->features[0], UINT64_C(1) << PW_HEADER_HOSTNAME |
			 UINT64_C(1) << PW_HEADER_ARCH);
	assert_true(table + 32 <= f->in.file_size);
	for (i = 0; i < 2; i++) {
		off = sf_perf_u64(f, p + table + 16 * i);
		size = sf_perf_u64(f, p + table + 16 * i + 8);
		assert_int_equal(size, 4 + 64);
		assert_int_equal(off, table + 32 + 68 * i);
		assert_true(off + size <= f->in.file_size);
		assert_int_equal(sf_get_uint(p + off, 4, f->be), 64);
		assert_string_equal((const char *)p + off + 4, value[i] ? value[i] : uname);
	}
	assert_int_equal(table + 32 + 2 * 68, f->in.file_size);
}

/* The snapshot's sample @want, as the perf sample converted gives it. */
static void check_sample(const struct sf_sample *got, const struct sf_sample *want)
{
	uint64_t off = want->sp - want->stack_addr;
	uint32_t d;

	assert_int_equal(got->pc, want->pc);
	assert_int_equal(got->sp, want->sp);
	assert_int_equal(got->fp, want->fp);
	assert_int_equal(got->ra, want->ra);
	assert_int_equal(got->nregs, want->nregs);
	assert_int_equal(got->regs_missing, 0);
	for (d = 0; d < want->nregs; d++)
		assert_int_equal(got->regs[d], want->regs[d]);
	assert_int_equal(got->stack_addr, want->sp);
	assert_int_equal(got->stack_len, want->stack_len - off);
	assert_memory_equal(got->stack, want->stack + off, got->stack_len);
}

/* Both samples walk to the same frames and stop alike. */
static void check_walks(const struct sf_target *t, const struct sf_sample *got,
			const struct sf_sample *want, unsigned long *frames_seen)
{
	static struct sframe_frame f1[MAX_FRAMES], f2[MAX_FRAMES];
	uint32_t n1, n2;
	int r1, r2;

	r1 = sf_target_unwind(t, want, 0, f1, MAX_FRAMES, &n1);
	r2 = sf_target_unwind(t, got, 0, f2, MAX_FRAMES, &n2);
	assert_int_equal(r2, r1);
	assert_int_equal(n2, n1);
	assert_frames_equal(f2, f1, n1);
	*frames_seen += n1;
}

/*
 * The sample again as an event whose mask lacks FP and the link register
 * would give it: its walk is the full one, or stops where a rule needs
 * one of them with "no such register" after the same frames, never with
 * a wrong frame or another error. Return whether it stopped so.
 */
static bool check_without_fp_ra(const struct sf_target *t, const struct arch *a,
				const struct sf_perf_sample *ps, const struct sf_sample *want)
{
	static struct sframe_frame f1[MAX_FRAMES], f2[MAX_FRAMES];
	static struct sf_perf_sample cut;
	uint64_t mask = a->mask & ~a->fp_ra;
	struct sf_sample s;
	uint32_t n1, n2, k = 0, i;
	char err[256];
	int r1, r2;

	cut = *ps;
	cut.nregs = 0;
	for (i = 0; i < 64; i++) {
		if (!(a->mask >> i & 1))
			continue;
		if (mask >> i & 1)
			cut.regs[cut.nregs++] = ps->regs[k];
		k++;
	}
	if (sf_perf_regs_sample(a->machine, mask, &cut, &s, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(s.fp, 0);
	assert_int_equal(s.ra, 0);
	r1 = sf_target_unwind(t, want, 0, f1, MAX_FRAMES, &n1);
	r2 = sf_target_unwind(t, &s, 0, f2, MAX_FRAMES, &n2);
	assert_true(n2 <= n1);
	for (i = 0; i < n2; i++)
		assert_int_equal(f2[i].pc, f1[i].pc);
	if (r2 == -SFRAME_ERR_NO_REG)
		return true;
	/* The frames' CFAs too (the last frame of a stopped walk has none). */
	assert_int_equal(r2, r1);
	assert_int_equal(n2, n1);
	for (i = 0; i < n2; i++)
		assert_int_equal(f2[i].cfa, f1[i].cfa);
	return false;
}

/* A growing string. */
struct text {
	char *s;
	size_t len, cap;
};

static void text_add(struct text *t, const char *p, size_t n)
{
	if (t->len + n + 1 > t->cap) {
		t->cap = 2 * (t->len + n + 1);
		t->s = realloc(t->s, t->cap);
		assert_non_null(t->s);
	}
	memcpy(t->s + t->len, p, n);
	t->len += n;
	t->s[t->len] = 0;
}

/*
 * A frame of a tool's output as "ADDR SYMBOL+0xOFFSET " in hex, or "ADDR ?? "
 * when the tool knows no symbol (perf script's "[unknown]").
 */
static void add_frame(struct text *t, uint64_t addr, const char *sym, size_t n)
{
	char buf[64];

	if (n == 9 && memcmp(sym, "[unknown]", 9) == 0)
		sym = "??", n = 2;
	snprintf(buf, sizeof(buf), "%" PRIx64 " ", addr);
	text_add(t, buf, strlen(buf));
	text_add(t, sym, n);
	text_add(t, " ", 1);
}

/* Each line of @out, with its length (without the newline). */
#define for_each_line(line, len, out) \
	for (line = out; (len = strcspn(line, "\n")), *line; line += len + (line[len] != 0))

/*
 * The frames of "sframe unwind" ("sample N: ..." then "  #K   0xPC SYM+0xOFF
 * [marks]" lines and "  stop: ..."), one sample a line, as sframe perf
 * shows them: perf script's layout names a caller frame (K > 0: a return
 * address here, no sample being in a signal handler) by the address before
 * its return address, the call instruction.
 */
static void unwind_frames(const char *out, struct text *t)
{
	const char *line, *plus;
	char sym[256];
	uint64_t pc, off;
	unsigned k;
	size_t len;
	bool first = true;

	for_each_line(line, len, out) {
		if (strncmp(line, "sample ", 7) == 0) {
			if (!first)
				text_add(t, "\n", 1);
			first = false;
			continue;
		}
		/* A walk that ends before the outermost frame says why: "stop" then. */
		if (strncmp(line, "  stop: ", 8) == 0 && strncmp(line, "  stop: outermost", 17) != 0)
			text_add(t, "stop ", 5);
		if (strncmp(line, "  #", 3) != 0)
			continue;
		assert_int_equal(sscanf(line, "  #%u 0x%" SCNx64 " %255s", &k, &pc, sym), 3);
		plus = strrchr(sym, '+');
		if (!plus) {
			add_frame(t, k ? pc - 1 : pc, sym, strlen(sym));
			continue;
		}
		off = strtoull(plus + 1, NULL, 16);
		snprintf(sym + (plus - sym), sizeof(sym) - (size_t)(plus - sym), "+0x%" PRIx64,
			 k ? off - 1 : off);
		add_frame(t, k ? pc - 1 : pc, sym, strlen(sym));
	}
	text_add(t, "\n", 1);
}

/*
 * The frames of "sframe perf" in perf script's layout: a header line a
 * sample, then its frames ("\t ADDR SYM+0xOFF (MODULE)"; "\t# ..." lines
 * annotate the sample, "\t# stop: REASON" a walk that ended early), then a
 * blank line. One sample a line. ADDR is the offset in the mapped file, as
 * perf prints it: + @delta (the executable segment's address minus its
 * offset) is the ELF address sframe unwind prints.
 */
static void perf_frames(const char *out, struct text *t, uint64_t delta)
{
	const char *line, *sym, *mod;
	size_t len;
	bool first = true, unknown;

	for_each_line(line, len, out) {
		if (strncmp(line, "\t# stop: ", 9) == 0)
			text_add(t, "stop ", 5);
		if (len == 0 || (line[0] == '\t' && line[1] == '#'))
			continue;
		if (line[0] != '\t') {
			if (!first)
				text_add(t, "\n", 1);
			first = false;
			continue;
		}
		sym = line + 1;
		sym += strspn(sym, " ");
		sym += strcspn(sym, " ");
		sym += strspn(sym, " ");
		/* The module is the last parenthesised field. */
		for (mod = line + len - 1; mod > sym && !(mod[0] == ' ' && mod[1] == '('); mod--)
			;
		assert_true(mod > sym);
		unknown = (size_t)(line + len - mod) == 12 && memcmp(mod, " ([unknown])", 12) == 0;
		add_frame(t, strtoull(line + 1, NULL, 16) + (unknown ? 0 : delta), sym,
			  (size_t)(mod - sym));
	}
	text_add(t, "\n", 1);
}

/* @argv's standard output; the program must exit with 0. */
static char *run_ok(char *const argv[])
{
	size_t len;
	int status;
	char *out = tu_run(argv, NULL, 1, &len, &status);

	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_msg("%s %s: exit status 0x%x", argv[0], argv[1], status);
	return out;
}

/* @exe's executable segment: its address minus its file offset. */
static uint64_t text_delta(const char *exe)
{
	struct sf_elf_phdrs ph;
	struct sf_elf_segment seg;
	struct sf_input in;
	char err[512];
	uint64_t i, delta = 0;

	if (sf_input_bytes(exe, &in, err, sizeof(err)) ||
	    sf_elf_phdrs_read(in.file, in.file_size, &ph, err, sizeof(err)))
		fail_msg("%s: %s", exe, err);
	for (i = 0; i < ph.phnum; i++) {
		sf_elf_segment_get(in.file, &ph, i, &seg);
		if (seg.type == PT_LOAD && (seg.flags & PF_X)) {
			delta = seg.vaddr - seg.offset;
			break;
		}
	}
	sf_input_free(&in);
	return delta;
}

/* sframe perf's frames for the file are sframe unwind's for the snapshot. */
static void compare_tools(const char *exe, const char *snap_path, const char *data,
			  unsigned long samples)
{
	char *unwind_argv[] = { (char *)sframe_tool, "unwind", "--elf", (char *)exe,
				(char *)snap_path, NULL };
	char *perf_argv[] = { (char *)sframe_tool, "perf", (char *)data, NULL };
	char *u_out = run_ok(unwind_argv), *p_out = run_ok(perf_argv);
	struct text u = { 0 }, p = { 0 };
	const char *ul, *pl;
	unsigned long n = 0, stops = 0;

	unwind_frames(u_out, &u);
	perf_frames(p_out, &p, text_delta(exe));
	for (ul = u.s, pl = p.s; *ul && *pl; ul = strchr(ul, '\n') + 1,
	     pl = strchr(pl, '\n') + 1, n++) {
		size_t ulen = strcspn(ul, "\n"), plen = strcspn(pl, "\n");

		if (ulen != plen || memcmp(ul, pl, ulen) != 0)
			fail_msg("%s: sample %lu: sframe unwind has frames %.*s, sframe perf %.*s",
				 data, n, (int)ulen, ul, (int)plen, pl);
	}
	assert_true(*ul == 0 && *pl == 0);
	assert_int_equal(n, samples);
	for (ul = u.s; (ul = strstr(ul, "stop ")); ul++)
		stops++;
	print_message("%s: sframe perf and sframe unwind: the same frames in all %lu samples "
		      "(%lu walks ended early)\n", data, n, stops);
	free(u.s);
	free(p.s);
	free(u_out);
	free(p_out);
}

static void test_combo(void **state)
{
	const char *combo = *state;
	char exe[1024], snap_path[1024], out[1024], err[512];
	struct sf_target t;
	struct sf_snapshot snap;
	struct sf_perf_file f;
	struct sf_perf_record rec;
	struct sf_perf_sample ps;
	struct sf_perf_mmap mm;
	struct sf_perf_comm c;
	struct sf_sample want, got;
	struct exec_map map;
	unsigned long written, samples = 0, frames = 0, no_reg = 0;
	uint64_t pos = 0;
	int r;

	snprintf(exe, sizeof(exe), "%s/unwind/%s/unwind", fixtures, combo);
	snprintf(snap_path, sizeof(snap_path), "%s/unwind/%s/unwind.snap", fixtures, combo);
	snprintf(out, sizeof(out), "%s/perf-synth-%s.data", out_dir, combo);
	if (sf_target_load(exe, NULL, &t, err, sizeof(err)))
		fail_msg("%s", err);
	written = write_perf_data(combo, exe, snap_path, &t, out);
	map = exec_segment(&t.in);

	if (sf_perf_open(out, &f, err, sizeof(err)))
		fail_msg("%s", err);
	if (sf_snapshot_open(snap_path, &snap, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(f.be, snap.be);
	check_features(&f, arch_of(snap.machine)->uname);
	/* The reader's view of the ARCH feature: the machine to convert registers for. */
	assert_non_null(f.arch);
	assert_int_equal(sf_perf_arch_machine(f.arch), snap.machine);
	assert_int_equal(f.nattrs, 1);
	assert_int_equal(f.attrs[0].sample_type, SAMPLE_TYPE);
	assert_int_equal(f.attrs[0].sample_regs_user, arch_of(snap.machine)->mask);

	assert_int_equal(sf_perf_next(&f, &pos, &rec, err, sizeof(err)), 1);
	assert_int_equal(rec.type, SF_PERF_RECORD_COMM);
	assert_int_equal(sf_perf_decode_comm(&f, &rec, &c, err, sizeof(err)), 0);
	assert_string_equal(c.comm, "unwind");
	assert_int_equal(sf_perf_next(&f, &pos, &rec, err, sizeof(err)), 1);
	assert_int_equal(rec.type, SF_PERF_RECORD_MMAP2);
	assert_int_equal(sf_perf_decode_mmap(&f, &rec, &mm, err, sizeof(err)), 0);
	assert_int_equal(mm.pid, PID);
	assert_int_equal(mm.addr, map.addr);
	assert_int_equal(mm.len, map.len);
	assert_int_equal(mm.pgoff, map.pgoff);
	assert_string_equal(mm.filename, exe);
	assert_int_equal(mm.sid.time, 0);

	/* A snapshot's sample has every register, whatever the struct held before. */
	memset(&want, 0xff, sizeof(want));
	while ((r = sf_perf_next(&f, &pos, &rec, err, sizeof(err))) == 1) {
		assert_int_equal(rec.type, SF_PERF_RECORD_SAMPLE);
		if (sf_perf_decode_sample(&f, &rec, &ps, err, sizeof(err)))
			fail_msg("%s", err);
		assert_int_equal(sf_snapshot_next(&snap, &want, err, sizeof(err)), 1);
		assert_int_equal(want.regs_missing, 0);
		samples++;
		assert_int_equal(ps.sid.pid, PID);
		assert_int_equal(ps.sid.time, samples * PERIOD);
		assert_int_equal(ps.ip, want.pc);
		assert_int_equal(ps.callchain_nr, 0);
		if (sf_perf_regs_sample(sf_perf_arch_machine(f.arch), f.attrs[0].sample_regs_user,
					&ps, &got, err, sizeof(err)))
			fail_msg("sample %lu: %s", samples, err);
		check_sample(&got, &want);
		check_walks(&t, &got, &want, &frames);
		no_reg += check_without_fp_ra(&t, arch_of(snap.machine), &ps, &want);
	}
	if (r < 0)
		fail_msg("%s", err);
	assert_int_equal(sf_snapshot_next(&snap, &want, err, sizeof(err)), 0);
	assert_int_equal(samples, written);
	print_message("%s: %lu samples read back, %lu frames walked alike; without FP and "
		      "link register, %lu walks stopped for want of one\n", combo, samples, frames,
		      no_reg);
	/* Every sample in a function whose CFA is FP-based needs FP. */
	assert_true(no_reg > 0);
	sf_snapshot_close(&snap);
	sf_perf_close(&f);
	sf_target_free(&t);
	compare_tools(exe, snap_path, out, samples);
}

/* The writer repeats bytes of its own image while the image grows (test_perf_data does). */
static void test_writer_copies_itself(void **state)
{
	static struct img m;
	static const struct ev ev = { .sample_type = SF_PERF_SAMPLE_IP };
	unsigned char want[HDR];
	size_t len;

	(void)state;
	begin(&m, false, &ev, 1);
	memcpy(want, m.b, HDR);
	/* Up to the buffer's end, then the header again: the buffer must grow. */
	while (m.len < m.cap)
		add(&m, 0x5a, 1);
	len = m.len;
	add_bytes(&m, m.b, HDR);
	assert_int_equal(m.len, len + HDR);
	assert_memory_equal(m.b + len, want, HDR);
}

int main(int argc, char **argv)
{
	static char fixtures_abs[PATH_MAX];
	/* Named after their combination (the state each is given). */
#define COMBO(c) { c, test_combo, NULL, NULL, (void *)c }
	const struct CMUnitTest tests[] = {
		COMBO("v1-x86_64"), COMBO("v2-x86_64"), COMBO("v3-x86_64"),
		COMBO("v1-aarch64"), COMBO("v2-aarch64"), COMBO("v3-aarch64"),
		COMBO("v3-s390x"),
		cmocka_unit_test(test_writer_copies_itself),
	};

	if (argc != 4) {
		fprintf(stderr, "usage: %s FIXTURES_DIR OUT_DIR SFRAME_TOOL\n", argv[0]);
		return 2;
	}
	/* perf records absolute paths, and sframe perf reads only those. */
	if (!realpath(argv[1], fixtures_abs)) {
		perror(argv[1]);
		return 2;
	}
	fixtures = fixtures_abs;
	out_dir = argv[2];
	sframe_tool = argv[3];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
