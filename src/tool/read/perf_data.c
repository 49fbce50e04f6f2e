/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * perf_data.c - read perf.data files (layout: the kernel's perf_event.h and
 * perf's perf.data-file-format documentation).
 *
 * No structure is overlaid on the file: its writer may have had either byte
 * order and records are only 8-byte aligned relative to the data section,
 * so every field is decoded from its bytes at its documented offset. Every
 * read of a record goes through one cursor (struct rd, in perf_records.c
 * with the decoders) that checks the length left before it hands out a
 * byte, counts before their products; header and attribute fields, read
 * here, lie in ranges checked against the file first.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include "read/perf_data.h"
#include "read/perf_layout.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The header's fixed part: magic, size, attr_size, then three sections
 * (offset, size) for attrs, data and event types (perf writes the last
 * empty), then a 256-bit bitmap of the feature sections that follow the
 * data section. Files older than the bitmap have a 72-byte header.
 */
#define HDR_SIZE		104
#define HDR_SIZE_NO_FEATURES	72
#define HDR_ATTR_SIZE		16
#define HDR_ATTRS		24
#define HDR_DATA		40
#define HDR_FEATURES		72
/* The pipe layout's header: magic and size only. */
#define PIPE_HDR_SIZE		16
/* A feature table entry: the section's offset and size. */
#define FEAT_SECTION_SIZE	16

/* perf_event_attr: offsets of the fields read, and its first size. */
#define ATTR_TYPE		0
#define ATTR_SIZE		4
#define ATTR_CONFIG		8
#define ATTR_SAMPLE_PERIOD	16
#define ATTR_SAMPLE_TYPE	24
#define ATTR_READ_FORMAT	32
#define ATTR_FLAGS		40
#define ATTR_BRANCH_SAMPLE_TYPE	72
#define ATTR_SAMPLE_REGS_USER	80
#define ATTR_SAMPLE_STACK_USER	88
#define ATTR_SAMPLE_REGS_INTR	96
#define ATTR_SIZE_VER0		64
/* The ordinal of sample_id_all among the attribute's one-bit flags. */
#define ATTR_FLAG_FREQ		10
#define ATTR_FLAG_SAMPLE_ID_ALL	18
/* An attribute section entry: the attribute, then its ids' (offset, size). */
#define FILE_ATTR_IDS_SIZE	16

/* A file range [off, off + size), checked against the file. */
static int file_range(struct sf_perf_file *f, uint64_t off, uint64_t size, const char *what,
		      char *err, size_t errlen)
{
	if (off > f->in.file_size || size > f->in.file_size - off)
		return fail_at(err, errlen, f->path, off,
			       "%s (0x%" PRIx64 " bytes) runs past the end of the file (0x%zx bytes)",
			       what, size, f->in.file_size);
	return 0;
}

/* ---- Header and attributes ---------------------------------------------- */

/*
 * The magic is a u64 written in the writer's byte order, whose bytes read
 * "PERFILE2" when it was little-endian: reversed, the writer was big-endian
 * and so is every other field. The next u64 is the header's size, which
 * tells the layouts apart: 16 for the pipe header, which nothing follows.
 */
static int read_magic(struct sf_perf_file *f, char *err, size_t errlen)
{
	static const char le_magic[8] = { 'P', 'E', 'R', 'F', 'I', 'L', 'E', '2' };
	const unsigned char *h = f->in.file;
	int i;

	if (f->in.file_size < PIPE_HDR_SIZE)
		return fail_at(err, errlen, f->path, 0,
			       "file header truncated (0x%zx bytes, at least 0x%x needed)",
			       f->in.file_size, PIPE_HDR_SIZE);
	if (!memcmp(h, le_magic, 8)) {
		f->be = false;
	} else {
		for (i = 0; i < 8 && h[i] == (unsigned char)le_magic[7 - i]; i++)
			;
		if (i < 8)
			return fail_at(err, errlen, f->path, 0,
				       "not a perf.data file (no PERFILE2 magic)");
		f->be = true;
	}
	f->header_size = sf_get_uint(h + 8, 8, f->be);
	return 0;
}

static int read_header(struct sf_perf_file *f, char *err, size_t errlen)
{
	const unsigned char *h = f->in.file;
	uint64_t attr_entry;
	int ret, i;

	if (f->in.file_size < HDR_SIZE_NO_FEATURES)
		return fail_at(err, errlen, f->path, 0,
			       "file header truncated (0x%zx bytes, at least 0x%x needed)",
			       f->in.file_size, HDR_SIZE_NO_FEATURES);
	/* perf writes the whole header; the shorter one predates the features. */
	if (f->header_size != HDR_SIZE && f->header_size != HDR_SIZE_NO_FEATURES)
		return fail_at(err, errlen, f->path, 8, "unexpected file header size %" PRIu64,
			       f->header_size);
	ret = file_range(f, 0, f->header_size, "file header", err, errlen);
	if (ret)
		return ret;
	attr_entry = sf_get_uint(h + HDR_ATTR_SIZE, 8, f->be);
	if (attr_entry < ATTR_SIZE_VER0 + FILE_ATTR_IDS_SIZE)
		return fail_at(err, errlen, f->path, HDR_ATTR_SIZE,
			       "attribute entry size %" PRIu64 " is below the smallest (%d)",
			       attr_entry, ATTR_SIZE_VER0 + FILE_ATTR_IDS_SIZE);
	f->attr_entry_size = attr_entry;
	f->attrs_off = sf_get_uint(h + HDR_ATTRS, 8, f->be);
	f->attrs_size = sf_get_uint(h + HDR_ATTRS + 8, 8, f->be);
	f->data_off = sf_get_uint(h + HDR_DATA, 8, f->be);
	f->data_size = sf_get_uint(h + HDR_DATA + 8, 8, f->be);
	if (f->header_size == HDR_SIZE)
		for (i = 0; i < 4; i++)
			f->features[i] = sf_get_uint(h + HDR_FEATURES + 8 * i, 8, f->be);
	ret = file_range(f, f->attrs_off, f->attrs_size, "attribute section", err, errlen);
	if (!ret)
		ret = file_range(f, f->data_off, f->data_size, "data section", err, errlen);
	if (ret)
		return ret;
	/*
	 * perf record writes the header with data size 0 when it starts and
	 * rewrites it when it ends: 0 means it never ended. The records it
	 * wrote run to the end of the file; the feature table was not written.
	 */
	if (f->data_size == 0) {
		f->unfinished = true;
		f->data_size = f->in.file_size - f->data_off;
		memset(f->features, 0, sizeof(f->features));
	}
	if (f->attrs_size == 0 || f->attrs_size % attr_entry)
		return fail_at(err, errlen, f->path, HDR_ATTRS,
			       "attribute section size %" PRIu64
			       " is not a positive multiple of the entry size %" PRIu64,
			       f->attrs_size, attr_entry);
	return 0;
}

/*
 * A one-bit flag of the attribute by its ordinal in the declaration. C
 * compilers allocate bit-fields from the least significant bit on
 * little-endian ABIs and from the most significant on big-endian ones, so
 * flag n lies in byte n / 8 of the flags word either way, at bit n % 8 or
 * at bit 7 - n % 8 of it.
 */
static bool attr_flag(const struct sf_perf_file *f, const unsigned char *attr, unsigned n)
{
	unsigned bit = f->be ? 7 - n % 8 : n % 8;

	return (attr[ATTR_FLAGS + n / 8] >> bit) & 1;
}

/* An attribute's size field (0 in the first layout's writers: perf reads it as 64). */
static uint64_t attr_size(const struct sf_perf_file *f, const unsigned char *a)
{
	uint64_t size = sf_get_uint(a + ATTR_SIZE, 4, f->be);

	return size ? size : ATTR_SIZE_VER0;
}

/* The fields of the attribute at file offset @off, of @size bytes (checked by the caller). */
static void decode_attr(const struct sf_perf_file *f, uint64_t off, uint64_t size,
			struct sf_perf_attr *at)
{
	const unsigned char *a = f->in.file + off;

	at->attr_off = off;
	at->type = (uint32_t)sf_get_uint(a + ATTR_TYPE, 4, f->be);
	at->size = (uint32_t)size;
	at->config = sf_get_uint(a + ATTR_CONFIG, 8, f->be);
	at->sample_period = sf_get_uint(a + ATTR_SAMPLE_PERIOD, 8, f->be);
	at->freq = attr_flag(f, a, ATTR_FLAG_FREQ);
	at->sample_type = sf_get_uint(a + ATTR_SAMPLE_TYPE, 8, f->be);
	at->read_format = sf_get_uint(a + ATTR_READ_FORMAT, 8, f->be);
	at->sample_id_all = attr_flag(f, a, ATTR_FLAG_SAMPLE_ID_ALL);
	/* Fields added after the first layout are zero when the size ends before them. */
	if (size >= ATTR_BRANCH_SAMPLE_TYPE + 8)
		at->branch_sample_type = sf_get_uint(a + ATTR_BRANCH_SAMPLE_TYPE, 8, f->be);
	if (size >= ATTR_SAMPLE_REGS_USER + 8)
		at->sample_regs_user = sf_get_uint(a + ATTR_SAMPLE_REGS_USER, 8, f->be);
	if (size >= ATTR_SAMPLE_STACK_USER + 4)
		at->sample_stack_user = (uint32_t)sf_get_uint(a + ATTR_SAMPLE_STACK_USER, 4, f->be);
	if (size >= ATTR_SAMPLE_REGS_INTR + 8)
		at->sample_regs_intr = sf_get_uint(a + ATTR_SAMPLE_REGS_INTR, 8, f->be);
}

static int attr_too_small(const struct sf_perf_file *f, uint64_t off, size_t idx, uint64_t size,
			  char *err, size_t errlen)
{
	return fail_at(err, errlen, f->path, off + ATTR_SIZE,
		       "event %zu: attribute size %" PRIu64 " is below the smallest (%d)",
		       idx, size, ATTR_SIZE_VER0);
}

static int read_attr(struct sf_perf_file *f, size_t idx, char *err, size_t errlen)
{
	uint64_t off = f->attrs_off + idx * f->attr_entry_size;
	const unsigned char *a = f->in.file + off;
	struct sf_perf_attr *at = &f->attrs[idx];
	uint64_t size = attr_size(f, a);

	if (size < ATTR_SIZE_VER0)
		return attr_too_small(f, off, idx, size, err, errlen);
	/*
	 * perf reads an entry as the attribute's own size then the ids'
	 * section, and steps by the header's entry size: both must agree or
	 * the entries would be read at other places than perf reads them.
	 */
	if (size + FILE_ATTR_IDS_SIZE != f->attr_entry_size)
		return fail_at(err, errlen, f->path, off + ATTR_SIZE,
			       "event %zu: attribute size %" PRIu64
			       " does not fill the attribute entry (%" PRIu64 " bytes)",
			       idx, size, f->attr_entry_size);
	decode_attr(f, off, size, at);
	at->ids_off = sf_get_uint(a + size, 8, f->be);
	at->nids = sf_get_uint(a + size + 8, 8, f->be);
	if (at->nids % 8)
		return fail_at(err, errlen, f->path, off + size + 8,
			       "event %zu: ids size %" PRIu64 " is not a multiple of 8", idx,
			       at->nids);
	at->nids /= 8;
	return file_range(f, at->ids_off, at->nids * 8, "event ids", err, errlen);
}

static int cmp_id(const void *a, const void *b)
{
	const struct sf_perf_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * With several events, a record names its event only by id, so all events
 * must put the id at one place (as perf requires) and agree on whether
 * records carry trailers.
 */
static int check_events(struct sf_perf_file *f, char *err, size_t errlen)
{
	const struct sf_perf_attr *a0 = &f->attrs[0];
	size_t i;

	if (f->nattrs > 1 && sample_id_pos(a0->sample_type) < 0)
		return fail_at(err, errlen, f->path, a0->attr_off + ATTR_SAMPLE_TYPE,
			       "%zu events whose samples carry no event id", f->nattrs);
	for (i = 1; i < f->nattrs; i++) {
		const struct sf_perf_attr *a = &f->attrs[i];
		uint64_t off = a->attr_off;

		if (a->sample_id_all != a0->sample_id_all)
			return fail_at(err, errlen, f->path, off + ATTR_FLAGS,
				       "events 0 and %zu disagree on sample_id_all", i);
		if (sample_id_pos(a->sample_type) != sample_id_pos(a0->sample_type) ||
		    trailer_id_pos(a->sample_type) != trailer_id_pos(a0->sample_type))
			return fail_at(err, errlen, f->path, off + ATTR_SAMPLE_TYPE,
				       "events 0 and %zu do not carry their ids at one place"
				       " (sample_type 0x%" PRIx64 " and 0x%" PRIx64 ")",
				       i, a0->sample_type, a->sample_type);
	}
	return 0;
}

static int read_ids(struct sf_perf_file *f, char *err, size_t errlen)
{
	size_t i, n = 0, total = 0;
	uint64_t k;

	/* Events may share one ids range: the sum can exceed the file. */
	for (i = 0; i < f->nattrs; i++) {
		if (f->attrs[i].nids > SIZE_MAX / sizeof(*f->ids) - total) {
			snprintf(err, errlen, "%s: out of memory (too many event ids)", f->path);
			return SF_PERF_ENOMEM;
		}
		total += (size_t)f->attrs[i].nids;
	}
	if (!total)
		return 0;
	f->ids = calloc(total, sizeof(*f->ids));
	if (!f->ids) {
		snprintf(err, errlen, "%s: out of memory", f->path);
		return SF_PERF_ENOMEM;
	}
	for (i = 0; i < f->nattrs; i++)
		for (k = 0; k < f->attrs[i].nids; k++) {
			f->ids[n].id = sf_get_uint(f->in.file + f->attrs[i].ids_off + 8 * k, 8, f->be);
			f->ids[n++].attr = i;
		}
	f->nids = n;
	qsort(f->ids, n, sizeof(*f->ids), cmp_id);
	for (i = 1; i < n; i++)
		if (f->ids[i].id == f->ids[i - 1].id && f->ids[i].attr != f->ids[i - 1].attr)
			return fail_at(err, errlen, f->path,
				       f->attrs[f->ids[i].attr].ids_off,
				       "id %" PRIu64 " belongs to events %zu and %zu", f->ids[i].id,
				       f->ids[i - 1].attr, f->ids[i].attr);
	return 0;
}

static int no_memory(const struct sf_perf_file *f, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: out of memory", f->path);
	return SF_PERF_ENOMEM;
}

/*
 * @arr, room made for one more element when it holds @n (capacities 4, 8,
 * 16, ...), or NULL when out of memory (@arr left as it was).
 */
static void *grow(void *arr, size_t n, size_t elem)
{
	if (n && (n < 4 || (n & (n - 1))))
		return arr;
	if (n > SIZE_MAX / 2 / elem)
		return NULL;
	return realloc(arr, (n ? 2 * n : 4) * elem);
}

static int read_file_attrs(struct sf_perf_file *f, char *err, size_t errlen)
{
	size_t i;
	int ret = 0;

	f->nattrs = (size_t)(f->attrs_size / f->attr_entry_size);
	f->attrs = calloc(f->nattrs, sizeof(*f->attrs));
	if (!f->attrs)
		return no_memory(f, err, errlen);
	for (i = 0; i < f->nattrs && !ret; i++)
		ret = read_attr(f, i, err, errlen);
	return ret;
}

/* A HEADER_ATTR record: the attribute of its own size, then the event's ids. */
static int read_pipe_attr(struct sf_perf_file *f, const struct sf_perf_record *rec, char *err,
			  size_t errlen)
{
	uint64_t off = rec->offset + RECORD_HEADER_SIZE;
	uint64_t room = rec->size - RECORD_HEADER_SIZE, size;
	struct sf_perf_attr *at;

	if (room < ATTR_SIZE_VER0)
		return fail_at(err, errlen, f->path, rec->offset,
			       "HEADER_ATTR record: size %u cannot hold an attribute (%d bytes)",
			       rec->size, ATTR_SIZE_VER0);
	size = attr_size(f, f->in.file + off);
	if (size < ATTR_SIZE_VER0)
		return attr_too_small(f, off, f->nattrs, size, err, errlen);
	if (size > room || (room - size) % 8)
		return fail_at(err, errlen, f->path, off + ATTR_SIZE,
			       "HEADER_ATTR record: attribute size %" PRIu64
			       " does not leave whole ids in the record's %" PRIu64 " bytes",
			       size, room);
	at = grow(f->attrs, f->nattrs, sizeof(*f->attrs));
	if (!at)
		return no_memory(f, err, errlen);
	f->attrs = at;
	at = &f->attrs[f->nattrs++];
	memset(at, 0, sizeof(*at));
	decode_attr(f, off, size, at);
	at->ids_off = off + size;
	at->nids = (room - size) / 8;
	return 0;
}

static int add_build_id(struct sf_perf_file *f, const struct sf_perf_build_id *b, char *err,
			size_t errlen)
{
	struct sf_perf_build_id *p = grow(f->build_ids, f->nbuild_ids, sizeof(*f->build_ids));

	if (!p)
		return no_memory(f, err, errlen);
	f->build_ids = p;
	f->build_ids[f->nbuild_ids++] = *b;
	return 0;
}

/*
 * The build id feature: build id records one after the other, each
 * stepping by its header's size, filling the section.
 */
static int read_build_id_feature(struct sf_perf_file *f, uint64_t off, uint64_t size, char *err,
				 size_t errlen)
{
	uint64_t pos = 0;
	int ret = 0;

	while (pos < size && !ret) {
		struct sf_perf_record rec;
		struct sf_perf_build_id b;

		memset(&rec, 0, sizeof(rec));
		if (size - pos < RECORD_HEADER_SIZE)
			return fail_at(err, errlen, f->path, off + pos,
				       "build id feature: record header (8 bytes) runs past the"
				       " section (%" PRIu64 " bytes left)", size - pos);
		rec.offset = off + pos;
		rec.bytes = f->in.file + rec.offset;
		rec.type = SF_PERF_RECORD_HEADER_BUILD_ID;
		rec.misc = (uint16_t)sf_get_uint(rec.bytes + 4, 2, f->be);
		rec.size = (uint16_t)sf_get_uint(rec.bytes + 6, 2, f->be);
		if (rec.size < RECORD_HEADER_SIZE || rec.size > size - pos)
			return fail_at(err, errlen, f->path, rec.offset,
				       "build id feature: record size %u is below 8 or runs past the"
				       " section (%" PRIu64 " bytes left)", rec.size, size - pos);
		ret = sf_perf_decode_build_id(f, &rec, &b, err, errlen);
		if (!ret)
			ret = add_build_id(f, &b, err, errlen);
		pos += rec.size;
	}
	return ret;
}

/* The ARCH feature: a perf string (u32 length, then that many bytes, NUL-padded). */
static int read_arch_feature(struct sf_perf_file *f, uint64_t off, uint64_t size, char *err,
			     size_t errlen)
{
	const unsigned char *p = f->in.file + off;
	uint64_t len;

	if (size < 4)
		return fail_at(err, errlen, f->path, off,
			       "arch feature: %" PRIu64 " bytes cannot hold a string length", size);
	len = sf_get_uint(p, 4, f->be);
	if (len > size - 4)
		return fail_at(err, errlen, f->path, off,
			       "arch feature: string length %" PRIu64 " runs past the section (%"
			       PRIu64 " bytes left)", len, size - 4);
	if (!memchr(p + 4, '\0', (size_t)len))
		return fail_at(err, errlen, f->path, off + 4,
			       "arch feature: string is not NUL-terminated within its %" PRIu64
			       " bytes", len);
	f->arch = (const char *)p + 4;
	return 0;
}

/* One feature's bytes [off, off + size), inside the file; unknown features are ignored. */
static int read_feature(struct sf_perf_file *f, uint64_t feat, uint64_t off, uint64_t size,
			char *err, size_t errlen)
{
	if (feat == SF_PERF_FEAT_BUILD_ID)
		return read_build_id_feature(f, off, size, err, errlen);
	if (feat == SF_PERF_FEAT_ARCH)
		return read_arch_feature(f, off, size, err, errlen);
	if (feat == SF_PERF_FEAT_EVENT_DESC) {
		/* Read once the events are known: in a pipe they may come after it. */
		f->event_desc_off = off;
		f->event_desc_size = size;
	}
	return 0;
}

/*
 * The table behind the data section: one (offset, size) for each bit set
 * in the bitmap, in bit order, whether perf knows the feature or not.
 */
static int read_file_features(struct sf_perf_file *f, char *err, size_t errlen)
{
	uint64_t table = f->data_off + f->data_size, n = 0;
	unsigned bit;
	int ret, i;

	for (i = 0; i < 4; i++)
		n += popcount64(f->features[i]);
	ret = file_range(f, table, n * FEAT_SECTION_SIZE, "feature table", err, errlen);
	for (bit = 0; bit < 256 && !ret; bit++) {
		const unsigned char *e = f->in.file + table;
		uint64_t off, size;

		if (!((f->features[bit / 64] >> (bit % 64)) & 1))
			continue;
		off = sf_get_uint(e, 8, f->be);
		size = sf_get_uint(e + 8, 8, f->be);
		if (off > f->in.file_size || size > f->in.file_size - off)
			return fail_at(err, errlen, f->path, table,
				       "feature %u: section at 0x%" PRIx64 " (0x%" PRIx64
				       " bytes) runs past the end of the file (0x%zx bytes)",
				       bit, off, size, f->in.file_size);
		ret = read_feature(f, bit, off, size, err, errlen);
		table += FEAT_SECTION_SIZE;
	}
	return ret;
}

/* What perf's own records of a pipe-layout file say; see sf_perf_open(). */
static int read_pipe_records(struct sf_perf_file *f, char *err, size_t errlen)
{
	struct sf_perf_record rec;
	struct sf_perf_build_id b;
	uint64_t pos = 0;
	int ret = 0;

	while (!ret && sf_perf_next(f, &pos, &rec, err, errlen) == 1) {
		if (rec.type == SF_PERF_RECORD_HEADER_ATTR) {
			ret = read_pipe_attr(f, &rec, err, errlen);
		} else if (rec.type == SF_PERF_RECORD_HEADER_BUILD_ID) {
			ret = sf_perf_decode_build_id(f, &rec, &b, err, errlen);
			if (!ret)
				ret = add_build_id(f, &b, err, errlen);
		} else if (rec.type == SF_PERF_RECORD_HEADER_FEATURE) {
			/* The feature id, then the feature's section bytes. */
			if (rec.size < RECORD_HEADER_SIZE + 8)
				return fail_at(err, errlen, f->path, rec.offset,
					       "HEADER_FEATURE record: size %u cannot hold a"
					       " feature id", rec.size);
			ret = read_feature(f, sf_get_uint(rec.bytes + RECORD_HEADER_SIZE, 8, f->be),
					   rec.offset + RECORD_HEADER_SIZE + 8,
					   rec.size - RECORD_HEADER_SIZE - 8, err, errlen);
		}
	}
	if (ret)
		return ret;
	/* Where the records stopped is the iteration's to report. */
	if (errlen)
		err[0] = '\0';
	if (!f->nattrs)
		return fail_at(err, errlen, f->path, PIPE_HDR_SIZE,
			       "no event attributes (no HEADER_ATTR record)");
	return 0;
}

/*
 * The EVENT_DESC feature names the events: a u32 count and a u32 attribute
 * size, then per event its attribute, a u32 id count, a perf string (u32
 * length, NUL-padded bytes) and its ids (u64 each). An event is matched by
 * its first id, or by its place when the feature gives it none (perf
 * writes no ids for a lone event).
 */
static int read_event_desc(struct sf_perf_file *f, char *err, size_t errlen)
{
	uint64_t off = f->event_desc_off, end = off + f->event_desc_size, nr, asz, i;
	const unsigned char *p = f->in.file;

	if (!f->event_desc_size)
		return 0;
	if (end - off < 8)
		return fail_at(err, errlen, f->path, off, "event desc feature: %" PRIu64
			       " bytes cannot hold its counts", end - off);
	nr = sf_get_uint(p + off, 4, f->be);
	asz = sf_get_uint(p + off + 4, 4, f->be);
	if (asz < ATTR_SIZE_VER0)
		return fail_at(err, errlen, f->path, off + 4, "event desc feature: attribute size %"
			       PRIu64 " is below the smallest (%d)", asz, ATTR_SIZE_VER0);
	off += 8;
	for (i = 0; i < nr; i++) {
		const struct sf_perf_attr *a = NULL;
		uint64_t nids, len;
		const char *name;

		if (end - off < asz + 8)
			return fail_at(err, errlen, f->path, off, "event desc feature: event %"
				       PRIu64 " runs past the section (%" PRIu64 " bytes left)", i,
				       end - off);
		nids = sf_get_uint(p + off + asz, 4, f->be);
		len = sf_get_uint(p + off + asz + 4, 4, f->be);
		off += asz + 8;
		if (len > end - off || !memchr(p + off, '\0', (size_t)len))
			return fail_at(err, errlen, f->path, off - 4, "event desc feature: event %"
				       PRIu64 ": name of %" PRIu64 " bytes runs past the section or"
				       " is not NUL-terminated", i, len);
		name = (const char *)p + off;
		off += len;
		if (nids > (end - off) / 8)
			return fail_at(err, errlen, f->path, off, "event desc feature: event %"
				       PRIu64 ": %" PRIu64 " ids run past the section", i, nids);
		if (nids)
			a = sf_perf_attr_of_id(f, sf_get_uint(p + off, 8, f->be));
		else if (nr == f->nattrs)
			a = &f->attrs[i];
		if (a && !a->name)
			f->attrs[a - f->attrs].name = name;
		off += 8 * nids;
	}
	return 0;
}

/* The reading of the bytes in @f->in, for both entry points. */
static int open_in(struct sf_perf_file *f, char *err, size_t errlen)
{
	int ret = read_magic(f, err, errlen);

	if (ret)
		goto out;
	if (f->header_size == PIPE_HDR_SIZE) {
		f->pipe = true;
		f->data_off = PIPE_HDR_SIZE;
		f->data_size = f->in.file_size - PIPE_HDR_SIZE;
		ret = read_pipe_records(f, err, errlen);
	} else {
		ret = read_header(f, err, errlen);
		if (!ret)
			ret = read_file_attrs(f, err, errlen);
		if (!ret)
			ret = read_file_features(f, err, errlen);
	}
	if (!ret)
		ret = check_events(f, err, errlen);
	if (!ret)
		ret = read_ids(f, err, errlen);
	if (!ret)
		ret = read_event_desc(f, err, errlen);
out:
	if (ret)
		sf_perf_close(f);
	return ret;
}

int sf_perf_open(const char *path, struct sf_perf_file *f, char *err, size_t errlen)
{
	memset(f, 0, sizeof(*f));
	if (errlen)
		err[0] = '\0';
	f->path = path;
	if (sf_input_bytes(path, &f->in, err, errlen))
		return SF_PERF_EIO;
	return open_in(f, err, errlen);
}

int sf_perf_open_bytes(const void *bytes, size_t size, const char *name, struct sf_perf_file *f,
		       char *err, size_t errlen)
{
	memset(f, 0, sizeof(*f));
	if (errlen)
		err[0] = '\0';
	f->path = name;
	f->borrowed = true;
	/* Never written through: the reader only reads (the field is the loader's). */
	f->in.file = (unsigned char *)(uintptr_t)bytes;
	f->in.file_size = size;
	return open_in(f, err, errlen);
}

void sf_perf_close(struct sf_perf_file *f)
{
	free(f->attrs);
	free(f->ids);
	free(f->build_ids);
	if (!f->borrowed)
		sf_input_free(&f->in);
	memset(f, 0, sizeof(*f));
}

const struct sf_perf_attr *sf_perf_attr_of_id(const struct sf_perf_file *f, uint64_t id)
{
	struct sf_perf_id key = { .id = id };
	const struct sf_perf_id *hit;

	hit = f->nids ? bsearch(&key, f->ids, f->nids, sizeof(*f->ids), cmp_id) : NULL;
	if (hit)
		return &f->attrs[hit->attr];
	return id == 0 ? &f->attrs[0] : NULL;
}

/* ---- Records -------------------------------------------------------------- */

bool sf_perf_record_is_header(uint32_t type)
{
	return type >= SF_PERF_RECORD_HEADER_ATTR;
}

/*
 * The bytes perf skips behind a record outside its size, and the count of
 * them in the record: tracing data (u32) and AUXTRACE's trace (u64), both
 * right after the record header. Their reader must find the count there.
 */
static int payload_size(const struct sf_perf_file *f, const struct sf_perf_record *rec,
			uint64_t *size, char *err, size_t errlen)
{
	unsigned width;

	*size = 0;
	if (rec->type == SF_PERF_RECORD_HEADER_TRACING_DATA)
		width = 4;
	else if (rec->type == SF_PERF_RECORD_AUXTRACE)
		width = 8;
	else
		return 0;
	if (rec->size < RECORD_HEADER_SIZE + width)
		return fail_at(err, errlen, f->path, rec->offset,
			       "record type %" PRIu32 ": size %u cannot hold its data size",
			       rec->type, rec->size);
	*size = sf_get_uint(rec->bytes + RECORD_HEADER_SIZE, width, f->be);
	return 0;
}

/* The record at @p (file offset @off) as far as its header says. */
static void record_header(const struct sf_perf_file *f, const unsigned char *p, uint64_t off,
			  struct sf_perf_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->type = (uint32_t)sf_get_uint(p, 4, f->be);
	rec->misc = (uint16_t)sf_get_uint(p + 4, 2, f->be);
	rec->size = (uint16_t)sf_get_uint(p + 6, 2, f->be);
	rec->offset = off;
	rec->bytes = p;
}

int sf_perf_next(const struct sf_perf_file *f, uint64_t *pos, struct sf_perf_record *rec,
		 char *err, size_t errlen)
{
	/* Where the writer may have stopped anywhere, a cut-short record ends the data. */
	bool open_end = f->pipe || f->unfinished;
	uint64_t left, off, extra;
	const unsigned char *p;
	int ret;

	if (*pos >= f->data_size)
		return 0;
	left = f->data_size - *pos;
	off = f->data_off + *pos;
	p = f->in.file + off;
	if (left < RECORD_HEADER_SIZE) {
		if (open_end)
			return 0;
		return fail_at(err, errlen, f->path, off,
			       "record header (8 bytes) runs past the data section (%" PRIu64
			       " bytes left)", left);
	}
	record_header(f, p, off, rec);
	/* A size below the header's would never move the iteration on. */
	if (rec->size < RECORD_HEADER_SIZE)
		return fail_at(err, errlen, f->path, off,
			       "record type %" PRIu32 ": size %u is below the header's 8", rec->type,
			       rec->size);
	if (rec->size > left) {
		if (open_end)
			return 0;
		return fail_at(err, errlen, f->path, off,
			       "record type %" PRIu32 ": size %u runs past the data section (%" PRIu64
			       " bytes left)", rec->type, rec->size, left);
	}
	if (rec->type == SF_PERF_RECORD_COMPRESSED || rec->type == SF_PERF_RECORD_COMPRESSED2) {
		fail_at(err, errlen, f->path, off,
			"compressed records (perf record -z) are not supported");
		return SF_PERF_EUNSUPPORTED;
	}
	ret = payload_size(f, rec, &extra, err, errlen);
	if (ret)
		return ret;
	if (extra > left - rec->size) {
		if (open_end)
			return 0;
		return fail_at(err, errlen, f->path, off,
			       "record type %" PRIu32 ": its 0x%" PRIx64 " bytes of data run past"
			       " the data section (%" PRIu64 " bytes left)", rec->type, extra,
			       left - rec->size);
	}
	if (extra)
		rec->payload = p + rec->size;
	rec->payload_size = extra;
	*pos += rec->size + extra;
	return 1;
}
