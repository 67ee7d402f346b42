/* races.c - the race search (see threaddep.h sm_kernel_races_in): pairs of
 * shared accesses that two threads of one block can run with no barrier
 * ordering them between (a path in cfg.c's graph), touching one element,
 * at least one a store. Per pair it enumerates the loop iterations that
 * matter and the threads, with a witness checked under every assignment
 * of the uniform unknowns. */
#include "engine/cfg.h"
#include "engine/raceindex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* caps: SM_RACE_ITER_CAP, SM_RACE_UNKNOWN_ITER, SM_RACE_LEAVES,
 * SM_RACE_EVALS, SM_RACE_TRIES (base/limits.h) */
#define RACE_SEED 2            /* the assignment of uniform unknowns searched */

/* Assignments of uniform unknowns a witness must hold under (eval.c's
 * seeds 0, 1 and 2 give them 1, 32 and assorted values): an overlap that
 * depends on a parameter's value (a carve offset) is not reported. */
static const unsigned race_seeds[] = { 0, 1, 2 };

struct slot {
	const struct sm_loop *L;
	int side;                  /* 0 both equal, 1 a only, 2 b only, 3 a=k b=k+1 */
	bool edge;                 /* side 1: a's last iteration only; side 2: b's first only */
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
	struct sm_taddr *sorted;        /* the threads that run it (st 1) by address,
	                            * made on first use; NULL: not yet */
	int nsorted;
};

/* hash chains of the address memo (a power of two): a long kernel keeps
 * tens of thousands of vectors (accesses x iterations x seeds) */
#define MEMO_BUCKETS 16384

struct addr_memo {
	const struct sm_kernel_model *m;
	struct sm_dim3 block;
	int nthreads;
	struct addr_vec *bucket[MEMO_BUCKETS];
	size_t bytes;              /* kept addresses (SM_RACE_MEMO_BYTES) */
	size_t sorted_bytes;       /* kept sorted copies (SM_RACE_MEMO_BYTES too) */
	struct addr_vec scratch;   /* used when the memo is full */
	struct sm_guard_memo *gm;  /* guard values, shared by the accesses */
	struct sm_work *work;      /* the file's analysis budget, or NULL */
};

