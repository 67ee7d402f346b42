/* cfg.c - the control-flow graph the race search walks (see cfg.h): one
 * node per shared access, barrier, branch and loop latch of the kernel
 * body (device calls inlined), built once per kernel and block shape.
 * Paths between accesses that meet no barrier ordering a pair of threads
 * are what makes two accesses concurrent; loops are entered at their first
 * check and leave by their head's exit edge. */
#include "engine/cfg.h"
#include "base/grow.h"
#include "engine/visit.h"

#include <stdlib.h>
#include <string.h>

/* A loop counter or a pointer; a load's value varies where its address
 * does (its place is followed). */
static enum sm_seen is_loop_dependent(const struct sm_expr *e, void *arg)
{
	bool hit = e->kind == SM_E_LOOPVAR || e->kind == SM_E_LOOPEXIT || e->kind == SM_E_ADDR;
	return hit ? SM_SEEN_HIT : SM_SEEN_GO;
}

bool sm_stmt_exits(const struct sm_stmt *s)
{
	if (!s)
		return false;
	switch (s->kind) {
	case SM_S_RETURN:
	case SM_S_BREAK:
	case SM_S_CONTINUE:
	case SM_S_GOTO:
		return true;
	case SM_S_BLOCK:
		return s->nkids > 0 && sm_stmt_exits(s->kids[s->nkids - 1]);
	case SM_S_IF:
		return s->nkids >= 2 && sm_stmt_exits(s->kids[0]) && sm_stmt_exits(s->kids[1]);
	case SM_S_DECL: case SM_S_ASSIGN: case SM_S_LOOP: case SM_S_SWITCH: case SM_S_BARRIER: case SM_S_ACCESS:
	case SM_S_OPAQUE_CALL: case SM_S_CALL:
		break;
	}
	return false;
}

bool sm_stmt_writes_nothing(const struct sm_stmt *s)
{
	if (!s)
		return true;
	switch (s->kind) {
	case SM_S_ACCESS:
		return s->access && s->access->kind == SM_ACC_LOAD;
	case SM_S_DECL:
	case SM_S_ASSIGN:
		return true;
	case SM_S_BLOCK:
	case SM_S_IF:
		/* e.g. the front end's `if (a) load` for the loads of b in a && b */
		for (int i = 0; i < s->nkids; i++)
			if (!sm_stmt_writes_nothing(s->kids[i]))
				return false;
		return true;
	case SM_S_LOOP: case SM_S_SWITCH: case SM_S_BARRIER: case SM_S_OPAQUE_CALL: case SM_S_CALL:
	case SM_S_RETURN: case SM_S_BREAK: case SM_S_CONTINUE: case SM_S_GOTO:
		break;
	}
	return false;
}

bool sm_expr_refs_loops(const struct sm_expr *e)
{
	struct sm_expr_walk w = { is_loop_dependent, NULL, SM_WALK_LOAD_PLACE, SM_SCAN_EXPR_DEPTH, true };
	return sm_expr_any(e, &w);
}

/* Does loop s surely run its first iteration in every thread? (Its
 * condition at iteration 0 is decidable and true for the whole block, and
 * depends on no other loop's counter.) */
static bool runs_once(const struct sm_cfg *G, const struct sm_stmt *s)
{
	if (s->is_do_while || !s->cond)
		return true;
	const struct sm_rstmt *r = sm_rstmt_find(G->m, s);
	if (!r || !r->loop || !r->loop->cond || r->loop->depth >= SM_MAX_LOOPS)
		return false;
	const struct sm_loop *L = r->loop;
	for (int i = 0; i < L->niv; i++)
		if (sm_expr_refs_loops(L->ivs[i].init) || sm_expr_refs_loops(L->ivs[i].step))
			return false;
	int64_t nt = G->block.x * G->block.y * G->block.z;
	for (int64_t t = 0; t < nt; t++) {
		struct sm_eval_ctx c;
		sm_thread_ctx(&c, G->block, t);
		c.strict = 1;
		c.budget = SM_EVAL_BUDGET_COND;
		int64_t v = sm_eval(L->cond, &c);
		if (c.err || !v)
			return false;
	}
	return true;
}

