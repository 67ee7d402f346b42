// Dynamic parallelism: a kernel launched from device code compiles only as
// relocatable device code (-rdc=true, CUDA_SEPARABLE_COMPILATION), which
// clang parses only with -fgpu-rdc.
#include <cuda_runtime.h>

__global__ void count_child(unsigned *calls)
{
    atomicAdd(calls, 1u);
}

__global__ void count_parent(unsigned *calls)
{
    __shared__ unsigned hits[32];
    hits[threadIdx.x] = 1;
    __syncwarp();
    if (threadIdx.x == 0 && hits[0] + hits[31] == 2)
        count_child<<<1, 32>>>(calls);
}
