// divergent-barrier: positive and negative cases.
namespace cg = cooperative_groups;

__global__ void early_return(const float *in, float *out, int n)
{
    __shared__ float s[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[threadIdx.x ^ 1];
}

__global__ void uniform_return(const float *in, float *out, int n)
{
    __shared__ float s[128];
    if (blockIdx.x * blockDim.x >= n)
        return;
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[127 - t];
}

__global__ void tid_loop(float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = t;
    for (int k = 0; k < t % 4; ++k)
        __syncthreads();
    out[t] = s[t];
}

__global__ void uniform_loop(float *out, int n)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    float acc = 0;
    for (int k = 0; k < n; ++k) {
        s[t] = k;
        __syncthreads();
        acc += s[(t + 1) % 128];
        __syncthreads();
    }
    out[t] = acc;
}

__global__ void under_ternary_and_or(float *out)
{
    int t = threadIdx.x;
    int v = t > 3 ? __syncthreads_count(t) : 0;
    if (t < 100 && __syncthreads_or(t))
        v++;
    out[t] = v;
}

__global__ void tid_break(float *out, int n)
{
    int t = threadIdx.x;
    for (int k = 0; k < n; ++k) {
        __syncthreads();
        if (t == k)
            break;
    }
    out[t] = 0;
}

__global__ void tid_continue(float *out, int n)
{
    int t = threadIdx.x;
    for (int k = 0; k < n; ++k) {
        __syncthreads();
        if (t & 1)
            continue;
        __syncthreads();
    }
    out[t] = 0;
}

__global__ void tid_switch(float *out)
{
    int t = threadIdx.x;
    switch (t & 3) {
    case 0:
        __syncthreads();
        break;
    default:
        break;
    }
    out[t] = 0;
}

__global__ void uniform_switch_cg(float *out)
{
    cg::thread_block b = cg::this_thread_block();
    switch (blockIdx.x) {
    case 0:
        b.sync();
        break;
    default:
        cg::sync(b);
        break;
    }
    out[threadIdx.x] = 0;
}

__global__ void count_result_uniform(float *out)
{
    int t = threadIdx.x;
    int c = __syncthreads_count(t & 1);
    if (c > 10)
        __syncthreads();
    out[t] = c;
}

__global__ void asm_and_cg_under_tid(float *out)
{
    cg::thread_block b = cg::this_thread_block();
    int t = threadIdx.x;
    if (t < 32)
        asm volatile("bar.sync 0;");
    if (t >= 64)
        b.sync();
    if (t < 32)
        __syncwarp();
    out[t] = 0;
}

__global__ void loaded_value_cond(const int *flags, float *out)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = flags[t];
    __syncthreads();
    if (s[t] > 0)
        __syncthreads();
    if (s[0] > 0)
        __syncthreads();
    out[t] = 0;
}


