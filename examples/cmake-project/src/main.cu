#include <cstdio>
#include <cuda_runtime.h>
#include "demo/config.cuh"

int main()
{
    int n = 1024;
    float *a = nullptr, *b = nullptr;
    cudaMalloc(&a, n * n * sizeof(float));
    cudaMalloc(&b, n * n * sizeof(float));
    demo_transpose(b, a, n);
    std::printf("%f\n", demo_sum(a, max(n, 256)));
    return 0;
}
