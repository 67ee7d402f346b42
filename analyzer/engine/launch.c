/* launch.c - the launch contexts of a kernel (see launch.h): which block
 * shapes it is analyzed with and where they came from, what the launches
 * of the file fix, and the context a finding carries. */
#include "engine/analysis.h"
#include "engine/launch.h"
#include "engine/visit.h"

#include <string.h>

/* threadIdx or blockDim in dimension dim or above */
static enum sm_seen is_dim_at_least(const struct sm_expr *e, void *arg)
{
	int dim = *(const int *)arg;
	bool hit = e->kind == SM_E_BUILTIN && (e->builtin == SM_B_TID || e->builtin == SM_B_NTID) && e->dim >= dim;
	return hit ? SM_SEEN_HIT : SM_SEEN_GO;
}

/* Does e read threadIdx or blockDim in dimension dim or above (through the
 * place a pointer points at too)? */
static bool uses_dim(const struct sm_expr *e, int dim)
{
	struct sm_expr_walk w = { is_dim_at_least, &dim, SM_WALK_ADDR_PLACE, SM_SCAN_EXPR_DEPTH, false };
	return sm_expr_any(e, &w);
}

static bool stmt_uses_dim(const struct sm_stmt *s, int dim, int depth)
{
	if (!s || depth > SM_SCAN_STMT_DEPTH)
		return false;
	if (uses_dim(s->value, dim) || uses_dim(s->cond, dim))
		return true;
	if (s->access) {
		/* the address, and the value a store writes (f = threadIdx.y
		 * makes a 2-D kernel too) */
		const struct sm_access *a = s->access;
		for (int i = 0; i < a->nidx; i++)
			if (uses_dim(a->idx[i], dim))
				return true;
		if (uses_dim(a->base, dim) || uses_dim(a->extra, dim) || uses_dim(a->value, dim))
			return true;
	}
	for (int i = 0; i < s->nkids; i++)
		if (stmt_uses_dim(s->kids[i], dim, depth + 1))
			return true;
	return false;
}

static bool same_dim(struct sm_dim3 a, struct sm_dim3 b)
{
	return a.x == b.x && a.y == b.y && a.z == b.z;
}

static struct sm_launch_from from_site(const struct sm_launch *L)
{
	struct sm_launch_from f;
	memset(&f, 0, sizeof(f));
	f.kind = SM_LAUNCH_SITE;
	f.site = L->range;
	return f;
}

static struct sm_launch_from from_kind(enum sm_launch_source kind)
{
	struct sm_launch_from f;
	memset(&f, 0, sizeof(f));
	f.kind = kind;
	return f;
}

/* The kernel's cluster shape (__cluster_dims__), into c. */
static void set_cluster(const struct sm_kernel *k, struct sm_launch_ctx *c)
{
	if (k->cluster_dims.x > 0) {
		c->cluster = k->cluster_dims;
		c->cluster_known = true;
		c->cluster_from = from_kind(SM_LAUNCH_CLUSTER);
	}
}

/* One launch site as a context: what it fixes, from it. */
static int site_ctx(const struct sm_kernel *k, const struct sm_launch *L, struct sm_arena *A, struct sm_launch_ctx *c)
{
	memset(c, 0, sizeof(*c));
	c->site = L;
	c->block_known = L->block_known;
	c->block = L->block;
	c->block_from = from_site(L);
	c->grid_known = L->grid_known;
	c->grid = L->grid;
	c->grid_from = from_site(L);
	c->dyn_smem = L->dyn_smem;
	c->smem_from = from_site(L);
	set_cluster(k, c);
	c->args_from = from_site(L);
	if (L->nargs) {
		struct sm_launch_arg *a = sm_arena_alloc(A, L->nargs * sizeof(*a));
		if (!a)
			return -1;
		for (unsigned i = 0; i < L->nargs; i++) {
			a[i] = L->args[i];
			if (i >= k->nparams || i >= k->nvars || k->vars[i]->is_pointer)
				a[i].known = false;
		}
		c->args = a;
		c->nargs = L->nargs;
	}
	return 0;
}

