// With header analysis off (--header-filter ''), a helper defined in a
// project header is still followed, but its finding is reported at the
// call in this file, as for a toolkit or system header.
#include "strided_helper.cuh"

__global__ void via_header(float *out)
{
    __shared__ float s[512];
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = load_strided(s, threadIdx.x);
}

void launch(float *f)
{
    via_header<<<1, 256>>>(f);
}

/*
 * check-args: --header-filter '' -- -Itests/rules/bank-conflict/inc
 * check-output-start
 * tests/rules/bank-conflict/header_helper_off.cu:11:24: warning: 2-way bank conflict on load of 's' (float[512]) in 'load_strided' called from kernel 'via_header' at line 11 with blockDim (256,1,1) from the launch on line 16; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[threadIdx.x] = load_strided(s, threadIdx.x);
 *                          ^~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/header_helper_off.cu:8:5: note: 's' declared here
 * check-output-end
 */
