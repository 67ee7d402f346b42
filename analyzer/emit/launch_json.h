/* launch_json.h - a finding's launch context as JSON (shared by the JSON
 * and SARIF emitters). */
#ifndef SMEMLINT_EMIT_LAUNCH_JSON_H
#define SMEMLINT_EMIT_LAUNCH_JSON_H

#include <jansson.h>
#include <stdbool.h>

#include "smemlint/result.h"

/* {"block": [x,y,z], "grid": [...], "dyn_smem": n, "cluster": [...],
 * "source": {"kind": ..., "file": ..., "line": ...}}: grid, dyn_smem and
 * cluster only when known; source's file and line for a launch site, its
 * bound for __launch_bounds__, the config's path for the config. camel:
 * SARIF's property names (dynSmem). NULL when the finding has no launch
 * context (unused-suppression). */
json_t *sm_emit_launch_json(const struct sm_result *r, const struct sm_diag_launch *l, bool camel);

/* A finding's witness (shared-out-of-bounds) as JSON, the same in the JSON
 * document and SARIF's properties: {"thread": [x, y, z], "bytes": [first,
 * last], "extent": N}; NULL when the finding has none. */
json_t *sm_emit_witness_json(const struct sm_diag *d);

/* An access's predicted shared wavefronts, what Nsight Compute counts as
 * L1 Wavefronts Shared (and ... Ideal) on its instruction:
 * {"per_block": W, "ideal_per_block": I, "per_launch": W * blocks,
 * "ideal_per_launch": I * blocks, "exact": b}; the per-launch pair only
 * when the grid is known (blocks > 0, every block alike), exact false when
 * a loop bound was not known (the sums are then a bound's). camel: SARIF's
 * property names (perBlock). NULL when w is 0 (not analyzed). */
json_t *sm_emit_wavefronts_json(uint64_t w, uint64_t ideal, bool exact, int64_t blocks, bool camel);

/* Blocks in grid g, or 0 when it is not known (a component 0). */
int64_t sm_emit_grid_blocks(struct sm_dim3 g);

#endif
