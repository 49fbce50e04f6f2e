/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * flamegraph.c - distinct stacks with their counts, written folded or as
 * an SVG flame graph.
 *
 * The SVG is drawn from the distinct stacks alone: sorted frame by frame
 * (a stack before its own prefix, so that a frame's children start at its
 * left edge and its self samples are the gap on the right), consecutive
 * stacks share the frames of their common prefix, and one pass with a stack
 * of open frames gives every node of the merged call tree its place and
 * width without building the tree.
 */
#include "out/flamegraph.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define SVG_WIDTH	1200.0
#define SVG_PAD		10.0	/* left and right margins */
#define ROW		16.0	/* height of a frame's row */
#define TOP		60.0	/* title, buttons */
#define BOTTOM		36.0	/* the details line */
#define MIN_PX		0.1	/* narrower frames are not drawn */
#define CHAR_PX		7.2	/* 12 px monospace: what a label can hold */

/* The folded format's separators cannot occur inside a stored name. */
static unsigned char fold_byte(unsigned char c)
{
	if (c == ';')
		return ':';
	return c < 0x20 || c == 0x7f ? '?' : c;
}

#define FNV_BASIS	0xcbf29ce484222325ULL
#define FNV_PRIME	0x100000001b3ULL

static uint32_t fnv_fold(uint64_t h)
{
	return (uint32_t)(h ^ (h >> 32));
}

/* FNV-1a over the name as stored. */
static uint32_t name_hash(const char *s)
{
	uint64_t h = FNV_BASIS;

	for (; *s; s++)
		h = (h ^ fold_byte((unsigned char)*s)) * FNV_PRIME;
	return fnv_fold(h);
}

static bool name_equal(const char *stored, const char *s)
{
	for (; *stored && *s; stored++, s++)
		if ((unsigned char)*stored != fold_byte((unsigned char)*s))
			return false;
	return !*stored && !*s;
}

/*
 * The array @p with room for @need elements of @size bytes (doubling *@cap
 * as needed), or NULL, when @p stays as it was.
 */
static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 16;

	if (need <= *cap)
		return p;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return NULL;
		ncap *= 2;
	}
	if (ncap > SIZE_MAX / size)
		return NULL;
	p = realloc(p, ncap * size);
	if (p)
		*cap = ncap;
	return p;
}

/* Keep the table at most half full before one more of its @n entries. */
static int table_reserve(struct sf_fold_slot **tab, size_t *cap, size_t n)
{
	size_t ncap = *cap ? *cap * 2 : 64, i, slot;
	struct sf_fold_slot *nt;

	if ((n + 1) * 2 <= *cap)
		return 0;
	if (n >= UINT32_MAX - 1 || ncap > SIZE_MAX / sizeof(*nt))
		return -ENOMEM;
	nt = calloc(ncap, sizeof(*nt));
	if (!nt)
		return -ENOMEM;
	for (i = 0; i < *cap; i++) {
		if (!(*tab)[i].index)
			continue;
		for (slot = (*tab)[i].hash & (ncap - 1); nt[slot].index; slot = (slot + 1) & (ncap - 1))
			;
		nt[slot] = (*tab)[i];
	}
	free(*tab);
	*tab = nt;
	*cap = ncap;
	return 0;
}

static int intern(struct sf_fold *f, const char *s, uint32_t *id)
{
	uint32_t h = name_hash(s);
	size_t slot, len = strlen(s), i;
	char **names, *copy;
	int ret;

	ret = table_reserve(&f->name_tab, &f->name_tab_cap, f->n_names);
	if (ret)
		return ret;
	for (slot = h & (f->name_tab_cap - 1); f->name_tab[slot].index;
	     slot = (slot + 1) & (f->name_tab_cap - 1)) {
		uint32_t cand = f->name_tab[slot].index - 1;

		if (f->name_tab[slot].hash == h && name_equal(f->names[cand], s)) {
			*id = cand;
			return 0;
		}
	}
	names = grow(f->names, &f->cap_names, f->n_names + 1, sizeof(*names));
	if (!names)
		return -ENOMEM;
	f->names = names;
	copy = malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	for (i = 0; i < len; i++)
		copy[i] = (char)fold_byte((unsigned char)s[i]);
	copy[len] = '\0';
	f->names[f->n_names] = copy;
	*id = (uint32_t)f->n_names;
	f->name_tab[slot] = (struct sf_fold_slot){ (uint32_t)++f->n_names, h };
	return 0;
}

