#!/usr/bin/env python3
"""The command as a user drives it, where it is more than the text output on
one file: the JSON contract, exit codes of usage and input errors,
compile_commands.json, the bundled header against the toolkit, and partial
JSON results on parse errors.

What smemlint prints for one file (block shapes from every source and
--block-dim, flags after --, the text format, partial results on a parse
error) is in rule tests: tests/rules/bank-conflict/{block_dims,
block_dims_flag,block_dims_launch_bounds,flags_stride16,flags_stride2,
parse_error}.cu and the corpus (tests/run_rules.py)."""
import json, os, shutil, subprocess, tempfile, unittest
from tooling import cuda_toolkit, needs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMEMLINT = os.environ.get("SMEMLINT", os.path.join(ROOT, "build", "smemlint"))
BANK = os.path.join(ROOT, "tests", "rules", "bank-conflict")


def run(*args, cwd=ROOT):
    return subprocess.run([SMEMLINT, *args], capture_output=True, text=True, cwd=cwd)


def results(*args, cwd=ROOT):
    p = run("--format=json", *args, cwd=cwd)
    assert p.returncode in (0, 1), (p.returncode, p.stderr)
    return json.loads(p.stdout)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def bank(doc):
    return [r for r in doc["results"] if r["rule"] == "bank-conflict"]


