// Public header of the library: the tile size comes from the target's
// compile definitions (DEMO_TILE), as in most CMake projects.
#pragma once
#ifndef DEMO_TILE
#error "DEMO_TILE must be defined by the build (target_compile_definitions)"
#endif
#define DEMO_ROWS 8

void demo_transpose(float *out, const float *in, int n);
float demo_sum(const float *in, int n);
