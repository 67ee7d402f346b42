/* barrier_scope.c - which threads a barrier orders (enum sm_scope).
 *
 * A barrier statement carries its scope: the whole block (__syncthreads,
 * a thread_block's sync, bar.sync without a count), a grid (grid_group),
 * a tile of N consecutive threads (thread_block_tile<N>, and a
 * thread_group initialized by tiled_partition(parent, N) with N a
 * constant), the lanes of a constant __syncwarp mask, the active threads
 * of a coalesced_group, or the thread count of `bar.sync id, count`.
 *
 * A cooperative-groups object's kind comes from its type's canonical
 * spelling (the tile size is the first template argument of
 * thread_block_tile<N, Parent>); a type-erased thread_group is followed to
 * its variable's initializer, and a thread_group parameter of an inlined
 * __device__ function to the argument of the call being inlined (a tile
 * passed for `cg::thread_group g` makes g.sync() a tile barrier; resolved
 * in the caller, so a group handed down several calls keeps its scope).
 * What cannot be told (a tile size that is no constant, a thread_group
 * parameter whose argument is unknown) is left to the caller: a group
 * whose kind is unknown is not a barrier smemlint models (as a call it is
 * opaque), a tile of unknown size is a block barrier (TILE with 0), a
 * mask that is no constant is LANES 0 (lanes unknown).
 */
#include "front/convert.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The scope a group type spells. 1 known, 0 a type-erased thread_group,
 * -1 not a cooperative group. */
static int scope_of_type(struct fe *S, CXType t, enum sm_scope *sc, int64_t *arg)
{
	t = clang_getCanonicalType(t);
	if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference || t.kind == CXType_Pointer)
		t = clang_getCanonicalType(clang_getPointeeType(t));
	const char *n = cv_cx_str(S->A, clang_getTypeSpelling(t));
	if (!n)
		return -1;
	const char *tile = strstr(n, "_tile");
	const char *lt = tile ? strchr(tile, '<') : NULL;
	*arg = 0;
	if (lt) {
		/* thread_block_tile<32, ...> and its bases */
		char *end = NULL;
		long long v = strtoll(lt + 1, &end, 10);
		*sc = SM_SCOPE_TILE;
		if (end && end != lt + 1 && v > 0 && v <= SM_MAX_BLOCK_THREADS)
			*arg = v;
		return 1;
	}
	if (strstr(n, "coalesced_group")) {
		*sc = SM_SCOPE_ACTIVE;
		return 1;
	}
	if (strstr(n, "grid_group")) {
		*sc = SM_SCOPE_GRID;
		return 1;
	}
	if (strstr(n, "thread_block") || strstr(n, "cluster_group")) {
		*sc = SM_SCOPE_BLOCK;
		return 1;
	}
	if (strstr(n, "thread_group"))
		return 0;
	return -1;
}

struct init_find {
	struct fe *S;
	int found;              /* 1 known, -1 looked and failed */
	enum sm_scope sc;
	int64_t arg;
};

