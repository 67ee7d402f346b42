/* ir.h - smemlint's own intermediate representation of a CUDA file.
 *
 * The front end (analyzer/front/, the only code that sees libclang)
 * converts a translation unit into these structs; everything after it (the
 * symbolic resolver, the bank engine, the rules, the emitters) works on the
 * IR alone. All nodes live in the file's sm_arena.
 *
 * Shape: a file holds kernels (and device functions) and shared arrays. A
 * kernel body is a structured statement tree (blocks, ifs, loops, jumps,
 * barriers, variable assignments and shared-memory accesses) whose
 * expressions still reference variables; analyzer/engine/resolve.c turns every
 * access into a closed index tree over thread ids, loop counters and
 * uniform unknowns.
 */
#ifndef SMEMLINT_IR_H
#define SMEMLINT_IR_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SM_MAX_DIMS 4
/* Threads per warp on every GPU smemlint models. */
#define SM_WARP 32

/* A source position: 1-based line, 1-based byte column. */
struct sm_pos {
	unsigned line;
	unsigned col;
};

/* A half-open source range [begin, end): in the analyzed file (file 0),
 * or in the project header sm_file.headers[file - 1] whose code was
 * converted with it (--header-filter). */
struct sm_range {
	struct sm_pos begin;
	struct sm_pos end;
	unsigned file;
};

enum sm_builtin {
	SM_B_TID,      /* threadIdx.{x,y,z}: thread dependent */
	SM_B_NTID,     /* blockDim: uniform, known once block dims are fixed */
	SM_B_CTAID,    /* blockIdx: uniform, unknown */
	SM_B_NCTAID,   /* gridDim: uniform, unknown */
	SM_B_LANE,     /* lane id (threadIdx.x & 31 style or %laneid) */
	SM_B_WARPSIZE, /* warpSize: 32 */
};

enum sm_op {
	SM_OP_ADD, SM_OP_SUB, SM_OP_MUL, SM_OP_DIV, SM_OP_REM,
	SM_OP_SHL, SM_OP_SHR, SM_OP_AND, SM_OP_OR, SM_OP_XOR,
	SM_OP_LT, SM_OP_GT, SM_OP_LE, SM_OP_GE, SM_OP_EQ, SM_OP_NE,
	SM_OP_LAND, SM_OP_LOR, SM_OP_MIN, SM_OP_MAX,
	SM_OP_NEG, SM_OP_NOT, SM_OP_BITNOT, SM_OP_BREV, /* unary */
	SM_OP_ASSIGN,                       /* only in sm_stmt ASSIGN */
	SM_OP__COUNT
};

enum sm_expr_kind {
	SM_E_CONST,   /* ival */
	SM_E_BUILTIN, /* builtin + dim (0=x 1=y 2=z) */
	SM_E_VAR,     /* var: a local or parameter (front end only) */
	SM_E_UNARY,   /* op a */
	SM_E_BINARY,  /* a op b */
	SM_E_COND,    /* a ? b : c */
	SM_E_CAST,    /* a truncated/extended to bits, is_unsigned */
	SM_E_LOOPVAR, /* loop->ivs[ival]: after resolution only */
	SM_E_LOOPEXIT,/* value of loop->ivs[ival] once the loop has ended */
	SM_E_PREV,    /* inside the step of a recurrence loop->ivs[ival] (op
	               * SM_OP_ASSIGN): its value at the previous iteration */
	SM_E_OPAQUE,  /* a value the analysis cannot model; see thread_dep */
	SM_E_ADDR,    /* pointer into shared memory: place (array, idx, extra) */
};

struct sm_loop;
struct sm_var;
struct sm_access;

/* A call of a __device__ function that the front end inlined at its call
 * site: the callee's statements are analyzed in the caller's context
 * (bindings, guards, loops, block shape). Accesses and statements inside
 * the callee point at the innermost call site; the chain leads out to the
 * kernel. */
struct sm_callsite {
	const char *callee;        /* the function called, as spelled */
	const char *caller;        /* the function the call is written in */
	struct sm_range range;     /* the call expression (for a call written in
	                            * a header not converted, see struct
	                            * sm_header: the call that led there) */
	bool callee_in_file;       /* the callee is defined in the analyzed file
	                            * or in a converted project header */
	int depth;                 /* 1 for a call written in a kernel */
	const struct sm_callsite *parent; /* the call that led to the caller, or NULL */
};

