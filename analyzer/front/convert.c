/* convert.c - the pieces every part of the conversion uses.
 *
 * Growable arrays of pointers in the arena (the statements of a block, the
 * kernels and arrays of a file), hash maps from cursors to the IR objects
 * made for them, and the ways of looking at a cursor that the expression,
 * declaration, statement and kernel converters share: its position in the
 * main file, its first children, its tokens, its value as a constant.
 * cv_emit appends a statement to the block being built (fe.block), which
 * is how conversion keeps evaluation order.
 */
#include "front/convert.h"
#include "front/include_site.h"

#include <stdlib.h>
#include <string.h>

/* ---------- small growable arrays in the arena ---------- */

void cv_vec_push(struct sm_arena *A, struct vec *x, void *p)
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

void cv_cmap_free(struct cmap *m)
{
	free(m->e);
	memset(m, 0, sizeof(*m));
}

void *cv_cmap_get(const struct cmap *m, CXCursor k)
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

int cv_cmap_put(struct cmap *m, CXCursor k, void *v)
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

/* ---------- cursors, positions, tokens ---------- */

struct sm_pos cv_pos_of(CXSourceLocation loc)
{
	unsigned line = 0, col = 0;
	clang_getExpansionLocation(loc, NULL, &line, &col, NULL);
	struct sm_pos p = { line, col };
	return p;
}

struct sm_range cv_range_of(struct fe *S, CXCursor c)
{
	CXSourceRange r = clang_getCursorExtent(c);
	struct sm_range out;
	/* the start's file, line and column in one walk of its expansions
	 * (a walk per node is most of the cost of a deep macro) */
	CXFile f = NULL;
	unsigned line = 0, col = 0;
	clang_getExpansionLocation(clang_getRangeStart(r), &f, &line, &col, NULL);
	out.begin = (struct sm_pos){ line, col };
	out.end = cv_pos_of(clang_getRangeEnd(r));
	int k = f ? cv_file_index(S, f) : 0;
	out.file = k > 0 ? (unsigned)k : 0;
	return out;
}

/* ---------- which files are converted ---------- */

/* Is the header `f` one whose code is converted with the main file: not a
 * system header (-isystem, clang's own), not under the toolkit, and its
 * absolute path matches the header filter? */
static int header_wanted(struct fe *S, CXFile f)
{
	if (!S->header_filter)
		return 0;
	if (clang_Location_isInSystemHeader(clang_getLocationForOffset(S->tu, f, 0)))
		return 0;
	CXString rs = clang_File_tryGetRealPathName(f);
	const char *real = clang_getCString(rs);
	CXString ns = clang_getFileName(f);
	const char *name = real && *real ? real : clang_getCString(ns);
	int ok = name && *name == '/';
	if (ok && S->toolkit) {
		size_t tl = strlen(S->toolkit);
		while (tl > 1 && S->toolkit[tl - 1] == '/')
			tl--;
		if (!strncmp(name, S->toolkit, tl) && (name[tl] == '/' || !name[tl]))
			ok = 0;
	}
	if (ok)
		ok = regexec(S->header_filter, name, 0, NULL, 0) == 0;
	clang_disposeString(rs);
	clang_disposeString(ns);
	return ok;
}

