/* async_wait.c - a thread reading bytes that its own asynchronous copy may
 * still be writing (see threaddep.h sm_kernel_own_copy_reads).
 *
 * Models: a cp.async (__pipeline_memcpy_async, cuda::memcpy_async, inline
 * PTX) lands at any time until the wait that completes its commit group;
 * the front end lists, on each shared load, the copies issued before it
 * and not yet completed there (sm_access.pending). The race search pairs
 * distinct threads only, and a block barrier does not complete a copy, so
 * a read by the copying thread itself before the wait (the stage read one
 * wait_prior too early) is found here: the copy and the read touch the
 * same bytes for one thread at the same iterations of the loops around
 * both. Certain only: the thread is one whose guards (those the copy and
 * the read do not share) are decided true, the loop conditions hold (a
 * trip count no launch gives counts as running: the pipeline's own), and
 * the bytes meet under every assignment of the uniform unknowns tried.
 * The threads tried are the first warp's and the last one (every thread
 * of a copy loop runs the same code; the first warp shows it), the
 * iterations the first two of the loops around both and the first four
 * of each loop around one only. The GPU's racecheck does not report this
 * (one thread's own accesses are never a hazard to it); the programming
 * guide's rule on cp.async is the judge.
 *
 * The same holds the other way for a bulk copy out of shared memory
 * (cp.async.bulk.global.shared::cta): it reads at any time until its bulk
 * wait_group, so the issuing thread's own write of those bytes before that
 * wait is a write-after-read hazard (listed on the store's pending). */
#include "engine/analysis.h"
#include "engine/nest.h"
#include "engine/threaddep.h"

#include <string.h>

/* iterations tried: of a loop around both accesses, of one around one */
#define BOTH_ITERS 2
#define ONE_ITERS 4

/* Does thread tid's copy (a) touch bytes its read (b) touches, at the
 * iterations in ca and cb, under every seed? */
static bool meets(const struct sm_raccess *a, const struct sm_raccess *b, struct sm_eval_ctx *ca,
		  struct sm_eval_ctx *cb, int64_t *addr)
{
	int64_t wa = a->width ? a->width : 1, wb = b->width ? b->width : 1;
	for (int i = 0; i < SM_NEST_SEEDS; i++) {
		ca->seed = cb->seed = sm_nest_seeds[i];
		int64_t x, y;
		if (sm_access_addr(a, NULL, ca, &x) != 1 || sm_access_addr(b, NULL, cb, &y) != 1)
			return false;
		if (!(x < y + wb && y < x + wa))
			return false;
		if (i == 0)
			*addr = x > y ? x : y;
	}
	return true;
}

/* A witness for copy a and read b in block `block` (carried: a issued
 * one iteration of their innermost common loop before b runs): the thread
 * and the byte, into r. */
static bool witness(const struct sm_raccess *a, const struct sm_raccess *b, bool carried,
		    struct sm_pending_until until, struct sm_dim3 block, struct sm_work *work, struct sm_race *r)
{
	/* the loop whose waits complete a by an iteration (depth `at`, below
	 * until.iters there) and those around it (at their first), where not
	 * around a too (sm_access.pending_until) */
	int at = -1, level = 0;
	for (const struct sm_loop *L = b->loop; L && until.level; L = L->parent)
		if (++level == until.level)
			at = L->depth;
	int64_t nthreads = block.x * block.y * block.z;
	struct sm_nest N;
	sm_nest_init(&N, a, b, BOTH_ITERS, ONE_ITERS);
	if (carried && sm_nest_common(&N) < 0)
		return false; /* a copy from before the loop: pending already says it */
	for (int64_t t = 0; t < nthreads && t <= SM_WARP; t++) {
		int64_t lin = t < SM_WARP ? t : nthreads - 1;
		if (t == SM_WARP && nthreads <= SM_WARP)
			break;
		for (int v = 0;; v++) {
			if (sm_work_over(work))
				return false;
			struct sm_eval_ctx ca, cb;
			sm_thread_ctx(&ca, block, lin);
			sm_thread_ctx(&cb, block, lin);
			if (!sm_nest_vector(&N, v, carried, &ca, &cb))
				break;
			/* pending only at the first iteration of the loops
			 * around the read alone (sm_access.pending_once) */
			bool later = false;
			for (int i = 0; i < N.n && at >= 0; i++) {
				int d = N.L[i]->depth;
				if (N.of_b[i] && !N.of_a[i] && d <= at)
					later = later || cb.iter[d] >= (d == at ? until.iters : 1);
			}
			if (later)
				continue;
			if (work)
				work->used += 8;
			int64_t addr;
			/* the guards the two do not share, decided */
			if (!sm_loops_run(a->loop, &ca) || !sm_loops_run(b->loop, &cb) ||
			    !sm_guards_all_hold(a->guards, b->guards, false, &ca) ||
			    !sm_guards_all_hold(b->guards, a->guards, false, &cb) || !meets(a, b, &ca, &cb, &addr))
				continue;
			memset(r, 0, sizeof(*r));
			/* a read before the copy in lands, or a write before
			 * the bulk copy out has read */
			r->kind = b->src->kind == SM_ACC_STORE ? SM_RACE_WAR : SM_RACE_RAW;
			r->inter_warp = true;
			r->own_copy = true;
			r->cross_iter = carried;
			memcpy(r->tid_a, ca.tid, sizeof(r->tid_a));
			memcpy(r->tid_b, ca.tid, sizeof(r->tid_b));
			r->addr = addr;
			return true;
		}
	}
	return false;
}

int sm_kernel_own_copy_reads(const struct sm_kernel_model *m, struct sm_dim3 block, struct sm_arena *A,
			     struct sm_work *work, struct sm_race **out, unsigned *nout)
{
	unsigned found = 0, cap = 0;
	struct sm_race *v = NULL;
	for (unsigned b = 0; b < m->nacc; b++) {
		const struct sm_raccess *rb = &m->acc[b];
		if (!rb->ok || !rb->src || (!rb->src->npending && !rb->src->ncarried) ||
		    (rb->src->kind != SM_ACC_LOAD && rb->src->kind != SM_ACC_STORE))
			continue;
		for (unsigned a = 0; a < m->nacc; a++) {
			const struct sm_raccess *ra = &m->acc[a];
			bool listed = false, carried = false;
			struct sm_pending_until until = { 0, 0 };
			for (unsigned p = 0; p < rb->src->npending && !listed; p++)
				if ((listed = rb->src->pending[p] == ra->src) && rb->src->pending_until)
					until = rb->src->pending_until[p];
			for (unsigned p = 0; p < rb->src->ncarried && !carried; p++)
				carried = rb->src->carried[p] == ra->src;
			/* one copy may be both: this iteration's, and the last one's */
			struct sm_race r;
			if ((!listed && !carried) || !ra->ok || !sm_same_storage(ra, rb) ||
			    !((listed && witness(ra, rb, false, until, block, work, &r)) ||
			      (carried && witness(ra, rb, true, (struct sm_pending_until){ 0, 0 }, block, work, &r))))
				continue;
			r.a = a;
			r.b = b;
			if (found == cap) {
				unsigned ncap = cap ? 2 * cap : 4;
				struct sm_race *nv = sm_arena_alloc(A, ncap * sizeof(*nv));
				if (!nv)
					return -1;
				if (found)
					memcpy(nv, v, found * sizeof(*nv));
				v = nv;
				cap = ncap;
			}
			v[found++] = r;
			break; /* one copy names the read's hazard */
		}
	}
	return sm_races_append(A, out, nout, v, found);
}
