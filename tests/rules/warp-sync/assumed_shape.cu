// warp-sync under an assumed block shape (no launch, __launch_bounds__ or
// --block-dim): the race must hold under every shape the kernel admits
// to keep the rule's level (see tests/rules/missing-barrier/assumed_shape.cu).

// The last-warp reduction: lanes 0..15 read what lanes 16..31 wrote, with
// no __syncwarp(), in any block of 32 threads or more.
__global__ void last_warp(float *o)
{
    __shared__ float s[64];
    unsigned t = threadIdx.x;
    if (t < 32) {
        s[t] = o[t];
        s[t] += s[t + 16];
        o[t] = s[t];
    }
}

// Only the third warp (threads 64..95) exchanges: with 32 or 64 threads
// there is no such warp, so the finding is `assumed`.
__global__ void third_warp(float *o)
{
    __shared__ float s[128];
    unsigned t = threadIdx.x;
    if (t >= 64 && t < 96) {
        s[t] = o[t];
        o[t] = s[t ^ 1];
    }
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/warp-sync/assumed_shape.cu:13:17: warning: unsynchronized warp exchange on 's': lane 0 of warp 0 reads s[16], which lane 16 wrote at line 12, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'last_warp' with blockDim (256,1,1) (assumed: no launch site, __launch_bounds__ or --block-dim gives it; also a race for the 5 other block shapes tried, 32 to 1024 threads) [warp-sync]
 *           s[t] += s[t + 16];
 *                   ^~~~~~~~~
 * tests/rules/warp-sync/assumed_shape.cu:12:9: note: the other lane's write of 's'
 * tests/rules/warp-sync/assumed_shape.cu:9:5: note: 's' declared here
 * tests/rules/warp-sync/assumed_shape.cu:13:17: note: add __syncwarp() between the write and the access that depends on it
 * tests/rules/warp-sync/assumed_shape.cu:26:16: assumed: unsynchronized warp exchange on 's': lane 0 of warp 2 reads s[65], which lane 1 wrote at line 25, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'third_warp' with blockDim (256,1,1) (assumed; not a race for blockDim (32,1,1)) [warp-sync]
 *           o[t] = s[t ^ 1];
 *                  ^~~~~~~~
 * tests/rules/warp-sync/assumed_shape.cu:25:9: note: the other lane's write of 's'
 * tests/rules/warp-sync/assumed_shape.cu:22:5: note: 's' declared here
 * tests/rules/warp-sync/assumed_shape.cu:26:16: note: add __syncwarp() between the write and the access that depends on it
 * check-output-end
 */
