// 1D and 2D convolution with the filter in constant memory and the input
// tile (plus apron) staged in shared memory.
#include "common.cuh"

#define N1 512
#define BLOCK1 128
#define R1 3
__constant__ float c_mask1[2 * R1 + 1];

__global__ void conv1d(const float *in, float *out, int n)
{
    __shared__ float s[BLOCK1 + 2 * R1];
    int tid = threadIdx.x;
    int gi = blockIdx.x * BLOCK1 + tid;

    s[tid + R1] = in[gi];
    if (tid < R1) {
        s[tid] = in[max(gi - R1, 0)];
        s[tid + BLOCK1 + R1] = in[min(gi + BLOCK1, n - 1)];
    }
    __syncthreads();

    float sum = 0.0f;
#pragma unroll
    for (int j = -R1; j <= R1; ++j)
        sum += s[tid + R1 + j] * c_mask1[j + R1];
    out[gi] = sum;
}

// 5x5 convolution, 16x16 output tile, 20x20 input tile loaded cooperatively.
#define W2 64
#define H2 64
#define R2 2
#define T2 16
#define TW (T2 + 2 * R2)
__constant__ float c_mask2[2 * R2 + 1][2 * R2 + 1];

__global__ void conv2d(const float *in, float *out)
{
    __shared__ float tile[TW][TW];
    int tx = threadIdx.x, ty = threadIdx.y;
    int ox = blockIdx.x * T2;
    int oy = blockIdx.y * T2;

    for (int y = ty; y < TW; y += T2) {
        for (int x = tx; x < TW; x += T2) {
            int gx = min(max(ox + x - R2, 0), W2 - 1);
            int gy = min(max(oy + y - R2, 0), H2 - 1);
            tile[y][x] = in[gy * W2 + gx];
        }
    }
    __syncthreads();

    float sum = 0.0f;
#pragma unroll
    for (int i = 0; i < 2 * R2 + 1; ++i)
#pragma unroll
        for (int j = 0; j < 2 * R2 + 1; ++j)
            sum += tile[ty + i][tx + j] * c_mask2[i][j];
    out[(oy + ty) * W2 + ox + tx] = sum;
}

int main()
{
    float h_mask1[2 * R1 + 1], h_mask2[2 * R2 + 1][2 * R2 + 1];
    for (int i = 0; i < 2 * R1 + 1; ++i)
        h_mask1[i] = 1.0f / (2 * R1 + 1);
    for (int i = 0; i < 2 * R2 + 1; ++i)
        for (int j = 0; j < 2 * R2 + 1; ++j)
            h_mask2[i][j] = 1.0f / 25.0f;
    CUDA_CHECK(cudaMemcpyToSymbol(c_mask1, h_mask1, sizeof(h_mask1)));
    CUDA_CHECK(cudaMemcpyToSymbol(c_mask2, h_mask2, sizeof(h_mask2)));

    float *d_in, *d_out;
    const size_t bytes = W2 * H2 * sizeof(float);
    CUDA_CHECK(cudaMalloc(&d_in, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    CUDA_CHECK(cudaMemset(d_in, 0, bytes));

    conv1d<<<N1 / BLOCK1, BLOCK1>>>(d_in, d_out, N1);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    conv2d<<<dim3(2, 2), dim3(T2, T2)>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return 0;
}

/*
 * check-output-start
 * corpus/conv.cu:49:13: warning: 2-way bank conflict on store of 'tile' (float[20][20]) in kernel 'conv2d' with blockDim (16,16,1) from the launch on line 84 (mean 1.50-way over the iterations); lanes 0 and 28 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *               tile[y][x] = in[gy * W2 + gx];
 *               ^~~~~~~~~~
 * corpus/conv.cu:40:5: note: 'tile' declared here
 * corpus/conv.cu:49:13: note: declare 'tile' as `float tile[20][48]`: +2240 bytes per block (1600 -> 3840 bytes of static shared memory); 2 of 2 conflicting accesses become conflict-free
 * fix-it:"corpus/conv.cu":{40:26-40:34}:"[TW][TW + 28]"
 * corpus/conv.cu:59:20: warning: 2-way bank conflict on load of 'tile' (float[20][20]) in kernel 'conv2d' with blockDim (16,16,1) from the launch on line 84; lanes 0 and 28 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *               sum += tile[ty + i][tx + j] * c_mask2[i][j];
 *                      ^~~~~~~~~~~~~~~~~~~~
 * corpus/conv.cu:40:5: note: 'tile' declared here
 * corpus/conv.cu:59:20: note: declare 'tile' as `float tile[20][48]`: +2240 bytes per block (1600 -> 3840 bytes of static shared memory); 2 of 2 conflicting accesses become conflict-free
 * fix-it:"corpus/conv.cu":{40:26-40:34}:"[TW][TW + 28]"
 * check-output-end
 */
