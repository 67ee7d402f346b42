/* eval.c - the lane evaluator: the value of a closed expression (over
 * thread ids, loop counters, launch values and uniform unknowns) for one
 * thread at one iteration vector (struct sm_eval_ctx), and the value of a
 * loop's condition there.
 *
 * Integer arithmetic follows C's on the expression's type (wrap()); a
 * uniform unknown takes the value the context's seed picks for it
 * (opaque_value), or is an error when the context is strict (a condition
 * must not be decided by a guess). Every node visited counts against the
 * context's budget and the file's analysis budget (sm_work). Calls nothing
 * else of the engine but the recurrence of its own loop counters.
 *
 * Beside it, three questions of a closed expression that the files below
 * ask: a condition's value in three values (sm_eval_truth: Kleene's && ||
 * and !, so a guard's known conjuncts decide it), whether two trees are
 * one value (sm_expr_same), and whether a tree reads a thread index
 * (sm_expr_thread_dep).
 */
#include "engine/analysis.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- the lane evaluator ---- */

static int64_t wrap(int64_t v, unsigned bits, bool is_unsigned)
{
	if (bits == 0 || bits >= 64)
		return v;
	uint64_t m = (1ull << bits) - 1;
	uint64_t u = (uint64_t)v & m;
	if (is_unsigned)
		return (int64_t)u;
	if (u & (1ull << (bits - 1)))
		return (int64_t)(u | ~m);
	return (int64_t)u;
}

static int64_t opaque_value(unsigned seed, unsigned id)
{
	/* values tried for a uniform unknown: 1, 32, one that differs per
	 * unknown, then small ones (so that an index whose larger values
	 * fall outside its array still gets in-bounds tries); from
	 * SM_SEED_STRIDE, large multiples of 128 (a row stride in global
	 * memory, in elements of any size: a multiple of 128 bytes) */
	if (seed >= SM_SEED_STRIDE) {
		switch (seed - SM_SEED_STRIDE) {
		case 0: return 1024;
		case 1: return 4096;
		default: return 128 * (9 + (int64_t)(id % 23));
		}
	}
	switch (seed) {
	case 0: return 1;
	case 1: return 32;
	case 2: return 7 + (int64_t)(id % 61);
	case 3: return 2;
	case 4: return 4;
	default: return 3;
	}
}

static int64_t eval(const struct sm_expr *e, struct sm_eval_ctx *c, int depth);
static int64_t iv_value(const struct sm_iv *iv, const struct sm_loop *L, int64_t k, struct sm_eval_ctx *c, int depth);

int64_t sm_iv_apply(enum sm_op op, int64_t v, int64_t step, int64_t k, struct sm_eval_ctx *c)
{
	switch (op) {
	case SM_OP_ADD: return v + step * k;
	case SM_OP_SUB: return v - step * k;
	case SM_OP_SHL:
		if (step < 0 || step * k >= 62) { c->err = 1; return 0; }
		return (int64_t)((uint64_t)v << (step * k));
	case SM_OP_SHR:
		if (step < 0) { c->err = 1; return 0; }
		if (step * k >= 63) return v < 0 ? -1 : 0;
		return v >> (step * k);
	case SM_OP_MUL:
		for (int64_t i = 0; i < k; i++) {
			if (v != 0 && (v > INT64_MAX / 4 || v < INT64_MIN / 4 || step > 1024 || step < -1024)) {
				c->err = 1;
				return 0;
			}
			v *= step;
		}
		return v;
	case SM_OP_DIV:
		if (step == 0) { c->err = 1; return 0; }
		for (int64_t i = 0; i < k && v != 0; i++)
			v /= step;
		return v;
	case SM_OP_REM: case SM_OP_AND: case SM_OP_OR: case SM_OP_XOR: case SM_OP_LT: case SM_OP_GT:
	case SM_OP_LE: case SM_OP_GE: case SM_OP_EQ: case SM_OP_NE: case SM_OP_LAND: case SM_OP_LOR:
	case SM_OP_MIN: case SM_OP_MAX: case SM_OP_NEG: case SM_OP_NOT: case SM_OP_BITNOT: case SM_OP_BREV:
	case SM_OP_ASSIGN: case SM_OP__COUNT:
		break; /* not an induction update */
	}
	c->err = 1;
	return 0;
}

