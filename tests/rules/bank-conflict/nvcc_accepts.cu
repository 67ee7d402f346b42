// Code nvcc compiles that a device-only clang parse used to reject (issue
// 15): the cache-hinted loads and stores, isfinite from <cmath> in a
// host-device helper, and host code calling max/min. With the bundled
// header (--no-cuda) it parses cleanly and the conflict is found; the same
// with a toolkit (and CUB's BlockLoad) is in tests/test_cli.py (Toolkit).
#include <cmath>
#include <cuda_runtime.h>

__host__ __device__ inline bool usable(float x) { return isfinite(x) && !std::isnan(x); }

__global__ void stream(float *out, const float *in)
{
    __shared__ float s[256];
    int i = threadIdx.x;
    s[i] = __ldcs(in + i);
    __syncthreads();
    float v = s[(i * 2) % 256];
    if (usable(v))
        __stcs(out + i, v);
    __stcg(out + i + 256, 1.0f);
}

int host_blocks(int n, unsigned cap) { return min(max(n / 256, 1), cap); }

void launch(float *o, const float *i, int n) { stream<<<host_blocks(n, 64u), 256>>>(o, i); }

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/bank-conflict/nvcc_accepts.cu:17:15: warning: 2-way bank conflict on load of 's' (float[256]) in kernel 'stream' with blockDim (256,1,1) from the launch on line 25; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       float v = s[(i * 2) % 256];
 *                 ^~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/nvcc_accepts.cu:13:5: note: 's' declared here
 * tests/rules/bank-conflict/nvcc_accepts.cu:17:15: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * check-output-end
 */
