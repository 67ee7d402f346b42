/* guards.c - whether one thread runs an access, and where: the chain of
 * guards in force (with the memo that shares their values between the
 * accesses under one chain), the enclosing loops' conditions, and the
 * byte address the access touches (sm_access_addr). An undecidable guard
 * holds unless it tests one shared element against itself in ways no value
 * satisfies (correlate.c). Below: eval.c, correlate.c; above: bank.c (the
 * degrees), merge.c and the race search.
 */
#include "engine/analysis.h"
#include "engine/visit.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- guard values, shared between accesses ----
 * Accesses share the tails of their guard chains (each if pushes one
 * guard onto the chain in force), and a chain can be long: every
 * `if (...) goto` or early `return` guards the rest of its block, so the
 * n-th access of such a block sits under about n guards, and evaluating
 * each chain anew made a kernel's analysis cubic. The memo keeps, per
 * guard and thread, whether the chain from that guard on holds.
 *
 * What a guard's value depends on: a condition is evaluated strictly
 * (uniform unknowns are undecidable, whatever the seed), so its value is
 * a function of the thread (tid, ntid) and of the loop counters it reads.
 * An evaluation that read no loop counter (used_iter stays 0) holds at
 * every iteration and is kept; one that read one is not. One that read
 * no thread index or block extent either (used_tid) holds for every
 * thread and is kept once for all. Undecidable
 * (budget, depth) is kept too: the same nodes are visited each time. A
 * chain's value is kept when every guard it took is kept; a chain that
 * fails at a kept guard fails for every guard before it as well. */

struct gm_ent {
	const struct sm_guard *g;  /* NULL: empty slot */
	uint64_t key;              /* the thread and block shape, packed */
	int val;                   /* does the chain from g on hold */
};

struct sm_guard_memo {
	struct gm_ent *t;
	size_t cap, n;             /* slots (a power of two), used */
	const struct sm_guard **walk; /* the guards of one chain walk */
	unsigned char *walk_keep;     /* how far each one's value holds */
	size_t walk_cap;
};

struct sm_guard_memo *sm_guard_memo_new(void)
{
	return calloc(1, sizeof(struct sm_guard_memo));
}

void sm_guard_memo_free(struct sm_guard_memo *m)
{
	if (!m)
		return;
	free(m->t);
	free(m->walk);
	free(m->walk_keep);
	free(m);
}

/* The thread and block shape as one key: 10 bits per thread index (below
 * 1024), 11 per extent (up to 1024). false when they do not fit. */
static bool gm_key(const struct sm_eval_ctx *c, uint64_t *key)
{
	int64_t v[6] = { c->tid[0], c->tid[1], c->tid[2], c->ntid.x, c->ntid.y, c->ntid.z };
	uint64_t k = 0;
	for (int i = 0; i < 6; i++) {
		int bits = i < 3 ? 10 : 11;
		if (v[i] < 0 || v[i] >= ((int64_t)1 << bits))
			return false;
		k = (k << bits) | (uint64_t)v[i];
	}
	*key = k;
	return true;
}

/* splitmix64's finalizer: every bit of x moves every bit of the result.
 * (A key differs between threads in its high bits, where the thread index
 * is packed; a plain multiply left those out of the slot, and the threads
 * of one guard shared one probe chain as long as the block.) */
static uint64_t gm_mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xBF58476D1CE4E5B9ull;
	x ^= x >> 27;
	x *= 0x94D049BB133111EBull;
	return x ^ (x >> 31);
}

static size_t gm_slot(const struct sm_guard_memo *m, const struct sm_guard *g, uint64_t key)
{
	return (size_t)gm_mix(key ^ (uint64_t)(uintptr_t)g * 0x9E3779B97F4A7C15ull) & (m->cap - 1);
}

static int gm_get(const struct sm_guard_memo *m, const struct sm_guard *g, uint64_t key)
{
	if (!m->cap)
		return -1;
	for (size_t i = gm_slot(m, g, key);; i = (i + 1) & (m->cap - 1)) {
		const struct gm_ent *e = &m->t[i];
		if (!e->g)
			return -1;
		if (e->g == g && e->key == key)
			return e->val;
	}
}

