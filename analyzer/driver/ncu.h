/* ncu.h - Nsight Compute's measured shared-memory wavefronts, line by line,
 * beside smemlint's predicted degrees (--compare-ncu; issue 25 item 5).
 *
 * An export is `ncu -i REP --page source --csv --print-source cuda,sass`:
 * blocks (one per kernel launch), each a "File Path" row, a "Function
 * Name" row, a header row and then rows of CUDA lines (a line number
 * first) each followed by its SASS instructions (first field empty, an
 * address, the instruction's counters; every instruction of a line is
 * listed twice). See tools/gpu/README.md. */
#ifndef SMEMLINT_DRIVER_NCU_H
#define SMEMLINT_DRIVER_NCU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "smemlint/result.h"

/* One shared-memory instruction of a line, summed over the export's blocks. */
struct sm_ncu_inst {
	unsigned line;
	char addr[40];        /* its address in the source view */
	double wavefronts;    /* L1 Wavefronts Shared */
	double ideal;         /* L1 Wavefronts Shared Ideal */
};

/* What the exports hold for one source file (by its base name). */
struct sm_ncu {
	struct sm_ncu_inst *inst;
	size_t n, cap;
	unsigned blocks;      /* blocks of the exports that are about the file */
};

/* Add the shared-memory instructions of export `path` whose blocks are
 * about a file named `base` (its last path component). Returns 0, or -1
 * with the reason in err (unreadable, not a regular file, not an ncu
 * source export). */
int sm_ncu_load(struct sm_ncu *m, const char *path, const char *base, char *err, size_t errlen);
void sm_ncu_free(struct sm_ncu *m);

enum sm_ncu_verdict {
	SM_NCU_EXACT,        /* within 5% of the predicted degree */
	SM_NCU_EXACT_MEAN,   /* within 5% of the mean over warps and iterations */
	SM_NCU_OVER,         /* predicted more than measured */
	SM_NCU_UNDER,        /* predicted less than measured */
	SM_NCU_UNPREDICTED,  /* measured, no access analyzed on the line */
	SM_NCU_UNMEASURED,   /* predicted, no wavefronts measured */
};

/* One line of the comparison. */
struct sm_ncu_row {
	unsigned line;
	unsigned instructions;    /* measured shared instructions */
	double wavefronts, ideal; /* their totals */
	double measured;          /* the worst instruction's wavefronts/ideal; -1: none */
	double predicted;         /* the worst analyzed access's degree; -1: none */
	double mean;              /* its mean over warps and iterations; -1: none */
	double pred_wavefronts;   /* the line's accesses' predicted wavefronts per
	                           * launch, summed; -1: not every access has one */
	double pred_ideal;        /* their ideal, the same way */
	enum sm_ncu_verdict verdict;
	const char *why;          /* why the two differ (static text or in the arena) */
};

/* Compare the measured lines of m with the access records of r (analyzed
 * with all_accesses): one row per line either has, by line. Returns the
 * number of rows (*rows in r's arena), or -1 when out of memory. */
int sm_ncu_compare(const struct sm_ncu *m, struct sm_result *r, struct sm_ncu_row **rows);

const char *sm_ncu_verdict_name(enum sm_ncu_verdict v);

#endif
