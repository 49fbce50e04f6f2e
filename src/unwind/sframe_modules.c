/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * sframe_modules.c - the caller-owned table of text ranges.
 *
 * Kept sorted by start so that finding a PC's module is a binary search;
 * adding and removing shift entries, which happens only when libraries are
 * loaded or unloaded.
 */
#include <sframe/sframe_unwind.h>

void sframe_modules_init(struct sframe_module_table *t, struct sframe_module *slots,
			 uint32_t capacity)
{
	if (!t)
		return;
	t->slots = slots;
	t->count = 0;
	t->capacity = slots ? capacity : 0;
}

/* Index of the first module starting above @addr (0 .. count). */
static uint32_t upper_bound(const struct sframe_module_table *t, uint64_t addr)
{
	uint32_t lo = 0, hi = t->count;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->slots[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int sframe_modules_add(struct sframe_module_table *t, uint64_t start, uint64_t end,
		       const struct sframe_section *sec, void *user)
{
	uint32_t pos, i;

	if (!t || start >= end)
		return -SFRAME_ERR_INVAL;
	pos = upper_bound(t, start);
	if (pos > 0 && t->slots[pos - 1].end > start)
		return -SFRAME_ERR_OVERLAP;
	if (pos < t->count && t->slots[pos].start < end)
		return -SFRAME_ERR_OVERLAP;
	if (t->count >= t->capacity)
		return -SFRAME_ERR_FULL;
	for (i = t->count; i > pos; i--)
		t->slots[i] = t->slots[i - 1];
	t->slots[pos].start = start;
	t->slots[pos].end = end;
	t->slots[pos].sec = sec;
	t->slots[pos].rows = NULL;
	t->slots[pos].user = user;
	t->count++;
	return 0;
}

/* The slot of the module that starts at @start, or -SFRAME_ERR_NOT_FOUND. */
static int64_t slot_at(const struct sframe_module_table *t, uint64_t start)
{
	uint32_t pos = upper_bound(t, start);

	if (pos == 0 || t->slots[pos - 1].start != start)
		return -SFRAME_ERR_NOT_FOUND;
	return pos - 1;
}

int sframe_modules_set_rows(struct sframe_module_table *t, uint64_t start,
			    const struct sframe_rows *rows)
{
	int64_t pos;

	if (!t)
		return -SFRAME_ERR_INVAL;
	pos = slot_at(t, start);
	if (pos < 0)
		return (int)pos;
	if (rows && !t->slots[pos].sec)
		return -SFRAME_ERR_INVAL;
	t->slots[pos].rows = rows;
	return 0;
}

int sframe_modules_remove(struct sframe_module_table *t, uint64_t start)
{
	int64_t pos;
	uint32_t i;

	if (!t)
		return -SFRAME_ERR_INVAL;
	pos = slot_at(t, start);
	if (pos < 0)
		return (int)pos;
	for (i = (uint32_t)pos; i + 1 < t->count; i++)
		t->slots[i] = t->slots[i + 1];
	t->count--;
	return 0;
}

const struct sframe_module *sframe_modules_find(const struct sframe_module_table *t,
						uint64_t pc)
{
	uint32_t pos;

	if (!t || !t->slots)
		return NULL;
	pos = upper_bound(t, pc);
	if (pos == 0 || pc >= t->slots[pos - 1].end)
		return NULL;
	return &t->slots[pos - 1];
}