static void gm_put(struct sm_guard_memo *m, const struct sm_guard *g, uint64_t key, int val)
{
	if ((m->n + 1) * 2 > m->cap) {
		/* grow (kept at most half full); past the cap, keep no more */
		size_t ncap = m->cap ? m->cap * 2 : 4096;
		if (ncap > SM_GUARD_MEMO_ENTRIES)
			return;
		struct gm_ent *nt = calloc(ncap, sizeof(*nt));
		if (!nt)
			return;
		struct gm_ent *old = m->t;
		size_t ocap = m->cap;
		m->t = nt;
		m->cap = ncap;
		for (size_t i = 0; i < ocap; i++)
			if (old[i].g) {
				size_t j = gm_slot(m, old[i].g, old[i].key);
				while (nt[j].g)
					j = (j + 1) & (ncap - 1);
				nt[j] = old[i];
			}
		free(old);
	}
	size_t i = gm_slot(m, g, key);
	while (m->t[i].g) {
		if (m->t[i].g == g && m->t[i].key == key)
			return;
		i = (i + 1) & (m->cap - 1);
	}
	m->t[i] = (struct gm_ent){ g, key, val };
	m->n++;
}

/* How far a value holds: KEEP_NONE at this iteration only (it read a loop
 * counter), KEEP_THREAD for this thread at every iteration, KEEP_ALL for
 * every thread (it read no thread index or block extent either). */
enum { KEEP_NONE, KEEP_THREAD, KEEP_ALL };
#define GM_ALL_THREADS UINT64_MAX /* the key of KEEP_ALL values (gm_key never makes it) */

/* One guard's own verdict: 0 when its condition decides against it, else
 * 1 (true, or undecidable: assumed to hold); *keep how far it holds. */
static int guard_one(const struct sm_guard *g, struct sm_eval_ctx *c, unsigned char *keep)
{
	c->err = 0;
	c->budget = SM_EVAL_BUDGET_COND;
	c->used_iter = 0;
	c->used_tid = 0;
	int64_t v = sm_eval(g->cond, c);
	int r;
	if (c->err) {
		/* undecidable as a whole: decided by its known conjuncts or
		 * disjuncts where they decide it, else assumed to hold, unless
		 * it tests one shared element against itself (correlate.c,
		 * which adds what it reads to used_iter and used_tid) */
		c->err = 0;
		c->budget = SM_EVAL_BUDGET_COND;
		int t = sm_eval_truth(g->cond, c);
		r = t >= 0 ? (t != 0) != g->negate : !sm_guard_impossible(g, c);
	} else {
		r = (v != 0) != g->negate;
	}
	*keep = c->used_iter ? KEEP_NONE : c->used_tid ? KEEP_THREAD : KEEP_ALL;
	return r;
}

/* A guard's own verdict when it holds for every thread, kept apart from
 * the chains' values (under GM_OWN_ALL): a chain is walked again where a
 * guard further out reads a loop counter, and the guards before it that
 * read none are then looked up, not evaluated again. */
#define GM_OWN_ALL (UINT64_MAX >> 1) /* gm_key never makes it (block extents of 2047) */

static int guard_own(struct sm_guard_memo *m, const struct sm_guard *g, struct sm_eval_ctx *c, unsigned char *keep)
{
	int v = gm_get(m, g, GM_OWN_ALL);
	if (v >= 0) {
		*keep = KEEP_ALL;
		return v;
	}
	v = guard_one(g, c, keep);
	if (*keep == KEEP_ALL)
		gm_put(m, g, GM_OWN_ALL, v);
	return v;
}

static int guards_memo(const struct sm_guard *g, struct sm_eval_ctx *c, uint64_t key)
{
	struct sm_guard_memo *m = c->gmemo;
	size_t n = 0;
	int val = 1;
	unsigned char tail = KEEP_ALL;  /* how far the value found holds */
	for (; g; g = g->next) {
		int hit = gm_get(m, g, GM_ALL_THREADS);
		if (hit >= 0) {
			val = hit;
			break;
		}
		hit = gm_get(m, g, key);
		if (hit >= 0) {
			val = hit;
			tail = KEEP_THREAD;
			break;
		}
		if (n == m->walk_cap) {
			size_t nc = m->walk_cap ? m->walk_cap * 2 : 64;
			const struct sm_guard **nw = realloc(m->walk, nc * sizeof(*nw));
			if (nw)
				m->walk = nw;
			unsigned char *nk = nw ? realloc(m->walk_keep, nc) : NULL;
			if (nk)
				m->walk_keep = nk;
			if (!nw || !nk) {
				/* no room to remember this walk: finish it unkept */
				unsigned char k;
				for (; g; g = g->next)
					if (!guard_one(g, c, &k))
						return 0;
				return 1;
			}
			m->walk_cap = nc;
		}
		unsigned char keep;
		int own = guard_own(m, g, c, &keep);
		m->walk[n] = g;
		m->walk_keep[n] = keep;
		n++;
		if (!own) {
			val = 0;
			tail = keep;
			break;
		}
	}
	/* the chain from walk[i] on: a failure holds as far as the guard that
	 * failed does, for every guard before it; a success as far as the
	 * least of its guards */
	for (size_t i = n; i-- > 0;) {
		if (val && m->walk_keep[i] < tail)
			tail = m->walk_keep[i];
		if (tail != KEEP_NONE)
			gm_put(m, m->walk[i], tail == KEEP_ALL ? GM_ALL_THREADS : key, val);
	}
	return val;
}

