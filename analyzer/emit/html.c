/* emit_html.c - a self-contained HTML report (--html FILE): inline CSS, a
 * few lines of inline script for the rule filter, no external assets. Each
 * bank conflict with a recorded worst warp gets an SVG map of lanes x banks
 * (as the text map of --show-banks): a cell per 4-byte word a lane touches,
 * coloured by the 128-byte row of the word, so that a bank column with
 * several colours is a conflict. Every string from the input is escaped. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "emit/emit.h"
#include "emit/quote.h"
#include "rules/rules.h"
#include "base/text.h"
#include "driver/report.h"

/* s[0..n) as HTML text, valid for any bytes: markup characters as
 * entities, control bytes (but tab and newline) as a visible \xNN, bytes
 * that are not UTF-8 as U+FFFD. */
static void esc(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; s && i < n && s[i];) {
		unsigned char c = (unsigned char)s[i];
		size_t k = c >= 0x80 ? sm_utf8_len((const unsigned char *)s + i) : 1;
		if (k == 0 || i + k > n) {
			fputs("\xEF\xBF\xBD", out);
			i++;
			continue;
		}
		switch (c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
				fprintf(out, "\\x%02X", c);
			else
				fwrite(s + i, 1, k, out);
		}
		i += k;
	}
}

static void esc_s(FILE *out, const char *s)
{
	esc(out, s, s ? strlen(s) : 0);
}

static const char *const palette[10] = { "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
					 "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac" };

static int64_t floordiv(int64_t a, int64_t b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* The SVG map of d's worst warp. */
static void bank_svg(FILE *out, const struct sm_diag *d)
{
	enum { CW = 18, CH = 16, LM = 58, TM = 34, BM = 40 };
	int lanes[32], nl = 0;
	for (int l = 0; l < 32; l++)
		if (d->bank_mask & (1u << l))
			lanes[nl++] = l;
	/* distinct words per bank: the wavefronts that bank needs */
	int64_t words[32][32];
	int nwords[32] = { 0 };
	unsigned per = d->width >= 16 ? 4 : d->width >= 8 ? 2 : 1;
	for (int i = 0; i < nl; i++)
		for (unsigned k = 0; k < per; k++) {
			int64_t w = floordiv(d->bank_addr[lanes[i]], 4) + (int64_t)k;
			int b = (int)(((w % 32) + 32) % 32);
			int seen = 0;
			for (int j = 0; j < nwords[b]; j++)
				seen |= words[b][j] == w;
			if (!seen && nwords[b] < 32)
				words[b][nwords[b]++] = w;
		}
	int worst = 0;
	for (int b = 0; b < 32; b++)
		worst = nwords[b] > worst ? nwords[b] : worst;
	int W = LM + 32 * CW + 8, H = TM + nl * CH + BM;
	fprintf(out,
		"<svg class=\"bankmap\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"role=\"img\" aria-label=\"bank map of the worst warp: %d lanes by 32 banks\">\n",
		W, H, W, H, nl);
	fprintf(out, "<title>bank map of the worst warp (lanes x banks)</title>\n");
	fprintf(out, "<text x=\"%d\" y=\"12\" class=\"axis\">bank</text>\n", LM);
	for (int b = 0; b < 32; b++) {
		if (nwords[b] == worst && worst > 1)
			fprintf(out, "<rect class=\"hot\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n", LM + b * CW,
				TM - 4, CW, nl * CH + 8);
		fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"axis\" text-anchor=\"middle\">%d</text>\n",
			LM + b * CW + CW / 2, TM - 8, b);
	}
	for (int i = 0; i < nl; i++) {
		int y = TM + i * CH;
		fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"axis\" text-anchor=\"end\">lane %d</text>\n", LM - 6,
			y + CH - 4, lanes[i]);
		for (int b = 0; b < 32; b++)
			fprintf(out, "<rect class=\"idle\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n", LM + b * CW + 1,
				y + 1, CW - 2, CH - 2);
		for (unsigned k = 0; k < per; k++) {
			int64_t w = floordiv(d->bank_addr[lanes[i]], 4) + (int64_t)k;
			int b = (int)(((w % 32) + 32) % 32);
			int row = (int)(((floordiv(w, 32) % 10) + 10) % 10);
			fprintf(out,
				"<rect class=\"word\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\">"
				"<title>lane %d: byte offset %lld, bank %d, word %lld</title></rect>\n",
				LM + b * CW + 1, y + 1, CW - 2, CH - 2, palette[row], lanes[i],
				(long long)d->bank_addr[lanes[i]] + 4 * (long long)k, b, (long long)w);
			fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"cell\" text-anchor=\"middle\">%d</text>\n",
				LM + b * CW + CW / 2, y + CH - 4, row);
		}
	}
	int yb = TM + nl * CH + 16;
	fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"axis\" text-anchor=\"end\">words</text>\n", LM - 6, yb);
	for (int b = 0; b < 32; b++)
		if (nwords[b])
			fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"axis%s\" text-anchor=\"middle\">%d</text>\n",
				LM + b * CW + CW / 2, yb, nwords[b] == worst && worst > 1 ? " hotlabel" : "", nwords[b]);
	fprintf(out, "</svg>\n");
}

