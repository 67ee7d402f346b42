/* headers.h - findings in project headers (--header-filter), reported once.
 *
 * The front end converts the kernels and __device__ functions of the
 * project headers a file includes together with the file (so that the
 * file's macros and launches apply); their findings carry the header in
 * range.file. The driver then:
 *   1. keeps the file's header table in its result (sm_result_keep_headers,
 *      at the end of the analysis, while the IR still exists);
 *   2. moves the findings and access records located in a header out of
 *      the file's result into one result per header, named by the header's
 *      report path (sm_result_split_headers, once per file, before its
 *      suppressions are applied);
 *   3. merges those per-file parts, in input order, into one result per
 *      header for the whole run (sm_header_set_add): a finding equal in
 *      rule, header location and message (but for where its launch
 *      context came from: each includer has its launches) to one already
 *      there is dropped,
 *      so the first file in input order that reports it wins and the report
 *      does not depend on -j.
 * Everything after (suppressions read from the header's own text,
 * fingerprints of its project path, SARIF, --fix) sees an ordinary result
 * whose path is the header.
 */
#ifndef SMEMLINT_DRIVER_HEADERS_H
#define SMEMLINT_DRIVER_HEADERS_H

#include <stdbool.h>

#include "smemlint/ir.h"
#include "smemlint/result.h"

/* Do the messages of a and b say the same but for where their launch
 * contexts came from ("from the launch at a.cu:3" and "... b.cu:3": one
 * header finding seen through two includers, one template instantiated
 * twice)? The comparison's text is built in A. */
bool sm_diag_same_message(struct sm_arena *A, const struct sm_diag *a, const struct sm_diag *b);

/* Copy F's header table (paths and contents) into r's arena. */
void sm_result_keep_headers(struct sm_result *r, const struct sm_file *F);

/* Move what r holds in headers (range.file > 0) into new results, one per
 * header with anything in it, in header order: *parts (malloc'd, *nparts
 * of them; NULL and 0 when none). Related locations and fixes in another
 * file than their finding's are folded into the related message ("(at
 * FILE:LINE:COL)") or dropped (a fix). r's header table is cleared. Returns
 * 0, or -1 when out of memory (then nothing was moved). */
int sm_result_split_headers(struct sm_result *r, struct sm_result **parts, unsigned *nparts);

/* The run's header results, in order of first appearance. */
struct sm_header_set {
	struct sm_result **v;
	unsigned n, cap;
};

/* Merge part (a result of sm_result_split_headers) into the set: into the
 * result of the same header when there is one (findings and access
 * records already there are not repeated), else adopted as it is. part is
 * emptied either way (sm_result_free). Returns the header's result in the
 * set, or NULL when out of memory. */
struct sm_result *sm_header_set_add(struct sm_header_set *set, struct sm_result *part);
void sm_header_set_free(struct sm_header_set *set);

/* Are a and b the same file (by device and inode)? */
bool sm_same_file(const char *a, const char *b);

#endif
