// dialect: host code including <omp.h>. nvcc's host compiler finds it
// among its own headers; clang does not look there. smemlint searches
// gcc's include directory last (-idirafter).
// expect: clean
#include <cuda_runtime.h>
#include <omp.h>

__global__ void flip(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
}

int threads_for_host() { return omp_get_max_threads(); }

void run(float *o) { flip<<<1, 64>>>(o); }
