/* emit.h - output formats (public): results to reports. Each emitter
 * writes all results, already in a deterministic order (files sorted,
 * findings sorted), to a stream; text, JSON, JSON lines and GitHub can also
 * take them one file at a time (struct sm_emit_stream), as the session
 * finishes them. A program embedding smemlint runs a session
 * (smemlint/session.h) and hands its results to one of these. */
#ifndef SMEMLINT_EMIT_H
#define SMEMLINT_EMIT_H

#include "smemlint/stage.h"
#if SM_STAGE < SM_STAGE_EMIT
#error "smemlint/emit.h belongs to the emit stage: lower stages may not include it"
#endif

#include <stdbool.h>
#include <stdio.h>

#include "smemlint/problems.h"

/* The results it writes (smemlint/result.h, which a caller includes
 * with the session that made them). */
struct sm_result;

#ifdef __cplusplus
extern "C" {
#endif

struct sm_emit_options {
	bool color;          /* ANSI colours in text output */
	bool show_banks;     /* text: lanes x banks map under each conflict */
	bool all_accesses;   /* json: include "accesses" */
	const char *version; /* sarif: the tool's version, or NULL */
	const char *const *errors; /* input errors tied to no result (a path with
	                            * no CUDA files): sarif notifications */
	const enum sm_problem_id *error_ids; /* the problem of each of errors[];
	                            * NULL: every one is SM_PROBLEM_NO_CUDA_FILES */
	unsigned nerrors;
};

int sm_emit_text(FILE *out, struct sm_result *const *res, unsigned n, const struct sm_emit_options *o);
int sm_emit_json(FILE *out, struct sm_result *const *res, unsigned n, const struct sm_emit_options *o);
/* SARIF 2.1.0 (emit/sarif.c): one run, rules from the registry,
 * paths relative to the current directory as %SRCROOT%, UTF-16 columns. */
int sm_emit_sarif(FILE *out, struct sm_result *const *res, unsigned n, const struct sm_emit_options *o);
/* GitHub Actions workflow commands (::warning file=...::message). */
int sm_emit_github(FILE *out, struct sm_result *const *res, unsigned n, const struct sm_emit_options *o);
/* A self-contained HTML report with an SVG bank map per bank conflict. */
int sm_emit_html(FILE *out, struct sm_result *const *res, unsigned n, const struct sm_emit_options *o);

/* --statistics (emit/statistics.c): how many findings per rule, level and
 * file, and how many input problems of each id, largest first. */
int sm_emit_statistics(FILE *out, struct sm_result *const *res, unsigned n, const struct sm_emit_options *o);

/* A report written file by file, as the session finishes them in order
 * (session.h, on_result): begin once, file once per result, end once. The
 * result need not outlive the file call, so that a run's memory does not
 * grow with its files. state is the format's own between the calls. Each
 * returns 0, or -1 when a write failed. */
struct sm_emit_stream {
	FILE *out;
	const struct sm_emit_options *o; /* errors may be filled in before end */
	void *state;
};

/* One output format, as the command offers it. */
struct sm_emitter {
	const char *name;         /* the --format value */
	const char *help;         /* what it is, for --help ("" when the name says it) */
	int (*emit)(FILE *out, struct sm_result *const *res, unsigned n, const struct sm_emit_options *o);
	bool by_format;           /* chosen with --format (html has its own option) */
	/* streaming (NULL file: the format needs every result at once; it
	 * then takes them through emit, kept compact by the session) */
	int (*begin)(struct sm_emit_stream *st);
	int (*file)(struct sm_emit_stream *st, const struct sm_result *r);
	int (*end)(struct sm_emit_stream *st);
};

/* The streaming sides of the formats that have one. */
int sm_emit_text_file(struct sm_emit_stream *st, const struct sm_result *r);
int sm_emit_github_file(struct sm_emit_stream *st, const struct sm_result *r);
int sm_emit_github_end(struct sm_emit_stream *st);
/* JSON: results are written as they come; notifications and accesses,
 * which follow every result in the document, wait in a temporary file. */
int sm_emit_json_begin(struct sm_emit_stream *st);
int sm_emit_json_file(struct sm_emit_stream *st, const struct sm_result *r);
int sm_emit_json_end(struct sm_emit_stream *st);
/* JSON lines: one object a line, {"type": "result" | "notification" |
 * "access", ...the fields of the JSON document's entries}, in file order. */
int sm_emit_jsonl(FILE *out, struct sm_result *const *res, unsigned n, const struct sm_emit_options *o);
int sm_emit_jsonl_file(struct sm_emit_stream *st, const struct sm_result *r);
int sm_emit_jsonl_end(struct sm_emit_stream *st);

/* Write a whole report through a format's streaming side (begin, file
 * for each result, end): what each streaming format's emit does. */
int sm_emit_streamed(const struct sm_emitter *e, FILE *out, struct sm_result *const *res, unsigned n,
		     const struct sm_emit_options *o);

/* Every format, text first (the default); ends with a NULL name. */
extern const struct sm_emitter sm_emitters[];

/* The format called name, or NULL. */
const struct sm_emitter *sm_emitter_find(const char *name);

#ifdef __cplusplus
}
#endif

#endif
