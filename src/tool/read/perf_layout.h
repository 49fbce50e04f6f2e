/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * perf_layout.h - what the perf.data reader's two halves (perf_data.c, the
 * file walk; perf_records.c, the record decoders) both need to know of the
 * format, kept in one place so that the walk checks the events by the same
 * rules the decoders read them with.
 */
#ifndef SFRAME_TOOL_PERF_LAYOUT_H
#define SFRAME_TOOL_PERF_LAYOUT_H

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "read/perf_data.h"

#define RECORD_HEADER_SIZE	8

/* "PATH: offset 0xOFF: message" into @err; the value is SF_PERF_EFORMAT. */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static inline int fail_at(char *err, size_t errlen, const char *path, uint64_t off,
			  const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(err, errlen, "%s: offset 0x%" PRIx64 ": ", path, off);
	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return SF_PERF_EFORMAT;
}

/* Where a sample carries its event id, in u64 words from its start; -1: nowhere. */
static inline int sample_id_pos(uint64_t type)
{
	if (type & SF_PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(type & SF_PERF_SAMPLE_ID))
		return -1;
	/* Only fixed-size fields come before ID: IP, TID, TIME, ADDR. */
	return !!(type & SF_PERF_SAMPLE_IP) + !!(type & SF_PERF_SAMPLE_TID) +
	       !!(type & SF_PERF_SAMPLE_TIME) + !!(type & SF_PERF_SAMPLE_ADDR);
}

/* Where a sample id trailer carries it, in u64 words back from its end; 0: nowhere. */
static inline int trailer_id_pos(uint64_t type)
{
	if (type & SF_PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(type & SF_PERF_SAMPLE_ID))
		return 0;
	return 1 + !!(type & SF_PERF_SAMPLE_STREAM_ID) + !!(type & SF_PERF_SAMPLE_CPU);
}

static inline unsigned popcount64(uint64_t v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

#endif /* SFRAME_TOOL_PERF_LAYOUT_H */
