/* facts.c - per-kernel facts, computed on first use (see facts.h). */
#include "engine/facts.h"
#include "engine/merge.h"

#include <string.h>

int sm_kernel_facts_init(struct sm_kernel_facts *f, struct sm_kernel *k, const struct sm_analysis_options *opt,
			 struct sm_arena *A)
{
	memset(f, 0, sizeof(*f));
	f->opt = opt;
	f->arena = A;
	f->ndivergence = -1;
	f->resolved = sm_resolve_kernel(k, A, &f->model) == 0;
	f->nblocks = sm_kernel_blocks(k, opt, f->blocks, SM_MAX_BLOCK_SHAPES, &f->assumed);
	return f->resolved ? 0 : -1;
}

const struct sm_access_result *sm_kernel_facts_degrees(struct sm_kernel_facts *f)
{
	if (f->degrees || f->degrees_failed)
		return f->degrees;
	const struct sm_kernel_model *m = &f->model;
	struct sm_access_result *res = sm_arena_alloc(f->arena, (m->nacc + 1) * sizeof(*res));
	if (!res) {
		f->degrees_failed = true;
		return NULL;
	}
	for (unsigned a = 0; a < m->nacc; a++) {
		struct sm_access_result *ar = &res[a];
		for (int b = 0; b < f->nblocks; b++) {
			struct sm_degree d;
			sm_access_degree(&m->acc[a], f->blocks[b], NULL, f->arena, &d);
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
				sm_access_degree(&fused, f->blocks[b], NULL, f->arena, &d);
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
		s->ok = sm_kernel_races(&f->model, f->blocks[b], f->arena, &s->v, &s->n) == 0;
	}
	return s->ok ? s : NULL;
}

int sm_kernel_facts_divergence(struct sm_kernel_facts *f, const struct sm_divergence **out)
{
	if (f->ndivergence < 0 && f->model.kernel) {
		struct sm_divergence *d = NULL;
		f->ndivergence = sm_divergent_barriers(&f->model, f->arena, &d);
		f->divergence = d;
	}
	*out = f->divergence;
	return f->ndivergence;
}
