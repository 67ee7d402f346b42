/* uniform.c - values alike in the threads of one tile: how far apart two
 * threads may be (in linear ids) and still compute the same value of a
 * closed expression.
 *
 * A warp or tile collective hands every thread of the tile one result: a
 * cooperative-groups reduce, a vote (any, all, ballot), a shuffle from one
 * lane, the warp intrinsics with a full mask (__reduce_add_sync,
 * __ballot_sync, ...). The front end marks such a call's value as an
 * OPAQUE per-thread unknown with a span (ir.h): alike in each run of span
 * consecutive threads, unknown across runs. An expression over such
 * values is alike in the runs of the greatest common divisor of its
 * operands' spans (runs of N and of M, both aligned at their multiples,
 * hold every aligned run of gcd(N, M)); 0 stands for every thread of the
 * block alike (a constant, a parameter, blockDim), 1 for no two threads.
 * The race search (races.c) uses it to tell two threads of one tile
 * storing the tile's one value (benign: same-value-write) from a real
 * race between tiles; divergence (divergence.c) to see that a condition
 * alike in each tile never splits a group of a tile's barrier
 * (sm_scope_within_runs).
 *
 * Conservative: a thread index is per thread; a loop counter or pointer
 * that depends on the thread is per thread; an expression too deep to
 * walk is per thread.
 */
#include "engine/threaddep.h"

static int64_t gcd(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static int64_t span(const struct sm_expr *e, const struct sm_guard *under, int depth)
{
	if (!e)
		return 0;
	if (depth > SM_SCAN_EXPR_DEPTH)
		return 1;
	switch (e->kind) {
	case SM_E_CONST:
	case SM_E_VAR: /* after resolution: a kernel parameter */
		return 0;
	case SM_E_BUILTIN:
		return e->builtin == SM_B_TID || e->builtin == SM_B_LANE ? 1 : 0;
	case SM_E_OPAQUE:
		if (!e->thread_dep)
			return 0;
		return e->span > 0 && !e->place ? (int64_t)e->span : 1;
	case SM_E_UNARY:
	case SM_E_CAST:
		return span(e->a, under, depth + 1);
	case SM_E_BINARY:
		return gcd(span(e->a, under, depth + 1), span(e->b, under, depth + 1));
	case SM_E_COND:
		/* a merge under a guard in force: that guard's arm */
		for (const struct sm_guard *g = under; g; g = g->next)
			if (sm_expr_same(g->cond, e->a))
				return span(g->negate ? e->c : e->b, under, depth + 1);
		return gcd(gcd(span(e->a, under, depth + 1), span(e->b, under, depth + 1)), span(e->c, under, depth + 1));
	case SM_E_LOOPVAR:
	case SM_E_LOOPEXIT:
	case SM_E_PREV:
	case SM_E_ADDR:
		return sm_expr_thread_dep(e) ? 1 : 0;
	}
	return 1;
}

int64_t sm_expr_uniform_span(const struct sm_expr *e)
{
	return span(e, NULL, 0);
}

int64_t sm_expr_uniform_span_under(const struct sm_expr *e, const struct sm_guard *guards)
{
	return span(e, guards, 0);
}

bool sm_scope_within_runs(const struct sm_stmt *s, int64_t span, const struct sm_kernel_launches *K)
{
	if (span < 2 || !K || K->nshapes <= 0)
		return false;
	for (int bi = 0; bi < K->nshapes; bi++) {
		struct sm_dim3 B = K->shape[bi].block;
		if (B.x < 1 || B.y < 1 || B.z < 1 || B.x * B.y * B.z > SM_MAX_BLOCK_THREADS)
			return false;
		int64_t cur = -1, run = 0;
		for (int64_t t = 0; t < B.x * B.y * B.z; t++) {
			int64_t g = sm_scope_group(s, t);
			if (g < 0)
				continue;
			if (g != cur) {
				cur = g;
				run = t / span;
			} else if (t / span != run) {
				return false;
			}
		}
	}
	return true;
}