static enum CXChildVisitResult init_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	struct init_find *F = d;
	if (F->found)
		return CXChildVisit_Break;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_CallExpr) {
		const char *n = cv_cx_str(F->S->A, clang_getCursorSpelling(c));
		if (n && !strcmp(n, "tiled_partition") && clang_Cursor_getNumArguments(c) == 2) {
			int64_t v;
			F->sc = SM_SCOPE_TILE;
			F->arg = cv_try_eval_int(clang_Cursor_getArgument(c, 1), &v) && v > 0 &&
					 v <= SM_MAX_BLOCK_THREADS ? v : 0;
			F->found = 1;
			return CXChildVisit_Break;
		}
	}
	if (k == CXCursor_DeclRefExpr) {
		/* thread_group g2 = g; with g a parameter */
		const struct cv_group *gp = cv_cmap_get(&F->S->groups, clang_getCursorReferenced(c));
		if (gp) {
			F->sc = gp->sc;
			F->arg = gp->arg;
			F->found = 1;
			return CXChildVisit_Break;
		}
	}
	if (clang_isExpression(k)) {
		enum sm_scope sc;
		int64_t arg;
		if (scope_of_type(F->S, clang_getCursorType(c), &sc, &arg) == 1) {
			F->sc = sc;
			F->arg = arg;
			F->found = 1;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

/* The group a conversion to thread_group is made from: the operand of a
 * copy or converting construction (thread_group(tile)) or of a conversion
 * operator's call (tile.operator thread_group()), else null. */
static CXCursor converted_from(struct fe *S, CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k != CXCursor_CallExpr && k != CXCursor_MemberRefExpr)
		return clang_getNullCursor();
	const char *n = cv_cx_str(S->A, clang_getCursorSpelling(c));
	if (!n || (strcmp(n, "thread_group") != 0 && strncmp(n, "operator ", 9) != 0))
		return clang_getNullCursor();
	CXCursor next = cv_sole_operand(c);
	return clang_Cursor_isNull(next) ? next : cv_strip(next);
}

int cv_group_scope(struct fe *S, CXCursor obj, enum sm_scope *sc, int64_t *arg)
{
	obj = cv_strip(obj);
	int r = scope_of_type(S, clang_getCursorType(obj), sc, arg);
	/* an argument converted to thread_group: the group it came from */
	for (int guard = 0; r == 0 && guard < 8; guard++) {
		CXCursor from = converted_from(S, obj);
		if (clang_Cursor_isNull(from))
			break;
		obj = from;
		if (clang_getCursorKind(obj) == CXCursor_MemberRefExpr)
			obj = converted_from(S, obj); /* .operator thread_group: its object */
		if (clang_Cursor_isNull(obj))
			return 0;
		r = scope_of_type(S, clang_getCursorType(obj), sc, arg);
	}
	if (r != 0)
		return r > 0;
	/* a thread_group: what its variable was initialized with, or for a
	 * parameter what the inlined call passed */
	if (clang_getCursorKind(obj) != CXCursor_DeclRefExpr)
		return 0;
	CXCursor var = clang_getCursorReferenced(obj);
	const struct cv_group *gp = cv_cmap_get(&S->groups, var);
	if (gp) {
		*sc = gp->sc;
		*arg = gp->arg;
		return 1;
	}
	if (clang_getCursorKind(var) != CXCursor_VarDecl)
		return 0;
	struct init_find F = { S, 0, SM_SCOPE_BLOCK, 0 };
	clang_visitChildren(var, init_visit, &F);
	if (F.found != 1)
		return 0;
	*sc = F.sc;
	*arg = F.arg;
	return 1;
}

int cv_is_group_param(struct fe *S, CXCursor p)
{
	enum sm_scope sc;
	int64_t arg;
	return scope_of_type(S, clang_getCursorType(p), &sc, &arg) >= 0;
}

void cv_syncwarp_scope(CXCursor call, int nargs, CXCursor arg0, struct sm_stmt *s)
{
	s->scope = SM_SCOPE_LANES;
	s->scope_arg = 0xffffffffLL;
	int64_t v;
	if (nargs < 1)
		return;
	if (cv_try_eval_int(arg0, &v)) {
		s->scope_arg = (int64_t)((uint64_t)v & 0xffffffffu);
		return;
	}
	/* the declaration's default argument (0xffffffff) lies outside the
	 * call as written */
	CXSourceRange cr = clang_getCursorExtent(call), ar = clang_getCursorExtent(arg0);
	unsigned co, ce, ao;
	clang_getFileLocation(clang_getRangeStart(cr), NULL, NULL, NULL, &co);
	clang_getFileLocation(clang_getRangeEnd(cr), NULL, NULL, NULL, &ce);
	clang_getFileLocation(clang_getRangeStart(ar), NULL, NULL, NULL, &ao);
	if (ao >= co && ao < ce)
		s->scope_arg = 0; /* a mask computed at run time */
}

/* The count operand of "bar.sync a, b;" in one string token, or 0. */
static int64_t asm_count(const char *tok)
{
	const char *names[] = { "barrier.sync", "bar.sync" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *p = strstr(tok, names[i]);
		if (!p)
			continue;
		p += strlen(names[i]);
		while (*p && !isspace((unsigned char)*p)) /* .aligned */
			p++;
		while (*p && *p != ',' && *p != ';' && *p != '"' && *p != '\\')
			p++;
		if (*p != ',')
			return 0; /* no count: the whole block */
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		char *end = NULL;
		long long v = strtoll(p, &end, 0);
		if (end == p || v <= 0)
			return -1; /* a count in a register: not known */
		return v;
	}
	return 0;
}

void cv_asm_scope(struct fe *S, CXCursor c, struct sm_stmt *s)
{
	struct toks t = cv_tokens_of(S, c);
	s->scope = SM_SCOPE_BLOCK;
	s->scope_arg = 0;
	for (unsigned i = 0; i < t.n; i++) {
		if (t.s[i][0] != '"')
			continue;
		int64_t n = asm_count(t.s[i]);
		if (n > 0) {
			s->scope = SM_SCOPE_COUNT;
			s->scope_arg = n;
		}
		if (n != 0)
			return;
	}
}
