// Tensor-core tile loads and asynchronous copies (sm_80+): ldmatrix and
// stmatrix in inline PTX, cp.async through __pipeline_memcpy_async and in
// inline PTX. Each lane of ldmatrix/stmatrix gives the address of one
// 16-byte row of an 8x8 matrix; the eight rows of one matrix are served
// together (one wavefront when they fall in distinct banks). On tiles with
// 128-byte rows the eight rows share four banks: 8-way. A padded row (144
// bytes) or an XOR swizzle of the 16-byte chunk by the row makes them
// conflict-free. The last two kernels copy asynchronously and read a
// neighbour's element after a barrier: without __pipeline_wait_prior the
// copy may still be in flight (a race); with it, none.
#include "common.cuh"
#include <cuda_pipeline.h>

#define ROWS 16
#define COLS 64 /* 16-bit elements: 128 bytes a row */
#define PCOLS 72 /* padded: 144 bytes a row */

__global__ void ldsm_x4_rows128(const unsigned short *in, unsigned *out)
{
    __shared__ __align__(16) unsigned short tile[ROWS][COLS];
    int t = threadIdx.x;
    for (int i = t; i < ROWS * COLS; i += 32)
        tile[i / COLS][i % COLS] = in[i];
    __syncthreads();
    int row = t % 16, col = (t / 16) * 8;
    unsigned a = (unsigned)__cvta_generic_to_shared(&tile[row][col]);
    unsigned r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
    out[t] = r0 ^ r1 ^ r2 ^ r3;
}

__global__ void ldsm_x4_padded(const unsigned short *in, unsigned *out)
{
    __shared__ __align__(16) unsigned short tile[ROWS][PCOLS];
    int t = threadIdx.x;
    for (int i = t; i < ROWS * COLS; i += 32)
        tile[i / COLS][i % COLS] = in[i];
    __syncthreads();
    int row = t % 16, col = (t / 16) * 8;
    unsigned a = (unsigned)__cvta_generic_to_shared(&tile[row][col]);
    unsigned r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
    out[t] = r0 ^ r1 ^ r2 ^ r3;
}

__global__ void ldsm_x4_swizzled(const unsigned short *in, unsigned *out)
{
    __shared__ __align__(16) unsigned short tile[ROWS][COLS];
    int t = threadIdx.x;
    for (int i = t; i < ROWS * COLS; i += 32)
        tile[i / COLS][i % COLS] = in[i];
    __syncthreads();
    int row = t % 16, chunk = t / 16;
    unsigned a = (unsigned)__cvta_generic_to_shared(&tile[row][(chunk ^ (row & 7)) * 8]);
    unsigned r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
    out[t] = r0 ^ r1 ^ r2 ^ r3;
}

__global__ void ldsm_x1_x2(const unsigned short *in, unsigned *out)
{
    __shared__ __align__(16) unsigned short tile[ROWS][COLS];
    __shared__ __align__(16) unsigned short pad[ROWS][PCOLS];
    int t = threadIdx.x;
    for (int i = t; i < ROWS * COLS; i += 32) {
        tile[i / COLS][i % COLS] = in[i];
        pad[i / COLS][i % COLS] = in[i];
    }
    __syncthreads();
    unsigned a = (unsigned)__cvta_generic_to_shared(&tile[t % 16][0]);
    unsigned b = (unsigned)__cvta_generic_to_shared(&pad[t % 8][8]);
    unsigned r0, r1, r2;
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n" : "=r"(r0), "=r"(r1) : "r"(a));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(r2) : "r"(b));
    out[t] = r0 ^ r1 ^ r2;
}

