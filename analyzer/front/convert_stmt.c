/* convert_stmt.c - statements: libclang statements to the sm_stmt tree.
 *
 * Blocks, declarations, if, switch, return, break, continue and goto map
 * one to one; a local declaration is a DECL with its converted
 * initializer (a reference bound to a shared location, `uint &x = s[i]`,
 * becomes a reference into shared memory), and a helper's own __shared__
 * array is added to the kernel once. Loops become LOOP with three kids
 * (init, body, step): the parts of a for header are told apart by where
 * its two ';' are, and the accesses in a loop condition, which run on
 * every iteration, are put at the top of the body (at the end of it for
 * do-while), except in a spin-wait (an empty body and a condition that
 * waits on an mbarrier), which is its condition, run once: the wait; a
 * range-for is a LOOP too (conv_range_for). Inline asm that
 * names bar.sync / barrier.* is a barrier; other inline asm assigns its
 * outputs (asm_outputs). An if whose condition clang computes at compile
 * time keeps that constant as its condition. Expression statements are converted for their effects (convert_expr.c);
 * any other statement wrapper (#pragma unroll's AttributedStmt) is walked
 * in order.
 */
#include "front/convert.h"
#include "base/stack.h"

#include <string.h>

static int pos_lt(struct sm_pos a, struct sm_pos b)
{
	return a.line < b.line || (a.line == b.line && a.col < b.col);
}

static struct sm_stmt *conv_stmt(struct fe *S, CXCursor c)
{
	struct vec body = { 0 };
	struct vec *saved = S->block;
	S->block = &body;
	cv_conv_stmt_into(S, c);
	S->block = saved;
	if (body.n == 1)
		return body.v[0];
	struct sm_stmt *b = cv_mk_stmt(S, SM_S_BLOCK, c);
	if (b) {
		b->kids = (struct sm_stmt **)body.v;
		b->nkids = (int)body.n;
	}
	return b;
}

static enum CXChildVisitResult block_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	cv_conv_stmt_into(d, c);
	return CXChildVisit_Continue;
}

struct sm_stmt *cv_conv_block(struct fe *S, CXCursor c)
{
	struct vec body = { 0 };
	struct vec *saved = S->block;
	S->block = &body;
	clang_visitChildren(c, block_visit, S);
	S->block = saved;
	struct sm_stmt *b = cv_mk_stmt(S, SM_S_BLOCK, c);
	if (b) {
		b->kids = (struct sm_stmt **)body.v;
		b->nkids = (int)body.n;
	}
	return b;
}

static struct sm_stmt **kids2(struct fe *S, struct sm_stmt *a, struct sm_stmt *b, struct sm_stmt *c)
{
	struct sm_stmt **k = sm_arena_alloc(S->A, 3 * sizeof(*k));
	if (k) {
		k[0] = a;
		k[1] = b;
		k[2] = c;
	}
	return k;
}

/* The condition of if/while: converted into the current block (its
 * accesses happen before the branch). */
