// tma-swizzle: tensor maps encoded by host helpers (given the map, or
// building and returning it). The helper's one
// encode of the map it is given is read with its parameters taken from
// the call (the swizzle, the box's extents), per launching function.
#include <cuda.h>
#include <cuda/ptx>
#include <cstdint>

namespace ptx = cuda::ptx;

__device__ void fill(float (*tile)[32], const CUtensorMap *map, uint64_t *bar)
{
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        const int32_t at[2] = { 0, 0 };
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, bar, 32 * 32 * 4);
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &tile[0][0], map, at, bar);
    }
    while (!ptx::mbarrier_try_wait_parity(bar, 0)) {
    }
}

// the map comes from encode_ref(desc, ..., CU_TENSOR_MAP_SWIZZLE_128B):
// the plain transposed read is reported
__global__ void read_plain(const __grid_constant__ CUtensorMap map, float *out)
{
    __shared__ alignas(1024) float tile[32][32];
    __shared__ uint64_t bar;
    fill(tile, &map, &bar);
    int t = threadIdx.x;
    out[t] = tile[t % 32][t / 32];
}

// a map a helper builds and returns (`CUtensorMap m = make_map(...)`),
// 128-byte swizzle, read with the element XOR instead of the chunk's:
// reported
__global__ void read_returned(const __grid_constant__ CUtensorMap map, float *out)
{
    __shared__ alignas(1024) float tile[32][32];
    __shared__ uint64_t bar;
    fill(tile, &map, &bar);
    int t = threadIdx.x, r = t % 32, c = t / 32;
    out[t] = tile[r][c ^ (r & 7)];
}

// the same helper with CU_TENSOR_MAP_SWIZZLE_NONE: nothing to report
__global__ void read_unswizzled(const __grid_constant__ CUtensorMap map, float *out)
{
    __shared__ alignas(1024) float tile[32][32];
    __shared__ uint64_t bar;
    fill(tile, &map, &bar);
    int t = threadIdx.x;
    out[t] = tile[t % 32][t / 32];
}

// a pointer-taking helper with a 64-byte swizzle over 32 x 16 boxes of a
// 32-float row: the box fills half the row, read as if plain; reported
__global__ void read_pointer_helper(const __grid_constant__ CUtensorMap map, float *out)
{
    __shared__ alignas(1024) float tile[32][32];
    __shared__ uint64_t bar;
    fill(tile, &map, &bar);
    int t = threadIdx.x;
    out[t] = tile[t % 16][t / 16];
}

