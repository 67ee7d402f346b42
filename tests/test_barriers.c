/* test_barriers.c - Check tests of thread dependence, barrier divergence
 * and the race decision (analyzer/threaddep.c) on IR built with
 * tests/ir_builder.c. Never links libclang. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "engine/threaddep.h"
#include "ir_builder.h"

static const struct sm_dim3 B128 = { 128, 1, 1 };
static const struct sm_dim3 B32 = { 32, 1, 1 };

/* ---- thread dependence and divergence ---- */

START_TEST(test_early_return)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_var *n = var(&b, "n", SM_V_PARAM), *i = var(&b, "i", SM_V_LOCAL);
	struct sm_stmt *ret = st(&b, SM_S_RETURN);
	struct sm_stmt *cond = iff(&b, OP(&b, SM_OP_GE, V(&b, i), V(&b, n)), ret, NULL);
	struct sm_stmt *sync = bar(&b, SM_BAR_SYNCTHREADS);
	struct sm_stmt *body = blk(&b, 4, decl(&b, i, OP(&b, SM_OP_ADD, OP(&b, SM_OP_MUL, BI(&b, SM_B_CTAID), K(&b, 128)), tid(&b))),
				   cond, acc(&b, SM_ACC_STORE, tid(&b)), sync);
	struct sm_kernel_model m;
	sm_irb_resolve(&b, body, &m);
	ck_assert(sm_stmt_cond_thread_dep(&m, cond));
	struct sm_divergence *d;
	ck_assert_int_eq(sm_divergent_barriers(&m, sm_irb_launches(&b, NULL), &b.A, &d), 1);
	ck_assert_ptr_eq(d[0].barrier, sync);
	ck_assert_int_eq(d[0].kind, SM_DIV_EXIT);
	ck_assert_ptr_eq(d[0].jump, ret);
	ck_assert_ptr_eq(d[0].cond, cond);
	sm_irb_release(&b);
}
END_TEST

START_TEST(test_uniform_conditions)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_var *n = var(&b, "n", SM_V_PARAM), *k = var(&b, "k", SM_V_LOCAL);
	struct sm_stmt *c1 = iff(&b, OP(&b, SM_OP_EQ, BI(&b, SM_B_CTAID), K(&b, 0)), bar(&b, SM_BAR_SYNCTHREADS), NULL);
	struct sm_stmt *l = loop(&b, k, OP(&b, SM_OP_MUL, V(&b, n), BI(&b, SM_B_NTID)), bar(&b, SM_BAR_CG_SYNC));
	/* under a thread-dependent condition that keeps whole warps together:
	 * a __syncwarp() of every lane is not divergent there */
	struct sm_stmt *c2 = iff(&b, OP(&b, SM_OP_LT, tid(&b), K(&b, 32)), bar(&b, SM_BAR_SYNCWARP), NULL);
	struct sm_stmt *body = blk(&b, 3, c1, l, c2);
	struct sm_kernel_model m;
	sm_irb_resolve(&b, body, &m);
	ck_assert(!sm_stmt_cond_thread_dep(&m, c1));
	ck_assert(!sm_stmt_cond_thread_dep(&m, l));
	ck_assert(sm_stmt_cond_thread_dep(&m, c2));
	struct sm_divergence *d;
	struct sm_dim3 b128 = { 128, 1, 1 };
	ck_assert_int_eq(sm_divergent_barriers(&m, sm_irb_launches(&b, &b128), &b.A, &d), 0);
	/* with no block shape known, whether it keeps warps together is not */
	ck_assert_int_eq(sm_divergent_barriers(&m, sm_irb_launches(&b, NULL), &b.A, &d), 1);
	sm_irb_release(&b);
}
END_TEST

/* ---- thread indexes that cancel (threads.c sm_expr_varies) ---- */

static struct sm_expr *cast_to(struct sm_irb *b, unsigned bits, struct sm_expr *a)
{
	struct sm_expr *e = sm_arena_alloc(&b->A, sizeof(*e));
	e->kind = SM_E_CAST;
	e->a = a;
	e->bits = bits;
	e->is_unsigned = true;
	return e;
}

enum vshape { V_N_PLUS_T_MINUS_T, V_T_MINUS_T_PLUS_T, V_T_DIV_NTID, V_NARROW, V_CONST_SCALE, V_UNKNOWN_SCALE,
	      V_NTID_MINUS_T_PLUS_T, V_Y_LEFT };

