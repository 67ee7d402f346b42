/* Must NOT compile: an engine-stage file including a driver header (the
 * driver's folder is not on the engine's include path). ctest
 * layout.upward-private expects this build to fail. */
#include "driver/analyze.h"
int sm_layout_probe_private(void) { return 0; }
