/* resolve.c - symbolic execution of a kernel's statement tree.
 *
 * Walks the structured IR in program order with an environment mapping each
 * variable to a closed expression (no SM_E_VAR). Straight-line assignments
 * substitute; the two arms of an `if` merge into `cond ? a : b`; a variable
 * updated once per iteration by a loop-invariant step (i += blockDim.x,
 * s *= 2, d >>= 1) becomes an induction variable of its loop; anything
 * else modified in a loop becomes an opaque value. Early exits (`if (c)
 * return;`) guard the rest of their block with !c. Every access comes out
 * with its closed index trees, its guards and its loop nest. Constants
 * are folded where the evaluator's result is exactly the same ((c - 1) - 1
 * is c - 2, through the casts of an assignment at least as wide), so a
 * counter stepped thousands of times stays one node deep.
 */
#include "engine/analysis.h"
#include "engine/visit.h"

#include <limits.h>
#include <string.h>

struct rs {
	struct sm_arena *A;
	struct sm_kernel *K;
	struct sm_raccess *out;
	unsigned nout;
	unsigned opaque_id;
	int failed;
	struct sm_rstmt *st;     /* control statements and barriers, as walked */
	unsigned nst, capst;
	bool grid_known;         /* every launch of the file gives this grid */
	struct sm_dim3 grid;
};

/* sm_arena_alloc (zeroed) that marks the walk failed when memory runs
 * out; callers then give up on the node and return what they can. */
static void *rs_alloc(struct rs *R, size_t n)
{
	void *p = sm_arena_alloc(R->A, n);
	if (!p)
		R->failed = 1;
	return p;
}

static void record_stmt(struct rs *R, const struct sm_stmt *s, struct sm_expr *cond, const struct sm_loop *loop,
			const struct sm_guard *guards)
{
	if (R->nst == R->capst) {
		unsigned nc = R->capst ? 2 * R->capst : 32;
		struct sm_rstmt *n = rs_alloc(R, nc * sizeof(*n));
		if (!n)
			return;
		if (R->nst)
			memcpy(n, R->st, R->nst * sizeof(*n));
		R->st = n;
		R->capst = nc;
	}
	struct sm_rstmt *r = &R->st[R->nst++];
	r->stmt = s;
	r->cond = cond;
	r->loop = loop;
	r->guards = guards;
}

typedef struct sm_expr **env_t;

static env_t env_copy(struct rs *R, env_t e)
{
	env_t n = rs_alloc(R, (R->K->nvars + 1) * sizeof(*n));
	if (!n)
		return e;
	memcpy(n, e, R->K->nvars * sizeof(*n));
	return n;
}

static struct sm_expr *opaque(struct rs *R, const char *name, bool dep)
{
	struct sm_expr *e = rs_alloc(R, sizeof(*e));
	if (!e)
		return NULL;
	e->kind = SM_E_OPAQUE;
	e->name = name;
	e->thread_dep = dep;
	e->id = 100000 + ++R->opaque_id;
	return e;
}

static struct sm_expr *subst(struct rs *R, struct sm_expr *e, env_t env, int depth);
static struct sm_expr *mk_const(struct rs *R, int64_t v);

/* Parameter v as the symbolic value it holds on entry (what subst leaves
 * a parameter's VAR as): a uniform unknown. */
static struct sm_expr *param_ref(struct rs *R, struct sm_var *v)
{
	struct sm_expr *e = rs_alloc(R, sizeof(*e));
	if (!e)
		return NULL;
	e->kind = SM_E_VAR;
	e->var = v;
	e->name = v->name;
	e->is_ptr = v->is_pointer && v->points_shared;
	return e;
}

/* A width of a node's wrap (eval.c): 0 means none, as 64 does. */
static unsigned wrap_bits(const struct sm_expr *e)
{
	return e->bits == 0 || e->bits > 64 ? 64 : e->bits;
}

static int64_t wrap_to(uint64_t v, unsigned bits, bool is_unsigned)
{
	if (bits >= 64)
		return (int64_t)v;
	uint64_t m = (1ull << bits) - 1, u = v & m;
	if (!is_unsigned && (u & (1ull << (bits - 1))))
		return (int64_t)(u | ~m);
	return (int64_t)u;
}

/* x + k (SUB: x - k) with k a constant: k as an addend, else false. */
static bool const_addend(const struct sm_expr *e, uint64_t *k)
{
	if (!e || e->kind != SM_E_BINARY || (e->op != SM_OP_ADD && e->op != SM_OP_SUB) || e->is_ptr || !e->a ||
	    !e->b || e->b->kind != SM_E_CONST)
		return false;
	*k = e->op == SM_OP_ADD ? (uint64_t)e->b->ival : 0 - (uint64_t)e->b->ival;
	return true;
}

/* A cast of a constant is the constant wrapped; a cast of a cast at
 * least as wide is the outer cast alone (either way what the evaluator
 * computes). Returns n or its folded form. */
static struct sm_expr *fold_cast(struct rs *R, struct sm_expr *n)
{
	if (n->kind != SM_E_CAST || !n->a || n->is_ptr)
		return n;
	if (n->a->kind == SM_E_CONST) {
		struct sm_expr *c = mk_const(R, wrap_to((uint64_t)n->a->ival, wrap_bits(n), n->is_unsigned));
		return c ? c : n;
	}
	if (n->a->kind == SM_E_CAST && n->a->a && !n->a->is_ptr && wrap_bits(n->a) >= wrap_bits(n)) {
		struct sm_expr *f = rs_alloc(R, sizeof(*f));
		if (!f)
			return n;
		*f = *n;
		f->a = n->a->a;
		return f;
	}
	return n;
}

