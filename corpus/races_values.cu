// Values the race model follows (issue 23; the patterns of llm.c's
// layernorm_backward_kernel10 and ggml's mul_mat_vec_f and
// flash_attn_mask_to_KV_max, written afresh).
// - halves: one dynamic array split at R, a parameter's round-up, and
//   zeroed by a loop bounded by R: the two halves never meet (a witness
//   holds at one value of R); the twin starts its upper half 32 floats
//   early, and racecheck sees the two stores meet.
// - col_sums: a butterfly warp sum kept in a local array, sumf[j], then
//   stored by every lane of the warp to part[warp]: one value (a benign
//   same-value write, which racecheck does not report); the twin stores
//   each lane's own partial sum, a race inside the warp.
// - vote_back: every warp votes on buf[lane], which all warps read whole,
//   and leaves the loop on that vote together: no race, no divergence.
#include "common.cuh"
#include <cstdlib>

#define NT 512

__global__ void __launch_bounds__(NT) halves(float *g, int C)
{
    extern __shared__ float sh[];
    int R = ((C + 127) / 128) * 128;
    float *lo = sh;
    float *hi = sh + R;
    for (int i = threadIdx.x * 4; i < R; i += blockDim.x * 4) {
        *reinterpret_cast<float4 *>(lo + i) = make_float4(1.f, 1.f, 1.f, 1.f);
        *reinterpret_cast<float4 *>(hi + i) = make_float4(2.f, 2.f, 2.f, 2.f);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < 2 * R; i += blockDim.x)
        g[i] = sh[i];
}

// twin: the upper half starts 32 floats early, inside the lower one
__global__ void __launch_bounds__(NT) halves_overlap(float *g, int C)
{
    extern __shared__ float sh2[];
    int R = ((C + 127) / 128) * 128;
    float *lo = sh2;
    float *hi = sh2 + R - 32;
    for (int i = threadIdx.x * 4; i < R; i += blockDim.x * 4) {
        *reinterpret_cast<float4 *>(lo + i) = make_float4(1.f, 1.f, 1.f, 1.f);
        *reinterpret_cast<float4 *>(hi + i) = make_float4(2.f, 2.f, 2.f, 2.f);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < 2 * R; i += blockDim.x)
        g[i] = sh2[i];
}

__device__ __forceinline__ float warp_sum(float x)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        x += __shfl_xor_sync(0xffffffff, x, o);
    return x;
}

template <int ncols>
__global__ void col_sums(const float *in, float *out)
{
    __shared__ float part[8];
    float sumf[ncols] = {0.0f};
    for (int j = 0; j < ncols; ++j)
        sumf[j] += in[j * 256 + threadIdx.x];
    for (int j = 0; j < ncols; ++j) {
        sumf[j] = warp_sum(sumf[j]);
        part[threadIdx.x / 32] = sumf[j];
        __syncthreads();
        if (threadIdx.x < 8)
            out[j * 8 + threadIdx.x] = part[threadIdx.x];
        __syncthreads();
    }
}

// twin: each lane stores its own partial sum into its warp's slot
template <int ncols>
__global__ void col_parts(const float *in, float *out)
{
    __shared__ float part2[8];
    float sumf[ncols] = {0.0f};
    for (int j = 0; j < ncols; ++j)
        sumf[j] += in[j * 256 + threadIdx.x];
    for (int j = 0; j < ncols; ++j) {
        part2[threadIdx.x / 32] = sumf[j];
        __syncthreads();
        if (threadIdx.x < 8)
            out[j * 8 + threadIdx.x] = part2[threadIdx.x];
        __syncthreads();
    }
}

__device__ __forceinline__ int warp_all(int x)
{
    return __all_sync(0xffffffff, x);
}

__global__ void vote_back(const float *mask, int *out, int n)
{
    __shared__ int buf[32];
    const int tid = threadIdx.x;
    int kv = n - 256;
    for (; kv >= 0; kv -= 256) {
        int all_inf = warp_all(isinf(mask[kv + tid]));
        if (tid % 32 == 0)
            buf[tid / 32] = all_inf;
        __syncthreads();
        all_inf = warp_all(tid % 32 < blockDim.x / 32 ? buf[tid % 32] : 1);
        __syncthreads();
        if (!all_inf)
            break;
    }
    if (tid == 0)
        out[blockIdx.x] = kv;
}

int main(int argc, char **argv)
{
    const int C = 1000, R = 1024, n = 4 * 256;
    float *d_g, *d_in, *d_out;
    int *d_kv;
    CUDA_CHECK(cudaMalloc(&d_g, 2 * R * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_kv, sizeof(int)));
    float h[n];
    for (int i = 0; i < n; i++)
        h[i] = i >= 3 * 256 ? INFINITY : (float)(i % 7);
    CUDA_CHECK(cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice));

    halves<<<1, NT, 2 * R * sizeof(float)>>>(d_g, C);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    halves_overlap<<<1, NT, 2 * R * sizeof(float)>>>(d_g, C);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    col_sums<4><<<1, 256>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    col_parts<4><<<1, 256>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    vote_back<<<1, 256>>>(d_in, d_kv, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    int kv;
    CUDA_CHECK(cudaMemcpy(&kv, d_kv, sizeof(int), cudaMemcpyDeviceToHost));

    CUDA_CHECK(cudaFree(d_g));
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_kv));
    printf("races_values: ok (kv %d)\n", kv);
    return 0;
}

/*
 * check-output-start
 * corpus/races_values.cu:43:9: error: missing barrier: write-after-write race on 'sh2': thread 0 writes sh2[992], which thread 248 wrote at line 42, with no __syncthreads() in between (different warps) in kernel 'halves_overlap' with blockDim (512,1,1) from the launch on line 133 [missing-barrier]
 *           *reinterpret_cast<float4 *>(hi + i) = make_float4(2.f, 2.f, 2.f, 2.f);
 *           ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/races_values.cu:42:9: note: the racing write of 'sh2' by thread 248
 * corpus/races_values.cu:37:5: note: 'sh2' declared here
 * corpus/races_values.cu:43:9: note: add __syncthreads() between the two accesses
 * corpus/races_values.cu:67:9: note: benign race: threads write the same value to 'part': thread 0 writes part[0], which thread 1 also writes in the same statement, lanes of one warp (the value is the same whichever write lands) in kernel 'col_sums' with blockDim (256,1,1) from the launch on line 137 [same-value-write]
 *           part[threadIdx.x / 32] = sumf[j];
 *           ^~~~~~~~~~~~~~~~~~~~~~
 * corpus/races_values.cu:67:9: note: the same value written by thread 1
 * corpus/races_values.cu:61:5: note: 'part' declared here
 * corpus/races_values.cu:67:9: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * corpus/races_values.cu:84:9: warning: unsynchronized warp exchange on 'part2': lane 0 of warp 0 writes part2[0], which lane 1 also writes in the same statement, lanes of one warp in one statement (which lane's write lands is undefined) in kernel 'col_parts' with blockDim (256,1,1) from the launch on line 140 [warp-sync]
 *           part2[threadIdx.x / 32] = sumf[j];
 *           ^~~~~~~~~~~~~~~~~~~~~~~
 * corpus/races_values.cu:84:9: note: the other lane's write of 'part2'
 * corpus/races_values.cu:79:5: note: 'part2' declared here
 * corpus/races_values.cu:84:9: note: let one lane write it, or give each lane its own element
 * check-output-end
 */
