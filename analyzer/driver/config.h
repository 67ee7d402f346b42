/* config.h - .smemlint.yaml and the options that choose what is reported.
 *
 * A config file is found by walking up from each analyzed file's directory
 * (the nearest .smemlint.yaml wins) or given with --config. The command
 * line is a config too (path NULL), applied after the file's, so its flags
 * win. Keys (all optional):
 *
 *   rules: {bank-conflict: error, warp-sync: none}  # level per rule
 *   enable: [rule, ...]           disable: [rule, ...]
 *   block-dim: [32, 8]            arch: sm_80
 *   exclude: [third_party, "*.gen.cu"]  # globs, relative to its directory
 *   flags: ["-Iinclude", "-DTILE=32"]  # relative -I/-isystem against it too
 *   report-unused-suppressions: true
 *   header-filter: "/include/"    # like --header-filter ('' for none)
 *   analysis-budget: 2000000000   # like --analysis-budget (0: no limit)
 *
 * header-filter and analysis-budget apply to the files the config covers;
 * given on the command line, the option wins (session_files.c sm_session_file_options).
 */
#ifndef SMEMLINT_CONFIG_H
#define SMEMLINT_CONFIG_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "driver/analyze.h"
#include "base/fsutil.h"

#define SM_CONFIG_NAME ".smemlint.yaml"

struct sm_config {
	char *path;                           /* file read; NULL: the command line */
	char *dir;                            /* its directory (absolute), or NULL */
	enum sm_level levels[SM_RULE__COUNT]; /* valid where level_set */
	bool level_set[SM_RULE__COUNT];
	int8_t on[SM_RULE__COUNT];            /* -1 unset, 0 disable, 1 enable */
	struct sm_dim3 block;                 /* valid when has_block */
	bool has_block;
	char *arch;                           /* sm_NN, or NULL */
	struct sm_paths exclude;              /* globs */
	struct sm_paths flags;                /* compiler flags, -I made absolute */
	int report_unused;                    /* -1 unset, 0 or 1 */
	int fail_missing;                     /* fail-on-missing-headers: -1
	                                       * unset, 0 or 1 */
	char *header_filter;                  /* header-filter as written ("" for
	                                       * none), or NULL when unset */
	regex_t header_re;                    /* compiled, when have_header_re */
	bool have_header_re;                  /* set and not "" */
	uint64_t analysis_budget;             /* 0 unset; UINT64_MAX no limit */
};

void sm_config_init(struct sm_config *c);
void sm_config_free(struct sm_config *c);

/* Read a YAML config into c (initialized by the caller). Returns 0, or -1
 * with err naming the file, the line and the problem. */
int sm_config_load(const char *path, struct sm_config *c, char *err, size_t errlen);

/* The nearest .smemlint.yaml above file (its directory first). Returns 1
 * with out filled, or 0 when there is none. A config that another user
 * could have planted (owned by someone other than the user or root, or in
 * such a directory, or in a directory everyone may write without the
 * sticky bit) is skipped, and the search goes on above it; when ignored is
 * not NULL, a message for each skipped one is added to it. */
int sm_config_find(const char *file, char *out, size_t n, struct sm_paths *ignored);

/* Command-line style setters. list: "rule[,rule]"; spec: "rule=level[,...]"
 * with level error, warning, note or none. Return 0 or -1 (err filled). */
int sm_config_rules(struct sm_config *c, const char *list, bool enable, char *err, size_t errlen);
int sm_config_severity(struct sm_config *c, const char *spec, char *err, size_t errlen);
int sm_config_parse_level(const char *s, enum sm_level *out);
/* "X[,Y[,Z]]" (also "XxY"), at most 1024 threads. */
int sm_config_parse_block(const char *s, struct sm_dim3 *out);

/* Overlay c's levels, block shape and architecture onto o. */
void sm_config_apply(const struct sm_config *c, struct sm_analysis_options *o);

/* Does one of c's exclude globs match file? Globs are matched against the
 * path relative to c's directory, each of its leading directories, and the
 * base name. */
bool sm_config_excluded(const struct sm_config *c, const char *file);

/* The configuration in effect for one file, as --dump-config prints it. */
struct sm_config_view {
	const char *source;                 /* the config file it came from, or NULL */
	const struct sm_analysis_options *o; /* levels, block shape, arch, budget */
	const struct sm_paths *exclude;     /* the excludes (config's, then --exclude) */
	const struct sm_paths *flags;       /* the merged compiler flags */
	bool report_unused;                 /* --report-unused-suppressions in effect */
	bool fail_missing;                  /* --fail-on-missing-headers in effect */
	const char *header_filter;          /* the regex in effect; NULL or "": none */
};

/* "true"/"yes"/"on" 1, "false"/"no"/"off" 0, else -1 */
int sm_config_parse_bool(const char *b);

/* Print v as YAML that sm_config_load accepts, after a comment naming its
 * source. Returns 0, or -1 when it cannot be written. */
int sm_config_dump(FILE *out, const struct sm_config_view *v);

/* A header filter as --header-filter and the header-filter key take it:
 * compiled into re (POSIX extended). Returns 0, or -1 with regcomp's
 * reason in why. */
int sm_config_compile_filter(const char *src, regex_t *re, char *why, size_t n);

/* An analysis budget as --analysis-budget and the analysis-budget key take
 * it: a count of evaluation steps, 0 for no limit. Returns 0 with *out
 * set (UINT64_MAX for 0), or -1. */
int sm_config_parse_budget(const char *s, uint64_t *out);

/* Configs found by walking up, each read once (use from one thread). */
struct sm_config_cache {
	struct sm_config **v;
	unsigned n, cap;
	struct sm_paths ignored;  /* "ignoring config ..." for each one skipped, once each */
};

/* *out = the config that applies to file, or NULL when none. Returns 0, or
 * -1 when that config cannot be read (err filled). */
int sm_config_cache_lookup(struct sm_config_cache *cc, const char *file, const struct sm_config **out, char *err,
			   size_t errlen);
void sm_config_cache_free(struct sm_config_cache *cc);

#endif
