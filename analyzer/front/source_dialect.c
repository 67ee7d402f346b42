/* source_dialect.c - spaced launch brackets and `extern "C"__global__`
 * (source_dialect.h). Each is a single pass over the text that skips
 * comments and literals; each `<< <` is followed at most
 * SM_DIALECT_LAUNCH_SPAN bytes to its `>> >`. */
#define _GNU_SOURCE /* memmem */
#include "front/source_dialect.h"

#include <ctype.h>
#include <string.h>

#include "base/limits.h"

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The end of a comment or literal starting at i, or i when none starts
 * there. A ' after an identifier or digit is a digit separator (1'000). */
static size_t skip_lexeme(const char *t, size_t len, size_t i)
{
	if (t[i] == '/' && i + 1 < len && t[i + 1] == '/') {
		while (i < len && t[i] != '\n')
			i++;
		return i;
	}
	if (t[i] == '/' && i + 1 < len && t[i + 1] == '*') {
		const char *e = memmem(t + i + 2, len - i - 2, "*/", 2);
		return e ? (size_t)(e - t) + 2 : len;
	}
	if (t[i] == 'R' && i + 1 < len && t[i + 1] == '"' && (i == 0 || !ident_char(t[i - 1]))) {
		/* R"delim( ... )delim" */
		size_t d = i + 2;
		while (d < len && t[d] != '(' && d - i - 2 < 16)
			d++;
		if (d >= len || t[d] != '(')
			return i + 1;
		char close[20];
		size_t dl = d - i - 2;
		close[0] = ')';
		memcpy(close + 1, t + i + 2, dl);
		close[dl + 1] = '"';
		const char *e = memmem(t + d, len - d, close, dl + 2);
		return e ? (size_t)(e - t) + dl + 2 : len;
	}
	if (t[i] == '"' || (t[i] == '\'' && (i == 0 || !isalnum((unsigned char)t[i - 1])))) {
		char q = t[i];
		for (i++; i < len && t[i] != q && t[i] != '\n'; i++)
			if (t[i] == '\\')
				i++;
		return i < len ? i + 1 : len;
	}
	return i;
}

/* `<<` spaces `<` at i (not `<<=`, `<<<`, `<< <=`, `<< <<`): the offset of
 * the third '<', else 0 */
static size_t spaced_open(const char *t, size_t len, size_t i)
{
	if (i + 3 >= len || t[i] != '<' || t[i + 1] != '<' || (i > 0 && t[i - 1] == '<'))
		return 0;
	size_t j = i + 2;
	if (!isspace((unsigned char)t[j]))
		return 0;
	while (j < len && isspace((unsigned char)t[j]))
		j++;
	if (j + 1 >= len || t[j] != '<' || t[j + 1] == '<' || t[j + 1] == '=')
		return 0;
	/* operator<< <T>(...): an explicit template argument list */
	size_t k = i;
	while (k > 0 && isspace((unsigned char)t[k - 1]))
		k--;
	if (k >= 8 && memcmp(t + k - 8, "operator", 8) == 0 && (k == 8 || !ident_char(t[k - 9])))
		return 0;
	return j;
}

/* The offset of the `>>` of a `>> >` (or of a `>>>`) closing the launch
 * opened before from, at nesting depth 0 before the statement ends; or
 * (size_t)-1. *spaced: 1 for `>> >`, 0 for `>>>`. */
static size_t launch_close(const char *t, size_t len, size_t from, int *spaced)
{
	int depth = 0;
	for (size_t i = from; i < len && i - from < SM_DIALECT_LAUNCH_SPAN;) {
		size_t e = skip_lexeme(t, len, i);
		if (e != i) {
			i = e;
			continue;
		}
		char c = t[i];
		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if (c == ')' || c == ']' || c == '}') {
			if (--depth < 0)
				return (size_t)-1;
		} else if (c == ';' && depth == 0)
			return (size_t)-1;
		else if (c == '>' && depth == 0 && i + 1 < len && t[i + 1] == '>') {
			size_t j = i + 2;
			if (j < len && t[j] == '>') {
				*spaced = 0;
				return i;
			}
			while (j < len && isspace((unsigned char)t[j]))
				j++;
			if (j > i + 2 && j < len && t[j] == '>' && (j + 1 >= len || (t[j + 1] != '>' && t[j + 1] != '='))) {
				*spaced = 1;
				return i;
			}
		}
		i++;
	}
	return (size_t)-1;
}

