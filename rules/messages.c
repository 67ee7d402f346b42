/* messages.c - the words rules put in findings: source text quoted from
 * the file, an element of an array, a thread, a launch context, and what
 * trying an assumed shape's finding under the other shapes showed (see
 * messages.h). */
#include "rules/messages.h"
#include "base/text.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const char *sm_source_text(const char *text, size_t len, struct sm_range r, struct sm_arena *A, size_t max)
{
	if (!text || r.begin.line == 0)
		return "?";
	/* a column 0 stands for the line's start */
	size_t slen;
	const char *src = sm_text_span(text, len, r.begin.line, r.begin.col ? r.begin.col : 1, r.end.line,
				       r.end.col ? r.end.col : 1, &slen);
	if (!src)
		return "?";
	char buf[256];
	size_t n = 0;
	if (max > sizeof(buf) - 4)
		max = sizeof(buf) - 4;
	bool space = false, cut = false;
	for (size_t i = 0; i < slen; i++) {
		char ch = src[i];
		if (ch == '\n' || ch == '\t' || ch == '\r' || ch == ' ') {
			space = n > 0;
			continue;
		}
		if (space) {
			if (n >= max) {
				cut = true;
				break;
			}
			buf[n++] = ' ';
			space = false;
		}
		if (n >= max) {
			cut = true;
			break;
		}
		buf[n++] = ch;
	}
	if (cut) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = 0;
	return n ? sm_arena_strdup(A, buf) : "?";
}

const char *sm_element_name(const struct sm_array *a, const char *name, int64_t addr, struct sm_arena *A)
{
	char buf[200];
	size_t n = (size_t)snprintf(buf, sizeof(buf), "%s", name ? name : a->name);
	int64_t es = a->elem_size ? a->elem_size : 1;
	int64_t elem = addr / es;
	int64_t rem = addr % es;
	int nd = a->ndims > 0 ? a->ndims : 1;
	int64_t idx[SM_MAX_DIMS] = { 0 };
	int64_t e = elem;
	for (int k = nd - 1; k >= 1; k--) {
		int64_t dk = a->dims[k] > 0 ? a->dims[k] : 1;
		idx[k] = e % dk;
		e /= dk;
	}
	idx[0] = e;
	if (a->ndims == 0 && elem == 0) {
		/* a scalar */
	} else {
		for (int k = 0; k < nd && n < sizeof(buf) - 24; k++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "[%lld]", (long long)idx[k]);
	}
	if (rem && n < sizeof(buf) - 32)
		snprintf(buf + n, sizeof(buf) - n, " (byte %lld)", (long long)rem);
	return sm_arena_strdup(A, buf);
}

const char *sm_thread_name(const int64_t tid[3], struct sm_dim3 b, struct sm_arena *A)
{
	if (b.y <= 1 && b.z <= 1)
		return sm_arena_printf(A, "thread %lld", (long long)tid[0]);
	if (b.z <= 1)
		return sm_arena_printf(A, "thread (%lld,%lld)", (long long)tid[0], (long long)tid[1]);
	return sm_arena_printf(A, "thread (%lld,%lld,%lld)", (long long)tid[0], (long long)tid[1], (long long)tid[2]);
}

const char *sm_where_text(struct sm_arena *A, const char *kernel, const struct sm_callsite *call)
{
	if (!call)
		return sm_arena_printf(A, "in kernel '%s'", kernel);
	char buf[1024];
	size_t n = (size_t)snprintf(buf, sizeof(buf), "in '%s'", call->callee);
	const char *sep = " called from";
	for (const struct sm_callsite *c = call; c && n < sizeof(buf); c = c->parent) {
		if (c->parent)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s '%s' at line %u", sep, c->caller, c->range.begin.line);
		else
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s kernel '%s' at line %u", sep, kernel, c->range.begin.line);
		sep = ", from";
	}
	return sm_arena_strdup(A, buf);
}

