/* ir_builder.h - the IR fixtures of the unit tests, built by hand: one
 * kernel under construction with its own arena, and the expressions,
 * variables, arrays, statements and accesses the tests put in it.
 *
 * Test code only (tests/test_*.c): it compiles as the engine stage
 * (SM_STAGE=3) and links nothing but sm_engine, so the fixtures never need
 * libclang. Every node is zeroed before its fields are set; expressions are
 * 64 bits wide (no wrapping). The short names at the end let a fixture read
 * like the kernel it stands for:
 *
 *	struct sm_irb b;
 *	sm_irb_init(&b);
 *	struct sm_stmt *body = blk(&b, 2, acc(&b, SM_ACC_STORE, tid(&b)),
 *				   acc(&b, SM_ACC_LOAD, OP(&b, SM_OP_SUB, K(&b, 127), tid(&b))));
 *	...
 *	sm_irb_release(&b);
 */
#ifndef SMEMLINT_TESTS_IR_BUILDER_H
#define SMEMLINT_TESTS_IR_BUILDER_H

#include <stdint.h>

#include "engine/analysis.h"

#define SM_IRB_MAX_VARS 16

/* One kernel under construction. */
struct sm_irb {
	struct sm_arena A;                       /* every node of the fixture */
	struct sm_kernel k;                      /* the kernel "k" (vars, accesses, body) */
	struct sm_var *vars[SM_IRB_MAX_VARS];    /* k.vars */
	struct sm_array *s;                      /* what sm_irb_access addresses: float s[1024] */
};

/* An empty kernel "k" with the array s; sm_irb_release frees it all. */
void sm_irb_init(struct sm_irb *b);
void sm_irb_release(struct sm_irb *b);

/* ---- expressions ---- */
struct sm_expr *sm_irb_const(struct sm_irb *b, int64_t v);
/* threadIdx, blockIdx, ... (which) in dimension dim (0 = x) */
struct sm_expr *sm_irb_builtin(struct sm_irb *b, enum sm_builtin which, int dim);
/* the value of variable v */
struct sm_expr *sm_irb_ref(struct sm_irb *b, struct sm_var *v);
struct sm_expr *sm_irb_op(struct sm_irb *b, enum sm_op op, struct sm_expr *x, struct sm_expr *y);

/* ---- declarations ---- */
/* a variable of the kernel, numbered in order (at most SM_IRB_MAX_VARS) */
struct sm_var *sm_irb_var(struct sm_irb *b, const char *name, enum sm_var_kind kind);
/* a shared array "s" of elem_type (elem_size bytes): [d0], or [d0][d1]
 * when d1 is not 0 */
struct sm_array *sm_irb_array(struct sm_irb *b, const char *elem_type, unsigned elem_size, int64_t d0,
			      int64_t d1);

/* ---- statements ---- */
struct sm_stmt *sm_irb_stmt(struct sm_irb *b, enum sm_stmt_kind kind);
/* { kids... }: n statements follow */
struct sm_stmt *sm_irb_block(struct sm_irb *b, int n, ...);
struct sm_stmt *sm_irb_decl(struct sm_irb *b, struct sm_var *v, struct sm_expr *val);
struct sm_stmt *sm_irb_assign(struct sm_irb *b, struct sm_var *v, enum sm_op op, struct sm_expr *val);
/* if (c) th else el (el may be NULL) */
struct sm_stmt *sm_irb_if(struct sm_irb *b, struct sm_expr *c, struct sm_stmt *th, struct sm_stmt *el);
/* for (v = 0; v < n; v += 1) body */
struct sm_stmt *sm_irb_loop(struct sm_irb *b, struct sm_var *v, struct sm_expr *n, struct sm_stmt *body);
/* a 4-byte access s[idx]; sm_irb_resolve numbers it */
struct sm_stmt *sm_irb_access(struct sm_irb *b, enum sm_access_kind kind, struct sm_expr *idx);
struct sm_stmt *sm_irb_barrier(struct sm_irb *b, enum sm_barrier_kind kind);
/* A barrier of the given scope (ir.h enum sm_scope). */
struct sm_stmt *sm_irb_scoped(struct sm_irb *b, enum sm_barrier_kind kind, enum sm_scope scope, int64_t arg);

/* Make body the kernel's, number its accesses in program order (access i
 * on line 10 + i) and resolve it into *m; a failure fails the test. */
void sm_irb_resolve(struct sm_irb *b, struct sm_stmt *body, struct sm_kernel_model *m);
/* The launch contexts of k (engine/launch.h): its launches' sites, and
 * the one block shape given (as --block-dim would), or none when shape is
 * NULL (every divergence cause then splits a group). */
const struct sm_kernel_launches *sm_irb_launches(struct sm_irb *b, const struct sm_dim3 *shape);

/* ---- short names for test bodies ---- */
#define K(b, v) sm_irb_const(b, v)
#define BI(b, which) sm_irb_builtin(b, which, 0)
#define T(b, dim) sm_irb_builtin(b, SM_B_TID, dim)
#define tid(b) sm_irb_builtin(b, SM_B_TID, 0)
#define V(b, v) sm_irb_ref(b, v)
#define OP(b, op, x, y) sm_irb_op(b, op, x, y)
#define var(b, name, kind) sm_irb_var(b, name, kind)
#define st(b, kind) sm_irb_stmt(b, kind)
#define blk(b, ...) sm_irb_block(b, __VA_ARGS__)
#define decl(b, v, val) sm_irb_decl(b, v, val)
#define assign(b, v, op, val) sm_irb_assign(b, v, op, val)
#define iff(b, c, th, el) sm_irb_if(b, c, th, el)
#define loop(b, v, n, body) sm_irb_loop(b, v, n, body)
#define acc(b, kind, idx) sm_irb_access(b, kind, idx)
#define bar(b, kind) sm_irb_barrier(b, kind)
#define scoped(b, kind, sc, arg) sm_irb_scoped(b, kind, sc, arg)

#endif
