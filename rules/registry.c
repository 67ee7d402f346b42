/* registry.c - the rule table, generated from registry.def. */
#include <string.h>

#include "rules/rules.h"

const struct sm_rule sm_rules[SM_RULE__COUNT] = {
#define SM_RULE(e, id, lvl, fn, doc, summary) [SM_RULE_##e] = { id, lvl, summary, fn, &doc },
#include "rules/registry.def"
#undef SM_RULE
};

int sm_rule_find(const char *id)
{
	for (int i = 0; i < SM_RULE__COUNT; i++)
		if (!strcmp(sm_rules[i].id, id))
			return i;
	return -1;
}
