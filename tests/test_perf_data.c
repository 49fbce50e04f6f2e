/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_perf_data.c - the perf.data reader (src/tool/perf_data.c).
 *
 * Synthetic files are built field by field (perf_writer.c), in both byte orders, at
 * the offsets perf_event.h and perf's file format documentation give;
 * then one real file, fixtures/perf/loop.data, is read and compared with
 * what "perf script -D" (perf 6.1) printed for it. Images go through a
 * temporary file (mkstemp in $TMPDIR or /tmp), removed as soon as it is
 * open.
 */
#define _POSIX_C_SOURCE 200809L	/* mkstemp() */
#include <setjmp.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "perf_data.h"
#include "perf_writer.h"

static const char *fixtures_dir;

/* ---- Building images -------------------------------------------------------- */

/* Write the image to a temporary file and open it; 0 or the error. */
static int open_img(const struct img *m, struct sf_perf_file *f, char *err, size_t errlen)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd, ret;

	if (!dir || !*dir)
		dir = "/tmp";
	assert_true((size_t)snprintf(path, sizeof(path), "%s/test_perf_data.XXXXXX", dir) <
		    sizeof(path));
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_true(write(fd, m->b, m->len) == (ssize_t)m->len);
	close(fd);
	ret = sf_perf_open(path, f, err, errlen);
	unlink(path);
	return ret;
}

/* The one record of the image's data section. */
static void only_record(struct sf_perf_file *f, struct sf_perf_record *rec)
{
	char err[256];
	uint64_t pos = 0;

	assert_int_equal(sf_perf_next(f, &pos, rec, err, sizeof(err)), 1);
}

/* The next record of @f, which must be of @type. */
static void next_is(struct sf_perf_file *f, uint64_t *pos, struct sf_perf_record *rec,
		    uint32_t type)
{
	char err[256];

	assert_int_equal(sf_perf_next(f, pos, rec, err, sizeof(err)), 1);
	assert_int_equal(rec->type, type);
}

#define assert_err(msg, part) do { \
	if (!strstr((msg), (part))) \
		fail_msg("message \"%s\" lacks \"%s\"", (msg), (part)); \
} while (0)

/* ---- A full file, both byte orders ---------------------------------------- */

#define T_ALL (SF_PERF_SAMPLE_IDENTIFIER | SF_PERF_SAMPLE_IP | SF_PERF_SAMPLE_TID | \
	       SF_PERF_SAMPLE_TIME | SF_PERF_SAMPLE_ADDR | SF_PERF_SAMPLE_ID | \
	       SF_PERF_SAMPLE_STREAM_ID | SF_PERF_SAMPLE_CPU | SF_PERF_SAMPLE_PERIOD | \
	       SF_PERF_SAMPLE_READ | SF_PERF_SAMPLE_CALLCHAIN | SF_PERF_SAMPLE_RAW | \
	       SF_PERF_SAMPLE_REGS_USER | SF_PERF_SAMPLE_STACK_USER | SF_PERF_SAMPLE_WEIGHT | \
	       SF_PERF_SAMPLE_DATA_SRC)

/* Two events: samples and trailers name theirs by IDENTIFIER. */
static const struct ev two_events[2] = {
	{ .sample_type = SF_PERF_SAMPLE_IDENTIFIER | SF_PERF_SAMPLE_IP | SF_PERF_SAMPLE_TID,
	  .sample_id_all = true, .ids = { 7 }, .nids = 1 },
	{ .sample_type = T_ALL,
	  .read_format = SF_PERF_FORMAT_TOTAL_TIME_ENABLED | SF_PERF_FORMAT_ID |
			 SF_PERF_FORMAT_LOST,
	  /* AX, BX, SP (bit 7), IP (bit 8) of perf's x86 register numbering. */
	  .regs_user = 0x183, .stack_user = 32, .sample_id_all = true,
	  .ids = { 42, 43 }, .nids = 2 },
};

/* The trailer of event 1 (TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER). */
static void add_trailer(struct img *m, uint64_t id)
{
	add(m, 1000, 4);
	add(m, 1001, 4);
	add(m, 0x123456789, 8);
	add(m, id, 8);
	add(m, 99, 8);
	add(m, 3, 4);
	add(m, 0, 4);
	add(m, id, 8);
}

/* FORK or EXIT of thread 2001 of process 2000 (parent 1000/1001) with event 1's trailer. */
static void add_task(struct img *m, uint32_t type, uint64_t time)
{
	rec_begin(m, type, 0);
	add(m, 2000, 4);
	add(m, 1000, 4);
	add(m, 2001, 4);
	add(m, 1001, 4);
	add(m, time, 8);
	add_trailer(m, 42);
	rec_end(m);
}

/* The start of an MMAP or MMAP2 record of process 1000, thread 1001. */
static void add_mmap_head(struct img *m, uint32_t type, uint16_t misc, uint64_t addr,
			  uint64_t len, uint64_t pgoff)
{
	rec_begin(m, type, misc);
	add(m, 1000, 4);
	add(m, 1001, 4);
	add(m, addr, 8);
	add(m, len, 8);
	add(m, pgoff, 8);
}

static const unsigned char stack_bytes[32] = {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
};

