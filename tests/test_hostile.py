#!/usr/bin/env python3
"""Hostile inputs (issue 8): smemlint never crashes and never loses a line.

Every case runs one hostile input together with a normal corpus file in the
same invocation and checks three things: the hostile file is reported by
name (or analyzed, when it is valid CUDA), the exit status is 0, 1 or 2 and
never a signal, and the normal file's findings are exactly those it gets on
its own. Inputs are generated in a temporary directory at test time; big
ones are never committed.

Also here: atomic writes under failure (`ulimit -f`, the
SMEMLINT_TEST_FAIL_WRITE hook), file modes, byte-identical output across
runs, and the per-file limits (size, IR memory).

    SMEMLINT=build/smemlint python3 tests/test_hostile.py [-v]
"""
import json, os, shutil, signal, stat, subprocess, sys, tempfile, unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMEMLINT = os.path.abspath(os.environ.get("SMEMLINT", os.path.join(ROOT, "build", "smemlint")))
CORPUS = os.path.join(ROOT, "corpus")
NORMAL = "transpose.cu"            # a corpus file with findings, copied next to the inputs
BASE = ["--no-cuda", "--no-cache"]  # fast and independent of an installed toolkit

KERNEL = """__global__ void k(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x * 2) & 63];
}
"""


def run(args, cwd, env=None, preexec=None, timeout=600):
    e = dict(os.environ)
    e.pop("SMEMLINT_TEST_FAIL_WRITE", None)
    e.pop("SMEMLINT_TEST_ARENA_LIMIT", None)
    if env:
        e.update(env)
    p = subprocess.run(args, cwd=cwd, env=e, capture_output=True, preexec_fn=preexec, timeout=timeout)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


class Base(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="smemlint-hostile-")
        os.chmod(cls.tmp, 0o755)
        shutil.copy(os.path.join(CORPUS, NORMAL), cls.tmp)
        shutil.copy(os.path.join(CORPUS, "common.cuh"), cls.tmp)
        cls.normal = os.path.join(cls.tmp, NORMAL)
        rc, out, err = run([SMEMLINT, *BASE, "--format=json", cls.normal], cls.tmp)
        assert rc == 1, (rc, err)
        cls.expected = cls.findings(json.loads(out), cls.normal)
        assert cls.expected, "the normal file must have findings"

    @classmethod
    def tearDownClass(cls):
        subprocess.run(["chmod", "-R", "u+rwX", cls.tmp])
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @staticmethod
    def findings(doc, path):
        return [r for r in doc["results"] if r["file"] == path]

    def setUp(self):
        self.dir = tempfile.mkdtemp(dir=self.tmp)
        os.chmod(self.dir, 0o755)

    def write(self, name, data, mode="w"):
        p = os.path.join(self.dir, name)
        with open(p, mode) as f:
            f.write(data)
        return p

    def lint(self, *paths, rcs=(0, 1, 2), env=None, extra=(), preexec=None):
        """Run on paths + the normal file; check the exit, the JSON and the
        normal file's findings. Returns (rc, doc, stderr)."""
        args = [SMEMLINT, *BASE, "--format=json", *extra, *paths, self.normal]
        rc, out, err = run(args, self.dir, env=env, preexec=preexec)
        self.assertGreaterEqual(rc, 0, f"killed by signal {-rc}: {err[-2000:]}")
        self.assertIn(rc, rcs, err[-2000:])
        self.assertNotIn("Sanitizer", err)
        self.assertNotIn("runtime error", err)
        doc = json.loads(out)
        self.assertEqual(self.findings(doc, self.normal), self.expected, "the normal file lost findings")
        return rc, doc, err

    def notes(self, doc, path, level=None, problem=None):
        return [n["message"] for n in doc["notifications"]
                if n.get("file") == path and (level is None or n["level"] == level) and
                (problem is None or n["id"] == problem)]

    def ids(self, doc, path):
        return {n["id"] for n in doc["notifications"] if n.get("file") == path}

    def assert_error(self, doc, err, path, problem, words=""):
        """An error notification of input problem `problem` (its id in
        smemlint/problems.def) naming the file (and `words`: the reason)."""
        msgs = self.notes(doc, path, "error", problem)
        self.assertTrue(msgs, f"no {problem} error notification for {path!r}: {doc['notifications']}")
        self.assertTrue(any(path in m and words in m for m in msgs), msgs)
        self.assertIn(path, err)  # also on stderr when the report is JSON


