// dialect: host code timing itself with clock() and CLOCKS_PER_SEC with no
// #include <time.h>: nvcc's cuda_runtime.h brings <time.h> (and makes
// clock() host and device); clang's wrapper declares only the device
// clock(). Closed in cuda_compat.h.
// expect: clean
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void stamp(long long *out)
{
    __shared__ long long t[32];
    t[threadIdx.x] = clock64() + clock();
    __syncwarp();
    out[threadIdx.x] = t[31 - threadIdx.x];
}

double timed(long long *o)
{
    clock_t start = clock();
    stamp<<<1, 32>>>(o);
    cudaDeviceSynchronize();
    return (double)(clock() - start) / CLOCKS_PER_SEC;
}
