/* nest.h - what the witness searches outside races.c share (internal to
 * engine): the loop iterations two accesses are tried at (the loops around either, how many iterations of each a search
 * tries, and which of the two each loop is around. Used where a witness
 * is looked for at a few iterations rather than by races.c's full
 * enumeration: a thread's own copy read too early (async_wait.c), a block's
 * access paired with another block's (dsmem.c)), and adding the races
 * found to a kernel's list. */
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

/* Append add[0..nadd) to the arena array *out of *nout races. Returns 0,
 * or -1 when out of memory. */
int sm_races_append(struct sm_arena *A, struct sm_race **out, unsigned *nout, const struct sm_race *add,
		    unsigned nadd);

#endif
