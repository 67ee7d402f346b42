// A barrier of a smaller scope than the block (a warp's __syncwarp(), a
// tile's sync()) diverges only where its condition splits one of its
// groups, which depends on the block shape. With no launch,
// __launch_bounds__ or --block-dim the shape is assumed, and the finding
// keeps the rule's level only when the barrier diverges under every shape
// the kernel admits; else it is reported at the level `assumed`. A block
// barrier's verdict does not depend on the shape (the last kernel).

// Odd and even lanes of every warp part: divergent for any shape.
__global__ void odd_lanes(float *o)
{
    if (threadIdx.x % 2)
        __syncwarp();
    o[threadIdx.x] = 0.0f;
}

// threadIdx.x < 16 splits the warps of a 32-wide block but not those of a
// 16-wide one (16x8: every thread has x < 16).
__global__ void half_row(float *o)
{
    __shared__ float s[1024];
    if (threadIdx.x < 16)
        __syncwarp();
    s[threadIdx.y * blockDim.x + threadIdx.x] = o[0];
}

// A block barrier: the condition alone decides, at every launch.
__global__ void block_barrier(float *o)
{
    if (threadIdx.x < 16)
        __syncthreads();
    o[threadIdx.y * blockDim.x + threadIdx.x] = 0.0f;
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/divergent-barrier/assumed_shape.cu:13:9: error: divergent barrier: '__syncwarp()' (the lanes of mask 0xffffffff in a warp) is under thread-dependent condition 'threadIdx.x % 2' in kernel 'odd_lanes' with blockDim (256,1,1) (assumed: no launch site, __launch_bounds__ or --block-dim gives it; also divergent for the 5 other block shapes tried, 32 to 1024 threads) [divergent-barrier]
 *           __syncwarp();
 *           ^~~~~~~~~~~~
 * tests/rules/divergent-barrier/assumed_shape.cu:12:9: note: thread-dependent condition 'threadIdx.x % 2'
 * tests/rules/divergent-barrier/assumed_shape.cu:13:9: note: threads of one group for which the condition differs never reach it; make the condition uniform across each group of the barrier's scope or move the barrier out of it
 * tests/rules/divergent-barrier/assumed_shape.cu:23:9: assumed: divergent barrier: '__syncwarp()' (the lanes of mask 0xffffffff in a warp) is under thread-dependent condition 'threadIdx.x < 16' in kernel 'half_row' with blockDim (32,8,1) (assumed; not divergent for blockDim (8,8,1)) [divergent-barrier]
 *           __syncwarp();
 *           ^~~~~~~~~~~~
 * tests/rules/divergent-barrier/assumed_shape.cu:22:9: note: thread-dependent condition 'threadIdx.x < 16'
 * tests/rules/divergent-barrier/assumed_shape.cu:23:9: note: threads of one group for which the condition differs never reach it; make the condition uniform across each group of the barrier's scope or move the barrier out of it
 * tests/rules/divergent-barrier/assumed_shape.cu:31:9: error: divergent barrier: '__syncthreads()' is under thread-dependent condition 'threadIdx.x < 16' in kernel 'block_barrier' at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/assumed_shape.cu:30:9: note: thread-dependent condition 'threadIdx.x < 16'
 * tests/rules/divergent-barrier/assumed_shape.cu:31:9: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * check-output-end
 */
