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
 * (analyzer/engine/races.c). One finding per line, on the later access (the
 * classic unrolled last-warp reduction gets one per line whose read sees
 * another lane's earlier write), with the other access in related[0].
 * A path that passes only barriers not ordering the two lanes (a 16-thread
 * tile's sync between lanes 0 and 16, a __syncwarp mask without one of
 * them) is named in the message, as in missing-barrier.
 */
#include "rules/explain.h"
#include "rules/messages.h"
#include "rules/race_rule.h"

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
	const struct sm_race *r = v->r;
	const struct sm_raccess *ra = &v->m->acc[r->a];
	/* a pair that also races across warps is missing-barrier's */
	for (unsigned j = 0; j < v->nall; j++)
		if (v->all[j].inter_warp && !v->all[j].same_value && v->all[j].b == r->b)
			return false;
	struct sm_dim3 bl = v->block;
	bool same = r->a == r->b && !r->cross_iter;
	const char *unord = same ? NULL : sm_race_unordered_text(ctx, v, "lanes", "a race under independent thread scheduling, volatile or not");
	struct sm_race_words w = {
		.rule = SM_RULE_WARP_SYNC,
		.later = sm_arena_printf(A, "lane %d of warp %d", lane_of(r->tid_b, bl), warp_of(r->tid_b, bl)),
		.earlier = sm_arena_printf(A, "lane %d", lane_of(r->tid_a, bl)),
		.headline = sm_arena_printf(A, "unsynchronized warp exchange on '%s'", sm_race_array_name(v)),
		.tail = sm_arena_printf(A, "%s %s %s",
					same ? ", lanes of one warp in one statement (which lane's write lands is undefined)"
					: unord ? sm_arena_printf(A, ", %s", unord)
					: ", with no __syncwarp() in between (a race under independent thread scheduling, volatile or not)",
					sm_where_text(A, v->m->kernel->name, v->m->acc[v->r->b].src->call), sm_race_launch_text(ctx, v)),
		.note = same ? "let one lane write it, or give each lane its own element"
		      : unord ? "order the two lanes with a barrier whose scope holds both (__syncwarp() with both lanes in its mask)"
							  : "add __syncwarp() between the write and the access that depends on it",
		.related = sm_arena_printf(A, "the other lane's %s of '%s'", ra->src->kind == SM_ACC_LOAD ? "read" : "write",
					   ra->name ? ra->name : ra->array->name),
	};
	sm_race_report(ctx, v, &w, sink);
	return true;
}

void sm_rule_warp_sync(const struct sm_rule_ctx *ctx, struct sm_sink *sink)
{
	sm_rule_each_race(ctx, false, report, sink);
}

/* What --explain, SARIF and doc/rules.md say about this rule. */
const struct sm_rule_doc sm_doc_warp_sync = {
	"WarpSync",
	"Since Volta the lanes of a warp are scheduled independently, so lanes of one warp that exchange "
	"data through shared memory need __syncwarp() (or a block barrier) between the write and the "
	"read, whether or not the memory is volatile. Under an assumed block shape, a race that does not hold "
	"for every shape the kernel admits is reported at the level 'assumed'.",
	"if (tid < 32) {\n"
	"    sdata[tid] += sdata[tid + 16];\n"
	"    sdata[tid] += sdata[tid + 8];   // reads lane tid+8's write: no __syncwarp()\n"
	"}\n",
	"Insert __syncwarp() between the dependent steps, or use warp shuffles (__shfl_down_sync) "
	"instead of shared memory for the exchange.",
};
