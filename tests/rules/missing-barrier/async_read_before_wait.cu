// A thread reading bytes its own asynchronous copy may still be writing:
// a cp.async lands at any time until the wait that completes its commit
// group, for the copying thread too. `early` reads its element with no
// wait at all; `wait_too_weak` waits for all but the newest group, which
// is the one holding the copy; `next_stage` is a double buffer that reads
// the stage it has just started copying instead of the one the wait
// completed (the stage index off by one), and `ptx_group` does the same in
// inline PTX (cp.async.wait_group 1 with one group committed). `waited`,
// `double_buffer` and `other_thread` are correct: the wait completes the
// copy, the double buffer reads the completed stage, and a thread's read
// of another thread's element after the wait and a barrier is ordered.
// `carried_stage` reads, from its second iteration on, the stage the
// previous iteration fetched, with a wait that leaves that group in flight
// (a copy carried over the loop's back edge); `carried_stage_waited` waits
// for it.
#include <cuda_pipeline.h>

__global__ void early(const float *in, float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&s[t], &in[t], 4);
    __pipeline_commit();
    out[t] = s[t] * 2.0f;
}

__global__ void wait_too_weak(const float *in, float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&s[t], &in[t], 4);
    __pipeline_commit();
    __pipeline_wait_prior(1);
    out[t] = s[t] * 2.0f;
}

__global__ void next_stage(const float *in, float *out, int n)
{
    __shared__ float s[2][128];
    int t = threadIdx.x;
    float acc = 0.0f;
    __pipeline_memcpy_async(&s[0][t], &in[t], 4);
    __pipeline_commit();
    for (int k = 0; k < n; k++) {
        __pipeline_memcpy_async(&s[(k + 1) & 1][t], &in[(k + 1) * 128 + t], 4);
        __pipeline_commit();
        __pipeline_wait_prior(1);
        acc += s[(k + 1) & 1][t];
        __syncthreads();
    }
    out[t] = acc;
}

__global__ void ptx_group(const float *in, float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    unsigned a = (unsigned)__cvta_generic_to_shared(&s[t]);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" :: "r"(a), "l"(&in[t]) : "memory");
    asm volatile("cp.async.commit_group;\n" ::: "memory");
    asm volatile("cp.async.wait_group 1;\n" ::: "memory");
    out[t] = s[t];
}

__global__ void waited(const float *in, float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&s[t], &in[t], 4);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    out[t] = s[t] * 2.0f;
}

__global__ void double_buffer(const float *in, float *out, int n)
{
    __shared__ float s[2][128];
    int t = threadIdx.x;
    float acc = 0.0f;
    __pipeline_memcpy_async(&s[0][t], &in[t], 4);
    __pipeline_commit();
    for (int k = 0; k < n; k++) {
        __pipeline_memcpy_async(&s[(k + 1) & 1][t], &in[(k + 1) * 128 + t], 4);
        __pipeline_commit();
        __pipeline_wait_prior(1);
        acc += s[k & 1][t];
        __syncthreads();
    }
    out[t] = acc;
}

__global__ void other_thread(const float *in, float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&s[t], &in[t], 4);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[t] = s[127 - t];
}

// no copy before the loop: each iteration fetches the next stage and,
// from the second on, reads the stage the previous iteration fetched;
// wait_prior(2) leaves that group (one before the newest) in flight
__global__ void carried_stage(const float *in, float *out, int n)
{
    __shared__ float s[2][128];
    int t = threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < n; k++) {
        __pipeline_memcpy_async(&s[(k + 1) & 1][t], &in[(k + 1) * 128 + t], 4);
        __pipeline_commit();
        if (k > 0) {
            __pipeline_wait_prior(2);
            acc += s[k & 1][t];
        }
        __syncthreads();
    }
    out[t] = acc;
}

// the twin: wait_prior(1) completes the previous iteration's group
__global__ void carried_stage_waited(const float *in, float *out, int n)
{
    __shared__ float s[2][128];
    int t = threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < n; k++) {
        __pipeline_memcpy_async(&s[(k + 1) & 1][t], &in[(k + 1) * 128 + t], 4);
        __pipeline_commit();
        if (k > 0) {
            __pipeline_wait_prior(1);
            acc += s[k & 1][t];
        }
        __syncthreads();
    }
    out[t] = acc;
}