static const struct vrow {
	const char *what;
	enum vshape shape;
	bool varies;
} vrows[] = {
	{ "n + t - t < 4", V_N_PLUS_T_MINUS_T, false },
	{ "t - t + t < 4", V_T_MINUS_T_PLUS_T, true },
	{ "t / ntid == 0", V_T_DIV_NTID, false },
	{ "(uint8)(n + t) - t > 4", V_NARROW, true },
	{ "2 * t - t * 2 > 4", V_CONST_SCALE, false },
	{ "n * t - t > 4", V_UNKNOWN_SCALE, true },
	{ "ntid - t + t > 4", V_NTID_MINUS_T_PLUS_T, false },
	{ "t.y - t.x + t.x > 4", V_Y_LEFT, true },
};

START_TEST(test_cancels)
{
	const struct vrow *r = &vrows[_i];
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_var *n = var(&b, "n", SM_V_PARAM);
	struct sm_expr *e = NULL;
	switch (r->shape) {
	case V_N_PLUS_T_MINUS_T:
		e = OP(&b, SM_OP_LT, OP(&b, SM_OP_SUB, OP(&b, SM_OP_ADD, V(&b, n), tid(&b)), tid(&b)), K(&b, 4));
		break;
	case V_T_MINUS_T_PLUS_T:
		e = OP(&b, SM_OP_LT, OP(&b, SM_OP_ADD, OP(&b, SM_OP_SUB, tid(&b), tid(&b)), tid(&b)), K(&b, 4));
		break;
	case V_T_DIV_NTID:
		e = OP(&b, SM_OP_EQ, OP(&b, SM_OP_DIV, tid(&b), BI(&b, SM_B_NTID)), K(&b, 0));
		break;
	case V_NARROW:
		e = OP(&b, SM_OP_GT, OP(&b, SM_OP_SUB, cast_to(&b, 8, OP(&b, SM_OP_ADD, V(&b, n), tid(&b))), tid(&b)),
		       K(&b, 4));
		break;
	case V_CONST_SCALE:
		e = OP(&b, SM_OP_GT, OP(&b, SM_OP_SUB, OP(&b, SM_OP_MUL, K(&b, 2), tid(&b)), OP(&b, SM_OP_MUL, tid(&b), K(&b, 2))),
		       K(&b, 4));
		break;
	case V_UNKNOWN_SCALE:
		e = OP(&b, SM_OP_GT, OP(&b, SM_OP_SUB, OP(&b, SM_OP_MUL, V(&b, n), tid(&b)), tid(&b)), K(&b, 4));
		break;
	case V_NTID_MINUS_T_PLUS_T:
		e = OP(&b, SM_OP_GT, OP(&b, SM_OP_ADD, OP(&b, SM_OP_SUB, BI(&b, SM_B_NTID), tid(&b)), tid(&b)), K(&b, 4));
		break;
	case V_Y_LEFT:
		e = OP(&b, SM_OP_GT, OP(&b, SM_OP_ADD, OP(&b, SM_OP_SUB, T(&b, 1), tid(&b)), tid(&b)), K(&b, 4));
		break;
	}
	ck_assert_msg(sm_expr_thread_dep(e), "%s reads a thread index", r->what);
	ck_assert_msg(sm_expr_varies(e) == r->varies, "%s", r->what);
	sm_irb_release(&b);
}
END_TEST

START_TEST(test_values_flow)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_var *x = var(&b, "x", SM_V_LOCAL), *y = var(&b, "y", SM_V_LOCAL);
	/* x = tid; x = 5;  if (x > 3) sync  -> uniform
	 * y = 5; y += tid; if (y > 3) sync  -> thread dependent */
	struct sm_stmt *cx = iff(&b, OP(&b, SM_OP_GT, V(&b, x), K(&b, 3)), bar(&b, SM_BAR_SYNCTHREADS), NULL);
	struct sm_stmt *by = bar(&b, SM_BAR_SYNCTHREADS_OP);
	struct sm_stmt *cy = iff(&b, OP(&b, SM_OP_GT, V(&b, y), K(&b, 3)), by, NULL);
	struct sm_stmt *body = blk(&b, 6, decl(&b, x, tid(&b)), assign(&b, x, SM_OP_ASSIGN, K(&b, 5)), cx,
				   decl(&b, y, K(&b, 5)), assign(&b, y, SM_OP_ADD, tid(&b)), cy);
	struct sm_kernel_model m;
	sm_irb_resolve(&b, body, &m);
	ck_assert(!sm_stmt_cond_thread_dep(&m, cx));
	ck_assert(sm_stmt_cond_thread_dep(&m, cy));
	struct sm_divergence *d;
	ck_assert_int_eq(sm_divergent_barriers(&m, sm_irb_launches(&b, NULL), &b.A, &d), 1);
	ck_assert_ptr_eq(d[0].barrier, by);
	ck_assert_int_eq(d[0].kind, SM_DIV_IF);
	sm_irb_release(&b);
}
END_TEST

