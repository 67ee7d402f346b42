/* test_uniform.c - Check tests of values alike in the threads of one tile
 * (analyzer/engine/uniform.c): the span of an expression, the race search
 * telling one tile's one value (benign) from two tiles' values (a race),
 * a tile's barrier under a condition alike in the tile, one value in two
 * given threads and the race search's opposite arms. IR built with
 * tests/ir_builder.c. Never links libclang. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/threaddep.h"
#include "ir_builder.h"

static const struct sm_dim3 B128 = { 128, 1, 1 };

/* A value alike in each run of span threads (a tile's reduce, as the
 * front end gives it): a per-thread unknown with a span (ir.h). */
static struct sm_expr *tile_value(struct sm_irb *b, unsigned span)
{
	struct sm_expr *e = sm_arena_alloc(&b->A, sizeof(*e));
	ck_assert_ptr_nonnull(e);
	e->kind = SM_E_OPAQUE;
	e->thread_dep = true;
	e->name = "reduce";
	e->id = (unsigned)((uintptr_t)e >> 4); /* distinct per unknown */
	e->span = span;
	return e;
}

/* A load of a 4-byte element idx of an array of n: a per-thread unknown
 * with its place, alike where its address is. */
static struct sm_expr *load_at(struct sm_irb *b, int64_t n, struct sm_expr *idx)
{
	struct sm_array *buf = sm_arena_alloc(&b->A, sizeof(*buf));
	struct sm_access *pl = sm_arena_alloc(&b->A, sizeof(*pl));
	ck_assert_ptr_nonnull(buf);
	ck_assert_ptr_nonnull(pl);
	struct sm_expr *e = tile_value(b, 0);
	buf->ndims = 1;
	buf->dims[0] = n;
	buf->elem_size = 4;
	pl->array = buf;
	pl->nidx = 1;
	pl->idx[0] = idx;
	e->place = pl;
	return e;
}

/* ---- the span of an expression ---- */

enum vshape { V_TILE, V_TILE_PLUS_CONST, V_TILE_PLUS_TID, V_TWO_TILES, V_COND, V_CONST, V_PARAM, V_TID, V_NTID,
	      V_PER_THREAD };

struct span_row {
	enum vshape shape;
	unsigned a, c;  /* the spans of the tile values it reads */
	int64_t want;
};

static const struct span_row span_rows[] = {
	{ V_TILE, 32, 0, 32 },
	{ V_TILE, 16, 0, 16 },
	{ V_TILE_PLUS_CONST, 32, 0, 32 },  /* reduce + 1 */
	{ V_TILE_PLUS_TID, 32, 0, 1 },     /* reduce + threadIdx.x */
	{ V_TWO_TILES, 32, 16, 16 },       /* a warp's value and a half's */
	{ V_TWO_TILES, 32, 8, 8 },
	{ V_TWO_TILES, 12, 8, 4 },         /* runs aligned at 12 and at 8 meet in runs of 4 */
	{ V_COND, 32, 16, 16 },            /* x > 0 ? y : 2 */
	{ V_CONST, 0, 0, 0 },              /* alike in the whole block */
	{ V_PARAM, 0, 0, 0 },
	{ V_NTID, 0, 0, 0 },
	{ V_TID, 0, 0, 1 },
	{ V_PER_THREAD, 0, 0, 1 },         /* an unknown with no span */
};

START_TEST(test_span)
{
	const struct span_row *R = &span_rows[_i];
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_var *n = var(&b, "n", SM_V_PARAM);
	struct sm_expr *e = NULL;
	switch (R->shape) {
	case V_TILE: e = tile_value(&b, R->a); break;
	case V_TILE_PLUS_CONST: e = OP(&b, SM_OP_ADD, tile_value(&b, R->a), K(&b, 1)); break;
	case V_TILE_PLUS_TID: e = OP(&b, SM_OP_ADD, tile_value(&b, R->a), tid(&b)); break;
	case V_TWO_TILES: e = OP(&b, SM_OP_MUL, tile_value(&b, R->a), tile_value(&b, R->c)); break;
	case V_COND:
		e = sm_arena_alloc(&b.A, sizeof(*e));
		e->kind = SM_E_COND;
		e->a = OP(&b, SM_OP_GT, tile_value(&b, R->a), K(&b, 0));
		e->b = tile_value(&b, R->c);
		e->c = K(&b, 2);
		break;
	case V_CONST: e = K(&b, 7); break;
	case V_PARAM: e = V(&b, n); break;
	case V_TID: e = tid(&b); break;
	case V_NTID: e = BI(&b, SM_B_NTID); break;
	case V_PER_THREAD: e = tile_value(&b, 0); break;
	}
	ck_assert_msg(sm_expr_uniform_span(e) == R->want, "row %d: span %lld, want %lld", _i,
		      (long long)sm_expr_uniform_span(e), (long long)R->want);
	sm_irb_release(&b);
}
END_TEST

