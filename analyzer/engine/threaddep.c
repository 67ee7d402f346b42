/* threaddep.c - thread dependence, barrier divergence and races (see
 * threaddep.h). */
#include "engine/threaddep.h"
#include "base/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- threads of a block ---- */

/* The thread id of linear thread lin in a block of shape b. */
static void lin_tid(struct sm_dim3 b, int64_t lin, int64_t tid[3])
{
	int64_t x = b.x > 0 ? b.x : 1, y = b.y > 0 ? b.y : 1;
	tid[0] = lin % x;
	tid[1] = (lin / x) % y;
	tid[2] = lin / (x * y);
}

/* A fresh evaluation context for linear thread lin of a block of shape b. */
static void thread_ctx(struct sm_eval_ctx *c, struct sm_dim3 b, int64_t lin)
{
	memset(c, 0, sizeof(*c));
	c->ntid = b;
	lin_tid(b, lin, c->tid);
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

/* ---- divergence ---- */

struct dcause {
	enum sm_div_kind kind;
	const struct sm_stmt *cond;
	const struct sm_stmt *jump;
	const struct sm_launch_ctx *launch; /* where the launches show it diverging */
	const struct dcause *outer; /* the cause in force around cond, or NULL */
};

struct dexits {
	const struct dcause *ret;   /* return or goto: to the end of the kernel */
	const struct dcause *brk;
	const struct dcause *cont;
};

struct dw {
	const struct sm_kernel_model *m;
	const struct sm_kernel_launches *K; /* its launch contexts */
	struct sm_arena *A;
	struct sm_divergence *bars;
	const struct dcause **cause;
	unsigned n, cap;
	int failed;
};

static const struct dcause *mkcause(struct dw *W, enum sm_div_kind kind, const struct sm_stmt *cond,
				    const struct sm_stmt *jump, const struct dcause *outer, const struct sm_launch_ctx *launch)
{
	struct dcause *c = sm_arena_alloc(W->A, sizeof(*c));
	if (!c) {
		W->failed = 1;
		return NULL;
	}
	c->kind = kind;
	c->cond = cond;
	c->jump = jump;
	c->launch = launch;
	c->outer = outer;
	return c;
}

/* ---- what the launches say about a condition ----
 * A condition is divergent when threads of one block disagree on it. With
 * a launch that fixes the block shape (and the grid, when the condition
 * reads blockIdx or gridDim) and the kernel arguments the condition reads,
 * every thread of every block is evaluated: `if (tid < 4)` under
 * <<<1, 4>>> and `if (id > len) return;` under <<<255, 256>>> with
 * len = 65536 are agreed on by every block's threads. For a loop, the
 * threads must agree on its trip count. Blocks may differ from each other
 * (blockIdx.x == 0 is uniform within a block). */
enum verdict { V_UNKNOWN, V_AGREE, V_DIVERGE };

struct vjob {
	const struct sm_launch_ctx *L;  /* one launch site's context */
	const struct sm_expr *cond;
	const struct sm_loop *loop;  /* a loop statement: compare trip counts */
	unsigned long evals;
};

/* Does e read blockIdx or gridDim (through a load's address too)? */
static bool reads_grid(const struct sm_expr *e, int depth)
{
	if (!e || depth > SM_SCAN_EXPR_DEPTH)
		return e != NULL;
	if (e->kind == SM_E_BUILTIN && (e->builtin == SM_B_CTAID || e->builtin == SM_B_NCTAID))
		return true;
	if ((e->kind == SM_E_LOOPVAR || e->kind == SM_E_LOOPEXIT) && e->loop && e->ival < e->loop->niv) {
		const struct sm_iv *iv = &e->loop->ivs[e->ival];
		if (reads_grid(iv->init, depth + 1) || reads_grid(iv->step, depth + 1))
			return true;
	}
	if (e->place) {
		for (int i = 0; i < e->place->nidx; i++)
			if (reads_grid(e->place->idx[i], depth + 1))
				return true;
		if (reads_grid(e->place->extra, depth + 1) || reads_grid(e->place->base, depth + 1))
			return true;
	}
	return reads_grid(e->a, depth + 1) || reads_grid(e->b, depth + 1) || reads_grid(e->c, depth + 1);
}

/* Does e read a loop counter other than own's (whose iteration the
 * verdict cannot pick)? */
static bool reads_other_loop(const struct sm_expr *e, const struct sm_loop *own, int depth)
{
	if (!e || depth > SM_SCAN_EXPR_DEPTH)
		return e != NULL;
	if (e->kind == SM_E_LOOPVAR || e->kind == SM_E_PREV)
		return e->loop != own;
	if (e->kind == SM_E_LOOPEXIT)
		return true;
	return reads_other_loop(e->a, own, depth + 1) || reads_other_loop(e->b, own, depth + 1) ||
	       reads_other_loop(e->c, own, depth + 1);
}

/* One thread's value: the condition, or the loop's trip count; false when
 * unknown. */
static bool thread_value(struct vjob *V, struct sm_eval_ctx *c, int64_t *out)
{
	if (!V->loop) {
		c->err = 0;
		c->strict = 1;
		c->budget = SM_EVAL_BUDGET_COND;
		int64_t v = sm_eval(V->cond, c);
		V->evals++;
		*out = v != 0;
		return !c->err;
	}
	for (int64_t k = 0; k <= SM_MAX_ITER; k++) {
		c->iter[V->loop->depth] = k;
		int r = sm_loop_cond(V->loop, c);
		V->evals++;
		if (r < 0)
			return false;
		if (r == 0) {
			*out = k;
			return true;
		}
	}
	return false;
}

static enum verdict launch_verdict_one(struct vjob *V)
{
	const struct sm_launch_ctx *L = V->L;
	if (!L->block_known || L->block.x < 1 || L->block.y < 1 || L->block.z < 1)
		return V_UNKNOWN;
	int64_t nt = L->block.x * L->block.y * L->block.z;
	if (nt > SM_MAX_BLOCK_THREADS)
		return V_UNKNOWN;
	int64_t nb = 1;
	if (reads_grid(V->cond, 0)) {
		if (!L->grid_known || L->grid.x < 1 || L->grid.y < 1 || L->grid.z < 1)
			return V_UNKNOWN;
		nb = L->grid.x * L->grid.y * L->grid.z;
	}
	if (nb > (int64_t)(SM_LAUNCH_VERDICT_EVALS / (unsigned long)nt))
		return V_UNKNOWN;
	for (int64_t blk = 0; blk < nb; blk++) {
		int64_t first = 0;
		for (int64_t t = 0; t < nt; t++) {
			if (V->evals >= SM_LAUNCH_VERDICT_EVALS)
				return V_UNKNOWN;
			struct sm_eval_ctx c;
			thread_ctx(&c, L->block, t);
			c.launch = L;
			if (L->grid_known)
				lin_tid(L->grid, blk, c.ctaid);
			int64_t v;
			if (!thread_value(V, &c, &v))
				return V_UNKNOWN;
			if (t == 0)
				first = v;
			else if (v != first)
				return V_DIVERGE;
		}
	}
	return V_AGREE;
}

/* Every launch site of the kernel (K->site) agrees (V_AGREE), one makes
 * threads of a block disagree (V_DIVERGE, *which), or some cannot be
 * evaluated. */
static enum verdict launch_verdict(const struct sm_kernel_launches *K, const struct sm_rstmt *r, bool loop,
				   const struct sm_launch_ctx **which)
{
	*which = NULL;
	if (!K || !r || K->nsites == 0)
		return V_UNKNOWN;
	struct vjob V = { NULL, r->cond, NULL, 0 };
	if (loop) {
		const struct sm_loop *L = r->loop;
		if (!L || !L->cond || L->depth >= SM_MAX_LOOPS || reads_other_loop(L->cond, L, 0))
			return V_UNKNOWN;
		for (int i = 0; i < L->niv; i++)
			if (reads_other_loop(L->ivs[i].init, L, 0) || reads_other_loop(L->ivs[i].step, L, 0))
				return V_UNKNOWN;
		V.cond = L->cond;
		V.loop = L;
	}
	if (!V.cond)
		return V_UNKNOWN;
	enum verdict all = V_AGREE;
	for (unsigned l = 0; l < K->nsites; l++) {
		V.L = &K->site[l];
		enum verdict v = launch_verdict_one(&V);
		if (v == V_DIVERGE) {
			*which = V.L;
			return V_DIVERGE;
		}
		if (v == V_UNKNOWN)
			all = V_UNKNOWN;
	}
	return all;
}

/* The cause a statement's own condition adds to in: none when the
 * condition is uniform, or when every thread of every launch agrees on
 * it. */
/* Can what s controls make a barrier divergent: a barrier, or a jump that
 * skips later ones, somewhere inside? (Deep trees: assumed so.) */
static bool holds_barrier_or_jump(const struct sm_stmt *s, int depth)
{
	if (!s)
		return false;
	if (depth > SM_CFG_MAX_DEPTH)
		return true;
	switch (s->kind) {
	case SM_S_BARRIER:
	case SM_S_RETURN:
	case SM_S_GOTO:
	case SM_S_BREAK:
	case SM_S_CONTINUE:
		return true;
	default:
		for (int i = 0; i < s->nkids; i++)
			if (holds_barrier_or_jump(s->kids[i], depth + 1))
				return true;
		return false;
	}
}

static const struct dcause *cond_cause(struct dw *W, const struct sm_stmt *s, enum sm_div_kind kind,
				       const struct dcause *in)
{
	if (!sm_stmt_cond_thread_dep(W->m, s))
		return in;
	/* the launches' verdict costs up to SM_LAUNCH_VERDICT_EVALS thread
	 * evaluations: only where the cause can reach a barrier */
	if (!holds_barrier_or_jump(s, 0))
		return mkcause(W, kind, s, NULL, in, NULL);
	const struct sm_rstmt *r = sm_rstmt_find(W->m, s);
	const struct sm_launch_ctx *which = NULL;
	enum verdict v = launch_verdict(W->K, r, kind == SM_DIV_LOOP, &which);
	if (v == V_AGREE)
		return in;
	return mkcause(W, kind, s, NULL, in, which);
}

static void add_barrier(struct dw *W, const struct sm_stmt *s, const struct dcause *c)
{
	if (W->n == W->cap) {
		unsigned nc = W->cap ? 2 * W->cap : 16;
		struct sm_divergence *nb = sm_arena_alloc(W->A, nc * sizeof(*nb));
		const struct dcause **ncs = sm_arena_alloc(W->A, nc * sizeof(*ncs));
		if (!nb || !ncs) {
			W->failed = 1;
			return;
		}
		if (W->n) {
			memcpy(nb, W->bars, W->n * sizeof(*nb));
			memcpy(ncs, W->cause, W->n * sizeof(*ncs));
		}
		W->bars = nb;
		W->cause = ncs;
		W->cap = nc;
	}
	memset(&W->bars[W->n], 0, sizeof(W->bars[0]));
	W->bars[W->n].barrier = s;
	W->cause[W->n] = c;
	W->n++;
}

static void merge_exits(struct dexits *into, const struct dexits *x)
{
	if (!into->ret)
		into->ret = x->ret;
	if (!into->brk)
		into->brk = x->brk;
	if (!into->cont)
		into->cont = x->cont;
}

/* Walk s reached under cause `in` (NULL: all threads); collect divergent
 * jumps in ex. Returns the cause in force after s. */
static const struct dcause *dwalk(struct dw *W, const struct sm_stmt *s, const struct dcause *in, struct dexits *ex,
				  int depth)
{
	if (!s || W->failed || depth > SM_CFG_MAX_DEPTH)
		return in;
	switch (s->kind) {
	case SM_S_BLOCK: {
		const struct dcause *cur = in;
		for (int i = 0; i < s->nkids; i++) {
			struct dexits kx = { 0 };
			cur = dwalk(W, s->kids[i], cur, &kx, depth + 1);
			merge_exits(ex, &kx);
			if (!cur)
				cur = kx.ret ? kx.ret : kx.brk ? kx.brk : kx.cont;
		}
		return cur;
	}
	case SM_S_IF: {
		const struct dcause *inner = cond_cause(W, s, SM_DIV_IF, in);
		for (int i = 0; i < s->nkids && i < 2; i++) {
			struct dexits kx = { 0 };
			dwalk(W, s->kids[i], inner, &kx, depth + 1);
			merge_exits(ex, &kx);
		}
		return in;
	}
	case SM_S_SWITCH: {
		const struct dcause *inner = cond_cause(W, s, SM_DIV_SWITCH, in);
		struct dexits kx = { 0 };
		if (s->nkids > 0)
			dwalk(W, s->kids[0], inner, &kx, depth + 1);
		kx.brk = NULL; /* a break leaves the switch only */
		merge_exits(ex, &kx);
		return in;
	}
	case SM_S_LOOP: {
		const struct dcause *inner = cond_cause(W, s, SM_DIV_LOOP, in);
		struct dexits kx = { 0 };
		if (s->nkids > 0)
			dwalk(W, s->kids[0], in, &kx, depth + 1);
		unsigned start = W->n;
		struct dexits bx = { 0 };
		if (s->nkids > 1)
			dwalk(W, s->kids[1], inner, &bx, depth + 1);
		if (s->nkids > 2)
			dwalk(W, s->kids[2], inner, &bx, depth + 1);
		/* a thread-dependent break or return makes the trip count
		 * thread dependent: every barrier of the loop diverges */
		const struct dcause *leave = bx.brk ? bx.brk : bx.ret;
		if (leave)
			for (unsigned i = start; i < W->n; i++)
				if (!W->cause[i]) {
					W->cause[i] = leave;
					W->bars[i].in_loop = true;
				}
		bx.brk = bx.cont = NULL;
		merge_exits(ex, &kx);
		merge_exits(ex, &bx);
		return in;
	}
	case SM_S_CALL: {
		/* threads that return early from an inlined callee wait at
		 * its end: a return diverges only inside the call */
		struct dexits kx = { 0 };
		if (s->nkids > 0)
			dwalk(W, s->kids[0], in, &kx, depth + 1);
		kx.ret = NULL;
		merge_exits(ex, &kx);
		return in;
	}
	case SM_S_RETURN:
	case SM_S_GOTO:
	case SM_S_BREAK:
	case SM_S_CONTINUE: {
		if (!in)
			return in;
		const struct dcause *c = mkcause(W, SM_DIV_EXIT, in->cond, s, in->outer, in->launch);
		if (s->kind == SM_S_BREAK) {
			if (!ex->brk)
				ex->brk = c;
		} else if (s->kind == SM_S_CONTINUE) {
			if (!ex->cont)
				ex->cont = c;
		} else if (!ex->ret) {
			ex->ret = c;
		}
		return in;
	}
	case SM_S_BARRIER:
		add_barrier(W, s, in);
		return in;
	default:
		for (int i = 0; i < s->nkids; i++)
			in = dwalk(W, s->kids[i], in, ex, depth + 1);
		return in;
	}
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
	default:
		return 0;
	}
}