/* Fold the constants of a freshly built n = (x +- k1) +- k2 into
 * x +- (k1 +- k2), and c1 +- c2 into one constant, where that is exactly
 * what the evaluator computes: addition and subtraction wrap modulo 2^64
 * and the node then wraps to its own width, so an inner node at least as
 * wide as n may be dropped (reducing modulo 2^j, j >= k, keeps the value
 * modulo 2^k). A decrement chain (`if (--c > 0) goto L;` repeated, or a
 * counter stepped by a constant in straight-line code) then stays one
 * node deep instead of growing by one per step. Pointers are left alone.
 * Returns n or its folded form. */
static struct sm_expr *fold_addsub(struct rs *R, struct sm_expr *n)
{
	uint64_t k2, k1;
	if (!const_addend(n, &k2))
		return n;
	/* through the casts of an assignment (c = c - 1 stores
	 * (int)(c - 1)): each as wide as n at least */
	const struct sm_expr *a = n->a;
	while (a->kind == SM_E_CAST && a->a && !a->is_ptr && wrap_bits(a) >= wrap_bits(n))
		a = a->a;
	if (a->kind == SM_E_CONST) {
		struct sm_expr *c = mk_const(R, wrap_to((uint64_t)a->ival + k2, wrap_bits(n), n->is_unsigned));
		return c ? c : n;
	}
	if (!const_addend(a, &k1) || wrap_bits(a) < wrap_bits(n))
		return n;
	struct sm_expr *f = rs_alloc(R, sizeof(*f));
	struct sm_expr *kc = mk_const(R, 0);
	if (!f || !kc)
		return n;
	uint64_t k = k1 + k2;
	*f = *n;
	f->a = a->a;
	f->b = kc;
	/* x - 2 rather than x + (-2) */
	f->op = (int64_t)k < 0 && k != (uint64_t)1 << 63 ? SM_OP_SUB : SM_OP_ADD;
	kc->ival = f->op == SM_OP_SUB ? (int64_t)(0 - k) : (int64_t)k;
	return f;
}

static struct sm_access *subst_place(struct rs *R, const struct sm_access *p, env_t env, int depth)
{
	struct sm_access *n = rs_alloc(R, sizeof(*n));
	if (!n)
		return NULL;
	*n = *p;
	for (int i = 0; i < p->nidx; i++)
		n->idx[i] = subst(R, p->idx[i], env, depth + 1);
	n->extra = p->extra ? subst(R, p->extra, env, depth + 1) : NULL;
	n->base = p->base ? subst(R, p->base, env, depth + 1) : NULL;
	return n;
}

/* Replace variables by their values. Shares unchanged subtrees. */
static struct sm_expr *subst(struct rs *R, struct sm_expr *e, env_t env, int depth)
{
	if (!e)
		return NULL;
	if (depth > SM_RESOLVE_MAX_DEPTH)
		return opaque(R, "deeply nested expression", true);
	switch (e->kind) {
	case SM_E_OPAQUE:
		if (e->place && e->thread_dep) {
			/* a shared load (front end: place = the access): its
			 * value is uniform when every thread reads one address */
			struct sm_access *p = subst_place(R, e->place, env, depth);
			bool dep = !p;
			for (int i = 0; p && i < p->nidx; i++)
				dep = dep || sm_expr_thread_dep(p->idx[i]);
			dep = dep || (p && (sm_expr_thread_dep(p->extra) || sm_expr_thread_dep(p->base)));
			if (!dep) {
				/* the place stays: o[k] in a loop is alike in
				 * every thread, not in every iteration */
				struct sm_expr *n = opaque(R, e->name, false);
				if (n) /* a collective of one value: an unknown alike everywhere */
					n->place = sm_expr_is_collective(e) ? NULL : p;
				return n ? n : e;
			}
			/* per thread: keep the resolved place, which tells two
			 * loads of one element apart from loads of two
			 * (correlate.c) */
			struct sm_expr *n = p ? rs_alloc(R, sizeof(*n)) : NULL;
			if (n) {
				*n = *e;
				n->place = p;
				return n;
			}
		}
		return e;
	case SM_E_BUILTIN:
		if (e->builtin == SM_B_NCTAID && R->grid_known) {
			struct sm_expr *n = mk_const(R, e->dim == 0 ? R->grid.x : e->dim == 1 ? R->grid.y : R->grid.z);
			return n ? n : e;
		}
		return e;
	case SM_E_CONST:
	case SM_E_LOOPVAR:
	case SM_E_LOOPEXIT:
	case SM_E_PREV:
		return e;
	case SM_E_VAR: {
		struct sm_expr *v = e->var && e->var->id < R->K->nvars ? env[e->var->id] : NULL;
		if (v)
			return v;
		if (e->var && e->var->kind == SM_V_PARAM)
			return e; /* parameters stay symbolic: uniform unknowns */
		return opaque(R, e->var ? e->var->name : "variable", true);
	}
	case SM_E_ADDR: {
		struct sm_expr *n = rs_alloc(R, sizeof(*n));
		if (!n)
			return e;
		*n = *e;
		n->place = subst_place(R, e->place, env, depth);
		return n;
	}
	case SM_E_UNARY:
	case SM_E_BINARY:
	case SM_E_COND:
	case SM_E_CAST: {
		struct sm_expr *a = subst(R, e->a, env, depth + 1);
		struct sm_expr *b = subst(R, e->b, env, depth + 1);
		struct sm_expr *c = subst(R, e->c, env, depth + 1);
		if (a == e->a && b == e->b && c == e->c)
			return e;
		struct sm_expr *n = rs_alloc(R, sizeof(*n));
		if (!n)
			return e;
		*n = *e;
		n->a = a;
		n->b = b;
		n->c = c;
		return n->kind == SM_E_CAST ? fold_cast(R, n) : fold_addsub(R, n);
	}
	}
	return e;
}

