/* bank.c - the shared-memory bank model and the degree of an access.
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
#include "engine/visit.h"

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

int sm_cp_async_wavefronts(const int64_t addr[SM_WARP], const int64_t gsrc[SM_WARP], uint32_t mask, unsigned width)
{
	if (!mask)
		return 0;
	/* the global sectors first: one is whole when the warp copies all
	 * 32 of its bytes into one 32-byte aligned shared chunk (in any
	 * order: a swizzle that swaps its halves keeps it whole) */
	int64_t sect[SM_WARP], chunk[SM_WARP];
	uint64_t cover[SM_WARP];
	bool one_chunk[SM_WARP];
	int set_of[SM_WARP], nsets = 0;
	for (int l = 0; l < SM_WARP; l++) {
		if (!(mask & (1u << l)))
			continue;
		int64_t sc = floordiv(gsrc[l], 32), ch = floordiv(addr[l], 32);
		int s = 0;
		while (s < nsets && sect[s] != sc)
			s++;
		if (s == nsets) {
			sect[s] = sc;
			chunk[s] = ch;
			cover[s] = 0;
			one_chunk[s] = true;
			nsets++;
		}
		set_of[l] = s;
		one_chunk[s] = one_chunk[s] && chunk[s] == ch && floordiv(addr[l] + (int64_t)width - 1, 32) == ch;
		int64_t lo = gsrc[l] - sc * 32;
		for (int64_t b = lo; b < lo + (int64_t)width && b < 32; b++)
			cover[s] |= 1ull << b;
	}
	/* then the pieces, a wavefront each: a whole sector, or else a
	 * lane's bytes, keyed by their global line, shift (global offset
	 * minus shared offset, modulo 128), shared 128-byte row, and for a
	 * lane's bytes the 16-byte half of the sector they come from */
	int64_t key[SM_WARP][4];
	int n = 0;
	for (int l = 0; l < SM_WARP; l++) {
		if (!(mask & (1u << l)))
			continue;
		int s = set_of[l];
		bool whole = one_chunk[s] && cover[s] == 0xffffffffull;
		int64_t g = whole ? sect[s] * 32 : gsrc[l], a = whole ? chunk[s] * 32 : addr[l];
		int64_t k[4] = { floordiv(g, 128), ((g - a) % 128 + 128) % 128, floordiv(a, 128),
				 whole ? 2 : ((gsrc[l] % 32 + 32) % 32) / 16 };
		bool seen = false;
		for (int i = 0; i < n && !seen; i++)
			seen = !memcmp(key[i], k, sizeof(k));
		if (!seen)
			memcpy(key[n++], k, sizeof(k));
	}
	/* a warp with lanes off: one more */
	return n + (mask != 0xffffffffu);
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
	double layout_worst;          /* sm_degree.layout_worst so far */
	double first;
	bool varies;
	bool invariant[SM_MAX_LOOPS]; /* loop d changes nothing the access sees:
	                               * one iteration stands for all */
	bool shift[SM_MAX_LOOPS];     /* loop d only moves every lane's address
	                               * by one offset per iteration (shift_for):
	                               * one iteration, shifted, stands for the
	                               * others that stay inside the array */
	int64_t amin, amax;           /* lowest and highest byte address of an
	                               * active lane, over the leaves so far */
	unsigned long dropped;        /* lanes left out as outside the array */
	bool inexact;                 /* an iteration count was not known (the
	                               * totals are a bound's, not the count's) */
	int64_t limit;           /* bytes of the array (0: not known) */
	bool oob;                /* an active lane addressed outside it */
	bool exact;              /* the address reads no unknown value: a lane
	                          * outside the array may be a certain one */
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
	sm_thread_id(J->block, lin, c->tid);
	return true;
}

static bool loop_is_mul(const struct sm_loop *L)
{
	for (int i = 0; i < L->niv; i++)
		if (L->ivs[i].op != SM_OP_ADD && L->ivs[i].op != SM_OP_SUB)
			return true;
	return false;
}

/* Does lane c certainly run the access: its enclosing loops' conditions
 * and its guards each decided true there (the degree's enumeration takes
 * undecidable ones as true)? */
static bool lane_decided(const struct job *J, struct sm_eval_ctx *c)
{
	for (int d = 0; d < J->nloops; d++)
		if (sm_loop_cond(J->loops[d], c) != 1)
			return false;
	return sm_guards_decided(J->ra->guards, c) == 1;
}