/* The group of barrier s's scope that linear thread t belongs to, -1 when
 * t takes no part in it (a lane outside the mask, a thread past the
 * count). Threads of one group wait for each other at s. */
static int64_t scope_group(const struct sm_stmt *s, int64_t t)
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
	default:
		return 0;
	}
}

/* Does s order threads a and b (linear ids) with each other? */
static bool scope_orders(const struct sm_stmt *s, int64_t a, int64_t b)
{
	int64_t ga = scope_group(s, a);
	return ga >= 0 && ga == scope_group(s, b);
}

/* Does barrier s, reached only by the threads for which e holds, split a
 * group of its scope (some threads of one group reach it, others not) in
 * a block of one of the given shapes? True when e cannot be evaluated for
 * every thread, or no shape is known. */
static bool splits_scope(const struct sm_stmt *s, const struct sm_expr *e, const struct sm_kernel_launches *K)
{
	if (!e || !K || K->nshapes <= 0)
		return true;
	for (int bi = 0; bi < K->nshapes; bi++) {
		struct sm_dim3 B = K->shape[bi].block;
		if (B.x < 1 || B.y < 1 || B.z < 1)
			return true;
		int64_t nt = B.x * B.y * B.z;
		if (nt > SM_MAX_BLOCK_THREADS)
			return true;
		int64_t cur = -1, val = 0;
		for (int64_t t = 0; t < nt; t++) {
			int64_t g = scope_group(s, t);
			if (g < 0)
				continue;
			struct sm_eval_ctx c;
			thread_ctx(&c, B, t);
			c.strict = 1;
			c.budget = SM_EVAL_BUDGET_COND;
			int64_t v = sm_eval(e, &c) != 0;
			if (c.err)
				return true;
			if (g != cur) {
				cur = g;
				val = v;
			} else if (v != val) {
				return true;
			}
		}
	}
	return false;
}

/* Is s judged per group of its scope rather than for the whole block? */
static bool scoped(const struct sm_stmt *s)
{
	return sm_scope_threads(s) > 0 || (s->scope == SM_SCOPE_LANES && !s->scope_arg);
}

