// A warp vote over what every warp reads alike (issue 23, ggml's
// flash_attn_mask_to_KV_max): each warp stores its vote to buf[warp],
// then every warp reads buf[lane] whole and votes again, so all warps hold
// one value and leave the loop together. The controls read something that
// differs per warp, or run in blocks whose rows are not whole warps.
__device__ __forceinline__ int warp_all(int x)
{
    return __all_sync(0xffffffff, x);
}

__device__ __forceinline__ int warp_all_xor(int x)
{
    for (int o = 16; o > 0; o >>= 1)
        x = __shfl_xor_sync(0xffffffff, x, o) && x;
    return x;
}

__device__ void vote_back(const float *mask, int *out, int n, int *buf)
{
    const int tid = threadIdx.x;
    int kv = n;
    for (; kv >= 0; kv -= 64) {
        int all_inf = warp_all(isinf(mask[kv + tid]));
        if (tid % 32 == 0)
            buf[tid / 32] = all_inf;
        __syncthreads();
        all_inf = warp_all_xor(buf[tid % 32]);
        __syncthreads();
        if (!all_inf)
            break;
    }
    if (tid == 0)
        out[blockIdx.x] = kv;
}

__global__ void scan_back(const float *mask, int *out, int n)
{
    __shared__ int buf[32];
    vote_back(mask, out, n, buf);
}

// control: rows of 16 threads (launched 16 x 8), so threadIdx.x % 32 is
// not the lane and the warps read different slots
__global__ void scan_rows(const float *mask, int *out, int n)
{
    __shared__ int buf[32];
    vote_back(mask, out, n, buf);
}

// control: each warp votes on its own slot, so warps may disagree
__global__ void own_slot(const float *mask, int *out, int n)
{
    __shared__ int buf[32];
    const int tid = threadIdx.x;
    int kv = n;
    for (; kv >= 0; kv -= 64) {
        int all_inf = warp_all(isinf(mask[kv + tid]));
        if (tid % 32 == 0)
            buf[tid / 32] = all_inf;
        __syncthreads();
        all_inf = warp_all(buf[tid / 32]);
        __syncthreads();
        if (!all_inf)
            break;
    }
    if (tid == 0)
        out[blockIdx.x] = kv;
}

void launch(const float *m, int *o, int n)
{
    scan_back<<<4, 128>>>(m, o, n);
    own_slot<<<4, 128>>>(m, o, n);
    scan_rows<<<4, dim3(16, 8)>>>(m, o, n);
}

/*
 * check-output-start
 * tests/rules/divergent-barrier/tile_repeated_vote.cu:25:13: error: missing barrier: write-after-write race on 'buf': thread (0,0) writes buf[0], which thread (0,2) also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in 'vote_back' called from kernel 'scan_rows' at line 47 with blockDim (16,8,1) from the launch on line 74 [missing-barrier]
 *               buf[tid / 32] = all_inf;
 *               ^~~~~~~~~~~~~
 * tests/rules/divergent-barrier/tile_repeated_vote.cu:25:13: note: the racing write of 'buf' by thread (0,2)
 * tests/rules/divergent-barrier/tile_repeated_vote.cu:46:5: note: 'buf' declared here
 * tests/rules/divergent-barrier/tile_repeated_vote.cu:25:13: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/divergent-barrier/tile_repeated_vote.cu:26:9: error: divergent barrier: '__syncthreads()' is in a loop that threads leave early by a thread-dependent 'break' (under '!all_inf') in 'vote_back' called from kernel 'scan_rows' at line 47 at every launch (and 1 more barrier after it) [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/tile_repeated_vote.cu:29:13: note: thread-dependent condition '!all_inf'
 * tests/rules/divergent-barrier/tile_repeated_vote.cu:30:13: note: the 'break' that skips the barrier
 * tests/rules/divergent-barrier/tile_repeated_vote.cu:28:9: note: '__syncthreads()', made divergent by the same break
 * tests/rules/divergent-barrier/tile_repeated_vote.cu:26:9: note: threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier
 * tests/rules/divergent-barrier/tile_repeated_vote.cu:60:9: error: divergent barrier: '__syncthreads()' is in a loop that threads leave early by a thread-dependent 'break' (under '!all_inf') in kernel 'own_slot' at every launch (and 1 more barrier after it) [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/tile_repeated_vote.cu:63:13: note: thread-dependent condition '!all_inf'
 * tests/rules/divergent-barrier/tile_repeated_vote.cu:64:13: note: the 'break' that skips the barrier
 * tests/rules/divergent-barrier/tile_repeated_vote.cu:62:9: note: '__syncthreads()', made divergent by the same break
 * tests/rules/divergent-barrier/tile_repeated_vote.cu:60:9: note: threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier
 * check-output-end
 */
