/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * snapshot.h - stack snapshots: registers plus a copy of the stack, as a
 * profiler records a sample (format in fixtures/unwind/README.md).
 *
 * File: "SFSNAP02", u32 0x01020304 (tells the writer's byte order), u32
 * ELF e_machine of the target; then records: u32 0x53414d50 ("SAMP"), u32
 * nregs, u64 pc, sp, fp, ra, stack_addr, stack_len, nregs u64 registers by
 * DWARF number, then stack_len bytes padded to a multiple of 8. Integers are
 * in the writer's byte order.
 */
#ifndef SFRAME_TOOL_SNAPSHOT_H
#define SFRAME_TOOL_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SF_SAMPLE_MAX_REGS 64

struct sf_sample {
	uint64_t pc;
	uint64_t sp;
	uint64_t fp;
	uint64_t ra;
	uint64_t stack_addr;
	uint64_t stack_len;
	const unsigned char *stack;
	uint32_t nregs;			/* entries in regs[] */
	uint64_t regs[SF_SAMPLE_MAX_REGS];	/* by DWARF number */
	/* Bit n: regs[n] was not recorded (a perf event's register mask lacks it). */
	uint64_t regs_missing;
};

struct sf_snapshot {
	unsigned char *data;
	size_t size;
	size_t pos;
	bool be;
	uint16_t machine;
};

/* Failures of sf_snapshot_open(). */
#define SF_SNAP_EIO	(-1)	/* the file could not be read */
#define SF_SNAP_EFORMAT	(-2)	/* it is not a snapshot */

/**
 * sf_snapshot_open() - read a snapshot file.
 * Return: 0, or SF_SNAP_EIO or SF_SNAP_EFORMAT with "PATH: message" in @err.
 */
int sf_snapshot_open(const char *path, struct sf_snapshot *s, char *err, size_t errlen);

/**
 * sf_snapshot_next() - the next sample.
 * Return: 1 with @out filled, 0 at the end, -1 with @err set when the file
 * is malformed.
 */
int sf_snapshot_next(struct sf_snapshot *s, struct sf_sample *out, char *err, size_t errlen);

void sf_snapshot_close(struct sf_snapshot *s);

/**
 * sf_sample_read() - sframe_read_fn over a sample's stack copy.
 * @ctx: the struct sf_sample.
 * Return: 0, or -14 (-EFAULT) outside the copy.
 */
int sf_sample_read(void *ctx, uint64_t addr, void *dst, size_t len);

/**
 * sf_sample_get_reg() - sframe_get_reg_fn over a sample's registers.
 * @ctx: the struct sf_sample.
 * Return: 0, or -SFRAME_ERR_NO_REG (as -4115) for a register not recorded
 * (at or above nregs, or marked in regs_missing).
 */
int sf_sample_get_reg(void *ctx, unsigned int dwarf_reg, uint64_t *value);

#endif /* SFRAME_TOOL_SNAPSHOT_H */