/* The membership of bar.sync id, count (sm_count_members), malloc'd, or
 * NULL: the barrier is then taken as the first `count` threads
 * (scope_group), as the hardware would if no other warps arrive first. */
static unsigned char *count_members(const struct sm_cfg *G, const struct sm_stmt *s)
{
	unsigned char *mem = malloc((size_t)G->nthreads);
	if (mem && !sm_count_members(sm_rstmt_find(G->m, s), s, G->block, mem)) {
		free(mem);
		mem = NULL;
	}
	return mem;
}

static int cloop(struct sm_cfg *G, int head, int latch)
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

static int cnew(struct sm_cfg *G, int kind)
{
	if (SM_ALLOC_GROW(G->n, (size_t)G->nn + 1, G->cap)) {
		G->failed = 1;
		return -1;
	}
	struct sm_cnode *c = &G->n[G->nn];
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->loop = -1;
	return G->nn++;
}

static void cedge(struct sm_cfg *G, int from, int to)
{
	if (from < 0 || to < 0 || G->failed)
		return;
	struct sm_cnode *c = &G->n[from];
	if (c->nsucc < 2)
		c->succ[c->nsucc++] = to;
}

/* Does s hold a goto (deep trees: taken to)? */
static bool has_goto(const struct sm_stmt *s, int depth)
{
	if (!s)
		return false;
	if (s->kind == SM_S_GOTO || depth > SM_CFG_MAX_DEPTH)
		return true;
	for (int i = 0; i < s->nkids; i++)
		if (has_goto(s->kids[i], depth + 1))
			return true;
	return false;
}

/* Build the nodes of s, which continues at `next`. Returns s's entry. */
static int cbuild(struct sm_cfg *G, const struct sm_stmt *s, int next, int brk, int cont, int depth)
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
		/* a condition every thread of the block decides alike takes
		 * one arm only (if (threadIdx.x < 256) under 256 threads);
		 * not where an arm holds a goto, which the graph sends to the
		 * end although it may jump back */
		int taken = has_goto(s, 0) ? -1 : sm_cond_block_value(G->m, s, G->block);
		/* the last statement of a loop body whose empty arm is taken
		 * exactly when the loop ends (if (j < n - 1) __syncthreads();
		 * in for (j = 0; j < n; ++j)): that arm leaves the loop, it
		 * never reaches the next iteration */
		if (taken < 0 && G->lp && next == G->lp_latch && (e == next || t == next) && e != t && !has_goto(s, 0)) {
			int cont = sm_cond_continues_loop(G->m, s, G->lp, G->block);
			if (cont == 1 && e == next)
				e = G->lp_exit;
			else if (cont == 0 && t == next)
				t = G->lp_exit;
		}
		if (taken != 0)
			cedge(G, c, t);
		if (e != t && taken != 1)
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
		const struct sm_stmt *olp = G->lp;
		int olatch = G->lp_latch, oexit = G->lp_exit;
		G->lp = s;
		G->lp_latch = latch;
		G->lp_exit = next;
		int step = cbuild(G, s->nkids > 2 ? s->kids[2] : NULL, latch, brk, cont, depth + 1);
		int body = cbuild(G, s->nkids > 1 ? s->kids[1] : NULL, step, next, step, depth + 1);
		G->lp = olp;
		G->lp_latch = olatch;
		G->lp_exit = oexit;
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
		if (G->mode != SM_CFG_BLOCK) {
			int c = cnew(G, G->mode == SM_CFG_CLUSTER && s->cluster ? CN_BARRIER : CN_PLAIN);
			cedge(G, c, next);
			return c;
		}
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
	case SM_S_DECL: case SM_S_ASSIGN: case SM_S_OPAQUE_CALL: {
		if (G->mode == SM_CFG_PROXY && s->proxy_fence) {
			int c = cnew(G, CN_BARRIER);
			cedge(G, c, next);
			return c;
		}
		int n = next;
		for (int i = s->nkids - 1; i >= 0; i--)
			n = cbuild(G, s->kids[i], n, brk, cont, depth + 1);
		return n;
	}
	}
	return next;
}

