/* host_code.c - errors in host-only function bodies (see host_code.h).
 *
 * The function around an error is found by its extent: the declarations
 * of the error's file are visited (namespaces, linkage blocks, classes and
 * their templates, never function bodies) for the innermost function
 * definition whose extent holds the error's expansion location. Only
 * files with errors are searched, and only then: a file without errors
 * pays nothing. Its CUDA attributes decide, and constexpr: clang makes a
 * constexpr function host-device with implicit attributes, which libclang
 * does not list (CXTranslationUnit_VisitImplicitAttributes would change
 * every converter's view), so the keyword is looked for in its tokens
 * before the body. Functions under #pragma clang force_cuda_host_device
 * are not recognized (their attributes are implicit too): an error there
 * counts as host code.
 * A lambda in the body may be a __device__ lambda: an error inside any
 * lambda stays an error. */
#include "front/host_code.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "front/convert.h"

struct find {
	CXFile file;
	unsigned offset;       /* the error's expansion offset in file */
	CXCursor fn;           /* the innermost function definition holding it */
	bool found;
	bool in_lambda;
};

/* does c's extent hold the error (in its file)? */
static bool holds(const struct find *w, CXCursor c)
{
	CXSourceRange r = clang_getCursorExtent(c);
	CXFile fb = NULL, fe = NULL;
	unsigned b, e;
	clang_getExpansionLocation(clang_getRangeStart(r), &fb, NULL, NULL, &b);
	clang_getExpansionLocation(clang_getRangeEnd(r), &fe, NULL, NULL, &e);
	return fb && fe && clang_File_isEqual(fb, w->file) && clang_File_isEqual(fe, w->file) && b <= w->offset &&
	       w->offset < e;
}

static bool is_function(enum CXCursorKind k)
{
	return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
	       k == CXCursor_Destructor || k == CXCursor_ConversionFunction || k == CXCursor_FunctionTemplate;
}

static bool is_scope(enum CXCursorKind k)
{
	return k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_StructDecl ||
	       k == CXCursor_ClassDecl || k == CXCursor_UnionDecl || k == CXCursor_ClassTemplate ||
	       k == CXCursor_ClassTemplatePartialSpecialization || k == CXCursor_UnexposedDecl;
}

static enum CXChildVisitResult find_lambda(CXCursor c, CXCursor parent, CXClientData data)
{
	struct find *w = data;
	if (clang_getCursorKind(c) == CXCursor_LambdaExpr && holds(w, c)) {
		w->in_lambda = true;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

static enum CXChildVisitResult find_function(CXCursor c, CXCursor parent, CXClientData data)
{
	struct find *w = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (is_scope(k))
		return holds(w, c) ? CXChildVisit_Recurse : CXChildVisit_Continue;
	if (is_function(k) && clang_isCursorDefinition(c) && holds(w, c)) {
		w->fn = c;
		w->found = true;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

/* constexpr (or consteval) before the body: clang makes such a function
 * host-device with implicit attributes, which libclang does not list */
static bool is_constexpr(CXTranslationUnit tu, CXCursor fn)
{
	CXToken *toks = NULL;
	unsigned n = 0;
	clang_tokenize(tu, clang_getCursorExtent(fn), &toks, &n);
	bool found = false;
	for (unsigned i = 0; i < n && !found; i++) {
		CXString s = clang_getTokenSpelling(tu, toks[i]);
		const char *t = clang_getCString(s);
		if (t && !strcmp(t, "{"))
			i = n; /* the body: stop */
		else if (t && (!strcmp(t, "constexpr") || !strcmp(t, "consteval")))
			found = true;
		clang_disposeString(s);
	}
	clang_disposeTokens(tu, toks, n);
	return found;
}

static bool device_side(CXTranslationUnit tu, CXCursor fn)
{
	return cv_has_attr(fn, CXCursor_CUDADeviceAttr) || cv_has_attr(fn, CXCursor_CUDAGlobalAttr) ||
	       is_constexpr(tu, fn);
}

void cv_host_code_note(CXTranslationUnit tu, CXDiagnostic d, struct sm_note *note, struct sm_arena *A)
{
	struct find w = { 0 };
	clang_getExpansionLocation(clang_getDiagnosticLocation(d), &w.file, NULL, NULL, &w.offset);
	if (!w.file)
		return;
	clang_visitChildren(clang_getTranslationUnitCursor(tu), find_function, &w);
	if (!w.found || device_side(tu, w.fn))
		return;
	clang_visitChildren(w.fn, find_lambda, &w);
	if (w.in_lambda)
		return;
	const char *name = cv_cx_str(A, clang_getCursorSpelling(w.fn));
	const char *msg = sm_arena_printf(A, "%s (in host function '%s', which nvcc's device pass does not compile; "
					     "the device code is analyzed)", note->message, name ? name : "?");
	if (!msg)
		return;
	note->message = msg;
	note->kind = SM_NOTE_HOST_CLANG;
	note->level = 1;
}
