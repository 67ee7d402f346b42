#!/usr/bin/env python3
"""The labelled real-tree set (tools/realtrees.py): the committed pins and
labels parse, and the report matches findings to labels as it says: a
synthetic tree (our own kernels, in a git repository made here) with one
race labelled real, one labelled false, one not labelled, and a label that
no finding matches.

    SMEMLINT=build/smemlint python3 tests/test_realtrees.py"""
import io, os, re, shutil, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import realtrees  # noqa: E402
from tooling import git, git_repo  # noqa: E402

SMEMLINT = os.environ.get("SMEMLINT", os.path.join(ROOT, "build", "smemlint"))

KERNELS = """\
__global__ void flip(float *out)
{
	__shared__ float s[64];
	s[threadIdx.x] = out[threadIdx.x];
	out[threadIdx.x] = s[63 - threadIdx.x];
}

__global__ void shift(float *out)
{
	__shared__ float t[65];
	t[threadIdx.x] = out[threadIdx.x];
	out[threadIdx.x] = t[threadIdx.x + 1];
}

__global__ void rotate(float *out)
{
	__shared__ float u[64];
	u[threadIdx.x] = out[threadIdx.x];
	out[threadIdx.x] = u[(threadIdx.x + 32) % 64];
}

void run(float *o)
{
	flip<<<1, 64>>>(o);
	shift<<<1, 64>>>(o);
	rotate<<<1, 64>>>(o);
}
"""


def green_trees(tmp, data):
    """Issue 27: files with input problems above a note, against nvcc's
    verdicts: one nvcc rejects (nvcc.tsv), one it has no verdict for until
    --nvcc compiles it (a stand-in nvcc that accepts everything), and a
    header nothing includes that does not parse alone, whose notification
    is a note (not flagged), as is a file with findings only."""
    fails = []
    proj = os.path.join(tmp, "clones", "green")
    files = {"rejected.cu": "__global__ void broken( {}\n",
             "accepted.cu": "__global__ void also_broken(int x) { x = ; }\n",
             "alone.cuh": "__global__ void lone(undeclared_t x) {}\n",
             "fine.cu": "__global__ void k(float *o) { __shared__ float s[64]; s[threadIdx.x] = 1; o[0] = s[0]; }\n"}
    head = git_repo(proj, {"src/" + n: text for n, text in files.items()})
    with open(os.path.join(data, "trees.tsv"), "a") as f:
        f.write(f"green-src\tsomeone/green\t{head}\tgreen\tsrc\t-\n")
    with open(os.path.join(data, "nvcc.tsv"), "w") as f:
        f.write("green-src\tsrc/rejected.cu\trejects\tsrc/rejected.cu(1): error: expected a type specifier\n")
    fake = os.path.join(tmp, "nvcc-accepts-all")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\nexit 0\n")
    os.chmod(fake, 0o755)
    for nvcc, write, want in ((None, False, "0+?"), (fake, True, "1"), (None, False, "1")):
        out = io.StringIO()
        rows = realtrees.report(SMEMLINT, os.path.join(tmp, "clones"), names=["green-src"], out=out, data=data,
                                options=("--no-cuda",), nvcc=nvcc, write=write)
        text = out.getvalue()
        print(text)
        if len(rows) != 1 or rows[0][2] != 2 or rows[0][11] != want:
            fails.append(f"green tree, nvcc={nvcc}: row {rows}, expected exit 2 and column '{want}'")
        line = "flagged, nvcc rejects it too: src/rejected.cu (parse-error): src/rejected.cu(1): error"
        if line not in text:
            fails.append(f"green tree, nvcc={nvcc}: report lacks '{line}'")
        if "header-alone-errors 1" not in text or re.search(r"flagged.*(alone\.cuh|fine\.cu)", text):
            fails.append("green tree: a note or a finding made a file flagged")
        want_line = ("flagged, nvcc accepts it: src/accepted.cu (parse-error)" if want != "0+?" else
                     "flagged, not compiled with nvcc yet (--nvcc): src/accepted.cu (parse-error)")
        if want_line not in text:
            fails.append(f"green tree, nvcc={nvcc}: report lacks '{want_line}'")
    # --write-nvcc kept the verdict it computed, beside the one it was given
    v = realtrees.load_nvcc(realtrees.load_trees(os.path.join(data, "trees.tsv")), os.path.join(data, "nvcc.tsv"))
    if v.get(("green-src", "src/accepted.cu")) != ("accepts", "-") or v.get(("green-src", "src/rejected.cu"), ("",))[0] != "rejects":
        fails.append(f"nvcc.tsv after --write-nvcc: {v}")
    return fails


