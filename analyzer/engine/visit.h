/* visit.h - the one walk over a closed expression (struct sm_expr): does
 * any node of it satisfy a predicate?
 *
 * Every question the engine asks of an expression's shape ("does it read
 * threadIdx.y?", "a loop counter of L?", "a kernel parameter?") is such a
 * walk; they differ only in the predicate, in which edges besides the
 * operands a, b and c they follow, and in what a walk that reaches its
 * depth cap answers. The edges: the place of a pointer (SM_E_ADDR) or of a
 * load (SM_E_OPAQUE with a place), each index, its extra byte offset and
 * its base; and the start and step of a loop counter (SM_E_LOOPVAR,
 * SM_E_LOOPEXIT), which its value derives from.
 */
#ifndef SMEMLINT_ENGINE_VISIT_H
#define SMEMLINT_ENGINE_VISIT_H

#include <stdbool.h>

#include "engine/analysis.h"

/* What the predicate says of one node. */
enum sm_seen {
	SM_SEEN_GO,     /* not this node: look at what it is made of */
	SM_SEEN_SKIP,   /* not this node, and nothing below it */
	SM_SEEN_HIT,    /* this node: the walk answers true */
};

/* Edges followed besides the operands. */
enum {
	SM_WALK_ADDR_PLACE = 1u << 0, /* a pointer's place (SM_E_ADDR) */
	SM_WALK_LOAD_PLACE = 1u << 1, /* a load's place (SM_E_OPAQUE) */
	SM_WALK_IVS = 1u << 2,        /* a loop counter's start and step */
};

struct sm_expr_walk {
	enum sm_seen (*node)(const struct sm_expr *e, void *arg); /* the predicate */
	void *arg;                    /* passed to node */
	unsigned edges;               /* SM_WALK_* */
	int max_depth;                /* a node deeper than this (the root is 0)... */
	bool deep_answer;             /* ...makes the walk answer this */
};

/* Does some node of e (NULL: none) satisfy w's predicate? */
bool sm_expr_any(const struct sm_expr *e, const struct sm_expr_walk *w);

#endif
