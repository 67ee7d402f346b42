/* emit_sarif.c - SARIF 2.1.0, built with jansson (see emit.h). One run:
 * the driver with every rule of the registry and every input problem
 * (notification descriptors), one invocation whose notifications are the
 * input problems met, each referring to its descriptor, and the results
 * with UTF-16 regions, related locations, fixes and stable partial
 * fingerprints. */
#define _GNU_SOURCE
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit/emit.h"
#include "emit/launch_json.h"
#include "rules/rules.h"
#include "rules/explain.h"
#include "driver/report.h"

#define SARIF_SCHEMA "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
#define SRCROOT "%SRCROOT%"

static json_t *text_msg(const char *s)
{
	json_t *m = json_object();
	json_object_set_new(m, "text", json_string(s && *s ? s : "(no message)"));
	return m;
}

/* An artifactLocation for a report path: relative ones against %SRCROOT%. */
static json_t *artifact(const char *path)
{
	char rp[PATH_MAX], esc[PATH_MAX * 3 + 16];
	sm_report_path(path, rp, sizeof(rp));
	json_t *a = json_object();
	if (rp[0] == '/') {
		char u[PATH_MAX * 3 + 32];
		sm_uri_escape(rp, esc, sizeof(esc));
		snprintf(u, sizeof(u), "file://%s", esc);
		json_object_set_new(a, "uri", json_string(u));
	} else {
		sm_uri_escape(rp, esc, sizeof(esc));
		json_object_set_new(a, "uri", json_string(esc));
		json_object_set_new(a, "uriBaseId", json_string(SRCROOT));
	}
	return a;
}

static json_t *region(const struct sm_result *r, struct sm_range rg)
{
	json_t *g = json_object();
	unsigned bl = rg.begin.line ? rg.begin.line : 1;
	json_object_set_new(g, "startLine", json_integer(bl));
	if (rg.begin.col)
		json_object_set_new(g, "startColumn", json_integer(sm_utf16_col(r, bl, rg.begin.col)));
	if (rg.end.line >= bl && rg.end.line) {
		json_object_set_new(g, "endLine", json_integer(rg.end.line));
		if (rg.end.col && rg.begin.col && (rg.end.line > bl || rg.end.col > rg.begin.col))
			json_object_set_new(g, "endColumn", json_integer(sm_utf16_col(r, rg.end.line, rg.end.col)));
	}
	return g;
}

static json_t *phys(const struct sm_result *r, struct sm_range rg)
{
	json_t *p = json_object();
	json_object_set_new(p, "artifactLocation", artifact(r->path));
	if (rg.begin.line)
		json_object_set_new(p, "region", region(r, rg));
	return p;
}

static const char *sarif_level(enum sm_level l)
{
	return l == SM_LEVEL_ERROR ? "error" : l == SM_LEVEL_WARNING ? "warning" : l >= SM_LEVEL_ASSUMED ? "note" : "none";
}

static char *explain_str(int rule, int markdown)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	sm_rule_explain(f, rule, markdown);
	fclose(f);
	return buf;
}

static json_t *driver(const struct sm_emit_options *o)
{
	const char *v = o && o->version ? o->version : "0.0.0";
	json_t *d = json_object();
	json_object_set_new(d, "name", json_string("smemlint"));
	json_object_set_new(d, "version", json_string(v));
	json_object_set_new(d, "semanticVersion", json_string(v));
	json_object_set_new(d, "informationUri", json_string(SM_HELP_URI_BASE));
	json_t *rules = json_array();
	for (int i = 0; i < SM_RULE__COUNT; i++) {
		const struct sm_rule_doc *doc = sm_rule_doc(i);
		json_t *x = json_object();
		json_object_set_new(x, "id", json_string(sm_rules[i].id));
		json_object_set_new(x, "name", json_string(doc->name));
		json_object_set_new(x, "shortDescription", text_msg(sm_rules[i].summary));
		json_object_set_new(x, "fullDescription", text_msg(doc->meaning));
		char *t = explain_str(i, 0), *md = explain_str(i, 1);
		json_t *h = json_object();
		json_object_set_new(h, "text", json_string(t ? t : doc->meaning));
		json_object_set_new(h, "markdown", json_string(md ? md : doc->meaning));
		free(t);
		free(md);
		json_object_set_new(x, "help", h);
		char uri[256];
		snprintf(uri, sizeof(uri), "%s#%s", SM_HELP_URI_BASE, sm_rules[i].id);
		json_object_set_new(x, "helpUri", json_string(uri));
		json_t *dc = json_object();
		json_object_set_new(dc, "level", json_string(sarif_level(sm_rules[i].level)));
		json_object_set_new(x, "defaultConfiguration", dc);
		json_t *props = json_object(), *tags = json_array();
		json_array_append_new(tags, json_string("cuda"));
		json_array_append_new(tags, json_string(i == SM_RULE_BANK_CONFLICT ? "performance" : "correctness"));
		json_object_set_new(props, "tags", tags);
		json_object_set_new(x, "properties", props);
		json_array_append_new(rules, x);
	}
	json_object_set_new(d, "rules", rules);
	/* the input problems, which toolExecutionNotifications refer to by
	 * id and index (reportingDescriptorReference) */
	json_t *problems = json_array();
	for (int i = 0; i < SM_PROBLEM__COUNT; i++) {
		json_t *x = json_object();
		json_object_set_new(x, "id", json_string(sm_problems[i].id));
		json_object_set_new(x, "shortDescription", text_msg(sm_problems[i].summary));
		/* what GitHub's ingestion requires of every descriptor (the
		 * Multitool's GH2012): a full description and a help text */
		static const char *const what[] = {
			[SM_LEVEL_ERROR] = "An error: the file was not analyzed, or not all of it, and the run fails (exit 2).",
			[SM_LEVEL_WARNING] = "A warning: the file was analyzed, perhaps partly; the exit status is that of the findings.",
			[SM_LEVEL_NOTE] = "A note: the file was analyzed; the exit status is that of the findings.",
			[SM_LEVEL_NONE] = "",
		};
		char *full = NULL;
		if (asprintf(&full, "%s. %s", sm_problems[i].summary, what[sm_problems[i].level]) < 0)
			full = NULL;
		json_object_set_new(x, "fullDescription", text_msg(full ? full : sm_problems[i].summary));
		json_t *h = json_object();
		json_object_set_new(h, "text", json_string(full ? full : sm_problems[i].summary));
		json_object_set_new(x, "help", h);
		free(full);
		json_t *dc = json_object();
		json_object_set_new(dc, "level", json_string(sarif_level(sm_problems[i].level)));
		json_object_set_new(x, "defaultConfiguration", dc);
		json_array_append_new(problems, x);
	}
	json_object_set_new(d, "notifications", problems);
	return d;
}

