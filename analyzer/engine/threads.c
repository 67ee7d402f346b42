/* threads.c - the threads of a block and what tells them apart: a
 * thread's id and evaluation context from its linear index, the record of
 * a statement at its program point and whether its condition depends on
 * the thread, and the groups a barrier's scope makes of a block's threads
 * (a tile, a warp's mask lanes, bar.sync's count). Also whether a
 * condition varies between threads once thread indexes that cancel are
 * taken out, the value a block's threads all give a condition (or that
 * a repeated condition has), and values alike in every thread and
 * iteration. Divergence (divergence.c) and the race search (races.c,
 * cfg.c) build on these. */
#include "engine/threaddep.h"
#include "engine/visit.h"

#include <stdint.h>
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
	return r->cond && sm_expr_varies(r->cond);
}

static enum sm_seen is_load(const struct sm_expr *e, void *arg)
{
	(void)arg;
	return e->kind == SM_E_OPAQUE && e->place && !sm_expr_is_collective(e) ? SM_SEEN_HIT : SM_SEEN_GO;
}

/* The value of r's condition where it repeats a condition in force: a
 * guard around it (`if (n > 0) { ... if (n > 0) __syncthreads(); }`) or
 * an enclosing loop's (`for (...; i < n; ...) if (i < n)`), the same
 * closed tree, so the same value. Not through memory, which may change
 * in between. -1 when none. */
static int repeated_value(const struct sm_rstmt *r)
{
	struct sm_expr_walk w = { is_load, NULL, SM_WALK_ADDR_PLACE | SM_WALK_IVS, SM_SCAN_EXPR_DEPTH, true };
	if (sm_expr_any(r->cond, &w))
		return -1;
	for (const struct sm_guard *g = r->guards; g; g = g->next)
		if (sm_expr_same(g->cond, r->cond))
			return !g->negate;
	for (const struct sm_loop *L = r->loop; L; L = L->parent)
		if (L->cond && sm_expr_same(L->cond, r->cond))
			return 1;
	return -1;
}

int sm_cond_block_value(const struct sm_kernel_model *m, const struct sm_stmt *s, struct sm_dim3 block)
{
	const struct sm_rstmt *r = sm_rstmt_find(m, s);
	if (!r || !r->cond)
		return -1;
	if (r->cond->kind == SM_E_CONST) /* a constant the resolver folded */
		return r->cond->ival != 0;
	int rep = repeated_value(r);
	if (rep >= 0 || block.x < 1 || block.y < 1 || block.z < 1)
		return rep;
	int64_t nt = block.x * block.y * block.z;
	if (nt > SM_MAX_BLOCK_THREADS)
		return -1;
	int first = -1;
	for (int64_t t = 0; t < nt; t++) {
		struct sm_eval_ctx c;
		sm_thread_ctx(&c, block, t);
		c.strict = 1;
		c.budget = SM_EVAL_BUDGET_COND;
		int64_t v = sm_eval(r->cond, &c);
		/* a value that reads a loop counter holds at one iteration */
		if (c.err || c.used_iter)
			return -1;
		if (t == 0)
			first = v != 0;
		else if ((v != 0) != first)
			return -1;
		if (!c.used_tid)
			break; /* the same in every thread */
	}
	return first;
}

/* A condition's truth for one thread at one iteration (uniform unknowns
 * as c's seed picks them): 1, 0, or -1 when unknown. */
static int cond_at(const struct sm_expr *e, struct sm_eval_ctx *c)
{
	c->err = 0;
	c->strict = 0;
	c->budget = SM_EVAL_BUDGET_COND;
	int64_t v = sm_eval(e, c);
	return c->err ? -1 : v != 0;
}