/* The cause, of c and the causes around it, that splits a group of
 * barrier s's scope, or NULL. A coalesced group, and a __syncwarp whose
 * mask is not known (the active lanes, as a rule), are never split. */
static const struct dcause *scope_cause(const struct sm_kernel_model *m, const struct sm_stmt *s,
					const struct dcause *c, const struct sm_kernel_launches *K)
{
	if (!scoped(s))
		return c;
	if (s->scope == SM_SCOPE_ACTIVE || (s->scope == SM_SCOPE_LANES && !s->scope_arg))
		return NULL;
	for (; c; c = c->outer) {
		const struct sm_rstmt *r = sm_rstmt_find(m, c->cond);
		if (!r || splits_scope(s, r->cond, K))
			return c;
	}
	return NULL;
}

int sm_divergent_barriers(const struct sm_kernel_model *m, const struct sm_kernel_launches *K, struct sm_arena *A,
			  struct sm_divergence **out)
{
	struct dw W;
	memset(&W, 0, sizeof(W));
	W.m = m;
	W.K = K;
	W.A = A;
	*out = NULL;
	struct dexits ex = { 0 };
	dwalk(&W, m->kernel ? m->kernel->body : NULL, NULL, &ex, 0);
	if (W.failed)
		return -1;
	unsigned k = 0;
	for (unsigned i = 0; i < W.n; i++) {
		const struct dcause *c = scope_cause(m, W.bars[i].barrier, W.cause[i], K);
		if (!c)
			continue;
		struct sm_divergence d = W.bars[i];
		d.kind = c->kind;
		d.cond = c->cond;
		d.jump = c->jump;
		d.launch = c->launch;
		W.bars[k++] = d;
	}
	*out = W.bars;
	return (int)k;
}

/* ---- the control-flow graph ---- */

/* CN_BARRIER orders every thread of the block; CN_SCOPED only the
 * threads of one group of its scope (a tile, a warp's mask lanes, bar.sync's
 * count): the graph's scope `sc`, one bit of a pair's ordering. */
enum { CN_PLAIN, CN_ACCESS, CN_BARRIER, CN_SCOPED, CN_LATCH };

struct cnode {
	int succ[2];
	int nsucc;
	int kind;
	int loop;     /* CN_LATCH: loop index */
	int sc;       /* CN_SCOPED: index in cfg.scopes */
	const struct sm_stmt *st; /* CN_SCOPED: the barrier */
};

/* One loop of the graph. */
struct cloop {
	int head;     /* the node its iterations start at */
	int latch;    /* its CN_LATCH node */
	int parent;   /* the enclosing loop, or -1 */
};

struct cfg {
	struct cnode *n;
	int nn;                                          /* nodes in n */
	unsigned cap;                                    /* n's capacity */
	int exit;
	int ret;                                         /* where a return goes: the end of the
	                                                  * inlined call it is in, or -1 (exit) */
	int failed;
	unsigned nacc;
	int *acc_node_of;                                /* per access */
	int *acc_nloops;
	int (*acc_loops)[SM_MAX_LOOPS + 1];           /* loop indexes, outer first */
	int stack[SM_MAX_LOOPS + 1];
	int depth;
	int nloops;                                      /* loops in loops */
	unsigned caploops;                               /* loops' capacity */
	struct cloop *loops;                             /* per loop */
	const struct sm_kernel_model *m;
	struct sm_dim3 block;
	int64_t nthreads;
	/* the distinct scopes smaller than the block, each a barrier that
	 * has it */
	const struct sm_stmt *scopes[SM_MAX_BARRIER_SCOPES];
	int nscopes;
	/* per scope: for bar.sync with a count whose guards select exactly
	 * that many threads in whole warps, which threads (1 a member); NULL:
	 * the scope's own groups (scope_group) */
	unsigned char *members[SM_MAX_BARRIER_SCOPES];
};

static bool refs_loops(const struct sm_expr *e, int depth)
{
	if (!e || depth > SM_SCAN_EXPR_DEPTH)
		return e != NULL;
	if (e->kind == SM_E_LOOPVAR || e->kind == SM_E_LOOPEXIT || e->kind == SM_E_ADDR)
		return true;
	if (e->kind == SM_E_OPAQUE && e->place) {
		/* a load: its value varies where its address does */
		const struct sm_access *p = e->place;
		for (int i = 0; i < p->nidx; i++)
			if (refs_loops(p->idx[i], depth + 1))
				return true;
		if (refs_loops(p->extra, depth + 1) || refs_loops(p->base, depth + 1))
			return true;
	}
	return refs_loops(e->a, depth + 1) || refs_loops(e->b, depth + 1) || refs_loops(e->c, depth + 1);
}

/* Does loop s surely run its first iteration in every thread? (Its
 * condition at iteration 0 is decidable and true for the whole block, and
 * depends on no other loop's counter.) */
static bool runs_once(const struct cfg *G, const struct sm_stmt *s)
{
	if (s->is_do_while || !s->cond)
		return true;
	const struct sm_rstmt *r = sm_rstmt_find(G->m, s);
	if (!r || !r->loop || !r->loop->cond || r->loop->depth >= SM_MAX_LOOPS)
		return false;
	const struct sm_loop *L = r->loop;
	for (int i = 0; i < L->niv; i++)
		if (refs_loops(L->ivs[i].init, 0) || refs_loops(L->ivs[i].step, 0))
			return false;
	int64_t nt = G->block.x * G->block.y * G->block.z;
	for (int64_t t = 0; t < nt; t++) {
		struct sm_eval_ctx c;
		thread_ctx(&c, G->block, t);
		c.strict = 1;
		c.budget = SM_EVAL_BUDGET_COND;
		int64_t v = sm_eval(L->cond, &c);
		if (c.err || !v)
			return false;
	}
	return true;
}

/* bar.sync id, count reached by the threads its guards select: when, for
 * this block, they are exactly `count` threads in whole warps, the
 * barrier orders them (`if (t >= 64) bar.sync 1, 64;` orders threads
 * 64..127). Returns a per-thread membership (malloc'd), or NULL when a
 * guard cannot be evaluated for some thread or the threads reaching it
 * are not such a set: the barrier is then taken as the first `count`
 * threads (scope_group), as the hardware would if no other warps
 * arrive first. */
static unsigned char *count_members(const struct cfg *G, const struct sm_stmt *s)
{
	const struct sm_rstmt *r = sm_rstmt_find(G->m, s);
	if (!r || !r->guards || s->scope_arg <= 0 || s->scope_arg % SM_WARP)
		return NULL;
	unsigned char *mem = malloc((size_t)G->nthreads);
	if (!mem)
		return NULL;
	int64_t n = 0;
	for (int64_t t = 0; t < G->nthreads; t++) {
		struct sm_eval_ctx c;
		thread_ctx(&c, G->block, t);
		c.strict = 1;
		bool on = true;
		for (const struct sm_guard *g = r->guards; g && on; g = g->next) {
			c.budget = SM_EVAL_BUDGET_COND;
			int64_t v = sm_eval(g->cond, &c);
			if (c.err) {
				free(mem);
				return NULL;
			}
			on = (v != 0) != g->negate;
		}
		mem[t] = on;
		n += on;
		/* whole warps: a lane agrees with lane 0 of its warp */
		if (t % SM_WARP && mem[t] != mem[t - t % SM_WARP]) {
			free(mem);
			return NULL;
		}
	}
	if (n != s->scope_arg) {
		free(mem);
		return NULL;
	}
	return mem;
}

static int cloop(struct cfg *G, int head, int latch)
{
	if (SM_ALLOC_GROW(G->loops, (size_t)G->nloops + 1, G->caploops)) {
		G->failed = 1;
		return -1;
	}
	int li = G->nloops++;
	G->loops[li].head = head;
	G->loops[li].latch = latch;
	G->loops[li].parent = G->depth > 0 && G->depth <= SM_MAX_LOOPS + 1 ? G->stack[G->depth - 1] : -1;
	return li;
}

static int cnew(struct cfg *G, int kind)
{
	if (SM_ALLOC_GROW(G->n, (size_t)G->nn + 1, G->cap)) {
		G->failed = 1;
		return -1;
	}
	struct cnode *c = &G->n[G->nn];
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->loop = -1;
	return G->nn++;
}

static void cedge(struct cfg *G, int from, int to)
{
	if (from < 0 || to < 0 || G->failed)
		return;
	struct cnode *c = &G->n[from];
	if (c->nsucc < 2)
		c->succ[c->nsucc++] = to;
}

