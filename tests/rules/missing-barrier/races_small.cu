// missing-barrier and warp-sync: positive and negative cases.

__global__ void reverse_nobarrier(const float *in, float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    out[t] = s[127 - t];
}

__global__ void reverse_barrier(const float *in, float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[127 - t];
}

__global__ void neighbour(const float *in, float *out)
{
    __shared__ float s[129];
    int t = threadIdx.x;
    s[t] = in[t];
    out[t] = s[t + 1] - s[t];
}

__global__ void own_element_only(const float *in, float *out)
{
    __shared__ float s[4][128];
    int t = threadIdx.x;
    for (int k = 0; k < 4; ++k)
        s[k][t] = in[t] * k;
    float acc = 0;
    for (int k = 0; k < 4; ++k)
        acc += s[k][t];
    s[0][t] = acc;
    out[t] = s[0][t];
}

__global__ void war_no_second_barrier(const float *in, float *out, int n)
{
    __shared__ float tile[128];
    int t = threadIdx.x;
    float acc = 0;
    for (int i = 0; i < n; ++i) {
        tile[t] = in[i * 128 + t];
        __syncthreads();
        acc += tile[127 - t];
    }
    out[t] = acc;
}

__global__ void war_with_second_barrier(const float *in, float *out, int n)
{
    __shared__ float tile[128];
    int t = threadIdx.x;
    float acc = 0;
    for (int i = 0; i < n; ++i) {
        tile[t] = in[i * 128 + t];
        __syncthreads();
        acc += tile[127 - t];
        __syncthreads();
    }
    out[t] = acc;
}

__global__ void waw_flag(int *out)
{
    __shared__ int flag;
    int t = threadIdx.x;
    if (t == 0)
        flag = 0;
    if (t == 64)
        flag = 1;
    __syncthreads();
    out[t] = flag;
}

__global__ void atomics_only(const int *in, int *out)
{
    __shared__ int hist[16];
    int t = threadIdx.x;
    if (t < 16)
        hist[t] = 0;
    __syncthreads();
    atomicAdd(&hist[t & 15], 1);
    atomicAdd(&hist[(t + 1) & 15], in[t]);
    __syncthreads();
    if (t < 16)
        out[t] = hist[t];
}

__global__ void warp_neighbour(const float *in, float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    int lane = t & 31;
    s[t] = in[t];
    float v = s[(t & ~31) + ((lane + 1) & 31)];
    __syncwarp();
    float w = s[(t & ~31) + ((lane + 2) & 31)];
    out[t] = v + w;
}

__global__ void reduce_last_warp(float *out)
{
    __shared__ float sd[128];
    int t = threadIdx.x;
    sd[t] = t;
    __syncthreads();
    if (t < 64)
        sd[t] += sd[t + 64];
    __syncthreads();
    if (t < 32) {
        volatile float *v = sd;
        v[t] += v[t + 32];
        v[t] += v[t + 16];
        v[t] += v[t + 8];
    }
    if (t == 0)
        out[blockIdx.x] = sd[0];
}

__global__ void reduce_no_barrier_loop(float *out)
{
    __shared__ float sd[128];
    int t = threadIdx.x;
    sd[t] = t;
    __syncthreads();
    for (int s = 64; s > 0; s >>= 1) {
        if (t < s)
            sd[t] += sd[t + s];
    }
    out[t] = sd[0];
}

__global__ void dynamic_alias(const float *in, float *out)
{
    extern __shared__ float a[];
    extern __shared__ float b[];
    int t = threadIdx.x;
    a[t] = in[t];
    out[t] = b[127 - t];
}

__global__ void syncwarp_cross_warp(const float *in, float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncwarp();
    out[t] = s[(t + 32) & 127];
}


