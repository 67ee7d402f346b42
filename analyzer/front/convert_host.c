/* convert_host.c - integer values of host code at a launch site.
 *
 * A launch `k<<<grid, threads>>>(d, 64, log2n)` fixes the kernel's
 * parameters, block and grid when its host expressions are constants the
 * front end can compute: literals, macros, enumerators, constexpr
 * variables (clang evaluates those), and beyond clang's constant
 * evaluator, local variables whose only value is their initializer
 * (`unsigned threads = N / 2;`, `int n = 1 << log2n;`), combined with
 * + - * / % << >> & | ^, unary minus and ?:. A local that is assigned,
 * incremented or has its address taken anywhere in its function is not
 * computed: its value at the launch is unknown. Evaluation is bounded in
 * depth (SM_HOST_EVAL_DEPTH); anything else is unknown, never guessed.
 */
#include "front/convert.h"

#include <stdlib.h>
#include <string.h>

/* The locals a function writes, found in one walk of its body and kept
 * per function (S->written): a launch's arguments are looked up there,
 * so a host function with thousands of launches is walked once, not
 * once per argument. A write is an assignment (plain or compound), an
 * increment or decrement, taking the address, or passing the variable
 * to a parameter of non-const reference type. */
struct mod_walk {
	struct cmap *set; /* canonical VarDecl cursor -> (void *)1 */
	int failed;
};

static void mark(struct mod_walk *m, CXCursor e)
{
	e = cv_strip(e);
	/* a member written (block.y = 4): the variable is written */
	for (int d = 0; d < 8 && clang_getCursorKind(e) == CXCursor_MemberRefExpr; d++) {
		struct kids ks = cv_kids_of(e);
		if (ks.n != 1)
			return;
		e = cv_strip(ks.c[0]);
	}
	if (clang_getCursorKind(e) != CXCursor_DeclRefExpr)
		return;
	CXCursor v = clang_getCanonicalCursor(clang_getCursorReferenced(e));
	if (!clang_Cursor_isNull(v) && cv_cmap_put(m->set, v, (void *)1) < 0)
		m->failed = 1;
}

static void mark_ref_args(struct mod_walk *m, CXCursor c)
{
	CXCursor fn = clang_getCursorReferenced(c);
	int n = clang_Cursor_getNumArguments(c);
	int np = clang_Cursor_isNull(fn) ? -1 : clang_Cursor_getNumArguments(fn);
	for (int i = 0; i < n && i < np; i++) {
		CXType pt = clang_getCursorType(clang_Cursor_getArgument(fn, (unsigned)i));
		CXType ct = clang_getCanonicalType(pt);
		if ((ct.kind == CXType_LValueReference || ct.kind == CXType_RValueReference) &&
		    !clang_isConstQualifiedType(clang_getPointeeType(ct)))
			mark(m, clang_Cursor_getArgument(c, (unsigned)i));
	}
}

static enum CXChildVisitResult mod_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	struct mod_walk *m = d;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
		if (op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign) {
			struct kids ks = cv_kids_of(c);
			if (ks.n == 2)
				mark(m, ks.c[0]);
		}
	} else if (k == CXCursor_UnaryOperator) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
		if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PostDec ||
		    op == CXUnaryOperator_PreDec || op == CXUnaryOperator_AddrOf) {
			struct kids ks = cv_kids_of(c);
			if (ks.n == 1)
				mark(m, ks.c[0]);
		}
	} else if (k == CXCursor_CallExpr) {
		mark_ref_args(m, c);
	}
	return m->failed ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Is the local variable var (canonical) written anywhere in fn? Out of
 * memory answers yes: the value is then unknown, never guessed. */
