/* blocks.c - which block shapes a kernel is analyzed with. */
#include "engine/analysis.h"
#include "smemlint/options.h"


static bool uses_dim(const struct sm_expr *e, int dim, int depth)
{
	if (!e || depth > SM_SCAN_EXPR_DEPTH)
		return false;
	if (e->kind == SM_E_BUILTIN && (e->builtin == SM_B_TID || e->builtin == SM_B_NTID) && e->dim >= dim)
		return true;
	if (e->kind == SM_E_ADDR && e->place) {
		for (int i = 0; i < e->place->nidx; i++)
			if (uses_dim(e->place->idx[i], dim, depth + 1))
				return true;
	}
	return uses_dim(e->a, dim, depth + 1) || uses_dim(e->b, dim, depth + 1) || uses_dim(e->c, dim, depth + 1);
}

static bool stmt_uses_dim(const struct sm_stmt *s, int dim, int depth)
{
	if (!s || depth > SM_SCAN_STMT_DEPTH)
		return false;
	if (uses_dim(s->value, dim, 0) || uses_dim(s->cond, dim, 0))
		return true;
	if (s->access) {
		for (int i = 0; i < s->access->nidx; i++)
			if (uses_dim(s->access->idx[i], dim, 0))
				return true;
	}
	for (int i = 0; i < s->nkids; i++)
		if (stmt_uses_dim(s->kids[i], dim, depth + 1))
			return true;
	return false;
}

int sm_kernel_blocks(const struct sm_kernel *k, const struct sm_analysis_options *opt, struct sm_dim3 *out,
		     int max, bool *assumed)
{
	*assumed = false;
	if (opt->has_block) {
		out[0] = opt->block;
		return 1;
	}
	int n = 0;
	for (unsigned i = 0; i < k->nlaunches && n < max; i++) {
		const struct sm_launch *L = &k->launches[i];
		if (!L->block_known)
			continue;
		int dup = 0;
		for (int j = 0; j < n; j++)
			if (out[j].x == L->block.x && out[j].y == L->block.y && out[j].z == L->block.z)
				dup = 1;
		if (!dup)
			out[n++] = L->block;
	}
	if (n)
		return n;
	if (k->launch_bounds > 0 && k->launch_bounds <= SM_MAX_BLOCK_THREADS && !stmt_uses_dim(k->body, 1, 0)) {
		out[0].x = k->launch_bounds;
		out[0].y = out[0].z = 1;
		return 1;
	}
	*assumed = true;
	if (stmt_uses_dim(k->body, 2, 0)) {
		out[0].x = 8; out[0].y = 8; out[0].z = 4;
	} else if (stmt_uses_dim(k->body, 1, 0)) {
		out[0].x = 32; out[0].y = 8; out[0].z = 1;
	} else {
		out[0].x = 256; out[0].y = 1; out[0].z = 1;
	}
	return 1;
}

