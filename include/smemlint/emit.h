/* emit.h - output formats. Each emitter writes all results, already in a
 * deterministic order (files sorted, findings sorted), to a stream. */
#ifndef SMEMLINT_EMIT_H
#define SMEMLINT_EMIT_H

#include <stdbool.h>
#include <stdio.h>

#include "smemlint/analyze.h"

struct sm_emit_options {
	bool color;          /* ANSI colours in text output */
	bool show_banks;     /* text: lanes x banks map under each conflict */
	bool all_accesses;   /* json: include "accesses" */
};

int sm_emit_text(FILE *out, struct sm_result *const *res, unsigned n, const struct sm_emit_options *o);
int sm_emit_json(FILE *out, struct sm_result *const *res, unsigned n, const struct sm_emit_options *o);

/* The text of line `line` (1-based) of r's contents, without its newline. */
const char *sm_source_line(const struct sm_result *r, unsigned line, size_t *len);

#endif
