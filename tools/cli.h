/* cli.h - the command's state, shared by the files of tools/ that make up
 * the command: smemlint.c (the option table, parsing), report.c (the run
 * and its reports), paths.c (the file list on standard input) and
 * test_hooks.c (the SMEMLINT_TEST_* variables). */
#ifndef SMEMLINT_TOOLS_CLI_H
#define SMEMLINT_TOOLS_CLI_H

#include <limits.h>
#include <stdbool.h>

#include "base/fsutil.h"
#include "emit/emit.h"
#include "options.h"
#include "smemlint/session.h"

/* The command line as parsed so far. */
struct cli {
	struct sm_args args;              /* argc, argv, the argument being parsed */
	struct sm_session *s;
	struct sm_session_options *so;    /* s's plain settings */
	const struct sm_emitter *format;  /* --format */
	const char *out_path;             /* -o */
	const char *html_path;            /* --html */
	struct sm_emit_options eo;
	struct sm_paths inputs;           /* the PATHs */
	const char **excludes;            /* --exclude, argv-sized */
	const char **flags;               /* after --, argv-sized */
	const char **ncu;                 /* --compare-ncu exports, argv-sized */
	unsigned nncu;
	bool dump_config, print_args;
	bool statistics;                  /* --statistics */
	bool stdout_failed;               /* a report to stdout failed (said once) */
	bool quiet;                       /* --quiet: no progress, no closing line */
	int color;                        /* --color: 0 never, 1 always, -1 auto */
	bool progress_shown;              /* a progress line is on stderr */
	int status;                       /* exit status when a handler stops the command */
	struct sm_write_faults faults;    /* test hooks (test_hooks.c) */
	char err[PATH_MAX + 256];
};

/* A usage error: "smemlint: " fmt (with val), status 2; returns 1. */
int sm_cli_usage_error(struct cli *c, const char *fmt, const char *val);
/* A setter's error (already in c->err), as a usage error. */
int sm_cli_fail(struct cli *c);

/* paths.c: replace each "-" among the PATHs by the list on stdin. */
int sm_cli_read_stdin_paths(struct cli *c);

/* report.c: run the analysis and write its reports (the format, --html,
 * --statistics), the progress line and the closing line; returns the
 * exit status. t0: when the command started. */
int sm_cli_report(struct cli *c, double t0);
double sm_cli_seconds(void);
/* report.c: --compare-ncu: analyze the PATHs and print, per file, the
 * lines of the exports c->ncu beside the predicted degrees; the exit
 * status is 0 when every measured line agrees, 1 when one differs, 2 on
 * an input error. */
int sm_cli_compare_ncu(struct cli *c, double t0);
/* stdout checked once more at the end: status, or 2 when it failed. */
int sm_cli_close_stdout(struct cli *c, int status);

/* test_hooks.c: the SMEMLINT_TEST_* variables into c's session. */
void sm_cli_test_hooks(struct cli *c);

#endif