int sm_kernel_launch_common(const struct sm_kernel *k, struct sm_arena *A, struct sm_launch_ctx *out)
{
	memset(out, 0, sizeof(*out));
	out->dyn_smem = -1;
	set_cluster(k, out);
	if (!k->nlaunches)
		return 0;
	const struct sm_launch *L0 = &k->launches[0];
	/* a parameter every launch passes the same constant */
	unsigned np = k->nparams < k->nvars ? k->nparams : k->nvars;
	if (np) {
		struct sm_launch_arg *a = sm_arena_alloc(A, np * sizeof(*a));
		if (!a)
			return -1;
		for (unsigned i = 0; i < np; i++) {
			bool same = !k->vars[i]->is_pointer;
			int64_t v = 0;
			for (unsigned l = 0; l < k->nlaunches && same; l++) {
				const struct sm_launch *L = &k->launches[l];
				if (i >= L->nargs || !L->args[i].known)
					same = false;
				else if (l == 0)
					v = L->args[i].value;
				else
					same = L->args[i].value == v;
			}
			a[i].known = same;
			a[i].value = same ? v : 0;
		}
		out->args = a;
		out->nargs = np;
		out->args_from = from_site(L0);
	}
	/* a grid (and dynamic shared size) every launch uses */
	out->grid_known = true;
	out->grid = L0->grid;
	out->dyn_smem = L0->dyn_smem;
	for (unsigned l = 0; l < k->nlaunches; l++) {
		const struct sm_launch *L = &k->launches[l];
		if (!L->grid_known || !same_dim(L->grid, out->grid))
			out->grid_known = false;
		if (L->dyn_smem != out->dyn_smem)
			out->dyn_smem = -1;
	}
	out->grid_from = from_site(L0);
	out->smem_from = from_site(L0);
	return 0;
}

/* Do sites a and b fix the same values (block and known arguments)? */
static bool same_values(const struct sm_launch_ctx *a, const struct sm_launch_ctx *b)
{
	if (a->block_known != b->block_known || a->site->nargs != b->site->nargs)
		return false;
	if (a->block_known && !same_dim(a->block, b->block))
		return false;
	const struct sm_launch *x = a->site, *y = b->site;
	for (unsigned i = 0; i < x->nargs; i++)
		if (x->args[i].known != y->args[i].known || (x->args[i].known && x->args[i].value != y->args[i].value))
			return false;
	return true;
}

/* Launches that disagree on a parameter they both fix: one context each
 * (distinct values only). */
static void find_values(struct sm_kernel_launches *L, const struct sm_kernel *k)
{
	bool differ = false;
	for (unsigned i = 0; i < k->nparams && !differ; i++)
		for (unsigned l = 1; l < k->nlaunches && !differ; l++) {
			const struct sm_launch *a = &k->launches[0], *b = &k->launches[l];
			if (i < a->nargs && i < b->nargs && a->args[i].known && b->args[i].known &&
			    a->args[i].value != b->args[i].value && !k->vars[i]->is_pointer)
				differ = true;
		}
	if (!differ)
		return;
	for (unsigned l = 0; l < L->nsites && L->nvalues < SM_MAX_LAUNCH_CONTEXTS; l++) {
		bool dup = false;
		for (int c = 0; c < L->nvalues && !dup; c++)
			dup = same_values(L->values[c], &L->site[l]);
		if (!dup)
			L->values[L->nvalues++] = &L->site[l];
	}
}

/* The block shapes a kernel that nothing gives a shape to may be launched
 * with, by the highest dimension it reads (threadIdx or blockDim .x, .y,
 * .z). The first of each list is the assumption the kernel is analyzed
 * with (bank degrees, races); a barrier finding made under it is reported
 * at its rule's level only when it holds under every other one that fits
 * __launch_bounds__ (launch.h other[]). Representative, not exhaustive:
 * one warp (where no two threads are in different warps), the usual 1-D
 * sizes up to CUDA's 1024, square and skewed 2-D tiles (16x16 and 32x8
 * kernels are as common as each other; 8x8 for a small tile), two 3-D
 * blocks; a kernel reading threadIdx.y or .z may still be launched 1-D
 * (cooperative groups read all three), so the 2-D and 3-D lists hold 1-D
 * shapes too. sm_kernel_launches_fit then drops the shapes that overflow
 * the kernel's own arrays. After the
 * first, fewest threads first: a race that vanishes in a small block is
 * ruled out by the cheapest searches. */