int cv_file_index(struct fe *S, CXFile f)
{
	/* the same CXFile is the same file: compared as pointers first (every
	 * cursor's position asks; clang_File_isEqual is a call into
	 * libclang per file seen) */
	if (!f || f == S->main_file)
		return 0;
	for (unsigned i = 0; i < S->nfiles; i++)
		if (S->files[i].file == f)
			return S->files[i].index;
	if (S->main_file && clang_File_isEqual(f, S->main_file))
		return 0;
	for (unsigned i = 0; i < S->nfiles; i++)
		if (clang_File_isEqual(S->files[i].file, f))
			return S->files[i].index;
	int index = -1;
	if (header_wanted(S, f) && S->F->nheaders < SM_MAX_CONVERTED_HEADERS) {
		struct sm_header *nh = sm_arena_alloc(S->FA, (S->F->nheaders + 1) * sizeof(*nh));
		if (nh) {
			if (S->F->nheaders)
				memcpy(nh, S->F->headers, S->F->nheaders * sizeof(*nh));
			struct sm_header *h = &nh[S->F->nheaders];
			CXString rs = clang_File_tryGetRealPathName(f);
			const char *real = clang_getCString(rs);
			h->path = real && *real ? sm_arena_strdup(S->FA, real) : cv_cx_str(S->FA, clang_getFileName(f));
			clang_disposeString(rs);
			size_t len = 0;
			const char *text = clang_getFileContents(S->tu, f, &len);
			char *copy = sm_arena_alloc(S->FA, len + 1);
			if (copy && h->path) {
				if (len)
					memcpy(copy, text, len);
				copy[len] = 0;
				h->text = copy;
				h->text_len = len;
				S->F->headers = nh;
				index = (int)++S->F->nheaders;
			}
		}
	}
	if (S->nfiles == S->cap_files) {
		unsigned cap = S->cap_files ? S->cap_files * 2 : 16;
		struct fe_file *nf = sm_arena_alloc(S->FA, cap * sizeof(*nf));
		if (!nf)
			return index;
		if (S->nfiles)
			memcpy(nf, S->files, S->nfiles * sizeof(*nf));
		S->files = nf;
		S->cap_files = cap;
	}
	S->files[S->nfiles].file = f;
	S->files[S->nfiles].index = index;
	S->nfiles++;
	return index;
}

char *cv_cx_str(struct sm_arena *A, CXString s)
{
	const char *c = clang_getCString(s);
	char *r = sm_arena_strdup(A, c ? c : "");
	clang_disposeString(s);
	/* never NULL: when the arena is exhausted (recorded there, and the
	 * results are marked partial) callers still get a string to compare */
	return r ? r : (char *)"";
}

static enum CXChildVisitResult kids_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	struct kids *k = d;
	if (k->n < 8)
		k->c[k->n] = c;
	k->n++;
	return CXChildVisit_Continue;
}

/* every child: an arena array, however many (struct kids keeps 8) */
struct kids_all {
	struct fe *S;
	struct vec v;
};

static enum CXChildVisitResult kids_all_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	struct kids_all *k = d;
	CXCursor *x = sm_arena_alloc(k->S->A, sizeof(*x));
	if (x) {
		*x = c;
		cv_vec_push(k->S->A, &k->v, x);
	}
	return CXChildVisit_Continue;
}

CXCursor **cv_kids_all(struct fe *S, CXCursor c, unsigned *n)
{
	struct kids_all k = { S, { 0 } };
	clang_visitChildren(c, kids_all_visit, &k);
	*n = k.v.n;
	return (CXCursor **)k.v.v;
}

struct kids cv_kids_of(CXCursor c)
{
	struct kids k;
	k.n = 0;
	clang_visitChildren(c, kids_visit, &k);
	return k;
}

CXCursor cv_sole_operand(CXCursor c)
{
	struct kids ks = cv_kids_of(c);
	/* casts may carry a TypeRef child before the operand */
	CXCursor next = clang_getNullCursor();
	int nexpr = 0;
	for (int i = 0; i < ks.n && i < 8; i++)
		if (clang_isExpression(clang_getCursorKind(ks.c[i]))) {
			next = ks.c[i];
			nexpr++;
		}
	return nexpr == 1 ? next : clang_getNullCursor();
}

/* Skip implicit casts, parens and other single-child wrappers. */
CXCursor cv_strip(CXCursor c)
{
	for (int guard = 0; guard < 64; guard++) {
		enum CXCursorKind k = clang_getCursorKind(c);
		if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr &&
		    k != CXCursor_CStyleCastExpr && k != CXCursor_CXXStaticCastExpr &&
		    k != CXCursor_CXXReinterpretCastExpr && k != CXCursor_CXXFunctionalCastExpr)
			return c;
		CXCursor next = cv_sole_operand(c);
		if (clang_Cursor_isNull(next))
			return c;
		c = next;
	}
	return c;
}

