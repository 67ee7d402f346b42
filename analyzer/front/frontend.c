/* frontend.c - libclang to IR. The only file that includes clang-c.
 *
 * It parses one file (its contents handed in as an unsaved file, so that
 * what is analyzed is exactly what was read), walks the kernels, device
 * functions and host launch sites of the main file, and converts them into
 * the structured IR of ir.h. Cursors never leave this file: every node is
 * copied into the arena at the boundary, and the translation unit is
 * disposed of before returning.
 *
 * Conversion is syntax directed: statements become sm_stmt, integer
 * expressions become sm_expr, and shared-memory subscripts become ACCESS
 * statements emitted in evaluation order into the current block. Anything
 * the model does not cover becomes an OPAQUE value rather than a guess.
 */
#include "front/frontend.h"
#include "base/stack.h"

#include <clang-c/Index.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sm_frontend {
	CXIndex index;
	int pch_rejected;  /* the last parse could not use its opt->pch */
};

struct sm_frontend *sm_frontend_new(void)
{
	struct sm_frontend *fe = calloc(1, sizeof(*fe));
	if (!fe)
		return NULL;
	/* 1: declarations that come from a precompiled header are not
	 * visited (they are never in the main file anyway) */
	fe->index = clang_createIndex(1, 0);
	return fe;
}

void sm_frontend_free(struct sm_frontend *fe)
{
	if (!fe)
		return;
	clang_disposeIndex(fe->index);
	free(fe);
}

/* ---------- small growable arrays in the arena ---------- */

struct vec {
	void **v;
	unsigned n, cap;
};

static void vec_push(struct sm_arena *A, struct vec *x, void *p)
{
	if (x->n == x->cap) {
		unsigned cap = x->cap ? x->cap * 2 : 8;
		void **nv = sm_arena_alloc(A, cap * sizeof(void *));
		if (!nv)
			return;
		if (x->n)
			memcpy(nv, x->v, x->n * sizeof(void *));
		x->v = nv;
		x->cap = cap;
	}
	x->v[x->n++] = p;
}

/* ---------- cursor maps ---------- */

struct cmap_ent {
	CXCursor key;
	void *val;
	int used;
};

struct cmap {
	struct cmap_ent *e;
	unsigned cap, n;
};

static void cmap_free(struct cmap *m)
{
	free(m->e);
	memset(m, 0, sizeof(*m));
}

static void *cmap_get(const struct cmap *m, CXCursor k)
{
	if (!m->cap)
		return NULL;
	unsigned h = clang_hashCursor(k) & (m->cap - 1);
	for (;;) {
		struct cmap_ent *e = &m->e[h];
		if (!e->used)
			return NULL;
		if (clang_equalCursors(e->key, k))
			return e->val;
		h = (h + 1) & (m->cap - 1);
	}
}

static int cmap_put(struct cmap *m, CXCursor k, void *v)
{
	if ((m->n + 1) * 2 > m->cap) {
		unsigned ncap = m->cap ? m->cap * 2 : 64;
		struct cmap_ent *ne = calloc(ncap, sizeof(*ne));
		if (!ne)
			return -1;
		for (unsigned i = 0; i < m->cap; i++) {
			if (!m->e[i].used)
				continue;
			unsigned h = clang_hashCursor(m->e[i].key) & (ncap - 1);
			while (ne[h].used)
				h = (h + 1) & (ncap - 1);
			ne[h] = m->e[i];
		}
		free(m->e);
		m->e = ne;
		m->cap = ncap;
	}
	unsigned h = clang_hashCursor(k) & (m->cap - 1);
	while (m->e[h].used) {
		if (clang_equalCursors(m->e[h].key, k)) {
			m->e[h].val = v;
			return 0;
		}
		h = (h + 1) & (m->cap - 1);
	}
	m->e[h].key = k;
	m->e[h].val = v;
	m->e[h].used = 1;
	m->n++;
	return 0;
}

/* ---------- conversion state ---------- */

struct fe {
	CXTranslationUnit tu;
	CXFile main_file;
	struct sm_arena *A;
	struct sm_file *F;
	struct cmap arrays;     /* VarDecl cursor -> sm_array */
	struct cmap vars;       /* VarDecl/ParmDecl cursor -> sm_var (per kernel) */
	struct cmap kernels;    /* FunctionDecl/template cursor -> sm_kernel */
	struct vec all_arrays;
	struct vec all_kernels;
	struct sm_kernel *K;    /* kernel being converted */
	struct vec kvars;
	struct vec karrays;
	struct vec *block;      /* statements of the block being built */
	unsigned nopaque;
	unsigned naccess;
	int depth;              /* recursion guard */
	int too_deep;
	uintptr_t stack_floor;  /* recursion stops below this address */
};

#define SM_FE_MAX_DEPTH 2000

static struct sm_pos pos_of(CXSourceLocation loc)
{
	unsigned line = 0, col = 0;
	clang_getExpansionLocation(loc, NULL, &line, &col, NULL);
	struct sm_pos p = { line, col };
	return p;
}

static struct sm_range range_of(CXCursor c)
{
	CXSourceRange r = clang_getCursorExtent(c);
	struct sm_range out;
	out.begin = pos_of(clang_getRangeStart(r));
	out.end = pos_of(clang_getRangeEnd(r));
	return out;
}

static int in_main_file(struct fe *S, CXCursor c)
{
	CXFile f = NULL;
	clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
	return f && clang_File_isEqual(f, S->main_file);
}

static char *cx_str(struct sm_arena *A, CXString s)
{
	const char *c = clang_getCString(s);
	char *r = sm_arena_strdup(A, c ? c : "");
	clang_disposeString(s);
	/* never NULL: when the arena is exhausted (recorded there, and the
	 * results are marked partial) callers still get a string to compare */
	return r ? r : (char *)"";
}

struct kids {
	CXCursor c[8];
	int n;      /* total children (may exceed 8) */
};

static enum CXChildVisitResult kids_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	struct kids *k = d;
	if (k->n < 8)
		k->c[k->n] = c;
	k->n++;
	return CXChildVisit_Continue;
}

static struct kids kids_of(CXCursor c)
{
	struct kids k;
	k.n = 0;
	clang_visitChildren(c, kids_visit, &k);
	return k;
}

/* Skip implicit casts, parens and other single-child wrappers. */
static CXCursor strip(CXCursor c)
{
	for (int guard = 0; guard < 64; guard++) {
		enum CXCursorKind k = clang_getCursorKind(c);
		if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr &&
		    k != CXCursor_CStyleCastExpr && k != CXCursor_CXXStaticCastExpr &&
		    k != CXCursor_CXXFunctionalCastExpr)
			return c;
		struct kids ks = kids_of(c);
		/* casts may carry a TypeRef child before the operand */
		CXCursor next = clang_getNullCursor();
		int nexpr = 0;
		for (int i = 0; i < ks.n && i < 8; i++)
			if (clang_isExpression(clang_getCursorKind(ks.c[i]))) {
				next = ks.c[i];
				nexpr++;
			}
		if (nexpr != 1)
			return c;
		c = next;
	}
	return c;
}

static int type_is_unsigned(CXType t)
{
	t = clang_getCanonicalType(t);
	switch (t.kind) {
	case CXType_UInt: case CXType_ULong: case CXType_ULongLong:
	case CXType_UShort: case CXType_UChar: case CXType_Char_U: case CXType_Bool:
		return 1;
	default:
		return 0;
	}
}

static int type_is_integer(CXType t)
{
	t = clang_getCanonicalType(t);
	return (t.kind >= CXType_Bool && t.kind <= CXType_Int128 && t.kind != CXType_Char16 && t.kind != CXType_Char32) ||
	       t.kind == CXType_Enum;
}

static unsigned type_bits(CXType t)
{
	long long s = clang_Type_getSizeOf(clang_getCanonicalType(t));
	return s > 0 && s <= 8 ? (unsigned)(s * 8) : 64;
}

/* ---------- expressions ---------- */

static struct sm_expr *mk(struct fe *S, enum sm_expr_kind k, CXCursor c)
{
	struct sm_expr *e = sm_arena_alloc(S->A, sizeof(*e));
	if (!e)
		return NULL;
	e->kind = k;
	if (!clang_Cursor_isNull(c))
		e->range = range_of(c);
	return e;
}

static struct sm_expr *mk_const(struct fe *S, int64_t v)
{
	struct sm_expr *e = mk(S, SM_E_CONST, clang_getNullCursor());
	if (e)
		e->ival = v;
	return e;
}

static struct sm_expr *mk_opaque(struct fe *S, CXCursor c, const char *name, int thread_dep)
{
	struct sm_expr *e = mk(S, SM_E_OPAQUE, c);
	if (!e)
		return NULL;
	e->name = name ? sm_arena_strdup(S->A, name) : "value";
	e->thread_dep = thread_dep;
	e->id = ++S->nopaque;
	return e;
}

static struct sm_expr *mk_bin(struct fe *S, enum sm_op op, struct sm_expr *a, struct sm_expr *b, CXCursor c)
{
	struct sm_expr *e = mk(S, SM_E_BINARY, c);
	if (!e)
		return NULL;
	e->op = op;
	e->a = a;
	e->b = b;
	e->bits = 64;
	if (!clang_Cursor_isNull(c)) {
		CXType t = clang_getCursorType(c);
		if (type_is_integer(t)) {
			e->bits = type_bits(t);
			e->is_unsigned = type_is_unsigned(t);
		}
	}
	return e;
}

static void emit(struct fe *S, struct sm_stmt *s)
{
	if (s && S->block)
		vec_push(S->A, S->block, s);
}

static struct sm_stmt *mk_stmt(struct fe *S, enum sm_stmt_kind k, CXCursor c)
{
	struct sm_stmt *s = sm_arena_alloc(S->A, sizeof(*s));
	if (!s)
		return NULL;
	s->kind = k;
	if (!clang_Cursor_isNull(c))
		s->range = range_of(c);
	return s;
}

/* The tokens of a cursor's extent, as strings in the arena. */
struct toks {
	char **s;
	struct sm_pos *pos;
	unsigned n;
};

/* The cursor's extent as a range of the file text it expands from: an
 * extent that begins inside a macro (__global__, __shared__) tokenizes to
 * nothing otherwise. */
static CXSourceRange file_extent(struct fe *S, CXCursor c)
{
	CXSourceRange ext = clang_getCursorExtent(c);
	CXFile f1 = NULL, f2 = NULL;
	unsigned l1, c1, l2, c2;
	clang_getExpansionLocation(clang_getRangeStart(ext), &f1, &l1, &c1, NULL);
	clang_getExpansionLocation(clang_getRangeEnd(ext), &f2, &l2, &c2, NULL);
	if (!f1 || !f2 || !clang_File_isEqual(f1, f2))
		return ext;
	return clang_getRange(clang_getLocation(S->tu, f1, l1, c1), clang_getLocation(S->tu, f2, l2, c2));
}