/* Lane c, which certainly runs the access, addresses byte a, outside the
 * array: the witness. */
static void oob_witness(struct job *J, struct sm_eval_ctx *c, int64_t a)
{
	struct sm_oob *o = &J->out->oob;
	memset(o, 0, sizeof(*o));
	for (int d = 0; d < J->nloops && o->niv < SM_MAX_LOOPS; d++) {
		const struct sm_loop *L = J->loops[d];
		if (L->niv <= 0)
			continue;
		const struct sm_iv *iv = &L->ivs[0];
		c->err = 0;
		c->budget = SM_EVAL_BUDGET_COND;
		int64_t init = sm_eval(iv->init, c);
		int64_t step = sm_eval(iv->step, c);
		int64_t v = c->err ? 0 : sm_iv_apply(iv->op, init, step, c->iter[L->depth], c);
		if (c->err)
			return; /* the witness would lack its iteration */
		o->iv[o->niv] = iv;
		o->iv_value[o->niv++] = v;
	}
	c->err = 0;
	o->found = true;
	for (int i = 0; i < 3; i++)
		o->tid[i] = c->tid[i];
	/* shared addresses are 32 bits: an unsigned index below zero
	 * (threadIdx.x - 1 in thread 0) wraps to just before the start */
	o->offset = a > INT32_MAX || a < INT32_MIN ? (int64_t)(int32_t)(uint32_t)a : a;
	o->width = J->ra->width;
	o->extent = J->limit;
}

/* The byte address lane context c requests (J's layout applied); false
 * when it reads a value the analysis cannot compute. */
static bool lane_addr(const struct job *J, struct sm_eval_ctx *c, int64_t *out)
{
	int64_t elem = 0, prev = 0;
	c->err = 0;
	c->budget = SM_EVAL_BUDGET_ACCESS;
	for (int k = 0; k < J->ra->nidx; k++) {
		int64_t v = sm_eval(J->ra->idx[k], c);
		if (J->lay && J->lay->swizzle_mask > 0 && k == J->ra->array->ndims - 1 && k > 0)
			v ^= (prev & J->lay->swizzle_mask) << J->lay->swizzle_shift;
		prev = v;
		elem += v * J->strides[k];
	}
	if (J->lay && J->lay->offset_shift > 0)
		elem += elem >> J->lay->offset_shift;
	int64_t a = elem * (int64_t)J->ra->array->elem_size;
	if (J->ra->extra)
		a += sm_eval(J->ra->extra, c);
	*out = a;
	return !c->err;
}

static bool has_uniform_unknown(const struct sm_expr *e);

