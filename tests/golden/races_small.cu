// smemlint-args: --block-dim 128
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

/* smemlint-expect
 * 9 missing-barrier
 * 26 missing-barrier
 * 48 missing-barrier
 * 76 missing-barrier
 * 101 warp-sync
 * 119 warp-sync
 * 120 warp-sync
 * 134 missing-barrier
 * 136 missing-barrier
 * 145 missing-barrier
 * 154 missing-barrier
 */
