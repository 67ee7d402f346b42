/* result.c - one file's findings, access records and input problems (see
 * smemlint/result.h): the sink rules report into, and the total order
 * reports are written in. */
#include "smemlint/result.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/limits.h"
#include "base/text.h"
#include "driver/headers.h"
#include "rules/messages.h"

void sm_result_init(struct sm_result *r, const char *path)
{
	memset(r, 0, sizeof(*r));
	sm_arena_init(&r->arena, 0);
	r->path = sm_arena_strdup(&r->arena, path);
}

void sm_result_set_text(struct sm_result *r, const char *text, size_t len)
{
	r->text = text;
	r->len = len;
	r->line_off = sm_text_lines_index(text, len, &r->arena, &r->nlines);
}

const char *sm_result_line(const struct sm_result *r, unsigned line, size_t *len)
{
	return sm_text_line_in(r->text, r->len, r->line_off, r->nlines, line, len);
}

void sm_result_free(struct sm_result *r)
{
	free(r->diags);
	free(r->acc);
	free(r->notes);
	sm_arena_release(&r->arena);
	memset(r, 0, sizeof(*r));
}

void sm_result_add_note(struct sm_result *r, const struct sm_notification *n)
{
	if (SM_ALLOC_GROW(r->notes, r->nnotes + 1, r->cap_notes))
		return;
	struct sm_notification *c = &r->notes[r->nnotes++];
	*c = *n;
	c->message = sm_arena_strdup(&r->arena, n->message ? n->message : "");
	if (n->level == SM_LEVEL_ERROR)
		r->input_error = true;
}

static void add_vnote(struct sm_result *r, enum sm_problem_id problem, enum sm_level level, struct sm_pos pos,
		      const char *fmt, va_list ap)
{
	char buf[1024];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	struct sm_notification n = { level, problem, pos, buf };
	sm_result_add_note(r, &n);
}

void sm_result_problem(struct sm_result *r, enum sm_problem_id problem, struct sm_pos pos, const char *fmt, ...)
{
	if ((unsigned)problem >= SM_PROBLEM__COUNT)
		problem = SM_PROBLEM_ANALYSIS_FAILED;
	va_list ap;
	va_start(ap, fmt);
	add_vnote(r, problem, sm_problems[problem].level, pos, fmt, ap);
	va_end(ap);
}

void sm_result_capped(struct sm_result *r, const char *what, unsigned limit)
{
	if (r->capped)
		return;
	r->capped = true;
	struct sm_pos p0 = { 0, 0 };
	sm_result_problem(r, SM_PROBLEM_TOO_MANY_RESULTS, p0, "too many results: '%s' gave more than %u %s; the rest are left out",
			  r->path ? r->path : "?", limit, what);
}

/* copy s into A (NULL stays NULL) */
static const char *keep(struct sm_arena *A, const char *s)
{
	return s ? sm_arena_strdup(A, s) : NULL;
}

/* copy d's fix into A: all its edits or, out of memory, none of them (a
 * swizzle applied to some accesses only would change what the code reads) */
static void keep_fix(struct sm_arena *A, struct sm_diag *d)
{
	d->fix.text = keep(A, d->fix.text);
	if (!d->nfix_more || !d->fix_more) {
		d->fix_more = NULL;
		d->nfix_more = 0;
		return;
	}
	struct sm_fixit *c = sm_arena_alloc(A, d->nfix_more * sizeof(*c));
	for (unsigned i = 0; c && i < d->nfix_more; i++) {
		c[i].range = d->fix_more[i].range;
		c[i].text = keep(A, d->fix_more[i].text);
		if (!c[i].text)
			c = NULL;
	}
	d->fix_more = c;
	if (!c) {
		d->fix.text = NULL;
		d->nfix_more = 0;
	}
}

