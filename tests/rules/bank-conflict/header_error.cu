// An error inside a header (issue 15): reported as header:line:col with
// the chain of headers, at the #include line of this file, and the kernel
// is still analyzed.
#include "inc/header_error_outer.cuh"

__global__ void k(float *o)
{
    __shared__ float s[64];
    s[threadIdx.x * 2] = 1.0f;
    __syncthreads();
    o[threadIdx.x] = s[threadIdx.x];
}

void launch(float *o) { k<<<1, 32>>>(o); }

/*
 * check-args: --no-cuda
 * check-exit: 2
 * check-output-start
 * tests/rules/bank-conflict/header_error.cu:4:10: error: tests/rules/bank-conflict/inc/header_error_inner.cuh:4:41: use of undeclared identifier 'undeclared_in_header' (included from tests/rules/bank-conflict/inc/header_error_outer.cuh:2)
 * tests/rules/bank-conflict/header_error.cu:9:5: warning: 2-way bank conflict on store of 's' (float[64]) in kernel 'k' with blockDim (32,1,1) from the launch on line 14; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[threadIdx.x * 2] = 1.0f;
 *       ^~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/header_error.cu:8:5: note: 's' declared here
 * tests/rules/bank-conflict/header_error.cu:9:5: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * check-output-end
 */