static int written_in(struct fe *S, CXCursor fn, CXCursor var)
{
	struct cmap *set = cv_cmap_get(&S->written, fn);
	if (!set) {
		set = calloc(1, sizeof(*set));
		if (!set)
			return 1;
		struct mod_walk m = { set, 0 };
		clang_visitChildren(fn, mod_visit, &m);
		if (m.failed || cv_cmap_put(&S->written, fn, set) < 0) {
			cv_cmap_free(set);
			free(set);
			return 1;
		}
	}
	return cv_cmap_get(set, var) != NULL;
}

/* Frees what written_in kept (convert_kernel.c, at the end of the TU). */
void cv_written_free(struct fe *S)
{
	for (unsigned i = 0; i < S->written.cap; i++)
		if (S->written.e[i].used) {
			cv_cmap_free(S->written.e[i].val);
			free(S->written.e[i].val);
		}
	cv_cmap_free(&S->written);
	cv_cmap_free(&S->tmaps);
}

static int host_eval(struct fe *S, CXCursor c, int64_t *out, int depth);

static int eval_local(struct fe *S, CXCursor decl, int64_t *out, int depth)
{
	if (clang_getCursorKind(decl) != CXCursor_VarDecl)
		return 0;
	if (cv_try_eval_int(decl, out))
		return 1;
	CXCursor fn = clang_getCursorSemanticParent(decl);
	enum CXCursorKind fk = clang_getCursorKind(fn);
	if (fk != CXCursor_FunctionDecl && fk != CXCursor_CXXMethod)
		return 0; /* a global: another translation unit may set it */
	if (written_in(S, fn, clang_getCanonicalCursor(decl)))
		return 0;
	struct kids ks = cv_kids_of(decl);
	for (int i = ks.n - 1; i >= 0 && i < 8; i--)
		if (clang_isExpression(clang_getCursorKind(ks.c[i])))
			return host_eval(S, ks.c[i], out, depth + 1);
	return 0;
}

static int host_eval(struct fe *S, CXCursor c, int64_t *out, int depth)
{
	if (depth > SM_HOST_EVAL_DEPTH)
		return 0;
	if (cv_try_eval_int(c, out))
		return 1;
	c = cv_strip(c);
	if (cv_try_eval_int(c, out))
		return 1;
	struct kids ks = cv_kids_of(c);
	switch (clang_getCursorKind(c)) {
	case CXCursor_DeclRefExpr: {
		CXCursor d = clang_getCursorReferenced(c);
		const struct cv_host_bind *b = S->host_bind;
		if (clang_getCursorKind(d) != CXCursor_ParmDecl || !b)
			return eval_local(S, d, out, depth);
		/* a parameter of the helper being evaluated: its argument at
		 * the call, in the caller */
		CXCursor fn = clang_getCursorSemanticParent(d);
		if (!clang_equalCursors(clang_getCanonicalCursor(fn), b->fn))
			return 0;
		int i = cv_param_index(fn, d);
		if (i < 0 || i >= clang_Cursor_getNumArguments(b->call))
			return 0;
		S->host_bind = NULL;
		int ok = host_eval(S, clang_Cursor_getArgument(b->call, (unsigned)i), out, depth + 1);
		S->host_bind = b;
		return ok;
	}
	case CXCursor_UnaryOperator: {
		int64_t a;
		if (ks.n != 1 || !host_eval(S, ks.c[0], &a, depth + 1))
			return 0;
		switch (clang_getCursorUnaryOperatorKind(c)) {
		case CXUnaryOperator_Minus: *out = -a; return 1;
		case CXUnaryOperator_Plus: *out = a; return 1;
		case CXUnaryOperator_Not: *out = ~a; return 1;
		default: return 0;
		}
	}
	case CXCursor_ConditionalOperator: {
		int64_t k;
		if (ks.n != 3 || !host_eval(S, ks.c[0], &k, depth + 1))
			return 0;
		return host_eval(S, ks.c[k ? 1 : 2], out, depth + 1);
	}
	case CXCursor_BinaryOperator: {
		int64_t a, b;
		if (ks.n != 2 || !host_eval(S, ks.c[0], &a, depth + 1) || !host_eval(S, ks.c[1], &b, depth + 1))
			return 0;
		switch (clang_getCursorBinaryOperatorKind(c)) {
		case CXBinaryOperator_Add: *out = (int64_t)((uint64_t)a + (uint64_t)b); return 1;
		case CXBinaryOperator_Sub: *out = (int64_t)((uint64_t)a - (uint64_t)b); return 1;
		case CXBinaryOperator_Mul: *out = (int64_t)((uint64_t)a * (uint64_t)b); return 1;
		case CXBinaryOperator_Div: if (!b || (a == INT64_MIN && b == -1)) return 0; *out = a / b; return 1;
		case CXBinaryOperator_Rem: if (!b || (a == INT64_MIN && b == -1)) return 0; *out = a % b; return 1;
		case CXBinaryOperator_Shl: if (b < 0 || b > 62) return 0; *out = (int64_t)((uint64_t)a << b); return 1;
		case CXBinaryOperator_Shr: if (b < 0 || b > 63) return 0; *out = a >> b; return 1;
		case CXBinaryOperator_And: *out = a & b; return 1;
		case CXBinaryOperator_Or: *out = a | b; return 1;
		case CXBinaryOperator_Xor: *out = a ^ b; return 1;
		default: return 0;
		}
	}
	default:
		return 0;
	}
}

