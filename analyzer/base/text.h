/* text.h - source text by line: what every report, suppression, rule and
 * fix needs from the contents of an analyzed file. No allocation.
 *
 * Lines and columns are 1-based and count bytes, as libclang reports them;
 * a line ends at '\n'. The one walker over a file's lines lives in text.c:
 * code elsewhere asks for a line, an offset or a span here rather than
 * counting newlines itself. */
#ifndef SMEMLINT_BASE_TEXT_H
#define SMEMLINT_BASE_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* "no such position": what sm_text_offset returns for one not in the text */
#define SM_TEXT_NPOS ((size_t)-1)

/* The text of line `line` (1-based) of text[0..textlen), without its
 * newline (nor a '\r' before it); *len is set to its length. NULL (and
 * *len 0) when the line does not exist. */
const char *sm_text_line(const char *text, size_t textlen, unsigned line, size_t *len);

/* A file's line index: where each line begins, so that asking for line N
 * costs no walk over the lines before it (a report asks once per finding,
 * and a file may hold 100,000 suppressions, each quoted). off[k] is the
 * offset of line k + 1, for every line sm_text_line can return and the
 * empty one after a final newline; *n lines. Built in A; NULL when A runs
 * out or text is longer than 4 GiB (sm_text_line_in then walks). */
struct sm_arena;
const uint32_t *sm_text_lines_index(const char *text, size_t textlen, struct sm_arena *A, unsigned *n);

/* sm_text_line through the index off[0..n) of the same text (off NULL:
 * walks, as sm_text_line) */
const char *sm_text_line_in(const char *text, size_t textlen, const uint32_t *off, unsigned n, unsigned line,
			    size_t *len);

/* The byte offset of line:col in text[0..textlen): the start of the line
 * plus col - 1 (which may run on past the end of that line). SM_TEXT_NPOS
 * when line or col is 0, the line does not exist, or the offset lies past
 * textlen. The empty line after a final newline exists (its col 1 is
 * textlen). */
size_t sm_text_offset(const char *text, size_t textlen, unsigned line, unsigned col);

/* The text from line1:col1 up to (not including) line2:col2, as a pointer
 * into text; *len is set to its length. NULL (and *len 0) when either
 * position is not in the text (see sm_text_offset) or the span is empty. */
const char *sm_text_span(const char *text, size_t textlen, unsigned line1, unsigned col1, unsigned line2,
			 unsigned col2, size_t *len);

/* Iterate over the lines of text[0..textlen): *pos is the offset where the
 * next line starts (0 at first). Returns that line, without its newline
 * (nor a '\r' before it), sets *len to its length and moves *pos past it;
 * NULL at the end. A last line without a newline counts; nothing after a
 * final newline does.
 *
 *	size_t pos = 0, n;
 *	for (const char *l; (l = sm_text_next_line(t, tlen, &pos, &n));)
 *		...
 */
const char *sm_text_next_line(const char *text, size_t textlen, size_t *pos, size_t *len);

/* The part of a line of len bytes to quote under a finding whose range
 * on it begins at byte b: the whole line when it has at most SM_QUOTE_BYTES
 * bytes, else a window of at most that many around b, the start of the range
 * (as clang does), never splitting a UTF-8 sequence. Sets [*from, *to);
 * the range, clipped to it, is what a caret marks. A report is then
 * linear in its findings, whatever the length of the lines. */
void sm_text_window(const char *line, size_t len, size_t b, size_t *from, size_t *to);

/* Carry a line count over text[from..to): *line grows by one per newline
 * there, and *bol (the offset where the current line begins) becomes the
 * offset after the last one. For lexers that step over several lines at
 * once (block comments, raw strings). */
void sm_text_advance(const char *text, size_t from, size_t to, unsigned *line, size_t *bol);


/* Write s[0..n) (n SIZE_MAX: up to its NUL) to out for a terminal or a CI
 * log: a control byte (below 0x20 but tab, and 0x7f) is written as \xNN,
 * so that a hostile file name or source line cannot move the cursor,
 * recolour the terminal or start a line of its own (a forged
 * `::error` workflow command). */
void sm_text_put_safe(FILE *out, const char *s, size_t n);

/* Length of the valid UTF-8 sequence at s (RFC 3629: no overlongs, no
 * surrogates, nothing above U+10FFFF), or 0 (s[0] == 0 counts 1). */
size_t sm_utf8_len(const unsigned char *s);

/* 64-bit FNV-1a of n bytes at p, continuing from h (start from
 * SM_FNV_OFFSET); sm_fnv_str hashes a string (NULL as "") and a
 * separator after it, so that ("ab","c") and ("a","bc") differ. Used for
 * fingerprints and for grouping findings by cause. */
#define SM_FNV_OFFSET 0xcbf29ce484222325ull
uint64_t sm_fnv(uint64_t h, const void *p, size_t n);
uint64_t sm_fnv_str(uint64_t h, const char *s);
#endif
