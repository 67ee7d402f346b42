// A kernel that nothing gives a block shape to is analyzed with assumed
// shapes, but not with one that overflows its own tiles: where a thread
// certainly indexes a shared array past a declared extent (its guards and
// loop conditions decided for it, or the same for every thread), the
// program is not launched with that block. `tile16` stores As[ty][tx] into
// a 16x16 tile: a 32-wide block would write As[0][16], which is As[1][0],
// the element of thread (0,1) (the write-after-write race the first
// assumption, 32x8, shows), so it is analyzed 16x16 and has no race; its
// transposed read is still a bank conflict, and the finding says which
// shapes were left out. `tile8` is the same at 8x8. `guarded` writes its
// tile only where threadIdx.x < n, a bound no launch gives: nothing
// certain is known of the width, so the 32x8 race stays, at the level
// `assumed`.

__global__ void tile16(const float *in, float *out)
{
    __shared__ float As[16][16];
    unsigned tx = threadIdx.x, ty = threadIdx.y;
    As[ty][tx] = in[ty * 16 + tx];
    __syncthreads();
    out[ty * 16 + tx] = As[tx][ty];
}

__global__ void tile8(const float *in, float *out)
{
    __shared__ float As[8][8];
    unsigned tx = threadIdx.x, ty = threadIdx.y;
    for (int k = 0; k < 4; k++) {
        As[ty][tx] = in[k * 64 + ty * 8 + tx];
        __syncthreads();
        out[k * 64 + ty * 8 + tx] = As[ty][7 - tx];
        __syncthreads();
    }
}

__global__ void guarded(float *out, unsigned n)
{
    __shared__ float s[16][16];
    if (threadIdx.x < n)
        s[threadIdx.y][threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x < n)
        out[threadIdx.y * 16 + threadIdx.x] = s[threadIdx.y][threadIdx.x];
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/missing-barrier/assumed_tile_fit.cu:21:25: warning: 8-way bank conflict on load of 'As' (float[16][16]) in kernel 'tile16' with blockDim (16,16,1) (assumed: no launch site, __launch_bounds__ or --block-dim gives it; shapes that overflow a shared array left out); lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[ty * 16 + tx] = As[tx][ty];
 *                           ^~~~~~~~~~
 * tests/rules/missing-barrier/assumed_tile_fit.cu:17:5: note: 'As' declared here
 * tests/rules/missing-barrier/assumed_tile_fit.cu:21:25: note: swizzle 'As': write every access `As[r][c]` as `As[r][c ^ (r & 15)]`: 1 of 1 conflicting accesses become conflict-free (verified); write this access as `As[tx][ty ^ (tx & 15)]`
 * fix-it:"tests/rules/missing-barrier/assumed_tile_fit.cu":{19:12-19:14}:"tx ^ (ty & 15)"
 * fix-it:"tests/rules/missing-barrier/assumed_tile_fit.cu":{21:32-21:34}:"ty ^ (tx & 15)"
 * tests/rules/missing-barrier/assumed_tile_fit.cu:40:9: assumed: missing barrier: write-after-write race on 's': thread (16,0) writes s[1][0], which thread (0,1) also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'guarded' with blockDim (32,8,1) (assumed; not a race for blockDim (32,1,1)) [missing-barrier]
 *           s[threadIdx.y][threadIdx.x] = threadIdx.x;
 *           ^~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/assumed_tile_fit.cu:40:9: note: the racing write of 's' by thread (0,1)
 * tests/rules/missing-barrier/assumed_tile_fit.cu:38:5: note: 's' declared here
 * tests/rules/missing-barrier/assumed_tile_fit.cu:40:9: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * check-output-end
 */