static const struct sm_dim3 shapes_1d[] = {
	{ 256, 1, 1 }, { 32, 1, 1 }, { 64, 1, 1 }, { 128, 1, 1 }, { 512, 1, 1 }, { 1024, 1, 1 },
};
static const struct sm_dim3 shapes_2d[] = {
	{ 32, 8, 1 }, { 32, 1, 1 }, { 8, 8, 1 }, { 16, 8, 1 }, { 16, 16, 1 }, { 8, 32, 1 }, { 256, 1, 1 }, { 32, 32, 1 }, { 1024, 1, 1 },
};
static const struct sm_dim3 shapes_3d[] = {
	{ 8, 8, 4 }, { 32, 1, 1 }, { 16, 8, 1 }, { 32, 4, 2 }, { 16, 16, 1 }, { 32, 8, 1 }, { 8, 8, 8 }, { 1024, 1, 1 },
};
_Static_assert(sizeof(shapes_2d) / sizeof(shapes_2d[0]) <= SM_MAX_ASSUMED_SHAPES + 1 &&
		       sizeof(shapes_3d) / sizeof(shapes_3d[0]) <= SM_MAX_ASSUMED_SHAPES + 1,
	       "launch.h other[] holds every shape of a list but the first");

static int64_t threads(struct sm_dim3 b)
{
	return b.x * b.y * b.z;
}

/* The components every launch of k fixes to one constant though the
 * shape as a whole is computed at run time (`dim3 b(1, cols)`, `b.x =
 * 32; b.y = n;`): into fixed (0: free); returns the mask of them (bit d
 * for dimension d). */
static unsigned fixed_dims(const struct sm_kernel *k, int64_t fixed[3])
{
	unsigned mask = 0;
	fixed[0] = fixed[1] = fixed[2] = 0;
	if (!k->nlaunches)
		return 0;
	for (int d = 0; d < 3; d++) {
		int64_t v = 0;
		bool same = true;
		for (unsigned i = 0; i < k->nlaunches && same; i++) {
			const struct sm_dim3 *b = &k->launches[i].block;
			int64_t c = d == 0 ? b->x : d == 1 ? b->y : b->z;
			if (c <= 0 || (i > 0 && c != v))
				same = false;
			v = c;
		}
		if (same) {
			fixed[d] = v;
			mask |= 1u << d;
		}
	}
	return mask == 7 ? 0 : mask; /* all fixed: a known shape, not this case */
}

static void set_comp(struct sm_dim3 *b, int d, int64_t v)
{
	if (d == 0)
		b->x = v;
	else if (d == 1)
		b->y = v;
	else
		b->z = v;
}

/* CUDA's limits on one block's extents (x and y 1024, z 64) and threads */
static bool shape_ok(struct sm_dim3 b, int64_t cap)
{
	return b.x >= 1 && b.y >= 1 && b.z >= 1 && b.x <= 1024 && b.y <= 1024 && b.z <= 64 && b.x * b.y * b.z <= cap;
}

/* A launch that fixes some components: the assumption keeps them and
 * varies only the others. One free component takes the 1-D sizes; more
 * take list's shapes with the fixed components put in. Into L->shape[0]
 * and other[]; false when no shape fits (the caller assumes as before). */
