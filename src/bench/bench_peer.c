/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * bench_peer.c - GNU libsframe through dlopen (see bench_peer.h).
 */
#include "bench_peer.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* dlsym's object pointer into a function pointer, without a cast warning. */
static int sym(void *h, const char *name, void *fnp, size_t fnsize)
{
	void *p = dlsym(h, name);

	if (!p)
		return -1;
	memcpy(fnp, &p, fnsize);
	return 0;
}

#define SYM(h, name, field) sym((h), (name), &(field), sizeof(field))

int bench_peer_load(struct bench_peer *p, const char *path, char *err, size_t errlen)
{
	static const char *const getters[3] = {
		"sframe_fre_get_cfa_offset", "sframe_fre_get_ra_offset", "sframe_fre_get_fp_offset"
	};
	int i, bad = 0;

	memset(p, 0, sizeof(*p));
	p->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!p->handle) {
		snprintf(err, errlen, "%s", dlerror());
		return -1;
	}
	/* The FDE-type argument and 64-bit PCs came with the v3 functions. */
	p->api3 = dlsym(p->handle, "sframe_decoder_get_funcdesc_v3") != NULL;
	bad |= SYM(p->handle, "sframe_decode", p->decode);
	bad |= SYM(p->handle, "sframe_decoder_free", p->decoder_free);
	bad |= SYM(p->handle, "sframe_errmsg", p->errmsg);
	if (p->api3)
		bad |= SYM(p->handle, "sframe_find_fre", p->find_fre3);
	else
		bad |= SYM(p->handle, "sframe_find_fre", p->find_fre0);
	for (i = 0; i < 3; i++) {
		if (p->api3)
			bad |= SYM(p->handle, getters[i], p->get3[i]);
		else
			bad |= SYM(p->handle, getters[i], p->get0[i]);
	}
	if (bad) {
		snprintf(err, errlen, "%s: not a libsframe (missing entry points)", path);
		bench_peer_unload(p);
		return -1;
	}
	return 0;
}

void bench_peer_unload(struct bench_peer *p)
{
	if (p->handle)
		dlclose(p->handle);
	memset(p, 0, sizeof(*p));
}

int bench_peer_lookup(const struct bench_peer *p, const void *ctx, int64_t pc_rel,
		      int32_t *cfa, int32_t *extra)
{
	struct bench_peer_fre fre;
	int e = 0;

	if (p->api3) {
		/*
		 * sframe_find_fre() does not say which FDE it used, so the type
		 * cannot be asked for; DEFAULT is right for every FDE but the
		 * rare FLEX ones (realigned stacks).
		 */
		if (p->find_fre3(ctx, pc_rel, &fre) != 0)
			return -1;
		*cfa = p->get3[0](ctx, &fre, 0, &e);
		*extra = p->get3[1](ctx, &fre, 0, &e) ^ p->get3[2](ctx, &fre, 0, &e);
	} else {
		if (pc_rel < INT32_MIN || pc_rel > INT32_MAX)
			return -1;
		if (p->find_fre0(ctx, (int32_t)pc_rel, &fre) != 0)
			return -1;
		*cfa = p->get0[0](ctx, &fre, &e);
		*extra = p->get0[1](ctx, &fre, &e) ^ p->get0[2](ctx, &fre, &e);
	}
	return 0;
}
