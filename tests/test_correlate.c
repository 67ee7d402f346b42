/* test_correlate.c - Check tests of the guard correlation model
 * (engine/correlate.c) on hand-built IR: one thread's condition that tests
 * one shared element in ways no value satisfies is false for that thread;
 * compatible tests, different elements, narrowing casts and loads through
 * unknown offsets are not. Table-driven: each row is a condition over
 * s[tid] and s[tid + d] (d from the row, so d == 0 is the same element).
 * Also the three-valued guard (eval.c sm_eval_truth): && and || decided by
 * their known operands where those decide them. The AND rows are tried
 * as nested ifs too: related when joined (nothing written between the
 * two conditions), never otherwise. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ir_builder.h"

/* the value a thread loads from s[tid + d] */
static struct sm_expr *load(struct sm_irb *b, int64_t d)
{
	struct sm_access *p = sm_arena_alloc(&b->A, sizeof(*p));
	p->kind = SM_ACC_LOAD;
	p->array = b->s;
	p->nidx = 1;
	p->idx[0] = d ? OP(b, SM_OP_ADD, tid(b), K(b, d)) : tid(b);
	p->width = b->s->elem_size;
	struct sm_expr *e = sm_arena_alloc(&b->A, sizeof(*e));
	e->kind = SM_E_OPAQUE;
	e->thread_dep = true;
	e->name = "s";
	e->place = p;
	return e;
}

static struct sm_expr *unary(struct sm_irb *b, enum sm_op op, struct sm_expr *a)
{
	struct sm_expr *e = sm_arena_alloc(&b->A, sizeof(*e));
	e->kind = SM_E_UNARY;
	e->op = op;
	e->a = a;
	e->bits = 64;
	return e;
}

static struct sm_expr *cast(struct sm_irb *b, unsigned bits, struct sm_expr *a)
{
	struct sm_expr *e = sm_arena_alloc(&b->A, sizeof(*e));
	e->kind = SM_E_CAST;
	e->bits = bits;
	e->a = a;
	return e;
}

/* (s[tid] op1 k1) && (s[tid + d] op2 k2), in the row's shape */
enum shape { AND, NOT_SECOND, OR_NEGATED, CAST8_SECOND, BARE_SECOND };

static const struct row {
	const char *what;
	enum shape shape;
	enum sm_op op1;
	int64_t k1;
	enum sm_op op2;
	int64_t k2;
	int64_t d;
	bool negate;           /* the else branch: the condition must be false */
	bool impossible;
} rows[] = {
	{ "x == 0 && x != 0", AND, SM_OP_EQ, 0, SM_OP_NE, 0, 0, false, true },
	{ "x == 0 && y != 0 (other element)", AND, SM_OP_EQ, 0, SM_OP_NE, 0, 1, false, false },
	{ "x == 1 && x == 2", AND, SM_OP_EQ, 1, SM_OP_EQ, 2, 0, false, true },
	{ "x == 2 && x == 2", AND, SM_OP_EQ, 2, SM_OP_EQ, 2, 0, false, false },
	{ "x > 0 && x < 5", AND, SM_OP_GT, 0, SM_OP_LT, 5, 0, false, false },
	{ "x > 4 && x < 5", AND, SM_OP_GT, 4, SM_OP_LT, 5, 0, false, true },
	{ "x >= 5 && x <= 5", AND, SM_OP_GE, 5, SM_OP_LE, 5, 0, false, false },
	{ "x != 1 && x != 2", AND, SM_OP_NE, 1, SM_OP_NE, 2, 0, false, false },
	{ "x < 0 && !(x < 0)", NOT_SECOND, SM_OP_LT, 0, SM_OP_LT, 0, 0, false, true },
	{ "else of !(x == 0 || x != 0)", OR_NEGATED, SM_OP_EQ, 0, SM_OP_NE, 0, 0, true, true },
	{ "else of (x == 0 && x != 0) is always taken", AND, SM_OP_EQ, 0, SM_OP_NE, 0, 0, true, false },
	{ "x == 256 && (char)x == 0 (narrowing)", CAST8_SECOND, SM_OP_EQ, 256, SM_OP_EQ, 0, 0, false, false },
	{ "x == 0 && x (bare load)", BARE_SECOND, SM_OP_EQ, 0, SM_OP_NE, 0, 0, false, true },
};

