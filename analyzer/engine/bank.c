/* bank.c - the shared-memory bank model and the lane evaluator.
 *
 * Model (sm_50 and later, checked on sm_90): 32 banks of 4 bytes. A warp's
 * request of 1, 2 or 4 bytes per lane is served in one pass: each bank
 * serves one distinct 4-byte word per wavefront, and lanes reading the same
 * word share it (broadcast, multicast). 8-byte requests are split into two
 * half-warp passes and 16-byte requests into four quarter-warp passes; the
 * passes' wavefronts add up. The ideal is one wavefront per pass. The degree
 * of a request is wavefronts / ideal, exactly what Nsight Compute reports as
 * L1 Wavefronts Shared / L1 Wavefronts Shared Ideal.
 */
#include "engine/analysis.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int64_t floordiv(int64_t a, int64_t b)
{
	int64_t q = a / b;
	if ((a % b != 0) && ((a < 0) != (b < 0)))
		q--;
	return q;
}

void sm_bank_wavefronts(const int64_t addr[SM_WARP], uint32_t mask, unsigned width, struct sm_wave *out)
{
	memset(out, 0, sizeof(*out));
	out->bank = -1;
	out->lane_a = out->lane_b = -1;
	unsigned phase_lanes = width >= 16 ? 8 : width >= 8 ? 16 : 32;
	unsigned words = width >= 16 ? 4 : width >= 8 ? 2 : 1;
	int best = 0;
	for (unsigned p0 = 0; p0 < SM_WARP; p0 += phase_lanes) {
		uint32_t pm = mask & (phase_lanes == 32 ? 0xffffffffu : (((1u << phase_lanes) - 1) << p0));
		if (!pm)
			continue;
		/* distinct words per bank in this pass */
		int64_t seen[SM_BANKS][2 * SM_WARP];
		int nseen[SM_BANKS];
		int first_lane[SM_BANKS][2];
		memset(nseen, 0, sizeof(nseen));
		int maxc = 0, maxb = -1;
		for (unsigned l = p0; l < p0 + phase_lanes; l++) {
			if (!(pm & (1u << l)))
				continue;
			int64_t w0 = floordiv(addr[l], 4);
			unsigned nw = words;
			if (width < 4 && floordiv(addr[l] + (int64_t)width - 1, 4) != w0)
				nw = 2; /* a misaligned short straddles two words */
			for (unsigned k = 0; k < nw; k++) {
				int64_t w = w0 + (int64_t)k;
				int b = (int)(((w % SM_BANKS) + SM_BANKS) % SM_BANKS);
				int dup = 0;
				for (int i = 0; i < nseen[b]; i++)
					if (seen[b][i] == w) {
						dup = 1;
						break;
					}
				if (dup)
					continue;
				if (nseen[b] < (int)(sizeof(seen[b]) / sizeof(seen[b][0])))
					seen[b][nseen[b]] = w;
				if (nseen[b] < 2)
					first_lane[b][nseen[b]] = (int)l;
				nseen[b]++;
				if (nseen[b] > maxc) {
					maxc = nseen[b];
					maxb = b;
				}
			}
		}
		out->wavefronts += maxc;
		out->ideal += 1;
		if (maxc > best) {
			best = maxc;
			out->bank = maxb;
			if (maxc >= 2) {
				out->lane_a = first_lane[maxb][0];
				out->lane_b = first_lane[maxb][1];
			}
		}
	}
	/* a full request of 8 or 16 bytes has an ideal of 2 or 4 passes */
}

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
	 * fall outside its array still gets in-bounds tries) */
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

