// Out-of-bounds shared memory on a static array (issue 28): a kernel
// launched with more threads than its array has elements, next to in-bounds
// twins (a guard, a bound the host passes). The out-of-bounds kernel runs
// last: its fault ends the program's CUDA context.
#include "common.cuh"

#define N 256

// in bounds: the guard keeps threads 256..511 out
__global__ void guarded(float *out)
{
    __shared__ float s[N];
    int t = threadIdx.x;
    if (t < N)
        s[t] = out[t];
    __syncthreads();
    if (t < N)
        out[t] = s[N - 1 - t];
}

// in bounds at the launch the program makes (n = 200 at run time); not
// knowable from the kernel alone, so not a finding
__global__ void param_bound(float *out, int n)
{
    __shared__ float s[N];
    int t = threadIdx.x;
    if (t < n)
        s[t] = out[t];
    __syncthreads();
    if (t < n)
        out[t] = s[n - 1 - t];
}

// out of bounds: 512 threads, 256 elements; threads 256..511 write past s
__global__ void too_many_threads(float *out)
{
    __shared__ float s[N];
    int t = threadIdx.x;
    s[t] = out[t];
    __syncthreads();
    out[t] = s[(t + 1) & (N - 1)];
}

int main(int argc, char **argv)
{
    float *d;
    CUDA_CHECK(cudaMalloc(&d, 1024 * sizeof(float)));
    CUDA_CHECK(cudaMemset(d, 0, 1024 * sizeof(float)));
    int n = argc > 100 ? atoi(argv[1]) : 200;

    guarded<<<1, 512>>>(d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    param_bound<<<1, 512>>>(d, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    too_many_threads<<<1, 512>>>(d);
    printf("too_many_threads: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}

/*
 * check-output-start
 * corpus/oob_static.cu:39:5: error: out-of-bounds store to 's': thread 256 writes bytes 1024..1027, past the end of its 1024 bytes in kernel 'too_many_threads' with blockDim (512,1,1) from the launch on line 59 [shared-out-of-bounds]
 *       s[t] = out[t];
 *       ^~~~
 * corpus/oob_static.cu:37:5: note: 's' declared here
 * corpus/oob_static.cu:39:5: note: enlarge the array or bound the index (a guard such as `if (i < N)`)
 * check-output-end
 */
