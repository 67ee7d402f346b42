/* launch.h - the launch contexts a kernel is analyzed under: the one place
 * the engine and the rules read launch values from.
 *
 * A launch context holds what one launch (or the analysis's stand-in for
 * one) fixes: the block and grid shapes, the dynamic shared-memory size,
 * the cluster shape and the kernel arguments that are constants, each with
 * where it came from (a launch site, __launch_bounds__, __cluster_dims__,
 * --block-dim, the config's block-dim:, or the stated assumption). For a
 * kernel there are three lists:
 *   - shapes: the block shapes it is analyzed with (--block-dim or the
 *     config's; else every distinct constant launch shape, the first site
 *     naming each; else __launch_bounds__ when the kernel reads no
 *     threadIdx.y; else an assumed shape by the dimensions it reads), with
 *     the values every launch agrees on (common); when assumed, the other
 *     shapes the kernel admits (other[]): a barrier finding is reported at
 *     its rule's level only when it holds under each of them too;
 *   - common: the values every launch of the file agrees on (a parameter
 *     passed the same constant everywhere, a grid every launch uses): what
 *     the kernel's main model is resolved with;
 *   - sites: one context per launch in the file (the divergence verdict
 *     evaluates each), and values: the sites that fix different parameter
 *     values, each resolved into a model of its own (engine/facts.c).
 * Findings copy the context they were computed under (sm_launch_ctx_diag)
 * and print its provenance. */
#ifndef SMEMLINT_ENGINE_LAUNCH_H
#define SMEMLINT_ENGINE_LAUNCH_H

#include <stdbool.h>
#include <stdint.h>

#include "base/limits.h"
#include "smemlint/arena.h"
#include "smemlint/diag.h"
#include "smemlint/ir.h"
#include "smemlint/options.h"

struct sm_launch_ctx {
	struct sm_dim3 block;              /* threads per block, when block_known */
	bool block_known;
	struct sm_launch_from block_from;
	struct sm_dim3 grid;               /* blocks per grid, when grid_known */
	bool grid_known;
	struct sm_launch_from grid_from;   /* SITE (the site, or the first of the
	                                    * launches that all agree) */
	int64_t dyn_smem;                  /* dynamic shared bytes; -1: not known */
	struct sm_launch_from smem_from;
	struct sm_dim3 cluster;            /* blocks per cluster, when cluster_known */
	bool cluster_known;
	struct sm_launch_from cluster_from;
	const struct sm_launch_arg *args;  /* one per parameter (nargs), known
	                                    * only for a constant that is not a
	                                    * pointer; NULL when none is known */
	unsigned nargs;
	struct sm_launch_from args_from;
	const struct sm_launch *site;      /* the launch this context is, or NULL */
};

struct sm_kernel_launches {
	struct sm_launch_ctx shape[SM_MAX_BLOCK_SHAPES]; /* block always known */
	int nshapes;                       /* >= 1 */
	bool assumed;                      /* the shape is the stated assumption */
	struct sm_dim3 *other;             /* assumed: the other block shapes it
	                                    * admits (by the dimensions it reads,
	                                    * within __launch_bounds__), fewest
	                                    * threads first: other[0..nother) */
	int nother;
	struct sm_launch_ctx common;       /* what every launch agrees on */
	struct sm_launch_ctx *site;        /* one per launch of the kernel */
	unsigned nsites;
	const struct sm_launch_ctx *values[SM_MAX_LAUNCH_CONTEXTS]; /* sites that
	                                    * fix different parameter values
	                                    * (none when every launch agrees) */
	int nvalues;
};

/* A kernel whose shape is assumed (L->assumed): drop from its shapes
 * (shape[0] and other[]) those under which a thread certainly indexes a
 * shared array of model m outside a declared extent (threadIdx.x into a
 * [16][16] tile with 32 threads), unless none is left; the new assumption
 * is the one left nearest 256 threads. A kernel is not launched with a
 * block that overflows its own tiles, and a race found only there is
 * none. Sets shape[0].block_from.fitted when it dropped one. */
struct sm_kernel_model;
void sm_kernel_launches_fit(struct sm_kernel_launches *L, const struct sm_kernel_model *m);

/* The launch contexts of kernel k under options opt, allocated in A.
 * Returns 0, or -1 when A ran out (the lists then hold what fitted; the
 * shapes are always filled). */
int sm_kernel_launches_init(struct sm_kernel_launches *L, const struct sm_kernel *k,
			    const struct sm_analysis_options *opt, struct sm_arena *A);

/* What every launch of k agrees on (L->common alone): for resolving k
 * without the rest. Returns 0, or -1 when A ran out (then nothing is
 * known). */
int sm_kernel_launch_common(const struct sm_kernel *k, struct sm_arena *A, struct sm_launch_ctx *out);

/* The block shapes of the contexts shape[0..n) into out (for stages that
 * take shapes only). */
void sm_launch_shapes(const struct sm_launch_ctx *shape, int n, struct sm_dim3 *out);

/* The context as a finding carries it (the block's provenance, and the
 * grid, dynamic shared size and cluster when known). NULL: none. */
struct sm_diag_launch sm_launch_ctx_diag(const struct sm_launch_ctx *c);

#endif