/* ---- a collective of its input (front/convert_warp.c): alike in the
 * whole block when the input repeats from tile to tile ---- */

enum rinput { R_TID_MOD, R_TID_AND, R_LANE, R_TID_DIV, R_TID, R_LOAD_MOD, R_PARAM };

struct repeat_row {
	enum rinput in;
	int64_t m;              /* the constant of % m, & (m - 1), / m */
	unsigned span;          /* the collective's tile */
	struct sm_dim3 block;   /* the one launch's block */
	int64_t want;
};

static const struct repeat_row repeat_rows[] = {
	{ R_TID_MOD, 32, 32, { 128, 1, 1 }, 0 },  /* all(buf[tid % 32]): every warp reads one row */
	{ R_TID_MOD, 16, 32, { 128, 1, 1 }, 0 },  /* tid % 16 repeats every 32 threads too */
	{ R_TID_MOD, 64, 32, { 128, 1, 1 }, 32 }, /* tid % 64 differs between warps 0 and 1 */
	{ R_TID_MOD, 32, 32, { 16, 8, 1 }, 32 },  /* rows of 16: tid.x % 32 is not the lane */
	{ R_TID_MOD, 32, 32, { 96, 2, 1 }, 0 },   /* rows of three whole warps */
	{ R_TID_AND, 32, 32, { 256, 1, 1 }, 0 },  /* tid & 31 */
	{ R_LANE, 0, 32, { 16, 8, 1 }, 0 },       /* the lane, whatever the rows */
	{ R_LANE, 0, 16, { 128, 1, 1 }, 16 },     /* a half-warp's collective of the lane */
	{ R_TID_DIV, 32, 32, { 128, 1, 1 }, 32 }, /* tid / 32: one value per warp, warps differ */
	{ R_TID, 0, 32, { 128, 1, 1 }, 32 },
	{ R_LOAD_MOD, 32, 32, { 128, 1, 1 }, 0 }, /* a shared load at buf[tid % 32] */
	{ R_PARAM, 0, 32, { 128, 1, 1 }, 0 },     /* a uniform input (the resolver folds it too) */
};

START_TEST(test_repeat)
{
	const struct repeat_row *R = &repeat_rows[_i];
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_expr *in = NULL;
	switch (R->in) {
	case R_TID_MOD: in = OP(&b, SM_OP_REM, tid(&b), K(&b, R->m)); break;
	case R_TID_AND: in = OP(&b, SM_OP_AND, tid(&b), K(&b, R->m - 1)); break;
	case R_LANE: in = BI(&b, SM_B_LANE); break;
	case R_TID_DIV: in = OP(&b, SM_OP_DIV, tid(&b), K(&b, R->m)); break;
	case R_TID: in = tid(&b); break;
	case R_LOAD_MOD: in = load_at(&b, 32, OP(&b, SM_OP_REM, tid(&b), K(&b, R->m))); break;
	case R_PARAM: in = V(&b, var(&b, "n", SM_V_PARAM)); break;
	}
	struct sm_expr *e = tile_value(&b, R->span);
	struct sm_access *pl = sm_arena_alloc(&b.A, sizeof(*pl));
	pl->nidx = 1;
	pl->idx[0] = in;
	e->place = pl;
	struct sm_kernel_launches K;
	memset(&K, 0, sizeof(K));
	K.nshapes = 1;
	K.shape[0].block = R->block;
	int64_t got = sm_expr_uniform_span_in(e, &K);
	ck_assert_msg(got == R->want, "row %d: span %lld, want %lld", _i, (long long)got, (long long)R->want);
	/* without the block shapes, no input repeats but the lane and uniform ones */
	int64_t bare = sm_expr_uniform_span(e);
	ck_assert_msg(bare == (R->in == R_PARAM || (R->in == R_LANE && R->want == 0) ? 0 : (int64_t)R->span),
		      "row %d: span %lld with no shapes", _i, (long long)bare);
	sm_irb_release(&b);
}
END_TEST

