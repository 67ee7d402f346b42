// Real-code idioms: Walsh-Hadamard and Haar butterflies whose shared
// indices come from shifted loop variables, wrapped positions, and a loop
// that starts where the previous one stopped.
#include "common.cuh"

#define BF_N 256
#define BF_THREADS (BF_N / 2)

// Radix-2 fast Walsh-Hadamard transform, stride halving from N/2 to 1.
__global__ void bf_fwt_radix2(const float *in, float *out)
{
    __shared__ float s_w[BF_N];
    int tid = threadIdx.x;
    const float *src = in + blockIdx.x * BF_N;
    s_w[tid] = src[tid];
    s_w[tid + BF_THREADS] = src[tid + BF_THREADS];
    for (int stride = BF_N >> 1; stride > 0; stride >>= 1) {
        __syncthreads();
        int pos = 2 * tid - (tid & (stride - 1));
        float a = s_w[pos];
        float b = s_w[pos + stride];
        s_w[pos] = a + b;
        s_w[pos + stride] = a - b;
    }
    __syncthreads();
    out[blockIdx.x * BF_N + tid] = s_w[tid];
    out[blockIdx.x * BF_N + tid + BF_THREADS] = s_w[tid + BF_THREADS];
}

// Multi-level Haar transform in place: at each level the active threads
// halve and each one's pair start doubles (i0 <<= 1 under the guard).
__global__ void bf_haar_levels(const float *in, float *out)
{
    __shared__ float s_h[BF_N];
    int tid = threadIdx.x;
    const float *src = in + blockIdx.x * BF_N;
    s_h[tid] = src[tid];
    s_h[tid + BF_THREADS] = src[tid + BF_THREADS];
    __syncthreads();
    int i0 = 2 * tid;
    int half = 1;
    for (int n = BF_N / 2; n > 0; n >>= 1) {
        if (tid < n) {
            float a = s_h[i0];
            float b = s_h[i0 + half];
            s_h[i0] = 0.5f * (a + b);
            s_h[i0 + half] = 0.5f * (a - b);
            i0 <<= 1;
        }
        half <<= 1;
        __syncthreads();
    }
    out[blockIdx.x * BF_N + tid] = s_h[tid];
    out[blockIdx.x * BF_N + tid + BF_THREADS] = s_h[tid + BF_THREADS];
}

#define RING 64
#define RING_THREADS 64

// Sliding sum over a 64-word ring: the position advances by 4 and wraps
// with & 63; threads start at (4 * tid) & 63.
__global__ void bf_ring_wrap4(const float *in, float *out)
{
    __shared__ float s_ring[RING];
    int tid = threadIdx.x;
    s_ring[tid] = in[blockIdx.x * RING + tid];
    __syncthreads();
    int pos = (4 * tid) & (RING - 1);
    float acc = 0.0f;
#pragma unroll 1
    for (int it = 0; it < 16; ++it) {
        acc += s_ring[pos];
        pos = (pos + 4) & (RING - 1);
    }
    out[blockIdx.x * RING_THREADS + tid] = acc;
}

// Same ring with threads starting at their own index.
__global__ void bf_ring_wrap1(const float *in, float *out)
{
    __shared__ float s_ring1[RING];
    int tid = threadIdx.x;
    s_ring1[tid] = in[blockIdx.x * RING + tid];
    __syncthreads();
    int pos = tid & (RING - 1);
    float acc = 0.0f;
#pragma unroll 1
    for (int it = 0; it < 16; ++it) {
        acc += s_ring1[pos];
        pos = (pos + 4) & (RING - 1);
    }
    out[blockIdx.x * RING_THREADS + tid] = acc;
}

#define FW_N 128
#define FW_THREADS (FW_N / 2)

