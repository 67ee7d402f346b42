/* convert_expr.c - expressions: libclang expressions to sm_expr.
 *
 * Integer expressions become sm_expr trees with the width and signedness
 * of their C type; threadIdx/blockDim/blockIdx/gridDim members become
 * builtins; pointers into shared memory are followed through variables,
 * &x and p + n, with pointer arithmetic scaled to bytes.
 *
 * An lvalue that designates shared memory (a "place": array or pointer
 * base, subscripts, field offset) is read or written by an ACCESS
 * statement, emitted into the current block in evaluation order; the value
 * read is an OPAQUE per-thread load. Assignments to local variables become
 * ASSIGN statements. A call is handed to the call converter
 * (fe.conv_call, convert_call.c), the one converter above this file.
 * The right operand of && and || and the arms of ?: run conditionally, so
 * the accesses in them are wrapped in an IF. conv_expr_inner hands each
 * kind of expression to its own function (conv_declref, conv_unary, ...).
 *
 * Anything the model does not cover becomes an OPAQUE value rather than a
 * guess. Recursion is bounded by depth and by the stack (cv_conv_expr).
 */
#include "front/convert.h"
#include "base/stack.h"

#include <string.h>

static enum sm_op binop_of(struct fe *S, CXCursor c, int *is_assign, int *ok)
{
	*ok = 1;
	*is_assign = 0;
	enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(c);
	switch (k) {
	case CXBinaryOperator_Mul: return SM_OP_MUL;
	case CXBinaryOperator_Div: return SM_OP_DIV;
	case CXBinaryOperator_Rem: return SM_OP_REM;
	case CXBinaryOperator_Add: return SM_OP_ADD;
	case CXBinaryOperator_Sub: return SM_OP_SUB;
	case CXBinaryOperator_Shl: return SM_OP_SHL;
	case CXBinaryOperator_Shr: return SM_OP_SHR;
	case CXBinaryOperator_LT: return SM_OP_LT;
	case CXBinaryOperator_GT: return SM_OP_GT;
	case CXBinaryOperator_LE: return SM_OP_LE;
	case CXBinaryOperator_GE: return SM_OP_GE;
	case CXBinaryOperator_EQ: return SM_OP_EQ;
	case CXBinaryOperator_NE: return SM_OP_NE;
	case CXBinaryOperator_And: return SM_OP_AND;
	case CXBinaryOperator_Xor: return SM_OP_XOR;
	case CXBinaryOperator_Or: return SM_OP_OR;
	case CXBinaryOperator_LAnd: return SM_OP_LAND;
	case CXBinaryOperator_LOr: return SM_OP_LOR;
	case CXBinaryOperator_Assign: *is_assign = 1; return SM_OP_ASSIGN;
	case CXBinaryOperator_MulAssign: *is_assign = 1; return SM_OP_MUL;
	case CXBinaryOperator_DivAssign: *is_assign = 1; return SM_OP_DIV;
	case CXBinaryOperator_RemAssign: *is_assign = 1; return SM_OP_REM;
	case CXBinaryOperator_AddAssign: *is_assign = 1; return SM_OP_ADD;
	case CXBinaryOperator_SubAssign: *is_assign = 1; return SM_OP_SUB;
	case CXBinaryOperator_ShlAssign: *is_assign = 1; return SM_OP_SHL;
	case CXBinaryOperator_ShrAssign: *is_assign = 1; return SM_OP_SHR;
	case CXBinaryOperator_AndAssign: *is_assign = 1; return SM_OP_AND;
	case CXBinaryOperator_XorAssign: *is_assign = 1; return SM_OP_XOR;
	case CXBinaryOperator_OrAssign: *is_assign = 1; return SM_OP_OR;
	default: *ok = 0; return SM_OP_ADD;
	}
}

/* Which unary operator: returns one of '-', '!', '~', '+', '*', '&', 'i'
 * (pre/post increment), 'd' (decrement), or 0. */
static int unop_of(struct fe *S, CXCursor c)
{
	(void)S;
	switch (clang_getCursorUnaryOperatorKind(c)) {
	case CXUnaryOperator_PostInc: case CXUnaryOperator_PreInc: return 'i';
	case CXUnaryOperator_PostDec: case CXUnaryOperator_PreDec: return 'd';
	case CXUnaryOperator_AddrOf: return '&';
	case CXUnaryOperator_Deref: return '*';
	case CXUnaryOperator_Plus: return '+';
	case CXUnaryOperator_Minus: return '-';
	case CXUnaryOperator_Not: return '~';
	case CXUnaryOperator_LNot: return '!';
	default: return 0;
	}
}

static struct sm_var *var_of(struct fe *S, CXCursor decl)
{
	return cv_cmap_get(&S->vars, decl);
}

static int is_explicit_cast(CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	return k == CXCursor_CStyleCastExpr || k == CXCursor_CXXStaticCastExpr ||
	       k == CXCursor_CXXReinterpretCastExpr || k == CXCursor_CXXFunctionalCastExpr;
}

/* Skip parentheses and implicit conversions only. */
static CXCursor strip_implicit(CXCursor c)
{
	for (int guard = 0; guard < SM_FE_STRIP_CHAIN; guard++) {
		enum CXCursorKind k = clang_getCursorKind(c);
		if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr)
			return c;
		struct kids ks = cv_kids_of(c);
		if (ks.n != 1 || !clang_isExpression(clang_getCursorKind(ks.c[0])))
			return c;
		c = ks.c[0];
	}
	return c;
}

static int conv_place(struct fe *S, CXCursor c, struct sm_access *acc);

