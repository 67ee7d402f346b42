/* bank_conflict.c - rule `bank-conflict`.
 *
 * Models: the wavefronts a warp's shared-memory request costs on 32 banks of
 * 4 bytes (analyzer/engine/bank.c), for every warp of the block and every loop
 * iteration the access runs in, under each block shape the kernel is
 * launched with. Reports one finding per access whose worst degree
 * (wavefronts / ideal wavefronts) is 2 or more, naming the kernel, the block
 * shape, two lanes that collide and, when the degree depends on a loop
 * counter, the value that gives the worst case. Broadcast and multicast are
 * never conflicts. Accesses whose index cannot be evaluated are not
 * reported: the rule does not guess.
 *
 * Each finding carries the fix analyzer/padding.c found and verified for
 * its array (minimal padding, offset form or XOR swizzle) as a note, and a
 * fix-it replacing the declared dimensions when padding applies.
 */
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "engine/fix.h"
#include "rules/explain.h"
#include "rules/messages.h"
#include "rules/rules.h"

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

static const char *src_text(const struct sm_file *F, struct sm_range r, struct sm_arena *A)
{
	if (r.begin.line != r.end.line)
		return NULL;
	size_t n, tl;
	const char *t = sm_file_text(F, r.file, &tl);
	const char *s = t ? sm_text_span(t, tl, r.begin.line, r.begin.col, r.end.line, r.end.col, &n) : NULL;
	return s ? sm_arena_strndup(A, s, n) : NULL;
}

/* The swizzled spelling of one access: a[i][j] -> a[i][j ^ (i & mask)]. */
static const char *swizzled(const struct sm_file *F, const struct sm_raccess *ra, int64_t mask, struct sm_arena *A)
{
	const struct sm_access *a = ra->src;
	if (!a->array || a->nidx != a->array->ndims || a->nidx < 2)
		return NULL;
	char buf[1024];
	size_t n = (size_t)snprintf(buf, sizeof(buf), "%s", a->array->name);
	for (int i = 0; i < a->nidx && n < sizeof(buf); i++) {
		const char *t = src_text(F, a->idx_range[i], A);
		if (!t)
			return NULL;
		if (i == a->nidx - 1) {
			const char *row = src_text(F, a->idx_range[i - 1], A);
			t = row ? sm_fix_swizzle_text(t, row, mask, A) : NULL;
			if (!t)
				return NULL;
		}
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "[%s]", t);
	}
	return n < sizeof(buf) ? sm_arena_strdup(A, buf) : NULL;
}

/* Is there an earlier copy of access i (the same helper line inlined at
 * another call site) reported with the same degree? */
static bool reported_before(const struct sm_kernel_model *m, const struct sm_access_result *degrees, unsigned i, int ways)
{
	const struct sm_access *src = m->acc[i].src;
	for (unsigned j = 0; j < i; j++) {
		const struct sm_access *o = m->acc[j].src;
		const struct sm_degree *d = &degrees[j].deg;
		if (o && o->call && o->kind == src->kind && sm_same_range(o->range, src->range) && d->analyzed &&
		    (int)(d->worst + 0.5) == ways)
			return true;
	}
	return false;
}

/* Is access i a load whose next access is the store of the same
 * expression (s[i] += v), with the same degree? */
static bool store_of_same(const struct sm_kernel_model *m, const struct sm_access_result *degrees, unsigned i, int ways)
{
	if (i + 1 >= m->nacc)
		return false;
	const struct sm_access *a = m->acc[i].src, *b = m->acc[i + 1].src;
	const struct sm_degree *d = &degrees[i + 1].deg;
	return a && b && a->kind == SM_ACC_LOAD && b->kind == SM_ACC_STORE && a->call == b->call &&
	       sm_same_range(a->range, b->range) && d->analyzed &&
	       (int)(d->worst + 0.5) == ways && degrees[i].launch == degrees[i + 1].launch;
}

struct plan_slot {
	const struct sm_array *array;
	struct sm_fix_plan plan;
};

/* The fix plan for array a in the kernel of facts f: searched once, at
 * the array's first conflicting access, and kept in *slots (allocated
 * on first use, one slot per access of the kernel). NULL when the
 * scratch arena is full. */
