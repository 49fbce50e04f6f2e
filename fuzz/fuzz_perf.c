/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * fuzz_perf.c - the tool's perf.data reader (src/tool/read/perf_data.c): both
 * layouts, the event attributes and ids, the features (arch, build ids),
 * the records and every record decoder.
 *
 * Input: a perf.data file, opened in memory (sf_perf_open_bytes()) from an
 * allocation of exactly its size, so that a read past its end is the
 * sanitizer's to see. Asserts:
 *   - the open gives 0 or "not a valid perf.data file" (no I/O error, and
 *     no out-of-memory: every count is bounded by the input's size), with
 *     a message on failure and an all-zero struct sf_perf_file;
 *   - on success: the data section, the attributes' ids, the arch string
 *     and every build id (bytes and NUL-terminated name) lie inside the
 *     input; at least one event; ids sorted and each naming an event;
 *   - the iteration gives each record inside the data section (payload
 *     included), moves on by at least a record header, and ends with 0, or
 *     with a format error or an unsupported (compressed) record, with a
 *     message; at its end in the file layout it stopped exactly at the data
 *     section's end unless the header's data size was 0;
 *   - every decoder, run on every record whatever its type, gives 0 or a
 *     format error with a message; on success what it hands out lies inside
 *     the record (callchain, raw data, stack copy, strings NUL-terminated
 *     there, build ids), and the counts agree with the event's attributes.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_assert.h"
#include "fuzz_input.h"
#include "fuzz_target.h"
#include "read/perf_data.h"

/* What a failed open and a close leave (memset: padding included). */
static const struct sf_perf_file zero_file;

/* [p, p + n) lies inside [lo, lo + len). */
static bool inside(const void *p, uint64_t n, const void *lo, uint64_t len)
{
	const uint8_t *q = p, *b = lo;

	return q >= b && q <= b + len && n <= (uint64_t)(b + len - q);
}

/* A string inside [lo, lo + len), terminated there (memchr reads only inside). */
static void check_string(const char *s, const void *lo, uint64_t len)
{
	FZ_ASSERT(s && inside(s, 1, lo, len));
	FZ_ASSERT(memchr(s, '\0', (size_t)((const char *)lo + len - s)) != NULL);
}

static void check_build_id(const struct sf_perf_build_id *b, const void *lo, uint64_t len)
{
	FZ_ASSERT(b->size <= SF_PERF_BUILD_ID_MAX);
	FZ_ASSERT(inside(b->id, SF_PERF_BUILD_ID_MAX, lo, len));
	check_string(b->filename, lo, len);
}

/* The sum of a range of u64s read with the reader's own helper (ASan sees every read). */
static uint64_t sum_u64s(const struct sf_perf_file *f, const unsigned char *p, uint64_t n)
{
	uint64_t s = 0, i;

	for (i = 0; i < n; i++)
		s += sf_perf_u64(f, p + 8 * i);
	return s;
}

static void check_sample(const struct sf_perf_file *f, const struct sf_perf_record *rec)
{
	struct sf_perf_sample s;
	char err[256];
	int ret;

	ret = sf_perf_decode_sample(f, rec, &s, err, sizeof(err));
	FZ_ASSERT(ret == 0 || ret == SF_PERF_EFORMAT);
	FZ_ASSERT(ret == 0 || err[0] != '\0');
	if (ret)
		return;
	FZ_ASSERT(s.attr >= f->attrs && s.attr < f->attrs + f->nattrs);
	if (s.callchain_nr) {
		FZ_ASSERT(s.callchain_nr <= rec->size / 8);
		FZ_ASSERT(inside(s.callchain, 8 * s.callchain_nr, rec->bytes, rec->size));
		(void)sum_u64s(f, s.callchain, s.callchain_nr);
	}
	if (s.raw_size)
		FZ_ASSERT(inside(s.raw, s.raw_size, rec->bytes, rec->size));
	FZ_ASSERT(s.nregs <= 64);
	FZ_ASSERT(s.nregs == 0 || s.regs_abi != SF_PERF_REGS_ABI_NONE);
	if (s.stack_size) {
		FZ_ASSERT(inside(s.stack, s.stack_size, rec->bytes, rec->size));
		FZ_ASSERT(s.stack_dyn_size <= s.stack_size);
		/* The stack copy is read word by word by the unwinder. */
		(void)sum_u64s(f, s.stack, s.stack_size / 8);
	}
}

static void check_decoders(const struct sf_perf_file *f, const struct sf_perf_record *rec)
{
	struct sf_perf_mmap m;
	struct sf_perf_comm c;
	struct sf_perf_task t;
	struct sf_perf_lost l;
	struct sf_perf_build_id b;
	char err[256];
	int ret;

	check_sample(f, rec);
	ret = sf_perf_decode_mmap(f, rec, &m, err, sizeof(err));
	FZ_ASSERT(ret == 0 || (ret == SF_PERF_EFORMAT && err[0] != '\0'));
	if (!ret) {
		check_string(m.filename, rec->bytes, rec->size);
		if (m.has_build_id) {
			FZ_ASSERT(m.build_id_size <= 20);
			FZ_ASSERT(inside(m.build_id, 20, rec->bytes, rec->size));
		}
	}
	ret = sf_perf_decode_comm(f, rec, &c, err, sizeof(err));
	FZ_ASSERT(ret == 0 || (ret == SF_PERF_EFORMAT && err[0] != '\0'));
	if (!ret)
		check_string(c.comm, rec->bytes, rec->size);
	ret = sf_perf_decode_task(f, rec, &t, err, sizeof(err));
	FZ_ASSERT(ret == 0 || (ret == SF_PERF_EFORMAT && err[0] != '\0'));
	ret = sf_perf_decode_lost(f, rec, &l, err, sizeof(err));
	FZ_ASSERT(ret == 0 || (ret == SF_PERF_EFORMAT && err[0] != '\0'));
	ret = sf_perf_decode_build_id(f, rec, &b, err, sizeof(err));
	FZ_ASSERT(ret == 0 || (ret == SF_PERF_EFORMAT && err[0] != '\0'));
	if (!ret)
		check_build_id(&b, rec->bytes, rec->size);
}

static void check_open(const struct sf_perf_file *f, const uint8_t *data, size_t size)
{
	size_t i;

	FZ_ASSERT(f->in.file == data && f->in.file_size == size);
	FZ_ASSERT(f->data_off <= size && f->data_size <= size - f->data_off);
	FZ_ASSERT(f->nattrs >= 1 && f->attrs);
	for (i = 0; i < f->nattrs; i++) {
		const struct sf_perf_attr *a = &f->attrs[i];

		FZ_ASSERT(a->ids_off <= size && a->nids <= (size - a->ids_off) / 8);
		FZ_ASSERT(a->attr_off <= size && a->size <= size - a->attr_off);
	}
	for (i = 0; i < f->nids; i++) {
		FZ_ASSERT(f->ids[i].attr < f->nattrs);
		FZ_ASSERT(i == 0 || f->ids[i - 1].id <= f->ids[i].id);
		FZ_ASSERT(sf_perf_attr_of_id(f, f->ids[i].id) == &f->attrs[f->ids[i].attr]);
	}
	if (f->arch)
		check_string(f->arch, data, size);
	for (i = 0; i < f->nbuild_ids; i++)
		check_build_id(&f->build_ids[i], data, size);
	FZ_ASSERT(!f->pipe || (f->header_size == 16 && f->data_off == 16));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = fz_dup(data, size);
	struct sf_perf_file f;
	struct sf_perf_record rec;
	uint64_t pos = 0, last;
	char err[256];
	int ret;

	memset(err, 0x5a, sizeof(err));
	ret = sf_perf_open_bytes(copy, size, "input", &f, err, sizeof(err));
	FZ_ASSERT(ret == 0 || ret == SF_PERF_EFORMAT);
	FZ_ASSERT(memchr(err, 0, sizeof(err)) != NULL);
	if (ret) {
		FZ_ASSERT(err[0] != '\0');
		FZ_ASSERT(memcmp(&f, &zero_file, sizeof(f)) == 0);
		free(copy);
		return 0;
	}
	check_open(&f, copy, size);
	for (;;) {
		last = pos;
		ret = sf_perf_next(&f, &pos, &rec, err, sizeof(err));
		if (ret != 1)
			break;
		FZ_ASSERT(pos >= last + 8 && pos <= f.data_size);
		FZ_ASSERT(rec.offset == f.data_off + last && rec.bytes == copy + rec.offset);
		FZ_ASSERT(rec.size >= 8 && inside(rec.bytes, rec.size, copy + f.data_off, f.data_size));
		FZ_ASSERT(rec.payload_size == pos - last - rec.size);
		FZ_ASSERT(!rec.payload_size ||
			  (rec.payload == rec.bytes + rec.size &&
			   inside(rec.payload, rec.payload_size, copy + f.data_off, f.data_size)));
		FZ_ASSERT(sf_perf_record_is_header(rec.type) ==
			  (rec.type >= SF_PERF_RECORD_HEADER_ATTR));
		check_decoders(&f, &rec);
	}
	FZ_ASSERT(ret == 0 || ret == SF_PERF_EFORMAT || ret == SF_PERF_EUNSUPPORTED);
	FZ_ASSERT(ret == 0 || err[0] != '\0');
	FZ_ASSERT(pos == last);
	if (ret == 0 && !f.pipe && !f.unfinished)
		FZ_ASSERT(pos == f.data_size);
	FZ_ASSERT(pos <= f.data_size);
	sf_perf_close(&f);
	FZ_ASSERT(memcmp(&f, &zero_file, sizeof(f)) == 0);
	free(copy);
	return 0;
}
