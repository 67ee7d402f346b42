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
import json, os, shutil, signal, stat, subprocess, sys, tempfile, time, unittest
from tooling import cuda_toolkit, nobody_or_skip, require

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
        # root reads anything: drop to nobody for this run
        preexec = nobody_or_skip(self, SMEMLINT, self.normal) if os.geteuid() == 0 else None
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
        # a warning naming the header, with partial results: the kernel,
        # which needs nothing from it, is still analyzed; its finding exits 1
        rc, doc, err = self.lint(p, rcs=(1,))
        self.assertTrue(any("does_not_exist.cuh" in m for m in self.notes(doc, p, problem="missing-header")),
                        doc["notifications"])
        self.assertFalse(self.notes(doc, p, problem="parse-error"), "the header's errors are folded into one warning")
        self.expect_kernel_finding(doc, p, 7)
        # asked for, the same file fails the run, with the same partial results
        rc, doc, err = self.lint(p, extra=("--fail-on-missing-headers",), rcs=(2,))
        self.expect_kernel_finding(doc, p, 7)

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

    def test_signal_during_run_keeps_previous_output(self):
        # issue 24: a CI cancel (SIGTERM, SIGINT, SIGHUP) or SIGKILL while
        # -o is being written stops the run at once, leaves no temporary,
        # and leaves the previous report as it was
        try:
            os.close(os.open(self.dir, os.O_TMPFILE | os.O_WRONLY, 0o600))
        except OSError as e:
            self.skipTest(f"the file system has no O_TMPFILE ({e}): the named temporary holds signals instead")
        many = os.path.join(self.dir, "many")
        os.mkdir(many)
        shutil.copy(os.path.join(CORPUS, "common.cuh"), many)
        for i in range(40):
            shutil.copy(self.normal, os.path.join(many, f"k{i}.cu"))
        out = self.write("report.json", "previous\n")
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGKILL):
            p = subprocess.Popen([SMEMLINT, *BASE, "-j1", "--format=json", "-o", out, many], cwd=self.dir,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(1.0)
            self.assertIsNone(p.poll(), "the run ended before the signal")
            t = time.monotonic()
            p.send_signal(sig)
            p.wait(timeout=30)
            self.assertLess(time.monotonic() - t, 1.0, f"{sig!r}: did not stop within a second")
            self.assertEqual(p.returncode, -sig, sig)
            with open(out) as f:
                self.assertEqual(f.read(), "previous\n", sig)
            self.assertEqual([f for f in os.listdir(self.dir) if "tmp" in f], [], sig)

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
        toolkit_or_skip(self)
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
                # the bundled header has no CUB or libcu++: the corpus
                # files built on them are left out (--exclude)
                rc, out, err = run([SMEMLINT, *BASE, "--exclude", "idiom_cub.cu", "--exclude", "async_libcu.cu",
                                    "--exclude", "async_bulk.cu", "--exclude", "async_bulk_store_lib.cu",
                                    "--exclude", "async_bulk_ptx.cu", "--exclude", "tma_tensor.cu",
                                    f"--format={fmt}", j, CORPUS], self.dir)
                self.assertEqual(rc, 1, err)
                outs.add(out)
            self.assertEqual(len(outs), 1, f"{fmt} output differs between runs")


# ---- issue 16: hostile file systems, special files, links, configs ----

def as_root():
    return os.geteuid() == 0


class Targets(Base):
    """-o, --html and --write-baseline never replace what is not a regular
    file, write a link's target, keep owner and mode; stdout errors are
    exit 2 with a message."""

    def listing(self):
        return sorted(os.listdir(self.dir))

    def report(self, *extra):
        rc, out, err = run([SMEMLINT, *BASE, *extra, self.normal], self.dir)
        self.assertEqual(rc, 1, err)
        return out

    def test_fifo_gets_the_report(self):
        import threading
        fifo = os.path.join(self.dir, "pipe")
        os.mkfifo(fifo)
        got = []
        def reader():
            with open(fifo, "rb") as f:
                got.append(f.read())
        t = threading.Thread(target=reader)
        t.start()
        rc, _, err = run([SMEMLINT, *BASE, "-o", fifo, self.normal], self.dir, timeout=120)
        t.join(60)
        self.assertEqual(rc, 1, err)
        self.assertTrue(stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO was replaced")
        self.assertEqual(got, [self.report()], "the FIFO's reader did not get the report")

    def test_device_is_written_in_place(self):
        dev = os.path.join(self.dir, "null")
        try:
            os.mknod(dev, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a /dev/null of our own
        except PermissionError:
            self.skipTest("mknod needs root (CAP_MKNOD): a device node of our own is the safe test")
        for opt in ("-o", "--html", "--write-baseline"):
            rc, _, err = run([SMEMLINT, *BASE, opt, dev, self.normal], self.dir)
            self.assertIn(rc, (0, 1), err)
            self.assertTrue(stat.S_ISCHR(os.lstat(dev).st_mode), f"{opt} replaced the device node")
        self.assertEqual(self.listing(), ["null"])

    def test_link_to_stdout(self):
        # our own link to /dev/stdout (never the system's): the report goes
        # to the descriptor and the link stays
        link = os.path.join(self.dir, "out")
        os.symlink("/dev/stdout", link)
        rc, out, err = run([SMEMLINT, *BASE, "-o", link, self.normal], self.dir)
        self.assertEqual(rc, 1, err)
        self.assertTrue(os.path.islink(link))
        self.assertEqual(out, self.report())

    def test_symlink_target_is_written(self):
        real = self.write("real.txt", "old\n")
        link = os.path.join(self.dir, "link.txt")
        os.symlink("real.txt", link)
        os.chmod(real, 0o600)
        rc, _, err = run([SMEMLINT, *BASE, "-o", link, self.normal], self.dir)
        self.assertEqual(rc, 1, err)
        self.assertTrue(os.path.islink(link), "the link was replaced by a file")
        with open(real, "rb") as f:
            self.assertEqual(f.read(), self.report())
        self.assertEqual(stat.S_IMODE(os.stat(real).st_mode), 0o600)
        self.assertEqual(self.listing(), ["link.txt", "real.txt"])

    def test_directory_and_dangling_link_refused(self):
        d = os.path.join(self.dir, "adir")
        os.mkdir(d)
        rc, _, err = run([SMEMLINT, *BASE, "--html", d, self.normal], self.dir)
        self.assertEqual(rc, 2, err)
        self.assertIn(f"cannot write '{d}': it is a directory", err)
        self.assertEqual(os.listdir(d), [])
        dangling = os.path.join(self.dir, "dangling")
        os.symlink("nowhere/x", dangling)
        rc, _, err = run([SMEMLINT, *BASE, "-o", dangling, self.normal], self.dir)
        self.assertEqual(rc, 2, err)
        self.assertIn("symbolic link to a missing file", err)
        self.assertTrue(os.path.islink(dangling))

    def test_read_only_refused(self):
        out = self.write("report.txt", "KEEP\n")
        os.chmod(out, 0o444)
        rc, _, err = run([SMEMLINT, *BASE, "--write-baseline", out, self.normal], self.dir)
        self.assertEqual(rc, 2, err)
        self.assertIn(f"'{out}' is read-only (mode 0444)", err)
        with open(out) as f:
            self.assertEqual(f.read(), "KEEP\n")

    def test_longest_name(self):
        name = "r" * 255  # NAME_MAX: the temporary must fit too
        rc, _, err = run([SMEMLINT, *BASE, "-o", name, self.normal], self.dir)
        self.assertEqual(rc, 1, err)
        self.assertEqual(self.listing(), [name])

    def test_owner_is_kept(self):
        if not as_root():
            self.skipTest("changing a file's owner needs root")
        out = self.write("report.txt", "old\n")
        os.chown(out, 65534, 65534)
        rc, _, err = run([SMEMLINT, *BASE, "-o", out, self.normal], self.dir)
        self.assertEqual(rc, 1, err)
        st = os.stat(out)
        self.assertEqual((st.st_uid, st.st_gid), (65534, 65534))

    def stdout_error(self, stdout, why, args=("--format=text",), preexec=None):
        p = subprocess.run([SMEMLINT, *BASE, *args, self.normal], cwd=self.dir, stdout=stdout,
                           stderr=subprocess.PIPE, preexec_fn=preexec, timeout=300)
        err = p.stderr.decode()
        self.assertEqual(p.returncode, 2, err)
        self.assertIn("cannot write", err)
        self.assertIn("standard output", err)
        self.assertIn(why, err)

    def test_stdout_full(self):
        for fmt in ("text", "json", "sarif", "github"):
            with open("/dev/full", "wb") as full:
                self.stdout_error(full, "No space left on device", (f"--format={fmt}",))
        with open("/dev/full", "wb") as full:
            self.stdout_error(full, "No space left on device", ("--list-rules",))

    def test_stdout_closed(self):
        self.stdout_error(subprocess.PIPE, "Bad file descriptor", preexec=lambda: os.close(1))

    def test_stdout_broken_pipe(self):
        r, w = os.pipe()
        os.close(r)
        try:
            self.stdout_error(w, "Broken pipe")
        finally:
            os.close(w)

    def test_stdout_file_size_limit(self):
        import resource
        with open(os.path.join(self.dir, "out.txt"), "wb") as f:
            self.stdout_error(f, "File too large", ("--format=sarif",),
                              preexec=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024)))


    def test_values_starting_with_dash(self):
        # an option's value is the next argument whatever it starts with
        # (issue 16: names starting with '-')
        want = self.report("--format=json")
        rc, out, err = run([SMEMLINT, *BASE, "--format=json", "-o", "-r.json", "--html", "-x.html",
                            "--write-baseline", "-b.json", self.normal], self.dir)
        self.assertEqual((rc, out), (0, b""), err)  # 0: --write-baseline records the findings
        self.assertEqual(self.listing(), ["-b.json", "-r.json", "-x.html"])
        with open(os.path.join(self.dir, "-r.json"), "rb") as f:
            self.assertEqual(f.read(), want)
        with open(os.path.join(self.dir, "-b.json")) as f:
            self.assertTrue(json.load(f)["findings"])
        with open(os.path.join(self.dir, "-x.html")) as f:
            self.assertIn("<html", f.read(4096).lower())
        rc, _, err = run([SMEMLINT, *BASE, "--format=json", "--output=-s.json", self.normal], self.dir)
        self.assertEqual(rc, 1, err)
        with open(os.path.join(self.dir, "-s.json"), "rb") as f:
            self.assertEqual(f.read(), want)


class Flags(Base):
    """No fixed argv arrays: every flag reaches clang."""

    def test_ten_thousand_flags(self):
        src = KERNEL.replace("(threadIdx.x * 2)", "(threadIdx.x * LAST_STRIDE)")
        p = self.write("many.cu", src)
        flags = [f"-DF{i}={i}" for i in range(9999)] + ["-DLAST_STRIDE=2"]
        rc, out, err = run([SMEMLINT, *BASE, "--format=json", p, "--", *flags], self.dir)
        self.assertEqual(rc, 1, err[-2000:])
        self.assertEqual([(r["line"], r["rule"]) for r in json.loads(out)["results"]], [(6, "bank-conflict")])
        rc, out, err = run([SMEMLINT, *BASE, "--print-clang-args", p, "--", *flags], self.dir)
        self.assertEqual(rc, 0, err)
        args = json.loads(out)[0]["arguments"]
        self.assertEqual(args[-len(flags):], flags)

    def test_compile_database_with_many_flags(self):
        src = KERNEL.replace("(threadIdx.x * 2)", "(threadIdx.x * LAST_STRIDE)")
        p = self.write("db.cu", src)
        args = ["nvcc"] + [f"-DF{i}={i}" for i in range(9999)] + ["-DLAST_STRIDE=2", "-c", p]
        with open(os.path.join(self.dir, "compile_commands.json"), "w") as f:
            json.dump([{"directory": self.dir, "file": p, "arguments": args}], f)
        rc, out, err = run([SMEMLINT, *BASE, "--format=json", "-p", self.dir, p], self.dir)
        self.assertEqual(rc, 1, err[-2000:])
        self.assertEqual([r["line"] for r in json.loads(out)["results"]], [6])


class Special(Base):
    """FIFOs and devices never hang a run; link DAGs and duplicate inputs
    are analyzed once; what cannot be walked is named."""

    def test_fifo_input(self):
        fifo = os.path.join(self.dir, "x.cu")
        os.mkfifo(fifo)
        rc, doc, err = self.lint(fifo, rcs=(2,))
        self.assert_error(doc, err, fifo, "not-regular-file", "a FIFO")

    def test_device_input(self):
        link = os.path.join(self.dir, "zero.cu")
        os.symlink("/dev/zero", link)   # would be read forever, past any size limit
        rc, doc, err = self.lint(link, rcs=(2,))
        self.assert_error(doc, err, link, "not-regular-file", "a character device")

    def test_fifo_in_a_walk(self):
        d = os.path.join(self.dir, "tree")
        os.mkdir(d)
        os.mkfifo(os.path.join(d, "a.cu"))
        b = self.write("tree/b.cu", KERNEL)
        rc, doc, err = self.lint(d, rcs=(1,))
        self.assertEqual({r["file"] for r in doc["results"]}, {b, self.normal})

    def test_fifo_config(self):
        d = os.path.join(self.dir, "proj")
        os.mkdir(d)
        os.mkfifo(os.path.join(d, ".smemlint.yaml"))
        p = self.write("proj/k.cu", KERNEL)
        rc, out, err = run([SMEMLINT, *BASE, p], self.dir, timeout=60)
        self.assertEqual(rc, 2, err)
        self.assertIn(f"{d}/.smemlint.yaml", err)
        self.assertIn("a FIFO, not a regular file", err)
        rc, out, err = run([SMEMLINT, *BASE, "--config", os.path.join(d, ".smemlint.yaml"), p], self.dir,
                           timeout=60)
        self.assertEqual(rc, 2, err)

    def test_fifo_compile_database(self):
        # -p with a FIFO as compile_commands.json: an error naming it, no hang
        d = os.path.join(self.dir, "build")
        os.mkdir(d)
        os.mkfifo(os.path.join(d, "compile_commands.json"))
        p = self.write("k.cu", KERNEL)
        rc, out, err = run([SMEMLINT, *BASE, "-p", d, p], self.dir, timeout=60)
        self.assertEqual(rc, 2, err)
        self.assertIn(f"{d}/compile_commands.json", err)
        self.assertIn("a FIFO, not a regular file", err)

    def test_fifo_response_file(self):
        # @flags.rsp a FIFO, in a compile database's command and under
        # --launcher (where a hang would stop the build): the flags are
        # missing, the file is named, nothing blocks
        os.mkfifo(os.path.join(self.dir, "flags.rsp"))
        p = self.write("k.cu", KERNEL)
        d = os.path.join(self.dir, "build")
        os.mkdir(d)
        with open(os.path.join(d, "compile_commands.json"), "w") as fh:
            json.dump([{"directory": self.dir, "file": p, "command": f"nvcc @flags.rsp -c {p}"}], fh)
        rc, out, err = run([SMEMLINT, *BASE, "-p", d, p], self.dir, timeout=60)
        self.assertIn(rc, (1, 2), err)
        self.assertIn("flags.rsp': it is a FIFO, not a regular file", out.decode("utf-8", "replace") + err)
        rc, out, err = run([SMEMLINT, *BASE, "--launcher", "--", "true", "@flags.rsp", "-c", p], self.dir, timeout=60)
        self.assertEqual(rc, 0, err)  # the command's status: true
        self.assertIn("flags.rsp': it is a FIFO, not a regular file", err)

    def test_symlink_dag(self):
        # 18 levels of two links each: 262,144 paths to one file
        d = os.path.join(self.dir, "dag")
        os.makedirs(os.path.join(d, "l0"))
        self.write("dag/l0/a.cu", KERNEL)
        for i in range(1, 19):
            os.mkdir(os.path.join(d, f"l{i}"))
            for n in "ab":
                os.symlink(f"../l{i - 1}", os.path.join(d, f"l{i}", n))
        import time
        t = time.monotonic()
        rc, doc, err = self.lint(os.path.join(d, "l18"), rcs=(1,))
        self.assertLess(time.monotonic() - t, 60)
        files = [r["file"] for r in doc["results"] if r["file"] != self.normal]
        self.assertEqual(len(files), 1, files[:5])

    def test_duplicate_inputs(self):
        p = self.write("a.cu", KERNEL)
        os.link(p, os.path.join(self.dir, "hard.cu"))
        os.symlink("a.cu", os.path.join(self.dir, "soft.cu"))
        rc, doc, err = self.lint(p, "./a.cu", "hard.cu", "soft.cu", self.dir, rcs=(1,))
        self.assertEqual([r["file"] for r in doc["results"] if r["file"] != self.normal], [p])

    def test_unreadable_directory(self):
        d = os.path.join(self.dir, "tree")
        os.makedirs(os.path.join(d, "locked"))
        ok = self.write("tree/ok.cu", KERNEL)
        self.write("tree/locked/hidden.cu", KERNEL)
        os.chmod(os.path.join(d, "locked"), 0)
        preexec = nobody_or_skip(self, SMEMLINT, self.normal, ok) if as_root() else None
        rc, doc, err = self.lint(d, rcs=(2,), preexec=preexec)
        self.assertIn(f"cannot read directory '{d}/locked': Permission denied", err)
        self.assertEqual({r["file"] for r in doc["results"]}, {ok, self.normal})

    def test_too_deep(self):
        d = os.path.join(self.dir, "deep")
        deep = os.path.join(d, *(["d"] * 300))
        os.makedirs(deep)
        shutil.copy(os.path.join(self.dir, "..", "transpose.cu"), deep)
        top = self.write("deep/top.cu", KERNEL)
        rc, out, err = run([SMEMLINT, *BASE, "--format=sarif", d], self.dir)
        self.assertEqual(rc, 2, err)
        self.assertIn("nested more than 256 directories deep; it was not walked", err)
        run_ = json.loads(out)["runs"][0]
        ids = [n["descriptor"]["id"] for n in run_["invocations"][0]["toolExecutionNotifications"]]
        self.assertEqual(ids, ["cannot-walk"])
        self.assertTrue(any(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("top.cu")
                            for r in run_["results"]))


    def test_input_named_with_dash(self):
        # an argument starting with '-' is never taken as a path ('--'
        # starts the compiler flags), so that an option added later
        # cannot change what a command means; when a file has that name,
        # the error says how to write it
        self.write("-k.cu", KERNEL)
        rc, out, err = run([SMEMLINT, *BASE, "-k.cu", self.normal], self.dir)
        self.assertEqual((rc, out), (2, b""), err)
        self.assertIn("unknown option '-k.cu' (to analyze the file of that name, write './-k.cu')", err)
        rc, out, err = run([SMEMLINT, *BASE, "-nosuch.cu", self.normal], self.dir)
        self.assertEqual(rc, 2, err)
        self.assertIn("unknown option '-nosuch.cu' (see --help)", err)
        rc, out, err = run([SMEMLINT, *BASE, "--format=json", "./-k.cu"], self.dir)
        self.assertEqual(rc, 1, err)
        self.assertEqual([(r["file"], r["line"]) for r in json.loads(out)["results"]], [("./-k.cu", 6)])
        # a list on standard input takes any name; one starting with '-' is
        # read as it is written on the command line (clang would take it
        # for an option)
        e = dict(os.environ)
        p = subprocess.run([SMEMLINT, *BASE, "--format=json", "-"], cwd=self.dir, env=e, input=b"-k.cu\n",
                           capture_output=True)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertEqual([(r["file"], r["line"]) for r in json.loads(p.stdout)["results"]], [("./-k.cu", 6)])


class Names(Base):
    """A file name (or source line) with control characters cannot forge a
    line of its own in the text report or on stderr (a GitHub workflow
    command such as ::error, read from any line of a CI log) nor reach the
    terminal (ESC): they are written as \\xNN (issue 24)."""

    def test_control_characters_escaped(self):
        race = ("__global__ void k(float *o)\n{\n\t__shared__ float s[64];\n\ts[threadIdx.x] = o[threadIdx.x];\n"
                "\to[threadIdx.x] = s[63 - threadIdx.x]; // \x1b[2J\n}\nvoid run(float *o) { k<<<1, 64>>>(o); }\n")
        name = "a\n::error title=forged::pwned\x1b[31m\r.cu"
        self.write(name, race)
        self.write("b\n::warning::x.cu", "__global__ void broken( {\n")
        for fmt in ("text", "github"):
            rc, out, err = run([SMEMLINT, *BASE, f"--format={fmt}", "."], self.dir)
            self.assertEqual(rc, 2, err)
            text = out.decode("utf-8", "replace")
            for stream in (text, err):
                for line in stream.splitlines():
                    self.assertFalse(line.startswith("::error title=forged") or line.startswith("::warning::x"),
                                     (fmt, line))
                self.assertNotIn("\x1b", stream, fmt)
                self.assertNotIn("\r", stream, fmt)
        rc, out, err = run([SMEMLINT, *BASE, "."], self.dir)
        self.assertIn("a\\x0a::error title=forged::pwned\\x1b[31m\\x0d.cu:5:", out.decode())

    def test_html_is_valid_for_any_byte(self):
        # control bytes in a name and in a quoted source line, bytes that are
        # not UTF-8: the HTML report is UTF-8 with no control character
        race = ("__global__ void k(float *o)\n{\n\t__shared__ float s[64];\n"
                "\ts[2 * threadIdx.x] = o[0]; /* \x1b[2J */\n\to[1] = s[0];\n}\n")
        p = self.write("h\x1b[31m\x07.cu", race)
        with open(p, "ab") as f:
            f.write(b"// \xff\xfe\xc0\x80 not UTF-8\n")
        html = os.path.join(self.dir, "r.html")
        rc, out, err = run([SMEMLINT, *BASE, "--html", html, p], self.dir)
        self.assertEqual(rc, 1, err)
        with open(html, "rb") as f:
            doc = f.read()
        doc.decode("utf-8")  # raises on bytes that are not UTF-8
        self.assertEqual([b for b in set(doc) if b < 0x20 and b not in (9, 10, 13)], [])
        self.assertIn(b"h\\x1B[31m\\x07.cu", doc)


class Configs(Base):
    """.smemlint.yaml is bounded and, when found by walking up, trusted only
    when no other user could have planted it."""

    def proj(self, config, mode=0o755):
        d = os.path.join(self.dir, "proj")
        os.mkdir(d)
        os.chmod(d, mode)
        with open(os.path.join(d, ".smemlint.yaml"), "w") as f:
            f.write(config)
        return d, self.write("proj/k.cu", KERNEL)

    def test_alias_bomb(self):
        import resource
        big = "x" * 8000
        d, p = self.proj('flags: [&a "-D' + big + '", ' + ", ".join(["*a"] * 100000) + "]\n")
        rc, out, err = run([SMEMLINT, *BASE, p], self.dir, timeout=120)
        self.assertEqual(rc, 2, err[-2000:])
        self.assertIn(f"invalid config '{d}/.smemlint.yaml': more than 1000 YAML aliases", err)
        # fewer aliases, each long: the expanded size is bounded
        with open(os.path.join(d, ".smemlint.yaml"), "w") as f:
            f.write('flags: [&a "-D' + big + '", ' + ", ".join(["*a"] * 900) + "]\n")
        rc, out, err = run([SMEMLINT, *BASE, p], self.dir, timeout=120)
        self.assertEqual(rc, 2, err[-2000:])
        self.assertIn("the settings expand to more than 1048576 bytes", err)
        self.assertLess(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, 1 << 20, "over 1 GiB")

    def test_header_filter_cannot_explode(self):
        # issue 24: a 30-byte header-filter in a checkout's config took
        # 14.5 GB in regcomp; a back-reference makes matching exponential;
        # repeats of an empty match square the compile time (the fuzzer's
        # `a?+++++++++++`: 2.6 s, 20 s under ASan).
        # Both are refused before regcomp, naming the file and the reason,
        # in bounded time and memory; an ordinary filter still works.
        import resource
        for pattern, why in (("a{1,255}{1,255}{1,255}", "expand it to more than 10000 states"),
                             ("(a*)*\\1", "back-reference"),
                             ("a?+++++++++++", "repeats a part that can match the empty string"),
                             ("x" * 1100, "longer than 1024 bytes")):
            d, p = self.proj(f"header-filter: '{pattern}'\n")
            t = time.monotonic()
            rc, out, err = run([SMEMLINT, *BASE, p], self.dir, timeout=60)
            self.assertEqual(rc, 2, err[-2000:])
            self.assertIn(f"{d}/.smemlint.yaml", err)
            self.assertIn(why, err)
            self.assertLess(time.monotonic() - t, 20)
            shutil.rmtree(d)
        self.assertLess(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, 1 << 20, "over 1 GiB")
        d, p = self.proj("header-filter: '(/include/|/src/).*[.]cuh$'\n")
        rc, out, err = run([SMEMLINT, *BASE, p], self.dir, timeout=60)
        self.assertEqual(rc, 1, err)

    def test_config_flags_cannot_write_files(self):
        # issue 24: a checkout's flags reach libclang only when they change
        # what is parsed; those that write files (dependency files, -MJ,
        # -Xclang dumps, module caches) are refused, nothing is written
        victim = os.path.join(self.dir, "victim")
        for flags in (f"[-MD, -MF, {victim}]", f"[-MJ, {victim}]", f"['-MJ{victim}']",
                      f"[-Xclang, -dependency-dot, -Xclang, {victim}]", f"[-fmodules-cache-path={victim}]",
                      f"[-ftime-trace, -ftime-trace-granularity=0]", f"[-x, c++]", f"['-Wl,-o,{victim}']"):
            d, p = self.proj(f"flags: {flags}\n")
            rc, out, err = run([SMEMLINT, *BASE, p], self.dir)
            self.assertEqual(rc, 2, (flags, err))
            self.assertIn("is not allowed in a config's flags", err, flags)
            self.assertFalse(os.path.exists(victim), flags)
            shutil.rmtree(d)
        # the flags that change what is parsed still work
        d, p = self.proj("flags: [-I, inc, -DTILE=32, -std=c++17, -Wno-unused, -fno-exceptions, -x, cuda]\n")
        rc, out, err = run([SMEMLINT, *BASE, p], self.dir)
        self.assertIn(rc, (0, 1), err)

    def test_config_too_large(self):
        d, p = self.proj("# " + "x" * (2 << 20) + "\n")
        rc, out, err = run([SMEMLINT, *BASE, p], self.dir)
        self.assertEqual(rc, 2, err)
        self.assertIn("larger than 1048576 bytes", err)

    def test_world_writable_directory(self):
        d, p = self.proj("disable: [bank-conflict]\n", mode=0o777)
        rc, out, err = run([SMEMLINT, *BASE, p], self.dir)
        self.assertEqual(rc, 1, err)   # the planted config did not turn linting off
        self.assertIn(f"warning: ignoring config '{os.path.realpath(d)}/.smemlint.yaml': its directory", err)
        self.assertIn("is writable by every user", err)
        os.chmod(d, 0o1777)            # the sticky bit: only the owner can replace it
        rc, out, err = run([SMEMLINT, *BASE, p], self.dir)
        self.assertEqual(rc, 0, err)
        self.assertNotIn("ignoring config", err)

    def test_other_owner(self):
        if not as_root():
            self.skipTest("a file of another user needs root to make")
        d, p = self.proj("disable: [bank-conflict]\n")
        os.chown(os.path.join(d, ".smemlint.yaml"), 65534, 65534)
        rc, out, err = run([SMEMLINT, *BASE, p], self.dir)
        self.assertEqual(rc, 1, err)
        self.assertIn("it belongs to another user (uid 65534)", err)
        os.chown(os.path.join(d, ".smemlint.yaml"), 0, 0)
        os.chown(d, 65534, 65534)
        rc, out, err = run([SMEMLINT, *BASE, p], self.dir)
        self.assertEqual(rc, 1, err)
        self.assertIn("belongs to another user (uid 65534)", err)


class FixSafety(Base):
    """--fix writes the real file, keeps links, owner and mode, refuses what
    it must not replace, and loses no edit made while it runs."""

    def setUp(self):
        super().setUp()
        self.src = os.path.join(self.dir, NORMAL)
        shutil.copy(self.normal, self.src)
        shutil.copy(os.path.join(CORPUS, "common.cuh"), self.dir)
        with open(self.src, "rb") as f:
            self.before = f.read()

    def fix(self, path, env=None):
        return run([SMEMLINT, *BASE, "--fix", path], self.dir, env=env)

    def content(self, p=None):
        with open(p or self.src, "rb") as f:
            return f.read()

    def test_symlink_fixes_the_real_file(self):
        link = os.path.join(self.dir, "link.cu")
        os.symlink(NORMAL, link)
        rc, _, err = self.fix(link)
        self.assertIn(rc, (0, 1), err)
        self.assertIn("fixed:", err)
        self.assertTrue(os.path.islink(link), "the link became a copy")
        self.assertNotEqual(self.content(), self.before, "the real file was not fixed")
        self.assertNotIn(".tmp.", "".join(os.listdir(self.dir)))

    def test_hard_link_kept(self):
        # issue 16: both names still share one file, and both see the fix
        other = os.path.join(self.dir, "other.cu")
        os.link(self.src, other)
        os.chmod(self.src, 0o640)
        rc, _, err = self.fix(self.src)
        self.assertIn(rc, (0, 1), err)
        self.assertIn("fixed:", err)
        self.assertEqual(os.stat(self.src).st_ino, os.stat(other).st_ino, "the hard links were split")
        self.assertEqual(os.stat(self.src).st_nlink, 2)
        self.assertNotEqual(self.content(), self.before, "the file was not fixed")
        with open(other, "rb") as f:
            self.assertEqual(f.read(), self.content())
        self.assertEqual(stat.S_IMODE(os.stat(self.src).st_mode), 0o640)
        self.assertEqual(sorted(os.listdir(self.dir)), sorted(["common.cuh", "other.cu", os.path.basename(self.src)]))

    def test_hard_link_failed_write_restores(self):
        # the in-place rewrite fails after its checks: the original text is back
        other = os.path.join(self.dir, "other.cu")
        os.link(self.src, other)
        rc, _, err = run([SMEMLINT, *BASE, "--fix", self.src], self.dir, env={"SMEMLINT_TEST_FAIL_IN_PLACE": "1"})
        self.assertEqual(rc, 2, err)
        self.assertIn("its original text was put back", err)
        self.assertEqual(self.content(), self.before)
        self.assertEqual(os.stat(self.src).st_ino, os.stat(other).st_ino)
        self.assertEqual(sorted(os.listdir(self.dir)), sorted(["common.cuh", "other.cu", os.path.basename(self.src)]))

    def test_read_only_refused(self):
        os.chmod(self.src, 0o444)
        rc, _, err = self.fix(self.src)
        self.assertEqual(rc, 2, err)
        self.assertIn("is read-only (mode 0444)", err)
        self.assertEqual(self.content(), self.before)
        self.assertEqual(stat.S_IMODE(os.stat(self.src).st_mode), 0o444)

    def test_owner_and_mode_kept(self):
        if not as_root():
            self.skipTest("a file of another user needs root to make")
        os.chown(self.src, 65534, 65534)
        os.chmod(self.src, 0o664)
        rc, _, err = self.fix(self.src)
        self.assertIn(rc, (0, 1), err)
        st = os.stat(self.src)
        self.assertEqual((st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)), (65534, 65534, 0o664))
        self.assertNotEqual(self.content(), self.before)

    def test_edit_just_before_the_rename(self):
        rc, _, err = self.fix(self.src, env={"SMEMLINT_TEST_EDIT_BEFORE_RENAME": "// saved by an editor\n"})
        self.assertEqual(rc, 2, err)
        self.assertIn("changed while it was being fixed; not fixing it", err)
        self.assertEqual(self.content(), self.before + b"// saved by an editor\n")
        self.assertNotIn(".tmp.", "".join(os.listdir(self.dir)))

    def test_duplicate_inputs_fixed_once(self):
        rc, _, err = run([SMEMLINT, *BASE, "--fix", self.src, "./" + NORMAL], self.dir)
        self.assertIn(rc, (0, 1), err)
        self.assertEqual(err.count("fixed:"), 1, err)


