// tma-swizzle: the spellings of a TMA tensor copy, the three swizzle
// spans, both directions, and the maps smemlint does not bind (no finding
// then: the layout is not known).
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>
#include <cuda_fp16.h>
#include <cstdint>
#include <utility>


namespace cde = cuda::device::experimental;
namespace ptx = cuda::ptx;

// libcu++ spelling, 64-byte swizzle, read as if plain: reported
__global__ void lib_plain64(const __grid_constant__ CUtensorMap map, float *out)
{
    __shared__ alignas(1024) float tile[32][16];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    int t = threadIdx.x;
    if (t == 0) {
        init(&bar, blockDim.x);
        cde::fence_proxy_async_shared_cta();
    }
    __syncthreads();
    cuda::barrier<cuda::thread_scope_block>::arrival_token tok;
    if (t == 0) {
        cde::cp_async_bulk_tensor_2d_global_to_shared(&tile[0][0], &map, 0, 0, bar);
        tok = cuda::device::barrier_arrive_tx(bar, 1, sizeof(tile));
    } else {
        tok = bar.arrive();
    }
    bar.wait(std::move(tok));
    out[t] = tile[t % 32][t / 32];
}

// __half, 128-byte swizzle undone with 8-element chunks: no finding
__global__ void half_ok(const __grid_constant__ CUtensorMap map, __half *out)
{
    __shared__ alignas(1024) __half tile[16][64];
    __shared__ uint64_t bar;
    int t = threadIdx.x;
    if (t == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (t == 0) {
        const int32_t at[2] = { 0, 0 };
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(tile));
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &tile[0][0], &map, at, &bar);
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
    int r = t % 16, c = t / 16;
    out[t] = tile[r][(((c >> 3) ^ (r & 7)) << 3) | (c & 7)];
}

// a TMA store (cuda::ptx) of a tile written as if plain, 32-byte swizzle:
// the write is reported
__global__ void store_plain32(const __grid_constant__ CUtensorMap map, const float *in)
{
    __shared__ alignas(1024) float tile[32][8];
    int t = threadIdx.x;
    tile[t / 8][t % 8] = in[t];
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (t == 0) {
        const int32_t at[2] = { 0, 0 };
        ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &map, at, &tile[0][0]);
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
    __syncthreads();
}

__device__ void load_box(float *dst, const CUtensorMap *m, uint64_t *bar)
{
    const int32_t at[2] = { 0, 0 };
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, dst, m, at, bar);
}

