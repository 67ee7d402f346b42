/* report.c - the command's run and its reports.
 *
 * Models what the command writes: the format's report, streamed as files
 * finish (so that memory does not grow with them) unless another report
 * (--html, --statistics) needs every result at the end; each written
 * atomically to -o or to stdout; input errors also on stderr when the
 * report is machine readable or a file; a progress line on a terminal;
 * the closing line; and the colour of a text report (auto: a terminal,
 * unless NO_COLOR is set or TERM is dumb). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "emit/ncu_text.h"
#include "base/text.h"

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

/* The input errors of a file on stderr (the report is on stdout), each
 * with its file and line first as a compiler's are (issue 27: a message
 * that does not name its file cannot be acted on). */
static void print_input_errors(const struct sm_result *r)
{
	for (unsigned k = 0; k < r->nnotes; k++) {
		const struct sm_notification *n = &r->notes[k];
		if (n->level != SM_LEVEL_ERROR)
			continue;
		sm_text_put_safe(stderr, r->path, SIZE_MAX);
		if (n->pos.line)
			fprintf(stderr, ":%u:%u", n->pos.line, n->pos.col);
		fputs(": error: ", stderr);
		sm_text_put_safe(stderr, n->message, SIZE_MAX);
		fprintf(stderr, " [%s]\n", sm_problems[n->problem].id);
	}
}

/* Do standard output and standard error reach one place (a terminal, one
 * file)? Then a text report already shows its input errors there. */
static bool stdout_is_stderr(void)
{
	struct stat o, e;
	return fstat(STDOUT_FILENO, &o) == 0 && fstat(STDERR_FILENO, &e) == 0 && o.st_dev == e.st_dev &&
	       o.st_ino == e.st_ino;
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
	/* input errors also go to stderr when the report is machine readable,
	 * written to a file, or on a stdout that is not where stderr goes (a
	 * text report redirected: `smemlint src/ > report.txt`) */
	if (r->c->format != sm_emitters || r->c->out_path || !stdout_is_stderr())
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
	struct sm_write_opts wo = { .faults = &c->faults };
	if (sm_write_file(path, write_report, r, &wo, werr, sizeof(werr))) {
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

/* A usage error: the message on stderr, exit status 2. Returns 1. */
int sm_cli_usage_error(struct cli *c, const char *fmt, const char *val)
{
	fprintf(stderr, "smemlint: ");
	fprintf(stderr, fmt, val);
	fputc('\n', stderr);
	c->status = 2;
	return 1;
}

/* a setter's error (already in c->err) */
int sm_cli_fail(struct cli *c)
{
	return sm_cli_usage_error(c, "%s", c->err);
}

double sm_cli_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The closing line on stderr: N findings (E errors, W warnings, K notes, A assumed)
 * in F files; P files with input problems[ (Q more with notes only)]; T s */
static void summary(const struct sm_session_totals *t, double secs)
{
	unsigned total = t->findings, n = t->files, problems = t->files_with_problems;
	char by[96] = "";
	size_t len = 0;
	static const enum sm_level order[] = { SM_LEVEL_ERROR, SM_LEVEL_WARNING, SM_LEVEL_NOTE, SM_LEVEL_ASSUMED };
	for (int k = 0; k < 4; k++) {
		unsigned m = t->by_level[order[k]];
		if (m)
			len += (size_t)snprintf(by + len, sizeof(by) - len, "%s%u %s%s", len ? ", " : " (", m,
						sm_level_name(order[k]), m == 1 || order[k] == SM_LEVEL_ASSUMED ? "" : "s");
	}
	if (len)
		snprintf(by + len, sizeof(by) - len, ")");
	char notes[48] = "";
	if (t->files_with_notes_only)
		snprintf(notes, sizeof(notes), " (%u more with notes only)", t->files_with_notes_only);
	fprintf(stderr, "smemlint: %u finding%s%s in %u file%s; %u file%s with input problems%s; %.1f s\n", total,
		total == 1 ? "" : "s", by, n, n == 1 ? "" : "s", problems, problems == 1 ? "" : "s", notes, secs);
}

/* Does the text report get colour (--color, the terminal, NO_COLOR, TERM)? */
static bool use_color(const struct cli *c)
{
	const char *term = getenv("TERM"), *nc = getenv("NO_COLOR");
	return c->format == sm_emitters && !c->out_path &&
	       (c->color == 1 || (c->color < 0 && isatty(1) && !(nc && *nc) && !(term && !strcmp(term, "dumb"))));
}

int sm_cli_report(struct cli *c, double t0)
{
	c->eo.color = use_color(c);
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
		rc = sm_session_run(c->s, (const char *const *)c->inputs.v, c->inputs.n, c->err, sizeof(c->err));
	}
	if (c->progress_shown)
		fputs("\r\033[K", stderr);
	if (rc)
		return sm_cli_fail(c) * 2; /* 2: the error is printed */
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
		summary(&t, sm_cli_seconds() - t0);
	return sm_session_exit_status(c->s);
}

/* Every write to stdout is checked here once more, at the end (as gnulib's
 * close_stdout): a full disk, /dev/full, a closed stdout or a reader that
 * went away (SIGPIPE is ignored, so EPIPE) is an error with exit status 2. */
int sm_cli_close_stdout(struct cli *c, int status)
{
	errno = 0;
	bool failed = ferror(stdout) != 0;
	if ((fclose(stdout) != 0 || failed) && !c->stdout_failed) {
		fprintf(stderr, "smemlint: cannot write to standard output: %s\n", strerror(errno ? errno : EIO));
		return 2;
	}
	return c->stdout_failed ? 2 : status;
}


int sm_cli_compare_ncu(struct cli *c, double t0)
{
	(void)t0;
	if (sm_session_run(c->s, (const char *const *)c->inputs.v, c->inputs.n, c->err, sizeof(c->err)))
		return sm_cli_fail(c) * 2;
	unsigned n = 0, differ = 0;
	struct sm_result *const *res = sm_session_results(c->s, &n);
	int status = 0;
	for (unsigned i = 0; i < n; i++) {
		struct sm_result *r = res[i];
		print_input_errors(r);
		const char *slash = strrchr(r->path, '/');
		struct sm_ncu m = { 0 };
		char err[PATH_MAX + 256];
		for (unsigned k = 0; k < c->nncu; k++)
			if (sm_ncu_load(&m, c->ncu[k], slash ? slash + 1 : r->path, err, sizeof(err))) {
				fprintf(stderr, "smemlint: %s\n", err);
				sm_ncu_free(&m);
				return 2;
			}
		struct sm_ncu_row *rows = NULL;
		int nr = sm_ncu_compare(&m, r, &rows);
		unsigned d = 0;
		if (nr < 0 || sm_emit_ncu(stdout, r, rows, nr, m.blocks, &d))
			status = 2;
		differ += d;
		sm_ncu_free(&m);
	}
	int se = sm_session_exit_status(c->s);
	return status ? status : se == 2 ? 2 : differ ? 1 : 0;
}
