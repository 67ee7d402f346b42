// dialect: inline asm naming a PTX special register as `%globaltimer`.
// nvcc passes the string to ptxas as written; clang wants `%%` and
// rejects the statement ("invalid % escape in inline assembly string").
// A note; the asm statement is not analyzed (it touches no shared memory).
// expect: nvcc-accepts 1
#include <cuda_runtime.h>

__device__ unsigned long long now()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
    return t;
}

__global__ void stamp(unsigned long long *out)
{
    __shared__ unsigned long long s[64];
    s[threadIdx.x] = now();
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x * 2) % 64];
}

void run(unsigned long long *o) { stamp<<<1, 64>>>(o); }
