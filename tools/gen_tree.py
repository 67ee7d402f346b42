#!/usr/bin/env python3
"""Generate a source tree of realistic CUDA files for tools/bench.

    tools/gen_tree.py OUT_DIR [--files 320] [--seed 7]
    tools/gen_tree.py OUT_DIR --cmake [--files 120] [--targets 10] [--seed 7]

Deterministic for a seed. Files are spread over module directories
(src/<module>/...), each with a few kernels drawn from the families real
code has (shared-memory tiles and transposes, tiled matmul, tree and warp
reductions, block scans, 1D/2D stencils with halos, histograms, bitonic
sort steps), a header of device helpers, and host code that allocates,
launches with <<<grid, block>>> and checks errors. About one file in
twelve is big: 20-40 kernels and their launches.

--cmake: the same files as a CMake project, as a real one is laid out: a
library `gen_common` with a PUBLIC include directory (include/gen/:
device helpers, a kernel template in a header that takes its tile from
the includer) and PUBLIC definitions; one static library per module
(--targets of them), each with its own private definitions and nvcc
options (some with relocatable device code, some with their own private
include directory), so their compile commands differ; about one .cu file
in six uses CUB (cub::BlockLoad with BLOCK_LOAD_WARP_TRANSPOSE,
cub::BlockReduce, cub::BlockScan, their TempStorage in __shared__), every
file has host code calling max/min and std:: algorithms, and one host-only
.cpp per module. Configure it with
    cmake -S OUT_DIR -B OUT_DIR/build -DCMAKE_CUDA_ARCHITECTURES=90
which writes build/compile_commands.json for `smemlint -p build src/`
(tests/test_integrations.py GeneratedTree; tools/bench --cache-cold)."""
import argparse, os, random

HEADER = """#include <cuda_runtime.h>
#include <cstdio>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \\
    std::fprintf(stderr, "%s:%d: %s\\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)
"""


def k_transpose(n, r):
    tile = r.choice([16, 32])
    rows = r.choice([4, 8])
    pad = r.choice([0, 1])
    return f"""
template <typename T>
__global__ void transpose_{n}(T *out, const T *in, int width, int height)
{{
    __shared__ T tile[{tile}][{tile} + {pad}];
    int x = blockIdx.x * {tile} + threadIdx.x;
    int y = blockIdx.y * {tile} + threadIdx.y;
    for (int j = 0; j < {tile}; j += {rows})
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * {tile} + threadIdx.x;
    y = blockIdx.x * {tile} + threadIdx.y;
    for (int j = 0; j < {tile}; j += {rows})
        if (x < height && y + j < width)
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}}
""", f"transpose_{n}<float><<<dim3((w + {tile - 1}) / {tile}, (h + {tile - 1}) / {tile}), dim3({tile}, {rows})>>>(d_out, d_in, w, h);"


def k_reduce(n, r):
    bs = r.choice([128, 256, 512])
    stride_form = r.choice(["interleaved", "sequential"])
    if stride_form == "interleaved":
        loop = """    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }"""
    else:
        loop = """    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        volatile float *v = sdata;
        v[tid] += v[tid + 32]; v[tid] += v[tid + 16]; v[tid] += v[tid + 8];
        v[tid] += v[tid + 4]; v[tid] += v[tid + 2]; v[tid] += v[tid + 1];
    }"""
    return f"""
__global__ void __launch_bounds__({bs}) reduce_{n}(const float *in, float *out, unsigned n)
{{
    __shared__ float sdata[{bs}];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
    float v = 0.0f;
    if (i < n) v = in[i];
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();
{loop}
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}}
""", f"reduce_{n}<<<(n + {2 * bs - 1}) / {2 * bs}, {bs}>>>(d_in, d_out, n);"


