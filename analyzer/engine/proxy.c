/* proxy.c - a bulk copy out of shared memory reading what threads wrote
 * through the generic proxy with no proxy fence between (see threaddep.h
 * sm_kernel_proxy_races).
 *
 * Models (PTX ISA, memory consistency model, proxies): a thread's plain
 * loads and stores go through the generic proxy; the bulk copy
 * (cp.async.bulk.global.shared::cta, the TMA store) reads shared memory
 * through the async proxy. A __syncthreads() orders the threads but not
 * the proxies: the writes a bulk copy reads must be followed, in each
 * writing thread, by fence.proxy.async (.shared::cta) before the barrier
 * that publishes them to the issuing thread. So a generic store and a
 * bulk copy's read of the same bytes, with a path from the store to the
 * read (in one iteration or over a back edge) that meets no
 * fence.proxy.async, is a hazard: the copy may read stale bytes. The
 * ordering between the two threads is the race search's (races.c pairs
 * the copy's read with the stores like any load); this pass asks only
 * for the fence.
 *
 * Certain only, as dsmem.c: the writer among the first warp and the last
 * thread, the issuer among every thread, guards decided, the first
 * iterations of the loops. The GPU's racecheck does not model proxies;
 * the PTX ISA's rule is the judge. */
#include "engine/analysis.h"
#include "engine/cfg.h"
#include "engine/nest.h"
#include "engine/threaddep.h"

#include <stdlib.h>
#include <string.h>

#define BOTH_ITERS 2
#define ONE_ITERS 4
/* findings per kernel and shape: the first ones name the hazard */
#define MAX_FOUND 64

static bool bulk_read(const struct sm_raccess *r)
{
	return r->ok && r->src && !r->src->in_flight && sm_access_is_bulk_out(r->src) && r->array;
}

static bool generic_write(const struct sm_raccess *r)
{
	return r->ok && r->src && !r->src->in_flight && !r->src->async_copy && !r->src->remote && r->array &&
	       (r->src->kind == SM_ACC_STORE || r->src->kind == SM_ACC_ATOMIC);
}

int sm_kernel_proxy_races(const struct sm_kernel_model *m, struct sm_dim3 block, struct sm_arena *A,
			  struct sm_work *work, struct sm_race **out, unsigned *nout)
{
	bool any = false;
	for (unsigned i = 0; i < m->nacc && !any; i++)
		any = bulk_read(&m->acc[i]);
	if (!any || !m->kernel)
		return 0;
	struct sm_cfg G;
	struct sm_cfg_walk W;
	memset(&W, 0, sizeof(W));
	struct sm_race *found = calloc(MAX_FOUND, sizeof(*found));
	unsigned n = 0;
	int rc = 0;
	int entry = sm_cfg_build_for(&G, m, block, m->nacc, SM_CFG_PROXY);
	unsigned char *closed = entry >= 0 ? malloc((size_t)G.nloops + 1) : NULL;
	if (!found || !closed || sm_cfg_walk_init(&W, &G, work)) {
		rc = -1;
		goto done;
	}
	for (unsigned x = 0; x < m->nacc && n < MAX_FOUND && !sm_work_over(work); x++) {
		if (!bulk_read(&m->acc[x]) || G.acc_node_of[x] < 0)
			continue;
		for (unsigned y = 0; y < m->nacc && n < MAX_FOUND && !sm_work_over(work); y++) {
			if (!generic_write(&m->acc[y]) || G.acc_node_of[y] < 0 || !sm_same_storage(&m->acc[x], &m->acc[y]))
				continue;
			/* the write first: in one iteration, then over a back edge */
			for (int carried = 0; carried < 2; carried++) {
				struct sm_race r;
				memset(closed, !carried, (size_t)G.nloops + 1);
				if (!sm_cfg_reach(&G, G.acc_node_of[y], G.acc_node_of[x], closed, -1, 0, &W) ||
				    !sm_nest_pair_witness(&m->acc[y], &m->acc[x], carried, block, BOTH_ITERS, ONE_ITERS, work,
							  &r))
					continue;
				r.proxy = true;
				r.a = y;
				r.b = x;
				found[n++] = r;
				break;
			}
		}
	}
	rc = sm_races_append(A, out, nout, found, n);
done:
	free(found);
	free(closed);
	sm_cfg_walk_free(&W);
	sm_cfg_free(&G);
	return rc;
}
