/* test_raceindex.c - Check tests of the race search's pair pruning
 * (analyzer/engine/raceindex.c: which accesses no other thread's access
 * can meet) and of its budget (races.c: every pair, graph node and thread
 * tried counts, and the search stops within 2x of the limit, naming the
 * kernel). Never links libclang. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "engine/raceindex.h"
#include "engine/threaddep.h"
#include "ir_builder.h"

/* ---- the index, table-driven ----
 * Each row: up to 4 accesses, each a storage (0 or 1), a kind and up to 4
 * touches {lo, hi, thread}; the accesses expected alone. */
struct irow {
	const char *what;
	int nacc;
	struct {
		int storage;
		enum sm_touch_kind kind;
		int n;
		struct sm_touch t[4];
	} acc[4];
	bool alone[4];
};

#define TOUCH(lo, hi, th) { lo, hi, th }
static const struct irow index_rows[] = {
	{ "s[t] stored and loaded: every byte one thread's", 2,
	  { { 0, SM_TOUCH_STORE, 2, { TOUCH(0, 4, 0), TOUCH(4, 8, 1) } }, { 0, SM_TOUCH_LOAD, 2, { TOUCH(4, 8, 1), TOUCH(0, 4, 0) } } },
	  { true, true } },
	{ "s[t] stored, s[t + 1] loaded: thread 0 reads thread 1's", 2,
	  { { 0, SM_TOUCH_STORE, 2, { TOUCH(0, 4, 0), TOUCH(4, 8, 1) } }, { 0, SM_TOUCH_LOAD, 2, { TOUCH(4, 8, 0), TOUCH(8, 12, 1) } } },
	  { false, false } },
	{ "two loads of s[0] by every thread: loads never race", 2,
	  { { 0, SM_TOUCH_LOAD, 2, { TOUCH(0, 4, 0), TOUCH(0, 4, 1) } }, { 0, SM_TOUCH_LOAD, 2, { TOUCH(0, 4, 0), TOUCH(0, 4, 1) } } },
	  { true, true } },
	{ "two atomics on one bin: atomics never race with each other", 2,
	  { { 0, SM_TOUCH_ATOMIC, 2, { TOUCH(0, 4, 0), TOUCH(0, 4, 1) } }, { 0, SM_TOUCH_ATOMIC, 1, { TOUCH(0, 4, 2) } } },
	  { true, true } },
	{ "an atomic and a load of one bin by two threads", 2,
	  { { 0, SM_TOUCH_ATOMIC, 1, { TOUCH(0, 4, 0) } }, { 0, SM_TOUCH_LOAD, 1, { TOUCH(0, 4, 1) } } },
	  { false, false } },
	{ "the same bytes in two storages never meet", 2,
	  { { 0, SM_TOUCH_STORE, 1, { TOUCH(0, 4, 0) } }, { 1, SM_TOUCH_STORE, 1, { TOUCH(0, 4, 1) } } },
	  { true, true } },
	{ "adjacent bytes do not overlap; a wide store does", 3,
	  { { 0, SM_TOUCH_STORE, 2, { TOUCH(0, 4, 0), TOUCH(4, 8, 1) } }, { 0, SM_TOUCH_STORE, 1, { TOUCH(8, 12, 2) } },
	    { 1, SM_TOUCH_STORE, 2, { TOUCH(0, 8, 0), TOUCH(4, 12, 1) } } },
	  { true, true, false } },
	{ "no thread runs it: alone; one store by one thread alone", 3,
	  { { 0, SM_TOUCH_STORE, 0, { TOUCH(0, 0, 0) } }, { 0, SM_TOUCH_STORE, 1, { TOUCH(0, 4, 5) } },
	    { 0, SM_TOUCH_LOAD, 1, { TOUCH(0, 4, 5) } } },
	  { true, true, true } },
	{ "one signature shared by many accesses, one of them met by a fourth", 4,
	  { { 0, SM_TOUCH_STORE, 2, { TOUCH(0, 4, 0), TOUCH(4, 8, 1) } }, { 0, SM_TOUCH_STORE, 2, { TOUCH(0, 4, 0), TOUCH(4, 8, 1) } },
	    { 0, SM_TOUCH_STORE, 2, { TOUCH(4, 8, 1), TOUCH(0, 4, 0) } }, { 0, SM_TOUCH_LOAD, 1, { TOUCH(2, 6, 3) } } },
	  { false, false, false, false } },
};

