/* test_bank.c - table-driven Check tests of the bank model (as minmea's
 * tests): (element size, stride, block dims, access width) -> degree.
 * Builds IR with tests/ir_builder.c; never links libclang. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "engine/facts.h"
#include "engine/tma.h"
#include "ir_builder.h"

/* *ra: a resolved access to a[i0] (or a[i0][i1]) of width bytes under
 * guards g */
static void access_to(struct sm_raccess *ra, struct sm_array *a, struct sm_expr *i0, struct sm_expr *i1, unsigned width,
		      const struct sm_guard *g)
{
	memset(ra, 0, sizeof(*ra));
	ra->ok = true;
	ra->array = a;
	ra->idx[0] = i0;
	ra->idx[1] = i1;
	ra->nidx = i1 ? 2 : 1;
	ra->width = width;
	ra->guards = g;
}

static double degree1(struct sm_irb *b, struct sm_array *a, struct sm_expr *i0, struct sm_expr *i1, unsigned width,
		      struct sm_dim3 block, const struct sm_guard *g)
{
	struct sm_raccess ra;
	access_to(&ra, a, i0, i1, width, g);
	struct sm_degree d;
	sm_access_degree(&ra, block, NULL, &b->A, &d);
	ck_assert_msg(d.analyzed, "not analyzed: %s", d.why ? d.why : "?");
	return d.worst;
}

/* 1-D: s[stride * tid] with elements of elem bytes, accessed width bytes */
static const struct {
	unsigned elem, width;
	int64_t stride;
	struct sm_dim3 block;
	double degree;
} stride_table[] = {
	{ 4, 4, 1, { 32, 1, 1 }, 1 },
	{ 4, 4, 2, { 32, 1, 1 }, 2 },
	{ 4, 4, 3, { 32, 1, 1 }, 1 },
	{ 4, 4, 4, { 32, 1, 1 }, 4 },
	{ 4, 4, 8, { 32, 1, 1 }, 8 },
	{ 4, 4, 16, { 32, 1, 1 }, 16 },
	{ 4, 4, 32, { 32, 1, 1 }, 32 },
	{ 4, 4, 33, { 32, 1, 1 }, 1 },
	{ 4, 4, 64, { 256, 1, 1 }, 32 },
	{ 4, 4, 0, { 32, 1, 1 }, 1 },      /* broadcast */
	{ 8, 8, 1, { 32, 1, 1 }, 1 },      /* double, two half-warps */
	{ 8, 8, 2, { 32, 1, 1 }, 2 },
	{ 8, 8, 16, { 32, 1, 1 }, 16 },
	{ 8, 8, 17, { 32, 1, 1 }, 1 },
	{ 16, 16, 1, { 32, 1, 1 }, 1 },    /* float4, four quarter-warps */
	{ 16, 16, 2, { 32, 1, 1 }, 2 },
	{ 16, 16, 8, { 32, 1, 1 }, 8 },
	{ 2, 2, 1, { 32, 1, 1 }, 1 },      /* short: two lanes per word */
	{ 2, 2, 2, { 32, 1, 1 }, 1 },
	{ 2, 2, 64, { 32, 1, 1 }, 32 },
	{ 2, 2, 4, { 32, 1, 1 }, 2 },
	{ 1, 1, 1, { 32, 1, 1 }, 1 },      /* char */
	{ 1, 1, 4, { 32, 1, 1 }, 1 },
	{ 1, 1, 8, { 32, 1, 1 }, 2 },
	{ 1, 1, 128, { 32, 1, 1 }, 32 },
	{ 4, 4, 2, { 16, 1, 1 }, 1 },      /* half a warp: 16 lanes over 32 banks */
	{ 4, 4, 32, { 8, 1, 1 }, 8 },
};

START_TEST(test_stride)
{
	struct sm_irb b;
	sm_irb_init(&b);
	int i = _i;
	struct sm_array *a = sm_irb_array(&b, "t", stride_table[i].elem, 1 << 16, 0);
	double d = degree1(&b, a, OP(&b, SM_OP_MUL, T(&b, 0), K(&b, stride_table[i].stride)), NULL,
			   stride_table[i].width, stride_table[i].block, NULL);
	ck_assert_msg(d == stride_table[i].degree, "row %d: elem %u stride %lld width %u: got %.2f want %.2f", i,
		      stride_table[i].elem, (long long)stride_table[i].stride, stride_table[i].width, d,
		      stride_table[i].degree);
	sm_irb_release(&b);
}
END_TEST

/* 2-D: tile[row][col] on float[32][W] */
static const struct {
	int64_t width_dim;
	int row_is_x;   /* tile[tx][ty] (column read) or tile[ty][tx] */
	struct sm_dim3 block;
	double degree;
} tile_table[] = {
	{ 32, 1, { 32, 8, 1 }, 32 },
	{ 33, 1, { 32, 8, 1 }, 1 },
	{ 32, 0, { 32, 8, 1 }, 1 },
	{ 32, 1, { 16, 16, 1 }, 16 },
	{ 17, 1, { 16, 16, 1 }, 2 },      /* lanes (15,1) and (0,0) meet in bank 0 */
	{ 16, 1, { 16, 16, 1 }, 8 },
	{ 34, 1, { 32, 8, 1 }, 2 },
};

