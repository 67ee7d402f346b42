#!/usr/bin/env python3
"""Fix suggestions and --fix.

1. Golden suggestions for tests/fixes/cases.cu (minimal pad, pad > 1,
   swizzle, refusals, offset form, no suggestion for clean code).
2. --fix on copies of corpus files: every applied fix compiles with nvcc
   (-arch=sm_90 -c), the fixed arrays have no bank conflicts left, a second
   run changes nothing, the file mode is kept, and a write that fails midway
   leaves the original intact with no stray files."""
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


class Suggestions(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        doc, _ = lint(os.path.join(ROOT, "tests/fixes/cases.cu"))
        cls.by_array = {}
        for r in conflicts(doc):
            cls.by_array.setdefault(r["array"], []).append(r)

    def one(self, arr):
        self.assertIn(arr, self.by_array)
        notes = {r.get("note") for r in self.by_array[arr]}
        self.assertEqual(len(notes), 1, "every access of an array carries the same fix")
        return self.by_array[arr][0]

    def test_pad_one_column(self):
        r = self.one("tile")
        self.assertIn("declare 'tile' as `float tile[32][33]`", r["note"])
        self.assertIn("+128 bytes per block (4096 -> 4224", r["note"])
        self.assertIn("1 of 1 conflicting accesses become conflict-free", r["note"])
        self.assertEqual(r["fix"]["replacement"], "[TILE][TILE + 1]")
        self.assertEqual((r["fix"]["line"], r["fix"]["column"], r["fix"]["end_column"]), (9, 26, 38))

    def test_minimal_pad_is_searched(self):
        r = self.one("t16")
        self.assertIn("`float t16[16][18]`", r["note"])
        self.assertEqual(r["fix"]["replacement"], "[16][18]")

    def test_swizzle_when_every_pad_hurts(self):
        r = self.one("tz")
        self.assertIn("swizzle 'tz'", r["note"])
        self.assertIn("(verified)", r["note"])
        self.assertIn("tz[threadIdx.x][(threadIdx.y) ^ ((threadIdx.x) & 15)]", r["note"])
        self.assertNotIn("fix", r)

    def test_refuse_sizeof(self):
        r = self.one("ts")
        self.assertIn("--fix will not apply it: sizeof is applied to 'ts'", r["note"])
        self.assertNotIn("fix", r)

    def test_refuse_pointer(self):
        r = self.one("tf")
        self.assertIn("a pointer into 'tf' is formed", r["note"])
        self.assertNotIn("fix", r)

    def test_vector_pad_keeps_alignment(self):
        r = self.one("v4")
        self.assertIn("`float4 v4[32][9]`", r["note"])

    def test_offset_form(self):
        r = self.one("s1")
        self.assertIn("`i + (i >> 5)`", r["note"])

    def test_clean_array_has_no_finding(self):
        self.assertNotIn("tc", self.by_array)


class ApplyFix(unittest.TestCase):
    FILES = ["transpose.cu", "matmul.cu", "stencil.cu", "conv.cu", "types_double.cu", "blocks3d.cu"]

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="smemlint-fix-")
        for f in self.FILES + ["common.cuh"]:
            shutil.copy(os.path.join(ROOT, "corpus", f), self.dir)
        self.paths = [os.path.join(self.dir, f) for f in self.FILES]

    def tearDown(self):
        shutil.rmtree(self.dir)

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
            print("note: nvcc not found, compile check skipped", file=sys.stderr)

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
