// Kernels that no launch, __launch_bounds__ or --block-dim gives a block
// shape: they are analyzed under an assumed one (256 threads; 32x8 when the
// kernel reads threadIdx.y; 8x8x4 when it reads threadIdx.z), and a race
// found there is searched for under every other shape the kernel admits
// (engine/launch.c: 1-D shapes of 32 to 1024 threads, 2-D and 3-D tiles,
// within __launch_bounds__). Found under every one it stays an error;
// else it is reported at the level `assumed`, naming a shape without it,
// and does not fail the run by itself (tests/test_cli.py checks the exit
// status; here the errors make it 1).

// A race whatever the shape: each thread reads the element its mirror
// thread writes (lanes of one warp at 32 threads, warps apart above).
__global__ void every_shape(float *o)
{
    __shared__ float s[1024];
    s[threadIdx.x] = o[threadIdx.x];
    o[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

// Thread t writes s[32 t] and reads s[t]: thread 32 reads what thread 1
// wrote, so with 32 threads or fewer there is no race.
__global__ void only_large(float *o)
{
    __shared__ float s[32 * 1024];
    s[threadIdx.x * 32] = 1.0f;
    o[threadIdx.x] = s[threadIdx.x];
}

// `threadIdx.x == 0` picks one thread of a 1-D block but a column of a
// 2-D one (a cooperative-groups kernel launched 1-D at run time reads all
// three dimensions): a race for (32,8,1), none for (32,1,1).
__global__ void column(float *o)
{
    __shared__ int f;
    if (threadIdx.x == 0)
        f = threadIdx.y;
    __syncthreads();
    o[threadIdx.x] = f;
}

__global__ void column_3d(float *o)
{
    __shared__ int f;
    if (threadIdx.x == 0)
        f = threadIdx.y + threadIdx.z;
    __syncthreads();
    o[threadIdx.x] = f;
}

// __launch_bounds__(128) caps the shapes: 32x8 does not fit, so it is
// halved to 32x4 (rows stay a warp wide), and the shapes tried stop at
// 128. Under 32x4 this 16-wide layout races; under 32x1 it does not.
__global__ void __launch_bounds__(128) bounded(float *o)
{
    __shared__ float s[128];
    s[threadIdx.y * 16 + threadIdx.x] = o[threadIdx.x];
    o[threadIdx.x] = s[127 - threadIdx.y * 16 - threadIdx.x];
}

// Launched: the launch's shape decides, as before (an error).
__global__ void launched(float *o)
{
    __shared__ int f;
    if (threadIdx.x == 0)
        f = threadIdx.y;
    __syncthreads();
    o[threadIdx.x] = f;
}

void run(float *o)
{
    launched<<<1, dim3(32, 8)>>>(o);
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/missing-barrier/assumed_shape.cu:17:22: error: missing barrier: read-after-write race on 's': thread 0 reads s[255], which thread 255 wrote at line 16, with no __syncthreads() in between (different warps) in kernel 'every_shape' with blockDim (256,1,1) (assumed: no launch site, __launch_bounds__ or --block-dim gives it; also a race for the 5 other block shapes tried, 32 to 1024 threads) [missing-barrier]
 *       o[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
 *                        ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/assumed_shape.cu:16:5: note: the racing write of 's' by thread 255
 * tests/rules/missing-barrier/assumed_shape.cu:15:5: note: 's' declared here
 * tests/rules/missing-barrier/assumed_shape.cu:17:22: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/assumed_shape.cu:25:5: warning: 32-way bank conflict on store of 's' (float[32768]) in kernel 'only_large' with blockDim (256,1,1) (assumed: no launch site, __launch_bounds__ or --block-dim gives it); lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[threadIdx.x * 32] = 1.0f;
 *       ^~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/assumed_shape.cu:24:5: note: 's' declared here
 * tests/rules/missing-barrier/assumed_shape.cu:25:5: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * tests/rules/missing-barrier/assumed_shape.cu:26:22: assumed: missing barrier: read-after-write race on 's': thread 32 reads s[32], which thread 1 wrote at line 25, with no __syncthreads() in between (different warps) in kernel 'only_large' with blockDim (256,1,1) (assumed; not a race for blockDim (32,1,1)) [missing-barrier]
 *       o[threadIdx.x] = s[threadIdx.x];
 *                        ^~~~~~~~~~~~~~
 * tests/rules/missing-barrier/assumed_shape.cu:25:5: note: the racing write of 's' by thread 1
 * tests/rules/missing-barrier/assumed_shape.cu:24:5: note: 's' declared here
 * tests/rules/missing-barrier/assumed_shape.cu:26:22: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/assumed_shape.cu:36:9: assumed: missing barrier: write-after-write race on 'f': thread (0,0) writes f, which thread (0,1) also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'column' with blockDim (32,8,1) (assumed; not a race for blockDim (32,1,1)) [missing-barrier]
 *           f = threadIdx.y;
 *           ^
 * tests/rules/missing-barrier/assumed_shape.cu:36:9: note: the racing write of 'f' by thread (0,1)
 * tests/rules/missing-barrier/assumed_shape.cu:34:5: note: 'f' declared here
 * tests/rules/missing-barrier/assumed_shape.cu:36:9: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/missing-barrier/assumed_shape.cu:45:9: assumed: missing barrier: write-after-write race on 'f': thread (0,0,0) writes f, which thread (0,4,0) also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'column_3d' with blockDim (8,8,4) (assumed; not a race for blockDim (32,1,1)) [missing-barrier]
 *           f = threadIdx.y + threadIdx.z;
 *           ^
 * tests/rules/missing-barrier/assumed_shape.cu:45:9: note: the racing write of 'f' by thread (0,4,0)
 * tests/rules/missing-barrier/assumed_shape.cu:43:5: note: 'f' declared here
 * tests/rules/missing-barrier/assumed_shape.cu:45:9: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/missing-barrier/assumed_shape.cu:56:5: assumed: missing barrier: write-after-write race on 's': thread (16,0) writes s[16], which thread (0,1) also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'bounded' with blockDim (32,4,1) (assumed; not a race for blockDim (32,1,1)) [missing-barrier]
 *       s[threadIdx.y * 16 + threadIdx.x] = o[threadIdx.x];
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/assumed_shape.cu:56:5: note: the racing write of 's' by thread (0,1)
 * tests/rules/missing-barrier/assumed_shape.cu:55:5: note: 's' declared here
 * tests/rules/missing-barrier/assumed_shape.cu:56:5: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/missing-barrier/assumed_shape.cu:57:22: assumed: missing barrier: read-after-write race on 's': thread (16,2) reads s[79], which thread (31,3) wrote at line 56, with no __syncthreads() in between (different warps) in kernel 'bounded' with blockDim (32,4,1) (assumed; not a race for blockDim (32,1,1)) [missing-barrier]
 *       o[threadIdx.x] = s[127 - threadIdx.y * 16 - threadIdx.x];
 *                        ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/assumed_shape.cu:56:5: note: the racing write of 's' by thread (31,3)
 * tests/rules/missing-barrier/assumed_shape.cu:55:5: note: 's' declared here
 * tests/rules/missing-barrier/assumed_shape.cu:57:22: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/assumed_shape.cu:65:9: error: missing barrier: write-after-write race on 'f': thread (0,0) writes f, which thread (0,1) also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'launched' with blockDim (32,8,1) from the launch on line 72 [missing-barrier]
 *           f = threadIdx.y;
 *           ^
 * tests/rules/missing-barrier/assumed_shape.cu:65:9: note: the racing write of 'f' by thread (0,1)
 * tests/rules/missing-barrier/assumed_shape.cu:63:5: note: 'f' declared here
 * tests/rules/missing-barrier/assumed_shape.cu:65:9: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * check-output-end
 */