/* The place *(base + 0), base a pointer to elements of elem_size bytes. */
static void place_at(struct fe *S, struct sm_access *acc, struct sm_expr *base, unsigned elem_size)
{
	acc->base = base;
	acc->idx[0] = cv_mk_const(S, 0);
	acc->nidx = 1;
	acc->base_elem_size = elem_size;
}

/* Add field's byte offset to the place; 0 when it has none. */
static int place_field(struct fe *S, struct sm_access *acc, CXCursor field)
{
	long long off = clang_Cursor_getOffsetOfField(field);
	if (off < 0)
		return 0;
	struct sm_expr *o = cv_mk_const(S, off / 8);
	acc->extra = acc->extra ? cv_mk_bin(S, SM_OP_ADD, acc->extra, o, clang_getNullCursor()) : o;
	acc->member = cv_cx_str(S->A, clang_getCursorSpelling(field));
	return 1;
}

/* base[i]: a further subscript of an array, a byte offset into a member
 * array, or the subscript of a shared pointer. */
static int place_subscript(struct fe *S, CXCursor c, struct sm_access *acc)
{
	struct kids ks = cv_kids_of(c);
	if (ks.n != 2)
		return 0;
	/* the base as written: an explicit cast ((uint *)bytes)[i]
	 * changes the unit of the subscript, so it is a pointer base */
	CXCursor base = strip_implicit(ks.c[0]);
	if (!is_explicit_cast(base))
		base = cv_strip(ks.c[0]);
	/* multi-dimensional: the base is itself a subscript of an array */
	CXType bt = clang_getCursorType(base);
	int base_is_array = clang_getCanonicalType(bt).kind == CXType_ConstantArray ||
			    clang_getCanonicalType(bt).kind == CXType_IncompleteArray;
	if (base_is_array) {
		if (!conv_place(S, base, acc))
			return 0;
		if (acc->member || (acc->array && acc->nidx >= acc->array->ndims) || acc->base) {
			/* a member array (s[i].v[3]) or an array reached
			 * through a pointer: the subscript is a byte offset
			 * in units of the subscripted element */
			long long es = clang_Type_getSizeOf(clang_getCanonicalType(clang_getCursorType(c)));
			struct sm_expr *off = cv_mk_bin(S, SM_OP_MUL, cv_conv_expr(S, ks.c[1]), cv_mk_const(S, es > 0 ? es : 1),
							clang_getNullCursor());
			acc->extra = acc->extra ? cv_mk_bin(S, SM_OP_ADD, acc->extra, off, clang_getNullCursor()) : off;
			return 1;
		}
	} else {
		/* pointer base */
		if (!cv_is_shared_ptr(S, base))
			return 0;
		acc->base = cv_conv_expr(S, base);
		acc->array = NULL;
		acc->nidx = 0;
		long long ps = clang_Type_getSizeOf(clang_getPointeeType(clang_getCanonicalType(clang_getCursorType(base))));
		acc->base_elem_size = ps > 0 ? (unsigned)ps : 0;
	}
	if (acc->nidx >= SM_MAX_DIMS)
		return 0;
	acc->idx_range[acc->nidx] = S->operand ? (struct sm_range){ { 0, 0 }, { 0, 0 }, 0 } : cv_range_of(S, ks.c[1]);
	acc->idx[acc->nidx++] = cv_conv_expr(S, ks.c[1]);
	return 1;
}

/* x.f, p->f, or f inside a method called on a shared object. */
static int place_member(struct fe *S, CXCursor c, struct sm_access *acc)
{
	struct kids ks = cv_kids_of(c);
	CXCursor field = clang_getCursorReferenced(c);
	if (clang_getCursorKind(field) != CXCursor_FieldDecl)
		return 0;
	if (S->this_var && (ks.n == 0 || clang_getCursorKind(cv_strip(ks.c[0])) == CXCursor_CXXThisExpr)) {
		/* a member of the shared object a method was called on */
		place_at(S, acc, cv_var_ref(S, c, S->this_var), 1);
		return place_field(S, acc, field);
	}
	if (ks.n != 1)
		return 0;
	CXCursor base = cv_strip(ks.c[0]);
	int arrow = 0;
	struct toks t = cv_tokens_of(S, c);
	for (unsigned i = 0; i < t.n; i++)
		if (!strcmp(t.s[i], "->"))
			arrow = 1;
	if (arrow) {
		if (!cv_is_shared_ptr(S, base))
			return 0;
		place_at(S, acc, cv_conv_expr(S, base), 1);
	} else if (!conv_place(S, base, acc)) {
		return 0;
	}
	return place_field(S, acc, field);
}

/* A place: the shared location an lvalue designates. Fills acc (array or
 * base, idx, extra, member) without emitting anything. Returns 0 if the
 * lvalue is not in shared memory. */
static int conv_place(struct fe *S, CXCursor c, struct sm_access *acc)
{
	c = cv_strip(c);
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		struct sm_array *arr = cv_array_of_decl(S, d);
		if (arr) {
			acc->array = arr;
			return 1;
		}
		struct sm_var *v = var_of(S, d);
		if (!v || !v->is_ref)
			return 0;
		/* a reference into shared memory: *(&ref) */
		place_at(S, acc, cv_var_ref(S, c, v), v->pointee_size);
		return 1;
	}
	if (k == CXCursor_ArraySubscriptExpr)
		return place_subscript(S, c, acc);
	if (k == CXCursor_MemberRefExpr)
		return place_member(S, c, acc);
	if (k == CXCursor_UnaryOperator && unop_of(S, c) == '*') {
		struct kids ks = cv_kids_of(c);
		if (ks.n != 1 || !cv_is_shared_ptr(S, cv_strip(ks.c[0])))
			return 0;
		place_at(S, acc, cv_conv_expr(S, cv_strip(ks.c[0])), 1);
		return 1;
	}
	return 0;
}