START_TEST(test_tile)
{
	struct sm_irb b;
	sm_irb_init(&b);
	int i = _i;
	struct sm_array *a = sm_irb_array(&b, "t", 4, 64, tile_table[i].width_dim);
	struct sm_expr *r = tile_table[i].row_is_x ? T(&b, 0) : T(&b, 1);
	struct sm_expr *c = tile_table[i].row_is_x ? T(&b, 1) : T(&b, 0);
	double d = degree1(&b, a, r, c, 4, tile_table[i].block, NULL);
	ck_assert_msg(d == tile_table[i].degree, "row %d: got %.2f want %.2f", i, d, tile_table[i].degree);
	sm_irb_release(&b);
}
END_TEST

START_TEST(test_guard_active_lanes)
{
	/* if (tid < 8) s[32*tid]: only 8 lanes active -> 8-way */
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_guard g = { OP(&b, SM_OP_LT, T(&b, 0), K(&b, 8)), false, { { 0, 0 }, { 0, 0 }, 0 }, NULL, false };
	double d = degree1(&b, sm_irb_array(&b, "t", 4, 4096, 0), OP(&b, SM_OP_MUL, T(&b, 0), K(&b, 32)), NULL, 4,
			   (struct sm_dim3){ 32, 1, 1 }, &g);
	ck_assert(d == 8);
	sm_irb_release(&b);
}
END_TEST

/* Out of bounds (rule shared-out-of-bounds): s[tid * mul + add] on a
 * float[n] array (or an extern one with dyn bytes), optionally under
 * `if (tid < bound)` with bound a constant or a parameter (undecidable):
 * the certain witness, the lanes left out. */
static const struct {
	int64_t n;             /* elements; 0: extern, sized by dyn */
	int64_t dyn;
	int64_t mul, add;
	int guard;             /* 0 none, 1 tid < bound (constant), 2 tid < parameter */
	int64_t bound;
	int threads;
	int found;             /* a certain witness */
	int64_t tid, offset;   /* its thread and first byte */
	int dropped;           /* lanes out of bounds under an undecided guard, left out */
} oob_table[] = {
	{ 256, 0, 1, 0, 0, 0, 256, 0, 0, 0, 0 },         /* fits */
	{ 256, 0, 1, 0, 0, 0, 512, 1, 256, 1024, 0 },    /* 512 threads, 256 elements */
	{ 256, 0, 1, 0, 1, 256, 512, 0, 0, 0, 0 },       /* if (tid < 256): in bounds */
	{ 256, 0, 1, 0, 1, 300, 512, 1, 256, 1024, 0 },  /* if (tid < 300): thread 256 is out */
	{ 256, 0, 1, 0, 2, 0, 512, 0, 0, 0, 1 },         /* if (tid < n): kept out by the guard */
	{ 64, 0, 1, 1, 0, 0, 64, 1, 63, 256, 0 },        /* s[tid + 1]: thread 63 */
	{ 64, 0, 1, -1, 0, 0, 64, 1, 0, -4, 0 },         /* s[tid - 1]: thread 0, before the start */
	{ 0, 1024, 1, 192, 0, 0, 128, 1, 64, 1024, 0 },  /* extern, 1024 dynamic bytes, carve at 192 */
	{ 0, 1280, 1, 192, 0, 0, 128, 0, 0, 0, 0 },      /* extern, 1280 bytes: fits */
	{ 0, -1, 1, 192, 0, 0, 128, 0, 0, 0, 0 },        /* extern, size not known: no extent */
};

