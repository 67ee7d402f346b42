/* emit_github.c - GitHub Actions workflow commands, one line per finding:
 *   ::warning file=F,line=L,col=C,endLine=L2,endColumn=C2,title=T::MESSAGE
 * Data (the message) escapes % CR LF; property values also escape : and ,
 * (as @actions/core's escapeData and escapeProperty); any other control
 * byte is written %XX too, so that ESC never reaches the log. */
#include <limits.h>
#include <string.h>

#include "emit/emit.h"
#include "rules/rules.h"
#include "driver/report.h"

static void put_escaped(FILE *out, const char *s, int property)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '%': fputs("%25", out); break;
		case '\r': fputs("%0D", out); break;
		case '\n': fputs("%0A", out); break;
		case ':': property ? fputs("%3A", out) : fputc(':', out); break;
		case ',': property ? fputs("%2C", out) : fputc(',', out); break;
		default:
			/* other control bytes (ESC...) never reach the CI log raw;
			 * the runner shows %1B as it is */
			if (((unsigned char)*s < 0x20 && *s != '\t') || *s == 0x7f)
				fprintf(out, "%%%02X", (unsigned char)*s);
			else
				fputc(*s, out);
		}
	}
}

/* The workflow command of a level: notes and assumed findings are notices. */
static const char *command(enum sm_level l)
{
	return l == SM_LEVEL_ERROR ? "error" : l == SM_LEVEL_WARNING ? "warning" : "notice";
}

int sm_emit_github(FILE *out, struct sm_result *const *res, unsigned n, const struct sm_emit_options *o)
{
	return sm_emit_streamed(sm_emitter_find("github"), out, res, n, o);
}

int sm_emit_github_file(struct sm_emit_stream *st, const struct sm_result *r)
{
	FILE *out = st->out;
	char rp[PATH_MAX];
	sm_report_path(r->path, rp, sizeof(rp));
	for (unsigned i = 0; i < r->nnotes; i++) {
		const struct sm_notification *nt = &r->notes[i];
		fprintf(out, "::%s file=", command(nt->level));
		put_escaped(out, rp, 1);
		if (nt->pos.line)
			fprintf(out, ",line=%u", nt->pos.line);
		fputs(",title=smemlint::", out);
		put_escaped(out, nt->message, 0);
		fputc('\n', out);
	}
	for (unsigned i = 0; i < r->ndiags; i++) {
		const struct sm_diag *d = &r->diags[i];
		fprintf(out, "::%s file=", command(d->level));
		put_escaped(out, rp, 1);
		/* columns in characters, as the annotations UI counts them */
		fprintf(out, ",line=%u,col=%u", d->range.begin.line,
			sm_utf16_col(r, d->range.begin.line, d->range.begin.col));
		if (d->range.end.line >= d->range.begin.line && d->range.end.col) {
			fprintf(out, ",endLine=%u", d->range.end.line);
			if (d->range.end.line == d->range.begin.line)
				fprintf(out, ",endColumn=%u", sm_utf16_col(r, d->range.end.line, d->range.end.col));
		}
		fputs(",title=", out);
		char title[128];
		snprintf(title, sizeof(title), "smemlint %s", sm_rules[d->rule].id);
		put_escaped(out, title, 1);
		fputs("::", out);
		put_escaped(out, d->message, 0);
		if (d->note) {
			put_escaped(out, "\n", 0);
			put_escaped(out, d->note, 0);
		}
		fputc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}

/* input errors tied to no file, after every file */
int sm_emit_github_end(struct sm_emit_stream *st)
{
	FILE *out = st->out;
	const struct sm_emit_options *o = st->o;
	for (unsigned i = 0; o && i < o->nerrors; i++) {
		fputs("::error title=smemlint::", out);
		put_escaped(out, o->errors[i], 0);
		fputc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}
