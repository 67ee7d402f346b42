// Tiled single-precision matrix multiply C = A * B (square, n x n).
#include "common.cuh"

#define TILE 16
constexpr int N = 64;    // matrix size for the 32x32 / 64x64 tiled kernels
constexpr int N16 = 32;  // matrix size for the 16x16 tiled kernels (2x2 grid)

// Textbook 16x16 shared-memory tiling, one output per thread.
__global__ void matmul_tiled16(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;

    for (int t = 0; t < n / TILE; ++t) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = sum;
}

// Same tiling but the B tile is kept transposed (Bs[col][k]): the row
// stride of 16 floats puts half a warp's columns on only two banks.
__global__ void matmul_tiled16_bt(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;

    for (int t = 0; t < n / TILE; ++t) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[tx][ty] = B[(t * TILE + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            sum += As[ty][k] * Bs[tx][k];
        __syncthreads();
    }
    C[row * n + col] = sum;
}

// 32x32 tiles with a 32x8 block: each thread accumulates 4 outputs
// (rows ty, ty+8, ty+16, ty+24 of the tile, same column).
#define TS 32
#define ROWS 8
__global__ void matmul_32x8(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TS][TS];
    __shared__ float Bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TS;
    int col = blockIdx.x * TS + tx;
    float acc[TS / ROWS] = {0.0f, 0.0f, 0.0f, 0.0f};

    for (int t = 0; t < n / TS; ++t) {
        for (int r = 0; r < TS; r += ROWS) {
            As[ty + r][tx] = A[(row0 + ty + r) * n + t * TS + tx];
            Bs[ty + r][tx] = B[(t * TS + ty + r) * n + col];
        }
        __syncthreads();
        for (int k = 0; k < TS; ++k) {
            float b = Bs[k][tx];
#pragma unroll
            for (int i = 0; i < TS / ROWS; ++i)
                acc[i] += As[ty + ROWS * i][k] * b;
        }
        __syncthreads();
    }
    for (int i = 0; i < TS / ROWS; ++i)
        C[(row0 + ty + ROWS * i) * n + col] = acc[i];
}

// Register-blocked: 64x64 block tile, BK = 16, 16x16 threads, 4x4 outputs
// per thread. A tile row-major As[m][k] (thread rows ty*4..ty*4+3), B tile
// held as float4 so each thread fetches its 4 columns with one 16-byte load.
#define BM 64
#define BN 64
#define BK 16
__global__ void __launch_bounds__(256) matmul_regblock(const float *A, const float4 *B4, float *C, int n)
{
    __shared__ float As[BM][BK];
    __shared__ float4 Bs4[BK][BN / 4];
    int tx = threadIdx.x, ty = threadIdx.y;
    int rowBase = blockIdx.y * BM;
    int colBase = blockIdx.x * BN;
    float acc[4][4];
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            acc[i][j] = 0.0f;

    for (int t = 0; t < n / BK; ++t) {
#pragma unroll
        for (int i = 0; i < 4; ++i)
            As[ty * 4 + i][tx] = A[(rowBase + ty * 4 + i) * n + t * BK + tx];
        Bs4[ty][tx] = B4[((t * BK + ty) * n + colBase) / 4 + tx];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[4];
#pragma unroll
            for (int i = 0; i < 4; ++i)
                a[i] = As[ty * 4 + i][k];
            float4 b = Bs4[k][tx];
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                acc[i][0] += a[i] * b.x;
                acc[i][1] += a[i] * b.y;
                acc[i][2] += a[i] * b.z;
                acc[i][3] += a[i] * b.w;
            }
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            C[(rowBase + ty * 4 + i) * n + colBase + tx * 4 + j] = acc[i][j];
}

