/* session.c - a lint run over many files (see smemlint/session.h): the
 * session's life (settings, prepare, run, results, exit status); the steps
 * below live in session_files.c (1, 2), session_pool.c and session_fork.c
 * (3) and session_stream.c (4, 5), which share session_impl.h.
 *
 * Models the run as a list of files, each with its own options, analyzed
 * independently and reported in list order:
 *   1. paths are expanded (directories walked, sorted), then sharded round
 *      robin over that sorted list so that shards partition it;
 *   2. each file's options are computed once, in sm_session_file_options(): the
 *      command line's base options, the file's config (.smemlint.yaml or
 *      --config: levels, shape, arch, flags before the command line's),
 *      the command line's rule choices again (they win), then the file's
 *      compile_commands.json entry (its flags first, its architecture);
 *      files the config excludes are dropped here;
 *   3. one child process per file (the default: a crash ends that file
 *      only) or, where the embedding program turns isolation off, workers
 *      (threads with large stacks, one front end each) analyze them; the header cache
 *      (PCH) is asked for once per file and told when a parse refused it;
 *   4. findings in project headers leave their file's result (on the
 *      worker, as the file ends) for one result per header, merged in file
 *      order so that each is reported once (driver/headers.h); those
 *      results come after the files';
 *   5. suppressions (on the worker, as the file ends), then, in file
 *      order, the baseline (written, then filtered), --fix, the run's
 *      counts and, with o.on_result, the result handed to the report and
 *      released (sm_session_stream_ready): each file as soon as it and every earlier
 *      one are done, so that memory does not grow with the number of
 *      files (what stays is the header results and, for inputs that are
 *      headers themselves, their findings, to keep them from repeating).
 *      --write-baseline needs every finding at once, so it holds the
 *      stream back to the end.
 */
#define _GNU_SOURCE
#include "driver/session_impl.h"

#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/limits.h"
#include "driver/analyze.h"
#include "front/toolkit.h"

void sm_session_process_init(void)
{
	/* libclang parses on the calling thread (our workers' large stacks)
	 * instead of a thread of its own with 8 MiB, which a few thousand
	 * nested parentheses overflow; a write over `ulimit -f` fails with
	 * EFBIG, reported and cleaned up, instead of killing the process
	 * between temporary file and rename. */
	setenv("LIBCLANG_NOTHREADS", "1", 0);
	signal(SIGXFSZ, SIG_IGN);
}

struct sm_session *sm_session_new(void)
{
	struct sm_session *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	sm_analysis_options_init(&s->o.analysis);
	s->o.log = stderr;
	s->o.fail_on = SM_LEVEL_NOTE; /* any finding but an assumed one fails the run */
	s->o.isolate = true;          /* a crash ends one file, not the run */
	sm_config_init(&s->cli);
	sm_config_init(&s->fixed);
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->stream_lock, NULL);
	return s;
}

static void free_run(struct sm_session *s)
{
	for (size_t i = 0; i < s->nfiles; i++) {
		if (s->results)
			sm_result_free(&s->results[i]);
		for (unsigned k = 0; k < s->files[i].nhparts; k++)
			sm_result_free(&s->files[i].hparts[k]);
		free(s->files[i].hparts);
		free(s->files[i].path);
		free(s->files[i].args);
		free(s->files[i].flags_msg);
	}
	free(s->files);
	free(s->results);
	free(s->rp);
	s->files = NULL;
	s->results = NULL;
	s->rp = NULL;
	s->nfiles = 0;
	s->any_header_re = false;
	s->nresults = 0;
	sm_header_set_free(&s->headers);
	sm_header_set_free(&s->reported);
	free(s->hfirst);
	s->hfirst = NULL;
	s->finished = 0;
	memset(&s->totals, 0, sizeof(s->totals));
	s->fail_findings = s->input_errors = 0;
	s->nfixed = s->fixed_files = 0;
}

