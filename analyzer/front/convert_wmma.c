/* convert_wmma.c - tensor-core fragments moved by the wmma API:
 * nvcuda::wmma::load_matrix_sync and store_matrix_sync on shared memory.
 *
 * Model (what nvcc 13 emits for sm_90, read in the SASS and measured on
 * an H200 with Nsight Compute, corpus/wmma_tiles.cu):
 * - matrix_a / matrix_b of 16-bit elements (half), and of 8-bit ones
 *   stored row-major (a) or column-major (b): ldmatrix. The fragment's
 *   tile is R "memory rows" (the dimension ldm strides over) of C
 *   contiguous elements; each 8-row, 16-byte block is one 8x8 matrix, and
 *   one ldmatrix.x4 serves a 16-row, 32-byte block (.x2/.x1 when the tile
 *   has fewer matrices). Lane l gives the address of row l % 8 of matrix
 *   l / 8: a 16-byte access per lane, served per 8-lane phase.
 * - accumulators of float or int (4 bytes), row-major: each lane holds the
 *   pairs (8i + l/4, 8k + 2(l%4)) of the mma fragment: one 8-byte access
 *   per 8x8 block; column-major: one 4-byte access per element of the pair.
 *   Of half (2 bytes), row-major: one 4-byte access per pair. m8n32k16's
 *   4-byte accumulators (row-major) are the m16n8 fragment of the
 *   transposed product: lane l holds (2(l%4) + h, l/4 + 8i), one 4-byte
 *   access each. tf32's m16n16k8 accumulators are m16n16k16's.
 * One call is one loop over its instructions (a synthetic counter), so the
 * line's degree is its worst instruction's and the race search sees every
 * element the call moves. Not modelled (the call stays an opaque one):
 * bf16 and tf32 a/b fragments (nvcc moves them with generic loads, which
 * the profiler does not count as shared), 8-bit a column-major / b
 * row-major, half accumulators column-major, m8n32k16 half or
 * column-major accumulators, sub-byte and double fragments. */
#include "front/convert.h"

#include <stdlib.h>
#include <string.h>

enum frag_use { F_A, F_B, F_ACC };

struct frag {
	enum frag_use use;
	int m, n, k;
	unsigned elem;   /* bytes of an element */
	bool col_major;  /* a/b: the fragment's layout; accumulators: the call's */
};

/* Split "nvcuda::wmma::fragment<A, 16, 16, 16, __half, L>" into its
 * template arguments (at most 6); false when it is not a fragment. */
