/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * snapshot.c - read stack snapshot files (see snapshot.h).
 */
#include "target/snapshot.h"
#include "read/elf_input.h"

#include <sframe/sframe.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SNAP_MAGIC	"SFSNAP02"
#define SNAP_HDR	16
#define SNAP_REC_HDR	56
#define SNAP_REC_MARK	0x53414d50u

static uint64_t get(const struct sf_snapshot *s, const unsigned char *p, unsigned n)
{
	return sf_get_uint(p, n, s->be);
}

int sf_snapshot_open(const char *path, struct sf_snapshot *s, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	long n;

	memset(s, 0, sizeof(*s));
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return SF_SNAP_EIO;
	}
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		snprintf(err, errlen, "%s: cannot size the file", path);
		fclose(f);
		return SF_SNAP_EIO;
	}
	s->data = malloc((size_t)n ? (size_t)n : 1);
	if (!s->data || fread(s->data, 1, (size_t)n, f) != (size_t)n) {
		snprintf(err, errlen, "%s: cannot read the file", path);
		fclose(f);
		sf_snapshot_close(s);
		return SF_SNAP_EIO;
	}
	fclose(f);
	s->size = (size_t)n;
	if (s->size < SNAP_HDR || memcmp(s->data, SNAP_MAGIC, 8) != 0) {
		snprintf(err, errlen, "%s: not a stack snapshot file", path);
		sf_snapshot_close(s);
		return SF_SNAP_EFORMAT;
	}
	if (memcmp(s->data + 8, "\x01\x02\x03\x04", 4) == 0) {
		s->be = true;
	} else if (memcmp(s->data + 8, "\x04\x03\x02\x01", 4) == 0) {
		s->be = false;
	} else {
		snprintf(err, errlen, "%s: bad byte-order mark", path);
		sf_snapshot_close(s);
		return SF_SNAP_EFORMAT;
	}
	s->machine = (uint16_t)get(s, s->data + 12, 4);
	s->pos = SNAP_HDR;
	return 0;
}

int sf_snapshot_next(struct sf_snapshot *s, struct sf_sample *out, char *err, size_t errlen)
{
	const unsigned char *p;
	uint64_t len, padded;
	size_t body;
	uint32_t i;

	if (s->pos == s->size)
		return 0;
	if (s->size - s->pos < SNAP_REC_HDR) {
		snprintf(err, errlen, "truncated sample record at offset %zu", s->pos);
		return -1;
	}
	p = s->data + s->pos;
	if (get(s, p, 4) != SNAP_REC_MARK) {
		snprintf(err, errlen, "bad sample record mark at offset %zu", s->pos);
		return -1;
	}
	out->pc = get(s, p + 8, 8);
	out->sp = get(s, p + 16, 8);
	out->fp = get(s, p + 24, 8);
	out->ra = get(s, p + 32, 8);
	out->stack_addr = get(s, p + 40, 8);
	len = get(s, p + 48, 8);
	out->nregs = (uint32_t)get(s, p + 4, 4);
	if (out->nregs > SF_SAMPLE_MAX_REGS ||
	    8u * out->nregs > s->size - s->pos - SNAP_REC_HDR) {
		snprintf(err, errlen, "sample at offset %zu: bad register count", s->pos);
		return -1;
	}
	for (i = 0; i < out->nregs; i++)
		out->regs[i] = get(s, p + SNAP_REC_HDR + 8 * i, 8);
	out->regs_missing = 0;
	body = SNAP_REC_HDR + 8 * (size_t)out->nregs;
	padded = (len + 7) & ~(uint64_t)7;
	if (len > s->size || padded > s->size - s->pos - body) {
		snprintf(err, errlen, "sample at offset %zu: stack copy runs past the file", s->pos);
		return -1;
	}
	out->stack_len = len;
	out->stack = p + body;
	s->pos += body + (size_t)padded;
	return 1;
}

void sf_snapshot_close(struct sf_snapshot *s)
{
	free(s->data);
	memset(s, 0, sizeof(*s));
}

int sf_sample_read(void *ctx, uint64_t addr, void *dst, size_t len)
{
	const struct sf_sample *smp = ctx;

	if (addr < smp->stack_addr || addr - smp->stack_addr > smp->stack_len ||
	    len > smp->stack_len - (addr - smp->stack_addr))
		return -EFAULT;
	memcpy(dst, smp->stack + (addr - smp->stack_addr), len);
	return 0;
}

int sf_sample_get_reg(void *ctx, unsigned int dwarf_reg, uint64_t *value)
{
	const struct sf_sample *smp = ctx;

	if (dwarf_reg >= smp->nregs || (smp->regs_missing >> dwarf_reg & 1))
		return -SFRAME_ERR_NO_REG;
	*value = smp->regs[dwarf_reg];
	return 0;
}