void sm_result_compact(struct sm_result *r)
{
	bool need_text = r->ndiags || r->nacc;
	for (unsigned i = 0; i < r->nnotes && !need_text; i++)
		need_text = r->notes[i].pos.line > 0;
	struct sm_arena B;
	sm_arena_init(&B, 0);
	struct sm_result c = *r;
	c.arena = B;
	c.path = keep(&c.arena, r->path);
	c.text = NULL;
	c.len = 0;
	c.line_off = NULL;
	c.nlines = 0;
	if (need_text && r->text) {
		const char *t = sm_arena_strndup(&c.arena, r->text, r->len);
		if (t)
			sm_result_set_text(&c, t, r->len);
	}
	for (unsigned i = 0; i < c.ndiags; i++) {
		struct sm_diag *d = &c.diags[i];
		d->message = keep(&c.arena, d->message);
		d->note = keep(&c.arena, d->note);
		d->kernel = keep(&c.arena, d->kernel);
		d->array = keep(&c.arena, d->array);
		for (int k = 0; k < d->nrelated && k < SM_MAX_RELATED; k++)
			d->related[k].message = keep(&c.arena, d->related[k].message);
		keep_fix(&c.arena, d);
		d->fix_refused = keep(&c.arena, d->fix_refused);
		d->launch.from.config = keep(&c.arena, d->launch.from.config);
		d->launch.from.file = keep(&c.arena, d->launch.from.file);
		if (d->bank_addr) {
			int64_t *b = sm_arena_alloc(&c.arena, SM_WARP * sizeof(int64_t));
			if (b)
				memcpy(b, d->bank_addr, SM_WARP * sizeof(int64_t));
			d->bank_addr = b;
		}
	}
	for (unsigned i = 0; i < c.nacc; i++) {
		c.acc[i].kernel = keep(&c.arena, c.acc[i].kernel);
		c.acc[i].array = keep(&c.arena, c.acc[i].array);
		c.acc[i].why = keep(&c.arena, c.acc[i].why);
	}
	for (unsigned i = 0; i < c.nnotes; i++)
		c.notes[i].message = keep(&c.arena, c.notes[i].message);
	if (sm_arena_failed(&c.arena)) {
		sm_arena_release(&c.arena); /* out of memory: keep it as it was */
		return;
	}
	sm_arena_release(&r->arena);
	/* the arrays to their size (a failed shrink keeps the larger one) */
	void *p;
	if (c.ndiags < c.cap_diags && (p = realloc(c.diags, (c.ndiags ? c.ndiags : 1) * sizeof(*c.diags)))) {
		c.diags = p;
		c.cap_diags = c.ndiags ? c.ndiags : 1;
	}
	if (c.nacc < c.cap_acc && (p = realloc(c.acc, (c.nacc ? c.nacc : 1) * sizeof(*c.acc)))) {
		c.acc = p;
		c.cap_acc = c.nacc ? c.nacc : 1;
	}
	if (c.nnotes < c.cap_notes && (p = realloc(c.notes, (c.nnotes ? c.nnotes : 1) * sizeof(*c.notes)))) {
		c.notes = p;
		c.cap_notes = c.nnotes ? c.nnotes : 1;
	}
	*r = c;
}

static void sink_report(struct sm_sink *sink, const struct sm_diag *d)
{
	struct sm_result *r = sink->ctx;
	unsigned cap = r->max_diags ? r->max_diags : SM_MAX_FILE_FINDINGS;
	if (r->ndiags >= cap) {
		sm_result_capped(r, "findings", cap);
		return;
	}
	if (SM_ALLOC_GROW(r->diags, r->ndiags + 1, r->cap_diags))
		return;
	struct sm_arena *A = &r->arena;
	struct sm_diag c = *d;
	c.message = sm_arena_strdup(A, d->message);
	c.note = sm_arena_strdup(A, d->note);
	c.kernel = sm_arena_strdup(A, d->kernel);
	c.array = sm_arena_strdup(A, d->array);
	for (int i = 0; i < d->nrelated && i < SM_MAX_RELATED; i++)
		c.related[i].message = sm_arena_strdup(A, d->related[i].message);
	keep_fix(A, &c);
	c.fix_refused = sm_arena_strdup(A, d->fix_refused);
	c.launch.from.config = sm_arena_strdup(A, d->launch.from.config);
	c.launch.from.file = sm_arena_strdup(A, d->launch.from.file);
	if (d->bank_addr) {
		int64_t *b = sm_arena_alloc(A, SM_WARP * sizeof(int64_t));
		if (b)
			memcpy(b, d->bank_addr, SM_WARP * sizeof(int64_t));
		c.bank_addr = b;
	}
	r->diags[r->ndiags++] = c;
}

