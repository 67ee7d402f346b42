/* convert_global.c - the global side of an asynchronous copy.
 *
 * A cp.async (inline PTX, __pipeline_memcpy_async) moves global memory
 * through L1, and the profiler counts its shared wavefronts by the global
 * lines, shifts and sectors its lanes read (engine/bank.c,
 * sm_cp_async_wavefronts). Its source operand written as an offset from a
 * global pointer parameter P of the kernel (`&P[i]`, `P + i + j`, a cast)
 * gives the byte offset that the bank model reads per lane; any other
 * form leaves the copy to its shared side alone. (Kept apart from the
 * declaration and expression converters, which it uses.) */
#include "front/convert.h"

/* Bytes of what pointer expression e points to, or -1: e's own type, a
 * cast's (`(const char *)P + i` steps by 1), not its operand's. */
static long long pointee_size(CXCursor e)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(e));
	return t.kind == CXType_Pointer ? clang_Type_getSizeOf(clang_getPointeeType(t)) : -1;
}

/* off + i * size, or NULL when i does not convert. */
static struct sm_expr *plus_scaled(struct fe *S, struct sm_expr *off, CXCursor idx, long long size, enum sm_op op,
				   CXCursor at)
{
	struct sm_expr *i = cv_conv_expr(S, idx);
	if (!off || !i || size <= 0)
		return NULL;
	return cv_mk_bin(S, op, off, cv_mk_bin(S, SM_OP_MUL, i, cv_mk_const(S, size), at), at);
}

/* The byte offset from a global pointer parameter of the kernel that
 * pointer expression e addresses: P itself (0), &X[i], X + i, X - i, X
 * such an expression; a cast to another pointer type keeps the offset
 * (cv_strip passes it; the step is the type the cast gives). NULL for any
 * other form. */
static struct sm_expr *param_offset(struct fe *S, CXCursor e, int depth)
{
	e = cv_strip(e);
	if (depth > SM_SCAN_EXPR_DEPTH)
		return NULL;
	struct kids ks = cv_kids_of(e);
	enum CXCursorKind k = clang_getCursorKind(e);
	if (k == CXCursor_DeclRefExpr)
		return clang_getCursorKind(clang_getCursorReferenced(e)) == CXCursor_ParmDecl && pointee_size(e) > 0
			       ? cv_mk_const(S, 0)
			       : NULL;
	if (k == CXCursor_UnaryOperator) {
		if (ks.n == 1 && clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_AddrOf &&
		    clang_getCursorKind(cv_strip(ks.c[0])) == CXCursor_ArraySubscriptExpr) {
			struct kids as = cv_kids_of(cv_strip(ks.c[0]));
			if (as.n == 2 && pointee_size(as.c[0]) > 0)
				return plus_scaled(S, param_offset(S, as.c[0], depth + 1), as.c[1], pointee_size(as.c[0]),
						   SM_OP_ADD, e);
		}
		return NULL;
	}
	if (k == CXCursor_BinaryOperator) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
		if (ks.n != 2 || (op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub) || pointee_size(ks.c[0]) <= 0 ||
		    pointee_size(ks.c[1]) > 0)
			return NULL; /* a pointer difference, or int + pointer */
		return plus_scaled(S, param_offset(S, ks.c[0], depth + 1), ks.c[1], pointee_size(ks.c[0]),
				   op == CXBinaryOperator_Add ? SM_OP_ADD : SM_OP_SUB, e);
	}
	return NULL;
}

/* The byte offset from a kernel parameter that a cp.async source operand
 * addresses (param_offset): `&P[i]`, `P + i`, `P + i + j`, `&P[i] + j`,
 * `(const char *)P + i`, with P a global pointer parameter of the kernel
 * (not of an inlined helper, whose pointer may differ per thread). NULL
 * for P itself and for any other form. The bank model reads it per lane:
 * the profiler counts a cp.async's wavefronts by the global lines,
 * shifts and sectors it reads (engine/bank.c). */
struct sm_expr *cv_global_offset(struct fe *S, CXCursor e)
{
	if (S->call)
		return NULL;
	struct sm_expr *off = param_offset(S, e, 0);
	return off && off->kind != SM_E_CONST ? off : NULL;
}
