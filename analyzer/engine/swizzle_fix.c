/* swizzle_fix.c - the text edits that apply a verified XOR swizzle (--fix).
 *
 * A swizzle is a permutation of each row of the array: element [r][c] is
 * stored at [r][c ^ (r & mask)], with mask + 1 a power of two that divides
 * the row (padding.c only plans such masks). The program means the same
 * thing after the fix if, and only if, every place that names the array
 * is rewritten the same way: then every element is still read where it
 * was written. So the fix is refused unless each use of the array in the
 * kernel is a full subscript `a[..][r][c]` whose text is in the file:
 * - a pointer into the array (&a[i][j], a row, a cast, cp.async or
 *   ldmatrix operands) may be walked in ways no subscript shows;
 * - a file-scope array may be used by other kernels;
 * - a whole-chunk swizzle (vector tiles) has no spelling in scalar
 *   subscripts.
 * The accesses come from the kernel's model, and the uses from the text:
 * every token naming the array between the kernel's braces must be the
 * declaration or one of those accesses (a use in a macro, in code the
 * front end left out, or a shadowing name makes the counts differ, and
 * the fix is refused). The row index is spelled twice after the fix, so
 * one with side effects or calls is refused too. Each edit replaces the
 * last subscript's text `c` by `c ^ (r & mask)`, parenthesised as needed
 * (a literal row: `c ^ v`, or no edit where v & mask is 0).
 */
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "engine/fix.h"