static bool frag_args(const char *t, char out[6][64], int *n)
{
	const char *p = strstr(t, "fragment<");
	if (!p)
		return false;
	p += strlen("fragment<");
	int depth = 0, i = 0;
	size_t len = 0;
	*n = 0;
	for (; *p && i < 6; p++) {
		if (*p == '<')
			depth++;
		if ((*p == ',' || *p == '>') && depth == 0) {
			out[i][len] = 0;
			i++;
			len = 0;
			if (*p == '>')
				break;
			continue;
		}
		if (*p == '>')
			depth--;
		if (*p == ' ' && len == 0)
			continue;
		if (len < 63)
			out[i][len++] = *p;
	}
	*n = i;
	return i >= 5;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

/* The fragment of the call's argument fa; false when it is not one the
 * model covers. */
static bool frag_of(CXCursor fa, struct frag *f)
{
	CXType t = clang_getCanonicalType(clang_getNonReferenceType(clang_getCursorType(fa)));
	CXString s = clang_getTypeSpelling(t);
	char a[6][64];
	int n = 0;
	bool ok = frag_args(clang_getCString(s), a, &n);
	clang_disposeString(s);
	if (!ok)
		return false;
	memset(f, 0, sizeof(*f));
	f->use = ends_with(a[0], "matrix_a") ? F_A : ends_with(a[0], "matrix_b") ? F_B : F_ACC;
	if (f->use == F_ACC && !ends_with(a[0], "accumulator"))
		return false;
	f->m = atoi(a[1]);
	f->n = atoi(a[2]);
	f->k = atoi(a[3]);
	bool k8 = f->m == 16 && f->n == 16 && f->k == 8; /* tf32: its accumulators only */
	if (!((f->m == 16 && f->n == 16 && f->k == 16) || (f->m == 32 && f->n == 8 && f->k == 16) ||
	      (f->m == 8 && f->n == 32 && f->k == 16) || k8))
		return false;
	const char *T = a[4];
	bool h = !strcmp(T, "__half") || !strcmp(T, "half");
	bool b8 = !strcmp(T, "signed char") || !strcmp(T, "unsigned char") || !strcmp(T, "char");
	bool w4 = !strcmp(T, "float") || !strcmp(T, "int");
	if (f->use != F_ACC) {
		if (k8)
			return false; /* tf32 a/b: generic loads */
		f->col_major = n >= 6 && ends_with(a[5], "col_major");
		if (n < 6 || !(f->col_major || ends_with(a[5], "row_major")))
			return false;
		if (h)
			f->elem = 2;
		else if (b8 && f->col_major == (f->use == F_B))
			f->elem = 1;
		else
			return false;
		return true;
	}
	f->elem = h ? 2 : w4 ? 4 : 0;
	return f->elem != 0 && (f->m != 8 || f->elem == 4); /* m8n32k16: 4-byte accumulators only */
}

/* e * k + b, folded where a side is 0 or 1. */
static struct sm_expr *mul_add(struct fe *S, struct sm_expr *e, int64_t k, struct sm_expr *b, CXCursor c)
{
	struct sm_expr *p = k == 0 ? NULL : k == 1 ? e : cv_mk_bin(S, SM_OP_MUL, e, cv_mk_const(S, k), c);
	return !p ? b : !b ? p : cv_mk_bin(S, SM_OP_ADD, p, b, c);
}

static struct sm_expr *lane_expr(struct fe *S, CXCursor c)
{
	struct sm_expr *l = cv_mk_expr(S, SM_E_BUILTIN, c);
	if (l)
		l->builtin = SM_B_LANE;
	return l;
}

static struct sm_expr *var_ref(struct fe *S, struct sm_var *v, CXCursor c)
{
	struct sm_expr *e = cv_mk_expr(S, SM_E_VAR, c);
	if (e)
		e->var = v;
	return e;
}

/* The instructions of one call: n of them, instruction j's lane l moving
 * `width` bytes at byte offset off(j, l) from the tile's start. */
struct plan {
	int n;
	unsigned width;
	int lanes;             /* lanes that give an address (ldmatrix .x1/.x2) */
	const char *op;
};

/* The byte offset of lane l's access in instruction j (an expression of
 * the lane, the synthetic counter j and ldm, in elements). */
static struct sm_expr *offset(struct fe *S, const struct frag *f, struct sm_expr *j, struct sm_expr *ldm, CXCursor c,
			      struct plan *P)
{
	struct sm_expr *l = lane_expr(S, c);
	if (!l || !ldm)
		return NULL;
	int64_t e = f->elem;
	if (f->use != F_ACC) {
		/* memory rows R of C elements: the dimension ldm strides over */
		int R, C;
		if (f->use == F_A) {
			R = f->col_major ? f->k : f->m;
			C = f->col_major ? f->m : f->k;
		} else {
			R = f->col_major ? f->n : f->k;
			C = f->col_major ? f->k : f->n;
		}
		int RG = R / 8, K = (int)(C * e / 16); /* row groups, 16-byte chunks */
		if (RG < 1 || K < 1)
			return NULL;
		int RGb = RG < 2 ? RG : 2, Kb = K < 2 ? K : 2; /* one instruction's block */
		int nbr = RG / RGb;
		P->n = (RG / RGb) * (K / Kb);
		P->width = 16;
		P->lanes = 8 * RGb * Kb;
		P->op = RGb * Kb == 4 ? "ldmatrix.x4" : RGb * Kb == 2 ? "ldmatrix.x2" : "ldmatrix.x1";
		/* q = l / 8: the matrix in the block; row q % RGb, chunk q / RGb */
		struct sm_expr *q = cv_mk_bin(S, SM_OP_SHR, l, cv_mk_const(S, 3), c);
		struct sm_expr *r8 = cv_mk_bin(S, SM_OP_AND, lane_expr(S, c), cv_mk_const(S, 7), c);
		struct sm_expr *rg_in = RGb == 2 ? cv_mk_bin(S, SM_OP_AND, q, cv_mk_const(S, 1), c) : cv_mk_const(S, 0);
		struct sm_expr *k_in = RGb == 2 ? cv_mk_bin(S, SM_OP_SHR, q, cv_mk_const(S, 1), c) : q;
		/* instruction j: block row j % nbr, block chunk j / nbr */
		struct sm_expr *br = cv_mk_bin(S, SM_OP_REM, j, cv_mk_const(S, nbr), c);
		struct sm_expr *bk = cv_mk_bin(S, SM_OP_DIV, j, cv_mk_const(S, nbr), c);
		struct sm_expr *row = mul_add(S, br, 8 * RGb, mul_add(S, rg_in, 8, r8, c), c);
		struct sm_expr *chunk = mul_add(S, bk, Kb, k_in, c);
		struct sm_expr *rowb = cv_mk_bin(S, SM_OP_MUL, cv_mk_bin(S, SM_OP_MUL, row, ldm, c), cv_mk_const(S, e), c);
		return mul_add(S, chunk, 16, rowb, c);
	}
	/* accumulators: lane l holds (8i + l/4, 8kb + 2(l%4) [+ 1]) */
	int I = f->m / 8, Kn = f->n / 8;
	struct sm_expr *g = cv_mk_bin(S, SM_OP_SHR, l, cv_mk_const(S, 2), c);
	struct sm_expr *t2 = cv_mk_bin(S, SM_OP_MUL, cv_mk_bin(S, SM_OP_AND, lane_expr(S, c), cv_mk_const(S, 3), c),
				       cv_mk_const(S, 2), c);
	P->lanes = SM_WARP;
	if (f->m == 8) {
		/* m8n32k16: the m16n8 fragment of the transposed product, so lane
		 * l holds (2(l%4) + h, l/4 + 8i), one 4-byte access each;
		 * instruction j: h = j & 1, i = j >> 1 (row-major only) */
		if (f->col_major)
			return NULL;
		P->n = 8;
		P->width = 4;
		P->op = NULL;
		struct sm_expr *row = cv_mk_bin(S, SM_OP_ADD, t2, cv_mk_bin(S, SM_OP_AND, j, cv_mk_const(S, 1), c), c);
		struct sm_expr *col = mul_add(S, cv_mk_bin(S, SM_OP_SHR, j, cv_mk_const(S, 1), c), 8, g, c);
		struct sm_expr *el = cv_mk_bin(S, SM_OP_ADD, cv_mk_bin(S, SM_OP_MUL, row, ldm, c), col, c);
		return cv_mk_bin(S, SM_OP_MUL, el, cv_mk_const(S, 4), c);
	}
	if (!f->col_major) {
		/* instruction j: block i = j % I, kb = j / I; a pair of elements */
		P->n = I * Kn;
		P->width = (unsigned)(2 * e);
		P->op = NULL;
		struct sm_expr *row = mul_add(S, cv_mk_bin(S, SM_OP_REM, j, cv_mk_const(S, I), c), 8, g, c);
		struct sm_expr *col = mul_add(S, cv_mk_bin(S, SM_OP_DIV, j, cv_mk_const(S, I), c), 8, t2, c);
		struct sm_expr *el = cv_mk_bin(S, SM_OP_ADD, cv_mk_bin(S, SM_OP_MUL, row, ldm, c), col, c);
		return cv_mk_bin(S, SM_OP_MUL, el, cv_mk_const(S, e), c);
	}
	if (e != 4)
		return NULL;
	/* column-major: instruction j = (i, kb, h): one element, (col * ldm + row) */
	P->n = I * Kn * 2;
	P->width = 4;
	P->op = NULL;
	struct sm_expr *h = cv_mk_bin(S, SM_OP_AND, j, cv_mk_const(S, 1), c);
	struct sm_expr *ib = cv_mk_bin(S, SM_OP_REM, cv_mk_bin(S, SM_OP_SHR, j, cv_mk_const(S, 1), c), cv_mk_const(S, I), c);
	struct sm_expr *kb = cv_mk_bin(S, SM_OP_DIV, cv_mk_bin(S, SM_OP_SHR, j, cv_mk_const(S, 1), c), cv_mk_const(S, I), c);
	struct sm_expr *row = mul_add(S, ib, 8, g, c);
	struct sm_expr *col = cv_mk_bin(S, SM_OP_ADD, mul_add(S, kb, 8, t2, c), h, c);
	struct sm_expr *el = cv_mk_bin(S, SM_OP_ADD, cv_mk_bin(S, SM_OP_MUL, col, ldm, c), row, c);
	return cv_mk_bin(S, SM_OP_MUL, el, cv_mk_const(S, 4), c);
}

/* Emit `for (j = 0; j < n; j++) [if (lane < lanes)] access(ptr + off)`. */
static bool emit_call(struct fe *S, const struct cv_call *k, CXCursor ptrc, CXCursor ldmc, const struct frag *f,
		      enum sm_access_kind kind, const char *call_op)
{
	struct sm_expr *ptr = cv_conv_expr(S, ptrc);
	if (!ptr || !ptr->is_ptr)
		return false;
	CXCursor c = k->c;
	struct sm_var *jv = cv_synthetic_var(S, "wmma instruction", false, 0);
	if (!jv)
		return false;
	struct plan P = { 0 };
	struct sm_expr *off = offset(S, f, var_ref(S, jv, c), cv_conv_expr(S, ldmc), c, &P);
	struct sm_access *a = off ? sm_arena_alloc(S->A, sizeof(*a)) : NULL;
	if (!a)
		return false;
	a->kind = kind;
	a->op = P.op ? sm_arena_printf(S->A, "%s (%s)", call_op, P.op) : call_op;
	a->base = ptr;
	a->idx[0] = off;
	a->nidx = 1;
	a->base_elem_size = 1;
	a->width = P.width;
	/* the body: the access, under lane < lanes for .x1/.x2 */
	struct vec body = { 0 };
	struct vec *saved = S->block;
	S->block = &body;
	cv_emit_made_access(S, c, a);
	S->block = saved;
	struct sm_stmt *blk = cv_mk_stmt(S, SM_S_BLOCK, c);
	if (!blk)
		return false;
	blk->kids = (struct sm_stmt **)body.v;
	blk->nkids = (int)body.n;
	if (P.lanes < SM_WARP) {
		struct sm_stmt *s = cv_mk_stmt(S, SM_S_IF, c), *outer = cv_mk_stmt(S, SM_S_BLOCK, c);
		struct sm_stmt **kids = sm_arena_alloc(S->A, 2 * sizeof(*kids)), **ok = sm_arena_alloc(S->A, sizeof(*ok));
		if (!s || !outer || !kids || !ok)
			return false;
		s->cond = cv_mk_bin(S, SM_OP_LT, lane_expr(S, c), cv_mk_const(S, P.lanes), c);
		kids[0] = blk;
		kids[1] = NULL;
		s->kids = kids;
		s->nkids = 2;
		ok[0] = s;
		outer->kids = ok;
		outer->nkids = 1;
		blk = outer;
	}
	struct sm_stmt *init = cv_mk_stmt(S, SM_S_DECL, c), *step = cv_mk_stmt(S, SM_S_ASSIGN, c);
	struct sm_stmt *loop = cv_mk_stmt(S, SM_S_LOOP, c);
	struct sm_stmt **lk = sm_arena_alloc(S->A, 3 * sizeof(*lk));
	if (!init || !step || !loop || !lk)
		return false;
	init->var = jv;
	init->value = cv_mk_const(S, 0);
	step->var = jv;
	step->op = SM_OP_ADD;
	step->value = cv_mk_const(S, 1);
	loop->cond = cv_mk_bin(S, SM_OP_LT, var_ref(S, jv, c), cv_mk_const(S, P.n), c);
	lk[0] = init;
	lk[1] = blk;
	lk[2] = step;
	loop->kids = lk;
	loop->nkids = 3;
	cv_emit(S, loop);
	return true;
}

bool cv_wmma_load(struct fe *S, const struct cv_call *k)
{
	/* load_matrix_sync(frag, ptr, ldm[, layout]) */
	struct frag f;
	if (k->nargs < 3 || !frag_of(k->args[0], &f))
		return false;
	if (f.use == F_ACC) {
		int64_t lay = 0;
		if (k->nargs < 4 || !cv_try_eval_int(k->args[3], &lay))
			return false;
		f.col_major = lay == 1;
		if (f.col_major && f.elem != 4)
			return false;
	}
	return emit_call(S, k, k->args[1], k->args[2], &f, SM_ACC_LOAD, "wmma::load_matrix_sync");
}

bool cv_wmma_store(struct fe *S, const struct cv_call *k)
{
	/* store_matrix_sync(ptr, frag, ldm, layout) */
	struct frag f;
	int64_t lay = 0;
	if (k->nargs < 4 || !frag_of(k->args[1], &f) || f.use != F_ACC || !cv_try_eval_int(k->args[3], &lay))
		return false;
	f.col_major = lay == 1;
	if (f.col_major && f.elem != 4)
		return false;
	return emit_call(S, k, k->args[0], k->args[2], &f, SM_ACC_STORE, "wmma::store_matrix_sync");
}
