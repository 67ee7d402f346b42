/* analyze.c - the per-file pipeline (see analyze.h). */
#include "smemlint/analyze.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *sm_level_name(enum sm_level l)
{
	switch (l) {
	case SM_LEVEL_ERROR: return "error";
	case SM_LEVEL_WARNING: return "warning";
	case SM_LEVEL_NOTE: return "note";
	default: return "none";
	}
}

void sm_analysis_options_init(struct sm_analysis_options *o)
{
	memset(o, 0, sizeof(*o));
	o->arch = "sm_90";
	o->fe.gpu_arch = "sm_90";
	for (int i = 0; i < SM_RULE__COUNT; i++)
		o->levels[i] = sm_rules[i].level;
	/* test hook: a lower IR limit, to exercise partial results cheaply */
	const char *lim = getenv("SMEMLINT_TEST_ARENA_LIMIT");
	if (lim && *lim)
		o->ir_arena_limit = (size_t)strtoull(lim, NULL, 10);
}

void sm_result_init(struct sm_result *r, const char *path)
{
	memset(r, 0, sizeof(*r));
	sm_arena_init(&r->arena, 0);
	r->path = sm_arena_strdup(&r->arena, path);
}

void sm_result_free(struct sm_result *r)
{
	free(r->diags);
	free(r->acc);
	free(r->notes);
	sm_arena_release(&r->arena);
	memset(r, 0, sizeof(*r));
}

static int grow(void **p, unsigned *cap, unsigned n, size_t sz)
{
	if (n < *cap)
		return 0;
	unsigned nc = *cap ? *cap * 2 : 16;
	void *np = realloc(*p, nc * sz);
	if (!np)
		return -1;
	*p = np;
	*cap = nc;
	return 0;
}

void sm_result_note(struct sm_result *r, enum sm_level level, struct sm_pos pos, const char *fmt, ...)
{
	if (grow((void **)&r->notes, &r->cap_notes, r->nnotes, sizeof(*r->notes)))
		return;
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	struct sm_notification *n = &r->notes[r->nnotes++];
	n->level = level;
	n->pos = pos;
	n->message = sm_arena_strdup(&r->arena, buf);
	if (level == SM_LEVEL_ERROR)
		r->input_error = true;
}

static void sink_report(struct sm_sink *sink, const struct sm_diag *d)
{
	struct sm_result *r = sink->ctx;
	if (grow((void **)&r->diags, &r->cap_diags, r->ndiags, sizeof(*r->diags)))
		return;
	struct sm_arena *A = &r->arena;
	struct sm_diag c = *d;
	c.message = sm_arena_strdup(A, d->message);
	c.note = sm_arena_strdup(A, d->note);
	c.kernel = sm_arena_strdup(A, d->kernel);
	c.array = sm_arena_strdup(A, d->array);
	for (int i = 0; i < d->nrelated && i < SM_MAX_RELATED; i++)
		c.related[i].message = sm_arena_strdup(A, d->related[i].message);
	c.fix.text = sm_arena_strdup(A, d->fix.text);
	c.fix_refused = sm_arena_strdup(A, d->fix_refused);
	if (d->bank_addr) {
		int64_t *b = sm_arena_alloc(A, SM_WARP * sizeof(int64_t));
		if (b)
			memcpy(b, d->bank_addr, SM_WARP * sizeof(int64_t));
		c.bank_addr = b;
	}
	r->diags[r->ndiags++] = c;
}

struct sm_sink sm_result_sink(struct sm_result *r)
{
	struct sm_sink s = { sink_report, r };
	return s;
}

