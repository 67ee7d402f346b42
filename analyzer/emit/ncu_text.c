/* ncu_text.c - the --compare-ncu report: per line, Nsight Compute's
 * measured degree (the worst instruction's shared wavefronts / ideal)
 * beside smemlint's predicted one, the verdict, the measured wavefronts
 * and ideal beside the predicted per-launch ones, and why the degrees
 * differ; then the agreement over the measured lines. */
#include "emit/ncu_text.h"

#include "base/text.h"

#include <stdio.h>
#include <string.h>

static void deg(FILE *out, double d)
{
	if (d < 0)
		fprintf(out, "%10s", "-");
	else
		fprintf(out, "%10.2f", d);
}

/* "4096/128": wavefronts and their ideal; "-" when not known */
static void counts(FILE *out, double wf, double ideal)
{
	char buf[48];
	if (wf < 0)
		snprintf(buf, sizeof(buf), "-");
	else
		snprintf(buf, sizeof(buf), "%.0f/%.0f", wf, ideal);
	fprintf(out, "%15s", buf);
}

int sm_emit_ncu(FILE *out, const struct sm_result *r, const struct sm_ncu_row *rows, int n, unsigned blocks,
		unsigned *differ)
{
	unsigned count[SM_NCU_UNMEASURED + 1] = { 0 };
	fputs("compare-ncu: ", out);
	sm_text_put_safe(out, r->path, strlen(r->path));
	fprintf(out, " (%u block%s of the export%s)\n", blocks, blocks == 1 ? "" : "s",
		blocks ? "" : ": none is about this file");
	fprintf(out, "%6s %10s %10s %10s  %-12s %15s %15s  %s\n", "line", "measured", "predicted", "mean", "verdict",
		"wavefronts", "predicted", "why");
	for (int i = 0; i < n; i++) {
		const struct sm_ncu_row *w = &rows[i];
		count[w->verdict]++;
		fprintf(out, "%6u ", w->line);
		deg(out, w->measured);
		fputc(' ', out);
		deg(out, w->predicted);
		fputc(' ', out);
		deg(out, w->mean);
		fprintf(out, "  %-12s ", sm_ncu_verdict_name(w->verdict));
		counts(out, w->instructions ? w->wavefronts : -1, w->ideal);
		fputc(' ', out);
		counts(out, w->pred_wavefronts, w->pred_ideal);
		fputs("  ", out);
		sm_text_put_safe(out, w->why ? w->why : "", w->why ? strlen(w->why) : 0);
		fputc('\n', out);
	}
	unsigned lines = n - count[SM_NCU_UNMEASURED];
	unsigned agree = count[SM_NCU_EXACT] + count[SM_NCU_EXACT_MEAN];
	*differ = count[SM_NCU_OVER] + count[SM_NCU_UNDER] + count[SM_NCU_UNPREDICTED];
	fprintf(out,
		"compare-ncu: %u measured line%s, %u agree (%u by the mean), %u over, %u under, %u unpredicted; "
		"%u predicted line%s not measured; agreement %.1f%%\n",
		lines, lines == 1 ? "" : "s", agree, count[SM_NCU_EXACT_MEAN], count[SM_NCU_OVER], count[SM_NCU_UNDER],
		count[SM_NCU_UNPREDICTED], count[SM_NCU_UNMEASURED], count[SM_NCU_UNMEASURED] == 1 ? "" : "s",
		lines ? 100.0 * agree / lines : 100.0);
	return ferror(out) ? -1 : 0;
}