static void conv_for(struct fe *S, CXCursor c)
{
	struct kids ks = cv_kids_of(c);
	if (ks.n < 1 || ks.n > 8)
		return;
	CXCursor body = ks.c[ks.n - 1];
	/* find the two ';' of the header to classify init/cond/inc */
	struct toks t = cv_tokens_of(S, c);
	struct sm_pos semi[2] = { { 0, 0 }, { 0, 0 } };
	int ns = 0, depth = 0;
	for (unsigned i = 0; i < t.n && ns < 2; i++) {
		if (!strcmp(t.s[i], "(")) depth++;
		else if (!strcmp(t.s[i], ")")) depth--;
		else if (!strcmp(t.s[i], ";") && depth == 1) semi[ns++] = t.pos[i];
	}
	CXCursor init = clang_getNullCursor(), cond = clang_getNullCursor(), inc = clang_getNullCursor();
	for (int i = 0; i < ks.n - 1; i++) {
		struct sm_range r = cv_range_of(S, ks.c[i]);
		if (ns == 2 && pos_lt(r.begin, semi[0]))
			init = ks.c[i];
		else if (ns == 2 && pos_lt(r.begin, semi[1]))
			cond = ks.c[i];
		else
			inc = ks.c[i];
	}
	struct sm_stmt *loop = cv_mk_stmt(S, SM_S_LOOP, c);
	if (!loop)
		return;
	struct sm_stmt *sinit = NULL, *sbody, *sstep = NULL;
	if (!clang_Cursor_isNull(init))
		sinit = conv_stmt(S, init);
	struct cv_async_loop back;
	cv_async_loop_begin(S, &back);
	/* accesses in the condition run every iteration: put them at the top
	 * of the body as well */
	struct vec condv = { 0 };
	struct vec *saved = S->block;
	S->block = &condv;
	if (!clang_Cursor_isNull(cond))
		loop->cond = cv_conv_expr(S, cond);
	S->block = saved;
	sbody = clang_getCursorKind(body) == CXCursor_CompoundStmt ? cv_conv_block(S, body) : conv_stmt(S, body);
	if (condv.n && sbody) {
		struct sm_stmt *nb = cv_mk_stmt(S, SM_S_BLOCK, body);
		struct vec all = { 0 };
		for (unsigned i = 0; i < condv.n; i++)
			cv_vec_push(S->A, &all, condv.v[i]);
		cv_vec_push(S->A, &all, sbody);
		if (nb) {
			nb->kids = (struct sm_stmt **)all.v;
			nb->nkids = (int)all.n;
			sbody = nb;
		}
	}
	if (!clang_Cursor_isNull(inc))
		sstep = conv_stmt(S, inc);
	cv_async_loop_end(S, &back, sbody, sstep);
	loop->kids = kids2(S, sinit, sbody, sstep);
	loop->nkids = 3;
	cv_emit(S, loop);
	cv_butterfly_loop(S, c, init, cond, inc, body); /* a warp's reduction: x alike in the warp after it */
}

/* for (T x : range) body: a loop the model does not count, whose
 * variable takes the range's elements in turn. Each element is "a load
 * from the range": its place is the range (the sum of an initializer
 * list's elements, or the range expression), so every thread reads the
 * same element when the range is the same in every thread (for (int st :
 * {32, 16, 8}) ... continue;). An initializer list has a fixed length,
 * so its loop runs alike in every thread whatever its elements; another
 * range ends where its place says. */
