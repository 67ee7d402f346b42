/* ncu.c - an Nsight Compute source-view export read into per-instruction
 * shared-memory wavefronts, and compared line by line with smemlint's
 * predicted degrees (see ncu.h).
 *
 * Reading (libcsv): the columns are found by name in each block's header
 * row (`Line No`, `Address`, `Address Space`, `L1 Wavefronts Shared`,
 * `L1 Wavefronts Shared Ideal`); numbers may hold thousands separators.
 * A SASS row belongs to the last CUDA line row before it; each instruction
 * counts once per block (the view lists a line's instructions twice) and
 * is summed over blocks (launches, kernels). Only blocks whose `File Path`
 * names the analyzed file count: code inlined from a header comes in a
 * block of its own.
 *
 * Comparing: a line's measured degree is its worst instruction's
 * wavefronts / ideal wavefronts; its predicted degree the worst analyzed
 * access on it, or, when none is there, of the accesses inside inlined
 * helpers called from it (nvcc attributes part of an inlined body to the
 * call line). As tools/compare.py: within 5% is exact; within 5% of the
 * largest mean over warps and iterations is exact by mean (an instruction
 * in a loop the compiler did not unroll measures the mean). */
#define _GNU_SOURCE
#include "driver/ncu.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "base/grow.h"
#include "base/limits.h"

/* ---- reading ---- */

struct reader {
	struct sm_ncu *m;
	const char *base;
	char **f;                 /* the current row's fields */
	size_t nf, capf;
	bool in_header;           /* a header row seen in this block */
	bool saw_header;          /* one seen in the export at all */
	bool mine;                /* this block is about the file */
	int col_line, col_addr, col_space, col_wf, col_ideal;
	long cur_line;            /* -1: none yet in this block */
	struct sm_ncu_inst *seen; /* (line, address) counted in this block */
	size_t nseen, capseen;
	unsigned blocks;
	bool oom;
};

static void on_field(void *s, size_t len, void *ctx)
{
	struct reader *R = ctx;
	if (R->oom || SM_ALLOC_GROW(R->f, R->nf + 1, R->capf)) {
		R->oom = true;
		return;
	}
	char *v = malloc(len + 1);
	if (!v) {
		R->oom = true;
		return;
	}
	memcpy(v, s, len);
	v[len] = 0;
	R->f[R->nf++] = v;
}

static int col(const struct reader *R, const char *name)
{
	for (size_t i = 0; i < R->nf; i++)
		if (!strcmp(R->f[i], name))
			return (int)i;
	return -1;
}

/* "65,536" -> 65536; "", "-" or text -> -1. */
static double num(const char *s)
{
	char buf[64];
	size_t n = 0;
	for (; *s && n < sizeof(buf) - 1; s++)
		if (*s != ',' && *s != ' ')
			buf[n++] = *s;
	buf[n] = 0;
	if (!n || !strcmp(buf, "-"))
		return -1;
	char *end;
	double v = strtod(buf, &end);
	return *end ? -1 : v;
}

