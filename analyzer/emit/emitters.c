/* emitters.c - the table of output formats (see emit.h): --format, its
 * help line and its error message are all made from it. */
#include <stdio.h>
#include <string.h>

#include "emit/emit.h"

const struct sm_emitter sm_emitters[] = {
	{ "text", "(default)", sm_emit_text, true, NULL, sm_emit_text_file, NULL },
	{ "json", "", sm_emit_json, true, sm_emit_json_begin, sm_emit_json_file, sm_emit_json_end },
	{ "jsonl", "(JSON lines: one object a line, as files finish)", sm_emit_jsonl, true, NULL, sm_emit_jsonl_file,
	  sm_emit_jsonl_end },
	{ "sarif", "(SARIF 2.1.0)", sm_emit_sarif, true, NULL, NULL, NULL },
	{ "github", "(GitHub Actions workflow commands)", sm_emit_github, true, NULL, sm_emit_github_file,
	  sm_emit_github_end },
	{ "html", "(a self-contained page with bank maps)", sm_emit_html, false, NULL, NULL, NULL },
	{ "statistics", "(counts per rule, level and file)", sm_emit_statistics, false, NULL, NULL, NULL },
	{ NULL, NULL, NULL, false, NULL, NULL, NULL },
};

int sm_emit_streamed(const struct sm_emitter *e, FILE *out, struct sm_result *const *res, unsigned n,
		     const struct sm_emit_options *o)
{
	struct sm_emit_stream st = { out, o, NULL };
	int rc = e->begin ? e->begin(&st) : 0;
	for (unsigned i = 0; i < n; i++)
		rc |= e->file(&st, res[i]);
	rc |= e->end ? e->end(&st) : 0;
	return rc || ferror(out) ? -1 : 0;
}

const struct sm_emitter *sm_emitter_find(const char *name)
{
	for (const struct sm_emitter *e = sm_emitters; e->name; e++)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}
