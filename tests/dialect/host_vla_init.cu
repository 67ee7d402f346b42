// dialect: a host variable-length array with an initializer,
// `T a[n] = {0};`, a GNU extension nvcc accepts in host code; clang:
// "variable-sized object may not be initialized". A note; a launch inside
// that statement would not be analyzed (none is).
// expect: nvcc-accepts 1
#include <cuda_runtime.h>

__global__ void flip(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
}

void run(float **planes, int nplanes)
{
    float *per_plane[nplanes] = {0};
    for (int i = 0; i < nplanes; i++) {
        per_plane[i] = planes[i];
        flip<<<1, 64>>>(per_plane[i]);
    }
}
