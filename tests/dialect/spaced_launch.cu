// dialect: a launch written with spaced brackets, `k << <grid, block >> > (...)`
// (clang-format's spelling of `<<<` in C++ mode, common in renderers):
// nvcc's lexer reads `<<<` and `>>>`; clang reads a shift and a comparison
// and fails on the launch. Closed up in place before the parse
// (front/nvcc_dialect.c), every offset kept; `A<B<C>> >` stays a
// template's closing brackets.
// expect: clean
#include <cuda_runtime.h>
#include <vector>

template <typename T> struct box { T v; };

__global__ void stride1(float *out)
{
    __shared__ float s[256];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[255 - threadIdx.x];
}

void run(float *o, int n)
{
    std::vector<box<box<int>> > nested(1);
    dim3 block(256);
    stride1 << <(n + 255) / 256, block >> > (o);
    stride1 << < 1, 256, 0 >> >(o + nested.size());
}
