/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_parts.c - where one SFrame section ends in a run of them.
 *
 * A linker that does not merge SFrame sections (LLVM lld) copies each
 * input's section into the output one after the other, each at the
 * section alignment, 8. Every copy keeps its own header, and its function
 * starts stay right where it lies: PC-relative starts are relative to the
 * copy's own fields, and section-relative ones (v1, v2 without the PCREL
 * flag) would be wrong anyway for a linker that did not rewrite them.
 */
#include "sframe_internal.h"

/* Parts start at multiples of the section alignment, counted from the first. */
#define SF_PART_ALIGN 8

int sframe_part_size(const struct sframe_section *sec, uint64_t *part_size)
{
	uint8_t buf[SFRAME_MAX_READ];
	const uint8_t *magic;
	uint64_t off;
	size_t n, i;
	int ret;

	if (!sec || !sec->read || !part_size)
		return -SFRAME_ERR_INVAL;
	/* sframe_open() proved the FDE area ends before the FRE area does. */
	off = sec->fre_start + sec->fre_len;
	/*
	 * Zero bytes are padding, whatever their number. Each pass reads
	 * up to SFRAME_MAX_READ bytes further, so the loop ends within the
	 * section's size.
	 */
	while (off < sec->size) {
		n = sec->size - off < sizeof(buf) ? (size_t)(sec->size - off) : sizeof(buf);
		ret = sf_read(sec, off, buf, n, -SFRAME_ERR_TRAILING);
		if (ret)
			return ret;
		for (i = 0; i < n && buf[i] == 0; i++)
			;
		if (i == n) {
			off += n;
			continue;
		}
		/* The first byte of either magic is not zero: a part starts here, or garbage. */
		off += i;
		if (off % SF_PART_ALIGN != 0)
			return -SFRAME_ERR_TRAILING;
		magic = buf + i;
		if (i + 1 == n) {
			ret = sf_read(sec, off, buf, 2, -SFRAME_ERR_TRAILING);
			if (ret)
				return ret;
			magic = buf;
		}
		if (sf_magic_order(magic) < 0)
			return -SFRAME_ERR_TRAILING;
		*part_size = off;
		return 0;
	}
	*part_size = sec->size;
	return 0;
}
