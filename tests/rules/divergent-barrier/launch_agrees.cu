// A condition every thread of every launch agrees on is not divergent
// (issue 14, item 2): tid < 4 with 4-thread blocks; the same kernel shape
// launched with 8 threads is.

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

// blockIdx is not enumerated yet: still reported although the launch
// keeps id <= 65279 < len (issue 14, item 2, not done)
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

void launch(float *o)
{
    all_pass<<<1, 4>>>(o);
    half_pass<<<1, 8>>>(o);
    len_launch<<<255, 256>>>(o, 65536);
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/divergent-barrier/launch_agrees.cu:22:9: error: divergent barrier: '__syncthreads()' is under thread-dependent condition 'tid < 4' in kernel 'half_pass' [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/launch_agrees.cu:20:9: note: thread-dependent condition 'tid < 4'
 * tests/rules/divergent-barrier/launch_agrees.cu:22:9: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * tests/rules/divergent-barrier/launch_agrees.cu:36:5: error: divergent barrier: '__syncthreads()' follows a thread-dependent 'return' (under 'id > len') in kernel 'len_launch' [divergent-barrier]
 *       __syncthreads();
 *       ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/launch_agrees.cu:33:9: note: thread-dependent condition 'id > len'
 * tests/rules/divergent-barrier/launch_agrees.cu:34:9: note: the 'return' that skips the barrier
 * tests/rules/divergent-barrier/launch_agrees.cu:36:5: note: threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier
 * check-output-end
 */
