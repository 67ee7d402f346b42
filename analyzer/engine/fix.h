/* fix.h - fixes users can apply: minimal padding, the conflict-free offset
 * form, verified XOR swizzles, and applying padding in place (--fix). */
#ifndef SMEMLINT_FIX_H
#define SMEMLINT_FIX_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/analysis.h"
#include "engine/launch.h"
#include "smemlint/diag.h"

enum sm_fix_kind { SM_FIX_NONE, SM_FIX_PAD, SM_FIX_OFFSET, SM_FIX_SWIZZLE };

/* The best fix found for one array in one kernel. */
struct sm_fix_plan {
	enum sm_fix_kind kind;
	int64_t pad;                      /* PAD: elements added to the last dimension */
	int64_t new_dims[SM_MAX_DIMS];    /* PAD: the new extents */
	int64_t swizzle_mask;             /* SWIZZLE: last ^= (previous & mask) << shift */
	int swizzle_shift;                /* SWIZZLE: 0, or log2 of the elements of one
	                                   * vector chunk (16-byte ldmatrix rows, cp.async
	                                   * and float4 tiles swizzle whole chunks) */
	double worst_before, worst_after; /* max degree over the array's accesses */
	int conflicting;                  /* accesses with degree >= 2 before */
	int fixed;                        /* of those, conflict-free after */
	int64_t bytes_added;              /* per block */
	int64_t static_before, static_after; /* static shared bytes of the kernel */
	bool crosses_48k;                 /* static_after > 48 KB >= static_before */
	int blocks_before, blocks_after;  /* resident blocks per SM on the arch */
	const char *refuse;               /* why --fix will not apply a PAD or a
	                                   * SWIZZLE, or NULL */
	const struct sm_fixit *edits;     /* SWIZZLE: the rewrite of every access of
	                                   * the array (swizzle_fix.c), nedits of
	                                   * them, applied together; NULL when
	                                   * refused */
	unsigned nedits;
	const char *decl;                 /* PAD: "float tile[32][33]" */
	const char *dims_text;            /* PAD: replacement for array->dims_range */
	const char *note;                 /* the whole suggestion, one line */
};

/* What the fix search looks at: one array of one kernel. */
struct sm_fix_query {
	const struct sm_kernel_model *m;      /* the kernel's resolved accesses */
	const struct sm_array *arr;           /* the array to fix */
	const struct sm_launch_ctx *shapes;   /* the block shapes the kernel is
	                                       * analyzed with (launch.h) */
	int nshapes;                          /* 1..SM_MAX_BLOCK_SHAPES */
	const char *arch;                     /* --arch: resident blocks per SM */
	const char *text;                     /* the declaring file's contents (the
	                                       * dimensions as spelled) */
	size_t len;                           /* its bytes */
	struct sm_work *work;                 /* the file's analysis budget: every
	                                       * layout tried counts its steps there;
	                                       * once spent, the search stops with
	                                       * the best layout so far (NULL:
	                                       * unlimited) */
};

/* Search the fix for q->arr over every access of it in q->m, under every
 * block shape of q. Returns 0 with *out filled (kind NONE if nothing
 * helps), -1 when out of memory. */
int sm_fix_search(const struct sm_fix_query *q, struct sm_arena *A, struct sm_fix_plan *out);

/* The edits that apply plan p's element swizzle (kind SWIZZLE) to every
 * access of q->arr in q->m, or p->refuse with why they cannot: sets
 * p->edits and p->nedits. Returns -1 when out of memory, else 0. */
int sm_fix_swizzle_edits(const struct sm_fix_query *q, struct sm_arena *A, struct sm_fix_plan *p);

/* `col ^ (row & mask)`, each operand parenthesised unless it is a name,
 * a member chain or a number. */
const char *sm_fix_swizzle_text(const char *col, const char *row, int64_t mask, struct sm_arena *A);

/* Resident blocks per SM for a block of `threads` threads using `smem`
 * bytes of shared memory on `arch` (sm_NN), or -1 for an unknown arch. */
int sm_resident_blocks(const char *arch, int64_t threads, int64_t smem);

/* The most shared memory one block may use on `arch` (static plus dynamic,
 * with cudaFuncSetAttribute's opt-in past 48 KB), or -1 for an unknown arch. */
int64_t sm_arch_block_smem(const char *arch);

/* The static shared bytes of the arrays kernel k declares (a file-scope
 * array it uses is not counted: a lower bound then). */
int64_t sm_kernel_static_smem(const struct sm_kernel *k);

/* Without the opt-in, a block gets at most 48 KB of shared memory. */
#define SM_SMEM_DEFAULT_LIMIT (48 * 1024)


#endif
