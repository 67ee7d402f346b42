/* diag.c - the names of levels (see smemlint/diag.h). */
#include "smemlint/diag.h"

const char *sm_level_name(enum sm_level l)
{
	switch (l) {
	case SM_LEVEL_ERROR: return "error";
	case SM_LEVEL_WARNING: return "warning";
	case SM_LEVEL_NOTE: return "note";
	case SM_LEVEL_NONE: break;
	}
	return "none";
}
