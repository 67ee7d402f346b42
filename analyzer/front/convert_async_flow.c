/* convert_async_flow.c - the asynchronous copies in flight across control
 * flow (convert_async.c issues, commits and waits for them in statement
 * order).
 *
 * Models:
 * - a loop's back edge: a copy still in flight at the end of the body is
 *   in flight at the top of the next iteration, at the loads of the body
 *   that no wait orders after it (sm_access.carried), found by following
 *   the body's commits and waits again in order (cv_async_loop_end);
 * - an if whose one arm waits for copies in flight before it and whose
 *   other arm issues, commits and waits for none (the prefetch pattern
 *   `if (last) cp.async.wait_all; __syncthreads();`): after the if those
 *   copies are in flight only where the waiting arm did not run. Their
 *   stores repeated after later barriers (convert_async.c) sit under an if
 *   on the same condition, so the threads that waited do not race; the
 *   race search takes a uniform condition's arms alike at both ifs (its
 *   path variables, engine/cfg.c).
 * Limits: the condition is the if's value when it ran; only a copy issued
 * in the same loop as the if (or both in none) is followed so: one issued
 * before a loop whose body waits under an if (flash attention's first
 * tile: `if (tile == 0) wait`) may have been waited for at an earlier
 * iteration, which no condition here tells; it is taken as done, as is a
 * copy whose wait is under two ifs, or one waited for in both arms. A
 * copy in flight on some paths only is not listed at loads (pending,
 * carried): a read of one's own bytes before such a wait is not reported
 * (nothing is made up). */
#include "front/convert.h"

#include <stdlib.h>
#include <string.h>

/* ---- the back edge ---- */

enum ev_kind { EV_COMMIT, EV_WAIT };

struct cv_async_ev {
	enum ev_kind kind;
	int64_t n;         /* EV_WAIT: the groups it leaves; < 0 every copy */
	unsigned mark;     /* the accesses made before it (sm_access.index) */
	bool bulk;         /* of the bulk groups */
};

void cv_async_note(struct fe *S, bool wait, int64_t n, bool bulk)
{
	enum ev_kind kind = wait ? EV_WAIT : EV_COMMIT;
	for (struct cv_async_loop *L = S->async.loop; L; L = L->up) {
		struct cv_async_ev *e = L->ev.n < SM_FE_LOOP_EVENTS ? sm_arena_alloc(S->A, sizeof(*e)) : NULL;
		if (!e)
			return;
		*e = (struct cv_async_ev){ kind, n, S->naccess, bulk };
		cv_vec_push(S->A, &L->ev, e);
	}
}

void cv_async_loop_begin(struct fe *S, struct cv_async_loop *L)
{
	memset(L, 0, sizeof(*L));
	L->first = S->naccess;
	L->commits = S->async.commits;
	if (S->async.n && (L->start = sm_arena_alloc(S->A, S->async.n * sizeof(*L->start)))) {
		memcpy(L->start, S->async.copy, S->async.n * sizeof(*L->start));
		L->nstart = S->async.n;
	}
	L->up = S->async.loop;
	S->async.loop = L;
}

/* The shared loads under s, into v. */
static void body_loads(struct fe *S, const struct sm_stmt *s, struct vec *v, int depth)
{
	if (!s || depth > SM_FE_MAX_DEPTH)
		return;
	if (s->kind == SM_S_ACCESS && s->access && s->access->kind == SM_ACC_LOAD)
		cv_vec_push(S->A, v, s->access);
	for (int i = 0; i < s->nkids; i++)
		body_loads(S, s->kids[i], v, depth + 1);
}

static int by_index(const void *x, const void *y)
{
	unsigned a = (*(struct sm_access *const *)x)->index, b = (*(struct sm_access *const *)y)->index;
	return a < b ? -1 : a > b;
}

/* A load of a loop body, and how many loops around it the body's loop
 * is (1: its innermost). */
struct leveled {
	struct sm_access *a;
	unsigned char level;
};

/* The shared loads under s, at `level`, into v. */
static void leveled_loads(struct fe *S, const struct sm_stmt *s, struct vec *v, unsigned level, int depth)
{
	if (!s || depth > SM_FE_MAX_DEPTH || level > SM_MAX_LOOPS)
		return;
	if (s->kind == SM_S_ACCESS && s->access && s->access->kind == SM_ACC_LOAD) {
		struct leveled *l = sm_arena_alloc(S->A, sizeof(*l));
		if (!l)
			return;
		*l = (struct leveled){ s->access, (unsigned char)level };
		cv_vec_push(S->A, v, l);
	}
	for (int i = 0; i < s->nkids; i++)
		leveled_loads(S, s->kids[i], v, level + (s->kind == SM_S_LOOP), depth + 1);
}

