// Double-precision shared arrays: 8-byte accesses are served per half-warp.
#include "common.cuh"

#define DBLOCK 128
#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void double_stride1(const double *in, double *out)
{
    __shared__ double s[DBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * DBLOCK + tid;
    s[tid] = in[i];
    __syncthreads();
    out[i] = s[DBLOCK - 1 - tid] * 0.5;
}

__global__ void double_stride2(const double *in, double *out)
{
    __shared__ double s[2 * DBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * DBLOCK + tid;
    s[2 * tid] = in[i];
    __syncthreads();
    out[i] = s[2 * tid] * 0.5;
}

// Column read of an unpadded double tile: 16 distinct words per bank pair.
__global__ void double_transpose_naive(double *odata, const double *idata)
{
    __shared__ double tile[TILE_DIM][TILE_DIM];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    int width = gridDim.x * TILE_DIM;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

// One double of padding per row (odd row pitch in 8-byte units).
__global__ void double_transpose_padded(double *odata, const double *idata)
{
    __shared__ double tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    int width = gridDim.x * TILE_DIM;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main()
{
    const int n = 64;
    const size_t bytes = n * n * sizeof(double);
    double *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    CUDA_CHECK(cudaMemset(d_in, 0, bytes));

    double_stride1<<<2, DBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    double_stride2<<<2, DBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    double_transpose_naive<<<dim3(n / TILE_DIM, n / TILE_DIM), dim3(TILE_DIM, BLOCK_ROWS)>>>(d_out, d_in);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    double_transpose_padded<<<dim3(n / TILE_DIM, n / TILE_DIM), dim3(TILE_DIM, BLOCK_ROWS)>>>(d_out, d_in);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return 0;
}

/*
 * check-output-start
 * corpus/types_double.cu:23:5: warning: 2-way bank conflict on store of 's' (double[256]) in kernel 'double_stride2' with blockDim (128,1,1) from the launch on line 75; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[2 * tid] = in[i];
 *       ^~~~~~~~~~
 * corpus/types_double.cu:20:5: note: 's' declared here
 * corpus/types_double.cu:25:14: warning: 2-way bank conflict on load of 's' (double[256]) in kernel 'double_stride2' with blockDim (128,1,1) from the launch on line 75; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[i] = s[2 * tid] * 0.5;
 *                ^~~~~~~~~~
 * corpus/types_double.cu:20:5: note: 's' declared here
 * corpus/types_double.cu:42:38: warning: 16-way bank conflict on load of 'tile' (double[32][32]) in kernel 'double_transpose_naive' with blockDim (32,8,1) from the launch on line 79; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 256) [bank-conflict]
 *           odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
 *                                        ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/types_double.cu:31:5: note: 'tile' declared here
 * corpus/types_double.cu:42:38: note: declare 'tile' as `double tile[32][33]`: +256 bytes per block (8192 -> 8448 bytes of static shared memory); 1 of 1 conflicting accesses become conflict-free
 * fix-it:"corpus/types_double.cu":{31:27-31:47}:"[TILE_DIM][TILE_DIM + 1]"
 * check-output-end
 */
