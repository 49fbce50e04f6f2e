/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * bench_synth.h - synthetic amd64 SFrame sections of any size, laid out as
 * a linker writes them (sorted FDEs, start fields PC-relative), with the
 * function shapes gcc produces: leaves, frame-pointer frames, pushes of
 * callee-saved registers with a stack adjustment, and large frames whose
 * offsets need 2-byte words. Used to show how lookup cost grows with the
 * number of functions.
 */
#ifndef SFRAME_TOOL_BENCH_SYNTH_H
#define SFRAME_TOOL_BENCH_SYNTH_H

#include <stddef.h>
#include <stdint.h>

#include "bench_util.h"

/**
 * struct bench_synth - a generated section and its functions.
 * @data: the section bytes (malloc'ed).
 * @size: their number.
 * @vaddr: the section's run-time address.
 * @nfuncs: functions (FDEs).
 * @nfres: rows in all.
 * @func_start: run-time start of each function, ascending.
 * @func_size: size of each.
 */
struct bench_synth {
	unsigned char *data;
	uint64_t size;
	uint64_t vaddr;
	uint32_t nfuncs;
	uint64_t nfres;
	uint64_t *func_start;
	uint32_t *func_size;
};

/**
 * bench_synth_make() - generate a section.
 * @s: filled on success.
 * @nfuncs: number of functions, 1 .. 4,000,000.
 * @version: 2 (20-byte FDEs, PCREL flag as binutils 2.45 writes) or 3.
 * @seed: shapes and sizes are drawn from it.
 *
 * Return: 0, or -1 (bad arguments, out of memory).
 */
int bench_synth_make(struct bench_synth *s, uint32_t nfuncs, unsigned int version,
		     uint64_t seed);

/* @n random PCs, each inside a random function. */
void bench_synth_pcs(const struct bench_synth *s, struct bench_rng *r, uint64_t *pcs, size_t n);

void bench_synth_free(struct bench_synth *s);

#endif /* SFRAME_TOOL_BENCH_SYNTH_H */
