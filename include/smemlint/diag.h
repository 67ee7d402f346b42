/* diag.h - findings as values, handed to a sink (as git fsck's error_func).
 *
 * Rules never print: they fill a struct sm_diag and pass it to
 * sm_sink_report(). The sink copies everything it keeps into its own
 * storage, so a rule may build messages in its scratch arena.
 */
#ifndef SMEMLINT_DIAG_H
#define SMEMLINT_DIAG_H

#include <stdbool.h>
#include <stdint.h>

#include "smemlint/arena.h"
#include "smemlint/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The levels, least first. ASSUMED sits below NOTE: a barrier finding
 * computed under an assumed block shape (no launch, __launch_bounds__ or
 * --block-dim gave it) that does not hold for every admissible shape; the
 * default --fail-on (note) does not count it. */
enum sm_level { SM_LEVEL_NONE, SM_LEVEL_ASSUMED, SM_LEVEL_NOTE, SM_LEVEL_WARNING, SM_LEVEL_ERROR };

const char *sm_level_name(enum sm_level l);

/* Secondary locations one finding carries: a condition, a jump and every
 * further barrier the same cause makes divergent (one early return before
 * a dozen cooperative-groups syncs is one finding). Past it: the finding's
 * message counts the barriers not listed. */
#define SM_MAX_RELATED 16

/* A secondary location: the declaration of the array, the other access of
 * a race, the condition of a divergent barrier. */
struct sm_related {
	struct sm_range range;
	const char *message;
};

/* Where a launch fact came from (the provenance findings print). */
enum sm_launch_source {
	SM_LAUNCH_NONE,      /* no launch context: a finding not about a launch */
	SM_LAUNCH_SITE,      /* a launch k<<<grid, block, smem>>> in the file (site) */
	SM_LAUNCH_BOUNDS,    /* __launch_bounds__(bound) */
	SM_LAUNCH_CLUSTER,   /* __cluster_dims__(...) */
	SM_LAUNCH_OPTION,    /* --block-dim on the command line (or the embedding
	                      * program's options) */
	SM_LAUNCH_CONFIG,    /* block-dim: in a .smemlint.yaml (config) */
	SM_LAUNCH_ASSUMED,   /* nothing gave it: the stated assumption */
	SM_LAUNCH_ANY,       /* the finding holds at every launch: the code alone
	                      * decides it (no block shape; a divergent barrier
	                      * judged by its condition's syntax) */
};

/* What trying a barrier finding made under an assumed block shape with
 * the kernel's other admissible shapes showed (engine/launch.h other[]). */
enum sm_hold {
	SM_HOLD_UNCHECKED,   /* not tried: not a barrier finding, or no other shape */
	SM_HOLD_ALL,         /* the same finding under every other shape */
	SM_HOLD_NOT,         /* not under not_for: reported at SM_LEVEL_ASSUMED */
	SM_HOLD_UNKNOWN,     /* a search the budget (or memory) cut short lacks
	                      * it: reported at SM_LEVEL_ASSUMED */
};

/* One fact's provenance. */
struct sm_launch_from {
	enum sm_launch_source kind;
	struct sm_range site;        /* SITE: the launch expression */
	const char *file;            /* SITE, in a finding: the launch's file when
	                              * it is not the finding's, else NULL */
	int64_t bound;               /* BOUNDS: the max threads per block; ASSUMED: the
	                              * bound that limited the assumption, or 0 */
	const char *config;          /* CONFIG: the file that set it */
	/* ASSUMED, in a barrier finding: whether it holds under the other
	 * shapes (the message says so after the shape); small fields: every
	 * launch context holds five of these structs */
	uint8_t hold;                /* enum sm_hold */
	bool hold_divergent;         /* a divergent barrier ("not divergent for"),
	                              * else a race ("not a race for") */
	bool runtime_site;           /* ASSUMED: the kernel has a launch site, whose
	                              * block shape is computed at run time */
	uint8_t fixed;               /* ASSUMED: the dimensions (bit d: x, y, z)
	                              * every launch fixes, kept in the shape;
	                              * the others are assumed */
	bool fitted;                 /* ASSUMED: shapes under which a thread
	                              * certainly indexes past a declared extent
	                              * of a shared array were left out */
	uint8_t nother;              /* ALL: how many other shapes were tried */
	uint16_t not_for[3];         /* NOT: the first shape without it (x, y, z) */
	uint16_t min_threads;        /* ALL: their fewest and most threads */
	uint16_t max_threads;
};