/* Build the nodes of s, which continues at `next`. Returns s's entry. */
static int cbuild(struct cfg *G, const struct sm_stmt *s, int next, int brk, int cont, int depth)
{
	if (!s || G->failed || depth > SM_CFG_MAX_DEPTH)
		return next;
	switch (s->kind) {
	case SM_S_BLOCK: {
		int n = next;
		for (int i = s->nkids - 1; i >= 0; i--)
			n = cbuild(G, s->kids[i], n, brk, cont, depth + 1);
		return n;
	}
	case SM_S_IF: {
		int c = cnew(G, CN_PLAIN);
		int t = cbuild(G, s->nkids > 0 ? s->kids[0] : NULL, next, brk, cont, depth + 1);
		int e = cbuild(G, s->nkids > 1 ? s->kids[1] : NULL, next, brk, cont, depth + 1);
		cedge(G, c, t);
		if (e != t)
			cedge(G, c, e);
		return c;
	}
	case SM_S_SWITCH: {
		int c = cnew(G, CN_PLAIN);
		int b = cbuild(G, s->nkids > 0 ? s->kids[0] : NULL, next, next, cont, depth + 1);
		cedge(G, c, b);
		if (b != next)
			cedge(G, c, next);
		return c;
	}
	case SM_S_LOOP: {
		int head = cnew(G, CN_PLAIN);
		int latch = cnew(G, CN_LATCH);
		int li = cloop(G, head, latch);
		if (latch < 0 || li < 0)
			return next;
		G->n[latch].loop = li;
		cedge(G, latch, head);
		bool pushed = G->depth <= SM_MAX_LOOPS;
		if (pushed)
			G->stack[G->depth] = li;
		G->depth++;
		int step = cbuild(G, s->nkids > 2 ? s->kids[2] : NULL, latch, brk, cont, depth + 1);
		int body = cbuild(G, s->nkids > 1 ? s->kids[1] : NULL, step, next, step, depth + 1);
		G->depth--;
		cedge(G, head, body);
		if (s->cond)
			cedge(G, head, next);
		/* the first check: skipped when the loop surely runs once */
		int first = cnew(G, CN_PLAIN);
		cedge(G, first, body);
		if (s->cond && !runs_once(G, s))
			cedge(G, first, next);
		int entry = first;
		return cbuild(G, s->nkids > 0 ? s->kids[0] : NULL, entry, brk, cont, depth + 1);
	}
	case SM_S_CALL: {
		/* a return inside an inlined callee goes to the call's end */
		int saved = G->ret;
		G->ret = next;
		int n = cbuild(G, s->nkids > 0 ? s->kids[0] : NULL, next, -1, -1, depth + 1);
		G->ret = saved;
		return n;
	}
	case SM_S_RETURN: {
		int c = cnew(G, CN_PLAIN);
		cedge(G, c, G->ret >= 0 ? G->ret : G->exit);
		return c;
	}
	case SM_S_GOTO: {
		int c = cnew(G, CN_PLAIN);
		cedge(G, c, G->exit);
		return c;
	}
	case SM_S_BREAK: {
		int c = cnew(G, CN_PLAIN);
		cedge(G, c, brk >= 0 ? brk : G->exit);
		return c;
	}
	case SM_S_CONTINUE: {
		int c = cnew(G, CN_PLAIN);
		cedge(G, c, cont >= 0 ? cont : G->exit);
		return c;
	}
	case SM_S_BARRIER: {
		int64_t st = sm_scope_threads(s);
		int kind = st > 0 && st < G->nthreads ? CN_SCOPED : CN_BARRIER;
		int sc = -1;
		if (kind == CN_SCOPED) {
			unsigned char *mem = s->scope == SM_SCOPE_COUNT ? count_members(G, s) : NULL;
			for (int i = 0; i < G->nscopes && sc < 0; i++)
				if (G->scopes[i]->scope == s->scope && G->scopes[i]->scope_arg == s->scope_arg &&
				    !G->members[i] == !mem &&
				    (!mem || !memcmp(G->members[i], mem, (size_t)G->nthreads)))
					sc = i;
			if (sc < 0 && G->nscopes < SM_MAX_BARRIER_SCOPES) {
				sc = G->nscopes++;
				G->scopes[sc] = s;
				G->members[sc] = mem;
				mem = NULL;
			}
			free(mem);
			if (sc < 0)
				kind = CN_PLAIN; /* past SM_MAX_BARRIER_SCOPES */
		}
		int c = cnew(G, kind);
		if (c >= 0) {
			G->n[c].sc = sc;
			G->n[c].st = s;
		}
		cedge(G, c, next);
		return c;
	}
	case SM_S_ACCESS: {
		if (!s->access || s->access->index >= G->nacc)
			return next;
		int c = cnew(G, CN_ACCESS);
		cedge(G, c, next);
		unsigned ai = s->access->index;
		G->acc_node_of[ai] = c;
		int nl = G->depth < SM_MAX_LOOPS + 1 ? G->depth : SM_MAX_LOOPS + 1;
		G->acc_nloops[ai] = nl;
		for (int i = 0; i < nl; i++)
			G->acc_loops[ai][i] = G->stack[i];
		return c;
	}
	default: {
		int n = next;
		for (int i = s->nkids - 1; i >= 0; i--)
			n = cbuild(G, s->kids[i], n, brk, cont, depth + 1);
		return n;
	}
	}
}

/* Does node c stop a path for a pair of threads that the scoped
 * barriers in `ord` (a bit per cfg.scopes entry) order? */
static bool blocks(const struct cnode *c, uint32_t ord)
{
	return c->kind == CN_BARRIER || (c->kind == CN_SCOPED && (ord >> c->sc & 1));
}

/* Is there a path from node a (leaving it) to node b that meets no
 * barrier ordering the pair (see blocks) and no latch of a loop marked in
 * closed[]? When phase_loop >= 0 the path must take that loop's latch (b in
 * a later iteration of it) and that latch is open. */
static bool reach(const struct cfg *G, int a, int b, const unsigned char *closed, int phase_loop, uint32_t ord,
		  unsigned char *seen, int *stack)
{
	memset(seen, 0, (size_t)G->nn * 2);
	int sp = 0;
	/* state = node * 2 + phase */
	for (int i = 0; i < G->n[a].nsucc; i++)
		stack[sp++] = G->n[a].succ[i] * 2;
	while (sp > 0) {
		int st = stack[--sp];
		int v = st / 2, ph = st % 2;
		const struct cnode *c = &G->n[v];
		if (blocks(c, ord))
			continue;
		if (c->kind == CN_LATCH) {
			if (c->loop == phase_loop)
				ph = 1;
			else if (closed[c->loop])
				continue;
		}
		st = v * 2 + ph;
		if (seen[st])
			continue;
		seen[st] = 1;
		if (v == b && ph == (phase_loop >= 0 ? 1 : 0))
			return true;
		for (int i = 0; i < c->nsucc; i++)
			if (sp < G->nn * 2)
				stack[sp++] = c->succ[i] * 2 + ph;
	}
	return false;
}

/* Can one iteration of loop li run with no barrier (a barrier-free path
 * from its head back to it)? */
static bool free_cycle(const struct cfg *G, int li, uint32_t ord, unsigned char *closed, unsigned char *seen,
		       int *stack)
{
	memset(closed, 0, (size_t)G->nloops);
	for (int p = G->loops[li].parent; p >= 0; p = G->loops[p].parent)
		closed[p] = 1;
	return reach(G, G->loops[li].head, G->loops[li].head, closed, li, ord, seen, stack);
}

/* ---- enumeration ---- */

/* caps: SM_RACE_ITER_CAP, SM_RACE_UNKNOWN_ITER, SM_RACE_LEAVES,
 * SM_RACE_EVALS, SM_RACE_TRIES (base/limits.h) */
#define RACE_SEED 2            /* the assignment of uniform unknowns searched */

/* Assignments of uniform unknowns a witness must hold under (bank.c's
 * seeds 0, 1 and 2 give them 1, 32 and assorted values): an overlap that
 * depends on a parameter's value (a carve offset) is not reported. */
static const unsigned race_seeds[] = { 0, 1, 2 };

struct slot {
	const struct sm_loop *L;
	int side;                  /* 0 both equal, 1 a only, 2 b only, 3 a=k b=k+1 */
	bool edge;                 /* side 1: a's last iteration only; side 2: b's first only */
};

struct ent {
	int64_t addr;
	int lin;
};

/* Thread addresses of one access at one iteration vector, shared by every
 * pair the access takes part in (the search asks for the same vectors over
 * and over). Bounded: past the limit, addresses are computed and not kept. */
struct addr_vec {
	unsigned acc;
	unsigned seed;
	int niter;
	int64_t iter[SM_MAX_LOOPS];
	int64_t *addr;             /* per thread */
	signed char *st;           /* sm_access_addr's result per thread */
	struct addr_vec *next;
};