/* Is this (stripped) expression a pointer into shared memory that we can
 * follow: a shared array name, a local pointer variable, &x, or p + n? */
int cv_is_shared_ptr(struct fe *S, CXCursor c)
{
	c = cv_strip(c);
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_CXXThisExpr)
		return S->this_var != NULL;
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		if (cv_array_of_decl(S, d))
			return 1;
		struct sm_var *v = var_of(S, d);
		return v && v->is_pointer && v->points_shared && !v->is_ref;
	}
	if (k == CXCursor_UnaryOperator && unop_of(S, c) == '&') {
		struct kids ks = cv_kids_of(c);
		if (ks.n != 1)
			return 0;
		/* &a[i]: a place in shared memory (converted later for real) */
		CXCursor in = cv_strip(ks.c[0]);
		for (int guard = 0; guard < 16; guard++) {
			enum CXCursorKind ik = clang_getCursorKind(in);
			if (ik == CXCursor_ArraySubscriptExpr || ik == CXCursor_MemberRefExpr) {
				struct kids k2 = cv_kids_of(in);
				if (k2.n < 1)
					return 0;
				in = cv_strip(k2.c[0]);
				continue;
			}
			break;
		}
		if (clang_getCursorKind(in) == CXCursor_DeclRefExpr) {
			struct sm_var *v = var_of(S, clang_getCursorReferenced(in));
			if (v && v->is_ref)
				return 1;
		}
		return cv_is_shared_ptr(S, in);
	}
	if (k == CXCursor_BinaryOperator) {
		struct kids ks = cv_kids_of(c);
		return ks.n == 2 && (cv_is_shared_ptr(S, ks.c[0]) || cv_is_shared_ptr(S, ks.c[1]));
	}
	if (k == CXCursor_CallExpr && clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Pointer &&
	    !clang_Cursor_isNull(cv_inline_target(S, c))) {
		/* *slot(s, i): a helper that returns a pointer, followed when
		 * the access is converted (resolve finds whether it is shared) */
		return 1;
	}
	if (k == CXCursor_ArraySubscriptExpr) {
		/* tile[ty] of a 2D array decays to a pointer to its row */
		CXType t = clang_getCanonicalType(clang_getCursorType(c));
		if (t.kind == CXType_ConstantArray) {
			struct kids ks = cv_kids_of(c);
			return ks.n == 2 && cv_is_shared_ptr(S, ks.c[0]);
		}
	}
	return 0;
}

static unsigned access_width(CXCursor c)
{
	long long s = clang_Type_getSizeOf(clang_getCanonicalType(clang_getCursorType(c)));
	if (s <= 0)
		return 4;
	if (s >= 16)
		return 16;
	if (s > 8)
		return 4; /* a 12-byte struct copy is split into words */
	if (s > 4)
		return 8;
	return (unsigned)s;
}

/* Emit an access statement for the shared lvalue c, if it is one. */
struct sm_access *cv_emit_access(struct fe *S, CXCursor c, enum sm_access_kind kind)
{
	struct sm_access tmp;
	memset(&tmp, 0, sizeof(tmp));
	bool operand = S->operand; /* its subscripts' ranges are read */
	S->operand = false;
	int ok = conv_place(S, c, &tmp);
	S->operand = operand;
	if (!ok)
		return NULL;
	struct sm_access *a = sm_arena_alloc(S->A, sizeof(*a));
	if (!a)
		return NULL;
	*a = tmp;
	a->kind = kind;
	a->width = access_width(c);
	a->is_volatile = clang_isVolatileQualifiedType(clang_getCursorType(c));
	return cv_emit_made_access(S, c, a);
}

/* The value of a shared lvalue read: unknown, per thread. */
static struct sm_expr *load_value(struct fe *S, CXCursor c, struct sm_access *a)
{
	struct sm_expr *e = cv_opaque(S, c, a && a->array ? a->array->name : "shared load", 1);
	if (e)
		e->place = a; /* resolve: a load through a uniform address is uniform */
	return e;
}

int cv_is_shared_lvalue(struct fe *S, CXCursor c)
{
	struct sm_access tmp;
	memset(&tmp, 0, sizeof(tmp));
	/* conv_place converts subscripts as a side effect; to keep the
	 * emitted statement order right it is only called for real once. */
	c = cv_strip(c);
	enum CXCursorKind k = clang_getCursorKind(c);
	for (int guard = 0; guard < 16; guard++) {
		if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_MemberRefExpr ||
		    (k == CXCursor_UnaryOperator && unop_of(S, c) == '*')) {
			struct kids ks = cv_kids_of(c);
			if (k == CXCursor_MemberRefExpr && S->this_var &&
			    (ks.n == 0 || clang_getCursorKind(cv_strip(ks.c[0])) == CXCursor_CXXThisExpr))
				return clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_FieldDecl;
			if (ks.n < 1)
				return 0;
			CXCursor base = cv_strip(ks.c[0]);
			CXType bt = clang_getCanonicalType(clang_getCursorType(base));
			if (bt.kind == CXType_Pointer || k == CXCursor_UnaryOperator)
				return cv_is_shared_ptr(S, base);
			c = base;
			k = clang_getCursorKind(c);
			continue;
		}
		break;
	}
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		struct sm_var *v = var_of(S, d);
		return cv_array_of_decl(S, d) != NULL || (v && v->is_ref);
	}
	return 0;
}

