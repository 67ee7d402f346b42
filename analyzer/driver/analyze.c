/* analyze.c - the per-file pipeline (see analyze.h). */
#include "driver/analyze.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/arch.h"
#include "base/fsutil.h"
#include "base/grow.h"
#include "driver/headers.h"
#include "engine/facts.h"
#include "rules/rules.h"

void sm_analysis_options_init(struct sm_analysis_options *o)
{
	memset(o, 0, sizeof(*o));
	o->arch = SM_DEFAULT_ARCH;
	o->fe.gpu_arch = SM_DEFAULT_ARCH;
	for (int i = 0; i < SM_RULE__COUNT; i++)
		o->levels[i] = sm_rules[i].level;
}

/* ---- reading ---- */

static int looks_binary(const char *t, size_t n)
{
	size_t lim = n < SM_BINARY_SNIFF_BYTES ? n : SM_BINARY_SNIFF_BYTES;
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

static void phase(const struct sm_phase_watch *w, const char *name)
{
	if (w && w->enter)
		w->enter(w->ctx, name);
}

static int analyze_buffer(struct sm_frontend *fe, const char *path, const char *text, size_t len,
			  const struct sm_analysis_options *opt, const struct sm_phase_watch *w, struct sm_result *r);

int sm_analyze_path(struct sm_frontend *fe, const char *path, const struct sm_analysis_options *opt,
		    struct sm_result *r)
{
	return sm_analyze_path_watched(fe, path, opt, NULL, r);
}

int sm_analyze_path_watched(struct sm_frontend *fe, const char *path, const struct sm_analysis_options *opt,
			    const struct sm_phase_watch *w, struct sm_result *r)
{
	phase(w, "reading");
	sm_result_init(r, path);
	struct sm_pos p0 = { 0, 0 };
	struct stat st;
	/* regular files only: a FIFO or a device would block or never end */
	int fd = sm_open_regular(path, &st);
	if (fd == -1) {
		sm_result_problem(r, SM_PROBLEM_CANNOT_READ, p0, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	if (fd == -2) {
		sm_result_problem(r, SM_PROBLEM_NOT_REGULAR_FILE, p0, "'%s' is %s, not a regular file; it was not analyzed",
			       path, sm_file_kind(st.st_mode));
		return -1;
	}
	if (!has_cuda_ext(path) && !opt->as_cuda) {
		close(fd);
		sm_result_problem(r, SM_PROBLEM_NOT_CUDA_SOURCE, p0,
				  "not a CUDA source file: '%s' (expected .cu or .cuh, or a compile command with -x cu)", path);
		return -1;
	}
	char *buf;
	size_t n;
	int rc = st.st_size > (off_t)SM_MAX_FILE_BYTES ? -2 : sm_read_fd(fd, SM_MAX_FILE_BYTES, &buf, &n);
	int rerr = errno;
	close(fd);
	if (rc == -2) {
		if (st.st_size > (off_t)SM_MAX_FILE_BYTES)
			sm_result_problem(r, SM_PROBLEM_FILE_TOO_LARGE, p0, "file too large: '%s' is %lld bytes (limit %u)",
				       path, (long long)st.st_size, SM_MAX_FILE_BYTES);
		else /* it grew while it was read */
			sm_result_problem(r, SM_PROBLEM_FILE_TOO_LARGE, p0, "file too large: '%s' has more than %u bytes (limit %u)",
				       path, SM_MAX_FILE_BYTES, SM_MAX_FILE_BYTES);
		return -1;
	}
	if (rc != 0) {
		if (rerr == ENOMEM)
			sm_result_problem(r, SM_PROBLEM_OUT_OF_MEMORY, p0, "out of memory reading '%s'", path);
		else
			sm_result_problem(r, SM_PROBLEM_CANNOT_READ, p0, "cannot read '%s': %s", path, strerror(rerr));
		return -1;
	}
	/* keep the result's path; analyze the buffer */
	struct sm_result tmp;
	rc = analyze_buffer(fe, path, buf, n, opt, w, &tmp);
	free(buf);
	sm_result_free(r);
	*r = tmp;
	return rc;
}

/* Every access with its degree, for --all-accesses. */
static void record_accesses(struct sm_kernel_facts *f, struct sm_result *r)
{
	const struct sm_kernel_model *m = &f->model;
	const struct sm_access_result *deg = sm_kernel_facts_degrees(f);
	if (!deg)
		return;
	for (unsigned a = 0; a < m->nacc; a++) {
		const struct sm_raccess *ra = &m->acc[a];
		unsigned cap = r->max_acc ? r->max_acc : SM_MAX_FILE_ACCESSES;
		if (r->nacc >= cap) {
			sm_result_capped(r, "access records", cap);
			return;
		}
		if (!ra->src || ra->src->in_flight || SM_ALLOC_GROW(r->acc, r->nacc + 1, r->cap_acc))
			continue;
		struct sm_access_record *rec = &r->acc[r->nacc++];
		memset(rec, 0, sizeof(*rec));
		rec->range = ra->src->range;
		rec->kernel = sm_arena_strdup(&r->arena, m->kernel->name);
		rec->array = sm_arena_strdup(&r->arena, ra->name ? ra->name : ra->array ? ra->array->name : "?");
		rec->kind = ra->src->kind;
		rec->width = ra->width;
		if (ra->src->op)
			snprintf(rec->op, sizeof(rec->op), "%s", ra->src->op);
		rec->analyzed = deg[a].deg.analyzed;
		rec->why = sm_arena_strdup(&r->arena, deg[a].deg.why);
		rec->worst = deg[a].deg.worst;
		rec->mean = deg[a].deg.mean;
		rec->wavefronts = deg[a].deg.wavefronts;
		rec->ideal = deg[a].deg.ideal;
		rec->wavefronts_exact = deg[a].deg.totals_exact;
		const struct sm_launch_ctx *lc = deg[a].launch ? deg[a].launch : deg[a].ctx;
		if (lc && lc->grid_known)
			rec->blocks = lc->grid.x * lc->grid.y * lc->grid.z;
		for (const struct sm_callsite *c = ra->src->call; c && rec->ncall_lines < 4; c = c->parent)
			rec->call_lines[rec->ncall_lines++] = c->range.begin.line;
	}
}

/* Run the rules over F's kernels within the work budget *work, one
 * kernel at a time: its facts (resolved model, degrees, races) live in an
 * arena of its own, released once every rule has seen the kernel, so a
 * file's memory is its IR and one kernel's facts, not every kernel's (a
 * flash-attention file instantiates 90 kernel templates). Findings are
 * sorted afterwards (sm_result_sort), so their order does not depend on
 * this. Returns true when a kernel's arena ran out (results partial). */
static bool rules_for_kernel(const struct sm_file *F, struct sm_kernel **K, const struct sm_analysis_options *opt,
			     size_t limit, struct sm_work *work, struct sm_result *r)
{
	struct sm_sink sink = sm_result_sink(r);
	struct sm_arena KA;
	sm_arena_init(&KA, limit);
	struct sm_kernel_facts facts;
	if (sm_kernel_facts_init(&facts, *K, opt, &KA) != 0 && !sm_arena_failed(&KA))
		sm_result_problem(r, SM_PROBLEM_KERNEL_TOO_LARGE, (*K)->range.begin,
			       "kernel '%s' is too large to analyze completely", (*K)->name);
	facts.work = work;
	if (opt->all_accesses)
		record_accesses(&facts, r);
	/* the file as the rules see it: this one kernel */
	struct sm_file view = *F;
	view.kernels = K;
	view.nkernels = 1;
	struct sm_rule_ctx ctx = { &view, &facts, &KA, opt };
	for (int i = 0; i < SM_RULE__COUNT; i++) {
		if (opt->levels[i] == SM_LEVEL_NONE)
			continue;
		unsigned before = r->ndiags;
		sm_rules[i].run(&ctx, &sink);
		/* the rule's level, or below it where the rule said the
		 * finding holds for an assumed block shape only */
		for (unsigned j = before; j < r->ndiags; j++)
			r->diags[j].level = r->diags[j].level == SM_LEVEL_ASSUMED && opt->levels[i] > SM_LEVEL_ASSUMED
						    ? SM_LEVEL_ASSUMED : opt->levels[i];
	}
	bool partial = sm_arena_failed(&KA);
	sm_arena_release(&KA);
	return partial;
}

static bool run_rules(const struct sm_file *F, const struct sm_analysis_options *opt, size_t limit,
		      struct sm_work *work, struct sm_result *r)
{
	bool partial = false;
	for (unsigned k = 0; k < F->nkernels; k++)
		partial = rules_for_kernel(F, &F->kernels[k], opt, limit, work, r) || partial;
	return partial;
}

/* The rules over each kernel the front end streams (sm_frontend_parse_
 * streamed), as it converts them: the kernel's IR is released when this
 * returns, so nothing kept may point into it (the budget's kernel name
 * is copied into the result). */
struct stream_ctx {
	const struct sm_analysis_options *opt;
	size_t limit;
	struct sm_work *work;
	struct sm_result *r;
	const struct sm_phase_watch *w;
	bool analyzing; /* the phase was announced */
	bool partial;
};

static void stream_kernel(void *ctx, const struct sm_file *F, struct sm_kernel *K)
{
	struct stream_ctx *c = ctx;
	if (!c->analyzing) {
		/* from here on the front end converts and the rules analyze
		 * kernel by kernel: a crash is named in "analysis" */
		phase(c->w, "analysis");
		c->analyzing = true;
	}
	bool was_spent = c->work->spent;
	c->partial = rules_for_kernel(F, &K, c->opt, c->limit, c->work, c->r) || c->partial;
	if (c->work->spent && !was_spent && c->work->spent_in)
		c->work->spent_in = sm_arena_strdup(&c->r->arena, c->work->spent_in);
	c->work->kernel = NULL;
}

/* The problem of a front-end note: clang's errors (level 2) are
 * parse-error, those in host-only functions host-code-error (level 1:
 * they do not fail the run); the front end's own lesser notes are its
 * nesting cap and calls not followed. */
static enum sm_problem_id front_problem(const struct sm_note *n)
{
	switch (n->kind) {
	case SM_NOTE_CALL: return SM_PROBLEM_CALL_NOT_FOLLOWED;
	case SM_NOTE_TEMPLATE: return SM_PROBLEM_KERNEL_TEMPLATE_NOT_ANALYZED;
	case SM_NOTE_TOO_DEEP: return SM_PROBLEM_NESTING_TOO_DEEP;
	case SM_NOTE_HOST_CLANG: return SM_PROBLEM_HOST_CODE_ERROR;
	case SM_NOTE_NVCC_ACCEPTS: return SM_PROBLEM_NVCC_ACCEPTS;
	case SM_NOTE_MISSING_HEADER: return SM_PROBLEM_MISSING_HEADER;
	case SM_NOTE_CLANG: break;
	}
	return SM_PROBLEM_PARSE_ERROR;
}

int sm_analyze_buffer(struct sm_frontend *fe, const char *path, const char *text, size_t len,
		      const struct sm_analysis_options *opt, struct sm_result *r)
{
	return analyze_buffer(fe, path, text, len, opt, NULL, r);
}

static int analyze_buffer(struct sm_frontend *fe, const char *path, const char *text, size_t len,
			  const struct sm_analysis_options *opt, const struct sm_phase_watch *w, struct sm_result *r)
{
	sm_result_init(r, path);
	struct sm_pos p0 = { 0, 0 };
	char *copy = sm_arena_alloc(&r->arena, len + 1);
	if (!copy) {
		sm_result_problem(r, SM_PROBLEM_OUT_OF_MEMORY, p0, "out of memory reading '%s'", path);
		return -1;
	}
	memcpy(copy, text, len);
	copy[len] = 0;
	sm_result_set_text(r, copy, len);
	r->max_diags = r->max_acc = opt->max_results;
	if (looks_binary(copy, len)) {
		sm_result_problem(r, SM_PROBLEM_BINARY_FILE, p0, "binary file: '%s' contains NUL bytes", path);
		return -1;
	}
	struct sm_arena A;
	size_t limit = opt->ir_arena_limit ? opt->ir_arena_limit : SM_IR_ARENA_LIMIT;
	sm_arena_init(&A, limit);
	phase(w, "parsing");
	struct sm_work work = { .limit = opt->analysis_budget ? opt->analysis_budget : SM_ANALYSIS_BUDGET };
	struct stream_ctx sc = { opt, limit, &work, r, w, false, false };
	struct sm_kernel_stream ks = { stream_kernel, &sc };
	struct sm_file *F = sm_frontend_parse_streamed(fe, path, copy, len, &opt->fe, &A, &ks);
	if (!F) {
		sm_arena_release(&A);
		sm_result_problem(r, SM_PROBLEM_OUT_OF_MEMORY, p0, "out of memory analyzing '%s' (limit %zu KiB)", path, limit >> 10);
		return -1;
	}
	/* clang's errors: reported, and they fail the run (exit 2), but what
	 * parsed is still analyzed; those in host-only functions are
	 * warnings (front/host_code.h) */
	unsigned alone_errors = 0;
	const struct sm_note *first_error = NULL;
	for (unsigned i = 0; i < F->nnotes; i++) {
		const struct sm_note *n = &F->notes[i];
		if (opt->header_alone && n->level >= 2) {
			/* a walked header nobody includes: one note (session_walk.c) */
			if (!alone_errors++)
				first_error = n;
			continue;
		}
		sm_result_problem(r, front_problem(n), n->pos, "%s", n->message);
		if (n->level >= 2)
			r->input_error = true;
	}
	if (alone_errors)
		sm_result_problem(r, SM_PROBLEM_HEADER_ALONE_ERRORS, first_error->pos,
			       "'%s' is a header that no file of the run includes; parsed on its own it has %u error%s "
			       "(the first: %s); what parsed was analyzed",
			       path, alone_errors, alone_errors == 1 ? "" : "s", first_error->message);
	if (F->parse_failed && opt->header_alone) {
		sm_result_problem(r, SM_PROBLEM_HEADER_ALONE_ERRORS, p0,
			       "'%s' is a header that no file of the run includes and does not parse on its own", path);
		sm_arena_release(&A);
		return -1;
	}
	if (F->parse_failed) {
		sm_result_problem(r, SM_PROBLEM_CANNOT_PARSE, p0, "cannot parse '%s'", path);
		sm_arena_release(&A);
		return -1;
	}
	if (!sc.analyzing)
		phase(w, "analysis");
	bool partial = run_rules(F, opt, limit, &work, r) || sc.partial || F->ir_partial;
	phase(w, "reporting");
	if (work.spent)
		sm_result_problem(r, SM_PROBLEM_ANALYSIS_BUDGET_EXCEEDED, p0,
			       "analysis budget exceeded: '%s' needed more than %llu evaluation steps "
			       "(--analysis-budget), reached in kernel '%s' (stopped after %llu steps); results are partial",
			       path, (unsigned long long)work.limit, work.spent_in ? work.spent_in : "?",
			       (unsigned long long)work.used);
	sm_result_keep_headers(r, F); /* findings in project headers: driver/headers.h */
	if (sm_arena_failed(&A) || partial)
		sm_result_problem(r, SM_PROBLEM_PARTIAL_RESULTS, p0, "'%s' needed more than %zu %s to analyze; results are partial",
			       path, limit >= (1u << 20) ? limit >> 20 : limit >> 10, limit >= (1u << 20) ? "MiB" : "KiB");
	sm_arena_release(&A);
	sm_result_sort(r);
	sm_result_merge_instantiations(r);
	return 0;
}
