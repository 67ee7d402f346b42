/* padding.c - search the fix that removes an array's bank conflicts.
 *
 * For an array with a conflicting access, try padding its last declared
 * dimension by 1..32 elements and re-evaluate EVERY access of the array in
 * the kernel with the engine, under every block shape the kernel runs with.
 * A pad is admissible only if no access gets worse and vector accesses stay
 * aligned; the best one minimizes the worst degree, then the bytes added.
 * When padding cannot reach conflict-free (1-D arrays, vector accesses that
 * need alignment, dynamic shared memory), the conflict-free offset form
 * e + (e >> 5) and XOR swizzles of the last index are tried, verified the
 * same way. Nothing is suggested that the engine has not checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "engine/fix.h"


/* The CUDA programming guide's table of compute capabilities: shared
 * memory per SM, the most one block may use (with the opt-in of
 * cudaFuncSetAttribute past 48 KB), threads and blocks per SM. */
struct arch_limits {
	const char *arch;
	int64_t smem_per_sm;
	int64_t smem_per_block;
	int threads_per_sm;
	int blocks_per_sm;
};

static const struct arch_limits archs[] = {
	{ "sm_70", 96 * 1024, 96 * 1024, 2048, 32 },    { "sm_72", 96 * 1024, 96 * 1024, 2048, 32 },
	{ "sm_75", 64 * 1024, 64 * 1024, 1024, 16 },    { "sm_80", 164 * 1024, 163 * 1024, 2048, 32 },
	{ "sm_86", 100 * 1024, 99 * 1024, 1536, 16 },   { "sm_87", 164 * 1024, 163 * 1024, 2048, 32 },
	{ "sm_89", 100 * 1024, 99 * 1024, 1536, 24 },   { "sm_90", 228 * 1024, 227 * 1024, 2048, 32 },
	{ "sm_100", 228 * 1024, 227 * 1024, 2048, 32 }, { "sm_103", 228 * 1024, 227 * 1024, 2048, 32 },
	{ "sm_120", 100 * 1024, 99 * 1024, 1536, 32 },
};

static const struct arch_limits *arch_of(const char *arch)
{
	const struct arch_limits *L = NULL;
	for (unsigned i = 0; i < sizeof(archs) / sizeof(archs[0]); i++)
		if (arch && !strncmp(arch, archs[i].arch, strlen(archs[i].arch)) &&
		    (arch[strlen(archs[i].arch)] == 0 || arch[strlen(archs[i].arch)] == 'a'))
			L = &archs[i];
	return L;
}

int64_t sm_arch_block_smem(const char *arch)
{
	const struct arch_limits *L = arch_of(arch);
	return L ? L->smem_per_block : -1;
}

int sm_resident_blocks(const char *arch, int64_t threads, int64_t smem)
{
	const struct arch_limits *L = arch_of(arch);
	if (!L || threads <= 0)
		return -1;
	int64_t b = L->blocks_per_sm;
	int64_t bt = L->threads_per_sm / threads;
	if (bt < b)
		b = bt;
	/* the driver reserves 1 KB of shared memory per resident block */
	int64_t bs = L->smem_per_sm / (smem + 1024);
	if (bs < b)
		b = bs;
	return (int)b;
}

static int64_t array_bytes(const struct sm_array *a, const int64_t *dims)
{
	if (a->is_dynamic || a->dims_overflow)
		return 0;
	int64_t n = a->elem_size;
	for (int i = 0; i < a->ndims; i++)
		n *= (dims ? dims[i] : a->dims[i]);
	return n;
}

struct eval {
	const struct sm_kernel_model *m;
	const struct sm_array *arr;
	const struct sm_dim3 *blocks;
	int nb;
	unsigned *order;  /* the array's accesses (indices into m->acc), the
	                   * one that last turned a layout down first: a
	                   * candidate is mostly turned down by the access that
	                   * turned down the one before */
	unsigned n;       /* entries in order */
	struct sm_work *work; /* the file's analysis budget (NULL: none) */
};

/* Worst degree of access i under the layout that a layout can change,
 * over all block shapes; -1 when it cannot be analyzed. */