def k_scan(n, r):
    bs = r.choice([128, 256])
    return f"""
#define LOG_BANKS_{n} 5
#define CF_OFFSET_{n}(i) ((i) >> LOG_BANKS_{n})
__global__ void scan_{n}(float *out, const float *in, int n)
{{
    __shared__ float temp[2 * {bs} + (2 * {bs} >> LOG_BANKS_{n})];
    int tid = threadIdx.x;
    int offset = 1;
    int ai = tid, bi = tid + n / 2;
    temp[ai + CF_OFFSET_{n}(ai)] = in[ai];
    temp[bi + CF_OFFSET_{n}(bi)] = in[bi];
    for (int d = n >> 1; d > 0; d >>= 1) {{
        __syncthreads();
        if (tid < d) {{
            int a = offset * (2 * tid + 1) - 1;
            int b = offset * (2 * tid + 2) - 1;
            temp[b] += temp[a];
        }}
        offset *= 2;
    }}
    if (tid == 0) temp[n - 1] = 0;
    for (int d = 1; d < n; d *= 2) {{
        offset >>= 1;
        __syncthreads();
        if (tid < d) {{
            int a = offset * (2 * tid + 1) - 1;
            int b = offset * (2 * tid + 2) - 1;
            float t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }}
    }}
    __syncthreads();
    out[ai] = temp[ai + CF_OFFSET_{n}(ai)];
    out[bi] = temp[bi + CF_OFFSET_{n}(bi)];
}}
""", f"scan_{n}<<<1, {bs}>>>(d_out, d_in, {2 * bs});"


def k_stencil(n, r):
    radius = r.choice([1, 2, 3, 4])
    bx, by = r.choice([(32, 8), (16, 16), (32, 4)])
    return f"""
constexpr int R_{n} = {radius};
__global__ void stencil_{n}(float *out, const float *in, int w, int h, float c0, float c1)
{{
    __shared__ float s[{by} + 2 * R_{n}][{bx} + 2 * R_{n}];
    int gx = blockIdx.x * {bx} + threadIdx.x;
    int gy = blockIdx.y * {by} + threadIdx.y;
    int lx = threadIdx.x + R_{n}, ly = threadIdx.y + R_{n};
    s[ly][lx] = in[gy * w + gx];
    if (threadIdx.x < R_{n}) {{
        s[ly][lx - R_{n}] = in[gy * w + gx - R_{n}];
        s[ly][lx + {bx}] = in[gy * w + gx + {bx}];
    }}
    if (threadIdx.y < R_{n}) {{
        s[ly - R_{n}][lx] = in[(gy - R_{n}) * w + gx];
        s[ly + {by}][lx] = in[(gy + {by}) * w + gx];
    }}
    __syncthreads();
    float acc = c0 * s[ly][lx];
#pragma unroll
    for (int k = 1; k <= R_{n}; k++)
        acc += c1 * (s[ly][lx - k] + s[ly][lx + k] + s[ly - k][lx] + s[ly + k][lx]);
    if (gx < w && gy < h)
        out[gy * w + gx] = acc;
}}
""", f"stencil_{n}<<<dim3(w / {bx}, h / {by}), dim3({bx}, {by})>>>(d_out, d_in, w, h, 0.5f, 0.125f);"


def k_matmul(n, r):
    t = r.choice([8, 16, 32])
    trans = r.choice([False, True])
    bload = "Bs[threadIdx.x][threadIdx.y] = B[(k * T + threadIdx.y) * n + col];" if trans else \
        "Bs[threadIdx.y][threadIdx.x] = B[(k * T + threadIdx.y) * n + col];"
    return f"""
template <int T>
__global__ void matmul_{n}(const float *A, const float *B, float *C, int n)
{{
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int row = blockIdx.y * T + threadIdx.y;
    int col = blockIdx.x * T + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < n / T; k++) {{
        As[threadIdx.y][threadIdx.x] = A[row * n + k * T + threadIdx.x];
        {bload}
        __syncthreads();
        for (int e = 0; e < T; e++)
            acc += As[threadIdx.y][e] * Bs[e][threadIdx.x];
        __syncthreads();
    }}
    C[row * n + col] = acc;
}}
""", f"matmul_{n}<{t}><<<dim3(w / {t}, w / {t}), dim3({t}, {t})>>>(d_in, d_in, d_out, w);"


def k_hist(n, r):
    bins = r.choice([64, 128, 256])
    return f"""
__global__ void histogram_{n}(const unsigned char *data, unsigned *hist, int n)
{{
    __shared__ unsigned local[{bins}];
    for (int i = threadIdx.x; i < {bins}; i += blockDim.x)
        local[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i] % {bins}], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < {bins}; i += blockDim.x)
        atomicAdd(&hist[i], local[i]);
}}
""", f"histogram_{n}<<<64, 256>>>((const unsigned char *)d_in, (unsigned *)d_out, n);"


