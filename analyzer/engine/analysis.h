/* analysis.h - from IR to facts the rules read: resolved accesses and the
 * bank engine. No libclang here.
 *
 * resolve: walks a kernel's statement tree with an environment of variable
 * values and turns each access into a closed index tree over thread ids,
 * loop induction variables and unknowns, plus the guards under which it
 * runs. engine: evaluates those trees lane by lane for every warp of the
 * block and every loop iteration, and counts shared-memory wavefronts.
 */
#ifndef SMEMLINT_ANALYSIS_H
#define SMEMLINT_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/limits.h"
#include "smemlint/arena.h"
#include "smemlint/ir.h"
#include "engine/launch.h"
#include "smemlint/options.h"

/* A condition that must hold (or must not, when negate) for code to run. */
struct sm_guard {
	struct sm_expr *cond;
	bool negate;
	struct sm_range range;    /* the condition as written */
	const struct sm_guard *next;
	bool joined;              /* next's condition ran just before this one's,
	                           * with nothing written by this thread in
	                           * between: their loads of one element read one
	                           * value (correlate.c) */
};

/* A loop induction variable: value at iteration k is init (op step)^k.
 * A recurrence (op SM_OP_ASSIGN: pos = (pos + 4) & 63, or an update under
 * a guard) has value init at iteration 0 and step evaluated with SM_E_PREV
 * = the value at iteration k-1 (and the loop's counters at k-1) after. */
struct sm_iv {
	struct sm_var *var;
	struct sm_expr *init;     /* closed; may depend on the thread */
	enum sm_op op;            /* ADD SUB MUL DIV SHL SHR, or ASSIGN */
	struct sm_expr *step;     /* closed and loop invariant (ASSIGN: over
	                           * SM_E_PREV and this loop's counters) */
};

struct sm_loop {
	struct sm_expr *cond;     /* closed, over this loop's LOOPVARs; NULL = true */
	int depth;                /* 0 = outermost */
	int niv;
	struct sm_iv *ivs;
	const struct sm_loop *parent;
	struct sm_range range;
};

/* An access ready for the engine. */
struct sm_raccess {
	struct sm_access *src;        /* as written */
	struct sm_kernel *kernel;
	struct sm_array *array;       /* the array finally addressed */
	const char *name;             /* the name the access uses (array or pointer) */
	int nidx;
	struct sm_expr *idx[SM_MAX_DIMS]; /* closed, in elements of array */
	struct sm_expr *extra;        /* closed byte offset, or NULL */
	struct sm_expr *gsrc;         /* a cp.async's global source offset,
	                               * closed (src->gsrc resolved), or NULL */
	unsigned width;               /* bytes per thread */
	const struct sm_loop *loop;   /* innermost enclosing loop, or NULL */
	const struct sm_guard *guards;/* all guards in force */
	struct sm_expr *value;        /* a plain '=' store: the value stored, closed
	                               * (src->value resolved), or NULL */
	bool ok;                      /* false: could not be resolved */
	const char *why;              /* when !ok: the reason */
};

/* A control statement or barrier as the walk saw it at its program point
 * (for the barrier rules): IF/SWITCH with their closed condition, LOOP with
 * its sm_loop (cond = loop->cond), BARRIER and the jumps. */
struct sm_rstmt {
	const struct sm_stmt *stmt;
	struct sm_expr *cond;         /* closed condition, or NULL (always true) */
	const struct sm_loop *loop;   /* LOOP: the loop itself; else the innermost enclosing one */
	const struct sm_guard *guards;/* guards in force */
};

struct sm_kernel_model {
	struct sm_kernel *kernel;
	struct sm_raccess *acc;       /* in source order */
	unsigned nacc;
	struct sm_rstmt *stmts;       /* in walk order */
	unsigned nstmts;
};

/* Resolve every access of k. Parameters (and gridDim) that every launch of
 * the file fixes to the same constant are bound to it (the kernel's common
 * launch context, engine/launch.h). Returns 0, or -1 if the arena is
 * exhausted. */