/*
 * check-args: --block-dim 128 --no-cuda
 * check-output-start
 * tests/rules/divergent-barrier/barrier_divergence.cu:11:5: error: divergent barrier: '__syncthreads()' follows a thread-dependent 'return' (under 'i >= n') in kernel 'early_return' at every launch [divergent-barrier]
 *       __syncthreads();
 *       ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/barrier_divergence.cu:8:9: note: thread-dependent condition 'i >= n'
 * tests/rules/divergent-barrier/barrier_divergence.cu:9:9: note: the 'return' that skips the barrier
 * tests/rules/divergent-barrier/barrier_divergence.cu:11:5: note: threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier
 * tests/rules/divergent-barrier/barrier_divergence.cu:32:9: error: divergent barrier: '__syncthreads()' is in a loop whose trip count depends on the thread (condition 'k < t % 4') in kernel 'tid_loop' at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/barrier_divergence.cu:31:21: note: thread-dependent condition 'k < t % 4'
 * tests/rules/divergent-barrier/barrier_divergence.cu:32:9: note: threads run the loop different numbers of times; give every thread the same trip count and guard the work instead
 * tests/rules/divergent-barrier/barrier_divergence.cu:53:21: error: divergent barrier: '__syncthreads_count(t)' is under thread-dependent condition 't > 3' in kernel 'under_ternary_and_or' at every launch [divergent-barrier]
 *       int v = t > 3 ? __syncthreads_count(t) : 0;
 *                       ^~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/barrier_divergence.cu:53:13: note: thread-dependent condition 't > 3'
 * tests/rules/divergent-barrier/barrier_divergence.cu:53:21: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * tests/rules/divergent-barrier/barrier_divergence.cu:54:20: error: divergent barrier: '__syncthreads_or(t)' is under thread-dependent condition 't < 100' in kernel 'under_ternary_and_or' at every launch [divergent-barrier]
 *       if (t < 100 && __syncthreads_or(t))
 *                      ^~~~~~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/barrier_divergence.cu:54:9: note: thread-dependent condition 't < 100'
 * tests/rules/divergent-barrier/barrier_divergence.cu:54:20: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * tests/rules/divergent-barrier/barrier_divergence.cu:63:9: error: divergent barrier: '__syncthreads()' is in a loop that threads leave early by a thread-dependent 'break' (under 't == k') in kernel 'tid_break' at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/barrier_divergence.cu:64:13: note: thread-dependent condition 't == k'
 * tests/rules/divergent-barrier/barrier_divergence.cu:65:13: note: the 'break' that skips the barrier
 * tests/rules/divergent-barrier/barrier_divergence.cu:63:9: note: threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier
 * tests/rules/divergent-barrier/barrier_divergence.cu:77:9: error: divergent barrier: '__syncthreads()' follows a thread-dependent 'continue' (under 't & 1') in kernel 'tid_continue' at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/barrier_divergence.cu:75:13: note: thread-dependent condition 't & 1'
 * tests/rules/divergent-barrier/barrier_divergence.cu:76:13: note: the 'continue' that skips the barrier
 * tests/rules/divergent-barrier/barrier_divergence.cu:77:9: note: threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier
 * tests/rules/divergent-barrier/barrier_divergence.cu:87:9: error: divergent barrier: '__syncthreads()' is under a switch on thread-dependent 't & 3' in kernel 'tid_switch' at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/barrier_divergence.cu:85:13: note: thread-dependent condition 't & 3'
 * tests/rules/divergent-barrier/barrier_divergence.cu:87:9: note: threads that take other cases never reach it; move the barrier out of the switch
 * tests/rules/divergent-barrier/barrier_divergence.cu:123:9: error: divergent barrier: 'bar.sync' is under thread-dependent condition 't < 32' in kernel 'asm_and_cg_under_tid' at every launch [divergent-barrier]
 *           asm volatile("bar.sync 0;");
 *           ^~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/barrier_divergence.cu:122:9: note: thread-dependent condition 't < 32'
 * tests/rules/divergent-barrier/barrier_divergence.cu:123:9: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * tests/rules/divergent-barrier/barrier_divergence.cu:125:9: error: divergent barrier: 'b.sync()' is under thread-dependent condition 't >= 64' in kernel 'asm_and_cg_under_tid' at every launch [divergent-barrier]
 *           b.sync();
 *           ^~~~~~~~
 * tests/rules/divergent-barrier/barrier_divergence.cu:124:9: note: thread-dependent condition 't >= 64'
 * tests/rules/divergent-barrier/barrier_divergence.cu:125:9: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * tests/rules/divergent-barrier/barrier_divergence.cu:138:9: error: divergent barrier: '__syncthreads()' is under thread-dependent condition 's[t] > 0' in kernel 'loaded_value_cond' at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/barrier_divergence.cu:137:9: note: thread-dependent condition 's[t] > 0'
 * tests/rules/divergent-barrier/barrier_divergence.cu:138:9: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * check-output-end
 */
