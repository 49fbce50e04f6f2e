/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * perf_writer.c - perf.data images for the tests (see perf_writer.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perf_writer.h"

/* Room for @n more bytes at @off, the new ones zero. */
static void reserve(struct img *m, size_t off, size_t n)
{
	size_t cap = m->cap ? m->cap : 16384;
	unsigned char *nb;

	assert_true(off <= SIZE_MAX / 2 && n <= SIZE_MAX / 2);
	if (off + n <= m->cap)
		return;
	while (cap < off + n)
		cap *= 2;
	nb = realloc(m->b, cap);
	assert_non_null(nb);
	memset(nb + m->cap, 0, cap - m->cap);
	m->b = nb;
	m->cap = cap;
}

void put(struct img *m, size_t off, uint64_t v, unsigned width)
{
	unsigned i;

	reserve(m, off, width);
	for (i = 0; i < width; i++)
		m->b[off + (m->be ? width - 1 - i : i)] = (unsigned char)(v >> (8 * i));
	if (off + width > m->len)
		m->len = off + width;
}

void add(struct img *m, uint64_t v, unsigned width)
{
	put(m, m->len, v, width);
}

void add_bytes(struct img *m, const void *p, size_t n)
{
	/* @p may lie in the image itself (a record repeated): find it again after growing. */
	uintptr_t at = (uintptr_t)p, start = (uintptr_t)m->b;
	bool inside = m->b && at >= start && at - start < m->cap;

	reserve(m, m->len, n);
	memmove(m->b + m->len, inside ? m->b + (at - start) : p, n);
	m->len += n;
}

void add_string(struct img *m, const char *s)
{
	size_t n = strlen(s) + 1;

	add_bytes(m, s, n);
	while (n++ % 8)
		add(m, 0, 1);
}

/*
 * sample_id_all is flag 18 of the flags word at attr offset 40: byte 42,
 * bit 2 (little-endian writer) or bit 5 (big-endian writer, bit-fields
 * from the top).
 */
void put_attr(struct img *m, size_t a, const struct ev *ev)
{
	put(m, a + 0, 1, 4);			/* type: software */
	put(m, a + 4, ATTR_SZ, 4);
	put(m, a + 24, ev->sample_type, 8);
	put(m, a + 32, ev->read_format, 8);
	if (ev->sample_id_all)
		m->b[a + 42] = m->be ? 0x20 : 0x04;
	put(m, a + 80, ev->regs_user, 8);
	put(m, a + 88, ev->stack_user, 4);
}

void reset_img(struct img *m, bool be)
{
	if (m->b)
		memset(m->b, 0, m->cap);
	m->len = 0;
	m->rec = 0;
	m->be = be;
	m->pipe = false;
}

void begin(struct img *m, bool be, const struct ev *evs, unsigned nev)
{
	size_t ids_off[4], attrs_off, i, k;

	assert_true(nev <= 4);
	reset_img(m, be);
	add_bytes(m, be ? "2ELIFREP" : "PERFILE2", 8);
	put(m, 8, HDR, 8);
	put(m, 16, ATTR_SZ + 16, 8);
	m->len = HDR;
	for (i = 0; i < nev; i++) {
		ids_off[i] = m->len;
		for (k = 0; k < evs[i].nids; k++)
			add(m, evs[i].ids[k], 8);
	}
	attrs_off = m->len;
	for (i = 0; i < nev; i++) {
		size_t a = m->len;

		put_attr(m, a, &evs[i]);
		put(m, a + ATTR_SZ, ids_off[i], 8);
		put(m, a + ATTR_SZ + 8, 8 * evs[i].nids, 8);
	}
	put(m, 24, attrs_off, 8);
	put(m, 32, m->len - attrs_off, 8);
	put(m, 40, m->len, 8);
	put(m, 48, 0, 8);
}

void rec_begin(struct img *m, uint32_t type, uint16_t misc)
{
	m->rec = m->len;
	add(m, type, 4);
	add(m, misc, 2);
	add(m, 0, 2);
}

uint64_t get(const struct img *m, size_t off, unsigned width)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < width; i++)
		v |= (uint64_t)m->b[off + (m->be ? width - 1 - i : i)] << (8 * i);
	return v;
}

uint64_t data_off(const struct img *m)
{
	return get(m, 40, 8);
}

void set_data_size(struct img *m)
{
	if (!m->pipe)
		put(m, 48, m->len - data_off(m), 8);
}

void rec_end(struct img *m)
{
	/* A record's size is a u16. */
	assert_true(m->len - m->rec <= UINT16_MAX);
	put(m, m->rec + 6, m->len - m->rec, 2);
	set_data_size(m);
}

void end_with_features(struct img *m, const struct pw_feature *f, unsigned n)
{
	size_t table = m->len, at = table + 16 * (size_t)n;
	unsigned i;

	/* One perf_file_section (offset, size) per feature bit set, then the data. */
	for (i = 0; i < n; i++) {
		size_t len = strlen(f[i].value) + 1, padded = (len + 63) / 64 * 64;

		assert_true(f[i].bit < 64 && (i == 0 || f[i].bit > f[i - 1].bit));
		/* The bitmap's first u64, in the writer's byte order. */
		put(m, 72, get(m, 72, 8) | UINT64_C(1) << f[i].bit, 8);
		put(m, table + 16 * i, at, 8);
		put(m, table + 16 * i + 8, 4 + padded, 8);
		put(m, at, padded, 4);
		memcpy(m->b + at + 4, f[i].value, len);
		at += 4 + padded;
		put(m, at - 1, 0, 1);
	}
}

void write_img(const struct img *m, const char *path)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		fail_msg("cannot create %s", path);
	assert_int_equal(fwrite(m->b, 1, m->len, f), m->len);
	assert_int_equal(fclose(f), 0);
}
