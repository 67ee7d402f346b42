/* session.c - a lint run over many files (see smemlint/session.h).
 *
 * Models the run as a list of files, each with its own options, analyzed
 * independently and reported in list order:
 *   1. paths are expanded (directories walked, sorted), then sharded round
 *      robin over that sorted list so that shards partition it;
 *   2. each file's options are computed once, in file_options(): the
 *      command line's base options, the file's config (.smemlint.yaml or
 *      --config: levels, shape, arch, flags before the command line's),
 *      the command line's rule choices again (they win), then the file's
 *      compile_commands.json entry (its flags first, its architecture);
 *      files the config excludes are dropped here;
 *   3. workers (threads with large stacks, one front end each) or, with a
 *      timeout, one child process per file analyze them; the header cache
 *      (PCH) is asked for once per file and told when a parse refused it;
 *   4. findings in project headers leave their file's result (on the
 *      worker, as the file ends) for one result per header, merged in file
 *      order so that each is reported once (driver/headers.h); those
 *      results come after the files';
 *   5. suppressions (on the worker, as the file ends), then, in file
 *      order, the baseline (written, then filtered), --fix, the run's
 *      counts and, with o.on_result, the result handed to the report and
 *      released (stream_ready): each file as soon as it and every earlier
 *      one are done, so that memory does not grow with the number of
 *      files (what stays is the header results and, for inputs that are
 *      headers themselves, their findings, to keep them from repeating).
 *      --write-baseline needs every finding at once, so it holds the
 *      stream back to the end.
 */
#define _GNU_SOURCE
#include "smemlint/session.h"

#include <errno.h>
#include <fnmatch.h>
#include <jansson.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "base/grow.h"
#include "base/limits.h"
#include "driver/analyze.h"
#include "driver/config.h"
#include "driver/fix_apply.h"
#include "driver/headers.h"
#include "driver/report.h"
#include "driver/result_io.h"
#include "front/compdb.h"
#include "front/pch_cache.h"
#include "front/toolkit.h"

/* One file to analyze. */
struct sm_file_job {
	char *path;
	const struct sm_config *cfg;     /* its config file, or NULL */
	struct sm_analysis_options opt;  /* its options (file_options) */
	const char **args;               /* opt.fe.args when merged (malloc'd), or NULL */
	enum sm_problem_id flags_problem; /* about its compile command (-p), when flags_msg */
	char *flags_msg;                 /* malloc'd, or NULL */
	bool settled;                    /* its result is suppressed and compacted */
	bool ready;                      /* settle() is over (under stream_lock) */
	struct sm_result *hparts;        /* what its analysis found in project
	                                  * headers (sm_result_split_headers) */
	unsigned nhparts;
	bool collected;                  /* hparts went to the run's header results */
};

struct sm_session {
	struct sm_session_options o;
	struct sm_config cli;            /* the command line's rule choices */
	struct sm_config fixed;          /* --config FILE */
	struct sm_config_cache configs;  /* nearest .smemlint.yaml, each read once */
	struct sm_baseline baseline;
	struct sm_compdb db;
	bool have_db;
	char toolkit[PATH_MAX];
	char resource_dir[PATH_MAX];     /* clang's, for cuda_wrappers (frontend.h) */
	struct sm_pch_cache *cache;      /* NULL: --no-cache */

	struct sm_file_job *files;
	size_t nfiles;
	struct sm_result *results;       /* [nfiles] */
	struct sm_result **rp;           /* [nresults]: what emitters take */
	size_t nresults;                 /* the files', then the headers' */
	struct sm_header_set headers;    /* one result per project header, in
	                                  * order of first appearance */
	const struct sm_file_job **hfirst; /* [headers.n]: the file that first
	                                  * reported each (its config applies) */
	struct sm_header_set reported;   /* findings of inputs that look like
	                                  * headers, as reported: a header
	                                  * result leaves them out */
	regex_t header_re;               /* --header-filter, compiled */
	bool have_header_re;
	bool any_header_re;              /* some file of the run has a header
	                                  * filter (the option's or a config's) */
	struct sm_paths errors;          /* input errors tied to no file */
	enum sm_problem_id *error_ids;   /* [errors.n]: the problem of each */
	size_t cap_error_ids;
	int failures;                    /* errors of the run itself */

