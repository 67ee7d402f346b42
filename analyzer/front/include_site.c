/* include_site.c - the include chain of a header (see include_site.h),
 * from clang_getInclusions: for each included file libclang gives the
 * stack of #include locations, innermost first, the last one in the main
 * file. Walked only when a header holds an error. */
#include "front/include_site.h"

#include <stdio.h>
#include <string.h>

struct site_walk {
	CXFile header;
	struct sm_arena *A;
	struct sm_pos main_pos;
	const char *chain;
	int found;
};

static void visit(CXFile included, CXSourceLocation *stack, unsigned len, CXClientData data)
{
	struct site_walk *w = data;
	if (w->found || !clang_File_isEqual(included, w->header) || len == 0)
		return;
	w->found = 1;
	unsigned line, col;
	clang_getExpansionLocation(stack[len - 1], NULL, &line, &col, NULL);
	w->main_pos.line = line;
	w->main_pos.col = col;
	/* the headers in between, innermost first */
	const char *chain = NULL;
	for (unsigned i = 0; i + 1 < len; i++) {
		CXFile f = NULL;
		clang_getExpansionLocation(stack[i], &f, &line, NULL, NULL);
		CXString n = clang_getFileName(f);
		const char *name = clang_getCString(n);
		chain = chain ? sm_arena_printf(w->A, "%s, %s:%u", chain, name ? name : "?", line)
			      : sm_arena_printf(w->A, "%s:%u", name ? name : "?", line);
		clang_disposeString(n);
	}
	w->chain = chain;
}

const char *cv_include_site(CXTranslationUnit tu, CXFile header, struct sm_arena *A, struct sm_pos *main_pos)
{
	struct site_walk w;
	memset(&w, 0, sizeof(w));
	w.header = header;
	w.A = A;
	if (header)
		clang_getInclusions(tu, visit, &w);
	*main_pos = w.main_pos;
	return w.chain;
}
