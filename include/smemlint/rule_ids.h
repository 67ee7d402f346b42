/* rule_ids.h - the ids of smemlint's rules (public), generated from the
 * one registry, rules/registry.def (installed beside this header). A
 * finding's sm_diag.rule is one of these. */
#ifndef SMEMLINT_RULE_IDS_H
#define SMEMLINT_RULE_IDS_H

#include "smemlint/stage.h"
#if SM_STAGE < SM_STAGE_IR
#error "smemlint/rule_ids.h belongs to the ir stage: analyzer/base may not include it"
#endif

enum sm_rule_id {
#define SM_RULE(e, id, lvl, fn, doc, summary) SM_RULE_##e,
#include "smemlint/registry.def"
#undef SM_RULE
	SM_RULE__COUNT
};

#endif
