/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * core_file.c - read an ELF core file (see core_file.h).
 *
 * The layouts are the Linux kernel's for 64-bit processes (as glibc's
 * sys/procfs.h describes them too), the same on the three architectures but
 * for the register set:
 *
 *   NT_PRSTATUS (struct elf_prstatus): pr_cursig, a 16-bit value at offset
 *	12 (after the 12-byte struct elf_siginfo); pr_pid, 32 bits at 32;
 *	pr_reg, the register set (elf_gregset_t), at 112, of 64-bit slots.
 *   NT_PRPSINFO (struct elf_prpsinfo, 136 bytes): pr_pid, 32 bits at 24;
 *	pr_fname[16] at 40; pr_psargs[80] at 56.
 *   NT_FILE: a count and the page size, then count triples (start, end,
 *	file offset in pages), all of the core's word size (64 bits), then
 *	count NUL-terminated file names.
 *   NT_AUXV: (type, value) pairs of 64 bits, AT_NULL last.
 *
 * Notes are 4-byte aligned in cores.
 */
#include "read/core_file.h"

#include "abi/tool_abi.h"

#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sframe/sframe_format.h>

#ifndef NT_FILE
#define NT_FILE 0x46494c45
#endif

#define PRSTATUS_CURSIG	12
#define PRSTATUS_PID	32
#define PRSTATUS_REG	112
#define PRPSINFO_SIZE	136
#define PRPSINFO_PID	24
#define PRPSINFO_FNAME	40
#define PRPSINFO_PSARGS	56

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return SF_CORE_EFORMAT;
}