int main()
{
    const size_t bytes = N * N * sizeof(float);
    float *dA, *dB, *dC;
    CUDA_CHECK(cudaMalloc(&dA, bytes));
    CUDA_CHECK(cudaMalloc(&dB, bytes));
    CUDA_CHECK(cudaMalloc(&dC, bytes));
    CUDA_CHECK(cudaMemset(dA, 0, bytes));
    CUDA_CHECK(cudaMemset(dB, 0, bytes));

    matmul_tiled16<<<dim3(N16 / TILE, N16 / TILE), dim3(TILE, TILE)>>>(dA, dB, dC, N16);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    matmul_tiled16_bt<<<dim3(N16 / TILE, N16 / TILE), dim3(16, 16)>>>(dA, dB, dC, N16);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    matmul_32x8<<<dim3(N / TS, N / TS), dim3(TS, ROWS)>>>(dA, dB, dC, N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    matmul_regblock<<<dim3(N / BN, N / BM), dim3(16, 16)>>>(dA, reinterpret_cast<const float4 *>(dB), dC, N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC));
    return 0;
}

/*
 * check-output-start
 * corpus/matmul.cu:42:9: warning: 8-way bank conflict on store of 'Bs' (float[16][16]) in kernel 'matmul_tiled16_bt' with blockDim (16,16,1) from the launch on line 142; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           Bs[tx][ty] = B[(t * TILE + ty) * n + col];
 *           ^~~~~~~~~~
 * corpus/matmul.cu:34:5: note: 'Bs' declared here
 * corpus/matmul.cu:42:9: note: declare 'Bs' as `float Bs[16][18]`: +128 bytes per block (2048 -> 2176 bytes of static shared memory); 2 of 2 conflicting accesses become conflict-free
 * fix-it:"corpus/matmul.cu":{34:24-34:36}:"[TILE][TILE + 2]"
 * corpus/matmul.cu:45:32: warning: 8-way bank conflict on load of 'Bs' (float[16][16]) in kernel 'matmul_tiled16_bt' with blockDim (16,16,1) from the launch on line 142; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *               sum += As[ty][k] * Bs[tx][k];
 *                                  ^~~~~~~~~
 * corpus/matmul.cu:34:5: note: 'Bs' declared here
 * corpus/matmul.cu:45:32: note: declare 'Bs' as `float Bs[16][18]`: +128 bytes per block (2048 -> 2176 bytes of static shared memory); 2 of 2 conflicting accesses become conflict-free
 * fix-it:"corpus/matmul.cu":{34:24-34:36}:"[TILE][TILE + 2]"
 * corpus/matmul.cu:103:13: warning: 2-way bank conflict on store of 'As' (float[64][16]) in kernel 'matmul_regblock' with blockDim (16,16,1) from the launch on line 150; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 256) [bank-conflict]
 *               As[ty * 4 + i][tx] = A[(rowBase + ty * 4 + i) * n + t * BK + tx];
 *               ^~~~~~~~~~~~~~~~~~
 * corpus/matmul.cu:90:5: note: 'As' declared here
 * corpus/matmul.cu:103:13: note: declare 'As' as `float As[64][20]`: +1024 bytes per block (8192 -> 9216 bytes of static shared memory); 2 of 2 conflicting accesses become conflict-free
 * fix-it:"corpus/matmul.cu":{90:24-90:32}:"[BM][BK + 4]"
 * corpus/matmul.cu:111:24: warning: 2-way bank conflict on load of 'As' (float[64][16]) in kernel 'matmul_regblock' with blockDim (16,16,1) from the launch on line 150; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 256) [bank-conflict]
 *                   a[i] = As[ty * 4 + i][k];
 *                          ^~~~~~~~~~~~~~~~~
 * corpus/matmul.cu:90:5: note: 'As' declared here
 * corpus/matmul.cu:111:24: note: declare 'As' as `float As[64][20]`: +1024 bytes per block (8192 -> 9216 bytes of static shared memory); 2 of 2 conflicting accesses become conflict-free
 * fix-it:"corpus/matmul.cu":{90:24-90:32}:"[BM][BK + 4]"
 * check-output-end
 */
