/* race_rule.h - what missing-barrier and warp-sync share: one walk over
 * every kernel's races (searched once per kernel and block shape, in the
 * kernel's facts) and one builder of race findings.
 *
 * A kernel whose block shape nothing gives is analyzed under an assumed
 * one (engine/launch.c). A race found under it is searched for under the
 * kernel's other admissible shapes (the same kind between the same two
 * statements, by source range) before it is reported: found under every
 * one, it keeps its rule's level; else it is reported at the level
 * `assumed` (below note), its message naming a shape it does not hold
 * for. Those searches run only for a kernel with a race to report. */
#ifndef SMEMLINT_RULES_RACE_RULE_H
#define SMEMLINT_RULES_RACE_RULE_H

#include <stdbool.h>

#include "rules/messages.h"
#include "rules/rules.h"

/* One race handed to a rule by sm_rule_each_race(). */
struct sm_race_visit {
	const struct sm_kernel_model *m;
	const struct sm_race *r;
	const struct sm_race *all;    /* every race of this kernel and block shape */
	unsigned nall;
	struct sm_dim3 block;
	const struct sm_launch_ctx *launch; /* the launch context of block (its
	                               * provenance: a launch, __launch_bounds__,
	                               * --block-dim, the config, assumed) */
	const struct sm_launch_from *hold; /* assumed shape: whether the race holds
	                               * under the other shapes (hold and the fields
	                               * after it); NULL: not assumed (or a benign
	                               * race, never checked) */
};

/* Returns true when it reported a finding for v (its line is then done). */
typedef bool (*sm_race_fn)(const struct sm_rule_ctx *ctx, const struct sm_race_visit *v, struct sm_sink *sink);

/* For every kernel and block shape, hand the races whose inter_warp equals
 * `inter_warp` to fn, at most one reported finding per source line of the
 * later access. Benign races (same_value) are left out: they are
 * same-value-write's. Under an assumed shape the races that hold under
 * every other shape are handed first, so a line gets one of them when it
 * has one. */
void sm_rule_each_race(const struct sm_rule_ctx *ctx, bool inter_warp, sm_race_fn fn, struct sm_sink *sink);

/* The same walk over the benign races only (both warp relations). */
void sm_rule_each_benign_race(const struct sm_rule_ctx *ctx, sm_race_fn fn, struct sm_sink *sink);

/* How a rule names the two parties of a race: "thread 5" / "lane 3 of
 * warp 1" for the later access, and for the earlier one. */
struct sm_race_words {
	int rule;                     /* enum sm_rule_id */
	const char *later;            /* who runs the later access */
	const char *earlier;          /* who ran the earlier one */
	const char *headline;         /* the message before ": <story>" */
	const char *tail;             /* the message after the story (kernel, block) */
	const char *note;             /* the fix */
	const char *related;          /* related[0]'s message: the earlier access */
	const char *story;            /* the story, when not the one sm_race_report
	                               * tells (two blocks of a cluster), or NULL */
};

/* Build and report the finding of race v: the later access's location,
 * kernel, array, block shape, "<later> reads <element>, which <earlier>
 * wrote at line N" as the story, the earlier access as related[0] and the
 * array's declaration as related[1]. */
void sm_race_report(const struct sm_rule_ctx *ctx, const struct sm_race_visit *v, const struct sm_race_words *w,
		    struct sm_sink *sink);

/* When every barrier-free path of race v passes a barrier of a smaller
 * scope that does not order the two threads (r->unordered): "with no
 * barrier ordering both <who> in between ('tile.sync()' at line 26 orders
 * only a 32-thread tile; <aside>)"; NULL when some path meets no barrier
 * at all (the rule keeps its own wording). */
const char *sm_race_unordered_text(const struct sm_rule_ctx *ctx, const struct sm_race_visit *v, const char *who,
				   const char *aside);

/* The name the later access uses for its storage. */
const char *sm_race_array_name(const struct sm_race_visit *v);

/* "with blockDim (32,8,1) from the launch on line 97": the shape the race
 * was found with and its provenance (rules/messages.h); for an assumed
 * shape, what the other shapes showed (sm_launch_from_text). */
const char *sm_race_launch_text(const struct sm_rule_ctx *ctx, const struct sm_race_visit *v);

#endif