struct addr_memo {
	const struct sm_kernel_model *m;
	struct sm_dim3 block;
	int nthreads;
	struct addr_vec *bucket[1024];
	size_t bytes;
	struct addr_vec scratch;   /* used when the memo is full */
	struct sm_guard_memo *gm;  /* guard values, shared by the accesses */
	struct sm_work *work;      /* the file's analysis budget, or NULL */
};

static void memo_free(struct addr_memo *M)
{
	for (int i = 0; i < 1024; i++) {
		struct addr_vec *v = M->bucket[i];
		while (v) {
			struct addr_vec *n = v->next;
			free(v->addr);
			free(v->st);
			free(v);
			v = n;
		}
	}
	free(M->scratch.addr);
	free(M->scratch.st);
}

/* The addresses every thread of the block touches when running access ra
 * at the iterations in c (its enclosing loops' entries of c->iter). */
static const struct addr_vec *memo_get(struct addr_memo *M, const struct sm_raccess *ra, const struct sm_eval_ctx *c,
				       unsigned long *evals)
{
	struct addr_vec key;
	memset(&key, 0, sizeof(key));
	key.acc = (unsigned)(ra - M->m->acc);
	for (const struct sm_loop *L = ra->loop; L && key.niter < SM_MAX_LOOPS; L = L->parent)
		key.iter[key.niter++] = c->iter[L->depth];
	unsigned h = key.acc * 2654435761u;
	for (int i = 0; i < key.niter; i++)
		h = (h ^ (unsigned)key.iter[i]) * 16777619u;
	h ^= c->seed * 40503u;
	h &= 1023;
	for (struct addr_vec *v = M->bucket[h]; v; v = v->next)
		if (v->acc == key.acc && v->niter == key.niter && v->seed == c->seed &&
		    !memcmp(v->iter, key.iter, (size_t)key.niter * sizeof(int64_t)))
			return v;
	size_t need = (size_t)M->nthreads * (sizeof(int64_t) + 1) + sizeof(struct addr_vec);
	struct addr_vec *v = NULL;
	if (M->bytes + need <= SM_RACE_MEMO_BYTES)
		v = calloc(1, sizeof(*v));
	if (v) {
		v->addr = malloc((size_t)M->nthreads * sizeof(int64_t));
		v->st = malloc((size_t)M->nthreads);
		if (!v->addr || !v->st) {
			free(v->addr);
			free(v->st);
			free(v);
			v = NULL;
		}
	}
	if (!v) {
		v = &M->scratch;
		if (!v->addr) {
			v->addr = malloc((size_t)M->nthreads * sizeof(int64_t));
			v->st = malloc((size_t)M->nthreads);
			if (!v->addr || !v->st)
				return NULL;
		}
	} else {
		*v = (struct addr_vec){ key.acc, c->seed, key.niter, { 0 }, v->addr, v->st, M->bucket[h] };
		memcpy(v->iter, key.iter, sizeof(key.iter));
		M->bucket[h] = v;
		M->bytes += need;
	}
	for (int t = 0; t < M->nthreads; t++) {
		struct sm_eval_ctx lc = *c;
		lin_tid(M->block, t, lc.tid);
		v->st[t] = (signed char)sm_access_addr(ra, NULL, &lc, &v->addr[t]);
	}
	*evals += (unsigned long)M->nthreads;
	return v;
}

struct rjob {
	struct addr_memo *memo;
	const struct sm_raccess *ra, *rb;
	struct sm_dim3 block;
	int nthreads;
	struct slot slots[2 * SM_MAX_LOOPS + 2];
	int nslots;
	int a_done;                /* slots [0, a_done) fix a's iterations */
	struct sm_eval_ctx ca, cb;
	struct ent *ea;            /* a's addresses, sorted */
	int nea;
	const struct cfg *G;
	bool want_inter;           /* look for threads of different warps */
	uint32_t want_ord;         /* ... that exactly these scopes order */
	bool found;
	bool truncated;
	unsigned leaves;
	unsigned long evals;
	int lin_a, lin_b;
	int64_t addr;
};


static int cmp_ent(const void *pa, const void *pb)
{
	const struct ent *a = pa, *b = pb;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->lin - b->lin;
}


/* Does any thread run loop L at the iterations in c? 1 yes, 0 no, -1 unknown. */
static int any_runs(struct rjob *J, const struct sm_loop *L, struct sm_eval_ctx *c)
{
	int unknown = 0;
	for (int t = 0; t < J->nthreads; t++) {
		struct sm_eval_ctx lc = *c;
		lin_tid(J->block, t, lc.tid);
		int r = sm_loop_cond(L, &lc);
		J->evals++;
		if (r == 1)
			return 1;
		if (r < 0)
			unknown = 1;
	}
	return unknown ? -1 : 0;
}

/* Is this a's last iteration, for the thread in c, of every loop whose
 * last iteration alone reaches b? */
static bool a_at_edge(struct rjob *J, struct sm_eval_ctx *c)
{
	for (int s = 0; s < J->a_done; s++) {
		const struct slot *S = &J->slots[s];
		if (S->side != 1 || !S->edge)
			continue;
		int d = S->L->depth;
		struct sm_eval_ctx lc = *c;
		lc.iter[d] = c->iter[d] + 1;
		if (sm_loop_cond(S->L, &lc) == 1)
			return false;
	}
	return true;
}

static void compute_a(struct rjob *J)
{
	J->nea = 0;
	const struct addr_vec *va = memo_get(J->memo, J->ra, &J->ca, &J->evals);
	if (!va)
		return;
	for (int t = 0; t < J->nthreads; t++) {
		if (va->st[t] != 1)
			continue;
		struct sm_eval_ctx c = J->ca;
		lin_tid(J->block, t, c.tid);
		if (a_at_edge(J, &c)) {
			J->ea[J->nea].addr = va->addr[t];
			J->ea[J->nea].lin = t;
			J->nea++;
		}
	}
	qsort(J->ea, (size_t)J->nea, sizeof(*J->ea), cmp_ent);
}

/* Do threads la (running a) and lb (running b) touch the same bytes at the
 * current iterations under every assignment of the uniform unknowns? */
static bool verify(struct rjob *J, int la, int lb)
{
	int64_t wa = J->ra->width ? J->ra->width : 1, wb = J->rb->width ? J->rb->width : 1;
	for (size_t i = 0; i < sizeof(race_seeds) / sizeof(race_seeds[0]); i++) {
		struct sm_eval_ctx c1 = J->ca, c2 = J->cb;
		c1.seed = c2.seed = race_seeds[i];
		lin_tid(J->block, la, c1.tid);
		lin_tid(J->block, lb, c2.tid);
		int64_t x, y;
		if (sm_access_addr(J->ra, NULL, &c1, &x) != 1 || sm_access_addr(J->rb, NULL, &c2, &y) != 1)
			return false;
		if (!(x < y + wb && y < x + wa))
			return false;
	}
	return true;
}

/* The scopes (bits of cfg.scopes) whose barriers order threads a and b. */
static uint32_t pair_ord(const struct cfg *G, int64_t a, int64_t b)
{
	uint32_t o = 0;
	for (int i = 0; i < G->nscopes; i++)
		if (G->members[i] ? G->members[i][a] && G->members[i][b] : scope_orders(G->scopes[i], a, b))
			o |= (uint32_t)1 << i;
	return o;
}

static void leaf(struct rjob *J)
{
	if (J->leaves >= SM_RACE_LEAVES || J->evals >= SM_RACE_EVALS || sm_work_over(J->memo->work)) {
		J->truncated = true;
		return;
	}
	J->leaves++;
	if (!J->nea)
		return;
	int64_t wa = J->ra->width ? J->ra->width : 1, wb = J->rb->width ? J->rb->width : 1;
	const struct addr_vec *vb = memo_get(J->memo, J->rb, &J->cb, &J->evals);
	if (!vb)
		return;
	for (int t = 0; t < J->nthreads && !J->found; t++) {
		if (vb->st[t] != 1)
			continue;
		int64_t b = vb->addr[t];
		/* a's entries with addr in (b - wa, b + wb) */
		int lo = 0, hi = J->nea;
		while (lo < hi) {
			int mid = (lo + hi) / 2;
			if (J->ea[mid].addr <= b - wa)
				lo = mid + 1;
			else
				hi = mid;
		}
		int tries = 0;
		for (int i = lo; i < J->nea && J->ea[i].addr < b + wb && tries < SM_RACE_TRIES; i++) {
			int la = J->ea[i].lin;
			if (la == t)
				continue;
			bool inter = la / SM_WARP != t / SM_WARP;
			if (inter != J->want_inter || pair_ord(J->G, la, t) != J->want_ord)
				continue;
			tries++;
			if (!verify(J, la, t))
				continue;
			J->found = true;
			J->lin_a = la;
			J->lin_b = t;
			J->addr = J->ea[i].addr > b ? J->ea[i].addr : b;
			break;
		}
	}
}

