#!/usr/bin/env python3
"""Input problems (include/smemlint/problems.def): the README's table is the list,
and the outputs carry the ids.

Docs (ctest docs.problems): every entry of problems.def has a unique
kebab-case id, and the README's "Input problems" table lists exactly the
entries of problems.def, in order, with the same level and meaning.
`python3 tests/test_problems.py --table` prints the table to paste.

Outputs (ctest cli.problems): JSON notifications of a binary file, an
oversized file and a file with parse errors carry the expected "id"; SARIF
lists every problem as a notification descriptor and each notification
refers to its own; a --timeout run (results sent back through a pipe,
result_io.c) gives the same ids as an in-process one.

    SMEMLINT=build/smemlint python3 tests/test_problems.py [Docs|Outputs] [-v]
"""
import json, os, re, subprocess, sys, tempfile, unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMEMLINT = os.path.abspath(os.environ.get("SMEMLINT", os.path.join(ROOT, "build", "smemlint")))
DEF = os.path.join(ROOT, "include", "smemlint", "problems.def")
README = os.path.join(ROOT, "doc", "reliability.md")
HEADING = "## Input problems"
BASE = ["--no-cuda", "--no-cache"]

ENTRY = re.compile(r'^SM_PROBLEM\(\s*(\w+)\s*,\s*"([^"]*)"\s*,\s*SM_LEVEL_(\w+)\s*,\s*"((?:[^"\\]|\\.)*)"\s*\)',
                   re.M)
KEBAB = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def problems():
    """[(ENUM, id, level, summary)] from problems.def, in order."""
    with open(DEF, encoding="utf-8") as f:
        text = f.read()
    code = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    entries = [(e, i, lvl.lower(), s) for e, i, lvl, s in ENTRY.findall(code)]
    if code.count("SM_PROBLEM(") != len(entries):
        raise ValueError("problems.def: an entry this test cannot read (one string literal per field)")
    return entries


def table(entries):
    rows = ["| id | level | meaning |", "| --- | --- | --- |"]
    rows += [f"| `{i}` | {lvl} | {s} |" for _, i, lvl, s in entries]
    return "\n".join(rows)


def readme_rows():
    with open(README, encoding="utf-8") as f:
        text = f.read()
    start = text.index(HEADING)
    end = text.find("\n#", start + len(HEADING))
    section = text[start:end if end >= 0 else len(text)]
    rows = []
    for line in section.splitlines():
        m = re.match(r"^\|\s*`([^`]+)`\s*\|\s*(\w+)\s*\|\s*(.*?)\s*\|\s*$", line)
        if m:
            rows.append(m.groups())
    return rows


class Docs(unittest.TestCase):
    def test_ids_unique_kebab_case(self):
        entries = problems()
        self.assertTrue(entries)
        ids = [i for _, i, _, _ in entries]
        self.assertEqual(len(ids), len(set(ids)), "an id appears twice")
        self.assertEqual(len(entries), len({e for e, _, _, _ in entries}), "an enum name appears twice")
        for e, i, lvl, s in entries:
            self.assertRegex(i, KEBAB)
            self.assertEqual(e, i.upper().replace("-", "_"), "the enum name spells the id")
            self.assertIn(lvl, ("error", "warning", "note"))
            self.assertTrue(s and "|" not in s, f"{i}: the summary must fit a table cell")

    def test_readme_table(self):
        want = [(i, lvl, s) for _, i, lvl, s in problems()]
        self.assertEqual(readme_rows(), want,
                         "README's input problems table differs from include/smemlint/problems.def; "
                         "regenerate it with: python3 tests/test_problems.py --table")


def run(args, cwd):
    p = subprocess.run([SMEMLINT, *BASE, *args], cwd=cwd, capture_output=True, timeout=600)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


KERNEL = """__global__ void k(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x * 2) & 63];
}
"""


