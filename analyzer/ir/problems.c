/* problems.c - the table of input problems, generated from problems.def
 * (see smemlint/problems.h). */
#include "smemlint/problems.h"

#include <string.h>

const struct sm_problem sm_problems[SM_PROBLEM__COUNT] = {
#define SM_PROBLEM(e, id, lvl, summary) [SM_PROBLEM_##e] = { id, lvl, summary },
#include "smemlint/problems.def"
#undef SM_PROBLEM
};

int sm_problem_find(const char *id)
{
	for (int i = 0; id && i < SM_PROBLEM__COUNT; i++)
		if (!strcmp(sm_problems[i].id, id))
			return i;
	return -1;
}
