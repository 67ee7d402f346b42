/* threads.c - the threads of a block and what tells them apart: a
 * thread's id and evaluation context from its linear index, the record of
 * a statement at its program point and whether its condition depends on
 * the thread, and the groups a barrier's scope makes of a block's threads
 * (a tile, a warp's mask lanes, bar.sync's count). Divergence
 * (divergence.c) and the race search (races.c, cfg.c) build on these. */
#include "engine/threaddep.h"

#include <string.h>

/* ---- threads of a block ---- */

/* A fresh evaluation context for linear thread lin of a block of shape b. */
void sm_thread_ctx(struct sm_eval_ctx *c, struct sm_dim3 b, int64_t lin)
{
	memset(c, 0, sizeof(*c));
	c->ntid = b;
	sm_thread_id(b, lin, c->tid);
}

/* ---- conditions at their program point ---- */

const struct sm_rstmt *sm_rstmt_find(const struct sm_kernel_model *m, const struct sm_stmt *s)
{
	if (!m || !s)
		return NULL;
	for (unsigned i = 0; i < m->nstmts; i++)
		if (m->stmts[i].stmt == s)
			return &m->stmts[i];
	return NULL;
}

bool sm_stmt_cond_thread_dep(const struct sm_kernel_model *m, const struct sm_stmt *s)
{
	const struct sm_rstmt *r = sm_rstmt_find(m, s);
	if (!r)
		return false;
	return r->cond && sm_expr_thread_dep(r->cond);
}
/* ---- barrier scopes ---- */

int64_t sm_scope_threads(const struct sm_stmt *s)
{
	switch (s->scope) {
	case SM_SCOPE_TILE:
		return s->scope_arg > 0 ? s->scope_arg : 0;
	case SM_SCOPE_COUNT:
		/* whole warps take part */
		return s->scope_arg > 0 ? (s->scope_arg + SM_WARP - 1) / SM_WARP * SM_WARP : 0;
	case SM_SCOPE_LANES:
	case SM_SCOPE_ACTIVE:
		return SM_WARP;
	case SM_SCOPE_BLOCK:
	case SM_SCOPE_GRID:
		break;
	}
	return 0;
}

int64_t sm_scope_group(const struct sm_stmt *s, int64_t t)
{
	switch (s->scope) {
	case SM_SCOPE_TILE:
		return s->scope_arg > 0 ? t / s->scope_arg : 0;
	case SM_SCOPE_LANES:
		if (s->scope_arg && !((uint64_t)s->scope_arg >> (t % SM_WARP) & 1))
			return -1;
		return t / SM_WARP;
	case SM_SCOPE_ACTIVE:
		return t / SM_WARP;
	case SM_SCOPE_COUNT:
		return t < sm_scope_threads(s) ? 0 : -1;
	case SM_SCOPE_BLOCK:
	case SM_SCOPE_GRID:
		break;
	}
	return 0;
}

bool sm_scope_orders(const struct sm_stmt *s, int64_t a, int64_t b)
{
	int64_t ga = sm_scope_group(s, a);
	return ga >= 0 && ga == sm_scope_group(s, b);
}