/* [off, off + len) lies inside @size bytes (overflow checked first). */
static bool fits(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

static uint64_t u64(const struct sf_core *c, const unsigned char *p)
{
	return sf_get_uint(p, 8, c->be);
}

/* The architecture of a core of @machine, NULL when cores of it are not read. */
static const struct sf_abi *arch_of(uint16_t machine)
{
	return sf_abi_of_machine(machine);
}

/* ---- One decoder per note ------------------------------------------------------ */

/* NT_PRSTATUS at core offset @off. */
static int decode_prstatus(struct sf_core *c, const struct sf_elf_note *n, uint64_t off,
			   struct sf_core_thread *t, char *err, size_t errlen)
{
	const struct sf_abi *a = arch_of(c->machine);
	const unsigned char *reg = n->desc + PRSTATUS_REG;
	unsigned int nslots = a->prstatus->nslots;

	if (n->descsz < PRSTATUS_REG + 8u * nslots)
		return bad(err, errlen,
			   "NT_PRSTATUS note at offset 0x%" PRIx64 ": %" PRIu32
			   " bytes, too short for the registers (%u)",
			   off, n->descsz, PRSTATUS_REG + 8u * nslots);
	memset(t, 0, sizeof(*t));
	t->tid = (int32_t)sf_get_uint(n->desc + PRSTATUS_PID, 4, c->be);
	t->signo = (int)sf_get_uint(n->desc + PRSTATUS_CURSIG, 2, c->be);
	sf_arch_regs_from_prstatus(a, reg, c->be, &t->regs);
	return 0;
}

/* A NUL-terminated copy of a fixed-size string field. */
static void copy_field(char *dst, size_t dstlen, const unsigned char *src, size_t len)
{
	size_t n = 0;

	while (n < len && n + 1 < dstlen && src[n])
		n++;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int decode_prpsinfo(struct sf_core *c, const struct sf_elf_note *n, uint64_t off,
			   char *err, size_t errlen)
{
	if (n->descsz < PRPSINFO_SIZE)
		return bad(err, errlen,
			   "NT_PRPSINFO note at offset 0x%" PRIx64 ": %" PRIu32
			   " bytes, expected %u", off, n->descsz, PRPSINFO_SIZE);
	c->has_psinfo = true;
	c->pid = (int32_t)sf_get_uint(n->desc + PRPSINFO_PID, 4, c->be);
	copy_field(c->fname, sizeof(c->fname), n->desc + PRPSINFO_FNAME, 16);
	copy_field(c->psargs, sizeof(c->psargs), n->desc + PRPSINFO_PSARGS, 80);
	return 0;
}

static int decode_file_note(struct sf_core *c, const struct sf_elf_note *n, uint64_t off,
			    char *err, size_t errlen)
{
	const unsigned char *names, *end = n->desc + n->descsz;
	uint64_t count, page, i;

	if (n->descsz < 16)
		return bad(err, errlen, "NT_FILE note at offset 0x%" PRIx64 ": %" PRIu32
			   " bytes, too short for its header", off, n->descsz);
	count = u64(c, n->desc);
	page = u64(c, n->desc + 8);
	if (count > (n->descsz - 16u) / 24u)
		return bad(err, errlen, "NT_FILE note at offset 0x%" PRIx64 ": %" PRIu64
			   " mappings do not fit in its %" PRIu32 " bytes", off, count, n->descsz);
	if (page == 0 || (page & (page - 1)))
		return bad(err, errlen, "NT_FILE note at offset 0x%" PRIx64
			   ": page size %" PRIu64 " is not a power of two", off, page);
	free(c->maps);
	c->maps = calloc(count ? count : 1, sizeof(*c->maps));
	if (!c->maps) {
		snprintf(err, errlen, "out of memory");
		return SF_CORE_EIO;
	}
	c->page_size = page;
	names = n->desc + 16 + 24 * count;
	for (i = 0; i < count; i++) {
		const unsigned char *e = n->desc + 16 + 24 * i, *nul;
		struct sf_core_mapping *m = &c->maps[i];
		uint64_t pgoff = u64(c, e + 16);

		m->start = u64(c, e);
		m->end = u64(c, e + 8);
		if (m->end < m->start)
			return bad(err, errlen, "NT_FILE note at offset 0x%" PRIx64 ": mapping %"
				   PRIu64 " ends (0x%" PRIx64 ") before it starts (0x%" PRIx64 ")",
				   off, i, m->end, m->start);
		if (pgoff > UINT64_MAX / page)
			return bad(err, errlen, "NT_FILE note at offset 0x%" PRIx64 ": mapping %"
				   PRIu64 ": file offset of %" PRIu64 " pages overflows",
				   off, i, pgoff);
		m->offset = pgoff * page;
		nul = names < end ? memchr(names, '\0', (size_t)(end - names)) : NULL;
		if (!nul)
			return bad(err, errlen, "NT_FILE note at offset 0x%" PRIx64
				   ": the name of mapping %" PRIu64 " runs past the note's end",
				   off, i);
		m->name = (const char *)names;
		names = nul + 1;
	}
	c->nmaps = (size_t)count;
	return 0;
}

static int decode_auxv(struct sf_core *c, const struct sf_elf_note *n)
{
	c->auxv = n->desc;
	c->auxv_len = n->descsz - n->descsz % 16;
	return 0;
}

/* ---- Segments and notes ----------------------------------------------------- */

static int cmp_seg(const void *a, const void *b)
{
	const struct sf_core_segment *x = a, *y = b;

	/* Empty segments before others at their address: the lookup finds the last. */
	if (x->vaddr != y->vaddr)
		return x->vaddr < y->vaddr ? -1 : 1;
	return x->memsz < y->memsz ? -1 : x->memsz > y->memsz;
}

/* The PT_LOAD segments, checked and sorted. */
static int read_segments(struct sf_core *c, const struct sf_elf_phdrs *ph, char *err,
			 size_t errlen)
{
	uint64_t i, n = 0;

	for (i = 0; i < ph->phnum; i++) {
		struct sf_elf_segment s;

		sf_elf_segment_get(c->data, ph, i, &s);
		n += s.type == PT_LOAD;
	}
	c->segs = calloc(n ? n : 1, sizeof(*c->segs));
	if (!c->segs) {
		snprintf(err, errlen, "out of memory");
		return SF_CORE_EIO;
	}
	for (i = 0; i < ph->phnum; i++) {
		uint64_t at = ph->phoff + i * ph->phentsize;
		struct sf_core_segment *d = &c->segs[c->nsegs];
		struct sf_elf_segment s;

		sf_elf_segment_get(c->data, ph, i, &s);
		if (s.type != PT_LOAD)
			continue;
		if (s.filesz > s.memsz)
			return bad(err, errlen, "PT_LOAD at offset 0x%" PRIx64 ": %" PRIu64
				   " bytes in the file but %" PRIu64 " in memory", at, s.filesz,
				   s.memsz);
		if (s.vaddr > UINT64_MAX - s.memsz)
			return bad(err, errlen, "PT_LOAD at offset 0x%" PRIx64
				   ": 0x%" PRIx64 " + 0x%" PRIx64 " wraps around the address space",
				   at, s.vaddr, s.memsz);
		if (!fits(s.offset, s.filesz, c->size))
			return bad(err, errlen, "PT_LOAD at offset 0x%" PRIx64 ": its bytes [0x%"
				   PRIx64 ", +0x%" PRIx64 ") run past the end of the file (0x%zx "
				   "bytes): a truncated core", at, s.offset, s.filesz, c->size);
		d->vaddr = s.vaddr;
		d->memsz = s.memsz;
		d->offset = s.offset;
		d->filesz = s.filesz;
		d->flags = s.flags;
		c->nsegs++;
	}
	qsort(c->segs, c->nsegs, sizeof(*c->segs), cmp_seg);
	for (i = 1; i < c->nsegs; i++) {
		const struct sf_core_segment *p = &c->segs[i - 1], *q = &c->segs[i];

		if (q->vaddr < p->vaddr + p->memsz)
			return bad(err, errlen, "PT_LOAD segments overlap: [0x%" PRIx64 ", 0x%" PRIx64
				   ") (file offset 0x%" PRIx64 ") and [0x%" PRIx64 ", 0x%" PRIx64
				   ") (file offset 0x%" PRIx64 ")", p->vaddr, p->vaddr + p->memsz,
				   p->offset, q->vaddr, q->vaddr + q->memsz, q->offset);
	}
	return 0;
}

static bool is_core_note(const struct sf_elf_note *n)
{
	return n->namesz == 5 && memcmp(n->name, "CORE", 5) == 0;
}

/*
 * Every note of every PT_NOTE segment, twice: to count the threads, then to
 * decode them (the count bounds the allocation by the file's size).
 */
static int read_notes(struct sf_core *c, const struct sf_elf_phdrs *ph, bool decode,
		      size_t *nthreads, char *err, size_t errlen)
{
	uint64_t i;
	int r;

	*nthreads = 0;
	for (i = 0; i < ph->phnum; i++) {
		struct sf_elf_segment s;
		struct sf_elf_note n;
		uint64_t pos = 0, at;

		sf_elf_segment_get(c->data, ph, i, &s);
		if (s.type != PT_NOTE)
			continue;
		if (!fits(s.offset, s.filesz, c->size))
			return bad(err, errlen, "PT_NOTE at offset 0x%" PRIx64 ": its notes [0x%"
				   PRIx64 ", +0x%" PRIx64 ") run past the end of the file (0x%zx "
				   "bytes)", ph->phoff + i * ph->phentsize, s.offset, s.filesz,
				   c->size);
		for (;;) {
			at = s.offset + pos;
			r = sf_elf_note_next(c->data + s.offset, (size_t)s.filesz, 4, c->be, &pos,
					     &n);
			if (r == 0)
				break;
			if (r < 0)
				return bad(err, errlen, "note at offset 0x%" PRIx64
					   " runs past the end of its PT_NOTE segment (0x%" PRIx64
					   ")", at, s.offset + s.filesz);
			if (n.type == NT_PRSTATUS && is_core_note(&n)) {
				if (decode) {
					r = decode_prstatus(c, &n, at, &c->threads[*nthreads], err,
							    errlen);
					if (r)
						return r;
				}
				(*nthreads)++;
				continue;
			}
			if (!decode || !is_core_note(&n))
				continue;
			r = 0;
			if (n.type == NT_PRPSINFO)
				r = decode_prpsinfo(c, &n, at, err, errlen);
			else if (n.type == NT_FILE)
				r = decode_file_note(c, &n, at, err, errlen);
			else if (n.type == NT_AUXV)
				r = decode_auxv(c, &n);
			if (r)
				return r;
		}
	}
	return 0;
}

static int open_core(struct sf_core *c, char *err, size_t errlen)
{
	struct sf_elf_phdrs ph;
	char m[32];
	size_t n;
	int r;

	if (sf_elf_phdrs_read(c->data, c->size, &ph, err, errlen))
		return SF_CORE_EFORMAT;
	if (!ph.is64)
		return bad(err, errlen, "a 32-bit core (only 64-bit processes are supported)");
	if (ph.type != ET_CORE)
		return bad(err, errlen, "not a core file (ELF type %u)", ph.type);
	c->be = ph.be;
	c->machine = ph.machine;
	if (!arch_of(ph.machine))
		return bad(err, errlen, "a core of %s, which is not supported",
			   sf_machine_name(ph.machine, m, sizeof(m)));
	c->abi = sf_abi_sframe(arch_of(ph.machine), ph.be);
	r = read_segments(c, &ph, err, errlen);
	if (r)
		return r;
	r = read_notes(c, &ph, false, &n, err, errlen);
	if (r)
		return r;
	if (n == 0)
		return bad(err, errlen, "no thread in the core (no NT_PRSTATUS note)");
	c->threads = calloc(n, sizeof(*c->threads));
	if (!c->threads) {
		snprintf(err, errlen, "out of memory");
		return SF_CORE_EIO;
	}
	r = read_notes(c, &ph, true, &c->nthreads, err, errlen);
	if (r)
		return r;
	if (!c->has_psinfo)
		c->pid = c->threads[0].tid;
	return 0;
}

int sf_core_open_bytes(const unsigned char *data, size_t size, struct sf_core *c, char *err,
		       size_t errlen)
{
	memset(c, 0, sizeof(*c));
	c->data = data;
	c->size = size;
	return open_core(c, err, errlen);
}

int sf_core_open(const char *path, struct sf_core *c, char *err, size_t errlen)
{
	char msg[400];
	int r;

	memset(c, 0, sizeof(*c));
	if (sf_input_bytes(path, &c->in, err, errlen) != SF_INPUT_OK)
		return SF_CORE_EIO;
	c->data = c->in.file;
	c->size = c->in.file_size;
	r = open_core(c, msg, sizeof(msg));
	if (r)
		snprintf(err, errlen, "%s: %s", path, msg);
	return r;
}

void sf_core_free(struct sf_core *c)
{
	sf_input_free(&c->in);
	free(c->segs);
	free(c->threads);
	free(c->maps);
	memset(c, 0, sizeof(*c));
}

/* ---- Memory ------------------------------------------------------------------------ */

bool sf_core_auxv(const struct sf_core *c, uint64_t type, uint64_t *value)
{
	size_t i;

	for (i = 0; i + 16 <= c->auxv_len; i += 16) {
		uint64_t t = u64(c, c->auxv + i);

		if (t == AT_NULL)
			break;
		if (t == type) {
			*value = u64(c, c->auxv + i + 8);
			return true;
		}
	}
	return false;
}

const struct sf_core_segment *sf_core_segment_at(const struct sf_core *c, uint64_t addr)
{
	size_t lo = 0, n = c->nsegs, half;

	/* [lo, lo + n) holds the last segment starting at or below @addr, if any. */
	while (n > 1) {
		half = n / 2;
		if (c->segs[lo + half].vaddr <= addr)
			lo += half;
		n -= half;
	}
	if (n == 0 || c->segs[lo].vaddr > addr || addr - c->segs[lo].vaddr >= c->segs[lo].memsz)
		return NULL;
	return &c->segs[lo];
}

size_t sf_core_dumped(const struct sf_core *c, uint64_t addr, const unsigned char **p)
{
	const struct sf_core_segment *s = sf_core_segment_at(c, addr);
	uint64_t in;

	if (!s || addr - s->vaddr >= s->filesz)
		return 0;
	in = addr - s->vaddr;
	/* read_segments() checked offset + filesz against the file. */
	*p = c->data + s->offset + in;
	return (size_t)(s->filesz - in);
}

/* The bytes of the mapped file at @addr, when the caller gave them. */
static size_t file_bytes(const struct sf_core *c, uint64_t addr, const unsigned char **p)
{
	size_t i;

	for (i = 0; i < c->nmaps; i++) {
		const struct sf_core_mapping *m = &c->maps[i];
		uint64_t at;

		if (addr < m->start || addr >= m->end || !m->file)
			continue;
		at = addr - m->start;
		if (m->offset > UINT64_MAX - at || m->offset + at >= m->file_size)
			return 0;
		at += m->offset;
		*p = m->file + at;
		return (size_t)(m->file_size - at) < m->end - addr ? (size_t)(m->file_size - at)
								     : (size_t)(m->end - addr);
	}
	return 0;
}

int sf_core_read(void *ctx, uint64_t addr, void *dst, size_t len)
{
	const struct sf_core *c = ctx;
	unsigned char *out = dst;

	if (addr > UINT64_MAX - len)
		return -EFAULT;
	while (len) {
		const unsigned char *p;
		size_t n = sf_core_dumped(c, addr, &p);

		if (n == 0)
			n = file_bytes(c, addr, &p);
		if (n == 0)
			return -EFAULT;
		if (n > len)
			n = len;
		memcpy(out, p, n);
		out += n;
		addr += n;
		len -= n;
	}
	return 0;
}