static void source_line(FILE *out, const struct sm_result *r, struct sm_range rg)
{
	struct sm_quote q;
	if (!sm_quote_of(r, rg, &q))
		return;
	fprintf(out, "<pre class=\"src\"><span class=\"ln\">%u</span> %s", q.line, q.from ? "..." : "");
	esc(out, q.s + q.from, q.b - q.from);
	fputs("<mark>", out);
	esc(out, q.s + q.b, q.e - q.b);
	fputs("</mark>", out);
	esc(out, q.s + q.e, q.to - q.e);
	fputs(q.to < q.len ? "...</pre>\n" : "</pre>\n", out);
}

static const char CSS[] =
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px;color:#1f2328;background:#fff}"
	"h1{font-size:22px;margin:0 0 8px}h2{font-size:16px;margin:24px 0 8px;font-family:ui-monospace,monospace}"
	".summary{margin:0 0 12px;color:#444}.summary td,.summary th{padding:2px 12px 2px 0;text-align:left}"
	".finding{border:1px solid #d0d7de;border-left:6px solid #bf8700;border-radius:6px;padding:10px 14px;margin:10px 0}"
	".finding.error{border-left-color:#cf222e}.finding.note{border-left-color:#0969da}"
	".finding.assumed{border-left-color:#8c959f}"
	".loc{font-family:ui-monospace,monospace;color:#57606a}.rule{font-family:ui-monospace,monospace;"
	"background:#eaeef2;border-radius:10px;padding:1px 8px;margin-left:6px}"
	".lvl{font-weight:600;text-transform:uppercase;font-size:12px}.msg{margin:6px 0}"
	"pre.src{background:#f6f8fa;padding:6px 10px;border-radius:4px;overflow-x:auto;margin:6px 0}"
	"pre.src mark{background:#ffd8b5}.ln{color:#8c959f;user-select:none}"
	".rel,.fix{font-size:13px;color:#444;margin:2px 0}.fix code{background:#eaeef2;padding:0 4px}"
	"svg.bankmap{display:block;margin:8px 0;font-family:ui-monospace,monospace}"
	"svg .axis{font-size:10px;fill:#57606a}svg .hotlabel{fill:#cf222e;font-weight:700}"
	"svg .cell{font-size:9px;fill:#fff;pointer-events:none}svg .idle{fill:#eef1f4;fill-opacity:.55}"
	"svg .hot{fill:#ffebe9}.legend{font-size:12px;color:#57606a}.notes li{font-family:ui-monospace,monospace}"
	"select{font:inherit;margin-left:6px}";

static const char JS[] =
	"(function(){var s=document.getElementById('rule-filter');"
	"function apply(){var v=s.value;var shown=0;"
	"document.querySelectorAll('.finding').forEach(function(e){var h=v!==''&&e.getAttribute('data-rule')!==v;"
	"e.hidden=h;if(!h)shown++;});document.getElementById('shown').textContent=String(shown);}"
	"s.addEventListener('change',apply);apply();document.body.setAttribute('data-ready','1');})();";

