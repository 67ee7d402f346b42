/* quote.c - the source line a report quotes (see quote.h). */
#include "emit/quote.h"

#include "base/text.h"

bool sm_quote_of(const struct sm_result *r, struct sm_range rg, struct sm_quote *q)
{
	q->s = sm_result_line(r, rg.begin.line, &q->len);
	if (!q->s)
		return false;
	q->line = rg.begin.line;
	size_t b = rg.begin.col ? rg.begin.col - 1 : 0;
	size_t e = rg.end.line == rg.begin.line && rg.end.col > rg.begin.col ? rg.end.col - 1 : q->len;
	/* a long line: a window around the range's start */
	sm_text_window(q->s, q->len, b, &q->from, &q->to);
	if (b < q->from)
		b = q->from;
	if (b > q->to)
		b = q->to;
	if (e > q->to)
		e = q->to;
	if (e < b)
		e = b;
	q->b = b;
	q->e = e;
	return true;
}