class Outputs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmpdir = tempfile.TemporaryDirectory(prefix="smemlint-problems-")
        d = cls.dir = cls.tmpdir.name
        with open(os.path.join(d, "blob.cu"), "wb") as f:
            f.write(b"__global__ void k() {}\n\0\0binary")
        with open(os.path.join(d, "huge.cu"), "w") as f:
            f.write(KERNEL)
            f.write(("// " + "x" * 1020 + "\n") * (17 * 1024))
        with open(os.path.join(d, "broken.cu"), "w") as f:
            # an error in device code (parse-error) and one in a host-only
            # function, which nvcc's device pass never sees (host-code-error)
            f.write(KERNEL + "__device__ int g() { return undeclared_dev; }\n" + "void f() { undeclared_thing = 1; }\n")
        with open(os.path.join(d, "headless.cu"), "w") as f:
            # a missing header: one warning, and what follows from it folded in
            f.write('#include "does_not_exist.cuh"\n' + KERNEL + "void f() { undeclared_thing = 1; }\n")
        with open(os.path.join(d, "fine.cu"), "w") as f:
            f.write(KERNEL)
        os.mkdir(os.path.join(d, "empty"))
        cls.files = ["blob.cu", "huge.cu", "broken.cu", "headless.cu", "missing.cu", "fine.cu"]
        cls.want = {"blob.cu": {"binary-file"}, "huge.cu": {"file-too-large"}, "broken.cu": {"parse-error", "host-code-error"},
                    "headless.cu": {"missing-header"},
                    "missing.cu": {"cannot-read"}, "fine.cu": set()}

    @classmethod
    def tearDownClass(cls):
        cls.tmpdir.cleanup()

    def ids(self, doc):
        got = {f: set() for f in self.files}
        for n in doc["notifications"]:
            got[n["file"]].add(n["id"])
        return got

    def test_json_ids(self):
        rc, out, err = run(["--format=json", *self.files], self.dir)
        self.assertEqual(rc, 2, err)
        doc = json.loads(out)
        self.assertEqual(self.ids(doc), self.want)
        known = {i for _, i, _, _ in problems()}
        self.assertTrue(all(n["id"] in known for n in doc["notifications"]))
        # a missing header costs only what it declared: the kernel is analyzed
        self.assertEqual({r["file"] for r in doc["results"]}, {"broken.cu", "headless.cu", "fine.cu"})

    def test_missing_header_fails_only_when_asked(self):
        rc, out, err = run(["--format=json", "headless.cu"], self.dir)
        self.assertEqual(rc, 1, err)  # its kernel's findings; the warning does not fail
        rc, out, err = run(["--format=json", "--fail-on-missing-headers", "headless.cu"], self.dir)
        self.assertEqual(rc, 2, err)
        with open(os.path.join(self.dir, ".smemlint.yaml"), "w") as f:
            f.write("fail-on-missing-headers: true\n")
        try:
            rc, out, err = run(["--format=json", "headless.cu"], self.dir)
            self.assertEqual(rc, 2, err)
        finally:
            os.unlink(os.path.join(self.dir, ".smemlint.yaml"))

    def test_one_level_in_every_format(self):
        # issue 15: a problem has the table's level in text, JSON, SARIF and
        # GitHub alike, and exit 2 comes with an error on stderr in each
        level = {i: lvl for _, i, lvl, _ in problems()}
        rc, out, err = run(["--format=json", *self.files], self.dir)
        notes = json.loads(out)["notifications"]
        for n in notes:
            self.assertEqual(n["level"], level[n["id"]], n)
        rc, text, err = run([*self.files], self.dir)
        for n in notes:
            self.assertIn("%s: %s" % (n["level"], n["message"]), text + err)
        rc, gh, err = run(["--format=github", *self.files], self.dir)
        cmd = {"error": "error", "warning": "warning", "note": "notice"}
        for n in notes:
            self.assertTrue(any(l.startswith("::%s file=%s" % (cmd[n["level"]], n["file"])) for l in gh.splitlines()), n)
        for fmt in ("json", "sarif", "github"):
            rc, out, err = run(["--format=" + fmt, *self.files], self.dir)
            self.assertEqual(rc, 2)
            self.assertIn("error: ", err, "an exit-2 run says why on stderr (%s)" % fmt)

    def test_timeout_children_carry_ids(self):
        rc, a, _ = run(["--format=json", *self.files], self.dir)
        rc2, b, _ = run(["--format=json", "--timeout", "300", *self.files], self.dir)
        self.assertEqual((rc2, b), (rc, a), "--timeout (results through result_io) differs from in-process")

    def test_sarif_descriptors(self):
        rc, out, err = run(["--format=sarif", *self.files, "empty"], self.dir)
        self.assertEqual(rc, 2, err)
        run0 = json.loads(out)["runs"][0]
        descs = run0["tool"]["driver"]["notifications"]
        self.assertEqual([(d["id"], d["defaultConfiguration"]["level"], d["shortDescription"]["text"])
                          for d in descs], [(i, lvl, s) for _, i, lvl, s in problems()])
        got = {f: set() for f in self.files + [None]}
        for n in run0["invocations"][0]["toolExecutionNotifications"]:
            ref = n["descriptor"]
            self.assertEqual(descs[ref["index"]]["id"], ref["id"])
            self.assertEqual(n["level"], descs[ref["index"]]["defaultConfiguration"]["level"])
            uri = n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] if "locations" in n else None
            got[uri].add(ref["id"])
        self.assertEqual(got, {**self.want, None: {"no-cuda-files"}})


if __name__ == "__main__":
    if sys.argv[1:] == ["--table"]:
        print(table(problems()))
        sys.exit(0)
    unittest.main()
