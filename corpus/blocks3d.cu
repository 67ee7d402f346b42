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

/*
 * check-output-start
 * corpus/blocks3d.cu:28:5: warning: 2-way bank conflict on store of 's' (float[8][4][2]) in kernel 'block3d_transposed' with blockDim (8,4,2) from the launch on line 68; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[tx][ty][tz] = in[i];
 *       ^~~~~~~~~~~~~
 * corpus/blocks3d.cu:24:5: note: 's' declared here
 * corpus/blocks3d.cu:28:5: note: declare 's' as `float s[8][4][3]`: +128 bytes per block (256 -> 384 bytes of static shared memory); 2 of 2 conflicting accesses become conflict-free
 * fix-it:"corpus/blocks3d.cu":{24:23-24:35}:"[BX][BY][BZ + 1]"
 * corpus/blocks3d.cu:30:14: warning: 2-way bank conflict on load of 's' (float[8][4][2]) in kernel 'block3d_transposed' with blockDim (8,4,2) from the launch on line 68; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[i] = s[tx][ty][tz] * 3.0f;
 *                ^~~~~~~~~~~~~
 * corpus/blocks3d.cu:24:5: note: 's' declared here
 * corpus/blocks3d.cu:30:14: note: declare 's' as `float s[8][4][3]`: +128 bytes per block (256 -> 384 bytes of static shared memory); 2 of 2 conflicting accesses become conflict-free
 * fix-it:"corpus/blocks3d.cu":{24:23-24:35}:"[BX][BY][BZ + 1]"
 * corpus/blocks3d.cu:39:5: warning: 4-way bank conflict on store of 's' (float[128]) in kernel 'blockdim_colmajor' with blockDim (32,4,1) from the launch on line 72; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[threadIdx.x * blockDim.y + threadIdx.y] = in[i];
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/blocks3d.cu:36:5: note: 's' declared here
 * corpus/blocks3d.cu:39:5: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/blocks3d.cu:41:14: warning: 4-way bank conflict on load of 's' (float[128]) in kernel 'blockdim_colmajor' with blockDim (32,4,1) from the launch on line 72; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[i] = s[threadIdx.x * blockDim.y + threadIdx.y] + 1.0f;
 *                ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/blocks3d.cu:36:5: note: 's' declared here
 * corpus/blocks3d.cu:41:14: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * check-output-end
 */