static struct toks tokens_of(struct fe *S, CXCursor c)
{
	struct toks t = { 0 };
	CXToken *tk = NULL;
	unsigned n = 0;
	clang_tokenize(S->tu, file_extent(S, c), &tk, &n);
	if (!n)
		return t;
	t.s = sm_arena_alloc(S->A, n * sizeof(char *));
	t.pos = sm_arena_alloc(S->A, n * sizeof(struct sm_pos));
	if (t.s && t.pos) {
		for (unsigned i = 0; i < n; i++) {
			t.s[i] = cx_str(S->A, clang_getTokenSpelling(S->tu, tk[i]));
			t.pos[i] = pos_of(clang_getTokenLocation(S->tu, tk[i]));
		}
		t.n = n;
	}
	clang_disposeTokens(S->tu, tk, n);
	return t;
}

static int pos_lt(struct sm_pos a, struct sm_pos b)
{
	return a.line < b.line || (a.line == b.line && a.col < b.col);
}

static int try_eval_int(CXCursor c, int64_t *out)
{
	CXEvalResult r = clang_Cursor_Evaluate(c);
	if (!r)
		return 0;
	int ok = 0;
	if (clang_EvalResult_getKind(r) == CXEval_Int) {
		if (clang_EvalResult_isUnsignedInt(r))
			*out = (int64_t)clang_EvalResult_getAsUnsigned(r);
		else
			*out = clang_EvalResult_getAsLongLong(r);
		ok = 1;
	}
	clang_EvalResult_dispose(r);
	return ok;
}

static struct sm_expr *conv_expr(struct fe *S, CXCursor c);
static void conv_stmt_into(struct fe *S, CXCursor c);

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
	return cmap_get(&S->vars, decl);
}

static struct sm_array *array_of_decl(struct fe *S, CXCursor decl)
{
	return cmap_get(&S->arrays, clang_getCanonicalCursor(decl));
}

/* Is this (stripped) expression a pointer into shared memory that we can
 * follow: a shared array name, a local pointer variable, &x, or p + n? */
static int is_shared_ptr_expr(struct fe *S, CXCursor c);

/* A place: the shared location an lvalue designates. Fills acc (array or
 * base, idx, extra, member) without emitting anything. Returns 0 if the
 * lvalue is not in shared memory. */
static int conv_place(struct fe *S, CXCursor c, struct sm_access *acc)
{
	c = strip(c);
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		struct sm_array *arr = array_of_decl(S, d);
		if (arr) {
			acc->array = arr;
			return 1;
		}
		return 0;
	}
	if (k == CXCursor_ArraySubscriptExpr) {
		struct kids ks = kids_of(c);
		if (ks.n != 2)
			return 0;
		CXCursor base = strip(ks.c[0]);
		/* multi-dimensional: the base is itself a subscript of an array */
		CXType bt = clang_getCursorType(base);
		int base_is_array = clang_getCanonicalType(bt).kind == CXType_ConstantArray ||
				    clang_getCanonicalType(bt).kind == CXType_IncompleteArray;
		if (base_is_array) {
			if (!conv_place(S, base, acc))
				return 0;
		} else {
			/* pointer base */
			if (!is_shared_ptr_expr(S, base))
				return 0;
			acc->base = conv_expr(S, base);
			acc->array = NULL;
			acc->nidx = 0;
		}
		if (acc->nidx >= SM_MAX_DIMS)
			return 0;
		acc->idx[acc->nidx++] = conv_expr(S, ks.c[1]);
		return 1;
	}
	if (k == CXCursor_MemberRefExpr) {
		struct kids ks = kids_of(c);
		if (ks.n != 1)
			return 0;
		CXCursor base = strip(ks.c[0]);
		CXCursor field = clang_getCursorReferenced(c);
		if (clang_getCursorKind(field) != CXCursor_FieldDecl)
			return 0;
		int arrow = 0;
		struct toks t = tokens_of(S, c);
		for (unsigned i = 0; i < t.n; i++)
			if (!strcmp(t.s[i], "->"))
				arrow = 1;
		if (arrow) {
			if (!is_shared_ptr_expr(S, base))
				return 0;
			acc->base = conv_expr(S, base);
			acc->idx[0] = mk_const(S, 0);
			acc->nidx = 1;
		} else if (!conv_place(S, base, acc)) {
			return 0;
		}
		long long off = clang_Cursor_getOffsetOfField(field);
		if (off < 0)
			return 0;
		struct sm_expr *o = mk_const(S, off / 8);
		acc->extra = acc->extra ? mk_bin(S, SM_OP_ADD, acc->extra, o, clang_getNullCursor()) : o;
		acc->member = cx_str(S->A, clang_getCursorSpelling(field));
		return 1;
	}
	if (k == CXCursor_UnaryOperator && unop_of(S, c) == '*') {
		struct kids ks = kids_of(c);
		if (ks.n != 1 || !is_shared_ptr_expr(S, strip(ks.c[0])))
			return 0;
		acc->base = conv_expr(S, strip(ks.c[0]));
		acc->idx[0] = mk_const(S, 0);
		acc->nidx = 1;
		return 1;
	}
	return 0;
}

