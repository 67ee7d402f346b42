// Strided shared-memory access micro-kernels: thread tid touches word
// K * tid of a float array (one 64-thread block = 2 warps per launch).
#include "common.cuh"

#define SBLOCK 64

__global__ void stride1(const float *in, float *out)
{
    __shared__ float s[SBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * SBLOCK + tid;
    s[tid] = in[i];
    __syncthreads();
    out[i] = s[tid] * 2.0f;
}

__global__ void stride2(const float *in, float *out)
{
    __shared__ float s[SBLOCK * 2];
    int tid = threadIdx.x;
    int i = blockIdx.x * SBLOCK + tid;
    s[2 * tid] = in[i];
    __syncthreads();
    out[i] = s[2 * tid] * 2.0f;
}

__global__ void stride3(const float *in, float *out)
{
    __shared__ float s[SBLOCK * 3];
    int tid = threadIdx.x;
    int i = blockIdx.x * SBLOCK + tid;
    s[3 * tid] = in[i];
    __syncthreads();
    out[i] = s[3 * tid] * 2.0f;
}

__global__ void stride4(const float *in, float *out)
{
    __shared__ float s[SBLOCK * 4];
    int tid = threadIdx.x;
    int i = blockIdx.x * SBLOCK + tid;
    s[4 * tid] = in[i];
    __syncthreads();
    out[i] = s[4 * tid] * 2.0f;
}

__global__ void stride8(const float *in, float *out)
{
    __shared__ float s[SBLOCK * 8];
    int tid = threadIdx.x;
    int i = blockIdx.x * SBLOCK + tid;
    s[8 * tid] = in[i];
    __syncthreads();
    out[i] = s[8 * tid] * 2.0f;
}

__global__ void stride16(const float *in, float *out)
{
    __shared__ float s[SBLOCK * 16];
    int tid = threadIdx.x;
    int i = blockIdx.x * SBLOCK + tid;
    s[16 * tid] = in[i];
    __syncthreads();
    out[i] = s[16 * tid] * 2.0f;
}

__global__ void stride32(const float *in, float *out)
{
    __shared__ float s[SBLOCK * 32];
    int tid = threadIdx.x;
    int i = blockIdx.x * SBLOCK + tid;
    s[32 * tid] = in[i];
    __syncthreads();
    out[i] = s[32 * tid] * 2.0f;
}

__global__ void stride33(const float *in, float *out)
{
    __shared__ float s[SBLOCK * 33];
    int tid = threadIdx.x;
    int i = blockIdx.x * SBLOCK + tid;
    s[33 * tid] = in[i];
    __syncthreads();
    out[i] = s[33 * tid] * 2.0f;
}

// Pairs of threads read the same word: multicast, no conflict.
__global__ void multicast_half(const float *in, float *out)
{
    __shared__ float s[SBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * SBLOCK + tid;
    s[tid] = in[i];
    __syncthreads();
    out[i] = s[tid / 2];
}

// Every thread reads word 0: broadcast.
__global__ void broadcast0(const float *in, float *out)
{
    __shared__ float s[SBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * SBLOCK + tid;
    if (tid == 0)
        s[0] = in[blockIdx.x];
    __syncthreads();
    out[i] = s[0] + in[i];
}

int main()
{
    const int blocks = 2;
    const size_t bytes = blocks * SBLOCK * sizeof(float);
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    CUDA_CHECK(cudaMemset(d_in, 0, bytes));


    stride1<<<blocks, SBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());


    stride2<<<blocks, SBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());


    stride3<<<blocks, SBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());


    stride4<<<blocks, SBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());


    stride8<<<blocks, SBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());


    stride16<<<blocks, SBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());


    stride32<<<blocks, SBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());


    stride33<<<blocks, SBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());


    multicast_half<<<blocks, SBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());


    broadcast0<<<blocks, SBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());


    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return 0;
}

/*
 * check-output-start
 * corpus/strides.cu:22:5: warning: 2-way bank conflict on store of 's' (float[128]) in kernel 'stride2' with blockDim (64,1,1) from the launch on line 125; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[2 * tid] = in[i];
 *       ^~~~~~~~~~
 * corpus/strides.cu:19:5: note: 's' declared here
 * corpus/strides.cu:22:5: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/strides.cu:24:14: warning: 2-way bank conflict on load of 's' (float[128]) in kernel 'stride2' with blockDim (64,1,1) from the launch on line 125; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[i] = s[2 * tid] * 2.0f;
 *                ^~~~~~~~~~
 * corpus/strides.cu:19:5: note: 's' declared here
 * corpus/strides.cu:24:14: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/strides.cu:42:5: warning: 4-way bank conflict on store of 's' (float[256]) in kernel 'stride4' with blockDim (64,1,1) from the launch on line 135; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[4 * tid] = in[i];
 *       ^~~~~~~~~~
 * corpus/strides.cu:39:5: note: 's' declared here
 * corpus/strides.cu:42:5: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/strides.cu:44:14: warning: 4-way bank conflict on load of 's' (float[256]) in kernel 'stride4' with blockDim (64,1,1) from the launch on line 135; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[i] = s[4 * tid] * 2.0f;
 *                ^~~~~~~~~~
 * corpus/strides.cu:39:5: note: 's' declared here
 * corpus/strides.cu:44:14: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/strides.cu:52:5: warning: 8-way bank conflict on store of 's' (float[512]) in kernel 'stride8' with blockDim (64,1,1) from the launch on line 140; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[8 * tid] = in[i];
 *       ^~~~~~~~~~
 * corpus/strides.cu:49:5: note: 's' declared here
 * corpus/strides.cu:52:5: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/strides.cu:54:14: warning: 8-way bank conflict on load of 's' (float[512]) in kernel 'stride8' with blockDim (64,1,1) from the launch on line 140; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[i] = s[8 * tid] * 2.0f;
 *                ^~~~~~~~~~
 * corpus/strides.cu:49:5: note: 's' declared here
 * corpus/strides.cu:54:14: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/strides.cu:62:5: warning: 16-way bank conflict on store of 's' (float[1024]) in kernel 'stride16' with blockDim (64,1,1) from the launch on line 145; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[16 * tid] = in[i];
 *       ^~~~~~~~~~~
 * corpus/strides.cu:59:5: note: 's' declared here
 * corpus/strides.cu:62:5: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/strides.cu:64:14: warning: 16-way bank conflict on load of 's' (float[1024]) in kernel 'stride16' with blockDim (64,1,1) from the launch on line 145; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[i] = s[16 * tid] * 2.0f;
 *                ^~~~~~~~~~~
 * corpus/strides.cu:59:5: note: 's' declared here
 * corpus/strides.cu:64:14: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/strides.cu:72:5: warning: 32-way bank conflict on store of 's' (float[2048]) in kernel 'stride32' with blockDim (64,1,1) from the launch on line 150; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[32 * tid] = in[i];
 *       ^~~~~~~~~~~
 * corpus/strides.cu:69:5: note: 's' declared here
 * corpus/strides.cu:72:5: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/strides.cu:74:14: warning: 32-way bank conflict on load of 's' (float[2048]) in kernel 'stride32' with blockDim (64,1,1) from the launch on line 150; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[i] = s[32 * tid] * 2.0f;
 *                ^~~~~~~~~~~
 * corpus/strides.cu:69:5: note: 's' declared here
 * corpus/strides.cu:74:14: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * check-output-end
 */
