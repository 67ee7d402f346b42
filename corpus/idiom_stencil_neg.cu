// Real-code idioms: convolutions whose tap loops start at a negative
// offset (for (j = -R; j <= R; j++) s[ty][x + j]), on tiles whose row width
// makes the two rows of a warp collide, and padded twins.
#include "common.cuh"

#define R 2
#define TS 16                 // tile of outputs per block side
#define TW (TS + 2 * R)       // 20: rows 20 words apart
#define TWP 48                // padded row: 48 = 16 (mod 32)

__constant__ float c_taps[2 * R + 1] = {0.1f, 0.2f, 0.4f, 0.2f, 0.1f};

// Row filter, 16x16 block, tile [16][20]: a warp covers rows ty and ty+1.
__global__ void ng_row_conv_w20(const float *in, float *out, int width)
{
    __shared__ float s_r20[TS][TW];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * TS + tx, gy = blockIdx.y * TS + ty;
    const float *row = in + gy * width;
    int x = tx + R;
    s_r20[ty][x] = row[gx];
    if (tx < R) {
        s_r20[ty][tx] = (gx >= R) ? row[gx - R] : 0.0f;
        s_r20[ty][x + TS] = (gx + TS < width) ? row[gx + TS] : 0.0f;
    }
    __syncthreads();
    float sum = 0.0f;
    for (int j = -R; j <= R; j++)
        sum += c_taps[j + R] * s_r20[ty][x + j];
    out[gy * width + gx] = sum;
}

// Same filter with rows padded to 48 words.
__global__ void ng_row_conv_w48(const float *in, float *out, int width)
{
    __shared__ float s_r48[TS][TWP];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * TS + tx, gy = blockIdx.y * TS + ty;
    const float *row = in + gy * width;
    int x = tx + R;
    s_r48[ty][x] = row[gx];
    if (tx < R) {
        s_r48[ty][tx] = (gx >= R) ? row[gx - R] : 0.0f;
        s_r48[ty][x + TS] = (gx + TS < width) ? row[gx + TS] : 0.0f;
    }
    __syncthreads();
    float sum = 0.0f;
    for (int j = -R; j <= R; j++)
        sum += c_taps[j + R] * s_r48[ty][x + j];
    out[gy * width + gx] = sum;
}

// 5x5 filter, 16x16 block, tile [20][20] loaded in two passes per axis.
__global__ void ng_conv2d_w20(const float *in, float *out, int width, int height)
{
    __shared__ float s_t20[TW][TW];
    int tx = threadIdx.x, ty = threadIdx.y;
    int ox = blockIdx.x * TS - R, oy = blockIdx.y * TS - R;
    for (int r = ty; r < TW; r += TS)
        for (int c = tx; c < TW; c += TS) {
            int gx = ox + c, gy = oy + r;
            bool inside = gx >= 0 && gx < width && gy >= 0 && gy < height;
            s_t20[r][c] = inside ? in[gy * width + gx] : 0.0f;
        }
    __syncthreads();
    int y = ty + R, x = tx + R;
    float sum = 0.0f;
    for (int dy = -R; dy <= R; dy++)
        for (int dx = -R; dx <= R; dx++)
            sum += c_taps[dy + R] * c_taps[dx + R] * s_t20[y + dy][x + dx];
    out[(blockIdx.y * TS + ty) * width + blockIdx.x * TS + tx] = sum;
}

// Same 5x5 filter with rows padded to 48 words.
__global__ void ng_conv2d_w48(const float *in, float *out, int width, int height)
{
    __shared__ float s_t48[TW][TWP];
    int tx = threadIdx.x, ty = threadIdx.y;
    int ox = blockIdx.x * TS - R, oy = blockIdx.y * TS - R;
    for (int r = ty; r < TW; r += TS)
        for (int c = tx; c < TW; c += TS) {
            int gx = ox + c, gy = oy + r;
            bool inside = gx >= 0 && gx < width && gy >= 0 && gy < height;
            s_t48[r][c] = inside ? in[gy * width + gx] : 0.0f;
        }
    __syncthreads();
    int y = ty + R, x = tx + R;
    float sum = 0.0f;
    for (int dy = -R; dy <= R; dy++)
        for (int dx = -R; dx <= R; dx++)
            sum += c_taps[dy + R] * c_taps[dx + R] * s_t48[y + dy][x + dx];
    out[(blockIdx.y * TS + ty) * width + blockIdx.x * TS + tx] = sum;
}

#define CW 32   // column filter: 32 x 8 block, one row of the tile per warp
#define CH 8

