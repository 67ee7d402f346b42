/* analyze.h - the per-file pipeline: read, parse, resolve, evaluate, run
 * the rules, and collect the findings as values in an sm_result.
 *
 * Each sm_result owns an arena with everything it holds; the file's IR
 * arena is released before sm_analyze_* returns. No global state: one
 * sm_frontend per worker thread is all a caller needs.
 */
#ifndef SMEMLINT_ANALYZE_H
#define SMEMLINT_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>

#include "smemlint/analysis.h"
#include "smemlint/diag.h"
#include "smemlint/frontend.h"
#include "smemlint/rules.h"

#define SM_MAX_FILE_BYTES (16u * 1024 * 1024)
#define SM_IR_ARENA_LIMIT ((size_t)1 << 30)

struct sm_analysis_options {
	struct sm_frontend_options fe;
	struct sm_dim3 block;            /* --block-dim */
	bool has_block;
	const char *arch;                /* --arch, e.g. "sm_90" */
	bool all_accesses;               /* record every access (--all-accesses) */
	enum sm_level levels[SM_RULE__COUNT]; /* SM_LEVEL_NONE: rule disabled */
	size_t ir_arena_limit;           /* bytes of IR per file; 0 = SM_IR_ARENA_LIMIT */
};

/* One access and the degree computed for it (what --all-accesses lists). */
struct sm_access_result {
	struct sm_degree deg;            /* worst over the kernel's block shapes */
	struct sm_dim3 block;            /* the shape that gave deg */
	bool block_assumed;
};

struct sm_access_record {
	struct sm_range range;
	const char *kernel;
	const char *array;
	int kind;                        /* enum sm_access_kind */
	unsigned width;
	bool analyzed;
	const char *why;
	double worst, mean;
};

/* A problem with the input rather than the code: unreadable, binary, not
 * parsed. level: SM_LEVEL_ERROR stops this file; WARNING does not. */
struct sm_notification {
	enum sm_level level;
	struct sm_pos pos;               /* 0:0 when it concerns the whole file */
	const char *message;
};

struct sm_result {
	struct sm_arena arena;
	const char *path;
	const char *text;                /* the contents analyzed */
	size_t len;
	struct sm_diag *diags;
	unsigned ndiags, cap_diags;
	struct sm_access_record *acc;
	unsigned nacc, cap_acc;
	struct sm_notification *notes;
	unsigned nnotes, cap_notes;
	bool input_error;                /* the file could not be (fully) analyzed:
	                                  * unreadable, binary, or clang errors */
};

void sm_result_init(struct sm_result *r, const char *path);
void sm_result_free(struct sm_result *r);
void sm_result_note(struct sm_result *r, enum sm_level level, struct sm_pos pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Sort findings by position, rule and message: a total order. */
void sm_result_sort(struct sm_result *r);
/* A sink that copies findings into r. */
struct sm_sink sm_result_sink(struct sm_result *r);

void sm_analysis_options_init(struct sm_analysis_options *o);

/* The block shapes a kernel is analyzed with; *assumed is set when none
 * came from a launch, __launch_bounds__ or --block-dim. Returns the count. */
int sm_kernel_blocks(const struct sm_kernel *k, const struct sm_analysis_options *opt,
		     struct sm_dim3 *out, int max, bool *assumed);

/* Read and analyze one file. Always fills r; returns 0 on success, -1 when
 * the file could not be analyzed (r->notes say why). */
int sm_analyze_path(struct sm_frontend *fe, const char *path, const struct sm_analysis_options *opt,
		    struct sm_result *r);
/* The same for contents already in memory (copied into r). */
int sm_analyze_buffer(struct sm_frontend *fe, const char *path, const char *text, size_t len,
		      const struct sm_analysis_options *opt, struct sm_result *r);

#endif
