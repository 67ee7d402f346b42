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