static void leaf(struct job *J, struct sm_eval_ctx *base)
{
	int64_t addr[SM_WARP], gsrc[SM_STRIDE_TRIES][SM_WARP];
	uint32_t mask = 0;
	/* every lane's global source known, and its line and shift too; a
	 * source that reads a value the analysis does not know (a row stride
	 * K, blockIdx) is tried with large multiples of 128 for it (whole
	 * 128-byte lines a row), and left to the shared side alone when the
	 * count then depends on which */
	bool global = J->ra->gsrc != NULL;
	bool assumed = global && has_uniform_unknown(J->ra->gsrc);
	int tries = assumed ? SM_STRIDE_TRIES : 1;
	/* a loop condition that reads no thread index is every lane's:
	 * evaluated once, in the first lane (false: no lane runs the access) */
	bool per_lane[SM_MAX_LOOPS];
	struct sm_eval_ctx c0;
	if (!lane_ctx(J, 0, base, &c0))
		return;
	for (int d = 0; d < J->nloops; d++) {
		bool every = false;
		int r = sm_loop_cond_lanes(J->loops[d], &c0, &every);
		if (every && r == 0)
			return;
		per_lane[d] = !every;
	}
	bool guards_every = false;
	if (!sm_guards_hold_lanes(J->ra->guards, &c0, &guards_every) && guards_every)
		return;
	for (int l = 0; l < SM_WARP; l++) {
		struct sm_eval_ctx c;
		if (!lane_ctx(J, l, base, &c))
			break;
		int live = 1;
		for (int d = 0; d < J->nloops && live; d++) {
			if (per_lane[d] && sm_loop_cond(J->loops[d], &c) == 0)
				live = 0;
		}
		if (!live || (!guards_every && !sm_guards_hold(J->ra->guards, &c)))
			continue;
		int64_t a;
		if (!lane_addr(J, &c, &a)) {
			J->err = 1;
			J->why = "the index depends on a value the analysis cannot compute";
			return;
		}
		if (J->limit && (a < 0 || a + (int64_t)J->ra->width > J->limit)) {
			if (!lane_decided(J, &c)) {
				/* outside the array under a guard or loop
				 * condition the analysis cannot decide: that
				 * condition is what keeps this lane out (a
				 * correct program's `if (t < n) s[n - 1 - t]`) */
				J->out->oob_dropped = true;
				J->dropped++;
				continue;
			}
			J->oob = true;
			if (J->exact && !J->out->oob.found)
				oob_witness(J, &c, a);
		}
		addr[l] = a;
		mask |= 1u << l;
		for (int s = 0; s < tries && global; s++) {
			struct sm_eval_ctx cs = c;
			cs.err = 0;
			cs.budget = SM_EVAL_BUDGET_ACCESS;
			if (assumed)
				cs.seed = SM_SEED_STRIDE + (unsigned)s;
			gsrc[s][l] = sm_eval(J->ra->gsrc, &cs);
			global = !cs.err;
		}
		if (a < J->amin)
			J->amin = a;
		if (a > J->amax)
			J->amax = a;
	}
	if (!mask)
		return;
	struct sm_wave w;
	sm_bank_wavefronts(addr, mask, J->ra->width, &w);
	int groups = global ? sm_cp_async_wavefronts(addr, gsrc[0], mask, J->ra->width) : 0;
	for (int s = 1; s < tries && groups; s++)
		if (sm_cp_async_wavefronts(addr, gsrc[s], mask, J->ra->width) != groups)
			groups = 0; /* depends on the value: not counted */
	if (groups > w.wavefronts) {
		w.wavefronts = groups;
		w.bank = w.lane_a = w.lane_b = -1; /* no bank decides it */
	}
	/* what no shared layout removes: a cp.async moves at least one piece
	 * per global line it reads (one more with lanes off) */
	int lines = 0;
	if (global && groups > 0) {
		int64_t seen[SM_WARP];
		for (int l = 0; l < SM_WARP; l++) {
			if (!(mask & (1u << l)))
				continue;
			int64_t ln = floordiv(gsrc[0][l], 128);
			int i = 0;
			while (i < lines && seen[i] != ln)
				i++;
			if (i == lines)
				seen[lines++] = ln;
		}
		lines += mask != 0xffffffffu;
	}
	int need = lines > w.ideal ? lines : w.ideal;
	double lay = need ? (double)w.wavefronts / need : 1.0;
	if (lay > J->layout_worst) {
		J->layout_worst = lay;
		J->out->layout_pieces = w.wavefronts;
		J->out->layout_lines = lines;
		J->out->layout_assumed = assumed && lines > 0;
	}
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

/* What an iteration of a shift loop (J->shift) did below it, to be
 * repeated at a later iteration moved by the offset between their
 * addresses: its counts, the addresses it spanned, and the address of a
 * probe lane (lane 0 and the block's last lane of the warp, the inner
 * loops at their first iteration) there. */
struct rep {
	bool have;                /* taken, and valid to repeat */
	bool tried;
	unsigned long wave, ideal, requests;
	unsigned tuples;
	int64_t amin, amax;
	int64_t probe[2];
};

/* The probe lanes' addresses at the iteration c is at; false when one
 * cannot be computed. */
static bool probe_addrs(const struct job *J, int d, const struct sm_eval_ctx *c, int64_t out[2])
{
	int64_t last = J->nthreads - (int64_t)J->warp * SM_WARP - 1;
	int lanes[2] = { 0, last < SM_WARP - 1 ? (int)last : SM_WARP - 1 };
	for (int i = 0; i < 2; i++) {
		struct sm_eval_ctx lc;
		if (!lane_ctx(J, lanes[i], c, &lc))
			return false;
		for (int e = d + 1; e < J->nloops; e++)
			lc.iter[J->loops[e]->depth] = 0;
		if (!lane_addr(J, &lc, &out[i]))
			return false;
	}
	return true;
}

/* Repeat R's iteration at c's, moved by the probes' offset: true when
 * done, false when this iteration must be enumerated (the probes move by
 * different offsets or by a part of a word, a lane would land outside the
 * array, the tuple cap would cut it). */
static bool repeat_shifted(struct job *J, int d, const struct sm_eval_ctx *c, const struct rep *R)
{
	int64_t p[2];
	if (!probe_addrs(J, d, c, p))
		return false;
	int64_t off = p[0] - R->probe[0];
	if (p[1] - R->probe[1] != off || off % 4 != 0)
		return false;
	if (J->limit && (R->amin + off < 0 || R->amax + off + (int64_t)J->ra->width > J->limit))
		return false;
	if (J->tuples + R->tuples > SM_MAX_TUPLES)
		return false;
	/* a word-aligned offset moves every lane's words by one amount: the
	 * banks turn by it and each request keeps its wavefronts */
	J->tuples += R->tuples;
	J->total_wave += R->wave;
	J->total_ideal += R->ideal;
	J->out->requests += R->requests;
	if (R->amin + off < J->amin)
		J->amin = R->amin + off;
	if (R->amax + off > J->amax)
		J->amax = R->amax + off;
	return true;
}

/* How many iterations of invariant loop L follow iteration k (whose
 * condition held for some lane) before it stops: its condition is every
 * thread's (loop_apart), so lane 0 decides. An unknown condition counts as
 * the enumeration would (up to its cap for unknown loops) and marks the
 * totals inexact. */
static int64_t invariant_trips(struct job *J, const struct sm_loop *L, struct sm_eval_ctx *c, int64_t k, int64_t cap)
{
	int64_t saved = c->iter[L->depth], more = 0;
	int64_t ucap = loop_is_mul(L) ? SM_UNKNOWN_ITER_MUL : SM_UNKNOWN_ITER_ADD;
	struct sm_eval_ctx lc;
	for (int64_t n = k + 1; n < cap; n++) {
		c->iter[L->depth] = n;
		if (!lane_ctx(J, 0, c, &lc))
			break;
		int r = sm_loop_cond(L, &lc);
		if (r == 0)
			break;
		if (r < 0) {
			J->inexact = true;
			if (n >= ucap)
				break;
		}
		more++;
	}
	if (k + 1 + more >= cap)
		J->inexact = true;
	c->iter[L->depth] = saved;
	return more;
}

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
	struct rep R = { 0 };
	for (int64_t k = 0; k < cap && !J->err; k++) {
		c->iter[L->depth] = k;
		if (k == cap - 1)
			J->inexact = true; /* the cap may cut it short */
		/* does any lane of this warp still run the loop? */
		int any = 0, unknown = 0;
		for (int l = 0; l < SM_WARP; l++) {
			struct sm_eval_ctx lc;
			if (!lane_ctx(J, l, c, &lc))
				break;
			bool every = false;
			int r = sm_loop_cond_lanes(L, &lc, &every);
			if (r == 1) {
				any = 1;
				break;
			}
			if (r < 0)
				unknown = 1;
			if (every)
				break; /* the same in every lane */
		}
		if (!any && !unknown)
			break;
		if (!any && unknown) {
			int64_t ucap = loop_is_mul(L) ? SM_UNKNOWN_ITER_MUL : SM_UNKNOWN_ITER_ADD;
			J->inexact = true;
			if (k >= ucap)
				break;
		}
		if (J->tuples >= SM_MAX_TUPLES) {
			J->out->truncated = true;
			break;
		}
		if (R.have && repeat_shifted(J, d, c, &R))
			continue;
		unsigned long w0 = J->total_wave, i0 = J->total_ideal, r0 = J->out->requests;
		if (!J->shift[d] || R.tried) {
			enumerate(J, d + 1, c);
		} else {
			/* the first iteration run: the one the later ones repeat */
			R.tried = true;
			unsigned long w0 = J->total_wave, i0 = J->total_ideal, r0 = J->out->requests, dr0 = J->dropped;
			unsigned t0 = J->tuples;
			int64_t lo = J->amin, hi = J->amax;
			J->amin = INT64_MAX;
			J->amax = INT64_MIN;
			enumerate(J, d + 1, c);
			R.have = !J->err && !J->oob && !J->out->truncated && J->dropped == dr0 &&
				 J->out->requests > r0 && probe_addrs(J, d, c, R.probe);
			R.wave = J->total_wave - w0;
			R.ideal = J->total_ideal - i0;
			R.requests = J->out->requests - r0;
			R.tuples = J->tuples - t0;
			R.amin = J->amin;
			R.amax = J->amax;
			J->amin = lo < J->amin ? lo : J->amin;
			J->amax = hi > J->amax ? hi : J->amax;
		}
		if (any && J->invariant[d]) {
			/* every later iteration makes the same requests: counted,
			 * not evaluated */
			int64_t more = invariant_trips(J, L, c, k, cap);
			J->total_wave += (unsigned long)more * (J->total_wave - w0);
			J->total_ideal += (unsigned long)more * (J->total_ideal - i0);
			J->out->requests += (unsigned long)more * (J->out->requests - r0);
			break;
		}
	}
}

