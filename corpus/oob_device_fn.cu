// Out-of-bounds shared memory through a __device__ function (issue 28): the
// helper writes p[i] for the index its caller passes; one caller passes one
// past the last element. The out-of-bounds kernel runs last: its fault ends
// the program's CUDA context.
#include "common.cuh"

#define M 64

__device__ void put(float *p, int i, float v) { p[i] = v; }

__device__ float get(const float *p, int i) { return p[i]; }

// in bounds: thread t writes s[t]
__global__ void shift_ok(float *out)
{
    __shared__ float s[M];
    int t = threadIdx.x;
    put(s, t, out[t]);
    __syncthreads();
    out[t] = get(s, M - 1 - t);
}

// out of bounds: thread t writes s[t + 1]; thread 63 writes s[64]
__global__ void shift_over(float *out)
{
    __shared__ float s[M];
    int t = threadIdx.x;
    put(s, t + 1, out[t]);
    __syncthreads();
    out[t] = get(s, (t + 1) & (M - 1));
}

int main()
{
    float *d;
    CUDA_CHECK(cudaMalloc(&d, 1024 * sizeof(float)));
    CUDA_CHECK(cudaMemset(d, 0, 1024 * sizeof(float)));

    shift_ok<<<1, M>>>(d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    shift_over<<<1, M>>>(d);
    printf("shift_over: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}

/*
 * check-output-start
 * corpus/oob_device_fn.cu:9:49: error: out-of-bounds store to 'p' (in 's'): thread 63 writes bytes 256..259, past the end of its 256 bytes in 'put' called from kernel 'shift_over' at line 28 with blockDim (64,1,1) from the launch on line 43 [shared-out-of-bounds]
 *   __device__ void put(float *p, int i, float v) { p[i] = v; }
 *                                                   ^~~~
 * corpus/oob_device_fn.cu:26:5: note: 's' declared here
 * corpus/oob_device_fn.cu:9:49: note: enlarge the array or bound the index (a guard such as `if (i < N)`)
 * check-output-end
 */