/* The highest dimension a launch's block argument may make larger than 1
 * (1: x only, 2: x and y, 3: any), where the host code says so even when
 * the extents are known only at run time: an integer (`<<<g, n>>>`, dim3's
 * conversion gives n x 1 x 1), `dim3(n, 1, 1)`, `dim3(a, b)`, or a local
 * dim3 so initialized and never written after. 0 when it cannot tell. */
static int dim_rank(struct fe *S, CXCursor c, int depth)
{
	if (depth > SM_HOST_EVAL_DEPTH)
		return 0;
	c = cv_strip(c);
	CXType t = clang_getCanonicalType(clang_getCursorType(c));
	if ((t.kind >= CXType_Bool && t.kind <= CXType_Int128) || t.kind == CXType_Enum)
		return 1;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		CXCursor fn = clang_getCursorSemanticParent(d);
		enum CXCursorKind fk = clang_getCursorKind(fn);
		if (clang_getCursorKind(d) != CXCursor_VarDecl || (fk != CXCursor_FunctionDecl && fk != CXCursor_CXXMethod) ||
		    written_in(S, fn, clang_getCanonicalCursor(d)))
			return 0;
		struct kids ks = cv_kids_of(d);
		for (int i = ks.n - 1; i >= 0 && i < 8; i--)
			if (clang_isExpression(clang_getCursorKind(ks.c[i])))
				return dim_rank(S, ks.c[i], depth + 1);
		return 0;
	}
	if (k != CXCursor_CallExpr && k != CXCursor_UnexposedExpr)
		return 0;
	int n = clang_Cursor_getNumArguments(c);
	if (n <= 0) {
		struct kids ks = cv_kids_of(c);
		return ks.n == 1 && clang_isExpression(clang_getCursorKind(ks.c[0])) ? dim_rank(S, ks.c[0], depth + 1) : 0;
	}
	if (n == 1)
		return dim_rank(S, clang_Cursor_getArgument(c, 0), depth + 1);
	int rank = 1;
	for (int i = 1; i < n && i < 3; i++) {
		CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);
		int64_t v;
		if (clang_getCursorKind(a) == CXCursor_UnexposedExpr && cv_kids_of(a).n == 0)
			continue; /* a default argument: 1 */
		if (!host_eval(S, a, &v, depth + 1) || v != 1)
			rank = i + 1;
	}
	return rank;
}

int cv_host_dim_rank(struct fe *S, CXCursor c)
{
	return dim_rank(S, c, 0);
}

