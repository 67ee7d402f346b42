// Asynchronous copies (cp.async) land at any time up to the wait that
// completes their commit group; a __syncthreads() before that wait does
// not publish them. Each racing kernel has a twin with the wait.
#include <cuda_pipeline.h>

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

/* PTX: commit_group, then the barrier with no wait_group: a race */
__global__ void ptx_no_wait(const float *in, float *out)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(smem_addr(&s[t])), "l"(&in[t]));
    asm volatile("cp.async.commit_group;" ::: "memory");
    __syncthreads();
    out[t] = s[63 - t];
}

/* the twin: wait_group 0 completes it */
__global__ void ptx_wait(const float *in, float *out)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(smem_addr(&s[t])), "l"(&in[t]));
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    out[t] = s[63 - t];
}

/* two groups; wait_prior(1) completes the older one only: reading a's
 * neighbours is safe, b's is a race */
__global__ void two_groups(const float *in, float *out)
{
    __shared__ float a[64], b[64];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&a[t], &in[t], 4);
    __pipeline_commit();
    __pipeline_memcpy_async(&b[t], &in[64 + t], 4);
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    out[t] = a[63 - t];
    out[64 + t] = b[63 - t];
}

/* still in flight after two barriers: a race after each */
__global__ void two_barriers(const float *in, float *out)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&s[t], &in[t], 4);
    __pipeline_commit();
    __syncthreads();
    __syncthreads();
    out[t] = s[63 - t];
}

/* a count only known at run time: taken as completing every copy, so
 * that no race is made up */
__global__ void unknown_count(const float *in, float *out, int n)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&s[t], &in[t], 4);
    __pipeline_commit();
    __pipeline_wait_prior(n);
    __syncthreads();
    out[t] = s[63 - t];
}

void launch(const float *in, float *out, int n)
{
    ptx_no_wait<<<1, 64>>>(in, out);
    ptx_wait<<<1, 64>>>(in, out);
    two_groups<<<1, 64>>>(in, out);
    two_barriers<<<1, 64>>>(in, out);
    unknown_count<<<1, 64>>>(in, out, n);
}

/*
 * check-output-start
 * tests/rules/missing-barrier/async_copies.cu:19:14: error: missing barrier: read-after-write race on 's': thread 0 reads s[63], which thread 63 wrote at line 16, while that asynchronous copy may still be in flight: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait, an mbarrier's try_wait) completes it before the __syncthreads() between (different warps) in kernel 'ptx_no_wait' with blockDim (64,1,1) from the launch on line 77 [missing-barrier]
 *       out[t] = s[63 - t];
 *                ^~~~~~~~~
 * tests/rules/missing-barrier/async_copies.cu:16:1: note: the racing write of 's' by thread 63
 * tests/rules/missing-barrier/async_copies.cu:14:5: note: 's' declared here
 * tests/rules/missing-barrier/async_copies.cu:19:14: note: wait for the copy (__pipeline_wait_prior(0), cp.async.wait_group 0, pipe.consumer_wait() or bar.arrive_and_wait()) before the __syncthreads() that publishes it
 * tests/rules/missing-barrier/async_copies.cu:47:19: error: missing barrier: read-after-write race on 'b': thread 0 reads b[63], which thread 63 wrote at line 42, while that asynchronous copy may still be in flight: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait, an mbarrier's try_wait) completes it before the __syncthreads() between (different warps) in kernel 'two_groups' with blockDim (64,1,1) from the launch on line 79 [missing-barrier]
 *       out[64 + t] = b[63 - t];
 *                     ^~~~~~~~~
 * tests/rules/missing-barrier/async_copies.cu:42:29: note: the racing write of 'b' by thread 63
 * tests/rules/missing-barrier/async_copies.cu:38:29: note: 'b' declared here
 * tests/rules/missing-barrier/async_copies.cu:47:19: note: wait for the copy (__pipeline_wait_prior(0), cp.async.wait_group 0, pipe.consumer_wait() or bar.arrive_and_wait()) before the __syncthreads() that publishes it
 * tests/rules/missing-barrier/async_copies.cu:59:14: error: missing barrier: read-after-write race on 's': thread 0 reads s[63], which thread 63 wrote at line 55, while that asynchronous copy may still be in flight: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait, an mbarrier's try_wait) completes it before the __syncthreads() between (different warps) in kernel 'two_barriers' with blockDim (64,1,1) from the launch on line 80 [missing-barrier]
 *       out[t] = s[63 - t];
 *                ^~~~~~~~~
 * tests/rules/missing-barrier/async_copies.cu:55:29: note: the racing write of 's' by thread 63
 * tests/rules/missing-barrier/async_copies.cu:53:5: note: 's' declared here
 * tests/rules/missing-barrier/async_copies.cu:59:14: note: wait for the copy (__pipeline_wait_prior(0), cp.async.wait_group 0, pipe.consumer_wait() or bar.arrive_and_wait()) before the __syncthreads() that publishes it
 * check-output-end
 */
