#!/usr/bin/env python3
"""Generate a source tree of realistic CUDA files for tools/bench.

    tools/gen_tree.py OUT_DIR [--files 320] [--seed 7]

Deterministic for a seed. Files are spread over module directories
(src/<module>/...), each with a few kernels drawn from the families real
code has (shared-memory tiles and transposes, tiled matmul, tree and warp
reductions, block scans, 1D/2D stencils with halos, histograms, bitonic
sort steps), a header of device helpers, and host code that allocates,
launches with <<<grid, block>>> and checks errors. About one file in
twelve is big: 20-40 kernels and their launches."""
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--files", type=int, default=320)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    r = random.Random(a.seed)
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
