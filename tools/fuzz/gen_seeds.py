#!/usr/bin/env python3
"""gen_seeds.py - seed inputs for the fuzzer (issue 16 item 9): the shapes
that blew up algorithms before, which random mutation rarely reaches.

    python3 tools/fuzz/gen_seeds.py OUT-DIR [--scale N]

writes one .cu file per generator into OUT-DIR:
  deep_macros_*   function-like macros nested N deep, a doubling chain
                  (2^k expansions), token pasting that builds shared-memory
                  names and indices
  labels_*        kernels with hundreds of labels and gotos around
                  __syncthreads and shared accesses, a switch with
                  thousands of cases
  long_lines_*    one-line kernels with hundreds of accesses, a 60 KB
                  comment line, a long string literal next to an access

Each file stays under 64 KiB so that libFuzzer's -max_len stays small;
--scale multiplies the counts (for the hostile tests' larger runs).
tools/reliability.sh fuzz adds OUT-DIR to the fuzzer's seed directories;
tests/test_hostile.py (Generated) runs smemlint on every file.
Design: plain string building, deterministic (no randomness), so a
failure names a file that the next run makes again.
"""
import os, sys

HEAD = "__global__ void k(float *o, int n)\n{\n    __shared__ float s[1024];\n    __shared__ float t[32][32];\n"


def deep_macros(scale):
    out = {}
    d = 120 * scale
    lines = ["#define M0(x) (x)"] + [f"#define M{i}(x) M{i - 1}((x) + 1)" for i in range(1, d)]
    out["deep_macros_chain.cu"] = "\n".join(lines) + "\n" + HEAD + \
        f"    s[M{d - 1}(threadIdx.x) & 1023] = 1;\n    __syncthreads();\n    o[0] = s[threadIdx.x];\n}}\n"
    k = 12 + scale  # 2^k expansions of D0
    lines = ["#define D0(x) (x)"] + [f"#define D{i}(x) D{i - 1}(x) + D{i - 1}(x)" for i in range(1, k)]
    out["deep_macros_doubling.cu"] = "\n".join(lines) + "\n" + HEAD + \
        f"    s[(D{k - 1}(threadIdx.x)) & 1023] = 2;\n    o[0] = s[0];\n}}\n"
    lines = ["#define CAT(a, b) a##b", "#define NAME(i) CAT(s, i)", "#define IDX(a, b) ((a) * 32 + (b))"]
    body = "".join(f"    t[threadIdx.x & 31][IDX(0, {i % 32}) & 31] = CAT({i}, .0f);\n" for i in range(200 * scale))
    out["deep_macros_paste.cu"] = "\n".join(lines) + "\n" + HEAD + body + "    o[0] = t[0][0];\n}\n"
    nest = "threadIdx.x"
    for i in range(60 * scale):
        nest = f"P({nest})"
    out["deep_macros_nested_calls.cu"] = "#define P(x) ((x) ^ 1)\n" + HEAD + \
        f"    s[({nest}) & 1023] = 3;\n    o[0] = s[1];\n}}\n"
    return out


def labels(scale):
    out = {}
    n = 250 * scale  # 1,000 labels take minutes: see doc/reliability.md
    body = []
    for i in range(n):
        # an access at every tenth label only: hundreds of accesses in one
        # kernel are slow on their own (see doc/reliability.md)
        body.append(f"L{i}:\n    n += {i % 5};\n" if i % 10 else f"L{i}:\n    s[(threadIdx.x * {i % 33 + 1}) & 1023] += {i};\n")
        if i % 7 == 3:
            body.append(f"    if (n == {i}) goto L{i // 2};\n")
        if i % 11 == 5:
            body.append(f"    if (n > {i}) goto L{min(n - 1, i + 3)};\n")
        if i % 97 == 0:
            body.append("    __syncthreads();\n")
    out["labels_goto.cu"] = HEAD + "".join(body) + "    o[0] = s[0];\n}\n"
    cases = "".join(f"    case {i}: t[threadIdx.x & 31][{i % 32}] = {i}; break;\n" for i in range(1100 * scale))
    out["labels_switch.cu"] = HEAD + "    switch (n) {\n" + cases + "    default: break;\n    }\n" + \
        "    __syncthreads();\n    o[0] = t[0][threadIdx.x & 31];\n}\n"
    return out


def long_lines(scale):
    out = {}
    acc = " ".join(f"s[(threadIdx.x * 2 + {i}) & 1023] = {i};" for i in range(300 * scale))
    out["long_lines_accesses.cu"] = "__global__ void k(float *o) { __shared__ float s[1024]; " + acc + " o[0] = s[0]; }\n"
    out["long_lines_comment.cu"] = HEAD + "    // " + "x" * (60000 * scale) + "\n" + \
        "    s[threadIdx.x * 2 & 1023] = 1;\n    o[0] = s[0];\n}\n"
    lit = "a\\\"" * (15000 * scale)
    out["long_lines_string.cu"] = "__device__ const char *msg = \"" + lit + "\"; " + \
        "__global__ void k(float *o) { __shared__ float s[1024]; s[threadIdx.x * 4 & 1023] = msg[0]; o[0] = s[0]; }\n"
    expr = " + ".join(f"s[(threadIdx.x + {i}) & 1023]" for i in range(1100 * scale))
    out["long_lines_expression.cu"] = HEAD + "    o[threadIdx.x] = " + expr + ";\n}\n"
    return out


GENERATORS = (deep_macros, labels, long_lines)


def main():
    if len(sys.argv) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    out = sys.argv[1]
    scale = int(sys.argv[sys.argv.index("--scale") + 1]) if "--scale" in sys.argv else 1
    os.makedirs(out, exist_ok=True)
    for g in GENERATORS:
        for name, text in g(scale).items():
            with open(os.path.join(out, name), "w") as f:
                f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
