// Block-level sum reductions, following the steps of the classic
// "Optimizing Parallel Reduction in CUDA" walkthrough.
#include "common.cuh"

#define BLOCK 256
#define GRID 4
#define N (GRID * BLOCK)

// Reduction #1: interleaved addressing with a divergent modulo test.
__global__ void reduce_interleaved(const float *g_idata, float *g_odata)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = g_idata[i];
    __syncthreads();

    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = sdata[0];
}

// Reduction #2: interleaved addressing with a strided index.
// Non-divergent branch, but shared-memory bank conflicts.
__global__ void reduce_interleaved_strided(const float *g_idata, float *g_odata)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = g_idata[i];
    __syncthreads();

    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        int index = 2 * s * tid;
        if (index < blockDim.x)
            sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = sdata[0];
}

// Reduction #3: sequential addressing.
__global__ void reduce_sequential(const float *g_idata, float *g_odata)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = g_idata[i];
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = sdata[0];
}

// Reduction #4: first add during the global load (half the blocks).
__global__ void reduce_first_add(const float *g_idata, float *g_odata)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    sdata[tid] = g_idata[i] + g_idata[i + blockDim.x];
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = sdata[0];
}

// Reduction #5: unrolled last warp through a volatile pointer and no
// __syncwarp() -- relies on implicit warp-synchronous execution (a race
// under independent thread scheduling).
__global__ void reduce_warp_volatile(const float *g_idata, float *g_odata)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    sdata[tid] = g_idata[i] + g_idata[i + blockDim.x];
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        volatile float *vs = sdata;
        vs[tid] += vs[tid + 32];
        vs[tid] += vs[tid + 16];
        vs[tid] += vs[tid + 8];
        vs[tid] += vs[tid + 4];
        vs[tid] += vs[tid + 2];
        vs[tid] += vs[tid + 1];
    }
    if (tid == 0)
        g_odata[blockIdx.x] = sdata[0];
}

// Reduction #5 done right: every read and write of the last warp is
// separated by __syncwarp().
__global__ void reduce_warp_syncwarp(const float *g_idata, float *g_odata)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    sdata[tid] = g_idata[i] + g_idata[i + blockDim.x];
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        float v = sdata[tid];
        v += sdata[tid + 32];
        __syncwarp();
        sdata[tid] = v;
        __syncwarp();
        v += sdata[tid + 16];
        __syncwarp();
        sdata[tid] = v;
        __syncwarp();
        v += sdata[tid + 8];
        __syncwarp();
        sdata[tid] = v;
        __syncwarp();
        v += sdata[tid + 4];
        __syncwarp();
        sdata[tid] = v;
        __syncwarp();
        v += sdata[tid + 2];
        __syncwarp();
        sdata[tid] = v;
        __syncwarp();
        v += sdata[tid + 1];
        if (tid == 0)
            g_odata[blockIdx.x] = v;
    }
}

// Reduction #7 style: compile-time block size, grid-stride accumulation,
// completely unrolled tree, warp shuffles for the final 32 values.
template <unsigned int blockSize>
__global__ void reduce_template(const float *g_idata, float *g_odata, unsigned int n)
{
    __shared__ float sdata[blockSize];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
    unsigned int gridSize = blockSize * 2 * gridDim.x;
    float sum = 0.0f;

    while (i < n) {
        sum += g_idata[i];
        if (i + blockSize < n)
            sum += g_idata[i + blockSize];
        i += gridSize;
    }
    sdata[tid] = sum;
    __syncthreads();

    if (blockSize >= 512) {
        if (tid < 256)
            sdata[tid] = sum = sum + sdata[tid + 256];
        __syncthreads();
    }
    if (blockSize >= 256) {
        if (tid < 128)
            sdata[tid] = sum = sum + sdata[tid + 128];
        __syncthreads();
    }
    if (blockSize >= 128) {
        if (tid < 64)
            sdata[tid] = sum = sum + sdata[tid + 64];
        __syncthreads();
    }
    if (tid < 32) {
        if (blockSize >= 64)
            sum += sdata[tid + 32];
        for (int offset = warpSize / 2; offset > 0; offset /= 2)
            sum += __shfl_down_sync(0xffffffff, sum, offset);
    }
    if (tid == 0)
        g_odata[blockIdx.x] = sum;
}

int main()
{
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, 2 * N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, GRID * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_in, 0, 2 * N * sizeof(float)));

    reduce_interleaved<<<GRID, BLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    reduce_interleaved_strided<<<GRID, BLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    reduce_sequential<<<GRID, BLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    reduce_first_add<<<GRID, BLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    reduce_warp_volatile<<<GRID, 256>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    reduce_warp_syncwarp<<<GRID, 256>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    reduce_template<BLOCK><<<GRID, BLOCK>>>(d_in, d_out, 2 * N);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return 0;
}