START_TEST(test_out_of_bounds)
{
	struct sm_irb b;
	sm_irb_init(&b);
	int i = _i;
	struct sm_array *a = sm_irb_array(&b, "float", 4, oob_table[i].n ? oob_table[i].n : 1, 0);
	if (!oob_table[i].n) {
		a->is_dynamic = true;
		a->dims[0] = 0;
	}
	struct sm_expr *idx = OP(&b, SM_OP_ADD, OP(&b, SM_OP_MUL, T(&b, 0), K(&b, oob_table[i].mul)), K(&b, oob_table[i].add));
	struct sm_guard g;
	memset(&g, 0, sizeof(g));
	if (oob_table[i].guard == 1)
		g.cond = OP(&b, SM_OP_LT, T(&b, 0), K(&b, oob_table[i].bound));
	else if (oob_table[i].guard == 2)
		g.cond = OP(&b, SM_OP_LT, T(&b, 0), sm_irb_ref(&b, sm_irb_var(&b, "n", SM_V_PARAM)));
	struct sm_raccess ra;
	access_to(&ra, a, idx, NULL, 4, oob_table[i].guard ? &g : NULL);
	struct sm_degree d;
	sm_access_degree_at(&ra, (struct sm_dim3){ oob_table[i].threads, 1, 1 }, oob_table[i].dyn, &b.A, NULL, NULL, &d);
	ck_assert_msg(d.oob.found == (oob_table[i].found != 0), "row %d: found %d", i, d.oob.found);
	if (oob_table[i].found) {
		ck_assert_msg(d.oob.tid[0] == oob_table[i].tid && d.oob.offset == oob_table[i].offset,
			      "row %d: thread %lld offset %lld", i, (long long)d.oob.tid[0], (long long)d.oob.offset);
		ck_assert_int_eq(d.oob.extent, oob_table[i].n ? oob_table[i].n * 4 : oob_table[i].dyn);
		ck_assert(d.oob_lanes);
	}
	ck_assert_msg(d.oob_dropped == (oob_table[i].dropped != 0), "row %d: dropped %d", i, d.oob_dropped);
	sm_irb_release(&b);
}
END_TEST

START_TEST(test_wavefronts_pure)
{
	int64_t addr[32];
	struct sm_wave w;
	for (int l = 0; l < 32; l++)
		addr[l] = l * 128; /* all lanes in bank 0, distinct words */
	sm_bank_wavefronts(addr, 0xffffffffu, 4, &w);
	ck_assert_int_eq(w.wavefronts, 32);
	ck_assert_int_eq(w.ideal, 1);
	ck_assert_int_eq(w.bank, 0);
	ck_assert_int_eq(w.lane_a, 0);
	ck_assert_int_eq(w.lane_b, 1);
	for (int l = 0; l < 32; l++)
		addr[l] = (l / 2) * 4; /* multicast: pairs share a word */
	sm_bank_wavefronts(addr, 0xffffffffu, 4, &w);
	ck_assert_int_eq(w.wavefronts, 1);
	sm_bank_wavefronts(addr, 0, 4, &w);
	ck_assert_int_eq(w.wavefronts, 0);
	ck_assert_int_eq(w.ideal, 0);
}
END_TEST

/* A cp.async's wavefronts, each row as ncu measured it on the H200: lane l
 * of one warp copies `width` bytes from global byte (l / gr) * gp +
 * (l % gr) * width + go to shared byte (l / sr) * sp + (l % sr) * width +
 * so, the first `lanes` lanes on (corpus/async_cp_global.cu and
 * corpus/async_cp_layout.cu; the part-warp rows from a probe of one
 * lane group at each offset). */
