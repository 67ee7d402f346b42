// Block shapes from every source smemlint knows (expected output at the end).
#define TB 128
constexpr int TX = 16;

__global__ void from_dim3(float *o)
{
    __shared__ float a[64][64];
    a[threadIdx.x][threadIdx.y] = 1.0f;  // 16 rows of a 16x16 block -> 16-way... per warp 2 cols
    o[threadIdx.x] = a[threadIdx.y][threadIdx.x];
}

__global__ void from_int(float *o)
{
    __shared__ float b[TB * 4];
    b[threadIdx.x * 4] = 1.0f;
    o[threadIdx.x] = b[threadIdx.x];
}

__global__ void __launch_bounds__(TB) from_bounds(float *o)
{
    __shared__ float c[TB * 8];
    c[threadIdx.x * 8] = 1.0f;
    o[threadIdx.x] = c[threadIdx.x];
}

__global__ void assumed(float *o)
{
    __shared__ float d[256 * 32];
    d[threadIdx.x * 32] = 1.0f;
    o[threadIdx.x] = d[threadIdx.x];
}

__global__ void uniform_loop(float *o)
{
    __shared__ float e[1024];
    for (int s = 1; s < 32; s *= 2)
        e[2 * s * threadIdx.x] = 1.0f;
    o[threadIdx.x] = e[threadIdx.x];
}

int main()
{
    dim3 block(TX, TX);
    from_dim3<<<1, block>>>(0);
    from_int<<<2, TB>>>(0);
    from_bounds<<<1, 64>>>(0);  // the launch wins over __launch_bounds__
    uniform_loop<<<1, 32>>>(0);
    return 0;
}

