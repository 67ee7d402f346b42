/* facts.c - per-kernel facts, computed on first use (see facts.h). */
#include "engine/facts.h"
#include "engine/merge.h"

#include <stdlib.h>
#include <string.h>

/* Do launches a and b fix the same values (block and known arguments)? */
static bool same_values(const struct sm_launch *a, const struct sm_launch *b)
{
	if (a->block_known != b->block_known || a->nargs != b->nargs)
		return false;
	if (a->block_known && (a->block.x != b->block.x || a->block.y != b->block.y || a->block.z != b->block.z))
		return false;
	for (unsigned i = 0; i < a->nargs; i++)
		if (a->args[i].known != b->args[i].known || (a->args[i].known && a->args[i].value != b->args[i].value))
			return false;
	return true;
}

/* Launches that disagree on a parameter they both fix: one context each. */
static void find_contexts(struct sm_kernel_facts *f, struct sm_kernel *k)
{
	bool differ = false;
	for (unsigned i = 0; i < k->nparams && !differ; i++)
		for (unsigned l = 1; l < k->nlaunches && !differ; l++) {
			const struct sm_launch *a = &k->launches[0], *b = &k->launches[l];
			if (i < a->nargs && i < b->nargs && a->args[i].known && b->args[i].known &&
			    a->args[i].value != b->args[i].value && !k->vars[i]->is_pointer)
				differ = true;
		}
	if (!differ)
		return;
	for (unsigned l = 0; l < k->nlaunches && f->ncontexts < SM_MAX_LAUNCH_CONTEXTS; l++) {
		bool dup = false;
		for (int c = 0; c < f->ncontexts && !dup; c++)
			dup = same_values(f->ctx_launch[c], &k->launches[l]);
		if (dup)
			continue;
		if (sm_resolve_kernel_at(k, &k->launches[l], f->arena, &f->ctx_model[f->ncontexts]) != 0)
			break;
		f->ctx_launch[f->ncontexts++] = &k->launches[l];
	}
}

int sm_kernel_facts_init(struct sm_kernel_facts *f, struct sm_kernel *k, const struct sm_analysis_options *opt,
			 struct sm_arena *A)
{
	memset(f, 0, sizeof(*f));
	f->opt = opt;
	f->arena = A;
	f->ndivergence = -1;
	f->resolved = sm_resolve_kernel(k, A, &f->model) == 0;
	f->nblocks = sm_kernel_blocks(k, opt, f->blocks, SM_MAX_BLOCK_SHAPES, &f->assumed);
	find_contexts(f, k);
	return f->resolved ? 0 : -1;
}

/* Access a over the launch contexts: each with its own values and block
 * (or every shape when its block is not known, or --block-dim); the worst,
 * naming its launch. One context that cannot be analyzed makes the access
 * not analyzed: its value there is unknown. */
static void context_degree(struct sm_kernel_facts *f, unsigned a, struct sm_guard_memo *gm, struct sm_access_result *ar)
{
	bool first = true;
	for (int c = 0; c < f->ncontexts; c++) {
		const struct sm_launch *L = f->ctx_launch[c];
		if (a >= f->ctx_model[c].nacc)
			continue;
		for (int b = 0; b < f->nblocks; b++) {
			if (L->block_known && !f->opt->has_block &&
			    (L->block.x != f->blocks[b].x || L->block.y != f->blocks[b].y || L->block.z != f->blocks[b].z))
				continue;
			struct sm_degree d;
			sm_access_degree_in(&f->ctx_model[c].acc[a], f->blocks[b], NULL, f->arena, gm, f->work, &d);
			if (!d.analyzed) {
				ar->deg = d;
				ar->block = f->blocks[b];
				ar->launch = L;
				return;
			}
			if (first || d.worst > ar->deg.worst) {
				ar->deg = d;
				ar->block = f->blocks[b];
				ar->block_assumed = f->assumed;
				ar->launch = L;
				first = false;
			}
		}
	}
}

const struct sm_access_result *sm_kernel_facts_degrees(struct sm_kernel_facts *f)
{
	if (f->degrees || f->degrees_failed)
		return f->degrees;
	const struct sm_kernel_model *m = &f->model;
	if (f->work && m->kernel)
		f->work->kernel = m->kernel->name; /* named if the budget runs out here */
	struct sm_access_result *res = sm_arena_alloc(f->arena, (m->nacc + 1) * sizeof(*res));
	if (!res) {
		f->degrees_failed = true;
		return NULL;
	}
	/* guard values are shared by the accesses of one model (the launch
	 * contexts have models of their own, with guards of their own) */
	struct sm_guard_memo *gm = sm_guard_memo_new();
	for (unsigned a = 0; a < m->nacc; a++) {
		struct sm_access_result *ar = &res[a];
		if (f->ncontexts) {
			context_degree(f, a, gm, ar);
			continue;
		}
		for (int b = 0; b < f->nblocks; b++) {
			struct sm_degree d;
			sm_access_degree_in(&m->acc[a], f->blocks[b], NULL, f->arena, gm, f->work, &d);
			if (b == 0 || (d.analyzed && (!ar->deg.analyzed || d.worst > ar->deg.worst))) {
				ar->deg = d;
				ar->block = f->blocks[b];
				ar->block_assumed = f->assumed;
			}
		}
	}
	/* groups nvcc fuses: every member gets the fused access's degree */
	struct sm_merge *mg = sm_arena_alloc(f->arena, (m->nacc + 1) * sizeof(*mg));
	if (mg) {
		sm_find_merges(m, f->blocks, f->nblocks, f->arena, mg);
		for (unsigned a = 0; a < m->nacc; a++) {
			if (mg[a].n < 2 || mg[a].leader != a)
				continue;
			struct sm_raccess fused = m->acc[a];
			fused.width = mg[a].width;
			struct sm_access_result r;
			memset(&r, 0, sizeof(r));
			for (int b = 0; b < f->nblocks; b++) {
				struct sm_degree d;
				sm_access_degree_in(&fused, f->blocks[b], NULL, f->arena, gm, f->work, &d);
				if (b == 0 || (d.analyzed && (!r.deg.analyzed || d.worst > r.deg.worst))) {
					r.deg = d;
					r.block = f->blocks[b];
					r.block_assumed = f->assumed;
				}
			}
			if (!r.deg.analyzed)
				continue;
			r.fused = mg[a].n;
			r.fused_width = mg[a].width;
			r.fused_first = a;
			for (unsigned k = a; k < m->nacc; k++)
				if (mg[k].leader == a && mg[k].n > 1)
					res[k] = r;
		}
	}
	sm_guard_memo_free(gm);
	f->degrees = res;
	return res;
}

const struct sm_race_set *sm_kernel_facts_races(struct sm_kernel_facts *f, int b)
{
	if (b < 0 || b >= f->nblocks)
		return NULL;
	struct sm_race_set *s = &f->races[b];
	if (!s->done) {
		s->done = true;
		s->ok = sm_kernel_races_in(&f->model, f->blocks[b], f->arena, f->work, &s->v, &s->n) == 0;
		s->partial = f->work && f->work->spent;
	}
	return s->ok ? s : NULL;
}

int sm_kernel_facts_divergence(struct sm_kernel_facts *f, const struct sm_divergence **out)
{
	if (f->ndivergence < 0 && f->model.kernel) {
		struct sm_divergence *d = NULL;
		f->ndivergence = sm_divergent_barriers(&f->model, f->blocks, f->nblocks, f->arena, &d);
		f->divergence = d;
	}
	*out = f->divergence;
	return f->ndivergence;
}