int sf_fold_init(struct sf_fold *f)
{
	memset(f, 0, sizeof(*f));
	return 0;
}

int sf_fold_add(struct sf_fold *f, const char *const *frames, size_t n, uint64_t count)
{
	struct sf_fold_stack *stacks;
	uint64_t fnv = FNV_BASIS;
	uint32_t *ids, h;
	size_t i, slot;
	int ret;

	if (!n)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!frames[i])
			return -EINVAL;
	if (count > UINT64_MAX - f->total)
		return -EOVERFLOW;
	if (!count)
		return 0;
	if (n > SIZE_MAX - f->n_frames)
		return -ENOMEM;
	/* The ids go where a new stack's will stay; kept only if it is new. */
	ids = grow(f->frames, &f->cap_frames, f->n_frames + n, sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	f->frames = ids;
	ret = table_reserve(&f->stack_tab, &f->stack_tab_cap, f->n_stacks);
	if (ret)
		return ret;
	ids = f->frames + f->n_frames;
	for (i = 0; i < n; i++) {
		ret = intern(f, frames[i], &ids[i]);
		if (ret)
			return ret;
		fnv = (fnv ^ ids[i]) * FNV_PRIME;
	}
	h = fnv_fold(fnv);
	for (slot = h & (f->stack_tab_cap - 1); f->stack_tab[slot].index;
	     slot = (slot + 1) & (f->stack_tab_cap - 1)) {
		struct sf_fold_stack *s = &f->stacks[f->stack_tab[slot].index - 1];

		if (f->stack_tab[slot].hash == h && s->depth == n &&
		    !memcmp(f->frames + s->first, ids, n * sizeof(*ids))) {
			s->count += count;
			f->total += count;
			return 0;
		}
	}
	stacks = grow(f->stacks, &f->cap_stacks, f->n_stacks + 1, sizeof(*stacks));
	if (!stacks)
		return -ENOMEM;
	f->stacks = stacks;
	f->stacks[f->n_stacks] = (struct sf_fold_stack){ f->n_frames, n, count };
	f->stack_tab[slot] = (struct sf_fold_slot){ (uint32_t)++f->n_stacks, h };
	f->n_frames += n;
	f->total += count;
	return 0;
}

void sf_fold_free(struct sf_fold *f)
{
	size_t i;

	for (i = 0; i < f->n_names; i++)
		free(f->names[i]);
	free(f->names);
	free(f->name_tab);
	free(f->frames);
	free(f->stacks);
	free(f->stack_tab);
	memset(f, 0, sizeof(*f));
}

/*
 * The writers set errno to 0 first: a write that failed early (a full
 * buffer flushed) leaves its errno, which a later flush would not repeat.
 */
static int write_status(FILE *out)
{
	if (fflush(out) == 0 && !ferror(out))
		return 0;
	return errno ? -errno : -EIO;
}

static const char *name_of(const struct sf_fold *f, const uint32_t *ids, size_t i)
{
	return f->names[ids[i]];
}

/* Two stacks to order (from their indexes), and the frames they share first. */
struct pair {
	const struct sf_fold_stack *a, *b;
	const uint32_t *fa, *fb;
	size_t shared;
};

static struct pair pair_of(const struct sf_fold *f, const void *pa, const void *pb)
{
	struct pair p;
	size_t n;

	p.a = &f->stacks[*(const size_t *)pa];
	p.b = &f->stacks[*(const size_t *)pb];
	p.fa = f->frames + p.a->first;
	p.fb = f->frames + p.b->first;
	n = p.a->depth < p.b->depth ? p.a->depth : p.b->depth;
	for (p.shared = 0; p.shared < n && p.fa[p.shared] == p.fb[p.shared]; p.shared++)
		;
	return p;
}

