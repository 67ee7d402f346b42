// TMA tensor copies (cp.async.bulk.tensor) and the shared-memory swizzle
// their tensor maps ask for. The host encodes each map once with
// cuTensorMapEncodeTiled (reached through the runtime's driver entry
// point). A 32x32 box of floats with the 128-byte swizzle puts element
// (r, c) at byte r*128 + ((c/4 ^ r%8) * 16) + (c%4) * 4 of the tile: the
// 16-byte chunk index XORed with the row's low three bits. Each kernel's
// result is checked on the host.
// - tma_swizzled: reads the tile transposed (lane = row), undoing the
//   swizzle in its index: right values, 4-way conflicts (rows r, r+8,
//   r+16 and r+24 meet in one bank).
// - tma_plain: the same read, indexing the tile as if it were not
//   swizzled: wrong values, 32-way conflicts.
// - tma_elem_xor: XORs the element index instead of the 16-byte chunk:
//   wrong values, 4-way conflicts.
// - tma_early: no swizzle; the read follows a __syncthreads() instead of
//   the mbarrier's wait: a race with the copy.
// - tma_store64: threads write a 32x16 tile in the 64-byte swizzle's
//   layout, fence.proxy.async, and one thread stores it with a TMA tensor
//   store: right values.
#include "common.cuh"
#include <cuda.h>
#include <cuda/ptx>
#include <cstdint>

#define R 32
#define C 32
#define BOX_BYTES (R * C * 4)
#define THREADS 256

namespace ptx = cuda::ptx;

__device__ static void bar_init(uint64_t *bar)
{
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
}

__global__ void tma_swizzled(const __grid_constant__ CUtensorMap map, float *out)
{
    __shared__ alignas(1024) float tile[R][C];
    __shared__ uint64_t bar;
    int t = threadIdx.x;
    bar_init(&bar);
    if (t == 0) {
        const int32_t at[2] = { 0, 0 };
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, BOX_BYTES);
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &tile[0][0], &map, at, &bar);
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
    for (int k = 0; k < 4; k++) {
        int r = t % 32, c = t / 32 + 8 * k;
        out[c * R + r] = tile[r][(((c >> 2) ^ (r & 7)) << 2) | (c & 3)];
    }
}

__global__ void tma_plain(const __grid_constant__ CUtensorMap map, float *out)
{
    __shared__ alignas(1024) float tile[R][C];
    __shared__ uint64_t bar;
    int t = threadIdx.x;
    bar_init(&bar);
    if (t == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, BOX_BYTES);
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];"
                     :
                     : "r"((unsigned)__cvta_generic_to_shared(tile)), "l"(&map), "r"(0), "r"(0),
                       "r"((unsigned)__cvta_generic_to_shared(&bar))
                     : "memory");
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
    for (int k = 0; k < 4; k++) {
        int r = t % 32, c = t / 32 + 8 * k;
        out[c * R + r] = tile[r][c];
    }
}

__global__ void tma_elem_xor(const __grid_constant__ CUtensorMap map, float *out)
{
    __shared__ alignas(1024) float tile[R][C];
    __shared__ uint64_t bar;
    int t = threadIdx.x;
    bar_init(&bar);
    if (t == 0) {
        const int32_t at[2] = { 0, 0 };
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, BOX_BYTES);
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &tile[0][0], &map, at, &bar);
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
    for (int k = 0; k < 4; k++) {
        int r = t % 32, c = t / 32 + 8 * k;
        out[c * R + r] = tile[r][c ^ (r & 7)];
    }
}

__global__ void tma_early(const __grid_constant__ CUtensorMap map, float *out)
{
    __shared__ alignas(1024) float tile[R][C];
    __shared__ uint64_t bar;
    int t = threadIdx.x;
    bar_init(&bar);
    if (t == 0) {
        const int32_t at[2] = { 0, 0 };
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, BOX_BYTES);
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &tile[0][0], &map, at, &bar);
    }
    __syncthreads();
    for (int k = 0; k < 4; k++) {
        int e = t + THREADS * k;
        out[e] = tile[e / C][e % C];
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
}

