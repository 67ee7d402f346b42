/* warp_sync.c - rule `warp-sync`.
 *
 * Models: since Volta, lanes of one warp are scheduled independently, so
 * an exchange between lanes of a warp through shared memory needs
 * __syncwarp() (or a block barrier) between the write and the access that
 * sees it, volatile or not. A pair of accesses to the same shared storage,
 * at least one a write, is reported when some path between them passes
 * neither a block barrier nor __syncwarp() and the only threads that touch
 * the same bytes are different lanes of one warp (when some conflicting
 * pair is in different warps the finding is `missing-barrier`'s). Decided
 * by enumerating the block's threads and the loop iterations involved
 * (analyzer/threaddep.c). One finding per line, on the later access (the
 * classic unrolled last-warp reduction gets one per line whose read sees
 * another lane's earlier write), with the other access in related[0].
 */
#include <string.h>

#include "smemlint/analyze.h"
#include "smemlint/rules.h"
#include "smemlint/threaddep.h"

static int lane_of(const int64_t t[3], struct sm_dim3 b)
{
	int64_t lin = t[0] + t[1] * b.x + t[2] * b.x * b.y;
	return (int)(lin % SM_WARP);
}

static int warp_of(const int64_t t[3], struct sm_dim3 b)
{
	int64_t lin = t[0] + t[1] * b.x + t[2] * b.x * b.y;
	return (int)(lin / SM_WARP);
}

static bool report(const struct sm_rule_ctx *ctx, const struct sm_race_visit *v, struct sm_sink *sink)
{
	struct sm_arena *A = ctx->scratch;
	const struct sm_kernel_model *m = v->m;
	const struct sm_race *r = v->r;
	const struct sm_raccess *ra = &m->acc[r->a], *rb = &m->acc[r->b];
	/* a pair that also races across warps is missing-barrier's */
	for (unsigned j = 0; j < v->nall; j++)
		if (v->all[j].inter_warp && v->all[j].b == r->b)
			return false;
	struct sm_dim3 bl = v->block;
	bool assumed = v->assumed;
	const char *elem = sm_element_name(rb->array, rb->array->name, r->addr, A);
	const char *name = rb->name ? rb->name : rb->array->name;
	unsigned la = ra->src->range.begin.line;
	int lb_ = lane_of(r->tid_b, bl), la_ = lane_of(r->tid_a, bl), w = warp_of(r->tid_b, bl);
	const char *when = r->cross_iter ? " in the previous iteration" : "";
	const char *story;
	if (r->kind == SM_RACE_RAW)
		story = sm_arena_printf(A, "lane %d of warp %d reads %s, which lane %d wrote at line %u%s", lb_, w, elem, la_, la, when);
	else if (r->kind == SM_RACE_WAR)
		story = sm_arena_printf(A, "lane %d of warp %d overwrites %s, which lane %d read at line %u%s", lb_, w, elem, la_, la, when);
	else
		story = sm_arena_printf(A, "lane %d of warp %d writes %s, which lane %d wrote at line %u%s", lb_, w, elem, la_, la, when);
	struct sm_diag g;
	memset(&g, 0, sizeof(g));
	g.rule = SM_RULE_WARP_SYNC;
	g.range = rb->src->range;
	g.kernel = m->kernel->name;
	g.array = name;
	g.access = rb->src->kind;
	g.block = bl;
	g.block_assumed = assumed;
	g.width = rb->width;
	g.message = sm_arena_printf(A, "unsynchronized warp exchange on '%s': %s, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel '%s' with blockDim (%lld,%lld,%lld)%s",
				    name, story, m->kernel->name, (long long)bl.x, (long long)bl.y,
				    (long long)bl.z,
				    assumed ? " (assumed: no launch site, __launch_bounds__ or --block-dim gives it)" : "");
	g.note = "add __syncwarp() between the write and the access that depends on it";
	g.related[0].range = ra->src->range;
	g.related[0].message = sm_arena_printf(A, "the other lane's %s of '%s'",
					       ra->src->kind == SM_ACC_LOAD ? "read" : "write",
					       ra->name ? ra->name : ra->array->name);
	g.related[1].range = rb->array->decl;
	g.related[1].message = sm_arena_printf(A, "'%s' declared here", rb->array->name);
	g.nrelated = 2;
	sm_sink_report(sink, &g);
	return true;
}

void sm_rule_warp_sync(const struct sm_rule_ctx *ctx, struct sm_sink *sink)
{
	sm_rule_each_race(ctx, false, report, sink);
}