static bool assume_partial(struct sm_kernel_launches *L, const struct sm_dim3 *list, int n, const int64_t fixed[3],
			   unsigned mask, int64_t cap, struct sm_arena *A)
{
	struct sm_dim3 cand[SM_MAX_ASSUMED_SHAPES + 1];
	int nc = 0, nfree = 0, free_dim = -1;
	for (int d = 0; d < 3; d++)
		if (!(mask >> d & 1)) {
			nfree++;
			free_dim = d;
		}
	int nl = nfree == 1 ? (int)(sizeof(shapes_1d) / sizeof(shapes_1d[0])) : n;
	for (int i = 0; i < nl && nc < SM_MAX_ASSUMED_SHAPES + 1; i++) {
		struct sm_dim3 b = nfree == 1 ? (struct sm_dim3){ 1, 1, 1 } : list[i];
		if (nfree == 1)
			set_comp(&b, free_dim, shapes_1d[i].x);
		for (int d = 0; d < 3; d++)
			if (mask >> d & 1)
				set_comp(&b, d, fixed[d]);
		if (!shape_ok(b, cap))
			continue;
		bool dup = false;
		for (int j = 0; j < nc && !dup; j++)
			dup = same_dim(cand[j], b);
		if (!dup)
			cand[nc++] = b;
	}
	if (!nc)
		return false;
	L->shape[0].block = cand[0];
	L->shape[0].block_from.fixed = (uint8_t)mask;
	struct sm_dim3 *o = sm_arena_alloc(A, (size_t)nc * sizeof(*o));
	if (!o)
		return true;
	for (int i = 1; i < nc && L->nother < SM_MAX_ASSUMED_SHAPES; i++)
		o[L->nother++] = cand[i];
	L->other = o;
	return true;
}

/* The assumption for k and the other shapes it admits, into L (shape[0]
 * and other[]): the list of the dimensions it reads, cut at
 * __launch_bounds__. When the list's first shape does not fit the bound,
 * it is halved until it does (below). What the launches fix of the shape
 * is kept (assume_partial). */
static void assume_shapes(struct sm_kernel_launches *L, const struct sm_kernel *k, struct sm_arena *A)
{
	const struct sm_dim3 *list = shapes_1d;
	int n = (int)(sizeof(shapes_1d) / sizeof(shapes_1d[0]));
	/* the launches' own rank, where every launch says it: a kernel that
	 * reads threadIdx.y (cooperative groups read all three) launched
	 * with an integer block is 1-D all the same */
	int rank = k->nlaunches ? 1 : 3;
	for (unsigned i = 0; i < k->nlaunches; i++) {
		int r = k->launches[i].block_known ? 3 : k->launches[i].block_rank;
		rank = r == 0 ? 3 : r > rank ? r : rank;
	}
	if (rank >= 3 && stmt_uses_dim(k->body, 2, 0)) {
		list = shapes_3d;
		n = (int)(sizeof(shapes_3d) / sizeof(shapes_3d[0]));
	} else if (rank >= 2 && stmt_uses_dim(k->body, 1, 0)) {
		list = shapes_2d;
		n = (int)(sizeof(shapes_2d) / sizeof(shapes_2d[0]));
	}
	int64_t cap = k->launch_bounds > 0 && k->launch_bounds <= SM_MAX_BLOCK_THREADS ? k->launch_bounds : SM_MAX_BLOCK_THREADS;
	int64_t fixed[3];
	unsigned mask = fixed_dims(k, fixed);
	if (mask) {
		/* a fixed y or z above 1 makes the kernel that many-D whatever
		 * it reads: take the list of the highest such dimension */
		if (fixed[2] > 1 || (!(mask >> 2 & 1) && rank >= 3)) {
			list = shapes_3d;
			n = (int)(sizeof(shapes_3d) / sizeof(shapes_3d[0]));
		} else if (list == shapes_1d) {
			list = shapes_2d;
			n = (int)(sizeof(shapes_2d) / sizeof(shapes_2d[0]));
		}
		if (assume_partial(L, list, n, fixed, mask, cap, A))
			return;
	}
	/* over the bound: the first shape halved in its highest dimension
	 * until it fits, so rows stay a warp wide (32x8 under a bound of 128
	 * is 32x4: kernels bounded by warps * 32 index lanes by x) */
	struct sm_dim3 b = list[0];
	while (threads(b) > cap && threads(b) > 1) {
		if (b.z > 1)
			b.z = (b.z + 1) / 2;
		else if (b.y > 1)
			b.y = (b.y + 1) / 2;
		else
			b.x = (b.x + 1) / 2;
	}
	L->shape[0].block = b;
	struct sm_dim3 *o = sm_arena_alloc(A, (size_t)n * sizeof(*o));
	if (!o)
		return; /* no other shape to check: findings keep their level */
	for (int i = 0; i < n && L->nother < SM_MAX_ASSUMED_SHAPES; i++)
		if (!same_dim(list[i], b) && threads(list[i]) <= cap)
			o[L->nother++] = list[i];
	L->other = o;
}