/*
 * The order of the folded lines' bytes, without building them: up to the
 * first frame that differs the lines are equal, and from there on the
 * rest of the shorter name is followed by ';' (more frames) or by the end
 * of the stack, which sorts first.
 */
static int cmp_lines(const void *pa, const void *pb, void *ctx)
{
	struct pair p = pair_of(ctx, pa, pb);
	const unsigned char *x, *y;
	size_t i = p.shared;
	int cx, cy;

	if (i == p.a->depth || i == p.b->depth)
		return p.a->depth < p.b->depth ? -1 : p.a->depth > p.b->depth;
	x = (const unsigned char *)name_of(ctx, p.fa, i);
	y = (const unsigned char *)name_of(ctx, p.fb, i);
	for (; *x && *x == *y; x++, y++)
		;
	cx = *x ? *x : i + 1 < p.a->depth ? ';' : -1;
	cy = *y ? *y : i + 1 < p.b->depth ? ';' : -1;
	return cx < cy ? -1 : 1;
}

/* Frame by frame by name; a stack before its own prefix. */
static int cmp_frames(const void *pa, const void *pb, void *ctx)
{
	struct pair p = pair_of(ctx, pa, pb);

	if (p.shared == p.a->depth || p.shared == p.b->depth)
		return p.a->depth > p.b->depth ? -1 : p.a->depth < p.b->depth;
	return strcmp(name_of(ctx, p.fa, p.shared), name_of(ctx, p.fb, p.shared));
}

/* The indexes of the stacks, sorted by @cmp. */
static size_t *sorted_stacks(const struct sf_fold *f,
			     int (*cmp)(const void *, const void *, void *))
{
	size_t *order = malloc((f->n_stacks ? f->n_stacks : 1) * sizeof(*order)), i;

	if (!order)
		return NULL;
	for (i = 0; i < f->n_stacks; i++)
		order[i] = i;
	qsort_r(order, f->n_stacks, sizeof(*order), cmp, (void *)f);
	return order;
}

int sf_fold_write(const struct sf_fold *f, FILE *out)
{
	size_t *order, i, j;

	errno = 0;
	order = sorted_stacks(f, cmp_lines);
	if (!order)
		return -ENOMEM;
	for (i = 0; i < f->n_stacks; i++) {
		const struct sf_fold_stack *s = &f->stacks[order[i]];

		for (j = 0; j < s->depth; j++) {
			if (j)
				fputc(';', out);
			fputs(name_of(f, f->frames + s->first, j), out);
		}
		fprintf(out, " %" PRIu64 "\n", s->count);
	}
	free(order);
	return write_status(out);
}

/* ---- SVG ---------------------------------------------------------------- */

/*
 * Length of the valid UTF-8 XML character at @s, else 0. An XML parser
 * refuses the whole document for one byte outside UTF-8 (overlong forms
 * and surrogates included) or for U+FFFE or U+FFFF, which XML 1.0 leaves
 * out of its characters.
 */
static size_t xml_char_len(const unsigned char *s)
{
	uint32_t cp;
	size_t n, i;

	if (*s < 0x80)
		return 1;
	if (*s >= 0xc2 && *s <= 0xdf)
		n = 2, cp = *s & 0x1f;
	else if (*s >= 0xe0 && *s <= 0xef)
		n = 3, cp = *s & 0x0f;
	else if (*s >= 0xf0 && *s <= 0xf4)
		n = 4, cp = *s & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

/*
 * Write the first @max characters of @s as XML text (nothing when @out is
 * NULL); return how many characters @s has.
 */
static size_t xml_text(FILE *out, const char *str, size_t max)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t chars = 0, len;

	for (; *s; s += len ? len : 1, chars++) {
		len = xml_char_len(s);
		if (!out || chars >= max)
			continue;
		if (!len)
			fputs("&#xFFFD;", out);
		else if (*s == '&')
			fputs("&amp;", out);
		else if (*s == '<')
			fputs("&lt;", out);
		else if (*s == '>')
			fputs("&gt;", out);
		else if (*s == '"')
			fputs("&quot;", out);
		else if (*s == '\'')
			fputs("&#39;", out);
		else if (*s < 0x20 || *s == 0x7f)
			fputc('?', out);
		else
			fwrite(s, 1, len, out);
	}
	return chars;
}

