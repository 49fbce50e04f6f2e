/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * bench_stack.c - stack usage of the core, from gcc's own accounting.
 *
 * .su lines read "FILE:LINE:COL:FUNCTION<TAB>BYTES<TAB>QUALIFIERS"; .ci
 * files (VCG graphs) name each call edge "sourcename" -> "targetname" and
 * give each defined function's frame in its label ("N bytes (static)").
 * The core never recurses, so every path from an entry point is finite; a
 * cycle would be reported rather than followed. Indirect calls (the read
 * callbacks) are the embedder's and count as 0.
 */
#include "bench_stack.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FUNCS 512
#define MAX_EDGES 4096
#define NAME_LEN 96

struct func {
	char name[NAME_LEN];
	long frame;		/* -1: not defined in the files read */
	bool dynamic;		/* frame size not static (alloca, VLA) */
	bool listed;		/* named in a .su file */
	int state;		/* DFS: 0 new, 1 on the path, 2 done */
	long deepest;		/* frame + deepest callee path */
	int next;		/* callee on the deepest path, or -1 */
};

struct graph {
	struct func f[MAX_FUNCS];
	int nf;
	int edge_from[MAX_EDGES];
	int edge_to[MAX_EDGES];
	int ne;
	bool cycle;
};

static int func_index(struct graph *g, const char *name)
{
	int i;

	for (i = 0; i < g->nf; i++)
		if (strcmp(g->f[i].name, name) == 0)
			return i;
	if (g->nf == MAX_FUNCS)
		return -1;
	snprintf(g->f[g->nf].name, NAME_LEN, "%s", name);
	g->f[g->nf].frame = -1;
	g->f[g->nf].next = -1;
	return g->nf++;
}

/* Static functions of the same name in two files: keep the larger frame. */
static void define(struct graph *g, const char *name, long frame, bool dynamic, bool listed)
{
	int i = func_index(g, name);

	if (i < 0)
		return;
	if (frame > g->f[i].frame)
		g->f[i].frame = frame;
	g->f[i].dynamic |= dynamic;
	g->f[i].listed |= listed;
}

static void read_su(struct graph *g, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t'), *colon, *end;
		long bytes;

		if (!tab)
			continue;
		*tab = 0;
		colon = strrchr(line, ':');
		bytes = strtol(tab + 1, &end, 10);
		if (!colon || end == tab + 1)
			continue;
		define(g, colon + 1, bytes, strstr(end, "dynamic") != NULL, true);
	}
	fclose(f);
}

/* The quoted value after @key in @line, copied to @out. */
static bool quoted(const char *line, const char *key, char *out, size_t outlen)
{
	const char *p = strstr(line, key), *q;
	size_t n;

	if (!p)
		return false;
	p = strchr(p + strlen(key), '"');
	if (!p)
		return false;
	q = strchr(++p, '"');
	if (!q)
		return false;
	n = (size_t)(q - p);
	if (n >= outlen)
		n = outlen - 1;
	memcpy(out, p, n);
	out[n] = 0;
	return true;
}

static void read_ci(struct graph *g, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[2048], a[NAME_LEN], b[NAME_LEN];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		/*
		 * Nodes carry the frame too, under the names the edges use (a
		 * static function's is "FILE:NAME.constprop.0" where the .su
		 * file says "NAME.constprop").
		 */
		if (strncmp(line, "node:", 5) == 0 && quoted(line, "title:", a, sizeof(a))) {
			const char *lab = strstr(line, "label:"), *nl;
			char *end;
			long bytes;

			/* The label's last line: "N bytes (static)". */
			nl = lab ? strstr(lab, " bytes (") : NULL;
			if (nl) {
				while (nl > lab && nl[-1] >= '0' && nl[-1] <= '9')
					nl--;
				bytes = strtol(nl, &end, 10);
				if (end != nl)
					define(g, a, bytes, strstr(end, "dynamic") != NULL, false);
			}
			continue;
		}
		if (strncmp(line, "edge:", 5) == 0 && quoted(line, "sourcename:", a, sizeof(a)) &&
		    quoted(line, "targetname:", b, sizeof(b))) {
			int from = func_index(g, a), to = func_index(g, b);

			if (from >= 0 && to >= 0 && g->ne < MAX_EDGES) {
				g->edge_from[g->ne] = from;
				g->edge_to[g->ne] = to;
				g->ne++;
			}
		}
	}
	fclose(f);
}

