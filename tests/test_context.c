/* test_context.c - Check tests of the calling and launch context on IR
 * built with tests/ir_builder.c (never links libclang): an inlined call
 * (SM_S_CALL) whose return leaves only the call, parameters bound by the
 * launches of the file, values tried for unknowns only where they stay
 * in bounds, recurrences carried from one iteration to the next, and the
 * launch contexts (engine/launch.c): which block shapes a kernel is
 * analyzed with and where each came from. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "engine/facts.h"
#include "engine/merge.h"
#include "engine/threaddep.h"
#include "ir_builder.h"

static const struct sm_dim3 B32 = { 32, 1, 1 };

static struct sm_degree degree_of(struct sm_irb *b, const struct sm_kernel_model *m, unsigned i, struct sm_dim3 block)
{
	struct sm_degree d;
	ck_assert_uint_lt(i, m->nacc);
	sm_access_degree(&m->acc[i], block, NULL, &b->A, &d);
	return d;
}

static struct sm_stmt *call(struct sm_irb *b, struct sm_stmt *body)
{
	struct sm_stmt *c = st(b, SM_S_CALL);
	c->kids = sm_arena_alloc(&b->A, sizeof(*c->kids));
	c->kids[0] = body;
	c->nkids = 1;
	return c;
}

/* helper(p) { if (p & 1) return; } ... __syncthreads(): the return leaves
 * the helper, every thread reaches the barrier */
START_TEST(test_return_leaves_the_call)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_var *p = var(&b, "p", SM_V_LOCAL);
	struct sm_stmt *ret = st(&b, SM_S_RETURN);
	struct sm_stmt *helper = blk(&b, 3, decl(&b, p, tid(&b)), iff(&b, OP(&b, SM_OP_AND, V(&b, p), K(&b, 1)), ret, NULL),
				     acc(&b, SM_ACC_STORE, V(&b, p)));
	struct sm_stmt *sync = bar(&b, SM_BAR_SYNCTHREADS);
	struct sm_stmt *body = blk(&b, 3, call(&b, helper), sync, acc(&b, SM_ACC_LOAD, tid(&b)));
	struct sm_kernel_model m;
	sm_irb_resolve(&b, body, &m);
	struct sm_divergence *d;
	ck_assert_int_eq(sm_divergent_barriers(&m, sm_irb_launches(&b, NULL), &b.A, &d), 0);
	/* the same return written in the kernel diverges */
	struct sm_irb k;
	sm_irb_init(&k);
	struct sm_stmt *ret2 = st(&k, SM_S_RETURN);
	struct sm_stmt *body2 = blk(&k, 2, iff(&k, OP(&k, SM_OP_AND, tid(&k), K(&k, 1)), ret2, NULL), bar(&k, SM_BAR_SYNCTHREADS));
	struct sm_kernel_model m2;
	sm_irb_resolve(&k, body2, &m2);
	ck_assert_int_eq(sm_divergent_barriers(&m2, sm_irb_launches(&k, NULL), &k.A, &d), 1);
	/* the access after the early return is guarded inside the call: odd
	 * lanes skip it (16 lanes, stride 1 over even words: conflict-free) */
	struct sm_degree d0 = degree_of(&b, &m, 0, B32);
	ck_assert(d0.analyzed);
	ck_assert(d0.worst == 1.0);
	sm_irb_release(&k);
	sm_irb_release(&b);
}
END_TEST

/* A callee's parameter bound to the caller's value and a guard at the
 * call site: if (tid < 16) helper(tid * 2) { s[p] }: 16 lanes, stride 2 */