static bool encode_ref(CUtensorMap &desc, float *base, CUtensorMapSwizzle swizzle, cuuint32_t w, cuuint32_t h)
{
    cuuint64_t dims[2] = { 1024, 1024 }, strides[1] = { 4096 };
    cuuint32_t box[2] = { w, h }, ones[2] = { 1, 1 };
    return cuTensorMapEncodeTiled(&desc, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, dims, strides, box, ones,
                                  CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

static void encode_ptr(CUtensorMap *desc, float *base)
{
    cuuint64_t dims[2] = { 1024, 1024 }, strides[1] = { 4096 };
    cuuint32_t box[2] = { 16, 32 }, ones[2] = { 1, 1 };
    cuTensorMapEncodeTiled(desc, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, dims, strides, box, ones,
                           CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                           CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

static CUtensorMap make_map(float *base)
{
    CUtensorMap m;
    cuuint64_t dims[2] = { 1024, 1024 }, strides[1] = { 4096 };
    cuuint32_t box[2] = { 32, 32 }, ones[2] = { 1, 1 };
    cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, dims, strides, box, ones,
                           CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                           CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return m;
}

void run_returned(float *f)
{
    CUtensorMap desc = make_map(f);
    read_returned<<<1, 1024>>>(desc, f);
}

void run_swizzled(float *f)
{
    CUtensorMap desc;
    if (encode_ref(desc, f, CU_TENSOR_MAP_SWIZZLE_128B, 32, 32))
        read_plain<<<1, 1024>>>(desc, f);
}

void run_plain(float *f)
{
    CUtensorMap desc;
    if (encode_ref(desc, f, CU_TENSOR_MAP_SWIZZLE_NONE, 32, 32))
        read_unswizzled<<<1, 1024>>>(desc, f);
}

void run_pointer(float *f)
{
    CUtensorMap desc;
    encode_ptr(&desc, f);
    read_pointer_helper<<<1, 512>>>(desc, f);
}

/*
 * check-output-start
 * tests/rules/tma-swizzle/host_helpers.cu:35:14: warning: 32-way bank conflict on load of 'tile' (float[32][32]) in kernel 'read_plain' with blockDim (1024,1,1) from the launch on line 110; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[t] = tile[t % 32][t / 32];
 *                ^~~~~~~~~~~~~~~~~~~~
 * tests/rules/tma-swizzle/host_helpers.cu:31:5: note: 'tile' declared here
 * tests/rules/tma-swizzle/host_helpers.cu:35:14: note: 'tile' is laid out by the TMA tensor copy on line 21, already with the 128-byte swizzle: no layout of the array helps
 * tests/rules/tma-swizzle/host_helpers.cu:35:14: error: swizzle mismatch: 'tile' is filled by a TMA tensor copy with the 128-byte swizzle, but this read does not address it that way: thread 1 reads tile[1][0], where the copy put the box's element tile[1][4] in kernel 'read_plain' with blockDim (1024,1,1) from the launch on line 110 [tma-swizzle]
 *       out[t] = tile[t % 32][t / 32];
 *                ^~~~~~~~~~~~~~~~~~~~
 * tests/rules/tma-swizzle/host_helpers.cu:21:9: note: the tensor copy into 'tile'
 * tests/rules/tma-swizzle/host_helpers.cu:75:12: note: its tensor map, encoded with CU_TENSOR_MAP_SWIZZLE_128B
 * tests/rules/tma-swizzle/host_helpers.cu:31:5: note: 'tile' declared here
 * tests/rules/tma-swizzle/host_helpers.cu:35:14: note: address byte o of the box at o ^ (((o >> 7) & 7) << 4), as the copy lays it out (here `tile[r][(((c >> 2) ^ (r & 7)) << 2) | (c & 3)]`), or encode the map with CU_TENSOR_MAP_SWIZZLE_NONE
 * tests/rules/tma-swizzle/host_helpers.cu:47:14: warning: 4-way bank conflict on load of 'tile' (float[32][32]) in kernel 'read_returned' with blockDim (1024,1,1) from the launch on line 103; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 1024) [bank-conflict]
 *       out[t] = tile[r][c ^ (r & 7)];
 *                ^~~~~~~~~~~~~~~~~~~~
 * tests/rules/tma-swizzle/host_helpers.cu:43:5: note: 'tile' declared here
 * tests/rules/tma-swizzle/host_helpers.cu:47:14: note: 'tile' is laid out by the TMA tensor copy on line 21, already with the 128-byte swizzle: no layout of the array helps
 * tests/rules/tma-swizzle/host_helpers.cu:47:14: error: swizzle mismatch: 'tile' is filled by a TMA tensor copy with the 128-byte swizzle, but this read does not address it that way: thread 1 reads tile[1][1] (its index, XORs undone, means tile[1][0]), where the copy put the box's element tile[1][5] in kernel 'read_returned' with blockDim (1024,1,1) from the launch on line 103 [tma-swizzle]
 *       out[t] = tile[r][c ^ (r & 7)];
 *                ^~~~~~~~~~~~~~~~~~~~
 * tests/rules/tma-swizzle/host_helpers.cu:21:9: note: the tensor copy into 'tile'
 * tests/rules/tma-swizzle/host_helpers.cu:94:5: note: its tensor map, encoded with CU_TENSOR_MAP_SWIZZLE_128B
 * tests/rules/tma-swizzle/host_helpers.cu:43:5: note: 'tile' declared here
 * tests/rules/tma-swizzle/host_helpers.cu:47:14: note: address byte o of the box at o ^ (((o >> 7) & 7) << 4), as the copy lays it out (here `tile[r][(((c >> 2) ^ (r & 7)) << 2) | (c & 3)]`), or encode the map with CU_TENSOR_MAP_SWIZZLE_NONE
 * tests/rules/tma-swizzle/host_helpers.cu:57:14: warning: 32-way bank conflict on load of 'tile' (float[32][32]) in kernel 'read_unswizzled' with blockDim (1024,1,1) from the launch on line 117; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[t] = tile[t % 32][t / 32];
 *                ^~~~~~~~~~~~~~~~~~~~
 * tests/rules/tma-swizzle/host_helpers.cu:53:5: note: 'tile' declared here
 * tests/rules/tma-swizzle/host_helpers.cu:57:14: note: 'tile' is laid out by the TMA tensor copy on line 21: padding or swizzling the array would break its box; encode the map with a swizzle (CU_TENSOR_MAP_SWIZZLE_128B) and index the tile as it lays it out
 * tests/rules/tma-swizzle/host_helpers.cu:68:14: warning: 16-way bank conflict on load of 'tile' (float[32][32]) in kernel 'read_pointer_helper' with blockDim (512,1,1) from the launch on line 124; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[t] = tile[t % 16][t / 16];
 *                ^~~~~~~~~~~~~~~~~~~~
 * tests/rules/tma-swizzle/host_helpers.cu:64:5: note: 'tile' declared here
 * tests/rules/tma-swizzle/host_helpers.cu:68:14: note: 'tile' is laid out by the TMA tensor copy on line 21: padding or swizzling the array would break its box; encode the map with a swizzle (CU_TENSOR_MAP_SWIZZLE_128B) and index the tile as it lays it out
 * tests/rules/tma-swizzle/host_helpers.cu:68:14: error: swizzle mismatch: 'tile' is filled by a TMA tensor copy with the 64-byte swizzle, but this read does not address it that way: thread 1 reads tile[1][0], where the copy put the box's element tile[1][4] in kernel 'read_pointer_helper' with blockDim (512,1,1) from the launch on line 124 [tma-swizzle]
 *       out[t] = tile[t % 16][t / 16];
 *                ^~~~~~~~~~~~~~~~~~~~
 * tests/rules/tma-swizzle/host_helpers.cu:21:9: note: the tensor copy into 'tile'
 * tests/rules/tma-swizzle/host_helpers.cu:84:5: note: its tensor map, encoded with CU_TENSOR_MAP_SWIZZLE_64B
 * tests/rules/tma-swizzle/host_helpers.cu:64:5: note: 'tile' declared here
 * tests/rules/tma-swizzle/host_helpers.cu:68:14: note: address byte o of the box at o ^ (((o >> 7) & 3) << 4), as the copy lays it out (here `tile[r][(((c >> 2) ^ (r & 3)) << 2) | (c & 3)]`), or encode the map with CU_TENSOR_MAP_SWIZZLE_NONE
 * check-output-end
 */