START_TEST(test_rows)
{
	const struct row *r = &rows[_i];
	struct sm_irb b;
	sm_irb_init(&b);
	b.s->elem_size = 4;
	struct sm_expr *first = OP(&b, r->op1, load(&b, 0), K(&b, r->k1));
	struct sm_expr *second = NULL;
	switch (r->shape) {
	case NOT_SECOND:
		second = unary(&b, SM_OP_NOT, cast(&b, 32, OP(&b, r->op2, load(&b, r->d), K(&b, r->k2))));
		break;
	case CAST8_SECOND:
		second = OP(&b, r->op2, cast(&b, 8, load(&b, r->d)), K(&b, r->k2));
		break;
	case BARE_SECOND:
		second = load(&b, r->d);
		break;
	case AND:
	case OR_NEGATED:
		second = OP(&b, r->op2, load(&b, r->d), K(&b, r->k2));
		break;
	}
	struct sm_expr *cond = r->shape == OR_NEGATED ? OP(&b, SM_OP_LOR, first, second)
						     : OP(&b, SM_OP_LAND, first, second);
	for (int t = 0; t < 4; t++) {
		struct sm_eval_ctx c;
		memset(&c, 0, sizeof(c));
		c.tid[0] = t;
		c.ntid = (struct sm_dim3){ 32, 1, 1 };
		struct sm_guard g = { .cond = cond, .negate = r->negate };
		ck_assert_msg(sm_guard_impossible(&g, &c) == r->impossible, "%s (thread %d)", r->what, t);
		if (r->shape != AND || r->negate)
			continue;
		/* the same two tests as nested ifs, the inner on the outer's
		 * value: related only when nothing was written between them */
		struct sm_guard outer = { .cond = first };
		struct sm_guard inner = { .cond = second, .next = &outer, .joined = true };
		ck_assert_msg(sm_guard_impossible(&inner, &c) == r->impossible, "nested %s (thread %d)", r->what, t);
		inner.joined = false;
		ck_assert_msg(!sm_guard_impossible(&inner, &c), "nested %s, written between (thread %d)", r->what, t);
	}
	sm_irb_release(&b);
}
END_TEST

/* an offset the thread cannot compute (a parameter) relates nothing */
START_TEST(test_unknown_offset)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_var *n = var(&b, "n", SM_V_PARAM);
	struct sm_expr *x = load(&b, 0), *y = load(&b, 0);
	y->place->idx[0] = V(&b, n);
	x->place->idx[0] = V(&b, n);
	struct sm_expr *cond = OP(&b, SM_OP_LAND, OP(&b, SM_OP_EQ, x, K(&b, 0)), OP(&b, SM_OP_NE, y, K(&b, 0)));
	struct sm_eval_ctx c;
	memset(&c, 0, sizeof(c));
	c.ntid = (struct sm_dim3){ 32, 1, 1 };
	struct sm_guard g = { .cond = cond };
	ck_assert(!sm_guard_impossible(&g, &c));
	sm_irb_release(&b);
}
END_TEST

/* ---- guards in three values (eval.c sm_eval_truth, guards.c) ----
 * Each row: a condition over the thread index t and a parameter n (an
 * unknown), and its value in threads 0..3: 1, 0, or -1 undecidable. */
enum tshape { N_AND_T0, T0_AND_N, N_OR_T0, NOT_N_OR_TNE0, T_RANGE, N_RANGE };

static const struct trow {
	const char *what;
	enum tshape shape;
	int want[4];
} trows[] = {
	{ "n > 0 && t == 0", N_AND_T0, { -1, 0, 0, 0 } },
	{ "t == 0 && n > 0", T0_AND_N, { -1, 0, 0, 0 } },
	{ "n > 0 || t == 0", N_OR_T0, { 1, -1, -1, -1 } },
	{ "!(n > 0 || t != 0)", NOT_N_OR_TNE0, { -1, 0, 0, 0 } },
	{ "t < 2 && t > 0", T_RANGE, { 0, 1, 0, 0 } },
	{ "n > 0 && n < 5", N_RANGE, { -1, -1, -1, -1 } },
};