static int is_shared_ptr_expr(struct fe *S, CXCursor c)
{
	c = strip(c);
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		if (array_of_decl(S, d))
			return 1;
		struct sm_var *v = var_of(S, d);
		return v && v->is_pointer && v->points_shared;
	}
	if (k == CXCursor_UnaryOperator && unop_of(S, c) == '&') {
		struct kids ks = kids_of(c);
		if (ks.n != 1)
			return 0;
		/* &a[i]: a place in shared memory (converted later for real) */
		CXCursor in = strip(ks.c[0]);
		for (int guard = 0; guard < 16; guard++) {
			enum CXCursorKind ik = clang_getCursorKind(in);
			if (ik == CXCursor_ArraySubscriptExpr || ik == CXCursor_MemberRefExpr) {
				struct kids k2 = kids_of(in);
				if (k2.n < 1)
					return 0;
				in = strip(k2.c[0]);
				continue;
			}
			break;
		}
		return is_shared_ptr_expr(S, in);
	}
	if (k == CXCursor_BinaryOperator) {
		struct kids ks = kids_of(c);
		return ks.n == 2 && (is_shared_ptr_expr(S, ks.c[0]) || is_shared_ptr_expr(S, ks.c[1]));
	}
	if (k == CXCursor_ArraySubscriptExpr) {
		/* tile[ty] of a 2D array decays to a pointer to its row */
		CXType t = clang_getCanonicalType(clang_getCursorType(c));
		if (t.kind == CXType_ConstantArray) {
			struct kids ks = kids_of(c);
			return ks.n == 2 && is_shared_ptr_expr(S, ks.c[0]);
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

static int cursor_is_volatile(CXCursor c)
{
	return clang_isVolatileQualifiedType(clang_getCursorType(c));
}

/* Emit an access statement for the shared lvalue c, if it is one. */
static struct sm_access *emit_access(struct fe *S, CXCursor c, enum sm_access_kind kind)
{
	struct sm_access tmp;
	memset(&tmp, 0, sizeof(tmp));
	if (!conv_place(S, c, &tmp))
		return NULL;
	struct sm_access *a = sm_arena_alloc(S->A, sizeof(*a));
	if (!a)
		return NULL;
	*a = tmp;
	a->kind = kind;
	a->width = access_width(c);
	a->is_volatile = cursor_is_volatile(c);
	a->range = range_of(c);
	a->index = S->naccess++;
	struct sm_stmt *s = mk_stmt(S, SM_S_ACCESS, c);
	if (s) {
		s->access = a;
		emit(S, s);
	}
	return a;
}

/* The value of a shared lvalue read: unknown, per thread. */
static struct sm_expr *load_value(struct fe *S, CXCursor c, struct sm_access *a)
{
	struct sm_expr *e = mk_opaque(S, c, a && a->array ? a->array->name : "shared load", 1);
	if (e)
		e->place = a; /* resolve: a load through a uniform address is uniform */
	return e;
}

static int is_shared_lvalue(struct fe *S, CXCursor c)
{
	struct sm_access tmp;
	memset(&tmp, 0, sizeof(tmp));
	/* conv_place converts subscripts as a side effect; to keep the
	 * emitted statement order right it is only called for real once. */
	c = strip(c);
	enum CXCursorKind k = clang_getCursorKind(c);
	for (int guard = 0; guard < 16; guard++) {
		if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_MemberRefExpr ||
		    (k == CXCursor_UnaryOperator && unop_of(S, c) == '*')) {
			struct kids ks = kids_of(c);
			if (ks.n < 1)
				return 0;
			CXCursor base = strip(ks.c[0]);
			CXType bt = clang_getCanonicalType(clang_getCursorType(base));
			if (bt.kind == CXType_Pointer || k == CXCursor_UnaryOperator)
				return is_shared_ptr_expr(S, base);
			c = base;
			k = clang_getCursorKind(c);
			continue;
		}
		break;
	}
	if (k == CXCursor_DeclRefExpr)
		return array_of_decl(S, clang_getCursorReferenced(c)) != NULL;
	return 0;
}

static const char *call_name(struct fe *S, CXCursor c)
{
	return cx_str(S->A, clang_getCursorSpelling(c));
}

static struct sm_var *assign_target(struct fe *S, CXCursor lhs)
{
	lhs = strip(lhs);
	if (clang_getCursorKind(lhs) != CXCursor_DeclRefExpr)
		return NULL;
	return var_of(S, clang_getCursorReferenced(lhs));
}

static void emit_assign(struct fe *S, struct sm_var *v, enum sm_op op, struct sm_expr *val, CXCursor c)
{
	struct sm_stmt *s = mk_stmt(S, SM_S_ASSIGN, c);
	if (!s)
		return;
	s->var = v;
	s->op = op;
	s->value = val;
	emit(S, s);
	if (v->is_pointer && val && val->is_ptr)
		v->points_shared = 1;
}

static struct sm_expr *conv_call(struct fe *S, CXCursor c)
{
	const char *name = call_name(S, c);
	CXCursor args[8];
	int nargs = 0;
	int nk = clang_Cursor_getNumArguments(c);
	for (int i = 0; i < nk && i < 8; i++)
		args[nargs++] = clang_Cursor_getArgument(c, (unsigned)i);

	if (!strcmp(name, "__syncthreads") || !strcmp(name, "__syncthreads_count") ||
	    !strcmp(name, "__syncthreads_and") || !strcmp(name, "__syncthreads_or") ||
	    !strcmp(name, "__syncwarp") || !strcmp(name, "sync") ||
	    !strcmp(name, "__barrier_sync") || !strcmp(name, "barrier_sync")) {
		enum sm_barrier_kind bk = SM_BAR_SYNCTHREADS;
		if (!strcmp(name, "__syncwarp"))
			bk = SM_BAR_SYNCWARP;
		else if (!strcmp(name, "sync")) {
			/* cooperative_groups: block.sync() or cg::sync(block) */
			CXCursor ref = clang_getCursorReferenced(c);
			CXCursor parent = clang_getCursorSemanticParent(ref);
			const char *pn = cx_str(S->A, clang_getCursorSpelling(parent));
			int is_block = strstr(pn, "thread_block") != NULL;
			for (int i = 0; i < nargs && !is_block; i++) {
				const char *tn = cx_str(S->A, clang_getTypeSpelling(clang_getCursorType(args[i])));
				is_block = strstr(tn, "thread_block") != NULL;
			}
			if (!is_block) {
				/* grid or tile sync: not a block barrier we model */
				struct kids k2 = kids_of(c);
				if (k2.n > 0) {
					/* member call on an object: look at its type */
					CXCursor obj = k2.c[0];
					struct kids k3 = kids_of(obj);
					if (k3.n > 0) {
						const char *tn = cx_str(S->A, clang_getTypeSpelling(clang_getCursorType(k3.c[0])));
						is_block = strstr(tn, "thread_block") != NULL && !strstr(tn, "tile");
					}
				}
			}
			if (!is_block)
				return mk_opaque(S, c, name, 0);
			bk = SM_BAR_CG_SYNC;
		} else if (strcmp(name, "__syncthreads") != 0)
			bk = SM_BAR_SYNCTHREADS_OP;
		for (int i = 0; i < nargs; i++)
			(void)conv_expr(S, args[i]);
		struct sm_stmt *s = mk_stmt(S, SM_S_BARRIER, c);
		if (s) {
			s->barrier = bk;
			emit(S, s);
		}
		/* _count/_and/_or return a block-uniform value */
		return mk_opaque(S, c, name, 0);
	}
	if (!strncmp(name, "atomic", 6)) {
		struct sm_expr *val = NULL;
		for (int i = 1; i < nargs; i++)
			(void)conv_expr(S, args[i]);
		if (nargs >= 1) {
			CXCursor p = strip(args[0]);
			if (clang_getCursorKind(p) == CXCursor_UnaryOperator && unop_of(S, p) == '&') {
				struct kids k2 = kids_of(p);
				if (k2.n == 1)
					(void)emit_access(S, k2.c[0], SM_ACC_ATOMIC);
			} else if (is_shared_ptr_expr(S, p)) {
				struct sm_access tmp;
				memset(&tmp, 0, sizeof(tmp));
				struct sm_access *a = sm_arena_alloc(S->A, sizeof(*a));
				struct sm_stmt *s = mk_stmt(S, SM_S_ACCESS, c);
				if (a && s) {
					a->kind = SM_ACC_ATOMIC;
					a->base = conv_expr(S, p);
					a->idx[0] = mk_const(S, 0);
					a->nidx = 1;
					a->width = 4;
					a->range = range_of(c);
					a->index = S->naccess++;
					s->access = a;
					emit(S, s);
				}
			} else {
				(void)conv_expr(S, args[0]);
			}
		}
		val = mk_opaque(S, c, name, 1);
		return val;
	}
	if ((!strcmp(name, "min") || !strcmp(name, "max") || !strcmp(name, "umin") ||
	     !strcmp(name, "umax") || !strcmp(name, "std::min") || !strcmp(name, "std::max")) && nargs == 2) {
		struct sm_expr *a = conv_expr(S, args[0]);
		struct sm_expr *b = conv_expr(S, args[1]);
		return mk_bin(S, name[1] == 'i' || name[2] == 'i' ? SM_OP_MIN : SM_OP_MAX, a, b, c);
	}
	if (!strcmp(name, "__mul24") || !strcmp(name, "__umul24")) {
		if (nargs == 2)
			return mk_bin(S, SM_OP_MUL, conv_expr(S, args[0]), conv_expr(S, args[1]), c);
	}
	if (!strcmp(name, "dim3") || !strcmp(name, "thread_rank")) {
		if (!strcmp(name, "thread_rank")) {
			/* block.thread_rank() = linear thread id */
			struct sm_expr *tx = mk(S, SM_E_BUILTIN, c), *ty = mk(S, SM_E_BUILTIN, c), *tz = mk(S, SM_E_BUILTIN, c);
			struct sm_expr *nx = mk(S, SM_E_BUILTIN, c), *ny = mk(S, SM_E_BUILTIN, c);
			if (!tx || !ty || !tz || !nx || !ny)
				return NULL;
			tx->builtin = ty->builtin = tz->builtin = SM_B_TID;
			nx->builtin = ny->builtin = SM_B_NTID;
			ty->dim = 1; tz->dim = 2; ny->dim = 1;
			return mk_bin(S, SM_OP_ADD, tx,
				      mk_bin(S, SM_OP_MUL, nx, mk_bin(S, SM_OP_ADD, ty, mk_bin(S, SM_OP_MUL, ny, tz, clang_getNullCursor()), clang_getNullCursor()), clang_getNullCursor()),
				      clang_getNullCursor());
		}
	}
	if (!strcmp(name, "__brev") && nargs == 1) {
		struct sm_expr *e = mk(S, SM_E_UNARY, c);
		if (e) {
			e->op = SM_OP_BREV;
			e->a = conv_expr(S, args[0]);
			e->bits = 32;
			e->is_unsigned = 1;
		}
		return e;
	}
	/* a class-type assignment s[i] = v or s[i] += v is operator=/+= */
	if (!strncmp(name, "operator", 8) && nargs >= 1 && is_shared_lvalue(S, args[0])) {
		int is_assign = !strcmp(name, "operator=");
		int is_compound = strlen(name) >= 10 && name[strlen(name) - 1] == '=' &&
				  strcmp(name, "operator==") && strcmp(name, "operator!=") &&
				  strcmp(name, "operator<=") && strcmp(name, "operator>=");
		for (int i = 1; i < nargs; i++)
			(void)conv_expr(S, args[i]);
		if (is_assign || is_compound) {
			if (is_compound)
				(void)emit_access(S, args[0], SM_ACC_LOAD);
			(void)emit_access(S, args[0], SM_ACC_STORE);
			return mk_opaque(S, c, name, 1);
		}
	}
	/* any other call: evaluate the arguments (they may read shared memory),
	 * the result is unknown. A class-type shared element passed by value or
	 * reference (a copy constructor, an operator) is read. */
	int dep = 0;
	for (int i = 0; i < nargs; i++) {
		CXCursor ai = strip(args[i]);
		CXType at = clang_getCanonicalType(clang_getCursorType(ai));
		if (at.kind == CXType_Record && is_shared_lvalue(S, ai))
			(void)emit_access(S, ai, SM_ACC_LOAD);
		else
			(void)conv_expr(S, args[i]);
		dep = 1;
	}
	if (!strcmp(name, "clock") || !strcmp(name, "clock64") || !strncmp(name, "__shfl", 6) ||
	    !strncmp(name, "__ballot", 8) || !strcmp(name, "__activemask") || !strcmp(name, "__lane_id"))
		dep = 1;
	struct sm_stmt *s = mk_stmt(S, SM_S_OPAQUE_CALL, c);
	emit(S, s);
	return mk_opaque(S, c, name, dep);
}

static struct sm_expr *builtin_member(struct fe *S, CXCursor c)
{
	struct kids ks = kids_of(c);
	if (ks.n != 1 || clang_getCursorKind(ks.c[0]) != CXCursor_DeclRefExpr)
		return NULL;
	const char *b = cx_str(S->A, clang_getCursorSpelling(ks.c[0]));
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
	unsigned l1, c1;
	clang_getSpellingLocation(clang_getRangeStart(ext), &f1, &l1, &c1, NULL);
	const char *m = NULL;
	if (f1) {
		CXToken *tk = NULL;
		unsigned n = 0;
		clang_tokenize(S->tu, clang_getRange(clang_getLocation(S->tu, f1, l1, c1), clang_getLocation(S->tu, f1, l1 + 1, 1)),
			       &tk, &n);
		if (n >= 3)
			m = cx_str(S->A, clang_getTokenSpelling(S->tu, tk[2]));
		clang_disposeTokens(S->tu, tk, n);
	}
	if (!m) {
		struct toks t = tokens_of(S, c);
		if (!t.n)
			return NULL;
		m = t.s[t.n - 1];
	}
	int dim = !strcmp(m, "x") ? 0 : !strcmp(m, "y") ? 1 : !strcmp(m, "z") ? 2 : -1;
	if (dim < 0)
		return NULL;
	struct sm_expr *e = mk(S, SM_E_BUILTIN, c);
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
		struct sm_array *a = array_of_decl(S, clang_getCursorReferenced(c));
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

static struct sm_expr *conv_expr_inner(struct fe *S, CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	int64_t v;
	switch (k) {
	case CXCursor_IntegerLiteral:
	case CXCursor_CharacterLiteral:
	case CXCursor_CXXBoolLiteralExpr:
	case CXCursor_UnaryExpr: /* sizeof, alignof */
		mark_sizeof(S, c);
		if (try_eval_int(c, &v))
			return mk_const(S, v);
		return mk_opaque(S, c, "constant", 0);
	case CXCursor_FloatingLiteral:
		return mk_opaque(S, c, "floating constant", 0);
	case CXCursor_UnexposedExpr:
	case CXCursor_ParenExpr:
	case CXCursor_CStyleCastExpr:
	case CXCursor_CXXStaticCastExpr:
	case CXCursor_CXXFunctionalCastExpr: {
		struct kids ks = kids_of(c);
		CXCursor inner = clang_getNullCursor();
		int ne = 0;
		for (int i = 0; i < ks.n && i < 8; i++)
			if (clang_isExpression(clang_getCursorKind(ks.c[i]))) {
				inner = ks.c[i];
				ne++;
			}
		if (ne != 1) {
			if (try_eval_int(c, &v))
				return mk_const(S, v);
			for (int i = 0; i < ks.n && i < 8; i++)
				if (clang_isExpression(clang_getCursorKind(ks.c[i])))
					(void)conv_expr(S, ks.c[i]);
			return mk_opaque(S, c, "expression", 1);
		}
		/* an lvalue-to-rvalue read of a shared location is a load */
		if (k == CXCursor_UnexposedExpr && is_shared_lvalue(S, inner)) {
			CXType it = clang_getCanonicalType(clang_getCursorType(inner));
			if (it.kind != CXType_ConstantArray && it.kind != CXType_IncompleteArray &&
			    it.kind != CXType_Pointer) {
				struct sm_access *a = emit_access(S, inner, SM_ACC_LOAD);
				return load_value(S, c, a);
			}
		}
		struct sm_expr *e = conv_expr(S, inner);
		CXType t = clang_getCursorType(c);
		if (e && e->kind != SM_E_ADDR && !e->is_ptr && type_is_integer(t) &&
		    (k == CXCursor_CStyleCastExpr || k == CXCursor_CXXStaticCastExpr ||
		     k == CXCursor_CXXFunctionalCastExpr || type_bits(t) < 64)) {
			struct sm_expr *cst = mk(S, SM_E_CAST, c);
			if (cst) {
				cst->a = e;
				cst->bits = type_bits(t);
				cst->is_unsigned = type_is_unsigned(t);
			}
			return cst;
		}
		if (e && clang_getCanonicalType(t).kind == CXType_Pointer && (e->kind == SM_E_ADDR || e->is_ptr)) {
			/* (float*)&ints[n]: a carve; the element size changes */
			struct sm_expr *w = mk(S, SM_E_CAST, c);
			if (w) {
				*w = *e;
				w->range = range_of(c);
			}
			return w;
		}
		return e;
	}
	case CXCursor_DeclRefExpr: {
		CXCursor d = clang_getCursorReferenced(c);
		enum CXCursorKind dk = clang_getCursorKind(d);
		if (dk == CXCursor_EnumConstantDecl)
			return mk_const(S, clang_getEnumConstantDeclValue(d));
		struct sm_array *arr = array_of_decl(S, d);
		if (arr) {
			/* an array name decays to a pointer to its first element */
			arr->address_taken = true;
			struct sm_access *pl = sm_arena_alloc(S->A, sizeof(*pl));
			struct sm_expr *e = mk(S, SM_E_ADDR, c);
			if (!pl || !e)
				return NULL;
			pl->array = arr;
			e->place = pl;
			e->is_ptr = 1;
			return e;
		}
		struct sm_var *var = var_of(S, d);
		if (var) {
			struct sm_expr *e = mk(S, SM_E_VAR, c);
			if (e) {
				e->var = var;
				e->name = var->name;
				e->is_ptr = var->is_pointer && var->points_shared;
			}
			return e;
		}
		if (try_eval_int(c, &v))
			return mk_const(S, v);
		const char *n = cx_str(S->A, clang_getCursorSpelling(c));
		if (!strcmp(n, "warpSize"))
			return mk_const(S, 32);
		/* a global, a function name, ...: uniform and unknown */
		return mk_opaque(S, c, n, 0);
	}
	case CXCursor_MemberRefExpr: {
		struct sm_expr *b = builtin_member(S, c);
		if (b)
			return b;
		if (is_shared_lvalue(S, c)) {
			struct sm_access *a = emit_access(S, c, SM_ACC_LOAD);
			return load_value(S, c, a);
		}
		struct kids ks = kids_of(c);
		for (int i = 0; i < ks.n && i < 8; i++)
			(void)conv_expr(S, ks.c[i]);
		return mk_opaque(S, c, "member", 1);
	}
	case CXCursor_ArraySubscriptExpr: {
		/* reached only for non-load contexts (arrays of arrays decaying,
		 * or non-shared arrays): a shared row pointer or an unknown. */
		if (is_shared_ptr_expr(S, c)) {
			struct sm_access *pl = sm_arena_alloc(S->A, sizeof(*pl));
			struct sm_expr *e = mk(S, SM_E_ADDR, c);
			if (!pl || !e || !conv_place(S, c, pl))
				return mk_opaque(S, c, "row", 1);
			if (pl->array)
				pl->array->address_taken = true;
			e->place = pl;
			e->is_ptr = 1;
			return e;
		}
		struct kids ks = kids_of(c);
		for (int i = 0; i < ks.n && i < 8; i++)
			(void)conv_expr(S, ks.c[i]);
		/* a load from global or local memory: per thread */
		return mk_opaque(S, c, "memory load", 1);
	}
	case CXCursor_UnaryOperator: {
		struct kids ks = kids_of(c);
		if (ks.n != 1)
			return mk_opaque(S, c, "expression", 1);
		int op = unop_of(S, c);
		if (op == '&') {
			CXCursor in = strip(ks.c[0]);
			if (is_shared_ptr_expr(S, c)) {
				struct sm_access *pl = sm_arena_alloc(S->A, sizeof(*pl));
				struct sm_expr *e = mk(S, SM_E_ADDR, c);
				if (!pl || !e)
					return NULL;
				if (!conv_place(S, in, pl))
					return mk_opaque(S, c, "address", 0);
				if (pl->array)
					pl->array->address_taken = true;
				e->place = pl;
				e->is_ptr = 1;
				return e;
			}
			(void)conv_expr(S, in);
			return mk_opaque(S, c, "address", 0);
		}
		if (op == '*') {
			if (is_shared_lvalue(S, c)) {
				struct sm_access *a = emit_access(S, c, SM_ACC_LOAD);
				return load_value(S, c, a);
			}
			(void)conv_expr(S, ks.c[0]);
			return mk_opaque(S, c, "memory load", 1);
		}
		if (op == 'i' || op == 'd') {
			CXCursor tgt = strip(ks.c[0]);
			struct sm_var *var = assign_target(S, tgt);
			if (var) {
				struct sm_expr *e = mk(S, SM_E_VAR, tgt);
				if (e)
					e->var = var;
				emit_assign(S, var, op == 'i' ? SM_OP_ADD : SM_OP_SUB, mk_const(S, 1), c);
				return e;
			}
			if (is_shared_lvalue(S, tgt)) {
				/* ++s[i]: a load and a store of the same element; the
				 * subscripts are converted once per access */
				struct sm_access *a = emit_access(S, tgt, SM_ACC_LOAD);
				(void)emit_access(S, tgt, SM_ACC_STORE);
				return load_value(S, c, a);
			}
			(void)conv_expr(S, tgt);
			return mk_opaque(S, c, "increment", 1);
		}
		struct sm_expr *a = conv_expr(S, ks.c[0]);
		if (op == '+')
			return a;
		struct sm_expr *e = mk(S, SM_E_UNARY, c);
		if (!e)
			return NULL;
		e->op = op == '-' ? SM_OP_NEG : op == '!' ? SM_OP_NOT : SM_OP_BITNOT;
		e->a = a;
		CXType t = clang_getCursorType(c);
		e->bits = type_is_integer(t) ? type_bits(t) : 64;
		e->is_unsigned = type_is_unsigned(t);
		return e;
	}
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator: {
		struct kids ks = kids_of(c);
		if (ks.n != 2)
			return mk_opaque(S, c, "expression", 1);
		int is_assign, ok;
		enum sm_op op = binop_of(S, c, &is_assign, &ok);
		if (!ok) {
			/* comma, pointer-to-member, ...: evaluate both for effects */
			(void)conv_expr(S, ks.c[0]);
			return conv_expr(S, ks.c[1]);
		}
		if (is_assign) {
			CXCursor lhs = strip(ks.c[0]);
			struct sm_expr *rhs = conv_expr(S, ks.c[1]);
			struct sm_var *var = assign_target(S, lhs);
			if (var) {
				if (var->is_pointer && op != SM_OP_ASSIGN && rhs) {
					/* p += n: scale to bytes */
					rhs = mk_bin(S, SM_OP_MUL, rhs, mk_const(S, var->pointee_size ? var->pointee_size : 1), clang_getNullCursor());
					if (rhs)
						rhs->is_ptr = 0;
				}
				emit_assign(S, var, op, rhs, c);
				struct sm_expr *e = mk(S, SM_E_VAR, lhs);
				if (e)
					e->var = var;
				return e;
			}
			if (is_shared_lvalue(S, lhs)) {
				if (op != SM_OP_ASSIGN)
					(void)emit_access(S, lhs, SM_ACC_LOAD);
				(void)emit_access(S, lhs, SM_ACC_STORE);
				return rhs;
			}
			(void)conv_expr(S, lhs);
			return rhs;
		}
		if (op == SM_OP_LAND || op == SM_OP_LOR) {
			struct sm_expr *a = conv_expr(S, ks.c[0]);
			/* the right operand runs only when the left allows it */
			struct vec body = { 0 };
			struct vec *saved = S->block;
			S->block = &body;
			struct sm_expr *b = conv_expr(S, ks.c[1]);
			S->block = saved;
			if (body.n) {
				struct sm_stmt *iff = mk_stmt(S, SM_S_IF, c);
				struct sm_stmt *blk = mk_stmt(S, SM_S_BLOCK, ks.c[1]);
				if (iff && blk) {
					blk->kids = (struct sm_stmt **)body.v;
					blk->nkids = (int)body.n;
					iff->cond = op == SM_OP_LAND ? a : NULL;
					if (op == SM_OP_LOR) {
						struct sm_expr *na = mk(S, SM_E_UNARY, ks.c[0]);
						if (na) {
							na->op = SM_OP_NOT;
							na->a = a;
						}
						iff->cond = na;
					}
					iff->kids = sm_arena_alloc(S->A, 2 * sizeof(*iff->kids));
					if (iff->kids) {
						iff->kids[0] = blk;
						iff->nkids = 2;
					}
					emit(S, iff);
				}
			}
			return mk_bin(S, op, a, b, c);
		}
		struct sm_expr *a = conv_expr(S, ks.c[0]);
		struct sm_expr *b = conv_expr(S, ks.c[1]);
		if ((op == SM_OP_ADD || op == SM_OP_SUB) && a && b && (a->is_ptr || b->is_ptr)) {
			/* pointer arithmetic: scale the integer side to bytes */
			struct sm_expr *p = a->is_ptr ? a : b, *n = a->is_ptr ? b : a;
			CXType pt = clang_getCanonicalType(clang_getCursorType(c));
			long long sz = clang_Type_getSizeOf(clang_getPointeeType(pt));
			struct sm_expr *scaled = mk_bin(S, SM_OP_MUL, n, mk_const(S, sz > 0 ? sz : 1), clang_getNullCursor());
			struct sm_expr *e = mk_bin(S, op, p, scaled, c);
			if (e) {
				e->is_ptr = 1;
				e->bits = 64;
			}
			return e;
		}
		return mk_bin(S, op, a, b, c);
	}
	case CXCursor_ConditionalOperator: {
		struct kids ks = kids_of(c);
		if (ks.n != 3)
			return mk_opaque(S, c, "expression", 1);
		struct sm_expr *cond = conv_expr(S, ks.c[0]);
		struct sm_expr *br[2];
		struct sm_stmt *blocks[2] = { NULL, NULL };
		int any = 0;
		for (int i = 0; i < 2; i++) {
			struct vec body = { 0 };
			struct vec *saved = S->block;
			S->block = &body;
			br[i] = conv_expr(S, ks.c[1 + i]);
			S->block = saved;
			if (body.n) {
				blocks[i] = mk_stmt(S, SM_S_BLOCK, ks.c[1 + i]);
				if (blocks[i]) {
					blocks[i]->kids = (struct sm_stmt **)body.v;
					blocks[i]->nkids = (int)body.n;
				}
				any = 1;
			}
		}
		if (any) {
			struct sm_stmt *iff = mk_stmt(S, SM_S_IF, c);
			if (iff) {
				iff->cond = cond;
				iff->kids = sm_arena_alloc(S->A, 2 * sizeof(*iff->kids));
				if (iff->kids) {
					iff->kids[0] = blocks[0];
					iff->kids[1] = blocks[1];
					iff->nkids = 2;
				}
				emit(S, iff);
			}
		}
		struct sm_expr *e = mk(S, SM_E_COND, c);
		if (e) {
			e->a = cond;
			e->b = br[0];
			e->c = br[1];
			e->is_ptr = br[0] && br[0]->is_ptr;
		}
		return e;
	}
	case CXCursor_CallExpr:
		return conv_call(S, c);
	default: {
		if (try_eval_int(c, &v))
			return mk_const(S, v);
		struct kids ks = kids_of(c);
		for (int i = 0; i < ks.n && i < 8; i++)
			if (clang_isExpression(clang_getCursorKind(ks.c[i])))
				(void)conv_expr(S, ks.c[i]);
		return mk_opaque(S, c, "expression", 1);
	}
	}
}

static struct sm_expr *conv_expr(struct fe *S, CXCursor c)
{
	if (S->depth >= SM_FE_MAX_DEPTH || sm_stack_exhausted(S->stack_floor)) {
		S->too_deep = 1;
		return mk_opaque(S, c, "deeply nested expression", 1);
	}
	S->depth++;
	struct sm_expr *e = conv_expr_inner(S, c);
	S->depth--;
	return e;
}

/* ---------- declarations ---------- */

static int has_attr(CXCursor c, enum CXCursorKind attr);

struct field_ctx {
	struct fe *S;
	struct vec fields;
};

static enum CXVisitorResult field_visit(CXCursor c, CXClientData d)
{
	struct field_ctx *fc = d;
	struct sm_field *f = sm_arena_alloc(fc->S->A, sizeof(*f));
	if (!f)
		return CXVisit_Break;
	f->name = cx_str(fc->S->A, clang_getCursorSpelling(c));
	long long off = clang_Cursor_getOffsetOfField(c);
	long long sz = clang_Type_getSizeOf(clang_getCursorType(c));
	f->offset = off > 0 ? (unsigned)(off / 8) : 0;
	f->size = sz > 0 ? (unsigned)sz : 0;
	vec_push(fc->S->A, &fc->fields, f);
	return CXVisit_Continue;
}

/* Find the "[..][..]" token range after the declared name. */
static struct sm_range dims_range(struct fe *S, CXCursor decl, const char *name)
{
	struct sm_range r = { { 0, 0 }, { 0, 0 } };
	CXToken *tk = NULL;
	unsigned n = 0;
	clang_tokenize(S->tu, file_extent(S, decl), &tk, &n);
	int seen_name = 0, depth = 0;
	for (unsigned i = 0; i < n; i++) {
		CXString s = clang_getTokenSpelling(S->tu, tk[i]);
		const char *t = clang_getCString(s);
		if (!seen_name) {
			if (t && !strcmp(t, name))
				seen_name = 1;
		} else if (t && !strcmp(t, "[")) {
			if (depth == 0 && r.begin.line == 0)
				r.begin = pos_of(clang_getTokenLocation(S->tu, tk[i]));
			depth++;
		} else if (t && !strcmp(t, "]")) {
			depth--;
			if (depth == 0) {
				CXSourceRange tr = clang_getTokenExtent(S->tu, tk[i]);
				r.end = pos_of(clang_getRangeEnd(tr));
			}
		} else if (depth == 0 && r.begin.line) {
			clang_disposeString(s);
			break;
		}
		clang_disposeString(s);
	}
	clang_disposeTokens(S->tu, tk, n);
	return r;
}

static struct sm_array *make_array(struct fe *S, CXCursor decl, int file_scope)
{
	struct sm_array *a = sm_arena_alloc(S->A, sizeof(*a));
	if (!a)
		return NULL;
	a->name = cx_str(S->A, clang_getCursorSpelling(decl));
	a->decl = range_of(decl);
	a->is_file_scope = file_scope;
	CXType t = clang_getCursorType(decl);
	CXType ct = clang_getCanonicalType(t);
	CXType et = t;
	int nd = 0;
	unsigned __int128 total = 1;
	for (;;) {
		CXType cc = clang_getCanonicalType(et);
		if (cc.kind == CXType_ConstantArray) {
			long long n = clang_getArraySize(cc);
			if (nd < SM_MAX_DIMS)
				a->dims[nd] = n;
			nd++;
			if (n <= 0)
				a->dims_overflow = a->dims_overflow || n < 0;
			else
				total *= (unsigned long long)n;
			if (total > ((unsigned __int128)1 << 63))
				a->dims_overflow = 1;
			et = clang_getArrayElementType(et);
		} else if (cc.kind == CXType_IncompleteArray) {
			if (nd < SM_MAX_DIMS)
				a->dims[nd] = 0;
			nd++;
			a->is_dynamic = 1;
			et = clang_getArrayElementType(et);
		} else if (et.kind == CXType_Elaborated || et.kind == CXType_Typedef) {
			/* keep the spelled type but look through for arrays */
			CXType nt = clang_Type_getNamedType(et);
			if (nt.kind == CXType_Invalid || nt.kind == et.kind) {
				if (cc.kind == CXType_ConstantArray || cc.kind == CXType_IncompleteArray)
					et = cc;
				else
					break;
			} else {
				et = nt;
			}
		} else {
			break;
		}
	}
	(void)ct;
	if (nd > SM_MAX_DIMS) {
		a->ndims = SM_MAX_DIMS;
		a->dims_overflow = 1;
	} else {
		a->ndims = nd;
	}
	if (has_attr(decl, CXCursor_UnexposedAttr) && clang_getCursorLinkage(decl) == CXLinkage_External && nd && a->dims[0] == 0)
		a->is_dynamic = 1;
	a->elem_type = cx_str(S->A, clang_getTypeSpelling(clang_getUnqualifiedType(et)));
	CXType ec = clang_getCanonicalType(et);
	long long sz = clang_Type_getSizeOf(ec);
	long long al = clang_Type_getAlignOf(ec);
	a->elem_size = sz > 0 ? (unsigned)sz : 1;
	a->elem_align = al > 0 ? (unsigned)al : 1;
	if (sz > 0 && total * (unsigned long long)sz > ((unsigned __int128)1 << 63))
		a->dims_overflow = 1;
	if (ec.kind == CXType_Record) {
		struct field_ctx fc = { S, { 0 } };
		clang_Type_visitFields(ec, field_visit, &fc);
		a->fields = sm_arena_alloc(S->A, (fc.fields.n + 1) * sizeof(struct sm_field));
		if (a->fields) {
			for (unsigned i = 0; i < fc.fields.n; i++)
				a->fields[i] = *(struct sm_field *)fc.fields.v[i];
			a->nfields = (int)fc.fields.n;
		}
	}
	a->dims_range = dims_range(S, decl, a->name);
	a->index = S->all_arrays.n;
	vec_push(S->A, &S->all_arrays, a);
	cmap_put(&S->arrays, clang_getCanonicalCursor(decl), a);
	return a;
}

struct attr_find {
	enum CXCursorKind kind;
	int found;
};

static enum CXChildVisitResult attr_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	struct attr_find *af = d;
	if (clang_getCursorKind(c) == af->kind) {
		af->found = 1;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

static int has_attr(CXCursor c, enum CXCursorKind attr)
{
	struct attr_find af = { attr, 0 };
	clang_visitChildren(c, attr_visit, &af);
	return af.found;
}

static struct sm_var *make_var(struct fe *S, CXCursor decl, enum sm_var_kind kind)
{
	struct sm_var *v = sm_arena_alloc(S->A, sizeof(*v));
	if (!v)
		return NULL;
	v->name = cx_str(S->A, clang_getCursorSpelling(decl));
	v->kind = kind;
	CXType t = clang_getCanonicalType(clang_getCursorType(decl));
	v->is_pointer = t.kind == CXType_Pointer;
	v->is_const = clang_isConstQualifiedType(clang_getCursorType(decl));
	if (v->is_pointer) {
		long long s = clang_Type_getSizeOf(clang_getPointeeType(t));
		v->pointee_size = s > 0 ? (unsigned)s : 1;
	}
	v->decl = range_of(decl);
	v->id = S->kvars.n;
	vec_push(S->A, &S->kvars, v);
	cmap_put(&S->vars, decl, v);
	return v;
}

static void conv_vardecl(struct fe *S, CXCursor d)
{
	if (has_attr(d, CXCursor_CUDASharedAttr)) {
		struct sm_array *a = make_array(S, d, 0);
		if (a)
			vec_push(S->A, &S->karrays, a);
		return;
	}
	struct sm_var *v = make_var(S, d, SM_V_LOCAL);
	if (!v)
		return;
	/* the initializer is the last expression child */
	struct kids ks = kids_of(d);
	CXCursor init = clang_getNullCursor();
	for (int i = 0; i < ks.n && i < 8; i++)
		if (clang_isExpression(clang_getCursorKind(ks.c[i])))
			init = ks.c[i];
	struct sm_expr *val = NULL;
	CXType vt = clang_getCanonicalType(clang_getCursorType(d));
	if (!clang_Cursor_isNull(init)) {
		val = conv_expr(S, init);
		if (vt.kind == CXType_ConstantArray || vt.kind == CXType_Record)
			val = NULL; /* local arrays and structs: not modelled */
	}
	if (v->is_pointer && val && val->is_ptr)
		v->points_shared = 1;
	struct sm_stmt *s = mk_stmt(S, SM_S_DECL, d);
	if (s) {
		s->var = v;
		s->value = val;
		emit(S, s);
	}
}

/* ---------- statements ---------- */

static struct sm_stmt *conv_block(struct fe *S, CXCursor c);

static struct sm_stmt *conv_stmt(struct fe *S, CXCursor c)
{
	struct vec body = { 0 };
	struct vec *saved = S->block;
	S->block = &body;
	conv_stmt_into(S, c);
	S->block = saved;
	if (body.n == 1)
		return body.v[0];
	struct sm_stmt *b = mk_stmt(S, SM_S_BLOCK, c);
	if (b) {
		b->kids = (struct sm_stmt **)body.v;
		b->nkids = (int)body.n;
	}
	return b;
}

static enum CXChildVisitResult block_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	conv_stmt_into(d, c);
	return CXChildVisit_Continue;
}

static struct sm_stmt *conv_block(struct fe *S, CXCursor c)
{
	struct vec body = { 0 };
	struct vec *saved = S->block;
	S->block = &body;
	clang_visitChildren(c, block_visit, S);
	S->block = saved;
	struct sm_stmt *b = mk_stmt(S, SM_S_BLOCK, c);
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
	struct kids ks = kids_of(c);
	if (ks.n < 1 || ks.n > 8)
		return;
	CXCursor body = ks.c[ks.n - 1];
	/* find the two ';' of the header to classify init/cond/inc */
	struct toks t = tokens_of(S, c);
	struct sm_pos semi[2] = { { 0, 0 }, { 0, 0 } };
	int ns = 0, depth = 0;
	for (unsigned i = 0; i < t.n && ns < 2; i++) {
		if (!strcmp(t.s[i], "(")) depth++;
		else if (!strcmp(t.s[i], ")")) depth--;
		else if (!strcmp(t.s[i], ";") && depth == 1) semi[ns++] = t.pos[i];
	}
	CXCursor init = clang_getNullCursor(), cond = clang_getNullCursor(), inc = clang_getNullCursor();
	for (int i = 0; i < ks.n - 1; i++) {
		struct sm_range r = range_of(ks.c[i]);
		if (ns == 2 && pos_lt(r.begin, semi[0]))
			init = ks.c[i];
		else if (ns == 2 && pos_lt(r.begin, semi[1]))
			cond = ks.c[i];
		else
			inc = ks.c[i];
	}
	struct sm_stmt *loop = mk_stmt(S, SM_S_LOOP, c);
	if (!loop)
		return;
	struct sm_stmt *sinit = NULL, *sbody, *sstep = NULL;
	if (!clang_Cursor_isNull(init))
		sinit = conv_stmt(S, init);
	/* accesses in the condition run every iteration: put them at the top
	 * of the body as well */
	struct vec condv = { 0 };
	struct vec *saved = S->block;
	S->block = &condv;
	if (!clang_Cursor_isNull(cond))
		loop->cond = conv_expr(S, cond);
	S->block = saved;
	sbody = clang_getCursorKind(body) == CXCursor_CompoundStmt ? conv_block(S, body) : conv_stmt(S, body);
	if (condv.n && sbody) {
		struct sm_stmt *nb = mk_stmt(S, SM_S_BLOCK, body);
		struct vec all = { 0 };
		for (unsigned i = 0; i < condv.n; i++)
			vec_push(S->A, &all, condv.v[i]);
		vec_push(S->A, &all, sbody);
		if (nb) {
			nb->kids = (struct sm_stmt **)all.v;
			nb->nkids = (int)all.n;
			sbody = nb;
		}
	}
	if (!clang_Cursor_isNull(inc))
		sstep = conv_stmt(S, inc);
	loop->kids = kids2(S, sinit, sbody, sstep);
	loop->nkids = 3;
	emit(S, loop);
}

static void conv_while(struct fe *S, CXCursor c, int is_do)
{
	struct kids ks = kids_of(c);
	if (ks.n != 2)
		return;
	CXCursor cond = is_do ? ks.c[1] : ks.c[0];
	CXCursor body = is_do ? ks.c[0] : ks.c[1];
	struct sm_stmt *loop = mk_stmt(S, SM_S_LOOP, c);
	if (!loop)
		return;
	loop->is_do_while = is_do;
	struct vec condv = { 0 };
	struct vec *saved = S->block;
	S->block = &condv;
	if (clang_getCursorKind(cond) == CXCursor_VarDecl) {
		conv_vardecl(S, cond);
	} else {
		loop->cond = conv_expr(S, cond);
	}
	S->block = saved;
	struct sm_stmt *sbody = conv_stmt(S, body);
	if (condv.n) {
		struct vec all = { 0 };
		if (!is_do)
			for (unsigned i = 0; i < condv.n; i++)
				vec_push(S->A, &all, condv.v[i]);
		vec_push(S->A, &all, sbody);
		if (is_do)
			for (unsigned i = 0; i < condv.n; i++)
				vec_push(S->A, &all, condv.v[i]);
		struct sm_stmt *nb = mk_stmt(S, SM_S_BLOCK, body);
		if (nb) {
			nb->kids = (struct sm_stmt **)all.v;
			nb->nkids = (int)all.n;
			sbody = nb;
		}
	}
	loop->kids = kids2(S, NULL, sbody, NULL);
	loop->nkids = 3;
	emit(S, loop);
}

static int asm_is_barrier(struct fe *S, CXCursor c)
{
	struct toks t = tokens_of(S, c);
	for (unsigned i = 0; i < t.n; i++)
		if (t.s[i][0] == '"' && (strstr(t.s[i], "bar.sync") || strstr(t.s[i], "barrier.sync") ||
					 strstr(t.s[i], "bar.red") || strstr(t.s[i], "barrier.cta")))
			return 1;
	return 0;
}

static enum CXChildVisitResult decl_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	if (clang_getCursorKind(c) == CXCursor_VarDecl)
		conv_vardecl(d, c);
	return CXChildVisit_Continue;
}

static enum CXChildVisitResult body_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	if (clang_getCursorKind(c) == CXCursor_CompoundStmt)
		*(CXCursor *)d = c;
	return CXChildVisit_Continue;
}

