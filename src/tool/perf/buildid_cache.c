/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * buildid_cache.c - where the files a perf recording names are read: perf's
 * build-id cache (by the build ids the recording gives), else the path
 * itself or a copy under --symfs; a file whose build id is not the
 * recorded one is not used.
 */
#include "perf/buildid_cache.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * Where a recorded path is read: the path itself, or under --symfs DIR
 * the path inside DIR, else DIR/BASENAME (a folder the files were copied
 * into). NULL when it names no file ("[vdso]", "//anon").
 */
static const char *file_path(const struct sf_perf_files *pf, const char *path, char *buf, size_t len,
			     bool base)
{
	const char *slash = strrchr(path, '/');

	if (path[0] != '/')
		return NULL;
	if (!pf->symfs)
		return path;
	snprintf(buf, len, "%s%s", pf->symfs, base ? slash : path);
	return buf;
}

const struct sf_perf_recorded_id *sf_perf_recorded_id(const struct sf_perf_files *pf,
						     const char *path)
{
	size_t i;

	for (i = 0; i < pf->nids; i++) {
		if (strcmp(pf->ids[i].path, path) == 0)
			return &pf->ids[i];
	}
	return NULL;
}

int sf_perf_add_recorded_id(struct sf_perf_files *pf, const char *path, const unsigned char *id,
			    size_t len)
{
	struct sf_perf_recorded_id *r = (struct sf_perf_recorded_id *)sf_perf_recorded_id(pf, path),
		*nv;

	if (len == 0 || len > SF_BUILD_ID_MAX)
		return 0;
	if (!r) {
		nv = realloc(pf->ids, (pf->nids + 1) * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		pf->ids = nv;
		r = &pf->ids[pf->nids];
		r->path = strdup(path);
		if (!r->path)
			return -ENOMEM;
		pf->nids++;
	}
	memcpy(r->id, id, len);
	r->len = len;
	return 0;
}

/*
 * A file whose build id is not the recorded one was rebuilt or replaced
 * since: its symbols and SFrame rows would describe other code. Unload it.
 */
static void check_build_id(const struct sf_perf_files *pf, struct sf_proc_file *f, const char *recorded,
			   const char *read_path)
{
	const struct sf_perf_recorded_id *want = sf_perf_recorded_id(pf, recorded);
	char h1[2 * SF_BUILD_ID_MAX + 1], h2[2 * SF_BUILD_ID_MAX + 1] = "none";
	const unsigned char *id;
	size_t len = 0;

	if (!want || !f->loaded)
		return;
	if (sf_elf_build_id(f->in.file, f->in.file_size, &id, &len)) {
		/* perf keeps at most 20 bytes of a longer id. */
		if (len >= want->len && memcmp(id, want->id, want->len) == 0)
			return;
		sf_build_id_hex(h2, id, len);
	}
	sf_build_id_hex(h1, want->id, want->len);
	sf_input_free(&f->in);
	f->loaded = false;
	snprintf(f->why, sizeof(f->why), "%.120s is not the file recorded (build id %.40s, recorded %.40s)",
		 read_path, h2, h1);
}

/*
 * perf record keeps a copy of each file that has samples, of the vDSO and
 * of /proc/kallsyms in its build-id cache, at DIR/.build-id/NN/REST/LEAF
 * (NN and REST: the build id in hex; LEAF "kallsyms" for the kernel,
 * "vdso" for a vDSO, else "elf"). Such a copy is the recorded file by its
 * name, so it comes first, as for perf script: a file on disk may have
 * been rebuilt since. NULL when the recording gives no build id for @path.
 */
const char *sf_perf_cache_path(const struct sf_perf_files *pf, const char *path, char *buf, size_t len)
{
	const struct sf_perf_recorded_id *id = sf_perf_recorded_id(pf, path);
	char h[2 * SF_BUILD_ID_MAX + 1];
	const char *leaf = "elf";

	if (!id || !pf->buildid_dir)
		return NULL;
	if (strcmp(path, "[kernel.kallsyms]") == 0)
		leaf = "kallsyms";
	else if (strncmp(path, "[vdso", 5) == 0)
		leaf = "vdso";
	else if (path[0] != '/')
		return NULL;
	sf_build_id_hex(h, id->id, id->len);
	if ((size_t)snprintf(buf, len, "%s/.build-id/%.2s/%s/%s", pf->buildid_dir, h, h + 2,
			     leaf) >= len)
		return NULL;
	return buf;
}

/*
 * The places a recorded file is read from, in order: perf's build-id
 * cache, then the path itself (under --symfs DIR: DIR/PATH, then
 * DIR/BASENAME). Returns how many there are in @paths; @cached says
 * whether the first is the cache's.
 */
static int recorded_paths(const struct sf_perf_files *pf, const char *path, char bufs[3][PATH_MAX + 256],
			  const char *paths[3], bool *cached)
{
	int n = 0;

	paths[n] = sf_perf_cache_path(pf, path, bufs[n], sizeof(bufs[n]));
	*cached = paths[n] != NULL;
	if (paths[n])
		n++;
	paths[n] = file_path(pf, path, bufs[n], sizeof(bufs[n]), false);
	if (paths[n])
		n++;
	if (pf->symfs && path[0] == '/') {
		paths[n] = file_path(pf, path, bufs[n], sizeof(bufs[n]), true);
		n++;
	}
	return n;
}

/* The value of "dir" in the [buildid] section of a perf config file, or NULL. */
static const char *config_buildid_dir(const char *path, char *buf, size_t len)
{
	char line[PATH_MAX + 64], *p, *e;
	bool in_section = false, found = false;
	FILE *f = fopen(path, "re");

	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		for (e = p + strlen(p); e > p && strchr(" \t\r\n", e[-1]); e--)
			;
		*e = '\0';
		if (*p == '[') {
			in_section = strncasecmp(p, "[buildid]", 9) == 0;
		} else if (in_section && strncasecmp(p, "dir", 3) == 0) {
			for (p += 3; *p == ' ' || *p == '\t'; p++)
				;
			if (*p++ != '=')
				continue;
			for (; *p == ' ' || *p == '\t'; p++)
				;
			if (*p == '"' && e > p + 1 && e[-1] == '"') {
				p++;
				e[-1] = '\0';
			}
			found = *p && (size_t)snprintf(buf, len, "%s", p) < len;
		}
	}
	fclose(f);
	return found ? buf : NULL;
}

