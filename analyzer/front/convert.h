/* convert.h - converting a translation unit into the IR (private to front/).
 *
 * Conversion is syntax directed: statements become sm_stmt, integer
 * expressions become sm_expr, and shared-memory subscripts become ACCESS
 * statements emitted in evaluation order into the current block. Anything
 * the model does not cover becomes an OPAQUE value rather than a guess.
 *
 * One struct fe carries the state of one file's conversion; the work is
 * split by what it models, each file calling only the ones listed above
 * it (README.md draws the order):
 *   convert.c         arrays, cursor maps, positions, tokens, constants,
 *                     statement and expression nodes, notes
 *   barrier_scope.c   which threads a barrier orders
 *   convert_decl.c    shared arrays, variables, the callee a call follows
 *   convert_local.c   elements of local arrays as variables
 *   convert_expr.c    expressions, shared-memory places and accesses
 *   convert_warp.c    warp and tile collectives, butterfly reductions
 *   convert_stmt.c    statements, local declarations
 *   convert_call.c    modelled device calls; __device__ calls inlined
 *   convert_host.c    integer values of host code at launch sites
 *   convert_kernel.c  kernels, launches, the walk over the translation unit
 * The one way back up is fe.conv_call: an expression that is a call is
 * handed to the call converter (convert_call.c, installed by
 * convert_kernel.c), whose inlined callee's body is statements again;
 * and fe.on_assign, by which cv_emit tells convert_local.c of an
 * assignment.
 * frontend.c parses and calls cv_convert_tu. What the files share has the
 * cv_ prefix and is declared here; everything else is static in its file.
 * Nothing here is installed or seen outside front/.
 */
#ifndef SMEMLINT_FRONT_CONVERT_H
#define SMEMLINT_FRONT_CONVERT_H

#include <regex.h>
#include <stdint.h>

#include <clang-c/Index.h>

#include "base/limits.h"
#include "smemlint/arena.h"
#include "smemlint/ir.h"

/* ---------- small growable arrays in the arena ---------- */

struct vec {
	void **v;
	unsigned n, cap;
};

void cv_vec_push(struct sm_arena *A, struct vec *x, void *p);

/* ---------- cursor maps ---------- */

struct cmap_ent {
	CXCursor key;
	void *val;
	int used;
};

struct cmap {
	struct cmap_ent *e;
	unsigned cap, n;
};

void cv_cmap_free(struct cmap *m);
void *cv_cmap_get(const struct cmap *m, CXCursor k);
int cv_cmap_put(struct cmap *m, CXCursor k, void *v);

/* ---------- conversion state ---------- */

/* A file the conversion has seen, and whether its code is converted:
 * index 0 is the main file, k > 0 the project header F->headers[k - 1],
 * -1 a file left out (system, toolkit, or not matching --header-filter). */
struct fe_file {
	CXFile file;
	int index;
};

/* A converted file's tokens (the main file's, a converted header's), lexed
 * once on first use (cv_tokens_in): the tokens of a range of it without
 * clang_getLocation, whose first call in the main file builds a table of
 * every macro argument expanded there (seconds for a macro of 2^20
 * arguments), and which in a header searches every source-location entry
 * of the translation unit for the header's (a template-heavy flash
 * attention kernel in a header made 80% of its time that). */
struct fe_tokens {
	bool built;
	CXToken *tk;            /* clang_tokenize of the whole file (comments too) */
	unsigned n;
	unsigned *start, *end;  /* each token's first and one-past-last byte offset */
};

/* What the missing headers of the file cost (missing_headers.c): kept
 * only when a header was not found. */
struct fe_missing {
	struct vec names;       /* const char *: the headers as written */
	struct sm_pos first;    /* the first one's #include in the main file */
	CXFile *err_file;       /* every other error's expansion file and */
	unsigned *err_off;      /* offset, nerr of them */
	unsigned nerr;
	unsigned folded;        /* errors folded into the one report */
	struct vec dropped;     /* const char *: functions not analyzed */
	bool tainted;           /* the function being converted follows a call
	                         * into one that holds an error */
	struct vec bad_names;   /* const char *: the functions declared invalid
	                         * or holding an error (found once, on first use) */
	bool bad_scanned;
};

/* A host helper evaluated for one call of it (convert_host.c): its
 * parameters are that call's arguments. */
struct cv_host_bind {
	CXCursor fn;            /* the helper's definition (canonical) */
	CXCursor call;          /* the call */
};

/* A copy in flight (convert_async.c). */
struct cv_async_copy {
	struct sm_access *acc;           /* the copy's store (or bulk read) */
	unsigned group;                  /* commit group; 0: open */
	bool bulk;                       /* a bulk copy out of shared memory (a
	                                  * read), in the bulk groups */
	const struct cv_async_loop *loop; /* the innermost loop converted at its
	                                  * issue, or NULL (a record on the
	                                  * converter's stack: compare it while
	                                  * that loop is converted only) */
	struct sm_expr *cond;            /* in flight only where cond is `when`:
	                                  * an if's other arm waited for it
	                                  * (convert_async_flow.c); NULL: in
	                                  * flight on every path */
	bool when;
};