/* The value of induction variable iv of loop L at iteration k. */
static int64_t iv_value(const struct sm_iv *iv, const struct sm_loop *L, int64_t k, struct sm_eval_ctx *c, int depth)
{
	int64_t v = eval(iv->init, c, depth + 1);
	if (c->err)
		return 0;
	if (iv->op != SM_OP_ASSIGN) {
		int64_t step = eval(iv->step, c, depth + 1);
		if (c->err)
			return 0;
		return sm_iv_apply(iv->op, v, step, k, c);
	}
	/* a recurrence: apply its step k times */
	if (k > SM_RECURRENCE_MAX_ITER) {
		c->err = 1;
		return 0;
	}
	struct sm_eval_ctx rc = *c;
	rc.rec_iv = iv;
	for (int64_t i = 0; i < k && !rc.err; i++) {
		rc.iter[L->depth] = i;
		rc.rec_prev = v;
		v = eval(iv->step, &rc, depth + 1);
	}
	c->budget = rc.budget;
	c->err = rc.err;
	c->used_tid |= rc.used_tid;
	c->used_iter |= rc.used_iter;
	return rc.err ? 0 : v;
}

static int64_t eval(const struct sm_expr *e, struct sm_eval_ctx *c, int depth)
{
	if (!e || c->err) {
		c->err = 1;
		return 0;
	}
	if (depth > SM_EVAL_MAX_DEPTH || c->budget == 0) {
		c->err = 1;
		return 0;
	}
	c->budget--;
	if (c->work)
		c->work->used++;
	switch (e->kind) {
	case SM_E_CONST:
		return e->ival;
	case SM_E_BUILTIN:
		switch (e->builtin) {
		case SM_B_TID: c->used_tid = 1; return c->tid[e->dim];
		case SM_B_NTID: c->used_tid = 1; return e->dim == 0 ? c->ntid.x : e->dim == 1 ? c->ntid.y : c->ntid.z;
		case SM_B_CTAID:
		case SM_B_NCTAID:
			if (c->launch && c->launch->grid_known) {
				const struct sm_dim3 *g = &c->launch->grid;
				return e->builtin == SM_B_CTAID ? c->ctaid[e->dim]
								: e->dim == 0 ? g->x : e->dim == 1 ? g->y : g->z;
			}
			if (c->strict) {
				c->err = 1;
				return 0;
			}
			return e->builtin == SM_B_CTAID ? opaque_value(c->seed, 1000 + (unsigned)e->dim) - 1
							: opaque_value(c->seed, 2000 + (unsigned)e->dim);
		case SM_B_LANE: c->used_tid = 1; return (c->tid[0] + c->tid[1] * c->ntid.x + c->tid[2] * c->ntid.x * c->ntid.y) % 32;
		case SM_B_WARPSIZE: return 32;
		}
		return 0;
	case SM_E_VAR:
		/* a parameter: uniform, and unknown unless the launch fixes it */
		if (c->launch && e->var && e->var->kind == SM_V_PARAM && !e->var->is_pointer &&
		    e->var->id < c->launch->nargs && c->launch->args[e->var->id].known)
			return c->launch->args[e->var->id].value;
		if (c->strict) {
			c->err = 1;
			return 0;
		}
		return opaque_value(c->seed, e->var ? e->var->id + 3000 : 3000);
	case SM_E_OPAQUE:
		if (e->thread_dep || c->strict) {
			c->err = 1;
			return 0;
		}
		return opaque_value(c->seed, e->id);
	case SM_E_LOOPEXIT: {
		/* run the (uniform) loop to its end: the value depends on the
		 * counters of the loops around L that it reads, never on L's
		 * own (run here) nor on those of loops as deep as L or deeper
		 * (an access after the loop reads the same value at each of
		 * their iterations) */
		const struct sm_loop *L = e->loop;
		if (!L || e->ival >= L->niv || L->depth >= SM_MAX_LOOPS || !L->cond) {
			c->used_iter = SM_ITER_ANY;
			c->err = 1;
			return 0;
		}
		struct sm_eval_ctx lc = *c;
		lc.strict = 1;
		lc.used_iter = 0;
		int64_t r = 0;
		int found = 0;
		for (int64_t k = 0; k < SM_LOOP_EXIT_MAX_ITER && !lc.err; k++) {
			lc.iter[L->depth] = k;
			int64_t v = eval(L->cond, &lc, depth + 1);
			if (lc.err)
				break;
			if (!v) {
				const struct sm_iv *iv = &L->ivs[e->ival];
				lc.strict = c->strict;
				r = iv_value(iv, L, k, &lc, depth);
				found = !lc.err;
				break;
			}
		}
		if (found)
			c->budget = lc.budget;
		c->used_tid |= lc.used_tid;
		c->used_iter |= lc.used_iter & ((1 << L->depth) - 1);
		if (!found)
			c->err = 1;
		return found ? r : 0;
	}
	case SM_E_LOOPVAR: {
		const struct sm_loop *L = e->loop;
		if (!L || e->ival >= L->niv || L->depth >= SM_MAX_LOOPS) {
			c->used_iter = SM_ITER_ANY;
			c->err = 1;
			return 0;
		}
		c->used_iter |= 1 << L->depth;
		return iv_value(&L->ivs[e->ival], L, c->iter[L->depth], c, depth);
	}
	case SM_E_PREV:
		if (!e->loop || e->ival >= e->loop->niv || e->loop->depth >= SM_MAX_LOOPS ||
		    c->rec_iv != &e->loop->ivs[e->ival]) {
			c->used_iter = SM_ITER_ANY;
			c->err = 1;
			return 0;
		}
		c->used_iter |= 1 << e->loop->depth;
		return c->rec_prev;
	case SM_E_UNARY: {
		int64_t a = eval(e->a, c, depth + 1);
		int64_t r = 0;
		switch (e->op) {
		case SM_OP_NEG: r = (int64_t)(0 - (uint64_t)a); break;
		case SM_OP_NOT: return !a;
		case SM_OP_BITNOT: r = ~a; break;
		case SM_OP_BREV: {
			uint32_t x = (uint32_t)a, y = 0;
			for (int i = 0; i < 32; i++)
				y |= ((x >> i) & 1u) << (31 - i);
			r = (int64_t)y;
			break;
		}
		case SM_OP_ADD: case SM_OP_SUB: case SM_OP_MUL: case SM_OP_DIV: case SM_OP_REM: case SM_OP_SHL:
		case SM_OP_SHR: case SM_OP_AND: case SM_OP_OR: case SM_OP_XOR: case SM_OP_LT: case SM_OP_GT:
		case SM_OP_LE: case SM_OP_GE: case SM_OP_EQ: case SM_OP_NE: case SM_OP_LAND: case SM_OP_LOR:
		case SM_OP_MIN: case SM_OP_MAX: case SM_OP_ASSIGN: case SM_OP__COUNT: /* not unary */
			c->err = 1;
			return 0;
		}
		return wrap(r, e->bits, e->is_unsigned);
	}
	case SM_E_CAST:
		return wrap(eval(e->a, c, depth + 1), e->bits, e->is_unsigned);
	case SM_E_COND: {
		/* a merge whose condition is a guard in force that was taken
		 * as true (sm_access_addr): its arm, consistently */
		for (const struct sm_guard *g = c->assume; g; g = g->next)
			if (sm_expr_same(g->cond, e->a))
				return eval(g->negate ? e->c : e->b, c, depth + 1);
		int64_t k = eval(e->a, c, depth + 1);
		if (c->err)
			return 0;
		return k ? eval(e->b, c, depth + 1) : eval(e->c, c, depth + 1);
	}
	case SM_E_BINARY: {
		if (e->op == SM_OP_LAND || e->op == SM_OP_LOR) {
			int64_t a = eval(e->a, c, depth + 1);
			if (c->err)
				return 0;
			if (e->op == SM_OP_LAND && !a)
				return 0;
			if (e->op == SM_OP_LOR && a)
				return 1;
			return eval(e->b, c, depth + 1) != 0;
		}
		int64_t a = eval(e->a, c, depth + 1);
		int64_t b = eval(e->b, c, depth + 1);
		if (c->err)
			return 0;
		bool u = e->is_unsigned;
		uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
		int64_t r = 0;
		switch (e->op) {
		case SM_OP_ADD: r = (int64_t)(ua + ub); break;
		case SM_OP_SUB: r = (int64_t)(ua - ub); break;
		case SM_OP_MUL: r = (int64_t)(ua * ub); break;
		case SM_OP_DIV:
			if (b == 0 || (a == INT64_MIN && b == -1)) { c->err = 1; return 0; }
			r = u ? (int64_t)(ua / ub) : a / b;
			break;
		case SM_OP_REM:
			if (b == 0 || (a == INT64_MIN && b == -1)) { c->err = 1; return 0; }
			r = u ? (int64_t)(ua % ub) : a % b;
			break;
		case SM_OP_SHL:
			if (b < 0 || b >= 64) { c->err = 1; return 0; }
			r = (int64_t)(ua << b);
			break;
		case SM_OP_SHR:
			if (b < 0 || b >= 64) { c->err = 1; return 0; }
			r = u ? (int64_t)(ua >> b) : a >> b;
			break;
		case SM_OP_AND: r = a & b; break;
		case SM_OP_OR: r = a | b; break;
		case SM_OP_XOR: r = a ^ b; break;
		case SM_OP_LT: return u ? ua < ub : a < b;
		case SM_OP_GT: return u ? ua > ub : a > b;
		case SM_OP_LE: return u ? ua <= ub : a <= b;
		case SM_OP_GE: return u ? ua >= ub : a >= b;
		case SM_OP_EQ: return a == b;
		case SM_OP_NE: return a != b;
		case SM_OP_MIN: r = (u ? ua < ub : a < b) ? a : b; break;
		case SM_OP_MAX: r = (u ? ua > ub : a > b) ? a : b; break;
		case SM_OP_LAND: case SM_OP_LOR: /* above */
		case SM_OP_NEG: case SM_OP_NOT: case SM_OP_BITNOT: case SM_OP_BREV: case SM_OP_ASSIGN: case SM_OP__COUNT:
			c->err = 1; /* not binary */
			return 0;
		}
		return wrap(r, e->bits, u);
	}
	case SM_E_ADDR: /* a pointer: no integer value */
		break;
	}
	c->err = 1;
	return 0;
}

