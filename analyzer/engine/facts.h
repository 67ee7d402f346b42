/* facts.h - everything the rules may ask about one kernel, computed on
 * first use and kept for the rest of the file.
 *
 * The driver resolves each kernel into a facts object (the resolved
 * accesses and statements, and the block shapes it is analyzed with); the
 * costly facts are filled in only when a rule (or --all-accesses) asks:
 * the bank degree of every access, the races for each block shape, the
 * divergent barriers, and for a kernel whose shape is assumed, the races
 * and divergent barriers under its other admissible shapes. A rule that is disabled therefore costs nothing, and
 * two rules asking for the same fact share one computation. The IR itself
 * holds no cache. One facts object belongs to one worker (no locking). */
#ifndef SMEMLINT_ENGINE_FACTS_H
#define SMEMLINT_ENGINE_FACTS_H

#include <stdbool.h>

#include "base/limits.h"
#include "engine/analysis.h"
#include "engine/threaddep.h"
#include "smemlint/arena.h"
#include "smemlint/options.h"

/* The races of one kernel for one block shape. */
struct sm_race_set {
	bool done;                    /* searched (ok or not) */
	bool ok;                      /* false: the search ran out of memory */
	bool partial;                 /* the analysis budget stopped the search */
	struct sm_race *v;
	unsigned n;
};

struct sm_kernel_facts {
	struct sm_kernel_model model;  /* resolved accesses and statements */
	bool resolved;                 /* false: resolution ran out of memory (partial model) */
	const struct sm_analysis_options *opt;
	struct sm_arena *arena;        /* the file's IR arena: facts live there */
	struct sm_work *work;          /* the file's analysis budget, shared by its
	                                * kernels (set by the driver after init);
	                                * NULL: unlimited */

	/* the launch contexts (engine/launch.h): the block shapes it is
	 * analyzed with (launch.shape[], each with its provenance), what every
	 * launch agrees on, every launch site, and the sites that fix
	 * different parameter values. Nothing else reads launch values. */
	struct sm_kernel_launches launch;

	/* one model per launch.values[] context, resolved with its values (the
	 * degrees are the worst over them; races and divergence use model):
	 * value_model[0..nvalue_models) */
	int nvalue_models;
	struct sm_kernel_model value_model[SM_MAX_LAUNCH_CONTEXTS];

	/* on first use */
	struct sm_access_result *degrees;     /* [model.nacc], worst over the shapes */
	bool degrees_failed;
	struct sm_race_set races[SM_MAX_BLOCK_SHAPES]; /* per launch.shape[] */
	struct sm_divergence *divergence;     /* divergent block barriers */
	int ndivergence;                      /* -1: not computed yet */

	/* when the shape is assumed, the races and divergent barriers under
	 * each of launch.other[] (asked for only to check a finding; allocated
	 * on first use, launch.nother of them) */
	struct sm_other_shape *other;
};

/* The facts of one of launch.other[]. */
struct sm_other_shape {
	struct sm_race_set races;
	struct sm_divergence *divergence;
	int ndivergence;
	bool divergence_done;
};

/* Resolve kernel k and fix its launch contexts. Returns 0, or -1 when the
 * arena ran out during resolution (the model is then partial, still
 * usable). */
int sm_kernel_facts_init(struct sm_kernel_facts *f, struct sm_kernel *k, const struct sm_analysis_options *opt,
			 struct sm_arena *A);

/* The degree of every access (model.acc order), worst over the block
 * shapes; NULL when out of memory. */
const struct sm_access_result *sm_kernel_facts_degrees(struct sm_kernel_facts *f);

/* The races for the block shape of launch.shape[b]; NULL when the search ran out of
 * memory. Once the budget (work) is spent, the degrees of the accesses
 * not yet computed are not analyzed (why SM_WHY_BUDGET) and the race
 * search stops where it is (the set's partial flag): what was found is
 * kept. */
const struct sm_race_set *sm_kernel_facts_races(struct sm_kernel_facts *f, int b);

/* The divergent block barriers, in source order: the count, or -1 when
 * out of memory (*out then NULL). */
int sm_kernel_facts_divergence(struct sm_kernel_facts *f, const struct sm_divergence **out);

/* The same two for the block shape launch.other[i] in place of the assumed
 * launch.shape[0] (same model, same budget): what a finding made under the
 * assumption is checked against. The races are searched only between the
 * statements of the assumed shape's races (not benign), each pair to its
 * end. NULL / -1 as above, and for i out of range. */
const struct sm_race_set *sm_kernel_facts_races_other(struct sm_kernel_facts *f, int i);
int sm_kernel_facts_divergence_other(struct sm_kernel_facts *f, int i, const struct sm_divergence **out);

#endif
