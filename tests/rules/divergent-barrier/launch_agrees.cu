// A condition the threads of each block agree on at every launch is not
// divergent (issue 14, item 2): tid < 4 with 4-thread blocks; the same
// kernel shape launched with 8 threads is, and the message names the launch.
// blockIdx is enumerated over a known grid, and a loop's trip count is
// compared between threads. A condition that reads a loop's counter is
// not judged from one iteration.

__global__ void all_pass(float *o)
{
    __shared__ float s[4];
    int tid = threadIdx.x;
    if (tid < 4) {
        s[tid] = 1.0f;
        __syncthreads();
    }
    o[tid] = s[3 - tid];
}

__global__ void half_pass(float *o)
{
    __shared__ float s1[8];
    int tid = threadIdx.x;
    if (tid < 4) {
        s1[tid] = 1.0f;
        __syncthreads();
    }
    o[tid] = s1[7 - tid];
}

// every block keeps id <= 65279 < len = 65536: no thread returns
__global__ void len_launch(float *o, int len)
{
    __shared__ float t[256];
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id > len)
        return;
    t[threadIdx.x] = o[id];
    __syncthreads();
    o[id] = t[255 - threadIdx.x];
}

// twin: launched once with len = 1024 (4 full blocks, clean) and once with
// len = 1000, where the last block's threads 232-255 return: divergent at
// that launch
__global__ void len_partial(float *o, int len)
{
    __shared__ float u[256];
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= len)
        return;
    u[threadIdx.x] = o[id];
    __syncthreads();
    o[id] = u[255 - threadIdx.x];
}

// a grid-stride loop whose trip count is the same for every thread: n is
// a multiple of the block at its only launch
__global__ void stride_even(float *o, int n)
{
    __shared__ float v[256];
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        v[threadIdx.x] = o[i];
        __syncthreads();
        o[i] = v[255 - threadIdx.x];
        __syncthreads();
    }
}

// twin: n = 1000 gives threads 232-255 one iteration fewer
__global__ void stride_uneven(float *o, int n)
{
    __shared__ float w[256];
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        w[threadIdx.x] = o[i];
        __syncthreads();
        o[i] = w[255 - threadIdx.x];
        __syncthreads();
    }
}

// blockIdx.x == 0 differs between blocks, never within one: uniform
__global__ void first_block(float *o)
{
    __shared__ float z[256];
    if (blockIdx.x == 0) {
        z[threadIdx.x] = o[threadIdx.x];
        __syncthreads();
        o[threadIdx.x] = z[255 - threadIdx.x];
    }
}

// a condition that reads the loop's counter: the threads agree in the
// first iteration (st == 0: every v is 32), not in the second, where
// thread 8 skips the barrier
__global__ void counter_cond(float *o)
{
    __shared__ float c[64];
    for (int st = 0; st < 4; st++) {
        int v = st == 1 ? (int)threadIdx.x : 32;
        if (v == 8)
            continue;
        c[threadIdx.x] = o[st];
        __syncthreads();
    }
}

void launch(float *o)
{
    all_pass<<<1, 4>>>(o);
    half_pass<<<1, 8>>>(o);
    len_launch<<<255, 256>>>(o, 65536);
    len_partial<<<4, 256>>>(o, 1024);
    len_partial<<<4, 256>>>(o, 1000);
    stride_even<<<1, 256>>>(o, 1024);
    stride_uneven<<<1, 256>>>(o, 1000);
    first_block<<<4, 256>>>(o);
    counter_cond<<<1, 64>>>(o);
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/divergent-barrier/launch_agrees.cu:25:9: error: divergent barrier: '__syncthreads()' is under thread-dependent condition 'tid < 4' in kernel 'half_pass' at the launch on line 110 [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/launch_agrees.cu:23:9: note: thread-dependent condition 'tid < 4'
 * tests/rules/divergent-barrier/launch_agrees.cu:25:9: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * tests/rules/divergent-barrier/launch_agrees.cu:52:5: error: divergent barrier: '__syncthreads()' follows a thread-dependent 'return' (under 'id >= len') in kernel 'len_partial' at the launch on line 113 [divergent-barrier]
 *       __syncthreads();
 *       ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/launch_agrees.cu:49:9: note: thread-dependent condition 'id >= len'
 * tests/rules/divergent-barrier/launch_agrees.cu:50:9: note: the 'return' that skips the barrier
 * tests/rules/divergent-barrier/launch_agrees.cu:52:5: note: threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier
 * tests/rules/divergent-barrier/launch_agrees.cu:75:9: error: divergent barrier: '__syncthreads()' is in a loop whose trip count depends on the thread (condition 'i < n') in kernel 'stride_uneven' at the launch on line 115 (and 1 more barrier after it) [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/launch_agrees.cu:73:31: note: thread-dependent condition 'i < n'
 * tests/rules/divergent-barrier/launch_agrees.cu:77:9: note: '__syncthreads()', made divergent by the same condition
 * tests/rules/divergent-barrier/launch_agrees.cu:75:9: note: threads run the loop different numbers of times; give every thread the same trip count and guard the work instead
 * tests/rules/divergent-barrier/launch_agrees.cu:103:9: error: divergent barrier: '__syncthreads()' follows a thread-dependent 'continue' (under 'v == 8') in kernel 'counter_cond' at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/launch_agrees.cu:100:13: note: thread-dependent condition 'v == 8'
 * tests/rules/divergent-barrier/launch_agrees.cu:101:13: note: the 'continue' that skips the barrier
 * tests/rules/divergent-barrier/launch_agrees.cu:103:9: note: threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier
 * check-output-end
 */
