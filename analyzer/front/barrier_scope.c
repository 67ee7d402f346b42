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

/* A tile type's parent (thread_block_tile<4, thread_block_tile<32, P>>):
 * the parent tile's size, 0 a thread_block, -1 unknown (void, the
 * default, which the canonical spelling leaves out, or another group). */
static int64_t parent_of_type(struct fe *S, CXType t)
{
	t = clang_getCanonicalType(t);
	if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference || t.kind == CXType_Pointer)
		t = clang_getCanonicalType(clang_getPointeeType(t));
	const char *n = cv_cx_str(S->A, clang_getTypeSpelling(t));
	const char *tile = n ? strstr(n, "_tile<") : NULL;
	if (!tile)
		return -1;
	const char *p = tile + 6;
	while (isdigit((unsigned char)*p) || *p == 'U' || *p == 'u' || *p == ' ')
		p++;
	if (*p != ',')
		return -1;
	p++;
	const char *inner = strstr(p, "_tile<");
	if (inner) {
		long long v = strtoll(inner + 6, NULL, 10);
		return v > 0 && v <= SM_MAX_BLOCK_THREADS ? v : -1;
	}
	return strstr(p, "thread_block") && !strstr(p, "void") ? 0 : -1;
}

static int64_t tile_parent(struct fe *S, CXCursor obj, int depth);

struct parent_find {
	struct fe *S;
	int depth;
	int found;
	int64_t parent;
};

/* In a tile variable's initializer: the tiled_partition call it was made
 * by (its type, or for tiled_partition(parent, n) the parent), or the
 * tile variable it copies. */
static enum CXChildVisitResult parent_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	struct parent_find *F = d;
	enum CXCursorKind k = clang_getCursorKind(c);
	const char *n = k == CXCursor_CallExpr ? cv_cx_str(F->S->A, clang_getCursorSpelling(c)) : NULL;
	if (n && !strcmp(n, "tiled_partition")) {
		struct cv_group g;
		F->found = 1;
		F->parent = parent_of_type(F->S, clang_getCursorType(c));
		if (F->parent < 0 && clang_Cursor_getNumArguments(c) == 2 &&
		    cv_group_info(F->S, clang_Cursor_getArgument(c, 0), &g))
			F->parent = g.sc == SM_SCOPE_BLOCK ? 0 : g.sc == SM_SCOPE_TILE && g.arg > 0 ? g.arg : -1;
		return CXChildVisit_Break;
	}
	if (k == CXCursor_DeclRefExpr && clang_getCursorKind(clang_getCursorReferenced(c)) != CXCursor_FunctionDecl) {
		enum sm_scope sc;
		int64_t arg;
		if (scope_of_type(F->S, clang_getCursorType(c), &sc, &arg) == 1 && sc == SM_SCOPE_TILE) {
			F->found = 1;
			F->parent = tile_parent(F->S, c, F->depth + 1);
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

/* The parent of the tile obj (struct cv_group): from its type, else from
 * what its variable was initialized with or the call being inlined passed. */
static int64_t tile_parent(struct fe *S, CXCursor obj, int depth)
{
	obj = cv_strip(obj);
	int64_t p = parent_of_type(S, clang_getCursorType(obj));
	if (p >= 0 || depth > SM_FE_TILE_CHAIN || clang_getCursorKind(obj) != CXCursor_DeclRefExpr)
		return p;
	CXCursor var = clang_getCursorReferenced(obj);
	const struct cv_group *gp = cv_cmap_get(&S->groups, var);
	if (gp)
		return gp->parent;
	if (clang_getCursorKind(var) != CXCursor_VarDecl)
		return -1;
	struct parent_find F = { S, depth, 0, -1 };
	clang_visitChildren(var, parent_visit, &F);
	return F.parent;
}

int cv_group_info(struct fe *S, CXCursor obj, struct cv_group *g)
{
	g->parent = -1;
	g->cluster = false;
	if (!cv_group_scope(S, obj, &g->sc, &g->arg))
		return 0;
	CXCursor o = cv_strip(obj);
	const struct cv_group *gp = clang_getCursorKind(o) == CXCursor_DeclRefExpr
					    ? cv_cmap_get(&S->groups, clang_getCursorReferenced(o)) : NULL;
	if (gp) {
		*g = *gp; /* a parameter: the group the inlined call passed */
		return 1;
	}
	const char *tn = cv_cx_str(S->A, clang_getTypeSpelling(clang_getCursorType(o)));
	g->cluster = tn && strstr(tn, "cluster_group");
	if (g->sc == SM_SCOPE_TILE && g->arg > 0)
		g->parent = tile_parent(S, obj, 0);
	/* a tile must fit its parent a whole number of times */
	if (g->parent > 0 && (g->parent < g->arg || g->parent % g->arg))
		g->parent = -1;
	return 1;
}

int cv_call_group(struct fe *S, CXCursor call, struct cv_group *g)
{
	if (clang_Cursor_getNumArguments(call) >= 1 && cv_group_info(S, clang_Cursor_getArgument(call, 0), g))
		return 1;
	/* g.f(): the member expression's object (a static member is
	 * reached through an implicit cast) */
	struct kids k2 = cv_kids_of(call);
	CXCursor callee = k2.n > 0 ? cv_strip(k2.c[0]) : clang_getNullCursor();
	if (clang_getCursorKind(callee) != CXCursor_MemberRefExpr)
		return 0;
	struct kids k3 = cv_kids_of(callee);
	return k3.n > 0 && cv_group_info(S, k3.c[0], g);
}

struct sm_expr *cv_group_dim3_member(struct fe *S, CXCursor member)
{
	struct kids ks = cv_kids_of(member);
	CXCursor call = ks.n == 1 ? cv_strip(ks.c[0]) : clang_getNullCursor();
	if (clang_getCursorKind(call) != CXCursor_CallExpr || clang_Cursor_getNumArguments(call) != 0)
		return NULL;
	const char *n = cv_cx_str(S->A, clang_getCursorSpelling(call));
	const char *m = cv_cx_str(S->A, clang_getCursorSpelling(member));
	enum sm_builtin which;
	if (!strcmp(n, "group_index"))
		which = SM_B_CTAID;
	else if (!strcmp(n, "thread_index"))
		which = SM_B_TID;
	else if (!strcmp(n, "dim_threads") || !strcmp(n, "group_dim"))
		which = SM_B_NTID;
	else
		return NULL;
	int dim = !strcmp(m, "x") ? 0 : !strcmp(m, "y") ? 1 : !strcmp(m, "z") ? 2 : -1;
	struct cv_group g;
	if (dim < 0 || !cv_call_group(S, call, &g) || g.sc != SM_SCOPE_BLOCK || g.cluster)
		return NULL;
	struct sm_expr *e = cv_mk_expr(S, SM_E_BUILTIN, member);
	if (e) {
		e->builtin = which;
		e->dim = dim;
	}
	return e;
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
	struct toks t = cv_asm_tokens(S, c);
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
