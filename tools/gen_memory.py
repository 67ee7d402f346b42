#!/usr/bin/env python3
"""Generate the memory workloads of issue 16 (tools/bench --memory runs them).

    tools/gen_memory.py kernels N OUT.cu     N trivial kernels in one file
    tools/gen_memory.py files N OUTDIR       N small files of one kernel each
    tools/gen_memory.py rejected N OUTDIR    N files of one NUL byte: each is
                                             rejected (binary-file) before any
                                             parse, so a run over them costs
                                             the driver's memory per file alone

A trivial kernel is seven lines: a shared array, a store, a barrier and a
load with a bank conflict on every other kernel (so that findings are
kept and emitted too). Every kernel is launched from main() with 32
threads, so that the launch is bound as in a real program."""
import os
import sys

KERNEL = """__global__ void k{i}(float *out)
{{
    __shared__ float s[{n}];
    s[threadIdx.x * {stride}] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[(31 - threadIdx.x) * {stride}];
}}
"""


def kernel(i):
    stride = 2 if i % 2 else 1
    return KERNEL.format(i=i, n=32 * stride, stride=stride)


def main_fn(first, count):
    lines = ["int main()", "{", "    float *out;", "    cudaMalloc(&out, 32 * sizeof(float));"]
    for i in range(first, first + count):
        lines.append("    k%d<<<1, 32>>>(out);" % i)
    lines += ["    return cudaDeviceSynchronize() != cudaSuccess;", "}", ""]
    return "\n".join(lines)


def kernels_file(n):
    """n kernels and the main() that launches them, as one file's text."""
    return "".join(kernel(i) for i in range(n)) + main_fn(0, n)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("kernels", "files", "rejected"):
        sys.exit(__doc__)
    kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if kind == "kernels":
        with open(out, "w") as f:
            f.write(kernels_file(n))
        return
    os.makedirs(out, exist_ok=True)
    for i in range(n):
        d = os.path.join(out, "d%03d" % (i // 1000))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "f%05d.cu" % i), "w") as f:
            f.write("\0" if kind == "rejected" else kernel(i) + main_fn(i, 1))


if __name__ == "__main__":
    main()
