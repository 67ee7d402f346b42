/* facts.c - per-kernel facts, computed on first use (see facts.h). */
#define _GNU_SOURCE
#include "engine/facts.h"
#include "engine/merge.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int sm_kernel_facts_init(struct sm_kernel_facts *f, struct sm_kernel *k, const struct sm_analysis_options *opt,
			 struct sm_arena *A)
{
	memset(f, 0, sizeof(*f));
	f->opt = opt;
	f->arena = A;
	f->ndivergence = -1;
	bool ok = sm_kernel_launches_init(&f->launch, k, opt, A) == 0;
	f->resolved = ok && sm_resolve_kernel_at(k, &f->launch.common, A, &f->model) == 0;
	if (f->resolved)
		sm_kernel_launches_fit(&f->launch, &f->model);
	if (!ok) {
		f->model.kernel = k;
		return -1;
	}
	/* launches that fix different values: a model each */
	for (int c = 0; c < f->launch.nvalues; c++) {
		if (sm_resolve_kernel_at(k, f->launch.values[c], A, &f->value_model[c]) != 0)
			break;
		f->nvalue_models++;
	}
	return f->resolved ? 0 : -1;
}

/* Is the shape context s the one the site context L launches with? */
static bool shape_of(const struct sm_launch_ctx *L, const struct sm_launch_ctx *s)
{
	return L->block.x == s->block.x && L->block.y == s->block.y && L->block.z == s->block.z;
}

/* Is a block shape from ctx one the program launches with (a launch site,
 * --block-dim, the config), rather than an assumption or the bound of
 * __launch_bounds__ (the most threads, not the launch's)? */
static bool launched_shape(const struct sm_launch_ctx *ctx)
{
	enum sm_launch_source k = ctx->block_from.kind;
	return k == SM_LAUNCH_SITE || k == SM_LAUNCH_OPTION || k == SM_LAUNCH_CONFIG;
}

/* Keep the first certain out-of-bounds witness of access ar, under ctx. */
static void keep_oob(struct sm_access_result *ar, const struct sm_degree *d, const struct sm_launch_ctx *ctx)
{
	if (d->oob.found && !ar->oob.found && launched_shape(ctx)) {
		ar->oob = d->oob;
		ar->oob_ctx = ctx;
	}
}

/* Access a over the launch contexts: each with its own values and block
 * (or every shape when its block is not known, or --block-dim); the worst,
 * naming its launch. One context that cannot be analyzed makes the access
 * not analyzed: its value there is unknown. */
static void context_degree(struct sm_kernel_facts *f, unsigned a, struct sm_guard_memo *gm, struct sm_access_result *ar)
{
	bool first = true;
	const struct sm_kernel_launches *K = &f->launch;
	for (int c = 0; c < f->nvalue_models; c++) {
		const struct sm_launch_ctx *L = K->values[c];
		if (a >= f->value_model[c].nacc)
			continue;
		/* the launch's own shape when it has one (unless an option
		 * overrides the shape), else every shape */
		bool own = L->block_known && K->shape[0].block_from.kind == SM_LAUNCH_SITE;
		for (int b = 0; b < K->nshapes; b++) {
			const struct sm_launch_ctx *S = &K->shape[b];
			if (own && !shape_of(L, S))
				continue;
			struct sm_degree d;
			const struct sm_launch_ctx *at = own ? L : S;
			sm_access_degree_at(&f->value_model[c].acc[a], S->block, at->dyn_smem, f->arena, gm, f->work, &d);
			keep_oob(ar, &d, at);
			if (!d.analyzed) {
				ar->deg = d;
				ar->block = S->block;
				ar->ctx = own ? L : S;
				ar->launch = L;
				return;
			}
			if (first || d.worst > ar->deg.worst) {
				ar->deg = d;
				ar->block = S->block;
				ar->block_assumed = K->assumed;
				ar->ctx = own ? L : S;
				ar->launch = L;
				first = false;
			}
		}
	}
}

