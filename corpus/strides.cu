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

/* smemlint-expect
 * 22 bank-conflict s 2
 * 24 bank-conflict s 2
 * 42 bank-conflict s 4
 * 44 bank-conflict s 4
 * 52 bank-conflict s 8
 * 54 bank-conflict s 8
 * 62 bank-conflict s 16
 * 64 bank-conflict s 16
 * 72 bank-conflict s 32
 * 74 bank-conflict s 32
 */
