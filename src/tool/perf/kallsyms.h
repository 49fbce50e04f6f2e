/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * kallsyms.h - the kernel's text symbols for a perf recording's kernel
 * frames.
 */
#ifndef SFRAME_TOOL_PERF_KALLSYMS_H
#define SFRAME_TOOL_PERF_KALLSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf/buildid_cache.h"

/* One kernel symbol of /proc/kallsyms. */
struct sf_ksym {
	uint64_t addr;
	const char *name;
	const char *module;	/* "[ext4]" for a module's, NULL for the kernel's own */
};

/* The symbols, loaded at the first kernel frame, if they are the recorded kernel's. */
struct sf_kallsyms {
	struct sf_ksym *v;
	size_t n;
	bool tried;
	char *text;		/* the file as read: the names point into it */
};

/*
 * The kernel symbol at or below @addr, or NULL; the first call loads them
 * (from @pf's build-id cache, counted in its from_cache) and, unless
 * @quiet, says on standard error why there are none.
 */
const struct sf_ksym *sf_kallsyms_find(struct sf_kallsyms *ks, struct sf_perf_files *pf, bool quiet,
				       uint64_t addr);

void sf_kallsyms_free(struct sf_kallsyms *ks);

#endif /* SFRAME_TOOL_PERF_KALLSYMS_H */
