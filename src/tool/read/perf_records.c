/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * perf_records.c - the decoders of perf.data records: samples, mappings,
 * processes, lost events, build ids. A record's bytes are the untrusted
 * part of the file, so every decoder reads them through one checked cursor
 * (struct rd), apart from the walk over the file (perf_data.c).
 */
#include "read/perf_layout.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

/* MMAP2 carries a build id in place of device and inode numbers. */
#define MISC_MMAP_BUILD_ID	(1u << 14)
/* A build id record's size byte is valid (else its id has 20 bytes). */
#define MISC_BUILD_ID_SIZE	(1u << 15)

/* The sample_type bits whose layout sf_perf_decode_sample() knows. */
#define KNOWN_SAMPLE_TYPE	((SF_PERF_SAMPLE_WEIGHT_STRUCT << 1) - 1)
/* Those a sample id trailer carries. */
#define TRAILER_TYPE		(SF_PERF_SAMPLE_TID | SF_PERF_SAMPLE_TIME | SF_PERF_SAMPLE_ID | \
				 SF_PERF_SAMPLE_STREAM_ID | SF_PERF_SAMPLE_CPU | \
				 SF_PERF_SAMPLE_IDENTIFIER)

uint64_t sf_perf_u64(const struct sf_perf_file *f, const unsigned char *p)
{
	return sf_get_uint(p, 8, f->be);
}

/*
 * The checked cursor over a record: @len bytes at @p, which lies at file
 * offset @off; @what names the record in messages. The first read that
 * does not fit sets @ret; every later read then reads nothing (NULL, 0), so
 * that a decoder reads its fields in a row and looks at @ret once.
 */
struct rd {
	const struct sf_perf_file *f;
	const unsigned char *p;
	uint64_t len;
	uint64_t pos;
	uint64_t off;
	const char *what;
	char *err;
	size_t errlen;
	int ret;
};

static const unsigned char *take(struct rd *r, uint64_t count, unsigned width, const char *field)
{
	uint64_t left = r->len - r->pos;
	const unsigned char *p;

	if (r->ret)
		return NULL;
	if (count > left / width) {
		r->ret = fail_at(r->err, r->errlen, r->f->path, r->off + r->pos,
				 "%s: %s (%" PRIu64 " x %u bytes) runs past its end (%" PRIu64
				 " bytes left)", r->what, field, count, width, left);
		return NULL;
	}
	p = r->p + r->pos;
	r->pos += count * width;
	return p;
}

static uint64_t get_uint(struct rd *r, unsigned width, const char *field)
{
	const unsigned char *p = take(r, 1, width, field);

	return p ? sf_get_uint(p, width, r->f->be) : 0;
}

static uint32_t get_u32(struct rd *r, const char *field)
{
	return (uint32_t)get_uint(r, 4, field);
}

static uint64_t get_u64(struct rd *r, const char *field)
{
	return get_uint(r, 8, field);
}

static void rd_init(struct rd *r, const struct sf_perf_file *f, const struct sf_perf_record *rec,
		    const char *what, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	r->p = rec->bytes;
	r->len = rec->size;
	r->pos = RECORD_HEADER_SIZE;
	r->off = rec->offset;
	r->what = what;
	r->err = err;
	r->errlen = errlen;
}

static int no_event(const struct sf_perf_file *f, uint64_t off, uint64_t id, char *err,
		    size_t errlen)
{
	return fail_at(err, errlen, f->path, off, "event id %" PRIu64 " belongs to no event", id);
}

/* pid and tid, as a sample and a trailer carry them for TID. */
static void get_pid_tid(struct rd *r, uint32_t *pid, uint32_t *tid)
{
	*pid = get_u32(r, "pid");
	*tid = get_u32(r, "tid");
}

/* cpu, then a reserved u32, for CPU. */
static uint32_t get_cpu(struct rd *r)
{
	uint32_t cpu = get_u32(r, "cpu");

	get_u32(r, "cpu reserved");
	return cpu;
}