/* ---------- the block being built ---------- */

void cv_emit(struct fe *S, struct sm_stmt *s)
{
	if (s && S->block) {
		cv_vec_push(S->A, S->block, s);
		if ((s->kind == SM_S_ASSIGN || s->kind == SM_S_DECL) && S->on_assign)
			S->on_assign(S, s); /* a[j] is another element once j changes */
	}
}

bool cv_expr_remote(const struct sm_expr *e)
{
	for (int depth = 0; e && depth < SM_FE_MAX_DEPTH; depth++) {
		if (e->remote || (e->kind == SM_E_VAR && e->var && e->var->points_remote))
			return true;
		if (e->kind != SM_E_BINARY || !e->is_ptr)
			return false;
		/* p + n, n + p, p - n: the pointer operand */
		e = e->a && (e->a->is_ptr || e->a->kind == SM_E_VAR) ? e->a : e->b;
	}
	return false;
}

static enum CXChildVisitResult any_call(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	if (clang_getCursorKind(c) != CXCursor_CallExpr)
		return CXChildVisit_Recurse;
	*(bool *)d = true;
	return CXChildVisit_Break;
}

void cv_store_at_value(struct fe *S, struct sm_access *st, CXCursor target, CXCursor value)
{
	struct sm_range rr = cv_range_of(S, value);
	bool call = false; /* the target, evaluated after the value (C++17), calls a function */
	clang_visitChildren(target, any_call, &call);
	if (st && !call && !(S->in_header && S->call) && rr.begin.line > st->range.begin.line) {
		st->range.begin = rr.begin;
		if (st->range.end.line < rr.begin.line)
			st->range.end = rr.end;
	}
}

struct sm_access *cv_emit_made_access(struct fe *S, CXCursor c, struct sm_access *a)
{
	a->range = S->in_header && S->call ? S->call->range : cv_range_of(S, c);
	if (!(S->in_header && S->call) && clang_getCursorKind(cv_strip(c)) == CXCursor_ArraySubscriptExpr &&
	    a->range.end.line > a->range.begin.line) {
		/* nvcc's line table puts an element access whose subscript
		 * goes on past its line on the subscript's last line (measured
		 * on the H200, corpus/lines_multiline.cu: a load and a store) */
		a->range.begin.line = a->range.end.line;
		a->range.begin.col = 1;
	}
	a->call = S->call;
	a->index = S->naccess++;
	a->remote = a->remote || cv_expr_remote(a->base);
	if ((a->kind == SM_ACC_LOAD || a->kind == SM_ACC_STORE) && S->async.n) {
		/* the copies still in flight here (convert_async.c): into
		 * shared memory for a load, out of it (bulk) for a store */
		const struct sm_access **p = sm_arena_alloc(S->A, S->async.n * sizeof(*p));
		unsigned n = 0;
		for (unsigned i = 0; p && i < S->async.n; i++)
			/* a copy in flight on some paths only (an if's other
			 * arm waited for it) is left out: no race made up */
			if (S->async.copy[i].bulk == (a->kind == SM_ACC_STORE) && !S->async.copy[i].cond)
				p[n++] = S->async.copy[i].acc;
		if (n) {
			a->pending = p;
			a->npending = n;
		}
	}
	struct sm_stmt *s = cv_mk_stmt(S, SM_S_ACCESS, c);
	if (s) {
		s->access = a;
		cv_emit(S, s);
	}
	return a;
}

struct sm_stmt *cv_mk_stmt(struct fe *S, enum sm_stmt_kind k, CXCursor c)
{
	struct sm_stmt *s = sm_arena_alloc(S->A, sizeof(*s));
	if (!s)
		return NULL;
	s->kind = k;
	s->call = S->call;
	if (S->in_header && S->call)
		s->range = S->call->range; /* a callee in a header: at the call */
	else if (!clang_Cursor_isNull(c))
		s->range = cv_range_of(S, c);
	return s;
}

