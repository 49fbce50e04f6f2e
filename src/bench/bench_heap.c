/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * bench_heap.c - count the heap allocations made by the code linked into
 * the benchmark.
 *
 * The core references no allocator at all (tests/check_freestanding.sh
 * checks its symbols); this shows the same at run time, for the library
 * and the callbacks a caller gives it. The benchmark is linked with
 * --wrap=malloc, --wrap=calloc and --wrap=realloc: the linker sends the
 * calls of the objects it links (the library, the tool's loaders, the
 * benchmark itself) to the __wrap_ functions here, which count and call the
 * C library's. Nothing is replaced for the rest of the process: the C
 * library's own allocations and those of the peers loaded with dlopen()
 * (libsframe, libgcc, libunwind) neither pass here nor change, and a
 * sanitizer keeps its allocator. Built without the wrap
 * (BENCH_HEAP_WRAP undefined: a linker without --wrap), or when a probe
 * allocation is not seen, the counter reports -1 (unknown), never 0.
 */
#include "bench_util.h"

#include <stdbool.h>
#include <stdlib.h>

#ifdef BENCH_HEAP_WRAP

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);

static unsigned long heap_calls;
static unsigned long heap_mark;

static void count(void)
{
	__atomic_fetch_add(&heap_calls, 1, __ATOMIC_RELAXED);
}

void *__wrap_malloc(size_t size)
{
	count();
	return __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
	count();
	return __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
	count();
	return __real_realloc(p, size);
}

/* Does a call to malloc() from this file reach the counter? */
static bool heap_wrapped(void)
{
	static int state;	/* 0 unknown, 1 counted, -1 not counted */

	if (state == 0) {
		unsigned long before = __atomic_load_n(&heap_calls, __ATOMIC_RELAXED);
		void *volatile p = malloc(16);

		free(p);
		state = __atomic_load_n(&heap_calls, __ATOMIC_RELAXED) != before ? 1 : -1;
	}
	return state == 1;
}

void bench_heap_begin(void)
{
	heap_wrapped();
	heap_mark = __atomic_load_n(&heap_calls, __ATOMIC_RELAXED);
}

long bench_heap_end(void)
{
	if (!heap_wrapped())
		return -1;
	return (long)(__atomic_load_n(&heap_calls, __ATOMIC_RELAXED) - heap_mark);
}

#else

void bench_heap_begin(void)
{
}

long bench_heap_end(void)
{
	return -1;
}

#endif