class Contract(unittest.TestCase):
    def test_json_fields(self):
        doc = results(os.path.join(ROOT, "corpus", "transpose.cu"))
        (r,) = bank(doc)
        for k in ("rule", "file", "line", "column", "end_line", "end_column", "kernel", "array", "access",
                  "ways", "message"):
            self.assertIn(k, r)
        self.assertEqual((r["line"], r["column"], r["end_line"], r["end_column"]), (40, 38, 40, 72))
        self.assertEqual((r["kernel"], r["array"], r["access"], r["ways"]), ("transpose_naive", "tile", "load", 32))
        self.assertTrue(r["message"].startswith("32-way bank conflict on load of 'tile' (float[32][32])"))

    def test_predicted_wavefronts(self):
        # the profiler's counts, predicted: per block, per launch (the grid
        # of transpose.cu's launch is 2x2), against the committed GPU
        # measurement of the same line (corpus/measured/transpose.tsv)
        measured = {}
        with open(os.path.join(ROOT, "corpus", "measured", "transpose.tsv")) as f:
            for line in f:
                c = line.rstrip("\n").split("\t")
                if c[0].isdigit():
                    measured[int(c[0])] = (int(float(c[3])), int(float(c[4])))
        doc = results("--all-accesses", os.path.join(ROOT, "corpus", "transpose.cu"))
        (r,) = bank(doc)
        self.assertEqual(r["wavefronts"], {"per_block": 1024, "ideal_per_block": 32, "per_launch": 4096,
                                           "ideal_per_launch": 128, "exact": True})
        for a in doc["accesses"]:
            w = a["wavefronts"]
            self.assertEqual((w["per_launch"], w["ideal_per_launch"]), measured[a["line"]], a)
        p = run("--format=sarif", os.path.join(ROOT, "corpus", "transpose.cu"))
        props = json.loads(p.stdout)["runs"][0]["results"][0]["properties"]
        self.assertEqual(props["wavefronts"]["perLaunch"], 4096)
        self.assertEqual(props["wavefronts"]["idealPerBlock"], 32)
        # an unknown trip count: the sums are a bound's, and say so
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "k.cu")
            write(src, "__global__ void k(float *o, int n) {\n"
                       "    __shared__ float s[32][32];\n"
                       "    for (int i = 0; i < n; i++)\n"
                       "        s[threadIdx.x][i % 32] = 1.0f;\n"
                       "    __syncthreads();\n"
                       "    o[threadIdx.x] = s[0][threadIdx.x];\n"
                       "}\n"
                       "int main(int argc, char **argv) { k<<<argc, 32>>>(0, argc); }\n")
            (r,) = bank(results(src))
            self.assertFalse(r["wavefronts"]["exact"])
            self.assertNotIn("per_launch", r["wavefronts"])
        # an invariant loop's iterations are counted, not skipped
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "k.cu")
            write(src, "__global__ void k(float *o) {\n"
                       "    __shared__ float s[32][32];\n"
                       "    float v = 0;\n"
                       "    for (int i = 0; i < 10; i++)\n"
                       "        v += s[threadIdx.x][0];\n"
                       "    o[threadIdx.x] = v;\n"
                       "}\n"
                       "int main() { k<<<3, 32>>>(0); }\n")
            (r,) = bank(results(src))
            self.assertEqual(r["wavefronts"], {"per_block": 320, "ideal_per_block": 10, "per_launch": 960,
                                               "ideal_per_launch": 30, "exact": True})

    def test_exit_codes(self):
        # 0 and 1 (findings or none) are checked by every rule test
        with tempfile.TemporaryDirectory() as d:
            clean = os.path.join(d, "clean.cu")
            open(clean, "w").write("__global__ void k(float *o) { __shared__ float s[64]; s[threadIdx.x] = 1; __syncthreads(); o[0] = s[0]; }\n")
            self.assertEqual(run("--no-such-flag", clean).returncode, 2)
            self.assertEqual(run("--block-dim", "2000", clean).returncode, 2)
            txt = os.path.join(d, "notes.txt")
            open(txt, "w").write("hello\n")
            p = run(txt, os.path.join(ROOT, "corpus", "transpose.cu"))
            self.assertEqual(p.returncode, 2)
            self.assertIn("not a CUDA source file: '%s'" % txt, p.stdout + p.stderr)
            self.assertIn("transpose.cu:40:38: warning: 32-way", p.stdout)

    def test_parse_error_partial_results(self):
        p = run("--format=json", os.path.join("tests", "rules", "bank-conflict", "parse_error.cu"))
        self.assertEqual(p.returncode, 2, "a file that does not parse fails the lint step")
        doc = json.loads(p.stdout)
        self.assertEqual([(r["kernel"], r["ways"]) for r in bank(doc)], [("fine", 32)])
        notes = doc["notifications"]
        self.assertTrue(any(n["id"] == "parse-error" and "undeclared_thing" in n["message"] for n in notes), notes)


    def test_text_input_errors_on_stderr(self):
        # a text report redirected away from stderr: the input errors also
        # reach stderr, named (issue 24: the docs promise stderr in every format)
        f = os.path.join("tests", "rules", "bank-conflict", "parse_error.cu")
        p = run(f)
        self.assertEqual(p.returncode, 2)
        self.assertRegex(p.stdout, r"parse_error\.cu:\d+:\d+: error: .*undeclared_thing")
        self.assertRegex(p.stderr, r"(?m)^tests/rules/bank-conflict/parse_error\.cu:\d+:\d+: error: "
                                   r".*undeclared_thing.* \[parse-error\]$")
        # one stream for both (2>&1): written once
        q = subprocess.run([SMEMLINT, f], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
        self.assertEqual(q.stdout.count("undeclared_thing"), p.stdout.count("undeclared_thing"), q.stdout)


class Flags(unittest.TestCase):
    def test_compile_commands_from_nvcc(self):
        with tempfile.TemporaryDirectory() as d:
            shutil.copy(os.path.join(BANK, "flags_stride16.cu"), os.path.join(d, "flags.cu"))
            os.makedirs(os.path.join(d, "include"))
            shutil.copy(os.path.join(BANK, "inc", "flags_inc.cuh"), os.path.join(d, "include"))
            build = os.path.join(d, "build")
            os.makedirs(build)
            cmd = ("/usr/local/cuda/bin/nvcc -DSTRIDE=8 -I../include --expt-relaxed-constexpr -Xcompiler -fPIC "
                   "-gencode arch=compute_80,code=sm_80 -O3 -lineinfo -c ../flags.cu -o flags.o")
            json.dump([{"directory": build, "command": cmd, "file": "../flags.cu"}],
                      open(os.path.join(build, "compile_commands.json"), "w"))
            (r,) = bank(results("-p", build, os.path.join(d, "flags.cu")))
            self.assertEqual(r["ways"], 16)
            json.dump([{"directory": build, "file": "../flags.cu",
                        "arguments": ["nvcc", "-DSTRIDE=1", "-I", "../include", "-arch=sm_75", "-c", "../flags.cu"]}],
                      open(os.path.join(build, "compile_commands.json"), "w"))
            (r,) = bank(results("-p", build, os.path.join(d, "flags.cu")))
            self.assertEqual(r["ways"], 2)

    def clang_args(self, build, src, *extra):
        p = run("--print-clang-args", "-p", build, *extra, src)
        self.assertEqual(p.returncode, 0, p.stderr)
        (entry,) = json.loads(p.stdout)
        return entry["arguments"]

    def test_response_files_and_nvcc_flags(self):
        # issue 15: CMake's Makefile generator hands the include paths over
        # in --options-file CMakeFiles/<t>.dir/includes_CUDA.rsp, relative
        # to the entry's directory; nvcc's rdc, multi-arch and host flags
        with tempfile.TemporaryDirectory() as d:
            shutil.copy(os.path.join(BANK, "flags_stride16.cu"), os.path.join(d, "flags.cu"))
            os.makedirs(os.path.join(d, "include"))
            shutil.copy(os.path.join(BANK, "inc", "flags_inc.cuh"), os.path.join(d, "include"))
            build = os.path.join(d, "build")
            os.makedirs(os.path.join(build, "rsp"))
            open(os.path.join(build, "rsp", "includes_CUDA.rsp"), "w").write('-I"../include" @rsp/defs.rsp\n')
            open(os.path.join(build, "rsp", "defs.rsp"), "w").write("-DSTRIDE=8\n-isystem /opt/sys\n")
            open(os.path.join(build, "rsp", "loop.rsp"), "w").write("@rsp/loop.rsp\n")
            db = os.path.join(build, "compile_commands.json")

            def write(cmd):
                json.dump([{"directory": build, "command": cmd, "file": "../flags.cu"}], open(db, "w"))

            gencode = ("--generate-code=arch=compute_90,code=[compute_90,sm_90] "
                       "--generate-code=arch=compute_80,code=[compute_80,sm_80] -gencode arch=compute_86,code=sm_86")
            for opt in ("--options-file rsp/includes_CUDA.rsp", "-optf rsp/includes_CUDA.rsp",
                        "--options-file=rsp/includes_CUDA.rsp", "@rsp/includes_CUDA.rsp"):
                write("nvcc -forward-unknown-to-host-compiler %s %s --expt-relaxed-constexpr --extended-lambda "
                      "-Xcompiler -fPIC -Xcompiler=-Wall -std=c++17 -x cu -rdc=true -c ../flags.cu -o flags.o"
                      % (opt, gencode))
                doc = results("-p", build, os.path.join(d, "flags.cu"))
                self.assertEqual(doc["notifications"], [], opt)
                self.assertEqual([r["ways"] for r in bank(doc)], [16], opt)
                args = self.clang_args(build, os.path.join(d, "flags.cu"))
                self.assertIn("-I" + os.path.join(build, "../include"), args)
                self.assertIn("-DSTRIDE=8", args)
                self.assertEqual(args[args.index("/opt/sys") - 1], "-isystem")
                self.assertIn("-fgpu-rdc", args)
                self.assertIn("--cuda-gpu-arch=sm_80", args, "the lowest real arch of the list")
                self.assertFalse([a for a in args if "fPIC" in a or "Wall" in a or "expt" in a or "lambda" in a])
            self.assertIn("--cuda-gpu-arch=sm_90", self.clang_args(build, os.path.join(d, "flags.cu"), "--arch", "sm_90"),
                          "--arch wins over the database")
            for rdc in ("--relocatable-device-code=true", "--relocatable-device-code true", "-dc"):
                write("nvcc -DSTRIDE=8 -I../include %s -c ../flags.cu" % rdc)
                self.assertIn("-fgpu-rdc", self.clang_args(build, os.path.join(d, "flags.cu")), rdc)
            write("nvcc -DSTRIDE=8 -I../include -rdc=false -c ../flags.cu")
            args = self.clang_args(build, os.path.join(d, "flags.cu"))
            self.assertEqual([a for a in args if a.endswith("gpu-rdc")][-1], "-fno-gpu-rdc",
                             "the command's -rdc=false wins over the assumed -fgpu-rdc")
            # a response file that cannot be read, or loops: a warning naming it
            for bad, what in (("--options-file rsp/missing.rsp", "missing.rsp"), ("@rsp/loop.rsp", "nested deeper")):
                write("nvcc -DSTRIDE=8 -I../include %s -c ../flags.cu" % bad)
                doc = results("-p", build, os.path.join(d, "flags.cu"))
                (n,) = doc["notifications"]
                self.assertEqual((n["id"], n["level"]), ("compile-flags-incomplete", "warning"))
                self.assertIn(what, n["message"])
                self.assertEqual([r["ways"] for r in bank(doc)], [16])

    def test_file_missing_from_the_database(self):
        with tempfile.TemporaryDirectory() as d:
            json.dump([], open(os.path.join(d, "compile_commands.json"), "w"))
            src = os.path.join("corpus", "transpose.cu")
            p = run("--format=json", "-p", d, src)
            self.assertEqual(p.returncode, 1, "a warning: the findings decide the exit status")
            (n,) = json.loads(p.stdout)["notifications"]
            self.assertEqual((n["id"], n["level"]), ("not-in-compile-database", "warning"))
            self.assertIn("not in the compile database: '%s'" % src, n["message"])
            p = run("-p", d, src)
            self.assertIn("warning: not in the compile database", p.stdout)

    def test_cuda_language_cpp(self):
        # issue 15: a .cpp the compile command compiles as CUDA (-x cu, as
        # CMake writes for LANGUAGE CUDA) is linted, found under a
        # directory, named, or through clang's -x cuda after --; a .cpp the
        # host compiler builds is not
        with tempfile.TemporaryDirectory() as d:
            src, build = os.path.join(d, "src"), os.path.join(d, "build")
            for f in ("sub/k.cpp", "skip/k2.cpp", "a.cu", "sub-x/z.cu"):
                os.makedirs(os.path.dirname(os.path.join(src, f)), exist_ok=True)
                write(os.path.join(src, f), TWO_LEVELS)
            write(os.path.join(src, "host.cpp"), "this is not C++ nor CUDA\n")
            os.makedirs(build)
            nvcc = "/usr/local/cuda/bin/nvcc --generate-code=arch=compute_80,code=[compute_80,sm_80] -x cu -c %s -o x.o"
            db = [{"directory": build, "command": nvcc % os.path.join(src, "sub", "k.cpp"),
                        "file": os.path.join(src, "sub", "k.cpp")},
                       {"directory": build, "command": nvcc % "../src/skip/k2.cpp", "file": "../src/skip/k2.cpp"},
                       {"directory": build, "command": "/usr/bin/c++ -c ../src/host.cpp -o h.o", "file": "../src/host.cpp"},
                       {"directory": build, "command": nvcc % "../src/a.cu", "file": "../src/a.cu"},
                       {"directory": build, "command": nvcc % "../src/sub-x/z.cu", "file": "../src/sub-x/z.cu"}]
            write(os.path.join(build, "compile_commands.json"), json.dumps(db))
            files = lambda doc: [r["file"] for r in doc["results"] if r["rule"] == "bank-conflict"]
            doc = results("--no-cuda", "-p", "build", "src/", cwd=d)
            self.assertEqual(doc["notifications"], [])
            # in the walk's order: each directory's names sorted, depth first
            self.assertEqual(files(doc), ["src/a.cu", "src/skip/k2.cpp", "src/sub/k.cpp", "src/sub-x/z.cu"])
            doc = results("--no-cuda", "-p", "build", "--exclude", "skip", "src", cwd=d)
            self.assertEqual(files(doc), ["src/a.cu", "src/sub/k.cpp", "src/sub-x/z.cu"])
            doc = results("--no-cuda", "-p", "build", "src/sub/k.cpp", cwd=d)
            self.assertEqual((files(doc), doc["notifications"]), (["src/sub/k.cpp"], []))
            p = run("--no-cuda", "src/sub/k.cpp", cwd=d)
            self.assertEqual(p.returncode, 2)
            self.assertIn("not a CUDA source file: 'src/sub/k.cpp' (expected .cu or .cuh, or a compile command "
                          "with -x cu)", p.stdout)
            self.assertEqual(files(results("--no-cuda", "src/sub/k.cpp", "--", "-x", "cuda", cwd=d)), ["src/sub/k.cpp"])
            self.assertEqual(files(results("--no-cuda", "src/sub/k.cpp", "--", "-xcuda", cwd=d)), ["src/sub/k.cpp"])
            # the launcher: the .cpp after -x cu is linted before the compiler runs
            p = subprocess.run([SMEMLINT, "--no-cuda", "--launcher", "--", "true", "-x", "cu", "-c", "sub/k.cpp", "-o",
                                "k.o"], capture_output=True, text=True, cwd=src)
            self.assertEqual(p.returncode, 0)
            self.assertIn("sub/k.cpp:5:5: warning: 32-way bank conflict", p.stderr)
            p = subprocess.run([SMEMLINT, "--no-cuda", "--launcher", "--", "true", "-c", "sub/k.cpp"],
                               capture_output=True, text=True, cwd=src)
            self.assertEqual((p.returncode, p.stderr), (0, ""), "without -x cu a .cpp is the host compiler's")

    def test_bad_compile_commands(self):
        with tempfile.TemporaryDirectory() as d:
            open(os.path.join(d, "compile_commands.json"), "w").write("{not json")
            p = run("-p", d, os.path.join("corpus", "transpose.cu"))
            self.assertEqual(p.returncode, 2)
            self.assertIn("compile_commands.json", p.stderr)


class Terminal(unittest.TestCase):
    # issue 15: colour, the closing summary, the progress line, --quiet
    SRC = os.path.join("corpus", "transpose.cu")

    def test_color(self):
        self.assertIn("\033[1;35mwarning:\033[0m", run("--color=always", self.SRC).stdout)
        self.assertNotIn("\033[", run("--color=never", self.SRC).stdout)
        self.assertNotIn("\033[", run(self.SRC).stdout, "auto: not a terminal")
        self.assertNotIn("\033[", run("--color=always", "--format=json", self.SRC).stdout)
        self.assertEqual(run("--color=blue", self.SRC).returncode, 2)

    def test_summary_and_quiet(self):
        p = run(self.SRC)
        self.assertRegex(p.stderr, r"^smemlint: 1 finding \(1 warning\) in 1 file; 0 files with input problems; "
                                   r"[0-9.]+ s\n$")
        self.assertEqual(run("-q", self.SRC).stderr, "")
        self.assertEqual(run("--quiet", "--format=json", self.SRC).stderr, "")
        # a file whose input problems are all notes (async_libcu.cu: three
        # nvcc-accepts notes) is counted apart from those with warnings
        # or errors (issue 27: a note is not a problem that stops a tree
        # from linting green)
        p = run(self.SRC, os.path.join("corpus", "async_libcu.cu"))
        self.assertRegex(p.stderr, r"in 2 files; 0 files with input problems \(1 more with notes only\); [0-9.]+ s\n$")
        p = run(self.SRC, os.path.join("tests", "rules", "bank-conflict", "parse_error.cu"))
        self.assertRegex(p.stderr, r"in 2 files; 1 file with input problems; [0-9.]+ s\n$")

    def test_progress_on_a_terminal(self):
        import pty
        master, slave = pty.openpty()
        p = subprocess.run([SMEMLINT, "--no-cuda", self.SRC, os.path.join("corpus", "reduce.cu")], cwd=ROOT,
                           stdout=subprocess.PIPE, stderr=slave, text=True)
        os.close(slave)
        err = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            err += chunk
        os.close(master)
        err = err.decode()
        self.assertIn("[2/2] ", err)
        self.assertIn("\r\033[K", err, "the line is rewritten in place and cleared")
        self.assertNotIn("[1/2]", p.stdout, "never into the report")


# error-level findings (a divergent barrier) and a warning (a 32-way bank
# conflict), in one file
TWO_LEVELS = """__global__ void k(float *out)
{
    __shared__ float t[1024][32];
    unsigned x = threadIdx.x;
    t[x][0] = out[x];
    if (x < 16)
        __syncthreads();
    out[x] = t[0][x % 32];
}
"""


# `threadIdx.x == 0` is one thread of a 1-D block but a column of a 2-D one:
# with no launch the kernel is assumed 32x8, where the threads of column 0
# race on f, and no race is there for (32,1,1)
ASSUMED_ONLY = r"""
__global__ void column(float *o)
{
    __shared__ int f;
    if (threadIdx.x == 0)
        f = threadIdx.y;
    __syncthreads();
    o[threadIdx.x] = f;
}
"""


class ExitStatus(unittest.TestCase):
    # issue 15: --fail-on LEVEL, --exit-zero, --statistics, --output-format
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.src = os.path.join(self.dir.name, "two.cu")
        write(self.src, TWO_LEVELS)
        self.clean = os.path.join(self.dir.name, "clean.cu")
        write(self.clean, "__global__ void k(float *o) { __shared__ float s[64]; "
                                    "s[threadIdx.x] = 1; __syncthreads(); o[0] = s[0]; }\n")
        self.warn = os.path.join(ROOT, "corpus", "transpose.cu")  # one warning

    def tearDown(self):
        self.dir.cleanup()

    def levels(self):
        return sorted(r["level"] for r in results("--no-cuda", self.src)["results"])

    def test_fail_on(self):
        # the race of line 8 needs more than 32 threads: `assumed` (see test_assumed_level)
        self.assertEqual(set(self.levels()), {"error", "warning", "assumed"})
        for opts, two, warn, clean in (([], 1, 1, 0), (["--fail-on=note"], 1, 1, 0),
                                        (["--fail-on", "warning"], 1, 1, 0), (["--fail-on=error"], 1, 0, 0),
                                        (["--fail-on=never"], 0, 0, 0), (["--exit-zero"], 0, 0, 0),
                                        (["--exit-zero", "--fail-on=error"], 1, 0, 0)):
            self.assertEqual([run("-q", "--no-cuda", *opts, f).returncode for f in (self.src, self.warn, self.clean)],
                             [two, warn, clean], opts)
        # a level changed by --severity counts at its new level
        self.assertEqual(run("-q", "--no-cuda", "--fail-on=error", "--severity", "bank-conflict=error",
                             self.warn).returncode, 1)
        # the report is the same whatever fails the run
        self.assertEqual(run("-q", "--no-cuda", "--exit-zero", self.src).stdout, run("-q", "--no-cuda", self.src).stdout)

    def test_input_errors_still_fail(self):
        missing = os.path.join(self.dir.name, "missing.cu")
        for opts in (["--exit-zero"], ["--fail-on=never"], ["--fail-on=error"]):
            p = run("-q", "--no-cuda", *opts, self.warn, missing)
            self.assertEqual(p.returncode, 2, opts)
            self.assertIn("cannot read", p.stdout + p.stderr)

    def test_bad_level(self):
        p = run("--fail-on=warnings", self.src)
        self.assertEqual(p.returncode, 2)
        self.assertEqual(p.stderr, "smemlint: invalid --fail-on level 'warnings': expected error, warning, note, "
                                   "assumed or never\n")
        self.assertEqual(run("--fail-on", self.src).returncode, 2, "a level is required (the file is not one)")

    def test_assumed_level(self):
        # issue 23: a barrier finding made under an assumed block shape that
        # does not hold for every shape the kernel admits is at the level
        # `assumed`, below note: the default --fail-on ignores it
        src = os.path.join(self.dir.name, "column.cu")
        write(src, ASSUMED_ONLY)
        doc = results("--no-cuda", src)
        self.assertEqual([(r["rule"], r["level"]) for r in doc["results"]], [("missing-barrier", "assumed")])
        self.assertIn("(assumed; not a race for blockDim (32,1,1))", doc["results"][0]["message"])
        for opts, rc in (([], 0), (["--fail-on=note"], 0), (["--fail-on=assumed"], 1), (["--fail-on", "assumed"], 1),
                         (["--fail-on=never"], 0), (["--exit-zero", "--fail-on=assumed"], 1)):
            self.assertEqual(run("-q", "--no-cuda", *opts, src).returncode, rc, opts)
        # a rule's level set higher leaves the finding below it; a given
        # block shape makes it an error
        self.assertEqual(results("--no-cuda", "--severity", "missing-barrier=warning", src)["results"][0]["level"],
                         "assumed")
        given = results("--no-cuda", "--block-dim", "32,8", src)["results"]
        self.assertEqual([r["level"] for r in given], ["error"])
        self.assertEqual(run("-q", "--no-cuda", "--block-dim", "32,8", src).returncode, 1)
        # --severity accepts the level: a warning set to it no longer fails the run
        self.assertEqual([r["level"] for r in results("--no-cuda", "--severity", "bank-conflict=assumed",
                                                        self.warn)["results"]], ["assumed"])
        self.assertEqual(run("-q", "--no-cuda", "--severity", "bank-conflict=assumed", self.warn).returncode, 0)
        self.assertEqual(run("-q", "--no-cuda", "--severity", "bank-conflict=assumed", "--fail-on=assumed",
                             self.warn).returncode, 1)
        # the other formats: SARIF has no level below note, GitHub none below notice
        sarif = json.loads(run("-q", "--no-cuda", "--format=sarif", src).stdout)
        res = sarif["runs"][0]["results"]
        self.assertEqual([(r["level"], r["properties"]["smemlintLevel"]) for r in res], [("note", "assumed")])
        self.assertTrue(run("-q", "--no-cuda", "--format=github", src).stdout.startswith("::notice file="))
        p = run("--no-cuda", src)
        self.assertIn(": assumed: missing barrier:", p.stdout)
        self.assertIn("1 finding (1 assumed)", p.stderr)

    def test_statistics(self):
        missing = os.path.join(self.dir.name, "missing.cu")
        p = run("-q", "--no-cuda", "--statistics", self.src, self.warn, missing, cwd=self.dir.name)
        self.assertEqual(p.returncode, 2)
        stats = p.stdout[p.stdout.index("statistics:"):]
        self.assertTrue(stats.startswith("statistics: "), stats)
        doc = results("--no-cuda", self.src, self.warn)
        rules = {}
        for r in doc["results"]:
            rules[r["rule"]] = rules.get(r["rule"], 0) + 1
        lines = stats.splitlines()
        by_rule = lines[lines.index("findings by rule:") + 1:lines.index("findings by level:")]
        self.assertEqual({l.split()[1]: int(l.split()[0]) for l in by_rule}, rules)
        counts = [int(l.split()[0]) for l in by_rule]
        self.assertEqual(counts, sorted(counts, reverse=True), "largest first")
        self.assertIn("input problems by id:\n       1  cannot-read              error\n", stats)
        by_file = lines[lines.index("findings by file:") + 1:lines.index("input problems by id:")]
        self.assertEqual(sum(int(l.split()[0]) for l in by_file), len(doc["results"]))
        self.assertEqual(lines[0], "statistics: %d findings, 1 input problem in 3 files" % len(doc["results"]))
        # a machine-readable report stays valid: the table goes to stderr
        p = run("-q", "--no-cuda", "--statistics", "--format=json", self.src, self.warn)
        self.assertEqual(len(json.loads(p.stdout)["results"]), len(doc["results"]))
        self.assertTrue(p.stderr.startswith("statistics: "), p.stderr)
        self.assertNotIn("input problems by id", p.stderr, "a section with nothing in it is left out")
        # so it does with -o, and --quiet does not hide what was asked for
        out = os.path.join(self.dir.name, "report.txt")
        p = run("-q", "--no-cuda", "--statistics", "-o", out, self.clean)
        self.assertEqual((p.returncode, p.stdout, p.stderr), (0, "", "statistics: 0 findings, 0 input problems in 1 file\n"))

    def test_output_format_alias(self):
        for spelled in (["--output-format=json"], ["--output-format", "json"]):
            p = run("-q", "--no-cuda", *spelled, self.warn)
            self.assertEqual(json.loads(p.stdout), results("--no-cuda", self.warn))
        p = run("--output-format=yaml", self.warn)
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown format 'yaml'", p.stderr)
        self.assertIn("--output-format=FMT", run("--help").stdout)


class Stdin(unittest.TestCase):
    # issue 15: "-" reads the file list from standard input
    A, B = os.path.join("corpus", "transpose.cu"), os.path.join("corpus", "reduce.cu")

    def lint(self, stdin, *args):
        return subprocess.run([SMEMLINT, "-q", "--format=json", *args], input=stdin, capture_output=True, cwd=ROOT)

    def files(self, p):
        return sorted({r["file"] for r in json.loads(p.stdout)["results"]})

    def test_lines_and_nul(self):
        expected = self.lint(b"", self.A, self.B)
        for stdin in (b"%s\n%s\n" % (self.A.encode(), self.B.encode()),
                      b"%s\r\n\n%s" % (self.A.encode(), self.B.encode()),  # CRLF, a blank line, no last newline
                      b"%s\0%s\0" % (self.A.encode(), self.B.encode())):     # git ls-files -z, find -print0
            p = self.lint(stdin, "-")
            self.assertEqual((p.returncode, p.stdout), (expected.returncode, expected.stdout), stdin)
        # mixed with PATHs, in order; a second "-" adds nothing (stdin is read once)
        p = self.lint(self.B.encode() + b"\n", self.A, "-", "-")
        self.assertEqual(self.files(p), ["corpus/reduce.cu", "corpus/transpose.cu"])
        # each path is what it is on the command line: a non-CUDA file is an error
        p = self.lint(b"README.md\n", "-")
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"not a CUDA source file: 'README.md'", p.stderr)

    def test_a_path_with_a_newline(self):
        with tempfile.TemporaryDirectory() as d:
            odd = os.path.join(d, "two\nlines.cu")
            write(odd, TWO_LEVELS)
            p = self.lint(odd.encode() + b"\0", "--no-cuda", "-")
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertEqual(self.files(p), [odd])

    def test_empty_and_unreadable(self):
        p = subprocess.run([SMEMLINT, "-"], input=b"\n", capture_output=True, cwd=ROOT)
        self.assertEqual(p.returncode, 0, "an empty list from a filter is a run over no files")
        self.assertIn(b"smemlint: warning: the file list on standard input is empty\n", p.stderr)
        self.assertIn(b"0 findings in 0 files", p.stderr)
        fd = os.open(os.path.join(ROOT, "corpus"), os.O_RDONLY)
        try:
            p = subprocess.run([SMEMLINT, "-"], stdin=fd, capture_output=True, text=True, cwd=ROOT)
        finally:
            os.close(fd)
        self.assertEqual(p.returncode, 2)
        self.assertEqual(p.stderr, "smemlint: cannot read the file list from standard input: Is a directory\n")


