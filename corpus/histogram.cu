// Byte histograms privatized in shared memory with shared atomics.
#include "common.cuh"

#define BINS 256
#define HBLOCK 256
#define NBYTES 4096

// One 256-bin histogram per block; bins addressed by the data.
__global__ void histo_shared(const unsigned char *data, int n, unsigned int *g_hist)
{
    __shared__ unsigned int s_hist[BINS];
    int tid = threadIdx.x;
    s_hist[tid] = 0;
    __syncthreads();

    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&s_hist[data[i]], 1u);
    __syncthreads();

    atomicAdd(&g_hist[tid], s_hist[tid]);
}

// Per-warp sub-histograms (64 bins) to cut atomic contention.
#define WBINS 64
#define WBLOCK 128
#define NWARPS (WBLOCK / 32)
__global__ void histo_per_warp(const unsigned char *data, int n, unsigned int *g_hist)
{
    __shared__ unsigned int s_hist[NWARPS][WBINS];
    int tid = threadIdx.x;
    int warp = tid / 32;
    unsigned int *flat = &s_hist[0][0];
    for (int b = tid; b < NWARPS * WBINS; b += blockDim.x)
        flat[b] = 0;
    __syncthreads();

    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) {
        int bin = data[i] % WBINS;
        atomicAdd(&s_hist[warp][bin], 1u);
    }
    __syncthreads();

    if (tid < WBINS) {
        unsigned int sum = 0;
        for (int w = 0; w < NWARPS; ++w)
            sum += s_hist[w][tid];
        atomicAdd(&g_hist[tid], sum);
    }
}

int main()
{
    unsigned char *d_data;
    unsigned int *d_hist;
    CUDA_CHECK(cudaMalloc(&d_data, NBYTES));
    CUDA_CHECK(cudaMalloc(&d_hist, BINS * sizeof(unsigned int)));
    unsigned char h_data[NBYTES];
    for (int i = 0; i < NBYTES; ++i)
        h_data[i] = (unsigned char)(i & 255);
    CUDA_CHECK(cudaMemcpy(d_data, h_data, NBYTES, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_hist, 0, BINS * sizeof(unsigned int)));

    histo_shared<<<4, HBLOCK>>>(d_data, NBYTES, d_hist);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    histo_per_warp<<<4, WBLOCK>>>(d_data, NBYTES, d_hist);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_data));
    CUDA_CHECK(cudaFree(d_hist));
    return 0;
}

/*
 * check-output-start
 * check-output-end
 */