static const char *kind_name(int k)
{
	return k == SM_ACC_STORE ? "store" : k == SM_ACC_ATOMIC ? "atomic" : "load";
}

static json_t *result(const struct sm_result *r, const struct sm_diag *d, uint64_t fp)
{
	json_t *j = json_object();
	json_object_set_new(j, "ruleId", json_string(sm_rules[d->rule].id));
	json_object_set_new(j, "ruleIndex", json_integer(d->rule));
	json_object_set_new(j, "level", json_string(sarif_level(d->level)));
	if (d->note) {
		char *m = NULL;
		if (asprintf(&m, "%s\n%s", d->message, d->note) < 0)
			m = NULL;
		json_object_set_new(j, "message", text_msg(m ? m : d->message));
		free(m);
	} else {
		json_object_set_new(j, "message", text_msg(d->message));
	}
	json_t *locs = json_array(), *loc = json_object();
	json_object_set_new(loc, "physicalLocation", phys(r, d->range));
	json_array_append_new(locs, loc);
	json_object_set_new(j, "locations", locs);
	char hex[17];
	sm_fingerprint_hex(fp, hex);
	json_t *pf = json_object();
	json_object_set_new(pf, "smemlint/v1", json_string(hex));
	json_object_set_new(j, "partialFingerprints", pf);
	if (d->nrelated) {
		json_t *rel = json_array();
		for (int k = 0; k < d->nrelated && k < SM_MAX_RELATED; k++) {
			json_t *x = json_object();
			json_object_set_new(x, "id", json_integer(k + 1));
			json_object_set_new(x, "physicalLocation", phys(r, d->related[k].range));
			json_object_set_new(x, "message", text_msg(d->related[k].message));
			json_array_append_new(rel, x);
		}
		json_object_set_new(j, "relatedLocations", rel);
	}
	if (d->fix.text && d->fix.range.begin.line) {
		json_t *fix = json_object(), *changes = json_array(), *ch = json_object(), *reps = json_array();
		json_object_set_new(fix, "description", text_msg(d->note ? d->note : "apply the suggested layout"));
		json_object_set_new(ch, "artifactLocation", artifact(r->path));
		for (unsigned k = 0; k <= d->nfix_more; k++) {
			/* one fix, every edit of it (a swizzle: each access) */
			const struct sm_fixit *fx = k ? &d->fix_more[k - 1] : &d->fix;
			json_t *rep = json_object(), *ins = json_object();
			json_object_set_new(rep, "deletedRegion", region(r, fx->range));
			json_object_set_new(ins, "text", json_string(fx->text));
			json_object_set_new(rep, "insertedContent", ins);
			json_array_append_new(reps, rep);
		}
		json_object_set_new(ch, "replacements", reps);
		json_array_append_new(changes, ch);
		json_object_set_new(fix, "artifactChanges", changes);
		json_t *fixes = json_array();
		json_array_append_new(fixes, fix);
		json_object_set_new(j, "fixes", fixes);
	}
	json_t *p = json_object();
	if (d->kernel)
		json_object_set_new(p, "kernel", json_string(d->kernel));
	if (d->array)
		json_object_set_new(p, "array", json_string(d->array));
	if (d->access >= 0)
		json_object_set_new(p, "access", json_string(kind_name(d->access)));
	if (d->ways)
		json_object_set_new(p, "ways", json_integer(d->ways));
	if (d->degree > 0)
		json_object_set_new(p, "degree", json_real(round(d->degree * 100) / 100));
	json_t *wf = sm_emit_wavefronts_json(d->wavefronts, d->ideal_wavefronts, d->wavefronts_exact,
					     sm_emit_grid_blocks(d->launch.grid), true);
	if (wf)
		json_object_set_new(p, "wavefronts", wf);
	if (d->block.x) {
		json_t *bd = json_array();
		json_array_append_new(bd, json_integer(d->block.x));
		json_array_append_new(bd, json_integer(d->block.y));
		json_array_append_new(bd, json_integer(d->block.z));
		json_object_set_new(p, "blockDim", bd);
		json_object_set_new(p, "blockDimAssumed", json_boolean(d->block_assumed));
	}
	/* SARIF has no level below note: an assumed-shape finding is a note
	 * that says so */
	if (d->level == SM_LEVEL_ASSUMED)
		json_object_set_new(p, "smemlintLevel", json_string(sm_level_name(d->level)));
	json_t *lj = sm_emit_launch_json(r, &d->launch, true);
	if (lj)
		json_object_set_new(p, "launch", lj);
	if (d->fix_refused)
		json_object_set_new(p, "fixRefused", json_string(d->fix_refused));
	json_t *wj = sm_emit_witness_json(d);
	if (wj)
		json_object_set_new(p, "witness", wj);
	json_object_set_new(j, "properties", p);
	return j;
}

