/* divergent_barrier.c - rule `divergent-barrier`.
 *
 * Models: CUDA requires every thread of the block to reach each block
 * barrier (__syncthreads(), its _count/_and/_or forms, a cooperative_groups
 * thread_block sync() and inline `bar.sync`); __syncwarp() is not one. A
 * barrier is reported when it runs under a thread-dependent if, switch, ?:,
 * && or ||, in a loop whose trip count is thread dependent (its condition,
 * or a thread-dependent break/return in it), or after a thread-dependent
 * return/break/continue/goto (analyzer/engine/threaddep.c). Thread dependence is
 * judged on the condition's value at its program point, with variables
 * substituted by the resolver: threadIdx, the lane id, loads through
 * thread-dependent addresses, atomics' results and clock() are thread
 * dependent; blockIdx, blockDim, gridDim, parameters, constants and the
 * results of __syncthreads_count/_and/_or are uniform. The message quotes
 * the condition and gives its location as related[0]. A uniform condition
 * (blockIdx.x == 0) is never reported, nor is a thread-dependent if or
 * switch condition that every thread of every launch agrees on (each
 * launch fixes the block shape and the condition has no unknown left:
 * `tid < 4` under <<<1, 4>>>). One finding per cause: the first
 * barrier a condition or an early exit makes divergent is the finding, and
 * every later one it affects is a related location (text notes, SARIF
 * relatedLocations), counted in the message.
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
	default: return "goto";
	}
}

/* Do two divergent barriers have one cause (the same condition, and for
 * an early exit the same jump)? */
static bool same_cause(const struct sm_divergence *x, const struct sm_divergence *y)
{
	return x->kind == y->kind && x->cond == y->cond && x->jump == y->jump;
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
			struct sm_range cr = d->cond ? cond_range(d->cond) : b->range;
			const char *ctext = range_text(F, cr, A, 60);
			struct sm_diag g;
			memset(&g, 0, sizeof(g));
			g.rule = SM_RULE_DIVERGENT_BARRIER;
			g.range = b->range;
			g.kernel = m->kernel->name;
			g.access = -1;
			const char *what;
			switch (d->kind) {
			case SM_DIV_IF:
				what = sm_arena_printf(A, "is under thread-dependent condition '%s'", ctext);
				g.note = "threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it";
				break;
			case SM_DIV_SWITCH:
				what = sm_arena_printf(A, "is under a switch on thread-dependent '%s'", ctext);
				g.note = "threads that take other cases never reach it; move the barrier out of the switch";
				break;
			case SM_DIV_LOOP:
				what = sm_arena_printf(A, "is in a loop whose trip count depends on the thread (condition '%s')", ctext);
				g.note = "threads run the loop different numbers of times; give every thread the same trip count and guard the work instead";
				break;
			default:
				if (d->in_loop)
					what = sm_arena_printf(A, "is in a loop that threads leave early by a thread-dependent '%s' (under '%s')",
							       jump_name(d->jump), ctext);
				else
					what = sm_arena_printf(A, "follows a thread-dependent '%s' (under '%s')", jump_name(d->jump), ctext);
				g.note = "threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier";
				break;
			}
			const char *more = nsame == 0 ? "" : sm_arena_printf(A, " (and %d more barrier%s after it)", nsame, nsame == 1 ? "" : "s");
			g.message = sm_arena_printf(A, "divergent barrier: '%s' %s %s%s", bname, what, sm_where_text(A, m->kernel->name, d->barrier ? d->barrier->call : NULL), more);
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
	"return is undefined behaviour: the block can hang or synchronize the wrong threads.",
	"if (threadIdx.x < 16) {\n"
	"    buf[threadIdx.x] = x;\n"
	"    __syncthreads();   // only half of the block gets here\n"
	"}\n",
	"Move the barrier out of the thread-dependent branch so that every thread executes it, and keep "
	"only the work inside the condition: if (threadIdx.x < 16) buf[threadIdx.x] = x; __syncthreads();",
};