struct fe {
	CXTranslationUnit tu;
	CXFile main_file;
	const regex_t *header_filter; /* NULL: only the main file is converted */
	const char *toolkit;     /* its headers are never converted */
	struct fe_file *files;   /* every file seen (cv_file_index) */
	unsigned nfiles, cap_files;
	struct sm_arena *A;     /* where the kernel being converted goes: FA, or
	                         * the kernel's own arena when the file is
	                         * converted kernel by kernel (streamed) */
	struct sm_arena *FA;    /* the file's arena: what outlives one kernel
	                         * (headers, the files seen, notes, launches,
	                         * file-scope arrays, cached loop verdicts) */
	struct sm_file *F;
	struct cmap arrays;     /* VarDecl cursor -> sm_array */
	struct cmap vars;       /* VarDecl/ParmDecl cursor -> sm_var (per kernel) */
	struct cmap kernels;    /* FunctionDecl/template cursor -> sm_kernel */
	struct vec all_arrays;
	struct vec all_kernels;
	struct sm_kernel *K;    /* kernel being converted */
	struct vec kvars;
	struct vec karrays;
	struct vec ktensor;     /* the kernel's TMA tensor copies (sm_access *) */
	struct vec *block;      /* statements of the block being built */
	unsigned nopaque;
	unsigned naccess;
	int depth;              /* recursion guard */
	bool operand;           /* converting an operand of a node being built
	                         * (a + b's a and b): its own range is never
	                         * read, so cv_mk_expr leaves it zero (a
	                         * statement, a condition, a subscript and a
	                         * value returned as it is clear this again) */
	int too_deep;
	uintptr_t stack_floor;  /* recursion stops below this address */
	/* inlining (convert_call.c) */
	const struct cv_host_bind *host_bind; /* convert_host.c: the host helper whose
	                         * code is being evaluated for a call, or NULL */
	const struct sm_callsite *call; /* the inlined call being converted, or NULL */
	struct sm_var *inlined_this; /* the `*this` variable of the method call
	                         * last followed (its value after the body), or
	                         * NULL; inlined_this_call is that call */
	CXCursor inlined_this_call;
	struct sm_var *ret_var;  /* where `return v;` of that callee puts v */
	struct sm_var *this_var; /* a method called on a shared object: `this` */
	struct sm_var *this_obj; /* a method called on an object elsewhere (a local,
	                          * a parameter, global memory): its value, whose
	                          * members are loads at their offsets */
	CXCursor callee_stack[SM_MAX_CALL_DEPTH]; /* callees being inlined, outer first */
	CXCursor call_stack[SM_MAX_CALL_DEPTH];   /* the calls that inline them */
	bool in_header;          /* converting a callee defined outside the file:
	                          * positions go to the call site in the file */
	struct cmap inlined;     /* callees inlined at least once */
	struct cmap butterflies; /* for-statement cursor -> its butterfly verdict
	                          * (convert_warp.c; a helper's loop is met at
	                          * every inlining, its tokens read once) */
	struct cmap consts;      /* initializer cursor -> struct cv_const: what
	                          * cv_try_eval_int made of it (a helper's
	                          * const locals are met at every inlining;
	                          * clang_Cursor_Evaluate is costly) */
	struct cmap written;     /* host function cursor -> struct cmap * of the
	                          * locals it writes (convert_host.c; freed by
	                          * cv_written_free) */
	struct cmap tmaps;       /* a launch's CUtensorMap variable (canonical) ->
	                          * the map it holds, or a "none" sentinel: what
	                          * cv_host_tensor_map found, so a function of
	                          * many launches is walked once per map
	                          * (freed by cv_written_free) */
	struct cmap groups;      /* ParmDecl cursor -> struct cv_group: the
	                          * scope of the cooperative group passed for
	                          * a parameter of the callee being inlined */
	struct vec notes;        /* struct sm_note *: calls not followed */
	struct fe_missing miss;  /* headers not found, and what they cost */
	struct fe_tokens main_toks; /* cv_tokens_in; disposed by cv_tokens_free */
	struct fe_tokens *hdr_toks; /* the same for converted header k at
	                             * [k - 1] (SM_MAX_CONVERTED_HEADERS of
	                             * them, calloc'd on first use) */
	/* one VAR node per variable (and is_ptr) for the operands that name
	 * it (cv_var_ref under S->operand): no range, never changed after it
	 * is made, so one node serves them all (2^20 leaves `v` of a macro
	 * are one node, not 128 MiB); malloc'd, freed by cv_tokens_free */
	struct sm_expr **refs;  /* open addressing by var */
	unsigned nrefs, cap_refs;
	/* converts a call expression (cv_conv_call): the expression converter
	 * reaches the call converter, above it, only through this */
	struct sm_expr *(*conv_call)(struct fe *S, CXCursor c);
	/* told of each assignment or declaration cv_emit emits
	 * (cv_local_elems_assigned, installed by convert_kernel.c) */
	void (*on_assign)(struct fe *S, const struct sm_stmt *s);
	/* asynchronous copies in flight, in issue order (convert_async.c) */
	struct {
		struct cv_async_copy copy[SM_FE_ASYNC_PENDING];
		unsigned n;
		unsigned commits; /* groups committed so far */
		unsigned bulk_commits; /* bulk groups (cp.async.bulk.commit_group) */
		struct cv_async_loop *loop; /* the innermost loop being converted */
		unsigned issues; /* copies issued and groups committed so far */
		unsigned waits;  /* waits converted so far (with issues: what an
		                  * if's arm did, convert_async_flow.c) */
	} async;
	/* elements of local arrays followed as variables (convert_local.c) */
	struct {
		struct fe_elem {
			struct sm_var *arr;  /* the local array */
			char *key;           /* its index's tokens, space separated */
			struct sm_var *v;    /* the element's variable */
		} e[SM_FE_LOCAL_ELEMS];
		unsigned n;
		struct fe_checked {
			struct sm_var *arr;
			bool ok;             /* used only as a[...] (read or stored) */
		} arr[SM_FE_LOCAL_ARRAYS];
		unsigned narr;
	} elems;
};

