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
 * Between two given threads the question is narrower (sm_expr_alike_for):
 * does the value read only what the two share, their common thread
 * indices (threadIdx.y of two lanes of one row), one tile's collective,
 * a load at an address alike for both? The race search uses it to keep
 * two threads out of the opposite arms of one `if` (guards.c).
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

/* One walk's state: the guards in force (a merge on one of their
 * conditions takes that guard's arm), the gcd of the blocks' x extents (0:
 * not known), and the nodes it may still visit: a closed expression is a
 * graph whose shared subtrees a walk meets once per path, so a walk that
 * runs out answers "per thread" (SM_SPAN_NODES). */
struct sw {
	const struct sm_guard *under;
	int64_t xq;
	unsigned left;
	const int64_t *ta, *tb;    /* sm_expr_alike_for: the two threads' ids */
	int64_t la, lb;            /* ... and linear ids; ta NULL: repeats */
	unsigned unit;             /* span: bit d, every launch's block is 1
	                            * thread wide in d (threadIdx.d is 0) */
};

/* Does e take the same value in threads t and t + k * n (every k)? A
 * value alike in every thread does; the lane does when n is a multiple of
 * 32; threadIdx.x % m and threadIdx.x & (m - 1) do where m divides n and
 * xq, which every block's x extent is a multiple of, is a multiple of n
 * (t and t + n then differ by n in x, or sit in another row at the same
 * x % n); a load does
 * where its address does; an operation where its operands do.
 * With w->ta set (sm_expr_alike_for), the same question for the two
 * threads ta and tb alone (n unused): a thread index where theirs agree,
 * a tile's collective where they share its tile. */
static bool repeats(const struct sm_expr *e, int64_t n, struct sw *w, int depth)
{
	if (!e)
		return true;
	if (depth > SM_SCAN_EXPR_DEPTH || n < 1 || !w->left || !--w->left)
		return false;
	switch (e->kind) {
	case SM_E_CONST:
	case SM_E_VAR:
		return true;
	case SM_E_BUILTIN:
		if (w->ta && e->builtin == SM_B_TID)
			return e->dim >= 0 && e->dim < 3 && w->ta[e->dim] == w->tb[e->dim];
		if (e->builtin == SM_B_LANE)
			return w->ta ? w->la % SM_WARP == w->lb % SM_WARP : n % SM_WARP == 0;
		return e->builtin != SM_B_TID;
	case SM_E_OPAQUE:
		if (!e->thread_dep)
			return true;
		if (w->ta && e->span > 1 && (sm_expr_is_collective(e) || !e->place))
			return w->la / e->span == w->lb / e->span; /* one tile's one value */
		if (!e->place || (!e->place->array && !e->place->base))
			return false; /* a per-thread unknown, or another collective */
		for (int i = 0; i < e->place->nidx; i++)
			if (!repeats(e->place->idx[i], n, w, depth + 1))
				return false;
		return repeats(e->place->extra, n, w, depth + 1) && repeats(e->place->base, n, w, depth + 1);
	case SM_E_BINARY: {
		const struct sm_expr *x = e->a;
		while (x && x->kind == SM_E_CAST)
			x = x->a; /* (int)threadIdx.x */
		if (!w->ta && w->xq > 0 && w->xq % n == 0 && e->b && e->b->kind == SM_E_CONST && x && x->kind == SM_E_BUILTIN &&
		    x->builtin == SM_B_TID && x->dim == 0) {
			int64_t m = e->op == SM_OP_REM ? e->b->ival : e->op == SM_OP_AND ? e->b->ival + 1 : 0;
			if (m > 0 && (e->op == SM_OP_REM || (m & (m - 1)) == 0) && n % m == 0)
				return true;
		}
		return repeats(e->a, n, w, depth + 1) && repeats(e->b, n, w, depth + 1);
	}
	case SM_E_UNARY:
	case SM_E_CAST:
		return repeats(e->a, n, w, depth + 1);
	case SM_E_COND:
		return repeats(e->a, n, w, depth + 1) && repeats(e->b, n, w, depth + 1) &&
		       repeats(e->c, n, w, depth + 1);
	case SM_E_LOOPVAR:
	case SM_E_LOOPEXIT:
	case SM_E_PREV:
	case SM_E_ADDR:
		return !sm_expr_thread_dep(e);
	}
	return false;
}