/* ---- the race search: s[idx] = value by every thread of a 128-thread block ---- */

enum ishape { I_WARP, I_ZERO, I_HALF_WARP, I_LANE };

struct race_row {
	enum ishape idx;  /* the element each thread stores to */
	unsigned span;    /* the value's span (0: per thread) */
	unsigned races;
	bool same_value;  /* the race found is benign */
	bool inter_warp;
};

static const struct race_row race_rows[] = {
	/* s[tid / 32] = a warp's sum: lanes of one warp, one value */
	{ I_WARP, 32, 1, true, false },
	/* s[tid / 32] = a 16-lane half's sum: two halves of a warp differ */
	{ I_WARP, 16, 1, false, false },
	/* s[tid / 32] = a per-thread value: a race in the warp */
	{ I_WARP, 0, 1, false, false },
	/* s[0] = a warp's sum: warps differ, between warps first */
	{ I_ZERO, 32, 1, false, true },
	/* s[0] = a 128-thread tile's value: alike in the whole block */
	{ I_ZERO, 128, 1, true, true },
	/* s[tid / 16] = a warp's sum: a half's lanes, one value */
	{ I_HALF_WARP, 32, 1, true, false },
	/* s[tid % 32] = a warp's sum: lane i of each warp, warps differ */
	{ I_LANE, 32, 1, false, true },
};

START_TEST(test_tile_store)
{
	const struct race_row *R = &race_rows[_i];
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_expr *idx = NULL;
	switch (R->idx) {
	case I_WARP: idx = OP(&b, SM_OP_DIV, tid(&b), K(&b, 32)); break;
	case I_ZERO: idx = K(&b, 0); break;
	case I_HALF_WARP: idx = OP(&b, SM_OP_DIV, tid(&b), K(&b, 16)); break;
	case I_LANE: idx = OP(&b, SM_OP_REM, tid(&b), K(&b, 32)); break;
	}
	struct sm_stmt *s = acc(&b, SM_ACC_STORE, idx);
	s->access->value = tile_value(&b, R->span);
	struct sm_kernel_model m;
	sm_irb_resolve(&b, blk(&b, 1, s), &m);
	struct sm_race *r;
	unsigned n = 0;
	ck_assert_int_eq(sm_kernel_races(&m, B128, &b.A, &r, &n), 0);
	ck_assert_msg(n == R->races, "row %d: %u races", _i, n);
	if (n) {
		ck_assert_msg(r[0].same_value == R->same_value, "row %d: same_value %d", _i, r[0].same_value);
		ck_assert_msg(r[0].inter_warp == R->inter_warp, "row %d: inter_warp %d", _i, r[0].inter_warp);
		/* the witness: two threads of one run when benign, of two when not */
		int64_t x = r[0].tid_a[0], y = r[0].tid_b[0];
		ck_assert_int_ne(x, y);
		if (R->span > 1)
			ck_assert_msg((x / R->span == y / R->span) == R->same_value, "row %d: threads %lld and %lld", _i,
				      (long long)x, (long long)y);
	}
	sm_irb_release(&b);
}
END_TEST

/* ---- divergence: a barrier of scope (sc, arg) under `if (v > 0)` with v
 * alike in runs of span threads ---- */

struct split_row {
	enum sm_scope sc;
	int64_t arg;
	unsigned span;
	int divergent;
};

static const struct split_row split_rows[] = {
	{ SM_SCOPE_TILE, 32, 32, 0 },          /* a warp's barrier under the warp's sum */
	{ SM_SCOPE_TILE, 16, 32, 0 },          /* a half's barrier: its half agrees too */
	{ SM_SCOPE_TILE, 32, 16, 1 },          /* the two halves of a warp may differ */
	{ SM_SCOPE_LANES, 0xffffffff, 32, 0 }, /* __syncwarp() under the warp's sum */
	{ SM_SCOPE_TILE, 64, 32, 1 },          /* two warps of a 64-thread tile may differ */
	{ SM_SCOPE_BLOCK, 0, 32, 1 },          /* a block barrier: warps may differ */
	{ SM_SCOPE_TILE, 32, 0, 1 },           /* a per-thread value */
};