int sm_guards_hold(const struct sm_guard *g, struct sm_eval_ctx *c)
{
	uint64_t key;
	if (c->gmemo && g && gm_key(c, &key)) {
		c->strict = 1;
		int r = guards_memo(g, c, key);
		c->strict = 0;
		c->err = 0;
		return r;
	}
	c->strict = 1;
	for (; g; g = g->next) {
		unsigned char keep;
		if (!guard_one(g, c, &keep)) {
			c->strict = 0;
			c->err = 0;
			return 0;
		}
	}
	c->strict = 0;
	c->err = 0;
	return 1;
}

int sm_guards_hold_lanes(const struct sm_guard *g, struct sm_eval_ctx *c, bool *every_thread)
{
	int used = 0, r = 1;
	c->strict = 1;
	for (; g && r; g = g->next) {
		unsigned char keep;
		r = guard_one(g, c, &keep);
		used |= c->used_tid;
	}
	c->strict = 0;
	c->err = 0;
	c->used_tid = used;
	*every_thread = !used;
	return r;
}

int sm_guards_decided(const struct sm_guard *g, struct sm_eval_ctx *c)
{
	int r = 1;
	c->strict = 1;
	for (; g && r != 0; g = g->next) {
		c->err = 0;
		c->budget = SM_EVAL_BUDGET_COND;
		int t = sm_eval_truth(g->cond, c);
		if (t < 0)
			r = -1;
		else if ((t != 0) == g->negate)
			r = 0;
	}
	c->strict = 0;
	c->err = 0;
	return r;
}

static bool in_chain(const struct sm_guard *g, const struct sm_guard *chain)
{
	for (; chain; chain = chain->next)
		if (chain == g)
			return true;
	return false;
}

bool sm_guards_all_hold(const struct sm_guard *g, const struct sm_guard *stop, bool uniform_true, struct sm_eval_ctx *c)
{
	bool ok = true;
	c->strict = 1;
	for (; g && ok && !in_chain(g, stop); g = g->next) {
		c->err = 0;
		c->budget = SM_EVAL_BUDGET_COND;
		int t = sm_eval_truth(g->cond, c);
		ok = t < 0 ? uniform_true && !sm_expr_thread_dep(g->cond) : (t != 0) != g->negate;
	}
	c->strict = 0;
	c->err = 0;
	return ok;
}

bool sm_loops_run(const struct sm_loop *L, struct sm_eval_ctx *c)
{
	for (; L; L = L->parent) {
		int t = L->cond ? sm_loop_cond(L, c) : 1;
		if (t == 0 || (t < 0 && sm_expr_thread_dep(L->cond)))
			return false;
	}
	return true;
}

static int access_addr(const struct sm_raccess *ra, const int64_t *dims, struct sm_eval_ctx *c, int64_t *addr,
		       unsigned skip);

int sm_access_addr(const struct sm_raccess *ra, const int64_t *dims, struct sm_eval_ctx *c, int64_t *addr)
{
	return access_addr(ra, dims, c, addr, 0);
}

