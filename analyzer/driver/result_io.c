/* result_io.c - an sm_result through a pipe, for analysis in a child
 * process (smemlint --timeout). See result_io.h.
 *
 * The format is private to one smemlint binary talking to its own fork:
 * fixed-size records copied as bytes, every pointer replaced by the data
 * it points to. The reader rebuilds the result through sm_result_sink and
 * sm_result_add_note, which copy exactly what they copy for an in-process
 * analysis, so the two paths give the same result. A notification's
 * record carries its level and problem id as they are.
 */
#include "driver/result_io.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"

/* A new pointer field in these structs must be written and read below. */
_Static_assert(sizeof(struct sm_diag) == 920, "struct sm_diag changed: update analyzer/result_io.c");
_Static_assert(sizeof(struct sm_access_record) == 176, "struct sm_access_record changed: update analyzer/result_io.c");
_Static_assert(sizeof(struct sm_notification) == 24, "struct sm_notification changed: update analyzer/result_io.c");
_Static_assert(sizeof(enum sm_problem_id) == 4, "the problem id travels in the notification record");

#define MAGIC 0x736d6c33u /* "sml3": ranges carry a file, results their header table */

static int w_bytes(FILE *f, const void *p, size_t n)
{
	return n && fwrite(p, 1, n, f) != n ? -1 : 0;
}

static int w_u32(FILE *f, uint32_t v)
{
	return w_bytes(f, &v, sizeof(v));
}

static int w_str(FILE *f, const char *s)
{
	if (!s)
		return w_u32(f, 0);
	size_t n = strlen(s);
	return w_u32(f, (uint32_t)n + 1) || w_bytes(f, s, n);
}

int sm_result_write(FILE *f, const struct sm_result *r)
{
	int rc = 0;
	rc |= w_u32(f, MAGIC);
	rc |= w_u32(f, (uint32_t)r->len);
	rc |= w_u32(f, r->text != NULL);
	if (r->text)
		rc |= w_bytes(f, r->text, r->len);
	rc |= w_u32(f, r->nnotes);
	for (unsigned i = 0; i < r->nnotes; i++) {
		rc |= w_bytes(f, &r->notes[i], sizeof(r->notes[i]));
		rc |= w_str(f, r->notes[i].message);
	}
	rc |= w_u32(f, r->input_error);
	rc |= w_u32(f, r->nheaders);
	for (unsigned i = 0; i < r->nheaders; i++) {
		rc |= w_str(f, r->headers[i].path);
		rc |= w_u32(f, (uint32_t)r->headers[i].text_len);
		rc |= w_bytes(f, r->headers[i].text, r->headers[i].text_len);
	}
	rc |= w_u32(f, r->ndiags);
	for (unsigned i = 0; i < r->ndiags; i++) {
		const struct sm_diag *d = &r->diags[i];
		rc |= w_bytes(f, d, sizeof(*d));
		rc |= w_str(f, d->message);
		rc |= w_str(f, d->note);
		rc |= w_str(f, d->kernel);
		rc |= w_str(f, d->array);
		for (int k = 0; k < SM_MAX_RELATED; k++)
			rc |= w_str(f, k < d->nrelated ? d->related[k].message : NULL);
		rc |= w_str(f, d->fix.text);
		for (unsigned k = 0; k < d->nfix_more; k++) {
			rc |= w_bytes(f, &d->fix_more[k].range, sizeof(d->fix_more[k].range));
			rc |= w_str(f, d->fix_more[k].text);
		}
		rc |= w_str(f, d->fix_refused);
		rc |= w_str(f, d->launch.from.config);
		rc |= w_str(f, d->launch.from.file);
		rc |= w_u32(f, d->bank_addr != NULL);
		if (d->bank_addr)
			rc |= w_bytes(f, d->bank_addr, SM_WARP * sizeof(int64_t));
	}
	rc |= w_u32(f, r->nacc);
	for (unsigned i = 0; i < r->nacc; i++) {
		const struct sm_access_record *a = &r->acc[i];
		rc |= w_bytes(f, a, sizeof(*a));
		rc |= w_str(f, a->kernel);
		rc |= w_str(f, a->array);
		rc |= w_str(f, a->why);
	}
	rc |= w_u32(f, ~MAGIC);
	return rc ? -1 : 0;
}

struct rd {
	const char *p, *end;
	int bad;
};

static void r_bytes(struct rd *R, void *out, size_t n)
{
	if (R->bad || (size_t)(R->end - R->p) < n) {
		R->bad = 1;
		memset(out, 0, n);
		return;
	}
	memcpy(out, R->p, n);
	R->p += n;
}

static uint32_t r_u32(struct rd *R)
{
	uint32_t v;
	r_bytes(R, &v, sizeof(v));
	return v;
}

