/* grow.h - the one way smemlint grows a malloc'd array (as git's
 * ALLOC_GROW): capacity grows by half again (at least to 16), so appending
 * n elements costs O(n) copies overall.
 *
 *	if (SM_ALLOC_GROW(r->diags, r->ndiags + 1, r->cap_diags))
 *		return;           // out of memory: the array is unchanged
 *	r->diags[r->ndiags++] = d;
 *
 * SM_ALLOC_GROW(x, nr, alloc) makes room for nr elements in x, whose
 * capacity (any unsigned integer type) is alloc; it evaluates to 0, or to
 * -1 when the memory cannot be had (x and alloc are then untouched). */
#ifndef SMEMLINT_BASE_GROW_H
#define SMEMLINT_BASE_GROW_H

#include <stddef.h>
#include <stdint.h>

/* Returns the new block (with *cap set, at most max), or NULL (nothing
 * changed). */
void *sm_grow(void *p, size_t need, size_t *cap, size_t elem, size_t max);

#define SM_ALLOC_GROW(x, nr, alloc) \
	__extension__({ \
		int sm_rc_ = 0; \
		if ((size_t)(nr) > (size_t)(alloc)) { \
			size_t sm_cap_ = (size_t)(alloc); \
			void *sm_p_ = sm_grow((x), (size_t)(nr), &sm_cap_, sizeof(*(x)), \
					     (size_t)(__typeof__(alloc))-1); \
			if (sm_p_) { \
				(x) = sm_p_; \
				(alloc) = (__typeof__(alloc))sm_cap_; \
			} else { \
				sm_rc_ = -1; \
			} \
		} \
		sm_rc_; \
	})

#endif
