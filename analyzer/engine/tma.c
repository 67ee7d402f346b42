/* tma.c - the layout a TMA tensor copy gives shared memory, against the
 * layout the threads address it with.
 *
 * A tensor map's swizzle (32, 64 or 128 bytes) stores the box's byte L
 * at L ^ (((L >> 7) & m) << 4), m = span / 16 - 1: the 16-byte chunk
 * within each 128-byte line is XORed with the line's low bits (CuTe's
 * Swizzle<3,4,3> for 128 bytes, <2,4,3> and <1,4,3> below it). The
 * pattern repeats every 1024, 512 or 256 bytes, and the PTX ISA has the
 * destination aligned to that: the array's offsets are taken as the
 * addresses. Threads that read the box, or write what a TMA store reads,
 * must address it the same way, or they get another element's bytes.
 *
 * A thread's byte P matches when P - D = sw(Q - D), D the copy's
 * destination and Q the thread's address with the XORs of its index
 * undone (each XOR read as one of its operands: `c ^ (r & 7)` as `c`), for
 * every thread of the block and the first iterations of its loops; one
 * choice of operands must fit them all. An index with no XOR matches only
 * where the swizzle moves nothing. Unknown values, and accesses whose
 * address cannot be computed, are not judged; the evaluations count
 * against the file's analysis budget (sm_work), and once it is spent
 * nothing more is judged.
 */
#include "engine/tma.h"

#include <string.h>

#include "base/limits.h"

/* The XOR nodes of e, depth first, at most max of them; *n counts all. */
static void find_xors(const struct sm_expr *e, const struct sm_expr **out, int max, int *n, int depth)
{
	if (!e || depth > SM_TMA_EXPR_DEPTH)
		return;
	if (e->kind == SM_E_BINARY && e->op == SM_OP_XOR) {
		if (*n < max)
			out[*n] = e;
		(*n)++;
	}
	find_xors(e->a, out, max, n, depth + 1);
	find_xors(e->b, out, max, n, depth + 1);
	find_xors(e->c, out, max, n, depth + 1);
}

/* e with each XOR node xs[i] replaced by its operand a (bit i of choice
 * clear) or b (set); NULL when memory runs out. Nodes without an XOR
 * below them are shared, not copied. */
static struct sm_expr *undo(const struct sm_expr *e, const struct sm_expr *const *xs, int nx, unsigned choice,
			    struct sm_arena *A, int depth, bool *failed)
{
	if (!e || depth > SM_TMA_EXPR_DEPTH)
		return (struct sm_expr *)e;
	for (int i = 0; i < nx; i++)
		if (xs[i] == e)
			return undo((choice >> i) & 1 ? e->b : e->a, xs, nx, choice, A, depth + 1, failed);
	struct sm_expr *a = undo(e->a, xs, nx, choice, A, depth + 1, failed);
	struct sm_expr *b = undo(e->b, xs, nx, choice, A, depth + 1, failed);
	struct sm_expr *c = undo(e->c, xs, nx, choice, A, depth + 1, failed);
	if (a == e->a && b == e->b && c == e->c)
		return (struct sm_expr *)e;
	struct sm_expr *n = sm_arena_alloc(A, sizeof(*n));
	if (!n) {
		*failed = true;
		return (struct sm_expr *)e;
	}
	*n = *e;
	n->a = a;
	n->b = b;
	n->c = c;
	return n;
}

int64_t sm_tma_swizzle(int64_t offset, unsigned span)
{
	if (span < 32)
		return offset;
	int64_t m = span / 16 - 1;
	return offset ^ (((offset >> 7) & m) << 4);
}

/* One thread and loop iteration: its address under ra (1), or 0 when it
 * does not run it or the address is not known. */
static int addr_at(const struct sm_raccess *ra, struct sm_dim3 block, int64_t lin, int k, int64_t *p, struct sm_work *work)
{
	struct sm_eval_ctx c;
	sm_thread_ctx(&c, block, lin);
	c.work = work;
	for (int d = 0; d < SM_MAX_LOOPS; d++)
		c.iter[d] = k;
	return sm_access_addr(ra, NULL, &c, p) == 1 && !c.err;
}

/* The destination of copy w: the address the first thread that issues it
 * gives; -1 when none does with a known address. */