static void build_full(struct img *m, bool be)
{
	static const unsigned char raw[12] = "raw-data-12";

	begin(m, be, two_events, 2);
	/* A sample of event 1 (id 43), every field in perf_event.h's order. */
	rec_begin(m, SF_PERF_RECORD_SAMPLE, 2);
	add(m, 43, 8);			/* IDENTIFIER */
	add(m, 0x401234, 8);		/* IP */
	add(m, 1000, 4);		/* pid */
	add(m, 1001, 4);		/* tid */
	add(m, 0x1122334455, 8);	/* TIME */
	add(m, 0xdead0000, 8);		/* ADDR */
	add(m, 43, 8);			/* ID */
	add(m, 99, 8);			/* STREAM_ID */
	add(m, 1, 4);			/* cpu */
	add(m, 0, 4);			/* reserved */
	add(m, 10101010, 8);		/* PERIOD */
	add(m, 5, 8);			/* READ: value, time_enabled, id, lost */
	add(m, 6, 8);
	add(m, 43, 8);
	add(m, 0, 8);
	add(m, 2, 8);			/* CALLCHAIN: nr, ips */
	add(m, 0xffffffffffffff80ULL, 8);	/* PERF_CONTEXT_KERNEL */
	add(m, 0xffffffff81000000ULL, 8);
	add(m, 12, 4);			/* RAW: size, bytes (4 + 12 = 16) */
	add_bytes(m, raw, 12);
	add(m, SF_PERF_REGS_ABI_64, 8);	/* REGS_USER: abi, 4 registers */
	add(m, 0xa, 8);
	add(m, 0xb, 8);
	add(m, 0x7ffc0000, 8);
	add(m, 0x401234, 8);
	add(m, 32, 8);			/* STACK_USER: size, bytes, dyn_size */
	add_bytes(m, stack_bytes, 32);
	add(m, 24, 8);
	add(m, 777, 8);			/* WEIGHT */
	add(m, 0x1e05080021ULL, 8);	/* DATA_SRC */
	rec_end(m);
	/* MMAP2 with device and inode, then one with a build id. */
	add_mmap_head(m, SF_PERF_RECORD_MMAP2, 2, 0x400000, 0x5000, 0x1000);
	add(m, 0xfe, 4);
	add(m, 1, 4);
	add(m, 10977676, 8);
	add(m, 77, 8);
	add(m, 5, 4);			/* PROT_READ | PROT_EXEC */
	add(m, 2, 4);			/* MAP_PRIVATE */
	add_string(m, "/usr/bin/prog");
	add_trailer(m, 43);
	rec_end(m);
	add_mmap_head(m, SF_PERF_RECORD_MMAP2, 2 | (1u << 14), 0x7f0000, 0x2000, 0);
	add(m, 3, 1);			/* build id size, reserved */
	add(m, 0, 1);
	add(m, 0, 2);
	add_bytes(m, "\xab\xcd\xef", 3);
	add_bytes(m, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 17);
	add(m, 1, 4);
	add(m, 2, 4);
	add_string(m, "lib.so");
	add_trailer(m, 43);
	rec_end(m);
	/* COMM of event 0: its trailer is TID and IDENTIFIER. */
	rec_begin(m, SF_PERF_RECORD_COMM, 1u << 13);
	add(m, 1000, 4);
	add(m, 1001, 4);
	add_string(m, "prog");
	add(m, 1000, 4);
	add(m, 1001, 4);
	add(m, 7, 8);
	rec_end(m);
	/* A record type unknown to the reader, skipped whole. */
	rec_begin(m, 0x7777, 0);
	add(m, 0x5555, 8);
	add(m, 0x6666, 8);
	rec_end(m);
	add_task(m, SF_PERF_RECORD_FORK, 0x55);
	add_task(m, SF_PERF_RECORD_EXIT, 0x66);
	rec_begin(m, SF_PERF_RECORD_LOST, 0);
	add(m, 42, 8);
	add(m, 17, 8);
	add_trailer(m, 42);
	rec_end(m);
	add_mmap_head(m, SF_PERF_RECORD_MMAP, 0, 0x600000, 0x1000, 0);
	add_string(m, "[vdso]");
	add_trailer(m, 43);
	rec_end(m);
}

static void check_trailer(const struct sf_perf_sample_id *sid, uint64_t id)
{
	assert_int_equal(sid->present, SF_PERF_SAMPLE_TID | SF_PERF_SAMPLE_TIME | SF_PERF_SAMPLE_ID |
			 SF_PERF_SAMPLE_STREAM_ID | SF_PERF_SAMPLE_CPU);
	assert_int_equal(sid->pid, 1000);
	assert_int_equal(sid->tid, 1001);
	assert_int_equal(sid->time, 0x123456789);
	assert_int_equal(sid->id, id);
	assert_int_equal(sid->stream_id, 99);
	assert_int_equal(sid->cpu, 3);
}

static void check_mmap2(const struct sf_perf_mmap *m, uint32_t pid, uint32_t tid, uint64_t addr,
			uint64_t len, uint64_t pgoff, uint32_t maj, uint32_t min, uint64_t ino,
			uint64_t ino_generation, uint32_t prot, uint32_t flags)
{
	assert_int_equal(m->pid, pid);
	assert_int_equal(m->tid, tid);
	assert_int_equal(m->addr, addr);
	assert_int_equal(m->len, len);
	assert_int_equal(m->pgoff, pgoff);
	assert_false(m->has_build_id);
	assert_int_equal(m->maj, maj);
	assert_int_equal(m->min, min);
	assert_int_equal(m->ino, ino);
	assert_int_equal(m->ino_generation, ino_generation);
	assert_int_equal(m->prot, prot);
	assert_int_equal(m->flags, flags);
}

static void check_task(const struct sf_perf_task *t, uint32_t pid, uint32_t tid, uint32_t ppid,
		       uint32_t ptid)
{
	assert_int_equal(t->pid, pid);
	assert_int_equal(t->tid, tid);
	assert_int_equal(t->ppid, ppid);
	assert_int_equal(t->ptid, ptid);
}

