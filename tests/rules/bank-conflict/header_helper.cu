// A helper defined in a project header (under the current directory, so
// --header-filter's default accepts it) is followed, and its finding is
// reported in the header, the declaration in this file named in the note
// (header_helper_off.cu: with --header-filter '' it is reported at the
// call in this file); a call chain deeper than
// SM_MAX_CALL_DEPTH (16) is not followed, with a note.
#include "strided_helper.cuh"

__device__ float d17(float *s, int i) { return s[4 * i]; }
__device__ float d16(float *s, int i) { return d17(s, i); }
__device__ float d15(float *s, int i) { return d16(s, i); }
__device__ float d14(float *s, int i) { return d15(s, i); }
__device__ float d13(float *s, int i) { return d14(s, i); }
__device__ float d12(float *s, int i) { return d13(s, i); }
__device__ float d11(float *s, int i) { return d12(s, i); }
__device__ float d10(float *s, int i) { return d11(s, i); }
__device__ float d9(float *s, int i) { return d10(s, i); }
__device__ float d8(float *s, int i) { return d9(s, i); }
__device__ float d7(float *s, int i) { return d8(s, i); }
__device__ float d6(float *s, int i) { return d7(s, i); }
__device__ float d5(float *s, int i) { return d6(s, i); }
__device__ float d4(float *s, int i) { return d5(s, i); }
__device__ float d3(float *s, int i) { return d4(s, i); }
__device__ float d2(float *s, int i) { return d3(s, i); }
__device__ float d1(float *s, int i) { return d2(s, i); }
__device__ float d0(float *s, int i) { return d1(s, i); }

__global__ void via_header(float *out)
{
    __shared__ float s[512];
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = load_strided(s, threadIdx.x);
}

__global__ void deep_chain(float *out)
{
    __shared__ float s[512];
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = d0(s, threadIdx.x);
}

void launch(float *f)
{
    via_header<<<1, 256>>>(f);
    deep_chain<<<1, 128>>>(f);
}

/*
 * check-args: -- -Itests/rules/bank-conflict/inc
 * check-output-start
 * tests/rules/bank-conflict/header_helper.cu:11:48: note: call to 'd16' not followed: the call chain is deeper than SM_MAX_CALL_DEPTH (16); the shared accesses inside it are not analyzed here
 * tests/rules/bank-conflict/inc/strided_helper.cuh:3:70: warning: 2-way bank conflict on load of 's' (float[512]) in 'load_strided' called from kernel 'via_header' at line 33 with blockDim (256,1,1) from the launch at header_helper.cu:46; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *   __device__ inline float load_strided(const float *s, int i) { return s[2 * i]; }
 *                                                                        ^~~~~~~~
 * tests/rules/bank-conflict/inc/strided_helper.cuh:3:70: note: 's' declared here (at tests/rules/bank-conflict/header_helper.cu:30:5)
 * check-output-end
 */