/* Parse result to IR: fills F (kernels, arrays, notes) from tu, whose main
 * file is `path`; all of it in A. The kernels and __device__ functions of
 * the headers opt->header_filter accepts are converted too (F->headers).
 * The caller disposes of tu. */
struct sm_frontend_options;
struct sm_kernel_stream;
void cv_convert_tu(CXTranslationUnit tu, const char *path, const struct sm_frontend_options *opt, struct sm_file *F,
		   struct sm_arena *A, const struct sm_kernel_stream *ks);

/* ---------- cursors, positions, tokens (convert.c) ---------- */

struct kids {
	CXCursor c[8];
	int n;      /* total children (may exceed 8) */
};

/* The tokens of a cursor's extent, as strings in the arena. */
struct toks {
	char **s;
	struct sm_pos *pos;
	unsigned n;
};

struct sm_pos cv_pos_of(CXSourceLocation loc);
/* An asm statement's template (clang's, macros expanded) as a string
 * token then ':' (convert.c); its own tokens when clang gives none. */
struct toks cv_asm_tokens(struct fe *S, CXCursor c);
/* Is c written by a macro's expansion (its spelling elsewhere than where
 * it expands)? */
bool cv_from_macro(CXCursor c);
/* A store of a struct or vector copied whole (operator=): nvcc's line
 * table puts it on its value's first line, unless its target calls a
 * function (measured on the H200: corpus/lines_multiline.cu, LeetCUDA's
 * LDST128BITS(s[..]) = LDST128BITS(g[..]) loaders, 7 lines moved, 3 with
 * a swizzle call in the target not): st's range moves there when value
 * starts on a later line (convert.c). */
void cv_store_at_value(struct fe *S, struct sm_access *st, CXCursor target, CXCursor value);
/* The cursor's extent; range.file says which converted file it is in
 * (cv_file_index; 0 for a file left out). */
struct sm_range cv_range_of(struct fe *S, CXCursor c);
/* The index of file f (see struct fe_file): 0 the main file, k > 0 a
 * converted project header (added to F->headers on first sight), -1 a
 * file whose code is not converted. */
int cv_file_index(struct fe *S, CXFile f);
/* A CXString copied into the arena and disposed of; never NULL. */
char *cv_cx_str(struct sm_arena *A, CXString s);
/* The first 8 children of c, and how many there are in all. */
struct kids cv_kids_of(CXCursor c);
/* Every child of c, however many: *n of them (arena memory). */
CXCursor **cv_kids_all(struct fe *S, CXCursor c, unsigned *n);
/* Skip implicit casts, parens and other single-child wrappers. */
/* The one expression among c's first 8 children (a cast's operand after
 * its TypeRef), or a null cursor when there is none or several. */
CXCursor cv_sole_operand(CXCursor c);
/* The variable or parameter the first DeclRefExpr in e names (e itself
 * stripped, then its subexpressions: `&map`, `(T *)&map`, a cast of it),
 * as referenced (not canonical); a null cursor when none; params_only:
 * only a parameter (ParmDecl) counts. */
