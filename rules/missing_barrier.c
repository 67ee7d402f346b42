/* missing_barrier.c - rule `missing-barrier`.
 *
 * Models: two accesses to the same shared storage (one array, or any two
 * pointers into dynamic shared memory: every extern array aliases), at
 * least one a write and not both atomic, race when some path from the
 * first to the second passes no block barrier (loop back edges included,
 * so a tile reloaded at the top of the next iteration races with this
 * iteration's reads) and a thread writes bytes that a different thread
 * reads or writes (analyzer/engine/races.c). Overlap is decided exactly by
 * enumerating every thread of the block shapes the kernel is launched with
 * and the iterations of the loops involved (capped; a loop with an unknown
 * bound is tried for a few iterations). Reported only when a conflicting
 * pair of threads lies in different warps; when every conflicting pair
 * shares a warp the finding is `warp-sync`'s. One finding per line, on
 * the later access, with the other access in related[0] and a witness: the
 * two threads and the element they share. A thread touching only its own
 * elements, atomics against atomics, accesses whose address cannot be
 * computed and accesses ordered by a barrier are not reported.
 * One store is also paired with itself: two threads of different warps
 * running `s[0] = threadIdx.x` (a scalar, a loop every thread runs, a
 * modulo that folds two warps onto one element) write the same bytes at
 * once, and no barrier can order them. Two writes of one constant by
 * every thread are left to `same-value-write` (a note).
 * A thread reading bytes its own asynchronous copy may still be writing
 * (no wait has completed the copy's group: engine/async_wait.c) is
 * reported here too, as a missing wait, with that thread as both ends.
 * Two blocks of a cluster (engine/dsmem.c): an access through the pointer
 * map_shared_rank returns and the other block's access of the same bytes
 * with no cluster barrier between, or a remote access the kernel can end
 * after with no cluster barrier ("missing cluster barrier").
 * When every barrier-free path passes a barrier of a smaller scope (a
 * tile's sync, __syncwarp, bar.sync with a count) that does not order the
 * two threads, the message names it ("with no barrier ordering both
 * threads in between ('tile.sync()' at line 26 orders only a 32-thread
 * tile ...)"); with no barrier at all on some path it says "no
 * __syncthreads() in between".
 */
#include "rules/explain.h"
#include "rules/messages.h"
#include "rules/race_rule.h"

#include <string.h>

static const char *kind_word(int k)
{
	return k == SM_ACC_LOAD ? "read" : k == SM_ACC_ATOMIC ? "atomic" : "write";
}

static const char *race_name(enum sm_race_kind k)
{
	return k == SM_RACE_RAW ? "read-after-write" : k == SM_RACE_WAR ? "write-after-read" : "write-after-write";
}

/* Two blocks of a cluster (engine/dsmem.c): a's and b's threads are in
 * different blocks, one of the accesses through map_shared_rank; or a
 * remote access the kernel can end after with no cluster barrier. */
/* What the cluster and proxy reports name: the two accesses, their
 * threads, the array and the element the later one touches. */
struct pair_words {
	const struct sm_raccess *ra, *rb; /* the earlier and the later access */
	const char *ta, *tb;              /* their threads */
	const char *name;                 /* the array as the race names it */
	const char *elem;                 /* rb's element, "tile[3]" */
};

static struct pair_words pair_words(const struct sm_rule_ctx *ctx, const struct sm_race_visit *v)
{
	struct sm_arena *A = ctx->scratch;
	const struct sm_race *r = v->r;
	struct pair_words p = { &v->m->acc[r->a], &v->m->acc[r->b], sm_thread_name(r->tid_a, v->block, A),
				sm_thread_name(r->tid_b, v->block, A), sm_race_array_name(v), NULL };
	p.elem = sm_element_name(p.rb->array, p.rb->array->name, r->addr, A);
	return p;
}

