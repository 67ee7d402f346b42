// dialect: a kernel launching a kernel (dynamic parallelism), which every
// project using it builds with nvcc -rdc=true; clang needs -fgpu-rdc,
// which smemlint passes unless the compile command says -rdc=false.
// nvcc-flags: -rdc=true
// expect: clean
#include <cuda_runtime.h>

__global__ void child(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
}

__global__ void parent(float *out)
{
    if (threadIdx.x == 0)
        child<<<1, 64>>>(out + 64 * blockIdx.x);
}

void run(float *o) { parent<<<4, 32>>>(o); }