static json_t *notification(const struct sm_result *r, const struct sm_notification *nt)
{
	json_t *j = json_object();
	json_object_set_new(j, "level", json_string(sarif_level(nt->level)));
	json_object_set_new(j, "message", text_msg(nt->message));
	json_t *desc = json_object();
	json_object_set_new(desc, "id", json_string(sm_problems[nt->problem].id));
	json_object_set_new(desc, "index", json_integer(nt->problem));
	json_object_set_new(j, "descriptor", desc);
	if (r) {
		json_t *locs = json_array(), *loc = json_object();
		struct sm_range rg = { nt->pos, { 0, 0 }, 0 };
		json_object_set_new(loc, "physicalLocation", phys(r, rg));
		json_array_append_new(locs, loc);
		json_object_set_new(j, "locations", locs);
	}
	return j;
}

int sm_emit_sarif(FILE *out, struct sm_result *const *res, unsigned n, const struct sm_emit_options *o)
{
	json_t *root = json_object(), *run = json_object(), *results = json_array(), *notes = json_array();
	bool ok = true;
	for (unsigned f = 0; f < n; f++) {
		const struct sm_result *r = res[f];
		uint64_t *fp = calloc(r->ndiags + 1, sizeof(*fp));
		if (!fp) {
			json_decref(root);
			json_decref(run);
			json_decref(results);
			json_decref(notes);
			return -1;
		}
		sm_result_fingerprints(r, fp);
		for (unsigned i = 0; i < r->ndiags; i++)
			json_array_append_new(results, result(r, &r->diags[i], fp[i]));
		free(fp);
		for (unsigned i = 0; i < r->nnotes; i++)
			json_array_append_new(notes, notification(r, &r->notes[i]));
		if (r->input_error)
			ok = false;
	}
	for (unsigned i = 0; o && i < o->nerrors; i++) {
		enum sm_problem_id p = o->error_ids ? o->error_ids[i] : SM_PROBLEM_NO_CUDA_FILES;
		struct sm_notification nt = { SM_LEVEL_ERROR, p, { 0, 0 }, o->errors[i] };
		json_array_append_new(notes, notification(NULL, &nt));
		ok = false;
	}
	json_object_set_new(root, "$schema", json_string(SARIF_SCHEMA));
	json_object_set_new(root, "version", json_string("2.1.0"));
	json_t *tool = json_object();
	json_object_set_new(tool, "driver", driver(o));
	json_object_set_new(run, "tool", tool);
	json_t *inv = json_object(), *invs = json_array();
	json_object_set_new(inv, "executionSuccessful", json_boolean(ok));
	json_object_set_new(inv, "toolExecutionNotifications", notes);
	json_array_append_new(invs, inv);
	json_object_set_new(run, "invocations", invs);
	char cwd[PATH_MAX], esc[PATH_MAX * 3 + 16], uri[PATH_MAX * 3 + 32];
	if (getcwd(cwd, sizeof(cwd))) {
		sm_uri_escape(cwd, esc, sizeof(esc));
		snprintf(uri, sizeof(uri), "file://%s%s", esc, esc[0] && esc[strlen(esc) - 1] == '/' ? "" : "/");
		json_t *base = json_object(), *b = json_object();
		json_object_set_new(b, "uri", json_string(uri));
		json_object_set_new(base, SRCROOT, b);
		json_object_set_new(run, "originalUriBaseIds", base);
	}
	json_object_set_new(run, "columnKind", json_string("utf16CodeUnits"));
	json_object_set_new(run, "results", results);
	json_t *runs = json_array();
	json_array_append_new(runs, run);
	json_object_set_new(root, "runs", runs);
	int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
	return rc || ferror(out) ? -1 : 0;
}
