/* threaddep.h - thread dependence, barrier divergence and shared-memory
 * races over a resolved kernel (the facts the barrier rules read).
 *
 * Thread dependence: a closed expression is thread dependent when it
 * derives from threadIdx, the lane id, a load through a thread-dependent
 * address, an atomic's result or clock() (sm_expr_thread_dep); the resolver
 * records the closed condition of every if, loop and switch at its program
 * point (sm_kernel_model.stmts), so a condition is judged with the values
 * its variables hold there.
 *
 * Divergence: a block barrier is divergent when it runs under a
 * thread-dependent if/switch/?:/&&/||, in a loop whose trip count is thread
 * dependent (its condition, or a thread-dependent break/return inside it),
 * or after a thread-dependent return/break/continue/goto. A barrier of a
 * smaller scope (a tile, a __syncwarp mask, bar.sync's count) is
 * divergent only when such a condition splits one of its groups.
 *
 * Races: a control-flow graph over the statement tree (accesses, barriers,
 * __syncwarp, one latch node per loop for its back edge) says which pairs
 * of accesses share a barrier interval and with which relation between
 * their loop iterations; the block's threads and those iterations are then
 * enumerated to find two different threads touching the same bytes.
 * Defined in threads.c (statements at their program point, barrier
 * scopes), divergence.c and races.c (over cfg.c's graph and raceindex.c's
 * pruning). No libclang, no global state.
 */
#ifndef SMEMLINT_THREADDEP_H
#define SMEMLINT_THREADDEP_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/analysis.h"
#include "smemlint/arena.h"
#include "smemlint/ir.h"

/* The record of s (an IF, LOOP, SWITCH, BARRIER or jump) in m, or NULL. */
const struct sm_rstmt *sm_rstmt_find(const struct sm_kernel_model *m, const struct sm_stmt *s);

/* Is the condition of the IF/LOOP/SWITCH s thread dependent where it is
 * evaluated (sm_expr_varies)? (A statement the resolver never reached
 * counts as uniform.) */
bool sm_stmt_cond_thread_dep(const struct sm_kernel_model *m, const struct sm_stmt *s);

/* Can the closed condition (or value) e differ between the threads of a
 * block? As sm_expr_thread_dep, less where the thread indexes cancel
 * (n + threadIdx.x - threadIdx.x) or divide away (threadIdx.x /
 * blockDim.x): threads.c. */
bool sm_expr_varies(const struct sm_expr *e);

/* The value of the IF s's condition in every thread of a block of shape
 * block where they all agree on it and it reads no loop counter, or where
 * it repeats a guard in force or an enclosing loop's condition (the same
 * tree, reading no memory), or is a constant the resolver folded (a
 * helper's `if (sync)` inlined from a call passing false): 1 or 0; -1
 * when threads differ or it is not known (an unknown, blockIdx). A block
 * of 0 threads asks only what holds for every shape: the constant or the
 * repeat. */
int sm_cond_block_value(const struct sm_kernel_model *m, const struct sm_stmt *s, struct sm_dim3 block);
/* Does if statement s, at the end of loop lp's body, hold exactly when
 * the loop runs another iteration (1: `if (j < n - 1) __syncthreads();`
 * in `for (j = 0; j < n; ++j)`), exactly when it ends (0), or is that not
 * known (-1)? Tested, not proved: for several values of the uniform
 * unknowns, at every iteration of the loop in the block's first and last
 * threads, s's condition is compared with the loop's one iteration
 * later. */
int sm_cond_continues_loop(const struct sm_kernel_model *m, const struct sm_stmt *s, const struct sm_stmt *lp,
			   struct sm_dim3 block);

/* Does e read a loop counter, a loop's exit value, an address, or a load
 * whose address does (or is e too deep to tell)? (threads.c) */
bool sm_expr_refs_loops(const struct sm_expr *e);

/* What a path through the race graph may keep of a condition (cfg.c's
 * path variables). */
struct sm_cond_path {
	int nloops;                                /* loops whose counters it reads */
	const struct sm_loop *loops[SM_MAX_LOOPS]; /* those loops */
	int first;  /* with one loop read: its value at that loop's first
	             * iteration (1, 0; -1 not known) */
	int later;  /* ... and at every later iteration: a comparison of a
	             * counter with a constant additive step against a fixed
	             * value, which flips at most once (1, 0, -1) */
	bool per_run; /* it reads an unknown a statement defines (a call's
	               * result, a collective), which may differ each time a
	               * loop runs that statement: forgotten at every loop's
	               * iteration, not only those of `loops` */
};

/* Is the closed condition e alike in every thread of the block and fixed
 * between two points of one iteration of the loops it reads (no memory,
 * no pointer, no loop's exit value)? Then two IFs on it take the same arm
 * on any path within that iteration; out says which loops and what is
 * known of its value at their iterations (threads.c). */
