// Barrier placement: divergent __syncthreads() and a missing barrier in a
// tile loop. All kernels complete on sm_70+ (threads that exit or skip a
// barrier do not block the others), but the divergent ones are undefined
// behaviour by the CUDA programming model.
#include "common.cuh"

#define LB 128

// Bounds check returns before the barrier: threads past n never arrive.
__global__ void early_return_sync(const float *in, float *out, int n)
{
    __shared__ float s[LB];
    int tid = threadIdx.x;
    int i = blockIdx.x * LB + tid;
    if (i >= n)
        return;
    s[tid] = in[i];
    __syncthreads();
    out[i] = s[tid ^ 1];
}

// Trip count depends on the thread's warp index: later warps execute the
// barrier more often than earlier ones.
__global__ void loop_sync_tid(const float *in, float *out)
{
    __shared__ float s[LB];
    int tid = threadIdx.x;
    int i = blockIdx.x * LB + tid;
    int warp = tid / 32;
    s[tid] = in[i];
    __syncthreads();
    float acc = 0.0f;
    for (int it = 0; it <= warp; ++it) {
        acc += s[(tid + 32 * it) % LB];
        __syncthreads();
    }
    out[i] = acc;
}

// Barrier under a thread-dependent condition.
__global__ void cond_sync_tid(const float *in, float *out)
{
    __shared__ float s[LB];
    int tid = threadIdx.x;
    int i = blockIdx.x * LB + tid;
    s[tid] = in[i];
    if (tid < 64) {
        __syncthreads();
        out[i] = s[63 - tid];
    } else {
        out[i] = in[i];
    }
}

// Barrier under a block-uniform condition: fine.
__global__ void uniform_block_sync(const float *in, float *out)
{
    __shared__ float s[LB];
    int tid = threadIdx.x;
    int i = blockIdx.x * LB + tid;
    if (blockIdx.x == 0) {
        s[tid] = in[i];
        __syncthreads();
        out[i] = s[LB - 1 - tid];
    } else {
        out[i] = in[i] * 2.0f;
    }
}

// Tiled matmul without the second __syncthreads(): the next iteration's
// tile stores can overwrite data other threads are still reading.
#define TILE 16
__global__ void matmul_missing_barrier(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;

    for (int t = 0; t < n / TILE; ++t) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            sum += As[ty][k] * Bs[k][tx];
    }
    C[row * n + col] = sum;
}

int main()
{
    const int blocks = 2;
    const int n = 32;
    float *d_in, *d_out, *dA, *dB, *dC;
    CUDA_CHECK(cudaMalloc(&d_in, blocks * LB * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, blocks * LB * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dA, n * n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dB, n * n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dC, n * n * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_in, 0, blocks * LB * sizeof(float)));
    CUDA_CHECK(cudaMemset(dA, 0, n * n * sizeof(float)));
    CUDA_CHECK(cudaMemset(dB, 0, n * n * sizeof(float)));

    // n = 192: the last two warps of block 1 return early.
    early_return_sync<<<blocks, LB>>>(d_in, d_out, 192);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    loop_sync_tid<<<blocks, LB>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    cond_sync_tid<<<blocks, LB>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    uniform_block_sync<<<blocks, LB>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    matmul_missing_barrier<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(dA, dB, dC, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC));
    return 0;
}

/*
 * check-output-start
 * corpus/barriers.cu:18:5: error: divergent barrier: '__syncthreads()' follows a thread-dependent 'return' (under 'i >= n') in kernel 'early_return_sync' at the launch on line 107 [divergent-barrier]
 *       __syncthreads();
 *       ^~~~~~~~~~~~~~~
 * corpus/barriers.cu:15:9: note: thread-dependent condition 'i >= n'
 * corpus/barriers.cu:16:9: note: the 'return' that skips the barrier
 * corpus/barriers.cu:18:5: note: threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier
 * corpus/barriers.cu:35:9: error: divergent barrier: '__syncthreads()' is in a loop whose trip count depends on the thread (condition 'it <= warp') in kernel 'loop_sync_tid' at the launch on line 111 [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * corpus/barriers.cu:33:22: note: thread-dependent condition 'it <= warp'
 * corpus/barriers.cu:35:9: note: threads run the loop different numbers of times; give every thread the same trip count and guard the work instead
 * corpus/barriers.cu:48:9: error: divergent barrier: '__syncthreads()' is under thread-dependent condition 'tid < 64' in kernel 'cond_sync_tid' at the launch on line 115 [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * corpus/barriers.cu:47:9: note: thread-dependent condition 'tid < 64'
 * corpus/barriers.cu:48:9: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * corpus/barriers.cu:83:9: warning: unsynchronized warp exchange on 'As': lane 0 of warp 0 overwrites As[0][0], which lane 1 read at line 87 in the previous iteration, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'matmul_missing_barrier' with blockDim (16,16,1) from the launch on line 123 [warp-sync]
 *           As[ty][tx] = A[row * n + t * TILE + tx];
 *           ^~~~~~~~~~
 * corpus/barriers.cu:87:20: note: the other lane's read of 'As'
 * corpus/barriers.cu:75:5: note: 'As' declared here
 * corpus/barriers.cu:83:9: note: add __syncwarp() between the write and the access that depends on it
 * corpus/barriers.cu:84:9: error: missing barrier: write-after-read race on 'Bs': thread (0,0) overwrites Bs[0][0], which thread (0,2) read at line 87 in the previous iteration, with no __syncthreads() in between (different warps) in kernel 'matmul_missing_barrier' with blockDim (16,16,1) from the launch on line 123 [missing-barrier]
 *           Bs[ty][tx] = B[(t * TILE + ty) * n + col];
 *           ^~~~~~~~~~
 * corpus/barriers.cu:87:32: note: the racing read of 'Bs' by thread (0,2)
 * corpus/barriers.cu:76:5: note: 'Bs' declared here
 * corpus/barriers.cu:84:9: note: add __syncthreads() at the end of the loop body, before the next iteration overwrites what this one reads
 * check-output-end
 */