static void check_full(bool be)
{
	static struct img m;
	struct sf_perf_file f;
	struct sf_perf_record rec;
	struct sf_perf_sample s;
	struct sf_perf_mmap mm;
	struct sf_perf_comm c;
	struct sf_perf_task t;
	struct sf_perf_lost l;
	uint64_t pos = 0, data = 0;
	char err[256];

	build_full(&m, be);
	assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
	assert_int_equal(f.be, be);
	assert_int_equal(f.nattrs, 2);
	assert_int_equal(f.attrs[1].sample_type, T_ALL);
	assert_int_equal(f.attrs[1].sample_regs_user, 0x183);
	assert_int_equal(f.attrs[1].sample_stack_user, 32);
	assert_true(f.attrs[0].sample_id_all && f.attrs[1].sample_id_all);
	assert_ptr_equal(sf_perf_attr_of_id(&f, 7), &f.attrs[0]);
	assert_ptr_equal(sf_perf_attr_of_id(&f, 42), &f.attrs[1]);
	assert_ptr_equal(sf_perf_attr_of_id(&f, 43), &f.attrs[1]);
	assert_null(sf_perf_attr_of_id(&f, 8));
	data = f.data_off;

	/* The sample. */
	next_is(&f, &pos, &rec, SF_PERF_RECORD_SAMPLE);
	assert_int_equal(rec.misc, 2);
	assert_int_equal(rec.offset, data);
	assert_ptr_equal(rec.bytes, f.in.file + data);
	assert_int_equal(pos, rec.size);
	assert_int_equal(sf_perf_decode_sample(&f, &rec, &s, err, sizeof(err)), 0);
	assert_ptr_equal(s.attr, &f.attrs[1]);
	assert_int_equal(s.sid.id, 43);
	assert_int_equal(s.ip, 0x401234);
	assert_int_equal(s.sid.pid, 1000);
	assert_int_equal(s.sid.tid, 1001);
	assert_int_equal(s.sid.time, 0x1122334455);
	assert_int_equal(s.addr, 0xdead0000);
	assert_int_equal(s.sid.stream_id, 99);
	assert_int_equal(s.sid.cpu, 1);
	assert_int_equal(s.period, 10101010);
	assert_int_equal(s.callchain_nr, 2);
	assert_int_equal(sf_perf_u64(&f, s.callchain), 0xffffffffffffff80ULL);
	assert_int_equal(sf_perf_u64(&f, s.callchain + 8), 0xffffffff81000000ULL);
	assert_int_equal(s.raw_size, 12);
	assert_memory_equal(s.raw, "raw-data-12", 12);
	assert_int_equal(s.regs_abi, SF_PERF_REGS_ABI_64);
	assert_int_equal(s.nregs, 4);
	assert_int_equal(s.regs[0], 0xa);
	assert_int_equal(s.regs[1], 0xb);
	assert_int_equal(s.regs[2], 0x7ffc0000);
	assert_int_equal(s.regs[3], 0x401234);
	assert_int_equal(s.stack_size, 32);
	assert_memory_equal(s.stack, stack_bytes, 32);
	assert_int_equal(s.stack_dyn_size, 24);
	assert_int_equal(s.data_src, 0x1e05080021ULL);

	next_is(&f, &pos, &rec, SF_PERF_RECORD_MMAP2);
	assert_int_equal(sf_perf_decode_mmap(&f, &rec, &mm, err, sizeof(err)), 0);
	check_mmap2(&mm, 1000, 1001, 0x400000, 0x5000, 0x1000, 0xfe, 1, 10977676, 77, 5, 2);
	assert_string_equal(mm.filename, "/usr/bin/prog");
	check_trailer(&mm.sid, 43);

	assert_int_equal(sf_perf_next(&f, &pos, &rec, err, sizeof(err)), 1);
	assert_int_equal(sf_perf_decode_mmap(&f, &rec, &mm, err, sizeof(err)), 0);
	assert_true(mm.has_build_id);
	assert_int_equal(mm.build_id_size, 3);
	assert_memory_equal(mm.build_id, "\xab\xcd\xef", 3);
	assert_int_equal(mm.prot, 1);
	assert_int_equal(mm.flags, 2);
	assert_string_equal(mm.filename, "lib.so");

	next_is(&f, &pos, &rec, SF_PERF_RECORD_COMM);
	assert_int_equal(rec.misc, 1u << 13);
	assert_int_equal(sf_perf_decode_comm(&f, &rec, &c, err, sizeof(err)), 0);
	assert_int_equal(c.pid, 1000);
	assert_int_equal(c.tid, 1001);
	assert_string_equal(c.comm, "prog");
	assert_int_equal(c.sid.present, SF_PERF_SAMPLE_TID | SF_PERF_SAMPLE_ID);
	assert_int_equal(c.sid.id, 7);

	next_is(&f, &pos, &rec, 0x7777);
	assert_int_equal(rec.size, 24);

	next_is(&f, &pos, &rec, SF_PERF_RECORD_FORK);
	assert_int_equal(sf_perf_decode_task(&f, &rec, &t, err, sizeof(err)), 0);
	check_task(&t, 2000, 2001, 1000, 1001);
	assert_int_equal(t.time, 0x55);
	check_trailer(&t.sid, 42);

	next_is(&f, &pos, &rec, SF_PERF_RECORD_EXIT);
	assert_int_equal(sf_perf_decode_task(&f, &rec, &t, err, sizeof(err)), 0);
	check_task(&t, 2000, 2001, 1000, 1001);
	assert_int_equal(t.time, 0x66);

	next_is(&f, &pos, &rec, SF_PERF_RECORD_LOST);
	assert_int_equal(sf_perf_decode_lost(&f, &rec, &l, err, sizeof(err)), 0);
	assert_int_equal(l.id, 42);
	assert_int_equal(l.lost, 17);
	check_trailer(&l.sid, 42);

	next_is(&f, &pos, &rec, SF_PERF_RECORD_MMAP);
	assert_int_equal(sf_perf_decode_mmap(&f, &rec, &mm, err, sizeof(err)), 0);
	assert_int_equal(mm.addr, 0x600000);
	assert_int_equal(mm.len, 0x1000);
	assert_int_equal(mm.maj, 0);
	assert_string_equal(mm.filename, "[vdso]");
	check_trailer(&mm.sid, 43);

	assert_int_equal(sf_perf_next(&f, &pos, &rec, err, sizeof(err)), 0);
	assert_int_equal(pos, f.data_size);
	sf_perf_close(&f);
}

