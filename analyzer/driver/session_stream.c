/* session_stream.c - the end of a session's files, in order (see
 * session_impl.h).
 *
 * Models what happens to a file's result once its analysis is over:
 *   1. settle (on the worker, as the file ends): its compile-command
 *      problem, its findings in project headers split off for the header
 *      results, its inline suppressions, then compaction;
 *   2. in file order (sm_session_stream_ready): its header parts join one result per
 *      project header, merged so that each finding is reported once
 *      (driver/headers.h), and those results come after the files';
 *   3. finish_result: the baseline filter, --fix, the run's counts and,
 *      with o.on_result, the hand-over to the report, after which the
 *      result is released: each file as soon as it and every earlier one
 *      are done, so that memory does not grow with the number of files
 *      (what stays is the header results and, for inputs that are headers
 *      themselves, their findings, to keep them from repeating).
 *      --write-baseline needs every finding at once, so it holds the
 *      stream back to the end (sm_session_post_process). */
#define _GNU_SOURCE
#include "driver/session_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "driver/fix_apply.h"


/* Are unused suppressions reported for a file under config cfg (the
 * command line wins)? */
bool sm_session_unused_wanted(const struct sm_session *s, const struct sm_config *cfg)
{
	return s->cli.report_unused >= 0 ? s->cli.report_unused : cfg && cfg->report_unused > 0;
}

/* Does a missing header fail the run for a file under config cfg (the
 * command line wins)? */
bool sm_session_fail_missing_wanted(const struct sm_session *s, const struct sm_config *cfg)
{
	return s->cli.fail_missing > 0 || (cfg && cfg->fail_missing > 0);
}

/* ---- workers ---- */

/* r for a file no front end could be started for */
void sm_session_no_parser(struct sm_result *r, const char *path)
{
	struct sm_pos p0 = { 0, 0 };
	sm_result_init(r, path);
	sm_result_problem(r, SM_PROBLEM_CANNOT_START_PARSER, p0, "cannot start the parser for '%s'", path);
}

/* File i's analysis is over: its compile-command problem, its inline
 * suppressions, then what the report does not need is released
 * (sm_result_compact), so that a run's memory grows by a few hundred bytes
 * per clean file, not by its text and arena. Once per file, on the worker
 * that analyzed it (touches only file i), or in sm_session_post_process for files
 * no worker saw. */
void sm_session_settle(struct sm_session *s, size_t i)
{
	struct sm_file_job *f = &s->files[i];
	if (f->settled)
		return;
	f->settled = true;
	struct sm_result *r = &s->results[i];
	struct sm_pos p0 = { 0, 0 };
	if (f->flags_msg)
		sm_result_problem(r, f->flags_problem, p0, "%s", f->flags_msg);
	/* what it found in project headers waits for the header results */
	if (sm_result_split_headers(r, &f->hparts, &f->nhparts))
		sm_result_problem(r, SM_PROBLEM_OUT_OF_MEMORY, p0, "out of memory sorting the findings of '%s' by header",
				  f->path);
	sm_result_suppress(r, sm_session_unused_wanted(s, f->cfg), f->opt.levels);
	if (sm_session_fail_missing_wanted(s, f->cfg))
		for (unsigned k = 0; k < r->nnotes; k++)
			r->input_error = r->input_error || r->notes[k].problem == SM_PROBLEM_MISSING_HEADER;
	sm_result_compact(r);
}

/* ---- finished files, in file order: baseline, --fix, counts, stream ---- */

/* Does the run hand results out as files finish? --write-baseline needs
 * every finding at once: the stream then waits for the end of the run. */
static bool streaming(const struct sm_session *s)
{
	return s->o.on_result && !s->o.write_baseline;
}

/* --fix on one finished file: what was fixed leaves the report (the fix
 * was verified with the model), so that the report, the exit status and
 * the closing line say what is left. Changes go to the log. */
