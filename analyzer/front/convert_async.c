/* convert_async.c - the shared-memory operations the hardware runs outside
 * a thread's plain loads and stores: asynchronous copies, tensor-core tile
 * accesses, and library calls that hold a barrier.
 *
 * Models:
 * - ldmatrix / stmatrix (inline PTX, sm_75+ / sm_90+): every lane of the
 *   first 8, 16 or 32 (.x1, .x2, .x4) gives the address of one 16-byte
 *   row of an 8x8 matrix; the rows of each matrix are served together. For
 *   the bank model that is a 16-byte access by those lanes (8-lane phases,
 *   ideal one wavefront per matrix), written as a load (ldmatrix) or a
 *   store (stmatrix) under `lane < 8 * n`. .trans moves no other bytes.
 * - cp.async (__pipeline_memcpy_async(dst, src, 4|8|16), inline PTX
 *   `cp.async.ca|cg.shared.global [dst], [src], N`): a store of N bytes
 *   a lane into shared memory that lands at any time until the wait
 *   completing its commit group: __pipeline_commit() / cp.async.commit_group
 *   closes a group; __pipeline_wait_prior(n) / cp.async.wait_group n
 *   completes all but the n most recent groups; cp.async.wait_all every
 *   copy. A copy still in flight at a block barrier is not ordered by it:
 *   the front end repeats the copy's store after each such barrier (marked
 *   in_flight, races only) until a wait completes it, so a read of another
 *   thread's element after the barrier but before the wait is a race, as
 *   the GPU's racecheck says.
 * - cp.async.bulk (inline PTX, sm_90+: the non-tensor TMA copy, `cp.async.
 *   bulk.shared::cta|cluster.global.mbarrier::complete_tx::bytes [dst],
 *   [src], size, [mbar]`): a store of `size` bytes by the issuing thread,
 *   landing at any time until the mbarrier's wait (which completes every
 *   copy, as for cp.async). The async proxy writes it, not the lanes: no
 *   bank degree (engine/facts.c).
 * - cp.async.bulk.tensor (the TMA tensor copies, either way): the same copy
 *   of the box its CUtensorMap operand describes; the kernel parameter the
 *   map is (cv_kernel_param_of) is bound to the launches' maps later
 *   (convert_ptx.c, cv_bind_tensor_maps), 16 bytes until then.
 * - cuda::memcpy_async(dst, src, size, pipe | bar) (libcu++): the same
 *   store, on a thread-scope cuda::pipeline (producer_commit closes a stage,
 *   consumer_wait completes the oldest, pipeline_consumer_wait_prior<N> all
 *   but the N newest) or a block-scope cuda::barrier (arrive_and_wait
 *   completes its copies and is a block barrier; init(&bar, n) writes the
 *   barrier's state and each use reads it, so a use no barrier orders after
 *   another thread's init is a race). A call not modelled that takes the
 *   pipeline or barrier completes every copy (it may wait).
 * - CUB block collectives (BlockScan, BlockReduce, ...): the block barrier
 *   inside them, whose toolkit code is not converted.
 * - cluster.map_shared_rank(p, rank): p, marked remote (another block's
 *   shared memory, engine/dsmem.c).
 * - __cvta_generic_to_shared(p): p itself (a byte address in the shared
 *   window); an integer variable given such an address holds a pointer into
 *   shared memory (with byte units), as ldmatrix and cp.async operands are
 *   written.
 * Each shared load made while copies are in flight lists them
 * (sm_access.pending): a read of the copying thread's own bytes before
 * the wait is found from there (engine/async_wait.c), as the race search
 * pairs distinct threads only. A copy still in flight at the end of a loop
 * body is in flight at the top of the next iteration: the loads of the body
 * that no wait orders after it list it too (sm_access.carried, found in
 * convert_async_flow.c).
 * Limits: the group bookkeeping follows the statements in order once
 * (across loops and branches: convert_async_flow.c); a
 * copy carried over a back edge is not repeated after the next iteration's
 * barriers (a read of another thread's element behind a barrier but before
 * the wait is found for the copies of the same iteration, or of the code
 * before the loop, only). A copy repeated after a barrier keeps the guards
 * of its issue (engine/resolve.c) when the barrier is in the same loops and
 * outside those guards; elsewhere it is repeated for every thread. */
#include "front/convert.h"

#include <stdlib.h>
#include <string.h>

/* ---- the statements and accesses made here ---- */

/* a, marked a bulk copy when bulk (sm_access.bulk); NULL stays NULL */
static struct sm_access *as_bulk(struct sm_access *a, bool bulk)
{
	if (a)
		a->bulk = bulk;
	return a;
}

/* A store or load of `width` bytes a lane at pointer value ptr (a byte
 * address into shared memory), emitted as a statement; NULL when ptr does
 * not point into shared memory. */
