// Butterfly reductions (issue 23, ggml's and llm.c's warp_reduce_sum): after
// `for (o = W/2; o > 0; o >>= 1) x += __shfl_xor_sync(full, x, o, W)` every
// lane of each run of W lanes holds the same x, so a warp storing its sum
// to buf[warp] stores one value (a benign race, not a warp-sync error).
template <int width = 32>
__device__ __forceinline__ float warp_sum(float x)
{
#pragma unroll
    for (int offset = width / 2; offset > 0; offset >>= 1)
        x += __shfl_xor_sync(0xffffffff, x, offset, width);
    return x;
}

__device__ float warp_max(float x)
{
    for (int o = 16; o >= 1; o /= 2)
        x = fmaxf(x, __shfl_xor_sync(0xffffffff, x, o));
    return x;
}

__global__ void __launch_bounds__(256) sums(const float *in, float *out)
{
    __shared__ float buf[8];
    float s = warp_sum(in[threadIdx.x]);
    buf[threadIdx.x / 32] = s;
    __shared__ float top[8];
    top[threadIdx.x / 32] = warp_max(in[threadIdx.x]);
    __syncthreads();
    if (threadIdx.x < 8)
        out[threadIdx.x] = buf[threadIdx.x] + top[threadIdx.x];
}

// control: half-warp runs hold one value each (width 16), but a warp
// spans two runs: lanes 0 and 16 store different sums into one slot
__global__ void __launch_bounds__(256) half_runs(const float *in, float *out)
{
    __shared__ float buf[8];
    buf[threadIdx.x / 32] = warp_sum<16>(in[threadIdx.x]);
    __syncthreads();
    if (threadIdx.x < 8)
        out[threadIdx.x] = buf[threadIdx.x];
}

// control: the loop stops at offset 2, so lanes 0 and 1 differ
__global__ void __launch_bounds__(256) stops_early(const float *in, float *out)
{
    __shared__ float buf[8];
    float x = in[threadIdx.x];
    for (int o = 16; o > 1; o >>= 1)
        x += __shfl_xor_sync(0xffffffff, x, o);
    buf[threadIdx.x / 32] = x;
    __syncthreads();
    if (threadIdx.x < 8)
        out[threadIdx.x] = buf[threadIdx.x];
}

// control: a partial mask leaves lanes out of the exchange
__global__ void __launch_bounds__(256) part_mask(const float *in, float *out)
{
    __shared__ float buf[8];
    float x = in[threadIdx.x];
    for (int o = 16; o > 0; o >>= 1)
        x += __shfl_xor_sync(0x0000ffff, x, o);
    buf[threadIdx.x / 32] = x;
    __syncthreads();
    if (threadIdx.x < 8)
        out[threadIdx.x] = buf[threadIdx.x];
}

// control: x - partner does not commute; partners hold different values
__global__ void __launch_bounds__(256) not_commuting(const float *in, float *out)
{
    __shared__ float buf[8];
    float x = in[threadIdx.x];
    for (int o = 16; o > 0; o >>= 1)
        x = x - __shfl_xor_sync(0xffffffff, x, o);
    buf[threadIdx.x / 32] = x;
    __syncthreads();
    if (threadIdx.x < 8)
        out[threadIdx.x] = buf[threadIdx.x];
}

/*
 * check-output-start
 * tests/rules/same-value-write/butterfly_reduce.cu:25:5: note: benign race: threads write the same value to 'buf': thread 0 writes buf[0], which thread 1 also writes in the same statement, lanes of one warp (the value is the same whichever write lands) in kernel 'sums' with blockDim (256,1,1) from __launch_bounds__(256) [same-value-write]
 *       buf[threadIdx.x / 32] = s;
 *       ^~~~~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/butterfly_reduce.cu:25:5: note: the same value written by thread 1
 * tests/rules/same-value-write/butterfly_reduce.cu:23:5: note: 'buf' declared here
 * tests/rules/same-value-write/butterfly_reduce.cu:25:5: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/butterfly_reduce.cu:27:5: note: benign race: threads write the same value to 'top': thread 0 writes top[0], which thread 1 also writes in the same statement, lanes of one warp (the value is the same whichever write lands) in kernel 'sums' with blockDim (256,1,1) from __launch_bounds__(256) [same-value-write]
 *       top[threadIdx.x / 32] = warp_max(in[threadIdx.x]);
 *       ^~~~~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/butterfly_reduce.cu:27:5: note: the same value written by thread 1
 * tests/rules/same-value-write/butterfly_reduce.cu:26:5: note: 'top' declared here
 * tests/rules/same-value-write/butterfly_reduce.cu:27:5: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/butterfly_reduce.cu:38:5: warning: unsynchronized warp exchange on 'buf': lane 0 of warp 0 writes buf[0], which lane 16 also writes in the same statement, lanes of one warp in one statement (which lane's write lands is undefined) in kernel 'half_runs' with blockDim (256,1,1) from __launch_bounds__(256) [warp-sync]
 *       buf[threadIdx.x / 32] = warp_sum<16>(in[threadIdx.x]);
 *       ^~~~~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/butterfly_reduce.cu:38:5: note: the other lane's write of 'buf'
 * tests/rules/same-value-write/butterfly_reduce.cu:37:5: note: 'buf' declared here
 * tests/rules/same-value-write/butterfly_reduce.cu:38:5: note: let one lane write it, or give each lane its own element
 * tests/rules/same-value-write/butterfly_reduce.cu:51:5: warning: unsynchronized warp exchange on 'buf': lane 0 of warp 0 writes buf[0], which lane 1 also writes in the same statement, lanes of one warp in one statement (which lane's write lands is undefined) in kernel 'stops_early' with blockDim (256,1,1) from __launch_bounds__(256) [warp-sync]
 *       buf[threadIdx.x / 32] = x;
 *       ^~~~~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/butterfly_reduce.cu:51:5: note: the other lane's write of 'buf'
 * tests/rules/same-value-write/butterfly_reduce.cu:47:5: note: 'buf' declared here
 * tests/rules/same-value-write/butterfly_reduce.cu:51:5: note: let one lane write it, or give each lane its own element
 * tests/rules/same-value-write/butterfly_reduce.cu:64:5: warning: unsynchronized warp exchange on 'buf': lane 0 of warp 0 writes buf[0], which lane 1 also writes in the same statement, lanes of one warp in one statement (which lane's write lands is undefined) in kernel 'part_mask' with blockDim (256,1,1) from __launch_bounds__(256) [warp-sync]
 *       buf[threadIdx.x / 32] = x;
 *       ^~~~~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/butterfly_reduce.cu:64:5: note: the other lane's write of 'buf'
 * tests/rules/same-value-write/butterfly_reduce.cu:60:5: note: 'buf' declared here
 * tests/rules/same-value-write/butterfly_reduce.cu:64:5: note: let one lane write it, or give each lane its own element
 * tests/rules/same-value-write/butterfly_reduce.cu:77:5: warning: unsynchronized warp exchange on 'buf': lane 0 of warp 0 writes buf[0], which lane 1 also writes in the same statement, lanes of one warp in one statement (which lane's write lands is undefined) in kernel 'not_commuting' with blockDim (256,1,1) from __launch_bounds__(256) [warp-sync]
 *       buf[threadIdx.x / 32] = x;
 *       ^~~~~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/butterfly_reduce.cu:77:5: note: the other lane's write of 'buf'
 * tests/rules/same-value-write/butterfly_reduce.cu:73:5: note: 'buf' declared here
 * tests/rules/same-value-write/butterfly_reduce.cu:77:5: note: let one lane write it, or give each lane its own element
 * check-output-end
 */