static void enumerate(struct rjob *J, int s)
{
	if (J->found || J->truncated)
		return;
	if (s == J->a_done)
		compute_a(J);
	if (s == J->nslots) {
		leaf(J);
		return;
	}
	const struct slot *S = &J->slots[s];
	const struct sm_loop *L = S->L;
	int d = L->depth;
	int64_t cap = S->side == 2 && S->edge ? 1 : SM_RACE_ITER_CAP;
	for (int64_t k = 0; k < cap && !J->found && !J->truncated; k++) {
		int r;
		switch (S->side) {
		case 0:
			J->ca.iter[d] = J->cb.iter[d] = k;
			r = any_runs(J, L, &J->ca);
			break;
		case 1:
			J->ca.iter[d] = k;
			r = any_runs(J, L, &J->ca);
			break;
		case 2:
			J->cb.iter[d] = k;
			r = any_runs(J, L, &J->cb);
			break;
		default:
			J->ca.iter[d] = k;
			J->cb.iter[d] = k + 1;
			r = any_runs(J, L, &J->ca);
			if (r != 0 && any_runs(J, L, &J->cb) == 0)
				r = 0;
			break;
		}
		if (r == 0)
			break;
		if (r < 0 && k >= SM_RACE_UNKNOWN_ITER)
			break;
		enumerate(J, s + 1);
	}
}