static void fix_file(struct sm_session *s, struct sm_result *r)
{
	char err[PATH_MAX + 256];
	int n = r->input_error ? 0 : sm_apply_fixes(r, s->o.log, s->o.write_faults, err, sizeof(err));
	if (n < 0) {
		fprintf(s->o.log, "smemlint: error: %s\n", err);
		s->failures++;
	} else if (n > 0) {
		unsigned out = 0;
		for (unsigned k = 0; k < r->ndiags; k++)
			if (!r->diags[k].fix.text)
				r->diags[out++] = r->diags[k];
		r->ndiags = out;
		s->nfixed += (unsigned)n;
		s->fixed_files++;
	}
}

/* Does the path name a header (a file a .cu includes rather than
 * compiles)? Only such inputs can also come back as a header result. */
static bool header_like(const char *path)
{
	const char *dot = strrchr(path, '.');
	if (!dot || strchr(dot, '/'))
		return false;
	static const char *const ext[] = { ".h", ".cuh", ".hpp", ".hh", ".hxx", ".inl", ".inc", ".tcc" };
	for (size_t k = 0; k < sizeof(ext) / sizeof(ext[0]); k++)
		if (!strcmp(dot, ext[k]))
			return true;
	return false;
}

/* File i, settled, in file order: its header parts join the run's header
 * results (the first file to report a finding keeps it, whatever -j
 * did), and an input that is a header itself leaves a copy of its
 * findings, so that its header result does not repeat them. Under
 * stream_lock, or on the only thread. */
static void collect_parts(struct sm_session *s, size_t i)
{
	struct sm_file_job *f = &s->files[i];
	if (f->collected)
		return;
	f->collected = true;
	for (unsigned k = 0; k < f->nhparts; k++) {
		unsigned before = s->headers.n;
		(void)sm_header_set_add(&s->headers, &f->hparts[k]);
		if (s->headers.n > before && !SM_ALLOC_GROW(s->hfirst, s->headers.n, before))
			s->hfirst[s->headers.n - 1] = f;
	}
	free(f->hparts);
	f->hparts = NULL;
	f->nhparts = 0;
	const struct sm_result *r = &s->results[i];
	if (!s->any_header_re || !r->ndiags || !header_like(f->path))
		return;
	struct sm_result copy;
	sm_result_init(&copy, r->path);
	struct sm_sink sink = sm_result_sink(&copy);
	for (unsigned k = 0; k < r->ndiags; k++)
		sm_sink_report(&sink, &r->diags[k]);
	(void)sm_header_set_add(&s->reported, &copy);
}

/* The header results, once every file is collected: a header that is
 * also an input keeps its input's name and loses the findings that input
 * reported itself; each is sorted, suppressed from its own text (with the
 * config and levels of the first file that reported it) and compacted.
 * Those with anything left follow the files in rp. */
static void finalize_headers(struct sm_session *s)
{
	struct sm_result **rp = realloc(s->rp, (s->nfiles + s->headers.n + 1) * sizeof(*rp));
	if (!rp)
		return;
	s->rp = rp;
	size_t n = s->nfiles;
	for (unsigned h = 0; h < s->headers.n; h++) {
		struct sm_result *hr = s->headers.v[h];
		for (size_t i = 0; i < s->nfiles; i++)
			if (sm_same_file(s->files[i].path, hr->path)) {
				hr->path = sm_arena_strdup(&hr->arena, s->files[i].path);
				break;
			}
		for (unsigned k = 0; k < s->reported.n; k++) {
			const struct sm_result *in = s->reported.v[k];
			if (strcmp(in->path, hr->path))
				continue;
			unsigned out = 0;
			for (unsigned d = 0; d < hr->ndiags; d++) {
				const struct sm_diag *x = &hr->diags[d];
				bool seen = false;
				for (unsigned j = 0; j < in->ndiags && !seen; j++)
					seen = in->diags[j].rule == x->rule && in->diags[j].range.begin.line == x->range.begin.line &&
					       in->diags[j].range.begin.col == x->range.begin.col &&
					       sm_diag_same_message(&hr->arena, &in->diags[j], x);
				if (!seen)
					hr->diags[out++] = *x;
			}
			hr->ndiags = out;
			hr->nacc = 0; /* its accesses are the input's own records */
		}
		sm_result_sort(hr);
		hr->from_includers = true;
		const struct sm_file_job *f = s->hfirst ? s->hfirst[h] : NULL;
		sm_result_suppress(hr, f && sm_session_unused_wanted(s, f->cfg), f ? f->opt.levels : NULL);
		if (hr->ndiags || hr->nacc || hr->nnotes) {
			sm_result_compact(hr);
			s->rp[n++] = hr;
		}
	}
	s->nresults = n;
}