	pthread_mutex_t lock;            /* the next file for a worker, progress */
	size_t next;
	size_t done;                     /* files analyzed, for o.progress */

	/* files finished in order (finish_result): what the closing line and
	 * the exit status need once results are released */
	pthread_mutex_t stream_lock;     /* ready flags, finished, the counts */
	size_t finished;                 /* files[0..finished) are finished */
	struct sm_session_totals totals;
	size_t fail_findings;            /* findings at fail_on or above */
	size_t input_errors;             /* files with input_error */
	unsigned nfixed, fixed_files;    /* --fix changes and files changed */
};

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
	s->o.fail_on = SM_LEVEL_NOTE; /* any finding fails the run */
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

int sm_session_fail_on(struct sm_session *s, const char *level, char *err, size_t errlen)
{
	static const enum sm_level levels[] = { SM_LEVEL_ERROR, SM_LEVEL_WARNING, SM_LEVEL_NOTE };
	for (size_t k = 0; k < sizeof(levels) / sizeof(levels[0]); k++)
		if (!strcmp(level, sm_level_name(levels[k]))) {
			s->o.fail_on = levels[k];
			return 0;
		}
	if (strcmp(level, "never")) {
		snprintf(err, errlen, "invalid --fail-on level '%s': expected error, warning, note or never", level);
		return -1;
	}
	s->o.fail_on = SM_LEVEL_NONE;
	return 0;
}

/* ---- preparing ---- */

static int load_fixed_config(struct sm_session *s, char *err, size_t errlen)
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
 * when the config is read, and file_options picks it for the files the
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
	if (load_fixed_config(s, err, errlen))
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
	if (compile_header_filter(s, err, errlen))
		return -1;
	if (s->o.build_dir) {
		if (sm_compdb_load(s->o.build_dir, &s->db, err, errlen))
			return -1;
		s->have_db = true;
	}
	return 0;
}

/* ---- each file's options, in one place ---- */

/* The options for a file whose config is cfg (NULL: none): the command
 * line's base options, the config, the command line's choices, the
 * compile database entry. *args (to free) holds the merged flags:
 * database flags, config flags, then the command line's. */
static void file_options(const struct sm_session *s, const char *path, const struct sm_config *cfg,
			 struct sm_analysis_options *out, const char ***args)
{
	const struct sm_analysis_options *base = &s->o.analysis;
	*out = *base;
	*args = NULL;
	const struct sm_compdb_entry *e = s->have_db ? sm_compdb_find(&s->db, path) : NULL;
	size_t ncfg = cfg ? cfg->flags.n : 0, ndb = e ? (size_t)e->cf.nflags : 0;
	if (cfg)
		sm_config_apply(cfg, out);
	if (ncfg || ndb) {
		*args = calloc(ndb + ncfg + (size_t)base->fe.nargs + 1, sizeof(char *));
		if (*args) {
			int n = 0;
			for (size_t k = 0; k < ndb; k++)
				(*args)[n++] = e->cf.flags[k];
			for (size_t k = 0; k < ncfg; k++)
				(*args)[n++] = cfg->flags.v[k];
			for (int k = 0; k < base->fe.nargs; k++)
				(*args)[n++] = base->fe.args[k];
			out->fe.args = *args;
			out->fe.nargs = n;
		}
	}
	sm_config_apply(&s->cli, out);
	/* the config's header filter and budget, unless the command line
	 * (or the embedding program) gave its own */
	if (cfg && cfg->header_filter && !s->o.header_filter)
		out->fe.header_filter = cfg->have_header_re ? &cfg->header_re : NULL;
	if (cfg && cfg->analysis_budget && !base->analysis_budget)
		out->analysis_budget = cfg->analysis_budget;
	/* compiled as CUDA whatever its name: -x cu in its compile command,
	 * or clang's -x cuda among the flags (the config's, after --) */
	out->as_cuda = e && e->cf.as_cuda;
	for (int k = 0; k + 1 < out->fe.nargs; k++)
		out->as_cuda |= !strcmp(out->fe.args[k], "-x") && !strcmp(out->fe.args[k + 1], "cuda");
	for (int k = 0; k < out->fe.nargs; k++)
		out->as_cuda |= !strcmp(out->fe.args[k], "-xcuda");
	/* the database's architecture (the lowest real one of the command's
	 * list) over the config's and the default; --arch over both */
	if (e && e->cf.arch[0] && !s->cli.arch) {
		out->fe.gpu_arch = e->cf.arch;
		out->arch = e->cf.arch;
	}
}