static int64_t destination(const struct sm_raccess *w, struct sm_dim3 block, int64_t nthreads, struct sm_work *work)
{
	int64_t p;
	for (int64_t t = 0; t < nthreads && !(work && sm_work_over(work)); t++)
		if (addr_at(w, block, t, 0, &p, work))
			return p;
	return -1;
}

/* Does the reading `undone` of r's XORs fit every sample of r in the box?
 * On the first that does not, false and its witness in *m. */
static bool fits(const struct sm_raccess *r, const struct sm_raccess *undone, struct sm_dim3 block, int64_t nthreads,
		 int64_t dst, const struct sm_raccess *w, struct sm_tma_mismatch *m, struct sm_work *work)
{
	unsigned span = w->src->tmap->swizzle;
	for (int k = 0; k < SM_TMA_ITERS; k++)
		for (int64_t t = 0; t < nthreads; t++) {
			int64_t p, q;
			if (work && sm_work_over(work))
				return true; /* the budget is spent: not judged */
			if (!addr_at(r, block, t, k, &p, work) || p < dst || p >= dst + (int64_t)w->width)
				continue;
			if (!addr_at(undone, block, t, k, &q, work) || q < dst || q >= dst + (int64_t)w->width)
				continue;
			if (sm_tma_swizzle(q - dst, span) != p - dst) {
				sm_thread_id(block, t, m->tid);
				m->iter = k;
				m->addr = p;
				m->holds = dst + sm_tma_swizzle(p - dst, span);
				m->meant = q;
				return false;
			}
		}
	return true;
}

/* Judge access r against swizzled copy w: 1 and *m on a mismatch. */
static int judge(const struct sm_raccess *r, const struct sm_raccess *w, struct sm_dim3 block, int64_t nthreads,
		 int64_t dst, struct sm_arena *A, struct sm_tma_mismatch *m, struct sm_work *work)
{
	const struct sm_expr *xs[SM_TMA_XORS];
	int nx = 0;
	for (int d = 0; d < r->nidx; d++)
		find_xors(r->idx[d], xs, SM_TMA_XORS, &nx, 0);
	find_xors(r->extra, xs, SM_TMA_XORS, &nx, 0);
	if (nx > SM_TMA_XORS)
		return 0; /* too many XORs to try each reading: not judged */
	struct sm_tma_mismatch first;
	bool have = false;
	for (unsigned choice = 0; choice < (1u << nx); choice++) {
		struct sm_raccess u = *r;
		bool failed = false;
		for (int d = 0; d < r->nidx; d++)
			u.idx[d] = undo(r->idx[d], xs, nx, choice, A, 0, &failed);
		u.extra = undo(r->extra, xs, nx, choice, A, 0, &failed);
		if (failed)
			return 0;
		struct sm_tma_mismatch x;
		if (fits(r, &u, block, nthreads, dst, w, &x, work))
			return 0;
		if (!have) {
			first = x;
			have = true;
		}
	}
	*m = first;
	return 1;
}

int sm_tma_mismatches(const struct sm_kernel_facts *f, struct sm_arena *A, struct sm_tma_mismatch *out, int max)
{
	const struct sm_kernel_model *M = &f->model;
	struct sm_dim3 block = f->launch.shape[0].block;
	int64_t nthreads = block.x * block.y * block.z;
	if (nthreads <= 0 || nthreads > SM_TMA_THREADS)
		return 0;
	int n = 0;
	for (unsigned i = 0; i < M->nacc && n < max; i++) {
		const struct sm_raccess *w = &M->acc[i];
		if (!w->ok || !w->src->tensor || !w->src->tmap || !w->src->tmap->swizzle || !w->array)
			continue;
		int64_t dst = destination(w, block, nthreads, f->work);
		if (dst < 0)
			continue;
		for (unsigned j = 0; j < M->nacc && n < max; j++) {
			const struct sm_raccess *r = &M->acc[j];
			if (!r->ok || r->array != w->array || r->src->async_copy || r->src->in_flight ||
			    r->src->kind == SM_ACC_ATOMIC || r->src->remote)
				continue;
			/* the box the copy writes is read; the box a store reads is written */
			if ((w->src->kind == SM_ACC_STORE) != (r->src->kind == SM_ACC_LOAD))
				continue;
			struct sm_tma_mismatch m;
			memset(&m, 0, sizeof(m));
			if (judge(r, w, block, nthreads, dst, A, &m, f->work)) {
				m.copy = i;
				m.access = j;
				out[n++] = m;
			}
		}
	}
	return n;
}
