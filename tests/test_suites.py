#!/usr/bin/env python3
"""The suites labelled by others (tools/suites.py): the committed pins and
labels parse, and the report scores files as it says, on two stand-in
suites of our own kernels in git repositories made here: an Indigo-like
tree whose generator writes a bug-free and a syncBug file, and a
GPUVerify-like tree whose kernels carry `//pass` / `//xfail` marks, block
shapes (both spellings), a define and an annotation.

    SMEMLINT=build/smemlint python3 tests/test_suites.py"""
import io, os, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import suites  # noqa: E402
from tooling import git, git_repo  # noqa: E402

SMEMLINT = os.environ.get("SMEMLINT", os.path.join(ROOT, "build", "smemlint"))

# the stand-in generator: each .idg is a kernel with a /*SYNC*/ marker,
# written once with the barrier and once without it (NAME_syncBug.cu)
GENERATOR = """\
import os, sys
src, _copyright, out = sys.argv[1:4]
name = os.path.basename(src)[:-4]
text = open(src).read()
os.makedirs(os.path.join(out, name))
open(os.path.join(out, name, name + ".cu"), "w").write(text.replace("/*SYNC*/", "__syncthreads();"))
open(os.path.join(out, name, name + "_syncBug.cu"), "w").write(text.replace("/*SYNC*/", ""))
"""

IDG = """\
#include "side.h"
__global__ void rev(float *out)
{
	__shared__ float s[SIDE];
	s[threadIdx.x] = out[threadIdx.x];
	/*SYNC*/
	out[threadIdx.x] = s[SIDE - 1 - threadIdx.x];
}
void run(float *o) { rev<<<1, SIDE>>>(o); }
"""

# a race only when the block has more than 32 threads: the second warp's
# half of s is read by the first warp
HALVES = """\
__global__ void halves(int *out)
{{
	__shared__ int s[{n}];
	__requires(out != 0);
	s[threadIdx.x] = out[threadIdx.x];
	out[threadIdx.x] = s[(threadIdx.x + 32) % {n}];
}}
"""

GPUVERIFY = {
    "pass_ok/kernel.cu": "//pass\n//--blockDim=[32] --gridDim=1\n" + HALVES.format(n=32),
    "pass_racy/kernel.cu": "//pass\n//--blockDim=64 --gridDim=1 -DWIDTH=64\n" + HALVES.format(n="WIDTH"),
    "fail_race/kernel.cu": "//xfail:NOT_ALL_VERIFIED\n//--blockDim=64\n"
                           "__global__ void one(void) { __shared__ int a; a = threadIdx.x; }\n",
    "fail_global/kernel.cu": "//xfail:NOT_ALL_VERIFIED\n//--blockDim=64\n"
                             "__global__ void g(int *p) { __shared__ int a; a = threadIdx.x; p[0] = a; }\n",
    "skipped/kernel.cu": "//pass\n//--blockDim=64\n"
                         "__global__ void sk(void) { __shared__ int b; b = threadIdx.x; }\n",
}


def main():
    fails = []
    committed = suites.load_suites()
    labels = suites.load_labels(committed)
    if {s["kind"] for s in committed.values()} != set(suites.KINDS) or not labels:
        fails.append("the committed suites.tsv/labels.tsv lack a kind or labels")
    if suites.gpuverify_options("//pass\n//--blockDim=[8,8] --gridDim=[1,1] -DW=256 -DX\n") != \
            (["--block-dim", "8,8"], ["-DW=256", "-DX"]):
        fails.append("GPUVerify's block shape and defines misread")
    with tempfile.TemporaryDirectory() as tmp:
        clones = os.path.join(tmp, "clones")
        ihead = git_repo(os.path.join(clones, "indigo"), {
            "copyright.txt": "ours\n", "Gen/generate_CUDA_codes.py": GENERATOR,
            "Gen/CUDA_sources/rev.idg": IDG, "Gen/sources_include/side.h": "#define SIDE 64\n"})
        ghead = git_repo(os.path.join(clones, "gv"), {"suite/" + k: v for k, v in GPUVERIFY.items()})
        data = os.path.join(tmp, "data")
        os.makedirs(data)
        with open(os.path.join(data, "suites.tsv"), "w") as f:
            f.write(f"# name\trepository\tcommit\tcheckout\tkind\tpath\n"
                    f"ind\tsomeone/indigo\t{ihead}\tindigo\tindigo\tGen\n"
                    f"gv\tsomeone/gv\t{ghead}\tgv\tgpuverify\tsuite\n"
                    f"away\tsomeone/away\t{'0' * 40}\taway\tgpuverify\t.\n")
        with open(os.path.join(data, "labels.tsv"), "w") as f:
            f.write("ind\t*_syncBug*\trace\tthe generator leaves the barrier out\n"
                    "gv\tfail_race/*\trace\tevery thread writes the shared a\n"
                    "gv\tskipped/*\tskip\tlabelled skip for the test's sake\n")
        out = io.StringIO()
        rows = suites.report(SMEMLINT, clones, out=out, data=data, options=("--no-cuda",))
        text = out.getvalue()
        print(text)
        got = {r[0]: r[2:9] for r in rows}
        # files, fail to parse, racy found, racy, clean flagged, clean, precision
        want = {"ind": (2, 0, 1, 1, 0, 1, "100%"), "gv": (5, 0, 1, 1, 1, 2, "50%")}
        if got != want:
            fails.append(f"rows {got}, expected {want}")
        for line in ("away: not fetched", "race-free, flagged: pass_racy/kernel.cu:8 missing-barrier",
                     "| gv |", "marked racy: 1 of 1 found"):
            if line not in text:
                fails.append(f"report lacks '{line}'")
        if "pass_ok" in text or "skipped" in text or "fail_global" in text:
            fails.append("a clean, skipped or uncounted file was listed")
        # a checkout at another commit than the labels' is skipped
        with open(os.path.join(clones, "gv", "suite", "extra.txt"), "w") as f:
            f.write("moved\n")
        git(os.path.join(clones, "gv"), "add", ".")
        git(os.path.join(clones, "gv"), "commit", "-q", "-m", "moved")
        out = io.StringIO()
        if suites.report(SMEMLINT, clones, names=["gv"], out=out, data=data, options=("--no-cuda",)) or \
                "the labels are for" not in out.getvalue():
            fails.append("a checkout at another commit was scored")
        # a malformed label is refused with its line
        with open(os.path.join(data, "labels.tsv"), "w") as f:
            f.write("gv\t*\tmaybe\tnot one of the expectations\n")
        try:
            suites.load_labels(suites.load_suites(os.path.join(data, "suites.tsv")),
                               os.path.join(data, "labels.tsv"))
            fails.append("an unknown expectation was accepted")
        except ValueError as e:
            if "labels.tsv:1" not in str(e):
                fails.append(f"the error does not name the line: {e}")
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
