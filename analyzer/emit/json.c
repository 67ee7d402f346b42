/* emit_json.c - one JSON document for the whole run, built with jansson:
 * {"results": [...], "notifications": [...], "accesses": [...]}. A
 * notification's "id" is its input problem (smemlint/problems.def).
 * Field names of results are a contract: later versions add, never rename. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "rules/rules.h"

static const char *kind_name(int k)
{
	return k == SM_ACC_STORE ? "store" : k == SM_ACC_ATOMIC ? "atomic" : "load";
}

/* Length of the valid UTF-8 sequence at s (RFC 3629: no overlongs, no
 * surrogates, nothing above U+10FFFF), or 0. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	if (c < 0x80)
		return 1;
	size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F) || (c == 0xF0 && s[1] < 0x90) ||
	    (c == 0xF4 && s[1] > 0x8F))
		return 0;
	return n;
}

/* A JSON string for s, or null. JSON strings must be UTF-8, and paths,
 * clang's messages and quoted source need not be: invalid bytes become
 * U+FFFD instead of the whole field being dropped. */
static json_t *jstr(const char *s)
{
	if (!s)
		return json_null();
	json_t *j = json_string(s);
	if (j)
		return j;
	size_t n = strlen(s);
	char *buf = malloc(3 * n + 1);
	if (!buf)
		return json_string("?");
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t k = utf8_len(p);
		if (k) {
			memcpy(buf + o, p, k);
			o += k;
			p += k;
		} else {
			memcpy(buf + o, "\xEF\xBF\xBD", 3);
			o += 3;
			p++;
		}
	}
	buf[o] = 0;
	j = json_string(buf);
	free(buf);
	return j ? j : json_string("?");
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
			json_object_set_new(j, "file", jstr(r->path));
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
			json_object_set_new(j, "message", jstr(d->message));
			if (d->note)
				json_object_set_new(j, "note", jstr(d->note));
			json_t *rel = json_array();
			for (int k = 0; k < d->nrelated; k++) {
				json_t *x = json_object();
				json_object_set_new(x, "file", jstr(r->path));
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
				json_object_set_new(fx, "replacement", jstr(d->fix.text));
				json_object_set_new(j, "fix", fx);
			}
			json_array_append_new(results, j);
		}
		for (unsigned i = 0; i < r->nnotes; i++) {
			const struct sm_notification *nt = &r->notes[i];
			json_t *j = json_object();
			json_object_set_new(j, "id", json_string(sm_problems[nt->problem].id));
			json_object_set_new(j, "file", jstr(r->path));
			json_object_set_new(j, "level", json_string(sm_level_name(nt->level)));
			if (nt->pos.line) {
				json_object_set_new(j, "line", json_integer(nt->pos.line));
				json_object_set_new(j, "column", json_integer(nt->pos.col));
			}
			json_object_set_new(j, "message", jstr(nt->message));
			json_array_append_new(notes, j);
		}
		if (o && o->all_accesses) {
			for (unsigned i = 0; i < r->nacc; i++) {
				const struct sm_access_record *a = &r->acc[i];
				json_t *j = json_object();
				json_object_set_new(j, "file", jstr(r->path));
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
					json_object_set_new(j, "why", jstr(a->why));
				}
				if (a->ncall_lines) {
					json_t *cl = json_array();
					for (unsigned c = 0; c < a->ncall_lines && c < 4; c++)
						json_array_append_new(cl, json_integer(a->call_lines[c]));
					json_object_set_new(j, "call_lines", cl);
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
