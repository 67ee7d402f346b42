// Conditions that read threadIdx yet are the same in every thread, and
// the block shape --block-dim fixes (issue 23): no divergent barrier here
// but in the controls.

// under --block-dim 256 every thread holds threadIdx.x < 256
__global__ void block_dim_bound(float *o)
{
    __shared__ float s[256];
    s[threadIdx.x] = o[threadIdx.x];
    if (threadIdx.x < 256) {
        __syncthreads();
    }
    o[threadIdx.x] = s[255 - threadIdx.x];
}

// control: half the block
__global__ void block_dim_half(float *o)
{
    if (threadIdx.x < 128)
        __syncthreads();
}

// the thread index divides away or cancels
__global__ void cancels(float *o, int n)
{
    __shared__ float s[256];
    s[threadIdx.x] = 1;
    if (threadIdx.x / blockDim.x == 0)
        __syncthreads();
    o[threadIdx.x] = s[255 - threadIdx.x];
    if (blockDim.x - threadIdx.x + threadIdx.x > 4)
        __syncthreads();
    for (int i = 0; i < n + threadIdx.x - threadIdx.x; i++) {
        s[threadIdx.x] = o[i];
        __syncthreads();
        o[i] = s[255 - threadIdx.x];
        __syncthreads();
    }
}

// controls: a thread index left over, and one cancelled only modulo 2^8
__global__ void does_not_cancel(float *o, int n)
{
    if (threadIdx.x - threadIdx.x + threadIdx.x < 4)
        __syncthreads();
    if ((unsigned char)(n + threadIdx.x) - threadIdx.x > 4)
        __syncthreads();
    if (2 * threadIdx.x - threadIdx.x * 2 + n * threadIdx.x > 4)
        __syncthreads();
}

// the same condition as the loop's, always true inside it
__global__ void repeated_condition(float *o, int n)
{
    __shared__ float s[256];
    for (int i = 0; i < n; i++) {
        if (i < n) {
            s[threadIdx.x] = o[i];
            __syncthreads();
            o[i] = s[255 - threadIdx.x];
            __syncthreads();
        }
    }
}

// a loop bound loaded through __ldg at an address every thread computes
// alike is uniform; control: at a per-thread address
__global__ void ldg_bound(float *o, const int *__restrict__ cnt)
{
    __shared__ float s[256];
    int m = __ldg(&cnt[blockIdx.x]);
    for (int i = 0; i < m; i++) {
        s[threadIdx.x] = o[i];
        __syncthreads();
        o[i] = s[255 - threadIdx.x];
        __syncthreads();
    }
    int mine = __ldg(&cnt[threadIdx.x]);
    if (mine > 0)
        __syncthreads();
}

/*
 * check-args: --block-dim 256 --no-cuda
 * check-output-start
 * tests/rules/divergent-barrier/uniform_conditions.cu:20:9: error: divergent barrier: '__syncthreads()' is under thread-dependent condition 'threadIdx.x < 128' in kernel 'block_dim_half' at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_conditions.cu:19:9: note: thread-dependent condition 'threadIdx.x < 128'
 * tests/rules/divergent-barrier/uniform_conditions.cu:20:9: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * tests/rules/divergent-barrier/uniform_conditions.cu:45:9: error: divergent barrier: '__syncthreads()' is under thread-dependent condition 'threadIdx.x - threadIdx.x + threadIdx.x < 4' in kernel 'does_not_cancel' at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_conditions.cu:44:9: note: thread-dependent condition 'threadIdx.x - threadIdx.x + threadIdx.x < 4'
 * tests/rules/divergent-barrier/uniform_conditions.cu:45:9: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * tests/rules/divergent-barrier/uniform_conditions.cu:47:9: error: divergent barrier: '__syncthreads()' is under thread-dependent condition '(unsigned char)(n + threadIdx.x) - threadIdx.x > 4' in kernel 'does_not_cancel' at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_conditions.cu:46:9: note: thread-dependent condition '(unsigned char)(n + threadIdx.x) - threadIdx.x > 4'
 * tests/rules/divergent-barrier/uniform_conditions.cu:47:9: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * tests/rules/divergent-barrier/uniform_conditions.cu:49:9: error: divergent barrier: '__syncthreads()' is under thread-dependent condition '2 * threadIdx.x - threadIdx.x * 2 + n * threadIdx.x > 4' in kernel 'does_not_cancel' at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_conditions.cu:48:9: note: thread-dependent condition '2 * threadIdx.x - threadIdx.x * 2 + n * threadIdx.x > 4'
 * tests/rules/divergent-barrier/uniform_conditions.cu:49:9: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * tests/rules/divergent-barrier/uniform_conditions.cu:80:9: error: divergent barrier: '__syncthreads()' is under thread-dependent condition 'mine > 0' in kernel 'ldg_bound' at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_conditions.cu:79:9: note: thread-dependent condition 'mine > 0'
 * tests/rules/divergent-barrier/uniform_conditions.cu:80:9: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * check-output-end
 */