struct sm_expr *cv_address_of(struct fe *S, CXCursor c)
{
	struct sm_access *pl = sm_arena_alloc(S->A, sizeof(*pl));
	struct sm_expr *e = cv_mk_expr(S, SM_E_ADDR, c);
	if (!pl || !e || !conv_place(S, c, pl))
		return NULL;
	e->place = pl;
	e->is_ptr = 1;
	return e;
}

static struct sm_var *assign_target(struct fe *S, CXCursor lhs)
{
	lhs = cv_strip(lhs);
	if (clang_getCursorKind(lhs) != CXCursor_DeclRefExpr)
		return NULL;
	struct sm_var *v = var_of(S, clang_getCursorReferenced(lhs));
	return v && !v->is_ref ? v : NULL; /* ref = x stores through it */
}

static void emit_assign(struct fe *S, struct sm_var *v, enum sm_op op, struct sm_expr *val, CXCursor c)
{
	struct sm_stmt *s = cv_mk_stmt(S, SM_S_ASSIGN, c);
	if (!s)
		return;
	s->var = v;
	s->op = op;
	s->value = val;
	cv_emit(S, s);
	cv_var_takes(v, val);
}

/* A fact the code states (__builtin_assume(n == 2), assert(n == 2)): a
 * variable equal to a constant holds it from here on. */
void cv_assume(struct fe *S, CXCursor cond, CXCursor at)
{
	CXCursor e = cv_strip(cond);
	struct kids k2 = cv_kids_of(e);
	int is_assign, ok;
	if (clang_getCursorKind(e) != CXCursor_BinaryOperator || k2.n != 2 ||
	    binop_of(S, e, &is_assign, &ok) != SM_OP_EQ || !ok || is_assign)
		return;
	for (int side = 0; side < 2; side++) {
		struct sm_var *v = assign_target(S, k2.c[side]);
		int64_t val;
		if (v && cv_try_eval_int(k2.c[1 - side], &val)) {
			emit_assign(S, v, SM_OP_ASSIGN, cv_mk_const(S, val), at);
			return;
		}
	}
}

/* Is c a call of the assertion failure handler (assert's other arm)? */
static int is_assert_fail(struct fe *S, CXCursor c)
{
	c = cv_strip(c);
	if (clang_getCursorKind(c) != CXCursor_CallExpr)
		return 0;
	const char *n = cv_cx_str(S->A, clang_getCursorSpelling(c));
	return !strcmp(n, "__assert_fail") || !strcmp(n, "__assertfail") || !strcmp(n, "__assert_rtn") ||
	       !strcmp(n, "_wassert");
}

static struct sm_expr *builtin_member(struct fe *S, CXCursor c)
{
	struct kids ks = cv_kids_of(c);
	if (ks.n != 1 || clang_getCursorKind(ks.c[0]) != CXCursor_DeclRefExpr)
		return NULL;
	const char *b = cv_cx_str(S->A, clang_getCursorSpelling(ks.c[0]));
	enum sm_builtin which;
	if (!strcmp(b, "threadIdx"))
		which = SM_B_TID;
	else if (!strcmp(b, "blockDim"))
		which = SM_B_NTID;
	else if (!strcmp(b, "blockIdx"))
		which = SM_B_CTAID;
	else if (!strcmp(b, "gridDim"))
		which = SM_B_NCTAID;
	else
		return NULL;
	/* the member is the token after `threadIdx .` where the expression is
	 * spelled, which for `#define TX threadIdx.x` is inside the macro */
	CXSourceRange ext = clang_getCursorExtent(c);
	CXFile f1 = NULL;
	unsigned l1, c1, o1;
	clang_getSpellingLocation(clang_getRangeStart(ext), &f1, &l1, &c1, &o1);
	const char *m = NULL;
	CXToken *line_tk = NULL;
	unsigned nt;
	if (f1 && cv_tokens_to_eol(S, f1, o1, &line_tk, &nt)) {
		if (nt >= 3)
			m = cv_cx_str(S->A, clang_getTokenSpelling(S->tu, line_tk[2]));
	} else if (f1) {
		CXToken *tk = NULL;
		unsigned n = 0;
		clang_tokenize(S->tu, clang_getRange(clang_getLocation(S->tu, f1, l1, c1), clang_getLocation(S->tu, f1, l1 + 1, 1)),
			       &tk, &n);
		if (n >= 3)
			m = cv_cx_str(S->A, clang_getTokenSpelling(S->tu, tk[2]));
		clang_disposeTokens(S->tu, tk, n);
	}
	if (!m) {
		struct toks t = cv_tokens_of(S, c);
		if (!t.n)
			return NULL;
		m = t.s[t.n - 1];
	}
	int dim = !strcmp(m, "x") ? 0 : !strcmp(m, "y") ? 1 : !strcmp(m, "z") ? 2 : -1;
	if (dim < 0)
		return NULL;
	struct sm_expr *e = cv_mk_expr(S, SM_E_BUILTIN, c);
	if (e) {
		e->builtin = which;
		e->dim = dim;
	}
	return e;
}

static enum CXChildVisitResult sizeof_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	struct fe *S = d;
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
		struct sm_array *a = cv_array_of_decl(S, clang_getCursorReferenced(c));
		if (a)
			a->sizeof_taken = true;
	}
	return CXChildVisit_Recurse;
}

/* sizeof(tile) or sizeof(tile[0]): the code depends on the array's size */
static void mark_sizeof(struct fe *S, CXCursor c)
{
	clang_visitChildren(c, sizeof_visit, S);
}

/* ---------- one function per kind of expression ---------- */

/* A literal, sizeof or alignof: its value when clang computes one. */
static struct sm_expr *conv_constant(struct fe *S, CXCursor c)
{
	int64_t v;
	mark_sizeof(S, c);
	if (cv_try_eval_int(c, &v))
		return cv_mk_const(S, v);
	return cv_opaque(S, c, "constant", 0);
}