static void remote_report(const struct sm_rule_ctx *ctx, const struct sm_race_visit *v, struct sm_sink *sink)
{
	struct sm_arena *A = ctx->scratch;
	const struct sm_race *r = v->r;
	struct pair_words p = pair_words(ctx, v);
	const struct sm_raccess *ra = p.ra, *rb = p.rb;
	const char *ta = p.ta, *tb = p.tb, *name = p.name, *elem = p.elem;
	const char *where = sm_arena_printf(A, " %s %s", sm_where_text(A, v->m->kernel->name, rb->src->call),
					    sm_race_launch_text(ctx, v));
	const char *verb = rb->src->kind == SM_ACC_LOAD ? "reads" : "writes";
	const char *when = r->cross_iter ? " in the previous iteration" : "";
	struct sm_race_words w = { .rule = SM_RULE_MISSING_BARRIER, .later = tb, .earlier = ta };
	if (r->remote_exit) {
		w.headline = sm_arena_printf(A, "missing cluster barrier: the block whose '%s' this %s may have exited", name,
					     rb->src->kind == SM_ACC_LOAD ? "reads" : "writes");
		w.story = sm_arena_printf(A, "%s %s %s of another block of the cluster (through map_shared_rank), and the "
					     "kernel can end after it with no cluster barrier, so that block may have exited "
					     "and its shared memory be gone", tb, verb, elem);
		w.tail = where;
		w.note = "add cluster.sync() after the last access to another block's shared memory, before the kernel returns";
		w.related = sm_arena_printf(A, "the access to another block's '%s'", name);
	} else {
		w.headline = sm_arena_printf(A, "missing cluster barrier: %s race on '%s' between two blocks of a cluster",
					     race_name(r->kind), name);
		w.story = rb->src->remote
			? sm_arena_printf(A, "%s of one block %s %s of another block (through map_shared_rank), which that "
					     "block's %s %s at line %u%s", tb, verb, elem, ta,
					  ra->src->kind == SM_ACC_LOAD ? "read" : "wrote", ra->src->range.begin.line, when)
			: sm_arena_printf(A, "%s of one block %s %s, which %s of another block %s there through "
					     "map_shared_rank at line %u%s", tb, verb, elem, ta,
					  ra->src->kind == SM_ACC_LOAD ? "read" : "wrote", ra->src->range.begin.line, when);
		w.tail = sm_arena_printf(A, ", with no cluster barrier in between (__syncthreads() orders one block only)%s",
					 where);
		w.note = "put cluster.sync() (or barrier.cluster.arrive and barrier.cluster.wait) between the two "
			 "accesses: only a cluster barrier orders the blocks of a cluster";
		w.related = sm_arena_printf(A, "the racing %s of '%s' by %s of %s block", kind_word(ra->src->kind),
					    ra->name ? ra->name : ra->array->name, ta, ra->src->remote ? "one" : "another");
	}
	sm_race_report(ctx, v, &w, sink);
}

/* A generic-proxy write that a bulk copy out of shared memory reads with
 * no fence.proxy.async between (engine/proxy.c). */
static void proxy_report(const struct sm_rule_ctx *ctx, const struct sm_race_visit *v, struct sm_sink *sink)
{
	struct sm_arena *A = ctx->scratch;
	const struct sm_race *r = v->r;
	struct pair_words p = pair_words(ctx, v);
	const struct sm_raccess *ra = p.ra, *rb = p.rb;
	const char *ta = p.ta, *tb = p.tb;
	struct sm_race_words w = {
		.rule = SM_RULE_MISSING_BARRIER,
		.later = tb,
		.earlier = ta,
		.headline = sm_arena_printf(A, "missing proxy fence: bulk copy out of '%s' may read stale bytes", p.name),
		.story = sm_arena_printf(A, "the bulk copy (cp.async.bulk) %s issues reads %s, which %s wrote at line %u%s "
					    "through the generic proxy",
					 tb, p.elem, ta, ra->src->range.begin.line, r->cross_iter ? " in the previous iteration" : ""),
		.tail = sm_arena_printf(A, ", with no fence.proxy.async between the write and the copy (a __syncthreads() "
					   "orders the threads, not the generic and async proxies) %s %s",
					sm_where_text(A, v->m->kernel->name, rb->src->call), sm_race_launch_text(ctx, v)),
		.note = "after the writes, before the __syncthreads() that hands the tile to the issuing thread: "
			"asm volatile(\"fence.proxy.async.shared::cta;\") (cuda::ptx::fence_proxy_async(cuda::ptx::space_shared))",
		.related = sm_arena_printf(A, "the generic-proxy write of '%s' by %s", ra->name ? ra->name : ra->array->name, ta),
	};
	sm_race_report(ctx, v, &w, sink);
}

