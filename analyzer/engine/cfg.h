/* cfg.h - the race search's control-flow graph (internal to engine).
 * Nodes are the kernel's shared accesses, barriers, branches and loop
 * latches; sm_cfg_reach asks whether a path between two of them meets no
 * barrier that orders a pair of threads. */
#ifndef SM_ENGINE_CFG_H
#define SM_ENGINE_CFG_H

#include "engine/threaddep.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* CN_BARRIER orders every thread of the block; CN_SCOPED only the
 * threads of one group of its scope (a tile, a warp's mask lanes, bar.sync's
 * count): the graph's scope `sc`, one bit of a pair's ordering. */
enum { CN_PLAIN, CN_ACCESS, CN_BARRIER, CN_SCOPED, CN_LATCH };

struct sm_cnode {
	int succ[2];
	int nsucc;
	int kind;
	int loop;     /* CN_LATCH: loop index; also a loop's first check (enter) */
	bool enter;   /* the check a loop starts with, from outside it */
	int sc;       /* CN_SCOPED: index in cfg.scopes */
	const struct sm_stmt *st; /* CN_SCOPED: the barrier */
	/* An IF on a uniform condition a path keeps: succ[0] its true arm,
	 * succ[1] its false arm. */
	int cvar;     /* the path variable of its condition, or -1 */
	int lvar;     /* the path variable of the loop whose iteration
	               * decides it (see first, later), or -1 */
	signed char first, later; /* its value at that loop's first and at
	                           * its later iterations: 1, 0, -1 not known */
	int in_if;    /* the innermost IF in one of whose arms it lies, or -1 */
	bool in_then; /* in that IF's true arm (else its false arm) */
};

/* One loop of the graph. */
struct sm_cloop {
	int head;     /* the node its iterations start at */
	int latch;    /* its CN_LATCH node */
	int parent;   /* the enclosing loop, or -1 */
	const struct sm_loop *rl; /* the resolver's loop, or NULL */
	int var;      /* its path variable (first or later iteration), or -1 */
	unsigned reset; /* path variables of conditions reading its counter:
	                 * entering it or taking its latch forgets them */
};

/* Path variables: what a walk keeps of the arms it took, so that it does
 * not follow a path no thread runs. A condition alike in every thread
 * and fixed within an iteration (sm_cond_path_facts) takes one arm at
 * every IF on it until an iteration of a loop whose counter it reads
 * ends; a loop entered from outside is at its first iteration, one
 * reached over its latch at a later one, which decides `if (t == 0)`.
 * Each variable is 0 (not known), 1 or 2 (a condition false or true; a
 * loop at its first or a later iteration); a node is walked once per
 * context, the variables' values together (nctx of them). A walk from
 * a node starts with the arms of the IFs it lies in (cnode.in_if) taken. */
#define SM_PV_FALSE 1
#define SM_PV_TRUE 2
#define SM_PV_FIRST 1
#define SM_PV_LATER 2

/* An IF a path variable may be made of (built, then chosen from). */
struct sm_cif {
	int node;
	const struct sm_expr *cond;
	int nloops;
	int loops[SM_MAX_LOOPS];    /* graph loops whose counters it reads */
	int loop;                   /* the one loop deciding first/later, or -1 */
	bool per_run;               /* sm_cond_path.per_run: every loop forgets it */
	signed char first, later;
};

/* The graphs: which statements stop a path (CN_BARRIER) */
enum sm_cfg_mode {
	SM_CFG_BLOCK,   /* the block's barriers (scoped ones for their threads) */
	SM_CFG_CLUSTER, /* the cluster barriers only (sm_stmt.cluster): what
	                 * orders two blocks of a cluster (dsmem.c); every
	                 * other barrier orders one block only */
	SM_CFG_PROXY,   /* fence.proxy.async only (sm_stmt.proxy_fence): what
	                 * orders a generic-proxy write before a bulk copy's
	                 * read (proxy.c); no barrier does */
};