/* Does e read loop L's counters (directly, or through the counters of a
 * loop whose start or step does)? */
static enum sm_seen is_loop_counter(const struct sm_expr *e, void *L)
{
	bool counter = e->kind == SM_E_LOOPVAR || e->kind == SM_E_LOOPEXIT || e->kind == SM_E_PREV;
	return counter && e->loop == L ? SM_SEEN_HIT : SM_SEEN_GO;
}

static bool refs_loop(const struct sm_expr *e, const struct sm_loop *L)
{
	struct sm_expr_walk w = { is_loop_counter, (void *)L, SM_WALK_IVS, SM_SCAN_EXPR_DEPTH, true };
	return sm_expr_any(e, &w);
}

/* Loop d's condition is every thread's (the same lanes run each
 * iteration), and neither the access's guards nor the loops inside it
 * read its counters. */
static bool loop_apart(const struct job *J, int d)
{
	const struct sm_loop *L = J->loops[d];
	if (sm_expr_thread_dep(L->cond))
		return false;
	for (const struct sm_guard *g = J->ra->guards; g; g = g->next)
		if (refs_loop(g->cond, L))
			return false;
	for (int i = d + 1; i < J->nloops; i++) {
		const struct sm_loop *M = J->loops[i];
		if (refs_loop(M->cond, L))
			return false;
		for (int v = 0; v < M->niv; v++)
			if (refs_loop(M->ivs[v].init, L) || refs_loop(M->ivs[v].step, L))
				return false;
	}
	return true;
}

