/* smemlint.c - the command: an option table over the session library.
 *
 * Every option is a row of options[] (its spelling, its value, its handler
 * and its --help line, as git's OPT_* tables); --help is printed from that
 * table and --format's values come from the emitter table (emit/emit.h).
 * Everything else (walking, configs, compile databases, workers,
 * timeouts, the header cache, suppressions, baselines, --fix) is the
 * session's (smemlint/session.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "base/fsutil.h"
#include "base/limits.h"
#include "driver/config.h"
#include "emit/emit.h"
#include "launcher.h"
#include "options.h"
#include "rules/explain.h"
#include "smemlint/session.h"

#ifndef SMEMLINT_VERSION
#define SMEMLINT_VERSION "0.1.0"
#endif

/* The command line as parsed so far. */
struct cli {
	int argc;
	char **argv;
	int i;                            /* the argument being parsed */
	struct sm_session *s;
	struct sm_session_options *so;    /* s's plain settings */
	const struct sm_emitter *format;  /* --format */
	const char *out_path;             /* -o */
	const char *html_path;            /* --html */
	struct sm_emit_options eo;
	struct sm_paths inputs;           /* the PATHs */
	const char **excludes;            /* --exclude, argv-sized */
	const char **flags;               /* after --, argv-sized */
	bool dump_config, print_args;
	bool statistics;                  /* --statistics */
	bool stdout_failed;               /* a report to stdout failed (said once) */
	bool quiet;                       /* --quiet: no progress, no closing line */
	int color;                        /* --color: 0 never, 1 always, -1 auto */
	bool progress_shown;              /* a progress line is on stderr */
	int status;                       /* exit status when a handler stops the command */
	char err[PATH_MAX + 256];
};

#define SESSION_STR(n, v, f, h) SM_OPT_STR(1, struct sm_session_options, n, v, f, h)
#define SESSION_BOOL(n, f, h) SM_OPT_BOOL(1, struct sm_session_options, n, f, h)
#define OWN_STR(n, v, f, h) SM_OPT_STR(0, struct cli, n, v, f, h)
#define OWN_BOOL(n, f, h) SM_OPT_BOOL(0, struct cli, n, f, h)

static int usage_error(struct cli *c, const char *fmt, const char *val)
{
	fprintf(stderr, "smemlint: ");
	fprintf(stderr, fmt, val);
	fputc('\n', stderr);
	c->status = 2;
	return 1;
}

/* a setter's error (already in c->err) */
static int fail(struct cli *c)
{
	return usage_error(c, "%s", c->err);
}

/* a handler that ends the command with status */
static int exit_with(struct cli *c, int status)
{
	c->status = status;
	return 1;
}

static void print_help(FILE *f);

/* ---- handlers ---- */

static int h_help(void *ctx, const char *v) { struct cli *c = ctx; print_help(stdout); return exit_with(c, 0); }
static int h_version(void *ctx, const char *v) { struct cli *c = ctx; printf("smemlint %s\n", SMEMLINT_VERSION); return exit_with(c, 0); }

static int h_list_rules(void *ctx, const char *v)
{
	struct cli *c = ctx;
	for (int r = 0; r < SM_RULE__COUNT; r++)
		printf("%-20s %-8s %s\n", sm_rules[r].id, sm_level_name(sm_rules[r].level), sm_rules[r].summary);
	return exit_with(c, 0);
}

static int h_explain(void *ctx, const char *v)
{
	struct cli *c = ctx;
	int r = sm_rule_find(v);
	if (r < 0)
		return usage_error(c, "unknown rule '%s' (see --list-rules)", v);
	return exit_with(c, sm_rule_explain(stdout, r, 0) ? 2 : 0);
}

/* The --format values from the emitter table: "text, json, sarif or
 * github", with each one's help after its name when with_help. */
