// Real-code idioms: histogram-style storage seen through other types:
// uint views of uchar arrays, char views of float arrays, a union element,
// struct elements with member arrays, float2/float4 members; and one
// data-dependent shared atomic.
#include "common.cuh"

typedef unsigned int uint;
typedef unsigned char uchar;

#define HV_THREADS 128
#define HV_BINS 64

// Per-thread byte counters, layout [bin][thread]: byte bin * 128 + tid.
// Cleared and summed through a uint view.
__global__ void hv_byte_bins(uint *out)
{
    __shared__ uchar s_cnt[HV_BINS * HV_THREADS];
    uint tid = threadIdx.x;
    for (uint w = tid; w < HV_BINS * HV_THREADS / 4; w += HV_THREADS)
        ((uint *)s_cnt)[w] = 0;
    __syncthreads();
#pragma unroll 1
    for (uint j = 0; j < 8; ++j) {
        uint bin = (tid + j) & (HV_BINS - 1);
        s_cnt[bin * HV_THREADS + tid] += 1;
    }
    __syncthreads();
    if (tid < HV_BINS) {
        uint sum = 0;
#pragma unroll 1
        for (uint k = 0; k < HV_THREADS / 4; ++k) {
            uint w = ((uint *)s_cnt)[tid * (HV_THREADS / 4) + ((k + tid) & 31)];
            sum += (w & 0xffu) + ((w >> 8) & 0xffu) + ((w >> 16) & 0xffu) + (w >> 24);
        }
        out[blockIdx.x * HV_BINS + tid] = sum;
    }
}

// Same counters with the thread's byte spread over the word's lanes:
// byte bin * 128 + ((tid & 31) << 2 | tid >> 5).
__global__ void hv_byte_bins_spread(uint *out)
{
    __shared__ uchar s_cnt2[HV_BINS * HV_THREADS];
    uint tid = threadIdx.x;
    uint pos = ((tid & 31) << 2) | (tid >> 5);
    for (uint w = tid; w < HV_BINS * HV_THREADS / 4; w += HV_THREADS)
        ((uint *)s_cnt2)[w] = 0;
    __syncthreads();
#pragma unroll 1
    for (uint j = 0; j < 8; ++j) {
        uint bin = (tid + j) & (HV_BINS - 1);
        s_cnt2[bin * HV_THREADS + pos] += 1;
    }
    __syncthreads();
    if (tid < HV_BINS) {
        uint sum = 0;
#pragma unroll 1
        for (uint k = 0; k < HV_THREADS / 4; ++k) {
            uint w = ((uint *)s_cnt2)[tid * (HV_THREADS / 4) + ((k + tid) & 31)];
            sum += (w & 0xffu) + ((w >> 8) & 0xffu) + ((w >> 16) & 0xffu) + (w >> 24);
        }
        out[blockIdx.x * HV_BINS + tid] = sum;
    }
}

// Char view of a float array: the top byte of the neighbour's float.
__global__ void hv_float_bytes(const float *in, uint *out)
{
    __shared__ float s_fb[HV_THREADS];
    uint tid = threadIdx.x;
    s_fb[tid] = in[blockIdx.x * HV_THREADS + tid];
    __syncthreads();
    const uchar *bytes = (const uchar *)s_fb;
    out[blockIdx.x * HV_THREADS + tid] = bytes[4 * ((tid + 1) % HV_THREADS) + 3];
}

// Char view of a float array holding 8 floats per thread: byte 3 of
// float 8 * tid.
__global__ void hv_float_bytes_stride(const float *in, uint *out)
{
    __shared__ float s_fb8[HV_THREADS * 8];
    uint tid = threadIdx.x;
    for (uint k = 0; k < 8; ++k)
        s_fb8[k * HV_THREADS + tid] = in[(blockIdx.x * 8 + k) * HV_THREADS + tid];
    __syncthreads();
    const uchar *bytes = (const uchar *)s_fb8;
    out[blockIdx.x * HV_THREADS + tid] = bytes[32 * tid + 3];
}

union Word {
    uint w;
    uchar b[4];
};

// Union elements: whole-word store, a byte store into the own word, a byte
// load from word 2 * tid (mod 128).
__global__ void hv_union_bytes(const uint *in, uint *out)
{
    __shared__ Word s_u[HV_THREADS];
    uint tid = threadIdx.x;
    s_u[tid].w = in[blockIdx.x * HV_THREADS + tid];
    __syncthreads();
    s_u[tid].b[tid & 3] = 0xffu;
    __syncthreads();
    out[blockIdx.x * HV_THREADS + tid] = s_u[(2 * tid) % HV_THREADS].b[3];
}