static struct sm_expr *mk_bin(struct rs *R, enum sm_op op, struct sm_expr *a, struct sm_expr *b)
{
	struct sm_expr *n = rs_alloc(R, sizeof(*n));
	if (!n)
		return a;
	n->kind = SM_E_BINARY;
	n->op = op;
	n->a = a;
	n->b = b;
	n->bits = 64;
	n->is_ptr = a && a->is_ptr;
	return n;
}

static struct sm_expr *mk_const(struct rs *R, int64_t v)
{
	struct sm_expr *n = rs_alloc(R, sizeof(*n));
	if (!n)
		return NULL;
	n->kind = SM_E_CONST;
	n->ival = v;
	return n;
}

/* ---- pointer places ---- */

static struct sm_expr *mk_cond(struct rs *R, struct sm_expr *c, struct sm_expr *a, struct sm_expr *b)
{
	struct sm_expr *n = rs_alloc(R, sizeof(*n));
	if (!n)
		return a;
	n->kind = SM_E_COND;
	n->a = c;
	n->b = a;
	n->c = b;
	return n;
}

struct place {
	struct sm_array *array;
	int nidx;
	struct sm_expr *idx[SM_MAX_DIMS];
	struct sm_expr *extra;
};

static int place_of(struct rs *R, struct sm_expr *e, struct place *p, int depth)
{
	if (!e || depth > SM_RESOLVE_PLACE_DEPTH)
		return 0;
	if (e->kind == SM_E_ADDR && e->place) {
		const struct sm_access *pl = e->place;
		if (pl->array) {
			p->array = pl->array;
			p->nidx = pl->nidx;
			for (int i = 0; i < pl->nidx; i++)
				p->idx[i] = pl->idx[i];
			p->extra = pl->extra;
			return 1;
		}
		if (pl->base && place_of(R, pl->base, p, depth + 1)) {
			struct sm_expr *off = pl->nidx ? mk_bin(R, SM_OP_MUL, pl->idx[0], mk_const(R, pl->base_elem_size ? pl->base_elem_size : 1)) : NULL;
			if (off)
				p->extra = p->extra ? mk_bin(R, SM_OP_ADD, p->extra, off) : off;
			if (pl->extra)
				p->extra = p->extra ? mk_bin(R, SM_OP_ADD, p->extra, pl->extra) : pl->extra;
			return 1;
		}
		return 0;
	}
	if (e->kind == SM_E_COND && e->a) {
		/* c ? A + i : A + j (a carve of one array, double buffers):
		 * the place of either arm, its indexes merged under c; two
		 * arrays are no one place */
		struct place x, y;
		memset(&x, 0, sizeof(x));
		memset(&y, 0, sizeof(y));
		if (!place_of(R, e->b, &x, depth + 1) || !place_of(R, e->c, &y, depth + 1) || x.array != y.array ||
		    x.nidx != y.nidx)
			return 0;
		p->array = x.array;
		p->nidx = x.nidx;
		for (int i = 0; i < x.nidx; i++)
			p->idx[i] = x.idx[i] == y.idx[i] ? x.idx[i] : mk_cond(R, e->a, x.idx[i], y.idx[i]);
		if (x.extra || y.extra)
			p->extra = x.extra == y.extra ? x.extra
						       : mk_cond(R, e->a, x.extra ? x.extra : mk_const(R, 0),
								 y.extra ? y.extra : mk_const(R, 0));
		return 1;
	}
	if (e->kind == SM_E_BINARY && e->is_ptr && (e->op == SM_OP_ADD || e->op == SM_OP_SUB)) {
		if (!place_of(R, e->a, p, depth + 1))
			return 0;
		struct sm_expr *off = e->b;
		if (e->op == SM_OP_SUB) {
			struct sm_expr *neg = sm_arena_alloc(R->A, sizeof(*neg));
			if (!neg)
				return 0;
			neg->kind = SM_E_UNARY;
			neg->op = SM_OP_NEG;
			neg->a = off;
			neg->bits = 64;
			off = neg;
		}
		p->extra = p->extra ? mk_bin(R, SM_OP_ADD, p->extra, off) : off;
		return 1;
	}
	return 0;
}

/* ---- statement walk ---- */

struct walk {
	const struct sm_guard *guards;
	const struct sm_loop *loop;
	int loop_depth;
	bool fresh; /* this thread wrote nothing since the innermost guard's condition */
};

static void walk(struct rs *R, struct sm_stmt *s, env_t env, struct walk w);

static const struct sm_guard *push_guard(struct rs *R, const struct sm_guard *g, struct sm_expr *cond,
					 bool negate, struct sm_range range, bool joined)
{
	if (!cond)
		return g;
	struct sm_guard *n = rs_alloc(R, sizeof(*n));
	if (!n)
		return g;
	n->cond = cond;
	n->negate = negate;
	n->range = range;
	n->next = g;
	n->joined = joined && g;
	return n;
}

