/* race_rule.c - the walk and the finding shared by the race rules (see
 * race_rule.h). */
#include "rules/race_rule.h"

#include <string.h>

#include "rules/messages.h"

enum walk { W_INTRA, W_INTER, W_BENIGN };

/* Is x (of model m, under another shape) the race r: the same kind between
 * the same two statements? */
static bool same_race(const struct sm_kernel_model *m, const struct sm_race *r, const struct sm_race *x)
{
	return x->kind == r->kind && x->same_value == r->same_value &&
	       sm_same_range(m->acc[x->a].src->range, m->acc[r->a].src->range) &&
	       sm_same_range(m->acc[x->b].src->range, m->acc[r->b].src->range);
}

/* Does race r, found under the assumed shape, hold under every other
 * shape of f's kernel? The first shape without it decides NOT; a search
 * the budget cut short (or memory) that lacks it, UNKNOWN. */
static struct sm_launch_from race_hold(struct sm_kernel_facts *f, const struct sm_race *r)
{
	const struct sm_kernel_launches *K = &f->launch;
	struct sm_launch_from h = K->shape[0].block_from;
	sm_launch_from_hold_all(&h, K, false);
	bool unknown = false;
	for (int i = 0; i < K->nother; i++) {
		const struct sm_race_set *s = sm_kernel_facts_races_other(f, i);
		bool found = false;
		for (unsigned j = 0; s && j < s->n && !found; j++)
			found = same_race(&f->model, r, &s->v[j]);
		if (found)
			continue;
		if (!s || s->partial) {
			unknown = true;
			continue;
		}
		sm_launch_from_not_for(&h, K->other[i]);
		return h;
	}
	if (unknown)
		h.hold = SM_HOLD_UNKNOWN;
	return h;
}

/* Is a finding with hold h reported below its rule's level? */
static bool downgrades(const struct sm_launch_from *h)
{
	return h->hold == SM_HOLD_NOT || h->hold == SM_HOLD_UNKNOWN;
}

/* Is line already reported (done[0..*ndone))? */
static bool line_done(const unsigned *done, unsigned ndone, unsigned line)
{
	for (unsigned j = 0; j < ndone; j++)
		if (done[j] == line)
			return true;
	return false;
}

static void each_race(const struct sm_rule_ctx *ctx, enum walk which, sm_race_fn fn, struct sm_sink *sink)
{
	for (unsigned k = 0; k < ctx->file->nkernels; k++) {
		struct sm_kernel_facts *f = &ctx->facts[k];
		const struct sm_kernel_model *m = &f->model;
		if (!m->kernel || !m->nacc)
			continue;
		unsigned *done = sm_arena_alloc(ctx->scratch, (m->nacc + 1) * sizeof(unsigned));
		unsigned ndone = 0;
		if (!done)
			return;
		/* an assumed shape: races that hold under every shape first
		 * (pass 0), then the others (pass 1, downgraded); benign races
		 * are not checked */
		bool check = f->launch.assumed && which != W_BENIGN;
		for (int pass = 0; pass < (check ? 2 : 1); pass++)
		for (int bi = 0; bi < f->launch.nshapes; bi++) {
			const struct sm_race_set *s = sm_kernel_facts_races(f, bi);
			if (!s)
				continue;
			for (unsigned i = 0; i < s->n; i++) {
				const struct sm_race *r = &s->v[i];
				if (which == W_BENIGN ? !r->same_value
						      : r->same_value || r->inter_warp != (which == W_INTER))
					continue;
				unsigned line = m->acc[r->b].src->range.begin.line;
				if (line_done(done, ndone, line))
					continue;
				struct sm_launch_from h;
				if (check) {
					h = race_hold(f, r);
					if (downgrades(&h) != (pass == 1))
						continue;
				}
				const struct sm_launch_ctx *lc = &f->launch.shape[bi];
				struct sm_race_visit v = { m, r, s->v, s->n, lc->block, lc, check ? &h : NULL };
				if (fn(ctx, &v, sink) && ndone < m->nacc)
					done[ndone++] = line;
			}
		}
	}
}

void sm_rule_each_race(const struct sm_rule_ctx *ctx, bool inter_warp, sm_race_fn fn, struct sm_sink *sink)
{
	each_race(ctx, inter_warp ? W_INTER : W_INTRA, fn, sink);
}

void sm_rule_each_benign_race(const struct sm_rule_ctx *ctx, sm_race_fn fn, struct sm_sink *sink)
{
	each_race(ctx, W_BENIGN, fn, sink);
}

const char *sm_race_array_name(const struct sm_race_visit *v)
{
	const struct sm_raccess *rb = &v->m->acc[v->r->b];
	return rb->name ? rb->name : rb->array->name;
}

