/* divergent_barrier.c - rule `divergent-barrier`.
 *
 * Models: CUDA requires every thread of the block to reach each block
 * barrier (__syncthreads(), its _count/_and/_or forms, a cooperative_groups
 * thread_block or grid_group sync() and inline `bar.sync`), and every
 * thread of a smaller scope to reach a barrier of that scope: a
 * thread_block_tile<N>'s sync() (each tile of N threads), __syncwarp(mask)
 * (the mask's lanes of a warp), `bar.sync id, count` (taken as the first
 * count threads). A block barrier is reported when it runs under a
 * thread-dependent if, switch, ?:, && or ||, in a loop whose trip count
 * is thread dependent (its condition, or a thread-dependent break/return
 * in it), or after a thread-dependent return/break/continue/goto (analyzer/engine/divergence.c). Thread dependence is
 * judged on the condition's value at its program point, with variables
 * substituted by the resolver: threadIdx, the lane id, loads through
 * thread-dependent addresses, atomics' results and clock() are thread
 * dependent; blockIdx, blockDim, gridDim, parameters, constants and the
 * results of __syncthreads_count/_and/_or are uniform. The message quotes
 * the condition and gives its location as related[0]. A uniform condition
 * (blockIdx.x == 0) is never reported, nor is a thread-dependent if or
 * switch condition, or loop trip count, that the threads of each block
 * agree on at every launch (each launch fixes the block shape, and the grid
 * when the condition reads blockIdx, and the condition has no unknown left:
 * `tid < 4` under <<<1, 4>>>, `if (id > len) return;` under <<<255, 256>>>
 * with len = 65536). When a launch decides it diverges, the message names
 * that launch ("at the launch on line 40"). One finding per cause: the first
 * barrier a condition or an early exit makes divergent is the finding, and
 * every later one it affects is a related location (text notes, SARIF
 * relatedLocations), counted in the message. A barrier of a smaller scope
 * is reported only where the cause splits one of its groups (the engine
 * evaluates the condition for each thread of the block shapes), and the
 * message names the scope: `if (warp_id == 0) tile.sync();` is clean, a
 * 32-thread tile's sync under `threadIdx.x < 16` is not; a coalesced
 * group's sync() never is.
 * That per-thread judgement depends on the block shape: when nothing gives
 * the kernel's shape (it is assumed), such a finding keeps the rule's
 * level only when the same barrier diverges under the same condition for
 * every other shape the kernel admits (engine/launch.c); else it is
 * reported at the level `assumed`, naming a shape it does not diverge
 * for. A block barrier's verdict does not depend on the shape there (the
 * condition alone decides).
 */
#include <string.h>

#include "rules/explain.h"
#include "rules/rules.h"
#include "rules/messages.h"


/* The source text of r, in whichever converted file it lies. */
static const char *range_text(const struct sm_file *F, struct sm_range r, struct sm_arena *A, size_t max)
{
	size_t len;
	const char *t = sm_file_text(F, r.file, &len);
	return t ? sm_source_text(t, len, r, A, max) : NULL;
}

static const char *jump_name(const struct sm_stmt *s)
{
	if (!s)
		return "jump";
	switch (s->kind) {
	case SM_S_RETURN: return "return";
	case SM_S_BREAK: return "break";
	case SM_S_CONTINUE: return "continue";
	case SM_S_GOTO:
	case SM_S_BLOCK: case SM_S_DECL: case SM_S_ASSIGN: case SM_S_IF: case SM_S_LOOP: case SM_S_SWITCH:
	case SM_S_BARRIER: case SM_S_ACCESS: case SM_S_OPAQUE_CALL: case SM_S_CALL:
		break; /* goto; the others are never a cause's jump */
	}
	return "goto";
}

/* Do two divergent barriers have one cause (the same condition, and for
 * an early exit the same jump)? */
static bool same_cause(const struct sm_divergence *x, const struct sm_divergence *y)
{
	return x->kind == y->kind && x->cond == y->cond && x->jump == y->jump;
}