START_TEST(test_cp_async_wavefronts)
{
	static const struct {
		int gr, gp, sr, sp, go, so, width, lanes, wavefronts;
	} cases[] = {
		/* async_cp_global.cu */
		{ 32, 512, 32, 512, 0, 0, 16, 32, 4 },    /* contiguous both */
		{ 2, 512, 32, 512, 0, 0, 16, 32, 16 },    /* pairs of 512-byte rows */
		{ 1, 128, 32, 512, 0, 0, 16, 32, 32 },    /* a line a lane */
		{ 1, 32, 32, 512, 0, 0, 16, 32, 32 },     /* a sector a lane */
		{ 32, 512, 1, 128, 0, 0, 16, 32, 32 },    /* 128-byte shared rows */
		{ 2, 512, 1, 32, 0, 0, 16, 32, 32 },      /* 32-byte shared rows, pairs */
		{ 1, 128, 32, 128, 0, 0, 4, 32, 32 },     /* 4 bytes, a line a lane */
		{ 4, 512, 32, 256, 0, 0, 8, 32, 8 },      /* 8 bytes, four lanes a row */
		/* async_cp_layout.cu: rows of a tile loader, padded shared rows */
		{ 2, 256, 2, 48, 0, 0, 16, 32, 24 },
		{ 2, 512, 2, 32, 0, 0, 16, 32, 16 },
		{ 2, 512, 2, 48, 0, 0, 16, 32, 24 },
		{ 2, 512, 2, 64, 0, 0, 16, 32, 16 },
		{ 2, 512, 2, 80, 0, 0, 16, 32, 24 },
		{ 2, 512, 2, 96, 0, 0, 16, 32, 16 },
		{ 2, 512, 2, 112, 0, 0, 16, 32, 24 },
		{ 2, 512, 2, 128, 0, 0, 16, 32, 16 },
		{ 2, 512, 2, 144, 0, 0, 16, 32, 24 },
		{ 2, 512, 2, 160, 0, 0, 16, 32, 16 },
		{ 2, 512, 2, 256, 0, 0, 16, 32, 16 },
		{ 2, 512, 32, 512, 0, 0, 16, 32, 16 },
		{ 2, 528, 2, 48, 0, 0, 16, 32, 24 },
		{ 2, 1024, 2, 48, 0, 0, 16, 32, 24 },
		{ 4, 512, 4, 64, 0, 0, 16, 32, 8 },
		{ 4, 512, 4, 80, 0, 0, 16, 32, 15 },
		{ 4, 512, 4, 96, 0, 0, 16, 32, 10 },
		{ 4, 512, 4, 128, 0, 0, 16, 32, 8 },
		{ 8, 512, 8, 128, 0, 0, 16, 32, 4 },
		{ 8, 512, 8, 144, 0, 0, 16, 32, 10 },
		{ 8, 512, 8, 160, 0, 0, 16, 32, 7 },
		{ 8, 512, 8, 192, 0, 0, 16, 32, 6 },
		{ 8, 512, 8, 256, 0, 0, 16, 32, 4 },
		{ 16, 512, 2, 48, 0, 0, 16, 32, 24 },
		{ 16, 512, 16, 256, 0, 0, 16, 32, 4 },
		{ 16, 512, 16, 272, 0, 0, 16, 32, 8 },
		{ 16, 512, 16, 288, 0, 0, 16, 32, 6 },
		{ 16, 512, 16, 320, 0, 0, 16, 32, 6 },
		{ 16, 512, 16, 384, 0, 0, 16, 32, 4 },
		{ 16, 512, 16, 512, 0, 0, 16, 32, 4 },
		{ 32, 512, 32, 512, 0, 16, 16, 32, 12 },
		{ 32, 512, 32, 512, 0, 32, 16, 32, 8 },
		{ 32, 512, 32, 512, 0, 64, 16, 32, 8 },
		{ 32, 512, 32, 512, 0, 112, 16, 32, 12 },
		{ 32, 512, 32, 512, 16, 0, 16, 32, 12 },
		{ 32, 512, 32, 512, 32, 0, 16, 32, 8 },
		{ 32, 512, 32, 512, 64, 0, 16, 32, 8 },
		/* part of a warp on: one lane group at each offset */
		{ 32, 512, 32, 512, 0, 0, 16, 1, 2 },
		{ 32, 512, 32, 512, 0, 112, 16, 1, 2 },
		{ 32, 512, 32, 512, 16, 0, 16, 1, 2 },
		{ 32, 512, 32, 512, 16, 112, 16, 1, 2 },
		{ 32, 512, 32, 512, 0, 0, 16, 2, 2 },
		{ 32, 512, 32, 512, 0, 16, 16, 2, 3 },
		{ 32, 512, 32, 512, 0, 32, 16, 2, 2 },
		{ 32, 512, 32, 512, 0, 48, 16, 2, 3 },
		{ 32, 512, 32, 512, 0, 64, 16, 2, 2 },
		{ 32, 512, 32, 512, 0, 80, 16, 2, 3 },
		{ 32, 512, 32, 512, 0, 96, 16, 2, 2 },
		{ 32, 512, 32, 512, 0, 112, 16, 2, 3 },
		{ 32, 512, 32, 512, 16, 0, 16, 2, 3 },
		{ 32, 512, 32, 512, 16, 16, 16, 2, 3 },
		{ 32, 512, 32, 512, 16, 32, 16, 2, 3 },
		{ 32, 512, 32, 512, 16, 48, 16, 2, 3 },
		{ 32, 512, 32, 512, 16, 64, 16, 2, 3 },
		{ 32, 512, 32, 512, 16, 80, 16, 2, 3 },
		{ 32, 512, 32, 512, 16, 96, 16, 2, 3 },
		{ 32, 512, 32, 512, 16, 112, 16, 2, 3 },
		{ 32, 512, 32, 512, 32, 0, 16, 2, 2 },
		{ 32, 512, 32, 512, 32, 16, 16, 2, 3 },
		{ 32, 512, 32, 512, 32, 32, 16, 2, 2 },
		{ 32, 512, 32, 512, 32, 48, 16, 2, 3 },
		{ 32, 512, 32, 512, 32, 64, 16, 2, 2 },
		{ 32, 512, 32, 512, 32, 80, 16, 2, 3 },
		{ 32, 512, 32, 512, 32, 96, 16, 2, 2 },
		{ 32, 512, 32, 512, 32, 112, 16, 2, 3 },
		{ 32, 512, 32, 512, 64, 0, 16, 2, 2 },
		{ 32, 512, 32, 512, 64, 16, 16, 2, 3 },
		{ 32, 512, 32, 512, 64, 32, 16, 2, 2 },
		{ 32, 512, 32, 512, 64, 48, 16, 2, 3 },
		{ 32, 512, 32, 512, 64, 64, 16, 2, 2 },
		{ 32, 512, 32, 512, 64, 80, 16, 2, 3 },
		{ 32, 512, 32, 512, 64, 96, 16, 2, 2 },
		{ 32, 512, 32, 512, 64, 112, 16, 2, 3 },
		{ 32, 512, 32, 512, 0, 0, 16, 4, 2 },
		{ 32, 512, 32, 512, 0, 16, 16, 4, 3 },
		{ 32, 512, 32, 512, 0, 32, 16, 4, 2 },
		{ 32, 512, 32, 512, 0, 48, 16, 4, 3 },
		{ 32, 512, 32, 512, 0, 64, 16, 4, 2 },
		{ 32, 512, 32, 512, 0, 80, 16, 4, 4 },
		{ 32, 512, 32, 512, 0, 96, 16, 4, 3 },
		{ 32, 512, 32, 512, 0, 112, 16, 4, 4 },
		{ 32, 512, 32, 512, 16, 0, 16, 4, 3 },
		{ 32, 512, 32, 512, 16, 16, 16, 4, 4 },
		{ 32, 512, 32, 512, 16, 32, 16, 4, 3 },
		{ 32, 512, 32, 512, 16, 48, 16, 4, 4 },
		{ 32, 512, 32, 512, 16, 64, 16, 4, 3 },
		{ 32, 512, 32, 512, 16, 80, 16, 4, 4 },
		{ 32, 512, 32, 512, 16, 96, 16, 4, 5 },
		{ 32, 512, 32, 512, 16, 112, 16, 4, 4 },
		{ 32, 512, 32, 512, 32, 0, 16, 4, 2 },
		{ 32, 512, 32, 512, 32, 16, 16, 4, 3 },
		{ 32, 512, 32, 512, 32, 32, 16, 4, 2 },
		{ 32, 512, 32, 512, 32, 48, 16, 4, 3 },
		{ 32, 512, 32, 512, 32, 64, 16, 4, 2 },
		{ 32, 512, 32, 512, 32, 80, 16, 4, 4 },
		{ 32, 512, 32, 512, 32, 96, 16, 4, 3 },
		{ 32, 512, 32, 512, 32, 112, 16, 4, 4 },
		{ 32, 512, 32, 512, 64, 0, 16, 4, 2 },
		{ 32, 512, 32, 512, 64, 16, 16, 4, 3 },
		{ 32, 512, 32, 512, 64, 32, 16, 4, 2 },
		{ 32, 512, 32, 512, 64, 48, 16, 4, 3 },
		{ 32, 512, 32, 512, 64, 64, 16, 4, 2 },
		{ 32, 512, 32, 512, 64, 80, 16, 4, 4 },
		{ 32, 512, 32, 512, 64, 96, 16, 4, 3 },
		{ 32, 512, 32, 512, 64, 112, 16, 4, 4 },
		{ 32, 512, 32, 512, 0, 0, 16, 8, 2 },
		{ 32, 512, 32, 512, 0, 16, 16, 8, 4 },
		{ 32, 512, 32, 512, 0, 32, 16, 8, 3 },
		{ 32, 512, 32, 512, 0, 48, 16, 8, 5 },
		{ 32, 512, 32, 512, 0, 64, 16, 8, 3 },
		{ 32, 512, 32, 512, 0, 80, 16, 8, 5 },
		{ 32, 512, 32, 512, 0, 96, 16, 8, 3 },
		{ 32, 512, 32, 512, 0, 112, 16, 8, 4 },
	};
	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		int64_t a[32], g[32];
		int w = cases[k].width;
		for (int l = 0; l < 32; l++) {
			g[l] = (int64_t)(l / cases[k].gr) * cases[k].gp + (int64_t)(l % cases[k].gr) * w + cases[k].go;
			a[l] = (int64_t)(l / cases[k].sr) * cases[k].sp + (int64_t)(l % cases[k].sr) * w + cases[k].so;
		}
		uint32_t mask = cases[k].lanes == 32 ? 0xffffffffu : (1u << cases[k].lanes) - 1;
		int wf = sm_cp_async_wavefronts(a, g, mask, (unsigned)w);
		ck_assert_msg(wf == cases[k].wavefronts, "row %u: %d wavefronts, measured %d", k, wf, cases[k].wavefronts);
	}
	int64_t a[32] = { 0 }, g[32] = { 0 };
	ck_assert_int_eq(sm_cp_async_wavefronts(a, g, 0, 16), 0);
}
END_TEST