static void test_full_le(void **state)
{
	(void)state;
	check_full(false);
}

static void test_full_be(void **state)
{
	(void)state;
	check_full(true);
}

/* ---- Errors ------------------------------------------------------------------ */

/* One event as perf --call-graph=dwarf records it, without trailers. */
static const struct ev dwarf_event = {
	.sample_type = SF_PERF_SAMPLE_IP | SF_PERF_SAMPLE_TID | SF_PERF_SAMPLE_CALLCHAIN |
		       SF_PERF_SAMPLE_REGS_USER | SF_PERF_SAMPLE_STACK_USER,
	.regs_user = 0x3, .stack_user = 16, .ids = { 5 }, .nids = 1,
};

/* Open @m, expecting @ret and a message holding @part. */
static void expect_open(const struct img *m, int ret, const char *part)
{
	struct sf_perf_file f;
	char err[256];

	assert_int_equal(open_img(m, &f, err, sizeof(err)), ret);
	assert_err(err, part);
	assert_null(f.attrs);
	assert_null(f.in.file);
}

/* Open @m, take its one record, expect the sample decoder to fail with @part. */
static void expect_sample(const struct img *m, const char *part)
{
	struct sf_perf_file f;
	struct sf_perf_record rec;
	struct sf_perf_sample s;
	char err[256];

	assert_int_equal(open_img(m, &f, err, sizeof(err)), 0);
	only_record(&f, &rec);
	assert_int_equal(sf_perf_decode_sample(&f, &rec, &s, err, sizeof(err)), SF_PERF_EFORMAT);
	assert_err(err, part);
	sf_perf_close(&f);
}

/* A dwarf_event sample: ip, pid/tid, callchain nr @nr, @nregs registers, a 16-byte stack. */
static void dwarf_sample(struct img *m, bool be, uint64_t nr, unsigned nregs)
{
	unsigned i;

	begin(m, be, &dwarf_event, 1);
	rec_begin(m, SF_PERF_RECORD_SAMPLE, 2);
	add(m, 0x1000, 8);
	add(m, 1, 4);
	add(m, 1, 4);
	add(m, nr, 8);
	add(m, SF_PERF_REGS_ABI_64, 8);
	for (i = 0; i < nregs; i++)
		add(m, i, 8);
	add(m, 16, 8);
	add_bytes(m, stack_bytes, 16);
	add(m, 16, 8);
	rec_end(m);
}

/* Open @m and decode its one record, a sample; close @f after use. */
static void decode_one_sample(const struct img *m, struct sf_perf_file *f,
			      struct sf_perf_sample *s)
{
	struct sf_perf_record rec;
	char err[256];

	assert_int_equal(open_img(m, f, err, sizeof(err)), 0);
	only_record(f, &rec);
	if (sf_perf_decode_sample(f, &rec, s, err, sizeof(err)))
		fail_msg("%s", err);
}

static void test_sample_ok_both_orders(void **state)
{
	static struct img m;
	struct sf_perf_file f;
	struct sf_perf_sample s;
	int be;

	(void)state;
	for (be = 0; be < 2; be++) {
		dwarf_sample(&m, be, 0, 2);
		decode_one_sample(&m, &f, &s);
		assert_int_equal(s.nregs, 2);
		assert_int_equal(s.regs[1], 1);
		assert_int_equal(s.stack_dyn_size, 16);
		assert_int_equal(s.sid.present, SF_PERF_SAMPLE_TID);
		sf_perf_close(&f);
	}
}

/* sample_regs_user names 2 registers; the record has room for only 1. */
static void test_regs_past_record(void **state)
{
	static struct img m;

	(void)state;
	dwarf_sample(&m, false, 0, 1);
	/* Drop the stack part: one register, then the record ends. */
	m.len -= 8 + 16 + 8;
	rec_end(&m);
	expect_sample(&m, "sample: user registers (2 x 8 bytes) runs past its end (8 bytes left)");
}

/* A callchain count whose byte size wraps to 0 in 64 bits. */
static void test_callchain_overflow(void **state)
{
	static struct img m;

	(void)state;
	dwarf_sample(&m, true, 1ULL << 61, 2);
	expect_sample(&m, "callchain (2305843009213693952 x 8 bytes) runs past its end");
}

static void test_stack_dyn_size(void **state)
{
	static struct img m;

	(void)state;
	dwarf_sample(&m, false, 0, 2);
	put(&m, m.len - 8, 17, 8);
	expect_sample(&m, "user stack dyn_size 17 is above its size 16");
}

/* A stack size past the record, and one that would wrap a pointer. */
static void test_stack_size_overflow(void **state)
{
	static struct img m;
	char msg[128];

	(void)state;
	dwarf_sample(&m, false, 0, 2);
	put(&m, m.len - 8 - 16 - 8, UINT64_MAX - 3, 8);
	snprintf(msg, sizeof(msg), "offset 0x%zx: sample: user stack (%" PRIu64, m.len - 8 - 16,
		 UINT64_MAX - 3);
	expect_sample(&m, msg);
}

static void test_truncated_header(void **state)
{
	static struct img m;

	(void)state;
	dwarf_sample(&m, false, 0, 2);
	m.len = 50;
	expect_open(&m, SF_PERF_EFORMAT, "offset 0x0: file header truncated");
}

