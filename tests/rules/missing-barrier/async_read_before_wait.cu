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

void launch(const float *in, float *out, int n)
{
    early<<<1, 128>>>(in, out);
    wait_too_weak<<<1, 128>>>(in, out);
    next_stage<<<1, 128>>>(in, out, n);
    ptx_group<<<1, 128>>>(in, out);
    waited<<<1, 128>>>(in, out);
    double_buffer<<<1, 128>>>(in, out, n);
    other_thread<<<1, 128>>>(in, out);
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/missing-barrier/async_read_before_wait.cu:20:14: error: missing wait: read of 's' before its asynchronous copy completes: thread 0 reads s[0], which its own asynchronous copy at line 18 may still be writing: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait) completes the copy's group before the read in kernel 'early' with blockDim (128,1,1) from the launch on line 101 [missing-barrier]
 *       out[t] = s[t] * 2.0f;
 *                ^~~~
 * tests/rules/missing-barrier/async_read_before_wait.cu:18:29: note: the asynchronous copy into 's' by thread 0
 * tests/rules/missing-barrier/async_read_before_wait.cu:16:5: note: 's' declared here
 * tests/rules/missing-barrier/async_read_before_wait.cu:20:14: note: wait for the copy's group before reading its bytes (__pipeline_wait_prior(N) or cp.async.wait_group N with N no larger than the groups committed after it, pipe.consumer_wait())
 * tests/rules/missing-barrier/async_read_before_wait.cu:30:14: error: missing wait: read of 's' before its asynchronous copy completes: thread 0 reads s[0], which its own asynchronous copy at line 27 may still be writing: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait) completes the copy's group before the read in kernel 'wait_too_weak' with blockDim (128,1,1) from the launch on line 102 [missing-barrier]
 *       out[t] = s[t] * 2.0f;
 *                ^~~~
 * tests/rules/missing-barrier/async_read_before_wait.cu:27:29: note: the asynchronous copy into 's' by thread 0
 * tests/rules/missing-barrier/async_read_before_wait.cu:25:5: note: 's' declared here
 * tests/rules/missing-barrier/async_read_before_wait.cu:30:14: note: wait for the copy's group before reading its bytes (__pipeline_wait_prior(N) or cp.async.wait_group N with N no larger than the groups committed after it, pipe.consumer_wait())
 * tests/rules/missing-barrier/async_read_before_wait.cu:44:16: error: missing wait: read of 's' before its asynchronous copy completes: thread 0 reads s[1][0], which its own asynchronous copy at line 41 may still be writing: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait) completes the copy's group before the read in kernel 'next_stage' with blockDim (128,1,1) from the launch on line 103 [missing-barrier]
 *           acc += s[(k + 1) & 1][t];
 *                  ^~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/async_read_before_wait.cu:41:33: note: the asynchronous copy into 's' by thread 0
 * tests/rules/missing-barrier/async_read_before_wait.cu:35:5: note: 's' declared here
 * tests/rules/missing-barrier/async_read_before_wait.cu:44:16: note: wait for the copy's group before reading its bytes (__pipeline_wait_prior(N) or cp.async.wait_group N with N no larger than the groups committed after it, pipe.consumer_wait())
 * tests/rules/missing-barrier/async_read_before_wait.cu:58:14: error: missing wait: read of 's' before its asynchronous copy completes: thread 0 reads s[0], which its own asynchronous copy at line 55 may still be writing: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait) completes the copy's group before the read in kernel 'ptx_group' with blockDim (128,1,1) from the launch on line 104 [missing-barrier]
 *       out[t] = s[t];
 *                ^~~~
 * tests/rules/missing-barrier/async_read_before_wait.cu:55:1: note: the asynchronous copy into 's' by thread 0
 * tests/rules/missing-barrier/async_read_before_wait.cu:52:5: note: 's' declared here
 * tests/rules/missing-barrier/async_read_before_wait.cu:58:14: note: wait for the copy's group before reading its bytes (__pipeline_wait_prior(N) or cp.async.wait_group N with N no larger than the groups committed after it, pipe.consumer_wait())
 * check-output-end
 */