START_TEST(test_loop_trip_count)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_var *k = var(&b, "k", SM_V_LOCAL), *j = var(&b, "j", SM_V_LOCAL);
	struct sm_stmt *b1 = bar(&b, SM_BAR_SYNCTHREADS);
	struct sm_stmt *l1 = loop(&b, k, OP(&b, SM_OP_SHR, tid(&b), K(&b, 5)), b1);
	/* a uniform loop left early by a thread-dependent break: the barrier
	 * before the break diverges too (later iterations) */
	struct sm_stmt *b2 = bar(&b, SM_BAR_ASM);
	struct sm_stmt *brk = st(&b, SM_S_BREAK);
	struct sm_stmt *l2 = loop(&b, j, K(&b, 8), blk(&b, 2, b2, iff(&b, OP(&b, SM_OP_EQ, tid(&b), V(&b, j)), brk, NULL)));
	struct sm_kernel_model m;
	sm_irb_resolve(&b, blk(&b, 2, l1, l2), &m);
	struct sm_divergence *d;
	ck_assert_int_eq(sm_divergent_barriers(&m, sm_irb_launches(&b, NULL), &b.A, &d), 2);
	ck_assert_ptr_eq(d[0].barrier, b1);
	ck_assert_int_eq(d[0].kind, SM_DIV_LOOP);
	ck_assert_ptr_eq(d[0].cond, l1);
	ck_assert_ptr_eq(d[1].barrier, b2);
	ck_assert_int_eq(d[1].kind, SM_DIV_EXIT);
	ck_assert_ptr_eq(d[1].jump, brk);
	ck_assert(d[1].in_loop);
	sm_irb_release(&b);
}
END_TEST

/* ---- races ---- */

static unsigned races(struct sm_irb *b, struct sm_stmt *body, struct sm_dim3 block, struct sm_race **r)
{
	struct sm_kernel_model m;
	sm_irb_resolve(b, body, &m);
	unsigned n = 0;
	ck_assert_int_eq(sm_kernel_races(&m, block, &b->A, r, &n), 0);
	return n;
}

static struct sm_expr *rev(struct sm_irb *b, int64_t n)
{
	return OP(b, SM_OP_SUB, K(b, n - 1), tid(b));
}

START_TEST(test_reverse)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_race *r;
	unsigned n = races(&b, blk(&b, 2, acc(&b, SM_ACC_STORE, tid(&b)), acc(&b, SM_ACC_LOAD, rev(&b, 128))), B128, &r);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(r[0].a, 0);
	ck_assert_uint_eq(r[0].b, 1);
	ck_assert_int_eq(r[0].kind, SM_RACE_RAW);
	ck_assert(r[0].inter_warp);
	ck_assert(!r[0].cross_iter);
	/* the witness: b's thread reads what a's thread wrote */
	ck_assert_int_ne(r[0].tid_a[0], r[0].tid_b[0]);
	ck_assert_int_eq(r[0].addr, 4 * r[0].tid_a[0]);
	ck_assert_int_eq(r[0].addr, 4 * (127 - r[0].tid_b[0]));
	ck_assert_int_ne(r[0].tid_a[0] / 32, r[0].tid_b[0] / 32);
	sm_irb_release(&b);
}
END_TEST

START_TEST(test_reverse_barrier)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_race *r;
	unsigned n = races(&b, blk(&b, 3, acc(&b, SM_ACC_STORE, tid(&b)), bar(&b, SM_BAR_SYNCTHREADS),
				      acc(&b, SM_ACC_LOAD, rev(&b, 128))), B128, &r);
	ck_assert_uint_eq(n, 0);
	sm_irb_release(&b);
}
END_TEST

/* a store with its value recorded, as the front end gives a plain '=' */
static struct sm_stmt *store(struct sm_irb *b, struct sm_expr *idx, struct sm_expr *value)
{
	struct sm_stmt *s = acc(b, SM_ACC_STORE, idx);
	s->access->value = value;
	return s;
}

