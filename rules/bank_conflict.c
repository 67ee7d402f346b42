/* bank_conflict.c - rule `bank-conflict`.
 *
 * Models: the wavefronts a warp's shared-memory request costs on 32 banks of
 * 4 bytes (analyzer/bank.c), for every warp of the block and every loop
 * iteration the access runs in, under each block shape the kernel is
 * launched with. Reports one finding per access whose worst degree
 * (wavefronts / ideal wavefronts) is 2 or more, naming the kernel, the block
 * shape, two lanes that collide and, when the degree depends on a loop
 * counter, the value that gives the worst case. Broadcast and multicast are
 * never conflicts. Accesses whose index cannot be evaluated are not
 * reported: the rule does not guess.
 */
#include <stdio.h>
#include <string.h>

#include "smemlint/analyze.h"
#include "smemlint/rules.h"

static const char *kind_name(int k)
{
	return k == SM_ACC_STORE ? "store" : k == SM_ACC_ATOMIC ? "atomic" : "load";
}

static const char *array_type(struct sm_arena *A, const struct sm_array *a)
{
	char buf[256];
	size_t n = (size_t)snprintf(buf, sizeof(buf), "%s", a->elem_type ? a->elem_type : "?");
	for (int i = 0; i < a->ndims && n < sizeof(buf) - 24; i++) {
		if (a->dims[i] > 0)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "[%lld]", (long long)a->dims[i]);
		else
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "[]");
	}
	return sm_arena_strdup(A, buf);
}

void sm_rule_bank_conflict(const struct sm_rule_ctx *ctx, struct sm_sink *sink)
{
	struct sm_arena *A = ctx->scratch;
	for (unsigned k = 0; k < ctx->file->nkernels; k++) {
		const struct sm_kernel_model *m = &ctx->models[k];
		for (unsigned i = 0; i < m->nacc; i++) {
			const struct sm_raccess *ra = &m->acc[i];
			const struct sm_access_result *res = &ctx->results[k][i];
			const struct sm_degree *d = &res->deg;
			if (!ra->src || !d->analyzed || d->worst < 2.0 - 1e-9)
				continue;
			int ways = (int)(d->worst + 0.5);
			struct sm_diag g;
			memset(&g, 0, sizeof(g));
			g.rule = SM_RULE_BANK_CONFLICT;
			g.range = ra->src->range;
			g.kernel = m->kernel->name;
			g.array = ra->name ? ra->name : ra->array->name;
			g.access = ra->src->kind;
			g.ways = ways;
			g.degree = d->worst;
			g.block = res->block;
			g.block_assumed = res->block_assumed;
			g.width = ra->width;
			g.bank_addr = d->worst_addr;
			g.bank_mask = d->worst_mask;
			const char *iv = "";
			if (d->iv_matters && d->worst_iv)
				iv = sm_arena_printf(A, ", worst when %s = %lld", d->worst_iv->var->name,
						     (long long)d->worst_iv_value);
			const char *lanes = "";
			if (d->lane_a >= 0 && d->lane_b >= 0)
				lanes = sm_arena_printf(A, "; lanes %d and %d of warp %d hit bank %d (byte offsets %lld and %lld)",
							d->lane_a, d->lane_b, d->warp, d->bank, (long long)d->addr_a,
							(long long)d->addr_b);
			const char *exact = "";
			if (d->worst != (double)ways)
				exact = sm_arena_printf(A, " (%.2f wavefronts per ideal)", d->worst);
			g.message = sm_arena_printf(A, "%d-way bank conflict on %s of '%s' (%s)%s in kernel '%s' with blockDim (%lld,%lld,%lld)%s%s%s",
						    ways, kind_name(ra->src->kind), g.array, array_type(A, ra->array), exact,
						    m->kernel->name, (long long)res->block.x, (long long)res->block.y,
						    (long long)res->block.z, res->block_assumed ? " (assumed: no launch site, __launch_bounds__ or --block-dim gives it)" : "",
						    iv, lanes);
			g.related[0].range = ra->array->decl;
			g.related[0].message = sm_arena_printf(A, "'%s' declared here", ra->array->name);
			g.nrelated = 1;
			sm_sink_report(sink, &g);
		}
	}
}
