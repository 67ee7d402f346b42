/* session.h - a lint run over many files (public): what the command, the
 * compiler launcher, the fuzzer and the unit tests all drive.
 *
 * A session holds the run's settings (the command line's, or an embedding
 * program's), and runs in four steps:
 *
 *   sm_session_process_init();            once per process, before threads
 *   s = sm_session_new();                 settings: sm_session_options(s)
 *                                         and the validating setters below
 *   sm_session_prepare(s, err)            config, baseline, compile database,
 *                                         toolkit: usage errors come back here
 *   sm_session_run(s, paths, n)           expand directories, shard, each
 *                                         file's options, analyze on workers
 *                                         (or one child per file with a
 *                                         timeout), suppress, baseline, --fix
 *
 * then the results (sorted by file, findings sorted) go to an emitter, and
 * sm_session_exit_status() gives 0 (no findings at fail_on or above), 1
 * (findings) or 2 (an input or usage error). Nothing is global: sessions in different threads
 * are independent, and one session's workers share only its header cache.
 */
#ifndef SMEMLINT_SESSION_H
#define SMEMLINT_SESSION_H

#include "smemlint/stage.h"
#if SM_STAGE < SM_STAGE_DRIVER
#error "smemlint/session.h belongs to the driver stage: lower stages may not include it"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "smemlint/options.h"
#include "smemlint/result.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sm_write_faults; /* base/fsutil.h: failures a test injects into writes */

/* The plain settings of a run; the defaults come from sm_session_new(). */
struct sm_session_options {
	struct sm_analysis_options analysis; /* the flags after --, --arch, --block-dim,
	                                      * --all-accesses; config files and the
	                                      * compile database are layered per file */
	const char *cuda_path;     /* --cuda-path; NULL: $CUDA_PATH, /usr/local/cuda or nvcc on PATH */
	bool no_cuda;              /* parse with the bundled CUDA declarations */
	const char *build_dir;     /* -p: BUILD_DIR/compile_commands.json, or NULL */
	const char *config_path;   /* --config FILE; NULL: each file's nearest .smemlint.yaml */
	const char *const *excludes; /* --exclude globs */
	int nexcludes;
	bool no_gitignore;         /* walk directories without git's ignore rules */
	const char *header_filter; /* --header-filter REGEX (POSIX extended) on the
	                            * absolute path of a header: its kernels and
	                            * __device__ functions are analyzed in the files
	                            * that include it and reported once, at the
	                            * header. NULL: headers under the current
	                            * directory; "": none. System and toolkit
	                            * headers never are. */
	long shard_k, shard_n;     /* analyze the shard_k-th of shard_n shares (0: all) */
	int jobs;                  /* files in parallel; 0: the number of cores */
	double timeout;            /* > 0: a file's child process is killed after this
	                            * many seconds (forces isolate) */
	bool isolate;              /* each file in a child process (the default):
	                            * a crash in libclang or the engine ends that
	                            * file alone, as an internal-error problem.
	                            * false: files on threads of this process,
	                            * where a crash ends the program */
	bool no_cache;             /* no precompiled header cache */
	const char *baseline;      /* --baseline FILE: drop the findings it lists */
	const char *write_baseline;/* --write-baseline FILE */
	bool fix;                  /* --fix: apply padding fixes in place */
	bool all_findings;         /* --all-findings: no folding past
	                            * SM_MAX_CAUSE_FINDINGS of one cause */
	enum sm_level fail_on;     /* the least level of a finding that makes the exit
	                            * status 1: SM_LEVEL_NOTE (the default: any
	                            * finding but an assumed one), ASSUMED (any),
	                            * WARNING or ERROR; SM_LEVEL_NONE:
	                            * findings never do (--fail-on never,
	                            * --exit-zero). Input errors still give 2. */
	FILE *log;                 /* where --fix changes and run errors go (stderr) */
	/* called as each file's analysis ends (from the worker that did it,
	 * one call at a time), with how many are done, of how many, and the
	 * file: for a progress line. NULL: none. */
	void (*progress)(void *ctx, size_t done, size_t total, const char *path);
	void *progress_ctx;
	/* called with each file's final result (suppressions, baseline and
	 * --fix applied), in file order, as soon as the file and every earlier
	 * one are done; one call at a time, from the thread that finished the
	 * file. After the call the session releases the result, so that a
	 * run's memory does not grow with its files (sm_session_results then
	 * gives empty results; sm_session_totals the counts). With
	 * --write-baseline, which needs every finding at once, the calls come
	 * at the end of sm_session_run. NULL: results are kept until the next
	 * run (sm_session_results). */
	void (*on_result)(void *ctx, const struct sm_result *r);
	void *on_result_ctx;
	/* tests only (the command sets it from its SMEMLINT_TEST_* variables;
	 * the library reads no environment for tests): failures injected into
	 * the files the run writes (--write-baseline, --fix). NULL: none. */
	const struct sm_write_faults *write_faults;
};

