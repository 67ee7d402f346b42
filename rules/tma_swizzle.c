/* tma_swizzle.c - rule `tma-swizzle`.
 *
 * Models: the layout a TMA tensor copy (cp.async.bulk.tensor) gives the
 * box it writes into shared memory, or expects of the box it stores from
 * it, when its tensor map (the host's cuTensorMapEncodeTiled, bound at
 * the launch by the front end) asks for a 32-, 64- or 128-byte swizzle:
 * the 16-byte chunks of each 128-byte line are permuted (engine/tma.c).
 * A thread that reads the box (or writes what a TMA store reads) with an
 * index that does not apply the same permutation gets another element's
 * bytes: the program computes wrong values, with no error on the GPU.
 * One finding per access, with a thread, the element it reads and the
 * element the copy put there. Accesses with an unknown address are not
 * judged; a map the host code does not show is not checked.
 */
#include <string.h>

#include "engine/tma.h"
#include "rules/explain.h"
#include "rules/messages.h"
#include "rules/rules.h"

#define MAX_FINDINGS 64

/* "tile[r][((c >> 2) ^ (r & 7)) << 2 | (c & 3)]": how a 2-D array of
 * 128-byte rows indexes the swizzled box, or NULL for other shapes. */
static const char *suggest(struct sm_arena *A, const struct sm_array *a, unsigned span)
{
	if (a->ndims != 2 || a->elem_size == 0 || a->elem_size > 16 || (int64_t)a->elem_size * a->dims[1] != 128)
		return NULL;
	unsigned per = 16 / a->elem_size, shift = 0;
	while ((1u << shift) < per)
		shift++;
	unsigned mask = span / 16 - 1;
	if (per == 1)
		return sm_arena_printf(A, "%s[r][c ^ (r & %u)]", a->name, mask);
	return sm_arena_printf(A, "%s[r][(((c >> %u) ^ (r & %u)) << %u) | (c & %u)]", a->name, shift, mask, shift,
			       per - 1);
}

void sm_rule_tma_swizzle(const struct sm_rule_ctx *ctx, struct sm_sink *sink)
{
	struct sm_arena *A = ctx->scratch;
	if (!A)
		return;
	for (unsigned k = 0; k < ctx->file->nkernels; k++) {
		struct sm_kernel_facts *f = &ctx->facts[k];
		const struct sm_kernel *K = ctx->file->kernels[k];
		if (!K->ntensor_copies || !f->resolved)
			continue;
		struct sm_tma_mismatch mm[MAX_FINDINGS];
		int n = sm_tma_mismatches(f, A, mm, MAX_FINDINGS);
		const struct sm_launch_ctx *lc = &f->launch.shape[0];
		for (int i = 0; i < n; i++) {
			const struct sm_raccess *w = &f->model.acc[mm[i].copy], *r = &f->model.acc[mm[i].access];
			bool dup = false; /* one line, one finding (a helper inlined twice, two copies) */
			for (int j = 0; j < i && !dup; j++)
				dup = sm_same_range(f->model.acc[mm[j].access].src->range, r->src->range);
			if (dup)
				continue;
			const struct sm_tensor_map *map = w->src->tmap;
			bool load = r->src->kind == SM_ACC_LOAD;
			const struct sm_array *arr = r->array;
			struct sm_diag g;
			memset(&g, 0, sizeof(g));
			g.rule = SM_RULE_TMA_SWIZZLE;
			g.range = r->src->range;
			g.kernel = K->name;
			g.array = r->name ? r->name : arr->name;
			g.access = r->src->kind;
			g.block = lc->block;
			g.width = r->width;
			sm_diag_set_launch(&g, ctx->file, lc);
			const char *meant = mm[i].meant == mm[i].addr
						    ? ""
						    : sm_arena_printf(A, " (its index, XORs undone, means %s)",
								      sm_element_name(arr, arr->name, mm[i].meant, A));
			const char *iter = mm[i].iter ? sm_arena_printf(A, " in iteration %d of its loop", mm[i].iter) : "";
			g.message = sm_arena_printf(
				A,
				"swizzle mismatch: '%s' is %s a TMA tensor copy with the %u-byte swizzle, but this %s does "
				"not address it that way: %s %s %s%s%s, where the copy %s the box's element %s %s %s",
				arr->name, load ? "filled by" : "stored by", map->swizzle, load ? "read" : "write",
				sm_thread_name(mm[i].tid, lc->block, A), load ? "reads" : "writes",
				sm_element_name(arr, arr->name, mm[i].addr, A), meant, iter, load ? "put" : "takes",
				sm_element_name(arr, arr->name, mm[i].holds, A),
				sm_where_text(A, K->name, r->src->call), sm_launch_text(A, &g.launch));
			g.related[0].range = w->src->range;
			g.related[0].message = sm_arena_printf(A, "the tensor copy %s '%s'", load ? "into" : "out of", arr->name);
			g.related[1].range = map->at;
			g.related[1].message = sm_arena_printf(A, "its tensor map, encoded with CU_TENSOR_MAP_SWIZZLE_%uB",
							       map->swizzle);
			g.related[2].range = arr->decl;
			g.related[2].message = sm_arena_printf(A, "'%s' declared here", arr->name);
			g.nrelated = 3;
			const char *form = suggest(A, arr, map->swizzle);
			g.note = sm_arena_printf(
				A, "address byte o of the box at o ^ (((o >> 7) & %u) << 4), as the copy lays it out%s%s%s, or "
				   "encode the map with CU_TENSOR_MAP_SWIZZLE_NONE",
				map->swizzle / 16 - 1, form ? " (here `" : "", form ? form : "", form ? "`)" : "");
			sm_sink_report(sink, &g);
		}
	}
}

/* What --explain, SARIF and doc/rules.md say about this rule. */
const struct sm_rule_doc sm_doc_tma_swizzle = {
	"TmaSwizzle",
	"A TMA tensor copy (cp.async.bulk.tensor, cuda::ptx::cp_async_bulk_tensor, "
	"cp_async_bulk_tensor_Nd_global_to_shared) whose tensor map asks for a 32-, 64- or 128-byte "
	"swizzle does not store the box row after row: within each 128-byte line it XORs the 16-byte "
	"chunk index with the line's low bits (byte o of the box lands at o ^ (((o >> 7) & 7) << 4) "
	"for the 128-byte swizzle, & 3 for 64 bytes, & 1 for 32). A thread that indexes the tile as "
	"if it were not swizzled, or XORs the wrong bits (the element index instead of the 16-byte "
	"chunk), reads another element's bytes; a thread that writes a tile a TMA store then reads "
	"must lay it out the same way. Nothing fails on the GPU: the results are wrong. smemlint "
	"reads the swizzle from the cuTensorMapEncodeTiled call that encodes the launch's map, and "
	"names a thread, the element it addresses and the element the copy put there.",
	"__shared__ alignas(1024) float tile[32][32];   // map encoded with CU_TENSOR_MAP_SWIZZLE_128B\n"
	"... cp_async_bulk_tensor(space_cluster, space_global, &tile[0][0], &map, at, &bar) ...\n"
	"out[c * 32 + r] = tile[r][c];                  // reads the box as if unswizzled\n",
	"Address the tile as the copy lays it out: for 4-byte elements in 128-byte rows, "
	"tile[r][(((c >> 2) ^ (r & 7)) << 2) | (c & 3)]; or encode the map with "
	"CU_TENSOR_MAP_SWIZZLE_NONE (at the price of the bank conflicts the swizzle removes).",
};