/* ---------- expression nodes and their C types ---------- */

int cv_type_is_unsigned(CXType t)
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

int cv_type_is_integer(CXType t)
{
	t = clang_getCanonicalType(t);
	return (t.kind >= CXType_Bool && t.kind <= CXType_Int128 && t.kind != CXType_Char16 && t.kind != CXType_Char32) ||
	       t.kind == CXType_Enum;
}

unsigned cv_type_bits(CXType t)
{
	long long s = clang_Type_getSizeOf(clang_getCanonicalType(t));
	return s > 0 && s <= 8 ? (unsigned)(s * 8) : 64;
}

struct sm_expr *cv_mk_expr(struct fe *S, enum sm_expr_kind k, CXCursor c)
{
	struct sm_expr *e = sm_arena_alloc(S->A, sizeof(*e));
	if (!e)
		return NULL;
	e->kind = k;
	if (!clang_Cursor_isNull(c) && !S->operand)
		e->range = cv_range_of(S, c);
	return e;
}

struct sm_expr *cv_mk_const(struct fe *S, int64_t v)
{
	struct sm_expr *e = cv_mk_expr(S, SM_E_CONST, clang_getNullCursor());
	if (e)
		e->ival = v;
	return e;
}

struct sm_expr *cv_opaque(struct fe *S, CXCursor c, const char *name, int thread_dep)
{
	struct sm_expr *e = cv_mk_expr(S, SM_E_OPAQUE, c);
	if (!e)
		return NULL;
	e->name = name ? sm_arena_strdup(S->A, name) : "value";
	e->thread_dep = thread_dep;
	e->id = ++S->nopaque;
	return e;
}

struct sm_expr *cv_mk_bin(struct fe *S, enum sm_op op, struct sm_expr *a, struct sm_expr *b, CXCursor c)
{
	struct sm_expr *e = cv_mk_expr(S, SM_E_BINARY, c);
	if (!e)
		return NULL;
	e->op = op;
	e->a = a;
	e->b = b;
	e->bits = 64;
	if (!clang_Cursor_isNull(c)) {
		CXType t = clang_getCursorType(c);
		if (cv_type_is_integer(t)) {
			e->bits = cv_type_bits(t);
			e->is_unsigned = cv_type_is_unsigned(t);
		}
	}
	return e;
}

static unsigned ref_hash(const struct sm_var *v, bool is_ptr, unsigned cap)
{
	uint64_t h = ((uint64_t)(uintptr_t)v ^ is_ptr) * 0x9E3779B97F4A7C15ull;
	return (unsigned)(h >> 32) & (cap - 1);
}

/* The shared VAR node of an operand naming v (struct fe's refs), or NULL
 * to make one; *slot where to record a new one (NULL: no room). */
static struct sm_expr *ref_find(struct fe *S, const struct sm_var *v, bool is_ptr, struct sm_expr ***slot)
{
	*slot = NULL;
	if ((S->nrefs + 1) * 2 > S->cap_refs) {
		unsigned cap = S->cap_refs ? S->cap_refs * 2 : 64;
		struct sm_expr **nr = calloc(cap, sizeof(*nr));
		if (!nr)
			return NULL;
		for (unsigned i = 0; i < S->cap_refs; i++) {
			struct sm_expr *e = S->refs[i];
			if (!e)
				continue;
			unsigned h = ref_hash(e->var, e->is_ptr, cap);
			while (nr[h])
				h = (h + 1) & (cap - 1);
			nr[h] = e;
		}
		free(S->refs);
		S->refs = nr;
		S->cap_refs = cap;
	}
	unsigned h = ref_hash(v, is_ptr, S->cap_refs);
	while (S->refs[h]) {
		if (S->refs[h]->var == v && S->refs[h]->is_ptr == is_ptr)
			return S->refs[h];
		h = (h + 1) & (S->cap_refs - 1);
	}
	*slot = &S->refs[h];
	return NULL;
}