/* Loop d of J changes nothing the access sees when its condition is the
 * same for every thread (the same lanes run each iteration) and neither
 * the address, the guards nor the loops inside it read its counters: its
 * iterations all make the same warp requests (a tile loop of a matmul
 * around an access to the tile). */
static bool loop_invariant_for(const struct job *J, int d)
{
	const struct sm_loop *L = J->loops[d];
	const struct sm_raccess *ra = J->ra;
	if (!loop_apart(J, d))
		return false;
	for (int k = 0; k < ra->nidx; k++)
		if (refs_loop(ra->idx[k], L))
			return false;
	return !refs_loop(ra->extra, L);
}

/* How e reads loop L's counter: not at all, as an offset alike in every
 * thread (e = t + u, t reading no counter of L, u no thread index: sums,
 * products and shifts by uniform values, casts, L's own counter stepped by
 * a uniform amount), or otherwise. */
enum { SH_NONE, SH_OFFSET, SH_OTHER };

static int shift_form(const struct sm_expr *e, const struct sm_loop *L, int depth)
{
	if (!e || !refs_loop(e, L))
		return SH_NONE;
	if (!sm_expr_thread_dep(e))
		return SH_OFFSET;
	if (depth > SM_SCAN_EXPR_DEPTH)
		return SH_OTHER;
	if (e->kind == SM_E_LOOPVAR) {
		if (e->loop != L || e->ival < 0 || e->ival >= L->niv)
			return SH_OTHER;
		const struct sm_iv *iv = &L->ivs[e->ival];
		bool affine = iv->op == SM_OP_ADD || iv->op == SM_OP_SUB;
		return affine && !sm_expr_thread_dep(iv->step) ? SH_OFFSET : SH_OTHER;
	}
	if (e->kind == SM_E_CAST)
		return e->bits >= 32 ? shift_form(e->a, L, depth + 1) : SH_OTHER;
	if (e->kind == SM_E_UNARY)
		return e->op == SM_OP_NEG ? shift_form(e->a, L, depth + 1) : SH_OTHER;
	if (e->kind != SM_E_BINARY)
		return SH_OTHER;
	int a = shift_form(e->a, L, depth + 1), b = shift_form(e->b, L, depth + 1);
	if (a == SH_OTHER || b == SH_OTHER)
		return SH_OTHER;
	if (e->op == SM_OP_ADD || e->op == SM_OP_SUB)
		return SH_OFFSET;
	if (e->op == SM_OP_MUL)
		return (a == SH_NONE && !sm_expr_thread_dep(e->a)) || (b == SH_NONE && !sm_expr_thread_dep(e->b))
			       ? SH_OFFSET : SH_OTHER;
	if (e->op == SM_OP_SHL)
		return b == SH_NONE && !sm_expr_thread_dep(e->b) ? SH_OFFSET : SH_OTHER;
	return SH_OTHER;
}

