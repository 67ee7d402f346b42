// divergent-barrier: a barrier of a smaller scope than the block (a tile,
// a __syncwarp mask, a coalesced group, bar.sync with a thread count) is
// divergent only where the condition splits one of its groups. Each form
// in both directions.
namespace cg = cooperative_groups;

// a 32-thread tile under a warp-uniform condition: every tile is whole
__global__ void tile32_warp_uniform(float *out)
{
    cg::thread_block b = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(b);
    int warp_id = threadIdx.x / 32;
    if (warp_id == 0)
        tile.sync();
    if (threadIdx.x < 32)
        cg::sync(tile);
    out[threadIdx.x] = 0;
}

// the same tile under a condition that splits warp 0: reported
__global__ void tile32_split(float *out)
{
    cg::thread_block b = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(b);
    if (threadIdx.x < 16)
        tile.sync();
    out[threadIdx.x] = 0;
}

// a tile of 16: threadIdx.x < 16 keeps it whole, < 8 does not
__global__ void tile16(float *out)
{
    auto t16 = cg::tiled_partition<16>(cg::this_thread_block());
    if (threadIdx.x < 16)
        t16.sync();
    if (threadIdx.x < 8)
        cg::sync(t16);
    out[threadIdx.x] = 0;
}

// a type-erased tile of 8 from tiled_partition(parent, 8), after a return
// that keeps tiles of 8 whole
__global__ void dynamic_tile8(float *out, int n)
{
    cg::thread_group g = cg::tiled_partition(cg::this_thread_block(), 8);
    if ((threadIdx.x & ~7) >= 64)
        return;
    g.sync();
    out[threadIdx.x] = 0;
}

// __syncwarp(): every lane of the warp must arrive
__global__ void syncwarp_masks(float *out)
{
    int lane = threadIdx.x % 32;
    if (threadIdx.x >= 64)
        __syncwarp(0xffffffff);     // whole warps: clean
    if (lane < 16)
        __syncwarp(0x0000ffff);     // exactly the mask's lanes: clean
    if (lane < 16)
        __syncwarp();               // half of each warp: reported
    out[threadIdx.x] = 0;
}

// a mask computed at run time (the active lanes, as a rule) and a
// coalesced group's sync are never divergent
__global__ void active_threads(const int *flags, float *out)
{
    if (flags[threadIdx.x]) {
        cg::coalesced_group active = cg::coalesced_threads();
        active.sync();
        cg::coalesced_threads().sync();
        __syncwarp(__activemask());
    }
    out[threadIdx.x] = 0;
}

// bar.sync with a thread count: the first 64 threads take part
__global__ void named_barrier(float *out)
{
    if (threadIdx.x < 64)
        asm volatile("bar.sync 1, 64;");
    if (threadIdx.x < 32)
        asm volatile("bar.sync 2, 64;");
    out[threadIdx.x] = 0;
}

// a tile barrier in a warp-uniform branch inside a lane-divergent one: the
// outer condition splits the tile
__global__ void nested_split(float *out)
{
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    int warp_id = threadIdx.x / 32;
    if (threadIdx.x % 2 == 0) {
        if (warp_id == 1)
            tile.sync();
    }
    out[threadIdx.x] = 0;
}

// a grid barrier is judged as a block barrier
__global__ void grid_sync(float *out)
{
    cg::grid_group g = cg::this_grid();
    if (threadIdx.x < 32)
        g.sync();
    out[threadIdx.x] = 0;
}

/*
 * check-args: --block-dim 128 --no-cuda
 * check-output-start
 * tests/rules/divergent-barrier/barrier_scopes.cu:26:9: error: divergent barrier: 'tile.sync()' (a 32-thread tile) is under thread-dependent condition 'threadIdx.x < 16' in kernel 'tile32_split' with blockDim (128,1,1) from --block-dim [divergent-barrier]
 *           tile.sync();
 *           ^~~~~~~~~~~
 * tests/rules/divergent-barrier/barrier_scopes.cu:25:9: note: thread-dependent condition 'threadIdx.x < 16'
 * tests/rules/divergent-barrier/barrier_scopes.cu:26:9: note: threads of one group for which the condition differs never reach it; make the condition uniform across each group of the barrier's scope or move the barrier out of it
 * tests/rules/divergent-barrier/barrier_scopes.cu:37:9: error: divergent barrier: 'cg::sync(t16)' (a 16-thread tile) is under thread-dependent condition 'threadIdx.x < 8' in kernel 'tile16' with blockDim (128,1,1) from --block-dim [divergent-barrier]
 *           cg::sync(t16);
 *           ^~~~~~~~~~~~~
 * tests/rules/divergent-barrier/barrier_scopes.cu:36:9: note: thread-dependent condition 'threadIdx.x < 8'
 * tests/rules/divergent-barrier/barrier_scopes.cu:37:9: note: threads of one group for which the condition differs never reach it; make the condition uniform across each group of the barrier's scope or move the barrier out of it
 * tests/rules/divergent-barrier/barrier_scopes.cu:61:9: error: divergent barrier: '__syncwarp()' (the lanes of mask 0xffffffff in a warp) is under thread-dependent condition 'lane < 16' in kernel 'syncwarp_masks' with blockDim (128,1,1) from --block-dim [divergent-barrier]
 *           __syncwarp();               // half of each warp: reported
 *           ^~~~~~~~~~~~
 * tests/rules/divergent-barrier/barrier_scopes.cu:60:9: note: thread-dependent condition 'lane < 16'
 * tests/rules/divergent-barrier/barrier_scopes.cu:61:9: note: threads of one group for which the condition differs never reach it; make the condition uniform across each group of the barrier's scope or move the barrier out of it
 * tests/rules/divergent-barrier/barrier_scopes.cu:84:9: error: divergent barrier: 'bar.sync' (the first 64 threads, its thread count) is under thread-dependent condition 'threadIdx.x < 32' in kernel 'named_barrier' with blockDim (128,1,1) from --block-dim [divergent-barrier]
 *           asm volatile("bar.sync 2, 64;");
 *           ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/barrier_scopes.cu:83:9: note: thread-dependent condition 'threadIdx.x < 32'
 * tests/rules/divergent-barrier/barrier_scopes.cu:84:9: note: threads of one group for which the condition differs never reach it; make the condition uniform across each group of the barrier's scope or move the barrier out of it
 * tests/rules/divergent-barrier/barrier_scopes.cu:96:13: error: divergent barrier: 'tile.sync()' (a 32-thread tile) is under thread-dependent condition 'threadIdx.x % 2 == 0' in kernel 'nested_split' with blockDim (128,1,1) from --block-dim [divergent-barrier]
 *               tile.sync();
 *               ^~~~~~~~~~~
 * tests/rules/divergent-barrier/barrier_scopes.cu:94:9: note: thread-dependent condition 'threadIdx.x % 2 == 0'
 * tests/rules/divergent-barrier/barrier_scopes.cu:96:13: note: threads of one group for which the condition differs never reach it; make the condition uniform across each group of the barrier's scope or move the barrier out of it
 * tests/rules/divergent-barrier/barrier_scopes.cu:106:9: error: divergent barrier: 'g.sync()' (a grid barrier: every thread of the grid must reach it) is under thread-dependent condition 'threadIdx.x < 32' in kernel 'grid_sync' at every launch [divergent-barrier]
 *           g.sync();
 *           ^~~~~~~~
 * tests/rules/divergent-barrier/barrier_scopes.cu:105:9: note: thread-dependent condition 'threadIdx.x < 32'
 * tests/rules/divergent-barrier/barrier_scopes.cu:106:9: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * check-output-end
 */