/* What is wrong with a file's compile command under -p, for f: not in the
 * database, or a response file that could not be read. */
static void flags_problem(const struct sm_session *s, struct sm_file_job *f)
{
	if (!s->have_db)
		return;
	const struct sm_compdb_entry *e = sm_compdb_find(&s->db, f->path);
	char msg[PATH_MAX * 3];
	if (!e) {
		snprintf(msg, sizeof(msg),
			 "not in the compile database: '%s' has no entry in '%s/compile_commands.json'; it was parsed "
			 "with the flags after -- and architecture %s",
			 f->path, s->o.build_dir, f->opt.fe.gpu_arch ? f->opt.fe.gpu_arch : "sm_90");
		f->flags_problem = SM_PROBLEM_NOT_IN_COMPILE_DATABASE;
	} else if (e->cf.problem) {
		snprintf(msg, sizeof(msg), "incomplete compile flags for '%s': %s", f->path, e->cf.problem);
		f->flags_problem = SM_PROBLEM_COMPILE_FLAGS_INCOMPLETE;
	} else {
		return;
	}
	f->flags_msg = strdup(msg);
}

static bool report_unused(const struct sm_session *s, const struct sm_config *cfg)
{
	return s->cli.report_unused >= 0 ? s->cli.report_unused : cfg && cfg->report_unused > 0;
}

int sm_session_dump_config(struct sm_session *s, const char *target, FILE *out, char *err, size_t errlen)
{
	if (load_fixed_config(s, err, errlen))
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
	file_options(s, target, cfg, &o, &args);
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
	int rc = sm_config_dump(out, cfg ? cfg->path : NULL, &o, &ex, &fl, report_unused(s, cfg), hf);
	if (rc)
		snprintf(err, errlen, "cannot write the configuration");
	free(args);
	sm_paths_free(&ex);
	sm_paths_free(&fl);
	sm_config_free(&found);
	return rc ? -1 : 0;
}

/* ---- the file list ---- */

/* Each config skipped as untrusted (sm_config_find), said once. */
static void warn_ignored_configs(struct sm_session *s)
{
	struct sm_paths *ig = &s->configs.ignored; /* each once (sm_config_cache_lookup) */
	for (size_t i = 0; i < ig->n; i++)
		fprintf(s->o.log, "smemlint: warning: %s\n", ig->v[i]);
	sm_paths_free(ig);
}

/* An input error tied to no file, with its problem id. */
static void run_error(struct sm_session *s, enum sm_problem_id id, const char *msg)
{
	if (SM_ALLOC_GROW(s->error_ids, s->errors.n + 1, s->cap_error_ids)) {
		s->failures++; /* out of memory: the run still fails */
		return;
	}
	size_t before = s->errors.n;
	sm_paths_push(&s->errors, msg);
	if (s->errors.n > before)
		s->error_ids[before] = id;
	else
		s->failures++;
}