/* The copies in flight when loop L began that its body's commits and
 * waits, followed in order from there pass after pass, complete: in pass
 * done[i] (0: not within SM_FE_PENDING_PASSES), so from iteration done[i]
 * of L on (done[i] - 1 for a load after that wait) copy i is pending no
 * more. The loads of the body
 * listing such a copy as pending get pending_until for it: L's level
 * around the load, unless a loop inside L said so first. */
static void pending_until(struct fe *S, const struct cv_async_loop *L, const struct sm_stmt *body,
			  const struct sm_stmt *step)
{
	if (!L->nstart || L->ev.n >= SM_FE_LOOP_EVENTS)
		return;
	int64_t after[SM_FE_ASYNC_PENDING];
	unsigned char done[SM_FE_ASYNC_PENDING];
	unsigned mark[SM_FE_ASYNC_PENDING]; /* the accesses before that wait */
	bool any = false;
	for (unsigned i = 0; i < L->nstart; i++) {
		const struct cv_async_copy *c = &L->start[i];
		after[i] = c->group ? (int64_t)(L->commits - c->group) : -1;
		done[i] = 0;
	}
	for (unsigned pass = 1; pass <= SM_FE_PENDING_PASSES; pass++)
		for (unsigned k = 0; k < L->ev.n; k++) {
			const struct cv_async_ev *e = L->ev.v[k];
			if (e->bulk)
				continue;
			for (unsigned i = 0; i < L->nstart; i++) {
				if (L->start[i].bulk || L->start[i].cond)
					continue;
				if (e->kind == EV_COMMIT)
					after[i]++;
				else if (!done[i] && cv_async_wait_completes(after[i], e->n)) {
					done[i] = (unsigned char)pass;
					mark[i] = e->mark;
					any = true;
				}
			}
		}
	if (!any)
		return;
	struct vec loads = { 0 };
	leveled_loads(S, body, &loads, 1, 0);
	leveled_loads(S, step, &loads, 1, 0);
	for (unsigned j = 0; j < loads.n; j++) {
		const struct leveled *l = loads.v[j];
		struct sm_access *a = l->a;
		struct sm_pending_until *u = (struct sm_pending_until *)a->pending_until;
		for (unsigned p = 0; p < a->npending; p++)
			for (unsigned i = 0; i < L->nstart; i++) {
				if (!done[i] || a->pending[p] != L->start[i].acc || (u && u[p].level))
					continue;
				if (!u && !(u = sm_arena_alloc(S->A, a->npending * sizeof(*u))))
					return;
				/* a load after that wait in the body sees it
				 * complete one iteration earlier */
				u[p] = (struct sm_pending_until){ l->level,
								  (unsigned char)(done[i] - (a->index >= mark[i])) };
			}
		a->pending_until = u;
	}
}

/* Follow the copies in flight now, at the end of the body, through the
 * body's commits and waits again, in the order of its loads: each copy is
 * in flight at a load until a wait leaves fewer groups than have been
 * committed after it. */
void cv_async_loop_end(struct fe *S, struct cv_async_loop *L, const struct sm_stmt *body, const struct sm_stmt *step)
{
	S->async.loop = L->up;
	pending_until(S, L, body, step);
	unsigned n = S->async.n;
	if (!n || L->ev.n >= SM_FE_LOOP_EVENTS)
		return; /* nothing carried, or a body too long to follow */
	struct vec loads = { 0 };
	body_loads(S, body, &loads, 0);
	body_loads(S, step, &loads, 0);
	if (!loads.n)
		return;
	qsort(loads.v, loads.n, sizeof(*loads.v), by_index);
	int64_t after[SM_FE_ASYNC_PENDING]; /* groups committed after it; -1: open */
	bool done[SM_FE_ASYNC_PENDING];
	unsigned left = 0;
	for (unsigned i = 0; i < n; i++) {
		after[i] = cv_async_groups_after(S, i);
		/* a bulk read is not carried to loads, nor a copy issued
		 * before the loop: an inner loop of reads after the outer
		 * body's copies (a GEMM's ldmatrix loop) does not carry them
		 * into "its previous iteration" */
		done[i] = S->async.copy[i].bulk || S->async.copy[i].acc->index < L->first || S->async.copy[i].cond;
		left += !done[i];
	}
	unsigned k = 0;
	for (unsigned j = 0; j < loads.n && left; j++) {
		struct sm_access *a = loads.v[j];
		for (; k < L->ev.n && ((const struct cv_async_ev *)L->ev.v[k])->mark <= a->index; k++) {
			const struct cv_async_ev *e = L->ev.v[k];
			if (e->bulk)
				continue;
			left = 0;
			for (unsigned i = 0; i < n; i++) {
				if (e->kind == EV_COMMIT)
					after[i]++;
				else if (cv_async_wait_completes(after[i], e->n))
					done[i] = true;
				left += !done[i];
			}
		}
		if (!left)
			break;
		const struct sm_access **v = sm_arena_alloc(S->A, (a->ncarried + left) * sizeof(*v));
		if (!v)
			return;
		if (a->ncarried)
			memcpy(v, a->carried, a->ncarried * sizeof(*v));
		for (unsigned i = 0; i < n; i++)
			if (!done[i])
				v[a->ncarried++] = S->async.copy[i].acc;
		a->carried = v;
	}
}