class ReportSize(Base):
    """A long line is quoted as a window around the caret: the report is
    linear in its findings, not quadratic in the line's length."""

    def test_one_line_file(self):
        n = 600
        body = "".join(f"s[(threadIdx.x * 2 + {i}) & 1023] = {i}; " for i in range(n))
        p = self.write("oneline.cu", "__global__ void k(float *o) { __shared__ float s[1024]; " + body + "o[0] = s[0]; }")
        self.assertGreater(os.path.getsize(p), 20000)
        html = os.path.join(self.dir, "r.html")
        # every finding (--all-findings): past 50 of one cause they fold
        rc, out, err = run([SMEMLINT, *BASE, "--all-findings", "--html", html, p], self.dir)
        self.assertEqual(rc, 1, err[-2000:])
        lines = out.decode().splitlines()
        findings = [l for l in lines if l.startswith(p + ":1:") and "[bank-conflict]" in l]
        self.assertGreaterEqual(len(findings), n)
        quoted = [l for i, l in enumerate(lines) if i and lines[i - 1] in findings]
        self.assertEqual(len(quoted), len(findings))
        self.assertLessEqual(max(len(l.encode()) for l in quoted), 2 + 3 + 200 + 3)
        self.assertTrue(all("s[(threadIdx.x * 2" in l for l in quoted[:50]), quoted[:3])
        # the caret still points at the access: under its first character
        for q, c in zip(quoted[:50], [lines[i + 2] for i, l in enumerate(lines) if l in findings][:50]):
            self.assertEqual(q[c.index("^")], "s", (q, c))
        per_finding = len(out) / len(findings)
        self.assertLess(per_finding, 1000, "the text report is not linear in its findings")
        import re
        with open(html, encoding="utf-8") as f:
            pres = re.findall(r'<pre class="src">.*?</pre>', f.read())
        self.assertGreaterEqual(len(pres), n)
        self.assertLess(max(len(x) for x in pres), 2000, "the HTML quotes whole long lines")


