/* test_barriers.c - Check tests of thread dependence, barrier divergence
 * and the race decision (analyzer/threaddep.c) on hand-built IR. Never
 * links libclang. */
#include <check.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "engine/analysis.h"
#include "engine/threaddep.h"

/* one kernel under construction */
struct kb {
	struct sm_arena A;
	struct sm_kernel k;
	struct sm_var *vars[16];
	struct sm_array *s;
};

static struct sm_expr *ex(struct kb *b, enum sm_expr_kind kind)
{
	struct sm_expr *e = sm_arena_alloc(&b->A, sizeof(*e));
	e->kind = kind;
	e->bits = 64;
	return e;
}

static struct sm_expr *K(struct kb *b, int64_t v)
{
	struct sm_expr *e = ex(b, SM_E_CONST);
	e->ival = v;
	return e;
}

static struct sm_expr *BI(struct kb *b, enum sm_builtin which)
{
	struct sm_expr *e = ex(b, SM_E_BUILTIN);
	e->builtin = which;
	return e;
}

static struct sm_expr *V(struct kb *b, struct sm_var *v)
{
	struct sm_expr *e = ex(b, SM_E_VAR);
	e->var = v;
	return e;
}

static struct sm_expr *OP(struct kb *b, enum sm_op op, struct sm_expr *x, struct sm_expr *y)
{
	struct sm_expr *e = ex(b, SM_E_BINARY);
	e->op = op;
	e->a = x;
	e->b = y;
	return e;
}

static struct sm_var *var(struct kb *b, const char *name, enum sm_var_kind kind)
{
	struct sm_var *v = sm_arena_alloc(&b->A, sizeof(*v));
	v->name = name;
	v->kind = kind;
	v->id = b->k.nvars;
	b->vars[b->k.nvars++] = v;
	return v;
}

static struct sm_stmt *st(struct kb *b, enum sm_stmt_kind kind)
{
	struct sm_stmt *s = sm_arena_alloc(&b->A, sizeof(*s));
	s->kind = kind;
	return s;
}

static struct sm_stmt *blk(struct kb *b, int n, ...)
{
	struct sm_stmt *s = st(b, SM_S_BLOCK);
	s->kids = sm_arena_alloc(&b->A, (size_t)(n + 1) * sizeof(*s->kids));
	va_list ap;
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		s->kids[i] = va_arg(ap, struct sm_stmt *);
	va_end(ap);
	s->nkids = n;
	return s;
}

static struct sm_stmt *decl(struct kb *b, struct sm_var *v, struct sm_expr *val)
{
	struct sm_stmt *s = st(b, SM_S_DECL);
	s->var = v;
	s->value = val;
	return s;
}

static struct sm_stmt *assign(struct kb *b, struct sm_var *v, enum sm_op op, struct sm_expr *val)
{
	struct sm_stmt *s = st(b, SM_S_ASSIGN);
	s->var = v;
	s->op = op;
	s->value = val;
	return s;
}

static struct sm_stmt *iff(struct kb *b, struct sm_expr *c, struct sm_stmt *th, struct sm_stmt *el)
{
	struct sm_stmt *s = st(b, SM_S_IF);
	s->cond = c;
	s->kids = sm_arena_alloc(&b->A, 2 * sizeof(*s->kids));
	s->kids[0] = th;
	s->kids[1] = el;
	s->nkids = 2;
	return s;
}

/* for (v = 0; v < n; v += 1) body */
static struct sm_stmt *loop(struct kb *b, struct sm_var *v, struct sm_expr *n, struct sm_stmt *body)
{
	struct sm_stmt *s = st(b, SM_S_LOOP);
	s->cond = OP(b, SM_OP_LT, V(b, v), n);
	s->kids = sm_arena_alloc(&b->A, 3 * sizeof(*s->kids));
	s->kids[0] = decl(b, v, K(b, 0));
	s->kids[1] = body;
	s->kids[2] = assign(b, v, SM_OP_ADD, K(b, 1));
	s->nkids = 3;
	return s;
}

static struct sm_stmt *acc(struct kb *b, enum sm_access_kind kind, struct sm_expr *idx)
{
	struct sm_access *a = sm_arena_alloc(&b->A, sizeof(*a));
	a->kind = kind;
	a->array = b->s;
	a->nidx = 1;
	a->idx[0] = idx;
	a->width = 4;
	b->k.naccesses++; /* numbered in program order by kb_resolve */
	struct sm_stmt *s = st(b, SM_S_ACCESS);
	s->access = a;
	return s;
}

static struct sm_stmt *bar(struct kb *b, enum sm_barrier_kind kind)
{
	struct sm_stmt *s = st(b, SM_S_BARRIER);
	s->barrier = kind;
	return s;
}