int cv_host_eval(struct fe *S, CXCursor c, int64_t *out)
{
	return host_eval(S, c, out, 0);
}

/* ---- tensor maps ---- */

/* The variable or parameter (canonical) a DeclRefExpr under c names
 * first, or a null cursor: `&map`, `(CUtensorMap *)&map`, `map`. */
static CXCursor var_under(CXCursor c)
{
	CXCursor d = cv_decl_under(c, false);
	return clang_Cursor_isNull(d) ? d : clang_getCanonicalCursor(d);
}

/* The encode calls of one map in a host function: calls of 12 arguments
 * whose first is the map's address and second a CUtensorMapDataType (the
 * shape of cuTensorMapEncodeTiled, however it is reached); and the calls
 * of host helpers defined in a converted file that are given the map (a
 * kernel's launch is not one). */
struct enc_walk {
	struct fe *S;
	CXCursor var;      /* the map (canonical) */
	CXCursor call;     /* the last encode call seen */
	int n;             /* how many */
	CXCursor helper;   /* the last helper call given the map */
	int helper_arg;    /* at this argument */
	int nhelpers;      /* how many */
};

static enum CXChildVisitResult enc_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	struct enc_walk *w = d;
	if (clang_getCursorKind(c) != CXCursor_CallExpr)
		return CXChildVisit_Recurse;
	int n = clang_Cursor_getNumArguments(c);
	if (n == 12) {
		CXString ts = clang_getTypeSpelling(clang_getCursorType(clang_Cursor_getArgument(c, 1)));
		bool dtype = strstr(clang_getCString(ts), "CUtensorMapDataType") != NULL;
		clang_disposeString(ts);
		CXCursor v = var_under(clang_Cursor_getArgument(c, 0));
		if (dtype && !clang_Cursor_isNull(v) && clang_equalCursors(v, w->var)) {
			w->call = c;
			w->n++;
			return CXChildVisit_Recurse;
		}
	}
	CXCursor fn = clang_getCursorDefinition(clang_getCursorReferenced(c));
	if (clang_Cursor_isNull(fn) || cv_has_attr(fn, CXCursor_CUDAGlobalAttr) || !cv_in_converted_file(w->S, fn))
		return CXChildVisit_Recurse;
	for (int i = 0; i < n; i++) {
		CXCursor a = cv_strip(clang_Cursor_getArgument(c, (unsigned)i));
		if (clang_getCursorKind(a) == CXCursor_UnaryOperator) {
			struct kids ks = cv_kids_of(a);
			a = ks.n == 1 ? cv_strip(ks.c[0]) : a;
		}
		if (clang_getCursorKind(a) == CXCursor_DeclRefExpr &&
		    clang_equalCursors(clang_getCanonicalCursor(clang_getCursorReferenced(a)), w->var)) {
			w->helper = c;
			w->helper_arg = i;
			w->nhelpers++;
		}
	}
	return CXChildVisit_Recurse;
}

/* The constant elements of a local array a (canonical) that fn never
 * writes: `cuuint32_t box[2] = {64, 32};`. Returns how many were read (at
 * most max), 0 when any is not a constant. */
static int array_consts(struct fe *S, CXCursor fn, CXCursor a, int64_t *out, int max)
{
	if (clang_Cursor_isNull(a) || written_in(S, fn, a))
		return 0;
	struct kids ks = cv_kids_of(a);
	CXCursor init = clang_getNullCursor();
	for (int i = 0; i < ks.n && i < 8; i++)
		if (clang_getCursorKind(ks.c[i]) == CXCursor_InitListExpr)
			init = ks.c[i];
	if (clang_Cursor_isNull(init))
		return 0;
	unsigned n;
	CXCursor **el = cv_kids_all(S, init, &n);
	if (!el || n == 0 || n > (unsigned)max)
		return 0;
	for (unsigned i = 0; i < n; i++)
		if (!cv_try_eval_int(*el[i], &out[i]) && !host_eval(S, *el[i], &out[i], 1))
			return 0;
	return (int)n;
}

