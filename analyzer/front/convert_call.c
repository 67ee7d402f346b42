/* convert_call.c - __device__ calls inlined at their call sites.
 *
 * Shared memory reaches helpers through pointer and reference parameters,
 * through helpers that return a shared pointer (the SharedMemory<T>
 * idiom), and through __shared__ arrays a helper declares itself. The
 * analysis follows every call of a __device__ function of the program
 * (not of the CUDA headers) by converting the callee's body again at each
 * call site, in the caller's statement tree:
 *
 *   SM_S_CALL { DECL param_i = arg_i ...; callee body; }  ASSIGN out = param
 *
 * so the engine sees the callee under the caller's bindings, guards,
 * loops and block shape, with no separate model of calls. Parameters are
 * fresh variables of the kernel. A by-value parameter takes the argument's
 * value; a pointer parameter its pointer (shared or not); a reference
 * parameter bound to a shared location (`uint &a` called with s[i])
 * becomes a reference into shared memory, whose every use is an access;
 * a reference bound to a caller's variable copies its value in and back
 * out; a method called on a shared object gets `this` pointing at it, so
 * its member accesses are shared accesses; a cooperative group passed
 * for a parameter (`void f(cg::thread_group g)` called with a tile or the
 * block) gives the parameter the argument's scope, so g.sync() in the
 * callee is a barrier of that scope (barrier_scope.c). `return v;` stores v in the
 * call's result variable and leaves the
 * innermost SM_S_CALL. A callee defined in a header is converted the same
 * way, but its positions are those of the call in the analyzed file.
 *
 * Bounds: recursion is never followed, nor are chains deeper than
 * SM_MAX_CALL_DEPTH, nor calls once a kernel holds SM_INLINE_MAX_ACCESSES
 * accesses; each such call is left opaque with a note (call-not-followed).
 */
#include "front/convert.h"
#include "front/include_site.h"

#include <stdio.h>
#include <string.h>

void cv_note(struct fe *S, enum sm_note_kind kind, int level, CXCursor c, const char *msg)
{
	/* one note per position and message */
	struct sm_range at = S->in_header && S->call ? S->call->range : cv_range_of(S, c);
	struct sm_pos pos = at.begin;
	if (at.file && at.file <= S->F->nheaders) {
		/* in a converted header: "header:line:col: msg", at the #include
		 * that brings it in (notes have no file of their own) */
		const struct sm_header *h = &S->F->headers[at.file - 1];
		const char *m = sm_arena_printf(S->A, "%s:%u:%u: %s", h->path, pos.line, pos.col, msg);
		msg = m ? m : msg;
		pos.line = pos.col = 0;
		for (unsigned i = 0; i < S->nfiles; i++)
			if (S->files[i].index == (int)at.file) {
				(void)cv_include_site(S->tu, S->files[i].file, S->A, &pos);
				break;
			}
	}
	for (unsigned i = 0; i < S->notes.n; i++) {
		const struct sm_note *o = S->notes.v[i];
		if (o->pos.line == pos.line && o->pos.col == pos.col && !strcmp(o->message, msg))
			return;
	}
	if (S->notes.n >= SM_MAX_PARSE_NOTES)
		return;
	struct sm_note *n = sm_arena_alloc(S->A, sizeof(*n));
	if (!n)
		return;
	n->kind = kind;
	n->level = level;
	n->pos = pos;
	n->message = sm_arena_strdup(S->A, msg);
	cv_vec_push(S->A, &S->notes, n);
}

CXCursor cv_inline_target(struct fe *S, CXCursor c)
{
	CXCursor none = clang_getNullCursor();
	if (!S->K)
		return none;
	CXCursor ref = clang_getCursorReferenced(c);
	if (clang_Cursor_isNull(ref))
		return none;
	CXCursor def = clang_getCursorDefinition(ref);
	if (clang_Cursor_isNull(def))
		return none;
	enum CXCursorKind k = clang_getCursorKind(def);
	if (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod && k != CXCursor_ConversionFunction)
		return none;
	if (!cv_has_attr(def, CXCursor_CUDADeviceAttr) || cv_has_attr(def, CXCursor_CUDAGlobalAttr))
		return none;
	/* the CUDA headers' own device functions (intrinsics, math) are not
	 * the program's: their calls stay opaque */
	if (clang_Location_isInSystemHeader(clang_getCursorLocation(def)))
		return none;
	if (clang_Cursor_isNull(cv_body_of(def)))
		return none;
	return def;
}

static int param_is_ref(CXCursor p)
{
	enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(p)).kind;
	return tk == CXType_LValueReference || tk == CXType_RValueReference;
}

struct sm_expr *cv_bind_ref(struct fe *S, struct sm_var *v, CXCursor init)
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

/* A reference parameter bound to a variable of the caller: its value
 * flows back when the call returns. */
static struct sm_var *caller_var(struct fe *S, const struct cmap *caller_scope, CXCursor arg)
{
	CXCursor a = cv_strip(arg);
	if (clang_getCursorKind(a) != CXCursor_DeclRefExpr)
		return NULL;
	struct sm_var *v = cv_cmap_get(caller_scope, clang_getCursorReferenced(a));
	(void)S;
	return v && !v->is_ref ? v : NULL;
}