__global__ void stsm_x4_rows128(const unsigned *in, unsigned *out)
{
    __shared__ __align__(16) unsigned short tile[ROWS][COLS];
    int t = threadIdx.x;
    unsigned v0 = in[t], v1 = in[t + 32], v2 = in[t + 64], v3 = in[t + 96];
    int row = t % 16, col = (t / 16) * 8;
    unsigned a = (unsigned)__cvta_generic_to_shared(&tile[row][col]);
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n"
                 :: "r"(a), "r"(v0), "r"(v1), "r"(v2), "r"(v3) : "memory");
    __syncthreads();
    out[t] = tile[t / 2][(t % 2) * 32] + tile[t / 2][(t % 2) * 32 + 1];
}

__global__ void cpasync_rows128(const float4 *in, float *out)
{
    __shared__ __align__(16) float tile[32][32]; /* 128-byte rows */
    __shared__ __align__(16) float flat[32 * 4];
    int t = threadIdx.x;
    /* one 16-byte chunk of each row: lanes of a quarter-warp in one bank group */
    __pipeline_memcpy_async(&tile[t][0], &in[t], 16);
    /* consecutive 16-byte chunks: conflict-free */
    __pipeline_memcpy_async(&flat[t * 4], &in[t + 32], 16);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[t] = tile[t][0] + tile[t][3] + flat[t];
}

__global__ void cpasync_ptx(const float4 *in, float *out)
{
    __shared__ __align__(16) float tile[32][32];
    int t = threadIdx.x;
    unsigned a = (unsigned)__cvta_generic_to_shared(&tile[t][4]);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(a), "l"(&in[t]) : "memory");
    asm volatile("cp.async.commit_group;\n" ::: "memory");
    asm volatile("cp.async.wait_group 0;\n" ::: "memory");
    __syncthreads();
    out[t] = tile[t][4] + tile[t][7];
}

__global__ void cpasync_no_wait(const float *in, float *out)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&s[t], &in[t], 4);
    __pipeline_commit();
    __syncthreads();
    out[t] = s[(t + 32) % 64];
}

__global__ void cpasync_wait(const float *in, float *out)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&s[t], &in[t], 4);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[t] = s[(t + 32) % 64];
}

/* a double buffer: stage k+1 is copied while stage k is read; the wait
 * for all but the newest group and the barrier before the reads, and the
 * barrier after them, order every copy: no race */
__global__ void pipeline_two_stage(const float *in, float *out, int n)
{
    __shared__ float s[2][64];
    int t = threadIdx.x;
    float acc = 0.0f;
    __pipeline_memcpy_async(&s[0][t], &in[t], 4);
    __pipeline_commit();
    for (int k = 0; k < n; k++) {
        if (k + 1 < n)
            __pipeline_memcpy_async(&s[(k + 1) & 1][t], &in[(k + 1) * 64 + t], 4);
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        acc += s[k & 1][(t + 32) % 64];
        __syncthreads();
    }
    out[t] = acc;
}

/* one buffer and no barrier after the reads: the next iteration's copy
 * overwrites what a slower warp still reads (write-after-read) */
__global__ void pipeline_war(const float *in, float *out, int n)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < n; k++) {
        __pipeline_memcpy_async(&s[t], &in[k * 64 + t], 4);
        __pipeline_commit();
        __pipeline_wait_prior(0);
        __syncthreads();
        acc += s[(t + 32) % 64];
    }
    out[t] = acc;
}

/* ldmatrix is .sync.aligned (the lanes execute it together) but orders no
 * memory: lanes' stores before it of the rows it reads, and after it over
 * them, race without __syncwarp() (racecheck: warnings, as smemlint) */
__global__ void ldsm_after_lane_stores(const unsigned short *in, unsigned *out)
{
    __shared__ __align__(16) unsigned short tile[ROWS][PCOLS];
    int t = threadIdx.x;
    for (int r = 0; r < ROWS; r++)
        tile[r][t] = in[r * 32 + t];
    unsigned a = (unsigned)__cvta_generic_to_shared(&tile[t % 16][(t / 16) * 8]);
    unsigned r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
    out[t] = r0 ^ r1 ^ r2 ^ r3;
}