static int cmp_pos(struct sm_pos a, struct sm_pos b)
{
	if (a.line != b.line)
		return a.line < b.line ? -1 : 1;
	if (a.col != b.col)
		return a.col < b.col ? -1 : 1;
	return 0;
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_diag(const void *pa, const void *pb)
{
	const struct sm_diag *a = pa, *b = pb;
	int c;
	if ((c = cmp_pos(a->range.begin, b->range.begin)))
		return c;
	if (a->rule != b->rule)
		return a->rule < b->rule ? -1 : 1;
	if ((c = cmp_pos(a->range.end, b->range.end)))
		return c;
	if (a->access != b->access)
		return a->access < b->access ? -1 : 1;
	if ((c = cmp_str(a->kernel, b->kernel)))
		return c;
	if ((c = cmp_str(a->message, b->message)))
		return c;
	return cmp_str(a->note, b->note);
}

static int cmp_acc(const void *pa, const void *pb)
{
	const struct sm_access_record *a = pa, *b = pb;
	int c;
	if ((c = cmp_pos(a->range.begin, b->range.begin)))
		return c;
	if ((c = cmp_pos(a->range.end, b->range.end)))
		return c;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return cmp_str(a->kernel, b->kernel);
}

void sm_result_sort(struct sm_result *r)
{
	if (r->ndiags > 1)
		qsort(r->diags, r->ndiags, sizeof(*r->diags), cmp_diag);
	if (r->nacc > 1)
		qsort(r->acc, r->nacc, sizeof(*r->acc), cmp_acc);
}

/* ---- reading ---- */

static int looks_binary(const char *t, size_t n)
{
	size_t lim = n < 65536 ? n : 65536;
	return memchr(t, 0, lim) != NULL;
}

static int has_cuda_ext(const char *path)
{
	const char *dot = strrchr(path, '.');
	const char *slash = strrchr(path, '/');
	if (!dot || (slash && dot < slash))
		return 0;
	return !strcmp(dot, ".cu") || !strcmp(dot, ".cuh");
}

int sm_analyze_path(struct sm_frontend *fe, const char *path, const struct sm_analysis_options *opt,
		    struct sm_result *r)
{
	sm_result_init(r, path);
	struct sm_pos p0 = { 0, 0 };
	struct stat st;
	if (stat(path, &st) != 0) {
		sm_result_note(r, SM_LEVEL_ERROR, p0, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		sm_result_note(r, SM_LEVEL_ERROR, p0, "'%s' is a directory", path);
		return -1;
	}
	if (!has_cuda_ext(path)) {
		sm_result_note(r, SM_LEVEL_ERROR, p0, "not a CUDA source file: '%s' (expected .cu or .cuh)", path);
		return -1;
	}
	if (st.st_size > (off_t)SM_MAX_FILE_BYTES) {
		sm_result_note(r, SM_LEVEL_ERROR, p0, "file too large: '%s' is %lld bytes (limit %u)", path,
			       (long long)st.st_size, SM_MAX_FILE_BYTES);
		return -1;
	}
	FILE *f = fopen(path, "rb");
	if (!f) {
		sm_result_note(r, SM_LEVEL_ERROR, p0, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	size_t cap = (size_t)st.st_size + 1, n = 0;
	char *buf = malloc(cap + 1);
	if (!buf) {
		fclose(f);
		sm_result_note(r, SM_LEVEL_ERROR, p0, "out of memory reading '%s'", path);
		return -1;
	}
	for (;;) {
		if (n == cap) {
			if (cap >= SM_MAX_FILE_BYTES + 1)
				break;
			cap *= 2;
			char *nb = realloc(buf, cap + 1);
			if (!nb)
				break;
			buf = nb;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		if (got == 0)
			break;
		n += got;
	}
	int rerr = ferror(f);
	fclose(f);
	if (rerr) {
		free(buf);
		sm_result_note(r, SM_LEVEL_ERROR, p0, "cannot read '%s': read error", path);
		return -1;
	}
	/* keep the result's path; analyze the buffer */
	struct sm_result tmp;
	int rc = sm_analyze_buffer(fe, path, buf, n, opt, &tmp);
	free(buf);
	sm_result_free(r);
	*r = tmp;
	return rc;
}

static void run_rules(const struct sm_file *F, const struct sm_analysis_options *opt, struct sm_arena *A,
		      struct sm_result *r)
{
	struct sm_kernel_model *models = sm_arena_alloc(A, (F->nkernels + 1) * sizeof(*models));
	struct sm_access_result **results = sm_arena_alloc(A, (F->nkernels + 1) * sizeof(*results));
	if (!models || !results)
		return;
	for (unsigned i = 0; i < F->nkernels; i++) {
		struct sm_kernel *K = F->kernels[i];
		if (sm_resolve_kernel(K, A, &models[i]) != 0)
			sm_result_note(r, SM_LEVEL_WARNING, K->range.begin,
				       "kernel '%s' is too large to analyze completely", K->name);
		results[i] = sm_arena_alloc(A, (models[i].nacc + 1) * sizeof(struct sm_access_result));
		if (!results[i])
			return;
		struct sm_dim3 blocks[8];
		bool assumed;
		int nb = sm_kernel_blocks(K, opt, blocks, 8, &assumed);
		for (unsigned a = 0; a < models[i].nacc; a++) {
			struct sm_access_result *ar = &results[i][a];
			const struct sm_raccess *ra = &models[i].acc[a];
			for (int b = 0; b < nb; b++) {
				struct sm_degree d;
				sm_access_degree(ra, blocks[b], NULL, A, &d);
				if (b == 0 || (d.analyzed && (!ar->deg.analyzed || d.worst > ar->deg.worst))) {
					ar->deg = d;
					ar->block = blocks[b];
					ar->block_assumed = assumed;
				}
			}
			if (opt->all_accesses && ra->src && !grow((void **)&r->acc, &r->cap_acc, r->nacc, sizeof(*r->acc))) {
				struct sm_access_record *rec = &r->acc[r->nacc++];
				memset(rec, 0, sizeof(*rec));
				rec->range = ra->src->range;
				rec->kernel = sm_arena_strdup(&r->arena, K->name);
				rec->array = sm_arena_strdup(&r->arena, ra->name ? ra->name : ra->array ? ra->array->name : "?");
				rec->kind = ra->src->kind;
				rec->width = ra->width;
				rec->analyzed = ar->deg.analyzed;
				rec->why = sm_arena_strdup(&r->arena, ar->deg.why);
				rec->worst = ar->deg.worst;
				rec->mean = ar->deg.mean;
			}
		}
	}
	struct sm_rule_ctx ctx = { F, models, results, A, opt };
	struct sm_sink sink = sm_result_sink(r);
	for (int i = 0; i < SM_RULE__COUNT; i++) {
		if (opt->levels[i] == SM_LEVEL_NONE)
			continue;
		unsigned before = r->ndiags;
		sm_rules[i].run(&ctx, &sink);
		for (unsigned j = before; j < r->ndiags; j++)
			r->diags[j].level = opt->levels[i];
	}
}

int sm_analyze_buffer(struct sm_frontend *fe, const char *path, const char *text, size_t len,
		      const struct sm_analysis_options *opt, struct sm_result *r)
{
	sm_result_init(r, path);
	struct sm_pos p0 = { 0, 0 };
	char *copy = sm_arena_alloc(&r->arena, len + 1);
	if (!copy) {
		sm_result_note(r, SM_LEVEL_ERROR, p0, "out of memory reading '%s'", path);
		return -1;
	}
	memcpy(copy, text, len);
	copy[len] = 0;
	r->text = copy;
	r->len = len;
	if (looks_binary(copy, len)) {
		sm_result_note(r, SM_LEVEL_ERROR, p0, "binary file: '%s' contains NUL bytes", path);
		return -1;
	}
	struct sm_arena A;
	size_t limit = opt->ir_arena_limit ? opt->ir_arena_limit : SM_IR_ARENA_LIMIT;
	sm_arena_init(&A, limit);
	struct sm_file *F = sm_frontend_parse(fe, path, copy, len, &opt->fe, &A);
	if (!F) {
		sm_arena_release(&A);
		sm_result_note(r, SM_LEVEL_ERROR, p0, "out of memory analyzing '%s' (limit %zu KiB)", path, limit >> 10);
		return -1;
	}
	/* clang's errors: reported, and they fail the run (exit 2), but what
	 * parsed is still analyzed */
	for (unsigned i = 0; i < F->nnotes; i++) {
		const struct sm_note *n = &F->notes[i];
		sm_result_note(r, n->level >= 2 ? SM_LEVEL_WARNING : SM_LEVEL_NOTE, n->pos, "%s", n->message);
		if (n->level >= 2)
			r->input_error = true;
	}
	if (F->parse_failed) {
		sm_result_note(r, SM_LEVEL_ERROR, p0, "cannot parse '%s'", path);
		sm_arena_release(&A);
		return -1;
	}
	run_rules(F, opt, &A, r);
	if (sm_arena_failed(&A))
		sm_result_note(r, SM_LEVEL_WARNING, p0, "'%s' needed more than %zu %s to analyze; results are partial",
			       path, limit >= (1u << 20) ? limit >> 20 : limit >> 10, limit >= (1u << 20) ? "MiB" : "KiB");
	sm_arena_release(&A);
	sm_result_sort(r);
	return 0;
}