START_TEST(test_same_statement)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_race *r;
	/* s[0] = threadIdx.x by 128 threads: one store paired with itself */
	unsigned n = races(&b, blk(&b, 1, store(&b, K(&b, 0), tid(&b))), B128, &r);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(r[0].a, 0);
	ck_assert_uint_eq(r[0].b, 0);
	ck_assert_int_eq(r[0].kind, SM_RACE_WAW);
	ck_assert(r[0].inter_warp);
	ck_assert(!r[0].same_value);
	ck_assert_int_eq(r[0].addr, 0);
	sm_irb_release(&b);
	/* s[tid % 32]: threads t and t+32 */
	sm_irb_init(&b);
	n = races(&b, blk(&b, 1, store(&b, OP(&b, SM_OP_REM, tid(&b), K(&b, 32)), tid(&b))), B128, &r);
	ck_assert_uint_eq(n, 1);
	ck_assert(r[0].inter_warp);
	ck_assert_int_eq(r[0].tid_a[0] % 32, r[0].tid_b[0] % 32);
	sm_irb_release(&b);
	/* s[tid]: every thread its own element */
	sm_irb_init(&b);
	n = races(&b, blk(&b, 1, store(&b, tid(&b), tid(&b))), B128, &r);
	ck_assert_uint_eq(n, 0);
	sm_irb_release(&b);
	/* s[0] = 1 by every thread: benign */
	sm_irb_init(&b);
	n = races(&b, blk(&b, 1, store(&b, K(&b, 0), K(&b, 1))), B128, &r);
	ck_assert_uint_eq(n, 1);
	ck_assert(r[0].same_value);
	sm_irb_release(&b);
	/* no value recorded: not judged (a constant could not be told apart) */
	sm_irb_init(&b);
	n = races(&b, blk(&b, 1, acc(&b, SM_ACC_STORE, K(&b, 0))), B128, &r);
	ck_assert_uint_eq(n, 0);
	sm_irb_release(&b);
}
END_TEST

START_TEST(test_if_arms)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_race *r;
	struct sm_var *p = var(&b, "p", SM_V_PARAM);
	/* if (tid < 64) s[0] = 1; else s[0] = 2;: threads of both arms race */
	unsigned n = races(&b, blk(&b, 1, iff(&b, OP(&b, SM_OP_LT, tid(&b), K(&b, 64)), store(&b, K(&b, 0), K(&b, 1)),
					      store(&b, K(&b, 0), K(&b, 2)))), B128, &r);
	bool found = false;
	for (unsigned i = 0; i < n; i++)
		found |= r[i].a != r[i].b && r[i].inter_warp && !r[i].same_value;
	ck_assert(found);
	sm_irb_release(&b);
	/* the arms of a uniform if: every thread takes the same arm */
	sm_irb_init(&b);
	p = var(&b, "p", SM_V_PARAM);
	n = races(&b, blk(&b, 1, iff(&b, OP(&b, SM_OP_LT, V(&b, p), K(&b, 64)), acc(&b, SM_ACC_STORE, tid(&b)),
				      acc(&b, SM_ACC_LOAD, rev(&b, 128)))), B128, &r);
	ck_assert_uint_eq(n, 0);
	sm_irb_release(&b);
	/* a barrier between: separate intervals */
	sm_irb_init(&b);
	n = races(&b, blk(&b, 3, store(&b, K(&b, 0), K(&b, 1)), bar(&b, SM_BAR_SYNCTHREADS), acc(&b, SM_ACC_LOAD, K(&b, 0))), B128, &r);
	for (unsigned i = 0; i < n; i++)
		ck_assert_uint_eq(r[i].b, 0); /* only the store with itself */
	sm_irb_release(&b);
}
END_TEST

/* ---- barrier scopes ---- */

/* One row: a store of s[tid], a barrier of the given scope, a load of
 * s[tid ^ x] in a 128-thread block: whether a race remains and between
 * which threads. */
struct scope_row {
	enum sm_barrier_kind kind;
	enum sm_scope scope;
	int64_t arg;
	int64_t x;            /* the load reads s[tid ^ x] */
	unsigned races;       /* races expected */
	bool inter_warp;      /* when one: between warps */
};