static void conv_stmt_into(struct fe *S, CXCursor c)
{
	if (S->depth >= SM_FE_MAX_DEPTH || sm_stack_exhausted(S->stack_floor)) {
		S->too_deep = 1;
		return;
	}
	S->depth++;
	enum CXCursorKind k = clang_getCursorKind(c);
	switch (k) {
	case CXCursor_CompoundStmt:
		emit(S, conv_block(S, c));
		break;
	case CXCursor_DeclStmt:
		/* every declarator, in order: int a = .., b = .., ... */
		clang_visitChildren(c, decl_visit, S);
		break;
	case CXCursor_IfStmt: {
		struct kids ks = kids_of(c);
		if (ks.n < 2 || ks.n > 4)
			break;
		int i = 0;
		if (ks.n == 4 || clang_getCursorKind(ks.c[0]) == CXCursor_DeclStmt ||
		    clang_getCursorKind(ks.c[0]) == CXCursor_VarDecl) {
			if (clang_getCursorKind(ks.c[0]) == CXCursor_VarDecl)
				conv_vardecl(S, ks.c[0]);
			else
				conv_stmt_into(S, ks.c[0]);
			i = 1;
		}
		struct sm_stmt *s = mk_stmt(S, SM_S_IF, c);
		if (!s)
			break;
		s->cond = conv_expr(S, ks.c[i]);
		struct sm_stmt *th = i + 1 < ks.n ? conv_stmt(S, ks.c[i + 1]) : NULL;
		struct sm_stmt *el = i + 2 < ks.n ? conv_stmt(S, ks.c[i + 2]) : NULL;
		s->kids = kids2(S, th, el, NULL);
		s->nkids = 2;
		emit(S, s);
		break;
	}
	case CXCursor_ForStmt:
		conv_for(S, c);
		break;
	case CXCursor_WhileStmt:
		conv_while(S, c, 0);
		break;
	case CXCursor_DoStmt:
		conv_while(S, c, 1);
		break;
	case CXCursor_SwitchStmt: {
		struct kids ks = kids_of(c);
		if (ks.n < 2)
			break;
		struct sm_stmt *s = mk_stmt(S, SM_S_SWITCH, c);
		if (!s)
			break;
		s->cond = conv_expr(S, ks.c[ks.n - 2]);
		s->kids = kids2(S, conv_stmt(S, ks.c[ks.n - 1]), NULL, NULL);
		s->nkids = 1;
		emit(S, s);
		break;
	}
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt:
	case CXCursor_LabelStmt: {
		struct kids ks = kids_of(c);
		if (ks.n >= 1)
			conv_stmt_into(S, ks.c[ks.n - 1]);
		break;
	}
	case CXCursor_ReturnStmt: {
		struct kids ks = kids_of(c);
		if (ks.n == 1)
			(void)conv_expr(S, ks.c[0]);
		emit(S, mk_stmt(S, SM_S_RETURN, c));
		break;
	}
	case CXCursor_BreakStmt:
		emit(S, mk_stmt(S, SM_S_BREAK, c));
		break;
	case CXCursor_ContinueStmt:
		emit(S, mk_stmt(S, SM_S_CONTINUE, c));
		break;
	case CXCursor_GotoStmt:
	case CXCursor_IndirectGotoStmt:
		emit(S, mk_stmt(S, SM_S_GOTO, c));
		break;
	case CXCursor_GCCAsmStmt:
		if (asm_is_barrier(S, c)) {
			struct sm_stmt *s = mk_stmt(S, SM_S_BARRIER, c);
			if (s) {
				s->barrier = SM_BAR_ASM;
				emit(S, s);
			}
		}
		break;
	case CXCursor_NullStmt:
		break;
	default:
		if (clang_isExpression(k))
			(void)conv_expr(S, c);
		else if (clang_isStatement(k))
			/* AttributedStmt (#pragma unroll), other wrappers: their
			 * children are statements in order */
			clang_visitChildren(c, block_visit, S);
		break;
	}
	S->depth--;
}