int sm_cond_continues_loop(const struct sm_kernel_model *m, const struct sm_stmt *s, const struct sm_stmt *lp,
			   struct sm_dim3 block)
{
	const struct sm_rstmt *r = sm_rstmt_find(m, s), *rl = sm_rstmt_find(m, lp);
	if (!r || !r->cond || !rl || !rl->loop || !rl->loop->cond || rl->loop->depth >= SM_MAX_LOOPS)
		return -1;
	const struct sm_loop *L = rl->loop;
	int64_t nt = block.x * block.y * block.z;
	if (block.x < 1 || block.y < 1 || block.z < 1 || nt > SM_MAX_BLOCK_THREADS)
		return -1;
	bool same = true, opposite = true;
	int tried = 0;
	for (unsigned seed = 0; seed < SM_CONTINUES_SEEDS; seed++) {
		for (int end = 0; end < 2; end++) {
			struct sm_eval_ctx c;
			sm_thread_ctx(&c, block, end ? nt - 1 : 0);
			c.seed = seed;
			int64_t k;
			for (k = 0; k < SM_CONTINUES_MAX_ITER; k++) {
				c.iter[L->depth] = k;
				int runs = cond_at(L->cond, &c);
				int v = runs == 1 ? cond_at(r->cond, &c) : 0;
				c.iter[L->depth] = k + 1;
				int again = runs == 1 ? cond_at(L->cond, &c) : 0;
				if (runs < 0 || v < 0 || again < 0)
					return -1;
				if (!runs)
					break;
				same = same && v == again;
				opposite = opposite && v != again;
				tried++;
				if (!same && !opposite)
					return -1;
			}
			if (k == SM_CONTINUES_MAX_ITER)
				return -1; /* its last iteration was not seen */
		}
	}
	return !tried ? -1 : same ? 1 : opposite ? 0 : -1;
}

/* ---- thread ids that cancel ----
 * sm_expr_thread_dep says whether an expression reads a thread index; a
 * condition can read one and still be the same in every thread:
 * `i < n + threadIdx.x - threadIdx.x`, `blockDim.x - threadIdx.x +
 * threadIdx.x > 4`, `threadIdx.x / blockDim.x == 0`. The thread part of a
 * sum is kept as a linear form over the thread indexes and the lane
 * (coefficients modulo 2^64), valid modulo 2^v where v is the narrowest
 * wrap on its way; a node whose operands' thread parts cancel, with v its
 * own width, is exactly a uniform value. Anything else that reads a thread
 * index (a product by an unknown, a comparison, a load) depends on it. */
struct lin {
	uint64_t k[4];   /* coefficients of tid.x, tid.y, tid.z and the lane */
	unsigned valid;  /* the form holds modulo 2^valid */
};

static unsigned width_of(const struct sm_expr *e)
{
	return e->bits == 0 || e->bits > 64 ? 64 : e->bits;
}

static bool lin_zero(const struct lin *l)
{
	return !l->k[0] && !l->k[1] && !l->k[2] && !l->k[3];
}

static const struct sm_expr *strip_casts(const struct sm_expr *e)
{
	while (e && e->kind == SM_E_CAST && e->a && width_of(e) >= 32)
		e = e->a;
	return e;
}