struct Rec {
    float v[4];
    int tag;
};

struct Quad {
    float v[4];
};

// Member arrays of struct elements: Rec is 20 bytes (5 words), Quad 16.
__global__ void hv_struct_members(const float *in, float *out)
{
    __shared__ Rec s_rec[HV_THREADS];
    __shared__ Quad s_quad[HV_THREADS];
    uint tid = threadIdx.x;
    float x = in[blockIdx.x * HV_THREADS + tid];
    s_rec[tid].v[3] = x;
    s_rec[tid].tag = (int)tid;
    s_quad[tid].v[3] = x;
    s_quad[tid].v[0] = -x;
    __syncthreads();
    uint nb = (tid + 1) % HV_THREADS;
    float r = s_rec[nb].v[3] * (float)s_rec[nb].tag;
    float q = s_quad[nb].v[3] + s_quad[nb].v[0];
    out[blockIdx.x * HV_THREADS + tid] = r + q;
}

// Members of float4 / float2 elements next to whole-element accesses.
__global__ void hv_vector_members(const float *in, float *out)
{
    __shared__ float4 s_f4[HV_THREADS];
    __shared__ float2 s_f2[HV_THREADS];
    uint tid = threadIdx.x;
    float x = in[blockIdx.x * HV_THREADS + tid];
    s_f4[tid] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    s_f2[tid] = make_float2(0.0f, 0.0f);
    __syncthreads();
    s_f4[tid].y = x;
    s_f2[tid].x = x;
    __syncthreads();
    uint nb = (tid + 1) % HV_THREADS;
    float4 a = s_f4[nb];
    float2 b = s_f2[nb];
    out[blockIdx.x * HV_THREADS + tid] = a.x + a.y + a.z + a.w + b.x + b.y;
}

#define HV_NBYTES 4096

// Data-dependent bins: the address comes from the input.
__global__ void hv_atomic_data(const uchar *data, int n, uint *g_hist)
{
    __shared__ uint s_hist[256];
    uint tid = threadIdx.x;
    s_hist[tid] = 0;
    s_hist[tid + HV_THREADS] = 0;
    __syncthreads();
    for (int i = blockIdx.x * HV_THREADS + tid; i < n; i += HV_THREADS * gridDim.x)
        atomicAdd(&s_hist[data[i]], 1u);
    __syncthreads();
    atomicAdd(&g_hist[tid], s_hist[tid]);
    atomicAdd(&g_hist[tid + HV_THREADS], s_hist[tid + HV_THREADS]);
}

int main()
{
    const int blocks = 2;
    const size_t nf = blocks * 8 * HV_THREADS;
    float *d_f, *d_fo;
    uint *d_u, *d_uo;
    uchar *d_data;
    CUDA_CHECK(cudaMalloc(&d_f, nf * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_fo, nf * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_u, nf * sizeof(uint)));
    CUDA_CHECK(cudaMalloc(&d_uo, nf * sizeof(uint)));
    CUDA_CHECK(cudaMalloc(&d_data, HV_NBYTES));
    CUDA_CHECK(cudaMemset(d_f, 0, nf * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_u, 0, nf * sizeof(uint)));
    CUDA_CHECK(cudaMemset(d_uo, 0, nf * sizeof(uint)));
    uchar h_data[HV_NBYTES];
    for (int i = 0; i < HV_NBYTES; ++i)
        h_data[i] = (uchar)(i & 255);
    CUDA_CHECK(cudaMemcpy(d_data, h_data, HV_NBYTES, cudaMemcpyHostToDevice));

    hv_byte_bins<<<blocks, HV_THREADS>>>(d_uo);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    hv_byte_bins_spread<<<blocks, HV_THREADS>>>(d_uo);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    hv_float_bytes<<<blocks, HV_THREADS>>>(d_f, d_uo);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    hv_float_bytes_stride<<<blocks, HV_THREADS>>>(d_f, d_uo);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    hv_union_bytes<<<blocks, HV_THREADS>>>(d_u, d_uo);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    hv_struct_members<<<blocks, HV_THREADS>>>(d_f, d_fo);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    hv_vector_members<<<blocks, HV_THREADS>>>(d_f, d_fo);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    hv_atomic_data<<<blocks, HV_THREADS>>>(d_data, HV_NBYTES, d_uo);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_f));
    CUDA_CHECK(cudaFree(d_fo));
    CUDA_CHECK(cudaFree(d_u));
    CUDA_CHECK(cudaFree(d_uo));
    CUDA_CHECK(cudaFree(d_data));
    return 0;
}

