// Tensor-core fragments loaded from and stored to shared memory with the
// wmma API (sm_70+): load_matrix_sync and store_matrix_sync for each
// fragment kind (matrix_a, matrix_b, accumulator), both layouts, several
// shapes and element types, and row strides (ldm) of 32, 48, 128 and 144
// bytes for the 16-bit tiles, 32 to 256 bytes for the 32-bit ones. One
// warp per block, except the last kernel, whose four warps each own a
// 16-row band of one tile. Each tile is filled row by row, loaded into a
// fragment, multiplied, and the result is stored and read back, so nvcc
// keeps every access.
#include "common.cuh"
#include <cuda_bf16.h>
#include <mma.h>

using namespace nvcuda;

__global__ void wmma_f16_rows32(const half *in, float *out)
{
    __shared__ __align__(32) half a[16][16];
    __shared__ __align__(32) half b[16][16];
    __shared__ __align__(32) float c[16][16];
    int t = threadIdx.x;
    for (int i = t; i < 256; i += 32) {
        a[i / 16][i % 16] = in[i];
        b[i / 16][i % 16] = in[256 + i];
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, &a[0][0], 16);
    wmma::load_matrix_sync(fb, &b[0][0], 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(&c[0][0], fc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int i = t; i < 256; i += 32)
        out[i] = c[i / 16][i % 16];
}

__global__ void wmma_f16_padded(const half *in, float *out)
{
    __shared__ __align__(32) half a[16][24];
    __shared__ __align__(32) half b[16][24];
    __shared__ __align__(32) float c[16][20];
    int t = threadIdx.x;
    for (int i = t; i < 256; i += 32) {
        a[i / 16][i % 16] = in[i];
        b[i / 16][i % 16] = in[256 + i];
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, &a[0][0], 24);
    wmma::load_matrix_sync(fb, &b[0][0], 24);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(&c[0][0], fc, 20, wmma::mem_row_major);
    __syncwarp();
    for (int i = t; i < 256; i += 32)
        out[i] = c[i / 16][i % 16];
}

__global__ void wmma_f16_rows128(const half *in, float *out)
{
    __shared__ __align__(32) half a[16][64];
    __shared__ __align__(32) half b[16][64];
    __shared__ __align__(32) float c[16][32];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 32) {
        a[i / 64][i % 64] = in[i % 512];
        b[i / 64][i % 64] = in[(i + 7) % 512];
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, &a[0][16], 64);
    wmma::load_matrix_sync(fb, &b[0][32], 64);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(&c[0][16], fc, 32, wmma::mem_row_major);
    __syncwarp();
    for (int i = t; i < 512; i += 32)
        out[i] = c[i / 32][i % 32];
}

