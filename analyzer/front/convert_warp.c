/* convert_warp.c - warp and tile collectives: values alike in each run
 * of a tile's threads.
 *
 * A tile's collective (cg::reduce, any, all, ballot, a shuffle from one
 * constant lane) and the warp intrinsics with a full mask (__reduce_*_sync,
 * __all_sync, __any_sync, __ballot_sync, __uni_sync, __shfl_sync from a
 * constant lane) give every thread of the tile one value: a per-thread
 * unknown with a span (ir.h). Its input (the value reduced, voted or
 * shuffled) is kept as the place of that unknown (array and base NULL,
 * idx[0] the input): resolved, an input alike in every thread makes the
 * result alike in every thread, and an input that repeats from tile to
 * tile (buf[lane] read by every warp) makes it alike in every tile
 * (uniform.c).
 *
 * A butterfly reduction,
 *     for (int o = W/2; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffff, x, o, W);
 * (or x = x + ..., x = fmaxf(x, ...), x = max(...), x = ... && x, with *,
 * &, |, ^, || too): at each step two partner lanes combine the same two
 * values with an operation that commutes exactly (IEEE + and max do), so
 * after the loop every lane of each aligned run of 2 * (W/2) lanes holds
 * the same x. The loop is converted as written; x then gets such a
 * collective's value, its input x as the loop found it.
 */
#include "front/convert.h"

#include <string.h>

struct sm_expr *cv_tile_value(struct fe *S, const struct cv_call *k, int64_t span, int input)
{
	/* the arguments, as any call's (a struct in shared memory is read) */
	struct sm_expr *in = NULL;
	for (int i = 0; i < k->nargs; i++) {
		CXCursor ai = cv_strip(k->args[i]);
		if (clang_getCanonicalType(clang_getCursorType(ai)).kind == CXType_Record && cv_is_shared_lvalue(S, ai)) {
			(void)cv_emit_access(S, ai, SM_ACC_LOAD);
			continue;
		}
		struct sm_expr *x = cv_conv_expr(S, k->args[i]);
		if (i == input)
			in = x;
	}
	cv_emit(S, cv_mk_stmt(S, SM_S_OPAQUE_CALL, k->c));
	bool tile = span > 1 && span <= SM_MAX_BLOCK_THREADS;
	struct sm_expr *e = tile && in ? cv_load_at(S, k->c, NULL, in, k->name) : cv_opaque(S, k->c, k->name, 1);
	if (e && tile)
		e->span = (unsigned)span;
	return e;
}

/* Is a warp intrinsic's mask argument 0xffffffff (every lane)? */
static bool full_mask(const struct cv_call *k)
{
	int64_t m;
	return k->nargs >= 1 && cv_try_eval_int(k->args[0], &m) && ((uint64_t)m & 0xffffffffu) == 0xffffffffu;
}

struct sm_expr *cv_conv_shfl_sync(struct fe *S, const struct cv_call *k)
{
	int64_t lane, width = SM_WARP;
	if (!full_mask(k) || k->nargs < 3 || !cv_try_eval_int(k->args[2], &lane) ||
	    (k->nargs >= 4 && !cv_try_eval_int(k->args[3], &width)) || width < 2 || width > SM_WARP ||
	    (width & (width - 1)))
		return cv_tile_value(S, k, 1, -1); /* a value per thread */
	return cv_tile_value(S, k, width, 1);
}

struct sm_expr *cv_conv_warp_collective(struct fe *S, const struct cv_call *k)
{
	return cv_tile_value(S, k, full_mask(k) ? SM_WARP : 1, 1);
}

/* ---- butterfly reductions ---- */

static bool toks_are(const struct toks *t, unsigned from, unsigned to, const char *const *want, unsigned n)
{
	if (to - from != n)
		return false;
	for (unsigned i = 0; i < n; i++)
		if (want[i] && strcmp(t->s[from + i], want[i]))
			return false;
	return true;
}

/* The tokens of c without a trailing ';'. */
static struct toks toks_nosemi(struct fe *S, CXCursor c)
{
	struct toks t = cv_tokens_of(S, c);
	if (t.n && !strcmp(t.s[t.n - 1], ";"))
		t.n--;
	return t;
}

