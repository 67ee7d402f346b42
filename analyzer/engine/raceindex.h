/* raceindex.h - which shared accesses can meet another thread's (internal
 * to engine). The race search (races.c) forms a pair of accesses only if
 * two different threads can touch one byte through them; for accesses
 * whose per-thread addresses are known (outside every loop) this index
 * answers that before any pair is formed, in time near-linear in the
 * accesses: accesses with the same touches share one signature, and one
 * sweep over the signatures' byte intervals, per storage, finds the
 * intervals that two threads share. */
#ifndef SM_ENGINE_RACEINDEX_H
#define SM_ENGINE_RACEINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One thread's bytes [lo, hi) through one access. */
struct sm_touch {
	int64_t lo, hi;
	int thread;                /* linear thread id */
};

/* One thread's address through one access, for the race search's
 * partner lookup (races.c): sorted by address, then thread. */
struct sm_taddr {
	int64_t addr;
	int lin;                   /* linear thread id */
};

/* Sort e[0..n) by address, then thread. */
void sm_taddr_sort(struct sm_taddr *e, int n);

/* e[0..n), sorted, again warp by warp into out (each warp's entries in
 * e's order): warp w's are out[start[w] .. start[w + 1]), for nwarps
 * warps (start has nwarps + 1 entries). */
void sm_taddr_by_warp(const struct sm_taddr *e, int n, int nwarps, struct sm_taddr *out, int *start);

/* The first i in [from, end) with e[i].addr > key (end when none), e
 * sorted: a galloping search outward from near, so consecutive threads
 * whose addresses follow each other cost a step or two, not log n. */
int sm_taddr_first_above(const struct sm_taddr *e, int from, int end, int near, int64_t key);

/* What an access does to its bytes, for which pairs can race: two loads
 * never do, nor two atomics. */
enum sm_touch_kind { SM_TOUCH_LOAD, SM_TOUCH_STORE, SM_TOUCH_ATOMIC };

struct sm_race_index;

/* An index for accesses 0..nacc-1 holding at most max_touches distinct
 * touches (SM_RACE_INDEX_TOUCHES); NULL when out of memory. */
struct sm_race_index *sm_race_index_new(unsigned nacc, size_t max_touches);
void sm_race_index_free(struct sm_race_index *X);

/* Add access acc's touches (any order; t is reordered) in storage
 * `storage` (accesses of one storage can meet, others never). Returns 0,
 * or -1 when the index is full or out of memory: acc is then not indexed
 * (sm_race_index_alone says false). Counts its work in *steps. */
int sm_race_index_add(struct sm_race_index *X, unsigned acc, const void *storage, enum sm_touch_kind kind,
		      struct sm_touch *t, int n, uint64_t *steps);

/* After the last add: find the shared intervals. */
int sm_race_index_finish(struct sm_race_index *X, uint64_t *steps);

/* Is indexed access acc alone: no byte it touches is touched by another
 * thread through any indexed access of its storage such that the two can
 * race (not two loads, not two atomics)? False for an access not indexed. */
bool sm_race_index_alone(const struct sm_race_index *X, unsigned acc);

#endif
