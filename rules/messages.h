/* messages.h - helpers that phrase findings (rules only): source text
 * quoted from the file, array elements, threads, and the one builder of
 * race findings shared by missing-barrier and warp-sync. */
#ifndef SMEMLINT_RULES_MESSAGES_H
#define SMEMLINT_RULES_MESSAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smemlint/arena.h"
#include "engine/launch.h"
#include "smemlint/diag.h"
#include "smemlint/ir.h"

/* The source text of r in file text (one line, whitespace collapsed, at
 * most max bytes with "..." when cut), or "?" when out of range. */
const char *sm_source_text(const char *text, size_t len, struct sm_range r, struct sm_arena *A, size_t max);

/* Do a and b cover the same text (file and both ends)? Two accesses that
 * do are one line's finding (a helper inlined twice). */
bool sm_same_range(struct sm_range a, struct sm_range b);

/* "s[3][4]": the element of array a holding byte offset addr. */
const char *sm_element_name(const struct sm_array *a, const char *name, int64_t addr, struct sm_arena *A);

/* "thread 5" or "thread (1,2,0)" for block shape b. */
const char *sm_thread_name(const int64_t tid[3], struct sm_dim3 b, struct sm_arena *A);

/* Where code runs: "in kernel 'k'", or for code inlined from a helper
 * "in 'helper' called from kernel 'k' at line 40" (a longer chain names
 * each call: "in 'b' called from 'a' at line 7, from kernel 'k' at line 40"). */
const char *sm_where_text(struct sm_arena *A, const char *kernel, const struct sm_callsite *call);

/* Where a finding's block shape came from, as every message words it
 * (after "with blockDim (x,y,z)"): " from the launch on line 97" (" from
 * the launch at k.cu:97" for a launch in another file than the finding), " from __launch_bounds__(256)",
 * " from --block-dim", " from block-dim in .smemlint.yaml" (the config's
 * base name), or the stated
 * assumption (" (assumed within __launch_bounds__(128): no launch site or
 * --block-dim gives it)" when a bound limited it), with what the other
 * shapes showed when they were tried (from->hold): " (assumed: no launch site, __launch_bounds__ or
 * --block-dim gives it; also a race for the 5 other block shapes tried,
 * 32 to 1024 threads)", " (assumed; not a race for blockDim (32,1,1))",
 * " (assumed; not tried with other block shapes: the analysis budget ran
 * out)"; "" when the finding has no launch context. */
const char *sm_launch_from_text(struct sm_arena *A, const struct sm_launch_from *from);

/* "with blockDim (32,8,1)" and its provenance (above). */
const char *sm_launch_text(struct sm_arena *A, const struct sm_diag_launch *l);

/* The verdict ALL over K's other shapes into f (their count and thread
 * range; UNCHECKED when K has none), for a finding of a divergent barrier
 * (divergent) or a race. */
void sm_launch_from_hold_all(struct sm_launch_from *f, const struct sm_kernel_launches *K, bool divergent);

/* The verdict NOT for shape b into f. */
void sm_launch_from_not_for(struct sm_launch_from *f, struct sm_dim3 b);

/* g->launch from the launch context c (engine/launch.h; NULL: none),
 * naming the launch's file when it is not g's (g->range is set first). */
void sm_diag_set_launch(struct sm_diag *g, const struct sm_file *F, const struct sm_launch_ctx *c);

#endif