int sm_resolve_kernel(struct sm_kernel *k, struct sm_arena *A, struct sm_kernel_model *out);
/* The same in one launch context: the values it fixes are bound (NULL:
 * none). */
int sm_resolve_kernel_at(struct sm_kernel *k, const struct sm_launch_ctx *launch, struct sm_arena *A,
			 struct sm_kernel_model *out);

/* Does the closed expression depend on threadIdx (or a per-thread value)? */
bool sm_expr_thread_dep(const struct sm_expr *e);
/* How far the closed expression is alike between threads (uniform.c): 0
 * in every thread of the block, N > 1 in each run of N consecutive
 * threads (a tile's reduce, vote or one-lane shuffle), 1 in no two. Two
 * threads at the same loop iterations are meant. */
int64_t sm_expr_uniform_span(const struct sm_expr *e);
/* Is e a tile's collective with its input kept as its place (array and
 * base NULL: front/convert_warp.c)? Only uniform.c reads that input; the
 * other walks take the collective as the unknown it was before. */
static inline bool sm_expr_is_collective(const struct sm_expr *e)
{
	return e && e->kind == SM_E_OPAQUE && e->span > 0 && e->place && !e->place->array && !e->place->base;
}
/* The same, for a value computed where guards are in force: a merge on
 * one of their conditions takes that guard's arm (as sm_access_addr). */
int64_t sm_expr_uniform_span_under(const struct sm_expr *e, const struct sm_guard *guards);
/* The same, knowing the block shapes K: a tile's collective of an input
 * that repeats from tile to tile (threadIdx.x % 32 with every block's x
 * extent a multiple of 32, the lane) is alike in the whole block: 0. */
struct sm_kernel_launches;
int64_t sm_expr_uniform_span_in(const struct sm_expr *e, const struct sm_kernel_launches *K);
/* Does the closed expression take one value in threads la and lb (linear
 * ids) of a block of this shape, at the same loop iterations? Its thread
 * indices are theirs (threadIdx.y alike for two lanes of one row), a
 * tile's collective alike in one tile, a load alike where its address is;
 * anything else per thread is not. */
bool sm_expr_alike_for(const struct sm_expr *e, struct sm_dim3 block, int64_t la, int64_t lb);

/* ---- the bank model ---- */

#define SM_BANKS 32

/* One warp-wide request: what the hardware does with it. */
struct sm_wave {
	int wavefronts;   /* shared-memory wavefronts the request costs */
	int ideal;        /* wavefronts a conflict-free request of this width costs */
	int bank;         /* the most contended bank, -1 if none */
	int lane_a;       /* two lanes that collide in that bank (-1 if none) */
	int lane_b;
};

/* The pure bank model: addr[i] is lane i's byte address, mask the active
 * lanes, width the bytes per lane (1, 2, 4, 8 or 16). */
void sm_bank_wavefronts(const int64_t addr[SM_WARP], uint32_t mask, unsigned width, struct sm_wave *out);
/* A cp.async's wavefronts as the profiler counts them (measured on the
 * H200: corpus/async_cp_global.cu, corpus/async_cp_layout.cu): one per
 * piece of the copy, a piece being the bytes of one global 128-byte line
 * moved with one shift (global offset minus shared offset, modulo 128)
 * into one shared 128-byte row, and, unless the 32-byte sector they come
 * from is copied whole to a 32-byte aligned place, from one 16-byte half
 * of that sector; one more when some lanes of the warp are off. gsrc[i]
 * is lane i's global byte offset (from a line-aligned base), addr[i] its
 * shared one, width the bytes a lane copies (4, 8 or 16). */
int sm_cp_async_wavefronts(const int64_t addr[SM_WARP], const int64_t gsrc[SM_WARP], uint32_t mask, unsigned width);

/* The work budget of one file's analysis (--analysis-budget): expression
 * nodes the lane evaluator visits, over every kernel, block shape and
 * rule. A count, not a clock, so that a file gets the same results on
 * every machine. used grows with each node; the searches that can run
 * long (the bank degrees, the race search) look at it between steps and
 * stop once limit is reached, setting spent. limit 0: unlimited. */