static void format_list(char *out, size_t n, bool with_help)
{
	int count = 0, k = 0;
	for (const struct sm_emitter *e = sm_emitters; e->name; e++)
		count += e->by_format;
	size_t len = 0;
	out[0] = 0;
	for (const struct sm_emitter *e = sm_emitters; e->name && len < n; e++) {
		if (!e->by_format)
			continue;
		const char *sep = k == 0 ? "" : k == count - 1 ? " or " : ", ";
		bool h = with_help && *e->help;
		len += (size_t)snprintf(out + len, n - len, "%s%s%s%s", sep, e->name, h ? " " : "", h ? e->help : "");
		k++;
	}
}

static int h_format(void *ctx, const char *v)
{
	struct cli *c = ctx;
	const struct sm_emitter *e = sm_emitter_find(v);
	if (!e || !e->by_format) {
		char names[256], msg[320];
		format_list(names, sizeof(names), false);
		snprintf(msg, sizeof(msg), "unknown format '%%s' (%s)", names);
		return usage_error(c, msg, v);
	}
	c->format = e;
	return 0;
}

static int h_block(void *ctx, const char *v) { struct cli *c = ctx; return sm_session_block(c->s, v, c->err, sizeof(c->err)) ? fail(c) : 0; }
static int h_arch(void *ctx, const char *v) { struct cli *c = ctx; return sm_session_arch(c->s, v, c->err, sizeof(c->err)) ? fail(c) : 0; }
static int h_enable(void *ctx, const char *v) { struct cli *c = ctx; return sm_session_rules(c->s, v, true, c->err, sizeof(c->err)) ? fail(c) : 0; }
static int h_disable(void *ctx, const char *v) { struct cli *c = ctx; return sm_session_rules(c->s, v, false, c->err, sizeof(c->err)) ? fail(c) : 0; }
static int h_severity(void *ctx, const char *v) { struct cli *c = ctx; return sm_session_severity(c->s, v, c->err, sizeof(c->err)) ? fail(c) : 0; }
static int h_fail_on(void *ctx, const char *v) { struct cli *c = ctx; return sm_session_fail_on(c->s, v, c->err, sizeof(c->err)) ? fail(c) : 0; }
static int h_exit_zero(void *ctx, const char *v) { struct cli *c = ctx; c->so->fail_on = SM_LEVEL_NONE; return 0; }
static int h_report_unused(void *ctx, const char *v) { struct cli *c = ctx; sm_session_report_unused(c->s); return 0; }
static int h_exclude(void *ctx, const char *v) { struct cli *c = ctx; c->excludes[c->so->nexcludes++] = v; return 0; }

static int h_all_accesses(void *ctx, const char *v)
{
	struct cli *c = ctx;
	c->so->analysis.all_accesses = true;
	c->eo.all_accesses = true;
	return 0;
}

static int h_jobs(void *ctx, const char *v)
{
	struct cli *c = ctx;
	char *end;
	long j = strtol(v, &end, 10);
	if (*end || j < 1 || j > SM_MAX_JOBS)
		return usage_error(c, "invalid job count '%s'", v);
	c->so->jobs = (int)j;
	return 0;
}

static int h_shard(void *ctx, const char *v)
{
	struct cli *c = ctx;
	char *end;
	errno = 0;
	long k = strtol(v, &end, 10), n = 0;
	if (*end == '/')
		n = strtol(end + 1, &end, 10);
	if (errno || *end || n < 1 || n > SM_MAX_SHARDS || k < 1 || k > n)
		return usage_error(c, "invalid shard '%s': expected K/N with 1 <= K <= N", v);
	c->so->shard_k = k;
	c->so->shard_n = n;
	return 0;
}

static int h_timeout(void *ctx, const char *v)
{
	struct cli *c = ctx;
	char *end;
	errno = 0;
	double t = strtod(v, &end);
	if (errno || *end || end == v || !(t > 0) || t > SM_MAX_TIMEOUT_S)
		return usage_error(c, "invalid timeout '%s': expected a positive number of seconds", v);
	c->so->timeout = t;
	return 0;
}