/* What a run found, counted as each file is finished (streamed or not). */
struct sm_session_totals {
	unsigned files;
	unsigned findings;
	unsigned by_level[5];             /* findings per enum sm_level */
	unsigned files_with_problems;     /* files with an input problem that is a
	                                   * warning or an error */
	unsigned files_with_notes_only;   /* files whose input problems are all
	                                   * notes (nvcc-accepts, call-not-followed) */
};

struct sm_session;

/* What every process that analyzes must do before it starts a thread: make
 * libclang parse on the calling thread (the workers' large stacks) and
 * turn a write over `ulimit -f` into an error instead of a signal. */
void sm_session_process_init(void);

/* A session with default settings, or NULL when out of memory. */
struct sm_session *sm_session_new(void);
void sm_session_free(struct sm_session *s);

/* The session's plain settings, to fill before sm_session_prepare. */
struct sm_session_options *sm_session_options(struct sm_session *s);

/* The command line's rule and shape choices. They are applied to every
 * file after its config file, so they win. Each returns 0, or -1 with err
 * filled (lowercase, the problem first). */
int sm_session_rules(struct sm_session *s, const char *list, bool enable, char *err, size_t errlen);
int sm_session_severity(struct sm_session *s, const char *spec, char *err, size_t errlen);
int sm_session_block(struct sm_session *s, const char *spec, char *err, size_t errlen);
int sm_session_arch(struct sm_session *s, const char *arch, char *err, size_t errlen);
void sm_session_report_unused(struct sm_session *s);
/* --fail-on-missing-headers: a file with a missing-header problem fails
 * the run (exit 2), as config's fail-on-missing-headers: true does. */
void sm_session_fail_missing(struct sm_session *s);
/* --fail-on LEVEL: "error", "warning", "note", "assumed" or "never" into fail_on. */
int sm_session_fail_on(struct sm_session *s, const char *level, char *err, size_t errlen);

/* Read what the settings name (--config, --baseline, the toolkit, the
 * compile database). Returns 0, or -1 with err filled (a usage error). */
int sm_session_prepare(struct sm_session *s, char *err, size_t errlen);

/* Print the configuration that applies to target as YAML (--dump-config).
 * Call after setting --config and the rule choices; no prepare needed.
 * Returns 0, or -1 with err filled. */
int sm_session_dump_config(struct sm_session *s, const char *target, FILE *out, char *err, size_t errlen);

/* Expand paths and run the analysis (see above). Input problems of single
 * files are in their results; returns 0, or -1 with err filled when the
 * run cannot go on (a config file that cannot be read, out of memory). */
int sm_session_run(struct sm_session *s, const char *const *paths, size_t npaths, char *err, size_t errlen);

/* Expand paths and print, for each file, the flags the front end would
 * pass to clang as a compile_commands.json-like array
 * (--print-clang-args). Returns 0, or -1 with err filled. */
int sm_session_print_clang_args(struct sm_session *s, const char *const *paths, size_t npaths, FILE *out,
				char *err, size_t errlen);

/* The results of the run, one per analyzed file, in file order (empty
 * ones for files already handed to o.on_result). */
struct sm_result *const *sm_session_results(const struct sm_session *s, unsigned *n);

/* The counts of the last run (after the baseline and --fix). */
void sm_session_totals(const struct sm_session *s, struct sm_session_totals *t);

/* Input errors tied to no file (a path with no CUDA files under it, a
 * directory that could not be walked). */
const char *const *sm_session_errors(const struct sm_session *s, unsigned *n);
/* The input problem of each of sm_session_errors (the same count). */
const enum sm_problem_id *sm_session_error_ids(const struct sm_session *s);

/* Count one more input or output error (a report that could not be
 * written): the exit status becomes 2. */
void sm_session_fail(struct sm_session *s);

/* 2: an input error, a failed write or fix; else 1: a finding at fail_on
 * or above (unless --write-baseline); else 0. */
int sm_session_exit_status(const struct sm_session *s);

/* Analyze one in-memory file with the session's settings (no config file,
 * no compile database) on the calling thread: for the fuzzer and unit
 * tests. r is filled in every case; returns 0, or -1 when the file could
 * not be analyzed (r's notifications say why). */
int sm_session_analyze_buffer(struct sm_session *s, const char *path, const char *text, size_t len,
			      struct sm_result *r);

#ifdef __cplusplus
}
#endif

#endif