static struct sm_access *access_at(struct fe *S, CXCursor c, struct sm_expr *ptr, enum sm_access_kind kind,
				   unsigned width, const char *op)
{
	if (!ptr || !ptr->is_ptr)
		return NULL;
	struct sm_access *a = sm_arena_alloc(S->A, sizeof(*a));
	if (!a)
		return NULL;
	a->kind = kind;
	a->op = op;
	a->base = ptr;
	a->idx[0] = cv_mk_const(S, 0);
	a->nidx = 1;
	a->base_elem_size = width;
	a->width = width;
	cv_emit_made_access(S, c, a);
	if (clang_getCursorKind(c) == CXCursor_AsmStmt && !(S->in_header && S->call) && !cv_from_macro(c)) {
		/* nvcc's line table puts an asm statement's instructions on its
		 * last line (measured on the H100: a two-line ldmatrix is on
		 * the line of its operands); one a macro expands, on the line
		 * of the macro's name (measured on the H200: LeetCUDA's
		 * LDMATRIX_X4(...) written over three lines is on its first) */
		a->range.begin.line = a->range.end.line;
		a->range.begin.col = 1;
	}
	return a;
}

/* The same, done only by the first `lanes` lanes of each warp (ldmatrix
 * .x1 and .x2 read the addresses of lanes 0-7 and 0-15 only). */
static void access_by_lanes(struct fe *S, CXCursor c, struct sm_expr *ptr, enum sm_access_kind kind, unsigned width,
			    int lanes, const char *op)
{
	if (lanes >= SM_WARP) {
		access_at(S, c, ptr, kind, width, op);
		return;
	}
	struct vec body = { 0 };
	struct vec *saved = S->block;
	S->block = &body;
	struct sm_access *a = access_at(S, c, ptr, kind, width, op);
	S->block = saved;
	struct sm_expr *lane = cv_mk_expr(S, SM_E_BUILTIN, c);
	struct sm_stmt *blk = cv_mk_stmt(S, SM_S_BLOCK, c), *s = cv_mk_stmt(S, SM_S_IF, c);
	struct sm_stmt **kids = sm_arena_alloc(S->A, 2 * sizeof(*kids));
	if (!a || !lane || !blk || !s || !kids)
		return;
	lane->builtin = SM_B_LANE;
	blk->kids = (struct sm_stmt **)body.v;
	blk->nkids = (int)body.n;
	kids[0] = blk;
	kids[1] = NULL;
	s->cond = cv_mk_bin(S, SM_OP_LT, lane, cv_mk_const(S, lanes), c);
	s->kids = kids;
	s->nkids = 2;
	cv_emit(S, s);
}

static void after_barrier(struct fe *S, CXCursor c);

/* ---- commit groups ---- */

/* Copy a is in flight, in the open group (bulk: of the bulk groups). */
static void issue_in(struct fe *S, struct sm_access *a, bool bulk)
{
	if (!a)
		return;
	a->async_copy = true;
	if (S->async.n < SM_FE_ASYNC_PENDING) {
		/* in the open group */
		S->async.copy[S->async.n++] = (struct cv_async_copy){ .acc = a, .bulk = bulk, .loop = S->async.loop };
		S->async.issues++;
	}
}

static void issue(struct fe *S, struct sm_access *a)
{
	issue_in(S, a, false);
}

/* Close the open group (bulk: of the bulk groups, which cp.async's
 * commits and waits do not touch, nor these theirs). */
static void commit_in(struct fe *S, bool bulk)
{
	cv_async_note(S, false, 0, bulk);
	unsigned g = bulk ? ++S->async.bulk_commits : ++S->async.commits;
	S->async.issues++;
	for (unsigned i = 0; i < S->async.n; i++)
		if (!S->async.copy[i].group && S->async.copy[i].bulk == bulk)
			S->async.copy[i].group = g;
}

static void commit(struct fe *S)
{
	commit_in(S, false);
}

/* Complete every committed group but the n most recent (n < 0: every
 * copy, committed or not), of the bulk groups or the others. */
static void wait_prior_in(struct fe *S, int64_t n, bool bulk)
{
	cv_async_note(S, true, n, bulk);
	unsigned out = 0;
	S->async.waits++;
	for (unsigned i = 0; i < S->async.n; i++)
		if (S->async.copy[i].bulk != bulk || !cv_async_wait_completes(cv_async_groups_after(S, i), n))
			S->async.copy[out++] = S->async.copy[i];
	S->async.n = out;
}

static void wait_prior(struct fe *S, int64_t n)
{
	wait_prior_in(S, n, false);
}

struct sm_access *cv_async_bulk_copy(struct fe *S, CXCursor c, struct sm_expr *ptr, enum sm_access_kind kind,
				     int64_t size, const char *op)
{
	if (size < 16 || size % 16 || size > SM_FE_BULK_BYTES)
		return NULL; /* not a size the bulk copy takes (or past the limit) */
	struct sm_access *a = as_bulk(access_at(S, c, ptr, kind, (unsigned)size, op), true);
	/* out of shared memory: in the bulk groups; into it: complete at the
	 * mbarrier's (or cuda::barrier's) wait, as every copy */
	issue_in(S, a, kind == SM_ACC_LOAD);
	return a;
}

void cv_async_commit(struct fe *S, bool bulk)
{
	commit_in(S, bulk);
}

void cv_async_wait(struct fe *S, int64_t n, bool bulk)
{
	wait_prior_in(S, n, bulk);
}