void sm_access_addr_threads(const struct sm_raccess *ra, const struct sm_eval_ctx *c, struct sm_dim3 block,
			    int nthreads, int64_t *addr, signed char *st)
{
	/* the loops whose condition is every thread's (bit d: depth d) */
	unsigned skip = 0;
	struct sm_eval_ctx c0 = *c;
	sm_thread_id(block, 0, c0.tid);
	for (const struct sm_loop *L = ra->loop; L; L = L->parent) {
		bool every = false;
		int r = sm_loop_cond_lanes(L, &c0, &every);
		if (!every || L->depth >= 32)
			continue;
		if (r == 0) {
			memset(st, 0, (size_t)nthreads); /* no thread runs it here */
			return;
		}
		skip |= 1u << L->depth;
	}
	for (int t = 0; t < nthreads; t++) {
		struct sm_eval_ctx lc = *c;
		sm_thread_id(block, t, lc.tid);
		st[t] = (signed char)access_addr(ra, NULL, &lc, &addr[t], skip);
	}
}

/* sm_access_addr, skipping the conditions of the loops whose depth is
 * set in skip (found true or undecidable in every thread) */
static int access_addr(const struct sm_raccess *ra, const int64_t *dims, struct sm_eval_ctx *c, int64_t *addr,
		       unsigned skip)
{
	if (!ra->ok || !ra->array)
		return -1;
	/* enclosing loops must run at the iterations in c->iter */
	for (const struct sm_loop *L = ra->loop; L; L = L->parent)
		if (!(L->depth < 32 && (skip >> L->depth) & 1) && sm_loop_cond(L, c) == 0)
			return 0;
	if (!sm_guards_hold(ra->guards, c))
		return 0;
	int64_t elem = 0;
	c->err = 0;
	c->budget = SM_EVAL_BUDGET_ACCESS;
	/* the guards hold here: a value merged under one of their
	 * conditions (int w = -1; if (g) w = 0; ... if (g) s[w]) is its
	 * arm's, also where g was undecidable and taken as true */
	const struct sm_guard *assume = c->assume;
	c->assume = ra->guards;
	for (int k = 0; k < ra->nidx; k++) {
		int64_t s = 1;
		for (int j = k + 1; j < ra->array->ndims; j++) {
			int64_t dj = dims ? dims[j] : ra->array->dims[j];
			s *= dj > 0 ? dj : 1;
		}
		elem += sm_eval(ra->idx[k], c) * s;
	}
	int64_t a = elem * (int64_t)ra->array->elem_size;
	if (ra->extra)
		a += sm_eval(ra->extra, c);
	c->assume = assume;
	if (c->err)
		return -1;
	*addr = a;
	return 1;
}

/* ---- uniform unknowns shared by a loop bound and an address ---- */

struct unknown_walk {
	const struct sm_launch_ctx *launch;
	uint64_t mask;
	unsigned nodes;
};

static enum sm_seen unknown_node(const struct sm_expr *e, void *arg)
{
	struct unknown_walk *u = arg;
	if (++u->nodes > SM_UNKNOWN_WALK_NODES) {
		u->mask = ~(uint64_t)0;
		return SM_SEEN_HIT;
	}
	uint64_t key = 0;
	switch (e->kind) {
	case SM_E_VAR:
		if (u->launch && e->var && e->var->kind == SM_V_PARAM && !e->var->is_pointer &&
		    e->var->id < u->launch->nargs && u->launch->args[e->var->id].known)
			return SM_SEEN_SKIP;
		key = e->var ? e->var->id + 3000u : 3000u;
		break;
	case SM_E_OPAQUE:
		if (e->thread_dep)
			return SM_SEEN_GO;
		key = e->id;
		break;
	case SM_E_BUILTIN:
		if (e->builtin != SM_B_CTAID && e->builtin != SM_B_NCTAID)
			return SM_SEEN_SKIP;
		key = (e->builtin == SM_B_CTAID ? 1000u : 2000u) + (unsigned)e->dim;
		break;
	case SM_E_CONST: case SM_E_UNARY: case SM_E_BINARY: case SM_E_COND: case SM_E_CAST:
	case SM_E_LOOPVAR: case SM_E_LOOPEXIT: case SM_E_ADDR: case SM_E_PREV:
		return SM_SEEN_GO;
	}
	u->mask |= (uint64_t)1 << (key % 64);
	return SM_SEEN_GO;
}

static uint64_t expr_unknowns(const struct sm_expr *e, const struct sm_launch_ctx *launch)
{
	struct unknown_walk u = { launch, 0, 0 };
	struct sm_expr_walk w = { unknown_node, &u, SM_WALK_ADDR_PLACE | SM_WALK_LOAD_PLACE | SM_WALK_IVS,
				  64, true };
	if (sm_expr_any(e, &w) && u.nodes <= SM_UNKNOWN_WALK_NODES)
		u.mask = ~(uint64_t)0; /* too deep to tell */
	return u.mask;
}

