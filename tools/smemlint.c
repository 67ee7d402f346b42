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
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fsutil.h"
#include "base/limits.h"
#include "driver/config.h"
#include "emit/emit.h"
#include "launcher.h"
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
	int status;                       /* exit status when a handler stops the command */
	char err[PATH_MAX + 256];
};

/* A handler returns 0 to go on, or 1 to stop with c->status. */
typedef int (*cli_handler)(struct cli *c, const char *val);

struct cli_option {
	const char *name;       /* "--format", "-o" */
	const char *alias;      /* another spelling ("--output"), or NULL */
	const char *value;      /* what the value is called in --help; NULL: a flag */
	cli_handler handle;
	const char *help;       /* NULL: not listed in --help */
	const char *spelled;    /* the --help column when not "name value" */
};

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

static int exit_with(struct cli *c, int status)
{
	c->status = status;
	return 1;
}

static void print_help(FILE *f);

/* ---- handlers ---- */

static int h_help(struct cli *c, const char *v) { print_help(stdout); return exit_with(c, 0); }
static int h_version(struct cli *c, const char *v) { printf("smemlint %s\n", SMEMLINT_VERSION); return exit_with(c, 0); }

static int h_list_rules(struct cli *c, const char *v)
{
	for (int r = 0; r < SM_RULE__COUNT; r++)
		printf("%-20s %-8s %s\n", sm_rules[r].id, sm_level_name(sm_rules[r].level), sm_rules[r].summary);
	return exit_with(c, 0);
}