static int h_budget(void *ctx, const char *v)
{
	struct cli *c = ctx;
	char *end;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 10);
	if (errno || *end || end == v || v[0] == '-')
		return usage_error(c, "invalid analysis budget '%s': expected a count of evaluation steps (0: none)", v);
	c->so->analysis.analysis_budget = n ? (uint64_t)n : UINT64_MAX;
	return 0;
}

static int h_color(void *ctx, const char *v)
{
	struct cli *c = ctx;
	if (!strcmp(v, "auto"))
		c->color = -1;
	else if (!strcmp(v, "always"))
		c->color = 1;
	else if (!strcmp(v, "never"))
		c->color = 0;
	else
		return usage_error(c, "invalid --color '%s': expected auto, always or never", v);
	return 0;
}

static int h_launcher(void *ctx, const char *v) { struct cli *c = ctx; return exit_with(c, sm_launcher_main(c->argc, c->argv, c->i)); }

/* "--": the rest are compiler flags */
static int h_flags(void *ctx, const char *v)
{
	struct cli *c = ctx;
	struct sm_analysis_options *a = &c->so->analysis;
	for (c->i++; c->i < c->argc; c->i++)
		c->flags[a->fe.nargs++] = c->argv[c->i];
	a->fe.args = c->flags;
	return 0;
}

/* the formats, and the alias (ruff's spelling) */
static void format_help(char *buf, size_t n)
{
	format_list(buf, n, true);
	size_t len = strlen(buf);
	snprintf(buf + len, n - len, "; also --output-format=FMT");
}