const struct sm_access_result *sm_kernel_facts_degrees(struct sm_kernel_facts *f)
{
	if (f->degrees || f->degrees_failed)
		return f->degrees;
	const struct sm_kernel_model *m = &f->model;
	const struct sm_kernel_launches *K = &f->launch;
	if (f->work && m->kernel)
		f->work->kernel = m->kernel->name; /* named if the budget runs out here */
	struct sm_access_result *res = sm_arena_alloc(f->arena, (m->nacc + 1) * sizeof(*res));
	if (!res) {
		f->degrees_failed = true;
		return NULL;
	}
	memset(res, 0, (m->nacc + 1) * sizeof(*res));
	/* guard values are shared by the accesses of one model (the launch
	 * contexts have models of their own, with guards of their own) */
	struct sm_guard_memo *gm = sm_guard_memo_new();
	for (unsigned a = 0; a < m->nacc; a++) {
		struct sm_access_result *ar = &res[a];
		if (m->acc[a].src && m->acc[a].src->in_flight)
			continue; /* a copy in flight: no instruction (not analyzed) */
		if (f->nvalue_models) {
			context_degree(f, a, gm, ar);
			continue;
		}
		for (int b = 0; b < K->nshapes; b++) {
			struct sm_degree d;
			sm_access_degree_at(&m->acc[a], K->shape[b].block, K->shape[b].dyn_smem, f->arena, gm, f->work, &d);
			keep_oob(ar, &d, &K->shape[b]);
			if (b == 0 || (d.analyzed && (!ar->deg.analyzed || d.worst > ar->deg.worst))) {
				ar->deg = d;
				ar->block = K->shape[b].block;
				ar->block_assumed = K->assumed;
				ar->ctx = &K->shape[b];
			}
		}
	}
	/* another block's memory, or a bulk copy: its bounds stay, but the
	 * lanes' banks do not serve it (the cluster's network, the async
	 * proxy) and the profiler counts no shared wavefronts for it */
	for (unsigned a = 0; a < m->nacc; a++) {
		const struct sm_access *src = m->acc[a].src;
		bool bulk = src && src->async_copy && src->bulk;
		if (src && (src->remote || bulk)) {
			res[a].deg.analyzed = false;
			res[a].deg.why = bulk ? "one thread's copy of a whole range (a bulk copy): the async proxy moves it, "
						"not the lanes"
					      : "another block's shared memory (map_shared_rank): no bank model for the "
						"cluster's network";
		}
	}
	/* groups nvcc fuses: every member gets the fused access's degree */
	struct sm_merge *mg = sm_arena_alloc(f->arena, (m->nacc + 1) * sizeof(*mg));
	if (mg) {
		struct sm_dim3 shapes[SM_MAX_BLOCK_SHAPES];
		sm_launch_shapes(K->shape, K->nshapes, shapes);
		sm_find_merges(m, shapes, K->nshapes, f->arena, mg);
		for (unsigned a = 0; a < m->nacc; a++) {
			if (mg[a].n < 2 || mg[a].leader != a)
				continue;
			struct sm_raccess fused = m->acc[a];
			fused.width = mg[a].width;
			struct sm_access_result r;
			memset(&r, 0, sizeof(r));
			for (int b = 0; b < K->nshapes; b++) {
				struct sm_degree d;
				sm_access_degree_in(&fused, K->shape[b].block, NULL, f->arena, gm, f->work, &d);
				if (b == 0 || (d.analyzed && (!r.deg.analyzed || d.worst > r.deg.worst))) {
					r.deg = d;
					r.block = K->shape[b].block;
					r.block_assumed = K->assumed;
					r.ctx = &K->shape[b];
				}
			}
			if (!r.deg.analyzed)
				continue;
			r.fused = mg[a].n;
			r.fused_width = mg[a].width;
			r.fused_first = a;
			for (unsigned k = a; k < m->nacc; k++)
				if (mg[k].leader == a && mg[k].n > 1) {
					/* each member keeps its own bytes' bounds */
					struct sm_oob o = res[k].oob;
					const struct sm_launch_ctx *oc = res[k].oob_ctx;
					res[k] = r;
					res[k].oob = o;
					res[k].oob_ctx = oc;
				}
		}
	}
	sm_guard_memo_free(gm);
	f->degrees = res;
	return res;
}