/* An integer expression tree. Contract: after resolve, no SM_E_VAR remains. */
struct sm_expr {
	enum sm_expr_kind kind;
	enum sm_op op;             /* UNARY/BINARY operator */
	enum sm_builtin builtin;   /* BUILTIN */
	int dim;                   /* BUILTIN: 0, 1 or 2 */
	int64_t ival;              /* CONST value; LOOPVAR induction index;
	                            * OPAQUE float_known: a floating literal's
	                            * value, a double's bits */
	unsigned bits;             /* CAST target width (8..64) */
	bool is_unsigned;          /* CAST and arithmetic signedness */
	bool thread_dep;           /* OPAQUE: differs between threads */
	bool float_known;          /* OPAQUE: a floating literal whose value is ival */
	const char *name;          /* OPAQUE/VAR: what it stands for */
	unsigned id;               /* OPAQUE: distinct id per unknown */
	unsigned span;             /* OPAQUE thread_dep: the value is the same in
	                            * every thread of each run of span
	                            * consecutive threads (linear ids, x
	                            * fastest) and unknown otherwise: a tile's
	                            * reduce or vote, a shuffle from one lane,
	                            * meta_group_rank() of an unknown parent.
	                            * 0: alike in no two threads
	                            * (sm_expr_uniform_span) */
	struct sm_var *var;        /* VAR */
	struct sm_loop *loop;      /* LOOPVAR */
	struct sm_access *place;   /* ADDR: where the pointer points */
	bool is_ptr;               /* value is a pointer; BINARY ADD/SUB then
	                            * has b already scaled to bytes */
	bool remote;               /* a pointer map_shared_rank returned: into
	                            * the same array of another block of the
	                            * cluster (distributed shared memory) */
	struct sm_expr *a, *b, *c; /* operands */
	struct sm_range range;     /* where it was written (may be zero) */
};

/* A field of a struct element type (for p[i].x). */
struct sm_field {
	const char *name;
	unsigned offset; /* bytes from the start of the element */
	unsigned size;   /* bytes */
};

/* A __shared__ array, static or dynamic, or a pointer carved out of one. */
struct sm_array {
	const char *name;
	const char *elem_type;   /* spelled element type, e.g. "float", "float4" */
	unsigned elem_size;      /* bytes of one element (>= 1) */
	unsigned elem_align;     /* alignment of the element type */
	int ndims;               /* declared dimensions (0 for a scalar) */
	int64_t dims[SM_MAX_DIMS];/* extents; dims[0] == 0 for extern [] */
	bool is_dynamic;         /* extern __shared__ T a[] */
	bool dims_overflow;      /* byte size does not fit in 64 bits */
	bool is_file_scope;      /* declared outside any function */
	bool sizeof_taken;       /* sizeof(a) appears: code depends on its size */
	bool address_taken;      /* a pointer into it is formed (&a[i][j], a row,
	                          * a cast): code may depend on its row size */
	int nfields;             /* fields of a struct element type */
	struct sm_field *fields;
	struct sm_range decl;        /* the whole declaration */
	struct sm_range dims_range;  /* the "[32][32]" text, for fix-its */
	unsigned index;          /* position in sm_file.arrays */
};

enum sm_var_kind { SM_V_LOCAL, SM_V_PARAM };

/* A local variable or parameter of a kernel. */
struct sm_var {
	const char *name;
	enum sm_var_kind kind;
	bool is_pointer;           /* T * */
	bool is_const;
	bool points_shared;        /* a pointer assigned an address in shared memory */
	bool points_remote;        /* given a pointer map_shared_rank returned
	                            * (sm_expr.remote) somewhere in its function:
	                            * every access through it is remote */
	bool is_ref;               /* a reference bound to a shared location (a
	                            * parameter `uint &a` called with s[i]): held
	                            * as a pointer; every use is an access */
	unsigned pointee_size;     /* is_pointer: sizeof(T) */
	unsigned id;               /* dense per kernel: index into env arrays */
	struct sm_range decl;
};

enum sm_access_kind { SM_ACC_LOAD, SM_ACC_STORE, SM_ACC_ATOMIC };