/* Keep the first of the paths that name the same file (by device and
 * inode: `a.cu ./a.cu`, hard links, links into the tree), so that each
 * file is analyzed, reported and fixed once. Paths that cannot be
 * examined stay: the analysis reports them. */
static void drop_duplicates(struct sm_paths *all)
{
	struct sm_inode_set seen = { 0 };
	size_t kept = 0;
	for (size_t i = 0; i < all->n; i++) {
		struct stat st;
		if (stat(all->v[i], &st) == 0 && S_ISREG(st.st_mode) && sm_inode_set_add(&seen, st.st_dev, st.st_ino) == 0) {
			free(all->v[i]);
			continue;
		}
		all->v[kept++] = all->v[i];
	}
	all->n = kept;
	sm_inode_set_free(&seen);
}

/* The order of a directory walk (sm_expand_path_ex: each directory's
 * names sorted, depth first): component by component, so '/' sorts
 * before every other byte. */
static int walk_order(const void *pa, const void *pb)
{
	const unsigned char *a = *(const unsigned char *const *)pa, *b = *(const unsigned char *const *)pb;
	for (; *a && *a == *b; a++, b++)
		;
	unsigned ca = *a == '/' ? 1 : *a ? *a + 1u : 0, cb = *b == '/' ? 1 : *b ? *b + 1u : 0;
	return (ca > cb) - (ca < cb);
}

/* An --exclude glob matches rel's path or base name at some directory
 * level, as the walk tests each directory and file it meets. */
static bool db_excluded(const struct sm_session *s, const char *path, size_t root_len)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s", path);
	for (size_t at = root_len; buf[at];) {
		size_t end = at + strcspn(buf + at, "/");
		char keep = buf[end];
		buf[end] = 0;
		for (int i = 0; i < s->o.nexcludes; i++)
			if (!fnmatch(s->o.excludes[i], buf, 0) || !fnmatch(s->o.excludes[i], buf + at, 0))
				return true;
		buf[end] = keep;
		at = keep ? end + 1 : end;
	}
	return false;
}

/* The sources under directory dir that the compile database compiles as
 * CUDA but that do not end in .cu (-x cu: a .cpp whose LANGUAGE is CUDA),
 * the walk's from out[from] on: added, then all put in walk order.
 * Returns how many were added. */
