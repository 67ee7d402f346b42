/* out_of_bounds.c - rule `shared-out-of-bounds`.
 *
 * Models: the bytes a thread touches with one shared-memory access, against
 * the extent of its array: the declared size of a static array, or for an
 * `extern __shared__` array the dynamic size its launch asks for (the
 * launch's third parameter); a pointer carved out of the buffer
 * (`float *b = buf + 2 * n`) counts from the buffer's start. The addresses
 * are the ones the bank model already enumerates (engine/bank.c: every
 * warp, lane and loop iteration the access runs in); a thread outside the
 * extent is reported only when it certainly runs the access there: the
 * address reads no unknown value (a parameter no launch fixes, blockIdx, a
 * load), its guards and loop conditions are each decided true for it, and
 * the block shape is one the program launches with (a launch site,
 * --block-dim, the config; not an assumed shape or __launch_bounds__'s
 * bound). Unknown values therefore never make a finding: out-of-bounds
 * only for some values of them is not reported (the bank finding of such
 * an access says that tries outside the array were left out of its degree).
 * One finding per access (per line, for a helper inlined twice), with a
 * witness: the thread, the loop counters, the bytes, the extent and the
 * launch (engine/facts.c keeps the first context that shows it).
 */
#include <string.h>

#include "rules/explain.h"
#include "rules/messages.h"
#include "rules/rules.h"

static const char *verb(int kind)
{
	return kind == SM_ACC_STORE ? "writes" : kind == SM_ACC_ATOMIC ? "updates" : "reads";
}

/* ", when i = 40, j = 3": the loop counters of the witness. */
static const char *counters(struct sm_arena *A, const struct sm_oob *o)
{
	const char *s = "";
	for (int i = 0; i < o->niv; i++)
		s = sm_arena_printf(A, "%s%s %s = %lld", s, i ? "," : ", when", o->iv[i]->var ? o->iv[i]->var->name : "?",
				    (long long)o->iv_value[i]);
	return s;
}

/* "the array's 1024 bytes" or "the 4096 dynamic bytes the launch asks for". */
static const char *extent_text(struct sm_arena *A, const struct sm_array *arr, const struct sm_oob *o)
{
	if (arr->is_dynamic)
		return sm_arena_printf(A, "the %lld bytes of dynamic shared memory the launch asks for",
				       (long long)o->extent);
	return sm_arena_printf(A, "its %lld bytes", (long long)o->extent);
}

/* A shared variable that holds a pointer (`__shared__ float *sp; sp = a;
 * sp[i]`): the access reaches the array it points to, not its own bytes,
 * and the front end records the variable. Not checked. */
static bool through_stored_pointer(const struct sm_raccess *ra)
{
	const struct sm_array *a = ra->array;
	return (a->ndims == 0 && ra->src->nidx > 0) || (a->elem_type && strchr(a->elem_type, '*'));
}

void sm_rule_shared_out_of_bounds(const struct sm_rule_ctx *ctx, struct sm_sink *sink)
{
	struct sm_arena *A = ctx->scratch;
	for (unsigned k = 0; k < ctx->file->nkernels; k++) {
		struct sm_kernel_facts *f = &ctx->facts[k];
		const struct sm_kernel_model *m = &f->model;
		const struct sm_access_result *res = sm_kernel_facts_degrees(f);
		if (!res)
			continue;
		for (unsigned i = 0; i < m->nacc; i++) {
			const struct sm_raccess *ra = &m->acc[i];
			const struct sm_oob *o = &res[i].oob;
			if (!o->found || !ra->src || !ra->array || !res[i].oob_ctx || through_stored_pointer(ra))
				continue;
			bool dup = false; /* one line, one finding (a helper inlined twice) */
			for (unsigned j = 0; j < i && !dup; j++)
				dup = res[j].oob.found && m->acc[j].src && m->acc[j].src->kind == ra->src->kind &&
				      sm_same_range(m->acc[j].src->range, ra->src->range);
			if (dup)
				continue;
			const struct sm_launch_ctx *lc = res[i].oob_ctx;
			struct sm_diag g;
			memset(&g, 0, sizeof(g));
			g.rule = SM_RULE_SHARED_OUT_OF_BOUNDS;
			g.range = ra->src->range;
			g.kernel = m->kernel->name;
			g.array = ra->name ? ra->name : ra->array->name;
			g.access = ra->src->kind;
			g.block = lc->block;
			g.width = o->width;
			g.witness.set = true;
			memcpy(g.witness.thread, o->tid, sizeof(g.witness.thread));
			g.witness.offset = o->offset;
			g.witness.extent = o->extent;
			sm_diag_set_launch(&g, ctx->file, lc);
			const char *where = o->offset < 0 ? "before the start of" : "past the end of";
			g.message = sm_arena_printf(
				A, "out-of-bounds %s '%s'%s: %s %s bytes %lld..%lld, %s %s%s %s %s",
				ra->src->kind == SM_ACC_STORE ? "store to" : ra->src->kind == SM_ACC_ATOMIC ? "atomic on" : "load from",
				g.array,
				strcmp(g.array, ra->array->name) ? sm_arena_printf(A, " (in '%s')", ra->array->name) : "",
				sm_thread_name(o->tid, lc->block, A), verb(ra->src->kind), (long long)o->offset,
				(long long)(o->offset + (int64_t)o->width - 1), where, extent_text(A, ra->array, o),
				counters(A, o), sm_where_text(A, m->kernel->name, ra->src->call), sm_launch_text(A, &g.launch));
			g.related[0].range = ra->array->decl;
			g.related[0].message = sm_arena_printf(A, "'%s' declared here", ra->array->name);
			g.nrelated = 1;
			if (ra->array->is_dynamic && lc->site && g.nrelated < SM_MAX_RELATED) {
				g.related[g.nrelated].range = lc->site->range;
				g.related[g.nrelated].message = sm_arena_printf(A, "the launch that asks for %lld bytes",
										 (long long)o->extent);
				g.nrelated++;
			}
			g.note = ra->array->is_dynamic
					 ? "ask the launch for enough dynamic shared memory (its third parameter), or bound the index"
					 : "enlarge the array or bound the index (a guard such as `if (i < N)`)";
			sm_sink_report(sink, &g);
		}
	}
}

/* What --explain, SARIF and doc/rules.md say about this rule. */
const struct sm_rule_doc sm_doc_shared_out_of_bounds = {
	"SharedOutOfBounds",
	"A thread reads or writes shared memory outside its array: past the declared size of a "
	"static array, or past the dynamic shared memory the launch asks for (its third parameter) "
	"for an extern __shared__ array and the pointers carved out of it. The hardware does not "
	"stop it: the access lands in another array of the block or faults only for some launch "
	"sizes (compute-sanitizer --tool memcheck reports it on the GPU). smemlint reports it only "
	"when a thread certainly makes the access under a launch the program makes: the address reads "
	"no unknown value and the thread's guards and loop conditions are decided; the finding names "
	"the thread, the loop counters, the bytes, the extent and the launch.",
	"__shared__ float s[256];\n"
	"s[threadIdx.x] = in[i];   // launched with 512 threads: threads 256..511 write past s\n",
	"Make the array as large as the threads that index it (or size the dynamic shared memory of "
	"the launch to the carve-ups it holds), or guard the access with the bound.",
};
