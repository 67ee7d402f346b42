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