/* ---- an if whose one arm waits ---- */

void cv_async_if_begin(struct fe *S, struct cv_async_if *F)
{
	memset(F, 0, sizeof(*F));
	F->issues = S->async.issues;
	F->waits = S->async.waits;
	if (!S->async.n)
		return;
	F->before = sm_arena_alloc(S->A, S->async.n * sizeof(*F->before));
	if (!F->before)
		return;
	memcpy(F->before, S->async.copy, S->async.n * sizeof(*F->before));
	F->n = S->async.n;
}

void cv_async_if_arms(struct fe *S, struct cv_async_if *F)
{
	F->then_issues = S->async.issues != F->issues;
	F->then_waits = S->async.waits != F->waits;
	F->issues = S->async.issues;
	F->waits = S->async.waits;
}

void cv_async_if_end(struct fe *S, struct cv_async_if *F, struct sm_expr *cond)
{
	bool else_issues = S->async.issues != F->issues, else_waits = S->async.waits != F->waits;
	if (!cond || !F->before || F->then_issues || else_issues || F->then_waits == else_waits)
		return; /* the arms' waits count as done */
	/* only waits ran: the copies in flight now are some of those before,
	 * in the same order. Each one the waiting arm completed comes back,
	 * in flight where that arm did not run: cond true when the else arm
	 * waited, false when the then arm did */
	struct cv_async_copy now[SM_FE_ASYNC_PENDING];
	unsigned n = 0, k = 0;
	for (unsigned i = 0; i < F->n && n < SM_FE_ASYNC_PENDING; i++) {
		const struct cv_async_copy *b = &F->before[i];
		if (k < S->async.n && S->async.copy[k].acc == b->acc) {
			now[n++] = S->async.copy[k++];
			continue;
		}
		/* issued in the loop being converted (numbered from its body's
		 * first access: an earlier loop's record may sit at the same
		 * address), or both outside every loop */
		bool here = b->loop == S->async.loop && (!S->async.loop || b->acc->index >= S->async.loop->first);
		if (b->cond || !here)
			continue; /* taken as done (the design note's limits) */
		now[n] = *b;
		now[n].cond = cond;
		now[n++].when = else_waits;
	}
	if (k != S->async.n)
		return; /* not a subset after all: leave it as it is */
	memcpy(S->async.copy, now, n * sizeof(*now));
	S->async.n = n;
}

struct sm_stmt *cv_async_flight_stmt(struct fe *S, unsigned i, struct sm_stmt *s)
{
	const struct cv_async_copy *cp = &S->async.copy[i];
	if (!cp->cond)
		return s;
	struct sm_stmt *iff = cv_mk_stmt(S, SM_S_IF, clang_getNullCursor());
	struct sm_stmt *arm = cv_mk_stmt(S, SM_S_BLOCK, clang_getNullCursor());
	struct sm_stmt *none = cv_mk_stmt(S, SM_S_BLOCK, clang_getNullCursor());
	struct sm_stmt **kids = sm_arena_alloc(S->A, 2 * sizeof(*kids));
	struct sm_stmt **body = sm_arena_alloc(S->A, sizeof(*body));
	if (!iff || !arm || !none || !kids || !body)
		return NULL;
	body[0] = s;
	arm->kids = body;
	arm->nkids = 1;
	arm->range = none->range = iff->range = s->range;
	kids[0] = cp->when ? arm : none;
	kids[1] = cp->when ? none : arm;
	iff->cond = cp->cond;
	iff->kids = kids;
	iff->nkids = 2;
	s->access->flight_if = true;
	return iff;
}