START_TEST(test_index_rows)
{
	const struct irow *R = &index_rows[_i];
	struct sm_race_index *X = sm_race_index_new((unsigned)R->nacc, 1000);
	ck_assert_ptr_nonnull(X);
	uint64_t steps = 0;
	static const int storages[2] = { 0, 0 };
	for (int a = 0; a < R->nacc; a++) {
		struct sm_touch t[4];
		memcpy(t, R->acc[a].t, sizeof(t));
		ck_assert_int_eq(sm_race_index_add(X, (unsigned)a, &storages[R->acc[a].storage], R->acc[a].kind, t,
						   R->acc[a].n, &steps), 0);
	}
	ck_assert_int_eq(sm_race_index_finish(X, &steps), 0);
	for (int a = 0; a < R->nacc; a++)
		ck_assert_msg(sm_race_index_alone(X, (unsigned)a) == R->alone[a], "%s: access %d", R->what, a);
	ck_assert_uint_gt(steps, 0);
	sm_race_index_free(X);
}
END_TEST

START_TEST(test_index_full)
{
	/* past its touches an access is not indexed, so never alone */
	struct sm_race_index *X = sm_race_index_new(2, 2);
	uint64_t steps = 0;
	int st = 0;
	struct sm_touch a[2] = { TOUCH(0, 4, 0), TOUCH(4, 8, 1) }, b[2] = { TOUCH(8, 12, 0), TOUCH(12, 16, 1) };
	ck_assert_int_eq(sm_race_index_add(X, 0, &st, SM_TOUCH_STORE, a, 2, &steps), 0);
	ck_assert_int_eq(sm_race_index_add(X, 1, &st, SM_TOUCH_STORE, b, 2, &steps), -1);
	ck_assert_int_eq(sm_race_index_finish(X, &steps), 0);
	ck_assert(sm_race_index_alone(X, 0));
	ck_assert(!sm_race_index_alone(X, 1));
	sm_race_index_free(X);
}
END_TEST

/* ---- the search on many accesses ---- */

/* n statements s[t] += ..: a load and a store of the thread's own element */
static struct sm_stmt *accumulations(struct sm_irb *b, int n, bool neighbour)
{
	struct sm_stmt *body = blk(b, 0);
	body->kids = sm_arena_alloc(&b->A, (size_t)n * sizeof(*body->kids));
	ck_assert_ptr_nonnull(body->kids);
	for (int i = 0; i < n; i++) {
		struct sm_expr *ix = neighbour && i % 2 ? OP(b, SM_OP_ADD, tid(b), K(b, 1)) : tid(b);
		body->kids[i] = blk(b, 2, acc(b, SM_ACC_LOAD, tid(b)), acc(b, SM_ACC_STORE, ix));
	}
	body->nkids = n;
	return body;
}

