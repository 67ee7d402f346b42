/* emit_json.c - one JSON document for the whole run, made with jansson:
 * {"results": [...], "notifications": [...], "accesses": [...]}, written
 * as files finish (sm_emit_json_file); and JSON lines, the same entries
 * one a line with a "type". A
 * notification's "id" is its input problem (smemlint/problems.def).
 * Field names of results are a contract: later versions add, never rename. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "base/text.h"
#include "emit/launch_json.h"
#include "rules/rules.h"

static const char *kind_name(int k)
{
	return k == SM_ACC_STORE ? "store" : k == SM_ACC_ATOMIC ? "atomic" : "load";
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
		size_t k = sm_utf8_len(p);
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

/* One finding as the document's "results" hold it. */
static json_t *result_json(const struct sm_result *r, const struct sm_diag *d)
{
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
	json_t *wf = sm_emit_wavefronts_json(d->wavefronts, d->ideal_wavefronts, d->wavefronts_exact,
					     sm_emit_grid_blocks(d->launch.grid), false);
	if (wf)
		json_object_set_new(j, "wavefronts", wf);
	json_t *bd = json_array();
	json_array_append_new(bd, json_integer(d->block.x));
	json_array_append_new(bd, json_integer(d->block.y));
	json_array_append_new(bd, json_integer(d->block.z));
	json_object_set_new(j, "block_dim", bd);
	json_object_set_new(j, "block_dim_assumed", json_boolean(d->block_assumed));
	json_t *lj = sm_emit_launch_json(r, &d->launch, false);
	if (lj)
		json_object_set_new(j, "launch", lj);
	json_t *wj = sm_emit_witness_json(d);
	if (wj)
		json_object_set_new(j, "witness", wj);
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
		if (d->nfix_more) {
			/* the same fix's other edits, applied together */
			json_t *more = json_array();
			for (unsigned k = 0; k < d->nfix_more; k++) {
				json_t *x = json_object();
				json_object_set_new(x, "line", json_integer(d->fix_more[k].range.begin.line));
				json_object_set_new(x, "column", json_integer(d->fix_more[k].range.begin.col));
				json_object_set_new(x, "end_line", json_integer(d->fix_more[k].range.end.line));
				json_object_set_new(x, "end_column", json_integer(d->fix_more[k].range.end.col));
				json_object_set_new(x, "replacement", jstr(d->fix_more[k].text));
				json_array_append_new(more, x);
			}
			json_object_set_new(fx, "more", more);
		}
		json_object_set_new(j, "fix", fx);
	}
	return j;
}

/* One input problem as "notifications" hold it. */
static json_t *note_json(const struct sm_result *r, const struct sm_notification *nt)
{
	json_t *j = json_object();
	json_object_set_new(j, "id", json_string(sm_problems[nt->problem].id));
	json_object_set_new(j, "file", jstr(r->path));
	json_object_set_new(j, "level", json_string(sm_level_name(nt->level)));
	if (nt->pos.line) {
		json_object_set_new(j, "line", json_integer(nt->pos.line));
		json_object_set_new(j, "column", json_integer(nt->pos.col));
	}
	json_object_set_new(j, "message", jstr(nt->message));
	return j;
}

/* One access as "accesses" hold it (--all-accesses). */
static json_t *access_json(const struct sm_result *r, const struct sm_access_record *a)
{
	json_t *j = json_object();
	json_object_set_new(j, "file", jstr(r->path));
	json_object_set_new(j, "line", json_integer(a->range.begin.line));
	json_object_set_new(j, "column", json_integer(a->range.begin.col));
	json_object_set_new(j, "kernel", jstr(a->kernel));
	json_object_set_new(j, "array", jstr(a->array));
	json_object_set_new(j, "access", json_string(kind_name(a->kind)));
	json_object_set_new(j, "width", json_integer(a->width));
	if (a->op[0])
		json_object_set_new(j, "op", json_string(a->op));
	json_object_set_new(j, "analyzed", json_boolean(a->analyzed));
	if (a->analyzed) {
		json_object_set_new(j, "ways", json_integer((json_int_t)(a->worst + 0.5)));
		json_object_set_new(j, "degree", json_real(round(a->worst * 100) / 100));
		json_object_set_new(j, "mean_ways", json_real(round(a->mean * 100) / 100));
		json_t *wj = sm_emit_wavefronts_json(a->wavefronts, a->ideal, a->wavefronts_exact, a->blocks, false);
		if (wj)
			json_object_set_new(j, "wavefronts", wj);
	} else if (a->why) {
		json_object_set_new(j, "why", jstr(a->why));
	}
	if (a->ncall_lines) {
		json_t *cl = json_array();
		for (unsigned c = 0; c < a->ncall_lines && c < 4; c++)
			json_array_append_new(cl, json_integer(a->call_lines[c]));
		json_object_set_new(j, "call_lines", cl);
	}
	return j;
}

int sm_emit_json(FILE *out, struct sm_result *const *res, unsigned n, const struct sm_emit_options *o)
{
	return sm_emit_streamed(sm_emitter_find("json"), out, res, n, o);
}

/* ---- the document, streamed ----
 * One entry (a result, a notification, an access) a line, compact: the
 * report stays linear in its findings and small (an indented entry took
 * 2.4 times the bytes), and a line-oriented tool can still take it apart.
 * The notifications and accesses, which come after every result, wait in
 * temporary files (in memory when none can be made). */

/* Where entries wait: a temporary file, or memory when none can be made. */
struct spool {
	FILE *f;
	char *mem;             /* open_memstream's buffer, or NULL */
	size_t len;
};

struct json_stream {
	struct spool spool[2]; /* notifications, accesses */
	unsigned count[3];     /* results, notifications, accesses written */
	int failed;
};