static bool report(const struct sm_rule_ctx *ctx, const struct sm_race_visit *v, struct sm_sink *sink)
{
	struct sm_arena *A = ctx->scratch;
	const struct sm_race *r = v->r;
	const struct sm_raccess *ra = &v->m->acc[r->a];
	struct sm_dim3 bl = v->block;
	const char *ta = sm_thread_name(r->tid_a, bl, A);
	const char *name = sm_race_array_name(v);
	bool same = r->a == r->b && !r->cross_iter;
	const char *unord = sm_race_unordered_text(ctx, v, "threads", "different warps");
	/* a copy in flight past a barrier: the wait is what is missing; a
	 * bulk copy out of shared memory (a read) waits at its bulk group */
	bool flight = ra->src->in_flight || v->m->acc[r->b].src->in_flight;
	bool out = sm_access_is_bulk_out(ra->src) || sm_access_is_bulk_out(v->m->acc[r->b].src);
	/* a cuda::barrier or PTX mbarrier used before another thread's init
	 * of it is seen */
	bool mbar = ra->src->op && !strcmp(ra->src->op, "mbarrier.init");
	bool uninit = mbar || (ra->src->op && !strcmp(ra->src->op, "cuda::barrier init"));
	if (r->remote || r->remote_exit) {
		remote_report(ctx, v, sink);
		return true;
	}
	if (r->proxy) {
		proxy_report(ctx, v, sink);
		return true;
	}
	if (r->own_copy && out) {
		struct sm_race_words o = {
			.rule = SM_RULE_MISSING_BARRIER,
			.later = ta,
			.earlier = ta,
			.headline = sm_arena_printf(A, "missing wait: write of '%s' before its bulk copy out of shared memory "
						       "has read it", name),
			.story = sm_arena_printf(A, "%s overwrites %s, which its own bulk copy (cp.async.bulk) at line %u%s may "
						    "still be reading", ta,
						 sm_element_name(v->m->acc[r->b].array, name, r->addr, A),
						 ra->src->range.begin.line, r->cross_iter ? " in the previous iteration" : ""),
			.tail = sm_arena_printf(A, ": no cp.async.bulk.wait_group.read completes the copy's bulk group before the "
						   "write %s %s",
						sm_where_text(A, v->m->kernel->name, v->m->acc[r->b].src->call),
						sm_race_launch_text(ctx, v)),
			.note = "wait for the copy's bulk group (cp.async.bulk.wait_group.read N, N no larger than the bulk groups "
				"committed after it) before writing its bytes",
			.related = sm_arena_printf(A, "the bulk copy out of '%s' by %s", ra->name ? ra->name : ra->array->name, ta),
		};
		sm_race_report(ctx, v, &o, sink);
		return true;
	}
	if (r->own_copy) {
		struct sm_race_words o = {
			.rule = SM_RULE_MISSING_BARRIER,
			.later = ta,
			.earlier = ta,
			.headline = sm_arena_printf(A, "missing wait: read of '%s' before its asynchronous copy completes", name),
			.tail = sm_arena_printf(A, ": no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, "
						   "arrive_and_wait, an mbarrier's try_wait) completes the copy's group before the read %s %s",
						sm_where_text(A, v->m->kernel->name, v->m->acc[r->b].src->call),
						sm_race_launch_text(ctx, v)),
			.note = "wait for the copy's group before reading its bytes (__pipeline_wait_prior(N) or "
				"cp.async.wait_group N with N no larger than the groups committed after it, pipe.consumer_wait())",
			.related = sm_arena_printf(A, "the asynchronous copy into '%s' by %s", ra->name ? ra->name : ra->array->name,
						   ta),
		};
		sm_race_report(ctx, v, &o, sink);
		return true;
	}
	struct sm_race_words w = {
		.rule = SM_RULE_MISSING_BARRIER,
		.later = sm_thread_name(r->tid_b, bl, A),
		.earlier = ta,
		.headline = uninit ? sm_arena_printf(A, "missing barrier: %s '%s' used before its initialization is "
						       "visible: %s race", mbar ? "mbarrier" : "cuda::barrier", name,
						       race_name(r->kind))
				   : sm_arena_printf(A, "missing barrier: %s race on '%s'", race_name(r->kind), name),
		.tail = sm_arena_printf(A, "%s %s %s%s",
					same ? ", threads of different warps at once (no barrier orders one statement's executions)"
					: flight && out ? ", while that bulk copy out of shared memory may still be reading it: no "
							  "cp.async.bulk.wait_group.read by its thread completes it before the "
							  "__syncthreads() between (different warps)"
					: flight ? ", while that asynchronous copy may still be in flight: no wait (__pipeline_wait_prior, "
						   "cp.async.wait_group, consumer_wait, arrive_and_wait, an mbarrier's try_wait) completes it before the "
						   "__syncthreads() between (different warps)"
					: unord ? sm_arena_printf(A, ", %s", unord)
					     : ", with no __syncthreads() in between (different warps)",
					sm_where_text(A, v->m->kernel->name, v->m->acc[r->b].src->call), sm_race_launch_text(ctx, v),
					r->truncated ? " (search capped)" : ""),
		.note = mbar ? "__syncthreads() after mbarrier.init (with fence.mbarrier_init for the async proxy), before any "
			       "thread uses the mbarrier"
		      : uninit ? "__syncthreads() (or block.sync()) after init(&bar, count), before any thread uses the barrier"
		      : flight && out ? "let the issuing thread wait for its bulk group (cp.async.bulk.wait_group.read 0) before "
					"the __syncthreads() after which the buffer is written again"
		      : flight ? "wait for the copy (__pipeline_wait_prior(0), cp.async.wait_group 0, pipe.consumer_wait() or "
				 "bar.arrive_and_wait()) before the __syncthreads() that publishes it"
		      : same ? "let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element"
		      : unord ? "order the two threads with a barrier whose scope holds both (__syncthreads() for threads of different tiles or warps)"
		      : r->cross_iter ? "add __syncthreads() at the end of the loop body, before the next iteration overwrites what this one reads"
				      : "add __syncthreads() between the two accesses",
		.related = sm_arena_printf(A, "the racing %s of '%s' by %s", kind_word(ra->src->kind),
					   ra->name ? ra->name : ra->array->name, ta),
	};
	sm_race_report(ctx, v, &w, sink);
	return true;
}

