/* session_impl.h - the inside of a session (smemlint/session.h), shared
 * by the files that make it up; nothing outside analyzer/driver's
 * session*.c includes it.
 *
 * Design: one run is split by what each part models:
 *   session.c         the session's life: settings, prepare, run, results,
 *                     the exit status;
 *   session_files.c   the file list (walk, shards, duplicates, configs,
 *                     compile database sources) and each file's options;
 *   session_pool.c    the worker threads (one front end each) and the
 *                     header cache warmed before them;
 *   session_fork.c    --timeout: one child process per file;
 *   session_stream.c  a file's end (settle), then, in file order, header
 *                     results, the baseline, --fix, the counts and the
 *                     hand-over to o.on_result.
 * Workers touch only their own file's slots; what spans files is under
 * the session's two locks (see their fields). */
#ifndef SMEMLINT_DRIVER_SESSION_IMPL_H
#define SMEMLINT_DRIVER_SESSION_IMPL_H

#include <limits.h>
#include <pthread.h>
#include <regex.h>

#include "smemlint/session.h"

#include "base/fsutil.h"
#include "driver/config.h"
#include "driver/headers.h"
#include "driver/report.h"
#include "front/compdb.h"
#include "front/frontend.h"
#include "front/pch_cache.h"

/* One file to analyze. */
struct sm_file_job {
	char *path;
	const struct sm_config *cfg;     /* its config file, or NULL */
	struct sm_analysis_options opt;  /* its options (sm_session_file_options) */
	const char **args;               /* opt.fe.args when merged (malloc'd), or NULL */
	enum sm_problem_id flags_problem; /* about its compile command (-p), when flags_msg */
	char *flags_msg;                 /* malloc'd, or NULL */
	bool settled;                    /* its result is suppressed and compacted */
	bool ready;                      /* settled (under stream_lock) */
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
	char host_include[PATH_MAX];     /* gcc's own headers (omp.h), searched last */
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

/* session.c */
int sm_session_load_fixed_config(struct sm_session *s, char *err, size_t errlen);
/* Is --report-unused-suppressions on for a file whose config is cfg? */
bool sm_session_unused_wanted(const struct sm_session *s, const struct sm_config *cfg);
bool sm_session_fail_missing_wanted(const struct sm_session *s, const struct sm_config *cfg);

/* session_files.c */
void sm_session_file_options(const struct sm_session *s, const char *path, const struct sm_config *cfg,
			     struct sm_analysis_options *out, const char ***args);
int sm_session_collect_files(struct sm_session *s, const char *const *paths, size_t npaths, char *err, size_t errlen);
/* session_walk.c: drop from all the walked headers (walked[i]) that are
 * analyzed through their includers or define no kernel; alone[i] marks a
 * walked header kept to be parsed on its own. The three arrays stay
 * parallel. */
void sm_session_plan_headers(const struct sm_session *s, struct sm_paths *all, bool *walked, bool *alone);

/* session_pool.c */
void sm_session_warm_cache(struct sm_session *s);
int sm_session_job_count(const struct sm_session *s);
void sm_session_run_threads(struct sm_session *s, int jobs);
void sm_session_file_done(struct sm_session *s, size_t i);

/* session_fork.c */
void sm_session_run_forked(struct sm_session *s, int jobs);

/* session_stream.c */
void sm_session_no_parser(struct sm_result *r, const char *path);
void sm_session_settle(struct sm_session *s, size_t i);
void sm_session_stream_ready(struct sm_session *s, size_t i);
void sm_session_post_process(struct sm_session *s);

#endif
