/* emitters.c - the table of output formats (see emit.h): --format, its
 * help line and its error message are all made from it. */
#include <string.h>

#include "emit/emit.h"

const struct sm_emitter sm_emitters[] = {
	{ "text", "(default)", sm_emit_text, true },
	{ "json", "", sm_emit_json, true },
	{ "sarif", "(SARIF 2.1.0)", sm_emit_sarif, true },
	{ "github", "(GitHub Actions workflow commands)", sm_emit_github, true },
	{ "html", "(a self-contained page with bank maps)", sm_emit_html, false },
	{ "statistics", "(counts per rule, level and file)", sm_emit_statistics, false },
	{ NULL, NULL, NULL, false },
};

const struct sm_emitter *sm_emitter_find(const char *name)
{
	for (const struct sm_emitter *e = sm_emitters; e->name; e++)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}
