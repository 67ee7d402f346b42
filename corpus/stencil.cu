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

/*
 * check-output-start
 * corpus/stencil.cu:21:5: warning: 2-way bank conflict on store of 'tile' (float[18][18]) in kernel 'stencil2d_16x16' with blockDim (16,16,1) from the launch on line 79; lanes 0 and 30 of warp 0 hit bank 19 (byte offsets 76 and 204) [bank-conflict]
 *       tile[ly][lx] = in[gy * W + gx];
 *       ^~~~~~~~~~~~
 * corpus/stencil.cu:14:5: note: 'tile' declared here
 * corpus/stencil.cu:21:5: note: declare 'tile' as `float tile[18][48]`: +2160 bytes per block (1296 -> 3456 bytes of static shared memory); 6 of 6 conflicting accesses become conflict-free
 * fix-it:"corpus/stencil.cu":{14:26-14:60}:"[BY + 2 * RADIUS][BX + 2 * RADIUS + 30]"
 * corpus/stencil.cu:32:15: warning: 2-way bank conflict on load of 'tile' (float[18][18]) in kernel 'stencil2d_16x16' with blockDim (16,16,1) from the launch on line 79; lanes 0 and 30 of warp 0 hit bank 19 (byte offsets 76 and 204) [bank-conflict]
 *       float c = tile[ly][lx];
 *                 ^~~~~~~~~~~~
 * corpus/stencil.cu:14:5: note: 'tile' declared here
 * corpus/stencil.cu:32:15: note: declare 'tile' as `float tile[18][48]`: +2160 bytes per block (1296 -> 3456 bytes of static shared memory); 6 of 6 conflicting accesses become conflict-free
 * fix-it:"corpus/stencil.cu":{14:26-14:60}:"[BY + 2 * RADIUS][BX + 2 * RADIUS + 30]"
 * corpus/stencil.cu:33:15: warning: 2-way bank conflict on load of 'tile' (float[18][18]) in kernel 'stencil2d_16x16' with blockDim (16,16,1) from the launch on line 79; lanes 0 and 30 of warp 0 hit bank 18 (byte offsets 72 and 200) [bank-conflict]
 *       float l = tile[ly][lx - 1];
 *                 ^~~~~~~~~~~~~~~~
 * corpus/stencil.cu:14:5: note: 'tile' declared here
 * corpus/stencil.cu:33:15: note: declare 'tile' as `float tile[18][48]`: +2160 bytes per block (1296 -> 3456 bytes of static shared memory); 6 of 6 conflicting accesses become conflict-free
 * fix-it:"corpus/stencil.cu":{14:26-14:60}:"[BY + 2 * RADIUS][BX + 2 * RADIUS + 30]"
 * corpus/stencil.cu:34:15: warning: 2-way bank conflict on load of 'tile' (float[18][18]) in kernel 'stencil2d_16x16' with blockDim (16,16,1) from the launch on line 79; lanes 0 and 30 of warp 0 hit bank 20 (byte offsets 80 and 208) [bank-conflict]
 *       float r = tile[ly][lx + 1];
 *                 ^~~~~~~~~~~~~~~~
 * corpus/stencil.cu:14:5: note: 'tile' declared here
 * corpus/stencil.cu:34:15: note: declare 'tile' as `float tile[18][48]`: +2160 bytes per block (1296 -> 3456 bytes of static shared memory); 6 of 6 conflicting accesses become conflict-free
 * fix-it:"corpus/stencil.cu":{14:26-14:60}:"[BY + 2 * RADIUS][BX + 2 * RADIUS + 30]"
 * corpus/stencil.cu:35:15: warning: 2-way bank conflict on load of 'tile' (float[18][18]) in kernel 'stencil2d_16x16' with blockDim (16,16,1) from the launch on line 79; lanes 0 and 30 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *       float u = tile[ly - 1][lx];
 *                 ^~~~~~~~~~~~~~~~
 * corpus/stencil.cu:14:5: note: 'tile' declared here
 * corpus/stencil.cu:35:15: note: declare 'tile' as `float tile[18][48]`: +2160 bytes per block (1296 -> 3456 bytes of static shared memory); 6 of 6 conflicting accesses become conflict-free
 * fix-it:"corpus/stencil.cu":{14:26-14:60}:"[BY + 2 * RADIUS][BX + 2 * RADIUS + 30]"
 * corpus/stencil.cu:36:15: warning: 2-way bank conflict on load of 'tile' (float[18][18]) in kernel 'stencil2d_16x16' with blockDim (16,16,1) from the launch on line 79; lanes 0 and 30 of warp 0 hit bank 5 (byte offsets 148 and 276) [bank-conflict]
 *       float d = tile[ly + 1][lx];
 *                 ^~~~~~~~~~~~~~~~
 * corpus/stencil.cu:14:5: note: 'tile' declared here
 * corpus/stencil.cu:36:15: note: declare 'tile' as `float tile[18][48]`: +2160 bytes per block (1296 -> 3456 bytes of static shared memory); 6 of 6 conflicting accesses become conflict-free
 * fix-it:"corpus/stencil.cu":{14:26-14:60}:"[BY + 2 * RADIUS][BX + 2 * RADIUS + 30]"
 * check-output-end
 */