/* a string pointing into the buffer, NUL-terminated in a copy */
static const char *r_str(struct rd *R, struct sm_arena *A)
{
	uint32_t n = r_u32(R);
	if (R->bad || n == 0)
		return NULL;
	if ((size_t)(R->end - R->p) < n - 1) {
		R->bad = 1;
		return NULL;
	}
	const char *s = sm_arena_strndup(A, R->p, n - 1);
	R->p += n - 1;
	return s;
}

int sm_result_read(const char *buf, size_t len, const char *path, struct sm_result *r)
{
	struct rd R = { buf, buf + len, 0 };
	struct sm_arena tmp;
	sm_arena_init(&tmp, 0);
	sm_result_init(r, path);
	if (r_u32(&R) != MAGIC)
		goto bad;
	uint32_t tlen = r_u32(&R);
	if (r_u32(&R)) {
		if ((size_t)(R.end - R.p) < tlen)
			goto bad;
		char *t = sm_arena_strndup(&r->arena, R.p, tlen);
		R.p += tlen;
		if (t)
			sm_result_set_text(r, t, tlen);
	}
	uint32_t nn = r_u32(&R);
	for (uint32_t i = 0; i < nn && !R.bad; i++) {
		struct sm_notification n;
		r_bytes(&R, &n, sizeof(n));
		const char *m = r_str(&R, &tmp);
		if ((unsigned)n.problem >= SM_PROBLEM__COUNT || (unsigned)n.level > SM_LEVEL_ERROR)
			R.bad = 1;
		n.message = m;
		if (!R.bad)
			sm_result_add_note(r, &n);
	}
	bool input_error = r_u32(&R) != 0;
	uint32_t nh = r_u32(&R);
	if (!R.bad && nh) {
		if (nh > SM_MAX_CONVERTED_HEADERS || !(r->headers = sm_arena_alloc(&r->arena, nh * sizeof(*r->headers))))
			goto bad;
	}
	for (uint32_t i = 0; i < nh && !R.bad; i++) {
		struct sm_header *h = &r->headers[i];
		h->path = r_str(&R, &r->arena);
		uint32_t hl = r_u32(&R);
		if (R.bad || !h->path || (size_t)(R.end - R.p) < hl) {
			R.bad = 1;
			break;
		}
		h->text = sm_arena_strndup(&r->arena, R.p, hl);
		h->text_len = hl;
		R.p += hl;
		r->nheaders = i + 1;
	}
	uint32_t nd = r_u32(&R);
	struct sm_sink sink = sm_result_sink(r);
	for (uint32_t i = 0; i < nd && !R.bad; i++) {
		struct sm_diag d;
		r_bytes(&R, &d, sizeof(d));
		d.message = r_str(&R, &tmp);
		d.note = r_str(&R, &tmp);
		d.kernel = r_str(&R, &tmp);
		d.array = r_str(&R, &tmp);
		if (d.nrelated < 0 || d.nrelated > SM_MAX_RELATED)
			R.bad = 1;
		for (int k = 0; k < SM_MAX_RELATED; k++)
			d.related[k].message = r_str(&R, &tmp);
		d.fix.text = r_str(&R, &tmp);
		d.fix_more = NULL;
		if (d.nfix_more > SM_MAX_FILE_ACCESSES)
			R.bad = 1;
		else if (d.nfix_more) {
			struct sm_fixit *m = sm_arena_alloc(&tmp, d.nfix_more * sizeof(*m));
			if (!m)
				R.bad = 1;
			for (unsigned k = 0; m && k < d.nfix_more && !R.bad; k++) {
				r_bytes(&R, &m[k].range, sizeof(m[k].range));
				m[k].text = r_str(&R, &tmp);
			}
			d.fix_more = m;
		}
		d.fix_refused = r_str(&R, &tmp);
		d.launch.from.config = r_str(&R, &tmp);
		d.launch.from.file = r_str(&R, &tmp);
		d.bank_addr = NULL;
		if (r_u32(&R)) {
			int64_t *b = sm_arena_alloc(&tmp, SM_WARP * sizeof(int64_t));
			if (!b)
				R.bad = 1;
			else
				r_bytes(&R, b, SM_WARP * sizeof(int64_t));
			d.bank_addr = b;
		}
		if (!R.bad)
			sm_sink_report(&sink, &d);
	}
	uint32_t na = r_u32(&R);
	if (!R.bad && na) {
		r->acc = calloc(na, sizeof(*r->acc));
		if (!r->acc)
			goto bad;
		r->cap_acc = na;
	}
	for (uint32_t i = 0; i < na && !R.bad; i++) {
		struct sm_access_record a;
		r_bytes(&R, &a, sizeof(a));
		a.kernel = r_str(&R, &r->arena);
		a.array = r_str(&R, &r->arena);
		a.why = r_str(&R, &r->arena);
		r->acc[r->nacc++] = a;
	}
	if (R.bad || r_u32(&R) != ~MAGIC || R.p != R.end)
		goto bad;
	r->input_error = input_error;
	sm_arena_release(&tmp);
	return 0;
bad:
	sm_arena_release(&tmp);
	sm_result_free(r);
	sm_result_init(r, path);
	return -1;
}
