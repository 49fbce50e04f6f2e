/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * perf_writer.h - perf.data images built field by field, in either byte
 * order, at the offsets perf_event.h and perf's file format documentation
 * give: the tests' side of src/tool/read/perf_data.c. Include after <cmocka.h>
 * (a field that cannot be stored fails the test).
 *
 * Layout of an image: the 104-byte file header, the events' ids, the
 * attribute section (one perf_event_attr of ATTR_SZ bytes and the file
 * section of its ids per event), then the data section, which runs to the
 * end of the image until feature sections are added behind it.
 */
#ifndef SFRAME_TEST_PERF_WRITER_H
#define SFRAME_TEST_PERF_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * struct img - an image being built. A static (zeroed) one can be built
 * again and again: begin() keeps its buffer, which grows as needed.
 */
struct img {
	unsigned char *b;
	size_t len;
	size_t cap;
	bool be;
	bool pipe;	/* pipe layout: no data size to keep up to date */
	size_t rec;	/* start of the record being built */
};

/* The layout of the events of an image. */
struct ev {
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t regs_user;
	uint32_t stack_user;
	bool sample_id_all;
	uint64_t ids[2];
	unsigned nids;
};

#define HDR 104
#define ATTR_SZ 128

/* perf's feature bits of sections holding one string (perf's header.h). */
#define PW_HEADER_HOSTNAME 3
#define PW_HEADER_ARCH 6

/* A feature section holding a string: its bit, its value. */
struct pw_feature {
	unsigned bit;
	const char *value;
};

/* Store @v in @width bytes at @off, in the image's byte order. */
void put(struct img *m, size_t off, uint64_t v, unsigned width);
/* The same at the end of the image. */
void add(struct img *m, uint64_t v, unsigned width);
void add_bytes(struct img *m, const void *p, size_t n);
/* An 8-byte padded NUL-terminated string, as the kernel writes names. */
void add_string(struct img *m, const char *s);
/* Read back a stored value. */
uint64_t get(const struct img *m, size_t off, unsigned width);

/* Empty the image (its buffer kept, zeroed), to be written in the given byte order. */
void reset_img(struct img *m, bool be);
/* An event's perf_event_attr (ATTR_SZ bytes) at @a. */
void put_attr(struct img *m, size_t a, const struct ev *ev);
/* Start an image of @nev (at most 4) events: header, ids, attributes. */
void begin(struct img *m, bool be, const struct ev *evs, unsigned nev);
/* A record: its header, then its fields with add(); rec_end() sizes it. */
void rec_begin(struct img *m, uint32_t type, uint16_t misc);
void rec_end(struct img *m);
uint64_t data_off(const struct img *m);
/* The data section runs to the end of the image (the pipe layout has no size). */
void set_data_size(struct img *m);

/*
 * end_with_features() - behind the data section, the feature sections
 * @f[0..@n) (bits below 64, in increasing order), each a string as perf
 * writes them (u32 length, then the string with its NUL padded to 64
 * bytes), their bits set in the header's feature bitmap. perf always
 * writes HOSTNAME: a reader of a file of the other byte order tells by
 * that bit how wide the words of the bitmap were. No record can follow.
 */
void end_with_features(struct img *m, const struct pw_feature *f, unsigned n);

/* write_img() - the image into the file @path (created or truncated). */
void write_img(const struct img *m, const char *path);

#endif /* SFRAME_TEST_PERF_WRITER_H */