/* A settled result in report order (a file's, after every earlier file,
 * or a header's, after every file): its baseline filter and --fix, its
 * counts, and, when the run streams (or at the end), the hand over to
 * o.on_result, after which the result is released. Under stream_lock, or
 * on the only thread. */
static void finish_result(struct sm_session *s, struct sm_result *r, bool is_file, bool hand_over)
{
	if (s->o.baseline)
		sm_result_filter_baseline(r, &s->baseline);
	if (s->o.fix)
		fix_file(s, r);
	struct sm_session_totals *t = &s->totals;
	t->files += is_file;
	t->findings += r->ndiags;
	for (unsigned k = 0; k < r->ndiags; k++) {
		enum sm_level lv = r->diags[k].level;
		if ((unsigned)lv < sizeof(t->by_level) / sizeof(t->by_level[0]))
			t->by_level[lv]++;
		s->fail_findings += s->o.fail_on != SM_LEVEL_NONE && lv >= s->o.fail_on;
	}
	bool above_note = false;
	for (unsigned k = 0; k < r->nnotes; k++)
		above_note = above_note || r->notes[k].level > SM_LEVEL_NOTE;
	t->files_with_problems += above_note;
	t->files_with_notes_only += r->nnotes > 0 && !above_note;
	s->input_errors += r->input_error;
	/* counted whole above; a baseline being written keeps every finding */
	if (!s->o.all_findings && !s->o.write_baseline)
		sm_result_fold_causes(r, SM_MAX_CAUSE_FINDINGS);
	if (hand_over && s->o.on_result) {
		s->o.on_result(s->o.on_result_ctx, r);
		sm_result_free(r); /* zeroed: an empty result stays in its place */
	}
}

/* File i has settled (any thread): finish every file of the ready
 * prefix. One thread at a time finishes and hands over, in file order. */
void sm_session_stream_ready(struct sm_session *s, size_t i)
{
	pthread_mutex_lock(&s->stream_lock);
	s->files[i].ready = true;
	while (streaming(s) && s->finished < s->nfiles && s->files[s->finished].ready) {
		collect_parts(s, s->finished);
		finish_result(s, &s->results[s->finished], true, true);
		s->finished++;
	}
	pthread_mutex_unlock(&s->stream_lock);
}


/* ---- after the analysis: suppressions, baseline, --fix ---- */

void sm_session_post_process(struct sm_session *s)
{
	char err[PATH_MAX + 256];
	for (size_t i = 0; i < s->nfiles; i++) {
		s->rp[i] = &s->results[i];
		sm_session_settle(s, i);
	}
	/* the files not streamed yet give their header parts, in file order;
	 * then the header results follow the files */
	for (size_t i = s->finished; i < s->nfiles; i++)
		collect_parts(s, i);
	s->nresults = s->nfiles;
	finalize_headers(s);
	/* not streamed: every result is still here */
	if (s->o.write_baseline &&
	    sm_baseline_write(s->o.write_baseline, s->o.write_faults, s->rp, (unsigned)s->nresults, err, sizeof(err))) {
		fprintf(s->o.log, "smemlint: %s\n", err);
		s->failures++;
	}
	for (size_t i = 0; i < s->errors.n; i++)
		fprintf(s->o.log, "smemlint: error: %s\n", s->errors.v[i]);
	/* the files not finished yet: all of them unless the run streamed */
	while (s->finished < s->nfiles)
		finish_result(s, &s->results[s->finished++], true, s->o.on_result != NULL);
	for (size_t i = s->nfiles; i < s->nresults; i++)
		finish_result(s, s->rp[i], false, s->o.on_result != NULL);
	if (s->o.fix) {
		unsigned left = s->totals.findings;
		fprintf(s->o.log, "smemlint: --fix: %u change%s in %u file%s; %u finding%s left\n", s->nfixed,
			s->nfixed == 1 ? "" : "s", s->fixed_files, s->fixed_files == 1 ? "" : "s", left,
			left == 1 ? "" : "s");
	}
}

