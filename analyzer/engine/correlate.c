/* correlate.c - one thread's guard that tests one shared element twice.
 *
 * A shared load's value is unknown to the evaluator, so a guard that reads
 * shared memory is undecidable and taken as true: the access is assumed to
 * run. That is sound alone, but it loses the correlation between two loads
 * of one element in one condition. The transitive-closure step
 *
 *     if (b[y][x] == 0 && b[y][k] != 0 && b[k][x] != 0) b[y][x] = k + 2;
 *
 * reads b[y][x] twice when k == x (as b[y][x] and b[y][k]) and tests it
 * both == 0 and != 0, so thread (y, x) never writes in iteration k == x:
 * exactly the iteration in which the other threads of row y read b[y][k].
 * Without the correlation the race search reports that read against a write
 * that cannot happen.
 *
 * Model: the condition that must hold (the guard, or its negation for an
 * else branch) is split into atoms, "element E compared with a constant",
 * through &&, ! and (negated) ||. Two atoms of one condition on one element
 * (same array, same byte offset for this thread and iteration) read one
 * value: no thread can write it between two loads of one condition without
 * a race of its own, which the search reports on its own. When the two
 * atoms admit no common value, the guard is false for this thread. Loads of
 * nested conditions are related the same way when nothing is written
 * between them (sm_guard.joined: the inner if is the first statement of
 * the outer one's arm, or follows only declarations, assignments to locals
 * and loads), as in GPUVerify's form of the same step,
 *
 *     if (b[y][x] == 0) { if (b[y][k] != 0 && b[k][x] != 0) b[y][x] = ...; }
 *
 * Once the thread may have written in between (a store, a call, a loop, an
 * if), the conditions are never related: the element may have changed. */
#include "engine/analysis.h"

#include <stdint.h>

/* An element compared with a constant: value op k must hold. */
struct atom {
	const struct sm_array *array;
	int64_t addr;              /* byte offset in the array */
	enum sm_op op;             /* SM_OP_EQ, NE, LT, LE, GT, GE */
	int64_t k;
};

struct atoms {
	struct atom a[SM_CORRELATE_ATOMS];
	int n;
};

/* The shared element a load reads, for the thread in c: false when the
 * load goes through a pointer or its offset is unknown. */
static bool load_elem(const struct sm_expr *e, struct sm_eval_ctx *c, const struct sm_array **array, int64_t *addr)
{
	unsigned bits = 64;
	for (; e && e->kind == SM_E_CAST; e = e->a)
		bits = e->bits < bits ? e->bits : bits;
	if (!e || e->kind != SM_E_OPAQUE || !e->thread_dep || !e->place)
		return false;
	const struct sm_access *p = e->place;
	if (!p->array || p->base || p->nidx != p->array->ndims)
		return false;
	unsigned width = p->width ? p->width : p->array->elem_size;
	if (bits < 8 * width)
		return false; /* a narrowing cast: (char)x == 0 is not x == 0 */
	struct sm_eval_ctx lc = *c;
	lc.err = 0;
	lc.strict = 1;
	lc.budget = SM_EVAL_BUDGET_ACCESS;
	int64_t elem = 0;
	for (int k = 0; k < p->nidx; k++) {
		int64_t s = 1;
		for (int j = k + 1; j < p->array->ndims; j++)
			s *= p->array->dims[j] > 0 ? p->array->dims[j] : 1;
		elem += sm_eval(p->idx[k], &lc) * s;
	}
	int64_t a = elem * (int64_t)p->array->elem_size;
	if (p->extra)
		a += sm_eval(p->extra, &lc);
	c->used_iter |= lc.used_iter; /* for the guard memo of bank.c */
	c->used_tid |= lc.used_tid;
	if (lc.err)
		return false;
	*array = p->array;
	*addr = a;
	return true;
}

static enum sm_op negated(enum sm_op op)
{
	switch (op) {
	case SM_OP_EQ: return SM_OP_NE;
	case SM_OP_NE: return SM_OP_EQ;
	case SM_OP_LT: return SM_OP_GE;
	case SM_OP_GE: return SM_OP_LT;
	case SM_OP_GT: return SM_OP_LE;
	case SM_OP_LE: return SM_OP_GT;
	SM_OP_CASES_ARITH: SM_OP_CASES_LOGIC: SM_OP_CASES_UNARY: SM_OP_CASES_NONE:
		break; /* not a comparison */
	}
	return op;
}

/* k op' v rewritten as v op k */
static enum sm_op swapped(enum sm_op op)
{
	switch (op) {
	case SM_OP_LT: return SM_OP_GT;
	case SM_OP_GT: return SM_OP_LT;
	case SM_OP_LE: return SM_OP_GE;
	case SM_OP_GE: return SM_OP_LE;
	case SM_OP_EQ: case SM_OP_NE:
	SM_OP_CASES_ARITH: SM_OP_CASES_LOGIC: SM_OP_CASES_UNARY: SM_OP_CASES_NONE:
		break;
	}
	return op;
}

static bool is_compare(enum sm_op op)
{
	return op == SM_OP_EQ || op == SM_OP_NE || op == SM_OP_LT || op == SM_OP_LE || op == SM_OP_GT ||
	       op == SM_OP_GE;
}