void sm_session_free(struct sm_session *s)
{
	if (!s)
		return;
	free_run(s);
	sm_paths_free(&s->errors);
	free(s->error_ids);
	sm_config_free(&s->cli);
	sm_config_free(&s->fixed);
	sm_config_cache_free(&s->configs);
	sm_baseline_free(&s->baseline);
	sm_compdb_free(&s->db);
	sm_pch_cache_free(s->cache);
	if (s->have_header_re)
		regfree(&s->header_re);
	pthread_mutex_destroy(&s->lock);
	pthread_mutex_destroy(&s->stream_lock);
	free(s);
}

struct sm_session_options *sm_session_options(struct sm_session *s)
{
	return &s->o;
}

/* ---- the command line's choices ---- */

int sm_session_rules(struct sm_session *s, const char *list, bool enable, char *err, size_t errlen)
{
	return sm_config_rules(&s->cli, list, enable, err, errlen);
}

int sm_session_severity(struct sm_session *s, const char *spec, char *err, size_t errlen)
{
	return sm_config_severity(&s->cli, spec, err, errlen);
}

int sm_session_block(struct sm_session *s, const char *spec, char *err, size_t errlen)
{
	struct sm_dim3 b;
	if (sm_config_parse_block(spec, &b)) {
		snprintf(err, errlen, "invalid block shape '%s': expected X[,Y[,Z]] with at most %d threads", spec,
			 SM_MAX_BLOCK_THREADS);
		return -1;
	}
	s->o.analysis.block = b;
	s->o.analysis.has_block = true;
	s->cli.block = b;
	s->cli.has_block = true;
	return 0;
}

int sm_session_arch(struct sm_session *s, const char *arch, char *err, size_t errlen)
{
	if (strncmp(arch, "sm_", 3) || !arch[3]) {
		snprintf(err, errlen, "invalid architecture '%s': expected sm_NN", arch);
		return -1;
	}
	char *copy = strdup(arch);
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	free(s->cli.arch);
	s->cli.arch = copy;
	s->o.analysis.arch = copy;
	s->o.analysis.fe.gpu_arch = copy;
	return 0;
}

void sm_session_report_unused(struct sm_session *s)
{
	s->cli.report_unused = 1;
}

void sm_session_fail_missing(struct sm_session *s)
{
	s->cli.fail_missing = 1;
}

int sm_session_fail_on(struct sm_session *s, const char *level, char *err, size_t errlen)
{
	static const enum sm_level levels[] = { SM_LEVEL_ERROR, SM_LEVEL_WARNING, SM_LEVEL_NOTE, SM_LEVEL_ASSUMED };
	for (size_t k = 0; k < sizeof(levels) / sizeof(levels[0]); k++)
		if (!strcmp(level, sm_level_name(levels[k]))) {
			s->o.fail_on = levels[k];
			return 0;
		}
	if (strcmp(level, "never")) {
		snprintf(err, errlen, "invalid --fail-on level '%s': expected error, warning, note, assumed or never", level);
		return -1;
	}
	s->o.fail_on = SM_LEVEL_NONE;
	return 0;
}

/* ---- preparing ---- */

int sm_session_load_fixed_config(struct sm_session *s, char *err, size_t errlen)
{
	if (!s->o.config_path || s->fixed.path)
		return 0;
	return sm_config_load(s->o.config_path, &s->fixed, err, errlen);
}

/* The default header filter: every header under the current directory
 * (the project root a run is started from), as ^/escaped/cwd/; "" when
 * there is no current directory. */
static const char *default_header_filter(char *def, size_t size)
{
	char cwd[PATH_MAX];
	def[0] = 0;
	if (!getcwd(cwd, sizeof(cwd)))
		return def;
	size_t n = 0;
	def[n++] = '^';
	for (const char *c = cwd; *c && n + 4 < size; c++) {
		if (strchr("\\^$.|?*+()[]{}", *c))
			def[n++] = '\\';
		def[n++] = *c;
	}
	if (n > 1 && def[n - 1] != '/')
		def[n++] = '/';
	def[n] = 0;
	return def;
}

/* --header-filter: compiled once (a config's header-filter is compiled
 * when the config is read, and sm_session_file_options picks it for the files the
 * config covers, unless the option was given); "" turns header analysis
 * off. */
