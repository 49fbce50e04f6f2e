/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * kallsyms.c - the kernel's text symbols, as perf script names kernel
 * frames: the recorded kernel's kallsyms from perf's build-id cache, else
 * /proc/kallsyms when the running kernel is the recorded one.
 */
#include "perf/kallsyms.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>

static int cmp_ksym(const void *a, const void *b)
{
	const struct sf_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Is the running kernel the recorded one (the same build id)? */
static bool kernel_is_recorded(const struct sf_perf_files *pf, char *why, size_t len)
{
	const struct sf_perf_recorded_id *want = sf_perf_recorded_id(pf, "[kernel.kallsyms]");
	unsigned char notes[4096];
	const unsigned char *id;
	size_t n = 0, idlen;
	FILE *f;

	if (!want) {
		snprintf(why, len, "the recording has no kernel build id");
		return false;
	}
	f = fopen("/sys/kernel/notes", "rb");
	if (f) {
		n = fread(notes, 1, sizeof(notes), f);
		fclose(f);
	}
	if (!sf_notes_build_id(notes, n, 4, false, &id, &idlen) || idlen < want->len ||
	    memcmp(id, want->id, want->len) != 0) {
		snprintf(why, len, "the running kernel is not the recorded one");
		return false;
	}
	return true;
}

/* All of a file, also one whose size stat() does not tell (/proc); NULL on failure. */
static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	size_t cap = 1 << 20, n = 0, got;
	struct stat st;
	char *buf, *nb;

	if (f && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size < SIZE_MAX / 4)
		cap = (size_t)st.st_size + 1;	/* one read more sees the end */
	buf = malloc(cap + 1);
	if (!buf || !f) {
		free(buf);
		if (f)
			fclose(f);
		return NULL;
	}
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			nb = realloc(buf, cap * 2 + 1);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/*
 * The text symbols of kallsyms, as perf script names kernel frames: the
 * copy perf record left in its build-id cache (the recorded kernel's, with
 * the modules where they were loaded then), else /proc/kallsyms when the
 * running kernel is the one recorded (without privileges its addresses
 * read 0 and are not used). Lines "ADDR TYPE NAME [MODULE]" are cut in
 * place: the names point into the file's copy.
 */
static void load_ksyms(struct sf_kallsyms *ks, struct sf_perf_files *pf, bool quiet)
{
	char why[128], buf[PATH_MAX + 256], *p, *end;
	const char *cached = sf_perf_cache_path(pf, "[kernel.kallsyms]", buf, sizeof(buf));
	size_t cap = 0, len = 0;
	bool sorted = true;

	ks->tried = true;
	if (cached)
		ks->text = read_all(cached, &len);
	if (ks->text) {
		pf->from_cache++;
	} else if (!kernel_is_recorded(pf, why, sizeof(why))) {
		if (!quiet)
			fprintf(stderr, "sframe: perf: kernel frames without symbols: %s\n", why);
		return;
	} else {
		ks->text = read_all("/proc/kallsyms", &len);
	}
	if (!ks->text)
		return;
	for (p = ks->text, end = p + len; p < end; p++) {
		char *line = p, *name, *module = NULL, type;
		uint64_t addr = 0;
		struct sf_ksym *k;

		p = memchr(p, '\n', (size_t)(end - p));
		if (!p)
			p = end;
		*p = '\0';
		for (; (*line >= '0' && *line <= '9') || (*line >= 'a' && *line <= 'f'); line++)
			addr = addr << 4 | (uint64_t)(*line <= '9' ? *line - '0' : *line - 'a' + 10);
		if (line[0] != ' ' || !line[1] || line[2] != ' ' || !addr)
			continue;
		type = line[1];
		if (!strchr("tTwW", type))
			continue;
		name = line + 3;
		line = strpbrk(name, " \t");
		if (line) {
			*line++ = '\0';
			module = strchr(line, '[');
		}
		if (ks->n == cap) {
			size_t nc = cap ? cap * 2 : 65536;
			struct sf_ksym *nv = realloc(ks->v, nc * sizeof(*nv));

			if (!nv)
				break;
			ks->v = nv;
			cap = nc;
		}
		k = &ks->v[ks->n++];
		k->addr = addr;
		k->name = name;
		/* "[ext4]" as perf names a module's map. */
		k->module = module && strchr(module, ']') ? module : NULL;
		if (k->module)
			strchr(module, ']')[1] = '\0';
		sorted &= ks->n == 1 || k[-1].addr <= addr;
	}
	if (!sorted)
		qsort(ks->v, ks->n, sizeof(*ks->v), cmp_ksym);
}

/* The kernel symbol at or below @addr, or NULL. */
const struct sf_ksym *sf_kallsyms_find(struct sf_kallsyms *ks, struct sf_perf_files *pf, bool quiet,
				       uint64_t addr)
{
	size_t lo = 0, hi;

	if (!ks->tried)
		load_ksyms(ks, pf, quiet);
	hi = ks->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &ks->v[lo - 1] : NULL;
}

void sf_kallsyms_free(struct sf_kallsyms *ks)
{
	free(ks->v);
	free(ks->text);
}