/* The file ends inside the data section. */
static void test_truncated_data(void **state)
{
	static struct img m;
	char msg[128];

	(void)state;
	dwarf_sample(&m, true, 0, 2);
	m.len -= 1;
	snprintf(msg, sizeof(msg), "offset 0x%" PRIx64 ": data section (0x%zx bytes) runs past the "
		 "end of the file", data_off(&m), m.len + 1 - (size_t)data_off(&m));
	expect_open(&m, SF_PERF_EFORMAT, msg);
}

/* Offset + size wraps: must not pass as inside the file. */
static void test_section_overflow(void **state)
{
	static struct img m;

	(void)state;
	dwarf_sample(&m, false, 0, 2);
	put(&m, 48, UINT64_MAX - 0x40, 8);
	expect_open(&m, SF_PERF_EFORMAT, "data section (0xffffffffffffffbf bytes) runs past");
	dwarf_sample(&m, false, 0, 2);
	put(&m, 24, UINT64_MAX - 8, 8);
	expect_open(&m, SF_PERF_EFORMAT, "offset 0xfffffffffffffff7: attribute section");
}

static void test_bad_magic(void **state)
{
	static struct img m;

	(void)state;
	dwarf_sample(&m, false, 0, 2);
	memcpy(m.b, "PERFFILE", 8);
	expect_open(&m, SF_PERF_EFORMAT, "not a perf.data file");
}

/*
 * The feature bitmap is read from a 104-byte header; a 72-byte header (older
 * perf) has none; other sizes are refused.
 */
static void test_header_size(void **state)
{
	static struct img m;
	struct sf_perf_file f;
	char err[256];

	(void)state;
	dwarf_sample(&m, true, 0, 2);
	put(&m, 72, 0x40004, 8);
	put(&m, 96, 1ULL << 63, 8);
	assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
	assert_int_equal(f.header_size, 104);
	assert_int_equal(f.features[0], 0x40004);
	assert_int_equal(f.features[3], 1ULL << 63);
	sf_perf_close(&f);
	put(&m, 8, 72, 8);
	assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
	assert_int_equal(f.header_size, 72);
	assert_int_equal(f.features[0], 0);
	assert_int_equal(f.features[3], 0);
	sf_perf_close(&f);
	put(&m, 8, 200, 8);
	expect_open(&m, SF_PERF_EFORMAT, "offset 0x8: unexpected file header size 200");
}

static void test_attr_size(void **state)
{
	static struct img m;
	size_t attr = HDR + 8;	/* after the one id */

	(void)state;
	dwarf_sample(&m, false, 0, 2);
	put(&m, attr + 4, 40, 4);
	expect_open(&m, SF_PERF_EFORMAT,
		    "offset 0x74: event 0: attribute size 40 is below the smallest (64)");
	dwarf_sample(&m, true, 0, 2);
	put(&m, attr + 4, 120, 4);
	expect_open(&m, SF_PERF_EFORMAT,
		    "attribute size 120 does not fill the attribute entry (144 bytes)");
	dwarf_sample(&m, false, 0, 2);
	put(&m, 16, 40, 8);
	expect_open(&m, SF_PERF_EFORMAT, "attribute entry size 40 is below the smallest (80)");
}

static void test_ids_out_of_file(void **state)
{
	static struct img m;

	(void)state;
	dwarf_sample(&m, false, 0, 2);
	put(&m, HDR + 8 + ATTR_SZ + 8, 0x10000, 8);
	expect_open(&m, SF_PERF_EFORMAT, "offset 0x68: event ids (0x10000 bytes) runs past");
}

/* Record headers: past the data section, below 8 bytes, cut. */
static void test_record_sizes(void **state)
{
	static struct img m;
	struct sf_perf_file f;
	struct sf_perf_record rec;
	uint64_t pos = 0;
	char err[256], msg[128];

	(void)state;
	dwarf_sample(&m, false, 0, 2);
	put(&m, data_off(&m) + 6, m.len - data_off(&m) + 8, 2);
	assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
	assert_int_equal(sf_perf_next(&f, &pos, &rec, err, sizeof(err)), SF_PERF_EFORMAT);
	snprintf(msg, sizeof(msg), "offset 0x%" PRIx64 ": record type 9: size %" PRIu64
		 " runs past the data section (%" PRIu64 " bytes left)", data_off(&m),
		 (uint64_t)m.len - data_off(&m) + 8, (uint64_t)m.len - data_off(&m));
	assert_err(err, msg);
	assert_int_equal(pos, 0);
	sf_perf_close(&f);

	dwarf_sample(&m, false, 0, 2);
	put(&m, data_off(&m) + 6, 4, 2);
	assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
	assert_int_equal(sf_perf_next(&f, &pos, &rec, err, sizeof(err)), SF_PERF_EFORMAT);
	assert_err(err, "record type 9: size 4 is below the header's 8");
	sf_perf_close(&f);

	/* A data section ending 4 bytes into a second record's header. */
	dwarf_sample(&m, true, 0, 2);
	add(&m, 9, 4);
	set_data_size(&m);
	assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
	assert_int_equal(sf_perf_next(&f, &pos, &rec, err, sizeof(err)), 1);
	assert_int_equal(sf_perf_next(&f, &pos, &rec, err, sizeof(err)), SF_PERF_EFORMAT);
	assert_err(err, "record header (8 bytes) runs past the data section (4 bytes left)");
	sf_perf_close(&f);
}

