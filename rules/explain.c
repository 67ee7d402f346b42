/* explain.c - --explain and doc/rules.md from the rules' documentation,
 * which each rule file keeps beside its code (registry.def names it). */
#include "rules/explain.h"

#include <string.h>

#include "base/text.h"


const struct sm_rule_doc *sm_rule_doc(int r)
{
	static const struct sm_rule_doc none = { "Unknown", "", "", "" };
	if (r < 0 || r >= SM_RULE__COUNT || !sm_rules[r].doc || !sm_rules[r].doc->name)
		return &none;
	return sm_rules[r].doc;
}

int sm_rule_explain(FILE *out, int r, int markdown)
{
	const struct sm_rule_doc *d = sm_rule_doc(r);
	if (markdown) {
		fprintf(out, "**%s** (default: %s): %s\n\n%s\n\n**Example**\n\n```cuda\n%s```\n\n**Fix**\n\n%s\n",
			sm_rules[r].id, sm_level_name(sm_rules[r].level), sm_rules[r].summary, d->meaning, d->example,
			d->fix);
	} else {
		fprintf(out, "%s (default: %s): %s\n\n%s\n\nExample:\n\n", sm_rules[r].id,
			sm_level_name(sm_rules[r].level), sm_rules[r].summary, d->meaning);
		size_t pos = 0, n, len = strlen(d->example);
		for (const char *l; (l = sm_text_next_line(d->example, len, &pos, &n));)
			fprintf(out, "    %.*s\n", (int)n, l);
		fprintf(out, "\nFix: %s\n", d->fix);
	}
	return ferror(out) ? -1 : 0;
}