/* The thread part of e, false when it is not linear (or too deep). */
static bool lin_of(const struct sm_expr *e, struct lin *out, int depth, unsigned *budget)
{
	memset(out, 0, sizeof(*out));
	out->valid = 64;
	if (!e || depth > SM_SCAN_EXPR_DEPTH || (*budget)-- == 0)
		return false;
	if (!sm_expr_thread_dep(e))
		return true;
	struct lin a, b;
	switch (e->kind) {
	case SM_E_BUILTIN:
		if (e->builtin == SM_B_TID)
			out->k[e->dim] = 1;
		else if (e->builtin == SM_B_LANE)
			out->k[3] = 1;
		return true;
	case SM_E_CAST:
		if (!lin_of(e->a, &a, depth + 1, budget))
			return false;
		*out = a;
		if (width_of(e) < out->valid)
			out->valid = width_of(e);
		break;
	case SM_E_UNARY:
		if (e->op != SM_OP_NEG || !lin_of(e->a, &a, depth + 1, budget))
			return false;
		for (int i = 0; i < 4; i++)
			out->k[i] = 0 - a.k[i];
		out->valid = a.valid;
		break;
	case SM_E_BINARY: {
		if (e->is_ptr)
			return false;
		if (e->op == SM_OP_DIV) {
			/* threadIdx.d / blockDim.d: 0 in every thread */
			const struct sm_expr *x = strip_casts(e->a), *y = strip_casts(e->b);
			return x && y && x->kind == SM_E_BUILTIN && x->builtin == SM_B_TID && y->kind == SM_E_BUILTIN &&
			       y->builtin == SM_B_NTID && x->dim == y->dim;
		}
		if (e->op != SM_OP_ADD && e->op != SM_OP_SUB && e->op != SM_OP_MUL)
			return false;
		if (!lin_of(e->a, &a, depth + 1, budget) || !lin_of(e->b, &b, depth + 1, budget))
			return false;
		if (e->op == SM_OP_MUL) {
			/* by a constant only: a uniform unknown scales the form
			 * by a value not known */
			const struct sm_expr *kx = strip_casts(e->b);
			struct lin *f = &a;
			if (lin_zero(&a)) {
				kx = strip_casts(e->a);
				f = &b;
			} else if (!lin_zero(&b)) {
				return false;
			}
			if (!kx || kx->kind != SM_E_CONST)
				return false;
			for (int i = 0; i < 4; i++)
				out->k[i] = f->k[i] * (uint64_t)kx->ival;
			out->valid = f->valid;
		} else {
			for (int i = 0; i < 4; i++)
				out->k[i] = e->op == SM_OP_ADD ? a.k[i] + b.k[i] : a.k[i] - b.k[i];
			out->valid = a.valid < b.valid ? a.valid : b.valid;
		}
		if (width_of(e) < out->valid)
			out->valid = width_of(e);
		break;
	}
	case SM_E_LOOPVAR: {
		/* init + k * step: at one iteration k, the thread part of its
		 * start, when the step is alike in every thread */
		if (!e->loop || e->ival >= e->loop->niv)
			return false;
		const struct sm_iv *iv = &e->loop->ivs[e->ival];
		if (!iv->init || !iv->step || sm_expr_thread_dep(iv->step) || !lin_of(iv->init, &a, depth + 1, budget))
			return false;
		*out = a;
		if (width_of(e) < out->valid)
			out->valid = width_of(e);
		break;
	}
	case SM_E_CONST: case SM_E_VAR: case SM_E_OPAQUE: case SM_E_COND: case SM_E_ADDR:
	case SM_E_LOOPEXIT: case SM_E_PREV:
		return false; /* reads a thread index in a way not modelled */
	}
	/* cancelled: exactly uniform when the form holds at e's own width */
	if (lin_zero(out)) {
		if (out->valid < width_of(e))
			return false;
		out->valid = 64;
	}
	return true;
}

/* A comparison (or && ||) of operands whose thread parts cancel. */
static bool uniform_cond(const struct sm_expr *e, int depth, unsigned *budget)
{
	if (!e || depth > SM_SCAN_EXPR_DEPTH)
		return false;
	if (!sm_expr_thread_dep(e))
		return true;
	bool cmp = e->kind == SM_E_BINARY &&
		   (e->op == SM_OP_LT || e->op == SM_OP_GT || e->op == SM_OP_LE || e->op == SM_OP_GE ||
		    e->op == SM_OP_EQ || e->op == SM_OP_NE || e->op == SM_OP_LAND || e->op == SM_OP_LOR);
	if (cmp && uniform_cond(e->a, depth + 1, budget) && uniform_cond(e->b, depth + 1, budget))
		return true;
	if (cmp && e->op != SM_OP_LAND && e->op != SM_OP_LOR && !e->is_unsigned && e->a && e->b &&
	    !e->a->is_unsigned && !e->b->is_unsigned) {
		/* a signed comparison of two sides with one thread part
		 * (`t < n + tid` with t from `m + tid`): it compares their
		 * uniform rests, as signed arithmetic does not wrap */
		struct lin la, lb;
		if (!lin_of(e->a, &la, depth + 1, budget) || !lin_of(e->b, &lb, depth + 1, budget))
			return false;
		if (la.valid < width_of(e->a) || lb.valid < width_of(e->b))
			return false;
		for (int i = 0; i < 4; i++)
			if (la.k[i] != lb.k[i])
				return false;
		return true;
	}
	if (cmp)
		return false;
	if ((e->kind == SM_E_UNARY && e->op == SM_OP_NOT) || e->kind == SM_E_CAST)
		return uniform_cond(e->a, depth + 1, budget);
	if (e->kind == SM_E_LOOPVAR || e->kind == SM_E_LOOPEXIT) {
		/* a counter whose start and step are uniform */
		if (!e->loop || e->ival >= e->loop->niv)
			return false;
		const struct sm_iv *iv = &e->loop->ivs[e->ival];
		return uniform_cond(iv->init, depth + 1, budget) && uniform_cond(iv->step, depth + 1, budget);
	}
	struct lin l;
	return lin_of(e, &l, depth, budget) && lin_zero(&l);
}