static void refuse(struct sm_fix_plan *p, struct sm_arena *A, const char *fmt, const char *name)
{
	p->refuse = sm_arena_printf(A, fmt, name);
	p->edits = NULL;
	p->nedits = 0;
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* An operand that needs no parentheses: a name, a member chain, a number. */
static bool simple_operand(const char *t)
{
	if (!*t)
		return false;
	for (const char *s = t; *s; s++)
		if (!ident_char(*s) && *s != '.')
			return false;
	return true;
}

/* Could evaluating t twice differ from once: ++, --, an assignment, or a
 * call (a name followed by '(')? */
static bool has_effects(const char *t)
{
	for (const char *s = t; *s; s++) {
		if ((s[0] == '+' && s[1] == '+') || (s[0] == '-' && s[1] == '-'))
			return true;
		if (s[0] == '=' && s[1] != '=' && (s == t || !strchr("=<>!", s[-1])))
			return true;
		if (s[0] == '(') {
			const char *b = s;
			while (b > t && (b[-1] == ' ' || b[-1] == '\t'))
				b--;
			if (b > t && ident_char(b[-1]))
				return true;
		}
	}
	return false;
}

const char *sm_fix_swizzle_text(const char *col, const char *row, int64_t mask, struct sm_arena *A)
{
	bool pc = !simple_operand(col), pr = !simple_operand(row);
	return sm_arena_printf(A, "%s%s%s ^ (%s%s%s & %lld)", pc ? "(" : "", col, pc ? ")" : "", pr ? "(" : "", row,
			       pr ? ")" : "", (long long)mask);
}

/* The text of r in text, or NULL when r is not in it. */
static const char *span(const char *text, size_t len, struct sm_range r, struct sm_arena *A)
{
	size_t n;
	if (!r.begin.line)
		return NULL;
	const char *s = sm_text_span(text, len, r.begin.line, r.begin.col, r.end.line, r.end.col, &n);
	return s ? sm_arena_strndup(A, s, n) : NULL;
}

/* The next character of text around [b, e) that is not blank: before b
 * (dir < 0) or from e on. */
static char neighbour(const char *text, size_t len, size_t b, size_t e, int dir)
{
	if (dir < 0) {
		while (b > 0 && strchr(" \t\r\n", text[b - 1]))
			b--;
		return b > 0 ? text[b - 1] : 0;
	}
	while (e < len && strchr(" \t\r\n", text[e]))
		e++;
	return e < len ? text[e] : 0;
}

/* The tokens spelling `name` in text[b, e), leaving out comments, string
 * and character literals, and members (x.name, p->name, ns::name). */
static unsigned count_name(const char *text, size_t b, size_t e, const char *name)
{
	size_t nl = strlen(name);
	unsigned n = 0;
	char prev = 0, prev2 = 0; /* the last two characters outside blanks,
				   * comments and names */
	for (size_t i = b; i < e;) {
		char c = text[i];
		if (c == '/' && i + 1 < e && text[i + 1] == '/') {
			while (i < e && text[i] != '\n')
				i++;
		} else if (c == '/' && i + 1 < e && text[i + 1] == '*') {
			i += 2;
			while (i + 1 < e && !(text[i] == '*' && text[i + 1] == '/'))
				i++;
			i += 2;
		} else if (c == '"' || c == '\'') {
			for (i++; i < e && text[i] != c; i++)
				if (text[i] == '\\')
					i++;
			i++;
			prev2 = prev;
			prev = c;
		} else if (ident_char(c)) {
			size_t s = i;
			while (i < e && ident_char(text[i]))
				i++;
			bool member = prev == '.' || (prev == '>' && prev2 == '-') || (prev == ':' && prev2 == ':');
			if (i - s == nl && !memcmp(text + s, name, nl) && !(c >= '0' && c <= '9') && !member)
				n++;
			prev2 = prev;
			prev = 'a';
		} else {
			if (!strchr(" \t\r\n", c)) {
				prev2 = prev;
				prev = c;
			}
			i++;
		}
	}
	return n;
}

int sm_fix_swizzle_edits(const struct sm_fix_query *q, struct sm_arena *A, struct sm_fix_plan *p)
{
	const struct sm_array *arr = q->arr;
	const struct sm_kernel *k = q->m->kernel;
	const char *name = arr->name;
	p->edits = NULL;
	p->nedits = 0;
	if (p->kind != SM_FIX_SWIZZLE)
		return 0;
	if (p->swizzle_shift)
		return refuse(p, A, "a swizzle of whole chunks of '%s' has no spelling in its subscripts", name), 0;
	if (arr->address_taken)
		return refuse(p, A, "a pointer into '%s' is formed, so not every access is a subscript the fix can rewrite", name), 0;
	if (arr->is_file_scope)
		return refuse(p, A, "'%s' is declared at file scope and may be used by other kernels", name), 0;
	bool own = false;
	for (unsigned i = 0; i < k->narrays; i++)
		own |= k->arrays[i] == arr;
	size_t kb = sm_text_offset(q->text, q->len, k->range.begin.line, k->range.begin.col);
	size_t ke = sm_text_offset(q->text, q->len, k->range.end.line, k->range.end.col);
	if (!own || k->inlined || k->range.file != arr->decl.file || kb == SM_TEXT_NPOS || ke == SM_TEXT_NPOS || ke < kb)
		return refuse(p, A, "'%s' is not declared in the kernel's own text", name), 0;
	struct sm_fixit *ed = sm_arena_alloc(A, (q->m->nacc + 1) * sizeof(*ed));
	struct sm_range *seen = sm_arena_alloc(A, (q->m->nacc + 1) * sizeof(*seen));
	if (!ed || !seen)
		return -1;
	unsigned n = 0, nseen = 0, last = (unsigned)arr->ndims - 1;
	for (unsigned i = 0; i < q->m->nacc; i++) {
		const struct sm_access *a = q->m->acc[i].src;
		if (!a || a->in_flight || (q->m->acc[i].array != arr && a->array != arr))
			continue;
		if (a->call)
			return refuse(p, A, "'%s' is accessed in a function the kernel calls; swizzle its accesses by hand", name), 0;
		struct sm_range cr = a->idx_range[last], rr = a->idx_range[last - 1];
		bool dup = false;
		for (unsigned j = 0; j < nseen && !dup; j++)
			dup = !memcmp(&seen[j], &cr, sizeof(cr));
		if (dup)
			continue;
		seen[nseen++] = cr;
		const char *col = NULL, *row = NULL;
		size_t b = SM_TEXT_NPOS, e = SM_TEXT_NPOS, ab = SM_TEXT_NPOS;
		if (a->array == arr && a->nidx == arr->ndims && a->range.file == arr->decl.file &&
		    cr.file == arr->decl.file && rr.file == arr->decl.file) {
			col = span(q->text, q->len, cr, A);
			row = span(q->text, q->len, rr, A);
			b = sm_text_offset(q->text, q->len, cr.begin.line, cr.begin.col);
			e = sm_text_offset(q->text, q->len, cr.end.line, cr.end.col);
			ab = sm_text_offset(q->text, q->len, a->range.begin.line, a->range.begin.col);
		}
		/* the access must read `name[...]...[c]` in the text itself */
		if (!col || !row || b == SM_TEXT_NPOS || e == SM_TEXT_NPOS || ab == SM_TEXT_NPOS || ab < kb || e > ke ||
		    neighbour(q->text, q->len, b, e, -1) != '[' || neighbour(q->text, q->len, b, e, 1) != ']' ||
		    ab + strlen(name) >= q->len || memcmp(q->text + ab, name, strlen(name)) ||
		    ident_char(q->text[ab + strlen(name)]))
			return refuse(p, A, "an access of '%s' is not written as a subscript in the kernel's text", name), 0;
		if (has_effects(row))
			return refuse(p, A, "a row index of '%s' has side effects or calls, and the swizzle would repeat it", name), 0;
		char *end;
		long long rv = strtoll(row, &end, 10);
		if (*row >= '0' && *row <= '9' && !*end && !(rv & p->swizzle_mask))
			continue; /* a row r with r & mask == 0 keeps its place */
		ed[n].range = cr;
		ed[n].text = *row >= '0' && *row <= '9' && !*end
				     ? sm_arena_printf(A, simple_operand(col) ? "%s ^ %lld" : "(%s) ^ %lld", col,
						       (long long)(rv & p->swizzle_mask))
				     : sm_fix_swizzle_text(col, row, p->swizzle_mask, A);
		n++;
	}
	if (n == 0 || count_name(q->text, kb, ke, name) != nseen + 1)
		return refuse(p, A, "not every use of '%s' in the kernel is an access the fix rewrites", name), 0;
	p->edits = ed;
	p->nedits = n;
	return 0;
}