static double access_worst(const struct eval *E, const struct sm_raccess *ra, const struct sm_layout *lay)
{
	double w = 0;
	for (int b = 0; b < E->nb; b++) {
		struct sm_degree d;
		sm_access_degree_layout(ra, E->blocks[b], lay, E->work, &d);
		if (!d.analyzed)
			return -1;
		/* what a layout changes: a cp.async's pieces beyond one a
		 * global line (sm_degree.layout_worst) */
		double dw = d.layout_worst > 0 ? d.layout_worst : d.worst;
		if (dw > w)
			w = dw;
	}
	return w;
}

/* Evaluate a layout: worst over accesses; fails (returns -1) if any access
 * gets worse than before[] or reaches bound (the layout cannot win). */
static double layout_worst(struct eval *E, const double *before, const struct sm_layout *lay, double bound,
			   int *fixed)
{
	double worst = 0;
	int f = 0;
	for (unsigned j = 0; j < E->n; j++) {
		unsigned i = E->order[j];
		double w = access_worst(E, &E->m->acc[i], lay);
		if (w < 0 || w > before[i] + 1e-9 || w >= bound) {
			memmove(E->order + 1, E->order, j * sizeof(*E->order));
			E->order[0] = i;
			return -1;
		}
		if (before[i] >= 2 - 1e-9 && w < 2 - 1e-9)
			f++;
		if (w > worst)
			worst = w;
	}
	*fixed = f;
	return worst;
}

/* Does layout lay beat *best (the worst degree so far) without making any
 * access worse? Then it becomes the best, fixing *best_fixed accesses. */
static bool try_layout(struct eval *E, const double *before, const struct sm_layout *lay, double *best,
		       int *best_fixed)
{
	int fixed = 0;
	double w = layout_worst(E, before, lay, *best - 1e-9, &fixed);
	if (w < 0)
		return false;
	*best = w;
	*best_fixed = fixed;
	return true;
}

/* The chunk swizzle of a vector tile: chunks of width bytes (2^shift
 * elements) in a row, the chunk index XORed with the row's low bits over
 * at most 128 bytes' worth of chunks (the banks' width); mask 0 when
 * none applies, it makes some access worse or an access reaches bound. */
struct chunk_swizzle {
	int64_t mask;
	int shift;
	double worst;
	int fixed;
};

static struct chunk_swizzle chunk_swizzle(struct eval *E, const double *before, const struct sm_array *arr,
					  unsigned width, double bound)
{
	struct chunk_swizzle cs = { 0 };
	unsigned per = width / arr->elem_size; /* elements a chunk */
	int shift = 0;
	while ((1u << shift) < per)
		shift++;
	int64_t last = arr->dims[arr->ndims - 1];
	if ((1u << shift) != per || last % per)
		return cs;
	int64_t chunks = last / per, per128 = 128 / width;
	int64_t period = chunks < per128 ? chunks : per128;
	if (period < 2 || (period & (period - 1)) || chunks % period)
		return cs;
	struct sm_layout lay = { .swizzle_mask = period - 1, .swizzle_shift = shift };
	int fixed = 0;
	double w = layout_worst(E, before, &lay, bound, &fixed);
	if (w < 0)
		return cs;
	cs.mask = period - 1;
	cs.shift = shift;
	cs.worst = w;
	cs.fixed = fixed;
	return cs;
}

/* "write every access `t[r][c]` as `t[r][c ^ ((r & 7) << 3)]` (CuTe
 * Swizzle<3,3,3> of its element offset)": the CuTe form where the row
 * length is a power of two. */
static const char *chunk_text(struct sm_arena *A, const struct sm_array *arr, int64_t mask, int shift)
{
	const char *n = arr->name;
	int64_t last = arr->dims[arr->ndims - 1];
	int b = 0, rowbits = 0;
	while ((1ll << b) <= mask)
		b++;
	while ((1ll << rowbits) < last)
		rowbits++;
	const char *cute = (1ll << rowbits) == last && rowbits > shift
		? sm_arena_printf(A, " (CuTe Swizzle<%d,%d,%d> of its element offset)", b, shift, rowbits - shift) : "";
	return sm_arena_printf(A, "write every access `%s[r][c]` as `%s[r][c ^ ((r & %lld) << %d)]`%s", n, n, (long long)mask,
			       shift, cute ? cute : "");
}

