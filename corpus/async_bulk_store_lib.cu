// Bulk copies out of shared memory as libcu++ spells them (see
// async_bulk_store.cu for the PTX and the rules): cuda::device::
// experimental::cp_async_bulk_shared_to_global with its commit, wait and
// fence_proxy_async_shared_cta, and the cuda::ptx wrappers. racecheck
// judges the races between threads; the PTX ISA's proxy rule the fence.
// - lib_fenced: fill, fence, __syncthreads(), copy, wait. Clean.
// - lib_unfenced: no fence before the copy.
// - lib_reuse_racy: no wait before the __syncthreads() after which every
//   thread overwrites the tile.
// - ptx_fenced: cuda::ptx::fence_proxy_async(space_shared), cp_async_bulk
//   (space_global, space_shared, ...), wait_group_read(n32_t<0>). Clean.
// - ptx_own_early: thread 0 overwrites its element before its wait.
#include "common.cuh"
#include <cuda/barrier>
#include <cuda/ptx>

#define N 256
#define BYTES (N * 4)

namespace cde = cuda::device::experimental;
namespace ptx = cuda::ptx;

__global__ void lib_fenced(const float *in, float *out)
{
    __shared__ alignas(128) float tile[N];
    int t = threadIdx.x;
    tile[t] = in[t] * 2.0f;
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (t == 0) {
        cde::cp_async_bulk_shared_to_global(out, tile, BYTES);
        cde::cp_async_bulk_commit_group();
        cde::cp_async_bulk_wait_group_read<0>();
    }
}

__global__ void lib_unfenced(const float *in, float *out)
{
    __shared__ alignas(128) float tile[N];
    int t = threadIdx.x;
    tile[t] = in[t] * 2.0f;
    __syncthreads();
    if (t == 0) {
        cde::cp_async_bulk_shared_to_global(out, tile, BYTES);
        cde::cp_async_bulk_commit_group();
        cde::cp_async_bulk_wait_group_read<0>();
    }
}

__global__ void lib_reuse_racy(const float *in, float *out)
{
    __shared__ alignas(128) float tile[N];
    int t = threadIdx.x;
    tile[t] = in[t];
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (t == 0) {
        cde::cp_async_bulk_shared_to_global(out, tile, BYTES);
        cde::cp_async_bulk_commit_group();
    }
    __syncthreads();
    tile[t] = 0.0f;
    if (t == 0)
        cde::cp_async_bulk_wait_group_read<0>();
}

__global__ void ptx_fenced(const float *in, float *out)
{
    __shared__ alignas(128) float tile[N];
    int t = threadIdx.x;
    tile[t] = in[t] * 2.0f;
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (t == 0) {
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out, tile, BYTES);
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
}

__global__ void ptx_own_early(const float *in, float *out)
{
    __shared__ alignas(128) float tile[N];
    int t = threadIdx.x;
    tile[t] = in[t];
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (t == 0) {
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out, tile, BYTES);
        ptx::cp_async_bulk_commit_group();
        tile[0] = -1.0f;
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
}

int main()
{
    float h[N];
    for (int i = 0; i < N; i++)
        h[i] = (float)i;
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, BYTES));
    CUDA_CHECK(cudaMalloc(&d_out, BYTES));
    CUDA_CHECK(cudaMemcpy(d_in, h, BYTES, cudaMemcpyHostToDevice));
    lib_fenced<<<1, N>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h, d_out, BYTES, cudaMemcpyDeviceToHost));
    if (h[3] != 6.0f) {
        printf("async_bulk_store_lib: lib_fenced wrote %f\n", h[3]);
        return 1;
    }
    lib_unfenced<<<1, N>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    lib_reuse_racy<<<1, N>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemset(d_out, 0, BYTES));
    ptx_fenced<<<1, N>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h, d_out, BYTES, cudaMemcpyDeviceToHost));
    if (h[3] != 6.0f) {
        printf("async_bulk_store_lib: ptx_fenced wrote %f\n", h[3]);
        return 1;
    }
    ptx_own_early<<<1, N>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    printf("async_bulk_store_lib: ok\n");
    return 0;
}

/*
 * check-output-start
 * corpus/async_bulk_store_lib.cu:44:9: error: missing proxy fence: bulk copy out of 'tile' may read stale bytes: the bulk copy (cp.async.bulk) thread 0 issues reads tile[0], which thread 0 wrote at line 41 through the generic proxy, with no fence.proxy.async between the write and the copy (a __syncthreads() orders the threads, not the generic and async proxies) in kernel 'lib_unfenced' with blockDim (256,1,1) from the launch on line 113 [missing-barrier]
 *           cde::cp_async_bulk_shared_to_global(out, tile, BYTES);
 *           ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_bulk_store_lib.cu:41:5: note: the generic-proxy write of 'tile' by thread 0
 * corpus/async_bulk_store_lib.cu:39:5: note: 'tile' declared here
 * corpus/async_bulk_store_lib.cu:44:9: note: after the writes, before the __syncthreads() that hands the tile to the issuing thread: asm volatile("fence.proxy.async.shared::cta;") (cuda::ptx::fence_proxy_async(cuda::ptx::space_shared))
 * corpus/async_bulk_store_lib.cu:62:5: error: missing barrier: write-after-read race on 'tile': thread 32 overwrites tile[32], which thread 0 read at line 58, while that bulk copy out of shared memory may still be reading it: no cp.async.bulk.wait_group.read by its thread completes it before the __syncthreads() between (different warps) in kernel 'lib_reuse_racy' with blockDim (256,1,1) from the launch on line 116 [missing-barrier]
 *       tile[t] = 0.0f;
 *       ^~~~~~~
 * corpus/async_bulk_store_lib.cu:58:9: note: the racing read of 'tile' by thread 0
 * corpus/async_bulk_store_lib.cu:52:5: note: 'tile' declared here
 * corpus/async_bulk_store_lib.cu:62:5: note: let the issuing thread wait for its bulk group (cp.async.bulk.wait_group.read 0) before the __syncthreads() after which the buffer is written again
 * corpus/async_bulk_store_lib.cu:91:9: error: missing wait: write of 'tile' before its bulk copy out of shared memory has read it: thread 0 overwrites tile[0], which its own bulk copy (cp.async.bulk) at line 89 may still be reading: no cp.async.bulk.wait_group.read completes the copy's bulk group before the write in kernel 'ptx_own_early' with blockDim (256,1,1) from the launch on line 128 [missing-barrier]
 *           tile[0] = -1.0f;
 *           ^~~~~~~
 * corpus/async_bulk_store_lib.cu:89:9: note: the bulk copy out of 'tile' by thread 0
 * corpus/async_bulk_store_lib.cu:83:5: note: 'tile' declared here
 * corpus/async_bulk_store_lib.cu:91:9: note: wait for the copy's bulk group (cp.async.bulk.wait_group.read N, N no larger than the bulk groups committed after it) before writing its bytes
 * check-output-end
 */
