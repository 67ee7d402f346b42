/* explain.h - the long descriptions of the rules: what a finding means, an
 * example, and the fix. Each rule file keeps its own (sm_doc_<rule>, named
 * in registry.def), shared by --explain, SARIF rules[] (fullDescription,
 * help) and the man page. */
#ifndef SMEMLINT_EXPLAIN_H
#define SMEMLINT_EXPLAIN_H

#include <stdio.h>

#include "rules/rules.h"

/* Where the rules are documented on the web; helpUri is this plus '#' and
 * the rule id. */
/* Where doc/rules.md is published; set with cmake -DSMEMLINT_HELP_URI=... */
#ifndef SM_HELP_URI_BASE
#define SM_HELP_URI_BASE "https://github.com/smemlint/smemlint/blob/main/doc/rules.md"
#endif

struct sm_rule_doc {
	const char *name;        /* PascalCase name (SARIF reportingDescriptor.name) */
	const char *meaning;     /* what a finding means, one paragraph */
	const char *example;     /* CUDA code that triggers it */
	const char *fix;         /* how to fix it, one paragraph */
};

/* The documentation of rule r (an enum sm_rule_id); never NULL. */
const struct sm_rule_doc *sm_rule_doc(int r);

/* Write the explanation of rule r as plain text (markdown == 0) or as
 * markdown (markdown == 1). Returns 0, or -1 on a write error. */
int sm_rule_explain(FILE *out, int r, int markdown);

#endif