static int64_t apply_n(enum sm_op op, int64_t v, int64_t step, int64_t k, struct sm_eval_ctx *c)
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
	default:
		c->err = 1;
		return 0;
	}
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
		return apply_n(iv->op, v, step, k, c);
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
		/* run the (uniform) loop to its end */
		const struct sm_loop *L = e->loop;
		c->used_iter = 1;
		if (!L || e->ival >= L->niv || L->depth >= SM_MAX_LOOPS || !L->cond) {
			c->err = 1;
			return 0;
		}
		struct sm_eval_ctx lc = *c;
		lc.strict = 1;
		for (int64_t k = 0; k < SM_LOOP_EXIT_MAX_ITER && !lc.err; k++) {
			lc.iter[L->depth] = k;
			int64_t v = eval(L->cond, &lc, depth + 1);
			if (lc.err)
				break;
			if (!v) {
				const struct sm_iv *iv = &L->ivs[e->ival];
				lc.strict = c->strict;
				int64_t r = iv_value(iv, L, k, &lc, depth);
				c->budget = lc.budget;
				if (lc.err)
					break;
				return r;
			}
		}
		c->err = 1;
		return 0;
	}
	case SM_E_LOOPVAR: {
		const struct sm_loop *L = e->loop;
		c->used_iter = 1;
		if (!L || e->ival >= L->niv || L->depth >= SM_MAX_LOOPS) {
			c->err = 1;
			return 0;
		}
		return iv_value(&L->ivs[e->ival], L, c->iter[L->depth], c, depth);
	}
	case SM_E_PREV:
		c->used_iter = 1;
		if (!e->loop || e->ival >= e->loop->niv || c->rec_iv != &e->loop->ivs[e->ival]) {
			c->err = 1;
			return 0;
		}
		return c->rec_prev;
	case SM_E_UNARY: {
		int64_t a = eval(e->a, c, depth + 1);
		int64_t r;
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
		default: c->err = 1; return 0;
		}
		return wrap(r, e->bits, e->is_unsigned);
	}
	case SM_E_CAST:
		return wrap(eval(e->a, c, depth + 1), e->bits, e->is_unsigned);
	case SM_E_COND: {
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
		int64_t r;
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
		default: c->err = 1; return 0;
		}
		return wrap(r, e->bits, u);
	}
	default:
		c->err = 1;
		return 0;
	}
}

int64_t sm_eval(const struct sm_expr *e, struct sm_eval_ctx *c)
{
	return eval(e, c, 0);
}

/* ---- one access, one block shape ---- */

/* caps: SM_MAX_TUPLES, SM_MAX_ITER, SM_UNKNOWN_ITER_ADD/MUL (base/limits.h) */

struct job {
	const struct sm_raccess *ra;
	const struct sm_layout *lay;
	const struct sm_loop *loops[SM_MAX_LOOPS]; /* outermost first */
	int nloops;
	struct sm_dim3 block;
	int64_t strides[SM_MAX_DIMS];
	int warp;
	int64_t nthreads;
	unsigned seed;
	struct sm_degree *out;
	unsigned long total_wave, total_ideal;
	unsigned tuples;
	int err;
	const char *why;
	int64_t worst_iter[SM_MAX_LOOPS];
	double worst;
	double first;
	bool varies;
	bool invariant[SM_MAX_LOOPS]; /* loop d changes nothing the access sees:
	                               * one iteration stands for all */
	int64_t limit;           /* bytes of the array (0: not known) */
	bool oob;                /* an active lane addressed outside it */
	struct sm_guard_memo *gm;
	struct sm_work *work;
};

/* *c = base evaluated by lane l of J's warp (its thread id set); false
 * when the lane lies past the block's last thread, as do all later ones. */
static bool lane_ctx(const struct job *J, int l, const struct sm_eval_ctx *base, struct sm_eval_ctx *c)
{
	int64_t lin = (int64_t)J->warp * SM_WARP + l;
	if (lin >= J->nthreads)
		return false;
	*c = *base;
	c->tid[0] = lin % J->block.x;
	c->tid[1] = (lin / J->block.x) % J->block.y;
	c->tid[2] = lin / (J->block.x * J->block.y);
	return true;
}

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

static size_t gm_slot(const struct sm_guard_memo *m, const struct sm_guard *g, uint64_t key)
{
	uint64_t h = ((uint64_t)(uintptr_t)g >> 3) * 0x9E3779B97F4A7C15ull ^ key * 0xC2B2AE3D27D4EB4Full;
	h ^= h >> 29;
	return (size_t)h & (m->cap - 1);
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
		/* undecidable: assumed to hold, unless it tests one shared
		 * element against itself (correlate.c, which adds what it
		 * reads to used_iter and used_tid) */
		c->err = 0;
		r = !sm_guard_impossible(g->cond, g->negate, c);
	} else {
		r = (v != 0) != g->negate;
	}
	*keep = c->used_iter ? KEEP_NONE : c->used_tid ? KEEP_THREAD : KEEP_ALL;
	return r;
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
		int own = guard_one(g, c, &keep);
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

static int guards_hold(const struct sm_guard *g, struct sm_eval_ctx *c)
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

