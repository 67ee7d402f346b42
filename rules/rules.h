/* rules.h - the rule registry, generated from rules/registry.def. */
#ifndef SMEMLINT_RULES_H
#define SMEMLINT_RULES_H

#include "engine/facts.h"
#include "smemlint/diag.h"
#include "smemlint/ir.h"
#include "smemlint/options.h"
#include "smemlint/rule_ids.h"


/* What a rule sees: one file's IR, the facts of each of its kernels
 * (computed when first asked for, see engine/facts.h), and the options
 * that shape the analysis. */
struct sm_rule_ctx {
	const struct sm_file *file;
	struct sm_kernel_facts *facts;    /* one per file->kernels[i] */
	struct sm_arena *scratch;         /* for messages; the sink copies */
	const struct sm_analysis_options *opt;
};

struct sm_rule {
	const char *id;
	enum sm_level level;          /* default level */
	const char *summary;
	void (*run)(const struct sm_rule_ctx *ctx, struct sm_sink *sink);
	const struct sm_rule_doc *doc; /* beside the rule's code (rules/<rule>.c) */
};

extern const struct sm_rule sm_rules[SM_RULE__COUNT];

/* The rule with this id, or -1. */
int sm_rule_find(const char *id);

struct sm_rule_doc;
#define SM_RULE(e, id, lvl, fn, doc, summary) \
	void fn(const struct sm_rule_ctx *ctx, struct sm_sink *sink); \
	extern const struct sm_rule_doc doc;
#include "rules/registry.def"
#undef SM_RULE

#endif