/* The text's first mend: a copy in A to mend in place (NULL: A is spent). */
static char *copy_of(const char *text, size_t len, struct sm_arena *A)
{
	char *out = sm_arena_alloc(A, len + 1);
	if (out) {
		memcpy(out, text, len);
		out[len] = 0;
	}
	return out;
}

/* `XX` spaces `X` at i, third char at j: `XXX` then the spaces */
static void close_up(char *t, size_t i, size_t j, char x)
{
	memmove(t + i + 3, t + i + 2, j - i - 2);
	t[i + 2] = x;
}

const char *sm_dialect_launch_brackets(const char *text, size_t len, struct sm_arena *A, unsigned *nfixed)
{
	*nfixed = 0;
	if (!text || len < 8 || !memmem(text, len, "<< ", 3))
		return text;
	char *out = NULL;
	for (size_t i = 0; i < len;) {
		size_t e = skip_lexeme(text, len, i);
		if (e != i) {
			i = e;
			continue;
		}
		size_t third = spaced_open(text, len, i);
		if (!third) {
			i++;
			continue;
		}
		int spaced = 0;
		size_t c = launch_close(text, len, third + 1, &spaced);
		if (c == (size_t)-1) {
			i = third + 1;
			continue;
		}
		if (!out && !(out = copy_of(text, len, A)))
			return text;
		close_up(out, i, third, '<');
		if (spaced) {
			size_t j = c + 2;
			while (isspace((unsigned char)text[j]))
				j++;
			close_up(out, c, j, '>');
		}
		(*nfixed)++;
		i = c + 2;
	}
	return out ? out : text;
}

/* `extern "C"` or `extern "C++"` at i (i at the `e`, after a non-identifier
 * byte), a blank run, the literal, then an identifier byte: the offset of
 * the literal's opening quote, else 0. */
static size_t glued_linkage(const char *t, size_t len, size_t i, size_t *lit_len)
{
	if (i + 6 >= len || memcmp(t + i, "extern", 6) || (i > 0 && ident_char(t[i - 1])))
		return 0;
	size_t q = i + 6;
	while (q < len && (t[q] == ' ' || t[q] == '\t'))
		q++;
	if (q == i + 6)
		return 0;
	static const char *const lits[] = { "\"C\"", "\"C++\"" };
	for (size_t k = 0; k < sizeof(lits) / sizeof(lits[0]); k++) {
		size_t n = strlen(lits[k]);
		if (q + n < len && !memcmp(t + q, lits[k], n) && ident_char(t[q + n])) {
			*lit_len = n;
			return q;
		}
	}
	return 0;
}

const char *sm_dialect_extern_c(const char *text, size_t len, struct sm_arena *A, unsigned *nfixed)
{
	*nfixed = 0;
	if (!text || len < 10 || !memmem(text, len, "extern", 6))
		return text;
	char *out = NULL;
	for (size_t i = 0; i < len;) {
		size_t lit_len = 0, q = glued_linkage(text, len, i, &lit_len);
		if (!q) {
			size_t e = skip_lexeme(text, len, i);
			i = e != i ? e : i + 1;
			continue;
		}
		if (!out && !(out = copy_of(text, len, A)))
			return text;
		/* `extern "C"__global__` -> `extern"C" __global__`: the blank
		 * before the literal moves after it */
		memmove(out + q - 1, text + q, lit_len);
		out[q - 1 + lit_len] = ' ';
		(*nfixed)++;
		i = q + lit_len;
	}
	return out ? out : text;
}