def k_bitonic(n, r):
    size = r.choice([256, 512, 1024])
    return f"""
__global__ void bitonic_{n}(int *keys)
{{
    __shared__ int s[{size}];
    unsigned tid = threadIdx.x;
    s[tid] = keys[blockIdx.x * {size} + tid];
    __syncthreads();
    for (unsigned k = 2; k <= {size}; k <<= 1) {{
        for (unsigned j = k >> 1; j > 0; j >>= 1) {{
            unsigned ixj = tid ^ j;
            if (ixj > tid) {{
                bool up = (tid & k) == 0;
                int a = s[tid], b = s[ixj];
                if ((a > b) == up) {{ s[tid] = b; s[ixj] = a; }}
            }}
            __syncthreads();
        }}
    }}
    keys[blockIdx.x * {size} + tid] = s[tid];
}}
""", f"bitonic_{n}<<<n / {size}, {size}>>>((int *)d_in);"


def k_strided(n, r):
    stride = r.choice([1, 2, 3, 4, 8, 16, 17, 32, 33])
    ty = r.choice(["float", "double", "int", "float2"])
    return f"""
__global__ void strided_{n}({ty} *out, int iters)
{{
    __shared__ {ty} buf[32 * {stride} + 32];
    int t = threadIdx.x;
    buf[(t * {stride}) % (32 * {stride} + 32)] = out[t];
    __syncthreads();
    for (int i = 0; i < iters; i++)
        out[blockIdx.x * blockDim.x + t] = buf[(t * {stride}) % (32 * {stride} + 32)];
}}
""", f"strided_{n}<<<1, 32>>>(({ty} *)d_out, 4);"


FAMILIES = [k_transpose, k_reduce, k_scan, k_stencil, k_matmul, k_hist, k_bitonic, k_strided]
MODULES = ["linalg", "image", "signal", "sort", "stats", "physics", "ml", "graph", "io", "util"]


def device_helpers(r):
    return """
__device__ __forceinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}
"""


def make_file(idx, r, big):
    nk = r.randint(20, 40) if big else r.randint(1, 5)
    parts, launches = [HEADER, device_helpers(r)], []
    for k in range(nk):
        fam = r.choice(FAMILIES)
        src, launch = fam(f"{idx}_{k}", r)
        parts.append(src)
        launches.append(launch)
    body = "\n    ".join(launches)
    parts.append(f"""
int run_{idx}(int n)
{{
    int w = 1024, h = 1024;
    float *d_in = nullptr, *d_out = nullptr;
    CHECK(cudaMalloc(&d_in, sizeof(float) * w * h));
    CHECK(cudaMalloc(&d_out, sizeof(float) * w * h));
    {body}
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}}
""")
    return "".join(parts)


def k_cub(n, r):
    """A CUB user: BlockLoad (warp transpose) into registers, then a block
    reduction and a block scan, their TempStorage shared in a union, and a
    shared array of its own (so the kernel has accesses to analyze)."""
    block = r.choice([128, 256])
    items = r.choice([2, 4])
    algo = r.choice(["BLOCK_LOAD_WARP_TRANSPOSE", "BLOCK_LOAD_TRANSPOSE", "BLOCK_LOAD_DIRECT"])
    return f"""
template <int BLOCK, int ITEMS>
__global__ void __launch_bounds__(BLOCK) cub_sum_scan_{n}(const int *in, int *sums, int *scanned, int n)
{{
    using Load = cub::BlockLoad<int, BLOCK, ITEMS, cub::{algo}>;
    using Reduce = cub::BlockReduce<int, BLOCK>;
    using Scan = cub::BlockScan<int, BLOCK>;
    __shared__ union {{
        typename Load::TempStorage load;
        typename Reduce::TempStorage reduce;
        typename Scan::TempStorage scan;
    }} temp;
    int items[ITEMS];
    int base = blockIdx.x * BLOCK * ITEMS;
    Load(temp.load).Load(in + base, items, n - base, 0);
    __syncthreads();
    int total = Reduce(temp.reduce).Sum(items);
    __syncthreads();
    Scan(temp.scan).ExclusiveSum(items, items);
    __shared__ int last[BLOCK];
    last[threadIdx.x] = items[ITEMS - 1];
    __syncthreads();
    if (threadIdx.x == 0)
        total += last[BLOCK - 1];
    for (int i = 0; i < ITEMS; i++)
        scanned[base + threadIdx.x * ITEMS + i] = items[i];
    if (threadIdx.x == 0)
        sums[blockIdx.x] = total;
}}
""", f"cub_sum_scan_{n}<{block}, {items}><<<max(1, n / {block * items}), {block}>>>((const int *)d_in, (int *)d_out, (int *)d_in, n);"


CMAKE_HEADER = """#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>
#include "gen/common.cuh"
"""
CUB_INCLUDES = """#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
"""


