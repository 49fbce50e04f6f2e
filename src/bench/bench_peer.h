/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * bench_peer.h - GNU libsframe, loaded at run time, as the peer to compare
 * with. Nothing of binutils is needed to build the bench: the few entry
 * points are declared here from the library's documented ABI and looked up
 * with dlsym, for both generations of its API:
 *   - 2.46 and later (libsframe.so.3): PCs are int64, the offset getters
 *     take the FDE type;
 *   - 2.40 .. 2.45 (libsframe.so.0, .so.1): PCs are int32, no FDE type.
 * Either way a lookup is what a libsframe user does: sframe_find_fre() with
 * the PC relative to the section's address, then the CFA, RA and FP getters.
 */
#ifndef SFRAME_TOOL_BENCH_PEER_H
#define SFRAME_TOOL_BENCH_PEER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The row buffer: 2.46+ needs 29 bytes, earlier ones 17; with room to spare. */
struct bench_peer_fre {
	uint64_t space[16];
};

struct bench_peer {
	void *handle;
	bool api3;			/* 2.46+ signatures */
	void *(*decode)(const char *buf, size_t size, int *errp);
	void (*decoder_free)(void **ctx);
	int (*find_fre3)(const void *ctx, int64_t pc, struct bench_peer_fre *fre);
	int (*find_fre0)(const void *ctx, int32_t pc, struct bench_peer_fre *fre);
	int32_t (*get3[3])(const void *ctx, const struct bench_peer_fre *fre, uint32_t fde_type,
			   int *errp);
	int32_t (*get0[3])(const void *ctx, const struct bench_peer_fre *fre, int *errp);
	const char *(*errmsg)(int err);
};

/**
 * bench_peer_load() - dlopen libsframe at @path and find its entry points.
 * Return: 0, or -1 with a message in @err.
 */
int bench_peer_load(struct bench_peer *p, const char *path, char *err, size_t errlen);

void bench_peer_unload(struct bench_peer *p);

/**
 * bench_peer_lookup() - one lookup.
 * @p: the loaded library.
 * @ctx: from p->decode().
 * @pc_rel: PC minus the section's run-time address.
 * @cfa: the CFA offset, when found.
 *
 * Return: 0 when a row was found, -1 otherwise. The RA and FP getters are
 * called too (their results are folded into @cfa's caller's checksum via
 * @extra), so the cost is that of a full row.
 */
int bench_peer_lookup(const struct bench_peer *p, const void *ctx, int64_t pc_rel,
		      int32_t *cfa, int32_t *extra);

#endif /* SFRAME_TOOL_BENCH_PEER_H */