/* The kernel's facts are computed when first asked for, once: a rule that
 * never asks (bank-conflict disabled) costs no bank evaluation. */
/* Resolve body as kernel k of b and init its facts for one warp's block
 * (--block-dim 32). */
static void facts_of_warp(struct sm_irb *b, struct sm_stmt *body, struct sm_kernel_facts *f)
{
	/* the facts keep a pointer to their options: one for the whole run */
	static const struct sm_analysis_options warp = { .has_block = true, .block = { 32, 1, 1 } };
	struct sm_kernel_model m;
	sm_irb_resolve(b, body, &m);
	ck_assert_int_eq(sm_kernel_facts_init(f, &b->k, &warp, &b->A), 0);
}

START_TEST(test_facts_on_first_use)
{
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_stmt *body = sm_irb_block(&b, 1, sm_irb_access(&b, SM_ACC_LOAD, OP(&b, SM_OP_MUL, T(&b, 0), K(&b, 32))));
	struct sm_kernel_facts f;
	facts_of_warp(&b, body, &f);
	ck_assert_int_eq(f.launch.nshapes, 1);
	ck_assert_int_eq(f.launch.shape[0].block_from.kind, SM_LAUNCH_OPTION);
	ck_assert_ptr_null(f.degrees);             /* nothing evaluated yet */
	ck_assert_int_eq(f.races[0].done, 0);
	ck_assert_int_eq(f.ndivergence, -1);
	const struct sm_access_result *d = sm_kernel_facts_degrees(&f);
	ck_assert_ptr_nonnull(d);
	ck_assert(d[0].deg.analyzed && d[0].deg.worst == 32.0); /* s[32*tid]: 32-way */
	ck_assert_ptr_eq(sm_kernel_facts_degrees(&f), d);     /* cached, not recomputed */
	ck_assert_ptr_eq(sm_kernel_facts_races(&f, 0), sm_kernel_facts_races(&f, 0));
	ck_assert_ptr_null(sm_kernel_facts_races(&f, 1));    /* no second block shape */
	sm_irb_release(&b);
}
END_TEST

