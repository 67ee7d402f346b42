// A warp's sum set under a guard into a local array's element, and stored
// under the same guard (issue 23, ggml's mul_mat_vec_f with use_gate): the
// element has no value before the first `if`, so after it it is
// `use_gate ? sum : unknown`; the store runs where use_gate holds, so it
// stores the sum, one value per warp (benign).
__device__ __forceinline__ float warp_sum(float x)
{
    for (int o = 16; o > 0; o >>= 1)
        x += __shfl_xor_sync(0xffffffff, x, o);
    return x;
}

__global__ void __launch_bounds__(256) gated(const float *in, const float *gate, float *out)
{
    __shared__ float buf[8];
    const bool use_gate = gate != nullptr;
    float g[2];
    if (use_gate)
        g[0] = warp_sum(gate[threadIdx.x]);
    if (use_gate)
        buf[threadIdx.x / 32] = g[0];
    __syncthreads();
    if (threadIdx.x < 8)
        out[threadIdx.x] = buf[threadIdx.x];
}

// control: the store is not under the guard, so where use_gate is false
// each lane stores its own unknown g[0]
__global__ void __launch_bounds__(256) ungated(const float *in, const float *gate, float *out)
{
    __shared__ float buf2[8];
    const bool use_gate = gate != nullptr;
    float g[2];
    if (use_gate)
        g[0] = warp_sum(gate[threadIdx.x]);
    buf2[threadIdx.x / 32] = g[0];
    __syncthreads();
    if (threadIdx.x < 8)
        out[threadIdx.x] = buf2[threadIdx.x];
}

/*
 * check-output-start
 * tests/rules/same-value-write/guarded_merge.cu:21:9: note: benign race: threads write the same value to 'buf': thread 0 writes buf[0], which thread 1 also writes in the same statement, lanes of one warp (the value is the same whichever write lands) in kernel 'gated' with blockDim (256,1,1) from __launch_bounds__(256) [same-value-write]
 *           buf[threadIdx.x / 32] = g[0];
 *           ^~~~~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/guarded_merge.cu:21:9: note: the same value written by thread 1
 * tests/rules/same-value-write/guarded_merge.cu:15:5: note: 'buf' declared here
 * tests/rules/same-value-write/guarded_merge.cu:21:9: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/guarded_merge.cu:36:5: warning: unsynchronized warp exchange on 'buf2': lane 0 of warp 0 writes buf2[0], which lane 1 also writes in the same statement, lanes of one warp in one statement (which lane's write lands is undefined) in kernel 'ungated' with blockDim (256,1,1) from __launch_bounds__(256) [warp-sync]
 *       buf2[threadIdx.x / 32] = g[0];
 *       ^~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/guarded_merge.cu:36:5: note: the other lane's write of 'buf2'
 * tests/rules/same-value-write/guarded_merge.cu:31:5: note: 'buf2' declared here
 * tests/rules/same-value-write/guarded_merge.cu:36:5: note: let one lane write it, or give each lane its own element
 * check-output-end
 */
