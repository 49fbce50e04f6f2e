/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * buildid_cache.h - where the files a perf recording names are read: perf's
 * build-id cache, the paths themselves, --symfs.
 */
#ifndef SFRAME_TOOL_PERF_BUILDID_CACHE_H
#define SFRAME_TOOL_PERF_BUILDID_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "read/elf_input.h"
#include "read/proc_maps.h"

/* A build id the recording gives for a path (MMAP2 records, the build-id feature). */
struct sf_perf_recorded_id {
	char *path;
	unsigned char id[SF_BUILD_ID_MAX];
	size_t len;
};

/* The recording's files: where they are read and the build ids it gives. */
struct sf_perf_files {
	const char *symfs;		/* --symfs DIR, or NULL */
	const char *buildid_dir;	/* perf's build-id cache, NULL for none */
	uint64_t from_cache;		/* files read from it */
	struct sf_perf_recorded_id *ids;
	size_t nids;
};

/* The build id recorded for @path, or NULL. */
const struct sf_perf_recorded_id *sf_perf_recorded_id(const struct sf_perf_files *pf,
						     const char *path);

/* Remember @id (@len bytes; none kept when 0 or too long) for @path; -ENOMEM. */
int sf_perf_add_recorded_id(struct sf_perf_files *pf, const char *path, const unsigned char *id,
			    size_t len);

/*
 * @path's copy in the build-id cache, written into @buf; NULL when the
 * recording gives no build id for it (or there is no cache).
 */
const char *sf_perf_cache_path(const struct sf_perf_files *pf, const char *path, char *buf,
			       size_t len);

/* The cache perf uses (PERF_BUILDID_DIR, perfconfig, ~/.debug) into @buf, or NULL. */
const char *sf_perf_default_buildid_dir(char *buf, size_t len);

/* The loader of an image set (ctx: the struct sf_perf_files): files by their recorded paths. */
void sf_perf_load_recorded_file(struct sf_proc_file *f, const struct sf_map *m, void *ctx);

/* e_machine of the file a recorded path names (either byte order), 0 if it is not ELF. */
uint16_t sf_perf_file_machine(const struct sf_perf_files *pf, const char *recorded);

void sf_perf_files_free(struct sf_perf_files *pf);

#endif /* SFRAME_TOOL_PERF_BUILDID_CACHE_H */
