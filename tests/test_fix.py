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


if __name__ == "__main__":
    unittest.main(verbosity=2)