class Baselines(Base):
    """Fingerprints do not depend on the working directory; baselines are
    strict, tolerate a byte-order mark, and are regular files."""

    def proj(self):
        d = os.path.join(self.dir, "proj")
        os.makedirs(os.path.join(d, ".git"), exist_ok=True)   # the project's root
        os.makedirs(os.path.join(d, "src", "deeper"), exist_ok=True)
        p = self.write("proj/src/k.cu", KERNEL)
        return d, p

    def test_any_working_directory(self):
        d, p = self.proj()
        bl = os.path.join(d, "baseline.json")
        rc, _, err = run([SMEMLINT, *BASE, "--write-baseline", bl, "src/k.cu"], d)
        self.assertEqual(rc, 0, err)
        for cwd, arg in ((d, "src/k.cu"), (os.path.join(d, "src"), "k.cu"),
                         (os.path.join(d, "src", "deeper"), "../k.cu"), (self.dir, p)):
            rc, out, err = run([SMEMLINT, *BASE, "--baseline", bl, arg], cwd)
            self.assertEqual((rc, out), (0, b""), f"from {cwd}: {out.decode()[:300]} {err}")

    def baseline(self, text, rcs=(2,)):
        d, p = self.proj()
        bl = os.path.join(d, "bl.json")
        with open(bl, "wb") as f:
            f.write(text)
        rc, out, err = run([SMEMLINT, *BASE, "--baseline", bl, p], d, timeout=60)
        self.assertIn(rc, rcs, err)
        return err

    def test_strict_numbers(self):
        for fp in (" -0000000000001a", "+000000000000001", "0x0000000000001a", "00000000000001g0"):
            err = self.baseline(('{"version": 1, "findings": [{"fingerprint": "%s"}]}' % fp).encode())
            self.assertIn("has no 16-digit hex \"fingerprint\"", err)
        for v in ('"1"', "1.0", "true"):
            err = self.baseline(('{"version": %s, "findings": []}' % v).encode())
            self.assertIn("invalid baseline", err)

    def test_byte_order_mark(self):
        self.baseline(b'\xef\xbb\xbf{"version": 1, "findings": []}\n', rcs=(1,))

    def test_fifo_baseline(self):
        d = os.path.join(self.dir, "x")
        os.mkdir(d)
        fifo = os.path.join(d, "bl.json")
        os.mkfifo(fifo)
        rc, out, err = run([SMEMLINT, *BASE, "--baseline", fifo, self.normal], d, timeout=60)
        self.assertEqual(rc, 2, err)
        self.assertIn("a FIFO, not a regular file", err)