static const struct sm_opt options[] = {
	{ .name = "--format", .alias = "--output-format", .value = "FMT", .fn = h_format, .help = "",
	  .spelled = "--format=FMT", .help_fn = format_help },
	{ .name = "-o", .alias = "--output", .value = "FILE", .kind = SM_OPT_STR, .field = offsetof(struct cli, out_path),
	  .help = "write the report to FILE (atomically)" },
	OWN_STR("--html", "FILE", html_path, "also write a self-contained HTML report with bank maps"),
	OWN_BOOL("--statistics", statistics,
		 "count findings per rule, level and file, and input\nproblems per id: after a text report on stdout, else\non stderr"),
	SM_OPT_CALL("--block-dim", "X[,Y[,Z]]", h_block, "analyze every kernel with this block shape"),
	SM_OPT_CALL("--arch", "sm_NN", h_arch, "target architecture (default sm_90)"),
	SESSION_STR("--cuda-path", "DIR", cuda_path,
			"CUDA toolkit to parse with (default: $CUDA_PATH,\n/usr/local/cuda, or nvcc on PATH)"),
	SESSION_BOOL("--no-cuda", no_cuda, "parse with smemlint's bundled CUDA declarations"),
	SESSION_STR("-p", "BUILD_DIR", build_dir, "read compile flags from BUILD_DIR/compile_commands.json"),
	SESSION_STR("--header-filter", "REGEX", header_filter,
		    "analyze kernels and __device__ functions of the headers\nwhose absolute path matches REGEX (POSIX extended) in\nthe files that include them, reported once at the header\n(default: headers under the current directory; '' for\nnone; never system or toolkit headers)"),
	SM_OPT_CALL("--enable", "RULE[,..]", h_enable, "enable rules (all are enabled by default)"),
	SM_OPT_CALL("--disable", "RULE[,..]", h_disable, "disable rules"),
	SM_OPT_CALL("--severity", "RULE=LEVEL[,..]", h_severity, "set a rule's level: error, warning, note or none"),
	SESSION_STR("--config", "FILE", config_path, "use this config instead of the nearest .smemlint.yaml"),
	OWN_BOOL("--dump-config", dump_config, "print the configuration in effect (YAML) and exit"),
	SM_OPT_CALL("--report-unused-suppressions", NULL, h_report_unused,
		 "report inline suppressions that matched nothing"),
	SESSION_STR("--baseline", "FILE", baseline, "report only findings whose fingerprint is not in FILE"),
	SESSION_STR("--write-baseline", "FILE", write_baseline, "write the fingerprints of the findings to FILE"),
	SM_OPT_CALL("--exclude", "GLOB", h_exclude, "skip matching files and directories (repeatable)"),
	{ .name = "-j", .value = "N", .fn = h_jobs, .attached = true,
	  .help = "analyze N files in parallel (default: number of cores)" },
	SM_OPT_CALL("--shard", "K/N", h_shard, "analyze only the K-th of N shares of the files (1 <= K <= N)"),
	SM_OPT_CALL("--timeout", "SECONDS", h_timeout,
		 "give up on a file after SECONDS (each file then runs in\na child process); it is reported as an error"),
	SM_OPT_CALL("--analysis-budget", "N", h_budget,
		 "evaluation steps one file may take (default 1e9, about\n10 s; 0: no limit); past them its results are\npartial (analysis-budget-exceeded)"),
	SESSION_BOOL("--no-cache", no_cache, "do not use or write the precompiled CUDA header cache"),
	SESSION_BOOL("--no-gitignore", no_gitignore, "walk directories without skipping what git ignores"),
	OWN_BOOL("--show-banks", eo.show_banks, "text: print a lanes x banks map under each conflict"),
	SESSION_BOOL("--fix", fix, "apply padding fixes to the files in place"),
	SM_OPT_CALL("--fail-on", "LEVEL", h_fail_on,
		 "exit 1 only for findings at LEVEL or above: error,\nwarning, note (the default: any finding) or never"),
	SM_OPT_CALL("--exit-zero", NULL, h_exit_zero, "findings never make the exit status 1 (--fail-on never)"),
	SM_OPT_CALL("--color", "WHEN", h_color,
		 "colour the text report: auto (a terminal, unless NO_COLOR\nis set), always or never"),
	{ .name = "-q", .alias = "--quiet", .kind = SM_OPT_BOOL, .field = offsetof(struct cli, quiet),
	  .help = "no progress line and no closing summary on stderr", .spelled = "-q, --quiet" },
	SM_OPT_CALL("--all-accesses", NULL, h_all_accesses, "json: list every shared access with its degree"),
	OWN_BOOL("--print-clang-args", print_args, NULL),
	SM_OPT_CALL("--list-rules", NULL, h_list_rules, "list the rules and exit"),
	SM_OPT_CALL("--explain", "RULE", h_explain, "what a rule reports, an example, and the fix"),
	{ .name = "--launcher", .fn = h_launcher, .spelled = "--launcher -- CC ARGS...",
	  .help = "lint the .cu files of a compile command, then run it\n(for CMAKE_CUDA_COMPILER_LAUNCHER)" },
	SM_OPT_CALL("--version", NULL, h_version, "print the version and exit"),
	{ .name = "-h", .alias = "--help", .fn = h_help, .help = "this help", .spelled = "-h, --help" },
	SM_OPT_CALL("--", NULL, h_flags, NULL),
};

#define NOPTIONS (sizeof(options) / sizeof(options[0]))

/* ---- --help and parsing, from the table ---- */

static void print_help(FILE *f)
{
	fprintf(f, "usage: smemlint [options] PATH... [-- COMPILER-FLAGS...]\n\n"
		   "Static analysis of CUDA shared-memory accesses: bank conflicts and barriers.\n"
		   "PATH is a .cu/.cuh file or a directory (searched recursively); '-' reads\n"
		   "the paths from standard input, one a line (or NUL-separated). A PATH\n"
		   "that starts with '-' is written ./-x.cu ('--' starts the compiler flags);\n"
		   "an option's value may start with '-' (-o -x.json).\n\noptions:\n");
	sm_opt_help(f, options, NOPTIONS);
	fprintf(f, "\nexit status: 0 no findings, 1 findings (at --fail-on's level or above), 2 a\n"
		   "usage error or an input problem of level error (a file not read or parsed);\n"
		   "warnings about the input do not change it. With --fix: what is left after\n"
		   "fixing.\n");
}

