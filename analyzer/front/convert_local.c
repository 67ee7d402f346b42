/* convert_local.c - elements of a local array as variables of their own.
 *
 * `float sumf[N]; ... sumf[j] = warp_sum(sumf[j]); buf[w] = sumf[j];`: the
 * value read back is the value stored, as it would be for a scalar. An
 * element is named by its array and its index as written: a store
 * `a[i] = v` assigns the element's variable "a[i]" (an IR variable like
 * any other, so branches and loops merge it as they merge a scalar), and a
 * read of `a[i]` while that element is known reads the variable.
 *
 * What may change the element otherwise ends it, at that point of the
 * code, by giving its variable an unknown per thread: a store to another
 * index of the array (which may be the same element), the assignment or
 * declaration of a name its index mentions (`j++` makes `a[j]` another
 * element). A compound store to an element not known makes it one of an
 * unknown per thread (the resolver's value of a variable never set). Only arrays of
 * scalars whose every use in their function is `a[...]` (or a cast to
 * void) are followed: no pointer to one (`f(a)`, `p = a`), no `&a[i]`, no
 * `a[i]++`, no `float &r = a[i]`. An element passed to a reference
 * parameter is copied back from the inlined callee, or ends when the
 * callee is not followed. The index must be plain: variables, constants,
 * arithmetic and member access (no call, no assignment, no subscript).
 * Every other array stays what it was before: a per-thread load.
 *
 * Below convert_expr.c, which converts the index of an element it reads or
 * stores; told of every assignment through fe.on_assign (convert.c's
 * cv_emit), installed by convert_kernel.c.
 */
#include "front/convert.h"

#include <stdio.h>
#include <string.h>

void cv_local_elems_reset(struct fe *S)
{
	memset(&S->elems, 0, sizeof(S->elems));
}

/* The local array a subscript c (a[i]) reads or writes, and its index, or
 * NULL: not a one-level subscript of a local array of scalars. */
static struct sm_var *local_array(struct fe *S, CXCursor c, CXCursor *decl, CXCursor *idx)
{
	c = cv_strip(c);
	if (clang_getCursorKind(c) != CXCursor_ArraySubscriptExpr)
		return NULL;
	struct kids ks = cv_kids_of(c);
	if (ks.n != 2)
		return NULL;
	CXCursor b = cv_strip(ks.c[0]);
	if (clang_getCursorKind(b) != CXCursor_DeclRefExpr)
		return NULL;
	CXCursor d = clang_getCursorReferenced(b);
	if (clang_getCursorKind(d) != CXCursor_VarDecl)
		return NULL;
	CXType t = clang_getCanonicalType(clang_getCursorType(d));
	if (t.kind != CXType_ConstantArray)
		return NULL;
	enum CXTypeKind ek = clang_getCanonicalType(clang_getArrayElementType(t)).kind;
	if (ek < CXType_Bool || ek > CXType_Float16)
		return NULL; /* scalars: integers, floating point, half */
	struct sm_var *v = cv_cmap_get(&S->vars, d);
	if (!v || v->kind != SM_V_LOCAL)
		return NULL;
	*decl = d;
	*idx = ks.c[1];
	return v;
}

/* The uses of array d in its function, from its syntax tree (macros
 * expanded, inactive #if branches left out): every reference to it must be
 * the base of a subscript that is not incremented, decremented, has its
 * address taken or is bound to a reference variable, or a cast to void
 * (an unused-variable macro). */
struct uses {
	CXCursor d;
	unsigned refs, plain;
};

static bool refers_to(CXCursor e, CXCursor d)
{
	e = cv_strip(e);
	return clang_getCursorKind(e) == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(e), d);
}

static enum CXChildVisitResult use_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	struct uses *u = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(c), u->d)) {
		u->refs++;
		return CXChildVisit_Continue;
	}
	struct kids ks = cv_kids_of(c);
	if (k == CXCursor_ArraySubscriptExpr && ks.n == 2 && refers_to(ks.c[0], u->d)) {
		enum CXCursorKind pk = clang_getCursorKind(parent);
		bool bad = false;
		if (pk == CXCursor_UnaryOperator) {
			enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(parent);
			bad = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec ||
			      op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PreDec || op == CXUnaryOperator_AddrOf;
		} else if (pk == CXCursor_VarDecl) {
			bad = clang_getCanonicalType(clang_getCursorType(parent)).kind == CXType_LValueReference;
		}
		if (!bad)
			u->plain++;
	} else if (k == CXCursor_CStyleCastExpr && clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Void &&
		   ks.n >= 1 && refers_to(ks.c[ks.n - 1], u->d)) {
		u->plain++;
	}
	return CXChildVisit_Recurse;
}

