/* rules.h - the rule registry, generated from rules/registry.def. */
#ifndef SMEMLINT_RULES_H
#define SMEMLINT_RULES_H

#include "smemlint/analysis.h"
#include "smemlint/diag.h"
#include "smemlint/ir.h"

enum sm_rule_id {
#define SM_RULE(e, id, lvl, fn, summary) SM_RULE_##e,
#include "registry.def"
#undef SM_RULE
	SM_RULE__COUNT
};

struct sm_access_result;
struct sm_analysis_options;

/* What a rule sees: one file's IR, its resolved kernels, and the options
 * that shape the analysis. */
struct sm_rule_ctx {
	const struct sm_file *file;
	struct sm_kernel_model *models;   /* one per file->kernels[i] */
	struct sm_access_result **results;/* [kernel][access]: degrees */
	struct sm_arena *scratch;         /* for messages; the sink copies */
	const struct sm_analysis_options *opt;
};

struct sm_rule {
	const char *id;
	enum sm_level level;          /* default level */
	const char *summary;
	void (*run)(const struct sm_rule_ctx *ctx, struct sm_sink *sink);
};

extern const struct sm_rule sm_rules[SM_RULE__COUNT];

/* The rule with this id, or -1. */
int sm_rule_find(const char *id);

#define SM_RULE(e, id, lvl, fn, summary) void fn(const struct sm_rule_ctx *ctx, struct sm_sink *sink);
#include "registry.def"
#undef SM_RULE

#endif