START_TEST(test_truth_rows)
{
	const struct trow *r = &trows[_i];
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_var *n = var(&b, "n", SM_V_PARAM);
	struct sm_expr *npos = OP(&b, SM_OP_GT, V(&b, n), K(&b, 0));
	struct sm_expr *t0 = OP(&b, SM_OP_EQ, tid(&b), K(&b, 0));
	struct sm_expr *cond = NULL;
	switch (r->shape) {
	case N_AND_T0: cond = OP(&b, SM_OP_LAND, npos, t0); break;
	case T0_AND_N: cond = OP(&b, SM_OP_LAND, t0, npos); break;
	case N_OR_T0: cond = OP(&b, SM_OP_LOR, npos, t0); break;
	case NOT_N_OR_TNE0:
		cond = unary(&b, SM_OP_NOT, OP(&b, SM_OP_LOR, npos, OP(&b, SM_OP_NE, tid(&b), K(&b, 0))));
		break;
	case T_RANGE:
		cond = OP(&b, SM_OP_LAND, OP(&b, SM_OP_LT, tid(&b), K(&b, 2)), OP(&b, SM_OP_GT, tid(&b), K(&b, 0)));
		break;
	case N_RANGE: cond = OP(&b, SM_OP_LAND, npos, OP(&b, SM_OP_LT, V(&b, n), K(&b, 5))); break;
	}
	for (int t = 0; t < 4; t++) {
		struct sm_eval_ctx c;
		memset(&c, 0, sizeof(c));
		c.tid[0] = t;
		c.ntid = (struct sm_dim3){ 32, 1, 1 };
		c.budget = 1000;
		ck_assert_msg(sm_eval_truth(cond, &c) == r->want[t], "%s (thread %d)", r->what, t);
		/* as a guard: runs unless decided false (and its else branch
		 * unless decided true) */
		struct sm_guard g = { .cond = cond }, ng = { .cond = cond, .negate = true };
		memset(&c, 0, sizeof(c));
		c.tid[0] = t;
		c.ntid = (struct sm_dim3){ 32, 1, 1 };
		ck_assert_msg(sm_guards_hold(&g, &c) == (r->want[t] != 0), "guard %s (thread %d)", r->what, t);
		ck_assert_msg(sm_guards_hold(&ng, &c) == (r->want[t] != 1), "else of %s (thread %d)", r->what, t);
		/* decided once for all threads only where it reads no thread
		 * index (bank.c, races.c): the same verdict, and the flag */
		bool uniform = r->shape == N_RANGE, every = !uniform;
		memset(&c, 0, sizeof(c));
		c.tid[0] = t;
		c.ntid = (struct sm_dim3){ 32, 1, 1 };
		ck_assert_int_eq(sm_guards_hold_lanes(&g, &c, &every), r->want[t] != 0);
		ck_assert_msg(every == uniform, "guard %s: every thread's is %d", r->what, every);
		/* a loop condition is evaluated strictly: an unknown n ends
		 * the evaluation (-1) before it reads t in some rows, which is
		 * every thread's value then; where it says so, every thread
		 * gets the same value from sm_loop_cond */
		struct sm_loop L = { .cond = cond };
		memset(&c, 0, sizeof(c));
		c.tid[0] = t;
		c.ntid = (struct sm_dim3){ 32, 1, 1 };
		int lv = sm_loop_cond_lanes(&L, &c, &every);
		for (int u = 0; u < 4; u++) {
			memset(&c, 0, sizeof(c));
			c.tid[0] = u;
			c.ntid = (struct sm_dim3){ 32, 1, 1 };
			int own = sm_loop_cond(&L, &c);
			ck_assert_msg(u != t || own == lv, "loop %s (thread %d): %d, alone %d", r->what, t, lv, own);
			ck_assert_msg(!every || own == lv, "loop %s: every thread's, but thread %d has %d", r->what, u, own);
		}
		if (uniform)
			ck_assert_msg(every, "loop %s reads no thread index", r->what);
	}
	sm_irb_release(&b);
}
END_TEST

/* A loop's exit value (a counter read after its loop) depends on the
 * counters of the loops around that loop, never on its own nor on a
 * sibling's: used_iter says which, and a guard on it is kept by the guard
 * memo at every iteration of the access's own loop (mmq's stream-k fixup
 * put `if (!any_fixup) return;` over an inner loop, and re-evaluating it
 * per iteration took the file's whole budget). */
/* *c: thread 0 of a warp at iteration k of the loop at depth 1, sharing
 * the guard memo gm and counting its nodes in *w */
static void memo_ctx(struct sm_eval_ctx *c, struct sm_guard_memo *gm, struct sm_work *w, int64_t k)
{
	memset(c, 0, sizeof(*c));
	c->ntid = (struct sm_dim3){ 32, 1, 1 };
	c->gmemo = gm;
	c->work = w;
	c->iter[1] = k;
}