// Walsh-Hadamard with the strides split into two loops: strides 1..16 stay
// inside each warp's 64 elements (__syncwarp), the second loop continues
// from the first one's exit value (32, 64) with __syncthreads.
__global__ void bf_fwt_two_loops(const float *in, float *out)
{
    __shared__ float s_f[FW_N];
    int tid = threadIdx.x;
    const float *src = in + blockIdx.x * FW_N;
    s_f[tid] = src[tid];
    s_f[tid + FW_THREADS] = src[tid + FW_THREADS];
    __syncthreads();
    int stride = 1;
    for (; stride < 32; stride <<= 1) {
        int pos = 2 * tid - (tid & (stride - 1));
        float a = s_f[pos];
        float b = s_f[pos + stride];
        s_f[pos] = a + b;
        s_f[pos + stride] = a - b;
        __syncwarp();
    }
    __syncthreads();
    for (; stride < FW_N; stride <<= 1) {
        int pos = 2 * tid - (tid & (stride - 1));
        float a = s_f[pos];
        float b = s_f[pos + stride];
        s_f[pos] = a + b;
        s_f[pos + stride] = a - b;
        __syncthreads();
    }
    out[blockIdx.x * FW_N + tid] = s_f[tid];
    out[blockIdx.x * FW_N + tid + FW_THREADS] = s_f[tid + FW_THREADS];
}

int main()
{
    const int blocks = 2;
    const size_t n = blocks * BF_N;
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_in, 0, n * sizeof(float)));

    bf_fwt_radix2<<<blocks, BF_THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    bf_haar_levels<<<blocks, BF_THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    bf_ring_wrap4<<<blocks, RING_THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    bf_ring_wrap1<<<blocks, RING_THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    bf_fwt_two_loops<<<blocks, FW_THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return 0;
}