static const struct sm_tensor_map *encoded_map(struct fe *S, CXCursor fn, CXCursor call);

/* The local a function returns by name in every `return` (`return
 * tmap;`), canonical, or a null cursor. */
struct ret_walk {
	CXCursor var;
	int n, other;
};

static enum CXChildVisitResult ret_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	struct ret_walk *r = d;
	if (clang_getCursorKind(c) != CXCursor_ReturnStmt)
		return CXChildVisit_Recurse;
	struct kids ks = cv_kids_of(c);
	CXCursor v = ks.n == 1 ? var_under(ks.c[0]) : clang_getNullCursor();
	if (clang_Cursor_isNull(v) || clang_getCursorKind(v) != CXCursor_VarDecl ||
	    (r->n && !clang_equalCursors(v, r->var)))
		r->other++;
	else
		r->var = v;
	r->n++;
	return CXChildVisit_Continue;
}

/* A map variable initialized by a call of a host helper of a converted
 * file that encodes one local once and returns it: the helper (its call
 * in *b) and that encode (in w). */
static bool built_by(struct fe *S, CXCursor var, struct cv_host_bind *b, struct enc_walk *w, CXCursor *def)
{
	CXCursor def_var = clang_getCursorDefinition(var);
	struct kids ks = cv_kids_of(clang_Cursor_isNull(def_var) ? var : def_var);
	CXCursor call = clang_getNullCursor();
	for (int i = 0; i < ks.n && i < 8; i++)
		if (clang_isExpression(clang_getCursorKind(ks.c[i])))
			call = cv_strip(ks.c[i]);
	if (clang_Cursor_isNull(call) || clang_getCursorKind(call) != CXCursor_CallExpr)
		return false;
	CXCursor fn = clang_getCursorDefinition(clang_getCursorReferenced(call));
	if (clang_Cursor_isNull(fn) || cv_has_attr(fn, CXCursor_CUDAGlobalAttr) || !cv_in_converted_file(S, fn))
		return false;
	struct ret_walk r = { clang_getNullCursor(), 0, 0 };
	clang_visitChildren(fn, ret_visit, &r);
	if (!r.n || r.other)
		return false;
	memset(w, 0, sizeof(*w));
	w->S = S;
	w->var = r.var;
	clang_visitChildren(fn, enc_visit, w);
	if (w->n != 1 || w->nhelpers)
		return false;
	b->fn = clang_getCanonicalCursor(fn);
	b->call = call;
	*def = fn;
	return true;
}

static const struct sm_tensor_map *tensor_map_of(struct fe *S, CXCursor var);

const struct sm_tensor_map *cv_host_tensor_map(struct fe *S, CXCursor arg)
{
	static const char no_map; /* cached "not known" (never written) */
	CXCursor var = var_under(arg);
	if (clang_Cursor_isNull(var))
		return NULL;
	const void *kept = cv_cmap_get(&S->tmaps, var);
	if (kept)
		return kept == &no_map ? NULL : kept;
	const struct sm_tensor_map *m = tensor_map_of(S, var);
	(void)cv_cmap_put(&S->tmaps, var, m ? (void *)m : (void *)&no_map); /* out of memory: not kept */
	return m;
}