static long deepest(struct graph *g, int i)
{
	struct func *fn = &g->f[i];
	int e;

	if (fn->state == 2)
		return fn->deepest;
	if (fn->state == 1) {
		g->cycle = true;
		return 0;
	}
	fn->state = 1;
	fn->deepest = 0;
	fn->next = -1;
	for (e = 0; e < g->ne; e++) {
		long d;

		if (g->edge_from[e] != i || g->edge_to[e] == i)
			continue;
		d = deepest(g, g->edge_to[e]);
		if (d > fn->deepest) {
			fn->deepest = d;
			fn->next = g->edge_to[e];
		}
	}
	fn->deepest += fn->frame > 0 ? fn->frame : 0;
	fn->state = 2;
	return fn->deepest;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcmp(s + a - b, suffix) == 0;
}

int bench_cmd_stack_usage(int argc, char **argv)
{
	static const char *const entries[] = {
		"sframe_lookup", "sframe_unwind_step", "sframe_unwind_stack", "sframe_check",
		"sframe_open",
	};
	static struct graph g;
	int i, best = -1, defined = 0, su_files = 0;
	size_t k;

	if (argc < 2) {
		fprintf(stderr, "sframe-bench: stack-usage: needs a directory\n");
		return 2;
	}
	memset(&g, 0, sizeof(g));
	for (i = 1; i < argc; i++) {
		DIR *d = opendir(argv[i]);
		struct dirent *e;

		if (!d) {
			fprintf(stderr, "sframe-bench: cannot open %s\n", argv[i]);
			return 2;
		}
		while ((e = readdir(d))) {
			char path[4096];

			snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
			if (ends_with(e->d_name, ".su")) {
				read_su(&g, path);
				su_files++;
			} else if (ends_with(e->d_name, ".ci")) {
				read_ci(&g, path);
			}
		}
		closedir(d);
	}
	if (su_files == 0) {
		fprintf(stderr, "sframe-bench: no .su files (compile with -fstack-usage)\n");
		return 1;
	}
	for (i = 0; i < g.nf; i++) {
		if (!g.f[i].listed)
			continue;
		defined++;
		if (best < 0 || g.f[i].frame > g.f[best].frame)
			best = i;
	}
	printf("stack-usage functions=%d max_frame=%ld function=%s\n", defined,
	       best >= 0 ? g.f[best].frame : 0, best >= 0 ? g.f[best].name : "-");
	for (i = 0; i < g.nf; i++)
		if (g.f[i].dynamic && g.f[i].listed)
			printf("stack-usage dynamic frame: %s\n", g.f[i].name);
	if (g.ne == 0)
		return 0;
	for (k = 0; k < sizeof(entries) / sizeof(entries[0]); k++) {
		int at = -1, j;

		for (j = 0; j < g.nf; j++)
			if (strcmp(g.f[j].name, entries[k]) == 0 && g.f[j].frame >= 0)
				at = j;
		if (at < 0)
			continue;
		printf("stack-usage path entry=%s bytes=%ld path=", entries[k], deepest(&g, at));
		for (j = at; j >= 0; j = g.f[j].next) {
			/* "FILE:NAME" titles of static functions: the name. */
			const char *name = strrchr(g.f[j].name, ':');

			printf("%s%s(%ld)", j == at ? "" : ">", name ? name + 1 : g.f[j].name,
			       g.f[j].frame > 0 ? g.f[j].frame : 0);
		}
		printf("\n");
	}
	if (g.cycle)
		printf("stack-usage warning: the call graph has a cycle\n");
	return 0;
}