static int add_db_sources(const struct sm_session *s, const char *dir, struct sm_paths *out, size_t from)
{
	char real[PATH_MAX];
	if (!s->have_db || !realpath(dir, real))
		return 0;
	size_t rl = strlen(real), dl = strlen(dir);
	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	int added = 0;
	for (size_t i = 0; i < s->db.n; i++) {
		const struct sm_compdb_entry *e = &s->db.e[i];
		const char *dot = strrchr(e->file, '.');
		if (!e->cf.as_cuda || (dot && (!strcmp(dot, ".cu") || !strcmp(dot, ".cuh"))))
			continue;
		if (strncmp(e->file, real, rl) || (e->file[rl] != '/' && rl > 1))
			continue;
		char path[PATH_MAX];
		const char *rest = e->file + rl + (rl > 1);
		if (snprintf(path, sizeof(path), "%.*s/%s", (int)dl, dir, rest) >= (int)sizeof(path))
			continue;
		struct stat st;
		if (db_excluded(s, path, dl + 1) || stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		sm_paths_push(out, path);
		added++;
	}
	if (added && out->n - from > 1)
		qsort(out->v + from, out->n - from, sizeof(char *), walk_order);
	return added;
}

/* Expand, shard, find each file's config and drop what it excludes. */
static int collect_files(struct sm_session *s, const char *const *paths, size_t npaths, char *err, size_t errlen)
{
	struct sm_paths all = { 0 }, skipped = { 0 };
	unsigned flags = s->o.no_gitignore ? SM_WALK_NO_GITIGNORE : 0;
	for (size_t i = 0; i < npaths; i++) {
		size_t nskipped = skipped.n, from = all.n;
		int n = sm_expand_path_ex(paths[i], s->o.excludes, s->o.nexcludes, flags, &all, &skipped, err, errlen);
		struct stat st;
		if (n >= 0 && stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode))
			n += add_db_sources(s, paths[i], &all, from);
		if (n < 0) {
			sm_paths_push(&all, paths[i]); /* reported by the analyzer */
		} else if (n == 0 && skipped.n == nskipped) {
			snprintf(err, errlen, "no .cu or .cuh files under '%s'", paths[i]);
			run_error(s, SM_PROBLEM_NO_CUDA_FILES, err);
		}
	}
	for (size_t i = 0; i < skipped.n; i++)
		run_error(s, SM_PROBLEM_CANNOT_WALK, skipped.v[i]);
	sm_paths_free(&skipped);
	drop_duplicates(&all);
	s->files = calloc(all.n + 1, sizeof(*s->files));
	if (!s->files) {
		snprintf(err, errlen, "out of memory");
		sm_paths_free(&all);
		return -1;
	}
	for (size_t i = 0; i < all.n; i++) {
		/* round robin over the expanded, sorted list: every shard sees
		 * the same list, so the shards partition it */
		bool mine = s->o.shard_n <= 1 || (long)(i % (size_t)s->o.shard_n) == s->o.shard_k - 1;
		const struct sm_config *c = s->o.config_path ? &s->fixed : NULL;
		if (mine && !s->o.config_path && sm_config_cache_lookup(&s->configs, all.v[i], &c, err, errlen)) {
			for (size_t k = i; k < all.n; k++)
				free(all.v[k]);
			free(all.v);
			return -1;
		}
		if (!mine || (c && sm_config_excluded(c, all.v[i]))) {
			free(all.v[i]);
			continue;
		}
		struct sm_file_job *f = &s->files[s->nfiles++];
		f->path = all.v[i];
		f->cfg = c;
		file_options(s, f->path, c, &f->opt, &f->args);
		s->any_header_re |= f->opt.fe.header_filter != NULL;
		flags_problem(s, f);
	}
	free(all.v);
	warn_ignored_configs(s);
	return 0;
}

/* ---- workers ---- */

/* r for a file no front end could be started for */
static void parser_unavailable(struct sm_result *r, const char *path)
{
	struct sm_pos p0 = { 0, 0 };
	sm_result_init(r, path);
	sm_result_problem(r, SM_PROBLEM_CANNOT_START_PARSER, p0, "cannot start the parser for '%s'", path);
}

/* File i's analysis is over: its compile-command problem, its inline
 * suppressions, then what the report does not need is released
 * (sm_result_compact), so that a run's memory grows by a few hundred bytes
 * per clean file, not by its text and arena. Once per file, on the worker
 * that analyzed it (touches only file i), or in post_process for files
 * no worker saw. */
static void settle(struct sm_session *s, size_t i)
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
	sm_result_suppress(r, report_unused(s, f->cfg), f->opt.levels);
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
	int n = r->input_error ? 0 : sm_apply_fixes(r, s->o.log, err, sizeof(err));
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
		sm_result_suppress(hr, f && report_unused(s, f->cfg), f ? f->opt.levels : NULL);
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
	t->files_with_problems += r->nnotes > 0;
	s->input_errors += r->input_error;
	if (hand_over && s->o.on_result) {
		s->o.on_result(s->o.on_result_ctx, r);
		sm_result_free(r); /* zeroed: an empty result stays in its place */
	}
}

/* File i has settled (any thread): finish every file of the ready
 * prefix. One thread at a time finishes and hands over, in file order. */
static void stream_ready(struct sm_session *s, size_t i)
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

