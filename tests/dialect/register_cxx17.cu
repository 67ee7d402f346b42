// dialect: the `register` storage class in code compiled as C++17, as
// older benchmark suites write their loop counters: C++17 removed it, and
// clang makes -Wregister an error by default; nvcc accepts it silently.
// Parsed with -Wno-register.
// expect: clean
#include <cuda_runtime.h>

__global__ void scale(float *out, const float *in)
{
    __shared__ float s[128];
    register int t = threadIdx.x;
    register float v = in[t];
    s[t] = 2.0f * v;
    __syncthreads();
    out[t] = s[127 - t];
}

void run(float *o, const float *i) { scale<<<1, 128>>>(o, i); }
