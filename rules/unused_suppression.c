/* unused_suppression.c - rule `unused-suppression`.
 *
 * Models nothing in the kernel: its findings are made after the analysis by
 * analyzer/suppress.c, for each inline suppression that suppressed no
 * finding, when --report-unused-suppressions is given. The rule is in the
 * registry so that it is listed, explained, configurable and has a SARIF
 * descriptor like every other. */
#include "rules/explain.h"
#include "rules/rules.h"

void sm_rule_unused_suppression(const struct sm_rule_ctx *ctx, struct sm_sink *sink)
{
	(void)ctx;
	(void)sink;
}

/* What --explain, SARIF and doc/rules.md say about this rule. */
const struct sm_rule_doc sm_doc_unused_suppression = {
	"UnusedSuppression",
	"An inline suppression (// smemlint: ignore[...], NOLINT(smemlint-...) or "
	"NOLINTNEXTLINE(smemlint-...)) suppressed no finding. Reported only with "
	"--report-unused-suppressions (or report-unused-suppressions: true in .smemlint.yaml).",
	"float v = tile[threadIdx.y][threadIdx.x]; // smemlint: ignore[bank-conflict]\n",
	"Remove the suppression, or name the rule it is meant for.",
};
