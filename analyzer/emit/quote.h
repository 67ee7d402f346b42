/* quote.h - the source line a report quotes under a finding: the line of
 * a range, the part of it the range covers, and the window shown of a long
 * line (base/text.h, SM_QUOTE_BYTES), for the text and HTML reports. */
#ifndef SMEMLINT_EMIT_QUOTE_H
#define SMEMLINT_EMIT_QUOTE_H

#include <stdbool.h>
#include <stddef.h>

#include "smemlint/result.h"

struct sm_quote {
	const char *s;          /* the line (not NUL-terminated) */
	size_t len;             /* its bytes */
	size_t from, to;        /* the window shown: [from, to) */
	size_t b, e;            /* the range within the window: [b, e), from <= b <= e <= to */
	unsigned line;          /* its line number */
};

/* The quote of range rg's first line in r's text; false when r has no such
 * line. */
bool sm_quote_of(const struct sm_result *r, struct sm_range rg, struct sm_quote *q);

#endif