def main():
    fails = []
    trees = realtrees.load_trees()
    labels = realtrees.load_labels(trees)
    if not trees or not labels:
        fails.append("the committed trees.tsv/labels.tsv are empty")
    with tempfile.TemporaryDirectory() as tmp:
        proj = os.path.join(tmp, "clones", "proj")
        head = git_repo(proj, {"src/k.cu": KERNELS})
        data = os.path.join(tmp, "data")
        os.makedirs(data)
        with open(os.path.join(data, "trees.tsv"), "w") as f:
            f.write(f"# name\trepository\tcommit\tcheckout\tpath\tflags\n"
                    f"proj-src\tsomeone/proj\t{head}\tproj\tsrc\t-\n"
                    f"elsewhere\tsomeone/other\t{'0' * 40}\tother\t.\t-\n")
        with open(os.path.join(data, "labels.tsv"), "w") as f:
            f.write("proj-src\tsrc/k.cu\t5\tmissing-barrier\treal\tthread 0 reads s[63], thread 63's write\n"
                    "proj-src\tsrc/k.cu\t12\tmissing-barrier\tfalse\tlabelled false for the test's sake\n"
                    "proj-src\tsrc/k.cu\t30\tmissing-barrier\treal\ta label no finding matches\n")
        out = io.StringIO()
        clang = shutil.which("clang-22")
        virtual = {"/<smemlint>/smemlint_compat.h": os.path.join(ROOT, "analyzer", "front", "cuda_compat.h"),
                   "/<smemlint>/smemlint_cuda.h": os.path.join(ROOT, "analyzer", "front", "cuda_stub.h")}
        rows = realtrees.report(SMEMLINT, os.path.join(tmp, "clones"), out=out, data=data, options=("--no-cuda",),
                                clang=clang, virtual=virtual)
        text = out.getvalue()
        print(text)
        if len(rows) != 1:
            fails.append(f"expected one tree linted, got {len(rows)}")
        else:
            name, commit, rc, secs, nfound, real, false, unl, prec, probs, crashes, green, vs = rows[0]
            if (rc, nfound, real, false, unl, prec, probs, crashes, green) != (1, 3, 1, 1, 1, "50%", 0, 0, "0"):
                fails.append(f"row {rows[0]}: expected exit 1, 3 findings, 1 real, 1 false, 1 not labelled, 50%")
            # the time against clang of the same file, which clang parses
            if clang and (not re.fullmatch(r"\d+\.\d\dx", vs) or
                          "clang-22 -fsyntax-only of the same 1 files at -j2" not in text or "(0 rejected)" not in text):
                fails.append(f"row {rows[0]}: no time against clang of the one file, or clang rejected it")
        for want in ("elsewhere: not fetched", "not labelled: src/k.cu:19 missing-barrier",
                     "label unmatched (a real race no longer found): src/k.cu:30 missing-barrier",
                     "| proj-src |"):
            if want not in text:
                fails.append(f"report lacks '{want}'")
        fails += green_trees(tmp, data)
        # a checkout at another commit than the labels' is skipped, not scored
        with open(os.path.join(proj, "src", "k.cu"), "a") as f:
            f.write("\n")
        git(proj, "commit", "-q", "-am", "moved")
        out = io.StringIO()
        rows = realtrees.report(SMEMLINT, os.path.join(tmp, "clones"), names=["proj-src"], out=out, data=data,
                                options=("--no-cuda",))
        if rows or "the labels are for" not in out.getvalue():
            fails.append("a checkout at another commit was scored")
        # malformed label files are refused with the line
        with open(os.path.join(data, "labels.tsv"), "w") as f:
            f.write("proj-src\tsrc/k.cu\t5\tbank-conflict\treal\tnot a barrier rule at all\n")
        try:
            realtrees.load_labels(realtrees.load_trees(os.path.join(data, "trees.tsv")),
                                  os.path.join(data, "labels.tsv"))
            fails.append("a label of a non-barrier rule was accepted")
        except ValueError as e:
            if "labels.tsv:1" not in str(e):
                fails.append(f"the error does not name the line: {e}")
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
