// Row softmax and LayerNorm: one block per row, block-wide reductions
// through shared memory.
#include "common.cuh"

#define ROWS 4
#define COLS 512
#define SM_BLOCK 128
#define LN_BLOCK 256

// Softmax with a shared-memory tree for both the max and the sum.
__global__ void softmax_block(const float *x, float *y)
{
    __shared__ float red[SM_BLOCK];
    const float *row = x + blockIdx.x * COLS;
    float *orow = y + blockIdx.x * COLS;
    int tid = threadIdx.x;

    float m = -INFINITY;
    for (int c = tid; c < COLS; c += SM_BLOCK)
        m = fmaxf(m, row[c]);
    red[tid] = m;
    __syncthreads();
    for (int s = SM_BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            red[tid] = fmaxf(red[tid], red[tid + s]);
        __syncthreads();
    }
    float rowMax = red[0];
    __syncthreads();

    float sum = 0.0f;
    for (int c = tid; c < COLS; c += SM_BLOCK)
        sum += __expf(row[c] - rowMax);
    red[tid] = sum;
    __syncthreads();
    for (int s = SM_BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            red[tid] += red[tid + s];
        __syncthreads();
    }
    float inv = 1.0f / red[0];
    for (int c = tid; c < COLS; c += SM_BLOCK)
        orow[c] = __expf(row[c] - rowMax) * inv;
}

// Softmax with warp shuffles; only one partial per warp goes through shared.
__device__ __forceinline__ float warp_max(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
    return v;
}
__device__ __forceinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}

__global__ void softmax_warp_partials(const float *x, float *y)
{
    __shared__ float s_max[SM_BLOCK / 32];
    __shared__ float s_sum[SM_BLOCK / 32];
    const float *row = x + blockIdx.x * COLS;
    float *orow = y + blockIdx.x * COLS;
    int tid = threadIdx.x;
    int lane = tid % 32;
    int warp = tid / 32;

    float m = -INFINITY;
    for (int c = tid; c < COLS; c += SM_BLOCK)
        m = fmaxf(m, row[c]);
    m = warp_max(m);
    if (lane == 0)
        s_max[warp] = m;
    __syncthreads();
    m = s_max[0];
    for (int w = 1; w < SM_BLOCK / 32; ++w)
        m = fmaxf(m, s_max[w]);

    float sum = 0.0f;
    for (int c = tid; c < COLS; c += SM_BLOCK)
        sum += __expf(row[c] - m);
    sum = warp_sum(sum);
    if (lane == 0)
        s_sum[warp] = sum;
    __syncthreads();
    float total = 0.0f;
    for (int w = 0; w < SM_BLOCK / 32; ++w)
        total += s_sum[w];
    for (int c = tid; c < COLS; c += SM_BLOCK)
        orow[c] = __expf(row[c] - m) / total;
}

// LayerNorm, two-pass: row cached in shared, mean and variance by tree.
__global__ void layernorm_block(const float *x, const float *gamma, const float *beta, float *y)
{
    __shared__ float s_row[COLS];
    __shared__ float red[LN_BLOCK];
    __shared__ float s_mean, s_rstd;
    int tid = threadIdx.x;
    const float *row = x + blockIdx.x * COLS;

    float sum = 0.0f;
    for (int c = tid; c < COLS; c += LN_BLOCK) {
        float v = row[c];
        s_row[c] = v;
        sum += v;
    }
    red[tid] = sum;
    __syncthreads();
    for (int s = LN_BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            red[tid] += red[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        s_mean = red[0] / COLS;
    __syncthreads();

    float mean = s_mean;
    float sq = 0.0f;
    for (int c = tid; c < COLS; c += LN_BLOCK) {
        float d = s_row[c] - mean;
        sq += d * d;
    }
    red[tid] = sq;
    __syncthreads();
    for (int s = LN_BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            red[tid] += red[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        s_rstd = rsqrtf(red[0] / COLS + 1e-5f);
    __syncthreads();

    float rstd = s_rstd;
    for (int c = tid; c < COLS; c += LN_BLOCK)
        y[blockIdx.x * COLS + c] = (s_row[c] - mean) * rstd * gamma[c] + beta[c];
}

// LayerNorm with warp-shuffle partials; warp 0 finishes the reduction.
__global__ void __launch_bounds__(LN_BLOCK) layernorm_warp(const float *x, const float *gamma, const float *beta, float *y)
{
    __shared__ float s_part[LN_BLOCK / 32];
    __shared__ float s_stat[2];
    int tid = threadIdx.x;
    int lane = tid & 31;
    int warp = tid >> 5;
    const float *row = x + blockIdx.x * COLS;

    float v0 = row[tid];
    float v1 = row[tid + LN_BLOCK];
    float s = warp_sum(v0 + v1);
    if (lane == 0)
        s_part[warp] = s;
    __syncthreads();
    if (warp == 0) {
        float t = (lane < LN_BLOCK / 32) ? s_part[lane] : 0.0f;
        t = warp_sum(t);
        if (lane == 0)
            s_stat[0] = t / COLS;
    }
    __syncthreads();
    float mean = s_stat[0];

    float d0 = v0 - mean, d1 = v1 - mean;
    float q = warp_sum(d0 * d0 + d1 * d1);
    __syncthreads();
    if (lane == 0)
        s_part[warp] = q;
    __syncthreads();
    if (warp == 0) {
        float t = (lane < LN_BLOCK / 32) ? s_part[lane] : 0.0f;
        t = warp_sum(t);
        if (lane == 0)
            s_stat[1] = rsqrtf(t / COLS + 1e-5f);
    }
    __syncthreads();
    float rstd = s_stat[1];

    float *out = y + blockIdx.x * COLS;
    out[tid] = d0 * rstd * gamma[tid] + beta[tid];
    out[tid + LN_BLOCK] = d1 * rstd * gamma[tid + LN_BLOCK] + beta[tid + LN_BLOCK];
}

int main()
{
    const size_t bytes = ROWS * COLS * sizeof(float);
    float *d_x, *d_y, *d_g, *d_b;
    CUDA_CHECK(cudaMalloc(&d_x, bytes));
    CUDA_CHECK(cudaMalloc(&d_y, bytes));
    CUDA_CHECK(cudaMalloc(&d_g, COLS * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_b, COLS * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_x, 0, bytes));
    CUDA_CHECK(cudaMemset(d_g, 0, COLS * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_b, 0, COLS * sizeof(float)));

    softmax_block<<<ROWS, SM_BLOCK>>>(d_x, d_y);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    softmax_warp_partials<<<ROWS, SM_BLOCK>>>(d_x, d_y);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    layernorm_block<<<ROWS, LN_BLOCK>>>(d_x, d_g, d_b, d_y);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    layernorm_warp<<<ROWS, LN_BLOCK>>>(d_x, d_g, d_b, d_y);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_y));
    CUDA_CHECK(cudaFree(d_g));
    CUDA_CHECK(cudaFree(d_b));
    return 0;
}

/*
 * check-output-start
 * check-output-end
 */
