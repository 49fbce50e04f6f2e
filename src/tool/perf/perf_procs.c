/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * perf_procs.c - the processes and threads of a perf recording: their
 * ids, names and executable mappings as the records tell them.
 */
#include "perf/perf_procs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* perf_event_header.misc bits (perf_event.h). */
#define MISC_MMAP_DATA		0x2000u	/* MMAP: a data mapping */
#define MISC_COMM_EXEC		0x2000u	/* COMM: the name changed at exec */
#define PROT_EXEC_BIT		0x4u

static size_t id_slot(const struct sf_perf_idmap *m, uint32_t key)
{
	size_t i = (size_t)((key * 0x9e3779b1u) & (m->cap - 1));

	while (m->vals[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void *idmap_get(const struct sf_perf_idmap *m, uint32_t key)
{
	return m->cap ? m->vals[id_slot(m, key)] : NULL;
}

static int idmap_put(struct sf_perf_idmap *m, uint32_t key, void *val)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap) {
		struct sf_perf_idmap bigger = { 0 };
		size_t j;

		bigger.cap = m->cap ? m->cap * 2 : 64;
		bigger.keys = calloc(bigger.cap, sizeof(*bigger.keys));
		bigger.vals = calloc(bigger.cap, sizeof(*bigger.vals));
		if (!bigger.keys || !bigger.vals) {
			free(bigger.keys);
			free(bigger.vals);
			return -ENOMEM;
		}
		for (j = 0; j < m->cap; j++) {
			if (m->vals[j]) {
				i = id_slot(&bigger, m->keys[j]);
				bigger.keys[i] = m->keys[j];
				bigger.vals[i] = m->vals[j];
			}
		}
		bigger.n = m->n;
		free(m->keys);
		free(m->vals);
		*m = bigger;
	}
	i = id_slot(m, key);
	if (!m->vals[i])
		m->n++;
	m->keys[i] = key;
	m->vals[i] = val;
	return 0;
}

struct sf_perf_proc *sf_perf_proc_find(const struct sf_perf_procs *ps, uint32_t pid)
{
	return idmap_get(&ps->procs, pid);
}

struct sf_perf_thread *sf_perf_thread_find(const struct sf_perf_procs *ps, uint32_t tid)
{
	return idmap_get(&ps->threads, tid);
}

struct sf_perf_proc *sf_perf_proc_get(struct sf_perf_procs *ps, uint32_t pid)
{
	struct sf_perf_proc *p = sf_perf_proc_find(ps, pid);

	if (p)
		return p;
	p = calloc(1, sizeof(*p));
	if (!p || idmap_put(&ps->procs, pid, p)) {
		free(p);
		return NULL;
	}
	p->pid = pid;
	return p;
}

void sf_perf_proc_drop_maps(struct sf_perf_proc *p)
{
	sf_maps_free(&p->maps);
	p->cap = 0;
	if (p->built)
		sf_proc_modules_free(&p->pm);
	p->built = false;
}

static void proc_free(struct sf_perf_proc *p)
{
	sf_perf_proc_drop_maps(p);
	free(p->entries);
	free(p);
}

struct sf_perf_thread *sf_perf_thread_get(struct sf_perf_procs *ps, uint32_t tid)
{
	struct sf_perf_thread *t = sf_perf_thread_find(ps, tid);

	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	if (!t || idmap_put(&ps->threads, tid, t)) {
		free(t);
		return NULL;
	}
	t->tid = tid;
	return t;
}

int sf_perf_thread_set_comm(struct sf_perf_thread *t, const char *comm)
{
	char *c = strdup(comm);

	if (!c)
		return -ENOMEM;
	free(t->comm);
	t->comm = c;
	return 0;
}

/*
 * Insert a copy of @nm (its path copied too), cutting away what it covers
 * of older mappings (a mapping replaces them).
 */
int sf_perf_proc_add_map(struct sf_perf_proc *p, const struct sf_map *nm)
{
	struct sf_maps *ms = &p->maps;
	uint64_t start = nm->start, end = nm->end;
	struct sf_map m = *nm;
	size_t i, at;

	m.path = strdup(nm->path);
	if (!m.path)
		return -ENOMEM;
	/* Room for the new one and for a mapping split in two. */
	if (ms->n + 2 > p->cap) {
		size_t ncap = p->cap ? p->cap * 2 : 16;
		struct sf_map *nv = realloc(ms->v, ncap * sizeof(*nv));

		if (!nv) {
			free(m.path);
			return -ENOMEM;
		}
		ms->v = nv;
		p->cap = ncap;
	}
	for (i = 0; i < ms->n;) {
		struct sf_map *o = &ms->v[i];

		if (o->end <= start || o->start >= end) {
			i++;
			continue;
		}
		if (o->start < start && o->end > end) {
			/* The new mapping punches a hole: keep both ends. */
			struct sf_map tail = *o;

			tail.path = strdup(o->path);
			if (!tail.path) {
				free(m.path);
				return -ENOMEM;
			}
			tail.offset += end - o->start;
			tail.start = end;
			o->end = start;
			memmove(&ms->v[i + 2], &ms->v[i + 1], (ms->n - i - 1) * sizeof(*o));
			ms->v[i + 1] = tail;
			ms->n++;
			break;
		}
		if (o->start < start) {
			o->end = start;
			i++;
		} else if (o->end > end) {
			o->offset += end - o->start;
			o->start = end;
			i++;
		} else {
			free(o->path);
			memmove(o, o + 1, (ms->n - i - 1) * sizeof(*o));
			ms->n--;
		}
	}
	for (at = 0; at < ms->n && ms->v[at].start < start; at++)
		;
	memmove(&ms->v[at + 1], &ms->v[at], (ms->n - at) * sizeof(m));
	ms->v[at] = m;
	ms->n++;
	if (p->built)
		sf_proc_modules_free(&p->pm);
	p->built = false;
	return 0;
}

int sf_perf_proc_copy_maps(struct sf_perf_proc *dst, const struct sf_perf_proc *src)
{
	size_t i;

	sf_perf_proc_drop_maps(dst);
	for (i = 0; i < src->maps.n; i++) {
		if (sf_perf_proc_add_map(dst, &src->maps.v[i]))
			return -ENOMEM;
	}
	return 0;
}

void sf_perf_procs_free(struct sf_perf_procs *ps)
{
	size_t i;

	for (i = 0; i < ps->procs.cap; i++) {
		if (ps->procs.vals[i])
			proc_free(ps->procs.vals[i]);
	}
	for (i = 0; i < ps->threads.cap; i++) {
		struct sf_perf_thread *t = ps->threads.vals[i];

		if (t) {
			free(t->comm);
			free(t);
		}
	}
	free(ps->procs.keys);
	free(ps->procs.vals);
	free(ps->threads.keys);
	free(ps->threads.vals);
}

bool sf_perf_mmap_is_code(const struct sf_perf_record *rec, const struct sf_perf_mmap *m)
{
	/* The kernel's own maps (pid -1), data mappings, empty ones. */
	if (m->pid == UINT32_MAX || m->len == 0 || m->addr + m->len < m->addr)
		return false;
	return rec->type == SF_PERF_RECORD_MMAP2 ? (m->prot & PROT_EXEC_BIT) != 0
						 : (rec->misc & MISC_MMAP_DATA) == 0;
}

int sf_perf_procs_mmap(struct sf_perf_procs *ps, const struct sf_perf_record *rec,
		       const struct sf_perf_mmap *m)
{
	struct sf_map map;
	struct sf_perf_proc *p;

	if (!sf_perf_mmap_is_code(rec, m))
		return 0;
	p = sf_perf_proc_get(ps, m->pid);
	if (!p)
		return -ENOMEM;
	memset(&map, 0, sizeof(map));
	map.start = m->addr;
	map.end = m->addr + m->len;
	map.offset = m->pgoff;
	/* An MMAP2 record with a build id has no device and inode. */
	if (!m->has_build_id) {
		map.inode = m->ino;
		snprintf(map.dev, sizeof(map.dev), "%02x:%02x", m->maj & 0xfffu, m->min & 0xfffffu);
	}
	memcpy(map.perms, "r-xp", 5);
	map.path = (char *)m->filename;
	return sf_perf_proc_add_map(p, &map);
}

int sf_perf_procs_comm(struct sf_perf_procs *ps, const struct sf_perf_record *rec,
		       const struct sf_perf_comm *c)
{
	struct sf_perf_thread *t = sf_perf_thread_get(ps, c->tid);

	if (!t || sf_perf_thread_set_comm(t, c->comm))
		return -ENOMEM;
	if (rec->misc & MISC_COMM_EXEC) {
		struct sf_perf_proc *p = sf_perf_proc_get(ps, c->pid);

		if (!p)
			return -ENOMEM;
		sf_perf_proc_drop_maps(p);
	}
	return 0;
}

int sf_perf_procs_fork(struct sf_perf_procs *ps, const struct sf_perf_task *tk)
{
	struct sf_perf_thread *t = sf_perf_thread_get(ps, tk->tid), *parent;

	if (!t)
		return -ENOMEM;
	parent = sf_perf_thread_find(ps, tk->ptid);
	if (parent && parent != t && parent->comm && sf_perf_thread_set_comm(t, parent->comm))
		return -ENOMEM;
	if (tk->pid != tk->ppid) {
		/* A new process: a copy of its parent's address space. */
		struct sf_perf_proc *p = sf_perf_proc_get(ps, tk->pid);
		const struct sf_perf_proc *pp = sf_perf_proc_find(ps, tk->ppid);

		if (!p)
			return -ENOMEM;
		if (pp)
			return sf_perf_proc_copy_maps(p, pp);
		sf_perf_proc_drop_maps(p);
	}
	return 0;
}