TILE_KERNEL = """// A kernel in a project header: TILE comes from the including file.
#pragma once
#ifndef TILE
#error TILE must be defined by the including file
#endif
__global__ void transpose_tile(float *out, const float *in)
{
    __shared__ float t[TILE][TILE];
    t[threadIdx.x][threadIdx.y] = in[threadIdx.y * TILE + threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = t[threadIdx.y][threadIdx.x];
}
"""


def includer(tile, grid=1):
    return (f'#define TILE {tile}\n#include "inc/tile.cuh"\n'
            f"void run(float *o, const float *i) {{ transpose_tile<<<{grid}, dim3(32, 32)>>>(o, i); }}\n")


class Headers(unittest.TestCase):
    """Kernels in project headers (issue 15): analyzed in the files that
    include them, reported once at the header, chosen by --header-filter."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.d = self.dir.name
        os.mkdir(os.path.join(self.d, "inc"))
        write(os.path.join(self.d, "inc", "tile.cuh"), TILE_KERNEL)
        write(os.path.join(self.d, "a.cu"), includer(32))
        write(os.path.join(self.d, "b.cu"), includer(32, grid=4))

    def tearDown(self):
        self.dir.cleanup()

    def json(self, *args, rc=1):
        p = run("--no-cache", "--format=json", *args, cwd=self.d)
        self.assertEqual(p.returncode, rc, p.stdout + p.stderr)
        return json.loads(p.stdout)

    def places(self, doc):
        return [(r["file"], r["line"], r["column"], r["kernel"], r["ways"]) for r in bank(doc)]

    def test_kernel_in_header_uses_the_includers_macro(self):
        doc = self.json("a.cu")
        self.assertEqual(self.places(doc), [("inc/tile.cuh", 9, 5, "transpose_tile", 32)])
        self.assertEqual(doc["notifications"], [])
        # TILE 33 from the includer pads the rows: no conflict
        write(os.path.join(self.d, "a.cu"), includer(33))
        self.assertEqual(self.places(self.json("a.cu", rc=0)), [])

    def test_reported_once_however_many_files_include_it(self):
        for extra in ([], ["-j1"], ["-j2"], ["--timeout", "60"]):
            doc = self.json("a.cu", "b.cu", *extra)
            self.assertEqual(self.places(doc), [("inc/tile.cuh", 9, 5, "transpose_tile", 32)], extra)
        # findings that differ (another block shape) are both kept, in the
        # same order whatever the input order and -j
        write(os.path.join(self.d, "b.cu"), includer(32).replace("dim3(32, 32)", "dim3(32, 8)"))
        runs = [self.json(*files, *extra) for files in (["a.cu", "b.cu"], ["b.cu", "a.cu"]) for extra in ([], ["-j1"])]
        self.assertEqual([r["block_dim"] for r in bank(runs[0])], [[32, 32, 1], [32, 8, 1]])
        for doc in runs[1:]:
            self.assertEqual(bank(doc), bank(runs[0]))

    def test_counts_are_of_input_files(self):
        # the header's result is no input file: the closing line and
        # --statistics both count the two .cu files
        p = run("--no-cache", "--statistics", "a.cu", "b.cu", cwd=self.d)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("in 2 files;", p.stderr)
        self.assertIn("statistics: 1 finding, 0 input problems in 2 files", p.stdout)
        self.assertIn("inc/tile.cuh", p.stdout[p.stdout.index("findings by file"):])

    def test_header_filter_chooses_the_headers(self):
        self.assertEqual(len(bank(self.json("--header-filter", "/inc/", "a.cu"))), 1)
        self.assertEqual(self.places(self.json("--header-filter", "", "a.cu", "b.cu", rc=0)), [])
        self.assertEqual(self.places(self.json("--header-filter=", "a.cu", rc=0)), [])
        self.assertEqual(self.places(self.json("--header-filter", "/nothing/", "a.cu", rc=0)), [])

    def test_system_headers_are_never_analyzed(self):
        # even a filter that matches every path leaves -isystem headers out
        write(os.path.join(self.d, "sys.cu"), includer(32).replace('"inc/tile.cuh"', "<tile.cuh>"))
        doc = self.json("--header-filter", ".*", "sys.cu", "--", "-isystem", os.path.join(self.d, "inc"), rc=0)
        self.assertEqual(self.places(doc), [])
        doc = self.json("--header-filter", ".*", "sys.cu", "--", "-I", os.path.join(self.d, "inc"))
        self.assertEqual(self.places(doc), [("inc/tile.cuh", 9, 5, "transpose_tile", 32)])

    def test_bad_regex_is_a_usage_error(self):
        p = run("--no-cache", "--header-filter", "(", "a.cu", cwd=self.d)
        self.assertEqual(p.returncode, 2)
        self.assertIn("invalid --header-filter '(':", p.stderr)
        self.assertEqual(p.stdout, "")

    def test_suppression_in_the_header(self):
        text = TILE_KERNEL.replace("in[threadIdx.y * TILE + threadIdx.x];",
                                   "in[threadIdx.y * TILE + threadIdx.x]; // smemlint: ignore[bank-conflict]")
        write(os.path.join(self.d, "inc", "tile.cuh"), text)
        self.assertEqual(self.places(self.json("a.cu", "b.cu", rc=0)), [])

    def test_sarif_and_baseline_name_the_header(self):
        p = run("--no-cache", "--format=sarif", "a.cu", "b.cu", cwd=self.d)
        self.assertEqual(p.returncode, 1, p.stderr)
        res = json.loads(p.stdout)["runs"][0]["results"]
        self.assertEqual([r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in res],
                         ["inc/tile.cuh"])
        self.assertEqual(run("--no-cache", "--write-baseline", "base.json", "a.cu", "b.cu", cwd=self.d).returncode, 0)
        # the fingerprint holds from another directory and another includer
        p = run("--no-cache", "--baseline", os.path.join(self.d, "base.json"), os.path.join(self.d, "b.cu"),
                cwd=ROOT)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)

    def test_header_given_as_input(self):
        # a header that stands alone and is included by another input: one
        # report, under the path given
        write(os.path.join(self.d, "inc", "lit.cuh"), TILE_KERNEL.replace("#ifndef TILE", "#define TILE 32\n#ifndef TILE") +
              "void run_lit(float *o, const float *i) { transpose_tile<<<1, dim3(32, 32)>>>(o, i); }\n")
        write(os.path.join(self.d, "c.cu"), '#include "inc/lit.cuh"\n')
        for files in (["c.cu", "inc/lit.cuh"], ["inc/lit.cuh", "c.cu"]):
            doc = self.json(*files)
            self.assertEqual([(r["file"], r["line"]) for r in bank(doc)], [("inc/lit.cuh", 10)], files)
        # one that cannot stand alone is a parse error when given alone
        p = run("--no-cache", "inc/tile.cuh", cwd=self.d)
        self.assertEqual(p.returncode, 2)
        self.assertIn("TILE must be defined by the including file", p.stdout + p.stderr)

    def test_walked_headers_only_through_includers(self):
        # issue 27: a directory walk parses no header its files include
        # (tile.cuh needs TILE from its includer); one nobody includes is
        # parsed alone only if it defines a kernel, its errors one note
        write(os.path.join(self.d, "inc", "needs.cuh"), "__device__ int f(cfg_t c) { return c.n; }\n")
        write(os.path.join(self.d, "inc", "orphan.cuh"),
              "__global__ void lone(float *o, undeclared_t x)\n{\n\t__shared__ float s[64];\n"
              "\ts[threadIdx.x] = o[threadIdx.x];\n\to[threadIdx.x] = s[(threadIdx.x + 1) % 64];\n}\n")
        doc = self.json(".")
        self.assertEqual(self.places(doc), [("inc/tile.cuh", 9, 5, "transpose_tile", 32)])
        notes = [(os.path.normpath(n["file"]), n["id"], n["level"]) for n in doc["notifications"]]
        self.assertEqual(notes, [("inc/orphan.cuh", "header-alone-errors", "note")])
        self.assertIn("parsed on its own it has 1 error (the first: unknown type name 'undeclared_t')",
                      doc["notifications"][0]["message"])
        races = [os.path.normpath(r["file"]) for r in doc["results"] if r["rule"] == "missing-barrier"]
        self.assertEqual(races, ["inc/orphan.cuh"])
        # its note alone does not fail the run; with its includers gone,
        # tile.cuh (a kernel) is parsed alone too, and fails as one note
        os.remove(os.path.join(self.d, "a.cu"))
        os.remove(os.path.join(self.d, "b.cu"))
        write(os.path.join(self.d, "inc", "orphan.cuh"), "__global__ void lone(undeclared_t x) {}\n")
        doc = self.json(".", rc=0)
        self.assertEqual(sorted((os.path.normpath(n["file"]), n["id"]) for n in doc["notifications"]),
                         [("inc/orphan.cuh", "header-alone-errors"), ("inc/tile.cuh", "header-alone-errors")])
        # named on the command line, a header is parsed alone, errors and all
        p = run("--no-cache", "inc/needs.cuh", cwd=self.d)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)

    def test_included_cu_fragment_only_through_its_includer(self):
        # a walked .cu that a file of the run includes beside itself
        # (#include "frag_kernel.cu": rodinia's way) is a fragment: parsed
        # alone it lacks TILE; analyzed through the includer, its conflict
        # is reported at the fragment, at the includer's launch
        os.remove(os.path.join(self.d, "b.cu"))
        os.mkdir(os.path.join(self.d, "app"))
        write(os.path.join(self.d, "app", "frag_kernel.cu"), TILE_KERNEL.replace("#pragma once\n", ""))
        write(os.path.join(self.d, "app", "main.cu"),
              '#define TILE 32\n#include "frag_kernel.cu"\n'
              "void run(float *o, const float *i) { transpose_tile<<<1, dim3(32, 32)>>>(o, i); }\n")
        # its twin: another kernel.cu of the same base name elsewhere is a
        # translation unit of its own, and still analyzed alone
        os.mkdir(os.path.join(self.d, "other"))
        write(os.path.join(self.d, "other", "frag_kernel.cu"),
              "__global__ void own(float *o)\n{\n\t__shared__ float s[32][32];\n"
              "\ts[threadIdx.x][0] = o[threadIdx.x];\n\t__syncthreads();\n\to[threadIdx.x] = s[0][threadIdx.x];\n}\n"
              "void go(float *o) { own<<<1, 32>>>(o); }\n")
        doc = self.json("app", "other", "a.cu")
        self.assertEqual(doc["notifications"], [], "the fragment is not parsed alone")
        self.assertEqual(sorted(set(self.places(doc))), [("app/frag_kernel.cu", 8, 5, "transpose_tile", 32),
                                                      ("inc/tile.cuh", 9, 5, "transpose_tile", 32),
                                                      ("other/frag_kernel.cu", 4, 2, "own", 32)])
        launches = {r["launch"]["source"]["file"] for r in bank(doc) if r["file"] == "app/frag_kernel.cu"}
        self.assertEqual(launches, {"app/main.cu"})
        # named on the command line, the fragment is an input of its own
        p = run("--no-cache", "app/frag_kernel.cu", cwd=self.d)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)


class Toolkit(unittest.TestCase):
    def test_bundled_header_gives_the_same_findings(self):
        corpus = os.path.join(ROOT, "corpus")
        key = lambda doc: sorted((r["file"], r["line"], r["column"], r["rule"], r.get("ways")) for r in doc["results"])
        # CUB and libcu++ (cuda::pipeline, cuda::barrier, cuda::ptx) and cuda.h ship with the
        # toolkit, not with the bundled header: the corpus files built on
        # them are left out
        leave = ("--exclude", "idiom_cub.cu", "--exclude", "async_libcu.cu", "--exclude", "async_bulk.cu",
                 "--exclude", "async_bulk_store_lib.cu", "--exclude", "async_bulk_ptx.cu", "--exclude", "tma_tensor.cu")
        with_tk = results(*leave, corpus)
        without = results("--no-cuda", *leave, corpus)
        self.assertEqual(without["notifications"], [], "the corpus parses with the bundled header")
        self.assertEqual(key(with_tk), key(without))

    @needs(cuda_toolkit(),
           "no CUDA toolkit (/usr/local/cuda or $CUDA_PATH): the toolkit parse is not tested")
    def test_cooperative_groups_toolkit_and_bundled(self):
        # issue 23: the cooperative-groups goldens (tests/rules/*/cg_*.cu,
        # checked with --no-cuda) give the same findings, witnesses
        # included, with the toolkit's own headers
        rules = os.path.join(ROOT, "tests", "rules")
        files = sorted(os.path.join(rules, d, f) for d in os.listdir(rules)
                       if os.path.isdir(os.path.join(rules, d))
                       for f in os.listdir(os.path.join(rules, d)) if f.startswith("cg_"))
        self.assertGreaterEqual(len(files), 3, files)
        key = lambda doc: sorted((r["file"], r["line"], r["column"], r["rule"], r["message"]) for r in doc["results"])
        for f in files:
            with_tk = results("--no-cache", f)
            without = results("--no-cache", "--no-cuda", f)
            self.assertEqual(with_tk["notifications"], [], f)
            self.assertEqual(without["notifications"], [], f)
            self.assertTrue(with_tk["results"], f)
            self.assertEqual(key(with_tk), key(without), f)

    @needs(cuda_toolkit(),
           "no CUDA toolkit (/usr/local/cuda or $CUDA_PATH): the toolkit parse is not tested")
    def test_code_nvcc_accepts(self):
        # issue 15: the streaming store, host max/min, CUB's warp-transpose
        # BlockLoad (placement new: clang's cuda_wrappers through
        # -resource-dir) parse with the toolkit as with nvcc
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "accepts.cu")
            open(src, "w").write(open(os.path.join(BANK, "nvcc_accepts.cu")).read().replace(
                "#include <cmath>", "#include <cmath>\n#include <cub/cub.cuh>").replace(
                "int host_blocks", """__global__ void load(const int *in, int *out)
{
    typedef cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> BL;
    __shared__ typename BL::TempStorage tmp;
    int items[4];
    BL(tmp).Load(in, items);
    out[threadIdx.x] = items[0];
}

int host_blocks"""))
            for cache in ([], ["--no-cache"]):
                p = run("--format=json", *cache, src)
                self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
                doc = json.loads(p.stdout)
                self.assertEqual(doc["notifications"], [])
                self.assertEqual([(r["kernel"], r["ways"]) for r in bank(doc)], [("stream", 2)])

    def test_bad_cuda_path(self):
        p = run("--cuda-path", "/nonexistent", os.path.join("corpus", "transpose.cu"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("no CUDA toolkit at '/nonexistent'", p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
