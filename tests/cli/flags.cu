// The stride comes from a macro given on the command line or by the
// compilation database.
#ifndef STRIDE
#define STRIDE 1
#endif
#include "flags_inc.cuh"
__global__ void k(float *o)
{
    __shared__ float s[32 * 64];
    s[threadIdx.x * STRIDE * EXTRA] = 1.0f;
    o[threadIdx.x] = s[threadIdx.x];
}
int main() { k<<<1, 32>>>(0); return 0; }