static int compile_header_filter(struct sm_session *s, char *err, size_t errlen)
{
	if (s->have_header_re) {
		regfree(&s->header_re);
		s->have_header_re = false;
	}
	s->o.analysis.fe.header_filter = NULL;
	char def[PATH_MAX * 2 + 4];
	const char *re = s->o.header_filter ? s->o.header_filter : default_header_filter(def, sizeof(def));
	if (!*re)
		return 0;
	char why[256];
	if (sm_config_compile_filter(re, &s->header_re, why, sizeof(why))) {
		snprintf(err, errlen, "invalid --header-filter '%s': %s", re, why);
		return -1;
	}
	s->have_header_re = true;
	s->o.analysis.fe.header_filter = &s->header_re;
	return 0;
}

int sm_session_prepare(struct sm_session *s, char *err, size_t errlen)
{
	if (sm_session_load_fixed_config(s, err, errlen))
		return -1;
	if (s->o.baseline && sm_baseline_load(s->o.baseline, &s->baseline, err, errlen))
		return -1;
	struct sm_frontend_options *fe = &s->o.analysis.fe;
	if (s->o.no_cuda) {
		fe->cuda_path = NULL;
	} else if (s->o.cuda_path) {
		if (!sm_toolkit_at(s->o.cuda_path)) {
			snprintf(err, errlen, "no CUDA toolkit at '%s' (missing include/cuda_runtime.h)", s->o.cuda_path);
			return -1;
		}
		fe->cuda_path = s->o.cuda_path;
	} else {
		fe->cuda_path = sm_toolkit_find(s->toolkit, sizeof(s->toolkit));
	}
	fe->resource_dir = sm_frontend_resource_dir(s->resource_dir, sizeof(s->resource_dir));
	if (!s->o.no_cuda)
		fe->host_include = sm_frontend_host_include(s->host_include, sizeof(s->host_include));
	if (compile_header_filter(s, err, errlen))
		return -1;
	if (s->o.build_dir) {
		if (sm_compdb_load(s->o.build_dir, &s->db, err, errlen))
			return -1;
		s->have_db = true;
	}
	return 0;
}



int sm_session_dump_config(struct sm_session *s, const char *target, FILE *out, char *err, size_t errlen)
{
	if (sm_session_load_fixed_config(s, err, errlen))
		return -1;
	struct sm_config found;
	sm_config_init(&found);
	const struct sm_config *cfg = s->o.config_path ? &s->fixed : NULL;
	char path[PATH_MAX];
	struct sm_paths ignored = { 0 };
	int found_one = !cfg && sm_config_find(target, path, sizeof(path), &ignored);
	for (size_t i = 0; i < ignored.n; i++)
		fprintf(s->o.log, "smemlint: warning: %s\n", ignored.v[i]);
	sm_paths_free(&ignored);
	if (found_one) {
		if (sm_config_load(path, &found, err, errlen)) {
			sm_config_free(&found);
			return -1;
		}
		cfg = &found;
	}
	struct sm_analysis_options o;
	const char **args;
	sm_session_file_options(s, target, cfg, &o, &args);
	struct sm_paths ex = { 0 }, fl = { 0 };
	for (size_t k = 0; cfg && k < cfg->exclude.n; k++)
		sm_paths_push(&ex, cfg->exclude.v[k]);
	for (int k = 0; k < s->o.nexcludes; k++)
		sm_paths_push(&ex, s->o.excludes[k]);
	for (int k = 0; k < o.fe.nargs; k++)
		sm_paths_push(&fl, o.fe.args[k]);
	char def[PATH_MAX * 2 + 4];
	const char *hf = s->o.header_filter                 ? s->o.header_filter
			 : cfg && cfg->header_filter ? cfg->header_filter
						     : default_header_filter(def, sizeof(def));
	struct sm_config_view view = { cfg ? cfg->path : NULL, &o, &ex, &fl, sm_session_unused_wanted(s, cfg),
				       sm_session_fail_missing_wanted(s, cfg), hf };
	int rc = sm_config_dump(out, &view);
	if (rc)
		snprintf(err, errlen, "cannot write the configuration");
	free(args);
	sm_paths_free(&ex);
	sm_paths_free(&fl);
	sm_config_free(&found);
	return rc ? -1 : 0;
}

