// Out-of-bounds dynamic shared memory (issue 28): one extern buffer carved
// into two arrays; the launch asks for too few bytes for the second. Its
// twin's launch asks for enough. The out-of-bounds kernel runs last: its
// fault ends the program's CUDA context.
#include "common.cuh"

#define B 128

// a[0..127] then b[0..127] at float 192: 320 floats (1280 bytes) needed
__global__ void carve(float *out)
{
    extern __shared__ float buf[];
    float *a = buf;
    float *b = buf + 192;
    int t = threadIdx.x;
    a[t] = out[t];
    b[t] = out[t + B];
    __syncthreads();
    out[t] = a[B - 1 - t] + b[B - 1 - t];
}

// the same carve-up, launched below with 1024 bytes: the stores to
// b[64..127] are past it (the loads stay in b[0..63])
__global__ void carve_short(float *out)
{
    extern __shared__ float buf[];
    float *a = buf;
    float *b = buf + 192;
    int t = threadIdx.x;
    a[t] = out[t];
    b[t] = out[t + B];
    __syncthreads();
    out[t] = a[B - 1 - t] + b[(B - 1 - t) & 63];
}

int main()
{
    float *d;
    CUDA_CHECK(cudaMalloc(&d, 1024 * sizeof(float)));
    CUDA_CHECK(cudaMemset(d, 0, 1024 * sizeof(float)));

    carve<<<1, B, (192 + B) * sizeof(float)>>>(d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    carve_short<<<1, B, 256 * sizeof(float)>>>(d);
    printf("carve_short: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}

/*
 * check-output-start
 * corpus/oob_dynamic.cu:31:5: error: out-of-bounds store to 'b' (in 'buf'): thread 64 writes bytes 1024..1027, past the end of the 1024 bytes of dynamic shared memory the launch asks for in kernel 'carve_short' with blockDim (128,1,1) from the launch on line 46 [shared-out-of-bounds]
 *       b[t] = out[t + B];
 *       ^~~~
 * corpus/oob_dynamic.cu:26:5: note: 'buf' declared here
 * corpus/oob_dynamic.cu:31:5: note: ask the launch for enough dynamic shared memory (its third parameter), or bound the index
 * check-output-end
 */
