/* launch_bounds.c - a kernel's __launch_bounds__(max threads, ...): the
 * most threads a block of it may have, which bounds the block shapes the
 * analysis admits when no launch gives one.
 *
 * libclang does not expose the attribute's argument, so it is read from
 * the declaration's tokens: an integer, a macro #defined as one, or an
 * expression of integers, + - * / % and parentheses over the kernel's
 * template parameters (their values in this instantiation) and calls
 * of constexpr functions (`__launch_bounds__(get_warp_size()*nwarps, 1)`,
 * `__launch_bounds__(get_nthreads(D, ncols1*ncols2))`), a call's value
 * being what clang computes for a call of the same function in the
 * kernel's body whose arguments have the same values (the attribute
 * itself is not in the AST libclang gives), and static constant members
 * of a type template parameter (`__launch_bounds__(Ktraits::kNThreads)`).
 * Anything else: 0, no bound. */
#include "front/convert.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The expression being read: tokens t.s[*at .. end), the kernel. */
struct lb {
	struct fe *S;
	CXCursor fn;
	struct toks t;
	unsigned at, end;
	int err;
};

/* a call of `name` in the kernel's body with nargs arguments of the
 * values args[], evaluated */
struct call_find {
	const char *name;
	const int64_t *args;
	int nargs;
	int64_t v;
	int found;
};

static bool same_args(CXCursor c, const struct call_find *cf)
{
	for (int i = 0; i < cf->nargs; i++) {
		int64_t v;
		if (!cv_try_eval_int(clang_Cursor_getArgument(c, (unsigned)i), &v) || v != cf->args[i])
			return false;
	}
	return true;
}