__global__ void wmma_f16_col_major(const half *in, const float *acc, float *out)
{
    __shared__ __align__(32) half a[16][16];
    __shared__ __align__(32) half b[16][16];
    __shared__ __align__(32) float c[16][16];
    __shared__ __align__(32) float d[16][16];
    int t = threadIdx.x;
    for (int i = t; i < 256; i += 32) {
        a[i / 16][i % 16] = in[i];
        b[i / 16][i % 16] = in[256 + i];
        c[i / 16][i % 16] = acc[i];
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::load_matrix_sync(fc, &c[0][0], 16, wmma::mem_row_major);
    wmma::load_matrix_sync(fa, &a[0][0], 16);
    wmma::load_matrix_sync(fb, &b[0][0], 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(&d[0][0], fc, 16, wmma::mem_col_major);
    __syncwarp();
    for (int i = t; i < 256; i += 32)
        out[i] = d[i / 16][i % 16];
}

__global__ void wmma_f16_half_acc(const half *in, half *out)
{
    __shared__ __align__(32) half a[16][16];
    __shared__ __align__(32) half b[16][16];
    __shared__ __align__(32) half c[16][16];
    __shared__ __align__(32) half d[16][32];
    int t = threadIdx.x;
    for (int i = t; i < 256; i += 32) {
        a[i / 16][i % 16] = in[i];
        b[i / 16][i % 16] = in[256 + i];
        c[i / 16][i % 16] = in[512 + i];
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> fc;
    wmma::load_matrix_sync(fc, &c[0][0], 16, wmma::mem_row_major);
    wmma::load_matrix_sync(fa, &a[0][0], 16);
    wmma::load_matrix_sync(fb, &b[0][0], 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(&d[0][0], fc, 32, wmma::mem_row_major);
    __syncwarp();
    for (int i = t; i < 256; i += 32)
        out[i] = d[i / 16][i % 16];
}

__global__ void wmma_m32n8k16(const half *in, float *out)
{
    __shared__ __align__(32) half a[32][16];
    __shared__ __align__(32) half b[16][8];
    __shared__ __align__(32) float c[32][8];
    int t = threadIdx.x;
    for (int i = t; i < 512; i += 32)
        a[i / 16][i % 16] = in[i];
    for (int i = t; i < 128; i += 32)
        b[i / 8][i % 8] = in[512 + i];
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 32, 8, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, &a[0][0], 16);
    wmma::load_matrix_sync(fb, &b[0][0], 8);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(&c[0][0], fc, 8, wmma::mem_row_major);
    __syncwarp();
    for (int i = t; i < 256; i += 32)
        out[i] = c[i / 8][i % 8];
}

__global__ void wmma_m8n32k16(const half *in, float *out)
{
    __shared__ __align__(32) half a[8][16];
    __shared__ __align__(32) half b[16][32];
    __shared__ __align__(32) float c[8][32];
    int t = threadIdx.x;
    for (int i = t; i < 128; i += 32)
        a[i / 16][i % 16] = in[i];
    for (int i = t; i < 512; i += 32)
        b[i / 32][i % 32] = in[128 + i];
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 8, 32, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 8, 32, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, &a[0][0], 16);
    wmma::load_matrix_sync(fb, &b[0][0], 32);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(&c[0][0], fc, 32, wmma::mem_row_major);
    __syncwarp();
    for (int i = t; i < 256; i += 32)
        out[i] = c[i / 32][i % 32];
}

__global__ void wmma_s8(const signed char *in, int *out)
{
    __shared__ __align__(32) signed char a[16][16];
    __shared__ __align__(32) signed char b[16][16];
    __shared__ __align__(32) int c[16][16];
    int t = threadIdx.x;
    for (int i = t; i < 256; i += 32) {
        a[i / 16][i % 16] = in[i];
        b[i / 16][i % 16] = in[256 + i];
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
    wmma::fill_fragment(fc, 0);
    wmma::load_matrix_sync(fa, &a[0][0], 16);
    wmma::load_matrix_sync(fb, &b[0][0], 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(&c[0][0], fc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int i = t; i < 256; i += 32)
        out[i] = c[i / 16][i % 16];
}

__global__ void wmma_tf32(const float *in, float *out)
{
    __shared__ __align__(32) float a[16][8];
    __shared__ __align__(32) float b[8][16];
    __shared__ __align__(32) float c[16][16];
    int t = threadIdx.x;
    for (int i = t; i < 128; i += 32) {
        a[i / 8][i % 8] = in[i];
        b[i / 16][i % 16] = in[128 + i];
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, &a[0][0], 8);
    wmma::load_matrix_sync(fb, &b[0][0], 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(&c[0][0], fc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int i = t; i < 256; i += 32)
        out[i] = c[i / 16][i % 16];
}

__global__ void wmma_bf16_rows144(const __nv_bfloat16 *in, float *out)
{
    __shared__ __align__(32) __nv_bfloat16 a[16][72];
    __shared__ __align__(32) __nv_bfloat16 b[16][72];
    __shared__ __align__(32) float c[16][68];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += 32) {
        a[i / 64][i % 64] = in[i % 512];
        b[i / 64][i % 64] = in[(i + 5) % 512];
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, &a[0][8], 72);
    wmma::load_matrix_sync(fb, &b[0][48], 72);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(&c[0][4], fc, 68, wmma::mem_row_major);
    __syncwarp();
    for (int i = t; i < 256; i += 32)
        out[i] = c[i / 16][4 + i % 16];
}

// Four warps, 128 threads: warp w loads rows 16w..16w+15 of one tile and
// stores its product into the same band of another.
__global__ void wmma_four_warps(const half *in, float *out)
{
    __shared__ __align__(32) half a[64][16];
    __shared__ __align__(32) half b[16][16];
    __shared__ __align__(32) float c[64][16];
    int t = threadIdx.x, w = t / 32;
    for (int i = t; i < 1024; i += 128)
        a[i / 16][i % 16] = in[i % 512];
    for (int i = t; i < 256; i += 128)
        b[i / 16][i % 16] = in[256 + i];
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, &a[w * 16][0], 16);
    wmma::load_matrix_sync(fb, &b[0][0], 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(&c[w * 16][0], fc, 16, wmma::mem_row_major);
    __syncthreads();
    for (int i = t; i < 1024; i += 128)
        out[i] = c[i / 16][i % 16];
}

int main()
{
    half *d_h;
    float *d_f, *d_out;
    int *d_i;
    CUDA_CHECK(cudaMalloc(&d_h, 1024 * sizeof(half)));
    CUDA_CHECK(cudaMalloc(&d_f, 1024 * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, 1024 * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_i, 1024 * sizeof(int)));
    CUDA_CHECK(cudaMemset(d_h, 0, 1024 * sizeof(half)));
    CUDA_CHECK(cudaMemset(d_f, 0, 1024 * sizeof(float)));

    wmma_f16_rows32<<<1, 32>>>(d_h, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    wmma_f16_padded<<<1, 32>>>(d_h, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    wmma_f16_rows128<<<1, 32>>>(d_h, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    wmma_f16_col_major<<<1, 32>>>(d_h, d_f, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    wmma_f16_half_acc<<<1, 32>>>(d_h, (half *)d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    wmma_m32n8k16<<<1, 32>>>(d_h, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    wmma_m8n32k16<<<1, 32>>>(d_h, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    wmma_s8<<<1, 32>>>((const signed char *)d_h, d_i);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    wmma_tf32<<<1, 32>>>(d_f, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    wmma_bf16_rows144<<<1, 32>>>((const __nv_bfloat16 *)d_h, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    wmma_four_warps<<<1, 128>>>(d_h, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_h));
    CUDA_CHECK(cudaFree(d_f));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_i));
    return 0;
}

/*
 * check-output-start
 * corpus/wmma_tiles.cu:31:5: warning: 2-way bank conflict on wmma::load_matrix_sync (ldmatrix.x4) load of 'a' (half[16][16]) in kernel 'wmma_f16_rows32' with blockDim (32,1,1) from the launch on line 298; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       wmma::load_matrix_sync(fa, &a[0][0], 16);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:18:5: note: 'a' declared here
 * corpus/wmma_tiles.cu:32:5: warning: 2-way bank conflict on wmma::load_matrix_sync (ldmatrix.x4) load of 'b' (half[16][16]) in kernel 'wmma_f16_rows32' with blockDim (32,1,1) from the launch on line 298; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       wmma::load_matrix_sync(fb, &b[0][0], 16);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:19:5: note: 'b' declared here
 * corpus/wmma_tiles.cu:34:5: warning: 2-way bank conflict on wmma::store_matrix_sync store of 'c' (float[16][16]) in kernel 'wmma_f16_rows32' with blockDim (32,1,1) from the launch on line 298; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       wmma::store_matrix_sync(&c[0][0], fc, 16, wmma::mem_row_major);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:20:5: note: 'c' declared here
 * corpus/wmma_tiles.cu:58:5: warning: 2-way bank conflict on wmma::store_matrix_sync store of 'c' (float[16][20]) in kernel 'wmma_f16_padded' with blockDim (32,1,1) from the launch on line 302; lanes 0 and 14 of warp 0 hit bank 0 (byte offsets 0 and 256) [bank-conflict]
 *       wmma::store_matrix_sync(&c[0][0], fc, 20, wmma::mem_row_major);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:44:5: note: 'c' declared here
 * corpus/wmma_tiles.cu:61:18: warning: 2-way bank conflict on load of 'c' (float[16][20]) in kernel 'wmma_f16_padded' with blockDim (32,1,1) from the launch on line 302; lanes 0 and 28 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           out[i] = c[i / 16][i % 16];
 *                    ^~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:44:5: note: 'c' declared here
 * corpus/wmma_tiles.cu:79:5: warning: 8-way bank conflict on wmma::load_matrix_sync (ldmatrix.x4) load of 'a' (half[16][64]) in kernel 'wmma_f16_rows128' with blockDim (32,1,1) from the launch on line 306; lanes 0 and 1 of warp 0 hit bank 8 (byte offsets 32 and 160) [bank-conflict]
 *       wmma::load_matrix_sync(fa, &a[0][16], 64);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:66:5: note: 'a' declared here
 * corpus/wmma_tiles.cu:80:5: warning: 8-way bank conflict on wmma::load_matrix_sync (ldmatrix.x4) load of 'b' (half[16][64]) in kernel 'wmma_f16_rows128' with blockDim (32,1,1) from the launch on line 306; lanes 0 and 1 of warp 0 hit bank 16 (byte offsets 64 and 192) [bank-conflict]
 *       wmma::load_matrix_sync(fb, &b[0][32], 64);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:67:5: note: 'b' declared here
 * corpus/wmma_tiles.cu:82:5: warning: 4-way bank conflict on wmma::store_matrix_sync store of 'c' (float[16][32]) in kernel 'wmma_f16_rows128' with blockDim (32,1,1) from the launch on line 306; lanes 0 and 4 of warp 0 hit bank 16 (byte offsets 64 and 192) [bank-conflict]
 *       wmma::store_matrix_sync(&c[0][16], fc, 32, wmma::mem_row_major);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:68:5: note: 'c' declared here
 * corpus/wmma_tiles.cu:104:5: warning: 2-way bank conflict on wmma::load_matrix_sync load of 'c' (float[16][16]) in kernel 'wmma_f16_col_major' with blockDim (32,1,1) from the launch on line 310; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       wmma::load_matrix_sync(fc, &c[0][0], 16, wmma::mem_row_major);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:92:5: note: 'c' declared here
 * corpus/wmma_tiles.cu:105:5: warning: 2-way bank conflict on wmma::load_matrix_sync (ldmatrix.x4) load of 'a' (half[16][16]) in kernel 'wmma_f16_col_major' with blockDim (32,1,1) from the launch on line 310; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       wmma::load_matrix_sync(fa, &a[0][0], 16);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:90:5: note: 'a' declared here
 * corpus/wmma_tiles.cu:106:5: warning: 2-way bank conflict on wmma::load_matrix_sync (ldmatrix.x4) load of 'b' (half[16][16]) in kernel 'wmma_f16_col_major' with blockDim (32,1,1) from the launch on line 310; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       wmma::load_matrix_sync(fb, &b[0][0], 16);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:91:5: note: 'b' declared here
 * corpus/wmma_tiles.cu:108:5: warning: 4-way bank conflict on wmma::store_matrix_sync store of 'd' (float[16][16]) in kernel 'wmma_f16_col_major' with blockDim (32,1,1) from the launch on line 310; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       wmma::store_matrix_sync(&d[0][0], fc, 16, wmma::mem_col_major);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:93:5: note: 'd' declared here
 * corpus/wmma_tiles.cu:130:5: warning: 2-way bank conflict on wmma::load_matrix_sync load of 'c' (half[16][16]) in kernel 'wmma_f16_half_acc' with blockDim (32,1,1) from the launch on line 314; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       wmma::load_matrix_sync(fc, &c[0][0], 16, wmma::mem_row_major);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:118:5: note: 'c' declared here
 * corpus/wmma_tiles.cu:131:5: warning: 2-way bank conflict on wmma::load_matrix_sync (ldmatrix.x4) load of 'a' (half[16][16]) in kernel 'wmma_f16_half_acc' with blockDim (32,1,1) from the launch on line 314; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       wmma::load_matrix_sync(fa, &a[0][0], 16);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:116:5: note: 'a' declared here
 * corpus/wmma_tiles.cu:132:5: warning: 2-way bank conflict on wmma::load_matrix_sync (ldmatrix.x4) load of 'b' (half[16][16]) in kernel 'wmma_f16_half_acc' with blockDim (32,1,1) from the launch on line 314; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       wmma::load_matrix_sync(fb, &b[0][0], 16);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:117:5: note: 'b' declared here
 * corpus/wmma_tiles.cu:134:5: warning: 4-way bank conflict on wmma::store_matrix_sync store of 'd' (half[16][32]) in kernel 'wmma_f16_half_acc' with blockDim (32,1,1) from the launch on line 314; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       wmma::store_matrix_sync(&d[0][0], fc, 32, wmma::mem_row_major);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:119:5: note: 'd' declared here
 * corpus/wmma_tiles.cu:155:5: warning: 2-way bank conflict on wmma::load_matrix_sync (ldmatrix.x4) load of 'a' (half[32][16]) in kernel 'wmma_m32n8k16' with blockDim (32,1,1) from the launch on line 318; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       wmma::load_matrix_sync(fa, &a[0][0], 16);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:142:5: note: 'a' declared here
 * corpus/wmma_tiles.cu:179:5: warning: 2-way bank conflict on wmma::load_matrix_sync (ldmatrix.x2) load of 'a' (half[8][16]) in kernel 'wmma_m8n32k16' with blockDim (32,1,1) from the launch on line 322; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       wmma::load_matrix_sync(fa, &a[0][0], 16);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:166:5: note: 'a' declared here
 * corpus/wmma_tiles.cu:180:5: warning: 4-way bank conflict on wmma::load_matrix_sync (ldmatrix.x4) load of 'b' (half[16][32]) in kernel 'wmma_m8n32k16' with blockDim (32,1,1) from the launch on line 322; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       wmma::load_matrix_sync(fb, &b[0][0], 32);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:167:5: note: 'b' declared here
 * corpus/wmma_tiles.cu:182:5: warning: 4-way bank conflict on wmma::store_matrix_sync store of 'c' (float[8][32]) in kernel 'wmma_m8n32k16' with blockDim (32,1,1) from the launch on line 322; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 256) [bank-conflict]
 *       wmma::store_matrix_sync(&c[0][0], fc, 32, wmma::mem_row_major);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:168:5: note: 'c' declared here
 * corpus/wmma_tiles.cu:206:5: warning: 2-way bank conflict on wmma::store_matrix_sync store of 'c' (int[16][16]) in kernel 'wmma_s8' with blockDim (32,1,1) from the launch on line 326; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       wmma::store_matrix_sync(&c[0][0], fc, 16, wmma::mem_row_major);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:192:5: note: 'c' declared here
 * corpus/wmma_tiles.cu:230:5: warning: 2-way bank conflict on wmma::store_matrix_sync store of 'c' (float[16][16]) in kernel 'wmma_tf32' with blockDim (32,1,1) from the launch on line 330; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       wmma::store_matrix_sync(&c[0][0], fc, 16, wmma::mem_row_major);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:216:5: note: 'c' declared here
 * corpus/wmma_tiles.cu:254:5: warning: 2-way bank conflict on wmma::store_matrix_sync store of 'c' (float[16][68]) in kernel 'wmma_bf16_rows144' with blockDim (32,1,1) from the launch on line 334; lanes 2 and 4 of warp 0 hit bank 8 (byte offsets 32 and 288) [bank-conflict]
 *       wmma::store_matrix_sync(&c[0][4], fc, 68, wmma::mem_row_major);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:240:5: note: 'c' declared here
 * corpus/wmma_tiles.cu:257:18: warning: 2-way bank conflict on load of 'c' (float[16][68]) in kernel 'wmma_bf16_rows144' with blockDim (32,1,1) from the launch on line 334; lanes 4 and 16 of warp 0 hit bank 8 (byte offsets 32 and 288) [bank-conflict]
 *           out[i] = c[i / 16][4 + i % 16];
 *                    ^~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:240:5: note: 'c' declared here
 * corpus/wmma_tiles.cu:277:5: warning: 2-way bank conflict on wmma::load_matrix_sync (ldmatrix.x4) load of 'a' (half[64][16]) in kernel 'wmma_four_warps' with blockDim (128,1,1) from the launch on line 338; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       wmma::load_matrix_sync(fa, &a[w * 16][0], 16);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:264:5: note: 'a' declared here
 * corpus/wmma_tiles.cu:278:5: warning: 2-way bank conflict on wmma::load_matrix_sync (ldmatrix.x4) load of 'b' (half[16][16]) in kernel 'wmma_four_warps' with blockDim (128,1,1) from the launch on line 338; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       wmma::load_matrix_sync(fb, &b[0][0], 16);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:265:5: note: 'b' declared here
 * corpus/wmma_tiles.cu:280:5: warning: 2-way bank conflict on wmma::store_matrix_sync store of 'c' (float[64][16]) in kernel 'wmma_four_warps' with blockDim (128,1,1) from the launch on line 338; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       wmma::store_matrix_sync(&c[w * 16][0], fc, 16, wmma::mem_row_major);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/wmma_tiles.cu:266:5: note: 'c' declared here
 * check-output-end
 */