START_TEST(test_tile_condition)
{
	const struct split_row *R = &split_rows[_i];
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_stmt *br = scoped(&b, R->sc == SM_SCOPE_LANES ? SM_BAR_SYNCWARP : SM_BAR_CG_SYNC, R->sc, R->arg);
	struct sm_stmt *body = blk(&b, 1, iff(&b, OP(&b, SM_OP_GT, tile_value(&b, R->span), K(&b, 0)), br, NULL));
	struct sm_kernel_model m;
	sm_irb_resolve(&b, body, &m);
	struct sm_divergence *d;
	ck_assert_msg(sm_divergent_barriers(&m, sm_irb_launches(&b, &B128), &b.A, &d) == R->divergent, "row %d", _i);
	/* no block shape known: the groups cannot be placed, every cause splits */
	ck_assert_int_eq(sm_divergent_barriers(&m, sm_irb_launches(&b, NULL), &b.A, &d), 1);
	sm_irb_release(&b);
}
END_TEST

/* ---- one value in two given threads (sm_expr_alike_for) ---- */

enum ashape { A_TID_X, A_TID_Y, A_ROW_PLUS_PARAM, A_TILE32, A_PER_THREAD, A_LOAD_ROW, A_LANE, A_PARAM };

struct alike_row {
	enum ashape shape;
	struct sm_dim3 block;
	int64_t la, lb;
	bool want;
};

static const struct alike_row alike_rows[] = {
	{ A_TID_X, { 32, 4, 1 }, 0, 1, false },
	{ A_TID_X, { 32, 4, 1 }, 3, 35, true },           /* x = 3 in rows 0 and 1 */
	{ A_TID_Y, { 32, 4, 1 }, 0, 31, true },           /* one 32-wide row */
	{ A_TID_Y, { 32, 4, 1 }, 0, 32, false },
	{ A_TID_Y, { 16, 8, 1 }, 0, 16, false },          /* rows of 16: one warp, two rows */
	{ A_ROW_PLUS_PARAM, { 32, 4, 1 }, 8, 1, true },   /* j0 + threadIdx.y >= n */
	{ A_ROW_PLUS_PARAM, { 32, 4, 1 }, 8, 40, false },
	{ A_TILE32, { 64, 1, 1 }, 0, 31, true },          /* a warp's vote */
	{ A_TILE32, { 64, 1, 1 }, 31, 32, false },
	{ A_PER_THREAD, { 64, 1, 1 }, 0, 1, false },
	{ A_LOAD_ROW, { 32, 4, 1 }, 3, 7, true },         /* p[threadIdx.y] */
	{ A_LOAD_ROW, { 32, 4, 1 }, 3, 35, false },
	{ A_LANE, { 64, 1, 1 }, 1, 33, true },
	{ A_LANE, { 64, 1, 1 }, 1, 2, false },
	{ A_PARAM, { 64, 1, 1 }, 0, 63, true },
};

START_TEST(test_alike)
{
	const struct alike_row *R = &alike_rows[_i];
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_expr *row = sm_irb_builtin(&b, SM_B_TID, 1), *e = NULL;
	switch (R->shape) {
	case A_TID_X: e = tid(&b); break;
	case A_TID_Y: e = row; break;
	case A_ROW_PLUS_PARAM:
		e = OP(&b, SM_OP_GE, OP(&b, SM_OP_ADD, K(&b, 4), row), V(&b, var(&b, "n", SM_V_PARAM)));
		break;
	case A_TILE32: e = OP(&b, SM_OP_NE, tile_value(&b, 32), K(&b, 0)); break;
	case A_PER_THREAD: e = tile_value(&b, 0); break;
	case A_LOAD_ROW: e = load_at(&b, 4, row); break;
	case A_LANE: e = BI(&b, SM_B_LANE); break;
	case A_PARAM: e = V(&b, var(&b, "n", SM_V_PARAM)); break;
	}
	ck_assert_msg(sm_expr_alike_for(e, R->block, R->la, R->lb) == R->want, "row %d", _i);
	ck_assert_msg(sm_expr_alike_for(e, R->block, R->lb, R->la) == R->want, "row %d, the threads swapped", _i);
	sm_irb_release(&b);
}
END_TEST

/* ---- the race search: `if (c) s[tid] = 1; else s[tid ^ 1] = 2;` in a
 * 128-thread block: lanes 0 and 1 meet across the arms only where c may
 * part them ---- */

struct arms_row {
	unsigned span;    /* c's span: 0 per thread, 32 a warp's vote, 128 the block's */
	unsigned races;
};