static const struct scope_row scope_rows[] = {
	{ SM_BAR_CG_SYNC, SM_SCOPE_TILE, 32, 1, 0, false },     /* same tile: ordered */
	{ SM_BAR_CG_SYNC, SM_SCOPE_TILE, 32, 32, 1, true },     /* next tile: a race between warps */
	{ SM_BAR_CG_SYNC, SM_SCOPE_TILE, 16, 8, 0, false },
	{ SM_BAR_CG_SYNC, SM_SCOPE_TILE, 16, 16, 1, false },    /* other half of the warp */
	{ SM_BAR_CG_SYNC, SM_SCOPE_TILE, 64, 32, 0, false },    /* a 64-thread tile spans two warps */
	{ SM_BAR_CG_SYNC, SM_SCOPE_TILE, 64, 64, 1, true },
	{ SM_BAR_CG_SYNC, SM_SCOPE_TILE, 128, 64, 0, false },   /* a tile of the whole block */
	{ SM_BAR_SYNCWARP, SM_SCOPE_LANES, 0xffffffff, 31, 0, false },
	{ SM_BAR_SYNCWARP, SM_SCOPE_LANES, 0x0000ffff, 1, 1, false }, /* lanes 16..31 not ordered */
	{ SM_BAR_CG_SYNC, SM_SCOPE_ACTIVE, 0, 5, 0, false },
	{ SM_BAR_ASM, SM_SCOPE_COUNT, 64, 32, 1, true },        /* threads 64.. take no part */
	{ SM_BAR_ASM, SM_SCOPE_COUNT, 128, 64, 0, false },
	{ SM_BAR_CG_SYNC, SM_SCOPE_GRID, 0, 64, 0, false },
};

START_TEST(test_scope_orders)
{
	const struct scope_row *R = &scope_rows[_i];
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_race *r;
	unsigned n = races(&b, blk(&b, 3, acc(&b, SM_ACC_STORE, tid(&b)), scoped(&b, R->kind, R->scope, R->arg),
				      acc(&b, SM_ACC_LOAD, OP(&b, SM_OP_XOR, tid(&b), K(&b, R->x)))),
			   B128, &r);
	ck_assert_msg(n == R->races, "row %d: %u races", _i, n);
	if (n) {
		ck_assert_msg(r[0].inter_warp == R->inter_warp, "row %d", _i);
		/* the witness is a pair the barrier does not order */
		int64_t a = r[0].tid_a[0], c = r[0].tid_b[0];
		if (R->scope == SM_SCOPE_TILE)
			ck_assert_int_ne(a / R->arg, c / R->arg);
	}
	sm_irb_release(&b);
}
END_TEST

/* One row: a barrier of the given scope under `if (tid < lim)` in a
 * 128-thread block: divergent or not. */
struct split_row {
	enum sm_scope scope;
	int64_t arg;
	int64_t lim;
	int divergent;
};

static const struct split_row split_rows[] = {
	{ SM_SCOPE_BLOCK, 0, 32, 1 },
	{ SM_SCOPE_TILE, 32, 32, 0 },       /* warp-uniform */
	{ SM_SCOPE_TILE, 32, 16, 1 },
	{ SM_SCOPE_TILE, 16, 16, 0 },
	{ SM_SCOPE_TILE, 16, 8, 1 },
	{ SM_SCOPE_TILE, 64, 32, 1 },
	{ SM_SCOPE_LANES, 0xffffffff, 64, 0 },
	{ SM_SCOPE_LANES, 0xffffffff, 16, 1 },
	{ SM_SCOPE_LANES, 0x0000ffff, 16, 0 }, /* exactly the mask's lanes of warp 0 */
	{ SM_SCOPE_LANES, 0x0000ffff, 8, 1 },
	{ SM_SCOPE_LANES, 0, 5, 0 },           /* a run-time mask */
	{ SM_SCOPE_ACTIVE, 0, 5, 0 },
	{ SM_SCOPE_COUNT, 64, 64, 0 },
	{ SM_SCOPE_COUNT, 64, 32, 1 },
	{ SM_SCOPE_GRID, 0, 64, 1 },
};

START_TEST(test_scope_divergence)
{
	const struct split_row R = split_rows[_i];
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_stmt *br = scoped(&b, SM_BAR_CG_SYNC, R.scope, R.arg);
	struct sm_stmt *body = blk(&b, 1, iff(&b, OP(&b, SM_OP_LT, tid(&b), K(&b, R.lim)), br, NULL));
	struct sm_kernel_model m;
	sm_irb_resolve(&b, body, &m);
	struct sm_divergence *d;
	ck_assert_msg(sm_divergent_barriers(&m, sm_irb_launches(&b, &B128), &b.A, &d) == R.divergent, "row %d", _i);
	sm_irb_release(&b);
}
END_TEST

