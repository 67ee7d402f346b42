/* suppress.c - inline suppressions (see report.h): a small lexer finds the
 * comments of the file (skipping string and character literals), and the
 * directives in them cover lines; findings on a covered line with a covered
 * rule are removed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/text.h"
#include "driver/report.h"
#include "rules/rules.h"

_Static_assert(SM_RULE__COUNT <= 64, "suppression rule masks are 64 bits");

struct supp {
	unsigned line, col;     /* where the directive is written */
	unsigned len;           /* its length in bytes */
	unsigned first, last;   /* finding lines it covers */
	uint64_t rules;         /* rules it covers (bit per enum sm_rule_id) */
	bool reportable;        /* names smemlint explicitly: may be reported unused */
	bool used;
};

struct supps {
	struct supp *v;
	unsigned n, cap;
};

static void push(struct supps *s, const struct supp *x)
{
	if (SM_ALLOC_GROW(s->v, s->n + 1, s->cap))
		return; /* out of memory: the directive is dropped */
	s->v[s->n++] = *x;
}

static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The first `close` in s[0..n) when it comes before the end of the line,
 * else NULL: a directive's rule list must close on its own line. */
static const char *close_on_line(const char *s, size_t n, char close)
{
	const char *e = memchr(s, close, n);
	const char *nl = memchr(s, '\n', n);
	return e && !(nl && nl < e) ? e : NULL;
}

/* A directive's rule list: "a, b ,c" in s[0..n). */
struct rule_names {
	const char *s;
	size_t n;
	const char *prefix; /* entries must start with it to concern smemlint
	                     * ("smemlint-" for NOLINT), "*" means all; NULL:
	                     * smemlint's own list (the prefix optional) */
	struct sm_pos at;   /* the directive, where an unknown name is reported */
};

/* The rule mask of list; *any_ours: some entry concerns smemlint. */
static uint64_t rule_list(struct sm_result *r, const struct rule_names *list, bool *any_ours)
{
	const char *s = list->s, *prefix = list->prefix;
	size_t n = list->n;
	uint64_t mask = 0;
	size_t i = 0;
	while (i < n) {
		while (i < n && (s[i] == ' ' || s[i] == ',' || s[i] == '\t'))
			i++;
		size_t b = i;
		while (i < n && s[i] != ',' && s[i] != ' ' && s[i] != '\t')
			i++;
		if (i == b)
			continue;
		char name[96];
		size_t l = i - b < sizeof(name) - 1 ? i - b : sizeof(name) - 1;
		memcpy(name, s + b, l);
		name[l] = 0;
		const char *id = name;
		if (prefix) {
			size_t pl = strlen(prefix);
			if (!strcmp(name, "*")) {
				*any_ours = true;
				mask = ~0ull;
				continue;
			}
			if (strncmp(name, prefix, pl))
				continue; /* another tool's check */
			id = name + pl;
		} else if (!strncmp(name, "smemlint-", 9)) {
			id = name + 9;
		}
		*any_ours = true;
		if (!strcmp(id, "*")) {
			mask = ~0ull;
			continue;
		}
		int rule = sm_rule_find(id);
		if (rule < 0) {
			sm_result_problem(r, SM_PROBLEM_UNKNOWN_SUPPRESSION_RULE, list->at, "unknown rule '%s' in suppression (see --list-rules)", id);
			continue;
		}
		mask |= 1ull << rule;
	}
	return mask;
}

/* One comment of the text. */
struct comment {
	const char *c;      /* its text, c[0..n) */
	size_t n;
	struct sm_pos at;   /* where it starts */
	bool own_line;      /* only white space precedes it on its line, so
	                     * `smemlint: ignore` there covers the next line;
	                     * after code it covers its own line */
};