/* The assumption, and what the other shapes showed (see messages.h). */
static const char *assumed_text(struct sm_arena *A, const struct sm_launch_from *f)
{
	const char *what = f->hold_divergent ? "divergent" : "a race";
	switch (f->hold) {
	case SM_HOLD_NOT:
		return sm_arena_printf(A, " (assumed; not %s for blockDim (%u,%u,%u))", what, (unsigned)f->not_for[0],
				       (unsigned)f->not_for[1], (unsigned)f->not_for[2]);
	case SM_HOLD_UNKNOWN:
		return " (assumed; not tried with other block shapes: the analysis budget ran out)";
	case SM_HOLD_ALL:
	case SM_HOLD_UNCHECKED:
		break;
	}
	/* a bound that gives no shape still limits the one assumed */
	const char *site = f->runtime_site ? "the launch computes it at run time, and no" : "no launch site or";
	if (f->fixed) {
		/* the launches fix some dimensions: only the others are assumed */
		static const char *const names[3] = { "x", "y", "z" };
		char fx[24] = "", fr[24] = "";
		for (int d = 0; d < 3; d++) {
			char *b = f->fixed >> d & 1 ? fx : fr;
			size_t l = strlen(b);
			snprintf(b + l, sizeof(fx) - l, "%s%s", l ? " and " : "", names[d]);
		}
		site = sm_arena_printf(A, "the launch fixes blockDim.%s and computes %s at run time, and no", fx, fr);
		if (!site)
			site = "the launch computes it at run time, and no";
	}
	const char *why = f->bound > 0 ? sm_arena_printf(A, " (assumed within __launch_bounds__(%lld): %s --block-dim gives it",
							   (long long)f->bound, site)
			  : f->runtime_site ? sm_arena_printf(A, " (assumed: %s __launch_bounds__ or --block-dim gives it", site)
					    : " (assumed: no launch site, __launch_bounds__ or --block-dim gives it";
	if (f->fitted)
		why = sm_arena_printf(A, "%s; shapes that overflow a shared array left out", why);
	if (f->hold == SM_HOLD_ALL)
		return sm_arena_printf(A, "%s; also %s for the %d other block shape%s tried, %lld to %lld threads)", why, what,
				       (int)f->nother, f->nother == 1 ? "" : "s", (long long)f->min_threads,
				       (long long)f->max_threads);
	return sm_arena_printf(A, "%s)", why);
}

const char *sm_launch_from_text(struct sm_arena *A, const struct sm_launch_from *from)
{
	switch (from->kind) {
	case SM_LAUNCH_SITE:
		if (from->file) {
			const char *b = strrchr(from->file, '/');
			return sm_arena_printf(A, " from the launch at %s:%u", b ? b + 1 : from->file, from->site.begin.line);
		}
		return sm_arena_printf(A, " from the launch on line %u", from->site.begin.line);
	case SM_LAUNCH_BOUNDS:
		return sm_arena_printf(A, " from __launch_bounds__(%lld)", (long long)from->bound);
	case SM_LAUNCH_CLUSTER:
		return " from __cluster_dims__";
	case SM_LAUNCH_OPTION:
		return " from --block-dim";
	case SM_LAUNCH_CONFIG: {
		/* the config's base name: the path may be anywhere above */
		const char *b = from->config ? strrchr(from->config, '/') : NULL;
		return sm_arena_printf(A, " from block-dim in %s", b ? b + 1 : from->config ? from->config : ".smemlint.yaml");
	}
	case SM_LAUNCH_ASSUMED:
		return assumed_text(A, from);
	case SM_LAUNCH_ANY:
		return " at every launch";
	case SM_LAUNCH_NONE:
		return "";
	}
	return "";
}

const char *sm_launch_text(struct sm_arena *A, const struct sm_diag_launch *l)
{
	return sm_arena_printf(A, "with blockDim (%lld,%lld,%lld)%s", (long long)l->block.x, (long long)l->block.y,
			       (long long)l->block.z, sm_launch_from_text(A, &l->from));
}

void sm_diag_set_launch(struct sm_diag *g, const struct sm_file *F, const struct sm_launch_ctx *c)
{
	g->launch = sm_launch_ctx_diag(c);
	struct sm_launch_from *f = &g->launch.from;
	if (f->kind != SM_LAUNCH_SITE || f->site.file == g->range.file)
		return;
	if (f->site.file && f->site.file <= F->nheaders)
		f->file = F->headers[f->site.file - 1].path;
	else if (!f->site.file)
		f->file = F->path;
}

/* A shape's extent as the provenance keeps it (each <= SM_MAX_BLOCK_THREADS). */
void sm_launch_from_not_for(struct sm_launch_from *f, struct sm_dim3 b)
{
	f->hold = SM_HOLD_NOT;
	f->not_for[0] = (uint16_t)b.x;
	f->not_for[1] = (uint16_t)b.y;
	f->not_for[2] = (uint16_t)b.z;
}

void sm_launch_from_hold_all(struct sm_launch_from *f, const struct sm_kernel_launches *K, bool divergent)
{
	_Static_assert(SM_MAX_BLOCK_THREADS <= UINT16_MAX && SM_MAX_ASSUMED_SHAPES <= UINT8_MAX,
		       "the hold fields of struct sm_launch_from are small");
	f->hold = K->nother ? SM_HOLD_ALL : SM_HOLD_UNCHECKED;
	f->hold_divergent = divergent;
	f->nother = (uint8_t)K->nother;
	for (int i = 0; i < K->nother; i++) {
		int64_t t = K->other[i].x * K->other[i].y * K->other[i].z; /* <= SM_MAX_BLOCK_THREADS */
		if (i == 0 || t < f->min_threads)
			f->min_threads = (uint16_t)t;
		if (i == 0 || t > f->max_threads)
			f->max_threads = (uint16_t)t;
	}
}

bool sm_same_range(struct sm_range a, struct sm_range b)
{
	return a.file == b.file && a.begin.line == b.begin.line && a.begin.col == b.begin.col &&
	       a.end.line == b.end.line && a.end.col == b.end.col;
}