static int64_t span(const struct sm_expr *e, struct sw *w, int depth)
{
	if (!e)
		return 0;
	if (depth > SM_SCAN_EXPR_DEPTH || !w->left || !--w->left)
		return 1;
	switch (e->kind) {
	case SM_E_CONST:
	case SM_E_VAR: /* after resolution: a kernel parameter */
		return 0;
	case SM_E_BUILTIN:
		if (e->builtin == SM_B_TID && e->dim >= 0 && e->dim < 3 && (w->unit >> e->dim & 1))
			return 0;
		return e->builtin == SM_B_TID || e->builtin == SM_B_LANE ? 1 : 0;
	case SM_E_OPAQUE:
		if (!e->thread_dep)
			return 0;
		if (sm_expr_is_collective(e) && e->place->nidx == 1)
			/* a collective of its input (front/convert_warp.c): one
			 * value in every tile when the input repeats per tile */
			return repeats(e->place->idx[0], e->span, w, depth + 1) ? 0 : (int64_t)e->span;
		return e->span > 0 && !e->place ? (int64_t)e->span : 1;
	case SM_E_UNARY:
	case SM_E_CAST:
		return span(e->a, w, depth + 1);
	case SM_E_BINARY: {
		int64_t a = span(e->a, w, depth + 1);
		return a == 1 ? 1 : gcd(a, span(e->b, w, depth + 1));
	}
	case SM_E_COND:
		if (e->a && e->a->kind == SM_E_CONST) /* a branch decided at compile time */
			return span(e->a->ival ? e->b : e->c, w, depth + 1);
		/* a merge under a guard in force: that guard's arm */
		for (const struct sm_guard *g = w->under; g; g = g->next)
			if (sm_expr_same(g->cond, e->a))
				return span(g->negate ? e->c : e->b, w, depth + 1);
		{
			int64_t a = span(e->a, w, depth + 1);
			a = a == 1 ? 1 : gcd(a, span(e->b, w, depth + 1));
			return a == 1 ? 1 : gcd(a, span(e->c, w, depth + 1));
		}
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
	struct sw w = { .under = NULL, .xq = 0, .left = SM_SPAN_NODES };
	return span(e, &w, 0);
}

int64_t sm_expr_uniform_span_in(const struct sm_expr *e, const struct sm_kernel_launches *K)
{
	int64_t xq = 0; /* the gcd of the blocks' x extents; 0: none known */
	unsigned unit = K && K->nshapes > 0 ? 7u : 0u;
	for (int bi = 0; K && bi < K->nshapes; bi++) {
		const struct sm_launch_ctx *L = &K->shape[bi];
		xq = gcd(xq, L->block.x > 0 ? L->block.x : 1);
		/* a dimension one thread wide, as the program launches it (an
		 * assumed shape's own choice says nothing) */
		int64_t ext[3] = { L->block.x, L->block.y, L->block.z };
		for (int d = 0; d < 3; d++)
			if (ext[d] != 1 || (K->assumed && !(L->block_from.fixed >> d & 1)))
				unit &= ~(1u << d);
	}
	struct sw w = { .under = NULL, .xq = xq, .left = SM_SPAN_NODES, .unit = unit };
	return span(e, &w, 0);
}

int64_t sm_expr_uniform_span_under(const struct sm_expr *e, const struct sm_guard *guards)
{
	struct sw w = { .under = guards, .xq = 0, .left = SM_SPAN_NODES };
	return span(e, &w, 0);
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

/* ---- one value in two given threads ---- */

bool sm_expr_alike_for(const struct sm_expr *e, struct sm_dim3 block, int64_t la, int64_t lb)
{
	int64_t ta[3], tb[3];
	sm_thread_id(block, la, ta);
	sm_thread_id(block, lb, tb);
	struct sw w = { NULL, 0, SM_SPAN_NODES, ta, tb, la, lb, 0 };
	return repeats(e, 1, &w, 0);
}