CXCursor cv_decl_under(CXCursor e, bool params_only);
/* The index of parameter parm among function fn's, or -1. */
int cv_param_index(CXCursor fn, CXCursor parm);
/* The byte offset `&P[i]` or `P + i` addresses from a global pointer
 * parameter P of the kernel (a cp.async source), or NULL (convert_global.c). */
struct sm_expr *cv_global_offset(struct fe *S, CXCursor e);
CXCursor cv_strip(CXCursor c);
/* The cursor's extent as a range of the file text it expands from. */
CXSourceRange cv_file_extent(struct fe *S, CXCursor c);
/* What clang_tokenize returns for the text of file f from byte offset
 * `from` (a token's start) to `to`, without building a source range: in
 * the main file or a converted header, *tk and *n select them in the
 * file's tokens (not to be disposed of) and it returns 1; elsewhere, or
 * from a position that starts no token, 0 (use clang_tokenize). */
int cv_tokens_in(struct fe *S, CXFile f, unsigned from, unsigned to, CXToken **tk, unsigned *n);
/* Frees the files' tokens and S->refs (the end of a conversion). */
void cv_tokens_free(struct fe *S);
/* cv_tokens_in from `from` to the start of the next line, as
 * clang_getLocation(f, line + 1, 1) bounds it; 0 as cv_tokens_in, or on
 * the last line or one ending in \r. */
int cv_tokens_to_eol(struct fe *S, CXFile f, unsigned from, CXToken **tk, unsigned *n);
/* The tokens of cv_file_extent(S, c) in *tk, *n: returns 1 when they are
 * the caller's to clang_disposeTokens, 0 when borrowed (cv_tokens_in). */
int cv_tokenize_extent(struct fe *S, CXCursor c, CXToken **tk, unsigned *n);
struct toks cv_tokens_of(struct fe *S, CXCursor c);
/* The same, up to and including the first token spelled stop (a
 * function's head before its body: "{"); NULL stop: all. */
struct toks cv_tokens_until(struct fe *S, CXCursor c, const char *stop);
/* 1 and *out when clang evaluates c to an integer constant. */
int cv_try_eval_int(CXCursor c, int64_t *out);
/* The same, kept per cursor for the file (S->consts). */
int cv_eval_int_kept(struct fe *S, CXCursor c, int64_t *out);

/* Is c written in the analyzed file (not a header)? */
int cv_in_main_file(struct fe *S, CXCursor c);
/* Is c written in the analyzed file or in a project header converted
 * with it (--header-filter)? */
int cv_in_converted_file(struct fe *S, CXCursor c);
/* A function's body (its compound statement), or a null cursor. */
CXCursor cv_body_of(CXCursor fn);

/* Append s to the block being built (S->block), if there is one. */
void cv_emit(struct fe *S, struct sm_stmt *s);
struct sm_stmt *cv_mk_stmt(struct fe *S, enum sm_stmt_kind k, CXCursor c);

/* ---------- expression nodes (convert.c) ---------- */

/* Is the C type t unsigned / an integer (enums included)? Its width in
 * bits (64 for anything wider or unsized). */
int cv_type_is_unsigned(CXType t);
int cv_type_is_integer(CXType t);
unsigned cv_type_bits(CXType t);
/* A node of kind k at c's range (none for a null cursor, nor while
 * S->operand: computing a range walks every macro expansion it is in, most
 * of the time of a deep macro, and only the roots of conditions and
 * subscripts are read). */
struct sm_expr *cv_mk_expr(struct fe *S, enum sm_expr_kind k, CXCursor c);
struct sm_expr *cv_mk_const(struct fe *S, int64_t v);
/* a op b, in the integer type of c (64 bits for a null cursor). */
struct sm_expr *cv_mk_bin(struct fe *S, enum sm_op op, struct sm_expr *a, struct sm_expr *b, CXCursor c);
/* An unknown value named name, per thread when thread_dep. */
struct sm_expr *cv_opaque(struct fe *S, CXCursor c, const char *name, int thread_dep);
/* A load from global memory through a kernel parameter or a file-scope
 * variable base at index idx (NULL: 0): uniform where every thread
 * computes one index (the resolver decides); NULL when base is neither
 * (convert_decl.c). */
struct sm_expr *cv_global_load(struct fe *S, CXCursor c, CXCursor base, struct sm_expr *idx, const char *name);
/* Local array elements as variables (convert_local.c): the variable of
 * element a[i] where a read of it reads what was stored (NULL: not
 * known); the variable a store to a[i] assigns (NULL: not followed; the
 * caller converts the index and emits the assignment); the assignment or
 * declaration of s, which ends the elements whose index names its
 * variable (fe.on_assign); a fresh kernel. */
