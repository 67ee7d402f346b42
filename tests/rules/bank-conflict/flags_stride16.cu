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

/*
 * check-args: -- -DSTRIDE=16 -Itests/rules/bank-conflict/inc
 * check-output-start
 * tests/rules/bank-conflict/flags_stride16.cu:10:5: warning: 32-way bank conflict on store of 's' (float[2048]) in kernel 'k' with blockDim (32,1,1) from the launch on line 13; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[threadIdx.x * STRIDE * EXTRA] = 1.0f;
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/flags_stride16.cu:9:5: note: 's' declared here
 * tests/rules/bank-conflict/flags_stride16.cu:10:5: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * check-output-end
 */
