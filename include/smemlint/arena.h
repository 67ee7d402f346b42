/* arena.h - one bump allocator per translation unit.
 *
 * Every IR node and string of one analyzed file lives in one sm_arena, and
 * the whole arena is released when the file is done (as git's mem_pool).
 * Allocation never fails silently: on out-of-memory the arena records the
 * failure and returns NULL; callers check sm_arena_failed() once at the end.
 */
#ifndef SMEMLINT_ARENA_H
#define SMEMLINT_ARENA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sm_arena_block;

struct sm_arena {
	struct sm_arena_block *head; /* newest block; blocks chain to older */
	size_t used;                 /* bytes handed out from head */
	size_t total;                /* bytes held by all blocks */
	size_t limit;                /* 0 = unlimited; else cap on total */
	int failed;                  /* set once an allocation failed */
};

void sm_arena_init(struct sm_arena *a, size_t limit);
void *sm_arena_alloc(struct sm_arena *a, size_t n);   /* zeroed */
char *sm_arena_strdup(struct sm_arena *a, const char *s);
char *sm_arena_strndup(struct sm_arena *a, const char *s, size_t n);
char *sm_arena_printf(struct sm_arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline int sm_arena_failed(const struct sm_arena *a) { return a->failed; }
void sm_arena_release(struct sm_arena *a);

#ifdef __cplusplus
}
#endif

#endif