static struct sm_stmt *mk_decl(struct fe *S, struct sm_var *v, struct sm_expr *val, CXCursor at)
{
	struct sm_stmt *s = cv_mk_stmt(S, SM_S_DECL, at);
	if (s) {
		s->var = v;
		s->value = val;
	}
	return s;
}

/* A variable of the kernel that no declaration names: a call's result
 * or a method's `this`. pointee: its type when it is a pointer. */
static struct sm_var *synthetic_var(struct fe *S, const char *name, CXType type)
{
	struct sm_var *v = sm_arena_alloc(S->A, sizeof(*v));
	if (!v)
		return NULL;
	v->name = name;
	v->kind = SM_V_LOCAL;
	v->is_pointer = type.kind == CXType_Pointer;
	if (v->is_pointer) {
		long long s = clang_Type_getSizeOf(clang_getPointeeType(type));
		v->pointee_size = s > 0 ? (unsigned)s : 1;
	}
	v->id = S->kvars.n;
	cv_vec_push(S->A, &S->kvars, v);
	return v;
}

static struct sm_var *result_var(struct fe *S, CXCursor def, const char *callee)
{
	CXType rt = clang_getCanonicalType(clang_getCursorResultType(def));
	if (rt.kind == CXType_Void || rt.kind == CXType_Invalid)
		return NULL;
	return synthetic_var(S, sm_arena_printf(S->A, "%s()", callee), rt);
}

static int not_followed(struct fe *S, CXCursor c, const char *callee, const char *why)
{
	char msg[512];
	snprintf(msg, sizeof(msg), "call to '%s' not followed: %s; the shared accesses inside it are not analyzed here",
		 callee, why);
	cv_note(S, SM_NOTE_CALL, 0, c, msg);
	return 0;
}

struct sm_expr *cv_inline_call(struct fe *S, CXCursor c, CXCursor def)
{
	const char *callee = cv_cx_str(S->A, clang_getCursorSpelling(def));
	int depth = S->call ? S->call->depth : 0;
	CXCursor canon = clang_getCanonicalCursor(def);
	for (int i = 0; i < depth && i < SM_MAX_CALL_DEPTH; i++)
		if (clang_equalCursors(S->callee_stack[i], canon)) {
			not_followed(S, c, callee, "it is recursive");
			return NULL;
		}
	if (depth >= SM_MAX_CALL_DEPTH) {
		not_followed(S, c, callee, "the call chain is deeper than SM_MAX_CALL_DEPTH (16)");
		return NULL;
	}
	if (S->naccess >= SM_INLINE_MAX_ACCESSES) {
		not_followed(S, c, callee, "the kernel already holds SM_INLINE_MAX_ACCESSES (20000) accesses");
		return NULL;
	}
	struct sm_callsite *site = sm_arena_alloc(S->A, sizeof(*site));
	if (!site)
		return NULL;
	site->callee = callee;
	site->caller = S->call ? S->call->callee : S->K->name;
	site->range = S->in_header && S->call ? S->call->range : cv_range_of(S, c);
	/* a callee in the file or a converted project header is converted at
	 * its own positions; one elsewhere (toolkit, filtered out) at this call */
	site->callee_in_file = cv_in_converted_file(S, def);
	site->depth = depth + 1;
	site->parent = S->call;

