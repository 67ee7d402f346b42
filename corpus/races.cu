// Shared-memory ordering: exchanges between threads with and without the
// barrier they need.
#include "common.cuh"

#define RBLOCK 128

// Reverse within the block, no barrier: reads elements other warps write.
__global__ void reverse_nobarrier(const float *in, float *out)
{
    __shared__ float s[RBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * RBLOCK + tid;
    s[tid] = in[i];
    out[i] = s[RBLOCK - 1 - tid];
}

// Reverse within the block, correctly synchronized.
__global__ void reverse_barrier(const float *in, float *out)
{
    __shared__ float s[RBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * RBLOCK + tid;
    s[tid] = in[i];
    __syncthreads();
    out[i] = s[RBLOCK - 1 - tid];
}

// __syncwarp() does not order accesses between different warps.
__global__ void reverse_syncwarp_only(const float *in, float *out)
{
    __shared__ float s[RBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * RBLOCK + tid;
    s[tid] = in[i];
    __syncwarp();
    out[i] = s[RBLOCK - 1 - tid];
}

// Right-neighbour exchange with no barrier.
__global__ void neighbour_nobarrier(const float *in, float *out)
{
    __shared__ float s[RBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * RBLOCK + tid;
    s[tid] = in[i];
    float v = 0.0f;
    if (tid + 1 < RBLOCK)
        v = s[tid + 1];
    out[i] = v - in[i];
}

// Reverse inside each warp, no __syncwarp(): a warp-level exchange.
__global__ void warp_reverse_nosync(const float *in, float *out)
{
    __shared__ float s[RBLOCK];
    int tid = threadIdx.x;
    int lane = tid & 31;
    int base = tid - lane;
    int i = blockIdx.x * RBLOCK + tid;
    s[tid] = in[i];
    out[i] = s[base + 31 - lane];
}

// Reverse inside each warp with __syncwarp(): correct.
__global__ void warp_reverse_syncwarp(const float *in, float *out)
{
    __shared__ float s[RBLOCK];
    int tid = threadIdx.x;
    int lane = tid & 31;
    int base = tid - lane;
    int i = blockIdx.x * RBLOCK + tid;
    s[tid] = in[i];
    __syncwarp();
    out[i] = s[base + 31 - lane];
}

// Each thread only touches its own column of a per-thread ring buffer
// (slot-major so a warp's accesses are unit stride): no barrier needed.
#define RING 4
__global__ void own_element(const float *in, float *out, int iters)
{
    __shared__ float ring[RING][RBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * RBLOCK + tid;
    for (int k = 0; k < RING; ++k)
        ring[k][tid] = 0.0f;
    float sum = 0.0f;
    for (int k = 0; k < iters; ++k) {
        float oldest = ring[k % RING][tid];
        float x = in[(i + k) % (2 * RBLOCK)];
        ring[k % RING][tid] = x;
        sum += x - oldest;
    }
    out[i] = sum + ring[(iters + RING - 1) % RING][tid];
}

int main()
{
    const int blocks = 2;
    const size_t bytes = blocks * RBLOCK * sizeof(float);
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    CUDA_CHECK(cudaMemset(d_in, 0, bytes));

    reverse_nobarrier<<<blocks, RBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    reverse_barrier<<<blocks, RBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    reverse_syncwarp_only<<<blocks, RBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    neighbour_nobarrier<<<blocks, RBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    warp_reverse_nosync<<<blocks, RBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    warp_reverse_syncwarp<<<blocks, RBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    own_element<<<blocks, RBLOCK>>>(d_in, d_out, 6);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return 0;
}

/* smemlint-expect
 * 14 missing-barrier
 * 36 missing-barrier
 * 48 missing-barrier
 * 61 warp-sync
 */
