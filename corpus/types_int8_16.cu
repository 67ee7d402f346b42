// short and char shared arrays: sub-word elements, bank = word % 32.
#include "common.cuh"

#define IBLOCK 64

__global__ void short_stride1(const short *in, short *out)
{
    __shared__ short s[IBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * IBLOCK + tid;
    s[tid] = in[i];
    __syncthreads();
    out[i] = s[IBLOCK - 1 - tid] + 1;
}

__global__ void short_stride32(const short *in, short *out)
{
    __shared__ short s[32 * IBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * IBLOCK + tid;
    s[32 * tid] = in[i];
    __syncthreads();
    out[i] = s[32 * tid] + 1;
}

__global__ void short_stride64(const short *in, short *out)
{
    __shared__ short s[64 * IBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * IBLOCK + tid;
    s[64 * tid] = in[i];
    __syncthreads();
    out[i] = s[64 * tid] + 1;
}

__global__ void char_stride1(const char *in, char *out)
{
    __shared__ char c[IBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * IBLOCK + tid;
    c[tid] = in[i];
    __syncthreads();
    out[i] = c[IBLOCK - 1 - tid];
}

// 4 chars apart = one word apart: conflict-free.
__global__ void char_stride4(const char *in, char *out)
{
    __shared__ char c[4 * IBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * IBLOCK + tid;
    c[4 * tid] = in[i];
    __syncthreads();
    out[i] = c[4 * tid] ^ 0x5a;
}

__global__ void char_stride8(const char *in, char *out)
{
    __shared__ char c[8 * IBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * IBLOCK + tid;
    c[8 * tid] = in[i];
    __syncthreads();
    out[i] = c[8 * tid] ^ 0x5a;
}

__global__ void char_stride128(const char *in, char *out)
{
    __shared__ char c[128 * IBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * IBLOCK + tid;
    c[128 * tid] = in[i];
    __syncthreads();
    out[i] = c[128 * tid] ^ 0x5a;
}

int main()
{
    const int blocks = 2;
    short *d_sin, *d_sout;
    char *d_cin, *d_cout;
    CUDA_CHECK(cudaMalloc(&d_sin, blocks * IBLOCK * sizeof(short)));
    CUDA_CHECK(cudaMalloc(&d_sout, blocks * IBLOCK * sizeof(short)));
    CUDA_CHECK(cudaMalloc(&d_cin, blocks * IBLOCK));
    CUDA_CHECK(cudaMalloc(&d_cout, blocks * IBLOCK));
    CUDA_CHECK(cudaMemset(d_sin, 0, blocks * IBLOCK * sizeof(short)));
    CUDA_CHECK(cudaMemset(d_cin, 0, blocks * IBLOCK));

    short_stride1<<<blocks, IBLOCK>>>(d_sin, d_sout);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    short_stride32<<<blocks, IBLOCK>>>(d_sin, d_sout);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    short_stride64<<<blocks, IBLOCK>>>(d_sin, d_sout);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    char_stride1<<<blocks, IBLOCK>>>(d_cin, d_cout);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    char_stride4<<<blocks, IBLOCK>>>(d_cin, d_cout);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    char_stride8<<<blocks, IBLOCK>>>(d_cin, d_cout);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    char_stride128<<<blocks, IBLOCK>>>(d_cin, d_cout);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_sin));
    CUDA_CHECK(cudaFree(d_sout));
    CUDA_CHECK(cudaFree(d_cin));
    CUDA_CHECK(cudaFree(d_cout));
    return 0;
}

/*
 * check-output-start
 * corpus/types_int8_16.cu:21:5: warning: 16-way bank conflict on store of 's' (short[2048]) in kernel 'short_stride32' with blockDim (64,1,1) from the launch on line 93; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[32 * tid] = in[i];
 *       ^~~~~~~~~~~
 * corpus/types_int8_16.cu:18:5: note: 's' declared here
 * corpus/types_int8_16.cu:21:5: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/types_int8_16.cu:23:14: warning: 16-way bank conflict on load of 's' (short[2048]) in kernel 'short_stride32' with blockDim (64,1,1) from the launch on line 93; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[i] = s[32 * tid] + 1;
 *                ^~~~~~~~~~~
 * corpus/types_int8_16.cu:18:5: note: 's' declared here
 * corpus/types_int8_16.cu:23:14: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/types_int8_16.cu:31:5: warning: 32-way bank conflict on store of 's' (short[4096]) in kernel 'short_stride64' with blockDim (64,1,1) from the launch on line 97; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[64 * tid] = in[i];
 *       ^~~~~~~~~~~
 * corpus/types_int8_16.cu:28:5: note: 's' declared here
 * corpus/types_int8_16.cu:31:5: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/types_int8_16.cu:33:14: warning: 32-way bank conflict on load of 's' (short[4096]) in kernel 'short_stride64' with blockDim (64,1,1) from the launch on line 97; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[i] = s[64 * tid] + 1;
 *                ^~~~~~~~~~~
 * corpus/types_int8_16.cu:28:5: note: 's' declared here
 * corpus/types_int8_16.cu:33:14: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/types_int8_16.cu:62:5: warning: 2-way bank conflict on store of 'c' (char[512]) in kernel 'char_stride8' with blockDim (64,1,1) from the launch on line 109; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       c[8 * tid] = in[i];
 *       ^~~~~~~~~~
 * corpus/types_int8_16.cu:59:5: note: 'c' declared here
 * corpus/types_int8_16.cu:62:5: note: index 'c' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/types_int8_16.cu:64:14: warning: 2-way bank conflict on load of 'c' (char[512]) in kernel 'char_stride8' with blockDim (64,1,1) from the launch on line 109; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[i] = c[8 * tid] ^ 0x5a;
 *                ^~~~~~~~~~
 * corpus/types_int8_16.cu:59:5: note: 'c' declared here
 * corpus/types_int8_16.cu:64:14: note: index 'c' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/types_int8_16.cu:72:5: warning: 32-way bank conflict on store of 'c' (char[8192]) in kernel 'char_stride128' with blockDim (64,1,1) from the launch on line 113; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       c[128 * tid] = in[i];
 *       ^~~~~~~~~~~~
 * corpus/types_int8_16.cu:69:5: note: 'c' declared here
 * corpus/types_int8_16.cu:72:5: note: index 'c' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/types_int8_16.cu:74:14: warning: 32-way bank conflict on load of 'c' (char[8192]) in kernel 'char_stride128' with blockDim (64,1,1) from the launch on line 113; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[i] = c[128 * tid] ^ 0x5a;
 *                ^~~~~~~~~~~~
 * corpus/types_int8_16.cu:69:5: note: 'c' declared here
 * corpus/types_int8_16.cu:74:14: note: index 'c' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * check-output-end
 */