	/* the arguments, in the caller's scope and block */
	int nparams = clang_Cursor_getNumArguments(def);
	int nargs = clang_Cursor_getNumArguments(c);
	if (nparams < 0)
		nparams = 0;
	struct sm_expr **vals = sm_arena_alloc(S->A, ((size_t)nparams + 1) * sizeof(*vals));
	struct sm_var **back = sm_arena_alloc(S->A, ((size_t)nparams + 1) * sizeof(*back));
	unsigned char *shared_ref = sm_arena_alloc(S->A, (size_t)nparams + 1);
	struct cv_group *groups = sm_arena_alloc(S->A, ((size_t)nparams + 1) * sizeof(*groups));
	unsigned char *is_group = sm_arena_alloc(S->A, (size_t)nparams + 1);
	if (!vals || !back || !shared_ref || !groups || !is_group)
		return NULL;
	for (int i = 0; i < nparams && i < nargs; i++) {
		CXCursor p = clang_Cursor_getArgument(def, (unsigned)i);
		CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);
		/* a cooperative group: its scope, resolved in the caller */
		if (cv_is_group_param(S, p) && cv_group_scope(S, a, &groups[i].sc, &groups[i].arg))
			is_group[i] = 1;
		if (param_is_ref(p)) {
			if (cv_is_shared_lvalue(S, a)) {
				vals[i] = cv_address_of(S, a);
				shared_ref[i] = vals[i] != NULL;
			} else {
				back[i] = caller_var(S, &S->vars, a);
				vals[i] = cv_conv_expr(S, a);
			}
		} else {
			vals[i] = cv_conv_expr(S, a);
			CXType at = clang_getCanonicalType(clang_getCursorType(p));
			if (at.kind == CXType_Record)
				vals[i] = NULL; /* a struct by value: not modelled */
		}
	}

	/* a method called on a shared object (t.put(i, j, x) with __shared__
	 * Tile t): `this` points at it */
	struct sm_expr *this_val = NULL;
	if (clang_getCursorKind(def) == CXCursor_CXXMethod && !clang_CXXMethod_isStatic(def)) {
		struct kids ck = cv_kids_of(c);
		if (ck.n >= 1 && clang_getCursorKind(ck.c[0]) == CXCursor_MemberRefExpr) {
			struct kids mk = cv_kids_of(ck.c[0]);
			if (mk.n == 1 && cv_is_shared_lvalue(S, mk.c[0]))
				this_val = cv_address_of(S, mk.c[0]);
			else if (mk.n == 1 && clang_getCursorKind(cv_strip(mk.c[0])) == CXCursor_CXXThisExpr && S->this_var)
				this_val = cv_var_ref(S, c, S->this_var); /* this->other() */
		}
	}

	/* the callee's scope: its own variables, its return */
	struct cmap caller_scope = S->vars;
	memset(&S->vars, 0, sizeof(S->vars));
	struct cmap caller_groups = S->groups;
	memset(&S->groups, 0, sizeof(S->groups));
	for (int i = 0; i < nparams && i < nargs; i++)
		if (is_group[i])
			(void)cv_cmap_put(&S->groups, clang_Cursor_getArgument(def, (unsigned)i), &groups[i]);
	const struct sm_callsite *saved_call = S->call;
	struct sm_var *saved_ret = S->ret_var;
	bool saved_header = S->in_header;
	struct vec *saved_block = S->block;
	struct vec body = { 0 };
	S->block = &body;
	S->callee_stack[depth] = canon;
	S->call = site;
	S->in_header = saved_header || !site->callee_in_file;
	S->ret_var = result_var(S, def, callee);
	struct sm_var *saved_this = S->this_var;
	S->this_var = NULL;
	if (this_val) {
		/* held as a byte pointer: members add their byte offsets */
		CXType none = { .kind = CXType_Invalid };
		struct sm_var *tv = synthetic_var(S, "this", none);
		if (tv) {
			tv->is_pointer = tv->points_shared = true;
			tv->pointee_size = 1;
			cv_emit(S, mk_decl(S, tv, this_val, c));
			S->this_var = tv;
		}
	}

	struct sm_var **pv = sm_arena_alloc(S->A, ((size_t)nparams + 1) * sizeof(*pv));
	for (int i = 0; pv && i < nparams; i++) {
		CXCursor p = clang_Cursor_getArgument(def, (unsigned)i);
		struct sm_var *v = cv_make_var(S, p, SM_V_LOCAL);
		if (!v)
			continue;
		pv[i] = v;
		if (shared_ref[i]) {
			long long sz = clang_Type_getSizeOf(clang_getPointeeType(clang_getCanonicalType(clang_getCursorType(p))));
			v->is_ref = v->is_pointer = v->points_shared = true;
			v->pointee_size = sz > 0 ? (unsigned)sz : 1;
		} else if (v->is_pointer && vals[i] && vals[i]->is_ptr) {
			v->points_shared = true;
		}
		cv_emit(S, mk_decl(S, v, vals[i], p));
	}
	CXCursor b = cv_body_of(def);
	cv_emit(S, cv_conv_block(S, b));

	struct sm_var *ret = S->ret_var;
	cv_cmap_free(&S->vars);
	S->vars = caller_scope;
	cv_cmap_free(&S->groups);
	S->groups = caller_groups;
	S->call = saved_call;
	S->ret_var = saved_ret;
	S->this_var = saved_this;
	S->in_header = saved_header;
	S->block = saved_block;

	struct sm_stmt *blk = cv_mk_stmt(S, SM_S_BLOCK, c);
	struct sm_stmt *call = cv_mk_stmt(S, SM_S_CALL, c);
	if (!blk || !call)
		return NULL;
	blk->kids = (struct sm_stmt **)body.v;
	blk->nkids = (int)body.n;
	blk->call = site;
	call->kids = sm_arena_alloc(S->A, sizeof(*call->kids));
	if (!call->kids)
		return NULL;
	call->kids[0] = blk;
	call->nkids = 1;
	call->call = site;
	cv_emit(S, call);
	/* references to the caller's variables: their values come back */
	for (int i = 0; pv && i < nparams && i < nargs; i++) {
		if (!back[i] || !pv[i])
			continue;
		struct sm_stmt *s = cv_mk_stmt(S, SM_S_ASSIGN, c);
		if (!s)
			break;
		s->var = back[i];
		s->op = SM_OP_ASSIGN;
		s->value = cv_var_ref(S, c, pv[i]);
		cv_emit(S, s);
	}
	cv_cmap_put(&S->inlined, canon, (void *)1);
	if (ret)
		return cv_var_ref(S, c, ret);
	return cv_opaque(S, c, callee, 1);
}
