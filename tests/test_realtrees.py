#!/usr/bin/env python3
"""The labelled real-tree set (tools/realtrees.py): the committed pins and
labels parse, and the report matches findings to labels as it says: a
synthetic tree (our own kernels, in a git repository made here) with one
race labelled real, one labelled false, one not labelled, and a label that
no finding matches.

    SMEMLINT=build/smemlint python3 tests/test_realtrees.py"""
import io, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import realtrees  # noqa: E402

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


def git(cwd, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    return subprocess.run(["git", "-C", cwd, *args], check=True, capture_output=True, text=True, env=env).stdout


def main():
    fails = []
    trees = realtrees.load_trees()
    labels = realtrees.load_labels(trees)
    if not trees or not labels:
        fails.append("the committed trees.tsv/labels.tsv are empty")
    with tempfile.TemporaryDirectory() as tmp:
        proj = os.path.join(tmp, "clones", "proj")
        os.makedirs(os.path.join(proj, "src"))
        with open(os.path.join(proj, "src", "k.cu"), "w") as f:
            f.write(KERNELS)
        git(proj, "init", "-q")
        git(proj, "add", ".")
        git(proj, "commit", "-q", "-m", "k")
        head = git(proj, "rev-parse", "HEAD").strip()
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
        rows = realtrees.report(SMEMLINT, os.path.join(tmp, "clones"), out=out, data=data, options=("--no-cuda",))
        text = out.getvalue()
        print(text)
        if len(rows) != 1:
            fails.append(f"expected one tree linted, got {len(rows)}")
        else:
            name, commit, rc, secs, nfound, real, false, unl, prec, probs, crashes = rows[0]
            if (rc, nfound, real, false, unl, prec, probs, crashes) != (1, 3, 1, 1, 1, "50%", 0, 0):
                fails.append(f"row {rows[0]}: expected exit 1, 3 findings, 1 real, 1 false, 1 not labelled, 50%")
        for want in ("elsewhere: not fetched", "not labelled: src/k.cu:19 missing-barrier",
                     "label unmatched (a real race no longer found): src/k.cu:30 missing-barrier",
                     "| proj-src |"):
            if want not in text:
                fails.append(f"report lacks '{want}'")
        # a checkout at another commit than the labels' is skipped, not scored
        with open(os.path.join(proj, "src", "k.cu"), "a") as f:
            f.write("\n")
        git(proj, "commit", "-q", "-am", "moved")
        out = io.StringIO()
        rows = realtrees.report(SMEMLINT, os.path.join(tmp, "clones"), out=out, data=data, options=("--no-cuda",))
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