/* Loops that only move the access (bank.c's shift loops): s[tid * mul +
 * k * step + add] in for (k = 0; k < n; k++) on a float[len] array, or
 * with a second loop j adding j * step2, or under `if (k < 2)`. One
 * iteration, moved by a whole number of words, stands for the others; the
 * result must be the one of every iteration evaluated on its own (degree,
 * mean, requests, the out-of-bounds witness at a later iteration), and the
 * nodes visited far fewer where the moves are whole words. */
static const struct {
	int64_t len, mul, step, add, n;
	int64_t step2;          /* a nested j loop of 4 iterations when not 0 */
	int guard_k;            /* if (k < 2) around the access */
	unsigned elem;
	double worst, mean;
	unsigned long requests;
	int oob;                /* a witness: thread 0 at offset oob_at */
	int64_t oob_at;
	int fast;               /* 1: under 2 nodes a lane and iteration (one
	                         * iteration evaluated, the others moved);
	                         * 0: over 4 (each evaluated); -1: not checked */
} shift_table[] = {
	{ 4096, 33, 32, 0, 64, 0, 0, 4, 1, 1, 64, 0, 0, 1 },       /* padded rows, moved a row */
	{ 4096, 32, 1, 0, 64, 0, 0, 4, 32, 32, 64, 0, 0, 1 },      /* a column, moved a word */
	{ 1024, 1, 32, 0, 40, 0, 0, 4, 1, 1, 40, 1, 4096, -1 },    /* k = 32 leaves the array */
	{ 4096, 33, 32, 0, 8, 4, 0, 4, 1, 1, 32, 0, 0, 1 },        /* two loops, both moving */
	{ 4096, 32, 1, 0, 8, 0, 1, 4, 32, 32, 2, 0, 0, -1 },       /* a guard reads k: each run */
	{ 4096, 2, 1, 0, 64, 0, 0, 2, 1, 1, 64, 0, 0, 0 },         /* short: 2-byte moves, each run */
	{ 4096, 64, 2, 0, 64, 0, 0, 2, 32, 32, 64, 0, 0, 1 },      /* short: word moves */
};