struct sm_expr *cv_var_ref(struct fe *S, CXCursor c, struct sm_var *v)
{
	bool is_ptr = v->is_pointer && v->points_shared;
	struct sm_expr **slot = NULL;
	if (S->operand) {
		struct sm_expr *same = ref_find(S, v, is_ptr, &slot);
		if (same)
			return same;
	}
	struct sm_expr *e = cv_mk_expr(S, SM_E_VAR, c);
	if (e) {
		e->var = v;
		e->name = v->name;
		e->is_ptr = is_ptr;
		if (slot) {
			*slot = e;
			S->nrefs++;
		}
	}
	return e;
}

/* ---------- notes ---------- */

void cv_note(struct fe *S, enum sm_note_kind kind, int level, CXCursor c, const char *msg)
{
	/* one note per position and message */
	struct sm_range at = S->in_header && S->call ? S->call->range : cv_range_of(S, c);
	struct sm_pos pos = at.begin;
	if (at.file && at.file <= S->F->nheaders) {
		/* in a converted header: "header:line:col: msg", at the #include
		 * that brings it in (notes have no file of their own) */
		const struct sm_header *h = &S->F->headers[at.file - 1];
		const char *m = sm_arena_printf(S->FA, "%s:%u:%u: %s", h->path, pos.line, pos.col, msg);
		msg = m ? m : msg;
		pos.line = pos.col = 0;
		for (unsigned i = 0; i < S->nfiles; i++)
			if (S->files[i].index == (int)at.file) {
				(void)cv_include_site(S->tu, S->files[i].file, S->FA, &pos);
				break;
			}
	}
	for (unsigned i = 0; i < S->notes.n; i++) {
		const struct sm_note *o = S->notes.v[i];
		if (o->pos.line == pos.line && o->pos.col == pos.col && !strcmp(o->message, msg))
			return;
	}
	if (S->notes.n >= SM_MAX_PARSE_NOTES)
		return;
	struct sm_note *n = sm_arena_alloc(S->FA, sizeof(*n));
	if (!n)
		return;
	n->kind = kind;
	n->level = level;
	n->pos = pos;
	n->message = sm_arena_strdup(S->FA, msg);
	cv_vec_push(S->FA, &S->notes, n);
}

/* ---------- tokens, constants ---------- */

/* Lex all of a converted file once: the main file (the translation
 * unit's extent) or header k (its bytes 0 to len). */
static void lex_file(struct fe *S, struct fe_tokens *t, CXSourceRange whole)
{
	t->built = true;
	CXToken *tk = NULL;
	unsigned n = 0;
	clang_tokenize(S->tu, whole, &tk, &n);
	unsigned *start = malloc((n ? n : 1) * sizeof(unsigned)), *end = malloc((n ? n : 1) * sizeof(unsigned));
	if (!start || !end) {
		free(start);
		free(end);
		clang_disposeTokens(S->tu, tk, n);
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		CXSourceRange r = clang_getTokenExtent(S->tu, tk[i]);
		clang_getSpellingLocation(clang_getRangeStart(r), NULL, NULL, NULL, &start[i]);
		clang_getSpellingLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &end[i]);
	}
	t->tk = tk;
	t->n = n;
	t->start = start;
	t->end = end;
}

/* The tokens of file f, with its text: the main file or a converted
 * header; NULL for any other file. */
