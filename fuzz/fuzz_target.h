/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * fuzz_target.h - what a fuzz target is: the libFuzzer entry point, which
 * replay.c calls too, and FZ_ASSUME, which core the target runs against.
 *
 * Each target is built three ways (fuzz/meson.build): linked with replay.c
 * (a main() that runs corpus files; every meson build), with libFuzzer
 * (clang only), and both again against a core compiled with
 * -DSFRAME_ASSUME_MASK=SFRAME_ASSUME_VALID. Only the targets see FZ_ASSUME:
 * the helper library (fuzz_*.c, ref_*.c) is the same for both cores.
 */
#ifndef SFRAME_FUZZ_TARGET_H
#define SFRAME_FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>

#ifndef FZ_ASSUME
#define FZ_ASSUME 0	/* 1: the core was built with SFRAME_ASSUME_MASK=SFRAME_ASSUME_VALID */
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* SFRAME_FUZZ_TARGET_H */