static const char *field(const struct reader *R, int c)
{
	return c >= 0 && (size_t)c < R->nf ? R->f[c] : "";
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static void row(struct reader *R)
{
	struct sm_ncu *m = R->m;
	const char *first = field(R, 0);
	if (!strcmp(first, "File Path")) {
		const char *p = field(R, 1), *slash = strrchr(p, '/');
		R->mine = !strcmp(slash ? slash + 1 : p, R->base);
		R->blocks += R->mine;
		R->in_header = false;
		R->cur_line = -1;
		R->nseen = 0;
		return;
	}
	if (!strcmp(first, "Function Name"))
		return;
	int wf = col(R, "L1 Wavefronts Shared"), ideal = col(R, "L1 Wavefronts Shared Ideal");
	if (wf >= 0 && ideal >= 0) { /* a header row */
		R->in_header = R->saw_header = true;
		R->col_wf = wf;
		R->col_ideal = ideal;
		R->col_line = col(R, "Line No") >= 0 ? col(R, "Line No") : 0;
		R->col_addr = col(R, "Address");
		R->col_space = col(R, "Address Space");
		return;
	}
	if (!R->in_header || !R->mine)
		return;
	const char *lf = field(R, R->col_line);
	if (all_digits(lf)) {
		R->cur_line = strtol(lf, NULL, 10);
		return;
	}
	if (*lf || R->cur_line < 0)
		return;
	const char *addr = field(R, R->col_addr);
	if (!*addr || !strcmp(addr, "-") || !strcmp(addr, "..."))
		return;
	double w = num(field(R, R->col_wf)), id = num(field(R, R->col_ideal));
	if (!strstr(field(R, R->col_space), "Shared") && w <= 0)
		return;
	/* once per block (the view repeats a line's instructions); summed
	 * over blocks */
	for (size_t i = 0; i < R->nseen; i++)
		if (R->seen[i].line == (unsigned)R->cur_line && !strncmp(R->seen[i].addr, addr, sizeof(R->seen[i].addr) - 1))
			return;
	if (SM_ALLOC_GROW(R->seen, R->nseen + 1, R->capseen)) {
		R->oom = true;
		return;
	}
	struct sm_ncu_inst *k = &R->seen[R->nseen++];
	memset(k, 0, sizeof(*k));
	k->line = (unsigned)R->cur_line;
	snprintf(k->addr, sizeof(k->addr), "%s", addr);
	struct sm_ncu_inst *x = NULL;
	for (size_t i = 0; i < m->n && !x; i++)
		if (m->inst[i].line == k->line && !strcmp(m->inst[i].addr, k->addr))
			x = &m->inst[i];
	if (!x) {
		if (SM_ALLOC_GROW(m->inst, m->n + 1, m->cap)) {
			R->oom = true;
			return;
		}
		x = &m->inst[m->n++];
		*x = *k;
	}
	x->wavefronts += w > 0 ? w : 0;
	x->ideal += id > 0 ? id : 0;
}

static void on_row(int c, void *ctx)
{
	(void)c;
	struct reader *R = ctx;
	if (!R->oom)
		row(R);
	for (size_t i = 0; i < R->nf; i++)
		free(R->f[i]);
	R->nf = 0;
}

int sm_ncu_load(struct sm_ncu *m, const char *path, const char *base, char *err, size_t errlen)
{
	char *text;
	size_t len;
	if (sm_read_regular(path, SM_MAX_NCU_EXPORT_BYTES, "1 GiB", &text, &len, err, errlen))
		return -1;
	struct csv_parser p;
	struct reader R = { .m = m, .base = base, .cur_line = -1 };
	if (csv_init(&p, CSV_APPEND_NULL) != 0) {
		free(text);
		snprintf(err, errlen, "out of memory reading '%s'", path);
		return -1;
	}
	size_t done = csv_parse(&p, text, len, on_field, on_row, &R);
	if (done == len)
		csv_fini(&p, on_field, on_row, &R);
	int perr = done != len ? csv_error(&p) : 0;
	csv_free(&p);
	free(text);
	for (size_t i = 0; i < R.nf; i++)
		free(R.f[i]);
	free(R.f);
	free(R.seen);
	if (perr) {
		snprintf(err, errlen, "'%s' is not CSV: %s", path, csv_strerror(perr));
		return -1;
	}
	if (R.oom) {
		snprintf(err, errlen, "out of memory reading '%s'", path);
		return -1;
	}
	if (!R.saw_header) {
		snprintf(err, errlen,
			 "'%s' is not an Nsight Compute source export with shared wavefronts (ncu -i REP --page source "
			 "--csv --print-source cuda,sass)",
			 path);
		return -1;
	}
	m->blocks += R.blocks;
	return 0;
}

void sm_ncu_free(struct sm_ncu *m)
{
	free(m->inst);
	memset(m, 0, sizeof(*m));
}

/* ---- comparing ---- */

static bool close_to(double a, double b)
{
	return fabs(a - b) <= 0.05 * b;
}

const char *sm_ncu_verdict_name(enum sm_ncu_verdict v)
{
	switch (v) {
	case SM_NCU_EXACT: return "exact";
	case SM_NCU_EXACT_MEAN: return "exact(mean)";
	case SM_NCU_OVER: return "over";
	case SM_NCU_UNDER: return "under";
	case SM_NCU_UNPREDICTED: return "unpredicted";
	case SM_NCU_UNMEASURED: return "unmeasured";
	}
	return "?";
}

static int cmp_row(const void *a, const void *b)
{
	unsigned x = ((const struct sm_ncu_row *)a)->line, y = ((const struct sm_ncu_row *)b)->line;
	return (x > y) - (x < y);
}

/* The row of line in rows[0..*n), added when missing. */
static struct sm_ncu_row *row_of(struct sm_ncu_row *rows, int *n, unsigned line)
{
	for (int i = 0; i < *n; i++)
		if (rows[i].line == line)
			return &rows[i];
	struct sm_ncu_row *x = &rows[(*n)++];
	memset(x, 0, sizeof(*x));
	x->line = line;
	x->measured = x->predicted = x->mean = -1;
	x->pred_wavefronts = x->pred_ideal = -1;
	return x;
}

/* The predicted degree of line from access records (a record counts
 * where it is, or, when the line has none of its own, at a call line of
 * the helper it was inlined from); *why_not: a reason an access there was
 * not analyzed. */
static void predict(const struct sm_result *r, unsigned line, struct sm_ncu_row *x, const char **why_not,
		    bool *has_access)
{
	bool totals = true;
	double wf = 0, ideal = 0;
	for (int pass = 0; pass < 2 && x->predicted < 0; pass++) {
		for (unsigned i = 0; i < r->nacc; i++) {
			const struct sm_access_record *a = &r->acc[i];
			bool here = pass == 0 ? a->range.file == 0 && a->range.begin.line == line : false;
			for (unsigned k = 0; pass == 1 && k < a->ncall_lines; k++)
				here = here || a->call_lines[k] == line;
			if (!here)
				continue;
			*has_access = true;
			if (!a->analyzed) {
				if (!*why_not)
					*why_not = a->why;
				continue;
			}
			if (a->worst > x->predicted)
				x->predicted = a->worst;
			if (a->mean > x->mean)
				x->mean = a->mean;
			/* the counts the profiler shows, when every access has them
			 * (the grid known, every iteration counted) */
			if (pass == 0 && a->blocks > 0 && a->wavefronts_exact) {
				wf += (double)a->wavefronts * (double)a->blocks;
				ideal += (double)a->ideal * (double)a->blocks;
			} else {
				totals = false;
			}
		}
	}
	if (totals && wf > 0) {
		x->pred_wavefronts = wf;
		x->pred_ideal = ideal;
	}
}

/* Is a cp.async (not a bulk copy) among the accesses of line? */
static bool line_has_cp_async(const struct sm_result *r, unsigned line)
{
	for (unsigned i = 0; i < r->nacc; i++) {
		const struct sm_access_record *a = &r->acc[i];
		if (a->range.file == 0 && a->range.begin.line == line && !strncmp(a->op, "cp.async", 8) &&
		    strncmp(a->op, "cp.async.bulk", 13))
			return true;
	}
	return false;
}

int sm_ncu_compare(const struct sm_ncu *m, struct sm_result *r, struct sm_ncu_row **out)
{
	size_t cap = m->n + r->nacc + 1;
	struct sm_ncu_row *rows = sm_arena_alloc(&r->arena, cap * sizeof(*rows));
	if (!rows)
		return -1;
	int n = 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct sm_ncu_inst *x = &m->inst[i];
		if (x->wavefronts <= 0)
			continue;
		struct sm_ncu_row *w = row_of(rows, &n, x->line);
		w->instructions++;
		w->wavefronts += x->wavefronts;
		w->ideal += x->ideal;
		if (x->ideal > 0 && x->wavefronts / x->ideal > w->measured)
			w->measured = x->wavefronts / x->ideal;
	}
	int measured = n;
	for (int i = 0; i < measured; i++) {
		struct sm_ncu_row *w = &rows[i];
		const char *why_not = NULL;
		bool has = false;
		predict(r, w->line, w, &why_not, &has);
		if (w->predicted < 0) {
			w->verdict = SM_NCU_UNPREDICTED;
			w->why = has ? sm_arena_printf(&r->arena, "its access is not analyzed: %s", why_not ? why_not : "?")
				     : "no shared access of the source is on this line (nvcc attributes an access "
				       "elsewhere here: an inlined helper's, a reload after a barrier)";
		} else if (w->measured < 0) {
			w->verdict = SM_NCU_UNPREDICTED;
			w->why = "the measured instructions have no ideal wavefronts";
		} else if (close_to(w->measured, w->predicted)) {
			w->verdict = SM_NCU_EXACT;
			w->why = "";
		} else if (w->mean > 0 && fabs(w->mean - w->predicted) > 1e-9 && close_to(w->measured, w->mean)) {
			w->verdict = SM_NCU_EXACT_MEAN;
			w->why = sm_arena_printf(&r->arena,
						 "the degree varies over warps or loop iterations (worst %g, mean %.2f): one "
						 "instruction in a loop nvcc did not unroll measures the mean",
						 w->predicted, w->mean);
		} else if (w->predicted > w->measured) {
			w->verdict = SM_NCU_OVER;
			w->why = w->instructions < 2 ? "nvcc made the line's accesses one wider access (or a broadcast "
							  "the index hides), which a quarter or half warp serves at once"
						    : "nvcc split or merged the line's accesses into instructions the "
						      "model does not see one by one; compare per instruction in the "
						      "source view";
		} else {
			w->verdict = SM_NCU_UNDER;
			w->why = line_has_cp_async(r, w->line)
				? "a cp.async costs a wavefront per piece it moves (global 128-byte line, shift, "
				  "shared 128-byte row, sector half), and its global source here is not known "
				  "for every lane (a pointer it does not follow, or a count that depends on a "
				  "run-time value): only its shared banks are predicted"
				: "the hardware serialized more than the model predicts: a launch, data or layout "
				  "the analysis did not see (check the launch and the values the index reads)";
		}
	}
	/* lines with analyzed accesses and no measurement */
	for (unsigned i = 0; i < r->nacc; i++) {
		const struct sm_access_record *a = &r->acc[i];
		if (a->range.file != 0 || !a->analyzed)
			continue;
		bool seen = false;
		for (int k = 0; k < n && !seen; k++)
			seen = rows[k].line == a->range.begin.line;
		if (seen || (size_t)n >= cap)
			continue;
		struct sm_ncu_row *w = row_of(rows, &n, a->range.begin.line);
		const char *why_not = NULL;
		bool has = false;
		predict(r, w->line, w, &why_not, &has);
		w->verdict = SM_NCU_UNMEASURED;
		w->why = strstr(a->op, "__pipeline_memcpy_async") != NULL
			? "a cp.async of __pipeline_memcpy_async: its instruction is in the toolkit's header, and ncu "
			  "counts its wavefronts at that header's line, not here"
			: "no shared wavefronts measured (code nvcc removed, or a kernel the export does not hold)";
	}
	qsort(rows, (size_t)n, sizeof(*rows), cmp_row);
	*out = rows;
	return n;
}