/*
 * The sample id trailer at the end of a record of another type than
 * SAMPLE: which event's layout it has is told by the id at a fixed distance
 * from the end (check_events() made it the same for all events). The
 * record's fields are then read from @r, cut to the bytes before the
 * trailer.
 */
static void read_trailer(struct rd *r, struct sf_perf_sample_id *sid)
{
	const struct sf_perf_file *f = r->f;
	const struct sf_perf_attr *a = &f->attrs[0];
	uint64_t type, n;
	struct rd t;

	if (!a->sample_id_all)
		return;
	if (f->nattrs > 1) {
		uint64_t back = 8 * (uint64_t)trailer_id_pos(a->sample_type), id;

		if (back > r->len - r->pos) {
			r->ret = fail_at(r->err, r->errlen, f->path, r->off,
					 "%s: sample id trailer runs past its start", r->what);
			return;
		}
		id = sf_get_uint(r->p + r->len - back, 8, f->be);
		a = sf_perf_attr_of_id(f, id);
		if (!a) {
			r->ret = no_event(f, r->off + r->len - back, id, r->err, r->errlen);
			return;
		}
	}
	type = a->sample_type & TRAILER_TYPE;
	n = 8 * (uint64_t)popcount64(type);
	if (n > r->len - r->pos) {
		r->ret = fail_at(r->err, r->errlen, f->path, r->off + r->pos,
				 "%s: sample id trailer (%" PRIu64 " bytes) runs past its start (%"
				 PRIu64 " bytes left)", r->what, n, r->len - r->pos);
		return;
	}
	t = *r;
	t.pos = r->len - n;
	r->len -= n;
	sid->present = type & ~SF_PERF_SAMPLE_IDENTIFIER;
	if (type & SF_PERF_SAMPLE_TID)
		get_pid_tid(&t, &sid->pid, &sid->tid);
	if (type & SF_PERF_SAMPLE_TIME)
		sid->time = get_u64(&t, "time");
	if (type & SF_PERF_SAMPLE_ID)
		sid->id = get_u64(&t, "id");
	if (type & SF_PERF_SAMPLE_STREAM_ID)
		sid->stream_id = get_u64(&t, "stream_id");
	if (type & SF_PERF_SAMPLE_CPU)
		sid->cpu = get_cpu(&t);
	if (type & SF_PERF_SAMPLE_IDENTIFIER) {
		sid->id = get_u64(&t, "identifier");
		sid->present |= SF_PERF_SAMPLE_ID;
	}
	r->ret = t.ret;
}

/* The cursor over a record of another type than SAMPLE, past its trailer. */
static void rd_record(struct rd *r, const struct sf_perf_file *f, const struct sf_perf_record *rec,
		      const char *what, struct sf_perf_sample_id *sid, char *err, size_t errlen)
{
	rd_init(r, f, rec, what, err, errlen);
	read_trailer(r, sid);
}

/* A NUL-terminated string filling the rest of the record before its trailer. */
static const char *get_string(struct rd *r, const char *field)
{
	const unsigned char *p = r->p + r->pos;
	uint64_t left = r->len - r->pos;

	if (r->ret)
		return NULL;
	if (!memchr(p, '\0', (size_t)left)) {
		r->ret = fail_at(r->err, r->errlen, r->f->path, r->off + r->pos,
				 "%s: %s is not NUL-terminated within its %" PRIu64 " bytes",
				 r->what, field, left);
		return NULL;
	}
	r->pos = r->len;
	return (const char *)p;
}

/* The register block of REGS_USER and REGS_INTR: an ABI word, then one u64 per mask bit. */
static void get_regs(struct rd *r, uint64_t mask, const char *field, uint64_t *abi,
		     uint32_t *nregs, uint64_t *regs)
{
	const unsigned char *p;
	unsigned i, n = popcount64(mask);

	*abi = get_u64(r, field);
	/* With ABI NONE (a kernel thread: no user registers) none follow. */
	if (*abi == SF_PERF_REGS_ABI_NONE)
		return;
	p = take(r, n, 8, field);
	if (!p || !regs)
		return;
	for (i = 0; i < n; i++)
		regs[i] = sf_get_uint(p + 8 * i, 8, r->f->be);
	*nregs = n;
}

