// Real-code idioms: helpers whose behaviour depends on the calling context
// (template arguments, their own __shared__ arrays, the caller's guard) and
// ld/st vector helpers.
#include "common.cuh"

#define HC_THREADS 128

// Template helpers: the stride is a template argument.
template <int STRIDE>
__device__ void put_s(float *s, int i, float v)
{
    s[i * STRIDE] = v;
}

template <int STRIDE>
__device__ float get_s(const float *s, int i)
{
    return s[i * STRIDE];
}

// Stride 1 instance; reads the reversed element.
__global__ void hc_tmpl_stride1(const float *in, float *out)
{
    __shared__ float s_t1[HC_THREADS];
    int tid = threadIdx.x;
    put_s<1>(s_t1, tid, in[blockIdx.x * HC_THREADS + tid]);
    __syncthreads();
    out[blockIdx.x * HC_THREADS + tid] = get_s<1>(s_t1, HC_THREADS - 1 - tid);
}

// Stride 8 instance.
__global__ void hc_tmpl_stride8(const float *in, float *out)
{
    __shared__ float s_t8[HC_THREADS * 8];
    int tid = threadIdx.x;
    put_s<8>(s_t8, tid, in[blockIdx.x * HC_THREADS + tid]);
    __syncthreads();
    out[blockIdx.x * HC_THREADS + tid] = get_s<8>(s_t8, HC_THREADS - 1 - tid);
}

// A block-wide sum whose scratch array is declared inside the helper.
__device__ float block_sum(float v)
{
    __shared__ float partial[32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
        partial[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = (lane < (int)(blockDim.x >> 5)) ? partial[lane] : 0.0f;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
    }
    return v;
}

__global__ void hc_block_sum(const float *in, float *out)
{
    float s = block_sum(in[blockIdx.x * HC_THREADS + threadIdx.x]);
    if (threadIdx.x == 0)
        out[blockIdx.x] = s;
}

// A helper with its own array, meant for the lanes named by `mask`: each
// lane stores at 2*idx and reads its partner's slot.
__device__ float pair_swap(float v, int idx, unsigned mask)
{
    __shared__ float s_pairs[64];
    s_pairs[2 * idx] = v;
    __syncwarp(mask);
    float r = s_pairs[2 * (idx ^ 1)];
    return r;
}

// Called by the first 16 lanes of warp 0 only: 16 lanes at stride 2.
__global__ void hc_guard16(const float *in, float *out)
{
    int tid = threadIdx.x;
    float v = in[blockIdx.x * HC_THREADS + tid];
    if (tid < 16)
        v = pair_swap(v, tid, 0x0000ffffu);
    out[blockIdx.x * HC_THREADS + tid] = v;
}

// Called by all of warp 0: 32 lanes at stride 2.
__global__ void hc_guard32(const float *in, float *out)
{
    int tid = threadIdx.x;
    float v = in[blockIdx.x * HC_THREADS + tid];
    if (tid < 32)
        v = pair_swap(v, tid, 0xffffffffu);
    out[blockIdx.x * HC_THREADS + tid] = v;
}

// Vector helpers on a float array.
__device__ void st_vec(float *s, int i, float4 v)
{
    *reinterpret_cast<float4 *>(&s[i]) = v;
}

__device__ float4 ld_vec(const float *s, int i)
{
    return *reinterpret_cast<const float4 *>(&s[i]);
}

#define VEC_THREADS 64

// float4 at consecutive 16-byte slots.
__global__ void hc_vec4_dense(const float4 *in, float4 *out)
{
    __shared__ __align__(16) float s_v1[VEC_THREADS * 4];
    int tid = threadIdx.x;
    st_vec(s_v1, 4 * tid, in[blockIdx.x * VEC_THREADS + tid]);
    __syncthreads();
    out[blockIdx.x * VEC_THREADS + tid] = ld_vec(s_v1, 4 * ((tid + 1) % VEC_THREADS));
}

// float4 slots 32 bytes apart.
__global__ void hc_vec4_stride2(const float4 *in, float4 *out)
{
    __shared__ __align__(16) float s_v2[VEC_THREADS * 8];
    int tid = threadIdx.x;
    st_vec(s_v2, 8 * tid, in[blockIdx.x * VEC_THREADS + tid]);
    __syncthreads();
    out[blockIdx.x * VEC_THREADS + tid] = ld_vec(s_v2, 8 * ((tid + 1) % VEC_THREADS));
}

// float4 slots 128 bytes apart: every lane of a quarter-warp on the same
// four banks.
__global__ void hc_vec4_stride8(const float4 *in, float4 *out)
{
    __shared__ __align__(16) float s_v8[VEC_THREADS * 32];
    int tid = threadIdx.x;
    st_vec(s_v8, 32 * tid, in[blockIdx.x * VEC_THREADS + tid]);
    __syncthreads();
    out[blockIdx.x * VEC_THREADS + tid] = ld_vec(s_v8, 32 * ((tid + 1) % VEC_THREADS));
}

int main()
{
    const int blocks = 2;
    const size_t n = blocks * HC_THREADS;
    float *d_in, *d_out;
    float4 *d_in4, *d_out4;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_in4, blocks * VEC_THREADS * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&d_out4, blocks * VEC_THREADS * sizeof(float4)));
    CUDA_CHECK(cudaMemset(d_in, 0, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_in4, 0, blocks * VEC_THREADS * sizeof(float4)));

    hc_tmpl_stride1<<<blocks, HC_THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    hc_tmpl_stride8<<<blocks, HC_THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    hc_block_sum<<<blocks, HC_THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    hc_guard16<<<blocks, HC_THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    hc_guard32<<<blocks, HC_THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    hc_vec4_dense<<<blocks, VEC_THREADS>>>(d_in4, d_out4);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    hc_vec4_stride2<<<blocks, VEC_THREADS>>>(d_in4, d_out4);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    hc_vec4_stride8<<<blocks, VEC_THREADS>>>(d_in4, d_out4);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_in4));
    CUDA_CHECK(cudaFree(d_out4));
    return 0;
}

