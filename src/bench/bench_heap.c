/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * bench_heap.c - count heap allocations by interposing malloc and friends.
 *
 * The core references no allocator at all (tests/check_freestanding.sh
 * checks its symbols); this shows the same at run time: the process's
 * allocation count does not move across a million lookups or unwinds. The
 * definitions here take precedence over the C library's for every caller in
 * the process, and hand the work to glibc's own entry points. Sanitizer
 * builds keep their allocator: there the counter reports -1 (unknown).
 */
#include "bench_util.h"

#include <stdlib.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || \
	__has_feature(thread_sanitizer)
#define BENCH_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BENCH_SANITIZED 1
#endif

#if defined(__GLIBC__) && !defined(BENCH_SANITIZED)

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);

static unsigned long heap_calls;
static unsigned long heap_mark;

static void count(void)
{
	__atomic_fetch_add(&heap_calls, 1, __ATOMIC_RELAXED);
}

void *malloc(size_t size)
{
	count();
	return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	count();
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	count();
	return __libc_realloc(p, size);
}

void bench_heap_begin(void)
{
	heap_mark = __atomic_load_n(&heap_calls, __ATOMIC_RELAXED);
}

long bench_heap_end(void)
{
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