/*
 * Counts of u64 words to skip are products of a count from the file and a
 * small factor: a product that would wrap is made too large to fit instead.
 */
static void skip_u64s(struct rd *r, uint64_t count, uint64_t factor, const char *field)
{
	take(r, count > UINT64_MAX / factor ? UINT64_MAX : count * factor, 8, field);
}

static void skip_read(struct rd *r, uint64_t fmt)
{
	uint64_t extra = !!(fmt & SF_PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(fmt & SF_PERF_FORMAT_TOTAL_TIME_RUNNING);
	/* A value, with its id and its lost count. */
	uint64_t per = 1 + !!(fmt & SF_PERF_FORMAT_ID) + !!(fmt & SF_PERF_FORMAT_LOST);
	uint64_t nr;

	if (!(fmt & SF_PERF_FORMAT_GROUP)) {
		skip_u64s(r, extra + per, 1, "read values");
		return;
	}
	nr = get_u64(r, "read group nr");
	skip_u64s(r, extra, 1, "read times");
	skip_u64s(r, nr, per, "read group values");
}

static void skip_branch_stack(struct rd *r, uint64_t bst)
{
	uint64_t nr = get_u64(r, "branch stack nr");

	if (bst & SF_PERF_BRANCH_HW_INDEX)
		skip_u64s(r, 1, 1, "branch hw_idx");
	/* Three words a branch: from, to, flags. */
	skip_u64s(r, nr, 3, "branch entries");
	if (bst & SF_PERF_BRANCH_COUNTERS)
		skip_u64s(r, nr, 1, "branch counters");
}

/* A sample's fixed-size fields up to its period, and its read values. */
static void read_sample_head(struct rd *r, const struct sf_perf_attr *a, struct sf_perf_sample *s)
{
	uint64_t type = a->sample_type;

	if (type & SF_PERF_SAMPLE_IDENTIFIER)
		s->sid.id = get_u64(r, "identifier");
	if (type & SF_PERF_SAMPLE_IP)
		s->ip = get_u64(r, "ip");
	if (type & SF_PERF_SAMPLE_TID)
		get_pid_tid(r, &s->sid.pid, &s->sid.tid);
	if (type & SF_PERF_SAMPLE_TIME)
		s->sid.time = get_u64(r, "time");
	if (type & SF_PERF_SAMPLE_ADDR)
		s->addr = get_u64(r, "addr");
	if (type & SF_PERF_SAMPLE_ID)
		s->sid.id = get_u64(r, "id");
	if (type & SF_PERF_SAMPLE_STREAM_ID)
		s->sid.stream_id = get_u64(r, "stream_id");
	if (type & SF_PERF_SAMPLE_CPU)
		s->sid.cpu = get_cpu(r);
	/* perf script prints the event's own period when samples carry none. */
	s->period = a->sample_period;
	if (type & SF_PERF_SAMPLE_PERIOD)
		s->period = get_u64(r, "period");
	if (type & SF_PERF_SAMPLE_READ)
		skip_read(r, a->read_format);
}

/* The copy of the user stack, and how much of it the kernel filled. */
static void get_user_stack(struct rd *r, struct sf_perf_sample *s)
{
	s->stack_size = get_u64(r, "user stack size");
	s->stack = take(r, s->stack_size, 1, "user stack");
	/* dyn_size follows only a stack copy. */
	if (s->stack_size) {
		s->stack_dyn_size = get_u64(r, "user stack dyn_size");
		if (!r->ret && s->stack_dyn_size > s->stack_size)
			r->ret = fail_at(r->err, r->errlen, r->f->path, r->off + r->pos - 8,
					 "%s: user stack dyn_size %" PRIu64
					 " is above its size %" PRIu64, r->what,
					 s->stack_dyn_size, s->stack_size);
	}
}

/* A sample's fields, in the order perf_event.h lays them out. */
static void read_sample(struct rd *r, const struct sf_perf_attr *a, struct sf_perf_sample *s)
{
	uint64_t type = a->sample_type, word;
	uint32_t nregs_intr;

	read_sample_head(r, a, s);
	if (type & SF_PERF_SAMPLE_CALLCHAIN) {
		s->callchain_nr = get_u64(r, "callchain nr");
		s->callchain = take(r, s->callchain_nr, 8, "callchain");
	}
	if (type & SF_PERF_SAMPLE_RAW) {
		s->raw_size = get_u32(r, "raw size");
		s->raw = take(r, s->raw_size, 1, "raw data");
	}
	if (type & SF_PERF_SAMPLE_BRANCH_STACK)
		skip_branch_stack(r, a->branch_sample_type);
	if (type & SF_PERF_SAMPLE_REGS_USER)
		get_regs(r, a->sample_regs_user, "user registers", &s->regs_abi, &s->nregs, s->regs);
	if (type & SF_PERF_SAMPLE_STACK_USER)
		get_user_stack(r, s);
	/* WEIGHT and WEIGHT_STRUCT are one u64 either way. */
	if (type & (SF_PERF_SAMPLE_WEIGHT | SF_PERF_SAMPLE_WEIGHT_STRUCT))
		skip_u64s(r, 1, 1, "weight");
	if (type & SF_PERF_SAMPLE_DATA_SRC)
		s->data_src = get_u64(r, "data_src");
	if (type & SF_PERF_SAMPLE_TRANSACTION)
		skip_u64s(r, 1, 1, "transaction");
	if (type & SF_PERF_SAMPLE_REGS_INTR)
		get_regs(r, a->sample_regs_intr, "interrupt registers", &word, &nregs_intr, NULL);
	if (type & SF_PERF_SAMPLE_PHYS_ADDR)
		skip_u64s(r, 1, 1, "phys_addr");
	if (type & SF_PERF_SAMPLE_CGROUP)
		skip_u64s(r, 1, 1, "cgroup");
	if (type & SF_PERF_SAMPLE_DATA_PAGE_SIZE)
		skip_u64s(r, 1, 1, "data_page_size");
	if (type & SF_PERF_SAMPLE_CODE_PAGE_SIZE)
		skip_u64s(r, 1, 1, "code_page_size");
	if (type & SF_PERF_SAMPLE_AUX) {
		word = get_u64(r, "aux size");
		take(r, word, 1, "aux data");
	}
}

int sf_perf_decode_sample(const struct sf_perf_file *f, const struct sf_perf_record *rec,
			  struct sf_perf_sample *s, char *err, size_t errlen)
{
	const struct sf_perf_attr *a = &f->attrs[0];
	struct rd r;

	memset(s, 0, sizeof(*s));
	rd_init(&r, f, rec, "sample", err, errlen);
	if (f->nattrs > 1) {
		/* check_events() made every event carry the id, at one place. */
		struct rd at = r;
		uint64_t id;

		skip_u64s(&at, (uint64_t)sample_id_pos(a->sample_type), 1, "fields before the id");
		id = get_u64(&at, "event id");
		if (at.ret)
			return at.ret;
		a = sf_perf_attr_of_id(f, id);
		if (!a)
			return no_event(f, at.off + at.pos - 8, id, err, errlen);
	}
	if (a->sample_type & ~KNOWN_SAMPLE_TYPE)
		return fail_at(err, errlen, f->path, rec->offset,
			       "sample: sample_type 0x%" PRIx64 " has bits of unknown layout",
			       a->sample_type);
	s->attr = a;
	s->sid.present = a->sample_type & TRAILER_TYPE & ~SF_PERF_SAMPLE_IDENTIFIER;
	if (a->sample_type & SF_PERF_SAMPLE_IDENTIFIER)
		s->sid.present |= SF_PERF_SAMPLE_ID;
	read_sample(&r, a, s);
	return r.ret;
}

int sf_perf_decode_mmap(const struct sf_perf_file *f, const struct sf_perf_record *rec,
			struct sf_perf_mmap *m, char *err, size_t errlen)
{
	bool mmap2 = rec->type == SF_PERF_RECORD_MMAP2;
	struct rd r;

	memset(m, 0, sizeof(*m));
	rd_record(&r, f, rec, mmap2 ? "MMAP2 record" : "MMAP record", &m->sid, err, errlen);
	get_pid_tid(&r, &m->pid, &m->tid);
	m->addr = get_u64(&r, "addr");
	m->len = get_u64(&r, "len");
	m->pgoff = get_u64(&r, "pgoff");
	if (mmap2 && (rec->misc & MISC_MMAP_BUILD_ID)) {
		/* build_id_size, three reserved bytes, 20 bytes of build id. */
		const unsigned char *p = take(&r, 24, 1, "build id");

		if (p) {
			m->has_build_id = true;
			m->build_id_size = p[0];
			m->build_id = p + 4;
			if (m->build_id_size > SF_PERF_BUILD_ID_MAX)
				return fail_at(err, errlen, f->path, rec->offset + 40,
					       "%s: build id size %u is above %d", r.what,
					       m->build_id_size, SF_PERF_BUILD_ID_MAX);
		}
	} else if (mmap2) {
		m->maj = get_u32(&r, "maj");
		m->min = get_u32(&r, "min");
		m->ino = get_u64(&r, "ino");
		m->ino_generation = get_u64(&r, "ino_generation");
	}
	if (mmap2) {
		m->prot = get_u32(&r, "prot");
		m->flags = get_u32(&r, "flags");
	}
	m->filename = get_string(&r, "filename");
	return r.ret;
}

int sf_perf_decode_comm(const struct sf_perf_file *f, const struct sf_perf_record *rec,
			struct sf_perf_comm *c, char *err, size_t errlen)
{
	struct rd r;

	memset(c, 0, sizeof(*c));
	rd_record(&r, f, rec, "COMM record", &c->sid, err, errlen);
	get_pid_tid(&r, &c->pid, &c->tid);
	c->comm = get_string(&r, "comm");
	return r.ret;
}

int sf_perf_decode_task(const struct sf_perf_file *f, const struct sf_perf_record *rec,
			struct sf_perf_task *t, char *err, size_t errlen)
{
	struct rd r;

	memset(t, 0, sizeof(*t));
	rd_record(&r, f, rec, rec->type == SF_PERF_RECORD_FORK ? "FORK record" : "EXIT record",
		  &t->sid, err, errlen);
	t->pid = get_u32(&r, "pid");
	t->ppid = get_u32(&r, "ppid");
	t->tid = get_u32(&r, "tid");
	t->ptid = get_u32(&r, "ptid");
	t->time = get_u64(&r, "time");
	return r.ret;
}

int sf_perf_decode_lost(const struct sf_perf_file *f, const struct sf_perf_record *rec,
			struct sf_perf_lost *l, char *err, size_t errlen)
{
	struct rd r;

	memset(l, 0, sizeof(*l));
	rd_record(&r, f, rec, "LOST record", &l->sid, err, errlen);
	l->id = get_u64(&r, "id");
	l->lost = get_u64(&r, "lost");
	return r.ret;
}

int sf_perf_decode_build_id(const struct sf_perf_file *f, const struct sf_perf_record *rec,
			    struct sf_perf_build_id *b, char *err, size_t errlen)
{
	const unsigned char *p;
	struct rd r;

	memset(b, 0, sizeof(*b));
	/* No sample id trailer: perf writes these records itself. */
	rd_init(&r, f, rec, "build id record", err, errlen);
	b->offset = rec->offset;
	b->misc = rec->misc;
	b->pid = (int32_t)get_u32(&r, "pid");
	/* 20 bytes of id, its size, three reserved bytes. */
	p = take(&r, 24, 1, "build id");
	b->filename = get_string(&r, "filename");
	if (r.ret)
		return r.ret;
	b->id = p;
	b->size = rec->misc & MISC_BUILD_ID_SIZE ? p[SF_PERF_BUILD_ID_MAX] : SF_PERF_BUILD_ID_MAX;
	if (b->size > SF_PERF_BUILD_ID_MAX)
		return fail_at(err, errlen, f->path, rec->offset + 32,
			       "%s: build id size %u is above %d", r.what, b->size,
			       SF_PERF_BUILD_ID_MAX);
	return 0;
}