/*
 * check-output-start
 * corpus/idiom_histo_views.cu:25:9: warning: 4-way bank conflict on load and store of 's_cnt' (uchar[8192]) in kernel 'hv_byte_bins' with blockDim (128,1,1) from the launch on line 191; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 129) [bank-conflict]
 *           s_cnt[bin * HV_THREADS + tid] += 1;
 *           ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/idiom_histo_views.cu:17:5: note: 's_cnt' declared here
 * corpus/idiom_histo_views.cu:25:9: note: index 's_cnt' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 0 of 2 conflicting accesses become conflict-free
 * corpus/idiom_histo_views.cu:87:42: warning: 8-way bank conflict on load of 'bytes' (float[1024]) in kernel 'hv_float_bytes_stride' with blockDim (128,1,1) from the launch on line 203; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 3 and 131) [bank-conflict]
 *       out[blockIdx.x * HV_THREADS + tid] = bytes[32 * tid + 3];
 *                                            ^~~~~~~~~~~~~~~~~~~
 * corpus/idiom_histo_views.cu:81:5: note: 's_fb8' declared here
 * corpus/idiom_histo_views.cu:105:42: warning: 2-way bank conflict on load of 's_u' (Word[128]) in kernel 'hv_union_bytes' with blockDim (128,1,1) from the launch on line 207; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 3 and 131) [bank-conflict]
 *       out[blockIdx.x * HV_THREADS + tid] = s_u[(2 * tid) % HV_THREADS].b[3];
 *                                            ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/idiom_histo_views.cu:99:5: note: 's_u' declared here
 * corpus/idiom_histo_views.cu:105:42: note: index 's_u' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * corpus/idiom_histo_views.cu:126:5: warning: 4-way bank conflict on store of 's_quad' (Quad[128]) in kernel 'hv_struct_members' with blockDim (128,1,1) from the launch on line 211; lanes 0 and 8 of warp 0 hit bank 3 (byte offsets 12 and 140) [bank-conflict]
 *       s_quad[tid].v[3] = x;
 *       ^~~~~~~~~~~~~~~~
 * corpus/idiom_histo_views.cu:121:5: note: 's_quad' declared here
 * corpus/idiom_histo_views.cu:127:5: warning: 4-way bank conflict on store of 's_quad' (Quad[128]) in kernel 'hv_struct_members' with blockDim (128,1,1) from the launch on line 211; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s_quad[tid].v[0] = -x;
 *       ^~~~~~~~~~~~~~~~
 * corpus/idiom_histo_views.cu:121:5: note: 's_quad' declared here
 * corpus/idiom_histo_views.cu:131:15: warning: 4-way bank conflict on load of 's_quad' (Quad[128]) in kernel 'hv_struct_members' with blockDim (128,1,1) from the launch on line 211; lanes 0 and 8 of warp 0 hit bank 7 (byte offsets 28 and 156) [bank-conflict]
 *       float q = s_quad[nb].v[3] + s_quad[nb].v[0];
 *                 ^~~~~~~~~~~~~~~
 * corpus/idiom_histo_views.cu:121:5: note: 's_quad' declared here
 * corpus/idiom_histo_views.cu:131:33: warning: 4-way bank conflict on load of 's_quad' (Quad[128]) in kernel 'hv_struct_members' with blockDim (128,1,1) from the launch on line 211; lanes 0 and 8 of warp 0 hit bank 4 (byte offsets 16 and 144) [bank-conflict]
 *       float q = s_quad[nb].v[3] + s_quad[nb].v[0];
 *                                   ^~~~~~~~~~~~~~~
 * corpus/idiom_histo_views.cu:121:5: note: 's_quad' declared here
 * corpus/idiom_histo_views.cu:145:5: warning: 4-way bank conflict on store of 's_f4' (float4[128]) in kernel 'hv_vector_members' with blockDim (128,1,1) from the launch on line 215; lanes 0 and 8 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *       s_f4[tid].y = x;
 *       ^~~~~~~~~~~
 * corpus/idiom_histo_views.cu:138:5: note: 's_f4' declared here
 * corpus/idiom_histo_views.cu:146:5: warning: 2-way bank conflict on store of 's_f2' (float2[128]) in kernel 'hv_vector_members' with blockDim (128,1,1) from the launch on line 215; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s_f2[tid].x = x;
 *       ^~~~~~~~~~~
 * corpus/idiom_histo_views.cu:139:5: note: 's_f2' declared here
 * check-output-end
 */