START_TEST(test_callee_sees_the_callers_guard)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_var *p = var(&b, "p", SM_V_LOCAL);
	struct sm_stmt *helper = blk(&b, 2, decl(&b, p, OP(&b, SM_OP_MUL, tid(&b), K(&b, 2))), acc(&b, SM_ACC_STORE, V(&b, p)));
	struct sm_stmt *body = blk(&b, 2, iff(&b, OP(&b, SM_OP_LT, tid(&b), K(&b, 16)), call(&b, helper), NULL),
				   call(&b, blk(&b, 2, decl(&b, p, OP(&b, SM_OP_MUL, tid(&b), K(&b, 2))),
						acc(&b, SM_ACC_STORE, V(&b, p)))));
	struct sm_kernel_model m;
	sm_irb_resolve(&b, body, &m);
	ck_assert(degree_of(&b, &m, 0, B32).worst == 1.0); /* guarded: 16 lanes */
	ck_assert(degree_of(&b, &m, 1, B32).worst == 2.0); /* all 32 lanes */
	sm_irb_release(&b);
}
END_TEST

/* s[tid * n] with parameter n: launches decide */
static struct sm_degree param_stride(const int64_t *values, const bool *known, unsigned nlaunches)
{
	static struct sm_launch launches[4];
	static struct sm_launch_arg args[4];
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_var *n = var(&b, "n", SM_V_PARAM);
	b.k.nparams = 1;
	for (unsigned l = 0; l < nlaunches; l++) {
		memset(&launches[l], 0, sizeof(launches[l]));
		args[l].known = known[l];
		args[l].value = values[l];
		launches[l].args = &args[l];
		launches[l].nargs = 1;
	}
	b.k.launches = launches;
	b.k.nlaunches = nlaunches;
	struct sm_stmt *body = blk(&b, 1, acc(&b, SM_ACC_STORE, OP(&b, SM_OP_MUL, tid(&b), V(&b, n))));
	struct sm_kernel_model m;
	sm_irb_resolve(&b, body, &m);
	struct sm_degree d = degree_of(&b, &m, 0, B32);
	sm_irb_release(&b);
	return d;
}

START_TEST(test_launch_binds_parameters)
{
	int64_t v32[] = { 32, 32 }, mixed[] = { 32, 1 };
	bool yes[] = { true, true }, half[] = { true, false };
	struct sm_degree d = param_stride(v32, yes, 2);
	ck_assert(d.analyzed);
	ck_assert(d.worst == 32.0);
	/* launches that disagree, one that does not fix it, none at all */
	ck_assert(!param_stride(mixed, yes, 2).analyzed);
	ck_assert(!param_stride(v32, half, 2).analyzed);
	d = param_stride(v32, yes, 0);
	ck_assert(!d.analyzed);
	ck_assert_str_eq(d.why, "the degree depends on a value known only at run time");
}
END_TEST

/* launches that disagree: each is a context, the worst is kept with its
 * launch (n = 1: conflict-free, n = 32: 32-way) */
START_TEST(test_launch_contexts)
{
	struct sm_launch launches[2];
	struct sm_launch_arg args[2] = { { .known = true, .value = 1 }, { .known = true, .value = 32 } };
	memset(launches, 0, sizeof(launches));
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_var *n = var(&b, "n", SM_V_PARAM);
	b.k.nparams = 1;
	for (int l = 0; l < 2; l++) {
		launches[l].args = &args[l];
		launches[l].nargs = 1;
		launches[l].block_known = true;
		launches[l].block = B32;
		launches[l].range.begin.line = 50 + (unsigned)l;
	}
	b.k.launches = launches;
	b.k.nlaunches = 2;
	struct sm_stmt *body = blk(&b, 1, acc(&b, SM_ACC_STORE, OP(&b, SM_OP_MUL, tid(&b), V(&b, n))));
	struct sm_kernel_model m;
	sm_irb_resolve(&b, body, &m);
	struct sm_analysis_options opt;
	memset(&opt, 0, sizeof(opt));
	struct sm_kernel_facts f;
	ck_assert_int_eq(sm_kernel_facts_init(&f, &b.k, &opt, &b.A), 0);
	ck_assert_int_eq(f.launch.nvalues, 2);
	ck_assert_int_eq(f.nvalue_models, 2);
	const struct sm_access_result *r = sm_kernel_facts_degrees(&f);
	ck_assert_ptr_nonnull(r);
	ck_assert(r[0].deg.analyzed);
	ck_assert(r[0].deg.worst == 32.0);
	ck_assert_ptr_eq(r[0].launch->site, &launches[1]);
	/* its own shape: the finding names that launch */
	ck_assert_ptr_eq(r[0].ctx, r[0].launch);
	sm_irb_release(&b);
}
END_TEST

