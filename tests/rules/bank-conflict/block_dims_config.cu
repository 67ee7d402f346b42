// A block shape from the config's block-dim: overrides the launch, and the
// finding says so ("from block-dim in block_dim.yaml", the config's name);
// --block-dim on the
// command line would win over both. A kernel with __cluster_dims__ keeps
// its cluster shape in the launch context (JSON's launch.cluster).
__global__ void __cluster_dims__(2, 1, 1) transpose_like(float *o)
{
    __shared__ float tile[32][32];
    tile[threadIdx.x][threadIdx.y] = o[0];
    __syncthreads();
    o[threadIdx.x] = tile[threadIdx.y][threadIdx.x];
}

void launch(float *o)
{
    transpose_like<<<4, dim3(32, 32)>>>(o);
}

/*
 * check-args: --no-cuda --config tests/rules/bank-conflict/cfg/block_dim.yaml
 * check-output-start
 * tests/rules/bank-conflict/block_dims_config.cu:9:5: warning: 32-way bank conflict on store of 'tile' (float[32][32]) in kernel 'transpose_like' with blockDim (32,8,1) from block-dim in block_dim.yaml; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       tile[threadIdx.x][threadIdx.y] = o[0];
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/block_dims_config.cu:8:5: note: 'tile' declared here
 * tests/rules/bank-conflict/block_dims_config.cu:9:5: note: declare 'tile' as `float tile[32][33]`: +128 bytes per block (4096 -> 4224 bytes of static shared memory); 1 of 1 conflicting accesses become conflict-free
 * fix-it:"tests/rules/bank-conflict/block_dims_config.cu":{8:26-8:34}:"[32][33]"
 * check-output-end
 */