START_TEST(test_shift_loops)
{
	int i = _i;
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_array *a = sm_irb_array(&b, "t", shift_table[i].elem, shift_table[i].len, 0);
	struct sm_loop L = { .depth = 0, .niv = 1 }, M = { .depth = 1, .niv = 1, .parent = &L };
	struct sm_expr *k = K(&b, 0), *j = K(&b, 0);
	k->kind = j->kind = SM_E_LOOPVAR;
	k->loop = &L;
	j->loop = &M;
	struct sm_iv ivk = { .init = K(&b, 0), .op = SM_OP_ADD, .step = K(&b, 1) };
	struct sm_iv ivj = { .init = K(&b, 0), .op = SM_OP_ADD, .step = K(&b, 1) };
	L.ivs = &ivk;
	M.ivs = &ivj;
	L.cond = OP(&b, SM_OP_LT, k, K(&b, shift_table[i].n));
	M.cond = OP(&b, SM_OP_LT, j, K(&b, 4));
	struct sm_expr *idx = OP(&b, SM_OP_ADD, OP(&b, SM_OP_MUL, T(&b, 0), K(&b, shift_table[i].mul)),
				 OP(&b, SM_OP_ADD, OP(&b, SM_OP_MUL, k, K(&b, shift_table[i].step)), K(&b, shift_table[i].add)));
	if (shift_table[i].step2)
		idx = OP(&b, SM_OP_ADD, idx, OP(&b, SM_OP_MUL, j, K(&b, shift_table[i].step2)));
	struct sm_guard g = { .cond = OP(&b, SM_OP_LT, k, K(&b, 2)) };
	struct sm_raccess ra;
	access_to(&ra, a, idx, NULL, shift_table[i].elem, shift_table[i].guard_k ? &g : NULL);
	ra.loop = shift_table[i].step2 ? &M : &L;
	struct sm_work w = { 0 };
	struct sm_degree d;
	struct sm_dim3 warp = { 32, 1, 1 };
	sm_access_degree_at(&ra, warp, 0, &b.A, NULL, &w, &d);
	ck_assert_msg(d.analyzed, "row %d: not analyzed: %s", i, d.why ? d.why : "?");
	ck_assert_msg(d.worst == shift_table[i].worst && d.mean == shift_table[i].mean, "row %d: worst %.2f mean %.2f", i,
		      d.worst, d.mean);
	ck_assert_msg(d.requests == shift_table[i].requests, "row %d: %lu requests", i, d.requests);
	ck_assert_msg(d.oob.found == (shift_table[i].oob != 0), "row %d: witness %d", i, d.oob.found);
	if (shift_table[i].oob)
		ck_assert_msg(d.oob.tid[0] == 0 && d.oob.offset == shift_table[i].oob_at && d.oob.niv == 1 &&
				      d.oob.iv_value[0] == shift_table[i].oob_at / 4 / shift_table[i].step,
			      "row %d: thread %lld offset %lld", i, (long long)d.oob.tid[0], (long long)d.oob.offset);
	/* every iteration on its own: the access with k (and j) constant */
	double worst = 0, sum = 0;
	int runs = 0;
	int64_t nj = shift_table[i].step2 ? 4 : 1;
	for (int64_t kv = 0; kv < shift_table[i].n && !shift_table[i].oob; kv++)
		for (int64_t jv = 0; jv < nj; jv++) {
			if (shift_table[i].guard_k && kv >= 2)
				continue;
			struct sm_expr *one = OP(&b, SM_OP_ADD, OP(&b, SM_OP_MUL, T(&b, 0), K(&b, shift_table[i].mul)),
						 K(&b, kv * shift_table[i].step + shift_table[i].add + jv * shift_table[i].step2));
			double o = degree1(&b, a, one, NULL, shift_table[i].elem, warp, NULL);
			worst = o > worst ? o : worst;
			sum += o;
			runs++;
		}
	if (runs)
		ck_assert_msg(worst == d.worst && sum / runs == d.mean, "row %d: alone %.2f/%.2f", i, worst, sum / runs);
	uint64_t lanes_iters = 32 * (uint64_t)shift_table[i].n * (uint64_t)nj;
	ck_assert_msg(shift_table[i].fast != 1 || w.used < 2 * lanes_iters, "row %d: %llu nodes for %llu lane iterations",
		      i, (unsigned long long)w.used, (unsigned long long)lanes_iters);
	ck_assert_msg(shift_table[i].fast != 0 || w.used > 4 * lanes_iters, "row %d: %llu nodes for %llu lane iterations",
		      i, (unsigned long long)w.used, (unsigned long long)lanes_iters);
	sm_irb_release(&b);
}
END_TEST

/* The TMA swizzle's layout (engine/tma.c): byte offset, span, where the
 * copy puts it. 128 bytes: the 16-byte chunk XOR line % 8; 64: line % 4;
 * 32: line % 2; 0: in place. Bytes within a chunk keep their place. */
static const struct {
	int64_t off;
	unsigned span;
	int64_t at;
} tma_table[] = {
	{ 0, 128, 0 },        /* line 0: no chunk moves */
	{ 112, 128, 112 },
	{ 128, 128, 144 },    /* line 1, chunk 0 -> chunk 1 */
	{ 132, 128, 148 },    /* a byte inside its chunk keeps its place */
	{ 7 * 128, 128, 7 * 128 + 7 * 16 },
	{ 8 * 128, 128, 8 * 128 }, /* the pattern repeats every 1024 bytes */
	{ 9 * 128 + 48, 128, 9 * 128 + 32 },
	{ 3 * 128, 64, 3 * 128 + 48 },
	{ 4 * 128 + 16, 64, 4 * 128 + 16 }, /* 64 bytes: repeats every 512 */
	{ 128, 32, 144 },
	{ 2 * 128, 32, 2 * 128 },            /* 32 bytes: repeats every 256 */
	{ 128, 0, 128 },                     /* no swizzle */
};

START_TEST(test_tma_swizzle)
{
	int i = _i;
	int64_t at = sm_tma_swizzle(tma_table[i].off, tma_table[i].span);
	ck_assert_msg(at == tma_table[i].at, "row %d: %lld -> %lld, want %lld", i, (long long)tma_table[i].off,
		      (long long)at, (long long)tma_table[i].at);
	/* its own inverse: the read that undoes it */
	ck_assert_int_eq(sm_tma_swizzle(at, tma_table[i].span), tma_table[i].off);
}
END_TEST