/* The launch context a finding was computed under: the block shape and
 * where it came from, and the launch values known with it. */
struct sm_diag_launch {
	struct sm_dim3 block;        /* all 0: no context (from.kind NONE) */
	struct sm_launch_from from;  /* the block shape's provenance */
	struct sm_dim3 grid;         /* all 0: not known */
	int64_t dyn_smem;            /* dynamic shared bytes; -1: not known */
	struct sm_dim3 cluster;      /* __cluster_dims__; all 0: none */
};

const char *sm_launch_source_name(enum sm_launch_source k);

/* A replacement of range by text in the analyzed file. */
struct sm_fixit {
	struct sm_range range;
	const char *text;
};

/* One thread's access that a finding is about (shared-out-of-bounds). */
struct sm_diag_witness {
	bool set;
	int64_t thread[3];           /* threadIdx (x, y, z) */
	int64_t offset;              /* its first byte, from the array's start */
	int64_t extent;              /* the array's bytes (or the launch's dynamic size) */
};

struct sm_diag {
	int rule;                    /* enum sm_rule_id */
	enum sm_level level;         /* set by the driver to the rule's level; a
	                              * rule sets SM_LEVEL_ASSUMED to report below
	                              * it (a race for the assumed shape only) */
	struct sm_range range;       /* where the finding is */
	const char *message;         /* one line, problem first, lowercase */
	const char *note;            /* optional second line (the fix, an assumption) */
	const char *kernel;          /* enclosing kernel, or NULL */
	const char *array;           /* shared array involved, or NULL */
	int access;                  /* enum sm_access_kind, or -1 */
	int ways;                    /* bank-conflict degree (rounded), or 0 */
	double degree;               /* exact wavefronts/ideal, or 0 */
	struct sm_dim3 block;        /* block shape the finding was computed for */
	bool block_assumed;          /* no launch site or flag gave the shape */
	struct sm_diag_launch launch;/* the launch context of block, with its
	                              * provenance (from.kind NONE: the rule is
	                              * not about a launch, unused-suppression) */
	struct sm_related related[SM_MAX_RELATED];
	int nrelated;
	struct sm_fixit fix;         /* fix.text == NULL: no fix */
	const struct sm_fixit *fix_more; /* the same fix's other edits, nfix_more
	                              * of them, applied with fix or not at all
	                              * (a swizzle rewrites every access of its
	                              * array), or NULL */
	unsigned nfix_more;
	const char *fix_refused;     /* why a fix exists but --fix won't apply it */
	const int64_t *bank_addr;    /* worst warp's byte addresses (32), or NULL */
	uint32_t bank_mask;          /* active lanes of that warp */
	unsigned width;              /* bytes per lane of the access */
	uint64_t wavefronts;         /* bank-conflict: the access's shared
	                              * wavefronts in one block (every warp and
	                              * iteration), or 0 */
	uint64_t ideal_wavefronts;   /* the same without conflicts */
	bool wavefronts_exact;       /* every iteration counted (no unknown bound) */
	struct sm_diag_witness witness; /* the thread that shows it, when set */
};

/* A sink collects findings. report() must copy what it keeps. */
struct sm_sink {
	void (*report)(struct sm_sink *sink, const struct sm_diag *d);
	void *ctx;
};

static inline void sm_sink_report(struct sm_sink *sink, const struct sm_diag *d)
{
	sink->report(sink, d);
}

#ifdef __cplusplus
}
#endif

#endif