int sm_emit_html(FILE *out, struct sm_result *const *res, unsigned n, const struct sm_emit_options *o)
{
	unsigned count[SM_RULE__COUNT] = { 0 }, total = 0, nnotes = 0;
	for (unsigned f = 0; f < n; f++) {
		for (unsigned i = 0; i < res[f]->ndiags; i++) {
			count[res[f]->diags[i].rule]++;
			total++;
		}
		nnotes += res[f]->nnotes;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>smemlint report</title>\n<style>",
	      out);
	fputs(CSS, out);
	fputs("</style>\n</head>\n<body>\n<h1>smemlint report</h1>\n", out);
	fprintf(out, "<p class=\"summary\">%u finding%s in %u file%s", total, total == 1 ? "" : "s", n, n == 1 ? "" : "s");
	if (o && o->version) {
		fputs(" &middot; smemlint ", out);
		esc_s(out, o->version);
	}
	fputs("</p>\n<table class=\"summary\"><tr><th>rule</th><th>findings</th></tr>\n", out);
	for (int r = 0; r < SM_RULE__COUNT; r++)
		if (count[r])
			fprintf(out, "<tr><td>%s</td><td>%u</td></tr>\n", sm_rules[r].id, count[r]);
	fputs("</table>\n<p><label>show rule<select id=\"rule-filter\"><option value=\"\">all</option>", out);
	for (int r = 0; r < SM_RULE__COUNT; r++)
		if (count[r])
			fprintf(out, "<option value=\"%s\">%s</option>", sm_rules[r].id, sm_rules[r].id);
	fputs("</select></label> &middot; <span id=\"shown\"></span> shown</p>\n", out);
	if (nnotes) {
		fputs("<h2>input problems</h2>\n<ul class=\"notes\">\n", out);
		for (unsigned f = 0; f < n; f++)
			for (unsigned i = 0; i < res[f]->nnotes; i++) {
				const struct sm_notification *nt = &res[f]->notes[i];
				fprintf(out, "<li>%s: ", sm_level_name(nt->level));
				esc_s(out, nt->message);
				fputs("</li>\n", out);
			}
		fputs("</ul>\n", out);
	}
	for (unsigned f = 0; f < n; f++) {
		const struct sm_result *r = res[f];
		if (!r->ndiags)
			continue;
		char rp[PATH_MAX];
		sm_report_path(r->path, rp, sizeof(rp));
		fputs("<section class=\"file\">\n<h2>", out);
		esc_s(out, rp);
		fputs("</h2>\n", out);
		for (unsigned i = 0; i < r->ndiags; i++) {
			const struct sm_diag *d = &r->diags[i];
			fprintf(out, "<article class=\"finding %s\" data-rule=\"%s\">\n", sm_level_name(d->level),
				sm_rules[d->rule].id);
			fprintf(out, "<div><span class=\"lvl\">%s</span> <span class=\"loc\">", sm_level_name(d->level));
			esc_s(out, rp);
			fprintf(out, ":%u:%u</span><span class=\"rule\">%s</span></div>\n", d->range.begin.line,
				d->range.begin.col, sm_rules[d->rule].id);
			fputs("<p class=\"msg\">", out);
			esc_s(out, d->message);
			fputs("</p>\n", out);
			source_line(out, r, d->range);
			for (int k = 0; k < d->nrelated && k < SM_MAX_RELATED; k++) {
				fprintf(out, "<p class=\"rel\">line %u: ", d->related[k].range.begin.line);
				esc_s(out, d->related[k].message);
				fputs("</p>\n", out);
			}
			if (d->note) {
				fputs("<p class=\"fix\">", out);
				esc_s(out, d->note);
				fputs("</p>\n", out);
			}
			for (unsigned k = 0; d->fix.text && k <= d->nfix_more; k++) {
				const struct sm_fixit *fx = k ? &d->fix_more[k - 1] : &d->fix;
				fprintf(out, "<p class=\"fix\">fix-it at %u:%u: <code>", fx->range.begin.line,
					fx->range.begin.col);
				esc_s(out, fx->text);
				fputs("</code></p>\n", out);
			}
			if (d->rule == SM_RULE_BANK_CONFLICT && d->bank_addr && d->bank_mask) {
				bank_svg(out, d);
				fputs("<p class=\"legend\">Rows: the active lanes of the worst warp; columns: banks. "
				      "A cell is a 4-byte word the lane touches, coloured and numbered by its 128-byte row "
				      "(mod 10): one colour per bank is free (broadcast), several colours in a bank are "
				      "serialized. The bottom line counts the distinct words per bank; the worst banks "
				      "are shaded.</p>\n",
				      out);
			}
			fputs("</article>\n", out);
		}
		fputs("</section>\n", out);
	}
	if (!total)
		fputs("<p>No findings.</p>\n", out);
	fputs("<script>", out);
	fputs(JS, out);
	fputs("</script>\n</body>\n</html>\n", out);
	return ferror(out) ? -1 : 0;
}