int64_t sm_eval(const struct sm_expr *e, struct sm_eval_ctx *c)
{
	return eval(e, c, 0);
}

/* ---- conditions in three values ----
 * A guard is a conjunction or disjunction of tests of which some may be
 * undecidable (a uniform unknown, a load): `index > 0 && threadIdx.x == 0`
 * is false for every thread but 0 whatever index holds. Kleene's logic
 * over && || ! gives the guard's value where the known tests decide it,
 * and unknown (-1) only where they do not: a thread never counts as not
 * running an access it may run. */
static int truth(const struct sm_expr *e, struct sm_eval_ctx *c, int depth)
{
	if (!e || depth > SM_EVAL_MAX_DEPTH)
		return -1;
	if (e->kind == SM_E_BINARY && (e->op == SM_OP_LAND || e->op == SM_OP_LOR)) {
		int a = truth(e->a, c, depth + 1);
		int want = e->op == SM_OP_LOR; /* the value that decides alone */
		if (a == want)
			return want;
		int b = truth(e->b, c, depth + 1);
		if (b == want)
			return want;
		return a < 0 || b < 0 ? -1 : !want;
	}
	if (e->kind == SM_E_UNARY && e->op == SM_OP_NOT) {
		int a = truth(e->a, c, depth + 1);
		return a < 0 ? -1 : !a;
	}
	if (e->kind == SM_E_CAST && e->a && e->bits != 0 &&
	    ((e->a->kind == SM_E_BINARY && (e->a->op == SM_OP_LAND || e->a->op == SM_OP_LOR)) ||
	     (e->a->kind == SM_E_UNARY && e->a->op == SM_OP_NOT)))
		return truth(e->a, c, depth + 1); /* a 0 or 1 keeps its value */
	c->err = 0;
	int64_t v = eval(e, c, depth);
	if (c->err) {
		c->err = 0;
		return -1;
	}
	return v != 0;
}