static bool loop_is_mul(const struct sm_loop *L)
{
	for (int i = 0; i < L->niv; i++)
		if (L->ivs[i].op != SM_OP_ADD && L->ivs[i].op != SM_OP_SUB)
			return true;
	return false;
}

int sm_access_addr(const struct sm_raccess *ra, const int64_t *dims, struct sm_eval_ctx *c, int64_t *addr)
{
	if (!ra->ok || !ra->array)
		return -1;
	/* enclosing loops must run at the iterations in c->iter */
	for (const struct sm_loop *L = ra->loop; L; L = L->parent)
		if (sm_loop_cond(L, c) == 0)
			return 0;
	if (!guards_hold(ra->guards, c))
		return 0;
	int64_t elem = 0;
	c->err = 0;
	c->budget = SM_EVAL_BUDGET_ACCESS;
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
	if (c->err)
		return -1;
	*addr = a;
	return 1;
}

static void leaf(struct job *J, struct sm_eval_ctx *base)
{
	int64_t addr[SM_WARP];
	uint32_t mask = 0;
	for (int l = 0; l < SM_WARP; l++) {
		struct sm_eval_ctx c;
		if (!lane_ctx(J, l, base, &c))
			break;
		int live = 1;
		for (int d = 0; d < J->nloops && live; d++) {
			if (sm_loop_cond(J->loops[d], &c) == 0)
				live = 0;
		}
		if (!live || !guards_hold(J->ra->guards, &c))
			continue;
		int64_t elem = 0;
		c.err = 0;
		c.budget = SM_EVAL_BUDGET_ACCESS;
		int64_t prev = 0;
		for (int k = 0; k < J->ra->nidx; k++) {
			int64_t v = sm_eval(J->ra->idx[k], &c);
			if (J->lay && J->lay->swizzle_mask > 0 && k == J->ra->array->ndims - 1 && k > 0)
				v ^= prev & J->lay->swizzle_mask;
			prev = v;
			elem += v * J->strides[k];
		}
		if (J->lay && J->lay->offset_shift > 0)
			elem += elem >> J->lay->offset_shift;
		int64_t a = elem * (int64_t)J->ra->array->elem_size;
		if (J->ra->extra)
			a += sm_eval(J->ra->extra, &c);
		if (c.err) {
			J->err = 1;
			J->why = "the index depends on a value the analysis cannot compute";
			return;
		}
		if (J->limit && (a < 0 || a + (int64_t)J->ra->width > J->limit))
			J->oob = true;
		addr[l] = a;
		mask |= 1u << l;
	}
	if (!mask)
		return;
	struct sm_wave w;
	sm_bank_wavefronts(addr, mask, J->ra->width, &w);
	J->total_wave += (unsigned long)w.wavefronts;
	J->total_ideal += (unsigned long)w.ideal;
	J->out->requests++;
	double deg = w.ideal ? (double)w.wavefronts / w.ideal : 1.0;
	if (J->first < 0)
		J->first = deg;
	else if (deg != J->first)
		J->varies = true;
	if (deg > J->worst) {
		J->worst = deg;
		J->out->warp = J->warp;
		J->out->lane_a = w.lane_a;
		J->out->lane_b = w.lane_b;
		J->out->bank = w.bank;
		J->out->addr_a = w.lane_a >= 0 ? addr[w.lane_a] : 0;
		J->out->addr_b = w.lane_b >= 0 ? addr[w.lane_b] : 0;
		J->out->worst_mask = mask;
		memcpy(J->out->worst_addr, addr, sizeof(addr));
		for (int d = 0; d < J->nloops; d++)
			J->worst_iter[d] = base->iter[J->loops[d]->depth];
	}
}

static bool loop_invariant_for(const struct job *J, int d);

