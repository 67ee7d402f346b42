// A cp.async wait in one arm of an if (front/convert_async_flow.c) leaves
// in flight, where that arm did not run, only the copies issued in the
// loop being converted. earlier_loop: the copy comes from an earlier loop
// (whose bookkeeping record the converter's stack may reuse for the next
// loop) and the first tile waits for it: at a later tile it has landed,
// so nothing is reported (before the mend the record's address matched
// and every later tile was reported). same_loop: each tile copies and
// only the first waits: at a later tile the copy is in flight behind the
// barrier, a race.
#include <stdint.h>
#define N 256
#define CP(dst, src)                                                                                        \
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"((uint32_t)__cvta_generic_to_shared(dst)), \
                 "l"(src))

__global__ void earlier_loop(const float *g, float *out, int n)
{
    __shared__ float s[N];
    int t = threadIdx.x;
    for (int i = 0; i < 1; ++i) {
        CP(&s[t], &g[t]);
        asm volatile("cp.async.commit_group;\n" ::);
    }
    for (int k = 0; k < n; ++k) {
        if (k == 0)
            asm volatile("cp.async.wait_group 0;\n" ::);
        __syncthreads();
        out[k * N + t] = s[N - 1 - t];
    }
}

__global__ void same_loop(const float *g, float *out, int n)
{
    __shared__ float s[N];
    int t = threadIdx.x;
    for (int k = 0; k < n; ++k) {
        CP(&s[t], &g[k * N + t]);
        asm volatile("cp.async.commit_group;\n" ::);
        if (k == 0)
            asm volatile("cp.async.wait_group 0;\n" ::);
        __syncthreads();
        out[k * N + t] = s[N - 1 - t];
        __syncthreads();
    }
}

void launch(const float *g, float *o, int n)
{
    earlier_loop<<<1, N>>>(g, o, n);
    same_loop<<<1, N>>>(g, o, n);
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/missing-barrier/async_wait_branch_loops.cu:42:26: error: missing barrier: read-after-write race on 's': thread 0 reads s[255], which thread 255 wrote at line 37, while that asynchronous copy may still be in flight: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait, an mbarrier's try_wait) completes it before the __syncthreads() between (different warps) in kernel 'same_loop' with blockDim (256,1,1) from the launch on line 50 [missing-barrier]
 *           out[k * N + t] = s[N - 1 - t];
 *                            ^~~~~~~~~~~~
 * tests/rules/missing-barrier/async_wait_branch_loops.cu:37:9: note: the racing write of 's' by thread 255
 * tests/rules/missing-barrier/async_wait_branch_loops.cu:34:5: note: 's' declared here
 * tests/rules/missing-barrier/async_wait_branch_loops.cu:42:26: note: wait for the copy (__pipeline_wait_prior(0), cp.async.wait_group 0, pipe.consumer_wait() or bar.arrive_and_wait()) before the __syncthreads() that publishes it
 * check-output-end
 */