__global__ void lane_stores_after_ldsm(const unsigned short *in, unsigned *out)
{
    __shared__ __align__(16) unsigned short tile[ROWS][PCOLS];
    int t = threadIdx.x;
    for (int r = 0; r < ROWS; r++)
        tile[r][t] = in[r * 32 + t];
    __syncwarp();
    unsigned a = (unsigned)__cvta_generic_to_shared(&tile[t % 16][(t / 16) * 8]);
    unsigned r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
    for (int r = 0; r < ROWS; r++)
        tile[r][t] = (unsigned short)(r0 + r);
    out[t] = r0 ^ r1 ^ r2 ^ r3 ^ tile[t % 16][t];
}

int main()
{
    unsigned short *d_h;
    unsigned *d_u, *d_o;
    float4 *d_f4;
    float *d_f, *d_of;
    CUDA_CHECK(cudaMalloc(&d_h, ROWS * COLS * sizeof(unsigned short)));
    CUDA_CHECK(cudaMalloc(&d_u, 128 * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_o, 64 * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_f4, 64 * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&d_f, 256 * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_of, 64 * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_h, 0, ROWS * COLS * sizeof(unsigned short)));
    CUDA_CHECK(cudaMemset(d_u, 0, 128 * sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(d_f4, 0, 64 * sizeof(float4)));
    CUDA_CHECK(cudaMemset(d_f, 0, 256 * sizeof(float)));

    ldsm_x4_rows128<<<1, 32>>>(d_h, d_o);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    ldsm_x4_padded<<<1, 32>>>(d_h, d_o);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    ldsm_x4_swizzled<<<1, 32>>>(d_h, d_o);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    ldsm_x1_x2<<<1, 32>>>(d_h, d_o);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    stsm_x4_rows128<<<1, 32>>>(d_u, d_o);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    cpasync_rows128<<<1, 32>>>(d_f4, d_of);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    cpasync_ptx<<<1, 32>>>(d_f4, d_of);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    cpasync_no_wait<<<1, 64>>>(d_f, d_of);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    cpasync_wait<<<1, 64>>>(d_f, d_of);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    pipeline_two_stage<<<1, 64>>>(d_f, d_of, 4);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    pipeline_war<<<1, 64>>>(d_f, d_of, 4);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    ldsm_after_lane_stores<<<1, 32>>>(d_h, d_o);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    lane_stores_after_ldsm<<<1, 32>>>(d_h, d_o);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_h));
    CUDA_CHECK(cudaFree(d_u));
    CUDA_CHECK(cudaFree(d_o));
    CUDA_CHECK(cudaFree(d_f4));
    CUDA_CHECK(cudaFree(d_f));
    CUDA_CHECK(cudaFree(d_of));
    return 0;
}