class ClosedDescriptors(Base):
    def test_closed_stdout_is_not_reused(self):
        # with fd 1 closed, the next file opened would get it: the report
        # must not land in a temporary or another file
        out = os.path.join(self.dir, "r.html")
        p = subprocess.run([SMEMLINT, *BASE, "--html", out, self.normal], cwd=self.dir, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, preexec_fn=lambda: os.close(1), timeout=300)
        self.assertEqual(p.returncode, 2, p.stderr)
        with open(out, encoding="utf-8") as f:
            self.assertTrue(f.read().lstrip().lower().startswith("<!doctype html"))
        self.assertEqual(sorted(os.listdir(self.dir)), ["r.html"])


def toolkit_or_skip(test):
    require(test, cuda_toolkit(), "no CUDA toolkit: the header cache is only used with one")


class Cache(Base):
    """The header cache (issue 16 item 5): a PCH is built in a child process,
    so a write that fails inside libclang (which aborts its process) costs
    only the cache; nothing is left behind; targets that differ only in
    their include directories share one file."""

    def setUp(self):
        super().setUp()
        toolkit_or_skip(self)
        self.cache = os.path.join(self.dir, "cache")
        os.mkdir(self.cache)
        self.env = {"XDG_CACHE_HOME": self.cache}

    def files(self):
        return sorted(os.path.relpath(os.path.join(r, f), self.cache)
                      for r, ds, fs in os.walk(self.cache) for f in fs + [d for d in ds if ".tmp." in d])

    def smemlint(self, *args, env=None):
        e = dict(self.env)
        e.update(env or {})
        rc, out, err = run([SMEMLINT, "--format=json", *args], self.dir, env=e)
        self.assertGreaterEqual(rc, 0, f"killed by signal {-rc}: {err[-2000:]}")
        return rc, out, err

    def test_write_fails_inside_libclang(self):
        # a file size limit in the child only: libclang's write fails with
        # EFBIG as on a full disk, and libclang aborts the child
        rc, out, err = self.smemlint(self.normal, env={"SMEMLINT_TEST_PCH_FSIZE": "100000"})
        self.assertEqual(rc, 1, err[-2000:])
        self.assertEqual(self.findings(json.loads(out), self.normal), self.expected_cuda())
        self.assertIn("smemlint: note: no header cache: cannot write '", err)
        self.assertIn("File too large", err)
        self.assertIn("files were parsed without it", err)
        self.assertEqual(self.files(), [], "litter in the cache directory")

    def expected_cuda(self):
        rc, out, err = run([SMEMLINT, "--no-cache", "--format=json", self.normal], self.dir)
        self.assertEqual(rc, 1, err[-2000:])
        return self.findings(json.loads(out), self.normal)

    def test_leftovers_of_killed_runs_removed(self):
        d = os.path.join(self.cache, "smemlint")
        os.makedirs(d)
        dead = subprocess.Popen(["true"])
        dead.wait()
        host = os.uname().nodename.replace("/", "_").replace(".", "_")
        left = os.path.join(d, f"pch-{'0' * 32}.tmp.{host}.{dead.pid}.AbCdEf")
        os.mkdir(left)
        with open(os.path.join(left, "h.pch"), "wb") as f:
            f.write(b"x" * 1000)
        old = os.path.join(d, f"pch-{'1' * 32}.pch.tmp.XyZ123")  # the old kind, two hours old
        open(old, "w").close()
        os.utime(old, (time.time() - 7200, time.time() - 7200))
        rc, out, err = self.smemlint(self.normal)
        self.assertEqual(rc, 1, err[-2000:])
        self.assertFalse(os.path.exists(left), "the temporary directory of a dead process stayed")
        self.assertFalse(os.path.exists(old))
        self.assertEqual(len([f for f in os.listdir(d) if f.endswith(".pch")]), 1)

    def test_interrupted_build_leaves_nothing(self):
        d = os.path.join(self.cache, "smemlint")
        e = dict(os.environ)
        e.update(self.env)
        p = subprocess.Popen([SMEMLINT, self.normal], cwd=self.dir, env=e, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.time() + 30
        while time.time() < deadline and not (os.path.isdir(d) and any(".tmp." in f for f in os.listdir(d))):
            time.sleep(0.005)
        os.killpg(p.pid, signal.SIGINT)  # as ^C: the whole process group
        p.wait(timeout=60)
        rc, out, err = self.smemlint(self.normal)
        self.assertEqual(rc, 1, err[-2000:])
        self.assertEqual([f for f in os.listdir(d) if ".tmp." in f], [], "temporaries of the interrupted run")

    def test_targets_share_one_file(self):
        for name in ("a", "b"):
            inc = os.path.join(self.dir, "inc_" + name)
            os.mkdir(inc)
            open(os.path.join(inc, f"project_{name}.h"), "w").close()
            rc, out, err = self.smemlint(self.normal, "--", f"-I{inc}", "-isystem", f"inc_{name}")
            self.assertEqual(rc, 1, err[-2000:])
        d = os.path.join(self.cache, "smemlint")
        pchs = [f for f in os.listdir(d) if f.endswith(".pch")]
        self.assertEqual(len(pchs), 1, pchs)
        # a directory holding a header the PCH contains gets a PCH of its own
        with open(os.path.join(d, pchs[0][:-4] + ".deps")) as f:
            deps = [l.strip() for l in f if l.strip()]
        self.assertTrue(deps)
        inc = os.path.join(self.dir, "inc_shadow")
        os.mkdir(inc)
        with open(os.path.join(inc, os.path.basename(deps[-1])), "w") as f:
            f.write(open(deps[-1]).read())
        rc, out, err = self.smemlint(self.normal, "--", f"-I{inc}")
        self.assertEqual(rc, 1, err[-2000:])
        self.assertEqual(len([f for f in os.listdir(d) if f.endswith(".pch")]), 2)


class Results(Base):
    """Results are bounded (issue 16 item 6): findings and access records per
    file are capped with a too-many-results warning; what a clean file's
    result keeps after its analysis is small (its text is released)."""

    def many(self, n):
        body = "".join(f"    s[(threadIdx.x * 2 + {i}) & 1023] = {i};\n" for i in range(n))
        return self.write("many.cu", "__global__ void k(float *o)\n{\n    __shared__ float s[1024];\n" + body +
                          "    o[0] = s[0];\n}\n")

    def test_findings_capped(self):
        p = self.many(30)
        rc, doc, err = self.lint(p, rcs=(1,))
        self.assertGreaterEqual(len(self.findings(doc, p)), 30)
        self.assertEqual(self.ids(doc, p), set())
        rc, doc, err = self.lint(p, rcs=(1,), env={"SMEMLINT_TEST_MAX_RESULTS": "5"})
        self.assertEqual(len(self.findings(doc, p)), 5)
        msgs = self.notes(doc, p, "warning", "too-many-results")
        self.assertEqual(msgs, [f"too many results: '{p}' gave more than 5 findings; the rest are left out"])

    def test_access_records_capped(self):
        p = self.many(30)
        rc, doc, err = self.lint(p, rcs=(1,), extra=("--all-accesses",),
                                 env={"SMEMLINT_TEST_MAX_RESULTS": "7"})
        accs = [a for a in doc.get("accesses", []) if a.get("file") == p]
        self.assertEqual(len(accs), 7, doc.keys())
        self.assertTrue(any("access records" in m for m in self.notes(doc, p, "warning", "too-many-results")))

    def test_clean_files_keep_little(self):
        # 30 and then 180 clean files in one run: the peak RSS grows by far
        # less than the 64 KiB arena block each result used to keep
        d = os.path.join(self.dir, "tree")
        os.mkdir(d)
        def rss(n):
            for i in range(n):
                with open(os.path.join(d, f"f{i:04d}.cu"), "w") as f:
                    f.write(f"__global__ void k{i}(float *o) {{ __shared__ float s[64]; "
                            f"if (threadIdx.x < 64) s[threadIdx.x] = o[0]; __syncthreads(); o[1] = s[threadIdx.x & 63]; }}\n")
            p = subprocess.run(["/usr/bin/time", "-f", "%M", SMEMLINT, *BASE, "-j2", "--format=json", d],
                               capture_output=True, timeout=1200)
            self.assertEqual(p.returncode, 0, p.stderr[-2000:])
            return int(p.stderr.decode().strip().splitlines()[-1])
        require(self, os.path.exists("/usr/bin/time"), "no /usr/bin/time (Debian's time package)")
        if os.environ.get("ASAN_OPTIONS"):
            self.skipTest("peak RSS under AddressSanitizer (shadow memory, quarantine) says nothing "
                          "about what smemlint keeps; measured in the normal build")
        small, large = rss(30), rss(180)
        per_file_kib = (large - small) / 150
        self.assertLess(per_file_kib, 16, f"{per_file_kib:.1f} KiB kept per clean file ({small} -> {large} KiB)")

    def test_streamed_formats_agree(self):
        # the report is written as files finish: JSON lines carry the same
        # entries as the JSON document, file by file in input order, and
        # the document itself is whole (notifications after every result)
        d = os.path.join(self.dir, "tree")
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gen_memory.py"), "files", "12", d], check=True)
        with open(os.path.join(d, "d000", "f00005.cu"), "w") as f:
            f.write("__global__ void k(float *o) { undefined_name(); }\n")
        args = [SMEMLINT, *BASE, "-j2", "--all-accesses", d]
        doc = json.loads(subprocess.run(args + ["--format=json"], capture_output=True, timeout=600).stdout)
        lines = [json.loads(l) for l in
                 subprocess.run(args + ["--format=jsonl"], capture_output=True, timeout=600).stdout.splitlines()]
        for key, typ in (("results", "result"), ("notifications", "notification"), ("accesses", "access")):
            got = [{k: v for k, v in l.items() if k != "type"} for l in lines if l["type"] == typ]
            self.assertEqual(got, doc[key], key)
            self.assertGreater(len(got), 0, key)
        files = [l["file"] for l in lines]
        self.assertEqual(files, sorted(files), "JSON lines come file by file in input order")

    def test_many_kernels_memory(self):
        # 400 then 1,600 trivial kernels in one file: each added kernel
        # costs far less than the 20 KB target (one fix-plan table per
        # kernel sized by the file's arrays once made it quadratic)
        if not os.path.exists("/usr/bin/time"):
            self.skipTest("no /usr/bin/time")
        if os.environ.get("ASAN_OPTIONS"):
            self.skipTest("peak RSS under AddressSanitizer says nothing about what smemlint keeps")
        def rss(n):
            src = os.path.join(self.dir, f"k{n}.cu")
            subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gen_memory.py"), "kernels", str(n), src],
                           check=True)
            p = subprocess.run(["/usr/bin/time", "-f", "%M", SMEMLINT, *BASE, "-j1", "--format=json", src],
                               capture_output=True, timeout=1200)
            self.assertEqual(p.returncode, 1, p.stderr[-2000:])
            return int(p.stderr.decode().strip().splitlines()[-1])
        small, large = rss(400), rss(1600)
        per_kernel_kib = (large - small) / 1200
        self.assertLess(per_kernel_kib, 20, f"{per_kernel_kib:.1f} KiB per kernel ({small} -> {large} KiB)")



class Generated(Base):
    """The fuzz seed generators (tools/fuzz/gen_seeds.py): deep macros,
    labels and gotos, long lines. Each file is analyzed next to the normal
    one within the fuzzer's per-input time, without a crash."""

    def test_generated_seeds(self):
        seeds = os.path.join(self.dir, "seeds")
        subprocess.run([sys.executable, os.path.join(ROOT, "tools", "fuzz", "gen_seeds.py"), seeds], check=True)
        names = sorted(os.listdir(seeds))
        self.assertEqual(len(names), 10)
        for n in names:
            p = os.path.join(seeds, n)
            self.assertLess(os.path.getsize(p), 64 * 1024, n)
            t = time.time()
            rc, doc, err = self.lint(p)
            self.assertLess(time.time() - t, 30, f"{n} took {time.time() - t:.1f} s")
            self.assertEqual(self.ids(doc, p) - {"nesting-too-deep", "call-not-followed"}, set(), (n, doc["notifications"]))


if __name__ == "__main__":
    unittest.main()
