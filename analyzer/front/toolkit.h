/* toolkit.h - finding the CUDA toolkit the front end parses with. */
#ifndef SMEMLINT_FRONT_TOOLKIT_H
#define SMEMLINT_FRONT_TOOLKIT_H

#include <stdbool.h>
#include <stddef.h>

/* Is there a toolkit at root (root/include/cuda_runtime.h is readable)? */
bool sm_toolkit_at(const char *root);

/* The toolkit to use when none is named: $CUDA_PATH, /usr/local/cuda, or
 * the root above an nvcc found on PATH, the first that has
 * include/cuda_runtime.h. Writes it into buf (n bytes) and returns buf, or
 * returns NULL when there is none (the bundled declarations are used). */
const char *sm_toolkit_find(char *buf, size_t n);

#endif