static void test_comm_unterminated(void **state)
{
	static const struct ev ev = { .sample_type = SF_PERF_SAMPLE_TID, .sample_id_all = true };
	static struct img m;
	struct sf_perf_file f;
	struct sf_perf_record rec;
	struct sf_perf_comm c;
	char err[256];

	(void)state;
	begin(&m, false, &ev, 1);
	rec_begin(&m, SF_PERF_RECORD_COMM, 0);
	add(&m, 1, 4);
	add(&m, 1, 4);
	add_bytes(&m, "abcdefgh", 8);
	add(&m, 1, 4);
	add(&m, 1, 4);
	rec_end(&m);
	assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
	only_record(&f, &rec);
	assert_int_equal(sf_perf_decode_comm(&f, &rec, &c, err, sizeof(err)), SF_PERF_EFORMAT);
	assert_err(err, "COMM record: comm is not NUL-terminated within its 8 bytes");
	/* The trailer too large for the record: the pid/tid words are all there is. */
	put(&m, m.rec + 6, 16, 2);
	m.len = m.rec + 16;
	set_data_size(&m);
	sf_perf_close(&f);
	assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
	only_record(&f, &rec);
	assert_int_equal(sf_perf_decode_comm(&f, &rec, &c, err, sizeof(err)), SF_PERF_EFORMAT);
	assert_err(err, "COMM record: pid (1 x 4 bytes) runs past its end (0 bytes left)");
	sf_perf_close(&f);
}

/* An MMAP2 build id longer than its 20 bytes of room. */
static void test_build_id_size(void **state)
{
	static struct img m;
	struct sf_perf_file f;
	struct sf_perf_record rec;
	struct sf_perf_mmap mm;
	uint64_t pos = 0;
	char err[256], msg[64];

	(void)state;
	build_full(&m, false);
	assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
	next_is(&f, &pos, &rec, SF_PERF_RECORD_SAMPLE);
	next_is(&f, &pos, &rec, SF_PERF_RECORD_MMAP2);
	next_is(&f, &pos, &rec, SF_PERF_RECORD_MMAP2);
	sf_perf_close(&f);
	/* build_id_size: after header, pid/tid, addr, len and pgoff. */
	m.b[rec.offset + 40] = 21;
	assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
	pos = rec.offset - f.data_off;
	assert_int_equal(sf_perf_next(&f, &pos, &rec, err, sizeof(err)), 1);
	assert_int_equal(sf_perf_decode_mmap(&f, &rec, &mm, err, sizeof(err)), SF_PERF_EFORMAT);
	snprintf(msg, sizeof(msg), "offset 0x%" PRIx64 ": MMAP2 record: build id size 21 is above 20",
		 rec.offset + 40);
	assert_err(err, msg);
	sf_perf_close(&f);
}

/* Samples and trailers naming an id no event has, and events that carry no id. */
static void test_unknown_id(void **state)
{
	static struct img m;
	struct sf_perf_file f;
	struct sf_perf_record rec;
	struct sf_perf_sample s;
	struct sf_perf_mmap mm;
	struct ev two[2];
	char err[256];

	(void)state;
	build_full(&m, false);
	put(&m, data_off(&m) + 8, 44, 8);	/* the sample's IDENTIFIER */
	assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
	only_record(&f, &rec);
	assert_int_equal(sf_perf_decode_sample(&f, &rec, &s, err, sizeof(err)), SF_PERF_EFORMAT);
	assert_err(err, "event id 44 belongs to no event");
	sf_perf_close(&f);

	build_full(&m, true);
	put(&m, m.len - 8, 45, 8);		/* the last record's (MMAP) IDENTIFIER */
	assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
	{
		uint64_t pos = 0;
		unsigned i;

		for (i = 0; i < 9; i++)
			assert_int_equal(sf_perf_next(&f, &pos, &rec, err, sizeof(err)), 1);
	}
	assert_int_equal(sf_perf_decode_mmap(&f, &rec, &mm, err, sizeof(err)), SF_PERF_EFORMAT);
	assert_err(err, "event id 45 belongs to no event");
	sf_perf_close(&f);

	memcpy(two, two_events, sizeof(two));
	/* The id first (IDENTIFIER) in one, after the ip (ID) in the other. */
	two[1].sample_type = SF_PERF_SAMPLE_IP | SF_PERF_SAMPLE_ID;
	begin(&m, false, two, 2);
	expect_open(&m, SF_PERF_EFORMAT, "events 0 and 1 do not carry their ids at one place");
	two[0].sample_type = two[1].sample_type = SF_PERF_SAMPLE_IP;
	begin(&m, false, two, 2);
	expect_open(&m, SF_PERF_EFORMAT, "2 events whose samples carry no event id");
}

/*
 * Two events naming themselves by ID, not IDENTIFIER: in a sample after
 * IP and TID, in a trailer before STREAM_ID and CPU (third word from the
 * end).
 */
