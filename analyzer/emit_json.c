/* emit_json.c - one JSON document for the whole run, built with jansson:
 * {"results": [...], "notifications": [...], "accesses": [...]}.
 * Field names of results are a contract: later versions add, never rename. */
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "smemlint/emit.h"

static const char *kind_name(int k)
{
	return k == SM_ACC_STORE ? "store" : k == SM_ACC_ATOMIC ? "atomic" : "load";
}

static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

int sm_emit_json(FILE *out, struct sm_result *const *res, unsigned n, const struct sm_emit_options *o)
{
	json_t *root = json_object();
	json_t *results = json_array(), *notes = json_array(), *accs = json_array();
	for (unsigned f = 0; f < n; f++) {
		const struct sm_result *r = res[f];
		for (unsigned i = 0; i < r->ndiags; i++) {
			const struct sm_diag *d = &r->diags[i];
			json_t *j = json_object();
			json_object_set_new(j, "rule", json_string(sm_rules[d->rule].id));
			json_object_set_new(j, "level", json_string(sm_level_name(d->level)));
			json_object_set_new(j, "file", json_string(r->path));
			json_object_set_new(j, "line", json_integer(d->range.begin.line));
			json_object_set_new(j, "column", json_integer(d->range.begin.col));
			json_object_set_new(j, "end_line", json_integer(d->range.end.line));
			json_object_set_new(j, "end_column", json_integer(d->range.end.col));
			json_object_set_new(j, "kernel", jstr(d->kernel));
			json_object_set_new(j, "array", jstr(d->array));
			if (d->access >= 0)
				json_object_set_new(j, "access", json_string(kind_name(d->access)));
			if (d->ways)
				json_object_set_new(j, "ways", json_integer(d->ways));
			if (d->degree > 0)
				json_object_set_new(j, "degree", json_real(round(d->degree * 100) / 100));
			json_t *bd = json_array();
			json_array_append_new(bd, json_integer(d->block.x));
			json_array_append_new(bd, json_integer(d->block.y));
			json_array_append_new(bd, json_integer(d->block.z));
			json_object_set_new(j, "block_dim", bd);
			json_object_set_new(j, "block_dim_assumed", json_boolean(d->block_assumed));
			json_object_set_new(j, "message", json_string(d->message));
			if (d->note)
				json_object_set_new(j, "note", json_string(d->note));
			json_t *rel = json_array();
			for (int k = 0; k < d->nrelated; k++) {
				json_t *x = json_object();
				json_object_set_new(x, "file", json_string(r->path));
				json_object_set_new(x, "line", json_integer(d->related[k].range.begin.line));
				json_object_set_new(x, "column", json_integer(d->related[k].range.begin.col));
				json_object_set_new(x, "message", jstr(d->related[k].message));
				json_array_append_new(rel, x);
			}
			json_object_set_new(j, "related", rel);
			if (d->fix.text) {
				json_t *fx = json_object();
				json_object_set_new(fx, "line", json_integer(d->fix.range.begin.line));
				json_object_set_new(fx, "column", json_integer(d->fix.range.begin.col));
				json_object_set_new(fx, "end_line", json_integer(d->fix.range.end.line));
				json_object_set_new(fx, "end_column", json_integer(d->fix.range.end.col));
				json_object_set_new(fx, "replacement", json_string(d->fix.text));
				json_object_set_new(j, "fix", fx);
			}
			json_array_append_new(results, j);
		}
		for (unsigned i = 0; i < r->nnotes; i++) {
			const struct sm_notification *nt = &r->notes[i];
			json_t *j = json_object();
			json_object_set_new(j, "file", json_string(r->path));
			json_object_set_new(j, "level", json_string(nt->level == SM_LEVEL_ERROR ? "error" : "note"));
			if (nt->pos.line) {
				json_object_set_new(j, "line", json_integer(nt->pos.line));
				json_object_set_new(j, "column", json_integer(nt->pos.col));
			}
			json_object_set_new(j, "message", json_string(nt->message));
			json_array_append_new(notes, j);
		}
		if (o && o->all_accesses) {
			for (unsigned i = 0; i < r->nacc; i++) {
				const struct sm_access_record *a = &r->acc[i];
				json_t *j = json_object();
				json_object_set_new(j, "file", json_string(r->path));
				json_object_set_new(j, "line", json_integer(a->range.begin.line));
				json_object_set_new(j, "column", json_integer(a->range.begin.col));
				json_object_set_new(j, "kernel", jstr(a->kernel));
				json_object_set_new(j, "array", jstr(a->array));
				json_object_set_new(j, "access", json_string(kind_name(a->kind)));
				json_object_set_new(j, "width", json_integer(a->width));
				json_object_set_new(j, "analyzed", json_boolean(a->analyzed));
				if (a->analyzed) {
					json_object_set_new(j, "ways", json_integer((json_int_t)(a->worst + 0.5)));
					json_object_set_new(j, "degree", json_real(round(a->worst * 100) / 100));
					json_object_set_new(j, "mean_ways", json_real(round(a->mean * 100) / 100));
				} else if (a->why) {
					json_object_set_new(j, "why", json_string(a->why));
				}
				json_array_append_new(accs, j);
			}
		}
	}
	json_object_set_new(root, "results", results);
	json_object_set_new(root, "notifications", notes);
	if (o && o->all_accesses)
		json_object_set_new(root, "accesses", accs);
	else
		json_decref(accs);
	int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
	return rc || ferror(out) ? -1 : 0;
}