/* unknown n: s[tid * n + 1000] on float[1024] is outside for every n
 * tried; s[tid * n] on float[64] is in bounds for n = 1 and 2 only, and
 * those disagree */
START_TEST(test_unknowns_stay_in_bounds)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_var *n = var(&b, "n", SM_V_PARAM);
	struct sm_stmt *body = blk(&b, 1, acc(&b, SM_ACC_STORE, OP(&b, SM_OP_ADD, OP(&b, SM_OP_MUL, tid(&b), V(&b, n)), K(&b, 1000))));
	struct sm_kernel_model m;
	sm_irb_resolve(&b, body, &m);
	struct sm_degree d = degree_of(&b, &m, 0, B32);
	ck_assert(!d.analyzed);
	ck_assert_ptr_nonnull(strstr(d.why, "outside the array"));

	struct sm_irb c;
	sm_irb_init(&c);
	c.s = sm_irb_array(&c, "float", 4, 64, 0);
	struct sm_var *n2 = var(&c, "n", SM_V_PARAM);
	struct sm_stmt *b2 = blk(&c, 2, acc(&c, SM_ACC_STORE, OP(&c, SM_OP_MUL, tid(&c), V(&c, n2))),
				 acc(&c, SM_ACC_STORE, OP(&c, SM_OP_ADD, OP(&c, SM_OP_MUL, tid(&c), K(&c, 2)), OP(&c, SM_OP_AND, V(&c, n2), K(&c, 1)))));
	struct sm_kernel_model m2;
	sm_irb_resolve(&c, b2, &m2);
	d = degree_of(&c, &m2, 0, B32);
	ck_assert(!d.analyzed);
	ck_assert_str_eq(d.why, "the degree depends on a value known only at run time");
	/* tid * 2 + (n & 1): in bounds for every try, 2-way for all */
	d = degree_of(&c, &m2, 1, B32);
	ck_assert(d.analyzed);
	ck_assert(d.worst == 2.0);
	sm_irb_release(&c);
	sm_irb_release(&b);
}
END_TEST

/* for (k = 0; k < 4; k++) { s[pos * 32] ; pos = (pos + 1) & 1 }: a
 * recurrence, 32-way in every iteration; and a guarded doubling
 * for (...) { s[v]; if (tid < 16) v <<= 1 } */
START_TEST(test_recurrences)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_var *pos = var(&b, "pos", SM_V_LOCAL), *k = var(&b, "k", SM_V_LOCAL), *v = var(&b, "v", SM_V_LOCAL);
	struct sm_stmt *l1 = loop(&b, k, K(&b, 4),
				  blk(&b, 2, acc(&b, SM_ACC_STORE, OP(&b, SM_OP_ADD, OP(&b, SM_OP_MUL, V(&b, pos), K(&b, 32)), tid(&b))),
				      assign(&b, pos, SM_OP_ASSIGN, OP(&b, SM_OP_AND, OP(&b, SM_OP_ADD, V(&b, pos), K(&b, 3)), K(&b, 7)))));
	struct sm_stmt *l2 = loop(&b, k, K(&b, 3),
				  blk(&b, 2, acc(&b, SM_ACC_STORE, V(&b, v)),
				      iff(&b, OP(&b, SM_OP_LT, tid(&b), K(&b, 16)), assign(&b, v, SM_OP_SHL, K(&b, 1)), NULL)));
	struct sm_stmt *body = blk(&b, 4, decl(&b, pos, K(&b, 0)), l1, decl(&b, v, tid(&b)), l2);
	struct sm_kernel_model m;
	sm_irb_resolve(&b, body, &m);
	struct sm_degree d = degree_of(&b, &m, 0, B32);
	ck_assert_msg(d.analyzed, "%s", d.why ? d.why : "");
	ck_assert(d.worst == 1.0); /* each iteration: one row of 32 */
	d = degree_of(&b, &m, 1, B32);
	ck_assert_msg(d.analyzed, "%s", d.why ? d.why : "");
	/* iteration 2: lanes 0..15 at 4*tid, lanes 16..31 at tid: words
	 * 0,4,..,60 and 16..31 -> banks 0,4,..,28 hold two words each */
	ck_assert(d.worst == 2.0);
	sm_irb_release(&b);
}
END_TEST