/* Returns 0 to run, or 1 to exit with c->status. */
static int parse(struct cli *c)
{
	void *const targets[2] = { c, c->so };
	for (c->i = 1; c->i < c->argc; c->i++) {
		const char *a = c->argv[c->i], *val = NULL;
		const struct sm_opt *o = NULL;
		if (a[0] != '-' || !a[1]) {
			sm_paths_push(&c->inputs, a);
			continue;
		}
		int m = sm_opt_match(options, NOPTIONS, c->argc, c->argv, &c->i, &o, &val);
		if (m < 0)
			return usage_error(c, "option '%s' needs a value (see --help)", a);
		if (m == 0) {
			/* never taken as a path, so that an option added later
			 * cannot change what a command means; a file of that
			 * name is pointed at instead */
			struct stat st;
			if (!stat(a, &st)) {
				fprintf(stderr, "smemlint: unknown option '%s' (to analyze the file of that name, "
						"write './%s')\n", a, a);
				c->status = 2;
				return 1;
			}
			return usage_error(c, "unknown option '%s' (see --help)", a);
		}
		if (sm_opt_apply(o, targets, c, val))
			return 1;
	}
	return 0;
}

/* ---- running ---- */

/* Replace each "-" among the PATHs by the file list on standard input,
 * read once (a second "-" adds nothing): one path a line (a '\r' before
 * the '\n' is dropped, empty lines are skipped), or one per NUL when the
 * list holds a NUL (git ls-files -z, find -print0), so that any path can
 * be given. Each path is then what it would be on the command line; one
 * that starts with '-' is read as ./NAME (as it is written there).
 * Returns 0, or 1 with the status set (2) when the list cannot be read. */
static int read_stdin_paths(struct cli *c)
{
	bool any = false, read_it = false;
	for (size_t i = 0; i < c->inputs.n; i++)
		any |= !strcmp(c->inputs.v[i], "-");
	if (!any)
		return 0;
	struct sm_paths all = { 0 };
	for (size_t i = 0; i < c->inputs.n; i++) {
		if (strcmp(c->inputs.v[i], "-")) {
			sm_paths_push(&all, c->inputs.v[i]);
			continue;
		}
		if (read_it)
			continue;
		read_it = true;
		char *buf;
		size_t len;
		int rc = sm_read_fd(0, SM_MAX_STDIN_LIST_BYTES, &buf, &len);
		if (rc) {
			if (rc == -2)
				fprintf(stderr, "smemlint: the file list on standard input is larger than %u bytes\n",
					SM_MAX_STDIN_LIST_BYTES);
			else
				fprintf(stderr, "smemlint: cannot read the file list from standard input: %s\n",
					strerror(errno));
			sm_paths_free(&all);
			c->status = 2;
			return 1;
		}
		char sep = memchr(buf, 0, len) ? '\0' : '\n';
		size_t before = all.n;
		for (size_t at = 0; at < len;) {
			char *p = buf + at, *end = memchr(p, sep, len - at);
			size_t n = end ? (size_t)(end - p) : len - at;
			at += n + 1;
			if (sep == '\n' && n && p[n - 1] == '\r')
				n--;
			p[n] = 0;
			if (n && p[0] == '-') {
				/* as it is written on the command line: clang
				 * would take "-x.cu" for one of its options */
				char *dot = malloc(n + 3);
				if (!dot) {
					fprintf(stderr, "smemlint: out of memory reading the file list\n");
					free(buf);
					sm_paths_free(&all);
					c->status = 2;
					return 1;
				}
				memcpy(dot, "./", 2);
				memcpy(dot + 2, p, n + 1);
				sm_paths_push(&all, dot);
				free(dot);
			} else if (n) {
				sm_paths_push(&all, p);
			}
		}
		free(buf);
		if (all.n == before)
			fprintf(stderr, "smemlint: warning: the file list on standard input is empty\n");
	}
	sm_paths_free(&c->inputs);
	c->inputs = all;
	return 0;
}

