// Out-of-bounds shared memory in a loop (issue 28): one iteration too many
// puts every thread past the array; its twin stops in time. The
// out-of-bounds kernel runs last: its fault ends the program's CUDA context.
#include "common.cuh"

#define W 32

// in bounds: 4 iterations of a 32-thread block fill s[0..127]
__global__ void fill_ok(float *out)
{
    __shared__ float s[4 * W];
    int t = threadIdx.x;
    for (int i = 0; i < 4; i++)
        s[t + W * i] = out[t + W * i];
    __syncthreads();
    out[t] = s[4 * W - 1 - t] + s[t];
}

// out of bounds: i <= 4 runs a fifth iteration, s[128..159]
__global__ void fill_over(float *out)
{
    __shared__ float s[4 * W];
    int t = threadIdx.x;
    for (int i = 0; i <= 4; i++)
        s[t + W * i] = out[t + W * i];
    __syncthreads();
    out[t] = s[4 * W - 1 - t] + s[t];
}

int main()
{
    float *d;
    CUDA_CHECK(cudaMalloc(&d, 1024 * sizeof(float)));
    CUDA_CHECK(cudaMemset(d, 0, 1024 * sizeof(float)));

    fill_ok<<<1, W>>>(d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    fill_over<<<1, W>>>(d);
    printf("fill_over: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}

/*
 * check-output-start
 * corpus/oob_loop.cu:25:9: error: out-of-bounds store to 's': thread 0 writes bytes 512..515, past the end of its 512 bytes, when i = 4 in kernel 'fill_over' with blockDim (32,1,1) from the launch on line 40 [shared-out-of-bounds]
 *           s[t + W * i] = out[t + W * i];
 *           ^~~~~~~~~~~~
 * corpus/oob_loop.cu:22:5: note: 's' declared here
 * corpus/oob_loop.cu:25:9: note: enlarge the array or bound the index (a guard such as `if (i < N)`)
 * check-output-end
 */