/* The loops of ra, outer first. */
static int loop_chain(const struct sm_raccess *ra, const struct sm_loop **out)
{
	const struct sm_loop *tmp[SM_MAX_LOOPS + 1];
	int n = 0;
	for (const struct sm_loop *L = ra->loop; L && n < SM_MAX_LOOPS; L = L->parent)
		tmp[n++] = L;
	for (int i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	return n;
}

struct pairctx {
	const struct cfg *G;
	int a, b;                  /* access indexes */
	const int *ca, *cb;        /* CFG loop chains */
	const struct sm_loop **la, **lb;
	int na, nb, nc;
	unsigned char *closed, *seen;
	int *stack;
};

/* The latches closed for mode d: the common loops at levels < d (all of
 * them when d < 0), plus extra (>= 0). */
static void close_for(struct pairctx *P, int d, int extra)
{
	memset(P->closed, 0, (size_t)P->G->nloops);
	int lim = d >= 0 ? d : P->nc;
	for (int i = 0; i < lim; i++)
		P->closed[P->ca[i]] = 1;
	if (extra >= 0)
		P->closed[extra] = 1;
}

static bool pair_reach(struct pairctx *P, int d, int extra, uint32_t ord)
{
	close_for(P, d, extra);
	return reach(P->G, P->G->acc_node_of[P->a], P->G->acc_node_of[P->b], P->closed, d >= 0 ? P->ca[d] : -1, ord,
		     P->seen, P->stack);
}

/* For a race found in mode d with ordering ord: a scoped barrier that
 * every path from a to b free of ord's barriers passes (one that does not
 * order the pair), or NULL when some path meets no barrier at all (or the
 * two accesses are not on one path). Only for the message. */
static const struct sm_stmt *unordered_barrier(struct pairctx *P, int d, uint32_t ord)
{
	const struct cfg *G = P->G;
	if (!G->nscopes || P->a == P->b || !pair_reach(P, d, -1, ord) || pair_reach(P, d, -1, UINT32_MAX))
		return NULL;
	/* the nodes reachable from a past no barrier of ord (either phase) */
	close_for(P, d, -1);
	int a = G->acc_node_of[P->a], b = G->acc_node_of[P->b];
	reach(G, a, -1, P->closed, -1, ord, P->seen, P->stack);
	unsigned char *fwd = malloc((size_t)G->nn);
	if (!fwd)
		return NULL;
	for (int v = 0; v < G->nn; v++)
		fwd[v] = P->seen[v * 2] | P->seen[v * 2 + 1];
	const struct sm_stmt *found = NULL;
	for (int v = 0; v < G->nn && !found; v++) {
		if (!fwd[v] || G->n[v].kind != CN_SCOPED || (ord >> G->n[v].sc & 1))
			continue;
		close_for(P, d, -1);
		if (reach(G, v, b, P->closed, -1, ord, P->seen, P->stack))
			found = G->n[v].st;
	}
	free(fwd);
	return found;
}

/* Search pair (a, b) in mode d (see reach). */
static bool search(struct rjob *J, struct pairctx *P, int d, uint32_t ord)
{
	J->nslots = 0;
	int shared = d >= 0 ? d : P->nc;
	for (int i = 0; i < shared; i++)
		J->slots[J->nslots++] = (struct slot){ P->la[i], 0, false };
	if (d >= 0)
		J->slots[J->nslots++] = (struct slot){ P->la[d], 3, false };
	int from = d >= 0 ? d + 1 : P->nc;
	for (int i = from; i < P->na; i++) {
		int li = P->ca[i];
		bool edge = !free_cycle(P->G, li, ord, P->closed, P->seen, P->stack) && !pair_reach(P, d, li, ord);
		J->slots[J->nslots++] = (struct slot){ P->la[i], 1, edge };
	}
	J->a_done = J->nslots;
	for (int i = from; i < P->nb; i++) {
		bool edge = !free_cycle(P->G, P->cb[i], ord, P->closed, P->seen, P->stack);
		J->slots[J->nslots++] = (struct slot){ P->lb[i], 2, edge };
	}
	memset(J->ca.iter, 0, sizeof(J->ca.iter));
	memset(J->cb.iter, 0, sizeof(J->cb.iter));
	J->found = false;
	J->leaves = 0;
	J->evals = 0;
	enumerate(J, 0);
	return J->found;
}

/* Does every thread compute e alike, from constants only (no variable,
 * thread id, uniform unknown or memory)? */
static bool const_value(const struct sm_expr *e, int depth)
{
	if (!e || depth > SM_SCAN_EXPR_DEPTH)
		return false;
	switch (e->kind) {
	case SM_E_CONST:
		return true;
	case SM_E_OPAQUE:
		/* a floating literal, a constant the front end could not fold */
		return !e->thread_dep && !e->place && !e->a && e->name &&
		       (!strcmp(e->name, "constant") || !strcmp(e->name, "floating constant"));
	case SM_E_UNARY:
	case SM_E_CAST:
		return const_value(e->a, depth + 1);
	case SM_E_BINARY:
		return const_value(e->a, depth + 1) && const_value(e->b, depth + 1);
	case SM_E_COND:
		return const_value(e->a, depth + 1) && const_value(e->b, depth + 1) && const_value(e->c, depth + 1);
	default:
		return false;
	}
}

/* Two stores of one value: the same store of a constant (every thread
 * writes it), or two stores of the same integer: 1. The same store at the
 * iterations of a value every thread computes alike (a parameter, a load
 * from one global address), not a constant, and no loop counter: 2. Else 0. */
static int same_value(const struct sm_raccess *rx, const struct sm_raccess *ry, bool cross_iter)
{
	const struct sm_access *x = rx->src, *y = ry->src;
	if (!x || !y || x->kind != SM_ACC_STORE || y->kind != SM_ACC_STORE || !x->value || !y->value)
		return 0;
	if (x == y) {
		if (const_value(x->value, 0))
			return 1;
		/* alike in every thread and in every iteration: threads at
		 * different iterations write one element too */
		return !cross_iter && rx->value && !sm_expr_thread_dep(rx->value) && !refs_loops(rx->value, 0) ? 2 : 0;
	}
	return x->value->kind == SM_E_CONST && y->value->kind == SM_E_CONST && x->value->ival == y->value->ival;
}

static bool same_storage(const struct sm_array *x, const struct sm_array *y)
{
	return x == y || (x && y && x->is_dynamic && y->is_dynamic);
}

/* ---- barrier intervals ----
 * The starts of an interval are the kernel's entry and every barrier that
 * orders the pair of threads (see blocks: a pair's ordering `ord` says
 * which scoped barriers do). An access lies in the intervals of the
 * starts that reach it with no such barrier on the way, within one
 * iteration of every loop (a latch is not crossed: from it only the loop's
 * exit is taken). Two accesses that threads can run between the same two
 * barriers at the same iterations share a start, whichever branch each
 * thread takes; two with no start in common are never such a pair, which
 * spares the search most pairs of a long kernel. One bit set per access
 * and ordering. */
struct ivals {
	int nwords;                /* 64-bit words per access */
	int nord;
	uint64_t **bits;           /* [ordering][access * nwords + start / 64] */
};

static void ivals_free(struct ivals *I)
{
	for (int w = 0; w < I->nord && I->bits; w++)
		free(I->bits[w]);
	free(I->bits);
}

static int ivals_build(const struct cfg *G, int entry, const int *acc_at, const uint32_t *ords, int nord,
		       struct ivals *I, unsigned char *seen, int *stack)
{
	int nstart = 1;
	for (int v = 0; v < G->nn; v++)
		nstart += G->n[v].kind == CN_BARRIER || G->n[v].kind == CN_SCOPED;
	I->nwords = (nstart + 63) / 64;
	I->bits = calloc((size_t)nord, sizeof(*I->bits));
	if (!I->bits)
		return -1;
	I->nord = nord;
	for (int w = 0; w < nord; w++) {
		I->bits[w] = calloc((size_t)G->nacc * (size_t)I->nwords + 1, sizeof(uint64_t));
		if (!I->bits[w])
			return -1;
	}
	for (int w = 0; w < nord; w++) {
		int si = 0;
		for (int v = -1; v < G->nn; v++) {
			bool bar = v >= 0 && (G->n[v].kind == CN_BARRIER || G->n[v].kind == CN_SCOPED);
			if (v >= 0 && !bar)
				continue;
			int me = si++;
			if (v >= 0 && !blocks(&G->n[v], ords[w]))
				continue; /* a barrier that does not order the pair is no start */
			memset(seen, 0, (size_t)G->nn);
			int sp = 0;
			if (v < 0)
				stack[sp++] = entry;
			else
				for (int i = 0; i < G->n[v].nsucc; i++)
					stack[sp++] = G->n[v].succ[i];
			while (sp > 0) {
				int u = stack[--sp];
				if (u < 0 || seen[u])
					continue;
				seen[u] = 1;
				const struct cnode *c = &G->n[u];
				if (blocks(c, ords[w]))
					continue;
				if (c->kind == CN_ACCESS && acc_at[u] >= 0)
					I->bits[w][(size_t)acc_at[u] * I->nwords + me / 64] |= (uint64_t)1 << (me % 64);
				if (c->kind == CN_LATCH) {
					/* leave the loop: its head's exit edge only */
					const struct cnode *h = &G->n[G->loops[c->loop].head];
					if (h->nsucc > 1 && sp < G->nn)
						stack[sp++] = h->succ[1];
					continue;
				}
				for (int i = 0; i < c->nsucc; i++)
					if (sp < G->nn)
						stack[sp++] = c->succ[i];
			}
		}
	}
	return 0;
}

/* The bytes an access can touch, for the pruning of pairs before any
 * thread is enumerated: known for an access outside every loop (one
 * address per thread, at the search's assignment of the uniform unknowns,
 * so two disjoint ranges never give the search a candidate); unbounded
 * inside a loop. */
struct arange {
	bool bounded;
	bool empty;                /* no thread runs it */
	int64_t lo, hi;            /* [lo, hi) */
};

static void acc_range(struct addr_memo *M, const struct sm_raccess *ra, struct sm_dim3 block, struct arange *r)
{
	memset(r, 0, sizeof(*r));
	if (!ra->ok || ra->loop)
		return;
	struct sm_eval_ctx c;
	memset(&c, 0, sizeof(c));
	c.ntid = block;
	c.seed = RACE_SEED;
	c.gmemo = M->gm;
	c.work = M->work;
	unsigned long evals = 0;
	const struct addr_vec *v = memo_get(M, ra, &c, &evals);
	if (!v)
		return;
	int64_t w = ra->width ? ra->width : 1;
	r->empty = true;
	for (int t = 0; t < M->nthreads; t++) {
		if (v->st[t] < 0)
			return; /* an address not computed: unbounded */
		if (v->st[t] != 1)
			continue;
		if (r->empty || v->addr[t] < r->lo)
			r->lo = v->addr[t];
		if (r->empty || v->addr[t] + w > r->hi)
			r->hi = v->addr[t] + w;
		r->empty = false;
	}
	r->bounded = true;
}

static bool ranges_meet(const struct arange *x, const struct arange *y)
{
	if (!x->bounded || !y->bounded)
		return true;
	if (x->empty || y->empty)
		return false;
	return x->lo < y->hi && y->lo < x->hi;
}

/* Do ra and rb lie in the two arms of one thread-dependent if, so that
 * threads of one interval run one and others the other? (Arms of a
 * uniform if, or a loop some threads skip only when all do, are not.) */
static bool split_by_thread(const struct sm_raccess *ra, const struct sm_raccess *rb)
{
	for (const struct sm_guard *x = ra->guards; x; x = x->next) {
		if (!x->cond || !sm_expr_thread_dep(x->cond))
			continue;
		for (const struct sm_guard *y = rb->guards; y; y = y->next)
			if (y->cond == x->cond && y->negate != x->negate)
				return true;
	}
	return false;
}

static bool ivals_meet(const struct ivals *I, int w, unsigned a, unsigned b)
{
	const uint64_t *x = &I->bits[w][(size_t)a * I->nwords], *y = &I->bits[w][(size_t)b * I->nwords];
	for (int i = 0; i < I->nwords; i++)
		if (x[i] & y[i])
			return true;
	return false;
}

/* One way a pair of threads can stand to the kernel's barriers: in
 * different warps or in one (inter), ordered by the block barriers and by
 * exactly the scoped barriers of ord. The search takes each mode in turn,
 * with its own barrier intervals (ivals.bits[iv]). */
struct rmode {
	uint32_t ord;
	bool inter;
	int iv;
};

static int popcount32(uint32_t x)
{
	int n = 0;
	for (; x; x &= x - 1)
		n++;
	return n;
}

static int cmp_mode(const void *pa, const void *pb)
{
	const struct rmode *a = pa, *b = pb;
	if (a->inter != b->inter)
		return a->inter ? -1 : 1;
	return popcount32(a->ord) - popcount32(b->ord);
}

/* The modes some pair of the block's threads takes: between warps first
 * (missing-barrier before warp-sync), the fewest orderings first. ords[]
 * gets the distinct orderings. Returns how many modes, or -1. */
static int race_modes(const struct cfg *G, struct rmode **out, uint32_t **ords, int *nord)
{
	size_t cap = 4;
	int n = 0;
	struct rmode *v = malloc(cap * sizeof(*v));
	uint32_t *o = malloc(cap * sizeof(*o));
	*nord = 0;
	if (!v || !o)
		goto fail;
	if (!G->nscopes) {
		/* block barriers only: a pair between warps and one inside */
		v[n++] = (struct rmode){ 0, true, 0 };
		v[n++] = (struct rmode){ 0, false, 0 };
		o[(*nord)++] = 0;
	}
	for (int64_t a = 0; a < G->nthreads && G->nscopes; a++) {
		for (int64_t b = a + 1; b < G->nthreads; b++) {
			struct rmode md = { pair_ord(G, a, b), a / SM_WARP != b / SM_WARP, 0 };
			bool have = false;
			for (int i = 0; i < n && !have; i++)
				have = v[i].ord == md.ord && v[i].inter == md.inter;
			if (have)
				continue;
			int iv = -1;
			for (int i = 0; i < *nord && iv < 0; i++)
				if (o[i] == md.ord)
					iv = i;
			if ((size_t)n == cap || (size_t)*nord == cap) {
				cap *= 2;
				struct rmode *nv = realloc(v, cap * sizeof(*v));
				if (nv)
					v = nv;
				uint32_t *no = realloc(o, cap * sizeof(*o));
				if (no)
					o = no;
				if (!nv || !no)
					goto fail;
			}
			if (iv < 0) {
				iv = (*nord)++;
				o[iv] = md.ord;
			}
			md.iv = iv;
			v[n++] = md;
		}
	}
	qsort(v, (size_t)n, sizeof(*v), cmp_mode);
	*out = v;
	*ords = o;
	return n;
fail:
	free(v);
	free(o);
	*out = NULL;
	*ords = NULL;
	return -1;
}

int sm_kernel_races(const struct sm_kernel_model *m, struct sm_dim3 block, struct sm_arena *A,
		    struct sm_race **out, unsigned *nout)
{
	return sm_kernel_races_in(m, block, A, NULL, out, nout);
}

int sm_kernel_races_in(const struct sm_kernel_model *m, struct sm_dim3 block, struct sm_arena *A,
		       struct sm_work *work, struct sm_race **out, unsigned *nout)
{
	*out = NULL;
	*nout = 0;
	unsigned nacc = m->nacc;
	if (!m->kernel || nacc == 0)
		return 0;
	int64_t nt = (block.x > 0 ? block.x : 1) * (block.y > 0 ? block.y : 1) * (block.z > 0 ? block.z : 1);
	if (nt < 2 || nt > SM_MAX_BLOCK_THREADS)
		return 0;
	struct cfg G;
	memset(&G, 0, sizeof(G));
	G.nacc = nacc;
	G.acc_node_of = malloc(nacc * sizeof(int));
	G.acc_nloops = calloc(nacc, sizeof(int));
	G.acc_loops = calloc(nacc, sizeof(*G.acc_loops));
	struct ent *ea = malloc((size_t)nt * sizeof(*ea));
	struct addr_memo *memo = calloc(1, sizeof(*memo));
	unsigned char *seen = NULL, *closed = NULL;
	int *stack = NULL;
	unsigned cap = 0, n = 0;
	struct sm_race *races = NULL;
	int *acc_at = NULL;
	struct ivals IV = { 0, 0, NULL };
	struct rmode *modes = NULL;
	uint32_t *ords = NULL;
	int nmodes = 0, nord = 0;
	struct arange *rg = NULL;
	int rc = 0;
	if (!G.acc_node_of || !G.acc_nloops || !G.acc_loops || !ea || !memo) {
		rc = -1;
		goto done;
	}
	for (unsigned i = 0; i < nacc; i++)
		G.acc_node_of[i] = -1;
	memo->m = m;
	memo->block = block;
	memo->nthreads = (int)nt;
	memo->work = work;
	memo->gm = sm_guard_memo_new();
	G.m = m;
	G.block = block;
	G.nthreads = nt;
	if (G.block.x < 1) G.block.x = 1;
	if (G.block.y < 1) G.block.y = 1;
	if (G.block.z < 1) G.block.z = 1;
	G.exit = cnew(&G, CN_PLAIN);
	G.ret = -1;
	int entry = cbuild(&G, m->kernel->body, G.exit, -1, -1, 0);
	seen = malloc((size_t)G.nn * 2 + 1);
	stack = malloc(((size_t)G.nn * 2 + 1) * sizeof(int));
	closed = malloc((size_t)G.nloops + 1);
	acc_at = malloc(((size_t)G.nn + 1) * sizeof(int));
	if (G.failed || !seen || !stack || !closed || !acc_at) {
		rc = -1;
		goto done;
	}
	for (int v = 0; v < G.nn; v++)
		acc_at[v] = -1;
	for (unsigned i = 0; i < nacc; i++)
		if (G.acc_node_of[i] >= 0)
			acc_at[G.acc_node_of[i]] = (int)i;
	nmodes = race_modes(&G, &modes, &ords, &nord);
	if (nmodes < 0 || ivals_build(&G, entry, acc_at, ords, nord, &IV, seen, stack)) {
		rc = -1;
		goto done;
	}
	rg = malloc((size_t)nacc * sizeof(*rg));
	if (!rg) {
		rc = -1;
		goto done;
	}
	for (unsigned i = 0; i < nacc; i++) {
		if (sm_work_over(work))
			memset(&rg[i], 0, sizeof(rg[i])); /* unbounded (no search follows) */
		else
			acc_range(memo, &m->acc[i], block, &rg[i]);
	}
	for (unsigned b = 0; b < nacc && !sm_work_over(work); b++) {
		const struct sm_raccess *rb = &m->acc[b];
		if (!rb->ok || !rb->src || !rb->array || G.acc_node_of[b] < 0)
			continue;
		/* the nearest earlier access first: the clearest witness */
		for (unsigned step = 0; step < nacc && !sm_work_over(work); step++) {
			unsigned a = (b + nacc - 1 - step) % nacc;
			const struct sm_raccess *ra = &m->acc[a];
			if (!ra->ok || !ra->src || !ra->array || G.acc_node_of[a] < 0)
				continue;
			if (!same_storage(ra->array, rb->array))
				continue;
			if (!ranges_meet(&rg[a], &rg[b]))
				continue;
			int ka = ra->src->kind, kb = rb->src->kind;
			if (ka == SM_ACC_LOAD && kb == SM_ACC_LOAD)
				continue;
			if (ka == SM_ACC_ATOMIC && kb == SM_ACC_ATOMIC)
				continue;
			const struct sm_loop *la[SM_MAX_LOOPS + 1], *lb[SM_MAX_LOOPS + 1];
			int na = loop_chain(ra, la), nb = loop_chain(rb, lb);
			if (na != G.acc_nloops[a] || nb != G.acc_nloops[b])
				continue; /* nested deeper than the resolver follows */
			int nc = 0;
			while (nc < na && nc < nb && G.acc_loops[a][nc] == G.acc_loops[b][nc] && la[nc] == lb[nc])
				nc++;
			struct pairctx P = { &G, (int)a, (int)b, G.acc_loops[a], G.acc_loops[b], la, lb, na, nb, nc,
					     closed, seen, stack };
			struct rjob J;
			memset(&J, 0, sizeof(J));
			J.ra = ra;
			J.rb = rb;
			J.block = block;
			J.nthreads = (int)nt;
			J.ea = ea;
			J.memo = memo;
			J.G = &G;
			J.ca.ntid = J.cb.ntid = block;
			J.ca.seed = J.cb.seed = RACE_SEED;
			J.ca.gmemo = J.cb.gmemo = memo->gm;
			J.ca.work = J.cb.work = work;
			bool hit = false, inter = false, cross = false, trunc = false;
			const struct sm_stmt *unordered = NULL;
			/* each mode: threads of different warps first, then of
			 * one warp, with no barrier on the way that orders them */
			for (int mi = 0; mi < nmodes && !hit; mi++) {
				const struct rmode *md = &modes[mi];
				for (int d = -1; d < nc && !hit; d++) {
					/* two threads running one store at the same
					 * iterations: nothing lies between them. Only
					 * where the front end recorded the value stored
					 * (else a constant written by every thread, a
					 * benign race, could not be told apart) */
					if (d < 0 && a == b && !rb->src->value)
						continue;
					/* at the same iterations: only accesses of one
					 * barrier interval, and unless one follows the
					 * other, the pair is taken once (a before b in
					 * the source) */
					if (d < 0 && !ivals_meet(&IV, md->iv, a, b))
						continue;
					if (!(d < 0 && a == b) && !pair_reach(&P, d, -1, md->ord) &&
					    (d >= 0 || a > b || !split_by_thread(ra, rb)))
						continue;
					J.want_inter = md->inter;
					J.want_ord = md->ord;
					if (search(&J, &P, d, md->ord)) {
						hit = true;
						inter = md->inter;
						cross = d >= 0;
						unordered = unordered_barrier(&P, d, md->ord);
					}
					trunc |= J.truncated;
				}
			}
			if (!hit)
				continue;
			if (n == cap) {
				unsigned ncap = cap ? 2 * cap : 16;
				struct sm_race *nr = sm_arena_alloc(A, ncap * sizeof(*nr));
				if (!nr) {
					rc = -1;
					goto done;
				}
				if (n)
					memcpy(nr, races, n * sizeof(*nr));
				races = nr;
				cap = ncap;
			}
			struct sm_race *R = &races[n++];
			memset(R, 0, sizeof(*R));
			R->a = a;
			R->b = b;
			R->kind = ka == SM_ACC_LOAD ? SM_RACE_WAR : kb == SM_ACC_LOAD ? SM_RACE_RAW : SM_RACE_WAW;
			R->inter_warp = inter;
			R->cross_iter = cross;
			lin_tid(block, J.lin_a, R->tid_a);
			lin_tid(block, J.lin_b, R->tid_b);
			R->addr = J.addr;
			R->truncated = trunc;
			R->unordered = unordered;
			int same = same_value(ra, rb, cross);
			R->same_value = same != 0;
			R->same_uniform = same == 2;
			/* the rules report one race per later access, the first
			 * between warps that changes a value: the rest of b's
			 * partners add nothing */
			if (inter && !R->same_value)
				break;
		}
	}
	*out = races;
	*nout = n;
done:
	free(seen);
	free(stack);
	free(closed);
	free(G.n);
	free(G.acc_node_of);
	free(G.acc_nloops);
	free(G.acc_loops);
	free(G.loops);
	for (int i = 0; i < G.nscopes; i++)
		free(G.members[i]);
	free(ea);
	free(acc_at);
	free(rg);
	ivals_free(&IV);
	free(modes);
	free(ords);
	if (memo) {
		sm_guard_memo_free(memo->gm);
		memo_free(memo);
		free(memo);
	}
	return rc;
}
