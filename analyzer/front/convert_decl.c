/* convert_decl.c - declarations: shared arrays and variables, and the
 * places in global memory a kernel parameter or a global names.
 *
 * A __shared__ variable (at file scope or in a function) becomes an
 * sm_array: its dimensions (looking through typedefs), whether it is
 * dynamic (extern __shared__ x[]), its element type, size, alignment and
 * fields, and where its "[..]" is spelled. Parameters and local variables
 * become sm_var (pointers remember their pointee size and whether they
 * point into shared memory); a local declaration becomes a DECL statement
 * with its converted initializer (convert_stmt.c). The cursor maps of the
 * conversion state find the array or variable a reference names, and
 * cv_inline_target the definition of the __device__ function a call
 * would follow. This file converts no expression or statement: every
 * other converter may call it.
 */
#include "front/convert.h"

#include <string.h>

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
	f->name = cv_cx_str(fc->S->A, clang_getCursorSpelling(c));
	long long off = clang_Cursor_getOffsetOfField(c);
	long long sz = clang_Type_getSizeOf(clang_getCursorType(c));
	f->offset = off > 0 ? (unsigned)(off / 8) : 0;
	f->size = sz > 0 ? (unsigned)sz : 0;
	cv_vec_push(fc->S->A, &fc->fields, f);
	return CXVisit_Continue;
}

/* Find the "[..][..]" token range after the declared name. */
static struct sm_range dims_range(struct fe *S, CXCursor decl, const char *name)
{
	struct sm_range r = { { 0, 0 }, { 0, 0 }, cv_range_of(S, decl).file };
	CXToken *tk = NULL;
	unsigned n = 0;
	int own = cv_tokenize_extent(S, decl, &tk, &n);
	int seen_name = 0, depth = 0;
	for (unsigned i = 0; i < n; i++) {
		CXString s = clang_getTokenSpelling(S->tu, tk[i]);
		const char *t = clang_getCString(s);
		if (!seen_name) {
			if (t && !strcmp(t, name))
				seen_name = 1;
		} else if (t && !strcmp(t, "[")) {
			if (depth == 0 && r.begin.line == 0)
				r.begin = cv_pos_of(clang_getTokenLocation(S->tu, tk[i]));
			depth++;
		} else if (t && !strcmp(t, "]")) {
			depth--;
			if (depth == 0) {
				CXSourceRange tr = clang_getTokenExtent(S->tu, tk[i]);
				r.end = cv_pos_of(clang_getRangeEnd(tr));
			}
		} else if (depth == 0 && r.begin.line) {
			clang_disposeString(s);
			break;
		}
		clang_disposeString(s);
	}
	if (own)
		clang_disposeTokens(S->tu, tk, n);
	return r;
}