void cv_emit_barrier(struct fe *S, struct sm_stmt *s)
{
	cv_emit(S, s);
	/* a block barrier does not order a copy still in flight */
	if (s && (s->scope == SM_SCOPE_BLOCK || s->scope == SM_SCOPE_GRID))
		after_barrier(S, clang_getNullCursor());
}

static void after_barrier(struct fe *S, CXCursor c)
{
	for (unsigned i = 0; i < S->async.n; i++) {
		const struct sm_access *a = S->async.copy[i].acc;
		struct sm_access *copy = sm_arena_alloc(S->A, sizeof(*copy));
		struct sm_stmt *s = cv_mk_stmt(S, SM_S_ACCESS, c);
		if (!copy || !s)
			return;
		*copy = *a;
		copy->in_flight = a;
		copy->index = S->naccess++;
		s->access = copy;
		s->range = a->range;
		/* in flight on some paths only: under an if on their condition */
		cv_emit(S, cv_async_flight_stmt(S, i, s));
	}
}

void cv_async_reset(struct fe *S)
{
	memset(&S->async, 0, sizeof(S->async));
}

/* ---- the calls ---- */

struct sm_expr *cv_conv_cvta_shared(struct fe *S, const struct cv_call *k)
{
	return cv_conv_expr(S, k->args[0]);
}

/* cluster.map_shared_rank(p, rank) with p a shared pointer the conversion
 * follows: the same place in the shared memory of block `rank` of the
 * cluster. Which block is not followed: the access is remote, to the
 * same array of some other block, unless the rank is the block's own
 * (block_rank() itself: p). The reference form, and a pointer not
 * followed, are an opaque value. */
struct sm_expr *cv_conv_map_shared_rank(struct fe *S, const struct cv_call *k)
{
	CXCursor p = cv_strip(k->args[0]);
	CXType t = clang_getCanonicalType(clang_getCursorType(p));
	bool ptr = t.kind == CXType_Pointer || t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray;
	if (!ptr || !cv_is_shared_ptr(S, p))
		return cv_opaque(S, k->c, k->name, 1);
	struct sm_expr *e = cv_conv_expr(S, k->args[0]);
	(void)cv_conv_expr(S, k->args[1]);
	CXCursor rank = cv_strip(k->args[1]);
	const char *rn = cv_cx_str(S->A, clang_getCursorSpelling(rank));
	bool own = clang_getCursorKind(rank) == CXCursor_CallExpr && rn && !strcmp(rn, "block_rank");
	struct sm_expr *r = e && !own ? sm_arena_alloc(S->A, sizeof(*r)) : NULL;
	if (!r)
		return e;
	*r = *e; /* a variable's node is shared by its every use */
	r->remote = true;
	return r;
}

struct sm_expr *cv_conv_pipeline_memcpy(struct fe *S, const struct cv_call *k)
{
	int64_t size = 0;
	if (k->nargs < 3 || !cv_try_eval_int(k->args[2], &size) || (size != 4 && size != 8 && size != 16))
		return cv_opaque(S, k->c, "async copy", 1);
	struct sm_access *a = access_at(S, k->args[0], cv_conv_expr(S, k->args[0]), SM_ACC_STORE, (unsigned)size,
					"cp.async (__pipeline_memcpy_async)");
	if (a)
		a->gsrc = cv_global_offset(S, k->args[1]);
	issue(S, a);
	return NULL;
}

struct sm_expr *cv_conv_pipeline_commit(struct fe *S, const struct cv_call *k)
{
	(void)k;
	commit(S);
	return NULL;
}

struct sm_expr *cv_conv_pipeline_wait(struct fe *S, const struct cv_call *k)
{
	int64_t n = 0;
	/* an unknown count: every copy, so that no race is made up */
	wait_prior(S, k->nargs == 1 && cv_try_eval_int(k->args[0], &n) && n >= 0 ? n : -1);
	return NULL;
}

/* ---- libcu++: cuda::memcpy_async with a pipeline or a barrier ---- */

/* What completes a cuda::memcpy_async: a pipeline of thread scope (the
 * thread's own copies, in the stages it commits, each completed by
 * consumer_wait in order), a cuda::barrier of block scope (its phase, at
 * arrive_and_wait), or something not modelled (a pipeline shared by
 * producer and consumer threads orders them itself: its copies are left
 * out rather than reported as races). */
enum completion { C_OTHER, C_THREAD_PIPE, C_BLOCK_BARRIER };

static enum completion completion_of_type(CXType t)
{
	CXString s = clang_getTypeSpelling(clang_getCanonicalType(t));
	const char *n = clang_getCString(s);
	enum completion c = C_OTHER;
	if (n && strstr(n, "pipeline<") && strstr(n, "thread_scope_thread"))
		c = C_THREAD_PIPE;
	else if (n && strstr(n, "barrier<") && strstr(n, "thread_scope_block"))
		c = C_BLOCK_BARRIER;
	clang_disposeString(s);
	return c;
}

/* The completion object an expression names; where clang lost its type
 * (an invalid __shared__ cuda::barrier), the type its declaration has. */
