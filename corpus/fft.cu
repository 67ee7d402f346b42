// Radix-2 decimation-in-time FFT of 256 points per block in shared memory.
// 128 threads, one butterfly per thread per stage; input is loaded in
// bit-reversed order.
#include "common.cuh"

#define FFT_N 256
#define LOG2_N 8
#define FFT_THREADS (FFT_N / 2)
#define PI_F 3.14159265358979f

// Interleaved complex values as float2 (8-byte shared accesses).
__global__ void fft_radix2_float2(const float2 *in, float2 *out)
{
    __shared__ float2 s[FFT_N];
    int tid = threadIdx.x;
    const float2 *src = in + blockIdx.x * FFT_N;

    int r0 = __brev(tid) >> (32 - LOG2_N);
    int r1 = __brev(tid + FFT_THREADS) >> (32 - LOG2_N);
    s[r0] = src[tid];
    s[r1] = src[tid + FFT_THREADS];
    __syncthreads();

    for (int half = 1; half < FFT_N; half <<= 1) {
        int grp = tid / half;
        int pos = tid % half;
        int i0 = grp * 2 * half + pos;
        int i1 = i0 + half;
        float sn, cs;
        __sincosf(-PI_F * pos / half, &sn, &cs);
        float2 a = s[i0];
        float2 b = s[i1];
        float2 wb = make_float2(cs * b.x - sn * b.y, cs * b.y + sn * b.x);
        s[i0] = make_float2(a.x + wb.x, a.y + wb.y);
        s[i1] = make_float2(a.x - wb.x, a.y - wb.y);
        __syncthreads();
    }
    out[blockIdx.x * FFT_N + tid] = s[tid];
    out[blockIdx.x * FFT_N + tid + FFT_THREADS] = s[tid + FFT_THREADS];
}

// Split real/imaginary arrays (4-byte accesses, same butterfly strides).
__global__ void fft_radix2_split(const float *in_re, const float *in_im, float *out_re, float *out_im)
{
    __shared__ float re[FFT_N];
    __shared__ float im[FFT_N];
    int tid = threadIdx.x;
    int base = blockIdx.x * FFT_N;

    for (int k = tid; k < FFT_N; k += FFT_THREADS) {
        int r = __brev(k) >> (32 - LOG2_N);
        re[r] = in_re[base + k];
        im[r] = in_im[base + k];
    }
    __syncthreads();

    for (int half = 1; half < FFT_N; half <<= 1) {
        int grp = tid / half;
        int pos = tid % half;
        int i0 = grp * 2 * half + pos;
        int i1 = i0 + half;
        float sn, cs;
        __sincosf(-PI_F * pos / half, &sn, &cs);
        float ar = re[i0];
        float ai = im[i0];
        float br = re[i1];
        float bi = im[i1];
        float wr = cs * br - sn * bi;
        float wi = cs * bi + sn * br;
        re[i0] = ar + wr;
        im[i0] = ai + wi;
        re[i1] = ar - wr;
        im[i1] = ai - wi;
        __syncthreads();
    }
    for (int k = tid; k < FFT_N; k += FFT_THREADS) {
        out_re[base + k] = re[k];
        out_im[base + k] = im[k];
    }
}

int main()
{
    const int blocks = 2;
    float2 *d_in, *d_out;
    float *d_re, *d_im, *d_ore, *d_oim;
    CUDA_CHECK(cudaMalloc(&d_in, blocks * FFT_N * sizeof(float2)));
    CUDA_CHECK(cudaMalloc(&d_out, blocks * FFT_N * sizeof(float2)));
    CUDA_CHECK(cudaMalloc(&d_re, blocks * FFT_N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_im, blocks * FFT_N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_ore, blocks * FFT_N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_oim, blocks * FFT_N * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_in, 0, blocks * FFT_N * sizeof(float2)));
    CUDA_CHECK(cudaMemset(d_re, 0, blocks * FFT_N * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_im, 0, blocks * FFT_N * sizeof(float)));

    fft_radix2_float2<<<blocks, FFT_THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    fft_radix2_split<<<blocks, FFT_THREADS>>>(d_re, d_im, d_ore, d_oim);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_re));
    CUDA_CHECK(cudaFree(d_im));
    CUDA_CHECK(cudaFree(d_ore));
    CUDA_CHECK(cudaFree(d_oim));
    return 0;
}