struct sm_array *cv_make_array(struct fe *S, CXCursor decl, int file_scope)
{
	struct sm_array *a = sm_arena_alloc(S->A, sizeof(*a));
	if (!a)
		return NULL;
	a->name = cv_cx_str(S->A, clang_getCursorSpelling(decl));
	a->decl = cv_range_of(S, decl);
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
	if (cv_has_attr(decl, CXCursor_UnexposedAttr) && clang_getCursorLinkage(decl) == CXLinkage_External && nd && a->dims[0] == 0)
		a->is_dynamic = 1;
	a->elem_type = cv_cx_str(S->A, clang_getTypeSpelling(clang_getUnqualifiedType(et)));
	CXType ec = clang_getCanonicalType(et);
	if (!strstr(a->elem_type, "barrier<")) {
		/* `using block_barrier = cuda::barrier<...>`: the barrier's calls
		 * are recognised by its type (convert_async.c), so the alias is
		 * spelled out */
		const char *canon = cv_cx_str(S->A, clang_getTypeSpelling(clang_getUnqualifiedType(ec)));
		if (strstr(canon, "cuda::") && strstr(canon, "barrier<"))
			a->elem_type = canon;
	}
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
	cv_vec_push(S->A, &S->all_arrays, a);
	cv_cmap_put(&S->arrays, clang_getCanonicalCursor(decl), a);
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

int cv_has_attr(CXCursor c, enum CXCursorKind attr)
{
	struct attr_find af = { attr, 0 };
	clang_visitChildren(c, attr_visit, &af);
	return af.found;
}

struct sm_var *cv_make_var(struct fe *S, CXCursor decl, enum sm_var_kind kind)
{
	struct sm_var *v = sm_arena_alloc(S->A, sizeof(*v));
	if (!v)
		return NULL;
	v->name = cv_cx_str(S->A, clang_getCursorSpelling(decl));
	v->kind = kind;
	CXType t = clang_getCanonicalType(clang_getCursorType(decl));
	v->is_pointer = t.kind == CXType_Pointer;
	v->is_const = clang_isConstQualifiedType(clang_getCursorType(decl));
	if (v->is_pointer) {
		long long s = clang_Type_getSizeOf(clang_getPointeeType(t));
		v->pointee_size = s > 0 ? (unsigned)s : 1;
	}
	v->decl = cv_range_of(S, decl);
	v->id = S->kvars.n;
	cv_vec_push(S->A, &S->kvars, v);
	cv_cmap_put(&S->vars, decl, v);
	return v;
}

void cv_var_takes(struct sm_var *v, const struct sm_expr *val)
{
	if (!val || !val->is_ptr)
		return;
	if (!v->is_pointer && !v->is_ref) {
		/* an integer given a shared address (__cvta_generic_to_shared):
		 * a pointer with byte units from here on */
		v->is_pointer = true;
		v->pointee_size = 1;
	}
	if (v->is_pointer)
		v->points_shared = true;
	if (cv_expr_remote(val))
		v->points_remote = true;
}

struct sm_array *cv_array_of_decl(struct fe *S, CXCursor decl)
{
	return cv_cmap_get(&S->arrays, clang_getCanonicalCursor(decl));
}

/* The definition of the __device__ function of the program that call c
 * invokes (one the analysis follows into its caller), else a null
 * cursor: a declaration's question, asked by the expression converter
 * (does a helper return a shared pointer?) and by the call converter. */
/* The function a call's callee names through a template argument: in a
 * specialization of `template <fn_ptr f> __global__ void k() { f(); }`
 * the callee is the argument substituted for f (`k<helper>`), under
 * casts, parentheses and `&`, where clang names no function for the
 * call. Null when the callee is anything else (a pointer variable, a
 * choice of two functions). */
static CXCursor template_arg_callee(CXCursor call)
{
	struct kids ks = cv_kids_of(call); /* the callee, then the arguments */
	CXCursor e = ks.n ? ks.c[0] : clang_getNullCursor();
	for (int depth = 0; depth < SM_FE_STRIP_CHAIN && !clang_Cursor_isNull(e); depth++) {
		enum CXCursorKind k = clang_getCursorKind(e);
		CXCursor r = k == CXCursor_DeclRefExpr ? clang_getCursorReferenced(e) : clang_getNullCursor();
		if (!clang_Cursor_isNull(r)) /* a name */
			return clang_getCursorKind(r) == CXCursor_FunctionDecl ? r : clang_getNullCursor();
		/* the substituted argument is a DeclRefExpr that names nothing */
		if (k != CXCursor_DeclRefExpr && k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr &&
		    !(k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_AddrOf))
			break;
		e = cv_sole_operand(e);
	}
	return clang_getNullCursor();
}

/* A constructor the analysis follows: its parameters, member
 * initializers (`: block(b)`, each a member and its value) and body; no
 * base-class initializer or delegation (convert_call.c ctor_inits converts the member
 * initializers and the class's default member initializers). */
static enum CXChildVisitResult ctor_part(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k != CXCursor_ParmDecl && k != CXCursor_CompoundStmt && k != CXCursor_MemberRef && !clang_isExpression(k) &&
	    !clang_isAttribute(k)) {
		*(bool *)d = false; /* a base initializer (TypeRef) or another form */
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

static bool plain_ctor(CXCursor def)
{
	bool ok = true;
	clang_visitChildren(def, ctor_part, &ok);
	return ok;
}

CXCursor cv_inline_target(struct fe *S, CXCursor c)
{
	CXCursor none = clang_getNullCursor();
	if (!S->K)
		return none;
	CXCursor ref = clang_getCursorReferenced(c);
	if (clang_Cursor_isNull(ref) && clang_getCursorKind(c) == CXCursor_CallExpr)
		ref = template_arg_callee(c);
	if (clang_Cursor_isNull(ref))
		return none;
	CXCursor def = clang_getCursorDefinition(ref);
	if (clang_Cursor_isNull(def))
		return none;
	enum CXCursorKind k = clang_getCursorKind(def);
	if (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod && k != CXCursor_ConversionFunction &&
	    !(k == CXCursor_Constructor && plain_ctor(def)))
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

/* ---- struct values ----
 * A struct variable (a local, a kernel parameter, a callee's by-value
 * parameter) holds its whole value as one expression: what initialised or
 * was last assigned to it. A member read is a load from that value at the
 * member's offset, so it is alike in every thread where the struct is. A
 * write into a part of it (p.x = e, ++p.x, a non-const method, passing it
 * to a non-const reference, taking its address) makes its value one that
 * depends on what it was and on what was written (an unknown of its own
 * per thread when that is not known). */

/* A struct, or a reference to one (a callee's reference parameter bound
 * to a caller's variable holds its value, copied back out) */
static bool is_record(CXCursor d)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(d));
	if (t.kind == CXType_LValueReference)
		t = clang_getCanonicalType(clang_getPointeeType(t));
	return t.kind == CXType_Record;
}

/* The struct variable an lvalue is part of: p, p.x, p.a.b (through '.'
 * only: '->' goes through a pointer), else NULL. *whole: the lvalue is p
 * itself. */
struct sm_var *cv_record_root(struct fe *S, CXCursor lv, bool *whole)
{
	CXCursor c = cv_strip(lv);
	*whole = true;
	for (int d = 0; d < SM_FE_PLACE_CHAIN && clang_getCursorKind(c) == CXCursor_MemberRefExpr; d++) {
		struct kids ks = cv_kids_of(c);
		if (ks.n == 0 && S->this_obj) {
			*whole = false; /* m inside a method: this->m */
			return S->this_obj;
		}
		if (ks.n != 1)
			return NULL;
		c = cv_strip(ks.c[0]);
		if (clang_getCursorKind(c) == CXCursor_CXXThisExpr) {
			*whole = false;
			return S->this_obj;
		}
		if (clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Pointer)
			return NULL;
		*whole = false;
	}
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return NULL;
	CXCursor d = clang_getCursorReferenced(c);
	struct sm_var *v = is_record(d) ? cv_cmap_get(&S->vars, d) : NULL;
	return v && !v->is_ref && !v->is_pointer ? v : NULL;
}

/* A write into part of struct variable v at c: v's value becomes one of
 * what it was and `with` (NULL: an unknown per thread). */
void cv_record_clobber(struct fe *S, struct sm_var *v, struct sm_expr *with, CXCursor c)
{
	struct sm_access *pl = sm_arena_alloc(S->A, sizeof(*pl));
	struct sm_expr *e = cv_opaque(S, c, v->name, 1);
	struct sm_stmt *s = cv_mk_stmt(S, SM_S_ASSIGN, c);
	if (!pl || !e || !s)
		return;
	pl->kind = SM_ACC_LOAD;
	pl->base = cv_var_ref(S, c, v);
	pl->idx[0] = with ? with : cv_opaque(S, c, "written value", 1);
	pl->nidx = 1;
	e->place = pl;
	s->var = v;
	s->op = SM_OP_ASSIGN;
	s->value = e;
	cv_emit(S, s);
}

/* A load from global memory through a kernel parameter or a file-scope
 * variable (p[i], *p, args.n, p->n): every thread that computes the same
 * index and base reads the same value, so the load is per thread only if
 * they are. The value keeps them as its place (array NULL, base, idx); the
 * resolver decides, as for a shared load. A local array or an inlined
 * callee's parameter (which may point at one) is per thread: NULL. */
struct sm_expr *cv_global_load(struct fe *S, CXCursor c, CXCursor base, struct sm_expr *idx, const char *name)
{
	CXCursor b = cv_strip(base);
	if (clang_getCursorKind(b) != CXCursor_DeclRefExpr)
		return NULL;
	CXCursor d = clang_getCursorReferenced(b);
	struct sm_expr *bv = NULL;
	struct sm_var *v = cv_cmap_get(&S->vars, d);
	/* a parameter, or a local pointer (a copy of one, an offset into
	 * one: `const int *KV = KV_max + s;`), a struct variable (its value, see
 * above): the base's value is what the
	 * resolver makes of it, so a load at a uniform base and index is
	 * alike in every thread, and one at a thread's own base is not */
	if (v && (v->kind == SM_V_PARAM || v->is_pointer || is_record(d)) && !v->points_shared && !v->is_ref)
		bv = cv_var_ref(S, b, v);
	else if (!v && clang_getCursorKind(d) == CXCursor_VarDecl) {
		enum CXCursorKind pk = clang_getCursorKind(clang_getCursorSemanticParent(d));
		if (pk == CXCursor_TranslationUnit || pk == CXCursor_Namespace)
			bv = cv_opaque(S, b, "global", 0);
	}
	return bv ? cv_load_at(S, c, bv, idx, name) : NULL;
}

/* The member access c (x.m, p->m, m in a method) not in shared memory:
 * a static constant member's value (a tile template's `static constexpr
 * int I` read as `t.I`: nothing is loaded from t), else a load at the
 * member's byte offset (which tells args.n from args.m) from a parameter,
 * a global, a struct variable or the object a method was called on, or
 * from an object that is itself a load (obj, the converted `box[i]` of
 * `box[blockIdx.x].nn`, `(*p).n`, `a.b->n`: alike where that load is);
 * else NULL. */
struct sm_expr *cv_member_load(struct fe *S, CXCursor c, struct sm_expr *obj)
{
	CXCursor d = clang_getCursorReferenced(c);
	int64_t v;
	if (clang_getCursorKind(d) == CXCursor_VarDecl && clang_isConstQualifiedType(clang_getCursorType(d)) &&
	    cv_try_eval_int(d, &v))
		return cv_mk_const(S, v);
	struct kids ks = cv_kids_of(c);
	long long off = clang_Cursor_getOffsetOfField(clang_getCursorReferenced(c));
	struct sm_expr *at = off > 0 ? cv_mk_const(S, off / 8) : NULL;
	if (S->this_obj && (ks.n == 0 || clang_getCursorKind(cv_strip(ks.c[0])) == CXCursor_CXXThisExpr))
		return cv_load_at(S, c, cv_var_ref(S, c, S->this_obj), at, "member");
	struct sm_expr *g = ks.n == 1 ? cv_global_load(S, c, ks.c[0], at, "member") : NULL;
	if (g || ks.n != 1 || !obj || obj->kind != SM_E_OPAQUE || !obj->place)
		return g;
	enum CXCursorKind k = clang_getCursorKind(cv_strip(ks.c[0]));
	if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_MemberRefExpr || k == CXCursor_UnaryOperator)
		g = cv_load_at(S, c, obj, at, "member");
	return g;
}