/* The __shared__ block-scope cuda::barrier that e names (bar, or &bar),
 * or NULL. By its declaration's type as the front end kept it: clang
 * rejects the constructor of a __shared__ cuda::barrier (nvcc ignores it),
 * and the expressions naming it lose their type and referent, so an
 * expression of one name (or & and a name) is looked up by its tokens. */
static struct sm_array *barrier_object(struct fe *S, CXCursor e)
{
	struct toks t = cv_tokens_of(S, e);
	const char *name = t.n == 1 ? t.s[0] : t.n == 2 && !strcmp(t.s[0], "&") ? t.s[1] : NULL;
	struct vec *lists[] = { &S->karrays, &S->all_arrays };
	for (int l = 0; name && l < 2; l++)
		for (unsigned i = 0; i < lists[l]->n; i++) {
			struct sm_array *a = lists[l]->v[i];
			if (!strcmp(a->name, name) && a->elem_type && strstr(a->elem_type, "barrier<") &&
			    strstr(a->elem_type, "thread_scope_block"))
				return a;
		}
	return NULL;
}

/* The barrier object's own state, read or written by the thread (an
 * 8-byte word of shared memory): init writes it, every use reads it, so
 * a use no barrier orders after another thread's init is a race. */
static void barrier_state(struct fe *S, CXCursor c, struct sm_array *bar, enum sm_access_kind kind)
{
	struct sm_access *a = bar ? sm_arena_alloc(S->A, sizeof(*a)) : NULL;
	if (!a)
		return;
	a->kind = kind;
	a->array = bar;
	a->width = bar->elem_size < 8 ? bar->elem_size : 8;
	a->op = kind == SM_ACC_STORE ? "cuda::barrier init" : "cuda::barrier use";
	cv_emit_made_access(S, c, a);
}

static enum completion completion_of(struct fe *S, CXCursor e)
{
	enum completion c = completion_of_type(clang_getCursorType(e));
	CXCursor d = clang_getCursorReferenced(e);
	if (c == C_OTHER && clang_getCursorKind(d) == CXCursor_VarDecl)
		c = completion_of_type(clang_getCursorType(d));
	if (c != C_OTHER)
		return c;
	return barrier_object(S, e) ? C_BLOCK_BARRIER : C_OTHER;
}

const char *cv_recovered_call_name(struct fe *S, CXCursor call)
{
	static const char *const names[] = { "memcpy_async", "arrive_and_wait", "wait", "init" };
	struct toks t = cv_tokens_of(S, call);
	for (unsigned i = 1; i < t.n; i++) {
		if (strcmp(t.s[i], "("))
			continue;
		for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (!strcmp(t.s[i - 1], names[k]))
				return names[k];
		break;
	}
	return "";
}

/* The object a method is called on (pipe of pipe.consumer_wait()). */
static CXCursor method_target(CXCursor call)
{
	struct kids ks = cv_kids_of(call);
	if (ks.n < 1 || clang_getCursorKind(ks.c[0]) != CXCursor_MemberRefExpr)
		return clang_getNullCursor();
	struct kids m = cv_kids_of(ks.c[0]);
	return m.n >= 1 ? m.c[0] : clang_getNullCursor();
}

static enum completion target_completion(struct fe *S, CXCursor call)
{
	CXCursor o = method_target(call);
	return clang_Cursor_isNull(o) ? C_OTHER : completion_of(S, o);
}

/* A copy's byte count: a constant, or the count an aligned_size_t was
 * made with (cuda::aligned_size_t<16>(sizeof(float4)), directly or
 * through a variable): the constant argument of the first one-argument
 * constructor inside it, following a variable to its initializer (twice
 * at most); -1 when that argument is not a constant. */
struct const_find {
	int64_t v;
	int hops;     /* variables followed to their initializers */
	bool decided; /* a constructor's argument was found (v, or -1) */
};

static enum CXChildVisitResult first_const(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	struct const_find *f = d;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_CallExpr && clang_Cursor_getNumArguments(c) == 1) {
		/* aligned_size_t's constructor: its argument, or nothing */
		CXCursor a = clang_Cursor_getArgument(c, 0);
		if (cv_type_is_integer(clang_getCursorType(a))) {
			if (!cv_try_eval_int(a, &f->v))
				f->v = -1;
			f->decided = true;
			return CXChildVisit_Break;
		}
	}
	if (k == CXCursor_DeclRefExpr && f->hops < 2) {
		CXCursor d2 = clang_getCursorReferenced(c);
		if (clang_getCursorKind(d2) == CXCursor_VarDecl) {
			f->hops++;
			clang_visitChildren(d2, first_const, f);
			return f->decided ? CXChildVisit_Break : CXChildVisit_Continue;
		}
	}
	return CXChildVisit_Recurse;
}

int64_t cv_async_copy_size(CXCursor arg)
{
	struct const_find f = { -1, 0, false };
	if (cv_try_eval_int(arg, &f.v))
		return f.v;
	f.v = -1;
	if (first_const(arg, clang_getNullCursor(), &f) != CXChildVisit_Break)
		clang_visitChildren(arg, first_const, &f);
	return f.v;
}

