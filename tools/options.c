/* options.c - parsing argv against an option table, and --help from it
 * (see options.h). */
#include "options.h"

#include <string.h>

int sm_opt_match(const struct sm_opt *tbl, size_t n, struct sm_args *args, const struct sm_opt **out, const char **val)
{
	const char *a = args->argv[args->i];
	for (size_t k = 0; k < n; k++) {
		const struct sm_opt *o = &tbl[k];
		const char *names[2] = { o->name, o->alias };
		for (int j = 0; j < 2 && names[j]; j++) {
			size_t len = strlen(names[j]);
			if (strncmp(a, names[j], len) || (a[len] && !o->value))
				continue;
			*out = o;
			if (!o->value)
				return 1;
			if (!a[len]) {
				if (args->i + 1 >= args->argc)
					return -1;
				*val = args->argv[++args->i];
				return 1;
			}
			if (a[len] == '=' || o->attached) {
				*val = a + len + (a[len] == '=');
				return 1;
			}
		}
	}
	return 0;
}

int sm_opt_apply(const struct sm_opt *o, void *const targets[2], void *ctx, const char *val)
{
	char *field = (char *)targets[o->target ? 1 : 0] + o->field;
	switch (o->kind) {
	case SM_OPT_STR:
		*(const char **)field = val;
		return 0;
	case SM_OPT_BOOL:
		*(bool *)field = true;
		return 0;
	case SM_OPT_CALL:
		break;
	}
	return o->fn(ctx, val);
}

#define HELP_COLUMN 24
#define HELP_WIDTH 79

/* text from column `col` on: its lines ('\n') at HELP_COLUMN, and when
 * wrap, words past HELP_WIDTH on a new line too */
static void help_text(FILE *f, const char *text, int col, bool wrap)
{
	bool first = true;
	for (const char *p = text; *p;) {
		size_t wl = strcspn(p, " \n");
		if (!first && (*p == '\n' || (wrap && col + 1 + (int)wl > HELP_WIDTH))) {
			fprintf(f, "\n%*s", HELP_COLUMN, "");
			col = HELP_COLUMN;
			first = true;
			if (*p == '\n' || *p == ' ')
				p++;
			continue;
		}
		if (*p == ' ' || *p == '\n') {
			p++;
			continue;
		}
		if (!first) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)wl, p);
		col += (int)wl;
		p += wl;
		first = false;
	}
	fputc('\n', f);
}

void sm_opt_help(FILE *f, const struct sm_opt *tbl, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		const struct sm_opt *o = &tbl[k];
		if (!o->help)
			continue;
		char left[96], made[512];
		if (o->spelled)
			snprintf(left, sizeof(left), "  %s", o->spelled);
		else
			snprintf(left, sizeof(left), "  %s%s%s", o->name, o->value ? " " : "", o->value ? o->value : "");
		const char *help = o->help;
		if (o->help_fn) {
			o->help_fn(made, sizeof(made));
			help = made;
		}
		int col = (int)strlen(left);
		int pad = col < HELP_COLUMN ? HELP_COLUMN - col : 2;
		fprintf(f, "%s%*s", left, pad, "");
		help_text(f, help, col + pad, o->help_fn != NULL);
	}
}
