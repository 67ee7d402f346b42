// Real-code idioms: __device__ helpers that receive shared memory through
// pointer parameters (volatile, pointer arithmetic, returned pointers,
// non-inlined helpers, a call chain kernel -> a -> b).
#include "common.cuh"

typedef unsigned int uint;

#define HP_THREADS 128

// Inclusive scan of groups of `size` lanes (size <= 32) in a window of
// 2 * size words per group: the lower half holds zeros so that s[pos - off]
// never needs a bounds test.
__device__ uint scan_warp(uint v, volatile uint *s, uint size)
{
    uint pos = 2 * threadIdx.x - (threadIdx.x & (size - 1));
    s[pos] = 0;
    pos += size;
    s[pos] = v;
    __syncwarp();
    for (uint off = 1; off < size; off <<= 1) {
        uint t = s[pos - off];
        __syncwarp();
        s[pos] += t;
        __syncwarp();
    }
    return s[pos];
}

// Groups of 32: each warp owns 64 consecutive words.
__global__ void hp_scan_warp32(const uint *in, uint *out)
{
    __shared__ uint s_buf[2 * HP_THREADS];
    uint i = blockIdx.x * HP_THREADS + threadIdx.x;
    out[i] = scan_warp(in[i], s_buf, 32);
}

// Same helper with groups of 16: the two half-warps' windows are 32 words
// apart, so every access pairs up on the same banks.
__global__ void hp_scan_warp16(const uint *in, uint *out)
{
    __shared__ uint s_buf[2 * HP_THREADS];
    uint i = blockIdx.x * HP_THREADS + threadIdx.x;
    out[i] = scan_warp(in[i], s_buf, 16);
}

// Dot product of one shared row with a shared weight vector; the caller
// passes a pointer into the middle of a tile.
__device__ float row_dot(const float *row, const float *w, int n)
{
    float acc = 0.0f;
#pragma unroll 1
    for (int k = 0; k < n; ++k)
        acc += row[k] * w[k];
    return acc;
}

#define RD_THREADS 64
#define RD_COLS 32

// One row of 32 floats per thread: rows 32 words apart.
__global__ void hp_row_dot32(const float *in, const float *wt, float *out)
{
    __shared__ float tile[RD_THREADS * RD_COLS];
    __shared__ float s_w[RD_COLS];
    int tid = threadIdx.x;
    const float *src = in + blockIdx.x * RD_THREADS * RD_COLS;
    for (int e = tid; e < RD_THREADS * RD_COLS; e += RD_THREADS)
        tile[e] = src[e];
    if (tid < RD_COLS)
        s_w[tid] = wt[tid];
    __syncthreads();
    out[blockIdx.x * RD_THREADS + tid] = row_dot(&tile[tid * RD_COLS], s_w, RD_COLS);
}

// Same with one word of padding per row.
__global__ void hp_row_dot33(const float *in, const float *wt, float *out)
{
    __shared__ float tile[RD_THREADS * (RD_COLS + 1)];
    __shared__ float s_w[RD_COLS];
    int tid = threadIdx.x;
    const float *src = in + blockIdx.x * RD_THREADS * RD_COLS;
    for (int e = tid; e < RD_THREADS * RD_COLS; e += RD_THREADS)
        tile[(e / RD_COLS) * (RD_COLS + 1) + e % RD_COLS] = src[e];
    if (tid < RD_COLS)
        s_w[tid] = wt[tid];
    __syncthreads();
    out[blockIdx.x * RD_THREADS + tid] = row_dot(tile + tid * (RD_COLS + 1), s_w, RD_COLS);
}

// A helper that returns a pointer into shared memory.
__device__ float *slot(float *base, int i, int stride)
{
    return base + i * stride;
}

// Slots 4 words apart.
__global__ void hp_slot_ptr(const float *in, float *out)
{
    __shared__ float s_slots[HP_THREADS * 4];
    int tid = threadIdx.x;
    *slot(s_slots, tid, 4) = in[blockIdx.x * HP_THREADS + tid];
    __syncthreads();
    out[blockIdx.x * HP_THREADS + tid] = *slot(s_slots, HP_THREADS - 1 - tid, 4);
}

// Non-inlined helpers: the pointer reaches them as a generic address.
__device__ __noinline__ void store_strided(float *s, int i, int stride, float v)
{
    s[i * stride] = v;
}

__device__ __noinline__ float load_strided(const float *s, int i, int stride)
{
    return s[i * stride];
}