/* The shapes: the option's, every constant launch shape, the bound, or
 * the assumption. */
static void find_shapes(struct sm_kernel_launches *L, const struct sm_kernel *k, const struct sm_analysis_options *opt,
			struct sm_arena *A)
{
	struct sm_launch_ctx base = L->common;
	base.site = NULL;
	base.block_known = true;
	if (opt->has_block) {
		L->shape[0] = base;
		L->shape[0].block = opt->block;
		L->shape[0].block_from = from_kind(opt->block_config ? SM_LAUNCH_CONFIG : SM_LAUNCH_OPTION);
		L->shape[0].block_from.config = opt->block_config;
		L->nshapes = 1;
		return;
	}
	int n = 0;
	for (unsigned i = 0; i < k->nlaunches && n < SM_MAX_BLOCK_SHAPES; i++) {
		const struct sm_launch *S = &k->launches[i];
		if (!S->block_known)
			continue;
		bool dup = false;
		for (int j = 0; j < n && !dup; j++)
			dup = same_dim(L->shape[j].block, S->block);
		if (dup)
			continue;
		L->shape[n] = base;
		L->shape[n].block = S->block;
		L->shape[n].block_from = from_site(S);
		n++;
	}
	if ((L->nshapes = n) > 0)
		return;
	L->nshapes = 1;
	L->shape[0] = base;
	if (k->launch_bounds > 0 && k->launch_bounds <= SM_MAX_BLOCK_THREADS && !stmt_uses_dim(k->body, 1, 0)) {
		struct sm_dim3 b = { k->launch_bounds, 1, 1 };
		L->shape[0].block = b;
		L->shape[0].block_from = from_kind(SM_LAUNCH_BOUNDS);
		L->shape[0].block_from.bound = k->launch_bounds;
		return;
	}
	L->assumed = true;
	L->shape[0].block_from = from_kind(SM_LAUNCH_ASSUMED);
	L->shape[0].block_from.runtime_site = k->nlaunches > 0; /* none gave a constant shape */
	if (k->launch_bounds > 0 && k->launch_bounds <= SM_MAX_BLOCK_THREADS)
		L->shape[0].block_from.bound = k->launch_bounds; /* it limits the assumption */
	assume_shapes(L, k, A);
}

int sm_kernel_launches_init(struct sm_kernel_launches *L, const struct sm_kernel *k,
			    const struct sm_analysis_options *opt, struct sm_arena *A)
{
	memset(L, 0, sizeof(*L));
	int rc = sm_kernel_launch_common(k, A, &L->common);
	find_shapes(L, k, opt, A);
	if (rc || !k->nlaunches)
		return rc;
	L->site = sm_arena_alloc(A, k->nlaunches * sizeof(*L->site));
	if (!L->site)
		return -1;
	for (unsigned i = 0; i < k->nlaunches; i++) {
		if (site_ctx(k, &k->launches[i], A, &L->site[i]))
			return -1;
		L->nsites++;
	}
	find_values(L, k);
	return 0;
}

/* ---- the shapes the kernel's arrays admit ---- */

/* Does some thread of block b certainly index outside a declared
 * dimension of ra's array: a subscript that reads the thread's index and
 * nothing unknown, out of [0, extent), where the thread runs the access?
 * Only the corner threads are tried (lowest and highest index in each
 * dimension), where an index that grows or shrinks with the thread's
 * reaches its ends: enough for a tile indexed by threadIdx, and never a
 * wrong answer, only a missed one. */