/* One shared-memory access as written. The byte address is
 *   base(array) + sum_k idx[k] * stride_k * elem_size + extra
 * where stride_k is the product of the declared dims after k. A pointer
 * carved out of an array contributes to idx/extra when it is resolved.
 * Before resolution, idx/extra reference variables and an access through
 * a pointer has array == NULL and `base` set, with idx[0] the subscript in
 * elements of the pointee; resolve finds the target. */
/* A copy pending at an access in a loop whose body's waits complete it
 * (the front end follows the body's commits and waits): pending only while
 * the level-th loop around the access (1: the innermost) is at an
 * iteration below iters, and the loops around that one (and not around
 * the copy) at their first. level 0: at every iteration. */
struct sm_pending_until {
	unsigned char level;
	unsigned char iters;
};

struct sm_access {
	enum sm_access_kind kind;
	struct sm_array *array;   /* target array, or NULL when through base */
	struct sm_expr *base;     /* pointer-valued base expression, or NULL */
	int nidx;                 /* subscripts written (<= ndims) */
	struct sm_expr *idx[SM_MAX_DIMS];
	struct sm_range idx_range[SM_MAX_DIMS]; /* each subscript as written
	                           * (a constant's too, which idx[k] has no
	                           * range for); line 0 when not known: a
	                           * swizzle fix (engine/swizzle_fix.c) rewrites
	                           * the text of the last one */
	struct sm_expr *extra;    /* extra byte offset (field, carve), or NULL */
	unsigned width;           /* bytes moved per thread: 1,2,4,8,16 */
	unsigned base_elem_size;  /* through base: sizeof the pointee */
	const char *member;       /* p[i].x: the field name, or NULL */
	bool is_volatile;
	bool data_dep;            /* an index was loaded from memory (s[data[i]]) */
	const struct sm_expr *value; /* a plain '=' store, or atomicExch: the value stored, as
	                           * written (not resolved), or NULL when the
	                           * front end did not record it; the race
	                           * search tells a write of one constant by
	                           * every thread (benign) from a real race */
	const char *op;           /* the instruction when not a plain load or
	                           * store ("ldmatrix.x4", "stmatrix.x2",
	                           * "cp.async"), or NULL */
	bool remote;              /* through a pointer map_shared_rank returned:
	                           * the same array of another block of the
	                           * cluster, ordered with that block's threads
	                           * only by a cluster barrier (engine/dsmem.c);
	                           * the block race search leaves it out */
	bool async_copy;          /* an asynchronous copy: a store (cp.async,
	                           * __pipeline_memcpy_async, cp.async.bulk into
	                           * shared memory) lands at any time up to the
	                           * wait that completes its commit group; a
	                           * load (cp.async.bulk out of shared memory,
	                           * op "cp.async.bulk store") reads at any time
	                           * up to its bulk wait_group */
	const struct sm_expr *gsrc; /* a cp.async: the byte offset of its global
	                           * source from a kernel parameter, as written
	                           * (the profiler counts a wavefront per global
	                           * line and shift it reads), or NULL */
	bool bulk;                /* with async_copy: one thread's copy of a
	                           * whole range (cp.async.bulk either way, a
	                           * cuda::memcpy_async past 16 bytes): the
	                           * async proxy moves it, not the lanes, so it
	                           * has no bank degree (engine/facts.c) */
	const struct sm_access *const *pending; /* the asynchronous copies issued
	                          * before it in statement order that no wait
	                          * has completed where it runs, npending of
	                          * them, or NULL: a load lists the copies
	                          * into shared memory, a store the bulk copies
	                          * out of it; the copying thread must not
	                          * touch their bytes yet (engine/async_wait.c) */
	unsigned npending;
	const struct sm_pending_until *pending_until; /* per pending copy,
	                          * or NULL: where the waits of a loop around
	                          * this access complete it */
	const struct sm_access *const *carried; /* a load in a loop body: the
	                          * asynchronous copies in flight at the end of
	                          * the body that no wait completes before it
	                          * in the next iteration, ncarried of them, or
	                          * NULL (engine/async_wait.c pairs them one
	                          * iteration of the innermost loop around both
	                          * apart) */
	unsigned ncarried;
	const struct sm_access *in_flight; /* not an instruction: the async_copy
	                           * this access stands for while it is still in
	                           * flight after a block barrier (the front end
	                           * repeats it after each barrier until its
	                           * wait), or NULL. Races only: never a bank
	                           * degree, a bound or an access record */
	bool flight_if;           /* in_flight, and in flight on some paths only:
	                           * the front end put it under an if on the
	                           * condition of a wait in the other arm of an
	                           * earlier if, its innermost guard */
	unsigned tmap_param;      /* a TMA tensor copy (cp.async.bulk.tensor,
	                           * async_copy and bulk): 1 + the index of the
	                           * kernel parameter holding its CUtensorMap,
	                           * or 0 when the map is not one */
	bool tensor;              /* a TMA tensor copy: its width is the box's
	                           * bytes when tmap is bound, else 16 (the
	                           * least a box moves) */
	const struct sm_tensor_map *tmap; /* the map every launch of the kernel
	                           * encodes for tmap_param (bound by the front
	                           * end once the launches are known), or NULL */
	const struct sm_callsite *call; /* inside an inlined callee, or NULL */
	struct sm_range range;    /* the access expression (for an access in a
	                           * callee in a header not converted: the call
	                           * site that led there) */
	unsigned index;           /* position in the kernel's access list */
};