static void record_access(struct rs *R, struct sm_access *a, env_t env, struct walk w)
{
	if (a->index >= R->K->naccesses)
		return;
	struct sm_raccess *ra = &R->out[a->index];
	ra->src = a;
	ra->kernel = R->K;
	ra->width = a->width;
	ra->loop = w.loop;
	ra->guards = w.guards;
	if (a->in_flight && a->in_flight->index < R->K->naccesses) {
		/* a copy still in flight after a barrier is in flight for the
		 * threads that issued it: the guards, when the barrier
		 * is in the same loops and under (some of) the same guards */
		const struct sm_raccess *o = &R->out[a->in_flight->index];
		/* in flight on some paths only: the if the front end put it
		 * under stays its innermost guard, over the issue's */
		const struct sm_guard *flight = a->flight_if ? w.guards : NULL, *at = flight ? flight->next : w.guards;
		bool outer = !at;
		for (const struct sm_guard *g = o->guards; g && !outer; g = g->next)
			outer = g->next == at;
		if (o->src == a->in_flight && o->loop == w.loop && outer)
			ra->guards = flight ? push_guard(R, o->guards, flight->cond, flight->negate, flight->range, false)
					    : o->guards;
	}
	ra->value = a->value ? subst(R, (struct sm_expr *)a->value, env, 0) : NULL;
	ra->gsrc = a->gsrc ? subst(R, (struct sm_expr *)a->gsrc, env, 0) : NULL;
	ra->ok = true;
	ra->name = a->array ? a->array->name
		 : a->op ? NULL /* an instruction's address operand: named by its array */
		 : (a->base && a->base->kind == SM_E_VAR && a->base->var && !a->base->var->is_ref &&
		    !strchr(a->base->var->name, '(') && strcmp(a->base->var->name, "this")) ? a->base->var->name
		 : NULL; /* through a reference or a helper's result: named by its array */
	if (a->array) {
		ra->array = a->array;
		ra->nidx = a->nidx;
		for (int i = 0; i < a->nidx; i++)
			ra->idx[i] = subst(R, a->idx[i], env, 0);
		ra->extra = a->extra ? subst(R, a->extra, env, 0) : NULL;
	} else {
		struct place p;
		memset(&p, 0, sizeof(p));
		struct sm_expr *base = subst(R, a->base, env, 0);
		if (!place_of(R, base, &p, 0)) {
			ra->ok = false;
			ra->why = "the pointer's target in shared memory is not known";
			ra->array = NULL;
			return;
		}
		ra->array = p.array;
		if (!ra->name)
			ra->name = p.array->name;
		ra->nidx = p.nidx;
		for (int i = 0; i < p.nidx; i++)
			ra->idx[i] = p.idx[i];
		struct sm_expr *x = p.extra;
		if (a->nidx >= 1) {
			struct sm_expr *i0 = subst(R, a->idx[0], env, 0);
			struct sm_expr *off = mk_bin(R, SM_OP_MUL, i0, mk_const(R, a->base_elem_size ? a->base_elem_size : a->width));
			x = x ? mk_bin(R, SM_OP_ADD, x, off) : off;
		}
		if (a->extra) {
			struct sm_expr *m = subst(R, a->extra, env, 0);
			x = x ? mk_bin(R, SM_OP_ADD, x, m) : m;
		}
		ra->extra = x;
	}
	R->nout = R->nout > a->index + 1 ? R->nout : a->index + 1;
}

/* Variables assigned anywhere inside s (including nested statements):
 * set[id] has bit 1 for an assignment and bit 2 for a declaration. */
static void assigned_vars(const struct sm_stmt *s, unsigned char *set, unsigned nvars, int depth)
{
	if (!s || depth > SM_RESOLVE_STMT_DEPTH)
		return;
	if ((s->kind == SM_S_ASSIGN || s->kind == SM_S_DECL) && s->var && s->var->id < nvars)
		set[s->var->id] |= s->kind == SM_S_DECL ? 2 : 1;
	for (int i = 0; i < s->nkids; i++)
		assigned_vars(s->kids[i], set, nvars, depth + 1);
}

/* The statements at the top level of *s: its kids when it is a block,
 * else itself (*list then points at s). Returns how many. */
static int top_level(const struct sm_stmt *const *s, const struct sm_stmt *const **list)
{
	if ((*s)->kind == SM_S_BLOCK) {
		*list = (const struct sm_stmt *const *)(*s)->kids;
		return (*s)->nkids;
	}
	*list = s;
	return 1;
}

/* The single top-level update of var v in a loop body/step: returns the
 * statement if v is assigned exactly once, unconditionally. */
static const struct sm_stmt *single_update(const struct sm_stmt *body, const struct sm_stmt *step,
					   const struct sm_var *v, int *count)
{
	const struct sm_stmt *found = NULL;
	const struct sm_stmt *roots[2] = { body, step };
	for (int r = 0; r < 2; r++) {
		if (!roots[r])
			continue;
		const struct sm_stmt *const *list;
		int n = top_level(&roots[r], &list);
		for (int i = 0; i < n; i++) {
			const struct sm_stmt *x = list[i];
			if (x && x->kind == SM_S_ASSIGN && x->var == v) {
				found = x;
				(*count)++;
			}
		}
	}
	return found;
}

/* The variables of a set (ids below n marked in v). */
struct var_set {
	const unsigned char *v;
	unsigned n;
};

static enum sm_seen is_var_in(const struct sm_expr *e, void *arg)
{
	const struct var_set *set = arg;
	if (e->kind == SM_E_VAR)
		return e->var && e->var->id < set->n && set->v[e->var->id] ? SM_SEEN_HIT : SM_SEEN_SKIP;
	return e->kind == SM_E_ADDR ? SM_SEEN_HIT : SM_SEEN_GO;
}

/* Does e refer to a variable of set, also in the index of a load it
 * reads (or to a pointer, which may)? Past the depth cap it is taken to. */
static bool refs_any(const struct sm_expr *e, const unsigned char *set, unsigned nvars)
{
	struct var_set vs = { set, nvars };
	struct sm_expr_walk w = { is_var_in, &vs, SM_WALK_LOAD_PLACE, SM_RESOLVE_REFS_DEPTH, true };
	return sm_expr_any(e, &w);
}