/*
 * check-output-start
 * corpus/idiom_helpers_ctx.cu:12:5: warning: 8-way bank conflict on store of 's' (float[1024]) in 'put_s' called from kernel 'hc_tmpl_stride8' at line 36 with blockDim (128,1,1) from the launch on line 158; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[i * STRIDE] = v;
 *       ^~~~~~~~~~~~~
 * corpus/idiom_helpers_ctx.cu:34:5: note: 's_t8' declared here
 * corpus/idiom_helpers_ctx.cu:18:12: warning: 8-way bank conflict on load of 's' (float[1024]) in 'get_s' called from kernel 'hc_tmpl_stride8' at line 38 with blockDim (128,1,1) from the launch on line 158; lanes 0 and 4 of warp 0 hit bank 24 (byte offsets 4064 and 3936) [bank-conflict]
 *       return s[i * STRIDE];
 *              ^~~~~~~~~~~~~
 * corpus/idiom_helpers_ctx.cu:34:5: note: 's_t8' declared here
 * corpus/idiom_helpers_ctx.cu:71:5: warning: 2-way bank conflict on store of 's_pairs' (float[64]) in 'pair_swap' called from kernel 'hc_guard32' at line 93 with blockDim (128,1,1) from the launch on line 170; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s_pairs[2 * idx] = v;
 *       ^~~~~~~~~~~~~~~~
 * corpus/idiom_helpers_ctx.cu:70:5: note: 's_pairs' declared here
 * corpus/idiom_helpers_ctx.cu:71:5: note: index 's_pairs' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/idiom_helpers_ctx.cu:73:15: warning: 2-way bank conflict on load of 's_pairs' (float[64]) in 'pair_swap' called from kernel 'hc_guard32' at line 93 with blockDim (128,1,1) from the launch on line 170; lanes 0 and 16 of warp 0 hit bank 2 (byte offsets 8 and 136) [bank-conflict]
 *       float r = s_pairs[2 * (idx ^ 1)];
 *                 ^~~~~~~~~~~~~~~~~~~~~~
 * corpus/idiom_helpers_ctx.cu:70:5: note: 's_pairs' declared here
 * corpus/idiom_helpers_ctx.cu:73:15: note: index 's_pairs' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/idiom_helpers_ctx.cu:100:5: warning: 2-way bank conflict on store of 's_v2' (float[512]) in 'st_vec' called from kernel 'hc_vec4_stride2' at line 125 with blockDim (64,1,1) from the launch on line 178; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       *reinterpret_cast<float4 *>(&s[i]) = v;
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/idiom_helpers_ctx.cu:123:5: note: 's_v2' declared here
 * corpus/idiom_helpers_ctx.cu:100:5: warning: 8-way bank conflict on store of 's_v8' (float[2048]) in 'st_vec' called from kernel 'hc_vec4_stride8' at line 136 with blockDim (64,1,1) from the launch on line 182; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       *reinterpret_cast<float4 *>(&s[i]) = v;
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/idiom_helpers_ctx.cu:134:5: note: 's_v8' declared here
 * corpus/idiom_helpers_ctx.cu:105:12: warning: 2-way bank conflict on load of 's_v2' (float[512]) in 'ld_vec' called from kernel 'hc_vec4_stride2' at line 127 with blockDim (64,1,1) from the launch on line 178; lanes 0 and 4 of warp 0 hit bank 8 (byte offsets 32 and 160) [bank-conflict]
 *       return *reinterpret_cast<const float4 *>(&s[i]);
 *              ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/idiom_helpers_ctx.cu:123:5: note: 's_v2' declared here
 * corpus/idiom_helpers_ctx.cu:105:12: warning: 8-way bank conflict on load of 's_v8' (float[2048]) in 'ld_vec' called from kernel 'hc_vec4_stride8' at line 138 with blockDim (64,1,1) from the launch on line 182; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 128 and 256) [bank-conflict]
 *       return *reinterpret_cast<const float4 *>(&s[i]);
 *              ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/idiom_helpers_ctx.cu:134:5: note: 's_v8' declared here
 * check-output-end
 */