static void conv_range_for(struct fe *S, CXCursor c)
{
	struct kids ks = cv_kids_of(c);
	if (ks.n < 2 || ks.n > 8)
		return;
	CXCursor var = clang_getNullCursor(), range = clang_getNullCursor();
	for (int i = 0; i < ks.n - 1; i++) {
		enum CXCursorKind k = clang_getCursorKind(ks.c[i]);
		if (k == CXCursor_VarDecl && clang_Cursor_isNull(var))
			var = ks.c[i];
		else if (clang_isExpression(k))
			range = ks.c[i];
	}
	/* the range is evaluated once, before the first iteration */
	struct sm_expr *of = NULL;
	if (!clang_Cursor_isNull(range) && clang_getCursorKind(range) == CXCursor_InitListExpr) {
		unsigned ne;
		CXCursor **el = cv_kids_all(S, range, &ne);
		for (unsigned i = 0; el && i < ne; i++) {
			struct sm_expr *x = cv_conv_expr(S, *el[i]);
			of = of ? cv_mk_bin(S, SM_OP_ADD, of, x, *el[i]) : x;
		}
	} else if (!clang_Cursor_isNull(range)) {
		of = cv_conv_expr(S, range);
	}
	struct sm_stmt *loop = cv_mk_stmt(S, SM_S_LOOP, c);
	struct sm_access *pl = sm_arena_alloc(S->A, sizeof(*pl));
	bool fixed = !clang_Cursor_isNull(range) && clang_getCursorKind(range) == CXCursor_InitListExpr;
	struct sm_expr *more = cv_opaque(S, clang_Cursor_isNull(range) ? c : range, "the range's end", !fixed);
	struct sm_expr *elem = cv_opaque(S, c, "range element", 1);
	if (!loop || !pl || !more || !elem)
		return;
	pl->kind = SM_ACC_LOAD;
	pl->base = cv_mk_const(S, 0);
	pl->idx[0] = of ? of : cv_opaque(S, c, "range", 1);
	pl->nidx = 1;
	more->place = fixed ? NULL : pl;
	elem->place = pl;
	loop->cond = more;
	struct vec body = { 0 };
	struct vec *saved = S->block;
	S->block = &body;
	struct sm_var *v = clang_Cursor_isNull(var) ? NULL : cv_make_var(S, var, SM_V_LOCAL);
	struct sm_stmt *d = v ? cv_mk_stmt(S, SM_S_DECL, var) : NULL;
	if (d) {
		enum CXTypeKind vk = clang_getCanonicalType(clang_getCursorType(var)).kind;
		d->var = v;
		/* a reference or a struct element: not modelled */
		d->value = vk == CXType_LValueReference || vk == CXType_RValueReference || vk == CXType_Record ? NULL : elem;
		cv_emit(S, d);
	}
	struct cv_async_loop back;
	cv_async_loop_begin(S, &back);
	cv_conv_stmt_into(S, ks.c[ks.n - 1]);
	S->block = saved;
	struct sm_stmt *b = cv_mk_stmt(S, SM_S_BLOCK, c);
	if (b) {
		b->kids = (struct sm_stmt **)body.v;
		b->nkids = (int)body.n;
	}
	cv_async_loop_end(S, &back, b, NULL);
	if (!b)
		return;
	loop->kids = kids2(S, NULL, b, NULL);
	loop->nkids = 3;
	cv_emit(S, loop);
}

/* Does a statement do nothing (no statement, or blocks of nothing)? */
static bool empty_stmt(const struct sm_stmt *s, int depth)
{
	if (!s)
		return true;
	if (s->kind != SM_S_BLOCK || depth > 8)
		return false;
	for (int i = 0; i < s->nkids; i++)
		if (!empty_stmt(s->kids[i], depth + 1))
			return false;
	return true;
}

/* A spin-wait: a loop with an empty body whose condition waits on an
 * mbarrier (cuda::ptx::mbarrier_try_wait[_parity], convert_ptx.c). */
static bool spin_wait(const struct vec *condv, const struct sm_stmt *body)
{
	bool wait = false;
	for (unsigned i = 0; i < condv->n; i++) {
		const struct sm_stmt *s = condv->v[i];
		wait |= s && s->kind == SM_S_BARRIER && s->barrier == SM_BAR_MBARRIER;
	}
	return wait && empty_stmt(body, 0);
}

static void conv_while(struct fe *S, CXCursor c, int is_do)
{
	struct kids ks = cv_kids_of(c);
	if (ks.n != 2)
		return;
	CXCursor cond = is_do ? ks.c[1] : ks.c[0];
	CXCursor body = is_do ? ks.c[0] : ks.c[1];
	struct sm_stmt *loop = cv_mk_stmt(S, SM_S_LOOP, c);
	if (!loop)
		return;
	loop->is_do_while = is_do;
	struct cv_async_loop back;
	cv_async_loop_begin(S, &back);
	struct vec condv = { 0 };
	struct vec *saved = S->block;
	S->block = &condv;
	if (clang_getCursorKind(cond) == CXCursor_VarDecl) {
		cv_conv_vardecl(S, cond);
	} else {
		loop->cond = cv_conv_expr(S, cond);
	}
	S->block = saved;
	struct sm_stmt *sbody = conv_stmt(S, body);
	if (spin_wait(&condv, sbody)) {
		/* while (!mbarrier_try_wait(&bar, phase)) {}: the condition runs
		 * until it holds and nothing else runs, so the loop is its wait,
		 * done (a loop the model may skip would lose the barrier) */
		cv_async_loop_end(S, &back, NULL, NULL);
		for (unsigned i = 0; i < condv.n; i++)
			cv_emit(S, condv.v[i]);
		return;
	}
	if (condv.n) {
		struct vec all = { 0 };
		if (!is_do)
			for (unsigned i = 0; i < condv.n; i++)
				cv_vec_push(S->A, &all, condv.v[i]);
		cv_vec_push(S->A, &all, sbody);
		if (is_do)
			for (unsigned i = 0; i < condv.n; i++)
				cv_vec_push(S->A, &all, condv.v[i]);
		struct sm_stmt *nb = cv_mk_stmt(S, SM_S_BLOCK, body);
		if (nb) {
			nb->kids = (struct sm_stmt **)all.v;
			nb->nkids = (int)all.n;
			sbody = nb;
		}
	}
	cv_async_loop_end(S, &back, sbody, NULL);
	loop->kids = kids2(S, NULL, sbody, NULL);
	loop->nkids = 3;
	cv_emit(S, loop);
}

