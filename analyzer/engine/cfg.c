/* cfg.c - the control-flow graph the race search walks (see cfg.h): one
 * node per shared access, barrier, branch and loop latch of the kernel
 * body (device calls inlined), built once per kernel and block shape.
 * Paths between accesses that meet no barrier ordering a pair of threads
 * are what makes two accesses concurrent; loops are entered at their first
 * check and leave by their head's exit edge. */
#include "engine/cfg.h"
#include "base/grow.h"

#include <stdlib.h>
#include <string.h>

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
	G->loops[li].rl = NULL;
	G->loops[li].var = -1;
	G->loops[li].reset = 0;
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
	c->cvar = c->lvar = -1;
	c->first = c->later = -1;
	c->in_if = G->at_if;
	c->in_then = G->at_then;
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

/* IF node c (succ[0] its true arm, succ[1] its false arm) on s's
 * condition: a candidate for a path variable when the condition is one a
 * path keeps (sm_cond_path_facts) and reads only loops the graph is in. */
static void note_cif(struct sm_cfg *G, int c, const struct sm_stmt *s)
{
	const struct sm_rstmt *r = sm_rstmt_find(G->m, s);
	struct sm_cond_path f;
	if (!r || !r->cond || !sm_cond_path_facts(r->cond, G->block, &f))
		return;
	struct sm_cif k = { .node = c, .cond = r->cond, .loop = -1, .first = -1, .later = -1, .per_run = f.per_run };
	int in = G->depth <= SM_MAX_LOOPS + 1 ? G->depth : SM_MAX_LOOPS + 1;
	for (int i = 0; i < f.nloops; i++) {
		int d = 0;
		while (d < in && G->loops[G->stack[d]].rl != f.loops[i])
			d++;
		if (d == in)
			return; /* not a loop the IF is in, as the graph sees it */
		k.loops[k.nloops++] = G->stack[d];
	}
	if (f.nloops == 1 && (f.first >= 0 || f.later >= 0)) {
		k.loop = k.loops[0];
		k.first = (signed char)f.first;
		k.later = (signed char)f.later;
	}
	if (SM_ALLOC_GROW(G->cifs, (size_t)G->ncifs + 1, G->capcifs)) {
		G->failed = 1;
		return;
	}
	G->cifs[G->ncifs++] = k;
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
		int at_if = G->at_if;
		bool at_then = G->at_then;
		G->at_if = c;
		G->at_then = true;
		int t = cbuild(G, s->nkids > 0 ? s->kids[0] : NULL, next, brk, cont, depth + 1);
		G->at_then = false;
		int e = cbuild(G, s->nkids > 1 ? s->kids[1] : NULL, next, brk, cont, depth + 1);
		G->at_if = at_if;
		G->at_then = at_then;
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
		if (taken < 0 && c >= 0 && G->n[c].nsucc == 2 && !has_goto(s, 0))
			note_cif(G, c, s);
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
		const struct sm_rstmt *rs = sm_rstmt_find(G->m, s);
		G->loops[li].rl = rs ? rs->loop : NULL;
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
		if (first >= 0) {
			G->n[first].loop = li;
			G->n[first].enter = true;
		}
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

/* Path variable v of context x. */
static inline int pv_get(const struct sm_cfg *G, int x, int v)
{
	return x / G->pv_pow[v] % 3;
}

static inline int pv_set(const struct sm_cfg *G, int x, int v, int val)
{
	return x + (val - pv_get(G, x, v)) * G->pv_pow[v];
}

/* Context x on arriving at c: a loop entered is at its first iteration,
 * one whose latch is taken at a later one, and the conditions reading its
 * counter are forgotten either way. */
static int pv_arrive(const struct sm_cfg *G, const struct sm_cnode *c, int x)
{
	if (!G->npv || c->loop < 0 || (c->kind != CN_LATCH && !c->enter))
		return x;
	const struct sm_cloop *L = &G->loops[c->loop];
	for (int v = 0; v < G->npv; v++)
		if (L->reset >> v & 1)
			x = pv_set(G, x, v, 0);
	if (L->var >= 0)
		x = pv_set(G, x, L->var, c->enter ? SM_PV_FIRST : SM_PV_LATER);
	return x;
}

/* The context leaving c by its successor i, or -1 when no thread takes
 * that arm in context x. */
static int pv_leave(const struct sm_cfg *G, const struct sm_cnode *c, int i, int x)
{
	if (c->cvar < 0 && c->lvar < 0)
		return x;
	int arm = i == 0; /* succ[0]: the condition holds */
	if (c->lvar >= 0) {
		int it = pv_get(G, x, c->lvar);
		int known = it == SM_PV_FIRST ? c->first : it == SM_PV_LATER ? c->later : -1;
		if (known >= 0 && known != arm)
			return -1;
	}
	if (c->cvar >= 0) {
		int val = pv_get(G, x, c->cvar);
		if (val && val != (arm ? SM_PV_TRUE : SM_PV_FALSE))
			return -1;
		x = pv_set(G, x, c->cvar, arm ? SM_PV_TRUE : SM_PV_FALSE);
	}
	return x;
}

/* The context a walk starting at node a begins in: the arms of the IFs
 * on path variables that a lies in were taken to reach it (a write under
 * `if (flag) {} else`, a read under `if (flag)`: no thread runs both). */
static int pv_entry(const struct sm_cfg *G, int a)
{
	int x = 0;
	if (!G->npv)
		return 0;
	for (int f = G->n[a].in_if, arm = G->n[a].in_then, k = 0; f >= 0 && k < G->nn;
	     arm = G->n[f].in_then, f = G->n[f].in_if, k++) {
		const struct sm_cnode *c = &G->n[f];
		if (c->cvar >= 0 && !pv_get(G, x, c->cvar))
			x = pv_set(G, x, c->cvar, arm ? SM_PV_TRUE : SM_PV_FALSE);
	}
	return x;
}

/* Push c's successors in phase ph and context x. */
static void push_succ(const struct sm_cfg *G, struct sm_cfg_walk *W, const struct sm_cnode *c, int ph, int x,
		      int *sp)
{
	for (int i = 0; i < c->nsucc; i++) {
		int y = pv_leave(G, c, i, x);
		if (y >= 0 && (size_t)*sp < W->cap)
			W->stack[(*sp)++] = (c->succ[i] * 2 + ph) * G->nctx + y;
	}
}

/* Is there a path from node a (leaving it) to node b that meets no
 * barrier ordering the pair (see sm_cfg_blocks) and no latch of a loop
 * marked in closed[]? When phase_loop >= 0 the path must take that loop's
 * latch (b in a later iteration of it) and that latch is open. b < 0: the
 * whole reachable set, left in W (sm_cfg_seen). Paths no thread runs (an
 * arm its path variables rule out) are not taken. Each state visited
 * counts one step of W's budget; once it is spent the walk answers
 * false. */
bool sm_cfg_reach(const struct sm_cfg *G, int a, int b, const unsigned char *closed, int phase_loop, uint32_t ord,
		  struct sm_cfg_walk *W)
{
	if (++W->gen == 0) {
		/* the counter wrapped: start the marks afresh */
		memset(W->mark, 0, (size_t)G->nn * 2 * G->nctx * sizeof(*W->mark));
		W->gen = 1;
	}
	unsigned gen = W->gen;
	int sp = 0;
	/* an entry: (node * 2 + phase) * nctx + context */
	push_succ(G, W, &G->n[a], 0, pv_entry(G, a), &sp);
	while (sp > 0) {
		int st = W->stack[--sp];
		int x = st % G->nctx;
		int v = st / G->nctx / 2, ph = st / G->nctx % 2;
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
		x = pv_arrive(G, c, x);
		size_t at = (size_t)(v * 2 + ph) * G->nctx + x;
		if (W->mark[at] == gen)
			continue;
		W->mark[at] = gen;
		if (v == b && ph == (phase_loop >= 0 ? 1 : 0))
			return true;
		push_succ(G, W, c, ph, x, &sp);
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

/* One more path variable, if the walks' states stay within
 * SM_CFG_PATH_STATES: its index, or -1. */
static int pv_new(struct sm_cfg *G)
{
	if (G->npv >= SM_CFG_PATH_VARS || (size_t)G->nn * 2 * (size_t)G->nctx * 3 > SM_CFG_PATH_STATES)
		return -1;
	G->pv_pow[G->npv] = G->nctx;
	G->nctx *= 3;
	return G->npv++;
}

/* Choose the path variables from the IFs noted: first the loops whose
 * iteration decides an IF (`if (t == 0)` in `for (t = 0; ...)`), then the
 * conditions two or more IFs test, in the order the graph was built. */
static void choose_path_vars(struct sm_cfg *G)
{
	for (int i = 0; i < G->ncifs; i++) {
		struct sm_cif *k = &G->cifs[i];
		if (k->loop < 0)
			continue;
		struct sm_cloop *L = &G->loops[k->loop];
		if (L->var < 0 && (L->var = pv_new(G)) < 0)
			break;
		struct sm_cnode *c = &G->n[k->node];
		c->lvar = L->var;
		c->first = k->first;
		c->later = k->later;
	}
	for (int i = 0; i < G->ncifs; i++) {
		struct sm_cif *k = &G->cifs[i];
		if (G->n[k->node].cvar >= 0)
			continue; /* in a class already */
		int same = 0;
		for (int j = i + 1; j < G->ncifs; j++)
			same += sm_expr_same(G->cifs[j].cond, k->cond);
		if (!same)
			continue;
		int v = pv_new(G);
		if (v < 0)
			break;
		for (int j = i; j < G->ncifs; j++) {
			if (j != i && !sm_expr_same(G->cifs[j].cond, k->cond))
				continue;
			G->n[G->cifs[j].node].cvar = v;
			/* forgotten where an iteration of a loop it reads starts
			 * (of any loop, for a value a statement defines) */
			for (int l = 0; l < G->cifs[j].nloops; l++)
				G->loops[G->cifs[j].loops[l]].reset |= 1u << v;
			for (int l = 0; l < G->nloops && G->cifs[j].per_run; l++)
				G->loops[l].reset |= 1u << v;
		}
	}
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
	G->at_if = -1;
	G->exit = cnew(G, CN_PLAIN);
	G->ret = -1;
	G->lp = NULL;
	G->nctx = 1;
	int entry = cbuild(G, m->kernel->body, G->exit, -1, -1, 0);
	if (!G->failed)
		choose_path_vars(G);
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
	free(G->cifs);
	for (int i = 0; i < G->nscopes; i++)
		free(G->members[i]);
	memset(G, 0, sizeof(*G));
}

int sm_cfg_walk_init(struct sm_cfg_walk *W, const struct sm_cfg *G, struct sm_work *work)
{
	memset(W, 0, sizeof(*W));
	W->work = work;
	W->nctx = G->nctx;
	size_t states = (size_t)G->nn * 2 * (size_t)G->nctx;
	/* a state pushes at most two and is popped once: states + 2 entries */
	W->cap = states + 4;
	W->mark = calloc(states + 1, sizeof(*W->mark));
	W->stack = malloc(W->cap * sizeof(int));
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
				memset(W->mark, 0, (size_t)G->nn * 2 * G->nctx * sizeof(*W->mark));
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
				/* context 0 of phase 0: the intervals keep no path */
				size_t at = (size_t)u * 2 * G->nctx;
				if (u < 0 || W->mark[at] == W->gen)
					continue;
				W->mark[at] = W->gen;
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