struct sm_work {
	uint64_t used;
	uint64_t limit;
	bool spent;                   /* some result was cut short by the limit */
	const char *kernel;           /* the kernel being analyzed, or NULL */
	const char *spent_in;         /* the kernel in which the limit was reached */
	uint64_t spent_at;            /* used when it was first found reached */
};

/* Has w reached its limit? Marks it spent when so. */
static inline bool sm_work_over(struct sm_work *w)
{
	if (!w || !w->limit || w->used < w->limit)
		return false;
	if (!w->spent) {
		w->spent_in = w->kernel;
		w->spent_at = w->used;
	}
	w->spent = true;
	return true;
}

/* Guard values already computed, shared by the accesses of one kernel
 * (guards.c): a chain of guards is evaluated once per thread, not once per
 * access under it. Owned by whoever made it; one worker only. */
struct sm_guard_memo;
struct sm_guard_memo *sm_guard_memo_new(void);
void sm_guard_memo_free(struct sm_guard_memo *m);

#define SM_ITER_ANY ((1 << SM_MAX_LOOPS) - 1) /* used_iter: some loop counter */

/* Per-evaluation inputs of the lane evaluator. */
struct sm_eval_ctx {
	int64_t tid[3];
	struct sm_dim3 ntid;
	int64_t iter[SM_MAX_LOOPS];   /* iteration of each enclosing loop */
	unsigned seed;                /* picks the values of uniform unknowns
	                               * (SM_SEED_STRIDE and on: large
	                               * multiples of 128) */
	const struct sm_iv *rec_iv;   /* the recurrence whose step is being evaluated */
	int64_t rec_prev;             /* its SM_E_PREV value */
	int strict;                   /* uniform unknowns are errors (conditions) */
	int err;                      /* set when the value is unknown */
	unsigned budget;              /* nodes left to visit */
	const struct sm_launch_ctx *launch; /* NULL, or one launch of the kernel: the
	                               * parameters it fixes are known, and with
	                               * its grid known blockIdx is ctaid and
	                               * gridDim its grid (the divergence verdict
	                               * of divergence.c) */
	int64_t ctaid[3];             /* blockIdx when launch is set */
	int used_iter;                /* the loop counters a value read: bit d
	                               * for the loop at depth d (SM_ITER_ANY:
	                               * not known which) */
	int used_tid;                 /* set when it read threadIdx, blockDim or the lane */
	struct sm_guard_memo *gmemo;  /* guard values to reuse, or NULL */
	const struct sm_guard *assume;/* guards in force that hold for this
	                               * thread (some taken as true): a merge
	                               * `g ? a : b` of one of their conditions
	                               * takes g's arm (sm_access_addr) */
	struct sm_work *work;         /* nodes visited are counted here, or NULL */
};

int64_t sm_eval(const struct sm_expr *e, struct sm_eval_ctx *c);

/* The thread id of linear thread lin (x fastest) in a block of shape b
 * (inline: the searches call it per thread and pair). */
static inline void sm_thread_id(struct sm_dim3 b, int64_t lin, int64_t tid[3])
{
	int64_t x = b.x > 0 ? b.x : 1, y = b.y > 0 ? b.y : 1;
	tid[0] = lin % x;
	tid[1] = (lin / x) % y;
	tid[2] = lin / (x * y);
}

/* A fresh evaluation context for linear thread lin of a block of shape b. */
void sm_thread_ctx(struct sm_eval_ctx *c, struct sm_dim3 b, int64_t lin);

/* The value of an induction variable of update op (ADD SUB MUL DIV SHL
 * SHR) at iteration k, from its initial value v and its step: v op step,
 * k times (eval.c). Sets c->err when it overflows or is undefined. */
int64_t sm_iv_apply(enum sm_op op, int64_t v, int64_t step, int64_t k, struct sm_eval_ctx *c);

/* Is guard g's condition (its negation when g->negate) false for the
 * thread and iterations in c because it compares one shared element with
 * constants in ways no value satisfies (x == 0 && x != 0, through two loads
 * of the same element)? Loads of one condition are related, and those of
 * the guards it is joined to (sm_guard.joined: nested ifs with nothing
 * written between their conditions) (correlate.c). */