/* ---------- kernels, launches ---------- */

static int64_t launch_bounds_of(struct fe *S, CXCursor fn)
{
	struct toks t = tokens_of(S, fn);
	for (unsigned i = 0; i + 2 < t.n; i++) {
		if (!strcmp(t.s[i], "{"))
			break;
		if (!strcmp(t.s[i], "__launch_bounds__") && !strcmp(t.s[i + 1], "(")) {
			const char *v = t.s[i + 2];
			if (isdigit((unsigned char)v[0]))
				return strtoll(v, NULL, 0);
			/* a macro: find its #define in the file text */
			const char *p = S->F->text;
			size_t vl = strlen(v);
			while (p && (p = strstr(p, "#define")) != NULL) {
				const char *q = p + 7;
				while (*q == ' ' || *q == '\t')
					q++;
				if (!strncmp(q, v, vl) && (q[vl] == ' ' || q[vl] == '\t')) {
					q += vl;
					while (*q == ' ' || *q == '\t' || *q == '(')
						q++;
					if (isdigit((unsigned char)*q))
						return strtoll(q, NULL, 0);
				}
				p += 7;
			}
			return 0;
		}
	}
	return 0;
}

static struct sm_kernel *convert_function(struct fe *S, CXCursor fn, const char *tmpl_args)
{
	struct sm_kernel *K = sm_arena_alloc(S->A, sizeof(*K));
	if (!K)
		return NULL;
	const char *base = cx_str(S->A, clang_getCursorSpelling(fn));
	K->name = tmpl_args ? sm_arena_printf(S->A, "%s%s", base, tmpl_args) : base;
	K->template_args = tmpl_args;
	K->kind = has_attr(fn, CXCursor_CUDAGlobalAttr) ? SM_F_KERNEL : SM_F_DEVICE;
	K->range = range_of(fn);
	K->launch_bounds = launch_bounds_of(S, fn);
	S->K = K;
	memset(&S->kvars, 0, sizeof(S->kvars));
	memset(&S->karrays, 0, sizeof(S->karrays));
	cmap_free(&S->vars);
	S->naccess = 0;
	int n = clang_Cursor_getNumArguments(fn);
	for (int i = 0; i < n; i++)
		(void)make_var(S, clang_Cursor_getArgument(fn, (unsigned)i), SM_V_PARAM);
	/* the body: the function's compound statement child (after any
	 * number of parameters and attributes) */
	CXCursor body = clang_getNullCursor();
	clang_visitChildren(fn, body_visit, &body);
	if (!clang_Cursor_isNull(body))
		K->body = conv_block(S, body);
	K->vars = (struct sm_var **)S->kvars.v;
	K->nvars = S->kvars.n;
	K->arrays = (struct sm_array **)S->karrays.v;
	K->narrays = S->karrays.n;
	K->naccesses = S->naccess;
	vec_push(S->A, &S->all_kernels, K);
	S->K = NULL;
	return K;
}