/* The new dims text: the spelled last extent plus the pad, e.g.
 * "[TILE][TILE]" -> "[TILE][TILE + 1]", "[32][32]" -> "[32][33]". */
static const char *new_dims_text(const struct sm_array *arr, int64_t pad, const char *text, size_t len,
				 struct sm_arena *A)
{
	struct sm_range r = arr->dims_range;
	if (r.begin.line != r.end.line)
		return NULL;
	size_t n;
	const char *s = sm_text_span(text, len, r.begin.line, r.begin.col, r.end.line, r.end.col, &n);
	if (!s)
		return NULL;
	/* find the last top-level '[' */
	size_t last = n;
	int depth = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '[') {
			if (depth == 0)
				last = i;
			depth++;
		} else if (s[i] == ']') {
			depth--;
		}
	}
	if (last >= n || s[n - 1] != ']')
		return NULL;
	const char *inner = s + last + 1;
	size_t in = n - last - 2;
	int all_digits = in > 0;
	for (size_t i = 0; i < in; i++)
		if (inner[i] < '0' || inner[i] > '9')
			all_digits = 0;
	if (all_digits)
		return sm_arena_printf(A, "%.*s[%lld]", (int)last, s, (long long)(arr->dims[arr->ndims - 1] + pad));
	return sm_arena_printf(A, "%.*s[%.*s + %lld]", (int)last, s, (int)in, inner, (long long)pad);
}

static const char *decl_text(const struct sm_array *arr, const int64_t *dims, struct sm_arena *A)
{
	char buf[256];
	size_t n = (size_t)snprintf(buf, sizeof(buf), "%s %s", arr->elem_type, arr->name);
	for (int i = 0; i < arr->ndims && n < sizeof(buf) - 24; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "[%lld]", (long long)dims[i]);
	return sm_arena_strdup(A, buf);
}

int64_t sm_kernel_static_smem(const struct sm_kernel *k)
{
	int64_t stat = 0;
	for (unsigned i = 0; i < k->narrays; i++)
		stat += array_bytes(k->arrays[i], NULL);
	return stat;
}

struct ranked {
	double before;
	unsigned i;
};

static int worse_first(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->before != y->before)
		return x->before < y->before ? 1 : -1;
	return x->i < y->i ? -1 : x->i > y->i;
}

