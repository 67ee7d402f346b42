/* smemlint.c - the command: an option table over the session library.
 *
 * Every option is a row of options[] (its spelling, its value, its handler
 * and its --help line, as git's OPT_* tables); --help is printed from that
 * table and --format's values come from the emitter table (emit/emit.h).
 * Everything else (walking, configs, compile databases, workers,
 * timeouts, the header cache, suppressions, baselines, --fix) is the
 * session's (smemlint/session.h); the run and its reports, the progress
 * and closing lines are report.c's, the file list on standard input
 * paths.c's, and the SMEMLINT_TEST_* variables test_hooks.c's (cli.h). */
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

#include "base/arch.h"
#include "base/fsutil.h"
#include "base/limits.h"
#include "cli.h"
#include "driver/config.h"
#include "emit/emit.h"
#include "launcher.h"
#include "options.h"
#include "rules/explain.h"
#include "smemlint/session.h"

#ifndef SMEMLINT_VERSION
#define SMEMLINT_VERSION "0.1.0"
#endif
/* the source tree's git describe, "" outside a checkout (cmake/git_describe.cmake) */
#if __has_include("smemlint_git.h")
#include "smemlint_git.h"
#else
#define SMEMLINT_GIT_DESCRIBE ""
#endif

#define SESSION_STR(n, v, f, h) SM_OPT_STR(1, struct sm_session_options, n, v, f, h)
#define SESSION_BOOL(n, f, h) SM_OPT_BOOL(1, struct sm_session_options, n, f, h)
#define OWN_STR(n, v, f, h) SM_OPT_STR(0, struct cli, n, v, f, h)
#define OWN_BOOL(n, f, h) SM_OPT_BOOL(0, struct cli, n, f, h)


/* a handler that ends the command with status */
static int exit_with(struct cli *c, int status)
{
	c->status = status;
	return 1;
}

static void print_help(FILE *f);

/* ---- handlers ---- */

static int h_help(void *ctx, const char *v) { struct cli *c = ctx; print_help(stdout); return exit_with(c, 0); }
static int h_version(void *ctx, const char *v)
{
	struct cli *c = ctx;
	if (SMEMLINT_GIT_DESCRIBE[0])
		printf("smemlint %s (git %s)\n", SMEMLINT_VERSION, SMEMLINT_GIT_DESCRIBE);
	else
		printf("smemlint %s\n", SMEMLINT_VERSION);
	return exit_with(c, 0);
}

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
		return sm_cli_usage_error(c, "unknown rule '%s' (see --list-rules)", v);
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
		return sm_cli_usage_error(c, msg, v);
	}
	c->format = e;
	return 0;
}

static int h_block(void *ctx, const char *v) { struct cli *c = ctx; return sm_session_block(c->s, v, c->err, sizeof(c->err)) ? sm_cli_fail(c) : 0; }
static int h_arch(void *ctx, const char *v) { struct cli *c = ctx; return sm_session_arch(c->s, v, c->err, sizeof(c->err)) ? sm_cli_fail(c) : 0; }
static int h_enable(void *ctx, const char *v) { struct cli *c = ctx; return sm_session_rules(c->s, v, true, c->err, sizeof(c->err)) ? sm_cli_fail(c) : 0; }
static int h_disable(void *ctx, const char *v) { struct cli *c = ctx; return sm_session_rules(c->s, v, false, c->err, sizeof(c->err)) ? sm_cli_fail(c) : 0; }
static int h_severity(void *ctx, const char *v) { struct cli *c = ctx; return sm_session_severity(c->s, v, c->err, sizeof(c->err)) ? sm_cli_fail(c) : 0; }
static int h_fail_on(void *ctx, const char *v) { struct cli *c = ctx; return sm_session_fail_on(c->s, v, c->err, sizeof(c->err)) ? sm_cli_fail(c) : 0; }
static int h_exit_zero(void *ctx, const char *v) { struct cli *c = ctx; c->so->fail_on = SM_LEVEL_NONE; return 0; }
static int h_report_unused(void *ctx, const char *v) { struct cli *c = ctx; sm_session_report_unused(c->s); return 0; }
static int h_fail_missing(void *ctx, const char *v) { struct cli *c = ctx; sm_session_fail_missing(c->s); return 0; }
static int h_exclude(void *ctx, const char *v) { struct cli *c = ctx; c->excludes[c->so->nexcludes++] = v; return 0; }

