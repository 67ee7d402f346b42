// Bulk copies out of shared memory (cp.async.bulk.global.shared::cta, the
// TMA store of sm_90), for the race model. The threads fill a tile, and
// thread 0 copies the whole tile to global memory with one bulk copy in a
// bulk group. The async proxy reads the tile at any time until the
// issuing thread's cp.async.bulk.wait_group.read, and reads what the
// threads wrote only if each wrote it before a fence.proxy.async: a
// __syncthreads() orders the threads, not the proxies (PTX ISA, memory
// consistency model). The GPU's racecheck judges the races between
// threads; it does not model proxies, so the PTX ISA's rule judges the
// fence.
// - store_fenced: fill, fence, __syncthreads(), copy, wait. Clean.
// - store_unfenced: no fence: the copy may read stale bytes.
// - store_reuse_racy: thread 0 does not wait before the __syncthreads()
//   after which every thread overwrites the tile: the copy may still be
//   reading it. Races.
// - store_reuse: the same with the wait first. Clean.
// - store_own_early: thread 0 overwrites its element right after issuing
//   the copy, before the wait (a missing wait).
// - store_loop_racy: two tiles in turn through one buffer; thread 0 waits
//   at the end of each iteration, but no barrier tells the others, who
//   overwrite the buffer at the next iteration. Races.
// - store_loop: the same with a __syncthreads() after the wait. Clean.
#include "common.cuh"

#define N 256
#define BYTES (N * 4)

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void bulk_store(float *dst, const float *tile)
{
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                 ::"l"(dst), "r"(smem_addr(tile)), "n"(BYTES) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

__device__ __forceinline__ void bulk_wait_read()
{
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

__device__ __forceinline__ void proxy_fence()
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

__global__ void store_fenced(const float *in, float *out)
{
    __shared__ alignas(128) float tile[N];
    int t = threadIdx.x;
    tile[t] = in[t] * 2.0f;
    proxy_fence();
    __syncthreads();
    if (t == 0) {
        bulk_store(out, tile);
        bulk_wait_read();
    }
}

__global__ void store_unfenced(const float *in, float *out)
{
    __shared__ alignas(128) float tile[N];
    int t = threadIdx.x;
    tile[t] = in[t] * 2.0f;
    __syncthreads();
    if (t == 0) {
        bulk_store(out, tile);
        bulk_wait_read();
    }
}

__global__ void store_reuse_racy(const float *in, float *out)
{
    __shared__ alignas(128) float tile[N];
    int t = threadIdx.x;
    tile[t] = in[t];
    proxy_fence();
    __syncthreads();
    if (t == 0)
        bulk_store(out, tile);
    __syncthreads();
    tile[t] = 0.0f;
    out[N + t] = tile[(t + 1) % N];
    if (t == 0)
        bulk_wait_read();
}

__global__ void store_reuse(const float *in, float *out)
{
    __shared__ alignas(128) float tile[N];
    int t = threadIdx.x;
    tile[t] = in[t];
    proxy_fence();
    __syncthreads();
    if (t == 0) {
        bulk_store(out, tile);
        bulk_wait_read();
    }
    __syncthreads();
    tile[t] = 0.0f;
    __syncthreads();
    out[N + t] = tile[(t + 1) % N];
}

__global__ void store_own_early(const float *in, float *out)
{
    __shared__ alignas(128) float tile[N];
    int t = threadIdx.x;
    tile[t] = in[t];
    proxy_fence();
    __syncthreads();
    if (t == 0) {
        bulk_store(out, tile);
        tile[0] = -1.0f;
        bulk_wait_read();
    }
}

__global__ void store_loop_racy(const float *in, float *out)
{
    __shared__ alignas(128) float tile[N];
    int t = threadIdx.x;
    for (int i = 0; i < 2; i++) {
        tile[t] = in[i * N + t];
        proxy_fence();
        __syncthreads();
        if (t == 0) {
            bulk_store(out + i * N, tile);
            bulk_wait_read();
        }
    }
}

__global__ void store_loop(const float *in, float *out)
{
    __shared__ alignas(128) float tile[N];
    int t = threadIdx.x;
    for (int i = 0; i < 2; i++) {
        tile[t] = in[i * N + t];
        proxy_fence();
        __syncthreads();
        if (t == 0) {
            bulk_store(out + i * N, tile);
            bulk_wait_read();
        }
        __syncthreads();
    }
}

int main()
{
    float h[2 * N];
    for (int i = 0; i < 2 * N; i++)
        h[i] = (float)i;
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, 2 * BYTES));
    CUDA_CHECK(cudaMalloc(&d_out, 2 * BYTES));
    CUDA_CHECK(cudaMemcpy(d_in, h, 2 * BYTES, cudaMemcpyHostToDevice));
    store_fenced<<<1, N>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h, d_out, BYTES, cudaMemcpyDeviceToHost));
    if (h[3] != 6.0f) {
        printf("async_bulk_store: store_fenced wrote %f\n", h[3]);
        return 1;
    }
    store_unfenced<<<1, N>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    store_reuse_racy<<<1, N>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    store_reuse<<<1, N>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    store_own_early<<<1, N>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    store_loop_racy<<<1, N>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    store_loop<<<1, N>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h, d_out, 2 * BYTES, cudaMemcpyDeviceToHost));
    if (h[N + 3] != (float)(N + 3)) {
        printf("async_bulk_store: store_loop wrote %f\n", h[N + 3]);
        return 1;
    }
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    printf("async_bulk_store: ok\n");
    return 0;
}

