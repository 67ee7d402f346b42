/* merge.h - accesses nvcc fuses into one 8- or 16-byte access (merge.c). */
#ifndef SMEMLINT_ENGINE_MERGE_H
#define SMEMLINT_ENGINE_MERGE_H

#include "engine/analysis.h"

/* What became of one access. */
struct sm_merge {
	unsigned leader;   /* the group's first access (itself when not fused) */
	unsigned n;        /* accesses fused: 1 (none), 2 or 4 */
	unsigned width;    /* bytes of the fused access per thread */
};

/* Find the fused groups of m's accesses under the block shapes; out has
 * m->nacc entries. */
void sm_find_merges(const struct sm_kernel_model *m, const struct sm_dim3 *blocks, int nblocks, struct sm_arena *A,
		    struct sm_merge *out);

#endif