START_TEST(test_syncwarp_does_not_order_warps)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_race *r;
	unsigned n = races(&b, blk(&b, 3, acc(&b, SM_ACC_STORE, tid(&b)), bar(&b, SM_BAR_SYNCWARP),
				      acc(&b, SM_ACC_LOAD, rev(&b, 128))), B128, &r);
	ck_assert_uint_eq(n, 1);
	ck_assert(r[0].inter_warp);
	sm_irb_release(&b);
}
END_TEST

START_TEST(test_warp_exchange)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_race *r;
	/* one warp: a reverse is a warp-level exchange */
	unsigned n = races(&b, blk(&b, 2, acc(&b, SM_ACC_STORE, tid(&b)), acc(&b, SM_ACC_LOAD, rev(&b, 32))), B32, &r);
	ck_assert_uint_eq(n, 1);
	ck_assert(!r[0].inter_warp);
	ck_assert_int_eq(r[0].tid_a[0] / 32, r[0].tid_b[0] / 32);
	/* __syncwarp orders it */
	struct sm_irb c;
	sm_irb_init(&c);
	n = races(&c, blk(&c, 3, acc(&c, SM_ACC_STORE, tid(&c)), bar(&c, SM_BAR_SYNCWARP), acc(&c, SM_ACC_LOAD, rev(&c, 32))),
		  B32, &r);
	ck_assert_uint_eq(n, 0);
	sm_irb_release(&b);
	sm_irb_release(&c);
}
END_TEST

START_TEST(test_own_elements)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_race *r;
	/* s[tid] = ..; s[tid] += ..; atomics on shared bins */
	unsigned n = races(&b, blk(&b, 4, acc(&b, SM_ACC_STORE, tid(&b)), acc(&b, SM_ACC_LOAD, tid(&b)),
				      acc(&b, SM_ACC_STORE, tid(&b)),
				      acc(&b, SM_ACC_ATOMIC, OP(&b, SM_OP_ADD, K(&b, 512), OP(&b, SM_OP_AND, tid(&b), K(&b, 7))))),
			   B128, &r);
	ck_assert_uint_eq(n, 0);
	struct sm_irb c;
	sm_irb_init(&c);
	n = races(&c, blk(&c, 2, acc(&c, SM_ACC_ATOMIC, OP(&c, SM_OP_AND, tid(&c), K(&c, 7))),
			  acc(&c, SM_ACC_ATOMIC, OP(&c, SM_OP_AND, OP(&c, SM_OP_ADD, tid(&c), K(&c, 1)), K(&c, 7)))),
		  B128, &r);
	ck_assert_uint_eq(n, 0);
	sm_irb_release(&b);
	sm_irb_release(&c);
}
END_TEST

START_TEST(test_cross_iteration_war)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_var *k = var(&b, "k", SM_V_LOCAL);
	struct sm_race *r;
	/* for (k < 4) { s[tid] = ..; sync; .. = s[127 - tid]; } */
	struct sm_stmt *body = blk(&b, 3, acc(&b, SM_ACC_STORE, tid(&b)), bar(&b, SM_BAR_SYNCTHREADS),
				   acc(&b, SM_ACC_LOAD, rev(&b, 128)));
	unsigned n = races(&b, blk(&b, 1, loop(&b, k, K(&b, 4), body)), B128, &r);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(r[0].a, 1);
	ck_assert_uint_eq(r[0].b, 0);
	ck_assert_int_eq(r[0].kind, SM_RACE_WAR);
	ck_assert(r[0].cross_iter);
	ck_assert(r[0].inter_warp);
	/* with the second barrier: clean */
	struct sm_irb c;
	sm_irb_init(&c);
	struct sm_var *k2 = var(&c, "k", SM_V_LOCAL);
	struct sm_stmt *body2 = blk(&c, 4, acc(&c, SM_ACC_STORE, tid(&c)), bar(&c, SM_BAR_SYNCTHREADS),
				    acc(&c, SM_ACC_LOAD, rev(&c, 128)), bar(&c, SM_BAR_SYNCTHREADS));
	n = races(&c, blk(&c, 1, loop(&c, k2, K(&c, 4), body2)), B128, &r);
	ck_assert_uint_eq(n, 0);
	sm_irb_release(&b);
	sm_irb_release(&c);
}
END_TEST

START_TEST(test_conditional_barrier_leaves_a_path)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_var *n = var(&b, "n", SM_V_PARAM);
	struct sm_race *r;
	/* if (n > 0) sync;  : the path through the else has no barrier */
	unsigned c = races(&b, blk(&b, 3, acc(&b, SM_ACC_STORE, tid(&b)),
				     iff(&b, OP(&b, SM_OP_GT, V(&b, n), K(&b, 0)), bar(&b, SM_BAR_SYNCTHREADS), NULL),
				     acc(&b, SM_ACC_LOAD, rev(&b, 128))), B128, &r);
	ck_assert_uint_eq(c, 1);
	sm_irb_release(&b);
}
END_TEST