START_TEST(test_loop_exit_counters)
{
	struct sm_irb b;
	sm_irb_init(&b);
	/* for (i = 0; i < 4; i++) { for (j = i; j < 8; j++); ... }
	 * for (m = 0; m < 5; m++);  and the access's loop at depth 1 */
	struct sm_loop O = { .depth = 0, .niv = 1 }, Lj = { .depth = 1, .niv = 1, .parent = &O },
		       M = { .depth = 0, .niv = 1 }, A = { .depth = 1, .niv = 1, .parent = &M };
	struct sm_expr *vi = K(&b, 0), *vj = K(&b, 0), *vm = K(&b, 0), *va = K(&b, 0);
	vi->kind = vj->kind = vm->kind = va->kind = SM_E_LOOPVAR;
	vi->loop = &O, vj->loop = &Lj, vm->loop = &M, va->loop = &A;
	struct sm_iv ivi = { .init = K(&b, 0), .op = SM_OP_ADD, .step = K(&b, 1) };
	struct sm_iv ivj = { .init = vi, .op = SM_OP_ADD, .step = K(&b, 1) };
	struct sm_iv ivm = { .init = K(&b, 0), .op = SM_OP_ADD, .step = K(&b, 1) };
	struct sm_iv iva = { .init = K(&b, 0), .op = SM_OP_ADD, .step = K(&b, 1) };
	O.ivs = &ivi, Lj.ivs = &ivj, M.ivs = &ivm, A.ivs = &iva;
	O.cond = OP(&b, SM_OP_LT, vi, K(&b, 4));
	Lj.cond = OP(&b, SM_OP_LT, vj, K(&b, 8));
	M.cond = OP(&b, SM_OP_LT, vm, K(&b, 5));
	A.cond = OP(&b, SM_OP_LT, va, K(&b, 3));
	struct sm_expr *xj = K(&b, 0), *xm = K(&b, 0);
	xj->kind = xm->kind = SM_E_LOOPEXIT;
	xj->loop = &Lj, xm->loop = &M;

	struct sm_eval_ctx c;
	memset(&c, 0, sizeof(c));
	c.ntid = (struct sm_dim3){ 32, 1, 1 };
	c.budget = 100000;
	c.iter[0] = 2;
	ck_assert_int_eq(sm_eval(xj, &c), 8);
	ck_assert_int_eq(c.used_iter, 1); /* i's loop (depth 0), not j's */
	memset(&c, 0, sizeof(c));
	c.ntid = (struct sm_dim3){ 32, 1, 1 };
	c.budget = 100000;
	c.iter[1] = 2;
	ck_assert_int_eq(sm_eval(xm, &c), 5);
	ck_assert_int_eq(c.used_iter, 0); /* nothing around m's loop */
	ck_assert_int_eq(sm_eval(OP(&b, SM_OP_ADD, xm, va), &c), 7);
	ck_assert_int_eq(c.used_iter, 2); /* the access loop's own counter */

	/* `if (m_exit == 5)` over the access in loop A: evaluated once, then
	 * kept for every iteration (no node visited the second time); a
	 * guard on A's counter is evaluated at each */
	struct sm_guard g = { .cond = OP(&b, SM_OP_EQ, xm, K(&b, 5)) };
	struct sm_guard ga = { .cond = OP(&b, SM_OP_LT, va, K(&b, 2)) };
	struct sm_guard_memo *gm = sm_guard_memo_new();
	struct sm_work w = { 0 };
	for (int k = 0; k < 3; k++) {
		memo_ctx(&c, gm, &w, k);
		uint64_t before = w.used;
		ck_assert_int_eq(sm_guards_hold(&g, &c), 1);
		uint64_t own = w.used - before;
		ck_assert_msg(k == 0 ? own > 0 : own == 0, "iteration %d: %llu nodes for the exit guard", k,
			      (unsigned long long)own);
		before = w.used;
		ck_assert_int_eq(sm_guards_hold(&ga, &c), k < 2);
		ck_assert_msg(w.used > before, "iteration %d: the counter's guard was not evaluated", k);
	}
	/* the chain `if (m_exit == 5)` inside `if (a < 2)`: the outer guard
	 * reads A's counter, so the chain is walked at each iteration, but
	 * the inner guard's own verdict (every thread's) is looked up */
	struct sm_guard outer = { .cond = OP(&b, SM_OP_LT, va, K(&b, 2)) };
	struct sm_guard inner = { .cond = OP(&b, SM_OP_NE, xm, K(&b, 4)), .next = &outer };
	uint64_t cost[2];
	for (int k = 0; k < 2; k++) {
		memo_ctx(&c, gm, &w, k);
		uint64_t before = w.used;
		ck_assert_int_eq(sm_guards_hold(&inner, &c), 1);
		cost[k] = w.used - before;
	}
	ck_assert_msg(cost[1] > 0 && cost[1] < cost[0], "the chain cost %llu then %llu nodes",
		      (unsigned long long)cost[0], (unsigned long long)cost[1]);
	sm_guard_memo_free(gm);
	sm_irb_release(&b);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("correlate");
	TCase *tc = tcase_create("guards");
	tcase_add_loop_test(tc, test_rows, 0, (int)(sizeof(rows) / sizeof(rows[0])));
	tcase_add_test(tc, test_unknown_offset);
	tcase_add_loop_test(tc, test_truth_rows, 0, (int)(sizeof(trows) / sizeof(trows[0])));
	tcase_add_test(tc, test_loop_exit_counters);
	suite_add_tcase(s, tc);
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