/* Mark in dep[] the variables that an assignment inside s makes thread
 * dependent: a thread-dependent value, or an assignment under a
 * thread-dependent condition. */
static void mark_dep(struct rs *R, const struct sm_stmt *s, env_t lenv, unsigned char *dep, bool under, int depth)
{
	if (!s || depth > SM_RESOLVE_DEP_DEPTH)
		return;
	/* a declaration without a value (int x; a call's result before its
	 * return) assigns nothing: reading it before an assignment is
	 * undefined, and the walk takes such a read as per thread */
	if ((s->kind == SM_S_ASSIGN || (s->kind == SM_S_DECL && s->value)) && s->var && s->var->id < R->K->nvars) {
		struct sm_expr *v = s->value ? subst(R, s->value, lenv, 0) : NULL;
		if (under || !v || sm_expr_thread_dep(v))
			dep[s->var->id] = 1;
	}
	bool u = under;
	if ((s->kind == SM_S_IF || s->kind == SM_S_LOOP || s->kind == SM_S_SWITCH) && s->cond)
		u = u || sm_expr_thread_dep(subst(R, s->cond, lenv, 0));
	for (int i = 0; i < s->nkids; i++)
		mark_dep(R, s->kids[i], lenv, dep, u, depth + 1);
}

static int count_assigns(const struct sm_stmt *s, const struct sm_var *v, int depth)
{
	if (!s || depth > SM_RESOLVE_STMT_DEPTH)
		return 0;
	int n = (s->kind == SM_S_ASSIGN || s->kind == SM_S_DECL) && s->var == v;
	for (int i = 0; i < s->nkids; i++)
		n += count_assigns(s->kids[i], v, depth + 1);
	return n;
}

/* The one update of v at the top level of body or step, or in the
 * then-branch (alone or at its top level) of a top-level `if` without an
 * else; *guard is that if. */
static const struct sm_stmt *guarded_update(const struct sm_stmt *body, const struct sm_stmt *step,
					    const struct sm_var *v, const struct sm_stmt **guard)
{
	const struct sm_stmt *roots[2] = { body, step };
	*guard = NULL;
	for (int r = 0; r < 2; r++) {
		if (!roots[r])
			continue;
		const struct sm_stmt *const *list;
		int n = top_level(&roots[r], &list);
		for (int i = 0; i < n; i++) {
			const struct sm_stmt *x = list[i];
			if (!x)
				continue;
			if (x->kind == SM_S_ASSIGN && x->var == v)
				return x;
			if (x->kind == SM_S_IF && x->cond && x->nkids >= 1 && (x->nkids < 2 || !x->kids[1]) && x->kids[0]) {
				const struct sm_stmt *const *tl;
				int tn = top_level((const struct sm_stmt *const *)&x->kids[0], &tl);
				for (int j = 0; j < tn; j++)
					if (tl[j] && tl[j]->kind == SM_S_ASSIGN && tl[j]->var == v) {
						*guard = x;
						return tl[j];
					}
			}
		}
	}
	return NULL;
}

/* Where v is assigned in a loop: the index of the first top-level
 * statement of body, then step, that assigns it (INT_MAX: none). */
static int update_at(const struct sm_stmt *body, const struct sm_stmt *step, const struct sm_var *v)
{
	const struct sm_stmt *roots[2] = { body, step };
	int at = 0;
	for (int r = 0; r < 2; r++) {
		if (!roots[r])
			continue;
		const struct sm_stmt *const *list;
		int n = top_level(&roots[r], &list);
		for (int i = 0; i < n; i++, at++)
			if (count_assigns(list[i], v, 0))
				return at;
	}
	return INT_MAX;
}

/* In renv, for the update u of v: each variable of L that u reads and
 * that an earlier statement of the iteration updates holds its value
 * after that update (loff = l * 256 after l = (l + 1) % 2 reads l's next
 * value, not the one the iteration began with). false when such an
 * update is not one unconditional assignment reading only its own
 * variable and what the loop keeps (the recurrence is not followed). */
static bool updated_before(struct rs *R, const struct sm_loop *L, const struct sm_stmt *body,
			   const struct sm_stmt *step, const struct sm_stmt *u, const struct sm_var *v,
			   const unsigned char *mod, env_t lenv, env_t renv)
{
	unsigned nv = R->K->nvars;
	int at = update_at(body, step, v);
	unsigned char *one = rs_alloc(R, nv + 1);
	if (!one)
		return false;
	for (int q = 0; q < L->niv; q++) {
		const struct sm_var *j = L->ivs[q].var;
		if (!j || j == v || j->id >= nv)
			continue;
		memset(one, 0, nv + 1);
		one[j->id] = 1;
		if (!refs_any(u->value, one, nv) || update_at(body, step, j) > at)
			continue; /* not read, or updated after: this iteration's value */
		int count = 0;
		const struct sm_stmt *uj = single_update(body, step, j, &count);
		if (!uj || count != 1 || !uj->value)
			return false;
		for (unsigned i = 0; i < nv; i++)
			one[i] = mod[i] && i != j->id;
		if (refs_any(uj->value, one, nv))
			return false;
		struct sm_expr *jv = subst(R, uj->value, lenv, 0);
		struct sm_expr *after = uj->op == SM_OP_ASSIGN ? jv : mk_bin(R, uj->op, lenv[j->id], jv);
		if (!after)
			return false;
		renv[j->id] = after;
	}
	return true;
}

