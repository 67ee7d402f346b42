// Vector element types: whole float2 (8-byte) and float4 (16-byte)
// shared loads/stores.
#include "common.cuh"

#define VBLOCK 64

__global__ void float2_stride1(const float2 *in, float2 *out)
{
    __shared__ float2 v[VBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * VBLOCK + tid;
    v[tid] = in[i];
    __syncthreads();
    float2 a = v[VBLOCK - 1 - tid];
    out[i] = make_float2(a.y, a.x);
}

__global__ void float2_stride2(const float2 *in, float2 *out)
{
    __shared__ float2 v[2 * VBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * VBLOCK + tid;
    v[2 * tid] = in[i];
    __syncthreads();
    float2 a = v[2 * tid];
    out[i] = make_float2(a.y, a.x);
}

__global__ void float4_stride1(const float4 *in, float4 *out)
{
    __shared__ float4 v[VBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * VBLOCK + tid;
    v[tid] = in[i];
    __syncthreads();
    float4 a = v[VBLOCK - 1 - tid];
    out[i] = make_float4(a.w, a.z, a.y, a.x);
}

__global__ void float4_stride2(const float4 *in, float4 *out)
{
    __shared__ float4 v[2 * VBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * VBLOCK + tid;
    v[2 * tid] = in[i];
    __syncthreads();
    float4 a = v[2 * tid];
    out[i] = make_float4(a.w, a.z, a.y, a.x);
}

__global__ void float4_stride4(const float4 *in, float4 *out)
{
    __shared__ float4 v[4 * VBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * VBLOCK + tid;
    v[4 * tid] = in[i];
    __syncthreads();
    float4 a = v[4 * tid];
    out[i] = make_float4(a.w, a.z, a.y, a.x);
}

int main()
{
    const int blocks = 2;
    float2 *d_in2, *d_out2;
    float4 *d_in4, *d_out4;
    CUDA_CHECK(cudaMalloc(&d_in2, blocks * VBLOCK * sizeof(float2)));
    CUDA_CHECK(cudaMalloc(&d_out2, blocks * VBLOCK * sizeof(float2)));
    CUDA_CHECK(cudaMalloc(&d_in4, blocks * VBLOCK * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&d_out4, blocks * VBLOCK * sizeof(float4)));
    CUDA_CHECK(cudaMemset(d_in2, 0, blocks * VBLOCK * sizeof(float2)));
    CUDA_CHECK(cudaMemset(d_in4, 0, blocks * VBLOCK * sizeof(float4)));

    float2_stride1<<<blocks, VBLOCK>>>(d_in2, d_out2);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    float2_stride2<<<blocks, VBLOCK>>>(d_in2, d_out2);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    float4_stride1<<<blocks, VBLOCK>>>(d_in4, d_out4);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    float4_stride2<<<blocks, VBLOCK>>>(d_in4, d_out4);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    float4_stride4<<<blocks, VBLOCK>>>(d_in4, d_out4);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_in2));
    CUDA_CHECK(cudaFree(d_out2));
    CUDA_CHECK(cudaFree(d_in4));
    CUDA_CHECK(cudaFree(d_out4));
    return 0;
}

/*
 * check-output-start
 * corpus/vector.cu:23:5: warning: 2-way bank conflict on store of 'v' (float2[128]) in kernel 'float2_stride2' with blockDim (64,1,1) from the launch on line 78; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       v[2 * tid] = in[i];
 *       ^~~~~~~~~~
 * corpus/vector.cu:20:5: note: 'v' declared here
 * corpus/vector.cu:25:16: warning: 2-way bank conflict on load of 'v' (float2[128]) in kernel 'float2_stride2' with blockDim (64,1,1) from the launch on line 78; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       float2 a = v[2 * tid];
 *                  ^~~~~~~~~~
 * corpus/vector.cu:20:5: note: 'v' declared here
 * corpus/vector.cu:45:5: warning: 2-way bank conflict on store of 'v' (float4[128]) in kernel 'float4_stride2' with blockDim (64,1,1) from the launch on line 86; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       v[2 * tid] = in[i];
 *       ^~~~~~~~~~
 * corpus/vector.cu:42:5: note: 'v' declared here
 * corpus/vector.cu:47:16: warning: 2-way bank conflict on load of 'v' (float4[128]) in kernel 'float4_stride2' with blockDim (64,1,1) from the launch on line 86; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       float4 a = v[2 * tid];
 *                  ^~~~~~~~~~
 * corpus/vector.cu:42:5: note: 'v' declared here
 * corpus/vector.cu:56:5: warning: 4-way bank conflict on store of 'v' (float4[256]) in kernel 'float4_stride4' with blockDim (64,1,1) from the launch on line 90; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       v[4 * tid] = in[i];
 *       ^~~~~~~~~~
 * corpus/vector.cu:53:5: note: 'v' declared here
 * corpus/vector.cu:58:16: warning: 4-way bank conflict on load of 'v' (float4[256]) in kernel 'float4_stride4' with blockDim (64,1,1) from the launch on line 90; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       float4 a = v[4 * tid];
 *                  ^~~~~~~~~~
 * corpus/vector.cu:53:5: note: 'v' declared here
 * check-output-end
 */
