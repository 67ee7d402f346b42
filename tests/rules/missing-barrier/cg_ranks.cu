// missing-barrier: cooperative groups' ranks and sizes. A thread_block's
// thread_rank, size, num_threads, group_index, thread_index and
// dim_threads are the block's; a tile of N partitioned from the block (or
// from a tile, ranked within it) has thread_rank lin % N, meta_group_rank
// lin / N and meta_group_size threads / N; tiled_partition(block, 16)
// likewise. Elements one thread each: no finding. Two tiles mapped to one
// element race. A coalesced or labeled group's ranks are unknown (no
// finding from them); grid.sync() orders the block as a block barrier.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// one element per thread through the block's ranks and the block's dim3
// members: no race
__global__ void block_ranks(const float *in, float *out)
{
    __shared__ float s[256];
    __shared__ float b[8];
    cg::thread_block block = cg::this_thread_block();
    unsigned r = block.thread_rank();
    s[r] = in[r];
    s[block.thread_index().x + block.dim_threads().x * block.thread_index().y] += 1.0f;
    if (block.thread_rank() == 0)
        b[block.group_index().x % 8] = block.size() + block.num_threads();
    block.sync();
    cg::sync(block);
    out[r] = s[(r + 1) % block.size()] + b[0];
}

// tile ranks: each warp's lane 0 writes its warp's element; the last
// warp reads them all after the barrier
__global__ void tile_ranks(float *out)
{
    __shared__ float s[32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    if (warp.thread_rank() == 0)
        s[warp.meta_group_rank()] = warp.meta_group_rank() * 2.0f;
    block.sync();
    if (warp.meta_group_rank() == warp.meta_group_size() - 1)
        out[warp.thread_rank()] = s[warp.thread_rank() % warp.meta_group_size()] * warp.num_threads();
}

// a tile of a tile: 4-thread tiles ranked within their 32-thread tile.
// Lane 0 of each quad writes its own element; then the quads of every
// warp write s[0..7] again (tile ranks repeat in each warp): a race
__global__ void tile_of_tile(float *out)
{
    __shared__ float s[64];
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    auto quad = cg::tiled_partition<4>(warp);
    if (quad.thread_rank() == 0)
        s[quad.meta_group_rank() + quad.meta_group_size() * warp.meta_group_rank()] = quad.size();
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x % 64];
    __syncthreads();
    if (quad.thread_rank() == 0)
        s[quad.meta_group_rank()] = warp.meta_group_rank();
}

// a tile of runtime size n, a constant here: ranks within it
__global__ void runtime_tile(float *out)
{
    __shared__ float s[128];
    cg::thread_group g = cg::tiled_partition(cg::this_thread_block(), 16);
    s[threadIdx.x] = g.thread_rank() + g.size();
    g.sync();
    out[threadIdx.x] = s[(threadIdx.x & ~15) + (g.thread_rank() + 1) % 16];
}

// two warps write one element: warp 0 and warp 1 both map to s[0]
__global__ void tiles_collide(float *out)
{
    __shared__ float s[4];
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    if (warp.thread_rank() == 0)
        s[warp.meta_group_rank() / 2] = warp.meta_group_rank();
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x % 4];
}

// a coalesced group and a labeled partition: ranks unknown, no finding
__global__ void coalesced(float *out, int key)
{
    __shared__ float s[128];
    s[threadIdx.x] = 0.0f;
    __syncthreads();
    if (threadIdx.x % 3 == 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        out[threadIdx.x] = s[threadIdx.x] + active.thread_rank() + active.size();
        active.sync();
    }
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    cg::coalesced_group part = cg::labeled_partition(warp, key);
    out[threadIdx.x] += part.thread_rank();
    part.sync();
}

// grid.sync(): orders the block as a block barrier would
__global__ void grid_sync(float *out)
{
    __shared__ float s[128];
    cg::grid_group grid = cg::this_grid();
    s[threadIdx.x] = out[threadIdx.x];
    grid.sync();
    out[threadIdx.x] = s[127 - threadIdx.x] + grid.thread_rank();
}

int main()
{
    block_ranks<<<4, 256>>>(0, 0);
    tile_ranks<<<4, 256>>>(0);
    tile_of_tile<<<4, 256>>>(0);
    runtime_tile<<<4, 128>>>(0);
    tiles_collide<<<4, 128>>>(0);
    coalesced<<<4, 128>>>(0, 1);
    grid_sync<<<4, 128>>>(0);
    return 0;
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/missing-barrier/cg_ranks.cu:57:9: error: missing barrier: write-after-write race on 's': thread 0 writes s[0], which thread 32 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'tile_of_tile' with blockDim (256,1,1) from the launch on line 112 [missing-barrier]
 *           s[quad.meta_group_rank()] = warp.meta_group_rank();
 *           ^~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/cg_ranks.cu:57:9: note: the racing write of 's' by thread 32
 * tests/rules/missing-barrier/cg_ranks.cu:48:5: note: 's' declared here
 * tests/rules/missing-barrier/cg_ranks.cu:57:9: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/missing-barrier/cg_ranks.cu:76:9: error: missing barrier: write-after-write race on 's': thread 0 writes s[0], which thread 32 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'tiles_collide' with blockDim (128,1,1) from the launch on line 114 [missing-barrier]
 *           s[warp.meta_group_rank() / 2] = warp.meta_group_rank();
 *           ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/cg_ranks.cu:76:9: note: the racing write of 's' by thread 32
 * tests/rules/missing-barrier/cg_ranks.cu:73:5: note: 's' declared here
 * tests/rules/missing-barrier/cg_ranks.cu:76:9: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * check-output-end
 */