/* An expression the model does not cover: its operands are converted for
 * their effects, its value is unknown unless clang computes it. */
static struct sm_expr *conv_other(struct fe *S, CXCursor c)
{
	int64_t v;
	/* nullptr (and GNU's __null, which NULL expands to): the null
	 * pointer, alike in every thread, so `p != nullptr` on a parameter is
	 * the parameter's test and not a per-thread unknown */
	if (clang_getCursorKind(c) == CXCursor_CXXNullPtrLiteralExpr || clang_getCursorKind(c) == CXCursor_GNUNullExpr)
		return cv_mk_const(S, 0);
	if (cv_try_eval_int(c, &v))
		return cv_mk_const(S, v);
	struct kids ks = cv_kids_of(c);
	for (int i = 0; i < ks.n && i < 8; i++)
		if (clang_isExpression(clang_getCursorKind(ks.c[i])))
			(void)cv_conv_expr(S, ks.c[i]);
	return cv_opaque(S, c, "expression", 1);
}

/* The address of the place c designates (an SM_E_ADDR pointer into shared
 * memory, at the range of `at`), or NULL when c is no place. */
static struct sm_expr *place_address(struct fe *S, CXCursor at, CXCursor c)
{
	struct sm_access *pl = sm_arena_alloc(S->A, sizeof(*pl));
	struct sm_expr *e = cv_mk_expr(S, SM_E_ADDR, at);
	if (!pl || !e || !conv_place(S, c, pl))
		return NULL;
	if (pl->array)
		pl->array->address_taken = true;
	e->place = pl;
	e->is_ptr = 1;
	return e;
}

/* Parentheses, implicit conversions and casts: an integer narrowed or cast
 * is an SM_E_CAST; a shared pointer cast keeps its place (a carve: the
 * element size changes); an lvalue-to-rvalue read of shared memory is a
 * load. */
static struct sm_expr *conv_wrapper(struct fe *S, CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor inner = cv_sole_operand(c);
	if (clang_Cursor_isNull(inner))
		return conv_other(S, c);
	if (k == CXCursor_UnexposedExpr && cv_is_shared_lvalue(S, inner)) {
		CXType it = clang_getCanonicalType(clang_getCursorType(inner));
		if (it.kind != CXType_ConstantArray && it.kind != CXType_IncompleteArray && it.kind != CXType_Pointer) {
			struct sm_access *a = cv_emit_access(S, inner, SM_ACC_LOAD);
			return load_value(S, c, a);
		}
	}
	struct sm_expr *e = cv_conv_expr(S, inner);
	CXType t = clang_getCursorType(c);
	if (e && e->kind != SM_E_ADDR && !e->is_ptr && cv_type_is_integer(t) && (is_explicit_cast(c) || cv_type_bits(t) < 64)) {
		struct sm_expr *cst = cv_mk_expr(S, SM_E_CAST, c);
		if (cst) {
			cst->a = e;
			cst->bits = cv_type_bits(t);
			cst->is_unsigned = cv_type_is_unsigned(t);
		}
		return cst;
	}
	if (e && clang_getCanonicalType(t).kind == CXType_Pointer && (e->kind == SM_E_ADDR || e->is_ptr)) {
		/* (float*)&ints[n]: a carve; the element size changes */
		struct sm_expr *w = cv_mk_expr(S, SM_E_CAST, c);
		if (w) {
			*w = *e;
			if (!S->operand)
				w->range = cv_range_of(S, c);
		}
		return w;
	}
	return e;
}

/* A name: an enumerator, a shared array (decaying to a pointer to its
 * first element), a variable, or a global or function (uniform, unknown). */
static struct sm_expr *conv_declref(struct fe *S, CXCursor c)
{
	CXCursor d = clang_getCursorReferenced(c);
	if (clang_getCursorKind(d) == CXCursor_EnumConstantDecl)
		return cv_mk_const(S, clang_getEnumConstantDeclValue(d));
	struct sm_array *arr = cv_array_of_decl(S, d);
	if (arr) {
		arr->address_taken = true;
		struct sm_access *pl = sm_arena_alloc(S->A, sizeof(*pl));
		struct sm_expr *e = cv_mk_expr(S, SM_E_ADDR, c);
		if (!pl || !e)
			return NULL;
		pl->array = arr;
		e->place = pl;
		e->is_ptr = 1;
		return e;
	}
	struct sm_var *var = var_of(S, d);
	if (var)
		return cv_var_ref(S, c, var);
	int64_t v;
	if (cv_try_eval_int(c, &v))
		return cv_mk_const(S, v);
	const char *n = cv_cx_str(S->A, clang_getCursorSpelling(c));
	if (!strcmp(n, "warpSize"))
		return cv_mk_const(S, 32);
	return cv_opaque(S, c, n, 0);
}

/* threadIdx.x and friends, a shared member (a load), or a member of a
 * parameter or global (a global load). */
static struct sm_expr *conv_member(struct fe *S, CXCursor c)
{
	struct sm_expr *b = builtin_member(S, c);
	if (!b)
		b = cv_group_dim3_member(S, c); /* block.thread_index().x */
	if (b)
		return b;
	if (cv_is_shared_lvalue(S, c)) {
		struct sm_access *a = cv_emit_access(S, c, SM_ACC_LOAD);
		return load_value(S, c, a);
	}
	struct kids ks = cv_kids_of(c);
	struct sm_expr *obj = NULL;
	for (int i = 0; i < ks.n && i < 8; i++) {
		struct sm_expr *x = cv_conv_expr(S, ks.c[i]);
		if (i == 0)
			obj = x;
	}
	struct sm_expr *g = cv_member_load(S, c, obj);
	return g ? g : cv_opaque(S, c, "member", 1);
}

