/* divergence.c - barriers some threads of a group never reach (see
 * threaddep.h): the walk that carries the cause in force (a
 * thread-dependent if, switch or loop, or a jump out), what the launches
 * say about a condition (every thread of every block evaluated under each
 * launch context), and whether a cause splits a group of a smaller
 * barrier scope. */
#include "engine/threaddep.h"
#include "engine/visit.h"
#include "base/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static enum sm_seen is_grid(const struct sm_expr *e, void *arg)
{
	bool hit = e->kind == SM_E_BUILTIN && (e->builtin == SM_B_CTAID || e->builtin == SM_B_NCTAID);
	return hit ? SM_SEEN_HIT : SM_SEEN_GO;
}

/* Does e read blockIdx or gridDim (through a load's or a pointer's place
 * and a loop counter's start and step too)? Past the cap: taken to. */
static bool reads_grid(const struct sm_expr *e)
{
	struct sm_expr_walk w = { is_grid, NULL, SM_WALK_ADDR_PLACE | SM_WALK_LOAD_PLACE | SM_WALK_IVS,
				  SM_SCAN_EXPR_DEPTH, true };
	return sm_expr_any(e, &w);
}

static enum sm_seen is_other_counter(const struct sm_expr *e, void *own)
{
	if (e->kind == SM_E_LOOPVAR || e->kind == SM_E_PREV)
		return e->loop != own ? SM_SEEN_HIT : SM_SEEN_SKIP;
	return e->kind == SM_E_LOOPEXIT ? SM_SEEN_HIT : SM_SEEN_GO;
}

/* Does e read a loop counter other than own's (whose iteration the
 * verdict cannot pick)? Past the cap: taken to. */