struct sm_expr *cv_conv_cuda_memcpy_async(struct fe *S, const struct cv_call *k)
{
	/* cuda::memcpy_async(dst, src, size, pipe | barrier); the
	 * cooperative forms (a group first) split the copy among the group
	 * in a way the library chooses: not modelled */
	enum CXTypeKind dk = clang_getCanonicalType(clang_getCursorType(k->args[0])).kind;
	if (k->nargs != 4 || (dk != CXType_Pointer && dk != CXType_ConstantArray))
		return NULL;
	enum completion how = completion_of(S, k->args[3]);
	int64_t size = cv_async_copy_size(k->args[2]);
	if (how == C_BLOCK_BARRIER)
		barrier_state(S, k->c, barrier_object(S, k->args[3]), SM_ACC_LOAD);
	bool bulk = size > 16 && size % 16 == 0 && size <= SM_FE_BULK_BYTES;
	if (how == C_OTHER || (size != 4 && size != 8 && size != 16 && !bulk))
		return NULL;
	/* a larger aligned size: one thread's copy of the whole range (a
	 * bulk copy on sm_90, a run of cp.async before) */
	issue(S, as_bulk(access_at(S, k->args[0], cv_conv_expr(S, k->args[0]), SM_ACC_STORE, (unsigned)size,
			   bulk ? "bulk copy (cuda::memcpy_async)" : "cp.async (cuda::memcpy_async)"), bulk));
	return NULL;
}

/* A fence.proxy.async statement at c (engine/proxy.c reads it). */
void cv_async_proxy_fence(struct fe *S, CXCursor c)
{
	struct sm_stmt *f = cv_mk_stmt(S, SM_S_OPAQUE_CALL, c);
	if (f) {
		f->proxy_fence = true;
		cv_emit(S, f);
	}
}

struct sm_expr *cv_conv_barrier_init(struct fe *S, const struct cv_call *k)
{
	/* init(&bar, count): the thread writes the barrier's state */
	if (k->nargs == 2)
		barrier_state(S, k->c, barrier_object(S, k->args[0]), SM_ACC_STORE);
	return NULL;
}

struct sm_expr *cv_conv_pipe_commit(struct fe *S, const struct cv_call *k)
{
	if (target_completion(S, k->c) == C_THREAD_PIPE)
		commit(S);
	return NULL;
}

struct sm_expr *cv_conv_pipe_wait(struct fe *S, const struct cv_call *k)
{
	if (target_completion(S, k->c) != C_THREAD_PIPE)
		return NULL;
	/* the oldest stage committed and not yet waited for */
	unsigned oldest = 0;
	for (unsigned i = 0; i < S->async.n; i++)
		if (S->async.copy[i].group && (!oldest || S->async.copy[i].group < oldest))
			oldest = S->async.copy[i].group;
	if (oldest)
		wait_prior(S, (int64_t)S->async.commits - oldest);
	return NULL;
}

struct sm_expr *cv_conv_pipe_wait_prior(struct fe *S, const struct cv_call *k)
{
	/* cuda::pipeline_consumer_wait_prior<N>(pipe): N is a template
	 * argument of the function called */
	if (k->nargs != 1 || completion_of(S, k->args[0]) != C_THREAD_PIPE)
		return NULL;
	CXCursor fn = clang_getCursorReferenced(k->c);
	long long n = clang_Cursor_getNumTemplateArguments(fn) >= 1 ? clang_Cursor_getTemplateArgumentValue(fn, 0) : -1;
	wait_prior(S, n >= 0 ? n : -1);
	return NULL;
}

void cv_async_unmodelled_call(struct fe *S, const struct cv_call *k)
{
	if (!S->async.n || !strcmp(k->name, "producer_acquire") || !strcmp(k->name, "consumer_release"))
		return;
	bool takes = target_completion(S, k->c) != C_OTHER;
	for (int i = 0; i < k->nargs && !takes; i++)
		takes = completion_of(S, k->args[i]) != C_OTHER;
	if (takes)
		wait_prior(S, -1);
}

/* The phase of a block cuda::barrier completing at k: the barrier's
 * state read, every copy counted on it complete, and the threads that
 * arrived ordered before those that wait, as a barrier of kind kind. */
static struct sm_expr *barrier_phase(struct fe *S, const struct cv_call *k, enum sm_barrier_kind kind)
{
	if (target_completion(S, k->c) != C_BLOCK_BARRIER)
		return NULL;
	barrier_state(S, k->c, barrier_object(S, method_target(k->c)), SM_ACC_LOAD);
	wait_prior(S, -1);
	struct sm_stmt *s = cv_mk_stmt(S, SM_S_BARRIER, k->c);
	if (s) {
		s->barrier = kind;
		s->scope = SM_SCOPE_BLOCK;
		cv_emit(S, s);
	}
	return NULL;
}

/* bar.arrive_and_wait(): every thread of the block arrives and waits, a
 * block barrier (one that threads skip is a divergent one) */
struct sm_expr *cv_conv_barrier_arrive_wait(struct fe *S, const struct cv_call *k)
{
	return barrier_phase(S, k, SM_BAR_CG_SYNC);
}

