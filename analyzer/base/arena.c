/* arena.c - bump allocator, one per translation unit (see arena.h).
 *
 * Blocks grow from 1 KiB, doubling up to 64 KiB (an allocation larger than
 * that gets a block of its own size), so that the many small arenas a run
 * keeps (one per file's result) cost what they hold, not 64 KiB each,
 * while the IR's arenas reach 64 KiB blocks after a few steps. */
#include "smemlint/arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sm_arena_block {
	struct sm_arena_block *prev;
	size_t size;
	max_align_t data[];
};

#define SM_ARENA_FIRST_BLOCK 1024
#define SM_ARENA_MAX_STEP (64 * 1024)

void sm_arena_init(struct sm_arena *a, size_t limit)
{
	memset(a, 0, sizeof(*a));
	a->limit = limit;
}

void *sm_arena_alloc(struct sm_arena *a, size_t n)
{
	size_t align = sizeof(max_align_t);
	n = (n + align - 1) & ~(align - 1);
	if (n == 0)
		n = align;
	if (!a->head || a->used + n > a->head->size) {
		size_t step = a->head ? a->head->size * 2 : SM_ARENA_FIRST_BLOCK;
		if (step > SM_ARENA_MAX_STEP)
			step = SM_ARENA_MAX_STEP;
		size_t size = n > step ? n : step;
		if (size > SIZE_MAX - sizeof(struct sm_arena_block) ||
		    (a->limit && a->total + size > a->limit)) {
			a->failed = 1;
			return NULL;
		}
		struct sm_arena_block *b = malloc(sizeof(*b) + size);
		if (!b) {
			a->failed = 1;
			return NULL;
		}
		b->prev = a->head;
		b->size = size;
		a->head = b;
		a->used = 0;
		a->total += size;
	}
	void *p = (char *)a->head->data + a->used;
	a->used += n;
	memset(p, 0, n);
	return p;
}

char *sm_arena_strndup(struct sm_arena *a, const char *s, size_t n)
{
	char *p = sm_arena_alloc(a, n + 1);
	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *sm_arena_strdup(struct sm_arena *a, const char *s)
{
	return s ? sm_arena_strndup(a, s, strlen(s)) : NULL;
}

char *sm_arena_printf(struct sm_arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	char *p = sm_arena_alloc(a, (size_t)n + 1);
	if (!p)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void sm_arena_release(struct sm_arena *a)
{
	struct sm_arena_block *b = a->head;
	while (b) {
		struct sm_arena_block *prev = b->prev;
		free(b);
		b = prev;
	}
	a->head = NULL;
	a->used = a->total = 0;
}