// Stride 2 through the non-inlined helpers; partner is tid ^ 1.
__global__ void hp_noinline(const float *in, float *out)
{
    __shared__ float s_nl[HP_THREADS * 2];
    int tid = threadIdx.x;
    store_strided(s_nl, tid, 2, in[blockIdx.x * HP_THREADS + tid]);
    __syncthreads();
    out[blockIdx.x * HP_THREADS + tid] = load_strided(s_nl, tid ^ 1, 2);
}

// A call chain: kernel -> put_row -> put8 (and get_row -> get8).
__device__ void put8(float *s, int i, float v)
{
    s[i * 8] = v;
}

__device__ float get8(const float *s, int i)
{
    return s[i * 8];
}

__device__ void put_row(float *s, int row, int i, float v)
{
    put8(s + row * 256, i, v);
}

__device__ float get_row(const float *s, int row, int i)
{
    return get8(s + row * 256, i);
}

#define NEST_THREADS 64

// Each warp writes its own 256-word row at stride 8, then reads the
// neighbour lane's element.
__global__ void hp_nested(const float *in, float *out)
{
    __shared__ float s_rows[(NEST_THREADS / 32) * 256];
    int tid = threadIdx.x;
    int warp = tid / 32, lane = tid % 32;
    put_row(s_rows, warp, lane, in[blockIdx.x * NEST_THREADS + tid]);
    __syncwarp();
    out[blockIdx.x * NEST_THREADS + tid] = get_row(s_rows, warp, (lane + 1) % 32);
}

int main()
{
    const int blocks = 2;
    const size_t n = blocks * RD_THREADS * RD_COLS;  // largest input
    float *d_in, *d_w, *d_out;
    uint *d_uin, *d_uout;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_w, RD_COLS * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_uin, blocks * HP_THREADS * sizeof(uint)));
    CUDA_CHECK(cudaMalloc(&d_uout, blocks * HP_THREADS * sizeof(uint)));
    CUDA_CHECK(cudaMemset(d_in, 0, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_w, 0, RD_COLS * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_uin, 0, blocks * HP_THREADS * sizeof(uint)));

    hp_scan_warp32<<<blocks, HP_THREADS>>>(d_uin, d_uout);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    hp_scan_warp16<<<blocks, HP_THREADS>>>(d_uin, d_uout);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    hp_row_dot32<<<blocks, RD_THREADS>>>(d_in, d_w, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    hp_row_dot33<<<blocks, RD_THREADS>>>(d_in, d_w, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    hp_slot_ptr<<<blocks, HP_THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    hp_noinline<<<blocks, HP_THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    hp_nested<<<blocks, NEST_THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_w));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_uin));
    CUDA_CHECK(cudaFree(d_uout));
    return 0;
}

