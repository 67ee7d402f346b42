// A cp.async wait in one arm of an if (front/convert_async_flow.c): after
// the if, the copies are in flight where the waiting arm did not run, so
// a barrier there does not order them and a read of another thread's
// element races with the copy still landing. The flags come from the
// command line: smemlint cannot know them, the GPU runs one value. The
// racy kernels skip the wait (the flag is 0, or the thread is past the
// first warp); their clean twins wait on every path, or read only where
// the wait ran.
#include "common.cuh"
#include <stdint.h>

#define N 256

#define CP_ASYNC(dst, src)                                                                                      \
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"((uint32_t)__cvta_generic_to_shared(dst)), \
                 "l"(src))
#define COMMIT() asm volatile("cp.async.commit_group;\n" ::)
#define WAIT_ALL() asm volatile("cp.async.wait_group 0;\n" ::)

// races: the wait runs only when `flag` is set (0 here)
__global__ void wait_if_flag(const float *g, float *out, int flag)
{
    __shared__ float s_a[N];
    int t = threadIdx.x;
    CP_ASYNC(&s_a[t], &g[t]);
    COMMIT();
    if (flag)
        WAIT_ALL();
    __syncthreads();
    out[t] = s_a[N - 1 - t];
}

// clean: one wait in each arm
__global__ void wait_both_arms(const float *g, float *out, int flag)
{
    __shared__ float s_b[N];
    int t = threadIdx.x;
    CP_ASYNC(&s_b[t], &g[t]);
    COMMIT();
    if (flag) {
        WAIT_ALL();
    } else {
        out[N + t] = 0.0f;
        WAIT_ALL();
    }
    __syncthreads();
    out[t] = s_b[N - 1 - t];
}

// clean: the read runs only where the wait ran (the same flag, 1 here)
__global__ void read_if_flag(const float *g, float *out, int flag)
{
    __shared__ float s_c[N];
    int t = threadIdx.x;
    CP_ASYNC(&s_c[t], &g[t]);
    COMMIT();
    if (flag)
        WAIT_ALL();
    __syncthreads();
    if (flag)
        out[t] = s_c[N - 1 - t];
}

// races: only the first warp waits; thread 0 reads what thread 255 copies
__global__ void first_warp_waits(const float *g, float *out)
{
    __shared__ float s_d[N];
    int t = threadIdx.x;
    CP_ASYNC(&s_d[t], &g[t]);
    COMMIT();
    if (t < 32)
        WAIT_ALL();
    __syncthreads();
    out[t] = s_d[N - 1 - t];
}

// clean: only the first warp waits, and it reads only its own warp's copies
__global__ void first_warp_reads(const float *g, float *out)
{
    __shared__ float s_e[N];
    int t = threadIdx.x;
    CP_ASYNC(&s_e[t], &g[t]);
    COMMIT();
    if (t < 32)
        WAIT_ALL();
    __syncthreads();
    if (t < 32)
        out[t] = s_e[31 - t];
}

int main(int argc, char **argv)
{
    (void)argv;
    int on = argc < 100, off = argc > 100; // 1 and 0, not known to smemlint
    float *d_g, *d_o;
    CUDA_CHECK(cudaMalloc(&d_g, N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_o, 2 * N * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_g, 0, N * sizeof(float)));

    wait_if_flag<<<1, N>>>(d_g, d_o, off);
    wait_both_arms<<<1, N>>>(d_g, d_o, off);
    read_if_flag<<<1, N>>>(d_g, d_o, on);
    first_warp_waits<<<1, N>>>(d_g, d_o);
    first_warp_reads<<<1, N>>>(d_g, d_o);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_g));
    CUDA_CHECK(cudaFree(d_o));
    printf("async_wait_branch: ok\n");
    return 0;
}

/*
 * check-output-start
 * corpus/async_wait_branch.cu:30:14: error: missing barrier: read-after-write race on 's_a': thread 0 reads s_a[255], which thread 255 wrote at line 25, while that asynchronous copy may still be in flight: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait, an mbarrier's try_wait) completes it before the __syncthreads() between (different warps) in kernel 'wait_if_flag' with blockDim (256,1,1) from the launch on line 100 [missing-barrier]
 *       out[t] = s_a[N - 1 - t];
 *                ^~~~~~~~~~~~~~
 * corpus/async_wait_branch.cu:25:5: note: the racing write of 's_a' by thread 255
 * corpus/async_wait_branch.cu:23:5: note: 's_a' declared here
 * corpus/async_wait_branch.cu:30:14: note: wait for the copy (__pipeline_wait_prior(0), cp.async.wait_group 0, pipe.consumer_wait() or bar.arrive_and_wait()) before the __syncthreads() that publishes it
 * corpus/async_wait_branch.cu:74:14: error: missing barrier: read-after-write race on 's_d': thread 0 reads s_d[255], which thread 255 wrote at line 69, while that asynchronous copy may still be in flight: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait, an mbarrier's try_wait) completes it before the __syncthreads() between (different warps) in kernel 'first_warp_waits' with blockDim (256,1,1) from the launch on line 103 [missing-barrier]
 *       out[t] = s_d[N - 1 - t];
 *                ^~~~~~~~~~~~~~
 * corpus/async_wait_branch.cu:69:5: note: the racing write of 's_d' by thread 255
 * corpus/async_wait_branch.cu:67:5: note: 's_d' declared here
 * corpus/async_wait_branch.cu:74:14: note: wait for the copy (__pipeline_wait_prior(0), cp.async.wait_group 0, pipe.consumer_wait() or bar.arrive_and_wait()) before the __syncthreads() that publishes it
 * check-output-end
 */
