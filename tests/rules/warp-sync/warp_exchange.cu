// warp-sync: lanes of one warp exchange shared memory with no __syncwarp()
// in between. Positive and negative cases; the exchanges that cross warps
// are missing-barrier's (tests/rules/missing-barrier).

// each warp reverses its 32 elements: no __syncwarp() between write and read
__global__ void warp_reverse_nosync(const float *in, float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    out[t] = s[(t & ~31) + (31 - (t & 31))];
}

// the same with __syncwarp(): correct
__global__ void warp_reverse_syncwarp(const float *in, float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncwarp();
    out[t] = s[(t & ~31) + (31 - (t & 31))];
}

// a block barrier orders the warp's lanes too
__global__ void warp_reverse_syncthreads(const float *in, float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[(t & ~31) + (31 - (t & 31))];
}

// the unrolled last warp of a reduction through volatile, without
// __syncwarp(): volatile does not order the lanes
__global__ void last_warp_volatile(const float *in, float *out)
{
    __shared__ float sdata[64];
    int t = threadIdx.x;
    sdata[t] = in[t] + in[t + 32];
    volatile float *v = sdata;
    if (t < 16) {
        v[t] += v[t + 16];
        v[t] += v[t + 8];
    }
    if (t == 0)
        out[0] = v[0];
}

// the same reduction with __syncwarp() between each read and write
__global__ void last_warp_syncwarp(const float *in, float *out)
{
    __shared__ float sdata[64];
    int t = threadIdx.x;
    sdata[t] = in[t] + in[t + 32];
    __syncwarp();
    float x = sdata[t];
    if (t < 16) {
        x += sdata[t + 16];
        __syncwarp(0xffff);
        sdata[t] = x;
        __syncwarp(0xffff);
        x += sdata[t + 8];
        __syncwarp(0xffff);
        sdata[t] = x;
    }
    __syncwarp();
    if (t == 0)
        out[0] = sdata[0];
}

// each lane reads only what it wrote: nothing to order
__global__ void own_slot(const float *in, float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    s[t] = s[t] * 2.0f;
    out[t] = s[t];
}

int main()
{
    warp_reverse_nosync<<<1, 128>>>(0, 0);
    warp_reverse_syncwarp<<<1, 128>>>(0, 0);
    warp_reverse_syncthreads<<<1, 128>>>(0, 0);
    last_warp_volatile<<<1, 32>>>(0, 0);
    last_warp_syncwarp<<<1, 32>>>(0, 0);
    own_slot<<<1, 128>>>(0, 0);
    return 0;
}

/*
 * check-output-start
 * tests/rules/warp-sync/warp_exchange.cu:11:14: warning: unsynchronized warp exchange on 's': lane 0 of warp 0 reads s[31], which lane 31 wrote at line 10, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'warp_reverse_nosync' with blockDim (128,1,1) from the launch on line 84 [warp-sync]
 *       out[t] = s[(t & ~31) + (31 - (t & 31))];
 *                ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/warp-sync/warp_exchange.cu:10:5: note: the other lane's write of 's'
 * tests/rules/warp-sync/warp_exchange.cu:8:5: note: 's' declared here
 * tests/rules/warp-sync/warp_exchange.cu:11:14: note: add __syncwarp() between the write and the access that depends on it
 * tests/rules/warp-sync/warp_exchange.cu:43:17: warning: unsynchronized warp exchange on 'v': lane 0 of warp 0 reads sdata[16], which lane 16 wrote at line 40, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'last_warp_volatile' with blockDim (32,1,1) from the launch on line 87 [warp-sync]
 *           v[t] += v[t + 16];
 *                   ^~~~~~~~~
 * tests/rules/warp-sync/warp_exchange.cu:40:5: note: the other lane's write of 'sdata'
 * tests/rules/warp-sync/warp_exchange.cu:38:5: note: 'sdata' declared here
 * tests/rules/warp-sync/warp_exchange.cu:43:17: note: add __syncwarp() between the write and the access that depends on it
 * tests/rules/warp-sync/warp_exchange.cu:44:17: warning: unsynchronized warp exchange on 'v': lane 0 of warp 0 reads sdata[8], which lane 8 wrote at line 43, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'last_warp_volatile' with blockDim (32,1,1) from the launch on line 87 [warp-sync]
 *           v[t] += v[t + 8];
 *                   ^~~~~~~~
 * tests/rules/warp-sync/warp_exchange.cu:43:9: note: the other lane's write of 'v'
 * tests/rules/warp-sync/warp_exchange.cu:38:5: note: 'sdata' declared here
 * tests/rules/warp-sync/warp_exchange.cu:44:17: note: add __syncwarp() between the write and the access that depends on it
 * check-output-end
 */