START_TEST(test_many_own_elements)
{
	/* 2,000 accesses of the threads' own elements: no pair is formed, so
	 * the search takes a few steps per access */
	struct sm_irb b;
	sm_irb_init(&b);
	struct sm_kernel_model m;
	sm_irb_resolve(&b, accumulations(&b, 1000, false), &m);
	struct sm_work w = { .limit = 0 };
	struct sm_race *r;
	unsigned n = 0;
	struct sm_dim3 B = { 128, 1, 1 };
	ck_assert_int_eq(sm_kernel_races_in(&m, B, &b.A, &w, &r, &n), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_uint_lt(w.used, 2000ull * 2000);
	sm_irb_release(&b);
}
END_TEST

START_TEST(test_budget_stops_within_twice)
{
	/* every other store is of the neighbour's element: real races, every
	 * pair tried; a small budget stops within 2x and names the kernel */
	static const uint64_t limits[] = { 1000, 5000, 20000, 100000 };
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		struct sm_irb b;
		sm_irb_init(&b);
		struct sm_kernel_model m;
		sm_irb_resolve(&b, accumulations(&b, 400, true), &m);
		struct sm_work w = { .limit = limits[i] };
		struct sm_race *r;
		unsigned n = 0;
		struct sm_dim3 B = { 128, 1, 1 };
		ck_assert_int_eq(sm_kernel_races_in(&m, B, &b.A, &w, &r, &n), 0);
		ck_assert(w.spent);
		ck_assert_uint_le(w.used, 2 * limits[i]);
		ck_assert_ptr_nonnull(w.spent_in);
		ck_assert_str_eq(w.spent_in, m.kernel->name);
		sm_irb_release(&b);
	}
}
END_TEST

/* The race search's partner lookup: the galloping search gives the first
 * entry above a key exactly as a scan does, from any starting point and
 * over any sub-range (a warp's), on entries with repeated addresses; the
 * split by warp keeps each warp's entries in address order. */
START_TEST(test_taddr_lookup)
{
	enum { N = 96 };
	struct sm_taddr e[N], w[N];
	unsigned x = 12345;
	for (int i = 0; i < N; i++) {
		x = x * 1103515245u + 12345u;
		e[i].addr = (int64_t)((x >> 16) % 40) * 4 - 16; /* repeats, negatives */
		e[i].lin = i;
	}
	sm_taddr_sort(e, N);
	for (int i = 1; i < N; i++)
		ck_assert(e[i - 1].addr < e[i].addr || (e[i - 1].addr == e[i].addr && e[i - 1].lin < e[i].lin));
	const int ranges[][2] = { { 0, N }, { 0, 0 }, { 5, 6 }, { 10, 50 }, { 37, N } };
	for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
		int from = ranges[r][0], end = ranges[r][1];
		for (int64_t key = -24; key <= 170; key += 3)
			for (int near = -1; near <= N + 1; near++) {
				int want = from;
				while (want < end && e[want].addr <= key)
					want++;
				int got = sm_taddr_first_above(e, from, end, near, key);
				ck_assert_msg(got == want, "[%d, %d) key %lld from %d: %d, want %d", from, end,
					      (long long)key, near, got, want);
			}
	}
	int start[4];
	sm_taddr_by_warp(e, N, 3, w, start);
	ck_assert_int_eq(start[0], 0);
	ck_assert_int_eq(start[3], N);
	for (int wp = 0; wp < 3; wp++) {
		ck_assert_int_eq(start[wp + 1] - start[wp], 32);
		for (int i = start[wp]; i < start[wp + 1]; i++) {
			ck_assert_int_eq(w[i].lin / 32, wp);
			if (i > start[wp])
				ck_assert(w[i - 1].addr < w[i].addr || (w[i - 1].addr == w[i].addr && w[i - 1].lin < w[i].lin));
		}
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("raceindex");
	TCase *tc = tcase_create("index");
	tcase_add_loop_test(tc, test_index_rows, 0, (int)(sizeof(index_rows) / sizeof(index_rows[0])));
	tcase_add_test(tc, test_index_full);
	tcase_add_test(tc, test_taddr_lookup);
	suite_add_tcase(s, tc);
	TCase *ts = tcase_create("search");
	tcase_set_timeout(ts, 60);
	tcase_add_test(ts, test_many_own_elements);
	tcase_add_test(ts, test_budget_stops_within_twice);
	suite_add_tcase(s, ts);
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
