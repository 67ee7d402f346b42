/* convert_global.c - the global side of an asynchronous copy.
 *
 * A cp.async (inline PTX, __pipeline_memcpy_async) moves global memory
 * through L1, and the profiler counts one shared wavefront per global
 * 128-byte line and shift its lanes read (engine/bank.c,
 * sm_cp_async_groups). Its source operand written `&P[i]` or `P + i`,
 * with P a global pointer parameter of the kernel, gives the byte offset
 * i * sizeof(*P) that the bank model reads per lane; any other form
 * leaves the copy to its shared side alone. (Kept apart from the
 * declaration and expression converters, which it uses.) */
#include "front/convert.h"

/* The byte offset from a kernel parameter that a cp.async source operand
 * addresses, `&P[i]` or `P + i` with P a global pointer parameter of the
 * kernel (not of an inlined helper, whose pointer may differ per thread):
 * i times P's element size. NULL for any other form. The bank model reads
 * it per lane: the profiler counts one wavefront of a cp.async per global
 * line and shift it reads (engine/bank.c). */
struct sm_expr *cv_global_offset(struct fe *S, CXCursor e)
{
	e = cv_strip(e);
	CXCursor ptr = clang_getNullCursor(), idx = clang_getNullCursor();
	struct kids ks = cv_kids_of(e);
	enum CXCursorKind k = clang_getCursorKind(e);
	if (k == CXCursor_UnaryOperator && ks.n == 1 && clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_AddrOf &&
	    clang_getCursorKind(cv_strip(ks.c[0])) == CXCursor_ArraySubscriptExpr) {
		struct kids as = cv_kids_of(cv_strip(ks.c[0]));
		if (as.n == 2) {
			ptr = as.c[0];
			idx = as.c[1];
		}
	} else if (k == CXCursor_BinaryOperator && ks.n == 2 && clang_getCursorBinaryOperatorKind(e) == CXBinaryOperator_Add &&
		   clang_getCanonicalType(clang_getCursorType(cv_strip(ks.c[0]))).kind == CXType_Pointer) {
		ptr = ks.c[0];
		idx = ks.c[1];
	}
	if (clang_Cursor_isNull(ptr) || S->call)
		return NULL;
	CXCursor p = cv_strip(ptr);
	CXType pt = clang_getCanonicalType(clang_getCursorType(p));
	long long size = pt.kind == CXType_Pointer ? clang_Type_getSizeOf(clang_getPointeeType(pt)) : -1;
	if (clang_getCursorKind(p) != CXCursor_DeclRefExpr ||
	    clang_getCursorKind(clang_getCursorReferenced(p)) != CXCursor_ParmDecl || size <= 0)
		return NULL;
	struct sm_expr *i = cv_conv_expr(S, idx);
	return i ? cv_mk_bin(S, SM_OP_MUL, i, cv_mk_const(S, size), e) : NULL;
}