class Inputs(Base):
    def test_missing_path(self):
        p = os.path.join(self.dir, "nope.cu")
        rc, doc, err = self.lint(p, rcs=(2,))
        self.assert_error(doc, err, p, "cannot-read", "No such file or directory")

    def test_empty_directory(self):
        d = os.path.join(self.dir, "empty")
        os.mkdir(d)
        rc, doc, err = self.lint(d, rcs=(2,))
        self.assertIn(f"no .cu or .cuh files under '{d}'", err)

    def test_unreadable_file(self):
        p = self.write("secret.cu", KERNEL)
        os.chmod(p, 0)
        preexec = None
        if os.geteuid() == 0:
            # root reads anything: drop to nobody for this run
            def preexec():
                os.setgroups([])
                os.setgid(65534)
                os.setuid(65534)
            rc, _, _ = run([SMEMLINT, "--version"], self.dir, preexec=preexec)
            if rc != 0:
                self.skipTest("running as root and cannot drop privileges to nobody (uid 65534)")
        rc, doc, err = self.lint(p, rcs=(2,), preexec=preexec)
        self.assert_error(doc, err, p, "cannot-read", "Permission denied")

    def test_binary_file(self):
        p = self.write("blob.cu", b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 64, "wb")
        rc, doc, err = self.lint(p, rcs=(2,))
        self.assert_error(doc, err, p, "binary-file")

    def test_empty_file(self):
        p = self.write("empty.cu", "")
        rc, doc, err = self.lint(p, rcs=(1,))
        self.assertEqual(self.findings(doc, p), [])
        self.assertEqual(self.notes(doc, p, "error"), [])

    def expect_kernel_finding(self, doc, path, line):
        got = [(r["line"], r["rule"]) for r in self.findings(doc, path)]
        self.assertIn((line, "bank-conflict"), got, doc["notifications"])

    def test_invalid_utf8(self):
        src = (b"/* caf\xe9 \xff\xfe \xc3\x28 */\n"
               b"__device__ const char msg[] = \"\xe9\xff\";\n" + KERNEL.encode())
        p = self.write("latin1.cu", src, "wb")
        rc, doc, err = self.lint(p, rcs=(1,))
        self.expect_kernel_finding(doc, p, 8)
        # the text output quotes the line as it is
        rc, out, _ = run([SMEMLINT, *BASE, p], self.dir)
        self.assertEqual(rc, 1)

    def test_crlf(self):
        p = self.write("crlf.cu", KERNEL.replace("\n", "\r\n").encode(), "wb")
        lf = self.write("lf.cu", KERNEL)
        rc, doc, err = self.lint(p, lf, rcs=(1,))
        strip = lambda rs: [{k: v for k, v in r.items() if k not in ("file", "related")} for r in rs]
        self.assertTrue(self.findings(doc, lf))
        self.assertEqual(strip(self.findings(doc, p)), strip(self.findings(doc, lf)))
        rc, out, _ = run([SMEMLINT, *BASE, p], self.dir)
        self.assertNotIn(b"\r", out, "a carriage return leaked into the quoted source line")

    def test_no_final_newline(self):
        p = self.write("nonl.cu", KERNEL.rstrip("\n") + "\n__global__ void last(float *o) { __shared__ float t[64];"
                       " t[threadIdx.x * 2 & 63] = o[0]; o[1] = t[0]; }")
        rc, doc, err = self.lint(p, rcs=(1,))
        lines = {r["line"] for r in self.findings(doc, p) if r["rule"] == "bank-conflict"}
        self.assertEqual(lines, {6, 8})
        rc, out, _ = run([SMEMLINT, *BASE, p], self.dir)
        self.assertIn(b"nonl.cu:8:", out)

    def deep(self, name, body, rcs=(0, 1, 2)):
        src = "__global__ void k(float *o, int n)\n{\n    __shared__ float s[64];\n" + body + \
              "    o[0] = s[threadIdx.x];\n}\n"
        p = self.write(name, src)
        return p, self.lint(p, rcs=rcs)

    def test_deep_parentheses(self):
        # libclang's parser thread used to overflow its 8 MiB stack here
        n = 10000
        p, (rc, doc, err) = self.deep("parens.cu", "    s[" + "(" * n + "threadIdx.x" + ")" * n + "] = 1;\n")
        self.assertTrue(any("bracket nesting" in m for m in self.notes(doc, p, problem="parse-error")),
                        doc["notifications"])

    def test_deep_expression_front_end(self):
        # a 10,000-deep tree without brackets: the front end's recursion
        p, (rc, doc, err) = self.deep("sum.cu", "    s[(threadIdx.x" + " + threadIdx.x" * 10000 + ") & 63] = 1;\n")
        self.assertTrue("nesting-too-deep" in self.ids(doc, p) or "nesting too deep" in err, doc["notifications"])

    def test_deep_unary_and_else_if(self):
        # 10,000 levels of clang's own parser recursion (host code: only
        # clang sees it), then a shorter chain the analysis walks
        p = self.write("host.cu", "int f(int n)\n{\n" +
                       "".join(f"    if (n == {i}) return {i}; else\n" for i in range(10000)) +
                       "    return 0;\n}\nint g(int n) { return " + "- " * 10000 + "n; }\n" + KERNEL)
        rc, doc, err = self.lint(p, rcs=(1,))
        self.expect_kernel_finding(doc, p, 10011)
        self.deep("unary.cu", "    s[" + "- " * 10000 + "(int)threadIdx.x & 63] = 1;\n")
        self.deep("elif.cu", "".join(f"    if (n == {i}) s[threadIdx.x] = {i}; else\n" for i in range(300)) +
                  "    s[0] = 0;\n")

    def test_long_assignment_chain(self):
        # the resolver builds a 10,000-deep index tree; the evaluator must cap it
        for name, stmt in (("chain_xor.cu", "a = (a ^ threadIdx.x) + 1;"), ("chain_add.cu", "a = a + 1;"),
                           ("chain_mul.cu", "a = a * 3 + threadIdx.x;")):
            body = "    unsigned a = threadIdx.x;\n" + f"    {stmt}\n" * 10000 + "    s[a & 63] = 1;\n"
            self.deep(name, body)

    def test_megabyte_macro_expansion(self):
        src = ('#define S0 "' + "x" * 1000 + '"\n' +
               "".join(f"#define S{i} S{i-1} S{i-1}\n" for i in range(1, 11)) +      # 1 MiB literal
               "__device__ const char big[] = S10;\n#define A0 (threadIdx.x * 2)\n" +
               "".join(f"#define A{i} (A{i-1} + A{i-1})\n" for i in range(1, 9)) +   # 256 leaves
               "__global__ void k(float *o) { __shared__ float s[64];\n"
               "    s[A8 & 63] = big[threadIdx.x]; o[0] = s[threadIdx.x]; }\n")
        p = self.write("macro.cu", src)
        self.lint(p, rcs=(1,))

    def test_array_dimensions(self):
        p = self.write("dims.cu", """
__global__ void over(float *o) {
    __shared__ double big[1LL << 40][1LL << 40];
    big[threadIdx.x][0] = 1; o[0] = big[0][threadIdx.x];
}
__global__ void wrap(float *o) {
    __shared__ char w[0x7fffffffffffffffLL];
    w[threadIdx.x * 4] = 1; o[0] = w[0];
}
__global__ void zero(float *o) {
    __shared__ float z[0];
    z[threadIdx.x] = 1; o[0] = z[0];
}
__global__ void neg(float *o) {
    __shared__ float n[-4];
    n[threadIdx.x] = 1; o[0] = n[0];
}
__global__ void fine(float *o) {
    __shared__ float f[64];
    f[threadIdx.x * 2 & 63] = 1; o[0] = f[threadIdx.x];
}
""")
        rc, doc, err = self.lint(p)
        self.assertIn((20, "bank-conflict"), [(r["line"], r["rule"]) for r in self.findings(doc, p)])

    def test_uninstantiated_template(self):
        p = self.write("tmpl.cu", "template <int N> __global__ void t(float *o)\n{\n    __shared__ float s[N];\n"
                       "    s[threadIdx.x * N % N] = 1; o[0] = s[threadIdx.x];\n}\n" + KERNEL)
        rc, doc, err = self.lint(p, rcs=(1,))
        self.assertEqual({r["kernel"] for r in self.findings(doc, p)}, {"k"})

    def test_code_that_does_not_parse(self):
        p = self.write("broken.cu", "__global__ void k(float *o { __shared__ float s[64]; s[threadIdx.x = ;\n"
                       "}}}} )))) #endif\ntemplate < < class\n" + KERNEL)
        rc, doc, err = self.lint(p)
        self.assertTrue(self.notes(doc, p, problem="parse-error"), "clang's errors must be reported for the file")

    def test_missing_include(self):
        p = self.write("inc.cu", '#include "does_not_exist.cuh"\n' + KERNEL)
        rc, doc, err = self.lint(p, rcs=(2,))  # an error, with partial results
        self.assertTrue(any("does_not_exist.cuh" in m for m in self.notes(doc, p, problem="parse-error")),
                        doc["notifications"])
        self.expect_kernel_finding(doc, p, 7)  # partial results: the kernel is still analyzed

    def test_symlink_loop(self):
        d = os.path.join(self.dir, "tree")
        os.makedirs(os.path.join(d, "sub"))
        self.write("tree/sub/a.cu", KERNEL)
        os.symlink("..", os.path.join(d, "sub", "up"))           # a loop back to an ancestor
        os.symlink("self.cu", os.path.join(d, "self.cu"))         # a link to itself
        rc, doc, err = self.lint(d, rcs=(1,))
        files = {r["file"] for r in doc["results"]}
        self.assertEqual(files, {os.path.join(d, "sub", "a.cu"), self.normal})
        selfp = os.path.join(d, "self.cu")
        rc, doc, err = self.lint(selfp, rcs=(2,))
        self.assert_error(doc, err, selfp, "cannot-read", "symbolic links")

    def test_odd_paths(self):
        os.makedirs(os.path.join(self.dir, "with space/dïr"))
        utf8 = self.write("with space/dïr/ker nel é.cu", KERNEL)
        latin1 = os.path.join(self.dir.encode(), b"caf\xe9 x.cu")   # not UTF-8
        with open(latin1, "w") as f:
            f.write(KERNEL)
        rc, doc, err = self.lint(utf8, os.fsdecode(latin1), rcs=(1,))
        self.expect_kernel_finding(doc, utf8, 6)
        shown = os.fsdecode(latin1).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        self.expect_kernel_finding(doc, shown, 6)
        # the directory walk finds both too
        rc, doc, err = self.lint(self.dir, rcs=(1,))
        self.assertEqual(len({r["file"] for r in doc["results"]}), 3)