static void enumerate(struct job *J, int d, struct sm_eval_ctx *c)
{
	if (J->err)
		return;
	if (d == J->nloops) {
		if (J->tuples >= SM_MAX_TUPLES) {
			J->out->truncated = true;
			return;
		}
		if (sm_work_over(J->work)) {
			J->err = 1;
			J->why = SM_WHY_BUDGET;
			return;
		}
		J->tuples++;
		leaf(J, c);
		return;
	}
	const struct sm_loop *L = J->loops[d];
	int64_t cap = SM_MAX_ITER;
	for (int64_t k = 0; k < cap && !J->err; k++) {
		c->iter[L->depth] = k;
		/* does any lane of this warp still run the loop? */
		int any = 0, unknown = 0;
		for (int l = 0; l < SM_WARP; l++) {
			struct sm_eval_ctx lc;
			if (!lane_ctx(J, l, c, &lc))
				break;
			int r = sm_loop_cond(L, &lc);
			if (r == 1) {
				any = 1;
				break;
			}
			if (r < 0)
				unknown = 1;
		}
		if (!any && !unknown)
			break;
		if (!any && unknown) {
			int64_t ucap = loop_is_mul(L) ? SM_UNKNOWN_ITER_MUL : SM_UNKNOWN_ITER_ADD;
			if (k >= ucap)
				break;
		}
		if (J->tuples >= SM_MAX_TUPLES) {
			J->out->truncated = true;
			break;
		}
		enumerate(J, d + 1, c);
		if (any && J->invariant[d])
			break; /* every later iteration makes the same requests */
	}
}

/* Does e read loop L's counters (directly, or through the counters of a
 * loop whose start or step does)? */
static bool refs_loop(const struct sm_expr *e, const struct sm_loop *L, int depth)
{
	if (!e)
		return false;
	if (depth > SM_SCAN_EXPR_DEPTH)
		return true;
	if (e->kind == SM_E_LOOPVAR || e->kind == SM_E_LOOPEXIT || e->kind == SM_E_PREV) {
		if (e->loop == L)
			return true;
		if (e->loop && e->ival < e->loop->niv && e->kind != SM_E_PREV) {
			const struct sm_iv *iv = &e->loop->ivs[e->ival];
			if (refs_loop(iv->init, L, depth + 1) || refs_loop(iv->step, L, depth + 1))
				return true;
		}
	}
	return refs_loop(e->a, L, depth + 1) || refs_loop(e->b, L, depth + 1) || refs_loop(e->c, L, depth + 1);
}

/* Loop d of J changes nothing the access sees when its condition is the
 * same for every thread (the same lanes run each iteration) and neither
 * the address, the guards nor the loops inside it read its counters: its
 * iterations all make the same warp requests (a tile loop of a matmul
 * around an access to the tile). */
static bool loop_invariant_for(const struct job *J, int d)
{
	const struct sm_loop *L = J->loops[d];
	if (sm_expr_thread_dep(L->cond))
		return false;
	const struct sm_raccess *ra = J->ra;
	for (int k = 0; k < ra->nidx; k++)
		if (refs_loop(ra->idx[k], L, 0))
			return false;
	if (refs_loop(ra->extra, L, 0))
		return false;
	for (const struct sm_guard *g = ra->guards; g; g = g->next)
		if (refs_loop(g->cond, L, 0))
			return false;
	for (int i = d + 1; i < J->nloops; i++) {
		const struct sm_loop *M = J->loops[i];
		if (refs_loop(M->cond, L, 0))
			return false;
		for (int v = 0; v < M->niv; v++)
			if (refs_loop(M->ivs[v].init, L, 0) || refs_loop(M->ivs[v].step, L, 0))
				return false;
	}
	return true;
}

/* The array's size in bytes under layout dims (0 when not known: extern
 * arrays, overflow). */
static int64_t array_bytes(const struct sm_array *arr, const int64_t *dims)
{
	if (arr->is_dynamic || arr->dims_overflow)
		return 0;
	int64_t n = arr->elem_size;
	for (int j = 0; j < arr->ndims; j++) {
		int64_t dj = dims ? dims[j] : arr->dims[j];
		if (dj <= 0 || n > INT64_MAX / 2 / dj)
			return 0;
		n *= dj;
	}
	return n;
}

