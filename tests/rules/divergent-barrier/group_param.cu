// divergent-barrier: a cooperative group passed to a __device__ function
// as a type-erased cg::thread_group takes its scope from the argument at
// each call: a tile passed under a warp-uniform condition is whole (clean),
// the block passed under a lane condition is split (reported).
namespace cg = cooperative_groups;

__device__ void step(cg::thread_group g, float *out)
{
    g.sync();
    out[threadIdx.x] = 0;
}

// by reference, handed down one more call
__device__ void step_ref(const cg::thread_group &g, float *out)
{
    step(g, out);
}

// a tile under a warp-uniform condition: clean
__global__ void tile_passed(float *out)
{
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    if (threadIdx.x / 32 == 1)
        step(tile, out);
    if (threadIdx.x < 64)
        step_ref(tile, out);
}

// the block under a lane condition: reported at g.sync()
__global__ void block_passed(float *out)
{
    cg::thread_block b = cg::this_thread_block();
    if (threadIdx.x < 16)
        step(b, out);
}

// a tile under a condition that splits it: reported
__global__ void tile_split(float *out)
{
    cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), 32);
    if (threadIdx.x % 32 < 8)
        step_ref(tile, out);
}

int main()
{
    tile_passed<<<1, 128>>>(0);
    block_passed<<<1, 128>>>(0);
    tile_split<<<1, 128>>>(0);
    return 0;
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/divergent-barrier/group_param.cu:9:5: error: divergent barrier: 'g.sync()' is under thread-dependent condition 'threadIdx.x < 16' in 'step' called from kernel 'block_passed' at line 34 at the launch on line 48 [divergent-barrier]
 *       g.sync();
 *       ^~~~~~~~
 * tests/rules/divergent-barrier/group_param.cu:33:9: note: thread-dependent condition 'threadIdx.x < 16'
 * tests/rules/divergent-barrier/group_param.cu:9:5: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * tests/rules/divergent-barrier/group_param.cu:9:5: error: divergent barrier: 'g.sync()' (a 32-thread tile) is under thread-dependent condition 'threadIdx.x % 32 < 8' in 'step' called from 'step_ref' at line 16, from kernel 'tile_split' at line 42 at the launch on line 49 [divergent-barrier]
 *       g.sync();
 *       ^~~~~~~~
 * tests/rules/divergent-barrier/group_param.cu:41:9: note: thread-dependent condition 'threadIdx.x % 32 < 8'
 * tests/rules/divergent-barrier/group_param.cu:9:5: note: threads of one group for which the condition differs never reach it; make the condition uniform across each group of the barrier's scope or move the barrier out of it
 * check-output-end
 */