/* Is c (a subscript's base) a pointer or an array read from a member,
 * `p.ptr`, `p->ptr`, `p.arr`, through members only down to a variable? */
static bool member_pointer(CXCursor c)
{
	c = cv_strip(c);
	enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(c)).kind;
	if (tk != CXType_Pointer && tk != CXType_ConstantArray)
		return false;
	for (int depth = 0; depth < SM_SCAN_EXPR_DEPTH; depth++) {
		enum CXCursorKind k = clang_getCursorKind(c);
		if (k == CXCursor_DeclRefExpr)
			return depth > 0;
		if (k != CXCursor_MemberRefExpr)
			return false;
		struct kids ks = cv_kids_of(c);
		if (ks.n != 1)
			return false;
		c = cv_strip(ks.c[0]);
	}
	return false;
}

/* Reached only for non-load contexts (arrays of arrays decaying, or
 * non-shared arrays): a shared row pointer or an unknown. */
static struct sm_expr *conv_subscript(struct fe *S, CXCursor c)
{
	if (cv_is_shared_ptr(S, c)) {
		struct sm_expr *e = place_address(S, c, c);
		return e ? e : cv_opaque(S, c, "row", 1);
	}
	struct kids ks = cv_kids_of(c);
	struct sm_var *elem = cv_local_elem_known(S, c); /* a local array's known element */
	if (elem && ks.n == 2) {
		(void)cv_conv_expr(S, ks.c[1]); /* the index's own reads */
		return cv_var_ref(S, c, elem);
	}
	struct sm_expr *idx = NULL, *base = NULL;
	for (int i = 0; i < ks.n && i < 8; i++) {
		struct sm_expr *x = cv_conv_expr(S, ks.c[i]);
		if (i == 0)
			base = x;
		if (i == 1)
			idx = x;
	}
	/* a load from global or local memory: per thread, unless a
	 * parameter's or global's element at a uniform index */
	struct sm_expr *g = ks.n == 2 && idx ? cv_global_load(S, c, ks.c[0], idx, "memory load") : NULL;
	/* ... or an element of a pointer held in a member (p.cnt[i], p->ptr[i],
	 * q.a.b[i]): a load at the pointer's value, alike in the threads where
	 * that value and the index are (a parameter struct's pointer is) */
	if (!g && ks.n == 2 && idx && base && member_pointer(ks.c[0]))
		g = cv_load_at(S, c, base, idx, "memory load");
	return g ? g : cv_opaque(S, c, "memory load", 1);
}

/* &x: a shared place's address, else a uniform unknown. */
static struct sm_expr *conv_addr_of(struct fe *S, CXCursor c, CXCursor operand)
{
	CXCursor in = cv_strip(operand);
	if (cv_is_shared_ptr(S, c)) {
		struct sm_expr *e = place_address(S, c, in);
		return e ? e : cv_opaque(S, c, "address", 0);
	}
	(void)cv_conv_expr(S, in);
	/* &p, &p.x: what is written through it is not followed */
	bool whole;
	struct sm_var *rec = cv_record_root(S, in, &whole);
	if (rec)
		cv_record_clobber(S, rec, NULL, c);
	return cv_opaque(S, c, "address", 0);
}

/* ++x, x--: an assignment of x + 1; ++s[i]: a load and a store of the same
 * element (the subscripts are converted once per access). */
static struct sm_expr *conv_incdec(struct fe *S, CXCursor c, CXCursor operand, int op)
{
	CXCursor tgt = cv_strip(operand);
	struct sm_var *var = assign_target(S, tgt);
	if (var) {
		struct sm_expr *e = cv_mk_expr(S, SM_E_VAR, tgt);
		if (e)
			e->var = var;
		emit_assign(S, var, op == 'i' ? SM_OP_ADD : SM_OP_SUB, cv_mk_const(S, 1), c);
		return e;
	}
	if (cv_is_shared_lvalue(S, tgt)) {
		struct sm_access *a = cv_emit_access(S, tgt, SM_ACC_LOAD);
		(void)cv_emit_access(S, tgt, SM_ACC_STORE);
		return load_value(S, c, a);
	}
	(void)cv_conv_expr(S, tgt);
	bool whole;
	struct sm_var *rec = cv_record_root(S, tgt, &whole);
	if (rec)
		cv_record_clobber(S, rec, cv_mk_const(S, op == 'i' ? 1 : -1), c); /* ++p.x */
	return cv_opaque(S, c, "increment", 1);
}

static struct sm_expr *conv_unary(struct fe *S, CXCursor c)
{
	struct kids ks = cv_kids_of(c);
	if (ks.n != 1)
		return cv_opaque(S, c, "expression", 1);
	int op = unop_of(S, c);
	if (op == '&')
		return conv_addr_of(S, c, ks.c[0]);
	if (op == '*') {
		if (cv_is_shared_lvalue(S, c)) {
			struct sm_access *a = cv_emit_access(S, c, SM_ACC_LOAD);
			return load_value(S, c, a);
		}
		(void)cv_conv_expr(S, ks.c[0]);
		struct sm_expr *g = cv_global_load(S, c, ks.c[0], NULL, "memory load");
		return g ? g : cv_opaque(S, c, "memory load", 1);
	}
	if (op == 'i' || op == 'd')
		return conv_incdec(S, c, ks.c[0], op);
	if (op == '+')
		return cv_conv_expr(S, ks.c[0]);
	struct sm_expr *a = cv_conv_expr_as(S, ks.c[0], true);
	struct sm_expr *e = cv_mk_expr(S, SM_E_UNARY, c);
	if (!e)
		return NULL;
	e->op = op == '-' ? SM_OP_NEG : op == '!' ? SM_OP_NOT : SM_OP_BITNOT;
	e->a = a;
	CXType t = clang_getCursorType(c);
	e->bits = cv_type_is_integer(t) ? cv_type_bits(t) : 64;
	e->is_unsigned = cv_type_is_unsigned(t);
	return e;
}