/* A bulk copy out of shared memory (cp.async.bulk.global.shared::cta, the
 * TMA store): the one asynchronous copy that reads shared memory. The
 * missing-barrier rule and engine/proxy.c ask it the same way. */
static inline bool sm_access_is_bulk_out(const struct sm_access *a)
{
	return a->async_copy && a->bulk && a->kind == SM_ACC_LOAD;
}

enum sm_barrier_kind {
	SM_BAR_SYNCTHREADS,    /* __syncthreads() */
	SM_BAR_SYNCTHREADS_OP, /* __syncthreads_count/_and/_or */
	SM_BAR_CG_SYNC,        /* cooperative_groups g.sync() / cg::sync(g) (scope: g) */
	SM_BAR_ASM,            /* inline asm bar.sync / barrier.sync */
	SM_BAR_SYNCWARP,       /* __syncwarp(): orders a warp only */
	SM_BAR_MBARRIER,       /* an mbarrier's wait in inline PTX (try_wait /
	                        * test_wait): orders the block's threads for the
	                        * race search, but is not a barrier every thread
	                        * must reach (no divergent-barrier finding) */
};

/* Which threads a barrier makes wait for each other (its scope). Threads
 * are numbered linearly (x fastest), as the hardware forms warps. The
 * zero value is the whole block. */
enum sm_scope {
	SM_SCOPE_BLOCK,   /* every thread of the block: __syncthreads(), a
	                   * thread_block's sync(), bar.sync without a count,
	                   * a group whose size the front end could not fold */
	SM_SCOPE_GRID,    /* grid_group::sync(): every thread of the grid; for
	                   * one block it orders (and must be reached) as a
	                   * block barrier */
	SM_SCOPE_TILE,    /* thread_block_tile<N> / tiled_partition(parent, N):
	                   * each run of scope_arg consecutive threads is one
	                   * tile, ordered within itself only */
	SM_SCOPE_LANES,   /* __syncwarp(mask): in each warp, the lanes whose bit
	                   * is set in scope_arg (low 32 bits); scope_arg 0: a
	                   * mask not known to the front end (__activemask()) */
	SM_SCOPE_ACTIVE,  /* coalesced_group::sync(): the threads of one warp
	                   * that are active there, by definition all arrive */
	SM_SCOPE_COUNT,   /* bar.sync id, count: scope_arg threads, taken as
	                   * the first scope_arg threads of the block (whole
	                   * warps); the race search takes the threads that
	                   * reach it instead when its guards select exactly
	                   * scope_arg threads in whole warps */
};

/* The operators by group, as case labels, for switches that list every
 * enumerator instead of a default: (built with -Wswitch-enum): an
 * operator added to the enum and to no group is a warning at each switch. */
#define SM_OP_CASES_ARITH                                                               \
	case SM_OP_ADD: case SM_OP_SUB: case SM_OP_MUL: case SM_OP_DIV: case SM_OP_REM:  \
	case SM_OP_SHL: case SM_OP_SHR: case SM_OP_AND: case SM_OP_OR: case SM_OP_XOR:  \
	case SM_OP_MIN: case SM_OP_MAX
#define SM_OP_CASES_COMPARE                                                             \
	case SM_OP_LT: case SM_OP_GT: case SM_OP_LE: case SM_OP_GE: case SM_OP_EQ: case SM_OP_NE
