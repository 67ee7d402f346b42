/* unused_suppression.c - rule `unused-suppression`.
 *
 * Models nothing in the kernel: its findings are made after the analysis by
 * analyzer/suppress.c, for each inline suppression that suppressed no
 * finding, when --report-unused-suppressions is given. The rule is in the
 * registry so that it is listed, explained, configurable and has a SARIF
 * descriptor like every other. */
#include "rules/rules.h"

void sm_rule_unused_suppression(const struct sm_rule_ctx *ctx, struct sm_sink *sink)
{
	(void)ctx;
	(void)sink;
}