static int h_explain(struct cli *c, const char *v)
{
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

static int h_format(struct cli *c, const char *v)
{
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

static int h_output(struct cli *c, const char *v) { c->out_path = v; return 0; }
static int h_html(struct cli *c, const char *v) { c->html_path = v; return 0; }
static int h_block(struct cli *c, const char *v) { return sm_session_block(c->s, v, c->err, sizeof(c->err)) ? fail(c) : 0; }
static int h_arch(struct cli *c, const char *v) { return sm_session_arch(c->s, v, c->err, sizeof(c->err)) ? fail(c) : 0; }
static int h_cuda_path(struct cli *c, const char *v) { c->so->cuda_path = v; return 0; }
static int h_no_cuda(struct cli *c, const char *v) { c->so->no_cuda = true; return 0; }
static int h_build_dir(struct cli *c, const char *v) { c->so->build_dir = v; return 0; }
static int h_enable(struct cli *c, const char *v) { return sm_session_rules(c->s, v, true, c->err, sizeof(c->err)) ? fail(c) : 0; }
static int h_disable(struct cli *c, const char *v) { return sm_session_rules(c->s, v, false, c->err, sizeof(c->err)) ? fail(c) : 0; }
static int h_severity(struct cli *c, const char *v) { return sm_session_severity(c->s, v, c->err, sizeof(c->err)) ? fail(c) : 0; }
static int h_config(struct cli *c, const char *v) { c->so->config_path = v; return 0; }
static int h_dump_config(struct cli *c, const char *v) { c->dump_config = true; return 0; }
static int h_report_unused(struct cli *c, const char *v) { sm_session_report_unused(c->s); return 0; }
static int h_baseline(struct cli *c, const char *v) { c->so->baseline = v; return 0; }
static int h_write_baseline(struct cli *c, const char *v) { c->so->write_baseline = v; return 0; }
static int h_exclude(struct cli *c, const char *v) { c->excludes[c->so->nexcludes++] = v; return 0; }
static int h_no_cache(struct cli *c, const char *v) { c->so->no_cache = true; return 0; }
static int h_no_gitignore(struct cli *c, const char *v) { c->so->no_gitignore = true; return 0; }
static int h_print_args(struct cli *c, const char *v) { c->print_args = true; return 0; }
static int h_fix(struct cli *c, const char *v) { c->so->fix = true; return 0; }
static int h_show_banks(struct cli *c, const char *v) { c->eo.show_banks = true; return 0; }

static int h_all_accesses(struct cli *c, const char *v)
{
	c->so->analysis.all_accesses = true;
	c->eo.all_accesses = true;
	return 0;
}

static int h_jobs(struct cli *c, const char *v)
{
	char *end;
	long j = strtol(v, &end, 10);
	if (*end || j < 1 || j > SM_MAX_JOBS)
		return usage_error(c, "invalid job count '%s'", v);
	c->so->jobs = (int)j;
	return 0;
}

static int h_shard(struct cli *c, const char *v)
{
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

static int h_timeout(struct cli *c, const char *v)
{
	char *end;
	errno = 0;
	double t = strtod(v, &end);
	if (errno || *end || end == v || !(t > 0) || t > SM_MAX_TIMEOUT_S)
		return usage_error(c, "invalid timeout '%s': expected a positive number of seconds", v);
	c->so->timeout = t;
	return 0;
}

static int h_launcher(struct cli *c, const char *v) { return exit_with(c, sm_launcher_main(c->argc, c->argv, c->i)); }

/* "--": the rest are compiler flags */
static int h_flags(struct cli *c, const char *v)
{
	struct sm_analysis_options *a = &c->so->analysis;
	for (c->i++; c->i < c->argc; c->i++)
		c->flags[a->fe.nargs++] = c->argv[c->i];
	a->fe.args = c->flags;
	return 0;
}

static const struct cli_option options[] = {
	{ "--format", NULL, "FMT", h_format, "", "--format=FMT" },
	{ "-o", "--output", "FILE", h_output, "write the report to FILE (atomically)", NULL },
	{ "--html", NULL, "FILE", h_html, "also write a self-contained HTML report with bank maps", NULL },
	{ "--block-dim", NULL, "X[,Y[,Z]]", h_block, "analyze every kernel with this block shape", NULL },
	{ "--arch", NULL, "sm_NN", h_arch, "target architecture (default sm_90)", NULL },
	{ "--cuda-path", NULL, "DIR", h_cuda_path,
	  "CUDA toolkit to parse with (default: $CUDA_PATH,\n/usr/local/cuda, or nvcc on PATH)", NULL },
	{ "--no-cuda", NULL, NULL, h_no_cuda, "parse with smemlint's bundled CUDA declarations", NULL },
	{ "-p", NULL, "BUILD_DIR", h_build_dir, "read compile flags from BUILD_DIR/compile_commands.json", NULL },
	{ "--enable", NULL, "RULE[,..]", h_enable, "enable rules (all are enabled by default)", NULL },
	{ "--disable", NULL, "RULE[,..]", h_disable, "disable rules", NULL },
	{ "--severity", NULL, "RULE=LEVEL[,..]", h_severity,
	  "set a rule's level: error, warning, note or none", NULL },
	{ "--config", NULL, "FILE", h_config, "use this config instead of the nearest .smemlint.yaml", NULL },
	{ "--dump-config", NULL, NULL, h_dump_config, "print the configuration in effect (YAML) and exit", NULL },
	{ "--report-unused-suppressions", NULL, NULL, h_report_unused,
	  "report inline suppressions that matched nothing", NULL },
	{ "--baseline", NULL, "FILE", h_baseline, "report only findings whose fingerprint is not in FILE", NULL },
	{ "--write-baseline", NULL, "FILE", h_write_baseline, "write the fingerprints of the findings to FILE", NULL },
	{ "--exclude", NULL, "GLOB", h_exclude, "skip matching files and directories (repeatable)", NULL },
	{ "-j", NULL, "N", h_jobs, "analyze N files in parallel (default: number of cores)", NULL },
	{ "--shard", NULL, "K/N", h_shard, "analyze only the K-th of N shares of the files (1 <= K <= N)", NULL },
	{ "--timeout", NULL, "SECONDS", h_timeout,
	  "give up on a file after SECONDS (each file then runs in\na child process); it is reported as an error",
	  NULL },
	{ "--no-cache", NULL, NULL, h_no_cache, "do not use or write the precompiled CUDA header cache", NULL },
	{ "--no-gitignore", NULL, NULL, h_no_gitignore, "walk directories without skipping what git ignores", NULL },
	{ "--show-banks", NULL, NULL, h_show_banks, "text: print a lanes x banks map under each conflict", NULL },
	{ "--fix", NULL, NULL, h_fix, "apply padding fixes to the files in place", NULL },
	{ "--all-accesses", NULL, NULL, h_all_accesses, "json: list every shared access with its degree", NULL },
	{ "--print-clang-args", NULL, NULL, h_print_args, NULL, NULL },
	{ "--list-rules", NULL, NULL, h_list_rules, "list the rules and exit", NULL },
	{ "--explain", NULL, "RULE", h_explain, "what a rule reports, an example, and the fix", NULL },
	{ "--launcher", NULL, NULL, h_launcher,
	  "lint the .cu files of a compile command, then run it\n(for CMAKE_CUDA_COMPILER_LAUNCHER)",
	  "--launcher -- CC ARGS..." },
	{ "--version", NULL, NULL, h_version, "print the version and exit", NULL },
	{ "-h", "--help", NULL, h_help, "this help", "-h, --help" },
	{ "--", NULL, NULL, h_flags, NULL, NULL },
};

/* ---- --help, from the table ---- */

#define HELP_COLUMN 24
#define HELP_WIDTH 79

/* A help text from column `col` on: its lines ('\n') at HELP_COLUMN, and
 * when wrap, words past HELP_WIDTH on a new line too. */
static void print_help_text(FILE *f, const char *text, int col, bool wrap)
{
	bool first = true;
	for (const char *p = text; *p;) {
		size_t wl = strcspn(p, " \n");
		if (!first && (*p == '\n' || (wrap && col + 1 + (int)wl > HELP_WIDTH))) {
			fprintf(f, "\n%*s", HELP_COLUMN, "");
			col = HELP_COLUMN;
			first = true;
			if (*p == '\n' || *p == ' ')
				p++;
			continue;
		}
		if (*p == ' ' || *p == '\n') {
			p++;
			continue;
		}
		if (!first) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)wl, p);
		col += (int)wl;
		p += wl;
		first = false;
	}
	fputc('\n', f);
}

static void print_help(FILE *f)
{
	fprintf(f, "usage: smemlint [options] PATH... [-- COMPILER-FLAGS...]\n\n"
		   "Static analysis of CUDA shared-memory accesses: bank conflicts and barriers.\n"
		   "PATH is a .cu/.cuh file or a directory (searched recursively).\n\noptions:\n");
	for (size_t k = 0; k < sizeof(options) / sizeof(options[0]); k++) {
		const struct cli_option *o = &options[k];
		if (!o->help)
			continue;
		char left[96], fmts[512];
		const char *help = o->help;
		if (o->spelled)
			snprintf(left, sizeof(left), "  %s", o->spelled);
		else
			snprintf(left, sizeof(left), "  %s%s%s", o->name, o->value ? " " : "", o->value ? o->value : "");
		if (o->handle == h_format) {
			format_list(fmts, sizeof(fmts), true);
			help = fmts;
		}
		int col = (int)strlen(left);
		fputs(left, f);
		int pad = col < HELP_COLUMN ? HELP_COLUMN - col : 2;
		fprintf(f, "%*s", pad, "");
		print_help_text(f, help, col + pad, help == fmts);
	}
	fprintf(f, "\nexit status: 0 no findings, 1 findings, 2 usage or input error\n");
}

/* ---- parsing ---- */

/* The value of option o at argument a: "--name VALUE" or "--name=VALUE"
 * (and "-jN"). Returns 1 with *val set, 0 when a is not o, -1 when o's
 * value is missing. */
static int match(struct cli *c, const struct cli_option *o, const char *a, const char **val)
{
	const char *names[2] = { o->name, o->alias };
	for (int k = 0; k < 2 && names[k]; k++) {
		size_t n = strlen(names[k]);
		if (strncmp(a, names[k], n))
			continue;
		if (!a[n] && !o->value)
			return 1;
		if (!o->value)
			continue;
		if (!a[n]) {
			if (c->i + 1 >= c->argc)
				return -1;
			*val = c->argv[++c->i];
			return 1;
		}
		if (a[n] == '=' || (o->handle == h_jobs && names[k][1] != '-')) {
			*val = a + n + (a[n] == '=');
			return 1;
		}
	}
	return 0;
}

/* Returns 0 to run, or 1 to exit with c->status. */
static int parse(struct cli *c)
{
	for (c->i = 1; c->i < c->argc; c->i++) {
		const char *a = c->argv[c->i], *val = NULL;
		if (a[0] != '-' || !a[1]) {
			sm_paths_push(&c->inputs, a);
			continue;
		}
		size_t k, n = sizeof(options) / sizeof(options[0]);
		int m = 0;
		for (k = 0; k < n && !(m = match(c, &options[k], a, &val)); k++)
			;
		if (m < 0)
			return usage_error(c, "option '%s' needs a value (see --help)", a);
		if (k == n)
			return usage_error(c, "unknown option '%s' (see --help)", a);
		if (options[k].handle(c, val))
			return 1;
	}
	return 0;
}

/* ---- running ---- */

struct report {
	const struct sm_emitter *emitter;
	struct sm_result *const *res;
	unsigned n;
	const struct sm_emit_options *eo;
};

static int write_report(FILE *f, void *ctx)
{
	const struct report *r = ctx;
	return r->emitter->emit(f, r->res, r->n, r->eo);
}

/* Write the report to path (atomically) or stdout; returns 0 or -1. */
static int emit(struct cli *c, const struct sm_emitter *e, const char *path, struct sm_result *const *res, unsigned n)
{
	struct report r = { e, res, n, &c->eo };
	if (!path) {
		int rc = write_report(stdout, &r);
		fflush(stdout);
		return rc ? -1 : 0;
	}
	if (sm_write_atomic(path, write_report, &r, c->err, sizeof(c->err))) {
		fprintf(stderr, "smemlint: %s\n", c->err);
		return -1;
	}
	return 0;
}

static int run(struct cli *c)
{
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
	if (c->print_args)
		return sm_session_print_clang_args(c->s, paths, c->inputs.n, stdout, c->err, sizeof(c->err)) ? 2 : 0;
	if (sm_session_run(c->s, paths, c->inputs.n, c->err, sizeof(c->err)))
		return fail(c) * 2; /* 2: the error is printed */
	unsigned n, nerr;
	struct sm_result *const *res = sm_session_results(c->s, &n);
	c->eo.version = SMEMLINT_VERSION;
	c->eo.errors = sm_session_errors(c->s, &nerr);
	c->eo.nerrors = nerr;
	if (emit(c, c->format, c->out_path, res, n))
		sm_session_fail(c->s);
	if (c->html_path && emit(c, sm_emitter_find("html"), c->html_path, res, n))
		sm_session_fail(c->s);
	/* input errors also go to stderr in text form when the report is
	 * machine readable or written to a file */
	if (c->format != sm_emitters || c->out_path)
		for (unsigned i = 0; i < n; i++)
			for (unsigned k = 0; k < res[i]->nnotes; k++)
				if (res[i]->notes[k].level == SM_LEVEL_ERROR)
					fprintf(stderr, "smemlint: error: %s\n", res[i]->notes[k].message);
	return sm_session_exit_status(c->s);
}

int main(int argc, char **argv)
{
	sm_session_process_init();
	struct cli c = { .argc = argc, .argv = argv, .format = sm_emitters };
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
	return status;
}