/* The scope of barrier b, as the message names it ("" for the block). */
static const char *scope_text(struct sm_arena *A, const struct sm_stmt *b)
{
	switch (b->scope) {
	case SM_SCOPE_GRID:
		return " (a grid barrier: every thread of the grid must reach it)";
	case SM_SCOPE_TILE:
		if (b->scope_arg <= 0)
			return " (a tile of unknown size, judged as the whole block)";
		return sm_arena_printf(A, " (a %lld-thread tile)", (long long)b->scope_arg);
	case SM_SCOPE_LANES:
		return sm_arena_printf(A, " (the lanes of mask 0x%08llx in a warp)",
				       (unsigned long long)((uint64_t)b->scope_arg & 0xffffffffu));
	case SM_SCOPE_COUNT:
		return sm_arena_printf(A, " (the first %lld threads, its thread count)", (long long)b->scope_arg);
	case SM_SCOPE_BLOCK:
	case SM_SCOPE_ACTIVE:
		break;
	}
	return "";
}

/* Does barrier finding d, made under f's assumed shape, hold under every
 * other shape the kernel admits (the same barrier diverging by the same
 * cause)? */
static void divergence_hold(struct sm_kernel_facts *f, const struct sm_divergence *d, struct sm_launch_from *h)
{
	const struct sm_kernel_launches *K = &f->launch;
	sm_launch_from_hold_all(h, K, true);
	bool unknown = false;
	for (int i = 0; i < K->nother; i++) {
		const struct sm_divergence *o;
		int n = sm_kernel_facts_divergence_other(f, i, &o);
		bool found = false;
		for (int j = 0; j < n && !found; j++)
			found = o[j].barrier == d->barrier && same_cause(&o[j], d);
		if (found)
			continue;
		if (n < 0) {
			unknown = true;
			continue;
		}
		sm_launch_from_not_for(h, K->other[i]);
		return;
	}
	if (unknown)
		h->hold = SM_HOLD_UNKNOWN;
}

static struct sm_range cond_range(const struct sm_stmt *s)
{
	if (s->cond && s->cond->range.begin.line)
		return s->cond->range;
	return s->range;
}