struct sm_var *cv_local_elem_known(struct fe *S, CXCursor c);
struct sm_var *cv_local_elem_target(struct fe *S, CXCursor lhs);
void cv_local_elems_assigned(struct fe *S, const struct sm_stmt *s);
void cv_local_elems_reset(struct fe *S);
/* An element of a local array passed to a call that is not followed, by
 * reference or to an unknown parameter: its array's known elements end at
 * c. (Passed to an inlined callee's reference parameter, it is the
 * variable cv_local_elem_target gives, copied back into after the call.) */
void cv_local_elem_clobber(struct fe *S, CXCursor arg, CXCursor c);
/* launch_bounds.c: a kernel's __launch_bounds__ maximum, or 0 */
int64_t cv_launch_bounds(struct fe *S, CXCursor fn);
struct sm_var *cv_record_root(struct fe *S, CXCursor lv, bool *whole);
struct sm_expr *cv_load_at(struct fe *S, CXCursor c, struct sm_expr *base, struct sm_expr *idx, const char *name);
struct sm_expr *cv_member_load(struct fe *S, CXCursor c, struct sm_expr *obj);
void cv_record_clobber(struct fe *S, struct sm_var *v, struct sm_expr *with, CXCursor c);
/* The value c loads from global memory through pointer ptr (__ldg(&p[i]),
 * __ldg(p)): alike in every thread that computes one index of one
 * parameter or global, as p[i] is; else a per-thread unknown
 * (convert_call.c). */
struct sm_expr *cv_load_through(struct fe *S, CXCursor c, CXCursor ptr);
/* A reference to v: under S->operand one node for every such operand
 * (struct fe's refs), else a node of its own at c. */
struct sm_expr *cv_var_ref(struct fe *S, CXCursor c, struct sm_var *v);
/* Record a note for the file (level 0..2) at c. */
void cv_note(struct fe *S, enum sm_note_kind kind, int level, CXCursor c, const char *msg);

/* Convert c with S->operand set to `operand` (cv_conv_expr), then restore
 * it: false where the result is a root whose range is read (a condition,
 * a subscript, a statement's parts), true where it only becomes an operand
 * of a node built from it. */
struct sm_expr *cv_conv_expr_as(struct fe *S, CXCursor c, bool operand);

/* ---------- barrier scopes (barrier_scope.c) ---------- */

/* The scope of a cooperative-groups object obj (the object of obj.sync()
 * or the argument of cg::sync(obj)): 1 and *sc, *arg when it is a group
 * smemlint models, else 0. */
int cv_group_scope(struct fe *S, CXCursor obj, enum sm_scope *sc, int64_t *arg);
/* A group's scope, as S->groups keeps it for a parameter. */
struct cv_group {
	enum sm_scope sc;
	int64_t arg;
	int64_t parent;         /* a tile (TILE, arg > 0): the thread count of
	                         * the tile it was partitioned from, 0 the
	                         * block, -1 unknown (cv_group_info) */
	bool cluster;           /* a cluster_group: a block barrier for its
	                         * sync, but its ranks and sizes are not the
	                         * block's */
};
/* The group obj is (cv_group_scope) and, for a tile, its parent: 1, else 0. */
int cv_group_info(struct fe *S, CXCursor obj, struct cv_group *g);
/* The group a call is about: its first argument when that is a group
 * (cg::reduce(tile, v, op), cg::sync(g)), else the object of g.f() or of
 * a static member reached through it: 1 and g, else 0. */
int cv_call_group(struct fe *S, CXCursor call, struct cv_group *g);
/* A member of a thread_block's dim3 (block.group_index().x is blockIdx.x,
 * thread_index() threadIdx, dim_threads() and group_dim() blockDim): the
 * builtin, or NULL when member is none of these. */
struct sm_expr *cv_group_dim3_member(struct fe *S, CXCursor member);
/* Is parameter p (of a callee about to be inlined) a cooperative group
 * (of any kind, thread_group included)? */
int cv_is_group_param(struct fe *S, CXCursor p);
/* Set the scope of the __syncwarp call's barrier s from its mask. */
void cv_syncwarp_scope(CXCursor call, int nargs, CXCursor arg0, struct sm_stmt *s);
/* Set the scope of the inline-asm barrier s from its bar.sync count. */
void cv_asm_scope(struct fe *S, CXCursor c, struct sm_stmt *s);

/* ---------- declarations (convert_decl.c) ---------- */

int cv_has_attr(CXCursor c, enum CXCursorKind attr);
struct sm_array *cv_make_array(struct fe *S, CXCursor decl, int file_scope);
/* convert_stmt.c: in a constructor being followed (its `*this` in
 * S->this_obj), the class's default member initializers and the
 * constructor's member initializers, as writes into the object. */
void cv_ctor_inits(struct fe *S, CXCursor def);
/* 1 + the index of the kernel parameter that expression map names (a
 * tensor map's `&map`, through casts), followed through the parameters of
 * the helpers being inlined (depth: S->call's), or 0 */