static bool uses_plain(CXCursor d)
{
	CXCursor fn = clang_getCursorSemanticParent(d);
	enum CXCursorKind fk = clang_getCursorKind(fn);
	if (fk != CXCursor_FunctionDecl && fk != CXCursor_CXXMethod && fk != CXCursor_FunctionTemplate)
		return false;
	struct uses u = { d, 0, 0 };
	clang_visitChildren(fn, use_visit, &u);
	return u.refs == u.plain;
}

static bool array_followed(struct fe *S, struct sm_var *arr, CXCursor d)
{
	for (unsigned i = 0; i < S->elems.narr; i++)
		if (S->elems.arr[i].arr == arr)
			return S->elems.arr[i].ok;
	if (S->elems.narr >= SM_FE_LOCAL_ARRAYS)
		return false;
	bool ok = uses_plain(d);
	S->elems.arr[S->elems.narr++] = (struct fe_checked){ arr, ok };
	return ok;
}

/* The index written as words (arena), or NULL when it is not a plain
 * expression of variables, constants, arithmetic and members
 * (threadIdx.x): read from the syntax tree, so a macro is what it expands
 * to and a variable is named as assigned (cv_local_elems_assigned matches
 * the words). No tokens: the front end asks it of every store. */
struct key_buf {
	char s[SM_FE_LOCAL_KEY];
	size_t n;
	bool bad;
};

static void key_put(struct key_buf *k, const char *w)
{
	size_t l = strlen(w);
	if (k->n + l + 2 > sizeof(k->s)) {
		k->bad = true;
		return;
	}
	memcpy(k->s + k->n, w, l);
	k->s[k->n + l] = ' ';
	k->n += l + 1;
	k->s[k->n] = 0;
}

static void key_of(struct key_buf *k, CXCursor c, int depth)
{
	c = cv_strip(c);
	enum CXCursorKind kind = clang_getCursorKind(c);
	struct kids ks = cv_kids_of(c);
	int64_t v;
	char w[32];
	if (k->bad || depth > 16) {
		k->bad = true;
	} else if (kind == CXCursor_DeclRefExpr || kind == CXCursor_MemberRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		enum CXCursorKind dk = clang_getCursorKind(d);
		if (dk == CXCursor_EnumConstantDecl || dk == CXCursor_NonTypeTemplateParameter) {
			if (!cv_try_eval_int(c, &v)) {
				k->bad = true;
				return;
			}
			snprintf(w, sizeof(w), "#%lld", (long long)v);
			key_put(k, w);
			return;
		}
		if (kind == CXCursor_MemberRefExpr && ks.n == 1) {
			key_of(k, ks.c[0], depth + 1);
			key_put(k, ".");
		} else if (kind == CXCursor_MemberRefExpr || (dk != CXCursor_VarDecl && dk != CXCursor_ParmDecl)) {
			k->bad = true;
			return;
		}
		CXString n = clang_getCursorSpelling(d);
		key_put(k, clang_getCString(n));
		clang_disposeString(n);
	} else if (kind == CXCursor_IntegerLiteral && cv_try_eval_int(c, &v)) {
		snprintf(w, sizeof(w), "#%lld", (long long)v);
		key_put(k, w);
	} else if (kind == CXCursor_BinaryOperator && ks.n == 2) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
		if (op < CXBinaryOperator_Mul || op > CXBinaryOperator_LOr) {
			k->bad = true; /* an assignment, a comma */
			return;
		}
		snprintf(w, sizeof(w), "(%d", (int)op);
		key_put(k, w);
		key_of(k, ks.c[0], depth + 1);
		key_of(k, ks.c[1], depth + 1);
		key_put(k, ")");
	} else if (kind == CXCursor_UnaryOperator && ks.n == 1) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
		if (op != CXUnaryOperator_Plus && op != CXUnaryOperator_Minus && op != CXUnaryOperator_Not &&
		    op != CXUnaryOperator_LNot) {
			k->bad = true; /* ++, --, &, * */
			return;
		}
		snprintf(w, sizeof(w), "u%d", (int)op);
		key_put(k, w);
		key_of(k, ks.c[0], depth + 1);
	} else if (kind == CXCursor_CStyleCastExpr || kind == CXCursor_CXXStaticCastExpr ||
		   kind == CXCursor_CXXFunctionalCastExpr) {
		key_of(k, ks.n ? ks.c[ks.n - 1] : c, depth + 1);
	} else {
		k->bad = true; /* a call, a subscript, a load through a pointer */
	}
}

static char *index_key(struct fe *S, CXCursor idx)
{
	struct key_buf k = { { 0 }, 0, false };
	key_of(&k, idx, 0);
	return k.bad || !k.n ? NULL : sm_arena_strdup(S->A, k.s);
}