static const struct fe_tokens *file_tokens(struct fe *S, CXFile f, const char **text, size_t *len)
{
	int k = cv_file_index(S, f);
	if (k < 0 || (size_t)k > S->F->nheaders || k > SM_MAX_CONVERTED_HEADERS)
		return NULL;
	if (k == 0) {
		*text = S->F->text;
		*len = S->F->text_len;
		if (S->F->text_len > SM_MAX_LEXED_MAIN_BYTES)
			return NULL; /* the callers lex the range they need */
		if (!S->main_toks.built)
			lex_file(S, &S->main_toks, clang_getCursorExtent(clang_getTranslationUnitCursor(S->tu)));
		return &S->main_toks;
	}
	if (!S->hdr_toks && !(S->hdr_toks = calloc(SM_MAX_CONVERTED_HEADERS, sizeof(*S->hdr_toks))))
		return NULL;
	const struct sm_header *h = &S->F->headers[k - 1];
	struct fe_tokens *t = &S->hdr_toks[k - 1];
	*text = h->text;
	*len = h->text_len;
	if (!t->built)
		lex_file(S, t, clang_getRange(clang_getLocationForOffset(S->tu, f, 0),
					      clang_getLocationForOffset(S->tu, f, (unsigned)h->text_len)));
	return t;
}

static void tokens_dispose(struct fe *S, struct fe_tokens *t)
{
	if (t->tk)
		clang_disposeTokens(S->tu, t->tk, t->n);
	free(t->start);
	free(t->end);
	memset(t, 0, sizeof(*t));
}

void cv_tokens_free(struct fe *S)
{
	tokens_dispose(S, &S->main_toks);
	for (unsigned k = 0; S->hdr_toks && k < SM_MAX_CONVERTED_HEADERS; k++)
		tokens_dispose(S, &S->hdr_toks[k]);
	free(S->hdr_toks);
	S->hdr_toks = NULL;
	free(S->refs);
	S->refs = NULL;
	S->nrefs = S->cap_refs = 0;
}

/* the tokens of t from `from` to `to`, as clang_tokenize lexes them */
static int tokens_between(const struct fe_tokens *t, unsigned from, unsigned to, CXToken **tk, unsigned *n)
{
	if (!t->start)
		return 0;
	/* the token that starts at `from` */
	unsigned lo = 0, hi = t->n;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (t->start[mid] < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == t->n || t->start[lo] != from)
		return 0;
	/* clang_tokenize lexes a token, then another while the lexer is
	 * before `to`: up to the first token that ends at or past it */
	unsigned j = lo;
	while (j + 1 < t->n && t->end[j] < to)
		j++;
	*tk = t->tk + lo;
	*n = j - lo + 1;
	return 1;
}

int cv_tokens_in(struct fe *S, CXFile f, unsigned from, unsigned to, CXToken **tk, unsigned *n)
{
	const char *text;
	size_t len;
	const struct fe_tokens *t = f ? file_tokens(S, f, &text, &len) : NULL;
	return t ? tokens_between(t, from, to, tk, n) : 0;
}

int cv_tokens_to_eol(struct fe *S, CXFile f, unsigned from, CXToken **tk, unsigned *n)
{
	const char *t = NULL;
	size_t len = 0;
	const struct fe_tokens *ft = f ? file_tokens(S, f, &t, &len) : NULL;
	size_t eol = from;
	while (ft && t && eol < len && t[eol] != '\n' && t[eol] != '\r')
		eol++;
	if (!ft || !t || eol >= len || t[eol] != '\n')
		return 0; /* the last line, or a line that ends in \r: clang_tokenize */
	return tokens_between(ft, from, (unsigned)eol + 1, tk, n);
}

/* The cursor's extent as a range of the file text it expands from: an
 * extent that begins inside a macro (__global__, __shared__) tokenizes to
 * nothing otherwise. */
CXSourceRange cv_file_extent(struct fe *S, CXCursor c)
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

