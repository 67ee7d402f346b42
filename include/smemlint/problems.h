/* problems.h - the ids of input problems (public), generated from the one
 * list, include/smemlint/problems.def (installed beside this header as
 * smemlint/problems.def).
 *
 * Design: an input problem is what is wrong with the input or the run
 * (unreadable, binary, does not parse, timed out) as opposed to a finding
 * about the code. Each has a stable kebab-case id, like git fsck's message
 * ids, so that tools and tests match on the id instead of the English
 * message, and one level, so that the level cannot drift between the
 * places that report it. The table lives in the ir stage so that every
 * stage above it (the front end included) can name a problem. */
#ifndef SMEMLINT_PROBLEMS_H
#define SMEMLINT_PROBLEMS_H

#include "smemlint/stage.h"
#if SM_STAGE < SM_STAGE_IR
#error "smemlint/problems.h belongs to the ir stage: analyzer/base may not include it"
#endif

#include "smemlint/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

enum sm_problem_id {
#define SM_PROBLEM(e, id, lvl, summary) SM_PROBLEM_##e,
#include "smemlint/problems.def"
#undef SM_PROBLEM
	SM_PROBLEM__COUNT
};

struct sm_problem {
	const char *id;          /* kebab-case and stable: JSON "id", SARIF descriptor id */
	enum sm_level level;     /* the level its notifications are reported at */
	const char *summary;     /* one line: what went wrong and what became of the file */
};

/* Indexed by enum sm_problem_id. */
extern const struct sm_problem sm_problems[SM_PROBLEM__COUNT];

/* The problem with this id, or -1. */
int sm_problem_find(const char *id);

#ifdef __cplusplus
}
#endif

#endif
