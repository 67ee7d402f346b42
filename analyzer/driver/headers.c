/* headers.c - findings in project headers, reported once (see headers.h). */
#include "driver/headers.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/grow.h"
#include "driver/report.h"

void sm_result_keep_headers(struct sm_result *r, const struct sm_file *F)
{
	if (!F->nheaders)
		return;
	struct sm_header *h = sm_arena_alloc(&r->arena, F->nheaders * sizeof(*h));
	if (!h)
		return;
	for (unsigned i = 0; i < F->nheaders; i++) {
		h[i].path = sm_arena_strdup(&r->arena, F->headers[i].path);
		h[i].text = sm_arena_strndup(&r->arena, F->headers[i].text ? F->headers[i].text : "",
					     F->headers[i].text_len);
		h[i].text_len = F->headers[i].text_len;
		if (!h[i].path || !h[i].text)
			return;
	}
	r->headers = h;
	r->nheaders = F->nheaders;
}

/* The name a report gives file `file` of r (0: r's own path). */
static const char *file_name(const struct sm_result *r, unsigned file, char *buf, size_t n)
{
	if (!file || file > r->nheaders)
		return r->path;
	sm_report_path(r->headers[file - 1].path, buf, n);
	return buf;
}

/* Fold what of d lies in another file than d itself into d: a related
 * location elsewhere keeps its message, which names the place; a fix
 * elsewhere is dropped (--fix edits the finding's file only). The
 * messages are built in A. */
static void fold_other_files(const struct sm_result *r, struct sm_diag *d, struct sm_arena *A)
{
	char buf[PATH_MAX];
	for (int k = 0; k < d->nrelated; k++) {
		struct sm_related *rel = &d->related[k];
		if (rel->range.file == d->range.file)
			continue;
		const char *m = sm_arena_printf(A, "%s (at %s:%u:%u)", rel->message ? rel->message : "",
						file_name(r, rel->range.file, buf, sizeof(buf)), rel->range.begin.line,
						rel->range.begin.col);
		if (m)
			rel->message = m;
		rel->range = d->range;
	}
	if (d->fix.text && d->fix.range.file != d->range.file) {
		d->fix.text = NULL; /* with its other edits, in the same file */
		d->fix_more = NULL;
		d->nfix_more = 0;
		d->fix_refused = NULL;
	}
	/* a launch in another file is named by its path already
	 * (sm_diag_set_launch); one in the finding's file is in its own */
	d->launch.from.site.file = 0;
	for (int k = 0; k < d->nrelated; k++)
		d->related[k].range.file = 0;
	d->fix.range.file = 0;
	d->range.file = 0;
}

int sm_result_split_headers(struct sm_result *r, struct sm_result **parts, unsigned *nparts)
{
	*parts = NULL;
	*nparts = 0;
	unsigned nh = r->nheaders;
	bool any = false;
	for (unsigned i = 0; i < r->ndiags && !any; i++) {
		const struct sm_diag *d = &r->diags[i];
		any = d->range.file != 0;
		for (int k = 0; k < d->nrelated && !any; k++)
			any = d->related[k].range.file != 0;
		any = any || d->fix.range.file != 0;
	}
	for (unsigned i = 0; i < r->nacc && !any; i++)
		any = r->acc[i].range.file != 0;
	if (!any) {
		r->headers = NULL;
		r->nheaders = 0;
		return 0;
	}
	struct sm_result *out = calloc(nh + 1, sizeof(*out));
	bool *used = calloc(nh + 1, sizeof(*used));
	if (!out || !used) {
		free(out);
		free(used);
		return -1;
	}
	char buf[PATH_MAX];
	for (unsigned k = 0; k < nh; k++) {
		sm_result_init(&out[k], file_name(r, k + 1, buf, sizeof(buf)));
		out[k].max_diags = r->max_diags;
		out[k].max_acc = r->max_acc;
		out[k].text = sm_arena_strndup(&out[k].arena, r->headers[k].text, r->headers[k].text_len);
		out[k].len = out[k].text ? r->headers[k].text_len : 0;
	}
	/* findings: those in a header move, every one loses its other files */
	unsigned keep = 0;
	for (unsigned i = 0; i < r->ndiags; i++) {
		struct sm_diag d = r->diags[i];
		unsigned file = d.range.file <= nh ? d.range.file : 0;
		struct sm_arena *A = file ? &out[file - 1].arena : &r->arena;
		fold_other_files(r, &d, A);
		if (file) {
			struct sm_sink sink = sm_result_sink(&out[file - 1]);
			sm_sink_report(&sink, &d);
			used[file - 1] = true;
		} else {
			r->diags[keep++] = d;
		}
	}
	r->ndiags = keep;
	keep = 0;
	for (unsigned i = 0; i < r->nacc; i++) {
		struct sm_access_record a = r->acc[i];
		unsigned file = a.range.file <= nh ? a.range.file : 0;
		a.range.file = 0;
		if (!file) {
			r->acc[keep++] = a;
			continue;
		}
		struct sm_result *h = &out[file - 1];
		if (SM_ALLOC_GROW(h->acc, h->nacc + 1, h->cap_acc))
			continue;
		a.kernel = sm_arena_strdup(&h->arena, a.kernel);
		a.array = sm_arena_strdup(&h->arena, a.array);
		a.why = sm_arena_strdup(&h->arena, a.why);
		h->acc[h->nacc++] = a;
		used[file - 1] = true;
	}
	r->nacc = keep;
	/* only the headers that received something */
	unsigned n = 0;
	for (unsigned k = 0; k < nh; k++) {
		if (used[k])
			out[n++] = out[k];
		else
			sm_result_free(&out[k]);
	}
	free(used);
	r->headers = NULL;
	r->nheaders = 0;
	if (!n) {
		free(out);
		return 0;
	}
	*parts = out;
	*nparts = n;
	return 0;
}