unsigned cv_kernel_param_of(struct fe *S, CXCursor map, int depth);
struct sm_var *cv_make_var(struct fe *S, CXCursor decl, enum sm_var_kind kind);
/* The shared array a declaration cursor declares, or NULL. */
/* v is given val: a pointer given a shared address points into shared
 * memory; so does an integer given one (as a byte address). */
void cv_var_takes(struct sm_var *v, const struct sm_expr *val);
struct sm_array *cv_array_of_decl(struct fe *S, CXCursor decl);
/* The definition of the __device__ function that call c invokes, when the
 * analysis follows it into the caller's context; else a null cursor. */
CXCursor cv_inline_target(struct fe *S, CXCursor c);

/* ---------- expressions (convert_expr.c) ---------- */

/* Convert c, emitting the accesses and assignments it makes into the
 * current block; never recurses deeper than SM_FE_MAX_DEPTH. */
struct sm_expr *cv_conv_expr(struct fe *S, CXCursor c);
/* Is c (casts and parens aside) an lvalue in shared memory? */
int cv_is_shared_lvalue(struct fe *S, CXCursor c);
/* Is c a pointer into shared memory the conversion follows? */
int cv_is_shared_ptr(struct fe *S, CXCursor c);
/* The address of the shared lvalue c as an SM_E_ADDR pointer, or NULL. */
struct sm_expr *cv_address_of(struct fe *S, CXCursor c);
/* Emit an ACCESS of kind for the shared lvalue c; NULL when it is none. */
struct sm_access *cv_emit_access(struct fe *S, CXCursor c, enum sm_access_kind kind);
/* Emit access a, made by the caller, as a statement at c: its range (the
 * call site's, in a header not converted), call, index. Returns a. */
struct sm_access *cv_emit_made_access(struct fe *S, CXCursor c, struct sm_access *a);
/* A fact the code states at `at` (cond is `n == 2`): n is 2 from here. */
void cv_assume(struct fe *S, CXCursor cond, CXCursor at);

/* ---------- statements (convert_stmt.c) ---------- */

struct sm_stmt *cv_conv_block(struct fe *S, CXCursor c);
/* Convert the statement c into the current block. */
void cv_conv_stmt_into(struct fe *S, CXCursor c);
/* A local declaration: a DECL statement, or a helper's __shared__ array. */
void cv_conv_vardecl(struct fe *S, CXCursor d);

/* ---------- calls (convert_call.c) ---------- */

/* A call being converted: the callee's spelling and its first SM_FE_CALL_ARGS
 * arguments. */
struct cv_call {
	CXCursor c;                       /* the CallExpr */
	const char *name;                 /* the callee as spelled (clang's spelling) */
	CXCursor args[SM_FE_CALL_ARGS];   /* its first arguments */
	int nargs;                        /* how many of them args holds */
	const struct device_call *model;  /* its line of device_calls[], or NULL */
};

/* convert_warp.c: a tile's one value, an unknown alike in each run of
 * span threads (span < 2: per thread), with argument `input` (-1: none)
 * as what it was computed from; the calls it models; and after a for
 * loop c, a butterfly reduction's result (the file's note). */
struct sm_expr *cv_tile_value(struct fe *S, const struct cv_call *k, int64_t span, int input);
struct sm_expr *cv_conv_shfl_sync(struct fe *S, const struct cv_call *k);
struct sm_expr *cv_conv_warp_collective(struct fe *S, const struct cv_call *k);
void cv_butterfly_loop(struct fe *S, CXCursor c, CXCursor init, CXCursor cond, CXCursor inc, CXCursor body);

/* convert_wmma.c: wmma::load_matrix_sync / store_matrix_sync on shared
 * memory (its design note); false when the fragment is not modelled and
 * nothing was converted */
bool cv_wmma_load(struct fe *S, const struct cv_call *k);
bool cv_wmma_store(struct fe *S, const struct cv_call *k);
/* convert_decl.c: a variable of the kernel no declaration names */
struct sm_var *cv_synthetic_var(struct fe *S, const char *name, bool is_pointer, unsigned pointee_size);

/* convert_async.c: asynchronous copies, tensor-core tile accesses and
 * library collectives (its design note). The calls, converted as lines of convert_call.c's table: */
struct sm_expr *cv_conv_cvta_shared(struct fe *S, const struct cv_call *k);
/* convert_async.c: cluster.map_shared_rank(p, rank): p, marked remote */
struct sm_expr *cv_conv_map_shared_rank(struct fe *S, const struct cv_call *k);
/* convert.c: is e a pointer into another block's shared memory
 * (sm_expr.remote, a variable given one, or such a pointer plus n)? */