struct svg {
	const struct sf_fold *f;
	FILE *out;		/* NULL while measuring */
	double scale;		/* px per sample */
	double height;
	size_t max_depth;	/* deepest frame drawn (root: 0) */
	size_t hidden;		/* frames too narrow to draw */
};

struct open_frame {
	uint32_t id;
	uint64_t start, count;
};

static void svg_frame(struct svg *g, const char *name, size_t depth, uint64_t start,
		      uint64_t count)
{
	double x = SVG_PAD + (double)start * g->scale;
	double w = depth ? (double)count * g->scale : SVG_WIDTH - 2 * SVG_PAD;
	double y = g->height - BOTTOM - (double)(depth + 1) * ROW;
	double fit = (w - 6) / CHAR_PX;
	uint64_t total = g->f->total;
	uint32_t h;
	size_t chars;

	if (w < MIN_PX) {
		g->hidden++;
		return;
	}
	if (depth > g->max_depth)
		g->max_depth = depth;
	if (!g->out)
		return;
	h = name_hash(name);
	fputs("<g class=\"f\"><title>", g->out);
	xml_text(g->out, name, SIZE_MAX);
	fprintf(g->out, " (%" PRIu64 " sample%s, %.2f%%)</title>", count, count == 1 ? "" : "s",
		total ? 100.0 * (double)count / (double)total : 0.0);
	fprintf(g->out, "<rect x=\"%.3f\" y=\"%.1f\" width=\"%.3f\" height=\"%.1f\" "
		"fill=\"rgb(%u,%u,%u)\" rx=\"2\" ry=\"2\"/><text x=\"%.2f\" y=\"%.1f\">",
		x, y, w, ROW - 1, 205 + (unsigned)(h % 51), (unsigned)((h >> 8) % 191),
		(unsigned)((h >> 16) % 56), x + 3, y + 11.5);
	chars = xml_text(NULL, name, 0);
	if (fit >= (double)chars)
		xml_text(g->out, name, SIZE_MAX);
	else if (fit >= 3) {
		xml_text(g->out, name, (size_t)fit - 2);
		fputs("..", g->out);
	}
	fputs("</text></g>\n", g->out);
}

/* Every node of the merged call tree, children before their parent. */
static void svg_frames(struct svg *g, const size_t *order, struct open_frame *open)
{
	const struct sf_fold *f = g->f;
	const uint32_t *prev = NULL;
	size_t depth = 0, i, k;
	uint64_t at = 0;

	for (i = 0; i <= f->n_stacks; i++) {
		const struct sf_fold_stack *s = i < f->n_stacks ? &f->stacks[order[i]] : NULL;
		const uint32_t *ids = s ? f->frames + s->first : NULL;
		size_t common = 0;

		while (s && prev && common < depth && common < s->depth &&
		       ids[common] == prev[common])
			common++;
		while (depth > common) {
			depth--;
			svg_frame(g, f->names[open[depth].id], depth + 1, open[depth].start,
				  open[depth].count);
		}
		if (!s)
			break;
		for (; depth < s->depth; depth++)
			open[depth] = (struct open_frame){ ids[depth], at, 0 };
		for (k = 0; k < depth; k++)
			open[k].count += s->count;
		at += s->count;
		prev = ids;
	}
	svg_frame(g, "all", 0, 0, f->total);
}