uint64_t sm_access_unknowns(const struct sm_raccess *ra, const struct sm_launch_ctx *launch)
{
	uint64_t m = expr_unknowns(ra->extra, launch);
	for (int k = 0; k < ra->nidx; k++)
		m |= expr_unknowns(ra->idx[k], launch);
	return m;
}

bool sm_access_loop_contradicts(const struct sm_raccess *ra, struct sm_eval_ctx *c, uint64_t mask)
{
	for (const struct sm_loop *L = ra->loop; L; L = L->parent) {
		if (!L->cond || !(expr_unknowns(L->cond, c->launch) & mask))
			continue;
		struct sm_eval_ctx lc = *c;
		lc.err = 0;
		lc.strict = 0;
		lc.budget = SM_EVAL_BUDGET_COND;
		int64_t v = sm_eval(L->cond, &lc);
		if (!lc.err && v == 0)
			return true;
	}
	return false;
}

/* ---- two threads in the opposite arms of one condition ----
 * or both under one `if (f(thread) == v)` with v alike for the two (a
 * parameter, a load at one address: `if (threadIdx.x == who)` after
 * `who = s_who`): f takes one value, which only one of them gives, so at
 * most one runs the access. f is evaluated strictly in each thread's
 * context; a value it cannot decide decides nothing. */

static bool tells_apart(const struct sm_expr *f, const struct sm_expr *v, const struct sm_eval_ctx *ca,
			const struct sm_eval_ctx *cb, struct sm_dim3 block, int la, int lb)
{
	if (!f || !v || !sm_expr_alike_for(v, block, la, lb))
		return false;
	struct sm_eval_ctx xa = *ca, xb = *cb;
	xa.err = xb.err = 0;
	xa.strict = xb.strict = 1;
	xa.budget = xb.budget = SM_EVAL_BUDGET_COND;
	xa.gmemo = xb.gmemo = NULL;
	sm_thread_id(block, la, xa.tid);
	sm_thread_id(block, lb, xb.tid);
	int64_t a = sm_eval(f, &xa), b = sm_eval(f, &xb);
	return !xa.err && !xb.err && a != b;
}

static bool one_equal(const struct sm_guard *g, const struct sm_eval_ctx *ca, const struct sm_eval_ctx *cb,
		      struct sm_dim3 block, int la, int lb)
{
	const struct sm_expr *e = g->cond;
	if (!e || e->kind != SM_E_BINARY || e->op != (g->negate ? SM_OP_NE : SM_OP_EQ))
		return false;
	return tells_apart(e->a, e->b, ca, cb, block, la, lb) || tells_apart(e->b, e->a, ca, cb, block, la, lb);
}

bool sm_arms_exclusive(const struct sm_raccess *ra, const struct sm_eval_ctx *ca, int la,
		       const struct sm_raccess *rb, const struct sm_eval_ctx *cb, int lb, struct sm_dim3 block)
{
	/* the loops around both: at one iteration in the two contexts, or
	 * the condition may be a different instance for each */
	for (const struct sm_loop *L = ra->loop; L; L = L->parent)
		for (const struct sm_loop *M = rb->loop; M; M = M->parent)
			if (L == M && L->depth < SM_MAX_LOOPS && ca->iter[L->depth] != cb->iter[L->depth])
				return false;
	int na = 0;
	for (const struct sm_guard *ga = ra->guards; ga && na < SM_ARMS_GUARD_WALK; ga = ga->next, na++) {
		int nb = 0;
		for (const struct sm_guard *gb = rb->guards; gb && nb < SM_ARMS_GUARD_WALK; gb = gb->next, nb++) {
			if ((gb == ga || (gb->cond == ga->cond && gb->negate == ga->negate)) &&
			    one_equal(ga, ca, cb, block, la, lb))
				return true;
			if (gb == ga)
				break; /* the shared tail: both sit under it alike */
			if (gb->cond != ga->cond || gb->negate == ga->negate)
				continue;
			/* one if, its two arms: when its condition is alike
			 * for the two threads (uniform.c), no instance of it
			 * sends one each way */
			if (sm_expr_alike_for(ga->cond, block, la, lb))
				return true;
		}
	}
	return false;
}