/* bar.wait(token) after a split bar.arrive(): the same ordering at the
 * wait, but a wait that only some threads make (a producer warp's, with
 * the barrier counting fewer threads) is no divergent barrier, as an
 * mbarrier's wait. What runs between a thread's arrive and its wait is
 * taken as before the barrier: a race there may be missed, none made up. */
struct sm_expr *cv_conv_barrier_wait(struct fe *S, const struct cv_call *k)
{
	if (target_completion(S, k->c) == C_BLOCK_BARRIER)
		return barrier_phase(S, k, SM_BAR_MBARRIER);
	/* another object's wait(...): an unknown call, its arguments
	 * converted for their accesses */
	for (int i = 0; i < k->nargs; i++)
		(void)cv_conv_expr(S, k->args[i]);
	cv_async_unmodelled_call(S, k);
	return cv_opaque(S, k->c, k->name, 1);
}

/* ---- library collectives ---- */

/* CUB's block collectives whose every algorithm exchanges through shared
 * memory with __syncthreads() inside (a block-wide result in each thread
 * needs one): the toolkit's code is not converted, so the call stands for
 * that barrier. BlockLoad and BlockStore are left out: their direct and
 * vectorized algorithms do not synchronize. */
static const char *const cub_syncing[] = { "cub::BlockScan<", "cub::BlockReduce<", "cub::BlockRadixSort<",
					   "cub::BlockExchange<", "cub::BlockHistogram<", "cub::BlockDiscontinuity<",
					   "cub::BlockAdjacentDifference<", "cub::BlockShuffle<", "cub::BlockRunLengthDecode<" };

bool cv_library_collective(struct fe *S, const struct cv_call *k)
{
	CXCursor o = method_target(k->c);
	if (clang_Cursor_isNull(o))
		return false;
	CXString s = clang_getTypeSpelling(clang_getCanonicalType(clang_getCursorType(o)));
	const char *t = clang_getCString(s);
	bool sync = false;
	for (size_t i = 0; t && !sync && i < sizeof(cub_syncing) / sizeof(cub_syncing[0]); i++) {
		const char *at = strstr(t, cub_syncing[i]);
		/* cub:: may carry an inline namespace (cub::CUB_300000_SM_900::) */
		sync = at != NULL || (!strncmp(t, "cub::", 5) && strstr(t, cub_syncing[i] + 5));
	}
	clang_disposeString(s);
	if (!sync)
		return false;
	struct sm_stmt *b = cv_mk_stmt(S, SM_S_BARRIER, k->c);
	if (b) {
		b->barrier = SM_BAR_CG_SYNC;
		b->scope = SM_SCOPE_BLOCK;
		cv_emit_barrier(S, b);
	}
	return true;
}

/* ---- TMA tensor copies ---- */

void cv_tensor_copy(struct fe *S, CXCursor c, struct sm_expr *ptr, enum sm_access_kind kind, CXCursor map)
{
	/* 16 bytes until the map is bound: a box moves at least that much
	 * (its inner extent is a multiple of 16 bytes), so a race on them is
	 * real; the rest of the box is not modelled */
	struct sm_access *a = cv_async_bulk_copy(S, c, ptr, kind, 16,
						 kind == SM_ACC_STORE ? "cp.async.bulk.tensor" : "cp.async.bulk.tensor store");
	if (!a)
		return;
	a->tensor = true;
	a->tmap_param = clang_Cursor_isNull(map) ? 0 : cv_kernel_param_of(S, map, S->call ? S->call->depth : 0);
	cv_vec_push(S->A, &S->ktensor, a);
}

/* ---- inline PTX ---- */

/* The instruction text of an asm statement: its string literals before
 * the first ':' joined (quotes dropped), in the arena; NULL if none. */
static char *asm_text(struct fe *S, const struct toks *t)
{
	size_t len = 0;
	unsigned i = 0;
	for (; i < t->n && strcmp(t->s[i], ":") && strcmp(t->s[i], "::"); i++)
		if (t->s[i][0] == '"')
			len += strlen(t->s[i]);
	char *out = len ? sm_arena_alloc(S->A, len + 1) : NULL;
	if (!out)
		return NULL;
	size_t o = 0;
	for (unsigned j = 0; j < i; j++) {
		const char *x = t->s[j];
		size_t n = strlen(x);
		if (x[0] != '"' || n < 2)
			continue;
		memcpy(out + o, x + 1, n - 2);
		o += n - 2;
	}
	out[o] = 0;
	return out;
}

/* The operand number of the first "[%N]" at or after p, or -1. */
static int mem_operand(const char *p)
{
	const char *b = p ? strstr(p, "[%") : NULL;
	if (!b)
		return -1;
	char *end;
	long n = strtol(b + 2, &end, 10);
	return end != b + 2 && *end == ']' && n >= 0 && n < 64 ? (int)n : -1;
}

/* The integer after `what` in text ("wait_group 1"), or a "%N" operand
 * clang can evaluate; -1 when neither. */