void launch(const float *in, float *out, int n)
{
    early<<<1, 128>>>(in, out);
    wait_too_weak<<<1, 128>>>(in, out);
    next_stage<<<1, 128>>>(in, out, n);
    ptx_group<<<1, 128>>>(in, out);
    waited<<<1, 128>>>(in, out);
    double_buffer<<<1, 128>>>(in, out, n);
    other_thread<<<1, 128>>>(in, out);
    carried_stage<<<1, 128>>>(in, out, n);
    carried_stage_waited<<<1, 128>>>(in, out, n);
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/missing-barrier/async_read_before_wait.cu:24:14: error: missing wait: read of 's' before its asynchronous copy completes: thread 0 reads s[0], which its own asynchronous copy at line 22 may still be writing: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait, an mbarrier's try_wait) completes the copy's group before the read in kernel 'early' with blockDim (128,1,1) from the launch on line 143 [missing-barrier]
 *       out[t] = s[t] * 2.0f;
 *                ^~~~
 * tests/rules/missing-barrier/async_read_before_wait.cu:22:29: note: the asynchronous copy into 's' by thread 0
 * tests/rules/missing-barrier/async_read_before_wait.cu:20:5: note: 's' declared here
 * tests/rules/missing-barrier/async_read_before_wait.cu:24:14: note: wait for the copy's group before reading its bytes (__pipeline_wait_prior(N) or cp.async.wait_group N with N no larger than the groups committed after it, pipe.consumer_wait())
 * tests/rules/missing-barrier/async_read_before_wait.cu:34:14: error: missing wait: read of 's' before its asynchronous copy completes: thread 0 reads s[0], which its own asynchronous copy at line 31 may still be writing: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait, an mbarrier's try_wait) completes the copy's group before the read in kernel 'wait_too_weak' with blockDim (128,1,1) from the launch on line 144 [missing-barrier]
 *       out[t] = s[t] * 2.0f;
 *                ^~~~
 * tests/rules/missing-barrier/async_read_before_wait.cu:31:29: note: the asynchronous copy into 's' by thread 0
 * tests/rules/missing-barrier/async_read_before_wait.cu:29:5: note: 's' declared here
 * tests/rules/missing-barrier/async_read_before_wait.cu:34:14: note: wait for the copy's group before reading its bytes (__pipeline_wait_prior(N) or cp.async.wait_group N with N no larger than the groups committed after it, pipe.consumer_wait())
 * tests/rules/missing-barrier/async_read_before_wait.cu:48:16: error: missing wait: read of 's' before its asynchronous copy completes: thread 0 reads s[1][0], which its own asynchronous copy at line 45 may still be writing: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait, an mbarrier's try_wait) completes the copy's group before the read in kernel 'next_stage' with blockDim (128,1,1) from the launch on line 145 [missing-barrier]
 *           acc += s[(k + 1) & 1][t];
 *                  ^~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/async_read_before_wait.cu:45:33: note: the asynchronous copy into 's' by thread 0
 * tests/rules/missing-barrier/async_read_before_wait.cu:39:5: note: 's' declared here
 * tests/rules/missing-barrier/async_read_before_wait.cu:48:16: note: wait for the copy's group before reading its bytes (__pipeline_wait_prior(N) or cp.async.wait_group N with N no larger than the groups committed after it, pipe.consumer_wait())
 * tests/rules/missing-barrier/async_read_before_wait.cu:62:14: error: missing wait: read of 's' before its asynchronous copy completes: thread 0 reads s[0], which its own asynchronous copy at line 59 may still be writing: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait, an mbarrier's try_wait) completes the copy's group before the read in kernel 'ptx_group' with blockDim (128,1,1) from the launch on line 146 [missing-barrier]
 *       out[t] = s[t];
 *                ^~~~
 * tests/rules/missing-barrier/async_read_before_wait.cu:59:1: note: the asynchronous copy into 's' by thread 0
 * tests/rules/missing-barrier/async_read_before_wait.cu:56:5: note: 's' declared here
 * tests/rules/missing-barrier/async_read_before_wait.cu:62:14: note: wait for the copy's group before reading its bytes (__pipeline_wait_prior(N) or cp.async.wait_group N with N no larger than the groups committed after it, pipe.consumer_wait())
 * tests/rules/missing-barrier/async_read_before_wait.cu:116:20: error: missing wait: read of 's' before its asynchronous copy completes: thread 0 reads s[1][0], which its own asynchronous copy at line 112 in the previous iteration may still be writing: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait, an mbarrier's try_wait) completes the copy's group before the read in kernel 'carried_stage' with blockDim (128,1,1) from the launch on line 150 [missing-barrier]
 *               acc += s[k & 1][t];
 *                      ^~~~~~~~~~~
 * tests/rules/missing-barrier/async_read_before_wait.cu:112:33: note: the asynchronous copy into 's' by thread 0
 * tests/rules/missing-barrier/async_read_before_wait.cu:108:5: note: 's' declared here
 * tests/rules/missing-barrier/async_read_before_wait.cu:116:20: note: wait for the copy's group before reading its bytes (__pipeline_wait_prior(N) or cp.async.wait_group N with N no larger than the groups committed after it, pipe.consumer_wait())
 * check-output-end
 */