/* Evaluate a dim3-valued launch argument: dim3(a,b,c), an integer, or a
 * variable initialised with one of those. */
static int eval_dim3(struct fe *S, CXCursor c, struct sm_dim3 *out, int depth)
{
	if (depth > 4)
		return 0;
	c = strip(c);
	out->x = out->y = out->z = 1;
	int64_t v;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_CallExpr || k == CXCursor_UnexposedExpr) {
		int n = clang_Cursor_getNumArguments(c);
		if (n <= 0) {
			struct kids ks = kids_of(c);
			int got = 0;
			int64_t vals[3] = { 1, 1, 1 };
			for (int i = 0; i < ks.n && i < 8; i++) {
				if (!clang_isExpression(clang_getCursorKind(ks.c[i])))
					continue;
				if (got == 0 && ks.n == 1) {
					struct sm_dim3 inner;
					if (eval_dim3(S, ks.c[i], &inner, depth + 1)) {
						*out = inner;
						return 1;
					}
				}
				if (got < 3 && try_eval_int(ks.c[i], &vals[got]))
					got++;
				else
					return 0;
			}
			if (!got)
				return try_eval_int(c, &out->x);
			out->x = vals[0];
			out->y = vals[1];
			out->z = vals[2];
			return 1;
		}
		int64_t vals[3] = { 1, 1, 1 };
		for (int i = 0; i < n && i < 3; i++) {
			CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);
			if (0)
				continue;
			if (n == 1) {
				struct sm_dim3 inner;
				if (eval_dim3(S, a, &inner, depth + 1)) {
					*out = inner;
					return 1;
				}
			}
			if (!try_eval_int(a, &vals[i])) {
				/* a default argument shows as an unexposed expr */
				if (clang_getCursorKind(a) == CXCursor_UnexposedExpr && kids_of(a).n == 0)
					continue;
				return 0;
			}
		}
		out->x = vals[0];
		out->y = vals[1];
		out->z = vals[2];
		return 1;
	}
	if (try_eval_int(c, &v)) {
		out->x = v;
		return 1;
	}
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		if (clang_getCursorKind(d) == CXCursor_VarDecl) {
			if (try_eval_int(d, &v)) {
				out->x = v;
				return 1;
			}
			struct kids ks = kids_of(d);
			for (int i = ks.n - 1; i >= 0 && i < 8; i--)
				if (clang_isExpression(clang_getCursorKind(ks.c[i])))
					return eval_dim3(S, ks.c[i], out, depth + 1);
			/* dim3 b(16, 16): a constructor call child */
		}
	}
	return 0;
}

