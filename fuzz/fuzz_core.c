/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * fuzz_core.c - the tool's ELF core file reader (src/tool/read/core_file.c): the
 * ELF and program headers, the PT_LOAD segments, every note (NT_PRSTATUS,
 * NT_PRPSINFO, NT_FILE, NT_AUXV) and the memory reads the unwinder makes.
 *
 * Input: a core file, opened in memory (sf_core_open_bytes()) from an
 * allocation of exactly its size, so that a read past its end is the
 * sanitizer's to see. Asserts:
 *   - the open gives 0 or "corrupt or unsupported" (never out of memory:
 *     every count is bounded by the input's size), with a message on
 *     failure;
 *   - on success: at least one thread; the segments sorted, not
 *     overlapping, not wrapping, their dumped bytes inside the input and
 *     within their memory size; each mapped file's name NUL-terminated
 *     inside the input and its range not reversed; the auxiliary vector
 *     inside the input; the command name and arguments NUL-terminated;
 *   - memory reads at every thread's SP and PC, at the edges of every
 *     segment and across segment ends, and through the mapped files (the
 *     input lent as every file's bytes), give 0 or -EFAULT, and what the
 *     core holds reads back as its bytes.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "read/core_file.h"
#include "fuzz_assert.h"
#include "fuzz_input.h"
#include "fuzz_target.h"

/* [p, p + n) lies inside [lo, lo + len). */
static bool inside(const void *p, uint64_t n, const void *lo, uint64_t len)
{
	const uint8_t *q = p, *b = lo;

	return q >= b && q <= b + len && n <= (uint64_t)(b + len - q);
}

static void read_at(struct sf_core *c, uint64_t addr, size_t len)
{
	unsigned char buf[64];
	const unsigned char *p;
	size_t held;
	int r;

	if (len > sizeof(buf))
		len = sizeof(buf);
	r = sf_core_read(c, addr, buf, len);
	FZ_ASSERT(r == 0 || r == -EFAULT);
	held = sf_core_dumped(c, addr, &p);
	if (held) {
		FZ_ASSERT(inside(p, held, c->data, c->size));
		/* Bytes the core holds are read from it first. */
		if (r == 0)
			FZ_ASSERT(memcmp(buf, p, held < len ? held : len) == 0);
	}
}

static void check_open(struct sf_core *c)
{
	uint64_t v;
	size_t i;

	FZ_ASSERT(c->nthreads >= 1 && c->threads);
	FZ_ASSERT(memchr(c->fname, '\0', sizeof(c->fname)) != NULL);
	FZ_ASSERT(memchr(c->psargs, '\0', sizeof(c->psargs)) != NULL);
	for (i = 0; i < c->nsegs; i++) {
		const struct sf_core_segment *s = &c->segs[i];

		FZ_ASSERT(s->filesz <= s->memsz && s->vaddr <= UINT64_MAX - s->memsz);
		FZ_ASSERT(s->offset <= c->size && s->filesz <= c->size - s->offset);
		if (i)
			FZ_ASSERT(s->vaddr >= c->segs[i - 1].vaddr + c->segs[i - 1].memsz);
		if (s->memsz)
			FZ_ASSERT(sf_core_segment_at(c, s->vaddr) == s);
	}
	for (i = 0; i < c->nmaps; i++) {
		const struct sf_core_mapping *m = &c->maps[i];

		FZ_ASSERT(m->start <= m->end);
		FZ_ASSERT(inside(m->name, 1, c->data, c->size));
		FZ_ASSERT(memchr(m->name, '\0', (size_t)(c->data + c->size - (const uint8_t *)m->name)));
		FZ_ASSERT(c->page_size && !(c->page_size & (c->page_size - 1)));
	}
	FZ_ASSERT(c->auxv_len % 16 == 0);
	if (c->auxv_len)
		FZ_ASSERT(inside(c->auxv, c->auxv_len, c->data, c->size));
	(void)sf_core_auxv(c, 33 /* AT_SYSINFO_EHDR */, &v);
	(void)sf_core_auxv(c, 3 /* AT_PHDR */, &v);
}

static void check_reads(struct sf_core *c)
{
	size_t i;

	for (i = 0; i < c->nthreads && i < 64; i++) {
		const struct sframe_regs *r = &c->threads[i].regs.regs;

		FZ_ASSERT(c->threads[i].regs.ndwarf <= SF_ARCH_MAX_DWARF);
		read_at(c, r->sp, 64);
		read_at(c, r->pc, 16);
		read_at(c, r->fp, 16);
	}
	for (i = 0; i < c->nsegs && i < 256; i++) {
		const struct sf_core_segment *s = &c->segs[i];

		read_at(c, s->vaddr, 8);
		if (s->memsz) {
			read_at(c, s->vaddr + s->memsz - 1, 8);	/* across the end */
			if (s->filesz)
				read_at(c, s->vaddr + s->filesz - 1, 16);
		}
	}
	/* The mapped files' bytes when the core left them out: the input stands in. */
	for (i = 0; i < c->nmaps; i++) {
		c->maps[i].file = c->data;
		c->maps[i].file_size = c->size;
	}
	for (i = 0; i < c->nmaps && i < 256; i++) {
		read_at(c, c->maps[i].start, 32);
		if (c->maps[i].end > c->maps[i].start)
			read_at(c, c->maps[i].end - 1, 8);
	}
	read_at(c, UINT64_MAX - 3, 8);	/* wraps */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = fz_dup(data, size);
	struct sf_core c;
	char err[256];
	int ret;

	memset(err, 0x5a, sizeof(err));
	ret = sf_core_open_bytes(copy, size, &c, err, sizeof(err));
	FZ_ASSERT(ret == 0 || ret == SF_CORE_EFORMAT);
	if (ret) {
		FZ_ASSERT(memchr(err, 0, sizeof(err)) != NULL && err[0] != '\0');
	} else {
		check_open(&c);
		check_reads(&c);
	}
	sf_core_free(&c);
	free(copy);
	return 0;
}
