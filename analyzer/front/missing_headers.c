/* missing_headers.c - a header that is not there (see missing_headers.h).
 *
 * clang's "file not found" is fatal, but the parse keeps going
 * (CXTranslationUnit_KeepGoing): what follows is parsed without the
 * header's declarations, and each use of one is an error somewhere in a
 * function, a declaration or a template instantiation. An error's
 * expansion position is kept; a function is tainted when its extent holds
 * one, which for a template instantiated with a missing type is the
 * instantiation's own error. */
#include "front/missing_headers.h"

#include <stdio.h>
#include <string.h>

#include "front/convert.h"
#include "front/include_site.h"
#include "front/nvcc_dialect.h"

/* 'name' file not found: name, else NULL */
static const char *not_found_name(struct fe *S, const char *msg)
{
	static const char tail[] = "' file not found";
	size_t n = msg ? strlen(msg) : 0, t = sizeof(tail) - 1;
	if (n < t + 2 || msg[0] != '\'' || strcmp(msg + n - t, tail))
		return NULL;
	return sm_arena_printf(S->FA, "%.*s", (int)(n - t - 1), msg + 1);
}

unsigned cv_missing_scan(struct fe *S)
{
	struct fe_missing *m = &S->miss;
	unsigned n = clang_getNumDiagnostics(S->tu);
	unsigned errors = 0;
	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(S->tu, i);
		if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
			errors++;
			CXString s = clang_getDiagnosticSpelling(d);
			const char *name = not_found_name(S, clang_getCString(s));
			clang_disposeString(s);
			if (name) {
				if (!m->names.n) {
					CXFile f = NULL;
					unsigned line = 0, col = 0;
					clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, &line, &col, NULL);
					if (f && clang_File_isEqual(f, S->main_file))
						m->first = (struct sm_pos){ line, col };
					else if (f)
						(void)cv_include_site(S->tu, f, S->FA, &m->first);
				}
				bool seen = false;
				for (unsigned k = 0; k < m->names.n && !seen; k++)
					seen = !strcmp(m->names.v[k], name);
				if (!seen)
					cv_vec_push(S->FA, &m->names, (void *)name);
			}
		}
		clang_disposeDiagnostic(d);
	}
	if (!m->names.n)
		return 0;
	m->err_file = sm_arena_alloc(S->FA, (errors + 1) * sizeof(*m->err_file));
	m->err_off = sm_arena_alloc(S->FA, (errors + 1) * sizeof(*m->err_off));
	if (!m->err_file || !m->err_off) {
		m->names.n = 0; /* the arena is spent: as before, plain errors */
		return 0;
	}
	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(S->tu, i);
		if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error && m->nerr < errors) {
			CXFile f = NULL;
			unsigned off = 0;
			clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, NULL, NULL, &off);
			if (f) {
				m->err_file[m->nerr] = f;
				m->err_off[m->nerr++] = off;
			}
		}
		clang_disposeDiagnostic(d);
	}
	return m->names.n;
}

/* Does c's extent hold one of the errors kept? */
static bool holds_error(const struct fe_missing *m, CXCursor c)
{
	CXSourceRange r = clang_getCursorExtent(c);
	CXFile fb = NULL, fe_ = NULL;
	unsigned b = 0, e = 0;
	clang_getExpansionLocation(clang_getRangeStart(r), &fb, NULL, NULL, &b);
	clang_getExpansionLocation(clang_getRangeEnd(r), &fe_, NULL, NULL, &e);
	if (!fb || !fe_ || !clang_File_isEqual(fb, fe_))
		return false;
	for (unsigned i = 0; i < m->nerr; i++)
		if (b <= m->err_off[i] && m->err_off[i] <= e && clang_File_isEqual(m->err_file[i], fb))
			return true;
	return false;
}

struct ref_walk {
	const struct fe_missing *m;
	bool in_template;       /* dependent types are the template's own */
	bool found;
};

/* A reference in the body to a declaration clang made invalid, or to a
 * function whose declaration holds an error (a parameter of a missing
 * type): clang drops such a call without an error of its own, so the
 * caller would be analyzed without the accesses of its arguments. */
static enum CXChildVisitResult find_invalid_ref(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct ref_walk *w = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	/* clang's recovery from a call it could not make (to a function of
	 * an invalid declaration) is an expression of dependent type, which
	 * outside a template nothing else is */
	if (!w->in_template && k == CXCursor_UnexposedExpr && clang_getCursorType(c).kind == CXType_Dependent) {
		w->found = true;
		return CXChildVisit_Break;
	}
	if (k == CXCursor_DeclRefExpr || k == CXCursor_CallExpr || k == CXCursor_MemberRefExpr ||
	    k == CXCursor_OverloadedDeclRef) {
		CXCursor d = clang_getCursorReferenced(c);
		if (!clang_Cursor_isNull(d) && !clang_isInvalid(clang_getCursorKind(d))) {
			enum CXCursorKind dk = clang_getCursorKind(d);
			bool fn = dk == CXCursor_FunctionDecl || dk == CXCursor_CXXMethod || dk == CXCursor_FunctionTemplate;
			if (clang_isInvalidDeclaration(d) || (fn && holds_error(w->m, d))) {
				w->found = true;
				return CXChildVisit_Break;
			}
		}
	}
	return CXChildVisit_Recurse;
}