/* Races for one block shape into s (once). */
static const struct sm_race_set *races_for(struct sm_kernel_facts *f, struct sm_race_set *s, struct sm_dim3 block)
{
	if (!s->done) {
		s->done = true;
		s->ok = sm_kernel_races_in(&f->model, block, f->arena, f->work, &s->v, &s->n) == 0 &&
			sm_kernel_own_copy_reads(&f->model, block, f->arena, f->work, &s->v, &s->n) == 0 &&
			sm_kernel_remote_races(&f->model, block, f->arena, f->work, &s->v, &s->n) == 0 &&
			sm_kernel_proxy_races(&f->model, block, f->arena, f->work, &s->v, &s->n) == 0;
		s->partial = f->work && f->work->spent;
	}
	return s->ok ? s : NULL;
}

const struct sm_race_set *sm_kernel_facts_races(struct sm_kernel_facts *f, int b)
{
	if (b < 0 || b >= f->launch.nshapes)
		return NULL;
	return races_for(f, &f->races[b], f->launch.shape[b].block);
}

/* The pairs searched under the other shapes: those of the races found
 * under the assumed one (not benign), by the statements' source ranges.
 * Accesses with one source range share a range id (the lowest index with
 * that range); a wanted pair is the key (id of a, id of b), and the keys
 * are sorted, so a pair costs one binary search, whatever the number of
 * races (a scan of them made the search cubic). */
struct want {
	const unsigned *rid;           /* [nacc]: the access's range id */
	const uint64_t *key;           /* [nkey]: sorted wanted (rid a, rid b) */
	unsigned nkey;
};

static uint64_t pair_key(const unsigned *rid, unsigned a, unsigned b)
{
	return (uint64_t)rid[a] << 32 | rid[b];
}

static bool want_pair(void *ctx, unsigned a, unsigned b)
{
	const struct want *W = ctx;
	uint64_t k = pair_key(W->rid, a, b);
	unsigned lo = 0, hi = W->nkey;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (W->key[mid] < k)
			lo = mid + 1;
		else if (W->key[mid] > k)
			hi = mid;
		else
			return true;
	}
	return false;
}

