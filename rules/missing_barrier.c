/* missing_barrier.c - rule `missing-barrier`.
 *
 * Models: two accesses to the same shared storage (one array, or any two
 * pointers into dynamic shared memory: every extern array aliases), at
 * least one a write and not both atomic, race when some path from the
 * first to the second passes no block barrier (loop back edges included,
 * so a tile reloaded at the top of the next iteration races with this
 * iteration's reads) and a thread writes bytes that a different thread
 * reads or writes (analyzer/threaddep.c). Overlap is decided exactly by
 * enumerating every thread of the block shapes the kernel is launched with
 * and the iterations of the loops involved (capped; a loop with an unknown
 * bound is tried for a few iterations). Reported only when a conflicting
 * pair of threads lies in different warps; when every conflicting pair
 * shares a warp the finding is `warp-sync`'s. One finding per line, on
 * the later access, with the other access in related[0] and a witness: the
 * two threads and the element they share. A thread touching only its own
 * elements, atomics against atomics, accesses whose address cannot be
 * computed and accesses ordered by a barrier are not reported.
 */
#include <string.h>

#include "smemlint/analyze.h"
#include "smemlint/rules.h"
#include "smemlint/threaddep.h"

static const char *kind_word(int k)
{
	return k == SM_ACC_LOAD ? "read" : k == SM_ACC_ATOMIC ? "atomic" : "write";
}

static const char *race_name(enum sm_race_kind k)
{
	return k == SM_RACE_RAW ? "read-after-write" : k == SM_RACE_WAR ? "write-after-read" : "write-after-write";
}

static bool report(const struct sm_rule_ctx *ctx, const struct sm_race_visit *v, struct sm_sink *sink)
{
	struct sm_arena *A = ctx->scratch;
	const struct sm_kernel_model *m = v->m;
	const struct sm_race *r = v->r;
	const struct sm_raccess *ra = &m->acc[r->a], *rb = &m->acc[r->b];
	struct sm_dim3 bl = v->block;
	bool assumed = v->assumed;
	const char *ta = sm_thread_name(r->tid_a, bl, A), *tb = sm_thread_name(r->tid_b, bl, A);
	const char *elem = sm_element_name(rb->array, rb->array->name, r->addr, A);
	const char *name = rb->name ? rb->name : rb->array->name;
	unsigned la = ra->src->range.begin.line;
	const char *when = r->cross_iter ? " in the previous iteration" : "";
	const char *story;
	if (r->kind == SM_RACE_RAW)
		story = sm_arena_printf(A, "%s reads %s, which %s wrote at line %u%s", tb, elem, ta, la, when);
	else if (r->kind == SM_RACE_WAR)
		story = sm_arena_printf(A, "%s overwrites %s, which %s read at line %u%s", tb, elem, ta, la, when);
	else
		story = sm_arena_printf(A, "%s writes %s, which %s wrote at line %u%s", tb, elem, ta, la, when);
	struct sm_diag g;
	memset(&g, 0, sizeof(g));
	g.rule = SM_RULE_MISSING_BARRIER;
	g.range = rb->src->range;
	g.kernel = m->kernel->name;
	g.array = name;
	g.access = rb->src->kind;
	g.block = bl;
	g.block_assumed = assumed;
	g.width = rb->width;
	g.message = sm_arena_printf(A, "missing barrier: %s race on '%s': %s, with no __syncthreads() in between (different warps) in kernel '%s' with blockDim (%lld,%lld,%lld)%s%s",
				    race_name(r->kind), name, story, m->kernel->name, (long long)bl.x,
				    (long long)bl.y, (long long)bl.z,
				    assumed ? " (assumed: no launch site, __launch_bounds__ or --block-dim gives it)" : "",
				    r->truncated ? " (search capped)" : "");
	g.note = r->cross_iter ? "add __syncthreads() at the end of the loop body, before the next iteration overwrites what this one reads"
			       : "add __syncthreads() between the two accesses";
	g.related[0].range = ra->src->range;
	g.related[0].message = sm_arena_printf(A, "the racing %s of '%s' by %s", kind_word(ra->src->kind),
					       ra->name ? ra->name : ra->array->name, ta);
	g.related[1].range = rb->array->decl;
	g.related[1].message = sm_arena_printf(A, "'%s' declared here", rb->array->name);
	g.nrelated = 2;
	sm_sink_report(sink, &g);
	return true;
}

void sm_rule_missing_barrier(const struct sm_rule_ctx *ctx, struct sm_sink *sink)
{
	sm_rule_each_race(ctx, true, report, sink);
}