/*
 * check-output-start
 * corpus/reduce.cu:40:13: warning: 8-way bank conflict on load and store of 'sdata' (float[256]) in kernel 'reduce_interleaved_strided' with blockDim (256,1,1) from the launch on line 211, worst when s = 4 (mean 3.92-way over the iterations); lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *               sdata[index] += sdata[index + s];
 *               ^~~~~~~~~~~~
 * corpus/reduce.cu:31:5: note: 'sdata' declared here
 * corpus/reduce.cu:40:13: note: index 'sdata' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 3 of 3 conflicting accesses become conflict-free
 * corpus/reduce.cu:40:29: warning: 8-way bank conflict on load of 'sdata' (float[256]) in kernel 'reduce_interleaved_strided' with blockDim (256,1,1) from the launch on line 211, worst when s = 4 (mean 3.92-way over the iterations); lanes 0 and 4 of warp 0 hit bank 4 (byte offsets 16 and 144) [bank-conflict]
 *               sdata[index] += sdata[index + s];
 *                               ^~~~~~~~~~~~~~~~
 * corpus/reduce.cu:31:5: note: 'sdata' declared here
 * corpus/reduce.cu:40:29: note: index 'sdata' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 3 of 3 conflicting accesses become conflict-free
 * corpus/reduce.cu:102:20: warning: unsynchronized warp exchange on 'vs': lane 0 of warp 0 reads sdata[16], which lane 16 wrote at line 101, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'reduce_warp_volatile' with blockDim (256,1,1) from the launch on line 223 [warp-sync]
 *           vs[tid] += vs[tid + 16];
 *                      ^~~~~~~~~~~~
 * corpus/reduce.cu:101:9: note: the other lane's write of 'vs'
 * corpus/reduce.cu:88:5: note: 'sdata' declared here
 * corpus/reduce.cu:102:20: note: add __syncwarp() between the write and the access that depends on it
 * corpus/reduce.cu:103:20: warning: unsynchronized warp exchange on 'vs': lane 0 of warp 0 reads sdata[8], which lane 8 wrote at line 102, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'reduce_warp_volatile' with blockDim (256,1,1) from the launch on line 223 [warp-sync]
 *           vs[tid] += vs[tid + 8];
 *                      ^~~~~~~~~~~
 * corpus/reduce.cu:102:9: note: the other lane's write of 'vs'
 * corpus/reduce.cu:88:5: note: 'sdata' declared here
 * corpus/reduce.cu:103:20: note: add __syncwarp() between the write and the access that depends on it
 * corpus/reduce.cu:104:20: warning: unsynchronized warp exchange on 'vs': lane 0 of warp 0 reads sdata[4], which lane 4 wrote at line 103, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'reduce_warp_volatile' with blockDim (256,1,1) from the launch on line 223 [warp-sync]
 *           vs[tid] += vs[tid + 4];
 *                      ^~~~~~~~~~~
 * corpus/reduce.cu:103:9: note: the other lane's write of 'vs'
 * corpus/reduce.cu:88:5: note: 'sdata' declared here
 * corpus/reduce.cu:104:20: note: add __syncwarp() between the write and the access that depends on it
 * corpus/reduce.cu:105:20: warning: unsynchronized warp exchange on 'vs': lane 0 of warp 0 reads sdata[2], which lane 2 wrote at line 104, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'reduce_warp_volatile' with blockDim (256,1,1) from the launch on line 223 [warp-sync]
 *           vs[tid] += vs[tid + 2];
 *                      ^~~~~~~~~~~
 * corpus/reduce.cu:104:9: note: the other lane's write of 'vs'
 * corpus/reduce.cu:88:5: note: 'sdata' declared here
 * corpus/reduce.cu:105:20: note: add __syncwarp() between the write and the access that depends on it
 * corpus/reduce.cu:106:20: warning: unsynchronized warp exchange on 'vs': lane 0 of warp 0 reads sdata[1], which lane 1 wrote at line 105, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'reduce_warp_volatile' with blockDim (256,1,1) from the launch on line 223 [warp-sync]
 *           vs[tid] += vs[tid + 1];
 *                      ^~~~~~~~~~~
 * corpus/reduce.cu:105:9: note: the other lane's write of 'vs'
 * corpus/reduce.cu:88:5: note: 'sdata' declared here
 * corpus/reduce.cu:106:20: note: add __syncwarp() between the write and the access that depends on it
 * check-output-end
 */