static void kb_init(struct kb *b)
{
	memset(b, 0, sizeof(*b));
	sm_arena_init(&b->A, 0);
	b->k.name = "k";
	b->k.vars = b->vars;
	b->s = sm_arena_alloc(&b->A, sizeof(*b->s));
	b->s->name = "s";
	b->s->elem_type = "float";
	b->s->elem_size = 4;
	b->s->ndims = 1;
	b->s->dims[0] = 1024;
}

/* Number the accesses in program order (argument evaluation order is
 * unspecified, so the builders cannot). */
static void number(struct sm_stmt *s, unsigned *next)
{
	if (!s)
		return;
	if (s->kind == SM_S_ACCESS) {
		s->access->index = (*next)++;
		s->access->range.begin.line = 10 + s->access->index;
	}
	for (int i = 0; i < s->nkids; i++)
		number(s->kids[i], next);
}

static void kb_resolve(struct kb *b, struct sm_stmt *body, struct sm_kernel_model *m)
{
	unsigned next = 0;
	number(body, &next);
	ck_assert_uint_eq(next, b->k.naccesses);
	b->k.body = body;
	ck_assert_int_eq(sm_resolve_kernel(&b->k, &b->A, m), 0);
}

static struct sm_expr *tid(struct kb *b)
{
	return BI(b, SM_B_TID);
}

static const struct sm_dim3 B128 = { 128, 1, 1 };
static const struct sm_dim3 B32 = { 32, 1, 1 };

/* ---- thread dependence and divergence ---- */

START_TEST(test_early_return)
{
	struct kb b;
	kb_init(&b);
	struct sm_var *n = var(&b, "n", SM_V_PARAM), *i = var(&b, "i", SM_V_LOCAL);
	struct sm_stmt *ret = st(&b, SM_S_RETURN);
	struct sm_stmt *cond = iff(&b, OP(&b, SM_OP_GE, V(&b, i), V(&b, n)), ret, NULL);
	struct sm_stmt *sync = bar(&b, SM_BAR_SYNCTHREADS);
	struct sm_stmt *body = blk(&b, 4, decl(&b, i, OP(&b, SM_OP_ADD, OP(&b, SM_OP_MUL, BI(&b, SM_B_CTAID), K(&b, 128)), tid(&b))),
				   cond, acc(&b, SM_ACC_STORE, tid(&b)), sync);
	struct sm_kernel_model m;
	kb_resolve(&b, body, &m);
	ck_assert(sm_stmt_cond_thread_dep(&m, cond));
	struct sm_divergence *d;
	ck_assert_int_eq(sm_divergent_barriers(&m, &b.A, &d), 1);
	ck_assert_ptr_eq(d[0].barrier, sync);
	ck_assert_int_eq(d[0].kind, SM_DIV_EXIT);
	ck_assert_ptr_eq(d[0].jump, ret);
	ck_assert_ptr_eq(d[0].cond, cond);
	sm_arena_release(&b.A);
}
END_TEST

START_TEST(test_uniform_conditions)
{
	struct kb b;
	kb_init(&b);
	struct sm_var *n = var(&b, "n", SM_V_PARAM), *k = var(&b, "k", SM_V_LOCAL);
	struct sm_stmt *c1 = iff(&b, OP(&b, SM_OP_EQ, BI(&b, SM_B_CTAID), K(&b, 0)), bar(&b, SM_BAR_SYNCTHREADS), NULL);
	struct sm_stmt *l = loop(&b, k, OP(&b, SM_OP_MUL, V(&b, n), BI(&b, SM_B_NTID)), bar(&b, SM_BAR_CG_SYNC));
	/* under a thread-dependent condition, but __syncwarp is not a block barrier */
	struct sm_stmt *c2 = iff(&b, OP(&b, SM_OP_LT, tid(&b), K(&b, 32)), bar(&b, SM_BAR_SYNCWARP), NULL);
	struct sm_stmt *body = blk(&b, 3, c1, l, c2);
	struct sm_kernel_model m;
	kb_resolve(&b, body, &m);
	ck_assert(!sm_stmt_cond_thread_dep(&m, c1));
	ck_assert(!sm_stmt_cond_thread_dep(&m, l));
	ck_assert(sm_stmt_cond_thread_dep(&m, c2));
	struct sm_divergence *d;
	ck_assert_int_eq(sm_divergent_barriers(&m, &b.A, &d), 0);
	sm_arena_release(&b.A);
}
END_TEST

