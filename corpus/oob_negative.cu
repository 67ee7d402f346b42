// Out-of-bounds shared memory before an array's start (issue 28): thread 0
// reads s[-1]; its twin guards it. The out-of-bounds kernel runs last: its
// fault ends the program's CUDA context.
#include "common.cuh"

#define K 128

// in bounds: thread 0 takes 0 instead of s[-1]
__global__ void prev_guarded(float *out)
{
    __shared__ float s[K];
    int t = threadIdx.x;
    s[t] = out[t];
    __syncthreads();
    out[t] = t > 0 ? s[t - 1] : 0.0f;
}

// out of bounds: thread 0 reads the 4 bytes before s
__global__ void prev_elem(float *out)
{
    __shared__ float s[K];
    int t = threadIdx.x;
    s[t] = out[t];
    __syncthreads();
    out[t + K] = s[t - 1];
}

int main()
{
    float *d;
    CUDA_CHECK(cudaMalloc(&d, 1024 * sizeof(float)));
    CUDA_CHECK(cudaMemset(d, 0, 1024 * sizeof(float)));

    prev_guarded<<<1, K>>>(d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    prev_elem<<<1, K>>>(d);
    printf("prev_elem: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}

/*
 * check-output-start
 * corpus/oob_negative.cu:25:18: error: out-of-bounds load from 's': thread 0 reads bytes -4..-1, before the start of its 512 bytes in kernel 'prev_elem' with blockDim (128,1,1) from the launch on line 38 [shared-out-of-bounds]
 *       out[t + K] = s[t - 1];
 *                    ^~~~~~~~
 * corpus/oob_negative.cu:21:5: note: 's' declared here
 * corpus/oob_negative.cu:25:18: note: enlarge the array or bound the index (a guard such as `if (i < N)`)
 * check-output-end
 */
