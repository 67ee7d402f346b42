/* missing_headers.h - what a header that is not there costs: only what it
 * declared. A torch extension linted without torch (a CI lint step) names
 * torch/extension.h, ATen and c10; clang reports each as "file not found"
 * and then an error at every use of what they would have declared. The
 * file is then reported once, as partly parsed (the problem
 * missing-header, naming the headers), and:
 *   - every error clang gives after a missing header is taken to follow
 *     from it (clang cannot tell the two apart), folded into that one
 *     report, except the ones the nvcc dialect table knows;
 *   - a kernel or __device__ function whose definition holds such an
 *     error, or that follows a call into one, is not analyzed: its
 *     findings would rest on a declaration nobody has seen (nothing is
 *     invented); the report names it;
 *   - every other kernel and device function is analyzed as usual, and
 *     host code that parsed still gives its launches.
 * A file with no missing header pays one pass over clang's diagnostics. */
#ifndef SMEMLINT_FRONT_MISSING_HEADERS_H
#define SMEMLINT_FRONT_MISSING_HEADERS_H

#include <stdbool.h>

#include <clang-c/Index.h>

struct fe;

/* Scan tu's diagnostics for headers not found; when there are any, keep
 * them and the position of every other error in S (S->miss). Returns the
 * number of headers missing. */
unsigned cv_missing_scan(struct fe *S);

/* Does the definition fn hold one of the errors kept (S->miss)? false
 * when no header is missing. */
bool cv_missing_taints(struct fe *S, CXCursor fn);

/* The function name was not analyzed because it rests on what a missing
 * header declares (kept for the report; names repeated once). */
void cv_missing_dropped(struct fe *S, const char *name);

/* The missing-header note's message, once conversion is done: the headers,
 * the errors folded, the functions not analyzed. NULL without missing
 * headers. */
const char *cv_missing_message(struct fe *S);

#endif
