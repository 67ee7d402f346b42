// Real-code idioms: sorting networks whose compare-exchange helper takes
// the shared elements by reference.
#include "common.cuh"

typedef unsigned int uint;

// Key/value compare-exchange through references; always stores both pairs.
__device__ void cmp_swap(uint &ka, uint &va, uint &kb, uint &vb, uint dir)
{
    uint k0 = ka, k1 = kb;
    uint v0 = va, v1 = vb;
    bool swap = (k0 > k1) == (dir != 0);
    ka = swap ? k1 : k0;
    kb = swap ? k0 : k1;
    va = swap ? v1 : v0;
    vb = swap ? v0 : v1;
}

// Key-only ascending compare-exchange.
__device__ void cmp_swap_key(uint &a, uint &b)
{
    uint x = a, y = b;
    a = min(x, y);
    b = max(x, y);
}

#define SN_N 256
#define SN_THREADS (SN_N / 2)

// Bitonic sort, two pairs per thread, comparator position
// pos = 2*tid - (tid & (stride - 1)).
__global__ void sn_bitonic_ref(const uint *keys, const uint *vals, uint *okeys, uint *ovals, uint dir)
{
    __shared__ uint s_key[SN_N];
    __shared__ uint s_val[SN_N];
    uint tid = threadIdx.x;
    uint base = blockIdx.x * SN_N;
    s_key[tid] = keys[base + tid];
    s_val[tid] = vals[base + tid];
    s_key[tid + SN_N / 2] = keys[base + tid + SN_N / 2];
    s_val[tid + SN_N / 2] = vals[base + tid + SN_N / 2];

    for (uint size = 2; size <= SN_N; size <<= 1) {
        uint ddd = (size == SN_N) ? dir : (dir ^ ((tid & (size / 2)) != 0));
        for (uint stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            uint pos = 2 * tid - (tid & (stride - 1));
            cmp_swap(s_key[pos], s_val[pos], s_key[pos + stride], s_val[pos + stride], ddd);
        }
    }
    __syncthreads();
    okeys[base + tid] = s_key[tid];
    ovals[base + tid] = s_val[tid];
    okeys[base + tid + SN_N / 2] = s_key[tid + SN_N / 2];
    ovals[base + tid + SN_N / 2] = s_val[tid + SN_N / 2];
}

// Bitonic sort, one key per thread; the lower thread of each pair
// (partner tid ^ j) calls the helper.
__global__ void sn_bitonic_xor_ref(const uint *keys, const uint *vals, uint *okeys, uint *ovals)
{
    __shared__ uint s_xk[SN_N];
    __shared__ uint s_xv[SN_N];
    uint tid = threadIdx.x;
    uint base = blockIdx.x * SN_N;
    s_xk[tid] = keys[base + tid];
    s_xv[tid] = vals[base + tid];
    __syncthreads();
    for (uint k = 2; k <= SN_N; k <<= 1) {
        for (uint j = k >> 1; j > 0; j >>= 1) {
            uint ixj = tid ^ j;
            if (ixj > tid)
                cmp_swap(s_xk[tid], s_xv[tid], s_xk[ixj], s_xv[ixj], (tid & k) == 0);
            __syncthreads();
        }
    }
    okeys[base + tid] = s_xk[tid];
    ovals[base + tid] = s_xv[tid];
}

// Odd-even transposition sort: phase p compares (i, i+1), i = 2*tid + (p & 1).
__global__ void sn_oddeven_ref(const uint *keys, const uint *vals, uint *okeys, uint *ovals)
{
    __shared__ uint s_ok[SN_N];
    __shared__ uint s_ov[SN_N];
    uint tid = threadIdx.x;
    uint base = blockIdx.x * SN_N;
    s_ok[tid] = keys[base + tid];
    s_ov[tid] = vals[base + tid];
    s_ok[tid + SN_N / 2] = keys[base + tid + SN_N / 2];
    s_ov[tid + SN_N / 2] = vals[base + tid + SN_N / 2];
#pragma unroll 1
    for (uint p = 0; p < SN_N; ++p) {
        __syncthreads();
        uint i = 2 * tid + (p & 1);
        if (i + 1 < SN_N)
            cmp_swap(s_ok[i], s_ov[i], s_ok[i + 1], s_ov[i + 1], 1u);
    }
    __syncthreads();
    okeys[base + tid] = s_ok[tid];
    ovals[base + tid] = s_ov[tid];
    okeys[base + tid + SN_N / 2] = s_ok[tid + SN_N / 2];
    ovals[base + tid + SN_N / 2] = s_ov[tid + SN_N / 2];
}

