// Half-precision shared arrays (2-byte elements; two per bank word).
#include <cuda_fp16.h>
#include "common.cuh"

#define HBLOCK 64

// Neighbouring lanes share a word: no conflict.
__global__ void half_stride1(const __half *in, __half *out)
{
    __shared__ __half h[HBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * HBLOCK + tid;
    h[tid] = in[i];
    __syncthreads();
    out[i] = __hadd(h[tid], h[HBLOCK - 1 - tid]);
}

// Stride 2 halves = 1 word: still one word per lane, conflict-free.
__global__ void half_stride2(const __half *in, __half *out)
{
    __shared__ half h[2 * HBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * HBLOCK + tid;
    h[2 * tid] = in[i];
    __syncthreads();
    out[i] = h[2 * tid];
}

// Stride 64 halves = 32 words: every lane on the same bank.
__global__ void half_stride64(const half *in, float *out)
{
    __shared__ half h[64 * HBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * HBLOCK + tid;
    h[64 * tid] = in[i];
    __syncthreads();
    out[i] = __half2float(h[64 * tid]);
}

// half2 (4-byte) elements, stride 16: two banks in use.
__global__ void half2_stride16(const __half2 *in, __half2 *out)
{
    __shared__ __half2 h2[16 * HBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * HBLOCK + tid;
    h2[16 * tid] = in[i];
    __syncthreads();
    __half2 v = h2[16 * tid];
    out[i] = __hmul2(v, v);
}

int main()
{
    const int blocks = 2;
    __half *d_in, *d_out;
    __half2 *d_in2, *d_out2;
    float *d_f;
    CUDA_CHECK(cudaMalloc(&d_in, blocks * HBLOCK * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&d_out, blocks * HBLOCK * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&d_in2, blocks * HBLOCK * sizeof(__half2)));
    CUDA_CHECK(cudaMalloc(&d_out2, blocks * HBLOCK * sizeof(__half2)));
    CUDA_CHECK(cudaMalloc(&d_f, blocks * HBLOCK * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_in, 0, blocks * HBLOCK * sizeof(__half)));
    CUDA_CHECK(cudaMemset(d_in2, 0, blocks * HBLOCK * sizeof(__half2)));

    half_stride1<<<blocks, HBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    half_stride2<<<blocks, HBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    half_stride64<<<blocks, HBLOCK>>>(d_in, d_f);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    half2_stride16<<<blocks, HBLOCK>>>(d_in2, d_out2);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_in2));
    CUDA_CHECK(cudaFree(d_out2));
    CUDA_CHECK(cudaFree(d_f));
    return 0;
}

/*
 * check-output-start
 * corpus/types_half.cu:35:5: warning: 32-way bank conflict on store of 'h' (half[4096]) in kernel 'half_stride64' with blockDim (64,1,1) from the launch on line 74; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       h[64 * tid] = in[i];
 *       ^~~~~~~~~~~
 * corpus/types_half.cu:32:5: note: 'h' declared here
 * corpus/types_half.cu:35:5: note: index 'h' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/types_half.cu:37:27: warning: 32-way bank conflict on load of 'h' (half[4096]) in kernel 'half_stride64' with blockDim (64,1,1) from the launch on line 74; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[i] = __half2float(h[64 * tid]);
 *                             ^~~~~~~~~~~
 * corpus/types_half.cu:32:5: note: 'h' declared here
 * corpus/types_half.cu:37:27: note: index 'h' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/types_half.cu:46:5: warning: 16-way bank conflict on store of 'h2' (__half2[1024]) in kernel 'half2_stride16' with blockDim (64,1,1) from the launch on line 78; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       h2[16 * tid] = in[i];
 *       ^~~~~~~~~~~~
 * corpus/types_half.cu:43:5: note: 'h2' declared here
 * corpus/types_half.cu:46:5: note: index 'h2' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/types_half.cu:48:17: warning: 16-way bank conflict on load of 'h2' (__half2[1024]) in kernel 'half2_stride16' with blockDim (64,1,1) from the launch on line 78; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       __half2 v = h2[16 * tid];
 *                   ^~~~~~~~~~~~
 * corpus/types_half.cu:43:5: note: 'h2' declared here
 * corpus/types_half.cu:48:17: note: index 'h2' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * check-output-end
 */
