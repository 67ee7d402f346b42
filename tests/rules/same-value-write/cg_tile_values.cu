// same-value-write: a tile's collective gives every thread of the tile one
// value (cg::reduce, tile.shfl from a constant lane, tile.any/all/ballot,
// __shfl_sync/__ballot_sync/__all_sync/__any_sync/__reduce_*_sync with a
// full mask). Every lane of a warp storing its warp's one value into the
// warp's element is a benign race (a note), in llm.c's layernorm and
// global norm kernels; a lane that differs per thread, a partial mask, or
// two tiles (two warps, two 16-lane halves) storing into one element are
// races. The toolkit's headers give the same findings (tests/test_cli.py).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// warp sums into one element per warp, each warp's lanes writing its one sum
__global__ void reduce_per_warp(const float *in, float *out)
{
    __shared__ float s[32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    float v = cg::reduce(warp, in[block.thread_rank()], cg::plus<float>());
    s[warp.meta_group_rank()] = v;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        float g = warp.thread_rank() < warp.meta_group_size() ? s[warp.thread_rank()] : 0.0f;
        out[blockIdx.x] = cg::reduce(warp, g, cg::plus<float>());
    }
}

// shfl from lane 0, a vote, the warp intrinsics with a full mask
__global__ void broadcasts(const float *in, float *out, int n)
{
    __shared__ float s[8];
    __shared__ unsigned u[8];
    __shared__ int w[8];
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    int wid = threadIdx.x / 32;
    float x = in[threadIdx.x];
    s[wid] = warp.shfl(x, 0);
    u[wid] = warp.ballot(x > 0.0f);
    w[wid] = warp.any(x > 1.0f) + warp.all(x > 2.0f);
    __syncthreads();
    s[wid] = __shfl_sync(0xffffffff, x, 0);
    u[wid] = __ballot_sync(0xffffffffu, x > 0.0f);
    w[wid] = __reduce_add_sync(0xffffffff, (int)x) + __all_sync(0xffffffff, n) + __any_sync(0xffffffff, n);
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x % 8] + u[threadIdx.x % 8] + w[threadIdx.x % 8];
}

// not one value per warp: a lane that differs per thread, a partial mask
__global__ void not_uniform(const float *in, float *out)
{
    __shared__ float s[8];
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    int wid = threadIdx.x / 32;
    float x = in[threadIdx.x];
    s[wid] = warp.shfl(x, threadIdx.x % 4);
    __syncthreads();
    s[wid] = __shfl_sync(0x0000ffff, x, 0);
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x % 8];
}

// two warps' sums into one element: a real race
__global__ void two_warps_one_element(const float *in, float *out)
{
    __shared__ float s[4];
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    s[0] = cg::reduce(warp, in[threadIdx.x], cg::plus<float>());
    __syncthreads();
    out[threadIdx.x] = s[0];
}

// 16-lane tiles: tiles of one warp write one element
__global__ void tiles16(const float *in, float *out)
{
    __shared__ float s[16];
    auto t16 = cg::tiled_partition<16>(cg::this_thread_block());
    s[threadIdx.x / 32] = cg::reduce(t16, in[threadIdx.x], cg::plus<float>());
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x / 32];
}

// through helpers: a tile passed by reference, the reduce returned, the
// store made in the callee (one warp's one value: benign)
__device__ float warp_sum(const cg::thread_block_tile<32> &warp, float v)
{
    return cg::reduce(warp, v, cg::plus<float>());
}

__device__ void store_sum(const cg::thread_block_tile<32> &warp, float *s, float v)
{
    s[warp.meta_group_rank()] = warp_sum(warp, v);
}