struct sm_sink sm_result_sink(struct sm_result *r)
{
	struct sm_sink s = { sink_report, r };
	return s;
}

static int cmp_pos(struct sm_pos a, struct sm_pos b)
{
	if (a.line != b.line)
		return a.line < b.line ? -1 : 1;
	if (a.col != b.col)
		return a.col < b.col ? -1 : 1;
	return 0;
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_diag(const void *pa, const void *pb)
{
	const struct sm_diag *a = pa, *b = pb;
	int c;
	if ((c = cmp_pos(a->range.begin, b->range.begin)))
		return c;
	if (a->rule != b->rule)
		return a->rule < b->rule ? -1 : 1;
	if ((c = cmp_pos(a->range.end, b->range.end)))
		return c;
	if (a->access != b->access)
		return a->access < b->access ? -1 : 1;
	if ((c = cmp_str(a->kernel, b->kernel)))
		return c;
	if ((c = cmp_str(a->message, b->message)))
		return c;
	return cmp_str(a->note, b->note);
}

static int cmp_acc(const void *pa, const void *pb)
{
	const struct sm_access_record *a = pa, *b = pb;
	int c;
	if ((c = cmp_pos(a->range.begin, b->range.begin)))
		return c;
	if ((c = cmp_pos(a->range.end, b->range.end)))
		return c;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return cmp_str(a->kernel, b->kernel);
}

void sm_result_sort(struct sm_result *r)
{
	if (r->ndiags > 1)
		qsort(r->diags, r->ndiags, sizeof(*r->diags), cmp_diag);
	if (r->nacc > 1)
		qsort(r->acc, r->nacc, sizeof(*r->acc), cmp_acc);
}

/* Two findings that are the same but for the instantiation of their
 * kernel template they come from: the same rule, place, access, kernel
 * name, array, message (but for its launch's provenance) and note. (The front end converts each
 * instantiation of a template kernel separately, under the template's
 * name; an identical finding of one kernel name twice in one file comes
 * from two of them.) */
static bool same_but_site_block(struct sm_arena *A, const struct sm_diag *a, const struct sm_diag *b);

/* msg's divergent-barrier count " (and N more barrier[s] after it)"
 * (rules/divergent_barrier.c): N, with *at and *tail its first byte and
 * the byte after it; -1 when msg has none. Instantiations that compile a
 * different number of barriers after the same divergent one (a stage
 * count as a template argument) report the same cause. */
static long more_barriers(const char *msg, const char **at, const char **tail)
{
	for (const char *p = msg ? strstr(msg, " (and ") : NULL; p; p = strstr(p + 1, " (and ")) {
		char *q;
		long n = strtol(p + 6, &q, 10);
		if (q == p + 6 || n < 0)
			continue;
		size_t k = !strncmp(q, " more barrier after it)", 23) ? 23 : !strncmp(q, " more barriers after it)", 24) ? 24 : 0;
		if (k) {
			*at = p;
			*tail = q + k;
			return n;
		}
	}
	return -1;
}

/* msg without its divergent-barrier count */
static const char *without_more_barriers(struct sm_arena *A, const char *msg)
{
	const char *at, *tail;
	if (more_barriers(msg, &at, &tail) < 0)
		return msg;
	return sm_arena_printf(A, "%.*s%s", (int)(at - msg), msg, tail);
}

static bool same_divergent_barrier(struct sm_arena *A, const struct sm_diag *a, const struct sm_diag *b)
{
	if (a->rule != SM_RULE_DIVERGENT_BARRIER)
		return false;
	const char *ma = without_more_barriers(A, a->message), *mb = without_more_barriers(A, b->message);
	return ma && mb && (ma != a->message || mb != b->message) && !strcmp(ma, mb);
}

static bool same_finding(struct sm_arena *scratch, const struct sm_diag *a, const struct sm_diag *b)
{
	return a->kernel && a->rule == b->rule && !cmp_pos(a->range.begin, b->range.begin) &&
	       !cmp_pos(a->range.end, b->range.end) && a->access == b->access && !cmp_str(a->kernel, b->kernel) &&
	       !cmp_str(a->array, b->array) && !cmp_str(a->note, b->note) &&
	       (sm_diag_same_message(scratch, a, b) || same_but_site_block(scratch, a, b) ||
		same_divergent_barrier(scratch, a, b));
}

unsigned sm_result_merge_instantiations(struct sm_result *r)
{
	unsigned out = 0, merged = 0;
	bool *gone = r->ndiags ? calloc(r->ndiags, sizeof(bool)) : NULL;
	if (r->ndiags && !gone)
		return 0; /* out of memory: reported as they are */
	/* the texts the comparisons build, released after: not the result's
	 * arena, which a file's many findings would fill */
	struct sm_arena scratch;
	sm_arena_init(&scratch, 0);
	for (unsigned i = 0; i < r->ndiags; i++) {
		if (gone[i])
			continue;
		struct sm_diag *d = &r->diags[i];
		unsigned count = 1;
		for (unsigned k = i + 1; k < r->ndiags; k++)
			if (!gone[k] && same_finding(&scratch, d, &r->diags[k])) {
				gone[k] = true;
				count++;
				/* of instantiations that skip different numbers of
				 * barriers, the one that skips the most speaks */
				const char *at, *tail;
				if (d->rule == SM_RULE_DIVERGENT_BARRIER &&
				    more_barriers(r->diags[k].message, &at, &tail) > more_barriers(d->message, &at, &tail))
					*d = r->diags[k];
			}
		if (count > 1) {
			const char *m = sm_arena_printf(&r->arena, "%s (the same in %u instantiations of '%s')", d->message,
							count, d->kernel);
			if (m)
				d->message = m;
			merged += count - 1;
		}
		r->diags[out++] = *d;
	}
	r->ndiags = out;
	free(gone);
	sm_arena_release(&scratch);
	return merged;
}

/* The same cause, as far as folding goes (sm_result_fold_causes). */
static bool same_cause(const struct sm_diag *a, const struct sm_diag *b)
{
	return a->rule == b->rule && a->level == b->level && a->access == b->access && !cmp_str(a->kernel, b->kernel) &&
	       !cmp_str(a->array, b->array);
}

/* A hash of what same_cause compares. */
static unsigned cause_hash(const struct sm_diag *d)
{
	unsigned v[3] = { (unsigned)d->rule, (unsigned)d->level, (unsigned)d->access };
	uint64_t h = sm_fnv(SM_FNV_OFFSET, v, sizeof(v));
	h = sm_fnv_str(sm_fnv_str(h, d->kernel), d->array);
	return (unsigned)(h ^ (h >> 32));
}

unsigned sm_result_fold_causes(struct sm_result *r, unsigned keep)
{
	unsigned n = r->ndiags;
	if (!keep || n <= keep)
		return 0;
	/* per finding i: cause[] lists each cause's first finding; first[i] is
	 * i's; at a first finding f: seen[f] its cause's count so far, last[f]
	 * where its last kept finding went, lo[f]..hi[f] the folded lines */
	unsigned *mem = calloc((size_t)n * 6, sizeof(unsigned));
	if (!mem)
		return 0; /* out of memory: reported as they are */
	unsigned *cause = mem, *first = mem + n, *seen = mem + 2 * n, *last = mem + 3 * n, *lo = mem + 4 * n,
		 *hi = mem + 5 * n;
	unsigned ncause = 0, out = 0, folded = 0;
	/* each cause's first finding, by open addressing on the cause's
	 * hash (a scan of the causes met so far was quadratic in a file
	 * of thousands of kernels): slot + 1, 0 empty */
	unsigned cap = 1;
	while (cap < 2 * n)
		cap <<= 1;
	unsigned *slot = calloc(cap, sizeof(unsigned));
	if (!slot) {
		free(mem);
		return 0;
	}
	for (unsigned i = 0; i < n; i++) {
		unsigned h = cause_hash(&r->diags[i]) & (cap - 1);
		while (slot[h] && !same_cause(&r->diags[slot[h] - 1], &r->diags[i]))
			h = (h + 1) & (cap - 1);
		if (!slot[h]) {
			slot[h] = i + 1;
			cause[ncause++] = i;
		}
		first[i] = slot[h] - 1;
	}
	free(slot);
	for (unsigned i = 0; i < n; i++) {
		unsigned f = first[i], line = r->diags[i].range.begin.line;
		if (++seen[f] <= keep) {
			last[f] = out;
			r->diags[out++] = r->diags[i];
			continue;
		}
		lo[f] = lo[f] && lo[f] < line ? lo[f] : line;
		hi[f] = hi[f] > line ? hi[f] : line;
		folded++;
	}
	for (unsigned c = 0; c < ncause; c++) {
		unsigned f = cause[c];
		if (seen[f] <= keep)
			continue;
		struct sm_diag *d = &r->diags[last[f]];
		const char *where = sm_arena_printf(&r->arena, "%s%s%s%s%s%s", d->kernel ? " in kernel '" : "",
						    d->kernel ? d->kernel : "", d->kernel ? "'" : "", d->array ? " on '" : "",
						    d->array ? d->array : "", d->array ? "'" : "");
		const char *m = sm_arena_printf(&r->arena, "%s (and %u more like it%s, lines %u-%u; --all-findings lists them)",
						d->message ? d->message : "", seen[f] - keep, where ? where : "", lo[f], hi[f]);
		if (m)
			d->message = m;
	}
	r->ndiags = out;
	free(mem);
	return folded;
}

/* Are a's and b's messages equal but for the texts ta and tb, found at the
 * same offset in each? */
static bool equal_but(const char *a, const char *ta, const char *b, const char *tb)
{
	const char *pa = ta && *ta ? strstr(a, ta) : NULL, *pb = tb && *tb ? strstr(b, tb) : NULL;
	if (!pa || !pb || pa - a != pb - b)
		return false;
	size_t at = (size_t)(pa - a);
	return !strncmp(a, b, at) && !strcmp(pa + strlen(ta), pb + strlen(tb));
}

/* Equal messages, or equal but for their launch's provenance (see
 * driver/headers.h). */
bool sm_diag_same_message(struct sm_arena *A, const struct sm_diag *a, const struct sm_diag *b)
{
	if (!strcmp(a->message ? a->message : "", b->message ? b->message : ""))
		return true;
	if (!a->message || !b->message || a->launch.from.kind == SM_LAUNCH_NONE || b->launch.from.kind == SM_LAUNCH_NONE)
		return false;
	return equal_but(a->message, sm_launch_from_text(A, &a->launch.from), b->message,
			 sm_launch_from_text(A, &b->launch.from));
}

/* One template launched with a block of its own per instantiation
 * (k<32><<<g, 32>>>, k<64><<<g, 64>>>), in one file: the same finding
 * between the same threads under each launch site's block is one. (Not
 * across files: a header's kernel launched with another block by another
 * includer stays apart, sm_diag_same_message.) */
static bool same_but_site_block(struct sm_arena *A, const struct sm_diag *a, const struct sm_diag *b)
{
	return a->message && b->message && a->launch.from.kind == SM_LAUNCH_SITE &&
	       b->launch.from.kind == SM_LAUNCH_SITE &&
	       equal_but(a->message, sm_launch_text(A, &a->launch), b->message, sm_launch_text(A, &b->launch));
}
