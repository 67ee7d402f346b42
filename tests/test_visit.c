/* test_visit.c - Check tests of the one walk over closed expressions
 * (engine/visit.c, sm_expr_any): which nodes it reaches through which
 * edges, what SM_SEEN_SKIP hides, and what its depth cap answers.
 * Table-driven: each row is an expression shape, the edges followed, the
 * cap, and whether the walk finds threadIdx in it. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "engine/visit.h"
#include "ir_builder.h"

static struct sm_expr *node(struct sm_irb *b, enum sm_expr_kind kind, struct sm_expr *a)
{
	struct sm_expr *e = sm_arena_alloc(&b->A, sizeof(*e));
	e->kind = kind;
	e->a = a;
	e->bits = 64;
	return e;
}

/* a place s[idx] */
static struct sm_access *place(struct sm_irb *b, struct sm_expr *idx)
{
	struct sm_access *p = sm_arena_alloc(&b->A, sizeof(*p));
	p->kind = SM_ACC_LOAD;
	p->array = b->s;
	p->nidx = 1;
	p->idx[0] = idx;
	return p;
}

/* loop counter 0 of a loop whose start is init and step 1 */
static struct sm_expr *counter(struct sm_irb *b, enum sm_expr_kind kind, struct sm_expr *init)
{
	struct sm_loop *L = sm_arena_alloc(&b->A, sizeof(*L));
	struct sm_iv *iv = sm_arena_alloc(&b->A, sizeof(*iv));
	iv->init = init;
	iv->op = SM_OP_ADD;
	iv->step = K(b, 1);
	L->niv = 1;
	L->ivs = iv;
	struct sm_expr *e = node(b, kind, NULL);
	e->loop = L;
	return e;
}

enum shape {
	TID_PLUS_3,        /* threadIdx.x + 3 */
	CONST_PRODUCT,     /* 5 * 3 */
	LOOPVAR_FROM_TID,  /* i, where i starts at threadIdx.x */
	LOOPEXIT_FROM_TID, /* i after its loop, the same */
	ADDR_OF_TID,       /* &s[threadIdx.x] */
	LOAD_OF_TID,       /* the value of s[threadIdx.x] (an opaque load) */
	NEG_TID,           /* -threadIdx.x (the predicate skips a unary) */
	DEEP_TID,          /* threadIdx.x under 10 casts */
	DEEP_CONST,        /* 7 under 10 casts */
	NULL_EXPR,         /* no expression at all */
};

static struct sm_expr *make(struct sm_irb *b, enum shape s)
{
	struct sm_expr *e;
	switch (s) {
	case TID_PLUS_3: return OP(b, SM_OP_ADD, tid(b), K(b, 3));
	case CONST_PRODUCT: return OP(b, SM_OP_MUL, K(b, 5), K(b, 3));
	case LOOPVAR_FROM_TID: return counter(b, SM_E_LOOPVAR, tid(b));
	case LOOPEXIT_FROM_TID: return counter(b, SM_E_LOOPEXIT, tid(b));
	case ADDR_OF_TID:
		e = node(b, SM_E_ADDR, NULL);
		e->place = place(b, tid(b));
		return e;
	case LOAD_OF_TID:
		e = node(b, SM_E_OPAQUE, NULL);
		e->place = place(b, tid(b));
		return e;
	case NEG_TID: return node(b, SM_E_UNARY, tid(b));
	case DEEP_TID:
	case DEEP_CONST:
		e = s == DEEP_TID ? tid(b) : K(b, 7);
		for (int i = 0; i < 10; i++)
			e = node(b, SM_E_CAST, e);
		return e;
	case NULL_EXPR: return NULL;
	}
	return NULL;
}

/* the predicate of every row: threadIdx, and a unary hides what it holds */
static enum sm_seen is_tid(const struct sm_expr *e, void *arg)
{
	if (e->kind == SM_E_BUILTIN && e->builtin == SM_B_TID)
		return SM_SEEN_HIT;
	return e->kind == SM_E_UNARY ? SM_SEEN_SKIP : SM_SEEN_GO;
}

static const struct row {
	const char *what;
	enum shape shape;
	unsigned edges;
	int max_depth;
	bool deep_answer;
	bool want;
} rows[] = {
	{ "an operand", TID_PLUS_3, 0, 100, false, true },
	{ "constants only", CONST_PRODUCT, 0, 100, true, false },
	{ "a counter's start, edge followed", LOOPVAR_FROM_TID, SM_WALK_IVS, 100, false, true },
	{ "a counter's start, edge not followed", LOOPVAR_FROM_TID, 0, 100, false, false },
	{ "a loop exit value's start", LOOPEXIT_FROM_TID, SM_WALK_IVS, 100, false, true },
	{ "a pointer's place, edge followed", ADDR_OF_TID, SM_WALK_ADDR_PLACE, 100, false, true },
	{ "a pointer's place, only loads followed", ADDR_OF_TID, SM_WALK_LOAD_PLACE, 100, false, false },
	{ "a load's place, edge followed", LOAD_OF_TID, SM_WALK_LOAD_PLACE, 100, false, true },
	{ "a load's place, only pointers followed", LOAD_OF_TID, SM_WALK_ADDR_PLACE, 100, false, false },
	{ "under a skipped node", NEG_TID, 0, 100, false, false },
	{ "deep, within the cap", DEEP_TID, 0, 10, false, true },
	{ "deep, past the cap, answer no", DEEP_TID, 0, 3, false, false },
	{ "deep, past the cap, answer yes", DEEP_CONST, 0, 3, true, true },
	{ "deep constant within the cap", DEEP_CONST, 0, 10, true, false },
	{ "no expression", NULL_EXPR, SM_WALK_IVS, 100, true, false },
};

START_TEST(test_rows)
{
	const struct row *r = &rows[_i];
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_expr_walk w = { is_tid, NULL, r->edges, r->max_depth, r->deep_answer };
	bool got = sm_expr_any(make(&b, r->shape), &w);
	ck_assert_msg(got == r->want, "%s: got %d, want %d", r->what, got, r->want);
	sm_irb_release(&b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("visit");
	TCase *tc = tcase_create("rows");
	tcase_add_loop_test(tc, test_rows, 0, (int)(sizeof(rows) / sizeof(rows[0])));
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
