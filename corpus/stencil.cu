// 5-point 2D stencil (Jacobi step) with a one-cell halo held in shared memory.
#include "common.cuh"

#define W 32
#define H 32
#define RADIUS 1

// 16x16 block, tile 18 floats wide: the two half-warps of each warp sit
// 18 words apart, so their first/last columns share banks.
#define BX 16
#define BY 16
__global__ void stencil2d_16x16(const float *in, float *out)
{
    __shared__ float tile[BY + 2 * RADIUS][BX + 2 * RADIUS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * BX + tx;
    int gy = blockIdx.y * BY + ty;
    int lx = tx + RADIUS;
    int ly = ty + RADIUS;

    tile[ly][lx] = in[gy * W + gx];
    if (tx < RADIUS) {
        tile[ly][lx - RADIUS] = in[gy * W + max(gx - RADIUS, 0)];
        tile[ly][lx + BX] = in[gy * W + min(gx + BX, W - 1)];
    }
    if (ty < RADIUS) {
        tile[ly - RADIUS][lx] = in[max(gy - RADIUS, 0) * W + gx];
        tile[ly + BY][lx] = in[min(gy + BY, H - 1) * W + gx];
    }
    __syncthreads();

    float c = tile[ly][lx];
    float l = tile[ly][lx - 1];
    float r = tile[ly][lx + 1];
    float u = tile[ly - 1][lx];
    float d = tile[ly + 1][lx];
    out[gy * W + gx] = 0.2f * (c + l + r + u + d);
}

// Same stencil with a 32x8 block: each warp owns one tile row, conflict-free.
#define CX 32
#define CY 8
__global__ void stencil2d_32x8(const float *in, float *out)
{
    __shared__ float tile[CY + 2 * RADIUS][CX + 2 * RADIUS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * CX + tx;
    int gy = blockIdx.y * CY + ty;
    int lx = tx + RADIUS;
    int ly = ty + RADIUS;

    tile[ly][lx] = in[gy * W + gx];
    if (tx < RADIUS) {
        tile[ly][lx - RADIUS] = in[gy * W + max(gx - RADIUS, 0)];
        tile[ly][lx + CX] = in[gy * W + min(gx + CX, W - 1)];
    }
    if (ty < RADIUS) {
        tile[ly - RADIUS][lx] = in[max(gy - RADIUS, 0) * W + gx];
        tile[ly + CY][lx] = in[min(gy + CY, H - 1) * W + gx];
    }
    __syncthreads();

    float c = tile[ly][lx];
    float l = tile[ly][lx - 1];
    float r = tile[ly][lx + 1];
    float u = tile[ly - 1][lx];
    float d = tile[ly + 1][lx];
    out[gy * W + gx] = 0.2f * (c + l + r + u + d);
}

int main()
{
    const size_t bytes = W * H * sizeof(float);
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    CUDA_CHECK(cudaMemset(d_in, 0, bytes));

    stencil2d_16x16<<<dim3(W / BX, H / BY), dim3(BX, BY)>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    stencil2d_32x8<<<dim3(W / CX, H / CY), dim3(CX, CY)>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return 0;
}

/* smemlint-expect
 * 21 bank-conflict tile 2
 * 32 bank-conflict tile 2
 * 33 bank-conflict tile 2
 * 34 bank-conflict tile 2
 * 35 bank-conflict tile 2
 * 36 bank-conflict tile 2
 */