/* Loop d of J moves the access by one offset per iteration, alike in
 * every lane, and changes nothing else: its condition is every thread's,
 * the guards and the loops inside it do not read it, the address reads
 * it only as an offset (shift_form), under a plain layout. Then the
 * wavefronts of an iteration are those of any other moved by a whole
 * number of words (repeat_shifted checks the offset and the bounds at
 * each). */
static bool shift_for(const struct job *J, int d)
{
	const struct sm_loop *L = J->loops[d];
	const struct sm_raccess *ra = J->ra;
	if (J->invariant[d] || !loop_apart(J, d))
		return false;
	if (J->lay && (J->lay->swizzle_mask > 0 || J->lay->offset_shift > 0))
		return false;
	bool reads = false;
	for (int k = 0; k < ra->nidx; k++) {
		int f = shift_form(ra->idx[k], L, 0);
		if (f == SH_OTHER)
			return false;
		reads = reads || f == SH_OFFSET;
	}
	int f = shift_form(ra->extra, L, 0);
	return f != SH_OTHER && (reads || f == SH_OFFSET);
}

/* The array's size in bytes under layout dims (0 when not known: an
 * extern array without dyn_bytes, overflow). An extern array's extent is
 * the launch's dynamic size (dyn_bytes > 0), from its start. */
static int64_t array_bytes(const struct sm_array *arr, const int64_t *dims, int64_t dyn_bytes)
{
	if (arr->is_dynamic)
		return dyn_bytes > 0 ? dyn_bytes : 0;
	if (arr->dims_overflow)
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
		     bool exact, struct sm_guard_memo *gm, struct sm_work *work, struct sm_degree *out)
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
	J.limit = array_bytes(ra->array, dims, lay ? lay->dyn_bytes : 0);
	J.exact = seed == 0 && exact;
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
	for (int i = 0; i < n; i++)
		J.shift[i] = shift_for(&J, i);
	J.amin = INT64_MAX;
	J.amax = INT64_MIN;
	J.nthreads = block.x * block.y * block.z;
	int nwarps = (int)((J.nthreads + SM_WARP - 1) / SM_WARP);
	out->worst = 0;
	J.worst = 0;
	J.layout_worst = 0;
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
	out->layout_worst = J.layout_worst > 0 ? J.layout_worst : out->worst;
	out->mean = J.total_ideal ? (double)J.total_wave / (double)J.total_ideal : 1.0;
	out->wavefronts = J.total_wave;
	out->ideal = J.total_ideal;
	out->totals_exact = !J.inexact && !out->truncated;
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
					out->worst_iv_value = sm_iv_apply(iv->op, init, step, J.worst_iter[d], &c);
					if (c.err)
						out->worst_iv = NULL;
					break;
				}
			}
		}
	}
	out->oob_lanes = J.oob;
	return !J.oob;
}

/* A value every thread shares but the analysis does not know: a uniform
 * unknown, a variable, blockIdx or gridDim. */
static enum sm_seen is_uniform_unknown(const struct sm_expr *e, void *arg)
{
	bool hit = (e->kind == SM_E_OPAQUE && !e->thread_dep) || e->kind == SM_E_VAR ||
		   (e->kind == SM_E_BUILTIN && (e->builtin == SM_B_CTAID || e->builtin == SM_B_NCTAID));
	return hit ? SM_SEEN_HIT : SM_SEEN_GO;
}

static bool has_uniform_unknown(const struct sm_expr *e)
{
	struct sm_expr_walk w = { is_uniform_unknown, NULL, SM_WALK_IVS, SM_SCAN_EXPR_DEPTH, false };
	return sm_expr_any(e, &w);
}

/* A value loaded from memory (global or shared). */
static enum sm_seen is_memory_load(const struct sm_expr *e, void *arg)
{
	bool hit = e->kind == SM_E_OPAQUE && e->thread_dep && (e->place || (e->name && !strcmp(e->name, "memory load")));
	return hit ? SM_SEEN_HIT : SM_SEEN_GO;
}