class Limits(Base):
    def test_file_over_16_mib(self):
        p = os.path.join(self.dir, "huge.cu")
        with open(p, "w") as f:
            f.write(KERNEL)
            line = "// " + "x" * 1020 + "\n"
            f.write(line * (17 * 1024))
        rc, doc, err = self.lint(p, rcs=(2,))
        self.assert_error(doc, err, p, "file-too-large")

    def test_ir_memory_limit(self):
        body = "".join(f"    s[(threadIdx.x * {i % 7 + 1}) & 63] = {i};\n" for i in range(20000))
        p = self.write("big.cu", "__global__ void k(float *o)\n{\n    __shared__ float s[64];\n" + body + "}\n")
        rc, doc, err = self.lint(p, rcs=(1, 2), env={"SMEMLINT_TEST_ARENA_LIMIT": str(2 << 20)})
        self.assertTrue(self.ids(doc, p) & {"partial-results", "out-of-memory"}, doc["notifications"])
        # the limit is named when the results are partial
        self.assertTrue(all("needed more than 2 MiB" in m for m in self.notes(doc, p, problem="partial-results")))

    def test_ir_memory_limit_sweep(self):
        # exhausting the arena at many different points never crashes
        for lim in (70000, 110000, 160000, 230000, 330000):
            args = [SMEMLINT, *BASE, "-j2", "--format=json", CORPUS]
            rc, out, err = run(args, self.dir, env={"SMEMLINT_TEST_ARENA_LIMIT": str(lim)})
            self.assertIn(rc, (0, 1, 2), f"limit {lim}: {err[-2000:]}")
            self.assertNotIn("Sanitizer", err)
            json.loads(out)