/* lhs = rhs, lhs op= rhs: an ASSIGN of a variable (p += n scaled to
 * bytes), a store (after a load for op=) of a shared location. */
static struct sm_expr *conv_assign(struct fe *S, CXCursor lhs, CXCursor rhs_c, enum sm_op op, CXCursor c)
{
	lhs = cv_strip(lhs);
	struct sm_expr *rhs = cv_conv_expr(S, rhs_c);
	struct sm_var *var = assign_target(S, lhs);
	if (var) {
		if (var->is_pointer && op != SM_OP_ASSIGN && rhs) {
			rhs = cv_mk_bin(S, SM_OP_MUL, rhs, cv_mk_const(S, var->pointee_size ? var->pointee_size : 1),
					clang_getNullCursor());
			if (rhs)
				rhs->is_ptr = 0;
		}
		emit_assign(S, var, op, rhs, c);
		struct sm_expr *e = cv_mk_expr(S, SM_E_VAR, lhs);
		if (e)
			e->var = var;
		return e;
	}
	if (cv_is_shared_lvalue(S, lhs)) {
		if (op != SM_OP_ASSIGN)
			(void)cv_emit_access(S, lhs, SM_ACC_LOAD);
		struct sm_access *st = cv_emit_access(S, lhs, SM_ACC_STORE);
		if (st && op == SM_OP_ASSIGN)
			st->value = rhs; /* the race search tells a constant from a race */
		return rhs;
	}
	struct sm_var *elem = cv_local_elem_target(S, lhs); /* a local array's element */
	if (elem) {
		(void)cv_conv_expr(S, cv_kids_of(lhs).c[1]);
		emit_assign(S, elem, op, rhs, c);
		return rhs;
	}
	(void)cv_conv_expr(S, lhs);
	bool whole;
	struct sm_var *rec = cv_record_root(S, lhs, &whole);
	if (rec)
		cv_record_clobber(S, rec, rhs, c); /* p.x = e */
	return rhs;
}

/* Convert c into a block of its own (its accesses run conditionally): its
 * value, and *blk the block of what it emitted (NULL when nothing). */
static struct sm_expr *conv_apart(struct fe *S, CXCursor c, struct sm_stmt **blk)
{
	struct vec body = { 0 };
	struct vec *saved = S->block;
	S->block = &body;
	struct sm_expr *e = cv_conv_expr(S, c);
	S->block = saved;
	*blk = NULL;
	if (body.n) {
		*blk = cv_mk_stmt(S, SM_S_BLOCK, c);
		if (*blk) {
			(*blk)->kids = (struct sm_stmt **)body.v;
			(*blk)->nkids = (int)body.n;
		}
	}
	return e;
}

/* An IF of cond emitted around then/els, blocks conv_apart made. */
static void emit_if(struct fe *S, CXCursor c, struct sm_expr *cond, struct sm_stmt *then, struct sm_stmt *els)
{
	struct sm_stmt *iff = cv_mk_stmt(S, SM_S_IF, c);
	if (!iff)
		return;
	iff->cond = cond;
	iff->kids = sm_arena_alloc(S->A, 2 * sizeof(*iff->kids));
	if (iff->kids) {
		iff->kids[0] = then;
		iff->kids[1] = els;
		iff->nkids = 2;
	}
	cv_emit(S, iff);
}

/* a && b, a || b: b's accesses happen only when a allows them. */
static struct sm_expr *conv_logical(struct fe *S, CXCursor c, CXCursor left, CXCursor right, enum sm_op op)
{
	struct sm_expr *a = cv_conv_expr_as(S, left, false); /* b's condition: its range is read */
	struct sm_stmt *blk;
	struct sm_expr *b = conv_apart(S, right, &blk);
	if (blk) {
		struct sm_expr *cond = a;
		if (op == SM_OP_LOR) {
			cond = cv_mk_expr(S, SM_E_UNARY, left);
			if (cond) {
				cond->op = SM_OP_NOT;
				cond->a = a;
				cond->range = cv_range_of(S, left);
			}
		}
		emit_if(S, c, cond, blk, NULL);
	}
	return cv_mk_bin(S, op, a, b, c);
}