/* The element's variable, known from here on as unknown per thread
 * (at c, or at the range of the statement at that ends it). */
static void clobber(struct fe *S, struct fe_elem *e, CXCursor c, const struct sm_stmt *at)
{
	struct sm_stmt *s = cv_mk_stmt(S, SM_S_ASSIGN, c);
	struct sm_expr *u = cv_opaque(S, c, e->v->name, 1);
	if (!s || !u)
		return;
	if (at) {
		s->range = at->range;
		u->range = at->range;
	}
	s->var = e->v;
	s->op = SM_OP_ASSIGN;
	s->value = u;
	cv_emit(S, s);
}

static void forget(struct fe *S, unsigned i, CXCursor c, const struct sm_stmt *at)
{
	clobber(S, &S->elems.e[i], c, at);
	S->elems.e[i] = S->elems.e[--S->elems.n];
}

static struct fe_elem *find(struct fe *S, struct sm_var *arr, const char *key)
{
	for (unsigned i = 0; i < S->elems.n; i++)
		if (S->elems.e[i].arr == arr && !strcmp(S->elems.e[i].key, key))
			return &S->elems.e[i];
	return NULL;
}

/* A new known element of arr at index key (its variable not assigned
 * yet: unknown per thread until it is), or NULL when the table is full. */
static struct fe_elem *add(struct fe *S, struct sm_var *arr, char *key)
{
	if (S->elems.n >= SM_FE_LOCAL_ELEMS)
		return NULL;
	struct sm_var *v = sm_arena_alloc(S->A, sizeof(*v));
	char *name = sm_arena_alloc(S->A, strlen(arr->name) + strlen(key) + 3);
	if (!v || !name)
		return NULL;
	size_t an = strlen(arr->name), kn = strlen(key) - 1; /* the key ends in a space */
	memcpy(name, arr->name, an);
	name[an] = '[';
	memcpy(name + an + 1, key, kn);
	memcpy(name + an + 1 + kn, "]", 2);
	v->name = name;
	v->kind = SM_V_LOCAL;
	v->decl = arr->decl;
	v->id = S->kvars.n;
	cv_vec_push(S->A, &S->kvars, v);
	struct fe_elem *e = &S->elems.e[S->elems.n++];
	*e = (struct fe_elem){ arr, key, v };
	return e;
}

/* Forget arr's known elements other than key (all when key is NULL). */
static void forget_others(struct fe *S, struct sm_var *arr, const char *key, CXCursor c)
{
	for (unsigned i = S->elems.n; i-- > 0;)
		if (S->elems.e[i].arr == arr && (!key || strcmp(S->elems.e[i].key, key)))
			forget(S, i, c, NULL);
}

struct sm_var *cv_local_elem_known(struct fe *S, CXCursor c)
{
	CXCursor d, idx;
	struct sm_var *arr = local_array(S, c, &d, &idx);
	bool any = false;
	for (unsigned i = 0; arr && i < S->elems.n && !any; i++)
		any = S->elems.e[i].arr == arr;
	if (!any)
		return NULL;
	char *key = index_key(S, idx);
	struct fe_elem *e = key ? find(S, arr, key) : NULL;
	return e ? e->v : NULL;
}

struct sm_var *cv_local_elem_target(struct fe *S, CXCursor lhs)
{
	CXCursor d, idx;
	struct sm_var *arr = local_array(S, lhs, &d, &idx);
	if (!arr || !array_followed(S, arr, d))
		return NULL;
	char *key = index_key(S, idx);
	forget_others(S, arr, key, lhs); /* any other element of the array may be this one */
	if (!key)
		return NULL; /* stored as before: a per-thread element */
	struct fe_elem *e = find(S, arr, key);
	e = e ? e : add(S, arr, key);
	return e ? e->v : NULL;
}

void cv_local_elems_assigned(struct fe *S, const struct sm_stmt *s)
{
	if (!S->elems.n || !s->var || !s->var->name)
		return;
	const char *name = s->var->name;
	size_t n = strlen(name);
	for (unsigned i = S->elems.n; i-- > 0;) {
		const char *k = S->elems.e[i].key;
		bool names = false;
		for (const char *p = k; *p && !names; p = strchr(p, ' ') ? strchr(p, ' ') + 1 : p + strlen(p))
			names = !strncmp(p, name, n) && p[n] == ' ';
		if (names)
			forget(S, i, clang_getNullCursor(), s);
	}
}

void cv_local_elem_clobber(struct fe *S, CXCursor arg, CXCursor c)
{
	CXCursor d, idx;
	struct sm_var *arr = local_array(S, arg, &d, &idx);
	if (arr)
		forget_others(S, arr, NULL, c);
}
