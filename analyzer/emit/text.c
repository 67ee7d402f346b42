/* emit_text.c - gcc-style text: "file:line:col: warning: message [rule]",
 * then the source line and a caret range, then notes. With o->color, the
 * location is bold and the level coloured as clang does (error red,
 * warning magenta, note cyan). */
#include <stdint.h>
#include <string.h>

#include "base/text.h"
#include "emit/emit.h"
#include "emit/quote.h"
#include "rules/rules.h"

/* "LOC: LEVEL: " with colours when color */
static void head(FILE *out, bool color, const char *loc, const char *level)
{
	if (!color) {
		sm_text_put_safe(out, loc, SIZE_MAX);
		fprintf(out, ": %s: ", level);
		return;
	}
	const char *c = !strcmp(level, "error") ? "\033[1;31m" : !strcmp(level, "warning") ? "\033[1;35m" : "\033[1;36m";
	fputs("\033[1m", out);
	sm_text_put_safe(out, loc, SIZE_MAX);
	fprintf(out, ":\033[0m %s%s:\033[0m ", c, level);
}

static void caret(FILE *out, const struct sm_result *r, struct sm_range rg)
{
	struct sm_quote q;
	if (!sm_quote_of(r, rg, &q))
		return;
	const char *pre = q.from ? "..." : "", *post = q.to < q.len ? "..." : "";
	fprintf(out, "  %s", pre);
	sm_text_put_safe(out, q.s + q.from, q.to - q.from);
	fprintf(out, "%s\n  %s", post, q.from ? "   " : "");
	for (size_t i = q.from; i < q.b; i++)
		fputc(q.s[i] == '\t' ? '\t' : ' ', out);
	fputc('^', out);
	for (size_t i = q.b + 1; i < q.e; i++)
		fputc('~', out);
	fputc('\n', out);
}

static void bank_map(FILE *out, const struct sm_diag *d)
{
	if (!d->bank_addr)
		return;
	fprintf(out, "  bank map of the worst warp (rows: lanes, columns: banks 0-31; digit = word, '.' = idle):\n");
	fprintf(out, "          ");
	for (int b = 0; b < 32; b++)
		fputc(b % 10 == 0 ? '0' + (b / 10) : ' ', out);
	fputc('\n', out);
	for (int l = 0; l < 32; l++) {
		if (!(d->bank_mask & (1u << l)))
			continue;
		char row[33];
		memset(row, '.', 32);
		row[32] = 0;
		int64_t a = d->bank_addr[l];
		unsigned words = d->width >= 16 ? 4 : d->width >= 8 ? 2 : 1;
		for (unsigned k = 0; k < words; k++) {
			int64_t w = (a >= 0 ? a / 4 : (a - 3) / 4) + (int64_t)k;
			int bank = (int)(((w % 32) + 32) % 32);
			int64_t row_of_word = w >= 0 ? w / 32 : (w - 31) / 32;
			row[bank] = (char)('0' + (int)(((row_of_word % 10) + 10) % 10));
		}
		fprintf(out, "  lane %2d %s\n", l, row);
	}
}

int sm_emit_text(FILE *out, struct sm_result *const *res, unsigned n, const struct sm_emit_options *o)
{
	for (unsigned f = 0; f < n; f++) {
		struct sm_emit_stream st = { out, o, NULL };
		sm_emit_text_file(&st, res[f]);
	}
	return ferror(out) ? -1 : 0;
}

int sm_emit_text_file(struct sm_emit_stream *st, const struct sm_result *r)
{
	FILE *out = st->out;
	const struct sm_emit_options *o = st->o;
	bool color = o && o->color;
	char loc[4200];
	for (unsigned i = 0; i < r->nnotes; i++) {
		const struct sm_notification *nt = &r->notes[i];
		/* the problem's own level, as every other format prints it */
		const char *lv = sm_level_name(nt->level);
		if (nt->pos.line)
			snprintf(loc, sizeof(loc), "%s:%u:%u", r->path, nt->pos.line, nt->pos.col);
		else
			snprintf(loc, sizeof(loc), "smemlint");
		head(out, color, loc, lv);
		sm_text_put_safe(out, nt->message, SIZE_MAX);
		fputc('\n', out);
	}
	for (unsigned i = 0; i < r->ndiags; i++) {
		const struct sm_diag *d = &r->diags[i];
		snprintf(loc, sizeof(loc), "%s:%u:%u", r->path, d->range.begin.line, d->range.begin.col);
		head(out, color, loc, sm_level_name(d->level));
		sm_text_put_safe(out, d->message, SIZE_MAX);
		fprintf(out, " [%s]\n", sm_rules[d->rule].id);
		caret(out, r, d->range);
		if (o && o->show_banks && d->ways >= 2)
			bank_map(out, d);
		for (int k = 0; k < d->nrelated; k++) {
			snprintf(loc, sizeof(loc), "%s:%u:%u", r->path, d->related[k].range.begin.line,
				 d->related[k].range.begin.col);
			head(out, color, loc, "note");
			sm_text_put_safe(out, d->related[k].message, SIZE_MAX);
			fputc('\n', out);
		}
		if (d->note) {
			snprintf(loc, sizeof(loc), "%s:%u:%u", r->path, d->range.begin.line, d->range.begin.col);
			head(out, color, loc, "note");
			sm_text_put_safe(out, d->note, SIZE_MAX);
			fputc('\n', out);
		}
		for (unsigned k = 0; d->fix.text && k <= d->nfix_more; k++) {
			const struct sm_fixit *fx = k ? &d->fix_more[k - 1] : &d->fix;
			fputs("fix-it:\"", out);
			sm_text_put_safe(out, r->path, SIZE_MAX);
			fprintf(out, "\":{%u:%u-%u:%u}:\"%s\"\n", fx->range.begin.line, fx->range.begin.col,
				fx->range.end.line, fx->range.end.col, fx->text);
		}
	}
	return ferror(out) ? -1 : 0;
}