struct sm_cfg {
	struct sm_cnode *n;
	int nn;                                          /* nodes in n */
	unsigned cap;                                    /* n's capacity */
	int exit;
	int ret;                                         /* where a return goes: the end of the
	                                                  * inlined call it is in, or -1 (exit) */
	int failed;
	unsigned nacc;
	int *acc_node_of;                                /* per access */
	int *acc_nloops;
	int (*acc_loops)[SM_MAX_LOOPS + 1];           /* loop indexes, outer first */
	int stack[SM_MAX_LOOPS + 1];
	int depth;
	int nloops;                                      /* loops in loops */
	unsigned caploops;                               /* loops' capacity */
	struct sm_cloop *loops;                             /* per loop */
	const struct sm_kernel_model *m;
	struct sm_dim3 block;
	int64_t nthreads;
	/* the innermost loop being built: its statement, its latch and its
	 * exit (where the head's false edge goes); lp NULL outside loops */
	const struct sm_stmt *lp;
	int lp_latch, lp_exit;
	/* the IF whose arm is being built, and which arm (cnode.in_if) */
	int at_if;
	bool at_then;
	/* the distinct scopes smaller than the block, each a barrier that
	 * has it */
	const struct sm_stmt *scopes[SM_MAX_BARRIER_SCOPES];
	int nscopes;
	/* per scope: for bar.sync with a count whose guards select exactly
	 * that many threads in whole warps, which threads (1 a member); NULL:
	 * the scope's own groups (scope_group) */
	unsigned char *members[SM_MAX_BARRIER_SCOPES];
	enum sm_cfg_mode mode; /* what a CN_BARRIER node is (sm_cfg_build_for) */
	struct sm_cif *cifs;   /* the IFs path variables may be made of */
	int ncifs;
	unsigned capcifs;
	int npv;               /* path variables */
	int nctx;              /* 3^npv: the contexts a node is walked in */
	int pv_pow[SM_CFG_PATH_VARS + 1]; /* 3^i */
};

/* Does node c stop a path for a pair of threads that the scoped
 * barriers in `ord` (a bit per cfg.scopes entry) order? */
static inline bool sm_cfg_blocks(const struct sm_cnode *c, uint32_t ord)
{
	return c->kind == CN_BARRIER || (c->kind == CN_SCOPED && (ord >> c->sc & 1));
}

/* Scratch of the walks: a mark per node and phase, set to the walk's
 * generation (so no walk clears them), and a stack. */
struct sm_cfg_walk {
	unsigned *mark;            /* [(node * 2 + phase) * nctx + context] == gen: visited */
	unsigned gen;              /* the current walk */
	int *stack;
	size_t cap;                /* the stack's entries */
	int nctx;                  /* the graph's contexts a node */
	struct sm_work *work;      /* each node visited counts a step here, or NULL */
};

/* Build m's graph for a block of shape block, with nacc accesses. Returns
 * the entry node, or -1 (out of memory; sm_cfg_free still applies). */
int sm_cfg_build(struct sm_cfg *G, const struct sm_kernel_model *m, struct sm_dim3 block, unsigned nacc);
/* The same graph where only what `mode` names stops a path. */
int sm_cfg_build_for(struct sm_cfg *G, const struct sm_kernel_model *m, struct sm_dim3 block, unsigned nacc,
		     enum sm_cfg_mode mode);
void sm_cfg_free(struct sm_cfg *G);
int sm_cfg_walk_init(struct sm_cfg_walk *W, const struct sm_cfg *G, struct sm_work *work);
void sm_cfg_walk_free(struct sm_cfg_walk *W);
/* Was node*2+phase visited by W's last walk (in some context)? */
static inline bool sm_cfg_seen(const struct sm_cfg_walk *W, int state)
{
	for (int x = 0; x < W->nctx; x++)
		if (W->mark[(size_t)state * W->nctx + x] == W->gen)
			return true;
	return false;
}
bool sm_cfg_reach(const struct sm_cfg *G, int a, int b, const unsigned char *closed, int phase_loop, uint32_t ord,
		  struct sm_cfg_walk *W);
bool sm_cfg_free_cycle(const struct sm_cfg *G, int li, uint32_t ord, unsigned char *closed, struct sm_cfg_walk *W);
uint32_t sm_cfg_pair_ord(const struct sm_cfg *G, int64_t a, int64_t b);
/* Barrier intervals.
 * The starts of an interval are the kernel's entry and every barrier that
 * orders the pair of threads (see sm_cfg_blocks: a pair's ordering `ord` says
 * which scoped barriers do). An access lies in the intervals of the
 * starts that reach it with no such barrier on the way, within one
 * iteration of every loop (a latch is not crossed: from it only the loop's
 * exit is taken). Two accesses that threads can run between the same two
 * barriers at the same iterations share a start, whichever branch each
 * thread takes; two with no start in common are never such a pair, which
 * spares the search most pairs of a long kernel. One bit set per access
 * and ordering. */
struct sm_ivals {
	int nwords;                /* 64-bit words per access */
	int nord;
	uint64_t **bits;           /* [ordering][access * nwords + start / 64] */
};

/* Build the intervals of every ordering in ords[0..nord) from entry;
 * acc_at maps a node to its access (-1 none). Returns 0, or -1 (out of
 * memory; sm_ivals_free still applies). Each node walked counts in W's
 * budget; once it is spent the build stops (the search stops too). */
int sm_ivals_build(const struct sm_cfg *G, int entry, const int *acc_at, const uint32_t *ords, int nord,
		   struct sm_ivals *I, struct sm_cfg_walk *W);
void sm_ivals_free(struct sm_ivals *I);
/* Do accesses a and b share an interval start under ordering w? */
bool sm_ivals_meet(const struct sm_ivals *I, int w, unsigned a, unsigned b);

#endif
