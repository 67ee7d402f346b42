#!/usr/bin/env python3
"""Generate the scaling workloads of issue 14 (tools/bench --scaling runs them).

    tools/gen_scaling.py KIND N OUT.cu

KIND:
  accesses   N/2 store/load pairs on one shared array, a barrier every 8
  ifs        the same, each pair under its own `if (threadIdx.x < k)`
  switch     N fall-through cases, each storing one element
  goto       N labels, each storing one element, with a backward goto every 4
  macro      one line: a macro that expands to N statements
Every kernel above is launched once with 128 threads, so the race search
runs. The reliability workloads of issue 22 (no launch: the block shape
is assumed) stress the race search and the front end:
  accum      N accumulations `s[t] += in[i];`, one a line
  gaccum     N guarded accumulations `if (in[i] > 0) s[t] += in[i];`
  longline   N accumulations on one source line
  macrostmts a short file whose nested macro expands to N statements
             (rounded down to a power of two, up to 8,192)
  loopnest   loops nested N deep (N <= 6, 4 iterations each) around
             shared accesses split by barriers
  leafmacro  a macro whose expansion is an expression tree of 2^N leaves
             (N <= 20), stored to shared memory
and issue 24's large inputs (what a checkout may hold):
  kernels    N trivial kernels in one file, each launched from main()
             (tools/gen_memory.py's: 80,000 of them are 16 MB, just under
             the 16 MiB file cap)
  suppress   N inline suppressions, one a line, each of the four forms in
             turn; the first 64 that can share a line sit on an access
             with a 2-way conflict, the rest stand on their own (covering
             the next line)"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_memory  # noqa: E402


def gen_reliability(kind, n):
    out = ["__global__ void acc(const float *in, float *out)", "{", "    __shared__ float s[256];",
           "    int t = threadIdx.x;"]
    if kind == "accum":
        out += ["    s[t] += in[%d];" % i for i in range(n)]
    elif kind == "gaccum":
        out += ["    if (in[%d] > 0) s[t] += in[%d];" % (i, i) for i in range(n)]
    elif kind == "longline":
        out.append("    " + " ".join("s[t] += in[%d];" % i for i in range(n)))
    elif kind == "macrostmts":
        if not 1 <= n <= 8192:
            raise SystemExit("gen_scaling: macrostmts takes 1 to 8192 statements")
        k = n.bit_length() - 1
        defs = ["#define M0 s[t] += 1.0f;"] + ["#define M%d M%d M%d" % (i, i - 1, i - 1) for i in range(1, k + 1)]
        out = defs + out + ["    M%d" % k]
    elif kind == "loopnest":
        if not 1 <= n <= 6:
            raise SystemExit("gen_scaling: loopnest takes a depth of 1 to 6")
        idx = " + ".join("i%d * %d" % (d, 4 ** d) for d in range(n))
        out.append("    float v = 0.0f;")
        for d in range(n):
            out.append("    " * (d + 1) + "for (int i%d = 0; i%d < 4; i%d++) {" % (d, d, d))
        ind = "    " * (n + 1)
        out += [ind + "s[t] += in[%s];" % idx, ind + "__syncthreads();",
                ind + "v += s[(t + 1) %% 256] + s[(t + %d) %% 256];" % (n + 1), ind + "__syncthreads();"]
        for d in range(n - 1, -1, -1):
            out.append("    " * (d + 1) + "}")
        out.append("    out[t] = v;")
    elif kind == "suppress":
        forms = ("// smemlint: ignore[bank-conflict]", "// NOLINT(smemlint-bank-conflict)",
                 "// smemlint: ignore", "// NOLINTNEXTLINE(smemlint-bank-conflict, bugprone-foo)")
        out.append("    float v = 0.0f;")
        for i in range(n):
            f = forms[i % 4]
            if i < 128 and i % 2 == 0 and "NEXTLINE" not in f:
                out.append("    v += s[(t * 2 + %d) %% 256]; %s" % (2 * (i % 64), f))
            else:
                out.append("    " + f)
        out += ["    v += s[t];", "    out[t] = v;"]
    elif kind == "leafmacro":
        if not 0 <= n <= 20:
            raise SystemExit("gen_scaling: leafmacro takes 0 to 20 levels")
        defs = ["#define E0(x) (x)"] + ["#define E%d(x) (E%d(x) + E%d(x))" % (i, i - 1, i - 1)
                                        for i in range(1, n + 1)]
        out = defs + out + ["    float v = in[t];", "    s[t] = E%d(v);" % n, "    __syncthreads();",
                            "    out[t] = s[(t + 1) % 256];"]
    out += ["}", ""]
    return "\n".join(out)


RELIABILITY = ("accum", "gaccum", "longline", "macrostmts", "loopnest", "leafmacro", "suppress")


def gen(kind, n):
    if kind == "kernels":
        return gen_memory.kernels_file(n)
    if kind in RELIABILITY:
        return gen_reliability(kind, n)
    out = ["#define B 128", "__global__ void k(const float *in, float *out, int m)", "{",
           "    __shared__ float s[4096];", "    int t = threadIdx.x;", "    float v = 0.0f;"]
    if kind in ("accesses", "ifs"):
        for i in range(n // 2):
            st = "s[(t + %d) %% 4096] = in[t] + %d.0f;" % (i * 7, i)
            ld = "v += s[(t * 3 + %d) %% 4096];" % (i * 5)
            if kind == "ifs":
                out.append("    if (t < %d) { %s %s }" % (1 + i % 127, st, ld))
            else:
                out.append("    %s %s" % (st, ld))
            if i % 8 == 7:
                out.append("    __syncthreads();")
    elif kind == "switch":
        out.append("    switch (m) {")
        for i in range(n):
            out.append("    case %d: s[t + %d] = %d.0f;" % (i, i % 3968, i))
        out.append("    }")
    elif kind == "goto":
        out.append("    int c = m;")
        for i in range(n):
            out.append("L%d: s[(t + %d) %% 4096] = %d.0f;" % (i, i, i))
            if i % 4 == 3:
                out.append("    if (--c > 0) goto L%d;" % (i - 3))
    elif kind == "macro":
        out.insert(0, "#define S1(i) s[(t + (i)) % 4096] = v; v += s[(t * 5 + (i)) % 4096];")
        out.insert(1, "#define S2(i) S1(i) S1(i + 1)")
        out.insert(2, "#define S4(i) S2(i) S2(i + 2)")
        out.insert(3, "#define S8(i) S4(i) S4(i + 4)")
        out.insert(4, "#define S16(i) S8(i) S8(i + 8)")
        out.insert(5, "#define S32(i) S16(i) S16(i + 16)")
        out.insert(6, "#define S64(i) S32(i) S32(i + 32)")
        out.insert(7, "#define S128(i) S64(i) S64(i + 64)")
        out.insert(8, "#define S256(i) S128(i) S128(i + 128)")
        out.insert(9, "#define S512(i) S256(i) S256(i + 256)")
        # n statements: S1 is two statements
        k = n // 2
        parts, base = [], 0
        for p in (512, 256, 128, 64, 32, 16, 8, 4, 2, 1):
            while k >= p:
                parts.append("S%d(%d)" % (p, base))
                base += p
                k -= p
        out.append("    " + " ".join(parts))
    else:
        raise SystemExit("gen_scaling: unknown kind %s" % kind)
    out += ["    out[blockIdx.x * B + t] = v + s[t];", "}", "",
            "void launch(const float *in, float *out) { k<<<1, B>>>(in, out, 3); }", ""]
    return "\n".join(out)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    open(sys.argv[3], "w").write(gen(sys.argv[1], int(sys.argv[2])))