bool cv_expr_remote(const struct sm_expr *e);
struct sm_expr *cv_conv_pipeline_memcpy(struct fe *S, const struct cv_call *k);
struct sm_expr *cv_conv_pipeline_commit(struct fe *S, const struct cv_call *k);
struct sm_expr *cv_conv_pipeline_wait(struct fe *S, const struct cv_call *k);
struct sm_expr *cv_conv_cuda_memcpy_async(struct fe *S, const struct cv_call *k);
/* convert_async.c, for convert_ptx.c: the issuing thread's bulk copy of
 * size bytes at ptr (kind STORE: into shared memory, complete at a
 * barrier's wait; LOAD: out of it, in the bulk groups); closing a group
 * and waiting (all but the n newest; n < 0: all), of the bulk groups or
 * the others; a fence.proxy.async statement; an mbarrier operation on
 * the 8 bytes at ptr (init writes them; a wait completes every copy and
 * orders the block); the constant size of a copy's argument, or -1 */
struct sm_access *cv_async_bulk_copy(struct fe *S, CXCursor c, struct sm_expr *ptr, enum sm_access_kind kind,
				     int64_t size, const char *op);
void cv_async_commit(struct fe *S, bool bulk);
void cv_async_wait(struct fe *S, int64_t n, bool bulk);
void cv_async_proxy_fence(struct fe *S, CXCursor c);
void cv_async_mbarrier(struct fe *S, CXCursor c, struct sm_expr *ptr, bool init, bool wait);
int64_t cv_async_copy_size(CXCursor arg);
/* convert_ptx.c: the bulk copies, their groups, the proxy fence and the
 * mbarrier, as libcu++ and cuda::ptx spell them (the PTX: cv_asm_async) */
struct sm_expr *cv_conv_bulk_store(struct fe *S, const struct cv_call *k);
struct sm_expr *cv_conv_bulk_load(struct fe *S, const struct cv_call *k);
/* convert_async.c: a TMA tensor copy (cp.async.bulk.tensor) at ptr, kind
 * STORE into shared memory or LOAD out of it, whose CUtensorMap operand
 * is map: an async bulk copy of 16 bytes until the launches bind its map
 * (cv_bind_tensor_maps); convert_ptx.c: libcu++'s and cuda::ptx's
 * spellings of it */
void cv_tensor_copy(struct fe *S, CXCursor c, struct sm_expr *ptr, enum sm_access_kind kind, CXCursor map);
struct sm_expr *cv_conv_tensor_copy(struct fe *S, const struct cv_call *k);
/* Each tensor copy of K whose map parameter every launch of K encodes
 * alike: its width the box's bytes, its map that one. */
void cv_bind_tensor_maps(struct sm_kernel *K);
struct sm_expr *cv_conv_ptx_mbarrier(struct fe *S, const struct cv_call *k);
struct sm_expr *cv_conv_bulk_commit(struct fe *S, const struct cv_call *k);
struct sm_expr *cv_conv_bulk_wait(struct fe *S, const struct cv_call *k);
struct sm_expr *cv_conv_proxy_fence(struct fe *S, const struct cv_call *k);
struct sm_expr *cv_conv_pipe_commit(struct fe *S, const struct cv_call *k);
struct sm_expr *cv_conv_pipe_wait(struct fe *S, const struct cv_call *k);
struct sm_expr *cv_conv_barrier_wait(struct fe *S, const struct cv_call *k);
struct sm_expr *cv_conv_barrier_arrive_wait(struct fe *S, const struct cv_call *k);
struct sm_expr *cv_conv_pipe_wait_prior(struct fe *S, const struct cv_call *k);
struct sm_expr *cv_conv_barrier_init(struct fe *S, const struct cv_call *k);
/* A call the front end does not model, while copies are in flight: one
 * that takes a pipeline or barrier (as its object or an argument) may
 * wait for them, so they are taken as complete (no race is made up). */
void cv_async_unmodelled_call(struct fe *S, const struct cv_call *k);
/* A method of a CUB block collective that synchronizes the block inside
 * (cub::BlockScan(temp).InclusiveSum(...), BlockReduce, BlockRadixSort,
 * ...): emitted as a block barrier; true when it was one. */
bool cv_library_collective(struct fe *S, const struct cv_call *k);
/* An asm statement holding ldmatrix, stmatrix or cp.async instructions:
 * their accesses and commit groups; false when it holds none. */
bool cv_asm_async(struct fe *S, CXCursor c);
/* Emit barrier statement s; after a block barrier, the copies still in
 * flight again (in_flight): a barrier does not order them. */
void cv_emit_barrier(struct fe *S, struct sm_stmt *s);
/* The callee of a call clang could not resolve because an argument's
 * declaration is invalid (a __shared__ cuda::barrier, whose constructor
 * clang rejects and nvcc ignores), read from its tokens, for the calls
 * convert_async.c models (memcpy_async, arrive_and_wait, wait); else "". */