/* Accesses of a 32x32 float box a TMA copy wrote with a swizzle (float
 * s[1024], 32 threads, lane = row r, column c = 5): which are judged not
 * to follow it (engine/tma.c). */
enum { COL_PLAIN, COL_CHUNK_XOR, COL_ELEM_XOR, ROW0_ONLY, COL_CHUNK_XOR_64 };
static const struct {
	int form;
	unsigned span;       /* the map's swizzle */
	int mismatch;        /* reported */
} tma_reads[] = {
	{ COL_PLAIN, 128, 1 },        /* s[r*32 + c]: ignores it */
	{ COL_CHUNK_XOR, 128, 0 },    /* s[r*32 + ((c>>2 ^ r&7)<<2 | c&3)]: follows it */
	{ COL_ELEM_XOR, 128, 1 },     /* s[r*32 + (c ^ r&7)]: the element, not the chunk */
	{ ROW0_ONLY, 128, 0 },        /* s[r] (row 0): the swizzle moves nothing there */
	{ COL_PLAIN, 0, 0 },          /* no swizzle: nothing to follow */
	{ COL_PLAIN, 64, 1 },
	{ COL_CHUNK_XOR, 64, 1 },     /* the 128-byte form under a 64-byte map */
	{ COL_CHUNK_XOR_64, 64, 0 },  /* s[r*32 + ((c>>2 ^ r&3)<<2 | c&3)]: 128-byte rows, 64-byte swizzle */
};

START_TEST(test_tma_mismatch)
{
	int i = _i;
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_expr *r = tid(&b), *c = K(&b, 5), *col;
	switch (tma_reads[i].form) {
	case COL_CHUNK_XOR:
	case COL_CHUNK_XOR_64: {
		struct sm_expr *row = tma_reads[i].form == COL_CHUNK_XOR ? OP(&b, SM_OP_AND, r, K(&b, 7))
									: OP(&b, SM_OP_AND, r, K(&b, 3));
		col = OP(&b, SM_OP_OR, OP(&b, SM_OP_SHL, OP(&b, SM_OP_XOR, OP(&b, SM_OP_SHR, c, K(&b, 2)), row), K(&b, 2)),
			 OP(&b, SM_OP_AND, c, K(&b, 3)));
		break;
	}
	case COL_ELEM_XOR:
		col = OP(&b, SM_OP_XOR, c, OP(&b, SM_OP_AND, r, K(&b, 7)));
		break;
	default:
		col = c;
		break;
	}
	struct sm_expr *idx = tma_reads[i].form == ROW0_ONLY ? r : OP(&b, SM_OP_ADD, OP(&b, SM_OP_MUL, r, K(&b, 32)), col);
	struct sm_stmt *copy = sm_irb_access(&b, SM_ACC_STORE, K(&b, 0));
	struct sm_tensor_map map = { .elem_size = 4, .rank = 2, .box = { 32, 32 }, .swizzle = tma_reads[i].span };
	copy->access->width = 4096;
	copy->access->async_copy = copy->access->bulk = copy->access->tensor = true;
	copy->access->tmap = &map;
	struct sm_stmt *body = sm_irb_block(&b, 2, copy, sm_irb_access(&b, SM_ACC_LOAD, idx));
	struct sm_kernel_facts f;
	facts_of_warp(&b, body, &f);
	struct sm_tma_mismatch mm[4];
	int n = sm_tma_mismatches(&f, &b.A, mm, 4);
	ck_assert_msg(n == tma_reads[i].mismatch, "row %d: %d mismatches, want %d", i, n, tma_reads[i].mismatch);
	if (n) {
		ck_assert_int_eq(mm[0].copy, 0);
		ck_assert_int_eq(mm[0].access, 1);
		/* the witness: what the thread reads is not what the copy put there */
		ck_assert(mm[0].holds != mm[0].meant);
	}
	sm_irb_release(&b);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("bank");
	TCase *tc = tcase_create("model");
	tcase_add_loop_test(tc, test_stride, 0, sizeof(stride_table) / sizeof(stride_table[0]));
	tcase_add_loop_test(tc, test_tile, 0, sizeof(tile_table) / sizeof(tile_table[0]));
	tcase_add_loop_test(tc, test_out_of_bounds, 0, sizeof(oob_table) / sizeof(oob_table[0]));
	tcase_add_loop_test(tc, test_shift_loops, 0, sizeof(shift_table) / sizeof(shift_table[0]));
	tcase_add_test(tc, test_guard_active_lanes);
	tcase_add_test(tc, test_wavefronts_pure);
	tcase_add_test(tc, test_cp_async_wavefronts);
	tcase_add_test(tc, test_facts_on_first_use);
	tcase_add_loop_test(tc, test_tma_swizzle, 0, sizeof(tma_table) / sizeof(tma_table[0]));
	tcase_add_loop_test(tc, test_tma_mismatch, 0, sizeof(tma_reads) / sizeof(tma_reads[0]));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