/* Append v to out as an entry of a top-level array, n entries before it. */
static void put_entry(FILE *out, json_t *v, unsigned n, int *failed)
{
	char *txt = v ? json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	json_decref(v);
	if (!txt) {
		*failed = 1;
		return;
	}
	fputs(n ? ",\n    " : "\n    ", out);
	fputs(txt, out);
	free(txt);
}

static FILE *spool_open(struct spool *sp)
{
	if (!sp->f && !(sp->f = tmpfile()))
		sp->f = open_memstream(&sp->mem, &sp->len);
	return sp->f;
}

static void spool_close(struct spool *sp)
{
	if (sp->f)
		fclose(sp->f);
	free(sp->mem);
	memset(sp, 0, sizeof(*sp));
}

/* Copy a spool to out and close it. */
static int spool_copy(struct spool *sp, FILE *out)
{
	int rc = 0;
	if (!sp->f)
		return 0;
	if (fflush(sp->f) != 0) {
		rc = -1;
	} else if (sp->mem || sp->len) {
		fwrite(sp->mem, 1, sp->len, out);
	} else if (fseek(sp->f, 0, SEEK_SET) == 0) {
		char buf[65536];
		size_t got;
		while ((got = fread(buf, 1, sizeof(buf), sp->f)) > 0)
			fwrite(buf, 1, got, out);
		rc = ferror(sp->f) ? -1 : 0;
	} else {
		rc = -1;
	}
	spool_close(sp);
	return rc;
}

int sm_emit_json_begin(struct sm_emit_stream *st)
{
	struct json_stream *js = calloc(1, sizeof(*js));
	if (!js)
		return -1;
	st->state = js;
	fputs("{\n  \"results\": [", st->out);
	return ferror(st->out) ? -1 : 0;
}

int sm_emit_json_file(struct sm_emit_stream *st, const struct sm_result *r)
{
	struct json_stream *js = st->state;
	if (!js)
		return -1;
	for (unsigned i = 0; i < r->ndiags; i++)
		put_entry(st->out, result_json(r, &r->diags[i]), js->count[0]++, &js->failed);
	unsigned nacc = st->o && st->o->all_accesses ? r->nacc : 0;
	for (int k = 0; k < 2; k++) {
		unsigned m = k ? nacc : r->nnotes;
		if (m && !spool_open(&js->spool[k])) {
			js->failed = 1;
			return -1;
		}
		for (unsigned i = 0; i < m; i++)
			put_entry(js->spool[k].f, k ? access_json(r, &r->acc[i]) : note_json(r, &r->notes[i]),
				  js->count[k + 1]++, &js->failed);
	}
	return js->failed || ferror(st->out) ? -1 : 0;
}

/* Close a top-level array of n entries. */
static void close_array(FILE *out, unsigned n)
{
	fputs(n ? "\n  ]" : "]", out);
}

int sm_emit_json_end(struct sm_emit_stream *st)
{
	struct json_stream *js = st->state;
	if (!js)
		return -1;
	FILE *out = st->out;
	int rc = js->failed;
	close_array(out, js->count[0]);
	fputs(",\n  \"notifications\": [", out);
	rc |= spool_copy(&js->spool[0], out);
	close_array(out, js->count[1]);
	if (st->o && st->o->all_accesses) {
		fputs(",\n  \"accesses\": [", out);
		rc |= spool_copy(&js->spool[1], out);
		close_array(out, js->count[2]);
	}
	fputs("\n}\n", out);
	for (int k = 0; k < 2; k++)
		spool_close(&js->spool[k]); /* one not copied (accesses not asked for) */
	free(js);
	st->state = NULL;
	return rc || ferror(out) ? -1 : 0;
}

/* ---- JSON lines ---- */

static void put_line(FILE *out, json_t *v, const char *type)
{
	if (!v)
		return;
	json_t *line = json_object();
	json_object_set_new(line, "type", json_string(type));
	json_object_update(line, v);
	json_decref(v);
	json_dumpf(line, out, JSON_COMPACT | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(line);
}

int sm_emit_jsonl(FILE *out, struct sm_result *const *res, unsigned n, const struct sm_emit_options *o)
{
	return sm_emit_streamed(sm_emitter_find("jsonl"), out, res, n, o);
}

/* A file's results, then its notifications, then its accesses. */
int sm_emit_jsonl_file(struct sm_emit_stream *st, const struct sm_result *r)
{
	for (unsigned i = 0; i < r->ndiags; i++)
		put_line(st->out, result_json(r, &r->diags[i]), "result");
	for (unsigned i = 0; i < r->nnotes; i++)
		put_line(st->out, note_json(r, &r->notes[i]), "notification");
	for (unsigned i = 0; st->o && st->o->all_accesses && i < r->nacc; i++)
		put_line(st->out, access_json(r, &r->acc[i]), "access");
	return ferror(st->out) ? -1 : 0;
}

/* input errors tied to no file, as notifications without a file */
int sm_emit_jsonl_end(struct sm_emit_stream *st)
{
	const struct sm_emit_options *o = st->o;
	for (unsigned i = 0; o && i < o->nerrors; i++) {
		json_t *j = json_object();
		enum sm_problem_id id = o->error_ids ? o->error_ids[i] : SM_PROBLEM_NO_CUDA_FILES;
		json_object_set_new(j, "id", json_string(sm_problems[id].id));
		json_object_set_new(j, "level", json_string(sm_level_name(sm_problems[id].level)));
		json_object_set_new(j, "message", jstr(o->errors[i]));
		put_line(st->out, j, "notification");
	}
	return ferror(st->out) ? -1 : 0;
}