/* The directives of comment cm. */
static void directives(struct sm_result *r, const struct comment *cm, struct supps *out)
{
	const char *c = cm->c;
	size_t n = cm->n;
	unsigned line = cm->at.line, col = cm->at.col;
	bool own_line = cm->own_line;
	size_t lstart = 0; /* offset in c of the current line's start */
	for (size_t i = 0; i < n; i++) {
		if (c[i] == '\n') {
			line++;
			col = 1;
			lstart = i + 1;
			continue;
		}
		struct supp s = { 0 };
		s.line = line;
		s.col = col + (unsigned)(i - lstart);
		size_t rest = n - i;
		if (rest >= 9 && !memcmp(c + i, "smemlint:", 9) && (i == 0 || !is_ident(c[i - 1]))) {
			size_t j = i + 9;
			while (j < n && (c[j] == ' ' || c[j] == '\t'))
				j++;
			if (n - j < 6 || memcmp(c + j, "ignore", 6) || (j + 6 < n && is_ident(c[j + 6])))
				continue;
			j += 6;
			s.reportable = true;
			/* on a line of its own (or a later line of a block
			 * comment): the next line; after code: its own line */
			s.first = s.last = own_line || lstart ? line + 1 : line;
			if (j < n && c[j] == '[') {
				const char *close = close_on_line(c + j, n - j, ']');
				if (!close)
					continue;
				bool ours = false;
				struct rule_names l = { c + j + 1, (size_t)(close - (c + j + 1)), NULL, { line, s.col } };
				s.rules = rule_list(r, &l, &ours);
				j = (size_t)(close - c) + 1;
				if (!s.rules)
					continue; /* only unknown names */
			} else {
				s.rules = ~0ull;
			}
			s.len = (unsigned)(j - i);
			push(out, &s);
			i = j - 1;
		} else if (rest >= 6 && !memcmp(c + i, "NOLINT", 6) && (i == 0 || !is_ident(c[i - 1]))) {
			size_t j = i + 6;
			bool next = false;
			if (n - j >= 8 && !memcmp(c + j, "NEXTLINE", 8)) {
				next = true;
				j += 8;
			}
			if (j < n && is_ident(c[j]))
				continue; /* NOLINTBEGIN/END and other words */
			s.first = s.last = next ? line + 1 : line;
			if (j < n && c[j] == '(') {
				const char *close = close_on_line(c + j, n - j, ')');
				if (!close)
					continue;
				bool ours = false;
				struct rule_names l = { c + j + 1, (size_t)(close - (c + j + 1)), "smemlint-", { line, s.col } };
				s.rules = rule_list(r, &l, &ours);
				j = (size_t)(close - c) + 1;
				if (!ours || !s.rules)
					continue;
				s.reportable = true;
			} else {
				s.rules = ~0ull; /* bare NOLINT: every check of every tool */
			}
			s.len = (unsigned)(j - i);
			push(out, &s);
			i = j - 1;
		}
	}
}

static bool blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return false;
	return true;
}

/* Find the comments of text[0..len) and their directives. */
static void scan(struct sm_result *r, struct supps *out)
{
	const char *t = r->text;
	size_t n = r->len;
	unsigned line = 1;
	size_t bol = 0; /* offset of the current line's first byte */
	for (size_t i = 0; i < n; i++) {
		char c = t[i];
		if (c == '\n') {
			line++;
			bol = i + 1;
		} else if (c == '/' && i + 1 < n && t[i + 1] == '/') {
			size_t e = i + 2;
			while (e < n && t[e] != '\n')
				e++;
			struct comment cm = { t + i, e - i, { line, (unsigned)(i - bol) + 1 }, blank(t + bol, i - bol) };
			directives(r, &cm, out);
			i = e - 1;
		} else if (c == '/' && i + 1 < n && t[i + 1] == '*') {
			size_t e = i + 2;
			while (e + 1 < n && !(t[e] == '*' && t[e + 1] == '/'))
				e++;
			e = e + 2 <= n ? e + 2 : n;
			struct comment cm = { t + i, e - i, { line, (unsigned)(i - bol) + 1 }, blank(t + bol, i - bol) };
			directives(r, &cm, out);
			sm_text_advance(t, i, e, &line, &bol);
			i = e - 1;
		} else if (c == 'R' && i + 1 < n && t[i + 1] == '"' && (i == 0 || !is_ident(t[i - 1]))) {
			/* raw string R"delim( ... )delim" */
			size_t d = i + 2;
			while (d < n && t[d] != '(' && d - (i + 2) < 16)
				d++;
			if (d >= n || t[d] != '(')
				continue;
			char close[20];
			size_t dl = d - (i + 2);
			close[0] = ')';
			memcpy(close + 1, t + i + 2, dl);
			close[dl + 1] = '"';
			size_t e = d + 1;
			while (e + dl + 2 <= n && memcmp(t + e, close, dl + 2))
				e++;
			e = e + dl + 2 <= n ? e + dl + 2 : n;
			sm_text_advance(t, i, e, &line, &bol);
			i = e - 1;
		} else if (c == '"' || (c == '\'' && (i == 0 || !is_ident(t[i - 1]) || t[i - 1] == 'u' ||
						  t[i - 1] == 'U' || t[i - 1] == 'L'))) {
			/* a literal ends at its quote or at the end of the line; a
			 * quote after a digit is a C++14 digit separator */
			size_t e = i + 1;
			while (e < n && t[e] != c && t[e] != '\n') {
				if (t[e] == '\\' && e + 1 < n)
					e++;
				e++;
			}
			if (e < n && t[e] == '\n')
				e--;
			i = e;
		}
	}
}