static struct sm_expr *conv_binary(struct fe *S, CXCursor c)
{
	struct kids ks = cv_kids_of(c);
	if (ks.n != 2)
		return cv_opaque(S, c, "expression", 1);
	int is_assign, ok;
	enum sm_op op = binop_of(S, c, &is_assign, &ok);
	if (!ok) {
		/* comma, pointer-to-member, ...: evaluate both for effects */
		(void)cv_conv_expr(S, ks.c[0]);
		return cv_conv_expr(S, ks.c[1]);
	}
	if (is_assign)
		return conv_assign(S, ks.c[0], ks.c[1], op, c);
	if (op == SM_OP_LAND || op == SM_OP_LOR)
		return conv_logical(S, c, ks.c[0], ks.c[1], op);
	struct sm_expr *a = cv_conv_expr_as(S, ks.c[0], true);
	struct sm_expr *b = cv_conv_expr_as(S, ks.c[1], true);
	if ((op == SM_OP_ADD || op == SM_OP_SUB) && a && b && (a->is_ptr || b->is_ptr)) {
		/* pointer arithmetic: scale the integer side to bytes */
		struct sm_expr *p = a->is_ptr ? a : b, *n = a->is_ptr ? b : a;
		CXType pt = clang_getCanonicalType(clang_getCursorType(c));
		long long sz = clang_Type_getSizeOf(clang_getPointeeType(pt));
		struct sm_expr *scaled = cv_mk_bin(S, SM_OP_MUL, n, cv_mk_const(S, sz > 0 ? sz : 1), clang_getNullCursor());
		struct sm_expr *e = cv_mk_bin(S, op, p, scaled, c);
		if (e) {
			e->is_ptr = 1;
			e->bits = 64;
		}
		return e;
	}
	struct sm_expr *e = cv_mk_bin(S, op, a, b, c);
	if (e && op >= SM_OP_LT && op <= SM_OP_NE) {
		/* a comparison's type is bool; it compares in the type of
		 * its converted operands (-2 <= 2 is signed) */
		CXType ot = clang_getCursorType(ks.c[0]);
		e->is_unsigned = cv_type_is_integer(ot) && cv_type_is_unsigned(ot);
		e->bits = cv_type_is_integer(ot) ? cv_type_bits(ot) : 64;
	}
	return e;
}

/* c ? a : b: the arms' accesses happen under the condition; assert(e),
 * spelled e ? 0 : fail, states a fact. */
static struct sm_expr *conv_conditional(struct fe *S, CXCursor c)
{
	struct kids ks = cv_kids_of(c);
	if (ks.n != 3)
		return cv_opaque(S, c, "expression", 1);
	if (is_assert_fail(S, ks.c[2]) || is_assert_fail(S, ks.c[1])) {
		(void)cv_conv_expr(S, ks.c[0]);
		struct kids kc = cv_kids_of(cv_strip(ks.c[0]));
		if (!(is_assert_fail(S, ks.c[1]) && kc.n == 1)) /* not (!(e)) ? fail : 0 */
			cv_assume(S, ks.c[0], c);
		return cv_opaque(S, c, "assert", 0);
	}
	struct sm_expr *cond = cv_conv_expr_as(S, ks.c[0], false); /* an IF's condition too */
	struct sm_stmt *blocks[2];
	struct sm_expr *a = conv_apart(S, ks.c[1], &blocks[0]);
	struct sm_expr *b = conv_apart(S, ks.c[2], &blocks[1]);
	if (blocks[0] || blocks[1])
		emit_if(S, c, cond, blocks[0], blocks[1]);
	struct sm_expr *e = cv_mk_expr(S, SM_E_COND, c);
	if (e) {
		e->a = cond;
		e->b = a;
		e->c = b;
		e->is_ptr = a && a->is_ptr;
	}
	return e;
}

/* A floating literal: a uniform unknown to the evaluator, with its value's
 * bits (as a double) in ival, so that two stores of 1.0f are known to
 * store one value (the race search's same-value writes). */
static struct sm_expr *floating_constant(struct fe *S, CXCursor c)
{
	struct sm_expr *e = cv_opaque(S, c, "floating constant", 0);
	CXEvalResult r = clang_Cursor_Evaluate(c);
	if (e && r && clang_EvalResult_getKind(r) == CXEval_Float) {
		double d = clang_EvalResult_getAsDouble(r);
		memcpy(&e->ival, &d, sizeof(d));
		e->float_known = true;
	}
	if (r)
		clang_EvalResult_dispose(r);
	return e;
}

static struct sm_expr *conv_expr_inner(struct fe *S, CXCursor c)
{
	switch (clang_getCursorKind(c)) {
	case CXCursor_IntegerLiteral:
	case CXCursor_CharacterLiteral:
	case CXCursor_CXXBoolLiteralExpr:
	case CXCursor_UnaryExpr: /* sizeof, alignof */
		return conv_constant(S, c);
	case CXCursor_FloatingLiteral:
		return floating_constant(S, c);
	case CXCursor_UnexposedExpr:
	case CXCursor_ParenExpr:
	case CXCursor_CStyleCastExpr:
	case CXCursor_CXXStaticCastExpr:
	case CXCursor_CXXReinterpretCastExpr:
	case CXCursor_CXXFunctionalCastExpr:
		return conv_wrapper(S, c);
	case CXCursor_DeclRefExpr:
		return conv_declref(S, c);
	case CXCursor_MemberRefExpr:
		return conv_member(S, c);
	case CXCursor_ArraySubscriptExpr:
		return conv_subscript(S, c);
	case CXCursor_UnaryOperator:
		return conv_unary(S, c);
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator:
		return conv_binary(S, c);
	case CXCursor_ConditionalOperator:
		return conv_conditional(S, c);
	case CXCursor_CallExpr:
		return S->conv_call(S, c);
	case CXCursor_CXXThisExpr:
		return S->this_var ? cv_var_ref(S, c, S->this_var) : cv_opaque(S, c, "this", 0);
	default:
		return conv_other(S, c);
	}
}

struct sm_expr *cv_conv_expr(struct fe *S, CXCursor c)
{
	if (S->depth >= SM_FE_MAX_DEPTH || sm_stack_exhausted(S->stack_floor)) {
		S->too_deep = 1;
		return cv_opaque(S, c, "deeply nested expression", 1);
	}
	S->depth++;
	struct sm_expr *e = conv_expr_inner(S, c);
	S->depth--;
	return e;
}

struct sm_expr *cv_conv_expr_as(struct fe *S, CXCursor c, bool operand)
{
	bool saved = S->operand;
	S->operand = operand;
	struct sm_expr *e = cv_conv_expr(S, c);
	S->operand = saved;
	return e;
}