static void test_id_without_identifier(void **state)
{
	static const struct ev evs[2] = {
		{ .sample_type = SF_PERF_SAMPLE_IP | SF_PERF_SAMPLE_TID | SF_PERF_SAMPLE_ID |
				 SF_PERF_SAMPLE_STREAM_ID | SF_PERF_SAMPLE_CPU,
		  .sample_id_all = true, .ids = { 1, 2 }, .nids = 2 },
		{ .sample_type = SF_PERF_SAMPLE_IP | SF_PERF_SAMPLE_TID | SF_PERF_SAMPLE_ID |
				 SF_PERF_SAMPLE_STREAM_ID | SF_PERF_SAMPLE_CPU | SF_PERF_SAMPLE_PERIOD,
		  .sample_id_all = true, .ids = { 3 }, .nids = 1 },
	};
	static struct img m;
	struct sf_perf_file f;
	struct sf_perf_record rec;
	struct sf_perf_sample s;
	struct sf_perf_comm c;
	uint64_t pos = 0;
	char err[256];
	int be;

	(void)state;
	for (be = 0; be < 2; be++) {
		begin(&m, be, evs, 2);
		rec_begin(&m, SF_PERF_RECORD_SAMPLE, 2);
		add(&m, 0x1000, 8);
		add(&m, 5, 4);
		add(&m, 6, 4);
		add(&m, 3, 8);		/* ID: event 1, which has PERIOD */
		add(&m, 8, 8);
		add(&m, 1, 4);
		add(&m, 0, 4);
		add(&m, 4000, 8);
		rec_end(&m);
		rec_begin(&m, SF_PERF_RECORD_COMM, 0);
		add(&m, 5, 4);
		add(&m, 6, 4);
		add_string(&m, "x");
		add(&m, 5, 4);
		add(&m, 6, 4);
		add(&m, 3, 8);		/* id, stream_id, cpu */
		add(&m, 8, 8);
		add(&m, 1, 4);
		add(&m, 0, 4);
		rec_end(&m);
		assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
		pos = 0;
		assert_int_equal(sf_perf_next(&f, &pos, &rec, err, sizeof(err)), 1);
		assert_int_equal(sf_perf_decode_sample(&f, &rec, &s, err, sizeof(err)), 0);
		assert_ptr_equal(s.attr, &f.attrs[1]);
		assert_int_equal(s.period, 4000);
		assert_int_equal(s.sid.stream_id, 8);
		assert_int_equal(sf_perf_next(&f, &pos, &rec, err, sizeof(err)), 1);
		assert_int_equal(sf_perf_decode_comm(&f, &rec, &c, err, sizeof(err)), 0);
		assert_string_equal(c.comm, "x");
		assert_int_equal(c.sid.id, 3);
		assert_int_equal(c.sid.cpu, 1);
		sf_perf_close(&f);
	}
}

/* A sample of a kernel thread: ABI NONE, then no register words. */
static void test_regs_abi_none(void **state)
{
	static struct img m;
	struct sf_perf_file f;
	struct sf_perf_sample s;

	(void)state;
	begin(&m, false, &dwarf_event, 1);
	rec_begin(&m, SF_PERF_RECORD_SAMPLE, 1);
	add(&m, 0xffffffff81000000ULL, 8);
	add(&m, 0, 4);
	add(&m, 0, 4);
	add(&m, 0, 8);
	add(&m, SF_PERF_REGS_ABI_NONE, 8);
	add(&m, 0, 8);			/* no stack either: no dyn_size */
	rec_end(&m);
	decode_one_sample(&m, &f, &s);
	assert_int_equal(s.regs_abi, SF_PERF_REGS_ABI_NONE);
	assert_int_equal(s.nregs, 0);
	assert_int_equal(s.stack_size, 0);
	sf_perf_close(&f);
}

/* ---- The real file ---------------------------------------------------------- */

/*
 * fixtures/perf/loop.data (fixtures/make-perf-fixtures.sh). Every expected
 * value below is what "perf script -D -i loop.data" (perf 6.1) printed for
 * the record at that offset.
 */