/* An asm statement that is a barrier of the whole block: bar.sync,
 * barrier.sync, bar.red, barrier.cta (1), or the wait of a cluster barrier
 * (barrier.cluster.wait, 2: the cluster's threads include the block's)
 * unless its arrive is written .relaxed in the same statement, which
 * orders no memory. 0: no barrier. */
static int asm_is_barrier(struct fe *S, CXCursor c)
{
	struct toks t = cv_asm_tokens(S, c);
	int wait = 0, relaxed = 0;
	for (unsigned i = 0; i < t.n; i++) {
		if (t.s[i][0] != '"')
			continue;
		if (strstr(t.s[i], "bar.sync") || strstr(t.s[i], "barrier.sync") || strstr(t.s[i], "bar.red") ||
		    strstr(t.s[i], "barrier.cta"))
			return 1;
		wait |= strstr(t.s[i], "barrier.cluster.wait") != NULL;
		relaxed |= strstr(t.s[i], "barrier.cluster.arrive.relaxed") != NULL;
	}
	return wait && !relaxed ? 2 : 0;
}

/* Bind v, a reference initialized with the lvalue init: a shared location
 * makes v a reference into shared memory; else the value of init. */
static struct sm_expr *bind_ref(struct fe *S, struct sm_var *v, CXCursor init)
{
	if (cv_is_shared_lvalue(S, init)) {
		struct sm_expr *a = cv_address_of(S, init);
		if (a) {
			long long sz = clang_Type_getSizeOf(clang_getCanonicalType(clang_getCursorType(init)));
			v->is_ref = true;
			v->is_pointer = true;
			v->points_shared = true;
			v->pointee_size = sz > 0 ? (unsigned)sz : 1;
			return a;
		}
	}
	return cv_conv_expr(S, init);
}

