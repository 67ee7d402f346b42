// dialect: a kernel declared `extern "C"__global__`, with no blank after
// the linkage string (as a benchmark driver that loads kernels by name
// writes it). C++11 reads `"C"__global__` as a string literal with a
// user-defined suffix, an error in clang; nvcc reads a linkage and a
// kernel. The blank is moved after the string before the parse.
// expect: clean
#include <cuda_runtime.h>

extern "C"__global__
void saxpy(int n, float a, float *x, float *y)
{
    __shared__ float s[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    if (i < n)
        y[i] = a * s[threadIdx.x] + y[i];
}

void run(int n, float a, float *x, float *y) { saxpy<<<(n + 127) / 128, 128>>>(n, a, x, y); }
