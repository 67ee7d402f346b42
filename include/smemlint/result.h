/* result.h - what the analysis of one file produced (public): findings as
 * values, the accesses it evaluated (--all-accesses), and the problems
 * with the input itself. Each sm_result owns an arena holding everything
 * it points to; sm_result_free releases it. */
#ifndef SMEMLINT_RESULT_H
#define SMEMLINT_RESULT_H

#include "smemlint/stage.h"
#if SM_STAGE < SM_STAGE_DRIVER
#error "smemlint/result.h belongs to the driver stage: lower stages hand findings to a sink instead"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smemlint/arena.h"
#include "smemlint/diag.h"
#include "smemlint/ir.h"
#include "smemlint/problems.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sm_access_record {
	struct sm_range range;
	const char *kernel;
	const char *array;
	int kind;                        /* enum sm_access_kind */
	unsigned width;
	char op[40];                     /* the instruction when not a plain load
	                                  * or store ("ldmatrix.x4", "cp.async"),
	                                  * or "" (inline: copied with the record) */
	bool analyzed;
	const char *why;
	double worst, mean;
	uint64_t wavefronts, ideal;      /* shared wavefronts of one block and their
	                                  * ideal (engine's sm_degree), when analyzed */
	bool wavefronts_exact;           /* every iteration counted */
	int64_t blocks;                  /* blocks per launch (the grid), 0: not known */
	unsigned call_lines[4];          /* inside inlined helpers: the lines of
	                                  * the calls that led there, innermost
	                                  * first (nvcc attributes part of an
	                                  * inlined body to its call line) */
	unsigned ncall_lines;
};

/* A problem with the input rather than the code: unreadable, binary, not
 * parsed (smemlint/problems.def lists them). level: SM_LEVEL_ERROR stops
 * this file; WARNING does not. */
struct sm_notification {
	enum sm_level level;             /* sm_problems[problem].level */
	enum sm_problem_id problem;      /* which problem: its stable id */
	struct sm_pos pos;               /* 0:0 when it concerns the whole file */
	const char *message;             /* in English, for people; match on problem */
};

struct sm_result {
	struct sm_arena arena;
	const char *path;
	const char *text;                /* the contents analyzed */
	size_t len;
	const uint32_t *line_off;        /* where each line of text begins, nlines
	                                  * of them (sm_result_set_text); NULL:
	                                  * none, lines are found by a walk */
	unsigned nlines;
	struct sm_diag *diags;
	unsigned ndiags, cap_diags;
	struct sm_access_record *acc;
	unsigned nacc, cap_acc;
	struct sm_notification *notes;
	unsigned nnotes, cap_notes;
	bool input_error;                /* the file could not be (fully) analyzed:
	                                  * unreadable, binary, or clang errors */
	bool capped;                     /* too-many-results was reported */
	bool from_includers;             /* a project header's own result, made of
	                                  * what the files that include it found
	                                  * (driver/headers.h), not an input file */
	struct sm_header *headers;       /* the project headers converted with the
	                                  * file (in the arena): a range with
	                                  * file k > 0 is in headers[k - 1] until
	                                  * the session moves it into the header's
	                                  * own result (driver/headers.h); every
	                                  * result it reports has file 0 only */
	unsigned nheaders;
	unsigned max_diags, max_acc;     /* caps; 0: SM_MAX_FILE_FINDINGS, SM_MAX_FILE_ACCESSES */
};

void sm_result_init(struct sm_result *r, const char *path);
void sm_result_free(struct sm_result *r);
/* Make text[0..len) (in r's arena or living as long as r) r's contents,
 * with its line index. */
void sm_result_set_text(struct sm_result *r, const char *text, size_t len);
/* Line `line` of r's contents, without its newline (base/text.h's
 * sm_text_line, through the index). */
const char *sm_result_line(const struct sm_result *r, unsigned line, size_t *len);
/* Report input problem `problem` at pos (0:0: the whole file), at the
 * problem's level (sm_problems[problem].level); an error marks the file as
 * not (fully) analyzed (input_error). */
void sm_result_problem(struct sm_result *r, enum sm_problem_id problem, struct sm_pos pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Add a copy of notification n as it is (level and problem included; the
 * message is copied): for results rebuilt from elsewhere (result_io.c). */
void sm_result_add_note(struct sm_result *r, const struct sm_notification *n);
/* Merge findings that several template instantiations of one kernel give
 * identically (same rule, place, access, kernel, array, message and note)
 * into the first, whose message then says so ("... (the same in 2
 * instantiations of 'k')"): one finding, one fingerprint, one code-scanning
 * alert. Findings that differ (another degree, element type) stay apart.
 * Returns how many were merged away. */
unsigned sm_result_merge_instantiations(struct sm_result *r);
/* Fold findings of one cause: past the first `keep` findings of one rule,
 * level, kernel, array and access kind, the rest leave the result and the
 * last one kept says how many more there were and on which lines ("... (and
 * 1950 more like it in kernel 'k' on 's', lines 59-2008; --all-findings
 * lists them)"). Order is kept. Returns how many were folded away. */
unsigned sm_result_fold_causes(struct sm_result *r, unsigned keep);
/* Note that findings or access records past SM_MAX_FILE_FINDINGS or
 * SM_MAX_FILE_ACCESSES were left out (once per file). */
void sm_result_capped(struct sm_result *r, const char *what, unsigned limit);
/* Release what the report no longer needs once the file is done: the
 * file's text when no finding, access or notification points into it, and
 * the slack of the arena and arrays (everything is copied into an arena
 * of its exact size). Memory kept per clean file is then its path and a
 * few hundred bytes. */
void sm_result_compact(struct sm_result *r);
/* Sort findings by position, rule and message: a total order. */
void sm_result_sort(struct sm_result *r);
/* A sink that copies findings into r. */
struct sm_sink sm_result_sink(struct sm_result *r);

#ifdef __cplusplus
}
#endif

#endif