bool sm_cond_path_facts(const struct sm_expr *e, struct sm_dim3 block, struct sm_cond_path *out);

/* Is the closed value e the same in every thread and at every iteration
 * of every loop (no thread index, no loop counter, also through a
 * pointer's or a load's place: the address of a __shared__ array, a
 * parameter, a load from one global address)? threads.c. */
bool sm_value_invariant(const struct sm_expr *e);

enum sm_div_kind {
	SM_DIV_NONE,
	SM_DIV_IF,      /* under a thread-dependent if, ?:, && or || */
	SM_DIV_SWITCH,  /* under a thread-dependent switch */
	SM_DIV_LOOP,    /* in a loop with a thread-dependent condition */
	SM_DIV_EXIT,    /* after (or, in a loop, around) a thread-dependent jump */
};

struct sm_divergence {
	const struct sm_stmt *barrier;
	enum sm_div_kind kind;
	const struct sm_stmt *cond;   /* the IF/SWITCH/LOOP with the thread-dependent condition */
	const struct sm_stmt *jump;   /* SM_DIV_EXIT: the return/break/continue/goto */
	bool in_loop;                 /* SM_DIV_EXIT: the jump leaves a loop around the barrier */
	const struct sm_launch_ctx *launch; /* the launch at which threads of one block
	                               * disagree, when the launches decide it; NULL
	                               * when judged by the condition's syntax */
};

/* The threads in one group of barrier s's scope (ir.h enum sm_scope): N
 * for a tile of N, 32 for a warp-level barrier (__syncwarp, a coalesced
 * group), the count rounded up to whole warps for bar.sync with a count;
 * 0 for a barrier of the whole block (or grid). */
int64_t sm_scope_threads(const struct sm_stmt *s);

/* Does barrier s order threads a and b (linear ids) with each other (both
 * in one group of its scope)? */
/* The group of barrier s's scope that linear thread t belongs to, -1 when
 * t takes no part in it (a lane outside the mask, a thread past the
 * count). Threads of one group wait for each other at s. */
int64_t sm_scope_group(const struct sm_stmt *s, int64_t t);

bool sm_scope_orders(const struct sm_stmt *s, int64_t a, int64_t b);

/* bar.sync id, count reached by the threads its guards select (r: its
 * resolved statement): are they, in a block of shape b, exactly `count`
 * threads in whole warps? Then the barrier orders those threads (`if (t
 * >= 64) bar.sync 1, 64;` orders threads 64..127), and every one of them
 * reaching it is no divergence. Fills mem[t] (b's threads) with the
 * membership and returns 1; 0 when a guard cannot be evaluated for some
 * thread or the threads are not such a set. */
int sm_count_members(const struct sm_rstmt *r, const struct sm_stmt *s, struct sm_dim3 b, unsigned char *mem);

/* Does every group of barrier s's scope lie within one run of span
 * consecutive threads, in each block shape of K (uniform.c)? Then a
 * condition alike in such runs (sm_expr_uniform_span) splits none. */
bool sm_scope_within_runs(const struct sm_stmt *s, int64_t span, const struct sm_kernel_launches *K);

/* The divergent barriers of m's kernel, in source order. A block (or
 * grid) barrier diverges under any cause above. A barrier of a smaller
 * scope diverges only where a cause splits one of its groups: some
 * threads of one tile (of the mask's lanes in one warp, of the first
 * `count` threads) reach it and others do not, judged per thread for each
 * of the kernel's block shapes (K->shape; K NULL: every cause splits); a coalesced
 * group's sync, and a __syncwarp whose mask is no constant, never
 * diverge. Returns how many, or -1 when out of memory. */
int sm_divergent_barriers(const struct sm_kernel_model *m, const struct sm_kernel_launches *K, struct sm_arena *A,
			  struct sm_divergence **out);

enum sm_race_kind { SM_RACE_RAW, SM_RACE_WAR, SM_RACE_WAW };

