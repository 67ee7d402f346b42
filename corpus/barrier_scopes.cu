// Barriers smaller than the block (issue 14): a thread_block_tile<32>'s
// sync() under a warp-uniform condition (correct: each tile is whole),
// __syncwarp(mask) for the lanes of the mask, bar.sync with a thread count
// for the warps that take part, and a real race across two tiles that a
// tile barrier does not order.
#include "common.cuh"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define SBLOCK 128

// warp 0 sums four columns and reverses them within its tile: tile.sync()
// under warp_id == 0, reached by every thread of that tile
__global__ void tile_warp_uniform(const float *in, float *out)
{
    __shared__ float s_tw[SBLOCK];
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    int t = threadIdx.x;
    int i = blockIdx.x * SBLOCK + t;
    s_tw[t] = in[i];
    __syncthreads();
    int warp_id = t / 32;
    if (warp_id == 0) {
        float v = s_tw[t] + s_tw[t + 32] + s_tw[t + 64] + s_tw[t + 96];
        tile.sync();
        s_tw[t] = v;
        tile.sync();
        out[i] = s_tw[31 - t];
    }
}

// each thread reads the next warp's element after only tile.sync(): the
// two threads are in different tiles, nothing orders them (a race)
__global__ void tile_across(const float *in, float *out)
{
    __shared__ float s_ta[SBLOCK];
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    int t = threadIdx.x;
    int i = blockIdx.x * SBLOCK + t;
    s_ta[t] = in[i];
    tile.sync();
    out[i] = s_ta[(t + 32) % SBLOCK];
}

// lanes 0..15 of each warp exchange under lane < 16 with __syncwarp(0xffff):
// the mask is exactly the lanes that arrive
__global__ void mask_half_warp(const float *in, float *out)
{
    __shared__ float s_mh[SBLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * SBLOCK + t;
    int lane = t % 32;
    if (lane < 16) {
        s_mh[t] = in[i];
        __syncwarp(0x0000ffff);
        out[i] = s_mh[t ^ 15];
    }
}

// the first two warps meet at named barrier 1 (64 threads) and exchange
// across them; the other warps do not take part
__global__ void named_barrier_64(const float *in, float *out)
{
    __shared__ float s_nb[64];
    int t = threadIdx.x;
    int i = blockIdx.x * SBLOCK + t;
    if (t < 64) {
        s_nb[t] = in[i];
        asm volatile("bar.sync 1, 64;" ::: "memory");
        out[i] = s_nb[63 - t];
    }
}

int main()
{
    const int blocks = 2;
    const size_t n = blocks * SBLOCK;
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    float *h = (float *)malloc(n * sizeof(float));
    if (!h)
        return 1;
    for (size_t k = 0; k < n; k++)
        h[k] = (float)k; /* distinct values: every hazard changes a value */
    CUDA_CHECK(cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice));
    free(h);

    tile_warp_uniform<<<blocks, SBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    tile_across<<<blocks, SBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    mask_half_warp<<<blocks, SBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    named_barrier_64<<<blocks, SBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return 0;
}

/*
 * check-output-start
 * corpus/barrier_scopes.cu:43:14: error: missing barrier: read-after-write race on 's_ta': thread 0 reads s_ta[32], which thread 32 wrote at line 41, with no barrier ordering both threads in between ('tile.sync()' at line 42 orders only a 32-thread tile; different warps) in kernel 'tile_across' with blockDim (128,1,1) from the launch on line 94 [missing-barrier]
 *       out[i] = s_ta[(t + 32) % SBLOCK];
 *                ^~~~~~~~~~~~~~~~~~~~~~~
 * corpus/barrier_scopes.cu:41:5: note: the racing write of 's_ta' by thread 32
 * corpus/barrier_scopes.cu:37:5: note: 's_ta' declared here
 * corpus/barrier_scopes.cu:43:14: note: order the two threads with a barrier whose scope holds both (__syncthreads() for threads of different tiles or warps)
 * check-output-end
 */