/* Is there a path from node a (leaving it) to node b that meets no
 * barrier ordering the pair (see sm_cfg_blocks) and no latch of a loop
 * marked in closed[]? When phase_loop >= 0 the path must take that loop's
 * latch (b in a later iteration of it) and that latch is open. b < 0: the
 * whole reachable set, left in W (sm_cfg_seen). Each node visited counts
 * one step of W's budget; once it is spent the walk answers false. */
bool sm_cfg_reach(const struct sm_cfg *G, int a, int b, const unsigned char *closed, int phase_loop, uint32_t ord,
		  struct sm_cfg_walk *W)
{
	if (++W->gen == 0) {
		/* the counter wrapped: start the marks afresh */
		memset(W->mark, 0, (size_t)G->nn * 2 * sizeof(*W->mark));
		W->gen = 1;
	}
	unsigned gen = W->gen;
	int sp = 0;
	int *stack = W->stack;
	/* state = node * 2 + phase */
	for (int i = 0; i < G->n[a].nsucc; i++)
		stack[sp++] = G->n[a].succ[i] * 2;
	while (sp > 0) {
		int st = stack[--sp];
		int v = st / 2, ph = st % 2;
		const struct sm_cnode *c = &G->n[v];
		if (W->work && ++W->work->used >= W->work->limit && sm_work_over(W->work))
			return false; /* spent: the search stops at its next check */
		if (sm_cfg_blocks(c, ord))
			continue;
		if (c->kind == CN_LATCH) {
			if (c->loop == phase_loop)
				ph = 1;
			else if (closed[c->loop])
				continue;
		}
		st = v * 2 + ph;
		if (W->mark[st] == gen)
			continue;
		W->mark[st] = gen;
		if (v == b && ph == (phase_loop >= 0 ? 1 : 0))
			return true;
		for (int i = 0; i < c->nsucc; i++)
			if (sp < G->nn * 2)
				stack[sp++] = c->succ[i] * 2 + ph;
	}
	return false;
}

/* Can one iteration of loop li run with no barrier (a barrier-free path
 * from its head back to it)? closed[] is scratch of nloops entries. */
bool sm_cfg_free_cycle(const struct sm_cfg *G, int li, uint32_t ord, unsigned char *closed, struct sm_cfg_walk *W)
{
	memset(closed, 0, (size_t)G->nloops);
	for (int p = G->loops[li].parent; p >= 0; p = G->loops[p].parent)
		closed[p] = 1;
	return sm_cfg_reach(G, G->loops[li].head, G->loops[li].head, closed, li, ord, W);
}

/* The scopes (bits of cfg.scopes) whose barriers order threads a and b. */
uint32_t sm_cfg_pair_ord(const struct sm_cfg *G, int64_t a, int64_t b)
{
	uint32_t o = 0;
	for (int i = 0; i < G->nscopes; i++)
		if (G->members[i] ? G->members[i][a] && G->members[i][b] : sm_scope_orders(G->scopes[i], a, b))
			o |= (uint32_t)1 << i;
	return o;
}

static int build(struct sm_cfg *G, const struct sm_kernel_model *m, struct sm_dim3 block, unsigned nacc,
		 enum sm_cfg_mode mode)
{
	memset(G, 0, sizeof(*G));
	G->mode = mode;
	G->nacc = nacc;
	G->acc_node_of = malloc((nacc + 1) * sizeof(int));
	G->acc_nloops = calloc(nacc + 1, sizeof(int));
	G->acc_loops = calloc(nacc + 1, sizeof(*G->acc_loops));
	if (!G->acc_node_of || !G->acc_nloops || !G->acc_loops)
		return -1;
	for (unsigned i = 0; i < nacc; i++)
		G->acc_node_of[i] = -1;
	G->m = m;
	G->block = block;
	if (G->block.x < 1) G->block.x = 1;
	if (G->block.y < 1) G->block.y = 1;
	if (G->block.z < 1) G->block.z = 1;
	G->nthreads = G->block.x * G->block.y * G->block.z;
	G->exit = cnew(G, CN_PLAIN);
	G->ret = -1;
	G->lp = NULL;
	int entry = cbuild(G, m->kernel->body, G->exit, -1, -1, 0);
	return G->failed ? -1 : entry;
}