/*
 * check-output-start
 * tests/rules/bank-conflict/block_dims.cu:8:5: warning: 16-way bank conflict on store of 'a' (float[64][64]) in kernel 'from_dim3' with blockDim (16,16,1) from the launch on line 44; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 256) [bank-conflict]
 *       a[threadIdx.x][threadIdx.y] = 1.0f;  // 16 rows of a 16x16 block -> 16-way... per warp 2 cols
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/block_dims.cu:7:5: note: 'a' declared here
 * tests/rules/bank-conflict/block_dims.cu:8:5: note: declare 'a' as `float a[64][65]`: +256 bytes per block (16384 -> 16640 bytes of static shared memory); 0 of 2 conflicting accesses become conflict-free, worst degree 2
 * fix-it:"tests/rules/bank-conflict/block_dims.cu":{7:23-7:31}:"[64][65]"
 * tests/rules/bank-conflict/block_dims.cu:9:22: warning: 2-way bank conflict on load of 'a' (float[64][64]) in kernel 'from_dim3' with blockDim (16,16,1) from the launch on line 44; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 256) [bank-conflict]
 *       o[threadIdx.x] = a[threadIdx.y][threadIdx.x];
 *                        ^~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/block_dims.cu:7:5: note: 'a' declared here
 * tests/rules/bank-conflict/block_dims.cu:9:22: note: declare 'a' as `float a[64][65]`: +256 bytes per block (16384 -> 16640 bytes of static shared memory); 0 of 2 conflicting accesses become conflict-free, worst degree 2
 * fix-it:"tests/rules/bank-conflict/block_dims.cu":{7:23-7:31}:"[64][65]"
 * tests/rules/bank-conflict/block_dims.cu:9:22: error: missing barrier: read-after-write race on 'a': thread (2,0) reads a[0][2], which thread (0,2) wrote at line 8, with no __syncthreads() in between (different warps) in kernel 'from_dim3' with blockDim (16,16,1) from the launch on line 44 [missing-barrier]
 *       o[threadIdx.x] = a[threadIdx.y][threadIdx.x];
 *                        ^~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/block_dims.cu:8:5: note: the racing write of 'a' by thread (0,2)
 * tests/rules/bank-conflict/block_dims.cu:7:5: note: 'a' declared here
 * tests/rules/bank-conflict/block_dims.cu:9:22: note: add __syncthreads() between the two accesses
 * tests/rules/bank-conflict/block_dims.cu:15:5: warning: 4-way bank conflict on store of 'b' (float[512]) in kernel 'from_int' with blockDim (128,1,1) from the launch on line 45; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       b[threadIdx.x * 4] = 1.0f;
 *       ^~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/block_dims.cu:14:5: note: 'b' declared here
 * tests/rules/bank-conflict/block_dims.cu:15:5: note: index 'b' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/block_dims.cu:16:22: error: missing barrier: read-after-write race on 'b': thread 32 reads b[32], which thread 8 wrote at line 15, with no __syncthreads() in between (different warps) in kernel 'from_int' with blockDim (128,1,1) from the launch on line 45 [missing-barrier]
 *       o[threadIdx.x] = b[threadIdx.x];
 *                        ^~~~~~~~~~~~~~
 * tests/rules/bank-conflict/block_dims.cu:15:5: note: the racing write of 'b' by thread 8
 * tests/rules/bank-conflict/block_dims.cu:14:5: note: 'b' declared here
 * tests/rules/bank-conflict/block_dims.cu:16:22: note: add __syncthreads() between the two accesses
 * tests/rules/bank-conflict/block_dims.cu:22:5: warning: 8-way bank conflict on store of 'c' (float[1024]) in kernel 'from_bounds' with blockDim (64,1,1) from the launch on line 46; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       c[threadIdx.x * 8] = 1.0f;
 *       ^~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/block_dims.cu:21:5: note: 'c' declared here
 * tests/rules/bank-conflict/block_dims.cu:22:5: note: index 'c' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/block_dims.cu:23:22: error: missing barrier: read-after-write race on 'c': thread 32 reads c[32], which thread 4 wrote at line 22, with no __syncthreads() in between (different warps) in kernel 'from_bounds' with blockDim (64,1,1) from the launch on line 46 [missing-barrier]
 *       o[threadIdx.x] = c[threadIdx.x];
 *                        ^~~~~~~~~~~~~~
 * tests/rules/bank-conflict/block_dims.cu:22:5: note: the racing write of 'c' by thread 4
 * tests/rules/bank-conflict/block_dims.cu:21:5: note: 'c' declared here
 * tests/rules/bank-conflict/block_dims.cu:23:22: note: add __syncthreads() between the two accesses
 * tests/rules/bank-conflict/block_dims.cu:29:5: warning: 32-way bank conflict on store of 'd' (float[8192]) in kernel 'assumed' with blockDim (256,1,1) (assumed: no launch site, __launch_bounds__ or --block-dim gives it; shapes that overflow a shared array left out); lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       d[threadIdx.x * 32] = 1.0f;
 *       ^~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/block_dims.cu:28:5: note: 'd' declared here
 * tests/rules/bank-conflict/block_dims.cu:29:5: note: index 'd' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/block_dims.cu:30:22: assumed: missing barrier: read-after-write race on 'd': thread 32 reads d[32], which thread 1 wrote at line 29, with no __syncthreads() in between (different warps) in kernel 'assumed' with blockDim (256,1,1) (assumed; not a race for blockDim (32,1,1)) [missing-barrier]
 *       o[threadIdx.x] = d[threadIdx.x];
 *                        ^~~~~~~~~~~~~~
 * tests/rules/bank-conflict/block_dims.cu:29:5: note: the racing write of 'd' by thread 1
 * tests/rules/bank-conflict/block_dims.cu:28:5: note: 'd' declared here
 * tests/rules/bank-conflict/block_dims.cu:30:22: note: add __syncthreads() between the two accesses
 * tests/rules/bank-conflict/block_dims.cu:37:9: warning: 32-way bank conflict on store of 'e' (float[1024]) in kernel 'uniform_loop' with blockDim (32,1,1) from the launch on line 47, worst when s = 16 (mean 12.40-way over the iterations); lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           e[2 * s * threadIdx.x] = 1.0f;
 *           ^~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/block_dims.cu:35:5: note: 'e' declared here
 * tests/rules/bank-conflict/block_dims.cu:37:9: note: index 'e' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/block_dims.cu:37:9: note: benign race: threads write the same constant to 'e': thread 1 writes e[4], which thread 2 wrote at line 37 in the previous iteration, lanes of one warp (the value is the same whichever write lands) in kernel 'uniform_loop' with blockDim (32,1,1) from the launch on line 47 [same-value-write]
 *           e[2 * s * threadIdx.x] = 1.0f;
 *           ^~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/block_dims.cu:37:9: note: the same constant written by thread 2
 * tests/rules/bank-conflict/block_dims.cu:35:5: note: 'e' declared here
 * tests/rules/bank-conflict/block_dims.cu:37:9: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/bank-conflict/block_dims.cu:38:22: warning: unsynchronized warp exchange on 'e': lane 2 of warp 0 reads e[2], which lane 1 wrote at line 37, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'uniform_loop' with blockDim (32,1,1) from the launch on line 47 [warp-sync]
 *       o[threadIdx.x] = e[threadIdx.x];
 *                        ^~~~~~~~~~~~~~
 * tests/rules/bank-conflict/block_dims.cu:37:9: note: the other lane's write of 'e'
 * tests/rules/bank-conflict/block_dims.cu:35:5: note: 'e' declared here
 * tests/rules/bank-conflict/block_dims.cu:38:22: note: add __syncwarp() between the write and the access that depends on it
 * check-output-end
 */
