/* fix_apply.c - --fix: apply padding and swizzle fix-its to the analyzed
 * file (a swizzle is one fix of many edits, applied all together).
 *
 * The edits come from the findings of one sm_result, deduplicated (every
 * conflicting access of an array carries the same declaration fix). The
 * file must still hold exactly the text that was analyzed; the edited text
 * is written through a temporary file in the same directory and renamed
 * over the original (sm_write_file), keeping its mode and owner; a
 * symbolic link's target is fixed and the link kept; a file with several
 * hard links is rewritten in place, so the links stay one file; a read-only
 * file, or one that changes before the write, is refused with the reason. Applying twice changes nothing: the second
 * analysis finds no conflict and so no fix.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "driver/fix_apply.h"
#include "engine/fix.h"
#include "base/fsutil.h"
#include "base/text.h"

struct edit {
	size_t begin, end;
	const char *text;
	unsigned line, col;
	const struct sm_diag *d;  /* the finding whose fix it is */
	bool lead;                /* the first edit of a swizzle: logged for all */
};

static int cmp_edit(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;
	return x->begin < y->begin ? -1 : x->begin > y->begin;
}

struct wctx {
	const char *text;
	size_t len;
	struct edit *e;
	size_t n;
};

static int write_edited(FILE *f, void *arg)
{
	struct wctx *w = arg;
	size_t pos = 0;
	for (size_t i = 0; i < w->n; i++) {
		if (fwrite(w->text + pos, 1, w->e[i].begin - pos, f) != w->e[i].begin - pos)
			return -1;
		if (fputs(w->e[i].text, f) < 0)
			return -1;
		pos = w->e[i].end;
	}
	if (fwrite(w->text + pos, 1, w->len - pos, f) != w->len - pos)
		return -1;
	return 0;
}

int sm_apply_fixes(const struct sm_result *r, FILE *log, const struct sm_write_faults *faults, char *err, size_t errlen)
{
	size_t cap = 1;
	for (unsigned i = 0; i < r->ndiags; i++)
		cap += r->diags[i].fix.text ? 1 + (size_t)r->diags[i].nfix_more : 0;
	struct edit *e = calloc(cap, sizeof(*e));
	if (!e) {
		snprintf(err, errlen, "out of memory fixing '%s'", r->path);
		return -1;
	}
	size_t n = 0;
	for (unsigned i = 0; i < r->ndiags; i++) {
		const struct sm_diag *d = &r->diags[i];
		if (d->fix_refused) {
			int seen = 0;
			for (unsigned j = 0; j < i; j++)
				if (r->diags[j].fix_refused && !strcmp(r->diags[j].fix_refused, d->fix_refused))
					seen = 1;
			if (!seen)
				fprintf(log, "%s:%u:%u: not fixed: %s\n", r->path, d->range.begin.line, d->range.begin.col,
					d->fix_refused);
		}
		if (!d->fix.text)
			continue;
		for (unsigned m = 0; m <= d->nfix_more; m++) {
			/* all of one fix's edits, or (a file changed under it) none */
			const struct sm_fixit *fx = m ? &d->fix_more[m - 1] : &d->fix;
			size_t b = sm_text_offset(r->text, r->len, fx->range.begin.line, fx->range.begin.col);
			size_t en = sm_text_offset(r->text, r->len, fx->range.end.line, fx->range.end.col);
			if (b == SM_TEXT_NPOS || en == SM_TEXT_NPOS || en < b) {
				snprintf(err, errlen, "a fix of '%s' at %u:%u is outside the file; nothing changed", r->path,
					 fx->range.begin.line, fx->range.begin.col);
				free(e);
				return -1;
			}
			int dup = 0;
			for (size_t k = 0; k < n; k++)
				if (e[k].begin == b && e[k].end == en) {
					dup = 1;
					if (strcmp(e[k].text, fx->text)) {
						snprintf(err, errlen, "conflicting fixes for '%s' at %u:%u; nothing changed",
							 r->path, fx->range.begin.line, fx->range.begin.col);
						free(e);
						return -1;
					}
				}
			if (dup)
				continue;
			e[n] = (struct edit){ b, en, fx->text, fx->range.begin.line, fx->range.begin.col, d,
					      d->nfix_more > 0 && m == 0 };
			n++;
		}
	}
	if (n == 0) {
		free(e);
		return 0;
	}
	qsort(e, n, sizeof(*e), cmp_edit);
	for (size_t k = 1; k < n; k++)
		if (e[k].begin < e[k - 1].end) {
			snprintf(err, errlen, "overlapping fixes in '%s'; nothing changed", r->path);
			free(e);
			return -1;
		}
	/* refuse a file that changed since it was read */
	FILE *f = fopen(r->path, "rb");
	int same = 0;
	if (f) {
		char *cur = malloc(r->len + 2);
		if (cur) {
			size_t got = fread(cur, 1, r->len + 1, f);
			same = got == r->len && memcmp(cur, r->text, r->len) == 0;
			free(cur);
		}
		fclose(f);
	}
	if (!same) {
		snprintf(err, errlen, "'%s' changed since it was analyzed; not fixing it", r->path);
		free(e);
		return -1;
	}
	struct wctx w = { r->text, r->len, e, n };
	/* the real file of a link; a file with other hard links rewritten in
	 * place (a rename would split them); never one whose owner would
	 * change; and the text is compared once more just before the write */
	struct sm_write_opts wo = { .expect = r->text, .expect_len = r->len, .keep_links = true, .keep_owner = true,
				    .faults = faults };
	if (sm_write_file(r->path, write_edited, &w, &wo, err, errlen)) {
		free(e);
		return -1;
	}
	for (size_t k = 0; k < n; k++) {
		const struct sm_diag *d = e[k].d;
		const char *what = d->array ? d->array : "?";
		if (!d->nfix_more)
			fprintf(log, "%s:%u:%u: fixed: '%s' dimensions %.*s -> %s\n", r->path, e[k].line, e[k].col, what,
				(int)(e[k].end - e[k].begin), r->text + e[k].begin, e[k].text);
		else if (e[k].lead) /* at the declaration, once for the array */
			fprintf(log, "%s:%u:%u: fixed: '%s' swizzled in %u accesses, e.g. [%.*s] -> [%s]\n", r->path,
				d->nrelated ? d->related[0].range.begin.line : e[k].line,
				d->nrelated ? d->related[0].range.begin.col : e[k].col, what, d->nfix_more + 1,
				(int)(e[k].end - e[k].begin), r->text + e[k].begin, e[k].text);
	}
	free(e);
	return (int)n;
}
