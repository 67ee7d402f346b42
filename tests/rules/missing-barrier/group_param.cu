// missing-barrier / warp-sync: g.sync() in a __device__ function taking a
// cg::thread_group orders what the group passed at the call orders. The
// block passed: the exchange across warps is ordered (clean); a 32-thread
// tile passed: the same exchange races, and the message names g.sync().
namespace cg = cooperative_groups;

__device__ void exchange(cg::thread_group g, float *s, const float *in, float *out)
{
    int t = threadIdx.x;
    s[t] = in[t];
    g.sync();
    out[t] = s[(t + 32) % 128];
}

// a local thread_group initialized from the parameter
__device__ void exchange_copy(cg::thread_group g, float *s, const float *in, float *out)
{
    cg::thread_group h = g;
    int t = threadIdx.x;
    s[t] = in[t];
    h.sync();
    out[t] = s[t ^ 1];
}

__global__ void block_passed(const float *in, float *out)
{
    __shared__ float s[128];
    exchange(cg::this_thread_block(), s, in, out);
}

__global__ void tile_passed(const float *in, float *out)
{
    __shared__ float s[128];
    exchange(cg::tiled_partition<32>(cg::this_thread_block()), s, in, out);
}

// t ^ 1 stays inside a 32-thread tile: ordered by the tile passed
__global__ void tile_within(const float *in, float *out)
{
    __shared__ float s[128];
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    exchange_copy(tile, s, in, out);
}

int main()
{
    block_passed<<<1, 128>>>(0, 0);
    tile_passed<<<1, 128>>>(0, 0);
    tile_within<<<1, 128>>>(0, 0);
    return 0;
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/missing-barrier/group_param.cu:12:14: error: missing barrier: read-after-write race on 's': thread 0 reads s[32], which thread 32 wrote at line 10, with no barrier ordering both threads in between ('g.sync()' at line 11 orders only a 32-thread tile; different warps) in 'exchange' called from kernel 'tile_passed' at line 34 with blockDim (128,1,1) from the launch on line 48 [missing-barrier]
 *       out[t] = s[(t + 32) % 128];
 *                ^~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/group_param.cu:10:5: note: the racing write of 's' by thread 32
 * tests/rules/missing-barrier/group_param.cu:33:5: note: 's' declared here
 * tests/rules/missing-barrier/group_param.cu:12:14: note: order the two threads with a barrier whose scope holds both (__syncthreads() for threads of different tiles or warps)
 * check-output-end
 */