__global__ void tma_store64(const __grid_constant__ CUtensorMap map, const float *in)
{
    __shared__ alignas(1024) float tile[R][16];
    int t = threadIdx.x;
    for (int k = 0; k < 2; k++) {
        int e = t + THREADS * k, r = e / 16, c = e % 16;
        tile[r][(((c >> 2) ^ ((r >> 1) & 3)) << 2) | (c & 3)] = in[e] + 1.0f;
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (t == 0) {
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                     :
                     : "l"(&map), "r"(0), "r"(0), "r"((unsigned)__cvta_generic_to_shared(tile))
                     : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
    __syncthreads();
}

typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                              const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                              CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

static int check(const char *what, const float *got, const float *want, int n, bool right)
{
    int diff = -1;
    for (int i = 0; i < n && diff < 0; i++)
        if (got[i] != want[i])
            diff = i;
    if (right && diff >= 0)
        printf("check %s: FAILED at %d: %g, want %g\n", what, diff, got[diff], want[diff]);
    else if (right)
        printf("check %s: ok\n", what);
    else
        printf("check %s: %s\n", what, diff >= 0 ? "differs, as the swizzle predicts" : "FAILED: no difference");
    return right ? diff < 0 : diff >= 0;
}

int main()
{
    void *fn = nullptr;
    cudaDriverEntryPointQueryResult q;
    CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
    if (!fn || q != cudaDriverEntryPointSuccess) {
        printf("no cuTensorMapEncodeTiled\n");
        return 1;
    }
    encode_fn encode = (encode_fn)fn;

    float h[R * C], got[R * C], want[R * C];
    for (int i = 0; i < R * C; i++)
        h[i] = (float)(i * 7 % 1009);
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, sizeof(h)));
    CUDA_CHECK(cudaMalloc(&d_out, sizeof(h)));
    CUDA_CHECK(cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice));

    cuuint64_t dims[2] = { C, R }, strides[1] = { C * 4 };
    cuuint32_t box[2] = { C, R }, ones[2] = { 1, 1 };
    CUtensorMap map128, map_none, map64;
    if (encode(&map128, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, d_in, dims, strides, box, ones,
               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
        return printf("encode map128 failed\n"), 1;
    if (encode(&map_none, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, d_in, dims, strides, box, ones,
               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
        return printf("encode map_none failed\n"), 1;
    cuuint64_t dims64[2] = { 16, R }, strides64[1] = { 16 * 4 };
    cuuint32_t box64[2] = { 16, R };
    if (encode(&map64, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, d_out, dims64, strides64, box64, ones,
               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
        return printf("encode map64 failed\n"), 1;

    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++)
            want[c * R + r] = h[r * C + c];
    int bad = 0;

    tma_swizzled<<<1, THREADS>>>(map128, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got, d_out, sizeof(got), cudaMemcpyDeviceToHost));
    bad |= !check("tma_swizzled", got, want, R * C, true);

    tma_plain<<<1, THREADS>>>(map128, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got, d_out, sizeof(got), cudaMemcpyDeviceToHost));
    bad |= !check("tma_plain", got, want, R * C, false);

    tma_elem_xor<<<1, THREADS>>>(map128, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got, d_out, sizeof(got), cudaMemcpyDeviceToHost));
    bad |= !check("tma_elem_xor", got, want, R * C, false);

    tma_early<<<1, THREADS>>>(map_none, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    tma_store64<<<1, THREADS>>>(map64, d_in);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got, d_out, 16 * R * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 16 * R; i++)
        want[i] = h[i] + 1.0f;
    bad |= !check("tma_store64", got, want, 16 * R, true);

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return bad;
}

/*
 * check-output-start
 * corpus/tma_tensor.cu:56:26: warning: 4-way bank conflict on load of 'tile' (float[32][32]) in kernel 'tma_swizzled' with blockDim (256,1,1) from the launch on line 204; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 1024) [bank-conflict]
 *           out[c * R + r] = tile[r][(((c >> 2) ^ (r & 7)) << 2) | (c & 3)];
 *                            ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/tma_tensor.cu:43:5: note: 'tile' declared here
 * corpus/tma_tensor.cu:56:26: note: 'tile' is laid out by the TMA tensor copy on line 50, already with the 128-byte swizzle: no layout of the array helps
 * corpus/tma_tensor.cu:79:26: warning: 32-way bank conflict on load of 'tile' (float[32][32]) in kernel 'tma_plain' with blockDim (256,1,1) from the launch on line 210; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           out[c * R + r] = tile[r][c];
 *                            ^~~~~~~~~~
 * corpus/tma_tensor.cu:62:5: note: 'tile' declared here
 * corpus/tma_tensor.cu:79:26: note: 'tile' is laid out by the TMA tensor copy on line 73, already with the 128-byte swizzle: no layout of the array helps
 * corpus/tma_tensor.cu:79:26: error: swizzle mismatch: 'tile' is filled by a TMA tensor copy with the 128-byte swizzle, but this read does not address it that way: thread 1 reads tile[1][0], where the copy put the box's element tile[1][4] in kernel 'tma_plain' with blockDim (256,1,1) from the launch on line 210 [tma-swizzle]
 *           out[c * R + r] = tile[r][c];
 *                            ^~~~~~~~~~
 * corpus/tma_tensor.cu:73:1: note: the tensor copy into 'tile'
 * corpus/tma_tensor.cu:184:9: note: its tensor map, encoded with CU_TENSOR_MAP_SWIZZLE_128B
 * corpus/tma_tensor.cu:62:5: note: 'tile' declared here
 * corpus/tma_tensor.cu:79:26: note: address byte o of the box at o ^ (((o >> 7) & 7) << 4), as the copy lays it out (here `tile[r][(((c >> 2) ^ (r & 7)) << 2) | (c & 3)]`), or encode the map with CU_TENSOR_MAP_SWIZZLE_NONE
 * corpus/tma_tensor.cu:98:26: warning: 4-way bank conflict on load of 'tile' (float[32][32]) in kernel 'tma_elem_xor' with blockDim (256,1,1) from the launch on line 216; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 1024) [bank-conflict]
 *           out[c * R + r] = tile[r][c ^ (r & 7)];
 *                            ^~~~~~~~~~~~~~~~~~~~
 * corpus/tma_tensor.cu:85:5: note: 'tile' declared here
 * corpus/tma_tensor.cu:98:26: note: 'tile' is laid out by the TMA tensor copy on line 92, already with the 128-byte swizzle: no layout of the array helps
 * corpus/tma_tensor.cu:98:26: error: swizzle mismatch: 'tile' is filled by a TMA tensor copy with the 128-byte swizzle, but this read does not address it that way: thread 1 reads tile[1][1] (its index, XORs undone, means tile[1][0]), where the copy put the box's element tile[1][5] in kernel 'tma_elem_xor' with blockDim (256,1,1) from the launch on line 216 [tma-swizzle]
 *           out[c * R + r] = tile[r][c ^ (r & 7)];
 *                            ^~~~~~~~~~~~~~~~~~~~
 * corpus/tma_tensor.cu:92:9: note: the tensor copy into 'tile'
 * corpus/tma_tensor.cu:184:9: note: its tensor map, encoded with CU_TENSOR_MAP_SWIZZLE_128B
 * corpus/tma_tensor.cu:85:5: note: 'tile' declared here
 * corpus/tma_tensor.cu:98:26: note: address byte o of the box at o ^ (((o >> 7) & 7) << 4), as the copy lays it out (here `tile[r][(((c >> 2) ^ (r & 7)) << 2) | (c & 3)]`), or encode the map with CU_TENSOR_MAP_SWIZZLE_NONE
 * corpus/tma_tensor.cu:116:18: error: missing wait: read of 'tile' before its asynchronous copy completes: thread 0 reads tile[0][0], which its own asynchronous copy at line 111 may still be writing: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait, an mbarrier's try_wait) completes the copy's group before the read in kernel 'tma_early' with blockDim (256,1,1) from the launch on line 222 [missing-barrier]
 *           out[e] = tile[e / C][e % C];
 *                    ^~~~~~~~~~~~~~~~~~
 * corpus/tma_tensor.cu:111:9: note: the asynchronous copy into 'tile' by thread 0
 * corpus/tma_tensor.cu:104:5: note: 'tile' declared here
 * corpus/tma_tensor.cu:116:18: note: wait for the copy's group before reading its bytes (__pipeline_wait_prior(N) or cp.async.wait_group N with N no larger than the groups committed after it, pipe.consumer_wait())
 * check-output-end
 */