bool sm_guard_impossible(const struct sm_guard *g, struct sm_eval_ctx *c);

/* Does statement s always leave its block (return, break, continue,
 * goto; a block ending in one, an if both of whose arms do)? Does it
 * surely write no memory (a declaration, an assignment to a local, a
 * shared load)? (cfg.c) */
bool sm_stmt_exits(const struct sm_stmt *s);
bool sm_stmt_writes_nothing(const struct sm_stmt *s);

/* Does the chain of guards from g on hold for the thread and iterations
 * in c (guards.c)? Undecidable guards are taken as true, unless they test
 * one shared element against itself (sm_guard_impossible). Reuses and
 * fills c->gmemo when set. */
int sm_guards_hold(const struct sm_guard *g, struct sm_eval_ctx *c);
/* sm_guards_hold without the memo, also saying whether the value is every
 * thread's at the same iterations: no guard it evaluated read a thread
 * index, block extent or lane (then each thread takes the same guards to
 * the same values, see sm_loop_cond_lanes). */
int sm_guards_hold_lanes(const struct sm_guard *g, struct sm_eval_ctx *c, bool *every_thread);

/* The chain of guards from g on, strictly: 1 when each is decided true for
 * the thread and iterations in c, 0 when one is decided false, -1 when
 * none is false and one is undecidable. No memo. */
int sm_guards_decided(const struct sm_guard *g, struct sm_eval_ctx *c);
/* Does each guard of the chain from g on, up to the first that is also in
 * the chain stop (NULL: to its end; chains share their tails), hold for
 * the thread and iterations in c: decided true, or with uniform_true
 * undecidable but alike in every thread (it reads no thread index: a
 * parameter no launch gives)? No memo. */
bool sm_guards_all_hold(const struct sm_guard *g, const struct sm_guard *stop, bool uniform_true, struct sm_eval_ctx *c);
/* Do loop L and the loops around it run at the iterations in c: each
 * condition decided true, or undecidable but alike in every thread (a
 * trip count no launch gives counts as running)? */
bool sm_loops_run(const struct sm_loop *L, struct sm_eval_ctx *c);
/* Can thread la running ra (at the iterations in ca) and thread lb running
 * rb (at cb) never be there at once? True when the two sit in the opposite
 * arms of one `if` whose condition is alike for the two threads
 * (sm_expr_alike_for: threadIdx.y for two lanes of one row, a vote in one
 * warp) at the same iterations of the loops around both. The race search takes an undecidable guard as true for
 * each thread apart; this keeps it from pairing the two arms' threads. */
bool sm_arms_exclusive(const struct sm_raccess *ra, const struct sm_eval_ctx *ca, int la,
		       const struct sm_raccess *rb, const struct sm_eval_ctx *cb, int lb, struct sm_dim3 block);

/* The value of condition e for the thread in c in three values: 1 true,
 * 0 false, -1 undecidable. && || ! follow Kleene's logic, so the known
 * tests decide where they can (`n > 0 && threadIdx.x == 0` is false for
 * thread 1 whatever n is). Evaluated strictly (eval.c). */
int sm_eval_truth(const struct sm_expr *e, struct sm_eval_ctx *c);

/* Are two closed expressions the same value at one program point and
 * thread: the same tree, where two loads of one place read one value
 * (eval.c)? False when unsure. */
bool sm_expr_same(const struct sm_expr *a, const struct sm_expr *b);

/* Is loop L's condition true at the iterations in c (uniform unknowns make
 * it undecidable)? 1 true, 0 false, -1 undecidable. */
int sm_loop_cond(const struct sm_loop *L, struct sm_eval_ctx *c);
/* sm_loop_cond, also saying whether its value is every thread's at the
 * same iterations: the evaluation read no thread index, block extent or
 * lane (threads differ in nothing else), so it took the same path and gave
 * the same value, unknown included. Loops over a warp's lanes or a block's
 * threads then evaluate a uniform condition once. */
int sm_loop_cond_lanes(const struct sm_loop *L, struct sm_eval_ctx *c, bool *every_thread);