static bool reads_other_loop(const struct sm_expr *e, const struct sm_loop *own)
{
	struct sm_expr_walk w = { is_other_counter, (void *)own, 0, SM_SCAN_EXPR_DEPTH, true };
	return sm_expr_any(e, &w);
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
	if (reads_grid(V->cond)) {
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
			sm_thread_ctx(&c, L->block, t);
			c.launch = L;
			if (L->grid_known)
				sm_thread_id(L->grid, blk, c.ctaid);
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

/* Every launch site of the kernel (K->site; the shapes instead when
 * --block-dim or the config fixes them) agrees (V_AGREE), one makes
 * threads of a block disagree (V_DIVERGE, *which), or some cannot be
 * evaluated. */
static enum verdict launch_verdict(const struct sm_kernel_launches *K, const struct sm_rstmt *r, bool loop,
				   const struct sm_launch_ctx **which)
{
	*which = NULL;
	/* the shapes the user fixed (--block-dim, the config's block-dim:)
	 * stand for the launches; else the launch sites */
	const struct sm_launch_ctx *ctx = K ? K->site : NULL;
	unsigned nctx = K ? K->nsites : 0;
	if (K && K->nshapes > 0 &&
	    (K->shape[0].block_from.kind == SM_LAUNCH_OPTION || K->shape[0].block_from.kind == SM_LAUNCH_CONFIG)) {
		ctx = K->shape;
		nctx = (unsigned)K->nshapes;
	}
	if (!K || !r || nctx == 0)
		return V_UNKNOWN;
	struct vjob V = { NULL, r->cond, NULL, 0 };
	if (loop) {
		const struct sm_loop *L = r->loop;
		if (!L || !L->cond || L->depth >= SM_MAX_LOOPS || reads_other_loop(L->cond, L))
			return V_UNKNOWN;
		for (int i = 0; i < L->niv; i++)
			if (reads_other_loop(L->ivs[i].init, L) || reads_other_loop(L->ivs[i].step, L))
				return V_UNKNOWN;
		V.cond = L->cond;
		V.loop = L;
	}
	if (!V.cond)
		return V_UNKNOWN;
	/* a condition that reads a loop's counter is evaluated at the first
	 * iteration only: threads that disagree there diverge, but agreeing
	 * there says nothing of a later iteration */
	bool first_only = !loop && reads_other_loop(V.cond, NULL);
	enum verdict all = V_AGREE;
	for (unsigned l = 0; l < nctx; l++) {
		V.L = &ctx[l];
		enum verdict v = launch_verdict_one(&V);
		if (v == V_DIVERGE) {
			*which = V.L->site ? V.L : NULL; /* a shape is no launch to name */
			return V_DIVERGE;
		}
		if (v == V_UNKNOWN)
			all = V_UNKNOWN;
	}
	return first_only && all == V_AGREE ? V_UNKNOWN : all;
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
	case SM_S_BLOCK: case SM_S_DECL: case SM_S_ASSIGN: case SM_S_IF: case SM_S_LOOP: case SM_S_SWITCH:
	case SM_S_ACCESS: case SM_S_OPAQUE_CALL: case SM_S_CALL:
		for (int i = 0; i < s->nkids; i++)
			if (holds_barrier_or_jump(s->kids[i], depth + 1))
				return true;
		return false;
	}
	return true; /* not a statement kind: taken to */
}

static const struct dcause *cond_cause(struct dw *W, const struct sm_stmt *s, enum sm_div_kind kind,
				       const struct dcause *in)
{
	if (!sm_stmt_cond_thread_dep(W->m, s))
		return in;
	const struct sm_rstmt *rc = sm_rstmt_find(W->m, s);
	if (rc && rc->cond && sm_expr_uniform_span_in(rc->cond, W->K) == 0)
		return in; /* a collective of what every tile reads alike (uniform.c) */
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

/* The return that ends every path through s (its last statement, or both
 * branches of a last if), else NULL. A return in an inlined call leaves
 * the call only. */
static const struct sm_stmt *always_returns(const struct sm_stmt *s, int depth)
{
	if (!s || depth > SM_CFG_MAX_DEPTH)
		return NULL;
	switch (s->kind) {
	case SM_S_RETURN:
		return s;
	case SM_S_BLOCK:
		return s->nkids > 0 ? always_returns(s->kids[s->nkids - 1], depth + 1) : NULL;
	case SM_S_IF:
		return s->nkids >= 2 && always_returns(s->kids[1], depth + 1) ? always_returns(s->kids[0], depth + 1) : NULL;
	case SM_S_GOTO: case SM_S_BREAK: case SM_S_CONTINUE: case SM_S_DECL: case SM_S_ASSIGN: case SM_S_LOOP:
	case SM_S_SWITCH: case SM_S_BARRIER: case SM_S_ACCESS: case SM_S_OPAQUE_CALL: case SM_S_CALL:
		break;
	}
	return NULL;
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
		/* a condition decided for every block shape (a constant, or a
		 * repeat of a guard in force: threads.c, as the race graph
		 * has it): only the arm it takes runs, and a barrier in the
		 * other never does */
		int taken = sm_cond_block_value(W->m, s, (struct sm_dim3){ 0, 0, 0 });
		int live = taken < 0 ? -1 : taken ? 0 : 1;
		const struct dcause *inner = live < 0 ? cond_cause(W, s, SM_DIV_IF, in) : in;
		for (int i = 0; i < s->nkids && i < 2; i++) {
			if (live >= 0 && i != live)
				continue;
			struct dexits kx = { 0 };
			dwalk(W, s->kids[i], inner, &kx, depth + 1);
			/* a branch every thread leaves by a return: which return
			 * a thread takes inside it does not matter after the
			 * if, only who entered it (if (!ids) { if (i > n)
			 * return; ...; return; } __syncthreads();) */
			const struct sm_stmt *last = kx.ret ? always_returns(s->kids[i], 0) : NULL;
			if (last)
				kx.ret = inner ? mkcause(W, SM_DIV_EXIT, inner->cond, last, inner->outer, inner->launch) : NULL;
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
		/* an mbarrier's wait: threads may wait on it in a branch */
		if (s->barrier != SM_BAR_MBARRIER)
			add_barrier(W, s, in);
		return in;
	case SM_S_DECL: case SM_S_ASSIGN: case SM_S_ACCESS: case SM_S_OPAQUE_CALL:
		for (int i = 0; i < s->nkids; i++)
			in = dwalk(W, s->kids[i], in, ex, depth + 1);
		return in;
	}
	return in;
}

/* Does barrier s, reached only by the threads for which e holds, split a
 * group of its scope (some threads of one group reach it, others not) in
 * a block of one of the given shapes? True when e cannot be evaluated for
 * every thread, or no shape is known. */
static bool splits_scope(const struct sm_stmt *s, const struct sm_expr *e, const struct sm_kernel_launches *K)
{
	if (!e || !K || K->nshapes <= 0)
		return true;
	int64_t span = sm_expr_uniform_span_in(e, K);
	if (span == 0 || sm_scope_within_runs(s, span, K))
		return false; /* alike in the block, or in each tile holding a group (uniform.c) */
	for (int bi = 0; bi < K->nshapes; bi++) {
		struct sm_dim3 B = K->shape[bi].block;
		if (B.x < 1 || B.y < 1 || B.z < 1)
			return true;
		int64_t nt = B.x * B.y * B.z;
		if (nt > SM_MAX_BLOCK_THREADS)
			return true;
		int64_t cur = -1, val = 0;
		for (int64_t t = 0; t < nt; t++) {
			int64_t g = sm_scope_group(s, t);
			if (g < 0)
				continue;
			struct sm_eval_ctx c;
			sm_thread_ctx(&c, B, t);
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

/* bar.sync id, count that exactly `count` threads in whole warps reach,
 * in every block shape of K (sm_count_members): the warps that arrive are
 * the ones it waits for, whichever they are (a consumer warpgroup's
 * named barrier). */
static bool count_exact(const struct sm_kernel_model *m, const struct sm_stmt *s, const struct sm_kernel_launches *K)
{
	const struct sm_rstmt *r = sm_rstmt_find(m, s);
	if (!r || !K || K->nshapes <= 0)
		return false;
	for (int bi = 0; bi < K->nshapes; bi++) {
		struct sm_dim3 B = K->shape[bi].block;
		int64_t nt = B.x * B.y * B.z;
		if (B.x < 1 || B.y < 1 || B.z < 1 || nt > SM_MAX_BLOCK_THREADS)
			return false;
		unsigned char mem[SM_MAX_BLOCK_THREADS];
		if (!sm_count_members(r, s, B, mem))
			return false;
	}
	return true;
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
	if (s->scope == SM_SCOPE_COUNT && count_exact(m, s, K))
		return NULL; /* the threads that reach it are the count */
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