void cv_conv_vardecl(struct fe *S, CXCursor d)
{
	if (cv_has_attr(d, CXCursor_CUDASharedAttr)) {
		/* a helper's own array is one array however often it is inlined */
		struct sm_array *a = cv_array_of_decl(S, d);
		if (a) {
			for (unsigned i = 0; i < S->karrays.n; i++)
				if (S->karrays.v[i] == a)
					return;
		} else {
			a = cv_make_array(S, d, 0);
		}
		if (a)
			cv_vec_push(S->A, &S->karrays, a);
		return;
	}
	struct sm_var *v = cv_make_var(S, d, SM_V_LOCAL);
	if (!v)
		return;
	/* the initializer is the last expression child */
	struct kids ks = cv_kids_of(d);
	CXCursor init = clang_getNullCursor();
	for (int i = 0; i < ks.n && i < 8; i++)
		if (clang_isExpression(clang_getCursorKind(ks.c[i])))
			init = ks.c[i];
	struct sm_expr *val = NULL;
	CXType vt = clang_getCanonicalType(clang_getCursorType(d));
	if (!clang_Cursor_isNull(init) && vt.kind == CXType_LValueReference) {
		val = bind_ref(S, v, init); /* uint &x = s[i]; */
	} else if (!clang_Cursor_isNull(init)) {
		/* a const integer with a constant value (constexpr int n =
		 * get_nbatch(DKQ, DV), where the call's value is known at
		 * compile time): that value, alike in every thread, rather
		 * than a call the analysis would take as per-thread */
		int64_t k;
		bool integral = (vt.kind >= CXType_Bool && vt.kind <= CXType_Int128) || vt.kind == CXType_Enum;
		if (integral && clang_isConstQualifiedType(clang_getCursorType(d)) && cv_eval_int_kept(S, init, &k))
			val = cv_mk_const(S, k);
		else
			val = cv_conv_expr(S, init);
		if (vt.kind == CXType_ConstantArray)
			val = NULL; /* local arrays: not modelled (a struct: see cv_record_root) */
	}
	cv_var_takes(v, val);
	struct sm_stmt *s = cv_mk_stmt(S, SM_S_DECL, d);
	if (s) {
		s->var = v;
		s->value = val;
		cv_emit(S, s);
	}
}

static enum CXChildVisitResult decl_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	if (clang_getCursorKind(c) == CXCursor_VarDecl)
		cv_conv_vardecl(d, c);
	return CXChildVisit_Continue;
}

/* if (init; cond) then else: the condition's accesses before the IF. */
static void conv_if(struct fe *S, CXCursor c)
{
	struct kids ks = cv_kids_of(c);
	if (ks.n < 2 || ks.n > 4)
		return;
	int i = 0;
	if (ks.n == 4 || clang_getCursorKind(ks.c[0]) == CXCursor_DeclStmt ||
	    clang_getCursorKind(ks.c[0]) == CXCursor_VarDecl) {
		if (clang_getCursorKind(ks.c[0]) == CXCursor_VarDecl)
			cv_conv_vardecl(S, ks.c[0]);
		else
			cv_conv_stmt_into(S, ks.c[0]);
		i = 1;
	}
	/* if constexpr: a constant condition, alike in every thread. In an
	 * instantiation clang keeps only the branch taken (the other is not
	 * instantiated), so with the value known that branch is the code;
	 * else (a template's own body) the condition is a uniform unknown */
	struct toks head = cv_tokens_until(S, c, "(");
	if (head.n >= 2 && !strcmp(head.s[0], "if") && !strcmp(head.s[1], "constexpr")) {
		int64_t v;
		if (cv_try_eval_int(ks.c[i], &v)) {
			for (int k = i + 1; k < ks.n; k++)
				cv_conv_stmt_into(S, ks.c[k]);
			return;
		}
		struct sm_stmt *s = cv_mk_stmt(S, SM_S_IF, c);
		if (!s)
			return;
		s->cond = cv_opaque(S, ks.c[i], "if constexpr condition", 0);
		struct sm_stmt *th = i + 1 < ks.n ? conv_stmt(S, ks.c[i + 1]) : NULL;
		struct sm_stmt *el = i + 2 < ks.n ? conv_stmt(S, ks.c[i + 2]) : NULL;
		s->kids = kids2(S, th, el, NULL);
		s->nkids = 2;
		cv_emit(S, s);
		return;
	}
	struct sm_stmt *s = cv_mk_stmt(S, SM_S_IF, c);
	if (!s)
		return;
	/* a condition clang computes at compile time (a constexpr call's
	 * result: if (get_config(T).type == NONE) return;) is that constant */
	int64_t k;
	s->cond = cv_try_eval_int(ks.c[i], &k) ? cv_mk_const(S, k != 0) : cv_conv_expr(S, ks.c[i]);
	/* copies one arm waits for stay in flight where it does not run */
	struct cv_async_if F;
	cv_async_if_begin(S, &F);
	struct sm_stmt *th = i + 1 < ks.n ? conv_stmt(S, ks.c[i + 1]) : NULL;
	cv_async_if_arms(S, &F);
	struct sm_stmt *el = i + 2 < ks.n ? conv_stmt(S, ks.c[i + 2]) : NULL;
	cv_async_if_end(S, &F, s->cond);
	s->kids = kids2(S, th, el, NULL);
	s->nkids = 2;
	cv_emit(S, s);
}

