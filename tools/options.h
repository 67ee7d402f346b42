/* options.h - command-line options as data (as git's parse-options): a
 * table of rows, each with its spelling, its value, what it does and its
 * --help line. The same table parses argv and prints --help. */
#ifndef SMEMLINT_TOOLS_OPTIONS_H
#define SMEMLINT_TOOLS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A handler returns 0 to go on, or 1 to stop parsing. */
typedef int (*sm_opt_fn)(void *ctx, const char *val);

/* What an option does: call its handler, or store its value (STR) or
 * true (BOOL) into the field at `field` of one of two targets: the
 * command's own state (0) or the settings it fills (1). */
enum sm_opt_kind { SM_OPT_CALL, SM_OPT_STR, SM_OPT_BOOL };

struct sm_opt {
	const char *name;        /* "--format", "-o" */
	const char *alias;       /* another spelling ("--output"), or NULL */
	const char *value;       /* what the value is called in --help; NULL: a flag */
	enum sm_opt_kind kind;
	int target;              /* STR/BOOL: 0 the command's state, 1 its settings */
	size_t field;            /* STR/BOOL: offset of the field in the target */
	sm_opt_fn fn;            /* CALL */
	const char *help;        /* NULL: not listed in --help */
	const char *spelled;     /* the --help column when not "name value" */
	bool attached;           /* also "-jN" */
	void (*help_fn)(char *buf, size_t n); /* writes a help made at run time */
};

#define SM_OPT_CALL(n, v, f, h) { .name = n, .value = v, .kind = SM_OPT_CALL, .fn = f, .help = h }
#define SM_OPT_STR(t, type, n, v, f, h) \
	{ .name = n, .value = v, .kind = SM_OPT_STR, .target = t, .field = offsetof(type, f), .help = h }
#define SM_OPT_BOOL(t, type, n, f, h) \
	{ .name = n, .kind = SM_OPT_BOOL, .target = t, .field = offsetof(type, f), .help = h }

/* The command line being parsed. */
struct sm_args {
	int argc;
	char **argv;
	int i;                            /* the argument being parsed */
};

/* Find the option a->argv[a->i] names in tbl[0..n); a value in the next
 * argument advances a->i. Returns 1 with *out and *val set, 0 when no
 * option matches, -1 when the option's value is missing. */
int sm_opt_match(const struct sm_opt *tbl, size_t n, struct sm_args *a, const struct sm_opt **out, const char **val);

/* Carry out o: store into targets[o->target], or call o->fn(ctx, val). */
int sm_opt_apply(const struct sm_opt *o, void *const targets[2], void *ctx, const char *val);

/* The option lines of --help: name and value at two spaces, the help at
 * column 24 (its '\n's there too), made help wrapped at 79 columns. */
void sm_opt_help(FILE *f, const struct sm_opt *tbl, size_t n);

#endif