/* The degree of one access under one block shape. */
/* An access outside its array that a thread certainly makes (bank.c,
 * rule shared-out-of-bounds): the address reads no unknown value, and every
 * guard and enclosing loop condition of that thread at that iteration is
 * decided true. */
struct sm_oob {
	bool found;
	int64_t tid[3];               /* the thread (x, y, z) */
	int niv;                      /* enclosing loops with a counter, outermost first */
	const struct sm_iv *iv[SM_MAX_LOOPS];
	int64_t iv_value[SM_MAX_LOOPS]; /* their counters' values there */
	int64_t offset;               /* the first byte it touches, from the array's start */
	unsigned width;               /* bytes it touches */
	int64_t extent;               /* the array's bytes (or the launch's dynamic size) */
};

struct sm_degree {
	bool analyzed;
	const char *why;              /* when !analyzed */
	double worst;                 /* worst wavefronts/ideal over warps and iterations */
	double mean;                  /* total wavefronts / total ideal */
	int warp;                     /* warp of the worst request */
	int lane_a, lane_b;           /* colliding lanes of the worst request */
	int bank;
	double layout_worst;          /* the worst request's wavefronts per what
	                               * any shared layout needs: its ideal, or
	                               * for a cp.async read from known global
	                               * lines one wavefront a line, whichever
	                               * is more (what padding or a swizzle can
	                               * remove; 0: as worst) */
	int layout_pieces;            /* that request's wavefronts ... */
	int layout_lines;             /* ... and global lines (0: not a
	                               * cp.async with a known source) */
	bool layout_assumed;          /* ... counted for what its source reads
	                               * and the analysis does not know taken
	                               * as large multiples of 128 (row strides
	                               * of whole 128-byte lines), alike for
	                               * SM_STRIDE_TRIES of them */
	int64_t addr_a, addr_b;       /* their byte offsets in the array */
	int nloops;                   /* loops whose counters the worst depends on */
	const struct sm_iv *worst_iv; /* the induction variable that matters */
	int64_t worst_iv_value;
	bool iv_matters;              /* the degree varies with a loop counter */
	bool truncated;               /* enumeration was capped */
	uint32_t worst_mask;
	int64_t worst_addr[SM_WARP];  /* for bank maps */
	unsigned long requests;       /* warp requests evaluated */
	uint64_t wavefronts, ideal;   /* shared wavefronts and their ideal, summed
	                               * over one block's warps and the loop
	                               * iterations it runs: what Nsight Compute
	                               * counts per block for this access */
	bool totals_exact;            /* those sums count every iteration (no
	                               * loop bound unknown, no cap reached) */
	bool oob_lanes;               /* the worst's tries had lanes addressing outside
	                               * the array (counted in the degree) */
	bool oob_dropped;             /* lanes outside the array under a guard or loop
	                               * condition not decided were left out (that
	                               * condition is taken to keep them out) */
	bool oob_tries_left;          /* tries of the unknown values that put some lane
	                               * outside the array were left out of the degree */
	struct sm_oob oob;            /* a certain out-of-bounds access, at the
	                               * extent given (seed 0 only) */
};

/* The byte offset (within its array's storage) that one thread's execution
 * of ra touches, for the thread and loop iterations in c (c->tid, c->ntid,
 * c->iter indexed by loop depth, c->seed). Returns 1 with *addr set, 0 when
 * the thread does not execute the access there (a guard or loop condition
 * is false), -1 when the address cannot be computed. Undecidable guards are
 * taken as true. dims: NULL, or extents overriding the declared ones. */
int sm_access_addr(const struct sm_raccess *ra, const int64_t *dims, struct sm_eval_ctx *c, int64_t *addr);
/* sm_access_addr for every thread 0..nthreads-1 of a block of shape
 * block, at the iterations in c: st[t] its return, addr[t] the address.
 * The enclosing loops' conditions that read no thread index are decided
 * once for all (sm_loop_cond_lanes). */
void sm_access_addr_threads(const struct sm_raccess *ra, const struct sm_eval_ctx *c, struct sm_dim3 block,
			    int nthreads, int64_t *addr, signed char *st);