static void conv_switch(struct fe *S, CXCursor c)
{
	struct kids ks = cv_kids_of(c);
	if (ks.n < 2)
		return;
	struct sm_stmt *s = cv_mk_stmt(S, SM_S_SWITCH, c);
	if (!s)
		return;
	s->cond = cv_conv_expr(S, ks.c[ks.n - 2]);
	s->kids = kids2(S, conv_stmt(S, ks.c[ks.n - 1]), NULL, NULL);
	s->nkids = 1;
	cv_emit(S, s);
}

/* return v: in an inlined callee, v is assigned to the call's value. */
static void conv_return(struct fe *S, CXCursor c)
{
	struct kids ks = cv_kids_of(c);
	struct sm_expr *v = ks.n == 1 ? cv_conv_expr(S, ks.c[0]) : NULL;
	if (v && S->ret_var) {
		struct sm_stmt *a = cv_mk_stmt(S, SM_S_ASSIGN, c);
		if (a) {
			a->var = S->ret_var;
			a->op = SM_OP_ASSIGN;
			a->value = v;
			cv_emit(S, a);
		}
		cv_var_takes(S->ret_var, v);
	}
	cv_emit(S, cv_mk_stmt(S, SM_S_RETURN, c));
}

/* What an inline asm statement (not a barrier) gives its outputs. With a
 * template that only computes on registers (bfind, prmt, cvt, ...), each
 * output is a function of the inputs (and of the outputs' own values, for
 * "+r"): alike in the threads whose inputs are, like a toolkit function
 * of values (convert_call.c pure_call). A template that reads a special
 * register (%%laneid, %%clock) or memory, or exchanges between lanes,
 * gives a per-thread unknown. Operands: clang lists the outputs first,
 * then the inputs (counted and read from clang's AST, so an asm
 * statement a macro expands is read as the one written out). */
static const char *const asm_per_thread[] = { "%%", "ld.", "st.", "shfl", "vote", "atom", "red.", "match",
					      "activemask", "tex", "suld", "sust", "cp.", "mbarrier", "ldmatrix", "ldu" };

/* Is the template, its string pieces joined and blanks dropped, the one
 * instruction `mov.{u,s,b}32 %0, %%laneid;`? The lane index within the
 * warp (linear thread id % 32, PTX's %laneid), as the toolkit's own
 * __lane_id helpers read it: the output is that builtin, not an
 * unknown (a `laneId() == 0` guard is then lane 0 of each warp). */
static bool asm_is_laneid(const struct toks *t)
{
	char buf[64];
	size_t n = 0;
	for (unsigned i = 0; i < t->n && strcmp(t->s[i], ":") && strcmp(t->s[i], "::"); i++) {
		const char *s = t->s[i];
		if (s[0] != '"')
			return false;
		for (s++; *s && *s != '"'; s++) {
			if (*s == '\\' && s[1] == 'n') {
				s++;
				continue;
			}
			if (*s == ' ' || *s == '\t')
				continue;
			if (n + 1 >= sizeof(buf))
				return false;
			buf[n++] = *s;
		}
	}
	buf[n] = 0;
	if (n && buf[n - 1] == ';')
		buf[--n] = 0;
	return !strcmp(buf, "mov.u32%0,%%laneid") || !strcmp(buf, "mov.s32%0,%%laneid") ||
	       !strcmp(buf, "mov.b32%0,%%laneid");
}