/* Analyze file i with front end fe (NULL: it could not be started). */
static void analyze_one(struct sm_session *s, struct sm_frontend *fe, size_t i)
{
	const struct sm_file_job *f = &s->files[i];
	struct sm_analysis_options o = f->opt;
	if (!fe) {
		parser_unavailable(&s->results[i], f->path);
	} else {
		o.fe.pch = s->cache ? sm_pch_cache_get(s->cache, fe, &o.fe) : NULL;
		sm_analyze_path(fe, f->path, &o, &s->results[i]);
		if (o.fe.pch && sm_frontend_pch_rejected(fe))
			sm_pch_cache_reject(s->cache, o.fe.pch);
	}
	settle(s, i);
	stream_ready(s, i);
}

/* One more file done: tell o.progress (under the lock: one call at a time). */
static void file_done(struct sm_session *s, size_t i)
{
	if (!s->o.progress)
		return;
	pthread_mutex_lock(&s->lock);
	s->done++;
	s->o.progress(s->o.progress_ctx, s->done, s->nfiles, s->files[i].path);
	pthread_mutex_unlock(&s->lock);
}

static void *worker(void *arg)
{
	struct sm_session *s = arg;
	struct sm_frontend *fe = sm_frontend_new();
	for (;;) {
		pthread_mutex_lock(&s->lock);
		size_t i = s->next++;
		pthread_mutex_unlock(&s->lock);
		if (i >= s->nfiles)
			break;
		analyze_one(s, fe, i);
		file_done(s, i);
	}
	sm_frontend_free(fe);
	return NULL;
}

static void run_threads(struct sm_session *s, int jobs)
{
	/* even for one job: libclang parses on this thread (see
	 * sm_session_process_init), and deeply nested code needs more stack
	 * than the main thread's */
	pthread_t *th = calloc((size_t)jobs, sizeof(*th));
	int started = 0;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, SM_WORKER_STACK);
	for (int t = 0; th && t < jobs; t++)
		if (pthread_create(&th[t], &attr, worker, s) == 0)
			started++;
	pthread_attr_destroy(&attr);
	if (!started)
		worker(s);
	for (int t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	free(th);
}

/* ---- --timeout: one child process per file ----
 *
 * libclang cannot be interrupted from inside a thread, so with a timeout
 * every file is analyzed in a forked child (at most `jobs` at a time) that
 * sends its sm_result back through a pipe (result_io.h). The parent is
 * single threaded while it forks, so the child inherits no held locks. A
 * child past its deadline is killed with SIGKILL and the file reported as
 * an error; a child that crashes is reported the same way. Memory and CPU
 * of a runaway parse go with the child. */

struct child {
	pid_t pid;
	int fd;
	size_t idx;
	char *buf;
	size_t len, cap;
	double deadline;
	const char *pch;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

#define PCH_REJECTED_EXIT 10

static void child_main(struct sm_session *s, size_t i, const struct sm_analysis_options *o, int fd)
{
	const char *path = s->files[i].path;
	struct sm_frontend *fe = sm_frontend_new();
	struct sm_result r;
	if (!fe)
		parser_unavailable(&r, path);
	else
		sm_analyze_path(fe, path, o, &r);
	FILE *f = fdopen(fd, "w");
	int rc = !f || sm_result_write(f, &r) != 0 || fflush(f) != 0;
	int rejected = o->fe.pch && fe && sm_frontend_pch_rejected(fe);
	_exit(rc ? 3 : rejected ? PCH_REJECTED_EXIT : 0);
}

static int start_child(struct sm_session *s, struct sm_frontend *pfe, size_t i, struct child *c)
{
	struct sm_analysis_options o = s->files[i].opt;
	o.fe.pch = s->cache ? sm_pch_cache_get(s->cache, pfe, &o.fe) : NULL;
	int fds[2];
	if (pipe(fds) != 0)
		return -1;
	fflush(NULL);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		child_main(s, i, &o, fds[1]);
	}
	close(fds[1]);
	memset(c, 0, sizeof(*c));
	c->pid = pid;
	c->fd = fds[0];
	c->idx = i;
	c->deadline = now_s() + s->o.timeout;
	c->pch = o.fe.pch;
	return 0;
}

