/* grow.c - the growth policy of SM_ALLOC_GROW (see grow.h). */
#include "base/grow.h"

#include <stdlib.h>

void *sm_grow(void *p, size_t need, size_t *cap, size_t elem, size_t max)
{
	size_t nc = *cap + *cap / 2;
	if (nc < 16)
		nc = 16;
	if (nc < need || nc < *cap)
		nc = need;
	if (nc > max)
		nc = max;
	if (nc < need)
		return NULL;
	if (elem && nc > SIZE_MAX / elem)
		return NULL;
	void *np = realloc(p, nc * elem);
	if (!np)
		return NULL;
	*cap = nc;
	return np;
}
