/* options.h - what shapes the analysis of one file (public): the front
 * end's flags and toolkit, the block shape and architecture, and the level
 * of every rule. A contract struct: the driver fills it (command line,
 * .smemlint.yaml, compile database), every stage below reads it. */
#ifndef SMEMLINT_OPTIONS_H
#define SMEMLINT_OPTIONS_H

#include "smemlint/stage.h"
#if SM_STAGE < SM_STAGE_IR
#error "smemlint/options.h belongs to the ir stage: analyzer/base may not include it"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <regex.h>

#include "smemlint/diag.h"
#include "smemlint/ir.h"
#include "smemlint/rule_ids.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sm_frontend_options {
	const char *cuda_path;       /* toolkit root; NULL = bundled header */
	const char *gpu_arch;        /* e.g. "sm_90" */
	const char *const *args;     /* user flags (-I, -D, -std, ...) */
	int nargs;
	const char *pch;             /* precompiled header to reuse, or NULL */
	const char *resource_dir;    /* clang's resource directory (-resource-dir), or NULL */
	const char *host_include;    /* the host compiler's own header directory
	                              * (gcc's, with omp.h), searched last
	                              * (-idirafter) as nvcc's host compiler
	                              * does; NULL: none */
	const regex_t *header_filter;/* project headers whose kernels and __device__
	                              * functions are analyzed with the file (the
	                              * header's absolute path matches); NULL: none.
	                              * System and toolkit headers never are. */
	unsigned long long test_pch_fsize; /* tests only: a file size limit (bytes)
	                              * on the process that builds a header cache
	                              * PCH, to fail its write; 0: none */
};

struct sm_analysis_options {
	struct sm_frontend_options fe;
	struct sm_dim3 block;            /* --block-dim */
	bool has_block;
	const char *block_config;        /* the .smemlint.yaml whose block-dim: gave
	                                  * block, or NULL (the command line, or the
	                                  * embedding program) */
	const char *arch;                /* --arch, e.g. "sm_90" */
	bool all_accesses;               /* record every access (--all-accesses) */
	bool as_cuda;                    /* its compile command compiles it as CUDA
	                                  * (-x cu, -x cuda): analyzed whatever its name */
	bool header_alone;               /* a header a directory walk found and no
	                                  * file includes, parsed on its own: its
	                                  * clang errors are one note
	                                  * (header-alone-errors), not parse errors */
	enum sm_level levels[SM_RULE__COUNT]; /* SM_LEVEL_NONE: rule disabled */
	size_t ir_arena_limit;           /* bytes of IR per file; 0 = SM_IR_ARENA_LIMIT */
	unsigned max_results;            /* findings and access records kept per file;
	                                  * 0 = SM_MAX_FILE_FINDINGS, SM_MAX_FILE_ACCESSES */
	uint64_t analysis_budget;        /* expression nodes the evaluator may visit
	                                  * per file (--analysis-budget); 0 =
	                                  * SM_ANALYSIS_BUDGET, UINT64_MAX = none */
};

#ifdef __cplusplus
}
#endif

#endif