int sm_cfg_build(struct sm_cfg *G, const struct sm_kernel_model *m, struct sm_dim3 block, unsigned nacc)
{
	return build(G, m, block, nacc, SM_CFG_BLOCK);
}

int sm_cfg_build_for(struct sm_cfg *G, const struct sm_kernel_model *m, struct sm_dim3 block, unsigned nacc,
		     enum sm_cfg_mode mode)
{
	return build(G, m, block, nacc, mode);
}

void sm_cfg_free(struct sm_cfg *G)
{
	free(G->n);
	free(G->acc_node_of);
	free(G->acc_nloops);
	free(G->acc_loops);
	free(G->loops);
	for (int i = 0; i < G->nscopes; i++)
		free(G->members[i]);
	memset(G, 0, sizeof(*G));
}

int sm_cfg_walk_init(struct sm_cfg_walk *W, const struct sm_cfg *G, struct sm_work *work)
{
	memset(W, 0, sizeof(*W));
	W->work = work;
	W->mark = calloc((size_t)G->nn * 2 + 1, sizeof(*W->mark));
	W->stack = malloc(((size_t)G->nn * 2 + 1) * sizeof(int));
	return W->mark && W->stack ? 0 : -1;
}

void sm_cfg_walk_free(struct sm_cfg_walk *W)
{
	free(W->mark);
	free(W->stack);
}

/* ---- barrier intervals (see cfg.h) ---- */

void sm_ivals_free(struct sm_ivals *I)
{
	for (int w = 0; w < I->nord && I->bits; w++)
		free(I->bits[w]);
	free(I->bits);
}

int sm_ivals_build(const struct sm_cfg *G, int entry, const int *acc_at, const uint32_t *ords, int nord,
		       struct sm_ivals *I, struct sm_cfg_walk *W)
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
			if (v >= 0 && !sm_cfg_blocks(&G->n[v], ords[w]))
				continue; /* a barrier that does not order the pair is no start */
			if (++W->gen == 0) {
				memset(W->mark, 0, (size_t)G->nn * 2 * sizeof(*W->mark));
				W->gen = 1;
			}
			int *stack = W->stack;
			int sp = 0;
			if (v < 0)
				stack[sp++] = entry;
			else
				for (int i = 0; i < G->n[v].nsucc; i++)
					stack[sp++] = G->n[v].succ[i];
			while (sp > 0) {
				int u = stack[--sp];
				if (u < 0 || W->mark[u * 2] == W->gen)
					continue;
				W->mark[u * 2] = W->gen;
				if (W->work && ++W->work->used >= W->work->limit && sm_work_over(W->work))
					return 0; /* spent: the search that follows stops at once */
				const struct sm_cnode *c = &G->n[u];
				if (sm_cfg_blocks(c, ords[w]))
					continue;
				if (c->kind == CN_ACCESS && acc_at[u] >= 0)
					I->bits[w][(size_t)acc_at[u] * I->nwords + me / 64] |= (uint64_t)1 << (me % 64);
				if (c->kind == CN_LATCH) {
					/* leave the loop: its head's exit edge only */
					const struct sm_cnode *h = &G->n[G->loops[c->loop].head];
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

bool sm_ivals_meet(const struct sm_ivals *I, int w, unsigned a, unsigned b)
{
	const uint64_t *x = &I->bits[w][(size_t)a * I->nwords], *y = &I->bits[w][(size_t)b * I->nwords];
	for (int i = 0; i < I->nwords; i++)
		if (x[i] & y[i])
			return true;
	return false;
}