/*
 * check-output-start
 * corpus/idiom_butterfly.cu:20:19: warning: 2-way bank conflict on load of 's_w' (float[256]) in kernel 'bf_fwt_radix2' with blockDim (128,1,1) from the launch on line 140, worst when stride = 16 (mean 1.62-way over the iterations); lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           float a = s_w[pos];
 *                     ^~~~~~~~
 * corpus/idiom_butterfly.cu:12:5: note: 's_w' declared here
 * corpus/idiom_butterfly.cu:21:19: warning: 2-way bank conflict on load of 's_w' (float[256]) in kernel 'bf_fwt_radix2' with blockDim (128,1,1) from the launch on line 140, worst when stride = 16 (mean 1.62-way over the iterations); lanes 0 and 16 of warp 0 hit bank 16 (byte offsets 64 and 192) [bank-conflict]
 *           float b = s_w[pos + stride];
 *                     ^~~~~~~~~~~~~~~~~
 * corpus/idiom_butterfly.cu:12:5: note: 's_w' declared here
 * corpus/idiom_butterfly.cu:22:9: warning: 2-way bank conflict on store of 's_w' (float[256]) in kernel 'bf_fwt_radix2' with blockDim (128,1,1) from the launch on line 140, worst when stride = 16 (mean 1.62-way over the iterations); lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           s_w[pos] = a + b;
 *           ^~~~~~~~
 * corpus/idiom_butterfly.cu:12:5: note: 's_w' declared here
 * corpus/idiom_butterfly.cu:23:9: warning: 2-way bank conflict on store of 's_w' (float[256]) in kernel 'bf_fwt_radix2' with blockDim (128,1,1) from the launch on line 140, worst when stride = 16 (mean 1.62-way over the iterations); lanes 0 and 16 of warp 0 hit bank 16 (byte offsets 64 and 192) [bank-conflict]
 *           s_w[pos + stride] = a - b;
 *           ^~~~~~~~~~~~~~~~~
 * corpus/idiom_butterfly.cu:12:5: note: 's_w' declared here
 * corpus/idiom_butterfly.cu:44:23: warning: 8-way bank conflict on load of 's_h' (float[256]) in kernel 'bf_haar_levels' with blockDim (128,1,1) from the launch on line 144, worst when half = 4 (mean 3.92-way over the iterations); lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *               float a = s_h[i0];
 *                         ^~~~~~~
 * corpus/idiom_butterfly.cu:34:5: note: 's_h' declared here
 * corpus/idiom_butterfly.cu:44:23: note: index 's_h' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 4 of 4 conflicting accesses become conflict-free
 * corpus/idiom_butterfly.cu:45:23: warning: 8-way bank conflict on load of 's_h' (float[256]) in kernel 'bf_haar_levels' with blockDim (128,1,1) from the launch on line 144, worst when half = 4 (mean 3.92-way over the iterations); lanes 0 and 4 of warp 0 hit bank 4 (byte offsets 16 and 144) [bank-conflict]
 *               float b = s_h[i0 + half];
 *                         ^~~~~~~~~~~~~~
 * corpus/idiom_butterfly.cu:34:5: note: 's_h' declared here
 * corpus/idiom_butterfly.cu:45:23: note: index 's_h' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 4 of 4 conflicting accesses become conflict-free
 * corpus/idiom_butterfly.cu:46:13: warning: 8-way bank conflict on store of 's_h' (float[256]) in kernel 'bf_haar_levels' with blockDim (128,1,1) from the launch on line 144, worst when half = 4 (mean 3.92-way over the iterations); lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *               s_h[i0] = 0.5f * (a + b);
 *               ^~~~~~~
 * corpus/idiom_butterfly.cu:34:5: note: 's_h' declared here
 * corpus/idiom_butterfly.cu:46:13: note: index 's_h' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 4 of 4 conflicting accesses become conflict-free
 * corpus/idiom_butterfly.cu:47:13: warning: 8-way bank conflict on store of 's_h' (float[256]) in kernel 'bf_haar_levels' with blockDim (128,1,1) from the launch on line 144, worst when half = 4 (mean 3.92-way over the iterations); lanes 0 and 4 of warp 0 hit bank 4 (byte offsets 16 and 144) [bank-conflict]
 *               s_h[i0 + half] = 0.5f * (a - b);
 *               ^~~~~~~~~~~~~~
 * corpus/idiom_butterfly.cu:34:5: note: 's_h' declared here
 * corpus/idiom_butterfly.cu:47:13: note: index 's_h' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 4 of 4 conflicting accesses become conflict-free
 * corpus/idiom_butterfly.cu:72:16: warning: 2-way bank conflict on load of 's_ring' (float[64]) in kernel 'bf_ring_wrap4' with blockDim (64,1,1) from the launch on line 148; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           acc += s_ring[pos];
 *                  ^~~~~~~~~~~
 * corpus/idiom_butterfly.cu:64:5: note: 's_ring' declared here
 * corpus/idiom_butterfly.cu:72:16: note: index 's_ring' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * corpus/idiom_butterfly.cu:112:19: warning: 2-way bank conflict on load of 's_f' (float[128]) in kernel 'bf_fwt_two_loops' with blockDim (64,1,1) from the launch on line 156; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           float a = s_f[pos];
 *                     ^~~~~~~~
 * corpus/idiom_butterfly.cu:103:5: note: 's_f' declared here
 * corpus/idiom_butterfly.cu:113:19: warning: 2-way bank conflict on load of 's_f' (float[128]) in kernel 'bf_fwt_two_loops' with blockDim (64,1,1) from the launch on line 156; lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *           float b = s_f[pos + stride];
 *                     ^~~~~~~~~~~~~~~~~
 * corpus/idiom_butterfly.cu:103:5: note: 's_f' declared here
 * corpus/idiom_butterfly.cu:114:9: warning: 2-way bank conflict on store of 's_f' (float[128]) in kernel 'bf_fwt_two_loops' with blockDim (64,1,1) from the launch on line 156; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           s_f[pos] = a + b;
 *           ^~~~~~~~
 * corpus/idiom_butterfly.cu:103:5: note: 's_f' declared here
 * corpus/idiom_butterfly.cu:115:9: warning: 2-way bank conflict on store of 's_f' (float[128]) in kernel 'bf_fwt_two_loops' with blockDim (64,1,1) from the launch on line 156; lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *           s_f[pos + stride] = a - b;
 *           ^~~~~~~~~~~~~~~~~
 * corpus/idiom_butterfly.cu:103:5: note: 's_f' declared here
 * check-output-end
 */