struct launch_ctx {
	struct fe *S;
	struct vec specs; /* template specializations to convert */
	struct vec launches; /* pending: struct pending_launch */
};

struct pending_launch {
	CXCursor kernel; /* referenced decl (maybe a specialization) */
	struct sm_launch L;
};

static int is_config_call(struct fe *S, CXCursor c)
{
	if (clang_getCursorKind(c) != CXCursor_CallExpr)
		return 0;
	const char *n = cx_str(S->A, clang_getCursorSpelling(c));
	return !strcmp(n, "__cudaPushCallConfiguration") || !strcmp(n, "cudaConfigureCall");
}

static enum CXChildVisitResult launch_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	struct launch_ctx *lc = d;
	struct fe *S = lc->S;
	if (clang_getCursorKind(c) == CXCursor_CallExpr) {
		struct kids ks = kids_of(c);
		int cfg = -1;
		for (int i = 0; i < ks.n && i < 8; i++)
			if (is_config_call(S, strip(ks.c[i])))
				cfg = i;
		if (cfg >= 0 && in_main_file(S, c)) {
			CXCursor callee = clang_getCursorReferenced(c);
			struct pending_launch *pl = sm_arena_alloc(S->A, sizeof(*pl));
			if (pl) {
				pl->kernel = callee;
				pl->L.range = range_of(c);
				CXCursor conf = strip(ks.c[cfg]);
				int na = clang_Cursor_getNumArguments(conf);
				pl->L.dyn_smem = -1;
				if (na >= 2)
					pl->L.block_known = eval_dim3(S, clang_Cursor_getArgument(conf, 1), &pl->L.block, 0) &&
							    pl->L.block.x > 0 && pl->L.block.y > 0 && pl->L.block.z > 0;
				if (na >= 3) {
					int64_t v;
					if (try_eval_int(clang_Cursor_getArgument(conf, 2), &v))
						pl->L.dyn_smem = v;
				} else {
					pl->L.dyn_smem = 0;
				}
				vec_push(S->A, &lc->launches, pl);
			}
		}
	}
	return CXChildVisit_Recurse;
}

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	struct launch_ctx *lc = d;
	struct fe *S = lc->S;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl) {
		clang_visitChildren(c, top_visit, d);
		return CXChildVisit_Continue;
	}
	if (!in_main_file(S, c))
		return CXChildVisit_Continue;
	if (k == CXCursor_VarDecl && has_attr(c, CXCursor_CUDASharedAttr)) {
		if (!array_of_decl(S, c))
			(void)make_array(S, c, 1);
		return CXChildVisit_Continue;
	}
	if ((k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod) && clang_isCursorDefinition(c)) {
		if (has_attr(c, CXCursor_CUDAGlobalAttr) || has_attr(c, CXCursor_CUDADeviceAttr)) {
			struct sm_kernel *K = convert_function(S, c, NULL);
			if (K)
				cmap_put(&S->kernels, clang_getCanonicalCursor(c), K);
		}
		if (!has_attr(c, CXCursor_CUDAGlobalAttr) && !has_attr(c, CXCursor_CUDADeviceAttr))
			clang_visitChildren(c, launch_visit, d);
		else if (has_attr(c, CXCursor_CUDAHostAttr))
			clang_visitChildren(c, launch_visit, d);
		return CXChildVisit_Continue;
	}
	return CXChildVisit_Continue;
}

static const char *template_args_text(struct fe *S, CXCursor spec)
{
	int n = clang_Cursor_getNumTemplateArguments(spec);
	if (n <= 0)
		return NULL;
	char buf[256];
	size_t len = 0;
	buf[len++] = '<';
	for (int i = 0; i < n && len < sizeof(buf) - 40; i++) {
		if (i)
			buf[len++] = ',';
		enum CXTemplateArgumentKind ak = clang_Cursor_getTemplateArgumentKind(spec, (unsigned)i);
		if (ak == CXTemplateArgumentKind_Integral) {
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%lld",
						clang_Cursor_getTemplateArgumentValue(spec, (unsigned)i));
		} else if (ak == CXTemplateArgumentKind_Type) {
			CXString s = clang_getTypeSpelling(clang_Cursor_getTemplateArgumentType(spec, (unsigned)i));
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s", clang_getCString(s));
			clang_disposeString(s);
		} else {
			buf[len++] = '?';
		}
		if (len >= sizeof(buf) - 40)
			break;
	}
	if (len < sizeof(buf) - 1)
		buf[len++] = '>';
	buf[len] = 0;
	return sm_arena_strdup(S->A, buf);
}

static void collect_notes(struct fe *S)
{
	unsigned n = clang_getNumDiagnostics(S->tu);
	struct vec notes = { 0 };
	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(S->tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		if (sev >= CXDiagnostic_Error) {
			struct sm_note *note = sm_arena_alloc(S->A, sizeof(*note));
			if (note) {
				CXFile f = NULL;
				unsigned line = 0, col = 0;
				clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, &line, &col, NULL);
				note->level = 2;
				if (f && clang_File_isEqual(f, S->main_file)) {
					note->pos.line = line;
					note->pos.col = col;
					note->message = cx_str(S->A, clang_getDiagnosticSpelling(d));
				} else {
					const char *fn = f ? cx_str(S->A, clang_getFileName(f)) : NULL;
					const char *msg = cx_str(S->A, clang_getDiagnosticSpelling(d));
					note->message = fn ? sm_arena_printf(S->A, "%s (in %s:%u)", msg, fn, line) : msg;
				}
				vec_push(S->A, &notes, note);
			}
		}
		clang_disposeDiagnostic(d);
		if (notes.n >= 50)
			break;
	}
	S->F->notes = sm_arena_alloc(S->A, (notes.n + 1) * sizeof(struct sm_note));
	if (S->F->notes) {
		for (unsigned i = 0; i < notes.n; i++)
			S->F->notes[i] = *(struct sm_note *)notes.v[i];
		S->F->nnotes = notes.n;
	}
}

/* Toolkit headers that code includes by name; without a toolkit each is an
 * empty file in a virtual directory (everything is in the forced stub). */
#define SM_CUDA_STUB_DIR "/<smemlint>/include"
#define SM_NSTUB_INCLUDES 12
static const struct {
	const char *path;
} sm_stub_includes[SM_NSTUB_INCLUDES] = {
	{ SM_CUDA_STUB_DIR "/cuda_runtime.h" },      { SM_CUDA_STUB_DIR "/cuda_runtime_api.h" },
	{ SM_CUDA_STUB_DIR "/cuda.h" },              { SM_CUDA_STUB_DIR "/cuda_fp16.h" },
	{ SM_CUDA_STUB_DIR "/cuda_bf16.h" },         { SM_CUDA_STUB_DIR "/cooperative_groups.h" },
	{ SM_CUDA_STUB_DIR "/device_launch_parameters.h" }, { SM_CUDA_STUB_DIR "/math_constants.h" },
	{ SM_CUDA_STUB_DIR "/device_functions.h" },  { SM_CUDA_STUB_DIR "/vector_types.h" },
	{ SM_CUDA_STUB_DIR "/cuda_fp16.hpp" },       { SM_CUDA_STUB_DIR "/driver_types.h" },
};
static const char sm_stub_include_text[] = "#pragma once\n/* provided by smemlint_cuda.h */\n";

