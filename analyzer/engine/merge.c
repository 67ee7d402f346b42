/* merge.c - adjacent accesses that nvcc fuses into one vector access.
 *
 * At -O3 nvcc turns `a = s[2*t]; b = s[2*t+1];` into one 8-byte LDS.64,
 * and four consecutive words into one LDS.128 (STS likewise), whose bank
 * pattern differs from each 4-byte access's: two half-warps (or four
 * quarter-warps) instead of one warp. Measured on an H100 (corpus/
 * idiom_merge.cu, scan.cu): every such group was fused, and no group with
 * another access to the array between its members, or whose first address
 * was not a multiple of the fused width, was.
 *
 * A group here is 2 or 4 accesses (2 of 8 bytes) of one kind (loads or
 * stores, not atomics), width 4 or 8, to one array, written as direct
 * subscripts that differ by a constant in the last index (what the
 * compiler can prove: s[2*t] and s[2*t+1], not s[r0] and s[r1] whose
 * difference only evaluation shows, nor s[p] through a pointer or with a
 * kernel parameter in the index), in one straight-line
 * segment of one block (no barrier, branch, loop or call between them,
 * same guards, same loop), with no other access to that array between the
 * first and the last, whose addresses are, for every thread of every block
 * shape, at iterations 0..SM_MERGE_CHECK_ITERS-1 and under every value
 * tried for unknowns, first + k * width, with first a multiple of the
 * fused width. The fused access is scored as one access of the fused
 * width at the first member's address; every member gets that degree.
 */
#include "engine/merge.h"
#include "engine/visit.h"

#include <string.h>

/* ---- straight-line segments of the statement tree ---- */

struct segs {
	unsigned *seg;    /* per access */
	unsigned nacc;
	unsigned next;
};

static void seg_walk(struct segs *S, const struct sm_stmt *s, int depth)
{
	if (!s || depth > SM_RESOLVE_STMT_DEPTH)
		return;
	switch (s->kind) {
	case SM_S_ACCESS:
		if (s->access && s->access->index < S->nacc)
			S->seg[s->access->index] = S->next;
		return;
	case SM_S_DECL:
	case SM_S_ASSIGN:
		return;
	case SM_S_BLOCK:
		for (int i = 0; i < s->nkids; i++)
			seg_walk(S, s->kids[i], depth + 1);
		return;
	case SM_S_IF: case SM_S_LOOP: case SM_S_SWITCH: case SM_S_RETURN: case SM_S_BREAK: case SM_S_CONTINUE:
	case SM_S_GOTO: case SM_S_BARRIER: case SM_S_OPAQUE_CALL: case SM_S_CALL:
		/* anything else ends the segment, before and after */
		S->next++;
		for (int i = 0; i < s->nkids; i++) {
			seg_walk(S, s->kids[i], depth + 1);
			S->next++;
		}
		S->next++;
		return;
	}
}

/* ---- the address relation, checked by evaluation ---- */

static bool related(const struct sm_raccess *first, const struct sm_raccess *other, int64_t delta, unsigned align,
		    const struct sm_dim3 *blocks, int nblocks)
{
	for (int b = 0; b < nblocks; b++) {
		struct sm_dim3 bl = blocks[b];
		int64_t nthreads = bl.x * bl.y * bl.z;
		if (nthreads <= 0 || nthreads > SM_MAX_BLOCK_THREADS)
			return false;
		for (unsigned seed = 0; seed < 3; seed++) {
			for (int64_t it = 0; it < SM_MERGE_CHECK_ITERS; it++) {
				for (int64_t lin = 0; lin < nthreads; lin++) {
					struct sm_eval_ctx c;
					sm_thread_ctx(&c, bl, lin);
					c.seed = seed;
					for (int d = 0; d < SM_MAX_LOOPS; d++)
						c.iter[d] = it;
					int64_t a0 = 0, a1 = 0;
					int r0 = sm_access_addr(first, NULL, &c, &a0);
					int r1 = sm_access_addr(other, NULL, &c, &a1);
					if (r0 < 0 || r1 < 0 || r0 != r1)
						return false;
					if (!r0)
						continue;
					if (a1 - a0 != delta || a0 % (int64_t)align)
						return false;
				}
				if (!first->loop)
					break;
			}
		}
	}
	return true;
}

/* ---- what nvcc can prove: the source indexes differ by a constant ---- */

static bool same_expr(const struct sm_expr *a, const struct sm_expr *b, int depth)
{
	if (a == b)
		return true;
	if (!a || !b || depth > SM_SCAN_EXPR_DEPTH || a->kind != b->kind)
		return false;
	switch (a->kind) {
	case SM_E_CONST: return a->ival == b->ival;
	case SM_E_BUILTIN: return a->builtin == b->builtin && a->dim == b->dim;
	case SM_E_VAR: return a->var == b->var;
	case SM_E_OPAQUE: return a->id == b->id;
	case SM_E_UNARY:
	case SM_E_BINARY:
	case SM_E_CAST:
	case SM_E_COND:
		return a->op == b->op && a->bits == b->bits && a->is_unsigned == b->is_unsigned &&
		       same_expr(a->a, b->a, depth + 1) && same_expr(a->b, b->b, depth + 1) &&
		       same_expr(a->c, b->c, depth + 1);
	case SM_E_LOOPVAR: case SM_E_LOOPEXIT: case SM_E_PREV: case SM_E_ADDR:
		break; /* the front end's IR has none; not compared */
	}
	return false;
}