#define T8_THREADS 64
#define T8_ITEMS 8

// Each thread sorts its own 8 keys with an odd-even network: blocked
// layout, a thread's keys are adjacent (s[tid * 8 + i]).
__global__ void sn_thread_sort8_blocked(const uint *keys, uint *okeys)
{
    __shared__ uint s_blk[T8_THREADS * T8_ITEMS];
    uint tid = threadIdx.x;
    const uint *src = keys + blockIdx.x * T8_THREADS * T8_ITEMS;
    for (uint e = tid; e < T8_THREADS * T8_ITEMS; e += T8_THREADS)
        s_blk[e] = src[e];
    __syncthreads();
#pragma unroll 1
    for (uint p = 0; p < T8_ITEMS; ++p) {
#pragma unroll 1
        for (uint i = p & 1; i + 1 < T8_ITEMS; i += 2)
            cmp_swap_key(s_blk[tid * T8_ITEMS + i], s_blk[tid * T8_ITEMS + i + 1]);
    }
    __syncthreads();
    uint *dst = okeys + blockIdx.x * T8_THREADS * T8_ITEMS;
    for (uint e = tid; e < T8_THREADS * T8_ITEMS; e += T8_THREADS)
        dst[e] = s_blk[e];
}

// Same network on a striped layout: key i of thread tid at s[i * 64 + tid].
__global__ void sn_thread_sort8_striped(const uint *keys, uint *okeys)
{
    __shared__ uint s_str[T8_THREADS * T8_ITEMS];
    uint tid = threadIdx.x;
    const uint *src = keys + blockIdx.x * T8_THREADS * T8_ITEMS;
    for (uint e = tid; e < T8_THREADS * T8_ITEMS; e += T8_THREADS)
        s_str[e] = src[e];
    __syncthreads();
#pragma unroll 1
    for (uint p = 0; p < T8_ITEMS; ++p) {
#pragma unroll 1
        for (uint i = p & 1; i + 1 < T8_ITEMS; i += 2)
            cmp_swap_key(s_str[i * T8_THREADS + tid], s_str[(i + 1) * T8_THREADS + tid]);
    }
    __syncthreads();
    uint *dst = okeys + blockIdx.x * T8_THREADS * T8_ITEMS;
    for (uint e = tid; e < T8_THREADS * T8_ITEMS; e += T8_THREADS)
        dst[e] = s_str[e];
}

int main()
{
    const int blocks = 2;
    const int n = blocks * T8_THREADS * T8_ITEMS;  // >= blocks * SN_N
    uint *d_k, *d_v, *d_ok, *d_ov;
    uint h_k[n];
    for (int i = 0; i < n; ++i)
        h_k[i] = (uint)((i * 97 + 13) % 509);  // a fixed shuffle
    CUDA_CHECK(cudaMalloc(&d_k, n * sizeof(uint)));
    CUDA_CHECK(cudaMalloc(&d_v, n * sizeof(uint)));
    CUDA_CHECK(cudaMalloc(&d_ok, n * sizeof(uint)));
    CUDA_CHECK(cudaMalloc(&d_ov, n * sizeof(uint)));
    CUDA_CHECK(cudaMemcpy(d_k, h_k, n * sizeof(uint), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_v, h_k, n * sizeof(uint), cudaMemcpyHostToDevice));

    sn_bitonic_ref<<<blocks, SN_THREADS>>>(d_k, d_v, d_ok, d_ov, 1u);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    sn_bitonic_xor_ref<<<blocks, SN_N>>>(d_k, d_v, d_ok, d_ov);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    sn_oddeven_ref<<<blocks, SN_THREADS>>>(d_k, d_v, d_ok, d_ov);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    sn_thread_sort8_blocked<<<blocks, T8_THREADS>>>(d_k, d_ok);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    sn_thread_sort8_striped<<<blocks, T8_THREADS>>>(d_k, d_ok);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_k));
    CUDA_CHECK(cudaFree(d_v));
    CUDA_CHECK(cudaFree(d_ok));
    CUDA_CHECK(cudaFree(d_ov));
    return 0;
}