void sm_rule_missing_barrier(const struct sm_rule_ctx *ctx, struct sm_sink *sink)
{
	sm_rule_each_race(ctx, true, report, sink);
}

/* What --explain, SARIF and doc/rules.md say about this rule. */
const struct sm_rule_doc sm_doc_missing_barrier = {
	"MissingBarrier",
	"Two accesses to the same shared memory, at least one a write, are not separated by a block "
	"barrier, and a thread writes bytes that a thread of another warp reads or writes: a data race. "
	"The finding names both accesses, the two threads and the element they share. A write under a "
	"condition that reads shared memory is assumed to happen, unless the condition tests one element "
	"in ways no value satisfies for that thread (b[y][x] == 0 && b[y][k] != 0 when k == x), in one "
	"condition or in nested ifs with nothing written between them: the transitive-closure step, where "
	"only the owner writes its element and never while others read it. "
	"When no launch, __launch_bounds__ or --block-dim gives the block shape, a race found under the assumed "
	"shape that does not hold for every shape the kernel admits is reported at the level 'assumed' "
	"(not counted by the default --fail-on). An asynchronous copy (cp.async, __pipeline_memcpy_async, a "
	"bulk copy) lands at any time up to the wait that completes it (__pipeline_wait_prior, "
	"cp.async.wait_group, cp.async.wait_all, an mbarrier's try_wait): a __syncthreads() before that wait does "
	"not publish it, "
	"and a read of the copied element by another warp after such a barrier is reported as this race. "
	"A thread's read of the bytes its own copy may still be writing (no wait has completed the copy's group, "
	"issued in this iteration or, still in flight at the end of the loop body, in the previous one) "
	"is reported as a missing wait. Another block's shared memory (cluster.map_shared_rank) is ordered with "
	"that block's threads only by a cluster barrier (cluster.sync()): a remote access and the other block's "
	"access of the same bytes with no cluster barrier between race, and a remote access with no cluster "
	"barrier after it before the kernel ends may touch a block that has exited.",
	"buf[threadIdx.x] = in[i];\n"
	"// missing __syncthreads()\n"
	"out[i] = buf[blockDim.x - 1 - threadIdx.x];  // reads another warp's write\n",
	"Put __syncthreads() between the write and the read (and before the buffer is overwritten in the "
	"next loop iteration).",
};
