/* nest.c - the loop iterations a witness search tries (see nest.h). */
#include "engine/nest.h"
#include "engine/analysis.h"

#include <string.h>

static bool in_loops(const struct sm_loop *L, const struct sm_loop *chain)
{
	for (; chain; chain = chain->parent)
		if (chain == L)
			return true;
	return false;
}

void sm_nest_init(struct sm_nest *N, const struct sm_raccess *a, const struct sm_raccess *b, int both_iters,
		  int one_iters)
{
	memset(N, 0, sizeof(*N));
	for (const struct sm_loop *L = a->loop; L && N->n < 2 * SM_MAX_LOOPS; L = L->parent) {
		N->L[N->n] = L;
		N->of_a[N->n] = true;
		N->of_b[N->n] = in_loops(L, b->loop);
		N->tries[N->n] = N->of_b[N->n] ? both_iters : one_iters;
		N->n++;
	}
	for (const struct sm_loop *L = b->loop; L && N->n < 2 * SM_MAX_LOOPS; L = L->parent) {
		if (in_loops(L, a->loop))
			continue;
		N->L[N->n] = L;
		N->of_b[N->n] = true;
		N->tries[N->n] = one_iters;
		N->n++;
	}
}

int sm_nest_common(const struct sm_nest *N)
{
	for (int i = 0; i < N->n; i++)
		if (N->of_a[i] && N->of_b[i])
			return i;
	return -1;
}

bool sm_nest_vector(const struct sm_nest *N, int v, bool carried, struct sm_eval_ctx *ca, struct sm_eval_ctx *cb)
{
	int common = carried ? sm_nest_common(N) : -1;
	for (int i = 0; i < N->n; i++) {
		int k = v % N->tries[i];
		v /= N->tries[i];
		int d = N->L[i]->depth;
		if (d < 0 || d >= SM_MAX_LOOPS)
			return false;
		if (N->of_a[i])
			ca->iter[d] = k;
		if (N->of_b[i])
			cb->iter[d] = k + (i == common);
	}
	return v == 0;
}

int sm_races_append(struct sm_arena *A, struct sm_race **out, unsigned *nout, const struct sm_race *add,
		    unsigned nadd)
{
	if (!nadd)
		return 0;
	struct sm_race *all = sm_arena_alloc(A, (*nout + nadd) * sizeof(*all));
	if (!all)
		return -1;
	if (*nout)
		memcpy(all, *out, *nout * sizeof(*all));
	memcpy(all + *nout, add, nadd * sizeof(*all));
	*out = all;
	*nout += nadd;
	return 0;
}

/* the seeds a witness must hold under (as races.c's) */
const unsigned sm_nest_seeds[SM_NEST_SEEDS] = { 0, 1, 2 };

bool sm_same_storage(const struct sm_raccess *a, const struct sm_raccess *b)
{
	return a->array && b->array && (a->array == b->array || (a->array->is_dynamic && b->array->is_dynamic));
}

bool sm_nest_runs_at(const struct sm_raccess *r, struct sm_eval_ctx *c, int64_t addr[SM_NEST_SEEDS])
{
	if (!sm_loops_run(r->loop, c) || !sm_guards_all_hold(r->guards, NULL, false, c))
		return false;
	for (int i = 0; i < SM_NEST_SEEDS; i++) {
		c->seed = sm_nest_seeds[i];
		if (sm_access_addr(r, NULL, c, &addr[i]) != 1)
			return false;
	}
	c->seed = 0;
	return true;
}

bool sm_nest_pair_witness(const struct sm_raccess *a, const struct sm_raccess *b, bool carried, struct sm_dim3 block,
			  int both_iters, int one_iters, struct sm_work *work, struct sm_race *r)
{
	int64_t nthreads = block.x * block.y * block.z;
	int64_t wa = a->width ? a->width : 1, wb = b->width ? b->width : 1;
	struct sm_nest N;
	sm_nest_init(&N, a, b, both_iters, one_iters);
	if (carried && sm_nest_common(&N) < 0)
		return false;
	for (int v = 0;; v++) {
		struct sm_eval_ctx ca, cb;
		sm_thread_ctx(&ca, block, 0);
		sm_thread_ctx(&cb, block, 0);
		if (!sm_nest_vector(&N, v, carried, &ca, &cb))
			return false;
		for (int64_t t = 0; t <= SM_WARP && t < nthreads; t++) {
			int64_t la = t < SM_WARP ? t : nthreads - 1;
			int64_t x[SM_NEST_SEEDS], y[SM_NEST_SEEDS];
			struct sm_eval_ctx c1 = ca;
			sm_thread_id(block, la, c1.tid);
			if (!sm_nest_runs_at(a, &c1, x))
				continue;
			for (int64_t lb = 0; lb < nthreads; lb++) {
				if (sm_work_over(work))
					return false;
				if (work)
					work->used += 4;
				struct sm_eval_ctx c2 = cb;
				sm_thread_id(block, lb, c2.tid);
				if (!sm_nest_runs_at(b, &c2, y))
					continue;
				bool meet = true;
				for (int i = 0; i < SM_NEST_SEEDS && meet; i++)
					meet = x[i] < y[i] + wb && y[i] < x[i] + wa;
				if (!meet)
					continue;
				memset(r, 0, sizeof(*r));
				r->kind = a->src->kind == SM_ACC_LOAD ? SM_RACE_WAR
					  : b->src->kind == SM_ACC_LOAD ? SM_RACE_RAW : SM_RACE_WAW;
				r->inter_warp = true;
				r->cross_iter = carried;
				memcpy(r->tid_a, c1.tid, sizeof(r->tid_a));
				memcpy(r->tid_b, c2.tid, sizeof(r->tid_b));
				r->addr = x[0] > y[0] ? x[0] : y[0];
				return true;
			}
		}
	}
}
