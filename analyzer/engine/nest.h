/* nest.h - what the witness searches outside races.c share (internal to
 * engine): the loop iterations two accesses are tried at (the loops around either, how many iterations of each a search
 * tries, and which of the two each loop is around. Used where a witness
 * is looked for at a few iterations rather than by races.c's full
 * enumeration: a thread's own copy read too early (async_wait.c), a block's
 * access paired with another block's (dsmem.c), a write a bulk copy reads
 * (proxy.c)), and adding the races found to a kernel's list. */
#ifndef SM_ENGINE_NEST_H
#define SM_ENGINE_NEST_H

#include "engine/threaddep.h"

#include <stdbool.h>

struct sm_nest {
	const struct sm_loop *L[2 * SM_MAX_LOOPS];
	int tries[2 * SM_MAX_LOOPS];          /* iterations tried of L[i] */
	bool of_a[2 * SM_MAX_LOOPS], of_b[2 * SM_MAX_LOOPS]; /* L[i] is around a, b */
	int n;
};

/* The loops around a, then those around b only: both_iters iterations
 * tried of a loop around both, one_iters of a loop around one. */
void sm_nest_init(struct sm_nest *N, const struct sm_raccess *a, const struct sm_raccess *b, int both_iters,
		  int one_iters);
/* The innermost loop around both (an index into N->L), or -1. */
int sm_nest_common(const struct sm_nest *N);
/* Set the iterations of vector number v (mixed radix over N->tries) into
 * ca (a's loops) and cb (b's); with `carried` b runs one iteration of the
 * innermost loop around both after a. False past the last vector. */
bool sm_nest_vector(const struct sm_nest *N, int v, bool carried, struct sm_eval_ctx *ca, struct sm_eval_ctx *cb);

/* the seeds of the uniform unknowns a witness must hold under (as
 * races.c's) */
#define SM_NEST_SEEDS 3
extern const unsigned sm_nest_seeds[SM_NEST_SEEDS];

/* Do a and b reach the same storage (one array, or the dynamic shared
 * memory both alias)? */
bool sm_same_storage(const struct sm_raccess *a, const struct sm_raccess *b);
/* Thread c->tid's context for r at the iterations in c: does it run r
 * (loops, guards decided), and at which byte under each seed? */
bool sm_nest_runs_at(const struct sm_raccess *r, struct sm_eval_ctx *c, int64_t addr[SM_NEST_SEEDS]);
/* Any thread running a and any thread running b, the same id included
 * (two blocks of a cluster, dsmem.c; a writer and a bulk copy's issuer,
 * proxy.c), whose bytes meet under every seed, at the first iterations
 * (carried: b one iteration of their innermost common loop after a): a's
 * thread among the first warp and the last thread, b's among all. Sets
 * r's kind, threads, byte, cross_iter and inter_warp; false when none is
 * found within the budget work. */
bool sm_nest_pair_witness(const struct sm_raccess *a, const struct sm_raccess *b, bool carried, struct sm_dim3 block,
			  int both_iters, int one_iters, struct sm_work *work, struct sm_race *r);

/* Append add[0..nadd) to the arena array *out of *nout races. Returns 0,
 * or -1 when out of memory. */
int sm_races_append(struct sm_arena *A, struct sm_race **out, unsigned *nout, const struct sm_race *add,
		    unsigned nadd);

#endif