static void add(struct atoms *A, const struct sm_array *array, int64_t addr, enum sm_op op, int64_t k)
{
	if (A->n < SM_CORRELATE_ATOMS)
		A->a[A->n++] = (struct atom){ array, addr, op, k };
}

/* The atoms of "e is true" (want) or "e is false" (!want). */
static void collect(const struct sm_expr *e, bool want, struct sm_eval_ctx *c, struct atoms *A, int depth)
{
	if (!e || depth > SM_EVAL_MAX_DEPTH || A->n >= SM_CORRELATE_ATOMS)
		return;
	const struct sm_array *array;
	int64_t addr;
	if (e->kind == SM_E_UNARY && e->op == SM_OP_NOT) {
		collect(e->a, !want, c, A, depth + 1);
		return;
	}
	if (e->kind == SM_E_CAST && e->a && e->a->kind == SM_E_BINARY &&
	    (is_compare(e->a->op) || e->a->op == SM_OP_LAND || e->a->op == SM_OP_LOR)) {
		/* a truth value converted (to int, to bool): still 0 or 1 */
		collect(e->a, want, c, A, depth + 1);
		return;
	}
	if (e->kind != SM_E_BINARY) {
		/* a bare load: true means != 0 */
		if (load_elem(e, c, &array, &addr))
			add(A, array, addr, want ? SM_OP_NE : SM_OP_EQ, 0);
		return;
	}
	if ((e->op == SM_OP_LAND && want) || (e->op == SM_OP_LOR && !want)) {
		collect(e->a, want, c, A, depth + 1);
		collect(e->b, want, c, A, depth + 1);
		return;
	}
	if (!is_compare(e->op))
		return;
	const struct sm_expr *load = e->a, *other = e->b;
	enum sm_op op = e->op;
	if (!load_elem(load, c, &array, &addr)) {
		load = e->b;
		other = e->a;
		op = swapped(op);
		if (!load_elem(load, c, &array, &addr))
			return;
	}
	struct sm_eval_ctx lc = *c;
	lc.err = 0;
	lc.strict = 1;
	lc.budget = SM_EVAL_BUDGET_COND;
	int64_t k = sm_eval(other, &lc);
	c->used_iter |= lc.used_iter;
	c->used_tid |= lc.used_tid;
	if (lc.err)
		return;
	add(A, array, addr, want ? op : negated(op), k);
}

static bool holds(enum sm_op op, int64_t v, int64_t k)
{
	switch (op) {
	case SM_OP_EQ: return v == k;
	case SM_OP_NE: return v != k;
	case SM_OP_LT: return v < k;
	case SM_OP_LE: return v <= k;
	case SM_OP_GT: return v > k;
	case SM_OP_GE: return v >= k;
	SM_OP_CASES_ARITH: SM_OP_CASES_LOGIC: SM_OP_CASES_UNARY: SM_OP_CASES_NONE:
		break; /* atoms are comparisons only */
	}
	return false;
}

/* The values an atom other than != admits, as [lo, hi]. */
static void bounds(const struct atom *x, int64_t *lo, int64_t *hi)
{
	*lo = INT64_MIN;
	*hi = INT64_MAX;
	switch (x->op) {
	case SM_OP_EQ: *lo = *hi = x->k; break;
	case SM_OP_LT: *hi = x->k == INT64_MIN ? INT64_MIN : x->k - 1; if (x->k == INT64_MIN) *lo = 1; break;
	case SM_OP_LE: *hi = x->k; break;
	case SM_OP_GT: *lo = x->k == INT64_MAX ? INT64_MAX : x->k + 1; if (x->k == INT64_MAX) *hi = 0; break;
	case SM_OP_GE: *lo = x->k; break;
	case SM_OP_NE:
	SM_OP_CASES_ARITH: SM_OP_CASES_LOGIC: SM_OP_CASES_UNARY: SM_OP_CASES_NONE:
		break;
	}
}

/* Can one value satisfy both atoms? */
static bool compatible(const struct atom *x, const struct atom *y)
{
	if (x->op == SM_OP_NE && y->op == SM_OP_NE)
		return true;
	if (x->op == SM_OP_EQ)
		return holds(y->op, x->k, y->k);
	if (y->op == SM_OP_EQ)
		return holds(x->op, y->k, x->k);
	if (x->op == SM_OP_NE || y->op == SM_OP_NE)
		return true; /* an interval of two or more values, or empty alone */
	int64_t lx, hx, ly, hy;
	bounds(x, &lx, &hx);
	bounds(y, &ly, &hy);
	int64_t lo = lx > ly ? lx : ly, hi = hx < hy ? hx : hy;
	return lo <= hi;
}

bool sm_guard_impossible(const struct sm_guard *g, struct sm_eval_ctx *c)
{
	struct atoms A;
	A.n = 0;
	collect(g->cond, !g->negate, c, &A, 0);
	for (const struct sm_guard *o = g; o->joined && o->next; o = o->next)
		collect(o->next->cond, !o->next->negate, c, &A, 0);
	for (int i = 0; i < A.n; i++)
		for (int j = i + 1; j < A.n; j++)
			if (A.a[i].array == A.a[j].array && A.a[i].addr == A.a[j].addr && !compatible(&A.a[i], &A.a[j]))
				return true;
	return false;
}