static void finish_child(struct sm_session *s, struct child *c, int status, bool timed_out)
{
	const char *path = s->files[c->idx].path;
	struct sm_result *r = &s->results[c->idx];
	struct sm_pos p0 = { 0, 0 };
	if (timed_out) {
		sm_result_init(r, path);
		sm_result_problem(r, SM_PROBLEM_TIMED_OUT, p0,
			       "analysis timed out: '%s' took longer than %g seconds (--timeout); it was not analyzed",
			       path, s->o.timeout);
	} else if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == PCH_REJECTED_EXIT) &&
		   sm_result_read(c->buf, c->len, path, r) == 0) {
		if (WEXITSTATUS(status) == PCH_REJECTED_EXIT)
			sm_pch_cache_reject(s->cache, c->pch);
	} else {
		sm_result_init(r, path);
		if (WIFSIGNALED(status))
			sm_result_problem(r, SM_PROBLEM_ANALYSIS_CRASHED, p0, "analysis crashed: '%s' was not analyzed (signal %d, %s)",
				       path, WTERMSIG(status), strsignal(WTERMSIG(status)));
		else
			sm_result_problem(r, SM_PROBLEM_ANALYSIS_FAILED, p0, "analysis failed: '%s' was not analyzed (child exit %d)",
				       path, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	free(c->buf);
	c->buf = NULL;
	c->pid = 0;
}

/* Read what child c sent; returns true at its end of file. */
static bool drain_child(struct child *c, short revents)
{
	if (!(revents & (POLLIN | POLLHUP | POLLERR)))
		return false;
	SM_ALLOC_GROW(c->buf, c->len + 65536, c->cap); /* on failure: the read below reports EOF */
	ssize_t got = c->len < c->cap ? read(c->fd, c->buf + c->len, c->cap - c->len) : -1;
	if (got > 0)
		c->len += (size_t)got;
	else if (got == 0 || (errno != EINTR && errno != EAGAIN))
		return true;
	return false;
}

static void reap(struct sm_session *s, struct child *c, bool timed_out)
{
	int status = 0;
	if (timed_out)
		kill(c->pid, SIGKILL);
	close(c->fd);
	while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
		;
	finish_child(s, c, status, timed_out);
}

/* Start children in the free slots; returns how many run. */
static int fill_slots(struct sm_session *s, struct sm_frontend *pfe, struct child *ch, int jobs, int running)
{
	for (int k = 0; k < jobs && s->next < s->nfiles; k++) {
		if (ch[k].pid)
			continue;
		size_t i = s->next++;
		if (start_child(s, pfe, i, &ch[k]) != 0) {
			struct sm_pos p0 = { 0, 0 };
			sm_result_init(&s->results[i], s->files[i].path);
			sm_result_problem(&s->results[i], SM_PROBLEM_CANNOT_START_PROCESS, p0, "cannot start a process to analyze '%s': %s",
				       s->files[i].path, strerror(errno));
		} else {
			running++;
		}
	}
	return running;
}

static void run_forked(struct sm_session *s, int jobs)
{
	struct child *ch = calloc((size_t)jobs, sizeof(*ch));
	struct pollfd *pf = calloc((size_t)jobs, sizeof(*pf));
	struct sm_frontend *pfe = s->cache ? sm_frontend_new() : NULL; /* builds PCHs */
	int running = 0;
	if (!ch || !pf)
		jobs = 0;
	while ((running = fill_slots(s, pfe, ch, jobs, running)) > 0) {
		double t = now_s(), wait = 1e9;
		int np = 0;
		for (int k = 0; k < jobs; k++) {
			if (!ch[k].pid)
				continue;
			pf[np++] = (struct pollfd){ .fd = ch[k].fd, .events = POLLIN };
			if (ch[k].deadline - t < wait)
				wait = ch[k].deadline - t;
		}
		int ms = wait <= 0 ? 0 : wait > 1000 ? 1000 : (int)(wait * 1000) + 1;
		if (poll(pf, (nfds_t)np, ms) < 0 && errno != EINTR)
			break;
		t = now_s();
		for (int k = 0, p = 0; k < jobs; k++) {
			if (!ch[k].pid)
				continue;
			bool eof = drain_child(&ch[k], pf[p++].revents);
			if (eof || t >= ch[k].deadline) {
				size_t idx = ch[k].idx;
				reap(s, &ch[k], !eof);
				settle(s, idx);
				stream_ready(s, idx);
				file_done(s, idx);
				running--;
			}
		}
	}
	sm_frontend_free(pfe);
	free(ch);
	free(pf);
}

/* ---- after the analysis: suppressions, baseline, --fix ---- */

static void post_process(struct sm_session *s)
{
	char err[PATH_MAX + 256];
	for (size_t i = 0; i < s->nfiles; i++) {
		s->rp[i] = &s->results[i];
		settle(s, i);
	}
	/* the files not streamed yet give their header parts, in file order;
	 * then the header results follow the files */
	for (size_t i = s->finished; i < s->nfiles; i++)
		collect_parts(s, i);
	s->nresults = s->nfiles;
	finalize_headers(s);
	/* not streamed: every result is still here */
	if (s->o.write_baseline &&
	    sm_baseline_write(s->o.write_baseline, s->rp, (unsigned)s->nresults, err, sizeof(err))) {
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

/* Ask for every file's PCH before any worker starts: a PCH is built in a
 * forked child (pch_cache.c), and a fork is safest while this process has
 * one thread. Files of equal flags ask once (their PCH is then ready). */
static void warm_cache(struct sm_session *s)
{
	if (!s->cache || !s->nfiles)
		return;
	struct sm_frontend *fe = sm_frontend_new();
	for (size_t i = 0; fe && i < s->nfiles; i++)
		sm_pch_cache_get(s->cache, fe, &s->files[i].opt.fe);
	sm_frontend_free(fe);
}

static int job_count(const struct sm_session *s)
{
	int jobs = s->o.jobs;
	if (jobs <= 0) {
		long nc = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = nc > 0 ? (int)nc : 1;
	}
	if ((size_t)jobs > s->nfiles)
		jobs = (int)(s->nfiles ? s->nfiles : 1);
	return jobs;
}

int sm_session_run(struct sm_session *s, const char *const *paths, size_t npaths, char *err, size_t errlen)
{
	free_run(s);
	if (collect_files(s, paths, npaths, err, errlen))
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
	warm_cache(s);
	if (s->o.timeout > 0)
		run_forked(s, job_count(s));
	else
		run_threads(s, job_count(s));
	post_process(s);
	const char *why = s->cache ? sm_pch_cache_failure(s->cache) : NULL;
	if (why)
		fprintf(s->o.log, "smemlint: note: no header cache: %s; files were parsed without it\n", why);
	return 0;
}

int sm_session_print_clang_args(struct sm_session *s, const char *const *paths, size_t npaths, FILE *out,
				char *err, size_t errlen)
{
	free_run(s);
	if (collect_files(s, paths, npaths, err, errlen))
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
		parser_unavailable(r, path);
		return -1;
	}
	struct sm_analysis_options o = s->o.analysis;
	sm_config_apply(&s->cli, &o);
	o.fe.header_filter = NULL; /* one buffer, one result: no header results */
	int rc = sm_analyze_buffer(fe, path, text, len, &o, r);
	sm_frontend_free(fe);
	return rc;
}