int sm_frontend_args(const struct sm_frontend_options *opt, const char **argv, int max,
		     struct sm_arena *A)
{
	int n = 0;
#define ADD(s) do { if (n < max) argv[n++] = (s); } while (0)
	ADD("-x");
	ADD("cuda");
	ADD("--cuda-device-only");
	ADD(sm_arena_printf(A, "--cuda-gpu-arch=%s", opt->gpu_arch ? opt->gpu_arch : "sm_90"));
	ADD("-nocudalib");
	ADD("-Wno-unknown-cuda-version");
	ADD("-Xclang");
	ADD("-target-sdk-version=12.9");
	ADD("-std=c++17");
	ADD("-w");
	if (opt->cuda_path) {
		ADD(sm_arena_printf(A, "--cuda-path=%s", opt->cuda_path));
		/* CUDA 13 keeps libcu++ (cuda/std/...), CUB and Thrust under
		 * include/cccl, which nvcc adds by itself and clang does not */
		const char *cccl = sm_arena_printf(A, "%s/include/cccl", opt->cuda_path);
		if (cccl && access(cccl, R_OK) == 0) {
			ADD("-isystem");
			ADD(cccl);
		}
	} else {
		ADD("-nocudainc");
		ADD("-include");
		ADD(SM_CUDA_STUB_PATH);
		ADD("-isystem");
		ADD(SM_CUDA_STUB_DIR);
	}
	if (opt->pch) {
		ADD("-include-pch");
		ADD(opt->pch);
	}
	for (int i = 0; i < opt->nargs; i++)
		ADD(opt->args[i]);
#undef ADD
	return n;
}

/* Did loading the precompiled header fail? Any error that names it or
 * precompiled headers / AST files (stale input files, a corrupt or foreign
 * file, mismatched macros) counts. */
static int pch_problem(CXTranslationUnit tu, const char *pch)
{
	unsigned n = clang_getNumDiagnostics(tu);
	int bad = 0;
	for (unsigned i = 0; i < n && !bad; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
			CXString s = clang_getDiagnosticSpelling(d);
			const char *m = clang_getCString(s);
			if (m && (strstr(m, pch) || strstr(m, "precompiled") || strstr(m, "AST file") || strstr(m, "PCH")))
				bad = 1;
			clang_disposeString(s);
		}
		clang_disposeDiagnostic(d);
	}
	return bad;
}

int sm_frontend_pch_rejected(const struct sm_frontend *fe)
{
	return fe ? fe->pch_rejected : 0;
}

int sm_frontend_build_pch(struct sm_frontend *fe, const struct sm_frontend_options *opt, const char *out, char *err,
			  size_t errlen)
{
	struct sm_arena A;
	sm_arena_init(&A, 0);
	struct sm_frontend_options o = *opt;
	o.pch = NULL;
	const char *argv[128];
	int argc = sm_frontend_args(&o, argv, 128, &A);
	static const char main_name[] = "/<smemlint>/smemlint_pch.cu";
	struct CXUnsavedFile unsaved[2];
	unsaved[0].Filename = main_name;
	unsaved[0].Contents = "";
	unsaved[0].Length = 0;
	unsaved[1].Filename = SM_CUDA_STUB_PATH;
	unsaved[1].Contents = sm_cuda_stub_header;
	unsaved[1].Length = (unsigned long)strlen(sm_cuda_stub_header);
	CXTranslationUnit tu = NULL;
	unsigned flags = CXTranslationUnit_Incomplete | CXTranslationUnit_ForSerialization;
	enum CXErrorCode e = clang_parseTranslationUnit2(fe->index, main_name, argv, argc, unsaved,
							opt->cuda_path ? 1u : 2u, flags, &tu);
	int rc = -1;
	if (e != CXError_Success || !tu) {
		snprintf(err, errlen, "cannot precompile the CUDA headers (libclang error %d)", (int)e);
	} else {
		unsigned n = clang_getNumDiagnostics(tu);
		int errors = 0;
		for (unsigned i = 0; i < n; i++) {
			CXDiagnostic d = clang_getDiagnostic(tu, i);
			if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error)
				errors++;
			clang_disposeDiagnostic(d);
		}
		if (errors)
			snprintf(err, errlen, "cannot precompile the CUDA headers: %d errors", errors);
		else if (clang_saveTranslationUnit(tu, out, clang_defaultSaveOptions(tu)) != CXSaveError_None)
			snprintf(err, errlen, "cannot write '%s'", out);
		else
			rc = 0;
		clang_disposeTranslationUnit(tu);
	}
	sm_arena_release(&A);
	return rc;
}

const char *sm_frontend_clang_version(struct sm_arena *A)
{
	CXString s = clang_getClangVersion();
	const char *v = sm_arena_strdup(A, clang_getCString(s));
	clang_disposeString(s);
	return v;
}

struct sm_file *sm_frontend_parse(struct sm_frontend *fe, const char *path, const char *text, size_t len,
				  const struct sm_frontend_options *opt, struct sm_arena *A)
{
	struct sm_file *F = sm_arena_alloc(A, sizeof(*F));
	if (!F)
		return NULL;
	F->path = sm_arena_strdup(A, path);
	F->text = text;
	F->text_len = len;

	const char *argv[128];
	int argc = sm_frontend_args(opt, argv, 128, A);
	/* headers are parsed as CUDA too: -x cuda is already first */
	struct CXUnsavedFile unsaved[2 + SM_NSTUB_INCLUDES];
	unsaved[0].Filename = path;
	unsaved[0].Contents = text;
	unsaved[0].Length = (unsigned long)len;
	unsaved[1].Filename = SM_CUDA_STUB_PATH;
	unsaved[1].Contents = sm_cuda_stub_header;
	unsaved[1].Length = (unsigned long)strlen(sm_cuda_stub_header);
	int nunsaved = 1;
	if (!opt->cuda_path) {
		/* without a toolkit, #include <cuda_runtime.h> and friends find
		 * empty stand-ins: the declarations come from the forced stub */
		nunsaved = 2;
		for (int i = 0; i < SM_NSTUB_INCLUDES; i++) {
			unsaved[nunsaved].Filename = sm_stub_includes[i].path;
			unsaved[nunsaved].Contents = sm_stub_include_text;
			unsaved[nunsaved].Length = (unsigned long)strlen(sm_stub_include_text);
			nunsaved++;
		}
	}

	CXTranslationUnit tu = NULL;
	unsigned flags = CXTranslationUnit_KeepGoing | CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles;
	enum CXErrorCode err = clang_parseTranslationUnit2(fe->index, path, argv, argc, unsaved,
							  (unsigned)nunsaved, flags, &tu);
	fe->pch_rejected = 0;
	if (opt->pch && (err != CXError_Success || !tu || pch_problem(tu, opt->pch))) {
		/* a stale, corrupt or incompatible precompiled header: parse
		 * again without it, so that the result is what a plain parse
		 * gives, and tell the caller (sm_frontend_pch_rejected) */
		if (tu)
			clang_disposeTranslationUnit(tu);
		tu = NULL;
		fe->pch_rejected = 1;
		struct sm_frontend_options plain = *opt;
		plain.pch = NULL;
		argc = sm_frontend_args(&plain, argv, 128, A);
		err = clang_parseTranslationUnit2(fe->index, path, argv, argc, unsaved, (unsigned)nunsaved, flags, &tu);
	}
	if (err != CXError_Success || !tu) {
		F->parse_failed = true;
		F->notes = sm_arena_alloc(A, sizeof(struct sm_note));
		if (F->notes) {
			F->notes[0].level = 2;
			F->notes[0].message = sm_arena_printf(A, "clang could not parse the file (libclang error %d)", (int)err);
			F->nnotes = 1;
		}
		return F;
	}
	struct fe S;
	memset(&S, 0, sizeof(S));
	S.tu = tu;
	S.A = A;
	S.F = F;
	S.main_file = clang_getFile(tu, path);
	S.stack_floor = sm_stack_floor((size_t)1 << 20);
	collect_notes(&S);

	struct launch_ctx lc;
	memset(&lc, 0, sizeof(lc));
	lc.S = &S;
	clang_visitChildren(clang_getTranslationUnitCursor(tu), top_visit, &lc);

	/* attach launches; convert template specializations that are launched */
	for (unsigned i = 0; i < lc.launches.n; i++) {
		struct pending_launch *pl = lc.launches.v[i];
		CXCursor canon = clang_getCanonicalCursor(pl->kernel);
		struct sm_kernel *K = cmap_get(&S.kernels, canon);
		if (!K) {
			CXCursor tmpl = clang_getSpecializedCursorTemplate(pl->kernel);
			if (clang_Cursor_isNull(tmpl) || !in_main_file(&S, tmpl))
				continue;
			if (!has_attr(pl->kernel, CXCursor_CUDAGlobalAttr))
				continue;
			K = convert_function(&S, pl->kernel, template_args_text(&S, pl->kernel));
			if (!K)
				continue;
			cmap_put(&S.kernels, canon, K);
		}
		struct sm_launch *nl = sm_arena_alloc(A, (K->nlaunches + 1) * sizeof(*nl));
		if (!nl)
			continue;
		if (K->nlaunches)
			memcpy(nl, K->launches, K->nlaunches * sizeof(*nl));
		nl[K->nlaunches] = pl->L;
		K->launches = nl;
		K->nlaunches++;
	}
	F->kernels = (struct sm_kernel **)S.all_kernels.v;
	F->nkernels = S.all_kernels.n;
	F->arrays = (struct sm_array **)S.all_arrays.v;
	F->narrays = S.all_arrays.n;
	if (S.too_deep && F->nnotes < 50) {
		struct sm_note *nn = sm_arena_alloc(A, (F->nnotes + 1) * sizeof(*nn));
		if (nn) {
			memcpy(nn, F->notes, F->nnotes * sizeof(*nn));
			nn[F->nnotes].level = 1;
			nn[F->nnotes].message = "expression nesting too deep: the innermost part was not analyzed";
			F->notes = nn;
			F->nnotes++;
		}
	}
	cmap_free(&S.arrays);
	cmap_free(&S.vars);
	cmap_free(&S.kernels);
	clang_disposeTranslationUnit(tu);
	return F;
}