struct sm_race {
	unsigned a, b;                /* accesses (m->acc): a runs first, b after it */
	enum sm_race_kind kind;
	bool inter_warp;              /* the threads are in different warps */
	bool cross_iter;              /* b runs in a later iteration of a loop around both */
	int64_t tid_a[3], tid_b[3];   /* the thread running a, the one running b */
	int64_t addr;                 /* a byte offset (in the root array) both touch */
	bool truncated;               /* enumeration was capped: the search was partial */
	bool same_value;              /* two stores of one value every thread computes
	                               * alike (a constant): benign, the memory ends
	                               * up holding it whichever thread wins */
	bool same_uniform;            /* same_value, and the value is not a constant
	                               * but one every thread computes alike at the
	                               * same iterations (a parameter, a load from
	                               * one global address: s[t & 63] = o[0]) */
	bool own_copy;                /* a is an asynchronous copy and b a read of
	                               * its bytes by the copying thread itself
	                               * (tid_a == tid_b) before any wait completes
	                               * the copy (async_wait.c): ordered by a
	                               * wait, not by a barrier; counted with the
	                               * races between warps (inter_warp) */
	bool remote;                  /* a and b run in two blocks of one cluster
	                               * (one of them through map_shared_rank, in
	                               * the other's memory), no cluster barrier
	                               * between (dsmem.c); tid_a and tid_b are
	                               * in those two blocks */
	bool remote_exit;             /* a == b, a remote access that a path
	                               * reaches the kernel's end from with no
	                               * cluster barrier: the block whose memory
	                               * it touches may have exited (dsmem.c) */
	bool proxy;                   /* a (a generic-proxy store) is read by b, a
	                               * bulk copy out of shared memory (the async
	                               * proxy), on a path with no
	                               * fence.proxy.async (proxy.c) */
	const struct sm_stmt *unordered; /* a barrier of a smaller scope (a tile,
	                               * a __syncwarp mask, bar.sync's count)
	                               * that every barrier-free path from a to b
	                               * passes, none of which orders the two
	                               * threads; NULL when some path meets no
	                               * barrier at all */
};

/* The races of m's kernel for one block shape: for each ordered pair of
 * accesses (a before b) on the same shared storage, at least one a write
 * and not both atomic, one race when two different threads touch the same
 * bytes with no block barrier on some path from a to b and at least one
 * such pair of threads is in different warps (inter_warp), else when the
 * path also has no __syncwarp and the threads share a warp (!inter_warp).
 * A store paired with itself (a == b) races when two threads run it at the
 * same iterations of its loops (no barrier can lie between two threads'
 * executions of one statement) or, with no barrier around the loop, in
 * consecutive iterations.
 * Returns 0, or -1 when out of memory. */
int sm_kernel_races(const struct sm_kernel_model *m, struct sm_dim3 block, struct sm_arena *A,
		    struct sm_race **out, unsigned *nout);
/* The same within the file's analysis budget work (NULL: unlimited): once
 * it is spent the search stops, keeping the races found so far. */
int sm_kernel_races_in(const struct sm_kernel_model *m, struct sm_dim3 block, struct sm_arena *A,
		       struct sm_work *work, struct sm_race **out, unsigned *nout);

/* Which pairs a search tries: only those (a before b, m->acc indices) for
 * which want(ctx, a, b) holds. */
struct sm_race_filter {
	bool (*want)(void *ctx, unsigned a, unsigned b);
	void *ctx;
};

/* The search of sm_kernel_races_in over the pairs filter wants only, each
 * searched to its end (the full search stops at b's first race between
 * warps): whether given pairs race under another block shape, at the cost
 * of those pairs. */
/* The reads of m's kernel, under block shape `block`, of bytes that the
 * reading thread's own asynchronous copy may still be writing (a copy in
 * the read's pending list whose bytes it touches, with a thread of the
 * first warp or the last thread, its guards decided for that thread where
 * they are not the read's, at the same iterations of the loops around
 * both): appended to *out as races with own_copy set, one per read and
 * copy. Within the file's analysis budget work (NULL: unlimited).
 * Returns 0, or -1 when out of memory. */
/* Distributed shared memory, under block shape `block`: each remote
 * access (sm_access.remote) paired with the accesses of the same array
 * that another block of the cluster can run with no cluster barrier
 * between (any two threads, the same thread id included: they are in
 * different blocks; a witness at the first iterations), one race with
 * `remote` set per pair; and each remote access from which the kernel's
 * end is reached with no cluster barrier, one race with `remote_exit`.
 * Appended to *out, within the budget work. Returns 0, or -1 when out of
 * memory. */
int sm_kernel_remote_races(const struct sm_kernel_model *m, struct sm_dim3 block, struct sm_arena *A,
			   struct sm_work *work, struct sm_race **out, unsigned *nout);
int sm_kernel_own_copy_reads(const struct sm_kernel_model *m, struct sm_dim3 block, struct sm_arena *A,
			     struct sm_work *work, struct sm_race **out, unsigned *nout);
/* Proxies, under block shape `block`: each bulk copy out of shared memory
 * (a load with async_copy) paired with the generic stores of the same
 * storage from which a path reaches it with no fence.proxy.async (any two
 * threads, the same one included; a witness at the first iterations), one
 * race with `proxy` set per pair (a the store, b the copy). Appended to
 * *out, within the budget work. Returns 0, or -1 when out of memory. */
int sm_kernel_proxy_races(const struct sm_kernel_model *m, struct sm_dim3 block, struct sm_arena *A,
			  struct sm_work *work, struct sm_race **out, unsigned *nout);

int sm_kernel_races_pairs(const struct sm_kernel_model *m, struct sm_dim3 block, const struct sm_race_filter *filter,
			  struct sm_arena *A, struct sm_work *work, struct sm_race **out, unsigned *nout);

#endif
