// missing-barrier / warp-sync: a barrier orders only the threads of its
// scope. A tile's sync() orders the threads of one tile, __syncwarp(mask)
// the mask's lanes, bar.sync with a count the threads taking part; an
// exchange across groups still races.
namespace cg = cooperative_groups;

// each thread reads its neighbour in the same 32-thread tile: ordered
__global__ void tile32_within(const float *in, float *out)
{
    __shared__ float s[128];
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    int t = threadIdx.x;
    s[t] = in[t];
    tile.sync();
    out[t] = s[(t & ~31) + ((t + 1) & 31)];
}

// it reads the next warp's element: tile.sync() does not order two
// different tiles (missing-barrier)
__global__ void tile32_across(const float *in, float *out)
{
    __shared__ float s[128];
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    int t = threadIdx.x;
    s[t] = in[t];
    tile.sync();
    out[t] = s[(t + 32) % 128];
}

// tiles of 16: t ^ 1 stays in the tile, t ^ 16 is the other half of the
// warp (warp-sync)
__global__ void tile16(const float *in, float *out)
{
    __shared__ float s[128];
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(cg::this_thread_block());
    int t = threadIdx.x;
    s[t] = in[t];
    t16.sync();
    float a = s[t ^ 1];
    t16.sync();
    s[t] = a;
    t16.sync();
    out[t] = s[t ^ 16];
}

// __syncwarp(0x0000ffff) under lane < 16 orders lanes 0..15: the exchange
// among them is ordered, the read of what lane 16 wrote is not (warp-sync)
__global__ void mask_lanes(const float *in, float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x, lane = t % 32;
    s[t] = in[t];
    __syncthreads();
    if (lane >= 16)
        s[t] = 3 * in[t];
    if (lane < 16) {
        s[t] = 2 * in[t];
        __syncwarp(0x0000ffff);
        out[t] = s[t ^ 15];
        out[t] += s[t + 16];
    }
}

// the first 64 threads meet at bar.sync 1, 64 and exchange across their
// two warps: ordered
__global__ void named_barrier(const float *in, float *out)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    if (t < 64) {
        s[t] = in[t];
        asm volatile("bar.sync 1, 64;");
        out[t] = s[63 - t];
    }
}

// tile.sync() on one path only: the other path meets no barrier at all,
// and the message says so (no __syncthreads() in between)
__global__ void tile_one_path(const float *in, float *out, int k)
{
    __shared__ float s[128];
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    int t = threadIdx.x;
    s[t] = in[t];
    if (k > 0)
        tile.sync();
    out[t] = s[(t + 32) % 128];
}

int main(int argc, char **argv)
{
    tile32_within<<<1, 128>>>(0, 0);
    tile32_across<<<1, 128>>>(0, 0);
    tile16<<<1, 128>>>(0, 0);
    mask_lanes<<<1, 128>>>(0, 0);
    named_barrier<<<1, 128>>>(0, 0);
    tile_one_path<<<1, 128>>>(0, 0, argc); /* k not known: both paths */
    return 0;
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/missing-barrier/barrier_scopes.cu:27:14: error: missing barrier: read-after-write race on 's': thread 0 reads s[32], which thread 32 wrote at line 25, with no barrier ordering both threads in between ('tile.sync()' at line 26 orders only a 32-thread tile; different warps) in kernel 'tile32_across' with blockDim (128,1,1) from the launch on line 93 [missing-barrier]
 *       out[t] = s[(t + 32) % 128];
 *                ^~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/barrier_scopes.cu:25:5: note: the racing write of 's' by thread 32
 * tests/rules/missing-barrier/barrier_scopes.cu:22:5: note: 's' declared here
 * tests/rules/missing-barrier/barrier_scopes.cu:27:14: note: order the two threads with a barrier whose scope holds both (__syncthreads() for threads of different tiles or warps)
 * tests/rules/missing-barrier/barrier_scopes.cu:43:14: warning: unsynchronized warp exchange on 's': lane 0 of warp 0 reads s[16], which lane 16 wrote at line 41, with no barrier ordering both lanes in between ('t16.sync()' at line 42 orders only a 16-thread tile; a race under independent thread scheduling, volatile or not) in kernel 'tile16' with blockDim (128,1,1) from the launch on line 94 [warp-sync]
 *       out[t] = s[t ^ 16];
 *                ^~~~~~~~~
 * tests/rules/missing-barrier/barrier_scopes.cu:41:5: note: the other lane's write of 's'
 * tests/rules/missing-barrier/barrier_scopes.cu:34:5: note: 's' declared here
 * tests/rules/missing-barrier/barrier_scopes.cu:43:14: note: order the two lanes with a barrier whose scope holds both (__syncwarp() with both lanes in its mask)
 * tests/rules/missing-barrier/barrier_scopes.cu:60:19: warning: unsynchronized warp exchange on 's': lane 0 of warp 0 reads s[16], which lane 16 wrote at line 55, with no barrier ordering both lanes in between ('__syncwarp(0x0000ffff)' at line 58 orders only the lanes of mask 0x0000ffff in one warp; a race under independent thread scheduling, volatile or not) in kernel 'mask_lanes' with blockDim (128,1,1) from the launch on line 95 [warp-sync]
 *           out[t] += s[t + 16];
 *                     ^~~~~~~~~
 * tests/rules/missing-barrier/barrier_scopes.cu:55:9: note: the other lane's write of 's'
 * tests/rules/missing-barrier/barrier_scopes.cu:50:5: note: 's' declared here
 * tests/rules/missing-barrier/barrier_scopes.cu:60:19: note: order the two lanes with a barrier whose scope holds both (__syncwarp() with both lanes in its mask)
 * tests/rules/missing-barrier/barrier_scopes.cu:87:14: error: missing barrier: read-after-write race on 's': thread 0 reads s[32], which thread 32 wrote at line 84, with no __syncthreads() in between (different warps) in kernel 'tile_one_path' with blockDim (128,1,1) from the launch on line 97 [missing-barrier]
 *       out[t] = s[(t + 32) % 128];
 *                ^~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/barrier_scopes.cu:84:5: note: the racing write of 's' by thread 32
 * tests/rules/missing-barrier/barrier_scopes.cu:81:5: note: 's' declared here
 * tests/rules/missing-barrier/barrier_scopes.cu:87:14: note: add __syncthreads() between the two accesses
 * check-output-end
 */