/* Collect the names of the functions declared invalid or holding an
 * error (namespaces, linkage blocks and classes are entered). */
static enum CXChildVisitResult collect_bad(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct fe *S = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_StructDecl || k == CXCursor_ClassDecl ||
	    k == CXCursor_ClassTemplate || k == CXCursor_UnexposedDecl)
		return CXChildVisit_Recurse;
	if ((k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate || k == CXCursor_CXXMethod) &&
	    (clang_isInvalidDeclaration(c) || holds_error(&S->miss, c))) {
		const char *name = cv_cx_str(S->FA, clang_getCursorSpelling(c));
		if (name && *name)
			cv_vec_push(S->FA, &S->miss.bad_names, (void *)name);
	}
	return CXChildVisit_Continue;
}

/* Does fn's text name a function that rests on a missing header? clang
 * drops a statement calling a function of an invalid declaration without
 * an error of its own, so only the tokens still show the call. */
static bool names_bad_function(struct fe *S, CXCursor fn)
{
	struct fe_missing *m = &S->miss;
	if (!m->bad_scanned) {
		m->bad_scanned = true;
		clang_visitChildren(clang_getTranslationUnitCursor(S->tu), collect_bad, S);
	}
	if (!m->bad_names.n)
		return false;
	CXToken *toks = NULL;
	unsigned n = 0;
	int owned = cv_tokenize_extent(S, fn, &toks, &n);
	CXString self = clang_getCursorSpelling(fn);
	const char *own = clang_getCString(self);
	bool found = false;
	for (unsigned i = 0; i < n && !found; i++) {
		if (clang_getTokenKind(toks[i]) != CXToken_Identifier)
			continue;
		CXString s = clang_getTokenSpelling(S->tu, toks[i]);
		const char *t = clang_getCString(s);
		for (unsigned k = 0; t && k < m->bad_names.n && !found; k++)
			found = !strcmp(t, m->bad_names.v[k]) && !(own && !strcmp(t, own));
		clang_disposeString(s);
	}
	clang_disposeString(self);
	if (owned)
		clang_disposeTokens(S->tu, toks, n);
	return found;
}

bool cv_missing_taints(struct fe *S, CXCursor fn)
{
	const struct fe_missing *m = &S->miss;
	if (!m->names.n)
		return false;
	if (clang_isInvalidDeclaration(fn) || holds_error(m, fn))
		return true;
	enum CXCursorKind fk = clang_getCursorKind(fn);
	CXCursor sem = clang_getCursorSemanticParent(fn);
	bool in_template = fk == CXCursor_FunctionTemplate || clang_getCursorKind(sem) == CXCursor_ClassTemplate ||
			   clang_getCursorKind(sem) == CXCursor_ClassTemplatePartialSpecialization;
	struct ref_walk w = { m, in_template, false };
	clang_visitChildren(fn, find_invalid_ref, &w);
	return w.found || names_bad_function(S, fn);
}

void cv_missing_dropped(struct fe *S, const char *name)
{
	struct fe_missing *m = &S->miss;
	if (!name)
		return;
	for (unsigned k = 0; k < m->dropped.n; k++)
		if (!strcmp(m->dropped.v[k], name))
			return;
	cv_vec_push(S->FA, &m->dropped, (void *)sm_arena_strdup(S->FA, name));
}

/* ", 'a', 'b' and 3 more" into buf from names */
static void list(char *buf, size_t n, const struct vec *names, unsigned shown)
{
	size_t len = 0;
	buf[0] = 0;
	for (unsigned k = 0; k < names->n && k < shown && len < n; k++)
		len += (size_t)snprintf(buf + len, n - len, "%s'%s'", k ? ", " : "", (const char *)names->v[k]);
	if (names->n > shown && len < n)
		snprintf(buf + len, n - len, " and %u more", names->n - shown);
}

const char *cv_missing_message(struct fe *S)
{
	const struct fe_missing *m = &S->miss;
	if (!m->names.n)
		return NULL;
	char heads[SM_MISSING_LIST_BYTES], fns[SM_MISSING_LIST_BYTES];
	list(heads, sizeof(heads), &m->names, SM_MISSING_LIST_NAMES);
	list(fns, sizeof(fns), &m->dropped, SM_MISSING_LIST_NAMES);
	const char *errs = m->folded ? sm_arena_printf(S->FA, " (%u error%s follow%s from what %s would declare)", m->folded,
						     m->folded == 1 ? "" : "s", m->folded == 1 ? "s" : "",
						     m->names.n == 1 ? "it" : "they")
				     : "";
	if (!errs)
		errs = "";
	if (m->dropped.n)
		return sm_arena_printf(S->FA,
				       "partly parsed: %s not found%s; not analyzed, as %s on those declarations: %s; "
				       "every other kernel and device function is analyzed",
				       heads, errs, m->dropped.n == 1 ? "it rests" : "they rest", fns);
	return sm_arena_printf(S->FA,
			       "partly parsed: %s not found%s; no kernel or device function rests on those "
			       "declarations, so every one is analyzed",
			       heads, errs);
}
