// divergent-barrier: a tile's barrier under a condition alike in every
// thread of the tile (a meta_group_rank test, a reduce, a vote, a shuffle
// from lane 0 with a full mask) does not diverge; a warp's barrier under
// a 16-lane tile's sum, and a block barrier under a condition that
// differs between warps, do.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void divg(const float *in, float *out)
{
    __shared__ float s[256];
    cg::thread_block block = cg::this_thread_block();
    auto warp = cg::tiled_partition<32>(block);
    s[threadIdx.x] = in[threadIdx.x];
    if (warp.meta_group_rank() == 1)
        warp.sync();
    float v = cg::reduce(warp, in[threadIdx.x], cg::plus<float>());
    if (v > 0.0f)
        warp.sync();
    if (warp.any(v > 1.0f))
        warp.sync();
    if (__shfl_sync(0xffffffff, v, 0) > 2.0f)
        __syncwarp();
    auto half = cg::tiled_partition<16>(block);
    if (cg::reduce(half, v, cg::plus<float>()) > 3.0f)
        warp.sync();
    out[threadIdx.x] = s[threadIdx.x];
}

__global__ void div_block(const float *in, float *out)
{
    __shared__ float s[256];
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    s[threadIdx.x] = in[threadIdx.x];
    if (warp.meta_group_rank() == 1)
        __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

int main()
{
    divg<<<4, 256>>>(0, 0);
    div_block<<<4, 256>>>(0, 0);
    return 0;
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/divergent-barrier/cg_tile_uniform.cu:27:9: error: divergent barrier: 'warp.sync()' (a 32-thread tile) is under thread-dependent condition 'cg::reduce(half, v, cg::plus<float>()) > 3.0f' in kernel 'divg' with blockDim (256,1,1) from the launch on line 43 [divergent-barrier]
 *           warp.sync();
 *           ^~~~~~~~~~~
 * tests/rules/divergent-barrier/cg_tile_uniform.cu:26:9: note: thread-dependent condition 'cg::reduce(half, v, cg::plus<float>()) > 3.0f'
 * tests/rules/divergent-barrier/cg_tile_uniform.cu:27:9: note: threads of one group for which the condition differs never reach it; make the condition uniform across each group of the barrier's scope or move the barrier out of it
 * tests/rules/divergent-barrier/cg_tile_uniform.cu:37:9: error: divergent barrier: '__syncthreads()' is under thread-dependent condition 'warp.meta_group_rank() == 1' in kernel 'div_block' at the launch on line 44 [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/cg_tile_uniform.cu:36:9: note: thread-dependent condition 'warp.meta_group_rank() == 1'
 * tests/rules/divergent-barrier/cg_tile_uniform.cu:37:9: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * check-output-end
 */