/* The interactive part; browsers run it, image viewers leave it out. */
static const char svg_script[] =
	"(function () {\n"
	"'use strict';\n"
	"var W = 1200, PAD = 10, CW = 7.2, EPS = 0.01;\n"
	"function byId(id) { return document.getElementById(id); }\n"
	"var details = byId('details'), matched = byId('matched'), area = byId('frames');\n"
	"var unzoom = byId('unzoom'), search = byId('search');\n"
	"var frames = [], root = null, searching = false;\n"
	"Array.prototype.forEach.call(area.children, function (g) {\n"
	"  var r = g.getElementsByTagName('rect')[0];\n"
	"  var info = g.getElementsByTagName('title')[0].textContent;\n"
	"  var o = { g: g, r: r, t: g.getElementsByTagName('text')[0], info: info,\n"
	"    name: info.substring(0, info.lastIndexOf(' (')),\n"
	"    x: +r.getAttribute('x'), w: +r.getAttribute('width'), y: +r.getAttribute('y') };\n"
	"  g.frame = o;\n"
	"  frames.push(o);\n"
	"  if (!root || o.y > root.y) root = o;\n"
	"});\n"
	"/* The label rule of the C writer: the name, or its start and \"..\". */\n"
	"function place(o, x, w) {\n"
	"  var fit = Math.floor((w - 6) / CW), chars = Array.from(o.name);\n"
	"  o.r.setAttribute('x', x.toFixed(3));\n"
	"  o.r.setAttribute('width', w.toFixed(3));\n"
	"  o.t.setAttribute('x', (x + 3).toFixed(2));\n"
	"  o.t.textContent = chars.length <= fit ? o.name :\n"
	"    fit >= 3 ? chars.slice(0, fit - 2).join('') + '..' : '';\n"
	"}\n"
	"/* z's subtree fills the width, its ancestors are dimmed, the rest hidden. */\n"
	"function zoom(z) {\n"
	"  var scale = (W - 2 * PAD) / z.w;\n"
	"  frames.forEach(function (o) {\n"
	"    var inside = o.x >= z.x - EPS && o.x + o.w <= z.x + z.w + EPS;\n"
	"    var around = o.x <= z.x + EPS && o.x + o.w >= z.x + z.w - EPS;\n"
	"    o.g.classList.remove('hide', 'parent');\n"
	"    if (o.y <= z.y && inside) {\n"
	"      place(o, PAD + (o.x - z.x) * scale, o.w * scale);\n"
	"    } else if (o.y > z.y && around) {\n"
	"      o.g.classList.add('parent');\n"
	"      place(o, PAD, W - 2 * PAD);\n"
	"    } else {\n"
	"      o.g.classList.add('hide');\n"
	"    }\n"
	"  });\n"
	"  unzoom.classList.toggle('hide', z === root);\n"
	"}\n"
	"/* Matches nest: their share is the length of the union of their spans. */\n"
	"function mark(term) {\n"
	"  var re = null, spans = [], sum = 0, end = -Infinity;\n"
	"  try { re = new RegExp(term); } catch (e) { re = null; }\n"
	"  frames.forEach(function (o) {\n"
	"    var hit = re ? re.test(o.name) : o.name.indexOf(term) >= 0;\n"
	"    o.g.classList.toggle('match', hit);\n"
	"    if (hit) spans.push([o.x, o.x + o.w]);\n"
	"  });\n"
	"  spans.sort(function (a, b) { return a[0] - b[0]; });\n"
	"  spans.forEach(function (s) {\n"
	"    if (s[1] > end) { sum += s[1] - Math.max(s[0], end); end = s[1]; }\n"
	"  });\n"
	"  searching = true;\n"
	"  search.textContent = 'Reset Search';\n"
	"  matched.textContent = 'Matched: ' + (100 * sum / root.w).toFixed(2) + '%';\n"
	"}\n"
	"function unmark() {\n"
	"  frames.forEach(function (o) { o.g.classList.remove('match'); });\n"
	"  searching = false;\n"
	"  search.textContent = 'Search';\n"
	"  matched.textContent = ' ';\n"
	"}\n"
	"function ask() {\n"
	"  var term = window.prompt('Search frames (regular expression)', '');\n"
	"  if (term) mark(term);\n"
	"}\n"
	"function frameOf(e) { var g = e.target.closest('g.f'); return g ? g.frame : null; }\n"
	"area.addEventListener('click', function (e) { var o = frameOf(e); if (o) zoom(o); });\n"
	"area.addEventListener('mouseover', function (e) {\n"
	"  var o = frameOf(e);\n"
	"  if (o) details.textContent = o.info;\n"
	"});\n"
	"area.addEventListener('mouseout', function () { details.textContent = ' '; });\n"
	"unzoom.addEventListener('click', function () { zoom(root); });\n"
	"search.addEventListener('click', function () { if (searching) unmark(); else ask(); });\n"
	"window.addEventListener('keydown', function (e) {\n"
	"  if (e.key === 'Escape') zoom(root);\n"
	"  else if ((e.ctrlKey || e.metaKey) && e.key === 'f') { e.preventDefault(); ask(); }\n"
	"});\n"
	"})();\n";