static const struct sm_fix_plan *plan_for(const struct sm_rule_ctx *ctx, struct sm_kernel_facts *f,
					  const struct sm_array *a, struct plan_slot **slots, unsigned *nslots,
					  struct sm_arena *A)
{
	const struct sm_kernel_model *m = &f->model;
	for (unsigned i = 0; i < *nslots; i++)
		if ((*slots)[i].array == a)
			return &(*slots)[i].plan;
	if (!*slots)
		*slots = sm_arena_alloc(A, (m->nacc + 1) * sizeof(**slots));
	if (!*slots || *nslots > m->nacc)
		return NULL;
	struct plan_slot *sl = &(*slots)[(*nslots)++];
	sl->array = a;
	size_t tl;
	const char *t = sm_file_text(ctx->file, a->decl.file, &tl);
	struct sm_fix_query q = { m, a, f->launch.shape, f->launch.nshapes, ctx->opt->arch, t ? t : "", t ? tl : 0, f->work };
	sm_fix_search(&q, A, &sl->plan);
	return &sl->plan;
}

void sm_rule_bank_conflict(const struct sm_rule_ctx *ctx, struct sm_sink *sink)
{
	struct sm_arena *A = ctx->scratch;
	for (unsigned k = 0; k < ctx->file->nkernels; k++) {
		struct sm_kernel_facts *f = &ctx->facts[k];
		const struct sm_kernel_model *m = &f->model;
		const struct sm_access_result *degrees = sm_kernel_facts_degrees(f);
		if (!degrees)
			continue;
		/* one fix plan per array of this kernel, searched at its first
		 * conflict: sized by the kernel's accesses (each brings at most
		 * one array), never by the file's arrays, since the rule runs
		 * once per kernel and a file may hold thousands of them */
		struct plan_slot *slots = NULL;
		unsigned nslots = 0;
		unsigned skip = m->nacc; /* the store already reported with its load */
		for (unsigned i = 0; i < m->nacc; i++) {
			const struct sm_raccess *ra = &m->acc[i];
			const struct sm_access_result *res = &degrees[i];
			const struct sm_degree *d = &res->deg;
			/* what the layout adds: a cp.async's pieces beyond one a
			 * global line are the shared side's, the rest no padding
			 * or swizzle removes */
			double lw = d->layout_worst > 0 ? d->layout_worst : d->worst;
			if (i == skip || !ra->src || !d->analyzed || lw < 2.0 - 1e-9)
				continue;
			int ways = (int)(lw + 0.5);
			const char *what = ra->src->op ? sm_arena_printf(A, "%s %s", ra->src->op, kind_name(ra->src->kind))
						       : kind_name(ra->src->kind);
			if (store_of_same(m, degrees, i, ways)) {
				/* s[i] += v, ++s[i]: one expression, one finding */
				what = "load and store";
				skip = i + 1;
			}
			if (ra->src->call && reported_before(m, degrees, i, ways))
				continue; /* one helper line, one finding per degree */
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
			sm_diag_set_launch(&g, ctx->file, res->ctx);
			if (res->launch && res->launch != res->ctx) {
				/* the launch's values with a shape of the kernel's */
				struct sm_diag_launch at = sm_launch_ctx_diag(res->launch);
				g.launch.grid = at.grid;
				g.launch.dyn_smem = at.dyn_smem;
			}
			g.width = ra->width;
			g.wavefronts = d->wavefronts;
			g.ideal_wavefronts = d->ideal;
			g.wavefronts_exact = d->totals_exact;
			g.bank_addr = d->worst_addr;
			g.bank_mask = d->worst_mask;
			const char *iv = "";
			if (d->iv_matters && d->worst_iv)
				iv = sm_arena_printf(A, ", worst when %s = %lld", d->worst_iv->var->name,
						     (long long)d->worst_iv_value);
			if (d->iv_matters && d->mean > 0 && d->mean < d->worst - 0.005)
				/* a loop that is not unrolled is one instruction:
				 * the profiler shows the mean over its iterations */
				iv = sm_arena_printf(A, "%s (mean %.2f-way over the iterations)", iv, d->mean);
			const char *lanes = "";
			if (d->layout_lines > 0)
				lanes = sm_arena_printf(A, "; a warp's cp.async moves %d pieces, a wavefront each, where one a "
							"global 128-byte line it reads would be %d (a piece: one line at one "
							"shift into one shared 128-byte row; a shift splitting 32-byte sectors "
							"moves their 16-byte halves apart%s)",
							d->layout_pieces, d->layout_lines,
							d->layout_assumed ? "; row strides taken as whole 128-byte lines, a "
									    "value known only at run time"
									  : "");
			else if (d->lane_a >= 0 && d->lane_b >= 0)
				lanes = sm_arena_printf(A, "; lanes %d and %d of warp %d hit bank %d (byte offsets %lld and %lld)",
							d->lane_a, d->lane_b, d->warp, d->bank, (long long)d->addr_a,
							(long long)d->addr_b);
			const char *exact = "";
			if (d->worst != (double)ways)
				exact = sm_arena_printf(A, " (%.2f wavefronts per ideal)", d->worst);
			if (res->fused > 1) {
				/* nvcc fuses the group: the degree is the fused access's */
				exact = sm_arena_printf(A, "%s (fused by nvcc with %u adjacent access%s into one %u-byte access)",
							exact, res->fused - 1, res->fused > 2 ? "es" : "", res->fused_width);
				g.width = res->fused_width;
			}
			/* the lanes out of bounds: never dropped silently */
			if (d->oob_lanes)
				exact = sm_arena_printf(A, "%s (counting lanes that address outside the array)", exact);
			else if (d->oob_dropped || d->oob_tries_left)
				exact = sm_arena_printf(A, "%s (leaving out lanes whose index falls outside the array)", exact);
			if (res->launch && res->launch != res->ctx) /* else the shape's provenance names it */
				iv = sm_arena_printf(A, " at the launch on line %u%s", res->launch->site->range.begin.line, iv);
			g.message = sm_arena_printf(A, "%d-way bank conflict on %s of '%s' (%s)%s %s %s%s%s",
						    ways, what, g.array, array_type(A, ra->array), exact,
						    sm_where_text(A, m->kernel->name, ra->src->call),
						    sm_launch_text(A, &g.launch), iv, lanes);
			g.related[0].range = ra->array->decl;
			g.related[0].message = sm_arena_printf(A, "'%s' declared here", ra->array->name);
			g.nrelated = 1;
			const struct sm_fix_plan *plan = plan_for(ctx, f, ra->array, &slots, &nslots, A);
			if (plan && plan->kind == SM_FIX_PAD) {
				g.note = plan->note;
				g.fix_refused = plan->refuse;
				if (!plan->refuse && plan->dims_text) {
					g.fix.range = ra->array->dims_range;
					g.fix.text = plan->dims_text;
				}
			} else if (plan && plan->kind == SM_FIX_SWIZZLE) {
				const char *sw = swizzled(ctx->file, ra, plan->swizzle_mask, A);
				g.note = sw ? sm_arena_printf(A, "%s; write this access as `%s`", plan->note, sw) : plan->note;
				g.fix_refused = plan->refuse;
				if (plan->nedits) {
					/* every access of the array, on each of its findings */
					g.fix = plan->edits[0];
					g.fix_more = plan->edits + 1;
					g.nfix_more = plan->nedits - 1;
				}
			} else if (plan && (plan->kind == SM_FIX_OFFSET || plan->note)) {
				g.note = plan->note; /* the offset form, or why no layout is offered */
			}
			sm_sink_report(sink, &g);
		}
	}
}

/* What --explain, SARIF and doc/rules.md say about this rule. */
const struct sm_rule_doc sm_doc_bank_conflict = {
	"BankConflict",
	"Shared memory is split into 32 banks of 4 bytes. When lanes of one warp touch different "
	"4-byte words in the same bank, the hardware serializes the request into several wavefronts. "
	"The finding gives the degree (2 to 32 ways) of the worst warp request of the access, for the "
	"block shape the kernel is launched with, and names two lanes that collide.",
	"__shared__ float tile[32][32];\n"
	"tile[threadIdx.y][threadIdx.x] = in[i];   // row-wise: conflict-free\n"
	"__syncthreads();\n"
	"out[i] = tile[threadIdx.x][threadIdx.y];  // column-wise: 32-way conflict\n",
	"Change the layout so that the lanes of a warp fall into different banks: pad the row "
	"(float tile[32][33]), store element e at e + (e >> 5), or XOR-swizzle the column with the row. "
	"smemlint verifies the smallest padding that removes every conflict of the array and offers it "
	"as a fix-it (--fix applies it), or, where no padding works, the XOR swizzle (--fix rewrites "
	"every access of the array).",
};
