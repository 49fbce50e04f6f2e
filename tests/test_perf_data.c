/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * test_perf_data.c - the perf.data reader (src/tool/read/perf_data.c).
 *
 * Synthetic files are built field by field (perf_writer.c), in both byte orders, at
 * the offsets perf_event.h and perf's file format documentation give;
 * then real files, fixtures/perf/loop.data (and its pipe layout, and
 * events.data: two named events), are read and compared with what "perf
 * script -D" and "perf evlist -v" (perf 6.1) printed for them. Images go
 * through a temporary file (mkstemp in $TMPDIR or /tmp), removed as soon
 * as it is open.
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

#include "read/perf_data.h"
#include "perf_writer.h"

static const char *fixtures_dir;

/* ---- Building images -------------------------------------------------------- */

/* A HEADER_ATTR record of the pipe layout: the attribute, then the event's ids. */
static void add_attr_record(struct img *m, const struct ev *ev)
{
	unsigned k;

	rec_begin(m, SF_PERF_RECORD_HEADER_ATTR, 0);
	put_attr(m, m->len, ev);
	m->len = m->rec + 8 + ATTR_SZ;
	for (k = 0; k < ev->nids; k++)
		add(m, ev->ids[k], 8);
	rec_end(m);
}

/* The pipe layout's header (magic, its size 16), then a HEADER_ATTR record an event. */
static void begin_pipe(struct img *m, bool be, const struct ev *evs, unsigned nev)
{
	unsigned i;

	reset_img(m, be);
	m->pipe = true;
	add_bytes(m, be ? "2ELIFREP" : "PERFILE2", 8);
	add(m, 16, 8);
	for (i = 0; i < nev; i++)
		add_attr_record(m, &evs[i]);
}

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