class Writes(Base):
    def listing(self):
        return sorted(os.listdir(self.dir))

    def test_output_keeps_mode(self):
        out = self.write("report.txt", "old\n")
        os.chmod(out, 0o640)
        rc, _, err = run([SMEMLINT, *BASE, "-o", out, self.normal], self.dir)
        self.assertEqual(rc, 1, err)
        self.assertEqual(stat.S_IMODE(os.stat(out).st_mode), 0o640)
        with open(out) as f:
            self.assertIn(NORMAL, f.read())
        self.assertEqual(self.listing(), ["report.txt"])

    def fail_fsize(self):
        # RLIMIT_FSIZE of 1 KiB: the report's write fails with EFBIG (SIGXFSZ is ignored)
        import resource
        resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))

    def check_intact(self, path, before, rc, err, why):
        self.assertEqual(rc, 2, err)
        self.assertIn(f"cannot write '{path}'", err)
        self.assertIn(why, err)
        with open(path, "rb") as f:
            self.assertEqual(f.read(), before)
        strays = [n for n in self.listing() if ".tmp." in n]
        self.assertEqual(strays, [], "temporary files left behind")

    def test_output_full_disk(self):
        out = self.write("report.json", "ORIGINAL\n")
        rc, _, err = run([SMEMLINT, *BASE, "--format=json", "-o", out, self.normal], self.dir,
                         preexec=self.fail_fsize)
        self.check_intact(out, b"ORIGINAL\n", rc, err, "File too large")

    def test_output_fail_hook(self):
        out = self.write("report.txt", "ORIGINAL\n")
        rc, _, err = run([SMEMLINT, *BASE, "-o", out, self.normal], self.dir, env={"SMEMLINT_TEST_FAIL_WRITE": "1"})
        self.check_intact(out, b"ORIGINAL\n", rc, err, "Input/output error")

    def test_fix_full_disk(self):
        src = os.path.join(self.dir, NORMAL)
        shutil.copy(self.normal, src)
        shutil.copy(os.path.join(CORPUS, "common.cuh"), self.dir)
        with open(src, "rb") as f:
            before = f.read()
        self.assertGreater(len(before), 1024)
        rc, _, err = run([SMEMLINT, *BASE, "--fix", src], self.dir, preexec=self.fail_fsize)
        self.check_intact(src, before, rc, err, "File too large")

    def test_write_baseline_full_disk(self):
        bl = self.write("baseline.json", "ORIGINAL\n")
        rc, _, err = run([SMEMLINT, *BASE, "--write-baseline", bl, CORPUS], self.dir, preexec=self.fail_fsize)
        self.check_intact(bl, b"ORIGINAL\n", rc, err, "File too large")


    def test_cache_full_disk(self):
        # libclang aborts the process when a PCH write fails: the cache must
        # not start one without room (here: ulimit -f 1 MiB, a PCH is ~10 MiB)
        toolkit = os.environ.get("CUDA_PATH") or "/usr/local/cuda"
        if not os.path.exists(os.path.join(toolkit, "include", "cuda_runtime.h")):
            self.skipTest("no CUDA toolkit: the header cache is only used with one")
        import resource
        cache = os.path.join(self.dir, "cache")
        os.mkdir(cache)
        pre = lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
        rc, out, err = run([SMEMLINT, "--format=json", self.normal], self.dir, env={"XDG_CACHE_HOME": cache},
                           preexec=pre)
        self.assertEqual(rc, 1, err[-2000:])
        self.assertTrue(self.findings(json.loads(out), self.normal))
        left = [os.path.join(r, f) for r, _, fs in os.walk(cache) for f in fs]
        self.assertEqual(left, [], "partial cache files left behind")


class Determinism(Base):
    def test_three_runs_identical(self):
        for fmt in ("text", "json"):
            outs = set()
            for j in ("-j1", "-j2", "-j2"):
                rc, out, err = run([SMEMLINT, *BASE, f"--format={fmt}", j, CORPUS], self.dir)
                self.assertEqual(rc, 1, err)
                outs.add(out)
            self.assertEqual(len(outs), 1, f"{fmt} output differs between runs")


if __name__ == "__main__":
    unittest.main()
