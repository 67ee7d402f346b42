// Real-code idioms: CUB block primitives from the toolkit, each with its
// TempStorage in __shared__ (one kernel shares a union of them), next to a
// few shared accesses of the kernel's own.
#include "common.cuh"
#include <cub/cub.cuh>

#define CB_THREADS 128
#define CB_ITEMS 4
#define CB_TILE (CB_THREADS * CB_ITEMS)

// Load a tile through shared memory (transpose), reduce it, share the sum.
__global__ void cb_load_reduce(const float *in, float *out)
{
    typedef cub::BlockLoad<float, CB_THREADS, CB_ITEMS, cub::BLOCK_LOAD_TRANSPOSE> Load;
    typedef cub::BlockReduce<float, CB_THREADS> Reduce;
    __shared__ union {
        typename Load::TempStorage load;
        typename Reduce::TempStorage reduce;
    } temp;
    __shared__ float s_total;

    float items[CB_ITEMS];
    Load(temp.load).Load(in + blockIdx.x * CB_TILE, items);
    __syncthreads();  // temp is reused
    float sum = Reduce(temp.reduce).Sum(items);
    if (threadIdx.x == 0)
        s_total = sum;
    __syncthreads();
    float mean = s_total / CB_TILE;
    for (int i = 0; i < CB_ITEMS; ++i)
        out[blockIdx.x * CB_TILE + threadIdx.x * CB_ITEMS + i] = items[i] - mean;
}

// Exclusive prefix sum of one int per thread, then a shared reverse.
__global__ void cb_scan(const int *in, int *out)
{
    typedef cub::BlockScan<int, CB_THREADS> Scan;
    __shared__ typename Scan::TempStorage scan_temp;
    __shared__ int s_pref[CB_THREADS];
    int tid = threadIdx.x;
    int v = in[blockIdx.x * CB_THREADS + tid];
    int pref;
    Scan(scan_temp).ExclusiveSum(v, pref);
    s_pref[tid] = pref;
    __syncthreads();
    out[blockIdx.x * CB_THREADS + tid] = s_pref[CB_THREADS - 1 - tid];
}

// Radix sort of 4 keys per thread, results staged at s_keys[i * 128 + tid].
__global__ void cb_radix_sort(const unsigned int *in, unsigned int *out)
{
    typedef cub::BlockRadixSort<unsigned int, CB_THREADS, CB_ITEMS> Sort;
    __shared__ typename Sort::TempStorage sort_temp;
    __shared__ unsigned int s_keys[CB_TILE];
    int tid = threadIdx.x;
    unsigned int keys[CB_ITEMS];
    for (int i = 0; i < CB_ITEMS; ++i)
        keys[i] = in[blockIdx.x * CB_TILE + i * CB_THREADS + tid];
    Sort(sort_temp).SortBlockedToStriped(keys);
    for (int i = 0; i < CB_ITEMS; ++i)
        s_keys[i * CB_THREADS + tid] = keys[i];
    __syncthreads();
    for (int i = 0; i < CB_ITEMS; ++i)
        out[blockIdx.x * CB_TILE + i * CB_THREADS + tid] = s_keys[i * CB_THREADS + (tid ^ 1)];
}

// Striped-to-blocked exchange, then a row of 4 items per thread written
// to a shared tile one item at a time: s_blk[tid * 4 + i].
__global__ void cb_exchange(const float *in, float *out)
{
    typedef cub::BlockExchange<float, CB_THREADS, CB_ITEMS> Exchange;
    __shared__ typename Exchange::TempStorage ex_temp;
    __shared__ float s_blk[CB_TILE];
    int tid = threadIdx.x;
    float items[CB_ITEMS];
    for (int i = 0; i < CB_ITEMS; ++i)
        items[i] = in[blockIdx.x * CB_TILE + i * CB_THREADS + tid];
    Exchange(ex_temp).StripedToBlocked(items);
#pragma unroll 1
    for (int i = 0; i < CB_ITEMS; ++i)
        s_blk[tid * CB_ITEMS + i] = items[i];
    __syncthreads();
    for (int i = 0; i < CB_ITEMS; ++i)
        out[blockIdx.x * CB_TILE + i * CB_THREADS + tid] = s_blk[i * CB_THREADS + tid];
}

// Raking reduction and a direct store, with the partial of each warp kept
// in a shared array of the kernel's own.
__global__ void cb_reduce_raking(const int *in, int *out)
{
    typedef cub::BlockReduce<int, CB_THREADS, cub::BLOCK_REDUCE_RAKING> Reduce;
    __shared__ typename Reduce::TempStorage red_temp;
    __shared__ int s_warp[CB_THREADS / 32];
    int tid = threadIdx.x;
    int v = in[blockIdx.x * CB_THREADS + tid];
    int total = Reduce(red_temp).Sum(v);
    if (tid % 32 == 0)
        s_warp[tid / 32] = v;
    __syncthreads();
    if (tid == 0) {
        int w = 0;
        for (int i = 0; i < CB_THREADS / 32; ++i)
            w += s_warp[i];
        out[blockIdx.x] = total + w;
    }
}

int main()
{
    const int blocks = 2;
    const size_t n = blocks * CB_TILE;
    float *d_f, *d_fo;
    int *d_i, *d_io;
    unsigned int *d_u, *d_uo;
    CUDA_CHECK(cudaMalloc(&d_f, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_fo, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_i, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_io, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_u, n * sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&d_uo, n * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemset(d_f, 0, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_i, 0, n * sizeof(int)));
    unsigned int h_u[n];
    for (size_t i = 0; i < n; ++i)
        h_u[i] = (unsigned int)((i * 2654435761u) >> 7);
    CUDA_CHECK(cudaMemcpy(d_u, h_u, n * sizeof(unsigned int), cudaMemcpyHostToDevice));

    cb_load_reduce<<<blocks, CB_THREADS>>>(d_f, d_fo);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    cb_scan<<<blocks, CB_THREADS>>>(d_i, d_io);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    cb_radix_sort<<<blocks, CB_THREADS>>>(d_u, d_uo);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    cb_exchange<<<blocks, CB_THREADS>>>(d_f, d_fo);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    cb_reduce_raking<<<blocks, CB_THREADS>>>(d_i, d_io);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_f));
    CUDA_CHECK(cudaFree(d_fo));
    CUDA_CHECK(cudaFree(d_i));
    CUDA_CHECK(cudaFree(d_io));
    CUDA_CHECK(cudaFree(d_u));
    CUDA_CHECK(cudaFree(d_uo));
    return 0;
}

/*
 * check-output-start
 * corpus/idiom_cub.cu:81:9: warning: 4-way bank conflict on store of 's_blk' (float[512]) in kernel 'cb_exchange' with blockDim (128,1,1) from the launch on line 140; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           s_blk[tid * CB_ITEMS + i] = items[i];
 *           ^~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/idiom_cub.cu:73:5: note: 's_blk' declared here
 * corpus/idiom_cub.cu:81:9: note: index 's_blk' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * check-output-end
 */