int sm_fix_search(const struct sm_fix_query *q, struct sm_arena *A, struct sm_fix_plan *out)
{
	memset(out, 0, sizeof(*out));
	const struct sm_kernel_model *m = q->m;
	const struct sm_array *arr = q->arr;
	const char *arch = q->arch;
	struct sm_dim3 blocks[SM_MAX_BLOCK_SHAPES];
	int nblocks = q->nshapes < SM_MAX_BLOCK_SHAPES ? q->nshapes : SM_MAX_BLOCK_SHAPES;
	sm_launch_shapes(q->shapes, nblocks, blocks);
	double *before = sm_arena_alloc(A, (m->nacc + 1) * sizeof(double));
	unsigned *order = sm_arena_alloc(A, (m->nacc + 1) * sizeof(unsigned));
	if (!before || !order)
		return -1;
	struct eval Ev = { m, arr, blocks, nblocks, order, 0, q->work };
	struct eval *E = &Ev;
	unsigned max_width = arr->elem_size;
	for (unsigned i = 0; i < m->nacc; i++) {
		const struct sm_raccess *ra = &m->acc[i];
		before[i] = -1;
		if (!ra->src || ra->src->in_flight || !ra->ok || ra->array != arr)
			continue;
		before[i] = access_worst(E, ra, NULL);
		if (before[i] >= 0)
			order[E->n++] = i;
		if (before[i] > out->worst_before)
			out->worst_before = before[i];
		if (before[i] >= 2 - 1e-9)
			out->conflicting++;
		if (ra->width > max_width)
			max_width = ra->width;
	}
	if (out->conflicting == 0)
		return 0;
	/* a box a TMA tensor copy lays out: its layout is the tensor map's
	 * (rows of the box's width, the map's swizzle), so neither padding nor
	 * an element swizzle of the array keeps its meaning */
	for (unsigned i = 0; i < m->nacc; i++) {
		const struct sm_raccess *ra = &m->acc[i];
		if (ra->ok && ra->array == arr && ra->src && ra->src->tensor) {
			const struct sm_tensor_map *map = ra->src->tmap;
			out->note = map && map->swizzle == 128
					    ? sm_arena_printf(A, "'%s' is laid out by the TMA tensor copy on line %u, already "
								 "with the 128-byte swizzle: no layout of the array helps",
							      arr->name, ra->src->range.begin.line)
					    : sm_arena_printf(A, "'%s' is laid out by the TMA tensor copy on line %u: padding "
								 "or swizzling the array would break its box; encode the "
								 "map with a swizzle (CU_TENSOR_MAP_SWIZZLE_128B) and index "
								 "the tile as it lays it out",
							      arr->name, ra->src->range.begin.line);
			return 0;
		}
	}
	/* the worst accesses first: a layout that does not bring them under
	 * the worst degree is turned down at once */
	struct ranked *rk = sm_arena_alloc(A, (E->n + 1) * sizeof(*rk));
	if (!rk)
		return -1;
	for (unsigned j = 0; j < E->n; j++)
		rk[j] = (struct ranked){ before[order[j]], order[j] };
	qsort(rk, E->n, sizeof(*rk), worse_first);
	for (unsigned j = 0; j < E->n; j++)
		order[j] = rk[j].i;

	/* the kernel's static shared memory and its threads */
	int64_t stat = sm_kernel_static_smem(m->kernel);
	if (arr->is_file_scope)
		stat += array_bytes(arr, NULL);
	int64_t threads = blocks[0].x * blocks[0].y * blocks[0].z;

	double best = out->worst_before;
	int best_fixed = 0;
	/* 1. padding of the last dimension */
	if (arr->ndims >= 2 && !arr->is_dynamic && !arr->dims_overflow) {
		int64_t dims[SM_MAX_DIMS];
		for (int64_t p = 1; p <= SM_MAX_PAD && !sm_work_over(E->work); p++) {
			memcpy(dims, arr->dims, sizeof(dims));
			dims[arr->ndims - 1] += p;
			/* vector accesses need every row to stay aligned */
			if ((dims[arr->ndims - 1] * (int64_t)arr->elem_size) % max_width)
				continue;
			struct sm_layout lay = { .dims = dims };
			if (!try_layout(E, before, &lay, &best, &best_fixed))
				continue;
			out->kind = SM_FIX_PAD;
			out->pad = p;
			memcpy(out->new_dims, dims, sizeof(dims));
			if (best < 1 + 1e-9)
				break;
		}
	}
	/* 2. the offset form for 1-D arrays (and where padding fell short) */
	if (best > 1 + 1e-9 && arr->ndims == 1 && arr->elem_size <= 4) {
		struct sm_layout lay = { .offset_shift = 5 };
		if (try_layout(E, before, &lay, &best, &best_fixed))
			out->kind = SM_FIX_OFFSET;
	}
	/* 3. an XOR swizzle of the last index by the previous one */
	if (best > 1 + 1e-9 && arr->ndims >= 2) {
		int64_t last = arr->dims[arr->ndims - 1];
		int64_t per128 = 128 / (arr->elem_size ? arr->elem_size : 4);
		int64_t period = last < per128 ? last : per128;
		if (period >= 2 && (period & (period - 1)) == 0 && last % period == 0) {
			struct sm_layout lay = { .swizzle_mask = period - 1 };
			if (try_layout(E, before, &lay, &best, &best_fixed)) {
				out->kind = SM_FIX_SWIZZLE;
				out->swizzle_mask = period - 1;
			}
		}
	}
	/* 4. vector tiles (16-byte ldmatrix rows, cp.async, float4): an XOR
	 * swizzle of whole chunks, tried even where a pad works, since it
	 * costs no memory (and keeps TMA's and ldmatrix's layouts) */
	struct chunk_swizzle cs = { 0 };
	if (arr->ndims >= 2 && max_width > arr->elem_size)
		/* of use only if it beats best, or is conflict-free beside a pad */
		cs = chunk_swizzle(E, before, arr, max_width, best - 1e-9 > 1 + 1e-9 ? best - 1e-9 : 1 + 1e-9);
	if (cs.mask && cs.worst < best - 1e-9) {
		best = cs.worst;
		best_fixed = cs.fixed;
		out->kind = SM_FIX_SWIZZLE;
		out->swizzle_mask = cs.mask;
		out->swizzle_shift = cs.shift;
	}
	out->worst_after = best;
	out->fixed = best_fixed;
	if (out->kind == SM_FIX_NONE)
		return 0;

	const char *name = arr->name;
	if (out->kind == SM_FIX_PAD) {
		out->static_before = stat;
		out->bytes_added = array_bytes(arr, out->new_dims) - array_bytes(arr, NULL);
		out->static_after = stat + out->bytes_added;
		out->crosses_48k = out->static_before <= 48 * 1024 && out->static_after > 48 * 1024;
		out->blocks_before = sm_resident_blocks(arch, threads, out->static_before);
		out->blocks_after = sm_resident_blocks(arch, threads, out->static_after);
		out->decl = decl_text(arr, out->new_dims, A);
		out->dims_text = new_dims_text(arr, out->pad, q->text, q->len, A);
		if (arr->sizeof_taken)
			out->refuse = sm_arena_printf(A, "sizeof is applied to '%s', so the code depends on its size", name);
		else if (arr->address_taken)
			out->refuse = sm_arena_printf(A, "a pointer into '%s' is formed, so the code may depend on its row size", name);
		else if (arr->is_file_scope)
			out->refuse = sm_arena_printf(A, "'%s' is declared at file scope and may be used by other kernels", name);
		else if (!out->dims_text)
			out->refuse = sm_arena_printf(A, "the dimensions of '%s' are not spelled on one line of this file", name);
		const char *limits = "";
		if (out->crosses_48k)
			limits = "; this crosses the 48 KB static shared-memory limit";
		else if (out->blocks_after >= 0 && out->blocks_after < out->blocks_before)
			limits = sm_arena_printf(A, "; resident blocks per SM on %s drop from %d to %d", arch,
						 out->blocks_before, out->blocks_after);
		out->note = sm_arena_printf(A, "declare '%s' as `%s`: +%lld bytes per block (%lld -> %lld bytes of static shared memory); %d of %d conflicting accesses become conflict-free%s%s%s%s",
					    name, out->decl, (long long)out->bytes_added, (long long)out->static_before,
					    (long long)out->static_after, out->fixed, out->conflicting,
					    best > 1 + 1e-9 ? sm_arena_printf(A, ", worst degree %.0f", best) : "", limits,
					    out->refuse ? "; --fix will not apply it: " : "", out->refuse ? out->refuse : "");
	} else if (out->kind == SM_FIX_OFFSET) {
		out->note = sm_arena_printf(A, "index '%s' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): %d of %d conflicting accesses become conflict-free",
					    name, out->fixed, out->conflicting);
	} else if (out->swizzle_shift) {
		out->note = sm_arena_printf(A, "swizzle '%s' by %u-byte chunks: %s: %d of %d conflicting accesses become conflict-free (verified)",
					    name, arr->elem_size << out->swizzle_shift, chunk_text(A, arr, out->swizzle_mask, out->swizzle_shift),
					    out->fixed, out->conflicting);
	} else {
		if (sm_fix_swizzle_edits(q, A, out))
			return -1;
		out->note = sm_arena_printf(A, "swizzle '%s': write every access `%s[r][c]` as `%s[r][c ^ (r & %lld)]`: %d of %d conflicting accesses become conflict-free (verified)%s%s",
					    name, name, name, (long long)out->swizzle_mask, out->fixed, out->conflicting,
					    out->refuse ? "; --fix will not apply it: " : "", out->refuse ? out->refuse : "");
	}
	if (out->kind == SM_FIX_PAD && cs.mask && cs.worst < 1 + 1e-9)
		out->note = sm_arena_printf(A, "%s; or, with no extra memory, swizzle '%s' by %u-byte chunks: %s (verified)", out->note,
					    name, arr->elem_size << cs.shift, chunk_text(A, arr, cs.mask, cs.shift));
	return 0;
}