static void test_fixture(void **state)
{
	struct sf_perf_file f;
	struct sf_perf_record rec;
	struct sf_perf_sample s;
	struct sf_perf_mmap mm;
	char path[4096], err[256];
	uint64_t pos = 0;
	unsigned n = 0, samples = 0, mmap2 = 0, seen = 0;
	size_t len;
	int ret;

	(void)state;
	assert_true((size_t)snprintf(path, sizeof(path), "%s/perf/loop.data", fixtures_dir) <
		    sizeof(path));
	ret = sf_perf_open(path, &f, err, sizeof(err));
	if (ret)
		fail_msg("%s", err);
	/*
	 * perf report --header-only: data offset 264, data size 58344, one
	 * event (id = { 211, 212 }, type = 1, size = 128) with the sample_type,
	 * read_format, sample_id_all, sample_regs_user and sample_stack_user
	 * checked below.
	 */
	assert_false(f.be);
	assert_int_equal(f.data_off, 264);
	assert_int_equal(f.data_size, 58344);
	assert_ptr_equal(sf_perf_attr_of_id(&f, 211), &f.attrs[0]);
	assert_ptr_equal(sf_perf_attr_of_id(&f, 212), &f.attrs[0]);
	assert_int_equal(f.attrs[0].type, 1);
	assert_int_equal(f.nattrs, 1);
	assert_int_equal(f.attrs[0].size, 128);
	assert_int_equal(f.attrs[0].sample_type,
			 SF_PERF_SAMPLE_IP | SF_PERF_SAMPLE_TID | SF_PERF_SAMPLE_TIME |
			 SF_PERF_SAMPLE_ADDR | SF_PERF_SAMPLE_CALLCHAIN | SF_PERF_SAMPLE_PERIOD |
			 SF_PERF_SAMPLE_REGS_USER | SF_PERF_SAMPLE_STACK_USER |
			 SF_PERF_SAMPLE_DATA_SRC);
	assert_int_equal(f.attrs[0].read_format, SF_PERF_FORMAT_ID | SF_PERF_FORMAT_LOST);
	assert_true(f.attrs[0].sample_id_all);
	assert_int_equal(f.attrs[0].sample_regs_user, 0xff0fff);
	assert_int_equal(f.attrs[0].sample_stack_user, 2048);
	assert_int_equal(f.nids, 2);

	while ((ret = sf_perf_next(&f, &pos, &rec, err, sizeof(err))) == 1) {
		n++;
		if (rec.type == SF_PERF_RECORD_SAMPLE) {
			samples++;
			assert_int_equal(sf_perf_decode_sample(&f, &rec, &s, err, sizeof(err)), 0);
		}
		if (rec.type == SF_PERF_RECORD_MMAP2) {
			mmap2++;
			assert_int_equal(sf_perf_decode_mmap(&f, &rec, &mm, err, sizeof(err)), 0);
		}
		if (rec.offset == 0xd18) {
			/* 25759535710862 0xd18 [0x8f8]: PERF_RECORD_SAMPLE(IP, 0x2): 27822/27822:
			 * 0x562a722951ee period: 10101010 addr: 0 */
			seen++;
			assert_int_equal(rec.size, 0x8f8);
			assert_int_equal(rec.misc, 2);
			assert_int_equal(s.sid.time, 25759535710862ULL);
			assert_int_equal(s.sid.pid, 27822);
			assert_int_equal(s.sid.tid, 27822);
			assert_int_equal(s.ip, 0x562a722951eeULL);
			assert_int_equal(s.period, 10101010);
			assert_int_equal(s.addr, 0);
			/* ... FP chain: nr:0; user regs: mask 0xff0fff ABI 64-bit */
			assert_int_equal(s.callchain_nr, 0);
			assert_int_equal(s.regs_abi, SF_PERF_REGS_ABI_64);
			assert_int_equal(s.nregs, 20);
			/* AX first; SP and IP the 8th and 9th (perf's order AX BX CX DX SI DI BP SP IP). */
			assert_int_equal(s.regs[0], 0x13628);
			assert_int_equal(s.regs[7], 0x7ffef7c39ab0ULL);
			assert_int_equal(s.regs[8], 0x562a722951eeULL);
			/* R15, the last. */
			assert_int_equal(s.regs[19], 0x7f5c53f35020ULL);
			/*
			 * ustack: size 2048, offset 0xe0. perf's offset is that of the
			 * size word (8 + 6 * 8 bytes of fields, 21 register words before
			 * it); the copy follows it. dyn_size: 0x800 in the raw dump at 0x8e8.
			 */
			assert_int_equal(s.stack_size, 2048);
			assert_ptr_equal(s.stack, rec.bytes + 0xe0 + 8);
			assert_int_equal(s.stack_dyn_size, 2048);
			/* data_src: 0x1e05080021 */
			assert_int_equal(s.data_src, 0x1e05080021ULL);
		}
		if (rec.offset == 0x278) {
			struct sf_perf_comm c;

			/* 25759525555519 0x278 [0x28]: PERF_RECORD_COMM exec: loop:27822/27822 */
			seen++;
			assert_int_equal(rec.type, SF_PERF_RECORD_COMM);
			assert_int_equal(sf_perf_decode_comm(&f, &rec, &c, err, sizeof(err)), 0);
			assert_string_equal(c.comm, "loop");
			assert_int_equal(c.pid, 27822);
			assert_int_equal(c.tid, 27822);
			assert_int_equal(c.sid.time, 25759525555519ULL);
			assert_int_equal(c.sid.present, SF_PERF_SAMPLE_TID | SF_PERF_SAMPLE_TIME);
		}
		if (rec.offset == 0x300) {
			/* 25759525582589 0x300 [0x70]: PERF_RECORD_MMAP2 27822/27822:
			 * [0x562a72294000(0x5000) @ 0 fe:00 10977676 1525979024]: r--p .../loop */
			seen++;
			/* r--p: PROT_READ, MAP_PRIVATE */
			check_mmap2(&mm, 27822, 27822, 0x562a72294000ULL, 0x5000, 0, 0xfe, 0,
				    10977676, 1525979024, 1, 2);
			len = strlen(mm.filename);
			assert_true(len >= 5 && !strcmp(mm.filename + len - 5, "/loop"));
			assert_int_equal(mm.sid.time, 25759525582589ULL);
		}
		if (rec.offset == 0xe4b8) {
			struct sf_perf_task t;

			/* 25759772490367 0xe4b8 [0x30]: PERF_RECORD_EXIT(27822:27822):(27821:27821) */
			seen++;
			assert_int_equal(rec.type, SF_PERF_RECORD_EXIT);
			assert_int_equal(sf_perf_decode_task(&f, &rec, &t, err, sizeof(err)), 0);
			check_task(&t, 27822, 27822, 27821, 27821);
			assert_int_equal(t.sid.time, 25759772490367ULL);
		}
	}
	if (ret)
		fail_msg("%s", err);
	/* perf script -D: 60 records, 24 samples, 24 MMAP2. */
	assert_int_equal(n, 60);
	assert_int_equal(samples, 24);
	assert_int_equal(mmap2, 24);
	assert_int_equal(seen, 4);
	sf_perf_close(&f);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_le),
		cmocka_unit_test(test_full_be),
		cmocka_unit_test(test_sample_ok_both_orders),
		cmocka_unit_test(test_regs_past_record),
		cmocka_unit_test(test_callchain_overflow),
		cmocka_unit_test(test_stack_dyn_size),
		cmocka_unit_test(test_stack_size_overflow),
		cmocka_unit_test(test_truncated_header),
		cmocka_unit_test(test_truncated_data),
		cmocka_unit_test(test_section_overflow),
		cmocka_unit_test(test_bad_magic),
		cmocka_unit_test(test_header_size),
		cmocka_unit_test(test_attr_size),
		cmocka_unit_test(test_ids_out_of_file),
		cmocka_unit_test(test_record_sizes),
		cmocka_unit_test(test_comm_unterminated),
		cmocka_unit_test(test_build_id_size),
		cmocka_unit_test(test_unknown_id),
		cmocka_unit_test(test_id_without_identifier),
		cmocka_unit_test(test_regs_abi_none),
		cmocka_unit_test(test_fixture),
	};

	if (argc < 2) {
		fprintf(stderr, "usage: %s FIXTURES_DIR\n", argv[0]);
		return 2;
	}
	fixtures_dir = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