/*
 * check-output-start
 * corpus/fft.cu:20:5: warning: 16-way bank conflict on store of 's' (float2[256]) in kernel 'fft_radix2_float2' with blockDim (128,1,1) from the launch on line 97; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 1024) [bank-conflict]
 *       s[r0] = src[tid];
 *       ^~~~~
 * corpus/fft.cu:14:5: note: 's' declared here
 * corpus/fft.cu:21:5: warning: 16-way bank conflict on store of 's' (float2[256]) in kernel 'fft_radix2_float2' with blockDim (128,1,1) from the launch on line 97; lanes 0 and 1 of warp 0 hit bank 2 (byte offsets 8 and 1032) [bank-conflict]
 *       s[r1] = src[tid + FFT_THREADS];
 *       ^~~~~
 * corpus/fft.cu:14:5: note: 's' declared here
 * corpus/fft.cu:31:20: warning: 2-way bank conflict on load of 's' (float2[256]) in kernel 'fft_radix2_float2' with blockDim (128,1,1) from the launch on line 97, worst when half = 1 (mean 1.50-way over the iterations); lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           float2 a = s[i0];
 *                      ^~~~~
 * corpus/fft.cu:14:5: note: 's' declared here
 * corpus/fft.cu:32:20: warning: 2-way bank conflict on load of 's' (float2[256]) in kernel 'fft_radix2_float2' with blockDim (128,1,1) from the launch on line 97, worst when half = 1 (mean 1.50-way over the iterations); lanes 0 and 8 of warp 0 hit bank 2 (byte offsets 8 and 136) [bank-conflict]
 *           float2 b = s[i1];
 *                      ^~~~~
 * corpus/fft.cu:14:5: note: 's' declared here
 * corpus/fft.cu:34:9: warning: 2-way bank conflict on store of 's' (float2[256]) in kernel 'fft_radix2_float2' with blockDim (128,1,1) from the launch on line 97, worst when half = 1 (mean 1.50-way over the iterations); lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           s[i0] = make_float2(a.x + wb.x, a.y + wb.y);
 *           ^~~~~
 * corpus/fft.cu:14:5: note: 's' declared here
 * corpus/fft.cu:35:9: warning: 2-way bank conflict on store of 's' (float2[256]) in kernel 'fft_radix2_float2' with blockDim (128,1,1) from the launch on line 97, worst when half = 1 (mean 1.50-way over the iterations); lanes 0 and 8 of warp 0 hit bank 2 (byte offsets 8 and 136) [bank-conflict]
 *           s[i1] = make_float2(a.x - wb.x, a.y - wb.y);
 *           ^~~~~
 * corpus/fft.cu:14:5: note: 's' declared here
 * corpus/fft.cu:52:9: warning: 8-way bank conflict on store of 're' (float[256]) in kernel 'fft_radix2_split' with blockDim (128,1,1) from the launch on line 101; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 512) [bank-conflict]
 *           re[r] = in_re[base + k];
 *           ^~~~~
 * corpus/fft.cu:45:5: note: 're' declared here
 * corpus/fft.cu:52:9: note: index 're' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 5 conflicting accesses become conflict-free
 * corpus/fft.cu:53:9: warning: 8-way bank conflict on store of 'im' (float[256]) in kernel 'fft_radix2_split' with blockDim (128,1,1) from the launch on line 101; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 512) [bank-conflict]
 *           im[r] = in_im[base + k];
 *           ^~~~~
 * corpus/fft.cu:46:5: note: 'im' declared here
 * corpus/fft.cu:53:9: note: index 'im' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 5 conflicting accesses become conflict-free
 * corpus/fft.cu:64:20: warning: 2-way bank conflict on load of 're' (float[256]) in kernel 'fft_radix2_split' with blockDim (128,1,1) from the launch on line 101, worst when half = 1 (mean 1.62-way over the iterations); lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           float ar = re[i0];
 *                      ^~~~~~
 * corpus/fft.cu:45:5: note: 're' declared here
 * corpus/fft.cu:64:20: note: index 're' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 5 conflicting accesses become conflict-free
 * corpus/fft.cu:65:20: warning: 2-way bank conflict on load of 'im' (float[256]) in kernel 'fft_radix2_split' with blockDim (128,1,1) from the launch on line 101, worst when half = 1 (mean 1.62-way over the iterations); lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           float ai = im[i0];
 *                      ^~~~~~
 * corpus/fft.cu:46:5: note: 'im' declared here
 * corpus/fft.cu:65:20: note: index 'im' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 5 conflicting accesses become conflict-free
 * corpus/fft.cu:66:20: warning: 2-way bank conflict on load of 're' (float[256]) in kernel 'fft_radix2_split' with blockDim (128,1,1) from the launch on line 101, worst when half = 1 (mean 1.62-way over the iterations); lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *           float br = re[i1];
 *                      ^~~~~~
 * corpus/fft.cu:45:5: note: 're' declared here
 * corpus/fft.cu:66:20: note: index 're' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 5 conflicting accesses become conflict-free
 * corpus/fft.cu:67:20: warning: 2-way bank conflict on load of 'im' (float[256]) in kernel 'fft_radix2_split' with blockDim (128,1,1) from the launch on line 101, worst when half = 1 (mean 1.62-way over the iterations); lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *           float bi = im[i1];
 *                      ^~~~~~
 * corpus/fft.cu:46:5: note: 'im' declared here
 * corpus/fft.cu:67:20: note: index 'im' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 5 conflicting accesses become conflict-free
 * corpus/fft.cu:70:9: warning: 2-way bank conflict on store of 're' (float[256]) in kernel 'fft_radix2_split' with blockDim (128,1,1) from the launch on line 101, worst when half = 1 (mean 1.62-way over the iterations); lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           re[i0] = ar + wr;
 *           ^~~~~~
 * corpus/fft.cu:45:5: note: 're' declared here
 * corpus/fft.cu:70:9: note: index 're' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 5 conflicting accesses become conflict-free
 * corpus/fft.cu:71:9: warning: 2-way bank conflict on store of 'im' (float[256]) in kernel 'fft_radix2_split' with blockDim (128,1,1) from the launch on line 101, worst when half = 1 (mean 1.62-way over the iterations); lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           im[i0] = ai + wi;
 *           ^~~~~~
 * corpus/fft.cu:46:5: note: 'im' declared here
 * corpus/fft.cu:71:9: note: index 'im' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 5 conflicting accesses become conflict-free
 * corpus/fft.cu:72:9: warning: 2-way bank conflict on store of 're' (float[256]) in kernel 'fft_radix2_split' with blockDim (128,1,1) from the launch on line 101, worst when half = 1 (mean 1.62-way over the iterations); lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *           re[i1] = ar - wr;
 *           ^~~~~~
 * corpus/fft.cu:45:5: note: 're' declared here
 * corpus/fft.cu:72:9: note: index 're' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 5 conflicting accesses become conflict-free
 * corpus/fft.cu:73:9: warning: 2-way bank conflict on store of 'im' (float[256]) in kernel 'fft_radix2_split' with blockDim (128,1,1) from the launch on line 101, worst when half = 1 (mean 1.62-way over the iterations); lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *           im[i1] = ai - wi;
 *           ^~~~~~
 * corpus/fft.cu:46:5: note: 'im' declared here
 * corpus/fft.cu:73:9: note: index 'im' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 5 conflicting accesses become conflict-free
 * check-output-end
 */