/* nvcc fuses s[2t], s[2t+1] into one 8-byte access, and s[4t..4t+3] into
 * one 16-byte access; not across a store to the array, nor a misaligned
 * pair (2t+1, 2t+2), nor a pair whose distance only evaluation shows */
static unsigned fused_of(int variant)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_expr *two_t = OP(&b, SM_OP_MUL, tid(&b), K(&b, 2));
	struct sm_stmt *body = NULL;
	switch (variant) {
	case 0: /* pair */
		body = blk(&b, 2, acc(&b, SM_ACC_LOAD, two_t), acc(&b, SM_ACC_LOAD, OP(&b, SM_OP_ADD, two_t, K(&b, 1))));
		break;
	case 1: /* a store between */
		body = blk(&b, 3, acc(&b, SM_ACC_LOAD, two_t), acc(&b, SM_ACC_STORE, tid(&b)),
			   acc(&b, SM_ACC_LOAD, OP(&b, SM_OP_ADD, two_t, K(&b, 1))));
		break;
	case 2: /* misaligned */
		body = blk(&b, 2, acc(&b, SM_ACC_LOAD, OP(&b, SM_OP_ADD, two_t, K(&b, 1))),
			   acc(&b, SM_ACC_LOAD, OP(&b, SM_OP_ADD, two_t, K(&b, 2))));
		break;
	case 3: { /* quad */
		struct sm_expr *four_t = OP(&b, SM_OP_MUL, tid(&b), K(&b, 4));
		body = blk(&b, 4, acc(&b, SM_ACC_STORE, four_t), acc(&b, SM_ACC_STORE, OP(&b, SM_OP_ADD, four_t, K(&b, 1))),
			   acc(&b, SM_ACC_STORE, OP(&b, SM_OP_ADD, four_t, K(&b, 2))),
			   acc(&b, SM_ACC_STORE, OP(&b, SM_OP_ADD, four_t, K(&b, 3))));
		break;
	}
	default: /* s[2t] and s[(2t) | 1]: adjacent by value only */
		body = blk(&b, 2, acc(&b, SM_ACC_LOAD, two_t), acc(&b, SM_ACC_LOAD, OP(&b, SM_OP_OR, two_t, K(&b, 1))));
		break;
	}
	struct sm_kernel_model m;
	sm_irb_resolve(&b, body, &m);
	struct sm_merge mg[4];
	sm_find_merges(&m, &B32, 1, &b.A, mg);
	unsigned r = mg[0].n * 100 + mg[0].width;
	sm_irb_release(&b);
	return r;
}

START_TEST(test_fused_accesses)
{
	ck_assert_uint_eq(fused_of(0), 208);  /* 2 accesses, 8 bytes */
	ck_assert_uint_eq(fused_of(1), 104);  /* not fused */
	ck_assert_uint_eq(fused_of(2), 104);
	ck_assert_uint_eq(fused_of(3), 416);  /* 4 accesses, 16 bytes */
	ck_assert_uint_eq(fused_of(4), 104);
}
END_TEST

/* s[data[i]]: data dependent, listed with its best and worst case (a
 * float[256] has 8 words in each bank) and never given a degree */