static const struct arms_row arms_rows[] = {
	{ 0, 1 },    /* a per-thread condition: lane 0 and lane 1 may part */
	{ 32, 0 },   /* a warp's vote: t and t ^ 1 share a warp, go one way */
	{ 128, 0 },  /* alike in the block */
	{ 1, 1 },    /* alike in runs of one thread: per thread */
};

START_TEST(test_arms)
{
	const struct arms_row *R = &arms_rows[_i];
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_expr *c = OP(&b, SM_OP_GT, tile_value(&b, R->span), K(&b, 0));
	struct sm_stmt *body = blk(&b, 1, iff(&b, c, acc(&b, SM_ACC_STORE, tid(&b)),
					     acc(&b, SM_ACC_STORE, OP(&b, SM_OP_XOR, tid(&b), K(&b, 1)))));
	struct sm_kernel_model m;
	sm_irb_resolve(&b, body, &m);
	struct sm_race *r;
	unsigned n = 0;
	ck_assert_int_eq(sm_kernel_races(&m, B128, &b.A, &r, &n), 0);
	ck_assert_msg(n == R->races, "row %d: %u races", _i, n);
	sm_irb_release(&b);
}
END_TEST

/* ---- what a path keeps of a condition (sm_cond_path_facts): `if (C)`
 * in `for (t = 0; t < n; t++)` ---- */

enum pshape { P_EQ0, P_NE0, P_EQ1, P_LT1, P_GT2, P_NOT_EQ0, P_TWICE_EQ0, P_PARAM, P_TID, P_LOAD, P_TID_BY_PARAM,
	      P_CALL };

struct facts_row {
	enum pshape shape;
	bool ok;        /* kept by a path */
	int nloops;
	int first, later;
	bool per_run;   /* forgotten at every loop's iteration */
};

static const struct facts_row facts_rows[] = {
	{ P_EQ0, true, 1, 1, 0, false },          /* t == 0: the first iteration only */
	{ P_NE0, true, 1, 0, 1, false },
	{ P_EQ1, true, 1, 0, -1, false },         /* t == 1: some later iteration */
	{ P_LT1, true, 1, 1, 0, false },          /* flips after the first */
	{ P_GT2, true, 1, 0, -1, false },         /* flips later: not known */
	{ P_NOT_EQ0, true, 1, 0, 1, false },
	{ P_TWICE_EQ0, true, 1, 1, -1, false },   /* 2 * t == 0: not a plain counter */
	{ P_PARAM, true, 0, -1, -1, false },      /* a flag: one arm, no iteration */
	{ P_TID, false, 0, -1, -1, false },       /* splits the block */
	{ P_LOAD, false, 0, -1, -1, false },      /* memory may change in between */
	{ P_TID_BY_PARAM, false, 0, -1, -1, false },
	{ P_CALL, true, 0, -1, -1, true },  /* a call's result, alike in the block:
					     * a loop may run the call again */
};