#define SM_OP_CASES_LOGIC case SM_OP_LAND: case SM_OP_LOR
#define SM_OP_CASES_UNARY case SM_OP_NEG: case SM_OP_NOT: case SM_OP_BITNOT: case SM_OP_BREV
#define SM_OP_CASES_NONE case SM_OP_ASSIGN: case SM_OP__COUNT /* no operator of an expression */

enum sm_stmt_kind {
	SM_S_BLOCK,    /* kids[0..nkids) in order */
	SM_S_DECL,     /* var = value (value may be NULL) */
	SM_S_ASSIGN,   /* var op= value; op SM_OP_ASSIGN for plain '=' */
	SM_S_IF,       /* cond ? kids[0] : kids[1] (kids[1] may be NULL) */
	SM_S_LOOP,     /* kids[0]=init, cond, kids[1]=body, kids[2]=step */
	SM_S_SWITCH,   /* cond; kids[0] = body */
	SM_S_RETURN,
	SM_S_BREAK,
	SM_S_CONTINUE,
	SM_S_GOTO,
	SM_S_BARRIER,  /* barrier */
	SM_S_ACCESS,   /* access */
	SM_S_OPAQUE_CALL, /* a call the analysis does not follow */
	SM_S_CALL,     /* an inlined __device__ call: kids[0] = the callee's body
	                * with its parameters bound; a RETURN inside leaves
	                * the innermost CALL, not the kernel */
};

struct sm_stmt {
	enum sm_stmt_kind kind;
	struct sm_var *var;        /* DECL/ASSIGN */
	enum sm_op op;             /* ASSIGN */
	struct sm_expr *value;     /* DECL/ASSIGN */
	struct sm_expr *cond;      /* IF/LOOP/SWITCH: NULL = always true */
	bool is_do_while;          /* LOOP: body runs before cond */
	enum sm_barrier_kind barrier; /* BARRIER: the form written */
	enum sm_scope scope;       /* BARRIER: the threads it orders */
	int64_t scope_arg;         /* BARRIER: TILE threads per tile, LANES the
	                            * lane mask, COUNT the thread count; else 0 */
	bool proxy_fence;          /* OPAQUE_CALL: fence.proxy.async: the
	                            * thread's generic-proxy accesses before it
	                            * are seen by the async proxy (a bulk copy)
	                            * after it (engine/proxy.c) */
	bool cluster;              /* BARRIER: a cluster barrier (cluster.sync(),
	                            * barrier_wait, barrier.cluster.wait): orders
	                            * the blocks of the cluster too, the one
	                            * barrier that orders distributed shared
	                            * memory */
	struct sm_access *access;  /* ACCESS */
	const struct sm_callsite *call; /* CALL: this call; others: the inlined
	                                 * call they are in, or NULL */
	struct sm_stmt **kids;
	int nkids;
	struct sm_range range;
};

struct sm_dim3 {
	int64_t x, y, z;
};

/* A launch `k<<<grid, block, smem>>>(...)` found in the same file. */
/* A kernel argument at a launch, when the host code fixes it. */
/* A TMA tensor map (CUtensorMap) as the launching host function encodes
 * it with cuTensorMapEncodeTiled (called directly or through a pointer the
 * driver gave), every operand that matters a constant there
 * (front/convert_host.c). */
struct sm_tensor_map {
	unsigned elem_size;        /* bytes of one element (its data type) */
	unsigned rank;             /* dimensions, 1..5 */
	uint32_t box[5];           /* boxDim: elements one copy moves in each
	                            * dimension, innermost first */
	unsigned swizzle;          /* the shared-memory swizzle's span in bytes:
	                            * 0 (none), 32, 64 or 128 */
	struct sm_range at;        /* the encode call */
};

struct sm_launch_arg {
	bool known;                /* value is a constant at this launch */
	int64_t value;
	const struct sm_tensor_map *tmap; /* a CUtensorMap argument whose
	                            * encoding the host code shows, or NULL */
};

struct sm_launch {
	struct sm_dim3 block;      /* 0 in a component = not constant */
	bool block_known;
	int block_rank;            /* !block_known: the highest dimension the
	                            * launch may make larger than 1 (1: an
	                            * integer or dim3(n, 1, 1); 2: z is 1), 0
	                            * when not known */
	struct sm_dim3 grid;       /* as block */
	bool grid_known;
	struct sm_launch_arg *args;/* one per kernel parameter, or NULL */
	unsigned nargs;
	int64_t dyn_smem;          /* third launch parameter, -1 if unknown */
	struct sm_range range;
};