def host_code(idx, r):
    """Host code as real projects write it: nvcc's host max/min on ints,
    std:: algorithms and math."""
    return f"""
static int grid_for_{idx}(int n, int per_block)
{{
    int blocks = max(1, (n + per_block - 1) / per_block);
    return min(blocks, 65535);
}}

static float host_stats_{idx}(std::vector<float> &v)
{{
    std::sort(v.begin(), v.end());
    float lo = *std::min_element(v.begin(), v.end());
    float hi = *std::max_element(v.begin(), v.end());
    float span = std::max(hi - lo, 1e-6f);
    return std::sqrt(span) + std::abs(lo) + static_cast<float>(std::min<size_t>(v.size(), 16));
}}
"""


def make_cmake_file(idx, r, big, cub, module_id):
    nk = r.randint(12, 20) if big else r.randint(1, 4)
    parts = [CMAKE_HEADER, CUB_INCLUDES if cub else "", f'#include "gen/tile.cuh"\n' if idx % 5 == 0 else "",
             device_helpers(r).replace("warp_sum", f"warp_sum_{idx}"), host_code(idx, r)]
    launches = []
    if cub:
        src, launch = k_cub(f"{idx}_cub", r)
        parts.append(src)
        launches.append(launch)
    for k in range(nk):
        src, launch = r.choice(FAMILIES)(f"{idx}_{k}", r)
        parts.append(src)
        launches.append(launch)
    if idx % 5 == 0:
        launches.append("gen_tile_copy<<<dim3(w / GEN_TILE, h / GEN_TILE), dim3(GEN_TILE, GEN_TILE)>>>(d_out, d_in, w);")
    body = "\n    ".join(launches)
    parts.append(f"""
int run_{idx}(int n)
{{
    int w = 1024, h = 1024;
    std::vector<float> host(static_cast<size_t>(max(n, 16)), 1.0f);
    float *d_in = nullptr, *d_out = nullptr;
    CHECK(cudaMalloc(&d_in, sizeof(float) * w * h));
    CHECK(cudaMalloc(&d_out, sizeof(float) * w * h));
    int grid = grid_for_{idx}(n, GEN_BLOCK);
    gen_fill<<<grid, GEN_BLOCK>>>(d_in, n, host_stats_{idx}(host) + GEN_MODULE_ID);
    {body}
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}}
""")
    return "".join(parts)


COMMON_CUH = """// gen/common.cuh - the public header of gen_common (generated).
#pragma once
#include <cuda_runtime.h>
#include <cstdio>

#ifndef GEN_BLOCK
#error "GEN_BLOCK comes from gen_common's PUBLIC definitions"
#endif

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \\
    std::fprintf(stderr, "%s:%d: %s\\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void gen_fill(float *out, int n, float v);
__device__ float gen_scale(float x);
"""

TILE_CUH = """// gen/tile.cuh - a kernel in a header (generated): its tile comes from
// the including target's definitions (GEN_TILE, PUBLIC on gen_common).
// The rows are not padded: a 32-way conflict, reported once at this
// header however many files include it.
#pragma once
#ifndef GEN_TILE
#error "GEN_TILE must be defined by the including target"
#endif

__global__ void gen_tile_copy(float *out, const float *in, int width)
{
    __shared__ float tile[GEN_TILE][GEN_TILE];
    int x = blockIdx.x * GEN_TILE + threadIdx.x;
    int y = blockIdx.y * GEN_TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    __syncthreads();
    out[y * width + x] = tile[threadIdx.x][threadIdx.y];
}
"""

COMMON_CU = """#include "gen/common.cuh"

__device__ float gen_scale(float x) { return x * 0.5f; }

__global__ void gen_fill(float *out, int n, float v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = v;
}
"""

HOST_CPP = """// Host-only code of module {mod} (compiled by the C++ compiler).
#include <algorithm>
#include <numeric>
#include <vector>

int {mod}_checksum(const std::vector<int> &v)
{{
    int lo = v.empty() ? 0 : *std::min_element(v.begin(), v.end());
    return std::accumulate(v.begin(), v.end(), 0) + std::max(lo, 0);
}}
"""