static int h_ncu(void *ctx, const char *v)
{
	struct cli *c = ctx;
	c->ncu[c->nncu++] = v;
	c->so->analysis.all_accesses = true;
	return 0;
}

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
		return sm_cli_usage_error(c, "invalid job count '%s'", v);
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
		return sm_cli_usage_error(c, "invalid shard '%s': expected K/N with 1 <= K <= N", v);
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
		return sm_cli_usage_error(c, "invalid timeout '%s': expected a positive number of seconds", v);
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
		return sm_cli_usage_error(c, "invalid analysis budget '%s': expected a count of evaluation steps (0: none)", v);
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
		return sm_cli_usage_error(c, "invalid --color '%s': expected auto, always or never", v);
	return 0;
}

static int h_launcher(void *ctx, const char *v) { struct cli *c = ctx; return exit_with(c, sm_launcher_main(c->args.argc, c->args.argv, c->args.i)); }

/* "--": the rest are compiler flags */
static int h_flags(void *ctx, const char *v)
{
	struct cli *c = ctx;
	struct sm_analysis_options *a = &c->so->analysis;
	for (c->args.i++; c->args.i < c->args.argc; c->args.i++)
		c->flags[a->fe.nargs++] = c->args.argv[c->args.i];
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
	SM_OPT_CALL("--arch", "sm_NN", h_arch, "target architecture (default " SM_DEFAULT_ARCH ")"),
	SESSION_STR("--cuda-path", "DIR", cuda_path,
			"CUDA toolkit to parse with (default: $CUDA_PATH,\n/usr/local/cuda, or nvcc on PATH)"),
	SESSION_BOOL("--no-cuda", no_cuda, "parse with smemlint's bundled CUDA declarations"),
	SESSION_STR("-p", "BUILD_DIR", build_dir, "read compile flags from BUILD_DIR/compile_commands.json"),
	SESSION_STR("--header-filter", "REGEX", header_filter,
		    "analyze kernels and __device__ functions of the headers\nwhose absolute path matches REGEX (POSIX extended) in\nthe files that include them, reported once at the header\n(default: headers under the current directory; '' for\nnone; never system or toolkit headers)"),
	SM_OPT_CALL("--enable", "RULE[,..]", h_enable, "enable rules (all are enabled by default)"),
	SM_OPT_CALL("--disable", "RULE[,..]", h_disable, "disable rules"),
	SM_OPT_CALL("--severity", "RULE=LEVEL[,..]", h_severity, "set a rule's level: error, warning, note, assumed or\nnone"),
	SESSION_STR("--config", "FILE", config_path, "use this config instead of the nearest .smemlint.yaml"),
	OWN_BOOL("--dump-config", dump_config, "print the configuration in effect (YAML) and exit"),
	SM_OPT_CALL("--report-unused-suppressions", NULL, h_report_unused,
		 "report inline suppressions that matched nothing"),
	SM_OPT_CALL("--fail-on-missing-headers", NULL, h_fail_missing,
		 "a file whose headers are missing (missing-header) fails\nthe run (exit 2); by default it is a warning"),
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
	SESSION_BOOL("--all-findings", all_findings, "report every finding (past 50 of one cause they are\nfolded into the last one shown, which says how many)"),
	SESSION_BOOL("--fix", fix, "apply padding and swizzle fixes to the files in place"),
	SM_OPT_CALL("--fail-on", "LEVEL", h_fail_on,
		 "exit 1 only for findings at LEVEL or above: error,\nwarning, note (the default: any finding but an assumed\none), assumed or never"),
	SM_OPT_CALL("--exit-zero", NULL, h_exit_zero, "findings never make the exit status 1 (--fail-on never)"),
	SM_OPT_CALL("--color", "WHEN", h_color,
		 "colour the text report: auto (a terminal, unless NO_COLOR\nis set), always or never"),
	{ .name = "-q", .alias = "--quiet", .kind = SM_OPT_BOOL, .field = offsetof(struct cli, quiet),
	  .help = "no progress line and no closing summary on stderr", .spelled = "-q, --quiet" },
	SM_OPT_CALL("--all-accesses", NULL, h_all_accesses, "json: list every shared access with its degree"),
	SM_OPT_CALL("--compare-ncu", "CSV", h_ncu,
		 "put an Nsight Compute export (ncu -i REP --page source\n--csv --print-source cuda,sass) beside the predicted\ndegrees, line by line (repeatable)"),
	OWN_BOOL("--print-clang-args", print_args, NULL),
	SM_OPT_CALL("--list-rules", NULL, h_list_rules, "list the rules and exit"),
	SM_OPT_CALL("--explain", "RULE", h_explain, "what a rule reports, an example, and the fix"),
	{ .name = "--launcher", .fn = h_launcher, .spelled = "--launcher -- CC ARGS...",
	  .help = "lint the .cu files of a compile command, then run it\n(for CMAKE_CUDA_COMPILER_LAUNCHER)" },
	SM_OPT_CALL("--version", NULL, h_version, "print the version (and the build's git describe) and exit"),
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
	fprintf(f, "\nexit status: 0 no findings, 1 findings (at --fail-on's level or above; by\n"
		   "default not those of the level assumed), 2 a usage error or an input\n"
		   "problem of level error (a file not read or parsed); warnings about the\n"
		   "input do not change it. With --fix: what is left after fixing.\n");
}

