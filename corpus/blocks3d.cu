// 2D/3D thread blocks and indices built from blockDim.
#include "common.cuh"

#define BX 8
#define BY 4
#define BZ 2

// [z][y][x] layout follows the thread linearization: conflict-free.
__global__ void block3d_linear(const float *in, float *out)
{
    __shared__ float s[BZ][BY][BX];
    int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    int lin = tx + ty * BX + tz * BX * BY;
    int i = blockIdx.x * (BX * BY * BZ) + lin;
    s[tz][ty][tx] = in[i];
    __syncthreads();
    out[i] = s[BZ - 1 - tz][ty][tx] + 1.0f;
}

// [x][y][z] layout: a warp (tz fixed) covers words 8*tx + 2*ty (+tz),
// so tx and tx+4 land on the same bank.
__global__ void block3d_transposed(const float *in, float *out)
{
    __shared__ float s[BX][BY][BZ];
    int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    int lin = tx + ty * BX + tz * BX * BY;
    int i = blockIdx.x * (BX * BY * BZ) + lin;
    s[tx][ty][tz] = in[i];
    __syncthreads();
    out[i] = s[tx][ty][tz] * 3.0f;
}

// Column-major indexing through blockDim.y (block 32x4): word 4*x + y.
__global__ void blockdim_colmajor(const float *in, float *out)
{
    __shared__ float s[32 * 4];
    int lin = threadIdx.y * blockDim.x + threadIdx.x;
    int i = blockIdx.x * blockDim.x * blockDim.y + lin;
    s[threadIdx.x * blockDim.y + threadIdx.y] = in[i];
    __syncthreads();
    out[i] = s[threadIdx.x * blockDim.y + threadIdx.y] + 1.0f;
}

// Row-major indexing through blockDim.x (block 16x16): conflict-free.
__global__ void blockdim_rowmajor(const float *in, float *out)
{
    __shared__ float s[16 * 16];
    int idx = threadIdx.y * blockDim.x + threadIdx.x;
    int i = blockIdx.x * blockDim.x * blockDim.y + idx;
    s[idx] = in[i];
    __syncthreads();
    out[i] = s[(blockDim.x * blockDim.y - 1) - idx];
}

int main()
{
    const int blocks = 2;
    const int n = blocks * 256;
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_in, 0, n * sizeof(float)));

    block3d_linear<<<blocks, dim3(BX, BY, BZ)>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    block3d_transposed<<<blocks, dim3(8, 4, 2)>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    blockdim_colmajor<<<blocks, dim3(32, 4)>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    blockdim_rowmajor<<<blocks, dim3(16, 16)>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return 0;
}

/* smemlint-expect
 * 28 bank-conflict s 2
 * 30 bank-conflict s 2
 * 39 bank-conflict s 4
 * 41 bank-conflict s 4
 */