struct report {
	const struct sm_emitter *emitter;
	struct sm_result *const *res;
	unsigned n;
	const struct sm_emit_options *eo;
	/* streamed: the run happens while the report is written */
	struct cli *c;
	struct sm_emit_stream st;
	bool begun;                   /* the format's start is written */
	int stream_rc;                /* a part could not be written */
	int run_rc;                   /* sm_session_run's */
};

static void print_input_errors(const struct sm_result *r)
{
	for (unsigned k = 0; k < r->nnotes; k++)
		if (r->notes[k].level == SM_LEVEL_ERROR)
			fprintf(stderr, "smemlint: error: %s\n", r->notes[k].message);
}

/* The format's start, before its first file or its end: a run that fails
 * before any file (a config that cannot be read) writes nothing. */
static void stream_begin(struct report *r)
{
	if (!r->begun && r->emitter->begin)
		r->stream_rc = r->emitter->begin(&r->st);
	r->begun = true;
}

/* One finished file of a streamed run (session.h, on_result). */
static void stream_file(void *ctx, const struct sm_result *res)
{
	struct report *r = ctx;
	stream_begin(r);
	if (r->stream_rc == 0)
		r->stream_rc = r->emitter->file(&r->st, res);
	/* input errors also go to stderr when the report is machine readable
	 * or written to a file */
	if (r->c->format != sm_emitters || r->c->out_path)
		print_input_errors(res);
}

/* A streamed report: the format's start, the run (each file written as
 * it finishes, in order), the format's end. */
static int stream_report(FILE *f, struct report *r)
{
	struct cli *c = r->c;
	r->st = (struct sm_emit_stream){ f, r->eo, NULL };
	c->so->on_result = stream_file;
	c->so->on_result_ctx = r;
	r->run_rc = sm_session_run(c->s, (const char *const *)c->inputs.v, c->inputs.n, c->err, sizeof(c->err));
	c->so->on_result = NULL;
	if (r->run_rc)
		return -1;
	stream_begin(r);
	int rc = 0;
	unsigned nerr;
	c->eo.errors = sm_session_errors(c->s, &nerr);
	c->eo.error_ids = sm_session_error_ids(c->s);
	c->eo.nerrors = nerr;
	rc |= r->stream_rc;
	if (r->emitter->end)
		rc |= r->emitter->end(&r->st);
	return r->run_rc || rc || ferror(f) ? -1 : 0;
}

static int write_report(FILE *f, void *ctx)
{
	struct report *r = ctx;
	if (r->c)
		return stream_report(f, r);
	return r->emitter->emit(f, r->res, r->n, r->eo);
}

/* Write report r to path (atomically) or stdout; returns 0 or -1. A
 * streamed report runs the analysis here (stream_report): a run that
 * fails (r->run_rc, its error in c->err) leaves no report file and is not
 * a write error. */
static int emit_to(struct cli *c, const char *path, struct report *r)
{
	if (!path) {
		errno = 0;
		int rc = write_report(stdout, r);
		int saved = errno;
		if (r->run_rc)
			return -1;
		if (fflush(stdout) != 0 || ferror(stdout) || rc) {
			int why = errno ? errno : saved ? saved : EIO;
			fprintf(stderr, "smemlint: cannot write the report to standard output: %s\n", strerror(why));
			clearerr(stdout);
			c->stdout_failed = true;
			return -1;
		}
		return 0;
	}
	char werr[sizeof(c->err)];
	if (sm_write_atomic(path, write_report, r, werr, sizeof(werr))) {
		if (!r->run_rc)
			fprintf(stderr, "smemlint: %s\n", werr);
		return -1;
	}
	return 0;
}

