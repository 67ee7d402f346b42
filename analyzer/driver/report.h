/* report.h - what happens to findings between the analysis and the output:
 * inline suppressions, stable fingerprints, baselines, and the helpers the
 * machine-readable emitters share (report paths, UTF-16 columns).
 *
 * Order in the driver: suppress (sm_result_suppress), fingerprint
 * (sm_result_fingerprint), write the baseline, filter by the baseline. All
 * functions work on one sm_result and keep no global state. */
#ifndef SMEMLINT_REPORT_H
#define SMEMLINT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "driver/analyze.h"

/* The path as reports name it: relative to the current directory when the
 * file lies under it (no leading "./"), else absolute. */
void sm_report_path(const char *path, char *out, size_t n);

/* Append to out (size n) the URI-escaped form of path (RFC 3986: unreserved
 * characters and '/' kept, every other byte as %XX). */
void sm_uri_escape(const char *path, char *out, size_t n);

/* The 1-based UTF-16 column of 1-based byte column col on line `line` of
 * r's text (what SARIF's columnKind utf16CodeUnits asks for). Invalid UTF-8
 * bytes count one unit each; a column past the end of the line keeps its
 * distance from it. */
unsigned sm_utf16_col(const struct sm_result *r, unsigned line, unsigned col);

/* path relative to its project's root: the nearest directory above it
 * with a .git or a .smemlint.yaml; without one, sm_report_path (relative
 * to the current directory). What fingerprints hash, so that a baseline
 * matches from any working directory. */
void sm_project_path(const char *path, char *out, size_t n);

/* Stable fingerprints of findings: a 64-bit hash of the rule, the path
 * relative to the project (sm_project_path), the kernel, the array, the text of the finding's first line with
 * white space collapsed, and the rank of the finding among those of r that
 * share all of these. Line numbers are not part of it, so moving code keeps
 * it. out has r->ndiags entries. */
void sm_result_fingerprints(const struct sm_result *r, uint64_t *out);
/* As 16 lowercase hex digits. */
void sm_fingerprint_hex(uint64_t fp, char out[17]);

/* ---- inline suppressions ----
 *   // smemlint: ignore[rule,rule]   this line and the next
 *   // smemlint: ignore              every rule, this line and the next
 *   // NOLINT(smemlint-rule,...)     this line (NOLINT alone: every rule)
 *   // NOLINTNEXTLINE(smemlint-rule) the next line
 * Remove the findings of r they cover. With report_unused, each one that
 * covered nothing becomes a finding of rule unused-suppression at level
 * levels[SM_RULE_UNUSED_SUPPRESSION] (none: not reported). Not reported:
 * bare NOLINT (other tools use it too), NOLINT naming only other tools'
 * checks, and suppressions whose rules are all disabled in levels (NULL:
 * all enabled). Unknown rule names become warnings in r's notes. Returns
 * the number of findings removed. */
unsigned sm_result_suppress(struct sm_result *r, bool report_unused, const enum sm_level *levels);

/* ---- baselines ----
 * A JSON file {"version": 1, "findings": [{"fingerprint", "rule", "file",
 * "line", "message"}, ...]}; only fingerprint is used for matching, the
 * rest is for people reading it. */
struct sm_baseline {
	uint64_t *fp;     /* sorted */
	size_t n;
};

int sm_baseline_load(const char *path, struct sm_baseline *b, char *err, size_t errlen);
void sm_baseline_free(struct sm_baseline *b);
struct sm_write_faults;
/* Write the findings of res[0..n) (atomically); faults: failures a test
 * injects (NULL: none). */
int sm_baseline_write(const char *path, const struct sm_write_faults *faults, struct sm_result *const *res, unsigned n,
		      char *err, size_t errlen);
/* Remove from r the findings whose fingerprint is in b; returns how many. */
unsigned sm_result_filter_baseline(struct sm_result *r, const struct sm_baseline *b);

#endif