/*
 * Where perf keeps its build-id cache: PERF_BUILDID_DIR (perf sets it for
 * the commands it runs), else buildid.dir of ~/.perfconfig or
 * /etc/perfconfig, else ~/.debug.
 */
const char *sf_perf_default_buildid_dir(char *buf, size_t len)
{
	const char *env = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");
	char user[PATH_MAX];

	if (env && env[0])
		return env;
	if (home && home[0] &&
	    (size_t)snprintf(user, sizeof(user), "%s/.perfconfig", home) < sizeof(user) &&
	    config_buildid_dir(user, buf, len))
		return buf;
	if (config_buildid_dir("/etc/perfconfig", buf, len))
		return buf;
	if (home && home[0] && (size_t)snprintf(buf, len, "%s/.debug", home) < len)
		return buf;
	return NULL;
}

/* The loader of the set: files by the path the recording names. */
void sf_perf_load_recorded_file(struct sf_proc_file *f, const struct sf_map *m, void *ctx)
{
	struct sf_perf_files *pf = ctx;
	char bufs[3][PATH_MAX + 256];
	const char *paths[3];
	bool cached;
	int i, n = recorded_paths(pf, m->path, bufs, paths, &cached);

	if (n == 0) {
		snprintf(f->why, sizeof(f->why), "the recording holds no copy of %.200s", m->path);
		return;
	}
	for (i = 0; i < n; i++) {
		if (sf_proc_file_open(f, paths[i]) == 0)
			break;
	}
	if (i == n) {
		if (m->path[0] != '/')
			snprintf(f->why, sizeof(f->why), "no copy of %.40s in the build-id cache %.160s",
				 m->path, pf->buildid_dir);
		return;
	}
	check_build_id(pf, f, m->path, paths[i]);
	if (cached && i == 0 && f->loaded)
		pf->from_cache++;
}

/* e_machine of an ELF file on disk (either byte order), 0 if it is not one. */
uint16_t sf_perf_file_machine(const struct sf_perf_files *pf, const char *recorded)
{
	char bufs[3][PATH_MAX + 256], err[512];
	const char *paths[3];
	bool cached;
	int i, n = recorded_paths(pf, recorded, bufs, paths, &cached);
	struct sf_input in;
	uint16_t machine;

	for (i = 0; i < n; i++) {
		if (sf_input_bytes(paths[i], &in, err, sizeof(err)) == SF_INPUT_OK)
			break;
	}
	if (i == n)
		return 0;
	machine = sf_elf_machine(in.file, in.file_size);
	sf_input_free(&in);
	return machine;
}

void sf_perf_files_free(struct sf_perf_files *pf)
{
	size_t i;

	for (i = 0; i < pf->nids; i++)
		free(pf->ids[i].path);
	free(pf->ids);
}
