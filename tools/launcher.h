/* launcher.h - `smemlint [OPTIONS] --launcher -- COMPILER ARGS...`, for
 * CMAKE_CUDA_COMPILER_LAUNCHER: lint the .cu sources of the compile command
 * with its -I/-D/-U/-include/-std flags and its target architecture, print
 * the findings to stderr, then exec the compile command unchanged (its exit
 * status is the launcher's). */
#ifndef SMEMLINT_LAUNCHER_H
#define SMEMLINT_LAUNCHER_H

#include <stddef.h>

/* argv[at] is "--launcher". Returns only on a usage error (2) or when the
 * compiler cannot be run (127). */
int sm_launcher_main(int argc, char **argv, int at);

#endif