START_TEST(test_data_dependent)
{
	struct sm_irb b;
	sm_irb_init(&b);
	b.s = sm_irb_array(&b, "float", 4, 256, 0);
	struct sm_expr *loaded = sm_arena_alloc(&b.A, sizeof(*loaded));
	loaded->kind = SM_E_OPAQUE;
	loaded->thread_dep = true;
	loaded->name = "memory load";
	loaded->id = 1;
	struct sm_stmt *body = blk(&b, 2, acc(&b, SM_ACC_ATOMIC, loaded), acc(&b, SM_ACC_LOAD, OP(&b, SM_OP_MUL, tid(&b), K(&b, 2))));
	struct sm_kernel_model m;
	sm_irb_resolve(&b, body, &m);
	struct sm_degree d = degree_of(&b, &m, 0, B32);
	ck_assert(!d.analyzed);
	ck_assert_ptr_nonnull(strstr(d.why, "data-dependent"));
	ck_assert_ptr_nonnull(strstr(d.why, "between 1-way (all lanes on one word) and 8-way"));
	ck_assert(degree_of(&b, &m, 1, B32).analyzed);
	sm_irb_release(&b);
}
END_TEST

/* Byte addressing: r[tid].v[3] on a 16-byte struct element is byte offset
 * 16 * tid + 12 (4-way); ((uint *)bytes)[2 * tid] on a uchar array is byte
 * offset 8 * tid (2-way), not 2 * tid */
START_TEST(test_byte_offsets)
{
	struct sm_irb b;
	sm_irb_init(&b);
	b.s = sm_irb_array(&b, "rec", 16, 128, 0);
	struct sm_stmt *body = blk(&b, 1, acc(&b, SM_ACC_STORE, tid(&b)));
	struct sm_kernel_model m;
	sm_irb_resolve(&b, body, &m);
	m.acc[0].extra = K(&b, 12);
	ck_assert(degree_of(&b, &m, 0, B32).worst == 4.0);

	struct sm_irb c;
	sm_irb_init(&c);
	c.s = sm_irb_array(&c, "uchar", 1, 2048, 0);
	struct sm_stmt *b2 = blk(&c, 1, acc(&c, SM_ACC_STORE, K(&c, 0)));
	sm_irb_resolve(&c, b2, &m);
	/* the front end's form of ((uint *)bytes)[2 * tid]: no subscript of
	 * the uchar array, a byte offset of 4 * (2 * tid) */
	m.acc[0].nidx = 0;
	m.acc[0].extra = OP(&c, SM_OP_MUL, OP(&c, SM_OP_MUL, tid(&c), K(&c, 2)), K(&c, 4));
	ck_assert(degree_of(&c, &m, 0, B32).worst == 2.0);
	sm_irb_release(&c);
	sm_irb_release(&b);
}
END_TEST

/* ---- the launch contexts (engine/launch.c): shapes and provenance ---- */

struct shape_row {
	const char *name;
	int nlaunch;                 /* launches at lines 50, 51 */
	struct sm_dim3 lblock[2];    /* 0: not constant */
	struct sm_dim3 lgrid[2];     /* 0: not constant */
	int64_t lsmem[2];
	int64_t bounds;              /* __launch_bounds__, 0: none */
	struct sm_dim3 option;       /* --block-dim, 0: none */
	const char *config;          /* the option came from this config */
	int dim;                     /* the highest threadIdx dimension read */
	struct sm_dim3 cluster;      /* __cluster_dims__, 0: none */
	/* expected */
	int nshapes;
	enum sm_launch_source kind;  /* shape[0]'s block provenance */
	struct sm_dim3 block;        /* shape[0]'s block */
	unsigned line;               /* SITE: shape[0]'s launch line */
	struct sm_dim3 grid;         /* the grid every launch agrees on, 0: none */
	int64_t dyn_smem;
	int nother;                  /* assumed: the other shapes admitted */
};

