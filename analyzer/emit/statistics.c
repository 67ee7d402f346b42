/* statistics.c - --statistics: how many findings each rule, each level and
 * each file has, and how many input problems of each kind (flake8's and
 * ruff's --statistics, with the levels and files added). Each section
 * lists "COUNT  NAME" rows, the largest count first and ties by name, so
 * that the table is the same for every -j and file order; a section with
 * nothing in it is left out. Input problems are counted apart from
 * findings: they are about the input, not the code. */
#include <stdlib.h>
#include <string.h>

#include "emit/emit.h"
#include "rules/rules.h"

/* One row: a name (borrowed) and its count. */
struct row {
	const char *name;
	const char *extra; /* printed after the name (a level), or NULL */
	unsigned count;
};

struct table {
	struct row *v;
	size_t n, cap;
	bool failed;       /* out of memory: the statistics are incomplete */
};

/* Count one more for name (rows are few: a linear search is enough). */
static void count(struct table *t, const char *name, const char *extra)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].name, name)) {
			t->v[i].count++;
			return;
		}
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct row *v = realloc(t->v, cap * sizeof(*v));
		if (!v) {
			t->failed = true;
			return;
		}
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n++] = (struct row){ name, extra, 1 };
}

static int by_count(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void section(FILE *out, const char *title, struct table *t)
{
	if (!t->n)
		return;
	qsort(t->v, t->n, sizeof(*t->v), by_count);
	fprintf(out, "%s:\n", title);
	for (size_t i = 0; i < t->n; i++) {
		if (t->v[i].extra)
			fprintf(out, "%8u  %-24s %s\n", t->v[i].count, t->v[i].name, t->v[i].extra);
		else
			fprintf(out, "%8u  %s\n", t->v[i].count, t->v[i].name);
	}
}

int sm_emit_statistics(FILE *out, struct sm_result *const *res, unsigned n, const struct sm_emit_options *o)
{
	struct table rules = { 0 }, levels = { 0 }, files = { 0 }, problems = { 0 };
	unsigned findings = 0, notes = 0, nfiles = 0;
	for (unsigned f = 0; f < n; f++) {
		const struct sm_result *r = res[f];
		nfiles += !r->from_includers; /* a header's result is no input file */
		for (unsigned i = 0; i < r->ndiags; i++) {
			const struct sm_diag *d = &r->diags[i];
			count(&rules, sm_rules[d->rule].id, NULL);
			count(&levels, sm_level_name(d->level), NULL);
			count(&files, r->path, NULL);
			findings++;
		}
		for (unsigned i = 0; i < r->nnotes; i++) {
			const struct sm_notification *nt = &r->notes[i];
			count(&problems, sm_problems[nt->problem].id, sm_level_name(nt->level));
			notes++;
		}
	}
	for (unsigned i = 0; o && i < o->nerrors; i++) {
		enum sm_problem_id id = o->error_ids ? o->error_ids[i] : SM_PROBLEM_NO_CUDA_FILES;
		count(&problems, sm_problems[id].id, sm_level_name(sm_problems[id].level));
		notes++;
	}
	fprintf(out, "statistics: %u finding%s, %u input problem%s in %u file%s\n", findings, findings == 1 ? "" : "s",
		notes, notes == 1 ? "" : "s", nfiles, nfiles == 1 ? "" : "s");
	section(out, "findings by rule", &rules);
	section(out, "findings by level", &levels);
	section(out, "findings by file", &files);
	section(out, "input problems by id", &problems);
	bool failed = rules.failed || levels.failed || files.failed || problems.failed;
	if (failed)
		fprintf(out, "(out of memory: the statistics are incomplete)\n");
	free(rules.v);
	free(levels.v);
	free(files.v);
	free(problems.v);
	return ferror(out) || failed ? -1 : 0;
}