/*
 * check-args: --block-dim 128
 * check-output-start
 * tests/rules/missing-barrier/races_small.cu:8:14: error: missing barrier: read-after-write race on 's': thread 0 reads s[127], which thread 127 wrote at line 7, with no __syncthreads() in between (different warps) in kernel 'reverse_nobarrier' with blockDim (128,1,1) from --block-dim [missing-barrier]
 *       out[t] = s[127 - t];
 *                ^~~~~~~~~~
 * tests/rules/missing-barrier/races_small.cu:7:5: note: the racing write of 's' by thread 127
 * tests/rules/missing-barrier/races_small.cu:5:5: note: 's' declared here
 * tests/rules/missing-barrier/races_small.cu:8:14: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/races_small.cu:25:14: error: missing barrier: read-after-write race on 's': thread 31 reads s[32], which thread 32 wrote at line 24, with no __syncthreads() in between (different warps) in kernel 'neighbour' with blockDim (128,1,1) from --block-dim [missing-barrier]
 *       out[t] = s[t + 1] - s[t];
 *                ^~~~~~~~
 * tests/rules/missing-barrier/races_small.cu:24:5: note: the racing write of 's' by thread 32
 * tests/rules/missing-barrier/races_small.cu:22:5: note: 's' declared here
 * tests/rules/missing-barrier/races_small.cu:25:14: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/races_small.cu:47:9: error: missing barrier: write-after-read race on 'tile': thread 0 overwrites tile[0], which thread 127 read at line 49 in the previous iteration, with no __syncthreads() in between (different warps) in kernel 'war_no_second_barrier' with blockDim (128,1,1) from --block-dim [missing-barrier]
 *           tile[t] = in[i * 128 + t];
 *           ^~~~~~~
 * tests/rules/missing-barrier/races_small.cu:49:16: note: the racing read of 'tile' by thread 127
 * tests/rules/missing-barrier/races_small.cu:43:5: note: 'tile' declared here
 * tests/rules/missing-barrier/races_small.cu:47:9: note: add __syncthreads() at the end of the loop body, before the next iteration overwrites what this one reads
 * tests/rules/missing-barrier/races_small.cu:75:9: error: missing barrier: write-after-write race on 'flag': thread 64 writes flag, which thread 0 wrote at line 73, with no __syncthreads() in between (different warps) in kernel 'waw_flag' with blockDim (128,1,1) from --block-dim [missing-barrier]
 *           flag = 1;
 *           ^~~~
 * tests/rules/missing-barrier/races_small.cu:73:9: note: the racing write of 'flag' by thread 0
 * tests/rules/missing-barrier/races_small.cu:70:5: note: 'flag' declared here
 * tests/rules/missing-barrier/races_small.cu:75:9: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/races_small.cu:100:15: warning: unsynchronized warp exchange on 's': lane 0 of warp 0 reads s[1], which lane 1 wrote at line 99, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'warp_neighbour' with blockDim (128,1,1) from --block-dim [warp-sync]
 *       float v = s[(t & ~31) + ((lane + 1) & 31)];
 *                 ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/races_small.cu:99:5: note: the other lane's write of 's'
 * tests/rules/missing-barrier/races_small.cu:96:5: note: 's' declared here
 * tests/rules/missing-barrier/races_small.cu:100:15: note: add __syncwarp() between the write and the access that depends on it
 * tests/rules/missing-barrier/races_small.cu:118:17: warning: unsynchronized warp exchange on 'v': lane 0 of warp 0 reads sd[16], which lane 16 wrote at line 117, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'reduce_last_warp' with blockDim (128,1,1) from --block-dim [warp-sync]
 *           v[t] += v[t + 16];
 *                   ^~~~~~~~~
 * tests/rules/missing-barrier/races_small.cu:117:9: note: the other lane's write of 'v'
 * tests/rules/missing-barrier/races_small.cu:108:5: note: 'sd' declared here
 * tests/rules/missing-barrier/races_small.cu:118:17: note: add __syncwarp() between the write and the access that depends on it
 * tests/rules/missing-barrier/races_small.cu:119:17: warning: unsynchronized warp exchange on 'v': lane 0 of warp 0 reads sd[8], which lane 8 wrote at line 118, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'reduce_last_warp' with blockDim (128,1,1) from --block-dim [warp-sync]
 *           v[t] += v[t + 8];
 *                   ^~~~~~~~
 * tests/rules/missing-barrier/races_small.cu:118:9: note: the other lane's write of 'v'
 * tests/rules/missing-barrier/races_small.cu:108:5: note: 'sd' declared here
 * tests/rules/missing-barrier/races_small.cu:119:17: note: add __syncwarp() between the write and the access that depends on it
 * tests/rules/missing-barrier/races_small.cu:133:22: error: missing barrier: read-after-write race on 'sd': thread 0 reads sd[32], which thread 32 wrote at line 133 in the previous iteration, with no __syncthreads() in between (different warps) in kernel 'reduce_no_barrier_loop' with blockDim (128,1,1) from --block-dim [missing-barrier]
 *               sd[t] += sd[t + s];
 *                        ^~~~~~~~~
 * tests/rules/missing-barrier/races_small.cu:133:13: note: the racing write of 'sd' by thread 32
 * tests/rules/missing-barrier/races_small.cu:127:5: note: 'sd' declared here
 * tests/rules/missing-barrier/races_small.cu:133:22: note: add __syncthreads() at the end of the loop body, before the next iteration overwrites what this one reads
 * tests/rules/missing-barrier/races_small.cu:135:14: error: missing barrier: read-after-write race on 'sd': thread 32 reads sd[0], which thread 0 wrote at line 133, with no __syncthreads() in between (different warps) in kernel 'reduce_no_barrier_loop' with blockDim (128,1,1) from --block-dim [missing-barrier]
 *       out[t] = sd[0];
 *                ^~~~~
 * tests/rules/missing-barrier/races_small.cu:133:13: note: the racing write of 'sd' by thread 0
 * tests/rules/missing-barrier/races_small.cu:127:5: note: 'sd' declared here
 * tests/rules/missing-barrier/races_small.cu:135:14: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/races_small.cu:144:14: error: missing barrier: read-after-write race on 'b': thread 0 reads b[127], which thread 127 wrote at line 143, with no __syncthreads() in between (different warps) in kernel 'dynamic_alias' with blockDim (128,1,1) from --block-dim [missing-barrier]
 *       out[t] = b[127 - t];
 *                ^~~~~~~~~~
 * tests/rules/missing-barrier/races_small.cu:143:5: note: the racing write of 'a' by thread 127
 * tests/rules/missing-barrier/races_small.cu:141:5: note: 'b' declared here
 * tests/rules/missing-barrier/races_small.cu:144:14: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/races_small.cu:153:14: error: missing barrier: read-after-write race on 's': thread 0 reads s[32], which thread 32 wrote at line 151, with no barrier ordering both threads in between ('__syncwarp()' at line 152 orders only the threads of one warp; different warps) in kernel 'syncwarp_cross_warp' with blockDim (128,1,1) from --block-dim [missing-barrier]
 *       out[t] = s[(t + 32) & 127];
 *                ^~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/races_small.cu:151:5: note: the racing write of 's' by thread 32
 * tests/rules/missing-barrier/races_small.cu:149:5: note: 's' declared here
 * tests/rules/missing-barrier/races_small.cu:153:14: note: order the two threads with a barrier whose scope holds both (__syncthreads() for threads of different tiles or warps)
 * check-output-end
 */
