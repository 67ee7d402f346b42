/* dsmem.c - distributed shared memory: a block's accesses to another block
 * of its cluster, through the pointer cluster.map_shared_rank returns
 * (sm_access.remote), and what orders them (see threaddep.h
 * sm_kernel_remote_races).
 *
 * Models (CUDA programming guide, distributed shared memory): the blocks
 * of a cluster run at their own pace; only a cluster barrier
 * (cluster.sync(), barrier_arrive + barrier_wait, barrier.cluster.arrive
 * + wait without .relaxed) orders one block's accesses with another's.
 * __syncthreads() orders one block's threads only. Every block runs the
 * same code, so a remote access and a local access of the same array race
 * when some path between them (either way, over loops' back edges too)
 * meets no cluster barrier, one is a store (not both atomic), and a
 * thread of one block and a thread of the other (the same thread id
 * included) touch the same bytes. Which block a rank names is not
 * followed, so two remote accesses are never paired (they may reach two
 * different blocks). And a block's shared memory is gone once it exits:
 * a remote access after which the kernel can end with no cluster barrier
 * may touch the memory of a block that has exited.
 *
 * Certain only, as async_wait.c: the witness threads are ones whose guards
 * are decided true (a guard on the block's rank is undecidable: no
 * witness), the loop conditions hold, the bytes meet under every
 * assignment of the uniform unknowns tried; the remote access's thread is
 * tried among the first warp and the last thread, the other among every
 * thread, at the first two iterations of the loops around both and the
 * first four of a loop around one. */
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

/* A thread that runs remote access a at its first iterations: into r. */
static bool exit_witness(const struct sm_raccess *a, struct sm_dim3 block, struct sm_race *r)
{
	int64_t nthreads = block.x * block.y * block.z;
	for (int64_t t = 0; t <= SM_WARP && t < nthreads; t++) {
		struct sm_eval_ctx c;
		sm_thread_ctx(&c, block, t < SM_WARP ? t : nthreads - 1);
		int64_t x[3];
		if (!sm_nest_runs_at(a, &c, x))
			continue;
		memset(r, 0, sizeof(*r));
		r->kind = a->src->kind == SM_ACC_LOAD ? SM_RACE_RAW : SM_RACE_WAW;
		r->inter_warp = true;
		r->remote_exit = true;
		memcpy(r->tid_a, c.tid, sizeof(r->tid_a));
		memcpy(r->tid_b, c.tid, sizeof(r->tid_b));
		r->addr = x[0];
		return true;
	}
	return false;
}

struct found {
	struct sm_race v[MAX_FOUND];
	unsigned n;
};

static void add(struct found *F, const struct sm_race *r, unsigned a, unsigned b)
{
	if (F->n >= MAX_FOUND)
		return;
	F->v[F->n] = *r;
	F->v[F->n].a = a;
	F->v[F->n].b = b;
	F->n++;
}

/* Remote access x against access y: the first unordered path found, in
 * one iteration, then over a back edge; x before y, then y before x (the
 * race's a is the access that runs first). */
static void pair(const struct sm_cfg *G, const struct sm_kernel_model *m, unsigned x, unsigned y,
		 unsigned char *closed, struct sm_cfg_walk *W, struct sm_dim3 block, struct sm_work *work,
		 struct found *F)
{
	struct sm_race r;
	for (int carried = 0; carried < 2; carried++) {
		memset(closed, !carried, (size_t)G->nloops + 1);
		for (int swap = 0; swap < 2; swap++) {
			unsigned a = swap ? y : x, b = swap ? x : y;
			if (sm_cfg_reach(G, G->acc_node_of[a], G->acc_node_of[b], closed, -1, 0, W) &&
			    sm_nest_pair_witness(&m->acc[a], &m->acc[b], carried, block, BOTH_ITERS, ONE_ITERS, work, &r)) {
				r.remote = true;
				add(F, &r, a, b);
				return;
			}
		}
	}
}

int sm_kernel_remote_races(const struct sm_kernel_model *m, struct sm_dim3 block, struct sm_arena *A,
			   struct sm_work *work, struct sm_race **out, unsigned *nout)
{
	bool any = false;
	for (unsigned i = 0; i < m->nacc && !any; i++)
		any = m->acc[i].ok && m->acc[i].src && m->acc[i].src->remote;
	if (!any || !m->kernel)
		return 0;
	struct sm_cfg G;
	struct sm_cfg_walk W;
	memset(&W, 0, sizeof(W));
	struct found *F = calloc(1, sizeof(*F));
	int rc = 0;
	int entry = sm_cfg_build_for(&G, m, block, m->nacc, SM_CFG_CLUSTER);
	unsigned char *closed = entry >= 0 ? malloc((size_t)G.nloops + 1) : NULL;
	if (!F || !closed || sm_cfg_walk_init(&W, &G, work)) {
		rc = -1;
		goto done;
	}
	for (unsigned x = 0; x < m->nacc && !sm_work_over(work); x++) {
		const struct sm_raccess *rx = &m->acc[x];
		if (!rx->ok || !rx->src || !rx->src->remote || !rx->array || G.acc_node_of[x] < 0)
			continue;
		struct sm_race r;
		memset(closed, 0, (size_t)G.nloops + 1);
		if (sm_cfg_reach(&G, G.acc_node_of[x], G.exit, closed, -1, 0, &W) && exit_witness(rx, block, &r))
			add(F, &r, x, x);
		for (unsigned y = 0; y < m->nacc && !sm_work_over(work); y++) {
			const struct sm_raccess *ry = &m->acc[y];
			if (!ry->ok || !ry->src || ry->src->remote || G.acc_node_of[y] < 0 || !sm_same_storage(rx, ry))
				continue;
			int kx = rx->src->kind, ky = ry->src->kind;
			if ((kx == SM_ACC_LOAD && ky == SM_ACC_LOAD) || (kx == SM_ACC_ATOMIC && ky == SM_ACC_ATOMIC))
				continue;
			pair(&G, m, x, y, closed, &W, block, work, F);
		}
	}
	rc = sm_races_append(A, out, nout, F->v, F->n);
done:
	free(F);
	free(closed);
	sm_cfg_walk_free(&W);
	sm_cfg_free(&G);
	return rc;
}
