// Planted: the unpadded transpose tile (a 32-way bank conflict).
#include <cuda_runtime.h>
#include "demo/config.cuh"

__global__ void transpose(float *out, const float *in, int n)
{
    __shared__ float tile[DEMO_TILE][DEMO_TILE];
    int x = blockIdx.x * DEMO_TILE + threadIdx.x;
    int y = blockIdx.y * DEMO_TILE + threadIdx.y;
    for (int j = 0; j < DEMO_TILE; j += DEMO_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * DEMO_TILE + threadIdx.x;
    y = blockIdx.x * DEMO_TILE + threadIdx.y;
    for (int j = 0; j < DEMO_TILE; j += DEMO_ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

void demo_transpose(float *out, const float *in, int n)
{
    dim3 block(DEMO_TILE, DEMO_ROWS);
    dim3 grid(n / DEMO_TILE, n / DEMO_TILE);
    transpose<<<grid, block>>>(out, in, n);
}
