#!/usr/bin/env python3
"""Generate the scaling workloads of issue 14 (tools/bench --scaling runs them).

    tools/gen_scaling.py KIND N OUT.cu

KIND:
  accesses   N/2 store/load pairs on one shared array, a barrier every 8
  ifs        the same, each pair under its own `if (threadIdx.x < k)`
  switch     N fall-through cases, each storing one element
  goto       N labels, each storing one element, with a backward goto every 4
  macro      one line: a macro that expands to N statements
Every kernel is launched once with 128 threads, so the race search runs."""
import sys


def gen(kind, n):
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