/* ---- the proxy fence (engine/proxy.c, the CFG's SM_CFG_PROXY mode) ---- */

/* if (threadIdx.x == 0) a bulk copy of s[0..255] out of shared memory, as
 * the front end gives cp.async.bulk.global.shared::cta (1,024 bytes) */
static struct sm_stmt *bulk_out(struct sm_irb *b)
{
	struct sm_stmt *s = acc(b, SM_ACC_LOAD, K(b, 0));
	s->access->async_copy = true;
	s->access->bulk = true;
	s->access->width = 1024;
	s->access->op = "cp.async.bulk store";
	return iff(b, OP(b, SM_OP_EQ, tid(b), K(b, 0)), s, NULL);
}

/* fence.proxy.async, as convert_async.c emits it */
static struct sm_stmt *fence(struct sm_irb *b)
{
	struct sm_stmt *s = sm_irb_stmt(b, SM_S_OPAQUE_CALL);
	s->proxy_fence = true;
	return s;
}

static struct sm_stmt *write_at(struct sm_irb *b, int64_t first)
{
	return acc(b, SM_ACC_STORE, OP(b, SM_OP_ADD, tid(b), K(b, first)));
}

/* Each row: a kernel of 128 threads, the findings proxy.c must make, and
 * whether the first is over a back edge. */
static const struct proxy_row {
	const char *what;
	unsigned found;
	bool cross_iter;
} proxy_rows[] = {
	{ "write, barrier, copy: no fence", 1, false },
	{ "write, fence, barrier, copy", 0, false },
	{ "write, barrier, fence on one arm only, copy", 1, false },
	{ "write of bytes the copy does not read", 0, false },
	{ "loop: copy, barrier, rewrite: the next iteration's copy reads it", 1, true },
	{ "loop: copy, barrier, rewrite, fence", 0, false },
	{ "a plain load of the same bytes is no bulk copy", 0, false },
};

START_TEST(test_proxy_fence)
{
	const struct proxy_row *row = &proxy_rows[_i];
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_stmt *body = NULL;
	struct sm_var *i = sm_irb_var(&b, "i", SM_V_LOCAL);
	switch (_i) {
	case 0:
		body = blk(&b, 3, write_at(&b, 0), bar(&b, SM_BAR_SYNCTHREADS), bulk_out(&b));
		break;
	case 1:
		body = blk(&b, 4, write_at(&b, 0), fence(&b), bar(&b, SM_BAR_SYNCTHREADS), bulk_out(&b));
		break;
	case 2:
		body = blk(&b, 4, write_at(&b, 0), bar(&b, SM_BAR_SYNCTHREADS),
			   iff(&b, OP(&b, SM_OP_LT, tid(&b), K(&b, 64)), fence(&b), NULL), bulk_out(&b));
		break;
	case 3:
		body = blk(&b, 3, write_at(&b, 512), bar(&b, SM_BAR_SYNCTHREADS), bulk_out(&b));
		break;
	case 4:
		body = loop(&b, i, K(&b, 4),
			    blk(&b, 4, bulk_out(&b), bar(&b, SM_BAR_SYNCTHREADS), write_at(&b, 0), bar(&b, SM_BAR_SYNCTHREADS)));
		break;
	case 5:
		body = loop(&b, i, K(&b, 4),
			    blk(&b, 5, bulk_out(&b), bar(&b, SM_BAR_SYNCTHREADS), write_at(&b, 0), fence(&b),
				bar(&b, SM_BAR_SYNCTHREADS)));
		break;
	default:
		body = blk(&b, 3, write_at(&b, 0), bar(&b, SM_BAR_SYNCTHREADS),
			   iff(&b, OP(&b, SM_OP_EQ, tid(&b), K(&b, 0)), acc(&b, SM_ACC_LOAD, K(&b, 0)), NULL));
		break;
	}
	struct sm_kernel_model m;
	sm_irb_resolve(&b, body, &m);
	struct sm_work work = { .limit = UINT64_MAX };
	struct sm_race *r = NULL;
	unsigned n = 0;
	ck_assert_int_eq(sm_kernel_proxy_races(&m, B128, &b.A, &work, &r, &n), 0);
	ck_assert_msg(n == row->found, "%s: %u findings, want %u", row->what, n, row->found);
	if (n) {
		ck_assert(r[0].proxy);
		ck_assert_int_eq(m.acc[r[0].a].src->kind, SM_ACC_STORE);
		ck_assert(sm_access_is_bulk_out(m.acc[r[0].b].src));
		ck_assert_msg(r[0].cross_iter == row->cross_iter, "%s: cross_iter %d", row->what, r[0].cross_iter);
		/* the witness: the issuing thread copies what another wrote */
		ck_assert_int_eq(r[0].tid_b[0], 0);
		ck_assert_int_lt(r[0].addr, 1024);
		ck_assert_int_eq(r[0].addr, 4 * r[0].tid_a[0]);
	}
	sm_irb_release(&b);
}
END_TEST