static void asm_outputs(struct fe *S, CXCursor c)
{
	struct toks t = cv_asm_tokens(S, c); /* the template, macros expanded */
	bool laneid = asm_is_laneid(&t);
	bool pure = true;
	for (unsigned i = 0; i < t.n && strcmp(t.s[i], ":") && strcmp(t.s[i], "::"); i++)
		for (size_t k = 0; t.s[i][0] == '"' && k < sizeof(asm_per_thread) / sizeof(asm_per_thread[0]); k++)
			pure = pure && !strstr(t.s[i], asm_per_thread[k]);
	unsigned nout = clang_Cursor_getGCCAssemblyNumOutputs(c);
	unsigned long long readwrite = 0; /* outputs marked "+": read as well */
	for (unsigned i = 0; i < nout && i < 64; i++) {
		CXString con;
		CXCursor e;
		if (!clang_Cursor_getGCCAssemblyOutput(c, i, &con, &e))
			continue;
		if (strchr(clang_getCString(con) ? clang_getCString(con) : "", '+'))
			readwrite |= 1ull << i;
		clang_disposeString(con);
	}
	unsigned nk;
	CXCursor **ks = cv_kids_all(S, c, &nk);
	if (!ks || nout == 0 || nout > nk)
		return;
	struct sm_expr *in = NULL;
	for (unsigned k = 0; k < nk; k++) {
		if (k < nout && !(k < 64 && (readwrite >> k & 1)))
			continue; /* a plain output is only written */
		/* a variable's value; any other operand an unknown per thread
		 * (operands are not converted: in a template's own body they
		 * may be dependent, which clang cannot evaluate) */
		bool expr = clang_isExpression(clang_getCursorKind(*ks[k]));
		CXCursor x = expr ? cv_strip(*ks[k]) : c;
		struct sm_var *xv = expr && clang_getCursorKind(x) == CXCursor_DeclRefExpr
			? cv_cmap_get(&S->vars, clang_getCursorReferenced(x)) : NULL;
		struct sm_expr *v = xv && !xv->is_ref ? cv_var_ref(S, x, xv) : cv_opaque(S, x, "asm operand", 1);
		in = in ? cv_mk_bin(S, SM_OP_ADD, in, v, x) : v;
	}
	for (unsigned k = 0; k < nout; k++) {
		struct sm_access *pl = sm_arena_alloc(S->A, sizeof(*pl));
		struct sm_expr *e = laneid && nout == 1 ? cv_mk_expr(S, SM_E_BUILTIN, c) : cv_opaque(S, c, "asm", 1);
		struct sm_expr *table = cv_opaque(S, c, "asm", 0);
		if (!pl || !e || !table)
			return;
		if (laneid && nout == 1)
			e->builtin = SM_B_LANE;
		else if (pure) {
			pl->kind = SM_ACC_LOAD;
			pl->base = table;
			pl->idx[0] = in ? in : cv_mk_const(S, 0);
			pl->nidx = 1;
			e->place = pl;
		}
		if (!clang_isExpression(clang_getCursorKind(*ks[k])))
			continue;
		CXCursor o = cv_strip(*ks[k]);
		bool whole;
		struct sm_var *rec = cv_record_root(S, o, &whole);
		struct sm_var *v = clang_getCursorKind(o) == CXCursor_DeclRefExpr
			? cv_cmap_get(&S->vars, clang_getCursorReferenced(o)) : NULL;
		if (rec && !whole) {
			cv_record_clobber(S, rec, e, c);
		} else if (v && !v->is_ref) {
			struct sm_stmt *a = cv_mk_stmt(S, SM_S_ASSIGN, c);
			if (a) {
				a->var = v;
				a->op = SM_OP_ASSIGN;
				a->value = e;
				cv_emit(S, a);
			}
		}
	}
}

static void conv_asm(struct fe *S, CXCursor c)
{
	int bar = asm_is_barrier(S, c);
	if (!bar) {
		cv_asm_async(S, c);
		asm_outputs(S, c);
		return;
	}
	struct sm_stmt *s = cv_mk_stmt(S, SM_S_BARRIER, c);
	if (s) {
		s->barrier = SM_BAR_ASM;
		s->cluster = bar == 2;
		cv_asm_scope(S, c, s);
		cv_emit_barrier(S, s);
	}
}