static int64_t asm_count(struct fe *S, CXCursor c, const char *text, const char *what)
{
	const char *p = strstr(text, what);
	if (!p)
		return -1;
	p += strlen(what);
	while (*p == ' ' || *p == '\t')
		p++;
	char *end;
	if (*p == '%') {
		long n = strtol(p + 1, &end, 10);
		unsigned nk;
		CXCursor **ks = cv_kids_all(S, c, &nk);
		int64_t v;
		return end != p + 1 && ks && n >= 0 && (unsigned)n < nk && cv_try_eval_int(*ks[n], &v) ? v : -1;
	}
	long long v = strtoll(p, &end, 10);
	return end != p ? v : -1;
}

/* Operand n of asm statement c, or a null cursor. */
static CXCursor operand_at(struct fe *S, CXCursor c, int n)
{
	unsigned nk;
	CXCursor **ks = cv_kids_all(S, c, &nk);
	return ks && n >= 0 && (unsigned)n < nk ? *ks[n] : clang_getNullCursor();
}

/* The pointer value of operand n of asm statement c, or NULL. */
static struct sm_expr *operand_ptr(struct fe *S, CXCursor c, int n)
{
	unsigned nk;
	CXCursor **ks = cv_kids_all(S, c, &nk);
	if (!ks || n < 0 || (unsigned)n >= nk)
		return NULL;
	return cv_conv_expr(S, *ks[n]);
}

/* Past the blanks, braces and labels ("WAIT:") before an instruction. */
static char *skip_to_instruction(char *p)
{
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '{' || *p == '}' ||
		       (p[0] == '\\' && (p[1] == 'n' || p[1] == 't')))
			p += p[0] == '\\' ? 2 : 1;
		char *q = p;
		/* a label made unique per inlined copy is written `L_%=` */
		while ((*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '_' ||
		       *q == '$' || (q[0] == '%' && q[1] == '='))
			q += q[0] == '%' ? 2 : 1;
		if (q == p || *q != ':')
			return p;
		p = q + 1;
	}
}

/* mbarrier.* in inline PTX, on an mbarrier word in shared memory: init
 * writes its state (8 bytes) and every other operation reads it, so a use
 * that no barrier orders after another thread's init is a race (as for a
 * cuda::barrier); try_wait and test_wait (in their retry loop) complete
 * every copy counted on it and order the block's threads: what arrived
 * before is visible after. That is exact when every thread arrives (an
 * init count of the block's threads); with fewer arriving it may hide a
 * race between threads that did not arrive, never make one up. */
void cv_async_mbarrier(struct fe *S, CXCursor c, struct sm_expr *ptr, bool init, bool wait)
{
	const char *op = init ? "mbarrier.init" : wait ? "mbarrier wait" : "mbarrier use";
	access_at(S, c, ptr, init ? SM_ACC_STORE : SM_ACC_LOAD, 8, op);
	if (!wait)
		return;
	wait_prior(S, -1);
	struct sm_stmt *s = cv_mk_stmt(S, SM_S_BARRIER, c);
	if (s) {
		s->barrier = SM_BAR_MBARRIER;
		s->scope = SM_SCOPE_BLOCK;
		cv_emit(S, s);
	}
}

