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

#include "smemlint/options.h"
#include "smemlint/result.h"
#include "base/limits.h"
#include "front/frontend.h"


/* Defaults: every rule at its registry level, SM_DEFAULT_ARCH (base/arch.h). */
void sm_analysis_options_init(struct sm_analysis_options *o);

/* Read and analyze one file. Always fills r; returns 0 on success, -1 when
 * the file could not be analyzed (r->notes say why). */
int sm_analyze_path(struct sm_frontend *fe, const char *path, const struct sm_analysis_options *opt,
		    struct sm_result *r);

/* Told as each phase of a file's analysis starts, so that the process that
 * runs it (session_fork.c) can name the phase a crash ended: "reading",
 * "parsing" (libclang, and the conversion to the IR), "analysis" (the
 * engine and the rules), "reporting". */
struct sm_phase_watch {
	void (*enter)(void *ctx, const char *phase);
	void *ctx;
};

/* sm_analyze_path, telling w (NULL: nobody) of each phase. */
int sm_analyze_path_watched(struct sm_frontend *fe, const char *path, const struct sm_analysis_options *opt,
			    const struct sm_phase_watch *w, struct sm_result *r);
/* The same for contents already in memory (copied into r). */
int sm_analyze_buffer(struct sm_frontend *fe, const char *path, const char *text, size_t len,
		      const struct sm_analysis_options *opt, struct sm_result *r);

#endif