START_TEST(test_path_facts)
{
	const struct facts_row *R = &facts_rows[_i];
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_var *t = var(&b, "t", SM_V_LOCAL), *n = var(&b, "n", SM_V_PARAM);
	struct sm_expr *c = NULL;
	switch (R->shape) {
	case P_EQ0: c = OP(&b, SM_OP_EQ, V(&b, t), K(&b, 0)); break;
	case P_NE0: c = OP(&b, SM_OP_NE, V(&b, t), K(&b, 0)); break;
	case P_EQ1: c = OP(&b, SM_OP_EQ, V(&b, t), K(&b, 1)); break;
	case P_LT1: c = OP(&b, SM_OP_LT, V(&b, t), K(&b, 1)); break;
	case P_GT2: c = OP(&b, SM_OP_GT, V(&b, t), K(&b, 2)); break;
	case P_NOT_EQ0:
		c = sm_arena_alloc(&b.A, sizeof(*c));
		ck_assert_ptr_nonnull(c);
		memset(c, 0, sizeof(*c));
		c->kind = SM_E_UNARY;
		c->op = SM_OP_NOT;
		c->a = OP(&b, SM_OP_EQ, V(&b, t), K(&b, 0));
		break;
	case P_TWICE_EQ0: c = OP(&b, SM_OP_EQ, OP(&b, SM_OP_MUL, K(&b, 2), V(&b, t)), K(&b, 0)); break;
	case P_PARAM: c = OP(&b, SM_OP_NE, V(&b, n), K(&b, 0)); break;
	case P_TID: c = OP(&b, SM_OP_LT, tid(&b), K(&b, 5)); break;
	case P_LOAD: c = OP(&b, SM_OP_GT, load_at(&b, 4, K(&b, 0)), K(&b, 0)); break;
	case P_TID_BY_PARAM: c = OP(&b, SM_OP_LT, OP(&b, SM_OP_ADD, tid(&b), V(&b, t)), V(&b, n)); break;
	case P_CALL: c = OP(&b, SM_OP_NE, tile_value(&b, 0), K(&b, 0)); c->a->thread_dep = false; break;
	}
	struct sm_stmt *cif = iff(&b, c, acc(&b, SM_ACC_STORE, tid(&b)), NULL);
	struct sm_kernel_model m;
	sm_irb_resolve(&b, blk(&b, 1, loop(&b, t, V(&b, n), blk(&b, 1, cif))), &m);
	const struct sm_rstmt *r = sm_rstmt_find(&m, cif);
	ck_assert_ptr_nonnull(r);
	struct sm_cond_path f;
	ck_assert_msg(sm_cond_path_facts(r->cond, B128, &f) == R->ok, "row %d", _i);
	if (R->ok) {
		ck_assert_msg(f.nloops == R->nloops, "row %d: %d loops", _i, f.nloops);
		ck_assert_msg(f.first == R->first && f.later == R->later, "row %d: first %d later %d", _i, f.first,
			      f.later);
		ck_assert_msg(f.per_run == R->per_run, "row %d: per_run %d", _i, f.per_run);
	}
	sm_irb_release(&b);
}
END_TEST

/* ---- the race search on those paths: s[tid] = ..; if (A) barrier;
 * if (B) .. = s[127 - tid], in 128 threads ---- */

enum rshape { R_SAME_FLAG, R_TWO_FLAGS, R_FIRST_TILE, R_SECOND_TILE, R_BY_THREAD, R_CALL_PER_ITERATION, R_WRITE_IN_ARM,
	      R_WRITE_IN_OTHER_FLAG, R_WRITE_IN_LOOP_ARM };

struct paths_row {
	enum rshape shape;
	unsigned races;
};

static const struct paths_row paths_rows[] = {
	{ R_SAME_FLAG, 0 },    /* both ifs on one flag: both arms or neither */
	{ R_TWO_FLAGS, 1 },
	{ R_FIRST_TILE, 0 },   /* for (t..) { if (t == 0) barrier; read }: ordered */
	{ R_SECOND_TILE, 1 },  /* if (t == 1): the first tile reads unordered */
	{ R_BY_THREAD, 1 },    /* if (tid < 64) twice: threads part */
	/* for (t..) { if (v) {} else barrier; read; barrier; write; if (v)
	 * barrier; } with v a call's result in the body: alike in the block,
	 * but 0 at one iteration and 1 at the next leaves the write and the
	 * next read unordered; a path that kept v over the back edge missed it */
	{ R_CALL_PER_ITERATION, 1 },
	/* barrier; if (flag) {} else write; if (flag) read: the walk from the
	 * write starts in the arm that reached it, so no thread reads */
	{ R_WRITE_IN_ARM, 0 },
	{ R_WRITE_IN_OTHER_FLAG, 1 }, /* the read on another flag: it races */
	/* for (t..) { barrier; if (t == 0) {} else write; if (t == 0) read }:
	 * no iteration both writes and reads, and the next iteration's barrier
	 * orders the first's read before any write */
	{ R_WRITE_IN_LOOP_ARM, 0 },
};