START_TEST(test_values_flow)
{
	struct kb b;
	kb_init(&b);
	struct sm_var *x = var(&b, "x", SM_V_LOCAL), *y = var(&b, "y", SM_V_LOCAL);
	/* x = tid; x = 5;  if (x > 3) sync  -> uniform
	 * y = 5; y += tid; if (y > 3) sync  -> thread dependent */
	struct sm_stmt *cx = iff(&b, OP(&b, SM_OP_GT, V(&b, x), K(&b, 3)), bar(&b, SM_BAR_SYNCTHREADS), NULL);
	struct sm_stmt *by = bar(&b, SM_BAR_SYNCTHREADS_OP);
	struct sm_stmt *cy = iff(&b, OP(&b, SM_OP_GT, V(&b, y), K(&b, 3)), by, NULL);
	struct sm_stmt *body = blk(&b, 6, decl(&b, x, tid(&b)), assign(&b, x, SM_OP_ASSIGN, K(&b, 5)), cx,
				   decl(&b, y, K(&b, 5)), assign(&b, y, SM_OP_ADD, tid(&b)), cy);
	struct sm_kernel_model m;
	kb_resolve(&b, body, &m);
	ck_assert(!sm_stmt_cond_thread_dep(&m, cx));
	ck_assert(sm_stmt_cond_thread_dep(&m, cy));
	struct sm_divergence *d;
	ck_assert_int_eq(sm_divergent_barriers(&m, &b.A, &d), 1);
	ck_assert_ptr_eq(d[0].barrier, by);
	ck_assert_int_eq(d[0].kind, SM_DIV_IF);
	sm_arena_release(&b.A);
}
END_TEST

START_TEST(test_loop_trip_count)
{
	struct kb b;
	kb_init(&b);
	struct sm_var *k = var(&b, "k", SM_V_LOCAL), *j = var(&b, "j", SM_V_LOCAL);
	struct sm_stmt *b1 = bar(&b, SM_BAR_SYNCTHREADS);
	struct sm_stmt *l1 = loop(&b, k, OP(&b, SM_OP_SHR, tid(&b), K(&b, 5)), b1);
	/* a uniform loop left early by a thread-dependent break: the barrier
	 * before the break diverges too (later iterations) */
	struct sm_stmt *b2 = bar(&b, SM_BAR_ASM);
	struct sm_stmt *brk = st(&b, SM_S_BREAK);
	struct sm_stmt *l2 = loop(&b, j, K(&b, 8), blk(&b, 2, b2, iff(&b, OP(&b, SM_OP_EQ, tid(&b), V(&b, j)), brk, NULL)));
	struct sm_kernel_model m;
	kb_resolve(&b, blk(&b, 2, l1, l2), &m);
	struct sm_divergence *d;
	ck_assert_int_eq(sm_divergent_barriers(&m, &b.A, &d), 2);
	ck_assert_ptr_eq(d[0].barrier, b1);
	ck_assert_int_eq(d[0].kind, SM_DIV_LOOP);
	ck_assert_ptr_eq(d[0].cond, l1);
	ck_assert_ptr_eq(d[1].barrier, b2);
	ck_assert_int_eq(d[1].kind, SM_DIV_EXIT);
	ck_assert_ptr_eq(d[1].jump, brk);
	ck_assert(d[1].in_loop);
	sm_arena_release(&b.A);
}
END_TEST

/* ---- races ---- */

static unsigned races(struct kb *b, struct sm_stmt *body, struct sm_dim3 block, struct sm_race **r)
{
	struct sm_kernel_model m;
	kb_resolve(b, body, &m);
	unsigned n = 0;
	ck_assert_int_eq(sm_kernel_races(&m, block, &b->A, r, &n), 0);
	return n;
}

static struct sm_expr *rev(struct kb *b, int64_t n)
{
	return OP(b, SM_OP_SUB, K(b, n - 1), tid(b));
}

START_TEST(test_reverse)
{
	struct kb b;
	kb_init(&b);
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
	sm_arena_release(&b.A);
}
END_TEST

START_TEST(test_reverse_barrier)
{
	struct kb b;
	kb_init(&b);
	struct sm_race *r;
	unsigned n = races(&b, blk(&b, 3, acc(&b, SM_ACC_STORE, tid(&b)), bar(&b, SM_BAR_SYNCTHREADS),
				      acc(&b, SM_ACC_LOAD, rev(&b, 128))), B128, &r);
	ck_assert_uint_eq(n, 0);
	sm_arena_release(&b.A);
}
END_TEST

START_TEST(test_syncwarp_does_not_order_warps)
{
	struct kb b;
	kb_init(&b);
	struct sm_race *r;
	unsigned n = races(&b, blk(&b, 3, acc(&b, SM_ACC_STORE, tid(&b)), bar(&b, SM_BAR_SYNCWARP),
				      acc(&b, SM_ACC_LOAD, rev(&b, 128))), B128, &r);
	ck_assert_uint_eq(n, 1);
	ck_assert(r[0].inter_warp);
	sm_arena_release(&b.A);
}
END_TEST