int sm_eval_truth(const struct sm_expr *e, struct sm_eval_ctx *c)
{
	int strict = c->strict;
	c->strict = 1;
	int r = truth(e, c, 0);
	c->strict = strict;
	return r;
}

/* ---- one value, written twice ---- */

static bool same(const struct sm_expr *a, const struct sm_expr *b, int depth);

static bool same_place(const struct sm_access *x, const struct sm_access *y, int depth)
{
	if (x == y)
		return true;
	if (!x || !y || x->array != y->array || x->nidx != y->nidx || x->width != y->width ||
	    x->base_elem_size != y->base_elem_size || !same(x->base, y->base, depth + 1) ||
	    !same(x->extra, y->extra, depth + 1))
		return false;
	for (int i = 0; i < x->nidx; i++)
		if (!same(x->idx[i], y->idx[i], depth + 1))
			return false;
	return true;
}

static bool same(const struct sm_expr *a, const struct sm_expr *b, int depth)
{
	if (a == b)
		return true;
	if (!a || !b || depth > SM_SCAN_EXPR_DEPTH || a->kind != b->kind || a->op != b->op || a->bits != b->bits ||
	    a->is_unsigned != b->is_unsigned || a->is_ptr != b->is_ptr)
		return false;
	switch (a->kind) {
	case SM_E_CONST:
		return a->ival == b->ival;
	case SM_E_BUILTIN:
		return a->builtin == b->builtin && a->dim == b->dim;
	case SM_E_VAR:
		return a->var == b->var;
	case SM_E_LOOPVAR: case SM_E_LOOPEXIT: case SM_E_PREV:
		return a->loop == b->loop && a->ival == b->ival;
	case SM_E_OPAQUE:
		/* one unknown, or two loads of one element (a program that
		 * writes it between them races on it, reported on its own) */
		if (a->thread_dep != b->thread_dep)
			return false;
		if (sm_expr_is_collective(a) || sm_expr_is_collective(b))
			return a->id == b->id; /* one collective (copies keep its id) */
		if (!a->place || !b->place)
			return !a->place && !b->place &&
			       (a->id == b->id || (a->float_known && b->float_known && a->ival == b->ival));
		return same_place(a->place, b->place, depth);
	case SM_E_ADDR:
		return same_place(a->place, b->place, depth);
	case SM_E_UNARY: case SM_E_BINARY: case SM_E_COND: case SM_E_CAST:
		return same(a->a, b->a, depth + 1) && same(a->b, b->b, depth + 1) && same(a->c, b->c, depth + 1);
	}
	return false;
}