START_TEST(test_path_races)
{
	const struct paths_row *R = &paths_rows[_i];
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_var *t = var(&b, "t", SM_V_LOCAL), *n = var(&b, "n", SM_V_PARAM), *f = var(&b, "f", SM_V_PARAM);
	struct sm_stmt *w = acc(&b, SM_ACC_STORE, tid(&b));
	struct sm_stmt *rd = acc(&b, SM_ACC_LOAD, OP(&b, SM_OP_SUB, K(&b, 127), tid(&b)));
	struct sm_expr *flag = OP(&b, SM_OP_NE, V(&b, n), K(&b, 0));
	struct sm_stmt *body = NULL;
	switch (R->shape) {
	case R_SAME_FLAG:
	case R_TWO_FLAGS:
	case R_BY_THREAD: {
		struct sm_expr *a = R->shape == R_BY_THREAD ? OP(&b, SM_OP_LT, tid(&b), K(&b, 64)) : flag;
		struct sm_expr *c = R->shape == R_SAME_FLAG ? OP(&b, SM_OP_NE, V(&b, n), K(&b, 0))
				  : R->shape == R_TWO_FLAGS ? OP(&b, SM_OP_NE, V(&b, f), K(&b, 0))
				  : OP(&b, SM_OP_LT, tid(&b), K(&b, 64));
		body = blk(&b, 3, w, iff(&b, a, bar(&b, SM_BAR_SYNCTHREADS), NULL), iff(&b, c, rd, NULL));
		break;
	}
	case R_CALL_PER_ITERATION: {
		struct sm_expr *v = OP(&b, SM_OP_NE, tile_value(&b, 0), K(&b, 0));
		v->a->thread_dep = false; /* alike in the block */
		body = blk(&b, 1, loop(&b, t, V(&b, n),
				       blk(&b, 5, iff(&b, v, blk(&b, 0), bar(&b, SM_BAR_SYNCTHREADS)), rd,
					   bar(&b, SM_BAR_SYNCTHREADS), w, iff(&b, v, bar(&b, SM_BAR_SYNCTHREADS), NULL))));
		break;
	}
	case R_WRITE_IN_ARM:
	case R_WRITE_IN_OTHER_FLAG: {
		struct sm_expr *c = R->shape == R_WRITE_IN_ARM ? OP(&b, SM_OP_NE, V(&b, n), K(&b, 0))
							       : OP(&b, SM_OP_NE, V(&b, f), K(&b, 0));
		body = blk(&b, 3, bar(&b, SM_BAR_SYNCTHREADS), iff(&b, flag, blk(&b, 0), w), iff(&b, c, rd, NULL));
		break;
	}
	case R_WRITE_IN_LOOP_ARM: {
		struct sm_expr *c0 = OP(&b, SM_OP_EQ, V(&b, t), K(&b, 0)), *c1 = OP(&b, SM_OP_EQ, V(&b, t), K(&b, 0));
		body = blk(&b, 1, loop(&b, t, V(&b, n), blk(&b, 3, bar(&b, SM_BAR_SYNCTHREADS), iff(&b, c0, blk(&b, 0), w),
								   iff(&b, c1, rd, NULL))));
		break;
	}
	case R_FIRST_TILE:
	case R_SECOND_TILE: {
		struct sm_expr *c = OP(&b, SM_OP_EQ, V(&b, t), K(&b, R->shape == R_FIRST_TILE ? 0 : 1));
		body = blk(&b, 2, w, loop(&b, t, V(&b, n), blk(&b, 2, iff(&b, c, bar(&b, SM_BAR_SYNCTHREADS), NULL), rd)));
		break;
	}
	}
	struct sm_kernel_model m;
	sm_irb_resolve(&b, body, &m);
	struct sm_race *r;
	unsigned nr = 0;
	ck_assert_int_eq(sm_kernel_races(&m, B128, &b.A, &r, &nr), 0);
	ck_assert_msg(nr == R->races, "row %d: %u races", _i, nr);
	sm_irb_release(&b);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("uniform");
	TCase *tc = tcase_create("uniform");
	tcase_add_loop_test(tc, test_span, 0, (int)(sizeof(span_rows) / sizeof(span_rows[0])));
	tcase_add_loop_test(tc, test_repeat, 0, (int)(sizeof(repeat_rows) / sizeof(repeat_rows[0])));
	tcase_add_loop_test(tc, test_tile_store, 0, (int)(sizeof(race_rows) / sizeof(race_rows[0])));
	tcase_add_loop_test(tc, test_tile_condition, 0, (int)(sizeof(split_rows) / sizeof(split_rows[0])));
	tcase_add_loop_test(tc, test_alike, 0, (int)(sizeof(alike_rows) / sizeof(alike_rows[0])));
	tcase_add_loop_test(tc, test_arms, 0, (int)(sizeof(arms_rows) / sizeof(arms_rows[0])));
	tcase_add_loop_test(tc, test_path_facts, 0, (int)(sizeof(facts_rows) / sizeof(facts_rows[0])));
	tcase_add_loop_test(tc, test_path_races, 0, (int)(sizeof(paths_rows) / sizeof(paths_rows[0])));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(suite());
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
