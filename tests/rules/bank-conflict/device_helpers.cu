// __device__ functions no kernel calls are analyzed on their own, but a
// helper another of them inlines is analyzed there, not twice: `strided`
// is defined first and inlined by `outer`, so its conflict is reported
// once, in 'outer'; `alone` is inlined by no one and reported as itself.
__device__ float strided(float v)
{
    __shared__ float s[64];
    s[threadIdx.x * 2] = v;
    __syncwarp();
    return s[threadIdx.x * 2];
}

__device__ void outer(float *o)
{
    o[threadIdx.x] = strided(o[threadIdx.x]);
}

__device__ void alone(float *o)
{
    __shared__ float t[128];
    t[threadIdx.x * 4] = o[threadIdx.x];
    __syncwarp();
    o[threadIdx.x] = t[threadIdx.x * 4];
}

/*
 * check-args: --block-dim 32 --no-cuda
 * check-output-start
 * tests/rules/bank-conflict/device_helpers.cu:8:5: warning: 2-way bank conflict on store of 's' (float[64]) in 'strided' called from kernel 'outer' at line 15 with blockDim (32,1,1) from --block-dim; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[threadIdx.x * 2] = v;
 *       ^~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/device_helpers.cu:7:5: note: 's' declared here
 * tests/rules/bank-conflict/device_helpers.cu:8:5: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/device_helpers.cu:10:12: warning: 2-way bank conflict on load of 's' (float[64]) in 'strided' called from kernel 'outer' at line 15 with blockDim (32,1,1) from --block-dim; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       return s[threadIdx.x * 2];
 *              ^~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/device_helpers.cu:7:5: note: 's' declared here
 * tests/rules/bank-conflict/device_helpers.cu:10:12: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/device_helpers.cu:21:5: warning: 4-way bank conflict on store of 't' (float[128]) in kernel 'alone' with blockDim (32,1,1) from --block-dim; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       t[threadIdx.x * 4] = o[threadIdx.x];
 *       ^~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/device_helpers.cu:20:5: note: 't' declared here
 * tests/rules/bank-conflict/device_helpers.cu:21:5: note: index 't' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/device_helpers.cu:23:22: warning: 4-way bank conflict on load of 't' (float[128]) in kernel 'alone' with blockDim (32,1,1) from --block-dim; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       o[threadIdx.x] = t[threadIdx.x * 4];
 *                        ^~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/device_helpers.cu:20:5: note: 't' declared here
 * tests/rules/bank-conflict/device_helpers.cu:23:22: note: index 't' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * check-output-end
 */
