// Guards that decide with an unknown beside them, and values merged under
// a guard (issue 23): none of the writes below race, except the controls.

// index is unknown (a per-thread load), but threadIdx.x == 0 decides the
// conjunction for every other thread: one writer, no race
__global__ void conj_unknown(const int *idx, float *o)
{
    __shared__ float s[32];
    int index = idx[threadIdx.x];
    if (index > 0 && threadIdx.x == 0)
        s[0] = o[threadIdx.x];
    if (!(index <= 0 || threadIdx.x != 0))
        s[1] = o[threadIdx.x];
    __syncthreads();
    o[threadIdx.x] = s[0] + s[1];
}

// control: a disjunction with an unknown may let every thread pass
__global__ void disj_unknown(const int *idx, float *o)
{
    __shared__ float s[32];
    int index = idx[threadIdx.x];
    if (index > 0 || threadIdx.x == 0)
        s[0] = o[threadIdx.x];
    __syncthreads();
    o[threadIdx.x] = s[0];
}

// w is threadIdx.x where the guard holds and 0 elsewhere; the store runs
// under the same guard, so it writes s[threadIdx.x], whatever n is
__global__ void merged_under_guard(float *o, int n)
{
    __shared__ float s[256];
    int w = 0;
    if (threadIdx.x < n)
        w = threadIdx.x;
    if (threadIdx.x < n)
        s[w] = o[threadIdx.x];
    __syncthreads();
    o[threadIdx.x] = s[0];
}

// control: a different guard on the store (its threads may hold w == 0)
__global__ void merged_other_guard(float *o, int n)
{
    __shared__ float s[256];
    int w = 0;
    if (threadIdx.x < n)
        w = threadIdx.x;
    if (threadIdx.x < 2 * n)
        s[w] = o[threadIdx.x];
    __syncthreads();
    o[threadIdx.x] = s[0];
}

// a barrier under a condition every thread of the 256 holds orders them
__global__ void barrier_under_true(float *o)
{
    __shared__ float s[256];
    s[threadIdx.x] = o[threadIdx.x];
    if (threadIdx.x < 256) {
        __syncthreads();
    }
    o[threadIdx.x] = s[255 - threadIdx.x];
}

// a barrier under a condition that repeats one in force (a guard around
// it, or its loop's condition) is reached by every thread that got there
__global__ void repeated_guard(float *o, int n)
{
    __shared__ float s[256];
    if (n > 0) {
        s[threadIdx.x] = o[threadIdx.x];
        if (n > 0)
            __syncthreads();
        o[threadIdx.x] = s[255 - threadIdx.x];
    }
    __syncthreads();
    for (int i = 0; i < n; i++) {
        s[threadIdx.x] = o[i];
        if (i < n)
            __syncthreads();
        o[i] = s[255 - threadIdx.x];
        __syncthreads();
    }
}

// control: a different condition may be false where the guard holds
__global__ void other_guard(float *o, int n)
{
    __shared__ float s[256];
    if (n > 0) {
        s[threadIdx.x] = o[threadIdx.x];
        if (n > 1)
            __syncthreads();
        o[threadIdx.x] = s[255 - threadIdx.x];
    }
}

/*
 * check-args: --block-dim 256 --no-cuda
 * check-output-start
 * tests/rules/missing-barrier/guards_values.cu:24:9: error: missing barrier: write-after-write race on 's': thread 0 writes s[0], which thread 32 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'disj_unknown' with blockDim (256,1,1) from --block-dim [missing-barrier]
 *           s[0] = o[threadIdx.x];
 *           ^~~~
 * tests/rules/missing-barrier/guards_values.cu:24:9: note: the racing write of 's' by thread 32
 * tests/rules/missing-barrier/guards_values.cu:21:5: note: 's' declared here
 * tests/rules/missing-barrier/guards_values.cu:24:9: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/missing-barrier/guards_values.cu:51:9: error: missing barrier: write-after-write race on 's': thread 0 writes s[0], which thread 32 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'merged_other_guard' with blockDim (256,1,1) from --block-dim [missing-barrier]
 *           s[w] = o[threadIdx.x];
 *           ^~~~
 * tests/rules/missing-barrier/guards_values.cu:51:9: note: the racing write of 's' by thread 32
 * tests/rules/missing-barrier/guards_values.cu:46:5: note: 's' declared here
 * tests/rules/missing-barrier/guards_values.cu:51:9: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/missing-barrier/guards_values.cu:96:26: error: missing barrier: read-after-write race on 's': thread 0 reads s[255], which thread 255 wrote at line 93, with no __syncthreads() in between (different warps) in kernel 'other_guard' with blockDim (256,1,1) from --block-dim [missing-barrier]
 *           o[threadIdx.x] = s[255 - threadIdx.x];
 *                            ^~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/guards_values.cu:93:9: note: the racing write of 's' by thread 255
 * tests/rules/missing-barrier/guards_values.cu:91:5: note: 's' declared here
 * tests/rules/missing-barrier/guards_values.cu:96:26: note: add __syncthreads() between the two accesses
 * check-output-end
 */