static void memo_free(struct addr_memo *M)
{
	for (int i = 0; i < MEMO_BUCKETS; i++) {
		struct addr_vec *v = M->bucket[i];
		while (v) {
			struct addr_vec *n = v->next;
			free(v->addr);
			free(v->st);
			free(v->sorted);
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
	h &= MEMO_BUCKETS - 1;
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
		*v = (struct addr_vec){ key.acc, c->seed, key.niter, { 0 }, v->addr, v->st, M->bucket[h], NULL, 0 };
		memcpy(v->iter, key.iter, sizeof(key.iter));
		M->bucket[h] = v;
		M->bytes += need;
	}
	sm_access_addr_threads(ra, c, M->block, M->nthreads, v->addr, v->st);
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
	struct sm_taddr *ea;       /* a's addresses, sorted */
	int nea;
	struct sm_taddr *ew;       /* the same warp by warp (intra-warp search) */
	int wstart[SM_MAX_BLOCK_THREADS / SM_WARP + 1];
	const struct sm_cfg *G;
	bool want_inter;           /* look for threads of different warps */
	uint32_t want_ord;         /* ... that exactly these scopes order */
	int64_t skip_span;         /* > 1: no two threads of one run of this many
	                            * (they store one value: uniform.c) */
	bool found;
	bool truncated;
	bool umask_set;            /* umask computed */
	uint64_t umask;            /* the uniform unknowns both addresses read */
	unsigned leaves;
	unsigned long evals;
	int lin_a, lin_b;
	int64_t addr;
};



/* Does any thread run loop L at the iterations in c? 1 yes, 0 no, -1 unknown. */
static int any_runs(struct rjob *J, const struct sm_loop *L, struct sm_eval_ctx *c)
{
	int unknown = 0;
	for (int t = 0; t < J->nthreads; t++) {
		struct sm_eval_ctx lc = *c;
		sm_thread_id(J->block, t, lc.tid);
		bool every = false;
		int r = sm_loop_cond_lanes(L, &lc, &every);
		J->evals++;
		if (every)
			return r; /* a uniform condition: every thread's */
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

/* The threads of a kept address vector that run its access, by address:
 * sorted once and kept with the vector (the same vector serves many pairs).
 * NULL when it cannot be kept (the scratch vector, the memo full). */
static const struct sm_taddr *sorted_of(struct addr_memo *M, const struct addr_vec *cv)
{
	struct addr_vec *v = (struct addr_vec *)cv;
	if (v == &M->scratch)
		return NULL;
	if (v->sorted)
		return v->sorted;
	/* a budget of their own: taken from the addresses' budget, they left
	 * fewer vectors kept, and those were computed again */
	size_t need = (size_t)M->nthreads * sizeof(struct sm_taddr);
	if (M->sorted_bytes + need > SM_RACE_MEMO_BYTES || !(v->sorted = malloc(need ? need : 1)))
		return NULL;
	M->sorted_bytes += need;
	v->nsorted = 0;
	for (int t = 0; t < M->nthreads; t++)
		if (v->st[t] == 1)
			v->sorted[v->nsorted++] = (struct sm_taddr){ v->addr[t], t };
	sm_taddr_sort(v->sorted, v->nsorted);
	return v->sorted;
}

static void compute_a(struct rjob *J)
{
	J->nea = 0;
	const struct addr_vec *va = memo_get(J->memo, J->ra, &J->ca, &J->evals);
	if (!va)
		return;
	bool edge = false;
	for (int s = 0; s < J->a_done && !edge; s++)
		edge = J->slots[s].side == 1 && J->slots[s].edge;
	const struct sm_taddr *sorted = edge ? NULL : sorted_of(J->memo, va);
	if (sorted) {
		/* every thread that runs it: the kept order */
		J->nea = va->nsorted;
		memcpy(J->ea, sorted, (size_t)J->nea * sizeof(*J->ea));
		if (J->memo->work)
			J->memo->work->used += (uint64_t)J->nthreads + (uint64_t)J->nea;
		return;
	}
	for (int t = 0; t < J->nthreads; t++) {
		if (va->st[t] != 1)
			continue;
		struct sm_eval_ctx c = J->ca;
		sm_thread_id(J->block, t, c.tid);
		if (a_at_edge(J, &c)) {
			J->ea[J->nea].addr = va->addr[t];
			J->ea[J->nea].lin = t;
			J->nea++;
		}
	}
	sm_taddr_sort(J->ea, J->nea);
	if (J->memo->work)
		J->memo->work->used += (uint64_t)J->nthreads + (uint64_t)J->nea;
}

/* Do threads la (running a) and lb (running b) touch the same bytes at the
 * current iterations under every assignment of the uniform unknowns? */
static bool verify(struct rjob *J, int la, int lb)
{
	int64_t wa = J->ra->width ? J->ra->width : 1, wb = J->rb->width ? J->rb->width : 1;
	if (sm_arms_exclusive(J->ra, &J->ca, la, J->rb, &J->cb, lb, J->block))
		return false; /* opposite arms of one condition alike for both */
	for (size_t i = 0; i < sizeof(race_seeds) / sizeof(race_seeds[0]); i++) {
		struct sm_eval_ctx c1 = J->ca, c2 = J->cb;
		c1.seed = c2.seed = race_seeds[i];
		sm_thread_id(J->block, la, c1.tid);
		sm_thread_id(J->block, lb, c2.tid);
		int64_t x, y;
		if (sm_access_addr(J->ra, NULL, &c1, &x) != 1 || sm_access_addr(J->rb, NULL, &c2, &y) != 1)
			return false;
		if (!(x < y + wb && y < x + wa))
			return false;
		/* a loop bound on an unknown the addresses read must hold at the
		 * value the addresses took */
		if (!J->umask_set) {
			J->umask = sm_access_unknowns(J->ra, c1.launch) | sm_access_unknowns(J->rb, c2.launch);
			J->umask_set = true;
		}
		if (J->umask && (sm_access_loop_contradicts(J->ra, &c1, J->umask) ||
				 sm_access_loop_contradicts(J->rb, &c2, J->umask)))
			return false;
	}
	return true;
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
	if (J->memo->work)
		J->memo->work->used += (uint64_t)J->nthreads; /* the threads tried */
	int near = 0; /* the previous thread's first entry */
	for (int t = 0; t < J->nthreads && !J->found; t++) {
		if (vb->st[t] != 1)
			continue;
		int64_t b = vb->addr[t];
		/* a's entries with addr in (b - wa, b + wb); within t's warp
		 * alone when the partner must share it (the same candidates,
		 * in the same order) */
		const struct sm_taddr *E = J->want_inter ? J->ea : J->ew;
		int from = J->want_inter ? 0 : J->wstart[t / SM_WARP];
		int end = J->want_inter ? J->nea : J->wstart[t / SM_WARP + 1];
		int lo = near = sm_taddr_first_above(E, from, end, near, b - wa);
		int tries = 0;
		for (int i = lo; i < end && E[i].addr < b + wb && tries < SM_RACE_TRIES; i++) {
			int la = E[i].lin;
			if (la == t)
				continue;
			bool inter = la / SM_WARP != t / SM_WARP;
			if (inter != J->want_inter || sm_cfg_pair_ord(J->G, la, t) != J->want_ord)
				continue;
			if (J->skip_span > 1 && la / J->skip_span == t / J->skip_span)
				continue;
			tries++;
			if (!verify(J, la, t))
				continue;
			J->found = true;
			J->lin_a = la;
			J->lin_b = t;
			J->addr = E[i].addr > b ? E[i].addr : b;
			break;
		}
	}
}

static void enumerate(struct rjob *J, int s)
{
	if (J->found || J->truncated)
		return;
	if (s == J->a_done) {
		compute_a(J);
		if (!J->want_inter) /* partners in t's warp only */
			sm_taddr_by_warp(J->ea, J->nea, (J->nthreads + SM_WARP - 1) / SM_WARP, J->ew, J->wstart);
	}
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
	const struct sm_cfg *G;
	int a, b;                  /* access indexes */
	const int *ca, *cb;        /* CFG loop chains */
	const struct sm_loop **la, **lb;
	int na, nb, nc;
	unsigned char *closed;
	struct sm_cfg_walk *W;     /* the walks' marks and stack */
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
	return sm_cfg_reach(P->G, P->G->acc_node_of[P->a], P->G->acc_node_of[P->b], P->closed, d >= 0 ? P->ca[d] : -1,
			    ord, P->W);
}

/* For a race found in mode d with ordering ord: a scoped barrier that
 * every path from a to b free of ord's barriers passes (one that does not
 * order the pair), or NULL when some path meets no barrier at all (or the
 * two accesses are not on one path). Only for the message. */
static const struct sm_stmt *unordered_barrier(struct pairctx *P, int d, uint32_t ord)
{
	const struct sm_cfg *G = P->G;
	if (!G->nscopes || P->a == P->b || !pair_reach(P, d, -1, ord) || pair_reach(P, d, -1, UINT32_MAX))
		return NULL;
	/* the nodes reachable from a past no barrier of ord (either phase) */
	close_for(P, d, -1);
	int a = G->acc_node_of[P->a], b = G->acc_node_of[P->b];
	sm_cfg_reach(G, a, -1, P->closed, -1, ord, P->W);
	unsigned char *fwd = malloc((size_t)G->nn);
	if (!fwd)
		return NULL;
	for (int v = 0; v < G->nn; v++)
		fwd[v] = sm_cfg_seen(P->W, v * 2) || sm_cfg_seen(P->W, v * 2 + 1);
	const struct sm_stmt *found = NULL;
	for (int v = 0; v < G->nn && !found; v++) {
		if (!fwd[v] || G->n[v].kind != CN_SCOPED || (ord >> G->n[v].sc & 1))
			continue;
		close_for(P, d, -1);
		if (sm_cfg_reach(G, v, b, P->closed, -1, ord, P->W))
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
		bool edge = !sm_cfg_free_cycle(P->G, li, ord, P->closed, P->W) && !pair_reach(P, d, li, ord);
		J->slots[J->nslots++] = (struct slot){ P->la[i], 1, edge };
	}
	J->a_done = J->nslots;
	for (int i = from; i < P->nb; i++) {
		bool edge = !sm_cfg_free_cycle(P->G, P->cb[i], ord, P->closed, P->W);
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
	case SM_E_BUILTIN: case SM_E_VAR: case SM_E_LOOPVAR: case SM_E_LOOPEXIT: case SM_E_PREV: case SM_E_ADDR:
		break; /* thread ids, variables, counters, pointers: not constants */
	}
	return false;
}

/* Two stores of one value: the same store of a constant (every thread
 * writes it), two stores of the same integer, or two stores into one
 * array of one constant tree: 1. The same store at the
 * iterations of a value every thread computes alike (a parameter, a load
 * from one global address), not a constant, and no loop counter: 2. Else 0. */
static int same_value(const struct sm_raccess *rx, const struct sm_raccess *ry, bool cross_iter)
{
	const struct sm_access *x = rx->src, *y = ry->src;
	/* a store, or an atomic that stores its value (atomicExch) */
	if (!x || !y || x->kind == SM_ACC_LOAD || y->kind == SM_ACC_LOAD || !x->value || !y->value)
		return 0;
	if (x == y) {
		if (const_value(x->value, 0))
			return 1;
		/* alike in every thread and in every iteration: threads at
		 * different iterations write one element too */
		return !cross_iter && sm_value_invariant(rx->value) ? 2 : 0;
	}
	if (x->value->kind == SM_E_CONST && y->value->kind == SM_E_CONST && x->value->ival == y->value->ival)
		return 1;
	/* two statements of one array: one constant tree (1.0f twice), or
	 * one value alike everywhere (a parameter, a shared array's address) */
	if (rx->array != ry->array || x->width != y->width)
		return 0;
	if (const_value(x->value, 0) && const_value(y->value, 0)) {
		if (sm_expr_same(x->value, y->value))
			return 1;
		/* 1 and (unsigned)1: the same integer once converted */
		struct sm_eval_ctx c = { 0 };
		c.strict = 1;
		c.budget = SM_EVAL_BUDGET_COND;
		int64_t vx = sm_eval(x->value, &c), vy = c.err ? 0 : sm_eval(y->value, &c);
		if (!c.err && vx == vy)
			return 1;
	}
	return !cross_iter && sm_value_invariant(rx->value) && sm_expr_same(rx->value, ry->value) ? 2 : 0;
}

static bool same_storage(const struct sm_array *x, const struct sm_array *y)
{
	return x == y || (x && y && x->is_dynamic && y->is_dynamic);
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

static void acc_range(struct addr_memo *M, const struct sm_raccess *ra, struct sm_dim3 block, struct arange *r,
		      struct sm_race_index *X, struct sm_touch *tbuf)
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
	if (!X)
		return;
	/* the index: which threads touch which bytes through ra */
	int nt = 0;
	for (int t = 0; t < M->nthreads; t++)
		if (v->st[t] == 1)
			tbuf[nt++] = (struct sm_touch){ v->addr[t], v->addr[t] + w, t };
	uint64_t steps = 0;
	enum sm_touch_kind kind = ra->src->kind == SM_ACC_LOAD     ? SM_TOUCH_LOAD
				  : ra->src->kind == SM_ACC_ATOMIC ? SM_TOUCH_ATOMIC
								   : SM_TOUCH_STORE;
	/* same_storage: every dynamic array is one storage */
	const void *storage = ra->array->is_dynamic ? (const void *)M : (const void *)ra->array;
	sm_race_index_add(X, (unsigned)(ra - M->m->acc), storage, kind, tbuf, nt, &steps);
	if (M->work)
		M->work->used += steps;
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
static int race_modes(const struct sm_cfg *G, struct rmode **out, uint32_t **ords, int *nord)
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
			struct rmode md = { sm_cfg_pair_ord(G, a, b), a / SM_WARP != b / SM_WARP, 0 };
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
	return sm_kernel_races_pairs(m, block, NULL, A, work, out, nout);
}

/* Is access i one the block's search pairs (a remote access is dsmem.c's)? */
static bool searched(const struct sm_cfg *G, const struct sm_kernel_model *m, unsigned i)
{
	const struct sm_raccess *r = &m->acc[i];
	return r->ok && r->src && r->array && !r->src->remote && G->acc_node_of[i] >= 0;
}

int sm_kernel_races_pairs(const struct sm_kernel_model *m, struct sm_dim3 block, const struct sm_race_filter *F,
			  struct sm_arena *A, struct sm_work *work, struct sm_race **out, unsigned *nout)
{
	*out = NULL;
	*nout = 0;
	unsigned nacc = m->nacc;
	if (!m->kernel || nacc == 0)
		return 0;
	int64_t nt = (block.x > 0 ? block.x : 1) * (block.y > 0 ? block.y : 1) * (block.z > 0 ? block.z : 1);
	if (nt < 2 || nt > SM_MAX_BLOCK_THREADS)
		return 0;
	struct sm_cfg G;
	struct sm_cfg_walk W;
	memset(&W, 0, sizeof(W));
	struct sm_taddr *ea = malloc((size_t)nt * sizeof(*ea)), *ew = malloc((size_t)nt * sizeof(*ew));
	struct addr_memo *memo = calloc(1, sizeof(*memo));
	unsigned char *closed = NULL;
	unsigned cap = 0, n = 0;
	struct sm_race *races = NULL;
	int *acc_at = NULL;
	struct sm_ivals IV = { 0, 0, NULL };
	struct rmode *modes = NULL;
	uint32_t *ords = NULL;
	int nmodes = 0, nord = 0;
	struct arange *rg = NULL;
	struct sm_race_index *X = NULL;
	struct sm_touch *tbuf = NULL;
	unsigned *usable = NULL;
	uint64_t steps = 0;
	int rc = 0;
	if (work)
		work->kernel = m->kernel->name;
	int entry = sm_cfg_build(&G, m, block, nacc);
	if (entry < 0 || !ea || !ew || !memo) {
		rc = -1;
		goto done;
	}
	memo->m = m;
	memo->block = block;
	memo->nthreads = (int)nt;
	memo->work = work;
	memo->gm = sm_guard_memo_new();
	closed = malloc((size_t)G.nloops + 1);
	acc_at = malloc(((size_t)G.nn + 1) * sizeof(int));
	if (sm_cfg_walk_init(&W, &G, work) || !closed || !acc_at) {
		rc = -1;
		goto done;
	}
	for (int v = 0; v < G.nn; v++)
		acc_at[v] = -1;
	for (unsigned i = 0; i < nacc; i++)
		if (G.acc_node_of[i] >= 0)
			acc_at[G.acc_node_of[i]] = (int)i;
	nmodes = race_modes(&G, &modes, &ords, &nord);
	if (nmodes < 0 || sm_ivals_build(&G, entry, acc_at, ords, nord, &IV, &W)) {
		rc = -1;
		goto done;
	}
	rg = malloc((size_t)nacc * sizeof(*rg));
	if (!rg) {
		rc = -1;
		goto done;
	}
	X = sm_race_index_new(nacc, SM_RACE_INDEX_TOUCHES);
	tbuf = malloc((size_t)nt * sizeof(*tbuf));
	usable = malloc(((size_t)nacc + 1) * 3 * sizeof(*usable));
	if (!X || !tbuf || !usable) {
		rc = -1;
		goto done;
	}
	for (unsigned i = 0; i < nacc; i++) {
		if (sm_work_over(work))
			memset(&rg[i], 0, sizeof(rg[i])); /* unbounded (no search follows) */
		else
			acc_range(memo, &m->acc[i], block, &rg[i], searched(&G, m, i) ? X : NULL, tbuf);
	}
	if (sm_work_over(work))
		goto spent; /* no pair will be tried */
	if (sm_race_index_finish(X, &steps)) {
		rc = -1;
		goto done;
	}
	/* Partner lists, ascending: a pair of two accesses of known
	 * addresses of which one is alone (raceindex.h) is never formed. */
	unsigned *all = usable, *cand = usable + nacc + 1, *unb = usable + 2 * (nacc + 1);
	unsigned nall = 0, ncand = 0, nunb = 0;
	for (unsigned i = 0; i < nacc; i++) {
		if (!searched(&G, m, i))
			continue;
		all[nall++] = i;
		if (!rg[i].bounded)
			unb[nunb++] = i;
		if (!rg[i].bounded || !sm_race_index_alone(X, i))
			cand[ncand++] = i;
	}
	if (work)
		work->used += steps + nacc;
	for (unsigned b = 0; b < nacc && !sm_work_over(work); b++) {
		const struct sm_raccess *rb = &m->acc[b];
		if (!searched(&G, m, b))
			continue;
		const unsigned *L = !rg[b].bounded ? all : sm_race_index_alone(X, b) ? unb : cand;
		unsigned nl = !rg[b].bounded ? nall : sm_race_index_alone(X, b) ? nunb : ncand;
		unsigned p0 = 0, p1 = nl; /* the first entry >= b */
		while (p0 < p1) {
			unsigned mid = (p0 + p1) / 2;
			if (L[mid] < b)
				p0 = mid + 1;
			else
				p1 = mid;
		}
		/* the nearest earlier access first: the clearest witness */
		for (unsigned step = 0; step < nl && !sm_work_over(work); step++) {
			unsigned a = L[(p0 + nl - 1 - step) % nl];
			const struct sm_raccess *ra = &m->acc[a];
			if (work)
				work->used++; /* a pair formed */
			if (!searched(&G, m, a))
				continue;
			if (F && !F->want(F->ctx, a, b))
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
					     closed, &W };
			struct rjob J;
			memset(&J, 0, sizeof(J));
			J.ra = ra;
			J.rb = rb;
			J.block = block;
			J.nthreads = (int)nt;
			J.ea = ea;
			J.ew = ew;
			J.memo = memo;
			J.G = &G;
			J.ca.ntid = J.cb.ntid = block;
			J.ca.seed = J.cb.seed = RACE_SEED;
			J.ca.gmemo = J.cb.gmemo = memo->gm;
			J.ca.work = J.cb.work = work;
			bool hit = false, inter = false, cross = false, trunc = false;
			const struct sm_stmt *unordered = NULL;
			/* a store of a value alike in each tile of span threads
			 * (a warp's reduce): pairs of two tiles are searched
			 * first (every mode), then those of one tile (benign) */
			int64_t span = a == b && rb->value ? sm_expr_uniform_span_under(rb->value, rb->guards) : 0;
			int npass = span > 1 ? 2 : 1;
			/* each mode: threads of different warps first, then of
			 * one warp, with no barrier on the way that orders them */
			for (int step = 0; step < nmodes * npass && !hit; step++) {
				const struct rmode *md = &modes[step % nmodes];
				J.skip_span = step < nmodes && npass == 2 ? span : 0;
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
					if (d < 0 && !sm_ivals_meet(&IV, md->iv, a, b))
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
			sm_thread_id(block, J.lin_a, R->tid_a);
			sm_thread_id(block, J.lin_b, R->tid_b);
			R->addr = J.addr;
			R->truncated = trunc;
			R->unordered = unordered;
			int same = same_value(ra, rb, cross);
			if (!same && span > 1 && !cross && J.lin_a / span == J.lin_b / span && !sm_expr_refs_loops(rb->value))
				same = 2; /* one tile's value */
			R->same_value = same != 0;
			R->same_uniform = same == 2;
			/* the rules report one race per later access, the first
			 * between warps that changes a value: the rest of b's
			 * partners add nothing */
			if (inter && !R->same_value && !F)
				break;
		}
	}
spent:
	*out = races;
	*nout = n;
done:
	sm_cfg_walk_free(&W);
	sm_race_index_free(X);
	free(tbuf);
	free(usable);
	free(closed);
	sm_cfg_free(&G);
	free(ea);
	free(ew);
	free(acc_at);
	free(rg);
	sm_ivals_free(&IV);
	free(modes);
	free(ords);
	if (memo) {
		sm_guard_memo_free(memo->gm);
		memo_free(memo);
		free(memo);
	}
	return rc;
}