static bool same_range(struct sm_range a, struct sm_range b)
{
	return a.begin.line == b.begin.line && a.begin.col == b.begin.col && a.end.line == b.end.line &&
	       a.end.col == b.end.col;
}

static bool same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

struct sm_result *sm_header_set_add(struct sm_header_set *set, struct sm_result *part)
{
	for (unsigned i = 0; i < set->n; i++) {
		struct sm_result *h = set->v[i];
		if (strcmp(h->path, part->path))
			continue;
		struct sm_sink sink = sm_result_sink(h);
		for (unsigned k = 0; k < part->ndiags; k++) {
			const struct sm_diag *d = &part->diags[k];
			unsigned j = 0;
			while (j < h->ndiags && !(h->diags[j].rule == d->rule && same_range(h->diags[j].range, d->range) &&
						  sm_diag_same_message(&h->arena, &h->diags[j], d)))
				j++;
			unsigned n = h->ndiags;
			if (j < n && d->level <= h->diags[j].level)
				continue;
			sm_sink_report(&sink, d);
			/* the same finding at a higher level takes the kept one's
			 * place: a race an including file's launch shows, where the
			 * header alone had an assumed shape (level assumed) */
			if (j < n && h->ndiags == n + 1) {
				h->diags[j] = h->diags[n];
				h->ndiags = n;
			}
		}
		for (unsigned k = 0; k < part->nacc; k++) {
			const struct sm_access_record *a = &part->acc[k];
			bool seen = false;
			for (unsigned j = 0; j < h->nacc && !seen; j++)
				seen = same_range(h->acc[j].range, a->range) && h->acc[j].kind == a->kind &&
				       same_str(h->acc[j].kernel, a->kernel) && same_str(h->acc[j].array, a->array) &&
				       h->acc[j].worst == a->worst;
			if (seen || SM_ALLOC_GROW(h->acc, h->nacc + 1, h->cap_acc))
				continue;
			struct sm_access_record c = *a;
			c.kernel = sm_arena_strdup(&h->arena, a->kernel);
			c.array = sm_arena_strdup(&h->arena, a->array);
			c.why = sm_arena_strdup(&h->arena, a->why);
			h->acc[h->nacc++] = c;
		}
		sm_result_free(part);
		return h;
	}
	if (SM_ALLOC_GROW(set->v, set->n + 1, set->cap)) {
		sm_result_free(part);
		return NULL;
	}
	struct sm_result *h = malloc(sizeof(*h));
	if (!h) {
		sm_result_free(part);
		return NULL;
	}
	*h = *part; /* the arena moves with it */
	memset(part, 0, sizeof(*part));
	set->v[set->n++] = h;
	return h;
}

void sm_header_set_free(struct sm_header_set *set)
{
	for (unsigned i = 0; i < set->n; i++) {
		sm_result_free(set->v[i]);
		free(set->v[i]);
	}
	free(set->v);
	memset(set, 0, sizeof(*set));
}

bool sm_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}
