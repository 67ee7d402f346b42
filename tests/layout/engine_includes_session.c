/* Must NOT compile: an engine-stage file including the public session
 * header, which belongs to the driver stage (include/smemlint/stage.h).
 * ctest layout.upward-public expects this build to fail. */
#include "smemlint/session.h"
int sm_layout_probe_public(void) { return 0; }