/*
 * check-output-start
 * corpus/async_bulk_store.cu:36:1: error: missing proxy fence: bulk copy out of 'tile' may read stale bytes: the bulk copy (cp.async.bulk) thread 0 issues reads tile[0], which thread 0 wrote at line 67 through the generic proxy, with no fence.proxy.async between the write and the copy (a __syncthreads() orders the threads, not the generic and async proxies) in 'bulk_store' called from kernel 'store_unfenced' at line 70 with blockDim (256,1,1) from the launch on line 170 [missing-barrier]
 *                    ::"l"(dst), "r"(smem_addr(tile)), "n"(BYTES) : "memory");
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_bulk_store.cu:67:5: note: the generic-proxy write of 'tile' by thread 0
 * corpus/async_bulk_store.cu:65:5: note: 'tile' declared here
 * corpus/async_bulk_store.cu:36:1: note: after the writes, before the __syncthreads() that hands the tile to the issuing thread: asm volatile("fence.proxy.async.shared::cta;") (cuda::ptx::fence_proxy_async(cuda::ptx::space_shared))
 * corpus/async_bulk_store.cu:85:5: error: missing barrier: write-after-read race on 'tile': thread 32 overwrites tile[32], which thread 0 read at line 36, while that bulk copy out of shared memory may still be reading it: no cp.async.bulk.wait_group.read by its thread completes it before the __syncthreads() between (different warps) in kernel 'store_reuse_racy' with blockDim (256,1,1) from the launch on line 173 [missing-barrier]
 *       tile[t] = 0.0f;
 *       ^~~~~~~
 * corpus/async_bulk_store.cu:36:1: note: the racing read of 'tile' by thread 0
 * corpus/async_bulk_store.cu:77:5: note: 'tile' declared here
 * corpus/async_bulk_store.cu:85:5: note: let the issuing thread wait for its bulk group (cp.async.bulk.wait_group.read 0) before the __syncthreads() after which the buffer is written again
 * corpus/async_bulk_store.cu:86:18: error: missing barrier: read-after-write race on 'tile': thread 31 reads tile[32], which thread 32 wrote at line 85, with no __syncthreads() in between (different warps) in kernel 'store_reuse_racy' with blockDim (256,1,1) from the launch on line 173 [missing-barrier]
 *       out[N + t] = tile[(t + 1) % N];
 *                    ^~~~~~~~~~~~~~~~~
 * corpus/async_bulk_store.cu:85:5: note: the racing write of 'tile' by thread 32
 * corpus/async_bulk_store.cu:77:5: note: 'tile' declared here
 * corpus/async_bulk_store.cu:86:18: note: add __syncthreads() between the two accesses
 * corpus/async_bulk_store.cu:117:9: error: missing wait: write of 'tile' before its bulk copy out of shared memory has read it: thread 0 overwrites tile[0], which its own bulk copy (cp.async.bulk) at line 36 may still be reading: no cp.async.bulk.wait_group.read completes the copy's bulk group before the write in kernel 'store_own_early' with blockDim (256,1,1) from the launch on line 179 [missing-barrier]
 *           tile[0] = -1.0f;
 *           ^~~~~~~
 * corpus/async_bulk_store.cu:36:1: note: the bulk copy out of 'tile' by thread 0
 * corpus/async_bulk_store.cu:110:5: note: 'tile' declared here
 * corpus/async_bulk_store.cu:117:9: note: wait for the copy's bulk group (cp.async.bulk.wait_group.read N, N no larger than the bulk groups committed after it) before writing its bytes
 * corpus/async_bulk_store.cu:127:9: error: missing barrier: write-after-read race on 'tile': thread 32 overwrites tile[32], which thread 0 read at line 36 in the previous iteration, with no __syncthreads() in between (different warps) in kernel 'store_loop_racy' with blockDim (256,1,1) from the launch on line 182 [missing-barrier]
 *           tile[t] = in[i * N + t];
 *           ^~~~~~~
 * corpus/async_bulk_store.cu:36:1: note: the racing read of 'tile' by thread 0
 * corpus/async_bulk_store.cu:124:5: note: 'tile' declared here
 * corpus/async_bulk_store.cu:127:9: note: add __syncthreads() at the end of the loop body, before the next iteration overwrites what this one reads
 * check-output-end
 */