static enum CXChildVisitResult find_call(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	struct call_find *cf = d;
	if (clang_getCursorKind(c) == CXCursor_CallExpr && clang_Cursor_getNumArguments(c) == cf->nargs) {
		CXString s = clang_getCursorSpelling(c);
		int same = !strcmp(clang_getCString(s), cf->name);
		clang_disposeString(s);
		if (same && same_args(c, cf) && cv_try_eval_int(c, &cf->v)) {
			cf->found = 1;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

/* The value of template parameter `name` in this instantiation. */
static int template_param(struct fe *S, CXCursor fn, const char *name, int64_t *v)
{
	CXCursor tmpl = clang_getSpecializedCursorTemplate(fn);
	if (clang_Cursor_isNull(tmpl))
		return 0;
	unsigned nk;
	CXCursor **ks = cv_kids_all(S, tmpl, &nk);
	int idx = 0;
	for (unsigned i = 0; ks && i < nk; i++) {
		enum CXCursorKind k = clang_getCursorKind(*ks[i]);
		if (k != CXCursor_TemplateTypeParameter && k != CXCursor_NonTypeTemplateParameter &&
		    k != CXCursor_TemplateTemplateParameter)
			continue;
		CXString s = clang_getCursorSpelling(*ks[i]);
		int same = !strcmp(clang_getCString(s), name);
		clang_disposeString(s);
		if (same) {
			if (k != CXCursor_NonTypeTemplateParameter || idx >= clang_Cursor_getNumTemplateArguments(fn) ||
			    clang_Cursor_getTemplateArgumentKind(fn, (unsigned)idx) != CXTemplateArgumentKind_Integral)
				return 0;
			*v = clang_Cursor_getTemplateArgumentValue(fn, (unsigned)idx);
			return 1;
		}
		idx++;
	}
	return 0;
}

/* The type that type template parameter `name` stands for in this
 * instantiation, or an invalid type. */
static CXType template_type(struct fe *S, CXCursor fn, const char *name)
{
	CXType none = { CXType_Invalid, { NULL, NULL } };
	CXCursor tmpl = clang_getSpecializedCursorTemplate(fn);
	if (clang_Cursor_isNull(tmpl))
		return none;
	unsigned nk;
	CXCursor **ks = cv_kids_all(S, tmpl, &nk);
	int idx = 0;
	for (unsigned i = 0; ks && i < nk; i++) {
		enum CXCursorKind k = clang_getCursorKind(*ks[i]);
		if (k != CXCursor_TemplateTypeParameter && k != CXCursor_NonTypeTemplateParameter &&
		    k != CXCursor_TemplateTemplateParameter)
			continue;
		CXString s = clang_getCursorSpelling(*ks[i]);
		int same = !strcmp(clang_getCString(s), name);
		clang_disposeString(s);
		if (same)
			return k == CXCursor_TemplateTypeParameter && idx < clang_Cursor_getNumTemplateArguments(fn) &&
					       clang_Cursor_getTemplateArgumentKind(fn, (unsigned)idx) == CXTemplateArgumentKind_Type
				       ? clang_Cursor_getTemplateArgumentType(fn, (unsigned)idx)
				       : none;
		idx++;
	}
	return none;
}

struct member_find {
	const char *name;
	CXCursor owner;         /* the class (canonical), for a use in the body */
	int64_t v;
	int found;
};

/* A use of the member in the kernel's body (`constexpr int n =
 * Ktraits::kNThreads;`): an implicit instantiation lists no members of
 * its own, but a use names the instantiated one, which clang evaluates. */
static enum CXChildVisitResult find_member_use(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	struct member_find *m = d;
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
		CXCursor r = clang_getCursorReferenced(c);
		CXString s = clang_getCursorSpelling(r);
		int same = clang_getCursorKind(r) == CXCursor_VarDecl && !strcmp(clang_getCString(s), m->name) &&
			   clang_equalCursors(clang_getCanonicalCursor(clang_getCursorSemanticParent(r)), m->owner);
		clang_disposeString(s);
		if (same && cv_try_eval_int(c, &m->v)) {
			m->found = 1;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

/* T::m, T a type template parameter: the static constant member m of the
 * class T stands for here (`__launch_bounds__(Ktraits::kNThreads)`, a
 * kernel's traits struct), as its use in the kernel's body evaluates: an
 * implicit instantiation lists no members of its own. A member the body
 * never names gives no bound. */
static int template_member(struct fe *S, CXCursor fn, const char *tname, const char *member, int64_t *v)
{
	CXType t = template_type(S, fn, tname);
	if (t.kind == CXType_Invalid)
		return 0;
	CXCursor decl = clang_getTypeDeclaration(clang_getCanonicalType(t));
	if (clang_Cursor_isNull(decl))
		return 0;
	struct member_find m = { member, clang_getCanonicalCursor(decl), 0, 0 };
	CXCursor body = cv_body_of(fn);
	if (!clang_Cursor_isNull(body))
		clang_visitChildren(body, find_member_use, &m);
	if (m.found)
		*v = m.v;
	return m.found;
}

static const char *peek(struct lb *L)
{
	return L->at < L->end ? L->t.s[L->at] : "";
}

static int64_t sum(struct lb *L, int depth);

static int64_t primary(struct lb *L, int depth)
{
	const char *s = peek(L);
	if (depth > SM_FE_PLACE_CHAIN || L->at >= L->end) {
		L->err = 1;
		return 0;
	}
	L->at++;
	if (!strcmp(s, "(")) {
		int64_t v = sum(L, depth + 1);
		if (strcmp(peek(L), ")"))
			L->err = 1;
		L->at++;
		return v;
	}
	if (isdigit((unsigned char)s[0]))
		return strtoll(s, NULL, 0);
	if (!isalpha((unsigned char)s[0]) && s[0] != '_') {
		L->err = 1;
		return 0;
	}
	int64_t v = 0;
	if (!strcmp(peek(L), "::") && L->at + 1 < L->end) {
		/* Traits::member */
		const char *member = L->t.s[L->at + 1];
		L->at += 2;
		if (!template_member(L->S, L->fn, s, member, &v))
			L->err = 1;
		return v;
	}
	if (!strcmp(peek(L), "(")) {
		/* name(args): the same call in the body, with arguments of the
		 * same values, as clang computes it */
		L->at++;
		int64_t args[SM_LB_CALL_ARGS];
		int nargs = 0;
		while (strcmp(peek(L), ")") && !L->err) {
			if (nargs == SM_LB_CALL_ARGS) {
				L->err = 1;
				return 0;
			}
			args[nargs++] = sum(L, depth + 1);
			if (!strcmp(peek(L), ","))
				L->at++;
			else if (strcmp(peek(L), ")"))
				L->err = 1;
		}
		if (L->err || L->at >= L->end)
			return L->err = 1, 0;
		L->at++;
		struct call_find cf = { s, args, nargs, 0, 0 };
		CXCursor body = cv_body_of(L->fn);
		if (!clang_Cursor_isNull(body))
			clang_visitChildren(body, find_call, &cf);
		if (!cf.found)
			L->err = 1;
		return cf.v;
	}
	if (!template_param(L->S, L->fn, s, &v))
		L->err = 1;
	return v;
}

static int64_t product(struct lb *L, int depth)
{
	int64_t v = primary(L, depth);
	for (;;) {
		const char *op = peek(L);
		if (strcmp(op, "*") && strcmp(op, "/") && strcmp(op, "%"))
			return v;
		L->at++;
		int64_t r = primary(L, depth);
		if (L->err || (op[0] != '*' && r == 0) || v > INT32_MAX || r > INT32_MAX || v < 0 || r < 0) {
			L->err = 1;
			return 0;
		}
		v = op[0] == '*' ? v * r : op[0] == '/' ? v / r : v % r;
	}
}

static int64_t sum(struct lb *L, int depth)
{
	int64_t v = product(L, depth);
	for (;;) {
		const char *op = peek(L);
		if (strcmp(op, "+") && strcmp(op, "-"))
			return v;
		L->at++;
		int64_t r = product(L, depth);
		if (L->err || v > INT32_MAX || r > INT32_MAX || v < -INT32_MAX || r < -INT32_MAX) {
			L->err = 1;
			return 0;
		}
		v = op[0] == '+' ? v + r : v - r;
	}
}

/* a macro: its #define in the file text, when that is an integer */
static int64_t macro_value(struct fe *S, const char *v)
{
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

int64_t cv_launch_bounds(struct fe *S, CXCursor fn)
{
	struct toks t = cv_tokens_until(S, fn, "{");
	for (unsigned i = 0; i + 2 < t.n; i++) {
		if (!strcmp(t.s[i], "{"))
			break;
		if (strcmp(t.s[i], "__launch_bounds__") || strcmp(t.s[i + 1], "("))
			continue;
		/* the first argument: up to a ',' or the ')' at depth 0 */
		unsigned end = i + 2;
		for (int depth = 0; end < t.n; end++) {
			if (!strcmp(t.s[end], "("))
				depth++;
			else if (!strcmp(t.s[end], ")") && depth-- == 0)
				break;
			else if (!strcmp(t.s[end], ",") && depth == 0)
				break;
		}
		if (end == i + 3 && !isdigit((unsigned char)t.s[i + 2][0]) && !template_param(S, fn, t.s[i + 2], &(int64_t){ 0 }))
			return macro_value(S, t.s[i + 2]);
		struct lb L = { S, fn, t, i + 2, end, 0 };
		int64_t v = sum(&L, 0);
		return L.err || L.at != end || v < 1 || v > SM_MAX_BLOCK_THREADS ? 0 : v;
	}
	return 0;
}