static enum CXChildVisitResult find_xor(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	if (clang_getCursorKind(c) == CXCursor_CallExpr) {
		CXString n = clang_getCursorSpelling(c);
		bool hit = !strcmp(clang_getCString(n), "__shfl_xor_sync");
		clang_disposeString(n);
		if (hit) {
			*(CXCursor *)d = c;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

static int64_t butterfly_span(struct fe *S, CXCursor init, CXCursor cond, CXCursor inc, CXCursor body,
			      CXCursor *xdecl, struct sm_var **xv)
{
	if (clang_Cursor_isNull(init) || clang_Cursor_isNull(cond) || clang_Cursor_isNull(inc))
		return 0;
	/* the body: one statement x op= ... with one __shfl_xor_sync(M, x, o[, W]) */
	if (clang_getCursorKind(body) == CXCursor_CompoundStmt) {
		struct kids bk = cv_kids_of(body);
		if (bk.n != 1)
			return 0;
		body = bk.c[0];
	}
	enum CXCursorKind bk = clang_getCursorKind(body);
	if (bk != CXCursor_BinaryOperator && bk != CXCursor_CompoundAssignOperator)
		return 0; /* no tokens asked of a loop that is no butterfly */
	CXCursor call = clang_getNullCursor();
	clang_visitChildren(body, find_xor, &call);
	if (clang_Cursor_isNull(call))
		return 0;
	/* the offset: `int o = I` or `o = I` */
	struct toks ti = toks_nosemi(S, init);
	unsigned eq = 0;
	while (eq < ti.n && strcmp(ti.s[eq], "="))
		eq++;
	if (eq == 0 || eq >= ti.n)
		return 0;
	const char *o = ti.s[eq - 1];
	struct kids ik = cv_kids_of(init);
	CXCursor iv = ik.n ? ik.c[ik.n - 1] : clang_getNullCursor();
	if (clang_getCursorKind(init) == CXCursor_DeclStmt && ik.n == 1) {
		struct kids vk = cv_kids_of(ik.c[0]);
		iv = vk.n ? vk.c[vk.n - 1] : clang_getNullCursor();
	}
	int64_t I;
	if (clang_Cursor_isNull(iv) || !cv_try_eval_int(iv, &I) || I < 1 || I > SM_WARP / 2 || (I & (I - 1)))
		return 0;
	/* o > 0, o >= 1, o != 0; o >>= 1, o /= 2, o = o >> 1, o = o / 2 */
	struct toks tc = cv_tokens_of(S, cond), tn = toks_nosemi(S, inc);
	const char *c1[] = { o, ">", "0" }, *c2[] = { o, ">=", "1" }, *c3[] = { o, "!=", "0" };
	const char *n1[] = { o, ">>=", "1" }, *n2[] = { o, "/=", "2" }, *n3[] = { o, "=", o, ">>", "1" },
		   *n4[] = { o, "=", o, "/", "2" };
	if (!toks_are(&tc, 0, tc.n, c1, 3) && !toks_are(&tc, 0, tc.n, c2, 3) && !toks_are(&tc, 0, tc.n, c3, 3))
		return 0;
	if (!toks_are(&tn, 0, tn.n, n1, 3) && !toks_are(&tn, 0, tn.n, n2, 3) && !toks_are(&tn, 0, tn.n, n3, 5) &&
	    !toks_are(&tn, 0, tn.n, n4, 5))
		return 0;
	int na = clang_Cursor_isNull(call) ? 0 : clang_Cursor_getNumArguments(call);
	if (na != 3 && na != 4)
		return 0;
	int64_t mask, W = SM_WARP;
	if (!cv_try_eval_int(clang_Cursor_getArgument(call, 0), &mask) || (mask & 0xffffffff) != 0xffffffff ||
	    (na == 4 && !cv_try_eval_int(clang_Cursor_getArgument(call, 3), &W)) || W > SM_WARP || W < 2 * I ||
	    (W & (W - 1)))
		return 0;
	struct toks tb = toks_nosemi(S, body), tx = cv_tokens_of(S, clang_Cursor_getArgument(call, 1)),
		    to = cv_tokens_of(S, clang_Cursor_getArgument(call, 2)), tk = cv_tokens_of(S, call);
	if (tb.n < 3 || tx.n != 1 || to.n != 1 || strcmp(to.s[0], o) || tk.n < 4)
		return 0;
	const char *x = tx.s[0];
	/* where the call's tokens sit in the statement's */
	unsigned at = 0;
	while (at < tb.n && !(tb.pos[at].line == tk.pos[0].line && tb.pos[at].col == tk.pos[0].col))
		at++;
	if (at + tk.n > tb.n || strcmp(tb.s[0], x))
		return 0;
	unsigned end = at + tk.n;
	static const char *const ops[] = { "+", "*", "&", "|", "^", "&&", "||" };
	static const char *const fns[] = { "fmaxf", "fminf", "fmax", "fmin", "max", "min" };
	bool ok = false;
	for (unsigned i = 0; i < sizeof(ops) / sizeof(ops[0]) && !ok; i++) {
		char cop[3] = { ops[i][0], '=', 0 };
		const char *lhs_op[] = { x, ops[i] }, *op_rhs[] = { ops[i], x };
		ok = (!ops[i][1] && !strcmp(tb.s[1], cop) && at == 2 && end == tb.n) ||
		     (!strcmp(tb.s[1], "=") && at == 4 && end == tb.n && toks_are(&tb, 2, 4, lhs_op, 2)) ||
		     (!strcmp(tb.s[1], "=") && at == 2 && end + 2 == tb.n && toks_are(&tb, end, tb.n, op_rhs, 2));
	}
	for (unsigned i = 0; i < sizeof(fns) / sizeof(fns[0]) && !ok; i++) {
		const char *pre_x[] = { "=", fns[i], "(", x, "," }, *pre_c[] = { "=", fns[i], "(" },
			   *post_x[] = { ",", x, ")" };
		ok = (at == 6 && end + 1 == tb.n && toks_are(&tb, 1, 6, pre_x, 5) && !strcmp(tb.s[end], ")")) ||
		     (at == 4 && end + 3 == tb.n && toks_are(&tb, 1, 4, pre_c, 3) && toks_are(&tb, end, tb.n, post_x, 3));
	}
	if (!ok)
		return 0;
	CXCursor xr = cv_strip(clang_Cursor_getArgument(call, 1));
	if (clang_getCursorKind(xr) != CXCursor_DeclRefExpr)
		return 0;
	*xdecl = clang_getCursorReferenced(xr);
	struct sm_var *v = cv_cmap_get(&S->vars, *xdecl);
	if (!v || v->is_ref)
		return 0;
	*xv = v;
	return 2 * I;
}


/* A variable of the kernel that no declaration names. */
static struct sm_var *new_var(struct fe *S, const char *name)
{
	struct sm_var *v = sm_arena_alloc(S->A, sizeof(*v));
	if (!v)
		return NULL;
	v->name = name;
	v->kind = SM_V_LOCAL;
	v->id = S->kvars.n;
	cv_vec_push(S->A, &S->kvars, v);
	return v;
}

/* A loop's verdict, kept per cursor: the span and the variable's
 * declaration (its sm_var is the current inlining's). */
struct butterfly {
	int64_t span;
	CXCursor xdecl;
};

void cv_butterfly_loop(struct fe *S, CXCursor c, CXCursor init, CXCursor cond, CXCursor inc, CXCursor body)
{
	struct butterfly *b = cv_cmap_get(&S->butterflies, c);
	if (!b && (b = sm_arena_alloc(S->FA, sizeof(*b))) != NULL) {
		struct sm_var *v = NULL;
		b->span = butterfly_span(S, init, cond, inc, body, &b->xdecl, &v);
		(void)cv_cmap_put(&S->butterflies, c, b);
	}
	struct sm_var *x = b && b->span > 1 ? cv_cmap_get(&S->vars, b->xdecl) : NULL;
	int64_t span = x && !x->is_ref ? b->span : 0;
	struct vec *blk = S->block;
	if (span < 2 || !blk || !blk->n)
		return;
	/* x as the loop finds it: assigned to a variable of its own just
	 * before the loop (the last statement emitted) */
	struct sm_var *in = new_var(S, x->name);
	struct sm_stmt *pre = in ? cv_mk_stmt(S, SM_S_ASSIGN, c) : NULL;
	struct sm_stmt *a = cv_mk_stmt(S, SM_S_ASSIGN, c);
	struct sm_access *pl = sm_arena_alloc(S->A, sizeof(*pl));
	struct sm_expr *val = cv_opaque(S, c, "__shfl_xor_sync", 1);
	if (!pre || !a || !pl || !val)
		return;
	pre->var = in;
	pre->op = SM_OP_ASSIGN;
	pre->value = cv_var_ref(S, c, x);
	void *loop = blk->v[blk->n - 1];
	blk->v[blk->n - 1] = pre;
	cv_vec_push(S->A, blk, loop);
	pl->kind = SM_ACC_LOAD;
	pl->idx[0] = cv_var_ref(S, c, in);
	pl->nidx = 1;
	val->place = pl;
	val->span = (unsigned)span;
	a->var = x;
	a->op = SM_OP_ASSIGN;
	a->value = val;
	cv_emit(S, a);
	cv_var_takes(x, val);
}