/*
 * check-output-start
 * corpus/idiom_sortnet.cu:10:15: warning: 2-way bank conflict on load of 's_key' (uint[256]) in 'cmp_swap' called from kernel 'sn_bitonic_ref' at line 48 with blockDim (128,1,1) from the launch on line 167, worst when stride = 1 (mean 1.83-way over the iterations); lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       uint k0 = ka, k1 = kb;
 *                 ^~
 * corpus/idiom_sortnet.cu:34:5: note: 's_key' declared here
 * corpus/idiom_sortnet.cu:10:15: warning: 2-way bank conflict on load of 's_ok' (uint[256]) in 'cmp_swap' called from kernel 'sn_oddeven_ref' at line 97 with blockDim (128,1,1) from the launch on line 175; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       uint k0 = ka, k1 = kb;
 *                 ^~
 * corpus/idiom_sortnet.cu:84:5: note: 's_ok' declared here
 * corpus/idiom_sortnet.cu:10:24: warning: 2-way bank conflict on load of 's_key' (uint[256]) in 'cmp_swap' called from kernel 'sn_bitonic_ref' at line 48 with blockDim (128,1,1) from the launch on line 167, worst when stride = 1 (mean 1.83-way over the iterations); lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *       uint k0 = ka, k1 = kb;
 *                          ^~
 * corpus/idiom_sortnet.cu:34:5: note: 's_key' declared here
 * corpus/idiom_sortnet.cu:10:24: warning: 2-way bank conflict on load of 's_ok' (uint[256]) in 'cmp_swap' called from kernel 'sn_oddeven_ref' at line 97 with blockDim (128,1,1) from the launch on line 175; lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *       uint k0 = ka, k1 = kb;
 *                          ^~
 * corpus/idiom_sortnet.cu:84:5: note: 's_ok' declared here
 * corpus/idiom_sortnet.cu:11:15: warning: 2-way bank conflict on load of 's_val' (uint[256]) in 'cmp_swap' called from kernel 'sn_bitonic_ref' at line 48 with blockDim (128,1,1) from the launch on line 167, worst when stride = 1 (mean 1.83-way over the iterations); lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       uint v0 = va, v1 = vb;
 *                 ^~
 * corpus/idiom_sortnet.cu:35:5: note: 's_val' declared here
 * corpus/idiom_sortnet.cu:11:15: warning: 2-way bank conflict on load of 's_ov' (uint[256]) in 'cmp_swap' called from kernel 'sn_oddeven_ref' at line 97 with blockDim (128,1,1) from the launch on line 175; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       uint v0 = va, v1 = vb;
 *                 ^~
 * corpus/idiom_sortnet.cu:85:5: note: 's_ov' declared here
 * corpus/idiom_sortnet.cu:11:24: warning: 2-way bank conflict on load of 's_val' (uint[256]) in 'cmp_swap' called from kernel 'sn_bitonic_ref' at line 48 with blockDim (128,1,1) from the launch on line 167, worst when stride = 1 (mean 1.83-way over the iterations); lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *       uint v0 = va, v1 = vb;
 *                          ^~
 * corpus/idiom_sortnet.cu:35:5: note: 's_val' declared here
 * corpus/idiom_sortnet.cu:11:24: warning: 2-way bank conflict on load of 's_ov' (uint[256]) in 'cmp_swap' called from kernel 'sn_oddeven_ref' at line 97 with blockDim (128,1,1) from the launch on line 175; lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *       uint v0 = va, v1 = vb;
 *                          ^~
 * corpus/idiom_sortnet.cu:85:5: note: 's_ov' declared here
 * corpus/idiom_sortnet.cu:13:5: warning: 2-way bank conflict on store of 's_key' (uint[256]) in 'cmp_swap' called from kernel 'sn_bitonic_ref' at line 48 with blockDim (128,1,1) from the launch on line 167, worst when stride = 1 (mean 1.83-way over the iterations); lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       ka = swap ? k1 : k0;
 *       ^~
 * corpus/idiom_sortnet.cu:34:5: note: 's_key' declared here
 * corpus/idiom_sortnet.cu:13:5: warning: 2-way bank conflict on store of 's_ok' (uint[256]) in 'cmp_swap' called from kernel 'sn_oddeven_ref' at line 97 with blockDim (128,1,1) from the launch on line 175; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       ka = swap ? k1 : k0;
 *       ^~
 * corpus/idiom_sortnet.cu:84:5: note: 's_ok' declared here
 * corpus/idiom_sortnet.cu:14:5: warning: 2-way bank conflict on store of 's_key' (uint[256]) in 'cmp_swap' called from kernel 'sn_bitonic_ref' at line 48 with blockDim (128,1,1) from the launch on line 167, worst when stride = 1 (mean 1.83-way over the iterations); lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *       kb = swap ? k0 : k1;
 *       ^~
 * corpus/idiom_sortnet.cu:34:5: note: 's_key' declared here
 * corpus/idiom_sortnet.cu:14:5: warning: 2-way bank conflict on store of 's_ok' (uint[256]) in 'cmp_swap' called from kernel 'sn_oddeven_ref' at line 97 with blockDim (128,1,1) from the launch on line 175; lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *       kb = swap ? k0 : k1;
 *       ^~
 * corpus/idiom_sortnet.cu:84:5: note: 's_ok' declared here
 * corpus/idiom_sortnet.cu:15:5: warning: 2-way bank conflict on store of 's_val' (uint[256]) in 'cmp_swap' called from kernel 'sn_bitonic_ref' at line 48 with blockDim (128,1,1) from the launch on line 167, worst when stride = 1 (mean 1.83-way over the iterations); lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       va = swap ? v1 : v0;
 *       ^~
 * corpus/idiom_sortnet.cu:35:5: note: 's_val' declared here
 * corpus/idiom_sortnet.cu:15:5: warning: 2-way bank conflict on store of 's_ov' (uint[256]) in 'cmp_swap' called from kernel 'sn_oddeven_ref' at line 97 with blockDim (128,1,1) from the launch on line 175; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       va = swap ? v1 : v0;
 *       ^~
 * corpus/idiom_sortnet.cu:85:5: note: 's_ov' declared here
 * corpus/idiom_sortnet.cu:16:5: warning: 2-way bank conflict on store of 's_val' (uint[256]) in 'cmp_swap' called from kernel 'sn_bitonic_ref' at line 48 with blockDim (128,1,1) from the launch on line 167, worst when stride = 1 (mean 1.83-way over the iterations); lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *       vb = swap ? v0 : v1;
 *       ^~
 * corpus/idiom_sortnet.cu:35:5: note: 's_val' declared here
 * corpus/idiom_sortnet.cu:16:5: warning: 2-way bank conflict on store of 's_ov' (uint[256]) in 'cmp_swap' called from kernel 'sn_oddeven_ref' at line 97 with blockDim (128,1,1) from the launch on line 175; lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *       vb = swap ? v0 : v1;
 *       ^~
 * corpus/idiom_sortnet.cu:85:5: note: 's_ov' declared here
 * corpus/idiom_sortnet.cu:22:14: warning: 8-way bank conflict on load of 's_blk' (uint[512]) in 'cmp_swap_key' called from kernel 'sn_thread_sort8_blocked' at line 123 with blockDim (64,1,1) from the launch on line 179; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       uint x = a, y = b;
 *                ^
 * corpus/idiom_sortnet.cu:113:5: note: 's_blk' declared here
 * corpus/idiom_sortnet.cu:22:14: note: index 's_blk' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 4 of 4 conflicting accesses become conflict-free
 * corpus/idiom_sortnet.cu:22:21: warning: 8-way bank conflict on load of 's_blk' (uint[512]) in 'cmp_swap_key' called from kernel 'sn_thread_sort8_blocked' at line 123 with blockDim (64,1,1) from the launch on line 179; lanes 0 and 4 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *       uint x = a, y = b;
 *                       ^
 * corpus/idiom_sortnet.cu:113:5: note: 's_blk' declared here
 * corpus/idiom_sortnet.cu:22:21: note: index 's_blk' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 4 of 4 conflicting accesses become conflict-free
 * corpus/idiom_sortnet.cu:23:5: warning: 8-way bank conflict on store of 's_blk' (uint[512]) in 'cmp_swap_key' called from kernel 'sn_thread_sort8_blocked' at line 123 with blockDim (64,1,1) from the launch on line 179; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       a = min(x, y);
 *       ^
 * corpus/idiom_sortnet.cu:113:5: note: 's_blk' declared here
 * corpus/idiom_sortnet.cu:23:5: note: index 's_blk' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 4 of 4 conflicting accesses become conflict-free
 * corpus/idiom_sortnet.cu:24:5: warning: 8-way bank conflict on store of 's_blk' (uint[512]) in 'cmp_swap_key' called from kernel 'sn_thread_sort8_blocked' at line 123 with blockDim (64,1,1) from the launch on line 179; lanes 0 and 4 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *       b = max(x, y);
 *       ^
 * corpus/idiom_sortnet.cu:113:5: note: 's_blk' declared here
 * corpus/idiom_sortnet.cu:24:5: note: index 's_blk' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 4 of 4 conflicting accesses become conflict-free
 * check-output-end
 */