static void add_recurrence(struct rs *R, struct sm_loop *L, const struct sm_stmt *body, const struct sm_stmt *step,
			   struct sm_var *v, const unsigned char *mod, env_t lenv, struct sm_expr *init)
{
	unsigned nv = R->K->nvars;
	if (count_assigns(body, v, 0) + count_assigns(step, v, 0) != 1)
		return;
	const struct sm_stmt *guard = NULL;
	const struct sm_stmt *u = guarded_update(body, step, v, &guard);
	if (!u || !u->value)
		return;
	/* the update may read v, this loop's counters and what the loop
	 * does not change; nothing else the loop modifies */
	unsigned char *other = rs_alloc(R, nv + 1);
	if (!other)
		return;
	for (unsigned i = 0; i < nv; i++)
		other[i] = mod[i] && i != v->id && !(lenv[i] && lenv[i]->kind == SM_E_LOOPVAR && lenv[i]->loop == L);
	if (refs_any(u->value, other, nv) || (guard && refs_any(guard->cond, other, nv)))
		return;
	struct sm_expr *prev = rs_alloc(R, sizeof(*prev));
	if (!prev)
		return;
	prev->kind = SM_E_PREV;
	prev->loop = L;
	prev->ival = L->niv;
	prev->name = v->name;
	env_t renv = env_copy(R, lenv);
	renv[v->id] = prev;
	if (!updated_before(R, L, body, step, u, v, mod, lenv, renv))
		return;
	struct sm_expr *val = subst(R, u->value, renv, 0);
	struct sm_expr *next = u->op == SM_OP_ASSIGN ? val : mk_bin(R, u->op, prev, val);
	if (!next)
		return;
	next->is_ptr = false;
	if (guard) {
		struct sm_expr *c = rs_alloc(R, sizeof(*c));
		if (!c)
			return;
		c->kind = SM_E_COND;
		c->a = subst(R, guard->cond, renv, 0);
		c->b = next;
		c->c = prev;
		next = c;
	}
	struct sm_iv *iv = &L->ivs[L->niv];
	iv->var = v;
	iv->init = init;
	iv->op = SM_OP_ASSIGN;
	iv->step = next;
	struct sm_expr *lv = rs_alloc(R, sizeof(*lv));
	if (!lv)
		return;
	lv->kind = SM_E_LOOPVAR;
	lv->loop = L;
	lv->ival = L->niv;
	lv->name = v->name;
	lenv[v->id] = lv;
	L->niv++;
}

static void walk_loop(struct rs *R, struct sm_stmt *s, env_t env, struct walk w)
{
	struct sm_stmt *init = s->nkids > 0 ? s->kids[0] : NULL;
	struct sm_stmt *body = s->nkids > 1 ? s->kids[1] : NULL;
	struct sm_stmt *step = s->nkids > 2 ? s->kids[2] : NULL;
	if (init)
		walk(R, init, env, w);
	unsigned nv = R->K->nvars;
	unsigned char *mod = rs_alloc(R, nv + 1);
	if (!mod)
		return;
	assigned_vars(body, mod, nv, 0);
	assigned_vars(step, mod, nv, 0);
	struct sm_loop *L = rs_alloc(R, sizeof(*L));
	struct sm_iv *ivs = rs_alloc(R, (nv + 1) * sizeof(*ivs));
	if (!L || !ivs)
		return;
	L->parent = w.loop;
	L->depth = w.loop_depth;
	L->range = s->range;
	L->ivs = ivs;
	env_t lenv = env_copy(R, env);
	for (unsigned i = 0; i < nv; i++) {
		if (!mod[i])
			continue;
		struct sm_var *v = R->K->vars[i];
		int count = 0;
		const struct sm_stmt *u = single_update(body, step, v, &count);
		bool is_iv = false;
		if (u && count == 1 && env[i] && w.loop_depth < SM_MAX_LOOPS && u->value &&
		    !refs_any(u->value, mod, nv)) {
			switch (u->op) {
			case SM_OP_ADD: case SM_OP_SUB: case SM_OP_MUL:
			case SM_OP_DIV: case SM_OP_SHL: case SM_OP_SHR:
				is_iv = true;
				break;
			case SM_OP_REM: case SM_OP_AND: case SM_OP_OR: case SM_OP_XOR: case SM_OP_MIN: case SM_OP_MAX:
			SM_OP_CASES_COMPARE: SM_OP_CASES_LOGIC: SM_OP_CASES_UNARY: SM_OP_CASES_NONE:
				break;
			}
		}
		if (is_iv) {
			struct sm_iv *iv = &ivs[L->niv];
			iv->var = v;
			iv->init = env[i];
			iv->op = u->op;
			iv->step = subst(R, u->value, env, 0);
			struct sm_expr *lv = rs_alloc(R, sizeof(*lv));
			if (!lv)
				return;
			lv->kind = SM_E_LOOPVAR;
			lv->loop = L;
			lv->ival = L->niv;
			lv->name = v->name;
			lenv[i] = lv;
			L->niv++;
		} else {
			lenv[i] = NULL; /* decided below */
		}
	}
	/* variables carried from one iteration to the next by one update
	 * that is not a plain induction: pos = (pos + 4) & 63, or an update
	 * under a guard (if (tid < n) v <<= 1) */
	for (unsigned i = 0; i < nv && w.loop_depth < SM_MAX_LOOPS; i++) {
		if (!mod[i] || lenv[i] || !env[i])
			continue;
		add_recurrence(R, L, body, step, R->K->vars[i], mod, lenv, env[i]);
	}
	/* the other modified variables: uniform or per thread? iterate to a
	 * fixed point, starting from their values before the loop */
	unsigned char *dep = rs_alloc(R, nv + 1);
	unsigned char *isiv = rs_alloc(R, nv + 1);
	if (!dep || !isiv)
		return;
	for (unsigned i = 0; i < nv; i++) {
		isiv[i] = mod[i] && lenv[i] && lenv[i]->kind == SM_E_LOOPVAR && lenv[i]->loop == L;
		/* a variable declared in the loop gets its value there
		 * in every iteration: what it held before does not count
		 * (const int q = kbc / m; ... KV[q] is uniform) */
		if (mod[i] && !isiv[i])
			dep[i] = (mod[i] & 2) ? 0 : !env[i] || sm_expr_thread_dep(env[i]);
	}
	for (int round = 0; round < 4; round++) {
		env_t tenv = env_copy(R, lenv);
		for (unsigned i = 0; i < nv; i++)
			if (mod[i] && !isiv[i])
				tenv[i] = opaque(R, R->K->vars[i]->name, dep[i]);
		unsigned char before[1];
		unsigned changed = 0;
		(void)before;
		unsigned char *nd = rs_alloc(R, nv + 1);
		if (!nd)
			return;
		memcpy(nd, dep, nv);
		bool loop_dep = s->cond && sm_expr_thread_dep(subst(R, s->cond, tenv, 0));
		mark_dep(R, body, tenv, nd, loop_dep, 0);
		mark_dep(R, step, tenv, nd, loop_dep, 0);
		for (unsigned i = 0; i < nv; i++)
			if (mod[i] && !isiv[i] && nd[i] != dep[i]) {
				dep[i] = nd[i];
				changed++;
			}
		if (!changed)
			break;
	}
	for (unsigned i = 0; i < nv; i++)
		if (mod[i] && !isiv[i])
			lenv[i] = opaque(R, R->K->vars[i]->name, dep[i]);
	L->cond = s->cond ? subst(R, s->cond, lenv, 0) : NULL;
	record_stmt(R, s, L->cond, L, w.guards);
	struct walk inner = w;
	inner.fresh = false; /* a later iteration runs after the body's writes */
	inner.loop = L;
	inner.loop_depth = w.loop_depth + 1;
	if (w.loop_depth >= SM_MAX_LOOPS) {
		/* too deep to enumerate: the loop's values are unknown */
		inner.loop = w.loop;
		inner.loop_depth = w.loop_depth;
	}
	/* The body sees induction variables through lenv; statements that
	 * update them are skipped (their effect is the induction itself). */
	env_t benv = env_copy(R, lenv);
	if (body)
		walk(R, body, benv, inner);
	if (step)
		walk(R, step, env_copy(R, lenv), inner);
	/* after the loop: an induction variable holds its exit value, the
	 * others an unknown (uniform or not, as decided above) */
	for (unsigned i = 0; i < nv; i++) {
		if (!mod[i])
			continue;
		if (isiv[i] && L->cond) {
			struct sm_expr *x = rs_alloc(R, sizeof(*x));
			if (!x)
				return;
			*x = *lenv[i];
			x->kind = SM_E_LOOPEXIT;
			env[i] = x;
		} else {
			env[i] = opaque(R, R->K->vars[i]->name, isiv[i] ? true : dep[i]);
		}
	}
}