bool sm_expr_same(const struct sm_expr *a, const struct sm_expr *b)
{
	return same(a, b, 0);
}

/* ---- thread dependence ---- */

bool sm_expr_thread_dep(const struct sm_expr *e)
{
	/* iterative over a small explicit stack to survive deep trees */
	const struct sm_expr *stack[SM_THREAD_DEP_STACK];
	int sp = 0;
	if (e)
		stack[sp++] = e;
	unsigned budget = SM_THREAD_DEP_BUDGET;
	while (sp > 0 && budget-- > 0) {
		const struct sm_expr *x = stack[--sp];
		switch (x->kind) {
		case SM_E_BUILTIN:
			if (x->builtin == SM_B_TID || x->builtin == SM_B_LANE)
				return true;
			break;
		case SM_E_OPAQUE:
			if (x->thread_dep)
				return true;
			break;
		case SM_E_LOOPVAR:
		case SM_E_LOOPEXIT:
			if (x->loop && x->ival < x->loop->niv) {
				const struct sm_iv *iv = &x->loop->ivs[x->ival];
				if (sm_expr_thread_dep(iv->init) || sm_expr_thread_dep(iv->step))
					return true;
			}
			break;
		case SM_E_ADDR:
			if (x->place) {
				for (int i = 0; i < x->place->nidx; i++)
					if (sm_expr_thread_dep(x->place->idx[i]))
						return true;
				if (sm_expr_thread_dep(x->place->extra))
					return true;
			}
			break;
		case SM_E_CONST: case SM_E_VAR: case SM_E_UNARY: case SM_E_BINARY: case SM_E_COND: case SM_E_CAST:
		case SM_E_PREV:
			break;
		}
		const struct sm_expr *k[3] = { x->a, x->b, x->c };
		for (int i = 0; i < 3; i++)
			if (k[i]) {
				if (sp == SM_THREAD_DEP_STACK)
					return true; /* too deep to tell: assume it does */
				stack[sp++] = k[i];
			}
	}
	return sp > 0;
}

/* Is the loop's condition the same in every thread? Read from what its
 * evaluation touched (used_tid), around sm_loop_cond. */
int sm_loop_cond_lanes(const struct sm_loop *L, struct sm_eval_ctx *c, bool *every_thread)
{
	int used = c->used_tid;
	c->used_tid = 0;
	int r = sm_loop_cond(L, c);
	*every_thread = !c->used_tid;
	c->used_tid |= used;
	return r;
}

/* Is the loop's condition true at its current iteration (for this lane)?
 * Returns 1 true, 0 false, -1 undecidable. */
int sm_loop_cond(const struct sm_loop *L, struct sm_eval_ctx *c)
{
	if (!L->cond)
		return -1;
	c->err = 0;
	c->budget = SM_EVAL_BUDGET_COND;
	c->strict = 1;
	int64_t v = sm_eval(L->cond, c);
	c->strict = 0;
	if (c->err) {
		c->err = 0;
		return -1;
	}
	return v != 0;
}
