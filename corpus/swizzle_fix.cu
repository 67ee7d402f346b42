// Tiles whose conflict no padding removes: a 16-column tile read by columns
// from a 16x16 block (a warp spans two rows, so every pad makes the row-wise
// store conflict). smemlint suggests an XOR swizzle of the column by the row
// and `--fix` rewrites every access; main() checks every result on the host,
// so the fixed file is proven to compute the same values on the GPU.
#include "common.cuh"

#define T16 16
#define T8 8

// a 16x16 transpose: the column read is 8-way
__global__ void swz_transpose16(const float *in, float *out)
{
    __shared__ float tile[T16][T16];
    int x = threadIdx.x, y = threadIdx.y;
    tile[y][x] = in[y * T16 + x];
    __syncthreads();
    out[y * T16 + x] = tile[x][y];
}

// an 8x8 transpose: two warps' worth of rows, the column read is 2-way
__global__ void swz_transpose8(const float *in, float *out)
{
    __shared__ float t8[T8][T8];
    int x = threadIdx.x, y = threadIdx.y;
    t8[y][x] = in[y * T8 + x];
    __syncthreads();
    out[y * T8 + x] = t8[x][y];
}

// column sums accumulated in place (load and store of one expression), then
// read by rows and from a constant row, which the swizzle leaves alone
__global__ void swz_accumulate(const int *in, int *out)
{
    __shared__ int acc[T16][T16];
    int x = threadIdx.x, y = threadIdx.y;
    acc[y][x] = 0;
    __syncthreads();
    for (int k = 0; k < 4; k++)
        acc[x][y] += in[(k * T16 + y) * T16 + x];
    __syncthreads();
    out[y * T16 + x] = acc[y][x] + acc[0][x];
}

static int check(const char *what, const float *got, const float *want, int n)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            printf("check %s: FAILED at %d: %g, want %g\n", what, i, got[i], want[i]);
            return 1;
        }
    printf("check %s: ok\n", what);
    return 0;
}

int main()
{
    const int n = T16 * T16, m = 4 * T16 * T16;
    float h_in[T16 * T16], h_out[T16 * T16], want[T16 * T16];
    int h_iin[4 * T16 * T16], h_iout[T16 * T16];
    for (int i = 0; i < n; i++)
        h_in[i] = (float)(i * 3 + 1);
    for (int i = 0; i < m; i++)
        h_iin[i] = i % 97;
    float *d_in, *d_out;
    int *d_iin, *d_iout;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_iin, m * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_iout, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_iin, h_iin, m * sizeof(int), cudaMemcpyHostToDevice));
    int bad = 0;

    swz_transpose16<<<1, dim3(T16, T16)>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int y = 0; y < T16; y++)
        for (int x = 0; x < T16; x++)
            want[y * T16 + x] = h_in[x * T16 + y];
    bad |= check("swz_transpose16", h_out, want, n);

    swz_transpose8<<<1, dim3(T8, T8)>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_out, d_out, T8 * T8 * sizeof(float), cudaMemcpyDeviceToHost));
    for (int y = 0; y < T8; y++)
        for (int x = 0; x < T8; x++)
            want[y * T8 + x] = h_in[x * T8 + y];
    bad |= check("swz_transpose8", h_out, want, T8 * T8);

    swz_accumulate<<<1, dim3(T16, T16)>>>(d_iin, d_iout);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_iout, d_iout, n * sizeof(int), cudaMemcpyDeviceToHost));
    int acc[T16][T16];
    for (int r = 0; r < T16; r++)
        for (int c = 0; c < T16; c++) {
            acc[r][c] = 0; // thread (x = r, y = c) sums in[(k*16 + c)*16 + r]
            for (int k = 0; k < 4; k++)
                acc[r][c] += h_iin[(k * T16 + c) * T16 + r];
        }
    for (int y = 0; y < T16; y++)
        for (int x = 0; x < T16; x++) {
            h_out[y * T16 + x] = (float)h_iout[y * T16 + x];
            want[y * T16 + x] = (float)(acc[y][x] + acc[0][x]);
        }
    bad |= check("swz_accumulate", h_out, want, n);

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_iin));
    CUDA_CHECK(cudaFree(d_iout));
    return bad;
}

/*
 * check-output-start
 * corpus/swizzle_fix.cu:18:24: warning: 8-way bank conflict on load of 'tile' (float[16][16]) in kernel 'swz_transpose16' with blockDim (16,16,1) from the launch on line 75; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[y * T16 + x] = tile[x][y];
 *                          ^~~~~~~~~~
 * corpus/swizzle_fix.cu:14:5: note: 'tile' declared here
 * corpus/swizzle_fix.cu:18:24: note: swizzle 'tile': write every access `tile[r][c]` as `tile[r][c ^ (r & 15)]`: 1 of 1 conflicting accesses become conflict-free (verified); write this access as `tile[x][y ^ (x & 15)]`
 * fix-it:"corpus/swizzle_fix.cu":{16:13-16:14}:"x ^ (y & 15)"
 * fix-it:"corpus/swizzle_fix.cu":{18:32-18:33}:"y ^ (x & 15)"
 * corpus/swizzle_fix.cu:28:23: warning: 2-way bank conflict on load of 't8' (float[8][8]) in kernel 'swz_transpose8' with blockDim (8,8,1) from the launch on line 84; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[y * T8 + x] = t8[x][y];
 *                         ^~~~~~~~
 * corpus/swizzle_fix.cu:24:5: note: 't8' declared here
 * corpus/swizzle_fix.cu:28:23: note: swizzle 't8': write every access `t8[r][c]` as `t8[r][c ^ (r & 7)]`: 1 of 1 conflicting accesses become conflict-free (verified); write this access as `t8[x][y ^ (x & 7)]`
 * fix-it:"corpus/swizzle_fix.cu":{26:11-26:12}:"x ^ (y & 7)"
 * fix-it:"corpus/swizzle_fix.cu":{28:29-28:30}:"y ^ (x & 7)"
 * corpus/swizzle_fix.cu:40:9: warning: 8-way bank conflict on load and store of 'acc' (int[16][16]) in kernel 'swz_accumulate' with blockDim (16,16,1) from the launch on line 93; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           acc[x][y] += in[(k * T16 + y) * T16 + x];
 *           ^~~~~~~~~
 * corpus/swizzle_fix.cu:35:5: note: 'acc' declared here
 * corpus/swizzle_fix.cu:40:9: note: swizzle 'acc': write every access `acc[r][c]` as `acc[r][c ^ (r & 15)]`: 2 of 2 conflicting accesses become conflict-free (verified); write this access as `acc[x][y ^ (x & 15)]`
 * fix-it:"corpus/swizzle_fix.cu":{37:12-37:13}:"x ^ (y & 15)"
 * fix-it:"corpus/swizzle_fix.cu":{40:16-40:17}:"y ^ (x & 15)"
 * fix-it:"corpus/swizzle_fix.cu":{42:31-42:32}:"x ^ (y & 15)"
 * check-output-end
 */
