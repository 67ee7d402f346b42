/* nvcc_dialect.c - the table of clang errors on code nvcc accepts (see
 * nvcc_dialect.h). Each row: clang's diagnostic spelling, a check of the
 * source text at the diagnostic's location (so that only the construct the
 * row is about matches, never another error with the same words), and the
 * note's message. The text is read from the file clang parsed (its
 * expansion location), as libclang gives it; the checks look at bytes
 * around one offset and never scan further than the statement.
 *
 * What each row costs the analysis is in its message: clang drops an asm
 * statement it rejects, so such a statement's accesses (ldmatrix, cp.async)
 * are not analyzed; a __shared__ variable whose constructor clang rejects
 * is kept, as nvcc keeps it. */
#define _GNU_SOURCE /* memmem */
#include "front/nvcc_dialect.h"

#include <ctype.h>
#include <string.h>

#include "base/limits.h"
#include "front/convert.h"

/* the source around the diagnostic */
struct at {
	const char *text; /* the whole file */
	size_t size;
	size_t off;       /* the diagnostic's byte offset in text */
};

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* the offset of the last non-blank byte before off, or (size_t)-1 */
static size_t prev_nonblank(const struct at *a, size_t off)
{
	while (off > 0) {
		off--;
		if (!isspace((unsigned char)a->text[off]))
			return off;
	}
	return (size_t)-1;
}

/* Does the keyword asm (`asm`, `__asm`, `__asm__`) start at j? */
static int asm_keyword(const struct at *a, size_t j)
{
	if (j + 3 > a->size || memcmp(a->text + j, "asm", 3))
		return 0;
	size_t l = j, r = j + 3;
	while (l > 0 && a->text[l - 1] == '_')
		l--;
	while (r < a->size && a->text[r] == '_')
		r++;
	return (l == 0 || !ident_char(a->text[l - 1])) && (r >= a->size || !ident_char(a->text[r]));
}

/* Is off inside an asm statement: the asm keyword earlier in the same
 * statement, with no ';', '{' or '}' between outside string literals? */
static int in_asm(const struct at *a, size_t off)
{
	size_t lo = off > SM_DIALECT_LOOKBACK ? off - SM_DIALECT_LOOKBACK : 0;
	int in_str = 0;
	for (size_t i = off; i > lo; i--) {
		char c = a->text[i - 1];
		if (c == '"' && (i < 2 || a->text[i - 2] != '\\'))
			in_str = !in_str;
		if (in_str)
			continue;
		if (c == ';' || c == '{' || c == '}')
			return 0;
		if (c == 'a' && asm_keyword(a, i - 1))
			return 1;
	}
	return 0;
}

/* "invalid % escape in inline assembly string": a `%name` that is no
 * operand (`%globaltimer`, `%laneid`, `%smid`: PTX special registers).
 * nvcc hands the string to ptxas as written; clang wants `%%`. */
static const char *asm_percent(const struct at *a, struct sm_arena *A)
{
	size_t b = a->off, e = b;
	/* clang points into the name, past its first letter */
	while (b > 0 && a->off - b < 64 && ident_char(a->text[b - 1]))
		b--;
	if (b == 0 || a->text[b - 1] != '%' || !isalpha((unsigned char)a->text[b]))
		return NULL;
	while (e < a->size && ident_char(a->text[e]))
		e++;
	return sm_arena_printf(A,
			       "inline asm names '%%%.*s', which nvcc passes to ptxas as written and clang rejects "
			       "as an unknown operand escape (it wants '%%%%'): the asm statement is not analyzed",
			       (int)(e - b), a->text + b);
}

/* "expected ')'" at a string literal right after an operand's ')' inside
 * an asm statement: operands with no comma between them (`"r"(x) "l"(p)`),
 * which nvcc accepts. */
static const char *asm_operand_comma(const struct at *a, struct sm_arena *A)
{
	if (a->off >= a->size || a->text[a->off] != '"')
		return NULL;
	size_t p = prev_nonblank(a, a->off);
	if (p == (size_t)-1 || a->text[p] != ')' || !in_asm(a, p))
		return NULL;
	return sm_arena_printf(A, "inline asm operands with no comma between them: nvcc accepts them, clang "
				  "rejects them: the asm statement is not analyzed");
}

