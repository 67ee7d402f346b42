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

/*
 * check-output-start
 * corpus/races.cu:14:14: error: missing barrier: read-after-write race on 's': thread 0 reads s[127], which thread 127 wrote at line 13, with no __syncthreads() in between (different warps) in kernel 'reverse_nobarrier' with blockDim (128,1,1) from the launch on line 106 [missing-barrier]
 *       out[i] = s[RBLOCK - 1 - tid];
 *                ^~~~~~~~~~~~~~~~~~~
 * corpus/races.cu:13:5: note: the racing write of 's' by thread 127
 * corpus/races.cu:10:5: note: 's' declared here
 * corpus/races.cu:14:14: note: add __syncthreads() between the two accesses
 * corpus/races.cu:36:14: error: missing barrier: read-after-write race on 's': thread 0 reads s[127], which thread 127 wrote at line 34, with no barrier ordering both threads in between ('__syncwarp()' at line 35 orders only the threads of one warp; different warps) in kernel 'reverse_syncwarp_only' with blockDim (128,1,1) from the launch on line 114 [missing-barrier]
 *       out[i] = s[RBLOCK - 1 - tid];
 *                ^~~~~~~~~~~~~~~~~~~
 * corpus/races.cu:34:5: note: the racing write of 's' by thread 127
 * corpus/races.cu:31:5: note: 's' declared here
 * corpus/races.cu:36:14: note: order the two threads with a barrier whose scope holds both (__syncthreads() for threads of different tiles or warps)
 * corpus/races.cu:48:13: error: missing barrier: read-after-write race on 's': thread 31 reads s[32], which thread 32 wrote at line 45, with no __syncthreads() in between (different warps) in kernel 'neighbour_nobarrier' with blockDim (128,1,1) from the launch on line 118 [missing-barrier]
 *           v = s[tid + 1];
 *               ^~~~~~~~~~
 * corpus/races.cu:45:5: note: the racing write of 's' by thread 32
 * corpus/races.cu:42:5: note: 's' declared here
 * corpus/races.cu:48:13: note: add __syncthreads() between the two accesses
 * corpus/races.cu:61:14: warning: unsynchronized warp exchange on 's': lane 0 of warp 0 reads s[31], which lane 31 wrote at line 60, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'warp_reverse_nosync' with blockDim (128,1,1) from the launch on line 122 [warp-sync]
 *       out[i] = s[base + 31 - lane];
 *                ^~~~~~~~~~~~~~~~~~~
 * corpus/races.cu:60:5: note: the other lane's write of 's'
 * corpus/races.cu:55:5: note: 's' declared here
 * corpus/races.cu:61:14: note: add __syncwarp() between the write and the access that depends on it
 * check-output-end
 */