int sm_session_run(struct sm_session *s, const char *const *paths, size_t npaths, char *err, size_t errlen)
{
	free_run(s);
	if (sm_session_collect_files(s, paths, npaths, err, errlen))
		return -1;
	s->results = calloc(s->nfiles + 1, sizeof(*s->results));
	s->rp = calloc(s->nfiles + 1, sizeof(*s->rp));
	if (!s->results || !s->rp) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (!s->cache && !s->o.no_cache && !getenv("SMEMLINT_NO_CACHE"))
		s->cache = sm_pch_cache_new(NULL);
	s->next = 0;
	s->done = 0;
	s->finished = 0;
	sm_session_warm_cache(s);
	if (s->o.timeout > 0 || s->o.isolate)
		sm_session_run_forked(s, sm_session_job_count(s));
	else
		sm_session_run_threads(s, sm_session_job_count(s));
	sm_session_post_process(s);
	const char *why = s->cache ? sm_pch_cache_failure(s->cache) : NULL;
	if (why)
		fprintf(s->o.log, "smemlint: note: no header cache: %s; files were parsed without it\n", why);
	return 0;
}

int sm_session_print_clang_args(struct sm_session *s, const char *const *paths, size_t npaths, FILE *out,
				char *err, size_t errlen)
{
	free_run(s);
	if (sm_session_collect_files(s, paths, npaths, err, errlen))
		return -1;
	json_t *arr = json_array();
	for (size_t i = 0; i < s->nfiles; i++) {
		struct sm_analysis_options o = s->files[i].opt;
		o.fe.pch = NULL;
		struct sm_arena A;
		sm_arena_init(&A, 0);
		int argc;
		const char **argv = sm_frontend_args(&o.fe, &argc, &A);
		json_t *a = json_array();
		for (int k = 0; k < argc; k++)
			json_array_append_new(a, json_string(argv[k]));
		json_array_append_new(arr, json_pack("{s:s, s:o}", "file", s->files[i].path, "arguments", a));
		sm_arena_release(&A);
	}
	int rc = json_dumpf(arr, out, JSON_INDENT(1)) != 0;
	fputc('\n', out);
	json_decref(arr);
	if (rc)
		snprintf(err, errlen, "cannot write the compile flags");
	return rc ? -1 : 0;
}

/* ---- results ---- */

struct sm_result *const *sm_session_results(const struct sm_session *s, unsigned *n)
{
	*n = (unsigned)s->nresults;
	return s->rp;
}

const char *const *sm_session_errors(const struct sm_session *s, unsigned *n)
{
	*n = (unsigned)s->errors.n;
	return (const char *const *)s->errors.v;
}

const enum sm_problem_id *sm_session_error_ids(const struct sm_session *s)
{
	return s->error_ids;
}

void sm_session_fail(struct sm_session *s)
{
	s->failures++;
}

void sm_session_totals(const struct sm_session *s, struct sm_session_totals *t)
{
	*t = s->totals;
}

int sm_session_exit_status(const struct sm_session *s)
{
	size_t input_errors = s->errors.n + (size_t)s->failures + s->input_errors;
	if (input_errors)
		return 2;
	if (s->o.write_baseline)
		return 0; /* writing a baseline accepts the findings it records */
	return s->fail_findings ? 1 : 0;
}

int sm_session_analyze_buffer(struct sm_session *s, const char *path, const char *text, size_t len,
			      struct sm_result *r)
{
	struct sm_frontend *fe = sm_frontend_new();
	if (!fe) {
		sm_session_no_parser(r, path);
		return -1;
	}
	struct sm_analysis_options o = s->o.analysis;
	sm_config_apply(&s->cli, &o);
	o.fe.header_filter = NULL; /* one buffer, one result: no header results */
	int rc = sm_analyze_buffer(fe, path, text, len, &o, r);
	sm_frontend_free(fe);
	return rc;
}