// the map reaches the copy through a helper's parameter: bound through the
// call that inlines the helper, and the plain read is reported
__global__ void via_helper(const __grid_constant__ CUtensorMap map, float *out)
{
    __shared__ alignas(1024) float tile[32][32];
    __shared__ uint64_t bar;
    int t = threadIdx.x;
    if (t == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (t == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(tile));
        load_box(&tile[0][0], &map, &bar);
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
    out[t] = tile[t % 32][t / 32];
}

// the host encodes this kernel's map twice: which one the launch passes is
// not known, so the copy is not bound and the read is not judged
__global__ void encoded_twice(const __grid_constant__ CUtensorMap map, float *out)
{
    __shared__ alignas(1024) float tile[32][32];
    __shared__ uint64_t bar;
    int t = threadIdx.x;
    if (t == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (t == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(tile));
        load_box(&tile[0][0], &map, &bar);
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
    out[t] = tile[t % 32][t / 32];
}

typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                              const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                              CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

void run(encode_fn encode, float *f, __half *h)
{
    cuuint64_t dims[2] = { 64, 64 }, strides[1] = { 256 };
    cuuint32_t box64[2] = { 16, 32 }, box_half[2] = { 64, 16 }, box32[2] = { 8, 32 }, box[2] = { 32, 32 };
    cuuint32_t ones[2] = { 1, 1 };
    CUtensorMap m64, mh, m32, mv;
    encode(&m64, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, f, dims, strides, box64, ones, CU_TENSOR_MAP_INTERLEAVE_NONE,
           CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    encode(&mh, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, h, dims, strides, box_half, ones, CU_TENSOR_MAP_INTERLEAVE_NONE,
           CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    encode(&m32, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, f, dims, strides, box32, ones, CU_TENSOR_MAP_INTERLEAVE_NONE,
           CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    encode(&mv, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, f, dims, strides, box, ones, CU_TENSOR_MAP_INTERLEAVE_NONE,
           CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    lib_plain64<<<1, 512>>>(m64, f);
    half_ok<<<1, 1024>>>(mh, h);
    store_plain32<<<1, 256>>>(m32, f);
    via_helper<<<1, 1024>>>(mv, f);
    CUtensorMap mt;
    encode(&mt, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, f, dims, strides, box, ones, CU_TENSOR_MAP_INTERLEAVE_NONE,
           CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    encoded_twice<<<1, 1024>>>(mt, f);
    encode(&mt, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, f, dims, strides, box, ones, CU_TENSOR_MAP_INTERLEAVE_NONE,
           CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    encoded_twice<<<1, 1024>>>(mt, f);
}

/*
 * check-output-start
 * tests/rules/tma-swizzle/spellings.cu:19:56: note: __shared__ 'bar' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/tma-swizzle/spellings.cu:34:14: warning: 16-way bank conflict on load of 'tile' (float[32][16]) in kernel 'lib_plain64' with blockDim (512,1,1) from the launch on line 143; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[t] = tile[t % 32][t / 32];
 *                ^~~~~~~~~~~~~~~~~~~~
 * tests/rules/tma-swizzle/spellings.cu:18:5: note: 'tile' declared here
 * tests/rules/tma-swizzle/spellings.cu:34:14: note: 'tile' is laid out by the TMA tensor copy on line 28: padding or swizzling the array would break its box; encode the map with a swizzle (CU_TENSOR_MAP_SWIZZLE_128B) and index the tile as it lays it out
 * tests/rules/tma-swizzle/spellings.cu:34:14: error: swizzle mismatch: 'tile' is filled by a TMA tensor copy with the 64-byte swizzle, but this read does not address it that way: thread 2 reads tile[2][0], where the copy put the box's element tile[2][4] in kernel 'lib_plain64' with blockDim (512,1,1) from the launch on line 143 [tma-swizzle]
 *       out[t] = tile[t % 32][t / 32];
 *                ^~~~~~~~~~~~~~~~~~~~
 * tests/rules/tma-swizzle/spellings.cu:28:9: note: the tensor copy into 'tile'
 * tests/rules/tma-swizzle/spellings.cu:135:5: note: its tensor map, encoded with CU_TENSOR_MAP_SWIZZLE_64B
 * tests/rules/tma-swizzle/spellings.cu:18:5: note: 'tile' declared here
 * tests/rules/tma-swizzle/spellings.cu:34:14: note: address byte o of the box at o ^ (((o >> 7) & 3) << 4), as the copy lays it out, or encode the map with CU_TENSOR_MAP_SWIZZLE_NONE
 * tests/rules/tma-swizzle/spellings.cu:56:14: warning: 2-way bank conflict on load of 'tile' (__half[16][64]) in kernel 'half_ok' with blockDim (1024,1,1) from the launch on line 144; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 1024) [bank-conflict]
 *       out[t] = tile[r][(((c >> 3) ^ (r & 7)) << 3) | (c & 7)];
 *                ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/tma-swizzle/spellings.cu:40:5: note: 'tile' declared here
 * tests/rules/tma-swizzle/spellings.cu:56:14: note: 'tile' is laid out by the TMA tensor copy on line 51, already with the 128-byte swizzle: no layout of the array helps
 * tests/rules/tma-swizzle/spellings.cu:65:5: error: swizzle mismatch: 'tile' is stored by a TMA tensor copy with the 32-byte swizzle, but this write does not address it that way: thread 32 writes tile[4][0], where the copy takes the box's element tile[4][4] in kernel 'store_plain32' with blockDim (256,1,1) from the launch on line 145 [tma-swizzle]
 *       tile[t / 8][t % 8] = in[t];
 *       ^~~~~~~~~~~~~~~~~~
 * tests/rules/tma-swizzle/spellings.cu:70:9: note: the tensor copy out of 'tile'
 * tests/rules/tma-swizzle/spellings.cu:139:5: note: its tensor map, encoded with CU_TENSOR_MAP_SWIZZLE_32B
 * tests/rules/tma-swizzle/spellings.cu:63:5: note: 'tile' declared here
 * tests/rules/tma-swizzle/spellings.cu:65:5: note: address byte o of the box at o ^ (((o >> 7) & 1) << 4), as the copy lays it out, or encode the map with CU_TENSOR_MAP_SWIZZLE_NONE
 * tests/rules/tma-swizzle/spellings.cu:101:14: warning: 32-way bank conflict on load of 'tile' (float[32][32]) in kernel 'via_helper' with blockDim (1024,1,1) from the launch on line 146; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[t] = tile[t % 32][t / 32];
 *                ^~~~~~~~~~~~~~~~~~~~
 * tests/rules/tma-swizzle/spellings.cu:87:5: note: 'tile' declared here
 * tests/rules/tma-swizzle/spellings.cu:101:14: note: 'tile' is laid out by the TMA tensor copy on line 80, already with the 128-byte swizzle: no layout of the array helps
 * tests/rules/tma-swizzle/spellings.cu:101:14: error: swizzle mismatch: 'tile' is filled by a TMA tensor copy with the 128-byte swizzle, but this read does not address it that way: thread 1 reads tile[1][0], where the copy put the box's element tile[1][4] in kernel 'via_helper' with blockDim (1024,1,1) from the launch on line 146 [tma-swizzle]
 *       out[t] = tile[t % 32][t / 32];
 *                ^~~~~~~~~~~~~~~~~~~~
 * tests/rules/tma-swizzle/spellings.cu:80:5: note: the tensor copy into 'tile'
 * tests/rules/tma-swizzle/spellings.cu:141:5: note: its tensor map, encoded with CU_TENSOR_MAP_SWIZZLE_128B
 * tests/rules/tma-swizzle/spellings.cu:87:5: note: 'tile' declared here
 * tests/rules/tma-swizzle/spellings.cu:101:14: note: address byte o of the box at o ^ (((o >> 7) & 7) << 4), as the copy lays it out (here `tile[r][(((c >> 2) ^ (r & 7)) << 2) | (c & 3)]`), or encode the map with CU_TENSOR_MAP_SWIZZLE_NONE
 * tests/rules/tma-swizzle/spellings.cu:122:14: warning: 32-way bank conflict on load of 'tile' (float[32][32]) in kernel 'encoded_twice' with blockDim (1024,1,1) from the launch on line 150; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[t] = tile[t % 32][t / 32];
 *                ^~~~~~~~~~~~~~~~~~~~
 * tests/rules/tma-swizzle/spellings.cu:108:5: note: 'tile' declared here
 * tests/rules/tma-swizzle/spellings.cu:122:14: note: 'tile' is laid out by the TMA tensor copy on line 80: padding or swizzling the array would break its box; encode the map with a swizzle (CU_TENSOR_MAP_SWIZZLE_128B) and index the tile as it lays it out
 * check-output-end
 */