static bool run_seed(const struct sm_raccess *ra, struct sm_dim3 block, const struct sm_layout *lay, unsigned seed,
		     struct sm_guard_memo *gm, struct sm_work *work, struct sm_degree *out)
{
	struct job J;
	const int64_t *dims = lay ? lay->dims : NULL;
	memset(&J, 0, sizeof(J));
	J.gm = gm;
	J.work = work;
	J.ra = ra;
	J.lay = lay;
	J.block = block;
	J.out = out;
	J.seed = seed;
	J.first = -1;
	J.limit = array_bytes(ra->array, dims);
	const struct sm_loop *chain[SM_MAX_LOOPS];
	int n = 0;
	for (const struct sm_loop *L = ra->loop; L && n < SM_MAX_LOOPS; L = L->parent)
		chain[n++] = L;
	for (int i = 0; i < n; i++)
		J.loops[i] = chain[n - 1 - i];
	J.nloops = n;
	for (int i = 0; i < n; i++)
		J.invariant[i] = loop_invariant_for(&J, i);
	const struct sm_array *arr = ra->array;
	for (int k = 0; k < ra->nidx; k++) {
		int64_t s = 1;
		for (int j = k + 1; j < arr->ndims; j++) {
			int64_t dj = dims ? dims[j] : arr->dims[j];
			s *= dj > 0 ? dj : 1;
		}
		J.strides[k] = s;
	}
	J.nthreads = block.x * block.y * block.z;
	int nwarps = (int)((J.nthreads + SM_WARP - 1) / SM_WARP);
	out->worst = 0;
	J.worst = 0;
	for (int w = 0; w < nwarps && !J.err; w++) {
		J.warp = w;
		struct sm_eval_ctx c;
		memset(&c, 0, sizeof(c));
		c.ntid = block;
		c.seed = seed;
		c.gmemo = gm;
		c.work = work;
		J.tuples = 0;
		enumerate(&J, 0, &c);
	}
	if (J.err) {
		out->analyzed = false;
		out->why = J.why;
		return false;
	}
	out->analyzed = true;
	out->worst = J.worst > 0 ? J.worst : 1.0;
	out->mean = J.total_ideal ? (double)J.total_wave / (double)J.total_ideal : 1.0;
	out->nloops = n;
	/* which loop counter does the worst depend on: report the innermost
	 * loop whose iteration made a difference */
	out->iv_matters = J.varies && n > 0;
	if (out->iv_matters) {
		for (int d = n - 1; d >= 0; d--) {
			const struct sm_loop *L = J.loops[d];
			if (L->niv > 0) {
				struct sm_eval_ctx c;
				memset(&c, 0, sizeof(c));
				c.ntid = block;
				c.seed = seed;
				c.budget = SM_EVAL_BUDGET_COND;
				for (int i = 0; i < n; i++)
					c.iter[J.loops[i]->depth] = J.worst_iter[i];
				const struct sm_iv *iv = &L->ivs[0];
				int64_t init = sm_eval(iv->init, &c);
				int64_t step = sm_eval(iv->step, &c);
				if (!c.err && !sm_expr_thread_dep(iv->init)) {
					out->worst_iv = iv;
					out->worst_iv_value = apply_n(iv->op, init, step, J.worst_iter[d], &c);
					if (c.err)
						out->worst_iv = NULL;
					break;
				}
			}
		}
	}
	return !J.oob;
}

static bool has_uniform_unknown(const struct sm_expr *e, int depth)
{
	if (!e || depth > SM_SCAN_EXPR_DEPTH)
		return false;
	if ((e->kind == SM_E_OPAQUE && !e->thread_dep) || e->kind == SM_E_VAR ||
	    (e->kind == SM_E_BUILTIN && (e->builtin == SM_B_CTAID || e->builtin == SM_B_NCTAID)))
		return true;
	if ((e->kind == SM_E_LOOPVAR || e->kind == SM_E_LOOPEXIT) && e->loop && e->ival < e->loop->niv) {
		const struct sm_iv *iv = &e->loop->ivs[e->ival];
		if (has_uniform_unknown(iv->init, depth + 1) || has_uniform_unknown(iv->step, depth + 1))
			return true;
	}
	return has_uniform_unknown(e->a, depth + 1) || has_uniform_unknown(e->b, depth + 1) ||
	       has_uniform_unknown(e->c, depth + 1);
}

/* Does the closed expression hold a value loaded from memory (global or
 * shared)? Then the address is data dependent. */
static bool loaded_from_memory(const struct sm_expr *e, int depth)
{
	if (!e || depth > SM_SCAN_EXPR_DEPTH)
		return false;
	if (e->kind == SM_E_OPAQUE && e->thread_dep && (e->place || (e->name && !strcmp(e->name, "memory load"))))
		return true;
	if ((e->kind == SM_E_LOOPVAR || e->kind == SM_E_LOOPEXIT) && e->loop && e->ival < e->loop->niv) {
		const struct sm_iv *iv = &e->loop->ivs[e->ival];
		if (loaded_from_memory(iv->init, depth + 1) || loaded_from_memory(iv->step, depth + 1))
			return true;
	}
	return loaded_from_memory(e->a, depth + 1) || loaded_from_memory(e->b, depth + 1) ||
	       loaded_from_memory(e->c, depth + 1);
}