static int emit(struct cli *c, const struct sm_emitter *e, const char *path, struct sm_result *const *res, unsigned n)
{
	struct report r = { .emitter = e, .res = res, .n = n, .eo = &c->eo };
	return emit_to(c, path, &r);
}

/* The progress line: on a terminal, one line rewritten in place. */
static void progress(void *ctx, size_t done, size_t total, const char *path)
{
	struct cli *c = ctx;
	fprintf(stderr, "\r\033[K[%zu/%zu] %s", done, total, path);
	fflush(stderr);
	c->progress_shown = true;
}

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The closing line on stderr: N findings (E errors, W warnings, K notes)
 * in F files; P files with input problems; T s */
static void summary(const struct sm_session_totals *t, double secs)
{
	unsigned total = t->findings, n = t->files, problems = t->files_with_problems;
	char by[96] = "";
	size_t len = 0;
	static const enum sm_level order[] = { SM_LEVEL_ERROR, SM_LEVEL_WARNING, SM_LEVEL_NOTE };
	for (int k = 0; k < 3; k++) {
		unsigned m = t->by_level[order[k]];
		if (m)
			len += (size_t)snprintf(by + len, sizeof(by) - len, "%s%u %s%s", len ? ", " : " (", m,
						sm_level_name(order[k]), m == 1 ? "" : "s");
	}
	if (len)
		snprintf(by + len, sizeof(by) - len, ")");
	fprintf(stderr, "smemlint: %u finding%s%s in %u file%s; %u file%s with input problems; %.1f s\n", total,
		total == 1 ? "" : "s", by, n, n == 1 ? "" : "s", problems, problems == 1 ? "" : "s", secs);
}

static int run(struct cli *c)
{
	double t0 = seconds();
	const char *const *paths = (const char *const *)c->inputs.v;
	if (c->dump_config) {
		if (sm_session_dump_config(c->s, c->inputs.n ? paths[0] : ".", stdout, c->err, sizeof(c->err)))
			return fail(c) * 2; /* 2: the error is printed */
		return 0;
	}
	if (sm_session_prepare(c->s, c->err, sizeof(c->err)))
		return fail(c) * 2; /* 2: the error is printed */
	if (!c->inputs.n) {
		fprintf(stderr, "smemlint: no input files\n");
		print_help(stderr);
		return 2;
	}
	/* after prepare (a usage error first), before anything is analyzed;
	 * an empty list from a pipe is a run over no files, not an error */
	if (read_stdin_paths(c))
		return c->status;
	paths = (const char *const *)c->inputs.v;
	if (c->print_args)
		return sm_session_print_clang_args(c->s, paths, c->inputs.n, stdout, c->err, sizeof(c->err)) ? 2 : 0;
	c->eo.version = SMEMLINT_VERSION;
	/* colour: text to a terminal (auto), unless NO_COLOR is set or TERM is dumb */
	const char *term = getenv("TERM"), *nc = getenv("NO_COLOR");
	c->eo.color = c->format == sm_emitters && !c->out_path &&
		      (c->color == 1 || (c->color < 0 && isatty(1) && !(nc && *nc) && !(term && !strcmp(term, "dumb"))));
	/* the report is written as files finish, so that memory does not grow
	 * with them, unless another report (--html, --statistics) needs every
	 * result at the end */
	bool stream = c->format->file && !c->html_path && !c->statistics;
	/* a progress line only on a terminal, never into a report, and not
	 * over a report that streams to the same terminal */
	if (!c->quiet && isatty(2) && !(stream && !c->out_path && isatty(1))) {
		c->so->progress = progress;
		c->so->progress_ctx = c;
	}
	int rc = 0;
	unsigned n = 0, nerr;
	struct sm_result *const *res = NULL;
	if (stream) {
		struct report r = { .emitter = c->format, .eo = &c->eo, .c = c };
		if (emit_to(c, c->out_path, &r) && !r.run_rc)
			sm_session_fail(c->s);
		rc = r.run_rc;
	} else {
		rc = sm_session_run(c->s, paths, c->inputs.n, c->err, sizeof(c->err));
	}
	if (c->progress_shown)
		fputs("\r\033[K", stderr);
	if (rc)
		return fail(c) * 2; /* 2: the error is printed */
	if (!stream) {
		res = sm_session_results(c->s, &n);
		c->eo.errors = sm_session_errors(c->s, &nerr);
		c->eo.error_ids = sm_session_error_ids(c->s);
		c->eo.nerrors = nerr;
		if (emit(c, c->format, c->out_path, res, n))
			sm_session_fail(c->s);
	}
	if (c->html_path && emit(c, sm_emitter_find("html"), c->html_path, res, n))
		sm_session_fail(c->s);
	/* the statistics follow a text report on stdout; they never go into a
	 * machine-readable report or a report file */
	if (c->statistics) {
		const struct sm_emitter *st = sm_emitter_find("statistics");
		if (c->format == sm_emitters && !c->out_path) {
			if (emit(c, st, NULL, res, n))
				sm_session_fail(c->s);
		} else if (st->emit(stderr, res, n, &c->eo)) {
			sm_session_fail(c->s);
		}
	}
	/* input errors also go to stderr in text form when the report is
	 * machine readable or written to a file (a streamed report printed
	 * them as it went) */
	if (c->format != sm_emitters || c->out_path)
		for (unsigned i = 0; i < n; i++)
			print_input_errors(res[i]);
	struct sm_session_totals t;
	sm_session_totals(c->s, &t);
	if (!c->quiet)
		summary(&t, seconds() - t0);
	return sm_session_exit_status(c->s);
}

