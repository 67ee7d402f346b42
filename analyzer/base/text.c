/* text.c - the one walker over a file's lines (see text.h). */
#include "base/text.h"

#include <string.h>

const char *sm_text_line(const char *text, size_t textlen, unsigned line, size_t *len)
{
	*len = 0;
	if (!text || line == 0)
		return NULL;
	const char *p = text, *end = text + textlen;
	for (unsigned l = 1; l < line && p < end; l++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return NULL;
		p = nl + 1;
	}
	if (p >= end)
		return NULL;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
	if (n && p[n - 1] == '\r')
		n--;
	*len = n;
	return p;
}