#define D3(x, y, z) { x, y, z }
static const struct shape_row shape_rows[] = {
	{ "one shape, two grids", 2, { D3(32, 8, 1), D3(32, 8, 1) }, { D3(4, 1, 1), D3(8, 1, 1) }, { 0, 0 }, 0, D3(0, 0, 0),
	  NULL, 1, D3(0, 0, 0), 1, SM_LAUNCH_SITE, D3(32, 8, 1), 50, D3(0, 0, 0), 0, 0 },
	{ "two shapes, one grid", 2, { D3(64, 1, 1), D3(128, 1, 1) }, { D3(4, 1, 1), D3(4, 1, 1) }, { 256, 256 }, 0,
	  D3(0, 0, 0), NULL, 0, D3(0, 0, 0), 2, SM_LAUNCH_SITE, D3(64, 1, 1), 50, D3(4, 1, 1), 256, 0 },
	{ "a launch whose shape is not constant", 2, { D3(0, 0, 0), D3(128, 1, 1) }, { D3(0, 0, 0), D3(2, 1, 1) }, { -1, 0 }, 0,
	  D3(0, 0, 0), NULL, 0, D3(0, 0, 0), 1, SM_LAUNCH_SITE, D3(128, 1, 1), 51, D3(0, 0, 0), -1, 0 },
	{ "bounds", 1, { D3(0, 0, 0) }, { D3(2, 1, 1) }, { 0 }, 128, D3(0, 0, 0), NULL, 0, D3(0, 0, 0), 1, SM_LAUNCH_BOUNDS,
	  D3(128, 1, 1), 0, D3(2, 1, 1), 0, 0 },
	{ "bounds, kernel reads threadIdx.y", 0, { D3(0, 0, 0) }, { D3(0, 0, 0) }, { 0 }, 128, D3(0, 0, 0), NULL, 1,
	  D3(0, 0, 0), 1, SM_LAUNCH_ASSUMED, D3(32, 4, 1), 0, D3(0, 0, 0), -1, 3 }, /* 32x8 over the bound: halved; 32x1, 8x8, 16x8 fit */
	{ "option over a launch", 1, { D3(32, 1, 1) }, { D3(1, 1, 1) }, { 0 }, 0, D3(64, 2, 1), NULL, 0, D3(0, 0, 0), 1,
	  SM_LAUNCH_OPTION, D3(64, 2, 1), 0, D3(1, 1, 1), 0, 0 },
	{ "config", 0, { D3(0, 0, 0) }, { D3(0, 0, 0) }, { 0 }, 0, D3(16, 16, 1), "p/.smemlint.yaml", 1, D3(0, 0, 0), 1,
	  SM_LAUNCH_CONFIG, D3(16, 16, 1), 0, D3(0, 0, 0), -1, 0 },
	{ "nothing, threadIdx.z", 0, { D3(0, 0, 0) }, { D3(0, 0, 0) }, { 0 }, 0, D3(0, 0, 0), NULL, 2, D3(2, 1, 1), 1,
	  SM_LAUNCH_ASSUMED, D3(8, 8, 4), 0, D3(0, 0, 0), -1, 7 },
	{ "nothing, threadIdx.x", 0, { D3(0, 0, 0) }, { D3(0, 0, 0) }, { 0 }, 0, D3(0, 0, 0), NULL, 0, D3(0, 0, 0), 1,
	  SM_LAUNCH_ASSUMED, D3(256, 1, 1), 0, D3(0, 0, 0), -1, 5 },
};

static bool dim_eq(struct sm_dim3 a, struct sm_dim3 b)
{
	return a.x == b.x && a.y == b.y && a.z == b.z;
}