int cv_tokenize_extent(struct fe *S, CXCursor c, CXToken **tk, unsigned *n)
{
	CXSourceRange ext = clang_getCursorExtent(c);
	CXFile f1 = NULL, f2 = NULL;
	unsigned o1 = 0, o2 = 0;
	clang_getExpansionLocation(clang_getRangeStart(ext), &f1, NULL, NULL, &o1);
	clang_getExpansionLocation(clang_getRangeEnd(ext), &f2, NULL, NULL, &o2);
	if (f1 && f2 && clang_File_isEqual(f1, f2) && cv_tokens_in(S, f1, o1, o2, tk, n))
		return 0;
	*tk = NULL;
	*n = 0;
	clang_tokenize(S->tu, cv_file_extent(S, c), tk, n);
	return 1;
}

bool cv_from_macro(CXCursor c)
{
	CXSourceLocation l = clang_getCursorLocation(c);
	CXFile fe, fs;
	unsigned oe = 0, os = 0;
	clang_getExpansionLocation(l, &fe, NULL, NULL, &oe);
	clang_getSpellingLocation(l, &fs, NULL, NULL, &os);
	return oe != os || !clang_File_isEqual(fe, fs);
}

/* clang's asm template back in the GCC spelling it was written in:
 * clang writes an operand %N as $N (${N:mod} with a modifier), %= as
 * ${:uid}, a literal % as itself and $ as $$. */
static char *gcc_template(struct sm_arena *A, const char *x)
{
	size_t n = strlen(x);
	char *out = n < SIZE_MAX / 2 ? sm_arena_alloc(A, 2 * n + 1) : NULL;
	if (!out)
		return NULL;
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		if (x[i] == '%') {
			out[o++] = '%';
			out[o++] = '%';
		} else if (x[i] == '$' && x[i + 1] == '$') {
			out[o++] = '$';
			i++;
		} else if (x[i] == '$' && x[i + 1] >= '0' && x[i + 1] <= '9') {
			out[o++] = '%';
		} else if (x[i] == '$' && x[i + 1] == '{') {
			const char *end = strchr(x + i, '}');
			if (!end) {
				out[o++] = x[i];
				continue;
			}
			out[o++] = '%';
			if (!strncmp(x + i, "${:uid}", 7)) {
				out[o++] = '=';
			} else {
				for (const char *q = x + i + 2; q < end && *q >= '0' && *q <= '9'; q++)
					out[o++] = *q;
			}
			i = (size_t)(end - x);
		} else {
			out[o++] = x[i];
		}
	}
	out[o] = 0;
	return out;
}

/* An asm statement's template as one string token and a ':' (what the
 * asm readers look at: the string literals before the first ':'), from
 * clang's AST, so that an asm statement a macro expands (LDMATRIX_X4(...),
 * CP_ASYNC_CG(...), as most real kernels wrap their PTX) reads as the
 * one written out; the statement's own tokens when clang gives no
 * template. */
struct toks cv_asm_tokens(struct fe *S, CXCursor c)
{
	CXString cs = clang_Cursor_getGCCAssemblyTemplate(c);
	const char *x = clang_getCString(cs);
	char *tmpl = x && *x ? gcc_template(S->A, x) : NULL;
	clang_disposeString(cs);
	struct toks t = { 0 };
	if (tmpl) {
		t.s = sm_arena_alloc(S->A, 2 * sizeof(*t.s));
		t.pos = sm_arena_alloc(S->A, 2 * sizeof(*t.pos));
		if (t.s && t.pos && (t.s[0] = sm_arena_printf(S->A, "\"%s\"", tmpl)) != NULL) {
			t.s[1] = ":";
			t.pos[0] = t.pos[1] = cv_range_of(S, c).begin;
			t.n = 2;
		}
	}
	return t.n ? t : cv_tokens_of(S, c);
}

struct toks cv_tokens_of(struct fe *S, CXCursor c)
{
	return cv_tokens_until(S, c, NULL);
}

