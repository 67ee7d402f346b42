/* ir_builder.c - hand-built IR for the unit tests (see ir_builder.h).
 * Each builder allocates its node in the fixture's arena (zeroed) and sets
 * only the fields that node kind uses; nothing here decides what a test
 * expects. */
#include "ir_builder.h"

#include <check.h>
#include <stdarg.h>
#include <string.h>

void sm_irb_init(struct sm_irb *b)
{
	memset(b, 0, sizeof(*b));
	sm_arena_init(&b->A, 0);
	b->k.name = "k";
	b->k.vars = b->vars;
	b->s = sm_irb_array(b, "float", 4, 1024, 0);
}

void sm_irb_release(struct sm_irb *b)
{
	sm_arena_release(&b->A);
}

static struct sm_expr *expr(struct sm_irb *b, enum sm_expr_kind kind)
{
	struct sm_expr *e = sm_arena_alloc(&b->A, sizeof(*e));
	e->kind = kind;
	e->bits = 64;
	return e;
}

struct sm_expr *sm_irb_const(struct sm_irb *b, int64_t v)
{
	struct sm_expr *e = expr(b, SM_E_CONST);
	e->ival = v;
	return e;
}

struct sm_expr *sm_irb_builtin(struct sm_irb *b, enum sm_builtin which, int dim)
{
	struct sm_expr *e = expr(b, SM_E_BUILTIN);
	e->builtin = which;
	e->dim = dim;
	return e;
}

struct sm_expr *sm_irb_ref(struct sm_irb *b, struct sm_var *v)
{
	struct sm_expr *e = expr(b, SM_E_VAR);
	e->var = v;
	return e;
}

struct sm_expr *sm_irb_op(struct sm_irb *b, enum sm_op op, struct sm_expr *x, struct sm_expr *y)
{
	struct sm_expr *e = expr(b, SM_E_BINARY);
	e->op = op;
	e->a = x;
	e->b = y;
	return e;
}

struct sm_var *sm_irb_var(struct sm_irb *b, const char *name, enum sm_var_kind kind)
{
	ck_assert_uint_lt(b->k.nvars, SM_IRB_MAX_VARS);
	struct sm_var *v = sm_arena_alloc(&b->A, sizeof(*v));
	v->name = name;
	v->kind = kind;
	v->id = b->k.nvars;
	b->vars[b->k.nvars++] = v;
	return v;
}

struct sm_array *sm_irb_array(struct sm_irb *b, const char *elem_type, unsigned elem_size, int64_t d0,
			      int64_t d1)
{
	struct sm_array *a = sm_arena_alloc(&b->A, sizeof(*a));
	a->name = "s";
	a->elem_type = elem_type;
	a->elem_size = elem_size;
	a->ndims = d1 ? 2 : 1;
	a->dims[0] = d0;
	a->dims[1] = d1;
	return a;
}

struct sm_stmt *sm_irb_stmt(struct sm_irb *b, enum sm_stmt_kind kind)
{
	struct sm_stmt *s = sm_arena_alloc(&b->A, sizeof(*s));
	s->kind = kind;
	return s;
}

/* s with n children, all NULL */
static struct sm_stmt *parent(struct sm_irb *b, enum sm_stmt_kind kind, int n)
{
	struct sm_stmt *s = sm_irb_stmt(b, kind);
	s->kids = sm_arena_alloc(&b->A, (size_t)(n + 1) * sizeof(*s->kids));
	s->nkids = n;
	return s;
}

struct sm_stmt *sm_irb_block(struct sm_irb *b, int n, ...)
{
	struct sm_stmt *s = parent(b, SM_S_BLOCK, n);
	va_list ap;
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		s->kids[i] = va_arg(ap, struct sm_stmt *);
	va_end(ap);
	return s;
}

struct sm_stmt *sm_irb_decl(struct sm_irb *b, struct sm_var *v, struct sm_expr *val)
{
	struct sm_stmt *s = sm_irb_stmt(b, SM_S_DECL);
	s->var = v;
	s->value = val;
	return s;
}

struct sm_stmt *sm_irb_assign(struct sm_irb *b, struct sm_var *v, enum sm_op op, struct sm_expr *val)
{
	struct sm_stmt *s = sm_irb_stmt(b, SM_S_ASSIGN);
	s->var = v;
	s->op = op;
	s->value = val;
	return s;
}

struct sm_stmt *sm_irb_if(struct sm_irb *b, struct sm_expr *c, struct sm_stmt *th, struct sm_stmt *el)
{
	struct sm_stmt *s = parent(b, SM_S_IF, 2);
	s->cond = c;
	s->kids[0] = th;
	s->kids[1] = el;
	return s;
}

struct sm_stmt *sm_irb_loop(struct sm_irb *b, struct sm_var *v, struct sm_expr *n, struct sm_stmt *body)
{
	struct sm_stmt *s = parent(b, SM_S_LOOP, 3);
	s->cond = sm_irb_op(b, SM_OP_LT, sm_irb_ref(b, v), n);
	s->kids[0] = sm_irb_decl(b, v, sm_irb_const(b, 0));
	s->kids[1] = body;
	s->kids[2] = sm_irb_assign(b, v, SM_OP_ADD, sm_irb_const(b, 1));
	return s;
}

struct sm_stmt *sm_irb_access(struct sm_irb *b, enum sm_access_kind kind, struct sm_expr *idx)
{
	struct sm_access *a = sm_arena_alloc(&b->A, sizeof(*a));
	a->kind = kind;
	a->array = b->s;
	a->nidx = 1;
	a->idx[0] = idx;
	a->width = 4;
	b->k.naccesses++; /* numbered in program order by sm_irb_resolve */
	struct sm_stmt *s = sm_irb_stmt(b, SM_S_ACCESS);
	s->access = a;
	return s;
}

struct sm_stmt *sm_irb_barrier(struct sm_irb *b, enum sm_barrier_kind kind)
{
	struct sm_stmt *s = sm_irb_stmt(b, SM_S_BARRIER);
	s->barrier = kind;
	if (kind == SM_BAR_SYNCWARP) {
		s->scope = SM_SCOPE_LANES; /* __syncwarp(): every lane */
		s->scope_arg = 0xffffffffLL;
	}
	return s;
}

struct sm_stmt *sm_irb_scoped(struct sm_irb *b, enum sm_barrier_kind kind, enum sm_scope scope, int64_t arg)
{
	struct sm_stmt *s = sm_irb_barrier(b, kind);
	s->scope = scope;
	s->scope_arg = arg;
	return s;
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

void sm_irb_resolve(struct sm_irb *b, struct sm_stmt *body, struct sm_kernel_model *m)
{
	unsigned next = 0;
	number(body, &next);
	ck_assert_uint_eq(next, b->k.naccesses);
	b->k.body = body;
	ck_assert_int_eq(sm_resolve_kernel(&b->k, &b->A, m), 0);
}

const struct sm_kernel_launches *sm_irb_launches(struct sm_irb *b, const struct sm_dim3 *shape)
{
	struct sm_kernel_launches *L = sm_arena_alloc(&b->A, sizeof(*L));
	ck_assert_ptr_nonnull(L);
	struct sm_analysis_options opt;
	memset(&opt, 0, sizeof(opt));
	if (shape) {
		opt.has_block = true;
		opt.block = *shape;
	}
	ck_assert_int_eq(sm_kernel_launches_init(L, &b->k, &opt, &b->A), 0);
	if (!shape)
		L->nshapes = 0;
	return L;
}