int sf_flamegraph_write(const struct sf_fold *f, FILE *out, const char *title)
{
	struct svg g = { f, NULL, 0, 0, 0, 0 };
	size_t *order, max = 1, i;
	struct open_frame *open;

	errno = 0;
	order = sorted_stacks(f, cmp_frames);
	if (!order)
		return -ENOMEM;
	for (i = 0; i < f->n_stacks; i++)
		if (f->stacks[i].depth > max)
			max = f->stacks[i].depth;
	open = malloc(max * sizeof(*open));
	if (!open) {
		free(order);
		return -ENOMEM;
	}
	g.scale = (SVG_WIDTH - 2 * SVG_PAD) / (double)(f->total ? f->total : 1);
	/* First measure: the height follows from the deepest frame drawn. */
	svg_frames(&g, order, open);
	g.height = TOP + (double)(g.max_depth + 1) * ROW + BOTTOM;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n", SVG_WIDTH, g.height, SVG_WIDTH,
		g.height);
	fprintf(out, "<!-- %zu frames narrower than %.1f px not drawn -->\n", g.hidden, MIN_PX);
	fputs("<defs><linearGradient id=\"bg\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\">"
	      "<stop offset=\"5%\" stop-color=\"#f7f7f7\"/>"
	      "<stop offset=\"95%\" stop-color=\"#ebe7c8\"/></linearGradient></defs>\n"
	      "<style>\n"
	      "text { font-family: monospace; font-size: 12px; fill: #000; }\n"
	      "#title { font-family: sans-serif; font-size: 17px; text-anchor: middle; }\n"
	      "#unzoom, #search { cursor: pointer; }\n"
	      "#unzoom:hover, #search:hover { fill: #a00; }\n"
	      ".f { cursor: pointer; }\n"
	      ".f text { pointer-events: none; }\n"
	      ".f:hover rect { stroke: #000; stroke-width: 0.5; }\n"
	      ".match rect { fill: rgb(160,90,230); }\n"
	      ".parent { opacity: 0.5; }\n"
	      ".hide { display: none; }\n"
	      "</style>\n", out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"url(#bg)\"/>\n",
		SVG_WIDTH, g.height);
	fprintf(out, "<text id=\"title\" x=\"%.0f\" y=\"24\">", SVG_WIDTH / 2);
	xml_text(out, title ? title : "Flame Graph", SIZE_MAX);
	fprintf(out, "</text>\n<text id=\"unzoom\" class=\"hide\" x=\"%.0f\" y=\"24\">"
		"Reset Zoom</text>\n", SVG_PAD);
	fprintf(out, "<text id=\"search\" x=\"%.0f\" y=\"24\" text-anchor=\"end\">Search</text>\n",
		SVG_WIDTH - SVG_PAD);
	fprintf(out, "<text id=\"details\" x=\"%.0f\" y=\"%.0f\"> </text>\n", SVG_PAD,
		g.height - 14);
	fprintf(out, "<text id=\"matched\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\"> </text>\n",
		SVG_WIDTH - SVG_PAD, g.height - 14);
	fputs("<g id=\"frames\">\n", out);
	g.out = out;
	g.hidden = 0;
	svg_frames(&g, order, open);
	fprintf(out, "</g>\n<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n</svg>\n",
		svg_script);
	free(open);
	free(order);
	return write_status(out);
}
