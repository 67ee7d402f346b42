/* Must compile: the control for the two probes beside it, an engine-stage
 * file including its own and lower stages' headers. */
#include "base/limits.h"
#include "engine/facts.h"
#include "smemlint/options.h"
int sm_layout_probe_own(void) { return SM_MAX_BLOCK_SHAPES; }