/* Returns 0 to run, or 1 to exit with c->status. */
static int parse(struct cli *c)
{
	void *const targets[2] = { c, c->so };
	for (c->args.i = 1; c->args.i < c->args.argc; c->args.i++) {
		const char *a = c->args.argv[c->args.i], *val = NULL;
		const struct sm_opt *o = NULL;
		if (a[0] != '-' || !a[1]) {
			sm_paths_push(&c->inputs, a);
			continue;
		}
		int m = sm_opt_match(options, NOPTIONS, &c->args, &o, &val);
		if (m < 0)
			return sm_cli_usage_error(c, "option '%s' needs a value (see --help)", a);
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
			return sm_cli_usage_error(c, "unknown option '%s' (see --help)", a);
		}
		if (sm_opt_apply(o, targets, c, val))
			return 1;
	}
	return 0;
}

/* ---- running ---- */

static int run(struct cli *c)
{
	double t0 = sm_cli_seconds();
	const char *const *paths = (const char *const *)c->inputs.v;
	if (c->dump_config) {
		if (sm_session_dump_config(c->s, c->inputs.n ? paths[0] : ".", stdout, c->err, sizeof(c->err)))
			return sm_cli_fail(c) * 2; /* 2: the error is printed */
		return 0;
	}
	if (sm_session_prepare(c->s, c->err, sizeof(c->err)))
		return sm_cli_fail(c) * 2; /* 2: the error is printed */
	if (!c->inputs.n) {
		fprintf(stderr, "smemlint: no input files\n");
		print_help(stderr);
		return 2;
	}
	/* after prepare (a usage error first), before anything is analyzed;
	 * an empty list from a pipe is a run over no files, not an error */
	if (sm_cli_read_stdin_paths(c))
		return c->status;
	paths = (const char *const *)c->inputs.v;
	if (c->print_args)
		return sm_session_print_clang_args(c->s, paths, c->inputs.n, stdout, c->err, sizeof(c->err)) ? 2 : 0;
	c->eo.version = SMEMLINT_VERSION;
	if (c->nncu)
		return sm_cli_compare_ncu(c, t0);
	return sm_cli_report(c, t0);
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
	struct cli c = { .args = { argc, argv, 0 }, .format = sm_emitters, .color = -1 };
	c.s = sm_session_new();
	c.excludes = calloc((size_t)argc + 1, sizeof(char *));
	c.flags = calloc((size_t)argc + 1, sizeof(char *));
	c.ncu = calloc((size_t)argc + 1, sizeof(char *));
	int status = 2;
	if (c.s && c.excludes && c.flags && c.ncu) {
		c.so = sm_session_options(c.s);
		c.so->excludes = c.excludes;
		sm_cli_test_hooks(&c);
		status = parse(&c) ? c.status : run(&c);
	} else {
		fprintf(stderr, "smemlint: out of memory\n");
	}
	sm_session_free(c.s);
	sm_paths_free(&c.inputs);
	free(c.excludes);
	free(c.flags);
	free(c.ncu);
	return sm_cli_close_stdout(&c, status);
}