/* Does the closed expression hold a value loaded from memory (global or
 * shared)? Then the address is data dependent. */
static bool loaded_from_memory(const struct sm_expr *e)
{
	struct sm_expr_walk w = { is_memory_load, NULL, SM_WALK_IVS, SM_SCAN_EXPR_DEPTH, false };
	return sm_expr_any(e, &w);
}

static void degree_layout(const struct sm_raccess *ra, struct sm_dim3 block, const struct sm_layout *dims,
			  struct sm_guard_memo *gm, struct sm_work *w, struct sm_degree *out);
static void data_dependent(const struct sm_raccess *ra, const int64_t *dims, struct sm_arena *A, struct sm_work *work,
			   struct sm_degree *out);

void sm_access_degree(const struct sm_raccess *ra, struct sm_dim3 block, const int64_t *dims,
		      struct sm_arena *A, struct sm_degree *out)
{
	sm_access_degree_in(ra, block, dims, A, NULL, NULL, out);
}

void sm_access_degree_in(const struct sm_raccess *ra, struct sm_dim3 block, const int64_t *dims,
			 struct sm_arena *A, struct sm_guard_memo *gm, struct sm_work *work, struct sm_degree *out)
{
	struct sm_layout lay = { .dims = dims };
	degree_layout(ra, block, &lay, gm, work, out);
	data_dependent(ra, dims, A, work, out);
}

void sm_access_degree_at(const struct sm_raccess *ra, struct sm_dim3 block, int64_t dyn_bytes, struct sm_arena *A,
			 struct sm_guard_memo *gm, struct sm_work *work, struct sm_degree *out)
{
	struct sm_layout lay = { .dyn_bytes = dyn_bytes };
	degree_layout(ra, block, &lay, gm, work, out);
	data_dependent(ra, NULL, A, work, out);
}

/* An access not analyzed because its index is loaded from memory: the
 * range of degrees the data decides between, in out->why. */
static void data_dependent(const struct sm_raccess *ra, const int64_t *dims, struct sm_arena *A, struct sm_work *work,
			   struct sm_degree *out)
{
	if (out->analyzed || !A || !ra->ok || !ra->array || (work && work->spent))
		return;
	bool data = loaded_from_memory(ra->extra);
	for (int k = 0; k < ra->nidx && !data; k++)
		data = loaded_from_memory(ra->idx[k]);
	if (!data)
		return;
	/* the data decides: from a broadcast (1-way) to every lane of a
	 * request on its own word of one bank, as far as the array has words
	 * in one bank */
	unsigned w = ra->width < 4 ? 4 : ra->width;
	int64_t lanes = (int64_t)SM_WARP * 4 / w;
	int64_t bytes = array_bytes(ra->array, dims, 0);
	int64_t per_bank = bytes ? (bytes / 4 + SM_BANKS - 1) / SM_BANKS : lanes;
	int64_t worst = per_bank < lanes ? per_bank : lanes;
	if (worst < 1)
		worst = 1;
	out->why = sm_arena_printf(A, "data-dependent: the index is loaded from memory, so the data decides "
				      "between 1-way (all lanes on one word) and %lld-way", (long long)worst);
}

void sm_access_degree_layout(const struct sm_raccess *ra, struct sm_dim3 block, const struct sm_layout *dims,
			     struct sm_work *w, struct sm_degree *out)
{
	degree_layout(ra, block, dims, NULL, w, out);
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
		unknowns = unknowns || has_uniform_unknown(ra->idx[k]);
	unknowns = unknowns || has_uniform_unknown(ra->extra);
	bool inside = run_seed(ra, block, dims, 0, !unknowns, gm, w, out);
	if (!out->analyzed || !unknowns)
		return;
	bool left = !inside;
	/* the index involves uniform unknowns (parameters, blockIdx): the
	 * degree must not depend on their values. Tries whose addresses fall
	 * outside the array are not executions of a correct program and do
	 * not count; when every try falls outside, there is no degree. */
	for (unsigned seed = 1; seed < SM_UNKNOWN_TRIES; seed++) {
		struct sm_degree other;
		memset(&other, 0, sizeof(other));
		bool in = run_seed(ra, block, dims, seed, false, gm, w, &other);
		if (!other.analyzed) {
			*out = other;
			return;
		}
		if (!in) {
			left = true;
			continue;
		}
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
	out->oob_tries_left = left;
}