bool sm_expr_varies(const struct sm_expr *e)
{
	if (!sm_expr_thread_dep(e))
		return false;
	unsigned budget = SM_THREAD_DEP_BUDGET;
	return !uniform_cond(e, 0, &budget);
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


/* ---- values alike in every thread and iteration ---- */

static enum sm_seen is_counter(const struct sm_expr *e, void *arg)
{
	(void)arg;
	bool hit = e->kind == SM_E_LOOPVAR || e->kind == SM_E_LOOPEXIT || e->kind == SM_E_PREV;
	return hit ? SM_SEEN_HIT : SM_SEEN_GO;
}

bool sm_value_invariant(const struct sm_expr *e)
{
	if (!e || sm_expr_thread_dep(e))
		return false;
	struct sm_expr_walk w = { is_counter, NULL, SM_WALK_ADDR_PLACE | SM_WALK_LOAD_PLACE, SM_SCAN_EXPR_DEPTH, true };
	return !sm_expr_any(e, &w);
}

int sm_count_members(const struct sm_rstmt *r, const struct sm_stmt *s, struct sm_dim3 b, unsigned char *mem)
{
	int64_t nthreads = b.x * b.y * b.z;
	if (!r || !r->guards || s->scope_arg <= 0 || s->scope_arg % SM_WARP || nthreads <= 0)
		return 0;
	int64_t n = 0;
	for (int64_t t = 0; t < nthreads; t++) {
		struct sm_eval_ctx c;
		sm_thread_ctx(&c, b, t);
		c.strict = 1;
		bool on = true;
		for (const struct sm_guard *g = r->guards; g && on; g = g->next) {
			c.budget = SM_EVAL_BUDGET_COND;
			int64_t v = sm_eval(g->cond, &c);
			if (c.err)
				return 0;
			on = (v != 0) != g->negate;
		}
		mem[t] = on;
		n += on;
		/* whole warps: a lane agrees with lane 0 of its warp */
		if (t % SM_WARP && mem[t] != mem[t - t % SM_WARP])
			return 0;
	}
	return n == s->scope_arg;
}

/* ---- loop counters in an expression ---- */

/* A loop counter or a pointer; a load's value varies where its address
 * does (its place is followed). */
static enum sm_seen is_loop_dependent(const struct sm_expr *e, void *arg)
{
	bool hit = e->kind == SM_E_LOOPVAR || e->kind == SM_E_LOOPEXIT || e->kind == SM_E_ADDR;
	return hit ? SM_SEEN_HIT : SM_SEEN_GO;
}

bool sm_expr_refs_loops(const struct sm_expr *e)
{
	struct sm_expr_walk w = { is_loop_dependent, NULL, SM_WALK_LOAD_PLACE, SM_SCAN_EXPR_DEPTH, true };
	return sm_expr_any(e, &w);
}

/* ---- conditions a path keeps (the race graph's path variables) ---- */

struct path_scan {
	struct sm_cond_path *out;
	bool bad;
};

/* Records the loops whose counters e reads; hits what may change between
 * two points of one iteration: memory, a pointer, a loop's exit value or
 * a recurrence. */
static enum sm_seen path_node(const struct sm_expr *e, void *arg)
{
	struct path_scan *ps = arg;
	if (e->kind == SM_E_LOOPVAR) {
		struct sm_cond_path *o = ps->out;
		int i = 0;
		while (i < o->nloops && o->loops[i] != e->loop)
			i++;
		if (!e->loop || (i == o->nloops && o->nloops == SM_MAX_LOOPS)) {
			ps->bad = true;
			return SM_SEEN_HIT;
		}
		if (i == o->nloops)
			o->loops[o->nloops++] = e->loop;
		return SM_SEEN_SKIP;
	}
	if (e->kind == SM_E_VAR) /* a parameter's value at entry */
		return e->var && e->var->kind == SM_V_PARAM ? SM_SEEN_SKIP : SM_SEEN_HIT;
	if (e->kind == SM_E_LOOPEXIT || e->kind == SM_E_PREV || e->kind == SM_E_ADDR)
		return SM_SEEN_HIT;
	if (e->kind == SM_E_OPAQUE) {
		if (e->place && !sm_expr_is_collective(e))
			return SM_SEEN_HIT;
		/* a call's result, a collective: fixed between two points of
		 * one run of its definition, which a loop may run again */
		ps->out->per_run |= !e->float_known;
		return SM_SEEN_SKIP;
	}
	return SM_SEEN_GO;
}

/* e's truth at iteration k of loop L in thread 0 (no other loop's
 * counter, no uniform unknown): 1, 0 or -1. */
static int truth_at(const struct sm_expr *e, const struct sm_loop *L, struct sm_dim3 block, int64_t k)
{
	struct sm_eval_ctx c;
	sm_thread_ctx(&c, block, 0);
	c.strict = 1;
	c.budget = SM_EVAL_BUDGET_COND;
	c.iter[L->depth] = k;
	int64_t v = sm_eval(e, &c);
	if (c.err || (c.used_iter & ~(1 << L->depth)))
		return -1;
	return v != 0;
}

/* Is e loop L's counter with a constant, nonzero additive step (strictly
 * monotone, so a comparison with a fixed value changes at most once)? */
static bool monotone_counter(const struct sm_expr *e, const struct sm_loop *L, struct sm_dim3 block)
{
	while (e && e->kind == SM_E_CAST && e->bits >= 32)
		e = e->a;
	if (!e || e->kind != SM_E_LOOPVAR || e->loop != L || e->ival < 0 || e->ival >= L->niv)
		return false;
	const struct sm_iv *iv = &L->ivs[e->ival];
	if ((iv->op != SM_OP_ADD && iv->op != SM_OP_SUB) || !iv->step || sm_expr_refs_loops(iv->step))
		return false;
	struct sm_eval_ctx c;
	sm_thread_ctx(&c, block, 0);
	c.strict = 1;
	c.budget = SM_EVAL_BUDGET_COND;
	int64_t step = sm_eval(iv->step, &c);
	return !c.err && step != 0;
}

/* The value of e, comparing L's counter with a fixed value, at every
 * iteration after the first: 1, 0 or -1 (not known). */
static int later_truth(const struct sm_expr *e, const struct sm_loop *L, struct sm_dim3 block, int depth)
{
	if (!e || depth > SM_SCAN_EXPR_DEPTH)
		return -1;
	if (e->kind == SM_E_UNARY && e->op == SM_OP_NOT) {
		int v = later_truth(e->a, L, block, depth + 1);
		return v < 0 ? -1 : !v;
	}
	if (e->kind != SM_E_BINARY || e->op < SM_OP_LT || e->op > SM_OP_NE)
		return -1;
	bool ca = monotone_counter(e->a, L, block) && !sm_expr_refs_loops(e->b);
	bool cb = monotone_counter(e->b, L, block) && !sm_expr_refs_loops(e->a);
	if (!ca && !cb)
		return -1;
	int v0 = truth_at(e, L, block, 0), v1 = truth_at(e, L, block, 1);
	if (v0 < 0 || v1 < 0)
		return -1;
	if (e->op == SM_OP_EQ)
		return v0 ? 0 : -1; /* equal at the start: never again */
	if (e->op == SM_OP_NE)
		return v0 ? -1 : 1;
	/* an order against a fixed value flips at most once */
	return v0 != v1 ? v1 : -1;
}

bool sm_cond_path_facts(const struct sm_expr *e, struct sm_dim3 block, struct sm_cond_path *out)
{
	memset(out, 0, sizeof(*out));
	out->first = out->later = -1;
	if (!e || sm_expr_thread_dep(e))
		return false;
	struct path_scan ps = { out, false };
	struct sm_expr_walk w = { path_node, &ps, 0, SM_SCAN_EXPR_DEPTH, true };
	if (sm_expr_any(e, &w) || ps.bad)
		return false;
	if (out->nloops == 1 && out->loops[0]->depth < SM_MAX_LOOPS) {
		out->first = truth_at(e, out->loops[0], block, 0);
		out->later = later_truth(e, out->loops[0], block, 0);
	}
	return true;
}