/* The uniform unknowns ra's address reads (kernel parameters the launch
 * does not fix, uniform opaque values, blockIdx and gridDim), as a 64-bit
 * summary: bit (key % 64) per unknown, all bits when the address is too
 * large to walk. 0: its address reads none. */
uint64_t sm_access_unknowns(const struct sm_raccess *ra, const struct sm_launch_ctx *launch);

/* Under the values c's seed gives the uniform unknowns, is an enclosing
 * loop of ra false at c's iterations for c's thread, with a condition that
 * reads an unknown of mask? sm_access_addr takes such a loop as running (a
 * condition on an unknown is undecidable); a race witness that needs it to
 * run and also reads the unknown in an address gives that one unknown two
 * values (a bound `i < R` and an offset `R + i`). */
bool sm_access_loop_contradicts(const struct sm_raccess *ra, struct sm_eval_ctx *c, uint64_t mask);

/* A candidate layout of an array, for the fix search: other extents, the
 * conflict-free offset form, or an XOR swizzle of the last index. */
struct sm_layout {
	const int64_t *dims;      /* extents overriding the declared ones, or NULL */
	int offset_shift;         /* > 0: element e is stored at e + (e >> shift) */
	int64_t swizzle_mask;     /* > 0: last index ^= (previous index & mask) << swizzle_shift */
	int swizzle_shift;        /* with swizzle_mask: whole chunks of 2^shift elements */
	int64_t dyn_bytes;        /* > 0: an extern (dynamic) array's extent, the
	                           * launch's dynamic shared size; else unknown */
};

/* The degree of ra under layout lay, counting the work in w (NULL:
 * unlimited; past its limit the access is not analyzed). */
void sm_access_degree_layout(const struct sm_raccess *ra, struct sm_dim3 block, const struct sm_layout *lay,
			     struct sm_work *w, struct sm_degree *out);

/* Dims override: when non-NULL, flattening uses these extents instead of
 * the array's declared ones (the padding search). */
void sm_access_degree(const struct sm_raccess *ra, struct sm_dim3 block, const int64_t *dims_override,
		      struct sm_arena *A, struct sm_degree *out);
/* The same, reusing the guard values in gm (NULL: none) and counting the
 * work in w (NULL: unlimited). Past w's limit the access is not analyzed
 * (why says the budget was spent). */
void sm_access_degree_in(const struct sm_raccess *ra, struct sm_dim3 block, const int64_t *dims_override,
			 struct sm_arena *A, struct sm_guard_memo *gm, struct sm_work *w, struct sm_degree *out);

/* The same, with dyn_bytes the launch's dynamic shared size (-1: not
 * known): an extern array's extent, for out->oob. */
void sm_access_degree_at(const struct sm_raccess *ra, struct sm_dim3 block, int64_t dyn_bytes, struct sm_arena *A,
			 struct sm_guard_memo *gm, struct sm_work *w, struct sm_degree *out);

#define SM_WHY_BUDGET "the analysis budget of the file was spent (--analysis-budget)"

/* One access and the degree computed for it (what --all-accesses lists). */
struct sm_access_result {
	struct sm_degree deg;            /* worst over the kernel's block shapes */
	struct sm_dim3 block;            /* the shape that gave deg */
	bool block_assumed;
	const struct sm_launch_ctx *ctx; /* the launch context of block (its
	                                  * provenance): a shape, or the launch */
	unsigned fused;                  /* > 1: nvcc fuses this access with the
	                                  * others of its group (engine/merge.c)
	                                  * into one access; deg is that one's */
	unsigned fused_width;            /* bytes per thread of the fused access */
	unsigned fused_first;            /* the group's first access */
	const struct sm_launch_ctx *launch; /* launches that fix different values:
	                                  * the one that gave deg, else NULL */
	struct sm_oob oob;               /* a certain access outside the array under
	                                  * a launch shape the program makes (a site,
	                                  * --block-dim or the config), the first */
	const struct sm_launch_ctx *oob_ctx; /* the context of oob: its block, its
	                                  * dynamic size and their provenance */
};

#endif