/* What barrier b's scope orders, for a race message. */
static const char *orders_text(struct sm_arena *A, const struct sm_stmt *b)
{
	switch (b->scope) {
	case SM_SCOPE_TILE:
		return sm_arena_printf(A, "orders only a %lld-thread tile", (long long)b->scope_arg);
	case SM_SCOPE_LANES:
		if (!b->scope_arg)
			return "orders only lanes of one warp";
		if (((uint64_t)b->scope_arg & 0xffffffffu) == 0xffffffffu)
			return "orders only the threads of one warp";
		return sm_arena_printf(A, "orders only the lanes of mask 0x%08llx in one warp",
				       (unsigned long long)((uint64_t)b->scope_arg & 0xffffffffu));
	case SM_SCOPE_ACTIVE:
		return "orders only the active threads of one warp";
	case SM_SCOPE_COUNT:
		return sm_arena_printf(A, "orders only the %lld threads taking part (its count)", (long long)b->scope_arg);
	case SM_SCOPE_BLOCK:
	case SM_SCOPE_GRID:
		break;
	}
	return "orders only part of the block";
}

const char *sm_race_unordered_text(const struct sm_rule_ctx *ctx, const struct sm_race_visit *v, const char *who,
				   const char *aside)
{
	const struct sm_stmt *b = v->r->unordered;
	if (!b)
		return NULL;
	struct sm_arena *A = ctx->scratch;
	const char *name = "bar.sync";
	if (b->barrier != SM_BAR_ASM) {
		size_t len;
		const char *t = sm_file_text(ctx->file, b->range.file, &len);
		name = t ? sm_source_text(t, len, b->range, A, 40) : "the barrier";
	}
	return sm_arena_printf(A, "with no barrier ordering both %s in between ('%s' at line %u %s; %s)", who, name,
			       b->range.begin.line, orders_text(A, b), aside);
}

const char *sm_race_launch_text(const struct sm_rule_ctx *ctx, const struct sm_race_visit *v)
{
	struct sm_diag g;
	memset(&g, 0, sizeof(g));
	g.range = v->m->acc[v->r->b].src->range;
	sm_diag_set_launch(&g, ctx->file, v->launch);
	if (v->hold)
		g.launch.from = *v->hold;
	return sm_launch_text(ctx->scratch, &g.launch);
}

void sm_race_report(const struct sm_rule_ctx *ctx, const struct sm_race_visit *v, const struct sm_race_words *w,
		    struct sm_sink *sink)
{
	struct sm_arena *A = ctx->scratch;
	const struct sm_kernel_model *m = v->m;
	const struct sm_race *r = v->r;
	const struct sm_raccess *ra = &m->acc[r->a], *rb = &m->acc[r->b];
	const char *elem = sm_element_name(rb->array, rb->array->name, r->addr, A);
	unsigned la = ra->src->range.begin.line;
	const char *when = r->cross_iter ? " in the previous iteration" : "";
	const char *verb = r->kind == SM_RACE_RAW ? "reads" : r->kind == SM_RACE_WAR ? "overwrites" : "writes";
	const char *past = r->kind == SM_RACE_WAR ? "read" : "wrote";
	const char *story = w->story ? w->story : r->own_copy ? sm_arena_printf(A, "%s reads %s, which its own asynchronous copy at line %u%s may "
							  "still be writing", w->later, elem, la, when)
			  : r->a == r->b && !r->cross_iter ? sm_arena_printf(A, "%s %s %s, which %s also writes in the same statement",
							  w->later, verb, elem, w->earlier)
					 : sm_arena_printf(A, "%s %s %s, which %s %s at line %u%s", w->later, verb, elem,
							  w->earlier, past, la, when);
	struct sm_diag g;
	memset(&g, 0, sizeof(g));
	g.rule = w->rule;
	g.range = rb->src->range;
	g.kernel = m->kernel->name;
	g.array = sm_race_array_name(v);
	g.access = rb->src->kind;
	g.block = v->block;
	g.block_assumed = v->launch->block_from.kind == SM_LAUNCH_ASSUMED;
	sm_diag_set_launch(&g, ctx->file, v->launch);
	if (v->hold) {
		g.launch.from = *v->hold;
		if (downgrades(v->hold))
			g.level = SM_LEVEL_ASSUMED;
	}
	g.width = rb->width;
	g.message = sm_arena_printf(A, "%s: %s%s", w->headline, story, w->tail);
	g.note = w->note;
	g.related[0].range = ra->src->range;
	g.related[0].message = w->related;
	g.related[1].range = rb->array->decl;
	g.related[1].message = sm_arena_printf(A, "'%s' declared here", rb->array->name);
	g.nrelated = 2;
	sm_sink_report(sink, &g);
}
