// One cause, one finding (issue 14, item 5): an early return before
// several barriers is reported once, on the first barrier, with the others
// as related locations; two independent causes stay two findings.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void early_exit_many(const float *in, float *out, int n)
{
    __shared__ float s[128];
    cg::thread_block cta = cg::this_thread_block();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (in[i] < 0.0f)
        return;
    s[threadIdx.x] = in[i];
    cg::sync(cta);
    float v = s[(threadIdx.x + 1) % 128];
    cg::sync(cta);
    s[threadIdx.x] = v;
    cg::sync(cta);
    v += s[(threadIdx.x + 2) % 128];
    cg::sync(cta);
    out[i] = v;
}

// the correct twin: the work is guarded, every thread reaches each barrier
__global__ void guarded_many(const float *in, float *out, int n)
{
    __shared__ float s1[128];
    cg::thread_block cta = cg::this_thread_block();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool live = in[i] >= 0.0f;
    s1[threadIdx.x] = live ? in[i] : 0.0f;
    cg::sync(cta);
    float v = s1[threadIdx.x] + s1[(threadIdx.x + 1) % 128];
    cg::sync(cta);
    s1[threadIdx.x] = v;
    cg::sync(cta);
    if (live)
        out[i] = s1[threadIdx.x];
}

// two conditions: two findings, each with its own barriers
__global__ void two_causes(float *out)
{
    __shared__ float s2[128];
    if (threadIdx.x < 64) {
        s2[threadIdx.x] = 1.0f;
        __syncthreads();
        __syncthreads();
    }
    if (threadIdx.x % 2 == 0) {
        __syncthreads();
    }
    out[threadIdx.x] = s2[threadIdx.x];
}

void launch(const float *in, float *out)
{
    early_exit_many<<<2, 128>>>(in, out, 256);
    guarded_many<<<2, 128>>>(in, out, 256);
    two_causes<<<1, 128>>>(out);
}
/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/divergent-barrier/one_cause.cu:15:5: error: divergent barrier: 'cg::sync(cta)' follows a thread-dependent 'return' (under 'in[i] < 0.0f') in kernel 'early_exit_many' at every launch (and 3 more barriers after it) [divergent-barrier]
 *       cg::sync(cta);
 *       ^~~~~~~~~~~~~
 * tests/rules/divergent-barrier/one_cause.cu:12:9: note: thread-dependent condition 'in[i] < 0.0f'
 * tests/rules/divergent-barrier/one_cause.cu:13:9: note: the 'return' that skips the barrier
 * tests/rules/divergent-barrier/one_cause.cu:17:5: note: 'cg::sync(cta)', made divergent by the same return
 * tests/rules/divergent-barrier/one_cause.cu:19:5: note: 'cg::sync(cta)', made divergent by the same return
 * tests/rules/divergent-barrier/one_cause.cu:21:5: note: 'cg::sync(cta)', made divergent by the same return
 * tests/rules/divergent-barrier/one_cause.cu:15:5: note: threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier
 * tests/rules/divergent-barrier/one_cause.cu:48:9: error: divergent barrier: '__syncthreads()' is under thread-dependent condition 'threadIdx.x < 64' in kernel 'two_causes' at the launch on line 61 (and 1 more barrier after it) [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/one_cause.cu:46:9: note: thread-dependent condition 'threadIdx.x < 64'
 * tests/rules/divergent-barrier/one_cause.cu:49:9: note: '__syncthreads()', made divergent by the same condition
 * tests/rules/divergent-barrier/one_cause.cu:48:9: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * tests/rules/divergent-barrier/one_cause.cu:52:9: error: divergent barrier: '__syncthreads()' is under thread-dependent condition 'threadIdx.x % 2 == 0' in kernel 'two_causes' at the launch on line 61 [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/one_cause.cu:51:9: note: thread-dependent condition 'threadIdx.x % 2 == 0'
 * tests/rules/divergent-barrier/one_cause.cu:52:9: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * check-output-end
 */
