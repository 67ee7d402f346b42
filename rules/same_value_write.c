/* same_value_write.c - rule `same-value-write`.
 *
 * Models: a store that every thread runs with one compile-time constant
 * (`s_flag = 1;`, `s_done = 0.0f;`) or with one value every thread computes
 * alike (a parameter, a load from one global address: `s[t & 63] = o[0]`,
 * at the same loop iterations), or two stores of the same integer
 * constant, reaching the same shared bytes from different threads with no
 * barrier in between. Formally a race (missing-barrier's or warp-sync's
 * pair), but whichever thread's write lands, the memory holds the same
 * value: reported as a note of its own, so that a user can silence this
 * rule and keep the real races. The value is the one the front end
 * recorded for a plain `=` store (sm_access.value); a value that depends
 * on the thread, a variable or memory is a real race and stays with
 * missing-barrier or warp-sync. One finding per line, on the later store,
 * with the other store in related[0]
 * (analyzer/engine/races.c decides; rules/race_rule.c phrases).
 */
#include "rules/explain.h"
#include "rules/messages.h"
#include "rules/race_rule.h"

static bool report(const struct sm_rule_ctx *ctx, const struct sm_race_visit *v, struct sm_sink *sink)
{
	struct sm_arena *A = ctx->scratch;
	const struct sm_race *r = v->r;
	/* a line that also races with a different value is that rule's */
	for (unsigned j = 0; j < v->nall; j++)
		if (!v->all[j].same_value && v->all[j].b == r->b)
			return false;
	struct sm_dim3 bl = v->block;
	const char *ta = sm_thread_name(r->tid_a, bl, A);
	struct sm_race_words w = {
		.rule = SM_RULE_SAME_VALUE_WRITE,
		.later = sm_thread_name(r->tid_b, bl, A),
		.earlier = ta,
		.headline = sm_arena_printf(A, "benign race: threads write the same %s to '%s'",
					    r->same_uniform ? "value" : "constant", sm_race_array_name(v)),
		.tail = sm_arena_printf(A, ", %s (the value is the same whichever write lands) %s %s",
					r->inter_warp ? "threads of different warps" : "lanes of one warp",
					sm_where_text(A, v->m->kernel->name, v->m->acc[r->b].src->call), sm_race_launch_text(ctx, v)),
		.note = "harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write",
		.related = sm_arena_printf(A, "the same %s written by %s", r->same_uniform ? "value" : "constant", ta),
	};
	sm_race_report(ctx, v, &w, sink);
	return true;
}

void sm_rule_same_value_write(const struct sm_rule_ctx *ctx, struct sm_sink *sink)
{
	sm_rule_each_benign_race(ctx, report, sink);
}

/* What --explain, SARIF and doc/rules.md say about this rule. */
const struct sm_rule_doc sm_doc_same_value_write = {
	"SameValueWrite",
	"Several threads write the same compile-time constant, or the same value every thread computes "
	"alike (a kernel parameter, a load from one global address), or the lanes of one warp or tile the "
	"one value of its collective (cg::reduce, a vote, a shuffle from one lane), to one shared-memory "
	"location with no barrier in between. This is formally a data race, but the location holds that value whichever "
	"write lands, so it is reported as a note under its own id: disable it to keep only the races "
	"that can change a value (missing-barrier, warp-sync).",
	"__shared__ int s_found;\n"
	"s_found = 0;        // every thread writes 0: benign\n"
	"__syncthreads();\n",
	"Nothing is wrong with the result. To state the intent, let one thread write the constant "
	"(if (threadIdx.x == 0) s_found = 0;) before the barrier.",
};