/* Every write to stdout is checked here once more, at the end (as gnulib's
 * close_stdout): a full disk, /dev/full, a closed stdout or a reader that
 * went away (SIGPIPE is ignored, so EPIPE) is an error with exit status 2. */
static int close_stdout(struct cli *c, int status)
{
	errno = 0;
	bool failed = ferror(stdout) != 0;
	if ((fclose(stdout) != 0 || failed) && !c->stdout_failed) {
		fprintf(stderr, "smemlint: cannot write to standard output: %s\n", strerror(errno ? errno : EIO));
		return 2;
	}
	return c->stdout_failed ? 2 : status;
}

/* A closed standard descriptor would be reused by the next file opened
 * (a source, a report's temporary) and the report written into it: hold
 * each closed one with /dev/null opened the wrong way round, so that its
 * reads and writes fail (EBADF) and are reported. */
static void hold_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
			int got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
			if (got >= 0 && got != fd)
				close(got); /* cannot happen: open takes the lowest free descriptor */
		}
}

int main(int argc, char **argv)
{
	hold_std_fds();
	sm_session_process_init();
	signal(SIGPIPE, SIG_IGN); /* a closed pipe is a write error (EPIPE), reported */
	struct cli c = { .argc = argc, .argv = argv, .format = sm_emitters, .color = -1 };
	c.s = sm_session_new();
	c.excludes = calloc((size_t)argc + 1, sizeof(char *));
	c.flags = calloc((size_t)argc + 1, sizeof(char *));
	int status = 2;
	if (c.s && c.excludes && c.flags) {
		c.so = sm_session_options(c.s);
		c.so->excludes = c.excludes;
		status = parse(&c) ? c.status : run(&c);
	} else {
		fprintf(stderr, "smemlint: out of memory\n");
	}
	sm_session_free(c.s);
	sm_paths_free(&c.inputs);
	free(c.excludes);
	free(c.flags);
	return close_stdout(&c, status);
}
