#!/usr/bin/env python3
"""--fix on copies of corpus files: every applied fix compiles with nvcc
(-arch=sm_90 -c), the fixed arrays have no bank conflicts left, a second run
changes nothing, the file mode is kept, and a write that fails midway leaves
the original intact with no stray files.

The suggestions themselves (minimal pad, pad > 1, swizzle, refusals, offset
form, no suggestion for clean code: notes and fix-it lines) are rule tests:
tests/rules/bank-conflict/fix_suggestions.cu (tests/run_rules.py)."""
from tooling import require
import json, os, shutil, stat, subprocess, sys, tempfile, unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMEMLINT = os.environ.get("SMEMLINT", os.path.join(ROOT, "build", "smemlint"))
NVCC = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)


def lint(*args, env=None):
    p = subprocess.run([SMEMLINT, "--format=json", *args], capture_output=True, text=True, env=env)
    assert p.returncode in (0, 1), p.stderr
    return json.loads(p.stdout), p


def conflicts(doc):
    return [r for r in doc["results"] if r["rule"] == "bank-conflict"]


class ApplyFix(unittest.TestCase):
    FILES = ["transpose.cu", "matmul.cu", "stencil.cu", "conv.cu", "types_double.cu", "blocks3d.cu"]

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="smemlint-fix-")
        for f in self.FILES + ["common.cuh"]:
            shutil.copy(os.path.join(ROOT, "corpus", f), self.dir)
        self.paths = [os.path.join(self.dir, f) for f in self.FILES]

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_report_and_exit_status_are_what_is_left(self):
        # issue 15: --fix prints what it changed and what is left; the
        # report holds only what is left, and the exit status follows it
        one = self.paths[0]
        p = subprocess.run([SMEMLINT, "--fix", "--format=json", one], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(json.loads(p.stdout)["results"], [])
        self.assertIn("transpose.cu:28:26: fixed: 'tile' dimensions [TILE_DIM][TILE_DIM] -> [TILE_DIM][TILE_DIM + 1]", p.stderr)
        self.assertIn("smemlint: --fix: 1 change in 1 file; 0 findings left", p.stderr)
        p = subprocess.run([SMEMLINT, "--fix", "--format=json", *self.paths], capture_output=True, text=True)
        doc = json.loads(p.stdout)
        after, _ = lint(*self.paths)
        self.assertEqual(doc["results"], after["results"], "the --fix report is the next run's")
        self.assertEqual(p.returncode, 1 if after["results"] else 0)
        self.assertRegex(p.stderr, r"smemlint: --fix: \d+ changes? in \d+ files?; %d findings? left" % len(after["results"]))

    def test_fix_compiles_and_removes_conflicts(self):
        before, _ = lint(*self.paths)
        fixable = {(os.path.basename(r["file"]), r["kernel"], r["array"]) for r in conflicts(before) if "fix" in r}
        self.assertGreaterEqual(len(fixable), 4, fixable)
        os.chmod(self.paths[0], 0o640)
        p = subprocess.run([SMEMLINT, "--fix", *self.paths], capture_output=True, text=True)
        self.assertIn(p.returncode, (0, 1), p.stderr)
        self.assertIn("fixed: 'tile' dimensions", p.stderr)
        self.assertEqual(stat.S_IMODE(os.stat(self.paths[0]).st_mode), 0o640)
        self.assertEqual(sorted(os.listdir(self.dir)), sorted(self.FILES + ["common.cuh"]), "no stray files")
        after, _ = lint(*self.paths)
        left = {(os.path.basename(r["file"]), r["kernel"], r["array"]) for r in conflicts(after)}
        self.assertFalse(fixable & left, f"still conflicting after --fix: {fixable & left}")
        # idempotent: a second run changes nothing
        snap = {f: open(f, "rb").read() for f in self.paths}
        p2 = subprocess.run([SMEMLINT, "--fix", *self.paths], capture_output=True, text=True)
        self.assertNotIn("fixed:", p2.stderr)
        self.assertEqual(snap, {f: open(f, "rb").read() for f in self.paths})
        if NVCC:
            for f in self.paths:
                c = subprocess.run([NVCC, "-arch=sm_90", "-c", f, "-o", f + ".o"], capture_output=True, text=True)
                self.assertEqual(c.returncode, 0, f"{f} does not compile after --fix:\n{c.stderr}")
        else:
            require(self, False, "nvcc not found: the compile check of the fixed files is skipped")

    def test_failed_write_leaves_file_intact(self):
        orig = open(self.paths[0], "rb").read()
        env = dict(os.environ, SMEMLINT_TEST_FAIL_WRITE="1")
        p = subprocess.run([SMEMLINT, "--fix", self.paths[0]], capture_output=True, text=True, env=env)
        self.assertEqual(p.returncode, 2)
        self.assertIn("cannot write", p.stderr)
        self.assertEqual(open(self.paths[0], "rb").read(), orig)
        self.assertEqual(sorted(os.listdir(self.dir)), sorted(self.FILES + ["common.cuh"]), "no stray files")


class ApplySwizzle(unittest.TestCase):
    """A swizzle is one fix of many edits: every access of the array is
    rewritten, or (a use the fix cannot follow) none."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="smemlint-swz-")
        shutil.copy(os.path.join(ROOT, "corpus", "swizzle_fix.cu"), self.dir)
        shutil.copy(os.path.join(ROOT, "corpus", "common.cuh"), self.dir)
        shutil.copy(os.path.join(ROOT, "tests", "rules", "bank-conflict", "swizzle_fix.cu"),
                    os.path.join(self.dir, "refusals.cu"))
        self.corpus = os.path.join(self.dir, "swizzle_fix.cu")
        self.refusals = os.path.join(self.dir, "refusals.cu")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_every_access_rewritten_and_conflicts_gone(self):
        before, _ = lint(self.corpus)
        fixes = [r["fix"] for r in conflicts(before)]
        self.assertEqual(len(fixes), 3, fixes)
        # the JSON holds the whole fix: the first edit and the others
        self.assertEqual(sorted(1 + len(f.get("more", [])) for f in fixes), [2, 2, 3])
        p = subprocess.run([SMEMLINT, "--fix", self.corpus], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("swizzle_fix.cu:14:5: fixed: 'tile' swizzled in 2 accesses, e.g. [x] -> [x ^ (y & 15)]", p.stderr)
        self.assertIn("swizzle_fix.cu:35:5: fixed: 'acc' swizzled in 3 accesses", p.stderr)
        text = open(self.corpus).read()
        for line in ("tile[y][x ^ (y & 15)] = in[y * T16 + x];", "out[y * T16 + x] = tile[x][y ^ (x & 15)];",
                     "acc[x][y ^ (x & 15)] += in[(k * T16 + y) * T16 + x];",
                     # row 0: 0 & 15 is 0, so that access keeps its place
                     "out[y * T16 + x] = acc[y][x ^ (y & 15)] + acc[0][x];"):
            self.assertIn(line, text)
        after, _ = lint(self.corpus)
        self.assertEqual(conflicts(after), [])
        snap = open(self.corpus, "rb").read()
        p2 = subprocess.run([SMEMLINT, "--fix", self.corpus], capture_output=True, text=True)
        self.assertNotIn("fixed:", p2.stderr)
        self.assertEqual(open(self.corpus, "rb").read(), snap, "a second --fix changes nothing")
        if NVCC:
            c = subprocess.run([NVCC, "-arch=sm_90", "-c", self.corpus, "-o", self.corpus + ".o"],
                               capture_output=True, text=True)
            self.assertEqual(c.returncode, 0, c.stderr)
        else:
            require(self, False, "nvcc not found: the compile check of the swizzled file is skipped")

    def test_kernel_in_a_header_is_swizzled_there(self):
        # the finding, the array and its accesses are in the header: the
        # header's result carries the fix, and --fix edits the header
        with open(os.path.join(self.dir, "k.cuh"), "w") as f:
            f.write("#pragma once\n__global__ void swz(const float *in, float *out)\n{\n"
                    "    __shared__ float tile[16][16];\n    int x = threadIdx.x, y = threadIdx.y;\n"
                    "    tile[y][x] = in[y * 16 + x];\n    __syncthreads();\n"
                    "    out[y * 16 + x] = tile[x][y];\n}\n")
        main = os.path.join(self.dir, "main.cu")
        with open(main, "w") as f:
            f.write('#include "k.cuh"\nint main() { swz<<<1, dim3(16, 16)>>>(0, 0); }\n')
        p = subprocess.run([SMEMLINT, "--fix", "--no-cuda", main], capture_output=True, text=True, cwd=self.dir)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("k.cuh:4:5: fixed: 'tile' swizzled in 2 accesses", p.stderr)
        with open(os.path.join(self.dir, "k.cuh")) as f:
            text = f.read()
        self.assertIn("tile[y][x ^ (y & 15)] = in[y * 16 + x];", text)
        self.assertIn("out[y * 16 + x] = tile[x][y ^ (x & 15)];", text)
        with open(main) as f:
            self.assertNotIn("^", f.read())

    def test_refused_swizzles_leave_arrays_alone(self):
        orig = open(self.refusals).read()
        p = subprocess.run([SMEMLINT, "--fix", "--no-cuda", self.refusals], capture_output=True, text=True)
        self.assertIn(p.returncode, (0, 1), p.stderr)
        self.assertIn("fixed: 't' swizzled in 4 accesses", p.stderr)
        for why in ("an access of 'm' is not written as a subscript", "a row index of 'c' has side effects or calls",
                    "not every use of 's' in the kernel", "'g' is declared at file scope"):
            self.assertIn("not fixed: " + why, p.stderr)
        text = open(self.refusals).read()
        self.assertIn("t[y][(x | 0) ^ (y & 15)] = x;", text)
        self.assertIn("out[x] = t[x][(y & 15) ^ (x & 15)] + t[0][x] + t[3][x ^ 3] + t[y + 0][x ^ ((y + 0) & 15)];", text)
        # the refused arrays' lines are as they were
        changed = [a for a, b in zip(orig.splitlines(), text.splitlines()) if a != b]
        self.assertEqual(len(changed), 2, changed)
        after, _ = lint("--no-cuda", self.refusals)
        self.assertFalse([r for r in conflicts(after) if r["array"] == "t"])
        self.assertEqual({r["array"] for r in conflicts(after)}, {"m", "c", "s", "g"})


if __name__ == "__main__":
    unittest.main(verbosity=2)