START_TEST(test_launch_shapes)
{
	const struct shape_row R = shape_rows[_i];
	struct sm_launch launches[2];
	memset(launches, 0, sizeof(launches));
	struct sm_irb b;
	sm_irb_init(&b);
	for (int l = 0; l < R.nlaunch; l++) {
		launches[l].block = R.lblock[l];
		launches[l].block_known = R.lblock[l].x > 0;
		launches[l].grid = R.lgrid[l];
		launches[l].grid_known = R.lgrid[l].x > 0;
		launches[l].dyn_smem = R.lsmem[l];
		launches[l].range.begin.line = 50 + (unsigned)l;
	}
	b.k.launches = launches;
	b.k.nlaunches = (unsigned)R.nlaunch;
	b.k.launch_bounds = R.bounds;
	b.k.cluster_dims = R.cluster;
	struct sm_kernel_model m;
	sm_irb_resolve(&b, blk(&b, 1, acc(&b, SM_ACC_STORE, T(&b, R.dim))), &m);
	struct sm_analysis_options opt;
	memset(&opt, 0, sizeof(opt));
	if (R.option.x) {
		opt.has_block = true;
		opt.block = R.option;
		opt.block_config = R.config;
	}
	struct sm_kernel_launches L;
	ck_assert_int_eq(sm_kernel_launches_init(&L, &b.k, &opt, &b.A), 0);
	ck_assert_msg(L.nshapes == R.nshapes, "%s: %d shapes", R.name, L.nshapes);
	const struct sm_launch_ctx *c = &L.shape[0];
	ck_assert_msg(c->block_known && dim_eq(c->block, R.block), "%s: block", R.name);
	ck_assert_msg(c->block_from.kind == R.kind, "%s: kind %d", R.name, c->block_from.kind);
	ck_assert_msg(L.assumed == (R.kind == SM_LAUNCH_ASSUMED), "%s: assumed", R.name);
	if (R.kind == SM_LAUNCH_SITE)
		ck_assert_msg(c->block_from.site.begin.line == R.line, "%s: line %u", R.name, c->block_from.site.begin.line);
	if (R.kind == SM_LAUNCH_BOUNDS || R.kind == SM_LAUNCH_ASSUMED)
		ck_assert_int_eq(c->block_from.bound, R.bounds); /* an assumption names the bound it kept within */
	if (R.kind == SM_LAUNCH_CONFIG)
		ck_assert_str_eq(c->block_from.config, R.config);
	ck_assert_msg(c->grid_known == (R.grid.x > 0) && (!c->grid_known || dim_eq(c->grid, R.grid)), "%s: grid", R.name);
	ck_assert_msg(c->dyn_smem == R.dyn_smem, "%s: dyn_smem %lld", R.name, (long long)c->dyn_smem);
	ck_assert_msg(c->cluster_known == (R.cluster.x > 0), "%s: cluster", R.name);
	if (R.cluster.x)
		ck_assert_int_eq(c->cluster_from.kind, SM_LAUNCH_CLUSTER);
	if (R.nshapes > 1)
		ck_assert_uint_eq(L.shape[1].block_from.site.begin.line, 51);
	/* an assumed shape: the others admitted, each distinct from it, within
	 * the bound, one warp among them; a given shape has none */
	ck_assert_msg(L.nother == R.nother, "%s: %d other shapes", R.name, L.nother);
	bool warp = false;
	for (int i = 0; i < L.nother; i++) {
		struct sm_dim3 o = L.other[i];
		ck_assert_msg(!dim_eq(o, c->block), "%s: other %d repeats the assumption", R.name, i);
		ck_assert(o.x * o.y * o.z <= (R.bounds ? R.bounds : 1024));
		ck_assert(o.x * o.y * o.z >= 32);
		warp |= dim_eq(o, (struct sm_dim3){ 32, 1, 1 });
		for (int j = 0; j < i; j++)
			ck_assert(!dim_eq(o, L.other[j]));
	}
	ck_assert(warp == (R.nother > 0));
	/* one site context per launch, each from its own line */
	ck_assert_uint_eq(L.nsites, (unsigned)R.nlaunch);
	for (unsigned l = 0; l < L.nsites; l++) {
		ck_assert_int_eq(L.site[l].block_from.kind, SM_LAUNCH_SITE);
		ck_assert_uint_eq(L.site[l].block_from.site.begin.line, 50 + l);
		ck_assert_ptr_eq(L.site[l].site, &launches[l]);
	}
	/* what a finding carries */
	struct sm_diag_launch d = sm_launch_ctx_diag(c);
	ck_assert(dim_eq(d.block, R.block));
	ck_assert_int_eq(d.from.kind, R.kind);
	ck_assert(dim_eq(d.grid, R.grid));
	ck_assert_int_eq(d.dyn_smem, R.dyn_smem);
	ck_assert(dim_eq(d.cluster, R.cluster));
	ck_assert_int_eq(sm_launch_ctx_diag(NULL).from.kind, SM_LAUNCH_NONE);
	sm_irb_release(&b);
}
END_TEST