enum sm_func_kind { SM_F_KERNEL, SM_F_DEVICE };

struct sm_kernel {
	const char *name;
	enum sm_func_kind kind;
	struct sm_range range;
	struct sm_stmt *body;
	struct sm_var **vars;      /* all locals and params, by id */
	unsigned nvars;
	struct sm_array **arrays;  /* shared arrays it declares */
	unsigned narrays;
	struct sm_launch *launches;
	unsigned nlaunches;
	int64_t launch_bounds;     /* __launch_bounds__ max threads, 0 if none */
	struct sm_dim3 cluster_dims; /* __cluster_dims__(x, y, z) with constant
	                            * extents (missing ones 1); all 0 if none */
	int64_t dyn_smem_optin;    /* cudaFuncSetAttribute(k, cudaFuncAttributeMax-
	                            * DynamicSharedMemorySize, v) in the file: v
	                            * (the largest when several); -1 when present
	                            * with a value not known; 0 when absent */
	struct sm_range dyn_smem_optin_at; /* that call, when present */
	const char *template_args; /* "<32>" for an instantiation, or NULL */
	unsigned naccesses;        /* accesses in the body, numbered 0.. */
	unsigned nparams;          /* vars[0..nparams) are the parameters */
	bool inlined;              /* a __device__ function inlined into a kernel
	                            * of the file: analyzed through its callers */
	struct sm_access **tensor_copies; /* its TMA tensor copies (sm_access.
	                            * tensor), ntensor_copies of them */
	unsigned ntensor_copies;
};

enum sm_note_kind {
	SM_NOTE_CLANG,      /* clang's error */
	SM_NOTE_HOST_CLANG, /* clang's error inside a host-only function (front/host_code.h) */
	SM_NOTE_NVCC_ACCEPTS, /* clang's error on what nvcc accepts with a warning */
	SM_NOTE_TOO_DEEP,   /* an expression nested past SM_FE_MAX_DEPTH */
	SM_NOTE_CALL,       /* a __device__ call not followed */
	SM_NOTE_TEMPLATE,   /* a kernel template no launch of the file names:
	                     * not analyzed */
	SM_NOTE_MISSING_HEADER, /* headers not found: the file partly parsed,
	                     * the functions resting on them not analyzed
	                     * (front/missing_headers.h) */
};

/* What the front end could not do: a parse error, a missing include. */
struct sm_note {
	enum sm_note_kind kind;
	int level;          /* 0 = note, 1 = warning, 2 = error */
	struct sm_pos pos;
	const char *message;
};

/* A project header whose kernels and __device__ functions were converted
 * with the file (it matched --header-filter): ranges with file k point
 * into headers[k - 1]. */
struct sm_header {
	const char *path;          /* as clang names it (absolute when it can be) */
	const char *text;          /* its contents as parsed (for carets, fixes,
	                            * suppressions) */
	size_t text_len;
};

struct sm_file {
	const char *path;          /* as given by the user */
	const char *text;          /* file contents (for carets and fixes) */
	size_t text_len;
	struct sm_kernel **kernels;
	unsigned nkernels;
	struct sm_array **arrays;  /* every shared array, file scope included */
	unsigned narrays;
	struct sm_note *notes;     /* parse diagnostics */
	unsigned nnotes;
	bool parse_failed;         /* no AST at all */
	bool ir_partial;           /* a kernel converted in an arena of its own
	                            * (streamed) ran out of it: its IR is cut */
	struct sm_header *headers; /* range.file k > 0 is headers[k - 1] */
	unsigned nheaders;
};

/* The text a range of file index `file` of F points into (0: the file's
 * own), and its length in *len; NULL when unknown. */
static inline const char *sm_file_text(const struct sm_file *F, unsigned file, size_t *len)
{
	if (file && file <= F->nheaders) {
		*len = F->headers[file - 1].text_len;
		return F->headers[file - 1].text;
	}
	if (file) {
		*len = 0;
		return NULL;
	}
	*len = F->text_len;
	return F->text;
}

#ifdef __cplusplus
}
#endif

#endif