/* x + c as (x, c); anything else as (e, 0). */
static const struct sm_expr *split_const(const struct sm_expr *e, int64_t *c)
{
	*c = 0;
	if (e && e->kind == SM_E_BINARY && (e->op == SM_OP_ADD || e->op == SM_OP_SUB) && e->b && e->b->kind == SM_E_CONST) {
		*c = e->op == SM_OP_ADD ? e->b->ival : -e->b->ival;
		return e->a;
	}
	if (e && e->kind == SM_E_CONST) {
		*c = e->ival;
		return NULL;
	}
	return e;
}

static enum sm_seen is_param(const struct sm_expr *e, void *arg)
{
	if (e->kind == SM_E_VAR)
		return !e->var || e->var->kind == SM_V_PARAM ? SM_SEEN_HIT : SM_SEEN_SKIP;
	return SM_SEEN_GO;
}

static bool refs_param(const struct sm_expr *e)
{
	struct sm_expr_walk w = { is_param, NULL, 0, SM_SCAN_EXPR_DEPTH, true };
	return sm_expr_any(e, &w);
}

/* The subscripts of b as written are a's plus k in the last one (in
 * elements), with nothing the compiler cannot see through: a direct
 * subscript of the array (no pointer, no member offset) and no kernel
 * parameter in it, whose value the compiler does not know. */
static bool written_adjacent(const struct sm_access *a, const struct sm_access *b, int64_t k)
{
	if (!a->array || a->array != b->array || a->base || b->base || a->extra || b->extra || a->nidx != b->nidx ||
	    a->nidx < 1 || a->nidx != a->array->ndims)
		return false;
	for (int i = 0; i < a->nidx; i++)
		if (refs_param(a->idx[i]) || refs_param(b->idx[i]))
			return false;
	for (int i = 0; i < a->nidx - 1; i++)
		if (!same_expr(a->idx[i], b->idx[i], 0))
			return false;
	int64_t ca, cb;
	const struct sm_expr *xa = split_const(a->idx[a->nidx - 1], &ca);
	const struct sm_expr *xb = split_const(b->idx[b->nidx - 1], &cb);
	return (xa == xb || same_expr(xa, xb, 0)) && cb - ca == k;
}

static bool same_place(const struct sm_raccess *a, const struct sm_raccess *b)
{
	/* another block's memory (remote) is never one instruction with the
	 * block's own */
	return a->ok && b->ok && a->array && a->array == b->array && a->loop == b->loop && a->guards == b->guards &&
	       a->src->kind == b->src->kind && a->width == b->width && a->src->remote == b->src->remote;
}

void sm_find_merges(const struct sm_kernel_model *m, const struct sm_dim3 *blocks, int nblocks, struct sm_arena *A,
		    struct sm_merge *out)
{
	for (unsigned i = 0; i < m->nacc; i++) {
		out[i].leader = i;
		out[i].n = 1;
		out[i].width = m->acc[i].width;
	}
	if (!m->kernel || !m->kernel->body || nblocks <= 0 || m->nacc < 2)
		return;
	struct segs S = { sm_arena_alloc(A, (m->nacc + 1) * sizeof(unsigned)), m->nacc, 1 };
	if (!S.seg)
		return;
	seg_walk(&S, m->kernel->body, 0);
	for (unsigned i = 0; i < m->nacc; i++) {
		const struct sm_raccess *ri = &m->acc[i];
		if (out[i].n != 1 || out[i].leader != i || !ri->ok || !ri->array || !ri->src || ri->src->in_flight || !S.seg[i] ||
		    ri->src->kind == SM_ACC_ATOMIC || (ri->width != 4 && ri->width != 8))
			continue;
		unsigned w = ri->width;
		/* try four words (16 bytes), then two of w */
		for (unsigned n = w == 4 ? 4 : 2; n >= 2; n /= 2) {
			unsigned members[4] = { i, 0, 0, 0 };
			unsigned found = 1;
			bool broken = false;
			for (unsigned j = i + 1; j < m->nacc && found < n && !broken; j++) {
				const struct sm_raccess *rj = &m->acc[j];
				if (!rj->src || S.seg[j] != S.seg[i])
					break;
				if (rj->array != ri->array)
					continue;
				if (!same_place(ri, rj) || out[j].n != 1 || out[j].leader != j) {
					broken = true; /* another access to the array between */
					break;
				}
				if (w == ri->array->elem_size && written_adjacent(ri->src, rj->src, (int64_t)found) &&
				    related(ri, rj, (int64_t)(found * w), n * w, blocks, nblocks)) {
					members[found++] = j;
				} else {
					broken = true;
				}
			}
			if (found == n) {
				for (unsigned k = 0; k < n; k++) {
					out[members[k]].leader = i;
					out[members[k]].n = n;
					out[members[k]].width = n * w;
				}
				break;
			}
		}
	}
}