/* What cv_host_tensor_map finds for the map variable var (canonical). */
static const struct sm_tensor_map *tensor_map_of(struct fe *S, CXCursor var)
{
	CXCursor fn = clang_getCursorSemanticParent(var);
	enum CXCursorKind fk = clang_getCursorKind(fn);
	if (fk != CXCursor_FunctionDecl && fk != CXCursor_CXXMethod && fk != CXCursor_FunctionTemplate)
		return NULL; /* a global: another translation unit may encode it */
	struct enc_walk w = { S, var, clang_getNullCursor(), 0, clang_getNullCursor(), 0, 0 };
	clang_visitChildren(fn, enc_visit, &w);
	struct cv_host_bind bind;
	if (w.n == 0 && w.nhelpers == 1) {
		/* encoded by a host helper it is given to (`encode_map(desc,
		 * ...)`, `make_map(&desc, ...)`): the helper's one encode of that
		 * parameter, its parameters read as the call's arguments */
		CXCursor def = clang_getCursorDefinition(clang_getCursorReferenced(w.helper));
		if (w.helper_arg >= clang_Cursor_getNumArguments(def))
			return NULL;
		CXCursor parm = clang_getCanonicalCursor(clang_Cursor_getArgument(def, (unsigned)w.helper_arg));
		bind.fn = clang_getCanonicalCursor(def);
		bind.call = w.helper;
		fn = def;
		memset(&w, 0, sizeof(w));
		w.S = S;
		w.var = parm;
		clang_visitChildren(def, enc_visit, &w);
		if (w.n != 1)
			return NULL;
		S->host_bind = &bind;
	} else if (w.n == 0 && w.nhelpers == 0 && built_by(S, var, &bind, &w, &fn)) {
		/* `CUtensorMap m = make_map(...)`: the helper's map, encoded in
		 * it and returned */
		S->host_bind = &bind;
	} else if (w.n != 1 || w.nhelpers) {
		return NULL; /* none, or encoded twice: which one the launch sees is not known */
	}
	const struct sm_tensor_map *m = encoded_map(S, fn, w.call);
	S->host_bind = NULL;
	return m;
}

/* The map encode call `call` in function fn makes, when every operand
 * that matters is a constant there; NULL otherwise. */
static const struct sm_tensor_map *encoded_map(struct fe *S, CXCursor fn, CXCursor call)
{
	/* (map, dtype, rank, address, dims, strides, box, elementStrides,
	 * interleave, swizzle, l2 promotion, oob fill) */
	static const unsigned elem_of_dtype[] = { 1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4 };
	int64_t dt, rank, il, sw, box[5] = { 0 };
	if (!host_eval(S, clang_Cursor_getArgument(call, 1), &dt, 1) || dt < 0 ||
	    dt >= (int64_t)(sizeof(elem_of_dtype) / sizeof(elem_of_dtype[0])))
		return NULL;
	if (!host_eval(S, clang_Cursor_getArgument(call, 2), &rank, 1) || rank < 1 || rank > 5)
		return NULL;
	if (!host_eval(S, clang_Cursor_getArgument(call, 8), &il, 1) || il != 0)
		return NULL; /* interleaved layouts are not modelled */
	if (!host_eval(S, clang_Cursor_getArgument(call, 9), &sw, 1) || sw < 0 || sw > 3)
		return NULL; /* the 128-byte atom variants (12.8) are not modelled */
	if (array_consts(S, fn, var_under(clang_Cursor_getArgument(call, 6)), box, 5) < rank)
		return NULL;
	/* element strides other than 1 shrink the box in shared memory */
	int64_t es[5];
	if (array_consts(S, fn, var_under(clang_Cursor_getArgument(call, 7)), es, 5) < rank)
		return NULL;
	for (int i = 0; i < rank; i++)
		if (es[i] != 1)
			return NULL;
	struct sm_tensor_map *m = sm_arena_alloc(S->A, sizeof(*m));
	if (!m)
		return NULL;
	m->elem_size = elem_of_dtype[dt];
	m->rank = (unsigned)rank;
	for (int i = 0; i < rank; i++) {
		if (box[i] < 1 || box[i] > 256)
			return NULL; /* no box the driver encodes */
		m->box[i] = (uint32_t)box[i];
	}
	m->swizzle = sw ? 16u << sw : 0;
	m->at = cv_range_of(S, call);
	return m;
}