bool cv_asm_async(struct fe *S, CXCursor c)
{
	struct toks t = cv_asm_tokens(S, c);
	char *text = asm_text(S, &t);
	if (!text)
		return false;
	bool any = false;
	/* one instruction a statement is the usual form; each is looked at */
	for (char *ins = text; ins && *ins; ins = strchr(ins, ';') ? strchr(ins, ';') + 1 : NULL) {
		ins = skip_to_instruction(ins);
		bool ld = !strncmp(ins, "ldmatrix", 8), st = !strncmp(ins, "stmatrix", 8);
		if (ld || st) {
			/* .shared or a generic address: either way shared memory
			 * (access_at keeps only an address it knows points there) */
			const char *x = strstr(ins, ".x");
			int lanes = x && x[2] == '1' ? 8 : x && x[2] == '2' ? 16 : SM_WARP;
			const char *op = lanes == 8 ? (ld ? "ldmatrix.x1" : "stmatrix.x1")
					 : lanes == 16 ? (ld ? "ldmatrix.x2" : "stmatrix.x2")
					 : ld ? "ldmatrix.x4" : "stmatrix.x4";
			/* not a warp barrier: .sync makes the lanes execute it
			 * together, but orders no memory (racecheck on the H100
			 * reports lanes' stores before an ldmatrix of each other's
			 * rows, and after it over them, with no __syncwarp(): see
			 * corpus/async_ldmatrix.cu) */
			access_by_lanes(S, c, operand_ptr(S, c, mem_operand(ins)), ld ? SM_ACC_LOAD : SM_ACC_STORE, 16, lanes, op);
			any = true;
		} else if (!strncmp(ins, "mbarrier.", 9)) {
			cv_async_mbarrier(S, c, operand_ptr(S, c, mem_operand(ins)), !strncmp(ins, "mbarrier.init", 13),
					  !strncmp(ins, "mbarrier.try_wait", 17) || !strncmp(ins, "mbarrier.test_wait", 18));
			any = true;
		} else if (!strncmp(ins, "cp.async.commit_group", 21)) {
			commit(S);
			any = true;
		} else if (!strncmp(ins, "cp.async.wait_group", 19)) {
			int64_t n = asm_count(S, c, ins, "cp.async.wait_group");
			wait_prior(S, n);
			any = true;
		} else if (!strncmp(ins, "cp.async.wait_all", 17)) {
			wait_prior(S, -1);
			any = true;
		} else if (!strncmp(ins, "cp.async.bulk.tensor.", 21)) {
			/* cp.async.bulk.tensor.Nd.shared::cluster.global[.tile]
			 * .mbarrier::complete_tx::bytes [dst], [map, {c, ...}],
			 * [mbar] (into shared memory) and cp.async.bulk.tensor.Nd
			 * .global.shared::cta[.tile].bulk_group [map, {c, ...}],
			 * [src] (out of it): the box the map describes */
			const char *d = ins + 21;
			while (*d >= '0' && *d <= '9')
				d++;
			d += *d == 'd' && d[1] == '.' ? 2 : 0;
			const char *first = strchr(ins, '['), *second = first ? strchr(first + 1, '[') : NULL;
			if (!strncmp(d, "shared", 6) && strstr(d, "mbarrier::complete_tx") && second)
				cv_tensor_copy(S, c, operand_ptr(S, c, mem_operand(ins)), SM_ACC_STORE,
					       operand_at(S, c, second[1] == '%' ? atoi(second + 2) : -1));
			else if (!strncmp(d, "global.shared", 13) && strstr(d, "bulk_group") && first && strchr(first, '}'))
				cv_tensor_copy(S, c, operand_ptr(S, c, mem_operand(strchr(first, '}'))), SM_ACC_LOAD,
					       operand_at(S, c, first[1] == '%' ? atoi(first + 2) : -1));
			any = true;
		} else if (!strncmp(ins, "cp.async.bulk.shared", 20) && strstr(ins, ".global") &&
			   strstr(ins, "mbarrier::complete_tx")) {
			/* cp.async.bulk.shared::cta|cluster.global.mbarrier::
			 * complete_tx::bytes [dst], [src], size, [mbar]: the
			 * issuing thread's copy of size bytes (a multiple of 16),
			 * complete at the mbarrier's wait */
			const char *sz = strchr(ins, ']');
			sz = sz ? strchr(sz + 1, ']') : NULL;
			sz = sz ? strchr(sz, ',') : NULL;
			int64_t n = sz ? asm_count(S, c, sz + 1, "") : -1;
			cv_async_bulk_copy(S, c, operand_ptr(S, c, mem_operand(ins)), SM_ACC_STORE, n,
						   "cp.async.bulk");
			any = true;
		} else if (!strncmp(ins, "cp.async.bulk.global.shared", 27) && strstr(ins, ".bulk_group")) {
			/* cp.async.bulk.global.shared::cta.bulk_group [dst],
			 * [src], size: the issuing thread's read of size bytes
			 * (the async proxy's), complete at the bulk wait_group
			 * (.read) that leaves fewer groups than were committed
			 * after it */
			const char *src = strchr(ins, ']');
			const char *sz = src ? strchr(src + 1, ']') : NULL;
			sz = sz ? strchr(sz, ',') : NULL;
			int64_t n = sz ? asm_count(S, c, sz + 1, "") : -1;
			cv_async_bulk_copy(S, c, operand_ptr(S, c, mem_operand(src + 1)), SM_ACC_LOAD, n,
						   "cp.async.bulk store");
			any = true;
		} else if (!strncmp(ins, "cp.async.bulk.commit_group", 26)) {
			commit_in(S, true);
			any = true;
		} else if (!strncmp(ins, "cp.async.bulk.wait_group", 24)) {
			/* .read completes the reads of shared memory, which is
			 * all that is modelled: either form */
			const char *w = strstr(ins, ".read") ? "cp.async.bulk.wait_group.read" : "cp.async.bulk.wait_group";
			wait_prior_in(S, asm_count(S, c, ins, w), true);
			any = true;
		} else if (!strncmp(ins, "fence.proxy.async", 17) && strncmp(ins, "fence.proxy.async.global", 24)) {
			/* the thread's generic-proxy accesses before it are seen
			 * by the async proxy after it (engine/proxy.c) */
			cv_async_proxy_fence(S, c);
			any = true;
		} else if (!strncmp(ins, "cp.async.c", 10) && strstr(ins, ".shared")) {
			/* cp.async.ca|cg.shared.global [dst], [src], N[, src-size] */
			const char *sz = strchr(ins, ']');
			sz = sz ? strchr(sz + 1, ']') : NULL;
			sz = sz ? strchr(sz, ',') : NULL;
			int64_t n = sz ? asm_count(S, c, sz + 1, "") : -1;
			const char *src = strchr(ins, ']');
			struct sm_access *a = n == 4 || n == 8 || n == 16
				? access_at(S, c, operand_ptr(S, c, mem_operand(ins)), SM_ACC_STORE, n, "cp.async") : NULL;
			if (a && src)
				a->gsrc = cv_global_offset(S, operand_at(S, c, mem_operand(src + 1)));
			issue(S, a);
			any = true;
		}
	}
	return any;
}