/*
 * check-output-start
 * corpus/async_ldmatrix.cu:29:1: warning: 8-way bank conflict on ldmatrix.x4 load of 'tile' (unsigned short[16][64]) in kernel 'ldsm_x4_rows128' with blockDim (32,1,1) from the launch on line 230; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *                    : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_ldmatrix.cu:20:5: note: 'tile' declared here
 * corpus/async_ldmatrix.cu:29:1: note: declare 'tile' as `unsigned short tile[16][72]`: +256 bytes per block (2048 -> 2304 bytes of static shared memory); 1 of 1 conflicting accesses become conflict-free; --fix will not apply it: a pointer into 'tile' is formed, so the code may depend on its row size; or, with no extra memory, swizzle 'tile' by 16-byte chunks: write every access `tile[r][c]` as `tile[r][c ^ ((r & 7) << 3)]` (CuTe Swizzle<3,3,3> of its element offset) (verified)
 * corpus/async_ldmatrix.cu:76:1: warning: 8-way bank conflict on ldmatrix.x2 load of 'tile' (unsigned short[16][64]) in kernel 'ldsm_x1_x2' with blockDim (32,1,1) from the launch on line 242; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n" : "=r"(r0), "=r"(r1) : "r"(a));
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_ldmatrix.cu:65:5: note: 'tile' declared here
 * corpus/async_ldmatrix.cu:76:1: note: declare 'tile' as `unsigned short tile[16][72]`: +256 bytes per block (4352 -> 4608 bytes of static shared memory); 1 of 1 conflicting accesses become conflict-free; --fix will not apply it: a pointer into 'tile' is formed, so the code may depend on its row size; or, with no extra memory, swizzle 'tile' by 16-byte chunks: write every access `tile[r][c]` as `tile[r][c ^ ((r & 7) << 3)]` (CuTe Swizzle<3,3,3> of its element offset) (verified)
 * corpus/async_ldmatrix.cu:89:1: warning: 8-way bank conflict on stmatrix.x4 store of 'tile' (unsigned short[16][64]) in kernel 'stsm_x4_rows128' with blockDim (32,1,1) from the launch on line 246; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *                    :: "r"(a), "r"(v0), "r"(v1), "r"(v2), "r"(v3) : "memory");
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_ldmatrix.cu:83:5: note: 'tile' declared here
 * corpus/async_ldmatrix.cu:89:1: note: declare 'tile' as `unsigned short tile[16][72]`: +256 bytes per block (2048 -> 2304 bytes of static shared memory); 1 of 3 conflicting accesses become conflict-free, worst degree 4; --fix will not apply it: a pointer into 'tile' is formed, so the code may depend on its row size
 * corpus/async_ldmatrix.cu:91:14: warning: 16-way bank conflict on load of 'tile' (unsigned short[16][64]) in kernel 'stsm_x4_rows128' with blockDim (32,1,1) from the launch on line 246; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[t] = tile[t / 2][(t % 2) * 32] + tile[t / 2][(t % 2) * 32 + 1];
 *                ^~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_ldmatrix.cu:83:5: note: 'tile' declared here
 * corpus/async_ldmatrix.cu:91:14: note: declare 'tile' as `unsigned short tile[16][72]`: +256 bytes per block (2048 -> 2304 bytes of static shared memory); 1 of 3 conflicting accesses become conflict-free, worst degree 4; --fix will not apply it: a pointer into 'tile' is formed, so the code may depend on its row size
 * corpus/async_ldmatrix.cu:91:42: warning: 16-way bank conflict on load of 'tile' (unsigned short[16][64]) in kernel 'stsm_x4_rows128' with blockDim (32,1,1) from the launch on line 246; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 2 and 130) [bank-conflict]
 *       out[t] = tile[t / 2][(t % 2) * 32] + tile[t / 2][(t % 2) * 32 + 1];
 *                                            ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_ldmatrix.cu:83:5: note: 'tile' declared here
 * corpus/async_ldmatrix.cu:91:42: note: declare 'tile' as `unsigned short tile[16][72]`: +256 bytes per block (2048 -> 2304 bytes of static shared memory); 1 of 3 conflicting accesses become conflict-free, worst degree 4; --fix will not apply it: a pointer into 'tile' is formed, so the code may depend on its row size
 * corpus/async_ldmatrix.cu:100:29: warning: 8-way bank conflict on cp.async (__pipeline_memcpy_async) store of 'tile' (float[32][32]) in kernel 'cpasync_rows128' with blockDim (32,1,1) from the launch on line 250; a warp's cp.async moves 32 pieces, a wavefront each, where one a global 128-byte line it reads would be 4 (a piece: one line at one shift into one shared 128-byte row; a shift splitting 32-byte sectors moves their 16-byte halves apart) [bank-conflict]
 *       __pipeline_memcpy_async(&tile[t][0], &in[t], 16);
 *                               ^~~~~~~~~~~
 * corpus/async_ldmatrix.cu:96:5: note: 'tile' declared here
 * corpus/async_ldmatrix.cu:100:29: note: declare 'tile' as `float tile[32][36]`: +512 bytes per block (4608 -> 5120 bytes of static shared memory); 0 of 3 conflicting accesses become conflict-free, worst degree 8; --fix will not apply it: a pointer into 'tile' is formed, so the code may depend on its row size
 * corpus/async_ldmatrix.cu:106:14: warning: 32-way bank conflict on load of 'tile' (float[32][32]) in kernel 'cpasync_rows128' with blockDim (32,1,1) from the launch on line 250; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[t] = tile[t][0] + tile[t][3] + flat[t];
 *                ^~~~~~~~~~
 * corpus/async_ldmatrix.cu:96:5: note: 'tile' declared here
 * corpus/async_ldmatrix.cu:106:14: note: declare 'tile' as `float tile[32][36]`: +512 bytes per block (4608 -> 5120 bytes of static shared memory); 0 of 3 conflicting accesses become conflict-free, worst degree 8; --fix will not apply it: a pointer into 'tile' is formed, so the code may depend on its row size
 * corpus/async_ldmatrix.cu:106:27: warning: 32-way bank conflict on load of 'tile' (float[32][32]) in kernel 'cpasync_rows128' with blockDim (32,1,1) from the launch on line 250; lanes 0 and 1 of warp 0 hit bank 3 (byte offsets 12 and 140) [bank-conflict]
 *       out[t] = tile[t][0] + tile[t][3] + flat[t];
 *                             ^~~~~~~~~~
 * corpus/async_ldmatrix.cu:96:5: note: 'tile' declared here
 * corpus/async_ldmatrix.cu:106:27: note: declare 'tile' as `float tile[32][36]`: +512 bytes per block (4608 -> 5120 bytes of static shared memory); 0 of 3 conflicting accesses become conflict-free, worst degree 8; --fix will not apply it: a pointer into 'tile' is formed, so the code may depend on its row size
 * corpus/async_ldmatrix.cu:114:1: warning: 8-way bank conflict on cp.async store of 'tile' (float[32][32]) in kernel 'cpasync_ptx' with blockDim (32,1,1) from the launch on line 254; a warp's cp.async moves 32 pieces, a wavefront each, where one a global 128-byte line it reads would be 4 (a piece: one line at one shift into one shared 128-byte row; a shift splitting 32-byte sectors moves their 16-byte halves apart) [bank-conflict]
 *       asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(a), "l"(&in[t]) : "memory");
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_ldmatrix.cu:111:5: note: 'tile' declared here
 * corpus/async_ldmatrix.cu:114:1: note: declare 'tile' as `float tile[32][36]`: +512 bytes per block (4096 -> 4608 bytes of static shared memory); 0 of 3 conflicting accesses become conflict-free, worst degree 8; --fix will not apply it: a pointer into 'tile' is formed, so the code may depend on its row size
 * corpus/async_ldmatrix.cu:118:14: warning: 32-way bank conflict on load of 'tile' (float[32][32]) in kernel 'cpasync_ptx' with blockDim (32,1,1) from the launch on line 254; lanes 0 and 1 of warp 0 hit bank 4 (byte offsets 16 and 144) [bank-conflict]
 *       out[t] = tile[t][4] + tile[t][7];
 *                ^~~~~~~~~~
 * corpus/async_ldmatrix.cu:111:5: note: 'tile' declared here
 * corpus/async_ldmatrix.cu:118:14: note: declare 'tile' as `float tile[32][36]`: +512 bytes per block (4096 -> 4608 bytes of static shared memory); 0 of 3 conflicting accesses become conflict-free, worst degree 8; --fix will not apply it: a pointer into 'tile' is formed, so the code may depend on its row size
 * corpus/async_ldmatrix.cu:118:27: warning: 32-way bank conflict on load of 'tile' (float[32][32]) in kernel 'cpasync_ptx' with blockDim (32,1,1) from the launch on line 254; lanes 0 and 1 of warp 0 hit bank 7 (byte offsets 28 and 156) [bank-conflict]
 *       out[t] = tile[t][4] + tile[t][7];
 *                             ^~~~~~~~~~
 * corpus/async_ldmatrix.cu:111:5: note: 'tile' declared here
 * corpus/async_ldmatrix.cu:118:27: note: declare 'tile' as `float tile[32][36]`: +512 bytes per block (4096 -> 4608 bytes of static shared memory); 0 of 3 conflicting accesses become conflict-free, worst degree 8; --fix will not apply it: a pointer into 'tile' is formed, so the code may depend on its row size
 * corpus/async_ldmatrix.cu:128:14: error: missing barrier: read-after-write race on 's': thread 0 reads s[32], which thread 32 wrote at line 125, while that asynchronous copy may still be in flight: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait, an mbarrier's try_wait) completes it before the __syncthreads() between (different warps) in kernel 'cpasync_no_wait' with blockDim (64,1,1) from the launch on line 258 [missing-barrier]
 *       out[t] = s[(t + 32) % 64];
 *                ^~~~~~~~~~~~~~~~
 * corpus/async_ldmatrix.cu:125:29: note: the racing write of 's' by thread 32
 * corpus/async_ldmatrix.cu:123:5: note: 's' declared here
 * corpus/async_ldmatrix.cu:128:14: note: wait for the copy (__pipeline_wait_prior(0), cp.async.wait_group 0, pipe.consumer_wait() or bar.arrive_and_wait()) before the __syncthreads() that publishes it
 * corpus/async_ldmatrix.cu:172:33: error: missing barrier: write-after-read race on 's': thread 0 overwrites s[0], which thread 32 read at line 176 in the previous iteration, with no __syncthreads() in between (different warps) in kernel 'pipeline_war' with blockDim (64,1,1) from the launch on line 270 [missing-barrier]
 *           __pipeline_memcpy_async(&s[t], &in[k * 64 + t], 4);
 *                                   ^~~~~
 * corpus/async_ldmatrix.cu:176:16: note: the racing read of 's' by thread 32
 * corpus/async_ldmatrix.cu:168:5: note: 's' declared here
 * corpus/async_ldmatrix.cu:172:33: note: add __syncthreads() at the end of the loop body, before the next iteration overwrites what this one reads
 * corpus/async_ldmatrix.cu:193:1: warning: unsynchronized warp exchange on 'tile': lane 0 of warp 0 reads tile[0][1], which lane 1 wrote at line 189, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'ldsm_after_lane_stores' with blockDim (32,1,1) from the launch on line 274 [warp-sync]
 *                    : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_ldmatrix.cu:189:9: note: the other lane's write of 'tile'
 * corpus/async_ldmatrix.cu:186:5: note: 'tile' declared here
 * corpus/async_ldmatrix.cu:193:1: note: add __syncwarp() between the write and the access that depends on it
 * corpus/async_ldmatrix.cu:209:9: warning: unsynchronized warp exchange on 'tile': lane 1 of warp 0 overwrites tile[0][1], which lane 0 read at line 207, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'lane_stores_after_ldsm' with blockDim (32,1,1) from the launch on line 278 [warp-sync]
 *           tile[r][t] = (unsigned short)(r0 + r);
 *           ^~~~~~~~~~
 * corpus/async_ldmatrix.cu:207:1: note: the other lane's read of 'tile'
 * corpus/async_ldmatrix.cu:199:5: note: 'tile' declared here
 * corpus/async_ldmatrix.cu:209:9: note: add __syncwarp() between the write and the access that depends on it
 * corpus/async_ldmatrix.cu:210:34: warning: 2-way bank conflict on load of 'tile' (unsigned short[16][72]) in kernel 'lane_stores_after_ldsm' with blockDim (32,1,1) from the launch on line 278; lanes 1 and 8 of warp 0 hit bank 4 (byte offsets 146 and 1168) [bank-conflict]
 *       out[t] = r0 ^ r1 ^ r2 ^ r3 ^ tile[t % 16][t];
 *                                    ^~~~~~~~~~~~~~~
 * corpus/async_ldmatrix.cu:199:5: note: 'tile' declared here
 * check-output-end
 */