static void walk(struct rs *R, struct sm_stmt *s, env_t env, struct walk w)
{
	if (!s || R->failed)
		return;
	switch (s->kind) {
	case SM_S_BLOCK: {
		struct walk cur = w;
		for (int i = 0; i < s->nkids; i++) {
			struct sm_stmt *k = s->kids[i];
			walk(R, k, env, cur);
			cur.fresh = cur.fresh && sm_stmt_writes_nothing(k);
			if (k && k->kind == SM_S_IF && k->cond) {
				bool then_exits = k->nkids > 0 && sm_stmt_exits(k->kids[0]);
				bool else_exits = k->nkids > 1 && sm_stmt_exits(k->kids[1]);
				if (then_exits && !else_exits)
					cur.guards = push_guard(R, cur.guards, subst(R, k->cond, env, 0), true, k->cond->range, false);
				else if (else_exits && !then_exits)
					cur.guards = push_guard(R, cur.guards, subst(R, k->cond, env, 0), false, k->cond->range, false);
			}
		}
		break;
	}
	case SM_S_DECL:
		if (s->var && s->var->id < R->K->nvars)
			env[s->var->id] = s->value ? subst(R, s->value, env, 0) : opaque(R, s->var->name, true);
		break;
	case SM_S_ASSIGN: {
		if (!s->var || s->var->id >= R->K->nvars)
			break;
		struct sm_expr *v = subst(R, s->value, env, 0);
		unsigned id = s->var->id;
		if (s->op == SM_OP_ASSIGN) {
			env[id] = v;
		} else {
			/* a parameter not yet assigned is its own symbolic value
			 * (`n /= 4` on a parameter: alike in every thread, as
			 * `n = n / 4` is) */
			struct sm_expr *old = env[id] ? env[id] : s->var->kind == SM_V_PARAM ? param_ref(R, s->var)
										 : opaque(R, s->var->name, true);
			if (s->var->is_pointer && old && old->is_ptr) {
				struct sm_expr *n = mk_bin(R, s->op, old, v);
				n->is_ptr = true;
				env[id] = n;
			} else {
				env[id] = fold_addsub(R, mk_bin(R, s->op, old, v));
			}
		}
		break;
	}
	case SM_S_IF: {
		struct sm_expr *c = subst(R, s->cond, env, 0);
		record_stmt(R, s, c, w.loop, w.guards);
		env_t e1 = env_copy(R, env), e2 = env_copy(R, env);
		struct walk w1 = w, w2 = w;
		struct sm_range cr = s->cond ? s->cond->range : s->range;
		w1.guards = push_guard(R, w.guards, c, false, cr, w.fresh);
		w2.guards = push_guard(R, w.guards, c, true, cr, w.fresh);
		w1.fresh = w2.fresh = true;
		struct sm_stmt *th = s->nkids > 0 ? s->kids[0] : NULL;
		struct sm_stmt *el = s->nkids > 1 ? s->kids[1] : NULL;
		walk(R, th, e1, w1);
		walk(R, el, e2, w2);
		bool x1 = sm_stmt_exits(th), x2 = sm_stmt_exits(el);
		unsigned char *decl = NULL; /* variables declared in a branch, when asked */
		for (unsigned i = 0; i < R->K->nvars; i++) {
			if (x1 && !x2)
				env[i] = e2[i];
			else if (x2 && !x1)
				env[i] = e1[i];
			else if (e1[i] != e2[i]) {
				if (!env[i] && (!e1[i] || !e2[i]) && !decl && (decl = rs_alloc(R, R->K->nvars + 1))) {
					assigned_vars(th, decl, R->K->nvars, 0);
					assigned_vars(el, decl, R->K->nvars, 0);
				}
				if (!env[i] && (!e1[i] || !e2[i]) && decl && (decl[i] & 2)) {
					/* declared in the branch that gives it a value (the
					 * result of a call in `a && f(x)`): on the other
					 * path it does not exist, so it has that value */
					env[i] = e1[i] ? e1[i] : e2[i];
				} else if (!c) {
					env[i] = opaque(R, R->K->vars[i]->name, true);
				} else {
					/* a branch that gave it no value: unknown per thread there */
					struct sm_expr *m = rs_alloc(R, sizeof(*m)), *a1 = e1[i], *a2 = e2[i];
					a1 = a1 ? a1 : opaque(R, R->K->vars[i]->name, true);
					a2 = a2 ? a2 : opaque(R, R->K->vars[i]->name, true);
					if (!m || !a1 || !a2)
						return;
					*m = (struct sm_expr){ .kind = SM_E_COND, .a = c, .b = a1, .c = a2 };
					m->is_ptr = a1->is_ptr && a2->is_ptr;
					env[i] = m;
				}
			}
		}
		break;
	}
	case SM_S_LOOP:
		walk_loop(R, s, env, w);
		break;
	case SM_S_SWITCH: {
		record_stmt(R, s, subst(R, s->cond, env, 0), w.loop, w.guards);
		env_t e1 = env_copy(R, env);
		w.fresh = false;
		if (s->nkids > 0)
			walk(R, s->kids[0], e1, w);
		for (unsigned i = 0; i < R->K->nvars; i++)
			if (e1[i] != env[i])
				env[i] = opaque(R, R->K->vars[i]->name, true);
		break;
	}
	case SM_S_CALL:
		/* an inlined callee: its body in the caller's environment; a
		 * return inside guards the rest of the callee's block only */
		if (s->nkids > 0)
			walk(R, s->kids[0], env, w);
		break;
	case SM_S_ACCESS:
		if (s->access)
			record_access(R, s->access, env, w);
		break;
	case SM_S_BARRIER:
	case SM_S_RETURN:
	case SM_S_BREAK:
	case SM_S_CONTINUE:
	case SM_S_GOTO:
		record_stmt(R, s, NULL, w.loop, w.guards);
		break;
	case SM_S_OPAQUE_CALL:
		break;
	}
}