static int cmp_range(struct sm_range a, struct sm_range b)
{
	unsigned x[5] = { a.file, a.begin.line, a.begin.col, a.end.line, a.end.col };
	unsigned y[5] = { b.file, b.begin.line, b.begin.col, b.end.line, b.end.col };
	for (int i = 0; i < 5; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

static int cmp_acc_range(const void *pa, const void *pb, void *ctx)
{
	const struct sm_raccess *acc = ctx;
	unsigned a = *(const unsigned *)pa, b = *(const unsigned *)pb;
	int c = cmp_range(acc[a].src->range, acc[b].src->range);
	return c ? c : (a > b) - (a < b);
}

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	return (a > b) - (a < b);
}

/* W for the races of s0 over model m; -1 when out of memory. */
static int want_init(struct want *W, const struct sm_kernel_model *m, const struct sm_race_set *s0,
		     struct sm_arena *A)
{
	unsigned n = m->nacc;
	unsigned *ord = sm_arena_alloc(A, (n + 1) * sizeof(*ord));
	unsigned *rid = sm_arena_alloc(A, (n + 1) * sizeof(*rid));
	uint64_t *key = sm_arena_alloc(A, (s0->n + 1) * sizeof(*key));
	if (!ord || !rid || !key)
		return -1;
	for (unsigned a = 0; a < n; a++)
		ord[a] = a;
	qsort_r(ord, n, sizeof(*ord), cmp_acc_range, (void *)m->acc);
	for (unsigned i = 0; i < n; i++)
		rid[ord[i]] = i > 0 && cmp_range(m->acc[ord[i]].src->range, m->acc[ord[i - 1]].src->range) == 0
				      ? rid[ord[i - 1]]
				      : ord[i];
	unsigned nk = 0;
	for (unsigned j = 0; j < s0->n; j++)
		if (!s0->v[j].same_value)
			key[nk++] = pair_key(rid, s0->v[j].a, s0->v[j].b);
	qsort(key, nk, sizeof(*key), cmp_u64);
	*W = (struct want){ rid, key, nk };
	return 0;
}

/* The facts of launch.other[i], allocated zeroed on first use; NULL when
 * out of memory. */
static struct sm_other_shape *other_of(struct sm_kernel_facts *f, int i)
{
	if (!f->other) {
		size_t n = (size_t)f->launch.nother * sizeof(*f->other);
		f->other = sm_arena_alloc(f->arena, n);
		if (!f->other)
			return NULL;
		memset(f->other, 0, n);
	}
	return &f->other[i];
}

const struct sm_race_set *sm_kernel_facts_races_other(struct sm_kernel_facts *f, int i)
{
	if (i < 0 || i >= f->launch.nother)
		return NULL;
	struct sm_other_shape *o = other_of(f, i);
	if (!o)
		return NULL;
	struct sm_race_set *s = &o->races;
	if (s->done)
		return s->ok ? s : NULL;
	const struct sm_race_set *s0 = sm_kernel_facts_races(f, 0);
	s->done = true;
	const struct sm_kernel_model *m = &f->model;
	struct want W;
	if (!s0 || want_init(&W, m, s0, f->arena) != 0)
		return NULL;
	struct sm_race_filter F = { want_pair, &W };
	s->ok = sm_kernel_races_pairs(m, f->launch.other[i], &F, f->arena, f->work, &s->v, &s->n) == 0 &&
		sm_kernel_own_copy_reads(m, f->launch.other[i], f->arena, f->work, &s->v, &s->n) == 0 &&
		sm_kernel_remote_races(m, f->launch.other[i], f->arena, f->work, &s->v, &s->n) == 0 &&
		sm_kernel_proxy_races(m, f->launch.other[i], f->arena, f->work, &s->v, &s->n) == 0;
	s->partial = f->work && f->work->spent;
	return s->ok ? s : NULL;
}

int sm_kernel_facts_divergence_other(struct sm_kernel_facts *f, int i, const struct sm_divergence **out)
{
	*out = NULL;
	struct sm_other_shape *o = i >= 0 && i < f->launch.nother && f->model.kernel ? other_of(f, i) : NULL;
	if (!o)
		return -1;
	if (!o->divergence_done) {
		o->divergence_done = true;
		o->ndivergence = -1;
		/* the launch contexts with the other shape in the assumption's place */
		struct sm_kernel_launches *K = sm_arena_alloc(f->arena, sizeof(*K));
		if (K) {
			*K = f->launch;
			K->shape[0].block = f->launch.other[i];
			struct sm_divergence *d = NULL;
			o->ndivergence = sm_divergent_barriers(&f->model, K, f->arena, &d);
			o->divergence = d;
		}
	}
	*out = o->divergence;
	return o->ndivergence;
}

int sm_kernel_facts_divergence(struct sm_kernel_facts *f, const struct sm_divergence **out)
{
	if (f->ndivergence < 0 && f->model.kernel) {
		struct sm_divergence *d = NULL;
		f->ndivergence = sm_divergent_barriers(&f->model, &f->launch, f->arena, &d);
		f->divergence = d;
	}
	*out = f->divergence;
	return f->ndivergence;
}