const char *cv_recovered_call_name(struct fe *S, CXCursor call);
/* A kernel's conversion starts with no copy in flight. */
void cv_async_reset(struct fe *S);

/* convert_async_flow.c: the copies in flight across control flow.
 *
 * Groups committed after copy i's (-1: it is in the open group). */
static inline int64_t cv_async_groups_after(const struct fe *S, unsigned i)
{
	unsigned g = S->async.copy[i].group;
	unsigned commits = S->async.copy[i].bulk ? S->async.bulk_commits : S->async.commits;
	return g ? (int64_t)(commits - g) : -1;
}

/* Does a wait that leaves the n most recent groups (n < 0: none, every
 * copy committed or not) complete a copy with `after` groups committed
 * after its own? */
static inline bool cv_async_wait_completes(int64_t after, int64_t n)
{
	return n < 0 || (after >= 0 && after >= n);
}

/* A commit (wait false) or a wait leaving the n most recent groups, told
 * to every loop being converted (for their back edges). */
void cv_async_note(struct fe *S, bool wait, int64_t n, bool bulk);

/* The back edge of a loop: the commits and waits of
 * its body, in order, so that the copies still in flight at the end of the
 * body can be followed into the next iteration. begin before the body's
 * conversion (its condition's), end after it and the step's: the loads of
 * body and step then list the copies no wait completes before them
 * (sm_access.carried). */
struct cv_async_loop {
	struct vec ev;                /* struct cv_async_ev, in order */
	struct cv_async_loop *up;     /* the enclosing loop's, or NULL */
	unsigned first;               /* the first access index of the body: a
	                               * copy numbered below it was issued before
	                               * the loop, and is not carried over its
	                               * back edge (its loads list it as pending
	                               * already; its next issue is the enclosing
	                               * loop's) */
	struct cv_async_copy *start;  /* the copies in flight when the loop
	                               * began (arena), nstart of them */
	unsigned nstart;
	unsigned commits;             /* groups committed when it began */
};
void cv_async_loop_begin(struct fe *S, struct cv_async_loop *L);
void cv_async_loop_end(struct fe *S, struct cv_async_loop *L, const struct sm_stmt *body, const struct sm_stmt *step);

/* An if statement whose one arm waits for copies that were in flight
 * before it, the other arm touching no copy: after the if those copies
 * are in flight where the waiting arm did not run (cv_async_copy.cond).
 * begin before the arms, arms between them, end after the else arm with
 * the if's condition (NULL: not converted, and the arms' waits count as
 * done, as before). */
struct cv_async_if {
	struct cv_async_copy *before; /* the copies in flight before the if
	                               * (arena), or NULL when none */
	unsigned n;                   /* entries in before */
	unsigned issues, waits;       /* the counters before the arm converted now */
	bool then_issues, then_waits; /* what the then arm did */
};
void cv_async_if_begin(struct fe *S, struct cv_async_if *F);
void cv_async_if_arms(struct fe *S, struct cv_async_if *F);
void cv_async_if_end(struct fe *S, struct cv_async_if *F, struct sm_expr *cond);
/* The statement standing for copy i while it is in flight after a block
 * barrier: s itself, or an if on the copy's condition holding s. */
struct sm_stmt *cv_async_flight_stmt(struct fe *S, unsigned i, struct sm_stmt *s);

/* Inline the call c of def: bind its parameters (by value, by pointer,
 * by reference), convert def's body into an SM_S_CALL statement in the
 * current block, and return the call's value. NULL when the call cannot
 * be followed (a note says why); nothing was emitted then. */
struct sm_expr *cv_inline_call(struct fe *S, CXCursor c, CXCursor def);
/* A call expression: a modelled device call (barrier, atomic, ...), an
 * inlined __device__ function, or an opaque call. fe.conv_call. */
struct sm_expr *cv_conv_call(struct fe *S, CXCursor c);

/* ---------- host values at launch sites (convert_host.c) ---------- */

/* 1 and *out when the host expression c has a value the front end can
 * compute (constants, and locals whose only value is their initializer). */
int cv_host_eval(struct fe *S, CXCursor c, int64_t *out);
/* A launch's CUtensorMap argument: the map its host function encodes once
 * with constant operands (cuTensorMapEncodeTiled's shape, however the
 * function is reached), in the arena; NULL when not known. */
const struct sm_tensor_map *cv_host_tensor_map(struct fe *S, CXCursor arg);
/* The highest dimension a launch's block argument may make larger than 1
 * (1, 2 or 3), from the host code even when its extents are known only at
 * run time (an integer, dim3(n, 1, 1)); 0 when it cannot tell. */
int cv_host_dim_rank(struct fe *S, CXCursor c);
void cv_written_free(struct fe *S);

#endif