struct toks cv_tokens_until(struct fe *S, CXCursor c, const char *stop)
{
	struct toks t = { 0 };
	CXToken *tk = NULL;
	unsigned n = 0;
	int own = cv_tokenize_extent(S, c, &tk, &n);
	if (!n)
		return t;
	/* with stop, only the tokens up to the first stop are copied (a
	 * function's head, not its body's spellings) */
	unsigned k = n;
	for (unsigned i = 0; stop && i < n; i++) {
		CXString sp = clang_getTokenSpelling(S->tu, tk[i]);
		int hit = !strcmp(clang_getCString(sp), stop);
		clang_disposeString(sp);
		if (hit) {
			k = i + 1;
			break;
		}
	}
	t.s = sm_arena_alloc(S->A, k * sizeof(char *));
	t.pos = sm_arena_alloc(S->A, k * sizeof(struct sm_pos));
	if (t.s && t.pos) {
		for (unsigned i = 0; i < k; i++) {
			t.s[i] = cv_cx_str(S->A, clang_getTokenSpelling(S->tu, tk[i]));
			t.pos[i] = cv_pos_of(clang_getTokenLocation(S->tu, tk[i]));
		}
		t.n = k;
	}
	if (own)
		clang_disposeTokens(S->tu, tk, n);
	return t;
}

int cv_try_eval_int(CXCursor c, int64_t *out)
{
	/* libclang 22 crashes (SIGSEGV) evaluating the initializer list of a
	 * multidimensional array (`float t[2][3] = {{0.0f}};`, ggml's mmvq.cu);
	 * a braced list is never an integer anyway */
	if (clang_getCursorKind(c) == CXCursor_InitListExpr)
		return 0;
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

struct cv_const {
	int ok;
	int64_t v;
};

int cv_eval_int_kept(struct fe *S, CXCursor c, int64_t *out)
{
	struct cv_const *k = cv_cmap_get(&S->consts, c);
	if (!k && (k = sm_arena_alloc(S->FA, sizeof(*k))) != NULL) {
		k->ok = cv_try_eval_int(c, &k->v);
		(void)cv_cmap_put(&S->consts, c, k);
	}
	if (!k)
		return cv_try_eval_int(c, out);
	if (k->ok)
		*out = k->v;
	return k->ok;
}

int cv_in_main_file(struct fe *S, CXCursor c)
{
	CXFile f = NULL;
	clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
	return f && clang_File_isEqual(f, S->main_file);
}

int cv_in_converted_file(struct fe *S, CXCursor c)
{
	CXFile f = NULL;
	clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
	return f && cv_file_index(S, f) >= 0;
}

static enum CXChildVisitResult body_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	if (clang_getCursorKind(c) == CXCursor_CompoundStmt)
		*(CXCursor *)d = c;
	return CXChildVisit_Continue;
}

CXCursor cv_body_of(CXCursor fn)
{
	CXCursor body = clang_getNullCursor();
	clang_visitChildren(fn, body_visit, &body);
	return body;
}

/* ---- declarations named in an expression ---- */

struct decl_find {
	bool params_only;
	CXCursor out;
};

static bool names_decl(CXCursor c, bool params_only)
{
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return false;
	enum CXCursorKind k = clang_getCursorKind(clang_getCursorReferenced(c));
	return k == CXCursor_ParmDecl || (!params_only && k == CXCursor_VarDecl);
}

static enum CXChildVisitResult decl_visit_first(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	struct decl_find *f = d;
	if (!names_decl(c, f->params_only))
		return CXChildVisit_Recurse;
	f->out = clang_getCursorReferenced(c);
	return CXChildVisit_Break;
}

CXCursor cv_decl_under(CXCursor e, bool params_only)
{
	CXCursor s = cv_strip(e);
	if (names_decl(s, params_only))
		return clang_getCursorReferenced(s);
	struct decl_find f = { params_only, clang_getNullCursor() };
	clang_visitChildren(e, decl_visit_first, &f);
	return f.out;
}

int cv_param_index(CXCursor fn, CXCursor parm)
{
	int n = clang_Cursor_getNumArguments(fn);
	for (int i = 0; i < n; i++)
		if (clang_equalCursors(clang_Cursor_getArgument(fn, (unsigned)i), parm))
			return i;
	return -1;
}
