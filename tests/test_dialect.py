#!/usr/bin/env python3
"""The nvcc dialect (issue 27 item 1): code nvcc compiles that clang is
stricter about. Each snippet of tests/dialect/ is one row of the table in
doc/trees.md ("Code nvcc accepts"): it names the construct and why clang
differs, and says what smemlint must give:

    // expect: clean             no notification at all
    // expect: nvcc-accepts N    exactly N nvcc-accepts notes, nothing else
    // nvcc-flags: ...           flags nvcc needs for it (-rdc=true)

The controls (tests/dialect/controls/, `expect: parse-error`) are the
nearby code nvcc rejects too: a row must not swallow them. With the
toolkit's nvcc present, every snippet is also compiled (nvcc -c, sm_90,
C++17), so the table holds only what nvcc really accepts, and every
control must fail there as well.

    SMEMLINT=build/smemlint python3 tests/test_dialect.py"""
import glob, json, os, re, shutil, subprocess, sys, tempfile, unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from tooling import cuda_toolkit, needs, require  # noqa: E402

SMEMLINT = os.environ.get("SMEMLINT", os.path.join(ROOT, "build", "smemlint"))
DIALECT = os.path.join(ROOT, "tests", "dialect")


def header(path, key):
    with open(path) as fh:
        m = re.search(r"^// " + key + r": (.*)$", fh.read(), re.M)
    return m.group(1).strip() if m else None


def snippets():
    return sorted(glob.glob(os.path.join(DIALECT, "*.cu")))


def controls():
    return sorted(glob.glob(os.path.join(DIALECT, "controls", "*.cu")))


def nvcc():
    tk = cuda_toolkit()
    p = os.path.join(tk, "bin", "nvcc") if tk else None
    return p if p and os.access(p, os.X_OK) else None


@needs(cuda_toolkit(), "no CUDA toolkit (/usr/local/cuda or $CUDA_PATH): the nvcc dialect is parsed with its headers")
class Dialect(unittest.TestCase):
    def lint(self, path):
        p = subprocess.run([SMEMLINT, "--no-cache", "--format=json", path], capture_output=True, text=True)
        self.assertIn(p.returncode, (0, 1, 2), p.stderr)
        return p.returncode, json.loads(p.stdout)

    def test_table_is_whole(self):
        self.assertGreaterEqual(len(snippets()), 11)
        self.assertGreaterEqual(len(controls()), 3)
        with open(os.path.join(ROOT, "doc", "trees.md")) as fh:
            doc = fh.read()
        for f in snippets():
            self.assertIn(f"`{os.path.basename(f)}`", doc, f"{f}: its row is missing from doc/trees.md's table")
            self.assertTrue(header(f, "dialect"), f"{f}: says not what it is")

    def test_snippets_parse_as_nvcc_has_them(self):
        for f in snippets():
            with self.subTest(f=os.path.basename(f)):
                want = header(f, "expect")
                rc, doc = self.lint(f)
                self.assertIn(rc, (0, 1), doc["notifications"])
                got = [(n["id"], n["level"]) for n in doc["notifications"]]
                if want == "clean":
                    self.assertEqual(got, [])
                else:
                    m = re.fullmatch(r"nvcc-accepts (\d+)", want or "")
                    self.assertTrue(m, f"{f}: unknown expect line '{want}'")
                    self.assertEqual(got, [("nvcc-accepts", "note")] * int(m.group(1)))

    def test_controls_stay_errors(self):
        for f in controls():
            with self.subTest(f=os.path.basename(f)):
                self.assertEqual(header(f, "expect"), "parse-error")
                rc, doc = self.lint(f)
                self.assertEqual(rc, 2)
                self.assertIn(("parse-error", "error"), [(n["id"], n["level"]) for n in doc["notifications"]])

    def test_nvcc_agrees(self):
        cc = nvcc()
        require(self, cc, "no nvcc in the CUDA toolkit: the table is not checked against nvcc")
        with tempfile.TemporaryDirectory() as d:
            for f in snippets() + controls():
                with self.subTest(f=os.path.basename(f)):
                    flags = (header(f, "nvcc-flags") or "").split()
                    p = subprocess.run([cc, "-c", "-std=c++17", "-arch=sm_90", *flags, "-o",
                                        os.path.join(d, "x.o"), f], capture_output=True, text=True, cwd=d)
                    if f in controls():
                        self.assertNotEqual(p.returncode, 0, f"nvcc accepts the control {f}")
                    else:
                        self.assertEqual(p.returncode, 0, p.stderr[-2000:])


if __name__ == "__main__":
    unittest.main(verbosity=2)
