/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * replay.c - run a fuzz target without libFuzzer, on files.
 *
 * Usage: TARGET PATH...
 * Each PATH is a file or a directory; a directory's files are replayed in
 * name order, recursively, skipping names that start with '.', README
 * files and EXPECTED (the hostile fixtures' list). Every input goes through LLVMFuzzerTestOneInput() once; an
 * invariant violation abort()s, so the run fails on the first bad input and
 * names it on stderr first. Exits 1 when a PATH does not exist or nothing
 * was replayed (a misconfigured test must not pass quietly).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_target.h"

static unsigned long replayed;

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL, *nbuf;
	size_t len = 0, cap = 0, n;

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			nbuf = realloc(buf, cap);
			if (!nbuf) {
				fprintf(stderr, "%s: out of memory\n", path);
				free(buf);
				fclose(f);
				return -1;
			}
			buf = nbuf;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "%s: read error\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	/* Exactly-sized, as libFuzzer passes inputs: ASan sees reads past the end. */
	nbuf = malloc(len ? len : 1);
	if (!nbuf) {
		free(buf);
		return -1;
	}
	if (len)
		memcpy(nbuf, buf, len);
	free(buf);
	fprintf(stderr, "replay %s (%zu bytes)\n", path, len);
	LLVMFuzzerTestOneInput(nbuf, len);
	free(nbuf);
	replayed++;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_path(const char *path)
{
	struct stat st;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int ret = 0;
	DIR *d;

	if (stat(path, &st)) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path);
	d = opendir(path);
	if (!d) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strncmp(de->d_name, "README", 6) == 0 ||
		    strcmp(de->d_name, "EXPECTED") == 0)
			continue;
		if (n == cap) {
			char **nn;

			cap = cap ? cap * 2 : 64;
			nn = realloc(names, cap * sizeof(*names));
			if (!nn) {
				ret = -1;
				break;
			}
			names = nn;
		}
		if (asprintf(&names[n], "%s/%s", path, de->d_name) < 0) {
			ret = -1;
			break;
		}
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		if (ret == 0 && replay_path(names[i]))
			ret = -1;
		free(names[i]);
	}
	free(names);
	return ret;
}

int main(int argc, char **argv)
{
	int i, ret = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE-OR-DIRECTORY...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++)
		if (replay_path(argv[i]))
			ret = 1;
	printf("%lu inputs replayed\n", replayed);
	if (replayed == 0) {
		fprintf(stderr, "no input found\n");
		ret = 1;
	}
	return ret;
}