/* "initialization is not supported for __shared__ variables" on a
 * variable declared with no initializer (`__shared__ cuda::barrier<...>
 * bar;`, `__shared__ cuda::pipeline_shared_state<...> st;`: a class type
 * with a constructor): nvcc only warns (#20054) and ignores the
 * constructor, the code then initializes it (init(&bar, n)), so for the
 * analysis it is not an error. An explicit initializer (`= x`, `(x)`,
 * `{x}`) is an error for nvcc too. Read from the declaration's text (in a
 * function template the location resolves to no cursor): the name at the
 * diagnostic's column, then ';' (or ',' and more names without
 * initializers up to the ';' on that line), and __shared__ earlier on its
 * line. */
static const char *shared_ctor(const struct at *a, struct sm_arena *A)
{
	size_t b = a->off, e = b;
	while (e < a->size && ident_char(a->text[e]))
		e++;
	size_t k = e;
	while (k < a->size && (a->text[k] == ' ' || a->text[k] == '\t'))
		k++;
	if (e == b || k >= a->size || (a->text[k] != ';' && a->text[k] != ','))
		return NULL;
	/* `__shared__ barrier barA, barB;`: the other declarators are plain
	 * names too (no initializer for any) */
	for (size_t q = k; a->text[k] == ',' && q < a->size && a->text[q] != ';'; q++)
		if (a->text[q] == '=' || a->text[q] == '(' || a->text[q] == '{' || a->text[q] == '\n')
			return NULL;
	size_t ls = b;
	while (ls > 0 && a->text[ls - 1] != '\n')
		ls--;
	if (!memmem(a->text + ls, b - ls, "__shared__", 10))
		return NULL;
	return sm_arena_printf(A,
			       "__shared__ '%.*s' is declared without an initializer but its type has a constructor: "
			       "clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc "
			       "compiles it",
			       (int)(e - b), a->text + b);
}

/* "variable-sized object may not be initialized": `T a[n] = {0};` in host
 * code, a GNU extension nvcc's front end and host compiler accept (device
 * code has no variable-length arrays under either compiler: host-only
 * functions only). The location is the size. */
static const char *vla_init(const struct at *a, struct sm_arena *A)
{
	size_t p = prev_nonblank(a, a->off);
	if (p == (size_t)-1 || a->text[p] != '[')
		return NULL;
	return sm_arena_printf(A, "a variable-length array with an initializer: nvcc accepts it (a GNU extension "
				  "of host code), clang rejects it; launch sites in that statement are not analyzed");
}

static const struct dialect_row {
	const char *spelling; /* clang's diagnostic, exactly */
	const char *(*match)(const struct at *a, struct sm_arena *A); /* the note's message, or NULL */
	int host_only; /* only in the body of a host-only function (host_code.h) */
} dialect[] = {
	{ "initialization is not supported for __shared__ variables", shared_ctor, 0 },
	{ "invalid % escape in inline assembly string", asm_percent, 0 },
	{ "expected ')'", asm_operand_comma, 0 },
	{ "variable-sized object may not be initialized", vla_init, 1 },
};

int cv_nvcc_accepts_note(CXTranslationUnit tu, CXDiagnostic d, struct sm_note *note, struct sm_arena *A)
{
	CXString sp = clang_getDiagnosticSpelling(d);
	const char *s = clang_getCString(sp);
	const struct dialect_row *row = NULL;
	for (size_t i = 0; s && i < sizeof(dialect) / sizeof(dialect[0]) && !row; i++)
		if (!strcmp(s, dialect[i].spelling))
			row = &dialect[i];
	clang_disposeString(sp);
	if (!row || (row->host_only && note->kind != SM_NOTE_HOST_CLANG))
		return 0;
	CXFile f = NULL;
	unsigned off = 0;
	clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, NULL, NULL, &off);
	struct at a = { 0 };
	a.text = f ? clang_getFileContents(tu, f, &a.size) : NULL;
	a.off = off;
	if (!a.text || off >= a.size)
		return 0;
	const char *msg = row->match(&a, A);
	if (!msg)
		return 0;
	note->level = 0;
	note->kind = SM_NOTE_NVCC_ACCEPTS;
	note->message = msg;
	return 1;
}