static bool overflows(const struct sm_raccess *ra, struct sm_dim3 b)
{
	const struct sm_array *a = ra->array;
	if (!ra->ok || !a || ra->src->array != a || ra->src->in_flight || ra->nidx != a->ndims || a->dims_overflow)
		return false;
	for (int corner = 0; corner < 8; corner++) {
		int64_t x = corner & 1 ? b.x - 1 : 0, y = corner & 2 ? b.y - 1 : 0, z = corner & 4 ? b.z - 1 : 0;
		if ((corner & 1 && b.x == 1) || (corner & 2 && b.y == 1) || (corner & 4 && b.z == 1))
			continue; /* the same thread as a corner already tried */
		struct sm_eval_ctx c;
		sm_thread_ctx(&c, b, x + b.x * (y + b.y * z));
		/* it runs the access at the first iteration of each loop; a
		 * condition alike in every thread (a parameter no launch
		 * gives) is taken as true: a kernel whose arrays overflow
		 * whenever its input makes it true is not launched so */
		if (!sm_guards_all_hold(ra->guards, NULL, true, &c) || !sm_loops_run(ra->loop, &c))
			continue;
		for (int i = 0; i < ra->nidx; i++) {
			if (a->dims[i] <= 0 || !ra->idx[i])
				continue;
			c.err = 0;
			c.used_tid = 0;
			c.strict = 1;
			c.budget = SM_EVAL_BUDGET_ACCESS;
			int64_t v = sm_eval(ra->idx[i], &c);
			c.strict = 0;
			if (!c.err && c.used_tid && (v < 0 || v >= a->dims[i]))
				return true;
		}
	}
	return false;
}

static bool fits(const struct sm_kernel_model *m, struct sm_dim3 b)
{
	for (unsigned i = 0; i < m->nacc; i++)
		if (overflows(&m->acc[i], b))
			return false;
	return true;
}

static int64_t from_256(struct sm_dim3 b)
{
	int64_t d = threads(b) - 256;
	return d < 0 ? -d : d;
}

void sm_kernel_launches_fit(struct sm_kernel_launches *L, const struct sm_kernel_model *m)
{
	if (!L->assumed || !L->other)
		return;
	struct sm_dim3 cand[SM_MAX_ASSUMED_SHAPES + 1];
	int n = 0, keep = 0;
	cand[n++] = L->shape[0].block;
	for (int i = 0; i < L->nother; i++)
		cand[n++] = L->other[i];
	bool ok[SM_MAX_ASSUMED_SHAPES + 1];
	for (int i = 0; i < n; i++)
		keep += ok[i] = fits(m, cand[i]);
	if (keep == 0 || keep == n)
		return; /* none fits (the tile check says nothing), or all do */
	/* the new assumption: the shape that fits nearest 256 threads, the
	 * first in the list's order on a tie */
	int best = -1;
	for (int i = 0; i < n; i++)
		if (ok[i] && (best < 0 || from_256(cand[i]) < from_256(cand[best])))
			best = i;
	struct sm_dim3 *o = L->other; /* assume_shapes' array: as long as the list */
	int no = 0;
	for (int i = 0; i < n; i++)
		if (ok[i] && i != best)
			o[no++] = cand[i];
	L->shape[0].block = cand[best];
	L->shape[0].block_from.fitted = true;
	L->nother = no;
}

void sm_launch_shapes(const struct sm_launch_ctx *shape, int n, struct sm_dim3 *out)
{
	for (int i = 0; i < n; i++)
		out[i] = shape[i].block;
}

struct sm_diag_launch sm_launch_ctx_diag(const struct sm_launch_ctx *c)
{
	struct sm_diag_launch d;
	memset(&d, 0, sizeof(d));
	d.dyn_smem = -1;
	if (!c)
		return d;
	if (c->block_known) {
		d.block = c->block;
		d.from = c->block_from;
	}
	if (c->grid_known)
		d.grid = c->grid;
	d.dyn_smem = c->dyn_smem;
	if (c->cluster_known)
		d.cluster = c->cluster;
	return d;
}