/* The arguments every launch agrees on are the common context's, a
 * pointer's never; sites that disagree are value contexts, one per
 * distinct set of values. */
START_TEST(test_launch_common_values)
{
	struct sm_launch launches[3];
	struct sm_launch_arg args[3][2] = { { { .known = true, .value = 7 }, { .known = true, .value = 1 } },
					     { { .known = true, .value = 7 }, { .known = true, .value = 2 } },
					     { { .known = true, .value = 7 }, { .known = true, .value = 1 } } };
	memset(launches, 0, sizeof(launches));
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_var *n = var(&b, "n", SM_V_PARAM), *p = var(&b, "p", SM_V_PARAM);
	(void)n;
	p->is_pointer = true;
	b.k.nparams = 2;
	for (int l = 0; l < 3; l++) {
		launches[l].args = args[l];
		launches[l].nargs = 2;
		launches[l].dyn_smem = -1;
		launches[l].range.begin.line = 60 + (unsigned)l;
	}
	/* p = 1, 2, 1: but p is a pointer, so nothing differs */
	b.k.launches = launches;
	b.k.nlaunches = 3;
	struct sm_kernel_model m;
	sm_irb_resolve(&b, blk(&b, 1, acc(&b, SM_ACC_STORE, tid(&b))), &m);
	struct sm_analysis_options opt;
	memset(&opt, 0, sizeof(opt));
	struct sm_kernel_launches L;
	ck_assert_int_eq(sm_kernel_launches_init(&L, &b.k, &opt, &b.A), 0);
	ck_assert_uint_eq(L.common.nargs, 2);
	ck_assert(L.common.args[0].known);
	ck_assert_int_eq(L.common.args[0].value, 7);
	ck_assert(!L.common.args[1].known);
	ck_assert_int_eq(L.nvalues, 0);
	ck_assert(!L.site[1].args[1].known); /* a pointer's value is never known */
	/* now n differs: 7, 8, 7 -> two value contexts (lines 60 and 61) */
	args[1][0].value = 8;
	ck_assert_int_eq(sm_kernel_launches_init(&L, &b.k, &opt, &b.A), 0);
	ck_assert(!L.common.args[0].known);
	ck_assert_int_eq(L.nvalues, 2);
	ck_assert_uint_eq(L.values[0]->site->range.begin.line, 60);
	ck_assert_uint_eq(L.values[1]->site->range.begin.line, 61);
	ck_assert_int_eq(L.values[1]->args[0].value, 8);
	sm_irb_release(&b);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("context");
	TCase *tc = tcase_create("calls");
	tcase_add_test(tc, test_return_leaves_the_call);
	tcase_add_test(tc, test_callee_sees_the_callers_guard);
	suite_add_tcase(s, tc);
	TCase *tl = tcase_create("values");
	tcase_add_test(tl, test_launch_binds_parameters);
	tcase_add_test(tl, test_launch_contexts);
	tcase_add_test(tl, test_unknowns_stay_in_bounds);
	tcase_add_test(tl, test_recurrences);
	tcase_add_test(tl, test_fused_accesses);
	tcase_add_test(tl, test_data_dependent);
	tcase_add_test(tl, test_byte_offsets);
	suite_add_tcase(s, tl);
	TCase *tk = tcase_create("launch");
	tcase_add_loop_test(tk, test_launch_shapes, 0, (int)(sizeof(shape_rows) / sizeof(shape_rows[0])));
	tcase_add_test(tk, test_launch_common_values);
	suite_add_tcase(s, tk);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