START_TEST(test_warp_exchange)
{
	struct kb b;
	kb_init(&b);
	struct sm_race *r;
	/* one warp: a reverse is a warp-level exchange */
	unsigned n = races(&b, blk(&b, 2, acc(&b, SM_ACC_STORE, tid(&b)), acc(&b, SM_ACC_LOAD, rev(&b, 32))), B32, &r);
	ck_assert_uint_eq(n, 1);
	ck_assert(!r[0].inter_warp);
	ck_assert_int_eq(r[0].tid_a[0] / 32, r[0].tid_b[0] / 32);
	/* __syncwarp orders it */
	struct kb c;
	kb_init(&c);
	n = races(&c, blk(&c, 3, acc(&c, SM_ACC_STORE, tid(&c)), bar(&c, SM_BAR_SYNCWARP), acc(&c, SM_ACC_LOAD, rev(&c, 32))),
		  B32, &r);
	ck_assert_uint_eq(n, 0);
	sm_arena_release(&b.A);
	sm_arena_release(&c.A);
}
END_TEST

START_TEST(test_own_elements)
{
	struct kb b;
	kb_init(&b);
	struct sm_race *r;
	/* s[tid] = ..; s[tid] += ..; atomics on shared bins */
	unsigned n = races(&b, blk(&b, 4, acc(&b, SM_ACC_STORE, tid(&b)), acc(&b, SM_ACC_LOAD, tid(&b)),
				      acc(&b, SM_ACC_STORE, tid(&b)),
				      acc(&b, SM_ACC_ATOMIC, OP(&b, SM_OP_ADD, K(&b, 512), OP(&b, SM_OP_AND, tid(&b), K(&b, 7))))),
			   B128, &r);
	ck_assert_uint_eq(n, 0);
	struct kb c;
	kb_init(&c);
	n = races(&c, blk(&c, 2, acc(&c, SM_ACC_ATOMIC, OP(&c, SM_OP_AND, tid(&c), K(&c, 7))),
			  acc(&c, SM_ACC_ATOMIC, OP(&c, SM_OP_AND, OP(&c, SM_OP_ADD, tid(&c), K(&c, 1)), K(&c, 7)))),
		  B128, &r);
	ck_assert_uint_eq(n, 0);
	sm_arena_release(&b.A);
	sm_arena_release(&c.A);
}
END_TEST

START_TEST(test_cross_iteration_war)
{
	struct kb b;
	kb_init(&b);
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
	struct kb c;
	kb_init(&c);
	struct sm_var *k2 = var(&c, "k", SM_V_LOCAL);
	struct sm_stmt *body2 = blk(&c, 4, acc(&c, SM_ACC_STORE, tid(&c)), bar(&c, SM_BAR_SYNCTHREADS),
				    acc(&c, SM_ACC_LOAD, rev(&c, 128)), bar(&c, SM_BAR_SYNCTHREADS));
	n = races(&c, blk(&c, 1, loop(&c, k2, K(&c, 4), body2)), B128, &r);
	ck_assert_uint_eq(n, 0);
	sm_arena_release(&b.A);
	sm_arena_release(&c.A);
}
END_TEST

START_TEST(test_conditional_barrier_leaves_a_path)
{
	struct kb b;
	kb_init(&b);
	struct sm_var *n = var(&b, "n", SM_V_PARAM);
	struct sm_race *r;
	/* if (n > 0) sync;  : the path through the else has no barrier */
	unsigned c = races(&b, blk(&b, 3, acc(&b, SM_ACC_STORE, tid(&b)),
				     iff(&b, OP(&b, SM_OP_GT, V(&b, n), K(&b, 0)), bar(&b, SM_BAR_SYNCTHREADS), NULL),
				     acc(&b, SM_ACC_LOAD, rev(&b, 128))), B128, &r);
	ck_assert_uint_eq(c, 1);
	sm_arena_release(&b.A);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("barriers");
	TCase *tc = tcase_create("threaddep");
	tcase_add_test(tc, test_early_return);
	tcase_add_test(tc, test_uniform_conditions);
	tcase_add_test(tc, test_values_flow);
	tcase_add_test(tc, test_loop_trip_count);
	suite_add_tcase(s, tc);
	TCase *tr = tcase_create("races");
	tcase_add_test(tr, test_reverse);
	tcase_add_test(tr, test_reverse_barrier);
	tcase_add_test(tr, test_syncwarp_does_not_order_warps);
	tcase_add_test(tr, test_warp_exchange);
	tcase_add_test(tr, test_own_elements);
	tcase_add_test(tr, test_cross_iteration_war);
	tcase_add_test(tr, test_conditional_barrier_leaves_a_path);
	suite_add_tcase(s, tr);
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