/* A load at c from base (an address, or a struct's value) at index idx
 * (NULL: 0): alike in the threads where base and idx are. */
struct sm_expr *cv_load_at(struct fe *S, CXCursor c, struct sm_expr *base, struct sm_expr *idx, const char *name)
{
	struct sm_access *pl = sm_arena_alloc(S->A, sizeof(*pl));
	struct sm_expr *e = cv_opaque(S, c, name, 1);
	if (!pl || !e)
		return NULL;
	pl->kind = SM_ACC_LOAD;
	pl->base = base;
	pl->idx[0] = idx ? idx : cv_mk_const(S, 0);
	pl->nidx = 1;
	e->place = pl;
	return e;
}

/* A variable of the kernel that no declaration names (a call's result, a
 * method's `this`, a wmma call's instruction counter). */
struct sm_var *cv_synthetic_var(struct fe *S, const char *name, bool is_pointer, unsigned pointee_size)
{
	struct sm_var *v = sm_arena_alloc(S->A, sizeof(*v));
	if (!v)
		return NULL;
	v->name = name;
	v->kind = SM_V_LOCAL;
	v->is_pointer = is_pointer;
	v->pointee_size = is_pointer ? (pointee_size ? pointee_size : 1) : 0;
	v->id = S->kvars.n;
	cv_vec_push(S->A, &S->kvars, v);
	return v;
}

