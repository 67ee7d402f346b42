/* text.h - source text by line: what every report, suppression and fix
 * needs from the contents of an analyzed file. No allocation. */
#ifndef SMEMLINT_BASE_TEXT_H
#define SMEMLINT_BASE_TEXT_H

#include <stddef.h>

/* The text of line `line` (1-based) of text[0..textlen), without its
 * newline (nor a '\r' before it); *len is set to its length. NULL (and
 * *len 0) when the line does not exist. */
const char *sm_text_line(const char *text, size_t textlen, unsigned line, size_t *len);

#endif