/* Values the launch context c fixes (engine/launch.h): a parameter it
 * knows holds its value on entry; gridDim likewise. NULL: none. */
static void bind_launch_values(struct rs *R, env_t env, const struct sm_launch_ctx *c)
{
	const struct sm_kernel *k = R->K;
	if (!c)
		return;
	for (unsigned i = 0; i < k->nparams && i < k->nvars && i < c->nargs; i++)
		if (c->args[i].known && !k->vars[i]->is_pointer)
			env[i] = mk_const(R, c->args[i].value);
	R->grid_known = c->grid_known;
	R->grid = c->grid;
}

int sm_resolve_kernel(struct sm_kernel *k, struct sm_arena *A, struct sm_kernel_model *out)
{
	struct sm_launch_ctx common;
	if (sm_kernel_launch_common(k, A, &common) != 0) {
		memset(out, 0, sizeof(*out));
		out->kernel = k;
		return -1;
	}
	return sm_resolve_kernel_at(k, &common, A, out);
}

int sm_resolve_kernel_at(struct sm_kernel *k, const struct sm_launch_ctx *launch, struct sm_arena *A,
			 struct sm_kernel_model *out)
{
	struct rs R;
	memset(&R, 0, sizeof(R));
	R.A = A;
	R.K = k;
	memset(out, 0, sizeof(*out));
	out->kernel = k;
	R.out = sm_arena_alloc(A, (k->naccesses + 1) * sizeof(struct sm_raccess));
	env_t env = sm_arena_alloc(A, (k->nvars + 1) * sizeof(*env));
	if (!R.out || !env)
		return -1;
	bind_launch_values(&R, env, launch);
	struct walk w = { NULL, NULL, 0, false };
	walk(&R, k->body, env, w);
	/* accesses never reached by the walk (dead code) stay !ok */
	for (unsigned i = 0; i < k->naccesses; i++)
		if (!R.out[i].src) {
			R.out[i].ok = false;
			R.out[i].why = "unreachable";
		}
	out->acc = R.out;
	out->nacc = k->naccesses;
	out->stmts = R.st;
	out->nstmts = R.nst;
	return R.failed ? -1 : 0;
}