static void conv_stmt_kind(struct fe *S, CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	switch (k) {
	case CXCursor_CompoundStmt:
		cv_emit(S, cv_conv_block(S, c));
		break;
	case CXCursor_DeclStmt:
		/* every declarator, in order: int a = .., b = .., ... */
		clang_visitChildren(c, decl_visit, S);
		break;
	case CXCursor_IfStmt:
		conv_if(S, c);
		break;
	case CXCursor_ForStmt:
		conv_for(S, c);
		break;
	case CXCursor_CXXForRangeStmt:
		conv_range_for(S, c);
		break;
	case CXCursor_WhileStmt:
		conv_while(S, c, 0);
		break;
	case CXCursor_DoStmt:
		conv_while(S, c, 1);
		break;
	case CXCursor_SwitchStmt:
		conv_switch(S, c);
		break;
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt:
	case CXCursor_LabelStmt: {
		struct kids ks = cv_kids_of(c);
		if (ks.n >= 1)
			cv_conv_stmt_into(S, ks.c[ks.n - 1]);
		break;
	}
	case CXCursor_ReturnStmt:
		conv_return(S, c);
		break;
	case CXCursor_BreakStmt:
		cv_emit(S, cv_mk_stmt(S, SM_S_BREAK, c));
		break;
	case CXCursor_ContinueStmt:
		cv_emit(S, cv_mk_stmt(S, SM_S_CONTINUE, c));
		break;
	case CXCursor_GotoStmt:
	case CXCursor_IndirectGotoStmt:
		cv_emit(S, cv_mk_stmt(S, SM_S_GOTO, c));
		break;
	case CXCursor_GCCAsmStmt:
		conv_asm(S, c);
		break;
	case CXCursor_NullStmt:
		break;
	default:
		if (clang_isExpression(k))
			(void)cv_conv_expr(S, c);
		else if (clang_isStatement(k))
			/* AttributedStmt (#pragma unroll), other wrappers: their
			 * children are statements in order */
			clang_visitChildren(c, block_visit, S);
		break;
	}
}

void cv_conv_stmt_into(struct fe *S, CXCursor c)
{
	if (S->depth >= SM_FE_MAX_DEPTH || sm_stack_exhausted(S->stack_floor)) {
		S->too_deep = 1;
		return;
	}
	S->depth++;
	bool operand = S->operand; /* an inlined callee's statements, inside an operand */
	S->operand = false;
	conv_stmt_kind(S, c);
	S->operand = operand;
	S->depth--;
}

/* ---- constructors ---- */

static enum CXChildVisitResult field_init(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	struct fe *S = d;
	if (clang_getCursorKind(c) == CXCursor_FieldDecl) {
		struct kids ks = cv_kids_of(c);
		for (int i = 0; i < ks.n && i < 8; i++)
			if (clang_isExpression(clang_getCursorKind(ks.c[i])))
				cv_record_clobber(S, S->this_obj, cv_conv_expr(S, ks.c[i]), ks.c[i]);
	}
	return CXChildVisit_Continue;
}

/* In a constructor being followed (its `*this` in S->this_obj): the
 * class's default member initializers and the constructor's member
 * initializers, as writes into the object. */
void cv_ctor_inits(struct fe *S, CXCursor def)
{
	if (!S->this_obj)
		return;
	/* the class's default member initializers, then the constructor's
	 * own: each value written into the object (what matters is whether
	 * it is alike in every thread) */
	clang_visitChildren(clang_getCursorSemanticParent(def), field_init, S);
	unsigned n;
	CXCursor **ks = cv_kids_all(S, def, &n);
	for (unsigned i = 0; ks && i < n; i++)
		if (clang_isExpression(clang_getCursorKind(*ks[i])))
			cv_record_clobber(S, S->this_obj, cv_conv_expr(S, *ks[i]), *ks[i]);
}
