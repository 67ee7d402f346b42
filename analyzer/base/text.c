/* text.c - the one walker over a file's lines (see text.h). Every
 * question about lines and columns comes down to line_start() or to
 * sm_text_next_line(), so there is one definition of where a line begins
 * and ends. */
#include "base/text.h"
#include "base/limits.h"

#include <limits.h>
#include <string.h>

#include "smemlint/arena.h"

/* The offset where line `line` begins, or SM_TEXT_NPOS. */
static size_t line_start(const char *text, size_t textlen, unsigned line)
{
	if (!text || line == 0)
		return SM_TEXT_NPOS;
	size_t off = 0;
	for (unsigned l = 1; l < line; l++) {
		const char *nl = memchr(text + off, '\n', textlen - off);
		if (!nl)
			return SM_TEXT_NPOS;
		off = (size_t)(nl - text) + 1;
	}
	return off;
}

const char *sm_text_line(const char *text, size_t textlen, unsigned line, size_t *len)
{
	*len = 0;
	size_t pos = line_start(text, textlen, line);
	if (pos == SM_TEXT_NPOS)
		return NULL;
	return sm_text_next_line(text, textlen, &pos, len);
}

const uint32_t *sm_text_lines_index(const char *text, size_t textlen, struct sm_arena *A, unsigned *nlines)
{
	*nlines = 0;
	if (!text || textlen > UINT32_MAX)
		return NULL;
	size_t n = 1;
	for (const char *p = text, *end = text + textlen; (p = memchr(p, '\n', (size_t)(end - p))); p++)
		n++;
	if (n > UINT_MAX)
		return NULL;
	uint32_t *off = sm_arena_alloc(A, n * sizeof(*off));
	if (!off)
		return NULL;
	size_t k = 0;
	off[k++] = 0;
	for (const char *p = text, *end = text + textlen; (p = memchr(p, '\n', (size_t)(end - p))); p++)
		off[k++] = (uint32_t)(p - text + 1);
	*nlines = (unsigned)n;
	return off;
}

const char *sm_text_line_in(const char *text, size_t textlen, const uint32_t *off, unsigned n, unsigned line,
			    size_t *len)
{
	if (!off)
		return sm_text_line(text, textlen, line, len);
	*len = 0;
	if (!text || line == 0 || line > n)
		return NULL;
	size_t pos = off[line - 1];
	return sm_text_next_line(text, textlen, &pos, len);
}

size_t sm_text_offset(const char *text, size_t textlen, unsigned line, unsigned col)
{
	size_t off = line_start(text, textlen, line);
	if (off == SM_TEXT_NPOS || col == 0 || (size_t)col - 1 > textlen - off)
		return SM_TEXT_NPOS;
	return off + col - 1;
}

const char *sm_text_span(const char *text, size_t textlen, unsigned line1, unsigned col1, unsigned line2,
			 unsigned col2, size_t *len)
{
	*len = 0;
	size_t b = sm_text_offset(text, textlen, line1, col1);
	size_t e = sm_text_offset(text, textlen, line2, col2);
	if (b == SM_TEXT_NPOS || e == SM_TEXT_NPOS || e <= b)
		return NULL;
	*len = e - b;
	return text + b;
}

const char *sm_text_next_line(const char *text, size_t textlen, size_t *pos, size_t *len)
{
	*len = 0;
	if (!text || *pos >= textlen)
		return NULL;
	const char *p = text + *pos, *end = text + textlen;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
	*pos = nl ? (size_t)(nl - text) + 1 : textlen;
	if (n && p[n - 1] == '\r')
		n--;
	*len = n;
	return p;
}

void sm_text_advance(const char *text, size_t from, size_t to, unsigned *line, size_t *bol)
{
	while (from < to) {
		const char *nl = memchr(text + from, '\n', to - from);
		if (!nl)
			return;
		(*line)++;
		from = (size_t)(nl - text) + 1;
		*bol = from;
	}
}

/* a byte inside a UTF-8 sequence (not its first) */
static int continuation(unsigned char c)
{
	return (c & 0xC0) == 0x80;
}

void sm_text_window(const char *line, size_t len, size_t b, size_t *from, size_t *to)
{
	*from = 0;
	*to = len;
	if (len <= SM_QUOTE_BYTES)
		return;
	if (b > len)
		b = len;
	/* a quarter of the window before the range, the rest from its start */
	size_t lead = SM_QUOTE_BYTES / 4;
	size_t f = b > lead ? b - lead : 0;
	if (f + SM_QUOTE_BYTES > len)
		f = len - SM_QUOTE_BYTES;
	size_t t = f + SM_QUOTE_BYTES;
	while (f > 0 && f < len && continuation((unsigned char)line[f]))
		f++;
	while (t < len && t > f && continuation((unsigned char)line[t]))
		t--;
	*from = f;
	*to = t;
}

void sm_text_put_safe(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			putc(c, out);
	}
}

/* Length of the valid UTF-8 sequence at s (RFC 3629: no overlongs, no
 * surrogates, nothing above U+10FFFF), or 0. */
size_t sm_utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	if (c < 0x80)
		return 1;
	size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F) || (c == 0xF0 && s[1] < 0x90) ||
	    (c == 0xF4 && s[1] > 0x8F))
		return 0;
	return n;
}

uint64_t sm_fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	for (size_t i = 0; i < n; i++) {
		h ^= s[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

uint64_t sm_fnv_str(uint64_t h, const char *s)
{
	if (s)
		h = sm_fnv(h, s, strlen(s));
	return sm_fnv(h, "\0", 1);
}
