/* Must NOT compile: a driver-stage file including the public emitter
 * header, which belongs to the emit stage (include/smemlint/stage.h).
 * ctest layout.upward-public-emit expects this build to fail. */
#include "smemlint/emit.h"
int sm_layout_probe_public_emit(void) { return 0; }