/* ---- kernel parameters ---- */

/* 1 + the index of the kernel parameter a tensor-map operand names (`&map`,
 * `map`, a cast of either, `reinterpret_cast<uint64_t>(&map)`), through
 * the parameters of the helpers being inlined (`load(dst, &map, bar)`
 * calling a helper whose asm takes its `const void *tmap`), or 0: a map
 * reached otherwise (a global, a copy in a local) is not bound. */
unsigned cv_kernel_param_of(struct fe *S, CXCursor map, int depth)
{
	CXCursor parm = cv_decl_under(map, true);
	if (clang_Cursor_isNull(parm))
		return 0;
	CXCursor fn = clang_getCursorSemanticParent(parm);
	int i = cv_param_index(fn, parm);
	if (i < 0)
		return 0;
	if (cv_has_attr(fn, CXCursor_CUDAGlobalAttr))
		return (unsigned)i + 1;
	/* a helper's parameter: the argument of the call that inlines it */
	CXCursor canon = clang_getCanonicalCursor(fn);
	for (int d = depth - 1; d >= 0; d--)
		if (clang_equalCursors(S->callee_stack[d], canon))
			return i < clang_Cursor_getNumArguments(S->call_stack[d])
				       ? cv_kernel_param_of(S, clang_Cursor_getArgument(S->call_stack[d], (unsigned)i), d)
				       : 0;
	return 0;
}
