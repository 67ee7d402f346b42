// dialect: a narrowing conversion inside braces (`int r[2] = {n * 0.5f, t}`):
// an error by default in clang (-Wc++11-narrowing), a warning in nvcc
// (#2361-D, "invalid narrowing conversion"). Parsed with
// -Wno-c++11-narrowing.
// expect: clean
#include <cuda_runtime.h>

__global__ void halves(int *out, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    int r[2] = {n * 0.5f, t};
    unsigned short h{t};
    s[t] = r[0] + r[1] + h;
    __syncthreads();
    out[t] = s[63 - t];
}

void run(int *o, int n) { halves<<<1, 64>>>(o, n); }