void sm_rule_divergent_barrier(const struct sm_rule_ctx *ctx, struct sm_sink *sink)
{
	struct sm_arena *A = ctx->scratch;
	const struct sm_file *F = ctx->file;
	for (unsigned k = 0; k < F->nkernels; k++) {
		struct sm_kernel_facts *f = &ctx->facts[k];
		const struct sm_kernel_model *m = &f->model;
		if (!m->kernel)
			continue;
		const struct sm_divergence *dv;
		int n = sm_kernel_facts_divergence(f, &dv);
		for (int i = 0; i < n; i++) {
			const struct sm_divergence *d = &dv[i];
			/* one finding per cause: the first barrier it reaches; the
			 * others follow as related locations */
			bool seen = false;
			for (int j = 0; j < i && !seen; j++)
				seen = same_cause(&dv[j], d);
			if (seen)
				continue;
			int nsame = 0;
			for (int j = i + 1; j < n; j++)
				nsame += same_cause(&dv[j], d);
			const struct sm_stmt *b = d->barrier;
			const char *bname = b->barrier == SM_BAR_ASM ? "bar.sync" :
					    range_text(F, b->range, A, 40);
			const char *stext = scope_text(A, b);
			bool group = sm_scope_threads(b) > 0;
			struct sm_range cr = d->cond ? cond_range(d->cond) : b->range;
			const char *ctext = range_text(F, cr, A, 60);
			struct sm_diag g;
			memset(&g, 0, sizeof(g));
			g.rule = SM_RULE_DIVERGENT_BARRIER;
			g.range = b->range;
			g.kernel = m->kernel->name;
			g.access = -1;
			const char *what = "";
			switch (d->kind) {
			case SM_DIV_IF:
				what = sm_arena_printf(A, "is under thread-dependent condition '%s'", ctext);
				g.note = group ? "threads of one group for which the condition differs never reach it; make the condition uniform across each group of the barrier's scope or move the barrier out of it"
					       : "threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it";
				break;
			case SM_DIV_SWITCH:
				what = sm_arena_printf(A, "is under a switch on thread-dependent '%s'", ctext);
				g.note = "threads that take other cases never reach it; move the barrier out of the switch";
				break;
			case SM_DIV_LOOP:
				what = sm_arena_printf(A, "is in a loop whose trip count depends on the thread (condition '%s')", ctext);
				g.note = "threads run the loop different numbers of times; give every thread the same trip count and guard the work instead";
				break;
			case SM_DIV_EXIT:
			case SM_DIV_NONE:
				if (d->in_loop)
					what = sm_arena_printf(A, "is in a loop that threads leave early by a thread-dependent '%s' (under '%s')",
							       jump_name(d->jump), ctext);
				else
					what = sm_arena_printf(A, "follows a thread-dependent '%s' (under '%s')", jump_name(d->jump), ctext);
				g.note = "threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier";
				break;
			}
			const char *more = nsame == 0 ? "" : sm_arena_printf(A, " (and %d more barrier%s after it)", nsame, nsame == 1 ? "" : "s");
			/* the launch that decides it; a barrier of a smaller scope
			 * is judged per block shape (the first names them); else
			 * the condition alone decides, at every launch */
			const char *at;
			if (d->launch) {
				sm_diag_set_launch(&g, ctx->file, d->launch);
				at = d->launch->site ? sm_arena_printf(A, " at the launch on line %u", d->launch->site->range.begin.line)
						     : sm_arena_printf(A, " %s", sm_launch_text(A, &g.launch));
			} else if (group && f->launch.nshapes > 0) {
				sm_diag_set_launch(&g, ctx->file, &f->launch.shape[0]);
				if (f->launch.assumed) {
					divergence_hold(f, d, &g.launch.from);
					if (g.launch.from.hold == SM_HOLD_NOT || g.launch.from.hold == SM_HOLD_UNKNOWN)
						g.level = SM_LEVEL_ASSUMED;
				}
				at = sm_arena_printf(A, " %s", sm_launch_text(A, &g.launch));
			} else {
				g.launch.from.kind = SM_LAUNCH_ANY;
				g.launch.dyn_smem = -1;
				at = sm_launch_from_text(A, &g.launch.from);
			}
			g.message = sm_arena_printf(A, "divergent barrier: '%s'%s %s %s%s%s", bname, stext, what, sm_where_text(A, m->kernel->name, d->barrier ? d->barrier->call : NULL), at, more);
			g.related[0].range = cr;
			g.related[0].message = sm_arena_printf(A, "thread-dependent condition '%s'", ctext);
			g.nrelated = 1;
			if (d->kind == SM_DIV_EXIT && d->jump) {
				g.related[1].range = d->jump->range;
				g.related[1].message = sm_arena_printf(A, "the '%s' that skips the barrier", jump_name(d->jump));
				g.nrelated = 2;
			}
			for (int j = i + 1; j < n && g.nrelated < SM_MAX_RELATED; j++) {
				if (!same_cause(&dv[j], d))
					continue;
				const struct sm_stmt *o = dv[j].barrier;
				g.related[g.nrelated].range = o->range;
				g.related[g.nrelated].message = sm_arena_printf(A, "'%s', made divergent by the same %s",
					o->barrier == SM_BAR_ASM ? "bar.sync" : range_text(F, o->range, A, 40),
					d->kind == SM_DIV_EXIT ? jump_name(d->jump) : "condition");
				g.nrelated++;
			}
			sm_sink_report(sink, &g);
		}
	}
}

/* What --explain, SARIF and doc/rules.md say about this rule. */
const struct sm_rule_doc sm_doc_divergent_barrier = {
	"DivergentBarrier",
	"Every thread of a block must reach each block barrier (__syncthreads(), its _count/_and/_or "
	"forms, cooperative_groups block sync(), bar.sync). A barrier under a condition that depends on "
	"the thread, in a loop whose trip count depends on the thread, or after a thread-dependent "
	"return is undefined behaviour: the block can hang or synchronize the wrong threads. A barrier "
	"of a smaller scope (a thread_block_tile<N>'s sync(), __syncwarp(mask), bar.sync with a thread "
	"count) needs every thread of its own group only: it is reported where the condition splits a "
	"tile or the mask's lanes of a warp, not under a warp-uniform condition. Judged under an assumed "
	"block shape, such a barrier that does not diverge under every shape the kernel admits is reported "
	"at the level 'assumed'.",
	"if (threadIdx.x < 16) {\n"
	"    buf[threadIdx.x] = x;\n"
	"    __syncthreads();   // only half of the block gets here\n"
	"}\n",
	"Move the barrier out of the thread-dependent branch so that every thread executes it, and keep "
	"only the work inside the condition: if (threadIdx.x < 16) buf[threadIdx.x] = x; __syncthreads();",
};
