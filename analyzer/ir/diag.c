/* diag.c - the names of levels and of launch provenances (see
 * smemlint/diag.h). */
#include "smemlint/diag.h"

const char *sm_level_name(enum sm_level l)
{
	switch (l) {
	case SM_LEVEL_ERROR: return "error";
	case SM_LEVEL_WARNING: return "warning";
	case SM_LEVEL_NOTE: return "note";
	case SM_LEVEL_ASSUMED: return "assumed";
	case SM_LEVEL_NONE: break;
	}
	return "none";
}

/* The JSON and SARIF name of a provenance. */
const char *sm_launch_source_name(enum sm_launch_source k)
{
	switch (k) {
	case SM_LAUNCH_NONE: return "none";
	case SM_LAUNCH_SITE: return "launch";
	case SM_LAUNCH_BOUNDS: return "launch_bounds";
	case SM_LAUNCH_CLUSTER: return "cluster_dims";
	case SM_LAUNCH_OPTION: return "option";
	case SM_LAUNCH_CONFIG: return "config";
	case SM_LAUNCH_ASSUMED: return "assumed";
	case SM_LAUNCH_ANY: return "any";
	}
	return "none";
}