static void degree_layout(const struct sm_raccess *ra, struct sm_dim3 block, const struct sm_layout *dims,
			  struct sm_guard_memo *gm, struct sm_work *w, struct sm_degree *out);

void sm_access_degree(const struct sm_raccess *ra, struct sm_dim3 block, const int64_t *dims,
		      struct sm_arena *A, struct sm_degree *out)
{
	sm_access_degree_in(ra, block, dims, A, NULL, NULL, out);
}

void sm_access_degree_in(const struct sm_raccess *ra, struct sm_dim3 block, const int64_t *dims,
			 struct sm_arena *A, struct sm_guard_memo *gm, struct sm_work *work, struct sm_degree *out)
{
	struct sm_layout lay = { dims, 0, 0 };
	degree_layout(ra, block, &lay, gm, work, out);
	if (out->analyzed || !A || !ra->ok || !ra->array || (work && work->spent))
		return;
	bool data = loaded_from_memory(ra->extra, 0);
	for (int k = 0; k < ra->nidx && !data; k++)
		data = loaded_from_memory(ra->idx[k], 0);
	if (!data)
		return;
	/* the data decides: from a broadcast (1-way) to every lane of a
	 * request on its own word of one bank, as far as the array has words
	 * in one bank */
	unsigned w = ra->width < 4 ? 4 : ra->width;
	int64_t lanes = (int64_t)SM_WARP * 4 / w;
	int64_t bytes = array_bytes(ra->array, dims);
	int64_t per_bank = bytes ? (bytes / 4 + SM_BANKS - 1) / SM_BANKS : lanes;
	int64_t worst = per_bank < lanes ? per_bank : lanes;
	if (worst < 1)
		worst = 1;
	out->why = sm_arena_printf(A, "data-dependent: the index is loaded from memory, so the data decides "
				      "between 1-way (all lanes on one word) and %lld-way", (long long)worst);
}

void sm_access_degree_layout(const struct sm_raccess *ra, struct sm_dim3 block, const struct sm_layout *dims,
			     struct sm_degree *out)
{
	degree_layout(ra, block, dims, NULL, NULL, out);
}

static void degree_layout(const struct sm_raccess *ra, struct sm_dim3 block, const struct sm_layout *dims,
			  struct sm_guard_memo *gm, struct sm_work *w, struct sm_degree *out)
{
	memset(out, 0, sizeof(*out));
	out->lane_a = out->lane_b = out->bank = -1;
	if (!ra->ok || !ra->array) {
		out->analyzed = false;
		out->why = ra->why ? ra->why : "not resolved";
		return;
	}
	if (ra->array->dims_overflow) {
		out->analyzed = false;
		out->why = "the array's size overflows";
		return;
	}
	if (block.x <= 0 || block.y <= 0 || block.z <= 0 || block.x * block.y * block.z > SM_MAX_BLOCK_THREADS) {
		out->analyzed = false;
		out->why = "the block shape is not valid";
		return;
	}
	bool unknowns = false;
	for (int k = 0; k < ra->nidx; k++)
		unknowns = unknowns || has_uniform_unknown(ra->idx[k], 0);
	unknowns = unknowns || has_uniform_unknown(ra->extra, 0);
	bool inside = run_seed(ra, block, dims, 0, gm, w, out);
	if (!out->analyzed || !unknowns)
		return;
	/* the index involves uniform unknowns (parameters, blockIdx): the
	 * degree must not depend on their values. Tries whose addresses fall
	 * outside the array are not executions of a correct program and do
	 * not count; when every try falls outside, there is no degree. */
	for (unsigned seed = 1; seed < SM_UNKNOWN_TRIES; seed++) {
		struct sm_degree other;
		memset(&other, 0, sizeof(other));
		bool in = run_seed(ra, block, dims, seed, gm, w, &other);
		if (!other.analyzed) {
			*out = other;
			return;
		}
		if (!in)
			continue;
		if (!inside) {
			*out = other;
			inside = true;
		} else if (other.worst != out->worst) {
			out->analyzed = false;
			out->why = "the degree depends on a value known only at run time";
			return;
		}
	}
	if (!inside) {
		out->analyzed = false;
		out->why = "the index falls outside the array for every value tried of what is unknown in it";
	}
}