unsigned sm_result_suppress(struct sm_result *r, bool report_unused, const enum sm_level *levels)
{
	if (!r->text)
		return 0;
	struct supps S = { 0 };
	scan(r, &S);
	unsigned removed = 0, kept = 0;
	for (unsigned i = 0; i < r->ndiags; i++) {
		const struct sm_diag *d = &r->diags[i];
		bool hit = false;
		for (unsigned k = 0; k < S.n; k++) {
			struct supp *s = &S.v[k];
			if (d->range.begin.line >= s->first && d->range.begin.line <= s->last &&
			    (s->rules >> d->rule) & 1) {
				s->used = true;
				hit = true;
			}
		}
		if (hit)
			removed++;
		else
			r->diags[kept++] = r->diags[i];
	}
	r->ndiags = kept;
	enum sm_level ul = levels ? levels[SM_RULE_UNUSED_SUPPRESSION] : sm_rules[SM_RULE_UNUSED_SUPPRESSION].level;
	if (report_unused && ul != SM_LEVEL_NONE) {
		struct sm_sink sink = sm_result_sink(r);
		unsigned before = r->ndiags;
		for (unsigned k = 0; k < S.n; k++) {
			const struct supp *s = &S.v[k];
			if (s->used || !s->reportable)
				continue;
			bool enabled = false;
			for (int ru = 0; ru < SM_RULE__COUNT; ru++)
				if (((s->rules >> ru) & 1) && ru != SM_RULE_UNUSED_SUPPRESSION &&
				    (!levels || levels[ru] != SM_LEVEL_NONE))
					enabled = true;
			if (!enabled)
				continue;
			char msg[256];
			const char *line_text = s->first == s->last && s->first == s->line ? "this line" :
						s->first == s->last ? "the next line" : "this line or the next";
			snprintf(msg, sizeof(msg), "unused suppression: no finding on %s matches it", line_text);
			/* quote the directive itself */
			size_t ll;
			const char *src = sm_result_line(r, s->line, &ll);
			if (src && s->col >= 1 && s->col - 1 + s->len <= ll)
				snprintf(msg, sizeof(msg), "unused suppression '%.*s': no finding on %s matches it",
					 (int)(s->len < 160 ? s->len : 160), src + s->col - 1, line_text);
			struct sm_diag d = { 0 };
			d.rule = SM_RULE_UNUSED_SUPPRESSION;
			d.level = ul;
			d.range.begin.line = d.range.end.line = s->line;
			d.range.begin.col = s->col;
			d.range.end.col = s->col + s->len;
			d.message = msg;
			d.access = -1;
			sm_sink_report(&sink, &d);
		}
		if (r->ndiags != before)
			sm_result_sort(r);
	}
	free(S.v);
	return removed;
}