# nvcc options that vary between targets, as real projects' do
TARGET_OPTIONS = ["--expt-relaxed-constexpr", "-lineinfo", "--use_fast_math", "--extended-lambda",
                  "-Xcompiler=-Wall", "--ftz=true", "-Xptxas=-v", ""]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def make_cmake_tree(a, r):
    """--cmake: the files as a CMake project of --targets module libraries."""
    ntargets = max(1, a.targets)
    modules = [MODULES[i % len(MODULES)] + ("" if i < len(MODULES) else str(i // len(MODULES)))
               for i in range(ntargets)]
    files = {m: [] for m in modules}
    total, ncub = 0, 0
    for i in range(a.files):
        mi = i % ntargets
        mod = modules[mi]
        sub = r.choice(["", "kernels", "detail"])
        rel = os.path.join("src", mod, sub, f"{mod}_{i:04d}.cu")
        cub = i % 6 == 3
        ncub += cub
        text = make_cmake_file(i, r, i % 12 == 5, cub, mi)
        total += text.count("\n")
        write(os.path.join(a.out, rel), text)
        files[mod].append(rel)
    write(os.path.join(a.out, "include", "gen", "common.cuh"), COMMON_CUH)
    write(os.path.join(a.out, "include", "gen", "tile.cuh"), TILE_CUH)
    write(os.path.join(a.out, "src", "common", "common.cu"), COMMON_CU)
    cm = ["# Generated by tools/gen_tree.py --cmake: a CUDA project of %d module libraries." % ntargets,
          "cmake_minimum_required(VERSION 3.18)",
          "project(gen_tree LANGUAGES CXX CUDA)",
          "if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)",
          "  set(CMAKE_CUDA_ARCHITECTURES 80 90)",
          "endif()",
          "set(CMAKE_EXPORT_COMPILE_COMMANDS ON)",
          "set(CMAKE_CUDA_STANDARD 17)",
          "set(CMAKE_CXX_STANDARD 17)",
          "",
          "add_library(gen_common STATIC src/common/common.cu)",
          "target_include_directories(gen_common PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)",
          "target_compile_definitions(gen_common PUBLIC GEN_BLOCK=256 GEN_TILE=32)",
          "set_target_properties(gen_common PROPERTIES CUDA_SEPARABLE_COMPILATION ON)",
          ""]
    for mi, mod in enumerate(modules):
        host = os.path.join("src", mod, f"{mod}_host.cpp")
        write(os.path.join(a.out, host), HOST_CPP.format(mod=mod))
        opt = TARGET_OPTIONS[mi % len(TARGET_OPTIONS)]
        cm.append(f"add_library(gen_{mod} STATIC")
        cm += [f"  {f}" for f in files[mod] + [host]]
        cm.append(")")
        cm.append(f"target_link_libraries(gen_{mod} PUBLIC gen_common)")
        cm.append(f"target_compile_definitions(gen_{mod} PRIVATE GEN_MODULE_ID={mi} GEN_MODULE_{mod.upper()}=1)")
        if opt:
            cm.append(f"target_compile_options(gen_{mod} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:{opt}>)")
        if mi % 3 == 1:
            write(os.path.join(a.out, "src", mod, "include", f"{mod}_private.h"), f"#define {mod.upper()}_PRIVATE 1\n")
            cm.append(f"target_include_directories(gen_{mod} PRIVATE ${{CMAKE_CURRENT_SOURCE_DIR}}/src/{mod}/include)")
        if mi % 4 == 2:
            cm.append(f"set_target_properties(gen_{mod} PROPERTIES CUDA_SEPARABLE_COMPILATION ON)")
        cm.append("")
    write(os.path.join(a.out, "CMakeLists.txt"), "\n".join(cm))
    n = a.files + 1
    print(f"gen_tree: {n} .cu files ({ncub} using CUB), {ntargets} module targets, {total} lines under {a.out}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--files", type=int, default=None, help="generated .cu files (320; 120 with --cmake)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--cmake", action="store_true", help="a CMake project of module libraries (see above)")
    ap.add_argument("--targets", type=int, default=10, help="--cmake: module libraries")
    a = ap.parse_args()
    r = random.Random(a.seed)
    if a.cmake:
        a.files = 120 if a.files is None else a.files
        make_cmake_tree(a, r)
        return
    a.files = 320 if a.files is None else a.files
    total = 0
    for i in range(a.files):
        mod = MODULES[i % len(MODULES)]
        sub = r.choice(["", "kernels", "detail"])
        d = os.path.join(a.out, "src", mod, sub)
        os.makedirs(d, exist_ok=True)
        big = i % 12 == 5
        text = make_file(i, r, big)
        total += text.count("\n")
        with open(os.path.join(d, f"{mod}_{i:04d}.cu"), "w") as f:
            f.write(text)
    print(f"gen_tree: {a.files} files, {total} lines under {a.out}")


if __name__ == "__main__":
    main()