__global__ void through_helpers(const float *in, float *out)
{
    __shared__ float s[32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    store_sum(warp, s, in[threadIdx.x]);
    block.sync();
    out[threadIdx.x] = s[threadIdx.x % 32];
}

int main()
{
    reduce_per_warp<<<4, 256>>>(0, 0);
    broadcasts<<<4, 256>>>(0, 0, 3);
    not_uniform<<<4, 256>>>(0, 0);
    two_warps_one_element<<<4, 64>>>(0, 0);
    tiles16<<<4, 64>>>(0, 0);
    through_helpers<<<4, 256>>>(0, 0);
    return 0;
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/same-value-write/cg_tile_values.cu:20:5: note: benign race: threads write the same value to 's': thread 0 writes s[0], which thread 1 also writes in the same statement, lanes of one warp (the value is the same whichever write lands) in kernel 'reduce_per_warp' with blockDim (256,1,1) from the launch on line 106 [same-value-write]
 *       s[warp.meta_group_rank()] = v;
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/cg_tile_values.cu:20:5: note: the same value written by thread 1
 * tests/rules/same-value-write/cg_tile_values.cu:16:5: note: 's' declared here
 * tests/rules/same-value-write/cg_tile_values.cu:20:5: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/cg_tile_values.cu:37:5: note: benign race: threads write the same value to 's': thread 0 writes s[0], which thread 1 also writes in the same statement, lanes of one warp (the value is the same whichever write lands) in kernel 'broadcasts' with blockDim (256,1,1) from the launch on line 107 [same-value-write]
 *       s[wid] = warp.shfl(x, 0);
 *       ^~~~~~
 * tests/rules/same-value-write/cg_tile_values.cu:37:5: note: the same value written by thread 1
 * tests/rules/same-value-write/cg_tile_values.cu:31:5: note: 's' declared here
 * tests/rules/same-value-write/cg_tile_values.cu:37:5: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/cg_tile_values.cu:38:5: note: benign race: threads write the same value to 'u': thread 0 writes u[0], which thread 1 also writes in the same statement, lanes of one warp (the value is the same whichever write lands) in kernel 'broadcasts' with blockDim (256,1,1) from the launch on line 107 [same-value-write]
 *       u[wid] = warp.ballot(x > 0.0f);
 *       ^~~~~~
 * tests/rules/same-value-write/cg_tile_values.cu:38:5: note: the same value written by thread 1
 * tests/rules/same-value-write/cg_tile_values.cu:32:5: note: 'u' declared here
 * tests/rules/same-value-write/cg_tile_values.cu:38:5: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/cg_tile_values.cu:39:5: note: benign race: threads write the same value to 'w': thread 0 writes w[0], which thread 1 also writes in the same statement, lanes of one warp (the value is the same whichever write lands) in kernel 'broadcasts' with blockDim (256,1,1) from the launch on line 107 [same-value-write]
 *       w[wid] = warp.any(x > 1.0f) + warp.all(x > 2.0f);
 *       ^~~~~~
 * tests/rules/same-value-write/cg_tile_values.cu:39:5: note: the same value written by thread 1
 * tests/rules/same-value-write/cg_tile_values.cu:33:5: note: 'w' declared here
 * tests/rules/same-value-write/cg_tile_values.cu:39:5: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/cg_tile_values.cu:41:5: note: benign race: threads write the same value to 's': thread 0 writes s[0], which thread 1 also writes in the same statement, lanes of one warp (the value is the same whichever write lands) in kernel 'broadcasts' with blockDim (256,1,1) from the launch on line 107 [same-value-write]
 *       s[wid] = __shfl_sync(0xffffffff, x, 0);
 *       ^~~~~~
 * tests/rules/same-value-write/cg_tile_values.cu:41:5: note: the same value written by thread 1
 * tests/rules/same-value-write/cg_tile_values.cu:31:5: note: 's' declared here
 * tests/rules/same-value-write/cg_tile_values.cu:41:5: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/cg_tile_values.cu:42:5: note: benign race: threads write the same value to 'u': thread 0 writes u[0], which thread 1 also writes in the same statement, lanes of one warp (the value is the same whichever write lands) in kernel 'broadcasts' with blockDim (256,1,1) from the launch on line 107 [same-value-write]
 *       u[wid] = __ballot_sync(0xffffffffu, x > 0.0f);
 *       ^~~~~~
 * tests/rules/same-value-write/cg_tile_values.cu:42:5: note: the same value written by thread 1
 * tests/rules/same-value-write/cg_tile_values.cu:32:5: note: 'u' declared here
 * tests/rules/same-value-write/cg_tile_values.cu:42:5: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/cg_tile_values.cu:43:5: note: benign race: threads write the same value to 'w': thread 0 writes w[0], which thread 1 also writes in the same statement, lanes of one warp (the value is the same whichever write lands) in kernel 'broadcasts' with blockDim (256,1,1) from the launch on line 107 [same-value-write]
 *       w[wid] = __reduce_add_sync(0xffffffff, (int)x) + __all_sync(0xffffffff, n) + __any_sync(0xffffffff, n);
 *       ^~~~~~
 * tests/rules/same-value-write/cg_tile_values.cu:43:5: note: the same value written by thread 1
 * tests/rules/same-value-write/cg_tile_values.cu:33:5: note: 'w' declared here
 * tests/rules/same-value-write/cg_tile_values.cu:43:5: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/cg_tile_values.cu:55:5: warning: unsynchronized warp exchange on 's': lane 0 of warp 0 writes s[0], which lane 1 also writes in the same statement, lanes of one warp in one statement (which lane's write lands is undefined) in kernel 'not_uniform' with blockDim (256,1,1) from the launch on line 108 [warp-sync]
 *       s[wid] = warp.shfl(x, threadIdx.x % 4);
 *       ^~~~~~
 * tests/rules/same-value-write/cg_tile_values.cu:55:5: note: the other lane's write of 's'
 * tests/rules/same-value-write/cg_tile_values.cu:51:5: note: 's' declared here
 * tests/rules/same-value-write/cg_tile_values.cu:55:5: note: let one lane write it, or give each lane its own element
 * tests/rules/same-value-write/cg_tile_values.cu:57:5: warning: unsynchronized warp exchange on 's': lane 0 of warp 0 writes s[0], which lane 1 also writes in the same statement, lanes of one warp in one statement (which lane's write lands is undefined) in kernel 'not_uniform' with blockDim (256,1,1) from the launch on line 108 [warp-sync]
 *       s[wid] = __shfl_sync(0x0000ffff, x, 0);
 *       ^~~~~~
 * tests/rules/same-value-write/cg_tile_values.cu:57:5: note: the other lane's write of 's'
 * tests/rules/same-value-write/cg_tile_values.cu:51:5: note: 's' declared here
 * tests/rules/same-value-write/cg_tile_values.cu:57:5: note: let one lane write it, or give each lane its own element
 * tests/rules/same-value-write/cg_tile_values.cu:67:5: error: missing barrier: write-after-write race on 's': thread 0 writes s[0], which thread 32 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'two_warps_one_element' with blockDim (64,1,1) from the launch on line 109 [missing-barrier]
 *       s[0] = cg::reduce(warp, in[threadIdx.x], cg::plus<float>());
 *       ^~~~
 * tests/rules/same-value-write/cg_tile_values.cu:67:5: note: the racing write of 's' by thread 32
 * tests/rules/same-value-write/cg_tile_values.cu:65:5: note: 's' declared here
 * tests/rules/same-value-write/cg_tile_values.cu:67:5: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/same-value-write/cg_tile_values.cu:77:5: warning: unsynchronized warp exchange on 's': lane 0 of warp 0 writes s[0], which lane 16 also writes in the same statement, lanes of one warp in one statement (which lane's write lands is undefined) in kernel 'tiles16' with blockDim (64,1,1) from the launch on line 110 [warp-sync]
 *       s[threadIdx.x / 32] = cg::reduce(t16, in[threadIdx.x], cg::plus<float>());
 *       ^~~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/cg_tile_values.cu:77:5: note: the other lane's write of 's'
 * tests/rules/same-value-write/cg_tile_values.cu:75:5: note: 's' declared here
 * tests/rules/same-value-write/cg_tile_values.cu:77:5: note: let one lane write it, or give each lane its own element
 * tests/rules/same-value-write/cg_tile_values.cu:91:5: note: benign race: threads write the same value to 's': thread 0 writes s[0], which thread 1 also writes in the same statement, lanes of one warp (the value is the same whichever write lands) in 'store_sum' called from kernel 'through_helpers' at line 99 with blockDim (256,1,1) from the launch on line 111 [same-value-write]
 *       s[warp.meta_group_rank()] = warp_sum(warp, v);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/cg_tile_values.cu:91:5: note: the same value written by thread 1
 * tests/rules/same-value-write/cg_tile_values.cu:96:5: note: 's' declared here
 * tests/rules/same-value-write/cg_tile_values.cu:91:5: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * check-output-end
 */
