// Planted: a barrier under a thread-dependent condition. The host code
// calls max(int, int), which nvcc declares for the host and clang's CUDA
// headers only for the device.
#include <cuda_runtime.h>
#include "demo/config.cuh"

__global__ void block_sum(float *out, const float *in, int n)
{
    __shared__ float part[256];
    unsigned t = threadIdx.x;
    part[t] = t < n ? in[blockIdx.x * 256 + t] : 0.0f;
    __syncthreads();
    for (unsigned s = 128; s > 0; s >>= 1) {
        if (t < s) {
            part[t] += part[t + s];
            __syncthreads();
        }
    }
    if (t == 0)
        atomicAdd(out, part[0]);
}

float demo_sum(const float *in, int n)
{
    float *out = nullptr;
    int blocks = max(n / 256, 1);
    block_sum<<<blocks, 256>>>(out, in, n);
    return 0.0f;
}
