#!/usr/bin/env python3
"""--compare-ncu (issue 25 item 5): Nsight Compute's measured shared
wavefronts beside smemlint's predicted degrees, line by line.

The exports are real: tools/gpu/testdata/probe_raw/raw/src/*.csv, measured
on an H100 for tools/gpu/testdata/probe.cu (tools/gpu/README.md)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMEMLINT = os.environ.get("SMEMLINT", os.path.join(ROOT, "build", "smemlint"))
DATA = os.path.join(ROOT, "tools", "gpu", "testdata")
SRC = os.path.join(DATA, "probe_raw", "raw", "src")


def run(args, cwd, timeout=120):
    p = subprocess.run([SMEMLINT, "--no-cache", "-q", *args], cwd=cwd, capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def rows(out):
    """{line: (measured, predicted, verdict)} of the first file's table."""
    got = {}
    for l in out.splitlines():
        m = re.match(r"\s*(\d+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)", l)
        if m:
            got.setdefault(int(m.group(1)), (m.group(2), m.group(3), m.group(5)))
    return got


class CompareNcu(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="smemlint-ncu-")
        for f in ("probe.cu", "probe_hdr.cuh"):
            shutil.copy(os.path.join(DATA, f), self.dir)
        self.csvs = sorted(os.path.join(SRC, f) for f in os.listdir(SRC) if f.endswith(".csv"))
        self.args = [a for c in self.csvs for a in ("--compare-ncu", c)]

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_real_exports_agree(self):
        rc, out, err = run([*self.args, "probe.cu"], self.dir)
        self.assertEqual(rc, 0, out + err)
        r = rows(out)
        # s[t * 32] measured 32-way on the H100; a float4 stride-2 load 2-way
        self.assertEqual(r[7], ("32.00", "32.00", "exact"))
        self.assertEqual(r[20], ("2.00", "2.00", "exact"))
        self.assertIn("compare-ncu: 14 measured lines, 14 agree", out)
        # the counts beside each other: measured wavefronts/ideal, then the
        # predicted per-launch ones; conflict32 has two launches of
        # different grids, so no one launch's count is predicted
        counts = {int(m.group(1)): (m.group(2), m.group(3)) for m in
                  re.finditer(r"^\s*(\d+)\s+\S+\s+\S+\s+\S+\s+\S+\s+(\S+)\s+(\S+)", out, re.M)}
        self.assertEqual(counts[22], ("64/32", "64/32"))
        self.assertEqual(counts[31], ("34/2", "34/2"))
        self.assertEqual(counts[7], ("192/6", "-"))

    def test_a_line_that_differs(self):
        # the export with line 7's wavefronts doubled: measured 64-way,
        # predicted 32: under, exit 1
        src = os.path.join(SRC, "probe.conflict32.csv")
        text = open(src).read()
        fixed = []
        for l in text.splitlines(True):
            if l.startswith('"7",') or ('STS' in l and '"Shared"' in l):
                l = l.replace('"64"', '"128"')
            fixed.append(l)
        bad = os.path.join(self.dir, "probe.conflict32.csv")
        open(bad, "w").write("".join(fixed))
        rc, out, err = run(["--compare-ncu", bad, "probe.cu"], self.dir)
        self.assertEqual(rc, 1, out + err)
        self.assertEqual(rows(out)[7][2], "under", out)

    def test_bad_exports(self):
        junk = os.path.join(self.dir, "junk.csv")
        open(junk, "w").write("a,b,c\n1,2,3\n")
        rc, out, err = run(["--compare-ncu", junk, "probe.cu"], self.dir)
        self.assertEqual(rc, 2, err)
        self.assertIn(f"'{junk}' is not an Nsight Compute source export", err)
        fifo = os.path.join(self.dir, "fifo.csv")
        os.mkfifo(fifo)
        rc, out, err = run(["--compare-ncu", fifo, "probe.cu"], self.dir, timeout=60)
        self.assertEqual(rc, 2, err)
        self.assertIn("a FIFO, not a regular file", err)
        rc, out, err = run(["--compare-ncu", os.path.join(self.dir, "missing.csv"), "probe.cu"], self.dir)
        self.assertEqual(rc, 2, err)
        self.assertIn("missing.csv", err)


if __name__ == "__main__":
    unittest.main(verbosity=2)