// Column filter, tile [8 + 2R][32]: each warp reads one tile row.
__global__ void ng_col_conv_32x8(const float *in, float *out, int width, int height)
{
    __shared__ float s_col[CH + 2 * R][CW];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * CW + tx;
    int oy = blockIdx.y * CH - R;
    for (int r = ty; r < CH + 2 * R; r += CH) {
        int gy = oy + r;
        s_col[r][tx] = (gy >= 0 && gy < height) ? in[gy * width + gx] : 0.0f;
    }
    __syncthreads();
    int y = ty + R;
    float sum = 0.0f;
    for (int j = -R; j <= R; j++)
        sum += c_taps[j + R] * s_col[y + j][tx];
    out[(blockIdx.y * CH + ty) * width + gx] = sum;
}

int main()
{
    const int width = 32, height = 32;  // 2x2 tiles of 16x16, 1x4 of 32x8
    const size_t n = width * height;
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_in, 0, n * sizeof(float)));

    dim3 b16(TS, TS), g16(width / TS, height / TS);
    ng_row_conv_w20<<<g16, b16>>>(d_in, d_out, width);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    ng_row_conv_w48<<<g16, b16>>>(d_in, d_out, width);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    ng_conv2d_w20<<<g16, b16>>>(d_in, d_out, width, height);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    ng_conv2d_w48<<<g16, b16>>>(d_in, d_out, width, height);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    dim3 b32(CW, CH), g32(width / CW, height / CH);
    ng_col_conv_32x8<<<g32, b32>>>(d_in, d_out, width, height);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return 0;
}

/*
 * check-output-start
 * corpus/idiom_stencil_neg.cu:21:5: warning: 2-way bank conflict on store of 's_r20' (float[16][20]) in kernel 'ng_row_conv_w20' with blockDim (16,16,1) from the launch on line 127; lanes 0 and 28 of warp 0 hit bank 2 (byte offsets 8 and 136) [bank-conflict]
 *       s_r20[ty][x] = row[gx];
 *       ^~~~~~~~~~~~
 * corpus/idiom_stencil_neg.cu:16:5: note: 's_r20' declared here
 * corpus/idiom_stencil_neg.cu:21:5: note: declare 's_r20' as `float s_r20[16][48]`: +1792 bytes per block (1280 -> 3072 bytes of static shared memory); 2 of 2 conflicting accesses become conflict-free
 * fix-it:"corpus/idiom_stencil_neg.cu":{16:27-16:35}:"[TS][TW + 28]"
 * corpus/idiom_stencil_neg.cu:29:32: warning: 2-way bank conflict on load of 's_r20' (float[16][20]) in kernel 'ng_row_conv_w20' with blockDim (16,16,1) from the launch on line 127; lanes 0 and 28 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           sum += c_taps[j + R] * s_r20[ty][x + j];
 *                                  ^~~~~~~~~~~~~~~~
 * corpus/idiom_stencil_neg.cu:16:5: note: 's_r20' declared here
 * corpus/idiom_stencil_neg.cu:29:32: note: declare 's_r20' as `float s_r20[16][48]`: +1792 bytes per block (1280 -> 3072 bytes of static shared memory); 2 of 2 conflicting accesses become conflict-free
 * fix-it:"corpus/idiom_stencil_neg.cu":{16:27-16:35}:"[TS][TW + 28]"
 * corpus/idiom_stencil_neg.cu:63:13: warning: 2-way bank conflict on store of 's_t20' (float[20][20]) in kernel 'ng_conv2d_w20' with blockDim (16,16,1) from the launch on line 135 (mean 1.50-way over the iterations); lanes 0 and 28 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *               s_t20[r][c] = inside ? in[gy * width + gx] : 0.0f;
 *               ^~~~~~~~~~~
 * corpus/idiom_stencil_neg.cu:56:5: note: 's_t20' declared here
 * corpus/idiom_stencil_neg.cu:63:13: note: declare 's_t20' as `float s_t20[20][48]`: +2240 bytes per block (1600 -> 3840 bytes of static shared memory); 2 of 2 conflicting accesses become conflict-free
 * fix-it:"corpus/idiom_stencil_neg.cu":{56:27-56:35}:"[TW][TW + 28]"
 * corpus/idiom_stencil_neg.cu:70:54: warning: 2-way bank conflict on load of 's_t20' (float[20][20]) in kernel 'ng_conv2d_w20' with blockDim (16,16,1) from the launch on line 135; lanes 0 and 28 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *               sum += c_taps[dy + R] * c_taps[dx + R] * s_t20[y + dy][x + dx];
 *                                                        ^~~~~~~~~~~~~~~~~~~~~
 * corpus/idiom_stencil_neg.cu:56:5: note: 's_t20' declared here
 * corpus/idiom_stencil_neg.cu:70:54: note: declare 's_t20' as `float s_t20[20][48]`: +2240 bytes per block (1600 -> 3840 bytes of static shared memory); 2 of 2 conflicting accesses become conflict-free
 * fix-it:"corpus/idiom_stencil_neg.cu":{56:27-56:35}:"[TW][TW + 28]"
 * check-output-end
 */