/* A copy still in flight after a barrier (the front end repeats its store
 * there, marked in_flight) keeps the guards of its issue: the copy thread
 * 0 issued under if (threadIdx.x == 0) is still thread 0's after the
 * barrier (engine/resolve.c), so the race names thread 0 as the writer. */
START_TEST(test_in_flight_keeps_issue_guards)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_stmt *copy = acc(&b, SM_ACC_STORE, K(&b, 0));
	copy->access->async_copy = true;
	copy->access->bulk = true;
	copy->access->width = 1024;
	struct sm_stmt *again = acc(&b, SM_ACC_STORE, K(&b, 0));
	again->access->async_copy = true;
	again->access->bulk = true;
	again->access->width = 1024;
	again->access->in_flight = copy->access;
	struct sm_stmt *body = blk(&b, 4, iff(&b, OP(&b, SM_OP_EQ, tid(&b), K(&b, 0)), copy, NULL),
				   bar(&b, SM_BAR_SYNCTHREADS), again, acc(&b, SM_ACC_LOAD, rev(&b, 128)));
	struct sm_kernel_model m;
	sm_irb_resolve(&b, body, &m);
	ck_assert_uint_eq(m.nacc, 3);
	ck_assert_ptr_nonnull(m.acc[0].guards);
	ck_assert_ptr_eq(m.acc[1].guards, m.acc[0].guards);
	struct sm_race *r = NULL;
	unsigned n = 0;
	ck_assert_int_eq(sm_kernel_races(&m, B128, &b.A, &r, &n), 0);
	ck_assert_uint_ge(n, 1);
	bool found = false;
	for (unsigned i = 0; i < n; i++)
		if (r[i].a == 1 && r[i].b == 2) {
			found = true;
			ck_assert_int_eq(r[i].kind, SM_RACE_RAW);
			ck_assert_int_eq(r[i].tid_a[0], 0); /* the issuing thread */
			ck_assert_int_ne(r[i].tid_b[0] / 32, 0);
		}
	ck_assert(found);
	sm_irb_release(&b);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("barriers");
	TCase *tc = tcase_create("threaddep");
	tcase_add_test(tc, test_early_return);
	tcase_add_test(tc, test_uniform_conditions);
	tcase_add_test(tc, test_values_flow);
	tcase_add_loop_test(tc, test_cancels, 0, (int)(sizeof(vrows) / sizeof(vrows[0])));
	tcase_add_test(tc, test_loop_trip_count);
	suite_add_tcase(s, tc);
	TCase *tr = tcase_create("races");
	tcase_add_test(tr, test_reverse);
	tcase_add_test(tr, test_reverse_barrier);
	tcase_add_test(tr, test_same_statement);
	tcase_add_test(tr, test_if_arms);
	tcase_add_test(tr, test_syncwarp_does_not_order_warps);
	tcase_add_test(tr, test_warp_exchange);
	tcase_add_loop_test(tr, test_scope_orders, 0, (int)(sizeof(scope_rows) / sizeof(scope_rows[0])));
	tcase_add_loop_test(tr, test_scope_divergence, 0, (int)(sizeof(split_rows) / sizeof(split_rows[0])));
	tcase_add_test(tr, test_own_elements);
	tcase_add_test(tr, test_cross_iteration_war);
	tcase_add_test(tr, test_conditional_barrier_leaves_a_path);
	suite_add_tcase(s, tr);
	TCase *tp = tcase_create("proxy");
	tcase_add_loop_test(tp, test_proxy_fence, 0, (int)(sizeof(proxy_rows) / sizeof(proxy_rows[0])));
	tcase_add_test(tp, test_in_flight_keeps_issue_guards);
	suite_add_tcase(s, tp);
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