/*
 * check-output-start
 * corpus/idiom_helpers_ptr.cu:16:5: warning: 2-way bank conflict on store of 's' (uint[256]) in 'scan_warp' called from kernel 'hp_scan_warp16' at line 43 with blockDim (128,1,1) from the launch on line 181; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[pos] = 0;
 *       ^~~~~~
 * corpus/idiom_helpers_ptr.cu:41:5: note: 's_buf' declared here
 * corpus/idiom_helpers_ptr.cu:18:5: warning: 2-way bank conflict on store of 's' (uint[256]) in 'scan_warp' called from kernel 'hp_scan_warp16' at line 43 with blockDim (128,1,1) from the launch on line 181; lanes 0 and 16 of warp 0 hit bank 16 (byte offsets 64 and 192) [bank-conflict]
 *       s[pos] = v;
 *       ^~~~~~
 * corpus/idiom_helpers_ptr.cu:41:5: note: 's_buf' declared here
 * corpus/idiom_helpers_ptr.cu:21:18: warning: 2-way bank conflict on load of 's' (uint[256]) in 'scan_warp' called from kernel 'hp_scan_warp16' at line 43 with blockDim (128,1,1) from the launch on line 181; lanes 0 and 16 of warp 0 hit bank 15 (byte offsets 60 and 188) [bank-conflict]
 *           uint t = s[pos - off];
 *                    ^~~~~~~~~~~~
 * corpus/idiom_helpers_ptr.cu:41:5: note: 's_buf' declared here
 * corpus/idiom_helpers_ptr.cu:23:9: warning: 2-way bank conflict on load and store of 's' (uint[256]) in 'scan_warp' called from kernel 'hp_scan_warp16' at line 43 with blockDim (128,1,1) from the launch on line 181; lanes 0 and 16 of warp 0 hit bank 16 (byte offsets 64 and 192) [bank-conflict]
 *           s[pos] += t;
 *           ^~~~~~
 * corpus/idiom_helpers_ptr.cu:41:5: note: 's_buf' declared here
 * corpus/idiom_helpers_ptr.cu:26:12: warning: 2-way bank conflict on load of 's' (uint[256]) in 'scan_warp' called from kernel 'hp_scan_warp16' at line 43 with blockDim (128,1,1) from the launch on line 181; lanes 0 and 16 of warp 0 hit bank 16 (byte offsets 64 and 192) [bank-conflict]
 *       return s[pos];
 *              ^~~~~~
 * corpus/idiom_helpers_ptr.cu:41:5: note: 's_buf' declared here
 * corpus/idiom_helpers_ptr.cu:53:16: warning: 32-way bank conflict on load of 'row' (float[2048]) in 'row_dot' called from kernel 'hp_row_dot32' at line 72 with blockDim (64,1,1) from the launch on line 185; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           acc += row[k] * w[k];
 *                  ^~~~~~
 * corpus/idiom_helpers_ptr.cu:63:5: note: 'tile' declared here
 * corpus/idiom_helpers_ptr.cu:53:16: note: index 'tile' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * corpus/idiom_helpers_ptr.cu:101:5: warning: 4-way bank conflict on store of 's_slots' (float[512]) in kernel 'hp_slot_ptr' with blockDim (128,1,1) from the launch on line 193; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       *slot(s_slots, tid, 4) = in[blockIdx.x * HP_THREADS + tid];
 *       ^~~~~~~~~~~~~~~~~~~~~~
 * corpus/idiom_helpers_ptr.cu:99:5: note: 's_slots' declared here
 * corpus/idiom_helpers_ptr.cu:103:42: warning: 4-way bank conflict on load of 's_slots' (float[512]) in kernel 'hp_slot_ptr' with blockDim (128,1,1) from the launch on line 193; lanes 0 and 8 of warp 0 hit bank 28 (byte offsets 2032 and 1904) [bank-conflict]
 *       out[blockIdx.x * HP_THREADS + tid] = *slot(s_slots, HP_THREADS - 1 - tid, 4);
 *                                            ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/idiom_helpers_ptr.cu:99:5: note: 's_slots' declared here
 * corpus/idiom_helpers_ptr.cu:109:5: warning: 2-way bank conflict on store of 's' (float[256]) in 'store_strided' called from kernel 'hp_noinline' at line 122 with blockDim (128,1,1) from the launch on line 197; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[i * stride] = v;
 *       ^~~~~~~~~~~~~
 * corpus/idiom_helpers_ptr.cu:120:5: note: 's_nl' declared here
 * corpus/idiom_helpers_ptr.cu:114:12: warning: 2-way bank conflict on load of 's' (float[256]) in 'load_strided' called from kernel 'hp_noinline' at line 124 with blockDim (128,1,1) from the launch on line 197; lanes 0 and 16 of warp 0 hit bank 2 (byte offsets 8 and 136) [bank-conflict]
 *       return s[i * stride];
 *              ^~~~~~~~~~~~~
 * corpus/idiom_helpers_ptr.cu:120:5: note: 's_nl' declared here
 * corpus/idiom_helpers_ptr.cu:130:5: warning: 8-way bank conflict on store of 's' (float[512]) in 'put8' called from 'put_row' at line 140, from kernel 'hp_nested' at line 157 with blockDim (64,1,1) from the launch on line 201; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[i * 8] = v;
 *       ^~~~~~~~
 * corpus/idiom_helpers_ptr.cu:154:5: note: 's_rows' declared here
 * corpus/idiom_helpers_ptr.cu:135:12: warning: 8-way bank conflict on load of 's' (float[512]) in 'get8' called from 'get_row' at line 145, from kernel 'hp_nested' at line 159 with blockDim (64,1,1) from the launch on line 201; lanes 0 and 4 of warp 0 hit bank 8 (byte offsets 32 and 160) [bank-conflict]
 *       return s[i * 8];
 *              ^~~~~~~~
 * corpus/idiom_helpers_ptr.cu:154:5: note: 's_rows' declared here
 * check-output-end
 */