/* The record number @n (from 0) of @f. */
static void pos_record(struct sf_perf_file *f, unsigned n, struct sf_perf_record *rec)
{
	char err[256];
	uint64_t pos = 0;
	unsigned i;

	for (i = 0; i <= n; i++)
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

/*
 * A build id record (of the pipe layout, or of the build id feature): pid,
 * 20 bytes of id, size byte, 3 reserved, then the padded name.
 */
static void add_build_id_rec(struct img *m, uint16_t misc, const char *id, uint8_t size,
			     const char *name)
{
	unsigned char bytes[24] = { 0 };

	memcpy(bytes, id, strlen(id));
	bytes[20] = size;
	rec_begin(m, SF_PERF_RECORD_HEADER_BUILD_ID, misc);
	add(m, (uint32_t)-1, 4);
	add_bytes(m, bytes, 24);
	add_string(m, name);
	rec_end(m);
}

/*
 * Two build ids: a user one whose size byte counts (misc 0x8002:
 * PERF_RECORD_MISC_BUILD_ID_SIZE and cpumode user), of 16 bytes, and a
 * kernel one (misc 1) without it, which has 20 bytes whatever that byte says.
 */
#define BID_USER "0123456789abcdef"
#define BID_KERNEL "kernel-build-id-of20"
static void add_build_ids(struct img *m)
{
	add_build_id_rec(m, 0x8002, BID_USER, 16, "/usr/bin/prog");
	add_build_id_rec(m, 1, BID_KERNEL, 7, "[kernel.kallsyms]");
}

/* A perf string as the ARCH feature holds it: u32 length (64), the NUL-padded name. */
static void add_arch(struct img *m, const char *arch)
{
	unsigned char name[64] = { 0 };

	memcpy(name, arch, strlen(arch));
	add(m, 64, 4);
	add_bytes(m, name, 64);
}

/*
 * The features: in the file layout, bits 2 (BUILD_ID) and 6 (ARCH) and
 * their table behind the data section, then their sections; in the pipe
 * layout, HEADER_BUILD_ID records (as perf inject -b adds them).
 */
static void add_file_features(struct img *m, const char *arch)
{
	size_t table = m->len, sec;
	uint64_t data_size = get(m, 48, 8);

	put(m, 72, (1u << 2) | (1u << 6), 8);
	m->len += 32;
	sec = m->len;
	add_build_ids(m);
	/* (rec_end() took the records for the data section's.) */
	put(m, 48, data_size, 8);
	put(m, table, sec, 8);
	put(m, table + 8, m->len - sec, 8);
	sec = m->len;
	add_arch(m, arch);
	put(m, table + 16, sec, 8);
	put(m, table + 24, m->len - sec, 8);
}

/* A HEADER_FEATURE record of the pipe layout for ARCH (6). */
static void add_arch_record(struct img *m, const char *arch)
{
	rec_begin(m, SF_PERF_RECORD_HEADER_FEATURE, 0);
	add(m, 6, 8);
	add_arch(m, arch);
	rec_end(m);
}

static void check_build_ids(const struct sf_perf_build_id *b, size_t n)
{
	assert_int_equal(n, 2);
	assert_int_equal(b[0].pid, -1);
	assert_int_equal(b[0].misc, 0x8002);
	assert_int_equal(b[0].size, 16);
	assert_memory_equal(b[0].id, BID_USER, 16);
	assert_string_equal(b[0].filename, "/usr/bin/prog");
	assert_int_equal(b[1].pid, -1);
	assert_int_equal(b[1].misc, 1);
	assert_int_equal(b[1].size, 20);
	assert_memory_equal(b[1].id, BID_KERNEL, 20);
	assert_string_equal(b[1].filename, "[kernel.kallsyms]");
}

/* The records of a full image of either layout. */
static void build_full(struct img *m, bool be, bool pipe)
{
	static const unsigned char raw[12] = "raw-data-12";
	const char *arch = be ? "s390x" : "x86_64";

	if (pipe) {
		begin_pipe(m, be, two_events, 2);
		add_arch_record(m, arch);
	} else {
		begin(m, be, two_events, 2);
	}
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
	if (pipe)
		add_build_ids(m);
	else
		add_file_features(m, arch);
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

static void check_full(bool be, bool pipe)
{
	static struct img m;
	struct sf_perf_file f;
	struct sf_perf_record rec;
	struct sf_perf_sample s;
	struct sf_perf_mmap mm;
	struct sf_perf_comm c;
	struct sf_perf_task t;
	struct sf_perf_lost l;
	struct sf_perf_build_id b[2];
	uint64_t pos = 0, start, data = 0;
	char err[256];

	build_full(&m, be, pipe);
	assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
	assert_int_equal(f.be, be);
	assert_int_equal(f.pipe, pipe);
	assert_false(f.unfinished);
	assert_int_equal(f.header_size, pipe ? 16 : 104);
	assert_string_equal(f.arch, be ? "s390x" : "x86_64");
	check_build_ids(f.build_ids, f.nbuild_ids);
	assert_int_equal(f.nattrs, 2);
	assert_int_equal(f.attrs[1].sample_type, T_ALL);
	assert_int_equal(f.attrs[1].sample_regs_user, 0x183);
	assert_int_equal(f.attrs[1].sample_stack_user, 32);
	assert_true(f.attrs[0].sample_id_all && f.attrs[1].sample_id_all);
	assert_ptr_equal(sf_perf_attr_of_id(&f, 7), &f.attrs[0]);
	assert_ptr_equal(sf_perf_attr_of_id(&f, 42), &f.attrs[1]);
	assert_ptr_equal(sf_perf_attr_of_id(&f, 43), &f.attrs[1]);
	assert_null(sf_perf_attr_of_id(&f, 8));
	if (pipe) {
		/* perf's own records are records of the pipe layout. */
		assert_int_equal(f.data_off, 16);
		assert_int_equal(f.data_size, m.len - 16);
		next_is(&f, &pos, &rec, SF_PERF_RECORD_HEADER_ATTR);
		assert_true(sf_perf_record_is_header(rec.type));
		next_is(&f, &pos, &rec, SF_PERF_RECORD_HEADER_ATTR);
		next_is(&f, &pos, &rec, SF_PERF_RECORD_HEADER_FEATURE);
	}
	start = pos;
	data = f.data_off + pos;

	/* The sample. */
	next_is(&f, &pos, &rec, SF_PERF_RECORD_SAMPLE);
	assert_false(sf_perf_record_is_header(rec.type));
	assert_int_equal(rec.misc, 2);
	assert_int_equal(rec.offset, data);
	assert_ptr_equal(rec.bytes, f.in.file + data);
	assert_int_equal(pos, start + rec.size);
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

	if (pipe) {
		next_is(&f, &pos, &rec, SF_PERF_RECORD_HEADER_BUILD_ID);
		assert_int_equal(sf_perf_decode_build_id(&f, &rec, &b[0], err, sizeof(err)), 0);
		next_is(&f, &pos, &rec, SF_PERF_RECORD_HEADER_BUILD_ID);
		assert_int_equal(sf_perf_decode_build_id(&f, &rec, &b[1], err, sizeof(err)), 0);
		check_build_ids(b, 2);
	}
	assert_int_equal(sf_perf_next(&f, &pos, &rec, err, sizeof(err)), 0);
	assert_int_equal(pos, f.data_size);
	sf_perf_close(&f);
}

static void test_full_le(void **state)
{
	(void)state;
	check_full(false, false);
}

static void test_full_be(void **state)
{
	(void)state;
	check_full(true, false);
}

static void test_pipe_both_orders(void **state)
{
	(void)state;
	check_full(false, true);
	check_full(true, true);
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
static void add_dwarf_sample(struct img *m, uint64_t nr, unsigned nregs);

static void dwarf_sample(struct img *m, bool be, uint64_t nr, unsigned nregs)
{
	begin(m, be, &dwarf_event, 1);
	add_dwarf_sample(m, nr, nregs);
}

/* A sample of dwarf_event: ip 0x1000, pid/tid 1, @nr (absent) callchain entries, @nregs. */
static void add_dwarf_sample(struct img *m, uint64_t nr, unsigned nregs)
{
	unsigned i;

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
 * perf) has none; other sizes are refused. Three bits set: three empty
 * sections in the table behind the data section.
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
	add_bytes(&m, (const unsigned char[48]){ 0 }, 48);
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
	build_full(&m, false, false);
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
	build_full(&m, false, false);
	put(&m, data_off(&m) + 8, 44, 8);	/* the sample's IDENTIFIER */
	assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
	only_record(&f, &rec);
	assert_int_equal(sf_perf_decode_sample(&f, &rec, &s, err, sizeof(err)), SF_PERF_EFORMAT);
	assert_err(err, "event id 44 belongs to no event");
	sf_perf_close(&f);

	build_full(&m, true, false);
	/* The last record's (MMAP) IDENTIFIER, at the data section's end. */
	put(&m, data_off(&m) + get(&m, 48, 8) - 8, 45, 8);
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
/* ---- Pipe layout, unfinished files, features, perf's own records ----------- */

/* The next record must be the end: 0, with @pos left at @end. */
static void expect_end(struct sf_perf_file *f, uint64_t *pos, uint64_t end)
{
	struct sf_perf_record rec;
	char err[256];

	assert_int_equal(sf_perf_next(f, pos, &rec, err, sizeof(err)), 0);
	assert_int_equal(*pos, end);
}

/*
 * A file-layout header with data size 0 (perf record killed before it
 * rewrote it), a feature bitmap but no table (perf writes the bitmap first):
 * the records run to the end of the file, the bitmap is dropped, and a
 * record cut short at the end (here its header, or its first 12 bytes)
 * ends them with pos left before it.
 */
static void test_unfinished(void **state)
{
	static struct img m;
	struct sf_perf_file f;
	struct sf_perf_record rec;
	uint64_t pos = 0, size;
	char err[256];
	unsigned be, cut;

	(void)state;
	for (be = 0; be < 2; be++)
		for (cut = 0; cut < 3; cut++) {
			dwarf_sample(&m, be, 0, 2);
			size = m.len - data_off(&m);
			put(&m, 48, 0, 8);
			put(&m, 72, (1u << 2) | (1u << 6), 8);
			/* A second sample, whole (cut 0) or cut to 4 or 12 bytes. */
			add_bytes(&m, m.b + data_off(&m), cut == 0 ? size : cut == 1 ? 4 : 12);
			assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
			assert_true(f.unfinished);
			assert_false(f.pipe);
			assert_int_equal(f.data_size, m.len - data_off(&m));
			assert_int_equal(f.features[0], 0);
			assert_null(f.arch);
			pos = 0;
			next_is(&f, &pos, &rec, SF_PERF_RECORD_SAMPLE);
			if (cut == 0)
				next_is(&f, &pos, &rec, SF_PERF_RECORD_SAMPLE);
			expect_end(&f, &pos, cut == 0 ? f.data_size : size);
			sf_perf_close(&f);
		}
	/* With its data size, the same cut record is an error. */
	put(&m, 48, m.len - data_off(&m), 8);
	assert_int_equal(open_img(&m, &f, err, sizeof(err)), SF_PERF_EFORMAT);
	assert_err(err, "feature table");
	put(&m, 72, 0, 8);
	assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
	pos = size;
	assert_int_equal(sf_perf_next(&f, &pos, &rec, err, sizeof(err)), SF_PERF_EFORMAT);
	assert_err(err, "runs past the data section");
	sf_perf_close(&f);
}

/* A pipe stream cut in a record's header or body ends with the last whole record. */
static void test_pipe_cut(void **state)
{
	static struct img m;
	struct sf_perf_file f;
	struct sf_perf_record rec;
	uint64_t pos, whole;
	char err[256];
	unsigned be, cut;

	(void)state;
	for (be = 0; be < 2; be++)
		for (cut = 1; cut < 40; cut += 11) {
			begin_pipe(&m, be, &dwarf_event, 1);
			add_dwarf_sample(&m, 0, 2);
			whole = m.len - 16;
			add_dwarf_sample(&m, 0, 2);
			m.len = 16 + whole + cut;
			assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
			assert_true(f.pipe);
			assert_int_equal(f.data_size, whole + cut);
			pos = 0;
			next_is(&f, &pos, &rec, SF_PERF_RECORD_HEADER_ATTR);
			next_is(&f, &pos, &rec, SF_PERF_RECORD_SAMPLE);
			expect_end(&f, &pos, whole);
			sf_perf_close(&f);
		}
}

/* A HEADER_ATTR record after a sample of its event: the event is known at open. */
static void test_pipe_late_attr(void **state)
{
	static const struct ev evs[2] = {
		{ .sample_type = SF_PERF_SAMPLE_IDENTIFIER | SF_PERF_SAMPLE_IP,
		  .ids = { 7 }, .nids = 1 },
		{ .sample_type = SF_PERF_SAMPLE_IDENTIFIER | SF_PERF_SAMPLE_IP |
				 SF_PERF_SAMPLE_PERIOD,
		  .ids = { 9, 10 }, .nids = 2 },
	};
	static struct img m;
	struct sf_perf_file f;
	struct sf_perf_record rec;
	struct sf_perf_sample smp;
	char err[256];

	(void)state;
	begin_pipe(&m, true, evs, 1);
	rec_begin(&m, SF_PERF_RECORD_SAMPLE, 2);
	add(&m, 10, 8);
	add(&m, 0x4000, 8);
	add(&m, 123, 8);
	rec_end(&m);
	add_attr_record(&m, &evs[1]);
	assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
	assert_int_equal(f.nattrs, 2);
	assert_int_equal(f.nids, 3);
	assert_int_equal(f.attrs[1].sample_type, evs[1].sample_type);
	assert_int_equal(f.attrs[1].attr_off, m.rec + 8);
	assert_int_equal(f.attrs[1].ids_off, m.rec + 8 + ATTR_SZ);
	assert_ptr_equal(sf_perf_attr_of_id(&f, 7), &f.attrs[0]);
	assert_ptr_equal(sf_perf_attr_of_id(&f, 10), &f.attrs[1]);
	pos_record(&f, 1, &rec);
	assert_int_equal(sf_perf_decode_sample(&f, &rec, &smp, err, sizeof(err)), 0);
	assert_ptr_equal(smp.attr, &f.attrs[1]);
	assert_int_equal(smp.ip, 0x4000);
	assert_int_equal(smp.period, 123);
	sf_perf_close(&f);
}

/* Pipe layouts that do not open. */
static void test_pipe_errors(void **state)
{
	static struct img m;
	char msg[128];

	(void)state;
	/* No HEADER_ATTR record at all. */
	begin_pipe(&m, false, &dwarf_event, 0);
	expect_open(&m, SF_PERF_EFORMAT, "offset 0x10: no event attributes (no HEADER_ATTR");
	/* The pipe header itself cut short. */
	m.len = 12;
	expect_open(&m, SF_PERF_EFORMAT, "offset 0x0: file header truncated (0xc bytes, at least 0x10");
	/* An attribute that does not fit its record, or leaves part of an id. */
	begin_pipe(&m, true, &dwarf_event, 1);
	put(&m, 16 + 8 + 4, ATTR_SZ + 16, 4);
	expect_open(&m, SF_PERF_EFORMAT,
		    "offset 0x1c: HEADER_ATTR record: attribute size 144 does not leave whole ids"
		    " in the record's 136 bytes");
	begin_pipe(&m, false, &dwarf_event, 1);
	put(&m, 16 + 8 + 4, ATTR_SZ - 4, 4);
	expect_open(&m, SF_PERF_EFORMAT, "attribute size 124 does not leave whole ids");
	put(&m, 16 + 8 + 4, 40, 4);
	expect_open(&m, SF_PERF_EFORMAT, "offset 0x1c: event 0: attribute size 40 is below");
	/* A record too small for an attribute. */
	begin_pipe(&m, false, &dwarf_event, 0);
	rec_begin(&m, SF_PERF_RECORD_HEADER_ATTR, 0);
	add(&m, 0, 8);
	rec_end(&m);
	expect_open(&m, SF_PERF_EFORMAT,
		    "offset 0x10: HEADER_ATTR record: size 16 cannot hold an attribute");
	/* A HEADER_FEATURE record without its feature id. */
	begin_pipe(&m, false, &dwarf_event, 1);
	rec_begin(&m, SF_PERF_RECORD_HEADER_FEATURE, 0);
	add(&m, 6, 4);
	rec_end(&m);
	snprintf(msg, sizeof(msg), "offset 0x%zx: HEADER_FEATURE record: size 12 cannot hold",
		 m.rec);
	expect_open(&m, SF_PERF_EFORMAT, msg);
	/* An ARCH feature whose string runs past its record. */
	begin_pipe(&m, true, &dwarf_event, 1);
	add_arch_record(&m, "aarch64");
	put(&m, m.rec + 16, 65, 4);
	snprintf(msg, sizeof(msg), "offset 0x%zx: arch feature: string length 65 runs past the"
		 " section (64 bytes left)", m.rec + 16);
	expect_open(&m, SF_PERF_EFORMAT, msg);
	/* A build id record whose name is not terminated. */
	begin_pipe(&m, false, &dwarf_event, 1);
	add_build_id_rec(&m, 2, "id", 0, "1234567");
	m.b[m.len - 1] = 'x';
	snprintf(msg, sizeof(msg), "offset 0x%zx: build id record: filename is not NUL-terminated",
		 m.rec + 36);
	expect_open(&m, SF_PERF_EFORMAT, msg);
}

/* The table offset of build_full()'s file-layout image: behind the data section. */
static size_t feature_table(const struct img *m)
{
	return (size_t)(data_off(m) + get(m, 48, 8));
}

/* Feature tables and sections that do not fit or do not decode. */
static void test_feature_errors(void **state)
{
	static struct img m;
	size_t t, sec;
	char msg[160];

	(void)state;
	/* The table cut short. */
	build_full(&m, false, false);
	t = feature_table(&m);
	m.len = t + 20;
	snprintf(msg, sizeof(msg), "offset 0x%zx: feature table (0x20 bytes) runs past the end of"
		 " the file (0x%zx bytes)", t, t + 20);
	expect_open(&m, SF_PERF_EFORMAT, msg);
	/* A section's offset + size wraps, and one that starts past the end. */
	build_full(&m, true, false);
	t = feature_table(&m);
	put(&m, t + 8, UINT64_MAX - 8, 8);
	snprintf(msg, sizeof(msg), "offset 0x%zx: feature 2: section at 0x%zx (0xfffffffffffffff7"
		 " bytes) runs past the end of the file", t, (size_t)get(&m, t, 8));
	expect_open(&m, SF_PERF_EFORMAT, msg);
	build_full(&m, false, false);
	t = feature_table(&m);
	put(&m, t + 16, UINT64_MAX, 8);
	put(&m, t + 24, 0, 8);
	snprintf(msg, sizeof(msg), "offset 0x%zx: feature 6: section at 0xffffffffffffffff", t + 16);
	expect_open(&m, SF_PERF_EFORMAT, msg);
	/* The ARCH string: length past its section, no NUL, no room for the length. */
	build_full(&m, false, false);
	t = feature_table(&m);
	sec = (size_t)get(&m, t + 16, 8);
	put(&m, sec, 65, 4);
	expect_open(&m, SF_PERF_EFORMAT, "arch feature: string length 65 runs past the section");
	put(&m, sec, 6, 4);
	expect_open(&m, SF_PERF_EFORMAT, "arch feature: string is not NUL-terminated within its 6");
	put(&m, t + 24, 3, 8);
	expect_open(&m, SF_PERF_EFORMAT, "arch feature: 3 bytes cannot hold a string length");
	/* A build id record of size 0, one past the section, one with a size above 20. */
	build_full(&m, true, false);
	t = feature_table(&m);
	sec = (size_t)get(&m, t, 8);
	put(&m, sec + 6, 0, 2);
	snprintf(msg, sizeof(msg), "offset 0x%zx: build id feature: record size 0 is below 8", sec);
	expect_open(&m, SF_PERF_EFORMAT, msg);
	put(&m, sec + 6, 0x1000, 2);
	expect_open(&m, SF_PERF_EFORMAT, "record size 4096 is below 8 or runs past the section");
	build_full(&m, true, false);
	sec = (size_t)get(&m, feature_table(&m), 8);
	m.b[sec + 32] = 21;
	snprintf(msg, sizeof(msg), "offset 0x%zx: build id record: build id size 21 is above 20",
		 sec + 32);
	expect_open(&m, SF_PERF_EFORMAT, msg);
	/* The section size cuts the second record's header (the first: 36 + 16 bytes). */
	build_full(&m, true, false);
	t = feature_table(&m);
	put(&m, t + 8, 52 + 4, 8);
	snprintf(msg, sizeof(msg), "offset 0x%zx: build id feature: record header (8 bytes) runs"
		 " past the section (4 bytes left)", (size_t)get(&m, t, 8) + 52);
	expect_open(&m, SF_PERF_EFORMAT, msg);
}

/*
 * perf's own records: a COMPRESSED one is refused when met (not at open),
 * tracing data and AUXTRACE data behind their records are skipped with
 * them, and their size must fit.
 */
static void test_own_records(void **state)
{
	static struct img m;
	struct sf_perf_file f;
	struct sf_perf_record rec;
	uint64_t pos = 0;
	char err[256], msg[128];
	unsigned pipe, wrap;

	(void)state;
	for (pipe = 0; pipe < 2; pipe++) {
		if (pipe)
			begin_pipe(&m, true, &dwarf_event, 1);
		else
			begin(&m, true, &dwarf_event, 1);
		rec_begin(&m, SF_PERF_RECORD_HEADER_TRACING_DATA, 0);
		add(&m, 24, 4);
		add(&m, 0, 4);
		rec_end(&m);
		add_bytes(&m, "tracing data: 24 bytes..", 24);
		rec_begin(&m, SF_PERF_RECORD_AUXTRACE, 0);
		add(&m, 8, 8);
		add_bytes(&m, (const unsigned char[32]){ 0 }, 32);
		rec_end(&m);
		add(&m, 0x1122334455667788ULL, 8);
		rec_begin(&m, SF_PERF_RECORD_FINISHED_ROUND, 0);
		rec_end(&m);
		rec_begin(&m, SF_PERF_RECORD_COMPRESSED, 0);
		add(&m, 0, 8);
		rec_end(&m);
		set_data_size(&m);
		assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
		pos = 0;
		if (pipe)
			next_is(&f, &pos, &rec, SF_PERF_RECORD_HEADER_ATTR);
		next_is(&f, &pos, &rec, SF_PERF_RECORD_HEADER_TRACING_DATA);
		assert_int_equal(rec.payload_size, 24);
		assert_memory_equal(rec.payload, "tracing data: 24 bytes..", 24);
		next_is(&f, &pos, &rec, SF_PERF_RECORD_AUXTRACE);
		assert_int_equal(rec.payload_size, 8);
		assert_ptr_equal(rec.payload, rec.bytes + 48);
		next_is(&f, &pos, &rec, SF_PERF_RECORD_FINISHED_ROUND);
		assert_null(rec.payload);
		assert_int_equal(rec.payload_size, 0);
		assert_int_equal(sf_perf_next(&f, &pos, &rec, err, sizeof(err)),
				 SF_PERF_EUNSUPPORTED);
		snprintf(msg, sizeof(msg), "offset 0x%" PRIx64 ": compressed records (perf record -z)"
			 " are not supported", f.data_off + pos);
		assert_err(err, msg);
		sf_perf_close(&f);
	}
	/*
	 * Data past the end: an error in the file layout (also for a size
	 * that would wrap the position), the end of a pipe.
	 */
	for (wrap = 0; wrap < 2; wrap++) {
		begin(&m, false, &dwarf_event, 1);
		rec_begin(&m, SF_PERF_RECORD_AUXTRACE, 0);
		add(&m, wrap ? UINT64_MAX - 8 : 0x100, 8);
		rec_end(&m);
		add(&m, 0, 8);
		set_data_size(&m);
		assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
		pos = 0;
		assert_int_equal(sf_perf_next(&f, &pos, &rec, err, sizeof(err)), SF_PERF_EFORMAT);
		snprintf(msg, sizeof(msg), "offset 0x%" PRIx64 ": record type 71: its 0x%s bytes of"
			 " data run past the data section (8 bytes left)", f.data_off,
			 wrap ? "fffffffffffffff7" : "100");
		assert_err(err, msg);
		assert_int_equal(pos, 0);
		sf_perf_close(&f);
	}
	begin_pipe(&m, false, &dwarf_event, 1);
	rec_begin(&m, SF_PERF_RECORD_AUXTRACE, 0);
	add(&m, 0x100, 8);
	rec_end(&m);
	add(&m, 0, 8);
	assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
	pos = 0;
	next_is(&f, &pos, &rec, SF_PERF_RECORD_HEADER_ATTR);
	expect_end(&f, &pos, m.len - 16 - 8 - 16);
	sf_perf_close(&f);
	/* A TRACING_DATA record too short for its size field. */
	begin(&m, false, &dwarf_event, 1);
	rec_begin(&m, SF_PERF_RECORD_HEADER_TRACING_DATA, 0);
	rec_end(&m);
	assert_int_equal(open_img(&m, &f, err, sizeof(err)), 0);
	pos = 0;
	assert_int_equal(sf_perf_next(&f, &pos, &rec, err, sizeof(err)), SF_PERF_EFORMAT);
	assert_err(err, "record type 66: size 8 cannot hold its data size");
	sf_perf_close(&f);
}

/* The same bytes opened in memory: the same reading, the caller's bytes kept. */
static void test_open_bytes(void **state)
{
	static struct img m;
	struct sf_perf_file f;
	struct sf_perf_record rec;
	uint64_t pos = 0;
	unsigned char *bytes;
	char err[256];

	(void)state;
	build_full(&m, true, true);
	bytes = malloc(m.len);
	assert_non_null(bytes);
	memcpy(bytes, m.b, m.len);
	assert_int_equal(sf_perf_open_bytes(bytes, m.len, "image", &f, err, sizeof(err)), 0);
	assert_ptr_equal(f.in.file, bytes);
	assert_true(f.pipe && f.be && f.borrowed);
	assert_int_equal(f.nattrs, 2);
	assert_string_equal(f.arch, "s390x");
	check_build_ids(f.build_ids, f.nbuild_ids);
	next_is(&f, &pos, &rec, SF_PERF_RECORD_HEADER_ATTR);
	assert_ptr_equal(rec.bytes, bytes + 16);
	/* Closing leaves the bytes to their owner (a second free would abort). */
	sf_perf_close(&f);
	assert_null(f.in.file);
	assert_false(f.borrowed);
	memcpy(bytes, "PERFFILE", 8);
	assert_int_equal(sf_perf_open_bytes(bytes, m.len, "image", &f, err, sizeof(err)),
			 SF_PERF_EFORMAT);
	free(bytes);
	assert_string_equal(err, "image: offset 0x0: not a perf.data file (no PERFILE2 magic)");
	assert_null(f.in.file);
}

/* Open fixtures/perf/@name (the path must outlive @f). */
static void open_fixture(const char *name, char *path, size_t size, struct sf_perf_file *f)
{
	char err[256];

	assert_true((size_t)snprintf(path, size, "%s/perf/%s", fixtures_dir, name) < size);
	if (sf_perf_open(path, f, err, sizeof(err)))
		fail_msg("%s", err);
}

/* A build id as 40 hex digits, as perf buildid-list prints it. */
static void check_build_id(const struct sf_perf_build_id *b, const char *hex, const char *name)
{
	char got[2 * SF_PERF_BUILD_ID_MAX + 1];
	unsigned i;

	assert_int_equal(b->size, 20);
	for (i = 0; i < b->size; i++)
		snprintf(got + 2 * i, 3, "%02x", b->id[i]);
	assert_string_equal(got, hex);
	assert_string_equal(b->filename, name);
}

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
	open_fixture("loop.data", path, sizeof(path), &f);
	/*
	 * perf buildid-list -i loop.data:
	 *   cad013119ae42b653e8e55fb086d12fcbf33f030 /tmp/perf-fixture/loop
	 *   a599807156a2a62fe956a82e388aeeabc874119c [vdso]
	 * perf report --header-only: "# arch : x86_64".
	 */
	assert_false(f.pipe);
	assert_false(f.unfinished);
	assert_string_equal(f.arch, "x86_64");
	assert_int_equal(f.nbuild_ids, 2);
	check_build_id(&f.build_ids[0], "cad013119ae42b653e8e55fb086d12fcbf33f030",
		       "/tmp/perf-fixture/loop");
	check_build_id(&f.build_ids[1], "a599807156a2a62fe956a82e388aeeabc874119c", "[vdso]");
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

/*
 * fixtures/perf/loop-pipe.data, the pipe layout, against perf 6.1:
 *   perf report --header-only: "# arch : x86_64", one event (id = { 337,
 *	338 }, type = 1, size = 128, sample_type = IP|TID|TIME|ADDR|
 *	CALLCHAIN|ID|PERIOD|REGS_USER|STACK_USER|DATA_SRC, sample_id_all,
 *	sample_regs_user = 0xff0fff, sample_stack_user = 1024);
 *   perf buildid-list -i: cad013119ae42b653e8e55fb086d12fcbf33f030
 *	/tmp/perf-fixture/loop (from the HEADER_BUILD_ID record that perf
 *	inject -b added: perf script -D shows "0x2494@pipe [0x64]: event: 67",
 *	pipe offsets counting from the end of the 16-byte header);
 *   perf script -D: the records by type counted below, the last one at
 *	0x9d60@pipe [0x38], and the first sample:
 *	"31660467200806 0x24f8 [0x500]: PERF_RECORD_SAMPLE(IP, 0x2):
 *	8571/8571: 0x564ad80141ee period: 10101010 addr: 0".
 */
static void test_pipe_fixture(void **state)
{
	static const struct {
		uint32_t type;
		unsigned n;
	} want[] = {
		{ 1, 1 }, { 3, 3 }, { 4, 1 }, { 9, 24 }, { 10, 49 }, { 64, 1 }, { 67, 1 },
		{ 68, 2 }, { 69, 1 }, { 73, 1 }, { 74, 1 }, { 78, 3 }, { 80, 19 }, { 82, 1 },
	};
	unsigned count[128] = { 0 }, i;
	struct sf_perf_file f;
	struct sf_perf_record rec;
	struct sf_perf_sample s;
	char path[4096], err[256];
	uint64_t pos = 0, first = 0;
	int ret;

	(void)state;
	open_fixture("loop-pipe.data", path, sizeof(path), &f);
	assert_true(f.pipe);
	assert_false(f.be);
	assert_int_equal(f.header_size, 16);
	assert_int_equal(f.data_off, 16);
	assert_int_equal(f.data_size, 0x9d60 + 0x38);
	assert_string_equal(f.arch, "x86_64");
	assert_int_equal(f.nattrs, 1);
	assert_int_equal(f.nids, 2);
	assert_ptr_equal(sf_perf_attr_of_id(&f, 337), &f.attrs[0]);
	assert_ptr_equal(sf_perf_attr_of_id(&f, 338), &f.attrs[0]);
	assert_int_equal(f.attrs[0].type, 1);
	assert_int_equal(f.attrs[0].size, 128);
	assert_int_equal(f.attrs[0].sample_type,
			 SF_PERF_SAMPLE_IP | SF_PERF_SAMPLE_TID | SF_PERF_SAMPLE_TIME |
			 SF_PERF_SAMPLE_ADDR | SF_PERF_SAMPLE_CALLCHAIN | SF_PERF_SAMPLE_ID |
			 SF_PERF_SAMPLE_PERIOD | SF_PERF_SAMPLE_REGS_USER |
			 SF_PERF_SAMPLE_STACK_USER | SF_PERF_SAMPLE_DATA_SRC);
	assert_true(f.attrs[0].sample_id_all);
	assert_int_equal(f.attrs[0].sample_regs_user, 0xff0fff);
	assert_int_equal(f.attrs[0].sample_stack_user, 1024);
	assert_int_equal(f.nbuild_ids, 1);
	assert_int_equal(f.build_ids[0].offset, 0x2494 + 16);
	assert_int_equal(f.build_ids[0].pid, -1);
	check_build_id(&f.build_ids[0], "cad013119ae42b653e8e55fb086d12fcbf33f030",
		       "/tmp/perf-fixture/loop");

	while ((ret = sf_perf_next(&f, &pos, &rec, err, sizeof(err))) == 1) {
		count[rec.type < 128 ? rec.type : 127]++;
		assert_int_equal(sf_perf_record_is_header(rec.type), rec.type >= 64);
		if (rec.type != SF_PERF_RECORD_SAMPLE)
			continue;
		assert_int_equal(sf_perf_decode_sample(&f, &rec, &s, err, sizeof(err)), 0);
		assert_int_equal(s.sid.pid, 8571);
		if (first++)
			continue;
		assert_int_equal(rec.offset, 0x24f8 + 16);
		assert_int_equal(rec.size, 0x500);
		assert_int_equal(s.sid.time, 31660467200806ULL);
		assert_int_equal(s.sid.tid, 8571);
		assert_int_equal(s.ip, 0x564ad80141eeULL);
		assert_int_equal(s.period, 10101010);
		assert_int_equal(s.stack_size, 1024);
	}
	if (ret)
		fail_msg("%s", err);
	assert_int_equal(pos, f.data_size);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(count[want[i].type], want[i].n);
		count[want[i].type] = 0;
	}
	for (i = 0; i < 128; i++)
		assert_int_equal(count[i], 0);
	sf_perf_close(&f);
}

/*
 * fixtures/perf/events.data and its pipe layout: two events with a fixed
 * period (perf evlist -v: cpu-clock:u and task-clock, sample_period
 * 5000000, no PERIOD in sample_type), named by the EVENT_DESC feature;
 * the MMAP records perf synthesized carry event id 0 in their trailers
 * (perf script -D) and belong to the first event. Then a copy with the
 * feature's first name made longer than the feature: an error at its
 * offset.
 */
static void test_events_fixture(void **state)
{
	static const char *const names[] = { "events.data", "events-pipe.data" };
	struct sf_perf_file f;
	struct sf_perf_record rec;
	struct sf_perf_sample s;
	struct sf_perf_mmap mm;
	char path[4096], err[256], want[256];
	unsigned char *copy;
	unsigned i, samples, mmaps, per[2];
	uint64_t pos, off;
	size_t size;
	int ret;

	(void)state;
	for (i = 0; i < 2; i++) {
		open_fixture(names[i], path, sizeof(path), &f);
		assert_int_equal(f.pipe, i == 1);
		assert_int_equal(f.nattrs, 2);
		assert_string_equal(f.attrs[0].name, "cpu-clock:u");
		assert_string_equal(f.attrs[1].name, "task-clock");
		assert_int_equal(f.attrs[0].sample_period, 5000000);
		assert_int_equal(f.attrs[1].sample_period, 5000000);
		assert_false(f.attrs[0].freq || f.attrs[1].freq);
		assert_ptr_equal(sf_perf_attr_of_id(&f, 0), &f.attrs[0]);
		pos = 0;
		samples = mmaps = per[0] = per[1] = 0;
		while ((ret = sf_perf_next(&f, &pos, &rec, err, sizeof(err))) == 1) {
			if (rec.type == SF_PERF_RECORD_MMAP || rec.type == SF_PERF_RECORD_MMAP2) {
				if (sf_perf_decode_mmap(&f, &rec, &mm, err, sizeof(err)))
					fail_msg("%s", err);
				mmaps++;
			}
			if (rec.type != SF_PERF_RECORD_SAMPLE)
				continue;
			if (sf_perf_decode_sample(&f, &rec, &s, err, sizeof(err)))
				fail_msg("%s", err);
			assert_int_equal(s.period, 5000000);
			per[s.attr - f.attrs]++;
			samples++;
		}
		if (ret)
			fail_msg("%s", err);
		/* perf script: 66 samples, 33 of each event; 25 MMAP and MMAP2 records. */
		assert_int_equal(samples, 66);
		assert_int_equal(per[0], 33);
		assert_int_equal(per[1], 33);
		assert_int_equal(mmaps, 25);
		size = f.in.file_size;
		copy = malloc(size);
		assert_non_null(copy);
		memcpy(copy, f.in.file, size);
		/* Past the count, the attribute size, the first attribute and its id count. */
		off = f.event_desc_off + 8 + f.attrs[0].size + 4;
		assert_true(f.event_desc_size > 8 + f.attrs[0].size + 8);
		sf_perf_close(&f);
		copy[off + 3] = 0x7f;	/* the top byte of a little-endian u32 */
		assert_int_equal(sf_perf_open_bytes(copy, size, "image", &f, err, sizeof(err)),
				 SF_PERF_EFORMAT);
		snprintf(want, sizeof(want), "image: offset 0x%" PRIx64 ": event desc feature: "
			 "event 0: name of %u bytes runs past the section or is not "
			 "NUL-terminated", off, (unsigned)copy[off] | (unsigned)copy[off + 1] << 8 |
			 (unsigned)copy[off + 2] << 16 | (unsigned)copy[off + 3] << 24);
		assert_string_equal(err, want);
		free(copy);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_le),
		cmocka_unit_test(test_full_be),
		cmocka_unit_test(test_pipe_both_orders),
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
		cmocka_unit_test(test_unfinished),
		cmocka_unit_test(test_pipe_cut),
		cmocka_unit_test(test_pipe_late_attr),
		cmocka_unit_test(test_pipe_errors),
		cmocka_unit_test(test_feature_errors),
		cmocka_unit_test(test_own_records),
		cmocka_unit_test(test_open_bytes),
		cmocka_unit_test(test_fixture),
		cmocka_unit_test(test_pipe_fixture),
		cmocka_unit_test(test_events_fixture),
	};

	if (argc < 2) {
		fprintf(stderr, "usage: %s FIXTURES_DIR\n", argv[0]);
		return 2;
	}
	fixtures_dir = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
